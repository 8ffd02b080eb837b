/* test-heap.c — dominators, retained sizes, leaks and leak cycles on small graphs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "bl-heap.h"
#include "bl-heap-private.h"

/* A→B, A→C, B→D, C→D, D→E, F unreachable; A is the root */
static void
test_dominators (void)
{
  g_autoptr (BlHeap) heap = bl_heap_new ();
  guint32 t = bl_heap_add_type (heap, "Node");
  guint32 f = bl_heap_intern_field (heap, "next");
  guint32 a = bl_heap_add_object (heap, t, 1);
  guint32 b = bl_heap_add_object (heap, t, 2);
  guint32 c = bl_heap_add_object (heap, t, 4);
  guint32 d = bl_heap_add_object (heap, t, 8);
  guint32 e = bl_heap_add_object (heap, t, 16);
  guint32 x = bl_heap_add_object (heap, t, 32);
  guint64 count, self_bytes, retained;
  guint n_top;
  g_autofree guint32 *top = NULL;

  bl_heap_add_reference (heap, a, f, b);
  bl_heap_add_reference (heap, a, f, c);
  bl_heap_add_reference (heap, b, f, d);
  bl_heap_add_reference (heap, c, f, d);
  bl_heap_add_reference (heap, d, f, e);
  bl_heap_add_reference (heap, e, f, b);    /* a back edge: E does not dominate B */
  bl_heap_add_reference (heap, x, f, a);
  bl_heap_add_root (heap, a);
  bl_heap_finish (heap);

  g_assert_cmpuint (bl_heap_get_idom (heap, a), ==, BL_HEAP_NONE);
  g_assert_cmpuint (bl_heap_get_idom (heap, b), ==, a);
  g_assert_cmpuint (bl_heap_get_idom (heap, c), ==, a);
  g_assert_cmpuint (bl_heap_get_idom (heap, d), ==, a);
  g_assert_cmpuint (bl_heap_get_idom (heap, e), ==, d);
  g_assert_true (bl_heap_is_reachable (heap, e));
  g_assert_false (bl_heap_is_reachable (heap, x));
  g_assert_cmpuint (bl_heap_get_retained (heap, e), ==, 16);
  g_assert_cmpuint (bl_heap_get_retained (heap, d), ==, 24);
  g_assert_cmpuint (bl_heap_get_retained (heap, b), ==, 2);
  g_assert_cmpuint (bl_heap_get_retained (heap, a), ==, 31);
  g_assert_cmpuint (bl_heap_get_retained (heap, x), ==, 0);
  g_assert_cmpuint (bl_heap_get_total_bytes (heap), ==, 63);

  bl_heap_get_type_totals (heap, t, &count, &self_bytes, &retained);
  g_assert_cmpuint (count, ==, 6);
  g_assert_cmpuint (self_bytes, ==, 63);
  g_assert_cmpuint (retained, ==, 31);   /* A dominates every other reachable Node */

  top = bl_heap_top_retained (heap, 2, &n_top);
  g_assert_cmpuint (n_top, ==, 2);
  g_assert_cmpuint (top[0], ==, a);
  g_assert_cmpuint (top[1], ==, d);
}

/* the example graph of Lengauer and Tarjan's paper, where several
 * semidominators are not the immediate dominators */
/* The largest objects by retained size: ties in object order, unreachable
 * objects left out, whatever the number asked for */
static void
test_top_retained_ties (void)
{
  g_autoptr (BlHeap) heap = bl_heap_new ();
  guint32 t = bl_heap_add_type (heap, "Node");
  guint32 f = bl_heap_intern_field (heap, "next");
  guint32 root = bl_heap_add_object (heap, t, 1);
  guint32 expected[64];
  guint n_expected = 0;
  guint wants[] = { 0, 1, 2, 3, 5, 8, 13, 30, 52, 53, 54, 1000 };

  /* 60 leaves of sizes 0…4 (many ties), every seventh unreachable */
  for (guint32 i = 1; i <= 60; i++)
    {
      guint32 o = bl_heap_add_object (heap, t, (i * 7) % 5);

      if (i % 7 != 0)
        bl_heap_add_reference (heap, root, f, o);
    }
  bl_heap_add_root (heap, root);
  bl_heap_finish (heap);

  /* the order by hand: the root (it retains everything), then size 4 down
   * to 0, each size in object order */
  expected[n_expected++] = root;
  for (gint size = 4; size >= 0; size--)
    for (guint32 i = 1; i <= 60; i++)
      if (i % 7 != 0 && (i * 7) % 5 == (guint32) size)
        expected[n_expected++] = i;
  g_assert_cmpuint (n_expected, ==, 53);

  for (guint k = 0; k < G_N_ELEMENTS (wants); k++)
    {
      g_autofree guint32 *top = NULL;
      guint n_top = G_MAXUINT;

      top = bl_heap_top_retained (heap, wants[k], &n_top);
      g_assert_cmpuint (n_top, ==, MIN (wants[k], n_expected));
      for (guint i = 0; i < n_top; i++)
        g_assert_cmpuint (top[i], ==, expected[i]);
    }
}

