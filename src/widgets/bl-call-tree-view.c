/* bl-call-tree-view.c
 *
 * The call tree as a table, after Sysprof's callgraph view:
 * GtkTreeListModel → GtkTreeListRowSorter → GtkSortListModel →
 * GtkSingleSelection → GtkColumnView. Rows are BlProfileNode items, made
 * lazily when their parent is expanded. The columns are the ones Roku's own
 * viewer has — self, callees and total per time metric, calls — plus memory
 * when the profile carries it, each with its share of the thread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-call-tree-view"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "bl-call-tree-view.h"
#include "bl-lazy-children.h"
#include "bl-profile-node.h"
#include "bl-row-slice.h"
#include "bl-transform-menu.h"
#include "bl-value-cell.h"

typedef enum
{
  COLUMN_SELF,
  COLUMN_CALLEES,
  COLUMN_TOTAL,
} ColumnKind;

struct _BlCallTreeView
{
  GtkWidget           parent_instance;

  GtkWidget          *row_menu;     /* right-click: the call-tree transforms */

  BlCallTreeMode      mode;
  BlProfile          *profile;
  guint               thread;
  guint32             function;
  BlMetricId          metric;
  guint64             denominators[BL_N_METRICS];
  guint32             denominators_known;   /* a bit per metric */

  GtkScrolledWindow  *scroller;
  GtkColumnView      *column_view;
  GtkColumnViewColumn *name_column;
  GtkSingleSelection *selection;   /* over a slice of the rows that grows */
  GtkTreeListModel   *tree;
  GListModel         *roots;
  BlRowSlice          rows;

  /* columns: the chosen metric's self and total always show; the others are
   * picked in the header menu and remembered per table (table-columns) */
  GSettings          *settings;
  GSimpleActionGroup *column_actions;
  GMenu              *column_menu;
  GtkColumnViewColumn *sort_column;
  GtkColumnViewColumn *default_sort;  /* the chosen metric's column sorted by first */
  BlProfileNode      *probe[2];
  gboolean            probing;
  gboolean            sorting;

  /* "only matches": which nodes and functions lie on a matching stack */
  GtkFilter          *filter;
  GBytes             *match_nodes;
  GBytes             *match_functions;

  guint32             selected_node;
  guint32             pending_node;
  gboolean            updating;
  gboolean            loading;
  gboolean            held;             /* hidden: no rows made until released */
  gboolean            rebuild_pending;  /* rows asked for while held */
  gboolean            columns_pending;  /* a new profile's columns, made when needed */
  GCancellable       *cancellable;
};

enum {
  PROP_0,
  PROP_MODE,
  PROP_SELECTED_NODE,
  PROP_LOADING,
  N_PROPS
};

enum {
  NODE_ACTIVATED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (BlCallTreeView, bl_call_tree_view, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static const char * const mode_names[] = {
  "top-down", "bottom-up", "functions", "callers", "callees",
};

static const char * const kind_names[] = { "self", "callees", "total" };

static gboolean
is_tree (BlCallTreeView *self)
{
  return self->mode != BL_CALL_TREE_FUNCTIONS;
}

static BlProfileNode *
item_of (gpointer object)
{
  if (GTK_IS_TREE_LIST_ROW (object))
    {
      gpointer item = gtk_tree_list_row_get_item (object);
      BlProfileNode *node = BL_PROFILE_NODE (item);

      g_object_unref (item);
      return node;
    }

  return BL_PROFILE_NODE (object);
}

static guint64
column_value (BlProfileNode *node,
              BlMetricId     metric,
              ColumnKind     kind)
{
  guint64 self_value = bl_profile_node_get_self (node, metric);
  guint64 total = bl_profile_node_get_total (node, metric);

  switch (kind)
    {
    case COLUMN_SELF:
      return self_value;
    case COLUMN_CALLEES:
      return total > self_value ? total - self_value : 0;
    case COLUMN_TOTAL:
      return total;
    default:
      g_assert_not_reached ();
    }
}

/* ------------------------------------------------------------------------ */
/* cells                                                                     */

/* A right click on a row selects it (the profile view selects the same
 * frame in the flame graph) and offers the call-tree transforms, actions of
 * the profile view around the table (bl-profile-view.c). */
static void
row_context_pressed_cb (BlCallTreeView  *self,
                        int              n_press,
                        double           x,
                        double           y,
                        GtkGestureClick *gesture)
{
  GtkWidget *label = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  guint node = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (label), "bl-node"));
  graphene_point_t point;

  if (node == 0)
    return;

  bl_call_tree_view_select_node (self, node - 1);

  /* the same transforms as the flame graph's menu offers on this node */
  {
    g_autoptr(GMenu) menu = bl_transform_menu_new_section (self->profile, node - 1);

    if (self->row_menu == NULL)
      {
        self->row_menu = gtk_popover_menu_new_from_model (NULL);
        gtk_popover_set_has_arrow (GTK_POPOVER (self->row_menu), FALSE);
        gtk_widget_set_halign (self->row_menu, GTK_ALIGN_START);
        gtk_widget_set_parent (self->row_menu, GTK_WIDGET (self));
      }
    gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->row_menu), G_MENU_MODEL (menu));
  }

  if (!gtk_widget_compute_point (label, GTK_WIDGET (self), &GRAPHENE_POINT_INIT (x, y), &point))
    point = GRAPHENE_POINT_INIT (0, 0);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->row_menu),
                               &(GdkRectangle) { (int) point.x, (int) point.y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->row_menu));
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

/* the name, the file and the line of a row's node */
static char *
node_description (BlProfile *profile,
                  guint32    node)
{
  const char *name = bl_profile_get_node_name (profile, node);
  const char *file = bl_profile_get_node_file (profile, node);
  const BlNode *n = bl_profile_get_node (profile, node);

  if (file == NULL || file[0] == '\0')
    return g_strdup (name);
  if (n->line > 0)
    return g_strdup_printf ("%s\n%s:%u", name, file, n->line);

  return g_strdup_printf ("%s\n%s", name, file);
}

/* The tooltip is made when it is asked for: setting one on each bound row
 * asked the X server where the pointer was, for every row of every table */
static gboolean
name_query_tooltip_cb (GtkWidget      *label,
                       int             x,
                       int             y,
                       gboolean        keyboard,
                       GtkTooltip     *tooltip,
                       BlCallTreeView *self)
{
  guint node = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (label), "bl-node"));
  g_autofree char *text = NULL;

  if (node == 0 || self->profile == NULL || node - 1 >= bl_profile_get_n_nodes (self->profile))
    return FALSE;

  text = node_description (self->profile, node - 1);
  gtk_tooltip_set_text (tooltip, text);

  return TRUE;
}

