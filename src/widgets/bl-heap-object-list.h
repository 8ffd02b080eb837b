/* bl-heap-object-list.h — a list model of heap objects over an array of
 * object indexes, making a BlHeapItem only for the rows looked at
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-heap-item.h"

G_BEGIN_DECLS

#define BL_TYPE_HEAP_OBJECT_LIST (bl_heap_object_list_get_type ())

G_DECLARE_FINAL_TYPE (BlHeapObjectList, bl_heap_object_list, BL, HEAP_OBJECT_LIST, GObject)

/* A level of objects shows at most this many rows (the largest first),
 * then one row that says how many more there are: GtkTreeListModel keeps
 * a node per row of a level, and a heap's top level can hold millions. */
#define BL_HEAP_OBJECT_LIST_MAX_ROWS 10000

/* @objects stays owned by @owner (or by @index), which the list keeps. */
GListModel *bl_heap_object_list_new          (GObject       *owner,
                                              BlHeap        *heap,
                                              BlHeapIndex   *index,
                                              const guint32 *objects,
                                              guint32        n_objects);
/* The dominator children of @parent (BL_HEAP_NONE: the top level), or
 * %NULL when it has none. */
GListModel *bl_heap_object_list_new_children (GObject       *owner,
                                              BlHeapIndex   *index,
                                              guint32        parent);
/* The steps of a retainer path (BL_HEAP_ITEM_STEP items); takes @steps. */
GListModel *bl_heap_object_list_new_steps    (GObject       *owner,
                                              BlHeapIndex   *index,
                                              BlHeapStep    *steps,
                                              guint32        n_steps);

G_END_DECLS
