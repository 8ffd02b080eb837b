/* replay-corpus-formats.c — runs the mpatrol and Business Rules! fuzz seeds
 * (and whatever the fuzzers added to them) through their readers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "bl-model.h"
#include "bl-br-reader.h"
#include "bl-mpatrol-reader.h"

typedef BlProfile *(*ReadFunc) (const guint8 *data, gsize len, GError **error);

static void
replay_dir (const char *name,
            ReadFunc    read,
            GQuark      domain)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fuzz", name, NULL);
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
      profile = read ((const guint8 *) contents, len, &read_error);
      g_assert_true ((profile == NULL) == (read_error != NULL));
      if (read_error != NULL)
        g_assert_true (read_error->domain == domain || read_error->domain == BL_FORMAT_ERROR);
      else
        n_profiles++;
      n++;
    }

  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n_profiles, >, 0);
}

static void
test_mpatrol (void)
{
  replay_dir ("mpatrol", bl_mpatrol_read_memory, BL_MPATROL_ERROR);
}

static void
test_br (void)
{
  replay_dir ("br", bl_br_read_memory, BL_BR_ERROR);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/fuzz/replay/mpatrol", test_mpatrol);
  g_test_add_func ("/fuzz/replay/br", test_br);

  return g_test_run ();
}
