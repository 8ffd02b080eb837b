/* test-window-memory.c — what a tab holds (a profile's or a heap snapshot's)
 * goes when the tab is closed, and
 * the tables' lazily made rows are the rows the model makes, drawn by
 * value cells of one widget each
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "bl-application.h"
#include "bl-bsprof-writer.h"
#include "bl-heapsnapshot-writer.h"
#include "bl-call-tree-view.h"
#include "bl-hot-lines-view.h"
#include "bl-lazy-children.h"
#include "bl-model.h"
#include "bl-profile-node.h"
#include "bl-profile-page.h"
#include "bl-line-item.h"
#include "bl-line-list.h"
#include "bl-lines.h"
#include "bl-stacks-writer.h"
#include "bl-value-cell.h"
#include "bl-window.h"

static const char *stacks[] = {
  "Thread main;Main;loadContent;parse 300",
  "Thread main;Main;loadContent;render 200",
  "Thread main;Main;render 500",
  "Thread main;Main;parse;render 40",
  "Task1;run;parse 120",
  "Task1;run;fetch;parse 80",
  "Task2;poll;fetch 60",
  NULL,
};

static gboolean
wake_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

static gboolean
iterate_until (gboolean (*cond) (gpointer),
               gpointer   data)
{
  guint wake = g_timeout_add (5, wake_cb, NULL);
  gint64 end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while (!cond (data) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wake);

  return cond (data);
}

static void
iterate_for (guint ms)
{
  guint wake = g_timeout_add (5, wake_cb, NULL);
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wake);
}

static gboolean
page_ready (gpointer data)
{
  BlProfilePage *page = data;
  BlProfileView *view;
  BlFlameGraph *graph;

  if (bl_profile_page_get_state (page) != BL_PROFILE_PAGE_LOADED)
    return bl_profile_page_get_state (page) == BL_PROFILE_PAGE_FAILED;

  view = bl_profile_page_get_profile_view (page);
  graph = bl_profile_view_get_flame_graph (view);
  for (BlCallTreeMode m = BL_CALL_TREE_TOP_DOWN; m <= BL_CALL_TREE_CALLEES; m++)
    if (bl_call_tree_view_get_loading (bl_profile_view_get_call_tree (view, m)))
      return FALSE;

  return bl_flame_graph_get_layout (graph) != NULL &&
         bl_flame_layout_get_metric (bl_flame_graph_get_layout (graph)) ==
         bl_flame_graph_get_metric (graph) &&
         bl_flame_layout_get_thread (bl_flame_graph_get_layout (graph)) ==
         bl_flame_graph_get_thread (graph);
}

typedef struct
{
  char *path;
  char *heap_path;
  gboolean done;
} Run;

static void
expand_all_roots (BlCallTreeView *table)
{
  GListModel *model = bl_call_tree_view_get_model (table);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GObject) row = g_list_model_get_item (model, i);

      if (GTK_IS_TREE_LIST_ROW (row) && gtk_tree_list_row_get_depth (GTK_TREE_LIST_ROW (row)) == 0)
        gtk_tree_list_row_set_expanded (GTK_TREE_LIST_ROW (row), TRUE);
    }
}

static GtkWidget *
find_stack_child (GtkWidget  *root,
                  const char *name)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (GTK_IS_STACK (c) && (found = gtk_stack_get_child_by_name (GTK_STACK (c), name)))
        return found;
      if ((found = find_stack_child (c, name)) != NULL)
        return found;
    }

  return NULL;
}

/* Closes the tab of the page @refs[0] holds, lets the main loop run, and
 * asserts that no tab is left and that every one of @refs is gone. */
static void
close_tab_and_assert_freed (BlWindow *window,
                            GWeakRef *refs,
                            guint     n_refs)
{
  AdwTabView *tabs = bl_window_get_tab_view (window);
  GtkWidget *child = g_weak_ref_get (&refs[0]);

  adw_tab_view_close_page (tabs, adw_tab_view_get_page (tabs, child));
  g_object_unref (child);
  iterate_for (300);

  g_assert_cmpuint (bl_window_get_n_pages (window), ==, 0);
  for (guint i = 0; i < n_refs; i++)
    {
      g_assert_null (g_weak_ref_get (&refs[i]));
      g_weak_ref_clear (&refs[i]);
    }
}

/* A heap snapshot's tab: the profile, its Heap page and the index the page
 * built in a worker all go when the tab closes, after every list was shown,
 * the types filtered and an object selected (the lists' selection models
 * once kept every type's item, and so the profile, alive). */
static gboolean
heap_ready (gpointer data)
{
  BlProfilePage *page = data;
  BlHeapView *heap;

  if (bl_profile_page_get_state (page) != BL_PROFILE_PAGE_LOADED)
    return bl_profile_page_get_state (page) == BL_PROFILE_PAGE_FAILED;
  heap = bl_profile_page_get_heap_view (page);

  return heap != NULL && bl_heap_view_is_ready (heap) && gtk_widget_get_mapped (GTK_WIDGET (heap));
}

