/* test-folded.c — folded stacks reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-model.h"

static char *
write_folded (BlProfile  *profile,
              BlMetricId  metric)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_assert_true (bl_folded_write (profile, metric, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (out, NULL, NULL));

  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static BlProfile *
read_text (const char *text,
           GError    **error)
{
  return bl_folded_read_memory ((const guint8 *) text, strlen (text), error);
}

static void
test_round_trip (void)
{
  const char *input =
    "main;load;parse 5\n"
    "main;draw 7\n"
    "\n"
    "main;load;parse 3\r\n"
    "  other thread;run it 1  \n"
    "main 2\n"
    "main;load;read file\t4\n"
    "main;draw 0";
  const char *expected =
    "main 2\n"
    "main;draw 7\n"
    "main;load;parse 8\n"
    "main;load;read file 4\n"
    "other thread;run it 1\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = read_text (input, &error);
  g_autofree char *output = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (profile);
  g_assert_cmpstr (bl_profile_get_info (profile)->format, ==, "folded");
  g_assert_true (bl_profile_has_metric (profile, BL_METRIC_SAMPLES));
  g_assert_cmpint (bl_profile_get_default_metric (profile), ==, BL_METRIC_SAMPLES);
  g_assert_cmpuint (bl_profile_get_n_threads (profile), ==, 2);
  g_assert_cmpstr (bl_profile_get_thread_name (profile, 0), ==, "main");
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_SAMPLES), ==, 22);
  g_assert_false (bl_profile_is_incomplete (profile));

  output = write_folded (profile, BL_METRIC_SAMPLES);
  g_assert_cmpstr (output, ==, expected);
}

static void
test_profile_round_trip (void)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("test");
  g_autoptr(BlProfile) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  guint32 root, a, b;

  root = bl_profile_add_thread (profile, bl_profile_intern (profile, "Thread <1>"));
  a = bl_profile_add_child (profile, root, bl_profile_intern (profile, "f & g"), 0, 0);
  b = bl_profile_add_child (profile, a, bl_profile_intern (profile, "h;i"), 0, 0);
  bl_profile_add_value (profile, a, BL_METRIC_CPU, 10);
  bl_profile_add_value (profile, b, BL_METRIC_CPU, 20);
  bl_profile_add_value (profile, root, BL_METRIC_CPU, 1);
  bl_profile_finish (profile);

  first = write_folded (profile, BL_METRIC_CPU);
  again = read_text (first, &error);
  g_assert_no_error (error);
  second = write_folded (again, BL_METRIC_SAMPLES);
  g_assert_cmpstr (first, ==, second);
  /* a ';' inside a name splits it into two frames */
  g_assert_nonnull (strstr (second, "Thread <1>;f & g;h;i 20\n"));
}

static void
test_bad_lines (void)
{
  static const struct {
    const char *text;
    int         code;
    const char *needle;
  } cases[] = {
    { "a;b 1\na;c\n", BL_FOLDED_ERROR_BAD_LINE, "line 2 " },
    { "a;b 1\n\n\na;c x1\n", BL_FOLDED_ERROR_BAD_LINE, "line 4 " },
    { "a;b 1.5\n", BL_FOLDED_ERROR_BAD_LINE, "line 1 " },
    { "a;b -3\n", BL_FOLDED_ERROR_BAD_LINE, "line 1 " },
    { " 5\n", BL_FOLDED_ERROR_BAD_LINE, "line 1 " },
    { "a;b 1\na 99999999999999999999999\n", BL_FOLDED_ERROR_BAD_COUNT, "line 2 " },
    { "\n  \n\n", BL_FOLDED_ERROR_NO_STACKS, "no stack" },
    { "", BL_FOLDED_ERROR_NO_STACKS, "no stack" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlProfile) profile = read_text (cases[i].text, &error);

      g_assert_null (profile);
      g_assert_error (error, BL_FOLDED_ERROR, cases[i].code);
      g_assert_nonnull (strstr (error->message, cases[i].needle));
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(BlProfile) profile =
      bl_folded_read_memory ((const guint8 *) "a 1\nb\0c 2\n", 10, &error);

    g_assert_null (profile);
    g_assert_error (error, BL_FOLDED_ERROR, BL_FOLDED_ERROR_BAD_LINE);
    g_assert_nonnull (strstr (error->message, "line 2 "));
  }
}

