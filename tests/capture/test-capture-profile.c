/* test-capture-profile.c — BlProfileStream against the fake Roku
 *
 * The saved .bsprof must be byte for byte what the fake served: whole,
 * in bursts, with pauses, or cut short when the device vanishes (then the
 * reader opens it as an incomplete profile).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "bl-bsprof-shapes.h"
#include "bl-capture-error.h"
#include "bl-fake-roku.h"
#include "bl-model.h"
#include "bl-profile-stream.h"
#include "formats/bl-bsprof-follower.h"

typedef struct
{
  BlFakeRoku      *roku;
  BlDevice        *device;
  BlProfileStream *stream;
  GBytes          *served;
  char            *dir;
  GFile           *output;
} Fixture;

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

static GBytes *
make_profile (guint64 target_bytes)
{
  BlBsprofWriter *w = bl_bsprof_write_shape (BL_BSPROF_SHAPE_TODAY, target_bytes, 17, NULL);
  GBytes *bytes = bl_bsprof_writer_finish (w);

  bl_bsprof_writer_free (w);
  return bytes;
}

/* a small app: main → init, a few hundred measurements */
static GBytes *
small_profile (void)
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
  bl_bsprof_writer_string (w, 4, "init");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 10, 1, 2, 1, 3);
  bl_bsprof_writer_path (w, 11, 10, 5, 2, 20, 4);
  for (guint i = 0; i < 300; i++)
    bl_bsprof_writer_cpu (w, i % 2 == 0 ? 10 : 11, i % 5, 10 + i, 20 + i);
  bl_bsprof_writer_end (w, 1700000009999);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  return bytes;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  BlFakeRokuMode mode = GPOINTER_TO_INT (data);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  f->roku = bl_fake_roku_new (mode, &error);
  g_assert_no_error (error);
  f->served = make_profile (200 * 1024);
  g_assert_cmpuint (g_bytes_get_size (f->served), >, 100 * 1024);
  bl_fake_roku_set_profile (f->roku, f->served, 1000, 1);

  f->dir = g_dir_make_tmp ("test-capture-profile-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (f->dir, "profile.bsprof", NULL);
  f->output = g_file_new_for_path (path);

  f->device = bl_device_new ("127.0.0.1", bl_fake_roku_get_ecp_port (f->roku));
  f->stream = bl_profile_stream_new (f->device, bl_fake_roku_get_profiler_port (f->roku),
                                     bl_fake_roku_get_console_port (f->roku), f->output);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_file_delete (f->output, NULL, NULL);
  g_rmdir (f->dir);
  g_free (f->dir);
  g_clear_object (&f->output);
  g_clear_object (&f->stream);
  g_clear_object (&f->device);
  g_clear_pointer (&f->served, g_bytes_unref);
  bl_fake_roku_free (f->roku);
}

static GBytes *
saved (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = g_file_load_bytes (f->output, NULL, NULL, &error);

  g_assert_no_error (error);
  return bytes;
}

/* the saved file is the first @len bytes served */
static void
assert_saved_prefix (Fixture *f,
                     gsize    len)
{
  g_autoptr(GBytes) file = saved (f);
  g_autoptr(GBytes) expected = g_bytes_new_from_bytes (f->served, 0, len);

  g_assert_cmpuint (g_bytes_get_size (file), ==, len);
  g_assert_true (g_bytes_equal (file, expected));
}

