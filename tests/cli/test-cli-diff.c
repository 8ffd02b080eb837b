/* test-cli-diff.c — brightlens-cli diff on profiles and sessions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

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

static const char *before[] = {
  "Thread main;main;load 100",
  "Thread main;main;draw 50",
  "Thread main;main 10",
  "Task;run 5",
  NULL
};

static const char *after[] = {
  "Thread main;main;load 150",
  "Thread main;main;draw;blit 30",
  "Thread main;main 10",
  "New Task;go 7",
  NULL
};

static void
test_folded (void)
{
  g_autofree char *a = save_profile ("folded-a.bsprof", before);
  g_autofree char *b = save_profile ("folded-b.bsprof", after);
  g_auto(BlCliRun) run = { 0 };
  g_auto(BlCliRun) wall = { 0 };
  g_auto(BlCliRun) calls = { 0 };
  g_auto(BlCliRun) table_first = { 0 };

  bl_cli_run (&run, "diff", a, b, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpstr (run.out, ==,
                   "New Task;go 0 7\n"
                   "Task;run 5 0\n"
                   "Thread main;main 10 10\n"
                   "Thread main;main;draw 50 0\n"
                   "Thread main;main;draw;blit 0 30\n"
                   "Thread main;main;load 100 150\n");

  /* the same with the format named, and the metric named */
  bl_cli_run (&table_first, "diff", "--format", "folded", "--metric", "cpu", a, b, NULL);
  g_assert_cmpint (table_first.status, ==, 0);
  g_assert_cmpstr (table_first.out, ==, run.out);

  bl_cli_run (&wall, "diff", a, b, "-m", "wall", NULL);
  g_assert_cmpint (wall.status, ==, 0);
  g_assert_cmpstr (wall.out, ==,
                   "New Task;go 0 14\n"
                   "Task;run 10 0\n"
                   "Thread main;main 20 20\n"
                   "Thread main;main;draw 100 0\n"
                   "Thread main;main;draw;blit 0 60\n"
                   "Thread main;main;load 200 300\n");

  bl_cli_run (&calls, "diff", a, b, "--metric=calls", NULL);
  g_assert_cmpint (calls.status, ==, 0);
  g_assert_nonnull (strstr (calls.out, "Thread main;main;load 1 1\n"));
}

/* Each side's column, where it is non-zero, is that side's folded export. */
static void
check_against_export (const char *diff_out,
                      const char *path,
                      guint       column)
{
  g_auto(BlCliRun) export = { 0 };
  g_auto(GStrv) lines = g_strsplit (diff_out, "\n", -1);
  g_autoptr(GString) rebuilt = g_string_new (NULL);

  bl_cli_run (&export, "export", path, "--format", "folded", NULL);
  g_assert_cmpint (export.status, ==, 0);

  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      char *b_value = strrchr (lines[i], ' ');
      char *a_value;

      g_assert_nonnull (b_value);
      *b_value++ = '\0';
      a_value = strrchr (lines[i], ' ');
      g_assert_nonnull (a_value);
      *a_value++ = '\0';

      g_assert_true (strcmp (a_value, "0") != 0 || strcmp (b_value, "0") != 0);
      if (strcmp (column == 0 ? a_value : b_value, "0") != 0)
        g_string_append_printf (rebuilt, "%s %s\n", lines[i], column == 0 ? a_value : b_value);
    }

  g_assert_cmpstr (rebuilt->str, ==, export.out);
}

