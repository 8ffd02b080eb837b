/* bl-device.c — a Roku device on the network, through its ECP port
 *
 * ECP is plain HTTP on port 8060: GET /query/device-info and
 * /query/active-app answer small XML documents (see doc/capture-protocol.md).
 * A device whose "Control by mobile apps" setting is Limited or Disabled
 * answers 403; one that is off or absent does not answer at all. Every
 * failure becomes one sentence telling the user what to change.
 *
 * Devices are found with SSDP: an M-SEARCH for "roku:ecp" sent to the
 * multicast group (or to any address the caller gives, as the tests do),
 * and the LOCATION header of every reply collected for a while.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-capture"

#include "config.h"

#include <glib/gi18n.h>
#include <libsoup/soup.h>
#include <string.h>

#include "bl-capture-error.h"
#include "bl-device.h"
#include "bl-ecp-xml.h"

/* ECP answers in well under a second; a device that has not answered in
 * this time is not there (the CLI promises failure within 10 s). */
#define ECP_TIMEOUT_S 8

struct _BlDevice
{
  GObject      parent_instance;

  char        *host;
  guint        ecp_port;
  SoupSession *session;
  GHashTable  *info;        /* device-info fields, or NULL */
  GHashTable  *active_app;  /* active-app fields, or NULL */
  char        *display_name;
};

G_DEFINE_FINAL_TYPE (BlDevice, bl_device, G_TYPE_OBJECT)

static void
bl_device_finalize (GObject *object)
{
  BlDevice *self = BL_DEVICE (object);

  g_clear_pointer (&self->host, g_free);
  g_clear_object (&self->session);
  g_clear_pointer (&self->info, g_hash_table_unref);
  g_clear_pointer (&self->active_app, g_hash_table_unref);
  g_clear_pointer (&self->display_name, g_free);

  G_OBJECT_CLASS (bl_device_parent_class)->finalize (object);
}

static void
bl_device_class_init (BlDeviceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = bl_device_finalize;
}

static void
bl_device_init (BlDevice *self)
{
  self->session = soup_session_new_with_options ("timeout", ECP_TIMEOUT_S,
                                                 "idle-timeout", 30,
                                                 NULL);
  /* devices are on the local network: never through a proxy */
  soup_session_set_proxy_resolver (self->session, NULL);
}

BlDevice *
bl_device_new (const char *host,
               guint       ecp_port)
{
  BlDevice *self;

  g_return_val_if_fail (host != NULL, NULL);

  self = g_object_new (BL_TYPE_DEVICE, NULL);
  self->host = g_strdup (host);
  self->ecp_port = ecp_port != 0 ? ecp_port : BL_DEVICE_ECP_PORT;

  return self;
}

const char *
bl_device_get_host (BlDevice *self)
{
  g_return_val_if_fail (BL_IS_DEVICE (self), NULL);

  return self->host;
}

guint
bl_device_get_ecp_port (BlDevice *self)
{
  g_return_val_if_fail (BL_IS_DEVICE (self), 0);

  return self->ecp_port;
}

/* The device's own name once device-info was read, else its address. */
const char *
bl_device_get_display_name (BlDevice *self)
{
  static const char *const fields[] = {
    "user-device-name", "friendly-device-name", "default-device-name",
  };

  g_return_val_if_fail (BL_IS_DEVICE (self), NULL);

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      const char *name = bl_device_get_info (self, fields[i]);

      if (name != NULL && name[0] != '\0')
        return name;
    }

  return self->host;
}

/* ---- ECP GET ---------------------------------------------------------- */

