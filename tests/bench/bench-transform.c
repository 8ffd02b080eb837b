/* bench-transform.c — milliseconds per call-tree transform on a
 * 1,000,000-node profile
 *
 * Generates the same shape as bench-flame (4 threads, a random walk that
 * keeps most stacks 10–40 deep, 5,000 functions chosen with a skew so that
 * the hot ones recur, i.e. plenty of recursion), plus per-line records, and
 * times each transform kind, several runs each. The peer, measured in the
 * same run, is building the same 1 M-node tree from scratch through the
 * profile's builder (bl_profile_add_child + bl_profile_finish) — what a
 * reader does before any I/O, and what re-reading the file would cost at
 * the very least. Target: < 100 ms per transform.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bl-model.h"

#define N_NODES 1000000
#define N_RUNS  5

static BlProfile *
generate (void)
{
  BlProfile *profile = bl_profile_new ("bench");
  GRand *rand = g_rand_new_with_seed (20261121);
  guint32 names[5000];
  guint32 files[200];
  guint32 stack[80];
  guint depth = 0;

  bl_profile_enable_metric (profile, BL_METRIC_CPU);
  bl_profile_enable_metric (profile, BL_METRIC_CALLS);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_strdup_printf ("component%u.function_%u", i % 97, i);

      names[i] = bl_profile_intern (profile, name);
    }
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *file = g_strdup_printf ("pkg:/components/file%u.brs", i);

      files[i] = bl_profile_intern (profile, file);
    }

  for (guint t = 0; t < 4; t++)
    {
      g_autofree char *name = g_strdup_printf ("RowItem_%u", t);

      bl_profile_add_thread (profile, bl_profile_intern (profile, name));
    }

  stack[0] = bl_profile_get_thread_root (profile, 0);
  while (bl_profile_get_n_nodes (profile) < N_NODES)
    {
      double push = depth < 8 ? 0.8 : depth < 30 ? 0.55 : 0.3;

      if (depth + 1 < G_N_ELEMENTS (stack) && g_rand_double (rand) < push)
        {
          guint f = (guint) (G_N_ELEMENTS (names) * pow (g_rand_double (rand), 3));
          guint32 node = bl_profile_add_child (profile, stack[depth], names[f],
                                               files[f % 200], 1 + f);
          guint64 cpu = 1 + g_rand_int_range (rand, 0, 1000);

          stack[++depth] = node;
          bl_profile_add_value (profile, node, BL_METRIC_CPU, cpu);
          bl_profile_add_value (profile, node, BL_METRIC_CALLS, 1);
          bl_profile_add_line_value (profile,
                                     bl_profile_lookup_line (profile, files[f % 200],
                                                             2 + f + g_rand_int_range (rand, 0, 8),
                                                             names[f]),
                                     BL_METRIC_CPU, cpu);
        }
      else if (depth > 0)
        depth--;
      else
        stack[0] = bl_profile_get_thread_root (profile, g_rand_int_range (rand, 0, 4));
    }

  bl_profile_finish (profile);
  g_rand_free (rand);

  return profile;
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
main (void)
{
  g_autoptr(BlProfile) profile = NULL;
  static const char * const transforms[] = {
    "merge:component1.function_1",
    "focus:component2.function_2",
    "focus-path:RowItem_0;component0.function_0",
    "collapse-recursion",
    "drop:component3.function_3",
    "hide:pkg:/components/file1*",
    "merge-threads",
    "merge-all-threads",
  };
  double cpu[N_RUNS], wall[N_RUNS];
  guint n_out = 0;

  /* the peer: building the same tree from scratch */
  for (guint r = 0; r < N_RUNS; r++)
    {
      double c0 = thread_cpu_ms (), w0 = wall_ms ();

      g_clear_object (&profile);
      profile = generate ();
      cpu[r] = thread_cpu_ms () - c0;
      wall[r] = wall_ms () - w0;
    }
  printf ("1 M-node profile: %u nodes, %u functions, %u lines, 4 threads\n",
          bl_profile_get_n_nodes (profile), bl_profile_get_n_functions (profile),
          bl_profile_get_n_lines (profile));
  report ("peer: build the tree", cpu, wall, bl_profile_get_n_nodes (profile));

  for (guint i = 0; i < G_N_ELEMENTS (transforms); i++)
    {
      g_autoptr(BlTransform) t = bl_transform_parse (transforms[i], NULL);

      g_assert (t != NULL);
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
