/* test-flame-graph.c — BlFlameGraph on a small known tree, under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <string.h>

#include "bl-flame-graph.h"
#include "bl-flame-text.h"
#include "bl-model.h"
#include "widget-test-util.h"

#define WIDTH  1000
#define HEIGHT 300

/* main (thread root, 100)
 *   a  main.brs:10   self 10, total 60
 *     b  b.brs:20    self 30
 *     c  c.brs:30    self 20
 *   d  main.brs:40   self 40
 */
typedef struct
{
  BlProfile *profile;
  guint32    root, a, b, c, d;
} Tree;

static void
tree_init (Tree *t)
{
  guint32 main_file, b_file, c_file;

  t->profile = bl_profile_new ("test");
  main_file = bl_profile_intern (t->profile, "pkg:/source/main.brs");
  b_file = bl_profile_intern (t->profile, "pkg:/source/b.brs");
  c_file = bl_profile_intern (t->profile, "pkg:/source/c.brs");

  bl_profile_enable_metric (t->profile, BL_METRIC_CPU);
  bl_profile_enable_metric (t->profile, BL_METRIC_CALLS);
  t->root = bl_profile_add_thread (t->profile, bl_profile_intern (t->profile, "main"));
  t->a = bl_profile_add_child (t->profile, t->root,
                               bl_profile_intern (t->profile, "a"), main_file, 10);
  t->b = bl_profile_add_child (t->profile, t->a, bl_profile_intern (t->profile, "b"), b_file, 20);
  t->c = bl_profile_add_child (t->profile, t->a,
                               bl_profile_intern (t->profile, "c<T>&"), c_file, 30);
  t->d = bl_profile_add_child (t->profile, t->root,
                               bl_profile_intern (t->profile, "d"), main_file, 40);
  bl_profile_add_value (t->profile, t->a, BL_METRIC_CPU, 10);
  bl_profile_add_value (t->profile, t->b, BL_METRIC_CPU, 30);
  bl_profile_add_value (t->profile, t->c, BL_METRIC_CPU, 20);
  bl_profile_add_value (t->profile, t->d, BL_METRIC_CPU, 40);
  bl_profile_add_value (t->profile, t->b, BL_METRIC_CALLS, 7);
  bl_profile_finish (t->profile);
}

static void
tree_clear (Tree *t)
{
  g_clear_object (&t->profile);
}

/* turns of the main loop, a millisecond each, that a wait may take */
#define WAIT_TURNS 2000

static gboolean
is_mapped_and_sized (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) == WIDTH;
}

static gboolean
has_layout (gpointer data)
{
  return bl_flame_graph_get_layout (data) != NULL;
}

static GtkWidget *
present_graph (BlProfile *profile)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *graph = bl_flame_graph_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), graph);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (test_iterate_until (is_mapped_and_sized, graph, WAIT_TURNS));

  bl_flame_graph_set_profile (BL_FLAME_GRAPH (graph), profile);
  g_assert_true (test_iterate_until (has_layout, graph, WAIT_TURNS));
  /* let the allocation settle after the layout arrived */
  for (guint i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);

  return graph;
}

static void
assert_span (BlFlameGraph *graph,
             guint32       node,
             double        x0,
             double        x1)
{
  graphene_rect_t r;

  g_assert_true (bl_flame_graph_get_frame_bounds (graph, node, &r));
  g_assert_cmpfloat_with_epsilon (r.origin.x, x0, 0.01);
  g_assert_cmpfloat_with_epsilon (r.origin.x + r.size.width, x1, 0.01);
}

static double
center_y (BlFlameGraph *graph,
          guint32       node)
{
  graphene_rect_t r;

  g_assert_true (bl_flame_graph_get_frame_bounds (graph, node, &r));
  return r.origin.y + r.size.height / 2;
}

static void
test_spans (void)
{
  Tree t;
  GtkWidget *graph;
  graphene_rect_t ra, rb, rroot;
  BlFlameLayout *layout;
  guint row_h;

  tree_init (&t);
  graph = present_graph (t.profile);

  layout = bl_flame_graph_get_layout (BL_FLAME_GRAPH (graph));
  g_assert_cmpint (bl_flame_layout_get_n_rects (layout), ==, 5);
  g_assert_cmpint (bl_flame_layout_get_n_levels (layout), ==, 3);

  assert_span (BL_FLAME_GRAPH (graph), t.root, 0, 1000);
  assert_span (BL_FLAME_GRAPH (graph), t.a, 0, 600);
  assert_span (BL_FLAME_GRAPH (graph), t.d, 600, 1000);
  assert_span (BL_FLAME_GRAPH (graph), t.b, 0, 300);
  assert_span (BL_FLAME_GRAPH (graph), t.c, 300, 500);

  /* root at the bottom, callees above */
  bl_flame_graph_get_frame_bounds (BL_FLAME_GRAPH (graph), t.root, &rroot);
  bl_flame_graph_get_frame_bounds (BL_FLAME_GRAPH (graph), t.a, &ra);
  bl_flame_graph_get_frame_bounds (BL_FLAME_GRAPH (graph), t.b, &rb);
  row_h = bl_flame_graph_get_row_height (BL_FLAME_GRAPH (graph));
  g_assert_cmpfloat (rroot.origin.y + rroot.size.height, >, HEIGHT - row_h - 1);
  g_assert_cmpfloat (ra.origin.y, <, rroot.origin.y);
  g_assert_cmpfloat (rb.origin.y, <, ra.origin.y);

  /* icicle: root at the top */
  bl_flame_graph_set_inverted (BL_FLAME_GRAPH (graph), TRUE);
  bl_flame_graph_get_frame_bounds (BL_FLAME_GRAPH (graph), t.root, &rroot);
  bl_flame_graph_get_frame_bounds (BL_FLAME_GRAPH (graph), t.b, &rb);
  g_assert_cmpfloat (rroot.origin.y, ==, 0);
  g_assert_cmpfloat (rb.origin.y, >, rroot.origin.y);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (graph)));
  tree_clear (&t);
}

