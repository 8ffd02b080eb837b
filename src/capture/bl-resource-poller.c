/* bl-resource-poller.c — the app's resource use, polled into an RRM session
 *
 * Every interval the poller asks the device for /query/chanperf/APP and
 * appends the answer to the channel_system_memory_usage and
 * channel_cpu_usage arrays of a Roku Resource Monitor session (version 4 of
 * the format, /work/shared/specs/rrm-session-format.txt), so Roku's own
 * monitor and Brightlens open it. Fields of the answer the format does not
 * name (the memory limit, the CPU sample's duration) are kept in the point.
 * Then, each while the device answers it: graphics-frame-rate, fwbeacons,
 * sgrendezvous (both drained), r2d2-bitmaps, sgnodes/all (node counts by
 * type), app-object-counts/APP (BrightScript objects by type) and
 * registry/APP (sections and keys, space used); doc/capture-protocol.md
 * says which layouts are confirmed. A query the device refuses or answers
 * with something else is dropped for the rest of the run.
 *
 * The session file is rewritten whole after every poll through a temporary
 * file renamed over it, so at any moment it is a complete, valid session.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-capture"

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "bl-capture-error.h"
#include "bl-ecp-xml.h"
#include "bl-json-text.h"
#include "bl-resource-poller.h"
#include "bl-resource-poller-private.h"
#include "bl-rrm-reader.h"

/* The optional queries, in the order a poll asks them after chanperf. */
typedef enum
{
  QUERY_FPS,
  QUERY_BEACONS,
  QUERY_RENDEZVOUS,
  QUERY_GRAPHICS,
  QUERY_NODES,
  QUERY_OBJECTS,
  QUERY_REGISTRY,
  N_QUERIES
} QueryId;

struct _BlResourcePoller
{
  GObject       parent_instance;

  BlDevice     *device;
  GFile        *output;
  guint         interval_ms;

  JsonNode     *root;
  JsonArray    *memory;    /* owned by root */
  JsonArray    *cpu;       /* owned by root */
  JsonArray    *fps;       /* owned by root */
  JsonArray    *beacons;   /* owned by root */
  JsonArray    *rendezvous; /* owned by root */
  JsonArray    *graphics;  /* owned by root */
  JsonArray    *nodes;     /* owned by root */
  JsonArray    *objects;   /* owned by root */
  JsonArray    *registry;  /* owned by root */
  gboolean      supported[N_QUERIES];  /* FALSE: dropped for the run */
  QueryId       query;     /* the optional query (or tracking) in flight */
  guint         n_polls;
  gint64        first_poll_us;  /* g_get_monotonic_time(), 0: none yet */
  GBytes       *writing;   /* the document being written */
  GBytes       *saved;     /* the document the file holds */

  GTask        *task;      /* the run in progress */
  GCancellable *stop;
  GCancellable *caller;
  gulong        caller_id;
  guint         timeout_id;
  gint64        poll_started_us;
  gint64        poll_time_ms;
};

