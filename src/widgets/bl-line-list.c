/* bl-line-list.c — ranked line records as a list of BlLineItems, made lazily
 *
 * A big profile has hundreds of thousands of line records; a list view
 * binds a few hundred rows at a time. The list holds the ranked indexes and
 * makes an item when one is asked for, keeping it so that the same position
 * gives the same item.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-line-list"

#include "config.h"

#include "bl-line-item.h"
#include "bl-line-list.h"

struct _BlLineList
{
  GObject     parent_instance;

  BlProfile  *profile;
  guint32    *ranked;
  guint       n_ranked;
  GHashTable *made;      /* position → BlLineItem */
};

static void bl_line_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (BlLineList, bl_line_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      bl_line_list_model_init))

static GType
bl_line_list_get_item_type (GListModel *model)
{
  return BL_TYPE_LINE_ITEM;
}

static guint
bl_line_list_get_n_items (GListModel *model)
{
  return BL_LINE_LIST (model)->n_ranked;
}

static gpointer
bl_line_list_get_item (GListModel *model,
                       guint       position)
{
  BlLineList *self = BL_LINE_LIST (model);
  BlLineItem *item;

  if (position >= self->n_ranked)
    return NULL;

  item = g_hash_table_lookup (self->made, GUINT_TO_POINTER (position));
  if (item == NULL)
    {
      item = bl_line_item_new (self->profile, self->ranked[position]);
      g_hash_table_insert (self->made, GUINT_TO_POINTER (position), item);
    }

  return g_object_ref (item);
}

static void
bl_line_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = bl_line_list_get_item_type;
  iface->get_n_items = bl_line_list_get_n_items;
  iface->get_item = bl_line_list_get_item;
}

static void
bl_line_list_finalize (GObject *object)
{
  BlLineList *self = (BlLineList *) object;

  g_hash_table_unref (self->made);
  g_free (self->ranked);
  g_clear_object (&self->profile);

  G_OBJECT_CLASS (bl_line_list_parent_class)->finalize (object);
}

static void
bl_line_list_class_init (BlLineListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = bl_line_list_finalize;
}

static void
bl_line_list_init (BlLineList *self)
{
  self->made = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
}

BlLineList *
bl_line_list_new (void)
{
  return g_object_new (BL_TYPE_LINE_LIST, NULL);
}

void
bl_line_list_set (BlLineList *self,
                  BlProfile  *profile,
                  guint32    *ranked,
                  guint       n_ranked)
{
  guint removed;

  g_return_if_fail (BL_IS_LINE_LIST (self));
  g_return_if_fail (profile == NULL || BL_IS_PROFILE (profile));

  removed = self->n_ranked;
  g_hash_table_remove_all (self->made);
  g_free (self->ranked);
  g_set_object (&self->profile, profile);

  if (profile != NULL)
    {
      self->ranked = ranked;
      self->n_ranked = n_ranked;
    }
  else
    {
      g_free (ranked);
      self->ranked = NULL;
      self->n_ranked = 0;
    }

  if (removed > 0 || self->n_ranked > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, self->n_ranked);
}

/**
 * bl_line_list_get_n_made:
 *
 * Returns: how many items have been made since the list was last set
 */
guint
bl_line_list_get_n_made (BlLineList *self)
{
  g_return_val_if_fail (BL_IS_LINE_LIST (self), 0);

  return g_hash_table_size (self->made);
}
