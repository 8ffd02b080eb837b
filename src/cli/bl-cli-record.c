/* bl-cli-record.c — brightlens-cli record HOST: capture a running app
 *
 * Reads device-info and active-app, then records into DIR, at the same
 * time, the profiler's stream (profile.bsprof, byte for byte), the
 * resource polls (session.json) and the Perfetto trace
 * (trace.perfetto-trace), until --duration runs out, Ctrl+C, or the device
 * goes away. Without --profile, --resources or --trace everything the
 * device offers is recorded: a stream it does not offer is noted and left
 * out. Every file is valid whenever the command ends. DIR/recording.json
 * (bl-recording-writer.h) is written at the start and rewritten as the
 * streams start and at the end, with how the recording ended.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "brightlens-cli"

#include "config.h"

#include <errno.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <stdio.h>

#include "bl-capture-error.h"
#include "bl-cli.h"
#include "bl-device.h"
#include "bl-profile-stream.h"
#include "bl-recording-writer.h"
#include "bl-resource-poller.h"
#include "bl-trace-stream.h"

typedef struct
{
  BlRecordingWriter *writer;
  BlRecordingEnd    end;        /* how it is ending, once stopping */
  char             *end_message;
  guint             watch_id;   /* looks for the streams' first bytes */
  guint             grace_id;   /* after a device-lost: the others' time to drain */
  BlDevice         *device;
  BlProfileStream  *profile;
  BlResourcePoller *poller;
  BlTraceStream    *trace;
  GFile            *profile_file;
  GFile            *session_file;
  GFile            *trace_file;
  gboolean          optional;   /* everything the device offers */
  guint             running;
  gboolean          stopping;
  gboolean          failed;
} Record;

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

/* The manifest could not be written: the streams go on (their files are
 * what matters), the user is told once. */
static void
manifest_failed (Record *r,
                 GError *error)
{
  static gboolean told;

  if (!told)
    fprintf (stderr, _("brightlens-cli: warning: %s\n"), error->message);
  told = TRUE;
}

/* Notes in the manifest when each stream's first byte arrived. */
static gboolean
watch_first_bytes (gpointer user_data)
{
  Record *r = user_data;
  gint64 times[BL_RECORDING_N_STREAMS] = {
    r->profile != NULL ? bl_profile_stream_get_first_byte_time (r->profile) : 0,
    r->poller != NULL ? bl_resource_poller_get_first_poll_time (r->poller) : 0,
    r->trace != NULL ? bl_trace_stream_get_first_byte_time (r->trace) : 0,
  };

  for (guint s = 0; s < BL_RECORDING_N_STREAMS; s++)
    {
      g_autoptr(GError) error = NULL;

      if (times[s] != 0 &&
          !bl_recording_writer_stream_started (r->writer, s, times[s], &error))
        manifest_failed (r, error);
    }

  return G_SOURCE_CONTINUE;
}

static void
stop_all (Record *r)
{
  if (r->stopping)
    return;
  r->stopping = TRUE;
  if (r->profile != NULL)
    bl_profile_stream_stop (r->profile);
  if (r->poller != NULL)
    bl_resource_poller_stop (r->poller);
  if (r->trace != NULL)
    bl_trace_stream_stop (r->trace);
}

