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

#include "bl-compare-view.h"
#include "bl-model.h"
#include "bl-preferences-window.h"
#include "bl-profile-node.h"
#include "bl-profile-view.h"
#include "bl-window-private.h"
#include "widget-test-util.h"

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

/* turns of the main loop, a millisecond each, that a wait may take */
#define WAIT_TURNS 3000

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
  g_assert_true (test_iterate_until (flame_has_layout, view, WAIT_TURNS));
  g_assert_true (test_iterate_until (tables_ready, view, WAIT_TURNS));
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

  /* a taller window gives the room to the tables */
  {
    GtkWindow *window = GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view)));
    int before = gtk_widget_get_height (scroller);
    int window_before = gtk_widget_get_height (GTK_WIDGET (window));

    gtk_window_set_default_size (window, 1280, 1000);
    for (guint i = 0; i < 200 && gtk_widget_get_height (GTK_WIDGET (window)) == window_before; i++)
      {
        g_main_context_iteration (NULL, FALSE);
        g_usleep (1000);
      }
    settle (view);
    g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), >, window_before);
    g_assert_cmpint (gtk_widget_get_height (scroller), <=, before + 2);
  }

  /* dragged small, it stays small: about two rows */
  gtk_paned_set_position (paned, 10);
  settle (view);
  g_assert_cmpint (gtk_widget_get_height (scroller), <=,
                   3 * (int) bl_flame_graph_get_row_height (graph));

  close_view (view);
  g_object_unref (d.profile);
}

/* Functions with opposite orders by CPU and by wall time:
 *   Thread main: main → cpuheavy (cpu self 100, wall self 10)
 *                     → wallheavy (cpu self 10, wall self 200)
 *   Thread io:   wait (cpu self 5, wall self 500)
 */
typedef struct
{
  BlProfile *profile;
  guint32    main_root, io_root, cpuheavy, wallheavy, wait;
} Costs;

static void
costs_init (Costs *c)
{
  BlProfile *p = bl_profile_new ("test");
  guint32 file = bl_profile_intern (p, "pkg:/source/costs.brs");
  guint32 m;

  bl_profile_enable_metric (p, BL_METRIC_CPU);
  bl_profile_enable_metric (p, BL_METRIC_WALL);
  bl_profile_enable_metric (p, BL_METRIC_CALLS);
  c->main_root = bl_profile_add_thread (p, bl_profile_intern (p, "Thread main"));
  c->io_root = bl_profile_add_thread (p, bl_profile_intern (p, "Thread io"));
  m = bl_profile_add_child (p, c->main_root, bl_profile_intern (p, "main"), file, 1);
  c->cpuheavy = bl_profile_add_child (p, m, bl_profile_intern (p, "cpuheavy"), file, 10);
  c->wallheavy = bl_profile_add_child (p, m, bl_profile_intern (p, "wallheavy"), file, 20);
  c->wait = bl_profile_add_child (p, c->io_root, bl_profile_intern (p, "wait"), file, 30);
  bl_profile_add_value (p, c->cpuheavy, BL_METRIC_CPU, 100);
  bl_profile_add_value (p, c->cpuheavy, BL_METRIC_WALL, 10);
  bl_profile_add_value (p, c->wallheavy, BL_METRIC_CPU, 10);
  bl_profile_add_value (p, c->wallheavy, BL_METRIC_WALL, 200);
  bl_profile_add_value (p, c->wait, BL_METRIC_CPU, 5);
  bl_profile_add_value (p, c->wait, BL_METRIC_WALL, 500);
  bl_profile_add_value (p, c->wait, BL_METRIC_CALLS, 3);
  bl_profile_finish (p);
  c->profile = p;
}

static BlProfileNode *
row_item (GListModel *model,
          guint       i)
{
  g_autoptr(GObject) object = g_list_model_get_item (model, i);

  if (GTK_IS_TREE_LIST_ROW (object))
    return gtk_tree_list_row_get_item (GTK_TREE_LIST_ROW (object));

  return g_object_ref (BL_PROFILE_NODE (object));
}

/* the top-level rows' names in table order, "a b c" */
static char *
dup_row_names (BlCallTreeView *table)
{
  GListModel *model = bl_call_tree_view_get_model (table);
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GObject) object = g_list_model_get_item (model, i);
      g_autoptr(BlProfileNode) item = row_item (model, i);

      if (GTK_IS_TREE_LIST_ROW (object) &&
          gtk_tree_list_row_get_depth (GTK_TREE_LIST_ROW (object)) > 0)
        continue;
      if (names->len > 0)
        g_string_append_c (names, ' ');
      g_string_append (names, bl_profile_node_get_name (item));
    }

  return g_string_free (g_steal_pointer (&names), FALSE);
}

