/* test-flame-chart.c — BlFlameChart on speedscope's simple evented profile,
 * under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <string.h>

#include "bl-flame-chart.h"
#include "bl-model.h"
#include "bl-speedscope-reader.h"

#define WIDTH  1400
#define HEIGHT 300

/* speedscope's simple.speedscope.json (0.0.1): in time order
 *   span 0  a  [0, 14]  depth 1
 *   span 1  b  [0, 14]  depth 2
 *   span 2  c  [0, 2]   depth 3
 *   span 3  d  [2, 6]   depth 3
 *   span 4  c  [6, 9]   depth 3
 * so at 1400 px, one unit is 100 px. */
static BlProfile *
load_simple (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data-files", "speedscope",
                                                 "simple-0.0.1.speedscope.json", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  BlProfile *profile;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  profile = bl_speedscope_read_memory ((const guint8 *) contents, len, &error);
  g_assert_no_error (error);
  g_assert_true (bl_profile_has_time_order (profile));

  return profile;
}

static gboolean
is_mapped_and_sized (GtkWidget *widget)
{
  return gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) == WIDTH;
}

static GtkWidget *
present_chart (BlProfile *profile)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *chart = bl_flame_chart_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), chart);
  bl_flame_chart_set_profile (BL_FLAME_CHART (chart), profile, 0);
  gtk_window_present (GTK_WINDOW (window));

  for (guint i = 0; i < 2000 && !is_mapped_and_sized (chart); i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_true (is_mapped_and_sized (chart));
  for (guint i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);

  return chart;
}

static void
assert_bounds (BlFlameChart *chart,
               gsize         span,
               double        x0,
               double        x1,
               guint         row)
{
  graphene_rect_t r;
  guint rh = bl_flame_chart_get_row_height (chart);
  guint top = bl_flame_chart_get_ruler_height (chart);

  g_assert_true (bl_flame_chart_get_span_bounds (chart, span, &r));
  g_assert_cmpfloat_with_epsilon (r.origin.x, x0, 0.01);
  g_assert_cmpfloat_with_epsilon (r.origin.x + r.size.width, x1, 0.01);
  /* the rows start under the time ruler */
  g_assert_cmpfloat_with_epsilon (r.origin.y, top + row * rh, 0.01);
}

static guint
count_nodes (GskRenderNode     *node,
             GskRenderNodeType  type)
{
  guint n = 0;

  if (node == NULL)
    return 0;
  if (gsk_render_node_get_node_type (node) == type)
    return 1;

  switch ((int) gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        n += count_nodes (gsk_container_node_get_child (node, i), type);
      return n;
    case GSK_CLIP_NODE:
      return count_nodes (gsk_clip_node_get_child (node), type);
    case GSK_TRANSFORM_NODE:
      return count_nodes (gsk_transform_node_get_child (node), type);
    case GSK_ROUNDED_CLIP_NODE:
      return count_nodes (gsk_rounded_clip_node_get_child (node), type);
    case GSK_OPACITY_NODE:
      return count_nodes (gsk_opacity_node_get_child (node), type);
    default:
      return 0;
    }
}

static guint
count_color_nodes (GskRenderNode *node)
{
  return count_nodes (node, GSK_COLOR_NODE);
}

static guint
render_color_nodes (GtkWidget *chart)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (chart);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;

  /* let the widget redraw after the last change */
  for (guint i = 0; i < 50; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), WIDTH, HEIGHT);
  node = gtk_snapshot_free_to_node (snapshot);

  return count_color_nodes (node);
}

static void
test_spans_at_pixels (void)
{
  g_autoptr(BlProfile) profile = load_simple ();
  GtkWidget *chart = present_chart (profile);
  BlFlameChart *fc = BL_FLAME_CHART (chart);
  double v0, v1;

  bl_flame_chart_get_visible_range (fc, &v0, &v1);
  g_assert_cmpfloat (v0, ==, 0);
  g_assert_cmpfloat (v1, ==, 14);

  assert_bounds (fc, 0, 0, 1400, 0);
  assert_bounds (fc, 1, 0, 1400, 1);
  assert_bounds (fc, 2, 0, 200, 2);
  assert_bounds (fc, 3, 200, 600, 2);
  assert_bounds (fc, 4, 600, 900, 2);

  /* every span is one bar */
  g_assert_cmpuint (render_color_nodes (chart), ==, 5);

  /* culling: from 3 to 5 only a, b and d are visible */
  bl_flame_chart_set_visible_range (fc, 3, 5);
  g_assert_cmpuint (render_color_nodes (chart), ==, 3);
  assert_bounds (fc, 3, -700, 2100, 2);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (chart)));
}

