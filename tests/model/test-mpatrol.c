/* test-mpatrol.c — mpatrol profile reader on files from the test writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-model.h"
#include "bl-mpatrol-reader.h"
#include "bl-mpatrol-writer.h"

static const struct {
  const char            *name;
  const BlMpatrolLayout *layout;
} layouts[] = {
  { "ilp32-le", &bl_mpatrol_ilp32_le },
  { "ilp32-be", &bl_mpatrol_ilp32_be },
  { "lp64-le", &bl_mpatrol_lp64_le },
  { "lp64-be", &bl_mpatrol_lp64_be },
  { "llp64-le", &bl_mpatrol_llp64_le },
};

/* main → load_config → (malloc site with data), main → parse → (data),
 * and a site without a symbol under main. Sites are added innermost
 * first, so parents come after their children in the file, as in
 * mpatrol's address-ordered output. */
static BlMpatrolWriter *
make_writer (void)
{
  BlMpatrolWriter *w = bl_mpatrol_writer_new ();
  guint64 d_load, d_parse, d_anon;
  guint64 s_main, s_load, s_parse;
  guint64 main_site, load_site, parse_site;

  d_load = bl_mpatrol_writer_add_data (w);
  d_parse = bl_mpatrol_writer_add_data (w);
  d_anon = bl_mpatrol_writer_add_data (w);

  /* load_config: 3 × 16 bytes, 1 × 4000 bytes, frees one 16 */
  for (guint i = 0; i < 3; i++)
    {
      bl_mpatrol_writer_data_op (w, d_load, FALSE, 16);
      bl_mpatrol_writer_bin (w, FALSE, 16);
    }
  bl_mpatrol_writer_data_op (w, d_load, FALSE, 4000);
  bl_mpatrol_writer_bin (w, FALSE, 4000);
  bl_mpatrol_writer_data_op (w, d_load, TRUE, 16);
  bl_mpatrol_writer_bin (w, TRUE, 16);
  /* parse: 2 × 100 bytes, both freed */
  for (guint i = 0; i < 2; i++)
    {
      bl_mpatrol_writer_data_op (w, d_parse, FALSE, 100);
      bl_mpatrol_writer_bin (w, FALSE, 100);
      bl_mpatrol_writer_data_op (w, d_parse, TRUE, 100);
      bl_mpatrol_writer_bin (w, TRUE, 100);
    }
  /* unnamed: one 1024-byte allocation (the last, open bin) */
  bl_mpatrol_writer_data_op (w, d_anon, FALSE, 1024);
  bl_mpatrol_writer_bin (w, FALSE, 1024);

  s_main = bl_mpatrol_writer_add_symbol (w, "main", 0x401000);
  s_load = bl_mpatrol_writer_add_symbol (w, "load_config", 0x402000);
  s_parse = bl_mpatrol_writer_add_symbol (w, "parse", 0x403000);

  /* indexes: 1 load site, 2 parse site, 3 anonymous, 4 main, 5 second load site */
  load_site = 1;
  parse_site = 2;
  main_site = 4;
  bl_mpatrol_writer_add_site_raw (w, load_site, main_site, 0x402010, s_load, 6, d_load);
  bl_mpatrol_writer_add_site_raw (w, parse_site, main_site, 0x403020, s_parse, 18, d_parse);
  bl_mpatrol_writer_add_site_raw (w, 3, main_site, 0x404444, 0, 0, d_anon);
  bl_mpatrol_writer_add_site_raw (w, main_site, 0, 0x401080, s_main, 1, 0);
  /* a second site in load_config without data merges with the first */
  bl_mpatrol_writer_add_site_raw (w, 5, main_site, 0x402050, s_load, 6, 0);

  return w;
}

static char *
folded (BlProfile  *profile,
        BlMetricId  metric)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();

  g_assert_true (bl_folded_write (profile, metric, out, NULL, NULL));
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (out, NULL, NULL));

  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
}

