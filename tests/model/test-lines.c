/* test-lines.c — per-line records: arithmetic, merging, ranking, line sets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "bl-bsprof-writer.h"
#include "bl-lines.h"
#include "bl-model.h"

static BlProfile *
decode (BlBsprofWriter *w)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  BlProfile *profile;

  bl_bsprof_writer_end (w, 1700000009999);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  profile = bl_bsprof_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   &error);
  g_assert_no_error (error);
  g_assert_nonnull (profile);

  return profile;
}

/* The line record for file:line, or BL_NODE_NONE. */
static guint32
find_line (BlProfile  *profile,
           const char *file,
           guint32     line)
{
  guint n = bl_profile_get_n_lines (profile);

  for (guint32 i = 0; i < n; i++)
    {
      const BlLine *l = bl_profile_get_line (profile, i);

      if (l->line == line && g_str_equal (bl_profile_get_string (profile, l->file), file))
        return i;
    }

  return BL_NODE_NONE;
}

static guint64
line_value (BlProfile  *profile,
            const char *file,
            guint32     line,
            BlMetricId  metric)
{
  guint32 index = find_line (profile, file, line);

  g_assert_cmpuint (index, !=, BL_NODE_NONE);

  return bl_profile_get_line_value (profile, metric, index);
}

static guint32
find_function (BlProfile  *profile,
               const char *name)
{
  guint n = bl_profile_get_n_functions (profile);

  for (guint32 f = 0; f < n; f++)
    if (g_str_equal (bl_profile_get_string (profile, bl_profile_get_function (profile, f)->name),
                     name))
      return f;

  return BL_NODE_NONE;
}

static BlBsprofWriter *
new_writer (void)
{
  BlBsprofHeader h;

  bl_bsprof_header_init (&h);
  h.lines = TRUE;
  h.memory = TRUE;
  h.target = "Lines App";
  h.start_ms = 1700000000000;

  return bl_bsprof_writer_new (&h);
}

/* line = path element's definition line + offset − 1 */
static void
test_arithmetic (void)
{
  BlBsprofWriter *w = new_writer ();
  g_autoptr(BlProfile) profile = NULL;

  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "main");
  bl_bsprof_writer_string (w, 4, "pkg:/source/util.brs");
  bl_bsprof_writer_string (w, 5, "helper");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 10, 3);        /* main at main.brs:10 */
  bl_bsprof_writer_path (w, 2, 1, 3, 4, 40, 5);     /* helper at util.brs:40, called at 12 */

  bl_bsprof_writer_cpu (w, 1, 1, 100, 150);         /* main.brs:10 */
  bl_bsprof_writer_cpu (w, 1, 4, 7, 9);             /* main.brs:13 */
  bl_bsprof_writer_cpu (w, 2, 5, 50, 60);           /* util.brs:44 */
  bl_bsprof_writer_alloc (w, 2, 2, 0x1000, 64);     /* util.brs:41 */
  bl_bsprof_writer_alloc (w, 1, 4, 0x2000, 32);     /* main.brs:13 */
  bl_bsprof_writer_free_op (w, 1, 9, 0x2000, FALSE);
  profile = decode (w);

  g_assert_true (bl_profile_get_info (profile)->has_lines);
  g_assert_cmpuint (line_value (profile, "pkg:/source/main.brs", 10, BL_METRIC_CPU), ==, 100);
  g_assert_cmpuint (line_value (profile, "pkg:/source/main.brs", 10, BL_METRIC_WALL), ==, 150);
  g_assert_cmpuint (line_value (profile, "pkg:/source/main.brs", 13, BL_METRIC_CPU), ==, 7);
  g_assert_cmpuint (line_value (profile, "pkg:/source/util.brs", 44, BL_METRIC_CPU), ==, 50);
  g_assert_cmpuint (line_value (profile, "pkg:/source/util.brs", 44, BL_METRIC_WALL), ==, 60);
  g_assert_cmpuint (line_value (profile, "pkg:/source/util.brs", 41, BL_METRIC_ALLOC_BYTES),
                    ==, 64);
  g_assert_cmpuint (line_value (profile, "pkg:/source/util.brs", 41, BL_METRIC_LIVE_BYTES),
                    ==, 64);
  /* the free is credited to the line that allocated */
  g_assert_cmpuint (line_value (profile, "pkg:/source/main.brs", 13, BL_METRIC_ALLOC_BYTES),
                    ==, 32);
  g_assert_cmpuint (line_value (profile, "pkg:/source/main.brs", 13, BL_METRIC_FREE_BYTES),
                    ==, 32);
  g_assert_cmpuint (line_value (profile, "pkg:/source/main.brs", 13, BL_METRIC_LIVE_BYTES),
                    ==, 0);
  /* no line where nothing was measured, nor at the call site */
  g_assert_cmpuint (find_line (profile, "pkg:/source/main.brs", 12), ==, BL_NODE_NONE);
  g_assert_cmpuint (find_line (profile, "pkg:/source/util.brs", 40), ==, BL_NODE_NONE);
  g_assert_cmpuint (find_line (profile, "pkg:/source/main.brs", 9), ==, BL_NODE_NONE);
  g_assert_cmpuint (bl_profile_get_n_lines (profile), ==, 4);
}