enum {
  POLLED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (BlResourcePoller, bl_resource_poller, G_TYPE_OBJECT)

static guint signals[N_SIGNALS];

static void
bl_resource_poller_finalize (GObject *object)
{
  BlResourcePoller *self = BL_RESOURCE_POLLER (object);

  g_clear_handle_id (&self->timeout_id, g_source_remove);
  if (self->caller_id != 0)
    g_cancellable_disconnect (self->caller, self->caller_id);
  g_clear_object (&self->caller);
  g_clear_object (&self->stop);
  g_clear_object (&self->device);
  g_clear_object (&self->output);
  g_clear_pointer (&self->root, json_node_unref);
  g_clear_pointer (&self->writing, g_bytes_unref);
  g_clear_pointer (&self->saved, g_bytes_unref);

  G_OBJECT_CLASS (bl_resource_poller_parent_class)->finalize (object);
}

static void
bl_resource_poller_class_init (BlResourcePollerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = bl_resource_poller_finalize;

  /* after each poll, once the session file holds it */
  signals[POLLED] = g_signal_new ("polled", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
bl_resource_poller_init (BlResourcePoller *self)
{
  self->interval_ms = BL_RESOURCE_POLLER_DEFAULT_INTERVAL_MS;
}

/* Polls the app in the foreground of @device (whose device-info and
 * active-app were read) into the session file @output. */
BlResourcePoller *
bl_resource_poller_new (BlDevice *device,
                        GFile    *output)
{
  BlResourcePoller *self;

  g_return_val_if_fail (BL_IS_DEVICE (device), NULL);
  g_return_val_if_fail (G_IS_FILE (output), NULL);

  self = g_object_new (BL_TYPE_RESOURCE_POLLER, NULL);
  self->device = g_object_ref (device);
  self->output = g_object_ref (output);

  return self;
}

void
bl_resource_poller_set_interval (BlResourcePoller *self,
                                 guint             interval_ms)
{
  g_return_if_fail (BL_IS_RESOURCE_POLLER (self));

  self->interval_ms = MAX (interval_ms, 1);
}

/* How many polls the session file holds. */
guint
bl_resource_poller_get_n_polls (BlResourcePoller *self)
{
  g_return_val_if_fail (BL_IS_RESOURCE_POLLER (self), 0);

  return self->n_polls;
}

gint64
bl_resource_poller_get_first_poll_time (BlResourcePoller *self)
{
  g_return_val_if_fail (BL_IS_RESOURCE_POLLER (self), 0);

  return self->first_poll_us;
}

BlSession *
bl_resource_poller_dup_session (BlResourcePoller *self)
{
  g_autoptr(GError) error = NULL;
  BlSession *session;

  g_return_val_if_fail (BL_IS_RESOURCE_POLLER (self), NULL);

  if (self->saved == NULL)
    return NULL;

  session = bl_rrm_read_memory (g_bytes_get_data (self->saved, NULL),
                                g_bytes_get_size (self->saved), &error);
  if (session == NULL)
    g_debug ("the session written so far does not read back: %s", error->message);

  return session;
}

/* ---- the session document --------------------------------------------- */

static void
set_string (JsonObject *object,
            const char *name,
            const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, name, value);
  else
    json_object_set_null_member (object, name);
}

static void
build_root (BlResourcePoller *self)
{
  JsonObject *root = json_object_new ();
  JsonObject *device = json_object_new ();
  JsonObject *channel = json_object_new ();
  JsonObject *metadata = json_object_new ();
  JsonObject *session = json_object_new ();
  JsonObject *statics = json_object_new ();
  JsonObject *live = json_object_new ();
  g_autofree char *uuid = g_uuid_string_random ();
  const char *build = bl_device_get_info (self->device, "software-build");
  gint64 now_ms = g_get_real_time () / 1000;

  set_string (device, "device_name", bl_device_get_display_name (self->device));
  set_string (device, "model_number", bl_device_get_model (self->device));
  set_string (device, "serial_number", bl_device_get_serial (self->device));
  set_string (device, "software_version", bl_device_get_software_version (self->device));
  if (build != NULL)
    json_object_set_int_member (device, "software_build", g_ascii_strtoll (build, NULL, 10));
  else
    json_object_set_null_member (device, "software_build");

  set_string (channel, "id", bl_device_get_app_id (self->device));
  set_string (channel, "version", bl_device_get_app_version (self->device));
  set_string (channel, "name", bl_device_get_app_name (self->device));

  json_object_set_string_member (metadata, "uuid", uuid);
  json_object_set_int_member (metadata, "created_at", now_ms);
  json_object_set_int_member (metadata, "started_at", now_ms);
  json_object_set_int_member (metadata, "version", 4);

  /* the device's per-app limits are not in any ECP answer found so far */
  json_object_set_null_member (statics, "foreground_limit");
  json_object_set_null_member (statics, "background_limit");

  self->memory = json_array_new ();
  self->cpu = json_array_new ();
  self->fps = json_array_new ();
  json_object_set_array_member (live, "channel_system_memory_usage", self->memory);
  json_object_set_array_member (live, "channel_cpu_usage", self->cpu);
  json_object_set_array_member (live, "graphics_rendering_frame_rate", self->fps);
  self->beacons = json_array_new ();
  json_object_set_array_member (live, "fw_beacons", self->beacons);
  self->rendezvous = json_array_new ();
  json_object_set_array_member (live, "sgrendezvous", self->rendezvous);
  self->graphics = json_array_new ();
  json_object_set_array_member (live, "channel_graphics_memory_usage", self->graphics);
  self->nodes = json_array_new ();
  json_object_set_array_member (live, "channel_graph_metrics", self->nodes);
  self->objects = json_array_new ();
  json_object_set_array_member (live, "bs_objects", self->objects);
  self->registry = json_array_new ();
  json_object_set_array_member (live, "registry_usage", self->registry);

  json_object_set_object_member (session, "static", statics);
  json_object_set_object_member (session, "live", live);

  json_object_set_object_member (root, "device", device);
  json_object_set_object_member (root, "channel", channel);
  json_object_set_object_member (root, "metadata", metadata);
  json_object_set_object_member (root, "session", session);

  g_clear_pointer (&self->root, json_node_unref);
  self->root = json_node_init_object (json_node_alloc (), root);
  json_object_unref (root);
}

/* A double member (null if not finite). json-glib 1.6 appends ".0" to a number it writes
 * without a point, even after an exponent ("2e+52.0", which no reader
 * takes): such a value, a power of ten beyond 2^53 or a tiny one, goes in
 * as its neighbour towards zero, whose digits have a point. */
static void
set_double (JsonObject *object,
            const char *name,
            double      value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    {
      json_object_set_null_member (object, name);
      return;
    }
  g_ascii_dtostr (text, sizeof text, value);
  if (strpbrk (text, "eE") != NULL && strchr (text, '.') == NULL)
    value = nextafter (value, 0);
  json_object_set_double_member (object, name, value);
}

/* @field of the answer as a number member @name of @point (null when the
 * device left it out or it is not a number) */
static void
set_number (JsonObject *point,
            const char *name,
            GHashTable *answer,
            const char *field)
{
  const char *text = g_hash_table_lookup (answer, field);
  char *end = NULL;
  double value;

  if (text == NULL || text[0] == '\0')
    {
      json_object_set_null_member (point, name);
      return;
    }

  value = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !isfinite (value))
    json_object_set_null_member (point, name);
  else if (fabs (value) <= 9007199254740992.0    /* 2^53: a double's exact integers */
           && value == (double) (gint64) value && strchr (text, '.') == NULL)
    json_object_set_int_member (point, name, (gint64) value);
  else
    set_double (point, name, value);
}

static void
add_chanperf (BlResourcePoller *self,
              GHashTable       *answer,
              gint64            timestamp_ms)
{
  JsonObject *memory = json_object_new ();
  JsonObject *cpu = json_object_new ();
  const char *user = g_hash_table_lookup (answer, "plugin/cpu-percent/user");
  const char *sys = g_hash_table_lookup (answer, "plugin/cpu-percent/sys");

  json_object_set_int_member (memory, "timestamp", timestamp_ms);
  set_number (memory, "used", answer, "plugin/memory/used");
  set_number (memory, "resident", answer, "plugin/memory/res");
  set_number (memory, "swap", answer, "plugin/memory/swap");
  set_number (memory, "anon", answer, "plugin/memory/anon");
  set_number (memory, "file", answer, "plugin/memory/file");
  set_number (memory, "shared", answer, "plugin/memory/shared");
  set_number (memory, "limit", answer, "plugin/memory/limit");
  json_array_add_object_element (self->memory, memory);

  json_object_set_int_member (cpu, "timestamp", timestamp_ms);
  if (user != NULL && sys != NULL)
    set_double (cpu, "total", g_ascii_strtod (user, NULL) + g_ascii_strtod (sys, NULL));
  else
    json_object_set_null_member (cpu, "total");
  set_number (cpu, "user", answer, "plugin/cpu-percent/user");
  set_number (cpu, "sys", answer, "plugin/cpu-percent/sys");
  set_number (cpu, "duration_seconds", answer, "plugin/cpu-percent/duration-seconds");
  json_array_add_object_element (self->cpu, cpu);
}

/* ---- the run ---------------------------------------------------------- */

static void poll_now (BlResourcePoller *self);
static void save (BlResourcePoller *self);

static void
finish_run (BlResourcePoller *self,
            GError           *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  g_clear_handle_id (&self->timeout_id, g_source_remove);
  if (self->caller_id != 0)
    g_cancellable_disconnect (self->caller, self->caller_id);
  self->caller_id = 0;

  if (self->caller != NULL && g_cancellable_is_cancelled (self->caller))
    {
      g_clear_error (&error);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               _("The recording was cancelled."));
    }
  else if (error == NULL)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);

  g_clear_object (&self->caller);
}