static void
name_setup (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            BlCallTreeView           *self)
{
  GtkWidget *label = gtk_inscription_new (NULL);

  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (label),
                                     GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  gtk_inscription_set_min_chars (GTK_INSCRIPTION (label), 12);
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (label), 40);
  gtk_widget_set_has_tooltip (label, TRUE);
  g_signal_connect_object (label, "query-tooltip", G_CALLBACK (name_query_tooltip_cb), self, 0);

  {
    GtkGesture *context = gtk_gesture_click_new ();

    gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (context), GDK_BUTTON_SECONDARY);
    g_signal_connect_object (context, "pressed", G_CALLBACK (row_context_pressed_cb), self,
                             G_CONNECT_SWAPPED);
    gtk_widget_add_controller (label, GTK_EVENT_CONTROLLER (context));
  }

  if (is_tree (self))
    {
      GtkWidget *expander = gtk_tree_expander_new ();

      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (list_item, expander);
    }
  else
    gtk_list_item_set_child (list_item, label);
}

static void
name_bind (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           BlCallTreeView           *self)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);
  gpointer object = gtk_list_item_get_item (list_item);
  BlProfileNode *node = item_of (object);
  GtkWidget *label = child;
  const char *file;
  g_autofree char *description = NULL;

  if (GTK_IS_TREE_EXPANDER (child))
    {
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), GTK_TREE_LIST_ROW (object));
      label = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
    }

  file = bl_profile_node_get_file (node);
  if (file != NULL && file[0] != '\0')
    {
      const char *base = strrchr (file, '/');
      g_autofree char *markup = NULL;

      /* the file tells apart functions of the same name */
      markup = g_markup_printf_escaped ("%s  <span alpha=\"55%%\">%s</span>",
                                        bl_profile_node_get_name (node),
                                        base != NULL ? base + 1 : file);
      gtk_inscription_set_markup (GTK_INSCRIPTION (label), markup);
    }
  else
    gtk_inscription_set_text (GTK_INSCRIPTION (label), bl_profile_node_get_name (node));

  /* what the tooltip says, for assistive technologies */
  description = node_description (bl_profile_node_get_profile (node),
                                  bl_profile_node_get_node (node));
  gtk_accessible_update_property (GTK_ACCESSIBLE (label),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
  g_object_set_data (G_OBJECT (label), "bl-node",
                     GUINT_TO_POINTER (bl_profile_node_get_node (node) + 1));
}

/* What a value's share is of: the thread's total, or all threads'. Made
 * when a row of that metric is first bound: a thread's total reads the
 * metric's totals, which a profile makes on first use (a sweep over every
 * node), and a table shows one or two metrics of the many a profile has. */
static guint64
denominator (BlCallTreeView *self,
             BlMetricId      metric)
{
  guint64 whole = 0;

  if (metric < 0 || metric >= BL_N_METRICS)
    return 0;
  if (self->denominators_known & (1u << metric))
    return self->denominators[metric];

  if (self->profile != NULL && bl_profile_has_metric (self->profile, metric))
    {
      if (self->thread == G_MAXUINT)
        whole = bl_profile_get_grand_total (self->profile, metric);
      else if (self->thread < bl_profile_get_n_threads (self->profile))
        whole = bl_profile_get_total (self->profile, metric,
                                      bl_profile_get_thread_root (self->profile, self->thread));
    }
  self->denominators[metric] = whole;
  self->denominators_known |= 1u << metric;

  return whole;
}

static void
value_setup (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  /* one widget: the value, a heat bar (the share as a length) and the
   * share; a box of labels and a level bar made seven per cell */
  gtk_list_item_set_child (list_item, bl_value_cell_new ());
}

static void
value_bind (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            GtkColumnViewColumn      *column)
{
  BlCallTreeView *self = g_object_get_data (G_OBJECT (column), "bl-view");
  BlMetricId metric = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (column), "bl-metric"));
  ColumnKind kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (column), "bl-kind"));
  BlProfileNode *node = item_of (gtk_list_item_get_item (list_item));
  guint64 v = column_value (node, metric, kind);
  g_autofree char *text = bl_profile_format_value (self->profile, metric, v);
  guint64 whole = denominator (self, metric);
  double share = whole > 0 ? (double) v / whole : 0;
  char pct_text[32];

  if (whole > 0)
    g_snprintf (pct_text, sizeof pct_text, "%.1f%%", 100.0 * share);
  else
    pct_text[0] = '\0';
  bl_value_cell_set (BL_VALUE_CELL (gtk_list_item_get_child (list_item)), text, pct_text,
                     whole > 0 ? share : -1);
}

/* ------------------------------------------------------------------------ */
/* sorting                                                                   */

static int
compare_values (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  GtkColumnViewColumn *column = user_data;
  BlCallTreeView *self = g_object_get_data (G_OBJECT (column), "bl-view");
  BlMetricId metric = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (column), "bl-metric"));
  ColumnKind kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (column), "bl-kind"));
  guint64 va, vb;

  /* the column view's sorter asks its primary column first */
  if (self->probing)
    {
      self->probing = FALSE;
      self->sort_column = column;
    }

  va = column_value (item_of ((gpointer) a), metric, kind);
  vb = column_value (item_of ((gpointer) b), metric, kind);

  return va < vb ? GTK_ORDERING_SMALLER : va > vb ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static int
