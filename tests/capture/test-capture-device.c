/* test-capture-device.c — BlDevice against the fake Roku on loopback
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <libsoup/soup.h>
#include <string.h>

#include "bl-capture-error.h"
#include "bl-device.h"
#include "bl-ecp-xml.h"
#include "bl-fake-roku.h"

static void
got_result (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static GAsyncResult *
wait_for (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

static BlFakeRoku *
fake_new (BlFakeRokuMode mode)
{
  g_autoptr(GError) error = NULL;
  BlFakeRoku *roku = bl_fake_roku_new (mode, &error);

  g_assert_no_error (error);
  g_assert_nonnull (roku);
  return roku;
}

static gboolean
query_info (BlDevice  *device,
            GError   **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  bl_device_query_info_async (device, NULL, got_result, &result);
  return bl_device_query_info_finish (device, wait_for (&result), error);
}

static gboolean
query_app (BlDevice  *device,
           GError   **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  bl_device_query_active_app_async (device, NULL, got_result, &result);
  return bl_device_query_active_app_finish (device, wait_for (&result), error);
}

static void
test_info (void)
{
  BlFakeRoku *roku = fake_new (BL_FAKE_ROKU_NORMAL);
  g_autoptr(BlDevice) device = bl_device_new ("127.0.0.1", bl_fake_roku_get_ecp_port (roku));
  g_autoptr(GError) error = NULL;
  gboolean ok;

  g_assert_cmpstr (bl_device_get_display_name (device), ==, "127.0.0.1");
  ok = query_info (device, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpstr (bl_device_get_display_name (device), ==, BL_FAKE_ROKU_NAME);
  g_assert_cmpstr (bl_device_get_model (device), ==, BL_FAKE_ROKU_MODEL);
  g_assert_cmpstr (bl_device_get_serial (device), ==, BL_FAKE_ROKU_SERIAL);
  g_assert_cmpstr (bl_device_get_software_version (device), ==, "14.1.4");
  g_assert_cmpstr (bl_device_get_info (device, "software-build"), ==, "6812");
  g_assert_cmpstr (bl_device_get_info (device, "no-such-field"), ==, NULL);
  g_assert_true (bl_device_get_developer_enabled (device));
  g_assert_true (bl_device_check_developer_mode (device, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (bl_fake_roku_get_n_queries (roku, "/query/device-info"), ==, 1);

  bl_fake_roku_free (roku);
}

static void
test_active_app (void)
{
  BlFakeRoku *roku = fake_new (BL_FAKE_ROKU_NORMAL);
  g_autoptr(BlDevice) device = bl_device_new ("127.0.0.1", bl_fake_roku_get_ecp_port (roku));
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (bl_device_get_app_id (device), ==, NULL);
  g_assert_true (query_app (device, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (bl_device_get_app_id (device), ==, "dev");
  g_assert_cmpstr (bl_device_get_app_name (device), ==, "Fake App");
  g_assert_cmpstr (bl_device_get_app_version (device), ==, "1.2.3");
  g_assert_true (bl_device_check_sideloaded (device, &error));
  g_assert_no_error (error);

  bl_fake_roku_free (roku);
}

static void
test_developer_off (void)
{
  BlFakeRoku *roku = fake_new (BL_FAKE_ROKU_DEVELOPER_OFF);
  g_autoptr(BlDevice) device = bl_device_new ("127.0.0.1", bl_fake_roku_get_ecp_port (roku));
  g_autoptr(GError) error = NULL;

  g_assert_true (query_info (device, &error));
  g_assert_no_error (error);
  g_assert_false (bl_device_get_developer_enabled (device));
  g_assert_false (bl_device_check_developer_mode (device, &error));
  g_assert_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_DEVELOPER_MODE);
  g_assert_true (g_str_has_prefix (error->message, "Developer mode is off on Fake Roku: "));
  g_assert_nonnull (strstr (error->message, "Home three times"));

  bl_fake_roku_free (roku);
}

static void
test_limited (void)
{
  BlFakeRoku *roku = fake_new (BL_FAKE_ROKU_LIMITED);
  g_autoptr(BlDevice) device = bl_device_new ("127.0.0.1", bl_fake_roku_get_ecp_port (roku));
  g_autoptr(GError) error = NULL;

  g_assert_false (query_info (device, &error));
  g_assert_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_LIMITED);
  g_assert_true (g_str_has_prefix (error->message, "127.0.0.1 refuses control"));
  g_assert_nonnull (strstr (error->message, "Control by mobile apps to Enabled"));
  g_assert_cmpuint (bl_fake_roku_get_n_queries (roku, "/query/device-info"), ==, 1);

  bl_fake_roku_free (roku);
}

static void
test_not_sideloaded (void)
{
  BlFakeRoku *roku = fake_new (BL_FAKE_ROKU_NOT_SIDELOADED);
  g_autoptr(BlDevice) device = bl_device_new ("127.0.0.1", bl_fake_roku_get_ecp_port (roku));
  g_autoptr(GError) error = NULL;

  g_assert_true (query_info (device, &error));
  g_assert_true (query_app (device, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (bl_device_get_app_id (device), ==, "12");
  g_assert_false (bl_device_check_sideloaded (device, &error));
  g_assert_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_NOT_SIDELOADED);
  g_assert_cmpstr (error->message, ==,
                   "The app running on Fake Roku (“Store Channel”) is not sideloaded: "
                   "install your app from its development web page (http://127.0.0.1) "
                   "and start it.");

  bl_fake_roku_free (roku);
}

/* A port nothing listens on: the fake, started and freed. */
static void
test_absent (void)
{
  BlFakeRoku *roku = fake_new (BL_FAKE_ROKU_NORMAL);
  guint port = bl_fake_roku_get_ecp_port (roku);
  g_autoptr(BlDevice) device = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;

  bl_fake_roku_free (roku);
  device = bl_device_new ("127.0.0.1", port);
  g_assert_false (query_info (device, &error));
  g_assert_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_UNREACHABLE);
  expected = g_strdup_printf ("No Roku device answers at 127.0.0.1 port %u: check the "
                              "address and that the device is on and on this network.",
                              port);
  g_assert_cmpstr (error->message, ==, expected);
}

