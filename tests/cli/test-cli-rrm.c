/* test-cli-rrm.c — brightlens-cli info, export --format csv and check on
 * Roku Resource Monitor sessions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "bl-rrm-writer.h"
#include "bl-cli-run.h"

#define CSV_HEADER \
  "timestamp_ms,memory_used,memory_resident,memory_swap,memory_anon,memory_file," \
  "memory_shared,cpu_total,cpu_user,cpu_sys,graphics_texture,graphics_system,nodes_total," \
  "nodes_memory,fps,rendezvous_count,rendezvous_total_time,rendezvous_drops,registry_used," \
  "bs_objects_count,bs_objects_memory"

static char *tmpdir;

static char *
write_session (const char               *name,
               const BlRrmWriterOptions *o)
{
  char *path = g_build_filename (tmpdir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (bl_rrm_write_to_file (o, path, &error));
  g_assert_no_error (error);
  return path;
}

static char *
write_text (const char *name,
            const char *text)
{
  char *path = g_build_filename (tmpdir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_no_error (error);
  return path;
}

/* ---- CSV compared cell by cell with the writer's formulas --------------- */

static gint
compare_times (gconstpointer a,
               gconstpointer b)
{
  gint64 ta = *(const gint64 *) a, tb = *(const gint64 *) b;

  return ta < tb ? -1 : ta > tb;
}

static void
assert_csv_matches (const char               *csv,
                    const BlRrmWriterOptions *o)
{
  g_auto(GStrv) lines = g_strsplit (csv, "\n", -1);
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint n_lines = g_strv_length (lines);

  /* the distinct timestamps of every series written */
  for (BlSeriesId id = 0; id < BL_N_SERIES; id++)
    if (bl_rrm_writer_has_series (o, id))
      for (guint i = 0; i < o->n_samples; i++)
        {
          gint64 t = bl_rrm_writer_timestamp (o, id, i);
          gboolean seen = FALSE;

          for (guint k = 0; k < times->len && !seen; k++)
            seen = g_array_index (times, gint64, k) == t;
          if (!seen)
            g_array_append_val (times, t);
        }
  g_array_sort (times, compare_times);

  g_assert_cmpstr (lines[0], ==, CSV_HEADER);
  g_assert_cmpuint (n_lines, ==, times->len + 2);
  g_assert_cmpstr (lines[n_lines - 1], ==, "");

  for (guint r = 0; r < times->len; r++)
    {
      g_auto(GStrv) cells = g_strsplit (lines[r + 1], ",", -1);
      gint64 t = g_array_index (times, gint64, r);

      g_assert_cmpuint (g_strv_length (cells), ==, 1 + BL_N_SERIES);
      g_assert_cmpint (g_ascii_strtoll (cells[0], NULL, 10), ==, t);

      for (BlSeriesId id = 0; id < BL_N_SERIES; id++)
        {
          const char *cell = cells[1 + id];
          gboolean present = FALSE;
          double value = 0;

          if (bl_rrm_writer_has_series (o, id))
            for (guint i = 0; i < o->n_samples; i++)
              if (bl_rrm_writer_timestamp (o, id, i) == t)
                value = bl_rrm_writer_expected (o, id, i, &present);

          if (!present)
            {
              if (*cell != '\0')
                g_error ("row %u (%" G_GINT64_FORMAT ") %s: expected an empty cell, got %s",
                         r, t, bl_series_get_info (id)->name, cell);
              continue;
            }
          if (g_ascii_strtod (cell, NULL) != value)
            g_error ("row %u (%" G_GINT64_FORMAT ") %s: expected %.17g, got %s",
                     r, t, bl_series_get_info (id)->name, value, cell);
          /* integers as integers */
          if (value == floor (value))
            g_assert_null (strpbrk (cell, ".eE"));
        }
    }
}

