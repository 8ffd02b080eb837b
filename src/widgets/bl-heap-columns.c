/* bl-heap-columns.c
 *
 * Cells are labels filled from bl_heap_column_dup_text(); sizes are
 * formatted as everywhere else in the app (bl_format_bytes), counts and
 * ids as plain integers. Text can hold any type or field name the file
 * gave, so it is always set as text, never as markup.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-heap-columns"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "bl-metric.h"

#include "bl-cell-tooltip.h"
#include "bl-heap-columns.h"

#define MAX_PATTERN_STEPS 16

/* Returns: (transfer full): the item of a row (a tree row makes a fresh
 * one each time it is asked: nothing keeps it) */
static BlHeapItem *
dup_row_item (gpointer object)
{
  if (GTK_IS_TREE_LIST_ROW (object))
    return gtk_tree_list_row_get_item (object);

  return g_object_ref (BL_HEAP_ITEM (object));
}

static char *
dup_signed (gint64 value)
{
  if (value == 0)
    return g_strdup ("0");

  return g_strdup_printf ("%+" G_GINT64_FORMAT, value);
}

static char *
dup_signed_bytes (gint64 value)
{
  g_autofree char *bytes = bl_format_bytes (value < 0 ? (guint64) -value : (guint64) value);

  if (value == 0)
    return g_steal_pointer (&bytes);

  return g_strdup_printf ("%s%s", value < 0 ? "−" : "+", bytes);
}

static char *
dup_cycle_pattern (BlHeap            *heap,
                   const BlHeapCycle *cycle)
{
  GString *text = g_string_new (NULL);

  for (guint k = 0; k < cycle->n_steps && k < MAX_PATTERN_STEPS; k++)
    g_string_append_printf (text, "%s.%s → ", bl_heap_get_type_name (heap, cycle->types[k]),
                            bl_heap_get_field_name (heap, cycle->fields[k]));
  if (cycle->n_steps > MAX_PATTERN_STEPS)
    g_string_append (text, "… → ");
  /* the cycle closes on the type it started from */
  if (cycle->n_steps > 0)
    g_string_append (text, bl_heap_get_type_name (heap, cycle->types[0]));

  return g_string_free (text, FALSE);
}

char *
bl_heap_column_dup_text (BlHeapColumn  column,
                         BlHeapItem   *item)
{
  BlHeap *heap = bl_heap_item_get_heap (item);
  guint32 id = bl_heap_item_get_id (item);
  BlHeapItemKind kind = bl_heap_item_get_kind (item);
  const BlHeapTypeDelta *delta = bl_heap_item_get_delta (item);
  const BlHeapNewGroup *group = bl_heap_item_get_group (item);
  gboolean object = kind == BL_HEAP_ITEM_OBJECT || kind == BL_HEAP_ITEM_STEP;
  const char *object_type = NULL;

  if (object)
    object_type = bl_heap_get_type_name (heap, bl_heap_get_object_type (heap, id));

  switch (column)
    {
    case BL_HEAP_COLUMN_NAME:
      switch (kind)
        {
        case BL_HEAP_ITEM_TYPE:
          return g_strdup (bl_heap_get_type_name (heap, id));
        case BL_HEAP_ITEM_OBJECT:
        case BL_HEAP_ITEM_STEP:
          if (bl_heap_is_leaked (heap, id))
            /* Translators: an object's type, for an object found leaked */
            return g_strdup_printf (_("%s (leaked)"), object_type);
          return g_strdup (object_type);
        case BL_HEAP_ITEM_CYCLE:
          {
            guint n_cycles;
            const BlHeapCycle *cycles = bl_heap_get_cycles (heap, &n_cycles);

            return id < n_cycles ? dup_cycle_pattern (heap, &cycles[id]) : g_strdup ("");
          }
        case BL_HEAP_ITEM_DELTA:
          return g_strdup (delta->name);
        case BL_HEAP_ITEM_GROUP:
          return g_strdup (bl_heap_get_type_name (heap, group->type));
        case BL_HEAP_ITEM_MORE:
          /* Translators: the last row of a long level of the dominator tree */
          return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "… %u smaller object",
                                               "… %u smaller objects", id), id);
        default:
          return g_strdup ("");
        }
    case BL_HEAP_COLUMN_ID:
      if (object)
        return g_strdup_printf ("%" G_GUINT64_FORMAT, bl_heap_get_object_id (heap, id));
      return g_strdup ("");
    case BL_HEAP_COLUMN_FIELD:
      if (kind == BL_HEAP_ITEM_STEP)
        {
          guint32 field = bl_heap_item_get_field (item);

          if (field == BL_HEAP_NONE)
            {
              /* the first object of the path is a root: say which kind, as
               * the heap names its type ("(synthetic)" shown bare) */
              gsize len = strlen (object_type);
              g_autofree char *kind = len > 2 && object_type[0] == '(' && object_type[len - 1] == ')'
                                      ? g_strndup (object_type + 1, len - 2) : g_strdup (object_type);

              /* Translators: the first object of a retainer path, a root of
               * the heap; %s is its type, as in "(root: Domain)" */
              return g_strdup_printf (_("(root: %s)"), kind);
            }
          return g_strdup_printf (".%s", bl_heap_get_field_name (heap, field));
        }
      return g_strdup ("");
    case BL_HEAP_COLUMN_SELF:
    case BL_HEAP_COLUMN_RETAINED:
    case BL_HEAP_COLUMN_COUNT:
    case BL_HEAP_COLUMN_COUNT_A:
    case BL_HEAP_COLUMN_COUNT_B:
    case BL_HEAP_COLUMN_BYTES_A:
    case BL_HEAP_COLUMN_BYTES_B:
      {
        gint64 value = bl_heap_column_get_value (column, item);
        gboolean bytes = column == BL_HEAP_COLUMN_SELF || column == BL_HEAP_COLUMN_RETAINED ||
                         column == BL_HEAP_COLUMN_BYTES_A || column == BL_HEAP_COLUMN_BYTES_B;

        if (value < 0)
          return g_strdup ("");
        if (bytes)
          return bl_format_bytes ((guint64) value);
        return g_strdup_printf ("%" G_GINT64_FORMAT, value);
      }
    case BL_HEAP_COLUMN_COUNT_DELTA:
      return dup_signed (bl_heap_column_get_value (column, item));
    case BL_HEAP_COLUMN_BYTES_DELTA:
      return dup_signed_bytes (bl_heap_column_get_value (column, item));
    default:
      return g_strdup ("");
    }
}