compare_names (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  BlCallTreeView *self = user_data;
  int ret;

  if (self->probing)
    {
      self->probing = FALSE;
      self->sort_column = self->name_column;
    }

  ret = g_strcmp0 (bl_profile_node_get_name (item_of ((gpointer) a)),
                   bl_profile_node_get_name (item_of ((gpointer) b)));

  return ret < 0 ? GTK_ORDERING_SMALLER : ret > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

/* ------------------------------------------------------------------------ */
/* columns                                                                   */

static GtkColumnViewColumn *
add_value_column (BlCallTreeView *self,
                  BlMetricId      metric,
                  ColumnKind      kind)
{
  const BlMetricInfo *info = bl_metric_get_info (metric);
  g_autofree char *title = NULL;
  GtkListItemFactory *factory;
  GtkColumnViewColumn *column;
  GtkSorter *sorter;

  switch (kind)
    {
    case COLUMN_SELF:
      /* Translators: a column title, "CPU self" */
      title = g_strdup_printf (C_("column", "%s self"), _(info->short_name));
      break;
    case COLUMN_CALLEES:
      /* Translators: a column title, "CPU callees": the part spent in functions it called */
      title = g_strdup_printf (C_("column", "%s callees"), _(info->short_name));
      break;
    case COLUMN_TOTAL:
    default:
      /* Translators: a column title, "CPU total" */
      title = g_strdup_printf (C_("column", "%s total"), _(info->short_name));
      break;
    }
  if (metric == BL_METRIC_CALLS)
    {
      g_free (title);
      title = g_strdup (_(info->short_name));
    }

  factory = gtk_signal_list_item_factory_new ();
  column = gtk_column_view_column_new (title, factory);
  g_object_set_data (G_OBJECT (column), "bl-view", self);
  g_object_set_data (G_OBJECT (column), "bl-metric", GINT_TO_POINTER (metric));
  g_object_set_data (G_OBJECT (column), "bl-kind", GINT_TO_POINTER (kind));
  g_object_set_data_full (G_OBJECT (column), "bl-id",
                          g_strdup_printf ("%s-%s", bl_metric_get_name (metric), kind_names[kind]),
                          g_free);
  g_signal_connect (factory, "setup", G_CALLBACK (value_setup), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (value_bind), column);

  sorter = GTK_SORTER (gtk_custom_sorter_new (compare_values, column, NULL));
  gtk_column_view_column_set_sorter (column, sorter);
  g_object_unref (sorter);
  gtk_column_view_column_set_resizable (column, TRUE);

  return column;
}

/* the extra columns this table shows, as saved */
static char **
dup_saved_columns (BlCallTreeView *self)
{
  g_autoptr(GVariant) dict = NULL;
  char **ids = NULL;

  if (self->settings == NULL)
    return g_new0 (char *, 1);

  dict = g_settings_get_value (self->settings, "table-columns");
  if (!g_variant_lookup (dict, mode_names[self->mode], "^as", &ids))
    ids = g_new0 (char *, 1);

  return ids;
}

static void
save_columns (BlCallTreeView *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);
  g_autoptr(GVariant) old = NULL;
  g_auto(GStrv) kept = dup_saved_columns (self);
  GVariantBuilder dict, ids;
  GVariantIter iter;
  const char *key;
  GVariant *value;

  if (self->settings == NULL)
    return;

  /* the columns this profile has as they are now, the others as they were */
  g_variant_builder_init (&ids, G_VARIANT_TYPE_STRING_ARRAY);
  for (guint i = 0; kept[i] != NULL; i++)
    {
      gboolean here = FALSE;

      for (guint k = 1; k < g_list_model_get_n_items (columns) && !here; k++)
        {
          g_autoptr(GtkColumnViewColumn) c = g_list_model_get_item (columns, k);

          here = g_strcmp0 (g_object_get_data (G_OBJECT (c), "bl-id"), kept[i]) == 0;
        }
      if (!here)
        g_variant_builder_add (&ids, "s", kept[i]);
    }
  for (guint k = 1; k < g_list_model_get_n_items (columns); k++)
    {
      g_autoptr(GtkColumnViewColumn) c = g_list_model_get_item (columns, k);

      if (g_object_get_data (G_OBJECT (c), "bl-fixed") == NULL &&
          gtk_column_view_column_get_visible (c))
        g_variant_builder_add (&ids, "s", (const char *) g_object_get_data (G_OBJECT (c), "bl-id"));
    }

  g_variant_builder_init (&dict, G_VARIANT_TYPE ("a{sas}"));
  old = g_settings_get_value (self->settings, "table-columns");
  g_variant_iter_init (&iter, old);
  while (g_variant_iter_next (&iter, "{&s@as}", &key, &value))
    {
      if (g_strcmp0 (key, mode_names[self->mode]) != 0)
        g_variant_builder_add (&dict, "{s@as}", key, value);
      g_variant_unref (value);
    }
  g_variant_builder_add (&dict, "{sas}", mode_names[self->mode], &ids);
  g_settings_set_value (self->settings, "table-columns", g_variant_builder_end (&dict));
}

static void
sort_by (BlCallTreeView      *self,
         GtkColumnViewColumn *column)
{
  self->sorting = TRUE;
  self->sort_column = column;
  gtk_column_view_sort_by_column (self->column_view, column, GTK_SORT_DESCENDING);
  self->sorting = FALSE;
}

static void
column_toggled (GSimpleAction *action,
                GVariant      *state,
                gpointer       user_data)
{
  GtkColumnViewColumn *column = user_data;
  BlCallTreeView *self = g_object_get_data (G_OBJECT (column), "bl-view");

  g_simple_action_set_state (action, state);
  gtk_column_view_column_set_visible (column, g_variant_get_boolean (state));
  save_columns (self);

  /* never sorted by a column out of sight */
  if (!g_variant_get_boolean (state) && column == self->sort_column &&
      self->default_sort != NULL)
    sort_by (self, self->default_sort);
}

static gboolean
is_value_column (GtkColumnViewColumn *column)
{
  return g_object_get_data (G_OBJECT (column), "bl-id") != NULL;
}

/* A click on a new column sorts it ascending; a cost column turns that
 * into largest first. The primary column is found by asking the column
 * view's sorter to compare a row with itself: it asks its primary column
 * first (GTK 4.8 has no getter for it). */
static void
sorter_changed_cb (BlCallTreeView  *self,
                   GtkSorterChange  change,
                   GtkSorter       *sorter)
{
  GtkColumnViewColumn *before = self->sort_column;

  if (self->probe[0] == NULL || self->sorting)
    return;

  /* two objects for the same row: a sorter answers "equal" to one object
   * compared with itself without asking anybody */
  self->sort_column = NULL;
  self->probing = TRUE;
  gtk_sorter_compare (sorter, self->probe[0], self->probe[1]);
  self->probing = FALSE;

  if (self->sort_column != NULL && self->sort_column != before &&
      is_value_column (self->sort_column))
    {
      self->sorting = TRUE;
      gtk_column_view_sort_by_column (self->column_view, self->sort_column, GTK_SORT_DESCENDING);
      self->sorting = FALSE;
      /* the nested emission sorted the rows already */
      g_signal_stop_emission_by_name (sorter, "changed");
    }
}

