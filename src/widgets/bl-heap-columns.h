/* bl-heap-columns.h — the columns of the Heap page's tables: what a cell
 * of a BlHeapItem says, how rows sort, and column view columns for them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-heap-item.h"

G_BEGIN_DECLS

typedef enum
{
  BL_HEAP_COLUMN_NAME,        /* type name; object: its type; cycle: the pattern */
  BL_HEAP_COLUMN_ID,          /* object id from the file */
  BL_HEAP_COLUMN_COUNT,       /* objects of a type, cycles found, group size */
  BL_HEAP_COLUMN_SELF,        /* self bytes */
  BL_HEAP_COLUMN_RETAINED,    /* retained bytes */
  BL_HEAP_COLUMN_FIELD,       /* a retainer path step's field */
  BL_HEAP_COLUMN_COUNT_A,
  BL_HEAP_COLUMN_COUNT_B,
  BL_HEAP_COLUMN_COUNT_DELTA,
  BL_HEAP_COLUMN_BYTES_A,
  BL_HEAP_COLUMN_BYTES_B,
  BL_HEAP_COLUMN_BYTES_DELTA,
} BlHeapColumn;

/* Returns: (transfer full): the cell's text */
char                *bl_heap_column_dup_text  (BlHeapColumn  column,
                                               BlHeapItem   *item);
/* A number to sort by, or the name for BL_HEAP_COLUMN_NAME rows (compared
 * by the sorter) */
gint64               bl_heap_column_get_value (BlHeapColumn  column,
                                               BlHeapItem   *item);
/* A column of @view; @expander puts the tree expander in its cells (rows
 * of a GtkTreeListModel), @sortable gives it a sorter. */
GtkColumnViewColumn *bl_heap_column_add       (GtkColumnView *view,
                                               const char    *title,
                                               BlHeapColumn   column,
                                               gboolean       expander,
                                               gboolean       sortable);

G_END_DECLS
