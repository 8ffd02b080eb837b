/* test-transform-view.c — call-tree transforms in the profile view: the
 * actions, the flame graph drawing the transformed tree, the chips, undo
 * and redo, and a big profile transformed in a worker thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "bl-call-tree-view.h"
#include "bl-compare-page.h"
#include "bl-model.h"
#include "bl-profile-view.h"
#include "bl-stacks-writer.h"
#include "widget-test-util.h"

/* Thread main:  main → load → parse (self 30)
 *                      → draw (self 50)
 *               main → parse (self 20)
 * Thread render: loop → draw (self 100) */
static BlProfile *
make_tree (void)
{
  BlProfile *p = bl_profile_new ("test");
  guint32 file = bl_profile_intern (p, "pkg:/source/app.brs");
  guint32 lib = bl_profile_intern (p, "pkg:/source/lib/draw.brs");
  guint32 main_root = bl_profile_add_thread (p, bl_profile_intern (p, "Thread main"));
  guint32 render_root = bl_profile_add_thread (p, bl_profile_intern (p, "Thread render"));
  guint32 m = bl_profile_add_child (p, main_root, bl_profile_intern (p, "main"), file, 1);
  guint32 load = bl_profile_add_child (p, m, bl_profile_intern (p, "load"), file, 10);
  guint32 load_parse = bl_profile_add_child (p, load, bl_profile_intern (p, "parse"), file, 20);
  guint32 draw = bl_profile_add_child (p, m, bl_profile_intern (p, "draw"), lib, 30);
  guint32 m_parse = bl_profile_add_child (p, m, bl_profile_intern (p, "parse"), file, 20);
  guint32 loop = bl_profile_add_child (p, render_root, bl_profile_intern (p, "loop"), file, 40);
  guint32 loop_draw = bl_profile_add_child (p, loop, bl_profile_intern (p, "draw"), lib, 30);

  bl_profile_add_value (p, load_parse, BL_METRIC_CPU, 30);
  bl_profile_add_value (p, draw, BL_METRIC_CPU, 50);
  bl_profile_add_value (p, m_parse, BL_METRIC_CPU, 20);
  bl_profile_add_value (p, loop_draw, BL_METRIC_CPU, 100);
  bl_profile_finish (p);

  return p;
}

/* turns of the main loop, a millisecond each, that a wait may take */
#define WAIT_TURNS 5000

static gboolean
flame_has_layout (gpointer data)
{
  BlFlameGraph *graph = bl_profile_view_get_flame_graph (data);
  BlFlameLayout *layout = bl_flame_graph_get_layout (graph);

  return layout != NULL && bl_flame_graph_get_profile (graph) == bl_profile_view_get_profile (data);
}

static void
settle (BlProfileView *view)
{
  g_assert_true (test_iterate_until (flame_has_layout, view, WAIT_TURNS));
  for (guint i = 0; i < 30; i++)
    g_main_context_iteration (NULL, FALSE);
}

static BlProfileView *
present_view (BlProfile *profile)
{
  static const char *mime_dirs[] = { "/usr/local/share/mime", "/usr/share/mime", NULL };
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = bl_profile_view_new ();

  g_content_type_set_mime_dirs (mime_dirs);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  bl_profile_view_set_profile (BL_PROFILE_VIEW (view), profile);
  settle (BL_PROFILE_VIEW (view));

  return BL_PROFILE_VIEW (view);
}

/* The node of the shown profile whose stack is @stack, or BL_NODE_NONE */
static guint32
find_stack (BlProfileView *view,
            const char    *stack)
{
  BlProfile *profile = bl_profile_view_get_profile (view);

  for (guint32 n = 0; n < bl_profile_get_n_nodes (profile); n++)
    {
      g_autofree char *s = bl_profile_dup_stack_string (profile, n, ';');

      if (g_str_equal (s, stack))
        return n;
    }

  return BL_NODE_NONE;
}

/* The flame graph draws @stack: a hit test at the middle of its frame
 * finds it */
static guint32
assert_drawn (BlProfileView *view,
              const char    *stack)
{
  BlFlameGraph *graph = bl_profile_view_get_flame_graph (view);
  guint32 node = find_stack (view, stack);
  graphene_rect_t r;

  g_assert_cmpuint (node, !=, BL_NODE_NONE);
  g_assert_true (bl_flame_graph_get_frame_bounds (graph, node, &r));
  g_assert_cmpfloat (r.size.width, >, 1);
  g_assert_cmpuint (bl_flame_graph_get_node_at (graph, r.origin.x + r.size.width / 2,
                                                r.origin.y + r.size.height / 2), ==, node);

  return node;
}

