/* test-speedscope.c — speedscope import: speedscope's own samples, units,
 * time order and structural errors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "bl-model.h"
#include "bl-speedscope-reader.h"

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

static BlProfile *
load_sample (const char  *name,
             GError     **error)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data-files", "speedscope",
                                                 name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GObject *loaded = bl_format_load_file (file, NULL, NULL, NULL, error);

  g_assert_true (loaded == NULL || BL_IS_PROFILE (loaded));

  return (BlProfile *) loaded;
}

static BlProfile *
read_json (const char  *json,
           GError     **error)
{
  return bl_speedscope_read_memory ((const guint8 *) json, strlen (json), error);
}

/* speedscope shows a → b with b's self 5, c 5 (two calls), d 4 */
static void
test_sample_evented (void)
{
  const char *names[] = {
    "simple-0.0.1.speedscope.json",
    "simple-no-pretty-print-0.0.1.speedscope.json",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlProfile) profile = load_sample (names[i], &error);
      g_autofree char *out = NULL;
      BlSpanList list;
      const BlSpan *spans;
      gsize n_spans;
      guint64 start, end;

      g_assert_no_error (error);
      g_assert_cmpstr (bl_profile_get_info (profile)->format, ==, "speedscope");
      g_assert_cmpint (bl_profile_get_default_metric (profile), ==, BL_METRIC_WEIGHT);
      out = folded (profile, BL_METRIC_WEIGHT);
      g_assert_cmpstr (out, ==,
                       "simple.txt;a;b 5\n"
                       "simple.txt;a;b;c 5\n"
                       "simple.txt;a;b;d 4\n");
      g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_WEIGHT), ==, 14);

      g_assert_true (bl_profile_has_time_order (profile));
      bl_profile_get_spans (profile, 0, &list);
      spans = list.spans;
      n_spans = list.n_spans;
      g_assert_cmpuint (n_spans, ==, 5);
      g_assert_cmpstr (bl_profile_get_node_name (profile, spans[0].node), ==, "a");
      g_assert_cmpuint (bl_span_list_get_depth (&list, 0), ==, 1);
      g_assert_cmpuint (spans[0].start, ==, 0);
      g_assert_cmpuint (bl_span_list_get_end (&list, 0), ==, 14);
      g_assert_cmpstr (bl_profile_get_node_name (profile, spans[2].node), ==, "c");
      g_assert_cmpuint (bl_span_list_get_depth (&list, 2), ==, 3);
      g_assert_cmpuint (bl_span_list_get_end (&list, 2), ==, 2);
      g_assert_cmpstr (bl_profile_get_node_name (profile, spans[3].node), ==, "d");
      g_assert_cmpuint (spans[3].start, ==, 2);
      g_assert_cmpuint (bl_span_list_get_end (&list, 3), ==, 6);
      g_assert_cmpstr (bl_profile_get_node_name (profile, spans[4].node), ==, "c");
      g_assert_cmpuint (spans[4].start, ==, 6);
      g_assert_cmpuint (bl_span_list_get_end (&list, 4), ==, 9);
      g_assert_true (bl_profile_get_time_range (profile, 0, &start, &end));
      g_assert_cmpuint (start, ==, 0);
      g_assert_cmpuint (end, ==, 14);
    }
}

static void
test_sample_sampled (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) one = load_sample ("simple-sampled-0.1.2.speedscope.json", &error);
  g_autoptr(BlProfile) two = NULL;
  g_autofree char *out = NULL;
  g_autofree char *out2 = NULL;

  g_assert_no_error (error);
  g_assert_true (bl_profile_has_time_order (one));   /* its sample order */
  out = folded (one, BL_METRIC_TIME_NS);
  g_assert_cmpstr (out, ==,
                   "simple.speedscope.json;a;b 5000000000\n"
                   "simple.speedscope.json;a;b;c 5000000000\n"
                   "simple.speedscope.json;a;b;d 4000000000\n");

  two = load_sample ("two-sampled-0.6.0.speedscope.json", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (bl_profile_get_n_threads (two), ==, 2);
  g_assert_cmpstr (bl_profile_get_thread_name (two, 0), ==, "one");
  g_assert_cmpstr (bl_profile_get_thread_name (two, 1), ==, "two");
  g_assert_cmpstr (bl_profile_get_info (two)->target, ==, "Two Samples");
  g_assert_cmpstr (bl_profile_get_info (two)->supplemental, ==, "speedscope@0.6.0");
  out2 = folded (two, BL_METRIC_TIME_NS);
  g_assert_cmpstr (out2, ==,
                   "one;a;b 5000000000\n"
                   "one;a;b;c 5000000000\n"
                   "one;a;b;d 4000000000\n"
                   "two;a;b 5000000000\n"
                   "two;a;b;c 5000000000\n"
                   "two;a;b;d 4000000000\n");
}

static void
test_sample_invalid (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) incomplete = load_sample ("incomplete-trace.json", &error);
  g_autoptr(BlProfile) order = NULL;

  g_assert_null (incomplete);
  g_assert_error (error, BL_SPEEDSCOPE_ERROR, BL_SPEEDSCOPE_ERROR_UNBALANCED);
  g_assert_nonnull (strstr (error->message, "still open"));
  g_clear_error (&error);

  order = load_sample ("out-of-order-events.json", &error);
  g_assert_null (order);
  g_assert_error (error, BL_SPEEDSCOPE_ERROR, BL_SPEEDSCOPE_ERROR_UNBALANCED);
  g_assert_nonnull (strstr (error->message, "event 6 of profile 0 closes frame 1, but the "
                                            "innermost open frame is 0"));
}

