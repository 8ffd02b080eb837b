/* test-recording.c — a saved recording: the manifest writer and reader,
 * the stream files beside it, hostile manifests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "bl-bsprof-writer.h"
#include "bl-model.h"
#include "bl-perfetto-writer.h"
#include "bl-recording-writer.h"
#include "bl-recording.h"
#include "bl-rrm-writer.h"

typedef struct
{
  char  *dir;      /* a scratch folder holding the recording folder */
  char  *folder;   /* dir/rec */
  GFile *file;     /* folder */
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("bl-recording-XXXXXX", &error);
  g_assert_no_error (error);
  f->folder = g_build_filename (f->dir, "rec", NULL);
  f->file = g_file_new_for_path (f->folder);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (g_file_test (path, G_FILE_TEST_IS_SYMLINK) || !g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_unlink (path);
      return;
    }
  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      remove_tree (child);
    }
  g_rmdir (path);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  remove_tree (f->dir);
  g_assert_false (g_file_test (f->dir, G_FILE_TEST_EXISTS));
  g_free (f->dir);
  g_free (f->folder);
  g_object_unref (f->file);
}

static void
write_file (const char   *folder,
            const char   *name,
            const void   *data,
            gssize        len)
{
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_mkdir_with_parents (folder, 0755) == 0);
  g_file_set_contents (path, data, len, &error);
  g_assert_no_error (error);
}

static GBytes *
small_bsprof (void)
{
  BlBsprofHeader h;
  BlBsprofWriter *w;
  GBytes *bytes;

  bl_bsprof_header_init (&h);
  h.start_ms = 1700000000000;
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "main");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 10, 1, 2, 1, 3);
  bl_bsprof_writer_cpu (w, 10, 0, 1234, 2000);
  bl_bsprof_writer_end (w, 1700000005000);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  return bytes;
}

static GBytes *
small_trace (void)
{
  BlPbWriter *w = bl_pbw_new ();
  GBytes *bytes;

  bl_pftw_thread_track (w, 10, 1, 42, "render");
  bl_pftw_event (w, 1, 5000000, 1, 10, "frame");
  bl_pftw_event (w, 1, 7000000, 2, 10, NULL);
  bytes = bl_pbw_steal (w);
  bl_pbw_free (w);

  return bytes;
}

static GBytes *
small_session (void)
{
  BlRrmWriterOptions options;

  bl_rrm_writer_options_init (&options);
  options.n_samples = 5;
  options.start_ms = 1700000001000;

  return bl_rrm_write (&options);
}

/* Writes all three stream files into the folder. */
static void
write_streams (Fixture *f)
{
  g_autoptr(GBytes) profile = small_bsprof ();
  g_autoptr(GBytes) session = small_session ();
  g_autoptr(GBytes) trace = small_trace ();

  write_file (f->folder, "profile.bsprof", g_bytes_get_data (profile, NULL),
              g_bytes_get_size (profile));
  write_file (f->folder, "session.json", g_bytes_get_data (session, NULL),
              g_bytes_get_size (session));
  write_file (f->folder, "trace.perfetto-trace", g_bytes_get_data (trace, NULL),
              g_bytes_get_size (trace));
}

static BlRecordingWriter *
new_writer (Fixture *f)
{
  BlRecordingWriter *writer = bl_recording_writer_new (f->file);

  bl_recording_writer_set_device (writer, "Wohnzimmer", "4800X", "12.5.0", "X00000000001");
  bl_recording_writer_set_app (writer, "dev", "Grid App", "2.3.4");
  for (guint s = 0; s < BL_RECORDING_N_STREAMS; s++)
    bl_recording_writer_set_stream (writer, s, TRUE, NULL);

  return writer;
}

/* Only recording.json (and what the test put there) is in the folder:
 * no temporary file is left behind. */
