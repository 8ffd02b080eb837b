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

/* Many spans (their block grows many times over): 5,000 samples, stacks
 * a;b;c and a;b;d in turn, weights 1, 2, 3, …: a and b open throughout, a
 * span of depth 3 per sample, each where the samples before it end. */
static void
test_sample_spans_many (void)
{
  g_autoptr(BlProfile) p = bl_profile_new ("test");
  g_autofree BlSpanList *spans = NULL;
  const guint n = 5000;
  guint64 duration = 0, t = 0;
  guint32 root, a, b, c, d;

  bl_profile_enable_metric (p, BL_METRIC_SAMPLES);
  root = bl_profile_add_thread (p, bl_profile_intern (p, "T"));
  a = bl_profile_add_child (p, root, bl_profile_intern (p, "a"), 0, 0);
  b = bl_profile_add_child (p, a, bl_profile_intern (p, "b"), 0, 0);
  c = bl_profile_add_child (p, b, bl_profile_intern (p, "c"), 0, 0);
  d = bl_profile_add_child (p, b, bl_profile_intern (p, "d"), 0, 0);
  for (guint i = 0; i < n; i++)
    bl_profile_add_sample (p, 0, i % 2 ? d : c, i + 1);
  bl_profile_add_value (p, c, BL_METRIC_SAMPLES, n / 2);
  bl_profile_add_value (p, d, BL_METRIC_SAMPLES, n / 2);
  bl_profile_finish (p);

  spans = bl_profile_dup_sample_spans (p, 0, &duration);
  g_assert_nonnull (spans);
  g_assert_cmpuint (duration, ==, (guint64) n * (n + 1) / 2);
  g_assert_cmpuint (spans->n_spans, ==, n + 2);
  g_assert_cmpuint (spans->n_longs, ==, 0);
  g_assert_cmpuint (spans->spans[0].node, ==, a);
  g_assert_cmpuint (bl_span_list_get_end (spans, 0), ==, duration);
  g_assert_cmpuint (spans->spans[1].node, ==, b);
  g_assert_cmpuint (bl_span_list_get_end (spans, 1), ==, duration);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpuint (spans->spans[i + 2].node, ==, i % 2 ? d : c);
      g_assert_cmpuint (spans->spans[i + 2].start, ==, t);
      g_assert_cmpuint (bl_span_list_get_duration (spans, i + 2), ==, i + 1);
      g_assert_cmpuint (bl_span_list_get_depth (spans, i + 2), ==, 3);
      t += i + 1;
    }
}

/* the naive reference: a node's total and deepest from its children's */
static guint32
reference_deepest (BlProfile  *p,
                   BlMetricId  metric,
                   guint32     node,
                   guint64    *totals,
                   guint32    *deepest)
{
  const BlNode *n = bl_profile_get_node (p, node);
  guint64 total = bl_profile_get_self (p, metric, node);
  guint32 d = 0;

  for (guint32 c = n->first_child; c != BL_NODE_NONE; c = bl_profile_get_node (p, c)->next_sibling)
    {
      guint32 below;

      g_assert_cmpuint (bl_profile_get_node (p, c)->depth, ==, n->depth + 1);
      below = reference_deepest (p, metric, c, totals, deepest);
      d = MAX (d, below);
      total += totals[c];
    }
  if (total != 0)
    d = MAX (d, n->depth);

  totals[node] = total;
  deepest[node] = d;

  return d;
}

typedef struct
{
  BlProfile      *profile;
  gboolean        deepest;
  gconstpointer   column;
} ColumnJob;

static gpointer
read_column (gpointer data)
{
  ColumnJob *job = data;

  if (job->deepest)
    job->column = bl_profile_get_deepest_array (job->profile, BL_METRIC_ALLOC_BYTES);
  else
    job->column = bl_profile_get_total_array (job->profile, BL_METRIC_ALLOC_BYTES);

  return NULL;
}

/* A random tree of 4000 nodes over three threads against the reference:
 * cpu asked deepest first, wall totals first, and alloc-bytes, nonzero on
 * one node in twenty so that whole branches are zero, by four threads at
 * once, two asking for each column. */