static gboolean
poll_timeout (gpointer user_data)
{
  BlResourcePoller *self = user_data;

  self->timeout_id = 0;
  poll_now (self);

  return G_SOURCE_REMOVE;
}

static void
written (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(BlResourcePoller) self = user_data;
  g_autoptr(GError) error = NULL;
  gint64 elapsed_ms;

  if (!g_file_replace_contents_finish (G_FILE (source), result, NULL, &error))
    {
      if (self->task == NULL)
        return;
      finish_run (self, g_error_new (G_IO_ERROR, error->code,
                                     _("Could not write the session to %s: %s."),
                                     g_file_peek_path (self->output), error->message));
      return;
    }

  g_clear_pointer (&self->saved, g_bytes_unref);
  self->saved = g_steal_pointer (&self->writing);
  self->n_polls++;
  g_signal_emit (self, signals[POLLED], 0);

  if (self->task == NULL)
    return;
  if (g_cancellable_is_cancelled (self->stop))
    {
      finish_run (self, NULL);
      return;
    }

  elapsed_ms = (g_get_monotonic_time () - self->poll_started_us) / 1000;
  self->timeout_id = g_timeout_add (elapsed_ms >= self->interval_ms
                                      ? 0 : self->interval_ms - (guint) elapsed_ms,
                                    poll_timeout, self);
}

/* The session document as it stands (a device's text may hold U+001F,
 * which bl_json_to_bytes() escapes). */
static GBytes *
document (BlResourcePoller *self)
{
  return bl_json_to_bytes (self->root);
}

/* Writes the session with the poll just made; written() goes on. */
static void
save (BlResourcePoller *self)
{
  g_autoptr(GBytes) contents = document (self);

  g_clear_pointer (&self->writing, g_bytes_unref);
  self->writing = g_bytes_ref (contents);
  g_file_replace_contents_bytes_async (self->output, contents, NULL, FALSE,
                                       G_FILE_CREATE_REPLACE_DESTINATION, NULL, written,
                                       g_object_ref (self));
}

/* A query failed: a stop is a clean end (after saving what the poll got),
 * an absent device is the device going away. */
static void
poll_failed (BlResourcePoller *self,
             GError           *error,
             gboolean          have_point)
{
  if (g_cancellable_is_cancelled (self->stop))
    {
      g_error_free (error);
      if (have_point)
        save (self);
      else
        finish_run (self, NULL);
    }
  else if (g_error_matches (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_UNREACHABLE))
    {
      g_error_free (error);
      finish_run (self, g_error_new (BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_DISCONNECTED,
                                     _("%s stopped answering after %u polls, which are "
                                       "saved: check that the device is still on and on "
                                       "this network."),
                                     bl_device_get_display_name (self->device),
                                     self->n_polls));
    }
  else
    finish_run (self, error);
}

/* What the optional queries (all but chanperf) share: the answer to one,
 * or NULL. NULL with *@go_on FALSE: the run has ended, or the device is
 * gone (the poll is saved and the run ends); return at once. NULL with
 * *@go_on TRUE: the device does not answer this query as expected (an
 * HTTP error, a refusal): it is not supported, the poll goes on without
 * it. */
static GBytes *
take_answer (BlResourcePoller *self,
             GAsyncResult     *result,
             const char       *what,
             gboolean         *go_on)
{
  GError *error = NULL;
  GBytes *bytes;

  *go_on = FALSE;
  if (self->task == NULL)
    return NULL;

  bytes = bl_device_get_finish (self->device, result, &error);
  if (bytes == NULL && !g_error_matches (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_PROTOCOL))
    {
      poll_failed (self, error, TRUE);
      return NULL;
    }
  if (bytes == NULL)
    {
      g_debug ("%s: %s", what, error->message);
      g_error_free (error);
    }
  *go_on = TRUE;

  return bytes;
}

/* Whether an answer's status (NULL: it gave none) says OK; if not,
 * @error says what it said. */
static gboolean
status_ok (const char  *status,
           const char  *reason,
           GError     **error)
{
  if (status == NULL || g_ascii_strcasecmp (status, "OK") == 0)
    return TRUE;
  g_set_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_PROTOCOL, "%s (%s)", status,
               reason != NULL ? reason : "no reason given");

  return FALSE;
}

