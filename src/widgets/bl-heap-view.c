/* bl-heap-view.c
 *
 * The Heap page of a profile that carries heap snapshots (a Perfetto
 * trace's heap graphs, a DevTools heap snapshot). A snapshot is indexed in
 * a worker (dominator children, retainers: bl-heap-index.c) while the page
 * shows the progress; then it shows the types (count, self and retained
 * bytes; sortable, largest retained first, filtered by name), the
 * dominator tree (each level made when opened), the leak cycles, and under
 * them the retainer path of the selected object back to the root set.
 * Lists are column views over models that make a row object only for the
 * rows on screen, so millions of objects cost their indexes only.
 * "Compare with…" shows two snapshots of the same file compared.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-heap-view"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <inttypes.h>

#include "bl-heap-columns.h"
#include "bl-heap-compare-view.h"
#include "bl-heap-object-list.h"
#include "bl-metric.h"

#include "bl-heap-view.h"

#define PROGRESS_INTERVAL_MS 100
/* Opening the dominator tree down to an object opens each of its
 * dominators: deeper than this (a linked list of a million links) the
 * object is not looked for in the tree, and only its retainer path shows. */
#define MAX_OPEN_DEPTH 512

struct _BlHeapView
{
  GtkWidget            parent_instance;

  BlProfile           *profile;
  guint                snapshot;
  guint                compare_with;
  GPtrArray           *indexes;        /* BlHeapIndex per snapshot, NULL until built */
  GCancellable        *cancellable;
  GTask               *building;
  guint                progress_source;
  gboolean             ready;
  gboolean             syncing;
  gboolean             paned_fitted;
  guint32              selected;
  char                *summary;
  char                *filter_text;    /* casefolded, NULL: all */
  GArray              *compare_map;    /* compare dropdown position - 1 → snapshot */

  GListStore          *types_store;
  GtkFilter           *types_filter;
  GListModel          *types_model;
  GtkTreeListModel    *tree;
  GtkSingleSelection  *tree_selection;
  GListStore          *cycles_store;
  GtkNoSelection      *path_selection;  /* over the path's steps, made lazily */
  GtkColumnViewColumn *retained_column;

  /* template */
  GtkDropDown         *snapshot_dropdown;
  GtkDropDown         *compare_dropdown;
  GtkLabel            *summary_label;
  GtkStack            *state_stack;
  AdwStatusPage       *building_page;
  GtkProgressBar      *progress_bar;
  GtkPaned            *paned;
  GtkStack            *page_stack;
  GtkSearchEntry      *type_filter;
  GtkColumnView       *types_view;
  GtkColumnView       *tree_view;
  GtkCheckButton      *hide_global_button;
  GtkStack            *cycles_stack;
  GtkLabel            *cycles_skipped_label;
  GtkColumnView       *cycles_view;
  GtkLabel            *path_title;
  GtkStack            *path_stack;
  GtkLabel            *path_hint;
  GtkColumnView       *path_view;
  BlHeapCompareView   *compare_view;
};