static void
check_csv_variant (const BlRrmWriterOptions *o,
                   const char               *name)
{
  g_autofree char *path = write_session (name, o);
  g_autofree char *out_path = g_strconcat (path, ".csv", NULL);
  g_autofree char *written = NULL;
  g_auto(BlCliRun) run = { 0 };
  g_auto(BlCliRun) to_file = { 0 };

  bl_cli_run (&run, "export", path, "--format", "csv", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.err, ==, "");
  assert_csv_matches (run.out, o);

  bl_cli_run (&to_file, "export", path, "--format", "csv", "-o", out_path, NULL);
  g_assert_cmpint (to_file.status, ==, 0);
  g_assert_true (g_file_get_contents (out_path, &written, NULL, NULL));
  g_assert_cmpstr (written, ==, run.out);
}

static void
test_csv_layouts (void)
{
  BlRrmWriterOptions o;

  bl_rrm_writer_options_init (&o);
  o.n_samples = 12;
  check_csv_variant (&o, "plain.json");

  bl_rrm_writer_options_init (&o);
  o.n_samples = 12;
  o.stagger = TRUE;
  o.null_every = 3;
  o.omit_every = 4;
  o.key_style = BL_RRM_KEYS_SPACED;
  o.spaced_drop_count = TRUE;
  o.session_as_array = TRUE;
  o.pretty = TRUE;
  check_csv_variant (&o, "spaced-array-nulls.json");

  bl_rrm_writer_options_init (&o);
  o.n_samples = 12;
  o.stagger = TRUE;
  o.key_style = BL_RRM_KEYS_CAMEL;
  o.unknown_members = TRUE;
  o.beacon_name_key = 2;
  check_csv_variant (&o, "camel-unknown.json");

  bl_rrm_writer_options_init (&o);
  o.n_samples = 12;
  o.key_style = BL_RRM_KEYS_PASCAL;
  o.version_major = 2;
  o.version_minor = 0;
  o.omit_arrays = TRUE;
  o.null_every = 2;
  check_csv_variant (&o, "old-missing.json");

  bl_rrm_writer_options_init (&o);
  o.n_samples = 30;
  o.scenario = BL_RRM_SCENARIO_REALISTIC;
  o.stagger = TRUE;
  o.n_bs_groups = 0;
  check_csv_variant (&o, "realistic-no-groups.json");
}

static void
test_csv_errors (void)
{
  g_autofree char *folded = write_text ("stacks.folded", "main;load 12\nmain;draw 3\n");
  g_autofree char *broken = write_text ("broken.json",
                                        "{\"device\": {}, \"session\": {\"live\": {\n"
                                        "  \"channel_cpu_usage\": [{\"timestamp\": 1,}]}}}");
  g_autofree char *session_path = NULL;
  BlRrmWriterOptions o;
  g_auto(BlCliRun) run = { 0 };
  g_auto(BlCliRun) run2 = { 0 };
  g_auto(BlCliRun) run3 = { 0 };
  g_auto(BlCliRun) run4 = { 0 };

  bl_cli_run (&run, "export", folded, "--format", "csv", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "a CSV can only be made from a Roku Resource Monitor "
                                     "session"));
  g_assert_cmpstr (run.out, ==, "");

  bl_cli_run (&run2, "export", broken, "--format", "csv", NULL);
  g_assert_cmpint (run2.status, ==, 1);
  g_assert_nonnull (strstr (run2.err, "line 2, column 41"));
  g_assert_nonnull (strstr (run2.err, "$.session.live.channel_cpu_usage[0]"));
  g_assert_cmpuint (strlen (run2.err), ==, strchr (run2.err, '\n') - run2.err + 1);

  bl_rrm_writer_options_init (&o);
  o.n_samples = 3;
  session_path = write_session ("for-folded.json", &o);
  bl_cli_run (&run3, "export", session_path, "--format", "folded", NULL);
  g_assert_cmpint (run3.status, ==, 1);
  bl_cli_run (&run4, "export", session_path, "--format", "xml", NULL);
  g_assert_cmpint (run4.status, ==, 2);
}