static void
test_folded_matches_export (void)
{
  static const char *names[] = { "main", "load", "draw", "parse", "walk", "f@pkg:/x.brs" };
  GRand *rand = g_rand_new_with_seed (7);

  for (guint round = 0; round < 5; round++)
    {
      g_autofree char *paths[2] = { NULL, NULL };
      g_auto(BlCliRun) run = { 0 };

      for (guint side = 0; side < 2; side++)
        {
          g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
          g_autofree char *name = g_strdup_printf ("random-%u-%u.bsprof", round, side);
          guint n = g_rand_int_range (rand, 1, 50);

          for (guint i = 0; i < n; i++)
            {
              GString *line = g_string_new (g_rand_boolean (rand) ? "Thread main" : "Task");
              guint depth = g_rand_int_range (rand, 1, 7);

              for (guint d = 0; d < depth; d++)
                g_string_append_printf (line, ";%s", names[g_rand_int_range (rand, 0, 6)]);
              g_string_append_printf (line, " %d", g_rand_int_range (rand, 1, 100000));
              g_ptr_array_add (lines, g_string_free (line, FALSE));
            }
          g_ptr_array_add (lines, NULL);
          paths[side] = save_profile (name, (const char * const *) lines->pdata);
        }

      bl_cli_run (&run, "diff", paths[0], paths[1], NULL);
      g_assert_cmpint (run.status, ==, 0);
      check_against_export (run.out, paths[0], 0);
      check_against_export (run.out, paths[1], 1);

      g_free (paths[0]);
      g_free (paths[1]);
      paths[0] = paths[1] = NULL;
    }

  g_rand_free (rand);
}

static void
test_identical_stacks_summed (void)
{
  /* one function name in two files: one stack, as export names it */
  const char *a_lines[] = { "T;main;f@pkg:/a.brs 10", "T;main;f@pkg:/b.brs 20", NULL };
  const char *b_lines[] = { "T;main;f@pkg:/b.brs 5", NULL };
  g_autofree char *a = save_profile ("same-a.bsprof", a_lines);
  g_autofree char *b = save_profile ("same-b.bsprof", b_lines);
  g_auto(BlCliRun) run = { 0 };

  bl_cli_run (&run, "diff", a, b, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, "T;main;f 30 5\n");
}

static void
test_normalized (void)
{
  /* A's total 100, B's 400: A is scaled by 4 */
  const char *a_lines[] = { "T;main;load 60", "T;main;draw 30", "T;main 10", NULL };
  const char *b_lines[] = { "T;main;load 100", "T;main;draw 240", "T;main 60", NULL };
  g_autofree char *a = save_profile ("norm-a.bsprof", a_lines);
  g_autofree char *b = save_profile ("norm-b.bsprof", b_lines);
  g_auto(BlCliRun) run = { 0 };
  g_auto(BlCliRun) table = { 0 };
  g_auto(GStrv) lines = NULL;

  bl_cli_run (&run, "diff", "--normalized", a, b, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==,
                   "T;main 40 60\n"
                   "T;main;draw 120 240\n"
                   "T;main;load 240 100\n");

  /* shares: load 60 % → 25 %, draw 30 % → 60 %, main 10 % → 15 % */
  bl_cli_run (&table, "diff", "-n", "--format", "table", a, b, NULL);
  g_assert_cmpint (table.status, ==, 0);
  lines = g_strsplit (table.out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 12);
  g_assert_nonnull (strstr (lines[5], "shares"));
  g_assert_nonnull (strstr (lines[8], "  load  "));
  g_assert_nonnull (strstr (lines[8], "60.00 %"));
  g_assert_nonnull (strstr (lines[8], "25.00 %"));
  g_assert_nonnull (strstr (lines[8], "−35.00 pp"));
  g_assert_nonnull (strstr (lines[8], "−58.3 %"));
  g_assert_nonnull (strstr (lines[9], "  draw  "));
  g_assert_nonnull (strstr (lines[9], "+30.00 pp"));
  g_assert_nonnull (strstr (lines[9], "+100.0 %"));
  g_assert_nonnull (strstr (lines[10], "  main  "));
  g_assert_nonnull (strstr (lines[10], "+5.00 pp"));
  g_assert_nonnull (strstr (lines[10], "+50.0 %"));
}

