/* test-cli-record.c — brightlens-cli record against the fake Roku
 *
 * The fake runs in this process; the CLI runs as a child while the main
 * loop serves it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <sys/wait.h>
#include <string.h>

#include "bl-bsprof-writer.h"
#include "bl-fake-roku.h"
#include "bl-model.h"
#include "bl-perfetto-writer.h"

typedef struct
{
  char *out;
  char *err;
  int   status;
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static void
communicated (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

typedef gboolean (*Poke) (gpointer data);

/* Runs the CLI with @args while the main loop serves the fake; @poke is
 * called every few milliseconds until it returns FALSE (then SIGINT is
 * sent), if given. */
static void
run_cli (Run         *run,
         const char  *const *args,
         Poke         poke,
         gpointer     poke_data)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gboolean poking = poke != NULL;

  g_ptr_array_add (argv, (gpointer) BRIGHTLENS_CLI);
  g_ptr_array_add (argv, (gpointer) "record");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                               &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8_async (process, NULL, NULL, communicated, &result);
  while (result == NULL)
    {
      g_main_context_iteration (NULL, !poking);
      if (poking && !poke (poke_data))
        {
          g_subprocess_send_signal (process, SIGINT);
          poking = FALSE;
        }
      if (poking)
        g_usleep (2000);
    }
  g_subprocess_communicate_utf8_finish (process, result, &run->out, &run->err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  run->status = g_subprocess_get_exit_status (process);
  g_test_message ("stdout: %s\nstderr: %s", run->out, run->err);
}

static GBytes *
small_profile (guint n)
{
  BlBsprofHeader h;
  BlBsprofWriter *w;
  GBytes *bytes;

  bl_bsprof_header_init (&h);
  h.target = "Fake App";
  h.start_ms = 1700000000000;
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "main");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 10, 1, 2, 1, 3);
  for (guint i = 0; i < n; i++)
    bl_bsprof_writer_cpu (w, 10, i % 5, 10 + i, 20 + i);
  bl_bsprof_writer_end (w, 1700000009999);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  return bytes;
}

static GBytes *
small_trace (void)
{
  BlPbWriter *w = bl_pbw_new ();
  GBytes *bytes;

  bl_pftw_thread_track (w, 1, 100, 101, "main");
  for (guint i = 0; i < 300; i++)
    {
      bl_pftw_event (w, 1, 1000000 + i * 1000, 1, 1, "render");
      bl_pftw_event (w, 1, 1000000 + i * 1000 + 500, 2, 1, NULL);
    }
  bytes = bl_pbw_steal (w);
  bl_pbw_free (w);

  return bytes;
}

typedef struct
{
  BlFakeRoku *roku;
  char       *dir;
  char       *ecp, *profiler, *console;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->roku = bl_fake_roku_new (GPOINTER_TO_INT (data), &error);
  g_assert_no_error (error);
  f->dir = g_dir_make_tmp ("test-cli-record-XXXXXX", &error);
  g_assert_no_error (error);
  f->ecp = g_strdup_printf ("%u", bl_fake_roku_get_ecp_port (f->roku));
  f->profiler = g_strdup_printf ("%u", bl_fake_roku_get_profiler_port (f->roku));
  f->console = g_strdup_printf ("%u", bl_fake_roku_get_console_port (f->roku));
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  static const char *const names[] = { "profile.bsprof", "session.json",
                                       "trace.perfetto-trace", "recording.json" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (f->dir, "out", names[i], NULL);

      g_unlink (path);
    }
  {
    g_autofree char *out = g_build_filename (f->dir, "out", NULL);

    g_rmdir (out);
  }
  g_rmdir (f->dir);
  g_free (f->dir);
  g_free (f->ecp);
  g_free (f->profiler);
  g_free (f->console);
  bl_fake_roku_free (f->roku);
}

