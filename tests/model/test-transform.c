/* test-transform.c — call-tree transforms on small trees whose results are
 * worked out by hand, as folded stacks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-model.h"

static BlProfile *
read_folded (const char *text)
{
  g_autoptr(GError) error = NULL;
  BlProfile *profile = bl_folded_read_memory ((const guint8 *) text, strlen (text), &error);

  g_assert_no_error (error);
  g_assert_nonnull (profile);

  return profile;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The folded stacks of @profile, lines sorted, one string */
static char *
folded (BlProfile  *profile,
        BlMetricId  metric)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GString) sorted = g_string_new (NULL);
  guint n;

  g_assert_true (bl_folded_write (profile, metric, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  text = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));

  lines = g_strsplit (text, "\n", -1);
  n = g_strv_length (lines);
  qsort (lines, n, sizeof (char *), compare_strings);
  for (guint i = 0; i < n; i++)
    if (*lines[i] != '\0')
      g_string_append_printf (sorted, "%s\n", lines[i]);

  return g_string_free (g_steal_pointer (&sorted), FALSE);
}

static BlTransform *
make (const char *text)
{
  g_autoptr(GError) error = NULL;
  BlTransform *t = bl_transform_parse (text, &error);

  g_assert_no_error (error);
  g_assert_nonnull (t);

  return t;
}

/* Applies the transforms given as strings ("merge:x", …) in order */
static BlProfile *
apply (BlProfile  *profile,
       const char *first,
       ...)
{
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_transform_unref);
  g_autoptr(GError) error = NULL;
  g_autofree char *before = folded (profile, BL_METRIC_SAMPLES);
  g_autofree char *after = NULL;
  BlProfile *result;
  va_list ap;

  va_start (ap, first);
  for (const char *s = first; s != NULL; s = va_arg (ap, const char *))
    g_ptr_array_add (list, make (s));
  va_end (ap);

  result = bl_transform_apply_all (list, profile, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  g_assert_true (result != profile || list->len == 0);
  g_assert_true (bl_profile_is_finished (result));

  /* the input is left as it was */
  after = folded (profile, BL_METRIC_SAMPLES);
  g_assert_cmpstr (before, ==, after);

  return result;
}

