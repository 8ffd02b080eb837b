/* bl-trace-stream.c — a Perfetto trace of the app, saved as it arrives
 *
 * Roku OS 15.2 and newer trace apps with Perfetto: POST
 * /perfetto/enable/APP on the ECP port answers <perfetto-enable> listing the
 * enabled apps, then the WebSocket ws://HOST:8060/perfetto-session sends
 * the trace as binary messages, which are appended to the output file in
 * order as they arrive (a Perfetto trace is a sequence of packets, so every
 * prefix made of whole messages is a readable trace). POST
 * /perfetto/heapgraph/trigger/APP asks for a heap graph, which then comes
 * down the same socket.
 *
 * The device stops sending when it gets a close frame but never answers
 * it, so stopping sends the close and then waits for the stream to be
 * quiet for a moment (at most a few seconds) before closing the socket.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-capture"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <libsoup/soup.h>

#include "bl-capture-error.h"
#include "bl-ecp-xml.h"
#include "bl-trace-stream.h"

#define QUIET_MS   500
#define CEILING_MS 3000

struct _BlTraceStream
{
  GObject                  parent_instance;

  BlDevice                *device;
  char                    *channel;
  GFile                   *output;
  SoupSession             *session;

  GTask                   *task;       /* the run in progress */
  GCancellable            *io;         /* cancelled by stop or the caller */
  GCancellable            *caller;
  gulong                   caller_id;
  SoupWebsocketConnection *socket;
  GOutputStream           *out;
  GQueue                   pending;    /* GBytes not yet written */
  gboolean                 writing;
  gboolean                 closed;     /* the socket is gone */
  gboolean                 stopping;
  GError                  *error;      /* to return once the writes are done */
  gint64                   last_message_us;
  gint64                   stop_started_us;
  guint                    quiet_id;
  guint64                  bytes_written;
  guint64                  bytes_received;
  gint64                   first_byte_us;  /* g_get_monotonic_time(), 0: none yet */
};

G_DEFINE_FINAL_TYPE (BlTraceStream, bl_trace_stream, G_TYPE_OBJECT)

static void
bl_trace_stream_finalize (GObject *object)
{
  BlTraceStream *self = BL_TRACE_STREAM (object);

  g_clear_handle_id (&self->quiet_id, g_source_remove);
  g_queue_clear_full (&self->pending, (GDestroyNotify) g_bytes_unref);
  g_clear_error (&self->error);
  g_clear_object (&self->socket);
  g_clear_object (&self->out);
  g_clear_object (&self->io);
  g_clear_object (&self->caller);
  g_clear_object (&self->session);
  g_clear_object (&self->device);
  g_clear_object (&self->output);
  g_clear_pointer (&self->channel, g_free);

  G_OBJECT_CLASS (bl_trace_stream_parent_class)->finalize (object);
}

static void
bl_trace_stream_class_init (BlTraceStreamClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = bl_trace_stream_finalize;
}

static void
bl_trace_stream_init (BlTraceStream *self)
{
  self->session = soup_session_new_with_options ("timeout", 0, NULL);
  soup_session_set_proxy_resolver (self->session, NULL);  /* a device on the LAN */
  g_queue_init (&self->pending);
}

/* Traces @channel (NULL: "dev", the sideloaded app) on @device into
 * @output, which is replaced. */
BlTraceStream *
bl_trace_stream_new (BlDevice   *device,
                     const char *channel,
                     GFile      *output)
{
  BlTraceStream *self;

  g_return_val_if_fail (BL_IS_DEVICE (device), NULL);
  g_return_val_if_fail (G_IS_FILE (output), NULL);

  self = g_object_new (BL_TYPE_TRACE_STREAM, NULL);
  self->device = g_object_ref (device);
  self->channel = g_strdup (channel != NULL ? channel : "dev");
  self->output = g_object_ref (output);

  return self;
}

guint64
bl_trace_stream_get_bytes_written (BlTraceStream *self)
{
  g_return_val_if_fail (BL_IS_TRACE_STREAM (self), 0);

  return self->bytes_written;
}