static void
check_profile (BlProfile             *profile,
               const BlMpatrolLayout *layout)
{
  g_autofree char *alloc_bytes = folded (profile, BL_METRIC_ALLOC_BYTES);
  g_autofree char *alloc_count = folded (profile, BL_METRIC_ALLOC_COUNT);
  g_autofree char *live_bytes = folded (profile, BL_METRIC_LIVE_BYTES);
  g_autofree char *free_count = folded (profile, BL_METRIC_FREE_COUNT);
  g_autofree char *anon = g_strdup_printf ("mpatrol;main;0x%0*X 1024\n",
                                           (int) layout->pointer_size * 2, 0x404444);
  g_autofree char *expected = g_strconcat (anon,
                                           "mpatrol;main;load_config 4048\n"
                                           "mpatrol;main;parse 200\n", NULL);
  const BlHistogramBucket *hist;
  guint n_buckets;

  g_assert_cmpstr (bl_profile_get_info (profile)->format, ==, "mpatrol");
  g_assert_cmpstr (bl_profile_get_info (profile)->version, ==, "1.5.1");
  g_assert_false (bl_profile_is_incomplete (profile));
  g_assert_cmpstr (alloc_bytes, ==, expected);
  g_assert_nonnull (strstr (alloc_count, "mpatrol;main;load_config 4\n"));
  g_assert_nonnull (strstr (alloc_count, "mpatrol;main;parse 2\n"));
  g_assert_nonnull (strstr (live_bytes, "mpatrol;main;load_config 4032\n"));
  g_assert_null (strstr (live_bytes, "parse"));
  g_assert_nonnull (strstr (free_count, "mpatrol;main;load_config 1\n"));
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_ALLOC_BYTES), ==, 5272);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_FREE_BYTES), ==, 216);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_LIVE_COUNT), ==, 4);

  hist = bl_profile_get_histogram (profile, &n_buckets);
  g_assert_nonnull (hist);
  g_assert_cmpuint (n_buckets, ==, 1024);
  g_assert_cmpuint (hist[15].lower, ==, 16);
  g_assert_cmpuint (hist[15].upper, ==, 16);
  g_assert_cmpuint (hist[15].alloc_count, ==, 3);
  g_assert_cmpuint (hist[15].alloc_bytes, ==, 48);
  g_assert_cmpuint (hist[15].free_count, ==, 1);
  g_assert_cmpuint (hist[99].alloc_count, ==, 2);
  g_assert_cmpuint (hist[99].free_bytes, ==, 200);
  g_assert_cmpuint (hist[1023].lower, ==, 1024);
  g_assert_cmpuint (hist[1023].upper, ==, G_MAXUINT64);
  g_assert_cmpuint (hist[1023].alloc_count, ==, 2);
  g_assert_cmpuint (hist[1023].alloc_bytes, ==, 5024);
}

static void
test_layouts (void)
{
  BlMpatrolWriter *w = make_writer ();

  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
    {
      g_autoptr(GBytes) bytes = bl_mpatrol_writer_serialize (w, layouts[i].layout);
      g_autoptr(GError) error = NULL;
      g_autoptr(BlProfile) profile = NULL;
      g_autoptr(GObject) loaded = NULL;
      gsize len;
      const guint8 *data = g_bytes_get_data (bytes, &len);

      g_test_message ("layout %s", layouts[i].name);
      g_assert_cmpint (bl_format_detect (data, MIN (len, BL_FORMAT_SNIFF_SIZE), FALSE), ==,
                       BL_FORMAT_MPATROL);
      profile = bl_mpatrol_read_memory (data, len, &error);
      g_assert_no_error (error);
      check_profile (profile, layouts[i].layout);

      loaded = bl_format_load_bytes (bytes, &error);
      g_assert_no_error (error);
      g_assert_true (BL_IS_PROFILE (loaded));
      check_profile (BL_PROFILE (loaded), layouts[i].layout);
    }

  bl_mpatrol_writer_free (w);
}

static void
test_no_bins (void)
{
  BlMpatrolWriter *w = bl_mpatrol_writer_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  guint64 d;
  guint n_buckets = 99;

  bl_mpatrol_writer_set_bin_size (w, 0);
  d = bl_mpatrol_writer_add_data (w);
  bl_mpatrol_writer_data_op (w, d, FALSE, 10);
  bl_mpatrol_writer_add_site (w, 0, 0x1000, bl_mpatrol_writer_add_symbol (w, "f", 0x1000), d);
  bytes = bl_mpatrol_writer_serialize (w, &bl_mpatrol_lp64_be);
  profile = bl_mpatrol_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                    &error);
  g_assert_no_error (error);
  g_assert_null (bl_profile_get_histogram (profile, &n_buckets));
  g_assert_cmpuint (n_buckets, ==, 0);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_ALLOC_BYTES), ==, 10);
  bl_mpatrol_writer_free (w);
}

