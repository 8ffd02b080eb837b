/* test-bsprof-hostile.c — corrupt, truncated and hostile .bsprof input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "bl-bsprof-writer.h"
#include "bl-model.h"

static GBytes *
sample_bytes (gboolean lines,
              gboolean memory)
{
  BlBsprofHeader h;
  BlBsprofWriter *w;
  GBytes *bytes;

  bl_bsprof_header_init (&h);
  h.lines = lines;
  h.memory = memory;
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "main");
  bl_bsprof_writer_string (w, 4, "draw");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 3);
  bl_bsprof_writer_path (w, 2, 1, 4, 2, 30, 4);
  bl_bsprof_writer_cpu (w, 2, 3, 300, 310);
  bl_bsprof_writer_calls (w, 2, 3);
  if (memory)
    {
      bl_bsprof_writer_alloc (w, 2, 2, 0xbeef, 128);
      bl_bsprof_writer_alloc (w, 1, 1, 0xcafe, 64);
      bl_bsprof_writer_free_op (w, 2, 2, 0xbeef, FALSE);
    }
  bl_bsprof_writer_cpu (w, 1, 1, 20, 25);
  bl_bsprof_writer_end (w, 1700000005000);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  return bytes;
}

/* Every prefix of a valid file: either a clear error (inside the header) or
 * a profile that is incomplete and kept only whole entries. */
static void
test_every_prefix (gconstpointer data)
{
  guint variant = GPOINTER_TO_UINT (data);
  g_autoptr(GBytes) bytes = sample_bytes (variant & 1, variant & 2);
  const guint8 *full = g_bytes_get_data (bytes, NULL);
  gsize len = g_bytes_get_size (bytes);
  guint errors = 0, partial = 0;
  guint64 last_cpu = 0;

  for (gsize cut = 0; cut < len; cut++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlProfile) profile = NULL;
      g_autofree guint8 *copy = g_memdup2 (full, cut);   /* exact size: ASan/valgrind catch overreads */

      profile = bl_bsprof_read_memory (copy, cut, &error);
      if (profile == NULL)
        {
          g_assert_nonnull (error);
          g_assert_true (error->domain == BL_BSPROF_ERROR || error->domain == BL_FORMAT_ERROR);
          g_assert_nonnull (error->message);
          errors++;
          continue;
        }

      g_assert_no_error (error);
      g_assert_true (bl_profile_is_incomplete (profile));
      g_assert_nonnull (strstr (bl_profile_get_incomplete_reason (profile), "byte"));
      /* totals only grow as more of the stream is kept */
      g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_CPU), >=, last_cpu);
      last_cpu = bl_profile_get_grand_total (profile, BL_METRIC_CPU);
      g_assert_cmpuint (last_cpu, <=, 320);
      partial++;
    }

  g_assert_cmpuint (errors, >, 0);
  g_assert_cmpuint (partial, >, 0);
  g_assert_cmpuint (last_cpu, ==, 320);
}

static void
test_bit_flips (void)
{
  g_autoptr(GBytes) bytes = sample_bytes (TRUE, TRUE);
  gsize len = g_bytes_get_size (bytes);
  g_autofree guint8 *copy = g_malloc (len);

  for (gsize i = 0; i < len; i++)
    for (guint bit = 0; bit < 8; bit++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(BlProfile) profile = NULL;

        memcpy (copy, g_bytes_get_data (bytes, NULL), len);
        copy[i] ^= 1 << bit;
        profile = bl_bsprof_read_memory (copy, len, &error);
        g_assert_true ((profile != NULL) != (error != NULL));
        if (error != NULL)
          g_assert_true (error->domain == BL_BSPROF_ERROR || error->domain == BL_FORMAT_ERROR);
      }
}

static void
expect_error (GBytes     *bytes,
              gint        code,
              const char *needle)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;

  profile = bl_bsprof_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   &error);
  g_assert_null (profile);
  g_assert_error (error, BL_BSPROF_ERROR, code);
  if (needle != NULL && strstr (error->message, needle) == NULL)
    g_error ("message “%s” lacks “%s”", error->message, needle);
}

