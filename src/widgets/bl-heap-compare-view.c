/* bl-heap-compare-view.c
 *
 * Two snapshots compared, the same figures as `brightlens-cli heap A B`:
 * per type name the objects and self bytes of both and the change, grown
 * first; and the objects of the second whose id the first lacks, grouped
 * by type (a group opens on its objects, largest retained first). The
 * comparison reads both heaps whole, so it is made in a worker.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-heap-compare-view"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "bl-heap-columns.h"
#include "bl-heap-object-list.h"

#include "bl-heap-compare-view.h"

struct _BlHeapCompareView
{
  GtkWidget         parent_instance;

  GCancellable     *cancellable;
  GObject          *holder;       /* keeps both owners and the new objects */
  BlHeap           *heaps[2];
  char             *title;
  gboolean          ready;
  GListModel       *types_model;
  GListModel       *new_model;

  GtkLabel         *title_label;
  GtkStack         *state_stack;
  GtkStack         *page_stack;
  GtkSpinner       *spinner;
  GtkColumnView    *types_view;
  GtkColumnView    *new_view;
};

enum {
  PROP_0,
  PROP_READY,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (BlHeapCompareView, bl_heap_compare_view, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

typedef struct
{
  BlHeap           *a;
  BlHeap           *b;
  BlHeapTypeDelta  *rows;
  guint             n_rows;
  BlHeapNewObjects *fresh;
} Comparison;

static void
comparison_free (Comparison *c)
{
  g_free (c->rows);
  bl_heap_new_objects_free (c->fresh);
  g_free (c);
}

static void
compare_worker (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Comparison *c = task_data;

  c->rows = bl_heap_compare_types (c->a, c->b, &c->n_rows);
  c->fresh = bl_heap_find_new_objects (c->a, c->b, cancellable);
  if (c->fresh == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
      return;
    }
  g_task_return_boolean (task, TRUE);
}

static GListModel *
new_children (gpointer item,
              gpointer user_data)
{
  BlHeapItem *group = item;

  if (bl_heap_item_get_kind (group) != BL_HEAP_ITEM_GROUP)
    return NULL;

  return bl_heap_object_list_new (bl_heap_item_get_owner (group), bl_heap_item_get_heap (group),
                                  NULL,
                                  bl_heap_item_get_group_objects (group) +
                                    bl_heap_item_get_group (group)->first,
                                  bl_heap_item_get_group (group)->n_objects);
}

static void
compare_done_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  BlHeapCompareView *self;
  g_autoptr(GError) error = NULL;
  g_autoptr(GListStore) deltas = NULL;
  g_autoptr(GListStore) groups = NULL;
  GtkTreeListModel *tree;
  GtkSortListModel *sorted;
  GtkSelectionModel *selection;
  Comparison *c;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    return;   /* cancelled: a newer comparison or the view went */

  self = BL_HEAP_COMPARE_VIEW (source);
  c = g_task_get_task_data (G_TASK (result));

  /* the holder owns the new objects the group rows point into */
  g_object_set_data_full (self->holder, "bl-new-objects", g_steal_pointer (&c->fresh),
                          (GDestroyNotify) bl_heap_new_objects_free);
  {
    BlHeapNewObjects *fresh = g_object_get_data (self->holder, "bl-new-objects");

    deltas = g_list_store_new (BL_TYPE_HEAP_ITEM);
    for (guint i = 0; i < c->n_rows; i++)
      {
        g_autoptr(BlHeapItem) item = bl_heap_item_new (BL_HEAP_ITEM_DELTA, self->holder,
                                                       c->b, NULL, i);

        bl_heap_item_set_delta (item, &c->rows[i]);
        g_list_store_append (deltas, item);
      }
    groups = g_list_store_new (BL_TYPE_HEAP_ITEM);
    for (guint i = 0; i < fresh->n_groups; i++)
      {
        g_autoptr(BlHeapItem) item = bl_heap_item_new (BL_HEAP_ITEM_GROUP, self->holder,
                                                       c->b, NULL, i);

        bl_heap_item_set_group (item, &fresh->groups[i], fresh->objects);
        g_list_store_append (groups, item);
      }
  }

  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_steal_pointer (&deltas)),
                                    g_object_ref (gtk_column_view_get_sorter (self->types_view)));
  g_clear_object (&self->types_model);
  self->types_model = G_LIST_MODEL (sorted);
  /* the views take a reference of their own to the selections made here */
  selection = GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (self->types_model)));
  gtk_column_view_set_model (self->types_view, selection);
  g_clear_object (&selection);

  tree = gtk_tree_list_model_new (G_LIST_MODEL (g_steal_pointer (&groups)), FALSE, FALSE,
                                  new_children, NULL, NULL);
  g_clear_object (&self->new_model);
  self->new_model = G_LIST_MODEL (tree);
  selection = GTK_SELECTION_MODEL (gtk_single_selection_new (g_object_ref (self->new_model)));
  gtk_column_view_set_model (self->new_view, selection);
  g_clear_object (&selection);

  gtk_spinner_stop (self->spinner);
  gtk_stack_set_visible_child_name (self->state_stack, "done");
  self->ready = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
}

