/* bl-compare-chart.h — one series of two sessions on one aligned time axis
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-session.h"
#include "bl-time-axis.h"

G_BEGIN_DECLS

#define BL_TYPE_COMPARE_CHART (bl_compare_chart_get_type ())

G_DECLARE_FINAL_TYPE (BlCompareChart, bl_compare_chart, BL, COMPARE_CHART, GtkWidget)

GtkWidget  *bl_compare_chart_new            (BlSeriesId       series);
BlSeriesId  bl_compare_chart_get_series     (BlCompareChart  *self);
/* @offset_a and @offset_b: the time in each session drawn at 0. */
void        bl_compare_chart_set_sessions   (BlCompareChart  *self,
                                             BlSession       *a,
                                             BlSession       *b,
                                             gint64           offset_a,
                                             gint64           offset_b,
                                             const char      *origin_label);
/* The aligned span (ms relative to the origin) drawn from left to right;
 * every chart of a comparison shares one. */
void        bl_compare_chart_set_range      (BlCompareChart  *self,
                                             gint64           from_ms,
                                             gint64           to_ms);
void        bl_compare_chart_get_range      (BlCompareChart  *self,
                                             gint64          *from_ms,
                                             gint64          *to_ms);
gboolean    bl_compare_chart_get_stacked    (BlCompareChart  *self);
void        bl_compare_chart_set_stacked    (BlCompareChart  *self,
                                             gboolean         stacked);
/* The widget x where a sample of @side taken at @timestamp_ms is drawn. */
double      bl_compare_chart_time_to_x      (BlCompareChart  *self,
                                             guint            side,
                                             gint64           timestamp_ms);
/* The colour of each side's line. */
void        bl_compare_chart_get_color      (BlCompareChart  *self,
                                             guint            side,
                                             GdkRGBA         *color);
/* "At 12.0 s: A 110.2 MiB, B 115.0 MiB", or NULL outside the plot. */
char       *bl_compare_chart_dup_text_at    (BlCompareChart  *self,
                                             double           x);

void        bl_compare_chart_set_axis       (BlCompareChart  *self,
                                             BlTimeAxis      *axis);
BlTimeAxis *bl_compare_chart_get_axis       (BlCompareChart  *self);
/* Where the pointer's time is marked (on every chart of the axis). */
gboolean    bl_compare_chart_get_hover_x    (BlCompareChart  *self,
                                             double          *x);

G_END_DECLS
