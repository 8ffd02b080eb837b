/* bench-bsprof.c — decode speed and memory of the .bsprof reader
 *
 * Writes (with the test-only generators of bl-bsprof-shapes.c) a profile of
 * each shape — today's stream, and the long-session shapes: allocator-dense
 * addresses with random-order frees and millions of blocks live, random
 * 32-bit addresses, frees of recent blocks, 200-deep paths, a million path
 * elements — decodes it, and compares the time with a bare pass that only
 * decodes the varints of the same bytes: every varint field of every entry,
 * nothing looked up, the floor for this format. Each shape runs in its own
 * process, so that its peak RSS is its own. Prints MB/s, wall-clock and CPU
 * seconds, the ratios, and peak RSS against the target (half the file plus
 * the model plus 16 bytes per live block).
 *
 * Files of BL_BSPROF_WORKER_MIN_BYTES and more are decoded with the worker
 * thread for the live blocks from the start (--in-line: without); the CPU
 * time of the decoding thread and of the worker are printed apart (r-dec,
 * r-wkr: their ratios to the varint pass).
 *
 * Usage: bench-bsprof [--shape NAME] [SIZE_MB]    every shape (or one), default 256 MB
 *        bench-bsprof [--shape NAME] SIZE_MB FILE decode FILE in detail (written if missing)
 *        bench-bsprof --shape NAME --write FILE SIZE_MB
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bl-bsprof-shapes.h"
#include "bl-model.h"

static guint64
peak_rss_kib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

static guint64
current_rss_kib (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  if ((line = strstr (status, "VmRSS:")))
    return g_ascii_strtoull (line + 6, NULL, 10);
  return 0;
}

/* A plain varint loop over every byte of the file in the same chunks, doing
 * nothing with the values; strings are read as if they were varints. */
static guint64
bytewise_varint_pass (const char *path)
{
  FILE *file = fopen (path, "rb");
  guint8 *buf = g_malloc (4 * 1024 * 1024);
  guint64 sum = 0, value = 0;
  guint shift = 0;
  size_t n;

  while ((n = fread (buf, 1, 4 * 1024 * 1024, file)) > 0)
    {
      for (size_t i = 0; i < n; i++)
        {
          guint8 b = buf[i];

          value |= (guint64) (b & 0x7f) << (shift & 63);
          shift += 7;
          if (!(b & 0x80))
            {
              sum += value;
              value = 0;
              shift = 0;
            }
        }
    }

  fclose (file);
  g_free (buf);

  return sum;
}

static inline const guint8 *
skip_varint (const guint8 *p,
             guint64      *value)
{
  guint64 v = 0;
  guint shift = 0;

  while (*p & 0x80)
    {
      v |= (guint64) (*p++ & 0x7f) << (shift & 63);
      shift += 7;
    }
  *value = v | ((guint64) *p++ << (shift & 63));

  return p;
}

/* The floor for this format: read the same bytes in the same chunks and
 * decode every varint field of every entry, as the format lays them out
 * (strings skipped), without looking anything up or summing anything into a
 * model. The writer's file is well formed, so this pass trusts it. */
static guint64
varint_pass (const char *path)
{
  FILE *file = fopen (path, "rb");
  gsize cap = 8 * 1024 * 1024;
  guint8 *buf = g_malloc (cap + 16);
  gsize len, pos = 0;
  guint64 sum = 0, v, header_size = 0, tag;
  gboolean lines;

  len = fread (buf, 1, cap, file);

  /* header: magic, versions, size, ratios, flags, start, strings */
  pos = 8;
  for (guint i = 0; i < 4; i++)
    {
      pos = skip_varint (buf + pos, &v) - buf;
      header_size = v;
    }
  pos += 8;
  pos = skip_varint (buf + pos, &v) - buf;
  lines = v != 0;
  pos = header_size;

  for (;;)
    {
      const guint8 *p;

      /* keep at least one whole entry (< 64 KiB here) in the window */
      if (len - pos < 65536 && !feof (file))
        {
          memmove (buf, buf + pos, len - pos);
          len -= pos;
          pos = 0;
          len += fread (buf + len, 1, cap - len, file);
        }

      p = skip_varint (buf + pos, &tag);
      if (tag == 0)
        break;
      switch (tag & 7)
        {
        case 0:
          p = (const guint8 *) memchr (p, 0, buf + len - p) + 1;
          break;
        case 1:
          p = skip_varint (p, &v);
          sum += v;
          break;
        case 2:
          p = skip_varint (p, &v);
          if (v != 0 && lines)
            p = skip_varint (p, &v);
          else if (v == 0)
            p = skip_varint (p, &v);
          for (guint i = 0; i < 3; i++)
            {
              p = skip_varint (p, &v);
              sum += v;
            }
          break;
        case 3:
          if (lines)
            p = skip_varint (p, &v);
          p = skip_varint (p, &v);
          sum += v;
          if (((tag >> 3) & 3) == 0)
            {
              p = skip_varint (p, &v);
              sum += v;
            }
          break;
        case 4:
          if (lines)
            p = skip_varint (p, &v);
          p = skip_varint (p, &v);
          sum += v;
          p = skip_varint (p, &v);
          sum += v;
          break;
        case 5:
          p = skip_varint (p, &v);
          sum += v;
          break;
        default:
          g_error ("bench file has an entry of type %u", (guint) (tag & 7));
        }
      sum += tag;
      pos = p - buf;
    }

  fclose (file);
  g_free (buf);

  return sum;
}

