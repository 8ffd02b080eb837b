/* test-cli-svg.c — export --format svg and diff --format svg, and the SVG
 * opened in headless Chromium, searched and zoomed through its own script
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "bl-rrm-writer.h"
#include "bl-stacks-writer.h"
#include "bl-cli-run.h"

static char *tmpdir;

static const char *before[] = {
  "Thread main;main;load 100",
  "Thread main;main;draw 50",
  "Thread main;main 10",
  "Task;run 5",
  NULL
};

static const char *after[] = {
  "Thread main;main;load 150",
  "Thread main;main;draw 50",
  "Thread main;main;fresh 40",
  "Thread main;main 10",
  NULL
};

static char *
save_profile (const char         *name,
              const char * const *lines)
{
  char *path = g_build_filename (tmpdir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (bl_stacks_save_bsprof (lines, path, &error));
  g_assert_no_error (error);

  return path;
}

static char *
read_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);

  return text;
}

/* xmllint's answer to an XPath expression, without its newline */
static char *
xpath (const char *path,
       const char *expr)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  const char *argv[] = { "xmllint", "--noout", "--xpath", expr, path, NULL };
  int status;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("xmllint --xpath '%s' %s failed: %s", expr, path, err);
  if (g_str_has_suffix (out, "\n"))
    out[strlen (out) - 1] = '\0';

  return out;
}

static char *
frame_xpath (const char *path,
             const char *id,
             const char *what)
{
  g_autofree char *expr = g_strdup_printf ("string(//*[@id='%s']%s)", id, what);

  return xpath (path, expr);
}

/* the id ("f3") of the frame whose tooltip starts with @name and a newline */
static char *
find_frame_id (const char *svg,
               const char *name)
{
  g_autofree char *needle = g_strdup_printf ("\"><title>%s\n", name);
  const char *hit = strstr (svg, needle);
  const char *start;

  if (hit == NULL)
    g_error ("no frame %s", name);
  for (start = hit; start > svg && !g_str_has_prefix (start, "id=\""); start--)
    ;

  return g_strndup (start + 4, hit - start - 4);
}

static void
test_export (void)
{
  g_autofree char *a = save_profile ("export.bsprof", before);
  g_autofree char *out = g_build_filename (tmpdir, "export.svg", NULL);
  g_autofree char *text = NULL;
  g_autofree char *width = NULL;
  g_autofree char *title = NULL;
  g_autofree char *count = NULL;
  g_auto(BlCliRun) run = { 0 };
  g_auto(BlCliRun) to_stdout = { 0 };
  g_auto(BlCliRun) wall = { 0 };

  bl_cli_run (&run, "export", a, "--format", "svg", "--metric", "cpu", "--width", "800",
              "--title", "Grid <app> & co", "-o", out, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpstr (run.out, ==, "");

  text = read_file (out);
  g_assert_true (g_str_has_prefix (text, "<?xml"));
  width = xpath (out, "string(/*/@width)");
  g_assert_cmpstr (width, ==, "800");
  title = xpath (out, "string(/*/*[local-name()='title'])");
  g_assert_cmpstr (title, ==, "Grid <app> & co");
  /* Thread main, main, draw, load, Task, run */
  count = xpath (out, "count(//*[local-name()='g'][@class='f'])");
  g_assert_cmpstr (count, ==, "6");
  g_assert_nonnull (strstr (text, "<title>load\npkg:/source/main.brs:1\n"));

  /* standard output is the same document */
  bl_cli_run (&to_stdout, "export", a, "--format", "svg", "--metric", "cpu", "--width", "800",
              "--title", "Grid <app> & co", NULL);
  g_assert_cmpint (to_stdout.status, ==, 0);
  g_assert_cmpstr (to_stdout.out, ==, text);

  /* another metric, another tooltip */
  bl_cli_run (&wall, "export", a, "--format", "svg", "-m", "wall", NULL);
  g_assert_cmpint (wall.status, ==, 0);
  g_assert_nonnull (strstr (wall.out, "Wall-clock time: 200 µs self, 200 µs total"));
}

static void
test_thread (void)
{
  g_autofree char *a = save_profile ("thread.bsprof", before);
  g_auto(BlCliRun) run = { 0 };
  g_auto(BlCliRun) nobody = { 0 };

  bl_cli_run (&run, "export", a, "--format", "svg", "--thread", "Task", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "<title>run\n"));
  g_assert_null (strstr (run.out, "<title>load\n"));

  bl_cli_run (&nobody, "export", a, "--format", "svg", "--thread", "nobody", NULL);
  g_assert_cmpint (nobody.status, ==, 1);
  g_assert_cmpstr (nobody.err, ==, "brightlens-cli: The profile has no thread named “nobody”.\n");
}