#define HEAD "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","

static void
test_units (void)
{
  static const struct {
    const char *json;
    BlMetricId  metric;
    const char *expected;
  } cases[] = {
    { HEAD "\"shared\":{\"frames\":[{\"name\":\"f\"},{\"name\":\"g\"}]},\"profiles\":["
      "{\"type\":\"evented\",\"name\":\"t\",\"unit\":\"milliseconds\",\"startValue\":1.5,"
      "\"endValue\":4,\"events\":[{\"type\":\"O\",\"frame\":0,\"at\":1.5},"
      "{\"type\":\"O\",\"frame\":1,\"at\":2.25},{\"type\":\"C\",\"frame\":1,\"at\":3.0},"
      "{\"type\":\"C\",\"frame\":0,\"at\":4}]}]}",
      BL_METRIC_TIME_NS, "t;f 1750000\nt;f;g 750000\n" },
    { HEAD "\"shared\":{\"frames\":[{\"name\":\"f\"}]},\"profiles\":["
      "{\"type\":\"sampled\",\"name\":\"t\",\"unit\":\"microseconds\",\"startValue\":0,"
      "\"endValue\":4,\"samples\":[[0],[0]],\"weights\":[1.5,2]}]}",
      BL_METRIC_TIME_NS, "t;f 3500\n" },
    { HEAD "\"shared\":{\"frames\":[{\"name\":\"f\"}]},\"profiles\":["
      "{\"type\":\"sampled\",\"name\":\"t\",\"unit\":\"nanoseconds\",\"startValue\":0,"
      "\"endValue\":4,\"samples\":[[0],[]],\"weights\":[7,2]}]}",
      BL_METRIC_TIME_NS, "t;f 7\n" },
    { HEAD "\"shared\":{\"frames\":[{\"name\":\"f\"}]},\"profiles\":["
      "{\"type\":\"sampled\",\"name\":\"t\",\"unit\":\"seconds\",\"startValue\":0,"
      "\"endValue\":4,\"samples\":[[0]],\"weights\":[0.25]}]}",
      BL_METRIC_TIME_NS, "t;f 250000000\n" },
    { HEAD "\"shared\":{\"frames\":[{\"name\":\"malloc\"}]},\"profiles\":["
      "{\"type\":\"sampled\",\"name\":\"heap\",\"unit\":\"bytes\",\"startValue\":0,"
      "\"endValue\":4,\"samples\":[[0],[0]],\"weights\":[100,28]}]}",
      BL_METRIC_ALLOC_BYTES, "heap;malloc 128\n" },
    { HEAD "\"shared\":{\"frames\":[{\"name\":\"f\"}]},\"profiles\":["
      "{\"type\":\"sampled\",\"name\":\"t\",\"unit\":\"none\",\"startValue\":0,"
      "\"endValue\":4,\"samples\":[[0],[0],[0]],\"weights\":[1,1,1]}]}",
      BL_METRIC_SAMPLES, "t;f 3\n" },
    { HEAD "\"shared\":{\"frames\":[{\"name\":\"f\"}]},\"profiles\":["
      "{\"type\":\"sampled\",\"name\":\"t\",\"unit\":\"none\",\"startValue\":0,"
      "\"endValue\":4,\"samples\":[[0],[0]],\"weights\":[1,5]}]}",
      BL_METRIC_WEIGHT, "t;f 6\n" },
    /* profiles before frames, members in any order */
    { "{\"profiles\":[{\"weights\":[2],\"samples\":[[1,0]],\"unit\":\"none\",\"type\":"
      "\"sampled\",\"name\":\"late\"}],\"shared\":{\"frames\":[{\"name\":\"x\"},"
      "{\"name\":\"y\"}]},\"$schema\":\"https://www.speedscope.app/file-format-schema.json\"}",
      BL_METRIC_WEIGHT, "late;y;x 2\n" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlProfile) profile = read_json (cases[i].json, &error);
      g_autofree char *out = NULL;

      g_test_message ("case %u", i);
      g_assert_no_error (error);
      g_assert_cmpint (bl_profile_get_default_metric (profile), ==, cases[i].metric);
      out = folded (profile, cases[i].metric);
      g_assert_cmpstr (out, ==, cases[i].expected);
    }
}

static void
test_frames_and_threads (void)
{
  const char *json =
    HEAD "\"shared\":{\"frames\":[{\"name\":\"main\",\"file\":\"app.js\",\"line\":1,"
    "\"col\":3},{\"name\":\"helper\",\"file\":\"utils.js\",\"line\":15}]},\"profiles\":["
    "{\"type\":\"sampled\",\"name\":\"same\",\"unit\":\"none\",\"startValue\":0,"
    "\"endValue\":4,\"samples\":[[0,1],[0]],\"weights\":[3,1]},"
    "{\"type\":\"sampled\",\"name\":\"same\",\"unit\":\"none\",\"startValue\":0,"
    "\"endValue\":4,\"samples\":[[1]],\"weights\":[2]}]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = read_json (json, &error);
  gboolean found = FALSE;

  g_assert_no_error (error);
  g_assert_cmpuint (bl_profile_get_n_threads (profile), ==, 2);
  g_assert_cmpstr (bl_profile_get_thread_name (profile, 0), ==, "same");
  g_assert_cmpstr (bl_profile_get_thread_name (profile, 1), ==, "same (2)");
  g_assert_true (bl_profile_get_info (profile)->has_lines);

  for (guint i = 0; i < bl_profile_get_n_lines (profile); i++)
    {
      const BlLine *line = bl_profile_get_line (profile, i);

      if (line->line == 15)
        {
          g_assert_cmpstr (bl_profile_get_string (profile, line->file), ==, "utils.js");
          g_assert_cmpstr (bl_profile_get_string (profile, line->function), ==, "helper");
          g_assert_cmpuint (bl_profile_get_line_value (profile, BL_METRIC_WEIGHT, i), ==, 5);
          found = TRUE;
        }
    }
  g_assert_true (found);

  for (guint n = 0; n < bl_profile_get_n_nodes (profile); n++)
    if (g_strcmp0 (bl_profile_get_node_name (profile, n), "helper") == 0)
      {
        g_assert_cmpstr (bl_profile_get_node_file (profile, n), ==, "utils.js");
        g_assert_cmpuint (bl_profile_get_node (profile, n)->line, ==, 15);
      }
}