/* the titles of the visible columns, "Function|CPU self|CPU total" */
static char *
dup_visible_columns (BlCallTreeView *table)
{
  GListModel *columns = gtk_column_view_get_columns (bl_call_tree_view_get_column_view (table));
  g_autoptr(GString) titles = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (!gtk_column_view_column_get_visible (column))
        continue;
      if (titles->len > 0)
        g_string_append_c (titles, '|');
      g_string_append (titles, gtk_column_view_column_get_title (column));
    }

  return g_string_free (g_steal_pointer (&titles), FALSE);
}

static GtkColumnViewColumn *
find_column (BlCallTreeView *table,
             const char     *title)
{
  GListModel *columns = gtk_column_view_get_columns (bl_call_tree_view_get_column_view (table));

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), title) == 0)
        return column;
    }

  return NULL;
}

/* the table needs no horizontal scrolling */
static void
assert_no_hscroll (BlCallTreeView *table)
{
  GtkWidget *scroller = gtk_widget_get_first_child (GTK_WIDGET (table));
  GtkAdjustment *h;

  g_assert_true (GTK_IS_SCROLLED_WINDOW (scroller));
  h = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_assert_cmpfloat (gtk_adjustment_get_page_size (h), >, 0);
  g_assert_cmpfloat (gtk_adjustment_get_upper (h), <=, gtk_adjustment_get_page_size (h) + 1);
}

static void
test_sort_follows_metric (void)
{
  g_autoptr(GSettings) settings = g_settings_new (BASE_ID);
  BlCallTreeView *top_down, *bottom_up, *functions;
  g_autofree char *names = NULL;
  g_autofree char *titles = NULL;
  BlProfileView *view;
  Costs c;

  /* the preference wins over the metric used last */
  g_settings_set_string (settings, "last-metric", "cpu");
  g_settings_set_string (settings, "default-metric", "wall");
  g_settings_reset (settings, "table-columns");

  costs_init (&c);
  view = present_view (c.profile, 1280, 720);
  top_down = bl_profile_view_get_call_tree (view, BL_CALL_TREE_TOP_DOWN);
  bottom_up = bl_profile_view_get_call_tree (view, BL_CALL_TREE_BOTTOM_UP);
  functions = bl_profile_view_get_call_tree (view, BL_CALL_TREE_FUNCTIONS);
  g_assert_cmpint (bl_profile_view_get_metric (view), ==, BL_METRIC_WALL);

  /* the tables open sorted by wall: the io thread (500) first */
  names = dup_row_names (top_down);
  g_assert_true (g_str_has_prefix (names, "Thread io "));
  g_clear_pointer (&names, g_free);
  /* bottom-up by wall self: wait 500, wallheavy 200, cpuheavy 10, main 0 */
  names = dup_row_names (bottom_up);
  g_assert_cmpstr (names, ==, "wait wallheavy cpuheavy main");
  g_clear_pointer (&names, g_free);

  /* the function and wall's self and total, nothing else by default */
  titles = dup_visible_columns (functions);
  g_assert_cmpstr (titles, ==, "Function|Wall self|Wall total");
  g_clear_pointer (&titles, g_free);

  /* CPU: the sort and the columns follow */
  bl_profile_view_set_metric (view, BL_METRIC_CPU);
  settle (view);
  names = dup_row_names (bottom_up);
  g_assert_cmpstr (names, ==, "cpuheavy wallheavy wait main");
  g_clear_pointer (&names, g_free);
  names = dup_row_names (top_down);
  g_assert_true (g_str_has_prefix (names, "Thread main "));
  g_clear_pointer (&names, g_free);
  titles = dup_visible_columns (bottom_up);
  g_assert_cmpstr (titles, ==, "Function|CPU self|CPU total");
  g_clear_pointer (&titles, g_free);

  /* a first click on another cost column (GTK sorts a new column
   * ascending) puts the largest first */
  gtk_column_view_sort_by_column (bl_call_tree_view_get_column_view (functions),
                                  find_column (functions, "CPU self"), GTK_SORT_ASCENDING);
  settle (view);
  names = dup_row_names (functions);
  g_assert_cmpstr (names, ==, "cpuheavy wallheavy wait main");
  g_clear_pointer (&names, g_free);
  /* a second click on the same column turns it round */
  gtk_column_view_sort_by_column (bl_call_tree_view_get_column_view (functions),
                                  find_column (functions, "CPU self"), GTK_SORT_ASCENDING);
  settle (view);
  names = dup_row_names (functions);
  g_assert_cmpstr (names, ==, "main wait wallheavy cpuheavy");
  g_clear_pointer (&names, g_free);
  /* the name column sorts A to Z first */
  gtk_column_view_sort_by_column (bl_call_tree_view_get_column_view (functions),
                                  find_column (functions, "Function"), GTK_SORT_ASCENDING);
  settle (view);
  names = dup_row_names (functions);
  g_assert_cmpstr (names, ==, "cpuheavy main wait wallheavy");
  g_clear_pointer (&names, g_free);

  /* at 1280 px no table needs horizontal scrolling for those columns */
  bl_profile_view_show_table (view, BL_CALL_TREE_FUNCTIONS);
  settle (view);
  assert_no_hscroll (functions);
  bl_profile_view_show_table (view, BL_CALL_TREE_TOP_DOWN);
  settle (view);
  assert_no_hscroll (top_down);

  close_view (view);
  g_object_unref (c.profile);
  g_settings_reset (settings, "last-metric");
  g_settings_reset (settings, "default-metric");
}

