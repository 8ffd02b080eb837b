/* test-compare.c — the compare view and page under Xvfb: differential
 * colours, hit-testing, graphs kept in step, the function table, charts
 * aligned at a beacon, and compare tabs in the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "bl-alert.h"
#include "bl-application.h"
#include "bl-compare-page.h"
#include "bl-compare-view.h"
#include "bl-model.h"
#include "bl-rrm-writer.h"
#include "bl-stacks-writer.h"
#include "bl-window-compare.h"
#include "bl-window.h"
#include "widget-test-util.h"

#define WIDTH  1200
#define HEIGHT 700

static char *tmpdir;

static const char *before[] = {
  "T;main;grow 100",
  "T;main;shrink 100",
  "T;main;same 100",
  "T;main;gone 60",
  NULL
};

static const char *after[] = {
  "T;main;grow 300",
  "T;main;shrink 20",
  "T;main;same 100",
  "T;main;fresh 50",
  NULL
};

static BlProfile *
profile_from_lines (const char * const *lines)
{
  g_autoptr(GBytes) bytes = bl_stacks_write_bsprof (lines);
  g_autoptr(GError) error = NULL;
  BlProfile *profile;

  profile = bl_bsprof_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   &error);
  g_assert_no_error (error);

  return profile;
}

/* turns of the main loop, a millisecond each, that a wait may take */
#define WAIT_TURNS 5000

static void
settle (void)
{
  for (guint i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
}

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

static gboolean
graphs_laid_out (gpointer data)
{
  BlCompareView *view = data;

  for (guint g = 0; g < 3; g++)
    {
      BlFlameGraph *graph = bl_compare_view_get_flame_graph (view, g);

      if (bl_flame_graph_get_profile (graph) == NULL || bl_flame_graph_get_layout (graph) == NULL)
        return FALSE;
      if (bl_flame_layout_get_profile (bl_flame_graph_get_layout (graph)) !=
          bl_flame_graph_get_profile (graph))
        return FALSE;
    }

  return TRUE;
}

typedef struct
{
  GtkWidget     *window;
  BlCompareView *view;
  BlDiff        *diff;
} Fixture;

static void
fixture_open (Fixture    *f,
              BlDiff     *diff,
              const char *page)
{
  f->window = gtk_window_new ();
  f->view = BL_COMPARE_VIEW (bl_compare_view_new ());
  f->diff = g_object_ref (diff);
  gtk_window_set_default_size (GTK_WINDOW (f->window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->view));
  gtk_window_present (GTK_WINDOW (f->window));
  g_assert_true (test_iterate_until (is_mapped, f->view, WAIT_TURNS));

  bl_compare_view_set_titles (f->view, "before.bsprof", "after.bsprof");
  bl_compare_view_set_diff (f->view, diff);
  if (page != NULL)
    bl_compare_view_set_page (f->view, page);
  if (!bl_diff_is_session (diff))
    g_assert_true (test_iterate_until (graphs_laid_out, f->view, WAIT_TURNS));
  if (g_strcmp0 (page, "differential") == 0 || g_strcmp0 (page, "side-by-side") == 0)
    {
      BlCompareGraph shown = g_str_equal (page, "differential")
        ? BL_COMPARE_GRAPH_DIFF
        : BL_COMPARE_GRAPH_B;

      g_assert_true (test_iterate_until (is_mapped, bl_compare_view_get_flame_graph (f->view, shown),
                                         WAIT_TURNS));
    }
  settle ();
}

static void
fixture_close (Fixture *f)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_clear_object (&f->diff);
  settle ();
}

static BlDiff *
profile_diff (void)
{
  g_autoptr(BlProfile) a = profile_from_lines (before);
  g_autoptr(BlProfile) b = profile_from_lines (after);

  return bl_diff_new (a, b);
}

static guint32
profile_node (BlDiff     *diff,
              BlDiffSide  side,
              const char *stack)
{
  guint32 d = bl_diff_lookup_stack (diff, stack, ';');

  g_assert_cmpuint (d, !=, BL_NODE_NONE);

  return bl_diff_node_to_profile (diff, side, d);
}

/* ---- render nodes ---- */

typedef struct
{
  GPtrArray *bounds;
  GArray    *colors;
} Bars;

static void
collect_bars (GskRenderNode *node,
              Bars          *bars)
{
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        collect_bars (gsk_container_node_get_child (node, i), bars);
      break;
    case GSK_TRANSFORM_NODE:
      collect_bars (gsk_transform_node_get_child (node), bars);
      break;
    case GSK_CLIP_NODE:
      collect_bars (gsk_clip_node_get_child (node), bars);
      break;
    case GSK_ROUNDED_CLIP_NODE:
      collect_bars (gsk_rounded_clip_node_get_child (node), bars);
      break;
    case GSK_DEBUG_NODE:
      collect_bars (gsk_debug_node_get_child (node), bars);
      break;
    case GSK_OPACITY_NODE:
      collect_bars (gsk_opacity_node_get_child (node), bars);
      break;
    case GSK_COLOR_NODE:
      {
        graphene_rect_t *r = g_new (graphene_rect_t, 1);

        gsk_render_node_get_bounds (node, r);
        g_ptr_array_add (bars->bounds, r);
        g_array_append_val (bars->colors, *gsk_color_node_get_color (node));
      }
      break;
    default:
      break;
    }
}

static void
render_bars (GtkWidget *widget,
             Bars      *bars)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;

  gtk_widget_queue_draw (widget);
  gtk_test_widget_wait_for_draw (widget);
  settle ();

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot),
                          gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);

  bars->bounds = g_ptr_array_new_with_free_func (g_free);
  bars->colors = g_array_new (FALSE, FALSE, sizeof (GdkRGBA));
  collect_bars (node, bars);
}

static void
bars_clear (Bars *bars)
{
  g_ptr_array_unref (bars->bounds);
  g_array_unref (bars->colors);
}

/* the colour of the bar drawn at the frame of @node */
static GdkRGBA
bar_color (Bars         *bars,
           BlFlameGraph *graph,
           guint32       node)
{
  graphene_rect_t frame;

  g_assert_true (bl_flame_graph_get_frame_bounds (graph, node, &frame));
  for (guint i = 0; i < bars->bounds->len; i++)
    {
      graphene_rect_t *r = g_ptr_array_index (bars->bounds, i);

      if (G_APPROX_VALUE (r->origin.x, frame.origin.x, 0.6) &&
          G_APPROX_VALUE (r->origin.y, frame.origin.y, 0.6) &&
          r->size.width >= frame.size.width - 2)
        return g_array_index (bars->colors, GdkRGBA, i);
    }

  g_error ("no bar drawn for node %u", node);
}

static gboolean
is_red (const GdkRGBA *c)
{
  return c->red > 0.6 && c->red > c->blue + 0.3 && c->red > c->green + 0.3;
}

static gboolean
is_blue (const GdkRGBA *c)
{
  return c->blue > 0.6 && c->blue > c->red + 0.3;
}

static gboolean
is_grey (const GdkRGBA *c)
{
  return fabs (c->red - c->green) < 0.05 && fabs (c->green - c->blue) < 0.05;
}

