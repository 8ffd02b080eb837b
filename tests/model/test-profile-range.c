/* test-profile-range.c — the call tree of a time range of a trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "bl-folded.h"
#include "bl-perfetto-reader.h"
#include "bl-perfetto-writer.h"
#include "bl-profile-range.h"
#include "bl-trace-sample.h"

static BlProfile *
load_ok (BlPbWriter *w)
{
  g_autoptr (GBytes) bytes = bl_pbw_steal (w);
  g_autoptr (GError) error = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  BlProfile *profile = bl_perfetto_read_memory (data, len, &error);

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
assert_range (BlProfileRange *range,
              guint64         t0,
              guint64         t1,
              const char     *expected)
{
  g_autoptr (BlProfile) part = bl_profile_range_build (range, t0, t1, NULL);
  g_autofree char *text = NULL;

  g_assert_nonnull (part);
  g_assert_true (bl_profile_is_finished (part));
  text = folded (part);
  g_assert_cmpstr (text, ==, expected);
}

/* thread a: A [100, 400) holding B [150, 250) and C [300, 350) holding
 * D [310, 320); thread b: E [200, 500) */
static BlProfile *
small_trace (void)
{
  BlPbWriter *w = bl_pbw_new ();

  bl_pftw_thread_track (w, 1, 1, 11, "a");
  bl_pftw_thread_track (w, 2, 1, 12, "b");
  bl_pftw_event (w, 1, 100, 1, 1, "A");
  bl_pftw_event (w, 1, 150, 1, 1, "B");
  bl_pftw_event (w, 1, 250, 2, 1, NULL);
  bl_pftw_event (w, 1, 300, 1, 1, "C");
  bl_pftw_event (w, 1, 310, 1, 1, "D");
  bl_pftw_event (w, 1, 320, 2, 1, NULL);
  bl_pftw_event (w, 1, 350, 2, 1, NULL);
  bl_pftw_event (w, 1, 400, 2, 1, NULL);
  bl_pftw_event (w, 1, 200, 1, 2, "E");
  bl_pftw_event (w, 1, 500, 2, 2, NULL);

  return load_ok (w);
}

static void
test_edges (void)
{
  g_autoptr (BlProfile) profile = small_trace ();
  g_autoptr (BlProfileRange) range = bl_profile_range_new (profile);
  g_autofree char *whole = folded (profile);

  g_assert_true (bl_profile_range_get_profile (range) == profile);

  /* the whole trace, and more, is the profile itself */
  assert_range (range, 0, 1000, whole);
  assert_range (range, 100, 500, whole);

  /* straddling: A from 200 to 315 = 115, minus B 50, minus C 15 */
  assert_range (range, 200, 315,
                "a;A 50\n"
                "a;A;B 50\n"
                "a;A;C 10\n"
                "a;A;C;D 5\n"
                "b;E 115\n");

  /* inside one slice only */
  assert_range (range, 160, 200,
                "a;A;B 40\n");

  /* inside the innermost slice: its ancestors get no self time */
  assert_range (range, 312, 318,
                "a;A;C;D 6\n"
                "b;E 6\n");

  /* after thread a ended, and an empty range */
  assert_range (range, 400, 450, "b;E 50\n");
  assert_range (range, 300, 300, "");
  assert_range (range, 600, 700, "");
}

/* Durations around 2^32 ns, the first kept aside from the span: a
 * [10, 10 + 4·2^32) holds b [20, 19 + 2^32) (2^32 - 1), c [2^32 + 100,
 * 2^33 + 98) (2^32 - 2) holding d [2^32 + 200, 2^33), e [2^33 + 100,
 * 3·2^32 + 100) (2^32: first ended short), f (first ended long, then
 * short) and g (ended before it started: no time); closed innermost first,
 * so the long durations come out of span order. */
