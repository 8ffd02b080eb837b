/* bl-recording.c — a saved recording: its manifest and the files it lines up
 *
 * The manifest is small (the writer keeps it so): it is read whole, at most
 * 1 MiB, with json-glib, and checked member by member. A member of the
 * wrong type or out of range is an error that names it; members this
 * version does not know are ignored, unknown mark kinds skipped with a
 * warning. The stream files are always the fixed names inside the folder:
 * a "file" member naming anything else is reported and not followed, and a
 * stream file that is not a regular file (a link, a folder) is not read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-recording"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "bl-recording.h"
#include "formats/bl-bsprof-reader.h"
#include "formats/bl-perfetto-reader.h"
#include "formats/bl-rrm-reader.h"

/* Manifests are a few KiB; anything this big is not one. */
#define MANIFEST_MAX (1024 * 1024)
/* Times on the axis: about 31 years either way in µs. */
#define TIME_MAX G_GINT64_CONSTANT (1000000000000000)

typedef struct
{
  gboolean   recorded;
  gint64     first_byte_us;
  char      *error;
  gboolean   has_offset;
  gint64     offset_us;
} StreamState;

struct _BlRecording
{
  GObject          parent_instance;

  GFile           *folder;
  BlRecordingInfo  info;
  GArray          *marks;        /* BlRecordingMark; texts in text_chunk */
  GStringChunk    *text_chunk;
  GString         *warning;

  StreamState      streams[BL_RECORDING_N_STREAMS];
  BlProfile       *profile;
  BlSession       *session;
  BlProfile       *trace;
};

G_DEFINE_FINAL_TYPE (BlRecording, bl_recording, G_TYPE_OBJECT)

G_DEFINE_QUARK (bl-recording-error-quark, bl_recording_error)

static const char *const stream_names[] = { "profile", "session", "trace" };
static const char *const stream_files[] = {
  "profile.bsprof", "session.json", "trace.perfetto-trace",
};
static const char *const end_names[] = { "recording", "stopped", "duration", "device-lost" };
static const char *const mark_names[] = { "pause", "resume", "status", "heap-graph" };

G_STATIC_ASSERT (G_N_ELEMENTS (stream_names) == BL_RECORDING_N_STREAMS);
G_STATIC_ASSERT (G_N_ELEMENTS (stream_files) == BL_RECORDING_N_STREAMS);
G_STATIC_ASSERT (G_N_ELEMENTS (mark_names) == BL_RECORDING_N_MARK_KINDS);

const char *
bl_recording_stream_get_file_name (BlRecordingStream stream)
{
  g_return_val_if_fail (stream < BL_RECORDING_N_STREAMS, NULL);

  return stream_files[stream];
}

const char *
bl_recording_stream_get_name (BlRecordingStream stream)
{
  g_return_val_if_fail (stream < BL_RECORDING_N_STREAMS, NULL);

  return stream_names[stream];
}

const char *
bl_recording_end_get_name (BlRecordingEnd end)
{
  g_return_val_if_fail (end <= BL_RECORDING_END_DEVICE_LOST, NULL);

  return end_names[end];
}

const char *
bl_recording_mark_kind_get_name (BlRecordingMarkKind kind)
{
  g_return_val_if_fail (kind < BL_RECORDING_N_MARK_KINDS, NULL);

  return mark_names[kind];
}

/* The earliest time in a Perfetto trace, in ns, or FALSE if it has none. */
static gboolean
trace_first_time (BlProfile *trace,
                  guint64   *first)
{
  const BlPerfettoTrace *extra = bl_perfetto_get_trace (trace);
  gboolean found = FALSE;
  guint64 best = G_MAXUINT64;

  for (guint t = 0; t < bl_profile_get_n_threads (trace); t++)
    {
      guint64 start, end;

      if (bl_profile_get_time_range (trace, t, &start, &end) && start < best)
        {
          best = start;
          found = TRUE;
        }
    }

  if (extra != NULL)
    {
      for (guint i = 0; extra->counters != NULL && i < extra->counters->len; i++)
        {
          const BlPerfettoCounter *counter = g_ptr_array_index (extra->counters, i);

          if (counter->points->len > 0 &&
              g_array_index (counter->points, BlPerfettoPoint, 0).ts < best)
            {
              best = g_array_index (counter->points, BlPerfettoPoint, 0).ts;
              found = TRUE;
            }
        }
      if (extra->instants != NULL && extra->instants->len > 0 &&
          g_array_index (extra->instants, BlPerfettoInstant, 0).ts < best)
        {
          best = g_array_index (extra->instants, BlPerfettoInstant, 0).ts;
          found = TRUE;
        }
    }

  *first = best;

  return found;
}