gint64
bl_heap_column_get_value (BlHeapColumn  column,
                          BlHeapItem   *item)
{
  BlHeap *heap = bl_heap_item_get_heap (item);
  guint32 id = bl_heap_item_get_id (item);
  BlHeapItemKind kind = bl_heap_item_get_kind (item);
  const BlHeapTypeDelta *delta = bl_heap_item_get_delta (item);
  const BlHeapNewGroup *group = bl_heap_item_get_group (item);
  gboolean object = kind == BL_HEAP_ITEM_OBJECT || kind == BL_HEAP_ITEM_STEP;
  guint64 count = 0, self_bytes = 0, retained = 0;

  if (kind == BL_HEAP_ITEM_TYPE)
    bl_heap_get_type_totals (heap, id, &count, &self_bytes, &retained);

  switch (column)
    {
    case BL_HEAP_COLUMN_COUNT:
      if (kind == BL_HEAP_ITEM_TYPE)
        return (gint64) count;
      if (kind == BL_HEAP_ITEM_GROUP)
        return group->n_objects;
      if (kind == BL_HEAP_ITEM_CYCLE)
        {
          guint n_cycles;
          const BlHeapCycle *cycles = bl_heap_get_cycles (heap, &n_cycles);

          return id < n_cycles ? (gint64) cycles[id].count : 0;
        }
      return -1;
    case BL_HEAP_COLUMN_SELF:
      if (kind == BL_HEAP_ITEM_TYPE)
        return (gint64) self_bytes;
      if (kind == BL_HEAP_ITEM_GROUP)
        return (gint64) group->bytes;
      return object ? (gint64) bl_heap_get_self_size (heap, id) : -1;
    case BL_HEAP_COLUMN_RETAINED:
      if (kind == BL_HEAP_ITEM_TYPE)
        return (gint64) retained;
      return object ? (gint64) bl_heap_get_retained (heap, id) : -1;
    case BL_HEAP_COLUMN_ID:
      return object ? (gint64) bl_heap_get_object_id (heap, id) : -1;
    case BL_HEAP_COLUMN_COUNT_A:
      return kind == BL_HEAP_ITEM_DELTA ? (gint64) delta->count[0] : -1;
    case BL_HEAP_COLUMN_COUNT_B:
      return kind == BL_HEAP_ITEM_DELTA ? (gint64) delta->count[1] : -1;
    case BL_HEAP_COLUMN_COUNT_DELTA:
      return kind == BL_HEAP_ITEM_DELTA ? (gint64) delta->count[1] - (gint64) delta->count[0] : 0;
    case BL_HEAP_COLUMN_BYTES_A:
      return kind == BL_HEAP_ITEM_DELTA ? (gint64) delta->bytes[0] : -1;
    case BL_HEAP_COLUMN_BYTES_B:
      return kind == BL_HEAP_ITEM_DELTA ? (gint64) delta->bytes[1] : -1;
    case BL_HEAP_COLUMN_BYTES_DELTA:
      return kind == BL_HEAP_ITEM_DELTA ? (gint64) delta->bytes[1] - (gint64) delta->bytes[0] : 0;
    case BL_HEAP_COLUMN_NAME:
    case BL_HEAP_COLUMN_FIELD:
    default:
      return 0;
    }
}

