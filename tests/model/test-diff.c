/* test-diff.c — BlDiff of two profiles made by the .bsprof test writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-model.h"
#include "bl-rrm-writer.h"
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
  g_assert_cmpuint (bl_diff_get_function_total (diff, BL_DIFF_SIDE_B, BL_METRIC_CPU, walk),
                    ==, 115);

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

static gpointer
read_values (gpointer data)
{
  BlDiff *diff = data;
  const guint64 *arrays[4];

  arrays[0] = bl_diff_get_self_array (diff, BL_DIFF_SIDE_A, BL_METRIC_WALL);
  arrays[1] = bl_diff_get_total_array (diff, BL_DIFF_SIDE_B, BL_METRIC_WALL);
  arrays[2] = bl_diff_get_self_array (diff, BL_DIFF_SIDE_B, BL_METRIC_CALLS);
  arrays[3] = bl_diff_get_total_array (diff, BL_DIFF_SIDE_A, BL_METRIC_CPU);

  return g_memdup2 (arrays, sizeof arrays);
}

/* Values are made on first use: threads asking at once get the same ones. */
static void
test_threads (void)
{
  const char *a[] = { "T;main;load 100", "T;main;draw 50", NULL };
  const char *b[] = { "T;main;load 150", "T;main;draw;blit 30", NULL };
  g_autoptr(BlDiff) diff = diff_from_lines (a, b);
  GThread *threads[8];
  const guint64 *first[4] = { NULL, };

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("diff-reader", read_values, diff);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      g_autofree const guint64 **arrays = g_thread_join (threads[i]);

      for (guint k = 0; k < 4; k++)
        {
          g_assert_nonnull (arrays[k]);
          if (i == 0)
            first[k] = arrays[k];
          g_assert_true (arrays[k] == first[k]);
        }
    }

  g_assert_cmpuint (first[1][lookup (diff, "T;main")], ==, 360);
  g_assert_cmpuint (first[0][lookup (diff, "T;main;load")], ==, 200);
}

/* The two shipped samples: the "after" run (make-sample-bsprof --after)
 * made row items slower, the feed parser faster, dropped the deep link
 * handler and added two functions. */
static void
test_samples (void)
{
  static const char *names[] = { "roku-grid-app.bsprof", "roku-grid-app-after.bsprof" };
  g_autoptr(BlProfile) before = NULL;
  g_autoptr(BlProfile) after = NULL;
  BlProfile **profiles[2] = { &before, &after };
  g_autoptr(BlDiff) diff = NULL;
  BlDiffChange change;
  guint32 node;

  for (guint side = 0; side < 2; side++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples",
                                                     names[side], NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GError) error = NULL;
      GObject *loaded = bl_format_load_file (file, NULL, NULL, NULL, &error);

      g_assert_no_error (error);
      g_assert_true (BL_IS_PROFILE (loaded));
      *profiles[side] = BL_PROFILE (loaded);
    }

  diff = bl_diff_new (before, after);
  g_assert_cmpint (bl_diff_get_default_metric (diff), ==, BL_METRIC_CPU);

  node = lookup (diff, "HomeGridScreen;onContentChanged;buildRows;createRowItem");
  bl_diff_get_node_change (diff, BL_METRIC_CPU, node, TRUE, FALSE, &change);
  g_assert_cmpfloat (change.delta_pct, >, 50);
  node = lookup (diff, "ContentTask;execute;fetchFeed;parseFeed");
  bl_diff_get_node_change (diff, BL_METRIC_CPU, node, FALSE, FALSE, &change);
  g_assert_cmpfloat (change.delta_pct, <, -40);
  node = lookup (diff, "Thread main;Main;RunEventLoop;HandleDeepLink");
  g_assert_cmpuint (bl_diff_get_node (diff, node)->presence, ==, BL_DIFF_IN_A);
  node = lookup (diff, "HomeGridScreen;onContentChanged;buildRows;measureRow");
  g_assert_cmpuint (bl_diff_get_node (diff, node)->presence, ==, BL_DIFF_IN_B);
  g_assert_cmpuint (bl_diff_get_node (diff, lookup (diff, "ImageCacheTask"))->presence,
                    ==, BL_DIFF_IN_BOTH);
}

