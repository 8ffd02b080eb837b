/* bl-value-cell.h — a value, its heat bar and its share in one widget
 *
 * The value columns of the call tree tables. A box of two labels and a
 * level bar made seven widgets (with the level bar's trough and blocks) per
 * cell, and a table binds up to 200 rows of up to 20 columns at once: this
 * draws the same three things itself, with two Pango layouts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define BL_TYPE_VALUE_CELL (bl_value_cell_get_type ())

G_DECLARE_FINAL_TYPE (BlValueCell, bl_value_cell, BL, VALUE_CELL, GtkWidget)

/* Width of the heat bar and the space around it, in pixels. */
#define BL_VALUE_CELL_BAR_WIDTH 40
#define BL_VALUE_CELL_SPACING   6

GtkWidget  *bl_value_cell_new         (void);

/* @share is clamped to 0…1; a negative @share shows no heat bar. */
void        bl_value_cell_set         (BlValueCell *self,
                                       const char  *value,
                                       const char  *percent,
                                       double       share);
const char *bl_value_cell_get_value   (BlValueCell *self);
const char *bl_value_cell_get_percent (BlValueCell *self);
double      bl_value_cell_get_share   (BlValueCell *self);

G_END_DECLS
