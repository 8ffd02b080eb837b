/* test-write-behind.c — the output stream that writes from a thread of its own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gunixoutputstream.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "bl-write-behind.h"

/* A stream below that takes @room bytes, then fails with "no space" (and
 * counts what it was asked to write after that). */
#define TEST_TYPE_FULL_STREAM (test_full_stream_get_type ())
G_DECLARE_FINAL_TYPE (TestFullStream, test_full_stream, TEST, FULL_STREAM, GOutputStream)

struct _TestFullStream
{
  GOutputStream parent_instance;
  gsize         room;
  gsize         taken;
  guint         calls_after_full;
  gboolean      closed;
};

G_DEFINE_FINAL_TYPE (TestFullStream, test_full_stream, G_TYPE_OUTPUT_STREAM)

static gssize
full_write (GOutputStream  *stream,
            const void     *buffer,
            gsize           count,
            GCancellable   *cancellable,
            GError        **error)
{
  TestFullStream *self = TEST_FULL_STREAM (stream);
  gsize n = MIN (count, self->room - self->taken);

  if (n == 0)
    {
      self->calls_after_full++;
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "No space left on device");
      return -1;
    }
  self->taken += n;

  return n;
}

static gboolean
full_close (GOutputStream  *stream,
            GCancellable   *cancellable,
            GError        **error)
{
  TEST_FULL_STREAM (stream)->closed = TRUE;

  return TRUE;
}

static void
test_full_stream_class_init (TestFullStreamClass *klass)
{
  G_OUTPUT_STREAM_CLASS (klass)->write_fn = full_write;
  G_OUTPUT_STREAM_CLASS (klass)->close_fn = full_close;
}

static void
test_full_stream_init (TestFullStream *self)
{
}

static guint8 *
pattern (gsize len)
{
  guint8 *data = g_malloc (len);
  guint32 x = 2463534242u;

  for (gsize i = 0; i < len; i++)
    {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      data[i] = (guint8) x;
    }

  return data;
}

/* writes of every size, from one byte to several blocks, arrive in order;
 * a flush puts everything so far below; close closes the stream below */
static void
test_bytes_in_order (void)
{
  const gsize total = 9 * 1024 * 1024 + 12345;
  g_autofree guint8 *data = pattern (total);
  g_autoptr(GOutputStream) mem = g_memory_output_stream_new_resizable ();
  g_autoptr(GOutputStream) out = bl_write_behind_new (mem, TRUE);
  g_autoptr(GError) error = NULL;
  gsize at = 0, n = 1;
  gboolean flushed = FALSE;

  while (at < total)
    {
      gsize len = MIN (n, total - at);

      g_assert_true (g_output_stream_write_all (out, data + at, len, NULL, NULL, &error));
      g_assert_no_error (error);
      at += len;
      n = n * 3 + 1;          /* 1, 4, 13, … past a block, then again */
      if (n > 3 * 1024 * 1024)
        n = 1;

      if (!flushed && at > 2 * 1024 * 1024)
        {
          g_assert_true (g_output_stream_flush (out, NULL, &error));
          g_assert_no_error (error);
          g_assert_cmpuint (g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (mem)),
                            ==, at);
          g_assert_cmpmem (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (mem)), at,
                           data, at);
          flushed = TRUE;
        }
    }
  g_assert_true (flushed);

  g_assert_true (g_output_stream_close (out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_is_closed (mem));
  g_assert_cmpuint (g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (mem)), ==, total);
  g_assert_cmpmem (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (mem)), total,
                   data, total);
  g_assert_true (bl_write_behind_get_base (BL_WRITE_BEHIND (out)) == mem);
}

/* the stream below's error is every later call's, the close's at the
 * latest; nothing more is asked of it once it failed */