static void
check_heap_tab_frees (BlWindow   *window,
                      const char *path)
{
  static const char *pages[] = { "dominators", "cycles", "types" };
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GWeakRef refs[3];
  BlProfilePage *page;
  BlHeapView *heap;

  page = bl_window_open_file (window, file);
  g_assert_true (iterate_until (heap_ready, page));
  g_assert_cmpint (bl_profile_page_get_state (page), ==, BL_PROFILE_PAGE_LOADED);
  g_assert_true (bl_profile_page_is_showing_heap (page));
  heap = bl_profile_page_get_heap_view (page);
  g_assert_cmpuint (g_list_model_get_n_items (bl_heap_view_get_types_model (heap)), >, 0);

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      bl_heap_view_set_page (heap, pages[i]);
      iterate_for (50);
      g_assert_cmpstr (bl_heap_view_get_page (heap), ==, pages[i]);
    }
  bl_heap_view_set_type_filter (heap, "C1");
  iterate_for (50);
  bl_heap_view_select_object (heap, 5);
  iterate_for (100);
  g_assert_cmpuint (bl_heap_view_get_selected_object (heap), ==, 5);

  /* the page first: its tab is the one closed */
  g_weak_ref_init (&refs[0], page);
  g_weak_ref_init (&refs[1], heap);
  g_weak_ref_init (&refs[2], bl_profile_page_get_profile (page));
  page = NULL;
  heap = NULL;
  close_tab_and_assert_freed (window, refs, G_N_ELEMENTS (refs));
}

static gboolean
run_cb (gpointer data)
{
  Run *run = data;
  GApplication *app = g_application_get_default ();
  BlWindow *window = BL_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_autoptr(GFile) file = g_file_new_for_path (run->path);
  GWeakRef refs[5];
  BlProfilePage *page;
  BlProfileView *view;
  BlProfile *profile;

  page = bl_window_open_file (window, file);
  g_assert_true (iterate_until (page_ready, page));
  g_assert_cmpint (bl_profile_page_get_state (page), ==, BL_PROFILE_PAGE_LOADED);
  view = bl_profile_page_get_profile_view (page);
  profile = bl_profile_page_get_profile (page);

  /* use it: every table with rows opened, another metric, one thread, a
   * selection, a zoom, a search */
  for (BlCallTreeMode m = BL_CALL_TREE_TOP_DOWN; m <= BL_CALL_TREE_FUNCTIONS; m++)
    {
      bl_profile_view_show_table (view, m);
      g_assert_true (iterate_until (page_ready, page));
      expand_all_roots (bl_profile_view_get_call_tree (view, m));
      iterate_for (50);
    }
  {
    GtkWidget *lines = find_stack_child (GTK_WIDGET (view), "lines");

    g_assert_nonnull (lines);
    gtk_stack_set_visible_child (GTK_STACK (gtk_widget_get_parent (lines)), lines);
    iterate_for (100);
  }
  bl_profile_view_set_metric (view, BL_METRIC_WALL);
  g_assert_true (iterate_until (page_ready, page));
  bl_profile_view_set_thread (view, 0);
  g_assert_true (iterate_until (page_ready, page));
  {
    BlFlameGraph *graph = bl_profile_view_get_flame_graph (view);
    BlFlameLayout *layout = bl_flame_graph_get_layout (graph);
    const BlFlameRect *rects = bl_flame_layout_get_rects (layout);

    g_assert_cmpuint (bl_flame_layout_get_n_rects (layout), >, 2);
    bl_flame_graph_set_selected_node (graph, rects[2].node);
    bl_flame_graph_zoom_to_node (graph, rects[1].node, FALSE);
    bl_flame_graph_set_search (graph, "parse");
  }
  g_assert_true (iterate_until (page_ready, page));
  iterate_for (100);

  /* the page first: its tab is the one closed */
  g_weak_ref_init (&refs[0], page);
  g_weak_ref_init (&refs[1], view);
  g_weak_ref_init (&refs[2], bl_profile_view_get_flame_graph (view));
  g_weak_ref_init (&refs[3], bl_profile_view_get_call_tree (view, BL_CALL_TREE_BOTTOM_UP));
  g_weak_ref_init (&refs[4], profile);
  page = NULL;
  view = NULL;
  profile = NULL;
  close_tab_and_assert_freed (window, refs, G_N_ELEMENTS (refs));

  check_heap_tab_frees (window, run->heap_path);

  run->done = TRUE;
  gtk_window_destroy (GTK_WINDOW (window));
  g_application_release (app);

  return G_SOURCE_REMOVE;
}

static void
activate_cb (GApplication *app,
             Run          *run)
{
  g_application_hold (app);
  g_idle_add (run_cb, run);
}

static void
test_close_frees (void)
{
  static const char *mime_dirs[] = { "/usr/local/share/mime", "/usr/share/mime", NULL };
  g_autofree char *dir = g_dir_make_tmp ("bl-window-memory-XXXXXX", NULL);
  g_autoptr(BlApplication) app = bl_application_new ();
  g_autoptr(GError) error = NULL;
  char *argv[] = { (char *) "brightlens", NULL };
  Run run = { 0 };

  g_content_type_set_mime_dirs (mime_dirs);
  run.path = g_build_filename (dir, "closing.bsprof", NULL);
  g_assert_true (bl_stacks_save_bsprof (stacks, run.path, &error));
  g_assert_no_error (error);
  run.heap_path = g_build_filename (dir, "closing.heapsnapshot", NULL);
  {
    g_autoptr(GFile) file = g_file_new_for_path (run.heap_path);
    g_autoptr(GFileOutputStream) out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE,
                                                       NULL, &error);

    g_assert_no_error (error);
    g_assert_true (bl_hsw_write_tree (G_OUTPUT_STREAM (out), 5000, &error));
    g_assert_no_error (error);
    g_assert_true (g_output_stream_close (G_OUTPUT_STREAM (out), NULL, &error));
  }

  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_signal_connect_after (app, "activate", G_CALLBACK (activate_cb), &run);
  g_assert_cmpint (g_application_run (G_APPLICATION (app), 1, argv), ==, 0);
  g_assert_true (run.done);

  g_unlink (run.path);
  g_unlink (run.heap_path);
  g_free (run.path);
  g_free (run.heap_path);
  g_rmdir (dir);
}

