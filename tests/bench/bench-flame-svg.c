/* bench-flame-svg.c — the SVG flame graph of million-node profiles
 *
 * Builds three profiles of about a million nodes in memory: "deep" (1,000
 * chains of 1,000 frames, every frame wide enough to draw, so the frame cap
 * decides), "bushy" (100 × 100 × 100 leaves with random values, most of
 * them under 0.1 px) and "wide" (one root with a million children). For
 * each it writes the SVG flame graph (brightlens-cli export --format svg)
 * and, as the peer measured in the same run, the folded stacks of the same
 * metric (--format folded), both into memory, several times, and prints
 * the seconds (min–max), the bytes written and the frames drawn. Target:
 * the SVG no slower than the folded export, and a few MB, never a
 * gigabyte.
 *
 * Usage: bench-flame-svg            BL_BENCH_RUNS=N runs N times (default 3)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "bl-flame-svg.h"
#include "bl-model.h"

static BlProfile *
make_deep (void)
{
  BlProfile *profile = bl_profile_new ("bench");
  guint32 names[16];
  guint32 file = bl_profile_intern (profile, "pkg:/source/main.brs");
  guint32 thread;

  bl_profile_enable_metric (profile, BL_METRIC_CPU);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_strdup_printf ("function_%u", i);

      names[i] = bl_profile_intern (profile, name);
    }
  thread = bl_profile_add_thread (profile, bl_profile_intern (profile, "main"));
  for (guint c = 0; c < 1000; c++)
    {
      g_autofree char *chain = g_strdup_printf ("chain_%u", c);
      guint32 node = bl_profile_add_child (profile, thread, bl_profile_intern (profile, chain),
                                           file, 1);

      for (guint d = 1; d < 1000; d++)
        node = bl_profile_add_child (profile, node, names[(c + d) % 16], file, d + 1);
      bl_profile_add_value (profile, node, BL_METRIC_CPU, 1000 + c);
    }
  bl_profile_finish (profile);

  return profile;
}

static BlProfile *
make_bushy (void)
{
  BlProfile *profile = bl_profile_new ("bench");
  guint32 file = bl_profile_intern (profile, "pkg:/source/main.brs");
  guint32 thread;
  GRand *rand = g_rand_new_with_seed (1);

  bl_profile_enable_metric (profile, BL_METRIC_CPU);
  thread = bl_profile_add_thread (profile, bl_profile_intern (profile, "main"));
  for (guint a = 0; a < 100; a++)
    {
      g_autofree char *an = g_strdup_printf ("a%u", a);
      guint32 na = bl_profile_add_child (profile, thread, bl_profile_intern (profile, an), file, 1);

      for (guint b = 0; b < 100; b++)
        {
          g_autofree char *bn = g_strdup_printf ("b%u", b);
          guint32 nb = bl_profile_add_child (profile, na, bl_profile_intern (profile, bn), file, 2);

          for (guint c = 0; c < 100; c++)
            {
              g_autofree char *cn = g_strdup_printf ("c%u", c);
              guint32 nc = bl_profile_add_child (profile, nb, bl_profile_intern (profile, cn),
                                                 file, 3);

              bl_profile_add_value (profile, nc, BL_METRIC_CPU, g_rand_int_range (rand, 1, 1001));
            }
        }
    }
  bl_profile_finish (profile);
  g_rand_free (rand);

  return profile;
}

static BlProfile *
make_wide (void)
{
  BlProfile *profile = bl_profile_new ("bench");
  guint32 file = bl_profile_intern (profile, "pkg:/source/main.brs");
  guint32 thread;

  bl_profile_enable_metric (profile, BL_METRIC_CPU);
  thread = bl_profile_add_thread (profile, bl_profile_intern (profile, "main"));
  for (guint i = 0; i < 1000000; i++)
    {
      char name[32];
      guint32 node;

      g_snprintf (name, sizeof name, "leaf_%u", i);
      node = bl_profile_add_child (profile, thread, bl_profile_intern (profile, name), file, 1);
      bl_profile_add_value (profile, node, BL_METRIC_CPU, 1 + i % 97);
    }
  bl_profile_finish (profile);

  return profile;
}

static double
run_once (BlProfile       *profile,
          gboolean         svg,
          gsize           *bytes,
          BlFlameSvgStats *stats)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  gboolean ok;

  if (svg)
    ok = bl_flame_svg_write_profile (profile, NULL, out, stats, NULL, &error);
  else
    ok = bl_folded_write (profile, BL_METRIC_CPU, out, NULL, &error);
  if (!ok)
    g_error ("%s", error->message);
  g_output_stream_close (out, NULL, NULL);
  *bytes = g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out));

  return (g_get_monotonic_time () - start) / 1e6;
}

int
main (int   argc,
      char *argv[])
{
  const char *names[] = { "deep", "bushy", "wide" };
  BlProfile *(*makers[]) (void) = { make_deep, make_bushy, make_wide };
  const char *runs_env = g_getenv ("BL_BENCH_RUNS");
  guint runs = runs_env != NULL ? (guint) MAX (atoi (runs_env), 1) : 3;

  for (guint s = 0; s < G_N_ELEMENTS (names); s++)
    {
      g_autoptr(BlProfile) profile = makers[s] ();

      for (guint svg = 0; svg < 2; svg++)
        {
          double lo = G_MAXDOUBLE, hi = 0;
          BlFlameSvgStats stats = { 0 };
          gsize bytes = 0;

          for (guint r = 0; r < runs; r++)
            {
              double t = run_once (profile, svg, &bytes, &stats);

              lo = MIN (lo, t);
              hi = MAX (hi, t);
            }
          printf ("%-5s %u nodes  %-6s %.3f–%.3f s  %8.2f MB", names[s],
                  bl_profile_get_n_nodes (profile), svg ? "svg" : "folded", lo, hi,
                  bytes / 1e6);
          if (svg)
            printf ("  %u frames drawn%s, narrowest %.2f px", stats.n_frames,
                    stats.capped ? " (capped)" : "", stats.min_frame_px);
          printf ("\n");
          fflush (stdout);
        }
    }

  return 0;
}