/* ---- sessions ---- */

static BlSession *
session_from_options (const BlRrmWriterOptions *options)
{
  g_autoptr(GBytes) bytes = bl_rrm_write (options);
  g_autoptr(GError) error = NULL;
  BlSession *session;

  session = bl_rrm_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  g_assert_nonnull (session);

  return session;
}

/* max and mean of a series as the writer wrote it */
static void
expected_stats (const BlRrmWriterOptions *options,
                BlSeriesId                id,
                double                   *max,
                double                   *mean)
{
  double sum = 0;
  guint n = 0;

  *max = -G_MAXDOUBLE;
  for (guint i = 0; i < options->n_samples; i++)
    {
      gboolean present;
      double v = bl_rrm_writer_expected (options, id, i, &present);

      if (!present)
        continue;
      *max = MAX (*max, v);
      sum += v;
      n++;
    }
  g_assert_cmpuint (n, >, 0);
  *mean = sum / n;
}

static void
test_session_figures (void)
{
  BlRrmWriterOptions oa, ob;
  g_autoptr(BlSession) sa = NULL;
  g_autoptr(BlSession) sb = NULL;
  g_autoptr(BlDiff) diff = NULL;
  BlDiffChange change;
  double max_a, mean_a, max_b, mean_b;

  bl_rrm_writer_options_init (&oa);
  bl_rrm_writer_options_init (&ob);
  ob.scenario = BL_RRM_SCENARIO_REALISTIC;
  ob.n_samples = 180;
  ob.start_ms += 86400000;
  ob.leak_bytes_per_min = 4 * 1024 * 1024;
  sa = session_from_options (&oa);
  sb = session_from_options (&ob);
  diff = bl_diff_new_for_sessions (sa, sb);

  g_assert_true (bl_diff_is_session (diff));
  g_assert_true (bl_diff_get_session (diff, BL_DIFF_SIDE_A) == sa);
  g_assert_null (bl_diff_get_profile (diff, BL_DIFF_SIDE_A));
  g_assert_cmpuint (bl_diff_get_n_nodes (diff), ==, 0);

  expected_stats (&oa, BL_SERIES_MEMORY_USED, &max_a, &mean_a);
  expected_stats (&ob, BL_SERIES_MEMORY_USED, &max_b, &mean_b);
  bl_diff_get_figure (diff, BL_DIFF_FIGURE_PEAK_MEMORY, &change);
  g_assert_cmpfloat_with_epsilon (change.a, max_a, 0.5);
  g_assert_cmpfloat_with_epsilon (change.b, max_b, 0.5);
  g_assert_cmpfloat_with_epsilon (change.delta, max_b - max_a, 1.0);
  g_assert_cmpfloat_with_epsilon (change.delta_pct, 100.0 * (max_b - max_a) / max_a, 1e-6);

  bl_diff_get_figure (diff, BL_DIFF_FIGURE_MEAN_MEMORY, &change);
  g_assert_cmpfloat_with_epsilon (change.a, mean_a, 0.5);
  g_assert_cmpfloat_with_epsilon (change.b, mean_b, 0.5);

  expected_stats (&oa, BL_SERIES_NODES_TOTAL, &max_a, &mean_a);
  expected_stats (&ob, BL_SERIES_NODES_TOTAL, &max_b, &mean_b);
  bl_diff_get_figure (diff, BL_DIFF_FIGURE_NODE_COUNT, &change);
  g_assert_cmpfloat (change.a, ==, max_a);
  g_assert_cmpfloat (change.b, ==, max_b);

  expected_stats (&ob, BL_SERIES_FPS, &max_b, &mean_b);
  bl_diff_get_figure (diff, BL_DIFF_FIGURE_MEAN_FPS, &change);
  g_assert_cmpfloat_with_epsilon (change.b, mean_b, 1e-6);

  /* both launch from app_compile_initiate to app_load_complete */
  bl_diff_get_figure (diff, BL_DIFF_FIGURE_LAUNCH_TIME, &change);
  g_assert_cmpfloat (change.a, ==, 2550);
  g_assert_cmpfloat (change.b, ==, 2550);
  g_assert_cmpfloat (change.delta, ==, 0);
  g_assert_cmpfloat (change.delta_pct, ==, 0);

  /* B leaks faster */
  bl_diff_get_figure (diff, BL_DIFF_FIGURE_MEMORY_GROWTH, &change);
  g_assert_cmpfloat (change.b, >, change.a);
  g_assert_cmpfloat (change.delta, >, 0);

  for (guint f = 0; f < BL_N_DIFF_FIGURES; f++)
    {
      const BlDiffFigureInfo *info = bl_diff_figure_get_info (f);

      g_assert_cmpint (info->id, ==, f);
      g_assert_nonnull (info->name);
      bl_diff_get_figure (diff, f, &change);
      g_assert_false (isnan (change.a));
      g_assert_false (isnan (change.b));
    }

  {
    g_autofree char *text = bl_diff_figure_format_value (BL_DIFF_FIGURE_LAUNCH_TIME, 250, TRUE);
    g_autofree char *growth = bl_diff_figure_format_value (BL_DIFF_FIGURE_MEMORY_GROWTH,
                                                           -2 * 1024 * 1024, TRUE);
    g_autofree char *none = bl_diff_figure_format_value (BL_DIFF_FIGURE_MEAN_FPS, NAN, FALSE);

    g_assert_cmpstr (text, ==, "+250 ms");
    g_assert_cmpstr (growth, ==, "−2.0 MiB/min");
    g_assert_cmpstr (none, ==, "—");
    {
      g_autofree char *cpu = bl_diff_figure_format_value (BL_DIFF_FIGURE_MEAN_CPU, 1.5, TRUE);
      g_autofree char *cpu_plain = bl_diff_figure_format_value (BL_DIFF_FIGURE_MEAN_CPU, 33.25,
                                                                FALSE);

      g_assert_cmpstr (cpu, ==, "+1.5 pp");
      g_assert_cmpstr (cpu_plain, ==, "33.2 %");
    }
  }
}