/* One function reached through three paths (two threads, recursion) keeps
 * one record per line with the sum. */
static void
test_merge (void)
{
  BlBsprofWriter *w = new_writer ();
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(BlLineSet) set = NULL;
  guint32 draw;
  guint position;

  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "main");
  bl_bsprof_writer_string (w, 4, "pkg:/components/Draw.brs");
  bl_bsprof_writer_string (w, 5, "draw");
  bl_bsprof_writer_string (w, 6, "RenderTask");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_module (w, 2, 6);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 3);        /* main */
  bl_bsprof_writer_path (w, 2, 1, 5, 4, 20, 5);    /* main > draw */
  bl_bsprof_writer_path (w, 3, 2, 6, 4, 20, 5);    /* main > draw > draw */
  bl_bsprof_writer_root (w, 4, 2, 4, 20, 5);       /* RenderTask: draw */

  bl_bsprof_writer_cpu (w, 2, 2, 10, 11);          /* Draw.brs:21 */
  bl_bsprof_writer_cpu (w, 3, 2, 20, 22);          /* Draw.brs:21 */
  bl_bsprof_writer_cpu (w, 4, 2, 30, 33);          /* Draw.brs:21 */
  bl_bsprof_writer_cpu (w, 4, 3, 5, 5);            /* Draw.brs:22 */
  bl_bsprof_writer_cpu (w, 2, 2, 1, 1);            /* Draw.brs:21 again */
  bl_bsprof_writer_alloc (w, 3, 3, 0x10, 100);     /* Draw.brs:22 */
  bl_bsprof_writer_alloc (w, 4, 3, 0x20, 200);     /* Draw.brs:22 */
  bl_bsprof_writer_cpu (w, 1, 2, 4, 4);            /* main.brs:2 */
  profile = decode (w);

  g_assert_cmpuint (bl_profile_get_n_lines (profile), ==, 3);
  g_assert_cmpuint (line_value (profile, "pkg:/components/Draw.brs", 21, BL_METRIC_CPU), ==, 61);
  g_assert_cmpuint (line_value (profile, "pkg:/components/Draw.brs", 21, BL_METRIC_WALL), ==, 67);
  g_assert_cmpuint (line_value (profile, "pkg:/components/Draw.brs", 22, BL_METRIC_CPU), ==, 5);
  g_assert_cmpuint (line_value (profile, "pkg:/components/Draw.brs", 22, BL_METRIC_ALLOC_BYTES),
                    ==, 300);
  g_assert_cmpuint (line_value (profile, "pkg:/components/Draw.brs", 22, BL_METRIC_ALLOC_COUNT),
                    ==, 2);

  /* the function's line set: its lines in order, sums equal to its self cost */
  draw = find_function (profile, "draw");
  g_assert_cmpuint (draw, !=, BL_NODE_NONE);
  set = bl_line_set_new_for_function (profile, draw);
  g_assert_cmpuint (bl_line_set_get_n_lines (set), ==, 2);
  g_assert_cmpuint (bl_line_set_get_line_number (set, 0), ==, 21);
  g_assert_cmpuint (bl_line_set_get_line_number (set, 1), ==, 22);
  g_assert_cmpuint (bl_line_set_get_value (set, BL_METRIC_CPU, 0), ==, 61);
  g_assert_cmpuint (bl_line_set_get_sum (set, BL_METRIC_CPU), ==, 66);
  g_assert_cmpuint (bl_line_set_get_sum (set, BL_METRIC_CPU), ==,
                    bl_profile_get_function_self (profile, BL_METRIC_CPU, draw));
  g_assert_cmpuint (bl_line_set_get_max (set, BL_METRIC_CPU), ==, 61);
  g_assert_cmpuint (bl_line_set_get_max (set, BL_METRIC_ALLOC_BYTES), ==, 300);
  g_assert_true (bl_line_set_get_hottest (set, BL_METRIC_CPU, &position));
  g_assert_cmpuint (position, ==, 0);
  g_assert_true (bl_line_set_get_hottest (set, BL_METRIC_ALLOC_BYTES, &position));
  g_assert_cmpuint (position, ==, 1);
  g_assert_false (bl_line_set_get_hottest (set, BL_METRIC_CALLS, &position));
  g_assert_true (bl_line_set_find (set, 22, &position));
  g_assert_cmpuint (position, ==, 1);
  g_assert_false (bl_line_set_find (set, 20, NULL));
  g_assert_false (bl_line_set_find (set, 23, NULL));
  g_assert_cmpuint (bl_line_set_get_function (set), ==, draw);
  g_assert_cmpstr (bl_profile_get_string (profile, bl_line_set_get_file (set)), ==,
                   "pkg:/components/Draw.brs");
  g_assert_cmpuint (bl_lines_find_function (profile, bl_line_set_get_line_index (set, 0)), ==,
                    draw);
}