static void
test_lengauer_tarjan_example (void)
{
  g_autoptr (BlHeap) heap = bl_heap_new ();
  guint32 t = bl_heap_add_type (heap, "N");
  guint32 f = bl_heap_intern_field (heap, "e");
  const char *edges[] = { "RA", "RB", "RC", "AD", "BA", "BD", "BE", "CF", "CG", "DL", "EH",
                          "FI", "GI", "GJ", "HE", "HK", "IK", "JI", "KI", "KR", "LH" };
  const char *idoms = "RRRRRCCRRGRD";    /* of A … L */
  guint32 node[13];

  /* R is object 12, A … L are 0 … 11 */
  for (guint i = 0; i < 13; i++)
    node[i] = bl_heap_add_object (heap, t, 1);
  for (guint i = 0; i < G_N_ELEMENTS (edges); i++)
    {
      guint from = edges[i][0] == 'R' ? 12 : (guint) (edges[i][0] - 'A');
      guint to = edges[i][1] == 'R' ? 12 : (guint) (edges[i][1] - 'A');

      bl_heap_add_reference (heap, node[from], f, node[to]);
    }
  bl_heap_add_root (heap, node[12]);
  bl_heap_finish (heap);

  g_assert_cmpuint (bl_heap_get_idom (heap, node[12]), ==, BL_HEAP_NONE);
  for (guint i = 0; i < 12; i++)
    {
      guint32 expected = idoms[i] == 'R' ? node[12] : node[idoms[i] - 'A'];

      g_test_message ("idom of %c", 'A' + i);
      g_assert_cmpuint (bl_heap_get_idom (heap, node[i]), ==, expected);
    }
  /* C retains F, G, J; D retains L */
  g_assert_cmpuint (bl_heap_get_retained (heap, node[2]), ==, 4);
  g_assert_cmpuint (bl_heap_get_retained (heap, node[3]), ==, 2);
  g_assert_cmpuint (bl_heap_get_retained (heap, node[12]), ==, 13);
}

/* two roots sharing an object: neither dominates it */
static void
test_shared (void)
{
  g_autoptr (BlHeap) heap = bl_heap_new ();
  guint32 t = bl_heap_add_type (heap, "Map");
  guint32 u = bl_heap_add_type (heap, "Str");
  guint32 f = bl_heap_intern_field (heap, "v");
  guint32 r1 = bl_heap_add_object (heap, t, 10);
  guint32 r2 = bl_heap_add_object (heap, t, 10);
  guint32 s = bl_heap_add_object (heap, u, 5);
  guint64 count, self_bytes, retained;

  bl_heap_add_reference (heap, r1, f, s);
  bl_heap_add_reference (heap, r2, f, s);
  bl_heap_add_root (heap, r1);
  bl_heap_add_root (heap, r2);
  bl_heap_finish (heap);

  g_assert_cmpuint (bl_heap_get_idom (heap, s), ==, BL_HEAP_NONE);
  g_assert_cmpuint (bl_heap_get_retained (heap, r1), ==, 10);
  bl_heap_get_type_totals (heap, u, &count, &self_bytes, &retained);
  g_assert_cmpuint (retained, ==, 5);
  bl_heap_get_type_totals (heap, t, &count, &self_bytes, &retained);
  g_assert_cmpuint (retained, ==, 20);
}

/* a deep chain: no recursion, exact sums */
static void
test_long_chain (void)
{
  g_autoptr (BlHeap) heap = bl_heap_new ();
  guint32 t = bl_heap_add_type (heap, "Link");
  guint32 f = bl_heap_intern_field (heap, "next");
  const guint32 n = 1000000;

  for (guint32 i = 0; i < n; i++)
    bl_heap_add_object (heap, t, 1);
  for (guint32 i = 0; i + 1 < n; i++)
    bl_heap_add_reference (heap, i, f, i + 1);
  bl_heap_add_reference (heap, n - 1, f, 0);
  bl_heap_add_root (heap, 0);
  bl_heap_finish (heap);

  g_assert_cmpuint (bl_heap_get_retained (heap, 0), ==, n);
  g_assert_cmpuint (bl_heap_get_retained (heap, n / 2), ==, n - n / 2);
  g_assert_cmpuint (bl_heap_get_idom (heap, n - 1), ==, n - 2);
}