static void
test_errors (void)
{
  static const struct {
    const char *json;
    int         code;
    const char *needle;
  } cases[] = {
    { HEAD "\"shared\":{\"frames\":[{\"name\":\"f\"}]},\"profiles\":[{\"type\":\"evented\","
      "\"name\":\"t\",\"unit\":\"none\",\"startValue\":0,\"endValue\":1,\"events\":["
      "{\"type\":\"C\",\"frame\":0,\"at\":0}]}]}",
      BL_SPEEDSCOPE_ERROR_UNBALANCED, "closes frame 0, but no frame is open" },
    { HEAD "\"shared\":{\"frames\":[{\"name\":\"f\"}]},\"profiles\":[{\"type\":\"sampled\","
      "\"name\":\"t\",\"unit\":\"none\",\"samples\":[[0,3]],\"weights\":[1]}]}",
      BL_SPEEDSCOPE_ERROR_FRAME_RANGE,
      "frame index 3 is out of range (the file has 1 frames), at line 1, column " },
    { HEAD "\"shared\":{\"frames\":[{\"name\":\"f\"}]},\"profiles\":[{\"type\":\"sampled\","
      "\"name\":\"t\",\"unit\":\"none\",\"samples\":[[0,3]],\"weights\":[1]}]}",
      BL_SPEEDSCOPE_ERROR_FRAME_RANGE, "$.profiles[0].samples[0][1]" },
    { "{\"profiles\":[{\"type\":\"evented\",\"name\":\"t\",\"unit\":\"none\",\"events\":["
      "{\"type\":\"O\",\"frame\":5,\"at\":0},{\"type\":\"C\",\"frame\":5,\"at\":1}]}],"
      "\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
      "\"shared\":{\"frames\":[{\"name\":\"f\"}]}}",
      BL_SPEEDSCOPE_ERROR_FRAME_RANGE, "frame index 5 in event 0 of profile 0" },
    { HEAD "\"shared\":{\"frames\":[{\"name\":\"f\"}]},\"profiles\":[{\"type\":\"sampled\","
      "\"name\":\"t\",\"unit\":\"none\",\"samples\":[[0],[0]],\"weights\":[1]}]}",
      BL_SPEEDSCOPE_ERROR_LENGTH_MISMATCH, "profile 0 has 2 samples but 1 weights" },
    { HEAD "\"shared\":{\"frames\":[{\"name\":\"f\"}]},\"profiles\":[{\"type\":\"evented\","
      "\"name\":\"t\",\"unit\":\"none\",\"startValue\":0,\"endValue\":1,\"events\":["
      "{\"type\":\"O\",\"frame\":0,\"at\":5},{\"type\":\"C\",\"frame\":0,\"at\":4}]}]}",
      BL_SPEEDSCOPE_ERROR_TIME_ORDER, "event 1 of profile 0 is at 4, before" },
    { HEAD "\"shared\":{\"frames\":[{\"name\":\"f\"}]},\"profiles\":[{"
      "\"name\":\"t\",\"unit\":\"none\",\"samples\":[],\"weights\":[]}]}",
      BL_SPEEDSCOPE_ERROR_MISSING, "profile 0 has no type" },
    { HEAD "\"shared\":{\"frames\":[{\"file\":\"x\"}]},\"profiles\":[]}",
      BL_SPEEDSCOPE_ERROR_MISSING, "frame 0 has no name" },
    { HEAD "\"shared\":{\"frames\":[{\"name\":7}]},\"profiles\":[]}",
      BL_SPEEDSCOPE_ERROR_BAD_VALUE, "$.shared.frames[0].name" },
    { HEAD "\"shared\":{\"frames\":[]},\"profiles\":[{\"type\":\"sampled\",\"name\":\"t\","
      "\"unit\":\"none\",\"samples\":[[-1]],\"weights\":[1]}]}",
      BL_SPEEDSCOPE_ERROR_BAD_VALUE, "whole number" },
    { HEAD "\"profiles\":[]}", BL_SPEEDSCOPE_ERROR_MISSING, "no shared.frames" },
    { HEAD "\"shared\":{\"frames\":[{\"name\":\"f\"}]},\"profiles\":[{\"type\":\"evented\","
      "\"name\":\"t\",\"unit\":\"seconds\",\"startValue\":0,\"endValue\":1,\"events\":["
      "{\"type\":\"O\",\"frame\":0,\"at\":0},{\"type\":\"C\",\"frame\":0,\"at\":1e300}]}]}",
      BL_SPEEDSCOPE_ERROR_BAD_VALUE, "too large" },
    { HEAD "\"shared\":{\"frames\":[{\"name\":\"f\"}]},\"profiles\":[{\"type\":\"sampled\","
      "\"name\":\"t\",\"unit\":\"none\",\"samples\":[[0]],\"weights\":[1e300]}]}",
      BL_SPEEDSCOPE_ERROR_BAD_VALUE, "weight 0 of profile 0 is too large" },
    { HEAD "\"shared\":{\"frames\":[{\"name\":\"f\"}]},\"profiles\":[{\"type\":\"sampled\","
      "\"name\":\"t\",\"unit\":\"none\",\"samples\":[[0]],\"weights\":[-1]}]}",
      BL_SPEEDSCOPE_ERROR_BAD_VALUE, "negative" },
    { HEAD "\"shared\":{\"frames\":[{\"name\":\"f\"}]},\"profiles\":[{\"type\":\"sampled\","
      "\"name\":\"t\",\"unit\":\"none\",\"samples\":[[0.5]],\"weights\":[1]}]}",
      BL_SPEEDSCOPE_ERROR_BAD_VALUE, "whole number" },
    { "{\"shared\":{\"frames\":[]},\"profiles\":[]}",
      BL_SPEEDSCOPE_ERROR_NOT_SPEEDSCOPE, "$schema" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlProfile) profile = read_json (cases[i].json, &error);

      g_test_message ("case %u", i);
      g_assert_null (profile);
      g_assert_error (error, BL_SPEEDSCOPE_ERROR, cases[i].code);
      if (strstr (error->message, cases[i].needle) == NULL)
        g_error ("“%s” not in “%s”", cases[i].needle, error->message);
    }
}

