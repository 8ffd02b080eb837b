/* test-cli-range.c — brightlens-cli export TRACE --format folded --from NS --to NS
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "bl-cli-run.h"
#include "bl-perfetto-writer.h"

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

/* thread a: A [100, 400) holding B [150, 250); thread b: C [200, 500) */
static char *
write_trace (void)
{
  BlPbWriter *w = bl_pbw_new ();

  bl_pftw_thread_track (w, 1, 1, 11, "a");
  bl_pftw_thread_track (w, 2, 1, 12, "b");
  bl_pftw_event (w, 1, 100, 1, 1, "A");
  bl_pftw_event (w, 1, 150, 1, 1, "B");
  bl_pftw_event (w, 1, 250, 2, 1, NULL);
  bl_pftw_event (w, 1, 400, 2, 1, NULL);
  bl_pftw_event (w, 1, 200, 1, 2, "C");
  bl_pftw_event (w, 1, 500, 2, 2, NULL);

  return save ("trace.perfetto-trace", w);
}

static void
test_range (void)
{
  g_autofree char *path = write_trace ();

  {
    g_auto(BlCliRun) run = { 0 };

    /* [200, 300): A 50 of its own, B 50, C 100 */
    bl_cli_run (&run, "export", path, "--format", "folded", "--from", "200", "--to", "300", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.out, ==, "a;A 50\na;A;B 50\nb;C 100\n");
  }
  {
    g_auto(BlCliRun) run = { 0 };

    /* from 300 to the end */
    bl_cli_run (&run, "export", path, "--format", "folded", "--from", "300", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.out, ==, "a;A 100\nb;C 200\n");
  }
  {
    g_auto(BlCliRun) run = { 0 };

    /* from the start to 160, the metric named */
    bl_cli_run (&run, "export", path, "--format", "folded", "--metric", "time-ns",
                "--to", "160", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.out, ==, "a;A 50\na;A;B 10\n");
  }
  {
    g_auto(BlCliRun) run = { 0 };

    /* the flame graph of a range: only what ran in it */
    bl_cli_run (&run, "export", path, "--format", "svg", "--from", "160", "--to", "190", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_nonnull (strstr (run.out, "<svg"));
    g_assert_nonnull (strstr (run.out, ">B<"));
    g_assert_null (strstr (run.out, ">C<"));
  }
}

static void
test_range_errors (void)
{
  g_autofree char *path = write_trace ();
  g_autofree char *folded = g_build_filename (tmpdir, "stacks.folded", NULL);

  g_assert_true (g_file_set_contents (folded, "a;b 3\n", -1, NULL));
  {
    g_auto(BlCliRun) run = { 0 };

    bl_cli_run (&run, "export", path, "--format", "folded", "--from", "300", "--to", "200", NULL);
    g_assert_cmpint (run.status, ==, 2);
    g_assert_nonnull (strstr (run.err, "--from must be before --to"));
  }
  {
    g_auto(BlCliRun) run = { 0 };

    bl_cli_run (&run, "export", path, "--format", "folded", "--from", "-5", NULL);
    g_assert_cmpint (run.status, ==, 2);
  }
  {
    g_auto(BlCliRun) run = { 0 };

    bl_cli_run (&run, "export", path, "--format", "speedscope", "--to", "5", NULL);
    g_assert_cmpint (run.status, ==, 2);
  }
  {
    g_auto(BlCliRun) run = { 0 };

    /* folded stacks have no time order */
    bl_cli_run (&run, "export", folded, "--format", "folded", "--to", "5", NULL);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_nonnull (strstr (run.err, "time order"));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  tmpdir = g_dir_make_tmp ("bl-cli-range-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/cli/export/range", test_range);
  g_test_add_func ("/cli/export/range-errors", test_range_errors);
  status = g_test_run ();

  {
    g_autoptr(GDir) dir = g_dir_open (tmpdir, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *file = g_build_filename (tmpdir, name, NULL);

        g_unlink (file);
      }
  }
  g_rmdir (tmpdir);
  g_free (tmpdir);

  return status;
}