static void
test_differential_colours (void)
{
  g_autoptr(BlDiff) diff = profile_diff ();
  Fixture f;
  BlFlameGraph *graph;
  Bars bars;
  GdkRGBA grow, shrink, same, fresh, api;
  GdkRGBA grow_strong;

  fixture_open (&f, diff, "differential");
  g_assert_cmpstr (bl_compare_view_get_page (f.view), ==, "differential");
  graph = bl_compare_view_get_flame_graph (f.view, BL_COMPARE_GRAPH_DIFF);
  g_assert_true (bl_flame_graph_get_profile (graph) == bl_diff_get_profile (diff, BL_DIFF_SIDE_B));

  render_bars (GTK_WIDGET (graph), &bars);
  grow = bar_color (&bars, graph, profile_node (diff, BL_DIFF_SIDE_B, "T;main;grow"));
  shrink = bar_color (&bars, graph, profile_node (diff, BL_DIFF_SIDE_B, "T;main;shrink"));
  same = bar_color (&bars, graph, profile_node (diff, BL_DIFF_SIDE_B, "T;main;same"));
  fresh = bar_color (&bars, graph, profile_node (diff, BL_DIFF_SIDE_B, "T;main;fresh"));
  bars_clear (&bars);

  g_assert_true (is_red (&grow));
  g_assert_true (is_blue (&shrink));
  g_assert_true (is_grey (&same));
  /* a stack only B has is marked in a colour of its own */
  bl_compare_view_get_change_color (f.view, bl_diff_lookup_stack (diff, "T;main;fresh", ';'), &api);
  g_assert_true (gdk_rgba_equal (&fresh, &api));
  g_assert_false (is_red (&fresh));
  g_assert_false (is_grey (&fresh));

  /* intensity follows the relative change: +200 % is stronger than +20 % */
  {
    const char *small_a[] = { "T;main;grow 100", NULL };
    const char *small_b[] = { "T;main;grow 120", NULL };
    g_autoptr(BlProfile) pa = profile_from_lines (small_a);
    g_autoptr(BlProfile) pb = profile_from_lines (small_b);
    g_autoptr(BlDiff) small = bl_diff_new (pa, pb);
    Fixture g;
    GdkRGBA weak;

    fixture_open (&g, small, "differential");
    bl_compare_view_get_change_color (g.view, bl_diff_lookup_stack (small, "T;main;grow", ';'),
                                      &weak);
    bl_compare_view_get_change_color (f.view, bl_diff_lookup_stack (diff, "T;main;grow", ';'),
                                      &grow_strong);
    g_assert_cmpfloat (weak.red - weak.blue, >, 0.05);
    g_assert_cmpfloat (grow_strong.red - grow_strong.blue, >, weak.red - weak.blue + 0.1);
    fixture_close (&g);
  }

  /* normalized: "same" kept its time but its share fell from 1/3 to 1/5 */
  bl_compare_view_set_normalized (f.view, TRUE);
  render_bars (GTK_WIDGET (graph), &bars);
  same = bar_color (&bars, graph, profile_node (diff, BL_DIFF_SIDE_B, "T;main;same"));
  bars_clear (&bars);
  g_assert_true (is_blue (&same));

  /* A's shape shows the stack that went away, in its own colour */
  bl_compare_view_set_normalized (f.view, FALSE);
  bl_compare_view_set_diff_shape (f.view, BL_DIFF_SIDE_A);
  g_assert_true (test_iterate_until (graphs_laid_out, f.view, WAIT_TURNS));
  settle ();
  g_assert_true (bl_flame_graph_get_profile (graph) == bl_diff_get_profile (diff, BL_DIFF_SIDE_A));
  render_bars (GTK_WIDGET (graph), &bars);
  {
    GdkRGBA gone = bar_color (&bars, graph, profile_node (diff, BL_DIFF_SIDE_A, "T;main;gone"));

    bl_compare_view_get_change_color (f.view, bl_diff_lookup_stack (diff, "T;main;gone", ';'),
                                      &api);
    g_assert_true (gdk_rgba_equal (&gone, &api));
    g_assert_false (gdk_rgba_equal (&gone, &fresh));
    grow = bar_color (&bars, graph, profile_node (diff, BL_DIFF_SIDE_A, "T;main;grow"));
    g_assert_true (is_red (&grow));
  }
  bars_clear (&bars);

  fixture_close (&f);
}

static void
test_hit_testing (void)
{
  g_autoptr(BlDiff) diff = profile_diff ();
  Fixture f;
  BlFlameGraph *graph;
  graphene_rect_t r;
  guint32 grow = 0, fresh;
  g_autofree char *tip = NULL;
  g_autofree char *fresh_tip = NULL;

  fixture_open (&f, diff, "differential");
  graph = bl_compare_view_get_flame_graph (f.view, BL_COMPARE_GRAPH_DIFF);

  grow = profile_node (diff, BL_DIFF_SIDE_B, "T;main;grow");
  g_assert_true (bl_flame_graph_get_frame_bounds (graph, grow, &r));
  g_assert_cmpuint (bl_flame_graph_get_node_at (graph, r.origin.x + r.size.width / 2,
                                                r.origin.y + r.size.height / 2), ==, grow);

  tip = bl_flame_graph_dup_tooltip_text (graph, grow);
  g_assert_nonnull (tip);
  g_assert_true (g_str_has_prefix (tip, "grow\n"));
  g_assert_nonnull (strstr (tip, "A: 100 µs total"));
  g_assert_nonnull (strstr (tip, "B: 300 µs total"));
  g_assert_nonnull (strstr (tip, "Δ +200 µs (+200.0 %)"));

  fresh = profile_node (diff, BL_DIFF_SIDE_B, "T;main;fresh");
  fresh_tip = bl_flame_graph_dup_tooltip_text (graph, fresh);
  g_assert_nonnull (strstr (fresh_tip, "Only in B"));
  g_assert_nonnull (strstr (fresh_tip, "(new)"));

  /* the side-by-side graphs tell both sides too */
  {
    BlFlameGraph *a = bl_compare_view_get_flame_graph (f.view, BL_COMPARE_GRAPH_A);
    g_autofree char *a_tip = bl_flame_graph_dup_tooltip_text (a, profile_node (diff, BL_DIFF_SIDE_A,
                                                                               "T;main;gone"));

    g_assert_nonnull (strstr (a_tip, "Only in A"));
    g_assert_nonnull (strstr (a_tip, "−100.0 %"));
  }

  fixture_close (&f);
}

static void
test_in_step (void)
{
  g_autoptr(BlDiff) diff = profile_diff ();
  Fixture f;
  BlFlameGraph *a, *b, *d;

  fixture_open (&f, diff, "side-by-side");
  a = bl_compare_view_get_flame_graph (f.view, BL_COMPARE_GRAPH_A);
  b = bl_compare_view_get_flame_graph (f.view, BL_COMPARE_GRAPH_B);
  d = bl_compare_view_get_flame_graph (f.view, BL_COMPARE_GRAPH_DIFF);

  /* zooming into a stack on one side zooms the same stack on the other */
  bl_flame_graph_zoom_to_node (a, profile_node (diff, BL_DIFF_SIDE_A, "T;main;grow"), FALSE);
  settle ();
  g_assert_cmpuint (bl_flame_graph_get_zoom_node (b), ==,
                    profile_node (diff, BL_DIFF_SIDE_B, "T;main;grow"));
  g_assert_cmpuint (bl_flame_graph_get_zoom_node (d), ==,
                    profile_node (diff, BL_DIFF_SIDE_B, "T;main;grow"));

  /* a stack B does not have: B zooms to the nearest one it has */
  bl_flame_graph_zoom_to_node (a, profile_node (diff, BL_DIFF_SIDE_A, "T;main;gone"), FALSE);
  settle ();
  g_assert_cmpuint (bl_flame_graph_get_zoom_node (b), ==,
                    profile_node (diff, BL_DIFF_SIDE_B, "T;main"));

  /* and back from B */
  bl_flame_graph_zoom_to_node (b, profile_node (diff, BL_DIFF_SIDE_B, "T;main;shrink"), FALSE);
  settle ();
  g_assert_cmpuint (bl_flame_graph_get_zoom_node (a), ==,
                    profile_node (diff, BL_DIFF_SIDE_A, "T;main;shrink"));

  /* resetting one side resets all */
  bl_flame_graph_reset_zoom (b);
  settle ();
  for (guint g = 0; g < 3; g++)
    g_assert_cmpuint (bl_flame_graph_get_zoom_node (bl_compare_view_get_flame_graph (f.view, g)),
                      ==, BL_NODE_NONE);

  /* the selection follows too */
  bl_flame_graph_set_selected_node (b, profile_node (diff, BL_DIFF_SIDE_B, "T;main;same"));
  g_assert_cmpuint (bl_flame_graph_get_selected_node (a), ==,
                    profile_node (diff, BL_DIFF_SIDE_A, "T;main;same"));

  /* search applies to both */
  bl_compare_view_set_search (f.view, "grow");
  settle ();
  for (guint g = 0; g < 3; g++)
    g_assert_cmpstr (bl_flame_graph_get_search (bl_compare_view_get_flame_graph (f.view, g)), ==,
                     "grow");
  g_assert_true (bl_flame_graph_node_matches (a, profile_node (diff, BL_DIFF_SIDE_A,
                                                               "T;main;grow")));
  g_assert_true (bl_flame_graph_node_matches (b, profile_node (diff, BL_DIFF_SIDE_B,
                                                               "T;main;grow")));
  g_assert_false (bl_flame_graph_node_matches (b, profile_node (diff, BL_DIFF_SIDE_B,
                                                                "T;main;same")));
  /* the table too */
  g_assert_cmpuint (bl_compare_view_get_n_function_rows (f.view), ==, 1);
  bl_compare_view_set_search (f.view, NULL);

  /* the metric applies to every graph */
  bl_compare_view_set_metric (f.view, BL_METRIC_WALL);
  g_assert_cmpint (bl_compare_view_get_metric (f.view), ==, BL_METRIC_WALL);
  for (guint g = 0; g < 3; g++)
    g_assert_cmpint (bl_flame_graph_get_metric (bl_compare_view_get_flame_graph (f.view, g)), ==,
                     BL_METRIC_WALL);

  fixture_close (&f);
}

static void
count_notify (guint *count)
{
  (*count)++;
}

/* A .bsprof (CPU time) against folded stacks (samples): no metric in
 * common, each side still draws its shape by its own metric */