static void
test_hit_test (void)
{
  g_autoptr(BlProfile) profile = load_simple ();
  GtkWidget *chart = present_chart (profile);
  BlFlameChart *fc = BL_FLAME_CHART (chart);
  double rh = bl_flame_chart_get_row_height (fc);
  double top = bl_flame_chart_get_ruler_height (fc);
  g_autofree char *tooltip = NULL;

  g_assert_cmpint (bl_flame_chart_hit_test (fc, 700, top + 0.5 * rh), ==, 0);
  g_assert_cmpint (bl_flame_chart_hit_test (fc, 1399, top + 1.5 * rh), ==, 1);
  g_assert_cmpint (bl_flame_chart_hit_test (fc, 100, top + 2.5 * rh), ==, 2);
  g_assert_cmpint (bl_flame_chart_hit_test (fc, 400, top + 2.5 * rh), ==, 3);
  g_assert_cmpint (bl_flame_chart_hit_test (fc, 899, top + 2.5 * rh), ==, 4);
  /* b alone from 9 to 14: nothing below it */
  g_assert_cmpint (bl_flame_chart_hit_test (fc, 1000, top + 2.5 * rh), ==, -1);
  g_assert_cmpint (bl_flame_chart_hit_test (fc, 100, top + 3.5 * rh), ==, -1);
  g_assert_cmpint (bl_flame_chart_hit_test (fc, -1, top + 0.5 * rh), ==, -1);

  tooltip = bl_flame_chart_dup_tooltip_text (fc, 3);
  g_assert_nonnull (strstr (tooltip, "d — 4"));
  g_assert_nonnull (strstr (tooltip, "starts at 2"));

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (chart)));
}

static void
test_zoom_and_pan (void)
{
  g_autoptr(BlProfile) profile = load_simple ();
  GtkWidget *chart = present_chart (profile);
  BlFlameChart *fc = BL_FLAME_CHART (chart);
  double rh = bl_flame_chart_get_row_height (fc);
  double top = bl_flame_chart_get_ruler_height (fc);
  double v0, v1;

  /* zoom in twice around the left edge: 0 … 7, 200 px per unit */
  bl_flame_chart_zoom_at (fc, 0, 2);
  bl_flame_chart_get_visible_range (fc, &v0, &v1);
  g_assert_cmpfloat_with_epsilon (v0, 0, 1e-9);
  g_assert_cmpfloat_with_epsilon (v1, 7, 1e-9);
  assert_bounds (fc, 3, 400, 1200, 2);
  g_assert_cmpint (bl_flame_chart_hit_test (fc, 1250, top + 2.5 * rh), ==, 4);

  /* zoom around a point keeps the time under it */
  bl_flame_chart_zoom_at (fc, 700, 2);
  bl_flame_chart_get_visible_range (fc, &v0, &v1);
  g_assert_cmpfloat_with_epsilon (v0, 1.75, 1e-9);
  g_assert_cmpfloat_with_epsilon (v1, 5.25, 1e-9);

  /* 400 px per unit: 200 px to the right is half a unit */
  bl_flame_chart_pan (fc, 200);
  bl_flame_chart_get_visible_range (fc, &v0, &v1);
  g_assert_cmpfloat_with_epsilon (v0, 2.25, 1e-9);

  /* never past the end of the range */
  bl_flame_chart_pan (fc, 1e6);
  bl_flame_chart_get_visible_range (fc, &v0, &v1);
  g_assert_cmpfloat_with_epsilon (v1, 14, 1e-9);

  bl_flame_chart_reset_zoom (fc);
  bl_flame_chart_get_visible_range (fc, &v0, &v1);
  g_assert_cmpfloat (v0, ==, 0);
  g_assert_cmpfloat (v1, ==, 14);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (chart)));
}

