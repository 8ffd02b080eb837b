/* test-speedscope-export.c — speedscope export: validity against
 * speedscope's published schema, shared frames, and round trips
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "bl-model.h"
#include "bl-br-reader.h"
#include "bl-br-writer.h"
#include "bl-bsprof-writer.h"
#include "bl-mpatrol-reader.h"
#include "bl-mpatrol-writer.h"
#include "bl-speedscope-reader.h"
#include "bl-speedscope-writer.h"

/* ---- a validator for the part of JSON Schema (draft 06) that speedscope's
 * schema uses: $ref into #/definitions, type, enum, properties, required,
 * items, anyOf ---------------------------------------------------------- */

static JsonObject *schema_root;

static gboolean validate (JsonNode *schema, JsonNode *value, const char *path, GString *why);

static gboolean
type_matches (const char *type,
              JsonNode   *value)
{
  if (g_str_equal (type, "object"))
    return JSON_NODE_HOLDS_OBJECT (value);
  if (g_str_equal (type, "array"))
    return JSON_NODE_HOLDS_ARRAY (value);
  if (!JSON_NODE_HOLDS_VALUE (value))
    return FALSE;
  if (g_str_equal (type, "string"))
    return json_node_get_value_type (value) == G_TYPE_STRING;
  if (g_str_equal (type, "number"))
    return json_node_get_value_type (value) == G_TYPE_INT64 ||
           json_node_get_value_type (value) == G_TYPE_DOUBLE;
  if (g_str_equal (type, "boolean"))
    return json_node_get_value_type (value) == G_TYPE_BOOLEAN;
  g_error ("schema type %s is not handled by the test validator", type);
  return FALSE;
}

static gboolean
validate (JsonNode   *schema_node,
          JsonNode   *value,
          const char *path,
          GString    *why)
{
  JsonObject *schema;
  JsonObjectIter iter;
  const char *key;
  JsonNode *member;

  g_assert_true (JSON_NODE_HOLDS_OBJECT (schema_node));
  schema = json_node_get_object (schema_node);

  json_object_iter_init (&iter, schema);
  while (json_object_iter_next (&iter, &key, &member))
    {
      if (g_str_equal (key, "title") || g_str_equal (key, "$schema") ||
          g_str_equal (key, "definitions"))
        continue;
      if (g_str_equal (key, "$ref"))
        {
          const char *ref = json_node_get_string (member);
          JsonObject *defs = json_object_get_object_member (schema_root, "definitions");

          g_assert_true (g_str_has_prefix (ref, "#/definitions/"));
          if (!validate (json_object_get_member (defs, ref + strlen ("#/definitions/")),
                         value, path, why))
            return FALSE;
        }
      else if (g_str_equal (key, "type"))
        {
          if (!type_matches (json_node_get_string (member), value))
            {
              g_string_printf (why, "%s is not of type %s", path,
                               json_node_get_string (member));
              return FALSE;
            }
        }
      else if (g_str_equal (key, "enum"))
        {
          JsonArray *choices = json_node_get_array (member);
          gboolean found = FALSE;

          for (guint i = 0; i < json_array_get_length (choices); i++)
            if (json_node_equal (json_array_get_element (choices, i), value))
              found = TRUE;
          if (!found)
            {
              g_string_printf (why, "%s is not one of the enum values", path);
              return FALSE;
            }
        }
      else if (g_str_equal (key, "required"))
        {
          JsonArray *names = json_node_get_array (member);

          if (!JSON_NODE_HOLDS_OBJECT (value))
            continue;
          for (guint i = 0; i < json_array_get_length (names); i++)
            if (!json_object_has_member (json_node_get_object (value),
                                         json_array_get_string_element (names, i)))
              {
                g_string_printf (why, "%s lacks the required %s", path,
                                 json_array_get_string_element (names, i));
                return FALSE;
              }
        }
      else if (g_str_equal (key, "properties"))
        {
          JsonObject *props = json_node_get_object (member);
          JsonObjectIter piter;
          const char *name;
          JsonNode *sub;

          if (!JSON_NODE_HOLDS_OBJECT (value))
            continue;
          json_object_iter_init (&piter, props);
          while (json_object_iter_next (&piter, &name, &sub))
            if (json_object_has_member (json_node_get_object (value), name))
              {
                g_autofree char *sub_path = g_strdup_printf ("%s.%s", path, name);

                if (!validate (sub, json_object_get_member (json_node_get_object (value),
                                                            name), sub_path, why))
                  return FALSE;
              }
        }
      else if (g_str_equal (key, "items"))
        {
          JsonArray *array;

          if (!JSON_NODE_HOLDS_ARRAY (value))
            continue;
          array = json_node_get_array (value);
          for (guint i = 0; i < json_array_get_length (array); i++)
            {
              g_autofree char *sub_path = g_strdup_printf ("%s[%u]", path, i);

              if (!validate (member, json_array_get_element (array, i), sub_path, why))
                return FALSE;
            }
        }
      else if (g_str_equal (key, "anyOf"))
        {
          JsonArray *choices = json_node_get_array (member);
          gboolean any = FALSE;

          for (guint i = 0; i < json_array_get_length (choices) && !any; i++)
            {
              g_autoptr(GString) ignored = g_string_new (NULL);

              any = validate (json_array_get_element (choices, i), value, path, ignored);
            }
          if (!any)
            {
              g_string_printf (why, "%s matches none of anyOf", path);
              return FALSE;
            }
        }
      else
        g_error ("schema keyword %s is not handled by the test validator", key);
    }

  return TRUE;
}