static gsize
model_bytes (BlProfile *profile)
{
  BlMetricId metrics[BL_N_METRICS];
  guint n_metrics = bl_profile_list_metrics (profile, metrics);
  gsize nodes = bl_profile_get_n_nodes (profile);
  gsize lines = bl_profile_get_n_lines (profile);
  gsize funcs = bl_profile_get_n_functions (profile);

  /* node totals are made per metric when read, not kept for all */
  return nodes * (sizeof (BlNode) + 4 + 1 + n_metrics * 8) +
         lines * (sizeof (BlLine) + n_metrics * 8) +
         funcs * (sizeof (BlFunction) + n_metrics * 16);
}

/* Resets the peak RSS the kernel reports as VmHWM, where it allows it. */
static gboolean
reset_peak_rss (void)
{
  return g_file_set_contents ("/proc/self/clear_refs", "5", 1, NULL);
}

static guint64
status_kib (const char *field)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  if ((line = strstr (status, field)))
    return g_ascii_strtoull (line + strlen (field), NULL, 10);
  return 0;
}

static guint64
sum_self (BlProfile  *profile,
          BlMetricId  metric)
{
  guint64 sum = 0;

  if (!bl_profile_has_metric (profile, metric))
    return 0;
  for (guint32 i = 0; i < bl_profile_get_n_nodes (profile); i++)
    sum += bl_profile_get_self (profile, metric, i);
  return sum;
}

static void
write_shape_file (BlBsprofShape  shape,
                  guint64        size_mb,
                  const char    *path)
{
  FILE *file = fopen (path, "wb");
  BlBsprofWriter *w;

  if (file == NULL)
    g_error ("cannot write %s", path);
  w = bl_bsprof_write_shape (shape, size_mb * 1000 * 1000, 42, file);
  bl_bsprof_writer_free (w);
  fclose (file);
}

/* CPU time of the process (user and system), in seconds: on a shared
 * machine it varies far less than wall-clock time. */
static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* CPU time of the calling thread: the decoding thread's share when a
 * worker thread takes the live blocks (on two idle cores the wall-clock
 * time is about the larger of the two). */
