/* test-cli-perfetto.c — brightlens-cli info / export on Perfetto traces
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "bl-perfetto-writer.h"
#include "bl-cli-run.h"

static char *tmpdir;

static char *
save (const char *name,
      BlPbWriter *w)
{
  g_autoptr(GBytes) bytes = bl_pbw_steal (w);
  char *path = g_build_filename (tmpdir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  bl_pbw_free (w);

  return path;
}

/* a trace without extension: slices on a thread track and a custom track,
 * an instant, counters, one heap graph */
static char *
write_trace (const char *name)
{
  BlPbWriter *w = bl_pbw_new ();

  bl_pftw_thread_track (w, 1, 10, 11, NULL);
  bl_pftw_named_track (w, 2, 0, "Loader, \"net\"");
  bl_pftw_counter_track (w, 3, "memory, total", 1, FALSE);
  bl_pftw_event (w, 1, 1000, 1, 1, "onKeyEvent");
  bl_pftw_event (w, 1, 1200, 1, 1, "render");
  bl_pftw_event (w, 1, 1500, 2, 1, NULL);
  bl_pftw_event (w, 1, 1100, 1, 2, "fetch");
  bl_pftw_event (w, 1, 1900, 3, 2, "done");
  bl_pftw_counter (w, 1, 1300, 3, 42);
  bl_pftw_counter (w, 1, 1250, 3, 40);
  bl_pbw_begin (w, 1);
  bl_pbw_begin (w, 56);
  bl_pbw_varint (w, 1, 10);
  bl_pbw_end (w);
  bl_pbw_end (w);
  /* onKeyEvent and fetch stay open: they close at 1900 */

  return save (name, w);
}

static void
test_info_json (void)
{
  g_autofree char *path = write_trace ("trace");
  g_auto(BlCliRun) run = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *o;

  bl_cli_run (&run, "info", path, "--json", NULL);
  g_assert_cmpint (run.status, ==, 0);
  json_parser_load_from_data (parser, run.out, -1, &error);
  g_assert_no_error (error);
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (o, "format"), ==, "perfetto");
  g_assert_cmpint (json_object_get_int_member (o, "threads"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (o, "slices"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (o, "instants"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (o, "counter_tracks"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (o, "heap_graphs"), ==, 1);
  /* 900 on the thread track, 800 on the loader track */
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (o, "totals"),
                                               "time-ns"), ==, 1700);
  g_assert_false (json_object_get_boolean_member (o, "incomplete"));
  g_assert_true (json_object_get_null_member (o, "warning"));
}

static void
test_export_folded (void)
{
  g_autofree char *path = write_trace ("trace.perfetto-trace");
  g_auto(BlCliRun) run = { 0 };

  bl_cli_run (&run, "export", path, "--format", "folded", "--metric", "time-ns", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==,
                   "Loader, \"net\";fetch 800\n"
                   "Thread 11;onKeyEvent 600\n"
                   "Thread 11;onKeyEvent;render 300\n");
}

static void
test_export_csv (void)
{
  g_autofree char *path = write_trace ("trace.pftrace");
  g_auto(BlCliRun) run = { 0 };

  bl_cli_run (&run, "export", path, "--format", "csv", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==,
                   "track,unit,ts_ns,value\n"
                   "\"memory, total\",MB,1250,40\n"
                   "\"memory, total\",MB,1300,42\n");
}

static void
test_truncated (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  gsize len;
  g_auto(BlCliRun) run = { 0 };
  g_auto(BlCliRun) bad = { 0 };
  g_autofree char *bad_path = g_build_filename (tmpdir, "bad", NULL);
  const guint8 bad_bytes[] = { 0x0a, 0x05, 0x08, 0x01, 0x5a, 0x09, 0x00 };

  bl_pftw_thread_track (w, 1, 1, 2, "main");
  bl_pftw_event (w, 1, 10, 1, 1, "a");
  bl_pftw_event (w, 1, 30, 2, 1, NULL);
  bl_pftw_event (w, 1, 40, 1, 1, "b");
  path = save ("cut.pftrace", w);
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (path, contents, len - 3, NULL));

  bl_cli_run (&run, "info", path, "--json", NULL);
  g_assert_nonnull (strstr (run.err, "the packet at byte 47 needs 14 bytes"));
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "\"incomplete\" : true"));
  g_assert_nonnull (strstr (run.out, "\"time-ns\" : 20"));

  g_assert_true (g_file_set_contents (bad_path, (const char *) bad_bytes, sizeof bad_bytes, NULL));
  bl_cli_run (&bad, "info", bad_path, NULL);
  g_assert_cmpint (bad.status, !=, 0);
  /* a malformed first packet is not recognised as a trace */
  g_assert_nonnull (strstr (bad.err, "format Brightlens knows"));
}

