/* test-devtools.c — Chrome DevTools CPU profiles and sampling heap profiles:
 * speedscope's stacks exactly, Chrome's and Node's own files, hostile input
 *
 * The expected stacks of the writer-made profiles were worked out by hand
 * from speedscope 1.25's importer (src/import/chrome.ts, v8heapalloc.ts)
 * and checked against it with tools/speedscope-peer.js --compare.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bl-cpuprofile-reader.h"
#include "bl-cpuprofile-writer.h"
#include "bl-folded.h"
#include "bl-format.h"
#include "bl-heapprofile-reader.h"
#include "bl-json-reader.h"
#include "bl-model.h"

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* the folded stacks of @metric, one per line, sorted */
static char *
folded (BlProfile  *profile,
        BlMetricId  metric)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint n;

  g_assert_true (bl_folded_write (profile, metric, out, NULL, NULL));
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  text = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));

  lines = g_strsplit (text, "\n", -1);
  n = g_strv_length (lines);
  if (n > 0 && lines[n - 1][0] == '\0')
    {
      g_free (lines[n - 1]);
      lines[--n] = NULL;
    }
  qsort (lines, n, sizeof (char *), compare_lines);

  return n > 0 ? g_strjoinv ("\n", lines) : g_strdup ("");
}

static BlProfile *
load_file (const char  *name,
           GError     **error)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data-files", "devtools",
                                                 name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GObject *loaded = bl_format_load_file (file, NULL, NULL, NULL, error);

  g_assert_true (loaded == NULL || BL_IS_PROFILE (loaded));

  return (BlProfile *) loaded;
}

static char *
expected_folded (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data-files", "devtools",
                                                 "expected", name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) sorted = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  g_strchomp (text);

  return g_steal_pointer (&text);
}

/* Chrome's and Node's own profiles give speedscope's stacks (the expected
 * files are what speedscope 1.25 makes of them, sorted) */
static void
test_real_files (void)
{
  const struct {
    const char *file;
    const char *expected;
    BlMetricId  metric;
    guint64     total;
  } cases[] = {
    { "chrome65-simple.cpuprofile", "chrome65-simple.time-ns.folded", BL_METRIC_TIME_NS, 34345000 },
    { "chrome65-sucrase.cpuprofile", "chrome65-sucrase.time-ns.folded", BL_METRIC_TIME_NS, 0 },
    { "node10-example.cpuprofile", "node10-example.time-ns.folded", BL_METRIC_TIME_NS, 0 },
    { "node20-fib.cpuprofile", "node20-fib.time-ns.folded", BL_METRIC_TIME_NS, 0 },
    { "node20-fib.heapprofile", "node20-fib.alloc-bytes.folded", BL_METRIC_ALLOC_BYTES, 375160 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlProfile) profile = load_file (cases[i].file, &error);
      g_autofree char *got = NULL;
      g_autofree char *want = expected_folded (cases[i].expected);

      g_assert_no_error (error);
      g_assert_nonnull (profile);
      g_assert_false (bl_profile_is_incomplete (profile));
      /* ordinary files open without a warning (node20-fib.heapprofile has
       * samples of nodes its tree does not have, as Node's files do) */
      g_assert_null (bl_profile_get_warning (profile));
      /* the thread is "Main" whatever the file's name (speedscope's is
       * the file name): README, "Chrome DevTools profiles" */
      g_assert_cmpuint (bl_profile_get_n_threads (profile), ==, 1);
      g_assert_cmpstr (bl_profile_get_thread_name (profile, 0), ==, "Main");
      got = folded (profile, cases[i].metric);
      g_assert_cmpstr (got, ==, want);
      if (cases[i].total != 0)
        g_assert_cmpuint (bl_profile_get_grand_total (profile, cases[i].metric), ==,
                          cases[i].total);
      g_assert_true (bl_profile_get_info (profile)->has_lines);
    }
}

static void
test_detect (void)
{
  const struct {
    const char   *json;
    BlFormatKind  kind;
  } cases[] = {
    { "{\"nodes\":[{\"id\":1,\"callFrame\":{}}", BL_FORMAT_CPUPROFILE },
    { "{\"nodes\":[{\"callFrame\":{\"functionName\":\"(root)\"", BL_FORMAT_CPUPROFILE },
    { "{\"startTime\":1,\"nodes\":[],\"samples\":[]}", BL_FORMAT_CPUPROFILE },
    { "{\"head\":{\"functionName\":\"(root)\",\"children\":[]},\"timestamps\":[]}",
      BL_FORMAT_CPUPROFILE },
    { "{\"head\":{\"callFrame\":{},\"selfSize\":0,\"id\":1,\"children\":[]},\"samples\":[]}",
      BL_FORMAT_HEAPPROFILE },
    /* Node 10's format with a head longer than the sniffer looks at, and
     * the sniffer's summary of such a file */
    { "{\"head\":{\"functionName\":\"(root)\",\"url\":\"\",\"lineNumber\":-1,"
      "\"callUID\":1,\"children\":[{", BL_FORMAT_CPUPROFILE },
    { "{\"head\":null,\"startTime\":null,\"endTime\":null,\"samples\":null,"
      "\"timestamps\":null}", BL_FORMAT_CPUPROFILE },
    { "{\"head\":null,\"samples\":null}", BL_FORMAT_UNKNOWN },
    /* a heap snapshot has nodes and samples too, but is neither profile */
    { "{\"snapshot\":{\"meta\":{}},\"nodes\":[0,1,2],\"samples\":[]}", BL_FORMAT_HEAPSNAPSHOT },
    { "{\"nodes\":[1,2,3]}", BL_FORMAT_UNKNOWN },
    { "{\"head\":{\"callFrame\":{}}}", BL_FORMAT_UNKNOWN },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      BlFormatKind kind = bl_format_detect ((const guint8 *) cases[i].json,
                                            strlen (cases[i].json), FALSE);

      g_test_message ("%s", cases[i].json);
      g_assert_cmpint (kind, ==, cases[i].kind);
    }
}

/* The profile worked out in the header of this file's checks: nodes listed
 * before their parents, "(program)" and "(garbage collector)" on top of the
 * previous stack, "(idle)" with no stack, a negative delta, an anonymous
 * function, the last sample lasting nothing. */