static void
test_deepest_random (void)
{
  static const BlMetricId metrics[] = { BL_METRIC_CPU, BL_METRIC_WALL, BL_METRIC_ALLOC_BYTES };
  g_autoptr(BlProfile) p = bl_profile_new ("test");
  GRand *rand = g_rand_new_with_seed (20261202);
  guint32 names[10];
  ColumnJob jobs[4];
  GThread *threads[G_N_ELEMENTS (jobs)];
  guint n;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", i);

      names[i] = bl_profile_intern (p, name);
    }
  for (guint t = 0; t < 3; t++)
    {
      g_autofree char *name = g_strdup_printf ("T%u", t);

      bl_profile_add_thread (p, bl_profile_intern (p, name));
    }
  for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
    bl_profile_enable_metric (p, metrics[m]);
  while (bl_profile_get_n_nodes (p) < 4000)
    {
      guint32 count = bl_profile_get_n_nodes (p);
      guint32 parent = g_rand_int_range (rand, 0, count);
      guint32 node;

      /* mostly deep: a parent among the last few nodes */
      if (g_rand_int_range (rand, 0, 4) != 0)
        parent = count - 1 - g_rand_int_range (rand, 0, MIN (8, count));
      node = bl_profile_add_child (p, parent, names[g_rand_int_range (rand, 0, 10)], 0, 0);
      /* cpu on half the nodes, wall skewed: a few heavy ones */
      if (g_rand_boolean (rand))
        bl_profile_add_value (p, node, BL_METRIC_CPU, g_rand_int_range (rand, 1, 1000));
      bl_profile_add_value (p, node, BL_METRIC_WALL,
                            g_rand_int_range (rand, 0, 100) == 0 ? 1000000 :
                            g_rand_int_range (rand, 0, 3));
      if (g_rand_int_range (rand, 0, 20) == 0)
        bl_profile_add_value (p, node, BL_METRIC_ALLOC_BYTES, g_rand_int_range (rand, 1, 4096));
    }
  g_rand_free (rand);
  bl_profile_finish (p);
  n = bl_profile_get_n_nodes (p);

  for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
    {
      g_autofree guint64 *want_total = g_new0 (guint64, n);
      g_autofree guint32 *want_deepest = g_new0 (guint32, n);
      const guint64 *total = NULL;
      const guint32 *deepest = NULL;
      guint n_zero = 0, n_below = 0, n_own = 0;

      /* the reference reads self values only: no column is made before */
      for (guint t = 0; t < bl_profile_get_n_threads (p); t++)
        reference_deepest (p, metrics[m], bl_profile_get_thread_root (p, t),
                           want_total, want_deepest);

      switch (metrics[m])
        {
        case BL_METRIC_CPU:
          deepest = bl_profile_get_deepest_array (p, metrics[m]);
          total = bl_profile_get_total_array (p, metrics[m]);
          break;
        case BL_METRIC_WALL:
          total = bl_profile_get_total_array (p, metrics[m]);
          deepest = bl_profile_get_deepest_array (p, metrics[m]);
          break;
        default:
          for (guint j = 0; j < G_N_ELEMENTS (jobs); j++)
            {
              jobs[j].profile = p;
              jobs[j].deepest = j % 2 == 0;
              jobs[j].column = NULL;
              threads[j] = g_thread_new ("columns", read_column, &jobs[j]);
            }
          for (guint j = 0; j < G_N_ELEMENTS (jobs); j++)
            g_thread_join (threads[j]);
          deepest = jobs[0].column;
          total = jobs[1].column;
          /* each column was made once, whichever thread made it */
          g_assert_true (jobs[2].column == jobs[0].column);
          g_assert_true (jobs[3].column == jobs[1].column);
          break;
        }
      g_assert_true (bl_profile_get_deepest_array (p, metrics[m]) == deepest);
      g_assert_true (bl_profile_get_total_array (p, metrics[m]) == total);

      for (guint32 i = 0; i < n; i++)
        {
          guint32 depth = bl_profile_get_node (p, i)->depth;

          g_assert_cmpuint (total[i], ==, want_total[i]);
          g_assert_cmpuint (deepest[i], ==, want_deepest[i]);
          if (want_total[i] == 0)
            n_zero++;
          else if (want_deepest[i] > depth)
            n_below++;
          else
            n_own++;
        }
      /* the tree has zero-total nodes, nodes whose deepest frame is below
       * them and non-zero nodes with nothing below */
      g_test_message ("metric %d: %u zero, %u deeper below, %u own depth",
                      metrics[m], n_zero, n_below, n_own);
      g_assert_cmpuint (n_zero, >, 100);
      g_assert_cmpuint (n_below, >, 100);
      g_assert_cmpuint (n_own, >, 20);
    }
}