static void
test_session_missing_data (void)
{
  BlRrmWriterOptions oa, ob;
  g_autoptr(BlSession) sa = NULL;
  g_autoptr(BlSession) sb = NULL;
  g_autoptr(BlDiff) diff = NULL;
  BlDiffChange change;

  bl_rrm_writer_options_init (&oa);
  bl_rrm_writer_options_init (&ob);
  ob.omit_arrays = TRUE;      /* no frame rate */
  ob.with_beacons = FALSE;    /* no launch */
  sa = session_from_options (&oa);
  sb = session_from_options (&ob);
  diff = bl_diff_new_for_sessions (sa, sb);

  bl_diff_get_figure (diff, BL_DIFF_FIGURE_MEAN_FPS, &change);
  g_assert_false (isnan (change.a));
  g_assert_true (isnan (change.b));
  g_assert_true (isnan (change.delta));
  g_assert_true (isnan (change.delta_pct));

  bl_diff_get_figure (diff, BL_DIFF_FIGURE_LAUNCH_TIME, &change);
  g_assert_true (isnan (change.b));

  bl_diff_get_figure (diff, BL_DIFF_FIGURE_PEAK_MEMORY, &change);
  g_assert_false (isnan (change.delta));
}

static gint64
beacon_offset (const BlRrmWriterOptions *options,
               const char               *name)
{
  guint n = 0;
  const BlRrmBeaconSpec *beacons = bl_rrm_writer_get_beacons (options, &n);

  for (guint i = 0; i < n; i++)
    if (g_str_equal (beacons[i].name, name))
      return beacons[i].offset_ms;

  g_assert_not_reached ();
}

