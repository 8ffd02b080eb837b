/* test-profile-ux.c — how a profile tab behaves for the person using it:
 * the flame graph opens on its roots, empty views say why, the tables sort
 * by the chosen metric, under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <adwaita.h>
#include <string.h>

#include "bl-model.h"
#include "bl-profile-node.h"
#include "bl-profile-view.h"

/* Two threads, each one chain of @depth frames, CPU and wall at the leaf;
 * thread "render" also has a short chain so that its tree is shallow. */
typedef struct
{
  BlProfile *profile;
  guint32    roots[2];
  guint32    leaf;
} Deep;

static void
deep_init (Deep  *d,
           guint  depth)
{
  BlProfile *p = bl_profile_new ("test");
  guint32 file = bl_profile_intern (p, "pkg:/source/deep.brs");
  guint32 n;

  bl_profile_enable_metric (p, BL_METRIC_CPU);
  bl_profile_enable_metric (p, BL_METRIC_WALL);
  d->roots[0] = bl_profile_add_thread (p, bl_profile_intern (p, "Thread main"));
  d->roots[1] = bl_profile_add_thread (p, bl_profile_intern (p, "Thread render"));

  n = d->roots[0];
  for (guint i = 0; i < depth; i++)
    {
      g_autofree char *name = g_strdup_printf ("level%u", i);

      n = bl_profile_add_child (p, n, bl_profile_intern (p, name), file, i + 1);
    }
  d->leaf = n;
  bl_profile_add_value (p, n, BL_METRIC_CPU, 100);
  bl_profile_add_value (p, n, BL_METRIC_WALL, 150);

  n = bl_profile_add_child (p, d->roots[1], bl_profile_intern (p, "loop"), file, 1);
  n = bl_profile_add_child (p, n, bl_profile_intern (p, "draw"), file, 2);
  bl_profile_add_value (p, n, BL_METRIC_CPU, 40);
  bl_profile_add_value (p, n, BL_METRIC_WALL, 40);
  bl_profile_finish (p);
  d->profile = p;
}

static gboolean
iterate_until (gboolean (*cond) (gpointer),
               gpointer   data)
{
  for (guint i = 0; i < 3000 && !cond (data); i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }

  return cond (data);
}

static gboolean
flame_has_layout (gpointer data)
{
  return bl_flame_graph_get_layout (bl_profile_view_get_flame_graph (data)) != NULL;
}

static gboolean
tables_ready (gpointer data)
{
  for (BlCallTreeMode m = BL_CALL_TREE_TOP_DOWN; m <= BL_CALL_TREE_CALLEES; m++)
    if (bl_call_tree_view_get_loading (bl_profile_view_get_call_tree (data, m)))
      return FALSE;

  return TRUE;
}

/* let the workers (layout, table rows), the frame clock and the allocation
 * catch up */
static void
settle (BlProfileView *view)
{
  g_assert_true (iterate_until (flame_has_layout, view));
  g_assert_true (iterate_until (tables_ready, view));
  for (guint i = 0; i < 100; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (500);
    }
}

static BlProfileView *
present_view (BlProfile *profile,
              int        width,
              int        height)
{
  static const char *mime_dirs[] = { "/usr/local/share/mime", "/usr/share/mime", NULL };
  GtkWidget *window;
  GtkWidget *view;

  g_content_type_set_mime_dirs (mime_dirs);

  window = gtk_window_new ();
  view = bl_profile_view_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  bl_profile_view_set_profile (BL_PROFILE_VIEW (view), profile);
  settle (BL_PROFILE_VIEW (view));

  return BL_PROFILE_VIEW (view);
}

static void
close_view (BlProfileView *view)
{
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
}

