/* bl-about.h — the About window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void bl_show_about_window (GtkWindow *parent);

G_END_DECLS