static void
rebuild_columns (BlCallTreeView *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);
  BlMetricId metrics[BL_N_METRICS];
  g_auto(GStrv) shown = NULL;
  GtkColumnViewColumn *sort_column = NULL;
  guint n, position = 1;

  /* removing the columns changes the sorter: not a click */
  self->sorting = TRUE;
  self->sort_column = NULL;
  self->default_sort = NULL;
  while (g_list_model_get_n_items (columns) > 1)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, 1);

      gtk_column_view_remove_column (self->column_view, column);
    }
  self->sorting = FALSE;
  g_menu_remove_all (self->column_menu);
  g_clear_object (&self->column_actions);
  self->column_actions = g_simple_action_group_new ();
  gtk_widget_insert_action_group (GTK_WIDGET (self), "columns",
                                  G_ACTION_GROUP (self->column_actions));

  if (self->profile == NULL)
    return;

  shown = dup_saved_columns (self);
  n = bl_profile_list_metrics (self->profile, metrics);

  /* the chosen metric first, right after the function */
  for (guint i = 0; i < n; i++)
    if (metrics[i] == self->metric && i > 0)
      {
        memmove (metrics + 1, metrics, i * sizeof metrics[0]);
        metrics[0] = self->metric;
        break;
      }

  for (guint i = 0; i < n; i++)
    {
      BlMetricId m = metrics[i];
      ColumnKind kinds[3];
      guint n_kinds = 0;

      if (!bl_metric_get_info (m)->additive)
        kinds[n_kinds++] = COLUMN_SELF;
      else if (m == BL_METRIC_CPU || m == BL_METRIC_WALL || m == BL_METRIC_SAMPLES ||
               m == BL_METRIC_TIME_NS || m == BL_METRIC_WEIGHT)
        {
          kinds[n_kinds++] = COLUMN_SELF;
          kinds[n_kinds++] = COLUMN_TOTAL;
          kinds[n_kinds++] = COLUMN_CALLEES;
        }
      else
        {
          kinds[n_kinds++] = COLUMN_SELF;
          kinds[n_kinds++] = COLUMN_TOTAL;
        }

      for (guint k = 0; k < n_kinds; k++)
        {
          GtkColumnViewColumn *column = add_value_column (self, m, kinds[k]);
          const char *id = g_object_get_data (G_OBJECT (column), "bl-id");
          gboolean fixed = m == self->metric && kinds[k] != COLUMN_CALLEES;
          gboolean visible = fixed || g_strv_contains ((const char * const *) shown, id);
          g_autoptr(GSimpleAction) action = NULL;
          g_autofree char *detailed = g_strconcat ("columns.", id, NULL);

          if (fixed)
            g_object_set_data (G_OBJECT (column), "bl-fixed", GINT_TO_POINTER (TRUE));
          gtk_column_view_column_set_visible (column, visible);
          gtk_column_view_column_set_header_menu (column, G_MENU_MODEL (self->column_menu));
          gtk_column_view_insert_column (self->column_view, position++, column);

          action = g_simple_action_new_stateful (id, NULL, g_variant_new_boolean (visible));
          g_simple_action_set_enabled (action, !fixed);
          g_signal_connect_object (action, "change-state", G_CALLBACK (column_toggled),
                                   column, 0);
          g_action_map_add_action (G_ACTION_MAP (self->column_actions), G_ACTION (action));
          g_menu_append (self->column_menu, gtk_column_view_column_get_title (column), detailed);

          /* the bottom-up table lists where the metric is spent: by self;
           * the others by total, where there is one */
          if (m == self->metric &&
              (sort_column == NULL ||
               (kinds[k] == COLUMN_TOTAL && self->mode != BL_CALL_TREE_BOTTOM_UP)))
            sort_column = column;
          g_object_unref (column);
        }
    }

  self->default_sort = sort_column;
  if (sort_column != NULL)
    sort_by (self, sort_column);
}

/* The columns of a new profile, made when the table is shown or released:
 * a hidden table held back makes none (eight per table, with a header
 * each, for every table, took a couple of milliseconds of the hand-over
 * of a profile to the window) */
static gboolean
needs_columns (BlCallTreeView *self)
{
  return !self->held || gtk_widget_get_mapped (GTK_WIDGET (self));
}

static void
ensure_columns (BlCallTreeView *self)
{
  if (!self->columns_pending)
    return;
  self->columns_pending = FALSE;
  rebuild_columns (self);
}

/* A metric switch changes which columns are fixed, where they stand and
 * which one sorts, not the columns themselves (they are the profile's):
 * removing and adding them again rebuilt every cell of every table, hidden
 * or not, on the main thread. */
static void
sort_for_metric (BlCallTreeView *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);
  g_autoptr(GPtrArray) chosen = g_ptr_array_new_with_free_func (g_object_unref);
  g_auto(GStrv) shown = dup_saved_columns (self);
  GtkColumnViewColumn *sort_column = NULL;

  for (guint i = 1; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      BlMetricId m = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (column), "bl-metric"));
      ColumnKind kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (column), "bl-kind"));
      const char *id = g_object_get_data (G_OBJECT (column), "bl-id");
      gboolean fixed = m == self->metric && kind != COLUMN_CALLEES;
      gboolean visible;
      GAction *action;

      if (!is_value_column (column))
        continue;

      visible = fixed || g_strv_contains ((const char * const *) shown, id);
      g_object_set_data (G_OBJECT (column), "bl-fixed", fixed ? GINT_TO_POINTER (TRUE) : NULL);
      gtk_column_view_column_set_visible (column, visible);
      action = g_action_map_lookup_action (G_ACTION_MAP (self->column_actions), id);
      if (action != NULL)
        {
          g_simple_action_set_enabled (G_SIMPLE_ACTION (action), !fixed);
          g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (visible));
        }

      if (m != self->metric)
        continue;
      g_ptr_array_add (chosen, g_object_ref (column));
      /* bottom-up by self, the others by total where there is one */
      if (sort_column == NULL ||
          (kind == COLUMN_TOTAL && self->mode != BL_CALL_TREE_BOTTOM_UP))
        sort_column = column;
    }

  /* the chosen metric's columns right after the function; moving a column
   * takes it out of the sorter for a moment: not a click */
  self->sorting = TRUE;
  for (guint k = 0; k < chosen->len; k++)
    gtk_column_view_insert_column (self->column_view, 1 + k, g_ptr_array_index (chosen, k));
  self->sorting = FALSE;

  self->default_sort = sort_column;
  if (sort_column != NULL)
    sort_by (self, sort_column);
}

/* ------------------------------------------------------------------------ */
/* models                                                                    */

static GListModel *
create_child_model (gpointer item,
                    gpointer user_data)
{
  /* asked of every row bound, to know whether it can open: the children
   * themselves are made when the row opens (bl-lazy-children.c) */
  return bl_lazy_children_new (BL_PROFILE_NODE (item));
}

static void
selection_changed (BlCallTreeView *self)
{
  gpointer object = gtk_single_selection_get_selected_item (self->selection);
  guint32 node = object ? bl_profile_node_get_node (item_of (object)) : BL_NODE_NONE;

  if (node == self->selected_node)
    return;

  self->selected_node = node;
  if (!self->updating)
    {
      self->pending_node = node;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
    }
}

static void
activate_cb (BlCallTreeView *self,
             guint           position,
             GtkColumnView  *column_view)
{
  g_autoptr(GObject) object = g_list_model_get_item (G_LIST_MODEL (self->selection), position);

  if (object != NULL)
    g_signal_emit (self, signals[NODE_ACTIVATED], 0, bl_profile_node_get_node (item_of (object)));
}

typedef struct
{
  BlProfile      *profile;
  BlCallTreeMode  mode;
  guint           thread;
  guint32         function;
  gboolean        presort;      /* by the sort column's values, largest first */
  BlMetricId      sort_metric;
  ColumnKind      sort_kind;
} RootsRequest;