/* 10000 calls of a hundredth of a pixel each: slivers, one per column */
static void
test_slivers (void)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("test");
  GtkWidget *chart;
  guint32 root, a, b;
  guint span, n;
  double rh, top;

  root = bl_profile_add_thread (profile, bl_profile_intern (profile, "t"));
  a = bl_profile_add_child (profile, root, bl_profile_intern (profile, "a"), 0, 0);
  b = bl_profile_add_child (profile, a, bl_profile_intern (profile, "b"), 0, 0);
  span = bl_profile_add_span (profile, 0, a, 0);
  bl_profile_set_span_end (profile, 0, span, 1000000);
  for (guint i = 0; i < 10000; i++)
    {
      span = bl_profile_add_span (profile, 0, b, i * 100);
      bl_profile_set_span_end (profile, 0, span, i * 100 + 1);
    }
  bl_profile_add_value (profile, a, BL_METRIC_TIME_NS, 1000000 - 10000);
  bl_profile_add_value (profile, b, BL_METRIC_TIME_NS, 10000);
  bl_profile_finish (profile);

  chart = present_chart (profile);
  n = render_color_nodes (chart);
  g_assert_cmpuint (n, >=, WIDTH / 2);
  g_assert_cmpuint (n, <=, WIDTH + 1);

  /* a sliver can be pointed at */
  rh = bl_flame_chart_get_row_height (BL_FLAME_CHART (chart));
  top = bl_flame_chart_get_ruler_height (BL_FLAME_CHART (chart));
  g_assert_cmpint (bl_flame_chart_hit_test (BL_FLAME_CHART (chart), 700, top + 1.5 * rh), >, 0);

  /* zoomed in on the first 1000 units: ten calls of 14 px */
  bl_flame_chart_set_visible_range (BL_FLAME_CHART (chart), 0, 1000);
  g_assert_cmpuint (render_color_nodes (chart), ==, 11);
  g_assert_cmpint (bl_flame_chart_hit_test (BL_FLAME_CHART (chart), 1.4 * 100 + 0.7,
                                            top + 1.5 * rh),
                   ==, 2);
  g_assert_cmpint (bl_flame_chart_hit_test (BL_FLAME_CHART (chart), 1.4 * 150, top + 1.5 * rh),
                   ==, -1);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (chart)));
}

static void
test_no_time_order (void)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("test");
  GtkWidget *chart;
  guint32 root;

  root = bl_profile_add_thread (profile, bl_profile_intern (profile, "t"));
  bl_profile_add_value (profile, bl_profile_add_child (profile, root,
                                                       bl_profile_intern (profile, "f"), 0, 0),
                        BL_METRIC_SAMPLES, 3);
  bl_profile_finish (profile);

  chart = present_chart (profile);
  g_assert_cmpuint (render_color_nodes (chart), ==, 0);
  g_assert_cmpint (bl_flame_chart_hit_test (BL_FLAME_CHART (chart), 10, 5), ==, -1);
  g_assert_null (bl_flame_chart_dup_tooltip_text (BL_FLAME_CHART (chart), 0));

  bl_flame_chart_set_profile (BL_FLAME_CHART (chart), NULL, 0);
  g_assert_null (bl_flame_chart_get_profile (BL_FLAME_CHART (chart)));
  g_assert_cmpuint (render_color_nodes (chart), ==, 0);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (chart)));
}

static gboolean
has_color (GskRenderNode *node,
           const GdkRGBA *color)
{
  switch ((int) gsk_render_node_get_node_type (node))
    {
    case GSK_COLOR_NODE:
      return gdk_rgba_equal (gsk_color_node_get_color (node), color);
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        if (has_color (gsk_container_node_get_child (node, i), color))
          return TRUE;
      return FALSE;
    case GSK_CLIP_NODE:
      return has_color (gsk_clip_node_get_child (node), color);
    case GSK_TRANSFORM_NODE:
      return has_color (gsk_transform_node_get_child (node), color);
    default:
      return FALSE;
    }
}

/* every thread a lane of its own on one time axis, under its name, in the
 * flame graph's colours */
