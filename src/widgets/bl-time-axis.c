/* bl-time-axis.c — the time spans shared by every chart of a timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-time-axis"

#include "config.h"

#include <math.h>

#include "bl-time-axis.h"

struct _BlTimeAxis
{
  GObject  parent_instance;

  gint64   start_ms;
  gint64   end_ms;
  gint64   visible_start;
  gint64   visible_end;
  gint64   selection_from;
  gint64   selection_to;
  gboolean has_selection;
  gint64   hover_ms;
  gboolean has_hover;
  gint64   instant_ms;
};

G_DEFINE_FINAL_TYPE (BlTimeAxis, bl_time_axis, G_TYPE_OBJECT)

enum
{
  VISIBLE_CHANGED,
  SELECTION_CHANGED,
  HOVER_CHANGED,
  INSTANT_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
bl_time_axis_class_init (BlTimeAxisClass *klass)
{
  /**
   * BlTimeAxis::visible-changed:
   *
   * The bounds or the visible span changed.
   */
  signals[VISIBLE_CHANGED] = g_signal_new ("visible-changed", G_TYPE_FROM_CLASS (klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 0);
  signals[SELECTION_CHANGED] = g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                             G_TYPE_NONE, 0);
  signals[HOVER_CHANGED] = g_signal_new ("hover-changed", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 0);
  signals[INSTANT_CHANGED] = g_signal_new ("instant-changed", G_TYPE_FROM_CLASS (klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 0);
}

static void
bl_time_axis_init (BlTimeAxis *self)
{
  self->end_ms = self->visible_end = BL_TIME_AXIS_MIN_SPAN_MS;
}

BlTimeAxis *
bl_time_axis_new (void)
{
  return g_object_new (BL_TYPE_TIME_AXIS, NULL);
}

void
bl_time_axis_set_bounds (BlTimeAxis *self,
                         gint64      start_ms,
                         gint64      end_ms)
{
  g_return_if_fail (BL_IS_TIME_AXIS (self));

  if (end_ms < start_ms + BL_TIME_AXIS_MIN_SPAN_MS)
    end_ms = start_ms + BL_TIME_AXIS_MIN_SPAN_MS;

  self->start_ms = self->visible_start = start_ms;
  self->end_ms = self->visible_end = end_ms;
  self->has_selection = FALSE;
  self->has_hover = FALSE;
  self->instant_ms = end_ms;

  g_signal_emit (self, signals[VISIBLE_CHANGED], 0);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
  g_signal_emit (self, signals[HOVER_CHANGED], 0);
  g_signal_emit (self, signals[INSTANT_CHANGED], 0);
}

void
bl_time_axis_get_bounds (BlTimeAxis *self,
                         gint64     *start_ms,
                         gint64     *end_ms)
{
  g_return_if_fail (BL_IS_TIME_AXIS (self));

  if (start_ms)
    *start_ms = self->start_ms;
  if (end_ms)
    *end_ms = self->end_ms;
}

void
bl_time_axis_set_visible (BlTimeAxis *self,
                          gint64      start_ms,
                          gint64      end_ms)
{
  gint64 span;

  g_return_if_fail (BL_IS_TIME_AXIS (self));

  if (end_ms < start_ms)
    {
      gint64 tmp = start_ms;

      start_ms = end_ms;
      end_ms = tmp;
    }

  span = MIN (MAX (end_ms - start_ms, BL_TIME_AXIS_MIN_SPAN_MS), self->end_ms - self->start_ms);
  if (start_ms < self->start_ms)
    start_ms = self->start_ms;
  if (start_ms + span > self->end_ms)
    start_ms = self->end_ms - span;
  end_ms = start_ms + span;

  if (start_ms == self->visible_start && end_ms == self->visible_end)
    return;

  self->visible_start = start_ms;
  self->visible_end = end_ms;
  g_signal_emit (self, signals[VISIBLE_CHANGED], 0);
}