static void
test_table (void)
{
  g_autofree char *a = save_profile ("table-a.bsprof", before);
  g_autofree char *b = save_profile ("table-b.bsprof", after);
  g_autofree char *out_path = g_build_filename (tmpdir, "table.txt", NULL);
  g_autofree char *written = NULL;
  g_auto(BlCliRun) run = { 0 };
  g_auto(BlCliRun) by_total = { 0 };
  g_auto(BlCliRun) to_file = { 0 };
  g_auto(GStrv) lines = NULL;
  const char *order[] = { "load", "draw", "blit", "go", "run" };

  bl_cli_run (&run, "diff", "--format", "table", a, b, NULL);
  g_assert_cmpint (run.status, ==, 0);
  lines = g_strsplit (run.out, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[2], "A: "));
  g_assert_true (g_str_has_prefix (lines[3], "B: "));
  g_assert_nonnull (strstr (lines[6], "Δ%"));

  /* ranked by |Δ self|: load +50, draw −50 (ties keep name order: draw
   * is after load by total change), blit +30, go +7, run −5; main ±0 */
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      g_autofree char *suffix = g_strdup_printf ("  %s  pkg:/source/main.brs", order[i]);

      g_assert_true (g_str_has_suffix (lines[7 + i], suffix));
    }
  g_assert_nonnull (strstr (lines[7], "+50 µs"));
  g_assert_nonnull (strstr (lines[7], "+50.0 %"));
  g_assert_nonnull (strstr (lines[8], "−50 µs"));
  g_assert_nonnull (strstr (lines[8], "−100.0 %"));
  g_assert_nonnull (strstr (lines[9], "new"));
  g_assert_true (g_str_has_suffix (lines[12], "  main  pkg:/source/main.brs"));
  g_assert_nonnull (strstr (lines[12], "±0 µs"));
  g_assert_cmpstr (lines[13], ==, "");
  g_assert_null (lines[14]);

  /* by total: main grew by 30 in total (160 → 190) */
  bl_cli_run (&by_total, "diff", "--format", "table", "--by", "total", a, b, NULL);
  g_assert_cmpint (by_total.status, ==, 0);
  g_assert_nonnull (strstr (by_total.out, "change of each function’s total"));

  bl_cli_run (&to_file, "diff", "--format", "table", a, b, "-o", out_path, NULL);
  g_assert_cmpint (to_file.status, ==, 0);
  g_assert_cmpstr (to_file.out, ==, "");
  g_assert_true (g_file_get_contents (out_path, &written, NULL, NULL));
  g_assert_cmpstr (written, ==, run.out);
}

static char *
save_session (const char               *name,
              const BlRrmWriterOptions *options)
{
  char *path = g_build_filename (tmpdir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (bl_rrm_write_to_file (options, path, &error));
  g_assert_no_error (error);

  return path;
}

static void
test_sessions (void)
{
  BlRrmWriterOptions oa, ob;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *profile = save_profile ("session-mix.bsprof", before);
  g_auto(BlCliRun) run = { 0 };
  g_auto(BlCliRun) folded = { 0 };
  g_auto(BlCliRun) mixed = { 0 };
  g_auto(BlCliRun) mixed2 = { 0 };
  g_auto(GStrv) lines = NULL;
  gboolean seen_launch = FALSE, seen_memory = FALSE;

  bl_rrm_writer_options_init (&oa);
  bl_rrm_writer_options_init (&ob);
  ob.scenario = BL_RRM_SCENARIO_REALISTIC;
  ob.omit_arrays = TRUE;           /* no frame rate in B */
  a = save_session ("a.json", &oa);
  b = save_session ("b.json", &ob);

  bl_cli_run (&run, "diff", a, b, NULL);
  g_assert_cmpint (run.status, ==, 0);
  lines = g_strsplit (run.out, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "A: "));
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "Launch time"))
        {
          /* both launch in 2550 ms */
          g_assert_nonnull (strstr (lines[i], "2550 ms"));
          g_assert_nonnull (strstr (lines[i], "±0 ms"));
          seen_launch = TRUE;
        }
      if (g_str_has_prefix (lines[i], "Peak memory"))
        {
          g_assert_nonnull (strstr (lines[i], "MiB"));
          seen_memory = TRUE;
        }
      if (g_str_has_prefix (lines[i], "Mean frame rate"))
        g_assert_nonnull (strstr (lines[i], "—"));
    }
  g_assert_true (seen_launch);
  g_assert_true (seen_memory);
  g_assert_nonnull (strstr (run.out, "Memory growth per minute"));
  g_assert_nonnull (strstr (run.out, "Peak node count"));
  g_assert_nonnull (strstr (run.out, "Rendezvous"));

  bl_cli_run (&folded, "diff", "--format", "folded", a, b, NULL);
  g_assert_cmpint (folded.status, ==, 1);
  g_assert_nonnull (strstr (folded.err, "sessions"));
  g_assert_cmpstr (folded.out, ==, "");

  bl_cli_run (&mixed, "diff", a, profile, NULL);
  g_assert_cmpint (mixed.status, ==, 1);
  g_assert_nonnull (strstr (mixed.err, "is a session and"));
  g_assert_nonnull (strstr (mixed.err, "compare two profiles or two sessions"));
  g_assert_cmpstr (mixed.out, ==, "");

  bl_cli_run (&mixed2, "diff", profile, b, "--format", "table", NULL);
  g_assert_cmpint (mixed2.status, ==, 1);
  g_assert_nonnull (strstr (mixed2.err, "is a profile and"));
}