static void
test_hit (void)
{
  Tree t;
  BlFlameGraph *graph;
  g_autofree char *tooltip = NULL;

  tree_init (&t);
  graph = BL_FLAME_GRAPH (present_graph (t.profile));

  g_assert_cmpuint (bl_flame_graph_get_node_at (graph, 10, center_y (graph, t.root)), ==, t.root);
  g_assert_cmpuint (bl_flame_graph_get_node_at (graph, 999, center_y (graph, t.root)), ==, t.root);
  g_assert_cmpuint (bl_flame_graph_get_node_at (graph, 599, center_y (graph, t.a)), ==, t.a);
  g_assert_cmpuint (bl_flame_graph_get_node_at (graph, 601, center_y (graph, t.d)), ==, t.d);
  g_assert_cmpuint (bl_flame_graph_get_node_at (graph, 150, center_y (graph, t.b)), ==, t.b);
  g_assert_cmpuint (bl_flame_graph_get_node_at (graph, 450, center_y (graph, t.c)), ==, t.c);
  /* nothing above d, nor above the deepest level */
  g_assert_cmpuint (bl_flame_graph_get_node_at (graph, 800, center_y (graph, t.b)), ==,
                    BL_NODE_NONE);
  g_assert_cmpuint (bl_flame_graph_get_node_at (graph, 150, 2), ==, BL_NODE_NONE);

  /* tooltips are plain text: names with < and & survive */
  tooltip = bl_flame_graph_dup_tooltip_text (graph, t.c);
  g_assert_nonnull (strstr (tooltip, "c<T>&"));
  g_assert_nonnull (strstr (tooltip, "pkg:/source/c.brs:30"));
  g_assert_nonnull (strstr (tooltip, "20.0 % of the thread main"));
  g_clear_pointer (&tooltip, g_free);
  tooltip = bl_flame_graph_dup_tooltip_text (graph, t.b);
  g_assert_nonnull (strstr (tooltip, "7 calls"));

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (graph))));
  tree_clear (&t);
}

static void
test_zoom (void)
{
  Tree t;
  BlFlameGraph *graph;
  double x0, x1;

  tree_init (&t);
  graph = BL_FLAME_GRAPH (present_graph (t.profile));

  bl_flame_graph_zoom_to_node (graph, t.a, FALSE);
  bl_flame_graph_get_visible_range (graph, &x0, &x1);
  g_assert_cmpfloat_with_epsilon (x0, 0.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (x1, 0.6, 1e-9);
  g_assert_cmpuint (bl_flame_graph_get_zoom_node (graph), ==, t.a);
  assert_span (graph, t.a, 0, 1000);
  assert_span (graph, t.b, 0, 500);
  assert_span (graph, t.c, 500, 833.33);
  g_assert_cmpuint (bl_flame_graph_get_node_at (graph, 700, center_y (graph, t.c)), ==, t.c);

  /* zoom around the pointer keeps the point under it */
  bl_flame_graph_zoom_at (graph, 500, 0.5);
  bl_flame_graph_get_visible_range (graph, &x0, &x1);
  g_assert_cmpfloat_with_epsilon (x0, 0.15, 1e-9);
  g_assert_cmpfloat_with_epsilon (x1, 0.45, 1e-9);

  /* reset without animation: the widget is not animating in tests when
   * animations are off, so force the range */
  bl_flame_graph_set_visible_range (graph, 0, 1);
  g_assert_cmpuint (bl_flame_graph_get_zoom_node (graph), ==, BL_NODE_NONE);
  assert_span (graph, t.d, 600, 1000);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (graph))));
  tree_clear (&t);
}

