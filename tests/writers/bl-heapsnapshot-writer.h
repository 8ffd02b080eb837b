/* bl-heapsnapshot-writer.h — test-only writer of V8 heap snapshots (.heapsnapshot JSON)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Builds a snapshot node by node: node 0 (the first added) is the root.
 * Edges may be added in any order; they are written grouped by their
 * source node, as V8 does. Types are V8's names ("object", "closure",
 * "synthetic", …; "property", "element", "weak", …). */
typedef struct _BlHsWriter BlHsWriter;

typedef enum
{
  BL_HS_ORDER_V8,            /* snapshot, nodes, edges, locations, strings */
  BL_HS_ORDER_STRINGS_FIRST, /* snapshot, strings, edges, nodes, locations */
} BlHsOrder;

BlHsWriter *bl_hsw_new          (void);
void        bl_hsw_free         (BlHsWriter  *self);
/* Returns the node's index (0, 1, …). */
guint32     bl_hsw_node         (BlHsWriter  *self,
                                 const char  *type,
                                 const char  *name,
                                 guint32      id,
                                 guint32      self_size);
/* @name for named edges (property, context, internal, shortcut, weak),
 * @index for element and hidden edges. */
void        bl_hsw_edge         (BlHsWriter  *self,
                                 guint32      from,
                                 const char  *type,
                                 const char  *name,
                                 guint32      index,
                                 guint32      to);
void        bl_hsw_location     (BlHsWriter  *self,
                                 guint32      node,
                                 guint32      script,
                                 guint32      line,
                                 guint32      column);
/* The whole document, rows separated by newlines as V8 writes them. */
GString    *bl_hsw_to_string    (BlHsWriter  *self,
                                 BlHsOrder    order);
GBytes     *bl_hsw_to_bytes     (BlHsWriter  *self,
                                 BlHsOrder    order);

/* A big snapshot made to be checked, written as it goes (nothing held in
 * memory): node 0 the synthetic root holding node 1; node i ≥ 1 an
 * object of class "C<i mod 100>", id 2i + 1, self size
 * bl_hsw_tree_self_size (i), holding nodes 2i and 2i + 1 by properties
 * "l" and "r" (a binary tree: every object is retained by its parent). */
gboolean    bl_hsw_write_tree     (GOutputStream *out,
                                   guint32        n_nodes,
                                   GError       **error);
guint32     bl_hsw_tree_self_size (guint32        i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlHsWriter, bl_hsw_free)

G_END_DECLS