static JsonParser *schema_parser;

static void
load_schema (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data-files", "speedscope",
                                                 "file-format-schema.json", NULL);
  g_autoptr(GError) error = NULL;

  schema_parser = json_parser_new ();
  g_assert_true (json_parser_load_from_file (schema_parser, path, &error));
  g_assert_no_error (error);
  schema_root = json_node_get_object (json_parser_get_root (schema_parser));
}

static gboolean
validate_text (const char *text,
               GString    *why)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  if (!json_parser_load_from_data (parser, text, -1, &error))
    {
      g_string_printf (why, "not JSON: %s", error->message);
      return FALSE;
    }

  return validate (json_parser_get_root (schema_parser), json_parser_get_root (parser), "$", why);
}

static void
assert_valid (const char *text)
{
  g_autoptr(GString) why = g_string_new (NULL);

  if (!validate_text (text, why))
    g_error ("export does not validate: %s", why->str);
}

/* ---- helpers ------------------------------------------------------------ */

static char *
export (BlProfile *profile)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_assert_true (bl_speedscope_write (profile, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (out, NULL, NULL));

  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
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

/* Export, validate, import: the folded output of the default metric and
 * the totals must come back the same. */
static BlProfile *
round_trip (BlProfile *profile)
{
  g_autofree char *json = export (profile);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = g_bytes_new (json, strlen (json));
  g_autoptr(GObject) again = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  BlMetricId metric = bl_profile_get_default_metric (profile);

  assert_valid (json);

  again = bl_format_load_bytes (bytes, &error);
  g_assert_no_error (error);
  g_assert_true (BL_IS_PROFILE (again));
  g_assert_cmpstr (bl_profile_get_info (BL_PROFILE (again))->format, ==, "speedscope");
  g_assert_cmpint (bl_profile_get_default_metric (BL_PROFILE (again)), ==, metric);
  g_assert_cmpuint (bl_profile_get_n_threads (BL_PROFILE (again)), ==,
                    bl_profile_get_n_threads (profile));

  /* every metric travels, each in its own unit */
  {
    BlMetricId metrics[BL_N_METRICS], metrics_again[BL_N_METRICS];
    guint n = bl_profile_list_metrics (profile, metrics);

    guint n_again = bl_profile_list_metrics (BL_PROFILE (again), metrics_again);

    /* a metric without any value (frees in a profile without any) need
     * not come back; every other does */
    for (guint i = 0; i < n_again; i++)
      g_assert_true (bl_profile_has_metric (profile, metrics_again[i]));
    for (guint i = 0; i < n; i++)
      {
        g_autofree char *before_m = folded (profile, metrics[i]);
        g_autofree char *after_m = folded (BL_PROFILE (again), metrics[i]);

        if (bl_profile_get_grand_total (profile, metrics[i]) == 0)
          continue;
        g_assert_true (bl_profile_has_metric (BL_PROFILE (again), metrics[i]));
        g_assert_cmpstr (before_m, ==, after_m);
        g_assert_cmpuint (bl_profile_get_grand_total (profile, metrics[i]), ==,
                          bl_profile_get_grand_total (BL_PROFILE (again), metrics[i]));
        g_assert_cmpuint (bl_profile_get_metric_decimals (profile, metrics[i]), ==,
                          bl_profile_get_metric_decimals (BL_PROFILE (again), metrics[i]));
      }
  }
  before = folded (profile, metric);
  after = folded (BL_PROFILE (again), metric);
  g_assert_cmpstr (before, ==, after);

  return BL_PROFILE (g_steal_pointer (&again));
}

/* ---- tests -------------------------------------------------------------- */

static BlProfile *
make_bsprof (void)
{
  BlBsprofHeader h;
  BlBsprofWriter *w;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  BlProfile *profile;

  bl_bsprof_header_init (&h);
  h.lines = TRUE;
  h.memory = TRUE;
  h.target = "Grid \"App\" <1>";
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "main");
  bl_bsprof_writer_string (w, 4, "init");
  bl_bsprof_writer_string (w, 5, "load\\Config\t\"x\"");
  bl_bsprof_writer_string (w, 6, "FetchTask");
  bl_bsprof_writer_string (w, 7, "pkg:/components/FetchTask.brs");
  bl_bsprof_writer_string (w, 8, "fetch");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_module (w, 2, 6);
  bl_bsprof_writer_root (w, 10, 1, 2, 1, 3);
  bl_bsprof_writer_path (w, 11, 10, 5, 2, 20, 4);
  bl_bsprof_writer_path (w, 12, 11, 3, 2, 40, 5);
  bl_bsprof_writer_root (w, 20, 2, 7, 1, 8);
  bl_bsprof_writer_path (w, 21, 20, 2, 2, 20, 4);   /* init again, from the task */
  bl_bsprof_writer_cpu (w, 12, 2, 100, 150);
  bl_bsprof_writer_cpu (w, 12, 3, 50, 60);
  bl_bsprof_writer_cpu (w, 11, 1, 7, 9);
  bl_bsprof_writer_cpu (w, 10, 1, 3, 4);
  bl_bsprof_writer_cpu (w, 20, 1, 1000, 5000);
  bl_bsprof_writer_cpu (w, 21, 1, 11, 12);
  bl_bsprof_writer_calls (w, 12, 2);
  bl_bsprof_writer_alloc (w, 12, 1, 0x1000, 64);
  bl_bsprof_writer_end (w, 1700000009999);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  profile = bl_bsprof_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   &error);
  g_assert_no_error (error);

  return profile;
}

