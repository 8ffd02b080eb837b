/* test-cli-lines.c — brightlens-cli lines against per-line totals computed
 * here, independently of the decoder, while the fixture is written
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bl-br-writer.h"
#include "bl-bsprof-writer.h"
#include "bl-cli-run.h"

static char *tmpdir;

enum { CPU, WALL, ALLOC_BYTES, LIVE_BYTES, N_TALLIES };

typedef struct
{
  char    *file;
  guint32  line;
  guint64  v[N_TALLIES];
} Tally;

typedef struct
{
  const char *file;
  guint32     line;       /* definition line */
} Function;

static const Function functions[] = {
  { "pkg:/source/main.brs", 1 },
  { "pkg:/source/main.brs", 30 },
  { "pkg:/components/HomeGrid.brs", 12 },
  { "pkg:/components/HomeGrid.brs", 60 },
  { "pkg:/components/tasks/Feed.brs", 5 },
  { "pkg:/source/util/Parser.brs", 100 },
};

typedef struct
{
  guint64  addr;
  guint64  size;
  Tally   *tally;
} Block;

static Tally *
tally_for (GHashTable *tallies,
           const char *file,
           guint32     line)
{
  g_autofree char *key = g_strdup_printf ("%s:%u", file, line);
  Tally *t = g_hash_table_lookup (tallies, key);

  if (t == NULL)
    {
      t = g_new0 (Tally, 1);
      t->file = g_strdup (file);
      t->line = line;
      g_hash_table_insert (tallies, g_steal_pointer (&key), t);
    }

  return t;
}

static void
tally_free (gpointer data)
{
  Tally *t = data;

  g_free (t->file);
  g_free (t);
}

static int
tally_compare (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const Tally *ta = *(const Tally **) a;
  const Tally *tb = *(const Tally **) b;
  guint k = GPOINTER_TO_UINT (user_data);
  int cmp;

  if (ta->v[k] != tb->v[k])
    return ta->v[k] > tb->v[k] ? -1 : 1;
  if ((cmp = strcmp (ta->file, tb->file)) != 0)
    return cmp;

  return ta->line < tb->line ? -1 : (ta->line > tb->line ? 1 : 0);
}

static char *
expected_output (GHashTable *tallies,
                 guint       k,
                 guint       top)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  GString *s = g_string_new (NULL);
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, tallies);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (((Tally *) value)->v[k] != 0)
      g_ptr_array_add (rows, value);

  g_qsort_with_data (rows->pdata, rows->len, sizeof (gpointer), tally_compare,
                     GUINT_TO_POINTER (k));

  for (guint i = 0; i < rows->len && (top == 0 || i < top); i++)
    {
      Tally *t = g_ptr_array_index (rows, i);

      g_string_append_printf (s, "%s:%u %" G_GUINT64_FORMAT "\n", t->file, t->line, t->v[k]);
    }

  return g_string_free (s, FALSE);
}

/* Writes a random profile with lines and memory; fills @tallies with the
 * per-line totals the file implies. Path element p (1-based) runs function
 * (p − 1) % N; its caller is a random earlier element. */
