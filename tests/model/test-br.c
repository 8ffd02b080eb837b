/* test-br.c — Business Rules! profile reader on files from the test writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-model.h"
#include "bl-br-reader.h"
#include "bl-br-writer.h"

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

/* A timed profile: the main routine of MAIN.BR calls FNLOAD in LIB.BR,
 * which does a GOSUB; lines sampled with their time. */
static GBytes *
make_timed (gboolean timed)
{
  BlBrWriter *w = bl_br_writer_new ();

  bl_br_writer_module (w, 1, "MAIN.BR");
  bl_br_writer_module (w, 2, "LIB.BR");

  /* in the main routine, line 100 */
  bl_br_writer_line (w, 1, 100, 1);
  bl_br_writer_main (w);
  if (timed)
    bl_br_writer_time (w, 1000);
  bl_br_writer_end_line (w);

  /* in FNLOAD (LIB.BR line 20), called from MAIN.BR line 110 */
  for (guint i = 0; i < 3; i++)
    {
      bl_br_writer_line (w, 2, 20, 1);
      bl_br_writer_function (w, "FNLOAD");
      if (timed)
        bl_br_writer_time (w, 500);
      bl_br_writer_backtrace (w, 1, 110, 2);
      bl_br_writer_main (w);
      bl_br_writer_end_line (w);
    }

  /* in a GOSUB of FNLOAD (LIB.BR line 50) */
  bl_br_writer_line (w, 2, 50, 1);
  bl_br_writer_gosub (w);
  bl_br_writer_backtrace (w, 1, 110, 2);
  bl_br_writer_main (w);
  bl_br_writer_backtrace (w, 2, 25, 1);
  bl_br_writer_function (w, "FNLOAD");
  if (timed)
    bl_br_writer_time (w, 7000);
  bl_br_writer_end_line (w);

  /* a line without any marker or backtrace */
  bl_br_writer_line (w, 2, 60, 0);
  if (timed)
    bl_br_writer_time (w, 1);
  bl_br_writer_end_line (w);

  return bl_br_writer_finish (w);
}

static void
test_timed (void)
{
  g_autoptr(GBytes) bytes = make_timed (TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(GObject) loaded = NULL;
  g_autofree char *samples = NULL;
  g_autofree char *time = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  gboolean found = FALSE;

  g_assert_cmpint (bl_format_detect (data, len, TRUE), ==, BL_FORMAT_BR);
  profile = bl_br_read_memory (data, len, &error);
  g_assert_no_error (error);
  g_assert_false (bl_profile_is_incomplete (profile));
  g_assert_cmpstr (bl_profile_get_info (profile)->format, ==, "br");

  samples = folded (profile, BL_METRIC_SAMPLES);
  g_assert_cmpstr (samples, ==,
                   "LIB.BR;(routine) 1\n"
                   "MAIN.BR;(main) 1\n"
                   "MAIN.BR;(main);FNLOAD 3\n"
                   "MAIN.BR;(main);FNLOAD;(GOSUB) 1\n");
  time = folded (profile, BL_METRIC_TIME_NS);
  g_assert_cmpstr (time, ==,
                   "LIB.BR;(routine) 1\n"
                   "MAIN.BR;(main) 1000\n"
                   "MAIN.BR;(main);FNLOAD 1500\n"
                   "MAIN.BR;(main);FNLOAD;(GOSUB) 7000\n");
  g_assert_cmpint (bl_profile_get_default_metric (profile), ==, BL_METRIC_TIME_NS);

  /* per-line data: LIB.BR line 20 in FNLOAD, 3 samples, 1500 ns */
  for (guint i = 0; i < bl_profile_get_n_lines (profile); i++)
    {
      const BlLine *line = bl_profile_get_line (profile, i);

      if (g_str_equal (bl_profile_get_string (profile, line->file), "LIB.BR") &&
          line->line == 20)
        {
          g_assert_cmpstr (bl_profile_get_string (profile, line->function), ==, "FNLOAD");
          g_assert_cmpuint (bl_profile_get_line_value (profile, BL_METRIC_SAMPLES, i), ==, 3);
          g_assert_cmpuint (bl_profile_get_line_value (profile, BL_METRIC_TIME_NS, i), ==, 1500);
          found = TRUE;
        }
    }
  g_assert_true (found);
  g_assert_cmpuint (bl_profile_get_n_lines (profile), ==, 4);

  loaded = bl_format_load_bytes (bytes, &error);
  g_assert_no_error (error);
  g_assert_true (BL_IS_PROFILE (loaded));
}

static void
test_sampled (void)
{
  g_autoptr(GBytes) bytes = make_timed (FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile =
    bl_br_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);

  g_assert_no_error (error);
  g_assert_false (bl_profile_has_metric (profile, BL_METRIC_TIME_NS));
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_SAMPLES), ==, 6);
  g_assert_cmpint (bl_profile_get_default_metric (profile), ==, BL_METRIC_SAMPLES);
}

static void
test_stream (void)
{
  BlBrWriter *w = bl_br_writer_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  const guint n = 600000;

  bl_br_writer_module (w, 7, "BIG.BR");
  for (guint i = 0; i < n; i++)
    {
      bl_br_writer_line (w, 7, 1 + i % 50, 0);
      bl_br_writer_function (w, i % 2 ? "FNA" : "FNB");
      bl_br_writer_time (w, 2);
      bl_br_writer_end_line (w);
    }
  bytes = bl_br_writer_finish (w);
  g_assert_cmpuint (g_bytes_get_size (bytes), >, 4 * 1024 * 1024);
  in = g_memory_input_stream_new_from_bytes (bytes);
  profile = bl_br_read_stream (in, g_bytes_get_size (bytes), NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_SAMPLES), ==, n);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_TIME_NS), ==, 2 * n);
}

