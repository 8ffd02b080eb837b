/* bl-profile-stream.c — the BrightScript profiler's network stream, saved
 *
 * With bsprof_data_dest=network in its manifest, a sideloaded app serves
 * its profile at http://HOST:8090/bsprof/channel.bsprof while it runs. The
 * body is written to the output file exactly as it arrives, one chunk at a
 * time, so the file is always a valid (possibly truncated) .bsprof that the
 * reader opens as incomplete.
 *
 * The debug console on port 8080 takes bsprof-pause, bsprof-resume and
 * bsprof-status; each command sent is kept as a mark with the time it was
 * sent and the console's reply, for the time axis.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-capture"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <libsoup/soup.h>
#include <string.h>

#include "bl-capture-error.h"
#include "bl-profile-stream.h"

#define CHUNK_SIZE (64 * 1024)

/* how long a console command waits for its reply */
#define CONSOLE_TIMEOUT_S 5

typedef struct
{
  gint64            time_us;
  BlProfileCommand  command;
  char             *reply;
} Mark;

struct _BlProfileStream
{
  GObject        parent_instance;

  BlDevice      *device;
  guint          profiler_port;
  guint          console_port;
  GFile         *output;

  SoupSession   *session;
  GCancellable  *stop;       /* bl_profile_stream_stop() */
  gboolean       running;
  guint64        bytes_written;
  gint64         first_byte_us;  /* g_get_monotonic_time(), 0: none yet */
  GArray        *marks;      /* Mark */
};

enum {
  PROP_0,
  PROP_BYTES_WRITTEN,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (BlProfileStream, bl_profile_stream, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
clear_mark (gpointer data)
{
  Mark *mark = data;

  g_free (mark->reply);
}

static void
bl_profile_stream_finalize (GObject *object)
{
  BlProfileStream *self = BL_PROFILE_STREAM (object);

  g_clear_object (&self->device);
  g_clear_object (&self->output);
  g_clear_object (&self->session);
  g_clear_object (&self->stop);
  g_clear_pointer (&self->marks, g_array_unref);

  G_OBJECT_CLASS (bl_profile_stream_parent_class)->finalize (object);
}

static void
bl_profile_stream_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  BlProfileStream *self = BL_PROFILE_STREAM (object);

  switch (prop_id)
    {
    case PROP_BYTES_WRITTEN:
      g_value_set_uint64 (value, self->bytes_written);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_profile_stream_class_init (BlProfileStreamClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = bl_profile_stream_finalize;
  object_class->get_property = bl_profile_stream_get_property;

  properties[PROP_BYTES_WRITTEN] =
    g_param_spec_uint64 ("bytes-written", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
bl_profile_stream_init (BlProfileStream *self)
{
  /* no I/O timeout: a paused profiler may send nothing for minutes */
  self->session = soup_session_new_with_options ("timeout", 0, NULL);
  soup_session_set_proxy_resolver (self->session, NULL);  /* a device on the LAN */
  self->marks = g_array_new (FALSE, TRUE, sizeof (Mark));
  g_array_set_clear_func (self->marks, clear_mark);
}

/* Streams the profile of the app running on @device into @output (which
 * is replaced). Ports of 0 are the device's defaults. */
BlProfileStream *
bl_profile_stream_new (BlDevice *device,
                       guint     profiler_port,
                       guint     console_port,
                       GFile    *output)
{
  BlProfileStream *self;

  g_return_val_if_fail (BL_IS_DEVICE (device), NULL);
  g_return_val_if_fail (G_IS_FILE (output), NULL);

  self = g_object_new (BL_TYPE_PROFILE_STREAM, NULL);
  self->device = g_object_ref (device);
  self->output = g_object_ref (output);
  self->profiler_port = profiler_port != 0 ? profiler_port : BL_DEVICE_PROFILER_PORT;
  self->console_port = console_port != 0 ? console_port : BL_DEVICE_CONSOLE_PORT;

  return self;
}

GFile *
bl_profile_stream_get_output (BlProfileStream *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_STREAM (self), NULL);

  return self->output;
}

guint64
bl_profile_stream_get_bytes_written (BlProfileStream *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_STREAM (self), 0);

  return self->bytes_written;
}

gint64
bl_profile_stream_get_first_byte_time (BlProfileStream *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_STREAM (self), 0);

  return self->first_byte_us;
}

/* ---- the stream ------------------------------------------------------- */

typedef struct
{
  GInputStream  *input;
  GOutputStream *output;
  GCancellable  *cancellable;  /* the caller's, or NULL */
  gulong         cancelled_id;
} Run;

static void
run_free (gpointer data)
{
  Run *run = data;

  if (run->cancelled_id != 0)
    g_cancellable_disconnect (run->cancellable, run->cancelled_id);
  g_clear_object (&run->cancellable);
  g_clear_object (&run->input);
  g_clear_object (&run->output);
  g_free (run);
}

static void read_next (GTask *task);

/* Ends the run: the output is closed (what was written stays), then the
 * task returns @error, or TRUE when @error is NULL. */
static void
run_return (GTask  *task,
            GError *error)
{
  BlProfileStream *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);

  if (run->output != NULL)
    g_output_stream_close (run->output, NULL, NULL);
  if (run->input != NULL)
    g_input_stream_close (run->input, NULL, NULL);
  self->running = FALSE;

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
  g_object_unref (task);
}

/* An I/O error: a stop asked for is a clean end, the caller's cancel a
 * cancel, anything else the device going away. */
static void
run_failed (GTask  *task,
            GError *error)
{
  BlProfileStream *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);