/* A tree answer whose status says OK (or nothing), or NULL with @error
 * set. */
static BlEcpElement *
parse_tree (const char  *data,
            gsize        len,
            const char  *root,
            GError     **error)
{
  g_autoptr(BlEcpElement) answer = bl_ecp_xml_parse_tree (data, len, root, error);

  if (answer == NULL
      || !status_ok (bl_ecp_element_get_text (answer, "status"),
                     bl_ecp_element_get_text (answer, "error"), error))
    return NULL;

  return g_steal_pointer (&answer);
}

/* The answer is parsed but lacks @what: @error says so. */
static gboolean
lacks (const char  *what,
       GError     **error)
{
  g_set_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_PROTOCOL, "no %s in the answer", what);

  return FALSE;
}

/* a bitmap's field, from a child element or an attribute */
static const char *
bitmap_field (GHashTable *item,
              const char *name)
{
  g_autofree char *attribute = g_strconcat ("@", name, NULL);
  const char *value = g_hash_table_lookup (item, name);

  return value != NULL ? value : g_hash_table_lookup (item, attribute);
}

static void
add_field (gint64     *sum,
           gboolean   *has,
           const char *text)
{
  char *end = NULL;
  gint64 value;

  if (text == NULL)
    return;
  value = g_ascii_strtoll (text, &end, 10);
  if (end == text || *end != '\0' || value < 0)
    return;
  *sum = value > G_MAXINT64 - *sum ? G_MAXINT64 : *sum + value;
  *has = TRUE;
}

static void
set_total (JsonObject *point,
           const char *name,
           gint64      value,
           gboolean    has)
{
  if (has)
    json_object_set_int_member (point, name, value);
  else
    json_object_set_null_member (point, name);
}

/* r2d2-bitmaps: the graphics memory and the bitmaps */
static gboolean
parse_graphics (BlResourcePoller  *self,
                const char        *data,
                gsize              len,
                GError           **error)
{
  static const char *const numbers[] = { "bpp", "height", "width", "size" };
  g_autoptr(GHashTable) answer = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GPtrArray) instances = NULL;
  const char *wrapper;
  JsonObject *point;
  JsonArray *bitmaps;
  gint64 texture = 0, texture_max = 0, system_used = 0;
  gboolean has_texture = FALSE, has_texture_max = FALSE, has_system = FALSE;

  /* the ECP page's sample has <rographics> right under the root, devices
   * and other clients one or more under <graphics-instances> */
  answer = bl_ecp_xml_parse (data, len, "r2d2-bitmaps", error);
  if (answer == NULL)
    return FALSE;
  wrapper = g_hash_table_contains (answer, "graphics-instances") ? "graphics-instances" : NULL;
  instances = bl_ecp_xml_parse_list (data, len, "r2d2-bitmaps", wrapper, error);
  if (instances == NULL)
    return FALSE;
  items = bl_ecp_xml_parse_list (data, len, "r2d2-bitmaps",
                                 wrapper != NULL ? "graphics-instances/rographics"
                                                 : "rographics",
                                 error);
  if (items == NULL ||
      !status_ok (g_hash_table_lookup (answer, "status"), g_hash_table_lookup (answer, "error"),
                  error))
    return FALSE;

  /* memory summed over the graphics instances */
  for (guint i = 0; i < instances->len; i++)
    {
      GHashTable *instance = g_ptr_array_index (instances, i);
      const char *system;

      if (!g_str_equal (g_hash_table_lookup (instance, "#name"), "rographics"))
        continue;
      /* devices spell it "sytem-memory" (node-roku's type does too) */
      system = g_hash_table_lookup (instance, "sytem-memory/used");
      if (system == NULL)
        system = g_hash_table_lookup (instance, "system-memory/used");
      add_field (&texture, &has_texture, g_hash_table_lookup (instance, "texture-memory/used"));
      add_field (&texture_max, &has_texture_max,
                 g_hash_table_lookup (instance, "texture-memory/max"));
      add_field (&system_used, &has_system, system);
    }

  point = json_object_new ();
  bitmaps = json_array_new ();
  json_object_set_int_member (point, "timestamp", self->poll_time_ms);
  set_total (point, "texture", texture, has_texture);
  set_total (point, "system", system_used, has_system);
  set_total (point, "texture_max", texture_max, has_texture_max);
  for (guint i = 0; i < items->len; i++)
    {
      GHashTable *item = g_ptr_array_index (items, i);
      JsonObject *bitmap;
      const char *name;

      if (!g_str_equal (g_hash_table_lookup (item, "#name"), "bitmap"))
        continue;

      bitmap = json_object_new ();
      for (guint j = 0; j < G_N_ELEMENTS (numbers); j++)
        {
          const char *text = bitmap_field (item, numbers[j]);
          char *end = NULL;
          gint64 value = text != NULL ? g_ascii_strtoll (text, &end, 10) : 0;

          if (text == NULL || end == text || *end != '\0')
            json_object_set_null_member (bitmap, numbers[j]);
          else
            json_object_set_int_member (bitmap, numbers[j], value);
        }
      name = bitmap_field (item, "name");
      json_object_set_string_member (bitmap, "name", name != NULL ? name : "");
      json_array_add_object_element (bitmaps, bitmap);
    }
  json_object_set_array_member (point, "bitmaps", bitmaps);
  json_array_add_object_element (self->graphics, point);

  return TRUE;
}

/* an ECP path for the app being recorded: PREFIX/APP-ID ("dev" for the
 * sideloaded app when the device named none) */
