/* test-perfetto.c — the Perfetto trace reader on traces written by hand
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "bl-folded.h"
#include "bl-format.h"
#include "bl-perfetto-private.h"
#include "bl-perfetto-reader.h"
#include "bl-perfetto-writer.h"

static BlProfile *
load (GBytes  *bytes,
      GError **error)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  return bl_perfetto_read_memory (data, len, error);
}

static BlProfile *
load_ok (BlPbWriter *w)
{
  g_autoptr (GBytes) bytes = bl_pbw_steal (w);
  g_autoptr (GError) error = NULL;
  BlProfile *profile = load (bytes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (profile);
  bl_pbw_free (w);

  return profile;
}

static char *
folded (BlProfile *profile)
{
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr (GError) error = NULL;
  char zero = 0;

  g_assert_true (bl_folded_write (profile, BL_METRIC_TIME_NS, out, NULL, &error));
  g_assert_no_error (error);
  g_output_stream_write (out, &zero, 1, NULL, NULL);
  g_output_stream_close (out, NULL, NULL);

  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
}

static void
assert_folded (BlProfile  *profile,
               const char *expected)
{
  g_autofree char *text = folded (profile);

  g_assert_cmpstr (text, ==, expected);
}

/* nested slices on a thread track: self times, thread name, spans */
static void
test_slices (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (BlProfile) profile = NULL;
  const BlPerfettoTrace *trace;
  BlSpanList list;
  const BlSpan *spans;
  gsize n_spans;

  bl_pftw_thread_track (w, 10, 1, 42, "render");
  bl_pftw_event (w, 1, 1000, 1, 10, "frame");
  bl_pftw_event (w, 1, 1100, 1, 10, "layout");
  bl_pftw_event (w, 1, 1400, 2, 10, NULL);
  bl_pftw_event (w, 1, 1500, 1, 10, "paint");
  bl_pftw_event (w, 1, 1600, 2, 10, NULL);
  bl_pftw_event (w, 1, 2000, 2, 10, NULL);
  bl_pftw_event (w, 1, 2100, 1, 10, "frame");
  bl_pftw_event (w, 1, 2200, 2, 10, NULL);
  profile = load_ok (w);

  g_assert_cmpstr (bl_profile_get_info (profile)->format, ==, "perfetto");
  g_assert_false (bl_profile_is_incomplete (profile));
  g_assert_cmpuint (bl_profile_get_n_threads (profile), ==, 1);
  g_assert_cmpstr (bl_profile_get_thread_name (profile, 0), ==, "render");
  /* frame: 1000 + 100 - 300 - 100 = 600 + 100 */
  assert_folded (profile,
                 "render;frame 700\n"
                 "render;frame;layout 300\n"
                 "render;frame;paint 100\n");
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_TIME_NS), ==, 1100);

  bl_profile_get_spans (profile, 0, &list);
  spans = list.spans;
  n_spans = list.n_spans;
  g_assert_cmpuint (n_spans, ==, 4);
  g_assert_cmpuint (spans[0].start, ==, 1000);
  g_assert_cmpuint (bl_span_list_get_end (&list, 0), ==, 2000);
  g_assert_cmpuint (bl_span_list_get_depth (&list, 1), ==, 2);
  g_assert_cmpuint (spans[3].start, ==, 2100);

  trace = bl_perfetto_get_trace (profile);
  g_assert_nonnull (trace);
  g_assert_cmpuint (trace->n_slices, ==, 4);
  g_assert_cmpuint (trace->n_packets, ==, 9);
}

/* events out of order in the file are sorted by timestamp, ties in file order;
 * unnamed thread tracks are "Thread TID"; custom tracks use their name */
static void
test_order_and_names (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (BlProfile) profile = NULL;

  bl_pftw_thread_track (w, 1, 5, 77, NULL);
  bl_pftw_named_track (w, 2, 1, "network");
  bl_pftw_event (w, 1, 500, 1, 1, "b");
  bl_pftw_event (w, 1, 100, 1, 1, "a");
  bl_pftw_event (w, 1, 500, 2, 1, NULL);   /* tie with b's begin: after it */
  bl_pftw_event (w, 1, 900, 2, 1, NULL);
  bl_pftw_event (w, 1, 10, 1, 2, "fetch");
  bl_pftw_event (w, 1, 30, 2, 2, NULL);
  profile = load_ok (w);

  assert_folded (profile,
                 "Thread 77;a 800\n"
                 "network;fetch 20\n");
}

/* a slice open at the end closes at the trace's last track-event timestamp,
 * and does not make the trace incomplete */
static void
test_open_slice (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (BlProfile) profile = NULL;

  bl_pftw_thread_track (w, 1, 5, 7, "main");
  bl_pftw_named_track (w, 2, 0, "other");
  bl_pftw_event (w, 1, 100, 1, 1, "load");
  bl_pftw_event (w, 1, 150, 1, 1, "parse");
  bl_pftw_event (w, 1, 400, 3, 2, "tick");
  profile = load_ok (w);

  g_assert_false (bl_profile_is_incomplete (profile));
  assert_folded (profile,
                 "main;load 50\n"
                 "main;load;parse 250\n");
  g_assert_cmpuint (bl_perfetto_get_trace (profile)->n_instants, ==, 1);
}

/* interned names, defaults, and state cleared by incremental_state_cleared */
static void
test_interning (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (BlProfile) profile = NULL;

  bl_pftw_thread_track (w, 3, 1, 2, "worker");

  /* packet: clear state, interned names 1=alpha 2=beta, default track 3 */
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 9);
  bl_pbw_varint (w, 13, 1);
  bl_pbw_begin (w, 12);
  bl_pbw_begin (w, 2);
  bl_pbw_varint (w, 1, 1);
  bl_pbw_string (w, 2, "alpha");
  bl_pbw_end (w);
  bl_pbw_begin (w, 2);
  bl_pbw_varint (w, 1, 2);
  bl_pbw_string (w, 2, "beta");
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pbw_begin (w, 59);
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 11, 3);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pbw_end (w);

  for (guint i = 0; i < 2; i++)
    {
      bl_pbw_begin (w, 1);
      bl_pbw_varint (w, 8, 1000 + i * 100);
      bl_pbw_varint (w, 10, 9);
      bl_pbw_begin (w, 11);
      bl_pbw_varint (w, 9, 1);
      bl_pbw_varint (w, 10, i + 1);
      bl_pbw_end (w);
      bl_pbw_end (w);
    }
  bl_pftw_event (w, 9, 1150, 2, 0, NULL);
  bl_pftw_event (w, 9, 1300, 2, 0, NULL);

  /* state cleared again: iid 1 is now "gamma" */
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 9);
  bl_pbw_varint (w, 41, 1);
  bl_pbw_begin (w, 12);
  bl_pbw_begin (w, 2);
  bl_pbw_varint (w, 1, 1);
  bl_pbw_string (w, 2, "gamma");
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 8, 2000);
  bl_pbw_varint (w, 10, 9);
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 9, 1);
  bl_pbw_varint (w, 11, 3);
  bl_pbw_varint (w, 10, 1);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pftw_event (w, 9, 2010, 2, 3, NULL);
  profile = load_ok (w);

  assert_folded (profile,
                 "worker;alpha 250\n"
                 "worker;alpha;beta 50\n"
                 "worker;gamma 10\n");
}

/* a sequence-scoped incremental clock in microseconds */
static void
test_incremental_clock (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (BlProfile) profile = NULL;
  guint64 deltas[] = { 0, 5, 3 };
  guint32 types[] = { 1, 1, 2 };

  bl_pftw_thread_track (w, 4, 1, 2, "t");
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 2);
  bl_pbw_varint (w, 41, 1);
  bl_pbw_begin (w, 6);
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 1, 6);
  bl_pbw_varint (w, 2, 1000000);
  bl_pbw_end (w);
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 1, 64);
  bl_pbw_varint (w, 2, 100);     /* 100 µs = boottime 1 000 000 ns */
  bl_pbw_varint (w, 3, 1);
  bl_pbw_varint (w, 4, 1000);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pbw_begin (w, 59);
  bl_pbw_varint (w, 58, 64);
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 11, 4);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pbw_end (w);

  for (guint i = 0; i < G_N_ELEMENTS (deltas); i++)
    {
      bl_pbw_begin (w, 1);
      bl_pbw_varint (w, 8, deltas[i]);
      bl_pbw_varint (w, 10, 2);
      bl_pbw_begin (w, 11);
      bl_pbw_varint (w, 9, types[i]);
      bl_pbw_string (w, 23, i == 0 ? "outer" : "inner");
      bl_pbw_end (w);
      bl_pbw_end (w);
    }
  /* absolute boottime timestamp on the same sequence */
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 8, 1020000);
  bl_pbw_varint (w, 58, 6);
  bl_pbw_varint (w, 10, 2);
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 9, 2);
  bl_pbw_end (w);
  bl_pbw_end (w);
  profile = load_ok (w);

  /* outer at 1 000 000, inner 1 005 000 … 1 008 000, outer ends 1 020 000 */
  assert_folded (profile,
                 "t;outer 17000\n"
                 "t;outer;inner 3000\n");
}

/* packets inside compressed_packets decode with their own fields */
static void
test_compressed (void)
{
  BlPbWriter *inner = bl_pbw_new ();
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (GBytes) packets = NULL;
  g_autoptr (BlProfile) profile = NULL;

  bl_pftw_thread_track (inner, 8, 1, 3, "zipped");
  bl_pftw_event (inner, 1, 10, 1, 8, "x");
  bl_pftw_event (inner, 1, 40, 2, 8, NULL);
  packets = bl_pbw_steal (inner);
  bl_pbw_free (inner);

  bl_pftw_compressed (w, packets);
  bl_pftw_event (w, 1, 50, 1, 8, "y");
  bl_pftw_event (w, 1, 55, 2, 8, NULL);
  profile = load_ok (w);

  assert_folded (profile, "zipped;x 30\nzipped;y 5\n");
}