enum {
  PROP_0,
  PROP_READY,
  PROP_SELECTED_OBJECT,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (BlHeapView, bl_heap_view, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

typedef struct
{
  BlProfile *profile;
  BlHeap    *heap;
  guint      snapshot;
  int        progress;
} BuildData;

static void
build_data_free (BuildData *data)
{
  g_clear_object (&data->profile);
  g_free (data);
}

static BlHeap *
current_heap (BlHeapView *self)
{
  if (self->profile == NULL || self->snapshot >= bl_profile_get_n_heaps (self->profile))
    return NULL;

  return bl_profile_get_heap (self->profile, self->snapshot);
}

static BlHeapIndex *
current_index (BlHeapView *self)
{
  if (self->indexes == NULL || self->snapshot >= self->indexes->len)
    return NULL;

  return g_ptr_array_index (self->indexes, self->snapshot);
}

static char *
dup_snapshot_label (BlProfile *profile,
                    guint      snapshot)
{
  const char *label = bl_profile_get_heap_label (profile, snapshot);

  if (label != NULL && label[0] != '\0')
    return g_strdup (label);

  /* Translators: a heap snapshot without a name of its own, "Snapshot 2" */
  return g_strdup_printf (_("Snapshot %u"), snapshot + 1);
}

static void
set_ready (BlHeapView *self,
           gboolean    ready)
{
  if (self->ready == ready)
    return;

  self->ready = ready;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
}

/* ---- the retainer path ------------------------------------------------- */

static void
update_path (BlHeapView *self)
{
  BlHeapIndex *index = current_index (self);
  BlHeap *heap = current_heap (self);
  g_autofree BlHeapStep *steps = NULL;
  g_autofree char *title = NULL;
  g_autoptr(GListModel) path = NULL;
  guint n_steps = 0;
  guint32 type;

  gtk_no_selection_set_model (self->path_selection, NULL);

  if (index == NULL || heap == NULL || self->selected == BL_HEAP_NONE)
    {
      gtk_label_set_text (self->path_title, _("Retainers"));
      gtk_label_set_text (self->path_hint,
                          _("Select an object to see how it is held from a root."));
      gtk_stack_set_visible_child_name (self->path_stack, "hint");
      return;
    }

  /* Translators: the title over an object's retainer path, "Retainers of Node #42" */
  type = bl_heap_get_object_type (heap, self->selected);
  title = g_strdup_printf (_("Retainers of %s #%" PRIu64), bl_heap_get_type_name (heap, type),
                           (uint64_t) bl_heap_get_object_id (heap, self->selected));
  gtk_label_set_text (self->path_title, title);

  steps = bl_heap_index_dup_retainer_path (index, self->selected, &n_steps);
  if (steps == NULL)
    {
      gtk_label_set_text (self->path_hint, _("Nothing reachable from a root holds this object."));
      gtk_stack_set_visible_child_name (self->path_stack, "hint");
      return;
    }

  /* a path can be a million steps long: its rows are made when shown */
  path = bl_heap_object_list_new_steps (G_OBJECT (self->profile), index,
                                        g_steal_pointer (&steps), n_steps);
  gtk_no_selection_set_model (self->path_selection, path);
  gtk_stack_set_visible_child_name (self->path_stack, "path");
}

static void
set_selected (BlHeapView *self,
              guint32     object)
{
  if (self->selected == object)
    return;

  self->selected = object;
  update_path (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_OBJECT]);
}

static void
tree_selection_changed_cb (BlHeapView *self)
{
  GtkTreeListRow *row;
  g_autoptr(BlHeapItem) item = NULL;

  if (self->syncing)
    return;

  row = gtk_single_selection_get_selected_item (self->tree_selection);
  if (row == NULL)
    return;
  item = gtk_tree_list_row_get_item (row);
  if (bl_heap_item_get_kind (item) == BL_HEAP_ITEM_OBJECT)
    set_selected (self, bl_heap_item_get_id (item));
}

/* ---- lists --------------------------------------------------------------- */

static gboolean
type_matches (gpointer item,
              gpointer user_data)
{
  BlHeapView *self = user_data;
  g_autofree char *name = NULL;

  if (self->filter_text == NULL)
    return TRUE;

  name = g_utf8_casefold (bl_heap_get_type_name (bl_heap_item_get_heap (item),
                                                 bl_heap_item_get_id (item)), -1);

  return strstr (name, self->filter_text) != NULL;
}

static void
type_filter_changed_cb (BlHeapView     *self,
                        GtkSearchEntry *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  g_clear_pointer (&self->filter_text, g_free);
  if (text != NULL && text[0] != '\0')
    self->filter_text = g_utf8_casefold (text, -1);
  gtk_filter_changed (self->types_filter, GTK_FILTER_CHANGE_DIFFERENT);
}

static void
fill_cycles (BlHeapView *self)
{
  BlHeap *heap = current_heap (self);
  gboolean hide = gtk_check_button_get_active (self->hide_global_button);
  const BlHeapCycle *cycles;
  guint n_cycles;

  g_list_store_remove_all (self->cycles_store);
  gtk_widget_set_visible (GTK_WIDGET (self->cycles_skipped_label), FALSE);
  if (heap == NULL || current_index (self) == NULL)
    return;

  if (bl_heap_get_n_cycles_skipped (heap) > 0)
    {
      guint64 skipped = bl_heap_get_n_cycles_skipped (heap);
      g_autofree char *text =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%" PRIu64 " more cycle left out: all cycles together have too many steps to list.",
                                      "%" PRIu64 " more cycles left out: all cycles together have too many steps to list.",
                                      skipped > G_MAXULONG ? G_MAXULONG : (gulong) skipped),
                         skipped);