gboolean
bl_recording_compute_offset (BlRecordingStream  stream,
                             gint64             start_unix_us,
                             gint64             first_byte_us,
                             GObject           *model,
                             gint64            *offset_us)
{
  guint64 first_ns;

  g_return_val_if_fail (stream < BL_RECORDING_N_STREAMS, FALSE);
  g_return_val_if_fail (offset_us != NULL, FALSE);

  switch (stream)
    {
    case BL_RECORDING_STREAM_SESSION:
      /* stamped by the host's clock */
      if (start_unix_us == 0)
        return FALSE;
      *offset_us = -start_unix_us;
      return TRUE;

    case BL_RECORDING_STREAM_PROFILE:
      /* the device's clock, taken to be the host's */
      if (start_unix_us == 0 || !BL_IS_PROFILE (model) ||
          bl_profile_get_info (BL_PROFILE (model))->start_ms == 0)
        return FALSE;
      *offset_us = -start_unix_us;
      return TRUE;

    case BL_RECORDING_STREAM_TRACE:
      /* the first packet was made when its bytes arrived */
      if (first_byte_us < 0 || !BL_IS_PROFILE (model) ||
          !trace_first_time (BL_PROFILE (model), &first_ns) ||
          first_ns / 1000 > (guint64) G_MAXINT64 / 2)
        return FALSE;
      *offset_us = first_byte_us - (gint64) (first_ns / 1000);
      return TRUE;

    case BL_RECORDING_N_STREAMS:
    default:
      g_return_val_if_reached (FALSE);
    }
}

/* ---- the object ---------------------------------------------------------- */

static void
bl_recording_finalize (GObject *object)
{
  BlRecording *self = BL_RECORDING (object);
  BlRecordingInfo *info = &self->info;

  g_clear_object (&self->folder);
  g_free (info->device_name);
  g_free (info->device_model);
  g_free (info->device_os_version);
  g_free (info->device_serial);
  g_free (info->app_id);
  g_free (info->app_name);
  g_free (info->app_version);
  g_free (info->start_time);
  g_free (info->end_message);
  g_clear_pointer (&self->marks, g_array_unref);
  g_clear_pointer (&self->text_chunk, g_string_chunk_free);
  if (self->warning != NULL)
    g_string_free (self->warning, TRUE);
  for (guint i = 0; i < BL_RECORDING_N_STREAMS; i++)
    g_free (self->streams[i].error);
  g_clear_object (&self->profile);
  g_clear_object (&self->session);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (bl_recording_parent_class)->finalize (object);
}

static void
bl_recording_class_init (BlRecordingClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = bl_recording_finalize;
}

static void
bl_recording_init (BlRecording *self)
{
  self->marks = g_array_new (FALSE, FALSE, sizeof (BlRecordingMark));
  self->text_chunk = g_string_chunk_new (256);
  for (guint i = 0; i < BL_RECORDING_N_STREAMS; i++)
    self->streams[i].first_byte_us = -1;
}

static void
add_warning (BlRecording *self,
             const char  *text)
{
  if (self->warning == NULL)
    self->warning = g_string_new (NULL);
  else
    g_string_append_c (self->warning, '\n');
  g_string_append (self->warning, text);
}

/* ---- the manifest -------------------------------------------------------- */

static gboolean
type_error (GError    **error,
            const char *path,
            const char *what)
{
  /* Translators: the first %s is a member of the manifest ("device.name"),
   * the second what it must be ("a string") */
  g_set_error (error, BL_RECORDING_ERROR, BL_RECORDING_ERROR_TYPE,
               _("The recording's manifest is damaged: “%s” must be %s."), path, what);

  return FALSE;
}