/* counters: integer, double, incremental with multiplier, extra counter values */
static void
test_counters (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (BlProfile) profile = NULL;
  const BlPerfettoTrace *trace;
  const BlPerfettoCounter *mem, *fps, *bytes;

  bl_pftw_counter_track (w, 20, "memory", 1, FALSE);
  bl_pftw_counter_track (w, 21, "fps", 1, FALSE);
  bl_pftw_counter_track (w, 22, "bytes", 2, TRUE);
  bl_pftw_counter (w, 1, 300, 20, 7);
  bl_pftw_counter (w, 1, 100, 20, -5);
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 8, 200);
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 9, 4);
  bl_pbw_varint (w, 11, 21);
  bl_pbw_double (w, 44, 59.5);
  bl_pbw_end (w);
  bl_pbw_end (w);
  /* an instant with extra counter values for track 22 (packed) */
  for (guint i = 0; i < 2; i++)
    {
      guint8 packed_uuid[] = { 22 };
      guint8 packed_value[] = { 10 };

      bl_pbw_begin (w, 1);
      bl_pbw_varint (w, 8, 400 + i);
      bl_pbw_begin (w, 11);
      bl_pbw_varint (w, 9, 3);
      bl_pbw_varint (w, 11, 21);
      bl_pbw_string (w, 23, "mark");
      bl_pbw_bytes (w, 31, packed_uuid, 1);
      bl_pbw_bytes (w, 12, packed_value, 1);
      bl_pbw_end (w);
      bl_pbw_end (w);
    }
  profile = load_ok (w);
  trace = bl_perfetto_get_trace (profile);

  g_assert_cmpuint (trace->counters->len, ==, 3);
  mem = g_ptr_array_index (trace->counters, 0);
  fps = g_ptr_array_index (trace->counters, 1);
  bytes = g_ptr_array_index (trace->counters, 2);
  g_assert_cmpstr (mem->name, ==, "memory");
  g_assert_cmpstr (mem->unit, ==, "MB");
  g_assert_cmpuint (mem->points->len, ==, 2);
  g_assert_cmpuint (g_array_index (mem->points, BlPerfettoPoint, 0).ts, ==, 100);
  g_assert_cmpfloat (g_array_index (mem->points, BlPerfettoPoint, 0).value, ==, -5);
  g_assert_cmpfloat (g_array_index (mem->points, BlPerfettoPoint, 1).value, ==, 7);
  g_assert_cmpfloat (g_array_index (fps->points, BlPerfettoPoint, 0).value, ==, 59.5);
  g_assert_cmpuint (bytes->points->len, ==, 2);
  g_assert_cmpfloat (g_array_index (bytes->points, BlPerfettoPoint, 1).value, ==, 40);
  g_assert_cmpuint (trace->n_instants, ==, 2);
  g_assert_cmpuint (trace->instants->len, ==, 2);
  g_assert_cmpstr (bl_profile_get_string (profile,
                                          g_array_index (trace->instants, BlPerfettoInstant, 0).name),
                   ==, "mark");
}

/* debug annotations and flows, legacy thread descriptors, process names */
static void
test_annotations_flows (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (BlProfile) profile = NULL;
  const BlPerfettoTrace *trace;
  const BlPerfettoAnnotation *annotation;
  const BlPerfettoFlow *flow;

  bl_pftw_thread_track (w, 1, 1, 11, "a");
  bl_pftw_thread_track (w, 2, 1, 12, "b");
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 8, 100);
  bl_pbw_varint (w, 10, 1);
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 9, 1);
  bl_pbw_varint (w, 11, 1);
  bl_pbw_string (w, 23, "send");
  bl_pbw_begin (w, 4);
  bl_pbw_string (w, 10, "size");
  bl_pbw_varint (w, 4, 12);
  bl_pbw_end (w);
  bl_pbw_begin (w, 4);
  bl_pbw_string (w, 10, "url");
  bl_pbw_string (w, 6, "http://x");
  bl_pbw_end (w);
  bl_pbw_fixed64 (w, 47, 555);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pftw_event (w, 1, 150, 2, 1, NULL);
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 8, 200);
  bl_pbw_varint (w, 10, 1);
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 9, 1);
  bl_pbw_varint (w, 11, 2);
  bl_pbw_string (w, 23, "receive");
  bl_pbw_fixed64 (w, 48, 555);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pftw_event (w, 1, 260, 2, 2, NULL);

  /* a legacy thread descriptor: events without a track go to its thread */
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 5);
  bl_pbw_begin (w, 44);
  bl_pbw_varint (w, 1, 1);
  bl_pbw_varint (w, 2, 99);
  bl_pbw_string (w, 5, "legacy");
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pftw_event (w, 5, 300, 1, 0, "old");
  bl_pftw_event (w, 5, 301, 2, 0, NULL);

  /* a process track named by its process descriptor */
  bl_pbw_begin (w, 1);
  bl_pbw_begin (w, 60);
  bl_pbw_varint (w, 1, 30);
  bl_pbw_begin (w, 3);
  bl_pbw_varint (w, 1, 1);
  bl_pbw_string (w, 6, "dev.channel");
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pftw_event (w, 1, 400, 1, 30, "boot");
  bl_pftw_event (w, 1, 404, 2, 30, NULL);
  profile = load_ok (w);
  trace = bl_perfetto_get_trace (profile);

  assert_folded (profile,
                 "a;send 50\n"
                 "b;receive 60\n"
                 "dev.channel;boot 4\n"
                 "legacy;old 1\n");
  g_assert_cmpuint (trace->n_annotations, ==, 2);
  g_assert_cmpuint (trace->annotations->len, ==, 1);
  annotation = g_ptr_array_index (trace->annotations, 0);
  g_assert_cmpstr (annotation->text, ==, "size=12, url=http://x");
  g_assert_cmpuint (trace->flows->len, ==, 1);
  flow = &g_array_index (trace->flows, BlPerfettoFlow, 0);
  g_assert_cmpuint (flow->id, ==, 555);
  g_assert_cmpuint (flow->from_thread, !=, flow->to_thread);
  g_assert_cmpstr (bl_profile_get_thread_name (profile, flow->to_thread), ==, "b");
}

static void
heap_object (BlPbWriter    *w,
             guint64        id,
             guint64        type,
             guint64        size,
             const guint64 *fields,
             const guint64 *targets,
             guint          n_refs)
{
  g_autoptr (GByteArray) packed_fields = g_byte_array_new ();
  g_autoptr (GByteArray) packed_targets = g_byte_array_new ();

  for (guint i = 0; i < n_refs; i++)
    {
      guint8 f = (guint8) fields[i], t = (guint8) targets[i];   /* small ids: one byte */

      g_byte_array_append (packed_fields, &f, 1);
      g_byte_array_append (packed_targets, &t, 1);
    }
  bl_pbw_begin (w, 2);
  bl_pbw_varint (w, 1, id);
  bl_pbw_varint (w, 2, type);
  if (size != 0)
    bl_pbw_varint (w, 3, size);
  if (n_refs > 0)
    {
      bl_pbw_bytes (w, 4, packed_fields->data, packed_fields->len);
      bl_pbw_bytes (w, 5, packed_targets->data, packed_targets->len);
    }
  bl_pbw_end (w);
}

static void
heap_name (BlPbWriter *w,
           guint32     field,
           guint64     iid,
           const char *name)
{
  bl_pbw_begin (w, field);
  bl_pbw_varint (w, 1, iid);
  bl_pbw_string (w, field == 9 ? 3 : 2, name);
  if (field == 9)
    bl_pbw_varint (w, 4, 8);   /* object_size: used when self_size is 0 */
  bl_pbw_end (w);
}

/* a heap graph over three packets: types, field names, objects, roots; a
 * leaked pair held by $unreachable; a reference to an undefined object */
static void
test_heap_graph (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (BlProfile) profile = NULL;
  const BlPerfettoTrace *trace;
  BlHeap *heap;
  guint n_cycles;
  const BlHeapCycle *cycles;
  const guint64 domain_fields[] = { 1, 2 }, domain_targets[] = { 2, 3 };
  const guint64 a_fields[] = { 3 }, a_targets[] = { 4 };
  const guint64 b_fields[] = { 4, 3 }, b_targets[] = { 3, 99 };

  /* packet 1: names and the domain object */
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 7);
  bl_pbw_begin (w, 56);
  bl_pbw_varint (w, 1, 1);
  heap_name (w, 9, 1, "Domain");
  heap_name (w, 9, 2, "roAssociativeArray");
  heap_name (w, 4, 1, "Object live");
  heap_name (w, 4, 2, "Object $unreachable");
  heap_name (w, 4, 3, "next");
  heap_name (w, 4, 4, "prev");
  heap_object (w, 1, 1, 100, domain_fields, domain_targets, 2);
  bl_pbw_varint (w, 5, 1);
  bl_pbw_end (w);
  bl_pbw_end (w);
  /* packet 2: objects (4's self size comes from its type) */
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 7);
  bl_pbw_begin (w, 56);
  heap_object (w, 2, 2, 10, NULL, NULL, 0);
  heap_object (w, 3, 2, 20, a_fields, a_targets, 1);
  heap_object (w, 4, 2, 0, b_fields, b_targets, 2);
  bl_pbw_varint (w, 5, 1);
  bl_pbw_end (w);
  bl_pbw_end (w);
  /* packet 3: roots, end of the dump */
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 7);
  bl_pbw_begin (w, 56);
  bl_pbw_begin (w, 7);
  bl_pbw_bytes (w, 1, "\x01", 1);
  bl_pbw_end (w);
  bl_pbw_varint (w, 5, 0);
  bl_pbw_end (w);
  bl_pbw_end (w);
  profile = load_ok (w);
  trace = bl_perfetto_get_trace (profile);

  g_assert_cmpuint (trace->n_heap_graphs, ==, 1);
  g_assert_cmpuint (trace->heaps->len, ==, 1);
  heap = g_ptr_array_index (trace->heaps, 0);
  g_assert_cmpuint (bl_profile_get_n_heaps (profile), ==, 1);   /* the profile owns them */
  g_assert_true (bl_profile_get_heap (profile, 0) == heap);
  g_assert_cmpuint (bl_heap_get_n_objects (heap), ==, 4);
  g_assert_cmpuint (bl_heap_get_total_bytes (heap), ==, 138);
  g_assert_cmpuint (bl_heap_get_n_leaked (heap), ==, 2);
  g_assert_cmpuint (bl_heap_get_leaked_bytes (heap), ==, 28);
  g_assert_cmpuint (bl_heap_get_retained (heap, 0), ==, 138);
  g_assert_cmpuint (bl_heap_get_retained (heap, 2), ==, 28);
  g_assert_cmpuint (bl_heap_get_object_id (heap, 0), ==, 1);   /* the trace's object ids */
  g_assert_cmpuint (bl_heap_get_object_id (heap, 3), ==, 4);
  cycles = bl_heap_get_cycles (heap, &n_cycles);
  g_assert_cmpuint (n_cycles, ==, 1);
  g_assert_cmpuint (cycles[0].n_steps, ==, 2);
  g_assert_cmpstr (bl_heap_get_field_name (heap, cycles[0].fields[0]), ==, "next");
  g_assert_cmpstr (bl_heap_get_field_name (heap, cycles[0].fields[1]), ==, "prev");
  g_assert_nonnull (strstr (bl_profile_get_warning (profile), "does not define"));
}