gint64
bl_trace_stream_get_first_byte_time (BlTraceStream *self)
{
  g_return_val_if_fail (BL_IS_TRACE_STREAM (self), 0);

  return self->first_byte_us;
}

/* ---- ending ----------------------------------------------------------- */

static void
finish_run (BlTraceStream *self)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);
  GError *error = g_steal_pointer (&self->error);

  if (task == NULL)
    return;

  g_clear_handle_id (&self->quiet_id, g_source_remove);
  if (self->caller_id != 0)
    g_cancellable_disconnect (self->caller, self->caller_id);
  self->caller_id = 0;
  if (self->socket != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->socket, self);
      g_io_stream_close (soup_websocket_connection_get_io_stream (self->socket), NULL, NULL);
      g_clear_object (&self->socket);
    }
  if (self->out != NULL)
    {
      g_output_stream_close (self->out, NULL, NULL);
      g_clear_object (&self->out);
    }

  if (self->caller != NULL && g_cancellable_is_cancelled (self->caller))
    {
      g_clear_error (&error);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               _("The recording was cancelled."));
    }
  else if (self->stopping && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* stopped before the trace session was open */
      g_clear_error (&error);
      g_task_return_boolean (task, TRUE);
    }
  else if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);

  g_clear_object (&self->caller);
}

/* Ends the run once every message received is on disk; @error (taken) is
 * what it returns, the first one given winning. */
static void
end_run (BlTraceStream *self,
         GError        *error)
{
  if (error != NULL && self->error == NULL)
    self->error = error;
  else if (error != NULL)
    g_error_free (error);

  self->closed = TRUE;
  if (!self->writing)
    finish_run (self);
}

/* ---- writing ---------------------------------------------------------- */

static void write_next (BlTraceStream *self);

static void
written (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(BlTraceStream) self = user_data;
  g_autoptr(GError) error = NULL;
  gsize n = 0;

  /* the message just written */
  g_bytes_unref (g_queue_pop_head (&self->pending));
  self->writing = FALSE;
  if (!g_output_stream_write_all_finish (G_OUTPUT_STREAM (source), result, &n, &error))
    {
      g_queue_clear_full (&self->pending, (GDestroyNotify) g_bytes_unref);
      end_run (self, g_error_new (G_IO_ERROR, error->code,
                                  _("Could not write the trace to %s: %s."),
                                  g_file_peek_path (self->output), error->message));
      return;
    }

  self->bytes_written += n;
  write_next (self);
}

static void
write_next (BlTraceStream *self)
{
  GBytes *bytes = g_queue_peek_head (&self->pending);

  if (bytes == NULL || self->out == NULL)
    {
      if (self->closed)
        finish_run (self);
      return;
    }

  self->writing = TRUE;
  g_output_stream_write_all_async (self->out, g_bytes_get_data (bytes, NULL),
                                   g_bytes_get_size (bytes), G_PRIORITY_DEFAULT, NULL,
                                   written, g_object_ref (self));
}

/* ---- the socket ------------------------------------------------------- */

static void
on_message (SoupWebsocketConnection *socket,
            gint                     type,
            GBytes                  *message,
            gpointer                 user_data)
{
  BlTraceStream *self = user_data;

  /* the trace is binary; text messages are not part of it */
  if (type != SOUP_WEBSOCKET_DATA_BINARY || g_bytes_get_size (message) == 0)
    return;

  self->last_message_us = g_get_monotonic_time ();
  if (self->first_byte_us == 0 && g_bytes_get_size (message) > 0)
    self->first_byte_us = g_get_monotonic_time ();
  self->bytes_received += g_bytes_get_size (message);
  g_queue_push_tail (&self->pending, g_bytes_ref (message));
  if (!self->writing)
    write_next (self);
}

static void
on_closed (SoupWebsocketConnection *socket,
           gpointer                 user_data)
{
  BlTraceStream *self = user_data;
  gushort code = soup_websocket_connection_get_close_code (socket);

  /* a close the device sent (the app ended) or the answer to ours is a
   * clean end; a socket that just went away is the device going away */
  if (self->stopping || code == SOUP_WEBSOCKET_CLOSE_NORMAL
      || code == SOUP_WEBSOCKET_CLOSE_GOING_AWAY)
    end_run (self, NULL);
  else
    end_run (self, g_error_new (BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_DISCONNECTED,
                                _("%s stopped sending the trace after %" PRIu64
                                  " bytes, which are saved: check that the device is "
                                  "still on and on this network."),
                                bl_device_get_display_name (self->device),
                                self->bytes_received));
}

