/* test-cli-heapsnapshot.c — brightlens-cli heap / info on V8 heap snapshots
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "bl-cli-run.h"
#include "bl-heapsnapshot-writer.h"

static char *tmpdir;

/* root → (shortcut) global (id 101, 16 bytes) → @n_foo Foo (ids 201…, 40
 * bytes each, each holding a 24-byte array) and a Bar (id 301, 8 bytes),
 * which Foo 0 holds weakly */
static char *
write_snapshot (const char *name,
                guint       n_foo,
                gsize       cut)
{
  g_autoptr(BlHsWriter) w = bl_hsw_new ();
  g_autoptr(GString) text = NULL;
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (tmpdir, name, NULL);
  guint32 root = bl_hsw_node (w, "synthetic", "", 1, 0);
  guint32 global = bl_hsw_node (w, "object", "global", 101, 16);
  guint32 bar = bl_hsw_node (w, "object", "Bar", 301, 8);

  bl_hsw_edge (w, root, "shortcut", "global", 0, global);
  bl_hsw_edge (w, global, "property", "bar", 0, bar);
  for (guint i = 0; i < n_foo; i++)
    {
      guint32 foo = bl_hsw_node (w, "object", "Foo", 201 + 2 * i, 40);
      guint32 array = bl_hsw_node (w, "array", "", 401 + 2 * i, 24);

      bl_hsw_edge (w, global, "element", NULL, i, foo);
      bl_hsw_edge (w, foo, "internal", "elements", 0, array);
      if (i == 0)
        bl_hsw_edge (w, foo, "weak", "bar", 0, bar);
    }
  text = bl_hsw_to_string (w, BL_HS_ORDER_V8);
  if (cut > 0)
    g_string_truncate (text, cut);
  g_file_set_contents (path, text->str, text->len, &error);
  g_assert_no_error (error);

  return path;
}

static JsonObject *
parse (JsonParser *parser,
       const char *text)
{
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);

  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_heap (void)
{
  g_autofree char *path = write_snapshot ("a.heapsnapshot", 2, 0);
  g_auto(BlCliRun) run = { 0 };
  g_auto(BlCliRun) text = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *snapshot, *type, *largest;
  JsonArray *types, *list;

  bl_cli_run (&run, "heap", path, "--json", "--top", "2", NULL);
  g_assert_cmpint (run.status, ==, 0);
  list = json_object_get_array_member (parse (parser, run.out), "snapshots");
  g_assert_cmpuint (json_array_get_length (list), ==, 1);
  snapshot = json_array_get_object_element (list, 0);
  g_assert_cmpint (json_object_get_int_member (snapshot, "objects"), ==, 7);
  g_assert_cmpint (json_object_get_int_member (snapshot, "bytes"), ==, 152);
  g_assert_cmpint (json_object_get_int_member (snapshot, "leaked_objects"), ==, 0);
  types = json_object_get_array_member (snapshot, "types");
  /* (synthetic) retains everything, then global; Foo: 2 × (40 + 24) */
  type = json_array_get_object_element (types, 2);
  g_assert_cmpstr (json_object_get_string_member (type, "name"), ==, "Foo");
  g_assert_cmpint (json_object_get_int_member (type, "count"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (type, "self_bytes"), ==, 80);
  g_assert_cmpint (json_object_get_int_member (type, "retained_bytes"), ==, 128);
  type = json_array_get_object_element (types, 3);
  g_assert_cmpstr (json_object_get_string_member (type, "name"), ==, "(array)");
  g_assert_cmpint (json_object_get_int_member (type, "retained_bytes"), ==, 48);
  /* the largest objects by the file's node ids */
  list = json_object_get_array_member (snapshot, "largest");
  g_assert_cmpuint (json_array_get_length (list), ==, 2);
  /* the root and global both retain everything: either comes first */
  largest = json_array_get_object_element (list, 0);
  if (json_object_get_int_member (largest, "object") != 101)
    {
      g_assert_cmpint (json_object_get_int_member (largest, "object"), ==, 1);
      largest = json_array_get_object_element (list, 1);
    }
  g_assert_cmpint (json_object_get_int_member (largest, "object"), ==, 101);
  g_assert_cmpstr (json_object_get_string_member (largest, "type"), ==, "global");
  g_assert_cmpint (json_object_get_int_member (largest, "retained_bytes"), ==, 152);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (snapshot, "cycles")), ==,
                    0);

  bl_cli_run (&text, "heap", path, "--top", "3", NULL);
  g_assert_cmpint (text.status, ==, 0);
  g_assert_nonnull (strstr (text.out, "7 objects, 152 bytes"));
  g_assert_nonnull (strstr (text.out, "@101"));
}