/* a dump never ended still counts, with a warning */
static void
test_heap_graph_unfinished (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (BlProfile) profile = NULL;
  const BlPerfettoTrace *trace;

  bl_pbw_begin (w, 1);
  bl_pbw_begin (w, 56);
  heap_object (w, 5, 1, 3, NULL, NULL, 0);
  bl_pbw_varint (w, 5, 1);
  bl_pbw_end (w);
  bl_pbw_end (w);
  profile = load_ok (w);
  trace = bl_perfetto_get_trace (profile);

  g_assert_cmpuint (trace->heaps->len, ==, 1);
  g_assert_cmpuint (bl_heap_get_n_objects (g_ptr_array_index (trace->heaps, 0)), ==, 1);
  g_assert_nonnull (strstr (bl_profile_get_warning (profile), "continued past the end"));
}

static GBytes *
two_slices (void)
{
  BlPbWriter *w = bl_pbw_new ();
  GBytes *bytes;

  bl_pftw_thread_track (w, 1, 1, 2, "main");
  bl_pftw_event (w, 1, 10, 1, 1, "first");
  bl_pftw_event (w, 1, 20, 2, 1, NULL);
  bl_pftw_event (w, 1, 30, 1, 1, "second");
  bl_pftw_event (w, 1, 45, 2, 1, NULL);
  bytes = bl_pbw_steal (w);
  bl_pbw_free (w);

  return bytes;
}

/* truncated inside the last packet: complete packets kept, marked incomplete */
static void
test_truncated (void)
{
  g_autoptr (GBytes) bytes = two_slices ();
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  g_autoptr (GError) error = NULL;
  g_autoptr (BlProfile) profile = bl_perfetto_read_memory (data, len - 2, &error);

  g_assert_no_error (error);
  g_assert_true (bl_profile_is_incomplete (profile));
  g_assert_nonnull (strstr (bl_profile_get_incomplete_reason (profile), "but the file ends"));
  /* the last end is lost: "second" closes at the last event, 30 */
  assert_folded (profile, "main;first 10\n");

  /* every prefix either loads or fails with a message, never crashes */
  for (gsize cut = 0; cut < len; cut++)
    {
      g_autoptr (GError) cut_error = NULL;
      g_autoptr (BlProfile) cut_profile = bl_perfetto_read_memory (data, cut, &cut_error);

      g_assert_true ((cut_profile != NULL) != (cut_error != NULL));
    }
}

static void
test_hostile (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (BlProfile) profile = NULL;
  /* a packet declaring 1 GB */
  const guint8 huge[] = { 0x0a, 0x80, 0x80, 0x80, 0x80, 0x04, 0x40, 0x01 };
  /* an 11-byte varint inside a packet */
  const guint8 long_varint[] = { 0x0a, 0x0c, 0x40, 0xff, 0xff, 0xff, 0xff, 0xff,
                                 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
  /* a nested length past its parent: track_event (11) of 5 in a 3-byte packet */
  const guint8 nested[] = { 0x0a, 0x03, 0x5a, 0x05, 0x48, 0x0a, 0x01, 0x48 };
  g_autoptr (GBytes) good = two_slices ();
  g_autoptr (GByteArray) mixed = g_byte_array_new ();

  profile = bl_perfetto_read_memory (huge, sizeof huge, &error);
  g_assert_null (profile);
  g_assert_error (error, BL_PERFETTO_ERROR, BL_PERFETTO_ERROR_MALFORMED);
  g_assert_nonnull (strstr (error->message, "byte 0"));
  g_clear_error (&error);

  profile = bl_perfetto_read_memory (long_varint, sizeof long_varint, &error);
  g_assert_null (profile);
  g_assert_error (error, BL_PERFETTO_ERROR, BL_PERFETTO_ERROR_MALFORMED);
  g_assert_nonnull (strstr (error->message, "10 bytes"));
  g_clear_error (&error);

  profile = bl_perfetto_read_memory (nested, sizeof nested, &error);
  g_assert_null (profile);
  g_assert_error (error, BL_PERFETTO_ERROR, BL_PERFETTO_ERROR_MALFORMED);
  g_clear_error (&error);

  /* good packets, then a malformed one: the good ones are shown */
  g_byte_array_append (mixed, g_bytes_get_data (good, NULL), g_bytes_get_size (good));
  g_byte_array_append (mixed, nested, sizeof nested);
  profile = bl_perfetto_read_memory (mixed->data, mixed->len, &error);
  g_assert_no_error (error);
  g_assert_true (bl_profile_is_incomplete (profile));
  assert_folded (profile, "main;first 10\nmain;second 15\n");
  g_clear_object (&profile);

  /* random bytes never crash */
  for (guint seed = 0; seed < 2000; seed++)
    {
      GRand *rand = g_rand_new_with_seed (seed);
      guint8 buf[64];
      g_autoptr (GError) rand_error = NULL;
      g_autoptr (BlProfile) rand_profile = NULL;

      buf[0] = 0x0a;
      for (guint i = 1; i < sizeof buf; i++)
        buf[i] = g_rand_int_range (rand, 0, 256);
      rand_profile = bl_perfetto_read_memory (buf, sizeof buf, &rand_error);
      g_assert_true ((rand_profile != NULL) != (rand_error != NULL));
      g_rand_free (rand);
    }
}

static void
test_detect (void)
{
  g_autoptr (GBytes) good = two_slices ();
  gsize len;
  const guint8 *data = g_bytes_get_data (good, &len);
  g_autoptr (GError) error = NULL;
  g_autoptr (GObject) loaded = NULL;
  const char *text = "main;a;b 12\n";
  const guint8 bad[] = { 0x0a, 0x02, 0x0b, 0x00 };   /* wire type 3 */

  g_assert_cmpint (bl_format_detect (data, len, TRUE), ==, BL_FORMAT_PERFETTO);
  g_assert_cmpint (bl_format_detect (data, 7, FALSE), ==, BL_FORMAT_PERFETTO);
  g_assert_cmpint (bl_format_detect ((const guint8 *) text, strlen (text), TRUE), !=,
                   BL_FORMAT_PERFETTO);
  g_assert_cmpint (bl_format_detect (bad, sizeof bad, TRUE), !=, BL_FORMAT_PERFETTO);
  g_assert_cmpstr (bl_format_kind_get_name (BL_FORMAT_PERFETTO), ==, "perfetto");

  loaded = bl_format_load_bytes (good, &error);
  g_assert_no_error (error);
  g_assert_true (BL_IS_PROFILE (loaded));
  g_assert_nonnull (bl_perfetto_get_trace (BL_PROFILE (loaded)));
}

/* one packet on @seq with @flags: an interned name @iid = @name (if
 * @name), then a slice event of type @type named by @iid on @track */
static void
flagged_event (BlPbWriter *w,
               guint32     seq,
               guint64     flags,
               gboolean    dropped_before,
               guint64     ts,
               guint32     type,
               guint64     track,
               guint64     iid,
               const char *name)
{
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 8, ts);
  bl_pbw_varint (w, 10, seq);
  if (flags != 0)
    bl_pbw_varint (w, 13, flags);
  if (dropped_before)
    bl_pbw_varint (w, 42, 1);
  if (name != NULL)
    {
      bl_pbw_begin (w, 12);
      bl_pbw_begin (w, 2);
      bl_pbw_varint (w, 1, iid);
      bl_pbw_string (w, 2, name);
      bl_pbw_end (w);
      bl_pbw_end (w);
    }
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 9, type);
  bl_pbw_varint (w, 11, track);
  if (type == 1)
    bl_pbw_varint (w, 10, iid);
  bl_pbw_end (w);
  bl_pbw_end (w);
}

/* SEQ_NEEDS_INCREMENTAL_STATE (2): skipped until a packet of the sequence
 * clears the state (flag 1 or incremental_state_cleared), and again after
 * previous_packet_dropped until the next clear, as Perfetto's trace
 * processor does; the count is in the warning */