static void
test_bsprof_round_trip (void)
{
  g_autoptr(BlProfile) profile = make_bsprof ();
  g_autoptr(BlProfile) again = round_trip (profile);
  g_autofree char *json = export (profile);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root, *shared;
  JsonArray *frames, *profiles;
  guint n_init = 0;

  /* bsprof's CPU is microseconds, and comes back as the metric cpu */
  g_assert_cmpint (bl_profile_get_default_metric (again), ==, BL_METRIC_CPU);

  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "$schema"), ==, BL_SPEEDSCOPE_SCHEMA);
  g_assert_cmpstr (json_object_get_string_member (root, "exporter"), ==,
                   "brightlens@" PACKAGE_VERSION);
  g_assert_cmpstr (json_object_get_string_member (root, "name"), ==, "Grid \"App\" <1>");
  g_assert_cmpint (json_object_get_int_member (root, "activeProfileIndex"), ==, 0);
  shared = json_object_get_object_member (root, "shared");
  frames = json_object_get_array_member (shared, "frames");
  profiles = json_object_get_array_member (root, "profiles");
  /* one profile per thread and metric with a value: the main thread has
   * seven (cpu, wall, calls and four of memory), the task two */
  g_assert_cmpuint (json_array_get_length (profiles), ==, 9);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (profiles, 0),
                                                  "unit"), ==, "microseconds");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (profiles, 0),
                                                  "name"), ==, "Thread main");
  for (guint i = 0; i < json_array_get_length (profiles); i++)
    {
      JsonObject *p = json_array_get_object_element (profiles, i);
      BlMetricId m = bl_metric_from_name (json_object_get_string_member (p, BL_SPEEDSCOPE_METRIC_MEMBER));

      g_assert_cmpint (m, !=, BL_METRIC_INVALID);
      g_assert_cmpstr (json_object_get_string_member (p, "unit"), ==,
                       bl_unit_get_speedscope_name (bl_metric_get_info (m)->unit));
    }
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (profiles, 3),
                                                  "unit"), ==, "bytes");
  /* init is one shared frame though both threads call it */
  for (guint i = 0; i < json_array_get_length (frames); i++)
    if (g_str_equal (json_object_get_string_member (json_array_get_object_element (frames, i),
                                                    "name"), "init"))
      {
        JsonObject *frame = json_array_get_object_element (frames, i);

        g_assert_cmpstr (json_object_get_string_member (frame, "file"), ==,
                         "pkg:/source/main.brs");
        g_assert_cmpint (json_object_get_int_member (frame, "line"), ==, 20);
        n_init++;
      }
  g_assert_cmpuint (n_init, ==, 1);
  g_assert_cmpuint (json_array_get_length (frames), ==, 4);
}