static void
test_exit_codes (void)
{
  g_autofree char *a = save_profile ("codes-a.bsprof", before);
  g_autofree char *missing = g_build_filename (tmpdir, "missing.bsprof", NULL);
  g_autofree char *garbage = g_build_filename (tmpdir, "garbage.bin", NULL);
  struct
  {
    const char *args[6];
    int         status;
  } cases[] = {
    { { "diff", NULL }, 2 },
    { { "diff", a, NULL }, 2 },
    { { "diff", a, a, a, NULL }, 2 },
    { { "diff", a, a, "--format", "speedscope", NULL }, 2 },
    { { "diff", a, a, "--metric", "bogus", NULL }, 2 },
    { { "diff", a, a, "--by", "name", NULL }, 2 },
    { { "diff", a, a, "--no-such-option", NULL }, 2 },
    { { "diff", a, missing, NULL }, 1 },
    { { "diff", garbage, a, NULL }, 1 },
    { { "diff", a, a, NULL }, 0 },
  };

  g_assert_true (g_file_set_contents (garbage, "\x01\x02 not a profile \xff", -1, NULL));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(BlCliRun) run = { 0 };

      bl_cli_run (&run, cases[i].args[0], cases[i].args[1], cases[i].args[2], cases[i].args[3],
               cases[i].args[4], cases[i].args[5], NULL);
      g_assert_cmpint (run.status, ==, cases[i].status);
      if (cases[i].status != 0)
        g_assert_true (g_str_has_prefix (run.err, "brightlens-cli: "));
      else
        g_assert_cmpstr (run.err, ==, "");
    }

  /* a metric neither has: a warning for each, no lines, success */
  {
    g_auto(BlCliRun) run = { 0 };

    bl_cli_run (&run, "diff", a, a, "--metric", "alloc-bytes", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.out, ==, "");
    g_assert_nonnull (strstr (run.err, "has no alloc-bytes data"));
  }
}

/* ---- the diff that explains itself, and the CI gate ---- */

static const char *base[] = {
  "Thread main;main;load 1000",
  "Thread main;main;draw 500",
  "Thread main;main;parse 300",
  "Thread main;main 200",
  NULL
};

/* load +400 and a new fetch under it (+100): the total grows 2000 → 2490 */
static const char *regressed[] = {
  "Thread main;main;load 1400",
  "Thread main;main;load;fetch 100",
  "Thread main;main;draw 490",
  "Thread main;main;parse 300",
  "Thread main;main 200",
  NULL
};

/* run-to-run noise: 2000 → 2005 */
static const char *steady[] = {
  "Thread main;main;load 1010",
  "Thread main;main;draw 495",
  "Thread main;main;parse 300",
  "Thread main;main 200",
  NULL
};

