/* bl-flame-chart.h — a profile's time order as a flame chart (x = time)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-flame-graph.h"
#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_TYPE_FLAME_CHART (bl_flame_chart_get_type ())

G_DECLARE_FINAL_TYPE (BlFlameChart, bl_flame_chart, BL, FLAME_CHART, GtkWidget)

GtkWidget  *bl_flame_chart_new                (void);
void        bl_flame_chart_set_profile        (BlFlameChart    *self,
                                               BlProfile       *profile,
                                               guint            thread);
BlProfile  *bl_flame_chart_get_profile        (BlFlameChart    *self);
guint       bl_flame_chart_get_thread         (BlFlameChart    *self);
void        bl_flame_chart_get_visible_range  (BlFlameChart    *self,
                                               double          *start,
                                               double          *end);
void        bl_flame_chart_set_visible_range  (BlFlameChart    *self,
                                               double           start,
                                               double           end);
void        bl_flame_chart_zoom_at            (BlFlameChart    *self,
                                               double           x,
                                               double           factor);
void        bl_flame_chart_pan                (BlFlameChart    *self,
                                               double           dx_pixels);
void        bl_flame_chart_reset_zoom         (BlFlameChart    *self);
gssize      bl_flame_chart_hit_test           (BlFlameChart    *self,
                                               double           x,
                                               double           y);
gboolean    bl_flame_chart_get_span_bounds    (BlFlameChart    *self,
                                               gsize            span,
                                               graphene_rect_t *bounds);
char       *bl_flame_chart_dup_tooltip_text   (BlFlameChart    *self,
                                               gsize            span);
guint       bl_flame_chart_get_row_height     (BlFlameChart    *self);
guint       bl_flame_chart_get_ruler_height   (BlFlameChart    *self);
guint       bl_flame_chart_get_n_lanes        (BlFlameChart    *self);
gboolean    bl_flame_chart_get_loading        (BlFlameChart    *self);
void        bl_flame_chart_set_color_graph    (BlFlameChart    *self,
                                               BlFlameGraph    *graph);

G_END_DECLS
