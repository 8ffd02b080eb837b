/* test-profile-node.c — the rows of the Bottom-Up and Functions tables
 * (BlProfileNode grouped by function) against a reference computed here
 * from the tree itself: per function, its nodes, self summed, total summed
 * over the nodes no ancestor of which is of the same function, and the
 * heaviest node (the first, depth first, of the largest total).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "bl-model.h"
#include "bl-profile-node.h"

#define N_NAMES 7

typedef struct
{
  guint   n_nodes;
  guint64 self[2];
  guint64 total[2];
  guint32 heaviest;
  guint64 heaviest_total;
} Expected;

static const BlMetricId metrics[2] = { BL_METRIC_CPU, BL_METRIC_CALLS };

/* A random tree of a few thousand nodes in three threads over seven
 * names, so that recursion (a function under itself, at any distance) is
 * common; values are small so that ties for the heaviest node are too. */
static BlProfile *
make_profile (guint32 seed)
{
  BlProfile *p = bl_profile_new ("test");
  GRand *rand = g_rand_new_with_seed (seed);
  guint32 names[N_NAMES];

  bl_profile_enable_metric (p, BL_METRIC_CPU);
  bl_profile_enable_metric (p, BL_METRIC_CALLS);
  for (guint i = 0; i < N_NAMES; i++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", i);

      names[i] = bl_profile_intern (p, name);
    }
  for (guint t = 0; t < 3; t++)
    {
      g_autofree char *name = g_strdup_printf ("thread %u", t);
      guint32 root = bl_profile_add_thread (p, bl_profile_intern (p, name));

      for (guint s = 0; s < 800; s++)
        {
          guint32 n = root;
          guint depth = 1 + g_rand_int_range (rand, 0, 12);

          for (guint d = 0; d < depth; d++)
            n = bl_profile_add_child (p, n, names[g_rand_int_range (rand, 0, N_NAMES)], 0, 0);
          bl_profile_add_value (p, n, BL_METRIC_CPU, g_rand_int_range (rand, 1, 4));
          if (g_rand_boolean (rand))
            bl_profile_add_value (p, n, BL_METRIC_CALLS, 1);
        }
    }
  g_rand_free (rand);
  bl_profile_finish (p);

  return p;
}

static gboolean
has_ancestor_of (BlProfile *p,
                 guint32    node,
                 guint32    function)
{
  for (guint32 a = bl_profile_get_node (p, node)->parent; a != BL_NODE_NONE;
       a = bl_profile_get_node (p, a)->parent)
    if (bl_profile_get_node_function (p, a) == function)
      return TRUE;
  return FALSE;
}

static void
visit (BlProfile *p,
       guint32    node,
       Expected  *expected)
{
  guint32 f = bl_profile_get_node_function (p, node);
  Expected *e = &expected[f];
  BlMetricId main_metric = bl_profile_get_default_metric (p);
  guint64 main_total = bl_profile_get_total (p, main_metric, node);

  if (e->n_nodes == 0 || main_total > e->heaviest_total)
    {
      e->heaviest = node;
      e->heaviest_total = main_total;
    }
  e->n_nodes++;
  for (guint m = 0; m < 2; m++)
    {
      e->self[m] += bl_profile_get_self (p, metrics[m], node);
      if (!has_ancestor_of (p, node, f))
        e->total[m] += bl_profile_get_total (p, metrics[m], node);
    }
  for (guint32 c = bl_profile_get_node (p, node)->first_child; c != BL_NODE_NONE;
       c = bl_profile_get_node (p, c)->next_sibling)
    visit (p, c, expected);
}

static Expected *
expected_for (BlProfile *p,
              guint      thread)
{
  Expected *expected = g_new0 (Expected, bl_profile_get_n_functions (p));

  for (guint t = 0; t < bl_profile_get_n_threads (p); t++)
    if (thread == BL_PROFILE_NODE_ALL_THREADS || thread == t)
      visit (p, bl_profile_get_thread_root (p, t), expected);

  return expected;
}

static void
check_row (BlProfileNode  *row,
           const Expected *e)
{
  g_assert_cmpuint (bl_profile_node_get_n_nodes (row), ==, e->n_nodes);
  g_assert_cmpuint (bl_profile_node_get_node (row), ==, e->heaviest);
  for (guint m = 0; m < 2; m++)
    {
      g_assert_cmpuint (bl_profile_node_get_self (row, metrics[m]), ==, e->self[m]);
      g_assert_cmpuint (bl_profile_node_get_total (row, metrics[m]), ==, e->total[m]);
    }
}