/* an HTTP server that is not a Roku: device-info is not found */
static void
not_found (SoupServer        *server,
           SoupServerMessage *msg,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
}

static void
test_not_a_roku (void)
{
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(BlDevice) device = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  GSList *uris;
  guint port;

  soup_server_add_handler (server, NULL, not_found, NULL, NULL);
  g_assert_true (soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  uris = soup_server_get_uris (server);
  port = g_uri_get_port (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  device = bl_device_new ("127.0.0.1", port);
  g_assert_false (query_info (device, &error));
  g_assert_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_UNREACHABLE);
  expected = g_strdup_printf ("What answers at 127.0.0.1 port %u is not a Roku device: check "
                              "the address and the port.", port);
  g_assert_cmpstr (error->message, ==, expected);
  soup_server_disconnect (server);
}

static void
test_cancel (void)
{
  BlFakeRoku *roku = fake_new (BL_FAKE_ROKU_NORMAL);
  g_autoptr(BlDevice) device = bl_device_new ("127.0.0.1", bl_fake_roku_get_ecp_port (roku));
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  bl_device_query_info_async (device, cancellable, got_result, &result);
  g_cancellable_cancel (cancellable);
  g_assert_false (bl_device_query_info_finish (device, wait_for (&result), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (bl_device_get_model (device));

  bl_fake_roku_free (roku);
}

static void
test_discover (void)
{
  BlFakeRoku *roku = fake_new (BL_FAKE_ROKU_NORMAL);
  g_autoptr(GSocketAddress) target =
    g_inet_socket_address_new_from_string ("127.0.0.1", bl_fake_roku_get_ssdp_port (roku));
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) devices = NULL;
  g_autoptr(GError) error = NULL;
  BlDevice *device;

  bl_device_discover_async (target, 300, NULL, got_result, &result);
  devices = bl_device_discover_finish (wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_nonnull (devices);
  g_assert_cmpuint (devices->len, ==, 1);
  device = g_ptr_array_index (devices, 0);
  g_assert_cmpstr (bl_device_get_host (device), ==, "127.0.0.1");
  g_assert_cmpuint (bl_device_get_ecp_port (device), ==, bl_fake_roku_get_ecp_port (roku));

  /* the device found is one to talk to */
  g_assert_true (query_info (device, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (bl_device_get_display_name (device), ==, BL_FAKE_ROKU_NAME);

  bl_fake_roku_free (roku);
}

static void
test_discover_nobody (void)
{
  BlFakeRoku *roku = fake_new (BL_FAKE_ROKU_NORMAL);
  guint port = bl_fake_roku_get_ssdp_port (roku);
  g_autoptr(GSocketAddress) target = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) devices = NULL;
  g_autoptr(GError) error = NULL;

  bl_fake_roku_free (roku);
  target = g_inet_socket_address_new_from_string ("127.0.0.1", port);
  bl_device_discover_async (target, 100, NULL, got_result, &result);
  devices = bl_device_discover_finish (wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (devices->len, ==, 0);
}

static void
test_discover_cancel (void)
{
  g_autoptr(GSocketAddress) target = g_inet_socket_address_new_from_string ("127.0.0.1", 9);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) devices = NULL;
  g_autoptr(GError) error = NULL;

  /* an hour's search, cancelled at once */
  bl_device_discover_async (target, 3600 * 1000, cancellable, got_result, &result);
  g_cancellable_cancel (cancellable);
  devices = bl_device_discover_finish (wait_for (&result), &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (devices);
}

static void
test_xml (void)
{
  static const char *const bad[] = {
    "",
    "not xml at all",
    "<device-info><model-number>3930X</model-number>",   /* cut short */
    "<active-app><app id=\"dev\">x</app></active-app>",     /* another document */
    "<device-info><a></b></device-info>",
    "<?xml version=\"1.0\"?>",
  };
  g_autoptr(GHashTable) map = NULL;
  g_autoptr(GError) error = NULL;
  const char *good =
    "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
    "<chanperf><plugin id=\"dev\"><memory><used>12</used><used>13</used></memory>"
    "<cpu-percent><user> 1.5 </user></cpu-percent></plugin><status>OK</status></chanperf>";

  map = bl_ecp_xml_parse (good, strlen (good), "chanperf", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g_hash_table_lookup (map, "plugin@id"), ==, "dev");
  g_assert_cmpstr (g_hash_table_lookup (map, "plugin/memory/used"), ==, "12");
  g_assert_cmpstr (g_hash_table_lookup (map, "plugin/cpu-percent/user"), ==, "1.5");
  g_assert_cmpstr (g_hash_table_lookup (map, "status"), ==, "OK");

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GHashTable) none = NULL;
      g_autoptr(GError) bad_error = NULL;

      none = bl_ecp_xml_parse (bad[i], strlen (bad[i]), "device-info", &bad_error);
      g_assert_null (none);
      g_assert_error (bad_error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_PROTOCOL);
      g_assert_true (g_str_has_prefix (bad_error->message, "The device"));
    }
}

/* "<root><a><a>…</a></a></root>", @depth elements deep with the root */
static char *
nested (const char *root,
        guint       depth)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "<%s>", root);
  for (guint i = 1; i < depth; i++)
    g_string_append (s, "<abcdefgh>");
  g_string_append (s, "x");
  for (guint i = 1; i < depth; i++)
    g_string_append (s, "</abcdefgh>");
  g_string_append_printf (s, "</%s>", root);

  return g_string_free (s, FALSE);
}

/* Answers that nest deeper than any device's: one sentence, and neither
 * time nor memory that grows with the square of the answer (a flat map's
 * keys are the paths: 20,000 deep took 19 s and 1.8 GB) nor a walk of the
 * tree that overflows the stack (900,000 deep crashed). */
static void
test_xml_deep (void)
{
  guint depths[] = { BL_ECP_XML_MAX_FLAT_DEPTH + 1, 20000, 900000 };
  g_autofree char *flat_ok = nested ("chanperf", BL_ECP_XML_MAX_FLAT_DEPTH);
  g_autofree char *tree_ok = nested ("sgnodes", BL_ECP_XML_MAX_DEPTH);
  g_autofree char *tree_deep = nested ("sgnodes", BL_ECP_XML_MAX_DEPTH + 1);
  g_autoptr(GHashTable) map = NULL;
  g_autoptr(GError) error = NULL;
  BlEcpElement *tree, *e;
  guint depth = 0;

  map = bl_ecp_xml_parse (flat_ok, strlen (flat_ok), "chanperf", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (map), ==, BL_ECP_XML_MAX_FLAT_DEPTH - 1);

  tree = bl_ecp_xml_parse_tree (tree_ok, strlen (tree_ok), "sgnodes", &error);
  g_assert_no_error (error);
  for (e = tree; e != NULL; e = bl_ecp_element_get_child (e, "abcdefgh"))
    depth++;
  g_assert_cmpuint (depth, ==, BL_ECP_XML_MAX_DEPTH);
  bl_ecp_element_free (tree);

  tree = bl_ecp_xml_parse_tree (tree_deep, strlen (tree_deep), "sgnodes", &error);
  g_assert_null (tree);
  g_assert_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (error->message, "more than 1000 deep"));
  g_clear_error (&error);

  for (guint i = 0; i < G_N_ELEMENTS (depths); i++)
    {
      g_autofree char *flat = nested ("chanperf", depths[i]);
      g_autofree char *deep_tree = nested ("sgnodes", depths[i]);
      g_autoptr(GHashTable) none = NULL;
      g_autoptr(GPtrArray) no_items = NULL;

      none = bl_ecp_xml_parse (flat, strlen (flat), "chanperf", &error);
      g_assert_null (none);
      g_assert_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_PROTOCOL);
      g_assert_cmpstr (error->message, ==, "The device's answer nests elements more than 32 deep.");
      g_clear_error (&error);

      no_items = bl_ecp_xml_parse_list (flat, strlen (flat), "chanperf", "abcdefgh", &error);
      g_assert_null (no_items);
      g_assert_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_PROTOCOL);
      g_clear_error (&error);

      tree = bl_ecp_xml_parse_tree (deep_tree, strlen (deep_tree), "sgnodes", &error);
      if (depths[i] > BL_ECP_XML_MAX_DEPTH)
        {
          g_assert_null (tree);
          g_assert_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_PROTOCOL);
          g_clear_error (&error);
        }
      else
        {
          g_assert_no_error (error);
          bl_ecp_element_free (tree);
        }
    }
}

