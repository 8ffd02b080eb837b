/* replay-corpus-speedscope.c — runs the speedscope fuzz seeds (and whatever
 * the fuzzer added to them) through the reader, and what it reads through
 * the writer and back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "bl-model.h"
#include "bl-speedscope-reader.h"
#include "bl-speedscope-writer.h"

static void
test_speedscope (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fuzz", "speedscope", NULL);
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
      g_autoptr(BlProfile) again = NULL;
      g_autoptr(GOutputStream) out = NULL;
      BlMetricId metrics[BL_N_METRICS];
      guint n_metrics;
      gsize len;

      g_assert_true (g_file_get_contents (file, &contents, &len, NULL));
      profile = bl_speedscope_read_memory ((const guint8 *) contents, len, &read_error);
      g_assert_true ((profile == NULL) == (read_error != NULL));
      n++;
      if (read_error != NULL)
        {
          g_assert_true (read_error->domain == BL_SPEEDSCOPE_ERROR ||
                         read_error->domain == BL_JSON_ERROR);
          continue;
        }
      n_profiles++;

      out = g_memory_output_stream_new_resizable ();
      g_assert_true (bl_speedscope_write (profile, out, NULL, NULL));
      g_assert_true (g_output_stream_close (out, NULL, NULL));
      again = bl_speedscope_read_memory (
        g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out)),
        g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)), &read_error);
      g_assert_no_error (read_error);
      /* (what is kept of a cut file is time without some of its frames) */
      n_metrics = bl_profile_is_incomplete (profile) ? 0 : bl_profile_list_metrics (profile, metrics);
      for (guint i = 0; i < n_metrics; i++)
        {
          double before = bl_profile_to_base_unit (
            profile, metrics[i], bl_profile_get_grand_total (profile, metrics[i]));
          double after = bl_profile_to_base_unit (
            again, metrics[i], bl_profile_get_grand_total (again, metrics[i]));

          g_assert_cmpfloat (fabs (before - after), <=, 1e-9 * fabs (before));
        }
    }

  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n_profiles, >, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/fuzz/replay/speedscope", test_speedscope);

  return g_test_run ();
}