static void
collect_chips (GtkWidget *widget,
               GPtrArray *chips)
{
  if (GTK_IS_BUTTON (widget) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)),
                 "profile.remove-transform") == 0 &&
      gtk_widget_is_visible (widget))
    g_ptr_array_add (chips, widget);

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    collect_chips (c, chips);
}

static guint
count_chips (BlProfileView *view,
             const char    *first_label)
{
  g_autoptr(GPtrArray) chips = g_ptr_array_new ();

  collect_chips (GTK_WIDGET (view), chips);
  if (first_label != NULL)
    {
      GtkWidget *box = gtk_button_get_child (GTK_BUTTON (chips->pdata[0]));
      GtkWidget *label = gtk_widget_get_first_child (box);

      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, first_label);
    }

  return chips->len;
}

static void
test_merge_undo_redo (void)
{
  g_autoptr(BlProfile) profile = make_tree ();
  BlProfileView *view = present_view (profile);
  guint32 parse;

  assert_drawn (view, "Thread main;main;load;parse");
  g_assert_cmpuint (count_chips (view, NULL), ==, 0);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "profile.transform", "s",
                                             "merge:load"));
  settle (view);
  g_assert_true (bl_profile_view_get_profile (view) != profile);
  g_assert_cmpuint (find_stack (view, "Thread main;main;load"), ==, BL_NODE_NONE);
  parse = assert_drawn (view, "Thread main;main;parse");
  g_assert_cmpuint (bl_profile_get_total (bl_profile_view_get_profile (view), BL_METRIC_CPU,
                                          parse), ==, 50);
  g_assert_cmpuint (count_chips (view, "Merged: load"), ==, 1);

  /* Ctrl+Z's action: the loaded tree again, no chip */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "profile.undo", NULL));
  settle (view);
  g_assert_true (bl_profile_view_get_profile (view) == profile);
  assert_drawn (view, "Thread main;main;load;parse");
  g_assert_cmpuint (count_chips (view, NULL), ==, 0);

  /* Ctrl+Shift+Z's */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "profile.redo", NULL));
  settle (view);
  assert_drawn (view, "Thread main;main;parse");
  g_assert_cmpuint (count_chips (view, "Merged: load"), ==, 1);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
}

static void
test_selected_and_chips (void)
{
  g_autoptr(BlProfile) profile = make_tree ();
  BlProfileView *view = present_view (profile);
  BlFlameGraph *graph = bl_profile_view_get_flame_graph (view);
  guint32 draw = find_stack (view, "Thread main;main;draw");

  /* the context menu's Drop Function, on the selected frame */
  bl_flame_graph_set_selected_node (graph, draw);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "profile.transform-selected",
                                             "s", "drop"));
  settle (view);
  g_assert_cmpuint (find_stack (view, "Thread main;main;draw"), ==, BL_NODE_NONE);
  assert_drawn (view, "Thread main;main;load;parse");
  g_assert_cmpuint (count_chips (view, "Dropped: draw"), ==, 1);

  /* Focus on Subtree, stacked on top */
  bl_flame_graph_set_selected_node (graph, find_stack (view, "Thread main;main;load"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "profile.transform-selected",
                                             "s", "focus-path"));
  settle (view);
  assert_drawn (view, "Thread main;load;parse");
  g_assert_cmpuint (find_stack (view, "Thread main;main"), ==, BL_NODE_NONE);
  g_assert_cmpuint (count_chips (view, "Dropped: draw"), ==, 2);

  /* the first chip's close button removes the drop only */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "profile.remove-transform", "u",
                                             0));
  settle (view);
  g_assert_cmpuint (count_chips (view, "Subtree: load"), ==, 1);
  assert_drawn (view, "Thread main;load;parse");
  g_assert_cmpuint (bl_profile_view_get_transforms (view)->len, ==, 1);

  /* undo goes back through the removal too: drop + focus, drop, nothing */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "profile.undo", NULL));
  settle (view);
  g_assert_cmpuint (count_chips (view, "Dropped: draw"), ==, 2);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "profile.undo", NULL));
  settle (view);
  g_assert_cmpuint (count_chips (view, "Dropped: draw"), ==, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "profile.undo", NULL));
  settle (view);
  g_assert_cmpuint (count_chips (view, NULL), ==, 0);

  /* Hide Frames Like This: everything in draw's folder, in both threads */
  bl_flame_graph_set_selected_node (graph, find_stack (view, "Thread main;main;draw"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "profile.transform-selected",
                                             "s", "hide"));
  settle (view);
  g_assert_cmpuint (count_chips (view, "Hidden: pkg:/source/lib/*"), ==, 1);
  g_assert_cmpuint (find_stack (view, "Thread render;loop;draw"), ==, BL_NODE_NONE);
  g_assert_cmpuint (find_stack (view, "Thread main;main;draw"), ==, BL_NODE_NONE);

  /* a new profile starts without transforms */
  bl_profile_view_set_profile (view, NULL);
  g_assert_cmpuint (count_chips (view, NULL), ==, 0);
  g_assert_cmpuint (bl_profile_view_get_transforms (view)->len, ==, 0);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
}