static void
test_long_spans (void)
{
  g_autoptr (BlProfile) p = bl_profile_new ("test");
  g_autoptr (BlProfileRange) range = NULL;
  const guint64 big = G_GUINT64_CONSTANT (1) << 32;
  const guint64 ends[] = { 10 + 4 * big, 19 + big, 2 * big + 98, 2 * big, 3 * big + 100,
                           3 * big + 300, 3 * big + 400 };
  const guint depths[] = { 1, 2, 2, 3, 2, 2, 2 };
  guint32 t, a, b, c, d, e, f, g;
  guint sa, s;
  BlSpanList list;
  guint64 start, end;

  bl_profile_enable_metric (p, BL_METRIC_TIME_NS);
  t = bl_profile_add_thread (p, bl_profile_intern (p, "T"));
  a = bl_profile_add_child (p, t, bl_profile_intern (p, "a"), 0, 0);
  b = bl_profile_add_child (p, a, bl_profile_intern (p, "b"), 0, 0);
  c = bl_profile_add_child (p, a, bl_profile_intern (p, "c"), 0, 0);
  d = bl_profile_add_child (p, c, bl_profile_intern (p, "d"), 0, 0);
  e = bl_profile_add_child (p, a, bl_profile_intern (p, "e"), 0, 0);
  f = bl_profile_add_child (p, a, bl_profile_intern (p, "f"), 0, 0);
  g = bl_profile_add_child (p, a, bl_profile_intern (p, "g"), 0, 0);

  sa = bl_profile_add_span (p, 0, a, 10);
  s = bl_profile_add_span (p, 0, b, 20);
  bl_profile_set_span_end (p, 0, s, 19 + big);
  s = bl_profile_add_span (p, 0, c, big + 100);
  bl_profile_set_span_end (p, 0, bl_profile_add_span (p, 0, d, big + 200), 2 * big);
  bl_profile_set_span_end (p, 0, s, 2 * big + 98);
  s = bl_profile_add_span (p, 0, e, 2 * big + 100);
  bl_profile_set_span_end (p, 0, s, 2 * big + 150);
  bl_profile_set_span_end (p, 0, s, 3 * big + 100);
  s = bl_profile_add_span (p, 0, f, 3 * big + 200);
  bl_profile_set_span_end (p, 0, s, 4 * big);
  bl_profile_set_span_end (p, 0, s, 3 * big + 300);
  s = bl_profile_add_span (p, 0, g, 3 * big + 400);
  bl_profile_set_span_end (p, 0, s, 5);
  bl_profile_set_span_end (p, 0, sa, 10 + 4 * big);
  bl_profile_add_value (p, a, BL_METRIC_TIME_NS, 1);
  bl_profile_finish (p);

  g_assert_true (bl_profile_get_spans (p, 0, &list));
  g_assert_cmpuint (sizeof (BlSpan), ==, 16);
  g_assert_cmpuint (list.n_spans, ==, G_N_ELEMENTS (ends));
  /* a, b and e: by span index */
  g_assert_cmpuint (list.n_longs, ==, 3);
  g_assert_cmpuint (list.longs[0].span, ==, 0);
  g_assert_cmpuint (list.longs[1].span, ==, 1);
  g_assert_cmpuint (list.longs[2].span, ==, 4);
  g_assert_cmpuint (list.spans[2].duration, ==, big - 2);
  for (gsize i = 0; i < list.n_spans; i++)
    {
      g_assert_cmpuint (bl_span_list_get_end (&list, i), ==, ends[i]);
      g_assert_cmpuint (bl_span_list_get_duration (&list, i), ==, ends[i] - list.spans[i].start);
      g_assert_cmpuint (bl_span_list_get_depth (&list, i), ==, depths[i]);
    }
  g_assert_true (bl_profile_get_time_range (p, 0, &start, &end));
  g_assert_cmpuint (start, ==, 10);
  g_assert_cmpuint (end, ==, 10 + 4 * big);

  range = bl_profile_range_new (p);
  /* across b's end */
  assert_range (range, big + 10, big + 30, "T;a 11\nT;a;b 9\n");
  /* c and d whole, into e */
  assert_range (range, big + 150, 2 * big + 120,
                "T;a 2\nT;a;c 148\nT;a;c;d 4294967096\nT;a;e 20\n");
  /* e's last nanosecond, f whole, past a's end */
  assert_range (range, 3 * big + 99, 5 * big, "T;a 4294967106\nT;a;e 1\nT;a;f 100\n");
}

static void
test_threads_kept (void)
{
  g_autoptr (BlProfile) profile = small_trace ();
  g_autoptr (BlProfileRange) range = bl_profile_range_new (profile);
  g_autoptr (BlProfile) part = bl_profile_range_build (range, 450, 460, NULL);

  /* both threads are there, in order, even the one with no time */
  g_assert_cmpuint (bl_profile_get_n_threads (part), ==, 2);
  g_assert_cmpstr (bl_profile_get_thread_name (part, 0), ==, "a");
  g_assert_cmpstr (bl_profile_get_thread_name (part, 1), ==, "b");
  g_assert_cmpuint (bl_profile_get_grand_total (part, BL_METRIC_TIME_NS), ==, 10);
  g_assert_true (bl_profile_has_metric (part, BL_METRIC_TIME_NS));
}

static const char *
found_name (BlProfile *profile,
            GArray    *found,
            guint      i)
{
  BlSpanList list;

  bl_profile_get_spans (profile, 0, &list);

  return bl_profile_get_node_name (profile, list.spans[g_array_index (found, guint32, i)].node);
}