      gtk_label_set_text (self->cycles_skipped_label, text);
      gtk_widget_set_visible (GTK_WIDGET (self->cycles_skipped_label), TRUE);
    }

  cycles = bl_heap_get_cycles (heap, &n_cycles);
  for (guint i = 0; i < n_cycles; i++)
    {
      g_autoptr(BlHeapItem) item = NULL;

      if (hide && cycles[i].through_global)
        continue;
      item = bl_heap_item_new (BL_HEAP_ITEM_CYCLE, G_OBJECT (self->profile), heap,
                               current_index (self), i);
      g_list_store_append (self->cycles_store, item);
    }
  gtk_stack_set_visible_child_name (self->cycles_stack,
                                    g_list_model_get_n_items (G_LIST_MODEL (self->cycles_store)) > 0
                                    ? "list" : "empty");
}

static void
hide_global_toggled_cb (BlHeapView *self)
{
  fill_cycles (self);
}

static GListModel *
tree_children (gpointer item,
               gpointer user_data)
{
  BlHeapItem *object = item;

  if (bl_heap_item_get_kind (object) != BL_HEAP_ITEM_OBJECT)
    return NULL;

  return bl_heap_object_list_new_children (bl_heap_item_get_owner (object),
                                           bl_heap_item_get_index (object),
                                           bl_heap_item_get_id (object));
}

static void
update_summary (BlHeapView *self)
{
  BlHeap *heap = current_heap (self);
  g_autofree char *bytes = NULL;
  g_autofree char *leaked_bytes = NULL;
  g_autofree char *objects = NULL;
  g_autofree char *leaked = NULL;

  g_clear_pointer (&self->summary, g_free);
  if (heap != NULL)
    {
      guint32 n = bl_heap_get_n_objects (heap);
      guint32 n_leaked = bl_heap_get_n_leaked (heap);

      bytes = bl_format_bytes (bl_heap_get_total_bytes (heap));
      leaked_bytes = bl_format_bytes (bl_heap_get_leaked_bytes (heap));
      objects = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u object", "%u objects", n), n);
      leaked = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u leaked object",
                                             "%u leaked objects", n_leaked), n_leaked);
      /* Translators: the heap summary, "120 objects, 4.0 kB · 6 leaked objects, 60 bytes" */
      self->summary = g_strdup_printf (_("%s, %s · %s, %s"), objects, bytes, leaked, leaked_bytes);
    }
  gtk_label_set_text (self->summary_label, self->summary ? self->summary : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->summary_label), self->summary);
}

static void
show_index (BlHeapView *self)
{
  BlHeapIndex *index = current_index (self);
  BlHeap *heap = current_heap (self);
  const guint32 *types;
  guint32 n_types;
  GListModel *top;

  g_assert (index != NULL && heap != NULL);

  self->syncing = TRUE;
  g_list_store_remove_all (self->types_store);
  n_types = bl_heap_index_get_types (index, &types);
  for (guint32 i = 0; i < n_types; i++)
    {
      g_autoptr(BlHeapItem) item = bl_heap_item_new (BL_HEAP_ITEM_TYPE, G_OBJECT (self->profile),
                                                     heap, index, types[i]);

      g_list_store_append (self->types_store, item);
    }

  top = bl_heap_object_list_new_children (G_OBJECT (self->profile), index, BL_HEAP_NONE);
  if (top == NULL)
    top = G_LIST_MODEL (g_list_store_new (BL_TYPE_HEAP_ITEM));
  g_clear_object (&self->tree);
  self->tree = gtk_tree_list_model_new (top, FALSE, FALSE, tree_children, NULL, NULL);
  gtk_single_selection_set_model (self->tree_selection, G_LIST_MODEL (self->tree));
  gtk_single_selection_set_selected (self->tree_selection, GTK_INVALID_LIST_POSITION);
  self->syncing = FALSE;

  fill_cycles (self);
  update_summary (self);
  self->selected = BL_HEAP_NONE;
  update_path (self);

  gtk_stack_set_visible_child_name (self->state_stack,
                                    self->compare_with != G_MAXUINT ? "compare" : "heap");
  set_ready (self, TRUE);
}

/* ---- building -------------------------------------------------------------- */

static gboolean
update_progress (gpointer user_data)
{
  BlHeapView *self = user_data;
  BuildData *data;

  if (self->building == NULL)
    return G_SOURCE_CONTINUE;

  data = g_task_get_task_data (self->building);
  gtk_progress_bar_set_fraction (self->progress_bar, g_atomic_int_get (&data->progress) / 1000.0);

  return G_SOURCE_CONTINUE;
}