/* Roku's shape: the domain holds leaked objects by "$unreachable" */
static void
test_leaks_and_cycles (void)
{
  g_autoptr (BlHeap) heap = bl_heap_new ();
  guint32 domain_t = bl_heap_add_type (heap, "Domain");
  guint32 aa = bl_heap_add_type (heap, "roAssociativeArray");
  guint32 node = bl_heap_add_type (heap, "Node");
  guint32 un = bl_heap_intern_field (heap, "Object $unreachable");
  guint32 child = bl_heap_intern_field (heap, "child");
  guint32 parent = bl_heap_intern_field (heap, "parent");
  guint32 self_f = bl_heap_intern_field (heap, "self");
  guint32 global = bl_heap_intern_field (heap, "$m.global");
  guint32 domain = bl_heap_add_object (heap, domain_t, 100);
  guint32 live = bl_heap_add_object (heap, aa, 7);
  guint32 objs[7];
  guint n_cycles;
  const BlHeapCycle *cycles;

  for (guint i = 0; i < 7; i++)
    objs[i] = bl_heap_add_object (heap, i % 2 == 0 ? aa : node, 10);
  bl_heap_add_root (heap, domain);
  bl_heap_add_reference (heap, domain, child, live);

  /* two leaked aa⇄node pairs, entered once at the aa and once at the node */
  bl_heap_add_reference (heap, domain, un, objs[0]);
  bl_heap_add_reference (heap, objs[0], child, objs[1]);
  bl_heap_add_reference (heap, objs[1], parent, objs[0]);
  bl_heap_add_reference (heap, domain, un, objs[3]);
  bl_heap_add_reference (heap, objs[3], parent, objs[2]);
  bl_heap_add_reference (heap, objs[2], child, objs[3]);
  /* a leaked self-loop through $m.global, and what only it reaches */
  bl_heap_add_reference (heap, domain, un, objs[4]);
  bl_heap_add_reference (heap, objs[4], global, objs[4]);
  bl_heap_add_reference (heap, objs[4], self_f, objs[5]);
  /* a leaked object that a live one also reaches is not leaked */
  bl_heap_add_reference (heap, objs[4], child, live);
  /* objs[6] is reachable normally too */
  bl_heap_add_reference (heap, domain, un, objs[6]);
  bl_heap_add_reference (heap, live, child, objs[6]);
  bl_heap_finish (heap);

  g_assert_true (bl_heap_is_leaked (heap, objs[0]));
  g_assert_true (bl_heap_is_leaked (heap, objs[5]));
  g_assert_false (bl_heap_is_leaked (heap, live));
  g_assert_false (bl_heap_is_leaked (heap, objs[6]));
  g_assert_cmpuint (bl_heap_get_n_leaked (heap), ==, 6);
  g_assert_cmpuint (bl_heap_get_leaked_bytes (heap), ==, 60);

  cycles = bl_heap_get_cycles (heap, &n_cycles);
  g_assert_cmpuint (n_cycles, ==, 2);
  /* largest count first; the pair starts at the rotation sorting first:
   * ("Node", "parent") < ("roAssociativeArray", "child") */
  g_assert_cmpuint (cycles[0].count, ==, 2);
  g_assert_cmpuint (cycles[0].n_steps, ==, 2);
  g_assert_cmpuint (cycles[0].types[0], ==, node);
  g_assert_cmpuint (cycles[0].fields[0], ==, parent);
  g_assert_cmpuint (cycles[0].types[1], ==, aa);
  g_assert_cmpuint (cycles[0].fields[1], ==, child);
  g_assert_false (cycles[0].through_global);
  g_assert_cmpuint (cycles[1].count, ==, 1);
  g_assert_cmpuint (cycles[1].n_steps, ==, 1);
  g_assert_true (cycles[1].through_global);
  g_assert_cmpuint (cycles[1].example, ==, objs[4]);
}

/* a leaked ring of 100 000 objects is one cycle */
static void
test_long_cycle (void)
{
  g_autoptr (BlHeap) heap = bl_heap_new ();
  guint32 t = bl_heap_add_type (heap, "Ring");
  guint32 un = bl_heap_intern_field (heap, "$unreachable");
  guint32 f = bl_heap_intern_field (heap, "next");
  guint32 root = bl_heap_add_object (heap, t, 1);
  const guint32 n = 100000;
  const BlHeapCycle *cycles;
  guint n_cycles;

  for (guint32 i = 0; i < n; i++)
    bl_heap_add_object (heap, t, 1);
  for (guint32 i = 0; i < n; i++)
    bl_heap_add_reference (heap, 1 + i, f, 1 + (i + 1) % n);
  bl_heap_add_reference (heap, root, un, 1);
  bl_heap_add_root (heap, root);
  bl_heap_finish (heap);

  cycles = bl_heap_get_cycles (heap, &n_cycles);
  g_assert_cmpuint (n_cycles, ==, 1);
  g_assert_cmpuint (cycles[0].n_steps, ==, n);
  g_assert_cmpuint (bl_heap_get_n_leaked (heap), ==, n);
}

/* ids from the file, the index for objects without one */
static void
test_object_ids (void)
{
  g_autoptr (BlHeap) heap = bl_heap_new ();
  guint32 t = bl_heap_add_type (heap, "Node");
  guint32 a = bl_heap_add_object (heap, t, 1);
  guint32 b = bl_heap_add_object (heap, t, 2);
  guint32 c = bl_heap_add_object (heap, t, 4);

  g_assert_cmpuint (bl_heap_get_object_id (heap, b), ==, b);
  bl_heap_set_object_id (heap, b, G_GUINT64_CONSTANT (0x7f0000001000));
  bl_heap_add_root (heap, a);
  bl_heap_finish (heap);

  g_assert_cmpuint (bl_heap_get_object_id (heap, a), ==, a);
  g_assert_cmpuint (bl_heap_get_object_id (heap, b), ==, G_GUINT64_CONSTANT (0x7f0000001000));
  g_assert_cmpuint (bl_heap_get_object_id (heap, c), ==, c);
}