static void
test_formats (void)
{
  static const char folded[] = "T;main;grow 30\nT;main;fresh 5\nT;main 1\n";
  g_autoptr(BlProfile) a = profile_from_lines (before);
  g_autoptr(BlProfile) b = NULL;
  g_autoptr(BlDiff) diff = NULL;
  g_autoptr(GError) error = NULL;
  BlFlameGraph *graph_b;
  Fixture f;
  guint notified = 0;

  b = bl_folded_read_memory ((const guint8 *) folded, strlen (folded), &error);
  g_assert_no_error (error);
  diff = bl_diff_new (a, b);
  fixture_open (&f, diff, "side-by-side");

  g_assert_cmpint (bl_compare_view_get_metric (f.view), ==, BL_METRIC_CPU);
  g_assert_cmpint (bl_flame_graph_get_metric (bl_compare_view_get_flame_graph (f.view,
                                                                               BL_COMPARE_GRAPH_A)),
                   ==, BL_METRIC_CPU);
  graph_b = bl_compare_view_get_flame_graph (f.view, BL_COMPARE_GRAPH_B);
  g_assert_cmpint (bl_flame_graph_get_metric (graph_b), ==, BL_METRIC_SAMPLES);
  g_assert_cmpuint (bl_flame_layout_get_n_rects (bl_flame_graph_get_layout (graph_b)), ==, 4);

  /* the settings are properties that notify */
  g_signal_connect_swapped (f.view, "notify::normalized", G_CALLBACK (count_notify), &notified);
  g_object_set (f.view, "normalized", TRUE, NULL);
  g_object_set (f.view, "normalized", TRUE, NULL);
  g_assert_cmpuint (notified, ==, 1);
  g_assert_true (bl_compare_view_get_normalized (f.view));

  fixture_close (&f);
}

static const char *
row_name (BlCompareView *view,
          BlDiff        *diff,
          guint          i)
{
  return bl_diff_get_function_name (diff, bl_compare_view_get_function_row (view, i));
}

static void
test_functions (void)
{
  g_autoptr(BlDiff) diff = profile_diff ();
  Fixture f;
  guint n;

  fixture_open (&f, diff, "side-by-side");

  /* main, grow, shrink, same, gone, fresh; by Δ total, largest first */
  n = bl_compare_view_get_n_function_rows (f.view);
  g_assert_cmpuint (n, ==, 6);
  g_assert_cmpstr (row_name (f.view, diff, 0), ==, "grow");     /* +200 */
  g_assert_cmpstr (row_name (f.view, diff, 1), ==, "main");     /* +110 */
  g_assert_cmpstr (row_name (f.view, diff, 2), ==, "fresh");    /* +50 */
  g_assert_cmpstr (row_name (f.view, diff, 3), ==, "same");     /* 0 */
  g_assert_cmpstr (row_name (f.view, diff, 4), ==, "gone");     /* −60 */
  g_assert_cmpstr (row_name (f.view, diff, 5), ==, "shrink");   /* −80 */

  bl_compare_view_set_regressions_only (f.view, TRUE);
  n = bl_compare_view_get_n_function_rows (f.view);
  g_assert_cmpuint (n, ==, 3);
  for (guint i = 0; i < n; i++)
    {
      BlDiffChange change;

      bl_diff_get_function_change (diff, BL_METRIC_CPU,
                                   bl_compare_view_get_function_row (f.view, i),
                                   TRUE, FALSE, &change);
      g_assert_cmpfloat (change.delta, >, 0);
    }

  /* normalized: shares; "main" is the whole run on both sides, no change */
  bl_compare_view_set_normalized (f.view, TRUE);
  n = bl_compare_view_get_n_function_rows (f.view);
  for (guint i = 0; i < n; i++)
    g_assert_cmpstr (row_name (f.view, diff, i), !=, "main");

  bl_compare_view_set_regressions_only (f.view, FALSE);
  g_assert_cmpuint (bl_compare_view_get_n_function_rows (f.view), ==, 6);

  fixture_close (&f);
}

/* ---- the diff that explains itself ---- */

static GtkWidget *
find_label (GtkWidget  *root,
            const char *prefix)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_LABEL (child) &&
          g_str_has_prefix (gtk_label_get_text (GTK_LABEL (child)), prefix))
        return child;
      if ((found = find_label (child, prefix)) != NULL)
        return found;
    }

  return NULL;
}

static GtkWidget *
find_widget (GtkWidget  *root,
             GType       type,
             const char *button_label)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type) &&
          (button_label == NULL ||
           g_strcmp0 (gtk_button_get_label (GTK_BUTTON (child)), button_label) == 0))
        return child;
      if ((found = find_widget (child, type, button_label)) != NULL)
        return found;
    }

  return NULL;
}

static guint
find_row (BlCompareView *view,
          BlDiff        *diff,
          const char    *name)
{
  for (guint i = 0; i < bl_compare_view_get_n_function_rows (view); i++)
    if (g_strcmp0 (row_name (view, diff, i), name) == 0)
      return i;

  g_error ("no row %s", name);
}

/* The hatching drawn over the frame of @node: 1 stripes rising ("/"), −1
 * falling ("\"), 0 none. */
static int
collect_hatch (GskRenderNode         *node,
               const graphene_rect_t *frame)
{
  int found = 0;

  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node) && found == 0; i++)
        found = collect_hatch (gsk_container_node_get_child (node, i), frame);
      return found;
    case GSK_TRANSFORM_NODE:
      return collect_hatch (gsk_transform_node_get_child (node), frame);
    case GSK_CLIP_NODE:
      return collect_hatch (gsk_clip_node_get_child (node), frame);
    case GSK_DEBUG_NODE:
      return collect_hatch (gsk_debug_node_get_child (node), frame);
    case GSK_REPEATING_LINEAR_GRADIENT_NODE:
      {
        graphene_rect_t r;

        gsk_render_node_get_bounds (node, &r);
        if (G_APPROX_VALUE (r.origin.x, frame->origin.x, 0.6) &&
            G_APPROX_VALUE (r.origin.y, frame->origin.y, 0.6))
          return gsk_linear_gradient_node_get_end (node)->y > 0 ? 1 : -1;
      }
      return 0;
    default:
      return 0;
    }
}

static int
frame_hatch (BlFlameGraph *graph,
             guint32       node)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (graph));
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) root = NULL;
  graphene_rect_t frame;

  gtk_widget_queue_draw (GTK_WIDGET (graph));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (graph));
  settle ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot),
                          gtk_widget_get_width (GTK_WIDGET (graph)),
                          gtk_widget_get_height (GTK_WIDGET (graph)));
  root = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (root);
  g_assert_true (bl_flame_graph_get_frame_bounds (graph, node, &frame));

  return collect_hatch (root, &frame);
}

