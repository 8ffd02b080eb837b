/* bl-heap.h — a heap graph: objects, types, references, roots, dominators,
 * retained sizes, leaked objects and leak cycles (GTK-free, shared by every
 * heap format)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _BlHeap BlHeap;

#define BL_HEAP_NONE G_MAXUINT32

/* One leak cycle pattern: @n_steps (type, field) pairs, starting at the
 * rotation that sorts first, and how many times it was found. */
typedef struct
{
  guint32  n_steps;
  guint32 *types;       /* type index per step */
  guint32 *fields;      /* field id per step (the reference leaving that object) */
  guint64  count;
  guint32  example;     /* an object on one such cycle */
  gboolean through_global;
} BlHeapCycle;

/* Building: add types, field names, objects, references, roots, then
 * bl_heap_finish(). Objects are numbered 0… in the order they are added. */
BlHeap      *bl_heap_new              (void);
void         bl_heap_free             (BlHeap        *self);
guint32      bl_heap_add_type         (BlHeap        *self,
                                       const char    *name);
guint32      bl_heap_intern_field     (BlHeap        *self,
                                       const char    *name);
guint32      bl_heap_add_object       (BlHeap        *self,
                                       guint32        type,
                                       guint64        self_size);
void         bl_heap_add_reference    (BlHeap        *self,
                                       guint32        from,
                                       guint32        field,
                                       guint32        to);
void         bl_heap_add_root         (BlHeap        *self,
                                       guint32        object);
/* The id the file gives an object (a Perfetto object id, a heap snapshot
 * node id), to match objects across snapshots; without one, its index. */
void         bl_heap_set_object_id    (BlHeap        *self,
                                       guint32        object,
                                       guint64        id);
guint64      bl_heap_get_object_id    (BlHeap        *self,
                                       guint32        object);
void         bl_heap_finish           (BlHeap        *self);

/* The analysis (dominators, retained sizes, leaked objects, leak cycles)
 * is computed once, on first use by a getter below that needs it, or by
 * bl_heap_analyse() (from any thread; FALSE when cancelled, nothing kept).
 * Counts, types, sizes, references and roots need no analysis. */
gboolean     bl_heap_analyse          (BlHeap        *self,
                                       GCancellable  *cancellable);
gboolean     bl_heap_is_analysed      (BlHeap        *self);

/* Reading (after bl_heap_finish()) */
guint32      bl_heap_get_n_objects    (BlHeap        *self);
guint32      bl_heap_get_n_types      (BlHeap        *self);
const char  *bl_heap_get_type_name    (BlHeap        *self,
                                       guint32        type);
const char  *bl_heap_get_field_name   (BlHeap        *self,
                                       guint32        field);
guint32      bl_heap_get_object_type  (BlHeap        *self,
                                       guint32        object);
guint64      bl_heap_get_self_size    (BlHeap        *self,
                                       guint32        object);
guint64      bl_heap_get_total_bytes  (BlHeap        *self);
gboolean     bl_heap_is_reachable     (BlHeap        *self,
                                       guint32        object);
/* Whether the file named @object a root. */
gboolean     bl_heap_is_root          (BlHeap        *self,
                                       guint32        object);
/* The immediate dominator, or BL_HEAP_NONE for an object dominated only
 * by the (virtual) root set, or unreachable. */
guint32      bl_heap_get_idom         (BlHeap        *self,
                                       guint32        object);
guint64      bl_heap_get_retained     (BlHeap        *self,
                                       guint32        object);
guint32      bl_heap_get_n_references (BlHeap        *self,
                                       guint32        object,
                                       const guint32 **fields,
                                       const guint32 **targets);
gboolean     bl_heap_is_leaked        (BlHeap        *self,
                                       guint32        object);
guint32      bl_heap_get_n_leaked     (BlHeap        *self);
guint64      bl_heap_get_leaked_bytes (BlHeap        *self);
/* Per type: objects, self bytes, retained bytes (of the type's objects not
 * dominated by another object of the same type; @retained_bytes may be
 * NULL, then the analysis is not needed). */
void         bl_heap_get_type_totals  (BlHeap        *self,
                                       guint32        type,
                                       guint64       *count,
                                       guint64       *self_bytes,
                                       guint64       *retained_bytes);
/* Per type: objects and self bytes, without the analysis. */
void         bl_heap_get_type_counts  (BlHeap        *self,
                                       guint32        type,
                                       guint64       *count,
                                       guint64       *self_bytes);
/* The leak cycles, largest count first. */
const BlHeapCycle *bl_heap_get_cycles (BlHeap        *self,
                                       guint         *n_cycles);
/* Cycles left out because all of them together had too many steps. */
guint64      bl_heap_get_n_cycles_skipped (BlHeap    *self);
/* Objects sorted by retained size, largest first; at most @n. */
guint32     *bl_heap_top_retained     (BlHeap        *self,
                                       guint          n,
                                       guint         *n_out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlHeap, bl_heap_free)

G_END_DECLS
