/* bl-transform-menu.c — the call-tree transforms offered on a frame or row
 *
 * The flame graph's and the tables' context menus offer the same
 * transforms, as items of the profile view's action
 * "profile.transform-selected" (bl-profile-view.c) on the selected node.
 * What makes sense depends on the node: a thread's root is no function, so
 * it is offered only the transforms that need none.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-transform-menu"

#include "config.h"

#include <glib/gi18n.h>

#include "bl-transform-menu.h"

/**
 * bl_transform_menu_new_section:
 * @profile: (nullable): the profile @node belongs to
 *
 * Returns: (transfer full): the transforms for @node, as a menu to put in a
 *   section of a context menu
 */
GMenu *
bl_transform_menu_new_section (BlProfile *profile,
                               guint32    node)
{
  GMenu *menu = g_menu_new ();
  gboolean root = profile != NULL && node < bl_profile_get_n_nodes (profile) &&
                  bl_profile_get_node (profile, node)->parent == BL_NODE_NONE;

  if (!root)
    {
      g_menu_append (menu, _("_Merge Function"), "profile.transform-selected::merge");
      g_menu_append (menu, _("_Focus on Function"), "profile.transform-selected::focus");
      g_menu_append (menu, _("Focus on _Subtree"), "profile.transform-selected::focus-path");
      g_menu_append (menu, _("_Drop Function"), "profile.transform-selected::drop");
    }
  g_menu_append (menu, _("Collapse _Recursion"), "profile.transform-selected::collapse-recursion");
  if (!root)
    g_menu_append (menu, _("_Hide Frames Like This"), "profile.transform-selected::hide");
  g_menu_append (menu, _("Merge _Threads by Name"), "profile.transform-selected::merge-threads");

  return menu;
}