static void
test_explain (void)
{
  g_autoptr(BlDiff) diff = profile_diff ();
  const char *legend_items[] = {
    "Grown", "Shrunk", "New (only B)", "Removed (only A)", "Neutral",
    "Baseline: A (before.bsprof)",
  };
  const char *by_size[] = { "grow", "main", "shrink", "gone", "fresh", "same" };
  const BlDiffKind kinds[] = {
    BL_DIFF_KIND_GROWN, BL_DIFF_KIND_GROWN, BL_DIFF_KIND_SHRUNK, BL_DIFF_KIND_REMOVED,
    BL_DIFF_KIND_NEW, BL_DIFF_KIND_NEUTRAL,
  };
  g_autofree char *absolute_text = NULL;
  GtkWidget *legend;
  GtkLabel *summary;
  BlFlameGraph *graph;
  Fixture f;
  Bars bars;
  GdkRGBA grow, fresh, same, api;

  fixture_open (&f, diff, "differential");
  graph = bl_compare_view_get_flame_graph (f.view, BL_COMPARE_GRAPH_DIFF);

  /* the legend: every class, and which side is the baseline */
  legend = bl_compare_view_get_legend (f.view);
  g_assert_true (gtk_widget_get_mapped (legend));
  g_assert_cmpint (gtk_widget_get_width (legend), <=, WIDTH);
  for (guint i = 0; i < G_N_ELEMENTS (legend_items); i++)
    {
      GtkWidget *item = find_label (legend, legend_items[i]);

      if (item == NULL)
        g_error ("the legend does not say “%s”", legend_items[i]);
      g_assert_true (gtk_widget_get_mapped (item));
      g_assert_cmpint (gtk_widget_get_width (item), >, 0);
    }

  /* the summary sentence, by self values, under the automatic threshold
   * (three functions on both sides: 1 %) */
  summary = bl_compare_view_get_summary_label (f.view);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (summary)));
  g_assert_cmpstr (gtk_label_get_text (summary), ==,
                   "2 functions got slower by 250 µs in total (1 new); the largest: "
                   "grow (+200 µs), fresh (+50 µs). 2 functions got faster by 140 µs in total "
                   "(1 removed); the largest: shrink (−80 µs), gone (−60 µs).");
  g_assert_true (bl_compare_view_get_threshold_auto (f.view));
  g_assert_cmpfloat (bl_compare_view_get_threshold (f.view), ==, 1.0);
  absolute_text = g_strdup (gtk_label_get_text (summary));

  /* the table by the size of the change, with its class */
  bl_compare_view_sort_functions (f.view, "size");
  g_assert_cmpuint (bl_compare_view_get_n_function_rows (f.view), ==, G_N_ELEMENTS (by_size));
  for (guint i = 0; i < G_N_ELEMENTS (by_size); i++)
    {
      g_assert_cmpstr (row_name (f.view, diff, i), ==, by_size[i]);
      g_assert_cmpint (bl_compare_view_get_function_kind (f.view, i), ==, kinds[i]);
    }

  /* switching the mode changes the figures: "same" kept its 100 µs, but
   * its share fell from 27.8 % to 21.3 % */
  bl_compare_view_set_normalized (f.view, TRUE);
  g_assert_cmpstr (gtk_label_get_text (summary), !=, absolute_text);
  g_assert_true (g_str_has_prefix (gtk_label_get_text (summary),
                                   "2 functions got slower by 46.69 pp in total (1 new); "
                                   "the largest: grow (+36.05 pp), fresh (+10.64 pp)."));
  g_assert_cmpint (bl_compare_view_get_function_kind (f.view, find_row (f.view, diff, "same")),
                   ==, BL_DIFF_KIND_SHRUNK);
  bl_compare_view_set_normalized (f.view, FALSE);
  g_assert_cmpstr (gtk_label_get_text (summary), ==, absolute_text);
  g_assert_cmpint (bl_compare_view_get_function_kind (f.view, find_row (f.view, diff, "same")),
                   ==, BL_DIFF_KIND_NEUTRAL);

  /* a threshold of 60 % of A's 360 µs: grow's +200 µs is noise now and
   * drawn grey; the new stack keeps its colour */
  render_bars (GTK_WIDGET (graph), &bars);
  grow = bar_color (&bars, graph, profile_node (diff, BL_DIFF_SIDE_B, "T;main;grow"));
  bars_clear (&bars);
  g_assert_true (is_red (&grow));
  bl_compare_view_set_threshold (f.view, 60.0);
  g_assert_false (bl_compare_view_get_threshold_auto (f.view));
  g_assert_cmpfloat (bl_compare_view_get_threshold (f.view), ==, 60.0);
  render_bars (GTK_WIDGET (graph), &bars);
  grow = bar_color (&bars, graph, profile_node (diff, BL_DIFF_SIDE_B, "T;main;grow"));
  same = bar_color (&bars, graph, profile_node (diff, BL_DIFF_SIDE_B, "T;main;same"));
  fresh = bar_color (&bars, graph, profile_node (diff, BL_DIFF_SIDE_B, "T;main;fresh"));
  bars_clear (&bars);
  g_assert_true (is_grey (&grow));
  g_assert_true (gdk_rgba_equal (&grow, &same));
  bl_compare_view_get_change_color (f.view, bl_diff_lookup_stack (diff, "T;main;fresh", ';'),
                                    &api);
  g_assert_true (gdk_rgba_equal (&fresh, &api));
  g_assert_false (is_grey (&fresh));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (summary),
                                   "1 function got slower by 50 µs in total (1 new)"));
  g_assert_cmpint (bl_compare_view_get_function_kind (f.view, find_row (f.view, diff, "grow")),
                   ==, BL_DIFF_KIND_NEUTRAL);
  {
    g_autofree char *tip = bl_flame_graph_dup_tooltip_text (graph,
                                                           profile_node (diff, BL_DIFF_SIDE_B,
                                                                         "T;main;grow"));

    g_assert_nonnull (strstr (tip, "Neutral: the change is inside the noise threshold."));
  }
  /* regressions: beyond the threshold, or new */
  bl_compare_view_set_regressions_only (f.view, TRUE);
  g_assert_cmpuint (bl_compare_view_get_n_function_rows (f.view), ==, 1);
  g_assert_cmpstr (row_name (f.view, diff, 0), ==, "fresh");
  bl_compare_view_set_regressions_only (f.view, FALSE);

  /* back to the automatic threshold */
  bl_compare_view_set_threshold (f.view, BL_DIFF_THRESHOLD_AUTO);
  g_assert_cmpstr (gtk_label_get_text (summary), ==, absolute_text);

  /* the same through the controls: the spin button shows the automatic
   * 1.0 %; a value typed in is manual, Auto brings the automatic one back;
   * the Normalized button switches the mode */
  {
    GtkSpinButton *spin = GTK_SPIN_BUTTON (find_widget (GTK_WIDGET (f.view),
                                                        GTK_TYPE_SPIN_BUTTON, NULL));
    GtkToggleButton *auto_button = GTK_TOGGLE_BUTTON (find_widget (GTK_WIDGET (f.view),
                                                                   GTK_TYPE_TOGGLE_BUTTON,
                                                                   "A_uto"));
    GtkToggleButton *normalized = GTK_TOGGLE_BUTTON (find_widget (GTK_WIDGET (f.view),
                                                                  GTK_TYPE_TOGGLE_BUTTON,
                                                                  "_Normalized"));

    g_assert_nonnull (spin);
    g_assert_nonnull (auto_button);
    g_assert_nonnull (normalized);
    g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (spin)));
    g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, 1.0);
    g_assert_true (gtk_toggle_button_get_active (auto_button));

    gtk_spin_button_set_value (spin, 60.0);
    g_assert_false (bl_compare_view_get_threshold_auto (f.view));
    g_assert_false (gtk_toggle_button_get_active (auto_button));
    g_assert_true (g_str_has_prefix (gtk_label_get_text (summary),
                                     "1 function got slower by 50 µs in total (1 new)"));
    gtk_toggle_button_set_active (auto_button, TRUE);
    g_assert_true (bl_compare_view_get_threshold_auto (f.view));
    g_assert_cmpstr (gtk_label_get_text (summary), ==, absolute_text);

    gtk_toggle_button_set_active (normalized, TRUE);
    g_assert_true (bl_compare_view_get_normalized (f.view));
    g_assert_cmpstr (gtk_label_get_text (summary), !=, absolute_text);
    gtk_toggle_button_set_active (normalized, FALSE);
    g_assert_false (bl_compare_view_get_normalized (f.view));
    g_assert_cmpstr (gtk_label_get_text (summary), ==, absolute_text);
  }

  /* new stacks are hatched "/", removed ones "\" (in A's shape), grown
   * ones not: a cue besides the hue */
  g_assert_cmpint (frame_hatch (graph, profile_node (diff, BL_DIFF_SIDE_B, "T;main;fresh")), ==,
                   1);
  g_assert_cmpint (frame_hatch (graph, profile_node (diff, BL_DIFF_SIDE_B, "T;main;grow")), ==,
                   0);
  bl_compare_view_set_diff_shape (f.view, BL_DIFF_SIDE_A);
  g_assert_true (test_iterate_until (graphs_laid_out, f.view, WAIT_TURNS));
  settle ();
  g_assert_cmpint (frame_hatch (graph, profile_node (diff, BL_DIFF_SIDE_A, "T;main;gone")), ==,
                   -1);
  g_assert_cmpint (frame_hatch (graph, profile_node (diff, BL_DIFF_SIDE_A, "T;main;shrink")), ==,
                   0);

  fixture_close (&f);
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

/* Values with decimals (33.25 B against 40 B) are shown in bytes, not in
 * the finer stored unit. */
static void
test_explain_decimals (void)
{
  g_autoptr(BlProfile) a = speedscope_bytes ("33.25,10");
  g_autoptr(BlProfile) b = speedscope_bytes ("40,10");
  g_autoptr(BlDiff) diff = bl_diff_new (a, b);
  Fixture f;

  fixture_open (&f, diff, "side-by-side");
  g_assert_cmpstr (gtk_label_get_text (bl_compare_view_get_summary_label (f.view)), ==,
                   "1 function grew by 6.75 B in total; the largest: f (+6.75 B).");
  g_assert_nonnull (find_label (GTK_WIDGET (f.view), "A  before.bsprof — t: 43.25 B"));
  g_assert_nonnull (find_label (GTK_WIDGET (f.view), "B  after.bsprof — t: 50 B"));
  fixture_close (&f);
}

/* The function table fits a 1000 px window without scrolling sideways. */
static void
test_table_width (void)
{
  g_autoptr(BlDiff) diff = profile_diff ();
  GtkWidget *window = gtk_window_new ();
  BlCompareView *view = BL_COMPARE_VIEW (bl_compare_view_new ());
  GtkWidget *table, *scroller;
  GtkAdjustment *h;
  int min_width = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (test_iterate_until (is_mapped, view, WAIT_TURNS));
  bl_compare_view_set_titles (view, "before.bsprof", "after.bsprof");
  bl_compare_view_set_diff (view, diff);
  g_assert_true (test_iterate_until (graphs_laid_out, view, WAIT_TURNS));
  settle ();

  table = GTK_WIDGET (bl_compare_view_get_function_table (view));
  scroller = gtk_widget_get_ancestor (table, GTK_TYPE_SCROLLED_WINDOW);
  g_assert_nonnull (scroller);
  g_assert_true (test_iterate_until (is_mapped, table, WAIT_TURNS));
  settle ();
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (view)), <=, 1000);
  gtk_widget_measure (table, GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
  g_assert_cmpint (min_width, <=, gtk_widget_get_width (scroller));
  h = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_assert_cmpfloat (gtk_adjustment_get_upper (h), <=, gtk_adjustment_get_page_size (h) + 0.5);

  gtk_window_destroy (GTK_WINDOW (window));
  settle ();
}

/* ---- threads ---- */

/* A and B share "main"; only A has "render", only B has "net". */
static const char *threads_before[] = {
  "main;run;work 100",
  "main;run;idle 50",
  "render;draw 70",
  NULL
};

