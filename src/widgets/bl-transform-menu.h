/* bl-transform-menu.h — the call-tree transforms offered on a frame or row
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-model.h"

G_BEGIN_DECLS

GMenu *bl_transform_menu_new_section (BlProfile *profile,
                                      guint32    node);

G_END_DECLS