static void
test_search (void)
{
  Tree t;
  BlFlameGraph *graph;

  tree_init (&t);
  graph = BL_FLAME_GRAPH (present_graph (t.profile));

  bl_flame_graph_set_search (graph, "C<t");
  g_assert_true (bl_flame_graph_node_matches (graph, t.c));
  g_assert_false (bl_flame_graph_node_matches (graph, t.b));
  g_assert_false (bl_flame_graph_node_matches (graph, t.a));
  g_assert_cmpfloat_with_epsilon (bl_flame_graph_get_match_fraction (graph), 0.2, 1e-9);

  /* a matching parent counts once, not again for its matching child */
  bl_flame_graph_set_search (graph, "a");
  g_assert_true (bl_flame_graph_node_matches (graph, t.a));
  g_assert_true (bl_flame_graph_node_matches (graph, t.root));
  g_assert_cmpfloat_with_epsilon (bl_flame_graph_get_match_fraction (graph), 1.0, 1e-9);

  bl_flame_graph_set_search (graph, "b");
  g_assert_cmpfloat_with_epsilon (bl_flame_graph_get_match_fraction (graph), 0.3, 1e-9);

  bl_flame_graph_set_search (graph, "");
  g_assert_false (bl_flame_graph_node_matches (graph, t.b));
  g_assert_cmpfloat (bl_flame_graph_get_match_fraction (graph), ==, 0);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (graph))));
  tree_clear (&t);
}

typedef struct
{
  guint             n_color;
  guint             n_text;
  GPtrArray        *color_bounds;
  GdkRGBA           root_color;
} NodeCount;

static void
count_nodes (GskRenderNode *node,
             NodeCount     *count)
{
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        count_nodes (gsk_container_node_get_child (node, i), count);
      break;
    case GSK_TRANSFORM_NODE:
      count_nodes (gsk_transform_node_get_child (node), count);
      break;
    case GSK_CLIP_NODE:
      count_nodes (gsk_clip_node_get_child (node), count);
      break;
    case GSK_ROUNDED_CLIP_NODE:
      count_nodes (gsk_rounded_clip_node_get_child (node), count);
      break;
    case GSK_DEBUG_NODE:
      count_nodes (gsk_debug_node_get_child (node), count);
      break;
    case GSK_OPACITY_NODE:
      count_nodes (gsk_opacity_node_get_child (node), count);
      break;
    case GSK_COLOR_NODE:
      {
        graphene_rect_t *r = g_new (graphene_rect_t, 1);

        gsk_render_node_get_bounds (node, r);
        g_ptr_array_add (count->color_bounds, r);
        if (r->origin.x == 0 && r->size.width >= WIDTH - 1 && r->origin.y > HEIGHT / 2)
          count->root_color = *gsk_color_node_get_color (node);
        count->n_color++;
      }
      break;
    case GSK_TEXT_NODE:
      count->n_text++;
      break;
    default:
      break;
    }
}

static GskRenderNode *
render (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();

  /* the paintable shows what the widget drew in its last frame */
  gtk_widget_queue_draw (widget);
  gtk_test_widget_wait_for_draw (widget);
  for (guint i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), WIDTH, HEIGHT);
  return gtk_snapshot_free_to_node (snapshot);
}

static gboolean
has_bar (NodeCount *count,
         double     x0,
         double     x1)
{
  for (guint i = 0; i < count->color_bounds->len; i++)
    {
      graphene_rect_t *r = g_ptr_array_index (count->color_bounds, i);

      /* bars leave a one-pixel gap on their right */
      if (G_APPROX_VALUE (r->origin.x, x0, 0.01) &&
          (G_APPROX_VALUE (r->origin.x + r->size.width, x1, 0.01) ||
           G_APPROX_VALUE (r->origin.x + r->size.width, x1 - 1, 0.01)))
        return TRUE;
    }

  return FALSE;
}

static void
test_render_nodes (void)
{
  Tree t;
  GtkWidget *graph;
  g_autoptr(GskRenderNode) node = NULL;
  NodeCount count = { 0, 0, g_ptr_array_new_with_free_func (g_free), { 0, 0, 0, 0 } };

  tree_init (&t);
  graph = present_graph (t.profile);

  node = render (graph);
  g_assert_nonnull (node);
  count_nodes (node, &count);
  g_assert_cmpuint (count.n_color, ==, 5);
  g_assert_cmpuint (count.n_text, ==, 5);
  g_assert_true (has_bar (&count, 0, 600));
  g_assert_true (has_bar (&count, 600, 1000));
  g_assert_true (has_bar (&count, 300, 500));

  /* selection is painted over the cached bars */
  bl_flame_graph_set_selected_node (BL_FLAME_GRAPH (graph), t.b);
  g_clear_pointer (&node, gsk_render_node_unref);
  node = render (graph);
  g_assert_cmpint (gsk_render_node_get_node_type (node), ==, GSK_CONTAINER_NODE);

  /* heat: the root holds everything, so it gets the hot colour */
  bl_flame_graph_set_palette (BL_FLAME_GRAPH (graph), BL_FLAME_PALETTE_HEAT);
  g_clear_pointer (&node, gsk_render_node_unref);
  node = render (graph);
  count.n_color = 0;
  count_nodes (node, &count);
  g_assert_cmpfloat_with_epsilon (count.root_color.red, 0xe0 / 255.0, 0.01);
  g_assert_cmpfloat_with_epsilon (count.root_color.green, 0x1b / 255.0, 0.01);

  g_ptr_array_unref (count.color_bounds);
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (graph)));
  tree_clear (&t);
}

