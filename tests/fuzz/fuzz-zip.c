/* fuzz-zip.c — libFuzzer target for the .zip reader of the source locator
 *
 * The locator reads archives from files: the bytes go to a temporary file,
 * then a few names, the ones the central directory may hold, are loaded.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <unistd.h>

#include "bl-model.h"
#include "bl-source-locator.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  static char *path = NULL;
  static const char *names[] = {
    "pkg:/manifest", "pkg:/source/main.brs", "pkg:/components/Grid.brs",
    "pkg:/Source/Main.BRS", "/home/dev/app/source/main.brs", "pkg:/a", "pkg:/b/c",
  };
  g_autoptr(GFile) file = NULL;
  g_autoptr(BlSourceLocator) locator = NULL;
  g_autoptr(GError) error = NULL;

  if (path == NULL)
    {
      int fd = g_file_open_tmp ("fuzz-zip-XXXXXX.zip", &path, &error);

      g_assert (fd >= 0);
      close (fd);
    }

  g_assert (g_file_set_contents (path, (const char *) data, size, &error));
  file = g_file_new_for_path (path);
  locator = bl_source_locator_new (file);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(GError) load_error = NULL;
      g_autoptr(GBytes) bytes = bl_source_locator_load (locator, names[i], NULL, &load_error);

      g_assert ((bytes == NULL) == (load_error != NULL));
      if (bytes != NULL)
        g_assert (g_bytes_get_size (bytes) <= BL_SOURCE_LOCATOR_MAX_SIZE);
    }

  return 0;
}