static char *
app_path (BlResourcePoller *self,
          const char       *prefix)
{
  const char *app = bl_device_get_app_id (self->device);

  return g_strdup_printf ("%s/%s", prefix, app != NULL ? app : "dev");
}

/* A non-negative integer from a device's text, or -1. */
static gint64
parse_count (const char *text)
{
  char *end = NULL;
  gint64 value;

  if (text == NULL || text[0] == '\0')
    return -1;
  value = g_ascii_strtoll (text, &end, 10);

  return end == text || *end != '\0' || value < 0 ? -1 : value;
}

static void
set_count (JsonObject *object,
           const char *name,
           gint64      value)
{
  if (value >= 0)
    json_object_set_int_member (object, name, value);
  else
    json_object_set_null_member (object, name);
}

/* Counts the SceneGraph nodes below @element by type (the element's name).
 * Sections that wrap nodes (<All_Nodes>, <Root_Nodes>) and the answer's own
 * fields are not nodes. */
static void
count_nodes (const BlEcpElement *element,
             GHashTable         *counts,
             guint64            *total)
{
  static const char *const envelope[] = { "status", "error", "timestamp", "error-message" };

  for (guint i = 0; i < element->children->len; i++)
    {
      const BlEcpElement *child = g_ptr_array_index (element->children, i);
      gboolean is_node = !g_str_has_suffix (child->name, "_Nodes");

      for (guint e = 0; e < G_N_ELEMENTS (envelope) && is_node; e++)
        is_node = !g_str_equal (child->name, envelope[e]);
      if (is_node)
        {
          guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, child->name));

          g_hash_table_insert (counts, child->name, GUINT_TO_POINTER (n + 1));
          (*total)++;
        }
      /* nodes nest in their parents */
      if (is_node || g_str_has_suffix (child->name, "_Nodes"))
        count_nodes (child, counts, total);
    }
}

static gint
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* sgnodes/all: the SceneGraph nodes by type */
static gboolean
parse_nodes (BlResourcePoller  *self,
             const char        *data,
             gsize              len,
             GError           **error)
{
  g_autoptr(BlEcpElement) answer = NULL;
  g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree const char **names = NULL;
  JsonObject *point;
  JsonArray *types;
  guint64 total = 0;
  guint n_names;

  answer = parse_tree (data, len, NULL, error);
  if (answer == NULL)
    return FALSE;

  count_nodes (answer, counts, &total);
  names = (const char **) g_hash_table_get_keys_as_array (counts, &n_names);
  qsort (names, n_names, sizeof *names, compare_names);

  /* the node types and how many of each; the answer has no sizes */
  point = json_object_new ();
  types = json_array_new ();
  json_object_set_int_member (point, "timestamp", self->poll_time_ms);
  json_object_set_int_member (point, "total_nodes", (gint64) MIN (total, G_MAXINT64));
  json_object_set_null_member (point, "total_memory");
  for (guint i = 0; i < n_names; i++)
    {
      JsonObject *type = json_object_new ();

      json_object_set_string_member (type, "name", names[i]);
      json_object_set_int_member (type, "count",
                                  GPOINTER_TO_UINT (g_hash_table_lookup (counts, names[i])));
      json_object_set_null_member (type, "memory");
      json_array_add_object_element (types, type);
    }
  json_object_set_array_member (point, "nodes", types);
  json_array_add_object_element (self->nodes, point);

  return TRUE;
}

/* app-object-counts/APP: the BrightScript objects by type */
static gboolean
parse_objects (BlResourcePoller  *self,
               const char        *data,
               gsize              len,
               GError           **error)
{
  g_autoptr(BlEcpElement) answer = NULL;
  BlEcpElement *totals, *list;
  JsonObject *point, *group;
  JsonArray *groups, *objects;
  const char *id, *title;

  answer = parse_tree (data, len, "app-object-counts", error);
  if (answer == NULL)
    return FALSE;
  totals = bl_ecp_element_get_child (answer, "objects");
  if (totals == NULL)
    return lacks ("<objects>", error);

  /* one group, the app, with its objects by type (SceneGraph nodes by
   * their subtype, "roSGNode:Font") */
  point = json_object_new ();
  groups = json_array_new ();
  group = json_object_new ();
  objects = json_array_new ();
  json_object_set_int_member (point, "timestamp", self->poll_time_ms);
  id = bl_ecp_element_get_text (answer, "channel-id");
  title = bl_ecp_element_get_text (answer, "channel-title");
  json_object_set_string_member (group, "name", title != NULL ? title : "");
  json_object_set_string_member (group, "id", id != NULL ? id : "");
  set_count (group, "objects_count",
             parse_count (bl_ecp_element_get_text (totals, "objects-count")));
  set_count (group, "objects_memory",
             parse_count (bl_ecp_element_get_text (totals, "objects-num-bytes-physical")));
  set_count (group, "objects_memory_logical",
             parse_count (bl_ecp_element_get_text (totals, "objects-num-bytes-logical")));
  list = bl_ecp_element_get_child (totals, "objects");
  for (guint i = 0; list != NULL && i < list->children->len; i++)
    {
      const BlEcpElement *item = g_ptr_array_index (list->children, i);
      const char *type = bl_ecp_element_get_text (item, "type");
      const char *subtype = bl_ecp_element_get_text (item, "subtype");
      g_autofree char *name = NULL;
      JsonObject *object;

      if (!g_str_equal (item->name, "object"))
        continue;
      name = subtype != NULL && subtype[0] != '\0'
               ? g_strdup_printf ("%s:%s", type != NULL ? type : "", subtype)
               : g_strdup (type != NULL ? type : "");
      object = json_object_new ();
      json_object_set_string_member (object, "name", name);
      set_count (object, "count", parse_count (bl_ecp_element_get_text (item, "count")));
      set_count (object, "memory",
                 parse_count (bl_ecp_element_get_text (item, "num-bytes-physical")));
      set_count (object, "memory_logical",
                 parse_count (bl_ecp_element_get_text (item, "num-bytes-logical")));
      json_array_add_object_element (objects, object);
    }
  json_object_set_array_member (group, "objects", objects);
  json_array_add_object_element (groups, group);
  json_object_set_array_member (point, "groups", groups);
  json_array_add_object_element (self->objects, point);

  return TRUE;
}