/* The deepest column: per node, the greatest depth of a node with a
 * non-zero total in its subtree (itself included), 0 when its own total is
 * zero. A hand-built profile, the values worked out by hand:
 *
 *                       depth   cpu: self total deepest   wall: self total deepest
 *   T0                    0           0    8     4              0    7     5
 *     a                   1           5    8     4              0    7     5
 *       b                 2           0    0     0              3    3     2
 *         c               3           0    0     0              0    0     0
 *       f                 2           1    3     4              0    4     5
 *         g               3           0    2     4              0    4     5
 *           f             4           2    2     4              0    4     5
 *             g           5           0    0     0              4    4     5
 *     z                   1           0    0     0              0    0     0
 *       z1                2           0    0     0              0    0     0
 *   T1                    0           0    7     1              0    1     2
 *     x                   1           7    7     1              0    1     2
 *       y                 2           0    0     0              1    1     2
 *   T2                    0           0    0     0              1    1     0
 *     w                   1           0    0     0              0    0     0
 *
 * f and g call each other; b's branch is zero in cpu only, z's in both; T2
 * has a wall total at its root only, so its deepest is 0 as for a zero
 * total. */
enum { D_T0, D_A, D_B, D_C, D_F1, D_G1, D_F2, D_G2, D_Z, D_Z1, D_T1, D_X, D_Y, D_T2, D_W,
       D_N_NODES };

static const struct
{
  guint32 depth;
  guint64 cpu_total;
  guint32 cpu_deepest;
  guint64 wall_total;
  guint32 wall_deepest;
} deep_expected[D_N_NODES] = {
  [D_T0] = { 0, 8, 4, 7, 5 },
  [D_A]  = { 1, 8, 4, 7, 5 },
  [D_B]  = { 2, 0, 0, 3, 2 },
  [D_C]  = { 3, 0, 0, 0, 0 },
  [D_F1] = { 2, 3, 4, 4, 5 },
  [D_G1] = { 3, 2, 4, 4, 5 },
  [D_F2] = { 4, 2, 4, 4, 5 },
  [D_G2] = { 5, 0, 0, 4, 5 },
  [D_Z]  = { 1, 0, 0, 0, 0 },
  [D_Z1] = { 2, 0, 0, 0, 0 },
  [D_T1] = { 0, 7, 1, 1, 2 },
  [D_X]  = { 1, 7, 1, 1, 2 },
  [D_Y]  = { 2, 0, 0, 1, 2 },
  [D_T2] = { 0, 0, 0, 1, 0 },
  [D_W]  = { 1, 0, 0, 0, 0 },
};