/* the rows a lazily made child model gives are the node's own children, and
 * nothing is made until they are asked for */
static void
test_lazy_children (void)
{
  g_autoptr(GBytes) bytes = bl_stacks_write_bsprof (stacks);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  BlProfileNodeKind kinds[] = { BL_PROFILE_NODE_CALLERS, BL_PROFILE_NODE_CALLEES };
  guint checked = 0;

  profile = BL_PROFILE (bl_format_load_bytes (bytes, &error));
  g_assert_no_error (error);

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autoptr(GListModel) roots = bl_profile_node_list_functions (profile, G_MAXUINT, kinds[k]);

      for (guint i = 0; i < g_list_model_get_n_items (roots); i++)
        {
          g_autoptr(BlProfileNode) root = g_list_model_get_item (roots, i);
          g_autoptr(GListModel) lazy = bl_lazy_children_new (root);
          GListModel *eager;

          if (!bl_profile_node_has_children (root))
            {
              g_assert_null (lazy);
              continue;
            }
          g_assert_nonnull (lazy);
          g_assert_false (bl_lazy_children_is_made (BL_LAZY_CHILDREN (lazy)));
          g_assert_true (g_list_model_get_item_type (lazy) == BL_TYPE_PROFILE_NODE);

          eager = bl_profile_node_get_children (root);
          g_assert_cmpuint (g_list_model_get_n_items (lazy), ==, g_list_model_get_n_items (eager));
          g_assert_true (bl_lazy_children_is_made (BL_LAZY_CHILDREN (lazy)));
          g_assert_cmpuint (g_list_model_get_n_items (lazy), >, 0);
          for (guint c = 0; c < g_list_model_get_n_items (eager); c++)
            {
              g_autoptr(BlProfileNode) a = g_list_model_get_item (lazy, c);
              g_autoptr(BlProfileNode) b = g_list_model_get_item (eager, c);

              g_assert_true (a == b);
              g_assert_cmpuint (bl_profile_node_get_total (a, BL_METRIC_CPU), ==,
                                bl_profile_node_get_total (b, BL_METRIC_CPU));
              checked++;
            }
          g_assert_null (g_list_model_get_item (lazy, g_list_model_get_n_items (eager)));
        }
    }

  g_assert_cmpuint (checked, >, 5);
}


/* A hidden table makes its rows but binds none: the column view gets them
 * when the table is shown, with the selection made while it was hidden. */
static void
test_hidden_table (void)
{
  g_autoptr(GBytes) bytes = bl_stacks_write_bsprof (stacks);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *stack = gtk_stack_new ();
  GtkWidget *front = gtk_label_new ("front");
  GtkWidget *table = bl_call_tree_view_new (BL_CALL_TREE_BOTTOM_UP);
  GtkColumnView *column_view = bl_call_tree_view_get_column_view (BL_CALL_TREE_VIEW (table));
  guint32 parse = BL_NODE_NONE;

  profile = BL_PROFILE (bl_format_load_bytes (bytes, &error));
  g_assert_no_error (error);
  for (guint32 n = 0; n < bl_profile_get_n_nodes (profile); n++)
    if (g_strcmp0 (bl_profile_get_node_name (profile, n), "parse") == 0)
      parse = n;
  g_assert_cmpuint (parse, !=, BL_NODE_NONE);

  gtk_stack_add_named (GTK_STACK (stack), front, "front");
  gtk_stack_add_named (GTK_STACK (stack), table, "table");
  gtk_window_set_child (GTK_WINDOW (window), stack);
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 400);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (iterate_until ((gboolean (*) (gpointer)) gtk_widget_get_mapped, front));
  g_assert_false (gtk_widget_get_mapped (table));

  bl_call_tree_view_set_profile (BL_CALL_TREE_VIEW (table), profile, G_MAXUINT);
  bl_call_tree_view_select_node (BL_CALL_TREE_VIEW (table), parse);
  while (bl_call_tree_view_get_loading (BL_CALL_TREE_VIEW (table)))
    iterate_for (10);

  /* rows and selection are there; nothing is bound */
  {
    g_autoptr(GListModel) roots = bl_profile_node_list_functions (profile, G_MAXUINT,
                                                                  BL_PROFILE_NODE_CALLERS);

    g_assert_cmpuint (g_list_model_get_n_items (roots), >, 3);
    g_assert_cmpuint (g_list_model_get_n_items (bl_call_tree_view_get_model (BL_CALL_TREE_VIEW (table))),
                      ==, g_list_model_get_n_items (roots));
  }
  g_assert_cmpuint (bl_profile_get_node_function (profile,
                                                  bl_call_tree_view_get_selected_node (BL_CALL_TREE_VIEW (table))),
                    ==, bl_profile_get_node_function (profile, parse));
  g_assert_null (gtk_column_view_get_model (column_view));

  gtk_stack_set_visible_child (GTK_STACK (stack), table);
  g_assert_true (iterate_until ((gboolean (*) (gpointer)) gtk_widget_get_mapped, table));
  g_assert_true (G_LIST_MODEL (gtk_column_view_get_model (column_view)) ==
                 bl_call_tree_view_get_model (BL_CALL_TREE_VIEW (table)));
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (gtk_column_view_get_model (column_view))),
                    !=, GTK_INVALID_LIST_POSITION);

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
is_null (gpointer data)
{
  return *(gpointer *) data == NULL;
}