static BlProfile *
load_saved (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  GObject *loaded = bl_format_load_file (f->output, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_true (BL_IS_PROFILE (loaded));
  return BL_PROFILE (loaded);
}

static gboolean
run (Fixture  *f,
     GError  **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  bl_profile_stream_run_async (f->stream, NULL, got_result, &result);
  return bl_profile_stream_run_finish (f->stream, wait_for (&result), error);
}

static void
test_whole (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  gint64 before = g_get_monotonic_time ();

  g_assert_cmpint (bl_profile_stream_get_first_byte_time (f->stream), ==, 0);
  g_assert_true (run (f, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (bl_profile_stream_get_bytes_written (f->stream), ==,
                    g_bytes_get_size (f->served));
  /* when the first byte came, for the recording's time axis */
  g_assert_cmpint (bl_profile_stream_get_first_byte_time (f->stream), >=, before);
  g_assert_cmpint (bl_profile_stream_get_first_byte_time (f->stream), <=,
                   g_get_monotonic_time ());
  assert_saved_prefix (f, g_bytes_get_size (f->served));
  profile = load_saved (f);
  g_assert_false (bl_profile_is_incomplete (profile));
}

static void
test_bursty (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  /* odd chunks, nothing for six ticks, then eleven at once */
  bl_fake_roku_set_profile (f->roku, f->served, 333, 1);
  bl_fake_roku_set_burst (f->roku, 7, 11);
  g_assert_true (run (f, &error));
  g_assert_no_error (error);
  assert_saved_prefix (f, g_bytes_get_size (f->served));
}

static void
test_slow (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) small = small_profile ();

  /* a trickle: 7 bytes at a time */
  g_clear_pointer (&f->served, g_bytes_unref);
  f->served = g_bytes_ref (small);
  bl_fake_roku_set_profile (f->roku, f->served, 7, 1);
  g_assert_true (run (f, &error));
  g_assert_no_error (error);
  assert_saved_prefix (f, g_bytes_get_size (f->served));
}

static char *
command (Fixture           *f,
         BlProfileCommand   cmd,
         GError           **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  bl_profile_stream_command_async (f->stream, cmd, NULL, got_result, &result);
  return bl_profile_stream_command_finish (f->stream, wait_for (&result), error);
}

static void
test_pause_resume (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *paused = NULL;
  g_autofree char *status = NULL;
  g_autofree char *resumed = NULL;
  gint64 before = g_get_real_time ();
  gint64 times[3];
  BlProfileCommand commands[3];
  const char *reply;
  gsize sent;

  bl_fake_roku_set_profile (f->roku, f->served, 1000, 2);
  bl_profile_stream_run_async (f->stream, NULL, got_result, &result);
  while (bl_profile_stream_get_bytes_written (f->stream) == 0)
    g_main_context_iteration (NULL, TRUE);

  paused = command (f, BL_PROFILE_COMMAND_PAUSE, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (paused, ==, "BrightScript profiler paused");
  g_assert_true (bl_fake_roku_get_paused (f->roku));

  /* nothing more comes while paused */
  sent = bl_fake_roku_get_bytes_sent (f->roku);
  g_assert_cmpuint (sent, <, g_bytes_get_size (f->served));
  for (guint i = 0; i < 20; i++)
    {
      g_usleep (2000);
      while (g_main_context_iteration (NULL, FALSE))
        ;
    }
  g_assert_cmpuint (bl_fake_roku_get_bytes_sent (f->roku), ==, sent);
  g_assert_cmpuint (bl_profile_stream_get_bytes_written (f->stream), ==, sent);
  g_assert_null (result);

  status = command (f, BL_PROFILE_COMMAND_STATUS, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (status, "BrightScript profiler paused"));

  resumed = command (f, BL_PROFILE_COMMAND_RESUME, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (resumed, ==, "BrightScript profiler resumed");
  g_assert_false (bl_fake_roku_get_paused (f->roku));

  g_assert_true (bl_profile_stream_run_finish (f->stream, wait_for (&result), &error));
  g_assert_no_error (error);
  assert_saved_prefix (f, g_bytes_get_size (f->served));

  /* three marks, in order, with the replies */
  g_assert_cmpuint (bl_profile_stream_get_n_marks (f->stream), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      bl_profile_stream_get_mark (f->stream, i, &times[i], &commands[i], &reply);
      g_assert_cmpint (times[i], >=, before);
      g_assert_cmpint (times[i], <=, g_get_real_time ());
      if (i > 0)
        g_assert_cmpint (times[i], >=, times[i - 1]);
    }
  g_assert_cmpint (commands[0], ==, BL_PROFILE_COMMAND_PAUSE);
  g_assert_cmpint (commands[1], ==, BL_PROFILE_COMMAND_STATUS);
  g_assert_cmpint (commands[2], ==, BL_PROFILE_COMMAND_RESUME);
  bl_profile_stream_get_mark (f->stream, 2, NULL, NULL, &reply);
  g_assert_cmpstr (reply, ==, "BrightScript profiler resumed");
}

static void
test_vanish (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autofree char *expected = NULL;
  gsize cut = g_bytes_get_size (f->served) / 2 + 123;

  bl_fake_roku_set_vanish_after (f->roku, cut);
  g_assert_false (run (f, &error));
  g_assert_true (bl_fake_roku_get_vanished (f->roku));
  g_assert_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_DISCONNECTED);
  expected = g_strdup_printf ("127.0.0.1 stopped sending the profile after %" G_GSIZE_FORMAT
                              " bytes, which are saved: check that the device is still on "
                              "and on this network.", cut);
  g_assert_cmpstr (error->message, ==, expected);

  assert_saved_prefix (f, cut);
  profile = load_saved (f);
  g_assert_true (bl_profile_is_incomplete (profile));
  g_assert_cmpuint (bl_profile_get_n_nodes (profile), >, 1);
}

static gboolean
stop_later (gpointer user_data)
{
  Fixture *f = user_data;

  if (bl_profile_stream_get_bytes_written (f->stream) < 20000)
    return G_SOURCE_CONTINUE;
  bl_profile_stream_stop (f->stream);
  return G_SOURCE_REMOVE;
}

static void
test_stop (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  guint64 written;

  g_timeout_add (1, stop_later, f);
  g_assert_true (run (f, &error));
  g_assert_no_error (error);

  written = bl_profile_stream_get_bytes_written (f->stream);
  g_assert_cmpuint (written, >=, 20000);
  g_assert_cmpuint (written, <, g_bytes_get_size (f->served));
  assert_saved_prefix (f, written);
  profile = load_saved (f);
  g_assert_true (bl_profile_is_incomplete (profile));
}

static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  bl_profile_stream_run_async (f->stream, cancellable, got_result, &result);
  while (bl_profile_stream_get_bytes_written (f->stream) == 0)
    g_main_context_iteration (NULL, TRUE);
  g_cancellable_cancel (cancellable);
  g_assert_false (bl_profile_stream_run_finish (f->stream, wait_for (&result), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  assert_saved_prefix (f, bl_profile_stream_get_bytes_written (f->stream));
}

static void
test_not_profiling (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (run (f, &error));
  g_assert_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_NOT_PROFILING);
  g_assert_true (g_str_has_prefix (error->message, "127.0.0.1 does not stream a profile on port "));
  g_assert_nonnull (strstr (error->message, "bsprof_data_dest=network"));
  /* a refused stream leaves no file behind */
  g_assert_false (g_file_query_exists (f->output, NULL));
}

static void
test_console_absent (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(BlProfileStream) stream = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = NULL;
  BlFakeRoku *other = bl_fake_roku_new (BL_FAKE_ROKU_NORMAL, &error);
  guint port;

  g_assert_no_error (error);
  port = bl_fake_roku_get_console_port (other);
  bl_fake_roku_free (other);

  stream = bl_profile_stream_new (f->device, 0, port, f->output);
  bl_profile_stream_command_async (stream, BL_PROFILE_COMMAND_PAUSE, NULL, got_result, &result);
  reply = bl_profile_stream_command_finish (stream, wait_for (&result), &error);
  g_assert_null (reply);
  g_assert_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_UNREACHABLE);
  g_assert_true (g_str_has_prefix (error->message, "The debug console of 127.0.0.1 (port "));
  g_assert_nonnull (strstr (error->message, "did not answer bsprof-pause"));
  g_assert_cmpuint (bl_profile_stream_get_n_marks (stream), ==, 0);
}

typedef struct
{
  BlBsprofFollower *follower;
  guint             n_writes;
  guint             n_snapshots;
  guint64           last_cpu;
} Follow;

/* What a live view does as the file grows: read the new bytes, and now
 * and then make a snapshot; the totals only grow. */
static void
on_bytes_written (BlProfileStream *stream,
                  GParamSpec      *pspec,
                  Follow          *follow)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) snapshot = NULL;

  g_assert_true (bl_bsprof_follower_feed_file (follow->follower,
                                               bl_profile_stream_get_output (stream), NULL,
                                               &error));
  g_assert_no_error (error);
  g_assert_cmpuint (bl_bsprof_follower_get_n_bytes (follow->follower), ==,
                    bl_profile_stream_get_bytes_written (stream));
  if (follow->n_writes++ % 16 != 0)
    return;
  snapshot = bl_bsprof_follower_snapshot (follow->follower);
  if (snapshot == NULL)
    return;
  g_assert_cmpuint (bl_profile_get_grand_total (snapshot, BL_METRIC_CPU), >=, follow->last_cpu);
  follow->last_cpu = bl_profile_get_grand_total (snapshot, BL_METRIC_CPU);
  follow->n_snapshots++;
}

