/* bl-alert.c
 *
 * The app's alerts go through these few functions so that the choice between
 * AdwAlertDialog (libadwaita 1.5, shown inside the window) and AdwMessageDialog
 * (libadwaita 1.2, a window of its own) is made in one place.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-alert"

#include "config.h"

#include "bl-alert.h"

#if ADW_CHECK_VERSION (1, 5, 0)
# define BL_ALERT_IS_DIALOG 1
#else
# define BL_ALERT_IS_DIALOG 0
#endif

GObject *
bl_alert_new (const char *heading,
              const char *body)
{
#if BL_ALERT_IS_DIALOG
  return G_OBJECT (adw_alert_dialog_new (heading, body));
#else
  return G_OBJECT (adw_message_dialog_new (NULL, heading, body));
#endif
}

void
bl_alert_add_response (GObject    *alert,
                       const char *id,
                       const char *label)
{
#if BL_ALERT_IS_DIALOG
  adw_alert_dialog_add_response (ADW_ALERT_DIALOG (alert), id, label);
#else
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (alert), id, label);
#endif
}

/* the highlighted response, which Enter chooses */
void
bl_alert_set_suggested (GObject    *alert,
                        const char *id)
{
#if BL_ALERT_IS_DIALOG
  adw_alert_dialog_set_response_appearance (ADW_ALERT_DIALOG (alert), id,
                                            ADW_RESPONSE_SUGGESTED);
  adw_alert_dialog_set_default_response (ADW_ALERT_DIALOG (alert), id);
#else
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (alert), id,
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (alert), id);
#endif
}

/* what Escape or closing the alert answers */
void
bl_alert_set_close_response (GObject    *alert,
                             const char *id)
{
#if BL_ALERT_IS_DIALOG
  adw_alert_dialog_set_close_response (ADW_ALERT_DIALOG (alert), id);
#else
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (alert), id);
#endif
}

void
bl_alert_present (GObject   *alert,
                  GtkWindow *parent)
{
#if BL_ALERT_IS_DIALOG
  adw_dialog_present (ADW_DIALOG (alert), GTK_WIDGET (parent));
#else
  if (parent != NULL)
    {
      gtk_window_set_transient_for (GTK_WINDOW (alert), parent);
      gtk_window_set_modal (GTK_WINDOW (alert), TRUE);
    }
  gtk_window_present (GTK_WINDOW (alert));
#endif
}

GObject *
bl_alert_find (GtkWindow *parent)
{
#if BL_ALERT_IS_DIALOG
  AdwDialog *dialog = NULL;

  if (ADW_IS_APPLICATION_WINDOW (parent))
    dialog = adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (parent));
  else if (ADW_IS_WINDOW (parent))
    dialog = adw_window_get_visible_dialog (ADW_WINDOW (parent));

  return ADW_IS_ALERT_DIALOG (dialog) ? G_OBJECT (dialog) : NULL;
#else
  g_autoptr(GListModel) toplevels = g_object_ref (gtk_window_get_toplevels ());
  GObject *found = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (item) && gtk_widget_get_visible (GTK_WIDGET (item)) &&
          gtk_window_get_transient_for (GTK_WINDOW (item)) == parent)
        found = item;
    }

  return found;
#endif
}

const char *
bl_alert_get_heading (GObject *alert)
{
#if BL_ALERT_IS_DIALOG
  return adw_alert_dialog_get_heading (ADW_ALERT_DIALOG (alert));
#else
  return adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (alert));
#endif
}

gboolean
bl_alert_has_response (GObject    *alert,
                       const char *id)
{
#if BL_ALERT_IS_DIALOG
  return adw_alert_dialog_has_response (ADW_ALERT_DIALOG (alert), id);
#else
  return adw_message_dialog_has_response (ADW_MESSAGE_DIALOG (alert), id);
#endif
}

const char *
bl_alert_get_default_response (GObject *alert)
{
#if BL_ALERT_IS_DIALOG
  return adw_alert_dialog_get_default_response (ADW_ALERT_DIALOG (alert));
#else
  return adw_message_dialog_get_default_response (ADW_MESSAGE_DIALOG (alert));
#endif
}

/* answers as if the user had chosen @id, and closes the alert */
void
bl_alert_respond (GObject    *alert,
                  const char *id)
{
#if BL_ALERT_IS_DIALOG
  /* closing answers with the close response, once: emitting @id as well
   * would answer twice */
  adw_alert_dialog_set_close_response (ADW_ALERT_DIALOG (alert), id);
  adw_dialog_force_close (ADW_DIALOG (alert));
#else
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (alert), id);
#endif
}