/* two captures in one trace: a root map holding a leaked self-referencing
 * node by $unreachable; the second capture has two more nodes */
static char *
write_heap_trace (const char *name)
{
  BlPbWriter *w = bl_pbw_new ();

  for (guint dump = 0; dump < 2; dump++)
    bl_pftw_leaked_heap (w, dump == 0 ? 1 : 3);

  return save (name, w);
}

static void
test_heap (void)
{
  g_autofree char *path = write_heap_trace ("heap.pftrace");
  g_auto(BlCliRun) run = { 0 };
  g_auto(BlCliRun) text = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *snapshots;
  JsonObject *second, *type, *cycle;
  JsonArray *step;

  bl_cli_run (&run, "heap", path, "--json", "--top", "1", NULL);
  g_assert_cmpint (run.status, ==, 0);
  json_parser_load_from_data (parser, run.out, -1, &error);
  g_assert_no_error (error);
  snapshots = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                            "snapshots");
  g_assert_cmpuint (json_array_get_length (snapshots), ==, 2);
  second = json_array_get_object_element (snapshots, 1);
  g_assert_cmpint (json_object_get_int_member (second, "objects"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (second, "bytes"), ==, 124);
  g_assert_cmpint (json_object_get_int_member (second, "leaked_objects"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (second, "leaked_bytes"), ==, 24);
  type = json_array_get_object_element (json_object_get_array_member (second, "types"), 0);
  g_assert_cmpstr (json_object_get_string_member (type, "name"), ==, "roAssociativeArray");
  g_assert_cmpint (json_object_get_int_member (type, "retained_bytes"), ==, 124);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (second, "largest")), ==, 1);
  cycle = json_array_get_object_element (json_object_get_array_member (second, "cycles"), 0);
  g_assert_cmpint (json_object_get_int_member (cycle, "count"), ==, 3);
  step = json_array_get_array_element (json_object_get_array_member (cycle, "pattern"), 0);
  g_assert_cmpstr (json_array_get_string_element (step, 0), ==, "Node");
  g_assert_cmpstr (json_array_get_string_element (step, 1), ==, "self");
  g_assert_cmpint (json_object_get_int_member (second, "cycles_skipped"), ==, 0);

  bl_cli_run (&text, "heap", path, path, NULL);
  g_assert_cmpint (text.status, ==, 0);
  /* Node grew first: 1 → 3 objects, 8 → 24 bytes */
  g_assert_true (g_str_has_prefix (strchr (text.out, '\n') + 1, "Node "));
  g_assert_nonnull (strstr (text.out, "+16"));
}

/* heap graphs alone: no format has anything to write; one sentence, exit 1,
 * nothing on standard output */