static void
test_session_alignment (void)
{
  BlRrmWriterOptions oa, ob;
  g_autoptr(BlSession) sa = NULL;
  g_autoptr(BlSession) sb = NULL;
  g_autoptr(BlSession) sc = NULL;
  g_autoptr(BlDiff) diff = NULL;
  g_autoptr(BlDiff) no_beacons = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) common = NULL;
  gint64 off_a = 0, off_b = 0;

  bl_rrm_writer_options_init (&oa);
  bl_rrm_writer_options_init (&ob);
  oa.scenario = BL_RRM_SCENARIO_REALISTIC;
  oa.n_samples = 120;              /* the video starts 20 s in */
  ob.scenario = BL_RRM_SCENARIO_REALISTIC;
  ob.n_samples = 600;              /* the video starts 100 s in */
  ob.start_ms = oa.start_ms + 3600000;
  ob.beacon_name_key = 1;
  sa = session_from_options (&oa);
  sb = session_from_options (&ob);
  diff = bl_diff_new_for_sessions (sa, sb);

  g_assert_true (bl_diff_get_alignment (diff, BL_DIFF_ALIGN_START, NULL, &off_a, &off_b, &error));
  g_assert_no_error (error);
  g_assert_cmpint (off_a, ==, bl_session_get_summary (sa)->start_ms);
  g_assert_cmpint (off_b, ==, bl_session_get_summary (sb)->start_ms);
  g_assert_cmpint (off_a, <=, oa.start_ms);
  g_assert_cmpint (off_b - off_a, ==, 3600000);

  g_assert_true (bl_diff_get_alignment (diff, BL_DIFF_ALIGN_BEACON, "app_load_complete",
                                        &off_a, &off_b, &error));
  g_assert_no_error (error);
  g_assert_cmpint (off_a, ==, oa.start_ms + 2650);
  g_assert_cmpint (off_b, ==, ob.start_ms + 2650);

  /* another spelling; the beacon lies at different times in the two runs */
  g_assert_true (bl_diff_get_alignment (diff, BL_DIFF_ALIGN_BEACON, "VodStartComplete",
                                        &off_a, &off_b, &error));
  g_assert_no_error (error);
  g_assert_cmpint (off_a, ==, oa.start_ms + beacon_offset (&oa, "vod_start_complete"));
  g_assert_cmpint (off_b, ==, ob.start_ms + beacon_offset (&ob, "vod_start_complete"));
  g_assert_cmpint (off_b - ob.start_ms, >, off_a - oa.start_ms);
  g_assert_cmpint (bl_diff_find_beacon (diff, BL_DIFF_SIDE_B, "vod_start_initiate"), ==,
                   ob.start_ms + beacon_offset (&ob, "vod_start_initiate"));

  g_assert_false (bl_diff_get_alignment (diff, BL_DIFF_ALIGN_BEACON, "app_exit",
                                         &off_a, &off_b, &error));
  g_assert_error (error, BL_DIFF_ERROR, BL_DIFF_ERROR_NO_BEACON);
  g_clear_error (&error);
  g_assert_cmpint (bl_diff_find_beacon (diff, BL_DIFF_SIDE_A, "app_exit"), ==, -1);

  common = bl_diff_dup_common_beacons (diff);
  g_assert_cmpuint (g_strv_length (common), ==, 8);
  g_assert_cmpstr (common[0], ==, "app_compile_initiate");
  g_assert_true (g_strv_contains ((const char * const *) common, "vod_start_complete"));

  /* B without beacons: nothing in common, alignment at a beacon fails */
  ob.with_beacons = FALSE;
  sc = session_from_options (&ob);
  no_beacons = bl_diff_new_for_sessions (sa, sc);
  {
    g_auto(GStrv) none = bl_diff_dup_common_beacons (no_beacons);

    g_assert_cmpuint (g_strv_length (none), ==, 0);
  }
  g_assert_false (bl_diff_get_alignment (no_beacons, BL_DIFF_ALIGN_BEACON, "app_load_complete",
                                         NULL, NULL, &error));
  g_assert_error (error, BL_DIFF_ERROR, BL_DIFF_ERROR_NO_BEACON);
  g_assert_nonnull (strstr (error->message, "Session B"));
}

/* Classification: each kind, the threshold in percent and as an amount,
 * absolute against normalised (where they disagree), the summary. */
