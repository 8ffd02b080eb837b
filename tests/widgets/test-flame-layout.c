/* test-flame-layout.c — the GTK-free flame layout: spans, order, searches
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "bl-flame-layout.h"
#include "bl-model.h"

/* two threads; zero-total frames get no rect */
static BlProfile *
make_profile (guint32 *t0, guint32 *t1, guint32 *a, guint32 *b, guint32 *zero, guint32 *c)
{
  BlProfile *p = bl_profile_new ("test");

  bl_profile_enable_metric (p, BL_METRIC_CPU);
  *t0 = bl_profile_add_thread (p, bl_profile_intern (p, "t0"));
  *t1 = bl_profile_add_thread (p, bl_profile_intern (p, "t1"));
  *a = bl_profile_add_child (p, *t0, bl_profile_intern (p, "a"), 0, 0);
  *b = bl_profile_add_child (p, *t0, bl_profile_intern (p, "b"), 0, 0);
  *zero = bl_profile_add_child (p, *a, bl_profile_intern (p, "zero"), 0, 0);
  *c = bl_profile_add_child (p, *t1, bl_profile_intern (p, "c"), 0, 0);
  bl_profile_add_value (p, *a, BL_METRIC_CPU, 30);
  bl_profile_add_value (p, *b, BL_METRIC_CPU, 10);
  bl_profile_add_value (p, *c, BL_METRIC_CPU, 60);
  bl_profile_finish (p);

  return p;
}

static void
test_spans (void)
{
  guint32 t0, t1, a, b, zero, c;
  g_autoptr(BlProfile) p = make_profile (&t0, &t1, &a, &b, &zero, &c);
  g_autoptr(BlFlameLayout) all = NULL;
  g_autoptr(BlFlameLayout) one = NULL;
  g_autoptr(GError) error = NULL;
  const BlFlameRect *r;
  guint begin, end;

  all = bl_flame_layout_new (p, BL_METRIC_CPU, BL_FLAME_ALL_THREADS, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (bl_flame_layout_get_total (all), ==, 100);
  g_assert_cmpuint (bl_flame_layout_get_n_rects (all), ==, 5);
  g_assert_cmpuint (bl_flame_layout_get_n_levels (all), ==, 2);
  g_assert_cmpuint (bl_flame_layout_lookup_node (all, zero), ==, G_MAXUINT);

  r = bl_flame_layout_get_rects (all);
  /* threads side by side at depth 0, then their callees, by x */
  bl_flame_layout_get_level (all, 0, &begin, &end);
  g_assert_cmpuint (end - begin, ==, 2);
  g_assert_cmpfloat_with_epsilon (r[bl_flame_layout_lookup_node (all, t0)].x1, 0.4, 1e-12);
  g_assert_cmpfloat_with_epsilon (r[bl_flame_layout_lookup_node (all, t1)].x0, 0.4, 1e-12);
  g_assert_cmpfloat_with_epsilon (r[bl_flame_layout_lookup_node (all, b)].x0, 0.3, 1e-12);
  g_assert_cmpfloat_with_epsilon (r[bl_flame_layout_lookup_node (all, c)].x1, 1.0, 1e-12);
  g_assert_cmpuint (r[bl_flame_layout_lookup_node (all, c)].parent, ==,
                    bl_flame_layout_lookup_node (all, t1));
  for (guint i = 1; i < bl_flame_layout_get_n_rects (all); i++)
    g_assert_true (r[i - 1].depth < r[i].depth ||
                   (r[i - 1].depth == r[i].depth && r[i - 1].x1 <= r[i].x0));

  /* one thread fills the width */
  one = bl_flame_layout_new (p, BL_METRIC_CPU, 1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (bl_flame_layout_get_total (one), ==, 60);
  g_assert_cmpuint (bl_flame_layout_get_n_rects (one), ==, 2);
  g_assert_cmpuint (bl_flame_layout_lookup_node (one, a), ==, G_MAXUINT);
  r = bl_flame_layout_get_rects (one);
  g_assert_cmpfloat (r[bl_flame_layout_lookup_node (one, c)].x0, ==, 0);
  g_assert_cmpfloat (r[bl_flame_layout_lookup_node (one, c)].x1, ==, 1);

  /* hit-testing */
  g_assert_cmpuint (bl_flame_layout_find_at (all, 1, 0.35), ==,
                    bl_flame_layout_lookup_node (all, b));
  g_assert_cmpuint (bl_flame_layout_find_at (all, 0, 0.99), ==,
                    bl_flame_layout_lookup_node (all, t1));
  g_assert_cmpuint (bl_flame_layout_find_at (all, 5, 0.5), ==, G_MAXUINT);
}

/* the galloping search finds what the plain one does, from any start */
static void
test_searches (void)
{
  g_autoptr(BlProfile) p = bl_profile_new ("test");
  g_autoptr(BlFlameLayout) layout = NULL;
  g_autoptr(GError) error = NULL;
  GRand *rand = g_rand_new_with_seed (42);
  guint32 root;
  guint begin, end;

  bl_profile_enable_metric (p, BL_METRIC_CPU);
  root = bl_profile_add_thread (p, bl_profile_intern (p, "main"));
  for (guint i = 0; i < 3000; i++)
    {
      char name[16];
      guint32 n;

      g_snprintf (name, sizeof name, "f%05u", i);
      n = bl_profile_add_child (p, root, bl_profile_intern (p, name), 0, 0);
      /* a few wide frames among many narrow ones */
      bl_profile_add_value (p, n, BL_METRIC_CPU,
                            i % 97 == 0 ? 5000 : 1 + g_rand_int_range (rand, 0, 5));
    }
  bl_profile_finish (p);

  layout = bl_flame_layout_new (p, BL_METRIC_CPU, BL_FLAME_ALL_THREADS, NULL, &error);
  g_assert_no_error (error);
  bl_flame_layout_get_level (layout, 1, &begin, &end);
  g_assert_cmpuint (end - begin, ==, 3000);

  for (guint k = 0; k < 2000; k++)
    {
      double x = g_rand_double (rand);
      guint want = bl_flame_layout_find_first (layout, 1, x);
      guint from = begin + g_rand_int_range (rand, 0, want - begin + 1);

      g_assert_cmpuint (bl_flame_layout_find_first_from (layout, 1, from, x), ==, want);
      g_assert_true (want == end || bl_flame_layout_get_x1s (layout)[want] > x);
      g_assert_true (want == begin || bl_flame_layout_get_x1s (layout)[want - 1] <= x);
    }

  g_rand_free (rand);
}

static void
test_cancelled (void)
{
  guint32 t0, t1, a, b, zero, c;
  g_autoptr(BlProfile) p = make_profile (&t0, &t1, &a, &b, &zero, &c);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  BlFlameLayout *layout;

  g_cancellable_cancel (cancellable);
  layout = bl_flame_layout_new (p, BL_METRIC_CPU, BL_FLAME_ALL_THREADS, cancellable, &error);
  g_assert_null (layout);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/widgets/flame-layout/spans", test_spans);
  g_test_add_func ("/widgets/flame-layout/searches", test_searches);
  g_test_add_func ("/widgets/flame-layout/cancelled", test_cancelled);

  return g_test_run ();
}
