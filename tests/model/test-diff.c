/* test-diff.c — BlDiff of two profiles made by the .bsprof test writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-model.h"
#include "bl-stacks-writer.h"

static BlProfile *
profile_from_lines (const char * const *lines)
{
  g_autoptr(GBytes) bytes = bl_stacks_write_bsprof (lines);
  g_autoptr(GError) error = NULL;
  BlProfile *profile;

  profile = bl_bsprof_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   &error);
  g_assert_no_error (error);
  g_assert_nonnull (profile);

  return profile;
}

static BlDiff *
diff_from_lines (const char * const *a,
                 const char * const *b)
{
  g_autoptr(BlProfile) pa = profile_from_lines (a);
  g_autoptr(BlProfile) pb = profile_from_lines (b);

  return bl_diff_new (pa, pb);
}

static guint32
lookup (BlDiff     *diff,
        const char *stack)
{
  guint32 node = bl_diff_lookup_stack (diff, stack, ';');

  if (node == BL_NODE_NONE)
    g_error ("no merged node for %s", stack);

  return node;
}

static guint32
find_function (BlDiff     *diff,
               const char *name,
               const char *file)
{
  for (guint32 f = 0; f < bl_diff_get_n_functions (diff); f++)
    if (g_str_equal (bl_diff_get_function_name (diff, f), name) &&
        (file == NULL || g_str_equal (bl_diff_get_function_file (diff, f), file)))
      return f;

  return BL_NODE_NONE;
}

static void
test_matching (void)
{
  const char *a[] = { "T;main;load 100", "T;main;draw 50", "T;main 10", NULL };
  const char *b[] = { "T;main;load 150", "T;main;draw 20", "T;main 10", NULL };
  g_autoptr(BlDiff) diff = diff_from_lines (a, b);
  BlDiffChange change;
  guint32 root, main_node, load, draw;

  g_assert_false (bl_diff_is_session (diff));
  g_assert_cmpuint (bl_diff_get_n_nodes (diff), ==, 4);
  g_assert_cmpuint (bl_diff_get_n_roots (diff), ==, 1);
  g_assert_cmpint (bl_diff_get_default_metric (diff), ==, BL_METRIC_CPU);
  g_assert_true (bl_diff_has_metric (diff, BL_METRIC_WALL));
  g_assert_false (bl_diff_has_metric (diff, BL_METRIC_ALLOC_BYTES));

  root = bl_diff_get_root (diff, 0);
  g_assert_cmpstr (bl_diff_get_node_name (diff, root), ==, "T");
  g_assert_cmpuint (bl_diff_find_root (diff, "T"), ==, root);
  main_node = lookup (diff, "T;main");
  load = lookup (diff, "T;main;load");
  draw = lookup (diff, "T;main;draw");

  /* children are linked in name order */
  g_assert_cmpuint (bl_diff_get_node (diff, main_node)->first_child, ==, draw);
  g_assert_cmpuint (bl_diff_get_node (diff, draw)->next_sibling, ==, load);
  g_assert_cmpuint (bl_diff_get_node (diff, load)->next_sibling, ==, BL_NODE_NONE);
  g_assert_cmpuint (bl_diff_get_node (diff, load)->parent, ==, main_node);
  g_assert_cmpuint (bl_diff_get_node (diff, load)->depth, ==, 2);

  for (guint32 n = 0; n < bl_diff_get_n_nodes (diff); n++)
    g_assert_cmpuint (bl_diff_get_node (diff, n)->presence, ==, BL_DIFF_IN_BOTH);

  g_assert_cmpuint (bl_diff_get_self (diff, BL_DIFF_SIDE_A, BL_METRIC_CPU, load), ==, 100);
  g_assert_cmpuint (bl_diff_get_self (diff, BL_DIFF_SIDE_B, BL_METRIC_CPU, load), ==, 150);
  g_assert_cmpuint (bl_diff_get_self (diff, BL_DIFF_SIDE_B, BL_METRIC_WALL, load), ==, 300);
  g_assert_cmpuint (bl_diff_get_total (diff, BL_DIFF_SIDE_A, BL_METRIC_CPU, main_node), ==, 160);
  g_assert_cmpuint (bl_diff_get_total (diff, BL_DIFF_SIDE_B, BL_METRIC_CPU, main_node), ==, 180);
  g_assert_cmpuint (bl_diff_get_total (diff, BL_DIFF_SIDE_B, BL_METRIC_CPU, root), ==, 180);
  g_assert_cmpuint (bl_diff_get_grand_total (diff, BL_DIFF_SIDE_A, BL_METRIC_CPU), ==, 160);
  g_assert_cmpuint (bl_diff_get_grand_total (diff, BL_DIFF_SIDE_B, BL_METRIC_CPU), ==, 180);

  bl_diff_get_node_change (diff, BL_METRIC_CPU, load, FALSE, FALSE, &change);
  g_assert_cmpfloat (change.a, ==, 100);
  g_assert_cmpfloat (change.b, ==, 150);
  g_assert_cmpfloat (change.delta, ==, 50);
  g_assert_cmpfloat_with_epsilon (change.delta_pct, 50.0, 1e-9);

  bl_diff_get_node_change (diff, BL_METRIC_CPU, draw, TRUE, FALSE, &change);
  g_assert_cmpfloat (change.delta, ==, -30);
  g_assert_cmpfloat_with_epsilon (change.delta_pct, -60.0, 1e-9);

  /* stack strings are those of the profiles */
  for (guint32 n = 0; n < bl_diff_get_n_nodes (diff); n++)
    for (guint side = 0; side < 2; side++)
      {
        BlProfile *profile = bl_diff_get_profile (diff, side);
        guint32 pn = bl_diff_node_to_profile (diff, side, n);
        g_autofree char *ds = bl_diff_dup_stack_string (diff, n, ';');
        g_autofree char *ps = NULL;

        g_assert_cmpuint (pn, !=, BL_NODE_NONE);
        ps = bl_profile_dup_stack_string (profile, pn, ';');
        g_assert_cmpstr (ds, ==, ps);
        g_assert_cmpuint (bl_diff_node_from_profile (diff, side, pn), ==, n);
      }
}