  if (run->cancellable != NULL && g_cancellable_is_cancelled (run->cancellable))
    {
      g_error_free (error);
      run_return (task, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                             _("The recording was cancelled.")));
    }
  else if (g_cancellable_is_cancelled (self->stop))
    {
      g_error_free (error);
      run_return (task, NULL);
    }
  else
    {
      g_debug ("profile stream: %s", error->message);
      g_error_free (error);
      run_return (task,
                  g_error_new (BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_DISCONNECTED,
                               _("%s stopped sending the profile after %" PRIu64
                                 " bytes, which are saved: check that the device is "
                                 "still on and on this network."),
                               bl_device_get_display_name (self->device),
                               self->bytes_written));
    }
}

static void
write_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  GTask *task = user_data;
  BlProfileStream *self = g_task_get_source_object (task);
  GError *error = NULL;
  gsize written = 0;

  if (!g_output_stream_write_all_finish (G_OUTPUT_STREAM (source), result, &written, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          run_failed (task, error);
          return;
        }
      run_return (task, g_error_new (G_IO_ERROR, error->code,
                                     _("Could not write the profile to %s: %s."),
                                     g_file_peek_path (self->output), error->message));
      g_error_free (error);
      return;
    }

  if (self->first_byte_us == 0 && written > 0)
    self->first_byte_us = g_get_monotonic_time ();
  self->bytes_written += written;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BYTES_WRITTEN]);
  read_next (task);
}

static void
ended_checked (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  GTask *task = user_data;
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;

  bytes = bl_device_get_finish (BL_DEVICE (source), result, &error);
  if (bytes == NULL
      && (g_error_matches (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_UNREACHABLE)
          || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)))
    {
      run_failed (task, error);
      return;
    }

  g_clear_error (&error);
  run_return (task, NULL);
}

static void
read_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  GTask *task = user_data;
  BlProfileStream *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;
  gsize len;
  gconstpointer data;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, &error);
  if (bytes == NULL)
    {
      run_failed (task, error);
      return;
    }

  data = g_bytes_get_data (bytes, &len);
  if (len == 0)
    {
      /* the app exited and the profiler ended its stream, or the device
       * went away: libsoup reads a chunked body cut short by a closed
       * connection as a complete one, so ask the device whether it is
       * still there */
      g_input_stream_close (run->input, NULL, NULL);
      bl_device_get_async (self->device, "/query/device-info", run->cancellable,
                           ended_checked, task);
      return;
    }

  /* not cancelled by a stop: what arrived is always written */
  g_output_stream_write_all_async (run->output, data, len, G_PRIORITY_DEFAULT,
                                   run->cancellable, write_done, task);
  /* the chunk lives until the next one replaces it, after its write */
  g_object_set_data_full (G_OBJECT (task), "bl-chunk", g_steal_pointer (&bytes),
                          (GDestroyNotify) g_bytes_unref);
}

