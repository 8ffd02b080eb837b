/* bl-record-dialog.c
 *
 * Record…: the Roku devices that answer an SSDP search (searched again on
 * request, a spinner while it runs; each listed by its name and model once
 * its device-info is read), or an address typed in; the device reached is
 * checked as `brightlens-cli record` checks it (device-info, developer
 * mode, the app in the foreground sideloaded, the profiler port open) and
 * what stops a recording is said in the capture library's one sentence.
 * Then what to capture, the polling interval and the folder. "record" is
 * emitted when the user presses Record; the window reads the choices.
 *
 * The network callbacks borrow the dialog: dispose cancels every request,
 * and a cancelled callback touches nothing of it (so the dialog goes with
 * its window, not after).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-record-dialog"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "bl-capture-error.h"
#include "bl-resource-poller.h"

#include "bl-record-dialog.h"

#define SEARCH_TIMEOUT_MS 2000
#define PROBE_TIMEOUT_S   3

struct _BlRecordDialog
{
  AdwWindow             parent_instance;

  GSocketAddress       *discovery_target;
  GCancellable         *search_cancellable;
  GCancellable         *connect_cancellable;
  BlDevice             *device;            /* the device being reached or reached */
  gboolean              reached;
  gboolean              profile_offered;
  gboolean              busy;
  gboolean              searching;
  guint                 n_devices;
  GFile                *base_folder;
  char                 *folder_name;
  GtkFileChooserNative *chooser;

  /* template */
  GtkButton            *record_button;
  GtkSpinner           *search_spinner;
  GtkButton            *refresh_button;
  GtkListBox           *devices_list;
  AdwEntryRow          *address_row;
  AdwActionRow         *status_row;
  GtkImage             *status_icon;
  GtkSpinner           *connect_spinner;
  GtkSpinButton        *ecp_port_spin;
  GtkSpinButton        *profiler_port_spin;
  GtkSpinButton        *console_port_spin;
  AdwActionRow         *profile_row;
  GtkSwitch            *profile_switch;
  GtkSwitch            *resources_switch;
  GtkSpinButton        *interval_spin;
  GtkSwitch            *trace_switch;
  AdwActionRow         *folder_row;
};

enum {
  RECORD,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (BlRecordDialog, bl_record_dialog, ADW_TYPE_WINDOW)

static guint signals[N_SIGNALS];

static void
update_record_button (BlRecordDialog *self)
{
  gtk_widget_set_sensitive (GTK_WIDGET (self->record_button),
                            bl_record_dialog_get_can_record (self));
}

/* ------------------------------------------------------------------------ */
/* the output folder                                                         */

static GFile *
default_base_folder (void)
{
  const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);
  g_autofree char *fallback = NULL;

  if (documents == NULL)
    documents = fallback = g_build_filename (g_get_home_dir (), "Documents", NULL);

  return g_file_new_build_filename (documents, "Brightlens", NULL);
}

/* "<app>-<date>-<time>", with what a file name cannot hold replaced */
static char *
make_folder_name (const char *app)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *date = g_date_time_format (now, "%Y-%m-%d-%H%M%S");
  g_autofree char *name = g_strdup (app != NULL && app[0] != '\0' ? app : "recording");

  g_strdelimit (name, "/\\:*?\"<>|", '-');
  if (name[0] == '.')
    name[0] = '_';

  return g_strdup_printf ("%s-%s", name, date);
}

static void
update_folder_row (BlRecordDialog *self)
{
  g_autoptr(GFile) folder = bl_record_dialog_dup_folder (self);
  g_autofree char *path = g_file_get_path (folder);

  adw_action_row_set_subtitle (self->folder_row, path);
}

static void
folder_response_cb (BlRecordDialog       *self,
                    int                   response,
                    GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (folder != NULL)
        bl_record_dialog_set_base_folder (self, folder);
    }

  if (self->chooser == chooser)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (chooser));
      g_clear_object (&self->chooser);
    }
}