static void
get_done (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  BlDevice *self = g_task_get_source_object (task);
  SoupMessage *msg = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  guint status;

  bytes = soup_session_send_and_read_finish (SOUP_SESSION (source), result, &error);
  if (bytes == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_UNREACHABLE,
                                 _("No Roku device answers at %s port %u: check the "
                                   "address and that the device is on and on this "
                                   "network."),
                                 self->host, self->ecp_port);
      return;
    }

  status = soup_message_get_status (msg);
  if (status == SOUP_STATUS_FORBIDDEN)
    {
      g_task_return_new_error (task, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_LIMITED,
                               _("%s refuses control from this computer: on the device "
                                 "set Settings > System > Advanced system settings > "
                                 "Control by mobile apps to Enabled."),
                               bl_device_get_display_name (self));
      return;
    }
  if (status == SOUP_STATUS_NOT_FOUND
      && g_str_equal (g_uri_get_path (soup_message_get_uri (msg)), "/query/device-info"))
    {
      /* every Roku answers device-info: this is something else */
      g_task_return_new_error (task, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_UNREACHABLE,
                               _("What answers at %s port %u is not a Roku device: check "
                                 "the address and the port."),
                               self->host, self->ecp_port);
      return;
    }
  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_task_return_new_error (task, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_PROTOCOL,
                               _("%s answered %s with HTTP status %u."),
                               bl_device_get_display_name (self),
                               g_uri_get_path (soup_message_get_uri (msg)), status);
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&bytes), (GDestroyNotify) g_bytes_unref);
}

static void
request (BlDevice            *self,
         const char          *method,
         const char          *path,
         gpointer             tag,
         GCancellable        *cancellable,
         GAsyncReadyCallback  callback,
         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *uri = NULL;
  SoupMessage *msg;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tag);

  uri = g_strdup_printf ("http://%s:%u%s", self->host, self->ecp_port, path);
  msg = soup_message_new (method, uri);
  if (msg == NULL)
    {
      g_task_return_new_error (task, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_UNREACHABLE,
                               _("“%s” is not a device address: give a host name or "
                                 "an IP address."),
                               self->host);
      return;
    }
  g_task_set_task_data (task, msg, g_object_unref);

  soup_session_send_and_read_async (self->session, msg, G_PRIORITY_DEFAULT, cancellable,
                                    get_done, g_object_ref (task));
}

/* GET http://HOST:ECP_PORT@path; the body, or an error in BL_CAPTURE_ERROR
 * (or G_IO_ERROR_CANCELLED). */
void
bl_device_get_async (BlDevice            *self,
                     const char          *path,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  g_return_if_fail (BL_IS_DEVICE (self));
  g_return_if_fail (path != NULL && path[0] == '/');

  request (self, SOUP_METHOD_GET, path, bl_device_get_async, cancellable, callback,
           user_data);
}

/* POST (with an empty body) to http://HOST:ECP_PORT@path; finish with
 * bl_device_get_finish(). */
void
bl_device_post_async (BlDevice            *self,
                      const char          *path,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_return_if_fail (BL_IS_DEVICE (self));
  g_return_if_fail (path != NULL && path[0] == '/');

  request (self, SOUP_METHOD_POST, path, bl_device_post_async, cancellable, callback,
           user_data);
}

