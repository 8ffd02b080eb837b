/* test-devtools-huge.c — the "10 million nodes" of issue 20's hostile list
 * for the DevTools readers, in the `slow` suite (a minute or more each on
 * a busy machine):
 *   - a header or ids that CLAIM ten million nodes over a short body: one
 *     clear sentence (or the short profile), and no allocation sized by
 *     the claim — checked by reading under an address-space limit of the
 *     process's size plus 96 MB, in a subprocess;
 *   - a .cpuprofile and a .heapsnapshot of ten million nodes, generated
 *     as they are read (a writer thread behind a pipe: never a file), that
 *     load with every count as written, in memory linear in the nodes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bl-cpuprofile-reader.h"
#include "bl-cpuprofile-writer.h"
#include "bl-heap.h"
#include "bl-heapprofile-reader.h"
#include "bl-heapsnapshot-reader.h"
#include "bl-heapsnapshot-writer.h"
#include "bl-profile.h"

#define TEN_MILLION 10000000u

/* ---- memory ---------------------------------------------------------------- */

static glong
max_rss_kb (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);

  return usage.ru_maxrss;
}

/* the process's address space now, in bytes (VmSize) */
static guint64
vm_size (void)
{
  g_autofree char *status = NULL;
  const char *line;

  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
  line = strstr (status, "VmSize:");
  g_assert_nonnull (line);

  return g_ascii_strtoull (line + strlen ("VmSize:"), NULL, 10) * 1024;
}

/* From here on, the process cannot grow by more than @headroom bytes: an
 * allocation sized by a claim of ten million nodes (hundreds of MB) fails
 * and aborts. */
static void
limit_growth (guint64 headroom)
{
  struct rlimit limit;

  limit.rlim_cur = limit.rlim_max = vm_size () + headroom;
  g_assert_cmpint (setrlimit (RLIMIT_AS, &limit), ==, 0);
}

#define HEADROOM (96 << 20)

/* ---- claims ---------------------------------------------------------------- */

#define META "{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"name\",\"id\",\"self_size\"," \
             "\"edge_count\"],\"node_types\":[[\"hidden\",\"object\",\"synthetic\"],\"string\"]," \
             "\"edge_fields\":[\"type\",\"name_or_index\",\"to_node\"],\"edge_types\":" \
             "[[\"element\",\"property\",\"weak\"],\"string_or_number\",\"node\"]}"

static void
claims_subprocess (void)
{
  const struct {
    const char *json;
    gint        code;
    const char *words;
  } snapshots[] = {
    /* node_count and edge_count claim ten million; two nodes follow */
    { META ",\"node_count\":10000000,\"edge_count\":10000000},"
      "\"nodes\":[2,0,1,0,1,1,1,3,8,0],\"edges\":[1,1,5],\"strings\":[\"\",\"Foo\"]}",
      BL_HEAPSNAPSHOT_ERROR_RANGE, "node_count is 10000000" },
    /* the claim, then the file ends */
    { META ",\"node_count\":10000000,\"edge_count\":10000000},\"nodes\":[2,0,1,0,1",
      BL_HEAPSNAPSHOT_ERROR_TRUNCATED, "cut short" },
    /* a node claims ten million edges */
    { META "},\"nodes\":[2,0,1,0,10000000,1,1,3,8,0],\"edges\":[1,1,5],"
      "\"strings\":[\"\",\"Foo\"]}", BL_HEAPSNAPSHOT_ERROR_RANGE, "but there are only 1 edges" },
    /* an edge to node ten million, a name ten million strings on */
    { META "},\"nodes\":[2,0,1,0,1,1,1,3,8,0],\"edges\":[1,1,50000000],"
      "\"strings\":[\"\",\"Foo\"]}", BL_HEAPSNAPSHOT_ERROR_RANGE, "but there are 2 nodes" },
    { META "},\"nodes\":[2,0,1,0,1,1,10000000,3,8,0],\"edges\":[1,1,5],"
      "\"strings\":[\"\",\"Foo\"]}", BL_HEAPSNAPSHOT_ERROR_RANGE,
      "named by string 10000000, but there are 2 strings" },
  };
  /* ids, children and samples naming nodes up to ten million: the two
   * nodes there are load, and nothing is sized by an id */
  const char *cpu = "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"},"
                    "\"children\":[10000000,9999999,4000000000]},{\"id\":10000000,"
                    "\"callFrame\":{\"functionName\":\"a\"}}],\"samples\":[10000000,9999999,"
                    "10000000],\"timeDeltas\":[0,1000,1000]}";
  const char *heap = "{\"head\":{\"callFrame\":{\"functionName\":\"(root)\"},\"selfSize\":0,"
                     "\"id\":10000000,\"children\":[{\"callFrame\":{\"functionName\":\"a\"},"
                     "\"selfSize\":64,\"id\":9999999,\"children\":[]}]},\"samples\":["
                     "{\"size\":64,\"nodeId\":9999999,\"ordinal\":1},"
                     "{\"size\":64,\"nodeId\":9999998,\"ordinal\":2}]}";
  g_autoptr(GError) cpu_error = NULL;
  g_autoptr(GError) heap_error = NULL;
  g_autoptr(BlProfile) cpu_profile = NULL;
  g_autoptr(BlProfile) heap_profile = NULL;

  limit_growth (HEADROOM);

  for (guint i = 0; i < G_N_ELEMENTS (snapshots); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlProfile) profile = NULL;

      profile = bl_heapsnapshot_read_memory ((const guint8 *) snapshots[i].json,
                                             strlen (snapshots[i].json), &error);
      g_assert_null (profile);
      g_assert_error (error, BL_HEAPSNAPSHOT_ERROR, snapshots[i].code);
      g_assert_nonnull (strstr (error->message, snapshots[i].words));
      g_assert_null (strchr (error->message, '\n'));
    }

  cpu_profile = bl_cpuprofile_read_memory ((const guint8 *) cpu, strlen (cpu), &cpu_error);
  g_assert_no_error (cpu_error);
  g_assert_cmpuint (bl_profile_get_n_nodes (cpu_profile), ==, 2);
  g_assert_cmpuint (bl_profile_get_grand_total (cpu_profile, BL_METRIC_SAMPLES), ==, 3);
  /* sample 9999999 names no node: the one sentence of warning */
  g_assert_nonnull (strstr (bl_profile_get_warning (cpu_profile), "1 sample names a node"));

  heap_profile = bl_heapprofile_read_memory ((const guint8 *) heap, strlen (heap), &heap_error);
  g_assert_no_error (heap_error);
  g_assert_cmpuint (bl_profile_get_grand_total (heap_profile, BL_METRIC_ALLOC_BYTES), ==, 64);
  g_assert_cmpuint (bl_profile_get_grand_total (heap_profile, BL_METRIC_ALLOC_COUNT), ==, 1);
}

