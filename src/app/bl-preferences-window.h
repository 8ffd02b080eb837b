/* bl-preferences-window.h — the Preferences window, bound to GSettings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define BL_TYPE_PREFERENCES_WINDOW (bl_preferences_window_get_type ())

/* An AdwPreferencesDialog where libadwaita has it (1.5), an AdwPreferencesWindow before */
#if ADW_CHECK_VERSION (1, 5, 0)
G_DECLARE_FINAL_TYPE (BlPreferencesWindow, bl_preferences_window, BL, PREFERENCES_WINDOW,
                      AdwPreferencesDialog)
#else
G_DECLARE_FINAL_TYPE (BlPreferencesWindow, bl_preferences_window, BL, PREFERENCES_WINDOW,
                      AdwPreferencesWindow)

GtkWindow *bl_preferences_window_new        (GtkWindow *parent);
#endif

GtkWidget *bl_preferences_show              (GtkWindow *parent);
void       bl_preferences_close             (GtkWidget *preferences);
void       bl_preferences_bind_color_scheme (GSettings *settings);

G_END_DECLS