static void
build_worker (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  BuildData *data = task_data;
  /* the heap's analysis (done once per heap, left by the readers to its
   * first use: bl_heap_analyse), then the view's index of it, the progress
   * bar going through both */
  BlHeapIndex *index = bl_heap_index_new (data->heap, cancellable, &data->progress);

  if (index == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  else
    g_task_return_pointer (task, index, (GDestroyNotify) bl_heap_index_unref);
}

static void
build_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  BlHeapView *self = BL_HEAP_VIEW (source);
  BuildData *data = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  BlHeapIndex *index;

  index = g_task_propagate_pointer (G_TASK (result), &error);
  if (index == NULL)
    return;   /* cancelled: another snapshot or profile, or the view went */

  if (self->building == G_TASK (result))
    {
      g_clear_object (&self->building);
      g_clear_handle_id (&self->progress_source, g_source_remove);
    }

  if (data->profile != self->profile || data->snapshot >= self->indexes->len)
    {
      bl_heap_index_unref (index);
      return;
    }
  g_clear_pointer (&g_ptr_array_index (self->indexes, data->snapshot), bl_heap_index_unref);
  g_ptr_array_index (self->indexes, data->snapshot) = index;

  if (data->snapshot == self->snapshot)
    show_index (self);
}

static void
start_build (BlHeapView *self)
{
  g_autoptr(GTask) task = NULL;
  BuildData *data;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->building);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  set_ready (self, FALSE);

  if (current_heap (self) == NULL)
    return;
  if (current_index (self) != NULL)
    {
      show_index (self);
      return;
    }

  self->cancellable = g_cancellable_new ();
  data = g_new0 (BuildData, 1);
  data->profile = g_object_ref (self->profile);
  data->heap = current_heap (self);
  data->snapshot = self->snapshot;

  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_stack_set_visible_child_name (self->state_stack, "building");

  task = g_task_new (self, self->cancellable, build_done_cb, NULL);
  g_task_set_source_tag (task, start_build);
  g_task_set_task_data (task, data, (GDestroyNotify) build_data_free);
  self->building = g_object_ref (task);
  self->progress_source = g_timeout_add (PROGRESS_INTERVAL_MS, update_progress, self);
  g_task_run_in_thread (task, build_worker);
}

/* ---- snapshots ------------------------------------------------------------- */

static void
update_compare_dropdown (BlHeapView *self)
{
  g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);
  guint n = self->profile != NULL ? bl_profile_get_n_heaps (self->profile) : 0;
  guint selected = 0;

  g_array_set_size (self->compare_map, 0);
  /* Translators: the "Compare with" choice that compares nothing */
  gtk_string_list_append (labels, _("No Comparison"));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *label = NULL;
      g_autofree char *text = NULL;

      if (i == self->snapshot)
        continue;
      label = dup_snapshot_label (self->profile, i);
      /* Translators: a "Compare with" choice, "Compare with Snapshot 2" */
      text = g_strdup_printf (_("Compare with %s"), label);
      gtk_string_list_append (labels, text);
      g_array_append_val (self->compare_map, i);
      if (i == self->compare_with)
        selected = self->compare_map->len;
    }

  self->syncing = TRUE;
  gtk_drop_down_set_model (self->compare_dropdown, G_LIST_MODEL (labels));
  gtk_drop_down_set_selected (self->compare_dropdown, selected);
  self->syncing = FALSE;
  gtk_widget_set_visible (GTK_WIDGET (self->compare_dropdown), n > 1);
}

static void
show_comparison (BlHeapView *self)
{
  guint a, b;
  g_autofree char *label_a = NULL;
  g_autofree char *label_b = NULL;

  if (self->compare_with == G_MAXUINT)
    {
      if (self->ready)
        gtk_stack_set_visible_child_name (self->state_stack, "heap");
      return;
    }

  /* the earlier capture is A: what is new is what the later one added */
  a = MIN (self->snapshot, self->compare_with);
  b = MAX (self->snapshot, self->compare_with);
  label_a = dup_snapshot_label (self->profile, a);
  label_b = dup_snapshot_label (self->profile, b);
  bl_heap_compare_view_set_heaps (self->compare_view,
                                  G_OBJECT (self->profile), bl_profile_get_heap (self->profile, a),
                                  label_a,
                                  G_OBJECT (self->profile), bl_profile_get_heap (self->profile, b),
                                  label_b);
  if (self->ready)
    gtk_stack_set_visible_child_name (self->state_stack, "compare");
}

static void
snapshot_selected_cb (BlHeapView *self)
{
  guint i = gtk_drop_down_get_selected (self->snapshot_dropdown);

  if (self->syncing || i == GTK_INVALID_LIST_POSITION)
    return;

  bl_heap_view_set_snapshot (self, i);
}