static void
test_max_count (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = read_text ("a;b 18446744073709551615\n", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_SAMPLES), ==, G_MAXUINT64);
}

static void
test_detect (void)
{
  static const struct {
    const char *text;
    gboolean    whole;
    BlFormatKind kind;
  } cases[] = {
    { "main;a 1\nmain;b 2\n", TRUE, BL_FORMAT_FOLDED },
    { "main;a 1\nmain;b 2", TRUE, BL_FORMAT_FOLDED },
    { "main;a 1\nmain;b 2\nmain;c", FALSE, BL_FORMAT_FOLDED },   /* cut line not judged */
    { "main;a 1\nmain;b 2\nmain;c", TRUE, BL_FORMAT_FOLDED },   /* the reader names line 3 */
    { "main;a 1\nx\ny\nz\n", TRUE, BL_FORMAT_UNKNOWN },
    { "hello world\nmain;a 1\nmain;a 2", TRUE, BL_FORMAT_UNKNOWN },
    { "hello world\n", TRUE, BL_FORMAT_UNKNOWN },
    { "{\"a\": 1}\n", TRUE, BL_FORMAT_UNKNOWN },
    { "\n\n", TRUE, BL_FORMAT_UNKNOWN },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (bl_format_detect ((const guint8 *) cases[i].text, strlen (cases[i].text),
                                       cases[i].whole), ==, cases[i].kind);
}

static void
test_load_and_unknown_text (void)
{
  static const char folded[] = "x;y 3\nx;z 4\n";
  static const char text[] = "Dear diary,\ntoday I profiled.\n";
  g_autoptr(GBytes) bytes = g_bytes_new_static (folded, strlen (folded));
  g_autoptr(GBytes) other = g_bytes_new_static (text, strlen (text));
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) loaded = bl_format_load_bytes (bytes, &error);
  g_autoptr(GObject) none = NULL;

  g_assert_no_error (error);
  g_assert_true (BL_IS_PROFILE (loaded));
  g_assert_cmpuint (bl_profile_get_grand_total (BL_PROFILE (loaded), BL_METRIC_SAMPLES), ==, 7);

  none = bl_format_load_bytes (other, &error);
  g_assert_null (none);
  g_assert_error (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_UNKNOWN);
  g_assert_nonnull (strstr (error->message, "text file"));
}

/* Many lines through a stream: the reader refills its window. */
static void
test_stream (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  guint64 sum = 0;
  guint n = 0;

  while (text->len < 9 * 1024 * 1024)
    {
      g_string_append_printf (text, "thread %u;function number %u;leaf %u %u\n",
                              n % 3, n % 101, n % 7, n % 13);
      sum += n % 13;
      n++;
    }
  /* one very long last line without a newline */
  g_string_append (text, "long");
  for (guint i = 0; i < 500000; i++)
    g_string_append (text, ";f");
  g_string_append (text, " 5");
  sum += 5;

  in = g_memory_input_stream_new_from_data (text->str, text->len, NULL);
  profile = bl_folded_read_stream (in, text->len, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_SAMPLES), ==, sum);
  g_assert_cmpuint (bl_profile_get_n_threads (profile), ==, 4);
}

static void
test_prefixes (void)
{
  const char *input = "main;load;parse 5\nmain;draw 7\n\nmain;w\xc3\xa9ird 3\r\n";
  gsize len = strlen (input);

  for (gsize i = 0; i <= len; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlProfile) profile = bl_folded_read_memory ((const guint8 *) input, i, &error);

      g_assert_true ((profile != NULL) != (error != NULL));
      if (error != NULL)
        g_assert_true (error->domain == BL_FOLDED_ERROR);
    }
}

/* The reference: every stack as a string, summed and sorted (what the
 * writer did before it streamed). */
