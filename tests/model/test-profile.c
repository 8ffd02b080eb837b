/* test-profile.c — BlProfile built by hand: totals, functions, lines, metrics
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "bl-model.h"

static void
test_build_and_totals (void)
{
  g_autoptr(BlProfile) p = bl_profile_new ("test");
  guint32 t, a, b, c, b2;

  t = bl_profile_add_thread (p, bl_profile_intern (p, "T"));
  g_assert_cmpuint (bl_profile_add_thread (p, bl_profile_intern (p, "T")), ==, t);
  a = bl_profile_add_child (p, t, bl_profile_intern (p, "a"), 0, 1);
  c = bl_profile_add_child (p, a, bl_profile_intern (p, "c"), 0, 1);
  b = bl_profile_add_child (p, a, bl_profile_intern (p, "b"), 0, 1);
  b2 = bl_profile_add_child (p, a, bl_profile_intern (p, "b"), 0, 1);
  g_assert_cmpuint (b, ==, b2);

  bl_profile_add_value (p, a, BL_METRIC_SAMPLES, 1);
  bl_profile_add_value (p, b, BL_METRIC_SAMPLES, 2);
  bl_profile_add_value (p, c, BL_METRIC_SAMPLES, 3);
  bl_profile_add_value (p, c, BL_METRIC_SAMPLES, 4);
  bl_profile_finish (p);

  g_assert_true (bl_profile_has_metric (p, BL_METRIC_SAMPLES));
  g_assert_false (bl_profile_has_metric (p, BL_METRIC_CPU));
  g_assert_cmpint (bl_profile_get_default_metric (p), ==, BL_METRIC_SAMPLES);
  g_assert_cmpuint (bl_profile_get_total (p, BL_METRIC_SAMPLES, a), ==, 10);
  g_assert_cmpuint (bl_profile_get_total (p, BL_METRIC_SAMPLES, t), ==, 10);
  g_assert_cmpuint (bl_profile_get_self (p, BL_METRIC_SAMPLES, c), ==, 7);
  g_assert_cmpuint (bl_profile_get_grand_total (p, BL_METRIC_SAMPLES), ==, 10);

  /* children are sorted by name after finish */
  g_assert_cmpuint (bl_profile_get_node (p, a)->first_child, ==, b);
  g_assert_cmpuint (bl_profile_get_node (p, b)->next_sibling, ==, c);
  g_assert_cmpuint (bl_profile_get_node (p, c)->depth, ==, 2);
}

/* Node totals are made per metric when first read, and a finished profile
 * is shared between threads: threads that ask at once all get the one
 * column, with the same sums (saturating) as the grand total. */
typedef struct
{
  BlProfile     *profile;
  const guint64 *column;
} TotalsJob;

static gpointer
read_totals (gpointer data)
{
  TotalsJob *job = data;

  job->column = bl_profile_get_total_array (job->profile, BL_METRIC_CPU);
  return NULL;
}

