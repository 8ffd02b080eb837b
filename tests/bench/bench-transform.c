/* bench-transform.c — milliseconds per call-tree transform on a
 * 1,000,000-node profile
 *
 * Generates bench-flame's profile (bench-profile-gen.c: 4 threads, a random
 * walk that keeps most stacks 10–40 deep, 5,000 functions chosen with a
 * skew so that the hot ones recur, i.e. plenty of recursion), plus per-line
 * records, and times each transform kind, several runs each. The peer,
 * measured in the same run, is building the same 1 M-node tree from scratch
 * through the profile's builder (bl_profile_add_child + bl_profile_finish) —
 * what a reader does before any I/O, and what re-reading the file would
 * cost at the very least. Target: < 100 ms per transform.
 *
 * Usage: bench-transform                 the peer and every transform
 *        bench-transform TRANSFORM…      only these (no peer), e.g. under perf
 *        bench-transform --write FILE    write the profile as a .bsprof (the
 *                                        same tree, metrics and lines), to
 *                                        compare brightlens-cli's output on it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-profile-gen.h"
#include "bl-bsprof-writer.h"
#include "bl-model.h"

#define N_RUNS  5

static BlProfile *
generate (void)
{
  BenchProfileGenOptions options = { "RowItem_", TRUE, NULL, NULL };

  return bench_profile_gen (&options);
}

/* The .bsprof string ids: threads 1–4, files 100–299, functions 1000–5999;
 * a node's path element is its node index (thread roots, 0–3, are none) */
#define STRING_THREAD   1
#define STRING_FILE     100
#define STRING_FUNCTION 1000

static void
write_push (gpointer user_data,
            guint32  parent,
            guint32  node,
            gboolean is_new,
            guint    function,
            guint64  cpu,
            guint32  line)
{
  BlBsprofWriter *w = user_data;
  guint32 file = STRING_FILE + function % BENCH_PROFILE_GEN_FILES;

  if (is_new && parent < BENCH_PROFILE_GEN_THREADS)
    bl_bsprof_writer_root (w, node, STRING_THREAD + parent, file, 1 + function,
                           STRING_FUNCTION + function);
  else if (is_new)
    bl_bsprof_writer_path (w, node, parent, 1, file, 1 + function, STRING_FUNCTION + function);
  /* the reader puts the value on line (function's line) + offset - 1 */
  bl_bsprof_writer_cpu (w, node, line - function, cpu, cpu);
  bl_bsprof_writer_calls (w, node, 1);
}

static int
write_bsprof (const char *path)
{
  FILE *file = fopen (path, "wb");
  BlBsprofHeader header;
  BlBsprofWriter *w;
  BenchProfileGenOptions options = { "RowItem_", TRUE, write_push, NULL };
  g_autoptr(BlProfile) profile = NULL;

  if (file == NULL)
    {
      fprintf (stderr, "bench-transform: cannot write %s\n", path);
      return 1;
    }
  bl_bsprof_header_init (&header);
  header.lines = TRUE;
  header.target = "bench-transform";
  w = bl_bsprof_writer_new_file (&header, file);
  options.user_data = w;

  for (guint t = 0; t < BENCH_PROFILE_GEN_THREADS; t++)
    {
      g_autofree char *name = g_strdup_printf ("RowItem_%u", t);

      bl_bsprof_writer_string (w, STRING_THREAD + t, name);
      bl_bsprof_writer_module (w, 1 + t, STRING_THREAD + t);
    }
  for (guint i = 0; i < BENCH_PROFILE_GEN_FILES; i++)
    {
      g_autofree char *name = bench_profile_gen_file_name (i);

      bl_bsprof_writer_string (w, STRING_FILE + i, name);
    }
  for (guint i = 0; i < BENCH_PROFILE_GEN_FUNCTIONS; i++)
    {
      g_autofree char *name = bench_profile_gen_function_name (i);

      bl_bsprof_writer_string (w, STRING_FUNCTION + i, name);
    }

  profile = bench_profile_gen (&options);
  bl_bsprof_writer_end (w, 0);
  bl_bsprof_writer_free (w);
  if (fclose (file) != 0)
    {
      fprintf (stderr, "bench-transform: cannot write %s\n", path);
      return 1;
    }
  printf ("wrote %s: %u nodes, %u lines\n", path, bl_profile_get_n_nodes (profile),
          bl_profile_get_n_lines (profile));

  return 0;
}