static void
test_summary_table (void)
{
  g_autofree char *a = save_profile ("explain-base.bsprof", base);
  g_autofree char *b = save_profile ("explain-regressed.bsprof", regressed);
  g_autofree char *expected = NULL;
  g_auto(BlCliRun) run = { 0 };
  g_auto(BlCliRun) strict = { 0 };
  g_auto(BlCliRun) amount = { 0 };
  g_auto(BlCliRun) growth = { 0 };
  g_auto(BlCliRun) norm = { 0 };
  g_auto(GStrv) lines = NULL;

  /* automatic threshold: the length factor is 1 (median of the ratios);
   * residuals 0, 0, 10 and 400 µs of 2000 → median 0.25 % → 0.5 % */
  bl_cli_run (&run, "diff", "--format", "table", a, b, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.err, ==, "");
  expected = g_strdup_printf (
    "2 functions got slower by 500 µs in total (1 new); the largest: load (+400 µs), "
    "fetch (+100 µs). 1 function got faster by 10 µs in total; the largest: draw (−10 µs).\n"
    "Noise threshold: 0.5 %% of the total (automatic); smaller changes are neutral.\n"
    "A: %s\n"
    "B: %s\n"
    "Metric: CPU time. Δ is the change of each function’s self value.\n"
    "\n"
    "     A self       B self      A total      B total             Δ         Δ%%  Class     "
    "Function\n"
    "    1.00 ms      1.40 ms      1.00 ms      1.50 ms       +400 µs    +40.0 %%  grown     "
    "load  pkg:/source/main.brs\n"
    "       0 µs       100 µs         0 µs       100 µs       +100 µs        new  new       "
    "fetch  pkg:/source/main.brs\n"
    "     500 µs       490 µs       500 µs       490 µs        −10 µs     −2.0 %%  shrunk    "
    "draw  pkg:/source/main.brs\n"
    "     200 µs       200 µs      2.00 ms      2.49 ms         ±0 µs     ±0.0 %%  neutral   "
    "main  pkg:/source/main.brs\n"
    "     300 µs       300 µs       300 µs       300 µs         ±0 µs     ±0.0 %%  neutral   "
    "parse  pkg:/source/main.brs\n", a, b);
  g_assert_cmpstr (run.out, ==, expected);

  /* 1 %: draw's −10 µs (0.5 %) is noise now; new stays new */
  bl_cli_run (&strict, "diff", "--format", "table", "--threshold", "1", a, b, NULL);
  g_assert_cmpint (strict.status, ==, 0);
  g_assert_true (g_str_has_prefix (strict.out,
                                   "2 functions got slower by 500 µs in total (1 new); the "
                                   "largest: load (+400 µs), fetch (+100 µs).\n"
                                   "Noise threshold: 1.0 % of the total; smaller changes are "
                                   "neutral.\n"));
  g_assert_nonnull (strstr (strict.out, "−2.0 %  neutral   draw"));

  /* an amount: load's +400 µs is under 0.5 ms */
  bl_cli_run (&amount, "diff", "--format", "table", "--threshold", "0", "--min-change", "0.5ms",
              a, b, NULL);
  g_assert_cmpint (amount.status, ==, 0);
  g_assert_true (g_str_has_prefix (amount.out,
                                   "1 function got slower by 100 µs in total (1 new); the "
                                   "largest: fetch (+100 µs).\n"
                                   "Noise threshold: 0.0 % of the total or 500 µs; smaller "
                                   "changes are neutral.\n"));
  g_assert_nonnull (strstr (amount.out, "+40.0 %  neutral   load"));

  /* by growth: load, fetch, then the ±0 ones by name order, draw last */
  bl_cli_run (&growth, "diff", "--format", "table", "--sort", "growth", a, b, NULL);
  g_assert_cmpint (growth.status, ==, 0);
  lines = g_strsplit (growth.out, "\n", -1);
  g_assert_nonnull (strstr (lines[7], "  load  "));
  g_assert_nonnull (strstr (lines[8], "  fetch  "));
  g_assert_nonnull (strstr (lines[11], "  draw  "));

  /* normalised: shares; load 50 % → 56.22 %, draw 25 % → 19.68 %; main's
   * −1.97 pp is under 2 pp */
  bl_cli_run (&norm, "diff", "--format", "table", "--normalize", "--threshold", "2", a, b,
              NULL);
  g_assert_cmpint (norm.status, ==, 0);
  g_assert_true (g_str_has_prefix (norm.out,
                                   "2 functions got slower by 10.24 pp in total (1 new); the "
                                   "largest: load (+6.22 pp), fetch (+4.02 pp). 2 functions got "
                                   "faster by 8.27 pp in total; the largest: draw (−5.32 pp), "
                                   "parse (−2.95 pp).\n"));
  g_assert_nonnull (strstr (norm.out, "Values are shares of each run’s total."));
}