static void
test_needs_incremental_state (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (BlProfile) profile = NULL;
  const char *warning;

  bl_pftw_thread_track (w, 7, 1, 2, "main");
  /* never cleared: skipped (2 packets) */
  flagged_event (w, 3, 2, FALSE, 100, 1, 7, 1, "lost");
  flagged_event (w, 3, 2, FALSE, 110, 2, 7, 0, NULL);
  /* cleared in the packet itself: kept */
  flagged_event (w, 3, 1 | 2, FALSE, 200, 1, 7, 1, "kept");
  flagged_event (w, 3, 2, FALSE, 230, 2, 7, 0, NULL);
  /* a packet was lost before this one: skipped, and so is what follows */
  flagged_event (w, 3, 2, TRUE, 300, 1, 7, 1, NULL);
  flagged_event (w, 3, 2, FALSE, 310, 2, 7, 0, NULL);
  /* without the flag the packet is read even so */
  flagged_event (w, 3, 0, FALSE, 320, 1, 7, 5, "plain");
  flagged_event (w, 3, 0, FALSE, 325, 2, 7, 0, NULL);
  /* cleared again by the legacy field */
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 3);
  bl_pbw_varint (w, 41, 1);
  bl_pbw_end (w);
  flagged_event (w, 3, 2, FALSE, 400, 1, 7, 1, "again");
  flagged_event (w, 3, 2, FALSE, 440, 2, 7, 0, NULL);
  /* sequence 0 belongs to no writer: it never has incremental state */
  flagged_event (w, 0, 1 | 2, FALSE, 500, 1, 7, 1, "zero");
  profile = load_ok (w);

  assert_folded (profile,
                 "main;again 40\n"
                 "main;kept 30\n"
                 "main;plain 5\n");
  warning = bl_profile_get_warning (profile);
  g_assert_nonnull (warning);
  g_assert_nonnull (strstr (warning, "5 packets need the state"));
  g_assert_false (bl_profile_is_incomplete (profile));
}

/* a legacy thread descriptor packet on @seq with a reference time */
static void
legacy_thread (BlPbWriter *w,
               guint32     seq,
               gint64      tid,
               const char *name,
               gint64      reference_us)
{
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, seq);
  bl_pbw_varint (w, 13, 1);
  bl_pbw_begin (w, 44);
  bl_pbw_varint (w, 1, 1);
  bl_pbw_varint (w, 2, tid);
  bl_pbw_string (w, 5, name);
  bl_pbw_varint (w, 6, reference_us);
  bl_pbw_varint (w, 7, 1);
  bl_pbw_end (w);
  bl_pbw_end (w);
}

/* a track event with the legacy time fields: @delta_us (field 1) unless
 * G_MININT64, @absolute_us (field 16) unless 0, @thread_delta_us (field 2)
 * unless G_MININT64; a packet timestamp @ts unless 0 */
static void
legacy_event (BlPbWriter *w,
              guint32     seq,
              guint64     ts,
              gint64      delta_us,
              gint64      absolute_us,
              gint64      thread_delta_us,
              guint32     type,
              const char *name)
{
  bl_pbw_begin (w, 1);
  if (ts != 0)
    bl_pbw_varint (w, 8, ts);
  bl_pbw_varint (w, 10, seq);
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 9, type);
  if (delta_us != G_MININT64)
    bl_pbw_varint (w, 1, (guint64) delta_us);
  if (absolute_us != 0)
    bl_pbw_varint (w, 16, (guint64) absolute_us);
  if (thread_delta_us != G_MININT64)
    bl_pbw_varint (w, 2, (guint64) thread_delta_us);
  if (name != NULL)
    bl_pbw_string (w, 23, name);
  bl_pbw_end (w);
  bl_pbw_end (w);
}

/* timestamp_delta_us counts from the thread descriptor's reference
 * (reference_timestamp_us) and from the previous delta; timestamp_absolute_us
 * is a one-off that wins over the packet's timestamp and leaves the deltas
 * alone; a delta (of time or thread time) with no thread descriptor on the
 * sequence, or after a lost packet, drops the event */
static void
test_legacy_timestamps (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (BlProfile) profile = NULL;
  BlSpanList list;
  const BlSpan *spans;
  gsize n_spans;
  const char *warning;

  legacy_thread (w, 4, 10, "ui", 1000);
  legacy_event (w, 4, 0, 5, 0, 2, 1, "outer");            /* 1005 µs */
  legacy_event (w, 4, 0, 10, 0, 1, 1, "inner");           /* 1015 µs */
  /* absolute 1020 µs, even though the packet says 999 ns */
  legacy_event (w, 4, 999, G_MININT64, 1020, G_MININT64, 1, "once");
  legacy_event (w, 4, 0, G_MININT64, 1022, G_MININT64, 2, NULL);
  legacy_event (w, 4, 0, 20, 0, G_MININT64, 2, NULL);     /* 1035 µs */
  /* a negative delta: 1030 µs, before the end above, so it ends "inner" */
  legacy_event (w, 4, 0, -5, 0, G_MININT64, 2, NULL);

  /* sequence 6 has no thread descriptor: both events are dropped */
  legacy_event (w, 6, 1000000, 5, 0, G_MININT64, 1, "orphan");
  legacy_event (w, 6, 1100000, G_MININT64, 0, 3, 1, "orphan-thread-time");

  /* a lost packet invalidates the reference until the next descriptor */
  legacy_thread (w, 8, 11, "net", 2000);
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 8);
  bl_pbw_varint (w, 42, 1);
  bl_pbw_end (w);
  legacy_event (w, 8, 0, 1, 0, G_MININT64, 1, "after-loss");
  legacy_thread (w, 8, 11, "net", 3000);
  legacy_event (w, 8, 0, 4, 0, G_MININT64, 1, "fetch");   /* 3004 µs */
  legacy_event (w, 8, 0, 6, 0, G_MININT64, 2, NULL);      /* 3010 µs */
  profile = load_ok (w);

  assert_folded (profile,
                 "net;fetch 6000\n"
                 "ui;outer 15000\n"
                 "ui;outer;inner 13000\n"
                 "ui;outer;inner;once 2000\n");
  bl_profile_get_spans (profile, 0, &list);
  spans = list.spans;
  n_spans = list.n_spans;
  g_assert_cmpuint (n_spans, ==, 3);
  g_assert_cmpuint (spans[0].start, ==, 1005000);
  g_assert_cmpuint (bl_span_list_get_end (&list, 0), ==, 1035000);
  g_assert_cmpuint (spans[2].start, ==, 1020000);
  warning = bl_profile_get_warning (profile);
  g_assert_nonnull (warning);
  g_assert_nonnull (strstr (warning, "3 events have a time relative to a thread descriptor"));
}

/* one track event in a packet without a timestamp (and no legacy one) */
static void
untimed_event (BlPbWriter *w,
               guint32     type,
               const char *name)
{
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 1);
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 9, type);
  bl_pbw_varint (w, 11, 10);
  if (name != NULL)
    bl_pbw_string (w, 23, name);
  bl_pbw_end (w);
  bl_pbw_end (w);
}

/* events without any timestamp are dropped, as Perfetto's trace processor
 * drops them (not placed at time 0), and counted in the warning */
static void
test_untimed_events (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (BlProfile) profile = NULL;
  const BlPerfettoTrace *trace;
  const char *warning;

  bl_pftw_thread_track (w, 10, 1, 42, "main");
  bl_pftw_counter_track (w, 20, "mem", 1, FALSE);
  bl_pftw_event (w, 1, 1000, 1, 10, "outer");
  untimed_event (w, 1, "lost");
  untimed_event (w, 2, NULL);
  untimed_event (w, 3, "blink");
  bl_pftw_event (w, 1, 1500, 1, 10, "inner");
  bl_pftw_event (w, 1, 1700, 2, 10, NULL);
  bl_pftw_event (w, 1, 2000, 2, 10, NULL);
  bl_pftw_counter (w, 1, 1800, 20, 7);
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 1);
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 9, 4);
  bl_pbw_varint (w, 11, 20);
  bl_pbw_varint (w, 30, 9);
  bl_pbw_end (w);
  bl_pbw_end (w);
  profile = load_ok (w);

  assert_folded (profile,
                 "main;outer 800\n"
                 "main;outer;inner 200\n");
  trace = bl_perfetto_get_trace (profile);
  g_assert_cmpuint (trace->n_slices, ==, 2);
  g_assert_cmpuint (trace->n_instants, ==, 0);
  g_assert_cmpuint (trace->counters->len, ==, 1);
  g_assert_cmpuint (((BlPerfettoCounter *) g_ptr_array_index (trace->counters, 0))->points->len,
                    ==, 1);
  warning = bl_profile_get_warning (profile);
  g_assert_nonnull (warning);
  g_assert_nonnull (strstr (warning, "4 track events have no timestamp"));
}

/* one interned event name on sequence 9 (in a packet of its own) */
static void
intern_event_name (BlPbWriter *w,
                   gboolean    clear,
                   guint64     iid,
                   const char *name)
{
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 9);
  if (clear)
    bl_pbw_varint (w, 13, 1);
  bl_pbw_begin (w, 12);
  bl_pbw_begin (w, 2);
  bl_pbw_varint (w, 1, iid);
  bl_pbw_string (w, 2, name);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pbw_end (w);
}

static void
interned_event (BlPbWriter *w,
                guint64     ts,
                guint32     type,
                guint64     iid)
{
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 8, ts);
  bl_pbw_varint (w, 10, 9);
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 9, type);
  bl_pbw_varint (w, 11, 3);
  if (type == 1)
    bl_pbw_varint (w, 10, iid);
  bl_pbw_end (w);
  bl_pbw_end (w);
}

/* interned ids small and huge, sparse and dense, redefined and cleared:
 * each event gets the name its iid has at that point */
