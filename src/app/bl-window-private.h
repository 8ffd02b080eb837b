/* bl-window-private.h — BlWindow's state, shared by bl-window.c and bl-window-actions.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-window.h"

G_BEGIN_DECLS

struct _BlWindow
{
  AdwApplicationWindow  parent_instance;

  GSettings            *settings;
  GMenu                *recent_menu;
  GtkRecentManager     *recent_manager;
  GtkFileChooserNative *chooser;        /* kept until "response" */

  /* template */
  AdwToastOverlay      *toast_overlay;
  AdwWindowTitle       *window_title;
  AdwTabView           *tab_view;
  AdwTabBar            *tab_bar;
  GtkStack             *stack;
  AdwStatusPage        *empty_page;
  GtkMenuButton        *primary_menu_button;
  AdwSplitButton       *open_button;
};

void _bl_window_class_actions_init (GtkWidgetClass *widget_class);
void _bl_window_actions_init       (BlWindow       *self);
void _bl_window_update_actions     (BlWindow       *self);
void _bl_window_update_recent      (BlWindow       *self);
/* for tests: export the current tab, a profile as "folded", "speedscope", "svg" or "png"
 * (the flame graph) whatever the name, a session as CSV */
void _bl_window_export_to          (BlWindow       *self,
                                    GFile          *file,
                                    const char     *format);
void _bl_window_add_recent         (BlWindow       *self,
                                    GFile          *file);
void _bl_window_set_tab_failed     (AdwTabPage     *tab,
                                    gboolean        failed,
                                    const char     *message);
char **_bl_window_dup_recent_labels (const char * const *uris);

G_END_DECLS