static void
test_one_side (void)
{
  const char *a[] = { "T;main;old 40", "T;main 10", NULL };
  const char *b[] = { "T;main;new 60", "T;main 10", "Task;run;fetch 5", NULL };
  g_autoptr(BlDiff) diff = diff_from_lines (a, b);
  BlDiffChange change;
  guint32 old_node, new_node, task, fetch;

  g_assert_cmpuint (bl_diff_get_n_nodes (diff), ==, 7);
  g_assert_cmpuint (bl_diff_get_n_roots (diff), ==, 2);
  g_assert_cmpstr (bl_diff_get_node_name (diff, bl_diff_get_root (diff, 0)), ==, "T");
  g_assert_cmpstr (bl_diff_get_node_name (diff, bl_diff_get_root (diff, 1)), ==, "Task");

  old_node = lookup (diff, "T;main;old");
  new_node = lookup (diff, "T;main;new");
  task = lookup (diff, "Task");
  fetch = lookup (diff, "Task;run;fetch");

  g_assert_cmpuint (bl_diff_get_node (diff, lookup (diff, "T;main"))->presence, ==,
                    BL_DIFF_IN_BOTH);
  g_assert_cmpuint (bl_diff_get_node (diff, old_node)->presence, ==, BL_DIFF_IN_A);
  g_assert_cmpuint (bl_diff_get_node (diff, new_node)->presence, ==, BL_DIFF_IN_B);
  g_assert_cmpuint (bl_diff_get_node (diff, task)->presence, ==, BL_DIFF_IN_B);
  g_assert_cmpuint (bl_diff_get_node (diff, fetch)->presence, ==, BL_DIFF_IN_B);

  g_assert_cmpuint (bl_diff_node_to_profile (diff, BL_DIFF_SIDE_B, old_node), ==, BL_NODE_NONE);
  g_assert_cmpuint (bl_diff_node_to_profile (diff, BL_DIFF_SIDE_A, fetch), ==, BL_NODE_NONE);
  g_assert_cmpuint (bl_diff_get_self (diff, BL_DIFF_SIDE_B, BL_METRIC_CPU, old_node), ==, 0);
  g_assert_cmpuint (bl_diff_get_total (diff, BL_DIFF_SIDE_A, BL_METRIC_CPU, task), ==, 0);
  g_assert_cmpuint (bl_diff_get_total (diff, BL_DIFF_SIDE_B, BL_METRIC_CPU, task), ==, 5);

  bl_diff_get_node_change (diff, BL_METRIC_CPU, old_node, TRUE, FALSE, &change);
  g_assert_cmpfloat (change.delta, ==, -40);
  g_assert_cmpfloat_with_epsilon (change.delta_pct, -100.0, 1e-9);

  bl_diff_get_node_change (diff, BL_METRIC_CPU, new_node, TRUE, FALSE, &change);
  g_assert_cmpfloat (change.delta, ==, 60);
  g_assert_true (isinf (change.delta_pct) && change.delta_pct > 0);

  /* neither side: no change */
  bl_diff_get_node_change (diff, BL_METRIC_CPU, lookup (diff, "Task;run"), FALSE, FALSE, &change);
  g_assert_cmpfloat (change.delta, ==, 0);
  g_assert_cmpfloat (change.delta_pct, ==, 0);

  /* functions: old only in A, new only in B, with their own values */
  {
    guint32 f_old = find_function (diff, "old", NULL);
    guint32 f_new = find_function (diff, "new", NULL);
    guint32 f_main = find_function (diff, "main", NULL);

    g_assert_cmpuint (f_old, !=, BL_NODE_NONE);
    g_assert_cmpuint (bl_diff_get_function (diff, f_old)->presence, ==, BL_DIFF_IN_A);
    g_assert_cmpuint (bl_diff_get_function (diff, f_new)->presence, ==, BL_DIFF_IN_B);
    g_assert_cmpuint (bl_diff_get_function (diff, f_main)->presence, ==, BL_DIFF_IN_BOTH);
    g_assert_cmpuint (bl_diff_get_function (diff, f_new)->function[BL_DIFF_SIDE_A], ==,
                      BL_NODE_NONE);
    g_assert_cmpuint (bl_diff_get_function_total (diff, BL_DIFF_SIDE_A, BL_METRIC_CPU, f_main),
                      ==, 50);
    g_assert_cmpuint (bl_diff_get_function_total (diff, BL_DIFF_SIDE_B, BL_METRIC_CPU, f_main),
                      ==, 70);
    g_assert_cmpuint (bl_diff_get_function_self (diff, BL_DIFF_SIDE_B, BL_METRIC_CPU, f_new),
                      ==, 60);
    /* thread roots are not functions */
    g_assert_cmpuint (find_function (diff, "T", NULL), ==, BL_NODE_NONE);
    g_assert_cmpuint (find_function (diff, "Task", NULL), ==, BL_NODE_NONE);
  }
}

