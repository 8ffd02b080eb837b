/* bl-fake-roku.c — a Roku device on loopback, for the capture tests
 *
 * Answers on free loopback ports as a device does (doc/capture-protocol.md):
 * ECP queries (device-info, active-app, chanperf) with the XML layout of
 * Roku's samples, the profiler's network stream (a .bsprof served in
 * chunks on a timer, in bursts if asked), the debug console's bsprof-pause,
 * bsprof-resume and bsprof-status, and SSDP M-SEARCH replies. It can refuse
 * as a device does, and vanish in the middle of the profile stream.
 *
 * The simulated app's chanperf values are a known function of how many
 * times chanperf was asked (bl_fake_roku_chanperf_*()), so a test can
 * compare what a poller saved with what was served.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <libsoup/soup.h>
#include <string.h>

#include "bl-fake-roku.h"

struct _BlFakeRoku
{
  BlFakeRokuMode     mode;
  SoupServer        *ecp;
  SoupServer        *profiler;
  GSocketService    *console;
  GSocket           *ssdp;
  GSource           *ssdp_source;
  guint              ecp_port;
  guint              profiler_port;
  guint              console_port;
  guint              ssdp_port;

  GBytes            *profile;
  gsize              chunk_size;
  guint              interval_ms;
  guint              burst_every;
  guint              burst_chunks;
  gsize              vanish_after;    /* 0: never */

  SoupServerMessage *streaming;       /* the profile request in progress */
  guint              tick_id;
  guint              ticks;
  gsize              sent;            /* bytes handed to the server */
  gboolean           paused;
  gboolean           vanished;

  GHashTable        *queries;         /* path → count */
  GHashTable        *refused;         /* path → BlFakeRokuRefusal */

  GBytes            *trace;           /* the Perfetto trace to stream */
  GBytes            *heap_graph;      /* sent once a heap graph is asked for */
  gsize              trace_chunk;
  guint              trace_interval_ms;
  gboolean           trace_close_at_end;
  SoupWebsocketConnection *ws;
  guint              trace_tick_id;
  gsize              trace_pos;
  gboolean           heap_pending;
  gboolean           tracing_enabled;
  GByteArray        *trace_sent;      /* every byte sent on the socket, in order */

  gboolean           beacons_tracked;
  guint              beacon_reads;
  gint64             beacon_base_ms;
  gboolean           rendezvous_tracked;
  guint              rendezvous_reads;
};

guint64
bl_fake_roku_chanperf_used (guint n)
{
  return 52428800 + (guint64) n * 1048576 + (n % 3) * 4096;
}

double
bl_fake_roku_chanperf_user (guint n)
{
  return 10.0 + (n % 7) * 2.5;
}

double
bl_fake_roku_chanperf_sys (guint n)
{
  return 1.0 + (n % 4) * 0.5;
}

double
bl_fake_roku_fps (guint n)
{
  return 60.0 - (n % 5) * 7.0;
}

/* The beacons the simulated app raises, two per fwbeacons read, drained by
 * the read: the @n-th read (0-based) answers beacons 2n and 2n + 1, while
 * any are left. */
static const char *const beacon_names[] = {
  "app-compile-initiate", "app-compile-complete",
  "app-splash-initiate", "app-splash-complete",
  "app-load-initiate", "app-load-complete",
};

guint
bl_fake_roku_n_beacons (void)
{
  return G_N_ELEMENTS (beacon_names);
}

/* (timestamps count from when tracking was switched on) */
const char *
bl_fake_roku_beacon (BlFakeRoku *self,
                     guint       i,
                     gint64     *timestamp_ms)
{
  if (i >= G_N_ELEMENTS (beacon_names))
    return NULL;
  if (timestamp_ms != NULL)
    *timestamp_ms = self->beacon_base_ms + i * 250 + (i % 2) * 17;
  return beacon_names[i];
}

/* The rendezvous events of the @n-th sgrendezvous read: n % 3 of them,
 * and 5 dropped at the third read. */
guint
bl_fake_roku_rendezvous_count (guint n)
{
  return n % 3;
}

guint
bl_fake_roku_rendezvous_drops (guint n)
{
  return n == 2 ? 5 : 0;
}

void
bl_fake_roku_rendezvous (guint        n,
                         guint        i,
                         gint64      *id,
                         gint64      *start_ms,
                         gint64      *end_ms,
                         gint64      *line,
                         const char **file)
{
  static const char *const files[] = {
    "pkg:/components/HomeScene.brs", "pkg:/components/ContentTask.brs",
  };

  *id = n * 10 + i + 1;
  *start_ms = 100 * n + 7 * i;
  *end_ms = *start_ms + 3 + i * 11;
  *line = 40 + i;
  *file = files[(n + i) % 2];
}

/* The graphics memory of the @n-th r2d2-bitmaps read: one instance with
 * n % 3 + 1 bitmaps and a second one holding a font atlas's texture only. */
gint64
bl_fake_roku_texture_used (guint n)
{
  return 1000000 + (gint64) n * 50000 + 7000;
}

gint64
bl_fake_roku_system_used (guint n)
{
  return 4096 * ((gint64) n + 1);
}

guint
bl_fake_roku_n_bitmaps (guint n)
{
  return n % 3 + 1;
}

void
bl_fake_roku_bitmap (guint    n,
                     guint    i,
                     gint64  *width,
                     gint64  *height,
                     gint64  *bpp,
                     gint64  *size,
                     char   **name)
{
  *width = 100 + i;
  *height = 50 + n;
  *bpp = 4;
  *size = *width * *height * *bpp;
  *name = g_strdup_printf ("pkg:/images/img%u.png", i);
}

