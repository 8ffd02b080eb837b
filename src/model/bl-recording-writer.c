/* bl-recording-writer.c — writes a recording's manifest while it records
 *
 * The whole manifest is made again from the writer's fields at every
 * change and put in place with g_file_set_contents_full(): a temporary
 * file in the folder, synced, renamed over recording.json. A reader sees
 * the old manifest or the new one, never half of one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-recording"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "bl-json-text.h"
#include "bl-recording-writer.h"

typedef struct
{
  gboolean  recorded;
  char     *note;
  gint64    first_byte_us;   /* on the axis, -1: none yet */
} WriterStream;

typedef struct
{
  gint64               time_us;
  BlRecordingMarkKind  kind;
  char                *text;
} WriterMark;

struct _BlRecordingWriter
{
  GObject         parent_instance;

  GFile          *folder;
  char           *device[4];   /* name, model, OS version, serial */
  char           *app[3];      /* id, name, version */
  WriterStream    streams[BL_RECORDING_N_STREAMS];
  GArray         *marks;       /* WriterMark */

  gboolean        started;
  gint64          start_real_us;
  gint64          start_monotonic_us;
  char           *start_time;
  gint64          duration_us;
  BlRecordingEnd  end;
  char           *end_message;
};

G_DEFINE_FINAL_TYPE (BlRecordingWriter, bl_recording_writer, G_TYPE_OBJECT)

static void
clear_mark (gpointer data)
{
  WriterMark *mark = data;

  g_free (mark->text);
}

static void
bl_recording_writer_finalize (GObject *object)
{
  BlRecordingWriter *self = BL_RECORDING_WRITER (object);

  g_clear_object (&self->folder);
  for (guint i = 0; i < G_N_ELEMENTS (self->device); i++)
    g_free (self->device[i]);
  for (guint i = 0; i < G_N_ELEMENTS (self->app); i++)
    g_free (self->app[i]);
  for (guint i = 0; i < BL_RECORDING_N_STREAMS; i++)
    g_free (self->streams[i].note);
  g_clear_pointer (&self->marks, g_array_unref);
  g_free (self->start_time);
  g_free (self->end_message);

  G_OBJECT_CLASS (bl_recording_writer_parent_class)->finalize (object);
}

static void
bl_recording_writer_class_init (BlRecordingWriterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = bl_recording_writer_finalize;
}

static void
bl_recording_writer_init (BlRecordingWriter *self)
{
  self->marks = g_array_new (FALSE, FALSE, sizeof (WriterMark));
  g_array_set_clear_func (self->marks, clear_mark);
  for (guint i = 0; i < BL_RECORDING_N_STREAMS; i++)
    self->streams[i].first_byte_us = -1;
  self->end = BL_RECORDING_END_RECORDING;
}

BlRecordingWriter *
bl_recording_writer_new (GFile *folder)
{
  BlRecordingWriter *self;

  g_return_val_if_fail (G_IS_FILE (folder), NULL);

  self = g_object_new (BL_TYPE_RECORDING_WRITER, NULL);
  self->folder = g_object_ref (folder);

  return self;
}

GFile *
bl_recording_writer_get_folder (BlRecordingWriter *self)
{
  g_return_val_if_fail (BL_IS_RECORDING_WRITER (self), NULL);

  return self->folder;
}

GFile *
bl_recording_writer_dup_stream_file (BlRecordingWriter *self,
                                     BlRecordingStream  stream)
{
  g_return_val_if_fail (BL_IS_RECORDING_WRITER (self), NULL);
  g_return_val_if_fail (stream < BL_RECORDING_N_STREAMS, NULL);

  return g_file_get_child (self->folder, bl_recording_stream_get_file_name (stream));
}

static void
set_text (char       **field,
          const char  *value)
{
  g_free (*field);
  *field = value != NULL ? g_utf8_make_valid (value, -1) : NULL;
}

void
bl_recording_writer_set_device (BlRecordingWriter *self,
                                const char        *name,
                                const char        *model,
                                const char        *os_version,
                                const char        *serial)
{
  g_return_if_fail (BL_IS_RECORDING_WRITER (self));

  set_text (&self->device[0], name);
  set_text (&self->device[1], model);
  set_text (&self->device[2], os_version);
  set_text (&self->device[3], serial);
}