static BlBsprofWriter *
writer_with_thread (void)
{
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "main");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 0, 1, 2);

  return w;
}

/* A profile with lines and memory: the thread "Thread main" with its root
 * main (pkg:/source/main.brs, line 10) as path element 1; strings from 4
 * on are free. */
static BlBsprofWriter *
memory_writer (void)
{
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  h.lines = TRUE;
  h.memory = TRUE;
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "main");
  bl_bsprof_writer_string (w, 3, "pkg:/source/main.brs");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 3, 10, 2);

  return w;
}

/* The first node whose function is @name. */
static guint32
find_child_named (BlProfile  *profile,
                  const char *name)
{
  for (guint32 i = 0; i < bl_profile_get_n_nodes (profile); i++)
    if (g_str_equal (bl_profile_get_string (profile, bl_profile_get_nodes (profile)[i].name), name))
      return i;

  return BL_NODE_NONE;
}

static GBytes *
finish (BlBsprofWriter *w)
{
  GBytes *bytes;

  bl_bsprof_writer_end (w, 1);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  return bytes;
}

static void
test_long_varint (void)
{
  static const guint8 eleven[] = { 0x84, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00 };
  BlBsprofWriter *w = writer_with_thread ();
  g_autoptr(GBytes) bytes = NULL;

  bl_bsprof_writer_bytes (w, eleven, sizeof eleven);
  bytes = finish (w);
  expect_error (bytes, BL_BSPROF_ERROR_BAD_VARINT, "longer than 10 bytes");
}

static void
test_caller_cycle (void)
{
  BlBsprofWriter *w = writer_with_thread ();
  g_autoptr(GBytes) bytes = NULL;

  /* 2 → 1, 3 → 2, then 1 redefined as called by 3: the chain loops */
  bl_bsprof_writer_path (w, 2, 1, 0, 0, 5, 2);
  bl_bsprof_writer_path (w, 3, 2, 0, 0, 6, 2);
  bl_bsprof_writer_path (w, 1, 3, 0, 0, 7, 2);
  bl_bsprof_writer_cpu (w, 1, 0, 1, 1);
  bytes = finish (w);
  expect_error (bytes, BL_BSPROF_ERROR_CALLER_CYCLE, "loop");
}

static void
test_forward_cycle (void)
{
  BlBsprofWriter *w = writer_with_thread ();
  g_autoptr(GBytes) bytes = NULL;

  /* 5 called by 6 and 6 by 5: neither is defined before the other */
  bl_bsprof_writer_path (w, 5, 6, 0, 0, 5, 2);
  bl_bsprof_writer_path (w, 6, 5, 0, 0, 6, 2);
  bytes = finish (w);
  expect_error (bytes, BL_BSPROF_ERROR_UNDEFINED_ID, "path element 6");
}

static void
test_own_caller (void)
{
  BlBsprofWriter *w = writer_with_thread ();
  g_autoptr(GBytes) bytes = NULL;

  bl_bsprof_writer_path (w, 7, 7, 0, 0, 5, 2);
  bytes = finish (w);
  expect_error (bytes, BL_BSPROF_ERROR_CALLER_CYCLE, "its own caller");
}

static void
test_string_id_max (void)
{
  BlBsprofWriter *w = writer_with_thread ();
  g_autoptr(GBytes) bytes = NULL;

  bl_bsprof_writer_path (w, 2, 1, 0, 0xFFFFFFFFu, 5, 2);
  bytes = finish (w);
  expect_error (bytes, BL_BSPROF_ERROR_UNDEFINED_ID, "string 4294967295");
}