static void
test_detect (void)
{
  static const char other_json[] = "{\"$schema\":\"https://example.com/schema.json\",\"a\":1}";
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data-files", "speedscope",
                                                 "two-sampled-0.6.0.speedscope.json", NULL);
  g_autofree char *contents = NULL;
  gsize len;
  g_autoptr(GBytes) bytes = g_bytes_new_static (other_json, strlen (other_json));
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) none = NULL;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_cmpint (bl_format_detect ((const guint8 *) contents, len, TRUE), ==,
                   BL_FORMAT_SPEEDSCOPE);
  /* the head of a long file, cut in the middle */
  g_assert_cmpint (bl_format_detect ((const guint8 *) contents, 200, FALSE), ==,
                   BL_FORMAT_SPEEDSCOPE);
  g_assert_cmpint (bl_format_detect ((const guint8 *) other_json, strlen (other_json), TRUE),
                   ==, BL_FORMAT_UNKNOWN);

  none = bl_format_load_bytes (bytes, &error);
  g_assert_null (none);
  g_assert_error (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_UNKNOWN);
  g_assert_nonnull (strstr (error->message, "JSON file, but not"));
  g_assert_nonnull (strstr (error->message, "speedscope"));
}

static void
test_prefixes (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data-files", "speedscope",
                                                 "simple-no-pretty-print-0.0.1.speedscope.json",
                                                 NULL);
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  /* a cut file is an error or an incomplete profile (see test_truncated) */
  for (gsize n = 0; n < len - 1; n++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlProfile) profile =
        bl_speedscope_read_memory ((const guint8 *) contents, n, &error);

      g_assert_true ((profile != NULL) != (error != NULL));
      if (profile != NULL)
        g_assert_true (bl_profile_is_incomplete (profile));
      else
        g_assert_true (error->domain == BL_JSON_ERROR || error->domain == BL_SPEEDSCOPE_ERROR);
    }

  for (gsize pos = 0; pos < len; pos++)
    for (guint bit = 0; bit < 8; bit += 2)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(BlProfile) profile = NULL;

        contents[pos] ^= 1u << bit;
        profile = bl_speedscope_read_memory ((const guint8 *) contents, len, &error);
        g_assert_true ((profile != NULL) != (error != NULL));
        if (error != NULL)
          g_assert_true (error->domain == BL_JSON_ERROR ||
                         error->domain == BL_SPEEDSCOPE_ERROR);
        contents[pos] ^= 1u << bit;
      }
}

/* A speedscope document written at test time: frames with files and lines,
 * an evented profile in milliseconds and a sampled one with integer
 * weights in "none"; the shared frames first, or after the profiles. */