static gboolean
is_numeric (BlHeapColumn column)
{
  return column != BL_HEAP_COLUMN_NAME && column != BL_HEAP_COLUMN_FIELD;
}

static void
cell_setup (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  BlHeapColumn column = GPOINTER_TO_UINT (user_data) & 0xff;
  gboolean expander = (GPOINTER_TO_UINT (user_data) & 0x100) != 0;
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), is_numeric (column) ? 1 : 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), column == BL_HEAP_COLUMN_NAME
                                              ? PANGO_ELLIPSIZE_MIDDLE : PANGO_ELLIPSIZE_END);
  if (is_numeric (column))
    gtk_widget_add_css_class (label, "numeric");
  if (column == BL_HEAP_COLUMN_NAME)
    {
      bl_cell_tooltip_attach_label (label);
    }

  if (expander)
    {
      GtkWidget *tree_expander = gtk_tree_expander_new ();

      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (tree_expander), label);
      gtk_list_item_set_child (list_item, tree_expander);
    }
  else
    gtk_list_item_set_child (list_item, label);
}

static void
cell_bind (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  BlHeapColumn column = GPOINTER_TO_UINT (user_data) & 0xff;
  gpointer object = gtk_list_item_get_item (list_item);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  g_autoptr(BlHeapItem) item = NULL;
  g_autofree char *text = NULL;
  GtkWidget *label = child;

  if (GTK_IS_TREE_EXPANDER (child))
    {
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child),
                                      GTK_IS_TREE_LIST_ROW (object) ? object : NULL);
      label = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
    }
  if (object == NULL)
    return;

  item = dup_row_item (object);
  text = bl_heap_column_dup_text (column, item);
  gtk_label_set_text (GTK_LABEL (label), text);
}

static void
cell_unbind (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);

  if (GTK_IS_TREE_EXPANDER (child))
    gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), NULL);
}

static int
compare_cells (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  BlHeapColumn column = GPOINTER_TO_UINT (user_data);
  g_autoptr(BlHeapItem) ia = dup_row_item ((gpointer) a);
  g_autoptr(BlHeapItem) ib = dup_row_item ((gpointer) b);

  if (column == BL_HEAP_COLUMN_NAME)
    {
      g_autofree char *ta = bl_heap_column_dup_text (column, ia);
      g_autofree char *tb = bl_heap_column_dup_text (column, ib);
      g_autofree char *fa = g_utf8_casefold (ta, -1);
      g_autofree char *fb = g_utf8_casefold (tb, -1);
      int order = g_utf8_collate (fa, fb);

      return order < 0 ? GTK_ORDERING_SMALLER : order > 0 ? GTK_ORDERING_LARGER
                                                          : GTK_ORDERING_EQUAL;
    }
  else
    {
      gint64 va = bl_heap_column_get_value (column, ia);
      gint64 vb = bl_heap_column_get_value (column, ib);

      return va < vb ? GTK_ORDERING_SMALLER : va > vb ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
    }
}

GtkColumnViewColumn *
bl_heap_column_add (GtkColumnView *view,
                    const char    *title,
                    BlHeapColumn   column,
                    gboolean       expander,
                    gboolean       sortable)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  gpointer data = GUINT_TO_POINTER ((guint) column | (expander ? 0x100 : 0));
  GtkColumnViewColumn *result;

  g_signal_connect (factory, "setup", G_CALLBACK (cell_setup), data);
  g_signal_connect (factory, "bind", G_CALLBACK (cell_bind), data);
  g_signal_connect (factory, "unbind", G_CALLBACK (cell_unbind), data);
  result = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_resizable (result, TRUE);
  if (column == BL_HEAP_COLUMN_NAME)
    gtk_column_view_column_set_expand (result, TRUE);
  if (sortable)
    {
      GtkSorter *sorter = GTK_SORTER (gtk_custom_sorter_new (compare_cells,
                                                             GUINT_TO_POINTER (column), NULL));

      gtk_column_view_column_set_sorter (result, sorter);
      g_object_unref (sorter);
    }
  gtk_column_view_append_column (view, result);
  g_object_unref (result);

  return result;
}