static void
check_thread (BlProfile         *p,
              guint              thread,
              BlProfileNodeKind  kind)
{
  g_autofree Expected *expected = expected_for (p, thread);
  g_autoptr(GListModel) rows = bl_profile_node_list_functions (p, thread, kind);
  guint n_expected = 0;

  /* every function that occurs, but the thread roots' own names */
  for (guint f = 0; f < bl_profile_get_n_functions (p); f++)
    {
      const BlFunction *fn = bl_profile_get_function (p, f);

      if (expected[f].n_nodes > 0 && !g_str_has_prefix (bl_profile_get_string (p, fn->name),
                                                        "thread "))
        n_expected++;
    }
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_expected);
  g_assert_cmpuint (n_expected, ==, N_NAMES);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(BlProfileNode) row = g_list_model_get_item (rows, i);
      guint32 f = bl_profile_node_get_function (row);
      g_autoptr(BlProfileNode) one = bl_profile_node_new_for_function (p, thread, f, kind);

      g_assert_cmpint (bl_profile_node_get_kind (row), ==, kind);
      check_row (row, &expected[f]);
      /* the row of one function alone is the same row */
      g_assert_nonnull (one);
      check_row (one, &expected[f]);
      g_assert_cmpuint (expected[f].total[0], <=,
                        bl_profile_get_grand_total (p, BL_METRIC_CPU));
    }
}

static void
test_functions (void)
{
  for (guint32 seed = 1; seed <= 4; seed++)
    {
      g_autoptr(BlProfile) p = make_profile (seed);
      g_autofree Expected *all = expected_for (p, BL_PROFILE_NODE_ALL_THREADS);
      gboolean deduplicated = FALSE;

      for (guint f = 0; f < bl_profile_get_n_functions (p); f++)
        if (all[f].n_nodes > 1)
          {
            /* the sum over all of its nodes is larger than the outermost ones' */
            guint64 naive = 0;

            for (guint32 n = 0; n < bl_profile_get_n_nodes (p); n++)
              if (bl_profile_get_node_function (p, n) == f)
                naive += bl_profile_get_total (p, BL_METRIC_CPU, n);
            deduplicated |= naive > all[f].total[0];
          }
      g_assert_true (deduplicated);

      check_thread (p, BL_PROFILE_NODE_ALL_THREADS, BL_PROFILE_NODE_FUNCTION);
      check_thread (p, BL_PROFILE_NODE_ALL_THREADS, BL_PROFILE_NODE_CALLERS);
      for (guint t = 0; t < bl_profile_get_n_threads (p); t++)
        {
          check_thread (p, t, BL_PROFILE_NODE_FUNCTION);
          check_thread (p, t, BL_PROFILE_NODE_CALLERS);
        }
    }
}

/* A function that does not occur in the thread asked for has no row. */
static void
test_function_absent (void)
{
  g_autoptr(BlProfile) p = bl_profile_new ("test");
  guint32 t0 = bl_profile_add_thread (p, bl_profile_intern (p, "T0"));
  guint32 t1 = bl_profile_add_thread (p, bl_profile_intern (p, "T1"));
  guint32 a = bl_profile_add_child (p, t0, bl_profile_intern (p, "a"), 0, 0);
  guint32 b = bl_profile_add_child (p, t1, bl_profile_intern (p, "b"), 0, 0);
  g_autoptr(BlProfileNode) in_t1 = NULL;
  g_autoptr(BlProfileNode) in_t0 = NULL;

  bl_profile_add_value (p, a, BL_METRIC_SAMPLES, 2);
  bl_profile_add_value (p, b, BL_METRIC_SAMPLES, 5);
  bl_profile_finish (p);

  in_t1 = bl_profile_node_new_for_function (p, 1, bl_profile_get_node_function (p, a),
                                            BL_PROFILE_NODE_FUNCTION);
  g_assert_null (in_t1);
  in_t0 = bl_profile_node_new_for_function (p, 0, bl_profile_get_node_function (p, a),
                                            BL_PROFILE_NODE_FUNCTION);
  g_assert_nonnull (in_t0);
  g_assert_cmpuint (bl_profile_node_get_node (in_t0), ==, a);
  g_assert_cmpuint (bl_profile_node_get_total (in_t0, BL_METRIC_SAMPLES), ==, 2);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model/profile-node/functions", test_functions);
  g_test_add_func ("/model/profile-node/function-absent", test_function_absent);
  return g_test_run ();
}
