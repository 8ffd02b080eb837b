/* test-bsprof-follower.c — the .bsprof follower against the whole-file
 * reader on every prefix of a stream, fed in random pieces
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "bl-bsprof-shapes.h"
#include "bl-bsprof-writer.h"
#include "bl-model.h"
#include "formats/bl-bsprof-follower.h"

static char *
folded (BlProfile  *profile,
        BlMetricId  metric)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_assert_true (bl_folded_write (profile, metric, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, &error));
  g_output_stream_close (out, NULL, NULL);

  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
}

/* The snapshot equals the reader's profile: every metric's folded stacks
 * and grand total, the per-line values, the info, the reasons. */
static void
assert_same (BlProfile *expected,
             BlProfile *actual)
{
  BlMetricId metrics[BL_N_METRICS];
  BlMetricId actual_metrics[BL_N_METRICS];
  guint n = bl_profile_list_metrics (expected, metrics);

  g_assert_cmpuint (bl_profile_list_metrics (actual, actual_metrics), ==, n);
  g_assert_cmpmem (metrics, n * sizeof (BlMetricId), actual_metrics, n * sizeof (BlMetricId));
  g_assert_cmpuint (bl_profile_get_n_nodes (actual), ==, bl_profile_get_n_nodes (expected));
  g_assert_cmpuint (bl_profile_get_n_lines (actual), ==, bl_profile_get_n_lines (expected));

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *want = folded (expected, metrics[i]);
      g_autofree char *got = folded (actual, metrics[i]);

      g_assert_cmpstr (got, ==, want);
      g_assert_cmpuint (bl_profile_get_grand_total (actual, metrics[i]), ==,
                        bl_profile_get_grand_total (expected, metrics[i]));
      for (guint l = 0; l < bl_profile_get_n_lines (expected); l++)
        g_assert_cmpuint (bl_profile_get_line_value (actual, metrics[i], l), ==,
                          bl_profile_get_line_value (expected, metrics[i], l));
    }

  g_assert_cmpuint (bl_profile_get_info (actual)->end_ms, ==,
                    bl_profile_get_info (expected)->end_ms);
  g_assert_cmpuint (bl_profile_get_info (actual)->start_ms, ==,
                    bl_profile_get_info (expected)->start_ms);
  g_assert_cmpstr (bl_profile_get_info (actual)->target, ==,
                   bl_profile_get_info (expected)->target);
  g_assert_cmpint (bl_profile_is_incomplete (actual), ==, bl_profile_is_incomplete (expected));
  g_assert_cmpstr (bl_profile_get_incomplete_reason (actual), ==,
                   bl_profile_get_incomplete_reason (expected));
  g_assert_cmpstr (bl_profile_get_warning (actual), ==, bl_profile_get_warning (expected));
}

/* What the reader makes of the first @len bytes, compared with @snapshot
 * (NULL: the header is not whole, the reader must fail on a truncated
 * header). */
static void
check_prefix (const guint8 *data,
              gsize         len,
              BlProfile    *snapshot)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) expected = bl_bsprof_read_memory (data, len, &error);

  if (snapshot == NULL)
    {
      g_assert_null (expected);
      g_assert_nonnull (error);
      g_assert_true (error->domain == BL_BSPROF_ERROR || error->domain == BL_FORMAT_ERROR);
      return;
    }

  g_assert_no_error (error);
  g_assert_nonnull (expected);
  assert_same (expected, snapshot);
}

/* A small stream with everything the decoder handles: lines, memory
 * (allocations, frees, a realloc free, a free of an unknown address, a
 * block allocated again without a free), CPU, calls, two threads, a
 * redefined path element. */