/* Every speedscope file in the tests that Brightlens reads goes out and
 * comes back with the same stacks for every metric (see round_trip()) */
static void
test_speedscope_samples_round_trip (void)
{
  g_autofree char *dir_path = g_test_build_filename (G_TEST_DIST, "data-files", "speedscope",
                                                     NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n_files = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autofree char *contents = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(BlProfile) profile = NULL;
      g_autoptr(BlProfile) again = NULL;
      gsize len;

      if (!g_str_has_suffix (name, ".speedscope.json"))
        continue;
      g_test_message ("%s", name);
      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      profile = bl_speedscope_read_memory ((const guint8 *) contents, len, &error);
      g_assert_no_error (error);
      again = round_trip (profile);
      n_files++;
    }
  g_assert_cmpuint (n_files, >=, 10);
}

/* Frames as speedscope keeps them: one per index of the original that is
 * used, even where two agree in name, file and line, each with its line and
 * column; the stacks by name are the same. */
static void
test_frames_round_trip (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data-files", "speedscope",
                                                 "edge-duplicate-names.speedscope.json", NULL);
  g_autofree char *mixed_path = g_test_build_filename (G_TEST_DIST, "data-files", "speedscope",
                                                       "edge-mixed-units.speedscope.json", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *json = NULL;
  g_autofree char *mixed_json = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(BlProfile) mixed = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *frames, *profiles;
  JsonObject *main_frame;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  profile = bl_speedscope_read_memory ((const guint8 *) contents, len, NULL);
  g_assert_nonnull (profile);
  g_assert_cmpuint (bl_profile_get_n_frames (profile), ==, 4);
  json = export (profile);
  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  frames = json_object_get_array_member (
    json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                   "shared"), "frames");
  g_assert_cmpuint (json_array_get_length (frames), ==, 4);
  g_object_unref (round_trip (profile));

  /* line and column; each profile in its own unit */
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (mixed_path, &contents, &len, NULL));
  mixed = bl_speedscope_read_memory ((const guint8 *) contents, len, NULL);
  g_assert_nonnull (mixed);
  mixed_json = export (mixed);
  g_assert_true (json_parser_load_from_data (parser, mixed_json, -1, NULL));
  frames = json_object_get_array_member (
    json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                   "shared"), "frames");
  main_frame = json_array_get_object_element (frames, 0);
  g_assert_cmpstr (json_object_get_string_member (main_frame, "name"), ==, "main");
  g_assert_cmpint (json_object_get_int_member (main_frame, "line"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (main_frame, "col"), ==, 7);
  profiles = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                           "profiles");
  g_assert_cmpuint (json_array_get_length (profiles), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      static const char *units[] = { "nanoseconds", "bytes", "none" };
      static const char *types[] = { "evented", "sampled", "sampled" };
      JsonObject *p = json_array_get_object_element (profiles, i);

      g_assert_cmpstr (json_object_get_string_member (p, "unit"), ==, units[i]);
      g_assert_cmpstr (json_object_get_string_member (p, "type"), ==, types[i]);
    }
  g_object_unref (round_trip (mixed));
}

