/* bl-cell-tooltip.c — a list cell's tooltip, made when it is asked for
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "bl-cell-tooltip.h"

static gboolean
label_query_tooltip_cb (GtkWidget  *label,
                        int         x,
                        int         y,
                        gboolean    keyboard,
                        GtkTooltip *tooltip,
                        gpointer    user_data)
{
  const char *text = gtk_label_get_text (GTK_LABEL (label));

  if (text == NULL || text[0] == '\0')
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);

  return TRUE;
}

/**
 * bl_cell_tooltip_attach_label:
 * @label: a #GtkLabel, as a list item factory's setup makes it
 *
 * Gives @label a tooltip of its whole text, whatever it is set to later.
 */
void
bl_cell_tooltip_attach_label (GtkWidget *label)
{
  g_return_if_fail (GTK_IS_LABEL (label));

  gtk_widget_set_has_tooltip (label, TRUE);
  g_signal_connect (label, "query-tooltip", G_CALLBACK (label_query_tooltip_cb), NULL);
}