static void
roots_request_free (gpointer data)
{
  RootsRequest *req = data;

  g_clear_object (&req->profile);
  g_free (req);
}

static GListModel *
compute_roots (BlProfile      *profile,
               BlCallTreeMode  mode,
               guint           thread,
               guint32         function)
{
  GListStore *store;

  if (profile == NULL)
    return G_LIST_MODEL (g_list_store_new (BL_TYPE_PROFILE_NODE));

  switch (mode)
    {
    case BL_CALL_TREE_TOP_DOWN:
      return bl_profile_node_list_roots (profile, thread);
    case BL_CALL_TREE_BOTTOM_UP:
      return bl_profile_node_list_functions (profile, thread, BL_PROFILE_NODE_CALLERS);
    case BL_CALL_TREE_FUNCTIONS:
      return bl_profile_node_list_functions (profile, thread, BL_PROFILE_NODE_FUNCTION);
    case BL_CALL_TREE_CALLERS:
    case BL_CALL_TREE_CALLEES:
      store = g_list_store_new (BL_TYPE_PROFILE_NODE);
      if (function != G_MAXUINT32)
        {
          g_autoptr(BlProfileNode) item =
            bl_profile_node_new_for_function (profile, thread, function,
                                              mode == BL_CALL_TREE_CALLERS
                                              ? BL_PROFILE_NODE_CALLERS
                                              : BL_PROFILE_NODE_CALLEES);
          if (item != NULL)
            g_list_store_append (store, item);
        }
      return G_LIST_MODEL (store);
    default:
      g_assert_not_reached ();
    }
}

static int
compare_presort (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  const RootsRequest *req = user_data;
  guint64 va = column_value (*(BlProfileNode * const *) a, req->sort_metric, req->sort_kind);
  guint64 vb = column_value (*(BlProfileNode * const *) b, req->sort_metric, req->sort_kind);

  return va > vb ? -1 : va < vb ? 1 : 0;
}

/* below this many nodes, a totals column is made in a millisecond or less */
#define QUICK_TOTALS_NODES 100000

/* A top-down table's rows are its thread roots, at once; but the first
 * rows bound make the totals of every metric the table shows, a sweep over
 * the nodes each (milliseconds on a million): while any is not made, the
 * table's worker makes them. */
static gboolean
totals_made (BlCallTreeView *self)
{
  BlMetricId metrics[BL_N_METRICS];
  guint n = bl_profile_list_metrics (self->profile, metrics);

  if (bl_profile_get_n_nodes (self->profile) < QUICK_TOTALS_NODES)
    return TRUE;

  for (guint i = 0; i < n; i++)
    if (!bl_profile_has_total_array (self->profile, metrics[i]))
      return FALSE;

  return TRUE;
}

static void
roots_worker (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  RootsRequest *req = task_data;
  GListModel *roots;
  guint n;

  /* the totals the rows show, here rather than as the first rows are bound */
  if (req->mode == BL_CALL_TREE_TOP_DOWN)
    {
      BlMetricId metrics[BL_N_METRICS];
      guint n_metrics = bl_profile_list_metrics (req->profile, metrics);

      for (guint i = 0; i < n_metrics; i++)
        bl_profile_get_total_array (req->profile, metrics[i]);
    }

  roots = compute_roots (req->profile, req->mode, req->thread, req->function);
  n = g_list_model_get_n_items (roots);

  /* In the order the table will show them: GtkSortListModel sorts again
   * on the main thread, and its merge sort finds one run in rows already
   * in order (a few thousand comparisons instead of n log n). */
  if (req->presort && n > 1 && G_IS_LIST_STORE (roots))
    {
      g_autoptr(GPtrArray) items = g_ptr_array_new_full (n, g_object_unref);

      for (guint i = 0; i < n; i++)
        g_ptr_array_add (items, g_list_model_get_item (roots, i));
      g_qsort_with_data (items->pdata, n, sizeof (gpointer), compare_presort, req);
      g_list_store_splice (G_LIST_STORE (roots), 0, n, items->pdata, n);
    }

  g_task_return_pointer (task, roots, g_object_unref);
}

/* With "only matches" on, a row shows when its node (a call) or its
 * function (a merged row) lies on a stack that holds a match. */
static gboolean
filter_row (gpointer item,
            gpointer user_data)
{
  BlCallTreeView *self = user_data;
  BlProfileNode *node;
  const guint8 *flags;
  gsize n;
  guint32 index;

  if (self->match_nodes == NULL || self->match_functions == NULL)
    return TRUE;

  node = item_of (item);
  if (bl_profile_node_get_kind (node) == BL_PROFILE_NODE_CALL)
    {
      flags = g_bytes_get_data (self->match_nodes, &n);
      index = bl_profile_node_get_node (node);
    }
  else
    {
      flags = g_bytes_get_data (self->match_functions, &n);
      index = bl_profile_node_get_function (node);
    }

  return index < n && flags[index];
}

/* Shows the rows on the column view, the first slice at once. */
static void
bind_rows (BlCallTreeView *self)
{
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  bl_row_slice_grow (&self->rows);
}

static void
set_roots (BlCallTreeView *self,
           GListModel     *roots)
{
  GtkSortListModel *sorted;
  GtkSorter *sorter;
  GListModel *model;

  g_clear_object (&self->tree);
  g_clear_object (&self->roots);

  self->roots = g_object_ref (roots);

  sorter = gtk_column_view_get_sorter (self->column_view);
  if (is_tree (self))
    {
      self->tree = gtk_tree_list_model_new (g_object_ref (roots), FALSE, FALSE,
                                            create_child_model, NULL, NULL);
      GtkTreeListRowSorter *row_sorter = gtk_tree_list_row_sorter_new (g_object_ref (sorter));

      sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->tree)),
                                        GTK_SORTER (row_sorter));
    }
  else
    sorted = gtk_sort_list_model_new (g_object_ref (roots), g_object_ref (sorter));
  /* not incremental: rows of a freshly expanded node would show at the end
   * until the sort caught up; only roots and expanded rows are sorted */
  gtk_sort_list_model_set_incremental (sorted, FALSE);
  model = G_LIST_MODEL (gtk_filter_list_model_new (G_LIST_MODEL (sorted),
                                                   g_object_ref (self->filter)));

  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_func (self->selection, selection_changed, self);
  g_clear_object (&self->selection);
  self->selection = gtk_single_selection_new (bl_row_slice_wrap (&self->rows, model));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected",
                            G_CALLBACK (selection_changed), self);
  /* a hidden table binds no rows: they are bound when it is shown. One
   * that is held keeps its old rows meanwhile: taking down a couple of
   * hundred bound rows costs the main thread a frame or two, which waits
   * until the view the user sees has been drawn (the release) */
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    bind_rows (self);
  else if (!self->held)
    gtk_column_view_set_model (self->column_view, NULL);

  /* a single root (one thread, one function) starts open */
  if (self->tree != NULL && g_list_model_get_n_items (roots) == 1)
    {
      g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_child_row (self->tree, 0);

      if (row != NULL)
        gtk_tree_list_row_set_expanded (row, TRUE);
    }

  self->updating = TRUE;
  selection_changed (self);
  self->updating = FALSE;
}

