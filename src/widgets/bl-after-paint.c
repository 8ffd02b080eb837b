/* bl-after-paint.c — a callback once, after a widget's next painted frame
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "bl-after-paint.h"

/**
 * bl_after_paint_wait:
 * @callback: a GdkFrameClock::after-paint handler, `void (GdkFrameClock *, gpointer data)`;
 *   it calls bl_after_paint_stop() to be called only once
 *
 * Stops a wait under way, then waits for the next after-paint of
 * @widget's frame clock.
 *
 * Returns: %FALSE when @widget has no frame clock (it is not realized), so
 *   that no frame is to come: the caller does now what it would have done
 */
gboolean
bl_after_paint_wait (BlAfterPaint *self,
                     GtkWidget    *widget,
                     GCallback     callback,
                     gpointer      data)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);

  bl_after_paint_stop (self);
  if (clock == NULL)
    return FALSE;
  self->clock = g_object_ref (clock);
  self->handler = g_signal_connect (clock, "after-paint", callback, data);

  return TRUE;
}

gboolean
bl_after_paint_waiting (BlAfterPaint *self)
{
  return self->clock != NULL;
}

void
bl_after_paint_stop (BlAfterPaint *self)
{
  if (self->clock == NULL)
    return;
  /* a window's surface, when destroyed, takes its frame clock's handlers
   * with it */
  if (g_signal_handler_is_connected (self->clock, self->handler))
    g_signal_handler_disconnect (self->clock, self->handler);
  self->handler = 0;
  g_clear_object (&self->clock);
}