static void
test_usage (void)
{
  g_autofree char *a = save_profile ("usage.bsprof", before);
  const char *cases[][6] = {
    { "export", "--format", "svg", "--width", "50", NULL },
    { "export", "--format", "svg", "--width", "90000", NULL },
    { "export", "--format", "folded", "--width", "800", NULL },
    { "export", "--format", "folded", "--thread", "Task", NULL },
    { "export", "--format", "png", NULL },
    { "diff", "--format", "table", "--title", "x", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(BlCliRun) run = { 0 };

      if (g_str_equal (cases[i][0], "diff"))
        bl_cli_run (&run, cases[i][0], a, a, cases[i][1], cases[i][2], cases[i][3],
                    cases[i][4], NULL);
      else
        bl_cli_run (&run, cases[i][0], a, cases[i][1], cases[i][2], cases[i][3], cases[i][4],
                    NULL);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_cmpstr (run.out, ==, "");
      g_assert_true (g_str_has_prefix (run.err, "brightlens-cli: "));
    }
}

static void
test_atomic (void)
{
  g_autofree char *a = save_profile ("atomic.bsprof", before);
  g_autofree char *out = g_build_filename (tmpdir, "atomic.svg", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  g_auto(BlCliRun) run = { 0 };
  const char *name;

  g_file_set_contents (out, "previous", -1, &error);
  g_assert_no_error (error);

  /* a failed export leaves the destination as it was, and no temporary */
  bl_cli_run (&run, "export", a, "--format", "svg", "--thread", "nobody", "-o", out, NULL);
  g_assert_cmpint (run.status, ==, 1);
  text = read_file (out);
  g_assert_cmpstr (text, ==, "previous");
  dir = g_dir_open (tmpdir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_assert_true (g_str_has_suffix (name, ".bsprof") || g_str_has_suffix (name, ".svg"));
}

static void
test_diff (void)
{
  g_autofree char *a = save_profile ("diff-a.bsprof", before);
  g_autofree char *b = save_profile ("diff-b.bsprof", after);
  g_autofree char *out = g_build_filename (tmpdir, "diff.svg", NULL);
  g_autofree char *title = NULL;
  g_autofree char *fresh = NULL;
  g_autofree char *fill = NULL;
  g_autofree char *text = NULL;
  g_auto(BlCliRun) run = { 0 };
  g_auto(BlCliRun) normalized = { 0 };

  bl_cli_run (&run, "diff", a, b, "--format", "svg", "-o", out, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.err, ==, "");
  title = xpath (out, "string(/*/*[local-name()='title'])");
  g_assert_cmpstr (title, ==, "Differential Flame Graph");

  text = read_file (out);
  fresh = find_frame_id (text, "fresh");
  fill = frame_xpath (out, fresh, "/*[local-name()='rect']/@fill");
  g_assert_cmpstr (fill, ==, "#9141ac");
  /* the compare view's tooltip: A's and B's values and the change */
  g_assert_nonnull (strstr (text, "<title>load\npkg:/source/main.brs:1\n"
                                  "A: 100 µs total, 100 µs self\n"
                                  "B: 150 µs total, 150 µs self\n"
                                  "Δ +50 µs (+50.0 %)</title>"));
  /* Task is gone in B: B's frames only */
  g_assert_null (strstr (text, "<title>run\n"));

  bl_cli_run (&normalized, "diff", a, b, "--format", "svg", "--normalized", NULL);
  g_assert_cmpint (normalized.status, ==, 0);
  g_assert_nonnull (strstr (normalized.out, " pp ("));
}

static void
test_sessions (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "session.json", NULL);
  g_autoptr(GError) error = NULL;
  g_auto(BlCliRun) export_run = { 0 };
  g_auto(BlCliRun) diff_run = { 0 };
  BlRrmWriterOptions options;

  bl_rrm_writer_options_init (&options);
  g_assert_true (bl_rrm_write_to_file (&options, path, &error));
  g_assert_no_error (error);

  /* a session has no call tree: one clear line, exit 1 */
  bl_cli_run (&export_run, "export", path, "--format", "svg", NULL);
  g_assert_cmpint (export_run.status, ==, 1);
  g_assert_cmpstr (export_run.out, ==, "");
  g_assert_nonnull (strstr (export_run.err, "a flame graph can only be made from a profile"));

  bl_cli_run (&diff_run, "diff", path, path, "--format", "svg", NULL);
  g_assert_cmpint (diff_run.status, ==, 1);
  g_assert_cmpstr (diff_run.out, ==, "");
  g_assert_nonnull (strstr (diff_run.err, "compares two profiles"));
  g_unlink (path);
}

/* Chromium's DOM after the document's script ran, saved as XML */
static char *
browse (const char *svg_path,
        const char *fragment)
{
  g_autofree char *chromium = g_find_program_in_path ("chromium");
  g_autofree char *uri = g_filename_to_uri (svg_path, NULL, NULL);
  g_autofree char *url = g_strconcat (uri, "#", fragment, NULL);
  g_autofree char *profile_dir = g_build_filename (tmpdir, "chromium-profile", NULL);
  g_autofree char *user_data = g_strconcat ("--user-data-dir=", profile_dir, NULL);
  g_autofree char *dom_path = g_build_filename (tmpdir, "dom.svg", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  if (chromium == NULL)
    chromium = g_find_program_in_path ("chromium-browser");
  if (chromium == NULL)
    g_error ("chromium is not installed (build-aux/dev installs it for the tests)");

  {
    /* --no-sandbox: CI runs the suite as root, where Chromium refuses its sandbox */
    const char *argv[] = {
      chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
      "--no-first-run", "--disable-extensions", user_data, "--virtual-time-budget=5000",
      "--dump-dom", url, NULL,
    };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status,
                  &error);
  }
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL) || out == NULL || *out == '\0')
    g_error ("chromium --dump-dom %s failed: %s", url, err);

  g_file_set_contents (dom_path, out, -1, &error);
  g_assert_no_error (error);

  return g_steal_pointer (&dom_path);
}