/* An optional string member: absent or null leaves *out NULL. */
static gboolean
get_string (JsonObject  *object,
            const char  *name,
            const char  *path,
            char       **out,
            GError     **error)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return type_error (error, path, _("a string"));

  g_free (*out);
  *out = g_utf8_make_valid (json_node_get_string (node), -1);

  return TRUE;
}

/* An optional integer member within [min, max]; absent or null leaves
 * *out alone. */
static gboolean
get_int (JsonObject  *object,
         const char  *name,
         const char  *path,
         gint64       min,
         gint64       max,
         gint64      *out,
         GError     **error)
{
  JsonNode *node = json_object_get_member (object, name);
  gint64 value;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return type_error (error, path, _("a whole number"));

  value = json_node_get_int (node);
  if (value < min || value > max)
    return type_error (error, path, _("a whole number in range"));
  *out = value;

  return TRUE;
}

static gboolean
get_bool (JsonObject  *object,
          const char  *name,
          const char  *path,
          gboolean    *out,
          GError     **error)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return type_error (error, path, _("true or false"));
  *out = json_node_get_boolean (node);

  return TRUE;
}

/* An optional object member: NULL when absent or null. */
static gboolean
get_object (JsonObject  *object,
            const char  *name,
            const char  *path,
            JsonObject **out,
            GError     **error)
{
  JsonNode *node = json_object_get_member (object, name);

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return type_error (error, path, _("an object"));
  *out = json_node_get_object (node);

  return TRUE;
}

static gint
find_name (const char *const *names,
           guint               n,
           const char         *name)
{
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (names[i], name) == 0)
      return i;

  return -1;
}

static gboolean
parse_streams (BlRecording *self,
               JsonObject  *streams,
               GError     **error)
{
  for (guint s = 0; s < BL_RECORDING_N_STREAMS; s++)
    {
      g_autofree char *path = g_strconcat ("streams.", stream_names[s], NULL);
      g_autofree char *file_path = g_strconcat (path, ".file", NULL);
      g_autofree char *recorded_path = g_strconcat (path, ".recorded", NULL);
      g_autofree char *first_path = g_strconcat (path, ".first_byte_us", NULL);
      g_autofree char *note_path = g_strconcat (path, ".note", NULL);
      g_autofree char *file = NULL;
      g_autofree char *note = NULL;
      StreamState *state = &self->streams[s];
      JsonObject *stream;
      gboolean recorded = TRUE;

      if (!get_object (streams, stream_names[s], path, &stream, error))
        return FALSE;
      if (stream == NULL)
        continue;

      if (!get_bool (stream, "recorded", recorded_path, &recorded, error) ||
          !get_string (stream, "file", file_path, &file, error) ||
          !get_string (stream, "note", note_path, &note, error) ||
          !get_int (stream, "first_byte_us", first_path, -1, TIME_MAX, &state->first_byte_us,
                    error))
        return FALSE;

      if (file != NULL && strcmp (file, stream_files[s]) != 0)
        {
          g_autofree char *warning =
            g_strdup_printf (_("The manifest names “%s” for the %s stream; only “%s” in "
                               "the recording's folder is read."),
                             file, stream_names[s], stream_files[s]);

          add_warning (self, warning);
        }

      state->recorded = recorded;
      if (!recorded)
        state->error = note != NULL
                         ? g_strdup (note)
                         : g_strdup_printf (_("The %s stream was not recorded."),
                                            stream_names[s]);
    }

  return TRUE;
}

static gint
compare_marks (gconstpointer a,
               gconstpointer b)
{
  const BlRecordingMark *ma = a;
  const BlRecordingMark *mb = b;

  return (ma->time_us > mb->time_us) - (ma->time_us < mb->time_us);
}