static void
test_recursion (void)
{
  const char *a[] = {
    "T;main;walk 10", "T;main;walk;walk 20", "T;main;walk;walk;walk 30", NULL
  };
  const char *b[] = {
    "T;main;walk 10", "T;main;walk;walk 5", "T;main;walk;visit;walk 100", NULL
  };
  g_autoptr(BlDiff) diff = diff_from_lines (a, b);
  BlDiffChange change;
  guint32 walk;

  g_assert_cmpuint (bl_diff_get_node (diff, lookup (diff, "T;main;walk;walk;walk"))->presence,
                    ==, BL_DIFF_IN_A);
  g_assert_cmpuint (bl_diff_get_node (diff, lookup (diff, "T;main;walk;visit;walk"))->presence,
                    ==, BL_DIFF_IN_B);
  g_assert_cmpuint (bl_diff_get_total (diff, BL_DIFF_SIDE_A, BL_METRIC_CPU,
                                       lookup (diff, "T;main;walk;walk")), ==, 50);

  walk = find_function (diff, "walk", NULL);
  g_assert_cmpuint (walk, !=, BL_NODE_NONE);
  /* each frame's self once, the outermost walk's total once */
  g_assert_cmpuint (bl_diff_get_function_self (diff, BL_DIFF_SIDE_A, BL_METRIC_CPU, walk), ==, 60);
  g_assert_cmpuint (bl_diff_get_function_total (diff, BL_DIFF_SIDE_A, BL_METRIC_CPU, walk), ==, 60);
  g_assert_cmpuint (bl_diff_get_function_self (diff, BL_DIFF_SIDE_B, BL_METRIC_CPU, walk), ==, 115);
  g_assert_cmpuint (bl_diff_get_function_total (diff, BL_DIFF_SIDE_B, BL_METRIC_CPU, walk), ==, 115);

  bl_diff_get_function_change (diff, BL_METRIC_CPU, walk, TRUE, FALSE, &change);
  g_assert_cmpfloat (change.a, ==, 60);
  g_assert_cmpfloat (change.b, ==, 115);
  g_assert_cmpfloat (change.delta, ==, 55);

  /* calls: one per line, so the function's total calls do not repeat the
   * recursive frames either */
  g_assert_cmpuint (bl_diff_get_function_total (diff, BL_DIFF_SIDE_A, BL_METRIC_CALLS, walk),
                    ==, 3);
}

