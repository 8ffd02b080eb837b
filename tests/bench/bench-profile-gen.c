/* bench-profile-gen.c — the generated 1,000,000-node profile that the
 * flame graph and transform benchmarks share
 *
 * Four threads; a random walk that pushes a callee or returns, with a bias
 * that keeps most stacks between 10 and 40 deep, like a busy app; 5,000
 * functions chosen with a skew so that a few are called a lot (and so
 * recur on the same stack). Each frame gets a CPU value and one call, and,
 * when asked, its CPU on one of the first lines of its function. The same
 * seed gives the same profile every time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "bench-profile-gen.h"

char *
bench_profile_gen_function_name (guint function)
{
  return g_strdup_printf ("component%u.function_%u", function % 97, function);
}

char *
bench_profile_gen_file_name (guint file)
{
  return g_strdup_printf ("pkg:/components/file%u.brs", file);
}

BlProfile *
bench_profile_gen (const BenchProfileGenOptions *options)
{
  BlProfile *profile = bl_profile_new ("bench");
  GRand *rand = g_rand_new_with_seed (20261121);
  guint32 names[BENCH_PROFILE_GEN_FUNCTIONS];
  guint32 files[BENCH_PROFILE_GEN_FILES];
  guint32 stack[80];
  guint depth = 0;

  bl_profile_enable_metric (profile, BL_METRIC_CPU);
  bl_profile_enable_metric (profile, BL_METRIC_CALLS);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = bench_profile_gen_function_name (i);

      names[i] = bl_profile_intern (profile, name);
    }
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *file = bench_profile_gen_file_name (i);

      files[i] = bl_profile_intern (profile, file);
    }

  for (guint t = 0; t < BENCH_PROFILE_GEN_THREADS; t++)
    {
      g_autofree char *name = g_strdup_printf ("%s%u", options->thread_prefix, t);

      bl_profile_add_thread (profile, bl_profile_intern (profile, name));
    }

  stack[0] = bl_profile_get_thread_root (profile, 0);
  while (bl_profile_get_n_nodes (profile) < BENCH_PROFILE_GEN_NODES)
    {
      double push = depth < 8 ? 0.8 : depth < 30 ? 0.55 : 0.3;

      if (depth + 1 < G_N_ELEMENTS (stack) && g_rand_double (rand) < push)
        {
          /* skewed choice: a few functions are called a lot */
          guint f = (guint) (G_N_ELEMENTS (names) * pow (g_rand_double (rand), 3));
          guint before = bl_profile_get_n_nodes (profile);
          guint32 node = bl_profile_add_child (profile, stack[depth], names[f],
                                               files[f % G_N_ELEMENTS (files)], 1 + f);
          guint64 cpu = 1 + g_rand_int_range (rand, 0, 1000);
          guint32 line = 0;

          bl_profile_add_value (profile, node, BL_METRIC_CPU, cpu);
          bl_profile_add_value (profile, node, BL_METRIC_CALLS, 1);
          if (options->lines)
            {
              line = 2 + f + g_rand_int_range (rand, 0, 8);
              bl_profile_add_line_value (profile,
                                         bl_profile_lookup_line (profile,
                                                                 files[f % G_N_ELEMENTS (files)],
                                                                 line, names[f]),
                                         BL_METRIC_CPU, cpu);
            }
          if (options->push != NULL)
            options->push (options->user_data, stack[depth], node, node >= before, f, cpu, line);
          stack[++depth] = node;
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