static gboolean
parse_marks (BlRecording *self,
             JsonArray   *marks,
             GError     **error)
{
  guint skipped = 0;

  for (guint i = 0; i < json_array_get_length (marks); i++)
    {
      JsonNode *node = json_array_get_element (marks, i);
      g_autofree char *path = g_strdup_printf ("marks[%u]", i);
      g_autofree char *kind_path = g_strconcat (path, ".kind", NULL);
      g_autofree char *time_path = g_strconcat (path, ".time_us", NULL);
      g_autofree char *text_path = g_strconcat (path, ".text", NULL);
      g_autofree char *kind = NULL;
      g_autofree char *text = NULL;
      BlRecordingMark mark = { 0, };
      JsonObject *object;
      gint index;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return type_error (error, path, _("an object"));
      object = json_node_get_object (node);

      mark.time_us = G_MININT64;
      if (!get_string (object, "kind", kind_path, &kind, error) ||
          !get_string (object, "text", text_path, &text, error) ||
          !get_int (object, "time_us", time_path, -TIME_MAX, TIME_MAX, &mark.time_us, error))
        return FALSE;
      if (mark.time_us == G_MININT64)
        return type_error (error, time_path, _("a whole number"));

      index = kind != NULL ? find_name (mark_names, G_N_ELEMENTS (mark_names), kind) : -1;
      if (index < 0)
        {
          skipped++;
          continue;
        }
      mark.kind = index;
      mark.text = g_string_chunk_insert (self->text_chunk, text != NULL ? text : "");
      g_array_append_val (self->marks, mark);
    }

  if (skipped > 0)
    {
      g_autofree char *warning =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%u mark of an unknown kind was skipped.",
                                      "%u marks of unknown kinds were skipped.", skipped),
                         skipped);

      add_warning (self, warning);
    }

  g_array_sort (self->marks, compare_marks);

  return TRUE;
}

static gboolean
parse_manifest (BlRecording  *self,
                const char   *data,
                gsize         len,
                GError      **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) json_error = NULL;
  g_autofree char *format = NULL;
  g_autofree char *state = NULL;
  BlRecordingInfo *info = &self->info;
  JsonObject *root, *device, *app, *streams;
  JsonNode *node;
  gint64 version = 0;
  gint end;

  if (len > MANIFEST_MAX)
    {
      g_set_error_literal (error, BL_RECORDING_ERROR, BL_RECORDING_ERROR_TOO_BIG,
                           _("The recording's manifest is larger than 1 MiB; Brightlens "
                             "writes manifests of a few KiB."));
      return FALSE;
    }

  if (!json_parser_load_from_data (parser, data, len, &json_error))
    {
      g_set_error (error, BL_RECORDING_ERROR, BL_RECORDING_ERROR_SYNTAX,
                   _("The recording's manifest is not valid JSON: %s."), json_error->message);
      return FALSE;
    }

  node = json_parser_get_root (parser);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node) ||
      !get_string (json_node_get_object (node), "format", "format", &format, NULL) ||
      g_strcmp0 (format, BL_RECORDING_FORMAT_ID) != 0)
    {
      g_set_error_literal (error, BL_RECORDING_ERROR, BL_RECORDING_ERROR_NOT_RECORDING,
                           _("This JSON file is not the manifest of a Brightlens recording: "
                             "its “format” is not “brightlens-recording”."));
      return FALSE;
    }
  root = json_node_get_object (node);

  if (!get_int (root, "version", "version", 1, G_MAXINT32, &version, error))
    return FALSE;
  if (version == 0)
    return type_error (error, "version", _("a whole number"));
  if (version > BL_RECORDING_VERSION)
    {
      g_set_error (error, BL_RECORDING_ERROR, BL_RECORDING_ERROR_VERSION,
                   _("This recording was saved by a newer Brightlens (manifest version "
                     "%" PRId64 "); this version reads version %d."),
                   version, BL_RECORDING_VERSION);
      return FALSE;
    }
  info->version = (guint) version;

  if (!get_object (root, "device", "device", &device, error) ||
      !get_object (root, "app", "app", &app, error) ||
      !get_object (root, "streams", "streams", &streams, error))
    return FALSE;

  if (device != NULL &&
      (!get_string (device, "name", "device.name", &info->device_name, error) ||
       !get_string (device, "model", "device.model", &info->device_model, error) ||
       !get_string (device, "os_version", "device.os_version", &info->device_os_version,
                    error) ||
       !get_string (device, "serial", "device.serial", &info->device_serial, error)))
    return FALSE;

  if (app != NULL &&
      (!get_string (app, "id", "app.id", &info->app_id, error) ||
       !get_string (app, "name", "app.name", &info->app_name, error) ||
       !get_string (app, "version", "app.version", &info->app_version, error)))
    return FALSE;

  if (!get_string (root, "start_time", "start_time", &info->start_time, error) ||
      !get_int (root, "duration_us", "duration_us", 0, TIME_MAX, &info->duration_us, error) ||
      !get_string (root, "state", "state", &state, error) ||
      !get_string (root, "message", "message", &info->end_message, error))
    return FALSE;

  if (info->start_time != NULL)
    {
      g_autoptr(GDateTime) start = g_date_time_new_from_iso8601 (info->start_time, NULL);

      if (start == NULL)
        return type_error (error, "start_time", _("a date and time in ISO 8601 form"));
      info->start_unix_us = g_date_time_to_unix (start) * G_USEC_PER_SEC +
                            g_date_time_get_microsecond (start);
    }

  end = state != NULL ? find_name (end_names, G_N_ELEMENTS (end_names), state) : 0;
  if (end < 0)
    {
      g_autofree char *warning =
        g_strdup_printf (_("The manifest gives the unknown state “%s”; the recording is "
                           "shown as not finished."), state);

      add_warning (self, warning);
      end = BL_RECORDING_END_RECORDING;
    }
  info->end = end;

  if (streams != NULL && !parse_streams (self, streams, error))
    return FALSE;

  node = json_object_get_member (root, "marks");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      if (!JSON_NODE_HOLDS_ARRAY (node))
        return type_error (error, "marks", _("an array"));
      if (!parse_marks (self, json_node_get_array (node), error))
        return FALSE;
    }

  return TRUE;
}