static char *
write_random_fixture (GHashTable *tallies,
                      guint32     seed)
{
  char *path = g_build_filename (tmpdir, "random.bsprof", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(GArray) live = g_array_new (FALSE, FALSE, sizeof (Block));
  const guint n_elements = 40;
  guint64 next_addr = 0x1000;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  h.lines = TRUE;
  h.memory = TRUE;
  h.target = "Random Lines";
  h.start_ms = 1700000000000;
  w = bl_bsprof_writer_new (&h);

  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "fn");
  for (guint f = 0; f < G_N_ELEMENTS (functions); f++)
    {
      g_autofree char *name = g_strdup_printf ("function%u", f);

      bl_bsprof_writer_string (w, 10 + f, functions[f].file);
      bl_bsprof_writer_string (w, 20 + f, name);
    }
  bl_bsprof_writer_module (w, 1, 1);

  for (guint32 p = 1; p <= n_elements; p++)
    {
      const Function *fn = &functions[(p - 1) % G_N_ELEMENTS (functions)];
      guint f = (p - 1) % G_N_ELEMENTS (functions);

      if (p == 1)
        bl_bsprof_writer_root (w, p, 1, 10 + f, fn->line, 20 + f);
      else
        bl_bsprof_writer_path (w, p, g_rand_int_range (rand, 1, p),
                               g_rand_int_range (rand, 1, 9), 10 + f, fn->line, 20 + f);
    }

  for (guint i = 0; i < 3000; i++)
    {
      guint32 p = g_rand_int_range (rand, 1, n_elements + 1);
      const Function *fn = &functions[(p - 1) % G_N_ELEMENTS (functions)];
      /* offset 0 means "no line": counted on the path, on no line */
      guint32 offset = g_rand_int_range (rand, 0, 100) < 3 ? 0 : g_rand_int_range (rand, 1, 25);
      guint kind = g_rand_int_range (rand, 0, 10);

      if (kind < 6)
        {
          guint64 cpu = g_rand_int_range (rand, 1, 5000);
          guint64 wall = cpu + g_rand_int_range (rand, 0, 3000);

          bl_bsprof_writer_cpu (w, p, offset, cpu, wall);
          if (offset != 0)
            {
              Tally *t = tally_for (tallies, fn->file, fn->line + offset - 1);

              t->v[CPU] += cpu;
              t->v[WALL] += wall;
            }
        }
      else if (kind < 9)
        {
          guint64 size = g_rand_int_range (rand, 1, 4096);
          guint64 addr = next_addr;

          next_addr += 4096;
          bl_bsprof_writer_alloc (w, p, offset, addr, size);
          if (offset != 0)
            {
              Tally *t = tally_for (tallies, fn->file, fn->line + offset - 1);
              Block block = { addr, size, t };

              t->v[ALLOC_BYTES] += size;
              t->v[LIVE_BYTES] += size;
              g_array_append_val (live, block);
            }
        }
      else if (live->len > 0)
        {
          guint k = g_rand_int_range (rand, 0, live->len);
          Block *block = &g_array_index (live, Block, k);

          /* the free names another path and line: it still counts where
           * the block was allocated */
          bl_bsprof_writer_free_op (w, g_rand_int_range (rand, 1, n_elements + 1),
                                    g_rand_int_range (rand, 1, 5), block->addr, FALSE);
          block->tally->v[LIVE_BYTES] -= block->size;
          g_array_remove_index_fast (live, k);
        }
    }

  bl_bsprof_writer_end (w, 1700000060000);
  g_assert_true (bl_bsprof_writer_save (w, path, &error));
  g_assert_no_error (error);
  bl_bsprof_writer_free (w);

  return path;
}

static void
test_random (void)
{
  for (guint32 seed = 1; seed <= 3; seed++)
    {
      g_autoptr(GHashTable) tallies = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                             tally_free);
      g_autofree char *path = write_random_fixture (tallies, seed);
      struct { const char *metric; guint k; } metrics[] = {
        { NULL, CPU }, { "cpu", CPU }, { "wall", WALL },
        { "alloc-bytes", ALLOC_BYTES }, { "live-bytes", LIVE_BYTES },
      };

      for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
        {
          g_autofree char *expected = expected_output (tallies, metrics[m].k, 0);
          g_autofree char *expected_top = expected_output (tallies, metrics[m].k, 7);
          g_auto(BlCliRun) all = { 0, }, top = { 0, }, zero = { 0, }, large = { 0, };

          if (metrics[m].metric)
            {
              bl_cli_run (&all, "lines", path, "--metric", metrics[m].metric, NULL);
              bl_cli_run (&top, "lines", path, "--metric", metrics[m].metric, "--top", "7", NULL);
              bl_cli_run (&zero, "lines", path, "--metric", metrics[m].metric, "--top", "0", NULL);
              bl_cli_run (&large, "lines", "--top", "100000", path, "-m", metrics[m].metric, NULL);
            }
          else
            {
              bl_cli_run (&all, "lines", path, NULL);
              bl_cli_run (&top, "lines", path, "--top", "7", NULL);
              bl_cli_run (&zero, "lines", path, "--top", "0", NULL);
              bl_cli_run (&large, "lines", path, "--top=100000", NULL);
            }

          g_assert_cmpint (all.status, ==, 0);
          g_assert_cmpstr (all.err, ==, "");
          g_assert_cmpuint (strlen (expected), >, 100);
          g_assert_cmpstr (all.out, ==, expected);
          g_assert_cmpint (top.status, ==, 0);
          g_assert_cmpstr (top.out, ==, expected_top);
          g_assert_cmpstr (zero.out, ==, expected);
          g_assert_cmpstr (large.out, ==, expected);
        }
    }
}

/* A Business Rules! profile: lines come from the reader of that format
 * through the same per-line records; samples and time per line. */