static void
folder_clicked_cb (BlRecordDialog *self)
{
  if (self->chooser != NULL)
    return;

  self->chooser = gtk_file_chooser_native_new (_("Save Recordings In"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               _("_Select"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (folder_response_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* ------------------------------------------------------------------------ */
/* reaching a device                                                         */

static void
set_busy (BlRecordDialog *self,
          gboolean        busy)
{
  self->busy = busy;
  gtk_spinner_set_spinning (self->connect_spinner, busy);
  gtk_widget_set_visible (GTK_WIDGET (self->connect_spinner), busy);
}

static void
show_status (BlRecordDialog *self,
             const char     *icon,
             const char     *title,
             const char     *text)
{
  gtk_image_set_from_icon_name (self->status_icon, icon);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->status_row), title);
  adw_action_row_set_subtitle (self->status_row, text);
}

static void
connect_failed (BlRecordDialog *self,
                GError         *error)
{
  /* the dialog may be gone: nothing of it is touched */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  set_busy (self, FALSE);
  self->reached = FALSE;
  show_status (self, "dialog-warning-symbolic", _("Cannot record from this device"),
               error->message);
  update_record_button (self);
}

static void
connected (BlRecordDialog *self)
{
  g_autofree char *title = NULL;
  g_autofree char *text = NULL;
  const char *model = bl_device_get_model (self->device);
  const char *version = bl_device_get_app_version (self->device);

  set_busy (self, FALSE);
  self->reached = TRUE;

  title = model != NULL ? g_strdup_printf (_("%s (%s)"), bl_device_get_display_name (self->device),
                                           model)
                        : g_strdup (bl_device_get_display_name (self->device));
  /* Translators: the device reached: Roku OS version, then the app in the
   * foreground with its version */
  text = g_strdup_printf (_("Roku OS %s · App: %s %s"),
                          bl_device_get_software_version (self->device) != NULL
                            ? bl_device_get_software_version (self->device) : "?",
                          bl_device_get_app_name (self->device) != NULL
                            ? bl_device_get_app_name (self->device) : "?",
                          version != NULL ? version : "");
  g_strstrip (text);
  show_status (self, "emblem-ok-symbolic", title, text);

  /* the profile is offered only when the profiler port answers */
  gtk_widget_set_sensitive (GTK_WIDGET (self->profile_switch), self->profile_offered);
  gtk_switch_set_active (self->profile_switch, self->profile_offered);
  if (self->profile_offered)
    adw_action_row_set_subtitle (self->profile_row,
                                 _("The profiler’s stream on the profiler port"));
  else
    {
      g_autofree char *why =
        g_strdup_printf (_("%s does not stream a profile on port %u: add "
                           "bsprof_enable=1 and bsprof_data_dest=network to the "
                           "app's manifest, then start the app again."),
                         bl_device_get_display_name (self->device),
                         bl_record_dialog_get_profiler_port (self));

      adw_action_row_set_subtitle (self->profile_row, why);
    }

  g_free (self->folder_name);
  self->folder_name = make_folder_name (bl_device_get_app_name (self->device));
  update_folder_row (self);
  update_record_button (self);
}

static void
probe_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  BlRecordDialog *self = user_data;
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GError) error = NULL;

  connection = g_socket_client_connect_to_host_finish (G_SOCKET_CLIENT (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (connection != NULL)
    g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);

  self->profile_offered = connection != NULL;
  connected (self);
}

static void
active_app_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  BlRecordDialog *self = user_data;
  g_autoptr(GSocketClient) client = NULL;
  g_autoptr(GError) error = NULL;

  if (!bl_device_query_active_app_finish (BL_DEVICE (source), result, &error)
      || !bl_device_check_sideloaded (BL_DEVICE (source), &error))
    {
      connect_failed (self, error);
      return;
    }

  client = g_socket_client_new ();
  g_socket_client_set_timeout (client, PROBE_TIMEOUT_S);
  g_socket_client_connect_to_host_async (client, bl_device_get_host (self->device),
                                         (guint16) bl_record_dialog_get_profiler_port (self),
                                         self->connect_cancellable, probe_cb, self);
}

static void
info_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  BlRecordDialog *self = user_data;
  g_autoptr(GError) error = NULL;

  if (!bl_device_query_info_finish (BL_DEVICE (source), result, &error)
      || !bl_device_check_developer_mode (BL_DEVICE (source), &error))
    {
      connect_failed (self, error);
      return;
    }

  bl_device_query_active_app_async (self->device, self->connect_cancellable, active_app_cb,
                                    self);
}