static void
test_normalized (void)
{
  /* B ran twice as long with the same shape, except that draw grew */
  const char *a[] = { "T;main;load 60", "T;main;draw 40", NULL };
  const char *b[] = { "T;main;load 120", "T;main;draw 80", "T;main;draw;extra 200", NULL };
  g_autoptr(BlDiff) diff = diff_from_lines (a, b);
  BlDiffChange change;
  guint32 load = lookup (diff, "T;main;load");
  guint32 draw = lookup (diff, "T;main;draw");

  bl_diff_get_node_change (diff, BL_METRIC_CPU, load, TRUE, FALSE, &change);
  g_assert_cmpfloat (change.delta, ==, 60);
  g_assert_cmpfloat_with_epsilon (change.delta_pct, 100.0, 1e-9);

  /* shares: load 60 % → 30 %, draw 40 % → 70 % */
  bl_diff_get_node_change (diff, BL_METRIC_CPU, load, TRUE, TRUE, &change);
  g_assert_cmpfloat_with_epsilon (change.a, 0.6, 1e-12);
  g_assert_cmpfloat_with_epsilon (change.b, 0.3, 1e-12);
  g_assert_cmpfloat_with_epsilon (change.delta, -0.3, 1e-12);
  g_assert_cmpfloat_with_epsilon (change.delta_pct, -50.0, 1e-9);

  bl_diff_get_node_change (diff, BL_METRIC_CPU, draw, TRUE, TRUE, &change);
  g_assert_cmpfloat_with_epsilon (change.a, 0.4, 1e-12);
  g_assert_cmpfloat_with_epsilon (change.b, 0.7, 1e-12);
  g_assert_cmpfloat_with_epsilon (change.delta_pct, 75.0, 1e-9);

  /* the root's share is the whole on both sides */
  bl_diff_get_node_change (diff, BL_METRIC_CPU, bl_diff_get_root (diff, 0), TRUE, TRUE, &change);
  g_assert_cmpfloat_with_epsilon (change.a, 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (change.b, 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (change.delta, 0.0, 1e-12);

  /* same shape, twice as long: no normalized change anywhere */
  {
    const char *c[] = { "T;main;load 120", "T;main;draw 80", NULL };
    g_autoptr(BlDiff) same = diff_from_lines (a, c);

    for (guint32 n = 0; n < bl_diff_get_n_nodes (same); n++)
      {
        bl_diff_get_node_change (same, BL_METRIC_CPU, n, TRUE, TRUE, &change);
        g_assert_cmpfloat_with_epsilon (change.delta, 0.0, 1e-12);
        bl_diff_get_node_change (same, BL_METRIC_CPU, n, TRUE, FALSE, &change);
        g_assert_cmpfloat (change.delta, ==, change.a);
      }
  }
}

static void
test_files_merge (void)
{
  /* frames match by name: f in two files is one merged frame, but two
   * functions */
  const char *a[] = { "T;main;f@pkg:/a.brs 10", "T;main;f@pkg:/b.brs 20", NULL };
  const char *b[] = { "T;main;f@pkg:/a.brs 30", NULL };
  g_autoptr(BlDiff) diff = diff_from_lines (a, b);
  guint32 f = lookup (diff, "T;main;f");
  guint32 fa = find_function (diff, "f", "pkg:/a.brs");
  guint32 fb = find_function (diff, "f", "pkg:/b.brs");
  BlProfile *pa = bl_diff_get_profile (diff, BL_DIFF_SIDE_A);
  guint32 rep;

  g_assert_cmpuint (bl_diff_get_n_nodes (diff), ==, 3);
  g_assert_cmpuint (bl_diff_get_self (diff, BL_DIFF_SIDE_A, BL_METRIC_CPU, f), ==, 30);
  g_assert_cmpuint (bl_diff_get_self (diff, BL_DIFF_SIDE_B, BL_METRIC_CPU, f), ==, 30);

  /* the biggest of the nodes it stands for */
  rep = bl_diff_node_to_profile (diff, BL_DIFF_SIDE_A, f);
  g_assert_cmpstr (bl_profile_get_node_file (pa, rep), ==, "pkg:/b.brs");

  g_assert_cmpuint (fa, !=, BL_NODE_NONE);
  g_assert_cmpuint (fb, !=, BL_NODE_NONE);
  g_assert_cmpuint (fa, <, fb);
  g_assert_cmpuint (bl_diff_get_function (diff, fa)->presence, ==, BL_DIFF_IN_BOTH);
  g_assert_cmpuint (bl_diff_get_function (diff, fb)->presence, ==, BL_DIFF_IN_A);
  g_assert_cmpuint (bl_diff_get_function_self (diff, BL_DIFF_SIDE_A, BL_METRIC_CPU, fa), ==, 10);
  g_assert_cmpuint (bl_diff_get_function_self (diff, BL_DIFF_SIDE_B, BL_METRIC_CPU, fa), ==, 30);
  g_assert_cmpuint (bl_diff_get_function_self (diff, BL_DIFF_SIDE_B, BL_METRIC_CPU, fb), ==, 0);
}

static char *
folded_of (BlProfile *profile)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();

  g_assert_true (bl_folded_write (profile, BL_METRIC_CPU, out, NULL, NULL));
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (out, NULL, NULL));

  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* Folded text for one side, rebuilt from the merged tree. */
static char *
folded_from_diff (BlDiff     *diff,
                  BlDiffSide  side)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  GString *out = g_string_new (NULL);

  for (guint32 n = 0; n < bl_diff_get_n_nodes (diff); n++)
    {
      guint64 v = bl_diff_get_self (diff, side, BL_METRIC_CPU, n);
      g_autofree char *stack = NULL;

      if (v == 0)
        continue;
      stack = bl_diff_dup_stack_string (diff, n, ';');
      g_ptr_array_add (lines, g_strdup_printf ("%s %" G_GUINT64_FORMAT, stack, v));
    }
  g_ptr_array_sort (lines, compare_strings);
  for (guint i = 0; i < lines->len; i++)
    g_string_append_printf (out, "%s\n", (char *) lines->pdata[i]);

  return g_string_free (out, FALSE);
}

