/* test-profile-view.c — call tree tables and their sync with the flame graph
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <adwaita.h>
#include <string.h>

#include <glib/gstdio.h>

#include "bl-bsprof-writer.h"
#include "bl-model.h"
#include "bl-profile-page.h"
#include "bl-profile-node.h"
#include "bl-profile-view.h"
#include "widget-test-util.h"

/* Thread main:  main → load → parse (self 30)
 *                      → draw (self 50)
 *               main → parse (self 20)        (parse called from two places)
 * Thread render: loop → draw (self 100)
 */
typedef struct
{
  BlProfile *profile;
  guint32    main_root, render_root;
  guint32    m, load, load_parse, draw, m_parse, loop, loop_draw;
} Tree;

static void
tree_init (Tree *t)
{
  BlProfile *p = bl_profile_new ("test");
  guint32 file = bl_profile_intern (p, "pkg:/source/app.brs");

  bl_profile_enable_metric (p, BL_METRIC_CPU);
  bl_profile_enable_metric (p, BL_METRIC_WALL);
  bl_profile_enable_metric (p, BL_METRIC_CALLS);
  t->main_root = bl_profile_add_thread (p, bl_profile_intern (p, "Thread main"));
  t->render_root = bl_profile_add_thread (p, bl_profile_intern (p, "Thread render"));
  t->m = bl_profile_add_child (p, t->main_root, bl_profile_intern (p, "main"), file, 1);
  t->load = bl_profile_add_child (p, t->m, bl_profile_intern (p, "load"), file, 10);
  t->load_parse = bl_profile_add_child (p, t->load, bl_profile_intern (p, "parse"), file, 20);
  t->draw = bl_profile_add_child (p, t->m, bl_profile_intern (p, "draw"), file, 30);
  t->m_parse = bl_profile_add_child (p, t->m, bl_profile_intern (p, "parse"), file, 20);
  t->loop = bl_profile_add_child (p, t->render_root, bl_profile_intern (p, "loop"), file, 40);
  t->loop_draw = bl_profile_add_child (p, t->loop, bl_profile_intern (p, "draw"), file, 30);
  bl_profile_add_value (p, t->load_parse, BL_METRIC_CPU, 30);
  bl_profile_add_value (p, t->draw, BL_METRIC_CPU, 50);
  bl_profile_add_value (p, t->m_parse, BL_METRIC_CPU, 20);
  bl_profile_add_value (p, t->loop_draw, BL_METRIC_CPU, 100);
  bl_profile_add_value (p, t->draw, BL_METRIC_WALL, 80);
  bl_profile_add_value (p, t->draw, BL_METRIC_CALLS, 4);
  bl_profile_finish (p);
  t->profile = p;
}

/* turns of the main loop, a millisecond each, that a wait may take */
#define WAIT_TURNS 3000

static gboolean
flame_has_layout (gpointer data)
{
  return bl_flame_graph_get_layout (bl_profile_view_get_flame_graph (data)) != NULL;
}

static BlProfileView *current_view;

/* whether no table of @view is in the @state a getter tells */
static gboolean
no_table (BlProfileView *view,
          gboolean     (*state) (BlCallTreeView *))
{
  for (BlCallTreeMode m = BL_CALL_TREE_TOP_DOWN; m <= BL_CALL_TREE_CALLEES; m++)
    if (state (bl_profile_view_get_call_tree (view, m)))
      return FALSE;

  return TRUE;
}

static gboolean
tables_ready (gpointer data)
{
  return no_table (data, bl_call_tree_view_get_loading);
}