static gboolean
list_has_1000 (gpointer data)
{
  return g_list_model_get_n_items (data) == 1000;
}

static gboolean
table_loaded (gpointer data)
{
  return !bl_call_tree_view_get_loading (data);
}

/* A table's rows reach its column view a slice a frame (GTK 4.8 binds up to
 * 200 rows at once, all in one frame): a table's worth first, then all of
 * them; selecting a row anywhere, or the focus entering the table, brings
 * every row in at once. */
static void
test_table_rows_in_slices (void)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("test");
  GtkWidget *window = gtk_window_new ();
  GtkWidget *table = bl_call_tree_view_new (BL_CALL_TREE_FUNCTIONS);
  GtkColumnView *column_view = bl_call_tree_view_get_column_view (BL_CALL_TREE_VIEW (table));
  guint32 root, last = BL_NODE_NONE;
  GListModel *shown;

  root = bl_profile_add_thread (profile, bl_profile_intern (profile, "main"));
  for (guint i = 0; i < 1000; i++)
    {
      g_autofree char *name = g_strdup_printf ("function%04u", i);
      guint32 n = bl_profile_add_child (profile, root, bl_profile_intern (profile, name), 0, 0);

      bl_profile_add_value (profile, n, BL_METRIC_SAMPLES, 10000 - i);
      last = n;
    }
  bl_profile_finish (profile);

  gtk_window_set_child (GTK_WINDOW (window), table);
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 400);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (iterate_until ((gboolean (*) (gpointer)) gtk_widget_get_mapped, table));

  for (guint round = 0; round < 3; round++)
    {
      GObject *old = G_OBJECT (gtk_column_view_get_model (column_view));

      if (old != NULL)
        g_object_add_weak_pointer (old, (gpointer *) &old);
      /* the focus elsewhere: in the table, it takes every row at once */
      gtk_window_set_focus (GTK_WINDOW (window), NULL);
      bl_call_tree_view_set_profile (BL_CALL_TREE_VIEW (table), profile, round == 1 ? 0 : G_MAXUINT);
      g_assert_true (iterate_until (table_loaded, table));
      shown = G_LIST_MODEL (gtk_column_view_get_model (column_view));
      g_assert_cmpuint (g_list_model_get_n_items (shown), >=, 48);
      g_assert_cmpuint (g_list_model_get_n_items (shown), <=, 48 + 24);
      if (round == 0)
        {
          /* the rest comes with the frames */
          g_assert_true (iterate_until (list_has_1000, shown));
        }
      else if (round == 1)
        {
          /* the focus in the table (a click, Tab): End and Page Down go by
           * every row */
          gtk_widget_grab_focus (GTK_WIDGET (column_view));
          g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 1000);
        }
      else
        {
          /* the last row, selected at once (and kept selected from now on) */
          g_assert_true (bl_call_tree_view_select_node (BL_CALL_TREE_VIEW (table), last));
          g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 1000);
          g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (shown)), ==, 999);
        }
      /* the rows replaced are freed, after the frame that shows the new ones */
      g_assert_true (iterate_until (is_null, &old));
    }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The hot lines of a hidden Lines page are ranked when shown or asked for,
 * and are the lines bl_lines_rank() gives. */
static void
test_hidden_hot_lines (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autofree guint32 *ranked = NULL;
  GtkWidget *view = bl_hot_lines_view_new ();
  GListModel *model;
  guint n_ranked = 0;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  h.lines = TRUE;
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "busy");
  bl_bsprof_writer_string (w, 4, "idle");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 10, 3);
  bl_bsprof_writer_path (w, 2, 1, 3, 2, 40, 4);
  bl_bsprof_writer_cpu (w, 1, 2, 5, 50);
  bl_bsprof_writer_cpu (w, 1, 4, 90, 10);
  bl_bsprof_writer_cpu (w, 2, 1, 30, 70);
  bl_bsprof_writer_end (w, 1);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  profile = BL_PROFILE (bl_format_load_bytes (bytes, &error));
  g_assert_no_error (error);

  g_object_ref_sink (view);
  bl_hot_lines_view_set_profile (BL_HOT_LINES_VIEW (view), profile);
  bl_hot_lines_view_set_metric (BL_HOT_LINES_VIEW (view), BL_METRIC_CPU);
  bl_hot_lines_view_set_metric (BL_HOT_LINES_VIEW (view), BL_METRIC_WALL);

  ranked = bl_lines_rank (profile, BL_METRIC_WALL, 0, &n_ranked);
  g_assert_cmpuint (n_ranked, ==, 3);
  model = bl_hot_lines_view_get_model (BL_HOT_LINES_VIEW (view));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, n_ranked);
  for (guint i = 0; i < n_ranked; i++)
    {
      g_autoptr(BlLineItem) item = g_list_model_get_item (model, i);

      g_assert_cmpuint (bl_line_item_get_line_index (item), ==, ranked[i]);
    }

  g_object_unref (view);
}