static void
assert_folder_holds (Fixture           *f,
                     const char *const *names)
{
  g_autoptr(GDir) dir = g_dir_open (f->folder, 0, NULL);
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (found, g_strdup (name));
  g_assert_cmpuint (found->len, ==, g_strv_length ((char **) names));
  for (guint i = 0; names[i] != NULL; i++)
    g_assert_true (g_ptr_array_find_with_equal_func (found, names[i], g_str_equal, NULL));
}

static void
test_round_trip (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(BlRecordingWriter) writer = new_writer (f);
  g_autoptr(BlRecording) recording = NULL;
  g_autoptr(GError) error = NULL;
  const char *const only_manifest[] = { "recording.json", NULL };
  const BlRecordingInfo *info;
  const BlRecordingMark *marks;
  guint n_marks;
  gint64 start;

  g_assert_true (bl_recording_writer_start (writer, &error));
  g_assert_no_error (error);
  start = bl_recording_writer_get_start_unix_us (writer);
  g_assert_cmpint (start, >, 0);
  g_assert_true (bl_recording_writer_stream_started (writer, BL_RECORDING_STREAM_TRACE,
                                                     g_get_monotonic_time (), &error));
  g_assert_true (bl_recording_writer_add_mark (writer, BL_RECORDING_MARK_RESUME, 2000000,
                                               "profiling resumed", &error));
  g_assert_true (bl_recording_writer_add_mark (writer, BL_RECORDING_MARK_PAUSE, 1000000,
                                               "profiling paused", &error));
  g_assert_true (bl_recording_writer_add_mark (writer, BL_RECORDING_MARK_HEAP_GRAPH, 3000000,
                                               NULL, &error));
  g_assert_true (bl_recording_writer_finish (writer, BL_RECORDING_END_DEVICE_LOST,
                                             "Wohnzimmer „stopped“ answering.", &error));
  g_assert_no_error (error);
  assert_folder_holds (f, only_manifest);

  /* by the folder and by the manifest */
  for (guint by_manifest = 0; by_manifest < 2; by_manifest++)
    {
      g_autoptr(GFile) manifest = g_file_get_child (f->file, "recording.json");

      g_clear_object (&recording);
      recording = bl_recording_load (by_manifest ? manifest : f->file, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (recording);
      g_assert_true (g_file_equal (bl_recording_get_folder (recording), f->file));

      info = bl_recording_get_info (recording);
      g_assert_cmpuint (info->version, ==, 1);
      g_assert_cmpstr (info->device_name, ==, "Wohnzimmer");
      g_assert_cmpstr (info->device_model, ==, "4800X");
      g_assert_cmpstr (info->device_os_version, ==, "12.5.0");
      g_assert_cmpstr (info->device_serial, ==, "X00000000001");
      g_assert_cmpstr (info->app_id, ==, "dev");
      g_assert_cmpstr (info->app_name, ==, "Grid App");
      g_assert_cmpstr (info->app_version, ==, "2.3.4");
      g_assert_cmpint (info->start_unix_us, ==, start);
      g_assert_true (g_str_has_suffix (info->start_time, "Z"));
      g_assert_cmpint (info->end, ==, BL_RECORDING_END_DEVICE_LOST);
      g_assert_cmpstr (info->end_message, ==, "Wohnzimmer „stopped“ answering.");
      g_assert_cmpint (info->duration_us, >, 0);

      marks = bl_recording_get_marks (recording, &n_marks);
      g_assert_cmpuint (n_marks, ==, 3);
      g_assert_cmpint (marks[0].kind, ==, BL_RECORDING_MARK_PAUSE);
      g_assert_cmpint (marks[0].time_us, ==, 1000000);
      g_assert_cmpstr (marks[0].text, ==, "profiling paused");
      g_assert_cmpint (marks[1].kind, ==, BL_RECORDING_MARK_RESUME);
      g_assert_cmpint (marks[2].kind, ==, BL_RECORDING_MARK_HEAP_GRAPH);
      g_assert_cmpstr (marks[2].text, ==, "");

      g_assert_cmpint (bl_recording_get_stream_first_byte (recording,
                                                           BL_RECORDING_STREAM_TRACE), >=, 0);
      g_assert_cmpint (bl_recording_get_stream_first_byte (recording,
                                                           BL_RECORDING_STREAM_PROFILE), ==, -1);
      g_assert_null (bl_recording_get_warning (recording));

      /* the three streams are listed, and all missing */
      for (guint s = 0; s < BL_RECORDING_N_STREAMS; s++)
        {
          g_assert_true (bl_recording_has_stream (recording, s));
          g_assert_nonnull (strstr (bl_recording_get_stream_error (recording, s),
                                    "missing"));
        }
      g_assert_null (bl_recording_get_profile (recording));
      g_assert_null (bl_recording_get_session (recording));
      g_assert_null (bl_recording_get_trace (recording));
    }
}

/* A console reply may hold any control character: the manifest stays
 * strict JSON that any tool reads (json-glib 1.6 leaves U+001F raw, which
 * its own parser forgives but JSON forbids), and the text comes back as
 * it was. */
static void
test_control_characters (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(BlRecordingWriter) writer = new_writer (f);
  g_autoptr(BlRecording) recording = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) reply = g_string_new ("status:");
  g_autoptr(GFile) manifest = NULL;
  g_autofree char *text = NULL;
  gsize length;
  const BlRecordingMark *marks;
  guint n_marks;

  for (char c = 1; c < 0x20; c++)
    g_string_append_c (reply, c);
  g_string_append (reply, "\x1f end");

  g_assert_true (bl_recording_writer_start (writer, &error));
  g_assert_true (bl_recording_writer_add_mark (writer, BL_RECORDING_MARK_STATUS, 5,
                                               reply->str, &error));
  g_assert_true (bl_recording_writer_finish (writer, BL_RECORDING_END_STOPPED, NULL, &error));
  g_assert_no_error (error);

  manifest = g_file_get_child (f->file, "recording.json");
  g_assert_true (g_file_load_contents (manifest, NULL, &text, &length, NULL, &error));
  g_assert_no_error (error);
  for (gsize i = 0; i < length; i++)
    g_assert_true ((guchar) text[i] >= 0x20 || text[i] == '\n');
  g_assert_nonnull (strstr (text, "\\u001f"));

  recording = bl_recording_load (f->file, NULL, &error);
  g_assert_no_error (error);
  marks = bl_recording_get_marks (recording, &n_marks);
  g_assert_cmpuint (n_marks, ==, 1);
  g_assert_cmpstr (marks[0].text, ==, reply->str);
}

