/* bl-heap-index.h — what the Heap page looks up in a heap: dominator
 * children, retainers, retainer paths, types by retained size; and two
 * heaps compared (GTK-free, built from bl-heap.h's public API)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-heap.h"

G_BEGIN_DECLS

typedef struct _BlHeapIndex BlHeapIndex;

/* One step of a retainer path: @object, and the field of the reference
 * from the step before it (BL_HEAP_NONE on the first step). */
typedef struct
{
  guint32 object;
  guint32 field;
} BlHeapStep;

/* Building analyses the heap (bl_heap_analyse(), unless done already) and
 * reads it once (linear, plus sorting each object's dominator children):
 * run it in a worker. @progress, when not %NULL, is
 * set (atomically) to the per mille done. Returns %NULL when cancelled.
 * The heap must outlive the index. */
BlHeapIndex     *bl_heap_index_new              (BlHeap        *heap,
                                                 GCancellable  *cancellable,
                                                 int           *progress);
BlHeapIndex     *bl_heap_index_ref              (BlHeapIndex   *self);
void             bl_heap_index_unref            (BlHeapIndex   *self);
BlHeap          *bl_heap_index_get_heap         (BlHeapIndex   *self);

/* The objects @object immediately dominates, largest retained first (ties
 * by index); BL_HEAP_NONE asks for the top level: the reachable objects
 * that only the root set dominates. */
guint32          bl_heap_index_get_children     (BlHeapIndex   *self,
                                                 guint32        object,
                                                 const guint32 **children);
/* @object's place in its dominator parent's children. */
guint32          bl_heap_index_get_child_position (BlHeapIndex *self,
                                                   guint32      object);
/* Who references @object, and by which field, in object order. */
guint32          bl_heap_index_get_retainers    (BlHeapIndex   *self,
                                                 guint32        object,
                                                 const guint32 **from,
                                                 const guint32 **fields);
/* The shortest chain of references from a root to @object: the first
 * step is a root (bl_heap_is_root()), the last is @object. Breadth first over the retainers, each
 * object's retainers in object order, so the same heap gives the same
 * path. %NULL (and 0 steps) for an object nothing reachable references. */
BlHeapStep      *bl_heap_index_dup_retainer_path (BlHeapIndex  *self,
                                                  guint32       object,
                                                  guint        *n_steps);
/* Types that have objects, largest retained first (then self, then name). */
guint32          bl_heap_index_get_types        (BlHeapIndex   *self,
                                                 const guint32 **types);

/* Two heaps per type name: objects and self bytes on each side. */
typedef struct
{
  const char *name;      /* borrowed from one of the heaps */
  guint64     count[2];
  guint64     bytes[2];
} BlHeapTypeDelta;

/* Every type name of either heap, grown first: by bytes delta, then
 * count delta, largest first, then name (brightlens-cli heap A B). */
BlHeapTypeDelta *bl_heap_compare_types          (BlHeap        *a,
                                                 BlHeap        *b,
                                                 guint         *n_rows);

/* The objects of @b whose id (bl_heap_get_object_id) is not in @a,
 * grouped by type: groups by bytes (then count, then name), largest
 * first; in a group, objects by retained size, largest first. */
typedef struct
{
  guint32  type;         /* of @b */
  guint32  n_objects;
  guint64  bytes;
  guint32  first;        /* index of the group's first object in objects */
} BlHeapNewGroup;

typedef struct
{
  guint            n_groups;
  BlHeapNewGroup  *groups;
  guint32          n_objects;
  guint32         *objects;
} BlHeapNewObjects;

BlHeapNewObjects *bl_heap_find_new_objects      (BlHeap        *a,
                                                 BlHeap        *b,
                                                 GCancellable  *cancellable);
void              bl_heap_new_objects_free      (BlHeapNewObjects *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlHeapIndex, bl_heap_index_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlHeapNewObjects, bl_heap_new_objects_free)

G_END_DECLS
