/* bl-lazy-children.c
 *
 * GtkTreeListModel asks for a row's child model to learn whether the row can
 * be expanded, and GtkTreeExpander asks that of every row it binds. Making
 * the children of a merged row (bottom-up: every caller of a function over a
 * million nodes) costs a walk over all its nodes, so a table that binds forty
 * rows did forty such walks on the main thread. This model stands in for the
 * children: it exists as soon as bl_profile_node_has_children() says so, and
 * asks the node for its children only when someone reads an item or the
 * count, that is when the row is opened.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-lazy-children"

#include "config.h"

#include "bl-lazy-children.h"

struct _BlLazyChildren
{
  GObject        parent_instance;

  BlProfileNode *node;
  GListModel    *children;   /* owned by node, set on first use */
};

static GListModel *
ensure_children (BlLazyChildren *self)
{
  if (self->children == NULL)
    self->children = bl_profile_node_get_children (self->node);

  return self->children;
}

static GType
bl_lazy_children_get_item_type (GListModel *model)
{
  return BL_TYPE_PROFILE_NODE;
}

static guint
bl_lazy_children_get_n_items (GListModel *model)
{
  GListModel *children = ensure_children (BL_LAZY_CHILDREN (model));

  return children != NULL ? g_list_model_get_n_items (children) : 0;
}

static gpointer
bl_lazy_children_get_item (GListModel *model,
                           guint       position)
{
  GListModel *children = ensure_children (BL_LAZY_CHILDREN (model));

  return children != NULL ? g_list_model_get_item (children, position) : NULL;
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = bl_lazy_children_get_item_type;
  iface->get_n_items = bl_lazy_children_get_n_items;
  iface->get_item = bl_lazy_children_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (BlLazyChildren, bl_lazy_children, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
bl_lazy_children_dispose (GObject *object)
{
  BlLazyChildren *self = (BlLazyChildren *) object;

  self->children = NULL;
  g_clear_object (&self->node);

  G_OBJECT_CLASS (bl_lazy_children_parent_class)->dispose (object);
}

static void
bl_lazy_children_class_init (BlLazyChildrenClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = bl_lazy_children_dispose;
}

static void
bl_lazy_children_init (BlLazyChildren *self)
{
}

/**
 * bl_lazy_children_new:
 *
 * Returns: (transfer full) (nullable): a model of @node's children, or
 *   %NULL when @node has none
 */
GListModel *
bl_lazy_children_new (BlProfileNode *node)
{
  BlLazyChildren *self;

  g_return_val_if_fail (BL_IS_PROFILE_NODE (node), NULL);

  if (!bl_profile_node_has_children (node))
    return NULL;

  self = g_object_new (BL_TYPE_LAZY_CHILDREN, NULL);
  self->node = g_object_ref (node);

  return G_LIST_MODEL (self);
}

/**
 * bl_lazy_children_is_made:
 *
 * Returns: whether the children have been asked for (for tests)
 */
gboolean
bl_lazy_children_is_made (BlLazyChildren *self)
{
  g_return_val_if_fail (BL_IS_LAZY_CHILDREN (self), FALSE);

  return self->children != NULL;
}
