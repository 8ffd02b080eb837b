/* bl-timeline.h — a session's resource charts stacked on one time axis
 *
 * One chart per series group (memory, CPU, graphics memory, SceneGraph
 * nodes, frame rate, rendezvous, registry, BrightScript objects) under a
 * ruler in mm:ss from the session start, with beacons as labelled markers
 * and initiate/complete intervals as spans. Hovering shows a crosshair and
 * a tooltip with every chart's values; dragging over the charts selects a
 * range (kept in the BlTimeAxis), a click chooses the instant whose details
 * are shown; the wheel zooms, dragging the ruler (or with the middle
 * button) pans.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-session.h"
#include "bl-time-axis.h"

G_BEGIN_DECLS

#define BL_TYPE_TIMELINE (bl_timeline_get_type ())

G_DECLARE_FINAL_TYPE (BlTimeline, bl_timeline, BL, TIMELINE, GtkWidget)

GtkWidget  *bl_timeline_new                (void);
BlSession  *bl_timeline_get_session        (BlTimeline     *self);
void        bl_timeline_set_session        (BlTimeline     *self,
                                            BlSession      *session);
BlTimeAxis *bl_timeline_get_axis           (BlTimeline     *self);

/* Charts can be hidden; charts without data are never shown. */
void        bl_timeline_set_group_visible  (BlTimeline     *self,
                                            BlSeriesGroup   group,
                                            gboolean        visible);
gboolean    bl_timeline_get_group_visible  (BlTimeline     *self,
                                            BlSeriesGroup   group);
gboolean    bl_timeline_group_has_data     (BlTimeline     *self,
                                            BlSeriesGroup   group);

/* The memory chart's scale includes the limits (FALSE, the default) or
 * fits the data. */
void        bl_timeline_set_memory_fits_data (BlTimeline   *self,
                                              gboolean      fits_data);
gboolean    bl_timeline_get_memory_fits_data (BlTimeline   *self);

/* Geometry and hit-testing, in widget coordinates (also for tests). */
gboolean    bl_timeline_get_plot_area      (BlTimeline     *self,
                                            BlSeriesGroup   group,
                                            graphene_rect_t *area);
double      bl_timeline_time_to_x          (BlTimeline     *self,
                                            gint64          t_ms);
gint64      bl_timeline_x_to_time          (BlTimeline     *self,
                                            double          x);
/* Where @value of series @id is drawn; NaN if its chart is not shown. */
double      bl_timeline_value_to_y         (BlTimeline     *self,
                                            BlSeriesId      id,
                                            double          value);
/* The chart at @y, or -1. */
int         bl_timeline_group_at           (BlTimeline     *self,
                                            double          y);
/* The present sample of @id nearest to the time at @x, or -1. */
int         bl_timeline_pick_sample        (BlTimeline     *self,
                                            BlSeriesId      id,
                                            double          x);
/* The hover text at (@x, @y): time, every shown chart's values, beacons. */
char       *bl_timeline_dup_tooltip_text   (BlTimeline     *self,
                                            double          x,
                                            double          y);
/* The colour @id is drawn in (FALSE if the series is not drawn). */
gboolean    bl_timeline_get_series_color   (BlTimeline     *self,
                                            BlSeriesId      id,
                                            GdkRGBA        *color);

G_END_DECLS