static const BlCpuNode rules_nodes[] = {
  { "5", "c", "https://x/app.js", 9, 4, NULL, NULL },
  { "1", "(root)", "", -1, -1, "2,3,4,6,7", NULL },
  { "2", "(program)", "", -1, -1, NULL, NULL },
  { "3", "(idle)", "", -1, -1, NULL, NULL },
  { "4", "(garbage collector)", "", -1, -1, NULL, NULL },
  { "6", "a", "https://x/app.js", 0, 0, "5,8", NULL },
  { "7", "", "https://x/lib/util.js", 41, 2, NULL, NULL },
  { "8", "b", "https://x/app.js", 4, 2, NULL, NULL },
};
static const char *rules_samples = "6,6,5,5,2,8,4,3,3,7,5,8";
static const char *rules_deltas = "100,10,20,30,40,50,60,-30,70,80,90,100";

static const char *rules_time =
  "Main;(anonymous util.js:42) 90000\n"
  "Main;a 30000\n"
  "Main;a;b 60000\n"
  "Main;a;c 170000\n"
  "Main;a;c;(program) 50000";
static const char *rules_samples_folded =
  "Main;(anonymous util.js:42) 1\n"
  "Main;a 2\n"
  "Main;a;b 2\n"
  "Main;a;b;(garbage collector) 1\n"
  "Main;a;c 3\n"
  "Main;a;c;(program) 1";

static BlProfile *
read_bytes (GBytes  *bytes,
            GError **error)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  return bl_cpuprofile_read_memory (data, len, error);
}

static void
check_rules (BlProfile *profile)
{
  g_autofree char *time = folded (profile, BL_METRIC_TIME_NS);
  g_autofree char *samples = folded (profile, BL_METRIC_SAMPLES);
  const BlOrderedSample *order;
  gsize n_order;

  g_assert_cmpstr (time, ==, rules_time);
  g_assert_cmpstr (samples, ==, rules_samples_folded);
  g_assert_cmpint (bl_profile_get_default_metric (profile), ==, BL_METRIC_TIME_NS);
  g_assert_null (bl_profile_get_warning (profile));

  /* the time order: the runs with a duration, in sample order */
  order = bl_profile_get_samples (profile, 0, &n_order);
  g_assert_cmpuint (n_order, ==, 6);
  g_assert_cmpuint (order[0].weight, ==, 30000);
  g_assert_cmpstr (bl_profile_get_node_name (profile, order[0].node), ==, "a");
  g_assert_cmpuint (order[2].weight, ==, 50000);
  g_assert_cmpstr (bl_profile_get_node_name (profile, order[2].node), ==, "(program)");
  g_assert_cmpuint (order[5].weight, ==, 100000);
  g_assert_cmpstr (bl_profile_get_node_name (profile, order[5].node), ==, "c");
}

