/* bl-heap-item.h — one row of the Heap page's lists: a type, an object, a
 * leak cycle, a step of a retainer path, a type compared, a group of new
 * objects (made lazily, over indexes into the heap)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "bl-heap-index.h"

G_BEGIN_DECLS

typedef enum
{
  BL_HEAP_ITEM_TYPE,
  BL_HEAP_ITEM_OBJECT,
  BL_HEAP_ITEM_CYCLE,
  BL_HEAP_ITEM_STEP,
  BL_HEAP_ITEM_DELTA,
  BL_HEAP_ITEM_GROUP,
  BL_HEAP_ITEM_MORE,      /* the objects of a level past the rows shown: id is how many */
} BlHeapItemKind;

#define BL_TYPE_HEAP_ITEM (bl_heap_item_get_type ())

G_DECLARE_FINAL_TYPE (BlHeapItem, bl_heap_item, BL, HEAP_ITEM, GObject)

/* @owner keeps @heap alive (the profile that carries it); @index may be
 * %NULL where no dominator children are asked for. */
BlHeapItem     *bl_heap_item_new        (BlHeapItemKind  kind,
                                         GObject        *owner,
                                         BlHeap         *heap,
                                         BlHeapIndex    *index,
                                         guint32         id);
BlHeapItemKind  bl_heap_item_get_kind   (BlHeapItem     *self);
BlHeap         *bl_heap_item_get_heap   (BlHeapItem     *self);
BlHeapIndex    *bl_heap_item_get_index  (BlHeapItem     *self);
GObject        *bl_heap_item_get_owner  (BlHeapItem     *self);
/* the type, object, cycle, delta or group index */
guint32         bl_heap_item_get_id     (BlHeapItem     *self);
/* a step's field (BL_HEAP_NONE on the first step) */
guint32         bl_heap_item_get_field  (BlHeapItem     *self);
void            bl_heap_item_set_field  (BlHeapItem     *self,
                                         guint32         field);
/* a delta's name and figures, a group's type, objects and bytes */
void            bl_heap_item_set_delta  (BlHeapItem            *self,
                                         const BlHeapTypeDelta *delta);
const BlHeapTypeDelta *bl_heap_item_get_delta (BlHeapItem     *self);
void            bl_heap_item_set_group  (BlHeapItem           *self,
                                         const BlHeapNewGroup *group,
                                         const guint32        *objects);
const BlHeapNewGroup *bl_heap_item_get_group  (BlHeapItem     *self);
const guint32  *bl_heap_item_get_group_objects (BlHeapItem    *self);

G_END_DECLS