/* ten million objects: a leaked ring of all but the domain, held by one
 * $unreachable reference; linear in time and memory (the ring is one cycle
 * of 9 999 999 steps, every object in a chain of dominators) */
static void
test_ten_million (void)
{
  g_autoptr (BlHeap) heap = bl_heap_new ();
  guint32 domain_t = bl_heap_add_type (heap, "Domain");
  guint32 t = bl_heap_add_type (heap, "roAssociativeArray");
  guint32 un = bl_heap_intern_field (heap, "$unreachable");
  guint32 f = bl_heap_intern_field (heap, "next");
  const guint32 n = 10000000;
  guint32 domain = bl_heap_add_object (heap, domain_t, 100);
  const BlHeapCycle *cycles;
  guint n_cycles;
  guint64 count, self_bytes, retained;

  for (guint32 i = 1; i < n; i++)
    {
      bl_heap_add_object (heap, t, 8);
      bl_heap_set_object_id (heap, i, 0x1000 + i);
    }
  bl_heap_add_reference (heap, domain, un, 1);
  for (guint32 i = 1; i < n; i++)
    bl_heap_add_reference (heap, i, f, i + 1 < n ? i + 1 : 1);
  bl_heap_add_root (heap, domain);
  bl_heap_finish (heap);

  g_assert_cmpuint (bl_heap_get_n_objects (heap), ==, n);
  g_assert_cmpuint (bl_heap_get_n_leaked (heap), ==, n - 1);
  g_assert_cmpuint (bl_heap_get_leaked_bytes (heap), ==, (guint64) (n - 1) * 8);
  g_assert_cmpuint (bl_heap_get_retained (heap, domain), ==, 100 + (guint64) (n - 1) * 8);
  g_assert_cmpuint (bl_heap_get_retained (heap, n - 1), ==, 8);
  g_assert_cmpuint (bl_heap_get_idom (heap, n - 1), ==, n - 2);
  g_assert_cmpuint (bl_heap_get_idom (heap, 1), ==, domain);
  g_assert_cmpuint (bl_heap_get_object_id (heap, n - 1), ==, 0x1000 + n - 1);
  bl_heap_get_type_totals (heap, t, &count, &self_bytes, &retained);
  g_assert_cmpuint (count, ==, n - 1);
  /* the ring's objects all dominate one another in a chain: one counts */
  g_assert_cmpuint (retained, ==, (guint64) (n - 1) * 8);
  cycles = bl_heap_get_cycles (heap, &n_cycles);
  g_assert_cmpuint (n_cycles, ==, 1);
  g_assert_cmpuint (cycles[0].n_steps, ==, n - 1);
  g_assert_cmpuint (cycles[0].count, ==, 1);
  g_assert_cmpuint (bl_heap_get_n_cycles_skipped (heap), ==, 0);
}

/* ten million objects: leaked cycles of every length from 1 to 4,471 (a
 * self reference, a pair, a triangle, …), each held by one $unreachable
 * reference from the domain and entered at its first object, and a live
 * chain from the domain for the rest: one group per length, shortest
 * first; each cycle's first object dominates the rest of it; linear in
 * time and memory */