static gboolean
quiet_check (gpointer user_data)
{
  BlTraceStream *self = user_data;
  gint64 now = g_get_monotonic_time ();

  if ((now - self->last_message_us) / 1000 < QUIET_MS
      && (now - self->stop_started_us) / 1000 < CEILING_MS)
    return G_SOURCE_CONTINUE;

  self->quiet_id = 0;
  end_run (self, NULL);
  return G_SOURCE_REMOVE;
}

static void
connected (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(BlTraceStream) self = user_data;
  g_autoptr(GFileOutputStream) out = NULL;
  GError *error = NULL;

  self->socket = soup_session_websocket_connect_finish (SOUP_SESSION (source), result, &error);
  if (self->socket == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        end_run (self, error);
      else
        {
          g_debug ("perfetto-session: %s", error->message);
          g_error_free (error);
          end_run (self, g_error_new (BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_UNREACHABLE,
                                      _("%s did not open its trace session: check that "
                                        "it runs Roku OS 15.2 or newer and that no other "
                                        "tool is tracing it."),
                                      bl_device_get_display_name (self->device)));
        }
      return;
    }
  if (g_cancellable_is_cancelled (self->io))
    {
      end_run (self, NULL);
      return;
    }

  /* no size limit: heap graphs are large */
  soup_websocket_connection_set_max_incoming_payload_size (self->socket, 0);
  soup_websocket_connection_set_keepalive_interval (self->socket, 30);

  /* created in place, so what arrived is in the file at once */
  if (!g_file_delete (self->output, NULL, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        {
          end_run (self, g_error_new (G_IO_ERROR, error->code, _("Could not replace %s: %s."),
                                      g_file_peek_path (self->output), error->message));
          g_error_free (error);
          return;
        }
      g_clear_error (&error);
    }
  out = g_file_create (self->output, G_FILE_CREATE_NONE, NULL, &error);
  if (out == NULL)
    {
      end_run (self, g_error_new (G_IO_ERROR, error->code, _("Could not create %s: %s."),
                                  g_file_peek_path (self->output), error->message));
      g_error_free (error);
      return;
    }
  self->out = G_OUTPUT_STREAM (g_steal_pointer (&out));

  g_signal_connect (self->socket, "message", G_CALLBACK (on_message), self);
  g_signal_connect (self->socket, "closed", G_CALLBACK (on_closed), self);
}

static void
enabled (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(BlTraceStream) self = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GHashTable) answer = NULL;
  g_autoptr(SoupMessage) msg = NULL;
  g_autofree char *uri = NULL;
  GError *error = NULL;
  const char *status;
  const char *channel;

  bytes = bl_device_get_finish (self->device, result, &error);
  if (bytes == NULL)
    {
      if (g_error_matches (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_PROTOCOL))
        {
          g_clear_error (&error);
          error = g_error_new (BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_NOT_PROFILING,
                               _("%s cannot trace apps: update it to Roku OS 15.2 or "
                                 "newer."),
                               bl_device_get_display_name (self->device));
        }
      end_run (self, error);
      return;
    }

  answer = bl_ecp_xml_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                             "perfetto-enable", &error);
  if (answer == NULL)
    {
      end_run (self, error);
      return;
    }
  status = g_hash_table_lookup (answer, "status");
  channel = g_hash_table_lookup (answer, "enabled-channels/channel");
  if (status == NULL || g_ascii_strcasecmp (status, "OK") != 0 || channel == NULL
      || g_ascii_strcasecmp (channel, self->channel) != 0)
    {
      end_run (self, g_error_new (BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_NOT_SIDELOADED,
                                  _("%s did not enable tracing for “%s”: check that the "
                                    "app is installed and record again."),
                                  bl_device_get_display_name (self->device), self->channel));
      return;
    }

  uri = g_strdup_printf ("ws://%s:%u/perfetto-session", bl_device_get_host (self->device),
                         bl_device_get_ecp_port (self->device));
  msg = soup_message_new (SOUP_METHOD_GET, uri);
  soup_session_websocket_connect_async (self->session, msg, NULL, NULL, G_PRIORITY_DEFAULT,
                                        self->io, connected, g_object_ref (self));
}