static double
thread_cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Times the decoder against the bare passes on path, best of three each. */
static void
bench_file (const char *shape_name,
            const char *path,
            gboolean    verbose)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  BlBsprofStats stats = { 0, };
  guint64 file_size, rss_before, sum, peak_kib, live_count;
  double t_decode = G_MAXDOUBLE, t_bare = G_MAXDOUBLE, t_bytewise = G_MAXDOUBLE, t0;
  double c_decode = G_MAXDOUBLE, c_bare = G_MAXDOUBLE, c0;
  double c_main = G_MAXDOUBLE, c_worker = 0, m0;
  gboolean hwm;
  GStatBuf st;

  if (g_stat (path, &st) != 0)
    g_error ("cannot read %s", path);
  file_size = st.st_size;

  /* Warm the page cache for every pass alike, then time the passes in
   * turn, so that each sees the machine in the same state, and keep the
   * best time of each (the machine's speed drifts while it runs). */
  sum = bytewise_varint_pass (path);
  rss_before = current_rss_kib ();
  hwm = reset_peak_rss ();
  for (guint i = 0; i < 3; i++)
    {
      c0 = cpu_seconds ();
      t0 = g_get_monotonic_time ();
      sum += varint_pass (path);
      t_bare = MIN (t_bare, (g_get_monotonic_time () - t0) / 1e6);
      c_bare = MIN (c_bare, cpu_seconds () - c0);

      g_clear_object (&profile);
      g_clear_object (&stream);
      stream = g_file_read (file, NULL, &error);
      g_assert_no_error (error);
      c0 = cpu_seconds ();
      m0 = thread_cpu_seconds ();
      t0 = g_get_monotonic_time ();
      profile = bl_bsprof_read_stream (G_INPUT_STREAM (stream), file_size, NULL, NULL, NULL,
                                       &stats, &error);
      t_decode = MIN (t_decode, (g_get_monotonic_time () - t0) / 1e6);
      m0 = thread_cpu_seconds () - m0;
      c0 = cpu_seconds () - c0;
      if (m0 < c_main)
        {
          c_main = m0;
          c_worker = c0 - m0;
        }
      c_decode = MIN (c_decode, c0);
      g_assert_no_error (error);

      t0 = g_get_monotonic_time ();
      sum += bytewise_varint_pass (path);
      t_bytewise = MIN (t_bytewise, (g_get_monotonic_time () - t0) / 1e6);
    }
  peak_kib = hwm ? status_kib ("VmHWM:") : peak_rss_kib ();
  live_count = sum_self (profile, BL_METRIC_LIVE_COUNT);

  if (verbose)
    {
      printf ("file:            %.1f MB, %" G_GUINT64_FORMAT " entries, %" G_GUINT64_FORMAT
              " blocks live at the end\n", file_size / 1e6, stats.entries, live_count);
      printf ("model:           %u nodes, %u lines, %u functions, ~%.1f MB\n",
              bl_profile_get_n_nodes (profile), bl_profile_get_n_lines (profile),
              bl_profile_get_n_functions (profile), model_bytes (profile) / 1e6);
      printf ("decode:          %.3f s, %.1f MB/s, %.1f M entries/s\n",
              t_decode, file_size / 1e6 / t_decode, stats.entries / 1e6 / t_decode);
      printf ("varint pass:     %.3f s, %.1f MB/s: every varint field of every entry, "
              "nothing looked up (checksum %" G_GUINT64_FORMAT ")\n",
              t_bare, file_size / 1e6 / t_bare, sum & 0xffff);
      printf ("bytewise pass:   %.3f s, %.1f MB/s: every byte as a varint, strings too\n",
              t_bytewise, file_size / 1e6 / t_bytewise);
      printf ("ratio:           %.2f to the varint pass (target <= 2.5); %.2f to the bytewise pass\n",
              t_decode / t_bare, t_decode / t_bytewise);
      printf ("CPU time:        decode %.3f s, varint pass %.3f s, ratio %.2f\n",
              c_decode, c_bare, c_decode / c_bare);
      printf ("threads:         decoding thread %.3f s (%.2f× the varint pass), "
              "live-block worker %.3f s (%.2f×)\n",
              c_main, c_main / c_bare, c_worker, c_worker / c_bare);
      printf ("hand-over:       %.1f M operations to the worker; it slept %" G_GUINT64_FORMAT
              " times (ring empty), the decoding thread %" G_GUINT64_FORMAT
              " times (ring full), in the last run\n",
              stats.handed_over / 1e6, stats.worker_sleeps, stats.decoder_waits);
      printf ("peak RSS:        %.1f MB%s (before decoding %.1f MB; target <= %.1f MB = "
              "file/2 + model + 16 B per live block)\n",
              peak_kib / 1024.0, hwm ? "" : " (whole process)", rss_before / 1024.0,
              file_size / 2e6 + model_bytes (profile) / 1e6 + live_count * 16 / 1e6);
    }

  printf ("%-13s %6.1f %7.2f %7.3f %6.1f %7.3f %6.2f %7.3f %7.3f %6.2f %6.2f %6.2f %7.1f %7.1f %8.2f\n",
          shape_name, file_size / 1e6, live_count / 1e6, t_decode, file_size / 1e6 / t_decode,
          t_bare, t_decode / t_bare, c_decode, c_bare, c_decode / c_bare,
          c_main / c_bare, c_worker / c_bare, peak_kib / 1024.0,
          file_size / 2e6 + model_bytes (profile) / 1e6 + live_count * 16 / 1e6,
          bl_profile_get_n_nodes (profile) / 1e6);
  fflush (stdout);
}

