/* replay-corpus.c — runs every fuzz seed through its reader as a normal test
 *
 * Each seed must decode to a profile or fail with an error of our domains;
 * never crash. Directory names select the reader.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-model.h"

typedef BlProfile *(*ReadFunc) (const guint8 *data, gsize len, GError **error);

static void
replay_dir (const char *name,
            ReadFunc    read)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fuzz", name, NULL);
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
      g_autoptr(GError) read_error = NULL;
      g_autoptr(BlProfile) profile = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (file, &contents, &len, NULL));
      profile = read ((const guint8 *) contents, len, &read_error);
      g_assert_true ((profile == NULL) == (read_error != NULL));
      n++;
    }

  g_assert_cmpuint (n, >, 0);
}

static void
test_bsprof (void)
{
  replay_dir ("bsprof", bl_bsprof_read_memory);
}

/* Resource Monitor sessions (fuzz-rrm): a session or an error, never both */
static void
test_rrm (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fuzz", "rrm", NULL);
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
      g_autoptr(GError) read_error = NULL;
      g_autoptr(BlSession) session = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (file, &contents, &len, NULL));
      session = bl_rrm_read_memory ((const guint8 *) contents, len, &read_error);
      g_assert_true ((session == NULL) == (read_error != NULL));
      if (session != NULL)
        g_assert_cmpint (bl_session_get_summary (session)->end_ms, >=,
                         bl_session_get_summary (session)->start_ms);
      n++;
    }

  g_assert_cmpuint (n, >, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/fuzz/replay/bsprof", test_bsprof);
  g_test_add_func ("/fuzz/replay/rrm", test_rrm);

  return g_test_run ();
}