static GBytes *
small_stream (gboolean trailing)
{
  BlBsprofHeader h;
  BlBsprofWriter *w;
  GBytes *bytes;

  bl_bsprof_header_init (&h);
  h.lines = TRUE;
  h.memory = TRUE;
  h.target = "Grid App";
  h.start_ms = 1700000000123;
  h.padding = 3;
  w = bl_bsprof_writer_new (&h);

  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "main");
  bl_bsprof_writer_string (w, 4, "init");
  bl_bsprof_writer_string (w, 5, "loadConfig");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 10, 1, 2, 1, 3);
  bl_bsprof_writer_path (w, 11, 10, 5, 2, 20, 4);
  bl_bsprof_writer_cpu (w, 10, 2, 100, 150);
  bl_bsprof_writer_calls (w, 11, 3);
  bl_bsprof_writer_alloc (w, 11, 1, 0x1000, 64);
  bl_bsprof_writer_alloc (w, 11, 2, 0x2000, 128);
  bl_bsprof_writer_string (w, 6, "FetchTask");
  bl_bsprof_writer_string (w, 7, "pkg:/components/FetchTask.brs");
  bl_bsprof_writer_string (w, 8, "fetch with a rather long name so that its entry spans "
                                 "many bytes");
  bl_bsprof_writer_module (w, 2, 6);
  bl_bsprof_writer_root (w, 20, 2, 7, 1, 8);
  bl_bsprof_writer_path (w, 12, 11, 3, 2, 40, 5);
  bl_bsprof_writer_cpu (w, 12, 1, 2500000, 2600000);
  bl_bsprof_writer_free_op (w, 11, 3, 0x1000, FALSE);
  bl_bsprof_writer_free_op (w, 12, 1, 0x9999, FALSE);
  bl_bsprof_writer_alloc (w, 20, 4, 0x2000, 256);
  bl_bsprof_writer_alloc (w, 20, 4, G_GUINT64_CONSTANT (0x7f0000001000), 1 << 20);
  bl_bsprof_writer_free_op (w, 20, 5, 0x2000, TRUE);
  bl_bsprof_writer_calls (w, 20, 7);
  /* id 12 again: a new record under main */
  bl_bsprof_writer_path (w, 12, 10, 9, 2, 60, 4);
  bl_bsprof_writer_cpu (w, 12, 2, 5, 6);
  bl_bsprof_writer_alloc (w, 12, 1, 0x3000, 32);
  bl_bsprof_writer_end (w, 1700000009999);
  if (trailing)
    bl_bsprof_writer_bytes (w, "junk", 4);

  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  return bytes;
}

/* Feeds data[0..len) in random pieces of 1..max_piece bytes; with
 * @check_each, compares a snapshot with the reader after every piece. */
static BlBsprofFollower *
feed_pieces (const guint8 *data,
             gsize         len,
             gsize         max_piece,
             gboolean      check_each)
{
  BlBsprofFollower *follower = bl_bsprof_follower_new ();
  gsize at = 0;

  while (at < len)
    {
      g_autoptr(GError) error = NULL;
      gsize piece = g_test_rand_int_range (1, (gint32) max_piece + 1);

      piece = MIN (piece, len - at);

      g_assert_true (bl_bsprof_follower_feed (follower, data + at, piece, &error));
      g_assert_no_error (error);
      at += piece;
      g_assert_cmpuint (bl_bsprof_follower_get_n_bytes (follower), ==, at);

      if (check_each)
        {
          g_autoptr(BlProfile) snapshot = bl_bsprof_follower_snapshot (follower);

          check_prefix (data, at, snapshot);
        }
    }

  return follower;
}

/* Cut at every byte offset, fed in random pieces: the last snapshot
 * equals the reader's profile of the same prefix. */
static void
test_every_prefix (gconstpointer user_data)
{
  gboolean trailing = GPOINTER_TO_INT (user_data);
  g_autoptr(GBytes) bytes = small_stream (trailing);
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);

  for (gsize len = 0; len <= size; len++)
    {
      g_autoptr(BlBsprofFollower) follower = feed_pieces (data, len, 17, FALSE);
      g_autoptr(BlProfile) snapshot = bl_bsprof_follower_snapshot (follower);

      g_test_message ("prefix of %" G_GSIZE_FORMAT " bytes out of %" G_GSIZE_FORMAT, len, size);
      check_prefix (data, len, snapshot);
      g_assert_cmpint (bl_bsprof_follower_is_complete (follower), ==,
                       snapshot != NULL && !bl_profile_is_incomplete (snapshot));
    }
}

/* Snapshots along the way leave the decoder as it was: one follower,
 * a snapshot after every piece, each equal to the reader on the bytes so
 * far, the last one equal to the whole file's. */
static void
test_snapshots_along_the_way (void)
{
  g_autoptr(GBytes) bytes = small_stream (FALSE);
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);

  for (guint round = 0; round < 20; round++)
    {
      g_autoptr(BlBsprofFollower) follower = feed_pieces (data, size, 1 + round * 3, TRUE);
      g_autoptr(BlProfile) last = bl_bsprof_follower_snapshot (follower);

      g_assert_true (bl_bsprof_follower_is_complete (follower));
      g_assert_false (bl_profile_is_incomplete (last));
      check_prefix (data, size, last);
    }
}

/* A real-sized stream, where the decoder's batched loop does the work. */
static void
test_big_stream (void)
{
  BlBsprofWriter *w = bl_bsprof_write_shape (BL_BSPROF_SHAPE_TODAY, 600 * 1024, 7, NULL);
  g_autoptr(GBytes) bytes = bl_bsprof_writer_finish (w);
  g_autoptr(BlBsprofFollower) follower = NULL;
  g_autoptr(BlProfile) last = NULL;
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);

  bl_bsprof_writer_free (w);
  follower = feed_pieces (data, size, 96 * 1024, TRUE);
  last = bl_bsprof_follower_snapshot (follower);
  g_assert_false (bl_profile_is_incomplete (last));
  g_assert_cmpuint (bl_bsprof_follower_get_n_entries (follower), >, 1000);
  check_prefix (data, size, last);
}