static void
caller_cancelled (GCancellable *cancellable,
                  gpointer      user_data)
{
  BlTraceStream *self = user_data;

  g_cancellable_cancel (self->io);
}

static gboolean
cancel_idle (gpointer user_data)
{
  BlTraceStream *self = user_data;

  /* once connected nothing is in flight to notice a cancel */
  if (self->task != NULL && self->socket != NULL && !self->closed)
    end_run (self, NULL);
  g_object_unref (self);

  return G_SOURCE_REMOVE;
}

static void
io_cancelled (GCancellable *io,
              gpointer      user_data)
{
  BlTraceStream *self = user_data;

  if (self->stopping)
    return;
  g_idle_add (cancel_idle, g_object_ref (self));
}

/* Enables tracing of the app, then saves the trace until the device ends
 * it (TRUE), bl_trace_stream_stop() (TRUE), @cancellable (cancelled) or the
 * device going away (BL_CAPTURE_ERROR_DISCONNECTED); the file holds every
 * message received in all cases. */
void
bl_trace_stream_run_async (BlTraceStream       *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autofree char *path = NULL;

  g_return_if_fail (BL_IS_TRACE_STREAM (self));
  g_return_if_fail (self->task == NULL);

  self->task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (self->task, bl_trace_stream_run_async);
  self->closed = FALSE;
  self->stopping = FALSE;
  self->bytes_written = 0;
  self->bytes_received = 0;
  self->first_byte_us = 0;
  g_clear_object (&self->io);
  self->io = g_cancellable_new ();
  g_cancellable_connect (self->io, G_CALLBACK (io_cancelled), self, NULL);
  if (cancellable != NULL)
    {
      self->caller = g_object_ref (cancellable);
      self->caller_id = g_cancellable_connect (cancellable, G_CALLBACK (caller_cancelled),
                                               self, NULL);
    }

  path = g_strdup_printf ("/perfetto/enable/%s", self->channel);
  bl_device_post_async (self->device, path, self->io, enabled, g_object_ref (self));
}

gboolean
bl_trace_stream_run_finish (BlTraceStream  *self,
                            GAsyncResult   *result,
                            GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Ends a run cleanly: the device is asked to stop, and what it still sends
 * in the next moments is saved. */
void
bl_trace_stream_stop (BlTraceStream *self)
{
  g_return_if_fail (BL_IS_TRACE_STREAM (self));

  if (self->task == NULL || self->stopping)
    return;

  self->stopping = TRUE;
  if (self->socket == NULL)
    {
      /* still enabling or connecting: abandon that */
      g_cancellable_cancel (self->io);
      return;
    }

  self->stop_started_us = g_get_monotonic_time ();
  if (soup_websocket_connection_get_state (self->socket) == SOUP_WEBSOCKET_STATE_OPEN)
    soup_websocket_connection_close (self->socket, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
  self->quiet_id = g_timeout_add (50, quiet_check, self);
}

/* ---- heap graph ------------------------------------------------------- */

static void
triggered (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;

  bytes = bl_device_get_finish (BL_DEVICE (source), result, &error);
  if (bytes == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/* Asks the device for a heap graph of the app; it arrives in the trace. */
void
bl_trace_stream_heap_graph_async (BlTraceStream       *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autofree char *path = NULL;
  GTask *task;

  g_return_if_fail (BL_IS_TRACE_STREAM (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, bl_trace_stream_heap_graph_async);
  path = g_strdup_printf ("/perfetto/heapgraph/trigger/%s", self->channel);
  bl_device_post_async (self->device, path, cancellable, triggered, task);
}

gboolean
bl_trace_stream_heap_graph_finish (BlTraceStream  *self,
                                   GAsyncResult   *result,
                                   GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