/* ---- info ---------------------------------------------------------------- */

static void
test_info (void)
{
  BlRrmWriterOptions o;
  g_autofree char *path = NULL;
  g_autofree char *no_limits = NULL;
  g_auto(BlCliRun) text = { 0 };
  g_auto(BlCliRun) json = { 0 };
  g_auto(BlCliRun) json2 = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  double peak = 0;

  bl_rrm_writer_options_init (&o);
  o.n_samples = 120;
  path = write_session ("info.json", &o);
  for (guint i = 0; i < o.n_samples; i++)
    {
      gboolean present;
      double v = bl_rrm_writer_expected (&o, BL_SERIES_MEMORY_USED, i, &present);

      if (present)
        peak = MAX (peak, v);
    }

  bl_cli_run (&text, "info", path, NULL);
  g_assert_cmpint (text.status, ==, 0);
  g_assert_nonnull (strstr (text.out, "Roku Resource Monitor session 4.1"));
  g_assert_nonnull (strstr (text.out, "Roku Ultra 4850X"));
  g_assert_nonnull (strstr (text.out, "Launch time:  2550 ms"));
  g_assert_nonnull (strstr (text.out, "Duration:     1:59"));
  g_assert_nonnull (strstr (text.out, "vod_start"));

  bl_cli_run (&json, "info", path, "--json", NULL);
  g_assert_cmpint (json.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, json.out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "rrm");
  g_assert_cmpint (json_object_get_int_member (root, "launch_ms"), ==, 2550);
  g_assert_cmpint (json_object_get_int_member (root, "peak_memory"), ==, (gint64) peak);
  g_assert_cmpint (json_object_get_int_member (root, "foreground_limit"), ==,
                   o.foreground_limit);
  g_assert_cmpint (json_object_get_int_member (root, "duration_ms"), ==, 119000);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "beacons")),
                    ==, 8);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "intervals")),
                    ==, 4);
  g_assert_false (json_object_get_boolean_member (root, "incomplete"));

  /* no limits: null, not 0 */
  o.with_limits = FALSE;
  no_limits = write_session ("no-limits.json", &o);
  bl_cli_run (&json2, "info", no_limits, "--json", NULL);
  g_assert_cmpint (json2.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, json2.out, -1, &error));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (json_object_get_null_member (root, "foreground_limit"));
  g_assert_true (json_object_get_null_member (root, "peak_foreground_fraction"));
}

/* ---- check ----------------------------------------------------------------- */