GBytes *
bl_device_get_finish (BlDevice      *self,
                      GAsyncResult  *result,
                      GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- device-info ------------------------------------------------------ */

typedef struct
{
  const char *root;
  GHashTable **slot;
} QueryData;

static void
query_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  BlDevice *self = BL_DEVICE (source);
  const char *root = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  GHashTable *map;
  gsize len;
  const char *data;

  bytes = bl_device_get_finish (self, result, &error);
  if (bytes == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  data = g_bytes_get_data (bytes, &len);
  map = bl_ecp_xml_parse (data, len, root, &error);
  if (map == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (g_str_equal (root, "device-info"))
    {
      g_clear_pointer (&self->info, g_hash_table_unref);
      self->info = map;
    }
  else
    {
      g_clear_pointer (&self->active_app, g_hash_table_unref);
      self->active_app = map;
    }

  g_task_return_boolean (task, TRUE);
}

static void
query (BlDevice            *self,
       const char          *path,
       const char          *root,
       gpointer             tag,
       GCancellable        *cancellable,
       GAsyncReadyCallback  callback,
       gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, tag);
  g_task_set_task_data (task, (gpointer) root, NULL);
  bl_device_get_async (self, path, cancellable, query_done, task);
}

/* Reads /query/device-info; its fields are then available through
 * bl_device_get_info() and the getters below. */
void
bl_device_query_info_async (BlDevice            *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_return_if_fail (BL_IS_DEVICE (self));

  query (self, "/query/device-info", "device-info", bl_device_query_info_async,
         cancellable, callback, user_data);
}

gboolean
bl_device_query_info_finish (BlDevice      *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Any field of device-info by its element name ("model-number"), or NULL. */
const char *
bl_device_get_info (BlDevice   *self,
                    const char *field)
{
  g_return_val_if_fail (BL_IS_DEVICE (self), NULL);
  g_return_val_if_fail (field != NULL, NULL);

  return self->info != NULL ? g_hash_table_lookup (self->info, field) : NULL;
}

const char *
bl_device_get_model (BlDevice *self)
{
  return bl_device_get_info (self, "model-number");
}

const char *
bl_device_get_serial (BlDevice *self)
{
  return bl_device_get_info (self, "serial-number");
}

const char *
bl_device_get_software_version (BlDevice *self)
{
  return bl_device_get_info (self, "software-version");
}

gboolean
bl_device_get_developer_enabled (BlDevice *self)
{
  const char *value = bl_device_get_info (self, "developer-enabled");

  return value != NULL && g_ascii_strcasecmp (value, "true") == 0;
}

/* After device-info: FALSE with a sentence when developer mode is off. */
gboolean
bl_device_check_developer_mode (BlDevice  *self,
                                GError   **error)
{
  g_return_val_if_fail (BL_IS_DEVICE (self), FALSE);

  if (bl_device_get_developer_enabled (self))
    return TRUE;

  g_set_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_DEVELOPER_MODE,
               _("Developer mode is off on %s: turn it on by pressing Home three times, "
                 "Up twice, then Right, Left, Right, Left, Right on its remote."),
               bl_device_get_display_name (self));
  return FALSE;
}

/* ---- active-app ------------------------------------------------------- */

void
bl_device_query_active_app_async (BlDevice            *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_return_if_fail (BL_IS_DEVICE (self));

  query (self, "/query/active-app", "active-app", bl_device_query_active_app_async,
         cancellable, callback, user_data);
}

gboolean
bl_device_query_active_app_finish (BlDevice      *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static const char *
active_app (BlDevice   *self,
            const char *key)
{
  g_return_val_if_fail (BL_IS_DEVICE (self), NULL);

  return self->active_app != NULL ? g_hash_table_lookup (self->active_app, key) : NULL;
}

/* The foreground app's id ("dev" for the sideloaded one), or NULL on the
 * home screen (active-app then has no <app id=…>). */
const char *
bl_device_get_app_id (BlDevice *self)
{
  return active_app (self, "app@id");
}

const char *
bl_device_get_app_name (BlDevice *self)
{
  return active_app (self, "app");
}

const char *
bl_device_get_app_version (BlDevice *self)
{
  return active_app (self, "app@version");
}

/* After active-app: FALSE with a sentence unless the sideloaded app runs. */
gboolean
bl_device_check_sideloaded (BlDevice  *self,
                            GError   **error)
{
  const char *id;

  g_return_val_if_fail (BL_IS_DEVICE (self), FALSE);

  id = bl_device_get_app_id (self);
  if (id != NULL && g_str_equal (id, "dev"))
    return TRUE;

  if (id == NULL)
    g_set_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_NOT_SIDELOADED,
                 _("No app is running on %s: install your app from its development "
                   "web page (http://%s) and start it."),
                 bl_device_get_display_name (self), self->host);
  else
    g_set_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_NOT_SIDELOADED,
                 _("The app running on %s (“%s”) is not sideloaded: install your app "
                   "from its development web page (http://%s) and start it."),
                 bl_device_get_display_name (self),
                 bl_device_get_app_name (self) != NULL ? bl_device_get_app_name (self) : id,
                 self->host);
  return FALSE;
}