/* The SceneGraph nodes at the @n-th sgnodes/all read: one MainScene holding
 * n % 3 + 1 Rectangles of two Labels each, and a Poster at the top every
 * other read. */
const char *const bl_fake_roku_node_types[BL_FAKE_ROKU_N_NODE_TYPES] = {
  "Label", "MainScene", "Poster", "Rectangle",
};

guint
bl_fake_roku_node_count (guint n,
                         guint type)
{
  switch (type)
    {
    case 0:
      return 2 * (n % 3 + 1);
    case 1:
      return 1;
    case 2:
      return n % 2;
    default:
      return n % 3 + 1;
    }
}

/* The @i-th object type of the @n-th app-object-counts read: its count,
 * with its name and memory. */
guint
bl_fake_roku_object (guint         n,
                     guint         i,
                     const char  **name,
                     gint64       *memory)
{
  static const char *const names[] = { "roArray", "roSGNode:Label", "roString" };
  guint count = i == 0 ? 100 + n : i == 1 ? 2 * (n % 3 + 1) : 500 + 3 * n;

  *name = names[i];
  *memory = (gint64) count * (i == 2 ? 40 : 96);
  return count;
}

gint64
bl_fake_roku_registry_space (guint n)
{
  return 32768 - 100 * ((gint64) n + 1);
}

guint
bl_fake_roku_registry_n_keys (guint n,
                              guint section)
{
  return section == 0 ? 2 : n % 3 + 1;
}

static char *
sgnodes (guint n)
{
  GString *xml = g_string_new ("<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
                               "<sgnodes>\n<All_Nodes>\n"
                               "<MainScene children=\"1\" extends=\"Scene\" focused=\"true\""
                               " _sn=\"2\" osref=\"4\" bscref=\"2\">\n");

  for (guint r = 0; r < n % 3 + 1; r++)
    g_string_append_printf (xml, "  <Rectangle extends=\"Group\" _sn=\"%u\">\n"
                            "    <Label extends=\"Group\" text=\"a &lt;b&gt;\" />\n"
                            "    <Label extends=\"Group\" />\n"
                            "  </Rectangle>\n", 10 + r);
  g_string_append (xml, "</MainScene>\n");
  if (n % 2 == 1)
    g_string_append (xml, "<Poster extends=\"Group\" uri=\"pkg:/images/a.png\" />\n");
  g_string_append_printf (xml, "</All_Nodes>\n<timestamp>%" G_GINT64_FORMAT "</timestamp>\n"
                          "<status>OK</status>\n</sgnodes>\n", g_get_real_time () / 1000);

  return g_string_free (xml, FALSE);
}

static char *
app_object_counts (guint n)
{
  GString *objects = g_string_new (NULL);
  gint64 total_count = 0, total_memory = 0;

  for (guint i = 0; i < BL_FAKE_ROKU_N_OBJECT_TYPES; i++)
    {
      const char *name;
      gint64 memory;
      guint count = bl_fake_roku_object (n, i, &name, &memory);
      g_auto(GStrv) parts = g_strsplit (name, ":", 2);

      g_string_append_printf (objects, "    <object><type>%s</type>", parts[0]);
      if (parts[1] != NULL)
        g_string_append_printf (objects, "<subtype>%s</subtype>", parts[1]);
      g_string_append_printf (objects, "<count>%u</count>"
                              "<num-bytes-physical>%" G_GINT64_FORMAT "</num-bytes-physical>"
                              "<num-bytes-logical>%" G_GINT64_FORMAT "</num-bytes-logical>"
                              "</object>\n", count, memory, memory / 2);
      total_count += count;
      total_memory += memory;
    }

  return g_strdup_printf ("<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
                          "<app-object-counts>\n"
                          "<timestamp>%" G_GINT64_FORMAT "</timestamp>\n"
                          "<channel-id>dev</channel-id>\n"
                          "<channel-title>Fake App</channel-title>\n"
                          "<channel-version>1.2.3</channel-version>\n"
                          "<objects>\n"
                          "  <objects-count>%" G_GINT64_FORMAT "</objects-count>\n"
                          "  <objects-num-bytes-physical>%" G_GINT64_FORMAT
                          "</objects-num-bytes-physical>\n"
                          "  <objects-num-bytes-logical>%" G_GINT64_FORMAT
                          "</objects-num-bytes-logical>\n"
                          "  <objects>\n%s  </objects>\n"
                          "</objects>\n"
                          "<status>OK</status>\n"
                          "</app-object-counts>\n",
                          g_get_real_time () / 1000, total_count, total_memory,
                          total_memory / 2, objects->str);
}

static char *
registry (guint n)
{
  GString *xml = g_string_new (NULL);

  g_string_append_printf (xml,
                          "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
                          "<registry-info>\n<timestamp>%" G_GINT64_FORMAT "</timestamp>\n"
                          "<registry>\n<dev-id>0123abcd</dev-id>\n<plugins>dev</plugins>\n"
                          "<space-available>%" G_GINT64_FORMAT "</space-available>\n"
                          "<sections>\n"
                          "<section><name>auth</name><items>"
                          "<item><key>token</key><value>abc</value></item>"
                          "<item><key>user</key><value>me &amp; you</value></item>"
                          "</items></section>\n"
                          "<section><name>settings</name><items>",
                          g_get_real_time () / 1000, bl_fake_roku_registry_space (n));
  for (guint k = 0; k < bl_fake_roku_registry_n_keys (n, 1); k++)
    g_string_append_printf (xml, "<item><key>k%u</key><value>%u</value></item>", k, n);
  g_string_append (xml, "</items></section>\n</sections>\n</registry>\n"
                   "<status>OK</status>\n</registry-info>\n");

  return g_string_free (xml, FALSE);
}