/* Random trees: each side's folded stacks come back out of the merged tree
 * unchanged, and every merged node's totals add up. */
static void
test_random_trees (void)
{
  static const char *names[] = { "main", "load", "draw", "parse", "fetch", "walk" };
  GRand *rand = g_rand_new_with_seed (42);

  for (guint round = 0; round < 20; round++)
    {
      GPtrArray *side_lines[2];
      BlProfile *profiles[2];
      g_autoptr(BlDiff) diff = NULL;

      for (guint side = 0; side < 2; side++)
        {
          guint n_lines = g_rand_int_range (rand, 1, 40);

          side_lines[side] = g_ptr_array_new_with_free_func (g_free);
          for (guint i = 0; i < n_lines; i++)
            {
              GString *line = g_string_new (g_rand_boolean (rand) ? "Thread main" : "Task");
              guint depth = g_rand_int_range (rand, 1, 6);

              for (guint d = 0; d < depth; d++)
                g_string_append_printf (line, ";%s", names[g_rand_int_range (rand, 0, 6)]);
              g_string_append_printf (line, " %d", g_rand_int_range (rand, 1, 1000));
              g_ptr_array_add (side_lines[side], g_string_free (line, FALSE));
            }
          g_ptr_array_add (side_lines[side], NULL);
          profiles[side] = profile_from_lines ((const char * const *) side_lines[side]->pdata);
        }

      diff = bl_diff_new (profiles[0], profiles[1]);

      for (guint side = 0; side < 2; side++)
        {
          g_autofree char *expected = folded_of (profiles[side]);
          g_autofree char *actual = folded_from_diff (diff, side);

          g_assert_cmpstr (actual, ==, expected);
          g_assert_cmpuint (bl_diff_get_grand_total (diff, side, BL_METRIC_CPU), ==,
                            bl_profile_get_grand_total (profiles[side], BL_METRIC_CPU));
        }

      for (guint32 n = 0; n < bl_diff_get_n_nodes (diff); n++)
        {
          const BlDiffNode *node = bl_diff_get_node (diff, n);

          for (guint side = 0; side < 2; side++)
            {
              guint64 sum = bl_diff_get_self (diff, side, BL_METRIC_CPU, n);

              for (guint32 c = node->first_child; c != BL_NODE_NONE;
                   c = bl_diff_get_node (diff, c)->next_sibling)
                {
                  g_assert_cmpuint (bl_diff_get_node (diff, c)->parent, ==, n);
                  g_assert_true ((bl_diff_get_node (diff, c)->presence & ~node->presence) == 0);
                  sum += bl_diff_get_total (diff, side, BL_METRIC_CPU, c);
                }
              g_assert_cmpuint (sum, ==, bl_diff_get_total (diff, side, BL_METRIC_CPU, n));
            }
        }

      for (guint side = 0; side < 2; side++)
        {
          g_ptr_array_unref (side_lines[side]);
          g_object_unref (profiles[side]);
        }
    }

  g_rand_free (rand);
}