/* registry/APP: the app's registry sections and keys, the space used */
static gboolean
parse_registry (BlResourcePoller  *self,
                const char        *data,
                gsize              len,
                GError           **error)
{
  g_autoptr(BlEcpElement) answer = NULL;
  BlEcpElement *registry, *sections;
  JsonObject *point;
  JsonArray *list;
  gint64 available;

  answer = parse_tree (data, len, NULL, error);
  if (answer == NULL)
    return FALSE;
  registry = bl_ecp_element_get_child (answer, "registry");
  if (registry == NULL)
    return lacks ("<registry>", error);

  /* what the app's registry uses of the 32 KB Roku gives each app */
  point = json_object_new ();
  list = json_array_new ();
  available = parse_count (bl_ecp_element_get_text (registry, "space-available"));
  json_object_set_int_member (point, "timestamp", self->poll_time_ms);
  set_count (point, "used", available >= 0 && available <= BL_RESOURCE_POLLER_REGISTRY_SIZE
                              ? BL_RESOURCE_POLLER_REGISTRY_SIZE - available : -1);
  set_count (point, "space_available", available);
  sections = bl_ecp_element_get_child (registry, "sections");
  for (guint i = 0; sections != NULL && i < sections->children->len; i++)
    {
      const BlEcpElement *section = g_ptr_array_index (sections->children, i);
      const BlEcpElement *items = bl_ecp_element_get_child (section, "items");
      const char *name = bl_ecp_element_get_text (section, "name");
      JsonObject *entry;
      JsonArray *keys;

      if (!g_str_equal (section->name, "section"))
        continue;
      entry = json_object_new ();
      keys = json_array_new ();
      json_object_set_string_member (entry, "name", name != NULL ? name : "");
      for (guint k = 0; items != NULL && k < items->children->len; k++)
        {
          const BlEcpElement *item = g_ptr_array_index (items->children, k);
          const char *key = bl_ecp_element_get_text (item, "key");

          if (g_str_equal (item->name, "item") && key != NULL)
            json_array_add_string_element (keys, key);
        }
      json_object_set_array_member (entry, "items", keys);
      json_array_add_object_element (list, entry);
    }
  json_object_set_array_member (point, "sections", list);
  json_array_add_object_element (self->registry, point);

  return TRUE;
}

/* an integer field of @map as a JSON member (null when absent or not one) */
static void
set_int (JsonObject *object,
         const char *name,
         GHashTable *map,
         const char *field)
{
  const char *text = g_hash_table_lookup (map, field);
  char *end = NULL;
  gint64 value;

  value = text != NULL ? g_ascii_strtoll (text, &end, 10) : 0;
  if (text == NULL || end == text || *end != '\0')
    json_object_set_null_member (object, name);
  else
    json_object_set_int_member (object, name, value);
}

/* sgrendezvous: the rendezvous events since the last read */
static gboolean
parse_rendezvous (BlResourcePoller  *self,
                  const char        *data,
                  gsize              len,
                  GError           **error)
{
  g_autoptr(GHashTable) answer = NULL;
  g_autoptr(GPtrArray) items = NULL;
  JsonObject *point;
  JsonArray *events;
  gint64 total_time = 0;

  answer = bl_ecp_xml_parse (data, len, "sgrendezvous", error);
  if (answer == NULL)
    return FALSE;
  items = bl_ecp_xml_parse_list (data, len, "sgrendezvous", "data", error);
  if (items == NULL)
    return FALSE;

  /* the read drained the device's queue: these are the events since the
   * last poll */
  point = json_object_new ();
  events = json_array_new ();
  json_object_set_int_member (point, "timestamp", self->poll_time_ms);
  for (guint i = 0; i < items->len; i++)
    {
      GHashTable *item = g_ptr_array_index (items, i);
      const char *start = g_hash_table_lookup (item, "start-tm");
      const char *end = g_hash_table_lookup (item, "end-tm");
      JsonObject *event;

      if (!g_str_equal (g_hash_table_lookup (item, "#name"), "item"))
        continue;

      event = json_object_new ();
      set_int (event, "id", item, "id");
      set_int (event, "start", item, "start-tm");
      set_int (event, "end", item, "end-tm");
      set_int (event, "line_number", item, "line-number");
      if (g_hash_table_lookup (item, "file") != NULL)
        json_object_set_string_member (event, "name", g_hash_table_lookup (item, "file"));
      else
        json_object_set_null_member (event, "name");
      json_array_add_object_element (events, event);

      if (start != NULL && end != NULL)
        total_time += MAX (0, g_ascii_strtoll (end, NULL, 10) - g_ascii_strtoll (start, NULL, 10));
    }
  json_object_set_int_member (point, "total_time", total_time);
  set_int (point, "drop_count", answer, "data/drop-count");
  set_int (point, "count", answer, "data/count");
  json_object_set_array_member (point, "items", events);
  json_array_add_object_element (self->rendezvous, point);

  return TRUE;
}