/* A sampled profile goes out sampled, its samples in the order they were
 * taken (idle ones left out), and comes back with the same order. */
static void
test_sample_order_round_trip (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data-files", "speedscope",
                                                 "edge-idle.speedscope.json", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *json = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(BlProfile) again = NULL;
  const BlOrderedSample *a, *b;
  gsize n_a, n_b, len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  profile = bl_speedscope_read_memory ((const guint8 *) contents, len, NULL);
  g_assert_nonnull (profile);
  a = bl_profile_get_samples (profile, 0, &n_a);
  g_assert_cmpuint (n_a, ==, 3);
  g_assert_cmpuint (a[0].weight, ==, 5500000);
  g_assert_cmpuint (bl_profile_get_node (profile, a[1].node)->depth, ==, 2);

  json = export (profile);
  g_assert_nonnull (strstr (json, "\"type\":\"sampled\",\"startValue\":0,\"endValue\":15500000,"
                                  "\"samples\":[[0],[0,1],[0,1]],"
                                  "\"weights\":[5500000,6000000,4000000]"));
  again = round_trip (profile);
  b = bl_profile_get_samples (again, 0, &n_b);
  g_assert_cmpuint (n_b, ==, n_a);
  for (gsize i = 0; i < n_a; i++)
    {
      g_autofree char *sa = bl_profile_dup_stack_string (profile, a[i].node, ';');
      g_autofree char *sb = bl_profile_dup_stack_string (again, b[i].node, ';');

      g_assert_cmpstr (sa, ==, sb);
      g_assert_cmpuint (a[i].weight, ==, b[i].weight);
    }
}

/* An evented profile goes out evented: the same spans come back. */
static void
test_time_order_round_trip (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data-files", "speedscope",
                                                 "simple-0.0.1.speedscope.json", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *json = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(BlProfile) again = NULL;
  BlSpanList la, lb;
  const BlSpan *a, *b;
  gsize n_a, n_b;
  guint64 s0, e0, s1, e1;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  profile = bl_speedscope_read_memory ((const guint8 *) contents, len, &error);
  g_assert_no_error (error);
  json = export (profile);
  g_assert_nonnull (strstr (json, "\"type\":\"evented\""));
  again = round_trip (profile);

  bl_profile_get_spans (profile, 0, &la);
  bl_profile_get_spans (again, 0, &lb);
  a = la.spans;
  b = lb.spans;
  n_a = la.n_spans;
  n_b = lb.n_spans;
  g_assert_cmpuint (n_a, ==, n_b);
  for (gsize i = 0; i < n_a; i++)
    {
      g_assert_cmpstr (bl_profile_get_node_name (profile, a[i].node), ==,
                       bl_profile_get_node_name (again, b[i].node));
      g_assert_cmpuint (bl_span_list_get_depth (&la, i), ==, bl_span_list_get_depth (&lb, i));
      g_assert_cmpuint (a[i].start, ==, b[i].start);
      g_assert_cmpuint (bl_span_list_get_end (&la, i), ==, bl_span_list_get_end (&lb, i));
    }
  g_assert_true (bl_profile_get_time_range (profile, 0, &s0, &e0));
  g_assert_true (bl_profile_get_time_range (again, 0, &s1, &e1));
  g_assert_cmpuint (s0, ==, s1);
  g_assert_cmpuint (e0, ==, e1);
}

