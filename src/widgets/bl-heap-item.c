/* bl-heap-item.c
 *
 * A small object over an index into a heap, made only for the rows a list
 * shows: a heap of millions of objects never has millions of these.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-heap-item"

#include "config.h"

#include "bl-heap-item.h"

struct _BlHeapItem
{
  GObject          parent_instance;

  BlHeapItemKind   kind;
  GObject         *owner;
  BlHeap          *heap;
  BlHeapIndex     *index;
  guint32          id;
  guint32          field;
  BlHeapTypeDelta  delta;
  BlHeapNewGroup   group;
  const guint32   *group_objects;   /* owned with the new objects, kept by owner */
};

G_DEFINE_FINAL_TYPE (BlHeapItem, bl_heap_item, G_TYPE_OBJECT)

static void
bl_heap_item_finalize (GObject *object)
{
  BlHeapItem *self = (BlHeapItem *) object;

  g_clear_object (&self->owner);
  g_clear_pointer (&self->index, bl_heap_index_unref);

  G_OBJECT_CLASS (bl_heap_item_parent_class)->finalize (object);
}

static void
bl_heap_item_class_init (BlHeapItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = bl_heap_item_finalize;
}

static void
bl_heap_item_init (BlHeapItem *self)
{
  self->field = BL_HEAP_NONE;
}

BlHeapItem *
bl_heap_item_new (BlHeapItemKind  kind,
                  GObject        *owner,
                  BlHeap         *heap,
                  BlHeapIndex    *index,
                  guint32         id)
{
  BlHeapItem *self;

  g_return_val_if_fail (heap != NULL, NULL);

  self = g_object_new (BL_TYPE_HEAP_ITEM, NULL);
  self->kind = kind;
  self->owner = owner != NULL ? g_object_ref (owner) : NULL;
  self->heap = heap;
  self->index = index != NULL ? bl_heap_index_ref (index) : NULL;
  self->id = id;

  return self;
}

BlHeapItemKind
bl_heap_item_get_kind (BlHeapItem *self)
{
  g_return_val_if_fail (BL_IS_HEAP_ITEM (self), BL_HEAP_ITEM_TYPE);

  return self->kind;
}

BlHeap *
bl_heap_item_get_heap (BlHeapItem *self)
{
  g_return_val_if_fail (BL_IS_HEAP_ITEM (self), NULL);

  return self->heap;
}

BlHeapIndex *
bl_heap_item_get_index (BlHeapItem *self)
{
  g_return_val_if_fail (BL_IS_HEAP_ITEM (self), NULL);

  return self->index;
}

GObject *
bl_heap_item_get_owner (BlHeapItem *self)
{
  g_return_val_if_fail (BL_IS_HEAP_ITEM (self), NULL);

  return self->owner;
}

guint32
bl_heap_item_get_id (BlHeapItem *self)
{
  g_return_val_if_fail (BL_IS_HEAP_ITEM (self), BL_HEAP_NONE);

  return self->id;
}

guint32
bl_heap_item_get_field (BlHeapItem *self)
{
  g_return_val_if_fail (BL_IS_HEAP_ITEM (self), BL_HEAP_NONE);

  return self->field;
}

void
bl_heap_item_set_field (BlHeapItem *self,
                        guint32     field)
{
  g_return_if_fail (BL_IS_HEAP_ITEM (self));

  self->field = field;
}

void
bl_heap_item_set_delta (BlHeapItem            *self,
                        const BlHeapTypeDelta *delta)
{
  g_return_if_fail (BL_IS_HEAP_ITEM (self));

  self->delta = *delta;
}

const BlHeapTypeDelta *
bl_heap_item_get_delta (BlHeapItem *self)
{
  g_return_val_if_fail (BL_IS_HEAP_ITEM (self), NULL);

  return &self->delta;
}

void
bl_heap_item_set_group (BlHeapItem           *self,
                        const BlHeapNewGroup *group,
                        const guint32        *objects)
{
  g_return_if_fail (BL_IS_HEAP_ITEM (self));

  self->group = *group;
  self->group_objects = objects;
}

const BlHeapNewGroup *
bl_heap_item_get_group (BlHeapItem *self)
{
  g_return_val_if_fail (BL_IS_HEAP_ITEM (self), NULL);

  return &self->group;
}

const guint32 *
bl_heap_item_get_group_objects (BlHeapItem *self)
{
  g_return_val_if_fail (BL_IS_HEAP_ITEM (self), NULL);

  return self->group_objects;
}
