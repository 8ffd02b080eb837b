/* bl-cli-record.c — brightlens-cli record HOST: capture a running app
 *
 * Reads device-info and active-app, then records into DIR, at the same
 * time, the profiler's stream (profile.bsprof, byte for byte), the
 * resource polls (session.json) and the Perfetto trace
 * (trace.perfetto-trace), until --duration runs out, Ctrl+C, or the device
 * goes away. Without --profile, --resources or --trace everything the
 * device offers is recorded: a stream it does not offer is noted and left
 * out. Every file is valid whenever the command ends.
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
#include "bl-resource-poller.h"
#include "bl-trace-stream.h"

typedef struct
{
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
  stop_all (user_data);
  return G_SOURCE_REMOVE;
}

/* One stream ended: a stream the device does not offer is only a note when
 * everything offered is recorded; a device gone ends the others too. */
static void
ended (Record *r,
       GError *error)
{
  r->running--;
  if (error == NULL)
    return;

  if (r->optional
      && (g_error_matches (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_NOT_PROFILING)
          || g_error_matches (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_UNREACHABLE)))
    {
      fprintf (stderr, _("brightlens-cli: note: %s\n"), error->message);
      return;
    }

  fprintf (stderr, "brightlens-cli: %s\n", error->message);
  r->failed = TRUE;
  stop_all (r);
}

static void
profile_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  bl_profile_stream_run_finish (BL_PROFILE_STREAM (source), result, &error);
  ended (user_data, error);
}

static void
poller_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  bl_resource_poller_run_finish (BL_RESOURCE_POLLER (source), result, &error);
  ended (user_data, error);
}

static void
trace_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  bl_trace_stream_run_finish (BL_TRACE_STREAM (source), result, &error);
  ended (user_data, error);
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

  if (profile)
    print_file (r.profile_file);
  if (resources)
    print_file (r.session_file);
  if (trace)
    print_file (r.trace_file);

  return r.failed ? BL_CLI_INVALID_INPUT : BL_CLI_OK;
}
