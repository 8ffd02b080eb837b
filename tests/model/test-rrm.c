/* test-rrm.c — the Roku Resource Monitor session loader and BlSession
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gstdio.h>
#include <string.h>

#include "bl-model.h"
#include "bl-rrm-writer.h"

static BlSession *
load_bytes (GBytes  *bytes,
            GError **error)
{
  return bl_rrm_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), error);
}

/* Every series of @session is what the writer wrote. */
static void
assert_series_match (BlSession                *session,
                     const BlRrmWriterOptions *o)
{
  for (BlSeriesId id = 0; id < BL_N_SERIES; id++)
    {
      guint n = 0;
      const BlSample *samples = bl_session_get_series (session, id, &n);

      if (!bl_rrm_writer_has_series (o, id))
        {
          g_assert_cmpuint (n, ==, 0);
          continue;
        }

      g_assert_cmpuint (n, ==, o->n_samples);
      for (guint i = 0; i < n; i++)
        {
          gboolean present;
          double value = bl_rrm_writer_expected (o, id, i, &present);

          g_assert_cmpint (samples[i].timestamp_ms, ==, bl_rrm_writer_timestamp (o, id, i));
          if (samples[i].present != present)
            g_error ("%s[%u]: present %d, expected %d", bl_series_get_info (id)->name, i,
                     samples[i].present, present);
          if (present)
            g_assert_cmpfloat (samples[i].value, ==, value);
        }
    }
}

static void
assert_info (BlSession                *session,
             const BlRrmWriterOptions *o)
{
  const BlSessionInfo *info = bl_session_get_info (session);

  g_assert_cmpstr (info->device_name, ==, "Roku Ultra");
  g_assert_cmpstr (info->model_number, ==, "4850X");
  g_assert_cmpstr (info->serial_number, ==, "X00400CS3EMP");
  g_assert_cmpstr (info->software_version, ==, "14.0.4");
  g_assert_cmpint (info->software_build, ==, 4180);
  g_assert_cmpstr (info->channel_id, ==, "dev");
  g_assert_cmpstr (info->channel_name, ==, "Brightlens \"Demo\" Channel");
  g_assert_cmpstr (info->channel_version, ==, "2.3.1");
  g_assert_cmpstr (info->uuid, ==, "cd7cbbeb-c4a7-46dc-ab9f-fdeb90523481");
  g_assert_cmpint (info->started_at_ms, ==, o->start_ms);
  g_assert_cmpint (info->has_foreground_limit, ==, o->with_limits);
  g_assert_cmpint (info->has_background_limit, ==, o->with_limits);
  if (o->with_limits)
    {
      g_assert_cmpint (info->foreground_limit, ==, o->foreground_limit);
      g_assert_cmpint (info->background_limit, ==, o->background_limit);
    }
}

static void
assert_beacons (BlSession                *session,
                const BlRrmWriterOptions *o)
{
  guint n = 0, n_expected = 0, n_intervals = 0;
  const BlBeacon *beacons = bl_session_get_beacons (session, &n);
  const BlRrmBeaconSpec *spec = bl_rrm_writer_get_beacons (o, &n_expected);
  const BlInterval *intervals = bl_session_get_intervals (session, &n_intervals);

  g_assert_cmpuint (n, ==, n_expected);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpstr (beacons[i].name, ==, spec[i].name);
      g_assert_cmpint (beacons[i].timestamp_ms, ==, o->start_ms + spec[i].offset_ms);
    }

  if (n_expected == 0)
    {
      g_assert_cmpuint (n_intervals, ==, 0);
      return;
    }

  /* compile, splash, load (in initiate order), vod_start */
  g_assert_cmpuint (n_intervals, ==, 4);
  g_assert_cmpstr (intervals[0].name, ==, "app_compile");
  g_assert_cmpint (intervals[0].end_ms - intervals[0].start_ms, ==, 440);
  g_assert_cmpstr (intervals[1].name, ==, "app_splash");
  g_assert_cmpint (intervals[1].end_ms - intervals[1].start_ms, ==, 1240);
  g_assert_cmpstr (intervals[2].name, ==, "app_load");
  g_assert_cmpint (intervals[2].end_ms - intervals[2].start_ms, ==, 2050);
  g_assert_cmpstr (intervals[3].name, ==, "vod_start");
  g_assert_cmpint (intervals[3].end_ms - intervals[3].start_ms, ==, 1350);
  g_assert_cmpfloat (bl_session_get_summary (session)->launch_ms, ==, 2550);
}

static void
check_variant (const BlRrmWriterOptions *o)
{
  g_autoptr(GBytes) bytes = bl_rrm_write (o);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlSession) session = load_bytes (bytes, &error);
  g_autoptr(GObject) sniffed = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (session);
  g_assert_false (bl_session_is_incomplete (session));
  assert_info (session, o);
  assert_series_match (session, o);
  assert_beacons (session, o);

  /* recognised by content and loaded the same way through bl-format */
  g_assert_cmpint (bl_format_detect (g_bytes_get_data (bytes, NULL),
                                     MIN (g_bytes_get_size (bytes), BL_FORMAT_SNIFF_SIZE),
                                     g_bytes_get_size (bytes) <= BL_FORMAT_SNIFF_SIZE),
                   ==, BL_FORMAT_RRM);
  sniffed = bl_format_load_bytes (bytes, &error);
  g_assert_no_error (error);
  g_assert_true (BL_IS_SESSION (sniffed));
  assert_series_match (BL_SESSION (sniffed), o);
}

