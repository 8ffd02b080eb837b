/* test-cli-formats.c — brightlens-cli on folded, mpatrol, Business Rules!
 * and speedscope files: export --format folded|speedscope, round trips,
 * exit codes and the sentence for files in no known format
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "bl-br-writer.h"
#include "bl-bsprof-writer.h"
#include "bl-mpatrol-writer.h"
#include "bl-cli-run.h"

static char *tmpdir;

static char *
save (const char *name,
      GBytes     *bytes)
{
  char *path = g_build_filename (tmpdir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);

  return path;
}

static char *
save_text (const char *name,
           const char *text)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));

  return save (name, bytes);
}

static char *
write_bsprof (void)
{
  g_autoptr(GBytes) bytes = NULL;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  h.target = "CLI App";
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "main");
  bl_bsprof_writer_string (w, 4, "draw");
  bl_bsprof_writer_string (w, 5, "TaskA");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_module (w, 2, 5);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 3);
  bl_bsprof_writer_path (w, 2, 1, 3, 2, 20, 4);
  bl_bsprof_writer_root (w, 3, 2, 2, 1, 4);
  bl_bsprof_writer_cpu (w, 1, 1, 5, 6);
  bl_bsprof_writer_cpu (w, 2, 1, 100, 120);
  bl_bsprof_writer_cpu (w, 3, 1, 7, 9);
  bl_bsprof_writer_calls (w, 2, 3);
  bl_bsprof_writer_end (w, 99);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  return save ("app.bsprof", bytes);
}

/* bsprof → speedscope → brightlens gives the same folded output */
static void
test_bsprof_speedscope_round_trip (void)
{
  g_autofree char *bsprof = write_bsprof ();
  g_autofree char *json = g_build_filename (tmpdir, "app.speedscope.json", NULL);
  g_auto(BlCliRun) direct = { 0, };
  g_auto(BlCliRun) exported = { 0, };
  g_auto(BlCliRun) again = { 0, };
  g_auto(BlCliRun) calls = { 0, };

  bl_cli_run (&direct, "export", bsprof, "--format", "folded", NULL);
  g_assert_cmpint (direct.status, ==, 0);
  g_assert_cmpstr (direct.out, ==,
                   "TaskA;draw 7\n"
                   "Thread main;main 5\n"
                   "Thread main;main;draw 100\n");

  bl_cli_run (&exported, "export", bsprof, "--format", "speedscope", "-o", json, NULL);
  g_assert_cmpint (exported.status, ==, 0);
  g_assert_true (g_file_test (json, G_FILE_TEST_EXISTS));

  bl_cli_run (&again, "export", json, "--format", "folded", NULL);
  g_assert_cmpint (again.status, ==, 0);
  g_assert_cmpstr (again.out, ==, direct.out);

  /* every metric travels */
  bl_cli_run (&calls, "export", json, "--format", "folded", "--metric", "calls", NULL);
  g_assert_cmpstr (calls.out, ==, "Thread main;main;draw 3\n");
}

/* A speedscope file cut before its end still exports what it holds, with a
 * warning saying where it ends. */
