/* test-capture-trace.c — BlTraceStream against the fake Roku
 *
 * The saved .perfetto-trace must be byte for byte what the fake sent on
 * its trace socket, whether the app ends the session, the user stops it,
 * a heap graph comes in between, or the device vanishes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "bl-capture-error.h"
#include "bl-fake-roku.h"
#include "bl-model.h"
#include "bl-perfetto-writer.h"
#include "bl-trace-stream.h"

typedef struct
{
  BlFakeRoku    *roku;
  BlDevice      *device;
  BlTraceStream *stream;
  GBytes        *trace;
  GBytes        *heap;
  char          *dir;
  GFile         *output;
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

/* a main thread calling @n nested-then-closed slices */
static GBytes *
make_trace (guint n)
{
  BlPbWriter *w = bl_pbw_new ();
  GBytes *bytes;

  bl_pftw_thread_track (w, 1, 100, 101, "main");
  for (guint i = 0; i < n; i++)
    {
      bl_pftw_event (w, 1, 1000000 + i * 1000, 1, 1, i % 3 == 0 ? "onKeyEvent" : "render");
      bl_pftw_event (w, 1, 1000000 + i * 1000 + 500, 2, 1, NULL);
    }
  bytes = bl_pbw_steal (w);
  bl_pbw_free (w);

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
  f->trace = make_trace (2000);
  f->heap = make_trace (7);
  g_assert_cmpuint (g_bytes_get_size (f->trace), >, 20000);
  bl_fake_roku_set_trace (f->roku, f->trace, f->heap, 997, 1, TRUE);

  f->dir = g_dir_make_tmp ("test-capture-trace-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (f->dir, "trace.perfetto-trace", NULL);
  f->output = g_file_new_for_path (path);

  f->device = bl_device_new ("127.0.0.1", bl_fake_roku_get_ecp_port (f->roku));
  f->stream = bl_trace_stream_new (f->device, NULL, f->output);
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
  g_clear_pointer (&f->trace, g_bytes_unref);
  g_clear_pointer (&f->heap, g_bytes_unref);
  bl_fake_roku_free (f->roku);
}

/* the file is exactly what the fake sent */
static GBytes *
assert_saved_sent (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) sent = bl_fake_roku_dup_trace_sent (f->roku);
  GBytes *file = g_file_load_bytes (f->output, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (file), ==, g_bytes_get_size (sent));
  g_assert_true (g_bytes_equal (file, sent));
  g_assert_cmpuint (bl_trace_stream_get_bytes_written (f->stream), ==, g_bytes_get_size (file));
  return file;
}

static void
test_whole (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) file = NULL;
  g_autoptr(GObject) loaded = NULL;

  bl_trace_stream_run_async (f->stream, NULL, got_result, &result);
  g_assert_true (bl_trace_stream_run_finish (f->stream, wait_for (&result), &error));
  g_assert_no_error (error);
  file = assert_saved_sent (f);
  g_assert_true (g_bytes_equal (file, f->trace));
  g_assert_cmpint (bl_trace_stream_get_first_byte_time (f->stream), >, 0);
  g_assert_cmpint (bl_trace_stream_get_first_byte_time (f->stream), <=, g_get_monotonic_time ());

  /* the saved trace opens */
  loaded = bl_format_load_file (f->output, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (loaded);
}

static void
test_heap_graph (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) triggered = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) file = NULL;
  gsize size = g_bytes_get_size (f->trace) + g_bytes_get_size (f->heap);

  bl_trace_stream_run_async (f->stream, NULL, got_result, &result);
  while (bl_trace_stream_get_bytes_written (f->stream) == 0)
    g_main_context_iteration (NULL, TRUE);

  bl_trace_stream_heap_graph_async (f->stream, NULL, got_result, &triggered);
  g_assert_true (bl_trace_stream_heap_graph_finish (f->stream, wait_for (&triggered), &error));
  g_assert_no_error (error);

  g_assert_true (bl_trace_stream_run_finish (f->stream, wait_for (&result), &error));
  g_assert_no_error (error);
  file = assert_saved_sent (f);
  g_assert_cmpuint (g_bytes_get_size (file), ==, size);
  /* the heap graph came in one piece, between parts of the trace */
  {
    const guint8 *p = g_bytes_get_data (file, NULL);
    gsize heap_len = g_bytes_get_size (f->heap);
    gboolean found = FALSE;

    for (gsize i = 1; i + heap_len < size && !found; i++)
      found = memcmp (p + i, g_bytes_get_data (f->heap, NULL), heap_len) == 0;
    g_assert_true (found);
  }
}