static void
test_lanes (void)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("test");
  GtkWidget *chart;
  BlFlameChart *fc;
  GtkWidget *graph = bl_flame_graph_new ();
  graphene_rect_t a_rect, b_rect;
  guint32 roots[2], a, b;
  guint span;
  double rh, top;
  g_autofree char *tooltip = NULL;

  g_object_ref_sink (graph);
  bl_profile_enable_metric (profile, BL_METRIC_TIME_NS);
  roots[0] = bl_profile_add_thread (profile, bl_profile_intern (profile, "main"));
  roots[1] = bl_profile_add_thread (profile, bl_profile_intern (profile, "render"));
  a = bl_profile_add_child (profile, roots[0], bl_profile_intern (profile, "a"),
                            bl_profile_intern (profile, "a.brs"), 1);
  b = bl_profile_add_child (profile, roots[1], bl_profile_intern (profile, "b"),
                            bl_profile_intern (profile, "b.brs"), 1);
  span = bl_profile_add_span (profile, 0, a, 0);
  bl_profile_set_span_end (profile, 0, span, 7);
  span = bl_profile_add_span (profile, 1, b, 7);
  bl_profile_set_span_end (profile, 1, span, 14);
  bl_profile_add_value (profile, a, BL_METRIC_TIME_NS, 7);
  bl_profile_add_value (profile, b, BL_METRIC_TIME_NS, 7);
  bl_profile_finish (profile);

  chart = present_chart (profile);
  fc = BL_FLAME_CHART (chart);
  bl_flame_chart_set_profile (fc, profile, G_MAXUINT);
  bl_flame_graph_set_profile (BL_FLAME_GRAPH (graph), profile);
  bl_flame_chart_set_color_graph (fc, BL_FLAME_GRAPH (graph));
  rh = bl_flame_chart_get_row_height (fc);
  top = bl_flame_chart_get_ruler_height (fc);
  g_assert_cmpuint (bl_flame_chart_get_n_lanes (fc), ==, 2);

  /* one axis over both threads: 0 … 14, 100 px a unit; render below main */
  g_assert_true (bl_flame_chart_get_span_bounds (fc, 0, &a_rect));
  g_assert_true (bl_flame_chart_get_span_bounds (fc, 1, &b_rect));
  g_assert_cmpfloat_with_epsilon (a_rect.origin.x, 0, 0.01);
  g_assert_cmpfloat_with_epsilon (b_rect.origin.x, 700, 0.01);
  g_assert_cmpfloat (a_rect.origin.y, >=, top + rh);     /* under the lane's name */
  g_assert_cmpfloat (b_rect.origin.y, >, a_rect.origin.y + rh);
  g_assert_cmpint (bl_flame_chart_hit_test (fc, 100, a_rect.origin.y + rh / 2), ==, 0);
  g_assert_cmpint (bl_flame_chart_hit_test (fc, 800, b_rect.origin.y + rh / 2), ==, 1);
  g_assert_cmpint (bl_flame_chart_hit_test (fc, 100, b_rect.origin.y + rh / 2), ==, -1);
  /* the ruler is not a bar */
  g_assert_cmpint (bl_flame_chart_hit_test (fc, 100, top / 2), ==, -1);
  tooltip = bl_flame_chart_dup_tooltip_text (fc, 1);
  g_assert_nonnull (strstr (tooltip, "b — "));

  /* two bars, both in the flame graph's colour for their frame */
  g_assert_cmpuint (render_color_nodes (chart), ==, 2);
  {
    g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (chart);
    GtkSnapshot *snapshot = gtk_snapshot_new ();
    g_autoptr(GskRenderNode) node = NULL;
    GdkRGBA expected;

    gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), WIDTH, HEIGHT);
    node = gtk_snapshot_free_to_node (snapshot);
    g_assert_true (bl_flame_graph_get_node_color (BL_FLAME_GRAPH (graph), b, &expected));
    g_assert_true (has_color (node, &expected));
  }

  /* one thread: one lane, no name row */
  bl_flame_chart_set_profile (fc, profile, 1);
  g_assert_cmpuint (bl_flame_chart_get_n_lanes (fc), ==, 1);
  g_assert_true (bl_flame_chart_get_span_bounds (fc, 0, &b_rect));
  g_assert_cmpfloat_with_epsilon (b_rect.origin.y, top, 0.01);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (chart)));
  g_object_unref (graph);
}