/* Cut off after the first mark (a crash): the manifest on disk opens, as
 * a recording that did not end. */
static void
test_cut_off (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(BlRecordingWriter) writer = new_writer (f);
  g_autoptr(BlRecording) recording = NULL;
  g_autoptr(GError) error = NULL;
  guint n_marks;

  bl_recording_writer_set_stream (writer, BL_RECORDING_STREAM_TRACE, FALSE,
                                  "The device does not offer a trace.");
  g_assert_true (bl_recording_writer_start (writer, &error));
  g_assert_true (bl_recording_writer_add_mark (writer, BL_RECORDING_MARK_STATUS, 5,
                                               "profiling: running", &error));
  g_assert_no_error (error);
  g_clear_object (&writer);   /* never finished */

  write_streams (f);
  recording = bl_recording_load (f->file, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (bl_recording_get_info (recording)->end, ==, BL_RECORDING_END_RECORDING);
  g_assert_null (bl_recording_get_info (recording)->end_message);
  bl_recording_get_marks (recording, &n_marks);
  g_assert_cmpuint (n_marks, ==, 1);

  /* the trace is there but was not recorded: not read */
  g_assert_false (bl_recording_has_stream (recording, BL_RECORDING_STREAM_TRACE));
  g_assert_cmpstr (bl_recording_get_stream_error (recording, BL_RECORDING_STREAM_TRACE), ==,
                   "The device does not offer a trace.");
  g_assert_null (bl_recording_get_trace (recording));
  g_assert_nonnull (bl_recording_get_profile (recording));
  g_assert_nonnull (bl_recording_get_session (recording));
}

/* All three streams load, and their offsets follow the documented rules. */
static void
test_streams_and_offsets (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(BlRecordingWriter) writer = new_writer (f);
  g_autoptr(BlRecording) recording = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) before = NULL;
  g_autofree char *profile_path = g_build_filename (f->folder, "profile.bsprof", NULL);
  const char *const all[] = {
    "recording.json", "profile.bsprof", "session.json", "trace.perfetto-trace", NULL,
  };
  gint64 start, first_byte, offset;
  GStatBuf st_before, st_after;

  g_assert_true (bl_recording_writer_start (writer, &error));
  start = bl_recording_writer_get_start_unix_us (writer);
  g_assert_true (bl_recording_writer_stream_started (
    writer, BL_RECORDING_STREAM_TRACE,
    g_get_monotonic_time () + 250000, &error));
  /* only the first call counts */
  g_assert_true (bl_recording_writer_stream_started (
    writer, BL_RECORDING_STREAM_TRACE,
    g_get_monotonic_time () + 9000000, &error));
  g_assert_true (bl_recording_writer_finish (writer, BL_RECORDING_END_STOPPED, NULL, &error));
  g_assert_no_error (error);
  write_streams (f);
  g_assert_cmpint (g_stat (profile_path, &st_before), ==, 0);

  recording = bl_recording_load (f->file, NULL, &error);
  g_assert_no_error (error);
  for (guint s = 0; s < BL_RECORDING_N_STREAMS; s++)
    g_assert_null (bl_recording_get_stream_error (recording, s));
  g_assert_cmpuint (bl_profile_get_grand_total (bl_recording_get_profile (recording),
                                                BL_METRIC_CPU), ==, 1234);
  g_assert_true (bl_session_has_series (bl_recording_get_session (recording),
                                        BL_SERIES_MEMORY_USED));
  g_assert_cmpuint (bl_profile_get_n_threads (bl_recording_get_trace (recording)), >=, 1);

  /* the session and the profile: Unix time, the host's clock */
  g_assert_true (bl_recording_get_stream_offset (recording, BL_RECORDING_STREAM_SESSION,
                                                 &offset));
  g_assert_cmpint (offset, ==, -start);
  g_assert_true (bl_recording_get_stream_offset (recording, BL_RECORDING_STREAM_PROFILE,
                                                 &offset));
  g_assert_cmpint (offset, ==, -start);

  /* the trace: its first event (5 ms of trace clock) at its first byte */
  first_byte = bl_recording_get_stream_first_byte (recording, BL_RECORDING_STREAM_TRACE);
  g_assert_cmpint (first_byte, >=, 250000);
  g_assert_cmpint (first_byte, <, 9000000);
  g_assert_true (bl_recording_get_stream_offset (recording, BL_RECORDING_STREAM_TRACE,
                                                 &offset));
  g_assert_cmpint (offset, ==, first_byte - 5000);

  /* the loader (a double-click, `brightlens FOLDER`) gives the recording,
   * for the folder and for its manifest */
  {
    g_autoptr(GFile) manifest = g_file_get_child (f->file, "recording.json");
    g_autoptr(BlLoader) by_folder = bl_loader_new (f->file);
    g_autoptr(BlLoader) by_manifest = bl_loader_new (manifest);
    g_autoptr(GObject) loaded = bl_loader_load (by_folder, NULL, &error);
    g_autoptr(GObject) loaded_manifest = bl_loader_load (by_manifest, NULL, &error);

    g_assert_no_error (error);
    g_assert_true (BL_IS_RECORDING (loaded));
    g_assert_true (BL_IS_RECORDING (loaded_manifest));
    g_assert_nonnull (bl_recording_get_profile (BL_RECORDING (loaded)));
    g_assert_true (bl_recording_is_recording (f->file, NULL));
    g_assert_true (bl_recording_is_recording (manifest, NULL));
  }
  {
    /* a stream file alone is still just that file */
    g_autoptr(GFile) session = g_file_get_child (f->file, "session.json");
    g_autoptr(GObject) loaded = bl_format_load_file (session, NULL, NULL, NULL, &error);

    g_assert_no_error (error);
    g_assert_true (BL_IS_SESSION (loaded));
    g_assert_false (bl_recording_is_recording (session, NULL));
  }

  /* opening wrote nothing */
  assert_folder_holds (f, all);
  g_assert_cmpint (g_stat (profile_path, &st_after), ==, 0);
  g_assert_cmpint (st_after.st_mtime, ==, st_before.st_mtime);
  g_assert_cmpint (st_after.st_size, ==, st_before.st_size);
}

