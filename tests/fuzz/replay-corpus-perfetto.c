/* replay-corpus-perfetto.c — runs the Perfetto fuzz seeds (and whatever
 * the fuzzer added to them) through the trace reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "bl-model.h"
#include "bl-perfetto-reader.h"

static void
test_perfetto (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fuzz", "perfetto", NULL);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  const char *entry;
  guint n = 0, n_profiles = 0;

  dir = g_dir_open (path, 0, &error);
  g_assert_no_error (error);

  while ((entry = g_dir_read_name (dir)))
    {
      g_autofree char *file = g_build_filename (path, entry, NULL);
      g_autofree char *contents = NULL;
      g_autoptr(GError) read_error = NULL;
      g_autoptr(BlProfile) profile = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (file, &contents, &len, NULL));
      profile = bl_perfetto_read_memory ((const guint8 *) contents, len, &read_error);
      g_assert_true ((profile == NULL) == (read_error != NULL));
      if (read_error != NULL)
        g_assert_true (read_error->domain == BL_PERFETTO_ERROR);
      else
        {
          g_assert_nonnull (bl_perfetto_get_trace (profile));
          n_profiles++;
        }
      n++;
    }

  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n_profiles, >, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/fuzz/replay/perfetto", test_perfetto);

  return g_test_run ();
}