static void
assert_transform (const char *input,
                  const char *transform,
                  const char *expected)
{
  g_autoptr(BlProfile) profile = read_folded (input);
  g_autoptr(BlProfile) result = apply (profile, transform, NULL);
  g_autofree char *text = folded (result, BL_METRIC_SAMPLES);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_merge_function (void)
{
  g_autoptr(BlProfile) profile = read_folded ("T;a;b;c 1\nT;a;b 2\nT;a;d 3\nT;b 4\nT;b;c 5\n");
  g_autoptr(BlProfile) result = apply (profile, "merge:b", NULL);
  g_autofree char *text = folded (result, BL_METRIC_SAMPLES);

  g_assert_cmpstr (text, ==,
                   "T 4\n"
                   "T;a 2\n"
                   "T;a;c 1\n"
                   "T;a;d 3\n"
                   "T;c 5\n");
  g_assert_cmpuint (bl_profile_get_grand_total (result, BL_METRIC_SAMPLES), ==,
                    bl_profile_get_grand_total (profile, BL_METRIC_SAMPLES));
  g_assert_cmpuint (bl_profile_get_grand_total (result, BL_METRIC_SAMPLES), ==, 15);
}

static void
test_collapse_direct (void)
{
  assert_transform ("T;f;f;f;g 2\nT;f;f 3\nT;f 1\nT;h;h 7\n",
                    "collapse-recursion",
                    "T;f 4\n"
                    "T;f;g 2\n"
                    "T;h 7\n");
}

static void
test_collapse_indirect (void)
{
  g_autoptr(BlProfile) profile = read_folded ("T;a;b;a;b;c 1\n"
                                              "T;a;b;a 2\n"
                                              "T;a;b 3\n"
                                              "T;a;c 4\n"
                                              "T;a;b;c;b;d 6\n");
  g_autoptr(BlProfile) result = apply (profile, "collapse-recursion", NULL);
  g_autofree char *text = folded (result, BL_METRIC_SAMPLES);
  guint n_functions = bl_profile_get_n_functions (result);

  g_assert_cmpstr (text, ==,
                   "T;a 2\n"
                   "T;a;b 3\n"
                   "T;a;b;c 1\n"
                   "T;a;b;d 6\n"
                   "T;a;c 4\n");
  g_assert_cmpuint (bl_profile_get_grand_total (result, BL_METRIC_SAMPLES), ==, 16);

  /* no function lies below itself any more */
  for (guint32 n = 0; n < bl_profile_get_n_nodes (result); n++)
    g_assert_true (bl_profile_is_outermost (result, n));
  g_assert_cmpuint (n_functions, ==, bl_profile_get_n_functions (profile));
}

static void
test_merge_creates_recursion (void)
{
  g_autoptr(BlProfile) profile = read_folded ("T;a;x;a;y 5\nT;a 1\nT;a;x 2\n");
  g_autoptr(BlProfile) merged = apply (profile, "merge:x", NULL);
  g_autoptr(BlProfile) both = apply (profile, "merge:x", "collapse-recursion", NULL);
  g_autofree char *text_merged = folded (merged, BL_METRIC_SAMPLES);
  g_autofree char *text_both = folded (both, BL_METRIC_SAMPLES);

  g_assert_cmpstr (text_merged, ==,
                   "T;a 3\n"
                   "T;a;a;y 5\n");
  g_assert_cmpstr (text_both, ==,
                   "T;a 3\n"
                   "T;a;y 5\n");
  g_assert_cmpuint (bl_profile_get_grand_total (both, BL_METRIC_SAMPLES), ==, 8);
}

static void
test_focus_function (void)
{
  g_autoptr(BlProfile) profile = read_folded ("T;m;f;g;f;h 1\n"
                                              "T;m;f 2\n"
                                              "T;m;k 3\n"
                                              "T;n;f;z 4\n"
                                              "T 9\n"
                                              "U;f 5\n"
                                              "V;q 8\n");
  g_autoptr(BlProfile) result = apply (profile, "focus:f", NULL);
  g_autofree char *text = folded (result, BL_METRIC_SAMPLES);
  guint32 f = BL_NODE_NONE;

  /* the recursive call stays where it was, counted once */
  g_assert_cmpstr (text, ==,
                   "T;f 2\n"
                   "T;f;g;f;h 1\n"
                   "T;f;z 4\n"
                   "U;f 5\n");
  g_assert_cmpuint (bl_profile_get_grand_total (result, BL_METRIC_SAMPLES), ==, 12);
  g_assert_cmpuint (bl_profile_get_n_threads (result), ==, 2);   /* V had no f */

  for (guint i = 0; i < bl_profile_get_n_functions (profile); i++)
    if (g_str_equal (bl_profile_get_string (profile, bl_profile_get_function (profile, i)->name),
                     "f"))
      f = i;
  g_assert_cmpuint (f, !=, BL_NODE_NONE);
  g_assert_cmpuint (bl_profile_get_function_total (profile, BL_METRIC_SAMPLES, f), ==, 12);
}

static void
test_focus_path (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = read_folded ("T;m;f;g;f;h 1\n"
                                              "T;m;f 2\n"
                                              "T;n;f;z 4\n"
                                              "U;m;f 5\n");
  g_autoptr(BlProfile) result = apply (profile, "focus-path:T;m;f", NULL);
  g_autofree char *text = folded (result, BL_METRIC_SAMPLES);
  g_autoptr(BlTransform) missing = make ("focus-path:T;m;q");

  g_assert_cmpstr (text, ==,
                   "T;f 2\n"
                   "T;f;g;f;h 1\n");
  {
    g_autoptr(BlProfile) thread = apply (profile, "focus-path:U", NULL);
    g_autofree char *thread_text = folded (thread, BL_METRIC_SAMPLES);

    g_assert_cmpstr (thread_text, ==, "U;m;f 5\n");
  }
  g_assert_false (bl_transform_check (missing, profile, &error));
  g_assert_error (error, BL_TRANSFORM_ERROR, BL_TRANSFORM_ERROR_NO_MATCH);
}

static void
test_drop_function (void)
{
  assert_transform ("T;a;b;c 1\nT;a;b 2\nT;a;d 3\nT;b;e 4\nT;a 5\n",
                    "drop:b",
                    "T;a 5\n"
                    "T;a;d 3\n");
}

/* main → lib1 (roku_modules) → cb; main → log → fmt; with per-line data */
static BlProfile *
make_files_profile (void)
{
  BlProfile *p = bl_profile_new ("test");
  guint32 main_file = bl_profile_intern (p, "pkg:/source/main.brs");
  guint32 lib_file = bl_profile_intern (p, "pkg:/components/roku_modules/x/a.brs");
  guint32 log_file = bl_profile_intern (p, "pkg:/source/log.brs");
  guint32 root = bl_profile_add_thread (p, bl_profile_intern (p, "T"));
  guint32 main_node = bl_profile_add_child (p, root, bl_profile_intern (p, "main"), main_file, 1);
  guint32 lib = bl_profile_add_child (p, main_node, bl_profile_intern (p, "lib1"), lib_file, 3);
  guint32 cb = bl_profile_add_child (p, lib, bl_profile_intern (p, "cb"), main_file, 40);
  guint32 log = bl_profile_add_child (p, main_node, bl_profile_intern (p, "log"), log_file, 1);
  guint32 fmt = bl_profile_add_child (p, log, bl_profile_intern (p, "fmt"), log_file, 20);

  bl_profile_add_value (p, main_node, BL_METRIC_CPU, 5);
  bl_profile_add_value (p, lib, BL_METRIC_CPU, 3);
  bl_profile_add_value (p, cb, BL_METRIC_CPU, 2);
  bl_profile_add_value (p, log, BL_METRIC_CPU, 4);
  bl_profile_add_value (p, fmt, BL_METRIC_CPU, 1);
  bl_profile_add_value (p, main_node, BL_METRIC_CALLS, 1);
  bl_profile_add_value (p, log, BL_METRIC_CALLS, 7);

  bl_profile_add_line_value (p, bl_profile_lookup_line (p, main_file, 2,
                                                        bl_profile_intern (p, "main")),
                             BL_METRIC_CPU, 5);
  bl_profile_add_line_value (p, bl_profile_lookup_line (p, lib_file, 4,
                                                        bl_profile_intern (p, "lib1")),
                             BL_METRIC_CPU, 3);
  bl_profile_add_line_value (p, bl_profile_lookup_line (p, log_file, 2,
                                                        bl_profile_intern (p, "log")),
                             BL_METRIC_CPU, 4);
  bl_profile_add_line_value (p, bl_profile_lookup_line (p, log_file, 21,
                                                        bl_profile_intern (p, "fmt")),
                             BL_METRIC_CPU, 1);
  bl_profile_finish (p);

  return p;
}

static gboolean
has_line (BlProfile  *profile,
          const char *file,
          guint32     line,
          guint64     cpu)
{
  for (guint32 i = 0; i < bl_profile_get_n_lines (profile); i++)
    {
      const BlLine *l = bl_profile_get_line (profile, i);

      if (g_str_equal (bl_profile_get_string (profile, l->file), file) && l->line == line)
        return bl_profile_get_line_value (profile, BL_METRIC_CPU, i) == cpu;
    }

  return FALSE;
}

static void
test_hide_and_drop (void)
{
  g_autoptr(BlProfile) profile = make_files_profile ();
  g_autoptr(BlProfile) hidden = apply (profile, "hide:pkg:/components/roku_modules/*", NULL);
  g_autoptr(BlProfile) both = apply (profile, "hide:pkg:/components/roku_modules/*", "drop:log",
                                     NULL);
  g_autofree char *text_hidden = folded (hidden, BL_METRIC_CPU);
  g_autofree char *text_both = folded (both, BL_METRIC_CPU);
  g_autofree char *calls = folded (both, BL_METRIC_CALLS);

  g_assert_cmpstr (text_hidden, ==,
                   "T;main 8\n"
                   "T;main;cb 2\n"
                   "T;main;log 4\n"
                   "T;main;log;fmt 1\n");
  g_assert_cmpuint (bl_profile_get_grand_total (hidden, BL_METRIC_CPU), ==, 15);
  g_assert_cmpstr (text_both, ==,
                   "T;main 8\n"
                   "T;main;cb 2\n");
  g_assert_cmpuint (bl_profile_get_grand_total (both, BL_METRIC_CPU), ==, 10);
  g_assert_cmpstr (calls, ==, "T;main 1\n");

  /* a hidden function keeps its lines; a dropped subtree takes its own */
  g_assert_true (has_line (hidden, "pkg:/components/roku_modules/x/a.brs", 4, 3));
  g_assert_true (has_line (both, "pkg:/components/roku_modules/x/a.brs", 4, 3));
  g_assert_true (has_line (both, "pkg:/source/main.brs", 2, 5));
  g_assert_false (has_line (both, "pkg:/source/log.brs", 2, 4));
  g_assert_false (has_line (both, "pkg:/source/log.brs", 21, 1));
  g_assert_cmpuint (bl_profile_get_n_lines (both), ==, 2);
  g_assert_cmpuint (bl_profile_get_n_lines (hidden), ==, 4);

  /* a glob on a function's name */
  {
    g_autoptr(BlProfile) by_name = apply (profile, "hide:l*", NULL);
    g_autofree char *text = folded (by_name, BL_METRIC_CPU);

    g_assert_cmpstr (text, ==,
                     "T;main 12\n"
                     "T;main;cb 2\n"
                     "T;main;fmt 1\n");
  }
}

static void
test_merge_threads (void)
{
  g_autoptr(BlProfile) profile = read_folded ("RowItem_1;init 2\n"
                                              "RowItem_2;init 3\n"
                                              "RowItem (3);draw 1\n"
                                              "MainScene;init 4\n"
                                              "Task7;run 1\n");
  g_autoptr(BlProfile) by_name = apply (profile, "merge-threads", NULL);
  g_autoptr(BlProfile) all = apply (profile, "merge-all-threads", NULL);
  g_autofree char *text_by_name = folded (by_name, BL_METRIC_SAMPLES);
  g_autofree char *text_all = folded (all, BL_METRIC_SAMPLES);

  g_assert_cmpstr (text_by_name, ==,
                   "MainScene;init 4\n"
                   "RowItem;draw 1\n"
                   "RowItem;init 5\n"
                   "Task;run 1\n");
  g_assert_cmpuint (bl_profile_get_n_threads (by_name), ==, 3);
  g_assert_cmpstr (text_all, ==,
                   "all threads;draw 1\n"
                   "all threads;init 9\n"
                   "all threads;run 1\n");
  g_assert_cmpuint (bl_profile_get_n_threads (all), ==, 1);
  g_assert_cmpuint (bl_profile_get_grand_total (all, BL_METRIC_SAMPLES), ==, 11);
}

static void
test_base_names (void)
{
  static const struct { const char *in, *out; } cases[] = {
    { "RowItem_12", "RowItem" },
    { "RowItem 3", "RowItem" },
    { "RowItem (4)", "RowItem" },
    { "RowItem#5", "RowItem" },
    { "RowItem[6]", "RowItem" },
    { "RowItem<7>", "RowItem" },
    { "RowItem-8", "RowItem" },
    { "RowItem9", "RowItem" },
    { "Thread main", "Thread main" },
    { "MainScene", "MainScene" },
    { "42", "42" },
    { "(3)", "(3)" },
    { "x)", "x)" },
    { "Row(3", "Row(3" },
    { "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *base = bl_transform_dup_thread_base_name (cases[i].in);

      g_assert_cmpstr (base, ==, cases[i].out);
    }
}

static void
test_parse (void)
{
  static const char * const good[] = {
    "merge:a", "focus:b", "focus-path:T;a", "collapse-recursion", "drop:c",
    "hide:pkg:/lib/*", "merge-threads", "merge-all-threads",
  };
  static const char * const bad[] = {
    "merge", "merge:", "collapse-recursion:x", "frobnicate:a", "", "hide",
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(BlTransform) t = make (good[i]);
      g_autofree char *back = bl_transform_to_string (t);
      g_autoptr(BlTransform) again = make (back);

      g_assert_cmpstr (back, ==, good[i]);
      g_assert_true (bl_transform_equal (t, again));
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlTransform) t = bl_transform_parse (bad[i], &error);

      g_assert_null (t);
      g_assert_true (error != NULL && error->domain == BL_TRANSFORM_ERROR);
    }

  {
    g_autoptr(BlTransform) t = make ("hide:pkg:/lib/*");

    g_assert_cmpint (bl_transform_get_kind (t), ==, BL_TRANSFORM_HIDE);
    g_assert_cmpstr (bl_transform_get_argument (t), ==, "pkg:/lib/*");
  }
}

static void
test_check (void)
{
  g_autoptr(BlProfile) profile = make_files_profile ();
  static const struct { const char *t; gboolean found; } cases[] = {
    { "merge:log", TRUE }, { "merge:nope", FALSE }, { "drop:T", FALSE },
    { "hide:*/roku_modules/*", TRUE }, { "hide:*.xml", FALSE },
    { "focus-path:T;main;log", TRUE }, { "focus-path:T;log", FALSE },
    { "collapse-recursion", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlTransform) t = make (cases[i].t);

      g_assert_cmpint (bl_transform_check (t, profile, &error), ==, cases[i].found);
      if (cases[i].found)
        g_assert_no_error (error);
      else
        g_assert_error (error, BL_TRANSFORM_ERROR, BL_TRANSFORM_ERROR_NO_MATCH);
    }
}

/* Sample order: each sample goes where its node went */
static void
test_samples (void)
{
  g_autoptr(BlProfile) p = bl_profile_new ("test");
  guint32 root = bl_profile_add_thread (p, bl_profile_intern (p, "T"));
  guint32 a = bl_profile_add_child (p, root, bl_profile_intern (p, "a"), 0, 0);
  guint32 b = bl_profile_add_child (p, a, bl_profile_intern (p, "b"), 0, 0);
  guint32 c = bl_profile_add_child (p, b, bl_profile_intern (p, "c"), 0, 0);
  guint32 nodes[] = { a, b, c, b, a };
  guint64 weights[] = { 1, 2, 3, 4, 5 };
  const BlOrderedSample *samples;
  gsize n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (nodes); i++)
    {
      bl_profile_add_value (p, nodes[i], BL_METRIC_SAMPLES, weights[i]);
      bl_profile_add_sample (p, 0, nodes[i], weights[i]);
    }
  bl_profile_finish (p);

  {
    g_autoptr(BlProfile) merged = apply (p, "merge:b", NULL);

    samples = bl_profile_get_samples (merged, 0, &n);
    g_assert_cmpuint (n, ==, 5);
    for (guint i = 0; i < n; i++)
      {
        g_autofree char *stack = bl_profile_dup_stack_string (merged, samples[i].node, ';');
        static const char * const expected[] = { "T;a", "T;a", "T;a;c", "T;a", "T;a" };

        g_assert_cmpstr (stack, ==, expected[i]);
        g_assert_cmpuint (samples[i].weight, ==, weights[i]);
      }
  }
  {
    g_autoptr(BlProfile) dropped = apply (p, "drop:c", NULL);

    samples = bl_profile_get_samples (dropped, 0, &n);
    g_assert_cmpuint (n, ==, 4);
    g_assert_cmpuint (samples[2].weight, ==, 4);
    g_assert_cmpuint (bl_profile_get_grand_total (dropped, BL_METRIC_SAMPLES), ==, 12);
  }
}