static void
test_totals_made_on_demand (void)
{
  g_autoptr(BlProfile) p = bl_profile_new ("test");
  TotalsJob jobs[4];
  GThread *threads[G_N_ELEMENTS (jobs)];
  guint32 t, n = 0;

  t = bl_profile_add_thread (p, bl_profile_intern (p, "T"));
  for (guint i = 0; i < 20000; i++)
    {
      char name[16];

      g_snprintf (name, sizeof name, "f%u", i % 7);
      n = bl_profile_add_child (p, i % 3 == 0 ? t : n, bl_profile_intern (p, name), 0, 0);
      bl_profile_add_value (p, n, BL_METRIC_CPU, i + 1);
      bl_profile_add_value (p, n, BL_METRIC_WALL, 1);
    }
  bl_profile_add_value (p, n, BL_METRIC_CPU, G_MAXUINT64 - 5);
  bl_profile_finish (p);

  g_assert_cmpuint (bl_profile_get_grand_total (p, BL_METRIC_CPU), ==, G_MAXUINT64);
  g_assert_cmpuint (bl_profile_get_grand_total (p, BL_METRIC_WALL), ==, 20000);

  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    {
      jobs[i].profile = p;
      threads[i] = g_thread_new ("totals", read_totals, &jobs[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    {
      g_thread_join (threads[i]);
      g_assert_true (jobs[i].column == jobs[0].column);
    }
  g_assert_true (bl_profile_get_total_array (p, BL_METRIC_CPU) == jobs[0].column);
  g_assert_cmpuint (jobs[0].column[t], ==, G_MAXUINT64);
  g_assert_cmpuint (bl_profile_get_total (p, BL_METRIC_CPU, n), ==, G_MAXUINT64);
  g_assert_cmpuint (bl_profile_get_total (p, BL_METRIC_WALL, t), ==, 20000);
  /* a node's total is its self value and its children's totals */
  for (guint32 i = 0; i < bl_profile_get_n_nodes (p); i++)
    {
      guint64 sum = bl_profile_get_self (p, BL_METRIC_WALL, i);

      for (guint32 c = bl_profile_get_node (p, i)->first_child; c != BL_NODE_NONE;
           c = bl_profile_get_node (p, c)->next_sibling)
        sum += bl_profile_get_total (p, BL_METRIC_WALL, c);
      g_assert_cmpuint (bl_profile_get_total (p, BL_METRIC_WALL, i), ==, sum);
    }
}

static void
test_function_recursion (void)
{
  g_autoptr(BlProfile) p = bl_profile_new ("test");
  guint32 f = bl_profile_intern (p, "f");
  guint32 g = bl_profile_intern (p, "g");
  guint32 t, n1, n2, n3, n4;
  guint32 ff = G_MAXUINT32, gf = G_MAXUINT32;

  /* T → f → g → f → g, each with self 1 */
  t = bl_profile_add_thread (p, bl_profile_intern (p, "T"));
  n1 = bl_profile_add_child (p, t, f, 0, 0);
  n2 = bl_profile_add_child (p, n1, g, 0, 0);
  n3 = bl_profile_add_child (p, n2, f, 0, 0);
  n4 = bl_profile_add_child (p, n3, g, 0, 0);
  bl_profile_add_value (p, n1, BL_METRIC_CPU, 1);
  bl_profile_add_value (p, n2, BL_METRIC_CPU, 1);
  bl_profile_add_value (p, n3, BL_METRIC_CPU, 1);
  bl_profile_add_value (p, n4, BL_METRIC_CPU, 1);
  bl_profile_finish (p);

  for (guint i = 0; i < bl_profile_get_n_functions (p); i++)
    {
      if (bl_profile_get_function (p, i)->name == f)
        ff = i;
      if (bl_profile_get_function (p, i)->name == g)
        gf = i;
    }
  g_assert_cmpuint (bl_profile_get_node_function (p, n3), ==, ff);
  g_assert_cmpuint (bl_profile_get_function_self (p, BL_METRIC_CPU, ff), ==, 2);
  g_assert_cmpuint (bl_profile_get_function_total (p, BL_METRIC_CPU, ff), ==, 4);
  g_assert_cmpuint (bl_profile_get_function_total (p, BL_METRIC_CPU, gf), ==, 3);
}

static gpointer
read_function_sums (gpointer data)
{
  BlProfile *p = data;
  guint64 sum = 0;

  for (guint32 f = 0; f < bl_profile_get_n_functions (p); f++)
    sum += bl_profile_get_function_total (p, BL_METRIC_WALL, f) +
           bl_profile_get_function_self (p, BL_METRIC_CALLS, f);
  for (guint32 i = 0; i < bl_profile_get_n_nodes (p); i++)
    sum += bl_profile_is_outermost (p, i);

  return GSIZE_TO_POINTER (sum);
}

/* A random tree (children after their parents, as a profile has them):
 * which nodes are outermost, and the functions' and grand totals, against
 * their definitions walked out node by node. Which nodes are outermost and
 * the functions' sums are made when first asked for, here by two threads
 * at once first. */
static void
test_outermost_and_totals_random (void)
{
  static const BlMetricId metrics[] = { BL_METRIC_CPU, BL_METRIC_WALL, BL_METRIC_CALLS };
  g_autoptr(BlProfile) p = bl_profile_new ("test");
  GRand *rand = g_rand_new_with_seed (11);
  guint32 names[12], files[2];
  GThread *threads[2];
  gpointer results[2];
  guint32 n;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", i);

      names[i] = bl_profile_intern (p, name);
    }
  files[0] = bl_profile_intern (p, "a.brs");
  files[1] = bl_profile_intern (p, "b.brs");
  for (guint t = 0; t < 3; t++)
    {
      g_autofree char *name = g_strdup_printf ("T%u", t);

      bl_profile_add_thread (p, bl_profile_intern (p, name));
    }
  while (bl_profile_get_n_nodes (p) < 3000)
    {
      guint32 parent = g_rand_int_range (rand, 0, bl_profile_get_n_nodes (p));
      guint32 node;

      /* mostly deep: a parent among the last few nodes */
      if (g_rand_int_range (rand, 0, 4) != 0)
        parent = bl_profile_get_n_nodes (p) - 1 - g_rand_int_range (rand, 0,
                                                     MIN (8, bl_profile_get_n_nodes (p)));
      node = bl_profile_add_child (p, parent, names[g_rand_int_range (rand, 0, 12)],
                                   files[g_rand_int_range (rand, 0, 2)], 1);
      for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
        bl_profile_add_value (p, node, metrics[m], g_rand_int_range (rand, 0, 1000));
    }
  g_rand_free (rand);

  bl_profile_finish (p);
  for (guint i = 0; i < 2; i++)
    threads[i] = g_thread_new ("sums", read_function_sums, p);
  for (guint i = 0; i < 2; i++)
    results[i] = g_thread_join (threads[i]);
  g_assert_true (results[0] == results[1]);

  n = bl_profile_get_n_nodes (p);
  for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
    {
      g_autofree guint64 *function_self = g_new0 (guint64, bl_profile_get_n_functions (p));
      g_autofree guint64 *function_total = g_new0 (guint64, bl_profile_get_n_functions (p));
      guint64 grand = 0;
      guint n_outermost = 0, n_inner = 0;

      for (guint32 i = 0; i < n; i++)
        {
          guint32 f = bl_profile_get_node_function (p, i);
          gboolean outermost = TRUE;

          for (guint32 a = bl_profile_get_node (p, i)->parent; a != BL_NODE_NONE;
               a = bl_profile_get_node (p, a)->parent)
            if (bl_profile_get_node_function (p, a) == f)
              outermost = FALSE;
          g_assert_cmpint (bl_profile_is_outermost (p, i), ==, outermost);
          if (outermost)
            {
              function_total[f] += bl_profile_get_total (p, metrics[m], i);
              n_outermost++;
            }
          else
            n_inner++;
          function_self[f] += bl_profile_get_self (p, metrics[m], i);
          if (bl_profile_get_node (p, i)->parent == BL_NODE_NONE)
            grand += bl_profile_get_total (p, metrics[m], i);
        }
      /* the tree has both kinds */
      g_assert_cmpuint (n_outermost, >, 100);
      g_assert_cmpuint (n_inner, >, 100);

      for (guint32 f = 0; f < bl_profile_get_n_functions (p); f++)
        {
          g_assert_cmpuint (bl_profile_get_function_self (p, metrics[m], f), ==,
                            function_self[f]);
          g_assert_cmpuint (bl_profile_get_function_total (p, metrics[m], f), ==,
                            function_total[f]);
        }
      g_assert_cmpuint (bl_profile_get_grand_total (p, metrics[m]), ==, grand);
      g_assert_cmpuint (grand, >, 0);
    }
}

static void
test_stack_string_and_lines (void)
{
  g_autoptr(BlProfile) p = bl_profile_new ("test");
  guint32 file = bl_profile_intern (p, "pkg:/source/a.brs");
  guint32 fn = bl_profile_intern (p, "draw");
  guint32 t, n, l1, l2;
  g_autofree char *stack = NULL;

  t = bl_profile_add_thread (p, bl_profile_intern (p, "Thread main"));
  n = bl_profile_add_child (p, t, fn, file, 10);
  l1 = bl_profile_lookup_line (p, file, 12, fn);
  l2 = bl_profile_lookup_line (p, file, 12, fn);
  g_assert_cmpuint (l1, ==, l2);
  bl_profile_add_line_value (p, l1, BL_METRIC_CPU, 5);
  bl_profile_add_line_value (p, l2, BL_METRIC_CPU, 6);
  bl_profile_sub_line_value (p, l2, BL_METRIC_CPU, 100);   /* clamps at zero */
  bl_profile_add_line_value (p, l2, BL_METRIC_CPU, 3);
  bl_profile_finish (p);

  stack = bl_profile_dup_stack_string (p, n, ';');
  g_assert_cmpstr (stack, ==, "Thread main;draw");
  g_assert_cmpstr (bl_profile_get_node_file (p, n), ==, "pkg:/source/a.brs");
  g_assert_cmpuint (bl_profile_get_n_lines (p), ==, 1);
  g_assert_cmpuint (bl_profile_get_line_value (p, BL_METRIC_CPU, l1), ==, 3);
  g_assert_cmpuint (bl_profile_find_string (p, "draw"), ==, fn);
  g_assert_cmpuint (bl_profile_find_string (p, "nope"), ==, G_MAXUINT32);
}

static void
test_incomplete_and_warnings (void)
{
  g_autoptr(BlProfile) p = bl_profile_new ("test");

  bl_profile_set_incomplete (p, "Ended at byte 5.");
  bl_profile_add_warning (p, "Something else.");
  bl_profile_finish (p);

  g_assert_true (bl_profile_is_incomplete (p));
  g_assert_cmpstr (bl_profile_get_incomplete_reason (p), ==, "Ended at byte 5.");
  g_assert_cmpstr (bl_profile_get_warning (p), ==, "Ended at byte 5. Something else.");
}

static void
test_metric_table (void)
{
  for (guint m = 0; m < BL_N_METRICS; m++)
    {
      const BlMetricInfo *info = bl_metric_get_info (m);

      g_assert_cmpint (info->id, ==, m);
      g_assert_cmpint (bl_metric_from_name (info->name), ==, m);
      g_assert_nonnull (info->display_name);
    }
  g_assert_cmpint (bl_metric_from_name ("alloc-bytes"), ==, BL_METRIC_ALLOC_BYTES);
  g_assert_cmpint (bl_metric_from_name ("live-count"), ==, BL_METRIC_LIVE_COUNT);
  g_assert_cmpint (bl_metric_from_name ("bogus"), ==, BL_METRIC_INVALID);
  g_assert_false (bl_metric_get_info (BL_METRIC_CALLS)->additive);
  g_assert_cmpstr (bl_unit_get_speedscope_name (BL_UNIT_MICROSECONDS), ==, "microseconds");

  {
    g_autofree char *b = bl_format_bytes (3 * 1024 * 1024);
    g_autofree char *d = bl_format_duration_us (1500);

    g_assert_cmpstr (b, ==, "3.0 MiB");
    g_assert_cmpstr (d, ==, "1.50 ms");
  }
}

/* a sampled thread's time order: samples end to end, each as wide as its
 * weight; consecutive samples sharing a frame share its bar; a frame left
 * and entered again is two bars */
static void
test_sample_spans (void)
{
  g_autoptr(BlProfile) p = bl_profile_new ("test");
  guint32 t, u, a, b, c, x;
  g_autofree BlSpanList *spans = NULL;
  BlSpanList list;
  guint64 duration = 0;
  static const struct { guint32 node, depth; guint64 start, end; } expected[] = {
    { 0, 1,  0, 10 },   /* a */
    { 1, 2,  0,  6 },   /* b, over three samples */
    { 2, 3,  5,  6 },   /* c */
    { 3, 1, 10, 12 },   /* x */
    { 0, 1, 12, 17 },   /* a again, after x */
    { 1, 2, 12, 17 },   /* b again */
    { 0, 1, 18, 20 },   /* a once more, after an empty stack */
    { 1, 2, 18, 20 },
    { 2, 3, 18, 20 },
  };
  guint32 nodes[4];

  bl_profile_enable_metric (p, BL_METRIC_SAMPLES);
  t = bl_profile_add_thread (p, bl_profile_intern (p, "T"));
  u = bl_profile_add_thread (p, bl_profile_intern (p, "U"));
  a = bl_profile_add_child (p, t, bl_profile_intern (p, "a"), 0, 0);
  b = bl_profile_add_child (p, a, bl_profile_intern (p, "b"), 0, 0);
  c = bl_profile_add_child (p, b, bl_profile_intern (p, "c"), 0, 0);
  x = bl_profile_add_child (p, t, bl_profile_intern (p, "x"), 0, 0);
  nodes[0] = a;
  nodes[1] = b;
  nodes[2] = c;
  nodes[3] = x;

  g_assert_false (bl_profile_has_time_order (p));
  bl_profile_add_sample (p, 0, b, 2);
  bl_profile_add_sample (p, 0, x, 0);       /* no weight: takes no time */
  bl_profile_add_sample (p, 0, b, 3);
  bl_profile_add_sample (p, 0, c, 1);
  bl_profile_add_sample (p, 0, a, 4);
  bl_profile_add_sample (p, 0, x, 2);
  bl_profile_add_sample (p, 0, b, 5);
  bl_profile_add_sample (p, 0, t, 1);       /* an empty stack */
  bl_profile_add_sample (p, 0, c, 2);
  bl_profile_add_value (p, a, BL_METRIC_SAMPLES, 4);
  bl_profile_add_value (p, b, BL_METRIC_SAMPLES, 10);
  bl_profile_add_value (p, c, BL_METRIC_SAMPLES, 3);
  bl_profile_add_value (p, x, BL_METRIC_SAMPLES, 2);
  bl_profile_add_value (p, t, BL_METRIC_SAMPLES, 1);
  bl_profile_finish (p);

  g_assert_true (bl_profile_has_time_order (p));
  spans = bl_profile_dup_sample_spans (p, 0, &duration);
  g_assert_nonnull (spans);
  g_assert_cmpuint (spans->n_spans, ==, G_N_ELEMENTS (expected));
  g_assert_cmpuint (spans->n_longs, ==, 0);
  g_assert_cmpuint (duration, ==, 20);
  for (gsize i = 0; i < spans->n_spans; i++)
    {
      g_assert_cmpuint (spans->spans[i].node, ==, nodes[expected[i].node]);
      g_assert_cmpuint (bl_span_list_get_depth (spans, i), ==, expected[i].depth);
      g_assert_cmpuint (spans->spans[i].start, ==, expected[i].start);
      g_assert_cmpuint (bl_span_list_get_end (spans, i), ==, expected[i].end);
    }

  /* a thread without samples has none; the evented spans stay apart */
  g_assert_null (bl_profile_dup_sample_spans (p, bl_profile_get_node (p, u)->thread, &duration));
  g_assert_cmpuint (duration, ==, 0);
  g_assert_false (bl_profile_get_spans (p, 0, &list));
  g_assert_cmpuint (list.n_spans, ==, 0);
}

/* A sampled thread whose spans last 2^32 and more: their durations kept
 * aside, found again by span index. */
static void
test_sample_spans_long (void)
{
  g_autoptr(BlProfile) p = bl_profile_new ("test");
  g_autofree BlSpanList *spans = NULL;
  const guint64 big = G_GUINT64_CONSTANT (1) << 32;
  guint64 duration = 0;
  guint32 t, a, b, c;

  bl_profile_enable_metric (p, BL_METRIC_TIME_NS);
  t = bl_profile_add_thread (p, bl_profile_intern (p, "T"));
  a = bl_profile_add_child (p, t, bl_profile_intern (p, "a"), 0, 0);
  b = bl_profile_add_child (p, a, bl_profile_intern (p, "b"), 0, 0);
  c = bl_profile_add_child (p, t, bl_profile_intern (p, "c"), 0, 0);
  bl_profile_add_sample (p, 0, b, big - 1);
  bl_profile_add_sample (p, 0, a, 7);
  bl_profile_add_sample (p, 0, c, big - 2);
  bl_profile_add_value (p, b, BL_METRIC_TIME_NS, big - 1);
  bl_profile_finish (p);

  /* a [0, 2^32 + 6) holding b [0, 2^32 - 1), then c [2^32 + 6, 2^33 + 4) */
  spans = bl_profile_dup_sample_spans (p, 0, &duration);
  g_assert_nonnull (spans);
  g_assert_cmpuint (duration, ==, 2 * big + 4);
  g_assert_cmpuint (spans->n_spans, ==, 3);
  g_assert_cmpuint (spans->n_longs, ==, 2);
  g_assert_cmpuint (spans->spans[0].node, ==, a);
  g_assert_cmpuint (bl_span_list_get_end (spans, 0), ==, big + 6);
  g_assert_cmpuint (spans->spans[1].node, ==, b);
  g_assert_cmpuint (bl_span_list_get_end (spans, 1), ==, big - 1);
  g_assert_cmpuint (bl_span_list_get_depth (spans, 1), ==, 2);
  g_assert_cmpuint (spans->spans[2].start, ==, big + 6);
  g_assert_cmpuint (bl_span_list_get_duration (spans, 2), ==, big - 2);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/profile/build-and-totals", test_build_and_totals);
  g_test_add_func ("/model/profile/function-recursion", test_function_recursion);
  g_test_add_func ("/model/profile/outermost-and-totals-random", test_outermost_and_totals_random);
  g_test_add_func ("/model/profile/totals-made-on-demand", test_totals_made_on_demand);
  g_test_add_func ("/model/profile/stack-string-and-lines", test_stack_string_and_lines);
  g_test_add_func ("/model/profile/incomplete-and-warnings", test_incomplete_and_warnings);
  g_test_add_func ("/model/profile/metric-table", test_metric_table);
  g_test_add_func ("/model/profile/sample-spans", test_sample_spans);
  g_test_add_func ("/model/profile/sample-spans-long", test_sample_spans_long);

  return g_test_run ();
}
