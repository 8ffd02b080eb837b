/* bl-line-item.h — one line record as a list item, and the columns that show it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_TYPE_LINE_ITEM (bl_line_item_get_type ())

G_DECLARE_FINAL_TYPE (BlLineItem, bl_line_item, BL, LINE_ITEM, GObject)

BlLineItem   *bl_line_item_new            (BlProfile     *profile,
                                           guint32        line_index);
BlProfile    *bl_line_item_get_profile    (BlLineItem    *self);
guint32       bl_line_item_get_line_index (BlLineItem    *self);
char         *bl_line_item_dup_location   (BlLineItem    *self);

/* Appends Location (or File and Line), Function and one column per metric
 * to @view, whose model holds BlLineItems. */
void          bl_line_item_add_columns    (GtkColumnView *view,
                                           gboolean       split_location,
                                           const BlMetricId *metrics,
                                           guint          n_metrics);

G_END_DECLS