static char *
reference_folded (BlProfile  *profile,
                  BlMetricId  metric)
{
  g_autoptr(GHashTable) sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;
  GString *out = g_string_new (NULL);
  const guint64 *self = bl_profile_get_self_array (profile, metric);

  for (guint32 n = 0; n < bl_profile_get_n_nodes (profile); n++)
    {
      char *stack;
      guint64 *sum;

      if (self[n] == 0)
        continue;
      stack = bl_profile_dup_stack_string (profile, n, ';');
      sum = g_hash_table_lookup (sums, stack);
      if (sum == NULL)
        {
          sum = g_new0 (guint64, 1);
          g_hash_table_insert (sums, stack, sum);
        }
      else
        g_free (stack);
      *sum = bl_saturating_add (*sum, self[n]);
    }

  g_hash_table_iter_init (&iter, sums);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort (keys, compare_strings);
  for (guint i = 0; i < keys->len; i++)
    g_string_append_printf (out, "%s %" G_GUINT64_FORMAT "\n", (char *) keys->pdata[i],
                            *(guint64 *) g_hash_table_lookup (sums, keys->pdata[i]));

  return g_string_free (out, FALSE);
}

/* Random trees whose names are prefixes of each other, end in bytes below
 * and above ';', contain ';' (so that two stacks read the same) or are
 * empty: the streamed output is the sorted, summed one. */
static void
test_write_order (void)
{
  static const char *names[] = {
    "a", "a!", "a;", "a;b", "b", "", ";", ";a", "ab", "a b", "a0", "a~", "b;a", "\xc3\xa9",
  };

  for (guint round = 0; round < 200; round++)
    {
      g_autoptr(BlProfile) profile = bl_profile_new ("test");
      g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_autofree char *expected = NULL;
      g_autofree char *output = NULL;
      GRand *rand = g_rand_new_with_seed (round);
      guint n = g_rand_int_range (rand, 1, 60);

      bl_profile_enable_metric (profile, BL_METRIC_SAMPLES);
      for (guint i = 0; i < n; i++)
        {
          guint32 name = bl_profile_intern (profile,
                                            names[g_rand_int_range (rand, 0,
                                                                    G_N_ELEMENTS (names))]);
          guint32 node;

          if (nodes->len == 0 || g_rand_int_range (rand, 0, 5) == 0)
            node = bl_profile_add_thread (profile, name);
          else
            node = bl_profile_add_child (profile,
                                         g_array_index (nodes, guint32,
                                                        g_rand_int_range (rand, 0, nodes->len)),
                                         name, 0, 0);
          g_array_append_val (nodes, node);
          if (g_rand_boolean (rand))
            bl_profile_add_value (profile, node, BL_METRIC_SAMPLES,
                                  g_rand_int_range (rand, 1, 4) == 1
                                  ? G_MAXUINT64 : (guint64) g_rand_int_range (rand, 1, 100));
        }
      g_rand_free (rand);
      bl_profile_finish (profile);

      expected = reference_folded (profile, BL_METRIC_SAMPLES);
      output = write_folded (profile, BL_METRIC_SAMPLES);
      g_assert_cmpstr (output, ==, expected);
    }
}

/* Values with decimals are written as bl_profile_append_exact_value()
 * writes them (the writer formats them by hand): whole part, then the
 * fraction without trailing zeros, leading zeros kept. */