static void
address_apply_cb (BlRecordDialog *self)
{
  bl_record_dialog_connect (self, gtk_editable_get_text (GTK_EDITABLE (self->address_row)));
}

/* ------------------------------------------------------------------------ */
/* searching                                                                 */

static void
row_info_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(AdwActionRow) row = user_data;
  BlDevice *device = BL_DEVICE (source);
  g_autofree char *subtitle = NULL;

  if (!bl_device_query_info_finish (device, result, NULL))
    return;

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), bl_device_get_display_name (device));
  subtitle = g_strdup_printf ("%s · %s:%u",
                              bl_device_get_model (device) != NULL
                                ? bl_device_get_model (device) : "?",
                              bl_device_get_host (device), bl_device_get_ecp_port (device));
  adw_action_row_set_subtitle (row, subtitle);
}

static void
add_device_row (BlRecordDialog *self,
                BlDevice       *device)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *address = g_strdup_printf ("%s:%u", bl_device_get_host (device),
                                              bl_device_get_ecp_port (device));

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), address);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                             gtk_image_new_from_icon_name ("go-next-symbolic"));
  g_object_set_data_full (G_OBJECT (row), "device", g_object_ref (device), g_object_unref);
  gtk_list_box_append (self->devices_list, row);
  self->n_devices++;

  bl_device_query_info_async (device, self->search_cancellable, row_info_cb,
                              g_object_ref (row));
}

static void
clear_devices (BlRecordDialog *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->devices_list))) != NULL)
    gtk_list_box_remove (self->devices_list, child);
  self->n_devices = 0;
}

static void
show_no_devices (BlRecordDialog *self,
                 const char     *text)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("No device found"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), text);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_append (self->devices_list, row);
}

static void
set_searching (BlRecordDialog *self,
               gboolean        searching)
{
  self->searching = searching;
  gtk_spinner_set_spinning (self->search_spinner, searching);
  gtk_widget_set_visible (GTK_WIDGET (self->search_spinner), searching);
  gtk_widget_set_sensitive (GTK_WIDGET (self->refresh_button), !searching);
}

static void
discover_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  BlRecordDialog *self = user_data;
  g_autoptr(GPtrArray) devices = NULL;
  g_autoptr(GError) error = NULL;

  devices = bl_device_discover_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  set_searching (self, FALSE);
  clear_devices (self);
  if (devices == NULL)
    {
      show_no_devices (self, error->message);
      return;
    }
  for (guint i = 0; i < devices->len; i++)
    add_device_row (self, g_ptr_array_index (devices, i));
  if (devices->len == 0)
    show_no_devices (self, _("Check that the device is on and on the same network, or type "
                             "its address below."));
}

static void
refresh_clicked_cb (BlRecordDialog *self)
{
  bl_record_dialog_search (self);
}

static void
device_activated_cb (BlRecordDialog *self,
                     GtkListBoxRow  *row)
{
  BlDevice *device = g_object_get_data (G_OBJECT (row), "device");
  g_autofree char *address = NULL;

  if (device == NULL)
    return;

  gtk_spin_button_set_value (self->ecp_port_spin, bl_device_get_ecp_port (device));
  address = g_strdup_printf ("%s:%u", bl_device_get_host (device),
                             bl_device_get_ecp_port (device));
  gtk_editable_set_text (GTK_EDITABLE (self->address_row), address);
  bl_record_dialog_connect (self, address);
}