/* One or two stream files missing, or not readable as their format. */
static void
test_missing_files (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(BlRecordingWriter) writer = new_writer (f);
  g_autoptr(GError) error = NULL;
  g_autofree char *profile = g_build_filename (f->folder, "profile.bsprof", NULL);
  g_autofree char *trace = g_build_filename (f->folder, "trace.perfetto-trace", NULL);
  g_autofree char *session = g_build_filename (f->folder, "session.json", NULL);

  g_assert_true (bl_recording_writer_start (writer, &error));
  g_assert_true (bl_recording_writer_finish (writer, BL_RECORDING_END_DURATION, NULL, &error));
  write_streams (f);

  /* one missing */
  g_assert_cmpint (g_unlink (profile), ==, 0);
  {
    g_autoptr(BlRecording) recording = bl_recording_load (f->file, NULL, &error);

    g_assert_no_error (error);
    g_assert_null (bl_recording_get_profile (recording));
    g_assert_cmpstr (bl_recording_get_stream_error (recording, BL_RECORDING_STREAM_PROFILE),
                     ==, "profile.bsprof is missing from the recording's folder.");
    g_assert_nonnull (bl_recording_get_session (recording));
    g_assert_nonnull (bl_recording_get_trace (recording));
    g_assert_false (bl_recording_get_stream_offset (recording, BL_RECORDING_STREAM_PROFILE,
                                                    NULL));
  }

  /* two missing, and the third an empty file */
  g_assert_cmpint (g_unlink (trace), ==, 0);
  write_file (f->folder, "session.json", "", 0);
  {
    g_autoptr(BlRecording) recording = bl_recording_load (f->file, NULL, &error);
    const char *reason;

    g_assert_no_error (error);
    g_assert_null (bl_recording_get_profile (recording));
    g_assert_null (bl_recording_get_trace (recording));
    g_assert_null (bl_recording_get_session (recording));
    reason = bl_recording_get_stream_error (recording, BL_RECORDING_STREAM_SESSION);
    g_assert_true (g_str_has_prefix (reason, "session.json: "));
    g_assert_nonnull (strstr (bl_recording_get_stream_error (recording,
                                                             BL_RECORDING_STREAM_TRACE),
                              "trace.perfetto-trace is missing"));
  }

  /* a folder without a manifest */
  g_assert_cmpint (g_unlink (session), ==, 0);
  {
    g_autofree char *manifest = g_build_filename (f->folder, "recording.json", NULL);
    g_autoptr(BlRecording) recording = NULL;

    g_assert_cmpint (g_unlink (manifest), ==, 0);
    recording = bl_recording_load (f->file, NULL, &error);
    g_assert_null (recording);
    g_assert_error (error, BL_RECORDING_ERROR, BL_RECORDING_ERROR_NO_MANIFEST);
  }
}