static void
test_cpuprofile_rules (void)
{
  g_autoptr(GBytes) bytes = bl_cpuprofile_write (rules_nodes, G_N_ELEMENTS (rules_nodes),
                                                 rules_samples, rules_deltas, FALSE);
  g_autoptr(GBytes) last = bl_cpuprofile_write (rules_nodes, G_N_ELEMENTS (rules_nodes),
                                                rules_samples, rules_deltas, TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = read_bytes (bytes, &error);
  g_autoptr(BlProfile) profile_last = NULL;
  g_autoptr(GObject) sniffed = NULL;
  const BlFrame *frame;
  guint32 frame_id;

  g_assert_no_error (error);
  check_rules (profile);

  /* frames: lines and columns 1-based, file = url */
  for (guint32 n = 0; n < bl_profile_get_n_nodes (profile); n++)
    if (g_strcmp0 (bl_profile_get_node_name (profile, n), "c") == 0)
      {
        frame_id = bl_profile_get_node_frame (profile, n);
        frame = bl_profile_get_frame (profile, frame_id);
        g_assert_cmpuint (frame->line, ==, 10);
        g_assert_cmpuint (frame->col, ==, 5);
        g_assert_cmpstr (bl_profile_get_node_file (profile, n), ==, "https://x/app.js");
      }
  g_assert_cmpuint (bl_profile_get_n_lines (profile), >, 0);

  /* members in another order: the same */
  profile_last = read_bytes (last, &error);
  g_assert_no_error (error);
  check_rules (profile_last);

  /* through the sniffer */
  sniffed = bl_format_load_bytes (bytes, &error);
  g_assert_no_error (error);
  g_assert_true (BL_IS_PROFILE (sniffed));
  g_assert_cmpstr (bl_profile_get_info (BL_PROFILE (sniffed))->format, ==, "cpuprofile");
}

/* older Node: parents by id instead of children lists */
static void
test_cpuprofile_parent_ids (void)
{
  const BlCpuNode nodes[] = {
    { "5", "c", "https://x/app.js", 9, 4, NULL, "6" },
    { "1", "(root)", "", -1, -1, NULL, NULL },
    { "2", "(program)", "", -1, -1, NULL, "1" },
    { "3", "(idle)", "", -1, -1, NULL, "1" },
    { "4", "(garbage collector)", "", -1, -1, NULL, "1" },
    { "6", "a", "https://x/app.js", 0, 0, NULL, "1" },
    { "7", "", "https://x/lib/util.js", 41, 2, NULL, "1" },
    { "8", "b", "https://x/app.js", 4, 2, NULL, "6" },
  };
  g_autoptr(GBytes) bytes = bl_cpuprofile_write (nodes, G_N_ELEMENTS (nodes), rules_samples,
                                                 rules_deltas, FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = read_bytes (bytes, &error);

  g_assert_no_error (error);
  check_rules (profile);
}

static BlProfile *
read_nodes (const BlCpuNode *nodes,
            guint            n_nodes,
            const char      *samples,
            const char      *deltas)
{
  g_autoptr(GBytes) bytes = bl_cpuprofile_write (nodes, n_nodes, samples, deltas, FALSE);
  g_autoptr(GError) error = NULL;
  BlProfile *profile = read_bytes (bytes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (profile);

  return profile;
}

static void
test_cpuprofile_hostile_ids (void)
{
  /* duplicate ids: the last listed wins; any number is an id, as in
   * speedscope; a sample of an unknown node leaves the stack as it is */
  const BlCpuNode dup[] = {
    { "1", "(root)", "", -1, -1, "2,3", NULL },
    { "2", "first", "", 0, 0, NULL, NULL },
    { "2", "second", "", 0, 0, NULL, NULL },
    { "3", "x", "", 0, 0, "1e30,-5,4294967295,2.5", NULL },
    { "1e30", "huge", "", 0, 0, NULL, NULL },
    { "-5", "negative", "", 0, 0, NULL, NULL },
    { "4294967295", "max", "", 0, 0, NULL, NULL },
  };
  /* cycles: 10 → 11 → 10, and a node that is its own child */
  const BlCpuNode cycle[] = {
    { "1", "(root)", "", -1, -1, "10", NULL },
    { "10", "p", "", 0, 0, "11", NULL },
    { "11", "q", "", 0, 0, "10,12", NULL },
    { "12", "r", "", 0, 0, "12", NULL },
  };
  g_autoptr(BlProfile) a = read_nodes (dup, G_N_ELEMENTS (dup), "2,99,3,1e30,2", "0,10,20,30,40");
  g_autoptr(BlProfile) b = NULL;
  g_autofree char *fa = folded (a, BL_METRIC_TIME_NS);
  g_autofree char *fb = NULL;

  /* 2 (second) 10 µs, then 99 unknown: second keeps 20 more; 3 (x) 30,
   * then 1e30 (huge, x's child) 40; the last sample lasts nothing */
  g_assert_cmpstr (fa, ==, "Main;second 30000\nMain;x 30000\n"
                           "Main;x;huge 40000");
  g_assert_nonnull (bl_profile_get_warning (a));
  g_assert_nonnull (strstr (bl_profile_get_warning (a), "1 sample names a node"));

  b = read_nodes (cycle, G_N_ELEMENTS (cycle), "12,11,12,10", "0,5,5,5");
  fb = folded (b, BL_METRIC_TIME_NS);
  g_assert_nonnull (bl_profile_get_warning (b));
  g_assert_nonnull (strstr (bl_profile_get_warning (b), "cycle"));
  /* every sample's time is somewhere: 15 µs in all */
  g_assert_cmpuint (bl_profile_get_grand_total (b, BL_METRIC_TIME_NS), ==, 15000);
  g_test_message ("%s", fb);
}

static void
test_cpuprofile_hostile_numbers (void)
{
  const BlCpuNode nodes[] = {
    { "1", "(root)", "", -1, -1, "2,3", NULL },
    { "2", "a", "https://x/a.js", 2147483647, 2147483647, NULL, NULL },
    { "3", "b", "", -2147483647, 0, NULL, NULL },
  };
  g_autoptr(BlProfile) huge = read_nodes (nodes, G_N_ELEMENTS (nodes), "2,3,2,3,2",
                                          "0,1e300,-1e300,9007199254740993,1.5e308");
  g_autoptr(BlProfile) fewer = read_nodes (nodes, G_N_ELEMENTS (nodes), "2,3,2,3,2", "10,20");
  g_autoptr(BlProfile) more = read_nodes (nodes, G_N_ELEMENTS (nodes), "2,3", "10,20,30,40");
  g_autoptr(BlProfile) none = read_nodes (nodes, G_N_ELEMENTS (nodes), "", "");
  g_autofree char *ff = folded (fewer, BL_METRIC_TIME_NS);
  g_autofree char *fm = folded (more, BL_METRIC_TIME_NS);

  /* huge times saturate instead of wrapping */
  g_assert_cmpuint (bl_profile_get_grand_total (huge, BL_METRIC_TIME_NS), >, 0);
  g_assert_cmpuint (bl_profile_get_grand_total (huge, BL_METRIC_SAMPLES), ==, 5);

  /* fewer times than samples: the samples that have one */
  g_assert_cmpstr (ff, ==, "Main;a 20000");
  g_assert_nonnull (strstr (bl_profile_get_warning (fewer), "5 samples but 2 times"));
  g_assert_cmpstr (fm, ==, "Main;a 20000");
  g_assert_null (bl_profile_get_warning (more));
  g_assert_cmpuint (bl_profile_get_grand_total (none, BL_METRIC_TIME_NS), ==, 0);
}

static void
test_cpuprofile_errors (void)
{
  const struct {
    const char *json;
    GQuark      domain;
    gint        code;
  } cases[] = {
    { "3", BL_CPUPROFILE_ERROR, BL_CPUPROFILE_ERROR_NOT_CPUPROFILE },
    /* an array is a trace's events: none is a Profile */
    { "[]", BL_CPUPROFILE_ERROR, BL_CPUPROFILE_ERROR_MISSING },
    { "{\"samples\":[1],\"timeDeltas\":[1]}", BL_CPUPROFILE_ERROR, BL_CPUPROFILE_ERROR_MISSING },
    { "{\"nodes\":[{\"id\":1}],\"samples\":[1]}", BL_CPUPROFILE_ERROR,
      BL_CPUPROFILE_ERROR_MISSING },
    { "{\"nodes\":{}}", BL_CPUPROFILE_ERROR, BL_CPUPROFILE_ERROR_BAD_VALUE },
    { "{\"nodes\":[{\"id\":\"1\"}]}", BL_CPUPROFILE_ERROR, BL_CPUPROFILE_ERROR_BAD_VALUE },
    { "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":3}}]}", BL_CPUPROFILE_ERROR,
      BL_CPUPROFILE_ERROR_BAD_VALUE },
    { "{\"nodes\":[],\"samples\":[\"x\"]}", BL_CPUPROFILE_ERROR,
      BL_CPUPROFILE_ERROR_BAD_VALUE },
    { "{\"nodes\":[],\"timeDeltas\":[true]}", BL_CPUPROFILE_ERROR,
      BL_CPUPROFILE_ERROR_BAD_VALUE },
    { "{\"head\":{\"children\":[3]}}", BL_CPUPROFILE_ERROR, BL_CPUPROFILE_ERROR_BAD_VALUE },
    { "{\"nodes\":[]", BL_JSON_ERROR, BL_JSON_ERROR_TRUNCATED },
    { "{\"nodes\":[]} x", BL_JSON_ERROR, BL_JSON_ERROR_SYNTAX },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlProfile) profile = bl_cpuprofile_read_memory ((const guint8 *) cases[i].json,
                                                                strlen (cases[i].json),
                                                                &error);

      g_test_message ("%s: %s", cases[i].json, error ? error->message : "(no error)");
      g_assert_null (profile);
      g_assert_error (error, cases[i].domain, cases[i].code);
      /* one sentence */
      g_assert_true (g_str_has_suffix (error->message, "."));
      g_assert_null (strchr (error->message, '\n'));
    }
}