static void
test_slivers (void)
{
  BlProfile *profile = bl_profile_new ("test");
  guint32 root, wide;
  GtkWidget *graph;
  g_autoptr(GskRenderNode) node = NULL;
  NodeCount count = { 0, 0, g_ptr_array_new_with_free_func (g_free), { 0, 0, 0, 0 } };

  bl_profile_enable_metric (profile, BL_METRIC_CPU);
  root = bl_profile_add_thread (profile, bl_profile_intern (profile, "main"));
  wide = bl_profile_add_child (profile, root, bl_profile_intern (profile, "wide"), 0, 0);
  bl_profile_add_value (profile, wide, BL_METRIC_CPU, 50000);
  for (guint i = 0; i < 5000; i++)
    {
      char name[32];
      guint32 n;

      g_snprintf (name, sizeof name, "tiny%05u", i);
      n = bl_profile_add_child (profile, root, bl_profile_intern (profile, name), 0, 0);
      bl_profile_add_value (profile, n, BL_METRIC_CPU, 10);
    }
  bl_profile_finish (profile);

  graph = present_graph (profile);
  node = render (graph);
  count_nodes (node, &count);

  /* 5002 frames, but 5000 of them share 500 pixels: a few slivers at most */
  g_assert_cmpuint (count.n_color, <, 40);
  g_assert_cmpuint (count.n_color, >=, 3);
  g_assert_true (has_bar (&count, 0, 1000));

  g_ptr_array_unref (count.color_bounds);
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (graph)));
  g_object_unref (profile);
}

typedef struct
{
  char     *text;
  gboolean  done;
} ClipboardRead;

static void
clipboard_read_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  ClipboardRead *read = user_data;

  read->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);
  read->done = TRUE;
}

static gboolean
read_done (gpointer data)
{
  return ((ClipboardRead *) data)->done;
}

static char *
read_clipboard (GtkWidget *widget)
{
  ClipboardRead read = { NULL, FALSE };

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL,
                                 clipboard_read_cb, &read);
  g_assert_true (test_iterate_until (read_done, &read, WAIT_TURNS));

  return read.text;
}

static void
count_activation (guint *count)
{
  (*count)++;
}

static void
test_keyboard (void)
{
  Tree t;
  BlFlameGraph *graph;
  GtkWidget *w;
  double x0, x1;
  guint activations = 0;

  tree_init (&t);
  graph = BL_FLAME_GRAPH (present_graph (t.profile));
  w = GTK_WIDGET (graph);

  /* the first move selects the first root */
  gtk_widget_activate_action (w, "flame.move", "(ii)", 1, 0);
  g_assert_cmpuint (bl_flame_graph_get_selected_node (graph), ==, t.root);
  /* up leaves the root of a flame graph, for the widest child */
  gtk_widget_activate_action (w, "flame.move", "(ii)", 0, -1);
  g_assert_cmpuint (bl_flame_graph_get_selected_node (graph), ==, t.a);
  gtk_widget_activate_action (w, "flame.move", "(ii)", 1, 0);
  g_assert_cmpuint (bl_flame_graph_get_selected_node (graph), ==, t.d);
  gtk_widget_activate_action (w, "flame.move", "(ii)", -1, 0);
  g_assert_cmpuint (bl_flame_graph_get_selected_node (graph), ==, t.a);
  gtk_widget_activate_action (w, "flame.move", "(ii)", 0, -1);
  g_assert_cmpuint (bl_flame_graph_get_selected_node (graph), ==, t.b);
  gtk_widget_activate_action (w, "flame.move", "(ii)", 0, 1);
  g_assert_cmpuint (bl_flame_graph_get_selected_node (graph), ==, t.a);

  /* Space (and the menu's Zoom In) zooms into the selection; Enter zooms
   * and activates the frame (the view opens its source); Escape/Home reset */
  g_signal_connect_swapped (graph, "node-activated", G_CALLBACK (count_activation), &activations);
  gtk_widget_activate_action (w, "flame.zoom-selected", NULL);
  bl_flame_graph_get_visible_range (graph, &x0, &x1);
  g_assert_cmpfloat_with_epsilon (x1, 0.6, 1e-9);
  g_assert_cmpuint (activations, ==, 0);
  gtk_widget_activate_action (w, "flame.reset-zoom", NULL);
  bl_flame_graph_get_visible_range (graph, &x0, &x1);
  g_assert_cmpfloat_with_epsilon (x0, 0.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (x1, 1.0, 1e-9);
  gtk_widget_activate_action (w, "flame.activate-selected", NULL);
  bl_flame_graph_get_visible_range (graph, &x0, &x1);
  g_assert_cmpfloat_with_epsilon (x1, 0.6, 1e-9);
  g_assert_cmpuint (activations, ==, 1);
  gtk_widget_activate_action (w, "flame.show-source", NULL);
  g_assert_cmpuint (activations, ==, 2);
  gtk_widget_activate_action (w, "flame.reset-zoom", NULL);

  /* the frame's stack and name go to the clipboard */
  bl_flame_graph_set_selected_node (graph, t.b);
  gtk_widget_activate_action (w, "flame.copy-stack", NULL);
  {
    g_autofree char *text = read_clipboard (w);

    g_assert_cmpstr (text, ==, "main\na\nb");
  }
  gtk_widget_activate_action (w, "flame.copy-name", NULL);
  {
    g_autofree char *text = read_clipboard (w);

    g_assert_cmpstr (text, ==, "b");
  }

  /* icicle: down leaves the root */
  bl_flame_graph_set_inverted (graph, TRUE);
  bl_flame_graph_set_selected_node (graph, t.root);
  gtk_widget_activate_action (w, "flame.move", "(ii)", 0, 1);
  g_assert_cmpuint (bl_flame_graph_get_selected_node (graph), ==, t.a);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (w)));
  tree_clear (&t);
}

