/* test-cli-transform.c — the transform options of export, lines and diff,
 * on .bsprof fixtures whose transformed trees are worked out by hand
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "bl-bsprof-writer.h"
#include "bl-rrm-writer.h"
#include "bl-stacks-writer.h"
#include "bl-cli-run.h"

static char *tmpdir;

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

static int
compare_strings (const void *a,
                 const void *b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static const char *app[] = {
  "Thread main;main 5",
  "Thread main;main;libcall@pkg:/components/roku_modules/lib/a.brs 3",
  "Thread main;main;libcall@pkg:/components/roku_modules/lib/a.brs;cb 2",
  "Thread main;main;log 4",
  "Thread main;main;log;fmt 1",
  "RowItem_1;init 6",
  "RowItem_2;init 7",
  "RowItem_2;init;draw;layout;draw;paint 9",
  "RowItem_2;init;draw 1",
  NULL
};

static const char *app_after[] = {
  "Thread main;main 5",
  "Thread main;main;log 10",
  "RowItem_1;init 6",
  "RowItem_2;init;draw;paint 20",
  NULL
};

static void
test_export (void)
{
  g_autofree char *path = save_profile ("app.bsprof", app);
  static const struct
  {
    const char *args[8];
    const char *expected;
  } cases[] = {
    { { NULL },
      "RowItem_1;init 6\n"
      "RowItem_2;init 7\n"
      "RowItem_2;init;draw 1\n"
      "RowItem_2;init;draw;layout;draw;paint 9\n"
      "Thread main;main 5\n"
      "Thread main;main;libcall 3\n"
      "Thread main;main;libcall;cb 2\n"
      "Thread main;main;log 4\n"
      "Thread main;main;log;fmt 1\n" },
    { { "--merge", "log", NULL },
      "RowItem_1;init 6\n"
      "RowItem_2;init 7\n"
      "RowItem_2;init;draw 1\n"
      "RowItem_2;init;draw;layout;draw;paint 9\n"
      "Thread main;main 9\n"
      "Thread main;main;fmt 1\n"
      "Thread main;main;libcall 3\n"
      "Thread main;main;libcall;cb 2\n" },
    { { "--hide", "pkg:/components/roku_modules/*", "--drop", "log", "--merge-threads", NULL },
      "RowItem;init 13\n"
      "RowItem;init;draw 1\n"
      "RowItem;init;draw;layout;draw;paint 9\n"
      "Thread main;main 8\n"
      "Thread main;main;cb 2\n" },
    { { "--merge-threads", "--collapse-recursion", NULL },
      "RowItem;init 13\n"
      "RowItem;init;draw 1\n"
      "RowItem;init;draw;paint 9\n"
      "Thread main;main 5\n"
      "Thread main;main;libcall 3\n"
      "Thread main;main;libcall;cb 2\n"
      "Thread main;main;log 4\n"
      "Thread main;main;log;fmt 1\n" },
    { { "--focus", "draw", NULL },
      "RowItem_2;draw 1\n"
      "RowItem_2;draw;layout;draw;paint 9\n" },
    { { "--focus-path", "Thread main;main;log", NULL },
      "Thread main;log 4\n"
      "Thread main;log;fmt 1\n" },
    { { "--merge-all-threads", "--focus", "init", "--merge", "layout", "--collapse-recursion",
        NULL },
      "all threads;init 13\n"
      "all threads;init;draw 1\n"
      "all threads;init;draw;paint 9\n" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(BlCliRun) run = { 0 };
      const char *argv[16] = { NULL };
      guint n = 0;
      g_autofree char *sorted = NULL;
      g_auto(GStrv) lines = NULL;
      g_autoptr(GString) out = g_string_new (NULL);

      argv[n++] = "export";
      argv[n++] = path;
      argv[n++] = "--format";
      argv[n++] = "folded";
      for (guint k = 0; cases[i].args[k] != NULL; k++)
        argv[n++] = cases[i].args[k];
      g_assert_cmpuint (n, <, 13);

      bl_cli_run (&run, argv[0], argv[1], argv[2], argv[3], argv[4], argv[5], argv[6], argv[7],
                  argv[8], argv[9], argv[10], argv[11], argv[12], NULL);
      g_assert_cmpint (run.status, ==, 0);
      g_assert_cmpstr (run.err, ==, "");

      /* folded lines come in tree order; compare them sorted */
      lines = g_strsplit (run.out, "\n", -1);
      qsort (lines, g_strv_length (lines), sizeof (char *), compare_strings);
      for (guint k = 0; lines[k] != NULL; k++)
        if (*lines[k] != '\0')
          g_string_append_printf (out, "%s\n", lines[k]);
      g_test_message ("case %u", i);
      g_assert_cmpstr (out->str, ==, cases[i].expected);
    }
}