static BlProfile *
deep_tree_new (guint32 *n)
{
  BlProfile *p = bl_profile_new ("test");
  guint32 f = bl_profile_intern (p, "f");
  guint32 g = bl_profile_intern (p, "g");

  bl_profile_enable_metric (p, BL_METRIC_CPU);
  bl_profile_enable_metric (p, BL_METRIC_WALL);
  n[D_T0] = bl_profile_add_thread (p, bl_profile_intern (p, "T0"));
  n[D_T1] = bl_profile_add_thread (p, bl_profile_intern (p, "T1"));
  n[D_T2] = bl_profile_add_thread (p, bl_profile_intern (p, "T2"));
  n[D_A] = bl_profile_add_child (p, n[D_T0], bl_profile_intern (p, "a"), 0, 0);
  n[D_B] = bl_profile_add_child (p, n[D_A], bl_profile_intern (p, "b"), 0, 0);
  n[D_C] = bl_profile_add_child (p, n[D_B], bl_profile_intern (p, "c"), 0, 0);
  n[D_F1] = bl_profile_add_child (p, n[D_A], f, 0, 0);
  n[D_G1] = bl_profile_add_child (p, n[D_F1], g, 0, 0);
  n[D_F2] = bl_profile_add_child (p, n[D_G1], f, 0, 0);
  n[D_G2] = bl_profile_add_child (p, n[D_F2], g, 0, 0);
  n[D_Z] = bl_profile_add_child (p, n[D_T0], bl_profile_intern (p, "z"), 0, 0);
  n[D_Z1] = bl_profile_add_child (p, n[D_Z], bl_profile_intern (p, "z1"), 0, 0);
  n[D_X] = bl_profile_add_child (p, n[D_T1], bl_profile_intern (p, "x"), 0, 0);
  n[D_Y] = bl_profile_add_child (p, n[D_X], bl_profile_intern (p, "y"), 0, 0);
  n[D_W] = bl_profile_add_child (p, n[D_T2], bl_profile_intern (p, "w"), 0, 0);

  bl_profile_add_value (p, n[D_A], BL_METRIC_CPU, 5);
  bl_profile_add_value (p, n[D_F1], BL_METRIC_CPU, 1);
  bl_profile_add_value (p, n[D_F2], BL_METRIC_CPU, 2);
  bl_profile_add_value (p, n[D_X], BL_METRIC_CPU, 7);
  bl_profile_add_value (p, n[D_B], BL_METRIC_WALL, 3);
  bl_profile_add_value (p, n[D_G2], BL_METRIC_WALL, 4);
  bl_profile_add_value (p, n[D_Y], BL_METRIC_WALL, 1);
  bl_profile_add_value (p, n[D_T2], BL_METRIC_WALL, 1);
  bl_profile_finish (p);

  g_assert_cmpuint (bl_profile_get_n_nodes (p), ==, D_N_NODES);

  return p;
}

/* Asks for one metric's columns in the order given, then checks them
 * against the table: deepest first makes both in the totals' sweep,
 * totals first makes the deepest column by a sweep of its own. */
static void
check_deep_tree_metric (BlProfile     *p,
                        const guint32 *n,
                        BlMetricId     metric,
                        gboolean       deepest_first)
{
  const guint32 *deepest;
  const guint64 *total;

  if (deepest_first)
    {
      deepest = bl_profile_get_deepest_array (p, metric);
      total = bl_profile_get_total_array (p, metric);
    }
  else
    {
      total = bl_profile_get_total_array (p, metric);
      deepest = bl_profile_get_deepest_array (p, metric);
    }
  g_assert_nonnull (deepest);
  g_assert_nonnull (total);
  /* made once: the same columns on the next calls */
  g_assert_true (bl_profile_get_deepest_array (p, metric) == deepest);
  g_assert_true (bl_profile_get_total_array (p, metric) == total);

  for (guint i = 0; i < D_N_NODES; i++)
    {
      gboolean cpu = metric == BL_METRIC_CPU;

      g_test_message ("node %u, %s, %s first", i, cpu ? "cpu" : "wall",
                      deepest_first ? "deepest" : "totals");
      g_assert_cmpuint (bl_profile_get_node (p, n[i])->depth, ==, deep_expected[i].depth);
      g_assert_cmpuint (deepest[n[i]], ==,
                        cpu ? deep_expected[i].cpu_deepest : deep_expected[i].wall_deepest);
      g_assert_cmpuint (total[n[i]], ==,
                        cpu ? deep_expected[i].cpu_total : deep_expected[i].wall_total);
      g_assert_cmpuint (bl_profile_get_total (p, metric, n[i]), ==, total[n[i]]);
    }
}

static void
test_deepest (void)
{
  guint32 n[D_N_NODES];

  /* each metric both ways, on two profiles made alike */
  for (guint round = 0; round < 2; round++)
    {
      g_autoptr(BlProfile) p = deep_tree_new (n);

      check_deep_tree_metric (p, n, BL_METRIC_CPU, round == 0);
      check_deep_tree_metric (p, n, BL_METRIC_WALL, round != 0);
      /* a metric the profile does not have */
      g_assert_null (bl_profile_get_deepest_array (p, BL_METRIC_CALLS));
      g_assert_cmpuint (bl_profile_get_grand_total (p, BL_METRIC_CPU), ==, 15);
      g_assert_cmpuint (bl_profile_get_grand_total (p, BL_METRIC_WALL), ==, 9);
    }

  test_deepest_random ();
}

