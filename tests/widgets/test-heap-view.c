/* test-heap-view.c — the Heap page under Xvfb: types sorted and filtered,
 * retained figures, the retainer path of a selected object, leak cycles
 * selecting their example, snapshots compared, the size at 800×600, and
 * the window opening a heaps-only trace on the Heap page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "bl-heap-columns.h"
#include "bl-heap-compare-view.h"
#include "bl-heap-view.h"
#include "bl-model.h"
#include "bl-compare-page.h"
#include "bl-perfetto-writer.h"
#include "bl-window-compare.h"
#include "bl-window.h"
#include "widget-test-util.h"

static char *tmpdir;

enum { DOMAIN, LIVE, S1, S2, N0, N1, G, N_OBJECTS };

/* A Roku-shaped heap: the domain (the root) holds a live associative
 * array with two strings, and by "$unreachable" two leaked Nodes that
 * reference each other and a leaked Node holding itself by $m.global.
 * @extra more Str objects (new ids) make a later snapshot. */
static BlHeap *
make_heap (guint extra)
{
  BlHeap *heap = bl_heap_new ();
  guint32 domain_t = bl_heap_add_type (heap, "Domain");
  guint32 aa = bl_heap_add_type (heap, "roAssociativeArray");
  guint32 node = bl_heap_add_type (heap, "Node");
  guint32 str = bl_heap_add_type (heap, "Str");
  guint32 un = bl_heap_intern_field (heap, "$unreachable");
  guint32 child = bl_heap_intern_field (heap, "child");
  guint32 name = bl_heap_intern_field (heap, "name");
  guint32 title = bl_heap_intern_field (heap, "title");
  guint32 next = bl_heap_intern_field (heap, "next");
  guint32 prev = bl_heap_intern_field (heap, "prev");
  guint32 global = bl_heap_intern_field (heap, "$m.global");
  guint32 o[N_OBJECTS];

  o[DOMAIN] = bl_heap_add_object (heap, domain_t, 100);
  o[LIVE] = bl_heap_add_object (heap, aa, 40);
  o[S1] = bl_heap_add_object (heap, str, 30);
  o[S2] = bl_heap_add_object (heap, str, 5);
  o[N0] = bl_heap_add_object (heap, node, 10);
  o[N1] = bl_heap_add_object (heap, node, 10);
  o[G] = bl_heap_add_object (heap, node, 7);
  for (guint i = 0; i < N_OBJECTS; i++)
    bl_heap_set_object_id (heap, o[i], 0x1000 + i);
  for (guint i = 0; i < extra; i++)
    {
      guint32 s = bl_heap_add_object (heap, str, 50);

      bl_heap_set_object_id (heap, s, 0x2000 + i);
      bl_heap_add_reference (heap, o[LIVE], name, s);
    }
  bl_heap_add_root (heap, o[DOMAIN]);
  bl_heap_add_reference (heap, o[DOMAIN], child, o[LIVE]);
  bl_heap_add_reference (heap, o[LIVE], name, o[S1]);
  bl_heap_add_reference (heap, o[LIVE], title, o[S2]);
  bl_heap_add_reference (heap, o[DOMAIN], un, o[N0]);
  bl_heap_add_reference (heap, o[N0], next, o[N1]);
  bl_heap_add_reference (heap, o[N1], prev, o[N0]);
  bl_heap_add_reference (heap, o[DOMAIN], un, o[G]);
  bl_heap_add_reference (heap, o[G], global, o[G]);
  bl_heap_finish (heap);

  return heap;
}

static BlProfile *
make_profile (guint n_heaps)
{
  BlProfile *profile = bl_profile_new ("test");

  for (guint i = 0; i < n_heaps; i++)
    bl_profile_add_heap (profile, make_heap (i * 2), NULL);
  bl_profile_finish (profile);

  return profile;
}

/* turns of the main loop, a millisecond each, that a wait may take */
#define WAIT_TURNS 5000

static void
settle (void)
{
  for (guint i = 0; i < 50; i++)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (2000);
    }
}

static gboolean
view_ready (gpointer data)
{
  return bl_heap_view_is_ready (data);
}

static gboolean
compare_ready (gpointer data)
{
  return bl_heap_compare_view_is_ready (data);
}

static BlHeapView *
present_view (BlProfile *profile,
              int        width,
              int        height)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = bl_heap_view_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  bl_heap_view_set_profile (BL_HEAP_VIEW (view), profile);
  g_assert_true (test_iterate_until (view_ready, view, WAIT_TURNS));
  settle ();

  return BL_HEAP_VIEW (view);
}

