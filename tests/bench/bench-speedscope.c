/* bench-speedscope.c — importing a big sampled speedscope profile
 *
 * Writes a sampled speedscope file of the shape other importers were
 * measured on: about 105 MB, 1,000,000 samples, 5,000 frames with names,
 * files and lines, stacks up to 40 deep that drift from sample to sample
 * the way a real program's do; one profile in milliseconds with decimal
 * weights and one in "none" with integer weights. Then it loads the file
 * through bl_format_load_file() in a child process, several times, and
 * prints the seconds, MB/s and the child's peak RSS.
 * Targets: under 1 s and under 200 MB peak RSS.
 *
 * Usage: bench-speedscope [FILE]   (FILE: keep the generated file there)
 *        BL_BENCH_RUNS=N           loads N times (default 3)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "bl-model.h"

#define N_FRAMES   5000
#define N_SAMPLES  1000000
#define N_MAIN     700000     /* samples of the first profile; the rest are the worker's */
#define MAX_DEPTH  40

/* ---- the generator ------------------------------------------------------ */

static const char *const verbs[] = {
  "get", "set", "update", "render", "parse", "load", "draw", "compute", "handle", "process",
  "create", "destroy", "find", "apply", "layout", "measure", "dispatch", "read", "write",
  "flush", "resolve", "compile", "emit", "notify", "schedule", "merge", "sort", "hash",
};

static const char *const nouns[] = {
  "Node", "Texture", "Buffer", "Event", "Frame", "Layout", "Style", "Token", "Request",
  "Response", "Cache", "Entry", "Image", "Glyph", "Font", "Path", "Record", "Header",
  "Stream", "Packet", "Channel", "Scene", "Sprite", "Timer", "Task", "Queue", "Value",
};

static const char *const classes[] = {
  "Renderer", "Compositor", "HttpClient", "JsonParser", "SceneGraph", "FontCache",
  "EventLoop", "Scheduler", "ImageDecoder", "LayoutEngine", "StyleResolver", "Allocator",
  "AudioMixer", "NetworkStack", "Database", "Interpreter", "GarbageCollector", "Player",
};

static const char *const dirs[] = {
  "src/core", "src/render", "src/net", "src/ui/widgets", "lib/json", "lib/image/decoders",
  "src/runtime", "src/audio", "third_party/zlib", "src/storage",
};

/* the k-th callee of frame f: a few fixed ones per frame, as in a real program */
static guint
callee (guint f,
        guint k)
{
  guint64 h = ((guint64) f * 2654435761u + k * 40503u + 17) *
              G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  return (guint) ((h >> 33) % N_FRAMES);
}

static void
write_frames (FILE *out)
{
  fputs ("\"shared\":{\"frames\":[", out);
  for (guint i = 0; i < N_FRAMES; i++)
    {
      guint c = g_random_int_range (0, G_N_ELEMENTS (classes));
      guint d = g_random_int_range (0, G_N_ELEMENTS (dirs));

      fprintf (out, "%s{\"name\":\"%s::%s%s%s\",\"file\":\"%s/%s.cpp\",\"line\":%u,\"col\":%u}",
               i > 0 ? "," : "", classes[c],
               verbs[g_random_int_range (0, G_N_ELEMENTS (verbs))],
               nouns[g_random_int_range (0, G_N_ELEMENTS (nouns))],
               i % 7 == 0 ? "Locked" : "", dirs[d], classes[c],
               (guint) g_random_int_range (10, 4000), (guint) g_random_int_range (1, 80));
    }
  fputs ("]},", out);
}

/* Samples drift: each one keeps a prefix of the one before and grows a new
 * tail from the callees of the frame it keeps. */
static void
write_samples (FILE  *out,
               guint  n,
               guint  root,
               guint *stack,
               guint *depth)
{
  fputs ("\"samples\":[", out);
  for (guint s = 0; s < n; s++)
    {
      guint keep = *depth;
      guint pops = g_random_int_range (0, 100) < 60 ? 0 : g_random_int_range (1, 12);
      guint target;

      keep = pops >= keep ? 1 : keep - pops;
      if (keep == 0)
        keep = 1;
      stack[0] = root;
      target = MIN (MAX_DEPTH, keep + (guint) g_random_int_range (0, pops + 2));
      if (target < 14)
        target = 14 + g_random_int_range (0, 17);
      for (guint d = keep; d < target; d++)
        {
          guint r = g_random_int_range (0, 100);
          guint k = r < 85 ? 0 : r < 95 ? 1 : r < 99 ? 2 : 3;

          stack[d] = callee (stack[d - 1], k);
        }
      *depth = target;

      fputc (s > 0 ? ',' : '[', out);
      if (s > 0)
        fputc ('[', out);
      for (guint d = 0; d < *depth; d++)
        fprintf (out, d > 0 ? ",%u" : "%u", stack[d]);
      fputc (']', out);
    }
  fputs ("],", out);
}