static void
set_loading (BlCallTreeView *self,
             gboolean        loading)
{
  if (self->loading == loading)
    return;

  self->loading = loading;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
roots_ready (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(BlCallTreeView) self = user_data;
  g_autoptr(GListModel) roots = NULL;
  g_autoptr(GError) error = NULL;

  roots = g_task_propagate_pointer (G_TASK (result), &error);
  if (roots == NULL)
    return;   /* cancelled: a newer request is on its way */

  set_roots (self, roots);
  set_loading (self, FALSE);

  if (self->pending_node != BL_NODE_NONE)
    bl_call_tree_view_select_node (self, self->pending_node);
}

/* Rows over a million nodes take a few hundred milliseconds to group: all
 * but the top-down roots are made in a worker, the newest request wins. */
static void
rebuild_model (BlCallTreeView *self)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GListModel) empty = NULL;
  RootsRequest *req;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->rebuild_pending = FALSE;
  if (needs_columns (self))
    ensure_columns (self);

  if (self->profile == NULL || (self->mode == BL_CALL_TREE_TOP_DOWN && totals_made (self)) ||
      ((self->mode == BL_CALL_TREE_CALLERS || self->mode == BL_CALL_TREE_CALLEES) &&
       self->function == G_MAXUINT32))
    {
      g_autoptr(GListModel) roots = compute_roots (self->profile, self->mode, self->thread,
                                                   self->function);

      set_roots (self, roots);
      set_loading (self, FALSE);
      return;
    }

  empty = G_LIST_MODEL (g_list_store_new (BL_TYPE_PROFILE_NODE));
  set_roots (self, empty);
  set_loading (self, TRUE);

  /* a hidden table held back: its rows once the visible view is drawn; so
   * is a top-down table shown, whose worker would make totals beside the
   * flame graph's */
  self->rebuild_pending = self->held && (!gtk_widget_get_mapped (GTK_WIDGET (self)) ||
                                         self->mode == BL_CALL_TREE_TOP_DOWN);
  if (self->rebuild_pending)
    return;

  req = g_new0 (RootsRequest, 1);
  req->profile = g_object_ref (self->profile);
  req->mode = self->mode;
  req->thread = self->thread;
  req->function = self->function;
  if (self->sort_column != NULL && is_value_column (self->sort_column))
    {
      req->presort = TRUE;
      req->sort_metric = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (self->sort_column),
                                                             "bl-metric"));
      req->sort_kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (self->sort_column),
                                                           "bl-kind"));
    }

  self->cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->cancellable, roots_ready, g_object_ref (self));
  g_task_set_source_tag (task, rebuild_model);
  g_task_set_task_data (task, req, roots_request_free);
  g_task_set_check_cancellable (task, TRUE);
  g_task_run_in_thread (task, roots_worker);
}

/* made again, metric by metric, as rows are bound (denominator()) */
static void
update_denominators (BlCallTreeView *self)
{
  self->denominators_known = 0;
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */

static GtkWidget *find_list_view (GtkWidget *widget);

/* The rows of a table that was hidden when they were made: bound now. */
static void
bl_call_tree_view_map (GtkWidget *widget)
{
  BlCallTreeView *self = BL_CALL_TREE_VIEW (widget);
  guint selected;

  ensure_columns (self);
  GTK_WIDGET_CLASS (bl_call_tree_view_parent_class)->map (widget);

  if (self->rebuild_pending)
    {
      rebuild_model (self);
      return;
    }

  if (self->selection == NULL ||
      gtk_column_view_get_model (self->column_view) == GTK_SELECTION_MODEL (self->selection))
    return;

  bind_rows (self);
  selected = gtk_single_selection_get_selected (self->selection);
  if (selected != GTK_INVALID_LIST_POSITION)
    {
      GtkWidget *list_view = find_list_view (GTK_WIDGET (self->column_view));

      if (list_view != NULL)
        gtk_widget_activate_action (list_view, "list.scroll-to-item", "u", selected);
    }
}

static void
bl_call_tree_view_dispose (GObject *object)
{
  BlCallTreeView *self = (BlCallTreeView *) object;

  bl_row_slice_clear (&self->rows);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->row_menu, gtk_widget_unparent);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_func (self->selection, selection_changed, self);
  g_clear_pointer ((GtkWidget **) &self->scroller, gtk_widget_unparent);
  g_clear_object (&self->selection);
  g_clear_object (&self->tree);
  g_clear_object (&self->roots);
  g_clear_object (&self->profile);
  g_clear_object (&self->probe[0]);
  g_clear_object (&self->probe[1]);
  g_clear_object (&self->column_actions);
  g_clear_object (&self->column_menu);
  g_clear_object (&self->settings);
  g_clear_object (&self->filter);
  g_clear_pointer (&self->match_nodes, g_bytes_unref);
  g_clear_pointer (&self->match_functions, g_bytes_unref);

  G_OBJECT_CLASS (bl_call_tree_view_parent_class)->dispose (object);
}

static void
bl_call_tree_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  BlCallTreeView *self = BL_CALL_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_MODE:
      g_value_set_int (value, self->mode);
      break;
    case PROP_SELECTED_NODE:
      g_value_set_uint (value, self->selected_node);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_call_tree_view_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  BlCallTreeView *self = BL_CALL_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_MODE:
      self->mode = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_call_tree_view_constructed (GObject *object)
{
  BlCallTreeView *self = BL_CALL_TREE_VIEW (object);
  BlCallTreeMode mode = self->mode;

  G_OBJECT_CLASS (bl_call_tree_view_parent_class)->constructed (object);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self->column_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  mode == BL_CALL_TREE_TOP_DOWN ? _("Top-down call tree")
                                  : mode == BL_CALL_TREE_BOTTOM_UP ? _("Bottom-up call tree")
                                  : mode == BL_CALL_TREE_FUNCTIONS ? _("Functions")
                                  : mode == BL_CALL_TREE_CALLERS ? _("Callers")
                                  : _("Callees"),
                                  -1);
  rebuild_model (self);
}

