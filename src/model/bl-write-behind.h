/* bl-write-behind.h — an output stream whose writes happen on a thread of its own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define BL_TYPE_WRITE_BEHIND (bl_write_behind_get_type ())

G_DECLARE_FINAL_TYPE (BlWriteBehind, bl_write_behind, BL, WRITE_BEHIND, GOutputStream)

GOutputStream *bl_write_behind_new      (GOutputStream *base,
                                         gboolean       close_base);
GOutputStream *bl_write_behind_get_base (BlWriteBehind *self);
void           bl_write_behind_start_writeback (BlWriteBehind *self,
                                                int            fd);

G_END_DECLS