static gboolean
write_file (const char  *path,
            GError     **error)
{
  FILE *out = fopen (path, "w");
  guint stack[MAX_DEPTH];
  guint depth = 0;

  if (out == NULL)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "%s: %s", path,
                   g_strerror (errno));
      return FALSE;
    }

  g_random_set_seed (20261121);
  fputs ("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",", out);
  write_frames (out);

  /* the main thread: milliseconds, decimal weights about one sampling period */
  fputs ("\"profiles\":[{\"type\":\"sampled\",\"name\":\"Main thread\","
         "\"unit\":\"milliseconds\",\"startValue\":0,", out);
  write_samples (out, N_MAIN, 0, stack, &depth);
  fputs ("\"weights\":[", out);
  {
    double total = 0;

    for (guint s = 0; s < N_MAIN; s++)
      {
        guint w = g_random_int_range (900, 1300);

        total += w / 1000.0;
        fprintf (out, s > 0 ? ",%u.%03u" : "%u.%03u", w / 1000, w % 1000);
      }
    fprintf (out, "],\"endValue\":%.3f},", total);
  }

  /* a worker: sample counts as integer weights */
  depth = 0;
  fputs ("{\"type\":\"sampled\",\"name\":\"Worker\",\"unit\":\"none\",\"startValue\":0,", out);
  write_samples (out, N_SAMPLES - N_MAIN, 1, stack, &depth);
  fputs ("\"weights\":[", out);
  {
    guint total = 0;

    for (guint s = 0; s < N_SAMPLES - N_MAIN; s++)
      {
        guint w = g_random_int_range (0, 10) == 0 ? 2 : 1;

        total += w;
        fprintf (out, s > 0 ? ",%u" : "%u", w);
      }
    fprintf (out, "],\"endValue\":%u}],", total);
  }

  fputs ("\"name\":\"bench-speedscope\",\"exporter\":\"brightlens bench\","
         "\"activeProfileIndex\":0}\n", out);

  if (fclose (out) != 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "%s: %s", path,
                   g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

/* ---- loading ------------------------------------------------------------ */

/* In the child: load and print the seconds on stdout. */
static int
load_child (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  g_autoptr(GObject) loaded = bl_format_load_file (file, NULL, NULL, NULL, &error);
  double seconds = (g_get_monotonic_time () - start) / 1e6;
  BlProfile *profile;

  if (loaded == NULL || !BL_IS_PROFILE (loaded))
    {
      fprintf (stderr, "bench-speedscope: %s\n", error ? error->message : "not a profile");
      return 1;
    }
  profile = BL_PROFILE (loaded);
  if (bl_profile_get_grand_total (profile, BL_METRIC_TIME_NS) == 0 ||
      bl_profile_get_grand_total (profile, BL_METRIC_WEIGHT) == 0 ||
      bl_profile_is_incomplete (profile))
    {
      fprintf (stderr, "bench-speedscope: the profile lacks its totals\n");
      return 1;
    }

  printf ("%.3f %u\n", seconds, bl_profile_get_n_nodes (profile));
  return 0;
}

/* Runs ourselves on @path; returns the seconds and the peak RSS of the
 * largest child so far (they all do the same). */
static gboolean
measure (const char *self_path,
         const char *path,
         double     *seconds,
         guint      *n_nodes,
         double     *peak_rss_mb)
{
  const char *argv[] = { self_path, "--load", path, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  struct rusage usage;
  int wait_status;
  char *end;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL,
                     &wait_status, &error))
    {
      fprintf (stderr, "bench-speedscope: %s\n", error->message);
      return FALSE;
    }
  if (!WIFEXITED (wait_status) || WEXITSTATUS (wait_status) != 0)
    return FALSE;

  getrusage (RUSAGE_CHILDREN, &usage);
  *seconds = g_ascii_strtod (out, &end);
  *n_nodes = (guint) g_ascii_strtoull (end, NULL, 10);
  *peak_rss_mb = usage.ru_maxrss / 1024.0;
  return TRUE;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *self_path = NULL;
  g_autofree double *times = NULL;
  const char *runs_env = g_getenv ("BL_BENCH_RUNS");
  guint runs = runs_env != NULL ? MAX (1, atoi (runs_env)) : 3;
  GStatBuf st;
  double size_mb, rss = 0;
  guint n_nodes = 0;

  if (argc == 3 && g_str_equal (argv[1], "--load"))
    return load_child (argv[2]);

  self_path = g_canonicalize_filename (argv[0], NULL);

  if (argc == 2)
    path = g_strdup (argv[1]);
  else
    {
      dir = g_dir_make_tmp ("bench-speedscope-XXXXXX", &error);
      if (dir == NULL)
        {
          fprintf (stderr, "bench-speedscope: %s\n", error->message);
          return 1;
        }
      path = g_build_filename (dir, "big.speedscope.json", NULL);
    }

  if (argc != 2 || !g_file_test (path, G_FILE_TEST_EXISTS))
    if (!write_file (path, &error))
      {
        fprintf (stderr, "bench-speedscope: %s\n", error->message);
        return 1;
      }
  g_stat (path, &st);
  size_mb = st.st_size / 1e6;
  printf ("bench-speedscope: sampled file, %u samples, %u frames, depth <= %u: %.1f MB\n",
          N_SAMPLES, N_FRAMES, MAX_DEPTH, size_mb);

  times = g_new (double, runs);
  for (guint i = 0; i < runs; i++)
    {
      if (!measure (self_path, path, &times[i], &n_nodes, &rss))
        return 1;
      printf ("bench-speedscope: run %u: %.3f s, %.0f MB/s\n", i + 1, times[i],
              size_mb / times[i]);
    }
  qsort (times, runs, sizeof (double), compare_double);
  printf ("bench-speedscope: %u call-tree nodes; best %.3f s (%.0f MB/s), median %.3f s, "
          "peak RSS %.1f MiB\n", n_nodes, times[0], size_mb / times[0], times[runs / 2], rss);
  printf ("bench-speedscope: targets: < 1 s (%s), peak RSS < 200 MB (%s)\n",
          times[0] < 1 ? "met" : "MISSED", rss * 1.048576 < 200 ? "met" : "MISSED");

  if (dir != NULL)
    {
      g_unlink (path);
      g_rmdir (dir);
    }

  return 0;
}
