/* bl-compare-page.h — a tab comparing two files: loading both, the error, or the comparison
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-compare-view.h"
#include "bl-profile-page.h"

G_BEGIN_DECLS

#define BL_TYPE_COMPARE_PAGE (bl_compare_page_get_type ())

G_DECLARE_FINAL_TYPE (BlComparePage, bl_compare_page, BL, COMPARE_PAGE, GtkWidget)

BlComparePage      *bl_compare_page_new               (GFile         *file_a,
                                                       GFile         *file_b);
GFile              *bl_compare_page_get_file          (BlComparePage *self,
                                                       BlDiffSide     side);
const char         *bl_compare_page_get_title         (BlComparePage *self);
/* A document already loaded (the open tab's), so that it is not read again. */
void                bl_compare_page_set_document      (BlComparePage *self,
                                                       BlDiffSide     side,
                                                       GObject       *document);
void                bl_compare_page_set_transforms    (BlComparePage *self,
                                                       GPtrArray     *transforms);
void                bl_compare_page_load              (BlComparePage *self);
void                bl_compare_page_cancel            (BlComparePage *self);
BlProfilePageState  bl_compare_page_get_state         (BlComparePage *self);
const char         *bl_compare_page_get_error_message (BlComparePage *self);
BlDiff             *bl_compare_page_get_diff          (BlComparePage *self);
BlCompareView      *bl_compare_page_get_view          (BlComparePage *self);
GtkWidget          *bl_compare_page_get_heap_view     (BlComparePage *self);
gboolean            bl_compare_page_is_showing_heaps  (BlComparePage *self);

G_END_DECLS
