/* test-cli-devtools.c — brightlens-cli on Chrome DevTools CPU and heap
 * profiles: info, export --format folded|speedscope (and back), diff, lines,
 * a truncated file and a broken one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "bl-cli-run.h"
#include "bl-cpuprofile-writer.h"

static char *tmpdir;

static char *
data_file (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data-files", "devtools", name, NULL);
}

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

static int
compare_strv (gconstpointer a,
              gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static char *
sorted_lines (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  guint n = g_strv_length (lines);

  if (n > 0 && lines[n - 1][0] == '\0')
    {
      g_free (lines[n - 1]);
      lines[--n] = NULL;
    }
  qsort (lines, n, sizeof (char *), compare_strv);

  return g_strjoinv ("\n", lines);
}

static void
test_info (void)
{
  g_autofree char *cpu = data_file ("node20-fib.cpuprofile");
  g_autofree char *heap = data_file ("node20-fib.heapprofile");
  g_auto(BlCliRun) text = { 0, };
  g_auto(BlCliRun) json = { 0, };
  g_auto(BlCliRun) heap_json = { 0, };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root, *totals;

  bl_cli_run (&text, "info", cpu, NULL);
  g_assert_cmpint (text.status, ==, 0);
  g_assert_nonnull (strstr (text.out, "cpuprofile"));
  g_assert_nonnull (strstr (text.out, "Main"));

  bl_cli_run (&json, "info", cpu, "--json", NULL);
  g_assert_cmpint (json.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, json.out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "cpuprofile");
  totals = json_object_get_object_member (root, "totals");
  g_assert_cmpint (json_object_get_int_member (totals, "samples"), ==, 351);
  g_assert_cmpint (json_object_get_int_member (totals, "time-ns"), ==, 415372000);
  g_assert_true (json_object_get_boolean_member (root, "lines"));

  bl_cli_run (&heap_json, "info", heap, "--json", NULL);
  g_assert_cmpint (heap_json.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, heap_json.out, -1, &error));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "heapprofile");
  totals = json_object_get_object_member (root, "totals");
  g_assert_cmpint (json_object_get_int_member (totals, "alloc-bytes"), ==, 375160);
  g_assert_cmpint (json_object_get_int_member (totals, "alloc-count"), ==, 86);
  g_assert_true (json_object_get_boolean_member (root, "memory"));
  /* 17 of the 103 samples name nodes V8 left out of the tree: they count
   * nowhere and, as in Chrome DevTools and speedscope, bring no warning */
  g_assert_null (strstr (heap_json.err, "samples name nodes"));
  g_assert_null (strstr (heap_json.err, "arning"));
}

/* folded output is speedscope's stacks (the expected files); a speedscope
 * export read back gives them again */