static void
test_kinds (void)
{
  const char *a[] = { "T;main;load 100", "T;main;draw 50", "T;main;old 20", "T;main;same 30",
                      NULL };
  const char *b[] = { "T;main;load 150", "T;main;draw 20", "T;main;new 10", "T;main;same 31",
                      NULL };
  g_autoptr(BlDiff) diff = diff_from_lines (a, b);
  BlDiffThreshold abs1 = { FALSE, 1.0, 0.0 };
  BlDiffThreshold abs_fine = { FALSE, 0.4, 0.0 };
  BlDiffThreshold amount = { FALSE, 0.0, 60.0 };
  BlDiffThreshold norm1 = { TRUE, 1.0, 0.0 };
  BlDiffThreshold norm_fine = { TRUE, 0.2, 0.0 };
  guint32 load = lookup (diff, "T;main;load");
  guint32 draw = lookup (diff, "T;main;draw");
  guint32 old_node = lookup (diff, "T;main;old");
  guint32 new_node = lookup (diff, "T;main;new");
  guint32 same = lookup (diff, "T;main;same");
  guint32 f_same = find_function (diff, "same", NULL);
  g_autoptr(GArray) order = NULL;

  /* 1 % of A's 200 µs: changes under 2 µs are noise */
  g_assert_cmpfloat_with_epsilon (bl_diff_threshold_get_band (diff, BL_METRIC_CPU, &abs1), 2.0,
                                  1e-9);
  g_assert_cmpint (bl_diff_get_node_kind (diff, BL_METRIC_CPU, load, FALSE, &abs1), ==,
                   BL_DIFF_KIND_GROWN);
  g_assert_cmpint (bl_diff_get_node_kind (diff, BL_METRIC_CPU, draw, FALSE, &abs1), ==,
                   BL_DIFF_KIND_SHRUNK);
  g_assert_cmpint (bl_diff_get_node_kind (diff, BL_METRIC_CPU, old_node, FALSE, &abs1), ==,
                   BL_DIFF_KIND_REMOVED);
  g_assert_cmpint (bl_diff_get_node_kind (diff, BL_METRIC_CPU, new_node, TRUE, &abs1), ==,
                   BL_DIFF_KIND_NEW);
  g_assert_cmpint (bl_diff_get_node_kind (diff, BL_METRIC_CPU, same, FALSE, &abs1), ==,
                   BL_DIFF_KIND_NEUTRAL);
  /* a finer threshold: +1 µs is above 0.8 µs */
  g_assert_cmpint (bl_diff_get_node_kind (diff, BL_METRIC_CPU, same, FALSE, &abs_fine), ==,
                   BL_DIFF_KIND_GROWN);
  g_assert_cmpint (bl_diff_get_function_kind (diff, BL_METRIC_CPU, f_same, FALSE, &abs_fine),
                   ==, BL_DIFF_KIND_GROWN);

  /* an absolute amount: +50 and −30 are under 60 µs; new and removed stay */
  g_assert_cmpint (bl_diff_get_node_kind (diff, BL_METRIC_CPU, load, FALSE, &amount), ==,
                   BL_DIFF_KIND_NEUTRAL);
  g_assert_cmpint (bl_diff_get_node_kind (diff, BL_METRIC_CPU, draw, FALSE, &amount), ==,
                   BL_DIFF_KIND_NEUTRAL);
  g_assert_cmpint (bl_diff_get_node_kind (diff, BL_METRIC_CPU, new_node, FALSE, &amount), ==,
                   BL_DIFF_KIND_NEW);
  g_assert_cmpint (bl_diff_get_node_kind (diff, BL_METRIC_CPU, old_node, FALSE, &amount), ==,
                   BL_DIFF_KIND_REMOVED);
  /* main's total grew by 11 µs: above 2 µs */
  g_assert_cmpint (bl_diff_get_node_kind (diff, BL_METRIC_CPU, lookup (diff, "T;main"), TRUE,
                                          &abs1), ==, BL_DIFF_KIND_GROWN);

  /* normalised: same's share fell from 15 % to 31/211 = 14.69 % (−0.31 pp) */
  g_assert_cmpfloat_with_epsilon (bl_diff_threshold_get_band (diff, BL_METRIC_CPU, &norm1), 0.01,
                                  1e-12);
  g_assert_cmpint (bl_diff_get_node_kind (diff, BL_METRIC_CPU, same, FALSE, &norm1), ==,
                   BL_DIFF_KIND_NEUTRAL);
  g_assert_cmpint (bl_diff_get_node_kind (diff, BL_METRIC_CPU, same, FALSE, &norm_fine), ==,
                   BL_DIFF_KIND_SHRUNK);
  g_assert_cmpint (bl_diff_get_node_kind (diff, BL_METRIC_CPU, load, FALSE, &norm1), ==,
                   BL_DIFF_KIND_GROWN);
  /* an amount in normalised mode is a share of B's total: 60 / 211 */
  amount.normalized = TRUE;
  g_assert_cmpfloat_with_epsilon (bl_diff_threshold_get_band (diff, BL_METRIC_CPU, &amount),
                                  60.0 / 211.0, 1e-12);

  /* ranked by the size of the self change: load +50, draw −30, old −20, new +10,
   * same +1; main has no self value on either side but a total */
  order = bl_diff_rank_functions (diff, BL_METRIC_CPU, FALSE, FALSE);
  g_assert_cmpuint (order->len, ==, 6);
  g_assert_cmpstr (bl_diff_get_function_name (diff, g_array_index (order, guint32, 0)), ==,
                   "load");
  g_assert_cmpstr (bl_diff_get_function_name (diff, g_array_index (order, guint32, 1)), ==,
                   "draw");
  g_assert_cmpstr (bl_diff_get_function_name (diff, g_array_index (order, guint32, 2)), ==,
                   "old");
  g_assert_cmpstr (bl_diff_get_function_name (diff, g_array_index (order, guint32, 3)), ==,
                   "new");
  g_assert_cmpstr (bl_diff_get_function_name (diff, g_array_index (order, guint32, 4)), ==,
                   "same");

  g_assert_cmpstr (bl_diff_kind_get_name (BL_DIFF_KIND_REMOVED), ==, "removed");
  g_assert_cmpstr (bl_diff_kind_get_display_name (BL_DIFF_KIND_NEW), ==, "New");
}