static const char *threads_after[] = {
  "main;run;work 160",
  "main;run;idle 20",
  "net;fetch 40",
  NULL
};

static gboolean
layouts_current (gpointer data)
{
  BlCompareView *view = data;

  if (!graphs_laid_out (view))
    return FALSE;
  for (guint g = 0; g < 3; g++)
    {
      BlFlameGraph *graph = bl_compare_view_get_flame_graph (view, g);

      if (bl_flame_layout_get_thread (bl_flame_graph_get_layout (graph)) !=
          bl_flame_graph_get_thread (graph))
        return FALSE;
    }

  return TRUE;
}

/* The names of the root frames a graph lays out, joined by ",". */
static char *
root_names (BlCompareView  *view,
            BlCompareGraph  which)
{
  BlFlameGraph *graph = bl_compare_view_get_flame_graph (view, which);
  BlFlameLayout *layout = bl_flame_graph_get_layout (graph);
  BlProfile *profile = bl_flame_graph_get_profile (graph);
  const BlFlameRect *rects = bl_flame_layout_get_rects (layout);
  GString *str = g_string_new (NULL);

  for (guint i = 0; i < bl_flame_layout_get_n_rects (layout); i++)
    if (rects[i].depth == 0)
      {
        if (str->len > 0)
          g_string_append_c (str, ',');
        g_string_append (str, bl_profile_get_node_name (profile, rects[i].node));
      }

  return g_string_free (str, FALSE);
}

static void
select_thread (Fixture *f,
               guint    position)
{
  gtk_drop_down_set_selected (bl_compare_view_get_thread_dropdown (f->view), position);
  g_assert_true (test_iterate_until (layouts_current, f->view, WAIT_TURNS));
  settle ();
}

static void
assert_roots (BlCompareView  *view,
              BlCompareGraph  which,
              const char     *expected)
{
  g_autofree char *roots = root_names (view, which);

  g_assert_cmpstr (roots, ==, expected);
}

/* The graph is on screen and a click in the middle of @stack's frame hits it. */
static void
assert_hit (BlCompareView  *view,
            BlDiff         *diff,
            BlCompareGraph  which,
            BlDiffSide      side,
            const char     *stack)
{
  BlFlameGraph *graph = bl_compare_view_get_flame_graph (view, which);
  guint32 node = profile_node (diff, side, stack);
  graphene_rect_t r;

  /* shown again after its empty state: allocated on the next frame */
  g_assert_true (test_iterate_until (is_mapped, graph, WAIT_TURNS));
  g_assert_false (gtk_widget_get_mapped (bl_compare_view_get_empty_state (view, which)));
  g_assert_true (bl_flame_graph_get_frame_bounds (graph, node, &r));
  g_assert_cmpuint (bl_flame_graph_get_node_at (graph, r.origin.x + r.size.width / 2,
                                                r.origin.y + r.size.height / 2), ==, node);
}

/* The graph is replaced by its empty state, which names the thread. */
static void
assert_missing (BlCompareView  *view,
                BlCompareGraph  which,
                const char     *title,
                const char     *description)
{
  GtkWidget *empty = bl_compare_view_get_empty_state (view, which);

  g_assert_true (gtk_widget_get_mapped (empty));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (bl_compare_view_get_flame_graph (view,
                                                                                     which))));
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (empty)), ==, title);
  g_assert_cmpstr (adw_status_page_get_description (ADW_STATUS_PAGE (empty)), ==, description);
}

static gboolean
has_row (BlCompareView *view,
         BlDiff        *diff,
         const char    *name)
{
  for (guint i = 0; i < bl_compare_view_get_n_function_rows (view); i++)
    if (g_strcmp0 (row_name (view, diff, i), name) == 0)
      return TRUE;

  return FALSE;
}

/* The summary follows the thread chosen, as the table does. */
static void
test_explain_thread (void)
{
  g_autoptr(BlProfile) a = profile_from_lines (threads_before);
  g_autoptr(BlProfile) b = profile_from_lines (threads_after);
  g_autoptr(BlDiff) diff = bl_diff_new (a, b);
  GtkLabel *summary;
  Fixture f;

  fixture_open (&f, diff, "side-by-side");
  summary = bl_compare_view_get_summary_label (f.view);
  bl_compare_view_set_thread (f.view, NULL);
  g_assert_cmpstr (gtk_label_get_text (summary), ==,
                   "2 functions got slower by 100 µs in total (1 new); the largest: "
                   "work (+60 µs), fetch (+40 µs). 2 functions got faster by 100 µs in total "
                   "(1 removed); the largest: draw (−70 µs), idle (−30 µs).");

  bl_compare_view_set_thread (f.view, "main");
  g_assert_cmpstr (gtk_label_get_text (summary), ==,
                   "1 function got slower by 60 µs in total; the largest: work (+60 µs). "
                   "1 function got faster by 30 µs in total; the largest: idle (−30 µs).");
  fixture_close (&f);
}

static void
test_threads (void)
{
  g_autoptr(BlProfile) a = profile_from_lines (threads_before);
  g_autoptr(BlProfile) b = profile_from_lines (threads_after);
  g_autoptr(BlDiff) diff = bl_diff_new (a, b);
  static const char *expected[] = { "All threads", "main", "render", "net" };
  GtkDropDown *dropdown;
  GListModel *model;
  BlFlameGraph *graph;
  graphene_rect_t r;
  Fixture f;

  /* the fixtures have the threads in the order the test expects */
  g_assert_cmpuint (bl_profile_get_n_threads (a), ==, 2);
  g_assert_cmpstr (bl_profile_get_thread_name (a, 0), ==, "main");
  g_assert_cmpstr (bl_profile_get_thread_name (a, 1), ==, "render");

  fixture_open (&f, diff, "side-by-side");
  dropdown = bl_compare_view_get_thread_dropdown (f.view);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (dropdown)));

  /* "All threads", A's threads in A's order, then what only B has */
  model = gtk_drop_down_get_model (dropdown);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (model), i), ==, expected[i]);

  /* several threads: all of them to begin with */
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);
  g_assert_null (bl_compare_view_get_thread (f.view));
  assert_roots (f.view, BL_COMPARE_GRAPH_A, "main,render");
  assert_roots (f.view, BL_COMPARE_GRAPH_B, "main,net");
  assert_hit (f.view, diff, BL_COMPARE_GRAPH_A, BL_DIFF_SIDE_A, "render");
  assert_hit (f.view, diff, BL_COMPARE_GRAPH_B, BL_DIFF_SIDE_B, "net;fetch");
  g_assert_true (has_row (f.view, diff, "draw"));
  g_assert_true (has_row (f.view, diff, "fetch"));
  g_assert_cmpuint (bl_compare_view_get_n_function_rows (f.view), ==, 5);

  /* the shared thread: only it, on both sides and in the differential graph */
  select_thread (&f, 1);
  g_assert_cmpstr (bl_compare_view_get_thread (f.view), ==, "main");
  assert_roots (f.view, BL_COMPARE_GRAPH_A, "main");
  assert_roots (f.view, BL_COMPARE_GRAPH_B, "main");
  assert_roots (f.view, BL_COMPARE_GRAPH_DIFF, "main");
  assert_hit (f.view, diff, BL_COMPARE_GRAPH_A, BL_DIFF_SIDE_A, "main;run;work");
  assert_hit (f.view, diff, BL_COMPARE_GRAPH_B, BL_DIFF_SIDE_B, "main;run;idle");
  graph = bl_compare_view_get_flame_graph (f.view, BL_COMPARE_GRAPH_A);
  g_assert_false (bl_flame_graph_get_frame_bounds (graph,
                                                   profile_node (diff, BL_DIFF_SIDE_A, "render"),
                                                   &r));
  /* the table: that thread's functions only */
  g_assert_cmpuint (bl_compare_view_get_n_function_rows (f.view), ==, 3);
  g_assert_true (has_row (f.view, diff, "work"));
  g_assert_false (has_row (f.view, diff, "draw"));
  g_assert_false (has_row (f.view, diff, "fetch"));
  g_assert_cmpstr (row_name (f.view, diff, 0), ==, "work");   /* +60 */
  g_assert_cmpstr (row_name (f.view, diff, 2), ==, "idle");   /* −30 */

  /* a thread only A has: B says so instead of drawing */
  select_thread (&f, 2);
  g_assert_cmpstr (bl_compare_view_get_thread (f.view), ==, "render");
  assert_roots (f.view, BL_COMPARE_GRAPH_A, "render");
  assert_hit (f.view, diff, BL_COMPARE_GRAPH_A, BL_DIFF_SIDE_A, "render;draw");
  assert_missing (f.view, BL_COMPARE_GRAPH_B, "No Thread “render” in B",
                  "Only A recorded this thread.");
  g_assert_cmpuint (bl_compare_view_get_n_function_rows (f.view), ==, 1);
  g_assert_cmpstr (row_name (f.view, diff, 0), ==, "draw");

  /* the differential graph in B's shape has nothing to draw either; in
   * A's shape it has */
  bl_compare_view_set_page (f.view, "differential");
  settle ();
  assert_missing (f.view, BL_COMPARE_GRAPH_DIFF, "No Thread “render” in B",
                  "Only A recorded this thread: draw A’s shape to see what went away.");
  bl_compare_view_set_diff_shape (f.view, BL_DIFF_SIDE_A);
  g_assert_true (test_iterate_until (layouts_current, f.view, WAIT_TURNS));
  settle ();
  assert_roots (f.view, BL_COMPARE_GRAPH_DIFF, "render");
  assert_hit (f.view, diff, BL_COMPARE_GRAPH_DIFF, BL_DIFF_SIDE_A, "render;draw");
  bl_compare_view_set_diff_shape (f.view, BL_DIFF_SIDE_B);
  g_assert_true (test_iterate_until (layouts_current, f.view, WAIT_TURNS));
  bl_compare_view_set_page (f.view, "side-by-side");
  settle ();

  /* by name through the API: the dropdown follows; only B has "net" */
  bl_compare_view_set_thread (f.view, "net");
  g_assert_true (test_iterate_until (layouts_current, f.view, WAIT_TURNS));
  settle ();
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 3);
  assert_missing (f.view, BL_COMPARE_GRAPH_A, "No Thread “net” in A",
                  "Only B recorded this thread.");
  assert_roots (f.view, BL_COMPARE_GRAPH_B, "net");
  assert_hit (f.view, diff, BL_COMPARE_GRAPH_B, BL_DIFF_SIDE_B, "net;fetch");
  g_assert_cmpuint (bl_compare_view_get_n_function_rows (f.view), ==, 1);
  g_assert_cmpstr (row_name (f.view, diff, 0), ==, "fetch");

  /* "All threads" brings everything back */
  select_thread (&f, 0);
  g_assert_null (bl_compare_view_get_thread (f.view));
  assert_roots (f.view, BL_COMPARE_GRAPH_A, "main,render");
  assert_roots (f.view, BL_COMPARE_GRAPH_B, "main,net");
  assert_roots (f.view, BL_COMPARE_GRAPH_DIFF, "main,net");
  assert_hit (f.view, diff, BL_COMPARE_GRAPH_A, BL_DIFF_SIDE_A, "render;draw");
  assert_hit (f.view, diff, BL_COMPARE_GRAPH_B, BL_DIFF_SIDE_B, "main;run;work");
  g_assert_cmpuint (bl_compare_view_get_n_function_rows (f.view), ==, 5);

  fixture_close (&f);

  /* one thread name in all: that thread is chosen */
  {
    g_autoptr(BlDiff) single = profile_diff ();

    fixture_open (&f, single, "side-by-side");
    dropdown = bl_compare_view_get_thread_dropdown (f.view);
    g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)), ==, 2);
    g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 1);
    g_assert_cmpstr (bl_compare_view_get_thread (f.view), ==, "T");
    graph = bl_compare_view_get_flame_graph (f.view, BL_COMPARE_GRAPH_B);
    g_assert_cmpuint (bl_flame_graph_get_thread (graph), ==, 0);
    fixture_close (&f);
  }
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

  return session;
}