static void
test_claims (void)
{
  g_test_trap_subprocess ("/devtools-huge/claims/subprocess", 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* the limit itself works: an allocation of a few hundred MB under it
 * fails (so that test_claims could fail) */
static void
limit_subprocess (void)
{
  gpointer block;

  limit_growth (HEADROOM);
  block = g_try_malloc (10 * (gsize) TEN_MILLION * sizeof (guint32));
  g_assert_null (block);
}

static void
test_limit (void)
{
  g_test_trap_subprocess ("/devtools-huge/limit/subprocess", 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* ---- ten million nodes, streamed --------------------------------------------- */

typedef enum
{
  JOB_CPUPROFILE,
  JOB_HEAPSNAPSHOT,
} JobKind;

typedef struct
{
  JobKind kind;
  int     fd;
  guint   n_nodes;
  guint   n_samples;
} Job;

static gpointer
write_thread (gpointer data)
{
  Job *job = data;
  g_autoptr(GOutputStream) out = g_unix_output_stream_new (job->fd, TRUE);

  /* should the reader stop early, the write fails (EPIPE; SIGPIPE is
   * ignored) and the reader's error says why */
  if (job->kind == JOB_CPUPROFILE)
    bl_cpuprofile_write_tree (out, job->n_nodes, job->n_samples, NULL);
  else
    bl_hsw_write_tree (out, job->n_nodes, NULL);
  g_output_stream_close (out, NULL, NULL);

  return NULL;
}

/* Reads what @job writes through a pipe, reporting the peak RSS growth. */
static BlProfile *
read_streamed (Job    *job,
               glong  *rss_growth_kb)
{
  int fds[2];
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(GError) error = NULL;
  BlProfile *profile;
  GThread *thread;
  glong rss_before;
  gint64 t0 = g_get_monotonic_time ();

  g_assert_cmpint (pipe (fds), ==, 0);
  job->fd = fds[1];
  in = g_unix_input_stream_new (fds[0], TRUE);
  rss_before = max_rss_kb ();
  thread = g_thread_new ("writer", write_thread, job);
  if (job->kind == JOB_CPUPROFILE)
    profile = bl_cpuprofile_read_stream (in, 0, NULL, NULL, NULL, &error);
  else
    profile = bl_heapsnapshot_read_stream (in, 0, NULL, NULL, NULL, &error);
  g_input_stream_close (in, NULL, NULL);
  g_thread_join (thread);
  g_assert_no_error (error);
  g_assert_nonnull (profile);
  *rss_growth_kb = max_rss_kb () - rss_before;
  g_printerr ("# %u nodes: %.1f s, peak RSS grew by %ld MB\n", job->n_nodes,
                  (g_get_monotonic_time () - t0) / 1e6, *rss_growth_kb >> 10);

  return profile;
}

static void
cpuprofile_ten_million_subprocess (void)
{
  Job job = { JOB_CPUPROFILE, -1, TEN_MILLION, 1000 };
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(GHashTable) on_stacks = g_hash_table_new (NULL, NULL);
  glong growth;

  profile = read_streamed (&job, &growth);
  g_assert_false (bl_profile_is_incomplete (profile));
  g_assert_null (bl_profile_get_warning (profile));
  /* every sample, the last one lasting nothing */
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_SAMPLES), ==, job.n_samples);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_TIME_NS), ==,
                    (guint64) (job.n_samples - 1) * 1000000);
  /* one call-tree node per node on a sampled node's path below (root),
   * and the thread's */
  for (guint s = 0; s < job.n_samples; s++)
    for (guint32 id = bl_cpuprofile_tree_sample (job.n_nodes, s); id > 1; id /= 2)
      g_hash_table_add (on_stacks, GUINT_TO_POINTER (id));
  g_assert_cmpuint (bl_profile_get_n_nodes (profile), ==, g_hash_table_size (on_stacks) + 1);
  /* bounded: under 160 bytes a node (the file is about 130 a node) */
  g_assert_cmpint (growth, <, (glong) (job.n_nodes / 1024 * 160));
}

