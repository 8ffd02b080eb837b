/* bench-heap-index.c — what the Heap page costs on a large heap: the index
 * (dominator children, retainers, types) built in its worker, a retainer
 * path, and two snapshots compared, against the heap analysis itself
 * (bl_heap_finish + bl_heap_analyse: dominators, retained sizes, leaks) measured in the same
 * run on the same graph
 *
 *   bench-heap-index [OBJECTS]     (default 5,000,000)
 *
 * The graph is bench-perfetto's: a ring with one random reference more
 * per object and a root every OBJECTS / 1000 objects; the second snapshot
 * keeps 90 % of the ids and adds 10 % new objects. Times are CPU seconds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include "bl-heap-index.h"

/* CPU seconds of this process (single-threaded here): on a shared machine
 * the wall clock also counts the time other processes held the cores */
static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long
peak_rss_mb (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);

  return usage.ru_maxrss / 1024;
}

static BlHeap *
make_heap (guint32 n_objects,
           guint32 seed,
           guint64 id_offset)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  BlHeap *heap = bl_heap_new ();
  guint32 field = bl_heap_intern_field (heap, "next");

  for (guint32 t = 0; t < 200; t++)
    {
      g_autofree char *name = g_strdup_printf ("Type%u", t);

      bl_heap_add_type (heap, name);
    }
  for (guint32 i = 0; i < n_objects; i++)
    {
      guint32 o = bl_heap_add_object (heap, i % 200, 16 + i % 64);

      bl_heap_set_object_id (heap, o, id_offset + i);
    }
  for (guint32 i = 0; i < n_objects; i++)
    {
      bl_heap_add_reference (heap, i, field, (i + 1) % n_objects);
      bl_heap_add_reference (heap, i, field, g_rand_int_range (rand, 0, n_objects));
    }
  for (guint32 i = 0; i < 1000; i++)
    bl_heap_add_root (heap, i * (n_objects / 1000));

  return heap;
}

int
main (int   argc,
      char *argv[])
{
  guint32 n_objects = argc > 1 ? (guint32) g_ascii_strtoull (argv[1], NULL, 10) : 5000000;
  g_autoptr (BlHeap) a = NULL;
  g_autoptr (BlHeap) b = NULL;
  g_autoptr (BlHeapIndex) index = NULL;
  g_autoptr (BlHeapNewObjects) fresh = NULL;
  g_autofree BlHeapTypeDelta *rows = NULL;
  g_autofree BlHeapStep *path = NULL;
  double t0, t_finish, t_index, t_path, t_types, t_new;
  guint n_steps, n_rows;
  long rss_before;

  if (n_objects < 1000)
    n_objects = 1000;

  a = make_heap (n_objects, 1, 0);
  t0 = now ();
  bl_heap_finish (a);
  bl_heap_analyse (a, NULL);
  t_finish = now () - t0;
  rss_before = peak_rss_mb ();

  t0 = now ();
  index = bl_heap_index_new (a, NULL, NULL);
  t_index = now () - t0;

  t0 = now ();
  path = bl_heap_index_dup_retainer_path (index, n_objects - 1, &n_steps);
  t_path = now () - t0;

  printf ("heap of %u objects, %u references\n", n_objects, 2 * n_objects);
  printf ("  heap analysis (bl_heap_finish + bl_heap_analyse, the peer): %.2f s\n", t_finish);
  printf ("  index (dominator children, retainers, types): %.2f s = %.2f× the analysis\n",
          t_index, t_index / t_finish);
  printf ("  retainer path of the last object: %u steps in %.1f ms\n", n_steps, t_path * 1e3);
  printf ("  peak RSS %ld MB after the analysis, %ld MB with the index\n",
          rss_before, peak_rss_mb ());

  /* the second snapshot: ids 10 % higher, so 10 % of them are new */
  b = make_heap (n_objects, 2, n_objects / 10);
  bl_heap_finish (b);
  bl_heap_analyse (b, NULL);
  t0 = now ();
  rows = bl_heap_compare_types (a, b, &n_rows);
  t_types = now () - t0;
  t0 = now ();
  fresh = bl_heap_find_new_objects (a, b, NULL);
  t_new = now () - t0;
  printf ("  two snapshots compared: types %.1f ms (%u rows), new objects %.2f s (%u in %u groups)\n",
          t_types * 1e3, n_rows, t_new, fresh->n_objects, fresh->n_groups);

  return 0;
}
