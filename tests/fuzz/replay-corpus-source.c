/* replay-corpus-source.c — runs the fuzz-source corpus (plain and
 * compressed inputs of every format, and whatever the fuzzer added) through
 * recognition, decompression and the readers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "bl-model.h"

static void
test_source (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fuzz", "source", NULL);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  const char *entry;
  guint n = 0, n_loaded = 0;

  dir = g_dir_open (path, 0, &error);
  g_assert_no_error (error);

  while ((entry = g_dir_read_name (dir)))
    {
      g_autofree char *file = g_build_filename (path, entry, NULL);
      g_autofree char *contents = NULL;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) load_error = NULL;
      g_autoptr(GObject) loaded = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (file, &contents, &len, NULL));
      bytes = g_bytes_new_take (g_steal_pointer (&contents), len);
      loaded = bl_format_load_bytes (bytes, &load_error);
      g_assert_true ((loaded == NULL) == (load_error != NULL));
      if (load_error != NULL)
        g_assert_cmpstr (load_error->message, !=, "");
      else
        n_loaded++;
      n++;
    }

  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n_loaded, >, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/fuzz/replay/source", test_source);

  return g_test_run ();
}