static void
test_business_rules (void)
{
  g_autoptr(GHashTable) tallies = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                         tally_free);
  g_autofree char *path = g_build_filename (tmpdir, "random.brprof", NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (77);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const char *modules[] = { "MAIN.BR", "LIB.BR", "REPORT.BR" };
  const char *functions[] = { "FNLOAD", "FNSAVE", "FNTOTAL" };
  BlBrWriter *w = bl_br_writer_new ();

  for (guint m = 0; m < G_N_ELEMENTS (modules); m++)
    bl_br_writer_module (w, m + 1, modules[m]);

  for (guint i = 0; i < 400; i++)
    {
      guint m = g_rand_int_range (rand, 0, G_N_ELEMENTS (modules));
      guint32 line = 10 * g_rand_int_range (rand, 1, 30);
      guint64 ns = g_rand_int_range (rand, 1, 100000);
      Tally *t = tally_for (tallies, modules[m], line);

      bl_br_writer_line (w, m + 1, line, 1);
      if (m == 0)
        bl_br_writer_main (w);
      else
        {
          bl_br_writer_function (w, functions[g_rand_int_range (rand, 0, 3)]);
          bl_br_writer_time (w, ns);
          bl_br_writer_backtrace (w, 1, 500, 1);
          bl_br_writer_main (w);
        }
      if (m == 0)
        bl_br_writer_time (w, ns);
      bl_br_writer_end_line (w);

      t->v[CPU] += 1;      /* samples */
      t->v[WALL] += ns;    /* time-ns */
    }

  bytes = bl_br_writer_finish (w);   /* frees the writer */
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);

  {
    g_autofree char *samples = expected_output (tallies, CPU, 0);
    g_autofree char *time_ns = expected_output (tallies, WALL, 0);
    g_autofree char *top3 = expected_output (tallies, WALL, 3);
    g_auto(BlCliRun) a = { 0, }, b = { 0, }, c = { 0, };

    bl_cli_run (&a, "lines", path, "--metric", "samples", NULL);
    g_assert_cmpint (a.status, ==, 0);
    g_assert_cmpstr (a.out, ==, samples);
    bl_cli_run (&b, "lines", path, "--metric", "time-ns", NULL);
    g_assert_cmpstr (b.out, ==, time_ns);
    bl_cli_run (&c, "lines", path, "--top", "3", NULL);   /* the default: time */
    g_assert_cmpstr (c.out, ==, top3);
  }
}

/* A speedscope profile whose frames carry files and lines, built with
 * JsonBuilder; each sample's weight goes to its leaf frame's line. */
static void
test_speedscope (void)
{
  static const struct { const char *name, *file; guint line; } frames[] = {
    { "Main", "pkg:/source/main.brs", 1 },
    { "loop", "pkg:/source/main.brs", 12 },
    { "draw", "pkg:/components/Grid.brs", 40 },
    { "draw2", "pkg:/components/Grid.brs", 40 },     /* the same line, another name */
    { "parse", "/home/dev/grid/source/util/Parser.brs", 7 },
    { "native", "", 0 },                             /* no line */
  };
  g_autoptr(GHashTable) tallies = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                         tally_free);
  g_autofree char *path = g_build_filename (tmpdir, "lines.speedscope.json", NULL);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) weights = g_array_new (FALSE, FALSE, sizeof (guint));
  guint64 total = 0;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "$schema");
  json_builder_add_string_value (b, "https://www.speedscope.app/file-format-schema.json");
  json_builder_set_member_name (b, "shared");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "frames");
  json_builder_begin_array (b);
  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, frames[i].name);
      if (frames[i].line)
        {
          json_builder_set_member_name (b, "file");
          json_builder_add_string_value (b, frames[i].file);
          json_builder_set_member_name (b, "line");
          json_builder_add_int_value (b, frames[i].line);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "profiles");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "sampled");
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, "main");
  json_builder_set_member_name (b, "unit");
  json_builder_add_string_value (b, "none");
  json_builder_set_member_name (b, "startValue");
  json_builder_add_int_value (b, 0);
  json_builder_set_member_name (b, "samples");
  json_builder_begin_array (b);
  for (guint s = 0; s < 300; s++)
    {
      guint depth = g_rand_int_range (rand, 1, 5);
      guint leaf = 0;
      guint weight = g_rand_int_range (rand, 1, 1000);

      json_builder_begin_array (b);
      for (guint d = 0; d < depth; d++)
        {
          leaf = d == 0 ? 0 : g_rand_int_range (rand, 1, G_N_ELEMENTS (frames));
          json_builder_add_int_value (b, leaf);
        }
      json_builder_end_array (b);
      g_array_append_val (weights, weight);
      total += weight;
      if (frames[leaf].line != 0)
        tally_for (tallies, frames[leaf].file, frames[leaf].line)->v[CPU] += weight;
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "weights");
  json_builder_begin_array (b);
  for (guint s = 0; s < weights->len; s++)
    json_builder_add_int_value (b, g_array_index (weights, guint, s));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "endValue");
  json_builder_add_int_value (b, (gint64) total);
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  g_assert_true (json_generator_to_file (gen, path, &error));
  g_assert_no_error (error);

  {
    g_autofree char *expected = expected_output (tallies, CPU, 0);
    g_auto(BlCliRun) a = { 0, }, c = { 0, };

    bl_cli_run (&a, "lines", path, NULL);
    g_assert_cmpint (a.status, ==, 0);
    g_assert_cmpstr (a.out, ==, expected);
    g_assert_nonnull (strstr (a.out, "/home/dev/grid/source/util/Parser.brs:7 "));
    bl_cli_run (&c, "lines", path, "--metric", "weight", NULL);
    g_assert_cmpstr (c.out, ==, expected);
  }
}