static void
test_ten_million_cycles (void)
{
  g_autoptr (BlHeap) heap = bl_heap_new ();
  guint32 domain_t = bl_heap_add_type (heap, "Domain");
  guint32 t = bl_heap_add_type (heap, "roArray");
  guint32 un = bl_heap_intern_field (heap, "$unreachable");
  guint32 f = bl_heap_intern_field (heap, "next");
  guint32 domain = bl_heap_add_object (heap, domain_t, 100);
  guint32 n_lengths = 0, n = 1, last_start = 0;
  const BlHeapCycle *cycles;
  guint n_cycles;

  /* lengths 1, 2, 3, … while they fit in ten million objects */
  while (n + n_lengths + 1 <= 10000000)
    {
      n_lengths++;
      n += n_lengths;
    }
  for (guint32 i = 1; i < 10000000; i++)
    bl_heap_add_object (heap, t, 4);
  for (guint32 len = 1, start = 1; len <= n_lengths; start += len, len++)
    bl_heap_add_reference (heap, domain, un, start);
  bl_heap_add_reference (heap, domain, f, n);
  for (guint32 len = 1, start = 1; len <= n_lengths; start += len, len++)
    {
      for (guint32 k = 0; k < len; k++)
        bl_heap_add_reference (heap, start + k, f, k + 1 < len ? start + k + 1 : start);
      last_start = start;
    }
  for (guint32 i = n; i + 1 < 10000000; i++)
    bl_heap_add_reference (heap, i, f, i + 1);
  bl_heap_add_root (heap, domain);
  bl_heap_finish (heap);

  g_assert_cmpuint (n_lengths, ==, 4471);
  g_assert_cmpuint (bl_heap_get_n_objects (heap), ==, 10000000);
  g_assert_cmpuint (bl_heap_get_n_leaked (heap), ==, n - 1);
  g_assert_cmpuint (bl_heap_get_leaked_bytes (heap), ==, 4 * (guint64) (n - 1));
  g_assert_cmpuint (bl_heap_get_retained (heap, domain), ==, 100 + 4 * (guint64) 9999999);
  g_assert_cmpuint (bl_heap_get_retained (heap, n), ==, 4 * (guint64) (10000000 - n));
  g_assert_false (bl_heap_is_leaked (heap, n));
  g_assert_cmpuint (bl_heap_get_retained (heap, last_start), ==, 4 * (guint64) n_lengths);
  g_assert_cmpuint (bl_heap_get_idom (heap, last_start), ==, domain);
  g_assert_cmpuint (bl_heap_get_idom (heap, n - 1), ==, n - 2);
  cycles = bl_heap_get_cycles (heap, &n_cycles);
  g_assert_cmpuint (n_cycles, ==, n_lengths);
  for (guint i = 0; i < n_cycles; i++)
    {
      g_assert_cmpuint (cycles[i].n_steps, ==, i + 1);
      g_assert_cmpuint (cycles[i].count, ==, 1);
      g_assert_cmpuint (cycles[i].types[0], ==, t);
      g_assert_cmpuint (cycles[i].fields[i], ==, f);
    }
  g_assert_cmpuint (bl_heap_get_n_cycles_skipped (heap), ==, 0);
}

/* every object of a leaked chain also points back at its start: the
 * depth-first walk meets a back edge at each depth, and the cycles' steps
 * add up quadratically; they are bounded, the rest counted as skipped */
static void
test_quadratic_cycles (void)
{
  g_autoptr (BlHeap) heap = bl_heap_new ();
  guint32 t = bl_heap_add_type (heap, "Node");
  guint32 un = bl_heap_intern_field (heap, "$unreachable");
  guint32 f = bl_heap_intern_field (heap, "next");
  guint32 back = bl_heap_intern_field (heap, "first");
  const guint32 n = 200000;
  const BlHeapCycle *cycles;
  guint n_cycles;
  guint64 steps = 0, found = 0;

  bl_heap_add_object (heap, t, 1);
  for (guint32 i = 1; i < n; i++)
    bl_heap_add_object (heap, t, 1);
  bl_heap_add_reference (heap, 0, un, 1);
  for (guint32 i = 1; i < n; i++)
    {
      if (i + 1 < n)
        bl_heap_add_reference (heap, i, f, i + 1);
      bl_heap_add_reference (heap, i, back, 1);
    }
  bl_heap_add_root (heap, 0);
  bl_heap_finish (heap);

  cycles = bl_heap_get_cycles (heap, &n_cycles);
  for (guint i = 0; i < n_cycles; i++)
    {
      steps += (guint64) cycles[i].n_steps * cycles[i].count;
      found += cycles[i].count;
    }
  /* the walk unwinds from the deepest object: the longest cycles come
   * first, as many as the bound holds */
  g_assert_cmpuint (n_cycles, >=, 5);
  g_assert_cmpuint (steps, <=, 4 * (guint64) n + (1 << 20));
  g_assert_cmpuint (bl_heap_get_n_cycles_skipped (heap), >, 0);
  g_assert_cmpuint (found + bl_heap_get_n_cycles_skipped (heap), ==, n - 1);
}

/* ---- dominators against their definition ---- */

/* Whether @w is reachable from the roots without passing @removed
 * (NONE: nothing removed); the reference the tests compare with. */
static gboolean
reaches_without (guint32        n,
                 const guint32 *first,
                 const guint32 *targets,
                 const guint32 *roots,
                 guint32        n_roots,
                 guint32        removed,
                 guint32        w)
{
  g_autofree guint8 *seen = g_new0 (guint8, n);
  g_autofree guint32 *stack = g_new (guint32, n);
  guint32 sp = 0;

  for (guint32 i = 0; i < n_roots; i++)
    if (roots[i] != removed && !seen[roots[i]])
      {
        seen[roots[i]] = 1;
        stack[sp++] = roots[i];
      }
  while (sp > 0)
    {
      guint32 v = stack[--sp];

      for (guint32 e = first[v]; e < first[v + 1]; e++)
        if (targets[e] != removed && !seen[targets[e]])
          {
            seen[targets[e]] = 1;
            stack[sp++] = targets[e];
          }
    }

  return seen[w];
}

/* 400 random graphs (self loops, repeated references, several roots,
 * unreachable parts, from 1 to 60 objects): reachability, immediate
 * dominators and retained sizes as their definitions give them (d
 * dominates w when w cannot be reached without d; the immediate one is
 * the strict dominator every other strict dominator dominates) */