/* CPU time of this thread: on a shared machine wall-clock time includes
 * waiting for a core */
static double
thread_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double
wall_ms (void)
{
  return g_get_monotonic_time () / 1e3;
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static void
report (const char *label,
        double     *cpu,
        double     *wall,
        guint       n_nodes_out)
{
  qsort (cpu, N_RUNS, sizeof (double), compare_double);
  qsort (wall, N_RUNS, sizeof (double), compare_double);
  printf ("%-28s %9u nodes out   cpu %6.1f ms (%.1f–%.1f)   wall %6.1f ms (%.1f–%.1f)\n",
          label, n_nodes_out, cpu[N_RUNS / 2], cpu[0], cpu[N_RUNS - 1],
          wall[N_RUNS / 2], wall[0], wall[N_RUNS - 1]);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(BlProfile) profile = NULL;
  static const char * const all_transforms[] = {
    "merge:component1.function_1",
    "focus:component2.function_2",
    "focus-path:RowItem_0;component0.function_0",
    "collapse-recursion",
    "drop:component3.function_3",
    "hide:pkg:/components/file1*",
    "merge-threads",
    "merge-all-threads",
  };
  const char * const *transforms = all_transforms;
  guint n_transforms = G_N_ELEMENTS (all_transforms);
  double cpu[N_RUNS], wall[N_RUNS];
  guint n_out = 0;

  if (argc == 3 && strcmp (argv[1], "--write") == 0)
    return write_bsprof (argv[2]);
  if (argc > 1 && argv[1][0] == '-')
    {
      fprintf (stderr, "Usage: bench-transform [TRANSFORM…] | --write FILE.bsprof\n");
      return 2;
    }

  if (argc > 1)
    {
      /* only these: no peer */
      transforms = (const char * const *) argv + 1;
      n_transforms = argc - 1;
      profile = generate ();
    }
  else
    {
      /* the peer: building the same tree from scratch */
      for (guint r = 0; r < N_RUNS; r++)
        {
          double c0 = thread_cpu_ms (), w0 = wall_ms ();

          g_clear_object (&profile);
          profile = generate ();
          cpu[r] = thread_cpu_ms () - c0;
          wall[r] = wall_ms () - w0;
        }
    }
  printf ("1 M-node profile: %u nodes, %u functions, %u lines, 4 threads\n",
          bl_profile_get_n_nodes (profile), bl_profile_get_n_functions (profile),
          bl_profile_get_n_lines (profile));
  if (argc == 1)
    report ("peer: build the tree", cpu, wall, bl_profile_get_n_nodes (profile));

  for (guint i = 0; i < n_transforms; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlTransform) t = bl_transform_parse (transforms[i], &error);

      if (t == NULL)
        {
          fprintf (stderr, "bench-transform: %s\n", error->message);
          return 2;
        }
      for (guint r = 0; r < N_RUNS; r++)
        {
          double c0 = thread_cpu_ms (), w0 = wall_ms ();
          g_autoptr(BlProfile) result = bl_transform_apply (t, profile, NULL, NULL);

          cpu[r] = thread_cpu_ms () - c0;
          wall[r] = wall_ms () - w0;
          n_out = bl_profile_get_n_nodes (result);
          g_clear_object (&result);
        }
      report (transforms[i], cpu, wall, n_out);
    }

  return 0;
}