/* Zero-length spans and a frame entered at the instant its sibling left. */
static void
test_time_order_edges (void)
{
  const char *json =
    "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
    "\"shared\":{\"frames\":[{\"name\":\"p\"},{\"name\":\"q\"}]},\"profiles\":["
    "{\"type\":\"evented\",\"name\":\"t\",\"unit\":\"microseconds\",\"startValue\":5,"
    "\"endValue\":20,\"events\":["
    "{\"type\":\"O\",\"frame\":0,\"at\":5},{\"type\":\"O\",\"frame\":1,\"at\":5},"
    "{\"type\":\"C\",\"frame\":1,\"at\":5},{\"type\":\"O\",\"frame\":1,\"at\":5},"
    "{\"type\":\"O\",\"frame\":0,\"at\":6},{\"type\":\"C\",\"frame\":0,\"at\":6},"
    "{\"type\":\"C\",\"frame\":1,\"at\":9},{\"type\":\"C\",\"frame\":0,\"at\":12}]}]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = bl_speedscope_read_memory ((const guint8 *) json,
                                                            strlen (json), &error);
  g_autoptr(BlProfile) again = NULL;
  BlSpanList la, lb;
  const BlSpan *a, *b;
  gsize n_a, n_b;

  g_assert_no_error (error);
  again = round_trip (profile);
  bl_profile_get_spans (profile, 0, &la);
  bl_profile_get_spans (again, 0, &lb);
  a = la.spans;
  b = lb.spans;
  n_a = la.n_spans;
  n_b = lb.n_spans;
  g_assert_cmpuint (n_a, ==, 4);
  g_assert_cmpuint (n_b, ==, 4);
  for (gsize i = 0; i < n_a; i++)
    {
      g_assert_cmpuint (bl_span_list_get_depth (&la, i), ==, bl_span_list_get_depth (&lb, i));
      g_assert_cmpuint (a[i].start, ==, b[i].start);
      g_assert_cmpuint (bl_span_list_get_end (&la, i), ==, bl_span_list_get_end (&lb, i));
    }
  g_assert_cmpuint (bl_span_list_get_depth (&la, 3), ==, 3);
}

