/* bench-sample-spans.c — a sampled thread laid out in time order
 *
 * The Flame Chart page of a sampled profile (a DevTools CPU profile, a
 * speedscope sampled file) draws the samples end to end, a node on the
 * stacks of consecutive samples as one span: bl_profile_dup_sample_spans()
 * derives them, in a worker of the chart. This loads a profile (by default
 * bench-devtools' shape: 50,000 nodes up to 60 deep, 7,000,000 samples
 * that walk the tree as a program runs), then for each sampled thread,
 * best of three:
 *   - the bare pass: writing as many 16-byte spans as the thread has into
 *     fresh memory, which is what the result physically costs at the least
 *     (every page of it touched once);
 *   - bl_profile_dup_sample_spans();
 * and prints spans, milliseconds, millions of spans a second, the ratio
 * of the two and the peak RSS.
 *
 * Usage: bench-sample-spans [FILE]   (FILE: any profile; without it, the
 *                                     generated one, written to /tmp and
 *                                     deleted at the end)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bl-cpuprofile-writer.h"
#include "bl-format.h"
#include "bl-model.h"

#define RUNS 3

static double
peak_rss_mb (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);

  return usage.ru_maxrss / 1024.0;
}

/* what writing @n spans costs at the least: fresh pages, each byte once */
static double
bare_pass_ms (gsize n)
{
  gint64 t0 = g_get_monotonic_time ();
  BlSpan *spans = g_new (BlSpan, n);
  double ms;

  for (gsize i = 0; i < n; i++)
    spans[i] = (BlSpan) { i, (guint32) i, 1 };
  ms = (g_get_monotonic_time () - t0) / 1000.0;
  /* read one back, so that the writes are not left out */
  if (n > 0 && spans[n / 2].node != (guint32) (n / 2))
    g_error ("bare pass");
  g_free (spans);

  return ms;
}

static char *
write_default (void)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "bench-sample-spans-XXXXXX.cpuprofile",
                                            NULL);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GOutputStream) out = NULL;
  g_autoptr(GOutputStream) buffered = NULL;
  g_autoptr(GError) error = NULL;
  int fd = g_mkstemp (path);

  g_assert_cmpint (fd, >=, 0);
  close (fd);
  file = g_file_new_for_path (path);
  out = (GOutputStream *) g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  g_assert_no_error (error);
  buffered = g_buffered_output_stream_new_sized (out, 1 << 20);
  g_assert_true (bl_cpuprofile_write_shape (buffered, 50000, 60, 7000000, 20261124, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (buffered, NULL, &error));
  g_assert_no_error (error);

  return g_steal_pointer (&path);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *path = argc > 1 ? g_strdup (argv[1]) : write_default ();
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) loaded = NULL;
  BlProfile *profile;
  gint64 t0 = g_get_monotonic_time ();

  loaded = bl_format_load_file (file, NULL, NULL, NULL, &error);
  if (argc <= 1)
    g_unlink (path);
  if (loaded == NULL || !BL_IS_PROFILE (loaded))
    {
      fprintf (stderr, "bench-sample-spans: %s: %s\n", path,
               error != NULL ? error->message : "not a profile");
      return 1;
    }
  profile = BL_PROFILE (loaded);
  printf ("%s: %u nodes, %u threads, loaded in %.2f s; peak RSS %.0f MB\n", path,
          bl_profile_get_n_nodes (profile), bl_profile_get_n_threads (profile),
          (g_get_monotonic_time () - t0) / 1e6, peak_rss_mb ());

  for (guint t = 0; t < bl_profile_get_n_threads (profile); t++)
    {
      gsize n_samples = 0;
      double best = G_MAXDOUBLE, bare = G_MAXDOUBLE;
      gsize n_spans = 0;

      if (bl_profile_get_samples (profile, t, &n_samples) == NULL)
        continue;
      for (guint run = 0; run < RUNS; run++)
        {
          BlSpanList *list;
          guint64 duration;
          double ms;

          t0 = g_get_monotonic_time ();
          list = bl_profile_dup_sample_spans (profile, t, &duration);
          ms = (g_get_monotonic_time () - t0) / 1000.0;
          n_spans = list != NULL ? list->n_spans : 0;
          g_free (list);
          best = MIN (best, ms);
          bare = MIN (bare, bare_pass_ms (n_spans));
        }
      printf ("thread %u: %zu samples → %zu spans (%.1f MB); bare pass %.1f ms, "
              "bl_profile_dup_sample_spans %.1f ms (%.1f M spans/s): %.2f× the bare pass; "
              "peak RSS %.0f MB\n",
              t, n_samples, n_spans, n_spans * sizeof (BlSpan) / 1e6, bare, best,
              n_spans / (best * 1e3), best / MAX (bare, 1e-3), peak_rss_mb ());
    }

  return 0;
}