/* main → libcall (roku_modules) → cb; main → log; per-line cpu */
static char *
save_lines_profile (void)
{
  char *path = g_build_filename (tmpdir, "lines.bsprof", NULL);
  g_autoptr(GError) error = NULL;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  h.lines = TRUE;
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "main");
  bl_bsprof_writer_string (w, 4, "pkg:/components/roku_modules/lib/a.brs");
  bl_bsprof_writer_string (w, 5, "libcall");
  bl_bsprof_writer_string (w, 6, "cb");
  bl_bsprof_writer_string (w, 7, "log");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 3);
  bl_bsprof_writer_path (w, 2, 1, 0, 4, 10, 5);
  bl_bsprof_writer_path (w, 3, 2, 0, 2, 40, 6);
  bl_bsprof_writer_path (w, 4, 1, 0, 2, 60, 7);
  bl_bsprof_writer_cpu (w, 1, 1, 5, 5);
  bl_bsprof_writer_cpu (w, 2, 1, 3, 3);
  bl_bsprof_writer_cpu (w, 2, 3, 1, 1);
  bl_bsprof_writer_cpu (w, 3, 1, 2, 2);
  bl_bsprof_writer_cpu (w, 4, 1, 4, 4);
  bl_bsprof_writer_end (w, 1);
  g_assert_true (bl_bsprof_writer_save (w, path, &error));
  g_assert_no_error (error);
  bl_bsprof_writer_free (w);

  return path;
}

static void
test_lines (void)
{
  g_autofree char *path = save_lines_profile ();
  g_auto(BlCliRun) all = { 0 };
  g_auto(BlCliRun) dropped = { 0 };
  g_auto(BlCliRun) merged = { 0 };
  g_auto(BlCliRun) focused = { 0 };

  bl_cli_run (&all, "lines", path, "--metric", "cpu", NULL);
  g_assert_cmpint (all.status, ==, 0);
  g_assert_cmpstr (all.out, ==,
                   "pkg:/source/main.brs:1 5\n"
                   "pkg:/source/main.brs:60 4\n"
                   "pkg:/components/roku_modules/lib/a.brs:10 3\n"
                   "pkg:/source/main.brs:40 2\n"
                   "pkg:/components/roku_modules/lib/a.brs:12 1\n");

  /* dropping libcall drops its lines and cb's (only called from it) */
  bl_cli_run (&dropped, "lines", path, "--metric", "cpu", "--drop", "libcall", NULL);
  g_assert_cmpint (dropped.status, ==, 0);
  g_assert_cmpstr (dropped.err, ==, "");
  g_assert_cmpstr (dropped.out, ==,
                   "pkg:/source/main.brs:1 5\n"
                   "pkg:/source/main.brs:60 4\n");

  /* focusing on libcall keeps its lines and its callees' */
  bl_cli_run (&focused, "lines", path, "--metric", "cpu", "--focus", "libcall", NULL);
  g_assert_cmpint (focused.status, ==, 0);
  g_assert_cmpstr (focused.out, ==,
                   "pkg:/components/roku_modules/lib/a.brs:10 3\n"
                   "pkg:/source/main.brs:40 2\n"
                   "pkg:/components/roku_modules/lib/a.brs:12 1\n");

  /* merging and hiding keep every line where it was */
  bl_cli_run (&merged, "lines", path, "--metric", "cpu", "--hide", "*/roku_modules/*",
              "--merge-all-threads", "--merge", "cb", NULL);
  g_assert_cmpint (merged.status, ==, 0);
  g_assert_cmpstr (merged.out, ==, all.out);
}