static void
test_random_graphs (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (20261125);

  for (guint g = 0; g < 400; g++)
    {
      g_autoptr (BlHeap) heap = bl_heap_new ();
      guint32 t = bl_heap_add_type (heap, "Node");
      guint32 f = bl_heap_intern_field (heap, "next");
      guint32 n = g_rand_int_range (rand, 1, 61);
      guint32 per = g_rand_int_range (rand, 0, 4);
      g_autofree guint32 *first = g_new0 (guint32, n + 1);
      g_autoptr (GArray) targets = g_array_new (FALSE, FALSE, sizeof (guint32));
      guint32 roots[4];
      guint32 n_roots = g_rand_int_range (rand, 1, 5);
      g_autofree guint8 *dom = g_new0 (guint8, (gsize) n * n);   /* dom[d * n + w] */
      g_autofree guint8 *reach = g_new0 (guint8, n);

      for (guint32 v = 0; v < n; v++)
        bl_heap_add_object (heap, t, 1 + g_rand_int_range (rand, 0, 100));
      for (guint32 v = 0; v < n; v++)
        {
          guint32 k = g_rand_int_range (rand, 0, 2 * per + 1);

          for (guint32 i = 0; i < k; i++)
            {
              /* mostly forward, some back: long chains and cycles */
              guint32 step = g_rand_int_range (rand, 0, 4);
              guint32 w = g_rand_int_range (rand, 0, 4) == 0 ? (guint32) g_rand_int_range (rand, 0, n)
                          : MIN (n - 1, v + step);

              bl_heap_add_reference (heap, v, f, w);
              g_array_append_val (targets, w);
            }
          first[v + 1] = targets->len;
        }
      for (guint32 i = 0; i < n_roots; i++)
        {
          roots[i] = g_rand_int_range (rand, 0, n);
          bl_heap_add_root (heap, roots[i]);
        }
      bl_heap_finish (heap);

      for (guint32 w = 0; w < n; w++)
        reach[w] = reaches_without (n, first, (guint32 *) targets->data, roots, n_roots,
                                    G_MAXUINT32, w);
      for (guint32 d = 0; d < n; d++)
        for (guint32 w = 0; w < n; w++)
          dom[d * n + w] = reach[w] && reach[d] &&
                           (d == w || !reaches_without (n, first, (guint32 *) targets->data,
                                                        roots, n_roots, d, w));

      for (guint32 w = 0; w < n; w++)
        {
          guint32 idom = BL_HEAP_NONE;
          guint64 retained = 0;

          g_assert_cmpint (bl_heap_is_reachable (heap, w), ==, reach[w]);
          for (guint32 d = 0; d < n; d++)
            {
              gboolean closest = TRUE;

              if (d == w || !dom[d * n + w])
                continue;
              for (guint32 o = 0; o < n && closest; o++)
                if (o != w && o != d && dom[o * n + w] && !dom[o * n + d])
                  closest = FALSE;
              if (closest)
                idom = d;
            }
          for (guint32 v = 0; v < n; v++)
            if (dom[w * n + v])
              retained += bl_heap_get_self_size (heap, v);
          g_assert_cmpuint (bl_heap_get_idom (heap, w), ==, idom);
          g_assert_cmpuint (bl_heap_get_retained (heap, w), ==, retained);
        }
    }
}

/* A chain C0 → … → Cm-1 whose last link references k objects that C0
 * references too: each of those has C0 as its immediate dominator, and the
 * nearest-common-ancestor walks of semi-NCA would climb the whole chain for
 * each (m × k steps); bounded, the buckets of Lengauer–Tarjan take over */
static void
test_deep_common_ancestors (void)
{
  g_autoptr (BlHeap) heap = bl_heap_new ();
  guint32 t = bl_heap_add_type (heap, "Link");
  guint32 leaf_t = bl_heap_add_type (heap, "Leaf");
  guint32 f = bl_heap_intern_field (heap, "next");
  const guint32 m = 1000000, k = 1000000;
  guint64 count, self_bytes, retained;

  for (guint32 i = 0; i < m; i++)
    bl_heap_add_object (heap, t, 2);
  for (guint32 j = 0; j < k; j++)
    bl_heap_add_object (heap, leaf_t, 3);
  for (guint32 i = 0; i + 1 < m; i++)
    bl_heap_add_reference (heap, i, f, i + 1);
  for (guint32 j = 0; j < k; j++)
    bl_heap_add_reference (heap, m - 1, f, m + j);
  for (guint32 j = 0; j < k; j++)
    bl_heap_add_reference (heap, 0, f, m + j);
  bl_heap_add_root (heap, 0);
  bl_heap_finish (heap);
  g_assert_false (bl_heap_is_analysed (heap));

  g_assert_cmpuint (bl_heap_get_idom (heap, m), ==, 0);
  g_assert_cmpuint (bl_heap_get_idom (heap, m + k - 1), ==, 0);
  g_assert_cmpuint (bl_heap_get_idom (heap, m - 1), ==, m - 2);
  g_assert_cmpuint (bl_heap_get_retained (heap, 0), ==, 2 * (guint64) m + 3 * (guint64) k);
  g_assert_cmpuint (bl_heap_get_retained (heap, 1), ==, 2 * (guint64) (m - 1));
  g_assert_cmpuint (bl_heap_get_retained (heap, m - 1), ==, 2);
  bl_heap_get_type_totals (heap, leaf_t, &count, &self_bytes, &retained);
  g_assert_cmpuint (retained, ==, 3 * (guint64) k);
}