static void
test_write_decimals (void)
{
  static const guint decimals[] = { 0, 1, 3, 9, BL_PROFILE_MAX_DECIMALS };
  static const guint64 values[] = {
    1, 5, 9, 10, 100, 1000, 1005, 1500, 123456789, 1000000000,
    G_GUINT64_CONSTANT (1000000000000000000), G_GUINT64_CONSTANT (1000000000000000001),
    G_GUINT64_CONSTANT (18446744073709551615),
  };

  for (guint d = 0; d < G_N_ELEMENTS (decimals); d++)
    {
      g_autoptr(BlProfile) profile = bl_profile_new ("test");
      g_autoptr(GString) expected = g_string_new (NULL);
      g_autofree char *output = NULL;

      bl_profile_enable_metric (profile, BL_METRIC_WEIGHT);
      bl_profile_set_metric_decimals (profile, BL_METRIC_WEIGHT, decimals[d]);
      for (guint i = 0; i < G_N_ELEMENTS (values); i++)
        {
          g_autofree char *name = g_strdup_printf ("t%02u", i);
          guint32 node = bl_profile_add_thread (profile, bl_profile_intern (profile, name));

          bl_profile_add_value (profile, node, BL_METRIC_WEIGHT, values[i]);
        }
      bl_profile_finish (profile);

      for (guint i = 0; i < G_N_ELEMENTS (values); i++)
        {
          g_string_append_printf (expected, "t%02u ", i);
          bl_profile_append_exact_value (profile, BL_METRIC_WEIGHT, values[i], expected);
          g_string_append_c (expected, '\n');
        }
      output = write_folded (profile, BL_METRIC_WEIGHT);
      g_assert_cmpstr (output, ==, expected->str);
      if (decimals[d] == 3)
        g_assert_nonnull (strstr (output, "t06 1.005\nt07 1.5\n"));
    }
}

/* A profile without threads writes nothing (fuzz-cli found the walk
 * starting on an empty array). */
static void
test_write_empty (void)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("test");
  g_autofree char *output = NULL;

  bl_profile_enable_metric (profile, BL_METRIC_SAMPLES);
  bl_profile_finish (profile);
  output = write_folded (profile, BL_METRIC_SAMPLES);
  g_assert_cmpstr (output, ==, "");
}

/* A call chain a million frames deep is read, finished and written back
 * without recursion; the one line holds the whole stack. */
static void
test_deep (void)
{
  const guint depth = 1000000;
  g_autoptr(GString) text = g_string_sized_new (depth * 2 + 16);
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;

  g_string_append (text, "t");
  for (guint i = 1; i < depth; i++)
    g_string_append (text, ";f");
  g_string_append (text, " 3\nt;f 1\n");

  profile = read_text (text->str, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (bl_profile_get_n_nodes (profile), ==, depth);
  g_assert_cmpuint (bl_profile_get_total (profile, BL_METRIC_SAMPLES, 0), ==, 4);
  g_assert_cmpuint (bl_profile_get_function_total (profile, BL_METRIC_SAMPLES,
                                                   bl_profile_get_node_function (profile, 1)),
                    ==, 4);

  output = write_folded (profile, BL_METRIC_SAMPLES);
  g_assert_cmpuint (strlen (output), ==, text->len);
  g_assert_true (g_str_has_suffix (output, ";f 3\n"));
  g_assert_true (g_str_has_prefix (output, "t;f 1\nt;f;f;"));
}

/* Lines end in LF, CRLF or a lone CR; line numbers count each once, also
 * when a CRLF is split between two reads. */
static void
test_line_ends (void)
{
  const char *expected = "a;b 1\na;c 2\nd 3\n";
  const char *inputs[] = {
    "a;b 1\ra;c 2\rd 3\r",
    "a;b 1\r\na;c 2\r\nd 3",
    "a;b 1\ra;c 2\r\nd 3\n",
    "a;b 1\r\r\na;c 2\n\rd 3\r\n",
  };
  g_autoptr(GString) big = g_string_new (NULL);
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autofree char *message = NULL;
  guint n_lines = 0;

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(BlProfile) p = read_text (inputs[i], &error);
      g_autofree char *output = NULL;

      g_assert_no_error (error);
      g_assert_false (bl_profile_is_incomplete (p));
      output = write_folded (p, BL_METRIC_SAMPLES);
      g_assert_cmpstr (output, ==, expected);
      g_assert_true (bl_folded_detect ((const guint8 *) inputs[i], strlen (inputs[i]), TRUE));
    }

  /* CR-only text is recognised from its first lines, too */
  g_assert_true (bl_folded_detect ((const guint8 *) "a;b 1\ra;c 2\ra;", 14, FALSE));

  while (big->len < 3 * 1024 * 1024)
    {
      g_string_append_printf (big, "t;f%u %u\r\n", n_lines % 10, n_lines % 3);
      n_lines++;
    }
  g_string_append (big, "not a stack\r\n");
  message = g_strdup_printf ("line %u ", n_lines + 1);
  in = g_memory_input_stream_new_from_data (big->str, big->len, NULL);
  profile = bl_folded_read_stream (in, big->len, NULL, NULL, NULL, &error);
  g_assert_null (profile);
  g_assert_error (error, BL_FOLDED_ERROR, BL_FOLDED_ERROR_BAD_LINE);
  g_assert_nonnull (strstr (error->message, message));
}