/* the column menu shows more columns, remembered per table */
static void
test_column_menu (void)
{
  g_autoptr(GSettings) settings = g_settings_new (BASE_ID);
  g_autofree char *titles = NULL;
  BlCallTreeView *functions, *top_down;
  BlProfileView *view;
  Costs c;

  g_settings_set_string (settings, "default-metric", "cpu");
  g_settings_reset (settings, "table-columns");
  costs_init (&c);
  view = present_view (c.profile, 1280, 720);
  functions = bl_profile_view_get_call_tree (view, BL_CALL_TREE_FUNCTIONS);
  top_down = bl_profile_view_get_call_tree (view, BL_CALL_TREE_TOP_DOWN);

  /* the chosen metric's columns cannot be hidden */
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (functions), "columns.cpu-self", NULL) &&
                  !gtk_column_view_column_get_visible (find_column (functions, "CPU self")));
  g_assert_true (gtk_column_view_column_get_visible (find_column (functions, "CPU self")));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (functions), "columns.calls-self", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (functions), "columns.wall-total", NULL));
  titles = dup_visible_columns (functions);
  g_assert_cmpstr (titles, ==, "Function|CPU self|CPU total|Wall total|Calls");
  g_clear_pointer (&titles, g_free);
  /* sorted by a column, then hiding it: back to the chosen metric's total */
  gtk_column_view_sort_by_column (bl_call_tree_view_get_column_view (functions),
                                  find_column (functions, "Wall total"), GTK_SORT_ASCENDING);
  settle (view);
  titles = dup_row_names (functions);
  g_assert_cmpstr (titles, ==, "wait main wallheavy cpuheavy");
  g_clear_pointer (&titles, g_free);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (functions), "columns.wall-total", NULL));
  settle (view);
  titles = dup_row_names (functions);
  g_assert_cmpstr (titles, ==, "main cpuheavy wallheavy wait");
  g_clear_pointer (&titles, g_free);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (functions), "columns.wall-total", NULL));
  settle (view);

  /* the other tables keep their own */
  titles = dup_visible_columns (top_down);
  g_assert_cmpstr (titles, ==, "Function|CPU self|CPU total");
  g_clear_pointer (&titles, g_free);
  close_view (view);

  /* the next tab shows them again */
  view = present_view (c.profile, 1280, 720);
  functions = bl_profile_view_get_call_tree (view, BL_CALL_TREE_FUNCTIONS);
  titles = dup_visible_columns (functions);
  g_assert_cmpstr (titles, ==, "Function|CPU self|CPU total|Wall total|Calls");
  g_clear_pointer (&titles, g_free);
  close_view (view);

  g_object_unref (c.profile);
  g_settings_reset (settings, "table-columns");
  g_settings_reset (settings, "default-metric");
}

/* a metric or a thread with nothing in it says why instead of a blank pane */
static void
test_empty_state (void)
{
  BlProfile *p = bl_profile_new ("test");
  BlProfile *none;
  BlProfileView *view;
  guint32 main_root, idle_root, f;
  const char *text;

  /* everything allocated was freed: live bytes are zero; thread idle has no CPU */
  bl_profile_enable_metric (p, BL_METRIC_CPU);
  bl_profile_enable_metric (p, BL_METRIC_ALLOC_BYTES);
  bl_profile_enable_metric (p, BL_METRIC_LIVE_BYTES);
  main_root = bl_profile_add_thread (p, bl_profile_intern (p, "Thread main"));
  idle_root = bl_profile_add_thread (p, bl_profile_intern (p, "Thread idle"));
  f = bl_profile_add_child (p, main_root, bl_profile_intern (p, "make"), 0, 0);
  bl_profile_add_value (p, f, BL_METRIC_CPU, 10);
  bl_profile_add_value (p, f, BL_METRIC_ALLOC_BYTES, 4096);
  f = bl_profile_add_child (p, idle_root, bl_profile_intern (p, "sleep"), 0, 0);
  bl_profile_add_value (p, f, BL_METRIC_ALLOC_BYTES, 16);
  bl_profile_finish (p);

  view = present_view (p, 1280, 720);
  g_assert_null (bl_profile_view_get_empty_text (view));

  bl_profile_view_set_metric (view, BL_METRIC_LIVE_BYTES);
  settle (view);
  text = bl_profile_view_get_empty_text (view);
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "Live bytes is zero in every thread."));
  g_assert_nonnull (strstr (text, "freed"));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (bl_profile_view_get_flame_graph (view))));

  /* CPU in the idle thread */
  bl_profile_view_set_metric (view, BL_METRIC_CPU);
  bl_profile_view_set_thread (view, 1);
  settle (view);
  text = bl_profile_view_get_empty_text (view);
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "CPU time is zero in the thread “Thread idle”."));

  /* and back to something to draw */
  bl_profile_view_set_thread (view, 0);
  settle (view);
  g_assert_null (bl_profile_view_get_empty_text (view));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (bl_profile_view_get_flame_graph (view))));
  close_view (view);
  g_object_unref (p);

  /* a profile with no entries at all */
  none = bl_profile_new ("test");
  bl_profile_enable_metric (none, BL_METRIC_CPU);
  bl_profile_finish (none);
  view = present_view (none, 1280, 720);
  text = bl_profile_view_get_empty_text (view);
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "no calls or samples"));
  close_view (view);
  g_object_unref (none);
}

