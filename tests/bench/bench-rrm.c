/* bench-rrm.c — loading a one-hour Roku Resource Monitor session
 *
 * Writes a session of 3600 samples (one per second for an hour) with
 * bitmap, node, rendezvous, registry and BrightScript object lists — at
 * least 100 MB of JSON — then loads it in a child process and prints the
 * seconds and the child's peak RSS. Targets: under 2 s and under three
 * times the file size.
 *
 * Usage: bench-rrm [FILE]   (FILE: keep the generated session there)
 *        BL_BENCH_JSON_GLIB=1 bench-rrm   also times json-glib's JsonParser
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "bl-model.h"
#include "bl-rrm-writer.h"

/* In the child: load and print the seconds on stdout. */
static int
load_child (const char *mode,
            const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  if (g_str_equal (mode, "--load"))
    {
      g_autoptr(GObject) loaded = bl_format_load_file (file, NULL, NULL, NULL, &error);
      guint n = 0;

      if (loaded == NULL || !BL_IS_SESSION (loaded))
        {
          fprintf (stderr, "bench-rrm: %s\n", error ? error->message : "not a session");
          return 1;
        }
      bl_session_get_series (BL_SESSION (loaded), BL_SERIES_MEMORY_USED, &n);
      if (n != 3600)
        {
          fprintf (stderr, "bench-rrm: %u memory samples, expected 3600\n", n);
          return 1;
        }
    }
  else
    {
      g_autoptr(JsonParser) parser = json_parser_new ();

      if (!json_parser_load_from_file (parser, path, &error))
        {
          fprintf (stderr, "bench-rrm: %s\n", error->message);
          return 1;
        }
    }

  printf ("%.3f\n", (g_get_monotonic_time () - start) / 1e6);
  return 0;
}

/* Runs ourselves with @mode; returns the seconds and the child's peak RSS. */
static gboolean
measure (const char *self_path,
         const char *mode,
         const char *path,
         double     *seconds,
         double     *peak_rss_mb)
{
  const char *argv[] = { self_path, mode, path, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  struct rusage usage;
  int wait_status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL,
                     &wait_status, &error))
    {
      fprintf (stderr, "bench-rrm: %s\n", error->message);
      return FALSE;
    }
  if (!WIFEXITED (wait_status) || WEXITSTATUS (wait_status) != 0)
    return FALSE;

  /* every child so far: this one is the largest we ran */
  getrusage (RUSAGE_CHILDREN, &usage);
  *seconds = g_ascii_strtod (out, NULL);
  *peak_rss_mb = usage.ru_maxrss / 1024.0;
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  BlRrmWriterOptions o;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *self_path = NULL;
  GStatBuf st;
  double size_mb, seconds, rss;

  if (argc == 3 && (g_str_equal (argv[1], "--load") || g_str_equal (argv[1], "--json-glib")))
    return load_child (argv[1], argv[2]);

  self_path = g_canonicalize_filename (argv[0], NULL);

  bl_rrm_writer_options_init (&o);
  o.scenario = BL_RRM_SCENARIO_REALISTIC;
  o.n_samples = 3600;
  o.interval_ms = 1000;
  o.stagger = TRUE;
  o.n_bitmaps = 225;
  o.n_node_types = 80;
  o.n_rendezvous_items = 4;
  o.n_registry_sections = 4;
  o.n_bs_groups = 5;
  o.n_bs_objects = 6;

  if (argc == 2)
    path = g_strdup (argv[1]);
  else
    {
      dir = g_dir_make_tmp ("bench-rrm-XXXXXX", &error);
      if (dir == NULL)
        {
          fprintf (stderr, "bench-rrm: %s\n", error->message);
          return 1;
        }
      path = g_build_filename (dir, "one-hour.json", NULL);
    }

  if (!bl_rrm_write_to_file (&o, path, &error))
    {
      fprintf (stderr, "bench-rrm: %s\n", error->message);
      return 1;
    }
  g_stat (path, &st);
  size_mb = st.st_size / (1024.0 * 1024.0);
  printf ("bench-rrm: one-hour session, 3600 samples with %u bitmaps and %u node types each: "
          "%.1f MiB of JSON\n", o.n_bitmaps, o.n_node_types, size_mb);

  if (!measure (self_path, "--load", path, &seconds, &rss))
    return 1;
  printf ("bench-rrm: streaming loader: %.3f s, peak RSS %.1f MiB (%.2f× the file)\n",
          seconds, rss, rss / size_mb);
  printf ("bench-rrm: targets: < 2 s (%s), peak RSS < 3× file (%s)\n",
          seconds < 2 ? "met" : "MISSED", rss < 3 * size_mb ? "met" : "MISSED");

  if (g_getenv ("BL_BENCH_JSON_GLIB") != NULL)
    {
      if (measure (self_path, "--json-glib", path, &seconds, &rss))
        printf ("bench-rrm: json-glib JsonParser (tree only, no model): %.3f s, "
                "peak RSS %.1f MiB (%.2f× the file)\n", seconds, rss, rss / size_mb);
    }

  if (dir != NULL)
    {
      g_unlink (path);
      g_rmdir (dir);
    }

  return 0;
}
