/* bl-compare-view.h — two profiles or two sessions compared
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-compare-chart.h"
#include "bl-diff.h"
#include "bl-flame-graph.h"

G_BEGIN_DECLS

#define BL_TYPE_COMPARE_VIEW (bl_compare_view_get_type ())

G_DECLARE_FINAL_TYPE (BlCompareView, bl_compare_view, BL, COMPARE_VIEW, GtkWidget)

typedef enum
{
  BL_COMPARE_GRAPH_A,      /* A's flame graph, side by side */
  BL_COMPARE_GRAPH_B,      /* B's flame graph, side by side */
  BL_COMPARE_GRAPH_DIFF,   /* the differential flame graph */
} BlCompareGraph;

GtkWidget      *bl_compare_view_new                  (void);
BlDiff         *bl_compare_view_get_diff             (BlCompareView  *self);
void            bl_compare_view_set_diff             (BlCompareView  *self,
                                                      BlDiff         *diff);
void            bl_compare_view_set_titles           (BlCompareView  *self,
                                                      const char     *title_a,
                                                      const char     *title_b);
/* "side-by-side" or "differential" (profiles; the function table is
 * always below the graphs), or "sessions" */
const char     *bl_compare_view_get_page             (BlCompareView  *self);
void            bl_compare_view_set_page             (BlCompareView  *self,
                                                      const char     *page);

/* ---- profiles ---- */
BlMetricId      bl_compare_view_get_metric           (BlCompareView  *self);
void            bl_compare_view_set_metric           (BlCompareView  *self,
                                                      BlMetricId      metric);
gboolean        bl_compare_view_get_normalized       (BlCompareView  *self);
void            bl_compare_view_set_normalized       (BlCompareView  *self,
                                                      gboolean        normalized);
void            bl_compare_view_set_search           (BlCompareView  *self,
                                                      const char     *text);
void            bl_compare_view_focus_search         (BlCompareView  *self);
void            bl_compare_view_reset_zoom           (BlCompareView  *self);
BlFlameGraph   *bl_compare_view_get_flame_graph      (BlCompareView  *self,
                                                      BlCompareGraph  graph);
/* The thread shown, by name (threads of A and B are matched by name);
 * NULL for all threads. */
const char     *bl_compare_view_get_thread           (BlCompareView  *self);
void            bl_compare_view_set_thread           (BlCompareView  *self,
                                                      const char     *thread);
GtkDropDown    *bl_compare_view_get_thread_dropdown  (BlCompareView  *self);
/* What a graph shows instead when its side lacks the thread chosen. */
GtkWidget      *bl_compare_view_get_empty_state      (BlCompareView  *self,
                                                      BlCompareGraph  graph);
/* Whose shape the differential flame graph has: B's (the default: what
 * is there now) or A's (shows what went away). */
BlDiffSide      bl_compare_view_get_diff_shape       (BlCompareView  *self);
void            bl_compare_view_set_diff_shape       (BlCompareView  *self,
                                                      BlDiffSide      shape);
/* The differential colour of a merged node by its class: red where it
 * grew, blue where it shrank (stronger the larger the relative change),
 * grey inside the noise threshold; its own colours for stacks only B (new)
 * or only A (removed) has. */
void            bl_compare_view_get_change_color     (BlCompareView  *self,
                                                      guint32         diff_node,
                                                      GdkRGBA        *color);
void            bl_compare_view_set_regressions_only (BlCompareView  *self,
                                                      gboolean        regressions_only);
/* The noise threshold in percent of the total (BL_DIFF_THRESHOLD_AUTO:
 * chosen from the data, bl_diff_get_auto_threshold()); the summary sentence,
 * the legend's neutral colour and the table's classes follow it. */
void            bl_compare_view_set_threshold        (BlCompareView  *self,
                                                      double          pct);
double          bl_compare_view_get_threshold        (BlCompareView  *self);
gboolean        bl_compare_view_get_threshold_auto   (BlCompareView  *self);
GtkLabel       *bl_compare_view_get_summary_label    (BlCompareView  *self);
GtkWidget      *bl_compare_view_get_legend           (BlCompareView  *self);
GtkColumnView  *bl_compare_view_get_function_table   (BlCompareView  *self);
/* "size" (of the change of the total), "class", "delta-total" or "name" */
void            bl_compare_view_sort_functions       (BlCompareView  *self,
                                                      const char     *column);
BlDiffKind      bl_compare_view_get_function_kind    (BlCompareView  *self,
                                                      guint           position);
/* The function table as shown (filtered and sorted). */
guint           bl_compare_view_get_n_function_rows  (BlCompareView  *self);
guint32         bl_compare_view_get_function_row     (BlCompareView  *self,
                                                      guint           position);

/* ---- sessions ---- */
gboolean        bl_compare_view_set_alignment        (BlCompareView  *self,
                                                      BlDiffAlign     align,
                                                      const char     *beacon,
                                                      GError        **error);
void            bl_compare_view_set_stacked          (BlCompareView  *self,
                                                      gboolean        stacked);
BlCompareChart *bl_compare_view_get_chart            (BlCompareView  *self,
                                                      BlSeriesId      series);

G_END_DECLS