static void
test_speedscope_truncated (void)
{
  g_autofree char *bsprof = write_bsprof ();
  g_autofree char *json = g_build_filename (tmpdir, "cut.speedscope.json", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *cut_path = NULL;
  g_autofree char *early_path = NULL;
  g_auto(BlCliRun) direct = { 0, };
  g_auto(BlCliRun) exported = { 0, };
  g_auto(BlCliRun) cut = { 0, };
  g_auto(BlCliRun) early = { 0, };
  const char *end;
  gsize len;

  bl_cli_run (&direct, "export", bsprof, "--format", "folded", NULL);
  g_assert_cmpint (direct.status, ==, 0);
  bl_cli_run (&exported, "export", bsprof, "--format", "speedscope", "-o", json, NULL);
  g_assert_cmpint (exported.status, ==, 0);
  g_assert_true (g_file_get_contents (json, &contents, &len, NULL));

  /* cut after the last profile's data, before the objects close */
  end = g_strrstr (contents, "]");
  g_assert_nonnull (end);
  contents[end - contents + 1] = '\0';
  cut_path = save_text ("cut.json", contents);
  bl_cli_run (&cut, "export", cut_path, "--format", "folded", NULL);
  g_assert_cmpint (cut.status, ==, 0);
  g_assert_cmpstr (cut.out, ==, direct.out);
  g_assert_nonnull (strstr (cut.err, "warning"));
  g_assert_nonnull (strstr (cut.err, "ends early"));

  /* cut inside the header: nothing to show, an error */
  contents[60] = '\0';
  early_path = save_text ("early.json", contents);
  bl_cli_run (&early, "export", early_path, "--format", "folded", NULL);
  g_assert_cmpint (early.status, !=, 0);
  g_assert_cmpstr (early.out, ==, "");
  g_assert_nonnull (strstr (early.err, "early"));
}

static void
test_speedscope_stdout (void)
{
  g_autofree char *folded = save_text ("stacks.folded", "a;b 3\na;c 4\n");
  g_auto(BlCliRun) run = { 0, };

  bl_cli_run (&run, "export", folded, "--format", "speedscope", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_str_has_prefix (run.out, "{\"$schema\":\"https://www.speedscope.app/"
                                            "file-format-schema.json\""));
  g_assert_nonnull (strstr (run.out, "\"exporter\":\"brightlens@" PACKAGE_VERSION "\""));
  g_assert_nonnull (strstr (run.out, "\"unit\":\"none\""));
}

static void
test_folded_export_of_formats (void)
{
  BlMpatrolWriter *mw = bl_mpatrol_writer_new ();
  BlBrWriter *bw = bl_br_writer_new ();
  g_autoptr(GBytes) mp = NULL;
  g_autoptr(GBytes) br = NULL;
  g_autofree char *mp_path = NULL;
  g_autofree char *br_path = NULL;
  g_autofree char *folded_path = save_text ("in.txt", "x;y 2\n\nx;y 3\nx 1\n");
  g_auto(BlCliRun) m = { 0, };
  g_auto(BlCliRun) live = { 0, };
  g_auto(BlCliRun) b = { 0, };
  g_auto(BlCliRun) f = { 0, };
  guint64 d, site;

  d = bl_mpatrol_writer_add_data (mw);
  bl_mpatrol_writer_data_op (mw, d, FALSE, 100);
  bl_mpatrol_writer_data_op (mw, d, FALSE, 50);
  bl_mpatrol_writer_data_op (mw, d, TRUE, 50);
  site = bl_mpatrol_writer_add_site (mw, 0, 0x10, bl_mpatrol_writer_add_symbol (mw, "main", 0x10),
                                     0);
  bl_mpatrol_writer_add_site (mw, site, 0x20, bl_mpatrol_writer_add_symbol (mw, "grow", 0x20), d);
  mp = bl_mpatrol_writer_serialize (mw, &bl_mpatrol_ilp32_be);
  bl_mpatrol_writer_free (mw);
  mp_path = save ("mpatrol.out", mp);

  bl_br_writer_module (bw, 1, "MAIN.BR");
  bl_br_writer_line (bw, 1, 10, 0);
  bl_br_writer_function (bw, "FNX");
  bl_br_writer_time (bw, 40);
  bl_br_writer_backtrace (bw, 1, 5, 0);
  bl_br_writer_main (bw);
  bl_br_writer_end_line (bw);
  br = bl_br_writer_finish (bw);
  br_path = save ("profile.prf", br);

  bl_cli_run (&m, "export", mp_path, "--format", "folded", NULL);
  g_assert_cmpint (m.status, ==, 0);
  g_assert_cmpstr (m.out, ==, "mpatrol;main;grow 150\n");
  bl_cli_run (&live, "export", mp_path, "--format", "folded", "--metric", "live-bytes", NULL);
  g_assert_cmpstr (live.out, ==, "mpatrol;main;grow 100\n");

  bl_cli_run (&b, "export", br_path, "--format", "folded", NULL);
  g_assert_cmpint (b.status, ==, 0);
  g_assert_cmpstr (b.out, ==, "MAIN.BR;(main);FNX 40\n");

  bl_cli_run (&f, "export", folded_path, "--format", "folded", NULL);
  g_assert_cmpint (f.status, ==, 0);
  g_assert_cmpstr (f.out, ==, "x 1\nx;y 5\n");
}

static void
test_errors (void)
{
  g_autofree char *bad_folded = save_text ("bad.folded", "a;b 1\na;b\n");
  g_autofree char *json = save_text ("other.json", "{\"hello\": [1, 2, 3]}\n");
  g_autofree char *bad_speedscope =
    save_text ("bad.speedscope.json",
               "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
               "\"shared\":{\"frames\":[{\"name\":\"f\"}]},\"profiles\":[{\"type\":\"sampled\","
               "\"name\":\"t\",\"unit\":\"none\",\"samples\":[[0]],\"weights\":[1,2]}]}");
  static const guint8 binary[] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0 };
  g_autoptr(GBytes) bin_bytes = g_bytes_new_static (binary, sizeof binary);
  g_autofree char *bin = save ("a.out", bin_bytes);
  g_auto(BlCliRun) r1 = { 0, };
  g_auto(BlCliRun) r2 = { 0, };
  g_auto(BlCliRun) r3 = { 0, };
  g_auto(BlCliRun) r4 = { 0, };
  g_auto(BlCliRun) r5 = { 0, };

  bl_cli_run (&r1, "export", bad_folded, "--format", "folded", NULL);
  g_assert_cmpint (r1.status, ==, 1);
  g_assert_nonnull (strstr (r1.err, "line 2"));
  g_assert_cmpuint (strchr (r1.err, '\n') - r1.err + 1, ==, strlen (r1.err));

  bl_cli_run (&r2, "export", json, "--format", "speedscope", NULL);
  g_assert_cmpint (r2.status, ==, 1);
  g_assert_nonnull (strstr (r2.err, "JSON file, but not"));
  g_assert_nonnull (strstr (r2.err, "Chrome DevTools CPU or heap profile or a heap snapshot"));

  bl_cli_run (&r3, "export", bad_speedscope, "--format", "folded", NULL);
  g_assert_cmpint (r3.status, ==, 1);
  g_assert_nonnull (strstr (r3.err, "1 samples but 2 weights"));

  bl_cli_run (&r4, "info", bin, NULL);
  g_assert_cmpint (r4.status, ==, 1);
  g_assert_nonnull (strstr (r4.err, "binary file"));
  /* the message names the binary formats Brightlens recognises */
  g_assert_nonnull (strstr (r4.err, "Perfetto trace"));
  g_assert_nonnull (strstr (r4.err, "BrightScript profile"));

  bl_cli_run (&r5, "export", bad_folded, "--format", "flamegraph", NULL);
  g_assert_cmpint (r5.status, ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tmpdir = g_dir_make_tmp ("bl-cli-formats-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/cli/formats/bsprof-speedscope-round-trip", test_bsprof_speedscope_round_trip);
  g_test_add_func ("/cli/formats/speedscope-stdout", test_speedscope_stdout);
  g_test_add_func ("/cli/formats/speedscope-truncated", test_speedscope_truncated);
  g_test_add_func ("/cli/formats/folded-export", test_folded_export_of_formats);
  g_test_add_func ("/cli/formats/errors", test_errors);

  ret = g_test_run ();

  /* remove what the tests wrote */
  {
    g_autoptr(GDir) dir = g_dir_open (tmpdir, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)))
      {
        g_autofree char *path = g_build_filename (tmpdir, name, NULL);

        g_unlink (path);
      }
    g_rmdir (tmpdir);
  }
  g_free (tmpdir);

  return ret;
}
