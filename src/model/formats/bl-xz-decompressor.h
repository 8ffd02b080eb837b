/* bl-xz-decompressor.h — a GConverter that decompresses xz streams
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define BL_TYPE_XZ_DECOMPRESSOR (bl_xz_decompressor_get_type ())

G_DECLARE_FINAL_TYPE (BlXzDecompressor, bl_xz_decompressor, BL, XZ_DECOMPRESSOR, GObject)

GConverter *bl_xz_decompressor_new (void);

G_END_DECLS