static guint
count_query (BlFakeRoku *self,
             const char *path)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (self->queries, path));

  g_hash_table_insert (self->queries, g_strdup (path), GUINT_TO_POINTER (n + 1));
  return n;
}

static void
reply (SoupServerMessage *msg,
       guint              status,
       const char        *type,
       char              *body)
{
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, type, SOUP_MEMORY_TAKE, body, strlen (body));
}

static char *
device_info (BlFakeRoku *self)
{
  return g_strdup_printf (
    "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
    "<device-info>\n"
    "\t<udn>29600009-5406-1005-8080-fake00000001</udn>\n"
    "\t<serial-number>%s</serial-number>\n"
    "\t<device-id>S00000FAKE01</device-id>\n"
    "\t<vendor-name>Roku</vendor-name>\n"
    "\t<model-name>Roku Express</model-name>\n"
    "\t<model-number>%s</model-number>\n"
    "\t<model-region>US</model-region>\n"
    "\t<is-tv>false</is-tv>\n"
    "\t<is-stick>false</is-stick>\n"
    "\t<supports-ethernet>false</supports-ethernet>\n"
    "\t<user-device-name>%s</user-device-name>\n"
    "\t<friendly-device-name>%s</friendly-device-name>\n"
    "\t<friendly-model-name>Roku Express</friendly-model-name>\n"
    "\t<default-device-name>Roku Express - %s</default-device-name>\n"
    "\t<software-version>14.1.4</software-version>\n"
    "\t<software-build>6812</software-build>\n"
    "\t<power-mode>PowerOn</power-mode>\n"
    "\t<developer-enabled>%s</developer-enabled>\n"
    "\t<keyed-developer-id>%s</keyed-developer-id>\n"
    "\t<search-enabled>true</search-enabled>\n"
    "</device-info>\n",
    BL_FAKE_ROKU_SERIAL, BL_FAKE_ROKU_MODEL, BL_FAKE_ROKU_NAME, BL_FAKE_ROKU_NAME,
    BL_FAKE_ROKU_SERIAL,
    self->mode == BL_FAKE_ROKU_DEVELOPER_OFF ? "false" : "true",
    self->mode == BL_FAKE_ROKU_DEVELOPER_OFF ? "" : "0123456789abcdef0123456789abcdef01234567");
}

static char *
active_app (BlFakeRoku *self)
{
  if (self->mode == BL_FAKE_ROKU_NOT_SIDELOADED)
    return g_strdup ("<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
                     "<active-app>\n"
                     "\t<app id=\"12\" type=\"appl\" version=\"5.1.0\">Store Channel</app>\n"
                     "</active-app>\n");

  return g_strdup ("<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
                   "<active-app>\n"
                   "\t<app id=\"dev\" type=\"appl\" version=\"1.2.3\">Fake App</app>\n"
                   "</active-app>\n");
}

static char *
chanperf (guint n)
{
  char user[G_ASCII_DTOSTR_BUF_SIZE], sys[G_ASCII_DTOSTR_BUF_SIZE];
  guint64 used = bl_fake_roku_chanperf_used (n);

  g_ascii_formatd (user, sizeof user, "%.1f", bl_fake_roku_chanperf_user (n));
  g_ascii_formatd (sys, sizeof sys, "%.1f", bl_fake_roku_chanperf_sys (n));

  return g_strdup_printf (
    "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
    "<chanperf>\n"
    "\t<plugin id=\"dev\">\n"
    "\t\t<cpu-percent>\n"
    "\t\t\t<duration-seconds>1</duration-seconds>\n"
    "\t\t\t<user>%s</user>\n"
    "\t\t\t<sys>%s</sys>\n"
    "\t\t</cpu-percent>\n"
    "\t\t<memory>\n"
    "\t\t\t<used>%" G_GUINT64_FORMAT "</used>\n"
    "\t\t\t<res>%" G_GUINT64_FORMAT "</res>\n"
    "\t\t\t<anon>%" G_GUINT64_FORMAT "</anon>\n"
    "\t\t\t<swap>0</swap>\n"
    "\t\t\t<file>%" G_GUINT64_FORMAT "</file>\n"
    "\t\t\t<shared>4096</shared>\n"
    "\t\t\t<limit>536870912</limit>\n"
    "\t\t</memory>\n"
    "\t</plugin>\n"
    "\t<status>OK</status>\n"
    "</chanperf>\n",
    user, sys, used, used, used / 2, used - used / 2 - 4096);
}

/* what firmware without @path answers: 404, or an answer whose status
 * says so (its root named after the query) */
static void
refuse (SoupServerMessage *msg,
        const char        *path,
        BlFakeRokuRefusal  how)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);
  const char *root = g_strv_length (parts) > 2 ? parts[2] : "answer";

  if (how == BL_FAKE_ROKU_REFUSE_NOT_FOUND)
    reply (msg, SOUP_STATUS_NOT_FOUND, "text/plain; charset=\"utf-8\"", g_strdup ("Not Found"));
  else
    reply (msg, SOUP_STATUS_OK, "text/xml; charset=\"utf-8\"",
           g_strdup_printf ("<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
                            "<%s>\n\t<status>FAILED</status>\n"
                            "\t<error>not supported on this device</error>\n</%s>\n",
                            root, root));
}