/* speedscope's simple sampled profile (0.1.2), in seconds: stacks a;b;c,
 * a;b;c, a;b;d, a;b;c, a;b weighing 1, 1, 4, 3 and 5. In time order the
 * samples lie end to end, the repeated stack as one bar: the same five
 * bars as the evented simple profile, over 14 s (10^8 ns a pixel). */
static void
test_sampled (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data-files", "speedscope",
                                                 "simple-sampled-0.1.2.speedscope.json", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *tooltip = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  GtkWidget *chart;
  BlFlameChart *fc;
  double v0, v1, rh, top;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  profile = bl_speedscope_read_memory ((const guint8 *) contents, len, &error);
  g_assert_no_error (error);
  g_assert_true (bl_profile_has_time_order (profile));

  chart = present_chart (profile);
  fc = BL_FLAME_CHART (chart);
  bl_flame_chart_get_visible_range (fc, &v0, &v1);
  g_assert_cmpfloat (v0, ==, 0);
  g_assert_cmpfloat (v1, ==, 14e9);

  assert_bounds (fc, 0, 0, 1400, 0);      /* a */
  assert_bounds (fc, 1, 0, 1400, 1);      /* b */
  assert_bounds (fc, 2, 0, 200, 2);       /* c: the first two samples, one bar */
  assert_bounds (fc, 3, 200, 600, 2);     /* d */
  assert_bounds (fc, 4, 600, 900, 2);     /* c again: a bar of its own */
  g_assert_false (bl_flame_chart_get_span_bounds (fc, 5, &(graphene_rect_t) { 0 }));
  g_assert_cmpuint (render_color_nodes (chart), ==, 5);

  rh = bl_flame_chart_get_row_height (fc);
  top = bl_flame_chart_get_ruler_height (fc);
  g_assert_cmpint (bl_flame_chart_hit_test (fc, 100, top + 2.5 * rh), ==, 2);
  g_assert_cmpint (bl_flame_chart_hit_test (fc, 400, top + 2.5 * rh), ==, 3);
  g_assert_cmpint (bl_flame_chart_hit_test (fc, 1000, top + 2.5 * rh), ==, -1);
  tooltip = bl_flame_chart_dup_tooltip_text (fc, 4);
  g_test_message ("%s", tooltip);
  g_assert_nonnull (strstr (tooltip, "c — 3"));

  /* every thread: the one lane, under its name */
  bl_flame_chart_set_profile (fc, profile, G_MAXUINT);
  g_assert_cmpuint (bl_flame_chart_get_n_lanes (fc), ==, 1);
  g_assert_cmpuint (render_color_nodes (chart), ==, 5);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (chart)));
}

/* what the chart draws now: its own snapshot, called here rather than in
 * a frame of the main loop (during which a worker could finish) */
static GskRenderNode *
snapshot_now (GtkWidget *chart)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();

  GTK_WIDGET_GET_CLASS (chart)->snapshot (chart, snapshot);

  return gtk_snapshot_free_to_node (snapshot);
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