/* Names in the manifest are never followed; a link in place of a stream
 * file is not read either. */
static void
test_paths_stay_inside (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GBytes) bsprof = small_bsprof ();
  g_autoptr(GError) error = NULL;
  g_autoptr(BlRecording) recording = NULL;
  g_autofree char *outside = g_build_filename (f->dir, "outside.bsprof", NULL);
  g_autofree char *link = g_build_filename (f->folder, "session.json", NULL);
  const char *manifest =
    "{\"format\": \"brightlens-recording\", \"version\": 1,"
    " \"streams\": {"
    "  \"profile\": {\"file\": \"../outside.bsprof\", \"recorded\": true},"
    "  \"session\": {\"file\": \"/etc/passwd\"},"
    "  \"trace\": {\"file\": \"trace.perfetto-trace\", \"recorded\": false}}}";

  /* the file the manifest points at exists outside the folder */
  write_file (f->dir, "outside.bsprof", g_bytes_get_data (bsprof, NULL),
              g_bytes_get_size (bsprof));
  write_file (f->folder, "recording.json", manifest, -1);
  g_assert_cmpint (symlink (outside, link), ==, 0);

  recording = bl_recording_load (f->file, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (bl_recording_get_profile (recording));
  g_assert_null (bl_recording_get_session (recording));
  g_assert_cmpstr (bl_recording_get_stream_error (recording, BL_RECORDING_STREAM_PROFILE),
                   ==, "profile.bsprof is missing from the recording's folder.");
  g_assert_cmpstr (bl_recording_get_stream_error (recording, BL_RECORDING_STREAM_SESSION),
                   ==, "session.json is not a regular file, so it was not read.");
  g_assert_nonnull (strstr (bl_recording_get_warning (recording), "../outside.bsprof"));
  g_assert_nonnull (strstr (bl_recording_get_warning (recording), "/etc/passwd"));
}