static void
record_clicked_cb (BlRecordDialog *self)
{
  bl_record_dialog_record (self);
}

/* ------------------------------------------------------------------------ */

static void
bl_record_dialog_dispose (GObject *object)
{
  BlRecordDialog *self = BL_RECORD_DIALOG (object);

  g_cancellable_cancel (self->search_cancellable);
  g_cancellable_cancel (self->connect_cancellable);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_object (&self->search_cancellable);
  g_clear_object (&self->connect_cancellable);
  g_clear_object (&self->discovery_target);
  g_clear_object (&self->device);
  g_clear_object (&self->base_folder);

  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_RECORD_DIALOG);

  G_OBJECT_CLASS (bl_record_dialog_parent_class)->dispose (object);
}

static void
bl_record_dialog_finalize (GObject *object)
{
  BlRecordDialog *self = BL_RECORD_DIALOG (object);

  g_free (self->folder_name);

  G_OBJECT_CLASS (bl_record_dialog_parent_class)->finalize (object);
}

static void
bl_record_dialog_class_init (BlRecordDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_record_dialog_dispose;
  object_class->finalize = bl_record_dialog_finalize;

  /**
   * BlRecordDialog::record:
   *
   * The user pressed Record on a device reached; the dialog closes after.
   */
  signals[RECORD] = g_signal_new ("record", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE_PATH "/ui/bl-record-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, BlRecordDialog, record_button);
  gtk_widget_class_bind_template_child (widget_class, BlRecordDialog, search_spinner);
  gtk_widget_class_bind_template_child (widget_class, BlRecordDialog, refresh_button);
  gtk_widget_class_bind_template_child (widget_class, BlRecordDialog, devices_list);
  gtk_widget_class_bind_template_child (widget_class, BlRecordDialog, address_row);
  gtk_widget_class_bind_template_child (widget_class, BlRecordDialog, status_row);
  gtk_widget_class_bind_template_child (widget_class, BlRecordDialog, status_icon);
  gtk_widget_class_bind_template_child (widget_class, BlRecordDialog, connect_spinner);
  gtk_widget_class_bind_template_child (widget_class, BlRecordDialog, ecp_port_spin);
  gtk_widget_class_bind_template_child (widget_class, BlRecordDialog, profiler_port_spin);
  gtk_widget_class_bind_template_child (widget_class, BlRecordDialog, console_port_spin);
  gtk_widget_class_bind_template_child (widget_class, BlRecordDialog, profile_row);
  gtk_widget_class_bind_template_child (widget_class, BlRecordDialog, profile_switch);
  gtk_widget_class_bind_template_child (widget_class, BlRecordDialog, resources_switch);
  gtk_widget_class_bind_template_child (widget_class, BlRecordDialog, interval_spin);
  gtk_widget_class_bind_template_child (widget_class, BlRecordDialog, trace_switch);
  gtk_widget_class_bind_template_child (widget_class, BlRecordDialog, folder_row);
  gtk_widget_class_bind_template_callback (widget_class, update_record_button);
  gtk_widget_class_bind_template_callback (widget_class, address_apply_cb);
  gtk_widget_class_bind_template_callback (widget_class, refresh_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, device_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, folder_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, record_clicked_cb);
}

static void
bl_record_dialog_init (BlRecordDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->base_folder = default_base_folder ();
  self->folder_name = make_folder_name (NULL);
  set_busy (self, FALSE);
  set_searching (self, FALSE);
  update_folder_row (self);
  update_record_button (self);
}

/* ------------------------------------------------------------------------ */

/* A dialog over @parent; it searches the network once shown (a search
 * starts at bl_record_dialog_search()). */
BlRecordDialog *
bl_record_dialog_new (GtkWindow *parent)
{
  return g_object_new (BL_TYPE_RECORD_DIALOG, "transient-for", parent, NULL);
}

/* Where the SSDP search goes (tests: a fake device's port on loopback);
 * NULL: the SSDP multicast group. */
void
bl_record_dialog_set_discovery_target (BlRecordDialog *self,
                                       GSocketAddress *target)
{
  g_return_if_fail (BL_IS_RECORD_DIALOG (self));
  g_return_if_fail (target == NULL || G_IS_SOCKET_ADDRESS (target));

  g_set_object (&self->discovery_target, target);
}

void
bl_record_dialog_search (BlRecordDialog *self)
{
  g_return_if_fail (BL_IS_RECORD_DIALOG (self));

  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  self->search_cancellable = g_cancellable_new ();
  set_searching (self, TRUE);
  clear_devices (self);
  {
    GtkWidget *row = adw_action_row_new ();

    adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Searching…"));
    gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
    gtk_list_box_append (self->devices_list, row);
  }
  bl_device_discover_async (self->discovery_target, SEARCH_TIMEOUT_MS, self->search_cancellable,
                            discover_cb, self);
}

/* The devices the last search found (0 while it runs). */
guint
bl_record_dialog_get_n_devices (BlRecordDialog *self)
{
  g_return_val_if_fail (BL_IS_RECORD_DIALOG (self), 0);

  return self->n_devices;
}

void
bl_record_dialog_set_ports (BlRecordDialog *self,
                            guint           ecp_port,
                            guint           profiler_port,
                            guint           console_port)
{
  g_return_if_fail (BL_IS_RECORD_DIALOG (self));

  gtk_spin_button_set_value (self->ecp_port_spin, ecp_port);
  gtk_spin_button_set_value (self->profiler_port_spin, profiler_port);
  gtk_spin_button_set_value (self->console_port_spin, console_port);
}

/* Reaches the device at @address ("HOST" or "HOST:ECP-PORT") and checks
 * that it can be recorded; the status row says the outcome. */
void
bl_record_dialog_connect (BlRecordDialog *self,
                          const char     *address)
{
  g_autofree char *host = NULL;
  guint port;
  const char *colon;

  g_return_if_fail (BL_IS_RECORD_DIALOG (self));
  g_return_if_fail (address != NULL);

  g_cancellable_cancel (self->connect_cancellable);
  g_clear_object (&self->connect_cancellable);
  g_clear_object (&self->device);
  self->reached = FALSE;
  update_record_button (self);

  host = g_strstrip (g_strdup (address));
  if (host[0] == '\0')
    return;

  port = (guint) gtk_spin_button_get_value_as_int (self->ecp_port_spin);
  /* one colon: a port after a name or an IPv4 address (IPv6 has several) */
  colon = strrchr (host, ':');
  if (colon != NULL && strchr (host, ':') == colon)
    {
      guint64 value;

      if (g_ascii_string_to_unsigned (colon + 1, 10, 1, 65535, &value, NULL))
        {
          port = (guint) value;
          host[colon - host] = '\0';
          gtk_spin_button_set_value (self->ecp_port_spin, port);
        }
    }

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->address_row)), address) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->address_row), address);

  self->connect_cancellable = g_cancellable_new ();
  self->device = bl_device_new (host, port);
  set_busy (self, TRUE);
  show_status (self, "network-wired-symbolic", _("Connecting…"), host);
  bl_device_query_info_async (self->device, self->connect_cancellable, info_cb, self);
}