/* the header is one title line and one line of facts, whatever the profile
 * carries; the metric names are in the selector and the tooltip */
static void
test_compact_header (void)
{
  BlProfile *p = bl_profile_new ("test");
  BlProfileView *view;
  GtkWidget *header, *data;
  guint32 root, f;
  int title_height;

  for (BlMetricId m = BL_METRIC_CPU; m <= BL_METRIC_LIVE_COUNT; m++)
    bl_profile_enable_metric (p, m);
  root = bl_profile_add_thread (p, bl_profile_intern (p, "Thread main"));
  f = bl_profile_add_child (p, root, bl_profile_intern (p, "f"), 0, 0);
  for (BlMetricId m = BL_METRIC_CPU; m <= BL_METRIC_LIVE_COUNT; m++)
    bl_profile_add_value (p, f, m, 10);
  bl_profile_finish (p);

  view = present_view (p, 800, 600);
  header = gtk_widget_get_first_child (GTK_WIDGET (view));
  data = gtk_widget_get_last_child (header);
  g_assert_true (GTK_IS_LABEL (data));
  title_height =
    gtk_widget_get_height (gtk_widget_get_first_child (gtk_widget_get_first_child (header)));
  g_assert_cmpint (title_height, >, 0);
  /* one line of facts, no taller than the title */
  g_assert_null (strchr (gtk_label_get_text (GTK_LABEL (data)), '\n'));
  g_assert_null (strstr (gtk_label_get_text (GTK_LABEL (data)), "Wall-clock time"));
  g_assert_cmpint (gtk_widget_get_height (data), <=, title_height);
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (data), "Wall-clock time"));
  close_view (view);
  g_object_unref (p);
}

/* same-named recent files say which folder they are in */
static void
test_recent_labels (void)
{
  g_autofree char *home_uri = g_filename_to_uri (g_get_home_dir (), NULL, NULL);
  g_autofree char *a = g_strconcat (home_uri, "/Downloads/profile.bsprof", NULL);
  const char *uris[] = {
    a,
    "file:///tmp/build/profile.bsprof",
    "file:///tmp/other/session.json",
    NULL,
  };
  g_auto(GStrv) labels = _bl_window_dup_recent_labels (uris);

  g_assert_cmpuint (g_strv_length (labels), ==, 3);
  g_assert_cmpstr (labels[0], ==, "profile.bsprof — ~/Downloads");
  g_assert_cmpstr (labels[1], ==, "profile.bsprof — /tmp/build");
  g_assert_cmpstr (labels[2], ==, "session.json");
}

/* a failed tab has an error icon in the tab bar */
static void
test_failed_tab (void)
{
  AdwTabView *tabs = g_object_ref_sink (ADW_TAB_VIEW (adw_tab_view_new ()));
  AdwTabPage *tab = adw_tab_view_append (tabs, gtk_label_new ("x"));

  _bl_window_set_tab_failed (tab, TRUE, "The data ends at byte 12.");
  g_assert_nonnull (adw_tab_page_get_indicator_icon (tab));
  g_assert_cmpstr (adw_tab_page_get_indicator_tooltip (tab), ==, "The data ends at byte 12.");
  g_assert_cmpstr (adw_tab_page_get_tooltip (tab), ==, "The data ends at byte 12.");

  _bl_window_set_tab_failed (tab, FALSE, NULL);
  g_assert_null (adw_tab_page_get_indicator_icon (tab));
  g_object_unref (tabs);
}

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

