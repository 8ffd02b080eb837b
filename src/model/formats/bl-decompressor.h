/* bl-decompressor.h — a decompressing GConverter that tells a stream cut
 * short from a damaged one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define BL_TYPE_DECOMPRESSOR (bl_decompressor_get_type ())

G_DECLARE_FINAL_TYPE (BlDecompressor, bl_decompressor, BL, DECOMPRESSOR, GObject)

GConverter *bl_decompressor_new           (GConverter     *inner,
                                           gboolean        members);
gboolean    bl_decompressor_get_truncated (BlDecompressor *self);

G_END_DECLS