static void
bl_call_tree_view_class_init (BlCallTreeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_call_tree_view_dispose;
  object_class->get_property = bl_call_tree_view_get_property;
  object_class->set_property = bl_call_tree_view_set_property;
  object_class->constructed = bl_call_tree_view_constructed;
  widget_class->map = bl_call_tree_view_map;

  /* a BlCallTreeMode (an int so that .ui files can set it) */
  properties[PROP_MODE] =
    g_param_spec_int ("mode", NULL, NULL,
                      BL_CALL_TREE_TOP_DOWN, BL_CALL_TREE_CALLEES, BL_CALL_TREE_TOP_DOWN,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_NODE] =
    g_param_spec_uint ("selected-node", NULL, NULL,
                       0, G_MAXUINT32, BL_NODE_NONE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * BlCallTreeView::node-activated:
   * @node: the node of the activated row (the heaviest one for merged rows)
   */
  signals[NODE_ACTIVATED] =
    g_signal_new ("node-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "calltreeview");
}

static void
bl_call_tree_view_init (BlCallTreeView *self)
{
  GtkListItemFactory *factory;
  GtkSorter *sorter;

  self->thread = G_MAXUINT;
  self->function = G_MAXUINT32;
  bl_row_slice_init (&self->rows, GTK_WIDGET (self));
  self->metric = BL_METRIC_INVALID;
  self->selected_node = BL_NODE_NONE;
  self->pending_node = BL_NODE_NONE;

  self->filter = GTK_FILTER (gtk_custom_filter_new (filter_row, self, NULL));
  self->scroller = GTK_SCROLLED_WINDOW (gtk_scrolled_window_new ());
  gtk_widget_set_parent (GTK_WIDGET (self->scroller), GTK_WIDGET (self));

  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_reorderable (self->column_view, FALSE);
  gtk_widget_add_css_class (GTK_WIDGET (self->column_view), "data-table");
  g_signal_connect_swapped (self->column_view, "activate", G_CALLBACK (activate_cb), self);
  gtk_scrolled_window_set_child (self->scroller, GTK_WIDGET (self->column_view));

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (name_setup), self);
  g_signal_connect (factory, "bind", G_CALLBACK (name_bind), self);
  self->name_column = gtk_column_view_column_new (_("Function"), factory);
  gtk_column_view_column_set_expand (self->name_column, TRUE);
  gtk_column_view_column_set_fixed_width (self->name_column, 280);
  gtk_column_view_column_set_resizable (self->name_column, TRUE);
  sorter = GTK_SORTER (gtk_custom_sorter_new (compare_names, self, NULL));
  gtk_column_view_column_set_sorter (self->name_column, sorter);
  g_object_unref (sorter);
  gtk_column_view_append_column (self->column_view, self->name_column);
  g_object_unref (self->name_column);

  self->column_menu = g_menu_new ();
  gtk_column_view_column_set_header_menu (self->name_column, G_MENU_MODEL (self->column_menu));
  g_signal_connect_object (gtk_column_view_get_sorter (self->column_view), "changed",
                           G_CALLBACK (sorter_changed_cb), self, G_CONNECT_SWAPPED);

  {
    GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
    g_autoptr(GSettingsSchema) schema = NULL;

    if (source != NULL &&
        (schema = g_settings_schema_source_lookup (source, BASE_ID, TRUE)) != NULL &&
        g_settings_schema_has_key (schema, "table-columns"))
      self->settings = g_settings_new (BASE_ID);
  }
}

GtkWidget *
bl_call_tree_view_new (BlCallTreeMode mode)
{
  return g_object_new (BL_TYPE_CALL_TREE_VIEW, "mode", mode, NULL);
}

BlCallTreeMode
bl_call_tree_view_get_mode (BlCallTreeView *self)
{
  g_return_val_if_fail (BL_IS_CALL_TREE_VIEW (self), BL_CALL_TREE_TOP_DOWN);

  return self->mode;
}

/**
 * bl_call_tree_view_set_profile:
 * @thread: a thread index, or G_MAXUINT for all threads
 */
void
bl_call_tree_view_set_profile (BlCallTreeView *self,
                               BlProfile      *profile,
                               guint           thread)
{
  gboolean new_profile;

  g_return_if_fail (BL_IS_CALL_TREE_VIEW (self));
  g_return_if_fail (!profile || BL_IS_PROFILE (profile));

  new_profile = g_set_object (&self->profile, profile);
  if (!new_profile && thread == self->thread)
    return;

  self->thread = thread;
  if (new_profile)
    {
      for (guint i = 0; i < G_N_ELEMENTS (self->probe); i++)
        {
          g_clear_object (&self->probe[i]);
          if (profile != NULL && bl_profile_get_n_threads (profile) > 0)
            self->probe[i] = bl_profile_node_new_call (profile,
                                                       bl_profile_get_thread_root (profile, 0));
        }
      self->function = G_MAXUINT32;
      if (profile != NULL && !bl_profile_has_metric (profile, self->metric))
        self->metric = bl_profile_get_default_metric (profile);
      self->columns_pending = TRUE;
      if (needs_columns (self))
        ensure_columns (self);
    }
  update_denominators (self);
  rebuild_model (self);
}

void
bl_call_tree_view_set_function (BlCallTreeView *self,
                                guint32         function)
{
  g_return_if_fail (BL_IS_CALL_TREE_VIEW (self));

  if (self->function == function)
    return;

  self->function = function;
  rebuild_model (self);
}

void
bl_call_tree_view_set_metric (BlCallTreeView *self,
                              BlMetricId      metric)
{
  g_return_if_fail (BL_IS_CALL_TREE_VIEW (self));

  if (self->metric == metric)
    return;

  self->metric = metric;
  /* columns still to be made are made with this metric first */
  if (!self->columns_pending)
    sort_for_metric (self);
}

/**
 * bl_call_tree_view_set_match_filter:
 * @nodes: (nullable): one byte per node, non-zero for a node on a matching stack
 * @functions: (nullable): one byte per function, non-zero for a function
 *   with a node on a matching stack
 *
 * Shows only the rows on matching stacks; %NULL shows every row again.
 */
void
bl_call_tree_view_set_match_filter (BlCallTreeView *self,
                                    GBytes         *nodes,
                                    GBytes         *functions)
{
  g_return_if_fail (BL_IS_CALL_TREE_VIEW (self));

  if (self->match_nodes == nodes && self->match_functions == functions)
    return;

  g_clear_pointer (&self->match_nodes, g_bytes_unref);
  g_clear_pointer (&self->match_functions, g_bytes_unref);
  if (nodes != NULL && functions != NULL)
    {
      self->match_nodes = g_bytes_ref (nodes);
      self->match_functions = g_bytes_ref (functions);
    }
  gtk_filter_changed (self->filter, GTK_FILTER_CHANGE_DIFFERENT);
}

guint32
bl_call_tree_view_get_selected_node (BlCallTreeView *self)
{
  g_return_val_if_fail (BL_IS_CALL_TREE_VIEW (self), BL_NODE_NONE);

  return self->selected_node;
}

guint32
bl_call_tree_view_get_selected_function (BlCallTreeView *self)
{
  gpointer object;

  g_return_val_if_fail (BL_IS_CALL_TREE_VIEW (self), G_MAXUINT32);

  object = gtk_single_selection_get_selected_item (self->selection);
  if (object == NULL)
    return G_MAXUINT32;

  return bl_profile_node_get_function (item_of (object));
}

static GtkWidget *
find_list_view (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      return child;

  return NULL;
}

static gboolean
select_object (BlCallTreeView *self,
               gpointer        wanted)
{
  GListModel *model = G_LIST_MODEL (self->selection);
  guint n;

  bl_row_slice_show_all (&self->rows);
  n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) object = g_list_model_get_item (model, i);

      if (object == wanted)
        {
          GtkWidget *list_view;

          self->updating = TRUE;
          gtk_single_selection_set_selected (self->selection, i);
          self->updating = FALSE;

          list_view = find_list_view (GTK_WIDGET (self->column_view));
          if (list_view != NULL)
            gtk_widget_activate_action (list_view, "list.scroll-to-item", "u", i);
          return TRUE;
        }
    }

  return FALSE;
}

