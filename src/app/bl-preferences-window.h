/* bl-preferences-window.h — the Preferences window, bound to GSettings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define BL_TYPE_PREFERENCES_WINDOW (bl_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (BlPreferencesWindow, bl_preferences_window, BL, PREFERENCES_WINDOW,
                      AdwPreferencesWindow)

GtkWindow *bl_preferences_window_new        (GtkWindow *parent);
void       bl_preferences_bind_color_scheme (GSettings *settings);

G_END_DECLS