static BlHeapItem *
item_at (GListModel *model,
         guint       i)
{
  g_autoptr(GObject) object = g_list_model_get_item (model, i);

  if (GTK_IS_TREE_LIST_ROW (object))
    return gtk_tree_list_row_get_item (GTK_TREE_LIST_ROW (object));

  return BL_HEAP_ITEM (g_steal_pointer (&object));
}

static char *
cell (GListModel   *model,
      guint         i,
      BlHeapColumn  column)
{
  g_autoptr(BlHeapItem) item = item_at (model, i);

  return bl_heap_column_dup_text (column, item);
}

/* the texts of the labels drawn under @widget, in widget order */
static void
collect_labels (GtkWidget *widget,
                GString   *out)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_LABEL (widget))
    g_string_append_printf (out, "%s|", gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_labels (child, out);
}

static char *
labels_shown (BlHeapView *view)
{
  GString *out = g_string_new ("|");

  collect_labels (GTK_WIDGET (view), out);

  return g_string_free (out, FALSE);
}

static guint
count_nodes (GskRenderNode *node,
             GskRenderNodeType type)
{
  guint n = gsk_render_node_get_node_type (node) == type;

  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        n += count_nodes (gsk_container_node_get_child (node, i), type);
      break;
    case GSK_TRANSFORM_NODE:
      n += count_nodes (gsk_transform_node_get_child (node), type);
      break;
    case GSK_CLIP_NODE:
      n += count_nodes (gsk_clip_node_get_child (node), type);
      break;
    case GSK_ROUNDED_CLIP_NODE:
      n += count_nodes (gsk_rounded_clip_node_get_child (node), type);
      break;
    case GSK_OPACITY_NODE:
      n += count_nodes (gsk_opacity_node_get_child (node), type);
      break;
    case GSK_COLOR_MATRIX_NODE:
      n += count_nodes (gsk_color_matrix_node_get_child (node), type);
      break;
    default:
      break;
    }

  return n;
}

static void
test_types (void)
{
  g_autoptr(BlProfile) profile = make_profile (1);
  BlHeapView *view = present_view (profile, 1200, 800);
  GListModel *types = bl_heap_view_get_types_model (view);
  g_autofree char *shown = NULL;
  g_autofree char *retained = NULL;
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  const char *order[] = { "Domain", "roAssociativeArray", "Str", "Node" };
  const guint64 retained_bytes[] = { 202, 75, 35, 27 };

  g_assert_cmpstr (bl_heap_view_get_page (view), ==, "types");

  /* largest retained first: Node's two leaked roots retain 20 and 7 */
  g_assert_cmpuint (g_list_model_get_n_items (types), ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *name = cell (types, i, BL_HEAP_COLUMN_NAME);
      g_autofree char *text = cell (types, i, BL_HEAP_COLUMN_RETAINED);
      g_autofree char *expected = bl_format_bytes (retained_bytes[i]);

      g_assert_cmpstr (name, ==, order[i]);
      g_assert_cmpstr (text, ==, expected);
    }
  {
    g_autofree char *count = cell (types, 3, BL_HEAP_COLUMN_COUNT);
    g_autofree char *self = cell (types, 3, BL_HEAP_COLUMN_SELF);
    g_autofree char *expected = bl_format_bytes (27);

    g_assert_cmpstr (count, ==, "3");
    g_assert_cmpstr (self, ==, expected);
  }

  /* and so they are drawn: the rows' labels in that order */
  shown = labels_shown (view);
  retained = g_strdup_printf ("|%s|", bl_format_bytes (202));
  g_assert_nonnull (strstr (shown, "|Domain|"));
  g_assert_true (strstr (shown, "|Domain|") < strstr (shown, "|roAssociativeArray|"));
  g_assert_true (strstr (shown, "|roAssociativeArray|") < strstr (shown, "|Str|"));
  g_assert_true (strstr (shown, "|Str|") < strstr (shown, "|Node|"));
  g_assert_nonnull (strstr (shown, retained));
  g_assert_nonnull (strstr (shown, bl_heap_view_get_summary (view)));

  paintable = gtk_widget_paintable_new (GTK_WIDGET (view));
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, 1200, 800);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);
  /* at least the four rows' names and three figures each */
  g_assert_cmpuint (count_nodes (node, GSK_TEXT_NODE), >=, 16);

  /* the summary: objects, bytes, leaked objects and bytes */
  {
    g_autofree char *bytes = bl_format_bytes (202);
    g_autofree char *leaked = bl_format_bytes (27);
    g_autofree char *expected = g_strdup_printf ("7 objects, %s · 3 leaked objects, %s",
                                                 bytes, leaked);

    g_assert_cmpstr (bl_heap_view_get_summary (view), ==, expected);
  }

  /* filtered by name, case-insensitively */
  bl_heap_view_set_type_filter (view, "STR");
  g_assert_cmpuint (g_list_model_get_n_items (types), ==, 1);
  {
    g_autofree char *name = cell (types, 0, BL_HEAP_COLUMN_NAME);

    g_assert_cmpstr (name, ==, "Str");
  }
  bl_heap_view_set_type_filter (view, "");
  g_assert_cmpuint (g_list_model_get_n_items (types), ==, 4);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
}