/* The hot lines are not one object per line: a shown list makes the items
 * it binds, and the same position gives the same item */
static void
test_hot_lines_lazy (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autofree guint32 *ranked = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = bl_hot_lines_view_new ();
  GListModel *model;
  guint n_ranked = 0, made;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  h.lines = TRUE;
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "busy");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 10, 3);
  for (guint offset = 0; offset < 5000; offset++)
    bl_bsprof_writer_cpu (w, 1, offset, 1 + offset % 97, 1 + offset % 89);
  bl_bsprof_writer_end (w, 1);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  profile = BL_PROFILE (bl_format_load_bytes (bytes, &error));
  g_assert_no_error (error);

  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_set_default_size (GTK_WINDOW (window), 400, 400);
  bl_hot_lines_view_set_profile (BL_HOT_LINES_VIEW (view), profile);
  bl_hot_lines_view_set_metric (BL_HOT_LINES_VIEW (view), BL_METRIC_CPU);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (iterate_until ((gboolean (*) (gpointer)) gtk_widget_get_mapped, view));
  iterate_for (200);

  ranked = bl_lines_rank (profile, BL_METRIC_CPU, 0, &n_ranked);
  g_assert_cmpuint (n_ranked, >=, 4000);
  model = bl_hot_lines_view_get_model (BL_HOT_LINES_VIEW (view));
  g_assert_true (BL_IS_LINE_LIST (model));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, n_ranked);
  made = bl_line_list_get_n_made (BL_LINE_LIST (model));
  g_assert_cmpuint (made, >, 0);
  g_assert_cmpuint (made, <, n_ranked / 4);

  /* the last rows are the ranked ones too, made when asked for */
  for (guint i = n_ranked - 3; i < n_ranked; i++)
    {
      g_autoptr(BlLineItem) a = g_list_model_get_item (model, i);
      g_autoptr(BlLineItem) b = g_list_model_get_item (model, i);

      g_assert_true (a == b);
      g_assert_cmpuint (bl_line_item_get_line_index (a), ==, ranked[i]);
    }
  g_assert_cmpuint (bl_line_list_get_n_made (BL_LINE_LIST (model)), ==, made + 3);
  g_assert_null (g_list_model_get_item (model, n_ranked));

  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkWidget *
find_widget_of_type (GtkWidget *widget,
                     GType      type)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (c, type))
        return c;
      if ((found = find_widget_of_type (c, type)) != NULL)
        return found;
    }

  return NULL;
}

static gboolean
not_loading (gpointer data)
{
  return !bl_hot_lines_view_get_loading (data);
}

/* A shown view ranks its lines in a worker: a placeholder first, then
 * the rows; a metric change while it is shown does the same */
static gboolean
slice_is_whole (gpointer data)
{
  GtkSliceListModel *slice = data;

  return g_list_model_get_n_items (G_LIST_MODEL (slice)) ==
         g_list_model_get_n_items (gtk_slice_list_model_get_model (slice));
}

static void
test_hot_lines_spinner (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = bl_hot_lines_view_new ();
  GtkStack *stack;
  GListModel *model;
  GtkSliceListModel *slice;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  h.lines = TRUE;
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "busy");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 10, 3);
  for (guint offset = 0; offset < 2000; offset++)
    bl_bsprof_writer_cpu (w, 1, offset, 1 + offset % 97, 1 + offset % 89);
  bl_bsprof_writer_end (w, 1);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  profile = BL_PROFILE (bl_format_load_bytes (bytes, &error));
  g_assert_no_error (error);

  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_set_default_size (GTK_WINDOW (window), 400, 400);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (iterate_until ((gboolean (*) (gpointer)) gtk_widget_get_mapped, view));
  stack = GTK_STACK (find_widget_of_type (view, GTK_TYPE_STACK));
  g_assert_nonnull (stack);

  for (guint k = 0; k < 2; k++)
    {
      /* shown: the profile (then another metric) starts a ranking */
      if (k == 0)
        {
          bl_hot_lines_view_set_metric (BL_HOT_LINES_VIEW (view), BL_METRIC_CPU);
          bl_hot_lines_view_set_profile (BL_HOT_LINES_VIEW (view), profile);
        }
      else
        bl_hot_lines_view_set_metric (BL_HOT_LINES_VIEW (view), BL_METRIC_WALL);
      g_assert_true (bl_hot_lines_view_get_loading (BL_HOT_LINES_VIEW (view)));
      g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "loading");

      g_assert_true (iterate_until (not_loading, view));
      /* the view gets the rows a slice a frame: a table's worth first */
      slice = GTK_SLICE_LIST_MODEL (gtk_single_selection_get_model (
        GTK_SINGLE_SELECTION (gtk_column_view_get_model (
          GTK_COLUMN_VIEW (find_widget_of_type (view, GTK_TYPE_COLUMN_VIEW))))));
      model = gtk_slice_list_model_get_model (slice);
      g_assert_cmpuint (g_list_model_get_n_items (model), >=, 1900);
      g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (slice)), >=, 48);
      g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (slice)), <=, 48 + 24);
      g_assert_true (iterate_until (slice_is_whole, slice));
      iterate_for (50);
      g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "lines");
      g_assert_cmpuint (bl_line_list_get_n_made (BL_LINE_LIST (model)), >, 0);
    }

  /* asking for the rows while a ranking runs ranks them at once */
  bl_hot_lines_view_set_metric (BL_HOT_LINES_VIEW (view), BL_METRIC_CPU);
  g_assert_true (bl_hot_lines_view_get_loading (BL_HOT_LINES_VIEW (view)));
  model = bl_hot_lines_view_get_model (BL_HOT_LINES_VIEW (view));
  g_assert_false (bl_hot_lines_view_get_loading (BL_HOT_LINES_VIEW (view)));
  g_assert_cmpuint (g_list_model_get_n_items (model), >=, 1900);
  iterate_for (100);

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
has_css_class_below (GtkWidget  *widget,
                     const char *css_class)
{
  if (gtk_widget_has_css_class (widget, css_class))
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    if (has_css_class_below (c, css_class))
      return TRUE;

  return FALSE;
}