static void
test_check (void)
{
  BlRrmWriterOptions o;
  g_autofree char *good = NULL;
  g_autofree char *bad = NULL;
  g_autofree char *bare = NULL;
  g_auto(BlCliRun) pass = { 0 };
  g_auto(BlCliRun) fail = { 0 };
  g_auto(BlCliRun) nodata = { 0 };
  g_auto(BlCliRun) each = { 0 };

  /* a healthy session: small leak, 45.5 fps at worst, 2550 ms launch */
  bl_rrm_writer_options_init (&o);
  o.n_samples = 120;
  o.leak_bytes_per_min = 64 * 1024;
  good = write_session ("good.json", &o);
  bl_cli_run (&pass, "check", good, "--max-foreground-fraction", "0.75",
           "--max-memory-growth", "131072", "--min-fps", "30", "--max-launch-ms", "3000", NULL);
  g_assert_cmpint (pass.status, ==, 0);
  g_assert_nonnull (strstr (pass.out, "max-foreground-fraction: 0.15"));
  g_assert_nonnull (strstr (pass.out, "(limit 0.75) PASS\n"));
  g_assert_nonnull (strstr (pass.out, "min-fps: 45.5 fps (limit 30 fps) PASS\n"));
  g_assert_nonnull (strstr (pass.out, "max-launch-ms: 2550 ms (limit 3000 ms) PASS\n"));
  g_assert_nonnull (strstr (pass.out, "PASS: 4 of 4 rules passed\n"));

  /* the same session against tighter limits: every rule fails */
  bl_rrm_writer_options_init (&o);
  o.n_samples = 120;
  o.leak_bytes_per_min = 4 * 1024 * 1024;
  o.foreground_limit = 100 * 1024 * 1024;
  bad = write_session ("bad.json", &o);
  bl_cli_run (&fail, "check", bad, "--max-foreground-fraction", "0.75",
           "--max-memory-growth", "1048576", "--min-fps", "50", "--max-launch-ms", "2000", NULL);
  g_assert_cmpint (fail.status, ==, 3);
  g_assert_nonnull (strstr (fail.out, "(limit 0.75) FAIL\n"));
  g_assert_nonnull (strstr (fail.out, "(limit 1048576 B/min) FAIL\n"));
  g_assert_nonnull (strstr (fail.out, "min-fps: 45.5 fps (limit 50 fps) FAIL\n"));
  g_assert_nonnull (strstr (fail.out, "max-launch-ms: 2550 ms (limit 2000 ms) FAIL\n"));
  g_assert_nonnull (strstr (fail.out, "FAIL: 4 of 4 rules failed\n"));

  /* one violation among passing rules still fails */
  bl_cli_run (&each, "check", bad, "--max-launch-ms", "3000", "--min-fps", "50", NULL);
  g_assert_cmpint (each.status, ==, 3);
  g_assert_nonnull (strstr (each.out, "max-launch-ms: 2550 ms (limit 3000 ms) PASS\n"));
  g_assert_nonnull (strstr (each.out, "FAIL: 1 of 2 rules failed\n"));

  /* no limit and no beacons: those rules cannot pass */
  bl_rrm_writer_options_init (&o);
  o.n_samples = 10;
  o.with_limits = FALSE;
  o.with_beacons = FALSE;
  bare = write_session ("bare.json", &o);
  bl_cli_run (&nodata, "check", bare, "--max-foreground-fraction", "0.75", "--max-launch-ms",
           "3000", NULL);
  g_assert_cmpint (nodata.status, ==, 3);
  g_assert_nonnull (strstr (nodata.out, "max-foreground-fraction: no data (limit 0.75) FAIL\n"));
  g_assert_nonnull (strstr (nodata.out, "max-launch-ms: no data (limit 3000 ms) FAIL\n"));
}

static void
test_check_usage (void)
{
  BlRrmWriterOptions o;
  g_autofree char *path = NULL;
  g_autofree char *folded = write_text ("check.folded", "main;load 12\n");
  g_auto(BlCliRun) none = { 0 };
  g_auto(BlCliRun) two = { 0 };
  g_auto(BlCliRun) bogus = { 0 };
  g_auto(BlCliRun) missing = { 0 };
  g_auto(BlCliRun) profile = { 0 };
  g_auto(BlCliRun) negative = { 0 };

  bl_rrm_writer_options_init (&o);
  o.n_samples = 5;
  path = write_session ("usage.json", &o);

  bl_cli_run (&none, "check", path, NULL);
  g_assert_cmpint (none.status, ==, 2);
  bl_cli_run (&two, "check", path, path, "--min-fps", "1", NULL);
  g_assert_cmpint (two.status, ==, 2);
  bl_cli_run (&bogus, "check", path, "--max-cpu", "1", NULL);
  g_assert_cmpint (bogus.status, ==, 2);
  bl_cli_run (&negative, "check", path, "--max-foreground-fraction", "-1", NULL);
  g_assert_cmpint (negative.status, ==, 2);
  bl_cli_run (&missing, "check", "/nonexistent/session.json", "--min-fps", "1", NULL);
  g_assert_cmpint (missing.status, ==, 1);
  bl_cli_run (&profile, "check", folded, "--min-fps", "1", NULL);
  g_assert_cmpint (profile.status, ==, 1);
  g_assert_nonnull (strstr (profile.err, "needs a Roku Resource Monitor session"));
}