static char *
write_document (gboolean  frames_first,
                gboolean  pretty,
                gsize    *len)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  guint stack[8];
  guint depth = 0;
  double at = 0;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "$schema");
  json_builder_add_string_value (b, BL_SPEEDSCOPE_SCHEMA);

  for (guint part = 0; part < 2; part++)
    {
      if ((part == 0) == frames_first)
        {
          json_builder_set_member_name (b, "shared");
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "frames");
          json_builder_begin_array (b);
          for (guint f = 0; f < 6; f++)
            {
              g_autofree char *name = g_strdup_printf ("func%u", f);

              json_builder_begin_object (b);
              json_builder_set_member_name (b, "name");
              json_builder_add_string_value (b, name);
              if (f % 2 == 0)
                {
                  json_builder_set_member_name (b, "file");
                  json_builder_add_string_value (b, "pkg:/source/main.brs");
                  json_builder_set_member_name (b, "line");
                  json_builder_add_int_value (b, 10 + f);
                }
              json_builder_end_object (b);
            }
          json_builder_end_array (b);
          json_builder_end_object (b);
          continue;
        }

      json_builder_set_member_name (b, "profiles");
      json_builder_begin_array (b);

      /* evented: frames open and close in a drifting nest */
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "type");
      json_builder_add_string_value (b, "evented");
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, "Events");
      json_builder_set_member_name (b, "unit");
      json_builder_add_string_value (b, "milliseconds");
      json_builder_set_member_name (b, "startValue");
      json_builder_add_double_value (b, 0);
      json_builder_set_member_name (b, "events");
      json_builder_begin_array (b);
      for (guint i = 0; i < 24 || depth > 0; i++)
        {
          gboolean open = depth == 0 || (depth < 5 && i < 24 && (i * 7) % 3 != 0);

          json_builder_begin_object (b);
          json_builder_set_member_name (b, "type");
          json_builder_add_string_value (b, open ? "O" : "C");
          json_builder_set_member_name (b, "frame");
          if (open)
            {
              stack[depth] = (i * 5 + depth) % 6;
              depth++;
            }
          else
            depth--;
          json_builder_add_int_value (b, stack[open ? depth - 1 : depth]);
          json_builder_set_member_name (b, "at");
          json_builder_add_double_value (b, at);
          json_builder_end_object (b);
          at += 1.25;
        }
      json_builder_end_array (b);
      json_builder_set_member_name (b, "endValue");
      json_builder_add_double_value (b, at);
      json_builder_end_object (b);

      /* sampled: stacks that share prefixes, weights 1 and 2 */
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "type");
      json_builder_add_string_value (b, "sampled");
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, "Samples");
      json_builder_set_member_name (b, "unit");
      json_builder_add_string_value (b, "none");
      json_builder_set_member_name (b, "samples");
      json_builder_begin_array (b);
      for (guint i = 0; i < 12; i++)
        {
          json_builder_begin_array (b);
          for (guint d = 0; d < 1 + i % 4; d++)
            json_builder_add_int_value (b, (d * 3 + i / 4) % 6);
          json_builder_end_array (b);
        }
      json_builder_end_array (b);
      json_builder_set_member_name (b, "weights");
      json_builder_begin_array (b);
      for (guint i = 0; i < 12; i++)
        json_builder_add_int_value (b, i % 5 == 0 ? 2 : 1);
      json_builder_end_array (b);
      json_builder_end_object (b);

      json_builder_end_array (b);
    }
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, pretty);

  return json_generator_to_data (gen, len);
}

static guint64
all_totals (BlProfile *profile)
{
  return bl_profile_get_grand_total (profile, BL_METRIC_TIME_NS) +
         bl_profile_get_grand_total (profile, BL_METRIC_SAMPLES) +
         bl_profile_get_grand_total (profile, BL_METRIC_WEIGHT);
}

/* Every prefix of a file is a clear error or an incomplete profile with
 * what was complete in it: its totals only grow with the prefix, and once
 * something can be read, every longer prefix reads too. */
static void
test_truncated (void)
{
  for (guint layout = 0; layout < 2; layout++)
    {
      gsize len;
      g_autofree char *doc = write_document (layout == 0, layout == 0, &len);
      g_autoptr(BlProfile) full = bl_speedscope_read_memory ((const guint8 *) doc, len, NULL);
      guint64 last_total = 0;
      gboolean readable = FALSE;
      guint n_readable = 0;

      g_assert_nonnull (full);
      g_assert_false (bl_profile_is_incomplete (full));
      g_assert_cmpuint (bl_profile_get_grand_total (full, BL_METRIC_TIME_NS), >, 0);
      g_assert_cmpuint (bl_profile_get_grand_total (full, BL_METRIC_WEIGHT), ==, 15);

      for (gsize n = 0; n < len; n++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(BlProfile) profile =
            bl_speedscope_read_memory ((const guint8 *) doc, n, &error);
          guint64 total;

          if (profile == NULL)
            {
              g_assert_false (readable);
              g_assert_true (error->domain == BL_JSON_ERROR ||
                             error->domain == BL_SPEEDSCOPE_ERROR);
              g_assert_true (g_str_has_suffix (error->message, "."));
              continue;
            }

          g_assert_no_error (error);
          readable = TRUE;
          n_readable++;
          g_assert_true (bl_profile_is_incomplete (profile));
          g_assert_nonnull (strstr (bl_profile_get_incomplete_reason (profile), "byte"));
          total = all_totals (profile);
          g_assert_cmpuint (total, >=, last_total);
          g_assert_cmpuint (total, <=, all_totals (full));
          last_total = total;
        }
      g_assert_true (readable);
      /* with the frames first, from the first complete event on; after the
       * profiles, only once frames are known */
      if (layout == 0)
        g_assert_cmpuint (n_readable, >, len / 2);
    }

  /* cut inside the shared frames before any profile: an error */
  {
    gsize len;
    g_autofree char *doc = write_document (TRUE, TRUE, &len);
    const char *cut = strstr (doc, "func3");
    g_autoptr(GError) error = NULL;
    g_autoptr(BlProfile) profile = NULL;

    g_assert_nonnull (cut);
    profile = bl_speedscope_read_memory ((const guint8 *) doc, cut - doc, &error);
    g_assert_null (profile);
    g_assert_error (error, BL_SPEEDSCOPE_ERROR, BL_SPEEDSCOPE_ERROR_MISSING);
    g_assert_nonnull (strstr (error->message, "ends early"));
  }

  /* cut after the last complete sample: all but the unfinished one are kept */
  {
    gsize len;
    g_autofree char *doc = write_document (TRUE, FALSE, &len);
    const char *weights = strstr (doc, "\"weights\"");
    g_autoptr(BlProfile) full = bl_speedscope_read_memory ((const guint8 *) doc, len, NULL);
    g_autoptr(BlProfile) profile = NULL;

    /* "weights":[2,1,1,1,1,2,1,1,1,1,2,1] cut after the fourth: 2+1+1+1 */
    g_assert_nonnull (weights);
    profile = bl_speedscope_read_memory ((const guint8 *) doc, weights - doc + 19, NULL);
    g_assert_nonnull (profile);
    g_assert_true (bl_profile_is_incomplete (profile));
    g_assert_nonnull (strstr (bl_profile_get_incomplete_reason (profile), "4 complete samples"));
    g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_WEIGHT), ==, 5);
    /* the evented profile before it is whole */
    g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_TIME_NS), ==,
                      bl_profile_get_grand_total (full, BL_METRIC_TIME_NS));
  }
}