void
bl_recording_writer_set_app (BlRecordingWriter *self,
                             const char        *id,
                             const char        *name,
                             const char        *version)
{
  g_return_if_fail (BL_IS_RECORDING_WRITER (self));

  set_text (&self->app[0], id);
  set_text (&self->app[1], name);
  set_text (&self->app[2], version);
}

void
bl_recording_writer_set_stream (BlRecordingWriter *self,
                                BlRecordingStream  stream,
                                gboolean           recorded,
                                const char        *reason)
{
  g_return_if_fail (BL_IS_RECORDING_WRITER (self));
  g_return_if_fail (stream < BL_RECORDING_N_STREAMS);

  self->streams[stream].recorded = recorded;
  set_text (&self->streams[stream].note, recorded ? NULL : reason);
}

/* ---- the document -------------------------------------------------------- */

static char *
build_manifest (BlRecordingWriter *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  bl_json_add_string (builder, "format", BL_RECORDING_FORMAT_ID);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, BL_RECORDING_VERSION);
  bl_json_add_string (builder, "state", bl_recording_end_get_name (self->end));
  bl_json_add_string (builder, "message", self->end_message);
  bl_json_add_string (builder, "start_time", self->start_time);
  json_builder_set_member_name (builder, "duration_us");
  json_builder_add_int_value (builder, self->duration_us);

  json_builder_set_member_name (builder, "device");
  json_builder_begin_object (builder);
  bl_json_add_string (builder, "name", self->device[0]);
  bl_json_add_string (builder, "model", self->device[1]);
  bl_json_add_string (builder, "os_version", self->device[2]);
  bl_json_add_string (builder, "serial", self->device[3]);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "app");
  json_builder_begin_object (builder);
  bl_json_add_string (builder, "id", self->app[0]);
  bl_json_add_string (builder, "name", self->app[1]);
  bl_json_add_string (builder, "version", self->app[2]);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "streams");
  json_builder_begin_object (builder);
  for (guint s = 0; s < BL_RECORDING_N_STREAMS; s++)
    {
      const WriterStream *stream = &self->streams[s];

      json_builder_set_member_name (builder, bl_recording_stream_get_name (s));
      json_builder_begin_object (builder);
      bl_json_add_string (builder, "file", bl_recording_stream_get_file_name (s));
      json_builder_set_member_name (builder, "recorded");
      json_builder_add_boolean_value (builder, stream->recorded);
      if (stream->note != NULL)
        bl_json_add_string (builder, "note", stream->note);
      json_builder_set_member_name (builder, "first_byte_us");
      if (stream->first_byte_us >= 0)
        json_builder_add_int_value (builder, stream->first_byte_us);
      else
        json_builder_add_null_value (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "marks");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->marks->len; i++)
    {
      const WriterMark *mark = &g_array_index (self->marks, WriterMark, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "time_us");
      json_builder_add_int_value (builder, mark->time_us);
      bl_json_add_string (builder, "kind", bl_recording_mark_kind_get_name (mark->kind));
      bl_json_add_string (builder, "text", mark->text != NULL ? mark->text : "");
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_end_object (builder);

  root = json_builder_get_root (builder);

  return bl_json_to_text (root, NULL);
}

char *
bl_recording_writer_dup_manifest (BlRecordingWriter *self)
{
  g_return_val_if_fail (BL_IS_RECORDING_WRITER (self), NULL);

  return build_manifest (self);
}

/* Replaces recording.json atomically. */
static gboolean
rewrite (BlRecordingWriter  *self,
         GError            **error)
{
  g_autoptr(GFile) file = g_file_get_child (self->folder, BL_RECORDING_MANIFEST_NAME);
  g_autofree char *text = build_manifest (self);
  g_autoptr(GError) local_error = NULL;
  const char *path = g_file_peek_path (file);

  if (path == NULL)
    {
      g_autofree char *name = g_file_get_parse_name (self->folder);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("Could not write the recording's manifest in %s: only local folders "
                     "can hold a recording."), name);
      return FALSE;
    }

  if (!g_file_set_contents_full (path, text, -1,
                                 G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                 0644, &local_error))
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_file_error (local_error->code),
                   _("Could not write the recording's manifest %s: %s."), path,
                   local_error->message);
      return FALSE;
    }

  return TRUE;
}