/* every prefix: an error of ours, or what was complete, marked incomplete */
static void
check_prefixes (GBytes     *bytes,
                BlProfile *(*read) (const guint8 *, gsize, GError **),
                GQuark      domain,
                BlMetricId  metric)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  guint n_partial = 0;
  guint64 last_total = 0;

  for (gsize cut = 0; cut < len; cut++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlProfile) profile = read (data, cut, &error);

      if (profile == NULL)
        {
          g_assert_nonnull (error);
          g_assert_true (error->domain == domain || error->domain == BL_JSON_ERROR);
          continue;
        }
      g_assert_no_error (error);
      g_assert_true (bl_profile_is_incomplete (profile));
      g_assert_nonnull (strstr (bl_profile_get_incomplete_reason (profile), "ends early"));
      last_total = bl_profile_get_grand_total (profile, metric);
      n_partial++;
    }
  g_assert_cmpuint (n_partial, >, 0);
  /* shortly before the end, nearly everything is there */
  g_assert_cmpuint (last_total, >, 0);
}

static void
test_cpuprofile_truncated (void)
{
  g_autoptr(GBytes) bytes = bl_cpuprofile_write (rules_nodes, G_N_ELEMENTS (rules_nodes),
                                                 rules_samples, rules_deltas, FALSE);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data-files", "devtools",
                                                 "node10-example.cpuprofile", NULL);
  g_autofree char *old = NULL;
  gsize old_len;
  g_autoptr(GBytes) old_bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) cut = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  check_prefixes (bytes, bl_cpuprofile_read_memory, BL_CPUPROFILE_ERROR, BL_METRIC_TIME_NS);

  g_assert_true (g_file_get_contents (path, &old, &old_len, NULL));
  old_bytes = g_bytes_new_take (g_steal_pointer (&old), old_len);
  check_prefixes (old_bytes, bl_cpuprofile_read_memory, BL_CPUPROFILE_ERROR,
                  BL_METRIC_TIME_NS);

  /* cut inside timeDeltas: the samples that have a time are shown */
  cut = bl_cpuprofile_read_memory (data, len - 6, &error);
  g_assert_no_error (error);
  g_assert_true (bl_profile_is_incomplete (cut));
  g_assert_nonnull (strstr (bl_profile_get_incomplete_reason (cut), "the 8 complete nodes"));
}

/* A deep chain, listed child first, whose deepest node alternates with
 * idle: the work is bounded, and the first samples are kept. */
static void
test_cpuprofile_deep_alternation (void)
{
  const guint depth = 20000, n_samples = 200000;
  GString *json = g_string_new ("{\"nodes\":[");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  gint64 t0;

  for (guint i = depth; i >= 2; i--)
    g_string_append_printf (json, "{\"id\":%u,\"callFrame\":{\"functionName\":\"f%u\"},"
                            "\"children\":[%u]},", i, i % 100, i + 1);
  g_string_append_printf (json, "{\"id\":%u,\"callFrame\":{\"functionName\":\"leaf\"}},"
                          "{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"},"
                          "\"children\":[2,%u]},"
                          "{\"id\":%u,\"callFrame\":{\"functionName\":\"(idle)\"}}],"
                          "\"samples\":[", depth + 1, depth + 2, depth + 2);
  for (guint s = 0; s < n_samples; s++)
    g_string_append_printf (json, s > 0 ? ",%u" : "%u", s % 2 == 0 ? depth + 1 : depth + 2);
  g_string_append (json, "],\"timeDeltas\":[");
  for (guint s = 0; s < n_samples; s++)
    g_string_append (json, s > 0 ? ",1" : "1");
  g_string_append (json, "]}");
  bytes = g_string_free_to_bytes (json);

  t0 = g_get_monotonic_time ();
  profile = read_bytes (bytes, &error);
  g_assert_no_error (error);
  g_test_message ("%.2f s", (g_get_monotonic_time () - t0) / 1e6);
  g_assert_nonnull (profile);
  g_assert_cmpuint (bl_profile_get_n_nodes (profile), ==, depth + 1);
  g_assert_nonnull (strstr (bl_profile_get_warning (profile), "too deeply"));
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_TIME_NS), >, 0);
}

static glong
max_rss_kb (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);

  return usage.ru_maxrss;
}

typedef struct
{
  int     fd;
  guint   n_nodes;
} ShapeJob;

static gpointer
write_shape_thread (gpointer data)
{
  ShapeJob *job = data;
  g_autoptr(GOutputStream) out = g_unix_output_stream_new (job->fd, TRUE);

  /* the reader may stop early: a broken pipe is not a failure here */
  bl_cpuprofile_write_shape (out, job->n_nodes, 60, 200000, 7, NULL);
  g_output_stream_close (out, NULL, NULL);

  return NULL;
}

/* A million nodes, streamed through a pipe (the input is never in memory):
 * read in memory linear in them */
static void
test_cpuprofile_many_nodes (void)
{
  ShapeJob job = { -1, 1000000 };
  int fds[2];
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  GThread *thread;
  glong rss_before;

  g_assert_cmpint (pipe (fds), ==, 0);
  job.fd = fds[1];
  in = g_unix_input_stream_new (fds[0], TRUE);
  rss_before = max_rss_kb ();
  thread = g_thread_new ("shape", write_shape_thread, &job);
  profile = bl_cpuprofile_read_stream (in, 0, NULL, NULL, NULL, &error);
  g_thread_join (thread);
  g_assert_no_error (error);
  g_assert_nonnull (profile);
  g_assert_false (bl_profile_is_incomplete (profile));
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_SAMPLES), >, 150000);
  g_test_message ("peak RSS grew by %ld MB", (max_rss_kb () - rss_before) >> 10);
  /* a few hundred bytes a node at most */
  g_assert_cmpint (max_rss_kb () - rss_before, <, 400 * 1024);
}

/* ---- Chrome traces (Trace Event JSON) ---------------------------------------- */

/* The rules profile again, as Chrome's ProfileChunks give it: nodes naming
 * their parents, in two chunks, each with its share of samples and deltas */
