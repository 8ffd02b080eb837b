/* bl-hot-lines-view.h — every source line of a profile, hottest first
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_TYPE_HOT_LINES_VIEW (bl_hot_lines_view_get_type ())

G_DECLARE_FINAL_TYPE (BlHotLinesView, bl_hot_lines_view, BL, HOT_LINES_VIEW, GtkWidget)

GtkWidget  *bl_hot_lines_view_new           (void);
void        bl_hot_lines_view_set_profile   (BlHotLinesView *self,
                                             BlProfile      *profile);
BlMetricId  bl_hot_lines_view_get_metric    (BlHotLinesView *self);
void        bl_hot_lines_view_set_metric    (BlHotLinesView *self,
                                             BlMetricId      metric);
GListModel *bl_hot_lines_view_get_model     (BlHotLinesView *self);
void        bl_hot_lines_view_select        (BlHotLinesView *self,
                                             guint           position);
gboolean    bl_hot_lines_view_get_loading   (BlHotLinesView *self);
void        bl_hot_lines_view_prepare       (BlHotLinesView *self);

G_END_DECLS