/* Spans: a[0,10] → b[2,8] → a[3,7] → c[4,5] */
static BlProfile *
make_spans_profile (void)
{
  BlProfile *p = bl_profile_new ("test");
  guint32 root = bl_profile_add_thread (p, bl_profile_intern (p, "T"));
  guint32 a = bl_profile_add_child (p, root, bl_profile_intern (p, "a"), 0, 0);
  guint32 b = bl_profile_add_child (p, a, bl_profile_intern (p, "b"), 0, 0);
  guint32 a2 = bl_profile_add_child (p, b, bl_profile_intern (p, "a"), 0, 0);
  guint32 c = bl_profile_add_child (p, a2, bl_profile_intern (p, "c"), 0, 0);
  struct { guint32 node; guint64 start, end, self; } spans[] = {
    { a, 0, 10, 4 }, { b, 2, 8, 2 }, { a2, 3, 7, 3 }, { c, 4, 5, 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (spans); i++)
    {
      guint s = bl_profile_add_span (p, 0, spans[i].node, spans[i].start);

      bl_profile_set_span_end (p, 0, s, spans[i].end);
      bl_profile_add_value (p, spans[i].node, BL_METRIC_TIME_NS, spans[i].self);
    }
  bl_profile_set_time_range (p, 0, 0, 12);
  bl_profile_finish (p);

  return p;
}

static char *
spans_string (BlProfile *profile)
{
  GString *s = g_string_new (NULL);
  BlSpanList list;
  gsize n = bl_profile_get_spans (profile, 0, &list) ? list.n_spans : 0;
  const BlSpan *spans = list.spans;

  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *stack = bl_profile_dup_stack_string (profile, spans[i].node, ';');

      g_string_append_printf (s, "%s@%u[%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ") ",
                              stack, bl_span_list_get_depth (&list, i), spans[i].start,
                              bl_span_list_get_end (&list, i));
    }

  return g_string_free (s, FALSE);
}