static void
unselect (BlCallTreeView *self)
{
  self->updating = TRUE;
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  self->updating = FALSE;
}

/**
 * bl_call_tree_view_select_node:
 *
 * Selects the row for @node without notifying: in the top-down tree the
 * node's own row (expanding its ancestors), elsewhere the row of its
 * function.
 *
 * Returns: whether a row was selected
 */
gboolean
bl_call_tree_view_select_node (BlCallTreeView *self,
                               guint32         node)
{
  g_return_val_if_fail (BL_IS_CALL_TREE_VIEW (self), FALSE);

  /* rows still being made: select when they arrive */
  self->pending_node = node;
  if (self->loading)
    return FALSE;

  if (self->profile == NULL || node >= bl_profile_get_n_nodes (self->profile))
    {
      unselect (self);
      self->selected_node = BL_NODE_NONE;
      return FALSE;
    }

  if (self->mode == BL_CALL_TREE_TOP_DOWN)
    {
      g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_autoptr(GtkTreeListRow) row = NULL;
      guint n_roots = g_list_model_get_n_items (self->roots);

      for (guint32 n = node; n != BL_NODE_NONE; n = bl_profile_get_node (self->profile, n)->parent)
        g_array_prepend_val (path, n);

      for (guint i = 0; i < n_roots && row == NULL; i++)
        {
          g_autoptr(GtkTreeListRow) r = gtk_tree_list_model_get_child_row (self->tree, i);
          g_autoptr(BlProfileNode) item = gtk_tree_list_row_get_item (r);

          if (bl_profile_node_get_node (item) == g_array_index (path, guint32, 0))
            row = g_steal_pointer (&r);
        }

      for (guint k = 1; k < path->len && row != NULL; k++)
        {
          guint32 want = g_array_index (path, guint32, k);
          g_autoptr(GtkTreeListRow) next = NULL;
          GListModel *children;

          gtk_tree_list_row_set_expanded (row, TRUE);
          children = gtk_tree_list_row_get_children (row);
          if (children != NULL)
            for (guint i = 0; i < g_list_model_get_n_items (children) && next == NULL; i++)
              {
                g_autoptr(BlProfileNode) item = g_list_model_get_item (children, i);

                if (bl_profile_node_get_node (item) == want)
                  next = gtk_tree_list_row_get_child_row (row, i);
              }
          g_clear_object (&row);
          row = g_steal_pointer (&next);
        }

      if (row != NULL && select_object (self, row))
        {
          self->selected_node = node;
          return TRUE;
        }
    }
  else
    {
      guint32 function = bl_profile_get_node_function (self->profile, node);
      GListModel *model = G_LIST_MODEL (self->selection);
      guint n;

      bl_row_slice_show_all (&self->rows);
      n = g_list_model_get_n_items (model);

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(GObject) object = g_list_model_get_item (model, i);

          if (GTK_IS_TREE_LIST_ROW (object) &&
              gtk_tree_list_row_get_depth (GTK_TREE_LIST_ROW (object)) > 0)
            continue;
          if (bl_profile_node_get_function (item_of (object)) == function)
            {
              select_object (self, object);
              self->selected_node = bl_profile_node_get_node (item_of (object));
              return TRUE;
            }
        }
    }

  unselect (self);
  self->selected_node = BL_NODE_NONE;
  return FALSE;
}

/**
 * bl_call_tree_view_get_model:
 *
 * Returns: (transfer none): the sorted list of rows the table shows
 */
GListModel *
bl_call_tree_view_get_model (BlCallTreeView *self)
{
  g_return_val_if_fail (BL_IS_CALL_TREE_VIEW (self), NULL);

  /* every row: positions in it are the table's */
  bl_row_slice_show_all (&self->rows);

  return G_LIST_MODEL (self->selection);
}

/**
 * bl_call_tree_view_set_held:
 *
 * While @held, a table that is not shown makes no rows: what it is asked
 * for waits (the table stays loading) until it is released or shown, so
 * that the view the user sees is computed first, without these workers
 * competing with it for the processor. Its old rows stay bound, hidden,
 * until then: they are taken down when it is released.
 */
void
bl_call_tree_view_set_held (BlCallTreeView *self,
                            gboolean        held)
{
  g_return_if_fail (BL_IS_CALL_TREE_VIEW (self));

  self->held = !!held;
  if (self->held)
    return;
  ensure_columns (self);
  if (self->rebuild_pending)
    rebuild_model (self);
  else if (!gtk_widget_get_mapped (GTK_WIDGET (self)) &&
           gtk_column_view_get_model (self->column_view) != GTK_SELECTION_MODEL (self->selection))
    gtk_column_view_set_model (self->column_view, NULL);  /* the rows kept while held */
}

/**
 * bl_call_tree_view_get_waiting:
 *
 * Whether rows were asked for while the table was held and hidden, and wait.
 */
gboolean
bl_call_tree_view_get_waiting (BlCallTreeView *self)
{
  g_return_val_if_fail (BL_IS_CALL_TREE_VIEW (self), FALSE);

  return self->rebuild_pending;
}

/**
 * bl_call_tree_view_get_loading:
 *
 * Returns: whether the rows are still being made in a worker
 */
gboolean
bl_call_tree_view_get_loading (BlCallTreeView *self)
{
  g_return_val_if_fail (BL_IS_CALL_TREE_VIEW (self), FALSE);

  return self->loading;
}

GtkColumnView *
bl_call_tree_view_get_column_view (BlCallTreeView *self)
{
  g_return_val_if_fail (BL_IS_CALL_TREE_VIEW (self), NULL);

  ensure_columns (self);
  return self->column_view;
}