static void
ecp_handler (SoupServer        *server,
             SoupServerMessage *msg,
             const char        *path,
             GHashTable        *query,
             gpointer           user_data)
{
  BlFakeRoku *self = user_data;
  guint n;

  n = count_query (self, path);

  if (self->mode == BL_FAKE_ROKU_LIMITED)
    {
      /* what devices answer since Roku OS 14.1 with the setting on Limited */
      reply (msg, SOUP_STATUS_FORBIDDEN, "text/plain; charset=\"utf-8\"",
             g_strdup ("ECP command not allowed in Limited mode."));
      return;
    }

  if (g_hash_table_contains (self->refused, path))
    {
      refuse (msg, path, GPOINTER_TO_INT (g_hash_table_lookup (self->refused, path)));
      return;
    }

  if (g_str_equal (path, "/query/device-info"))
    reply (msg, SOUP_STATUS_OK, "text/xml; charset=\"utf-8\"", device_info (self));
  else if (g_str_equal (path, "/query/active-app"))
    reply (msg, SOUP_STATUS_OK, "text/xml; charset=\"utf-8\"", active_app (self));
  else if (g_str_equal (path, "/query/chanperf") || g_str_equal (path, "/query/chanperf/dev"))
    reply (msg, SOUP_STATUS_OK, "text/xml; charset=\"utf-8\"", chanperf (n));
  else if (g_str_equal (path, "/query/sgnodes/all"))
    reply (msg, SOUP_STATUS_OK, "text/xml; charset=\"utf-8\"", sgnodes (n));
  else if (g_str_equal (path, "/query/app-object-counts/dev"))
    reply (msg, SOUP_STATUS_OK, "text/xml; charset=\"utf-8\"", app_object_counts (n));
  else if (g_str_equal (path, "/query/registry/dev"))
    reply (msg, SOUP_STATUS_OK, "text/xml; charset=\"utf-8\"", registry (n));
  else if (g_str_equal (path, "/query/graphics-frame-rate"))
    {
      char fps[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (fps, sizeof fps, "%.1f", bl_fake_roku_fps (n));
      reply (msg, SOUP_STATUS_OK, "text/xml; charset=\"utf-8\"",
             g_strdup_printf ("<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
                              "<graphics-frame-rate>\n"
                              "\t<fps>%s</fps>\n"
                              "\t<timestamp>%" G_GINT64_FORMAT "</timestamp>\n"
                              "\t<status>OK</status>\n"
                              "</graphics-frame-rate>\n",
                              fps, g_get_real_time () / 1000));
    }
  else if (g_str_equal (path, "/fwbeacons/track/dev")
           && g_str_equal (soup_server_message_get_method (msg), "POST"))
    {
      if (!self->beacons_tracked)
        self->beacon_base_ms = g_get_real_time () / 1000;
      self->beacons_tracked = TRUE;
      reply (msg, SOUP_STATUS_OK, "text/xml; charset=\"utf-8\"",
             g_strdup ("<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
                       "<fwbeacons-track><tracking-enabled>true</tracking-enabled>"
                       "<status>OK</status></fwbeacons-track>\n"));
    }
  else if (g_str_equal (path, "/sgrendezvous/track/dev")
           && g_str_equal (soup_server_message_get_method (msg), "POST"))
    {
      self->rendezvous_tracked = TRUE;
      reply (msg, SOUP_STATUS_OK, "text/xml; charset=\"utf-8\"",
             g_strdup ("<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
                       "<sgrendezvous-track><tracking-enabled>true</tracking-enabled>"
                       "<status>OK</status></sgrendezvous-track>\n"));
    }
  else if (g_str_equal (path, "/query/sgrendezvous"))
    {
      guint r = self->rendezvous_reads;
      GString *xml = g_string_new (NULL);

      /* the layout of a real device's answer, as recorded in public notes */
      g_string_append_printf (xml,
                              "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
                              "<sgrendezvous>\n"
                              "  <data>\n"
                              "    <tracking-enabled>%s</tracking-enabled>\n"
                              "    <plugin-id>dev</plugin-id>\n"
                              "    <plugin-title>Fake App</plugin-title>\n"
                              "    <drop-count>%u</drop-count>\n"
                              "    <count>%u</count>\n",
                              self->rendezvous_tracked ? "true" : "false",
                              self->rendezvous_tracked ? bl_fake_roku_rendezvous_drops (r) : 0,
                              self->rendezvous_tracked ? bl_fake_roku_rendezvous_count (r) : 0);
      for (guint i = 0; self->rendezvous_tracked && i < bl_fake_roku_rendezvous_count (r); i++)
        {
          gint64 id, start, end, line;
          const char *file;

          bl_fake_roku_rendezvous (r, i, &id, &start, &end, &line, &file);
          g_string_append_printf (xml,
                                  "    <item><id>%" G_GINT64_FORMAT "</id>"
                                  "<start-tm>%" G_GINT64_FORMAT "</start-tm>"
                                  "<end-tm>%" G_GINT64_FORMAT "</end-tm>"
                                  "<line-number>%" G_GINT64_FORMAT "</line-number>"
                                  "<file>%s</file></item>\n",
                                  id, start, end, line, file);
        }
      if (self->rendezvous_tracked)
        self->rendezvous_reads++;
      g_string_append_printf (xml, "  </data>\n  <timestamp>%" G_GINT64_FORMAT "</timestamp>\n"
                              "  <status>OK</status>\n</sgrendezvous>\n",
                              g_get_real_time () / 1000);
      reply (msg, SOUP_STATUS_OK, "text/xml; charset=\"utf-8\"", g_string_free (xml, FALSE));
    }
  else if (g_str_equal (path, "/query/r2d2-bitmaps/dev"))
    {
      GString *xml = g_string_new (NULL);

      g_string_append_printf (xml,
                              "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
                              "<r2d2-bitmaps>\n"
                              "  <timestamp>%" G_GINT64_FORMAT "</timestamp>\n"
                              "  <channel-id>dev</channel-id>\n"
                              "  <graphics-instances>\n"
                              "    <rographics>\n"
                              "      <sytem-memory><used>%" G_GINT64_FORMAT "</used></sytem-memory>\n"
                              "      <texture-memory><used>%" G_GINT64_FORMAT "</used>"
                              "<available>1</available><max>100000000</max></texture-memory>\n",
                              g_get_real_time () / 1000, bl_fake_roku_system_used (n),
                              bl_fake_roku_texture_used (n) - 7000);
      for (guint i = 0; i < bl_fake_roku_n_bitmaps (n); i++)
        {
          gint64 width, height, bpp, size;
          g_autofree char *name = NULL;

          bl_fake_roku_bitmap (n, i, &width, &height, &bpp, &size, &name);
          g_string_append_printf (xml,
                                  "      <bitmap><width>%" G_GINT64_FORMAT "</width>"
                                  "<height>%" G_GINT64_FORMAT "</height>"
                                  "<bpp>%" G_GINT64_FORMAT "</bpp>"
                                  "<size>%" G_GINT64_FORMAT "</size>"
                                  "<name>%s</name></bitmap>\n",
                                  width, height, bpp, size, name);
        }
      g_string_append (xml,
                       "    </rographics>\n"
                       "    <rographics>\n"
                       "      <texture-memory><used>7000</used><max>100000000</max></texture-memory>\n"
                       "    </rographics>\n"
                       "  </graphics-instances>\n"
                       "  <status>OK</status>\n"
                       "</r2d2-bitmaps>\n");
      reply (msg, SOUP_STATUS_OK, "text/xml; charset=\"utf-8\"", g_string_free (xml, FALSE));
    }
  else if (g_str_equal (path, "/query/fwbeacons"))
    {
      GString *xml = g_string_new ("<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
                                   "<fwbeacons>\n\t<plugin-id>dev</plugin-id>\n");

      for (guint i = 2 * self->beacon_reads; self->beacons_tracked && i < 2 * self->beacon_reads + 2; i++)
        {
          gint64 ts;
          const char *name = bl_fake_roku_beacon (self, i, &ts);

          if (name != NULL)
            g_string_append_printf (xml, "\t<%s>\n\t\t<timestamp>%" G_GINT64_FORMAT
                                    "</timestamp>\n\t</%s>\n", name, ts, name);
        }
      if (self->beacons_tracked)
        self->beacon_reads++;
      g_string_append (xml, "\t<status>OK</status>\n</fwbeacons>\n");
      reply (msg, SOUP_STATUS_OK, "text/xml; charset=\"utf-8\"", g_string_free (xml, FALSE));
    }
  else if (g_str_equal (path, "/perfetto/enable/dev")
           && g_str_equal (soup_server_message_get_method (msg), "POST")
           && self->trace != NULL)
    {
      gint64 now = g_get_real_time () / 1000;

      self->tracing_enabled = TRUE;
      reply (msg, SOUP_STATUS_OK, "text/xml; charset=\"utf-8\"",
             g_strdup_printf ("<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
                              "<perfetto-enable>\n"
                              "  <enabled-channels>\n"
                              "  <channel>dev</channel>\n"
                              "  </enabled-channels>\n"
                              "  <timestamp>%" G_GINT64_FORMAT "</timestamp>\n"
                              "  <timestamp-end>%" G_GINT64_FORMAT "</timestamp-end>\n"
                              "  <status>OK</status>\n"
                              "</perfetto-enable>\n", now, now));
    }
  else if (g_str_equal (path, "/perfetto/heapgraph/trigger/dev")
           && g_str_equal (soup_server_message_get_method (msg), "POST"))
    {
      self->heap_pending = self->ws != NULL;
      reply (msg, SOUP_STATUS_OK, "text/xml; charset=\"utf-8\"",
             g_strdup ("<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
                       "<perfetto-heapgraph-trigger><status>OK</status>"
                       "</perfetto-heapgraph-trigger>\n"));
    }
  else
    reply (msg, SOUP_STATUS_NOT_FOUND, "text/plain", g_strdup (""));
}

/* ---- the profile stream ----------------------------------------------- */

void
bl_fake_roku_vanish (BlFakeRoku *self)
{
  self->vanished = TRUE;
  g_clear_handle_id (&self->tick_id, g_source_remove);
  if (self->streaming != NULL)
    {
      /* drop the connection under the body, with no last chunk */
      SoupServerMessage *msg = g_steal_pointer (&self->streaming);
      g_autoptr(GIOStream) stream = soup_server_message_steal_connection (msg);

      g_io_stream_close (stream, NULL, NULL);
    }
  g_clear_handle_id (&self->trace_tick_id, g_source_remove);
  if (self->ws != NULL)
    {
      /* no close frame: the connection just drops */
      g_io_stream_close (soup_websocket_connection_get_io_stream (self->ws), NULL, NULL);
      g_clear_object (&self->ws);
    }
  soup_server_disconnect (self->profiler);
  soup_server_disconnect (self->ecp);
  g_socket_service_stop (self->console);
  g_socket_listener_close (G_SOCKET_LISTENER (self->console));
}

static gboolean
vanish_idle (gpointer user_data)
{
  bl_fake_roku_vanish (user_data);
  return G_SOURCE_REMOVE;
}

static void
wrote_chunk (SoupServerMessage *msg,
             gpointer           user_data)
{
  BlFakeRoku *self = user_data;

  /* the bytes up to the vanishing point are out: go, as a device that is
   * unplugged does, without ending the chunked body */
  if (self->vanish_after > 0 && self->sent >= self->vanish_after && !self->vanished)
    g_idle_add (vanish_idle, self);
}

static gboolean
tick (gpointer user_data)
{
  BlFakeRoku *self = user_data;
  SoupMessageBody *body;
  gsize total = g_bytes_get_size (self->profile);
  guint chunks = 1;

  if (self->streaming == NULL)
    {
      self->tick_id = 0;
      return G_SOURCE_REMOVE;
    }
  if (self->paused)
    return G_SOURCE_CONTINUE;

  self->ticks++;
  if (self->burst_every > 0)
    chunks = self->ticks % self->burst_every == 0 ? self->burst_chunks : 0;

  body = soup_server_message_get_response_body (self->streaming);
  for (guint i = 0; i < chunks && self->sent < total; i++)
    {
      gsize len = MIN (self->chunk_size, total - self->sent);

      if (self->vanish_after > 0)
        len = MIN (len, self->vanish_after - self->sent);
      if (len == 0)
        break;
      soup_message_body_append (body, SOUP_MEMORY_COPY,
                                (const guint8 *) g_bytes_get_data (self->profile, NULL)
                                + self->sent, len);
      self->sent += len;
    }

  if (self->sent == total && (self->vanish_after == 0 || self->vanish_after > total))
    {
      soup_message_body_complete (body);
      soup_server_message_unpause (self->streaming);
      self->streaming = NULL;
      self->tick_id = 0;
      return G_SOURCE_REMOVE;
    }

  if (chunks > 0)
    soup_server_message_unpause (self->streaming);

  return G_SOURCE_CONTINUE;
}

static void
stream_finished (SoupServerMessage *msg,
                 gpointer           user_data)
{
  BlFakeRoku *self = user_data;

  if (self->streaming == msg)
    self->streaming = NULL;
}

static void
profiler_handler (SoupServer        *server,
                  SoupServerMessage *msg,
                  const char        *path,
                  GHashTable        *query,
                  gpointer           user_data)
{
  BlFakeRoku *self = user_data;
  SoupMessageHeaders *headers;

  if (!g_str_equal (path, "/bsprof/channel.bsprof") || self->profile == NULL
      || self->streaming != NULL)
    {
      reply (msg, SOUP_STATUS_NOT_FOUND, "text/plain", g_strdup (""));
      return;
    }

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  headers = soup_server_message_get_response_headers (msg);
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_headers_set_content_type (headers, "application/octet-stream", NULL);
  g_signal_connect (msg, "wrote-chunk", G_CALLBACK (wrote_chunk), self);
  g_signal_connect (msg, "finished", G_CALLBACK (stream_finished), self);

  self->streaming = msg;
  self->sent = 0;
  self->ticks = 0;
  soup_server_message_pause (msg);
  self->tick_id = g_timeout_add (self->interval_ms, tick, self);
}

/* ---- the Perfetto session -------------------------------------------- */

static void
send_trace (BlFakeRoku    *self,
            const guint8  *data,
            gsize          len)
{
  soup_websocket_connection_send_binary (self->ws, data, len);
  g_byte_array_append (self->trace_sent, data, len);
}

static gboolean
trace_tick (gpointer user_data)
{
  BlFakeRoku *self = user_data;
  gsize total = g_bytes_get_size (self->trace);

  if (self->ws == NULL
      || soup_websocket_connection_get_state (self->ws) != SOUP_WEBSOCKET_STATE_OPEN)
    {
      self->trace_tick_id = 0;
      return G_SOURCE_REMOVE;
    }

  if (self->heap_pending && self->heap_graph != NULL)
    {
      self->heap_pending = FALSE;
      send_trace (self, g_bytes_get_data (self->heap_graph, NULL),
                  g_bytes_get_size (self->heap_graph));
    }
  else if (self->trace_pos < total)
    {
      gsize len = MIN (self->trace_chunk, total - self->trace_pos);

      send_trace (self, (const guint8 *) g_bytes_get_data (self->trace, NULL) + self->trace_pos,
                  len);
      self->trace_pos += len;
    }
  else if (self->trace_close_at_end)
    {
      /* the app exited */
      soup_websocket_connection_close (self->ws, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
      self->trace_tick_id = 0;
      return G_SOURCE_REMOVE;
    }

  return G_SOURCE_CONTINUE;
}

static void
ws_closed (SoupWebsocketConnection *ws,
           gpointer                 user_data)
{
  BlFakeRoku *self = user_data;

  if (self->ws == ws)
    {
      g_clear_handle_id (&self->trace_tick_id, g_source_remove);
      g_clear_object (&self->ws);
    }
}

static void
ws_handler (SoupServer              *server,
            SoupServerMessage       *msg,
            const char              *path,
            SoupWebsocketConnection *connection,
            gpointer                 user_data)
{
  BlFakeRoku *self = user_data;

  if (self->ws != NULL || !self->tracing_enabled || self->trace == NULL)
    {
      soup_websocket_connection_close (connection, SOUP_WEBSOCKET_CLOSE_POLICY_VIOLATION, NULL);
      return;
    }

  self->ws = g_object_ref (connection);
  self->trace_pos = 0;
  g_signal_connect (connection, "closed", G_CALLBACK (ws_closed), self);
  self->trace_tick_id = g_timeout_add (self->trace_interval_ms, trace_tick, self);
}

/* ---- the debug console ------------------------------------------------ */

typedef struct
{
  BlFakeRoku        *self;
  GSocketConnection *connection;
  GDataInputStream  *lines;
} Console;

static void
console_free (Console *c)
{
  g_io_stream_close (G_IO_STREAM (c->connection), NULL, NULL);
  g_object_unref (c->lines);
  g_object_unref (c->connection);
  g_free (c);
}

static void
console_line (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  Console *c = user_data;
  BlFakeRoku *self = c->self;
  g_autofree char *line = NULL;
  const char *answer = NULL;
  g_autofree char *status = NULL;
  GOutputStream *out;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (source), result,
                                                    NULL, NULL);
  if (line == NULL)
    {
      console_free (c);
      return;
    }
  g_strstrip (line);

  if (g_str_equal (line, "bsprof-pause"))
    {
      self->paused = TRUE;
      answer = "BrightScript profiler paused";
    }
  else if (g_str_equal (line, "bsprof-resume"))
    {
      self->paused = FALSE;
      answer = "BrightScript profiler resumed";
    }
  else if (g_str_equal (line, "bsprof-status"))
    {
      status = g_strdup_printf ("BrightScript profiler %s, %" G_GSIZE_FORMAT " bytes sent",
                                self->paused ? "paused" : "running", self->sent);
      answer = status;
    }
  else if (line[0] != '\0')
    answer = "Unknown command";

  out = g_io_stream_get_output_stream (G_IO_STREAM (c->connection));
  if (answer != NULL)
    {
      g_autofree char *text = g_strdup_printf ("%s\r\n", answer);

      g_output_stream_write_all (out, text, strlen (text), NULL, NULL, NULL);
    }

  g_data_input_stream_read_line_async (c->lines, G_PRIORITY_DEFAULT, NULL, console_line, c);
}

static gboolean
console_incoming (GSocketService    *service,
                  GSocketConnection *connection,
                  GObject           *source,
                  gpointer           user_data)
{
  static const char banner[] = "\r\nBrightScript Debugger> ";
  Console *c = g_new0 (Console, 1);

  c->self = user_data;
  c->connection = g_object_ref (connection);
  c->lines = g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (connection)));
  g_data_input_stream_set_newline_type (c->lines, G_DATA_STREAM_NEWLINE_TYPE_ANY);
  g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (c->lines), FALSE);
  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)),
                             banner, sizeof banner - 1, NULL, NULL, NULL);
  g_data_input_stream_read_line_async (c->lines, G_PRIORITY_DEFAULT, NULL, console_line, c);

  return TRUE;
}