/* A profile built through the API: ranking, ties, zeros, limits, file sets. */
static BlProfile *
build_profile (void)
{
  BlProfile *profile = bl_profile_new ("test");
  guint32 thread = bl_profile_add_thread (profile, bl_profile_intern (profile, "T"));
  guint32 a_file = bl_profile_intern (profile, "pkg:/source/a.brs");
  guint32 b_file = bl_profile_intern (profile, "pkg:/source/b.brs");
  guint32 f = bl_profile_intern (profile, "f");
  guint32 g = bl_profile_intern (profile, "g");
  guint32 h = bl_profile_intern (profile, "h");
  guint32 nf = bl_profile_add_child (profile, thread, f, b_file, 1);
  guint32 ng = bl_profile_add_child (profile, nf, g, a_file, 10);
  guint32 nh = bl_profile_add_child (profile, nf, h, b_file, 30);
  struct { guint32 file, line, fn; guint64 cpu; } rows[] = {
    { b_file, 5, f, 40 },
    { a_file, 12, g, 40 },
    { b_file, 3, f, 40 },
    { a_file, 11, g, 90 },
    { b_file, 31, h, 0 },     /* a record with no CPU */
    { b_file, 33, h, 7 },
  };

  bl_profile_add_value (profile, nf, BL_METRIC_CPU, 120);
  bl_profile_add_value (profile, ng, BL_METRIC_CPU, 130);
  bl_profile_add_value (profile, nh, BL_METRIC_CPU, 7);
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      guint32 index = bl_profile_lookup_line (profile, rows[i].file, rows[i].line, rows[i].fn);

      bl_profile_add_line_value (profile, index, BL_METRIC_CPU, rows[i].cpu);
      if (rows[i].line == 31)
        bl_profile_add_line_value (profile, index, BL_METRIC_ALLOC_BYTES, 512);
    }
  bl_profile_finish (profile);

  return profile;
}

static char *
ranking_string (BlProfile  *profile,
                BlMetricId  metric,
                guint       limit)
{
  g_autofree guint32 *ranked = NULL;
  GString *s = g_string_new (NULL);
  guint n = 0;

  ranked = bl_lines_rank (profile, metric, limit, &n);
  for (guint i = 0; i < n; i++)
    {
      const BlLine *l = bl_profile_get_line (profile, ranked[i]);

      g_string_append_printf (s, "%s:%u=%" G_GUINT64_FORMAT " ",
                              bl_profile_get_string (profile, l->file), l->line,
                              bl_profile_get_line_value (profile, metric, ranked[i]));
    }

  return g_string_free (s, FALSE);
}

