/* bl-window.h — the main window: tabs of profiles
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "bl-profile-page.h"

G_BEGIN_DECLS

#define BL_TYPE_WINDOW (bl_window_get_type ())

G_DECLARE_FINAL_TYPE (BlWindow, bl_window, BL, WINDOW, AdwApplicationWindow)

BlWindow      *bl_window_new              (GtkApplication *application);
BlProfilePage *bl_window_open_file        (BlWindow       *self,
                                           GFile          *file);
BlProfilePage *bl_window_get_current_page (BlWindow       *self);
AdwTabView    *bl_window_get_tab_view     (BlWindow       *self);
guint          bl_window_get_n_pages      (BlWindow       *self);

G_END_DECLS