/* fwbeacons: the app's launch beacons since the last read */
static gboolean
parse_beacons (BlResourcePoller  *self,
               const char        *data,
               gsize              len,
               GError           **error)
{
  g_autoptr(GPtrArray) items = NULL;

  items = bl_ecp_xml_parse_list (data, len, NULL, NULL, error);
  if (items == NULL)
    return FALSE;

  /* each read drains the device's queue: every beacon is new */
  for (guint i = 0; i < items->len; i++)
    {
      GHashTable *item = g_ptr_array_index (items, i);
      const char *name = g_hash_table_lookup (item, "#name");
      const char *timestamp = g_hash_table_lookup (item, "timestamp");
      g_autofree char *event = NULL;
      JsonObject *beacon;
      gint64 ms;
      char *end = NULL;

      if (name == NULL || timestamp == NULL
          || !(g_str_has_suffix (name, "-initiate") || g_str_has_suffix (name, "-complete")))
        continue;
      ms = g_ascii_strtoll (timestamp, &end, 10);
      if (end == timestamp || *end != '\0' || ms <= 0)
        continue;

      /* the session format names them app_load_complete */
      event = g_strdelimit (g_strdup (name), "-", '_');
      beacon = json_object_new ();
      json_object_set_string_member (beacon, "name", event);
      json_object_set_int_member (beacon, "timestamp", ms);
      json_array_add_object_element (self->beacons, beacon);
    }

  return TRUE;
}

/* graphics-frame-rate: the frame rate (older firmware has none) */
static gboolean
parse_fps (BlResourcePoller  *self,
           const char        *data,
           gsize              len,
           GError           **error)
{
  g_autoptr(GHashTable) answer = NULL;
  JsonObject *point;

  answer = bl_ecp_xml_parse (data, len, "graphics-frame-rate", error);
  if (answer == NULL ||
      !status_ok (g_hash_table_lookup (answer, "status"), g_hash_table_lookup (answer, "error"),
                  error))
    return FALSE;

  point = json_object_new ();
  json_object_set_int_member (point, "timestamp", self->poll_time_ms);
  set_number (point, "fps", answer, "fps");
  json_array_add_object_element (self->fps, point);

  return TRUE;
}

/* ---- the chain of optional queries ------------------------------------ */

typedef struct
{
  const char *what;      /* for debug messages */
  const char *path;
  gboolean    per_app;   /* the path ends in /APP-ID */
  const char *track;     /* POSTed (+ /APP-ID) once as a run starts, or NULL */
  gboolean  (*parse) (BlResourcePoller  *self,
                      const char        *data,
                      gsize              len,
                      GError           **error);
} Query;

static const Query queries[N_QUERIES] = {
  [QUERY_FPS] = { "graphics-frame-rate", "/query/graphics-frame-rate", FALSE, NULL, parse_fps },
  [QUERY_BEACONS] = { "fwbeacons", "/query/fwbeacons", FALSE, "/fwbeacons/track",
                      parse_beacons },
  [QUERY_RENDEZVOUS] = { "sgrendezvous", "/query/sgrendezvous", FALSE, "/sgrendezvous/track",
                         parse_rendezvous },
  [QUERY_GRAPHICS] = { "r2d2-bitmaps", "/query/r2d2-bitmaps", TRUE, NULL, parse_graphics },
  [QUERY_NODES] = { "sgnodes", "/query/sgnodes/all", FALSE, NULL, parse_nodes },
  [QUERY_OBJECTS] = { "app-object-counts", "/query/app-object-counts", TRUE, NULL,
                      parse_objects },
  [QUERY_REGISTRY] = { "registry", "/query/registry", TRUE, NULL, parse_registry },
};

static void polled_query (GObject      *source,
                          GAsyncResult *result,
                          gpointer      user_data);

/* Asks the first query from @first on that the device supports; after
 * the last, the poll is saved. */
static void
query_from (BlResourcePoller *self,
            QueryId           first)
{
  g_autofree char *path = NULL;
  QueryId id = first;

  while (id < N_QUERIES && !self->supported[id])
    id++;
  if (id == N_QUERIES)
    {
      save (self);
      return;
    }

  self->query = id;
  path = queries[id].per_app ? app_path (self, queries[id].path) : g_strdup (queries[id].path);
  bl_device_get_async (self->device, path, self->stop, polled_query, g_object_ref (self));
}

/* An optional query's answer: parsed into the session, or the query is
 * dropped for the rest of the run; then the next one. */
static void
polled_query (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(BlResourcePoller) self = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const Query *query = &queries[self->query];
  gboolean go_on;

  bytes = take_answer (self, result, query->what, &go_on);
  if (!go_on)
    return;
  if (bytes == NULL
      || !query->parse (self, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error))
    {
      if (error != NULL)
        g_debug ("%s: %s", query->what, error->message);
      self->supported[self->query] = FALSE;
    }

  query_from (self, self->query + 1);
}

static void
polled (GObject      *source,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(BlResourcePoller) self = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GHashTable) answer = NULL;
  g_autoptr(GError) error = NULL;
  const char *status;

  if (self->task == NULL)
    return;

  bytes = bl_device_get_finish (self->device, result, &error);
  if (bytes == NULL)
    {
      poll_failed (self, g_steal_pointer (&error), FALSE);
      return;
    }

  answer = bl_ecp_xml_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                             "chanperf", &error);
  if (answer == NULL)
    {
      finish_run (self, g_steal_pointer (&error));
      return;
    }

  status = g_hash_table_lookup (answer, "status");
  if (status != NULL && g_ascii_strcasecmp (status, "OK") != 0)
    {
      const char *reason = g_hash_table_lookup (answer, "error");

      finish_run (self, g_error_new (BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_NOT_SIDELOADED,
                                     _("%s does not report the resources of the app (%s): "
                                       "start your sideloaded app and record again."),
                                     bl_device_get_display_name (self->device),
                                     reason != NULL ? reason : status));
      return;
    }

  self->poll_time_ms = g_get_real_time () / 1000;
  if (self->first_poll_us == 0)
    self->first_poll_us = g_get_monotonic_time ();
  add_chanperf (self, answer, self->poll_time_ms);

  query_from (self, 0);
}