#if ADW_CHECK_VERSION (1, 8, 0)
/* the first of the sections' titles in the widgets' order, as they are drawn */
static const char *
first_section_title (GtkWidget *widget)
{
  static const char *titles[] = {
    "General", "Tabs", "Profile", "Flame Graph", "Flame Chart", "Resource Timeline",
  };

  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget))
    {
      const char *text = gtk_label_get_text (GTK_LABEL (widget));

      for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
        if (g_strcmp0 (text, titles[i]) == 0)
          return titles[i];
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *found = first_section_title (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* the shortcuts dialog (libadwaita 1.8) shows General first */
static void
test_shortcuts_general_first (void)
{
  g_autoptr(GtkBuilder) builder =
    gtk_builder_new_from_resource (RESOURCE_BASE_PATH "/shortcuts-dialog.ui");
  AdwDialog *dialog = ADW_DIALOG (gtk_builder_get_object (builder, "shortcuts_dialog"));
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  adw_dialog_present (dialog, window);
  g_assert_true (test_iterate_until (is_mapped, dialog, WAIT_TURNS));

  g_assert_cmpstr (first_section_title (GTK_WIDGET (dialog)), ==, "General");

  adw_dialog_force_close (dialog);
  gtk_window_destroy (GTK_WINDOW (window));
}
#else
/* the shortcuts window opens on the page with General */
static void
test_shortcuts_general_first (void)
{
  g_autoptr(GtkBuilder) builder =
    gtk_builder_new_from_resource (RESOURCE_BASE_PATH "/gtk/help-overlay.ui");
  GtkWidget *overlay = GTK_WIDGET (gtk_builder_get_object (builder, "help_overlay"));
  GtkWidget *section, *stack, *page, *group;
  g_autofree char *title = NULL;

  /* the section lays its groups out in pages as they are added (presenting
   * the window under Xvfb trips a GTK 4.8 size warning in its search page) */
  section = test_find_widget (overlay, GTK_TYPE_SHORTCUTS_SECTION);
  g_assert_nonnull (section);
  stack = test_find_widget (section, GTK_TYPE_STACK);
  g_assert_nonnull (stack);
  page = gtk_stack_get_visible_child (GTK_STACK (stack));
  g_assert_nonnull (page);
  group = test_find_widget (page, GTK_TYPE_SHORTCUTS_GROUP);
  g_assert_nonnull (group);
  g_object_get (group, "title", &title, NULL);
  g_assert_cmpstr (title, ==, "General");
  gtk_window_destroy (GTK_WINDOW (overlay));
}

/* the shortcuts window fits an 800×600 screen: its natural width, what
 * GTK gives it when it opens, too */
static void
test_shortcuts_fit_800 (void)
{
  g_autoptr(GtkBuilder) builder =
    gtk_builder_new_from_resource (RESOURCE_BASE_PATH "/gtk/help-overlay.ui");
  GtkWidget *overlay = GTK_WIDGET (gtk_builder_get_object (builder, "help_overlay"));
  int min = 0, nat = 0, min_h = 0, nat_h = 0;

  gtk_widget_measure (overlay, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL, NULL);
  gtk_widget_measure (overlay, GTK_ORIENTATION_VERTICAL, nat, &min_h, &nat_h, NULL, NULL);
  g_test_message ("shortcuts window: width %d (natural %d), height %d (natural %d)",
                  min, nat, min_h, nat_h);
  g_assert_cmpint (nat, <=, 800);
  g_assert_cmpint (min_h, <=, 600);
  gtk_window_destroy (GTK_WINDOW (overlay));
}
#endif

static GtkWidget *
find_row (GtkWidget  *widget,
          const char *title)
{
  if (ADW_IS_ACTION_ROW (widget) &&
      g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_row (child, title);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* source folders show as paths, not file:// URIs */
static void
test_source_folder_paths (void)
{
  g_autoptr(GSettings) settings = g_settings_new (BASE_ID);
  g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a{ss}"));
  GtkWidget *window;
  GtkWidget *row;

  g_variant_builder_add (&builder, "{ss}", "Weather", "file:///home/dev/my%20weather");
  g_settings_set_value (settings, "source-folders", g_variant_builder_end (&builder));
  /* a dialog on libadwaita 1.5 and later, a window before */
  window = bl_preferences_show (NULL);
  g_assert_true (test_iterate_until (is_mapped, window, WAIT_TURNS));
  for (guint i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);

  row = find_row (window, "Weather");
  g_assert_nonnull (row);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, "/home/dev/my weather");

  bl_preferences_close (window);
  g_settings_reset (settings, "source-folders");
}

/* the profile's search, not the drop-downs' own */
static GtkWidget *
find_search_entry (GtkWidget *widget)
{
  g_autofree char *placeholder = NULL;

  if (GTK_IS_SEARCH_ENTRY (widget))
    {
      g_object_get (widget, "placeholder-text", &placeholder, NULL);
      if (g_strcmp0 (placeholder, "Search functions") == 0)
        return widget;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_search_entry (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static GtkToggleButton *
find_toggle (GtkWidget  *widget,
             const char *label)
{
  if (GTK_IS_TOGGLE_BUTTON (widget) &&
      g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return GTK_TOGGLE_BUTTON (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkToggleButton *found = find_toggle (child, label);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* Enter and Shift+Enter step through the matches, zooming to each; the
 * toggle keeps only the matching stacks in the tables */
static void
test_search_steps_and_filters (void)
{
  g_autoptr(GSettings) settings = g_settings_new (BASE_ID);
  BlProfileView *view;
  BlFlameGraph *graph;
  GtkWidget *entry;
  GtkToggleButton *only;
  guint32 first, second;
  g_autofree char *names = NULL;
  int min_width;
  Costs c;

  g_settings_set_string (settings, "default-metric", "cpu");
  costs_init (&c);
  view = present_view (c.profile, 1280, 720);
  graph = bl_profile_view_get_flame_graph (view);
  entry = find_search_entry (GTK_WIDGET (view));
  only = find_toggle (GTK_WIDGET (view), "Only Matches");
  g_assert_nonnull (entry);
  g_assert_nonnull (only);

  /* a long match label never widens the window */
  gtk_widget_measure (GTK_WIDGET (view), GTK_ORIENTATION_HORIZONTAL, -1,
                      &min_width, NULL, NULL, NULL);
  g_assert_cmpint (min_width, <=, 800);
  gtk_editable_set_text (GTK_EDITABLE (entry), "heavy");
  bl_flame_graph_set_search (graph, "heavy");
  g_signal_emit_by_name (entry, "search-changed");
  settle (view);
  g_assert_cmpuint (bl_flame_graph_get_n_matches (graph), ==, 2);

  /* Enter: the first match, selected and zoomed to */
  g_signal_emit_by_name (entry, "activate");
  settle (view);
  first = bl_flame_graph_get_selected_node (graph);
  g_assert_true (first == c.cpuheavy || first == c.wallheavy);
  g_assert_cmpuint (bl_flame_graph_get_zoom_node (graph), ==, first);

  /* Enter again: the other one; a third time wraps round */
  g_signal_emit_by_name (entry, "activate");
  settle (view);
  second = bl_flame_graph_get_selected_node (graph);
  g_assert_true (second == c.cpuheavy || second == c.wallheavy);
  g_assert_cmpuint (second, !=, first);
  g_assert_cmpuint (bl_flame_graph_get_zoom_node (graph), ==, second);
  g_signal_emit_by_name (entry, "activate");
  settle (view);
  g_assert_cmpuint (bl_flame_graph_get_selected_node (graph), ==, first);

  /* Shift+Enter (the action it triggers) goes back */
  g_assert_true (gtk_widget_activate_action (entry, "profile.previous-match", NULL));
  settle (view);
  g_assert_cmpuint (bl_flame_graph_get_selected_node (graph), ==, second);

  /* the tables keep the stacks with a match: not the io thread */
  gtk_toggle_button_set_active (only, TRUE);
  settle (view);
  names = dup_row_names (bl_profile_view_get_call_tree (view, BL_CALL_TREE_FUNCTIONS));
  g_assert_null (strstr (names, "wait"));
  g_assert_nonnull (strstr (names, "cpuheavy"));
  g_assert_nonnull (strstr (names, "main"));
  g_clear_pointer (&names, g_free);
  names = dup_row_names (bl_profile_view_get_call_tree (view, BL_CALL_TREE_TOP_DOWN));
  g_assert_cmpstr (names, ==, "Thread main");
  g_clear_pointer (&names, g_free);

  gtk_widget_measure (GTK_WIDGET (view), GTK_ORIENTATION_HORIZONTAL, -1,
                      &min_width, NULL, NULL, NULL);
  g_test_message ("minimum width with a match stepped to: %d", min_width);
  g_assert_cmpint (min_width, <=, 800);

  /* off again: every row */
  gtk_toggle_button_set_active (only, FALSE);
  settle (view);
  names = dup_row_names (bl_profile_view_get_call_tree (view, BL_CALL_TREE_FUNCTIONS));
  g_assert_nonnull (strstr (names, "wait"));

  close_view (view);
  g_object_unref (c.profile);
  g_settings_reset (settings, "default-metric");
}

/* colour nodes whose colour is @color */
static guint
count_color (GskRenderNode *node,
             const GdkRGBA *color)
{
  guint n = 0;

  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_COLOR_NODE:
      return gdk_rgba_equal (gsk_color_node_get_color (node), color);
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        n += count_color (gsk_container_node_get_child (node, i), color);
      return n;
    case GSK_TRANSFORM_NODE:
      return count_color (gsk_transform_node_get_child (node), color);
    case GSK_CLIP_NODE:
      return count_color (gsk_clip_node_get_child (node), color);
    default:
      return 0;
    }
}

/* a match narrower than a pixel still shows, as a highlighted sliver */
static void
test_search_sliver (void)
{
  BlProfile *profile = bl_profile_new ("test");
  GtkWidget *window = gtk_window_new ();
  GtkWidget *graph = bl_flame_graph_new ();
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) before = NULL;
  g_autoptr(GskRenderNode) after = NULL;
  GtkSnapshot *snapshot;
  GdkRGBA accent;
  guint32 root;

  bl_profile_enable_metric (profile, BL_METRIC_CPU);
  root = bl_profile_add_thread (profile, bl_profile_intern (profile, "main"));
  for (guint i = 0; i < 20000; i++)
    {
      char name[32];
      guint32 n;

      g_snprintf (name, sizeof name, i == 12345 ? "needle" : "hay%05u", i);
      n = bl_profile_add_child (profile, root, bl_profile_intern (profile, name), 0, 0);
      bl_profile_add_value (profile, n, BL_METRIC_CPU, 10);
    }
  bl_profile_finish (profile);

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 300);
  gtk_window_set_child (GTK_WINDOW (window), graph);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (test_iterate_until (is_mapped, graph, WAIT_TURNS));
  bl_flame_graph_set_profile (BL_FLAME_GRAPH (graph), profile);
  for (guint i = 0; i < 3000 && bl_flame_graph_get_layout (BL_FLAME_GRAPH (graph)) == NULL; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_nonnull (bl_flame_graph_get_layout (BL_FLAME_GRAPH (graph)));

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (graph), "accent_bg_color",
                                       &accent))
    gdk_rgba_parse (&accent, "#3584e4");
  G_GNUC_END_IGNORE_DEPRECATIONS

  paintable = gtk_widget_paintable_new (graph);
  for (guint pass = 0; pass < 2; pass++)
    {
      if (pass == 1)
        bl_flame_graph_set_search (BL_FLAME_GRAPH (graph), "needle");
      gtk_widget_queue_draw (graph);
      gtk_test_widget_wait_for_draw (graph);
      for (guint i = 0; i < 20; i++)
        g_main_context_iteration (NULL, FALSE);
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), 1000, 300);
      if (pass == 0)
        before = gtk_snapshot_free_to_node (snapshot);
      else
        after = gtk_snapshot_free_to_node (snapshot);
    }

  /* 20,000 frames of 0.05 px: slivers; with the search one of them is lit */
  g_assert_cmpuint (count_color (before, &accent), ==, 0);
  g_assert_cmpuint (count_color (after, &accent), >=, 1);

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (profile);
}

static gboolean
graph_shows (gpointer data)
{
  BlFlameGraph *graph = data;

  return bl_flame_graph_get_layout (graph) != NULL && gtk_widget_get_mapped (data);
}

/* the thread row of @graph's first thread lies inside its scroller */
static void
assert_graph_root_visible (BlFlameGraph *graph)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (graph), GTK_TYPE_SCROLLED_WINDOW);
  BlProfile *profile = bl_flame_graph_get_profile (graph);
  graphene_rect_t bounds;
  graphene_point_t top, bottom;

  g_assert_true (bl_flame_graph_get_frame_bounds (graph, bl_profile_get_thread_root (profile, 0),
                                                  &bounds));
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (graph), scroller,
                                           &GRAPHENE_POINT_INIT (0, bounds.origin.y), &top));
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (graph), scroller,
                                           &GRAPHENE_POINT_INIT (0, bounds.origin.y
                                                                 + bounds.size.height),
                                           &bottom));
  g_assert_cmpfloat (top.y, >=, -0.5);
  g_assert_cmpfloat (bottom.y, <=, gtk_widget_get_height (scroller) + 0.5);
}