static void
expect_error (GBytes *bytes,
              int     code,
              const char *needle)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile =
    bl_mpatrol_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);

  g_assert_null (profile);
  g_assert_error (error, BL_MPATROL_ERROR, code);
  if (needle != NULL && strstr (error->message, needle) == NULL)
    g_error ("“%s” not in “%s”", needle, error->message);
}

static void
test_hostile_references (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
    {
      const BlMpatrolLayout *layout = layouts[i].layout;
      BlMpatrolWriter *w;
      g_autoptr(GBytes) cycle = NULL;
      g_autoptr(GBytes) parent = NULL;
      g_autoptr(GBytes) data = NULL;
      g_autoptr(GBytes) dup = NULL;
      g_autoptr(GBytes) offset = NULL;

      w = bl_mpatrol_writer_new ();
      bl_mpatrol_writer_add_site_raw (w, 1, 3, 0x10, 0, 0, 0);
      bl_mpatrol_writer_add_site_raw (w, 2, 1, 0x20, 0, 0, 0);
      bl_mpatrol_writer_add_site_raw (w, 3, 2, 0x30, 0, 0, 0);
      cycle = bl_mpatrol_writer_serialize (w, layout);
      expect_error (cycle, BL_MPATROL_ERROR_CYCLE, "own caller");
      bl_mpatrol_writer_free (w);

      w = bl_mpatrol_writer_new ();
      bl_mpatrol_writer_add_site_raw (w, 1, 7, 0x10, 0, 0, 0);
      parent = bl_mpatrol_writer_serialize (w, layout);
      expect_error (parent, BL_MPATROL_ERROR_BAD_INDEX, "parent 7");
      bl_mpatrol_writer_free (w);

      w = bl_mpatrol_writer_new ();
      bl_mpatrol_writer_add_site_raw (w, 1, 0, 0x10, 0, 0, 5);
      data = bl_mpatrol_writer_serialize (w, layout);
      expect_error (data, BL_MPATROL_ERROR_BAD_INDEX, "profiling data 5");
      bl_mpatrol_writer_free (w);

      w = bl_mpatrol_writer_new ();
      bl_mpatrol_writer_add_site_raw (w, 1, 0, 0x10, 0, 0, 0);
      bl_mpatrol_writer_add_site_raw (w, 1, 0, 0x20, 0, 0, 0);
      dup = bl_mpatrol_writer_serialize (w, layout);
      expect_error (dup, BL_MPATROL_ERROR_BAD_INDEX, "repeated index 1");
      bl_mpatrol_writer_free (w);

      w = bl_mpatrol_writer_new ();
      bl_mpatrol_writer_add_symbol (w, "f", 0x10);
      bl_mpatrol_writer_add_site_raw (w, 1, 0, 0x10, 1, 999, 0);
      offset = bl_mpatrol_writer_serialize (w, layout);
      expect_error (offset, BL_MPATROL_ERROR_BAD_STRING, "offset 999");
      bl_mpatrol_writer_free (w);
    }
}