static const BlCpuNode trace_nodes_1[] = {
  { "1", "(root)", "", -1, -1, NULL, NULL },
  { "2", "(program)", "", -1, -1, NULL, "1" },
  { "3", "(idle)", "", -1, -1, NULL, "1" },
  { "4", "(garbage collector)", "", -1, -1, NULL, "1" },
  { "6", "a", "https://x/app.js", 0, 0, NULL, "1" },
};
static const BlCpuNode trace_nodes_2[] = {
  { "7", "", "https://x/lib/util.js", 41, 2, NULL, "1" },
  { "5", "c", "https://x/app.js", 9, 4, NULL, "6" },
  { "8", "b", "https://x/app.js", 4, 2, NULL, "6" },
};

/* BL_SAVE_FIXTURES=DIR saves the traces of these tests there, for a
 * comparison with speedscope's importer (tools/speedscope-peer.js
 * --compare; README, "Chrome traces") */
static void
save_fixture (GBytes     *bytes,
              const char *name)
{
  const char *dir = g_getenv ("BL_SAVE_FIXTURES");
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;
  path = g_build_filename (dir, name, NULL);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      g_bytes_get_size (bytes), NULL));
}

static BlProfile *
read_trace (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  BlProfile *profile = read_bytes (bytes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (profile);
  g_assert_cmpstr (bl_profile_get_info (profile)->format, ==, "chrome-trace");

  return profile;
}

/* the rules trace: events out of time order in the file, an event of
 * something else with args.data, a chunk of an id with no Profile */
static GBytes *
write_rules_trace (BlTraceForm form)
{
  g_autofree char *chunk_1 = bl_trace_chunk_args (trace_nodes_1, G_N_ELEMENTS (trace_nodes_1),
                                                  "6,6,5,5,2,8", "100,10,20,30,40,50");
  g_autofree char *chunk_2 = bl_trace_chunk_args (trace_nodes_2, G_N_ELEMENTS (trace_nodes_2),
                                                  "4,3,3,7,5,8", "60,-30,70,80,90,100");
  g_autofree char *orphan = bl_trace_chunk_args (trace_nodes_2, 1, "7,7", "1,1");
  const BlTraceEvent events[] = {
    { "thread_name", "10", "7", NULL, "0", "{\"name\":\"CrRendererMain\"}" },
    { "ProfileChunk", "10", "7", "\"0x1\"", "300", chunk_2 },
    { "FunctionCall", "10", "7", NULL, "150", "{\"data\":{\"frame\":\"F1\",\"url\":\"x\"}}" },
    { "Profile", "10", "7", "\"0x1\"", "100", "{\"data\":{\"startTime\":100}}" },
    { "ProfileChunk", "10", "7", "\"0x1\"", "200", chunk_1 },
    { "ProfileChunk", "10", "7", "\"0x9\"", "250", orphan },
    { "thread_name", "10", "8", NULL, "0", "{\"name\":\"Compositor\"}" },
  };

  return bl_trace_write (events, G_N_ELEMENTS (events), form);
}

static void
test_trace_rules (void)
{
  const BlTraceForm forms[] = { BL_TRACE_ARRAY, BL_TRACE_OBJECT, BL_TRACE_OPEN_END };
  const char *names[] = { "rules-array.json", "rules-object.json", "rules-open-end.json" };
  g_autoptr(GBytes) cpuprofile = bl_cpuprofile_write (rules_nodes, G_N_ELEMENTS (rules_nodes),
                                                      rules_samples, rules_deltas, FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) plain = read_bytes (cpuprofile, &error);
  g_autofree char *plain_time = folded (plain, BL_METRIC_TIME_NS);
  g_autofree char *plain_samples = folded (plain, BL_METRIC_SAMPLES);

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      g_autoptr(GBytes) bytes = write_rules_trace (forms[i]);
      g_autoptr(BlProfile) profile = read_trace (bytes);
      g_autofree char *time = folded (profile, BL_METRIC_TIME_NS);
      g_autofree char *samples = folded (profile, BL_METRIC_SAMPLES);
      g_autofree char *want_time = NULL;
      g_autofree char *want_samples = NULL;
      g_auto(GStrv) split = NULL;

      save_fixture (bytes, names[i]);
      /* the .cpuprofile's stacks, in the thread thread_name names */
      split = g_strsplit (plain_time, "Main;", -1);
      want_time = g_strjoinv ("CrRendererMain;", split);
      g_clear_pointer (&split, g_strfreev);
      split = g_strsplit (plain_samples, "Main;", -1);
      want_samples = g_strjoinv ("CrRendererMain;", split);
      g_assert_cmpstr (time, ==, want_time);
      g_assert_cmpstr (samples, ==, want_samples);
      g_assert_cmpuint (bl_profile_get_n_threads (profile), ==, 1);
      g_assert_cmpstr (bl_profile_get_thread_name (profile, 0), ==, "CrRendererMain");
      /* the open end is the format's, not a cut */
      g_assert_false (bl_profile_is_incomplete (profile));
      g_assert_nonnull (strstr (bl_profile_get_warning (profile),
                                "1 “ProfileChunk” event comes before any “Profile”"));
      g_assert_true (bl_profile_get_info (profile)->has_lines);
    }
}

/* profiles apart by pid and id (speedscope merges two processes' "0x1";
 * DevTools does not), a Profile starting its profile over, a thread with
 * no thread_name, ids and pids as strings or numbers */