/* the first column view on screen */
static GtkColumnView *
find_column_view (GtkWidget *widget)
{
  if (!gtk_widget_get_mapped (widget))
    return NULL;
  if (GTK_IS_COLUMN_VIEW (widget))
    return GTK_COLUMN_VIEW (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkColumnView *found = find_column_view (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* a click on a column header sorts by it */
static void
test_types_sorted (void)
{
  g_autoptr(BlProfile) profile = make_profile (1);
  BlHeapView *view = present_view (profile, 1200, 800);
  GListModel *types = bl_heap_view_get_types_model (view);
  GtkColumnView *column_view = NULL;
  g_autoptr(GListModel) columns = NULL;

  column_view = find_column_view (GTK_WIDGET (view));
  g_assert_nonnull (column_view);
  columns = g_object_ref (gtk_column_view_get_columns (column_view));

  {
    g_autoptr(GtkColumnViewColumn) count = g_list_model_get_item (columns, 1);
    g_autoptr(GtkColumnViewColumn) name = g_list_model_get_item (columns, 0);
    g_autofree char *first = NULL;
    g_autofree char *last = NULL;

    g_assert_cmpstr (gtk_column_view_column_get_title (count), ==, "Count");
    gtk_column_view_sort_by_column (column_view, count, GTK_SORT_DESCENDING);
    first = cell (types, 0, BL_HEAP_COLUMN_NAME);
    g_assert_cmpstr (first, ==, "Node");

    gtk_column_view_sort_by_column (column_view, name, GTK_SORT_ASCENDING);
    g_clear_pointer (&first, g_free);
    first = cell (types, 0, BL_HEAP_COLUMN_NAME);
    last = cell (types, 3, BL_HEAP_COLUMN_NAME);
    g_assert_cmpstr (first, ==, "Domain");
    g_assert_cmpstr (last, ==, "Str");
  }

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
}

/* selecting a leaked Node opens its dominators and gives the exact path */
static void
test_retainer_path (void)
{
  g_autoptr(BlProfile) profile = make_profile (1);
  BlHeapView *view = present_view (profile, 1200, 800);
  GListModel *path = bl_heap_view_get_path_model (view);
  GListModel *tree = bl_heap_view_get_tree_model (view);
  g_autofree char *shown = NULL;
  const char *objects[] = { "Domain", "Node (leaked)", "Node (leaked)" };
  const char *fields[] = { "(root: Domain)", ".$unreachable", ".next" };
  const char *ids[] = { "4096", "4100", "4101" };

  /* the top level is the root; nothing is open yet */
  g_assert_cmpuint (g_list_model_get_n_items (tree), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (path), ==, 0);

  bl_heap_view_set_page (view, "dominators");
  bl_heap_view_select_object (view, N1);
  settle ();
  g_assert_cmpuint (bl_heap_view_get_selected_object (view), ==, N1);

  g_assert_cmpuint (g_list_model_get_n_items (path), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *object = cell (path, i, BL_HEAP_COLUMN_NAME);
      g_autofree char *field = cell (path, i, BL_HEAP_COLUMN_FIELD);
      g_autofree char *id = cell (path, i, BL_HEAP_COLUMN_ID);

      g_assert_cmpstr (object, ==, objects[i]);
      g_assert_cmpstr (field, ==, fields[i]);
      g_assert_cmpstr (id, ==, ids[i]);
    }

  /* the tree opened Domain and N0: Domain, its three children (the
   * array, N0, the global Node), N0's one */
  g_assert_cmpuint (g_list_model_get_n_items (tree), ==, 5);
  {
    guint found = G_MAXUINT;

    for (guint i = 0; i < g_list_model_get_n_items (tree); i++)
      {
        g_autoptr(BlHeapItem) item = item_at (tree, i);

        if (bl_heap_item_get_id (item) == N1)
          found = i;
      }
    g_assert_cmpuint (found, !=, G_MAXUINT);
  }

  /* the path is drawn under the tree */
  shown = labels_shown (view);
  g_assert_nonnull (strstr (shown, "|.$unreachable|"));
  g_assert_nonnull (strstr (shown, "|.next|"));
  g_assert_nonnull (strstr (shown, "Retainers of Node #4101"));

  /* a click on a row of the tree selects its object */
  {
    GtkColumnView *tree_view = find_column_view (GTK_WIDGET (view));
    GtkSelectionModel *selection = gtk_column_view_get_model (tree_view);

    g_assert_true (G_LIST_MODEL (selection) != NULL);
    gtk_selection_model_select_item (selection, 0, TRUE);
    settle ();
    g_assert_cmpuint (bl_heap_view_get_selected_object (view), ==, DOMAIN);
    g_assert_cmpuint (g_list_model_get_n_items (path), ==, 1);
    g_clear_pointer (&shown, g_free);
    shown = labels_shown (view);
    g_assert_nonnull (strstr (shown, "Retainers of Domain #4096"));
  }

  /* no object: the hint again */
  bl_heap_view_select_object (view, BL_HEAP_NONE);
  g_assert_cmpuint (g_list_model_get_n_items (path), ==, 0);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
}

static void
test_cycles (void)
{
  g_autoptr(BlProfile) profile = make_profile (1);
  BlHeapView *view = present_view (profile, 1200, 800);
  GListModel *cycles = bl_heap_view_get_cycles_model (view);
  BlHeap *heap = bl_profile_get_heap (profile, 0);
  guint pair = G_MAXUINT;
  g_autofree char *shown = NULL;

  bl_heap_view_set_page (view, "cycles");
  settle ();
  g_assert_cmpuint (g_list_model_get_n_items (cycles), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *pattern = cell (cycles, i, BL_HEAP_COLUMN_NAME);
      g_autofree char *count = cell (cycles, i, BL_HEAP_COLUMN_COUNT);

      g_assert_cmpstr (count, ==, "1");
      if (g_str_equal (pattern, "Node.next → Node.prev → Node"))
        pair = i;
      else
        g_assert_cmpstr (pattern, ==, "Node.$m.global → Node");
    }
  g_assert_cmpuint (pair, !=, G_MAXUINT);
  shown = labels_shown (view);
  g_assert_nonnull (strstr (shown, "|Node.next → Node.prev → Node|"));
  /* every cycle is listed: nothing says some were left out */
  g_assert_null (strstr (shown, "left out"));

  /* activating its row (Enter, a double click) selects its example in
   * the dominator tree */
  {
    GtkColumnView *cycles_view = find_column_view (GTK_WIDGET (view));

    g_assert_true (gtk_column_view_get_model (cycles_view) != NULL);
    g_assert_true (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (cycles_view)))
                   == 2);
    g_signal_emit_by_name (cycles_view, "activate", pair);
  }
  settle ();
  {
    guint n_cycles;
    const BlHeapCycle *all = bl_heap_get_cycles (heap, &n_cycles);
    guint32 example = BL_HEAP_NONE;

    for (guint i = 0; i < n_cycles; i++)
      if (!all[i].through_global)
        example = all[i].example;
    g_assert_true (example == N0 || example == N1);
    g_assert_cmpuint (bl_heap_view_get_selected_object (view), ==, example);
  }
  g_assert_cmpstr (bl_heap_view_get_page (view), ==, "dominators");
  g_assert_cmpuint (g_list_model_get_n_items (bl_heap_view_get_path_model (view)), >=, 2);

  /* Hide $m.global */
  bl_heap_view_set_hide_global (view, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (cycles), ==, 1);
  {
    g_autofree char *pattern = cell (cycles, 0, BL_HEAP_COLUMN_NAME);

    g_assert_cmpstr (pattern, ==, "Node.next → Node.prev → Node");
  }
  bl_heap_view_set_hide_global (view, FALSE);
  g_assert_cmpuint (g_list_model_get_n_items (cycles), ==, 2);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
}

/* two snapshots of one file: "Compare with…" */
static void
test_compare_snapshots (void)
{
  g_autoptr(BlProfile) profile = make_profile (2);
  BlHeapView *view = present_view (profile, 1200, 800);
  BlHeapCompareView *compare = BL_HEAP_COMPARE_VIEW (bl_heap_view_get_compare_view (view));
  GListModel *types, *fresh;
  g_autofree char *shown = NULL;

  bl_heap_view_set_compare_with (view, 1);
  g_assert_true (test_iterate_until (compare_ready, compare, WAIT_TURNS));
  settle ();
  g_assert_cmpstr (bl_heap_compare_view_get_title (compare), ==, "Snapshot 1 → Snapshot 2");

  /* Str grew by two objects of 50 bytes: first */
  types = bl_heap_compare_view_get_types_model (compare);
  g_assert_cmpuint (g_list_model_get_n_items (types), ==, 4);
  {
    g_autofree char *name = cell (types, 0, BL_HEAP_COLUMN_NAME);
    g_autofree char *count_a = cell (types, 0, BL_HEAP_COLUMN_COUNT_A);
    g_autofree char *count_b = cell (types, 0, BL_HEAP_COLUMN_COUNT_B);
    g_autofree char *delta = cell (types, 0, BL_HEAP_COLUMN_COUNT_DELTA);
    g_autofree char *bytes_delta = cell (types, 0, BL_HEAP_COLUMN_BYTES_DELTA);
    g_autofree char *hundred = bl_format_bytes (100);
    g_autofree char *expected = g_strdup_printf ("+%s", hundred);

    g_assert_cmpstr (name, ==, "Str");
    g_assert_cmpstr (count_a, ==, "2");
    g_assert_cmpstr (count_b, ==, "4");
    g_assert_cmpstr (delta, ==, "+2");
    g_assert_cmpstr (bytes_delta, ==, expected);
  }

  /* the new objects: one group, Str, with the two new ids */
  fresh = bl_heap_compare_view_get_new_model (compare);
  g_assert_cmpuint (g_list_model_get_n_items (fresh), ==, 1);
  {
    g_autoptr(GtkTreeListRow) row = g_list_model_get_item (fresh, 0);
    g_autofree char *name = cell (fresh, 0, BL_HEAP_COLUMN_NAME);
    g_autofree char *count = cell (fresh, 0, BL_HEAP_COLUMN_COUNT);
    g_autofree char *id = NULL;

    g_assert_cmpstr (name, ==, "Str");
    g_assert_cmpstr (count, ==, "2");
    gtk_tree_list_row_set_expanded (row, TRUE);
    g_assert_cmpuint (g_list_model_get_n_items (fresh), ==, 3);
    id = cell (fresh, 1, BL_HEAP_COLUMN_ID);
    g_assert_cmpstr (id, ==, "8192");
  }

  shown = labels_shown (view);
  g_assert_nonnull (strstr (shown, "|Snapshot 1 → Snapshot 2|"));
  g_assert_nonnull (strstr (shown, "|+2|"));

  /* back to the snapshot */
  bl_heap_view_set_compare_with (view, G_MAXUINT);
  settle ();
  g_clear_pointer (&shown, g_free);
  shown = labels_shown (view);
  g_assert_null (strstr (shown, "|Snapshot 1 → Snapshot 2|"));

  /* the second snapshot has two more Str objects */
  bl_heap_view_set_snapshot (view, 1);
  g_assert_true (test_iterate_until (view_ready, view, WAIT_TURNS));
  {
    g_autofree char *bytes = bl_format_bytes (302);
    g_autofree char *leaked = bl_format_bytes (27);
    g_autofree char *expected = g_strdup_printf ("9 objects, %s · 3 leaked objects, %s",
                                                 bytes, leaked);

    g_assert_cmpstr (bl_heap_view_get_summary (view), ==, expected);
  }

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
}

/* a retainer path of 300,000 steps: its rows are made only when shown */
static void
test_long_path (void)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("test");
  BlHeap *heap = bl_heap_new ();
  guint32 t = bl_heap_add_type (heap, "Link");
  guint32 f = bl_heap_intern_field (heap, "next");
  const guint32 n = 300000;
  BlHeapView *view;
  GListModel *path;
  g_autofree char *shown = NULL;
  g_autofree char *last_id = NULL;
  gint64 start;

  for (guint32 i = 0; i < n; i++)
    bl_heap_add_object (heap, t, 1);
  for (guint32 i = 0; i + 1 < n; i++)
    bl_heap_add_reference (heap, i, f, i + 1);
  bl_heap_add_root (heap, 0);
  bl_heap_finish (heap);
  bl_profile_add_heap (profile, heap, "chain");
  bl_profile_finish (profile);

  view = present_view (profile, 1200, 800);
  start = g_get_monotonic_time ();
  bl_heap_view_select_object (view, n - 1);
  settle ();
  g_test_message ("selected the end of the chain in %.0f ms",
                  (g_get_monotonic_time () - start) / 1000.0);

  path = bl_heap_view_get_path_model (view);
  g_assert_cmpuint (g_list_model_get_n_items (path), ==, n);
  last_id = cell (path, n - 1, BL_HEAP_COLUMN_ID);
  g_assert_cmpstr (last_id, ==, "299999");
  shown = labels_shown (view);
  g_assert_nonnull (strstr (shown, "|(root: Link)|"));
  g_assert_nonnull (strstr (shown, "Retainers of Link #299999"));
  /* one snapshot: no snapshot or comparison choice */
  g_assert_null (strstr (shown, "No Comparison"));

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
}