/* The SVG export (bl-flame-svg) draws with bl-flame-text's tooltips and
 * light palette: the widget shows the same. */
static void
test_shared_with_svg (void)
{
  Tree t;
  GtkWidget *graph;
  guint32 nodes[5];

  tree_init (&t);
  graph = present_graph (t.profile);
  nodes[0] = t.root;
  nodes[1] = t.a;
  nodes[2] = t.b;
  nodes[3] = t.c;
  nodes[4] = t.d;

  for (guint i = 0; i < G_N_ELEMENTS (nodes); i++)
    {
      g_autofree char *widget_text = bl_flame_graph_dup_tooltip_text (BL_FLAME_GRAPH (graph),
                                                                      nodes[i]);
      g_autofree char *svg_text = bl_flame_text_dup_tooltip (t.profile, BL_METRIC_CPU, nodes[i]);
      GdkRGBA color;
      BlFlameColor expected;
      guint hue, shade;

      g_assert_nonnull (widget_text);
      g_assert_cmpstr (widget_text, ==, svg_text);

      g_assert_true (bl_flame_graph_get_node_color (BL_FLAME_GRAPH (graph), nodes[i], &color));
      bl_flame_text_get_color_key (t.profile, nodes[i], FALSE, &hue, &shade);
      bl_flame_text_shade_color (bl_flame_text_get_light_palette (), hue, shade, &expected);
      g_assert_cmpfloat_with_epsilon (color.red, expected.red, 1.0 / 255);
      g_assert_cmpfloat_with_epsilon (color.green, expected.green, 1.0 / 255);
      g_assert_cmpfloat_with_epsilon (color.blue, expected.blue, 1.0 / 255);
    }

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (graph)));
  tree_clear (&t);
}

/* the node count from which the graph draws a coarse layout first
 * (COARSE_MIN_NODES in bl-flame-graph.c) */
#define COARSE_MIN_NODES 200000

/* A random profile of exactly @n_nodes nodes over two threads: a parent is
 * one of the last sixteen nodes half the time, any node otherwise; cpu
 * on two nodes in three, mostly small and now and then large. */
static BlProfile *
make_big_profile (guint   n_nodes,
                  guint32 seed)
{
  BlProfile *p = bl_profile_new ("big");
  GRand *rand = g_rand_new_with_seed (seed);
  guint32 names[64];

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      char name[16];

      g_snprintf (name, sizeof name, "fn%u", i);
      names[i] = bl_profile_intern (p, name);
    }
  bl_profile_enable_metric (p, BL_METRIC_CPU);
  bl_profile_add_thread (p, bl_profile_intern (p, "main"));
  bl_profile_add_thread (p, bl_profile_intern (p, "worker"));
  while (bl_profile_get_n_nodes (p) < n_nodes)
    {
      guint32 count = bl_profile_get_n_nodes (p);
      guint32 parent, node;

      if (g_rand_boolean (rand))
        parent = count - 1 - g_rand_int_range (rand, 0, MIN (16, count));
      else
        parent = g_rand_int_range (rand, 0, count);
      node = bl_profile_add_child (p, parent, names[g_rand_int_range (rand, 0, 64)], 0, 0);
      if (g_rand_int_range (rand, 0, 3) != 0)
        bl_profile_add_value (p, node, BL_METRIC_CPU,
                              g_rand_int_range (rand, 0, 50) == 0 ? 5000
                                                                  : g_rand_int_range (rand, 1, 20));
    }
  g_rand_free (rand);
  bl_profile_finish (p);
  g_assert_cmpuint (bl_profile_get_n_nodes (p), ==, n_nodes);

  return p;
}

/* what the graph showed, in order, and what the view was */
typedef struct
{
  GPtrArray *layouts;      /* the non-NULL layouts notified, held */
  GArray    *paints;       /* after-paints counted when each came */
  guint      n_paints;
  gboolean   zoom_on_coarse;
  guint32    node;         /* zoomed into and selected on the coarse layout */
  guint32    zoom_node;    /* the frame holding the view zoomed in further */
  double     x0, x1;
} LayoutLog;