static gint64
beacon_time (const BlRrmWriterOptions *options,
             const char               *name)
{
  guint n = 0;
  const BlRrmBeaconSpec *beacons = bl_rrm_writer_get_beacons (options, &n);

  for (guint i = 0; i < n; i++)
    if (g_str_equal (beacons[i].name, name))
      return options->start_ms + beacons[i].offset_ms;

  g_assert_not_reached ();
}

static guint
count_pixels_near (GdkTexture    *texture,
                   const GdkRGBA *color)
{
  int w = gdk_texture_get_width (texture);
  int h = gdk_texture_get_height (texture);
  g_autofree guchar *data = g_malloc ((gsize) w * h * 4);
  guint n = 0;

  gdk_texture_download (texture, data, (gsize) w * 4);
  for (gsize i = 0; i < (gsize) w * h; i++)
    {
      /* GDK_MEMORY_DEFAULT: premultiplied B G R A */
      double b = data[i * 4] / 255.0, g = data[i * 4 + 1] / 255.0, r = data[i * 4 + 2] / 255.0;

      if (fabs (r - color->red) < 0.12 && fabs (g - color->green) < 0.12 &&
          fabs (b - color->blue) < 0.12)
        n++;
    }

  return n;
}

static void
test_session_alignment (void)
{
  BlRrmWriterOptions oa, ob;
  g_autoptr(BlSession) sa = NULL;
  g_autoptr(BlSession) sb = NULL;
  g_autoptr(BlDiff) diff = NULL;
  g_autoptr(GError) error = NULL;
  BlCompareChart *chart;
  Fixture f;
  double xa, xb;

  bl_rrm_writer_options_init (&oa);
  bl_rrm_writer_options_init (&ob);
  oa.scenario = BL_RRM_SCENARIO_REALISTIC;
  oa.n_samples = 120;
  ob.scenario = BL_RRM_SCENARIO_REALISTIC;
  ob.n_samples = 240;
  ob.interval_ms = 1000;
  ob.start_ms = oa.start_ms + 3600000;
  ob.leak_bytes_per_min = 8 * 1024 * 1024;
  sa = session_from_options (&oa);
  sb = session_from_options (&ob);
  diff = bl_diff_new_for_sessions (sa, sb);

  fixture_open (&f, diff, NULL);
  g_assert_cmpstr (bl_compare_view_get_page (f.view), ==, "sessions");
  chart = bl_compare_view_get_chart (f.view, BL_SERIES_MEMORY_USED);
  g_assert_nonnull (chart);
  g_assert_true (test_iterate_until (is_mapped, chart, WAIT_TURNS));
  settle ();
  g_assert_nonnull (bl_compare_view_get_chart (f.view, BL_SERIES_FPS));
  /* sessions have no threads: no thread selector */
  g_assert_false (gtk_widget_get_mapped (
                    GTK_WIDGET (bl_compare_view_get_thread_dropdown (f.view))));

  /* at session start, the two starts meet */
  xa = bl_compare_chart_time_to_x (chart, 0, bl_session_get_summary (sa)->start_ms);
  xb = bl_compare_chart_time_to_x (chart, 1, bl_session_get_summary (sb)->start_ms);
  g_assert_cmpfloat_with_epsilon (xa, xb, 1e-6);

  /* at a beacon that comes later in B, the beacons meet and the starts do not */
  g_assert_true (bl_compare_view_set_alignment (f.view, BL_DIFF_ALIGN_BEACON, "vod_start_complete",
                                                &error));
  g_assert_no_error (error);
  settle ();
  xa = bl_compare_chart_time_to_x (chart, 0, beacon_time (&oa, "vod_start_complete"));
  xb = bl_compare_chart_time_to_x (chart, 1, beacon_time (&ob, "vod_start_complete"));
  g_assert_cmpfloat_with_epsilon (xa, xb, 1e-6);
  g_assert_cmpfloat (bl_compare_chart_time_to_x (chart, 1, ob.start_ms), <,
                     bl_compare_chart_time_to_x (chart, 0, oa.start_ms) - 10);
  /* every chart shares the axis */
  {
    BlCompareChart *cpu = bl_compare_view_get_chart (f.view, BL_SERIES_CPU_TOTAL);

    g_assert_cmpfloat_with_epsilon (bl_compare_chart_time_to_x (cpu, 1,
                                                                beacon_time (&ob,
                                                                             "vod_start_complete")),
                                    xb, 1e-6);
  }

  /* a beacon one session lacks fails and keeps the alignment */
  g_assert_false (bl_compare_view_set_alignment (f.view, BL_DIFF_ALIGN_BEACON, "no_such_beacon",
                                                 &error));
  g_assert_error (error, BL_DIFF_ERROR, BL_DIFF_ERROR_NO_BEACON);
  g_assert_cmpfloat_with_epsilon (bl_compare_chart_time_to_x (chart, 0,
                                                              beacon_time (&oa,
                                                                           "vod_start_complete")),
                                  xa, 1e-6);

  /* both lines are drawn, in their two colours, overlaid and stacked */
  for (guint stacked = 0; stacked < 2; stacked++)
    {
      GtkNative *native = gtk_widget_get_native (GTK_WIDGET (chart));
      g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (chart));
      GtkSnapshot *snapshot = gtk_snapshot_new ();
      g_autoptr(GskRenderNode) node = NULL;
      g_autoptr(GdkTexture) texture = NULL;
      g_autofree char *text = NULL;
      GdkRGBA ca, cb;

      bl_compare_view_set_stacked (f.view, stacked);
      g_assert_cmpint (bl_compare_chart_get_stacked (chart), ==, stacked);
      gtk_widget_queue_draw (GTK_WIDGET (chart));
      gtk_test_widget_wait_for_draw (GTK_WIDGET (chart));
      settle ();

      gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot),
                              gtk_widget_get_width (GTK_WIDGET (chart)),
                              gtk_widget_get_height (GTK_WIDGET (chart)));
      node = gtk_snapshot_free_to_node (snapshot);
      g_assert_nonnull (node);
      texture = gsk_renderer_render_texture (gtk_native_get_renderer (native), node, NULL);
      bl_compare_chart_get_color (chart, 0, &ca);
      bl_compare_chart_get_color (chart, 1, &cb);
      g_assert_cmpuint (count_pixels_near (texture, &ca), >, 50);
      g_assert_cmpuint (count_pixels_near (texture, &cb), >, 50);

      text = bl_compare_chart_dup_text_at (chart, xa);
      g_assert_nonnull (text);
      /* times as the session timeline writes them */
      g_assert_true (g_str_has_prefix (text, "At 0:00: A "));
      g_assert_nonnull (strstr (text, "MiB, B "));
    }

  fixture_close (&f);
}