static void
test_rank (void)
{
  g_autoptr(BlProfile) profile = build_profile ();
  g_autofree char *all = ranking_string (profile, BL_METRIC_CPU, 0);
  g_autofree char *two = ranking_string (profile, BL_METRIC_CPU, 2);
  g_autofree char *many = ranking_string (profile, BL_METRIC_CPU, 1000);
  g_autofree char *alloc = ranking_string (profile, BL_METRIC_ALLOC_BYTES, 0);
  g_autofree char *calls = ranking_string (profile, BL_METRIC_CALLS, 0);

  /* 90 first; the three 40s by file then line; the zero left out */
  g_assert_cmpstr (all, ==,
                   "pkg:/source/a.brs:11=90 pkg:/source/a.brs:12=40 pkg:/source/b.brs:3=40 "
                   "pkg:/source/b.brs:5=40 pkg:/source/b.brs:33=7 ");
  g_assert_cmpstr (two, ==, "pkg:/source/a.brs:11=90 pkg:/source/a.brs:12=40 ");
  g_assert_cmpstr (many, ==, all);
  g_assert_cmpstr (alloc, ==, "pkg:/source/b.brs:31=512 ");
  g_assert_cmpstr (calls, ==, "");
}

static void
test_sets (void)
{
  g_autoptr(BlProfile) profile = build_profile ();
  g_autoptr(BlLineSet) file_set = NULL;
  g_autoptr(BlLineSet) f_set = NULL;
  g_autoptr(BlLineSet) h_set = NULL;
  guint32 b_file = bl_profile_find_string (profile, "pkg:/source/b.brs");
  guint32 f = find_function (profile, "f");
  guint32 h = find_function (profile, "h");
  guint position;

  /* every line of b.brs, whichever function */
  file_set = bl_line_set_new_for_file (profile, b_file);
  g_assert_cmpuint (bl_line_set_get_n_lines (file_set), ==, 4);
  g_assert_cmpuint (bl_line_set_get_line_number (file_set, 0), ==, 3);
  g_assert_cmpuint (bl_line_set_get_line_number (file_set, 1), ==, 5);
  g_assert_cmpuint (bl_line_set_get_line_number (file_set, 2), ==, 31);
  g_assert_cmpuint (bl_line_set_get_line_number (file_set, 3), ==, 33);
  g_assert_cmpuint (bl_line_set_get_function (file_set), ==, BL_NODE_NONE);
  g_assert_cmpuint (bl_line_set_get_sum (file_set, BL_METRIC_CPU), ==, 87);
  /* ties: the first in line order is the hottest */
  g_assert_true (bl_line_set_get_hottest (file_set, BL_METRIC_CPU, &position));
  g_assert_cmpuint (position, ==, 0);

  f_set = bl_line_set_new_for_function (profile, f);
  g_assert_cmpuint (bl_line_set_get_n_lines (f_set), ==, 2);
  g_assert_cmpuint (bl_line_set_get_sum (f_set, BL_METRIC_CPU), ==, 80);

  h_set = bl_line_set_new_for_function (profile, h);
  g_assert_cmpuint (bl_line_set_get_n_lines (h_set), ==, 2);
  g_assert_cmpuint (bl_line_set_get_value (h_set, BL_METRIC_CPU, 0), ==, 0);
  g_assert_cmpuint (bl_line_set_get_value (h_set, BL_METRIC_ALLOC_BYTES, 0), ==, 512);
  g_assert_true (bl_line_set_get_hottest (h_set, BL_METRIC_CPU, &position));
  g_assert_cmpuint (position, ==, 1);
  g_assert_cmpuint (bl_lines_find_function (profile, bl_line_set_get_line_index (h_set, 1)),
                    ==, h);
}

/* The sample's lines: every line sum equals the functions' self CPU. */
static void
test_sample (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples",
                                                 "roku-grid-app.bsprof", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) loaded = bl_format_load_file (file, NULL, NULL, NULL, &error);
  BlProfile *profile;
  guint64 line_sum = 0;

  g_assert_no_error (error);
  profile = BL_PROFILE (loaded);
  g_assert_true (bl_profile_get_info (profile)->has_lines);

  for (guint32 i = 0; i < bl_profile_get_n_lines (profile); i++)
    line_sum += bl_profile_get_line_value (profile, BL_METRIC_CPU, i);
  g_assert_cmpuint (line_sum, ==, bl_profile_get_grand_total (profile, BL_METRIC_CPU));

  for (guint32 f = 0; f < bl_profile_get_n_functions (profile); f++)
    {
      g_autoptr(BlLineSet) set = bl_line_set_new_for_function (profile, f);

      g_assert_cmpuint (bl_line_set_get_sum (set, BL_METRIC_CPU), ==,
                        bl_profile_get_function_self (profile, BL_METRIC_CPU, f));
    }
}

static int
compare_records (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  return bl_lines_compare (user_data, BL_METRIC_CPU, *(const guint32 *) a, *(const guint32 *) b);
}