static void
test_other_formats_round_trip (void)
{
  g_autoptr(GBytes) mp = NULL;
  g_autoptr(GBytes) br = NULL;
  g_autoptr(BlProfile) mpatrol = NULL;
  g_autoptr(BlProfile) business = NULL;
  g_autoptr(BlProfile) folded_profile = NULL;
  g_autoptr(BlProfile) a = NULL;
  g_autoptr(BlProfile) b = NULL;
  g_autoptr(BlProfile) c = NULL;
  g_autoptr(GError) error = NULL;
  BlMpatrolWriter *mw = bl_mpatrol_writer_new ();
  BlBrWriter *bw = bl_br_writer_new ();
  guint64 d, site;
  static const char folded_text[] = "x;y 3\nx;y;z 4\nw 1\n";

  d = bl_mpatrol_writer_add_data (mw);
  bl_mpatrol_writer_data_op (mw, d, FALSE, 100);
  site = bl_mpatrol_writer_add_site (mw, 0, 0x10,
                                     bl_mpatrol_writer_add_symbol (mw, "main", 0x10), 0);
  bl_mpatrol_writer_add_site (mw, site, 0x20,
                              bl_mpatrol_writer_add_symbol (mw, "alloc_thing", 0x20), d);
  mp = bl_mpatrol_writer_serialize (mw, &bl_mpatrol_lp64_le);
  bl_mpatrol_writer_free (mw);
  mpatrol = bl_mpatrol_read_memory (g_bytes_get_data (mp, NULL), g_bytes_get_size (mp), &error);
  g_assert_no_error (error);
  a = round_trip (mpatrol);
  g_assert_cmpint (bl_profile_get_default_metric (a), ==, BL_METRIC_ALLOC_BYTES);

  bl_br_writer_module (bw, 1, "MAIN.BR");
  bl_br_writer_line (bw, 1, 10, 0);
  bl_br_writer_function (bw, "FNX");
  bl_br_writer_time (bw, 123);
  bl_br_writer_backtrace (bw, 1, 5, 0);
  bl_br_writer_main (bw);
  bl_br_writer_end_line (bw);
  br = bl_br_writer_finish (bw);
  business = bl_br_read_memory (g_bytes_get_data (br, NULL), g_bytes_get_size (br), &error);
  g_assert_no_error (error);
  b = round_trip (business);
  g_assert_cmpint (bl_profile_get_default_metric (b), ==, BL_METRIC_TIME_NS);

  folded_profile = bl_folded_read_memory ((const guint8 *) folded_text, strlen (folded_text),
                                          &error);
  g_assert_no_error (error);
  c = round_trip (folded_profile);
  g_assert_cmpint (bl_profile_get_default_metric (c), ==, BL_METRIC_SAMPLES);
}

/* The validator must reject what the schema forbids. */
static void
test_validator (void)
{
  static const char *bad[] = {
    "{\"shared\":{\"frames\":[]},\"profiles\":[]}",
    "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
    "\"shared\":{\"frames\":[{\"file\":\"x\"}]},\"profiles\":[]}",
    "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
    "\"shared\":{\"frames\":[]},\"profiles\":[{\"type\":\"sampled\",\"name\":\"a\","
    "\"unit\":\"parsecs\",\"startValue\":0,\"endValue\":1,\"samples\":[],\"weights\":[]}]}",
    "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
    "\"shared\":{\"frames\":[]},\"profiles\":[{\"type\":\"sampled\",\"name\":\"a\","
    "\"unit\":\"none\",\"startValue\":0,\"endValue\":1,\"samples\":[]}]}",
    "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
    "\"shared\":{\"frames\":[]},\"profiles\":[{\"type\":\"sampled\",\"name\":\"a\","
    "\"unit\":\"none\",\"startValue\":0,\"endValue\":1,\"samples\":[[\"x\"]],\"weights\":[1]}]}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GString) why = g_string_new (NULL);

      g_assert_false (validate_text (bad[i], why));
      g_assert_cmpuint (why->len, >, 0);
    }
}

static void
test_empty_profile (void)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("test");
  g_autofree char *json = NULL;

  bl_profile_add_thread (profile, bl_profile_intern (profile, "idle"));
  bl_profile_finish (profile);
  json = export (profile);
  assert_valid (json);
  g_assert_nonnull (strstr (json, "\"samples\":[],\"weights\":[]"));
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  load_schema ();

  g_test_add_func ("/model/speedscope-export/validator", test_validator);
  g_test_add_func ("/model/speedscope-export/bsprof-round-trip", test_bsprof_round_trip);
  g_test_add_func ("/model/speedscope-export/speedscope-round-trip",
                   test_speedscope_samples_round_trip);
  g_test_add_func ("/model/speedscope-export/frames", test_frames_round_trip);
  g_test_add_func ("/model/speedscope-export/sample-order", test_sample_order_round_trip);
  g_test_add_func ("/model/speedscope-export/time-order", test_time_order_round_trip);
  g_test_add_func ("/model/speedscope-export/time-order-edges", test_time_order_edges);
  g_test_add_func ("/model/speedscope-export/other-formats", test_other_formats_round_trip);
  g_test_add_func ("/model/speedscope-export/empty", test_empty_profile);

  ret = g_test_run ();
  g_clear_object (&schema_parser);

  return ret;
}