static void
test_export_heaps_only (void)
{
  g_autofree char *path = write_heap_trace ("heaps-only.pftrace");
  const char *formats[][4] = {
    { "--format", "folded", "--metric", "time-ns" },
    { "--format", "folded", NULL, NULL },
    { "--format", "speedscope", NULL, NULL },
    { "--format", "csv", NULL, NULL },
    { "--format", "svg", NULL, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_auto(BlCliRun) run = { 0 };

      bl_cli_run (&run, "export", path, formats[i][0], formats[i][1], formats[i][2],
                  formats[i][3], NULL);
      g_assert_cmpint (run.status, ==, 1);
      g_assert_cmpstr (run.out, ==, "");
      g_assert_nonnull (strstr (run.err, "heaps-only.pftrace holds only heap graphs, so there is "
                                         "nothing to export"));
      /* one sentence, one line */
      g_assert_cmpint (strchr (run.err, '\n') - run.err, ==, (int) strlen (run.err) - 1);
    }
}

/* a leaked chain of 2,000 nodes, each also pointing back at the first:
 * 1,999 cycles of 2 … 2,000 steps, about 2 million steps in all, more than
 * the bound on all cycles' steps; the rest are said to be left out */
static void
test_heap_cycles_skipped (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autofree char *path = NULL;
  g_auto(BlCliRun) run = { 0 };
  g_auto(BlCliRun) text = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *snapshot;
  const guint n = 2000;
  const char *fields[] = { "$unreachable", "next", "first" };

  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 1);
  bl_pbw_begin (w, 56);
  bl_pbw_begin (w, 9);
  bl_pbw_varint (w, 1, 1);
  bl_pbw_string (w, 3, "Node");
  bl_pbw_end (w);
  for (guint f = 0; f < G_N_ELEMENTS (fields); f++)
    {
      bl_pbw_begin (w, 4);
      bl_pbw_varint (w, 1, f + 1);
      bl_pbw_string (w, 2, fields[f]);
      bl_pbw_end (w);
    }
  /* the root holds the first node by $unreachable */
  bl_pbw_begin (w, 2);
  bl_pbw_varint (w, 1, 1);
  bl_pbw_varint (w, 2, 1);
  bl_pbw_varint (w, 3, 8);
  bl_pbw_varint (w, 4, 1);
  bl_pbw_varint (w, 5, 10);
  bl_pbw_end (w);
  for (guint i = 0; i < n; i++)
    {
      bl_pbw_begin (w, 2);
      bl_pbw_varint (w, 1, 10 + i);
      bl_pbw_varint (w, 2, 1);
      bl_pbw_varint (w, 3, 8);
      if (i + 1 < n)
        {
          bl_pbw_varint (w, 4, 2);
          bl_pbw_varint (w, 5, 11 + i);
        }
      bl_pbw_varint (w, 4, 3);
      bl_pbw_varint (w, 5, 10);
      bl_pbw_end (w);
    }
  bl_pbw_begin (w, 7);
  bl_pbw_varint (w, 1, 1);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pbw_end (w);
  path = save ("cycles.pftrace", w);

  bl_cli_run (&run, "heap", path, "--json", NULL);
  g_assert_cmpint (run.status, ==, 0);
  json_parser_load_from_data (parser, run.out, -1, &error);
  g_assert_no_error (error);
  snapshot = json_array_get_object_element (
    json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "snapshots"), 0);
  g_assert_cmpint (json_object_get_int_member (snapshot, "leaked_objects"), ==, n);
  g_assert_cmpint (json_object_get_int_member (snapshot, "cycles_skipped"), >, 0);
  g_assert_cmpint (json_object_get_int_member (snapshot, "cycles_skipped"), <, n);

  bl_cli_run (&text, "heap", path, NULL);
  g_assert_cmpint (text.status, ==, 0);
  g_assert_nonnull (strstr (text.out, "more cycles left out: all cycles together have too many steps"));
}

static void
test_heap_none (void)
{
  g_autofree char *path = write_trace ("noheap.pftrace");
  g_auto(BlCliRun) run = { 0 };
  BlPbWriter *w = bl_pbw_new ();

  bl_pftw_thread_track (w, 1, 1, 2, "main");
  g_free (path);
  path = save ("noheap.pftrace", w);
  bl_cli_run (&run, "heap", path, NULL);
  g_assert_cmpint (run.status, !=, 0);
  g_assert_nonnull (strstr (run.err, "no heap graph"));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tmpdir = g_dir_make_tmp ("bl-cli-perfetto-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/cli/perfetto/info-json", test_info_json);
  g_test_add_func ("/cli/perfetto/export-folded", test_export_folded);
  g_test_add_func ("/cli/perfetto/export-csv", test_export_csv);
  g_test_add_func ("/cli/perfetto/truncated", test_truncated);
  g_test_add_func ("/cli/perfetto/heap", test_heap);
  g_test_add_func ("/cli/perfetto/heap-none", test_heap_none);
  g_test_add_func ("/cli/perfetto/export-heaps-only", test_export_heaps_only);
  g_test_add_func ("/cli/perfetto/heap-cycles-skipped", test_heap_cycles_skipped);

  ret = g_test_run ();

  {
    g_autoptr(GDir) dir = g_dir_open (tmpdir, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *file = g_build_filename (tmpdir, name, NULL);

        g_unlink (file);
      }
    g_rmdir (tmpdir);
  }
  g_free (tmpdir);

  return ret;
}