/* the compare view's graphs open on their roots too */
static void
test_compare_roots_visible (void)
{
  Deep a, b;
  g_autoptr(BlDiff) diff = NULL;
  GtkWidget *window = gtk_window_new ();
  BlCompareView *view = BL_COMPARE_VIEW (bl_compare_view_new ());
  static const BlCompareGraph graphs[] = {
    BL_COMPARE_GRAPH_DIFF, BL_COMPARE_GRAPH_A, BL_COMPARE_GRAPH_B,
  };
  static const char *mime_dirs[] = { "/usr/local/share/mime", "/usr/share/mime", NULL };

  g_content_type_set_mime_dirs (mime_dirs);
  deep_init (&a, 80);
  deep_init (&b, 90);
  diff = bl_diff_new (a.profile, b.profile);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (test_iterate_until (is_mapped, view, WAIT_TURNS));
  bl_compare_view_set_diff (view, diff);

  for (guint i = 0; i < G_N_ELEMENTS (graphs); i++)
    {
      BlFlameGraph *graph;

      bl_compare_view_set_page (view, graphs[i] == BL_COMPARE_GRAPH_DIFF ? "differential"
                                                                         : "side-by-side");
      graph = bl_compare_view_get_flame_graph (view, graphs[i]);
      g_assert_true (test_iterate_until (graph_shows, graph, WAIT_TURNS));
      for (guint k = 0; k < 100; k++)
        {
          g_main_context_iteration (NULL, FALSE);
          g_usleep (500);
        }
      assert_graph_root_visible (graph);

      /* the pane made smaller: still on the roots */
      {
        GtkWidget *paned = gtk_widget_get_ancestor (GTK_WIDGET (graph), GTK_TYPE_PANED);

        while (paned != NULL &&
               gtk_orientable_get_orientation (GTK_ORIENTABLE (paned)) != GTK_ORIENTATION_VERTICAL)
          paned = gtk_widget_get_ancestor (gtk_widget_get_parent (paned), GTK_TYPE_PANED);
        g_assert_nonnull (paned);
        gtk_paned_set_position (GTK_PANED (paned), 200 + 40 * i);
        for (guint k = 0; k < 100; k++)
          {
            g_main_context_iteration (NULL, FALSE);
            g_usleep (500);
          }
        assert_graph_root_visible (graph);
      }
    }

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (a.profile);
  g_object_unref (b.profile);
}