static void
test_summary (void)
{
  const char *a[] = { "T;main;load 100", "T;main;draw 50", "T;main;old 20", "T;main;same 30",
                      NULL };
  const char *b[] = { "T;main;load 150", "T;main;draw 20", "T;main;new 10", "T;main;same 31",
                      NULL };
  const char *c[] = { "T;main;load 101", "T;main;draw 50", "T;main;old 20", "T;main;same 29",
                      NULL };
  g_autoptr(BlDiff) diff = diff_from_lines (a, b);
  g_autoptr(BlDiff) quiet = diff_from_lines (a, c);
  BlDiffThreshold abs1 = { FALSE, 1.0, 0.0 };
  BlDiffThreshold norm1 = { TRUE, 1.0, 0.0 };
  BlDiffThreshold both = { FALSE, 2.0, 5.0 };
  BlDiffThreshold automatic = { FALSE, BL_DIFF_THRESHOLD_AUTO, 0.0 };
  BlDiffSummary summary;
  g_autofree char *text = NULL;
  g_autofree char *norm_text = NULL;
  g_autofree char *quiet_text = NULL;
  g_autofree char *threshold_text = NULL;
  g_autofree char *auto_text = NULL;

  bl_diff_summarize (diff, BL_METRIC_CPU, &abs1, &summary);
  g_assert_cmpuint (summary.n_kind[BL_DIFF_KIND_GROWN], ==, 1);
  g_assert_cmpuint (summary.n_kind[BL_DIFF_KIND_NEW], ==, 1);
  g_assert_cmpuint (summary.n_kind[BL_DIFF_KIND_SHRUNK], ==, 1);
  g_assert_cmpuint (summary.n_kind[BL_DIFF_KIND_REMOVED], ==, 1);
  g_assert_cmpuint (summary.n_kind[BL_DIFF_KIND_NEUTRAL], ==, 2);    /* same, main */
  g_assert_cmpfloat (summary.grown, ==, 60.0);
  g_assert_cmpfloat (summary.shrunk, ==, -50.0);
  g_assert_cmpuint (summary.n_largest, ==, 2);
  text = bl_diff_summary_to_string (diff, &summary);
  g_assert_cmpstr (text, ==,
                   "2 functions got slower by 60 µs in total (1 new); the largest: "
                   "load (+50 µs), new (+10 µs). 2 functions got faster by 50 µs in total "
                   "(1 removed); the largest: draw (−30 µs), old (−20 µs).");

  /* normalised: shares of each side's total; same fell 0.31 pp, under 1 pp */
  bl_diff_summarize (diff, BL_METRIC_CPU, &norm1, &summary);
  g_assert_cmpuint (summary.n_kind[BL_DIFF_KIND_NEUTRAL], ==, 2);
  norm_text = bl_diff_summary_to_string (diff, &summary);
  g_assert_cmpstr (norm_text, ==,
                   "2 functions got slower by 25.83 pp in total (1 new); the largest: "
                   "load (+21.09 pp), new (+4.74 pp). 2 functions got faster by 25.52 pp in "
                   "total (1 removed); the largest: draw (−15.52 pp), old (−10.00 pp).");

  /* nothing above 1 % */
  bl_diff_summarize (quiet, BL_METRIC_CPU, &abs1, &summary);
  quiet_text = bl_diff_summary_to_string (quiet, &summary);
  g_assert_cmpstr (quiet_text, ==,
                   "No function got slower or faster beyond the noise threshold.");

  threshold_text = bl_diff_threshold_to_string (diff, BL_METRIC_CPU, &both);
  g_assert_cmpstr (threshold_text, ==, "2.0 % of the total or 5 µs");
  /* fewer than four functions on both sides (same and load, draw): 1 % */
  auto_text = bl_diff_threshold_to_string (diff, BL_METRIC_CPU, &automatic);
  g_assert_cmpstr (auto_text, ==, "1.0 % of the total (automatic)");
  bl_diff_summarize (diff, BL_METRIC_CPU, &automatic, &summary);
  g_assert_cmpfloat (summary.threshold.pct, ==, 1.0);
}