/* let the workers (layout, table rows) finish and the main loop catch up */
static void
settle (void)
{
  if (current_view != NULL)
    g_assert_true (test_iterate_until (tables_ready, current_view, WAIT_TURNS));
  for (guint i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
}

static BlProfileView *
present_view (BlProfile *profile)
{
  static const char *mime_dirs[] = { "/usr/local/share/mime", "/usr/share/mime", NULL };
  GtkWidget *window;
  GtkWidget *view;

  /* the isolated XDG dirs hide the MIME database that the image loaders
   * need to recognise GTK's own SVG icons */
  g_content_type_set_mime_dirs (mime_dirs);

  window = gtk_window_new ();
  view = bl_profile_view_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  bl_profile_view_set_profile (BL_PROFILE_VIEW (view), profile);
  g_assert_true (test_iterate_until (flame_has_layout, view, WAIT_TURNS));
  current_view = BL_PROFILE_VIEW (view);
  settle ();

  return BL_PROFILE_VIEW (view);
}

static gpointer
item_at (GListModel *model,
         guint       i)
{
  GObject *object = g_list_model_get_item (model, i);
  gpointer item;

  if (GTK_IS_TREE_LIST_ROW (object))
    {
      item = gtk_tree_list_row_get_item (GTK_TREE_LIST_ROW (object));
      g_object_unref (object);
      return item;
    }

  return object;
}

static void
test_rows (void)
{
  Tree t;
  g_autoptr(GListModel) functions = NULL;
  g_autoptr(BlProfileNode) draw_fn = NULL;
  g_autoptr(BlProfileNode) root = NULL;
  GListModel *callers;
  guint found = 0;

  tree_init (&t);

  /* top-down: a row per node, children made on demand */
  root = bl_profile_node_new_call (t.profile, t.main_root);
  g_assert_cmpuint (bl_profile_node_get_total (root, BL_METRIC_CPU), ==, 100);
  g_assert_cmpuint (g_list_model_get_n_items (bl_profile_node_get_children (root)), ==, 1);

  /* the flat list merges parse's two call sites */
  functions = bl_profile_node_list_functions (t.profile, G_MAXUINT, BL_PROFILE_NODE_FUNCTION);
  for (guint i = 0; i < g_list_model_get_n_items (functions); i++)
    {
      g_autoptr(BlProfileNode) f = g_list_model_get_item (functions, i);

      if (g_str_equal (bl_profile_node_get_name (f), "parse"))
        {
          g_assert_cmpuint (bl_profile_node_get_self (f, BL_METRIC_CPU), ==, 50);
          g_assert_cmpuint (bl_profile_node_get_n_nodes (f), ==, 2);
          found++;
        }
      if (g_str_equal (bl_profile_node_get_name (f), "draw"))
        {
          g_assert_cmpuint (bl_profile_node_get_total (f, BL_METRIC_CPU), ==, 150);
          found++;
        }
    }
  g_assert_cmpuint (found, ==, 2);

  /* bottom-up: draw's callers are main (50) and loop (100) */
  draw_fn = bl_profile_node_new_for_function (t.profile, G_MAXUINT,
                                              bl_profile_get_node_function (t.profile, t.draw),
                                              BL_PROFILE_NODE_CALLERS);
  callers = bl_profile_node_get_children (draw_fn);
  g_assert_cmpuint (g_list_model_get_n_items (callers), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(BlProfileNode) c = g_list_model_get_item (callers, i);

      if (g_str_equal (bl_profile_node_get_name (c), "loop"))
        g_assert_cmpuint (bl_profile_node_get_self (c, BL_METRIC_CPU), ==, 100);
      else
        {
          g_assert_cmpstr (bl_profile_node_get_name (c), ==, "main");
          g_assert_cmpuint (bl_profile_node_get_self (c, BL_METRIC_CPU), ==, 50);
        }
    }

  g_object_unref (t.profile);
}

static void
test_table_to_flame (void)
{
  Tree t;
  BlProfileView *view;
  BlCallTreeView *top_down;
  BlCallTreeView *functions;
  GListModel *model;
  BlFlameGraph *graph;
  gboolean selected = FALSE;

  tree_init (&t);
  view = present_view (t.profile);
  graph = bl_profile_view_get_flame_graph (view);
  top_down = bl_profile_view_get_call_tree (view, BL_CALL_TREE_TOP_DOWN);
  model = bl_call_tree_view_get_model (top_down);

  /* two threads: both roots listed, sorted by CPU total, render first */
  g_assert_cmpuint (g_list_model_get_n_items (model), >=, 2);

  /* expand the main thread and pick "main" the way a click does */
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GObject) row = g_list_model_get_item (model, i);
      g_autoptr(BlProfileNode) item = gtk_tree_list_row_get_item (GTK_TREE_LIST_ROW (row));

      if (bl_profile_node_get_node (item) == t.main_root)
        gtk_tree_list_row_set_expanded (GTK_TREE_LIST_ROW (row), TRUE);
    }
  settle ();
  for (guint i = 0; i < g_list_model_get_n_items (model) && !selected; i++)
    {
      g_autoptr(BlProfileNode) item = item_at (model, i);

      if (bl_profile_node_get_node (item) == t.m)
        {
          gtk_selection_model_select_item (GTK_SELECTION_MODEL (model), i, TRUE);
          selected = TRUE;
        }
    }
  settle ();
  g_assert_true (selected);
  g_assert_cmpuint (bl_flame_graph_get_selected_node (graph), ==, t.m);

  /* the other tables follow: the functions list selects "main" too */
  functions = bl_profile_view_get_call_tree (view, BL_CALL_TREE_FUNCTIONS);
  g_assert_cmpuint (bl_call_tree_view_get_selected_node (functions), ==, t.m);

  current_view = NULL;
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
  g_object_unref (t.profile);
}