/* Every metric's folded stacks, each after a "# metric" line */
static char *
folded_all (BlProfile *profile)
{
  BlMetricId metrics[BL_N_METRICS];
  guint n = bl_profile_list_metrics (profile, metrics);
  GString *all = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = folded (profile, metrics[i]);

      g_string_append_printf (all, "# %s\n%s", bl_metric_get_name (metrics[i]), text);
    }

  return g_string_free (all, FALSE);
}

/* Hand-made edge cases, read as speedscope 1.25's importer reads them: the
 * expected stacks are speedscope's (its grouped call tree, by frame name),
 * in base units (nanoseconds, bytes). Fractional weights keep every
 * fraction; empty stacks and gaps between events are idle, in no stack;
 * an unknown unit reads as none and an unknown event type is skipped, each
 * with a warning. */
static void
test_like_speedscope (void)
{
  static const struct {
    const char *file;
    const char *expected;
    const char *warning;
  } cases[] = {
    { "edge-fractional-none.speedscope.json",
      "# weight\nt;a 1.8\nt;a;b 1.2\n", NULL },
    { "edge-fractional-bytes.speedscope.json",
      "# alloc-bytes\nheap;main;free 17.75\nheap;main;malloc 33.35\n", NULL },
    { "edge-fractional-evented.speedscope.json",
      "# time-ns\nus;f 7.9\nus;f;g 2.1\n", NULL },
    { "edge-idle.speedscope.json",
      "# time-ns\nevented;main 3250000\nevented;main;work 2250000\n"
      "sampled;main 5500000\nsampled;main;work 10000000\n", NULL },
    { "edge-mixed-units.speedscope.json",
      "# alloc-bytes\nmemory;main;alloc 1024\nmemory;main;parse;alloc 3072\n"
      "# samples\ncount;main 1\ncount;main;parse 2\n"
      "# time-ns\ncpu;main 4000000\ncpu;main;parse 6000000\n", NULL },
    { "edge-unknown-unit-and-event.speedscope.json",
      "# time-ns\nevents;f 10\n# weight\nodd;f 1\nodd;f;g 2\n",
      "unknown unit “furlongs”" },
    { "edge-duplicate-names.speedscope.json",
      "# time-ns\nedge-duplicate-names.speedscope.json;main;render 6\n"
      "edge-duplicate-names.speedscope.json;main;render;render 4\n", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlProfile) profile = load_sample (cases[i].file, &error);
      g_autofree char *out = NULL;
      const char *warning;

      g_test_message ("%s", cases[i].file);
      g_assert_no_error (error);
      out = folded_all (profile);
      g_assert_cmpstr (out, ==, cases[i].expected);
      warning = bl_profile_get_warning (profile);
      if (cases[i].warning == NULL)
        g_assert_true (warning == NULL || warning[0] == '\0');
      else
        g_assert_nonnull (strstr (warning, cases[i].warning));
    }

  /* the unknown event types are named too */
  {
    g_autoptr(BlProfile) profile =
      load_sample ("edge-unknown-unit-and-event.speedscope.json", NULL);

    g_assert_nonnull (strstr (bl_profile_get_warning (profile), "2 events of an unknown type "
                                                                "(the first is “X”"));
  }
}

/* Files speedscope 1.25's exporter wrote from other formats (Firefox,
 * GHC's .prof with time and allocations, callgrind with two event types,
 * Safari, folded stacks, a Chrome trace): every profile's total is
 * speedscope's non-idle total, to 1e-9, each in its own unit. */
static void
test_exported_by_speedscope (void)
{
  static const struct {
    const char *file;
    const char *thread;
    BlMetricId  metric;
    double      total;   /* speedscope's, in base units */
  } cases[] = {
    { "exported-Firefox_61_recursion.speedscope.json", "Firefox_61_recursion.json",
      BL_METRIC_TIME_NS, 11.149112000013702e6 },
    { "exported-haskell_simple.speedscope.json", "binary-trees time", BL_METRIC_TIME_NS, 798e6 },
    { "exported-haskell_simple.speedscope.json", "binary-trees allocation",
      BL_METRIC_ALLOC_BYTES, 1921672664 },
    { "exported-callgrind_callgrind.multiple-event-types.speedscope.json",
      "callgrind_callgrind.multiple-event-types.log -- Time", BL_METRIC_TIME_NS, 8200 },
    { "exported-callgrind_callgrind.multiple-event-types.speedscope.json",
      "callgrind_callgrind.multiple-event-types.log -- Memory", BL_METRIC_ALLOC_BYTES, 38000 },
    { "exported-Safari_13.1_simple.html-recording.speedscope.json",
      "Grabación de Control temporal 1", BL_METRIC_TIME_NS, 0.03400676000071691e9 },
    { "exported-stackcollapse_recursion.speedscope.json", "stackcollapse_recursion.txt",
      BL_METRIC_WEIGHT, 10 },
    { "exported-trace-event_bex-interaction.speedscope.json", "pid 0, tid 0",
      BL_METRIC_TIME_NS, 12000 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlProfile) profile = load_sample (cases[i].file, &error);
      guint thread = G_MAXUINT;
      double total;

      g_test_message ("%s: %s", cases[i].file, cases[i].thread);
      g_assert_no_error (error);
      for (guint t = 0; t < bl_profile_get_n_threads (profile); t++)
        if (g_str_equal (bl_profile_get_thread_name (profile, t), cases[i].thread))
          thread = t;
      g_assert_cmpuint (thread, !=, G_MAXUINT);
      total = bl_profile_to_base_unit (profile, cases[i].metric,
                                       bl_profile_get_total (profile, cases[i].metric,
                                                             bl_profile_get_thread_root (profile,
                                                                                         thread)));
      g_assert_cmpfloat (fabs (total - cases[i].total), <=, 1e-9 * cases[i].total);
    }
}