static void
test_undefined_module (void)
{
  BlBsprofWriter *w = writer_with_thread ();
  g_autoptr(GBytes) bytes = NULL;

  bl_bsprof_writer_root (w, 9, 42, 0, 1, 2);
  bytes = finish (w);
  expect_error (bytes, BL_BSPROF_ERROR_UNDEFINED_ID, "module 42");
}

static void
test_undefined_element (void)
{
  BlBsprofWriter *w = writer_with_thread ();
  g_autoptr(GBytes) bytes = NULL;
  gsize offset;

  offset = bl_bsprof_writer_get_size (w);
  bl_bsprof_writer_cpu (w, 99, 0, 1, 1);
  bytes = finish (w);
  {
    g_autofree char *needle = g_strdup_printf ("byte %" G_GSIZE_FORMAT, offset);

    expect_error (bytes, BL_BSPROF_ERROR_UNDEFINED_ID, needle);
  }
}

static void
test_header_too_small (void)
{
  BlBsprofHeader h;
  BlBsprofWriter *w;
  g_autoptr(GBytes) bytes = NULL;

  bl_bsprof_header_init (&h);
  h.header_size_delta = -5;
  w = bl_bsprof_writer_new (&h);
  bytes = finish (w);
  expect_error (bytes, BL_BSPROF_ERROR_BAD_HEADER, "header");
}

static void
test_header_past_end (void)
{
  BlBsprofHeader h;
  BlBsprofWriter *w;
  g_autoptr(GBytes) bytes = NULL;

  bl_bsprof_header_init (&h);
  h.header_size_delta = 100000;
  w = bl_bsprof_writer_new (&h);
  bytes = finish (w);
  expect_error (bytes, BL_BSPROF_ERROR_TRUNCATED_HEADER, "header");
}

static void
test_wrong_magic (void)
{
  const char text[] = "{\"not\": \"a profile\"}";
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, sizeof text - 1);

  expect_error (bytes, BL_BSPROF_ERROR_BAD_MAGIC, "bsprof");
}

static void
test_major_2 (void)
{
  BlBsprofHeader h;
  BlBsprofWriter *w;
  g_autoptr(GBytes) bytes = NULL;

  bl_bsprof_header_init (&h);
  h.major = 2;
  w = bl_bsprof_writer_new (&h);
  bytes = finish (w);
  expect_error (bytes, BL_BSPROF_ERROR_UNSUPPORTED_VERSION, "version 2");
}

static void
test_empty (void)
{
  g_autoptr(GError) error = NULL;
  BlProfile *profile;

  profile = bl_bsprof_read_memory ((const guint8 *) "", 0, &error);
  g_assert_null (profile);
  g_assert_error (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_EMPTY);
}

static void
test_unknown_entry_type (void)
{
  BlBsprofWriter *w = writer_with_thread ();
  g_autoptr(GBytes) bytes = NULL;

  bl_bsprof_writer_varint (w, (5 << 3) | 6);
  bytes = finish (w);
  expect_error (bytes, BL_BSPROF_ERROR_UNKNOWN_ENTRY, "type 6");
}

static void
test_huge_string_length (void)
{
  BlBsprofWriter *w = writer_with_thread ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  guint8 junk[4096];

  /* a string entry whose terminator never comes: incomplete, not a hang
   * or an allocation beyond the input */
  memset (junk, 'x', sizeof junk);
  bl_bsprof_writer_varint (w, (9 << 3) | 0);
  bl_bsprof_writer_bytes (w, junk, sizeof junk);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  profile = bl_bsprof_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   &error);
  g_assert_no_error (error);
  g_assert_true (bl_profile_is_incomplete (profile));
  g_assert_cmpuint (bl_profile_get_n_threads (profile), ==, 1);
}

static void
test_trailing_bytes (void)
{
  BlBsprofWriter *w = writer_with_thread ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(GError) error = NULL;

  bl_bsprof_writer_end (w, 7);
  bl_bsprof_writer_bytes (w, "junk", 4);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  profile = bl_bsprof_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   &error);
  g_assert_no_error (error);
  g_assert_false (bl_profile_is_incomplete (profile));
  g_assert_nonnull (strstr (bl_profile_get_warning (profile), "4 bytes after the footer"));
}