static void
read_next (GTask *task)
{
  BlProfileStream *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);

  g_input_stream_read_bytes_async (run->input, CHUNK_SIZE, G_PRIORITY_DEFAULT, self->stop,
                                   read_done, task);
}

static void
send_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  GTask *task = user_data;
  BlProfileStream *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);
  SoupMessage *msg = g_object_get_data (G_OBJECT (task), "bl-message");
  g_autoptr(GFileOutputStream) output = NULL;
  GError *error = NULL;
  guint status;

  run->input = soup_session_send_finish (SOUP_SESSION (source), result, &error);
  if (run->input == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          run_failed (task, error);
          return;
        }
      g_error_free (error);
      run_return (task,
                  g_error_new (BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_NOT_PROFILING,
                               _("%s does not stream a profile on port %u: add "
                                 "bsprof_enable=1 and bsprof_data_dest=network to the "
                                 "app's manifest, then start the app again."),
                               bl_device_get_display_name (self->device),
                               self->profiler_port));
      return;
    }

  status = soup_message_get_status (msg);
  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      run_return (task,
                  g_error_new (BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_NOT_PROFILING,
                               _("%s refused the profile stream (HTTP status %u): add "
                                 "bsprof_enable=1 and bsprof_data_dest=network to the "
                                 "app's manifest, then start the app again."),
                               bl_device_get_display_name (self->device), status));
      return;
    }

  /* created only now, so a refused stream leaves no empty file behind;
   * created in place (not replaced through a temporary file) so that what
   * arrived is in the file at once */
  if (!g_file_delete (self->output, NULL, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        {
          run_return (task, g_error_new (G_IO_ERROR, error->code,
                                         _("Could not replace %s: %s."),
                                         g_file_peek_path (self->output), error->message));
          g_error_free (error);
          return;
        }
      g_clear_error (&error);
    }
  output = g_file_create (self->output, G_FILE_CREATE_NONE, NULL, &error);
  if (output == NULL)
    {
      run_return (task, g_error_new (G_IO_ERROR, error->code,
                                     _("Could not create %s: %s."),
                                     g_file_peek_path (self->output), error->message));
      g_error_free (error);
      return;
    }
  run->output = G_OUTPUT_STREAM (g_steal_pointer (&output));

  read_next (task);
}

static void
caller_cancelled (GCancellable *cancellable,
                  gpointer      user_data)
{
  BlProfileStream *self = user_data;

  g_cancellable_cancel (self->stop);
}

/* Receives the profile until the app ends its stream (TRUE), the device
 * goes away (BL_CAPTURE_ERROR_DISCONNECTED; the file keeps what arrived),
 * bl_profile_stream_stop() is called (TRUE) or @cancellable is cancelled
 * (G_IO_ERROR_CANCELLED; the file keeps what arrived). */
void
bl_profile_stream_run_async (BlProfileStream     *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autofree char *uri = NULL;
  SoupMessage *msg;
  GTask *task;
  Run *run;

  g_return_if_fail (BL_IS_PROFILE_STREAM (self));
  g_return_if_fail (!self->running);

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, bl_profile_stream_run_async);
  run = g_new0 (Run, 1);
  g_task_set_task_data (task, run, run_free);

  self->running = TRUE;
  self->bytes_written = 0;
  self->first_byte_us = 0;
  g_clear_object (&self->stop);
  self->stop = g_cancellable_new ();
  if (cancellable != NULL)
    {
      run->cancellable = g_object_ref (cancellable);
      run->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (caller_cancelled),
                                                 self, NULL);
    }

  uri = g_strdup_printf ("http://%s:%u%s", bl_device_get_host (self->device),
                         self->profiler_port, BL_PROFILE_STREAM_PATH);
  msg = soup_message_new (SOUP_METHOD_GET, uri);
  if (msg == NULL)
    {
      run_return (task,
                  g_error_new (BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_UNREACHABLE,
                               _("“%s” is not a device address: give a host name or "
                                 "an IP address."),
                               bl_device_get_host (self->device)));
      return;
    }
  g_object_set_data_full (G_OBJECT (task), "bl-message", msg, g_object_unref);

  soup_session_send_async (self->session, msg, G_PRIORITY_DEFAULT, self->stop,
                           send_done, task);
}