/* a leaked chain whose nodes all point back at its first: the cycles'
 * steps add up past the model's bound, and the list says how many it
 * left out */
static void
test_cycles_skipped (void)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("test");
  BlHeap *heap = bl_heap_new ();
  guint32 t = bl_heap_add_type (heap, "Node");
  guint32 un = bl_heap_intern_field (heap, "$unreachable");
  guint32 next = bl_heap_intern_field (heap, "next");
  guint32 first = bl_heap_intern_field (heap, "first");
  const guint32 n = 2000;
  BlHeapView *view;
  g_autofree char *shown = NULL;
  g_autofree char *expected = NULL;

  for (guint32 i = 0; i < n; i++)
    bl_heap_add_object (heap, t, 1);
  bl_heap_add_reference (heap, 0, un, 1);
  for (guint32 i = 1; i < n; i++)
    {
      if (i + 1 < n)
        bl_heap_add_reference (heap, i, next, i + 1);
      bl_heap_add_reference (heap, i, first, 1);
    }
  bl_heap_add_root (heap, 0);
  bl_heap_finish (heap);
  g_assert_cmpuint (bl_heap_get_n_cycles_skipped (heap), >, 1);
  bl_profile_add_heap (profile, heap, NULL);
  bl_profile_finish (profile);

  view = present_view (profile, 1200, 800);
  bl_heap_view_set_page (view, "cycles");
  settle ();
  g_assert_cmpuint (g_list_model_get_n_items (bl_heap_view_get_cycles_model (view)), >, 0);
  shown = labels_shown (view);
  expected = g_strdup_printf ("|%" G_GUINT64_FORMAT " more cycles left out: all cycles together "
                              "have too many steps to list.|",
                              bl_heap_get_n_cycles_skipped (heap));
  g_assert_nonnull (strstr (shown, expected));

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
}