static void
test_hostile_counts (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
    {
      BlMpatrolWriter *w = make_writer ();
      BlMpatrolLayout layout = *layouts[i].layout;
      g_autoptr(GBytes) huge = NULL;
      g_autoptr(GBytes) extra = NULL;
      g_autoptr(GBytes) trailing = NULL;
      g_autoptr(GByteArray) cut = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(BlProfile) profile = NULL;
      gint64 *deltas[] = {
        &layout.data_count_delta, &layout.site_count_delta,
        &layout.symbol_count_delta, &layout.strtab_size_delta,
      };

      for (guint k = 0; k < G_N_ELEMENTS (deltas); k++)
        {
          g_autoptr(GBytes) bytes = NULL;

          *deltas[k] = layout.size_t_size == 4 ? G_MAXINT32 : G_MAXINT64 / 2;
          bytes = bl_mpatrol_writer_serialize (w, &layout);
          expect_error (bytes, BL_MPATROL_ERROR_LAYOUT, "closing signature");
          *deltas[k] = 1;
          g_clear_pointer (&bytes, g_bytes_unref);
          bytes = bl_mpatrol_writer_serialize (w, &layout);
          expect_error (bytes, BL_MPATROL_ERROR_LAYOUT, NULL);
          *deltas[k] = 0;
        }

      /* a huge count in a file without its closing signature reads like a
       * truncated file: no allocation by the count, a profile or an error */
      layout.site_count_delta = G_MAXINT32;
      huge = bl_mpatrol_writer_serialize (w, &layout);
      cut = g_byte_array_new ();
      g_byte_array_append (cut, g_bytes_get_data (huge, NULL), g_bytes_get_size (huge) - 4);
      profile = bl_mpatrol_read_memory (cut->data, cut->len, &error);
      g_assert_true ((profile != NULL) != (error != NULL));
      g_clear_object (&profile);
      g_clear_error (&error);
      layout.site_count_delta = 0;

      /* a file cut inside the call sites keeps the data before them */
      g_test_message ("layout %s", layouts[i].name);
      g_clear_pointer (&huge, g_bytes_unref);
      huge = bl_mpatrol_writer_serialize (w, &layout);
      profile = bl_mpatrol_read_memory (g_bytes_get_data (huge, NULL),
                                        g_bytes_get_size (huge) - 4 - 40 -
                                        3 * layout.pointer_size - 5 * 8,
                                        &error);
      g_assert_no_error (error);
      g_assert_true (bl_profile_is_incomplete (profile));
      g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_ALLOC_BYTES), ==, 5272);

      /* bytes after the closing signature */
      extra = bl_mpatrol_writer_serialize (w, &layout);
      cut = (g_byte_array_unref (cut), g_byte_array_new ());
      g_byte_array_append (cut, g_bytes_get_data (extra, NULL), g_bytes_get_size (extra));
      g_byte_array_append (cut, (const guint8 *) "junkMPTL", 8);
      trailing = g_byte_array_free_to_bytes (g_steal_pointer (&cut));
      expect_error (trailing, BL_MPATROL_ERROR_LAYOUT, NULL);

      bl_mpatrol_writer_free (w);
    }

  {
    static const guint8 bad_order[] = "MPTL\2\0\0\0\0\0\0\2rest of it";
    g_autoptr(GError) error = NULL;
    g_autoptr(BlProfile) profile = bl_mpatrol_read_memory (bad_order, sizeof bad_order - 1,
                                                           &error);

    g_assert_null (profile);
    g_assert_error (error, BL_MPATROL_ERROR, BL_MPATROL_ERROR_BAD_BYTE_ORDER);
  }
}

/* Every prefix: an error of ours, or a profile marked incomplete. */
static void
test_prefixes (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
    {
      BlMpatrolWriter *w = make_writer ();
      g_autoptr(GBytes) bytes = NULL;
      const guint8 *data;
      gsize len;
      guint n_profiles = 0;

      bl_mpatrol_writer_set_bin_size (w, 8);
      bl_mpatrol_writer_bin (w, FALSE, 3);
      bytes = bl_mpatrol_writer_serialize (w, layouts[i].layout);
      data = g_bytes_get_data (bytes, &len);

      for (gsize n = 0; n < len; n++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(BlProfile) profile = bl_mpatrol_read_memory (data, n, &error);

          if (profile != NULL)
            {
              g_assert_true (bl_profile_is_incomplete (profile));
              n_profiles++;
            }
          else
            g_assert_true (error->domain == BL_MPATROL_ERROR ||
                           error->domain == BL_FORMAT_ERROR);
        }
      /* everything from the end of the header on gives a profile */
      g_assert_cmpuint (n_profiles, >, len / 2);
    }
}

