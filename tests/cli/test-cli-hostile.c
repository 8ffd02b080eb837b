/* test-cli-hostile.c — brightlens-cli on hostile inputs (issue 15): deep
 * stacks streamed by export and diff, sums that would wrap, profiles
 * without any metric, tables with nothing in them, non-finite limits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "bl-cli-run.h"

static char *tmpdir;

static char *
save_text (const char *name,
           const char *text,
           gssize      len)
{
  char *path = g_build_filename (tmpdir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, len, &error);
  g_assert_no_error (error);

  return path;
}

/* A call chain 200,000 frames deep: export and diff write its one long
 * line (the lines are streamed, not kept per node). */
static void
test_deep (void)
{
  const guint depth = 200000;
  g_autoptr(GString) a = g_string_new ("t;f 1\nt");
  g_autoptr(GString) b = g_string_new ("t 2\nt");
  g_autoptr(GString) expected = g_string_new ("t 0 2\nt;f 1 0\nt");
  g_autofree char *path_a = NULL;
  g_autofree char *path_b = NULL;
  g_auto(BlCliRun) exported = { 0, };
  g_auto(BlCliRun) diff = { 0, };

  for (guint i = 1; i < depth; i++)
    {
      g_string_append (a, ";f");
      g_string_append (b, ";f");
      g_string_append (expected, ";f");
    }
  g_string_append (a, " 3\n");
  g_string_append (b, " 4\n");
  g_string_append (expected, " 3 4\n");
  path_a = save_text ("deep-a.folded", a->str, a->len);
  path_b = save_text ("deep-b.folded", b->str, b->len);

  bl_cli_run (&exported, "export", path_a, "--format", "folded", NULL);
  g_assert_cmpint (exported.status, ==, 0);
  g_assert_cmpstr (exported.out, ==, a->str);

  bl_cli_run (&diff, "diff", path_a, path_b, NULL);
  g_assert_cmpint (diff.status, ==, 0);
  g_assert_cmpstr (diff.out, ==, expected->str);
}

/* Counts of 2^64-1 saturate: the stack stays, info --json says so. */
static void
test_saturating (void)
{
  g_autofree char *path = save_text ("huge.folded",
                                     "a 18446744073709551615\na 18446744073709551615\n"
                                     "a;b 1\n", -1);
  g_auto(BlCliRun) exported = { 0, };
  g_auto(BlCliRun) info = { 0, };
  g_auto(BlCliRun) diff = { 0, };

  bl_cli_run (&exported, "export", path, "--format", "folded", NULL);
  g_assert_cmpint (exported.status, ==, 0);
  g_assert_cmpstr (exported.out, ==, "a 18446744073709551615\na;b 1\n");

  bl_cli_run (&info, "info", path, "--json", NULL);
  g_assert_cmpint (info.status, ==, 0);
  g_assert_nonnull (strstr (info.out, "\"samples\" : 9223372036854775807"));
  g_assert_null (strstr (info.out, "-"));
  g_assert_nonnull (strstr (info.err, "the samples total is 2^63 or more"));

  bl_cli_run (&diff, "diff", path, path, NULL);
  g_assert_cmpint (diff.status, ==, 0);
  g_assert_cmpstr (diff.out, ==,
                   "a 18446744073709551615 18446744073709551615\na;b 1 1\n");
}

/* Nothing has a value: an empty table (no sort of nothing), and a profile
 * without any metric is refused with a sentence. */
static void
test_nothing (void)
{
  g_autofree char *zero = save_text ("zero.folded", "a 0\nb;c 0\n", -1);
  g_autofree char *empty =
    save_text ("empty.speedscope.json",
               "{\"$schema\": \"https://www.speedscope.app/file-format-schema.json\", "
               "\"shared\": {\"frames\": []}, \"profiles\": []}", -1);
  g_auto(BlCliRun) table = { 0, };
  g_auto(BlCliRun) folded = { 0, };
  g_auto(BlCliRun) exported = { 0, };
  g_auto(BlCliRun) lines = { 0, };

  bl_cli_run (&table, "diff", zero, zero, "--format", "table", NULL);
  g_assert_cmpint (table.status, ==, 0);
  g_assert_true (g_str_has_suffix (table.out, "Function\n"));

  bl_cli_run (&folded, "diff", zero, zero, NULL);
  g_assert_cmpint (folded.status, ==, 0);
  g_assert_cmpstr (folded.out, ==, "");

  bl_cli_run (&exported, "export", empty, "--format", "folded", NULL);
  g_assert_cmpint (exported.status, ==, 1);
  g_assert_nonnull (strstr (exported.err, "has no values of any metric"));

  bl_cli_run (&lines, "lines", empty, NULL);
  g_assert_cmpint (lines.status, ==, 1);
  g_assert_nonnull (strstr (lines.err, "has no values of any metric"));
}