/* Compact events are read at once (the JSON reader's flat-object fast
 * path), others token by token: both give the same profile and the same
 * errors. */
static void
test_compact_events (void)
{
  static const char compact[] =
    HEAD "\"shared\":{\"frames\":[{\"name\":\"f\"},{\"name\":\"g\"}]},\"profiles\":["
    "{\"type\":\"evented\",\"name\":\"t\",\"unit\":\"microseconds\",\"startValue\":0,"
    "\"endValue\":9,\"events\":[{\"type\":\"O\",\"frame\":0,\"at\":0},"
    "{\"at\":1.5,\"frame\":1,\"type\":\"O\",\"extra\":\"x\"},{\"type\":\"C\",\"frame\":1,\"at\":4e0},"
    "{\"type\":\"Z\",\"frame\":1,\"at\":5},"
    "{\"type\":\"\\u0043\",\"frame\":0,\"at\":9}]}]}";
  static const char spaced[] =
    HEAD "\"shared\":{\"frames\":[{\"name\":\"f\"},{\"name\":\"g\"}]},\"profiles\":["
    "{\"type\":\"evented\",\"name\":\"t\",\"unit\":\"microseconds\",\"startValue\":0,"
    "\"endValue\":9,\"events\":[ { \"type\": \"O\", \"frame\": 0, \"at\": 0 },\n"
    "{ \"at\": 1.5, \"frame\": 1, \"type\": \"O\", \"extra\": \"x\" }, { \"type\": \"C\", "
    "\"frame\": 1, \"at\": 4e0 }, { \"type\": \"Z\", \"frame\": 1, \"at\": 5 },\n"
    "{ \"type\": \"C\", \"frame\": 0, \"at\": 9 } ]}]}";
  static const struct {
    const char *events;
    int         code;
    const char *needle;
  } bad[] = {
    { "{\"type\":\"O\",\"frame\":\"x\",\"at\":0}", BL_SPEEDSCOPE_ERROR_BAD_VALUE, "frame index" },
    { "{\"type\":\"O\",\"frame\":7,\"at\":0}", BL_SPEEDSCOPE_ERROR_FRAME_RANGE, "out of range" },
    { "{\"type\":\"O\",\"frame\":0.5,\"at\":0}", BL_SPEEDSCOPE_ERROR_BAD_VALUE, "whole number" },
    { "{\"type\":\"O\",\"frame\":0}", BL_SPEEDSCOPE_ERROR_MISSING, "lacks its at" },
    { "{\"type\":1,\"frame\":0,\"at\":0}", BL_SPEEDSCOPE_ERROR_BAD_VALUE, "string" },
    { "{\"type\":\"O\",\"frame\":0,\"at\":\"now\"}", BL_SPEEDSCOPE_ERROR_BAD_VALUE, "number" },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) a = read_json (compact, &error);
  g_autoptr(BlProfile) b = NULL;
  g_autofree char *fa = NULL;
  g_autofree char *fb = NULL;
  BlSpanList la, lb;
  const BlSpan *sa, *sb;
  gsize na, nb;

  g_assert_no_error (error);
  b = read_json (spaced, &error);
  g_assert_no_error (error);
  fa = folded_all (a);
  fb = folded_all (b);
  g_assert_cmpstr (fa, ==, "# time-ns\nt;f 6500\nt;f;g 2500\n");
  g_assert_cmpstr (fa, ==, fb);
  bl_profile_get_spans (a, 0, &la);
  bl_profile_get_spans (b, 0, &lb);
  sa = la.spans;
  sb = lb.spans;
  na = la.n_spans;
  nb = lb.n_spans;
  g_assert_cmpuint (na, ==, 2);
  g_assert_cmpuint (na, ==, nb);
  for (gsize i = 0; i < na; i++)
    {
      g_assert_cmpuint (sa[i].start, ==, sb[i].start);
      g_assert_cmpuint (bl_span_list_get_end (&la, i), ==, bl_span_list_get_end (&lb, i));
    }
  g_assert_nonnull (strstr (bl_profile_get_warning (a), "1 events of an unknown type "
                                                         "(the first is “Z”"));

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    for (guint form = 0; form < 2; form++)
      {
        g_autoptr(GError) bad_error = NULL;
        g_autoptr(BlProfile) profile = NULL;
        g_auto(GStrv) parts = g_strsplit (bad[i].events, ",", -1);
        /* the spaced form: a space after each comma is not the compact form */
        g_autofree char *events = g_strjoinv (form == 0 ? "," : ", ", parts);
        g_autofree char *json = NULL;

        json = g_strdup_printf (HEAD "\"shared\":{\"frames\":[{\"name\":\"f\"}]},\"profiles\":["
                                "{\"type\":\"evented\",\"name\":\"t\",\"unit\":\"none\","
                                "\"events\":[%s]}]}", events);
        profile = read_json (json, &bad_error);
        g_test_message ("%s", json);
        g_assert_null (profile);
        g_assert_error (bad_error, BL_SPEEDSCOPE_ERROR, bad[i].code);
        if (strstr (bad_error->message, bad[i].needle) == NULL)
          g_error ("“%s” not in “%s”", bad[i].needle, bad_error->message);
      }
}

