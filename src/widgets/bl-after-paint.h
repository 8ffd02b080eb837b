/* bl-after-paint.h — a callback once, after a widget's next painted frame
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* What the user is not looking at waits until what they are looking at is
 * drawn: a BlAfterPaint, kept in the widget's struct (zeroed), calls back
 * once, on the after-paint of the frame clock the widget has when asked,
 * and then lets the clock go. */
typedef struct
{
  GdkFrameClock *clock;
  gulong         handler;
} BlAfterPaint;

gboolean bl_after_paint_wait    (BlAfterPaint *self,
                                 GtkWidget    *widget,
                                 GCallback     callback,
                                 gpointer      data);
gboolean bl_after_paint_waiting (BlAfterPaint *self);
void     bl_after_paint_stop    (BlAfterPaint *self);

G_END_DECLS