/* ---- SSDP ------------------------------------------------------------- */

static gboolean
ssdp_readable (GSocket      *socket,
               GIOCondition  condition,
               gpointer      user_data)
{
  BlFakeRoku *self = user_data;
  g_autoptr(GSocketAddress) from = NULL;
  char buf[2048];
  gssize n;

  n = g_socket_receive_from (socket, &from, buf, sizeof buf - 1, NULL, NULL);
  if (n <= 0)
    return G_SOURCE_CONTINUE;
  buf[n] = '\0';

  if (g_str_has_prefix (buf, "M-SEARCH * HTTP/1.1") && strstr (buf, "roku:ecp") != NULL
      && !self->vanished)
    {
      g_autofree char *answer =
        g_strdup_printf ("HTTP/1.1 200 OK\r\n"
                         "Cache-Control: max-age=3600\r\n"
                         "ST: roku:ecp\r\n"
                         "USN: uuid:roku:ecp:%s\r\n"
                         "Ext: \r\n"
                         "Server: Roku/14.1.4 UPnP/1.0 Roku/14.1.4\r\n"
                         "LOCATION: http://127.0.0.1:%u/\r\n"
                         "device-group.roku.com: FAKE0000000000000000\r\n"
                         "\r\n",
                         BL_FAKE_ROKU_SERIAL, self->ecp_port);

      g_socket_send_to (socket, from, answer, strlen (answer), NULL, NULL);
    }

  return G_SOURCE_CONTINUE;
}

