/* bench-perfetto.c — decode speed and memory of the Perfetto trace reader,
 * and the heap analysis on a large graph
 *
 * bench-perfetto [SIZE_MB [HEAP_OBJECTS [PATH]]]: writes a trace of about
 * SIZE_MB of slices plus one heap graph of HEAP_OBJECTS objects to PATH
 * (default: a temporary file, removed afterwards), then prints
 *   - a bare pass over the same bytes' varints (the peer),
 *   - the decode (everything the reader does, heap graphs parsed into
 *     BlHeap's arrays, without their analysis), and its peak RSS,
 *   - the analysis of the decoded heap graph (bl_heap_finish()), and the
 *     peak RSS of decode and analysis together,
 *   - dominators and retained sizes of a HEAP_OBJECTS graph built alone.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bl-model.h"
#include "bl-heap.h"
#include "bl-perfetto-private.h"
#include "bl-perfetto-reader.h"
#include "bl-perfetto-writer.h"

#define N_TRACKS 8
#define N_NAMES  400
#define OBJECTS_PER_PACKET 20000

static guint64
peak_rss_kib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

/* CPU seconds of this process: on a shared machine the wall clock also
 * counts the time other processes held the cores */
static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
flush (BlPbWriter *w,
       FILE       *out,
       guint64    *written)
{
  g_autoptr (GBytes) bytes = bl_pbw_steal (w);
  gsize len;
  const void *data = g_bytes_get_data (bytes, &len);

  g_assert_cmpuint (fwrite (data, 1, len, out), ==, len);
  *written += len;
}

static void
write_trace (const char *path,
             guint64     size_bytes,
             guint32     n_objects)
{
  FILE *out = fopen (path, "wb");
  BlPbWriter *w = bl_pbw_new ();
  GRand *rand = g_rand_new_with_seed (42);
  guint64 written = 0, ts = 1000;
  guint depth[N_TRACKS] = { 0 };

  g_assert_nonnull (out);

  for (guint t = 0; t < N_TRACKS; t++)
    {
      g_autofree char *name = g_strdup_printf ("Thread %u", t);

      bl_pftw_thread_track (w, 100 + t, 1, 10 + t, name);
    }
  /* interned names on each track's sequence */
  for (guint t = 0; t < N_TRACKS; t++)
    {
      bl_pbw_begin (w, 1);
      bl_pbw_varint (w, 10, 1 + t);
      bl_pbw_varint (w, 13, 1);
      bl_pbw_begin (w, 12);
      for (guint i = 0; i < N_NAMES; i++)
        {
          g_autofree char *name = g_strdup_printf ("roSGNode.function_%u", i);

          bl_pbw_begin (w, 2);
          bl_pbw_varint (w, 1, i + 1);
          bl_pbw_string (w, 2, name);
          bl_pbw_end (w);
        }
      bl_pbw_end (w);
      bl_pbw_begin (w, 59);
      bl_pbw_begin (w, 11);
      bl_pbw_varint (w, 11, 100 + t);
      bl_pbw_end (w);
      bl_pbw_end (w);
      bl_pbw_end (w);
    }
  flush (w, out, &written);

  while (written < size_bytes)
    {
      for (guint k = 0; k < 10000; k++)
        {
          guint t = g_rand_int_range (rand, 0, N_TRACKS);
          gboolean begin = depth[t] == 0 || (depth[t] < 30 && g_rand_boolean (rand));

          ts += g_rand_int_range (rand, 1, 2000);
          bl_pbw_begin (w, 1);
          bl_pbw_varint (w, 8, ts);
          bl_pbw_varint (w, 10, 1 + t);
          bl_pbw_begin (w, 11);
          bl_pbw_varint (w, 9, begin ? 1 : 2);
          if (begin)
            bl_pbw_varint (w, 10, g_rand_int_range (rand, 1, N_NAMES + 1));
          bl_pbw_end (w);
          bl_pbw_end (w);
          depth[t] += begin ? 1 : -1;
        }
      flush (w, out, &written);
    }

  /* one heap graph, continued over packets */
  for (guint32 first = 0; first < n_objects; first += OBJECTS_PER_PACKET)
    {
      bl_pbw_begin (w, 1);
      bl_pbw_varint (w, 10, 99);
      bl_pbw_begin (w, 56);
      if (first == 0)
        {
          for (guint i = 0; i < 200; i++)
            {
              g_autofree char *name = g_strdup_printf ("Type%u", i);

              bl_pbw_begin (w, 9);
              bl_pbw_varint (w, 1, i + 1);
              bl_pbw_string (w, 3, name);
              bl_pbw_end (w);
            }
          bl_pbw_begin (w, 4);
          bl_pbw_varint (w, 1, 1);
          bl_pbw_string (w, 2, "next");
          bl_pbw_end (w);
          bl_pbw_begin (w, 7);
          for (guint i = 0; i < 1000; i++)
            bl_pbw_varint (w, 1, 1 + i * (n_objects / 1000));
          bl_pbw_end (w);
        }
      for (guint32 i = first; i < MIN (n_objects, first + OBJECTS_PER_PACKET); i++)
        {
          guint8 fields[2] = { 1, 1 };
          guint8 targets[16];
          gsize tlen = 0;
          guint64 refs[2] = { 1 + (i + 1) % n_objects,
                              1 + g_rand_int_range (rand, 0, n_objects) };

          for (guint r = 0; r < 2; r++)
            {
              guint64 v = refs[r];

              do
                {
                  guint8 b = v & 0x7f;

                  v >>= 7;
                  targets[tlen++] = b | (v != 0 ? 0x80 : 0);
                }
              while (v != 0);
            }
          bl_pbw_begin (w, 2);
          bl_pbw_varint (w, i == first ? 1 : 7, i == first ? i + 1 : 1);
          bl_pbw_varint (w, 2, 1 + i % 200);
          bl_pbw_varint (w, 3, 16 + i % 64);
          bl_pbw_bytes (w, 4, fields, 2);
          bl_pbw_bytes (w, 5, targets, tlen);
          bl_pbw_end (w);
        }
      bl_pbw_varint (w, 5, first + OBJECTS_PER_PACKET < n_objects);
      bl_pbw_end (w);
      bl_pbw_end (w);
      flush (w, out, &written);
    }

  bl_pbw_free (w);
  g_rand_free (rand);
  fclose (out);
}