static void
test_gate (void)
{
  g_autofree char *a = save_profile ("gate-base.bsprof", base);
  g_autofree char *b = save_profile ("gate-regressed.bsprof", regressed);
  g_autofree char *c = save_profile ("gate-steady.bsprof", steady);
  g_autofree char *unknown_err = NULL;
  g_auto(BlCliRun) fail = { 0 };
  g_auto(BlCliRun) pass = { 0 };
  g_auto(BlCliRun) loose = { 0 };
  g_auto(BlCliRun) fn_fail = { 0 };
  g_auto(BlCliRun) fn_pass = { 0 };
  g_auto(BlCliRun) unknown = { 0 };
  g_auto(BlCliRun) with_table = { 0 };

  /* 2000 → 2490 µs: +24.5 % */
  bl_cli_run (&fail, "diff", "--fail-above", "5", a, b, NULL);
  g_assert_cmpint (fail.status, ==, 3);
  g_assert_cmpstr (fail.err, ==, "");
  g_assert_cmpstr (fail.out, ==,
                   "Failed: the total CPU time changed by +24.5 % (2.00 ms → 2.49 ms), more "
                   "than the allowed 5 %.\n"
                   "Stacks that grew, largest growth first:\n"
                   "       +400 µs  Thread main;main;load\n"
                   "       +100 µs  Thread main;main;load;fetch\n");

  /* 2000 → 2005 µs */
  bl_cli_run (&pass, "diff", "--fail-above", "5", a, c, NULL);
  g_assert_cmpint (pass.status, ==, 0);
  g_assert_cmpstr (pass.out, ==,
                   "Passed: the total CPU time changed by +0.2 % (2.00 ms → 2.00 ms), not "
                   "more than the allowed 5 %.\n");

  bl_cli_run (&loose, "diff", "--fail-above", "30", a, b, NULL);
  g_assert_cmpint (loose.status, ==, 0);
  g_assert_true (g_str_has_prefix (loose.out, "Passed: "));

  /* load's total 1000 → 1500 µs; only the stacks through load */
  bl_cli_run (&fn_fail, "diff", "--fail-above", "20", "--function", "load", a, b, NULL);
  g_assert_cmpint (fn_fail.status, ==, 3);
  g_assert_cmpstr (fn_fail.out, ==,
                   "Failed: load’s total CPU time changed by +50.0 % (1.00 ms → 1.50 ms), "
                   "more than the allowed 20 %.\n"
                   "Stacks that grew, largest growth first:\n"
                   "       +400 µs  Thread main;main;load\n"
                   "       +100 µs  Thread main;main;load;fetch\n");

  bl_cli_run (&fn_pass, "diff", "--fail-above", "1", "--function", "parse", a, b, NULL);
  g_assert_cmpint (fn_pass.status, ==, 0);
  g_assert_cmpstr (fn_pass.out, ==,
                   "Passed: parse’s total CPU time changed by ±0.0 % (300 µs → 300 µs), not "
                   "more than the allowed 1 %.\n");

  bl_cli_run (&unknown, "diff", "--fail-above", "1", "--function", "nope", a, b, NULL);
  g_assert_cmpint (unknown.status, ==, 1);
  g_assert_cmpstr (unknown.out, ==, "");
  unknown_err = g_strdup_printf ("brightlens-cli: neither %s nor %s has a function named "
                                 "“nope”.\n", a, b);
  g_assert_cmpstr (unknown.err, ==, unknown_err);

  /* only the stacks through the function: y grew more but is not x */
  {
    const char *xa[] = { "T;x 100", "T;y 100", NULL };
    const char *xb[] = { "T;x 150", "T;y 200", NULL };
    g_autofree char *pa = save_profile ("gate-x-a.bsprof", xa);
    g_autofree char *pb = save_profile ("gate-x-b.bsprof", xb);
    g_auto(BlCliRun) only_x = { 0 };

    bl_cli_run (&only_x, "diff", "--fail-above", "10", "--function", "x", pa, pb, NULL);
    g_assert_cmpint (only_x.status, ==, 3);
    g_assert_cmpstr (only_x.out, ==,
                     "Failed: x’s total CPU time changed by +50.0 % (100 µs → 150 µs), more "
                     "than the allowed 10 %.\n"
                     "Stacks that grew, largest growth first:\n"
                     "        +50 µs  T;x\n");
  }

  /* with the table: the table, a blank line, the verdict */
  bl_cli_run (&with_table, "diff", "--fail-above", "5", "--format", "table", a, b, NULL);
  g_assert_cmpint (with_table.status, ==, 3);
  g_assert_true (g_str_has_prefix (with_table.out, "2 functions got slower"));
  g_assert_nonnull (strstr (with_table.out, "pkg:/source/main.brs\n\nFailed: "));
  g_assert_true (g_str_has_suffix (with_table.out, fail.out));

  /* with folded lines: the lines, then the verdict */
  {
    g_auto(BlCliRun) with_folded = { 0 };

    bl_cli_run (&with_folded, "diff", "--fail-above", "5", "--format", "folded", a, b, NULL);
    g_assert_cmpint (with_folded.status, ==, 3);
    g_assert_true (g_str_has_prefix (with_folded.out, "Thread main;main 200 200\n"));
    g_assert_true (g_str_has_suffix (with_folded.out, fail.out));
  }
}