static void
check_trace_profiles (const char *worker_id,
                      const char *fixture)
{
  const BlCpuNode main_nodes[] = {
    { "1", "(root)", "", -1, -1, NULL, NULL },
    { "2", "main", "file:///app/main.js", 3, 0, NULL, "1" },
    { "3", "draw", "file:///app/main.js", 10, 2, NULL, "2" },
  };
  const BlCpuNode worker_nodes[] = {
    { "1", "(root)", "", -1, -1, NULL, NULL },
    { "2", "work", "file:///app/worker.js", 0, 0, NULL, "1" },
  };
  g_autofree char *early = bl_trace_chunk_args (main_nodes, 2, "2,2", "0,5");
  g_autofree char *late = bl_trace_chunk_args (main_nodes, G_N_ELEMENTS (main_nodes),
                                               "2,3,3,2", "1000,10,20,30");
  g_autofree char *work = bl_trace_chunk_args (worker_nodes, G_N_ELEMENTS (worker_nodes),
                                               "2,1,2", "0,7,7");
  const BlTraceEvent events[] = {
    { "thread_name", "1", "1", NULL, "0", "{\"name\":\"CrRendererMain\"}" },
    { "Profile", "1", "1", "\"0x1\"", "10", "{\"data\":{\"startTime\":10}}" },
    { "ProfileChunk", "1", "1", "\"0x1\"", "20", early },
    { "Profile", "2", "5", worker_id, "15", "{\"data\":{\"startTime\":15}}" },
    /* starts pid 1's profile over: the early chunk is dropped */
    { "Profile", "1", "1", "\"0x1\"", "30", "{\"data\":{\"startTime\":30}}" },
    { "ProfileChunk", "1", "1", "\"0x1\"", "40", late },
    { "ProfileChunk", "\"2\"", "5", worker_id, "40", work },
  };
  g_autoptr(GBytes) bytes = bl_trace_write (events, G_N_ELEMENTS (events), BL_TRACE_OBJECT);
  g_autoptr(BlProfile) profile = read_trace (bytes);
  g_autofree char *time = folded (profile, BL_METRIC_TIME_NS);

  save_fixture (bytes, fixture);
  g_assert_cmpuint (bl_profile_get_n_threads (profile), ==, 2);
  /* in the order of their first Profile event */
  g_assert_cmpstr (bl_profile_get_thread_name (profile, 0), ==, "CrRendererMain");
  g_assert_cmpstr (bl_profile_get_thread_name (profile, 1), ==, "Thread 2:5");
  g_assert_cmpstr (time, ==,
                   "CrRendererMain;main 10000\n"
                   "CrRendererMain;main;draw 50000\n"
                   "Thread 2:5;work 7000");
  g_assert_null (bl_profile_get_warning (profile));
}

static void
test_trace_profiles (void)
{
  /* speedscope agrees when the ids differ, and merges the two when both
   * are "0x1" */
  check_trace_profiles ("\"0x1\"", "profiles-same-id.json");
  check_trace_profiles ("\"0x2\"", "profiles.json");
}

static void
test_trace_detect (void)
{
  g_autoptr(GBytes) array = write_rules_trace (BL_TRACE_ARRAY);
  g_autoptr(GBytes) object = write_rules_trace (BL_TRACE_OBJECT);
  const struct {
    const char   *json;
    BlFormatKind  kind;
  } cases[] = {
    { "[{\"pid\":1,\"tid\":1,\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"0x1\"}]",
      BL_FORMAT_CPUPROFILE },
    { "{\"metadata\":{\"x\":[1,2]},\"traceEvents\":[{\"ph\":\"M\",\"name\":\"thread_name\"},"
      "{\"ph\":\"P\",\"name\":\"ProfileChunk\"", BL_FORMAT_CPUPROFILE },
    /* traces of other things are not this reader's */
    { "[{\"pid\":1,\"tid\":1,\"ph\":\"X\",\"name\":\"RunTask\",\"ts\":0}]", BL_FORMAT_UNKNOWN },
    { "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"Profiles\"}]}", BL_FORMAT_UNKNOWN },
    /* not events */
    { "[{\"name\":\"Profile\"}]", BL_FORMAT_UNKNOWN },
    { "[1,2,3]", BL_FORMAT_UNKNOWN },
    { "{\"traceEvents\":{\"name\":\"Profile\",\"ph\":\"P\"}}", BL_FORMAT_UNKNOWN },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("%s", cases[i].json);
      g_assert_cmpint (bl_format_detect ((const guint8 *) cases[i].json,
                                         strlen (cases[i].json), FALSE), ==, cases[i].kind);
    }
  g_assert_cmpint (bl_format_detect (g_bytes_get_data (array, NULL),
                                     g_bytes_get_size (array), TRUE), ==, BL_FORMAT_CPUPROFILE);
  g_assert_cmpint (bl_format_detect (g_bytes_get_data (object, NULL),
                                     g_bytes_get_size (object), TRUE), ==, BL_FORMAT_CPUPROFILE);
}

/* Chrome's own traces (speedscope's samples, gzipped): speedscope's stacks,
 * thread by thread; Profile and ProfileChunk events (Chrome 69, 70, 116,
 * and 141's DevTools export, whose first Profile has no data) and Chrome
 * 66's CpuProfile events */
static void
test_trace_real_files (void)
{
  const struct {
    const char *file;
    const char *expected;
    const char *threads;
  } cases[] = {
    { "chrome66-worker.json.gz", "chrome66-worker.time-ns.folded",
      "CrRendererMain,DedicatedWorker thread" },
    { "chrome69-simple.json.gz", "chrome69-simple.time-ns.folded", "CrRendererMain" },
    { "chrome70-worker.json.gz", "chrome70-worker.time-ns.folded",
      "CrRendererMain,DedicatedWorker thread" },
    { "chrome116-trace.json.gz", "chrome116-trace.time-ns.folded", "CrRendererMain" },
    { "chrome141-no-arg-data.json.gz", "chrome141-no-arg-data.time-ns.folded",
      "CrRendererMain" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlProfile) profile = load_file (cases[i].file, &error);
      g_autofree char *got = NULL;
      g_autofree char *want = expected_folded (cases[i].expected);
      g_autoptr(GString) threads = g_string_new (NULL);

      g_test_message ("%s", cases[i].file);
      g_assert_no_error (error);
      g_assert_nonnull (profile);
      g_assert_false (bl_profile_is_incomplete (profile));
      g_assert_cmpstr (bl_profile_get_info (profile)->format, ==, "chrome-trace");
      for (guint t = 0; t < bl_profile_get_n_threads (profile); t++)
        g_string_append_printf (threads, t > 0 ? ",%s" : "%s",
                                bl_profile_get_thread_name (profile, t));
      g_assert_cmpstr (threads->str, ==, cases[i].threads);
      got = folded (profile, BL_METRIC_TIME_NS);
      g_assert_cmpstr (got, ==, want);
      g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_SAMPLES), >, 200);
    }
}