/* a level of 10,005 objects: the 10,000 largest, then one row for the rest */
static void
test_long_level (void)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("test");
  BlHeap *heap = bl_heap_new ();
  guint32 t = bl_heap_add_type (heap, "Leaf");
  const guint32 n = 10005;
  BlHeapView *view;
  GListModel *tree;
  g_autofree char *first = NULL;
  g_autofree char *more = NULL;
  g_autofree char *smallest = NULL;

  for (guint32 i = 0; i < n; i++)
    bl_heap_add_root (heap, bl_heap_add_object (heap, t, 1 + i));
  bl_heap_finish (heap);
  bl_profile_add_heap (profile, heap, NULL);
  bl_profile_finish (profile);

  view = present_view (profile, 1200, 800);
  tree = bl_heap_view_get_tree_model (view);
  g_assert_cmpuint (g_list_model_get_n_items (tree), ==, 10001);
  first = cell (tree, 0, BL_HEAP_COLUMN_ID);
  g_assert_cmpstr (first, ==, "10004");
  more = cell (tree, 10000, BL_HEAP_COLUMN_NAME);
  g_assert_cmpstr (more, ==, "… 5 smaller objects");

  /* one of those: its path shows, the tree selects nothing */
  bl_heap_view_select_object (view, 2);
  g_assert_cmpuint (bl_heap_view_get_selected_object (view), ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (bl_heap_view_get_path_model (view)), ==, 1);
  smallest = cell (bl_heap_view_get_path_model (view), 0, BL_HEAP_COLUMN_ID);
  g_assert_cmpstr (smallest, ==, "2");
  {
    g_autofree char *field = cell (bl_heap_view_get_path_model (view), 0, BL_HEAP_COLUMN_FIELD);

    g_assert_cmpstr (field, ==, "(root: Leaf)");
  }

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
}