static void
test_browser (void)
{
  g_autofree char *a = save_profile ("browser.bsprof", before);
  g_autofree char *svg_path = g_build_filename (tmpdir, "browser.svg", NULL);
  g_autofree char *svg = NULL;
  g_autofree char *load = NULL;
  g_autofree char *main_id = NULL;
  g_autofree char *root = NULL;
  g_autofree char *draw = NULL;
  g_autofree char *task = NULL;
  g_autofree char *fragment = NULL;
  g_autofree char *dom = NULL;
  g_auto(BlCliRun) run = { 0 };

  bl_cli_run (&run, "export", a, "--format", "svg", "-o", svg_path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  svg = read_file (svg_path);
  load = find_frame_id (svg, "load");
  main_id = find_frame_id (svg, "main");
  root = find_frame_id (svg, "Thread main");
  draw = find_frame_id (svg, "draw");
  task = find_frame_id (svg, "Task");

  /* search "LOAD" (case does not matter) and zoom into main */
  fragment = g_strdup_printf ("search=LOAD&zoom=%s", main_id);
  dom = browse (svg_path, fragment);

  {
    g_autofree char *ready = xpath (dom, "string(/*/@data-ready)");
    g_autofree char *zoom = xpath (dom, "string(/*/@data-zoom)");
    g_autofree char *matches = xpath (dom, "string(/*/@data-matches)");
    g_autofree char *matched = xpath (dom, "string(//*[@id='matched'])");
    g_autofree char *load_class = frame_xpath (dom, load, "/@class");
    g_autofree char *draw_class = frame_xpath (dom, draw, "/@class");
    g_autofree char *main_width = frame_xpath (dom, main_id, "/*[local-name()='rect']/@width");
    g_autofree char *main_x = frame_xpath (dom, main_id, "/*[local-name()='rect']/@x");
    g_autofree char *root_class = frame_xpath (dom, root, "/@class");
    g_autofree char *root_width = frame_xpath (dom, root, "/*[local-name()='rect']/@width");
    g_autofree char *task_style = frame_xpath (dom, task, "/@style");
    g_autofree char *load_width = frame_xpath (dom, load, "/*[local-name()='rect']/@width");
    g_autofree char *load_label = frame_xpath (dom, load, "/*[local-name()='text']");

    g_assert_cmpstr (ready, ==, "true");

    /* the search: load's frame highlighted, its share of the total */
    g_assert_cmpstr (matches, ==, "1");
    g_assert_cmpstr (load_class, ==, "f match");
    g_assert_cmpstr (draw_class, ==, "f");
    g_assert_cmpstr (matched, ==, "Matched: 60.6 %");   /* 100 of 165 */

    /* the zoom: main fills the width, its ancestor too (marked), the other
     * thread is hidden, main's children scaled: load is 100 of main's 160 */
    g_assert_cmpstr (zoom, ==, main_id);
    g_assert_cmpstr (main_width, ==, "1180.0000");
    g_assert_cmpstr (main_x, ==, "10.0000");
    g_assert_cmpstr (root_class, ==, "f parent");
    g_assert_cmpstr (root_width, ==, "1180.0000");
    g_assert_nonnull (strstr (task_style, "display: none"));
    g_assert_cmpstr (load_width, ==, "737.5000");
    g_assert_cmpstr (load_label, ==, "load");
  }

  /* zooming further hides load's sibling */
  {
    g_autofree char *fragment2 = g_strdup_printf ("zoom=%s", load);
    g_autofree char *dom2 = browse (svg_path, fragment2);
    g_autofree char *draw_style = frame_xpath (dom2, draw, "/@style");
    g_autofree char *load_width = frame_xpath (dom2, load, "/*[local-name()='rect']/@width");
    g_autofree char *matched = xpath (dom2, "string(//*[@id='matched'])");

    g_assert_nonnull (strstr (draw_style, "display: none"));
    g_assert_cmpstr (load_width, ==, "1180.0000");
    g_assert_cmpstr (matched, ==, "");
  }
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tmpdir = g_dir_make_tmp ("bl-cli-svg-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/cli/svg/export", test_export);
  g_test_add_func ("/cli/svg/thread", test_thread);
  g_test_add_func ("/cli/svg/usage", test_usage);
  g_test_add_func ("/cli/svg/atomic", test_atomic);
  g_test_add_func ("/cli/svg/diff", test_diff);
  g_test_add_func ("/cli/svg/sessions", test_sessions);
  g_test_add_func ("/cli/svg/browser", test_browser);

  status = g_test_run ();
  remove_tree (tmpdir);
  g_free (tmpdir);

  return status;
}