gboolean
bl_recording_detect (const guint8 *head,
                     gsize         len)
{
  g_autofree char *needle = NULL;
  gsize i = 0;

  /* a JSON object whose "format" member is ours, near the start */
  while (i < len && g_ascii_isspace (head[i]))
    i++;
  if (i >= len || head[i] != '{')
    return FALSE;

  needle = g_strdup ("\"" BL_RECORDING_FORMAT_ID "\"");

  return g_strstr_len ((const char *) head, MIN (len, 4096), needle) != NULL &&
         g_strstr_len ((const char *) head, MIN (len, 4096), "\"format\"") != NULL;
}

gboolean
bl_recording_is_recording (GFile        *file,
                           GCancellable *cancellable)
{
  g_autoptr(GFileInputStream) input = NULL;
  g_autofree char *name = NULL;
  guint8 head[4096];
  gsize len = 0;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  switch (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, cancellable))
    {
    case G_FILE_TYPE_DIRECTORY:
      {
        g_autoptr(GFile) manifest = g_file_get_child (file, BL_RECORDING_MANIFEST_NAME);

        return g_file_query_file_type (manifest, G_FILE_QUERY_INFO_NONE, cancellable) ==
               G_FILE_TYPE_REGULAR;
      }
    case G_FILE_TYPE_REGULAR:
      break;
    default:
      return FALSE;
    }

  name = g_file_get_basename (file);
  if (name == NULL || !g_str_has_suffix (name, ".json"))
    return FALSE;
  if (!(input = g_file_read (file, cancellable, NULL)) ||
      !g_input_stream_read_all (G_INPUT_STREAM (input), head, sizeof head, &len, cancellable,
                                NULL))
    return FALSE;

  return bl_recording_detect (head, len);
}

BlRecording *
bl_recording_load_manifest_memory (const guint8  *data,
                                   gsize          len,
                                   GError       **error)
{
  g_autoptr(BlRecording) self = g_object_new (BL_TYPE_RECORDING, NULL);

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  if (!parse_manifest (self, (const char *) data, len, error))
    return NULL;

  return g_steal_pointer (&self);
}

/* ---- the streams --------------------------------------------------------- */