static void
compare_selected_cb (BlHeapView *self)
{
  guint i = gtk_drop_down_get_selected (self->compare_dropdown);

  if (self->syncing || i == GTK_INVALID_LIST_POSITION)
    return;

  bl_heap_view_set_compare_with (self,
                                 i == 0 || i > self->compare_map->len
                                 ? G_MAXUINT : g_array_index (self->compare_map, guint, i - 1));
}

/* The first allocation gives the lists three fifths of the height and the
 * retainer path the rest; after that the divider stays where it is put. */
static gboolean
fit_paned_tick (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  BlHeapView *self = BL_HEAP_VIEW (widget);
  int height = gtk_widget_get_height (GTK_WIDGET (self->paned));

  if (self->paned_fitted)
    return G_SOURCE_REMOVE;
  if (height <= 0)
    return G_SOURCE_CONTINUE;

  self->paned_fitted = TRUE;
  gtk_paned_set_position (self->paned, height * 3 / 5);

  return G_SOURCE_REMOVE;
}

static void
cycle_activated_cb (BlHeapView *self,
                    guint       position)
{
  bl_heap_view_activate_cycle (self, position);
}

/* ---- GObject --------------------------------------------------------------- */

static void
bl_heap_view_dispose (GObject *object)
{
  BlHeapView *self = (BlHeapView *) object;
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->building);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_HEAP_VIEW);
  /* the template's unnamed children too */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->tree);
  g_clear_object (&self->tree_selection);
  g_clear_object (&self->types_model);
  g_clear_object (&self->types_store);
  g_clear_object (&self->types_filter);
  g_clear_object (&self->cycles_store);
  g_clear_object (&self->path_selection);
  g_clear_pointer (&self->indexes, g_ptr_array_unref);
  g_clear_pointer (&self->compare_map, g_array_unref);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->summary, g_free);
  g_clear_pointer (&self->filter_text, g_free);

  G_OBJECT_CLASS (bl_heap_view_parent_class)->dispose (object);
}

static void
bl_heap_view_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  BlHeapView *self = BL_HEAP_VIEW (object);

  switch (prop_id)
    {
    case PROP_READY:
      g_value_set_boolean (value, self->ready);
      break;
    case PROP_SELECTED_OBJECT:
      g_value_set_uint (value, self->selected);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_heap_view_class_init (BlHeapViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_heap_view_dispose;
  object_class->get_property = bl_heap_view_get_property;

  properties[PROP_READY] =
    g_param_spec_boolean ("ready", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_OBJECT] =
    g_param_spec_uint ("selected-object", NULL, NULL,
                       0, G_MAXUINT32, BL_HEAP_NONE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (BL_TYPE_HEAP_COMPARE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE_PATH "/ui/bl-heap-view.ui");
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, snapshot_dropdown);
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, compare_dropdown);
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, state_stack);
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, building_page);
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, paned);
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, page_stack);
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, type_filter);
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, types_view);
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, tree_view);
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, hide_global_button);
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, cycles_stack);
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, cycles_skipped_label);
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, cycles_view);
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, path_title);
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, path_stack);
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, path_hint);
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, path_view);
  gtk_widget_class_bind_template_child (widget_class, BlHeapView, compare_view);
  gtk_widget_class_bind_template_callback (widget_class, type_filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, hide_global_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, cycle_activated_cb);

  gtk_widget_class_set_css_name (widget_class, "heapview");
}

