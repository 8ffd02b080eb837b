/* bl-heap-private.h — what a streaming heap reader needs besides the
 * public building API: types and sizes known only after their objects
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-heap.h"

G_BEGIN_DECLS

/* Names a type added before its description arrived. */
void         bl_heap_set_type_name    (BlHeap        *self,
                                       guint32        type,
                                       const char    *name);
/* Sets the self size of an object added with a provisional one. */
void         bl_heap_set_self_size    (BlHeap        *self,
                                       guint32        object,
                                       guint64        self_size);

/* A reference whose field and target are the reader's own provisional
 * codes (not checked), appended where bl_heap_add_reference() would put
 * it; bl_heap_resolve_references() turns them into fields and objects
 * before the heap is finished. */
void         bl_heap_add_raw_reference (BlHeap       *self,
                                        guint32       from,
                                        guint32       field,
                                        guint32       to);

/* Room for @n raw references of @from, which must be the source of the
 * last reference added or a later one: returns where their targets go and
 * sets *@fields to where their fields go. */
guint32     *bl_heap_reserve_raw_references (BlHeap    *self,
                                             guint32    from,
                                             guint32    n,
                                             guint32  **fields);

/* Called per reference in order with its source and codes: sets *@field
 * and *@to to the real ones and returns TRUE, or FALSE to drop it. */
typedef gboolean (*BlHeapResolveFunc) (guint32   from,
                                       guint32  *field,
                                       guint32  *to,
                                       gpointer  data);

/* Rewrites every reference added so far in place through @resolve,
 * keeping their order and dropping those it refuses. */
void         bl_heap_resolve_references (BlHeap            *self,
                                         BlHeapResolveFunc  resolve,
                                         gpointer           data);

/* bl_heap_analyse() that also sets *@progress (atomically, when not NULL)
 * from @from to @to per mille as its steps end. */
gboolean     bl_heap_analyse_with_progress (BlHeap       *self,
                                            GCancellable *cancellable,
                                            int          *progress,
                                            int           from,
                                            int           to);

/* The references of a finished heap as one CSR: object o's run from
 * (*first_edge)[o] to (*first_edge)[o + 1] in *fields and *targets. */
void         bl_heap_get_csr          (BlHeap          *self,
                                       const guint32  **first_edge,
                                       const guint32  **fields,
                                       const guint32  **targets);

/* What the heap holds now, in bytes: arrays sized by the objects (and
 * types, roots, cycles) in *@object_bytes, arrays sized by the references
 * in *@reference_bytes (for benchmarks). */
void         bl_heap_get_memory       (BlHeap        *self,
                                       gsize         *object_bytes,
                                       gsize         *reference_bytes);

G_END_DECLS
