/* bl-window-record.c
 *
 * The window's side of recording: win.record (Ctrl+R) opens the Record
 * dialog; its "record" starts a BlRecordingView in a new tab. Closing a tab
 * that still records asks first, then stops it and closes the tab once
 * every stream ended and the files are complete.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-window-record"

#include "config.h"

#include <glib/gi18n.h>

#include "bl-alert.h"
#include "bl-record-dialog.h"
#include "bl-recording-view.h"
#include "bl-window-private.h"
#include "bl-window-record.h"

/* the window's subtitle names the recording in the selected tab */
static void
update_title (BlWindow *self)
{
  AdwTabPage *tab = adw_tab_view_get_selected_page (self->tab_view);
  GtkWidget *child = tab != NULL ? adw_tab_page_get_child (tab) : NULL;
  GFile *folder;
  g_autofree char *path = NULL;

  if (child == NULL || !BL_IS_RECORDING_VIEW (child))
    return;

  folder = bl_recording_view_get_folder (BL_RECORDING_VIEW (child));
  path = folder != NULL ? g_file_get_path (folder) : NULL;
  adw_window_title_set_subtitle (self->window_title,
                                 bl_recording_view_get_title (BL_RECORDING_VIEW (child)));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->window_title), path);
}

static void
recording_state_changed (AdwTabView      *tab_view,
                         BlRecordingView *view)
{
  AdwTabPage *tab = adw_tab_view_get_page (tab_view, GTK_WIDGET (view));
  g_autoptr(GIcon) icon = NULL;

  if (tab == NULL)
    return;
  if (bl_recording_view_get_state (view) == BL_RECORDING_VIEW_RECORDING)
    icon = g_themed_icon_new ("media-record-symbolic");
  adw_tab_page_set_title (tab, bl_recording_view_get_title (view));
  adw_tab_page_set_loading (tab, bl_recording_view_get_state (view) == BL_RECORDING_VIEW_STOPPING);
  adw_tab_page_set_indicator_icon (tab, icon);
}

static void
record_cb (BlWindow       *self,
           BlRecordDialog *dialog)
{
  g_autoptr(GFile) folder = bl_record_dialog_dup_folder (dialog);
  g_autoptr(GError) error = NULL;
  BlRecordingOptions options = {
    .device = bl_record_dialog_get_device (dialog),
    .profiler_port = bl_record_dialog_get_profiler_port (dialog),
    .console_port = bl_record_dialog_get_console_port (dialog),
    .profile = bl_record_dialog_get_capture_profile (dialog),
    .resources = bl_record_dialog_get_capture_resources (dialog),
    .trace = bl_record_dialog_get_capture_trace (dialog),
    .interval_ms = bl_record_dialog_get_interval_ms (dialog),
    .folder = folder,
  };

  if (bl_window_record (self, &options, &error) == NULL)
    adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (error->message));
}

static void
record_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  BlWindow *self = BL_WINDOW (widget);
  BlRecordDialog *dialog = bl_record_dialog_new (GTK_WINDOW (self));

  g_signal_connect_object (dialog, "record", G_CALLBACK (record_cb), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
  bl_record_dialog_search (dialog);
}

/* ------------------------------------------------------------------------ */
/* closing a tab that records                                                */

/* "Stop Recording?" with Keep Recording (also on Escape) and Stop and Close */
static GObject *
stop_alert_new (const char *body)
{
  GObject *alert = bl_alert_new (_("Stop Recording?"), body);

  bl_alert_add_response (alert, "cancel", _("_Keep Recording"));
  bl_alert_add_response (alert, "stop", _("_Stop and Close"));
  bl_alert_set_suggested (alert, "stop");
  bl_alert_set_close_response (alert, "cancel");

  return alert;
}

static void
stopped_then_close (BlRecordingView *view,
                    AdwTabPage      *tab)
{
  AdwTabView *tab_view;

  if (bl_recording_view_get_state (view) == BL_RECORDING_VIEW_RECORDING
      || bl_recording_view_get_state (view) == BL_RECORDING_VIEW_STOPPING)
    return;

  g_signal_handlers_disconnect_by_func (view, stopped_then_close, tab);
  tab_view = ADW_TAB_VIEW (gtk_widget_get_ancestor (GTK_WIDGET (view), ADW_TYPE_TAB_VIEW));
  if (tab_view != NULL)
    adw_tab_view_close_page_finish (tab_view, tab, TRUE);
}

static void
close_response_cb (GObject    *alert,
                   const char *response,
                   AdwTabPage *tab)
{
  BlRecordingView *view = BL_RECORDING_VIEW (adw_tab_page_get_child (tab));
  AdwTabView *tab_view = ADW_TAB_VIEW (gtk_widget_get_ancestor (GTK_WIDGET (view),
                                                                 ADW_TYPE_TAB_VIEW));
  gulong handler;

  if (tab_view == NULL)
    return;

  if (g_strcmp0 (response, "stop") != 0 || !bl_recording_view_is_recording (view))
    {
      adw_tab_view_close_page_finish (tab_view, tab, g_strcmp0 (response, "stop") == 0);
      return;
    }

  /* the tab goes once the files are complete; stopping may complete them at
   * once, and then the handler has closed the tab already */
  handler = g_signal_connect_data (view, "state-changed", G_CALLBACK (stopped_then_close),
                                   g_object_ref (tab),
                                   (GClosureNotify) (void (*) (void)) g_object_unref, 0);
  bl_recording_view_stop (view);
  if (g_signal_handler_is_connected (view, handler))
    stopped_then_close (view, tab);
}