typedef struct
{
  const char *json;
  gint        code;
  const char *in_message;   /* NULL: any */
} Hostile;

static void
test_hostile_manifests (void)
{
  static const Hostile cases[] = {
    { "", BL_RECORDING_ERROR_NOT_RECORDING, NULL },
    { "{\"format\": \"brightlens-recording\", \"version\": 1,}", BL_RECORDING_ERROR_SYNTAX,
      "not valid JSON" },
    { "{\"format\": \"brightlens-recording\", ", BL_RECORDING_ERROR_SYNTAX, NULL },
    { "[1, 2, 3]", BL_RECORDING_ERROR_NOT_RECORDING, NULL },
    { "{\"device\": {}, \"channel\": {}}", BL_RECORDING_ERROR_NOT_RECORDING, NULL },
    { "{\"format\": 7}", BL_RECORDING_ERROR_NOT_RECORDING, NULL },
    { "{\"format\": \"brightlens-recording\"}", BL_RECORDING_ERROR_TYPE, "“version”" },
    { "{\"format\": \"brightlens-recording\", \"version\": \"1\"}",
      BL_RECORDING_ERROR_TYPE, "“version”" },
    { "{\"format\": \"brightlens-recording\", \"version\": 2}",
      BL_RECORDING_ERROR_VERSION, "version 2" },
    { "{\"format\": \"brightlens-recording\", \"version\": 99999999999999999999}",
      BL_RECORDING_ERROR_TYPE, "“version”" },
    { "{\"format\": \"brightlens-recording\", \"version\": 1, \"device\": []}",
      BL_RECORDING_ERROR_TYPE, "“device”" },
    { "{\"format\": \"brightlens-recording\", \"version\": 1, \"device\": {\"name\": 5}}",
      BL_RECORDING_ERROR_TYPE, "“device.name”" },
    { "{\"format\": \"brightlens-recording\", \"version\": 1, \"app\": {\"id\": true}}",
      BL_RECORDING_ERROR_TYPE, "“app.id”" },
    { "{\"format\": \"brightlens-recording\", \"version\": 1, \"duration_us\": 1e300}",
      BL_RECORDING_ERROR_TYPE, "“duration_us”" },
    { "{\"format\": \"brightlens-recording\", \"version\": 1, "
      "\"duration_us\": 9223372036854775807}",
      BL_RECORDING_ERROR_TYPE, "“duration_us”" },
    { "{\"format\": \"brightlens-recording\", \"version\": 1, \"duration_us\": -5}",
      BL_RECORDING_ERROR_TYPE, "“duration_us”" },
    { "{\"format\": \"brightlens-recording\", \"version\": 1, \"start_time\": \"yesterday\"}",
      BL_RECORDING_ERROR_TYPE, "“start_time”" },
    { "{\"format\": \"brightlens-recording\", \"version\": 1, \"marks\": {}}",
      BL_RECORDING_ERROR_TYPE, "“marks”" },
    { "{\"format\": \"brightlens-recording\", \"version\": 1, \"marks\": [3]}",
      BL_RECORDING_ERROR_TYPE, "“marks[0]”" },
    { "{\"format\": \"brightlens-recording\", \"version\": 1, "
      "\"marks\": [{\"kind\": \"pause\"}]}",
      BL_RECORDING_ERROR_TYPE, "“marks[0].time_us”" },
    { "{\"format\": \"brightlens-recording\", \"version\": 1, "
      "\"marks\": [{\"kind\": \"pause\", \"time_us\": -9223372036854775808}]}",
      BL_RECORDING_ERROR_TYPE, "“marks[0].time_us”" },
    { "{\"format\": \"brightlens-recording\", \"version\": 1, "
      "\"streams\": {\"profile\": {\"recorded\": \"yes\"}}}",
      BL_RECORDING_ERROR_TYPE, "“streams.profile.recorded”" },
    { "{\"format\": \"brightlens-recording\", \"version\": 1, "
      "\"streams\": {\"trace\": {\"first_byte_us\": 1.5}}}",
      BL_RECORDING_ERROR_TYPE, "“streams.trace.first_byte_us”" },
    { "{\"format\": \"brightlens-recording\", \"version\": 1, "
      "\"streams\": {\"trace\": {\"first_byte_us\": -2}}}",
      BL_RECORDING_ERROR_TYPE, "“streams.trace.first_byte_us”" },
    { "{\"format\": \"brightlens-recording\", \"version\": 1, \"streams\": [1]}",
      BL_RECORDING_ERROR_TYPE, "“streams”" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlRecording) recording =
        bl_recording_load_manifest_memory ((const guint8 *) cases[i].json,
                                           strlen (cases[i].json), &error);

      g_test_message ("case %u: %s", i, cases[i].json);
      g_assert_null (recording);
      g_assert_error (error, BL_RECORDING_ERROR, cases[i].code);
      if (cases[i].in_message != NULL)
        g_assert_nonnull (strstr (error->message, cases[i].in_message));
      /* one sentence */
      g_assert_true (g_str_has_suffix (error->message, "."));
      g_assert_null (strchr (error->message, '\n'));
    }
}