static void
test_fits_800x600 (void)
{
  g_autoptr(BlProfile) profile = make_profile (2);
  BlHeapView *view = present_view (profile, 800, 600);
  int min_width, min_height;

  gtk_widget_measure (GTK_WIDGET (view), GTK_ORIENTATION_HORIZONTAL, -1,
                      &min_width, NULL, NULL, NULL);
  gtk_widget_measure (GTK_WIDGET (view), GTK_ORIENTATION_VERTICAL, 800,
                      &min_height, NULL, NULL, NULL);
  g_assert_cmpint (min_width, <=, 800);
  g_assert_cmpint (min_height, <=, 600 - 100);   /* room for the header and tabs */
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (view)), <=, 800);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (view)), <=, 600);

  bl_heap_view_set_page (view, "cycles");
  settle ();
  gtk_widget_measure (GTK_WIDGET (view), GTK_ORIENTATION_HORIZONTAL, -1,
                      &min_width, NULL, NULL, NULL);
  g_assert_cmpint (min_width, <=, 800);

  bl_heap_view_set_compare_with (view, 1);
  g_assert_true (test_iterate_until (compare_ready, bl_heap_view_get_compare_view (view),
                                     WAIT_TURNS));
  settle ();
  gtk_widget_measure (GTK_WIDGET (view), GTK_ORIENTATION_HORIZONTAL, -1,
                      &min_width, NULL, NULL, NULL);
  g_assert_cmpint (min_width, <=, 800);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
}