static void
heapsnapshot_ten_million_subprocess (void)
{
  Job job = { JOB_HEAPSNAPSHOT, -1, TEN_MILLION, 0 };
  g_autoptr(BlProfile) profile = NULL;
  BlHeap *heap;
  guint64 total = 0, c7_count = 0, c7_self = 0;
  guint64 count, self_bytes, retained;
  guint32 c7 = BL_HEAP_NONE;
  glong growth;

  profile = read_streamed (&job, &growth);
  g_assert_cmpuint (bl_profile_get_n_heaps (profile), ==, 1);
  heap = bl_profile_get_heap (profile, 0);
  g_assert_cmpuint (bl_heap_get_n_objects (heap), ==, job.n_nodes);
  for (guint32 i = 1; i < job.n_nodes; i++)
    {
      total += bl_hsw_tree_self_size (i);
      if (i % 100 == 7)
        {
          c7_count++;
          c7_self += bl_hsw_tree_self_size (i);
        }
    }
  g_assert_cmpuint (bl_heap_get_total_bytes (heap), ==, total);
  /* node 1 holds everything; the last node only itself, under its parent */
  g_assert_cmpuint (bl_heap_get_retained (heap, 1), ==, total);
  g_assert_cmpuint (bl_heap_get_retained (heap, job.n_nodes - 1), ==,
                    bl_hsw_tree_self_size (job.n_nodes - 1));
  g_assert_cmpuint (bl_heap_get_idom (heap, job.n_nodes - 1), ==, (job.n_nodes - 1) / 2);
  g_assert_cmpuint (bl_heap_get_object_id (heap, job.n_nodes - 1), ==,
                    2 * (guint64) (job.n_nodes - 1) + 1);
  for (guint32 t = 0; t < bl_heap_get_n_types (heap); t++)
    if (g_str_equal (bl_heap_get_type_name (heap, t), "C7"))
      c7 = t;
  g_assert_cmpuint (c7, !=, BL_HEAP_NONE);
  bl_heap_get_type_totals (heap, c7, &count, &self_bytes, &retained);
  g_assert_cmpuint (count, ==, c7_count);
  g_assert_cmpuint (self_bytes, ==, c7_self);
  /* bounded: under 120 bytes a node (the file is about 40 a node) */
  g_assert_cmpint (growth, <, (glong) (job.n_nodes / 1024 * 120));
}

/* each in a process of its own, so that its peak RSS is its own */
static void
test_cpuprofile_ten_million (void)
{
  g_test_trap_subprocess ("/devtools-huge/cpuprofile/ten-million/subprocess", 0,
                          G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
test_heapsnapshot_ten_million (void)
{
  g_test_trap_subprocess ("/devtools-huge/heapsnapshot/ten-million/subprocess", 0,
                          G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  signal (SIGPIPE, SIG_IGN);

  g_test_add_func ("/devtools-huge/limit", test_limit);
  g_test_add_func ("/devtools-huge/limit/subprocess", limit_subprocess);
  g_test_add_func ("/devtools-huge/claims", test_claims);
  g_test_add_func ("/devtools-huge/claims/subprocess", claims_subprocess);
  g_test_add_func ("/devtools-huge/cpuprofile/ten-million", test_cpuprofile_ten_million);
  g_test_add_func ("/devtools-huge/cpuprofile/ten-million/subprocess",
                   cpuprofile_ten_million_subprocess);
  g_test_add_func ("/devtools-huge/heapsnapshot/ten-million", test_heapsnapshot_ten_million);
  g_test_add_func ("/devtools-huge/heapsnapshot/ten-million/subprocess",
                   heapsnapshot_ten_million_subprocess);

  return g_test_run ();
}