static gboolean
on_signal (gpointer user_data)
{
  stop_all (user_data);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_duration (gpointer user_data)
{
  Record *r = user_data;

  if (!r->stopping)
    r->end = BL_RECORDING_END_DURATION;
  stop_all (r);
  return G_SOURCE_REMOVE;
}

static gboolean
on_grace (gpointer user_data)
{
  Record *r = user_data;

  r->grace_id = 0;
  stop_all (r);
  return G_SOURCE_REMOVE;
}

static BlRecordingStream
stream_of (Record  *r,
           GObject *source)
{
  if (source == (GObject *) r->profile)
    return BL_RECORDING_STREAM_PROFILE;
  if (source == (GObject *) r->poller)
    return BL_RECORDING_STREAM_SESSION;
  return BL_RECORDING_STREAM_TRACE;
}

/* One stream ended: a stream the device does not offer is only a note when
 * everything offered is recorded; a device gone ends the others too. */
static void
ended (Record            *r,
       BlRecordingStream  stream,
       GError            *error)
{
  r->running--;
  if (error == NULL)
    return;

  if (r->optional
      && (g_error_matches (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_NOT_PROFILING)
          || g_error_matches (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_UNREACHABLE)))
    {
      fprintf (stderr, _("brightlens-cli: note: %s\n"), error->message);
      bl_recording_writer_set_stream (r->writer, stream, FALSE, error->message);
      return;
    }

  fprintf (stderr, "brightlens-cli: %s\n", error->message);
  if (!r->failed)
    {
      r->end = g_error_matches (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_DISCONNECTED)
                 ? BL_RECORDING_END_DEVICE_LOST : BL_RECORDING_END_STOPPED;
      g_free (r->end_message);
      r->end_message = g_strdup (error->message);
    }
  r->failed = TRUE;

  /* the device went away: the other streams notice it too, once they have
   * saved what was on its way; stopping them now could lose it */
  if (g_error_matches (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_DISCONNECTED))
    {
      if (r->grace_id == 0 && !r->stopping)
        r->grace_id = g_timeout_add (2000, on_grace, r);
    }
  else
    stop_all (r);
}

static void
profile_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  bl_profile_stream_run_finish (BL_PROFILE_STREAM (source), result, &error);
  ended (user_data, stream_of (user_data, source), error);
}

static void
poller_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  bl_resource_poller_run_finish (BL_RESOURCE_POLLER (source), result, &error);
  ended (user_data, stream_of (user_data, source), error);
}

static void
trace_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  bl_trace_stream_run_finish (BL_TRACE_STREAM (source), result, &error);
  ended (user_data, stream_of (user_data, source), error);
}

static void
print_file (GFile *file)
{
  g_autoptr(GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                                 G_FILE_QUERY_INFO_NONE, NULL, NULL);

  if (info != NULL)
    printf (_("%s: %" PRId64 " bytes\n"), g_file_peek_path (file),
            (int64_t) g_file_info_get_size (info));
}

static void
record_clear (Record *r)
{
  g_clear_handle_id (&r->watch_id, g_source_remove);
  g_clear_handle_id (&r->grace_id, g_source_remove);
  g_clear_object (&r->writer);
  g_clear_pointer (&r->end_message, g_free);
  g_clear_object (&r->profile);
  g_clear_object (&r->poller);
  g_clear_object (&r->trace);
  g_clear_object (&r->profile_file);
  g_clear_object (&r->session_file);
  g_clear_object (&r->trace_file);
  g_clear_object (&r->device);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Record, record_clear)