static void
test_export (void)
{
  const struct {
    const char *file;
    const char *metric;
    const char *expected;
  } cases[] = {
    { "chrome65-sucrase.cpuprofile", "time-ns", "chrome65-sucrase.time-ns.folded" },
    { "node10-example.cpuprofile", "time-ns", "node10-example.time-ns.folded" },
    { "node20-fib.heapprofile", "alloc-bytes", "node20-fib.alloc-bytes.folded" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = data_file (cases[i].file);
      g_autofree char *expected_path = g_test_build_filename (G_TEST_DIST, "data-files",
                                                              "devtools", "expected",
                                                              cases[i].expected, NULL);
      g_autofree char *expected = NULL;
      g_autofree char *json = g_build_filename (tmpdir, "export.speedscope.json", NULL);
      g_autofree char *got = NULL;
      g_autofree char *back = NULL;
      g_auto(BlCliRun) folded = { 0, };
      g_auto(BlCliRun) exported = { 0, };
      g_auto(BlCliRun) again = { 0, };

      g_assert_true (g_file_get_contents (expected_path, &expected, NULL, NULL));
      g_strchomp (expected);

      bl_cli_run (&folded, "export", path, "--format", "folded", "--metric", cases[i].metric,
                  NULL);
      g_assert_cmpint (folded.status, ==, 0);
      got = sorted_lines (folded.out);
      g_assert_cmpstr (got, ==, expected);

      bl_cli_run (&exported, "export", path, "--format", "speedscope", "-o", json, NULL);
      g_assert_cmpint (exported.status, ==, 0);
      bl_cli_run (&again, "export", json, "--format", "folded", "--metric", cases[i].metric,
                  NULL);
      g_assert_cmpint (again.status, ==, 0);
      back = sorted_lines (again.out);
      g_assert_cmpstr (back, ==, expected);
      g_unlink (json);
    }
}

/* two runs of a program, whatever their file names: same thread */
static void
test_diff (void)
{
  g_autofree char *a = data_file ("chrome65-simple.cpuprofile");
  g_autofree char *b = data_file ("node10-example.cpuprofile");
  g_auto(BlCliRun) diff = { 0, };
  g_auto(BlCliRun) table = { 0, };
  g_autofree char *got = NULL;

  bl_cli_run (&diff, "diff", a, b, NULL);
  g_assert_cmpint (diff.status, ==, 0);
  got = sorted_lines (diff.out);
  g_assert_cmpstr (got, ==,
                   "Main;(anonymous) 1060000 11575000\n"
                   "Main;(anonymous);a;b;d 17002000 16788000\n"
                   "Main;(anonymous);a;c;d 16283000 16414000");

  bl_cli_run (&table, "diff", a, b, "--format", "table", "--metric", "samples", NULL);
  g_assert_cmpint (table.status, ==, 0);
  g_assert_nonnull (strstr (table.out, "(anonymous)"));
}

static void
test_lines (void)
{
  g_autofree char *cpu = data_file ("node20-fib.cpuprofile");
  g_auto(BlCliRun) lines = { 0, };

  bl_cli_run (&lines, "lines", cpu, "--top", "1", NULL);
  g_assert_cmpint (lines.status, ==, 0);
  /* the hottest line: where sortThem's comparison function begins (line 8,
   * 1-based as the file's 7), in fib.js */
  g_assert_true (g_str_has_suffix (lines.out, "/fib.js:8 154914000\n"));
}

static void
test_truncated_and_broken (void)
{
  const BlCpuNode nodes[] = {
    { "1", "(root)", "", -1, -1, "2", NULL },
    { "2", "main", "file:///app/main.js", 0, 0, NULL, NULL },
  };
  g_autoptr(GBytes) whole = bl_cpuprofile_write (nodes, 2, "2,2,2,2", "0,10,10,10", FALSE);
  g_autoptr(GBytes) cut = g_bytes_new_from_bytes (whole, 0, g_bytes_get_size (whole) - 4);
  g_autofree char *cut_path = save ("cut.cpuprofile", cut);
  const char *broken_json = "{\"nodes\":[{\"id\":1,\"callFrame\":3}],\"samples\":[]}";
  g_autoptr(GBytes) broken = g_bytes_new_static (broken_json, strlen (broken_json));
  g_autofree char *broken_path = save ("broken.cpuprofile", broken);
  g_auto(BlCliRun) partial = { 0, };
  g_auto(BlCliRun) bad = { 0, };

  bl_cli_run (&partial, "export", cut_path, "--format", "folded", NULL);
  g_assert_cmpint (partial.status, ==, 0);
  g_assert_cmpstr (partial.out, ==, "Main;main 20000\n");
  g_assert_nonnull (strstr (partial.err, "ends early"));

  bl_cli_run (&bad, "info", broken_path, NULL);
  g_assert_cmpint (bad.status, ==, 1);
  g_assert_nonnull (strstr (bad.err, "call frame must be an object"));
  /* one line */
  g_assert_true (strchr (bad.err, '\n') == bad.err + strlen (bad.err) - 1);
}

/* The thread of a .cpuprofile is "Main", not the file's name (speedscope's
 * choice): the same profile under another name exports the same folded
 * stacks, first frame included, and diffs to nothing new */
static void
test_thread_name (void)
{
  g_autofree char *path = data_file ("node20-fib.cpuprofile");
  g_autofree char *text = NULL;
  g_autofree char *dir = g_dir_make_tmp ("bl-devtools-XXXXXX", NULL);
  g_autofree char *copy = g_build_filename (dir, "another-run.cpuprofile", NULL);
  g_auto(BlCliRun) a = { 0, };
  g_auto(BlCliRun) b = { 0, };
  g_auto(BlCliRun) diff = { 0, };
  gsize len;

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  g_assert_true (g_file_set_contents (copy, text, len, NULL));
  bl_cli_run (&a, "export", path, "--format", "folded", NULL);
  bl_cli_run (&b, "export", copy, "--format", "folded", NULL);
  g_assert_cmpint (a.status, ==, 0);
  g_assert_cmpint (b.status, ==, 0);
  g_assert_true (g_str_has_prefix (a.out, "Main;"));
  g_assert_cmpstr (a.out, ==, b.out);
  bl_cli_run (&diff, "diff", path, copy, "--format", "json", NULL);
  g_assert_cmpint (diff.status, ==, 0);
  g_assert_nonnull (strstr (diff.out, "\"new\" : 0,"));
  g_assert_nonnull (strstr (diff.out, "\"removed\" : 0,"));
  g_assert_nonnull (strstr (diff.out, "\"grown\" : 0,"));
  g_assert_nonnull (strstr (diff.out, "\"shrunk\" : 0,"));
  g_unlink (copy);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  tmpdir = g_dir_make_tmp ("bl-cli-devtools-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/cli/devtools/info", test_info);
  g_test_add_func ("/cli/devtools/export", test_export);
  g_test_add_func ("/cli/devtools/diff", test_diff);
  g_test_add_func ("/cli/devtools/thread-name", test_thread_name);
  g_test_add_func ("/cli/devtools/lines", test_lines);
  g_test_add_func ("/cli/devtools/truncated-and-broken", test_truncated_and_broken);

  status = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);

  return status;
}