static void
test_spans (void)
{
  g_autoptr(BlProfile) p = make_spans_profile ();
  g_autoptr(BlProfile) collapsed = apply (p, "collapse-recursion", NULL);
  g_autoptr(BlProfile) merged = apply (p, "merge:b", NULL);
  g_autoptr(BlProfile) dropped = apply (p, "drop:b", NULL);
  g_autoptr(BlProfile) focused = apply (p, "focus:b", NULL);
  g_autofree char *s_original = spans_string (p);
  g_autofree char *s_collapsed = spans_string (collapsed);
  g_autofree char *s_merged = spans_string (merged);
  g_autofree char *s_dropped = spans_string (dropped);
  g_autofree char *s_focused = spans_string (focused);
  guint64 start, end;

  g_assert_cmpstr (s_original, ==, "T;a@1[0,10) T;a;b@2[2,8) T;a;b;a@3[3,7) T;a;b;a;c@4[4,5) ");
  /* the inner a joins the outer one, so b is on top only before and after it */
  g_assert_cmpstr (s_collapsed, ==, "T;a@1[0,10) T;a;b@2[2,3) T;a;c@2[4,5) T;a;b@2[7,8) ");
  g_assert_cmpstr (s_merged, ==, "T;a@1[0,10) T;a;a@2[3,7) T;a;a;c@3[4,5) ");
  g_assert_cmpstr (s_dropped, ==, "T;a@1[0,2) T;a@1[8,10) ");
  g_assert_cmpstr (s_focused, ==, "T;b@1[2,8) T;b;a@2[3,7) T;b;a;c@3[4,5) ");

  g_assert_true (bl_profile_get_time_range (dropped, 0, &start, &end));
  g_assert_cmpuint (start, ==, 0);
  g_assert_cmpuint (end, ==, 12);
}