/* ---- set-up ----------------------------------------------------------- */

static guint
server_port (SoupServer *server)
{
  GSList *uris = soup_server_get_uris (server);
  guint port = uris != NULL ? (guint) g_uri_get_port (uris->data) : 0;

  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  return port;
}

/* A port nothing listens on: bound, then released. */
static guint
closed_port (void)
{
  g_autoptr(GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                            G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;

  if (socket == NULL || !g_socket_bind (socket, address, FALSE, NULL))
    return 9;  /* discard: closed on test machines */
  bound = g_socket_get_local_address (socket, NULL);
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

BlFakeRoku *
bl_fake_roku_new (BlFakeRokuMode   mode,
                  GError         **error)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) effective = NULL;
  g_autoptr(GSocketAddress) ssdp_local = NULL;
  BlFakeRoku *self = g_new0 (BlFakeRoku, 1);

  self->mode = mode;
  self->chunk_size = 1024;
  self->interval_ms = 5;
  self->queries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->refused = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  self->ecp = soup_server_new ("server-header", "Roku/14.1.4 UPnP/1.0 Roku/14.1.4", NULL);
  soup_server_add_handler (self->ecp, NULL, ecp_handler, self, NULL);
  soup_server_add_websocket_handler (self->ecp, "/perfetto-session", NULL, NULL, ws_handler,
                                     self, NULL);
  self->trace_sent = g_byte_array_new ();
  self->profiler = soup_server_new (NULL, NULL);
  soup_server_add_handler (self->profiler, NULL, profiler_handler, self, NULL);
  self->console = g_socket_service_new ();
  g_signal_connect (self->console, "incoming", G_CALLBACK (console_incoming), self);

  if (!soup_server_listen_local (self->ecp, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, error)
      || (mode != BL_FAKE_ROKU_NOT_PROFILING
          && !soup_server_listen_local (self->profiler, 0, SOUP_SERVER_LISTEN_IPV4_ONLY,
                                        error))
      || !g_socket_listener_add_address (G_SOCKET_LISTENER (self->console), address,
                                         G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL,
                                         &effective, error))
    {
      bl_fake_roku_free (self);
      return NULL;
    }

  self->ecp_port = server_port (self->ecp);
  self->profiler_port = mode == BL_FAKE_ROKU_NOT_PROFILING ? closed_port ()
                                                           : server_port (self->profiler);
  self->console_port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (effective));
  g_socket_service_start (self->console);

  self->ssdp = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_DATAGRAM,
                             G_SOCKET_PROTOCOL_UDP, error);
  if (self->ssdp == NULL || !g_socket_bind (self->ssdp, address, FALSE, error)
      || (ssdp_local = g_socket_get_local_address (self->ssdp, error)) == NULL)
    {
      bl_fake_roku_free (self);
      return NULL;
    }
  self->ssdp_port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (ssdp_local));
  g_socket_set_blocking (self->ssdp, FALSE);
  self->ssdp_source = g_socket_create_source (self->ssdp, G_IO_IN, NULL);
  g_source_set_callback (self->ssdp_source, G_SOURCE_FUNC (ssdp_readable), self, NULL);
  g_source_attach (self->ssdp_source, g_main_context_get_thread_default ());

  return self;
}

