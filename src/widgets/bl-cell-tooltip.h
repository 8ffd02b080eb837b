/* bl-cell-tooltip.h — a list cell's tooltip, made when it is asked for
 *
 * A label in a list cell often shows its text cut short; its tooltip shows
 * it whole. Setting the tooltip on each bind makes GTK ask the X server
 * where the pointer is, for every bound cell of every list: a filter
 * keystroke that rebinds a page of rows spent most of its time there.
 * Attached once when the cell is made, the tooltip is read off the label
 * only when it is asked for.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void bl_cell_tooltip_attach_label (GtkWidget *label);

G_END_DECLS
