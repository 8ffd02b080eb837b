/* fuzz-source.c — libFuzzer target for recognition and decompression:
 * the bytes go through bl_format_load_bytes(), that is the compression
 * sniffer (gzip, zstd, xz), the streaming decompressors, the format
 * sniffer with its longer looks, and whichever reader claims them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "bl-model.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) loaded = NULL;

  loaded = bl_format_load_bytes (bytes, &error);
  g_assert ((loaded == NULL) == (error != NULL));
  g_assert (loaded == NULL || BL_IS_PROFILE (loaded) || BL_IS_SESSION (loaded));
  if (error != NULL)
    g_assert (error->message != NULL && error->message[0] != '\0');

  return 0;
}
