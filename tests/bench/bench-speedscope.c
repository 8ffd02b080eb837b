/* bench-speedscope.c — importing big speedscope profiles
 *
 * Writes two speedscope files like the ones DESIGN.md measures other
 * importers on. The sampled one: about 105 MB, 1,000,000 samples, 5,000
 * frames with names, files and lines, stacks up to 40 deep that drift from
 * sample to sample the way a real program's do; one profile in
 * milliseconds with decimal weights and one in "none" with integer
 * weights. The evented one: about 78 MB, 2,000,000 open and close events
 * of one profile in milliseconds with microsecond decimals, over the same
 * frames and the same kind of drifting stacks. Then it loads each file
 * through bl_format_load_file() in a child process, several times, and
 * prints the seconds, MB/s and the child's peak RSS; and the same with
 * the folded export of the default metric written after the load (what
 * `brightlens-cli export --format folded` does), against the load alone
 * (what `brightlens-cli info` does).
 * Targets: sampled under 1 s and under 200 MB peak RSS; evented at least
 * 10× faster than speedscope's own importer (4.0 s on the tester's
 * machine: about 0.4 s); the folded export at most 1.5× the load.
 *
 * Usage: bench-speedscope [SAMPLED [EVENTED]]   (keep the generated files there)
 *        BL_BENCH_RUNS=N                         loads N times (default 3)
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
#define N_EVENTS   2000000    /* of the evented file */

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

/* One evented profile of N_EVENTS events in milliseconds with microsecond
 * decimals: frames open and close as a drifting stack does (the same
 * stacks as the sampled file's), each frame staying open 1-400 µs before
 * the next event. */
