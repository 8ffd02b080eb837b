/* bl-heap-object-list.c
 *
 * The dominator tree's rows at one level, or a group of new objects: an
 * array of object indexes that the heap index (or the comparison) owns.
 * Items are made when GTK asks for them, so a level of a million objects
 * costs nothing until scrolled through.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-heap-object-list"

#include "config.h"

#include "bl-heap-object-list.h"

struct _BlHeapObjectList
{
  GObject        parent_instance;

  GObject       *owner;
  BlHeap        *heap;
  BlHeapIndex   *index;
  const guint32 *objects;
  guint32        n_objects;
  BlHeapStep    *steps;      /* owned; instead of objects for a retainer path */
};

static GType
bl_heap_object_list_get_item_type (GListModel *model)
{
  return BL_TYPE_HEAP_ITEM;
}

static guint
bl_heap_object_list_get_n_items (GListModel *model)
{
  BlHeapObjectList *self = BL_HEAP_OBJECT_LIST (model);

  /* a retainer path shows every step: it is not a tree level */
  if (self->steps != NULL || self->n_objects <= BL_HEAP_OBJECT_LIST_MAX_ROWS)
    return self->n_objects;

  return BL_HEAP_OBJECT_LIST_MAX_ROWS + 1;
}

static gpointer
bl_heap_object_list_get_item (GListModel *model,
                              guint       position)
{
  BlHeapObjectList *self = BL_HEAP_OBJECT_LIST (model);

  if (position >= bl_heap_object_list_get_n_items (model))
    return NULL;
  if (self->steps == NULL && position == BL_HEAP_OBJECT_LIST_MAX_ROWS)
    return bl_heap_item_new (BL_HEAP_ITEM_MORE, self->owner, self->heap, NULL,
                             self->n_objects - BL_HEAP_OBJECT_LIST_MAX_ROWS);

  if (self->steps != NULL)
    {
      BlHeapItem *step = bl_heap_item_new (BL_HEAP_ITEM_STEP, self->owner, self->heap, self->index,
                                           self->steps[position].object);

      bl_heap_item_set_field (step, self->steps[position].field);
      return step;
    }

  return bl_heap_item_new (BL_HEAP_ITEM_OBJECT, self->owner, self->heap, self->index,
                           self->objects[position]);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = bl_heap_object_list_get_item_type;
  iface->get_n_items = bl_heap_object_list_get_n_items;
  iface->get_item = bl_heap_object_list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (BlHeapObjectList, bl_heap_object_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
bl_heap_object_list_finalize (GObject *object)
{
  BlHeapObjectList *self = (BlHeapObjectList *) object;

  g_clear_object (&self->owner);
  g_clear_pointer (&self->index, bl_heap_index_unref);
  g_clear_pointer (&self->steps, g_free);

  G_OBJECT_CLASS (bl_heap_object_list_parent_class)->finalize (object);
}

static void
bl_heap_object_list_class_init (BlHeapObjectListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = bl_heap_object_list_finalize;
}

static void
bl_heap_object_list_init (BlHeapObjectList *self)
{
}

/**
 * bl_heap_object_list_new:
 *
 * Returns: (transfer full): the list
 */
GListModel *
bl_heap_object_list_new (GObject       *owner,
                         BlHeap        *heap,
                         BlHeapIndex   *index,
                         const guint32 *objects,
                         guint32        n_objects)
{
  BlHeapObjectList *self;

  g_return_val_if_fail (heap != NULL, NULL);
  g_return_val_if_fail (objects != NULL || n_objects == 0, NULL);

  self = g_object_new (BL_TYPE_HEAP_OBJECT_LIST, NULL);
  self->owner = owner != NULL ? g_object_ref (owner) : NULL;
  self->heap = heap;
  self->index = index != NULL ? bl_heap_index_ref (index) : NULL;
  self->objects = objects;
  self->n_objects = n_objects;

  return G_LIST_MODEL (self);
}

/**
 * bl_heap_object_list_new_children:
 *
 * Returns: (transfer full) (nullable): the children, %NULL for none
 */
GListModel *
bl_heap_object_list_new_children (GObject     *owner,
                                  BlHeapIndex *index,
                                  guint32      parent)
{
  const guint32 *children;
  guint32 n;

  g_return_val_if_fail (index != NULL, NULL);

  n = bl_heap_index_get_children (index, parent, &children);
  if (n == 0)
    return NULL;

  return bl_heap_object_list_new (owner, bl_heap_index_get_heap (index), index, children, n);
}

/**
 * bl_heap_object_list_new_steps:
 * @steps: (transfer full): the path, as bl_heap_index_dup_retainer_path() gives it
 *
 * Returns: (transfer full): the list
 */
GListModel *
bl_heap_object_list_new_steps (GObject     *owner,
                               BlHeapIndex *index,
                               BlHeapStep  *steps,
                               guint32      n_steps)
{
  BlHeapObjectList *self;

  g_return_val_if_fail (index != NULL, NULL);

  self = g_object_new (BL_TYPE_HEAP_OBJECT_LIST, NULL);
  self->owner = owner != NULL ? g_object_ref (owner) : NULL;
  self->heap = bl_heap_index_get_heap (index);
  self->index = bl_heap_index_ref (index);
  self->steps = steps;
  self->n_objects = n_steps;

  return G_LIST_MODEL (self);
}