static void
test_interning_sparse (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (BlProfile) profile = NULL;
  const guint64 iids[] = { 2, 1000000, G_GUINT64_CONSTANT (1) << 40, 70, 5 };

  bl_pftw_thread_track (w, 3, 1, 2, "worker");
  intern_event_name (w, TRUE, 2, "two");
  intern_event_name (w, FALSE, 1000000, "far");
  intern_event_name (w, FALSE, G_GUINT64_CONSTANT (1) << 40, "huge");
  intern_event_name (w, FALSE, 70, "seventy");
  for (guint i = 0; i < G_N_ELEMENTS (iids); i++)
    interned_event (w, 1000 + i * 100, 1, iids[i]);   /* iid 5: never defined */
  for (guint i = 0; i < G_N_ELEMENTS (iids); i++)
    interned_event (w, 1500 + i * 100, 2, 0);

  intern_event_name (w, FALSE, 2, "deux");
  interned_event (w, 2000, 1, 2);
  interned_event (w, 2100, 2, 0);

  /* cleared: iid 2 means nothing any more, 1000000 a new name */
  intern_event_name (w, TRUE, 1000000, "again");
  interned_event (w, 3000, 1, 2);
  interned_event (w, 3050, 2, 0);
  interned_event (w, 3100, 1, 1000000);
  interned_event (w, 3300, 2, 0);
  profile = load_ok (w);

  assert_folded (profile,
                 "worker;(unnamed) 50\n"
                 "worker;again 200\n"
                 "worker;deux 100\n"
                 "worker;two 200\n"
                 "worker;two;far 200\n"
                 "worker;two;far;huge 200\n"
                 "worker;two;far;huge;seventy 200\n"
                 "worker;two;far;huge;seventy;(unnamed) 100\n");
}

/* a node with many children (past the reader's short sibling walk) finds
 * each of them again: one node per distinct stack, times summed */
static void
test_many_children (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (BlProfile) profile = NULL;
  g_autoptr (GString) expected = g_string_new (NULL);
  guint64 ts = 1000;

  bl_pftw_thread_track (w, 10, 1, 42, "main");
  for (guint round = 0; round < 3; round++)
    for (guint i = 0; i < 12; i++)
      {
        g_autofree char *name = g_strdup_printf ("c%02u", (i * 5) % 12);
        g_autofree char *inner = g_strdup_printf ("d%02u", (i + round) % 10);

        bl_pftw_event (w, 1, ts, 1, 10, name);
        bl_pftw_event (w, 1, ts + 10, 1, 10, inner);
        bl_pftw_event (w, 1, ts + 15, 2, 10, NULL);
        bl_pftw_event (w, 1, ts + 20, 2, 10, NULL);
        ts += 100;
      }
  profile = load_ok (w);

  /* the 12 children of the root, and the d children of each */
  for (guint c = 0; c < 12; c++)
    {
      guint i = (c * 5) % 12;   /* 5 is its own inverse mod 12 */

      g_string_append_printf (expected, "main;c%02u 45\n", c);
      for (guint d = 0; d < 10; d++)
        {
          guint n = 0;

          for (guint round = 0; round < 3; round++)
            n += (i + round) % 10 == d;
          if (n > 0)
            g_string_append_printf (expected, "main;c%02u;d%02u %u\n", c, d, 5 * n);
        }
    }
  assert_folded (profile, expected->str);
  g_assert_cmpuint (bl_profile_get_n_nodes (profile), ==, 1 + 12 + 12 * 3);
}

/* one heap object written by hand: references without field ids (named
 * by their position in the type's reference fields) */
static void
heap_object_by_position (BlPbWriter *w,
                         guint64     id,
                         guint64     type,
                         guint64     size,
                         guint64     target)
{
  bl_pbw_begin (w, 2);
  bl_pbw_varint (w, 1, id);
  bl_pbw_varint (w, 2, type);
  if (size != 0)
    bl_pbw_varint (w, 3, size);
  if (target != 0)
    bl_pbw_varint (w, 5, target);    /* unpacked */
  bl_pbw_end (w);
}

/* objects before their types: the type names, the self size of a type
 * (5 GiB, past 32 bits) and its reference field names come in a later
 * packet; a second object of an id already seen is left out; ids that go
 * down are kept */
static void
test_heap_graph_late_types (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (BlProfile) profile = NULL;
  const BlPerfettoTrace *trace;
  BlHeap *heap;
  const guint64 five_gib = G_GUINT64_CONSTANT (5) << 30;
  const guint32 *fields, *targets;

  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 7);
  bl_pbw_begin (w, 56);
  heap_object_by_position (w, 10, 5, 0, 11);
  heap_object_by_position (w, 11, 5, 0, 10);
  heap_object_by_position (w, 10, 6, 7, 0);     /* the same id again */
  heap_object_by_position (w, 9, 6, 3, 0);
  bl_pbw_varint (w, 5, 1);
  bl_pbw_end (w);
  bl_pbw_end (w);

  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 7);
  bl_pbw_begin (w, 56);
  bl_pbw_begin (w, 9);
  bl_pbw_varint (w, 1, 5);
  bl_pbw_string (w, 3, "Node");
  bl_pbw_varint (w, 4, five_gib);
  bl_pbw_bytes (w, 6, "\x01", 1);
  bl_pbw_end (w);
  heap_name (w, 9, 6, "Leaf");
  heap_name (w, 4, 1, "Node next");
  bl_pbw_begin (w, 7);
  bl_pbw_bytes (w, 1, "\x0a", 1);
  bl_pbw_end (w);
  bl_pbw_varint (w, 5, 0);
  bl_pbw_end (w);
  bl_pbw_end (w);
  profile = load_ok (w);
  trace = bl_perfetto_get_trace (profile);

  g_assert_cmpuint (trace->heaps->len, ==, 1);
  heap = g_ptr_array_index (trace->heaps, 0);
  g_assert_cmpuint (bl_heap_get_n_objects (heap), ==, 3);
  g_assert_cmpstr (bl_heap_get_type_name (heap, bl_heap_get_object_type (heap, 0)), ==, "Node");
  g_assert_cmpstr (bl_heap_get_type_name (heap, bl_heap_get_object_type (heap, 2)), ==, "Leaf");
  g_assert_cmpuint (bl_heap_get_self_size (heap, 0), ==, five_gib);
  g_assert_cmpuint (bl_heap_get_self_size (heap, 1), ==, five_gib);
  g_assert_cmpuint (bl_heap_get_self_size (heap, 2), ==, 3);
  g_assert_cmpuint (bl_heap_get_total_bytes (heap), ==, 2 * five_gib + 3);
  g_assert_cmpuint (bl_heap_get_retained (heap, 0), ==, 2 * five_gib);
  g_assert_cmpuint (bl_heap_get_object_id (heap, 2), ==, 9);
  g_assert_false (bl_heap_is_reachable (heap, 2));
  g_assert_cmpuint (bl_heap_get_n_references (heap, 0, &fields, &targets), ==, 1);
  g_assert_cmpuint (targets[0], ==, 1);
  g_assert_cmpstr (bl_heap_get_field_name (heap, fields[0]), ==, "Node next");
}

/* event times far apart (2^32 ns and more between two events of a track,
 * times past 2^63) and a track whose times go back, ties kept in file
 * order: the times of slices and spans come out whole */
static void
test_event_times (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (BlProfile) profile = NULL;
  const guint64 big = G_GUINT64_CONSTANT (1) << 32;
  const guint64 top = G_GUINT64_CONSTANT (1) << 63;
  const guint64 b_at = 1000 + big, c_at = b_at + 50 + (big - 2), end_at = c_at + 1 + 100;
  g_autofree char *expected = NULL;
  BlSpanList list;
  const BlSpan *spans;
  gsize n_spans;

  bl_pftw_thread_track (w, 1, 5, 6, "main");
  bl_pftw_named_track (w, 2, 0, "net");
  bl_pftw_event (w, 1, 1000, 1, 1, "a");
  bl_pftw_event (w, 1, b_at, 1, 1, "b");          /* 2^32 ns later */
  bl_pftw_event (w, 1, b_at + 50, 2, 1, NULL);
  bl_pftw_event (w, 1, c_at, 1, 1, "c");          /* 2^32 - 2 ns later */
  bl_pftw_event (w, 1, c_at + 1, 2, 1, NULL);
  bl_pftw_event (w, 1, end_at, 2, 1, NULL);
  /* past 2^63, going back: sorted, the end at 500 after x's begin */
  bl_pftw_event (w, 1, top + 500, 1, 2, "x");
  bl_pftw_event (w, 1, top + 100, 1, 2, "y");
  bl_pftw_event (w, 1, top + 500, 2, 2, NULL);
  bl_pftw_event (w, 1, top + 900, 2, 2, NULL);
  profile = load_ok (w);

  expected = g_strdup_printf ("main;a %" G_GUINT64_FORMAT "\n"
                              "main;a;b 50\n"
                              "main;a;c 1\n"
                              "net;y 800\n",
                              end_at - 1000 - 50 - 1);
  assert_folded (profile, expected);

  bl_profile_get_spans (profile, 0, &list);
  spans = list.spans;
  n_spans = list.n_spans;
  g_assert_cmpuint (n_spans, ==, 3);
  g_assert_cmpuint (spans[0].start, ==, 1000);
  g_assert_cmpuint (bl_span_list_get_end (&list, 0), ==, end_at);
  g_assert_cmpuint (spans[1].start, ==, b_at);
  g_assert_cmpuint (bl_span_list_get_end (&list, 1), ==, b_at + 50);
  g_assert_cmpuint (spans[2].start, ==, c_at);
  g_assert_cmpuint (bl_span_list_get_end (&list, 2), ==, c_at + 1);

  bl_profile_get_spans (profile, 1, &list);
  spans = list.spans;
  n_spans = list.n_spans;
  g_assert_cmpuint (n_spans, ==, 2);
  g_assert_cmpstr (bl_profile_get_string (profile,
                                          bl_profile_get_node (profile, spans[0].node)->name),
                   ==, "y");
  g_assert_cmpuint (spans[0].start, ==, top + 100);
  g_assert_cmpuint (bl_span_list_get_end (&list, 0), ==, top + 900);
  g_assert_cmpuint (spans[1].start, ==, top + 500);
  g_assert_cmpuint (bl_span_list_get_end (&list, 1), ==, top + 500);
}

/* One packet of sequence 4 holding a track event: type, track (0: the
 * sequence's default), interned name; @extra adds an unknown field, so
 * that the reader takes its general path for the packet. */
