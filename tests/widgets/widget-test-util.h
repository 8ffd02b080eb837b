/* widget-test-util.h — what the widget tests share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GtkWidget *test_find_widget   (GtkWidget *widget,
                               GType      type);
gboolean   test_iterate_until (gboolean (*cond) (gpointer),
                               gpointer   data,
                               guint      max_turns);
void       test_make_recent_dir (void);

G_END_DECLS