/* the actions a menu model offers, "action::target" joined by spaces */
static char *
menu_actions (GMenuModel *model)
{
  GString *out = g_string_new (NULL);

  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (model, i, G_MENU_LINK_SECTION);
      g_autofree char *action = NULL;
      g_autofree char *target = NULL;

      if (section != NULL)
        {
          g_autofree char *inner = menu_actions (section);

          g_string_append_printf (out, "%s ", inner);
          continue;
        }
      g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &action);
      g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_TARGET, "s", &target);
      g_string_append_printf (out, "%s%s%s ", action, target != NULL ? "::" : "",
                              target != NULL ? target : "");
    }

  return g_string_free (out, FALSE);
}

/* A thread's root is no function: its menu offers only the transforms that
 * need none; any other frame all of them */
static void
test_root_menu (void)
{
  g_autoptr(BlProfile) profile = make_tree ();
  BlProfileView *view = present_view (profile);
  BlFlameGraph *graph = bl_profile_view_get_flame_graph (view);
  g_autofree char *root = menu_actions (bl_flame_graph_get_context_menu_model (
                                          graph, find_stack (view, "Thread main")));
  g_autofree char *frame = menu_actions (bl_flame_graph_get_context_menu_model (
                                           graph, find_stack (view, "Thread main;main;draw")));

  g_assert_nonnull (strstr (frame, "profile.transform-selected::merge "));
  g_assert_nonnull (strstr (frame, "profile.transform-selected::drop "));
  g_assert_nonnull (strstr (frame, "profile.transform-selected::hide "));
  g_assert_nonnull (strstr (frame, "profile.transform-selected::collapse-recursion "));
  g_assert_null (strstr (root, "profile.transform-selected::merge "));
  g_assert_null (strstr (root, "::focus"));
  g_assert_null (strstr (root, "::drop "));
  g_assert_null (strstr (root, "::hide "));
  g_assert_nonnull (strstr (root, "profile.transform-selected::collapse-recursion "));
  g_assert_nonnull (strstr (root, "profile.transform-selected::merge-threads "));
  g_assert_nonnull (strstr (root, "flame.copy-name "));

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
}

/* The row of the table that shows @node (its name cell), or NULL */
static GtkWidget *
find_row_label (GtkWidget *widget,
                guint32    node)
{
  if (GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (widget), "bl-node")) == node + 1)
    return widget;

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_row_label (c, node);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* Right-clicks the row of @node in @table: the actions of the menu that
 * pops up */
static char *
row_menu_actions (BlCallTreeView *table,
                  guint32         node)
{
  GtkWidget *label = find_row_label (GTK_WIDGET (table), node);
  g_autoptr(GListModel) controllers = NULL;
  GtkWidget *popover = NULL;

  g_assert_nonnull (label);
  controllers = gtk_widget_observe_controllers (label);
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (controller) &&
          gtk_gesture_single_get_button (GTK_GESTURE_SINGLE (controller)) == GDK_BUTTON_SECONDARY)
        g_signal_emit_by_name (controller, "pressed", 1, 2.0, 2.0);
    }

  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (table)); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_POPOVER_MENU (c))
      popover = c;
  g_assert_nonnull (popover);
  g_assert_true (gtk_widget_get_visible (popover));
  gtk_popover_popdown (GTK_POPOVER (popover));

  return menu_actions (gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (popover)));
}

