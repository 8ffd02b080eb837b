/* bl-time-axis.h — the time spans shared by every chart of a timeline
 *
 * One BlTimeAxis holds the session's bounds, the visible span (zoom and
 * pan), the selected span (a range picked by dragging), the hovered
 * instant (the crosshair) and the chosen instant (the details). Times are
 * Unix milliseconds, as in BlSession.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define BL_TYPE_TIME_AXIS (bl_time_axis_get_type ())

G_DECLARE_FINAL_TYPE (BlTimeAxis, bl_time_axis, BL, TIME_AXIS, GObject)

/* The narrowest visible span. */
#define BL_TIME_AXIS_MIN_SPAN_MS 2000

BlTimeAxis *bl_time_axis_new            (void);

/* Sets the bounds and shows all of them; drops selection and instants. */
void        bl_time_axis_set_bounds     (BlTimeAxis *self,
                                         gint64      start_ms,
                                         gint64      end_ms);
void        bl_time_axis_get_bounds     (BlTimeAxis *self,
                                         gint64     *start_ms,
                                         gint64     *end_ms);

/* Visible span, kept inside the bounds and at least MIN_SPAN wide. */
void        bl_time_axis_set_visible    (BlTimeAxis *self,
                                         gint64      start_ms,
                                         gint64      end_ms);
void        bl_time_axis_get_visible    (BlTimeAxis *self,
                                         gint64     *start_ms,
                                         gint64     *end_ms);
/* factor < 1 zooms in, keeping @anchor_ms where it is on screen. */
void        bl_time_axis_zoom           (BlTimeAxis *self,
                                         double      factor,
                                         gint64      anchor_ms);
void        bl_time_axis_pan            (BlTimeAxis *self,
                                         gint64      delta_ms);
void        bl_time_axis_reset          (BlTimeAxis *self);

/* A selected range (from ≤ to after sorting), or none. */
void        bl_time_axis_set_selection  (BlTimeAxis *self,
                                         gint64      from_ms,
                                         gint64      to_ms);
void        bl_time_axis_clear_selection (BlTimeAxis *self);
gboolean    bl_time_axis_get_selection  (BlTimeAxis *self,
                                         gint64     *from_ms,
                                         gint64     *to_ms);

/* The hovered instant (crosshair), or none. */
void        bl_time_axis_set_hover      (BlTimeAxis *self,
                                         gint64      t_ms);
void        bl_time_axis_clear_hover    (BlTimeAxis *self);
gboolean    bl_time_axis_get_hover      (BlTimeAxis *self,
                                         gint64     *t_ms);

/* The instant whose details are shown. */
void        bl_time_axis_set_instant    (BlTimeAxis *self,
                                         gint64      t_ms);
gint64      bl_time_axis_get_instant    (BlTimeAxis *self);

/* Mapping between the visible span and [0, width]. */
double      bl_time_axis_time_to_x      (BlTimeAxis *self,
                                         gint64      t_ms,
                                         double      width);
gint64      bl_time_axis_x_to_time      (BlTimeAxis *self,
                                         double      x,
                                         double      width);

/* "mm:ss" (or "h:mm:ss") from the start of the bounds. */
char       *bl_time_axis_format_offset  (BlTimeAxis *self,
                                         gint64      t_ms);
/* "m:ss" (or "h:mm:ss") of a span, the rulers' labels. */
char       *bl_time_axis_format_span    (gint64      offset_ms);
/* A ruler's tick step (ms) for @span_ms across @width px: a round number
 * of seconds, minutes, hours or days, at least 90 px. */
gint64      bl_time_axis_tick_step      (double      span_ms,
                                         double      width);
/* Wall-clock time in the local time zone: "14:33:20.250". */
char       *bl_time_axis_format_clock   (gint64      t_ms);

G_END_DECLS