/* A random shallow tree of @n_nodes nodes, cpu on some nodes, wall on all */
static BlProfile *
wide_random_profile (guint n_nodes,
                     guint seed)
{
  BlProfile *p = bl_profile_new ("test");
  GRand *rand = g_rand_new_with_seed (seed);
  guint32 names[50];

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", i);

      names[i] = bl_profile_intern (p, name);
    }
  bl_profile_add_thread (p, bl_profile_intern (p, "Thread main"));
  bl_profile_enable_metric (p, BL_METRIC_CPU);
  bl_profile_enable_metric (p, BL_METRIC_WALL);
  while (bl_profile_get_n_nodes (p) < n_nodes)
    {
      guint32 parent = g_rand_int_range (rand, 0, bl_profile_get_n_nodes (p));
      guint32 node = bl_profile_add_child (p, parent, names[g_rand_int_range (rand, 0, 50)], 0, 0);

      if (g_rand_int_range (rand, 0, 3) == 0)
        bl_profile_add_value (p, node, BL_METRIC_CPU, g_rand_int_range (rand, 1, 1000));
      bl_profile_add_value (p, node, BL_METRIC_WALL, g_rand_int_range (rand, 1, 10));
    }
  g_rand_free (rand);

  return p;
}

static void
check_against_reference (BlProfile  *p,
                         BlMetricId  metric)
{
  guint n = bl_profile_get_n_nodes (p);
  g_autofree guint64 *want_total = g_new0 (guint64, n);
  g_autofree guint32 *want_deepest = g_new0 (guint32, n);
  const guint64 *total = bl_profile_get_total_array (p, metric);
  const guint32 *deepest = bl_profile_get_deepest_array (p, metric);

  reference_deepest (p, metric, bl_profile_get_thread_root (p, 0), want_total, want_deepest);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpuint (total[i], ==, want_total[i]);
      g_assert_cmpuint (deepest[i], ==, want_deepest[i]);
    }
}

/* Off by default; turned on, a big profile's default metric has its totals
 * and deepest column made by the finish in a thread of its own, without
 * being asked; a reader
 * asking at once gets the same columns; another metric, and a profile
 * below 100,000 nodes, are left to be made when asked. */
static void
test_warm_columns (void)
{
  g_autoptr(BlProfile) big = wide_random_profile (150000, 4711);
  g_autoptr(BlProfile) asked = wide_random_profile (150000, 4712);
  g_autoptr(BlProfile) small = wide_random_profile (99999, 4713);
  g_autoptr(BlProfile) cold = wide_random_profile (150000, 4714);
  guint turns = 0;

  /* off by default (the command line) */
  bl_profile_finish (cold);
  g_usleep (50000);
  g_assert_false (bl_profile_has_total_array (cold, BL_METRIC_CPU));

  bl_profile_set_warm_columns (TRUE);
  g_assert_cmpint (bl_profile_get_default_metric (big), ==, BL_METRIC_CPU);

  bl_profile_finish (big);
  while (!bl_profile_has_total_array (big, BL_METRIC_CPU) && turns++ < 20000)
    g_usleep (1000);
  g_assert_true (bl_profile_has_total_array (big, BL_METRIC_CPU));
  g_assert_false (bl_profile_has_total_array (big, BL_METRIC_WALL));
  check_against_reference (big, BL_METRIC_CPU);
  check_against_reference (big, BL_METRIC_WALL);

  /* asked for while the thread may still be at it */
  bl_profile_finish (asked);
  check_against_reference (asked, BL_METRIC_CPU);

  bl_profile_finish (small);
  g_usleep (50000);
  g_assert_false (bl_profile_has_total_array (small, BL_METRIC_CPU));
  check_against_reference (small, BL_METRIC_CPU);
  bl_profile_set_warm_columns (FALSE);
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
  g_test_add_func ("/model/profile/deepest", test_deepest);
  g_test_add_func ("/model/profile/warm-columns", test_warm_columns);
  g_test_add_func ("/model/profile/stack-string-and-lines", test_stack_string_and_lines);
  g_test_add_func ("/model/profile/incomplete-and-warnings", test_incomplete_and_warnings);
  g_test_add_func ("/model/profile/metric-table", test_metric_table);
  g_test_add_func ("/model/profile/sample-spans", test_sample_spans);
  g_test_add_func ("/model/profile/sample-spans-long", test_sample_spans_long);
  g_test_add_func ("/model/profile/sample-spans-many", test_sample_spans_many);

  return g_test_run ();
}