static void
test_follow (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) expected = NULL;
  g_autoptr(BlProfile) last = NULL;
  Follow follow = { bl_bsprof_follower_new (), 0, 0, 0 };
  BlMetricId metrics[BL_N_METRICS];
  guint n;

  g_signal_connect (f->stream, "notify::bytes-written", G_CALLBACK (on_bytes_written), &follow);
  g_assert_true (run (f, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (follow.n_snapshots, >, 5);

  /* at the end, the same as reading the whole file */
  expected = bl_bsprof_read_memory (g_bytes_get_data (f->served, NULL),
                                    g_bytes_get_size (f->served), &error);
  g_assert_no_error (error);
  g_assert_true (bl_bsprof_follower_is_complete (follow.follower));
  last = bl_bsprof_follower_snapshot (follow.follower);
  g_assert_false (bl_profile_is_incomplete (last));
  n = bl_profile_list_metrics (expected, metrics);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (bl_profile_get_grand_total (last, metrics[i]), ==,
                      bl_profile_get_grand_total (expected, metrics[i]));
  g_assert_cmpuint (bl_profile_get_n_nodes (last), ==, bl_profile_get_n_nodes (expected));
  g_object_unref (follow.follower);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, mode, func) \
  g_test_add ("/capture/profile/" path, Fixture, GINT_TO_POINTER (mode), \
              fixture_setup, func, fixture_teardown)

  ADD ("whole", BL_FAKE_ROKU_NORMAL, test_whole);
  ADD ("follow", BL_FAKE_ROKU_NORMAL, test_follow);
  ADD ("bursty", BL_FAKE_ROKU_NORMAL, test_bursty);
  ADD ("slow", BL_FAKE_ROKU_NORMAL, test_slow);
  ADD ("pause-resume", BL_FAKE_ROKU_NORMAL, test_pause_resume);
  ADD ("vanish", BL_FAKE_ROKU_NORMAL, test_vanish);
  ADD ("stop", BL_FAKE_ROKU_NORMAL, test_stop);
  ADD ("cancel", BL_FAKE_ROKU_NORMAL, test_cancel);
  ADD ("not-profiling", BL_FAKE_ROKU_NOT_PROFILING, test_not_profiling);
  ADD ("console-absent", BL_FAKE_ROKU_NORMAL, test_console_absent);

  return g_test_run ();
}