/* While the size of what is read is not known (before the reader says,
 * or a stream), the progress bar says so without pulsing: a pulse animates
 * every frame, and each frame of the window costs the reading worker CPU */
static void
test_progress_no_pulse (void)
{
  static const char *mime_dirs[] = { "/usr/local/share/mime", "/usr/share/mime", NULL };
  g_autofree char *dir = g_dir_make_tmp ("bl-window-progress-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "progress.bsprof", NULL);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *window = gtk_window_new ();
  BlProfilePage *page;
  GtkProgressBar *bar;

  g_content_type_set_mime_dirs (mime_dirs);
  g_assert_true (bl_stacks_save_bsprof (stacks, path, &error));
  g_assert_no_error (error);
  file = g_file_new_for_path (path);

  page = bl_profile_page_new (file);
  bl_profile_page_load (page);
  bar = GTK_PROGRESS_BAR (find_widget_of_type (GTK_WIDGET (page), GTK_TYPE_PROGRESS_BAR));
  g_assert_nonnull (bar);
  /* the first update comes before the worker knows the size */
  g_assert_cmpstr (gtk_progress_bar_get_text (bar), ==, "Reading…");
  g_assert_false (has_css_class_below (GTK_WIDGET (bar), "pulse"));

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (iterate_until (page_ready, page));
  g_assert_false (has_css_class_below (GTK_WIDGET (bar), "pulse"));

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

/* A metric switch sorts the table by the new metric's total (the columns
 * stay; only the sort changes) */
static void
test_metric_sorts (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *table = bl_call_tree_view_new (BL_CALL_TREE_FUNCTIONS);
  GtkColumnView *column_view = bl_call_tree_view_get_column_view (BL_CALL_TREE_VIEW (table));
  BlMetricId order[] = { BL_METRIC_WALL, BL_METRIC_CPU, BL_METRIC_WALL };
  guint n_columns;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  /* busy has the most CPU, idle the most wall-clock time */
  bl_bsprof_header_init (&h);
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "main");
  bl_bsprof_writer_string (w, 4, "busy");
  bl_bsprof_writer_string (w, 5, "idle");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 3);
  bl_bsprof_writer_path (w, 2, 1, 3, 2, 10, 4);
  bl_bsprof_writer_path (w, 3, 1, 4, 2, 20, 5);
  bl_bsprof_writer_cpu (w, 2, 0, 900, 1000);
  bl_bsprof_writer_cpu (w, 3, 0, 100, 5000);
  bl_bsprof_writer_end (w, 1);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  profile = BL_PROFILE (bl_format_load_bytes (bytes, &error));
  g_assert_no_error (error);

  gtk_window_set_child (GTK_WINDOW (window), table);
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 400);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (iterate_until ((gboolean (*) (gpointer)) gtk_widget_get_mapped, table));

  bl_call_tree_view_set_profile (BL_CALL_TREE_VIEW (table), profile, G_MAXUINT);
  bl_call_tree_view_set_metric (BL_CALL_TREE_VIEW (table), BL_METRIC_CPU);
  while (bl_call_tree_view_get_loading (BL_CALL_TREE_VIEW (table)))
    iterate_for (10);
  n_columns = g_list_model_get_n_items (gtk_column_view_get_columns (column_view));
  g_assert_cmpuint (n_columns, >, 4);

  for (guint k = 0; k < G_N_ELEMENTS (order); k++)
    {
      GListModel *model;
      g_autoptr(GObject) first = NULL;
      BlProfileNode *item;

      bl_call_tree_view_set_metric (BL_CALL_TREE_VIEW (table), order[k]);
      iterate_for (20);
      model = bl_call_tree_view_get_model (BL_CALL_TREE_VIEW (table));
      first = g_list_model_get_item (model, 0);
      item = BL_IS_PROFILE_NODE (first) ? BL_PROFILE_NODE (first)
           : gtk_tree_list_row_get_item (GTK_TREE_LIST_ROW (first));
      /* main, the root, carries every total: the heaviest row under it */
      if (g_strcmp0 (bl_profile_node_get_name (item), "main") == 0)
        {
          g_autoptr(GObject) second = g_list_model_get_item (model, 1);

          if (!BL_IS_PROFILE_NODE (first))
            g_object_unref (item);
          item = BL_IS_PROFILE_NODE (second) ? BL_PROFILE_NODE (second)
               : gtk_tree_list_row_get_item (GTK_TREE_LIST_ROW (second));
          g_assert_cmpstr (bl_profile_node_get_name (item),
                           ==, order[k] == BL_METRIC_CPU ? "busy" : "idle");
          if (!BL_IS_PROFILE_NODE (second))
            g_object_unref (item);
        }
      else
        {
          g_assert_cmpstr (bl_profile_node_get_name (item),
                           ==, order[k] == BL_METRIC_CPU ? "busy" : "idle");
          if (!BL_IS_PROFILE_NODE (first))
            g_object_unref (item);
        }
      /* the same columns */
      g_assert_cmpuint (g_list_model_get_n_items (gtk_column_view_get_columns (column_view)),
                        ==, n_columns);
    }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* pixels of the heat colour (light or dark palette) in the row @y */