static void
test_error_reported (void)
{
  g_autofree guint8 *data = pattern (64 * 1024);
  TestFullStream *full = g_object_new (TEST_TYPE_FULL_STREAM, NULL);
  g_autoptr(GOutputStream) out = bl_write_behind_new (G_OUTPUT_STREAM (full), TRUE);
  g_autoptr(GError) error = NULL;
  gboolean failed = FALSE;

  full->room = 3 * 1024 * 1024 + 7;
  /* 20 MB: the thread fails after 3 MB, and some write here sees it */
  for (guint i = 0; i < 320 && !failed; i++)
    failed = !g_output_stream_write_all (out, data, 64 * 1024, NULL, NULL, &error);
  if (failed)
    {
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
      g_clear_error (&error);
    }
  g_assert_false (g_output_stream_close (out, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_assert_cmpuint (full->taken, ==, full->room);
  g_assert_cmpuint (full->calls_after_full, ==, 1);
  g_assert_true (full->closed);

  g_object_unref (full);
}

/* a stream below that is not closed with it stays open; an error flushing
 * shows in the flush */
static void
test_keep_base_open (void)
{
  g_autofree guint8 *data = pattern (100);
  g_autoptr(GOutputStream) mem = g_memory_output_stream_new_resizable ();
  g_autoptr(GOutputStream) out = bl_write_behind_new (mem, FALSE);
  g_autoptr(GError) error = NULL;
  TestFullStream *full = g_object_new (TEST_TYPE_FULL_STREAM, NULL);
  g_autoptr(GOutputStream) to_full = bl_write_behind_new (G_OUTPUT_STREAM (full), FALSE);

  g_assert_true (g_output_stream_write_all (out, data, 100, NULL, NULL, &error));
  g_assert_true (g_output_stream_close (out, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (g_output_stream_is_closed (mem));
  g_assert_cmpuint (g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (mem)), ==, 100);

  full->room = 10;
  g_assert_true (g_output_stream_write_all (to_full, data, 100, NULL, NULL, &error));
  g_assert_false (g_output_stream_flush (to_full, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_clear_error (&error);
  g_assert_false (g_output_stream_close (to_full, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_assert_false (full->closed);
  g_object_unref (full);
}

/* a cancelled write says so; a stream dropped without a close still writes
 * what it was given (GOutputStream closes it) and its thread ends */
static void
test_cancel_and_drop (void)
{
  g_autofree guint8 *data = pattern (5 * 1024 * 1024);
  g_autoptr(GOutputStream) mem = g_memory_output_stream_new_resizable ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  GOutputStream *out = bl_write_behind_new (mem, FALSE);

  g_cancellable_cancel (cancellable);
  g_assert_cmpint (g_output_stream_write (out, data, 10, cancellable, &error), ==, -1);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  g_assert_true (g_output_stream_write_all (out, data, 5 * 1024 * 1024, NULL, NULL, NULL));
  g_object_unref (out);
  g_assert_cmpuint (g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (mem)),
                    ==, 5 * 1024 * 1024);
  g_assert_cmpmem (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (mem)),
                   5 * 1024 * 1024, data, 5 * 1024 * 1024);
}

/* with the disk handed each block as it is written: a file gets every
 * byte; a descriptor that is no file (a pipe) only loses the head start */
static void
test_writeback (void)
{
  const gsize total = 6 * 1024 * 1024 + 99;
  g_autofree guint8 *data = pattern (total);
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gsize len = 0;
  int fd = g_file_open_tmp ("bl-write-behind-XXXXXX", &path, &error);
  int pipe_fds[2];

  g_assert_no_error (error);
  {
    g_autoptr(GOutputStream) file = g_unix_output_stream_new (fd, TRUE);
    g_autoptr(GOutputStream) out = bl_write_behind_new (file, TRUE);

    bl_write_behind_start_writeback (BL_WRITE_BEHIND (out), fd);
    g_assert_true (g_output_stream_write_all (out, data, total, NULL, NULL, &error));
    g_assert_true (g_output_stream_close (out, NULL, &error));
    g_assert_no_error (error);
  }
  g_assert_true (g_file_get_contents (path, &contents, &len, &error));
  g_assert_cmpmem (contents, len, data, total);
  g_unlink (path);

  g_assert_cmpint (pipe (pipe_fds), ==, 0);
  {
    g_autoptr(GOutputStream) to_pipe = g_unix_output_stream_new (pipe_fds[1], TRUE);
    g_autoptr(GOutputStream) out = bl_write_behind_new (to_pipe, TRUE);
    char got[5] = { 0 };

    bl_write_behind_start_writeback (BL_WRITE_BEHIND (out), pipe_fds[1]);
    g_assert_true (g_output_stream_write_all (out, "pipe", 4, NULL, NULL, &error));
    g_assert_true (g_output_stream_close (out, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpint (read (pipe_fds[0], got, 4), ==, 4);
    g_assert_cmpstr (got, ==, "pipe");
    close (pipe_fds[0]);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/write-behind/bytes-in-order", test_bytes_in_order);
  g_test_add_func ("/model/write-behind/error", test_error_reported);
  g_test_add_func ("/model/write-behind/keep-base-open", test_keep_base_open);
  g_test_add_func ("/model/write-behind/cancel-and-drop", test_cancel_and_drop);
  g_test_add_func ("/model/write-behind/writeback", test_writeback);

  return g_test_run ();
}