/* Whether a device is being reached. */
gboolean
bl_record_dialog_get_busy (BlRecordDialog *self)
{
  g_return_val_if_fail (BL_IS_RECORD_DIALOG (self), FALSE);

  return self->busy;
}

const char *
bl_record_dialog_get_status_title (BlRecordDialog *self)
{
  g_return_val_if_fail (BL_IS_RECORD_DIALOG (self), NULL);

  return adw_preferences_row_get_title (ADW_PREFERENCES_ROW (self->status_row));
}

/* The device's info and app, or the sentence saying why it cannot be recorded. */
const char *
bl_record_dialog_get_status_text (BlRecordDialog *self)
{
  g_return_val_if_fail (BL_IS_RECORD_DIALOG (self), NULL);

  return adw_action_row_get_subtitle (self->status_row);
}

gboolean
bl_record_dialog_get_can_record (BlRecordDialog *self)
{
  g_return_val_if_fail (BL_IS_RECORD_DIALOG (self), FALSE);

  return self->reached && !self->busy
         && (bl_record_dialog_get_capture_profile (self)
             || bl_record_dialog_get_capture_resources (self)
             || bl_record_dialog_get_capture_trace (self));
}

/* The folder the recording's folder is made in. */
void
bl_record_dialog_set_base_folder (BlRecordDialog *self,
                                  GFile          *folder)
{
  g_return_if_fail (BL_IS_RECORD_DIALOG (self));
  g_return_if_fail (G_IS_FILE (folder));

  g_set_object (&self->base_folder, folder);
  update_folder_row (self);
}