static void
bl_heap_compare_view_dispose (GObject *object)
{
  BlHeapCompareView *self = (BlHeapCompareView *) object;
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_HEAP_COMPARE_VIEW);
  /* the template's unnamed children too */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->types_model);
  g_clear_object (&self->new_model);
  g_clear_object (&self->holder);
  g_clear_pointer (&self->title, g_free);

  G_OBJECT_CLASS (bl_heap_compare_view_parent_class)->dispose (object);
}

static void
bl_heap_compare_view_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  BlHeapCompareView *self = BL_HEAP_COMPARE_VIEW (object);

  switch (prop_id)
    {
    case PROP_READY:
      g_value_set_boolean (value, self->ready);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_heap_compare_view_class_init (BlHeapCompareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_heap_compare_view_dispose;
  object_class->get_property = bl_heap_compare_view_get_property;

  properties[PROP_READY] =
    g_param_spec_boolean ("ready", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE_PATH "/ui/bl-heap-compare-view.ui");
  gtk_widget_class_bind_template_child (widget_class, BlHeapCompareView, title_label);
  gtk_widget_class_bind_template_child (widget_class, BlHeapCompareView, state_stack);
  gtk_widget_class_bind_template_child (widget_class, BlHeapCompareView, page_stack);
  gtk_widget_class_bind_template_child (widget_class, BlHeapCompareView, spinner);
  gtk_widget_class_bind_template_child (widget_class, BlHeapCompareView, types_view);
  gtk_widget_class_bind_template_child (widget_class, BlHeapCompareView, new_view);

  gtk_widget_class_set_css_name (widget_class, "heapcompareview");
}

static void
bl_heap_compare_view_init (BlHeapCompareView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  bl_heap_column_add (self->types_view, _("Type"), BL_HEAP_COLUMN_NAME, FALSE, TRUE);
  /* Translators: column titles: objects and bytes in the first (A) and
   * second (B) snapshot, and the change */
  bl_heap_column_add (self->types_view, _("Count A"), BL_HEAP_COLUMN_COUNT_A, FALSE, TRUE);
  bl_heap_column_add (self->types_view, _("Count B"), BL_HEAP_COLUMN_COUNT_B, FALSE, TRUE);
  bl_heap_column_add (self->types_view, _("Δ Count"), BL_HEAP_COLUMN_COUNT_DELTA, FALSE, TRUE);
  bl_heap_column_add (self->types_view, _("Bytes A"), BL_HEAP_COLUMN_BYTES_A, FALSE, TRUE);
  bl_heap_column_add (self->types_view, _("Bytes B"), BL_HEAP_COLUMN_BYTES_B, FALSE, TRUE);
  bl_heap_column_add (self->types_view, _("Δ Bytes"), BL_HEAP_COLUMN_BYTES_DELTA, FALSE, TRUE);

  bl_heap_column_add (self->new_view, _("Object"), BL_HEAP_COLUMN_NAME, TRUE, FALSE);
  bl_heap_column_add (self->new_view, _("Id"), BL_HEAP_COLUMN_ID, FALSE, FALSE);
  bl_heap_column_add (self->new_view, _("Count"), BL_HEAP_COLUMN_COUNT, FALSE, FALSE);
  bl_heap_column_add (self->new_view, _("Self"), BL_HEAP_COLUMN_SELF, FALSE, FALSE);
  bl_heap_column_add (self->new_view, _("Retained"), BL_HEAP_COLUMN_RETAINED, FALSE, FALSE);
}

GtkWidget *
bl_heap_compare_view_new (void)
{
  return g_object_new (BL_TYPE_HEAP_COMPARE_VIEW, NULL);
}

void
bl_heap_compare_view_set_heaps (BlHeapCompareView *self,
                                GObject           *owner_a,
                                BlHeap            *a,
                                const char        *label_a,
                                GObject           *owner_b,
                                BlHeap            *b,
                                const char        *label_b)
{
  g_autoptr(GTask) task = NULL;
  Comparison *c;

  g_return_if_fail (BL_IS_HEAP_COMPARE_VIEW (self));
  g_return_if_fail (a != NULL && b != NULL);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  g_clear_object (&self->holder);
  self->holder = g_object_new (G_TYPE_OBJECT, NULL);
  if (owner_a != NULL)
    g_object_set_data_full (self->holder, "bl-owner-a", g_object_ref (owner_a), g_object_unref);
  if (owner_b != NULL)
    g_object_set_data_full (self->holder, "bl-owner-b", g_object_ref (owner_b), g_object_unref);
  self->heaps[0] = a;
  self->heaps[1] = b;

  g_free (self->title);
  /* Translators: two heap snapshots compared, "Snapshot 1 → Snapshot 2" */
  self->title = g_strdup_printf (_("%s → %s"), label_a, label_b);
  gtk_label_set_text (self->title_label, self->title);

  self->ready = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
  gtk_column_view_set_model (self->types_view, NULL);
  gtk_column_view_set_model (self->new_view, NULL);
  g_clear_object (&self->types_model);
  g_clear_object (&self->new_model);
  gtk_spinner_start (self->spinner);
  gtk_stack_set_visible_child_name (self->state_stack, "busy");

  c = g_new0 (Comparison, 1);
  c->a = a;
  c->b = b;
  task = g_task_new (self, self->cancellable, compare_done_cb, NULL);
  g_task_set_source_tag (task, bl_heap_compare_view_set_heaps);
  /* the worker reads both heaps: their owners stay alive with the task */
  g_task_set_task_data (task, c, (GDestroyNotify) comparison_free);
  g_object_set_data_full (G_OBJECT (task), "bl-holder", g_object_ref (self->holder),
                          g_object_unref);
  g_task_run_in_thread (task, compare_worker);
}

gboolean
bl_heap_compare_view_is_ready (BlHeapCompareView *self)
{
  g_return_val_if_fail (BL_IS_HEAP_COMPARE_VIEW (self), FALSE);

  return self->ready;
}

/**
 * bl_heap_compare_view_get_types_model:
 *
 * Returns: (transfer none) (nullable): the types compared, as shown
 */
GListModel *
bl_heap_compare_view_get_types_model (BlHeapCompareView *self)
{
  g_return_val_if_fail (BL_IS_HEAP_COMPARE_VIEW (self), NULL);

  return self->types_model;
}

/**
 * bl_heap_compare_view_get_new_model:
 *
 * Returns: (transfer none) (nullable): the new objects' rows (GtkTreeListRow)
 */
GListModel *
bl_heap_compare_view_get_new_model (BlHeapCompareView *self)
{
  g_return_val_if_fail (BL_IS_HEAP_COMPARE_VIEW (self), NULL);

  return self->new_model;
}

const char *
bl_heap_compare_view_get_title (BlHeapCompareView *self)
{
  g_return_val_if_fail (BL_IS_HEAP_COMPARE_VIEW (self), NULL);

  return self->title;
}