static void
test_collect (void)
{
  g_autoptr (BlProfile) profile = small_trace ();
  g_autoptr (BlProfileRange) range = bl_profile_range_new (profile);
  g_autoptr (GArray) found = g_array_new (FALSE, FALSE, sizeof (guint32));
  BlSpanList list;

  g_assert_true (bl_profile_get_spans (profile, 0, &list));
  g_assert_cmpuint (list.n_spans, ==, 4);

  /* D is open at 315: A, C, D, outermost first */
  g_assert_cmpuint (bl_profile_range_collect (range, 0, 315, 316, found), ==, 3);
  g_assert_cmpstr (found_name (profile, found, 0), ==, "A");
  g_assert_cmpstr (found_name (profile, found, 1), ==, "C");
  g_assert_cmpstr (found_name (profile, found, 2), ==, "D");

  /* B ended at 250: at [250, 260) only A */
  g_array_set_size (found, 0);
  g_assert_cmpuint (bl_profile_range_collect (range, 0, 250, 260, found), ==, 1);
  g_assert_cmpstr (found_name (profile, found, 0), ==, "A");

  /* started inside the range */
  g_array_set_size (found, 0);
  g_assert_cmpuint (bl_profile_range_collect (range, 0, 120, 301, found), ==, 3);

  /* nothing: empty range, no such thread, after the end */
  g_assert_cmpuint (bl_profile_range_collect (range, 0, 300, 300, found), ==, 0);
  g_assert_cmpuint (bl_profile_range_collect (range, 7, 0, 1000, found), ==, 0);
  g_assert_cmpuint (bl_profile_range_collect (range, 0, 400, 1000, found), ==, 0);
}

/* two tracks of the same name share a thread: its spans are not in start
 * order, and they overlap without nesting */
static void
test_unordered_thread (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (BlProfile) profile = NULL;
  g_autoptr (BlProfileRange) range = NULL;
  g_autoptr (GArray) found = g_array_new (FALSE, FALSE, sizeof (guint32));

  bl_pftw_named_track (w, 5, 0, "net");
  bl_pftw_named_track (w, 6, 0, "net");
  bl_pftw_event (w, 1, 500, 1, 5, "late");
  bl_pftw_event (w, 1, 600, 2, 5, NULL);
  bl_pftw_event (w, 1, 100, 1, 6, "early");
  bl_pftw_event (w, 1, 550, 2, 6, NULL);
  profile = load_ok (w);
  range = bl_profile_range_new (profile);

  g_assert_cmpuint (bl_profile_get_n_threads (profile), ==, 1);
  g_assert_cmpuint (bl_profile_range_collect (range, 0, 520, 530, found), ==, 2);
  assert_range (range, 0, 1000,
                "net;early 450\n"
                "net;late 100\n");
  assert_range (range, 520, 560,
                "net;early 30\n"
                "net;late 40\n");
}

/* random nested slices on several threads, checked against the clipped
 * time of every span summed by brute force */
static void
test_random (void)
{
  GRand *rand = g_rand_new_with_seed (1234);
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (BlProfile) profile = NULL;
  g_autoptr (BlProfileRange) range = NULL;
  static const char *names[] = { "f", "g", "h", "k" };

  for (guint t = 0; t < 3; t++)
    {
      g_autofree char *tname = g_strdup_printf ("t%u", t);
      guint64 ts = 1000;
      guint depth = 0;

      bl_pftw_thread_track (w, 10 + t, 1, 100 + t, tname);
      for (guint i = 0; i < 400; i++)
        {
          ts += g_rand_int_range (rand, 0, 30);
          if (depth > 0 && (depth >= 6 || g_rand_boolean (rand)))
            {
              bl_pftw_event (w, 1, ts, 2, 10 + t, NULL);
              depth--;
            }
          else
            {
              bl_pftw_event (w, 1, ts, 1, 10 + t, names[g_rand_int_range (rand, 0, 4)]);
              depth++;
            }
        }
      while (depth-- > 0)
        bl_pftw_event (w, 1, ts += 5, 2, 10 + t, NULL);
    }
  profile = load_ok (w);
  range = bl_profile_range_new (profile);

  for (guint round = 0; round < 200; round++)
    {
      guint64 t0 = 900 + g_rand_int_range (rand, 0, 7000);
      guint64 t1 = t0 + g_rand_int_range (rand, 0, 3000);
      g_autoptr (BlProfile) part = bl_profile_range_build (range, t0, t1, NULL);
      g_autoptr (GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                                g_free, NULL);
      guint64 sum = 0;

      for (guint t = 0; t < bl_profile_get_n_threads (profile); t++)
        {
          BlSpanList list;
          gsize n_spans = bl_profile_get_spans (profile, t, &list) ? list.n_spans : 0;
          const BlSpan *spans = list.spans;

          for (gsize i = 0; i < n_spans; i++)
            {
              guint64 from = MAX (spans[i].start, t0);
              guint64 to = MIN (bl_span_list_get_end (&list, i), t1);
              char *key;
              guint64 old;

              if (to <= from)
                continue;
              key = bl_profile_dup_stack_string (profile, spans[i].node, ';');
              old = GPOINTER_TO_SIZE (g_hash_table_lookup (expected, key));
              g_hash_table_replace (expected, key, GSIZE_TO_POINTER (old + (to - from)));
            }
        }

      /* every node of the part has the brute-force total, and every
       * brute-force entry is a node of the part */
      for (guint n = 0; n < bl_profile_get_n_nodes (part); n++)
        {
          g_autofree char *key = NULL;
          guint64 total = bl_profile_get_total (part, BL_METRIC_TIME_NS, n);

          if (bl_profile_get_node (part, n)->parent == BL_NODE_NONE)
            continue;
          key = bl_profile_dup_stack_string (part, n, ';');
          g_assert_cmpuint (total, ==, GPOINTER_TO_SIZE (g_hash_table_lookup (expected, key)));
          sum++;
        }
      g_assert_cmpuint (sum, ==, g_hash_table_size (expected));
    }

  g_rand_free (rand);
}