/* Forward compatibility: unknown members are ignored, unknown mark kinds
 * and states noted. */
static void
test_lenient (void)
{
  const char *json =
    "{\"format\": \"brightlens-recording\", \"version\": 1, \"future\": [1, {}],"
    " \"state\": \"exploded\", \"device\": null,"
    " \"marks\": [{\"kind\": \"teleport\", \"time_us\": 1},"
    "             {\"kind\": \"pause\", \"time_us\": 7, \"text\": null, \"extra\": 1}]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(BlRecording) recording =
    bl_recording_load_manifest_memory ((const guint8 *) json, strlen (json), &error);
  const BlRecordingMark *marks;
  guint n;

  g_assert_no_error (error);
  g_assert_cmpint (bl_recording_get_info (recording)->end, ==, BL_RECORDING_END_RECORDING);
  g_assert_null (bl_recording_get_info (recording)->device_name);
  marks = bl_recording_get_marks (recording, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (marks[0].time_us, ==, 7);
  g_assert_cmpstr (marks[0].text, ==, "");
  g_assert_nonnull (strstr (bl_recording_get_warning (recording), "exploded"));
  g_assert_nonnull (strstr (bl_recording_get_warning (recording), "1 mark"));
  for (guint s = 0; s < BL_RECORDING_N_STREAMS; s++)
    g_assert_false (bl_recording_has_stream (recording, s));
  g_assert_null (bl_recording_get_folder (recording));
}

/* A folder that cannot be made: one sentence naming it, and nothing
 * written. */
static void
test_unwritable (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *blocker = g_build_filename (f->dir, "file", NULL);
  g_autofree char *inside = g_build_filename (blocker, "rec", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (inside);
  g_autoptr(BlRecordingWriter) writer = bl_recording_writer_new (folder);
  g_autoptr(GError) error = NULL;

  write_file (f->dir, "file", "x", 1);
  g_assert_false (bl_recording_writer_start (writer, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, inside));
  g_assert_true (g_str_has_suffix (error->message, "."));
  g_assert_false (g_file_test (inside, G_FILE_TEST_EXISTS));
}

/* A manifest over 1 MiB is refused before it is parsed. */
static void
test_too_big (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GString) json = g_string_new ("{\"format\": \"brightlens-recording\", "
                                          "\"version\": 1, \"pad\": \"");
  g_autoptr(GError) error = NULL;
  g_autoptr(BlRecording) recording = NULL;

  while (json->len < 1024 * 1024 + 10)
    g_string_append (json, "xxxxxxxxxxxxxxxx");
  g_string_append (json, "\"}");
  write_file (f->folder, "recording.json", json->str, json->len);

  recording = bl_recording_load (f->file, NULL, &error);
  g_assert_null (recording);
  g_assert_error (error, BL_RECORDING_ERROR, BL_RECORDING_ERROR_TOO_BIG);
}

static void
test_detect (void)
{
  const char *manifest = "{\n  \"format\" : \"brightlens-recording\",\n  \"version\" : 1\n}";
  const char *session = "{\"device\": {}, \"channel\": {}, \"metadata\": {}}";

  g_assert_true (bl_recording_detect ((const guint8 *) manifest, strlen (manifest)));
  g_assert_false (bl_recording_detect ((const guint8 *) session, strlen (session)));
  g_assert_false (bl_recording_detect ((const guint8 *) "bsprof\0\0", 8));
  g_assert_false (bl_recording_detect ((const guint8 *) "", 0));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/recording/round-trip", Fixture, NULL, fixture_set_up, test_round_trip,
              fixture_tear_down);
  g_test_add ("/recording/control-characters", Fixture, NULL, fixture_set_up,
              test_control_characters, fixture_tear_down);
  g_test_add ("/recording/cut-off", Fixture, NULL, fixture_set_up, test_cut_off,
              fixture_tear_down);
  g_test_add ("/recording/streams-and-offsets", Fixture, NULL, fixture_set_up,
              test_streams_and_offsets, fixture_tear_down);
  g_test_add ("/recording/missing-files", Fixture, NULL, fixture_set_up, test_missing_files,
              fixture_tear_down);
  g_test_add ("/recording/paths-stay-inside", Fixture, NULL, fixture_set_up,
              test_paths_stay_inside, fixture_tear_down);
  g_test_add ("/recording/too-big", Fixture, NULL, fixture_set_up, test_too_big,
              fixture_tear_down);
  g_test_add ("/recording/unwritable", Fixture, NULL, fixture_set_up, test_unwritable,
              fixture_tear_down);
  g_test_add_func ("/recording/hostile-manifests", test_hostile_manifests);
  g_test_add_func ("/recording/lenient", test_lenient);
  g_test_add_func ("/recording/detect", test_detect);

  return g_test_run ();
}