static void
test_formats (void)
{
  /* a folded profile (samples) against a .bsprof (cpu, wall, calls) */
  static const char folded[] = "T;main;load 3\nT;main 1\n";
  const char *b[] = { "T;main;load 100", NULL };
  g_autoptr(BlProfile) pa = NULL;
  g_autoptr(BlProfile) pb = profile_from_lines (b);
  g_autoptr(BlDiff) diff = NULL;
  g_autoptr(GError) error = NULL;
  guint32 load;

  pa = bl_folded_read_memory ((const guint8 *) folded, strlen (folded), &error);
  g_assert_no_error (error);
  diff = bl_diff_new (pa, pb);

  g_assert_true (bl_diff_side_has_metric (diff, BL_DIFF_SIDE_A, BL_METRIC_SAMPLES));
  g_assert_false (bl_diff_side_has_metric (diff, BL_DIFF_SIDE_B, BL_METRIC_SAMPLES));
  g_assert_true (bl_diff_has_metric (diff, BL_METRIC_CPU));
  /* no metric in common: the first either has */
  g_assert_cmpint (bl_diff_get_default_metric (diff), ==, BL_METRIC_CPU);

  load = lookup (diff, "T;main;load");
  g_assert_cmpuint (bl_diff_get_node (diff, load)->presence, ==, BL_DIFF_IN_BOTH);
  g_assert_cmpuint (bl_diff_get_self (diff, BL_DIFF_SIDE_A, BL_METRIC_SAMPLES, load), ==, 3);
  g_assert_cmpuint (bl_diff_get_self (diff, BL_DIFF_SIDE_B, BL_METRIC_SAMPLES, load), ==, 0);
  g_assert_cmpuint (bl_diff_get_self (diff, BL_DIFF_SIDE_B, BL_METRIC_CPU, load), ==, 100);
  g_assert_cmpuint (bl_diff_get_grand_total (diff, BL_DIFF_SIDE_A, BL_METRIC_SAMPLES), ==, 4);
  g_assert_null (bl_diff_get_self_array (diff, BL_DIFF_SIDE_A, BL_METRIC_ALLOC_BYTES));
  g_assert_nonnull (bl_diff_get_self_array (diff, BL_DIFF_SIDE_B, BL_METRIC_SAMPLES));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/diff/matching", test_matching);
  g_test_add_func ("/model/diff/one-side", test_one_side);
  g_test_add_func ("/model/diff/recursion", test_recursion);
  g_test_add_func ("/model/diff/normalized", test_normalized);
  g_test_add_func ("/model/diff/files-merge", test_files_merge);
  g_test_add_func ("/model/diff/random-trees", test_random_trees);
  g_test_add_func ("/model/diff/formats", test_formats);

  return g_test_run ();
}