static void
test_compare (void)
{
  g_autofree char *a = write_snapshot ("before.heapsnapshot", 2, 0);
  g_autofree char *b = write_snapshot ("after.heapsnapshot", 5, 0);
  g_auto(BlCliRun) run = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *types;
  JsonObject *first;

  bl_cli_run (&run, "heap", a, b, "--json", NULL);
  g_assert_cmpint (run.status, ==, 0);
  types = json_object_get_array_member (parse (parser, run.out), "types");
  /* grown first: Foo by 3 × 40 bytes, then (array) by 3 × 24 */
  first = json_array_get_object_element (types, 0);
  g_assert_cmpstr (json_object_get_string_member (first, "name"), ==, "Foo");
  g_assert_cmpint (json_object_get_int_member (first, "count_a"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (first, "count_b"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (first, "bytes_a"), ==, 80);
  g_assert_cmpint (json_object_get_int_member (first, "bytes_b"), ==, 200);
  first = json_array_get_object_element (types, 1);
  g_assert_cmpstr (json_object_get_string_member (first, "name"), ==, "(array)");
  g_assert_cmpint (json_object_get_int_member (first, "bytes_delta"), ==, 72);
}

static void
test_info (void)
{
  g_autofree char *path = write_snapshot ("info.heapsnapshot", 1, 0);
  g_auto(BlCliRun) run = { 0 };
  g_auto(BlCliRun) text = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *info;

  bl_cli_run (&run, "info", path, "--json", NULL);
  g_assert_cmpint (run.status, ==, 0);
  info = parse (parser, run.out);
  g_assert_cmpstr (json_object_get_string_member (info, "format"), ==, "heapsnapshot");
  g_assert_cmpstr (json_object_get_string_member (info, "supplemental"), ==,
                   "V8 heap snapshot: 5 nodes, 5 edges, 7 strings, 0 locations");
  g_assert_false (json_object_get_boolean_member (info, "incomplete"));

  bl_cli_run (&text, "info", path, NULL);
  g_assert_cmpint (text.status, ==, 0);
  g_assert_nonnull (strstr (text.out, "heapsnapshot"));
  g_assert_nonnull (strstr (text.out, "5 nodes"));
}

static void
test_truncated (void)
{
  g_autofree char *path = write_snapshot ("cut.heapsnapshot", 3, 900);
  g_auto(BlCliRun) run = { 0 };

  bl_cli_run (&run, "heap", path, NULL);
  g_assert_cmpint (run.status, !=, 0);
  g_assert_nonnull (strstr (run.err, "cut short"));
  g_assert_nonnull (strstr (run.err, "cannot be analysed"));
  g_assert_cmpstr (strchr (run.err, '\n'), ==, "\n");
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tmpdir = g_dir_make_tmp ("bl-cli-heapsnapshot-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/cli/heapsnapshot/heap", test_heap);
  g_test_add_func ("/cli/heapsnapshot/compare", test_compare);
  g_test_add_func ("/cli/heapsnapshot/info", test_info);
  g_test_add_func ("/cli/heapsnapshot/truncated", test_truncated);

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
