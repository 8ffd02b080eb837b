/* bl-renderer-choice.h — cairo instead of GL when GL is drawn in software
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

gboolean    bl_renderer_choice_is_software (const char *gl_renderer);
const char *bl_renderer_choice_apply       (GdkDisplay *display);

G_END_DECLS