static void
usual_event (BlPbWriter *w,
             guint64     ts,
             guint32     type,
             guint64     track,
             guint64     iid,
             gboolean    extra)
{
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 8, ts);
  bl_pbw_varint (w, 10, 4);
  if (extra)
    bl_pbw_varint (w, 99, 1);
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 9, type);
  if (track != 0)
    bl_pbw_varint (w, 11, track);
  if (iid != 0)
    bl_pbw_varint (w, 10, iid);
  bl_pbw_end (w);
  bl_pbw_end (w);
}

static BlProfile *
usual_trace (gboolean extra)
{
  BlPbWriter *w = bl_pbw_new ();

  bl_pftw_thread_track (w, 3, 1, 2, "worker");
  bl_pftw_named_track (w, 8, 0, "io");
  /* sequence 4: state cleared, names 1 = alpha, 2 = beta, default track 3 */
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 4);
  bl_pbw_varint (w, 13, 1);
  bl_pbw_begin (w, 12);
  for (guint i = 1; i <= 2; i++)
    {
      bl_pbw_begin (w, 2);
      bl_pbw_varint (w, 1, i);
      bl_pbw_string (w, 2, i == 1 ? "alpha" : "beta");
      bl_pbw_end (w);
    }
  bl_pbw_end (w);
  bl_pbw_begin (w, 59);
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 11, 3);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pbw_end (w);

  usual_event (w, 1000, 1, 0, 1, extra);    /* alpha on the default track */
  usual_event (w, 1100, 1, 3, 2, extra);    /* beta, track named */
  usual_event (w, 1150, 3, 0, 2, extra);    /* an instant */
  usual_event (w, 1200, 1, 8, 1, extra);    /* alpha on io */
  usual_event (w, 1250, 1, 8, 7, extra);    /* an iid never interned */
  usual_event (w, 1300, 2, 0, 0, extra);
  usual_event (w, 1400, 2, 8, 0, extra);
  usual_event (w, 1450, 4, 8, 0, extra);    /* a counter event without value */
  usual_event (w, 1500, 2, 3, 0, extra);
  usual_event (w, 1600, 1, 0, 0, extra);    /* unnamed */
  usual_event (w, 1700, 2, 0, 0, extra);
  usual_event (w, 1800, 2, 8, 0, extra);

  return load_ok (w);
}

/* the usual packets (timestamp, sequence, a track event of type, track
 * and interned name) read as the same packets with an unknown field more */
static void
test_usual_packets (void)
{
  g_autoptr (BlProfile) usual = usual_trace (FALSE);
  g_autoptr (BlProfile) general = usual_trace (TRUE);
  g_autofree char *text = folded (usual);
  const BlPerfettoTrace *a = bl_perfetto_get_trace (usual);
  const BlPerfettoTrace *b = bl_perfetto_get_trace (general);

  assert_folded (general, text);
  g_assert_cmpstr (text, ==,
                   "io;alpha 450\n"
                   "io;alpha;(unnamed) 150\n"
                   "worker;(unnamed) 100\n"
                   "worker;alpha 300\n"
                   "worker;alpha;beta 200\n");
  g_assert_cmpuint (a->n_packets, ==, b->n_packets);
  g_assert_cmpuint (a->n_slices, ==, 5);
  g_assert_cmpuint (b->n_slices, ==, 5);
  g_assert_cmpuint (a->instants->len, ==, 1);
  g_assert_cmpuint (b->instants->len, ==, 1);
  g_assert_cmpuint (bl_profile_get_n_threads (usual), ==, bl_profile_get_n_threads (general));
  for (guint t = 0; t < bl_profile_get_n_threads (usual); t++)
    {
      BlSpanList la, lb;

      bl_profile_get_spans (usual, t, &la);
      bl_profile_get_spans (general, t, &lb);
      g_assert_cmpuint (la.n_spans, ==, lb.n_spans);
      g_assert_cmpmem (la.spans, la.n_spans * sizeof (BlSpan), lb.spans, lb.n_spans * sizeof (BlSpan));
      g_assert_cmpuint (la.n_longs, ==, lb.n_longs);
      g_assert_cmpmem (la.longs, la.n_longs * sizeof (BlSpanLong),
                       lb.longs, lb.n_longs * sizeof (BlSpanLong));
    }
}

/* Varints packed into @out. */
static void
packed (GByteArray    *out,
        const guint64 *values,
        guint          n)
{
  for (guint i = 0; i < n; i++)
    {
      guint64 v = values[i];

      do
        {
          guint8 b = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);

          g_byte_array_append (out, &b, 1);
          v >>= 7;
        }
      while (v != 0);
    }
}

static void
packed_field (BlPbWriter    *w,
              guint32        field,
              const guint64 *values,
              guint          n)
{
  g_autoptr (GByteArray) bytes = g_byte_array_new ();

  packed (bytes, values, n);
  bl_pbw_bytes (w, field, bytes->data, bytes->len);
}

static void
assert_reference (BlHeap     *heap,
                  guint32     object,
                  guint       k,
                  guint32     target,
                  const char *field)
{
  const guint32 *fields, *targets;
  guint n = bl_heap_get_n_references (heap, object, &fields, &targets);

  g_assert_cmpuint (k, <, n);
  g_assert_cmpuint (targets[k], ==, target);
  g_assert_cmpstr (bl_heap_get_field_name (heap, fields[k]), ==, field);
}

/* the references of a heap graph's objects in every form: packed lists
 * (field ids shorter than the targets: the rest named by position), null
 * targets keeping their position, targets below the first object's id or
 * far above it, lists repeated or unpacked, a field id base, a target
 * never defined */
static void
test_heap_graph_references (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (BlProfile) profile = NULL;
  const BlPerfettoTrace *trace;
  BlHeap *heap;
  const guint64 far = G_GUINT64_CONSTANT (1) << 40;
  const guint64 a_fields[] = { 1 }, a_targets[] = { 1001, 0, 5, far, 77777 };
  const guint64 b_fields[] = { 2 }, b_targets[] = { 1000 };
  const guint64 d_targets[] = { 1001 };
  const guint64 e_fields[] = { 0, 1 }, e_targets[] = { 1000, 1001 };
  const guint64 type_fields[] = { 3, 4, 5, 6, 7 };
  const char *names[] = { "a.first", "a.second", "pos0", "pos1", "pos2", "pos3", "pos4" };
  const guint32 *fields, *targets;

  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 3);
  bl_pbw_begin (w, 56);
  /* A: 1000 */
  bl_pbw_begin (w, 2);
  bl_pbw_varint (w, 1, 1000);
  bl_pbw_varint (w, 2, 1);
  bl_pbw_varint (w, 3, 10);
  packed_field (w, 4, a_fields, G_N_ELEMENTS (a_fields));
  packed_field (w, 5, a_targets, G_N_ELEMENTS (a_targets));
  bl_pbw_end (w);
  /* B: 1001, its targets in two parts, the second unpacked */
  bl_pbw_begin (w, 2);
  bl_pbw_varint (w, 1, 1001);
  bl_pbw_varint (w, 2, 1);
  bl_pbw_varint (w, 3, 10);
  packed_field (w, 4, b_fields, G_N_ELEMENTS (b_fields));
  packed_field (w, 5, b_targets, G_N_ELEMENTS (b_targets));
  bl_pbw_varint (w, 5, 5);
  bl_pbw_end (w);
  /* C: 5, below the first id */
  bl_pbw_begin (w, 2);
  bl_pbw_varint (w, 1, 5);
  bl_pbw_varint (w, 2, 2);
  bl_pbw_varint (w, 3, 20);
  bl_pbw_end (w);
  bl_pbw_varint (w, 5, 1);
  bl_pbw_end (w);
  bl_pbw_end (w);

  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 3);
  bl_pbw_begin (w, 56);
  /* D: 2^40, its field id unpacked */
  bl_pbw_begin (w, 2);
  bl_pbw_varint (w, 1, far);
  bl_pbw_varint (w, 2, 2);
  bl_pbw_varint (w, 3, 30);
  bl_pbw_varint (w, 4, 1);
  packed_field (w, 5, d_targets, G_N_ELEMENTS (d_targets));
  bl_pbw_end (w);
  /* E: 2^40 + 1, field ids from a base of 1 */
  bl_pbw_begin (w, 2);
  bl_pbw_varint (w, 1, far + 1);
  bl_pbw_varint (w, 2, 2);
  bl_pbw_varint (w, 3, 40);
  bl_pbw_varint (w, 6, 1);
  packed_field (w, 4, e_fields, G_N_ELEMENTS (e_fields));
  packed_field (w, 5, e_targets, G_N_ELEMENTS (e_targets));
  bl_pbw_end (w);
  /* the types and field names after the objects */
  bl_pbw_begin (w, 9);
  bl_pbw_varint (w, 1, 1);
  bl_pbw_string (w, 3, "T1");
  packed_field (w, 6, type_fields, G_N_ELEMENTS (type_fields));
  bl_pbw_end (w);
  bl_pbw_begin (w, 9);
  bl_pbw_varint (w, 1, 2);
  bl_pbw_string (w, 3, "T2");
  bl_pbw_end (w);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    heap_name (w, 4, i + 1, names[i]);
  bl_pbw_begin (w, 7);
  bl_pbw_bytes (w, 1, "\xe8\x07", 2);   /* root 1000 */
  bl_pbw_end (w);
  bl_pbw_varint (w, 5, 0);
  bl_pbw_end (w);
  bl_pbw_end (w);
  profile = load_ok (w);
  trace = bl_perfetto_get_trace (profile);

  g_assert_cmpuint (trace->heaps->len, ==, 1);
  heap = g_ptr_array_index (trace->heaps, 0);
  g_assert_cmpuint (bl_heap_get_n_objects (heap), ==, 5);
  g_assert_cmpuint (bl_heap_get_object_id (heap, 2), ==, 5);
  g_assert_cmpuint (bl_heap_get_object_id (heap, 3), ==, far);

  g_assert_cmpuint (bl_heap_get_n_references (heap, 0, &fields, &targets), ==, 3);
  assert_reference (heap, 0, 0, 1, "a.first");
  assert_reference (heap, 0, 1, 2, "pos2");       /* position 2: the null kept its place */
  assert_reference (heap, 0, 2, 3, "pos3");
  g_assert_cmpuint (bl_heap_get_n_references (heap, 1, &fields, &targets), ==, 2);
  assert_reference (heap, 1, 0, 0, "a.second");
  assert_reference (heap, 1, 1, 2, "pos1");
  g_assert_cmpuint (bl_heap_get_n_references (heap, 2, &fields, &targets), ==, 0);
  g_assert_cmpuint (bl_heap_get_n_references (heap, 3, &fields, &targets), ==, 1);
  assert_reference (heap, 3, 0, 1, "a.first");
  g_assert_cmpuint (bl_heap_get_n_references (heap, 4, &fields, &targets), ==, 2);
  assert_reference (heap, 4, 0, 0, "a.first");
  assert_reference (heap, 4, 1, 1, "a.second");

  /* the one undefined target is left out, and said */
  g_assert_nonnull (strstr (bl_profile_get_warning (profile),
                            "refers to 1 objects it does not define"));
}