void
bl_fake_roku_free (BlFakeRoku *self)
{
  if (self == NULL)
    return;

  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_clear_handle_id (&self->trace_tick_id, g_source_remove);
  if (self->ws != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->ws, self);
      g_io_stream_close (soup_websocket_connection_get_io_stream (self->ws), NULL, NULL);
      g_clear_object (&self->ws);
    }
  while (g_source_remove_by_user_data (self))
    ;
  if (self->ssdp_source != NULL)
    {
      g_source_destroy (self->ssdp_source);
      g_source_unref (self->ssdp_source);
    }
  g_clear_object (&self->ssdp);
  if (self->ecp != NULL)
    soup_server_disconnect (self->ecp);
  if (self->profiler != NULL)
    soup_server_disconnect (self->profiler);
  g_clear_object (&self->ecp);
  g_clear_object (&self->profiler);
  if (self->console != NULL)
    {
      g_socket_service_stop (self->console);
      g_socket_listener_close (G_SOCKET_LISTENER (self->console));
      g_clear_object (&self->console);
    }
  g_clear_pointer (&self->profile, g_bytes_unref);
  g_clear_pointer (&self->trace, g_bytes_unref);
  g_clear_pointer (&self->heap_graph, g_bytes_unref);
  g_clear_pointer (&self->trace_sent, g_byte_array_unref);
  g_clear_pointer (&self->queries, g_hash_table_unref);
  g_clear_pointer (&self->refused, g_hash_table_unref);
  g_free (self);
}

