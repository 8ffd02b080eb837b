/* bl-lazy-children.h — a row's children, made when first looked at
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-profile-node.h"

G_BEGIN_DECLS

#define BL_TYPE_LAZY_CHILDREN (bl_lazy_children_get_type ())

G_DECLARE_FINAL_TYPE (BlLazyChildren, bl_lazy_children, BL, LAZY_CHILDREN, GObject)

GListModel *bl_lazy_children_new        (BlProfileNode  *node);
gboolean    bl_lazy_children_is_made    (BlLazyChildren *self);

G_END_DECLS