/* A file cut in the middle of its last line keeps the complete lines and
 * says where it ends; a whole last line without a newline is complete. */
static void
test_cut (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) cut = read_text ("a;b 1\na;c 2\na;d", &error);
  g_autoptr(BlProfile) cut_count = NULL;
  g_autoptr(BlProfile) whole = NULL;
  g_autoptr(BlProfile) only = NULL;
  g_autofree char *output = NULL;

  g_assert_no_error (error);
  g_assert_true (bl_profile_is_incomplete (cut));
  g_assert_cmpstr (bl_profile_get_incomplete_reason (cut), ==,
                   "The folded stacks end in the middle of line 3 (byte 12); that line was "
                   "left out.");
  output = write_folded (cut, BL_METRIC_SAMPLES);
  g_assert_cmpstr (output, ==, "a;b 1\na;c 2\n");

  cut_count = read_text ("a;b 1\na;c 2\na;d 1x", &error);
  g_assert_no_error (error);
  g_assert_true (bl_profile_is_incomplete (cut_count));
  g_assert_cmpuint (bl_profile_get_grand_total (cut_count, BL_METRIC_SAMPLES), ==, 3);

  whole = read_text ("a;b 1\na;c 2\na;d 4", &error);
  g_assert_no_error (error);
  g_assert_false (bl_profile_is_incomplete (whole));
  g_assert_cmpuint (bl_profile_get_grand_total (whole, BL_METRIC_SAMPLES), ==, 7);

  /* nothing complete: still an error */
  only = read_text ("a;b", &error);
  g_assert_null (only);
  g_assert_error (error, BL_FOLDED_ERROR, BL_FOLDED_ERROR_BAD_LINE);
}

/* Counts that add up beyond 2^64-1 saturate instead of wrapping. */
static void
test_saturating (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile =
    read_text ("a 18446744073709551615\na 18446744073709551615\na;b 7\nc 1\n", &error);
  g_autofree char *output = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_SAMPLES, 0), ==, G_MAXUINT64);
  g_assert_cmpuint (bl_profile_get_total (profile, BL_METRIC_SAMPLES, 0), ==, G_MAXUINT64);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_SAMPLES), ==, G_MAXUINT64);
  g_assert_cmpuint (bl_profile_get_function_total (profile, BL_METRIC_SAMPLES,
                                                   bl_profile_get_node_function (profile, 0)),
                    ==, G_MAXUINT64);
  output = write_folded (profile, BL_METRIC_SAMPLES);
  g_assert_cmpstr (output, ==, "a 18446744073709551615\na;b 7\nc 1\n");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/folded/round-trip", test_round_trip);
  g_test_add_func ("/model/folded/profile-round-trip", test_profile_round_trip);
  g_test_add_func ("/model/folded/bad-lines", test_bad_lines);
  g_test_add_func ("/model/folded/max-count", test_max_count);
  g_test_add_func ("/model/folded/detect", test_detect);
  g_test_add_func ("/model/folded/load", test_load_and_unknown_text);
  g_test_add_func ("/model/folded/stream", test_stream);
  g_test_add_func ("/model/folded/prefixes", test_prefixes);
  g_test_add_func ("/model/folded/write-order", test_write_order);
  g_test_add_func ("/model/folded/deep", test_deep);
  g_test_add_func ("/model/folded/write-empty", test_write_empty);
  g_test_add_func ("/model/folded/write-decimals", test_write_decimals);
  g_test_add_func ("/model/folded/line-ends", test_line_ends);
  g_test_add_func ("/model/folded/cut", test_cut);
  g_test_add_func ("/model/folded/saturating", test_saturating);

  return g_test_run ();
}