/* ---- the heap graph worker ---- */

/* Everything a read gives, as text: call tree, warnings, incomplete
 * reason, the trace's counts, and each heap graph object by object. */
static char *
describe (BlProfile *profile,
          GError    *error)
{
  GString *out = g_string_new (NULL);
  const BlPerfettoTrace *trace;
  g_autofree char *text = NULL;

  if (profile == NULL)
    {
      g_string_append_printf (out, "error %s %d: %s\n", g_quark_to_string (error->domain),
                              error->code, error->message);
      return g_string_free (out, FALSE);
    }
  text = folded (profile);
  trace = bl_perfetto_get_trace (profile);
  g_string_append_printf (out, "%s\nwarning: %s\nincomplete: %s\n", text,
                          bl_profile_get_warning (profile) ? bl_profile_get_warning (profile) : "",
                          bl_profile_get_incomplete_reason (profile)
                          ? bl_profile_get_incomplete_reason (profile) : "");
  g_string_append_printf (out, "packets %" G_GUINT64_FORMAT ", slices %" G_GUINT64_FORMAT
                          ", heap graphs %" G_GUINT64_FORMAT " (%u kept)\n",
                          trace->n_packets, trace->n_slices, trace->n_heap_graphs,
                          trace->heaps->len);
  for (guint h = 0; h < trace->heaps->len; h++)
    {
      BlHeap *heap = g_ptr_array_index (trace->heaps, h);

      g_string_append_printf (out, "heap %u: %u objects, %u types, %" G_GUINT64_FORMAT " bytes\n",
                              h, bl_heap_get_n_objects (heap), bl_heap_get_n_types (heap),
                              bl_heap_get_total_bytes (heap));
      for (guint32 t = 0; t < bl_heap_get_n_types (heap); t++)
        g_string_append_printf (out, " type %u %s\n", t, bl_heap_get_type_name (heap, t));
      for (guint32 o = 0; o < bl_heap_get_n_objects (heap); o++)
        {
          const guint32 *fields, *targets;
          guint32 n = bl_heap_get_n_references (heap, o, &fields, &targets);

          g_string_append_printf (out, " %" G_GUINT64_FORMAT " t%u %" G_GUINT64_FORMAT "%s:",
                                  bl_heap_get_object_id (heap, o),
                                  bl_heap_get_object_type (heap, o),
                                  bl_heap_get_self_size (heap, o),
                                  bl_heap_is_root (heap, o) ? " root" : "");
          for (guint32 r = 0; r < n; r++)
            g_string_append_printf (out, " %s>%u", bl_heap_get_field_name (heap, fields[r]),
                                    targets[r]);
          g_string_append_c (out, '\n');
        }
    }

  return g_string_free (out, FALSE);
}

/* Reads @len bytes with the heap graphs decoded in line and again with
 * all of them (or those past @min_bytes) through the worker: the same. */
static void
assert_worker_same (const guint8 *data,
                    gsize         len,
                    guint64       min_bytes)
{
  g_autoptr (GError) inline_error = NULL;
  g_autoptr (GError) worker_error = NULL;
  g_autoptr (BlProfile) inline_profile = NULL;
  g_autoptr (BlProfile) worker_profile = NULL;
  g_autofree char *inline_text = NULL;
  g_autofree char *worker_text = NULL;

  bl_perfetto_set_heap_worker (G_MAXUINT64);
  inline_profile = bl_perfetto_read_memory (data, len, &inline_error);
  bl_perfetto_set_heap_worker (min_bytes);
  worker_profile = bl_perfetto_read_memory (data, len, &worker_error);
  bl_perfetto_set_heap_worker (BL_PERFETTO_HEAP_WORKER_MIN_BYTES);

  inline_text = describe (inline_profile, inline_error);
  worker_text = describe (worker_profile, worker_error);
  g_assert_cmpstr (worker_text, ==, inline_text);
}

/* A packet of @n heap objects (ids from @first, three types, references by
 * field id and by position) of the dump on sequence @seq, continued. */
static void
heap_packet (BlPbWriter *w,
             guint32     seq,
             guint64     first,
             guint       n,
             gboolean    names)
{
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, seq);
  bl_pbw_begin (w, 56);
  bl_pbw_varint (w, 1, seq * 100);
  if (names)
    {
      heap_name (w, 9, 1, "roAssociativeArray");
      heap_name (w, 9, 2, "roArray");
      heap_name (w, 4, 1, "next");
      heap_name (w, 4, 2, "item");
    }
  for (guint i = 0; i < n; i++)
    {
      guint64 id = first + i;
      const guint64 fields[] = { 1, 2 }, targets[] = { (id + 1) % 120 + 1, id % 7 + 1 };

      if (i % 5 == 4)
        heap_object_by_position (w, id, 3, 0, id > 1 ? id - 1 : 0);
      else
        heap_object (w, id, 1 + id % 2, id % 40, fields, targets, 1 + id % 2);
    }
  bl_pbw_varint (w, 5, 1);
  bl_pbw_end (w);
  bl_pbw_end (w);
}

/* The end of a dump: a root, continued no more. */
static void
heap_end (BlPbWriter *w,
          guint32     seq)
{
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, seq);
  bl_pbw_begin (w, 56);
  bl_pbw_begin (w, 7);
  bl_pbw_bytes (w, 1, "\x01", 1);
  bl_pbw_end (w);
  bl_pbw_varint (w, 5, 0);
  bl_pbw_end (w);
  bl_pbw_end (w);
}

/* Slices on a track, then two dumps on sequences 7 and 8 interleaved,
 * with track events between their packets and one packet holding both a
 * heap graph and a track event, and a third dump never ended. If
 * @bad_at is not 0, the heap graph packet of that number holds an object
 * whose packed references are malformed. */
static GBytes *
worker_trace (guint bad_at)
{
  BlPbWriter *w = bl_pbw_new ();
  GBytes *bytes;
  guint64 ts = 1000;

  bl_pftw_thread_track (w, 1, 1, 2, "main");
  bl_pftw_event (w, 1, ts++, 1, 1, "a");
  /* a packet of each dump's sequence before its heap graphs */
  bl_pftw_event (w, 7, ts++, 3, 1, "seven");
  bl_pftw_event (w, 8, ts++, 3, 1, "eight");
  for (guint k = 1; k <= 24; k++)
    {
      heap_packet (w, k % 3 == 0 ? 8 : 7, 1 + 40 * k, 40, k <= 2);
      if (k == bad_at)
        {
          bl_pbw_begin (w, 1);
          bl_pbw_varint (w, 10, 7);
          bl_pbw_begin (w, 56);
          bl_pbw_begin (w, 2);
          bl_pbw_varint (w, 1, 5000);
          bl_pbw_bytes (w, 5, "\x80", 1);   /* a varint cut short */
          bl_pbw_end (w);
          bl_pbw_varint (w, 5, 1);
          bl_pbw_end (w);
          bl_pbw_end (w);
        }
      if (k % 8 == 0)
        bl_pftw_event (w, 1, ts++, k % 16 == 0 ? 2 : 1, 1, "b");
      if (k == 12)
        {
          /* one packet: a heap graph and a track event */
          bl_pbw_begin (w, 1);
          bl_pbw_varint (w, 8, ts++);
          bl_pbw_varint (w, 10, 7);
          bl_pbw_begin (w, 11);
          bl_pbw_varint (w, 9, 3);
          bl_pbw_varint (w, 11, 1);
          bl_pbw_string (w, 23, "both");
          bl_pbw_end (w);
          bl_pbw_begin (w, 56);
          heap_object (w, 9000, 1, 5, NULL, NULL, 0);
          bl_pbw_varint (w, 5, 1);
          bl_pbw_end (w);
          bl_pbw_end (w);
        }
    }
  heap_end (w, 7);
  heap_end (w, 8);
  heap_packet (w, 9, 1, 30, TRUE);    /* never ended */
  bl_pftw_event (w, 1, ts++, 2, 1, NULL);
  bytes = bl_pbw_steal (w);
  bl_pbw_free (w);

  return bytes;
}

/* heap graphs through the worker come out as decoded in line, whatever
 * comes between their packets */
static void
test_heap_worker (void)
{
  g_autoptr (GBytes) bytes = worker_trace (0);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  g_autoptr (BlProfile) profile = bl_perfetto_read_memory (data, len, NULL);

  g_assert_nonnull (profile);
  g_assert_cmpuint (bl_perfetto_get_trace (profile)->heaps->len, ==, 3);
  assert_worker_same (data, len, 0);
  /* the worker started only once the heap graphs add up to some bytes */
  assert_worker_same (data, len, len / 3);
}

/* a trace cut anywhere, in the heap graphs handed over too: the same
 * complete packets kept, the same sentence said */
static void
test_heap_worker_truncated (void)
{
  g_autoptr (GBytes) bytes = worker_trace (0);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  for (gsize cut = 1; cut < len; cut += 1 + cut / 16)
    assert_worker_same (data, cut, 0);
}

/* a malformed heap graph handed over stops the reading at its packet, as
 * in line, though this thread read on meanwhile */