/**
 * bl_record_dialog_get_device:
 *
 * Returns: (transfer none) (nullable): the device reached, its info and
 *   active app read
 */
BlDevice *
bl_record_dialog_get_device (BlRecordDialog *self)
{
  g_return_val_if_fail (BL_IS_RECORD_DIALOG (self), NULL);

  return self->reached ? self->device : NULL;
}

guint
bl_record_dialog_get_profiler_port (BlRecordDialog *self)
{
  g_return_val_if_fail (BL_IS_RECORD_DIALOG (self), 0);

  return (guint) gtk_spin_button_get_value_as_int (self->profiler_port_spin);
}

guint
bl_record_dialog_get_console_port (BlRecordDialog *self)
{
  g_return_val_if_fail (BL_IS_RECORD_DIALOG (self), 0);

  return (guint) gtk_spin_button_get_value_as_int (self->console_port_spin);
}

gboolean
bl_record_dialog_get_capture_profile (BlRecordDialog *self)
{
  g_return_val_if_fail (BL_IS_RECORD_DIALOG (self), FALSE);

  return gtk_switch_get_active (self->profile_switch)
         && gtk_widget_get_sensitive (GTK_WIDGET (self->profile_switch));
}

gboolean
bl_record_dialog_get_capture_resources (BlRecordDialog *self)
{
  g_return_val_if_fail (BL_IS_RECORD_DIALOG (self), FALSE);

  return gtk_switch_get_active (self->resources_switch);
}

gboolean
bl_record_dialog_get_capture_trace (BlRecordDialog *self)
{
  g_return_val_if_fail (BL_IS_RECORD_DIALOG (self), FALSE);

  return gtk_switch_get_active (self->trace_switch);
}

guint
bl_record_dialog_get_interval_ms (BlRecordDialog *self)
{
  g_return_val_if_fail (BL_IS_RECORD_DIALOG (self), BL_RESOURCE_POLLER_DEFAULT_INTERVAL_MS);

  return (guint) (gtk_spin_button_get_value (self->interval_spin) * 1000 + 0.5);
}

/**
 * bl_record_dialog_dup_folder:
 *
 * Returns: (transfer full): the folder the recording goes into (made when
 *   the recording starts)
 */
GFile *
bl_record_dialog_dup_folder (BlRecordDialog *self)
{
  g_return_val_if_fail (BL_IS_RECORD_DIALOG (self), NULL);

  return g_file_get_child (self->base_folder, self->folder_name);
}

/* Record: emits "record" when a device is reached, then closes. */
void
bl_record_dialog_record (BlRecordDialog *self)
{
  g_return_if_fail (BL_IS_RECORD_DIALOG (self));

  if (!bl_record_dialog_get_can_record (self))
    return;

  g_signal_emit (self, signals[RECORD], 0);
  gtk_window_destroy (GTK_WINDOW (self));
}