/* ---- the analysis on demand ---- */

static gpointer
analyse_thread (gpointer data)
{
  return GINT_TO_POINTER (bl_heap_analyse (data, NULL));
}

static BlHeap *
make_ring_heap (guint32 n)
{
  BlHeap *heap = bl_heap_new ();
  guint32 t = bl_heap_add_type (heap, "Node");
  guint32 u = bl_heap_add_type (heap, "Other");
  guint32 un = bl_heap_intern_field (heap, "$unreachable");
  guint32 f = bl_heap_intern_field (heap, "next");

  bl_heap_add_object (heap, u, 5);
  for (guint32 i = 1; i < n; i++)
    bl_heap_add_object (heap, t, 2);
  bl_heap_add_reference (heap, 0, un, 1);
  for (guint32 i = 1; i < n; i++)
    bl_heap_add_reference (heap, i, f, i + 1 < n ? i + 1 : 1);
  bl_heap_add_root (heap, 0);
  bl_heap_finish (heap);

  return heap;
}

/* bl_heap_finish leaves the analysis out; counts need none; a cancelled
 * analysis keeps nothing and the next one runs in full; an analysis in a
 * worker while this thread reads counts, then the getters wait for it */
static void
test_lazy (void)
{
  g_autoptr (BlHeap) heap = make_ring_heap (1000);
  g_autoptr (BlHeap) big = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  guint64 count, self_bytes;
  GThread *thread;
  const BlHeapCycle *cycles;
  guint n_cycles;

  g_assert_false (bl_heap_is_analysed (heap));
  g_assert_cmpuint (bl_heap_get_n_objects (heap), ==, 1000);
  g_assert_cmpuint (bl_heap_get_total_bytes (heap), ==, 5 + 2 * 999);
  bl_heap_get_type_counts (heap, 0, &count, &self_bytes);
  g_assert_cmpuint (count, ==, 999);
  g_assert_cmpuint (self_bytes, ==, 2 * 999);
  bl_heap_get_type_totals (heap, 1, &count, &self_bytes, NULL);
  g_assert_cmpuint (count, ==, 1);
  g_assert_true (bl_heap_is_root (heap, 0));
  g_assert_false (bl_heap_is_analysed (heap));

  g_cancellable_cancel (cancellable);
  g_assert_false (bl_heap_analyse (heap, cancellable));
  g_assert_false (bl_heap_is_analysed (heap));

  /* a getter does it */
  g_assert_cmpuint (bl_heap_get_n_leaked (heap), ==, 999);
  g_assert_true (bl_heap_is_analysed (heap));
  g_assert_true (bl_heap_analyse (heap, cancellable));   /* done: at once */
  cycles = bl_heap_get_cycles (heap, &n_cycles);
  g_assert_cmpuint (n_cycles, ==, 1);
  g_assert_cmpuint (cycles[0].n_steps, ==, 999);

  /* a worker analyses while this thread reads counts, then asks too */
  big = make_ring_heap (2000000);
  thread = g_thread_new ("analyse", analyse_thread, big);
  for (guint i = 0; i < 1000; i++)
    {
      bl_heap_get_type_counts (big, 0, &count, &self_bytes);
      g_assert_cmpuint (count, ==, 1999999);
      g_assert_cmpuint (bl_heap_get_n_objects (big), ==, 2000000);
    }
  g_assert_cmpuint (bl_heap_get_retained (big, 0), ==, 5 + 2 * (guint64) 1999999);
  g_assert_true (bl_heap_is_analysed (big));
  g_assert_true (GPOINTER_TO_INT (g_thread_join (thread)));
  g_assert_cmpuint (bl_heap_get_n_leaked (big), ==, 1999999);
}

/* Resolves a raw reference of test_building_paths(): field code c is
 * field c - 1000, target code t object t - 7; the references of objects
 * divisible by 5 to even objects are dropped. */
static gboolean
resolve_test_code (guint32   from,
                   guint32  *field,
                   guint32  *to,
                   gpointer  data)
{
  if (from % 5 == 0 && (*to - 7) % 2 == 0)
    return FALSE;
  *field -= 1000;
  *to -= 7;

  return TRUE;
}

typedef struct
{
  guint32 from;
  guint32 field;
  guint32 to;
} WantedRef;

/* Adds object @o's @k references (target (o * 31 + r * 7) % n) through
 * @path: 0 reserved raw, 1 raw one by one, 2 checked (@raw FALSE). */