static void
test_trace_hostile (void)
{
  g_autoptr(GBytes) bytes = write_rules_trace (BL_TRACE_ARRAY);
  const struct {
    const char *json;
    gint        code;
  } cases[] = {
    { "[]", BL_CPUPROFILE_ERROR_MISSING },
    { "{\"traceEvents\":[]}", BL_CPUPROFILE_ERROR_MISSING },
    { "[{\"name\":\"ProfileChunk\",\"id\":\"0x1\"}]", BL_CPUPROFILE_ERROR_MISSING },
    { "[1]", BL_CPUPROFILE_ERROR_BAD_VALUE },
    { "{\"traceEvents\":{}}", BL_CPUPROFILE_ERROR_BAD_VALUE },
    { "[{\"name\":\"ProfileChunk\",\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":{}}}}}]",
      BL_CPUPROFILE_ERROR_BAD_VALUE },
    { "[{\"name\":\"ProfileChunk\",\"args\":{\"data\":{\"cpuProfile\":[]}}}]",
      BL_CPUPROFILE_ERROR_BAD_VALUE },
    { "[{\"name\":\"ProfileChunk\",\"args\":{\"data\":{\"timeDeltas\":[\"x\"]}}}]",
      BL_CPUPROFILE_ERROR_BAD_VALUE },
  };
  /* ids and counts that claim ten million nodes; samples past the deltas;
   * pids, tids and ids of every JSON kind */
  const char *claims =
    "[{\"name\":\"Profile\",\"id\":1e300,\"pid\":[1],\"tid\":{\"a\":1},\"ts\":\"x\"},"
    "{\"name\":\"ProfileChunk\",\"id\":1e300,\"pid\":[2],\"tid\":null,\"args\":{\"data\":"
    "{\"cpuProfile\":{\"nodes\":[{\"id\":10000000,\"callFrame\":{\"functionName\":\"a\"},"
    "\"parent\":9999999}],\"samples\":[10000000,10000000,9999999]},\"timeDeltas\":[5,5]}}}]";
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  guint n_partial = 0;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) case_error = NULL;
      g_autoptr(BlProfile) p = bl_cpuprofile_read_memory ((const guint8 *) cases[i].json,
                                                          strlen (cases[i].json), &case_error);

      g_test_message ("%s: %s", cases[i].json, case_error ? case_error->message : "-");
      g_assert_null (p);
      g_assert_error (case_error, BL_CPUPROFILE_ERROR, cases[i].code);
      g_assert_true (g_str_has_suffix (case_error->message, "."));
      g_assert_null (strchr (case_error->message, '\n'));
    }

  profile = bl_cpuprofile_read_memory ((const guint8 *) claims, strlen (claims), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (bl_profile_get_n_nodes (profile), ==, 2);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_SAMPLES), ==, 2);
  g_assert_nonnull (strstr (bl_profile_get_warning (profile), "3 samples but 2 times"));

  /* every cut: an error of one sentence, or the events before it (said to
   * be incomplete when the cut is inside an event) */
  for (gsize cut = 0; cut < len; cut++)
    {
      g_autoptr(GError) cut_error = NULL;
      g_autoptr(BlProfile) p = bl_cpuprofile_read_memory (data, cut, &cut_error);

      g_assert_true ((p == NULL) != (cut_error == NULL));
      if (p == NULL)
        {
          g_assert_null (strchr (cut_error->message, '\n'));
          continue;
        }
      if (bl_profile_is_incomplete (p))
        {
          g_assert_nonnull (strstr (bl_profile_get_incomplete_reason (p), "ends early"));
          n_partial++;
        }
    }
  g_assert_cmpuint (n_partial, >, 0);
}

/* ---- heap profiles -------------------------------------------------------- */

static const BlHeapNode heap_nodes[] = {
  { 0, "(root)", "", -1, -1, "0", "1" },
  { 1, "main", "file:///app/main.js", 2, 0, "100", "2" },
  { 2, "", "file:///app/lib/make.js", 9, 4, "4096", "3" },
  { 2, "load", "file:///app/main.js", 20, 2, "0", "4" },
  { 3, "", "file:///app/lib/make.js", 9, 4, "32768", "5" },
  { 1, "(V8 API)", "", -1, -1, "512", "6" },
};
static const char *heap_samples =
  "{\"size\":4096,\"nodeId\":3,\"ordinal\":1},{\"size\":16384,\"nodeId\":5,\"ordinal\":2},"
  "{\"size\":16384,\"nodeId\":5,\"ordinal\":3},{\"size\":100,\"nodeId\":2,\"ordinal\":4},"
  "{\"size\":512,\"nodeId\":6,\"ordinal\":5},{\"size\":64,\"nodeId\":77,\"ordinal\":6}";

static BlProfile *
read_heap (GBytes  *bytes,
           GError **error)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  return bl_heapprofile_read_memory (data, len, error);
}

