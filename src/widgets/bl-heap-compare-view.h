/* bl-heap-compare-view.h — two heap snapshots compared: per type (count
 * and bytes on both sides and the change, grown first) and the objects new
 * in the second
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-heap-index.h"

G_BEGIN_DECLS

#define BL_TYPE_HEAP_COMPARE_VIEW (bl_heap_compare_view_get_type ())

G_DECLARE_FINAL_TYPE (BlHeapCompareView, bl_heap_compare_view, BL, HEAP_COMPARE_VIEW, GtkWidget)

GtkWidget  *bl_heap_compare_view_new        (void);
/* @owner_a and @owner_b keep the heaps alive (the profiles carrying them);
 * the comparison is made in a worker. */
void        bl_heap_compare_view_set_heaps  (BlHeapCompareView *self,
                                             GObject           *owner_a,
                                             BlHeap            *a,
                                             const char        *label_a,
                                             GObject           *owner_b,
                                             BlHeap            *b,
                                             const char        *label_b);
gboolean    bl_heap_compare_view_is_ready   (BlHeapCompareView *self);
/* the rows shown (BlHeapItem deltas; GtkTreeListRow of groups and objects) */
GListModel *bl_heap_compare_view_get_types_model (BlHeapCompareView *self);
GListModel *bl_heap_compare_view_get_new_model   (BlHeapCompareView *self);
const char *bl_heap_compare_view_get_title  (BlHeapCompareView *self);

G_END_DECLS