/* ---- SSDP discovery --------------------------------------------------- */

typedef struct
{
  GSocket    *socket;
  GSource    *read_source;
  GSource    *timeout_source;
  GSource    *cancel_source;
  GPtrArray  *devices;
  GHashTable *seen;  /* LOCATION values */
} Discover;

static void discover_stop_sources (Discover *d);

static void
discover_free (gpointer data)
{
  Discover *d = data;

  discover_stop_sources (d);
  g_clear_object (&d->socket);
  g_clear_pointer (&d->devices, g_ptr_array_unref);
  g_clear_pointer (&d->seen, g_hash_table_unref);
  g_free (d);
}

/* The value of header @name in an SSDP reply, or NULL. */
static char *
ssdp_header (const char *reply,
             const char *name)
{
  g_auto(GStrv) lines = g_strsplit (reply, "\n", -1);
  gsize name_len = strlen (name);

  for (guint i = 1; lines[i] != NULL; i++)
    {
      if (g_ascii_strncasecmp (lines[i], name, name_len) == 0 && lines[i][name_len] == ':')
        return g_strstrip (g_strdup (lines[i] + name_len + 1));
    }

  return NULL;
}

static void
discover_reply (Discover   *d,
                const char *reply,
                gsize       len)
{
  g_autoptr(BlDevice) device = bl_device_new_from_ssdp_reply (reply, len);
  g_autofree char *location = NULL;

  if (device == NULL)
    return;

  location = g_strdup_printf ("%s:%u", device->host, device->ecp_port);
  if (g_hash_table_contains (d->seen, location))
    return;

  g_ptr_array_add (d->devices, g_steal_pointer (&device));
  g_hash_table_add (d->seen, g_steal_pointer (&location));
}

static gboolean
discover_readable (GSocket      *socket,
                   GIOCondition  condition,
                   gpointer      user_data)
{
  GTask *task = user_data;
  Discover *d = g_task_get_task_data (task);
  char buf[2048];
  gssize n;

  while ((n = g_socket_receive (socket, buf, sizeof buf - 1, NULL, NULL)) > 0)
    {
      buf[n] = '\0';
      discover_reply (d, buf, (gsize) n);
    }

  return G_SOURCE_CONTINUE;
}

static void
discover_stop_sources (Discover *d)
{
  GSource **sources[] = { &d->read_source, &d->timeout_source, &d->cancel_source };

  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      if (*sources[i] != NULL)
        {
          g_source_destroy (*sources[i]);
          g_clear_pointer (sources[i], g_source_unref);
        }
    }
}

static gboolean
discover_timeout (gpointer user_data)
{
  GTask *task = user_data;
  Discover *d = g_task_get_task_data (task);

  discover_stop_sources (d);
  g_task_return_pointer (task, g_steal_pointer (&d->devices),
                         (GDestroyNotify) g_ptr_array_unref);
  g_object_unref (task);

  return G_SOURCE_REMOVE;
}

static gboolean
discover_cancelled (GCancellable *cancellable,
                    gpointer      user_data)
{
  GTask *task = user_data;
  Discover *d = g_task_get_task_data (task);

  discover_stop_sources (d);
  g_task_return_error_if_cancelled (task);
  g_object_unref (task);

  return G_SOURCE_REMOVE;
}

/* The device a reply to an M-SEARCH for "roku:ecp" (or a NOTIFY for it)
 * announces, from its LOCATION header; NULL when @reply is anything else.
 * @reply comes from the network: any bytes. */