static void
test_heapprofile (void)
{
  g_autoptr(GBytes) bytes = bl_heapprofile_write (heap_nodes, G_N_ELEMENTS (heap_nodes),
                                                  heap_samples);
  g_autoptr(GBytes) no_samples = bl_heapprofile_write (heap_nodes, G_N_ELEMENTS (heap_nodes),
                                                       NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = read_heap (bytes, &error);
  g_autoptr(BlProfile) bare = NULL;
  g_autoptr(GObject) sniffed = NULL;
  g_autofree char *bytes_folded = NULL;
  g_autofree char *count_folded = NULL;

  g_assert_no_error (error);
  bytes_folded = folded (profile, BL_METRIC_ALLOC_BYTES);
  count_folded = folded (profile, BL_METRIC_ALLOC_COUNT);
  /* speedscope's stacks keep "(root)"; an anonymous function is named
   * after its file and its line as in the file */
  g_assert_cmpstr (bytes_folded, ==,
                   "Main;(root);(V8 API) 512\n"
                   "Main;(root);main 100\n"
                   "Main;(root);main;(anonymous make.js:9) 4096\n"
                   "Main;(root);main;load;(anonymous make.js:9) 32768");
  g_assert_cmpstr (count_folded, ==,
                   "Main;(root);(V8 API) 1\n"
                   "Main;(root);main 1\n"
                   "Main;(root);main;(anonymous make.js:9) 1\n"
                   "Main;(root);main;load;(anonymous make.js:9) 2");
  g_assert_cmpint (bl_profile_get_default_metric (profile), ==, BL_METRIC_ALLOC_BYTES);
  g_assert_true (bl_profile_get_info (profile)->has_memory);
  g_assert_true (bl_profile_get_info (profile)->has_lines);
  /* the sample of node 77, which the tree does not have, counts nowhere
   * and brings no warning (as in Chrome DevTools and speedscope) */
  g_assert_null (bl_profile_get_warning (profile));
  /* one function, one line: make.js line 10 (1-based) has both calls */
  {
    gboolean found = FALSE;

    for (guint32 l = 0; l < bl_profile_get_n_lines (profile); l++)
      {
        const BlLine *line = bl_profile_get_line (profile, l);

        if (line->line == 10 &&
            g_strcmp0 (bl_profile_get_string (profile, line->file), "file:///app/lib/make.js") == 0)
          {
            g_assert_cmpuint (bl_profile_get_line_value (profile, BL_METRIC_ALLOC_BYTES, l), ==,
                              32768 + 4096);
            found = TRUE;
          }
      }
    g_assert_true (found);
  }

  bare = read_heap (no_samples, &error);
  g_assert_no_error (error);
  g_assert_false (bl_profile_has_metric (bare, BL_METRIC_ALLOC_COUNT));
  g_assert_cmpuint (bl_profile_get_grand_total (bare, BL_METRIC_ALLOC_BYTES), ==,
                    512 + 100 + 4096 + 32768);

  sniffed = bl_format_load_bytes (bytes, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (bl_profile_get_info (BL_PROFILE (sniffed))->format, ==, "heapprofile");
}

static void
test_heapprofile_hostile (void)
{
  g_autoptr(GBytes) bytes = bl_heapprofile_write (heap_nodes, G_N_ELEMENTS (heap_nodes),
                                                  heap_samples);
  const struct {
    const char *json;
    gint        code;
  } cases[] = {
    { "[]", BL_HEAPPROFILE_ERROR_NOT_HEAPPROFILE },
    { "{\"samples\":[]}", BL_HEAPPROFILE_ERROR_MISSING },
    { "{\"head\":[]}", BL_HEAPPROFILE_ERROR_BAD_VALUE },
    { "{\"head\":{\"selfSize\":-1}}", -1 },
    { "{\"head\":{\"selfSize\":\"1\"}}", BL_HEAPPROFILE_ERROR_BAD_VALUE },
    { "{\"head\":{\"children\":[1]}}", BL_HEAPPROFILE_ERROR_BAD_VALUE },
    { "{\"head\":{\"children\":{}}}", BL_HEAPPROFILE_ERROR_BAD_VALUE },
    { "{\"head\":{\"callFrame\":[]}}", BL_HEAPPROFILE_ERROR_BAD_VALUE },
    { "{\"head\":{},\"samples\":{}}", BL_HEAPPROFILE_ERROR_BAD_VALUE },
    { "{\"head\":{},\"samples\":[1]}", BL_HEAPPROFILE_ERROR_BAD_VALUE },
    { "{\"head\":{\"callFrame\"", BL_HEAPPROFILE_ERROR_MISSING },
  };
  /* huge sizes saturate; any number is an id; an unknown one counts nowhere */
  const char *huge = "{\"head\":{\"selfSize\":18446744073709551615,\"id\":1,\"children\":["
                     "{\"selfSize\":18446744073709551615,\"id\":1e40,\"children\":[]}]},"
                     "\"samples\":[{\"nodeId\":1e40},{\"nodeId\":-1},{\"nodeId\":1}]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) case_error = NULL;
      g_autoptr(BlProfile) p = bl_heapprofile_read_memory ((const guint8 *) cases[i].json,
                                                           strlen (cases[i].json),
                                                           &case_error);

      g_test_message ("%s: %s", cases[i].json, case_error ? case_error->message : "-");
      g_assert_null (p);
      g_assert_nonnull (case_error);
      if (cases[i].code >= 0)
        g_assert_error (case_error, BL_HEAPPROFILE_ERROR, cases[i].code);
      g_assert_null (strchr (case_error->message, '\n'));
    }

  profile = bl_heapprofile_read_memory ((const guint8 *) huge, strlen (huge), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_ALLOC_BYTES), ==,
                    G_MAXUINT64);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_ALLOC_COUNT), ==, 2);
  /* as in Chrome DevTools and speedscope: no warning for the unknown one */
  g_assert_null (bl_profile_get_warning (profile));

  check_prefixes (bytes, bl_heapprofile_read_memory, BL_HEAPPROFILE_ERROR,
                  BL_METRIC_ALLOC_BYTES);
}

/* deep trees do not recurse: 10,000 levels */
static void
test_heapprofile_deep (void)
{
  const guint depth = 10000;
  g_autofree BlHeapNode *nodes = g_new0 (BlHeapNode, depth);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;

  for (guint i = 0; i < depth; i++)
    nodes[i] = (BlHeapNode) { i, "f", "file:///a.js", (int) i, 0, "8", "1" };
  bytes = bl_heapprofile_write (nodes, depth, NULL);
  profile = read_heap (bytes, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_ALLOC_BYTES), ==, 8 * depth);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/devtools/real-files", test_real_files);
  g_test_add_func ("/model/devtools/detect", test_detect);
  g_test_add_func ("/model/devtools/cpuprofile/rules", test_cpuprofile_rules);
  g_test_add_func ("/model/devtools/cpuprofile/parent-ids", test_cpuprofile_parent_ids);
  g_test_add_func ("/model/devtools/cpuprofile/hostile-ids", test_cpuprofile_hostile_ids);
  g_test_add_func ("/model/devtools/cpuprofile/hostile-numbers", test_cpuprofile_hostile_numbers);
  g_test_add_func ("/model/devtools/cpuprofile/errors", test_cpuprofile_errors);
  g_test_add_func ("/model/devtools/cpuprofile/truncated", test_cpuprofile_truncated);
  g_test_add_func ("/model/devtools/cpuprofile/deep-alternation", test_cpuprofile_deep_alternation);
  g_test_add_func ("/model/devtools/cpuprofile/many-nodes", test_cpuprofile_many_nodes);
  g_test_add_func ("/model/devtools/trace/rules", test_trace_rules);
  g_test_add_func ("/model/devtools/trace/profiles", test_trace_profiles);
  g_test_add_func ("/model/devtools/trace/detect", test_trace_detect);
  g_test_add_func ("/model/devtools/trace/real-files", test_trace_real_files);
  g_test_add_func ("/model/devtools/trace/hostile", test_trace_hostile);
  g_test_add_func ("/model/devtools/heapprofile/stacks", test_heapprofile);
  g_test_add_func ("/model/devtools/heapprofile/hostile", test_heapprofile_hostile);
  g_test_add_func ("/model/devtools/heapprofile/deep", test_heapprofile_deep);

  return g_test_run ();
}