static void
test_bit_flips (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
    {
      BlMpatrolWriter *w = make_writer ();
      g_autoptr(GBytes) bytes = NULL;
      g_autofree guint8 *copy = NULL;
      gsize len;

      bl_mpatrol_writer_set_bin_size (w, 4);
      bytes = bl_mpatrol_writer_serialize (w, layouts[i].layout);
      len = g_bytes_get_size (bytes);
      copy = g_memdup2 (g_bytes_get_data (bytes, NULL), len);

      for (gsize pos = 0; pos < len; pos++)
        for (guint bit = 0; bit < 8; bit += 3)
          {
            g_autoptr(GError) error = NULL;
            g_autoptr(BlProfile) profile = NULL;

            copy[pos] ^= 1u << bit;
            profile = bl_mpatrol_read_memory (copy, len, &error);
            g_assert_true ((profile != NULL) != (error != NULL));
            if (error != NULL)
              g_assert_true (error->domain == BL_MPATROL_ERROR ||
                             error->domain == BL_FORMAT_ERROR);
            copy[pos] ^= 1u << bit;
          }
      bl_mpatrol_writer_free (w);
    }
}

static void
test_stream (void)
{
  BlMpatrolWriter *w = make_writer ();
  g_autoptr(GBytes) bytes = bl_mpatrol_writer_serialize (w, &bl_mpatrol_lp64_le);
  g_autoptr(GInputStream) in = g_memory_input_stream_new_from_bytes (bytes);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;

  profile = bl_mpatrol_read_stream (in, g_bytes_get_size (bytes), NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  check_profile (profile, &bl_mpatrol_lp64_le);
  bl_mpatrol_writer_free (w);
}

/* A count that is off names itself and its byte, found by reading the
 * tables back from the closing signature, not the field where reading it
 * forwards went wrong (issue 15.13). */
static void
test_bad_count_named (void)
{
  static const char *tables[] = {
    "profiling data", "call sites", "symbols", "string table bytes",
  };

  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
    {
      BlMpatrolWriter *w = make_writer ();
      BlMpatrolLayout layout = *layouts[i].layout;
      gint64 *deltas[] = {
        &layout.data_count_delta, &layout.site_count_delta,
        &layout.symbol_count_delta, &layout.strtab_size_delta,
      };

      for (guint k = 0; k < G_N_ELEMENTS (deltas); k++)
        for (guint big = 0; big < 2; big++)
          {
            g_autoptr(GBytes) bytes = NULL;
            g_autofree char *needle = g_strdup_printf ("the count of %s at byte ", tables[k]);

            *deltas[k] = big ? (layout.size_t_size == 4 ? G_MAXINT32 : G_MAXINT64 / 2) : 1;
            bytes = bl_mpatrol_writer_serialize (w, &layout);
            g_test_message ("%s, %s %s", layouts[i].name, tables[k], big ? "huge" : "+1");
            expect_error (bytes, BL_MPATROL_ERROR_LAYOUT, needle);
            expect_error (bytes, BL_MPATROL_ERROR_LAYOUT, "but the file holds");
            *deltas[k] = 0;
          }
      bl_mpatrol_writer_free (w);
    }

  /* the number of bins, not of words */
  {
    BlMpatrolWriter *w = make_writer ();
    g_autoptr(GBytes) bytes = bl_mpatrol_writer_serialize (w, &bl_mpatrol_ilp32_le);
    g_autoptr(GByteArray) patched = g_byte_array_new ();
    g_autoptr(GBytes) hostile = NULL;
    guint8 big[4] = { 0xe8, 0x03, 0, 0 };    /* 1000 */

    g_byte_array_append (patched, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
    memcpy (patched->data + 24, big, 4);
    hostile = g_byte_array_free_to_bytes (g_steal_pointer (&patched));
    expect_error (hostile, BL_MPATROL_ERROR_LAYOUT,
                  "the number of allocation bins at byte 24 is 1000, but the file holds 1024");
    bl_mpatrol_writer_free (w);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/mpatrol/layouts", test_layouts);
  g_test_add_func ("/model/mpatrol/no-bins", test_no_bins);
  g_test_add_func ("/model/mpatrol/stream", test_stream);
  g_test_add_func ("/model/mpatrol/hostile-references", test_hostile_references);
  g_test_add_func ("/model/mpatrol/hostile-counts", test_hostile_counts);
  g_test_add_func ("/model/mpatrol/bad-count-named", test_bad_count_named);
  g_test_add_func ("/model/mpatrol/prefixes", test_prefixes);
  g_test_add_func ("/model/mpatrol/bit-flips", test_bit_flips);

  return g_test_run ();
}