void
bl_time_axis_get_visible (BlTimeAxis *self,
                          gint64     *start_ms,
                          gint64     *end_ms)
{
  g_return_if_fail (BL_IS_TIME_AXIS (self));

  if (start_ms)
    *start_ms = self->visible_start;
  if (end_ms)
    *end_ms = self->visible_end;
}

void
bl_time_axis_zoom (BlTimeAxis *self,
                   double      factor,
                   gint64      anchor_ms)
{
  double span, left;

  g_return_if_fail (BL_IS_TIME_AXIS (self));
  g_return_if_fail (factor > 0);

  span = (double) (self->visible_end - self->visible_start);
  left = (double) (anchor_ms - self->visible_start) / span;
  span *= factor;
  bl_time_axis_set_visible (self, anchor_ms - (gint64) round (left * span),
                            anchor_ms + (gint64) round ((1 - left) * span));
}

void
bl_time_axis_pan (BlTimeAxis *self,
                  gint64      delta_ms)
{
  gint64 span;
  gint64 start;

  g_return_if_fail (BL_IS_TIME_AXIS (self));

  span = self->visible_end - self->visible_start;
  start = CLAMP (self->visible_start + delta_ms, self->start_ms, self->end_ms - span);
  bl_time_axis_set_visible (self, start, start + span);
}

void
bl_time_axis_reset (BlTimeAxis *self)
{
  g_return_if_fail (BL_IS_TIME_AXIS (self));

  bl_time_axis_set_visible (self, self->start_ms, self->end_ms);
}

