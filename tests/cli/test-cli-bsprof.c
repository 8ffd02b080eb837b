/* test-cli-bsprof.c — brightlens-cli info/export on .bsprof files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "bl-bsprof-writer.h"
#include "bl-cli-run.h"

static char *tmpdir;

static char *
write_fixture (const char *name,
               gboolean    memory,
               gboolean    truncate)
{
  char *path = g_build_filename (tmpdir, name, NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  BlBsprofHeader h;
  BlBsprofWriter *w;
  gsize len;

  bl_bsprof_header_init (&h);
  h.memory = memory;
  h.lines = TRUE;
  h.target = "CLI App";
  h.start_ms = 1700000000000;
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "main");
  bl_bsprof_writer_string (w, 4, "draw");
  bl_bsprof_writer_string (w, 5, "TaskA");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_module (w, 2, 5);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 3);
  bl_bsprof_writer_path (w, 2, 1, 2, 2, 10, 4);
  bl_bsprof_writer_root (w, 3, 2, 2, 1, 3);
  bl_bsprof_writer_cpu (w, 1, 1, 10, 11);
  bl_bsprof_writer_cpu (w, 2, 1, 20, 22);
  bl_bsprof_writer_cpu (w, 3, 1, 30, 33);
  bl_bsprof_writer_cpu (w, 2, 2, 5, 5);
  bl_bsprof_writer_calls (w, 2, 4);
  if (memory)
    {
      bl_bsprof_writer_alloc (w, 2, 1, 100, 1000);
      bl_bsprof_writer_alloc (w, 3, 1, 200, 24);
      bl_bsprof_writer_free_op (w, 1, 1, 100, FALSE);
    }
  bl_bsprof_writer_end (w, 1700000060000);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  len = g_bytes_get_size (bytes);
  if (truncate)
    len -= 6;
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), len, &error);
  g_assert_no_error (error);

  return path;
}

static void
test_export_folded (void)
{
  g_autofree char *path = write_fixture ("a.bsprof", TRUE, FALSE);
  g_auto(BlCliRun) cpu = { 0, }, wall = { 0, }, calls = { 0, }, live = { 0, }, freed = { 0, };

  bl_cli_run (&cpu, "export", path, "--format", "folded", "--metric", "cpu", NULL);
  g_assert_cmpint (cpu.status, ==, 0);
  g_assert_cmpstr (cpu.out, ==,
                   "TaskA;main 30\n"
                   "Thread main;main 10\n"
                   "Thread main;main;draw 25\n");

  /* the metric defaults to cpu; -o writes a file */
  {
    g_autofree char *out_path = g_build_filename (tmpdir, "out.folded", NULL);
    g_autofree char *contents = NULL;
    g_auto(BlCliRun) dflt = { 0, };

    bl_cli_run (&dflt, "export", path, "--format", "folded", "-o", out_path, NULL);
    g_assert_cmpint (dflt.status, ==, 0);
    g_assert_cmpstr (dflt.out, ==, "");
    g_assert_true (g_file_get_contents (out_path, &contents, NULL, NULL));
    g_assert_cmpstr (contents, ==, cpu.out);
  }

  bl_cli_run (&wall, "export", path, "--format", "folded", "--metric", "wall", NULL);
  g_assert_cmpstr (wall.out, ==,
                   "TaskA;main 33\n"
                   "Thread main;main 11\n"
                   "Thread main;main;draw 27\n");
  bl_cli_run (&calls, "export", path, "--format", "folded", "--metric", "calls", NULL);
  g_assert_cmpstr (calls.out, ==, "Thread main;main;draw 4\n");
  bl_cli_run (&live, "export", path, "--format", "folded", "--metric", "live-bytes", NULL);
  g_assert_cmpstr (live.out, ==, "TaskA;main 24\n");
  bl_cli_run (&freed, "export", path, "--format", "folded", "--metric", "free-bytes", NULL);
  g_assert_cmpstr (freed.out, ==, "Thread main;main;draw 1000\n");
}