static void
bl_heap_view_init (BlHeapView *self)
{
  GtkSortListModel *sorted;
  GtkFilterListModel *filtered;
  GtkSelectionModel *selection;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->selected = BL_HEAP_NONE;
  self->compare_with = G_MAXUINT;
  self->compare_map = g_array_new (FALSE, FALSE, sizeof (guint));

  /* types: filtered by name, sorted by the clicked column */
  self->types_store = g_list_store_new (BL_TYPE_HEAP_ITEM);
  bl_heap_column_add (self->types_view, _("Type"), BL_HEAP_COLUMN_NAME, FALSE, TRUE);
  bl_heap_column_add (self->types_view, _("Count"), BL_HEAP_COLUMN_COUNT, FALSE, TRUE);
  bl_heap_column_add (self->types_view, _("Self"), BL_HEAP_COLUMN_SELF, FALSE, TRUE);
  self->retained_column = bl_heap_column_add (self->types_view, _("Retained"),
                                              BL_HEAP_COLUMN_RETAINED, FALSE, TRUE);
  self->types_filter = GTK_FILTER (gtk_custom_filter_new (type_matches, self, NULL));
  filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->types_store)),
                                        g_object_ref (self->types_filter));
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (filtered),
                                    g_object_ref (gtk_column_view_get_sorter (self->types_view)));
  self->types_model = G_LIST_MODEL (sorted);
  /* the views take a reference of their own to the selections made here */
  selection = GTK_SELECTION_MODEL (gtk_single_selection_new (g_object_ref (self->types_model)));
  gtk_column_view_set_model (self->types_view, selection);
  g_clear_object (&selection);
  gtk_column_view_sort_by_column (self->types_view, self->retained_column, GTK_SORT_DESCENDING);

  /* the dominator tree */
  bl_heap_column_add (self->tree_view, _("Object"), BL_HEAP_COLUMN_NAME, TRUE, FALSE);
  bl_heap_column_add (self->tree_view, _("Id"), BL_HEAP_COLUMN_ID, FALSE, FALSE);
  bl_heap_column_add (self->tree_view, _("Self"), BL_HEAP_COLUMN_SELF, FALSE, FALSE);
  bl_heap_column_add (self->tree_view, _("Retained"), BL_HEAP_COLUMN_RETAINED, FALSE, FALSE);
  self->tree_selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->tree_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->tree_selection, TRUE);
  gtk_column_view_set_model (self->tree_view,
                             GTK_SELECTION_MODEL (self->tree_selection));
  g_signal_connect_swapped (self->tree_selection, "notify::selected",
                            G_CALLBACK (tree_selection_changed_cb), self);

  /* the leak cycles */
  self->cycles_store = g_list_store_new (BL_TYPE_HEAP_ITEM);
  /* Translators: a leak cycle's pattern of types and fields */
  bl_heap_column_add (self->cycles_view, _("Cycle"), BL_HEAP_COLUMN_NAME, FALSE, FALSE);
  bl_heap_column_add (self->cycles_view, _("Count"), BL_HEAP_COLUMN_COUNT, FALSE, FALSE);
  selection = GTK_SELECTION_MODEL (gtk_single_selection_new (
                                   G_LIST_MODEL (g_object_ref (self->cycles_store))));
  gtk_column_view_set_model (self->cycles_view, selection);
  g_clear_object (&selection);

  /* the retainer path */
  self->path_selection = gtk_no_selection_new (NULL);
  /* Translators: the field by which the previous object of a retainer path holds this one */
  bl_heap_column_add (self->path_view, _("Via"), BL_HEAP_COLUMN_FIELD, FALSE, FALSE);
  bl_heap_column_add (self->path_view, _("Object"), BL_HEAP_COLUMN_NAME, FALSE, FALSE);
  bl_heap_column_add (self->path_view, _("Id"), BL_HEAP_COLUMN_ID, FALSE, FALSE);
  bl_heap_column_add (self->path_view, _("Retained"), BL_HEAP_COLUMN_RETAINED, FALSE, FALSE);
  gtk_column_view_set_model (self->path_view,
                             GTK_SELECTION_MODEL (self->path_selection));

  gtk_widget_add_tick_callback (GTK_WIDGET (self), fit_paned_tick, NULL, NULL);

  g_signal_connect_swapped (self->snapshot_dropdown, "notify::selected",
                            G_CALLBACK (snapshot_selected_cb), self);
  g_signal_connect_swapped (self->compare_dropdown, "notify::selected",
                            G_CALLBACK (compare_selected_cb), self);
}

GtkWidget *
bl_heap_view_new (void)
{
  return g_object_new (BL_TYPE_HEAP_VIEW, NULL);
}

BlProfile *
bl_heap_view_get_profile (BlHeapView *self)
{
  g_return_val_if_fail (BL_IS_HEAP_VIEW (self), NULL);

  return self->profile;
}

void
bl_heap_view_set_profile (BlHeapView *self,
                          BlProfile  *profile)
{
  g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);
  guint n;

  g_return_if_fail (BL_IS_HEAP_VIEW (self));
  g_return_if_fail (!profile || BL_IS_PROFILE (profile));

  if (!g_set_object (&self->profile, profile))
    return;

  g_clear_pointer (&self->indexes, g_ptr_array_unref);
  n = profile != NULL ? bl_profile_get_n_heaps (profile) : 0;
  self->indexes = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_heap_index_unref);
  g_ptr_array_set_size (self->indexes, n);
  self->snapshot = 0;
  self->compare_with = G_MAXUINT;
  self->selected = BL_HEAP_NONE;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *label = dup_snapshot_label (profile, i);

      gtk_string_list_append (labels, label);
    }
  self->syncing = TRUE;
  gtk_drop_down_set_model (self->snapshot_dropdown, G_LIST_MODEL (labels));
  gtk_drop_down_set_selected (self->snapshot_dropdown, 0);
  self->syncing = FALSE;
  gtk_widget_set_visible (GTK_WIDGET (self->snapshot_dropdown), n > 1);
  update_compare_dropdown (self);
  update_summary (self);

  start_build (self);
}