/* Reads the fixed file of @stream, if it is a regular file in the folder. */
static GObject *
load_stream (BlRecording        *self,
             BlRecordingStream   stream,
             GCancellable       *cancellable,
             char              **reason)
{
  g_autoptr(GFile) file = g_file_get_child (self->folder, stream_files[stream]);
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GFileInputStream) input = NULL;
  g_autoptr(GError) error = NULL;
  GObject *model = NULL;
  guint64 size;

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                            G_FILE_ATTRIBUTE_STANDARD_SIZE,
                            G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, cancellable, &error);
  if (info == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        *reason = g_strdup_printf (_("%s is missing from the recording's folder."),
                                   stream_files[stream]);
      else
        *reason = g_strdup_printf (_("%s could not be read: %s."), stream_files[stream],
                                   error->message);
      return NULL;
    }
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      *reason = g_strdup_printf (_("%s is not a regular file, so it was not read."),
                                 stream_files[stream]);
      return NULL;
    }
  size = g_file_info_get_size (info);

  input = g_file_read (file, cancellable, &error);
  if (input != NULL)
    {
      switch (stream)
        {
        case BL_RECORDING_STREAM_PROFILE:
          model = (GObject *) bl_bsprof_read_stream (G_INPUT_STREAM (input), size, NULL, NULL,
                                                     cancellable, NULL, &error);
          break;
        case BL_RECORDING_STREAM_SESSION:
          model = (GObject *) bl_rrm_read_stream (G_INPUT_STREAM (input), size, NULL, NULL,
                                                  cancellable, &error);
          break;
        case BL_RECORDING_STREAM_TRACE:
          model = (GObject *) bl_perfetto_read_stream (G_INPUT_STREAM (input), size, NULL,
                                                       NULL, cancellable, &error);
          break;
        case BL_RECORDING_N_STREAMS:
        default:
          g_assert_not_reached ();
        }
    }

  if (model == NULL)
    {
      /* the file's name, then the reader's sentence */
      *reason = g_strdup_printf ("%s: %s", stream_files[stream], error->message);
    }

  return model;
}

/* The folder and manifest of @file: a folder, or its recording.json. */
static gboolean
locate (GFile         *file,
        GCancellable  *cancellable,
        GFile        **folder,
        GFile        **manifest,
        GError       **error)
{
  GFileType type = g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, cancellable);

  if (type == G_FILE_TYPE_DIRECTORY)
    {
      *folder = g_object_ref (file);
      *manifest = g_file_get_child (file, BL_RECORDING_MANIFEST_NAME);
      if (g_file_query_file_type (*manifest, G_FILE_QUERY_INFO_NONE, cancellable) !=
          G_FILE_TYPE_REGULAR)
        {
          g_autofree char *name = g_file_get_parse_name (file);

          g_clear_object (folder);
          g_clear_object (manifest);
          g_set_error (error, BL_RECORDING_ERROR, BL_RECORDING_ERROR_NO_MANIFEST,
                       _("The folder %s is not a Brightlens recording: it has no "
                         "recording.json."), name);
          return FALSE;
        }
      return TRUE;
    }

  *folder = g_file_get_parent (file);
  if (*folder == NULL)
    {
      g_set_error_literal (error, BL_RECORDING_ERROR, BL_RECORDING_ERROR_NO_MANIFEST,
                           _("A recording's manifest must be a file inside its folder."));
      return FALSE;
    }
  *manifest = g_object_ref (file);

  return TRUE;
}

BlRecording *
bl_recording_load (GFile         *file,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autoptr(BlRecording) self = NULL;
  g_autoptr(GFile) folder = NULL;
  g_autoptr(GFile) manifest = NULL;
  g_autoptr(GFileInputStream) input = NULL;
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  guint8 buffer[16384];
  gssize n;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  if (!locate (file, cancellable, &folder, &manifest, error))
    return NULL;

  /* the manifest, read whole up to one byte past the limit */
  if (!(input = g_file_read (manifest, cancellable, error)))
    return NULL;
  while ((n = g_input_stream_read (G_INPUT_STREAM (input), buffer, sizeof buffer, cancellable,
                                   error)) > 0)
    {
      g_byte_array_append (bytes, buffer, n);
      if (bytes->len > MANIFEST_MAX)
        break;
    }
  if (n < 0)
    return NULL;

  self = g_object_new (BL_TYPE_RECORDING, NULL);
  if (!parse_manifest (self, (const char *) bytes->data, bytes->len, error))
    return NULL;
  self->folder = g_steal_pointer (&folder);

  for (guint s = 0; s < BL_RECORDING_N_STREAMS; s++)
    {
      StreamState *state = &self->streams[s];
      g_autofree char *reason = NULL;
      GObject *model;

      if (!state->recorded)
        continue;

      model = load_stream (self, s, cancellable, &reason);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          g_clear_object (&model);
          return NULL;
        }
      if (model == NULL)
        {
          state->error = g_steal_pointer (&reason);
          continue;
        }

      if (s == BL_RECORDING_STREAM_PROFILE)
        self->profile = BL_PROFILE (model);
      else if (s == BL_RECORDING_STREAM_SESSION)
        self->session = BL_SESSION (model);
      else
        self->trace = BL_PROFILE (model);

      state->has_offset = bl_recording_compute_offset (s, self->info.start_unix_us,
                                                       state->first_byte_us, model,
                                                       &state->offset_us);
    }

  return g_steal_pointer (&self);
}