/* Values that are not whole numbers of the base unit are held in a finer
 * decimal unit: sums stay exact, and the helpers give the decimals back. */
static void
test_fractional (void)
{
  g_autoptr(BlProfile) none = load_sample ("edge-fractional-none.speedscope.json", NULL);
  g_autoptr(BlProfile) bytes = load_sample ("edge-fractional-bytes.speedscope.json", NULL);
  g_autoptr(BlProfile) whole = load_sample ("two-sampled-0.6.0.speedscope.json", NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *shown = NULL;
  g_autofree char *shown_bytes = NULL;

  g_assert_cmpuint (bl_profile_get_metric_decimals (none, BL_METRIC_WEIGHT), ==, 1);
  g_assert_cmpuint (bl_profile_get_metric_scale (none, BL_METRIC_WEIGHT), ==, 10);
  g_assert_cmpuint (bl_profile_get_grand_total (none, BL_METRIC_WEIGHT), ==, 30);
  g_assert_cmpfloat_with_epsilon (bl_profile_to_base_unit (none, BL_METRIC_WEIGHT, 30), 3.0,
                                  1e-12);
  bl_profile_append_exact_value (none, BL_METRIC_WEIGHT,
                                 bl_profile_get_grand_total (none, BL_METRIC_WEIGHT), text);
  g_assert_cmpstr (text->str, ==, "3");
  shown = bl_profile_format_value (none, BL_METRIC_WEIGHT, 18);
  g_assert_cmpstr (shown, ==, "1.8");

  /* 33.25 + 17.75 + 0.1 bytes: two decimals */
  g_assert_cmpuint (bl_profile_get_metric_decimals (bytes, BL_METRIC_ALLOC_BYTES), ==, 2);
  g_assert_cmpuint (bl_profile_get_grand_total (bytes, BL_METRIC_ALLOC_BYTES), ==, 5110);
  shown_bytes = bl_profile_format_value (bytes, BL_METRIC_ALLOC_BYTES, 5110);
  g_assert_cmpstr (shown_bytes, ==, "51.1 B");

  /* whole numbers: no decimals, the values as they always were */
  g_assert_cmpuint (bl_profile_get_metric_decimals (whole, BL_METRIC_TIME_NS), ==, 0);
  g_assert_cmpuint (bl_profile_get_grand_total (whole, BL_METRIC_TIME_NS), ==,
                    G_GUINT64_CONSTANT (28000000000));

  /* per-line values in the same finer unit */
  {
    g_autoptr(BlProfile) lines = read_json (
      HEAD "\"shared\":{\"frames\":[{\"name\":\"f\",\"file\":\"a.js\",\"line\":3},"
      "{\"name\":\"g\",\"file\":\"a.js\",\"line\":9}]},\"profiles\":[{\"type\":\"sampled\","
      "\"name\":\"t\",\"unit\":\"bytes\",\"samples\":[[0],[0,1]],\"weights\":[1.5,2.25]}]}",
      NULL);
    guint64 sum = 0;

    g_assert_nonnull (lines);
    g_assert_cmpuint (bl_profile_get_metric_decimals (lines, BL_METRIC_ALLOC_BYTES), ==, 2);
    g_assert_cmpuint (bl_profile_get_n_lines (lines), ==, 2);
    for (guint i = 0; i < bl_profile_get_n_lines (lines); i++)
      sum += bl_profile_get_line_value (lines, BL_METRIC_ALLOC_BYTES, i);
    g_assert_cmpuint (sum, ==, 375);
  }

  g_string_truncate (text, 0);
  bl_append_decimal (text, 3325, 2);
  g_string_append_c (text, ' ');
  bl_append_decimal (text, 30, 1);
  g_string_append_c (text, ' ');
  bl_append_decimal (text, 5, 3);
  g_string_append_c (text, ' ');
  bl_append_decimal (text, G_MAXUINT64, 18);
  g_assert_cmpstr (text->str, ==, "33.25 3 0.005 18.446744073709551615");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/speedscope/sample-evented", test_sample_evented);
  g_test_add_func ("/model/speedscope/sample-sampled", test_sample_sampled);
  g_test_add_func ("/model/speedscope/sample-invalid", test_sample_invalid);
  g_test_add_func ("/model/speedscope/units", test_units);
  g_test_add_func ("/model/speedscope/frames-and-threads", test_frames_and_threads);
  g_test_add_func ("/model/speedscope/errors", test_errors);
  g_test_add_func ("/model/speedscope/detect", test_detect);
  g_test_add_func ("/model/speedscope/prefixes-and-flips", test_prefixes);
  g_test_add_func ("/model/speedscope/truncated", test_truncated);
  g_test_add_func ("/model/speedscope/like-speedscope", test_like_speedscope);
  g_test_add_func ("/model/speedscope/fractional", test_fractional);
  g_test_add_func ("/model/speedscope/compact-events", test_compact_events);
  g_test_add_func ("/model/speedscope/exported-by-speedscope", test_exported_by_speedscope);

  return g_test_run ();
}