guint
bl_heap_view_get_snapshot (BlHeapView *self)
{
  g_return_val_if_fail (BL_IS_HEAP_VIEW (self), 0);

  return self->snapshot;
}

void
bl_heap_view_set_snapshot (BlHeapView *self,
                           guint       snapshot)
{
  g_return_if_fail (BL_IS_HEAP_VIEW (self));

  if (self->profile == NULL || snapshot >= bl_profile_get_n_heaps (self->profile) ||
      snapshot == self->snapshot)
    return;

  self->snapshot = snapshot;
  self->selected = BL_HEAP_NONE;
  if (self->compare_with == snapshot)
    self->compare_with = G_MAXUINT;
  self->syncing = TRUE;
  gtk_drop_down_set_selected (self->snapshot_dropdown, snapshot);
  self->syncing = FALSE;
  update_compare_dropdown (self);
  update_summary (self);
  start_build (self);
  show_comparison (self);
}

guint
bl_heap_view_get_compare_with (BlHeapView *self)
{
  g_return_val_if_fail (BL_IS_HEAP_VIEW (self), G_MAXUINT);

  return self->compare_with;
}

void
bl_heap_view_set_compare_with (BlHeapView *self,
                               guint       snapshot)
{
  g_return_if_fail (BL_IS_HEAP_VIEW (self));

  if (self->profile == NULL || snapshot >= bl_profile_get_n_heaps (self->profile) ||
      snapshot == self->snapshot)
    snapshot = G_MAXUINT;
  if (snapshot == self->compare_with)
    return;

  self->compare_with = snapshot;
  update_compare_dropdown (self);
  show_comparison (self);
}

gboolean
bl_heap_view_is_ready (BlHeapView *self)
{
  g_return_val_if_fail (BL_IS_HEAP_VIEW (self), FALSE);

  return self->ready;
}

/**
 * bl_heap_view_get_index:
 *
 * Returns: (transfer none) (nullable): the index of the snapshot shown
 */
BlHeapIndex *
bl_heap_view_get_index (BlHeapView *self)
{
  g_return_val_if_fail (BL_IS_HEAP_VIEW (self), NULL);

  return current_index (self);
}

static void
scroll_to (GtkColumnView *view,
           guint          position)
{
  /* GTK 4.8 has no gtk_column_view_scroll_to(): its list view's action */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (view));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
}

void
bl_heap_view_select_object (BlHeapView *self,
                            guint32     object)
{
  BlHeapIndex *index;
  BlHeap *heap;
  g_autoptr(GArray) chain = NULL;
  g_autoptr(GtkTreeListRow) row = NULL;

  g_return_if_fail (BL_IS_HEAP_VIEW (self));

  index = current_index (self);
  heap = current_heap (self);
  if (index == NULL || heap == NULL || object >= bl_heap_get_n_objects (heap))
    object = BL_HEAP_NONE;

  if (object == BL_HEAP_NONE || !bl_heap_is_reachable (heap, object))
    {
      self->syncing = TRUE;
      gtk_single_selection_set_selected (self->tree_selection, GTK_INVALID_LIST_POSITION);
      self->syncing = FALSE;
      set_selected (self, object);
      return;
    }

  /* open the object's dominators from the top, then select its row */
  chain = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint32 o = object; o != BL_HEAP_NONE && chain->len <= MAX_OPEN_DEPTH;
       o = bl_heap_get_idom (heap, o))
    g_array_append_val (chain, o);
  if (chain->len > MAX_OPEN_DEPTH)
    {
      self->syncing = TRUE;
      gtk_single_selection_set_selected (self->tree_selection, GTK_INVALID_LIST_POSITION);
      self->syncing = FALSE;
      set_selected (self, object);
      return;
    }

  /* from the top level down */
  for (guint i = 0; i < chain->len; i++)
    {
      guint32 o = g_array_index (chain, guint32, chain->len - 1 - i);
      guint32 position = bl_heap_index_get_child_position (index, o);
      GtkTreeListRow *next;

      /* among the smaller objects past the rows of its level: not in the tree */
      if (position >= BL_HEAP_OBJECT_LIST_MAX_ROWS)
        {
          g_clear_object (&row);
          break;
        }

      next = row == NULL ? gtk_tree_list_model_get_child_row (self->tree, position)
                         : gtk_tree_list_row_get_child_row (row, position);
      g_clear_object (&row);
      row = next;
      if (row == NULL)
        break;
      if (i + 1 < chain->len)
        gtk_tree_list_row_set_expanded (row, TRUE);
    }

  if (row != NULL)
    {
      guint position = gtk_tree_list_row_get_position (row);

      self->syncing = TRUE;
      gtk_single_selection_set_selected (self->tree_selection, position);
      self->syncing = FALSE;
      scroll_to (self->tree_view, position);
    }
  else
    {
      self->syncing = TRUE;
      gtk_single_selection_set_selected (self->tree_selection, GTK_INVALID_LIST_POSITION);
      self->syncing = FALSE;
    }
  set_selected (self, object);
}

