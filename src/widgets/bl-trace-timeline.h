/* bl-trace-timeline.h — a Perfetto trace's tracks on one time axis
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-flame-graph.h"
#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_TYPE_TRACE_TIMELINE (bl_trace_timeline_get_type ())

G_DECLARE_FINAL_TYPE (BlTraceTimeline, bl_trace_timeline, BL, TRACE_TIMELINE, GtkWidget)

typedef enum
{
  BL_TRACE_HIT_NONE,
  BL_TRACE_HIT_SLICE,
  BL_TRACE_HIT_INSTANT,
  BL_TRACE_HIT_COUNTER,
  BL_TRACE_HIT_HEADER,
} BlTraceHitKind;

/* What is at a point of the widget. Times are trace-clock nanoseconds. */
typedef struct
{
  BlTraceHitKind kind;
  guint          lane;      /* the lane (HEADER, and every other kind) */
  guint          thread;    /* SLICE: the profile thread */
  guint32        span;      /* SLICE: the span index in that thread */
  guint          instant;   /* INSTANT: index into the trace's instants */
  guint          counter;   /* COUNTER: index into the trace's counters */
  double         value;     /* COUNTER: the value at that time */
  guint64        time;      /* the time under the point */
} BlTraceHit;

GtkWidget  *bl_trace_timeline_new                (void);
BlProfile  *bl_trace_timeline_get_profile        (BlTraceTimeline *self);
void        bl_trace_timeline_set_profile        (BlTraceTimeline *self,
                                                  BlProfile       *profile);
/* Bars take this flame graph's colours while it shows the same profile,
 * else the flame graph's rule (hue from the track, shade from the name). */
void        bl_trace_timeline_set_color_graph    (BlTraceTimeline *self,
                                                  BlFlameGraph    *graph);

/* The whole trace and the visible part, in nanoseconds. */
void        bl_trace_timeline_get_bounds         (BlTraceTimeline *self,
                                                  guint64         *start,
                                                  guint64         *end);
void        bl_trace_timeline_get_visible_range  (BlTraceTimeline *self,
                                                  double          *start,
                                                  double          *end);
void        bl_trace_timeline_set_visible_range  (BlTraceTimeline *self,
                                                  double           start,
                                                  double           end);
void        bl_trace_timeline_zoom_at            (BlTraceTimeline *self,
                                                  double           x,
                                                  double           factor);
void        bl_trace_timeline_reset_zoom         (BlTraceTimeline *self);

/* The selected range [from, to), or none. */
gboolean    bl_trace_timeline_get_range          (BlTraceTimeline *self,
                                                  guint64         *from,
                                                  guint64         *to);
void        bl_trace_timeline_set_range          (BlTraceTimeline *self,
                                                  guint64          from,
                                                  guint64          to);
void        bl_trace_timeline_clear_range        (BlTraceTimeline *self);

/* The selected slice, or FALSE. */
gboolean    bl_trace_timeline_get_selected_slice (BlTraceTimeline *self,
                                                  guint           *thread,
                                                  guint32         *span);
void        bl_trace_timeline_select_slice       (BlTraceTimeline *self,
                                                  guint            thread,
                                                  guint32          span);
void        bl_trace_timeline_unselect_slice     (BlTraceTimeline *self);

/* Lanes: the markers lane (global instants, if any), one per slice track,
 * one per counter track. */
guint       bl_trace_timeline_get_n_lanes        (BlTraceTimeline *self);
gboolean    bl_trace_timeline_get_lane_expanded  (BlTraceTimeline *self,
                                                  guint            lane);
void        bl_trace_timeline_set_lane_expanded  (BlTraceTimeline *self,
                                                  guint            lane,
                                                  gboolean         expanded);
/* The lane of a thread / counter, or G_MAXUINT. */
guint       bl_trace_timeline_get_thread_lane    (BlTraceTimeline *self,
                                                  guint            thread);
guint       bl_trace_timeline_get_counter_lane   (BlTraceTimeline *self,
                                                  guint            counter);

/* Geometry and hit-testing, in widget coordinates (also for tests). */
double      bl_trace_timeline_time_to_x          (BlTraceTimeline *self,
                                                  double           t);
double      bl_trace_timeline_x_to_time          (BlTraceTimeline *self,
                                                  double           x);
gboolean    bl_trace_timeline_get_lane_area      (BlTraceTimeline *self,
                                                  guint            lane,
                                                  graphene_rect_t *header,
                                                  graphene_rect_t *body);
gboolean    bl_trace_timeline_get_span_bounds    (BlTraceTimeline *self,
                                                  guint            thread,
                                                  guint32          span,
                                                  graphene_rect_t *bounds);
/* Where @value of counter @counter is drawn; NaN if not shown. */
double      bl_trace_timeline_value_to_y         (BlTraceTimeline *self,
                                                  guint            counter,
                                                  double           value);
gboolean    bl_trace_timeline_hit_test           (BlTraceTimeline *self,
                                                  double           x,
                                                  double           y,
                                                  BlTraceHit      *hit);
char       *bl_trace_timeline_dup_tooltip_text   (BlTraceTimeline *self,
                                                  double           x,
                                                  double           y);
/* The details of a slice: name, start, duration, self time, track,
 * annotations, flows in and out. */
char       *bl_trace_timeline_dup_slice_details  (BlTraceTimeline *self,
                                                  guint            thread,
                                                  guint32          span);
guint       bl_trace_timeline_get_ruler_height   (BlTraceTimeline *self);
/* The ruler reads m:ss from @origin (a trace time) on the resource charts'
 * steps; NAN (the default): the time since the trace's start. */
void        bl_trace_timeline_set_ruler_origin   (BlTraceTimeline *self,
                                                  double           origin);
/* The @i-th label the ruler draws and the x it starts at, or NULL. */
char       *bl_trace_timeline_dup_ruler_label    (BlTraceTimeline *self,
                                                  guint            i,
                                                  double          *x);
gboolean    bl_trace_timeline_get_counter_color  (BlTraceTimeline *self,
                                                  guint            counter,
                                                  GdkRGBA         *color);
gboolean    bl_trace_timeline_get_span_color     (BlTraceTimeline *self,
                                                  guint            thread,
                                                  guint32          span,
                                                  GdkRGBA         *color);

void        bl_trace_timeline_set_extent         (BlTraceTimeline *self,
                                                  double           start,
                                                  double           end);

G_END_DECLS
