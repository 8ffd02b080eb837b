/* bl-profile-page.h — one tab: loading progress, the error, or the loaded view
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-heap-view.h"
#include "bl-profile.h"
#include "bl-profile-view.h"

G_BEGIN_DECLS

#define BL_TYPE_PROFILE_PAGE (bl_profile_page_get_type ())

G_DECLARE_FINAL_TYPE (BlProfilePage, bl_profile_page, BL, PROFILE_PAGE, GtkWidget)

typedef enum
{
  BL_PROFILE_PAGE_LOADING,
  BL_PROFILE_PAGE_FAILED,
  BL_PROFILE_PAGE_LOADED,
} BlProfilePageState;

BlProfilePage      *bl_profile_page_new               (GFile         *file);
BlProfilePage      *bl_profile_page_new_loading       (GFile         *file);
GFile              *bl_profile_page_get_file          (BlProfilePage *self);
const char         *bl_profile_page_get_title         (BlProfilePage *self);
BlProfilePageState  bl_profile_page_get_state         (BlProfilePage *self);
const char         *bl_profile_page_get_error_message (BlProfilePage *self);
double              bl_profile_page_get_fraction      (BlProfilePage *self);
GObject            *bl_profile_page_get_document      (BlProfilePage *self);
BlProfile          *bl_profile_page_get_profile       (BlProfilePage *self);
BlProfileView      *bl_profile_page_get_profile_view  (BlProfilePage *self);
BlHeapView         *bl_profile_page_get_heap_view     (BlProfilePage *self);
gboolean            bl_profile_page_is_showing_heap   (BlProfilePage *self);
void                bl_profile_page_load              (BlProfilePage *self);
void                bl_profile_page_cancel            (BlProfilePage *self);

G_END_DECLS