guint32
bl_heap_view_get_selected_object (BlHeapView *self)
{
  g_return_val_if_fail (BL_IS_HEAP_VIEW (self), BL_HEAP_NONE);

  return self->selected;
}

void
bl_heap_view_activate_cycle (BlHeapView *self,
                             guint       position)
{
  g_autoptr(BlHeapItem) item = NULL;
  const BlHeapCycle *cycles;
  guint n_cycles;
  guint32 id;

  g_return_if_fail (BL_IS_HEAP_VIEW (self));

  item = g_list_model_get_item (G_LIST_MODEL (self->cycles_store), position);
  if (item == NULL)
    return;

  cycles = bl_heap_get_cycles (bl_heap_item_get_heap (item), &n_cycles);
  id = bl_heap_item_get_id (item);
  if (id >= n_cycles)
    return;

  gtk_stack_set_visible_child_name (self->page_stack, "dominators");
  bl_heap_view_select_object (self, cycles[id].example);
}

void
bl_heap_view_set_hide_global (BlHeapView *self,
                              gboolean    hide)
{
  g_return_if_fail (BL_IS_HEAP_VIEW (self));

  gtk_check_button_set_active (self->hide_global_button, hide);
}

void
bl_heap_view_set_type_filter (BlHeapView *self,
                              const char *text)
{
  g_return_if_fail (BL_IS_HEAP_VIEW (self));

  gtk_editable_set_text (GTK_EDITABLE (self->type_filter), text ? text : "");
  /* now, not after the entry's delay */
  type_filter_changed_cb (self, self->type_filter);
}

void
bl_heap_view_focus_filter (BlHeapView *self)
{
  g_return_if_fail (BL_IS_HEAP_VIEW (self));

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->state_stack), "compare") == 0)
    bl_heap_view_set_compare_with (self, G_MAXUINT);
  gtk_stack_set_visible_child_name (self->page_stack, "types");
  gtk_widget_grab_focus (GTK_WIDGET (self->type_filter));
}

const char *
bl_heap_view_get_page (BlHeapView *self)
{
  g_return_val_if_fail (BL_IS_HEAP_VIEW (self), NULL);

  return gtk_stack_get_visible_child_name (self->page_stack);
}

void
bl_heap_view_set_page (BlHeapView *self,
                       const char *page)
{
  g_return_if_fail (BL_IS_HEAP_VIEW (self));

  gtk_stack_set_visible_child_name (self->page_stack, page);
}

const char *
bl_heap_view_get_summary (BlHeapView *self)
{
  g_return_val_if_fail (BL_IS_HEAP_VIEW (self), NULL);

  return self->summary;
}

GListModel *
bl_heap_view_get_types_model (BlHeapView *self)
{
  g_return_val_if_fail (BL_IS_HEAP_VIEW (self), NULL);

  return self->types_model;
}

GListModel *
bl_heap_view_get_tree_model (BlHeapView *self)
{
  g_return_val_if_fail (BL_IS_HEAP_VIEW (self), NULL);

  return G_LIST_MODEL (self->tree);
}

GListModel *
bl_heap_view_get_cycles_model (BlHeapView *self)
{
  g_return_val_if_fail (BL_IS_HEAP_VIEW (self), NULL);

  return G_LIST_MODEL (self->cycles_store);
}

GListModel *
bl_heap_view_get_path_model (BlHeapView *self)
{
  g_return_val_if_fail (BL_IS_HEAP_VIEW (self), NULL);

  /* the selection passes the path's items through, and stays when the path changes */
  return G_LIST_MODEL (self->path_selection);
}

GtkWidget *
bl_heap_view_get_compare_view (BlHeapView *self)
{
  g_return_val_if_fail (BL_IS_HEAP_VIEW (self), NULL);

  return GTK_WIDGET (self->compare_view);
}