static void
test_truncated (void)
{
  BlRrmWriterOptions o;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = g_build_filename (tmpdir, "truncated.json", NULL);
  g_auto(BlCliRun) run = { 0 };
  gsize len;
  const char *data;

  bl_rrm_writer_options_init (&o);
  o.n_samples = 20;
  o.pretty = TRUE;
  bytes = bl_rrm_write (&o);
  data = g_bytes_get_data (bytes, &len);
  g_assert_true (g_file_set_contents (path, data, len / 2, NULL));

  bl_cli_run (&run, "export", path, "--format", "csv", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.err, "warning"));
  g_assert_nonnull (strstr (run.err, "The session is incomplete"));
  g_assert_true (g_str_has_prefix (run.out, CSV_HEADER "\n"));
}

/* #15.6, #15.11: one point at -2^63 (or 1e400) among real ones: no negative
 * or absurd duration, a memory-growth rule judged on the real data, and a
 * warning on stderr */
static void
test_absurd_timestamp (void)
{
  const char *absurd[] = { "-9223372036854775808", "1e400", "0" };

  for (guint i = 0; i < G_N_ELEMENTS (absurd); i++)
    {
      g_autoptr(GString) json = g_string_new ("{\"device\": {}, \"channel\": {}, "
                                              "\"session\": {\"live\": {\"memory_usage\": [");
      g_autofree char *name = g_strdup_printf ("absurd-%u.json", i);
      g_autofree char *path = NULL;
      g_auto(BlCliRun) info = { 0 };
      g_auto(BlCliRun) check = { 0 };

      /* 2 MiB a minute for ten minutes */
      for (guint k = 0; k <= 10; k++)
        g_string_append_printf (json, "{\"timestamp\": %" G_GINT64_FORMAT ", \"used\": %u}, ",
                                G_GINT64_CONSTANT (1700000000000) + k * 60000,
                                (10 + 2 * k) * 1048576);
      g_string_append_printf (json, "{\"timestamp\": %s, \"used\": 1}]}}}", absurd[i]);
      path = write_text (name, json->str);

      bl_cli_run (&info, "info", path, "--json", NULL);
      g_assert_cmpint (info.status, ==, 0);
      g_assert_nonnull (strstr (info.out, "\"duration_ms\" : 600000"));
      g_assert_nonnull (strstr (info.err, "The data at 1 timestamp was dropped"));

      /* growth is 2 MiB a minute: a limit of 1 MiB fails, 3 MiB passes */
      bl_cli_run (&check, "check", path, "--max-memory-growth", "1048576", NULL);
      g_assert_cmpint (check.status, !=, 0);
      g_assert_nonnull (strstr (check.out, "FAIL"));
      bl_cli_run_clear (&check);
      bl_cli_run (&check, "check", path, "--max-memory-growth", "3145728", NULL);
      g_assert_cmpint (check.status, ==, 0);
      g_unlink (path);
    }
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tmpdir = g_dir_make_tmp ("bl-cli-rrm-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);

  g_test_add_func ("/cli/rrm/csv-layouts", test_csv_layouts);
  g_test_add_func ("/cli/rrm/csv-errors", test_csv_errors);
  g_test_add_func ("/cli/rrm/info", test_info);
  g_test_add_func ("/cli/rrm/check", test_check);
  g_test_add_func ("/cli/rrm/check-usage", test_check_usage);
  g_test_add_func ("/cli/rrm/truncated", test_truncated);
  g_test_add_func ("/cli/rrm/absurd-timestamp", test_absurd_timestamp);

  status = g_test_run ();

  {
    g_autoptr(GDir) dir = g_dir_open (tmpdir, 0, NULL);
    const char *name;

    while (dir && (name = g_dir_read_name (dir)))
      {
        g_autofree char *p = g_build_filename (tmpdir, name, NULL);

        g_unlink (p);
      }
  }
  g_rmdir (tmpdir);
  g_free (tmpdir);

  return status;
}