/* check refuses limits that are not finite numbers (usage: exit 2). */
static void
test_check_limits (void)
{
  g_autofree char *session = save_text ("session.json", "{}", -1);
  const char *values[] = { "nan", "NaN", "inf", "-inf", "1e999", "30fps", "" };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_auto(BlCliRun) run = { 0, };
      g_autofree char *arg = g_strdup_printf ("--min-fps=%s", values[i]);

      bl_cli_run (&run, "check", session, arg, NULL);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_nonnull (strstr (run.err, "--min-fps needs a finite number"));
    }

  {
    g_auto(BlCliRun) run = { 0, };

    bl_cli_run (&run, "check", session, "--max-memory-growth", "nan", NULL);
    g_assert_cmpint (run.status, ==, 2);
  }
}

/* An evented speedscope profile whose events span more than 2^63 ns:
 * the time is counted whole, without signed overflow. */
static void
test_long_span (void)
{
  g_autofree char *path =
    save_text ("span.speedscope.json",
               "{\"$schema\": \"https://www.speedscope.app/file-format-schema.json\", "
               "\"shared\": {\"frames\": [{\"name\": \"a\"}]}, \"profiles\": [{\"type\": "
               "\"evented\", \"name\": \"p\", \"unit\": \"nanoseconds\", \"startValue\": "
               "-9000000000000000000, \"endValue\": 9000000000000000000, \"events\": ["
               "{\"type\": \"O\", \"frame\": 0, \"at\": -9000000000000000000}, "
               "{\"type\": \"C\", \"frame\": 0, \"at\": 9000000000000000000}]}]}", -1);
  g_auto(BlCliRun) run = { 0, };

  bl_cli_run (&run, "export", path, "--format", "folded", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, "p;a 18000000000000000000\n");
}

/* diff writes fractional values as the folded export does (speedscope
 * weights of 0.4 are kept as decimals, not as the stored integers). */
static void
test_diff_fractions (void)
{
  g_autofree char *path =
    save_text ("frac.speedscope.json",
               "{\"$schema\": \"https://www.speedscope.app/file-format-schema.json\", "
               "\"shared\": {\"frames\": [{\"name\": \"a\"}, {\"name\": \"b\"}]}, "
               "\"profiles\": [{\"type\": \"sampled\", \"name\": \"p\", \"unit\": \"none\", "
               "\"startValue\": 0, \"endValue\": 3, \"samples\": [[0], [0], [0], [0], [0, 1]], "
               "\"weights\": [0.4, 0.4, 0.4, 0.4, 1.4]}]}", -1);
  g_auto(BlCliRun) exported = { 0, };
  g_auto(BlCliRun) diff = { 0, };

  bl_cli_run (&exported, "export", path, "--format", "folded", NULL);
  g_assert_cmpint (exported.status, ==, 0);
  g_assert_cmpstr (exported.out, ==, "p;a 1.6\np;a;b 1.4\n");

  bl_cli_run (&diff, "diff", path, path, NULL);
  g_assert_cmpint (diff.status, ==, 0);
  g_assert_cmpstr (diff.out, ==, "p;a 1.6 1.6\np;a;b 1.4 1.4\n");
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tmpdir = g_dir_make_tmp ("bl-cli-hostile-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/cli/hostile/deep", test_deep);
  g_test_add_func ("/cli/hostile/saturating", test_saturating);
  g_test_add_func ("/cli/hostile/nothing", test_nothing);
  g_test_add_func ("/cli/hostile/check-limits", test_check_limits);
  g_test_add_func ("/cli/hostile/long-span", test_long_span);
  g_test_add_func ("/cli/hostile/diff-fractions", test_diff_fractions);

  ret = g_test_run ();

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