void
bl_time_axis_set_selection (BlTimeAxis *self,
                            gint64      from_ms,
                            gint64      to_ms)
{
  g_return_if_fail (BL_IS_TIME_AXIS (self));

  self->selection_from = MIN (from_ms, to_ms);
  self->selection_to = MAX (from_ms, to_ms);
  self->has_selection = TRUE;
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

void
bl_time_axis_clear_selection (BlTimeAxis *self)
{
  g_return_if_fail (BL_IS_TIME_AXIS (self));

  if (!self->has_selection)
    return;
  self->has_selection = FALSE;
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

gboolean
bl_time_axis_get_selection (BlTimeAxis *self,
                            gint64     *from_ms,
                            gint64     *to_ms)
{
  g_return_val_if_fail (BL_IS_TIME_AXIS (self), FALSE);

  if (from_ms)
    *from_ms = self->selection_from;
  if (to_ms)
    *to_ms = self->selection_to;
  return self->has_selection;
}

void
bl_time_axis_set_hover (BlTimeAxis *self,
                        gint64      t_ms)
{
  g_return_if_fail (BL_IS_TIME_AXIS (self));

  if (self->has_hover && self->hover_ms == t_ms)
    return;
  self->hover_ms = t_ms;
  self->has_hover = TRUE;
  g_signal_emit (self, signals[HOVER_CHANGED], 0);
}

void
bl_time_axis_clear_hover (BlTimeAxis *self)
{
  g_return_if_fail (BL_IS_TIME_AXIS (self));

  if (!self->has_hover)
    return;
  self->has_hover = FALSE;
  g_signal_emit (self, signals[HOVER_CHANGED], 0);
}

gboolean
bl_time_axis_get_hover (BlTimeAxis *self,
                        gint64     *t_ms)
{
  g_return_val_if_fail (BL_IS_TIME_AXIS (self), FALSE);

  if (t_ms)
    *t_ms = self->hover_ms;
  return self->has_hover;
}

void
bl_time_axis_set_instant (BlTimeAxis *self,
                          gint64      t_ms)
{
  g_return_if_fail (BL_IS_TIME_AXIS (self));

  t_ms = CLAMP (t_ms, self->start_ms, self->end_ms);
  if (t_ms == self->instant_ms)
    return;
  self->instant_ms = t_ms;
  g_signal_emit (self, signals[INSTANT_CHANGED], 0);
}

gint64
bl_time_axis_get_instant (BlTimeAxis *self)
{
  g_return_val_if_fail (BL_IS_TIME_AXIS (self), 0);

  return self->instant_ms;
}

double
bl_time_axis_time_to_x (BlTimeAxis *self,
                        gint64      t_ms,
                        double      width)
{
  g_return_val_if_fail (BL_IS_TIME_AXIS (self), 0);

  return (double) (t_ms - self->visible_start) * width /
         (double) (self->visible_end - self->visible_start);
}

gint64
bl_time_axis_x_to_time (BlTimeAxis *self,
                        double      x,
                        double      width)
{
  g_return_val_if_fail (BL_IS_TIME_AXIS (self), 0);

  if (width <= 0)
    return self->visible_start;
  return self->visible_start +
         (gint64) round (x / width * (double) (self->visible_end - self->visible_start));
}

/**
 * bl_time_axis_format_offset:
 *
 * Returns: (transfer full): @t_ms as mm:ss from the start of the bounds
 */
char *
bl_time_axis_format_offset (BlTimeAxis *self,
                            gint64      t_ms)
{
  g_return_val_if_fail (BL_IS_TIME_AXIS (self), NULL);

  return bl_time_axis_format_span (t_ms - self->start_ms);
}

/**
 * bl_time_axis_format_span:
 *
 * Returns: (transfer full): @offset_ms as m:ss (or h:mm:ss), the rulers'
 *   labels
 */
char *
bl_time_axis_format_span (gint64 offset_ms)
{
  gint64 offset = offset_ms;
  gint64 s;
  const char *sign = "";

  if (offset < 0)
    {
      sign = "−";
      offset = -offset;
    }
  s = offset / 1000;
  if (s >= 3600)
    return g_strdup_printf ("%s%" G_GINT64_FORMAT ":%02d:%02d", sign, s / 3600,
                            (int) (s / 60 % 60), (int) (s % 60));
  return g_strdup_printf ("%s%d:%02d", sign, (int) (s / 60), (int) (s % 60));
}

/**
 * bl_time_axis_tick_step:
 *
 * A ruler's tick step for @span_ms across @width px, at least 90 px: a
 * round number of seconds, minutes, hours, then days times 1, 2, 5, 10…
 * whatever the span, so that a ruler never has more than width / 90 + 1
 * ticks.
 *
 * Returns: the step in milliseconds
 */
gint64
bl_time_axis_tick_step (double span_ms,
                        double width)
{
  static const gint64 steps[] = {
    1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000, 600000, 900000,
    1800000, 3600000, 7200000, 21600000, 43200000, 86400000,
  };
  double per_px = MAX (span_ms, 1) / MAX (width, 1);
  double step;

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (steps[i] / per_px >= 90)
      return steps[i];

  /* days: 2, 5, 10, 20, 50… (capped far below G_MAXINT64) */
  for (step = 86400000.0; step < 1e17; step *= 10)
    for (guint k = 0; k < 3; k++)
      {
        static const double mult[] = { 2, 5, 10 };

        if (step * mult[k] / per_px >= 90)
          return (gint64) (step * mult[k]);
      }
  return G_GINT64_CONSTANT (100000000000000000);
}

/**
 * bl_time_axis_format_clock:
 *
 * Returns: (transfer full): the wall-clock time of @t_ms, local time
 */
char *
bl_time_axis_format_clock (gint64 t_ms)
{
  g_autoptr(GDateTime) utc = g_date_time_new_from_unix_utc (t_ms / 1000);
  g_autoptr(GDateTime) local = NULL;
  g_autofree char *hms = NULL;

  if (utc == NULL)
    return g_strdup ("?");
  local = g_date_time_to_local (utc);
  hms = g_date_time_format (local ? local : utc, "%Y-%m-%d %H:%M:%S");

  return g_strdup_printf ("%s.%03d", hms, (int) (((t_ms % 1000) + 1000) % 1000));
}