/* Frames (speedscope): nodes keep their frames, so line and column stay */
static void
test_frames (void)
{
  g_autoptr(BlProfile) p = bl_profile_new ("test");
  guint32 root = bl_profile_add_thread (p, bl_profile_intern (p, "T"));
  guint32 fa = bl_profile_add_frame (p, bl_profile_intern (p, "a"), bl_profile_intern (p, "x.js"),
                                     3, 7);
  guint32 fb = bl_profile_add_frame (p, bl_profile_intern (p, "b"), 0, 0, 0);
  guint32 fc = bl_profile_add_frame (p, bl_profile_intern (p, "c"), 0, 9, 1);
  guint32 a = bl_profile_add_child_frame (p, root, fa);
  guint32 b = bl_profile_add_child_frame (p, a, fb);
  guint32 c = bl_profile_add_child_frame (p, b, fc);
  g_autoptr(BlProfile) merged = NULL;
  gboolean seen = FALSE;

  bl_profile_add_value (p, c, BL_METRIC_WEIGHT, 2);
  bl_profile_add_value (p, b, BL_METRIC_WEIGHT, 1);
  bl_profile_finish (p);

  merged = apply (p, "merge:b", NULL);
  g_assert_cmpuint (bl_profile_get_n_frames (merged), ==, 3);
  for (guint32 n = 0; n < bl_profile_get_n_nodes (merged); n++)
    {
      guint32 frame = bl_profile_get_node_frame (merged, n);

      if (g_str_equal (bl_profile_get_node_name (merged, n), "c"))
        {
          g_autofree char *stack = bl_profile_dup_stack_string (merged, n, ';');

          g_assert_cmpuint (frame, ==, fc);
          g_assert_cmpuint (bl_profile_get_frame (merged, frame)->line, ==, 9);
          g_assert_cmpstr (stack, ==, "T;a;c");
          g_assert_cmpuint (bl_profile_get_self (merged, BL_METRIC_WEIGHT, n), ==, 2);
          seen = TRUE;
        }
      if (g_str_equal (bl_profile_get_node_name (merged, n), "a"))
        g_assert_cmpuint (bl_profile_get_self (merged, BL_METRIC_WEIGHT, n), ==, 1);
    }
  g_assert_true (seen);
}