static void
print_heading (void)
{
  printf ("%-13s %6s %7s %7s %6s %7s %6s %7s %7s %6s %6s %6s %7s %7s %8s\n",
          "shape", "MB", "live(M)", "decode", "MB/s", "bare", "ratio", "cpu", "cpu-bare",
          "ratio", "r-dec", "r-wkr", "RSS MB", "RSS max", "nodes(M)");
}

static void
bench_shape (BlBsprofShape shape,
             guint64       size_mb)
{
  g_autofree char *tmp = g_dir_make_tmp ("bench-bsprof-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (tmp, "bench.bsprof", NULL);

  write_shape_file (shape, size_mb, path);
  bench_file (bl_bsprof_shape_name (shape), path, FALSE);
  g_unlink (path);
  g_rmdir (tmp);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *shape_name = NULL;
  g_autofree char *write_path = NULL;
  gboolean child = FALSE;
  gboolean in_line = FALSE;
  guint64 size_mb = 256;
  BlBsprofShape shape = BL_BSPROF_SHAPE_TODAY;
  GOptionEntry entries[] = {
    { "shape", 0, 0, G_OPTION_ARG_STRING, &shape_name, "Only this shape", "NAME" },
    { "write", 0, 0, G_OPTION_ARG_FILENAME, &write_path, "Write the shape to FILE and exit",
      "FILE" },
    { "in-line", 0, 0, G_OPTION_ARG_NONE, &in_line,
      "No worker thread: the decoding thread does the live blocks too", NULL },
    { "child", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &child, NULL, NULL },
    { NULL }
  };

  context = g_option_context_new ("[SIZE_MB] [FILE] — time the .bsprof decoder");
  g_option_context_set_summary (context,
    "With FILE: decode FILE (written with today's shape if missing) in detail.\n"
    "Without: every shape (today, dense, random-addr, recent-frees, deep, many-paths)\n"
    "of SIZE_MB (default 256), each in its own process for its peak RSS.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 2;
    }
  if (argc > 1)
    size_mb = g_ascii_strtoull (argv[1], NULL, 10);
  if (size_mb == 0)
    size_mb = 256;
  if (shape_name != NULL && !bl_bsprof_shape_from_name (shape_name, &shape))
    {
      fprintf (stderr, "unknown shape %s\n", shape_name);
      return 2;
    }

  if (in_line)
    bl_bsprof_set_worker (G_MAXUINT64, 0);

  if (write_path != NULL)
    {
      write_shape_file (shape, size_mb, write_path);
      return 0;
    }

  if (argc > 2)
    {
      GStatBuf st;

      if (g_stat (argv[2], &st) != 0)
        {
          printf ("writing %" G_GUINT64_FORMAT " MB profile (%s) to %s…\n", size_mb,
                  bl_bsprof_shape_name (shape), argv[2]);
          write_shape_file (shape, size_mb, argv[2]);
        }
      print_heading ();
      bench_file (bl_bsprof_shape_name (shape), argv[2], TRUE);
      return 0;
    }

  if (child || shape_name != NULL)
    {
      if (!child)
        print_heading ();
      bench_shape (shape, size_mb);
      return 0;
    }

  printf ("%" G_GUINT64_FORMAT " MB per shape; decode and bare (varint) pass best of 3, in turn, "
          "wall-clock seconds then CPU seconds; RSS MB: peak while decoding; "
          "RSS max = file/2 + model + 16 B per live block\n",
          size_mb);
  print_heading ();
  fflush (stdout);
  for (guint s = 0; s < BL_BSPROF_N_SHAPES; s++)
    {
      g_autofree char *size_arg = g_strdup_printf ("%" G_GUINT64_FORMAT, size_mb);
      const char *child_argv[] = {
        "/proc/self/exe", "--child", "--shape", bl_bsprof_shape_name (s), size_arg,
        in_line ? "--in-line" : NULL, NULL
      };
      int status;

      if (!g_spawn_sync (NULL, (char **) child_argv, NULL, G_SPAWN_CHILD_INHERITS_STDIN,
                         NULL, NULL, NULL, NULL, &status, &error) ||
          !g_spawn_check_wait_status (status, &error))
        {
          fprintf (stderr, "shape %s: %s\n", bl_bsprof_shape_name (s), error->message);
          g_clear_error (&error);
        }
      printf ("  %s: %s\n", bl_bsprof_shape_name (s), bl_bsprof_shape_describe (s));
      fflush (stdout);
    }

  return 0;
}
