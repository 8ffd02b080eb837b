/* bl-call-tree-view.h — call tree tables: top-down, bottom-up, functions, callers, callees
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_TYPE_CALL_TREE_VIEW (bl_call_tree_view_get_type ())

G_DECLARE_FINAL_TYPE (BlCallTreeView, bl_call_tree_view, BL, CALL_TREE_VIEW, GtkWidget)

typedef enum
{
  BL_CALL_TREE_TOP_DOWN,
  BL_CALL_TREE_BOTTOM_UP,
  BL_CALL_TREE_FUNCTIONS,
  BL_CALL_TREE_CALLERS,
  BL_CALL_TREE_CALLEES,
} BlCallTreeMode;

GtkWidget      *bl_call_tree_view_new                 (BlCallTreeMode  mode);
BlCallTreeMode  bl_call_tree_view_get_mode            (BlCallTreeView *self);
void            bl_call_tree_view_set_profile         (BlCallTreeView *self,
                                                       BlProfile      *profile,
                                                       guint           thread);
void            bl_call_tree_view_set_function        (BlCallTreeView *self,
                                                       guint32         function);
void            bl_call_tree_view_set_metric          (BlCallTreeView *self,
                                                       BlMetricId      metric);
void            bl_call_tree_view_set_match_filter    (BlCallTreeView *self,
                                                       GBytes         *nodes,
                                                       GBytes         *functions);
guint32         bl_call_tree_view_get_selected_node   (BlCallTreeView *self);
guint32         bl_call_tree_view_get_selected_function (BlCallTreeView *self);
gboolean        bl_call_tree_view_select_node         (BlCallTreeView *self,
                                                       guint32         node);
GListModel     *bl_call_tree_view_get_model           (BlCallTreeView *self);
gboolean        bl_call_tree_view_get_loading         (BlCallTreeView *self);
void            bl_call_tree_view_set_held            (BlCallTreeView *self,
                                                       gboolean        held);
gboolean        bl_call_tree_view_get_waiting         (BlCallTreeView *self);
GtkColumnView  *bl_call_tree_view_get_column_view     (BlCallTreeView *self);

G_END_DECLS
