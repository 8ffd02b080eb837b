/* bench-devtools.c — reading a big Chrome DevTools CPU profile
 *
 * Writes a .cpuprofile as Chrome and Node write them (compact; 50,000
 * nodes in call trees up to 60 deep over 600 functions in 40 scripts, half
 * with positionTicks; 7,000,000 samples that walk the tree as a program
 * runs, with deltas of 50–250 µs: about 100 MB; bl_cpuprofile_write_shape()
 * in tests/writers), then, each in a child process and in turn, several
 * times:
 *   - a bare pass of the JSON pull parser over the file (every token, the
 *     number arrays through its fast path for indexes, nothing kept);
 *   - bl_format_load_file() on it (what `brightlens-cli info` does);
 * and prints CPU seconds (user + system), wall seconds and the child's
 * peak RSS of each, and their ratio. Compare with speedscope's importer on
 * the same file in the same run:
 *   node tools/speedscope-peer.js --time --speedscope DIR/node_modules/speedscope \
 *        --cli _build/src/cli/brightlens-cli FILE
 * Target (DESIGN.md): at least 5× faster than speedscope's importer.
 *
 * Usage: bench-devtools [FILE [N_NODES N_SAMPLES]]   (FILE is kept; written if missing)
 *        BL_BENCH_RUNS=N                             N runs of each (default 3)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bl-cpuprofile-writer.h"
#include "bl-json-reader.h"
#include "bl-model.h"

typedef struct
{
  double cpu;
  double wall;
  double rss_mb;
} Figures;

static void
bare_pass (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GInputStream) in = (GInputStream *) g_file_read (file, NULL, &error);
  g_autoptr(BlJsonReader) json = NULL;
  BlJsonToken token;
  guint64 n = 0;

  g_assert_no_error (error);
  json = bl_json_reader_new_for_stream (in, 0, NULL, NULL, NULL);
  bl_json_reader_set_max_depth (json, 64);
  do
    {
      guint32 buf[1024];
      gsize got;

      token = bl_json_reader_next (json, &error);
      n++;
      if (token == BL_JSON_TOKEN_BEGIN_ARRAY)
        while ((got = bl_json_reader_next_indexes (json, G_MAXUINT32, buf, G_N_ELEMENTS (buf))) > 0)
          n += got;
    }
  while (token > BL_JSON_TOKEN_END);
  g_assert_no_error (error);
  if (n == 0)
    exit (1);
}

static void
load (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) loaded = bl_format_load_file (file, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_true (BL_IS_PROFILE (loaded));
  g_assert_false (bl_profile_is_incomplete (BL_PROFILE (loaded)));
}

static Figures
in_child (void (*what) (const char *),
          const char *path)
{
  Figures f = { 0 };
  struct rusage usage;
  gint64 t0 = g_get_monotonic_time ();
  int status = 0;
  pid_t pid;

  fflush (stdout);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      what (path);
      _exit (0);
    }
  g_assert_cmpint (wait4 (pid, &status, 0, &usage), ==, pid);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  f.wall = (g_get_monotonic_time () - t0) / 1e6;
  f.cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 +
          usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
  f.rss_mb = usage.ru_maxrss / 1024.0;

  return f;
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *path = argc > 1 ? g_strdup (argv[1])
                                   : g_build_filename (g_get_tmp_dir (),
                                                       "bench-devtools.cpuprofile", NULL);
  guint n_nodes = argc > 3 ? (guint) g_ascii_strtoull (argv[2], NULL, 10) : 50000;
  guint n_samples = argc > 3 ? (guint) g_ascii_strtoull (argv[3], NULL, 10) : 7000000;
  const char *runs_env = g_getenv ("BL_BENCH_RUNS");
  guint runs = runs_env != NULL ? MAX (1, atoi (runs_env)) : 3;
  GStatBuf st;

  if (g_stat (path, &st) != 0)
    {
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GError) error = NULL;
      g_autoptr(GOutputStream) out = NULL;
      g_autoptr(GOutputStream) buffered = NULL;
      gint64 t0 = g_get_monotonic_time ();

      out = (GOutputStream *) g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
      g_assert_no_error (error);
      buffered = g_buffered_output_stream_new_sized (out, 1 << 20);
      g_assert_true (bl_cpuprofile_write_shape (buffered, n_nodes, 60, n_samples, 20261124,
                                                &error));
      g_assert_no_error (error);
      g_assert_true (g_output_stream_close (buffered, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpint (g_stat (path, &st), ==, 0);
      printf ("wrote %s: %.1f MB, %u nodes (depth <= 60), %u samples, in %.1f s\n", path,
              st.st_size / 1e6, n_nodes, n_samples, (g_get_monotonic_time () - t0) / 1e6);
    }
  else
    printf ("%s: %.1f MB\n", path, st.st_size / 1e6);

  for (guint r = 0; r < runs; r++)
    {
      Figures bare = in_child (bare_pass, path);
      Figures loaded = in_child (load, path);

      printf ("run %u: bare JSON pass %.2f s CPU (%.2f s wall, %.0f MB); "
              "bl_format_load_file %.2f s CPU (%.2f s wall, peak RSS %.0f MB, %.2f× the file); "
              "load / bare %.2f× by CPU\n",
              r + 1, bare.cpu, bare.wall, bare.rss_mb, loaded.cpu, loaded.wall, loaded.rss_mb,
              loaded.rss_mb * 1048576.0 / (double) st.st_size,
              loaded.cpu / MAX (bare.cpu, 1e-3));
    }
  printf ("speedscope's importer on the same file: node tools/speedscope-peer.js --time "
          "--speedscope DIR/node_modules/speedscope --cli _build/src/cli/brightlens-cli %s\n",
          path);

  return 0;
}
