/* replay-target.c — runs one fuzz target's corpus (tests/fuzz/CORPUS/)
 * through the target's own LLVMFuzzerTestOneInput(), in a normal build
 *
 * Built once per target, with -DCORPUS="name" and the target's source.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib.h>

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

static void
test_replay (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fuzz", CORPUS, NULL);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  const char *entry;
  guint n = 0;

  dir = g_dir_open (path, 0, &error);
  g_assert_no_error (error);

  while ((entry = g_dir_read_name (dir)))
    {
      g_autofree char *file = g_build_filename (path, entry, NULL);
      g_autofree char *contents = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (file, &contents, &len, NULL));
      g_test_message ("%s", entry);
      g_assert_cmpint (LLVMFuzzerTestOneInput ((const guint8 *) contents, len), ==, 0);
      n++;
    }

  g_assert_cmpuint (n, >, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/fuzz/replay/" CORPUS, test_replay);

  return g_test_run ();
}