static void
wait_loaded (BlFlameChart *chart)
{
  for (guint i = 0; i < 30000 && bl_flame_chart_get_loading (chart); i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_false (bl_flame_chart_get_loading (chart));
}

/* A sampled thread of 300,000 samples, a;b;c and a;b;d in turn: more than
 * the chart lays out while drawing. Its first frame says it is arranging
 * the calls, a worker makes the lanes, and then the bars are drawn; asked
 * about its spans meanwhile, the chart waits for the worker; given another
 * profile, it drops the work. */
static void
test_large_in_worker (void)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("test");
  BlProfile *weak = profile;
  GtkWidget *chart;
  BlFlameChart *fc;
  guint32 root, a, b, c, d;
  guint notified = 0;
  double rh, top;

  root = bl_profile_add_thread (profile, bl_profile_intern (profile, "t"));
  a = bl_profile_add_child (profile, root, bl_profile_intern (profile, "a"), 0, 0);
  b = bl_profile_add_child (profile, a, bl_profile_intern (profile, "b"), 0, 0);
  c = bl_profile_add_child (profile, b, bl_profile_intern (profile, "c"), 0, 0);
  d = bl_profile_add_child (profile, b, bl_profile_intern (profile, "d"), 0, 0);
  for (guint i = 0; i < 300000; i++)
    {
      bl_profile_add_sample (profile, 0, i % 2 ? d : c, 1);
      bl_profile_add_value (profile, i % 2 ? d : c, BL_METRIC_SAMPLES, 1);
    }
  bl_profile_finish (profile);
  g_object_add_weak_pointer (G_OBJECT (profile), (gpointer *) &weak);

  chart = present_chart (NULL);
  fc = BL_FLAME_CHART (chart);
  g_signal_connect (chart, "notify::loading", G_CALLBACK (count_notify_cb), &notified);
  rh = bl_flame_chart_get_row_height (fc);
  top = bl_flame_chart_get_ruler_height (fc);

  /* drawn: words, no bars, while the worker runs */
  bl_flame_chart_set_profile (fc, profile, 0);
  g_assert_false (bl_flame_chart_get_loading (fc));
  {
    g_autoptr(GskRenderNode) node = snapshot_now (chart);

    g_assert_true (bl_flame_chart_get_loading (fc));
    g_assert_cmpuint (count_color_nodes (node), ==, 0);
    g_assert_cmpuint (count_nodes (node, GSK_TEXT_NODE), ==, 1);
  }
  g_assert_cmpuint (notified, ==, 1);
  wait_loaded (fc);
  g_assert_cmpuint (notified, ==, 2);
  g_assert_cmpuint (render_color_nodes (chart), >=, WIDTH / 2);
  g_assert_cmpint (bl_flame_chart_hit_test (fc, 700, top + 0.5 * rh), ==, 0);
  g_assert_cmpint (bl_flame_chart_hit_test (fc, 700, top + 1.5 * rh), ==, 1);
  g_assert_cmpint (bl_flame_chart_hit_test (fc, 700, top + 2.5 * rh), >, 1);

  /* asked while the worker runs: the answer waits for it */
  bl_flame_chart_set_profile (fc, profile, G_MAXUINT);
  gsk_render_node_unref (snapshot_now (chart));
  g_assert_true (bl_flame_chart_get_loading (fc));
  g_assert_cmpuint (bl_flame_chart_get_n_lanes (fc), ==, 1);
  g_assert_false (bl_flame_chart_get_loading (fc));
  g_assert_cmpuint (notified, ==, 4);
  /* under the thread's name row now */
  g_assert_cmpint (bl_flame_chart_hit_test (fc, 700, top + 1.5 * rh), ==, 0);
  for (guint i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_false (bl_flame_chart_get_loading (fc));
  g_assert_cmpuint (render_color_nodes (chart), >=, WIDTH / 2);

  /* another profile: the work is dropped, nothing is drawn */
  bl_flame_chart_set_profile (fc, profile, 0);
  gsk_render_node_unref (snapshot_now (chart));
  g_assert_true (bl_flame_chart_get_loading (fc));
  bl_flame_chart_set_profile (fc, NULL, 0);
  g_assert_false (bl_flame_chart_get_loading (fc));
  {
    g_autoptr(GskRenderNode) node = snapshot_now (chart);

    g_assert_cmpuint (count_color_nodes (node), ==, 0);
    g_assert_cmpuint (count_nodes (node, GSK_TEXT_NODE), ==, 0);
  }

  /* and the profile goes once the worker has stopped */
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (chart)));
  g_clear_object (&profile);
  for (guint i = 0; i < 30000 && weak != NULL; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_null (weak);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  /* no display is a failure, not a skip */
  if (!gtk_init_check ())
    g_error ("No display: widget tests need one (run them under xvfb-run)");

  g_test_add_func ("/widgets/flame-chart/spans", test_spans_at_pixels);
  g_test_add_func ("/widgets/flame-chart/hit-test", test_hit_test);
  g_test_add_func ("/widgets/flame-chart/zoom-and-pan", test_zoom_and_pan);
  g_test_add_func ("/widgets/flame-chart/slivers", test_slivers);
  g_test_add_func ("/widgets/flame-chart/no-time-order", test_no_time_order);
  g_test_add_func ("/widgets/flame-chart/lanes", test_lanes);
  g_test_add_func ("/widgets/flame-chart/sampled", test_sampled);
  g_test_add_func ("/widgets/flame-chart/large-in-worker", test_large_in_worker);

  return g_test_run ();
}