gboolean
bl_profile_stream_run_finish (BlProfileStream  *self,
                              GAsyncResult     *result,
                              GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Ends a run cleanly: it returns TRUE with the file holding all that
 * arrived. */
void
bl_profile_stream_stop (BlProfileStream *self)
{
  g_return_if_fail (BL_IS_PROFILE_STREAM (self));

  if (self->stop != NULL)
    g_cancellable_cancel (self->stop);
}

/* ---- the console ------------------------------------------------------ */

const char *
bl_profile_command_get_name (BlProfileCommand command)
{
  switch (command)
    {
    case BL_PROFILE_COMMAND_PAUSE:
      return "bsprof-pause";
    case BL_PROFILE_COMMAND_RESUME:
      return "bsprof-resume";
    case BL_PROFILE_COMMAND_STATUS:
      return "bsprof-status";
    default:
      g_return_val_if_reached (NULL);
    }
}

typedef struct
{
  BlProfileCommand   command;
  gint64             time_us;
  GSocketConnection *connection;
  GDataInputStream  *lines;
  GCancellable      *cancellable;  /* cancelled by the caller's or a timeout */
  GCancellable      *caller;
  gulong             caller_id;
  guint              timeout_id;
  gboolean           timed_out;
} Command;

static void
command_free (gpointer data)
{
  Command *c = data;

  g_clear_handle_id (&c->timeout_id, g_source_remove);
  if (c->caller_id != 0)
    g_cancellable_disconnect (c->caller, c->caller_id);
  g_clear_object (&c->caller);
  if (c->connection != NULL)
    g_io_stream_close (G_IO_STREAM (c->connection), NULL, NULL);
  g_clear_object (&c->lines);
  g_clear_object (&c->connection);
  g_clear_object (&c->cancellable);
  g_free (c);
}

static void
command_error (GTask  *task,
               GError *error)
{
  BlProfileStream *self = g_task_get_source_object (task);
  Command *c = g_task_get_task_data (task);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && !c->timed_out)
    g_task_return_error (task, error);
  else
    {
      g_task_return_new_error (task, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_UNREACHABLE,
                               _("The debug console of %s (port %u) did not answer %s: "
                                 "close other connections to that port (telnet, an "
                                 "editor's debugger) and try again."),
                               bl_device_get_display_name (self->device),
                               self->console_port, bl_profile_command_get_name (c->command));
      g_error_free (error);
    }
  g_object_unref (task);
}

static void
line_read (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  GTask *task = user_data;
  BlProfileStream *self = g_task_get_source_object (task);
  Command *c = g_task_get_task_data (task);
  g_autofree char *line = NULL;
  GError *error = NULL;
  Mark mark = { 0 };

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (source), result,
                                                    NULL, &error);
  if (line == NULL)
    {
      if (error == NULL)
        error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED, "closed");
      command_error (task, error);
      return;
    }

  /* a prompt ("BrightScript Debugger> ") may precede the reply */
  for (;;)
    {
      char *prompt_end = strstr (line, "> ");
      gboolean is_prompt = prompt_end != NULL;

      for (char *p = line; is_prompt && p < prompt_end; p++)
        is_prompt = g_ascii_isalpha (*p) || *p == ' ';
      if (!is_prompt)
        break;
      memmove (line, prompt_end + 2, strlen (prompt_end + 2) + 1);
    }
  g_strstrip (line);
  /* the console echoes nothing for these commands, but prompts and
   * banners (and an echo, should a firmware add one) are not the reply */
  if (line[0] == '\0' || g_str_equal (line, bl_profile_command_get_name (c->command))
      || g_str_has_suffix (line, ">"))
    {
      g_data_input_stream_read_line_async (c->lines, G_PRIORITY_DEFAULT, c->cancellable,
                                           line_read, task);
      return;
    }

  mark.time_us = c->time_us;
  mark.command = c->command;
  mark.reply = g_strdup (line);
  g_array_append_val (self->marks, mark);

  g_task_return_pointer (task, g_steal_pointer (&line), g_free);
  g_object_unref (task);
}