gboolean
bl_recording_writer_start (BlRecordingWriter  *self,
                           GError            **error)
{
  g_autoptr(GDateTime) whole = NULL;
  g_autoptr(GDateTime) exact = NULL;
  const char *path;

  g_return_val_if_fail (BL_IS_RECORDING_WRITER (self), FALSE);
  g_return_val_if_fail (!self->started, FALSE);

  path = g_file_peek_path (self->folder);
  if (path != NULL && g_mkdir_with_parents (path, 0755) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Could not create the recording's folder %s: %s."), path,
                   g_strerror (saved));
      return FALSE;
    }

  self->start_monotonic_us = g_get_monotonic_time ();
  self->start_real_us = g_get_real_time ();
  whole = g_date_time_new_from_unix_utc (self->start_real_us / G_USEC_PER_SEC);
  exact = g_date_time_add (whole, self->start_real_us % G_USEC_PER_SEC);
  g_free (self->start_time);
  self->start_time = g_date_time_format_iso8601 (exact);
  self->started = TRUE;

  return rewrite (self, error);
}

gint64
bl_recording_writer_get_start_unix_us (BlRecordingWriter *self)
{
  g_return_val_if_fail (BL_IS_RECORDING_WRITER (self), 0);

  return self->started ? self->start_real_us : 0;
}

gint64
bl_recording_writer_monotonic_to_axis (BlRecordingWriter *self,
                                       gint64             monotonic_us)
{
  g_return_val_if_fail (BL_IS_RECORDING_WRITER (self), 0);

  return monotonic_us - self->start_monotonic_us;
}

gint64
bl_recording_writer_real_to_axis (BlRecordingWriter *self,
                                  gint64             real_us)
{
  g_return_val_if_fail (BL_IS_RECORDING_WRITER (self), 0);

  return real_us - self->start_real_us;
}

gboolean
bl_recording_writer_stream_started (BlRecordingWriter  *self,
                                    BlRecordingStream   stream,
                                    gint64              monotonic_us,
                                    GError            **error)
{
  WriterStream *state;

  g_return_val_if_fail (BL_IS_RECORDING_WRITER (self), FALSE);
  g_return_val_if_fail (stream < BL_RECORDING_N_STREAMS, FALSE);
  g_return_val_if_fail (self->started, FALSE);

  state = &self->streams[stream];
  if (state->first_byte_us >= 0)
    return TRUE;
  state->first_byte_us = MAX (0, monotonic_us - self->start_monotonic_us);

  return rewrite (self, error);
}

gboolean
bl_recording_writer_add_mark (BlRecordingWriter    *self,
                              BlRecordingMarkKind   kind,
                              gint64                time_us,
                              const char           *text,
                              GError              **error)
{
  WriterMark mark = { time_us, kind, NULL };

  g_return_val_if_fail (BL_IS_RECORDING_WRITER (self), FALSE);
  g_return_val_if_fail (kind < BL_RECORDING_N_MARK_KINDS, FALSE);
  g_return_val_if_fail (self->started, FALSE);

  mark.text = text != NULL ? g_utf8_make_valid (text, -1) : NULL;
  g_array_append_val (self->marks, mark);
  self->duration_us = MAX (self->duration_us,
                           g_get_monotonic_time () - self->start_monotonic_us);

  return rewrite (self, error);
}

gboolean
bl_recording_writer_finish (BlRecordingWriter  *self,
                            BlRecordingEnd      end,
                            const char         *message,
                            GError            **error)
{
  g_return_val_if_fail (BL_IS_RECORDING_WRITER (self), FALSE);
  g_return_val_if_fail (end != BL_RECORDING_END_RECORDING, FALSE);
  g_return_val_if_fail (end <= BL_RECORDING_END_DEVICE_LOST, FALSE);
  g_return_val_if_fail (self->started, FALSE);

  self->end = end;
  set_text (&self->end_message, message);
  self->duration_us = MAX (self->duration_us,
                           g_get_monotonic_time () - self->start_monotonic_us);

  return rewrite (self, error);
}