static void
test_info_json (void)
{
  g_autofree char *path = write_fixture ("b.bsprof", TRUE, FALSE);
  g_auto(BlCliRun) run = { 0, };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *obj, *totals;

  bl_cli_run (&run, "info", path, "--json", NULL);
  g_assert_cmpint (run.status, ==, 0);
  json_parser_load_from_data (parser, run.out, -1, &error);
  g_assert_no_error (error);
  obj = json_node_get_object (json_parser_get_root (parser));

  g_assert_cmpstr (json_object_get_string_member (obj, "format"), ==, "bsprof");
  g_assert_cmpint (json_object_get_int_member (obj, "major"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (obj, "target"), ==, "CLI App");
  g_assert_cmpint (json_object_get_int_member (obj, "start_ms"), ==, 1700000000000);
  g_assert_cmpint (json_object_get_int_member (obj, "end_ms"), ==, 1700000060000);
  g_assert_true (json_object_get_boolean_member (obj, "lines"));
  g_assert_true (json_object_get_boolean_member (obj, "memory"));
  g_assert_cmpint (json_object_get_int_member (obj, "threads"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (obj, "nodes"), ==, 3);
  g_assert_false (json_object_get_boolean_member (obj, "incomplete"));
  g_assert_true (json_object_get_null_member (obj, "warning"));
  totals = json_object_get_object_member (obj, "totals");
  g_assert_cmpint (json_object_get_int_member (totals, "cpu"), ==, 65);
  g_assert_cmpint (json_object_get_int_member (totals, "wall"), ==, 71);
  g_assert_cmpint (json_object_get_int_member (totals, "calls"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (totals, "alloc-bytes"), ==, 1024);
  g_assert_cmpint (json_object_get_int_member (totals, "free-bytes"), ==, 1000);
  g_assert_cmpint (json_object_get_int_member (totals, "live-bytes"), ==, 24);
  g_assert_cmpint (json_object_get_int_member (totals, "live-count"), ==, 1);
}

static void
test_info_human (void)
{
  g_autofree char *path = write_fixture ("c.bsprof", FALSE, FALSE);
  g_auto(BlCliRun) run = { 0, };

  bl_cli_run (&run, "info", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "CLI App"));
  g_assert_nonnull (strstr (run.out, "1 min 00 s"));
  g_assert_nonnull (strstr (run.out, "Thread main"));
}

static void
test_truncated (void)
{
  g_autofree char *path = write_fixture ("t.bsprof", FALSE, TRUE);
  g_auto(BlCliRun) run = { 0, };
  g_auto(BlCliRun) info = { 0, };

  bl_cli_run (&run, "export", path, "--format", "folded", "--metric", "cpu", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.err, "warning"));
  g_assert_nonnull (strstr (run.err, "byte"));
  g_assert_nonnull (strstr (run.out, "TaskA;main 30\n"));

  bl_cli_run (&info, "info", path, "--json", NULL);
  g_assert_cmpint (info.status, ==, 0);
  g_assert_nonnull (strstr (info.out, "\"incomplete\" : true"));
}

static void
test_errors_and_usage (void)
{
  g_autofree char *bad = g_build_filename (tmpdir, "bad.bsprof", NULL);
  g_autofree char *good = write_fixture ("d.bsprof", FALSE, FALSE);
  g_auto(BlCliRun) r1 = { 0, }, r2 = { 0, }, r3 = { 0, }, r4 = { 0, }, r5 = { 0, }, r6 = { 0, };

  g_file_set_contents (bad, "bsprof\0\0\x02\x00\x00\x10", 12, NULL);
  bl_cli_run (&r1, "info", bad, NULL);
  g_assert_cmpint (r1.status, ==, 1);
  g_assert_nonnull (strstr (r1.err, "version 2"));
  g_assert_null (strchr (strchr (r1.err, '\n') + 1, '\n'));   /* one line */

  bl_cli_run (&r2, "info", NULL);
  g_assert_cmpint (r2.status, ==, 2);
  bl_cli_run (&r3, "export", good, "--format", "nonsense", NULL);
  g_assert_cmpint (r3.status, ==, 2);
  bl_cli_run (&r4, "export", good, "--format", "folded", "--metric", "bogus", NULL);
  g_assert_cmpint (r4.status, ==, 2);
  bl_cli_run (&r5, "frobnicate", NULL);
  g_assert_cmpint (r5.status, ==, 2);
  bl_cli_run (&r6, "info", "/nonexistent/file.bsprof", NULL);
  g_assert_cmpint (r6.status, ==, 1);
}

static void
test_input_untouched (void)
{
  g_autofree char *path = write_fixture ("e.bsprof", TRUE, FALSE);
  g_autofree char *before = NULL, *after = NULL;
  gsize len_before, len_after;
  g_auto(BlCliRun) run = { 0, };

  g_file_get_contents (path, &before, &len_before, NULL);
  bl_cli_run (&run, "export", path, "--format", "folded", NULL);
  g_file_get_contents (path, &after, &len_after, NULL);
  g_assert_cmpmem (before, len_before, after, len_after);
}

int
main (int    argc,
      char **argv)
{
  int ret;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  tmpdir = g_dir_make_tmp ("bl-cli-XXXXXX", NULL);

  g_test_add_func ("/cli/bsprof/export-folded", test_export_folded);
  g_test_add_func ("/cli/bsprof/info-json", test_info_json);
  g_test_add_func ("/cli/bsprof/info-human", test_info_human);
  g_test_add_func ("/cli/bsprof/truncated", test_truncated);
  g_test_add_func ("/cli/bsprof/errors-and-usage", test_errors_and_usage);
  g_test_add_func ("/cli/bsprof/input-untouched", test_input_untouched);

  ret = g_test_run ();
  g_free (tmpdir);

  return ret;
}