/* shallow graphs in a compare tab get only their rows and one of air */
static void
test_compare_shallow (void)
{
  Deep a, b;
  g_autoptr(BlDiff) diff = NULL;
  GtkWidget *window = gtk_window_new ();
  BlCompareView *view = BL_COMPARE_VIEW (bl_compare_view_new ());
  static const char *mime_dirs[] = { "/usr/local/share/mime", "/usr/share/mime", NULL };
  BlFlameGraph *graph;
  GtkWidget *scroller;
  int row;

  g_content_type_set_mime_dirs (mime_dirs);
  deep_init (&a, 2);
  deep_init (&b, 2);
  diff = bl_diff_new (a.profile, b.profile);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (test_iterate_until (is_mapped, view, WAIT_TURNS));
  bl_compare_view_set_diff (view, diff);
  bl_compare_view_set_page (view, "differential");
  graph = bl_compare_view_get_flame_graph (view, BL_COMPARE_GRAPH_DIFF);
  g_assert_true (test_iterate_until (graph_shows, graph, WAIT_TURNS));
  for (guint k = 0; k < 200; k++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (500);
    }

  /* three levels (thread, two frames) and one row of air */
  row = (int) bl_flame_graph_get_row_height (graph);
  scroller = gtk_widget_get_ancestor (GTK_WIDGET (graph), GTK_TYPE_SCROLLED_WINDOW);
  g_test_message ("graph pane %d px, row %d px", gtk_widget_get_height (scroller), row);
  g_assert_cmpint (gtk_widget_get_height (scroller), <=, 4 * row + 2);
  assert_graph_root_visible (graph);

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (a.profile);
  g_object_unref (b.profile);
}