static void
test_missing_footer (void)
{
  BlBsprofWriter *w = writer_with_thread ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(GError) error = NULL;

  bl_bsprof_writer_cpu (w, 1, 0, 5, 5);
  bl_bsprof_writer_varint (w, 0);   /* end marker, no footer */
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  profile = bl_bsprof_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   &error);
  g_assert_no_error (error);
  g_assert_true (bl_profile_is_incomplete (profile));
  g_assert_nonnull (strstr (bl_profile_get_incomplete_reason (profile), "footer"));
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_CPU), ==, 5);
}

/* Sums saturate: two entries near 2^64 never add up to a small number. */
static void
test_saturating_sums (void)
{
  BlBsprofWriter *w = writer_with_thread ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 2; i++)
    {
      bl_bsprof_writer_cpu (w, 1, 0, G_MAXUINT64 - 1, G_MAXUINT64 / 2 + 1);
      bl_bsprof_writer_calls (w, 1, G_MAXUINT64);
    }
  bytes = finish (w);
  profile = bl_bsprof_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   &error);
  g_assert_no_error (error);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_CPU), ==, G_MAXUINT64);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_WALL), ==, G_MAXUINT64);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_CALLS), ==, G_MAXUINT64);
}

/* A path element's sums are kept in 32 bits while decoding: sums that
 * carry out of them, once and many times, values that do not fit, and
 * sums that then saturate, read by the hot loop (most entries) and by the
 * careful parsers (the last few, near the end of the input), are exact. */
static void
test_narrow_sums (void)
{
  BlBsprofWriter *w = writer_with_thread ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  guint64 want[3][3] = { { 0, } };   /* per path element: CPU, wall, calls */
  GRand *rand = g_rand_new_with_seed (5);
  guint32 node;

  bl_bsprof_writer_string (w, 3, "alpha");
  bl_bsprof_writer_string (w, 4, "beta");
  bl_bsprof_writer_path (w, 2, 1, 0, 0, 2, 3);
  bl_bsprof_writer_path (w, 3, 1, 0, 0, 3, 4);
  for (guint i = 0; i < 3000; i++)
    {
      guint32 pe = g_rand_int_range (rand, 1, 4);
      guint64 cpu, wall, calls;

      switch (pe)
        {
        case 1:   /* carries every two entries or so */
          cpu = G_MAXUINT32 / 2 + g_rand_int (rand) % 1000;
          wall = G_MAXUINT32 - g_rand_int (rand) % 3;
          calls = g_rand_int (rand);
          break;
        case 2:   /* beyond 32 bits, now and then */
          cpu = g_rand_int_range (rand, 0, 8) == 0 ? G_GUINT64_CONSTANT (1) << 40 : 7;
          wall = g_rand_int_range (rand, 0, 50) == 0 ? (guint64) G_MAXUINT32 + 1 : 1;
          calls = g_rand_int_range (rand, 0, 9) == 0 ? G_MAXUINT32 : 1;
          break;
        default:  /* saturates at 2^64 − 1 */
          cpu = G_MAXUINT64 / 100;
          wall = 1;
          calls = G_MAXUINT64 / 500;
          break;
        }
      bl_bsprof_writer_cpu (w, pe, 0, cpu, wall);
      bl_bsprof_writer_calls (w, pe, calls);
      want[pe - 1][0] = bl_saturating_add (want[pe - 1][0], cpu);
      want[pe - 1][1] = bl_saturating_add (want[pe - 1][1], wall);
      want[pe - 1][2] = bl_saturating_add (want[pe - 1][2], calls);
    }
  g_rand_free (rand);
  bytes = finish (w);
  profile = bl_bsprof_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   &error);
  g_assert_no_error (error);

  /* the thread root's only child is path element 1, whose children are 2
   * (alpha) and 3 (beta), in that order */
  node = bl_profile_get_node (profile, bl_profile_get_thread_root (profile, 0))->first_child;
  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_CPU, node), ==, want[0][0]);
  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_WALL, node), ==, want[0][1]);
  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_CALLS, node), ==, want[0][2]);
  node = bl_profile_get_node (profile, node)->first_child;
  for (guint pe = 1; pe < 3; pe++)
    {
      g_assert_cmpuint (node, !=, BL_NODE_NONE);
      g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_CPU, node), ==, want[pe][0]);
      g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_WALL, node), ==, want[pe][1]);
      g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_CALLS, node), ==, want[pe][2]);
      node = bl_profile_get_node (profile, node)->next_sibling;
    }
  g_assert_cmpuint (want[2][0], ==, G_MAXUINT64);
}