static void
test_layouts (void)
{
  BlRrmWriterOptions o;

  for (guint style = BL_RRM_KEYS_SNAKE; style <= BL_RRM_KEYS_PASCAL; style++)
    for (guint as_array = 0; as_array < 2; as_array++)
      for (guint beacon_key = 0; beacon_key < 3; beacon_key++)
        {
          bl_rrm_writer_options_init (&o);
          o.key_style = style;
          o.session_as_array = as_array;
          o.beacon_name_key = beacon_key;
          o.spaced_drop_count = beacon_key == 1;
          o.stagger = beacon_key != 0;
          o.pretty = as_array;
          o.unknown_members = style % 2 == 1;
          o.n_samples = 25;
          check_variant (&o);
        }
}

static void
test_nulls_and_missing (void)
{
  BlRrmWriterOptions o;

  bl_rrm_writer_options_init (&o);
  o.null_every = 4;
  o.omit_every = 5;
  o.stagger = TRUE;
  o.n_samples = 40;
  check_variant (&o);

  /* arrays left out, old versions */
  bl_rrm_writer_options_init (&o);
  o.omit_arrays = TRUE;
  o.version_major = 2;
  o.version_minor = 0;
  check_variant (&o);

  bl_rrm_writer_options_init (&o);
  o.version_major = 3;
  o.version_minor = 0;
  o.with_beacons = FALSE;
  o.with_limits = FALSE;
  check_variant (&o);
}