static void
count_paint (GdkFrameClock *clock,
             LayoutLog     *log)
{
  log->n_paints++;
}

static gboolean
hold_main_loop (gpointer data)
{
  g_usleep (G_USEC_PER_SEC / 10);
  return G_SOURCE_REMOVE;
}

static void
layout_notified (BlFlameGraph *graph,
                 GParamSpec   *pspec,
                 LayoutLog    *log)
{
  BlFlameLayout *layout = bl_flame_graph_get_layout (graph);

  if (layout == NULL)
    return;

  g_ptr_array_add (log->layouts, bl_flame_layout_ref (layout));
  g_array_append_val (log->paints, log->n_paints);

  /* the coarse layout is up and the full one not yet asked for: zoom into
   * a frame of it, deep enough to be a sliver, select it, and zoom in
   * further around a point, to a span that is no frame's (a new layout
   * set with bl_flame_graph_set_layout() would zoom back out to the
   * frame's span) */
  if (log->zoom_on_coarse && log->layouts->len == 1 && bl_flame_layout_is_coarse (layout))
    {
      const BlFlameRect *rects = bl_flame_layout_get_rects (layout);
      guint begin, end;

      g_assert_cmpuint (bl_flame_layout_get_n_levels (layout), >, 6);
      bl_flame_layout_get_level (layout, 6, &begin, &end);
      g_assert_cmpuint (begin, <, end);
      log->node = rects[begin].node;
      bl_flame_graph_zoom_to_node (graph, log->node, FALSE);
      bl_flame_graph_set_selected_node (graph, log->node);
      bl_flame_graph_get_visible_range (graph, &log->x0, &log->x1);
      g_assert_cmpfloat (log->x0, ==, rects[begin].x0);
      g_assert_cmpfloat (log->x1, ==, rects[begin].x1);
      g_assert_cmpuint (bl_flame_graph_get_zoom_node (graph), ==, log->node);

      bl_flame_graph_zoom_at (graph, WIDTH / 4, 0.5);
      bl_flame_graph_get_visible_range (graph, &log->x0, &log->x1);
      g_assert_cmpfloat (log->x0, >, rects[begin].x0);
      g_assert_cmpfloat (log->x1, <, rects[begin].x1);
      log->zoom_node = bl_flame_graph_get_zoom_node (graph);
      g_assert_cmpuint (log->zoom_node, !=, BL_NODE_NONE);

      /* Before anything else the main loop does next, time for a full
       * layout asked for too early (now, rather than after the paint) to
       * be made: its result would then come before the frame is painted,
       * a task's callback going before the frame clock's redraw, and the
       * count of paints below would show it. */
      g_idle_add_full (G_PRIORITY_HIGH, hold_main_loop, NULL, NULL);
    }
}

static void
layout_log_init (LayoutLog    *log,
                 BlFlameGraph *graph)
{
  memset (log, 0, sizeof *log);
  log->layouts = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_flame_layout_unref);
  log->paints = g_array_new (FALSE, FALSE, sizeof (guint));
  log->node = BL_NODE_NONE;
  g_signal_connect (graph, "notify::layout", G_CALLBACK (layout_notified), log);
}

static void
layout_log_clear (LayoutLog    *log,
                  BlFlameGraph *graph)
{
  g_signal_handlers_disconnect_by_func (graph, layout_notified, log);
  g_ptr_array_unref (log->layouts);
  g_array_unref (log->paints);
}

static gboolean
has_full_layout (gpointer data)
{
  LayoutLog *log = data;

  return log->layouts->len > 0 &&
         !bl_flame_layout_is_coarse (g_ptr_array_index (log->layouts, log->layouts->len - 1));
}