/* Decodes bytes with the live blocks done in line and then by the worker
 * thread: the same error, or the same profile (every metric of every node
 * and line, unmatched frees, completeness). */
static void
assert_same_with_worker (const guint8 *data,
                         gsize         len)
{
  g_autoptr(GError) error_inline = NULL;
  g_autoptr(GError) error_worker = NULL;
  g_autoptr(BlProfile) a = NULL;
  g_autoptr(BlProfile) b = NULL;
  g_autofree guint8 *copy = g_memdup2 (data, len);   /* exact size for ASan */

  bl_bsprof_set_worker (G_MAXUINT64, 0);
  a = bl_bsprof_read_memory (copy, len, &error_inline);
  bl_bsprof_set_worker (0, 0);
  b = bl_bsprof_read_memory (copy, len, &error_worker);
  bl_bsprof_set_worker (BL_BSPROF_WORKER_MIN_BYTES, BL_BSPROF_WORKER_MIN_LIVE);

  g_assert_true ((a == NULL) == (b == NULL));
  if (a == NULL)
    {
      g_assert_cmpstr (error_inline->message, ==, error_worker->message);
      return;
    }

  g_assert_cmpint (bl_profile_is_incomplete (a), ==, bl_profile_is_incomplete (b));
  g_assert_cmpuint (bl_profile_get_info (a)->unmatched_frees, ==,
                    bl_profile_get_info (b)->unmatched_frees);
  g_assert_cmpuint (bl_profile_get_n_nodes (a), ==, bl_profile_get_n_nodes (b));
  g_assert_cmpuint (bl_profile_get_n_lines (a), ==, bl_profile_get_n_lines (b));
  for (BlMetricId m = BL_METRIC_CPU; m <= BL_METRIC_LIVE_COUNT; m++)
    {
      g_assert_cmpint (bl_profile_has_metric (a, m), ==, bl_profile_has_metric (b, m));
      if (!bl_profile_has_metric (a, m))
        continue;
      for (guint32 n = 0; n < bl_profile_get_n_nodes (a); n++)
        g_assert_cmpuint (bl_profile_get_self (a, m, n), ==, bl_profile_get_self (b, m, n));
      for (guint32 i = 0; i < bl_profile_get_n_lines (a); i++)
        g_assert_cmpuint (bl_profile_get_line_value (a, m, i), ==,
                          bl_profile_get_line_value (b, m, i));
    }
}

/* The worker thread gives what the in-line tables give, on every prefix of
 * a profile with memory operations and on every one-bit corruption of it. */
static void
test_worker_same (void)
{
  g_autoptr(GBytes) bytes = sample_bytes (TRUE, TRUE);
  const guint8 *full = g_bytes_get_data (bytes, NULL);
  gsize len = g_bytes_get_size (bytes);
  g_autofree guint8 *copy = g_malloc (len);

  for (gsize cut = 0; cut <= len; cut++)
    assert_same_with_worker (full, cut);

  for (gsize i = 0; i < len; i++)
    for (guint bit = 0; bit < 8; bit++)
      {
        memcpy (copy, full, len);
        copy[i] ^= 1 << bit;
        assert_same_with_worker (copy, len);
      }
}