static void
test_null_is_a_gap (void)
{
  const char *text =
    "{\"device\": {}, \"session\": {\"live\": {\"channel_cpu_usage\": ["
    "{\"timestamp\": 1000, \"total\": 10}, {\"timestamp\": 2000, \"total\": null},"
    "{\"timestamp\": 3000, \"total\": 30}, null, {\"total\": 5}]}}}";
  g_autoptr(GError) error = NULL;
  g_autoptr(BlSession) session =
    bl_rrm_read_memory ((const guint8 *) text, strlen (text), &error);
  const BlSample *s;
  guint n;
  BlRangeStats stats;

  g_assert_no_error (error);
  s = bl_session_get_series (session, BL_SERIES_CPU_TOTAL, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_true (s[0].present);
  g_assert_false (s[1].present);
  g_assert_true (s[2].present);
  g_assert_cmpfloat (bl_session_get_summary (session)->mean_cpu, ==, 20);
  bl_session_compute_range_stats (session, BL_SERIES_CPU_TOTAL, 0, 5000, &stats);
  g_assert_cmpuint (stats.n, ==, 2);
  g_assert_cmpfloat (stats.min, ==, 10);
  /* user and sys were missing: gaps, not zeros */
  s = bl_session_get_series (session, BL_SERIES_CPU_USER, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_false (s[0].present || s[1].present || s[2].present);
  g_assert_false (bl_session_has_series (session, BL_SERIES_CPU_USER));
  /* the point without a timestamp */
  g_assert_nonnull (bl_session_get_warning (session));
  g_assert_nonnull (strstr (bl_session_get_warning (session), "1 data point without a timestamp"));
  /* no limits in the file: none, not zero */
  g_assert_false (bl_session_get_info (session)->has_foreground_limit);
  g_assert_true (isnan (bl_session_get_summary (session)->peak_foreground_fraction));
}

static void
test_liberal_keys (void)
{
  /* keys in odd forms, drop_ count, session array with live arrays in the entry */
  const char *text =
    "{\"DEVICE\": {\"Device Name\": \"Roku Express\", \"softwareBuild\": \"991\"},"
    " \"Channel\": {\"ID\": 581251, \"Name\": \"App\"},"
    " \"metadata\": {\"version\": 4},"
    " \"session\": [{\"Static\": {\"Foreground Limit\": 1000, \"backgroundLimit\": null}},"
    "  {\"sgrendezvous\": [{\"Timestamp\": 5, \"drop_ count\": 3, \"Total Time\": 1.5,"
    "   \"COUNT\": 2}]},"
    "  {\"live\": {\"bsObjects\": [{\"timestamp\": 5, \"Groups\": ["
    "    {\"Name\": \"main\", \"Id\": \"1\", \"Objects count\": 4, \"Objects memory\": 40,"
    "     \"Objects\": [{\"count\": 4, \"name\": \"roArray\", \"memory\": 40}]},"
    "    {\"name\": \"render\", \"id\": 2, \"objectsCount\": 6, \"objects_memory\": null}]},"
    "   {\"timestamp\": 6, \"groups\": []}, {\"timestamp\": 7}]}}]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(BlSession) session =
    bl_rrm_read_memory ((const guint8 *) text, strlen (text), &error);
  const BlSessionInfo *info;
  const BlSample *s;
  const BlBsGroup *groups;
  guint n;

  g_assert_no_error (error);
  info = bl_session_get_info (session);
  g_assert_cmpstr (info->device_name, ==, "Roku Express");
  g_assert_cmpint (info->software_build, ==, 991);
  g_assert_cmpstr (info->channel_id, ==, "581251");
  g_assert_cmpstr (info->file_version, ==, "4");
  g_assert_true (info->has_foreground_limit);
  g_assert_cmpint (info->foreground_limit, ==, 1000);
  g_assert_false (info->has_background_limit);

  s = bl_session_get_series (session, BL_SERIES_RENDEZVOUS_DROPS, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpfloat (s[0].value, ==, 3);
  s = bl_session_get_series (session, BL_SERIES_RENDEZVOUS_TOTAL_TIME, &n);
  g_assert_cmpfloat (s[0].value, ==, 1.5);

  s = bl_session_get_series (session, BL_SERIES_BS_OBJECTS_COUNT, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpfloat (s[0].value, ==, 10);
  g_assert_true (s[1].present);                /* an empty group list sums to 0 */
  g_assert_cmpfloat (s[1].value, ==, 0);
  g_assert_false (s[2].present);               /* no groups member: a gap */
  s = bl_session_get_series (session, BL_SERIES_BS_OBJECTS_MEMORY, &n);
  g_assert_cmpfloat (s[0].value, ==, 40);      /* the null memory is left out of the sum */

  g_assert_cmpuint (bl_session_get_n_details (session, BL_DETAIL_BS_OBJECTS), ==, 2);
  groups = bl_session_get_bs_groups (session, 0, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (groups[0].name, ==, "main");
  g_assert_cmpuint (groups[0].n_objects, ==, 1);
  g_assert_cmpstr (groups[0].objects[0].name, ==, "roArray");
  g_assert_cmpstr (groups[1].id, ==, "2");
  g_assert_cmpint (groups[1].memory, ==, -1);
}

static void
test_details (void)
{
  BlRrmWriterOptions o;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlSession) session = NULL;
  const BlBitmap *bitmaps;
  const BlNodeType *nodes;
  const BlRendezvousItem *items;
  const BlRegistrySection *sections;
  const BlBsGroup *groups;
  guint n;
  gint point;

  bl_rrm_writer_options_init (&o);
  o.stagger = TRUE;
  o.n_bitmaps = 5;
  o.n_node_types = 20;
  o.null_every = 3;
  bytes = bl_rrm_write (&o);
  session = load_bytes (bytes, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (bl_session_get_n_details (session, BL_DETAIL_BITMAPS), ==, o.n_samples);
  point = bl_session_find_detail (session, BL_DETAIL_BITMAPS, o.start_ms + 10 * 1000 + 150);
  g_assert_cmpint (point, ==, 10);
  g_assert_cmpint (bl_session_get_detail_time (session, BL_DETAIL_BITMAPS, point), ==,
                   o.start_ms + 10 * 1000 + 100);
  /* before the first point: the first */
  g_assert_cmpint (bl_session_find_detail (session, BL_DETAIL_BITMAPS, 0), ==, 0);
  bitmaps = bl_session_get_bitmaps (session, point, &n);
  g_assert_cmpuint (n, ==, 5);
  g_assert_cmpstr (bitmaps[2].name, ==, "pkg:/images/poster_002.png");
  g_assert_cmpint (bitmaps[2].width, ==, 272);
  g_assert_cmpint (bitmaps[2].height, ==, 153);
  g_assert_cmpint (bitmaps[2].size, ==, 272 * 153 * 4);
  /* bpp null where (i + b + 11) % 3 == 0: i = 10, b = 0 */
  g_assert_cmpint (bitmaps[0].bpp, ==, -1);
  g_assert_cmpint (bitmaps[1].bpp, ==, 32);

  nodes = bl_session_get_node_types (session, 0, &n);
  g_assert_cmpuint (n, ==, 20);
  g_assert_cmpstr (nodes[8].name, ==, "ContentNode");
  g_assert_cmpstr (nodes[16].name, ==, "Rectangle1");
  g_assert_cmpint (nodes[3].count, ==, 19);
  g_assert_cmpint (nodes[3].memory, ==, 19 * 200);

  items = bl_session_get_rendezvous_items (session, 10, &n);
  g_assert_cmpuint (n, ==, 5);   /* 2 + 3 in a burst (i % 10 == 0) */
  g_assert_cmpint (items[1].id, ==, 1001);
  g_assert_cmpfloat (items[1].start_ms, ==, 3);
  g_assert_cmpfloat (items[1].end_ms, ==, 4.5);
  g_assert_true (isnan (items[2].end_ms));
  g_assert_cmpint (items[2].line, ==, 42);
  g_assert_cmpstr (items[2].name, ==, "pkg:/components/PlayerView.brs");

  sections = bl_session_get_registry_sections (session, 3, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (sections[0].name, ==, "section0");
  g_assert_cmpuint (sections[0].n_keys, ==, 2);
  g_assert_cmpstr (sections[0].keys[1], ==, "expiry");
  g_assert_cmpuint (sections[1].n_keys, ==, 1);
  g_assert_cmpstr (sections[1].keys[0], ==, "lastChannel");

  groups = bl_session_get_bs_groups (session, 4, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (groups[1].name, ==, "render");
  g_assert_cmpstr (groups[1].id, ==, "2");
  g_assert_cmpuint (groups[1].n_objects, ==, 2);
  g_assert_cmpstr (groups[1].objects[1].name, ==, "roArray");
}

/* Least squares by hand from the writer's formulas. */
static double
expected_slope (const BlRrmWriterOptions *o,
                BlSeriesId                id)
{
  double st = 0, sv = 0, stt = 0, stv = 0;
  guint n = 0;

  for (guint i = 0; i < o->n_samples; i++)
    {
      gboolean present;
      double v = bl_rrm_writer_expected (o, id, i, &present);
      double t = (double) (bl_rrm_writer_timestamp (o, id, i) - o->start_ms) / 60000.0;

      if (!present)
        continue;
      st += t;
      sv += v;
      stt += t * t;
      stv += t * v;
      n++;
    }
  return (n * stv - st * sv) / (n * stt - st * st);
}

static void
test_summary (void)
{
  BlRrmWriterOptions o;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlSession) session = NULL;
  const BlSessionSummary *sum;
  double peak = 0, cpu = 0, fps = 0, min_fps = G_MAXDOUBLE, rv = 0, drops = 0;
  guint n_cpu = 0, n_fps = 0;

  bl_rrm_writer_options_init (&o);
  o.n_samples = 300;
  o.null_every = 7;
  o.leak_bytes_per_min = 1024 * 1024;
  bytes = bl_rrm_write (&o);
  session = load_bytes (bytes, &error);
  g_assert_no_error (error);
  sum = bl_session_get_summary (session);

  for (guint i = 0; i < o.n_samples; i++)
    {
      gboolean present;
      double v;

      v = bl_rrm_writer_expected (&o, BL_SERIES_MEMORY_USED, i, &present);
      if (present)
        peak = MAX (peak, v);
      v = bl_rrm_writer_expected (&o, BL_SERIES_CPU_TOTAL, i, &present);
      if (present)
        {
          cpu += v;
          n_cpu++;
        }
      v = bl_rrm_writer_expected (&o, BL_SERIES_FPS, i, &present);
      if (present)
        {
          fps += v;
          n_fps++;
          min_fps = MIN (min_fps, v);
        }
      v = bl_rrm_writer_expected (&o, BL_SERIES_RENDEZVOUS_COUNT, i, &present);
      if (present)
        rv += v;
      v = bl_rrm_writer_expected (&o, BL_SERIES_RENDEZVOUS_DROPS, i, &present);
      if (present)
        drops += v;
    }

  g_assert_cmpint (sum->start_ms, ==, o.start_ms);
  g_assert_cmpint (sum->end_ms, ==, o.start_ms + (o.n_samples - 1) * 1000);
  g_assert_cmpfloat (sum->peak_memory, ==, peak);
  g_assert_cmpfloat_with_epsilon (sum->peak_foreground_fraction, peak / o.foreground_limit, 1e-12);
  g_assert_cmpfloat_with_epsilon (sum->peak_background_fraction, peak / o.background_limit, 1e-12);
  g_assert_cmpfloat_with_epsilon (sum->mean_cpu, cpu / n_cpu, 1e-9);
  g_assert_cmpfloat_with_epsilon (sum->mean_fps, fps / n_fps, 1e-9);
  g_assert_cmpfloat (sum->min_fps, ==, min_fps);
  g_assert_cmpfloat (sum->rendezvous_count, ==, rv);
  g_assert_cmpfloat (sum->rendezvous_drops, ==, drops);
  g_assert_cmpfloat (sum->launch_ms, ==, 2550);
  g_assert_cmpfloat_with_epsilon (sum->memory_growth_per_min,
                                  expected_slope (&o, BL_SERIES_MEMORY_USED), 1e-3);
  /* about the leak written */
  g_assert_cmpfloat (fabs (sum->memory_growth_per_min - 1024 * 1024), <, 20000);
}

static void
test_range_stats (void)
{
  BlSample samples[] = {
    { 0, 10, TRUE },
    { 60000, 0, FALSE },
    { 120000, 30, TRUE },
    { 180000, 20, TRUE },
    { 240000, 50, TRUE },
  };
  BlRangeStats stats;

  bl_series_compute_stats (samples, G_N_ELEMENTS (samples), 60000, 180000, &stats);
  g_assert_cmpuint (stats.n, ==, 2);
  g_assert_cmpfloat (stats.min, ==, 20);
  g_assert_cmpfloat (stats.max, ==, 30);
  g_assert_cmpfloat (stats.mean, ==, 25);
  g_assert_cmpfloat (stats.start, ==, 30);
  g_assert_cmpfloat (stats.end, ==, 20);
  g_assert_cmpfloat (stats.change, ==, -10);
  g_assert_cmpfloat_with_epsilon (stats.growth_per_min, -10, 1e-9);

  bl_series_compute_stats (samples, G_N_ELEMENTS (samples), 0, 240000, &stats);
  g_assert_cmpuint (stats.n, ==, 4);
  g_assert_cmpfloat (stats.mean, ==, 27.5);
  g_assert_cmpfloat (stats.change, ==, 40);
  /* x = 0, 2, 3, 4 min; y = 10, 30, 20, 50: Sxy = 72.5, Sxx = 8.75 */
  g_assert_cmpfloat_with_epsilon (stats.growth_per_min, 72.5 / 8.75, 1e-9);

  bl_series_compute_stats (samples, G_N_ELEMENTS (samples), 50000, 70000, &stats);
  g_assert_cmpuint (stats.n, ==, 0);
  g_assert_true (isnan (stats.mean) && isnan (stats.growth_per_min));

  bl_series_compute_stats (samples, G_N_ELEMENTS (samples), 120000, 120000, &stats);
  g_assert_cmpuint (stats.n, ==, 1);
  g_assert_true (isnan (stats.growth_per_min));

  g_assert_cmpint (bl_series_find_nearest (samples, G_N_ELEMENTS (samples), 55000), ==, 0);
  g_assert_cmpint (bl_series_find_nearest (samples, G_N_ELEMENTS (samples), 95000), ==, 2);
  g_assert_cmpint (bl_series_find_nearest (samples, G_N_ELEMENTS (samples), 999999), ==, 4);
  g_assert_cmpint (bl_series_find_nearest (samples, G_N_ELEMENTS (samples), -5), ==, 0);
  g_assert_cmpint (bl_series_find_nearest (samples, 0, 5), ==, -1);
}

static void
assert_load_error (const char *text,
                   gint        code,
                   const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlSession) session =
    bl_rrm_read_memory ((const guint8 *) text, strlen (text), &error);

  g_assert_null (session);
  g_assert_error (error, BL_RRM_ERROR, code);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_errors (void)
{
  assert_load_error ("{\"session\": {\"live\": {\"channel_cpu_usage\": 5}}}",
                     BL_RRM_ERROR_TYPE,
                     "Expected an array or null at line 1, column 44 "
                     "($.session.live.channel_cpu_usage), but found a number.");
  assert_load_error ("{\"session\": {\"live\": {\"channel_cpu_usage\": [\n"
                     "  {\"timestamp\": 1, \"total\": \"12\"}]}}}",
                     BL_RRM_ERROR_TYPE,
                     "Expected a number or null at line 2, column 29 "
                     "($.session.live.channel_cpu_usage[0].total), but found a string.");
  assert_load_error ("{\"session\": {\"live\": {\"fw_beacons\": [\"app_load\"]}}}",
                     BL_RRM_ERROR_TYPE,
                     "Expected an object or null at line 1, column 38 "
                     "($.session.live.fw_beacons[0]), but found a string.");
  assert_load_error ("{\"device\": [], \"session\": {}}",
                     BL_RRM_ERROR_TYPE,
                     "Expected an object or null at line 1, column 12 ($.device), "
                     "but found an array.");
  assert_load_error ("{\"session\": {\"static\": {\"foreground_limit\": true}}}",
                     BL_RRM_ERROR_TYPE,
                     "Expected a number or null at line 1, column 45 "
                     "($.session.static.foreground_limit), but found a boolean.");
  assert_load_error ("{\"session\": 3}", BL_RRM_ERROR_TYPE,
                     "Expected an object, an array or null at line 1, column 13 ($.session), "
                     "but found a number.");
  assert_load_error ("{\"session\": {\"live\": {\"channel_cpu_usage\": [\n"
                     "  {\"timestamp\": 1,, \"total\": 2}]}}}",
                     BL_RRM_ERROR_SYNTAX,
                     "Invalid JSON at line 2, column 19 ($.session.live.channel_cpu_usage[0]"
                     ".timestamp): expected a member name but found “,”.");
  assert_load_error ("[{\"session\": {}}]", BL_RRM_ERROR_NOT_SESSION,
                     "This JSON is not a Roku Resource Monitor session: the top level is an "
                     "array, not an object.");
}

static void
test_truncated (void)
{
  BlRrmWriterOptions o;
  g_autoptr(GBytes) bytes = NULL;
  gsize len;
  const guint8 *data;
  guint n_full;
  gboolean seen_session = FALSE;

  bl_rrm_writer_options_init (&o);
  o.n_samples = 6;
  o.pretty = TRUE;
  o.null_every = 4;
  bytes = bl_rrm_write (&o);
  data = g_bytes_get_data (bytes, &len);

  {
    g_autoptr(BlSession) full = bl_rrm_read_memory (data, len, NULL);

    bl_session_get_series (full, BL_SERIES_MEMORY_USED, &n_full);
  }

  /* every prefix: an incomplete session that kept its complete points, or
   * before the first complete point, an error that says so */
  for (gsize cut = 1; cut < len - 1; cut++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlSession) session = bl_rrm_read_memory (data, cut, &error);
      guint n;

      if (session == NULL)
        {
          g_assert_error (error, BL_RRM_ERROR, BL_RRM_ERROR_EMPTY);
          g_assert_true (g_str_has_prefix (error->message, "The JSON ends early"));
          g_assert_true (g_str_has_suffix (error->message,
                                           ", before the session’s first data point."));
          g_assert_null (strchr (error->message, '\n'));
          /* only prefixes before the first complete point */
          g_assert_false (seen_session);
          continue;
        }
      seen_session = TRUE;
      g_assert_no_error (error);
      g_assert_true (bl_session_is_incomplete (session));
      g_assert_nonnull (strstr (bl_session_get_incomplete_reason (session), "The JSON ends early"));
      bl_session_get_series (session, BL_SERIES_MEMORY_USED, &n);
      g_assert_cmpuint (n, <=, n_full);
    }

  /* the memory array is complete well before the end */
  {
    const char *cpu = g_strstr_len ((const char *) data, len, "\"channel_cpu_usage\"");
    g_autoptr(BlSession) session =
      bl_rrm_read_memory (data, cpu - (const char *) data + 10, NULL);
    guint n;

    bl_session_get_series (session, BL_SERIES_MEMORY_USED, &n);
    g_assert_cmpuint (n, ==, n_full);
    assert_info (session, &o);
  }
}

static void
test_bit_flips (void)
{
  BlRrmWriterOptions o;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (4);
  gsize len;
  const guint8 *data;

  bl_rrm_writer_options_init (&o);
  o.n_samples = 5;
  bytes = bl_rrm_write (&o);
  data = g_bytes_get_data (bytes, &len);

  for (guint round = 0; round < 3000; round++)
    {
      g_autofree guint8 *copy = g_memdup2 (data, len);
      g_autoptr(GError) error = NULL;
      g_autoptr(BlSession) session = NULL;
      gsize at = g_rand_int_range (rand, 0, len);

      copy[at] ^= 1 << g_rand_int_range (rand, 0, 8);
      if (round % 3 == 0)
        copy[g_rand_int_range (rand, 0, len)] = "{}[]\",:0n\\"[g_rand_int_range (rand, 0, 10)];
      session = bl_rrm_read_memory (copy, len, &error);
      if (session == NULL)
        g_assert_true (error != NULL && error->domain == BL_RRM_ERROR);
      else
        g_assert_no_error (error);
    }
}

static void
test_detect (void)
{
  const char *yes[] = {
    "{\"device\": {}, \"channel\": {}}",
    "\xef\xbb\xbf  \n{\"session\": []}",
    "{\"Device\": {\"name\": \"x\"}, \"Metadata\": {}, \"session\": {",
    "{\"device\": {\"device_name\": \"Roku\"}, \"channel\": {\"id\": \"dev\", \"na",
  };
  const char *no[] = {
    "{\"$schema\": \"https://www.speedscope.app/file-format-schema.json\", \"shared\": {}}",
    "{\"metadata\": {\"version\": 1}, \"frames\": []}",
    "[{\"session\": {}}]",
    "{\"device\": {\"device_name\": \"Roku\"",
    "main;load 12\n",
    "",
  };

  for (guint i = 0; i < G_N_ELEMENTS (yes); i++)
    g_assert_true (bl_rrm_detect ((const guint8 *) yes[i], strlen (yes[i])));
  for (guint i = 0; i < G_N_ELEMENTS (no); i++)
    g_assert_false (bl_rrm_detect ((const guint8 *) no[i], strlen (no[i])));
}

static void
test_file_and_progress (void)
{
  BlRrmWriterOptions o;
  g_autofree char *dir = g_dir_make_tmp ("bl-rrm-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "session.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) loaded = NULL;

  bl_rrm_writer_options_init (&o);
  o.n_samples = 2000;
  o.n_bitmaps = 20;
  g_assert_true (bl_rrm_write_to_file (&o, path, &error));
  g_assert_no_error (error);

  loaded = bl_format_load_file (file, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (BL_IS_SESSION (loaded));
  assert_series_match (BL_SESSION (loaded), &o);

  g_unlink (path);
  g_rmdir (dir);
}

static void
test_csv (void)
{
  BlRrmWriterOptions o;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlSession) session = NULL;
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autofree char *csv = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) cells = NULL;
  GString *nul = g_string_new (NULL);

  bl_rrm_writer_options_init (&o);
  o.stagger = TRUE;
  o.null_every = 5;
  o.n_samples = 10;
  bytes = bl_rrm_write (&o);
  session = load_bytes (bytes, &error);
  g_assert_no_error (error);

  g_assert_true (bl_session_write_csv (session, out, NULL, &error));
  g_assert_no_error (error);
  g_output_stream_write_all (out, "", 1, NULL, NULL, NULL);
  g_output_stream_close (out, NULL, NULL);
  csv = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
  lines = g_strsplit (csv, "\n", -1);

  g_assert_cmpstr (lines[0], ==,
                   "timestamp_ms,memory_used,memory_resident,memory_swap,memory_anon,"
                   "memory_file,memory_shared,cpu_total,cpu_user,cpu_sys,graphics_texture,"
                   "graphics_system,nodes_total,nodes_memory,fps,rendezvous_count,"
                   "rendezvous_total_time,rendezvous_drops,registry_used,bs_objects_count,"
                   "bs_objects_memory");
  /* staggered offsets 0, 100, 250, 500, 750: five rows per second */
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 5 * 10 + 1);
  g_assert_cmpstr (lines[51], ==, "");

  /* second 3, offset 0: memory, cpu, registry; (3 + id) % 5 == 0 is null */
  cells = g_strsplit (lines[1 + 3 * 5], ",", -1);
  g_assert_cmpuint (g_strv_length (cells), ==, 21);
  g_assert_cmpstr (cells[0], ==, "1700000003000");
  for (BlSeriesId id = 0; id < BL_N_SERIES; id++)
    {
      gboolean present;
      double v = bl_rrm_writer_expected (&o, id, 3, &present);
      GString *expect = g_string_new (NULL);

      if (bl_rrm_writer_timestamp (&o, id, 3) == o.start_ms + 3000 && present)
        bl_session_append_number (expect, v);
      g_assert_cmpstr (cells[1 + id], ==, expect->str);
      g_string_free (expect, TRUE);
    }
  /* integers as integers, decimals as written */
  g_assert_null (strchr (cells[1], '.'));
  g_assert_null (strchr (cells[1], 'e'));

  g_string_free (nul, TRUE);
}

static void
test_number_format (void)
{
  struct { double v; const char *s; } cases[] = {
    { 0, "0" }, { -3, "-3" }, { 123456789012, "123456789012" }, { 12.34, "12.34" },
    { 0.1, "0.1" }, { 1.0 / 3, "0.33333333333333331" }, { -2.5, "-2.5" }, { 1e20, "1e+20" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GString *s = g_string_new (NULL);

      bl_session_append_number (s, cases[i].v);
      g_assert_cmpstr (s->str, ==, cases[i].s);
      g_string_free (s, TRUE);
    }
}

/* data/samples/roku-dev-session.json, made by tests/writers/make-rrm-sample */
static void
test_sample (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples",
                                                 "roku-dev-session.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) loaded = bl_format_load_file (file, NULL, NULL, NULL, &error);
  BlSession *session;
  const BlSessionSummary *sum;
  const BlInterval *intervals;
  BlRangeStats stats;
  guint n;

  g_assert_no_error (error);
  g_assert_true (BL_IS_SESSION (loaded));
  session = BL_SESSION (loaded);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, 0, NULL, NULL);
  g_assert_cmpint (g_file_info_get_size (info), <, 2 * 1024 * 1024);
  g_assert_false (bl_session_is_incomplete (session));
  g_assert_null (bl_session_get_warning (session));
  sum = bl_session_get_summary (session);

  /* a launch with its beacons, then a video start */
  g_assert_cmpfloat (sum->launch_ms, ==, 2550);
  intervals = bl_session_get_intervals (session, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpstr (intervals[3].name, ==, "vod_start");
  g_assert_cmpint (intervals[3].start_ms - sum->start_ms, ==, 60000);

  /* a slow leak after playback settles: about 3 MiB a minute */
  bl_session_compute_range_stats (session, BL_SERIES_MEMORY_USED,
                                  intervals[3].end_ms + 1000, sum->end_ms, &stats);
  g_assert_cmpfloat (stats.growth_per_min, >, 2.5 * 1024 * 1024);
  g_assert_cmpfloat (stats.growth_per_min, <, 3.5 * 1024 * 1024);
  g_assert_cmpfloat (sum->peak_foreground_fraction, <, 0.75);

  /* rendezvous bursts, with frame-rate dips */
  bl_session_compute_range_stats (session, BL_SERIES_RENDEZVOUS_COUNT, G_MININT64, G_MAXINT64,
                                  &stats);
  g_assert_cmpfloat (stats.max, >=, 40);
  g_assert_cmpfloat (stats.min, <, 3);
  g_assert_cmpfloat (sum->min_fps, <, 45);
  g_assert_cmpfloat (sum->mean_fps, >, 55);

  /* details for every sample */
  g_assert_cmpuint (bl_session_get_n_details (session, BL_DETAIL_BITMAPS), ==, 360);
  g_assert_cmpuint (bl_session_get_n_details (session, BL_DETAIL_NODES), ==, 360);
  g_assert_cmpuint (bl_session_get_n_details (session, BL_DETAIL_BS_OBJECTS), ==, 360);
}

/* #14.17: a fragment without a data point is an error, not a session of 1970 */
static void
test_empty (void)
{
  const char *fragments[] = {
    "{\"device\": {}, \"channel\": ",
    "{\"device\": {}, \"channel\": {}, \"session\": {\"live\": {\"memory_usage\": [",
    "{\"device\": {}, \"channel\": {}, \"session\": {}}",
    "{\"device\": {}, \"channel\": {}, \"session\": {\"live\": "
    "{\"memory_usage\": [{\"used\": 5}]}}}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (fragments); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlSession) session =
        bl_rrm_read_memory ((const guint8 *) fragments[i], strlen (fragments[i]), &error);

      g_assert_null (session);
      g_assert_error (error, BL_RRM_ERROR, BL_RRM_ERROR_EMPTY);
      /* one sentence */
      g_assert_true (g_str_has_suffix (error->message, "."));
      g_assert_null (strstr (error->message, ". "));
      g_assert_null (strchr (error->message, '\n'));
    }

  /* one beacon is something to show */
  {
    const char *beacon = "{\"device\": {}, \"session\": {\"live\": {\"fw_beacons\": "
                         "[{\"name\": \"app_launch\", \"timestamp\": 1700000000000}]}}}";
    g_autoptr(GError) error = NULL;
    g_autoptr(BlSession) session =
      bl_rrm_read_memory ((const guint8 *) beacon, strlen (beacon), &error);

    g_assert_no_error (error);
    g_assert_nonnull (session);
  }
}

static BlSession *
read_memory_points (const char  *last_timestamp,
                    GError     **error)
{
  g_autoptr(GString) json = g_string_new ("{\"device\": {}, \"channel\": {}, \"session\": "
                                          "{\"live\": {\"memory_usage\": [");

  for (guint i = 0; i < 10; i++)
    g_string_append_printf (json, "{\"timestamp\": %" G_GINT64_FORMAT ", \"used\": %u}, ",
                            G_GINT64_CONSTANT (1700000000000) + i * 1000, (i + 1) * 1000);
  g_string_append_printf (json, "{\"timestamp\": %s, \"used\": 99}], "
                          "\"fw_beacons\": [{\"name\": \"x\", \"timestamp\": %s}]}}}",
                          last_timestamp, last_timestamp);
  return bl_rrm_read_memory ((const guint8 *) json->str, json->len, error);
}

/* #15.6, #15.11: absurd and outlying timestamps are dropped with a warning;
 * the session keeps its real span */
static void
test_absurd_timestamps (void)
{
  g_autofree char *digits = g_strnfill (5000, '7');
  const char *absurd[] = {
    "9223372036854775807", "9223372036854775808", "-9223372036854775808", "1e400", "-1e400",
    digits, "0", "1", "1690000000000", "253402300800000",
  };

  for (guint i = 0; i < G_N_ELEMENTS (absurd); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlSession) session = read_memory_points (absurd[i], &error);
      const BlSessionSummary *sum;
      const BlSample *samples;
      guint n, n_beacons;

      g_assert_no_error (error);
      sum = bl_session_get_summary (session);
      g_assert_cmpint (sum->start_ms, ==, G_GINT64_CONSTANT (1700000000000));
      g_assert_cmpint (sum->end_ms, ==, G_GINT64_CONSTANT (1700000009000));
      samples = bl_session_get_series (session, BL_SERIES_MEMORY_USED, &n);
      g_assert_cmpuint (n, ==, 10);
      g_assert_cmpfloat (samples[9].value, ==, 10000);
      bl_session_get_beacons (session, &n_beacons);
      g_assert_cmpuint (n_beacons, ==, 0);
      g_assert_nonnull (bl_session_get_warning (session));
      g_assert_nonnull (strstr (bl_session_get_warning (session),
                                "The data at 1 timestamp was dropped"));
    }

  /* a timestamp within a day of the others is data */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(BlSession) session = read_memory_points ("1700080000000", &error);

    g_assert_no_error (error);
    g_assert_cmpint (bl_session_get_summary (session)->end_ms, ==,
                     G_GINT64_CONSTANT (1700080000000));
    g_assert_null (bl_session_get_warning (session));
  }

  /* nothing but absurd times: nothing to show */
  {
    const char *json = "{\"device\": {}, \"session\": {\"live\": {\"memory_usage\": "
                       "[{\"timestamp\": 1e400, \"used\": 1}]}}}";
    g_autoptr(GError) error = NULL;
    g_autoptr(BlSession) session =
      bl_rrm_read_memory ((const guint8 *) json, strlen (json), &error);

    g_assert_null (session);
    g_assert_error (error, BL_RRM_ERROR, BL_RRM_ERROR_EMPTY);
    g_assert_nonnull (strstr (error->message, "years 1 to 9999"));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/rrm/layouts", test_layouts);
  g_test_add_func ("/model/rrm/nulls-and-missing", test_nulls_and_missing);
  g_test_add_func ("/model/rrm/null-is-a-gap", test_null_is_a_gap);
  g_test_add_func ("/model/rrm/liberal-keys", test_liberal_keys);
  g_test_add_func ("/model/rrm/details", test_details);
  g_test_add_func ("/model/rrm/summary", test_summary);
  g_test_add_func ("/model/rrm/range-stats", test_range_stats);
  g_test_add_func ("/model/rrm/errors", test_errors);
  g_test_add_func ("/model/rrm/truncated", test_truncated);
  g_test_add_func ("/model/rrm/bit-flips", test_bit_flips);
  g_test_add_func ("/model/rrm/detect", test_detect);
  g_test_add_func ("/model/rrm/file", test_file_and_progress);
  g_test_add_func ("/model/rrm/csv", test_csv);
  g_test_add_func ("/model/rrm/number-format", test_number_format);
  g_test_add_func ("/model/rrm/sample", test_sample);
  g_test_add_func ("/model/rrm/empty", test_empty);
  g_test_add_func ("/model/rrm/absurd-timestamps", test_absurd_timestamps);

  return g_test_run ();
}
