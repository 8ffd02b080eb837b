/* bl-source-view.h — a function's source file with per-line costs in the gutter
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-line-gutter-renderer.h"
#include "bl-profile.h"
#include "bl-source-locator.h"

G_BEGIN_DECLS

#define BL_TYPE_SOURCE_VIEW (bl_source_view_get_type ())

G_DECLARE_FINAL_TYPE (BlSourceView, bl_source_view, BL, SOURCE_VIEW, GtkWidget)

GtkWidget            *bl_source_view_new                (void);
BlProfile            *bl_source_view_get_profile        (BlSourceView    *self);
void                  bl_source_view_set_profile        (BlSourceView    *self,
                                                         BlProfile       *profile);
BlMetricId            bl_source_view_get_metric         (BlSourceView    *self);
void                  bl_source_view_set_metric         (BlSourceView    *self,
                                                         BlMetricId       metric);
BlSourceLocator      *bl_source_view_get_locator        (BlSourceView    *self);
void                  bl_source_view_set_locator        (BlSourceView    *self,
                                                         BlSourceLocator *locator);
void                  bl_source_view_use_location       (BlSourceView    *self,
                                                         GFile           *location);
void                  bl_source_view_show_function      (BlSourceView    *self,
                                                         guint32          function);
void                  bl_source_view_show_line          (BlSourceView    *self,
                                                         guint32          line_index);
guint32               bl_source_view_get_function       (BlSourceView    *self);
guint32               bl_source_view_get_focus_line     (BlSourceView    *self);
gboolean              bl_source_view_has_source         (BlSourceView    *self);
const char           *bl_source_view_get_status_text    (BlSourceView    *self);
const char           *bl_source_view_get_totals_text    (BlSourceView    *self);
GtkTextBuffer        *bl_source_view_get_buffer         (BlSourceView    *self);
BlLineGutterRenderer *bl_source_view_get_column         (BlSourceView    *self,
                                                         BlMetricId       metric);
BlLineGutterRenderer *bl_source_view_get_heat_column    (BlSourceView    *self);
GListModel           *bl_source_view_get_table_model    (BlSourceView    *self);

G_END_DECLS