/* ---- getters ------------------------------------------------------------- */

GFile *
bl_recording_get_folder (BlRecording *self)
{
  g_return_val_if_fail (BL_IS_RECORDING (self), NULL);

  return self->folder;
}

const BlRecordingInfo *
bl_recording_get_info (BlRecording *self)
{
  g_return_val_if_fail (BL_IS_RECORDING (self), NULL);

  return &self->info;
}

const BlRecordingMark *
bl_recording_get_marks (BlRecording *self,
                        guint       *n_marks)
{
  g_return_val_if_fail (BL_IS_RECORDING (self), NULL);

  if (n_marks != NULL)
    *n_marks = self->marks->len;

  return (const BlRecordingMark *) (gpointer) self->marks->data;
}

const char *
bl_recording_get_warning (BlRecording *self)
{
  g_return_val_if_fail (BL_IS_RECORDING (self), NULL);

  return self->warning != NULL ? self->warning->str : NULL;
}

gboolean
bl_recording_has_stream (BlRecording       *self,
                         BlRecordingStream  stream)
{
  g_return_val_if_fail (BL_IS_RECORDING (self), FALSE);
  g_return_val_if_fail (stream < BL_RECORDING_N_STREAMS, FALSE);

  return self->streams[stream].recorded;
}

const char *
bl_recording_get_stream_error (BlRecording       *self,
                               BlRecordingStream  stream)
{
  g_return_val_if_fail (BL_IS_RECORDING (self), NULL);
  g_return_val_if_fail (stream < BL_RECORDING_N_STREAMS, NULL);

  return self->streams[stream].error;
}

gint64
bl_recording_get_stream_first_byte (BlRecording       *self,
                                    BlRecordingStream  stream)
{
  g_return_val_if_fail (BL_IS_RECORDING (self), -1);
  g_return_val_if_fail (stream < BL_RECORDING_N_STREAMS, -1);

  return self->streams[stream].first_byte_us;
}

gboolean
bl_recording_get_stream_offset (BlRecording       *self,
                                BlRecordingStream  stream,
                                gint64            *offset_us)
{
  g_return_val_if_fail (BL_IS_RECORDING (self), FALSE);
  g_return_val_if_fail (stream < BL_RECORDING_N_STREAMS, FALSE);

  if (offset_us != NULL)
    *offset_us = self->streams[stream].offset_us;

  return self->streams[stream].has_offset;
}

GFile *
bl_recording_dup_stream_file (BlRecording       *self,
                              BlRecordingStream  stream)
{
  g_return_val_if_fail (BL_IS_RECORDING (self), NULL);
  g_return_val_if_fail (stream < BL_RECORDING_N_STREAMS, NULL);

  if (self->folder == NULL)
    return NULL;

  return g_file_get_child (self->folder, stream_files[stream]);
}

BlProfile *
bl_recording_get_profile (BlRecording *self)
{
  g_return_val_if_fail (BL_IS_RECORDING (self), NULL);

  return self->profile;
}

BlSession *
bl_recording_get_session (BlRecording *self)
{
  g_return_val_if_fail (BL_IS_RECORDING (self), NULL);

  return self->session;
}

BlProfile *
bl_recording_get_trace (BlRecording *self)
{
  g_return_val_if_fail (BL_IS_RECORDING (self), NULL);

  return self->trace;
}