static void
expect_error (BlBrWriter *w,
              int         code,
              const char *needle)
{
  g_autoptr(GBytes) bytes = bl_br_writer_finish (w);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile =
    bl_br_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_autoptr(GObject) loaded = NULL;

  g_assert_null (profile);
  g_assert_error (error, BL_BR_ERROR, code);
  if (strstr (error->message, needle) == NULL)
    g_error ("“%s” not in “%s”", needle, error->message);

  /* through the loader: not recognised at all */
  g_clear_error (&error);
  loaded = bl_format_load_bytes (bytes, &error);
  g_assert_null (loaded);
  g_assert_error (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_UNKNOWN);
}

static void
test_errors (void)
{
  BlBrWriter *w;
  static const guint8 junk[] = { 0x42 };

  w = bl_br_writer_new ();
  bl_br_writer_module (w, 1, "A.BR");
  bl_br_writer_line (w, 2, 10, 0);
  expect_error (w, BL_BR_ERROR_UNDEFINED_MODULE, "module 2");

  w = bl_br_writer_new ();
  bl_br_writer_module (w, 1, "A.BR");
  bl_br_writer_line (w, 1, 10, 0);
  bl_br_writer_line (w, 1, 11, 0);
  expect_error (w, BL_BR_ERROR_UNEXPECTED_RECORD, "byte 17");

  w = bl_br_writer_new ();
  bl_br_writer_module (w, 1, "A.BR");
  bl_br_writer_end_line (w);
  expect_error (w, BL_BR_ERROR_UNEXPECTED_RECORD, "end-of-line record at byte 9");

  w = bl_br_writer_new ();
  bl_br_writer_module (w, 1, "A.BR");
  bl_br_writer_line (w, 1, 10, 0);
  bl_br_writer_time (w, 5);
  bl_br_writer_gosub (w);
  expect_error (w, BL_BR_ERROR_UNEXPECTED_RECORD, "GOSUB record at byte 26");

  w = bl_br_writer_new ();
  bl_br_writer_module (w, 1, "A.BR");
  bl_br_writer_time (w, 5);
  expect_error (w, BL_BR_ERROR_UNEXPECTED_RECORD, "time record");

  w = bl_br_writer_new ();
  bl_br_writer_module (w, 1, "A.BR");
  bl_br_writer_backtrace (w, 1, 3, 0);
  expect_error (w, BL_BR_ERROR_UNEXPECTED_RECORD, "backtrace record");

  w = bl_br_writer_new ();
  bl_br_writer_module (w, 1, "A.BR");
  bl_br_writer_bytes (w, junk, sizeof junk);
  expect_error (w, BL_BR_ERROR_UNKNOWN_RECORD, "unknown type 66");
}

static void
test_detect (void)
{
  g_autoptr(GBytes) bytes = make_timed (TRUE);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  static const guint8 binary[] = { 0x01, 0x00, 0x01, 0x00, 0x01, 'A', 0x02, 0x00 };

  /* a cut head is fine when it is not the whole file */
  g_assert_cmpint (bl_format_detect (data, len - 3, FALSE), ==, BL_FORMAT_BR);
  /* but the whole file must end between samples */
  g_assert_cmpint (bl_format_detect (data, len - 1, TRUE), ==, BL_FORMAT_UNKNOWN);
  g_assert_cmpint (bl_format_detect (binary, sizeof binary, TRUE), ==, BL_FORMAT_UNKNOWN);
  g_assert_cmpint (bl_format_detect (data + 1, len - 1, TRUE), ==, BL_FORMAT_UNKNOWN);
  g_assert_false (bl_br_detect ((const guint8 *) "", 0, TRUE));
}

static void
test_prefixes_and_flips (void)
{
  g_autoptr(GBytes) bytes = make_timed (TRUE);
  gsize len = g_bytes_get_size (bytes);
  g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (bytes, NULL), len);
  guint64 last_samples = 0;

  for (gsize n = 1; n <= len; n++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlProfile) profile = bl_br_read_memory (copy, n, &error);
      guint64 samples;

      if (n < 5 + strlen ("MAIN.BR"))
        {
          /* not even the first record */
          g_assert_error (error, BL_BR_ERROR, BL_BR_ERROR_NO_RECORDS);
          continue;
        }
      g_assert_no_error (error);
      if (n == len)
        g_assert_false (bl_profile_is_incomplete (profile));
      samples = bl_profile_get_grand_total (profile, BL_METRIC_SAMPLES);
      g_assert_cmpuint (samples, >=, last_samples);
      last_samples = samples;
    }
  g_assert_cmpuint (last_samples, ==, 6);

  for (gsize pos = 0; pos < len; pos++)
    for (guint bit = 0; bit < 8; bit++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(BlProfile) profile = NULL;

        copy[pos] ^= 1u << bit;
        profile = bl_br_read_memory (copy, len, &error);
        g_assert_true ((profile != NULL) != (error != NULL));
        if (error != NULL)
          g_assert_true (error->domain == BL_BR_ERROR);
        copy[pos] ^= 1u << bit;
      }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/br/timed", test_timed);
  g_test_add_func ("/model/br/sampled", test_sampled);
  g_test_add_func ("/model/br/stream", test_stream);
  g_test_add_func ("/model/br/errors", test_errors);
  g_test_add_func ("/model/br/detect", test_detect);
  g_test_add_func ("/model/br/prefixes-and-flips", test_prefixes_and_flips);

  return g_test_run ();
}
