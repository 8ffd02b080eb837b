/* bl-row-slice.h — a list view's rows handed over a slice a frame
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* GTK 4.8's list view keeps up to 200 rows bound around what it shows,
 * whatever its height, and makes them all in the frame that shows a new
 * model: 100-200 ms of the main thread for a table's rows. A BlRowSlice
 * puts a GtkSliceListModel between the rows and the view: the first slice
 * fills a tall table, each frame adds some more until the view has all the
 * rows it will ever make at once, and then every row is in. Positions are
 * the same in the slice and in the rows; whoever looks a row up by
 * position calls bl_row_slice_show_all() first. */
typedef struct
{
  GtkWidget         *widget;  /* whose frames grow the slice */
  GtkSliceListModel *slice;
  guint              tick;
} BlRowSlice;

void        bl_row_slice_init     (BlRowSlice *self,
                                   GtkWidget  *widget);
GListModel *bl_row_slice_wrap     (BlRowSlice *self,
                                   GListModel *rows);
void        bl_row_slice_restart  (BlRowSlice *self);
void        bl_row_slice_grow     (BlRowSlice *self);
void        bl_row_slice_show_all (BlRowSlice *self);
void        bl_row_slice_clear    (BlRowSlice *self);

G_END_DECLS