static void
test_flame_to_table (void)
{
  Tree t;
  BlProfileView *view;
  BlCallTreeView *top_down;
  BlCallTreeView *bottom_up;
  BlCallTreeView *functions;
  BlCallTreeView *callers;
  guint32 parse_fn;
  BlFlameGraph *graph;
  g_autoptr(BlProfileNode) item = NULL;
  GListModel *model;
  guint pos;

  tree_init (&t);
  view = present_view (t.profile);
  graph = bl_profile_view_get_flame_graph (view);
  top_down = bl_profile_view_get_call_tree (view, BL_CALL_TREE_TOP_DOWN);
  bottom_up = bl_profile_view_get_call_tree (view, BL_CALL_TREE_BOTTOM_UP);

  /* a deep frame: its ancestors open in the top-down table */
  bl_flame_graph_set_selected_node (graph, t.load_parse);
  settle ();
  g_assert_cmpuint (bl_call_tree_view_get_selected_node (top_down), ==, t.load_parse);

  model = bl_call_tree_view_get_model (top_down);
  pos = gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model));
  g_assert_cmpuint (pos, !=, GTK_INVALID_LIST_POSITION);
  item = item_at (model, pos);
  g_assert_cmpuint (bl_profile_node_get_node (item), ==, t.load_parse);

  /* bottom-up selects the function's row: parse */
  parse_fn = bl_profile_get_node_function (t.profile, t.load_parse);
  g_assert_cmpuint (bl_profile_get_node_function (t.profile,
                                                  bl_call_tree_view_get_selected_node (bottom_up)),
                    ==, parse_fn);

  /* and the sandwich shows parse */
  functions = bl_profile_view_get_call_tree (view, BL_CALL_TREE_FUNCTIONS);
  callers = bl_profile_view_get_call_tree (view, BL_CALL_TREE_CALLERS);
  g_assert_cmpuint (bl_call_tree_view_get_selected_function (functions), ==, parse_fn);
  g_assert_cmpuint (g_list_model_get_n_items (bl_call_tree_view_get_model (callers)), >=, 1);

  /* switching thread and metric keeps working */
  bl_profile_view_set_thread (view, 1);
  settle ();
  g_assert_cmpuint (bl_flame_graph_get_thread (graph), ==, 1);
  bl_profile_view_set_metric (view, BL_METRIC_WALL);
  settle ();
  g_assert_cmpint (bl_flame_graph_get_metric (graph), ==, BL_METRIC_WALL);

  /* the choice is remembered for the next profile that has the metric */
  {
    g_autoptr(GSettings) settings = g_settings_new (BASE_ID);
    g_autofree char *last = g_settings_get_string (settings, "last-metric");

    g_assert_cmpstr (last, ==, "wall");
  }

  current_view = NULL;
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
  g_object_unref (t.profile);
}

static void
test_incomplete_banner (void)
{
  Tree t;
  BlProfileView *view;
  BlProfile *complete;
  guint32 root, f;

  /* a complete profile: no banner */
  tree_init (&t);
  view = present_view (t.profile);
  g_assert_null (bl_profile_view_get_banner_text (view));
  current_view = NULL;
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
  g_object_unref (t.profile);

  /* an incomplete one says where the stream ended, in the reader's words */
  complete = bl_profile_new ("test");
  bl_profile_enable_metric (complete, BL_METRIC_CPU);
  root = bl_profile_add_thread (complete, bl_profile_intern (complete, "main"));
  f = bl_profile_add_child (complete, root, bl_profile_intern (complete, "f"), 0, 0);
  bl_profile_add_value (complete, f, BL_METRIC_CPU, 5);
  bl_profile_set_incomplete (complete, "The data ends at byte 4242, inside an entry.");
  bl_profile_finish (complete);

  view = present_view (complete);
  g_assert_cmpstr (bl_profile_view_get_banner_text (view), ==,
                   "The data ends at byte 4242, inside an entry.");
  current_view = NULL;
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
  g_object_unref (complete);
}