/* the thread row (depth 0) lies wholly inside the flame graph's pane */
static void
assert_root_visible (BlProfileView *view,
                     guint32        root)
{
  BlFlameGraph *graph = bl_profile_view_get_flame_graph (view);
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (graph), GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t bounds;
  graphene_point_t top, bottom;
  int pane_height = gtk_widget_get_height (scroller);

  g_assert_true (bl_flame_graph_get_frame_bounds (graph, root, &bounds));
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (graph), scroller,
                                           &GRAPHENE_POINT_INIT (0, bounds.origin.y), &top));
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (graph), scroller,
                                           &GRAPHENE_POINT_INIT (0, bounds.origin.y
                                                                 + bounds.size.height),
                                           &bottom));
  g_assert_cmpint (pane_height, >, 0);
  g_assert_cmpfloat (top.y, >=, -0.5);
  g_assert_cmpfloat (bottom.y, <=, pane_height + 0.5);
}

static void
test_roots_visible (void)
{
  Deep d;
  BlProfileView *view;
  BlFlameGraph *graph;
  GtkPaned *paned;

  /* 80 levels are far taller than the pane at 1280×720 */
  deep_init (&d, 80);
  view = present_view (d.profile, 1280, 720);
  graph = bl_profile_view_get_flame_graph (view);
  paned = GTK_PANED (gtk_widget_get_ancestor (GTK_WIDGET (graph), GTK_TYPE_PANED));
  g_assert_nonnull (paned);

  /* two threads: "All threads" with both roots at depth 0 */
  assert_root_visible (view, d.roots[0]);
  assert_root_visible (view, d.roots[1]);

  /* a thread switch, a metric switch and back: roots each time */
  bl_profile_view_set_thread (view, 0);
  settle (view);
  assert_root_visible (view, d.roots[0]);
  bl_profile_view_set_metric (view, BL_METRIC_WALL);
  settle (view);
  assert_root_visible (view, d.roots[0]);
  bl_profile_view_set_thread (view, G_MAXUINT);
  settle (view);
  assert_root_visible (view, d.roots[0]);

  /* a smaller pane keeps the roots in view */
  gtk_paned_set_position (paned, 150);
  settle (view);
  assert_root_visible (view, d.roots[0]);
  gtk_paned_set_position (paned, 400);
  settle (view);
  assert_root_visible (view, d.roots[0]);

  close_view (view);

  /* a small window too */
  view = present_view (d.profile, 800, 600);
  assert_root_visible (view, d.roots[0]);
  close_view (view);

  g_object_unref (d.profile);
}

/* a shallow tree takes only the room it needs, and the pane can be made small */
static void
test_shallow_pane (void)
{
  Deep d;
  BlProfileView *view;
  BlFlameGraph *graph;
  GtkWidget *scroller;
  GtkPaned *paned;
  int rows_height;

  deep_init (&d, 2);
  view = present_view (d.profile, 1280, 720);
  graph = bl_profile_view_get_flame_graph (view);
  scroller = gtk_widget_get_ancestor (GTK_WIDGET (graph), GTK_TYPE_SCROLLED_WINDOW);
  paned = GTK_PANED (gtk_widget_get_ancestor (GTK_WIDGET (graph), GTK_TYPE_PANED));

  /* three levels: the pane is no taller than the rows and a little air */
  rows_height = 3 * (int) bl_flame_graph_get_row_height (graph);
  g_assert_cmpint (gtk_widget_get_height (scroller), <=,
                   rows_height + (int) bl_flame_graph_get_row_height (graph) + 2);
  assert_root_visible (view, d.roots[0]);

  /* dragged small, it stays small: about two rows */
  gtk_paned_set_position (paned, 10);
  settle (view);
  g_assert_cmpint (gtk_widget_get_height (scroller), <=,
                   3 * (int) bl_flame_graph_get_row_height (graph));

  close_view (view);
  g_object_unref (d.profile);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  if (!gtk_init_check ())
    g_error ("No display: widget tests need one (run them under xvfb-run)");
  adw_init ();
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  g_test_add_func ("/widgets/profile-ux/roots-visible", test_roots_visible);
  g_test_add_func ("/widgets/profile-ux/shallow-pane", test_shallow_pane);

  return g_test_run ();
}