/* every prefix of a trace (what a truncated file gives): the range's call
 * tree never holds more time per thread than the range is long, and the
 * whole range holds the profile's own totals */
static void
test_prefixes (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (GBytes) bytes = NULL;
  const guint8 *data;
  gsize len;

  bl_trace_sample_write (w, 24, 3);
  bytes = bl_pbw_steal (w);
  bl_pbw_free (w);
  data = g_bytes_get_data (bytes, &len);

  for (gsize cut = 0; cut <= len; cut += 1 + cut / 64)
    {
      g_autoptr (BlProfile) profile = bl_perfetto_read_memory (data, cut, NULL);
      g_autoptr (BlProfileRange) range = NULL;
      g_autoptr (BlProfile) whole = NULL;
      guint64 start = G_MAXUINT64, end = 0;

      if (profile == NULL)
        continue;
      range = bl_profile_range_new (profile);
      for (guint t = 0; t < bl_profile_get_n_threads (profile); t++)
        {
          guint64 a, b;

          if (bl_profile_get_time_range (profile, t, &a, &b))
            {
              start = MIN (start, a);
              end = MAX (end, b);
            }
        }

      whole = bl_profile_range_build (range, 0, G_MAXUINT64, NULL);
      g_assert_cmpuint (bl_profile_get_grand_total (whole, BL_METRIC_TIME_NS), ==,
                        bl_profile_get_grand_total (profile, BL_METRIC_TIME_NS));
      if (start >= end)
        continue;

      for (guint i = 0; i < 8; i++)
        {
          guint64 from = start + (end - start) * i / 8;
          guint64 to = from + (end - start) / 5 + 1;
          g_autoptr (BlProfile) part = bl_profile_range_build (range, from, to, NULL);

          g_assert_cmpuint (bl_profile_get_n_threads (part), ==,
                            bl_profile_get_n_threads (profile));
          for (guint t = 0; t < bl_profile_get_n_threads (part); t++)
            g_assert_cmpuint (bl_profile_get_total (part, BL_METRIC_TIME_NS,
                                                    bl_profile_get_thread_root (part, t)),
                              <=, to - from);
        }
    }
}

static void
build_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  BlProfile **out = user_data;
  g_autoptr (GError) error = NULL;

  *out = bl_profile_range_build_finish (BL_PROFILE_RANGE (object), result, &error);
  g_assert_no_error (error);
}

static void
test_async (void)
{
  g_autoptr (BlProfile) profile = small_trace ();
  g_autoptr (BlProfileRange) range = bl_profile_range_new (profile);
  g_autoptr (BlProfile) part = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (BlProfile) cancelled = NULL;
  g_autofree char *text = NULL;

  bl_profile_range_build_async (range, 160, 200, NULL, build_done, &part);
  while (part == NULL)
    g_main_context_iteration (NULL, TRUE);
  text = folded (part);
  g_assert_cmpstr (text, ==, "a;A;B 40\n");

  g_cancellable_cancel (cancellable);
  cancelled = bl_profile_range_build (range, 0, 1000, cancellable);
  g_assert_null (cancelled);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/profile-range/edges", test_edges);
  g_test_add_func ("/profile-range/threads-kept", test_threads_kept);
  g_test_add_func ("/profile-range/long-spans", test_long_spans);
  g_test_add_func ("/profile-range/collect", test_collect);
  g_test_add_func ("/profile-range/unordered-thread", test_unordered_thread);
  g_test_add_func ("/profile-range/random", test_random);
  g_test_add_func ("/profile-range/prefixes", test_prefixes);
  g_test_add_func ("/profile-range/async", test_async);

  return g_test_run ();
}