static guint
count_heat_pixels (const guint8 *pixels,
                   int           width,
                   int           y)
{
  guint n = 0;

  for (int x = 0; x < width; x++)
    {
      const guint8 *p = pixels + ((gsize) y * width + x) * 4;
      guint8 r, g, b;

      /* GDK_MEMORY_DEFAULT: premultiplied B G R A on little-endian */
      b = p[0];
      g = p[1];
      r = p[2];
      if (r > 150 && g < 90 && b < 90)
        n++;
    }

  return n;
}

static guint8 *
render_pixels (GtkWidget *widget,
               int       *width,
               int       *height)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  guint8 *pixels;

  gtk_widget_queue_draw (widget);
  iterate_for (50);
  *width = gtk_widget_get_width (widget);
  *height = gtk_widget_get_height (widget);
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), *width, *height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)),
                                         node, &GRAPHENE_RECT_INIT (0, 0, *width, *height));
  pixels = g_malloc ((gsize) *width * *height * 4);
  gdk_texture_download (texture, pixels, (gsize) *width * 4);

  return pixels;
}

/* One widget draws a value, its heat bar and its share: the bar's length
 * is the share of its 40 pixels, no share means no bar and no room for it */
static void
test_value_cell (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *cell = bl_value_cell_new ();
  static const double shares[] = { 0.5, 1.0, 0.0, 0.25 };
  int with_bar, without_bar, min;

  gtk_widget_set_halign (cell, GTK_ALIGN_START);
  gtk_widget_set_valign (cell, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (box), cell);
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 400, 100);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (iterate_until ((gboolean (*) (gpointer)) gtk_widget_get_mapped, cell));

  for (guint k = 0; k < G_N_ELEMENTS (shares); k++)
    {
      g_autofree char *pct = g_strdup_printf ("%.1f%%", 100 * shares[k]);
      g_autofree guint8 *pixels = NULL;
      int w, h;
      guint red;

      bl_value_cell_set (BL_VALUE_CELL (cell), "1.50 s", pct, shares[k]);
      iterate_for (50);
      g_assert_cmpstr (bl_value_cell_get_value (BL_VALUE_CELL (cell)), ==, "1.50 s");
      g_assert_cmpstr (bl_value_cell_get_percent (BL_VALUE_CELL (cell)), ==, pct);
      g_assert_cmpfloat_with_epsilon (bl_value_cell_get_share (BL_VALUE_CELL (cell)), shares[k],
                                      1e-9);
      pixels = render_pixels (cell, &w, &h);
      g_assert_cmpint (h, >=, 6);
      red = count_heat_pixels (pixels, w, h / 2);
      g_assert_cmpint ((int) red, >=, (int) (shares[k] * BL_VALUE_CELL_BAR_WIDTH) - 1);
      g_assert_cmpint ((int) red, <=, (int) (shares[k] * BL_VALUE_CELL_BAR_WIDTH) + 1);
    }

  gtk_widget_measure (cell, GTK_ORIENTATION_HORIZONTAL, -1, &min, &with_bar, NULL, NULL);
  g_assert_cmpint (min, ==, with_bar);
  bl_value_cell_set (BL_VALUE_CELL (cell), "1.50 s", "25.0%", -1);
  iterate_for (50);
  gtk_widget_measure (cell, GTK_ORIENTATION_HORIZONTAL, -1, &min, &without_bar, NULL, NULL);
  g_assert_cmpint (with_bar - without_bar, ==,
                   BL_VALUE_CELL_BAR_WIDTH + BL_VALUE_CELL_SPACING);
  {
    g_autofree guint8 *pixels = NULL;
    int w, h;

    pixels = render_pixels (cell, &w, &h);
    g_assert_cmpuint (count_heat_pixels (pixels, w, h / 2), ==, 0);
  }
  /* a longer value is wider by what it adds, the share's room stays */
  bl_value_cell_set (BL_VALUE_CELL (cell), "1,234,567.50 s", "25.0%", -1);
  iterate_for (50);
  gtk_widget_measure (cell, GTK_ORIENTATION_HORIZONTAL, -1, &min, &with_bar, NULL, NULL);
  g_assert_cmpint (with_bar, >, without_bar);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
collect_value_cells (GtkWidget *widget,
                     GPtrArray *out)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      if (BL_IS_VALUE_CELL (c))
        g_ptr_array_add (out, c);
      collect_value_cells (c, out);
    }
}