int
bl_cli_record (int    argc,
               char **argv)
{
  g_autofree char *output = NULL;
  double duration = 0;
  int interval = BL_RESOURCE_POLLER_DEFAULT_INTERVAL_MS;
  gboolean profile = FALSE, resources = FALSE, trace = FALSE;
  int ecp_port = BL_DEVICE_ECP_PORT;
  int profiler_port = BL_DEVICE_PROFILER_PORT;
  int console_port = BL_DEVICE_CONSOLE_PORT;
  GOptionEntry entries[] = {
    { "duration", 0, 0, G_OPTION_ARG_DOUBLE, &duration,
      N_("Stop after SECONDS (default: at Ctrl+C)"), N_("SECONDS") },
    { "interval", 0, 0, G_OPTION_ARG_INT, &interval,
      N_("Poll the resources every MS milliseconds (default 1000)"), N_("MS") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write the files into DIR (default: recording)"), N_("DIR") },
    { "profile", 0, 0, G_OPTION_ARG_NONE, &profile,
      N_("Record the BrightScript profile"), NULL },
    { "resources", 0, 0, G_OPTION_ARG_NONE, &resources,
      N_("Record the resource use (a Resource Monitor session)"), NULL },
    { "trace", 0, 0, G_OPTION_ARG_NONE, &trace,
      N_("Record a Perfetto trace"), NULL },
    { "ecp-port", 0, 0, G_OPTION_ARG_INT, &ecp_port,
      N_("The device's ECP port (default 8060)"), N_("N") },
    { "profiler-port", 0, 0, G_OPTION_ARG_INT, &profiler_port,
      N_("The profiler's port (default 8090)"), N_("N") },
    { "console-port", 0, 0, G_OPTION_ARG_INT, &console_port,
      N_("The debug console's port (default 8080)"), N_("N") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("HOST"));
  g_autoptr(GAsyncResult) info_result = NULL;
  g_autoptr(GAsyncResult) app_result = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(Record) r = { 0 };
  g_autofree char *path = NULL;
  guint sigint_id, sigterm_id, duration_id = 0;

  g_option_context_set_summary (context, _("Record a running app from a Roku device: its "
                                           "BrightScript profile, its resource use and a "
                                           "Perfetto trace, into one folder."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "brightlens-cli: %s\n", error->message);
      return BL_CLI_USAGE;
    }
  if (argc != 2)
    {
      fprintf (stderr, "%s\n", _("brightlens-cli: record takes one HOST, the device's "
                                 "address."));
      return BL_CLI_USAGE;
    }
  if (duration < 0 || interval < 1 || ecp_port < 1 || ecp_port > 65535
      || profiler_port < 1 || profiler_port > 65535 || console_port < 1
      || console_port > 65535)
    {
      fprintf (stderr, "%s\n", _("brightlens-cli: --duration, --interval and the ports "
                                 "must be positive (ports at most 65535)."));
      return BL_CLI_USAGE;
    }

  r.optional = !profile && !resources && !trace;
  if (r.optional)
    profile = resources = trace = TRUE;

  /* the device, and whether it lets us record */
  r.device = bl_device_new (argv[1], (guint) ecp_port);
  bl_device_query_info_async (r.device, NULL, got_result, &info_result);
  if (!bl_device_query_info_finish (r.device, wait_for (&info_result), &error)
      || !bl_device_check_developer_mode (r.device, &error))
    {
      fprintf (stderr, "brightlens-cli: %s\n", error->message);
      return BL_CLI_INVALID_INPUT;
    }
  bl_device_query_active_app_async (r.device, NULL, got_result, &app_result);
  if (!bl_device_query_active_app_finish (r.device, wait_for (&app_result), &error)
      || !bl_device_check_sideloaded (r.device, &error))
    {
      fprintf (stderr, "brightlens-cli: %s\n", error->message);
      return BL_CLI_INVALID_INPUT;
    }

  if (output == NULL)
    output = g_strdup ("recording");
  if (g_mkdir_with_parents (output, 0755) != 0)
    {
      fprintf (stderr, _("brightlens-cli: could not create the folder %s: %s.\n"), output,
               g_strerror (errno));
      return BL_CLI_INVALID_INPUT;
    }

  /* the manifest, from the start */
  {
    g_autoptr(GFile) folder = g_file_new_for_path (output);

    r.writer = bl_recording_writer_new (folder);
    bl_recording_writer_set_device (r.writer, bl_device_get_display_name (r.device),
                                    bl_device_get_model (r.device),
                                    bl_device_get_software_version (r.device),
                                    bl_device_get_serial (r.device));
    bl_recording_writer_set_app (r.writer, bl_device_get_app_id (r.device),
                                 bl_device_get_app_name (r.device),
                                 bl_device_get_app_version (r.device));
    bl_recording_writer_set_stream (r.writer, BL_RECORDING_STREAM_PROFILE, profile, NULL);
    bl_recording_writer_set_stream (r.writer, BL_RECORDING_STREAM_SESSION, resources, NULL);
    bl_recording_writer_set_stream (r.writer, BL_RECORDING_STREAM_TRACE, trace, NULL);
    r.end = BL_RECORDING_END_STOPPED;
    if (!bl_recording_writer_start (r.writer, &error))
      {
        fprintf (stderr, "brightlens-cli: %s\n", error->message);
        return BL_CLI_INVALID_INPUT;
      }
  }

  path = g_build_filename (output, "profile.bsprof", NULL);
  r.profile_file = g_file_new_for_path (path);
  g_free (path);
  path = g_build_filename (output, "session.json", NULL);
  r.session_file = g_file_new_for_path (path);
  g_free (path);
  path = g_build_filename (output, "trace.perfetto-trace", NULL);
  r.trace_file = g_file_new_for_path (path);

  if (profile)
    {
      r.profile = bl_profile_stream_new (r.device, (guint) profiler_port, (guint) console_port,
                                         r.profile_file);
      r.running++;
      bl_profile_stream_run_async (r.profile, NULL, profile_done, &r);
    }
  if (resources)
    {
      r.poller = bl_resource_poller_new (r.device, r.session_file);
      bl_resource_poller_set_interval (r.poller, (guint) interval);
      r.running++;
      bl_resource_poller_run_async (r.poller, NULL, poller_done, &r);
    }
  if (trace)
    {
      r.trace = bl_trace_stream_new (r.device, bl_device_get_app_id (r.device), r.trace_file);
      r.running++;
      bl_trace_stream_run_async (r.trace, NULL, trace_done, &r);
    }

  r.watch_id = g_timeout_add (100, watch_first_bytes, &r);
  sigint_id = g_unix_signal_add (SIGINT, on_signal, &r);
  sigterm_id = g_unix_signal_add (SIGTERM, on_signal, &r);
  if (duration > 0)
    duration_id = g_timeout_add ((guint) MIN (duration * 1000, G_MAXUINT), on_duration, &r);

  while (r.running > 0)
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  if (duration_id != 0 && !r.stopping)
    g_source_remove (duration_id);

  /* the manifest's last state: first bytes, the console's marks, the end */
  watch_first_bytes (&r);
  for (guint i = 0; r.profile != NULL && i < bl_profile_stream_get_n_marks (r.profile); i++)
    {
      static const BlRecordingMarkKind kinds[] = {
        [BL_PROFILE_COMMAND_PAUSE] = BL_RECORDING_MARK_PAUSE,
        [BL_PROFILE_COMMAND_RESUME] = BL_RECORDING_MARK_RESUME,
        [BL_PROFILE_COMMAND_STATUS] = BL_RECORDING_MARK_STATUS,
      };
      g_autoptr(GError) mark_error = NULL;
      BlProfileCommand command;
      const char *reply;
      gint64 time_us;

      bl_profile_stream_get_mark (r.profile, i, &time_us, &command, &reply);
      if (!bl_recording_writer_add_mark (r.writer, kinds[command],
                                         bl_recording_writer_real_to_axis (r.writer, time_us),
                                         reply, &mark_error))
        manifest_failed (&r, mark_error);
    }
  g_clear_error (&error);
  if (!bl_recording_writer_finish (r.writer, r.end, r.end_message, &error))
    manifest_failed (&r, error);

  if (profile)
    print_file (r.profile_file);
  if (resources)
    print_file (r.session_file);
  if (trace)
    print_file (r.trace_file);
  {
    g_autoptr(GFile) manifest = g_file_get_child (bl_recording_writer_get_folder (r.writer),
                                                  BL_RECORDING_MANIFEST_NAME);

    print_file (manifest);
  }

  return r.failed ? BL_CLI_INVALID_INPUT : BL_CLI_OK;
}