static void
poll_now (BlResourcePoller *self)
{
  g_autofree char *path = NULL;

  self->poll_started_us = g_get_monotonic_time ();
  path = app_path (self, "/query/chanperf");
  bl_device_get_async (self->device, path, self->stop, polled, g_object_ref (self));
}

static gboolean
stop_idle (gpointer user_data)
{
  BlResourcePoller *self = user_data;

  if (self->task != NULL && self->timeout_id != 0)
    finish_run (self, NULL);
  g_object_unref (self);

  return G_SOURCE_REMOVE;
}

static void track_from (BlResourcePoller *self,
                        QueryId           first);

/* A query's tracking is on, or the device has none (the query is dropped
 * for the run): the next tracking. */
static void
tracked (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(BlResourcePoller) self = user_data;
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;

  if (self->task == NULL)
    return;

  bytes = bl_device_get_finish (self->device, result, &error);
  if (bytes == NULL)
    {
      if (g_error_matches (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_PROTOCOL))
        {
          g_clear_error (&error);
          self->supported[self->query] = FALSE;
        }
      else
        {
          poll_failed (self, error, FALSE);
          return;
        }
    }

  track_from (self, self->query + 1);
}

/* Turns on the tracking of the first query from @first on that has one
 * (fwbeacons, then sgrendezvous); after the last, polling starts. */
static void
track_from (BlResourcePoller *self,
            QueryId           first)
{
  g_autofree char *path = NULL;
  QueryId id = first;

  while (id < N_QUERIES && queries[id].track == NULL)
    id++;
  if (id == N_QUERIES)
    {
      poll_now (self);
      return;
    }

  self->query = id;
  path = app_path (self, queries[id].track);
  bl_device_post_async (self->device, path, self->stop, tracked, g_object_ref (self));
}

static void
caller_cancelled (GCancellable *cancellable,
                  gpointer      user_data)
{
  BlResourcePoller *self = user_data;

  g_cancellable_cancel (self->stop);
  g_idle_add (stop_idle, g_object_ref (self));
}

/* Polls until bl_resource_poller_stop() (TRUE), @cancellable (cancelled),
 * the device going away (BL_CAPTURE_ERROR_DISCONNECTED) or refusing; the
 * session file holds every poll made in all cases. */
void
bl_resource_poller_run_async (BlResourcePoller    *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (BL_IS_RESOURCE_POLLER (self));
  g_return_if_fail (self->task == NULL);

  self->task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (self->task, bl_resource_poller_run_async);
  g_clear_object (&self->stop);
  self->stop = g_cancellable_new ();
  self->n_polls = 0;
  self->first_poll_us = 0;
  for (guint i = 0; i < N_QUERIES; i++)
    self->supported[i] = TRUE;
  if (cancellable != NULL)
    {
      self->caller = g_object_ref (cancellable);
      self->caller_id = g_cancellable_connect (cancellable, G_CALLBACK (caller_cancelled),
                                               self, NULL);
    }

  build_root (self);
  track_from (self, 0);
}

gboolean
bl_resource_poller_run_finish (BlResourcePoller  *self,
                               GAsyncResult      *result,
                               GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Ends a run cleanly after the poll in flight, if any. */
void
bl_resource_poller_stop (BlResourcePoller *self)
{
  g_return_if_fail (BL_IS_RESOURCE_POLLER (self));

  if (self->stop == NULL || self->task == NULL)
    return;

  g_cancellable_cancel (self->stop);
  /* between polls nothing is in flight to notice: end from an idle */
  g_idle_add (stop_idle, g_object_ref (self));
}

/* ---- for the fuzz target ---------------------------------------------- */

/* @data as the answer to query @index (0: chanperf, which starts a poll,
 * then the optional queries in the order a poll asks them), added to the
 * session as a poll adds it; FALSE (with @error, perhaps) where a poll
 * would stop or drop the query. */
gboolean
_bl_resource_poller_feed (BlResourcePoller  *self,
                          guint              index,
                          const char        *data,
                          gsize              len,
                          GError           **error)
{
  g_autoptr(GHashTable) answer = NULL;

  g_return_val_if_fail (BL_IS_RESOURCE_POLLER (self), FALSE);
  g_return_val_if_fail (index <= N_QUERIES, FALSE);

  if (self->root == NULL)
    build_root (self);
  if (index > 0)
    return queries[index - 1].parse (self, data, len, error);

  answer = bl_ecp_xml_parse (data, len, "chanperf", error);
  if (answer == NULL)
    return FALSE;
  /* a poll a second, from November 2023 */
  self->poll_time_ms = self->poll_time_ms == 0 ? G_GINT64_CONSTANT (1700000000000)
                                               : self->poll_time_ms + 1000;
  add_chanperf (self, answer, self->poll_time_ms);

  return TRUE;
}

/* How many kinds of answer _bl_resource_poller_feed() takes. */
guint
_bl_resource_poller_get_n_answers (void)
{
  return N_QUERIES + 1;
}

/* The session document as a poll would write it. */
GBytes *
_bl_resource_poller_dup_document (BlResourcePoller *self)
{
  g_return_val_if_fail (BL_IS_RESOURCE_POLLER (self), NULL);

  if (self->root == NULL)
    build_root (self);

  return document (self);
}