static GBytes *
load (Fixture    *f,
      const char *name)
{
  g_autofree char *path = g_build_filename (f->dir, "out", name, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GBytes *bytes = g_file_load_bytes (file, NULL, NULL, &error);

  g_assert_no_error (error);
  return bytes;
}

static gboolean
exists (Fixture    *f,
        const char *name)
{
  g_autofree char *path = g_build_filename (f->dir, "out", name, NULL);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* The recording's manifest, read back. */
static BlRecording *
load_recording (Fixture *f)
{
  g_autofree char *path = g_build_filename (f->dir, "out", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  BlRecording *recording = bl_recording_load (folder, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (recording);
  g_assert_cmpstr (bl_recording_get_info (recording)->device_name, ==, "Fake Roku");
  g_assert_cmpstr (bl_recording_get_info (recording)->app_id, ==, "dev");
  g_assert_cmpint (bl_recording_get_info (recording)->start_unix_us, >, 0);

  return recording;
}

/* brightlens-cli info ARGS… */
static void
run_info (Run               *run,
          const char *const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (argv, (gpointer) BRIGHTLENS_CLI);
  g_ptr_array_add (argv, (gpointer) "info");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &run->out,
                &run->err, &run->status, &error);
  g_assert_no_error (error);
  g_test_message ("stdout: %s\nstderr: %s", run->out, run->err);
  g_assert_true (g_spawn_check_wait_status (run->status, NULL));
}

/* the session read back holds the values served at each poll */
static guint
assert_session (Fixture *f)
{
  g_autoptr(GBytes) text = load (f, "session.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(BlSession) session = NULL;
  const BlSample *used;
  guint n;

  session = bl_rrm_read_memory (g_bytes_get_data (text, NULL), g_bytes_get_size (text), &error);
  g_assert_no_error (error);
  used = bl_session_get_series (session, BL_SERIES_MEMORY_USED, &n);
  g_assert_cmpuint (n, >=, 1);
  /* a poll whose answer was on its way when the recording stopped is not
   * in the file */
  g_assert_cmpuint (n, <=, bl_fake_roku_get_n_queries (f->roku, "/query/chanperf/dev"));
  g_assert_cmpuint (n + 1, >=, bl_fake_roku_get_n_queries (f->roku, "/query/chanperf/dev"));
  for (guint i = 0; i < n; i++)
    g_assert_cmpfloat (used[i].value, ==, (double) bl_fake_roku_chanperf_used (i));
  return n;
}

static void
test_everything (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GBytes) profile = small_profile (3000);
  g_autoptr(GBytes) trace = small_trace ();
  g_autoptr(GBytes) saved_profile = NULL;
  g_autoptr(GBytes) saved_trace = NULL;
  g_autoptr(GBytes) sent = NULL;
  g_autofree char *out = g_build_filename (f->dir, "out", NULL);
  g_auto(Run) run = { 0 };
  const char *args[] = {
    "127.0.0.1", "--ecp-port", f->ecp, "--profiler-port", f->profiler,
    "--console-port", f->console, "--duration", "1", "--interval", "100", "-o", out, NULL
  };

  bl_fake_roku_set_profile (f->roku, profile, 1000, 2);
  bl_fake_roku_set_trace (f->roku, trace, NULL, 500, 2, TRUE);
  run_cli (&run, args, NULL, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.err, ==, "");

  saved_profile = load (f, "profile.bsprof");
  g_assert_true (g_bytes_equal (saved_profile, profile));
  saved_trace = load (f, "trace.perfetto-trace");
  sent = bl_fake_roku_dup_trace_sent (f->roku);
  g_assert_true (g_bytes_equal (saved_trace, sent));
  g_assert_true (g_bytes_equal (saved_trace, trace));
  g_assert_cmpuint (assert_session (f), >=, 3);
  g_assert_nonnull (strstr (run.out, "profile.bsprof: "));
  g_assert_nonnull (strstr (run.out, "recording.json: "));

  /* the manifest: the three streams, each begun, and the duration ran out */
  {
    g_autoptr(BlRecording) recording = load_recording (f);
    g_autofree char *manifest = g_build_filename (out, "recording.json", NULL);
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_auto(Run) info = { 0 };
    g_auto(Run) info_json = { 0 };
    g_auto(Run) info_manifest = { 0 };
    g_auto(Run) export = { 0 };
    const char *info_args[] = { out, NULL };
    const char *json_args[] = { out, "--json", NULL };
    const char *manifest_args[] = { manifest, NULL };
    JsonObject *root, *streams;
    gint64 offset;

    g_assert_cmpint (bl_recording_get_info (recording)->end, ==, BL_RECORDING_END_DURATION);
    g_assert_cmpint (bl_recording_get_info (recording)->duration_us, >=, 900000);
    for (guint s = 0; s < BL_RECORDING_N_STREAMS; s++)
      {
        g_assert_true (bl_recording_has_stream (recording, s));
        g_assert_null (bl_recording_get_stream_error (recording, s));
        g_assert_cmpint (bl_recording_get_stream_first_byte (recording, s), >=, 0);
        g_assert_cmpint (bl_recording_get_stream_first_byte (recording, s), <,
                         bl_recording_get_info (recording)->duration_us);
      }
    g_assert_true (g_bytes_equal (saved_profile, profile));
    g_assert_cmpuint (bl_profile_get_grand_total (bl_recording_get_profile (recording),
                                                  BL_METRIC_CPU), >, 0);
    /* the first poll lies on the axis where its timestamp says */
    g_assert_true (bl_recording_get_stream_offset (recording, BL_RECORDING_STREAM_SESSION,
                                                   &offset));
    {
      guint n;
      const BlSample *used = bl_session_get_series (bl_recording_get_session (recording),
                                                    BL_SERIES_MEMORY_USED, &n);
      gint64 on_axis = used[0].timestamp_ms * 1000 + offset;
      gint64 first = bl_recording_get_stream_first_byte (recording,
                                                         BL_RECORDING_STREAM_SESSION);

      g_assert_cmpint (on_axis, >=, 0);
      g_assert_cmpint (ABS (on_axis - first), <, 200000);
    }

    run_info (&info, info_args);
    g_assert_cmpint (info.status, ==, 0);
    g_assert_nonnull (strstr (info.out, "Device:       Fake Roku ("));
    g_assert_nonnull (strstr (info.out, "Ended:        the chosen duration ran out\n"));
    g_assert_nonnull (strstr (info.out, "Profile:      profile.bsprof, "));
    g_assert_nonnull (strstr (info.out, "Resources:    session.json, "));
    g_assert_nonnull (strstr (info.out, "Trace:        trace.perfetto-trace, "));
    run_info (&info_manifest, manifest_args);
    g_assert_cmpstr (info_manifest.out, ==, info.out);

    run_info (&info_json, json_args);
    g_assert_true (json_parser_load_from_data (parser, info_json.out, -1, NULL));
    root = json_node_get_object (json_parser_get_root (parser));
    g_assert_cmpstr (json_object_get_string_member (root, "state"), ==, "duration");
    streams = json_object_get_object_member (root, "streams");
    g_assert_cmpint (json_object_get_int_member (
                       json_object_get_object_member (streams, "profile"), "bytes"), ==,
                     (gint64) g_bytes_get_size (profile));
    g_assert_cmpint (json_object_get_int_member (
                       json_object_get_object_member (
                         json_object_get_object_member (streams, "session"), "contents"),
                       "polls"), >=, 3);

    /* other commands take one of its files */
    {
      const char *argv[] = { BRIGHTLENS_CLI, "export", out, "--format", "folded", NULL };
      g_autoptr(GError) error = NULL;

      g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &export.out,
                    &export.err, &export.status, &error);
      g_assert_no_error (error);
      g_assert_false (g_spawn_check_wait_status (export.status, NULL));
      g_assert_nonnull (strstr (export.err, "is a recording; give one of its files"));
    }
  }
}

static gboolean
until_some_profile (gpointer data)
{
  Fixture *f = data;

  /* poke until the profile has started and a poll was made */
  return bl_fake_roku_get_bytes_sent (f->roku) < 5000
         || bl_fake_roku_get_n_queries (f->roku, "/query/chanperf/dev") < 2;
}

static void
test_interrupt (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GBytes) profile = small_profile (20000);
  g_autoptr(GBytes) saved = NULL;
  g_autofree char *out = g_build_filename (f->dir, "out", NULL);
  g_auto(Run) run = { 0 };
  const char *args[] = {
    "127.0.0.1", "--ecp-port", f->ecp, "--profiler-port", f->profiler,
    "--console-port", f->console, "--interval", "20", "--profile", "--resources",
    "-o", out, NULL
  };
  g_autoptr(GBytes) expected = NULL;

  /* slow enough that Ctrl+C comes in the middle */
  bl_fake_roku_set_profile (f->roku, profile, 500, 5);
  run_cli (&run, args, until_some_profile, f);
  g_assert_cmpint (run.status, ==, 0);

  /* what arrived before the signal, exactly as sent */
  saved = load (f, "profile.bsprof");
  g_assert_cmpuint (g_bytes_get_size (saved), >, 0);
  g_assert_cmpuint (g_bytes_get_size (saved), <, g_bytes_get_size (profile));
  expected = g_bytes_new_from_bytes (profile, 0, g_bytes_get_size (saved));
  g_assert_true (g_bytes_equal (saved, expected));
  assert_session (f);
  g_assert_false (exists (f, "trace.perfetto-trace"));

  /* Ctrl+C: stopped, without the trace */
  {
    g_autoptr(BlRecording) recording = load_recording (f);

    g_assert_cmpint (bl_recording_get_info (recording)->end, ==, BL_RECORDING_END_STOPPED);
    g_assert_false (bl_recording_has_stream (recording, BL_RECORDING_STREAM_TRACE));
    g_assert_true (bl_recording_has_stream (recording, BL_RECORDING_STREAM_PROFILE));
    g_assert_true (bl_profile_is_incomplete (bl_recording_get_profile (recording)));
  }
}

static void
test_refused (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *out = g_build_filename (f->dir, "out", NULL);
  g_auto(Run) run = { 0 };
  const char *args[] = {
    "127.0.0.1", "--ecp-port", f->ecp, "--duration", "1", "-o", out, NULL
  };
  const char *expected = NULL;

  switch (GPOINTER_TO_INT (data))
    {
    case BL_FAKE_ROKU_LIMITED:
      expected = "brightlens-cli: 127.0.0.1 refuses control from this computer: on the "
                 "device set Settings > System > Advanced system settings > Control by "
                 "mobile apps to Enabled.\n";
      break;
    case BL_FAKE_ROKU_DEVELOPER_OFF:
      expected = "brightlens-cli: Developer mode is off on Fake Roku: turn it on by pressing "
                 "Home three times, Up twice, then Right, Left, Right, Left, Right on its "
                 "remote.\n";
      break;
    case BL_FAKE_ROKU_NOT_SIDELOADED:
      expected = "brightlens-cli: The app running on Fake Roku (“Store Channel”) is not "
                 "sideloaded: install your app from its development web page "
                 "(http://127.0.0.1) and start it.\n";
      break;
    default:
      g_assert_not_reached ();
    }

  run_cli (&run, args, NULL, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.err, ==, expected);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_false (exists (f, "session.json"));
}

static void
test_absent (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *out = g_build_filename (f->dir, "out", NULL);
  g_autofree char *expected = NULL;
  g_auto(Run) run = { 0 };
  const char *args[] = { "127.0.0.1", "--ecp-port", f->ecp, "-o", out, NULL };

  /* nothing listens there any more */
  expected = g_strdup_printf ("brightlens-cli: No Roku device answers at 127.0.0.1 port %s: "
                              "check the address and that the device is on and on this "
                              "network.\n", f->ecp);
  bl_fake_roku_free (f->roku);
  f->roku = bl_fake_roku_new (BL_FAKE_ROKU_NORMAL, NULL);
  run_cli (&run, args, NULL, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.err, ==, expected);
}

static void
test_not_offered (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *out = g_build_filename (f->dir, "out", NULL);
  g_auto(Run) run = { 0 };
  g_auto(Run) asked = { 0 };
  const char *args[] = {
    "127.0.0.1", "--ecp-port", f->ecp, "--profiler-port", f->profiler, "--duration", "0.3",
    "--interval", "50", "-o", out, NULL
  };
  const char *args_profile[] = {
    "127.0.0.1", "--ecp-port", f->ecp, "--profiler-port", f->profiler, "--duration", "0.3",
    "--profile", "-o", out, NULL
  };

  /* by default, what the device does not offer is a note */
  run_cli (&run, args, NULL, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.err, "brightlens-cli: note: Fake Roku does not stream a profile on port "));
  g_assert_false (exists (f, "profile.bsprof"));
  assert_session (f);
  {
    g_autoptr(BlRecording) recording = load_recording (f);

    g_assert_false (bl_recording_has_stream (recording, BL_RECORDING_STREAM_PROFILE));
    g_assert_nonnull (strstr (bl_recording_get_stream_error (recording,
                                                             BL_RECORDING_STREAM_PROFILE),
                              "does not stream a profile"));
    g_assert_cmpint (bl_recording_get_info (recording)->end, ==, BL_RECORDING_END_DURATION);
  }

  /* asked for, it fails */
  run_cli (&asked, args_profile, NULL, NULL);
  g_assert_cmpint (asked.status, ==, 1);
  g_assert_true (g_str_has_prefix (asked.err, "brightlens-cli: Fake Roku does not stream a "
                                              "profile on port "));
}