/* Addresses and sizes beyond 32 bits take two slots of the worker's ring:
 * many of them, among 32-bit ones, across the ring's wrap and its publish
 * and wake-up boundaries (400,000 operations for a ring of 131,072 slots),
 * give what the in-line tables give. */
static void
test_worker_wide (void)
{
  BlBsprofWriter *w = memory_writer ();
  g_autoptr(GBytes) bytes = NULL;
  GRand *rand = g_rand_new_with_seed (11);
  guint64 pool[4096];
  guint n_pool = 0;

  bl_bsprof_writer_path (w, 2, 1, 3, 3, 20, 2);
  bl_bsprof_writer_path (w, 3, 2, 4, 3, 30, 2);

  for (guint i = 0; i < 400000; i++)
    {
      guint32 pe = g_rand_int_range (rand, 1, 4);
      guint32 offset = g_rand_int_range (rand, 0, 5);
      guint kind = g_rand_int_range (rand, 0, 10);

      if (kind < 5 || n_pool == 0)
        {
          guint64 addr = 16 * (guint64) g_rand_int_range (rand, 1, 1 << 20);
          guint64 size = g_rand_int_range (rand, 1, 300);

          if (g_rand_int_range (rand, 0, 5) == 0)
            addr |= G_GUINT64_CONSTANT (1) << g_rand_int_range (rand, 32, 64);
          if (g_rand_int_range (rand, 0, 7) == 0)
            size |= G_GUINT64_CONSTANT (1) << g_rand_int_range (rand, 32, 64);
          bl_bsprof_writer_alloc (w, pe, offset, addr, size);
          if (n_pool < G_N_ELEMENTS (pool))
            pool[n_pool++] = addr;
          else
            pool[g_rand_int_range (rand, 0, n_pool)] = addr;
        }
      else if (kind < 9)
        {
          guint k = g_rand_int_range (rand, 0, n_pool);

          bl_bsprof_writer_free_op (w, pe, offset, pool[k], kind == 8);
          pool[k] = pool[--n_pool];
        }
      else
        bl_bsprof_writer_free_op (w, pe, offset,
                                  G_GUINT64_CONSTANT (1) << g_rand_int_range (rand, 0, 64), FALSE);
    }
  g_rand_free (rand);
  bytes = finish (w);

  assert_same_with_worker (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

/* Allocation sums that saturate: what is live is then what the blocks still
 * live add up to (not what was allocated less what was freed, which would
 * no longer hold), and freed is what is left; a path element that does not
 * saturate keeps its exact sums either way, a block allocated over without
 * a free staying live. Done in line and by the worker alike. */
static void
test_saturating_memory (void)
{
  for (guint saturate = 0; saturate < 2; saturate++)
    {
      BlBsprofWriter *w = memory_writer ();
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(BlProfile) profile = NULL;
      g_autoptr(GError) error = NULL;
      guint32 big, small;

      bl_bsprof_writer_string (w, 4, "grow");
      bl_bsprof_writer_path (w, 2, 1, 2, 3, 20, 4);

      if (saturate)
        {
          /* 2^63 + 2^63 + 5 saturates; the first block is freed */
          bl_bsprof_writer_alloc (w, 1, 1, 0x10, G_GUINT64_CONSTANT (1) << 63);
          bl_bsprof_writer_alloc (w, 1, 1, 0x20, G_GUINT64_CONSTANT (1) << 63);
          bl_bsprof_writer_alloc (w, 1, 1, 0x30, 5);
          bl_bsprof_writer_free_op (w, 1, 1, 0x10, FALSE);
        }
      /* 7 allocated over by 9, which is freed: 7 stays live */
      bl_bsprof_writer_alloc (w, 2, 1, 0x40, 7);
      bl_bsprof_writer_alloc (w, 2, 1, 0x40, 9);
      bl_bsprof_writer_free_op (w, 2, 1, 0x40, FALSE);
      bytes = finish (w);

      profile = bl_bsprof_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                       &error);
      g_assert_no_error (error);
      big = find_child_named (profile, "main");
      small = find_child_named (profile, "grow");
      g_assert_cmpuint (small, !=, BL_NODE_NONE);

      g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_ALLOC_BYTES, small), ==, 16);
      g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_ALLOC_COUNT, small), ==, 2);
      g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_FREE_BYTES, small), ==, 9);
      g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_FREE_COUNT, small), ==, 1);
      g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_LIVE_BYTES, small), ==, 7);
      g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_LIVE_COUNT, small), ==, 1);

      if (saturate)
        {
          g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_ALLOC_BYTES, big), ==,
                            G_MAXUINT64);
          g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_ALLOC_COUNT, big), ==, 3);
          g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_LIVE_BYTES, big), ==,
                            (G_GUINT64_CONSTANT (1) << 63) + 5);
          g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_LIVE_COUNT, big), ==, 2);
          g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_FREE_BYTES, big), ==,
                            (G_GUINT64_CONSTANT (1) << 63) - 6);
          g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_FREE_COUNT, big), ==, 1);
        }
      else
        g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_ALLOC_BYTES, big), ==, 0);

      assert_same_with_worker (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_data_func ("/model/bsprof-hostile/prefixes/plain", GUINT_TO_POINTER (0), test_every_prefix);
  g_test_add_data_func ("/model/bsprof-hostile/prefixes/lines", GUINT_TO_POINTER (1), test_every_prefix);
  g_test_add_data_func ("/model/bsprof-hostile/prefixes/memory", GUINT_TO_POINTER (2), test_every_prefix);
  g_test_add_data_func ("/model/bsprof-hostile/prefixes/lines-memory", GUINT_TO_POINTER (3), test_every_prefix);
  g_test_add_func ("/model/bsprof-hostile/bit-flips", test_bit_flips);
  g_test_add_func ("/model/bsprof-hostile/worker-same", test_worker_same);
  g_test_add_func ("/model/bsprof-hostile/worker-wide", test_worker_wide);
  g_test_add_func ("/model/bsprof-hostile/long-varint", test_long_varint);
  g_test_add_func ("/model/bsprof-hostile/caller-cycle", test_caller_cycle);
  g_test_add_func ("/model/bsprof-hostile/forward-cycle", test_forward_cycle);
  g_test_add_func ("/model/bsprof-hostile/own-caller", test_own_caller);
  g_test_add_func ("/model/bsprof-hostile/string-id-max", test_string_id_max);
  g_test_add_func ("/model/bsprof-hostile/undefined-module", test_undefined_module);
  g_test_add_func ("/model/bsprof-hostile/undefined-element", test_undefined_element);
  g_test_add_func ("/model/bsprof-hostile/header-too-small", test_header_too_small);
  g_test_add_func ("/model/bsprof-hostile/header-past-end", test_header_past_end);
  g_test_add_func ("/model/bsprof-hostile/wrong-magic", test_wrong_magic);
  g_test_add_func ("/model/bsprof-hostile/major-2", test_major_2);
  g_test_add_func ("/model/bsprof-hostile/empty", test_empty);
  g_test_add_func ("/model/bsprof-hostile/unknown-entry-type", test_unknown_entry_type);
  g_test_add_func ("/model/bsprof-hostile/unterminated-string", test_huge_string_length);
  g_test_add_func ("/model/bsprof-hostile/trailing-bytes", test_trailing_bytes);
  g_test_add_func ("/model/bsprof-hostile/missing-footer", test_missing_footer);
  g_test_add_func ("/model/bsprof-hostile/saturating-sums", test_saturating_sums);
  g_test_add_func ("/model/bsprof-hostile/saturating-memory", test_saturating_memory);
  g_test_add_func ("/model/bsprof-hostile/narrow-sums", test_narrow_sums);

  return g_test_run ();
}