/* Bytes that are not a .bsprof: one sentence, and the follower keeps
 * what it had and refuses more. */
static void
test_broken_stream (void)
{
  g_autoptr(GBytes) bytes = small_stream (FALSE);
  g_autoptr(BlBsprofFollower) follower = bl_bsprof_follower_new ();
  g_autoptr(BlBsprofFollower) not_bsprof = bl_bsprof_follower_new ();
  g_autoptr(BlProfile) before = NULL;
  g_autoptr(BlProfile) after = NULL;
  g_autoptr(GError) error = NULL;
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  const guint8 bad_entry[] = { 0x07, 0x01 };   /* entry type 7 */
  gsize cut = size / 2;

  g_assert_true (bl_bsprof_follower_feed (follower, data, cut, NULL));
  before = bl_bsprof_follower_snapshot (follower);
  g_assert_nonnull (before);
  g_assert_false (bl_bsprof_follower_feed (not_bsprof, (const guint8 *) "not a bsprof file", 17,
                                           &error));
  g_assert_error (error, BL_BSPROF_ERROR, BL_BSPROF_ERROR_BAD_MAGIC);
  g_clear_error (&error);
  g_assert_false (bl_bsprof_follower_feed (not_bsprof, data, size, &error));
  g_assert_error (error, BL_BSPROF_ERROR, BL_BSPROF_ERROR_BAD_MAGIC);
  g_clear_error (&error);
  g_assert_null (bl_bsprof_follower_snapshot (not_bsprof));

  /* an unknown entry type after whole entries */
  {
    g_autoptr(BlBsprofFollower) follower2 = bl_bsprof_follower_new ();
    gsize body_end = size - 1 - 6;   /* before the end marker and the footer */
    g_autoptr(BlProfile) good = NULL;

    g_assert_true (bl_bsprof_follower_feed (follower2, data, body_end, NULL));
    good = bl_bsprof_follower_snapshot (follower2);
    g_assert_false (bl_bsprof_follower_feed (follower2, bad_entry, sizeof bad_entry, &error));
    g_assert_nonnull (error);
    g_assert_true (error->domain == BL_BSPROF_ERROR);
    g_assert_nonnull (strstr (error->message, "byte"));
    g_clear_error (&error);
    g_assert_false (bl_bsprof_follower_feed (follower2, data, 4, &error));
    g_assert_nonnull (error);
    after = bl_bsprof_follower_snapshot (follower2);
    g_assert_nonnull (after);
    g_assert_cmpuint (bl_profile_get_grand_total (after, BL_METRIC_CPU), ==,
                      bl_profile_get_grand_total (good, BL_METRIC_CPU));
  }
}

/* Following the file on disk as it grows: only the new bytes are read. */
static void
test_feed_file (void)
{
  g_autoptr(GBytes) bytes = small_stream (FALSE);
  g_autoptr(BlBsprofFollower) follower = bl_bsprof_follower_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("bl-follower-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "profile.bsprof", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  FILE *out;

  g_assert_no_error (error);
  out = fopen (path, "wb");
  g_assert_nonnull (out);

  for (gsize at = 0; at < size;)
    {
      g_autoptr(BlProfile) snapshot = NULL;
      gsize piece = g_test_rand_int_range (1, 40);

      piece = MIN (piece, size - at);
      g_assert_cmpuint (fwrite (data + at, 1, piece, out), ==, piece);
      fflush (out);
      at += piece;
      g_assert_true (bl_bsprof_follower_feed_file (follower, file, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (bl_bsprof_follower_get_n_bytes (follower), ==, at);
      snapshot = bl_bsprof_follower_snapshot (follower);
      check_prefix (data, at, snapshot);
    }
  fclose (out);

  g_assert_true (bl_bsprof_follower_is_complete (follower));
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/bsprof-follower/every-prefix", GINT_TO_POINTER (FALSE),
                        test_every_prefix);
  g_test_add_data_func ("/bsprof-follower/every-prefix-trailing", GINT_TO_POINTER (TRUE),
                        test_every_prefix);
  g_test_add_func ("/bsprof-follower/snapshots-along-the-way", test_snapshots_along_the_way);
  g_test_add_func ("/bsprof-follower/big-stream", test_big_stream);
  g_test_add_func ("/bsprof-follower/broken-stream", test_broken_stream);
  g_test_add_func ("/bsprof-follower/feed-file", test_feed_file);

  return g_test_run ();
}