static void
collect_inscriptions (GtkWidget *widget,
                      GPtrArray *out)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      if (GTK_IS_INSCRIPTION (c))
        g_ptr_array_add (out, c);
      collect_inscriptions (c, out);
    }
}

/* The table's value columns are drawn by value cells that show each row's
 * value and its share of the whole */
static void
test_table_value_cells (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(GPtrArray) cells = g_ptr_array_new ();
  GtkWidget *window = gtk_window_new ();
  GtkWidget *table = bl_call_tree_view_new (BL_CALL_TREE_FUNCTIONS);
  g_autofree char *busy = NULL;
  gboolean seen_busy = FALSE, seen_idle = FALSE;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "main");
  bl_bsprof_writer_string (w, 4, "busy");
  bl_bsprof_writer_string (w, 5, "idle");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 3);
  bl_bsprof_writer_path (w, 2, 1, 3, 2, 10, 4);
  bl_bsprof_writer_path (w, 3, 1, 4, 2, 20, 5);
  bl_bsprof_writer_cpu (w, 2, 0, 900, 1000);
  bl_bsprof_writer_cpu (w, 3, 0, 100, 5000);
  bl_bsprof_writer_end (w, 1);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  profile = BL_PROFILE (bl_format_load_bytes (bytes, &error));
  g_assert_no_error (error);

  gtk_window_set_child (GTK_WINDOW (window), table);
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 400);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (iterate_until ((gboolean (*) (gpointer)) gtk_widget_get_mapped, table));

  bl_call_tree_view_set_profile (BL_CALL_TREE_VIEW (table), profile, G_MAXUINT);
  bl_call_tree_view_set_metric (BL_CALL_TREE_VIEW (table), BL_METRIC_CPU);
  while (bl_call_tree_view_get_loading (BL_CALL_TREE_VIEW (table)))
    iterate_for (10);
  iterate_for (100);

  busy = bl_profile_format_value (profile, BL_METRIC_CPU, 900);
  collect_value_cells (table, cells);
  g_assert_cmpuint (cells->len, >, 0);
  for (guint i = 0; i < cells->len; i++)
    {
      BlValueCell *cell = g_ptr_array_index (cells, i);

      if (!gtk_widget_get_mapped (GTK_WIDGET (cell)))
        continue;
      if (g_strcmp0 (bl_value_cell_get_percent (cell), "90.0%") == 0)
        {
          /* busy's CPU, 900 of 1000 */
          g_assert_cmpstr (bl_value_cell_get_value (cell), ==, busy);
          g_assert_cmpfloat_with_epsilon (bl_value_cell_get_share (cell), 0.9, 1e-9);
          seen_busy = TRUE;
        }
      else if (g_strcmp0 (bl_value_cell_get_percent (cell), "10.0%") == 0)
        seen_idle = TRUE;
    }
  g_assert_true (seen_busy);
  g_assert_true (seen_idle);

  /* the name cell: the function, then its file dimmed */
  {
    g_autoptr(GPtrArray) names = g_ptr_array_new ();
    gboolean seen = FALSE;

    collect_inscriptions (table, names);
    for (guint i = 0; i < names->len; i++)
      {
        GtkInscription *name = g_ptr_array_index (names, i);
        PangoAttrList *attrs;
        g_autoptr(GSList) list = NULL;
        PangoAttribute *dim;

        if (g_strcmp0 (gtk_inscription_get_text (name), "busy  main.brs") != 0)
          continue;
        attrs = gtk_inscription_get_attributes (name);
        g_assert_nonnull (attrs);
        list = pango_attr_list_get_attributes (attrs);
        g_assert_cmpuint (g_slist_length (list), ==, 1);
        dim = list->data;
        g_assert_cmpint (dim->klass->type, ==, PANGO_ATTR_FOREGROUND_ALPHA);
        g_assert_cmpuint (dim->start_index, ==, strlen ("busy  "));
        g_assert_cmpuint (((PangoAttrInt *) dim)->value, <, 65535 * 6 / 10);
        g_slist_free_full (g_steal_pointer (&list), (GDestroyNotify) pango_attribute_destroy);
        seen = TRUE;
      }
    g_assert_true (seen);
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  if (!gtk_init_check ())
    g_error ("No display: widget tests need one (run them under xvfb-run)");
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  g_test_add_func ("/widgets/window/lazy-children", test_lazy_children);
  g_test_add_func ("/widgets/window/metric-sorts", test_metric_sorts);
  g_test_add_func ("/widgets/window/hidden-table", test_hidden_table);
  g_test_add_func ("/widgets/window/table-rows-in-slices", test_table_rows_in_slices);
  g_test_add_func ("/widgets/window/hidden-hot-lines", test_hidden_hot_lines);
  g_test_add_func ("/widgets/window/hot-lines-lazy", test_hot_lines_lazy);
  g_test_add_func ("/widgets/window/hot-lines-spinner", test_hot_lines_spinner);
  g_test_add_func ("/widgets/window/progress-no-pulse", test_progress_no_pulse);
  g_test_add_func ("/widgets/window/close-frees", test_close_frees);
  g_test_add_func ("/widgets/window/value-cell", test_value_cell);
  g_test_add_func ("/widgets/window/table-value-cells", test_table_value_cells);

  return g_test_run ();
}