static gboolean
write_evented_file (const char  *path,
                    GError     **error)
{
  FILE *out = fopen (path, "w");
  guint stack[MAX_DEPTH];
  guint depth = 0;
  guint64 at = 1000000;   /* µs */
  guint n = 0;

  if (out == NULL)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "%s: %s", path,
                   g_strerror (errno));
      return FALSE;
    }

  g_random_set_seed (20261124);
  fputs ("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",", out);
  write_frames (out);
  fprintf (out, "\"profiles\":[{\"type\":\"evented\",\"name\":\"Main thread\","
           "\"unit\":\"milliseconds\",\"startValue\":%" G_GUINT64_FORMAT ".%03u,"
           "\"events\":[", at / 1000, (guint) (at % 1000));
  while (n < N_EVENTS)
    {
      /* close a few (keeping the root), then open a few */
      guint pops = g_random_int_range (0, 100) < 50 ? 1 : g_random_int_range (1, 8);
      guint target;

      for (guint i = 0; i < pops && depth > 1 && n < N_EVENTS - depth; i++)
        {
          depth--;
          fprintf (out, "%s{\"type\":\"C\",\"frame\":%u,\"at\":%" G_GUINT64_FORMAT ".%03u}",
                   n > 0 ? "," : "", stack[depth], at / 1000, (guint) (at % 1000));
          n++;
          at += g_random_int_range (1, 400);
        }
      if (n >= N_EVENTS - depth)
        break;
      target = MIN (MAX_DEPTH, depth + (guint) g_random_int_range (1, pops + 2));
      for (guint d = depth; d < target && n < N_EVENTS - d - 1; d++)
        {
          guint r = g_random_int_range (0, 100);
          guint k = r < 85 ? 0 : r < 95 ? 1 : r < 99 ? 2 : 3;

          stack[d] = d == 0 ? 0 : callee (stack[d - 1], k);
          fprintf (out, "%s{\"type\":\"O\",\"frame\":%u,\"at\":%" G_GUINT64_FORMAT ".%03u}",
                   n > 0 ? "," : "", stack[d], at / 1000, (guint) (at % 1000));
          n++;
          depth = d + 1;
          at += g_random_int_range (1, 400);
        }
    }
  while (depth > 0)
    {
      depth--;
      fprintf (out, ",{\"type\":\"C\",\"frame\":%u,\"at\":%" G_GUINT64_FORMAT ".%03u}",
               stack[depth], at / 1000, (guint) (at % 1000));
      at += g_random_int_range (1, 400);
    }
  fprintf (out, "],\"endValue\":%" G_GUINT64_FORMAT ".%03u}],"
           "\"name\":\"bench-speedscope evented\",\"exporter\":\"brightlens bench\","
           "\"activeProfileIndex\":0}\n", at / 1000, (guint) (at % 1000));

  if (fclose (out) != 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "%s: %s", path,
                   g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

/* ---- loading ------------------------------------------------------------ */

/* In the child: load (and with @folded, write the default metric's folded
 * stacks to /dev/null) and print the seconds on stdout. */
static int
load_child (const char *path,
            gboolean    folded)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  g_autoptr(GObject) loaded = bl_format_load_file (file, NULL, NULL, NULL, &error);
  double seconds;
  struct rusage usage;
  BlProfile *profile;
  BlMetricId metric;

  if (loaded == NULL || !BL_IS_PROFILE (loaded))
    {
      fprintf (stderr, "bench-speedscope: %s\n", error ? error->message : "not a profile");
      return 1;
    }
  profile = BL_PROFILE (loaded);
  metric = bl_profile_get_default_metric (profile);
  if (metric == BL_METRIC_INVALID || bl_profile_get_grand_total (profile, metric) == 0 ||
      bl_profile_is_incomplete (profile))
    {
      fprintf (stderr, "bench-speedscope: the profile lacks its totals\n");
      return 1;
    }
  if (folded)
    {
      g_autoptr(GFile) null = g_file_new_for_path ("/dev/null");
      g_autoptr(GFileOutputStream) out = g_file_append_to (null, G_FILE_CREATE_NONE, NULL,
                                                           &error);

      if (out == NULL || !bl_folded_write (profile, metric, G_OUTPUT_STREAM (out), NULL, &error))
        {
          fprintf (stderr, "bench-speedscope: %s\n", error->message);
          return 1;
        }
    }
  seconds = (g_get_monotonic_time () - start) / 1e6;
  getrusage (RUSAGE_SELF, &usage);

  /* wall and CPU seconds (the machine may be shared), nodes, peak RSS */
  printf ("%.3f %.3f %u %.1f\n", seconds,
          usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 +
          usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6,
          bl_profile_get_n_nodes (profile), usage.ru_maxrss / 1024.0);
  return 0;
}

/* Runs ourselves on @path; returns the child's wall and CPU seconds and
 * its peak RSS. */
static gboolean
measure (const char *self_path,
         const char *path,
         gboolean    folded,
         double     *seconds,
         double     *cpu,
         guint      *n_nodes,
         double     *peak_rss_mb)
{
  const char *argv[] = { self_path, folded ? "--folded" : "--load", path, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
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

  *seconds = g_ascii_strtod (out, &end);
  *cpu = g_ascii_strtod (end, &end);
  *n_nodes = (guint) g_ascii_strtoull (end, &end, 10);
  *peak_rss_mb = g_ascii_strtod (end, NULL);
  return TRUE;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* Loads @path @runs times, then loads and exports it @runs times; prints
 * both and returns the best load time. */
static gboolean
bench_file (const char *self_path,
            const char *path,
            const char *shape,
            guint       runs,
            double     *best)
{
  g_autofree double *times = g_new (double, runs);
  g_autofree double *cpus = g_new (double, runs);
  g_autofree double *folded = g_new (double, runs);
  g_autofree double *folded_cpus = g_new (double, runs);
  GStatBuf st;
  double size_mb, rss = 0;
  guint n_nodes = 0;

  g_stat (path, &st);
  size_mb = st.st_size / 1e6;
  printf ("bench-speedscope: %s: %.1f MB\n", shape, size_mb);

  for (guint i = 0; i < runs; i++)
    {
      double run_rss;

      if (!measure (self_path, path, FALSE, &times[i], &cpus[i], &n_nodes, &run_rss))
        return FALSE;
      rss = MAX (rss, run_rss);
      printf ("bench-speedscope: %s: load %u: %.3f s (CPU %.3f s), %.0f MB/s\n", shape, i + 1,
              times[i], cpus[i], size_mb / times[i]);
    }
  for (guint i = 0; i < runs; i++)
    {
      double ignored;

      if (!measure (self_path, path, TRUE, &folded[i], &folded_cpus[i], &n_nodes, &ignored))
        return FALSE;
    }
  qsort (times, runs, sizeof (double), compare_double);
  qsort (cpus, runs, sizeof (double), compare_double);
  qsort (folded, runs, sizeof (double), compare_double);
  qsort (folded_cpus, runs, sizeof (double), compare_double);
  printf ("bench-speedscope: %s: %u call-tree nodes; load best %.3f s (%.0f MB/s), "
          "median %.3f s; CPU best %.3f s, median %.3f s; peak RSS %.1f MiB\n", shape, n_nodes,
          times[0], size_mb / times[0], times[runs / 2], cpus[0], cpus[runs / 2], rss);
  printf ("bench-speedscope: %s: load + folded export best %.3f s, median %.3f s "
          "(CPU best %.3f s): %.2f× the load by CPU time (target <= 1.5×: %s)\n", shape,
          folded[0], folded[runs / 2], folded_cpus[0], folded_cpus[0] / cpus[0],
          folded_cpus[0] <= 1.5 * cpus[0] ? "met" : "MISSED");
  *best = cpus[0];

  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *sampled = NULL;
  g_autofree char *evented = NULL;
  g_autofree char *self_path = NULL;
  const char *runs_env = g_getenv ("BL_BENCH_RUNS");
  guint runs = runs_env != NULL ? MAX (1, atoi (runs_env)) : 3;
  double best_sampled = 0, best_evented = 0;

  if (argc == 3 && g_str_equal (argv[1], "--load"))
    return load_child (argv[2], FALSE);
  if (argc == 3 && g_str_equal (argv[1], "--folded"))
    return load_child (argv[2], TRUE);

  self_path = g_canonicalize_filename (argv[0], NULL);

  if (argc < 3)
    {
      dir = g_dir_make_tmp ("bench-speedscope-XXXXXX", &error);
      if (dir == NULL)
        {
          fprintf (stderr, "bench-speedscope: %s\n", error->message);
          return 1;
        }
    }
  sampled = argc >= 2 ? g_strdup (argv[1]) : g_build_filename (dir, "big.speedscope.json", NULL);
  evented = argc >= 3 ? g_strdup (argv[2])
                      : g_build_filename (dir, "evented.speedscope.json", NULL);

  if ((argc < 2 || !g_file_test (sampled, G_FILE_TEST_EXISTS)) && !write_file (sampled, &error))
    {
      fprintf (stderr, "bench-speedscope: %s\n", error->message);
      return 1;
    }
  if ((argc < 3 || !g_file_test (evented, G_FILE_TEST_EXISTS)) &&
      !write_evented_file (evented, &error))
    {
      fprintf (stderr, "bench-speedscope: %s\n", error->message);
      return 1;
    }

  printf ("bench-speedscope: sampled file: %u samples, %u frames, depth <= %u\n",
          N_SAMPLES, N_FRAMES, MAX_DEPTH);
  if (!bench_file (self_path, sampled, "sampled", runs, &best_sampled))
    return 1;
  printf ("bench-speedscope: evented file: %u events of one profile, %u frames, depth <= %u\n",
          N_EVENTS, N_FRAMES, MAX_DEPTH);
  if (!bench_file (self_path, evented, "evented", runs, &best_evented))
    return 1;

  printf ("bench-speedscope: targets (by CPU time; wall time is the same on an idle machine): "
          "sampled < 1 s (%s); evented <= 0.4 s, 10× speedscope's importer at 4.0 s on the "
          "tester's machine (%s; compare with speedscope's importer in the same run: "
          "tools/speedscope-peer.js --time)\n",
          best_sampled < 1 ? "met" : "MISSED", best_evented <= 0.4 ? "met" : "MISSED");

  if (dir != NULL)
    {
      g_unlink (sampled);
      g_unlink (evented);
      g_rmdir (dir);
    }

  return 0;
}
