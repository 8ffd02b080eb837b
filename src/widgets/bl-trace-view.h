/* bl-trace-view.h — a Perfetto trace's timeline, the flame graph of a
 * selected range, and the details of a selected slice
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-flame-graph.h"
#include "bl-profile.h"
#include "bl-trace-timeline.h"

G_BEGIN_DECLS

#define BL_TYPE_TRACE_VIEW (bl_trace_view_get_type ())

G_DECLARE_FINAL_TYPE (BlTraceView, bl_trace_view, BL, TRACE_VIEW, GtkWidget)

GtkWidget       *bl_trace_view_new               (void);
BlProfile       *bl_trace_view_get_profile       (BlTraceView *self);
void             bl_trace_view_set_profile       (BlTraceView *self,
                                                  BlProfile   *profile);
/* TRUE for a profile this view shows: a Perfetto trace with slices,
 * counters or instants. */
gboolean         bl_trace_view_can_show          (BlProfile   *profile);

BlTraceTimeline *bl_trace_view_get_timeline      (BlTraceView *self);
BlFlameGraph    *bl_trace_view_get_flame_graph   (BlTraceView *self);
/* The profile the flame graph shows: the selected range's, or the whole
 * trace; NULL while the range's is being built. */
BlProfile       *bl_trace_view_get_shown_profile (BlTraceView *self);
const char      *bl_trace_view_get_details_text  (BlTraceView *self);
const char      *bl_trace_view_get_range_text    (BlTraceView *self);

G_END_DECLS