static void
test_diff (void)
{
  g_autofree char *a = save_profile ("diff-a.bsprof", app);
  g_autofree char *b = save_profile ("diff-b.bsprof", app_after);
  g_auto(BlCliRun) run = { 0 };

  /* both sides are transformed the same way */
  bl_cli_run (&run, "diff", a, b, "--merge-threads", "--collapse-recursion", "--merge",
              "layout", "--drop", "libcall", NULL);
  g_assert_cmpint (run.status, ==, 0);
  /* B has neither layout nor libcall: said, and applied anyway */
  g_assert_nonnull (strstr (run.err, "diff-b.bsprof: No function is named “layout”."));
  g_assert_nonnull (strstr (run.err, "diff-b.bsprof: No function is named “libcall”."));
  g_assert_null (strstr (run.err, "diff-a.bsprof"));
  g_assert_cmpstr (run.out, ==,
                   "RowItem;init 13 6\n"
                   "RowItem;init;draw 1 0\n"
                   "RowItem;init;draw;paint 9 20\n"
                   "Thread main;main 5 5\n"
                   "Thread main;main;log 4 10\n"
                   "Thread main;main;log;fmt 1 0\n");
}

/* the flame graph image shows the transformed tree too */
static void
test_svg (void)
{
  g_autofree char *path = save_profile ("svg.bsprof", app);
  g_autofree char *out = g_build_filename (tmpdir, "svg.svg", NULL);
  g_autofree char *svg = NULL;
  g_auto(BlCliRun) run = { 0 };
  g_autoptr(GError) error = NULL;

  bl_cli_run (&run, "export", path, "--format", "svg", "--merge", "libcall", "--merge-threads",
              "-o", out, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_file_get_contents (out, &svg, NULL, &error));
  g_assert_no_error (error);
  g_assert_null (strstr (svg, "libcall"));
  g_assert_null (strstr (svg, "RowItem_1"));
  g_assert_nonnull (strstr (svg, "RowItem"));
  g_assert_nonnull (strstr (svg, "cb"));
}

static void
test_errors (void)
{
  g_autofree char *path = save_profile ("errors.bsprof", app);
  g_autofree char *session = g_build_filename (tmpdir, "session.json", NULL);
  g_auto(BlCliRun) empty = { 0 };
  g_auto(BlCliRun) missing = { 0 };
  g_auto(BlCliRun) on_session = { 0 };
  g_auto(BlCliRun) csv = { 0 };
  g_autoptr(GError) error = NULL;
  BlRrmWriterOptions options;

  bl_rrm_writer_options_init (&options);
  g_assert_true (bl_rrm_write_to_file (&options, session, &error));
  g_assert_no_error (error);

  bl_cli_run (&empty, "export", path, "--format", "folded", "--merge=", NULL);
  g_assert_cmpint (empty.status, ==, 2);
  g_assert_nonnull (strstr (empty.err, "--merge needs a non-empty value."));

  /* a function that is nowhere: a warning, and the transform applies */
  bl_cli_run (&missing, "export", path, "--format", "folded", "--focus", "nowhere", NULL);
  g_assert_cmpint (missing.status, ==, 0);
  g_assert_cmpstr (missing.out, ==, "");
  g_assert_nonnull (strstr (missing.err, "No function is named “nowhere”."));

  bl_cli_run (&on_session, "diff", session, session, "--merge", "x", NULL);
  g_assert_cmpint (on_session.status, ==, 2);
  g_assert_nonnull (strstr (on_session.err, "not a profile"));

  bl_cli_run (&csv, "export", session, "--format", "csv", "--drop", "x", NULL);
  g_assert_cmpint (csv.status, ==, 2);
  g_assert_nonnull (strstr (csv.err, "do not go with --format csv"));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tmpdir = g_dir_make_tmp ("bl-cli-transform-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/cli/transform/export", test_export);
  g_test_add_func ("/cli/transform/lines", test_lines);
  g_test_add_func ("/cli/transform/diff", test_diff);
  g_test_add_func ("/cli/transform/svg", test_svg);
  g_test_add_func ("/cli/transform/errors", test_errors);

  status = g_test_run ();

  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmpdir);

    g_assert_cmpint (system (cmd), ==, 0);
  }

  return status;
}