static guint
count_styled (GtkWidget  *widget,
              const char *text,
              const char *css_class)
{
  guint n = 0;

  if (GTK_IS_LABEL (widget) && g_str_equal (gtk_label_get_text (GTK_LABEL (widget)), text) &&
      gtk_widget_has_css_class (widget, css_class))
    n++;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    n += count_styled (c, text, css_class);
  return n;
}

static gboolean
has_label_text (GtkWidget  *widget,
                const char *text)
{
  if (GTK_IS_LABEL (widget) && g_str_equal (gtk_label_get_text (GTK_LABEL (widget)), text))
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    if (has_label_text (c, text))
      return TRUE;
  return FALSE;
}

/* #14.10: compared sessions zoom, pan and take the timeline's keys, every
 * chart in step; a change shown as ±0.0 % is not coloured; counts are
 * whole */
static void
test_session_zoom (void)
{
  BlRrmWriterOptions oa, ob;
  g_autoptr(BlSession) sa = NULL;
  g_autoptr(BlSession) sb = NULL;
  g_autoptr(BlDiff) diff = NULL;
  BlCompareChart *memory, *cpu;
  gint64 from0, to0, from, to, cfrom, cto;
  Fixture f;

  bl_rrm_writer_options_init (&oa);
  bl_rrm_writer_options_init (&ob);
  oa.scenario = BL_RRM_SCENARIO_REALISTIC;
  oa.n_samples = 300;
  ob = oa;
  ob.start_ms = oa.start_ms + 3600000;
  /* a few bytes more memory by the end: changes of +0.0 % */
  ob.leak_bytes_per_min = oa.leak_bytes_per_min + 2;
  sa = session_from_options (&oa);
  sb = session_from_options (&ob);
  diff = bl_diff_new_for_sessions (sa, sb);

  fixture_open (&f, diff, NULL);
  memory = bl_compare_view_get_chart (f.view, BL_SERIES_MEMORY_USED);
  cpu = bl_compare_view_get_chart (f.view, BL_SERIES_CPU_TOTAL);
  g_assert_true (test_iterate_until (is_mapped, memory, WAIT_TURNS));
  settle ();
  bl_compare_chart_get_range (memory, &from0, &to0);

  /* +: both charts show the same, narrower span */
  g_assert_true (gtk_widget_get_focusable (GTK_WIDGET (memory)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (memory), "chart.zoom", "d", 0.8));
  bl_compare_chart_get_range (memory, &from, &to);
  bl_compare_chart_get_range (cpu, &cfrom, &cto);
  g_assert_cmpint (to - from, <, to0 - from0);
  g_assert_cmpint (from, ==, cfrom);
  g_assert_cmpint (to, ==, cto);

  /* → on the CPU chart pans both */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (cpu), "chart.pan", "d", 0.1));
  bl_compare_chart_get_range (memory, &cfrom, &cto);
  g_assert_cmpint (cfrom, >, from);
  g_assert_cmpint (cto - cfrom, ==, to - from);

  /* the pointer's time is marked on every chart */
  {
    BlTimeAxis *axis = bl_compare_chart_get_axis (memory);
    double xm, xc;

    g_assert_nonnull (axis);
    g_assert_true (bl_compare_chart_get_axis (cpu) == axis);
    g_assert_false (bl_compare_chart_get_hover_x (cpu, NULL));
    bl_time_axis_set_hover (axis, (cfrom + cto) / 2);
    g_assert_true (bl_compare_chart_get_hover_x (memory, &xm));
    g_assert_true (bl_compare_chart_get_hover_x (cpu, &xc));
    g_assert_cmpfloat_with_epsilon (xm, xc, 1e-6);
    g_assert_cmpfloat (xm, >, 20);
    bl_time_axis_clear_hover (axis);
    g_assert_false (bl_compare_chart_get_hover_x (memory, NULL));
  }

  /* Home shows everything again */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (memory), "chart.reset", NULL));
  bl_compare_chart_get_range (cpu, &cfrom, &cto);
  g_assert_cmpint (cfrom, ==, from0);
  g_assert_cmpint (cto, ==, to0);

  /* a change too small to show is not coloured as a regression */
  settle ();
  g_assert_true (has_label_text (GTK_WIDGET (f.view), "+0.0 %"));
  g_assert_cmpuint (count_styled (GTK_WIDGET (f.view), "+0.0 %", "error"), ==, 0);
  g_assert_cmpuint (count_styled (GTK_WIDGET (f.view), "+0.0 %", "success"), ==, 0);

  fixture_close (&f);
}

/* ---- the page and the window ---- */