/* with the graph switcher shown (a profile with a time order) the view
 * still fits 800 px */
static void
test_timed_fits_800 (void)
{
  BlProfile *p = bl_profile_new ("test");
  BlProfileView *view;
  guint32 root, f;
  guint span;
  int min_width;

  bl_profile_enable_metric (p, BL_METRIC_TIME_NS);
  root = bl_profile_add_thread (p, bl_profile_intern (p, "Thread main"));
  f = bl_profile_add_child (p, root, bl_profile_intern (p, "f"), 0, 0);
  span = bl_profile_add_span (p, 0, f, 0);
  bl_profile_set_span_end (p, 0, span, 10);
  bl_profile_add_value (p, f, BL_METRIC_TIME_NS, 10);
  bl_profile_finish (p);
  g_assert_true (bl_profile_has_time_order (p));

  view = present_view (p, 800, 600);
  gtk_widget_measure (GTK_WIDGET (view), GTK_ORIENTATION_HORIZONTAL, -1,
                      &min_width, NULL, NULL, NULL);
  g_test_message ("minimum width with the graph switcher: %d", min_width);
  g_assert_cmpint (min_width, <=, 800);
  close_view (view);
  g_object_unref (p);
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
  g_test_add_func ("/widgets/profile-ux/compare-roots-visible", test_compare_roots_visible);
  g_test_add_func ("/widgets/profile-ux/compare-shallow", test_compare_shallow);
  g_test_add_func ("/widgets/profile-ux/sort-follows-metric", test_sort_follows_metric);
  g_test_add_func ("/widgets/profile-ux/column-menu", test_column_menu);
  g_test_add_func ("/widgets/profile-ux/empty-state", test_empty_state);
  g_test_add_func ("/widgets/profile-ux/compact-header", test_compact_header);
  g_test_add_func ("/widgets/profile-ux/timed-fits-800", test_timed_fits_800);
  g_test_add_func ("/widgets/profile-ux/search-steps-and-filters", test_search_steps_and_filters);
  g_test_add_func ("/widgets/profile-ux/search-sliver", test_search_sliver);
  g_test_add_func ("/widgets/profile-ux/recent-labels", test_recent_labels);
  g_test_add_func ("/widgets/profile-ux/failed-tab", test_failed_tab);
  g_test_add_func ("/widgets/profile-ux/shortcuts-general-first", test_shortcuts_general_first);
#if !ADW_CHECK_VERSION (1, 8, 0)
  g_test_add_func ("/widgets/profile-ux/shortcuts-fit-800", test_shortcuts_fit_800);
#endif
  g_test_add_func ("/widgets/profile-ux/source-folder-paths", test_source_folder_paths);

  return g_test_run ();
}