static void
test_ssdp_reply (void)
{
  static const char *const rejected[] = {
    "",
    "HTTP/1.1 404 Not Found\r\nST: roku:ecp\r\nLOCATION: http://10.0.0.2:8060/\r\n\r\n",
    "HTTP/1.1 200 OK\r\nST: upnp:rootdevice\r\nLOCATION: http://10.0.0.2:8060/\r\n\r\n",
    "HTTP/1.1 200 OK\r\nST: roku:ecp\r\n\r\n",
    "HTTP/1.1 200 OK\r\nST: roku:ecp\r\nLOCATION: ftp://10.0.0.2/\r\n\r\n",
    "HTTP/1.1 200 OK\r\nST: roku:ecp\r\nLOCATION: http://:8060/\r\n\r\n",
    "HTTP/1.1 200 OK\r\nST: roku:ecp\r\nLOCATION: http://10.0.0.2:99999/\r\n\r\n",
    "HTTP/1.1 200 OK\r\nST: roku:ecp\r\nLOCATION: not a uri\r\n\r\n",
    "HTTP/1.1 200 OK\r\nST: roku:ecp\r\nLOCATION\r\n\r\n",
    "HTTP/1.1 200 OK\r\nST: roku:ecp\r\nLOCATION: http://\xff\xfe/\r\n\r\n",
  };
  static const char good[] =
    "HTTP/1.1 200 OK\r\nCache-Control: max-age=3600\r\nst: roku:ecp\r\n"
    "Location: http://192.168.1.134:8060/\r\nUSN: uuid:roku:ecp:P0A070000007\r\n\r\n";
  static const char notify[] =
    "NOTIFY * HTTP/1.1\r\nNT: roku:ecp\r\nLOCATION: http://10.1.2.3/\r\n\r\n";
  g_autoptr(BlDevice) device = NULL;
  g_autoptr(BlDevice) announced = NULL;

  device = bl_device_new_from_ssdp_reply (good, sizeof good - 1);
  g_assert_nonnull (device);
  g_assert_cmpstr (bl_device_get_host (device), ==, "192.168.1.134");
  g_assert_cmpuint (bl_device_get_ecp_port (device), ==, 8060);

  announced = bl_device_new_from_ssdp_reply (notify, sizeof notify - 1);
  g_assert_nonnull (announced);
  g_assert_cmpstr (bl_device_get_host (announced), ==, "10.1.2.3");
  g_assert_cmpuint (bl_device_get_ecp_port (announced), ==, BL_DEVICE_ECP_PORT);

  /* cut anywhere before the LOCATION's host: nothing */
  for (gsize len = 0; len <= (gsize) (strstr (good, "192.168") - good); len++)
    g_assert_null (bl_device_new_from_ssdp_reply (good, len));

  for (guint i = 0; i < G_N_ELEMENTS (rejected); i++)
    g_assert_null (bl_device_new_from_ssdp_reply (rejected[i], strlen (rejected[i])));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/capture/device/info", test_info);
  g_test_add_func ("/capture/device/active-app", test_active_app);
  g_test_add_func ("/capture/device/developer-off", test_developer_off);
  g_test_add_func ("/capture/device/limited", test_limited);
  g_test_add_func ("/capture/device/not-sideloaded", test_not_sideloaded);
  g_test_add_func ("/capture/device/absent", test_absent);
  g_test_add_func ("/capture/device/not-a-roku", test_not_a_roku);
  g_test_add_func ("/capture/device/cancel", test_cancel);
  g_test_add_func ("/capture/device/discover", test_discover);
  g_test_add_func ("/capture/device/discover-nobody", test_discover_nobody);
  g_test_add_func ("/capture/device/discover-cancel", test_discover_cancel);
  g_test_add_func ("/capture/device/xml", test_xml);
  g_test_add_func ("/capture/device/xml-deep", test_xml_deep);
  g_test_add_func ("/capture/device/ssdp-reply", test_ssdp_reply);

  return g_test_run ();
}