static void
command_written (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GTask *task = user_data;
  Command *c = g_task_get_task_data (task);
  GError *error = NULL;

  if (!g_output_stream_write_all_finish (G_OUTPUT_STREAM (source), result, NULL, &error))
    {
      command_error (task, error);
      return;
    }

  g_data_input_stream_read_line_async (c->lines, G_PRIORITY_DEFAULT, c->cancellable,
                                       line_read, task);
}

static void
console_connected (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  GTask *task = user_data;
  Command *c = g_task_get_task_data (task);
  g_autofree char *text = NULL;
  GError *error = NULL;
  GOutputStream *out;

  c->connection = g_socket_client_connect_to_host_finish (G_SOCKET_CLIENT (source), result,
                                                          &error);
  if (c->connection == NULL)
    {
      command_error (task, error);
      return;
    }

  c->lines = g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (c->connection)));
  g_data_input_stream_set_newline_type (c->lines, G_DATA_STREAM_NEWLINE_TYPE_ANY);
  g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (c->lines), FALSE);

  text = g_strdup_printf ("%s\r\n", bl_profile_command_get_name (c->command));
  out = g_io_stream_get_output_stream (G_IO_STREAM (c->connection));
  c->time_us = g_get_real_time ();
  g_output_stream_write_all_async (out, text, strlen (text), G_PRIORITY_DEFAULT,
                                   c->cancellable, command_written, task);
  g_object_set_data_full (G_OBJECT (task), "bl-text", g_steal_pointer (&text), g_free);
}

static gboolean
command_timeout (gpointer user_data)
{
  Command *c = user_data;

  c->timeout_id = 0;
  c->timed_out = TRUE;
  g_cancellable_cancel (c->cancellable);

  return G_SOURCE_REMOVE;
}

static void
command_cancelled (GCancellable *caller,
                   gpointer      user_data)
{
  GCancellable *own = user_data;

  g_cancellable_cancel (own);
}

/* Sends @command to the debug console and returns its reply (a line of
 * text); the command is kept as a mark with the time it was sent. */
void
bl_profile_stream_command_async (BlProfileStream     *self,
                                 BlProfileCommand     command,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GSocketClient) client = NULL;
  GTask *task;
  Command *c;

  g_return_if_fail (BL_IS_PROFILE_STREAM (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, bl_profile_stream_command_async);
  c = g_new0 (Command, 1);
  c->command = command;
  c->cancellable = g_cancellable_new ();
  g_task_set_task_data (task, c, command_free);
  if (cancellable != NULL)
    {
      c->caller = g_object_ref (cancellable);
      c->caller_id = g_cancellable_connect (cancellable, G_CALLBACK (command_cancelled),
                                            c->cancellable, NULL);
    }
  c->timeout_id = g_timeout_add_seconds (CONSOLE_TIMEOUT_S, command_timeout, c);

  client = g_socket_client_new ();
  g_socket_client_set_timeout (client, CONSOLE_TIMEOUT_S);
  g_socket_client_connect_to_host_async (client, bl_device_get_host (self->device),
                                         self->console_port, c->cancellable,
                                         console_connected, task);
}

char *
bl_profile_stream_command_finish (BlProfileStream  *self,
                                  GAsyncResult     *result,
                                  GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

guint
bl_profile_stream_get_n_marks (BlProfileStream *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_STREAM (self), 0);

  return self->marks->len;
}

/* The @index-th console command sent: when (g_get_real_time()), which,
 * and the console's reply. */
void
bl_profile_stream_get_mark (BlProfileStream   *self,
                            guint              index,
                            gint64            *time_us,
                            BlProfileCommand  *command,
                            const char       **reply)
{
  const Mark *mark;

  g_return_if_fail (BL_IS_PROFILE_STREAM (self));
  g_return_if_fail (index < self->marks->len);

  mark = &g_array_index (self->marks, Mark, index);
  if (time_us != NULL)
    *time_us = mark->time_us;
  if (command != NULL)
    *command = mark->command;
  if (reply != NULL)
    *reply = mark->reply;
}
