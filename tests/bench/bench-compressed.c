/* bench-compressed.c — loading compressed profiles
 *
 * Writes a .bsprof of SIZE_MB (default 64) with values that do not compress
 * to nothing, and its gzip, zstd and xz copies (written by the tools
 * themselves). Then, several times each: loads the plain file and every
 * compressed one through bl_format_load_file() in a child process, and as
 * the peer runs the tool's own decompression to /dev/null (`gzip -dc`,
 * `zstd -dc`, `xz -dc`). Prints the best seconds and the child's peak RSS: a
 * compressed load should cost about the plain load plus the bare
 * decompression, and its peak RSS should stay near the plain load's (the
 * input streams; it is never decompressed into memory first).
 *
 * Usage: bench-compressed [SIZE_MB [DIR]]   (DIR: keep the files there)
 *        BL_BENCH_RUNS=N                    runs each N times (default 3)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bl-bsprof-writer.h"
#include "bl-model.h"

static const struct
{
  const char *name;
  const char *suffix;
  const char *compress;     /* shell command, {} the plain file */
  const char *decompress;   /* the peer */
} kinds[] = {
  { "gzip", ".gz", "gzip -6 -k -f '{}'", "gzip -dc '{}.gz' > /dev/null" },
  { "zstd", ".zst", "zstd -q -3 -f '{}' -o '{}.zst'", "zstd -q -dc '{}.zst' > /dev/null" },
  { "xz", ".xz", "xz -1 -T1 -k -f '{}'", "xz -dc '{}.xz' > /dev/null" },
};

static void
write_bsprof (const char *path,
              guint64     size)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(GBytes) bytes = NULL;
  BlBsprofHeader h;
  BlBsprofWriter *w;
  guint n_paths = 2000;
  guint64 n_entries = size / 9;   /* about 9 bytes per CPU entry */

  bl_bsprof_header_init (&h);
  h.target = "Compressed Bench";
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_module (w, 1, 1);
  for (guint i = 0; i < n_paths; i++)
    {
      g_autofree char *name = g_strdup_printf ("function%04u", i);

      bl_bsprof_writer_string (w, 10 + i, name);
      if (i == 0)
        bl_bsprof_writer_root (w, 1, 1, 2, 1, 10);
      else
        bl_bsprof_writer_path (w, 1 + i, 1 + g_rand_int_range (rand, 0, i), 1, 2, 10 + i,
                               10 + i);
    }
  for (guint64 e = 0; e < n_entries; e++)
    bl_bsprof_writer_cpu (w, 1 + g_rand_int_range (rand, 0, n_paths),
                          g_rand_int_range (rand, 1, 300), g_rand_int_range (rand, 1, 5000),
                          g_rand_int_range (rand, 1, 20000));
  bl_bsprof_writer_end (w, 60000);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      g_bytes_get_size (bytes), NULL));
}

static double
peak_rss_mb (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) ||
      !(line = strstr (status, "VmHWM:")))
    return 0;

  return g_ascii_strtod (line + 6, NULL) / 1024.0;
}

/* In the child: load, and print "SECONDS PEAK_RSS_MB". */
static int
child_load (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) loaded = NULL;
  gint64 t0 = g_get_monotonic_time ();

  loaded = bl_format_load_file (file, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (BL_IS_PROFILE (loaded));
  printf ("%.3f %.1f\n", (g_get_monotonic_time () - t0) / 1e6, peak_rss_mb ());

  return 0;
}

static void
load (const char *self,
      const char *path,
      double     *best_s,
      double     *peak_mb)
{
  const char *argv[] = { self, "--load", path, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  char *end;
  int status;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status,
                &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  *best_s = MIN (*best_s, g_ascii_strtod (out, &end));
  *peak_mb = MAX (*peak_mb, g_ascii_strtod (end, NULL));
}

static double
shell (const char *format,
       const char *path)
{
  g_autoptr(GString) command = g_string_new (format);
  const char *argv[] = { "/bin/sh", "-c", NULL, NULL };
  g_autoptr(GError) error = NULL;
  gint64 t0;
  int status;

  g_string_replace (command, "{}", path, 0);
  argv[2] = command->str;
  t0 = g_get_monotonic_time ();
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status,
                &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);

  return (g_get_monotonic_time () - t0) / 1e6;
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *dir = NULL;
  g_autofree char *plain = NULL;
  guint runs = g_getenv ("BL_BENCH_RUNS") ? atoi (g_getenv ("BL_BENCH_RUNS")) : 3;
  double plain_s = G_MAXDOUBLE, plain_mb = 0;
  guint64 size_mb;
  GStatBuf st;

  if (argc == 3 && g_str_equal (argv[1], "--load"))
    return child_load (argv[2]);

  size_mb = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 64;
  dir = argc > 2 ? g_strdup (argv[2]) : g_dir_make_tmp ("bench-compressed-XXXXXX", NULL);
  plain = g_build_filename (dir, "bench.bsprof", NULL);

  if (!g_file_test (plain, G_FILE_TEST_EXISTS))
    {
      printf ("writing a %" G_GUINT64_FORMAT " MB profile and its gzip, zstd and xz copies "
              "to %s…\n", size_mb, dir);
      fflush (stdout);
      write_bsprof (plain, size_mb * 1000 * 1000);
      for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
        shell (kinds[k].compress, plain);
    }

  for (guint r = 0; r < runs; r++)
    load (argv[0], plain, &plain_s, &plain_mb);
  g_stat (plain, &st);
  printf ("plain %7.1f MB  load %6.3f s                                    peak RSS %6.1f MB\n",
          st.st_size / 1e6, plain_s, plain_mb);

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autofree char *path = g_strconcat (plain, kinds[k].suffix, NULL);
      double load_s = G_MAXDOUBLE, load_mb = 0, bare_s = G_MAXDOUBLE;

      for (guint r = 0; r < runs; r++)
        {
          load (argv[0], path, &load_s, &load_mb);
          bare_s = MIN (bare_s, shell (kinds[k].decompress, plain));
        }
      g_stat (path, &st);
      printf ("%-5s %7.1f MB  load %6.3f s = plain %+6.3f s, %s -dc alone %6.3f s  "
              "peak RSS %6.1f MB\n", kinds[k].name, st.st_size / 1e6, load_s,
              load_s - plain_s, kinds[k].name, bare_s, load_mb);
    }

  if (argc <= 2)
    {
      g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
      const char *name;

      while (d != NULL && (name = g_dir_read_name (d)))
        {
          g_autofree char *path = g_build_filename (dir, name, NULL);

          g_unlink (path);
        }
      g_rmdir (dir);
    }

  return 0;
}
