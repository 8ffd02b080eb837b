/* bl-profile-node.h — a lazy GObject row over call-tree nodes, for list models
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_TYPE_PROFILE_NODE (bl_profile_node_get_type ())

G_DECLARE_FINAL_TYPE (BlProfileNode, bl_profile_node, BL, PROFILE_NODE, GObject)

typedef enum
{
  BL_PROFILE_NODE_CALL,      /* one node of the call tree; children are its callees */
  BL_PROFILE_NODE_FUNCTION,  /* every node of one function; no children */
  BL_PROFILE_NODE_CALLEES,   /* nodes of one function path; children merge callees by function */
  BL_PROFILE_NODE_CALLERS,   /* leaves of one function; children group callers by function */
} BlProfileNodeKind;

/* Used with a thread index to mean every thread. */
#define BL_PROFILE_NODE_ALL_THREADS G_MAXUINT

BlProfileNode     *bl_profile_node_new_call          (BlProfile     *profile,
                                                      guint32        node);
GListModel        *bl_profile_node_list_roots        (BlProfile     *profile,
                                                      guint          thread);
GListModel        *bl_profile_node_list_functions    (BlProfile     *profile,
                                                      guint          thread,
                                                      BlProfileNodeKind kind);
BlProfileNode     *bl_profile_node_new_for_function  (BlProfile     *profile,
                                                      guint          thread,
                                                      guint32        function,
                                                      BlProfileNodeKind kind);

BlProfile         *bl_profile_node_get_profile       (BlProfileNode *self);
BlProfileNodeKind  bl_profile_node_get_kind          (BlProfileNode *self);
guint32            bl_profile_node_get_node          (BlProfileNode *self);
guint32            bl_profile_node_get_function      (BlProfileNode *self);
guint              bl_profile_node_get_n_nodes       (BlProfileNode *self);
const char        *bl_profile_node_get_name          (BlProfileNode *self);
const char        *bl_profile_node_get_file          (BlProfileNode *self);
guint64            bl_profile_node_get_self          (BlProfileNode *self,
                                                      BlMetricId     metric);
guint64            bl_profile_node_get_total         (BlProfileNode *self,
                                                      BlMetricId     metric);
gboolean           bl_profile_node_has_children      (BlProfileNode *self);
GListModel        *bl_profile_node_get_children      (BlProfileNode *self);

G_END_DECLS