/* ---- the window ---------------------------------------------------------- */

static char *
save (const char *name,
      BlPbWriter *w)
{
  g_autoptr(GBytes) bytes = bl_pbw_steal (w);
  char *path = g_build_filename (tmpdir, name, NULL);
  g_autoptr(GError) error = NULL;

  bl_pbw_free (w);
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);

  return path;
}

static char *
write_trace (const char *name,
             gboolean    with_slices,
             guint       n_dumps)
{
  BlPbWriter *w = bl_pbw_new ();

  if (with_slices)
    {
      bl_pftw_thread_track (w, 1, 1, 2, "main");
      bl_pftw_event (w, 1, 10, 1, 1, "render");
      bl_pftw_event (w, 1, 30, 2, 1, NULL);
    }
  for (guint dump = 0; dump < n_dumps; dump++)
    bl_pftw_leaked_heap (w, 1 + 2 * dump);

  return save (name, w);
}

static gboolean
page_loaded (gpointer data)
{
  return bl_profile_page_get_state (data) == BL_PROFILE_PAGE_LOADED;
}

static gboolean
compare_page_loaded (gpointer data)
{
  return bl_compare_page_get_state (data) == BL_PROFILE_PAGE_LOADED;
}

static void
test_window (void)
{
  g_autofree char *heaps_only = write_trace ("heaps.pftrace", FALSE, 2);
  g_autofree char *both = write_trace ("both.pftrace", TRUE, 1);
  g_autoptr(GFile) heaps_file = g_file_new_for_path (heaps_only);
  g_autoptr(GFile) both_file = g_file_new_for_path (both);
  g_autoptr(AdwApplication) app = adw_application_new ("io.github.brightlens.BrightlensTestHeap",
                                                       G_APPLICATION_NON_UNIQUE);
  g_autoptr(GError) error = NULL;
  BlProfilePage *page;
  BlComparePage *compare;
  BlWindow *window;

  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  window = bl_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  gtk_window_present (GTK_WINDOW (window));

  /* heaps and no threads: straight on the Heap page */
  page = bl_window_open_file (window, heaps_file);
  g_assert_true (test_iterate_until (page_loaded, page, WAIT_TURNS));
  g_assert_true (bl_profile_page_is_showing_heap (page));
  g_assert_true (test_iterate_until (view_ready, bl_profile_page_get_heap_view (page), WAIT_TURNS));
  settle ();
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (bl_profile_page_get_heap_view (page))));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (bl_profile_page_get_profile_view (page))));
  {
    g_autofree char *bytes = bl_format_bytes (108);
    g_autofree char *leaked = bl_format_bytes (8);
    g_autofree char *expected = g_strdup_printf ("2 objects, %s · 1 leaked object, %s",
                                                 bytes, leaked);
    const char *summary = bl_heap_view_get_summary (bl_profile_page_get_heap_view (page));

    g_assert_cmpstr (summary, ==, expected);
  }
  /* Ctrl+F filters the types */
  bl_heap_view_set_page (bl_profile_page_get_heap_view (page), "cycles");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.search", NULL));
  g_assert_cmpstr (bl_heap_view_get_page (bl_profile_page_get_heap_view (page)), ==, "types");
  {
    GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));
    GtkWidget *heap_view = GTK_WIDGET (bl_profile_page_get_heap_view (page));

    g_assert_nonnull (focus);
    g_assert_nonnull (gtk_widget_get_ancestor (focus, GTK_TYPE_SEARCH_ENTRY));
    g_assert_true (gtk_widget_is_ancestor (focus, heap_view));
  }
  /* the window still fits 800×600 */
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 800);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), <=, 600);

  /* slices and a heap: the profile first, the Heap page beside it */
  page = bl_window_open_file (window, both_file);
  g_assert_true (test_iterate_until (page_loaded, page, WAIT_TURNS));
  settle ();
  g_assert_false (bl_profile_page_is_showing_heap (page));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (bl_profile_page_get_profile_view (page))));
  g_assert_true (test_iterate_until (view_ready, bl_profile_page_get_heap_view (page), WAIT_TURNS));

  /* two files with heaps compared: the heap comparison */
  compare = bl_window_compare_files (window, heaps_file, heaps_file, NULL);
  g_assert_true (test_iterate_until (compare_page_loaded, compare, WAIT_TURNS));
  g_assert_true (bl_compare_page_is_showing_heaps (compare));
  g_assert_true (test_iterate_until (compare_ready, bl_compare_page_get_heap_view (compare),
                                     WAIT_TURNS));
  {
    BlHeapCompareView *view = BL_HEAP_COMPARE_VIEW (bl_compare_page_get_heap_view (compare));
    GListModel *types = bl_heap_compare_view_get_types_model (view);
    GListModel *fresh = bl_heap_compare_view_get_new_model (view);
    g_autofree char *name = cell (types, 0, BL_HEAP_COLUMN_NAME);
    g_autofree char *delta = cell (types, 0, BL_HEAP_COLUMN_COUNT_DELTA);

    /* the first capture (1 Node) against the last (3 Nodes) */
    g_assert_cmpstr (name, ==, "Node");
    g_assert_cmpstr (delta, ==, "+2");
    g_assert_cmpuint (g_list_model_get_n_items (fresh), ==, 1);
  }

  /* two files with threads and heaps: the profiles compared, the heaps beside them */
  compare = bl_window_compare_files (window, both_file, both_file, NULL);
  g_assert_true (test_iterate_until (compare_page_loaded, compare, WAIT_TURNS));
  settle ();
  g_assert_false (bl_compare_page_is_showing_heaps (compare));
  g_assert_nonnull (bl_compare_page_get_diff (compare));
  g_assert_true (test_iterate_until (compare_ready, bl_compare_page_get_heap_view (compare),
                                     WAIT_TURNS));
  {
    BlHeapCompareView *view = BL_HEAP_COMPARE_VIEW (bl_compare_page_get_heap_view (compare));
    g_autofree char *delta = cell (bl_heap_compare_view_get_types_model (view), 0,
                                   BL_HEAP_COLUMN_BYTES_DELTA);

    /* the same capture on both sides: nothing changed, nothing new */
    g_assert_cmpstr (delta, ==, "0 B");
    g_assert_cmpuint (g_list_model_get_n_items (bl_heap_compare_view_get_new_model (view)), ==, 0);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  settle ();
}