/* A function's name may hold any control character (a .bsprof's strings are
 * the app's own): the JSON that diff and info print stays JSON (json-glib
 * 1.6 leaves U+001F raw, which JSON forbids). */
static void
test_json_control_characters (void)
{
  const char *base_ctl[] = { "Thread main;main;a\x1f" "b 100", "Thread main;main;tab\tc 10", NULL };
  const char *grown_ctl[] = { "Thread main;main;a\x1f" "b 300", "Thread main;main;tab\tc 10", NULL };
  g_autofree char *a = save_profile ("ctl-a.bsprof", base_ctl);
  g_autofree char *b = save_profile ("ctl-b.bsprof", grown_ctl);
  g_auto(BlCliRun) diff = { 0 };
  g_auto(BlCliRun) info = { 0 };
  BlCliRun *runs[] = { &diff, &info };

  bl_cli_run (&diff, "diff", "--format", "json", a, b, NULL);
  bl_cli_run (&info, "info", "--json", a, NULL);
  for (guint r = 0; r < G_N_ELEMENTS (runs); r++)
    {
      g_assert_cmpint (runs[r]->status, ==, 0);
      for (const char *c = runs[r]->out; *c != '\0'; c++)
        g_assert_true ((guchar) *c >= 0x20 || *c == '\n');
    }
  g_assert_nonnull (strstr (diff.out, "a\\u001fb"));
  g_assert_nonnull (strstr (diff.out, "tab\\tc"));
}