static void
test_heap_worker_malformed (void)
{
  for (guint bad_at = 1; bad_at <= 24; bad_at += 5)
    {
      g_autoptr (GBytes) bytes = worker_trace (bad_at);
      g_autoptr (BlProfile) profile = NULL;
      gsize len;
      const guint8 *data = g_bytes_get_data (bytes, &len);

      profile = bl_perfetto_read_memory (data, len, NULL);
      g_assert_nonnull (profile);
      g_assert_nonnull (strstr (bl_profile_get_incomplete_reason (profile), "malformed"));
      assert_worker_same (data, len, 0);
    }
}

/* A trace whose heap graph is some MB: at the default threshold it goes
 * through the worker. */
static GBytes *
big_heap_trace (guint n_packets)
{
  BlPbWriter *w = bl_pbw_new ();
  GBytes *bytes;

  bl_pftw_thread_track (w, 1, 1, 2, "main");
  bl_pftw_event (w, 7, 10, 1, 1, "a");
  for (guint k = 0; k < n_packets; k++)
    heap_packet (w, 7, 1 + 4000 * k, 4000, k == 0);
  heap_end (w, 7);
  bl_pftw_event (w, 1, 20, 2, 1, NULL);
  bytes = bl_pbw_steal (w);
  bl_pbw_free (w);

  return bytes;
}

static void
test_heap_worker_big (void)
{
  g_autoptr (GBytes) bytes = big_heap_trace (150);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  g_assert_cmpuint (len, >, 2 * BL_PERFETTO_HEAP_WORKER_MIN_BYTES);
  assert_worker_same (data, len, BL_PERFETTO_HEAP_WORKER_MIN_BYTES);
}

/* The heap graph last, after the slices, as apps write it, and larger
 * than the worker's queue (a quarter of the input, 8 MB at least): this
 * thread waits for room, the worker's finished chunks are filled again,
 * the last one goes over before the tracks are built. */
static GBytes *
heap_last_trace (void)
{
  BlPbWriter *w = bl_pbw_new ();
  GBytes *bytes;
  guint64 ts = 10;

  bl_pftw_thread_track (w, 1, 1, 2, "main");
  bl_pftw_event (w, 7, ts++, 1, 1, "a");
  for (guint k = 0; k < 20000; k++)
    {
      bl_pftw_event (w, 1, ts++, 1, 1, k % 3 == 0 ? "b" : "c");
      bl_pftw_event (w, 1, ts++, 2, 1, NULL);
    }
  for (guint k = 0; k < 250; k++)
    heap_packet (w, 7, 1 + 4000 * k, 4000, k == 0);
  heap_end (w, 7);
  bytes = bl_pbw_steal (w);
  bl_pbw_free (w);

  return bytes;
}

/* read from a stream (the window of a file, as the app reads it) */
static char *
describe_stream (GBytes  *bytes,
                 gsize    len,
                 guint64  min_bytes)
{
  g_autoptr (GBytes) part = g_bytes_new_from_bytes (bytes, 0, len);
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_bytes (part);
  g_autoptr (GError) error = NULL;
  g_autoptr (BlProfile) profile = NULL;

  bl_perfetto_set_heap_worker (min_bytes);
  profile = bl_perfetto_read_stream (in, len, NULL, NULL, NULL, &error);
  bl_perfetto_set_heap_worker (BL_PERFETTO_HEAP_WORKER_MIN_BYTES);

  return describe (profile, error);
}

static void
test_heap_worker_last (void)
{
  g_autoptr (GBytes) bytes = heap_last_trace ();
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  g_autoptr (BlProfile) profile = bl_perfetto_read_memory (data, len, NULL);
  g_autofree char *inline_text = NULL;
  g_autofree char *worker_text = NULL;

  g_assert_cmpuint (len, >, 12 * 1024 * 1024);
  g_assert_nonnull (profile);
  g_assert_cmpuint (bl_perfetto_get_trace (profile)->heaps->len, ==, 1);
  g_assert_cmpuint (bl_heap_get_n_objects (g_ptr_array_index (bl_perfetto_get_trace (profile)->heaps,
                                                                0)), ==, 250 * 4000);
  g_assert_null (bl_profile_get_incomplete_reason (profile));
  assert_worker_same (data, len, 0);
  assert_worker_same (data, len, BL_PERFETTO_HEAP_WORKER_MIN_BYTES);

  inline_text = describe_stream (bytes, len, G_MAXUINT64);
  worker_text = describe_stream (bytes, len, 0);
  g_assert_cmpstr (worker_text, ==, inline_text);
}

/* the same trace cut in its heap graph, near its end too (in the last
 * chunk handed over): what was complete, as in line */
static void
test_heap_worker_last_truncated (void)
{
  g_autoptr (GBytes) bytes = heap_last_trace ();
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  const gsize cuts[] = { len / 2, len - 3 * 1024 * 1024 - 17, len - 100000, len - 5, len - 1 };

  for (guint i = 0; i < G_N_ELEMENTS (cuts); i++)
    {
      g_autofree char *inline_text = describe_stream (bytes, cuts[i], G_MAXUINT64);
      g_autofree char *worker_text = describe_stream (bytes, cuts[i], 0);

      g_assert_nonnull (strstr (inline_text, "incomplete"));
      g_assert_cmpstr (worker_text, ==, inline_text);
      assert_worker_same (data, cuts[i], 0);
    }
}

typedef struct
{
  GCancellable *cancellable;
  guint64       at;
} CancelAt;

static void
cancel_at (guint64  done,
           guint64  total,
           gpointer data)
{
  CancelAt *c = data;

  if (done >= c->at)
    g_cancellable_cancel (c->cancellable);
}

/* cancelled while the worker has heap graphs: the read ends with
 * G_IO_ERROR_CANCELLED, the worker with it */
static void
test_heap_worker_cancel (void)
{
  g_autoptr (GBytes) bytes = big_heap_trace (60);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_bytes (bytes);
  g_autoptr (GError) error = NULL;
  g_autoptr (BlProfile) profile = NULL;
  CancelAt c = { cancellable, g_bytes_get_size (bytes) / 2 };

  bl_perfetto_set_heap_worker (0);
  profile = bl_perfetto_read_stream (in, g_bytes_get_size (bytes), cancel_at, &c, cancellable,
                                     &error);
  bl_perfetto_set_heap_worker (BL_PERFETTO_HEAP_WORKER_MIN_BYTES);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (profile);
}

/* cancelled late in a heap graph larger than the queue, while this thread
 * waits for room or refills a chunk: the read ends with
 * G_IO_ERROR_CANCELLED */
static void
test_heap_worker_last_cancel (void)
{
  g_autoptr (GBytes) bytes = heap_last_trace ();

  for (guint i = 1; i <= 3; i++)
    {
      g_autoptr (GCancellable) cancellable = g_cancellable_new ();
      g_autoptr (GInputStream) in = g_memory_input_stream_new_from_bytes (bytes);
      g_autoptr (GError) error = NULL;
      g_autoptr (BlProfile) profile = NULL;
      CancelAt c = { cancellable, g_bytes_get_size (bytes) / 4 * i + i * 1000 };

      if (i == 3)
        c.at = g_bytes_get_size (bytes) - 1024 * 1024;
      bl_perfetto_set_heap_worker (0);
      profile = bl_perfetto_read_stream (in, g_bytes_get_size (bytes), cancel_at, &c,
                                         cancellable, &error);
      bl_perfetto_set_heap_worker (BL_PERFETTO_HEAP_WORKER_MIN_BYTES);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_null (profile);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/perfetto/slices", test_slices);
  g_test_add_func ("/perfetto/order-and-names", test_order_and_names);
  g_test_add_func ("/perfetto/open-slice", test_open_slice);
  g_test_add_func ("/perfetto/interning", test_interning);
  g_test_add_func ("/perfetto/interning-sparse", test_interning_sparse);
  g_test_add_func ("/perfetto/many-children", test_many_children);
  g_test_add_func ("/perfetto/incremental-clock", test_incremental_clock);
  g_test_add_func ("/perfetto/compressed", test_compressed);
  g_test_add_func ("/perfetto/counters", test_counters);
  g_test_add_func ("/perfetto/annotations-flows", test_annotations_flows);
  g_test_add_func ("/perfetto/heap-graph", test_heap_graph);
  g_test_add_func ("/perfetto/heap-graph-unfinished", test_heap_graph_unfinished);
  g_test_add_func ("/perfetto/heap-graph-late-types", test_heap_graph_late_types);
  g_test_add_func ("/perfetto/heap-graph-references", test_heap_graph_references);
  g_test_add_func ("/perfetto/event-times", test_event_times);
  g_test_add_func ("/perfetto/usual-packets", test_usual_packets);
  g_test_add_func ("/perfetto/truncated", test_truncated);
  g_test_add_func ("/perfetto/hostile", test_hostile);
  g_test_add_func ("/perfetto/detect", test_detect);
  g_test_add_func ("/perfetto/needs-incremental-state", test_needs_incremental_state);
  g_test_add_func ("/perfetto/legacy-timestamps", test_legacy_timestamps);
  g_test_add_func ("/perfetto/untimed-events", test_untimed_events);
  g_test_add_func ("/perfetto/heap-worker", test_heap_worker);
  g_test_add_func ("/perfetto/heap-worker-truncated", test_heap_worker_truncated);
  g_test_add_func ("/perfetto/heap-worker-malformed", test_heap_worker_malformed);
  g_test_add_func ("/perfetto/heap-worker-big", test_heap_worker_big);
  g_test_add_func ("/perfetto/heap-worker-cancel", test_heap_worker_cancel);
  g_test_add_func ("/perfetto/heap-worker-last", test_heap_worker_last);
  g_test_add_func ("/perfetto/heap-worker-last-truncated", test_heap_worker_last_truncated);
  g_test_add_func ("/perfetto/heap-worker-last-cancel", test_heap_worker_last_cancel);

  return g_test_run ();
}