static void
test_vanish (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GBytes) profile = small_profile (20000);
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GBytes) expected = NULL;
  g_autofree char *out = g_build_filename (f->dir, "out", NULL);
  g_autoptr(GObject) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (f->dir, "out", "profile.bsprof", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_auto(Run) run = { 0 };
  const char *args[] = {
    "127.0.0.1", "--ecp-port", f->ecp, "--profiler-port", f->profiler,
    "--console-port", f->console, "--interval", "20", "--profile", "--resources",
    "-o", out, NULL
  };

  bl_fake_roku_set_profile (f->roku, profile, 700, 2);
  bl_fake_roku_set_vanish_after (f->roku, 9999);
  run_cli (&run, args, NULL, NULL);
  g_assert_cmpint (run.status, ==, 1);
  /* whichever stream notices first says so, in one sentence */
  g_assert_true (strstr (run.err, "stopped sending the profile after 9999 bytes") != NULL
                 || strstr (run.err, "Fake Roku stopped answering after ") != NULL);
  g_assert_nonnull (strstr (run.err, "check that the device is still on and on this network."));

  saved = load (f, "profile.bsprof");
  expected = g_bytes_new_from_bytes (profile, 0, 9999);
  g_assert_true (g_bytes_equal (saved, expected));
  loaded = bl_format_load_file (file, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (bl_profile_is_incomplete (BL_PROFILE (loaded)));

  /* the device went away: said in the manifest, in the same sentence */
  {
    g_autoptr(BlRecording) recording = load_recording (f);
    const BlRecordingInfo *info = bl_recording_get_info (recording);

    g_assert_cmpint (info->end, ==, BL_RECORDING_END_DEVICE_LOST);
    g_assert_nonnull (info->end_message);
    g_assert_nonnull (strstr (run.err, info->end_message));
  }
}

/* `info` on a damaged manifest: exit 1, one sentence that says where. */
static void
test_info_hostile (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *out = g_build_filename (f->dir, "out", NULL);
  g_autofree char *manifest = g_build_filename (out, "recording.json", NULL);
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { BRIGHTLENS_CLI, "info", out, NULL };
  int status;

  g_assert_cmpint (g_mkdir_with_parents (out, 0755), ==, 0);
  g_file_set_contents (manifest, "{\"format\": \"brightlens-recording\", \"version\": 1, "
                       "\"device\": {\"name\": 42}}", -1, &error);
  g_assert_no_error (error);
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL) == FALSE);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 1);
  g_assert_nonnull (strstr (err, "“device.name” must be a string."));
  g_assert_cmpuint (strchr (err, '\n') - err + 1, ==, strlen (err));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, mode, func) \
  g_test_add ("/cli/record/" path, Fixture, GINT_TO_POINTER (mode), \
              fixture_setup, func, fixture_teardown)

  ADD ("everything", BL_FAKE_ROKU_NORMAL, test_everything);
  ADD ("interrupt", BL_FAKE_ROKU_NORMAL, test_interrupt);
  ADD ("limited", BL_FAKE_ROKU_LIMITED, test_refused);
  ADD ("developer-off", BL_FAKE_ROKU_DEVELOPER_OFF, test_refused);
  ADD ("not-sideloaded", BL_FAKE_ROKU_NOT_SIDELOADED, test_refused);
  ADD ("absent", BL_FAKE_ROKU_NORMAL, test_absent);
  ADD ("not-offered", BL_FAKE_ROKU_NOT_PROFILING, test_not_offered);
  ADD ("vanish", BL_FAKE_ROKU_NORMAL, test_vanish);
  ADD ("info-hostile", BL_FAKE_ROKU_NORMAL, test_info_hostile);

  return g_test_run ();
}