static gboolean
table_has_rows (gpointer data)
{
  return !bl_call_tree_view_get_loading (data) &&
         find_row_label (GTK_WIDGET (data), 0) != NULL;
}

/* The tables' row menu offers what the flame graph's offers on the same
 * node: on a thread's row only the transforms that need no function */
static void
test_row_menu (void)
{
  g_autoptr(BlProfile) profile = make_tree ();
  BlProfileView *view = present_view (profile);
  BlFlameGraph *graph = bl_profile_view_get_flame_graph (view);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *table = bl_call_tree_view_new (BL_CALL_TREE_TOP_DOWN);
  guint32 root = find_stack (view, "Thread main");
  guint32 frame = find_stack (view, "Thread main;main");
  g_autofree char *flame_root = menu_actions (bl_flame_graph_get_context_menu_model (graph, root));
  g_autofree char *flame_frame = menu_actions (bl_flame_graph_get_context_menu_model (graph, frame));
  g_autofree char *row_root = NULL;
  g_autofree char *row_frame = NULL;

  gtk_window_set_child (GTK_WINDOW (window), table);
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 400);
  gtk_window_present (GTK_WINDOW (window));
  bl_call_tree_view_set_profile (BL_CALL_TREE_VIEW (table), bl_profile_view_get_profile (view),
                                 G_MAXUINT);
  g_assert_true (test_iterate_until (table_has_rows, table, WAIT_TURNS));
  bl_call_tree_view_select_node (BL_CALL_TREE_VIEW (table), frame);   /* opens its parent */
  for (guint i = 0; i < 30; i++)
    g_main_context_iteration (NULL, FALSE);

  row_root = row_menu_actions (BL_CALL_TREE_VIEW (table), root);
  row_frame = row_menu_actions (BL_CALL_TREE_VIEW (table), frame);

  g_assert_null (strstr (row_root, "::merge "));
  g_assert_null (strstr (row_root, "::focus"));
  g_assert_null (strstr (row_root, "::drop "));
  g_assert_null (strstr (row_root, "::hide "));
  g_assert_nonnull (strstr (row_root, "profile.transform-selected::collapse-recursion "));
  g_assert_nonnull (strstr (row_root, "profile.transform-selected::merge-threads "));
  g_assert_nonnull (strstr (row_frame, "profile.transform-selected::merge "));
  g_assert_nonnull (strstr (row_frame, "profile.transform-selected::focus "));
  g_assert_nonnull (strstr (row_frame, "profile.transform-selected::focus-path "));
  g_assert_nonnull (strstr (row_frame, "profile.transform-selected::drop "));
  g_assert_nonnull (strstr (row_frame, "profile.transform-selected::hide "));
  /* the same items, in the same order, as the flame graph's section */
  g_assert_nonnull (strstr (flame_root, row_root));
  g_assert_nonnull (strstr (flame_frame, row_frame));

  gtk_window_destroy (GTK_WINDOW (window));
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
}

/* Above the size done at once: the worker thread's result is shown */
static void
test_big_profile_in_worker (void)
{
  g_autoptr(BlProfile) p = bl_profile_new ("test");
  BlProfileView *view;
  guint32 roots[3];

  for (guint t = 0; t < 3; t++)
    {
      g_autofree char *name = g_strdup_printf ("RowItem_%u", t + 1);

      roots[t] = bl_profile_add_thread (p, bl_profile_intern (p, name));
    }
  for (guint i = 0; i < 30000; i++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", i % 10000);
      guint32 parent = roots[i % 3];
      guint32 n = bl_profile_add_child (p, parent, bl_profile_intern (p, name), 0, 0);

      bl_profile_add_value (p, n, BL_METRIC_CPU, 1 + i % 7);
    }
  for (guint t = 0; t < 3; t++)
    bl_profile_add_value (p, bl_profile_add_child (p, roots[t], bl_profile_intern (p, "hot"), 0, 0),
                          BL_METRIC_CPU, 100000);
  bl_profile_finish (p);
  g_assert_cmpuint (bl_profile_get_n_nodes (p), >, 20000);

  view = present_view (p);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "profile.transform", "s",
                                             "merge-threads"));
  /* not shown yet: it is being computed */
  g_assert_true (bl_profile_view_get_profile (view) == p);
  for (guint i = 0; i < 5000 && bl_profile_view_get_profile (view) == p; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  settle (view);
  g_assert_cmpuint (bl_profile_get_n_threads (bl_profile_view_get_profile (view)), ==, 1);
  g_assert_cmpuint (bl_profile_get_grand_total (bl_profile_view_get_profile (view), BL_METRIC_CPU),
                    ==, bl_profile_get_grand_total (p, BL_METRIC_CPU));
  assert_drawn (view, "RowItem;hot");
  g_assert_cmpuint (bl_profile_get_total (bl_profile_view_get_profile (view), BL_METRIC_CPU,
                                          find_stack (view, "RowItem;hot")), ==, 300000);
  g_assert_cmpuint (count_chips (view, "Threads Merged by Name"), ==, 1);

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
}

