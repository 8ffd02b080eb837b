/* bl-application.h — the single-instance application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define BL_TYPE_APPLICATION (bl_application_get_type ())

G_DECLARE_FINAL_TYPE (BlApplication, bl_application, BL, APPLICATION, AdwApplication)

BlApplication *bl_application_new          (void);
GSettings     *bl_application_get_settings (BlApplication *self);

G_END_DECLS