static void
finalized_cb (gpointer  data,
              GObject  *where)
{
  *(gboolean *) data = TRUE;
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

/* a tab closed while its file loads: the worker finishes into a disposed page */
static void
test_page_closed_while_loading (void)
{
  g_autofree char *dir = g_dir_make_tmp ("bl-page-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "slow.bsprof", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  BlProfilePage *page;
  gboolean finalized = FALSE;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 0, 1, 1);
  for (guint i = 0; i < 200000; i++)
    bl_bsprof_writer_cpu (w, 1, 0, 3, 4);
  bl_bsprof_writer_end (w, 5);
  bl_bsprof_writer_save (w, path, &error);
  g_assert_no_error (error);
  bl_bsprof_writer_free (w);

  page = g_object_ref_sink (bl_profile_page_new (file));
  g_object_weak_ref (G_OBJECT (page), finalized_cb, &finalized);
  bl_profile_page_load (page);
  g_assert_cmpint (bl_profile_page_get_state (page), ==, BL_PROFILE_PAGE_LOADING);

  g_object_run_dispose (G_OBJECT (page));
  g_object_unref (page);

  /* the load's reference keeps it alive until its callback has run */
  g_assert_true (test_iterate_until (flag_set, &finalized, WAIT_TURNS));

  g_unlink (path);
  g_rmdir (dir);
}

static gboolean
table_loaded (gpointer data)
{
  return !bl_call_tree_view_get_loading (data);
}

static gboolean
window_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

static gboolean
tables_released (gpointer data)
{
  return no_table (data, bl_call_tree_view_get_waiting);
}

/* a hidden table that is held makes no rows until it is released */
static void
test_held_table (void)
{
  Tree t;
  GtkWidget *table = g_object_ref_sink (bl_call_tree_view_new (BL_CALL_TREE_BOTTOM_UP));

  tree_init (&t);
  bl_call_tree_view_set_held (BL_CALL_TREE_VIEW (table), TRUE);
  bl_call_tree_view_set_profile (BL_CALL_TREE_VIEW (table), t.profile, G_MAXUINT);
  g_assert_true (bl_call_tree_view_get_loading (BL_CALL_TREE_VIEW (table)));
  g_assert_true (bl_call_tree_view_get_waiting (BL_CALL_TREE_VIEW (table)));
  /* a worker would have finished well within this */
  for (guint i = 0; i < 200; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_true (bl_call_tree_view_get_loading (BL_CALL_TREE_VIEW (table)));
  g_assert_cmpuint (g_list_model_get_n_items (bl_call_tree_view_get_model (BL_CALL_TREE_VIEW (table))),
                    ==, 0);

  /* asked twice while held: one request, the last */
  bl_call_tree_view_set_profile (BL_CALL_TREE_VIEW (table), t.profile, 0);
  bl_call_tree_view_set_held (BL_CALL_TREE_VIEW (table), FALSE);
  g_assert_false (bl_call_tree_view_get_waiting (BL_CALL_TREE_VIEW (table)));
  g_assert_true (test_iterate_until (table_loaded, table, WAIT_TURNS));
  /* thread main's functions: main, load, parse, draw */
  g_assert_cmpuint (g_list_model_get_n_items (bl_call_tree_view_get_model (BL_CALL_TREE_VIEW (table))),
                    ==, 4);

  g_object_unref (table);
  g_object_unref (t.profile);
}

/* In a window showing the flame graph, the hidden tables wait for its
 * layout: right after the profile is set they have not started, and they
 * are all there after the graph. */
static void
test_hidden_tables_wait (void)
{
  Tree t;
  GtkWidget *window = gtk_window_new ();
  BlProfileView *view = BL_PROFILE_VIEW (bl_profile_view_new ());
  BlCallTreeView *bottom_up = bl_profile_view_get_call_tree (view, BL_CALL_TREE_BOTTOM_UP);
  BlCallTreeView *functions = bl_profile_view_get_call_tree (view, BL_CALL_TREE_FUNCTIONS);

  tree_init (&t);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (test_iterate_until (window_mapped, window, WAIT_TURNS));

  bl_profile_view_set_profile (view, t.profile);
  g_assert_null (bl_flame_graph_get_layout (bl_profile_view_get_flame_graph (view)));
  g_assert_true (bl_call_tree_view_get_waiting (bottom_up));
  g_assert_true (bl_call_tree_view_get_waiting (functions));
  g_assert_true (bl_call_tree_view_get_loading (functions));
  g_assert_cmpuint (g_list_model_get_n_items (bl_call_tree_view_get_model (functions)), ==, 0);
  /* the table shown makes its rows at once */
  g_assert_false (bl_call_tree_view_get_waiting (bl_profile_view_get_call_tree (view,
                                                                            BL_CALL_TREE_TOP_DOWN)));

  g_assert_true (test_iterate_until (flame_has_layout, view, WAIT_TURNS));
  /* and they go on waiting until the frame with the graph is painted */
  g_assert_true (bl_call_tree_view_get_waiting (bottom_up));
  g_assert_true (bl_call_tree_view_get_waiting (functions));
  g_assert_true (test_iterate_until (tables_released, view, WAIT_TURNS));
  current_view = view;
  settle ();
  g_assert_false (bl_call_tree_view_get_loading (bottom_up));
  /* both threads' functions: main, load, parse, draw, loop */
  g_assert_cmpuint (g_list_model_get_n_items (bl_call_tree_view_get_model (functions)), ==, 5);

  current_view = NULL;
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (t.profile);
}

/* A profile of @n nodes in two threads, chains of eight under random
 * parents, with cpu and wall */
static BlProfile *
make_wide_profile (guint n)
{
  BlProfile *p = bl_profile_new ("wide");
  GRand *rand = g_rand_new_with_seed (12);
  guint32 names[32];

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      char name[16];

      g_snprintf (name, sizeof name, "fn%u", i);
      names[i] = bl_profile_intern (p, name);
    }
  bl_profile_enable_metric (p, BL_METRIC_CPU);
  bl_profile_enable_metric (p, BL_METRIC_WALL);
  bl_profile_add_thread (p, bl_profile_intern (p, "main"));
  bl_profile_add_thread (p, bl_profile_intern (p, "render"));
  while (bl_profile_get_n_nodes (p) < n)
    {
      guint32 count = bl_profile_get_n_nodes (p);
      guint32 parent = count % 8 == 0 ? (guint32) g_rand_int_range (rand, 0, count) : count - 1;
      guint32 node = bl_profile_add_child (p, parent, names[g_rand_int_range (rand, 0, 32)], 0, 0);

      bl_profile_add_value (p, node, BL_METRIC_CPU, g_rand_int_range (rand, 1, 100));
      bl_profile_add_value (p, node, BL_METRIC_WALL, g_rand_int_range (rand, 1, 300));
    }
  g_rand_free (rand);
  bl_profile_finish (p);

  return p;
}

/* On a profile of 100,000 nodes or more the Top Down table shown does not
 * make every metric's node totals on the main thread as its first rows are
 * bound: while the graph's layout is made it waits, held like the hidden
 * tables, and then its worker makes them and gives it its rows. */
static void
test_top_down_waits_on_big (void)
{
  g_autoptr(BlProfile) profile = make_wide_profile (150000);
  GtkWidget *window = gtk_window_new ();
  BlProfileView *view = BL_PROFILE_VIEW (bl_profile_view_new ());
  BlCallTreeView *top_down = bl_profile_view_get_call_tree (view, BL_CALL_TREE_TOP_DOWN);
  BlCallTreeView *bottom_up = bl_profile_view_get_call_tree (view, BL_CALL_TREE_BOTTOM_UP);
  GtkColumnView *top_columns =
    GTK_COLUMN_VIEW (test_find_widget (GTK_WIDGET (top_down), GTK_TYPE_COLUMN_VIEW));
  GtkColumnView *bottom_columns =
    GTK_COLUMN_VIEW (test_find_widget (GTK_WIDGET (bottom_up), GTK_TYPE_COLUMN_VIEW));
  guint n_columns;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (test_iterate_until (window_mapped, window, WAIT_TURNS));

  g_assert_false (bl_profile_has_total_array (profile, BL_METRIC_WALL));
  bl_profile_view_set_profile (view, profile);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (top_down)));
  g_assert_true (bl_call_tree_view_get_waiting (top_down));
  g_assert_true (bl_call_tree_view_get_loading (top_down));
  g_assert_cmpuint (g_list_model_get_n_items (bl_call_tree_view_get_model (top_down)), ==, 0);
  /* nothing asked the main thread for the totals of the metric not drawn */
  g_assert_false (bl_profile_has_total_array (profile, BL_METRIC_WALL));
  /* the table shown has its columns; a hidden one held back makes them
   * when released (only the function column yet) */
  n_columns = g_list_model_get_n_items (gtk_column_view_get_columns (top_columns));
  g_assert_cmpuint (n_columns, >, 3);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_column_view_get_columns (bottom_columns)), ==, 1);

  current_view = view;
  g_assert_true (test_iterate_until (tables_released, view, WAIT_TURNS));
  settle ();
  g_assert_false (bl_call_tree_view_get_loading (top_down));
  /* the two thread roots, and every metric's totals made */
  g_assert_cmpuint (g_list_model_get_n_items (bl_call_tree_view_get_model (top_down)), ==, 2);
  g_assert_true (bl_profile_has_total_array (profile, BL_METRIC_CPU));
  g_assert_true (bl_profile_has_total_array (profile, BL_METRIC_WALL));
  /* released, the hidden table has the same columns as the one shown */
  g_assert_cmpuint (g_list_model_get_n_items (gtk_column_view_get_columns (bottom_columns)), ==,
                    n_columns);

  current_view = NULL;
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A hidden table that had rows keeps them bound while it is held (their
 * taking down is not between the click and the graph), lets them go when
 * released, and binds the new ones when it is shown. */
