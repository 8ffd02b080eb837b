/* bl-heap-view.h — the Heap page: a profile's heap snapshots browsed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-heap-index.h"
#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_TYPE_HEAP_VIEW (bl_heap_view_get_type ())

G_DECLARE_FINAL_TYPE (BlHeapView, bl_heap_view, BL, HEAP_VIEW, GtkWidget)

GtkWidget   *bl_heap_view_new                (void);
BlProfile   *bl_heap_view_get_profile        (BlHeapView *self);
/* Shows @profile's first snapshot (indexed in a worker: see "ready"). */
void         bl_heap_view_set_profile        (BlHeapView *self,
                                              BlProfile  *profile);
guint        bl_heap_view_get_snapshot       (BlHeapView *self);
void         bl_heap_view_set_snapshot       (BlHeapView *self,
                                              guint       snapshot);
/* The snapshot the one shown is compared with, G_MAXUINT for none. */
guint        bl_heap_view_get_compare_with   (BlHeapView *self);
void         bl_heap_view_set_compare_with   (BlHeapView *self,
                                              guint       snapshot);
/* Whether the snapshot shown is indexed and its lists filled. */
gboolean     bl_heap_view_is_ready           (BlHeapView *self);
BlHeapIndex *bl_heap_view_get_index          (BlHeapView *self);

/* Selects @object in the dominator tree (opening its dominators) and
 * shows its retainer path; BL_HEAP_NONE: none. */
void         bl_heap_view_select_object      (BlHeapView *self,
                                              guint32     object);
guint32      bl_heap_view_get_selected_object (BlHeapView *self);
/* What activating the cycle at @position (of the list shown) does:
 * selects its example object. */
void         bl_heap_view_activate_cycle     (BlHeapView *self,
                                              guint       position);
void         bl_heap_view_set_hide_global    (BlHeapView *self,
                                              gboolean    hide);
void         bl_heap_view_set_type_filter    (BlHeapView *self,
                                              const char *text);
/* Shows the types and puts the focus in their filter (Ctrl+F) */
void         bl_heap_view_focus_filter       (BlHeapView *self);
/* Which page shows: "types", "dominators", "cycles" */
const char  *bl_heap_view_get_page           (BlHeapView *self);
void         bl_heap_view_set_page           (BlHeapView *self,
                                              const char *page);
const char  *bl_heap_view_get_summary        (BlHeapView *self);

/* The models the lists show, for tests: types (BlHeapItem, sorted and
 * filtered), the dominator tree (GtkTreeListRow), the cycles (BlHeapItem),
 * the retainer path (BlHeapItem steps, root set first). */
GListModel  *bl_heap_view_get_types_model    (BlHeapView *self);
GListModel  *bl_heap_view_get_tree_model     (BlHeapView *self);
GListModel  *bl_heap_view_get_cycles_model   (BlHeapView *self);
GListModel  *bl_heap_view_get_path_model     (BlHeapView *self);
GtkWidget   *bl_heap_view_get_compare_view   (BlHeapView *self);

G_END_DECLS