static char *
save_profile (const char         *name,
              const char * const *lines)
{
  char *path = g_build_filename (tmpdir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (bl_stacks_save_bsprof (lines, path, &error));
  g_assert_no_error (error);

  return path;
}

static gboolean
page_done (gpointer data)
{
  return bl_compare_page_get_state (data) != BL_PROFILE_PAGE_LOADING;
}

static void
test_page (void)
{
  g_autofree char *path_a = save_profile ("page-a.bsprof", before);
  g_autofree char *path_b = save_profile ("page-b.bsprof", after);
  g_autofree char *session_path = g_build_filename (tmpdir, "page-session.json", NULL);
  g_autoptr(GFile) file_a = g_file_new_for_path (path_a);
  g_autoptr(GFile) file_b = g_file_new_for_path (path_b);
  g_autoptr(GFile) session_file = g_file_new_for_path (session_path);
  g_autoptr(GError) error = NULL;
  BlRrmWriterOptions options;
  GtkWidget *window = gtk_window_new ();
  BlComparePage *page;

  bl_rrm_writer_options_init (&options);
  g_assert_true (bl_rrm_write_to_file (&options, session_path, &error));
  g_assert_no_error (error);

  page = bl_compare_page_new (file_a, file_b);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_cmpstr (bl_compare_page_get_title (page), ==, "page-a.bsprof ↔ page-b.bsprof");
  bl_compare_page_load (page);
  g_assert_true (test_iterate_until (page_done, page, WAIT_TURNS));
  g_assert_cmpint (bl_compare_page_get_state (page), ==, BL_PROFILE_PAGE_LOADED);
  g_assert_nonnull (bl_compare_page_get_diff (page));
  g_assert_true (bl_compare_view_get_diff (bl_compare_page_get_view (page)) ==
                 bl_compare_page_get_diff (page));
  g_assert_cmpuint (bl_diff_get_node (bl_compare_page_get_diff (page),
                                      bl_diff_lookup_stack (bl_compare_page_get_diff (page),
                                                            "T;main;fresh", ';'))->presence,
                    ==, BL_DIFF_IN_B);

  /* a profile and a session: a clear error */
  page = bl_compare_page_new (file_a, session_file);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  bl_compare_page_load (page);
  g_assert_true (test_iterate_until (page_done, page, WAIT_TURNS));
  g_assert_cmpint (bl_compare_page_get_state (page), ==, BL_PROFILE_PAGE_FAILED);
  g_assert_nonnull (strstr (bl_compare_page_get_error_message (page),
                            "Compare two profiles or two sessions"));

  /* A already loaded, B unreadable: the error names B */
  {
    g_autoptr(GFile) missing = g_file_new_for_path ("/nonexistent/b.bsprof");
    g_autoptr(BlProfile) loaded = profile_from_lines (before);

    page = bl_compare_page_new (file_a, missing);
    bl_compare_page_set_document (page, BL_DIFF_SIDE_A, G_OBJECT (loaded));
    gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
    bl_compare_page_load (page);
    g_assert_true (test_iterate_until (page_done, page, WAIT_TURNS));
    g_assert_cmpint (bl_compare_page_get_state (page), ==, BL_PROFILE_PAGE_FAILED);
    g_assert_true (g_str_has_prefix (bl_compare_page_get_error_message (page), "b.bsprof: "));
  }

  gtk_window_destroy (GTK_WINDOW (window));
  settle ();
}

static gboolean
profile_page_loaded (gpointer data)
{
  return bl_profile_page_get_state (data) == BL_PROFILE_PAGE_LOADED;
}

static void
test_window (void)
{
  g_autofree char *path_a = save_profile ("window-a.bsprof", before);
  g_autofree char *path_b = save_profile ("window-b.bsprof", after);
  g_autoptr(GFile) file_a = g_file_new_for_path (path_a);
  g_autoptr(GFile) file_b = g_file_new_for_path (path_b);
  g_autoptr(AdwApplication) app = adw_application_new ("io.github.brightlens.BrightlensTestCompare",
                                                       G_APPLICATION_NON_UNIQUE);
  g_autoptr(GError) error = NULL;
  BlWindow *window;
  BlProfilePage *first;
  BlComparePage *page;

  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  window = bl_window_new (GTK_APPLICATION (app));
  gtk_window_present (GTK_WINDOW (window));

  first = bl_window_open_file (window, file_a);
  g_assert_true (test_iterate_until (profile_page_loaded, first, WAIT_TURNS));

  page = bl_window_compare_files (window, file_a, file_b, bl_profile_page_get_document (first));
  g_assert_cmpuint (bl_window_get_n_pages (window), ==, 2);
  /* the compare tab is selected; it is not a profile tab */
  g_assert_null (bl_window_get_current_page (window));
  g_assert_true (test_iterate_until (page_done, page, WAIT_TURNS));
  g_assert_cmpint (bl_compare_page_get_state (page), ==, BL_PROFILE_PAGE_LOADED);
  g_assert_true (bl_diff_get_profile (bl_compare_page_get_diff (page), BL_DIFF_SIDE_A) ==
                 bl_profile_page_get_profile (first));

  /* opening A again finds its profile tab, not the comparison */
  g_assert_true (bl_window_open_file (window, file_a) == first);
  g_assert_cmpuint (bl_window_get_n_pages (window), ==, 2);

  /* a file dropped on A's tab: open it or compare A with it */
  {
    GSList one = { file_b, NULL };
    GSList same = { file_a, NULL };
    GSList two_files = { file_b, &one };
    const char *responses[] = { "compare", "open" };

    g_assert_false (_bl_window_compare_handle_drop (window, &same));
    g_assert_false (_bl_window_compare_handle_drop (window, &two_files));

    for (guint r = 0; r < G_N_ELEMENTS (responses); r++)
      {
        GObject *alert;
        guint before_pages = bl_window_get_n_pages (window);
        AdwTabView *tabs = bl_window_get_tab_view (window);
        GtkWidget *child;

        adw_tab_view_set_selected_page (tabs, adw_tab_view_get_page (tabs, GTK_WIDGET (first)));
        g_assert_true (_bl_window_compare_handle_drop (window, &one));

        /* an AdwAlertDialog in the window (libadwaita 1.5) or an AdwMessageDialog over it */
        alert = bl_alert_find (GTK_WINDOW (window));
        g_assert_nonnull (alert);
        g_assert_cmpstr (bl_alert_get_heading (alert), ==, "Open or Compare?");
        g_assert_true (bl_alert_has_response (alert, "open"));
        g_assert_true (bl_alert_has_response (alert, "compare"));
        g_assert_cmpstr (bl_alert_get_default_response (alert), ==, "compare");

        bl_alert_respond (alert, responses[r]);
        settle ();
        g_assert_cmpuint (bl_window_get_n_pages (window), ==, before_pages + 1);
        child = adw_tab_page_get_child (adw_tab_view_get_selected_page (tabs));
        if (r == 0)
          {
            g_assert_true (BL_IS_COMPARE_PAGE (child));
            g_assert_true (g_file_equal (bl_compare_page_get_file (BL_COMPARE_PAGE (child),
                                                                   BL_DIFF_SIDE_B), file_b));
            g_assert_true (test_iterate_until (page_done, child, WAIT_TURNS));
            /* Ctrl+F reaches the comparison's search */
            settle ();
            gtk_widget_activate_action (GTK_WIDGET (window), "win.search", NULL);
            settle ();
            {
              GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));
              GtkWidget *view = GTK_WIDGET (bl_compare_page_get_view (BL_COMPARE_PAGE (child)));

              g_assert_nonnull (focus);
              g_assert_true (gtk_widget_is_ancestor (focus, view));
              g_assert_true (GTK_IS_SEARCH_ENTRY (focus) ||
                             gtk_widget_get_ancestor (focus, GTK_TYPE_SEARCH_ENTRY) != NULL);
            }
          }
        else
          {
            g_assert_true (BL_IS_PROFILE_PAGE (child));
            g_assert_true (g_file_equal (bl_profile_page_get_file (BL_PROFILE_PAGE (child)),
                                         file_b));
          }
      }
  }

  gtk_window_destroy (GTK_WINDOW (window));
  settle ();
}

typedef struct
{
  GApplication *app;
  guint         polls;
  gboolean      done;
  guint         n_pages;
  char         *title;
  BlDiff       *diff;
} RunState;

static gboolean
command_line_poll_cb (gpointer data)
{
  RunState *state = data;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (state->app));
  AdwTabView *tabs;
  GtkWidget *child;

  if (++state->polls > 2000)
    {
      g_application_quit (state->app);
      return G_SOURCE_REMOVE;
    }

  if (!BL_IS_WINDOW (window) || bl_window_get_n_pages (BL_WINDOW (window)) < 1)
    return G_SOURCE_CONTINUE;

  tabs = bl_window_get_tab_view (BL_WINDOW (window));
  child = adw_tab_page_get_child (adw_tab_view_get_nth_page (tabs, 0));
  if (!BL_IS_COMPARE_PAGE (child))
    {
      g_application_quit (state->app);
      return G_SOURCE_REMOVE;
    }
  if (bl_compare_page_get_state (BL_COMPARE_PAGE (child)) == BL_PROFILE_PAGE_LOADING)
    return G_SOURCE_CONTINUE;

  state->n_pages = bl_window_get_n_pages (BL_WINDOW (window));
  state->title = g_strdup (bl_compare_page_get_title (BL_COMPARE_PAGE (child)));
  g_set_object (&state->diff, bl_compare_page_get_diff (BL_COMPARE_PAGE (child)));
  state->done = TRUE;
  gtk_window_close (window);

  return G_SOURCE_REMOVE;
}

/* brightlens --compare A B: one tab, comparing A with B */
static void
test_command_line (void)
{
  g_autofree char *path_a = save_profile ("cmd-a.bsprof", before);
  g_autofree char *path_b = save_profile ("cmd-b.bsprof", after);
  g_autoptr(BlApplication) app = bl_application_new ();
  char *argv[] = { (char *) "brightlens", (char *) "--compare", path_a, path_b, NULL };
  RunState state = { 0 };
  int status;

  /* no D-Bus name: the test must not meet a running instance */
  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  state.app = G_APPLICATION (app);
  g_timeout_add (10, command_line_poll_cb, &state);
  status = g_application_run (G_APPLICATION (app), 4, argv);

  g_assert_cmpint (status, ==, 0);
  g_assert_true (state.done);
  g_assert_cmpuint (state.n_pages, ==, 1);
  g_assert_cmpstr (state.title, ==, "cmd-a.bsprof ↔ cmd-b.bsprof");
  g_assert_nonnull (state.diff);
  g_assert_false (bl_diff_is_session (state.diff));
  g_assert_cmpuint (bl_diff_get_total (state.diff, BL_DIFF_SIDE_B, BL_METRIC_CPU,
                                       bl_diff_lookup_stack (state.diff, "T;main;grow", ';')),
                    ==, 300);

  g_free (state.title);
  g_clear_object (&state.diff);
}

static void
test_window_and_command_line (void)
{
  test_window ();
  test_command_line ();
}

int
main (int    argc,
      char **argv)
{
  static const char *mime_dirs[] = { "/usr/local/share/mime", "/usr/share/mime", NULL };
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  /* the isolated XDG dirs hide the MIME database, which the image loaders
   * need to recognise the SVG icons of the status pages */
  g_content_type_set_mime_dirs (mime_dirs);
  gtk_init ();
  adw_init ();

  tmpdir = g_dir_make_tmp ("test-compare-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/widgets/compare/differential-colours", test_differential_colours);
  g_test_add_func ("/widgets/compare/hit-testing", test_hit_testing);
  g_test_add_func ("/widgets/compare/in-step", test_in_step);
  g_test_add_func ("/widgets/compare/functions", test_functions);
  g_test_add_func ("/widgets/compare/explain", test_explain);
  g_test_add_func ("/widgets/compare/table-width", test_table_width);
  g_test_add_func ("/widgets/compare/explain-decimals", test_explain_decimals);
  g_test_add_func ("/widgets/compare/formats", test_formats);
  g_test_add_func ("/widgets/compare/threads", test_threads);
  g_test_add_func ("/widgets/compare/explain-thread", test_explain_thread);
  g_test_add_func ("/widgets/compare/session-alignment", test_session_alignment);
  g_test_add_func ("/widgets/compare/session-zoom", test_session_zoom);
  g_test_add_func ("/widgets/compare/page", test_page);
  /* one test: windows add recent files, and the recent manager is a
   * singleton that keeps the first test's (removed) data directory */
  g_test_add_func ("/widgets/compare/window-and-command-line", test_window_and_command_line);

  ret = g_test_run ();

  {
    g_autoptr(GDir) dir = g_dir_open (tmpdir, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *path = g_build_filename (tmpdir, name, NULL);

        g_unlink (path);
      }
    g_rmdir (tmpdir);
  }
  g_free (tmpdir);

  return ret;
}