/* Presets: the built-in "My code only", and saving one per app in
 * GSettings (the memory backend) */
/* the labels of a menu's items, sections opened, joined by "|" */
static void
collect_menu_labels (GMenuModel *model,
                     GString    *out)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (model, i, G_MENU_LINK_SECTION);
      g_autofree char *label = NULL;

      if (section != NULL)
        {
          collect_menu_labels (section, out);
          continue;
        }
      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_LABEL, "s", &label))
        g_string_append_printf (out, "%s|", label);
    }
}

static GtkMenuButton *
find_preset_button (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkMenuButton *found;

      if (GTK_IS_MENU_BUTTON (child) &&
          g_strcmp0 (gtk_buildable_get_buildable_id (GTK_BUILDABLE (child)), "preset_button") == 0)
        return GTK_MENU_BUTTON (child);
      if ((found = find_preset_button (child)) != NULL)
        return found;
    }

  return NULL;
}

/* the presets menu as it is when opened */
static char *
dup_preset_menu (BlProfileView *view)
{
  GtkMenuButton *button = find_preset_button (GTK_WIDGET (view));
  GString *out = g_string_new (NULL);

  g_assert_nonnull (button);
  gtk_menu_button_popup (button);
  g_assert_nonnull (gtk_menu_button_get_menu_model (button));
  collect_menu_labels (gtk_menu_button_get_menu_model (button), out);
  gtk_menu_button_popdown (button);

  return g_string_free (out, FALSE);
}

static void
test_presets (void)
{
  g_autoptr(BlProfile) profile = make_tree ();
  g_autoptr(GSettings) settings = g_settings_new ("io.github.brightlens.Brightlens");
  g_autoptr(GVariant) stored = NULL;
  BlProfileView *view;
  const char *app, *name;
  g_autofree const char **list = NULL;
  GVariant *transforms;
  gsize n = 0;

  g_autofree char *menu = NULL;

  view = present_view (profile);
  bl_profile_view_set_fallback_title (view, "app.bsprof");
  menu = dup_preset_menu (view);
  g_assert_cmpstr (menu, ==, "My Code Only|_Save as Preset…|");

  /* the built-in one hides pkg:/source/lib/: draw goes into its callers */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "profile.apply-preset", "s",
                                             "builtin:my-code-only"));
  settle (view);
  g_assert_cmpuint (bl_profile_view_get_transforms (view)->len, ==, 3);
  g_assert_cmpuint (find_stack (view, "Thread main;main;draw"), ==, BL_NODE_NONE);
  g_assert_cmpuint (bl_profile_get_self (bl_profile_view_get_profile (view), BL_METRIC_CPU,
                                         find_stack (view, "Thread main;main")), ==, 50);
  g_assert_cmpuint (count_chips (view, "Hidden: pkg:/components/roku_modules/*"), ==, 3);

  /* save the shown list plus a merge, under the profile's app */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "profile.transform", "s",
                                             "merge:load"));
  settle (view);
  bl_profile_view_save_preset (view, "Mine");
  stored = g_settings_get_value (settings, "transform-presets");
  g_assert_cmpuint (g_variant_n_children (stored), ==, 1);
  g_variant_get_child (stored, 0, "(&s&s@as)", &app, &name, &transforms);
  list = g_variant_get_strv (transforms, &n);
  g_assert_cmpstr (app, ==, "app.bsprof");
  g_assert_cmpstr (name, ==, "Mine");
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpstr (list[3], ==, "merge:load");
  g_variant_unref (transforms);
  /* the menu, made when opened, lists it */
  g_clear_pointer (&menu, g_free);
  menu = dup_preset_menu (view);
  g_assert_cmpstr (menu, ==, "My Code Only|Mine|_Save as Preset…|");

  /* back to nothing, then the saved preset brings all four back */
  for (guint i = 0; i < 2; i++)
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "profile.undo", NULL));
  settle (view);
  g_assert_cmpuint (bl_profile_view_get_transforms (view)->len, ==, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "profile.apply-preset", "s",
                                             "user:Mine"));
  settle (view);
  g_assert_cmpuint (bl_profile_view_get_transforms (view)->len, ==, 4);
  assert_drawn (view, "Thread main;main;parse");

  /* saving again under the same name replaces it */
  bl_profile_view_save_preset (view, "Mine");
  g_clear_pointer (&stored, g_variant_unref);
  stored = g_settings_get_value (settings, "transform-presets");
  g_assert_cmpuint (g_variant_n_children (stored), ==, 1);
  g_settings_reset (settings, "transform-presets");

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
}