/* the ranking is bl_lines_compare()'s order, on many records with many
 * ties (values read once per record, ties broken by file and line), and
 * with values spread over five bytes (every digit of the radix sort) */
static void
check_rank_order (gboolean wide_values)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autofree guint32 *ranked = NULL;
  g_autofree guint32 *expected = NULL;
  BlBsprofWriter *w;
  guint n = 0, n_expected = 0;

  w = new_writer ();
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/a.brs");
  bl_bsprof_writer_string (w, 3, "pkg:/source/b.brs");
  bl_bsprof_writer_string (w, 4, "main");
  bl_bsprof_writer_string (w, 5, "other");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 4);
  bl_bsprof_writer_path (w, 2, 1, 7, 3, 1, 5);
  for (guint i = 0; i < 3000; i++)
    bl_bsprof_writer_cpu (w, 1 + i % 2, i / 2,
                          wide_values ? 1 + (guint64) ((i * 2654435761u) % 1000003u) * 1000003u
                                      : 1 + (i * 7919u) % 23,
                          1);
  bl_bsprof_writer_end (w, 1);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  profile = BL_PROFILE (bl_format_load_bytes (bytes, &error));
  g_assert_no_error (error);

  ranked = bl_lines_rank (profile, BL_METRIC_CPU, 0, &n);
  expected = g_new (guint32, bl_profile_get_n_lines (profile) + 1);
  for (guint32 i = 0; i < bl_profile_get_n_lines (profile); i++)
    if (bl_profile_get_line_value (profile, BL_METRIC_CPU, i) != 0)
      expected[n_expected++] = i;
  g_qsort_with_data (expected, n_expected, sizeof (guint32), compare_records, profile);

  g_assert_cmpuint (n, >, 1000);
  g_assert_cmpuint (n, ==, n_expected);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (ranked[i], ==, expected[i]);

  /* a limit keeps the hottest */
  g_clear_pointer (&ranked, g_free);
  ranked = bl_lines_rank (profile, BL_METRIC_CPU, 10, &n);
  g_assert_cmpuint (n, ==, 10);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (ranked[i], ==, expected[i]);

  /* the place order: every record once, by file name, line, record; and
   * ranking with it kept gives the same, metric after metric */
  {
    guint n_order = 0;
    g_autofree guint32 *order = bl_lines_place_order (profile, &n_order);
    g_autofree guint8 *seen = g_new0 (guint8, n_order + 1);

    g_assert_cmpuint (n_order, ==, bl_profile_get_n_lines (profile));
    for (guint k = 0; k < n_order; k++)
      {
        g_assert_cmpuint (order[k], <, n_order);
        g_assert_false (seen[order[k]]);
        seen[order[k]] = TRUE;
        if (k > 0)
          {
            const BlLine *a = bl_profile_get_line (profile, order[k - 1]);
            const BlLine *b = bl_profile_get_line (profile, order[k]);
            int cmp = strcmp (bl_profile_get_string (profile, a->file),
                              bl_profile_get_string (profile, b->file));

            g_assert_true (cmp < 0 || (cmp == 0 && (a->line < b->line ||
                                                    (a->line == b->line &&
                                                     order[k - 1] < order[k]))));
          }
      }

    for (guint round = 0; round < 2; round++)
      for (BlMetricId m = 0; m < BL_N_METRICS; m++)
        {
          guint n_a = 0, n_b = 0;
          g_autofree guint32 *a = bl_lines_rank (profile, m, 0, &n_a);
          g_autofree guint32 *b = bl_lines_rank_in_order (profile, order, n_order, m, 0, &n_b);

          g_assert_cmpuint (n_a, ==, n_b);
          g_assert_cmpmem (a, n_a * sizeof (guint32), b, n_b * sizeof (guint32));
          for (guint i = 1; i < n_a; i++)
            g_assert_cmpint (bl_lines_compare (profile, m, a[i - 1], a[i]), <, 0);
        }
  }
}

static void
test_rank_order (void)
{
  check_rank_order (FALSE);
  check_rank_order (TRUE);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/lines/arithmetic", test_arithmetic);
  g_test_add_func ("/model/lines/merge", test_merge);
  g_test_add_func ("/model/lines/rank", test_rank);
  g_test_add_func ("/model/lines/rank-order", test_rank_order);
  g_test_add_func ("/model/lines/sets", test_sets);
  g_test_add_func ("/model/lines/sample", test_sample);

  return g_test_run ();
}