static gboolean
close_page_cb (BlWindow   *self,
               AdwTabPage *tab)
{
  GtkWidget *child = adw_tab_page_get_child (tab);
  GObject *alert;

  if (!BL_IS_RECORDING_VIEW (child) || !bl_recording_view_is_recording (BL_RECORDING_VIEW (child)))
    return GDK_EVENT_PROPAGATE;

  alert = stop_alert_new (_("The tab records from a device. Stopping keeps what arrived so far "
                            "in the recording’s folder."));
  g_signal_connect_data (alert, "response", G_CALLBACK (close_response_cb), g_object_ref (tab),
                         (GClosureNotify) (void (*) (void)) g_object_unref, 0);
  bl_alert_present (alert, GTK_WINDOW (self));

  return GDK_EVENT_STOP;
}

/* ------------------------------------------------------------------------ */
/* closing the window while tabs record                                     */

static gboolean
any_recording (BlWindow *self,
               gboolean  or_stopping)
{
  for (int i = 0; i < adw_tab_view_get_n_pages (self->tab_view); i++)
    {
      GtkWidget *child = adw_tab_page_get_child (adw_tab_view_get_nth_page (self->tab_view, i));
      BlRecordingViewState state;

      if (!BL_IS_RECORDING_VIEW (child))
        continue;
      state = bl_recording_view_get_state (BL_RECORDING_VIEW (child));
      if (state == BL_RECORDING_VIEW_RECORDING
          || (or_stopping && state == BL_RECORDING_VIEW_STOPPING))
        return TRUE;
    }
  return FALSE;
}

/* once every recording has its files complete, the window goes */
static void
stopped_then_destroy (BlWindow *self)
{
  if (any_recording (self, TRUE))
    return;
  for (int i = 0; i < adw_tab_view_get_n_pages (self->tab_view); i++)
    {
      GtkWidget *child = adw_tab_page_get_child (adw_tab_view_get_nth_page (self->tab_view, i));

      if (BL_IS_RECORDING_VIEW (child))
        g_signal_handlers_disconnect_by_func (child, stopped_then_destroy, self);
    }
  /* nothing records now: the window closes as any other time */
  gtk_window_close (GTK_WINDOW (self));
}

static void
close_window_response_cb (GObject    *alert,
                          const char *response,
                          BlWindow   *self)
{
  if (g_strcmp0 (response, "stop") != 0)
    return;

  g_object_ref (self);
  for (int i = 0; i < adw_tab_view_get_n_pages (self->tab_view); i++)
    {
      GtkWidget *child = adw_tab_page_get_child (adw_tab_view_get_nth_page (self->tab_view, i));

      if (!BL_IS_RECORDING_VIEW (child))
        continue;
      g_signal_connect_object (child, "state-changed", G_CALLBACK (stopped_then_destroy), self,
                               G_CONNECT_SWAPPED);
      if (bl_recording_view_is_recording (BL_RECORDING_VIEW (child)))
        bl_recording_view_stop (BL_RECORDING_VIEW (child));
    }
  stopped_then_destroy (self);
  g_object_unref (self);
}

/*
 * _bl_window_record_ask_close:
 *
 * Asks before the window closes while a tab records; the window goes once
 * the recordings' files are complete.
 *
 * Returns: TRUE when the close waits for the answer
 */
gboolean
_bl_window_record_ask_close (BlWindow *self)
{
  GObject *alert;

  if (!any_recording (self, FALSE))
    return FALSE;

  alert = stop_alert_new (_("A tab records from a device. Stopping keeps what arrived so far "
                            "in the recording’s folder."));
  g_signal_connect_object (alert, "response", G_CALLBACK (close_window_response_cb), self, 0);
  bl_alert_present (alert, GTK_WINDOW (self));

  return TRUE;
}

/* ------------------------------------------------------------------------ */

/**
 * bl_window_record:
 *
 * Starts recording what @options says in a new tab.
 *
 * Returns: (transfer none) (nullable): the tab's view, or NULL with @error
 *   when the recording's folder cannot be written
 */
BlRecordingView *
bl_window_record (BlWindow                 *self,
                  const BlRecordingOptions *options,
                  GError                  **error)
{
  BlRecordingView *view;
  AdwTabPage *tab;

  g_return_val_if_fail (BL_IS_WINDOW (self), NULL);
  g_return_val_if_fail (options != NULL, NULL);

  view = g_object_ref_sink (bl_recording_view_new ());
  if (!bl_recording_view_start (view, options, error))
    {
      g_object_unref (view);
      return NULL;
    }

  tab = adw_tab_view_append (self->tab_view, GTK_WIDGET (view));
  g_object_unref (view);
  g_signal_connect_object (view, "state-changed", G_CALLBACK (recording_state_changed),
                           self->tab_view, G_CONNECT_SWAPPED);
  recording_state_changed (self->tab_view, view);
  adw_tab_view_set_selected_page (self->tab_view, tab);
  update_title (self);
  _bl_window_add_recent (self, bl_recording_view_get_folder (view));

  return view;
}

void
_bl_window_class_record_init (GtkWidgetClass *widget_class)
{
  g_type_ensure (BL_TYPE_RECORDING_VIEW);
  gtk_widget_class_install_action (widget_class, "win.record", NULL, record_action);
}

void
_bl_window_record_init (BlWindow *self)
{
  g_signal_connect_object (self->tab_view, "close-page", G_CALLBACK (close_page_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->tab_view, "notify::selected-page", G_CALLBACK (update_title),
                           self, G_CONNECT_SWAPPED);
}