guint
bl_fake_roku_get_ecp_port (BlFakeRoku *self)
{
  return self->ecp_port;
}

guint
bl_fake_roku_get_profiler_port (BlFakeRoku *self)
{
  return self->profiler_port;
}

guint
bl_fake_roku_get_console_port (BlFakeRoku *self)
{
  return self->console_port;
}

guint
bl_fake_roku_get_ssdp_port (BlFakeRoku *self)
{
  return self->ssdp_port;
}

/* Serves @profile at /bsprof/channel.bsprof, @chunk_size bytes every
 * @interval_ms, then ends the body (the app exited). */
void
bl_fake_roku_set_profile (BlFakeRoku *self,
                          GBytes     *profile,
                          gsize       chunk_size,
                          guint       interval_ms)
{
  g_clear_pointer (&self->profile, g_bytes_unref);
  self->profile = g_bytes_ref (profile);
  self->chunk_size = MAX (chunk_size, 1);
  self->interval_ms = MAX (interval_ms, 1);
}

/* Bursty: nothing for @burst_every - 1 ticks, then @burst_chunks chunks. */
void
bl_fake_roku_set_burst (BlFakeRoku *self,
                        guint       burst_every,
                        guint       burst_chunks)
{
  self->burst_every = burst_every;
  self->burst_chunks = burst_chunks;
}

/* Disappears (every port closes, connections drop) once @bytes of the
 * profile are out. */
void
bl_fake_roku_set_vanish_after (BlFakeRoku *self,
                               gsize       bytes)
{
  self->vanish_after = bytes;
}

gsize
bl_fake_roku_get_bytes_sent (BlFakeRoku *self)
{
  return self->sent;
}

gboolean
bl_fake_roku_get_paused (BlFakeRoku *self)
{
  return self->paused;
}

gboolean
bl_fake_roku_get_vanished (BlFakeRoku *self)
{
  return self->vanished;
}

/* From now on, ECP @path is refused @how (firmware without it). */
void
bl_fake_roku_refuse (BlFakeRoku        *self,
                     const char        *path,
                     BlFakeRokuRefusal  how)
{
  g_hash_table_insert (self->refused, g_strdup (path), GINT_TO_POINTER (how));
}

guint
bl_fake_roku_get_n_queries (BlFakeRoku *self,
                            const char *path)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->queries, path));
}

/* Streams @trace on ws://…/perfetto-session once tracing is enabled,
 * @chunk_size bytes a message every @interval_ms; then closes the session
 * when @close_at_end (the app exited), else stays quiet. A heap graph
 * asked for is sent as @heap_graph in the next message. */
void
bl_fake_roku_set_trace (BlFakeRoku *self,
                        GBytes     *trace,
                        GBytes     *heap_graph,
                        gsize       chunk_size,
                        guint       interval_ms,
                        gboolean    close_at_end)
{
  g_clear_pointer (&self->trace, g_bytes_unref);
  g_clear_pointer (&self->heap_graph, g_bytes_unref);
  self->trace = g_bytes_ref (trace);
  self->heap_graph = heap_graph != NULL ? g_bytes_ref (heap_graph) : NULL;
  self->trace_chunk = MAX (chunk_size, 1);
  self->trace_interval_ms = MAX (interval_ms, 1);
  self->trace_close_at_end = close_at_end;
}

/* Every byte sent on the trace socket so far, in order. */
GBytes *
bl_fake_roku_dup_trace_sent (BlFakeRoku *self)
{
  return g_bytes_new (self->trace_sent->data, self->trace_sent->len);
}