/* The peer: one pass decoding every varint of the file, nothing else. */
static guint64
bare_varint_pass (const char *path)
{
  FILE *in = fopen (path, "rb");
  static guint8 buffer[4 * 1024 * 1024];
  guint64 sum = 0, v = 0;
  guint shift = 0;
  size_t n;

  while ((n = fread (buffer, 1, sizeof buffer, in)) > 0)
    for (size_t i = 0; i < n; i++)
      {
        v |= (guint64) (buffer[i] & 0x7f) << (shift & 63);
        shift += 7;
        if ((buffer[i] & 0x80) == 0)
          {
            sum += v;
            v = 0;
            shift = 0;
          }
      }
  fclose (in);

  return sum;
}

int
main (int    argc,
      char **argv)
{
  guint64 size_mb = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 200;
  guint32 n_objects = argc > 2 ? (guint32) g_ascii_strtoull (argv[2], NULL, 10) : 5000000;
  g_autofree char *path = NULL;
  gboolean remove_after = argc <= 3;
  g_autoptr (GFile) file = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GObject) loaded = NULL;
  const BlPerfettoTrace *trace;
  GStatBuf st;
  double t_bare = G_MAXDOUBLE, t_decode, t_analysis, t_heap;
  double c_bare = G_MAXDOUBLE, c_decode, c_analysis, c_heap, c0;
  gint64 t0;
  guint64 rss_before, rss_decode, rss_after;
  volatile guint64 sink = 0;

  path = argc > 3 ? g_strdup (argv[3]) : g_build_filename (g_get_tmp_dir (), "bench-perfetto.pftrace", NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS) || remove_after)
    write_trace (path, size_mb * 1024 * 1024, n_objects);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  printf ("trace: %.1f MB, %u heap objects, %d tracks\n", st.st_size / 1048576.0, n_objects, N_TRACKS);

  for (guint r = 0; r < 3; r++)
    {
      t0 = g_get_monotonic_time ();
      c0 = cpu_seconds ();
      sink += bare_varint_pass (path);
      c_bare = MIN (c_bare, cpu_seconds () - c0);
      t_bare = MIN (t_bare, (g_get_monotonic_time () - t0) / 1e6);
    }

  /* decode: everything the reader does, the heap graphs parsed into
   * BlHeap's arrays, without their analysis */
  rss_before = peak_rss_kib ();
  file = g_file_new_for_path (path);
  t0 = g_get_monotonic_time ();
  c0 = cpu_seconds ();
  {
    g_autoptr (GFileInputStream) in = g_file_read (file, NULL, &error);

    g_assert_no_error (error);
    loaded = G_OBJECT (bl_perfetto_read_stream_full (G_INPUT_STREAM (in), st.st_size, FALSE,
                                                     NULL, NULL, NULL, &error));
  }
  c_decode = cpu_seconds () - c0;
  t_decode = (g_get_monotonic_time () - t0) / 1e6;
  rss_decode = peak_rss_kib ();
  g_assert_no_error (error);
  trace = bl_perfetto_get_trace (BL_PROFILE (loaded));

  /* the analysis of what the decode left: dominators, retained sizes,
   * leaks, cycles */
  t0 = g_get_monotonic_time ();
  c0 = cpu_seconds ();
  for (guint i = 0; i < trace->heaps->len; i++)
    bl_heap_finish (g_ptr_array_index (trace->heaps, i));
  c_analysis = cpu_seconds () - c0;
  t_analysis = (g_get_monotonic_time () - t0) / 1e6;
  rss_after = peak_rss_kib ();

  printf ("bare varint pass: %.2f s (CPU %.2f s)\n", t_bare, c_bare);
  printf ("decode (slices, counters, heap graph into BlHeap's arrays; no analysis): "
          "%.2f s = %.2f× the bare pass (CPU %.2f s = %.2f×)\n",
          t_decode, t_decode / t_bare, c_decode, c_decode / c_bare);
  printf ("  %" G_GUINT64_FORMAT " slices, %u heap graph(s)\n", trace->n_slices, trace->heaps->len);
  printf ("heap analysis of the decoded graph(s) (bl_heap_finish): %.2f s (CPU %.2f s)\n",
          t_analysis, c_analysis);
  printf ("peak RSS: decode %.0f MB, decode + analysis %.0f MB (before decoding %.0f MB); "
          "file %.0f MB\n",
          rss_decode / 1024.0, rss_after / 1024.0, rss_before / 1024.0, st.st_size / 1048576.0);
  g_clear_object (&loaded);

  /* dominators and retained sizes alone */
  {
    g_autoptr (BlHeap) heap = bl_heap_new ();
    GRand *rand = g_rand_new_with_seed (7);
    guint32 field = bl_heap_intern_field (heap, "next");

    for (guint i = 0; i < 200; i++)
      bl_heap_add_type (heap, "Type");
    for (guint32 i = 0; i < n_objects; i++)
      bl_heap_add_object (heap, i % 200, 16 + i % 64);
    for (guint32 i = 0; i < n_objects; i++)
      {
        bl_heap_add_reference (heap, i, field, (i + 1) % n_objects);
        bl_heap_add_reference (heap, i, field, g_rand_int_range (rand, 0, n_objects));
      }
    for (guint i = 0; i < 1000; i++)
      bl_heap_add_root (heap, i * (n_objects / 1000));
    g_rand_free (rand);

    t0 = g_get_monotonic_time ();
    c0 = cpu_seconds ();
    bl_heap_finish (heap);
    bl_heap_analyse (heap, NULL);
    c_heap = cpu_seconds () - c0;
    t_heap = (g_get_monotonic_time () - t0) / 1e6;
    printf ("heap analysis of %u objects, %u references (dominators, retained, leaks): "
            "%.2f s (CPU %.2f s)\n", n_objects, 2 * n_objects, t_heap, c_heap);
  }

  if (remove_after)
    g_unlink (path);
  (void) sink;

  return 0;
}
