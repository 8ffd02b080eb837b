/* bl-line-item.c — one line record as a list item, and the columns that show it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-line-item"

#include "config.h"

#include <glib/gi18n.h>

#include "bl-cell-tooltip.h"
#include "bl-line-item.h"

struct _BlLineItem
{
  GObject    parent_instance;
  BlProfile *profile;
  guint32    line_index;
};

G_DEFINE_FINAL_TYPE (BlLineItem, bl_line_item, G_TYPE_OBJECT)

enum
{
  COLUMN_LOCATION = -1,
  COLUMN_FILE = -2,
  COLUMN_LINE = -3,
  COLUMN_FUNCTION = -4,
};

static void
bl_line_item_finalize (GObject *object)
{
  BlLineItem *self = (BlLineItem *) object;

  g_clear_object (&self->profile);

  G_OBJECT_CLASS (bl_line_item_parent_class)->finalize (object);
}

static void
bl_line_item_class_init (BlLineItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = bl_line_item_finalize;
}

static void
bl_line_item_init (BlLineItem *self)
{
}

BlLineItem *
bl_line_item_new (BlProfile *profile,
                  guint32    line_index)
{
  BlLineItem *self;

  g_return_val_if_fail (BL_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (line_index < bl_profile_get_n_lines (profile), NULL);

  self = g_object_new (BL_TYPE_LINE_ITEM, NULL);
  self->profile = g_object_ref (profile);
  self->line_index = line_index;

  return self;
}

BlProfile *
bl_line_item_get_profile (BlLineItem *self)
{
  g_return_val_if_fail (BL_IS_LINE_ITEM (self), NULL);

  return self->profile;
}

guint32
bl_line_item_get_line_index (BlLineItem *self)
{
  g_return_val_if_fail (BL_IS_LINE_ITEM (self), 0);

  return self->line_index;
}

/* Returns: (transfer full): "pkg:/source/main.brs:42" */
char *
bl_line_item_dup_location (BlLineItem *self)
{
  const BlLine *line;

  g_return_val_if_fail (BL_IS_LINE_ITEM (self), NULL);

  line = bl_profile_get_line (self->profile, self->line_index);

  return g_strdup_printf ("%s:%u", bl_profile_get_string (self->profile, line->file), line->line);
}

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *list_item,
          gpointer                  user_data)
{
  int column = GPOINTER_TO_INT (user_data);
  GtkWidget *label = gtk_label_new (NULL);

  if (column >= 0 || column == COLUMN_LINE)
    {
      gtk_label_set_xalign (GTK_LABEL (label), 1.0);
      gtk_widget_add_css_class (label, "numeric");
    }
  else
    {
      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_label_set_ellipsize (GTK_LABEL (label),
                               column == COLUMN_FUNCTION ? PANGO_ELLIPSIZE_END
                                                         : PANGO_ELLIPSIZE_START);
      bl_cell_tooltip_attach_label (label);
    }
  gtk_list_item_set_child (list_item, label);
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *list_item,
         gpointer                  user_data)
{
  int column = GPOINTER_TO_INT (user_data);
  BlLineItem *item = gtk_list_item_get_item (list_item);
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (list_item));
  const BlLine *line = bl_profile_get_line (item->profile, item->line_index);
  g_autofree char *text = NULL;

  switch (column)
    {
    case COLUMN_LOCATION:
      text = bl_line_item_dup_location (item);
      break;
    case COLUMN_FILE:
      text = g_strdup (bl_profile_get_string (item->profile, line->file));
      break;
    case COLUMN_LINE:
      text = g_strdup_printf ("%u", line->line);
      break;
    case COLUMN_FUNCTION:
      text = g_strdup (bl_profile_get_string (item->profile, line->function));
      break;
    default:
      {
        guint64 v = bl_profile_get_line_value (item->profile, column, item->line_index);

        text = v ? bl_profile_format_value (item->profile, column, v) : g_strdup ("");
      }
      break;
    }

  gtk_label_set_text (label, text);
}

static void
add_column (GtkColumnView *view,
            const char    *title,
            int            column,
            gboolean       expand)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *col;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), GINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), GINT_TO_POINTER (column));
  col = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_expand (col, expand);
  gtk_column_view_column_set_resizable (col, TRUE);
  gtk_column_view_append_column (view, col);
  g_object_unref (col);
}

void
bl_line_item_add_columns (GtkColumnView    *view,
                          gboolean          split_location,
                          const BlMetricId *metrics,
                          guint             n_metrics)
{
  g_return_if_fail (GTK_IS_COLUMN_VIEW (view));

  if (split_location)
    {
      add_column (view, _("File"), COLUMN_FILE, TRUE);
      add_column (view, _("Line"), COLUMN_LINE, FALSE);
    }
  else
    add_column (view, _("Location"), COLUMN_LOCATION, TRUE);
  add_column (view, _("Function"), COLUMN_FUNCTION, TRUE);

  for (guint i = 0; i < n_metrics; i++)
    add_column (view, _(bl_metric_get_info (metrics[i])->short_name), metrics[i], FALSE);
}