static void
test_info_and_cancel (void)
{
  g_autoptr(BlProfile) p = bl_profile_new ("test");
  g_autoptr(BlProfile) result = NULL;
  g_autoptr(BlTransform) t = make ("merge:a");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  guint32 root = bl_profile_add_thread (p, bl_profile_intern (p, "T"));
  guint32 a = bl_profile_add_child (p, root, bl_profile_intern (p, "a"), 0, 0);

  bl_profile_get_info_mutable (p)->target = g_strdup ("My App");
  bl_profile_add_value (p, a, BL_METRIC_CPU, 3);
  bl_profile_add_warning (p, "First warning.");
  bl_profile_set_incomplete (p, "The file ends at byte 12.");
  bl_profile_set_metric_decimals (p, BL_METRIC_CPU, 2);
  bl_profile_finish (p);

  result = bl_transform_apply (t, p, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (bl_profile_get_info (result)->target, ==, "My App");
  g_assert_cmpstr (bl_profile_get_info (result)->format, ==, "test");
  g_assert_true (bl_profile_is_incomplete (result));
  g_assert_cmpstr (bl_profile_get_incomplete_reason (result), ==, "The file ends at byte 12.");
  g_assert_cmpstr (bl_profile_get_warning (result), ==,
                   "The file ends at byte 12. First warning.");
  g_assert_cmpuint (bl_profile_get_metric_decimals (result, BL_METRIC_CPU), ==, 2);
  g_assert_cmpuint (bl_profile_get_self (result, BL_METRIC_CPU,
                                         bl_profile_get_thread_root (result, 0)), ==, 3);

  g_cancellable_cancel (cancellable);
  g_clear_object (&result);
  result = bl_transform_apply (t, p, cancellable, &error);
  g_assert_null (result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* A random tree with plenty of recursion: 3 threads (two instances of one
 * component), 30 functions in 6 files, every node with a value */
static BlProfile *
random_tree (guint32 seed)
{
  BlProfile *p = bl_profile_new ("test");
  GRand *rand = g_rand_new_with_seed (seed);
  guint32 names[30], files[6], stack[40];
  guint depth = 0;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", i);

      names[i] = bl_profile_intern (p, name);
    }
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *file = g_strdup_printf ("pkg:/source/file%u.brs", i);

      files[i] = bl_profile_intern (p, file);
    }
  bl_profile_add_thread (p, bl_profile_intern (p, "Row_1"));
  bl_profile_add_thread (p, bl_profile_intern (p, "Row_2"));
  bl_profile_add_thread (p, bl_profile_intern (p, "Main"));

  stack[0] = bl_profile_get_thread_root (p, 0);
  while (bl_profile_get_n_nodes (p) < 3000)
    {
      if (depth + 1 < G_N_ELEMENTS (stack) && g_rand_double (rand) < (depth < 12 ? 0.7 : 0.3))
        {
          guint f = g_rand_int_range (rand, 0, G_N_ELEMENTS (names));
          guint32 n = bl_profile_add_child (p, stack[depth], names[f], files[f % 6], f + 1);

          stack[++depth] = n;
          bl_profile_add_value (p, n, BL_METRIC_SAMPLES, 1 + g_rand_int_range (rand, 0, 9));
          bl_profile_add_value (p, n, BL_METRIC_CALLS, 1);
        }
      else if (depth > 0)
        depth--;
      else
        stack[0] = bl_profile_get_thread_root (p, g_rand_int_range (rand, 0, 3));
    }
  bl_profile_finish (p);
  g_rand_free (rand);

  return p;
}

/* @result built again through the builder, node by node in its order, and
 * finished the ordinary way */
static BlProfile *
rebuild (BlProfile *result)
{
  BlProfile *p = bl_profile_new ("test");

  for (guint i = 1; i < bl_profile_get_n_strings (result); i++)
    g_assert_cmpuint (bl_profile_intern (p, bl_profile_get_string (result, i)), ==, i);
  for (guint32 n = 0; n < bl_profile_get_n_nodes (result); n++)
    {
      const BlNode *node = bl_profile_get_node (result, n);

      g_assert_cmpuint (bl_profile_add_child (p, node->parent, node->name, node->file,
                                              node->line), ==, n);
      bl_profile_add_value (p, n, BL_METRIC_SAMPLES,
                            bl_profile_get_self (result, BL_METRIC_SAMPLES, n));
      bl_profile_add_value (p, n, BL_METRIC_CALLS,
                            bl_profile_get_self (result, BL_METRIC_CALLS, n));
    }
  bl_profile_finish (p);

  return p;
}

/* @result is what building it node by node and bl_profile_finish() give:
 * the same nodes (children linked in the same order), functions, outermost
 * nodes and totals */
static void
assert_finished_as_builder (BlProfile *result)
{
  static const BlMetricId metrics[] = { BL_METRIC_SAMPLES, BL_METRIC_CALLS };
  g_autoptr(BlProfile) expected = rebuild (result);
  guint n = bl_profile_get_n_nodes (result);
  guint n_functions = bl_profile_get_n_functions (result);

  g_assert_cmpuint (bl_profile_get_n_nodes (expected), ==, n);
  g_assert_cmpmem (bl_profile_get_nodes (result), n * sizeof (BlNode),
                   bl_profile_get_nodes (expected), n * sizeof (BlNode));
  g_assert_cmpuint (bl_profile_get_n_functions (expected), ==, n_functions);
  for (guint f = 0; f < n_functions; f++)
    {
      g_assert_cmpmem (bl_profile_get_function (result, f), sizeof (BlFunction),
                       bl_profile_get_function (expected, f), sizeof (BlFunction));
      for (guint k = 0; k < G_N_ELEMENTS (metrics); k++)
        {
          g_assert_cmpuint (bl_profile_get_function_self (result, metrics[k], f), ==,
                            bl_profile_get_function_self (expected, metrics[k], f));
          g_assert_cmpuint (bl_profile_get_function_total (result, metrics[k], f), ==,
                            bl_profile_get_function_total (expected, metrics[k], f));
        }
    }
  for (guint32 x = 0; x < n; x++)
    {
      g_assert_cmpuint (bl_profile_get_node_function (result, x), ==,
                        bl_profile_get_node_function (expected, x));
      g_assert_cmpint (bl_profile_is_outermost (result, x), ==,
                       bl_profile_is_outermost (expected, x));
      g_assert_cmpuint (bl_profile_get_total (result, BL_METRIC_SAMPLES, x), ==,
                        bl_profile_get_total (expected, BL_METRIC_SAMPLES, x));
      g_assert_cmpuint (bl_profile_get_total (result, BL_METRIC_CALLS, x), ==,
                        bl_profile_get_total (expected, BL_METRIC_CALLS, x));
    }
}

/* A transform finishes its result from what the input knows (functions,
 * outermost nodes, children in order): all of it as bl_profile_finish()
 * would have made it, for every kind, and for a chain of them */
static void
test_finish_as_builder (void)
{
  static const char * const chains[][2] = {
    { "merge:f3", NULL },
    { "focus:f2", NULL },
    { "focus-path", NULL },     /* Row_1 and its first frame's name */
    { "collapse-recursion", NULL },
    { "drop:f4", NULL },
    { "hide:f1*", NULL },
    { "hide:pkg:/source/file2*", NULL },
    { "merge-threads", NULL },
    { "merge-all-threads", NULL },
    { "merge:f5", "collapse-recursion" },
    { "collapse-recursion", "merge:f6" },
    { "merge-all-threads", "hide:f2*" },
  };

  for (guint32 seed = 1; seed <= 3; seed++)
    {
      g_autoptr(BlProfile) profile = random_tree (seed);

      for (guint c = 0; c < G_N_ELEMENTS (chains); c++)
        {
          guint32 first = bl_profile_get_node (profile, bl_profile_get_thread_root (profile, 0))->first_child;
          g_autofree char *path = g_strconcat ("focus-path:Row_1;",
                                               bl_profile_get_node_name (profile, first), NULL);
          const char *step = g_str_equal (chains[c][0], "focus-path") ? path : chains[c][0];
          g_autoptr(BlProfile) result = apply (profile, step, chains[c][1], NULL);

          g_test_message ("seed %u, %s %s: %u nodes", seed, step,
                          chains[c][1] != NULL ? chains[c][1] : "",
                          bl_profile_get_n_nodes (result));
          g_assert_cmpuint (bl_profile_get_n_nodes (result), >, 1);
          assert_finished_as_builder (result);
        }
    }
}

/* A node that gathers tens of thousands of children from several input
 * nodes (more than the transform's child table holds at first, so it
 * grows): each child once, in order, with the values of all it stands for */
static void
test_wide_shared (void)
{
  g_autoptr(BlProfile) p = bl_profile_new ("test");
  guint32 wrap, file = bl_profile_intern (p, "pkg:/source/wide.brs");
  static const char * const steps[] = { "merge:wrap", "hide:wrap", "merge-all-threads" };

  for (guint t = 0; t < 2; t++)
    {
      g_autofree char *name = g_strdup_printf ("Row_%u", t + 1);
      guint32 root = bl_profile_add_thread (p, bl_profile_intern (p, name));

      wrap = bl_profile_add_child (p, root, bl_profile_intern (p, "wrap"), file, 1);
      bl_profile_add_value (p, wrap, BL_METRIC_SAMPLES, 1);
      for (guint i = 0; i < 40000; i++)
        {
          g_autofree char *g = g_strdup_printf ("g%05u", (i * 7919) % 40000);
          guint32 name_id = bl_profile_intern (p, g);
          guint32 under = bl_profile_add_child (p, wrap, name_id, file, 2);
          guint32 leaf = bl_profile_add_child (p, under, bl_profile_intern (p, "leaf"), file, 3);

          bl_profile_add_value (p, under, BL_METRIC_SAMPLES, 2);
          bl_profile_add_value (p, under, BL_METRIC_CALLS, 1);
          bl_profile_add_value (p, leaf, BL_METRIC_SAMPLES, 1);
          if (i % 2 == 1)
            {
              guint32 direct = bl_profile_add_child (p, root, name_id, file, 2);

              bl_profile_add_value (p, direct, BL_METRIC_SAMPLES, 10);
              bl_profile_add_value (p, direct, BL_METRIC_CALLS, 1);
            }
        }
    }
  bl_profile_finish (p);

  for (guint s = 0; s < G_N_ELEMENTS (steps); s++)
    {
      g_autoptr(BlProfile) result = apply (p, steps[s], NULL);
      guint32 root = bl_profile_get_thread_root (result, 0);
      const char *last = NULL;
      guint n_children = 0;

      g_test_message ("%s: %u nodes", steps[s], bl_profile_get_n_nodes (result));
      assert_finished_as_builder (result);
      for (guint32 c = bl_profile_get_node (result, root)->first_child; c != BL_NODE_NONE;
           c = bl_profile_get_node (result, c)->next_sibling)
        {
          const char *name = bl_profile_get_node_name (result, c);

          g_assert_true (last == NULL || strcmp (last, name) < 0);
          last = name;
          n_children++;
          if (s < 2 && g_str_equal (name, "g07919"))
            {
              /* i = 1: under wrap (2) and directly (10) */
              g_assert_cmpuint (bl_profile_get_self (result, BL_METRIC_SAMPLES, c), ==, 12);
              g_assert_cmpuint (bl_profile_get_total (result, BL_METRIC_SAMPLES, c), ==, 13);
            }
        }
      /* merged threads: "wrap" and the 20,000 direct children, 40,000 with wrap merged */
      g_assert_cmpuint (n_children, ==, s < 2 ? 40000 : 20001);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/transform/merge-function", test_merge_function);
  g_test_add_func ("/model/transform/collapse-direct", test_collapse_direct);
  g_test_add_func ("/model/transform/collapse-indirect", test_collapse_indirect);
  g_test_add_func ("/model/transform/merge-creates-recursion", test_merge_creates_recursion);
  g_test_add_func ("/model/transform/focus-function", test_focus_function);
  g_test_add_func ("/model/transform/focus-path", test_focus_path);
  g_test_add_func ("/model/transform/drop-function", test_drop_function);
  g_test_add_func ("/model/transform/hide-and-drop", test_hide_and_drop);
  g_test_add_func ("/model/transform/merge-threads", test_merge_threads);
  g_test_add_func ("/model/transform/base-names", test_base_names);
  g_test_add_func ("/model/transform/parse", test_parse);
  g_test_add_func ("/model/transform/check", test_check);
  g_test_add_func ("/model/transform/samples", test_samples);
  g_test_add_func ("/model/transform/spans", test_spans);
  g_test_add_func ("/model/transform/frames", test_frames);
  g_test_add_func ("/model/transform/info-and-cancel", test_info_and_cancel);
  g_test_add_func ("/model/transform/finish-as-builder", test_finish_as_builder);
  g_test_add_func ("/model/transform/wide-shared", test_wide_shared);

  return g_test_run ();
}