/* a few more turns of the main loop: nothing else arrives */
static void
settle (void)
{
  for (guint i = 0; i < 50; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

/* @columns: the width the coarse layout should be made for */
static void
assert_coarse_then_full (LayoutLog *log,
                         BlProfile *profile,
                         guint      columns)
{
  g_autoptr(BlFlameLayout) expected = NULL;
  g_autoptr(GError) error = NULL;
  BlFlameLayout *coarse, *full;

  g_assert_cmpuint (log->layouts->len, ==, 2);
  coarse = g_ptr_array_index (log->layouts, 0);
  full = g_ptr_array_index (log->layouts, 1);
  g_assert_true (bl_flame_layout_is_coarse (coarse));
  g_assert_false (bl_flame_layout_is_coarse (full));
  g_assert_true (bl_flame_layout_get_profile (coarse) == profile);
  g_assert_true (bl_flame_layout_get_profile (full) == profile);
  g_assert_cmpint (bl_flame_layout_get_metric (full), ==, bl_flame_layout_get_metric (coarse));
  g_assert_cmpuint (bl_flame_layout_get_thread (full), ==, bl_flame_layout_get_thread (coarse));
  g_assert_cmpuint (bl_flame_layout_get_n_levels (full), ==, bl_flame_layout_get_n_levels (coarse));
  g_assert_cmpuint (bl_flame_layout_get_n_rects (coarse), <, bl_flame_layout_get_n_rects (full));
  g_test_message ("coarse %u rects, full %u, %u levels", bl_flame_layout_get_n_rects (coarse),
                  bl_flame_layout_get_n_rects (full), bl_flame_layout_get_n_levels (full));

  expected = bl_flame_layout_new_coarse (profile, bl_flame_layout_get_metric (coarse),
                                         bl_flame_layout_get_thread (coarse), columns,
                                         NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (bl_flame_layout_get_n_rects (coarse), ==,
                    bl_flame_layout_get_n_rects (expected));
  for (guint i = 0; i < bl_flame_layout_get_n_rects (coarse); i++)
    g_assert_cmpuint (bl_flame_layout_get_rects (coarse)[i].node, ==,
                      bl_flame_layout_get_rects (expected)[i].node);
}

/* A profile of 200,000 nodes or more is shown first from a coarse layout,
 * and the full one replaces it once a frame with the coarse one is
 * painted, keeping the view set meanwhile; below that, the first layout is
 * the full one. */
static void
test_coarse_then_full (void)
{
  g_autoptr(BlProfile) big = make_big_profile (COARSE_MIN_NODES, 5);
  g_autoptr(BlProfile) smaller = make_big_profile (COARSE_MIN_NODES - 1, 6);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *widget = bl_flame_graph_new ();
  BlFlameGraph *graph = BL_FLAME_GRAPH (widget);
  GtkWidget *unmapped;
  GdkFrameClock *clock;
  LayoutLog log;
  BlFlameLayout *full;
  double x0, x1;
  guint ri;

  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), widget);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (test_iterate_until (is_mapped_and_sized, widget, WAIT_TURNS));
  clock = gtk_widget_get_frame_clock (widget);
  g_assert_nonnull (clock);

  layout_log_init (&log, graph);
  g_signal_connect (clock, "after-paint", G_CALLBACK (count_paint), &log);
  log.zoom_on_coarse = TRUE;
  bl_flame_graph_set_profile (graph, big);
  for (guint i = 0; i < 10000 && !has_full_layout (&log); i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_true (has_full_layout (&log));
  settle ();

  /* made for the window's width, which is the graph's */
  assert_coarse_then_full (&log, big, WIDTH);
  full = g_ptr_array_index (log.layouts, 1);
  g_assert_true (bl_flame_graph_get_layout (graph) == full);
  /* a frame was painted between the two */
  g_assert_cmpuint (g_array_index (log.paints, guint, 1), >, g_array_index (log.paints, guint, 0));

  /* the view set on the coarse layout is kept: the same span, zoom frame
   * and selection, the selected frame still around the span (its edges are
   * the same in both layouts) */
  g_assert_cmpuint (log.node, !=, BL_NODE_NONE);
  bl_flame_graph_get_visible_range (graph, &x0, &x1);
  g_assert_cmpfloat (x0, ==, log.x0);
  g_assert_cmpfloat (x1, ==, log.x1);
  g_assert_cmpuint (bl_flame_graph_get_zoom_node (graph), ==, log.zoom_node);
  g_assert_cmpuint (bl_flame_graph_get_selected_node (graph), ==, log.node);
  ri = bl_flame_layout_lookup_node (full, log.node);
  g_assert_cmpuint (ri, !=, G_MAXUINT);
  g_assert_cmpfloat (bl_flame_layout_get_rects (full)[ri].x0, <, x0);
  g_assert_cmpfloat (bl_flame_layout_get_rects (full)[ri].x1, >, x1);

  /* one node fewer: the full layout straight away */
  g_ptr_array_set_size (log.layouts, 0);
  g_array_set_size (log.paints, 0);
  log.zoom_on_coarse = FALSE;
  bl_flame_graph_set_profile (graph, smaller);
  g_assert_true (test_iterate_until (has_full_layout, &log, WAIT_TURNS));
  settle ();
  g_assert_cmpuint (log.layouts->len, ==, 1);
  g_assert_false (bl_flame_layout_is_coarse (g_ptr_array_index (log.layouts, 0)));
  g_assert_true (bl_flame_graph_get_layout (graph) == g_ptr_array_index (log.layouts, 0));

  g_signal_handlers_disconnect_by_func (clock, count_paint, &log);
  layout_log_clear (&log, graph);
  gtk_window_destroy (GTK_WINDOW (window));

  /* a graph in no window has no frame to wait for: the full layout is
   * asked for as soon as the coarse one is in */
  unmapped = g_object_ref_sink (bl_flame_graph_new ());
  layout_log_init (&log, BL_FLAME_GRAPH (unmapped));
  bl_flame_graph_set_profile (BL_FLAME_GRAPH (unmapped), big);
  g_assert_true (test_iterate_until (has_full_layout, &log, WAIT_TURNS));
  settle ();
  /* with no width to go by, for 4096 pixels */
  assert_coarse_then_full (&log, big, 4096);
  layout_log_clear (&log, BL_FLAME_GRAPH (unmapped));
  g_object_unref (unmapped);
}

static gboolean
layout_for_thread (gpointer data)
{
  LayoutLog *log = data;
  BlFlameLayout *last;

  if (!has_full_layout (log))
    return FALSE;
  last = g_ptr_array_index (log->layouts, log->layouts->len - 1);

  return bl_flame_layout_get_thread (last) == 0;
}

/* Zoomed into and selecting a frame too narrow for the coarse layout, a
 * thread switch shows the coarse layout of the thread zoomed into the
 * nearest frame around it that it has, keeps the selection, and the full
 * layout zooms back into the frame itself. */
static void
test_coarse_keeps_zoom (void)
{
  g_autoptr(BlProfile) big = make_big_profile (COARSE_MIN_NODES, 7);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *widget = bl_flame_graph_new ();
  BlFlameGraph *graph = BL_FLAME_GRAPH (widget);
  BlFlameLayout *layout, *coarse;
  const BlFlameRect *rects;
  LayoutLog log;
  guint32 narrow = BL_NODE_NONE;
  guint ri;

  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), widget);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (test_iterate_until (is_mapped_and_sized, widget, WAIT_TURNS));

  layout_log_init (&log, graph);
  bl_flame_graph_set_profile (graph, big);
  g_assert_true (test_iterate_until (has_full_layout, &log, WAIT_TURNS));
  settle ();
  layout = bl_flame_graph_get_layout (graph);
  coarse = g_ptr_array_index (log.layouts, 0);
  g_assert_true (bl_flame_layout_is_coarse (coarse));

  /* a frame of thread 0 at depth 4 or more that the coarse layout lacks */
  rects = bl_flame_layout_get_rects (layout);
  for (guint i = 0; i < bl_flame_layout_get_n_rects (layout) && narrow == BL_NODE_NONE; i++)
    if (rects[i].depth >= 4 && bl_profile_get_node (big, rects[i].node)->thread == 0 &&
        bl_flame_layout_lookup_node (coarse, rects[i].node) == G_MAXUINT)
      narrow = rects[i].node;
  g_assert_cmpuint (narrow, !=, BL_NODE_NONE);

  bl_flame_graph_zoom_to_node (graph, narrow, FALSE);
  bl_flame_graph_set_selected_node (graph, narrow);
  g_assert_cmpuint (bl_flame_graph_get_zoom_node (graph), ==, narrow);

  g_ptr_array_set_size (log.layouts, 0);
  g_array_set_size (log.paints, 0);
  bl_flame_graph_set_thread (graph, 0);
  g_assert_true (test_iterate_until (layout_for_thread, &log, WAIT_TURNS));
  settle ();

  g_assert_cmpuint (log.layouts->len, ==, 2);
  coarse = g_ptr_array_index (log.layouts, 0);
  g_assert_true (bl_flame_layout_is_coarse (coarse));
  g_assert_cmpuint (bl_flame_layout_lookup_node (coarse, narrow), ==, G_MAXUINT);

  /* the full layout of the thread: zoomed into the frame again, still selected */
  layout = bl_flame_graph_get_layout (graph);
  g_assert_false (bl_flame_layout_is_coarse (layout));
  g_assert_cmpuint (bl_flame_graph_get_selected_node (graph), ==, narrow);
  g_assert_cmpuint (bl_flame_graph_get_zoom_node (graph), ==, narrow);
  ri = bl_flame_layout_lookup_node (layout, narrow);
  g_assert_cmpuint (ri, !=, G_MAXUINT);
  {
    double x0, x1;

    bl_flame_graph_get_visible_range (graph, &x0, &x1);
    g_assert_cmpfloat (x0, ==, bl_flame_layout_get_rects (layout)[ri].x0);
    g_assert_cmpfloat (x1, ==, bl_flame_layout_get_rects (layout)[ri].x1);
  }

  layout_log_clear (&log, graph);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  /* no display is a failure, not a skip */
  if (!gtk_init_check ())
    g_error ("No display: widget tests need one (run them under xvfb-run)");

  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  g_test_add_func ("/widgets/flame-graph/spans", test_spans);
  g_test_add_func ("/widgets/flame-graph/hit", test_hit);
  g_test_add_func ("/widgets/flame-graph/zoom", test_zoom);
  g_test_add_func ("/widgets/flame-graph/search", test_search);
  g_test_add_func ("/widgets/flame-graph/render-nodes", test_render_nodes);
  g_test_add_func ("/widgets/flame-graph/slivers", test_slivers);
  g_test_add_func ("/widgets/flame-graph/keyboard", test_keyboard);
  g_test_add_func ("/widgets/flame-graph/shared-with-svg", test_shared_with_svg);
  g_test_add_func ("/widgets/flame-graph/coarse-then-full", test_coarse_then_full);
  g_test_add_func ("/widgets/flame-graph/coarse-keeps-zoom", test_coarse_keeps_zoom);

  return g_test_run ();
}