static gboolean
stop_later (gpointer user_data)
{
  Fixture *f = user_data;

  if (bl_trace_stream_get_bytes_written (f->stream) < 5000)
    return G_SOURCE_CONTINUE;
  bl_trace_stream_stop (f->stream);
  return G_SOURCE_REMOVE;
}

static void
test_stop (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) file = NULL;

  /* an app that keeps running: only the stop ends it */
  bl_fake_roku_set_trace (f->roku, f->trace, NULL, 97, 2, FALSE);
  bl_trace_stream_run_async (f->stream, NULL, got_result, &result);
  g_timeout_add (1, stop_later, f);
  g_assert_true (bl_trace_stream_run_finish (f->stream, wait_for (&result), &error));
  g_assert_no_error (error);
  file = assert_saved_sent (f);
  g_assert_cmpuint (g_bytes_get_size (file), >=, 5000);
  g_assert_cmpuint (g_bytes_get_size (file), <, g_bytes_get_size (f->trace));
}

static void
test_vanish (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) file = NULL;
  g_autofree char *expected = NULL;

  bl_fake_roku_set_trace (f->roku, f->trace, NULL, 97, 2, FALSE);
  bl_trace_stream_run_async (f->stream, NULL, got_result, &result);
  while (bl_trace_stream_get_bytes_written (f->stream) < 3000)
    g_main_context_iteration (NULL, TRUE);
  bl_fake_roku_vanish (f->roku);

  g_assert_false (bl_trace_stream_run_finish (f->stream, wait_for (&result), &error));
  g_assert_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_DISCONNECTED);
  file = assert_saved_sent (f);
  expected = g_strdup_printf ("127.0.0.1 stopped sending the trace after %" G_GSIZE_FORMAT
                              " bytes, which are saved: check that the device is still on "
                              "and on this network.", g_bytes_get_size (file));
  g_assert_cmpstr (error->message, ==, expected);
}

static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) file = NULL;

  bl_fake_roku_set_trace (f->roku, f->trace, NULL, 97, 2, FALSE);
  bl_trace_stream_run_async (f->stream, cancellable, got_result, &result);
  while (bl_trace_stream_get_bytes_written (f->stream) == 0)
    g_main_context_iteration (NULL, TRUE);
  g_cancellable_cancel (cancellable);
  g_assert_false (bl_trace_stream_run_finish (f->stream, wait_for (&result), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  /* what was written is a prefix of what was sent */
  {
    g_autoptr(GBytes) sent = bl_fake_roku_dup_trace_sent (f->roku);
    gsize n = bl_trace_stream_get_bytes_written (f->stream);

    file = g_file_load_bytes (f->output, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (g_bytes_get_size (file), ==, n);
    g_assert_cmpuint (n, <=, g_bytes_get_size (sent));
    g_assert_cmpmem (g_bytes_get_data (file, NULL), n, g_bytes_get_data (sent, NULL), n);
  }
}

static void
test_limited (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  bl_trace_stream_run_async (f->stream, NULL, got_result, &result);
  g_assert_false (bl_trace_stream_run_finish (f->stream, wait_for (&result), &error));
  g_assert_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_LIMITED);
  g_assert_false (g_file_query_exists (f->output, NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, mode, func) \
  g_test_add ("/capture/trace/" path, Fixture, GINT_TO_POINTER (mode), \
              fixture_setup, func, fixture_teardown)

  ADD ("whole", BL_FAKE_ROKU_NORMAL, test_whole);
  ADD ("heap-graph", BL_FAKE_ROKU_NORMAL, test_heap_graph);
  ADD ("stop", BL_FAKE_ROKU_NORMAL, test_stop);
  ADD ("vanish", BL_FAKE_ROKU_NORMAL, test_vanish);
  ADD ("cancel", BL_FAKE_ROKU_NORMAL, test_cancel);
  ADD ("limited", BL_FAKE_ROKU_LIMITED, test_limited);

  return g_test_run ();
}