/* The automatic threshold: twice the median residual of the shared
 * functions once the length factor between the runs is taken out. */
static void
test_auto_threshold (void)
{
  const char *a[] = { "T;f1 100", "T;f2 100", "T;f3 100", "T;f4 100", NULL };
  /* k = median ln (b / a) = (ln 1 + ln 1.06) / 2; residuals |b e^-k − a| / 400:
   * .72, .74, 2.17 and 6.57 % → median 1.457 % → 2.9 % */
  const char *b[] = { "T;f1 106", "T;f2 94", "T;f3 100", "T;f4 130", NULL };
  /* twice as long, one function regressed: the length factor is not noise */
  const char *longer[] = { "T;f1 200", "T;f2 200", "T;f3 200", "T;f4 260", NULL };
  const char *calm[] = { "T;f1 100", "T;f2 100", "T;f3 100", "T;f4 101", NULL };
  const char *wild[] = { "T;f1 400", "T;f2 10", "T;f3 300", "T;f4 10", NULL };
  const char *few[] = { "T;f1 300", "T;f2 100", NULL };
  g_autoptr(BlDiff) diff = diff_from_lines (a, b);
  g_autoptr(BlDiff) longer_diff = diff_from_lines (a, longer);
  g_autoptr(BlDiff) calm_diff = diff_from_lines (a, calm);
  g_autoptr(BlDiff) wild_diff = diff_from_lines (a, wild);
  g_autoptr(BlDiff) few_diff = diff_from_lines (a, few);
  BlDiffThreshold automatic = { FALSE, BL_DIFF_THRESHOLD_AUTO, 0.0 };

  g_assert_cmpfloat_with_epsilon (bl_diff_get_auto_threshold (diff, BL_METRIC_CPU), 2.9, 1e-9);
  g_assert_cmpfloat_with_epsilon (bl_diff_threshold_get_pct (diff, BL_METRIC_CPU, &automatic),
                                  2.9, 1e-9);
  /* 2.9 % of A's 400 µs */
  g_assert_cmpfloat_with_epsilon (bl_diff_threshold_get_band (diff, BL_METRIC_CPU, &automatic),
                                  11.6, 1e-9);
  g_assert_cmpfloat_with_epsilon (bl_diff_get_auto_threshold (longer_diff, BL_METRIC_CPU), 0.1,
                                  1e-9);
  g_assert_cmpfloat_with_epsilon (bl_diff_get_auto_threshold (calm_diff, BL_METRIC_CPU), 0.1,
                                  1e-9);
  g_assert_cmpfloat_with_epsilon (bl_diff_get_auto_threshold (wild_diff, BL_METRIC_CPU), 5.0,
                                  1e-9);
  g_assert_cmpfloat_with_epsilon (bl_diff_get_auto_threshold (few_diff, BL_METRIC_CPU), 1.0,
                                  1e-9);
  g_assert_cmpfloat_with_epsilon (bl_diff_get_auto_threshold (diff, BL_METRIC_ALLOC_BYTES), 1.0,
                                  1e-9);
}

