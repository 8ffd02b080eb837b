/* bl-window-compare.h — comparing two files from the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-compare-page.h"
#include "bl-window.h"

G_BEGIN_DECLS

/* Opens a tab comparing @file_a (A, before) with @file_b (B, after).
 * @document_a: (nullable): @file_a already loaded */
BlComparePage *bl_window_compare_files            (BlWindow       *self,
                                                   GFile          *file_a,
                                                   GFile          *file_b,
                                                   GObject        *document_a);

/* hooks called by bl-window.c and bl-window-actions.c */
void           _bl_window_class_compare_init      (GtkWidgetClass *widget_class);
void           _bl_window_compare_init            (BlWindow       *self);
/* A single file dropped on an open tab: asks whether to open it or to
 * compare the tab with it. Returns FALSE when the drop is not for it. */
gboolean       _bl_window_compare_handle_drop     (BlWindow       *self,
                                                   GSList         *files);
/* The selected tab's view when it compares two profiles, else NULL. */
BlCompareView *_bl_window_compare_get_view        (BlWindow       *self);

G_END_DECLS