BlDevice *
bl_device_new_from_ssdp_reply (const char *reply,
                               gsize       len)
{
  g_autofree char *text = NULL;
  g_autofree char *st = NULL;
  g_autofree char *location = NULL;
  g_autoptr(GUri) uri = NULL;
  const char *host;
  int port;

  g_return_val_if_fail (reply != NULL || len == 0, NULL);

  text = g_strndup (reply, len);  /* stops at a NUL byte */
  if (!g_utf8_validate (text, -1, NULL)
      || (!g_str_has_prefix (text, "HTTP/1.1 200") && !g_str_has_prefix (text, "NOTIFY")))
    return NULL;

  st = ssdp_header (text, "ST");
  if (st == NULL)
    st = ssdp_header (text, "NT");
  location = ssdp_header (text, "LOCATION");
  if (st == NULL || g_ascii_strcasecmp (st, "roku:ecp") != 0 || location == NULL)
    return NULL;

  uri = g_uri_parse (location, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL || g_strcmp0 (g_uri_get_scheme (uri), "http") != 0)
    return NULL;
  host = g_uri_get_host (uri);
  port = g_uri_get_port (uri);
  if (host == NULL || host[0] == '\0' || port == 0 || port > 65535)
    return NULL;

  return bl_device_new (host, port > 0 ? (guint) port : BL_DEVICE_ECP_PORT);
}

/* Sends one M-SEARCH for "roku:ecp" to @target (NULL: the SSDP multicast
 * group 239.255.255.250:1900) and collects the devices that answer within
 * @timeout_ms; the result is a GPtrArray of BlDevice, possibly empty. */
void
bl_device_discover_async (GSocketAddress      *target,
                          guint                timeout_ms,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  static const char search[] =
    "M-SEARCH * HTTP/1.1\r\n"
    "Host: 239.255.255.250:1900\r\n"
    "Man: \"ssdp:discover\"\r\n"
    "ST: roku:ecp\r\n"
    "MX: 1\r\n"
    "\r\n";
  g_autoptr(GSocketAddress) multicast = NULL;
  g_autoptr(GSocketAddress) any = NULL;
  g_autoptr(GInetAddress) any_address = NULL;
  g_autoptr(GError) error = NULL;
  GTask *task;
  Discover *d;

  g_return_if_fail (target == NULL || G_IS_INET_SOCKET_ADDRESS (target));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, bl_device_discover_async);
  d = g_new0 (Discover, 1);
  d->devices = g_ptr_array_new_with_free_func (g_object_unref);
  d->seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_task_set_task_data (task, d, discover_free);

  if (target == NULL)
    target = multicast = g_inet_socket_address_new_from_string ("239.255.255.250",
                                                                BL_DEVICE_SSDP_PORT);

  d->socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_DATAGRAM,
                            G_SOCKET_PROTOCOL_UDP, &error);
  any_address = g_inet_address_new_any (G_SOCKET_FAMILY_IPV4);
  any = g_inet_socket_address_new (any_address, 0);
  if (d->socket == NULL
      || !g_socket_bind (d->socket, any, FALSE, &error)
      || g_socket_send_to (d->socket, target, search, sizeof search - 1, cancellable,
                           &error) < 0)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_UNREACHABLE,
                                 _("Could not search the network for Roku devices (%s): "
                                   "type the device's address instead."),
                                 error->message);
      g_object_unref (task);
      return;
    }
  g_socket_set_blocking (d->socket, FALSE);

  d->read_source = g_socket_create_source (d->socket, G_IO_IN, NULL);
  g_source_set_callback (d->read_source, G_SOURCE_FUNC (discover_readable), task, NULL);
  g_source_attach (d->read_source, g_main_context_get_thread_default ());

  d->timeout_source = g_timeout_source_new (timeout_ms);
  g_source_set_callback (d->timeout_source, discover_timeout, task, NULL);
  g_source_attach (d->timeout_source, g_main_context_get_thread_default ());

  if (cancellable != NULL)
    {
      d->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (d->cancel_source, G_SOURCE_FUNC (discover_cancelled), task, NULL);
      g_source_attach (d->cancel_source, g_main_context_get_thread_default ());
    }
}

GPtrArray *
bl_device_discover_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