static void
test_held_table_keeps_rows (void)
{
  Tree t;
  BlProfileView *view;
  BlCallTreeView *bottom_up;
  GtkColumnView *column_view;
  GtkSelectionModel *old_rows;

  tree_init (&t);
  /* settled: the tables released and their rows made */
  view = present_view (t.profile);
  bottom_up = bl_profile_view_get_call_tree (view, BL_CALL_TREE_BOTTOM_UP);
  column_view = GTK_COLUMN_VIEW (test_find_widget (GTK_WIDGET (bottom_up), GTK_TYPE_COLUMN_VIEW));
  g_assert_nonnull (column_view);
  g_assert_true (tables_released (view));

  /* Bottom Up shown once: its rows are bound; then hidden again */
  bl_profile_view_show_table (view, BL_CALL_TREE_BOTTOM_UP);
  settle ();
  old_rows = gtk_column_view_get_model (column_view);
  g_assert_nonnull (old_rows);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (old_rows)), ==, 5);
  g_object_ref (old_rows);
  bl_profile_view_show_table (view, BL_CALL_TREE_TOP_DOWN);
  settle ();

  /* one thread: the hidden table is held, its old rows still bound */
  bl_profile_view_set_thread (view, 0);
  g_assert_true (bl_call_tree_view_get_waiting (bottom_up));
  g_assert_true (gtk_column_view_get_model (column_view) == old_rows);

  /* released after the graph's frame: the old rows are let go */
  g_assert_true (test_iterate_until (tables_released, view, WAIT_TURNS));
  settle ();
  g_assert_null (gtk_column_view_get_model (column_view));
  g_object_unref (old_rows);

  /* shown: thread main's functions main, load, parse, draw */
  bl_profile_view_show_table (view, BL_CALL_TREE_BOTTOM_UP);
  settle ();
  g_assert_nonnull (gtk_column_view_get_model (column_view));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (column_view))),
                    ==, 4);

  current_view = NULL;
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
  g_object_unref (t.profile);
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

  g_test_add_func ("/widgets/call-tree/rows", test_rows);
  g_test_add_func ("/widgets/profile-view/table-to-flame", test_table_to_flame);
  g_test_add_func ("/widgets/profile-view/flame-to-table", test_flame_to_table);
  g_test_add_func ("/widgets/profile-view/incomplete-banner", test_incomplete_banner);
  g_test_add_func ("/widgets/profile-page/closed-while-loading", test_page_closed_while_loading);
  g_test_add_func ("/widgets/call-tree/held", test_held_table);
  g_test_add_func ("/widgets/profile-view/hidden-tables-wait", test_hidden_tables_wait);
  g_test_add_func ("/widgets/profile-view/held-table-keeps-rows", test_held_table_keeps_rows);
  g_test_add_func ("/widgets/profile-view/top-down-waits-on-big", test_top_down_waits_on_big);

  return g_test_run ();
}