/* the first step of a retainer path says which root holds it: its type,
 * a parenthesised one (a heap snapshot's "(synthetic)" root) bare */
static void
test_root_kind (void)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("test");
  BlHeap *heap = bl_heap_new ();
  guint32 synthetic = bl_heap_add_type (heap, "(synthetic)");
  guint32 window = bl_heap_add_type (heap, "Window");
  guint32 f = bl_heap_intern_field (heap, "document");
  guint32 root = bl_heap_add_object (heap, synthetic, 0);
  guint32 object = bl_heap_add_object (heap, window, 40);
  BlHeapView *view;
  GListModel *path;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *shown = NULL;

  bl_heap_add_reference (heap, root, f, object);
  bl_heap_add_root (heap, root);
  bl_heap_finish (heap);
  bl_profile_add_heap (profile, heap, NULL);
  bl_profile_finish (profile);

  view = present_view (profile, 1200, 800);
  bl_heap_view_set_page (view, "dominators");
  bl_heap_view_select_object (view, object);
  settle ();
  path = bl_heap_view_get_path_model (view);
  g_assert_cmpuint (g_list_model_get_n_items (path), ==, 2);
  first = cell (path, 0, BL_HEAP_COLUMN_FIELD);
  g_assert_cmpstr (first, ==, "(root: synthetic)");
  second = cell (path, 1, BL_HEAP_COLUMN_FIELD);
  g_assert_cmpstr (second, ==, ".document");
  shown = labels_shown (view);
  g_assert_nonnull (strstr (shown, "|(root: synthetic)|"));

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
}

int
main (int   argc,
      char *argv[])
{
  static const char *mime_dirs[] = { "/usr/local/share/mime", "/usr/share/mime", NULL };
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  /* the isolated XDG dirs hide the MIME database, which the image loaders
   * need to recognise GTK's SVG icons */
  g_content_type_set_mime_dirs (mime_dirs);

  if (!gtk_init_check ())
    g_error ("No display: widget tests need one (run them under xvfb-run)");
  adw_init ();
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  tmpdir = g_dir_make_tmp ("bl-heap-view-XXXXXX", NULL);

  g_test_add_func ("/widgets/heap-view/types", test_types);
  g_test_add_func ("/widgets/heap-view/types-sorted", test_types_sorted);
  g_test_add_func ("/widgets/heap-view/retainer-path", test_retainer_path);
  g_test_add_func ("/widgets/heap-view/cycles-skipped", test_cycles_skipped);
  g_test_add_func ("/widgets/heap-view/cycles", test_cycles);
  g_test_add_func ("/widgets/heap-view/compare-snapshots", test_compare_snapshots);
  g_test_add_func ("/widgets/heap-view/long-path", test_long_path);
  g_test_add_func ("/widgets/heap-view/long-level", test_long_level);
  g_test_add_func ("/widgets/heap-view/root-kind", test_root_kind);
  g_test_add_func ("/widgets/heap-view/fits-800x600", test_fits_800x600);
  g_test_add_func ("/widgets/heap-view/window", test_window);

  status = g_test_run ();
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

  return status;
}