static BlProfile *
speedscope_bytes (const char *weights)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = g_strdup_printf (
    "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
    "\"shared\":{\"frames\":[{\"name\":\"f\"},{\"name\":\"g\"}]},\"profiles\":["
    "{\"type\":\"sampled\",\"name\":\"t\",\"unit\":\"bytes\",\"samples\":[[0],[1]],"
    "\"weights\":[%s]}]}", weights);
  BlProfile *profile = bl_speedscope_read_memory ((const guint8 *) json, strlen (json), &error);

  g_assert_no_error (error);
  g_assert_nonnull (profile);

  return profile;
}

/* A side with decimals (33.25 B) against one without: changes in bytes. */
static void
test_decimals (void)
{
  g_autoptr(BlProfile) a = speedscope_bytes ("33.25,10");
  g_autoptr(BlProfile) b = speedscope_bytes ("40,10");
  g_autoptr(BlDiff) diff = NULL;
  BlDiffThreshold abs1 = { FALSE, 1.0, 0.0 };
  BlDiffSummary summary;
  BlDiffChange change;
  g_autofree char *text = NULL;
  g_autofree char *value = NULL;
  guint32 f;

  g_assert_cmpuint (bl_profile_get_metric_decimals (a, BL_METRIC_ALLOC_BYTES), ==, 2);
  g_assert_cmpuint (bl_profile_get_metric_decimals (b, BL_METRIC_ALLOC_BYTES), ==, 0);
  diff = bl_diff_new (a, b);
  f = find_function (diff, "f", NULL);
  g_assert_cmpuint (f, !=, BL_NODE_NONE);
  bl_diff_get_function_change (diff, BL_METRIC_ALLOC_BYTES, f, FALSE, FALSE, &change);
  g_assert_cmpfloat_with_epsilon (change.a, 33.25, 1e-9);
  g_assert_cmpfloat_with_epsilon (change.b, 40.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (change.delta, 6.75, 1e-9);
  value = bl_diff_format_value (diff, BL_METRIC_ALLOC_BYTES, change.delta, FALSE, TRUE);
  g_assert_cmpstr (value, ==, "+6.75 B");

  bl_diff_summarize (diff, BL_METRIC_ALLOC_BYTES, &abs1, &summary);
  text = bl_diff_summary_to_string (diff, &summary);
  g_assert_cmpstr (text, ==, "1 function grew by 6.75 B in total; the largest: f (+6.75 B).");
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
  g_test_add_func ("/model/diff/samples", test_samples);
  g_test_add_func ("/model/diff/threads", test_threads);
  g_test_add_func ("/model/diff/kinds", test_kinds);
  g_test_add_func ("/model/diff/summary", test_summary);
  g_test_add_func ("/model/diff/auto-threshold", test_auto_threshold);
  g_test_add_func ("/model/diff/decimals", test_decimals);
  g_test_add_func ("/model/diff/session-figures", test_session_figures);
  g_test_add_func ("/model/diff/session-missing-data", test_session_missing_data);
  g_test_add_func ("/model/diff/session-alignment", test_session_alignment);

  return g_test_run ();
}
