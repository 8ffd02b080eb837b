/* bl-zstd-decompressor.h — a GConverter that decompresses Zstandard frames
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define BL_TYPE_ZSTD_DECOMPRESSOR (bl_zstd_decompressor_get_type ())

G_DECLARE_FINAL_TYPE (BlZstdDecompressor, bl_zstd_decompressor, BL, ZSTD_DECOMPRESSOR, GObject)

GConverter *bl_zstd_decompressor_new (void);

G_END_DECLS
