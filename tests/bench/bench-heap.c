/* bench-heap.c — the heap analysis on a large graph: bl_heap_finish (the
 * cheap part: references as a CSR, roots, per-type counts) and
 * bl_heap_analyse (dominators, retained sizes, leaked objects, leak
 * cycles), their CPU time, the heap's bytes per object and per reference
 * after each, and the peak RSS of the analysis itself
 *
 *   bench-heap [OBJECTS [RUNS]]     (default 5,000,000 objects, 3 runs)
 *
 * The graph is bench-perfetto's: a ring with one random reference more
 * per object (so 2 × OBJECTS references), 200 types, a root every
 * OBJECTS / 1000 objects; then the same with a $unreachable reference
 * more from one object in 1,000, so the leaks are looked for too. The peer measured in the same run is a plain
 * walk over the same references (one read of each target's type), the
 * least any analysis costs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bl-heap.h"
#include "bl-heap-private.h"

/* CPU seconds of this process: on a shared machine the wall clock also
 * counts the time other processes held the cores */
static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* a line of /proc/self/status in kB (VmHWM: the peak RSS, VmRSS: now) */
static long
status_kb (const char *key)
{
  g_autofree char *status = NULL;
  const char *at;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return -1;
  at = strstr (status, key);
  if (at == NULL)
    return -1;

  return strtol (at + strlen (key) + 1, NULL, 10);
}

/* starts the peak RSS afresh (Linux 4.0 on); FALSE if it cannot */
static gboolean
reset_peak_rss (void)
{
  FILE *f = fopen ("/proc/self/clear_refs", "w");
  gboolean done;

  if (f == NULL)
    return FALSE;
  done = fputs ("5", f) >= 0;

  return fclose (f) == 0 && done;
}

/* With @unreachable, one object in 1,000 also holds a $unreachable
 * reference (as a BrightScript domain holds what it lost), so the leak
 * marking walks the graph too. */
static BlHeap *
make_heap (guint32  n_objects,
           gboolean unreachable)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  BlHeap *heap = bl_heap_new ();
  guint32 field = bl_heap_intern_field (heap, "next");
  guint32 lost = bl_heap_intern_field (heap, "$unreachable");

  for (guint32 t = 0; t < 200; t++)
    {
      g_autofree char *name = g_strdup_printf ("Type%u", t);

      bl_heap_add_type (heap, name);
    }
  for (guint32 i = 0; i < n_objects; i++)
    bl_heap_add_object (heap, i % 200, 16 + i % 64);
  for (guint32 i = 0; i < n_objects; i++)
    {
      if (unreachable && i % 1000 == 0)
        bl_heap_add_reference (heap, i, lost, (guint32) ((i * (guint64) 7919) % n_objects));
      bl_heap_add_reference (heap, i, field, (i + 1) % n_objects);
      bl_heap_add_reference (heap, i, field, g_rand_int_range (rand, 0, n_objects));
    }
  for (guint32 i = 0; i < 1000; i++)
    bl_heap_add_root (heap, i * (n_objects / 1000));

  return heap;
}

static void
print_memory (BlHeap     *heap,
              const char *when,
              guint32     n,
              guint64     m)
{
  gsize objects, references;

  bl_heap_get_memory (heap, &objects, &references);
  printf ("  heap %s: %.1f bytes per object, %.1f per reference (%.0f MB)\n", when,
          (double) objects / n, (double) references / m, (objects + references) / 1048576.0);
}

static void
run (guint32  n_objects,
     guint    runs,
     gboolean unreachable)
{
  double c_finish = G_MAXDOUBLE, c_analyse = G_MAXDOUBLE, c_peer = G_MAXDOUBLE;
  double c_finish_max = 0, c_analyse_max = 0;
  guint64 sum = 0;
  guint64 m = 2 * (guint64) n_objects + (unreachable ? (n_objects + 999) / 1000 : 0);

  printf ("heap of %u objects, %" G_GUINT64_FORMAT " references%s, 200 types, 1000 roots; "
          "%u runs\n", n_objects, m, unreachable ? " (one in 1,000 objects also holding a "
          "$unreachable one)" : "", runs);
  for (guint r = 0; r < runs; r++)
    {
      g_autoptr (BlHeap) heap = make_heap (n_objects, unreachable);
      long rss_before, peak;
      double c0, c;
      gboolean peak_known;

      if (r == 0)
        print_memory (heap, "while built", n_objects, m);

      c0 = cpu_seconds ();
      bl_heap_finish (heap);
      c = cpu_seconds () - c0;
      c_finish = MIN (c_finish, c);
      c_finish_max = MAX (c_finish_max, c);
      if (r == 0)
        print_memory (heap, "finished", n_objects, m);

      /* the peer: every reference followed once, its target's type read */
      c0 = cpu_seconds ();
      for (guint32 o = 0; o < n_objects; o++)
        {
          const guint32 *fields, *targets;
          guint32 k = bl_heap_get_n_references (heap, o, &fields, &targets);

          for (guint32 e = 0; e < k; e++)
            sum += bl_heap_get_object_type (heap, targets[e]);
        }
      c_peer = MIN (c_peer, cpu_seconds () - c0);

      rss_before = status_kb ("VmRSS:");
      peak_known = reset_peak_rss ();
      c0 = cpu_seconds ();
      bl_heap_analyse (heap, NULL);
      c = cpu_seconds () - c0;
      peak = status_kb ("VmHWM:");
      c_analyse = MIN (c_analyse, c);
      c_analyse_max = MAX (c_analyse_max, c);
      if (r == 0)
        {
          print_memory (heap, "analysed", n_objects, m);
          if (peak_known)
            printf ("  analysis: RSS %.0f MB before, peak %.0f MB (+%.0f MB of scratch and results)\n",
                    rss_before / 1024.0, peak / 1024.0, (peak - rss_before) / 1024.0);
          printf ("  %u leaked, retained by object 0: %" G_GUINT64_FORMAT " bytes\n",
                  bl_heap_get_n_leaked (heap), bl_heap_get_retained (heap, 0));
        }
    }

  printf ("  bl_heap_finish (CSR, roots, counts): CPU %.2f–%.2f s\n", c_finish, c_finish_max);
  printf ("  bl_heap_analyse (dominators, retained, leaks, cycles): CPU %.2f–%.2f s\n",
          c_analyse, c_analyse_max);
  printf ("  peer, one walk over the references: CPU %.2f s (analysis = %.1f× it)\n",
          c_peer, c_analyse / c_peer);
  printf ("  finish + analyse: CPU %.2f s (target < 2 s)\n", c_finish + c_analyse);
  (void) sum;
}

int
main (int   argc,
      char *argv[])
{
  guint32 n_objects = argc > 1 ? (guint32) g_ascii_strtoull (argv[1], NULL, 10) : 5000000;
  guint runs = argc > 2 ? (guint) g_ascii_strtoull (argv[2], NULL, 10) : 3;

  if (n_objects < 1000)
    n_objects = 1000;
  runs = CLAMP (runs, 1, 20);

  run (n_objects, runs, FALSE);
  run (n_objects, runs, TRUE);

  return 0;
}