static gboolean
compare_done (gpointer data)
{
  return bl_compare_page_get_state (data) != BL_PROFILE_PAGE_LOADING;
}

/* A comparison started from a tab compares both sides transformed alike */
static void
test_compare (void)
{
  static const char *before[] = {
    "Thread main;main;load;parse 30", "Thread main;main;draw 50", NULL
  };
  static const char *after[] = {
    "Thread main;main;load;parse 70", "Thread main;main;parse 5", "Thread main;main;draw 40",
    NULL
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("bl-transform-compare-XXXXXX", &error);
  g_autofree char *path_a = g_build_filename (dir, "a.bsprof", NULL);
  g_autofree char *path_b = g_build_filename (dir, "b.bsprof", NULL);
  g_autoptr(GFile) file_a = g_file_new_for_path (path_a);
  g_autoptr(GFile) file_b = g_file_new_for_path (path_b);
  g_autoptr(GPtrArray) transforms =
    g_ptr_array_new_with_free_func ((GDestroyNotify) bl_transform_unref);
  GtkWidget *window = gtk_window_new ();
  BlComparePage *page;
  BlDiff *diff;

  g_assert_no_error (error);
  g_assert_true (bl_stacks_save_bsprof (before, path_a, &error));
  g_assert_true (bl_stacks_save_bsprof (after, path_b, &error));
  g_assert_no_error (error);
  g_ptr_array_add (transforms, bl_transform_parse ("merge:load", NULL));

  page = bl_compare_page_new (file_a, file_b);
  bl_compare_page_set_transforms (page, transforms);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));
  bl_compare_page_load (page);
  g_assert_true (test_iterate_until (compare_done, page, WAIT_TURNS));
  g_assert_cmpint (bl_compare_page_get_state (page), ==, BL_PROFILE_PAGE_LOADED);

  diff = bl_compare_page_get_diff (page);
  for (BlDiffSide side = BL_DIFF_SIDE_A; side <= BL_DIFF_SIDE_B; side++)
    {
      BlProfile *profile = bl_diff_get_profile (diff, side);

      for (guint32 n = 0; n < bl_profile_get_n_nodes (profile); n++)
        g_assert_cmpstr (bl_profile_get_node_name (profile, n), !=, "load");
      g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_CPU), ==,
                        side == BL_DIFF_SIDE_A ? 80 : 115);
    }

  gtk_window_destroy (GTK_WINDOW (window));
  g_remove (path_a);
  g_remove (path_b);
  g_rmdir (dir);
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

  g_test_add_func ("/widgets/transform-view/merge-undo-redo", test_merge_undo_redo);
  g_test_add_func ("/widgets/transform-view/selected-and-chips", test_selected_and_chips);
  g_test_add_func ("/widgets/transform-view/root-menu", test_root_menu);
  g_test_add_func ("/widgets/transform-view/row-menu", test_row_menu);
  g_test_add_func ("/widgets/transform-view/worker", test_big_profile_in_worker);
  g_test_add_func ("/widgets/transform-view/presets", test_presets);
  g_test_add_func ("/widgets/transform-view/compare", test_compare);

  return g_test_run ();
}