static void
add_test_references (BlHeap   *heap,
                     GArray   *wanted,
                     gboolean  raw,
                     guint     path,
                     guint32   o,
                     guint32   k,
                     guint32   n)
{
  guint32 *raw_fields = NULL, *raw_to = NULL;

  if (path == 0)
    raw_to = bl_heap_reserve_raw_references (heap, o, k, &raw_fields);
  for (guint32 r = 0; r < k; r++)
    {
      WantedRef ref = { o, 1 + (o + r) % 4, (o * 31 + r * 7) % n };

      if (path == 0)
        {
          raw_fields[r] = 1000 + ref.field;
          raw_to[r] = 7 + ref.to;
        }
      else if (path == 1)
        bl_heap_add_raw_reference (heap, o, 1000 + ref.field, 7 + ref.to);
      else
        bl_heap_add_reference (heap, o, ref.field, ref.to);
      if (!raw || !(o % 5 == 0 && ref.to % 2 == 0))
        g_array_append_val (wanted, ref);
    }
}

static int
compare_wanted (gconstpointer a,
                gconstpointer b)
{
  const WantedRef *ra = a, *rb = b;

  return ra->from < rb->from ? -1 : ra->from > rb->from;
}

/* The ways of adding objects and references, mixed over many objects (so
 * that the building arrays grow many times), ending with sources out of
 * order: every object's type, size and references come out as added, in
 * order, less those resolved away. */
static void
test_building_paths (void)
{
  const guint32 n = 300000;

  for (guint raw = 0; raw < 2; raw++)
    {
      g_autoptr (BlHeap) heap = bl_heap_new ();
      g_autoptr (GArray) wanted = g_array_new (FALSE, FALSE, sizeof (WantedRef));
      guint w = 0;

      bl_heap_add_type (heap, "A");
      bl_heap_add_type (heap, "B");
      bl_heap_add_type (heap, "C");
      for (guint i = 0; i < 4; i++)
        {
          g_autofree char *name = g_strdup_printf ("f%u", i);

          g_assert_cmpuint (bl_heap_intern_field (heap, name), ==, i + 1);
        }
      for (guint32 o = 0; o < n; o++)
        g_assert_cmpuint (bl_heap_add_object (heap, o % 3, 8 + (guint64) o % 13 +
                                              (o % 50000 == 1 ? G_MAXUINT32 : 0)), ==, o);
      for (guint32 o = 0; o < n; o++)
        add_test_references (heap, wanted, raw, raw ? o % 2 : 2, o, o % 4, n);
      /* sources going back: each reference keeps its own from now on */
      for (guint32 o = 0; o < 1000; o += 7)
        add_test_references (heap, wanted, raw, raw ? 1 : 2, o, 2, n);
      if (raw)
        bl_heap_resolve_references (heap, resolve_test_code, NULL);
      bl_heap_finish (heap);

      /* stable: an object's references keep their order */
      g_array_sort (wanted, compare_wanted);
      g_assert_cmpuint (bl_heap_get_n_objects (heap), ==, n);
      for (guint32 o = 0; o < n; o++)
        {
          const guint32 *fields, *targets;
          guint32 m = bl_heap_get_n_references (heap, o, &fields, &targets);

          g_assert_cmpuint (bl_heap_get_object_type (heap, o), ==, o % 3);
          g_assert_cmpuint (bl_heap_get_self_size (heap, o), ==,
                            8 + (guint64) o % 13 + (o % 50000 == 1 ? G_MAXUINT32 : 0));
          for (guint32 r = 0; r < m; r++, w++)
            {
              const WantedRef *ref = &g_array_index (wanted, WantedRef, w);

              g_assert_cmpuint (w, <, wanted->len);
              g_assert_cmpuint (ref->from, ==, o);
              g_assert_cmpuint (fields[r], ==, ref->field);
              g_assert_cmpuint (targets[r], ==, ref->to);
            }
        }
      g_assert_cmpuint (w, ==, wanted->len);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/heap/dominators", test_dominators);
  g_test_add_func ("/heap/object-ids", test_object_ids);
  g_test_add_func ("/heap/top-retained-ties", test_top_retained_ties);
  g_test_add_func ("/heap/lengauer-tarjan-example", test_lengauer_tarjan_example);
  g_test_add_func ("/heap/shared", test_shared);
  g_test_add_func ("/heap/long-chain", test_long_chain);
  g_test_add_func ("/heap/leaks-and-cycles", test_leaks_and_cycles);
  g_test_add_func ("/heap/long-cycle", test_long_cycle);
  g_test_add_func ("/heap/ten-million", test_ten_million);
  g_test_add_func ("/heap/ten-million-cycles", test_ten_million_cycles);
  g_test_add_func ("/heap/quadratic-cycles", test_quadratic_cycles);
  g_test_add_func ("/heap/random-graphs", test_random_graphs);
  g_test_add_func ("/heap/deep-common-ancestors", test_deep_common_ancestors);
  g_test_add_func ("/heap/lazy", test_lazy);
  g_test_add_func ("/heap/building-paths", test_building_paths);

  return g_test_run ();
}