static void
test_gate_json (void)
{
  g_autofree char *a = save_profile ("json-base.bsprof", base);
  g_autofree char *b = save_profile ("json-regressed.bsprof", regressed);
  g_autofree char *c = save_profile ("json-steady.bsprof", steady);
  g_auto(BlCliRun) fail = { 0 };
  g_auto(BlCliRun) pass = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonParser) pass_parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root, *gate, *threshold, *summary, *stack;
  JsonArray *functions, *stacks;
  const char *classes[][2] = {
    { "load", "grown" }, { "fetch", "new" }, { "draw", "shrunk" }, { "main", "neutral" },
    { "parse", "neutral" },
  };

  bl_cli_run (&fail, "diff", "--format", "json", "--fail-above", "5", a, b, NULL);
  g_assert_cmpint (fail.status, ==, 3);
  g_assert_true (json_parser_load_from_data (parser, fail.out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "mode"), ==, "absolute");
  g_assert_cmpstr (json_object_get_string_member (root, "metric"), ==, "cpu");

  threshold = json_object_get_object_member (root, "threshold");
  g_assert_cmpfloat (json_object_get_double_member (threshold, "pct"), ==, 0.5);
  g_assert_true (json_object_get_boolean_member (threshold, "automatic"));

  summary = json_object_get_object_member (root, "summary");
  g_assert_cmpint (json_object_get_int_member (summary, "grown"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (summary, "new"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (summary, "shrunk"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (summary, "removed"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (summary, "neutral"), ==, 2);
  g_assert_cmpfloat (json_object_get_double_member (summary, "grown_by"), ==, 500.0);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (summary, "text"),
                                   "2 functions got slower by 500 µs"));

  gate = json_object_get_object_member (root, "gate");
  g_assert_true (json_object_get_boolean_member (gate, "failed"));
  g_assert_cmpfloat (json_object_get_double_member (gate, "a"), ==, 2000.0);
  g_assert_cmpfloat (json_object_get_double_member (gate, "b"), ==, 2490.0);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (gate, "delta_pct"), 24.5, 1e-9);
  g_assert_true (json_object_get_null_member (gate, "function"));
  stacks = json_object_get_array_member (gate, "stacks");
  g_assert_cmpuint (json_array_get_length (stacks), ==, 2);
  stack = json_array_get_object_element (stacks, 0);
  g_assert_cmpstr (json_object_get_string_member (stack, "stack"), ==, "Thread main;main;load");
  g_assert_cmpfloat (json_object_get_double_member (stack, "delta"), ==, 400.0);
  stack = json_array_get_object_element (stacks, 1);
  g_assert_cmpstr (json_object_get_string_member (stack, "stack"), ==,
                   "Thread main;main;load;fetch");

  functions = json_object_get_array_member (root, "functions");
  g_assert_cmpuint (json_array_get_length (functions), ==, G_N_ELEMENTS (classes));
  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    {
      JsonObject *row = json_array_get_object_element (functions, i);

      g_assert_cmpstr (json_object_get_string_member (row, "name"), ==, classes[i][0]);
      g_assert_cmpstr (json_object_get_string_member (row, "class"), ==, classes[i][1]);
    }

  bl_cli_run (&pass, "diff", "--json", "--fail-above", "5", "--normalized", a, c, NULL);
  g_assert_cmpint (pass.status, ==, 0);
  g_assert_true (json_parser_load_from_data (pass_parser, pass.out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (pass_parser));
  g_assert_cmpstr (json_object_get_string_member (root, "mode"), ==, "normalized");
  gate = json_object_get_object_member (root, "gate");
  g_assert_false (json_object_get_boolean_member (gate, "failed"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (gate, "stacks")), ==, 0);
}

static void
test_explain_usage (void)
{
  g_autofree char *a = save_profile ("usage-a.bsprof", base);
  const char *cases[][8] = {
    { "diff", a, a, "--normalized", "--absolute", NULL },
    { "diff", a, a, "--threshold", "-1", NULL },
    { "diff", a, a, "--fail-above", "-3", NULL },
    { "diff", a, a, "--function", "load", NULL },
    { "diff", a, a, "--sort", "size", NULL },
    { "diff", a, a, "--min-change", "5 furlongs", NULL },
    { "diff", a, a, "--format", "svgz", NULL },
    { "diff", a, a, "--format", "svg", "--fail-above", "5", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(BlCliRun) run = { 0 };

      bl_cli_run (&run, cases[i][0], cases[i][1], cases[i][2], cases[i][3], cases[i][4],
                  cases[i][5], NULL);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_true (g_str_has_prefix (run.err, "brightlens-cli: "));
      g_assert_cmpstr (run.out, ==, "");
    }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tmpdir = g_dir_make_tmp ("test-cli-diff-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/cli/diff/folded", test_folded);
  g_test_add_func ("/cli/diff/folded-matches-export", test_folded_matches_export);
  g_test_add_func ("/cli/diff/identical-stacks-summed", test_identical_stacks_summed);
  g_test_add_func ("/cli/diff/normalized", test_normalized);
  g_test_add_func ("/cli/diff/table", test_table);
  g_test_add_func ("/cli/diff/sessions", test_sessions);
  g_test_add_func ("/cli/diff/exit-codes", test_exit_codes);
  g_test_add_func ("/cli/diff/summary-table", test_summary_table);
  g_test_add_func ("/cli/diff/gate", test_gate);
  g_test_add_func ("/cli/diff/gate-json", test_gate_json);
  g_test_add_func ("/cli/diff/json-control-characters", test_json_control_characters);
  g_test_add_func ("/cli/diff/explain-usage", test_explain_usage);

  ret = g_test_run ();

  {
    g_autoptr(GDir) dir = g_dir_open (tmpdir, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *path = g_build_filename (tmpdir, name, NULL);

        g_unlink (path);
      }
    g_rmdir (tmpdir);
  }
  g_free (tmpdir);

  return ret;
}
