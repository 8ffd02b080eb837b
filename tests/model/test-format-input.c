/* test-format-input.c — bl_format_load_stream() on inputs that are not
 * plain seekable files: streams that cannot seek and hand out a few bytes
 * per read, and compressed files, whose progress counts compressed bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "bl-bsprof-writer.h"
#include "bl-model.h"

static GBytes *
make_bsprof (guint n_entries)
{
  BlBsprofHeader h;
  BlBsprofWriter *w;
  GBytes *bytes;
  GRand *rand;

  bl_bsprof_header_init (&h);
  h.target = "Input App";
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "main");
  bl_bsprof_writer_string (w, 4, "draw");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 3);
  bl_bsprof_writer_path (w, 2, 1, 2, 2, 10, 4);
  /* values from a fixed-seed generator, so that the file does not compress
   * to nothing */
  rand = g_rand_new_with_seed (42);
  for (guint i = 0; i < n_entries; i++)
    bl_bsprof_writer_cpu (w, 1 + g_rand_int_range (rand, 0, 2), g_rand_int_range (rand, 1, 500),
                          g_rand_int_range (rand, 1, 1 << 20), g_rand_int_range (rand, 1, 1 << 24));
  g_rand_free (rand);
  bl_bsprof_writer_end (w, 60000);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  return bytes;
}

/* A stream that cannot seek and returns at most a few bytes per read, as a
 * slow pipe does. */
#define BL_TYPE_TRICKLE_STREAM (bl_trickle_stream_get_type ())
G_DECLARE_FINAL_TYPE (BlTrickleStream, bl_trickle_stream, BL, TRICKLE_STREAM, GInputStream)

struct _BlTrickleStream
{
  GInputStream  parent_instance;
  GBytes       *bytes;
  gsize         pos;
};

G_DEFINE_FINAL_TYPE (BlTrickleStream, bl_trickle_stream, G_TYPE_INPUT_STREAM)

static gssize
bl_trickle_stream_read (GInputStream  *stream,
                        void          *buffer,
                        gsize          count,
                        GCancellable  *cancellable,
                        GError       **error)
{
  BlTrickleStream *self = BL_TRICKLE_STREAM (stream);
  gsize n = MIN (MIN (count, 7), g_bytes_get_size (self->bytes) - self->pos);

  memcpy (buffer, (const guint8 *) g_bytes_get_data (self->bytes, NULL) + self->pos, n);
  self->pos += n;

  return n;
}

static void
bl_trickle_stream_finalize (GObject *object)
{
  g_bytes_unref (BL_TRICKLE_STREAM (object)->bytes);

  G_OBJECT_CLASS (bl_trickle_stream_parent_class)->finalize (object);
}

static void
bl_trickle_stream_class_init (BlTrickleStreamClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = bl_trickle_stream_finalize;
  G_INPUT_STREAM_CLASS (klass)->read_fn = bl_trickle_stream_read;
}

static void
bl_trickle_stream_init (BlTrickleStream *self)
{
}

static GInputStream *
trickle (GBytes *bytes)
{
  BlTrickleStream *self = g_object_new (BL_TYPE_TRICKLE_STREAM, NULL);

  self->bytes = g_bytes_ref (bytes);

  return G_INPUT_STREAM (self);
}

static GBytes *
gzip (GBytes *bytes)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 1);
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(GOutputStream) out = g_converter_output_stream_new (memory, G_CONVERTER (compressor));

  g_assert_true (g_output_stream_write_all (out, g_bytes_get_data (bytes, NULL),
                                            g_bytes_get_size (bytes), NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (out, NULL, NULL));

  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (memory));
}

static void
assert_same_profile (GObject *a,
                     GObject *b)
{
  g_assert_true (BL_IS_PROFILE (a));
  g_assert_true (BL_IS_PROFILE (b));
  g_assert_cmpuint (bl_profile_get_n_nodes (BL_PROFILE (a)), ==,
                    bl_profile_get_n_nodes (BL_PROFILE (b)));
  g_assert_cmpuint (bl_profile_get_grand_total (BL_PROFILE (a), BL_METRIC_CPU), ==,
                    bl_profile_get_grand_total (BL_PROFILE (b), BL_METRIC_CPU));
  g_assert_cmpuint (bl_profile_get_grand_total (BL_PROFILE (a), BL_METRIC_CPU), >, 0);
}

static void
test_trickle (void)
{
  g_autoptr(GBytes) bytes = make_bsprof (3000);
  g_autoptr(GBytes) packed = gzip (bytes);
  const char *folded = "main;load;parse 42\nmain;draw 7\n";
  g_autoptr(GBytes) folded_bytes = g_bytes_new_static (folded, strlen (folded));
  g_autoptr(GObject) plain = NULL;
  g_autoptr(GObject) slow = NULL;
  g_autoptr(GObject) slow_packed = NULL;
  g_autoptr(GObject) slow_folded = NULL;
  g_autoptr(GInputStream) s1 = trickle (bytes);
  g_autoptr(GInputStream) s2 = trickle (packed);
  g_autoptr(GInputStream) s3 = trickle (folded_bytes);
  g_autoptr(GError) error = NULL;

  g_assert_false (G_IS_SEEKABLE (s1));
  plain = bl_format_load_bytes (bytes, &error);
  g_assert_no_error (error);

  slow = bl_format_load_stream (s1, 0, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_same_profile (plain, slow);

  slow_packed = bl_format_load_stream (s2, 0, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_same_profile (plain, slow_packed);

  slow_folded = bl_format_load_stream (s3, 0, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (bl_profile_get_grand_total (BL_PROFILE (slow_folded), BL_METRIC_SAMPLES),
                    ==, 49);
}

typedef struct
{
  guint64 last_done;
  guint64 total;
  guint   n_reports;
  gboolean monotonic;
} Progress;

static void
record_progress (guint64  done,
                 guint64  total,
                 gpointer user_data)
{
  Progress *p = user_data;

  if (done < p->last_done || done > total)
    p->monotonic = FALSE;
  p->last_done = done;
  p->total = total;
  p->n_reports++;
}

static void
test_compressed_progress (void)
{
  g_autoptr(GBytes) bytes = make_bsprof (400000);
  g_autoptr(GBytes) packed = gzip (bytes);
  g_autofree char *dir = g_dir_make_tmp ("bl-format-input-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "profile.gz", NULL);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GObject) loaded = NULL;
  g_autoptr(GObject) plain = NULL;
  g_autoptr(GError) error = NULL;
  Progress progress = { 0, 0, 0, TRUE };

  /* several progress intervals of compressed data, more of decompressed */
  g_assert_cmpuint (g_bytes_get_size (packed), >, 1024 * 1024);
  g_assert_cmpuint (g_bytes_get_size (bytes), >, g_bytes_get_size (packed));
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (packed, NULL),
                                      g_bytes_get_size (packed), NULL));
  file = g_file_new_for_path (path);

  loaded = bl_format_load_file (file, record_progress, &progress, NULL, &error);
  g_assert_no_error (error);
  plain = bl_format_load_bytes (bytes, &error);
  g_assert_no_error (error);
  assert_same_profile (plain, loaded);

  /* against the file's size, in compressed bytes, never past it */
  g_assert_cmpuint (progress.n_reports, >, 2);
  g_assert_true (progress.monotonic);
  g_assert_cmpuint (progress.total, ==, g_bytes_get_size (packed));
  g_assert_cmpuint (progress.last_done, >=, g_bytes_get_size (packed) / 2);

  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/format/trickle", test_trickle);
  g_test_add_func ("/model/format/compressed-progress", test_compressed_progress);

  return g_test_run ();
}