static void
test_errors (void)
{
  g_autofree char *missing = g_build_filename (tmpdir, "missing.bsprof", NULL);
  g_autofree char *garbage = g_build_filename (tmpdir, "garbage.bin", NULL);
  g_autofree char *nolines = g_build_filename (tmpdir, "nolines.bsprof", NULL);
  g_auto(BlCliRun) a = { 0, }, b = { 0, }, c = { 0, }, d = { 0, }, e = { 0, }, f = { 0, };
  g_auto(BlCliRun) g = { 0, };
  g_autoptr(GError) error = NULL;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  g_file_set_contents (garbage, "not a profile\n\x01\x02", -1, &error);
  g_assert_no_error (error);

  bl_bsprof_header_init (&h);
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "main");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 3);
  bl_bsprof_writer_cpu (w, 1, 0, 10, 10);
  bl_bsprof_writer_end (w, 1);
  g_assert_true (bl_bsprof_writer_save (w, nolines, &error));
  bl_bsprof_writer_free (w);

  bl_cli_run (&a, "lines", NULL);
  g_assert_cmpint (a.status, ==, 2);
  bl_cli_run (&b, "lines", nolines, "--metric", "bogus", NULL);
  g_assert_cmpint (b.status, ==, 2);
  g_assert_nonnull (strstr (b.err, "bogus"));
  bl_cli_run (&c, "lines", nolines, "--top", "-3", NULL);
  g_assert_cmpint (c.status, ==, 2);
  bl_cli_run (&d, "lines", missing, NULL);
  g_assert_cmpint (d.status, ==, 1);
  g_assert_cmpstr (d.out, ==, "");
  bl_cli_run (&e, "lines", garbage, NULL);
  g_assert_cmpint (e.status, ==, 1);
  /* a profile without line data: nothing printed, a warning, success */
  bl_cli_run (&f, "lines", nolines, NULL);
  g_assert_cmpint (f.status, ==, 0);
  g_assert_cmpstr (f.out, ==, "");
  g_assert_nonnull (strstr (f.err, "per-line"));

  /* calls are counted per path, never per line */
  {
    g_autofree char *sample = g_test_build_filename (G_TEST_DIST, "..", "data", "samples",
                                                     "roku-grid-app.bsprof", NULL);

    bl_cli_run (&g, "lines", sample, "--metric", "calls", NULL);
    g_assert_cmpint (g.status, ==, 0);
    g_assert_cmpstr (g.out, ==, "");
    g_assert_nonnull (strstr (g.err, "calls"));
  }
}

/* The sample: values add up to the CPU total the info command reports. */
static void
test_sample (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples",
                                                 "roku-grid-app.bsprof", NULL);
  g_auto(BlCliRun) run = { 0, }, top = { 0, };
  g_auto(GStrv) lines = NULL;
  g_autofree char *first = NULL;
  guint64 previous = G_MAXUINT64;

  bl_cli_run (&run, "lines", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  lines = g_strsplit (run.out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >, 50);
  g_assert_true (g_str_has_prefix (run.out, "pkg:/"));
  for (guint i = 0; lines[i] && lines[i][0]; i++)
    {
      const char *space = strrchr (lines[i], ' ');
      const char *colon = NULL;
      guint64 value;

      g_assert_nonnull (space);
      g_assert_true (g_str_has_prefix (lines[i], "pkg:/"));
      value = g_ascii_strtoull (space + 1, NULL, 10);
      g_assert_cmpuint (value, >, 0);
      g_assert_cmpuint (value, <=, previous);
      previous = value;
      colon = g_strrstr_len (lines[i], space - lines[i], ":");
      g_assert_nonnull (colon);
      g_assert_cmpuint (g_ascii_strtoull (colon + 1, NULL, 10), >, 0);
    }

  bl_cli_run (&top, "lines", path, "--top", "1", NULL);
  first = g_strconcat (lines[0], "\n", NULL);
  g_assert_cmpstr (top.out, ==, first);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tmpdir = g_dir_make_tmp ("bl-cli-lines-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/cli/lines/random", test_random);
  g_test_add_func ("/cli/lines/business-rules", test_business_rules);
  g_test_add_func ("/cli/lines/speedscope", test_speedscope);
  g_test_add_func ("/cli/lines/errors", test_errors);
  g_test_add_func ("/cli/lines/sample", test_sample);

  status = g_test_run ();

  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmpdir);

    (void) !system (cmd);
  }
  g_free (tmpdir);

  return status;
}
