/* test-bsprof.c — the .bsprof decoder on fixtures from the test writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "bl-bsprof-writer.h"
#include "bl-model.h"

/* Finds the node for a stack given as "thread;f1;f2". */
static guint32
find_stack (BlProfile  *profile,
            const char *stack)
{
  guint n = bl_profile_get_n_nodes (profile);

  for (guint32 i = 0; i < n; i++)
    {
      g_autofree char *s = bl_profile_dup_stack_string (profile, i, ';');

      if (g_str_equal (s, stack))
        return i;
    }

  return BL_NODE_NONE;
}

static BlProfile *
decode (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  BlProfile *profile;

  profile = bl_bsprof_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   &error);
  g_assert_no_error (error);
  g_assert_nonnull (profile);

  return profile;
}

static char *
folded (BlProfile  *profile,
        BlMetricId  metric)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_assert_true (bl_folded_write (profile, metric, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, &error));
  g_output_stream_close (out, NULL, NULL);

  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
}

/* A small app: main thread with main → init → loadConfig, plus a Task thread. */
static BlBsprofWriter *
small_app (gboolean lines,
           gboolean memory)
{
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  h.lines = lines;
  h.memory = memory;
  h.target = "Grid App";
  h.version = "2.3.4";
  h.supplemental = "dev build";
  h.requested_ratio = 1.0f;
  h.actual_ratio = 0.1f;
  h.start_ms = 1700000000123;
  w = bl_bsprof_writer_new (&h);

  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "main");
  bl_bsprof_writer_string (w, 4, "init");
  bl_bsprof_writer_string (w, 5, "loadConfig");
  bl_bsprof_writer_string (w, 6, "FetchTask");
  bl_bsprof_writer_string (w, 7, "pkg:/components/FetchTask.brs");
  bl_bsprof_writer_string (w, 8, "fetch");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_module (w, 2, 6);
  bl_bsprof_writer_root (w, 10, 1, 2, 1, 3);       /* main, defined at line 1 */
  bl_bsprof_writer_path (w, 11, 10, 5, 2, 20, 4);  /* init at line 20, called from main:5 */
  bl_bsprof_writer_path (w, 12, 11, 3, 2, 40, 5);  /* loadConfig at 40 */
  bl_bsprof_writer_root (w, 20, 2, 7, 1, 8);       /* fetch in the task */

  return w;
}

static void
test_header (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  BlBsprofWriter *w = small_app (TRUE, TRUE);
  const BlProfileInfo *info;

  bl_bsprof_writer_end (w, 1700000009999);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  profile = decode (bytes);
  info = bl_profile_get_info (profile);

  g_assert_cmpstr (info->format, ==, "bsprof");
  g_assert_cmpuint (info->major, ==, 1);
  g_assert_cmpstr (info->target, ==, "Grid App");
  g_assert_cmpstr (info->version, ==, "2.3.4");
  g_assert_cmpstr (info->supplemental, ==, "dev build");
  g_assert_cmpstr (info->vendor, ==, "Roku");
  g_assert_cmpstr (info->model, ==, "4800X");
  g_assert_cmpstr (info->firmware, ==, "12.5.0");
  g_assert_cmpfloat (info->requested_ratio, ==, 1.0);
  g_assert_cmpfloat (info->actual_ratio, ==, 0.1);
  g_assert_true (info->has_lines);
  g_assert_true (info->has_memory);
  g_assert_cmpuint (info->start_ms, ==, 1700000000123);
  g_assert_cmpuint (info->end_ms, ==, 1700000009999);
  g_assert_false (bl_profile_is_incomplete (profile));
  g_assert_null (bl_profile_get_warning (profile));
  g_assert_cmpuint (bl_profile_get_n_threads (profile), ==, 2);
  g_assert_cmpstr (bl_profile_get_thread_name (profile, 0), ==, "Thread main");
  g_assert_cmpstr (bl_profile_get_thread_name (profile, 1), ==, "FetchTask");
}

static void
test_cpu_sums (gconstpointer data)
{
  gboolean lines = GPOINTER_TO_INT (data);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autofree char *text = NULL;
  BlBsprofWriter *w = small_app (lines, FALSE);
  guint32 main_node, init_node, load_node;

  /* incremental entries for the same path are summed */
  bl_bsprof_writer_cpu (w, 12, 2, 100, 150);
  bl_bsprof_writer_cpu (w, 12, 3, 50, 60);
  bl_bsprof_writer_cpu (w, 11, 1, 7, 9);
  bl_bsprof_writer_cpu (w, 10, 1, 3, 4);
  bl_bsprof_writer_cpu (w, 20, 1, 1000, 5000);
  bl_bsprof_writer_calls (w, 12, 2);
  bl_bsprof_writer_calls (w, 12, 3);
  bl_bsprof_writer_calls (w, 10, 1);
  bl_bsprof_writer_end (w, 1700000009999);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  profile = decode (bytes);

  g_assert_false (bl_profile_has_metric (profile, BL_METRIC_ALLOC_BYTES));
  main_node = find_stack (profile, "Thread main;main");
  init_node = find_stack (profile, "Thread main;main;init");
  load_node = find_stack (profile, "Thread main;main;init;loadConfig");
  g_assert_cmpuint (load_node, !=, BL_NODE_NONE);

  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_CPU, load_node), ==, 150);
  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_WALL, load_node), ==, 210);
  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_CALLS, load_node), ==, 5);
  g_assert_cmpuint (bl_profile_get_total (profile, BL_METRIC_CPU, init_node), ==, 157);
  g_assert_cmpuint (bl_profile_get_total (profile, BL_METRIC_CPU, main_node), ==, 160);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_CPU), ==, 1160);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_WALL), ==, 5223);

  text = folded (profile, BL_METRIC_CPU);
  g_assert_cmpstr (text, ==,
                   "FetchTask;fetch 1000\n"
                   "Thread main;main 3\n"
                   "Thread main;main;init 7\n"
                   "Thread main;main;init;loadConfig 150\n");

  if (lines)
    {
      /* loadConfig is defined at line 40: offsets 2 and 3 → lines 41, 42 */
      guint n = bl_profile_get_n_lines (profile);
      guint found = 0;

      for (guint i = 0; i < n; i++)
        {
          const BlLine *l = bl_profile_get_line (profile, i);

          if (l->line == 41)
            {
              g_assert_cmpuint (bl_profile_get_line_value (profile, BL_METRIC_CPU, i), ==, 100);
              g_assert_cmpstr (bl_profile_get_string (profile, l->file), ==,
                               "pkg:/source/main.brs");
              g_assert_cmpstr (bl_profile_get_string (profile, l->function), ==, "loadConfig");
              found++;
            }
          if (l->line == 42)
            {
              g_assert_cmpuint (bl_profile_get_line_value (profile, BL_METRIC_WALL, i), ==, 60);
              found++;
            }
        }
      g_assert_cmpuint (found, ==, 2);
    }
  else
    {
      g_assert_cmpuint (bl_profile_get_n_lines (profile), ==, 0);
    }
}

static void
test_same_line_merged (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  BlBsprofWriter *w = small_app (TRUE, FALSE);
  guint hits = 0;

  /* loadConfig reached through a second path (from main directly) */
  bl_bsprof_writer_path (w, 13, 10, 8, 2, 40, 5);
  bl_bsprof_writer_cpu (w, 12, 4, 10, 10);
  bl_bsprof_writer_cpu (w, 13, 4, 5, 5);
  bl_bsprof_writer_end (w, 1);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  profile = decode (bytes);

  for (guint i = 0; i < bl_profile_get_n_lines (profile); i++)
    if (bl_profile_get_line (profile, i)->line == 43)
      {
        g_assert_cmpuint (bl_profile_get_line_value (profile, BL_METRIC_CPU, i), ==, 15);
        hits++;
      }
  g_assert_cmpuint (hits, ==, 1);
}

static void
test_memory (gconstpointer data)
{
  gboolean lines = GPOINTER_TO_INT (data);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autofree char *live = NULL;
  BlBsprofWriter *w = small_app (lines, TRUE);
  guint32 load_node, init_node;

  bl_bsprof_writer_alloc (w, 12, 2, 0x1000, 64);   /* freed below by init's path */
  bl_bsprof_writer_alloc (w, 12, 2, 0x2000, 100);  /* leaked */
  bl_bsprof_writer_alloc (w, 11, 1, 0x3000, 8);
  bl_bsprof_writer_free_op (w, 11, 1, 0x1000, FALSE);  /* credited to loadConfig */
  bl_bsprof_writer_free_op (w, 11, 1, 0x9999, FALSE);  /* never allocated */
  /* realloc of 0x3000: free_realloc then alloc at a new address */
  bl_bsprof_writer_free_op (w, 11, 1, 0x3000, TRUE);
  bl_bsprof_writer_alloc (w, 11, 1, 0x4000, 16);
  bl_bsprof_writer_end (w, 2);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  profile = decode (bytes);

  load_node = find_stack (profile, "Thread main;main;init;loadConfig");
  init_node = find_stack (profile, "Thread main;main;init");
  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_ALLOC_BYTES, load_node), ==, 164);
  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_ALLOC_COUNT, load_node), ==, 2);
  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_FREE_BYTES, load_node), ==, 64);
  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_FREE_COUNT, load_node), ==, 1);
  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_LIVE_BYTES, load_node), ==, 100);
  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_LIVE_COUNT, load_node), ==, 1);
  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_ALLOC_BYTES, init_node), ==, 24);
  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_FREE_BYTES, init_node), ==, 8);
  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_LIVE_BYTES, init_node), ==, 16);
  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_LIVE_COUNT, init_node), ==, 1);
  g_assert_cmpuint (bl_profile_get_info (profile)->unmatched_frees, ==, 1);
  g_assert_nonnull (bl_profile_get_warning (profile));
  g_assert_nonnull (strstr (bl_profile_get_warning (profile), "never allocated"));

  live = folded (profile, BL_METRIC_LIVE_BYTES);
  g_assert_cmpstr (live, ==,
                   "Thread main;main;init 16\n"
                   "Thread main;main;init;loadConfig 100\n");

  if (lines)
    {
      gboolean seen = FALSE;

      for (guint i = 0; i < bl_profile_get_n_lines (profile); i++)
        if (bl_profile_get_line (profile, i)->line == 41)
          {
            g_assert_cmpuint (bl_profile_get_line_value (profile, BL_METRIC_ALLOC_BYTES, i),
                              ==, 164);
            g_assert_cmpuint (bl_profile_get_line_value (profile, BL_METRIC_LIVE_BYTES, i),
                              ==, 100);
            seen = TRUE;
          }
      g_assert_true (seen);
    }
}

/* Long random runs of allocations and frees over a pool of addresses
 * (allocated again while live, freed twice, never allocated, above 32 bits)
 * against the plain meaning: one live block per address, a block allocated
 * again without a free stays live, a free of an address with no live block
 * is unmatched. The runs are long enough to pass through every table the
 * decoder keeps live blocks in. */
typedef struct
{
  guint   pe;      /* 0 or 1: init or loadConfig */
  guint64 size;
} RefBlock;

static void
test_memory_reference (gconstpointer data)
{
  guint seed = GPOINTER_TO_UINT (data);
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(GHashTable) live = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  const guint32 pe_ids[2] = { 11, 12 };
  const char *stacks[2] = { "Thread main;main;init", "Thread main;main;init;loadConfig" };
  guint64 alloc_bytes[2] = { 0, }, alloc_count[2] = { 0, };
  guint64 live_bytes[2] = { 0, }, live_count[2] = { 0, };
  guint64 unmatched = 0, line_live = 0;
  guint pool = 20000 + 20000 * (seed % 3);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  BlBsprofWriter *w = small_app (TRUE, TRUE);
  GHashTableIter iter;
  gpointer value;

  for (guint i = 0; i < 300000; i++)
    {
      guint64 addr = 16 * (guint64) g_rand_int_range (rand, 1, pool);
      guint pe = g_rand_int_range (rand, 0, 2);
      RefBlock *old;

      if (g_rand_int_range (rand, 0, 50) == 0)
        addr += G_GUINT64_CONSTANT (1) << 36;   /* a wide address */

      old = g_hash_table_lookup (live, &addr);
      if (g_rand_int_range (rand, 0, 100) < 52)
        {
          RefBlock *block = g_new (RefBlock, 1);
          guint64 *key = g_new (guint64, 1);

          block->pe = pe;
          block->size = g_rand_int_range (rand, 1, 5000);
          if (g_rand_int_range (rand, 0, 100) == 0)
            block->size += G_GUINT64_CONSTANT (1) << 33;   /* a wide size */
          alloc_bytes[pe] += block->size;
          alloc_count[pe]++;
          if (old != NULL)
            {
              live_bytes[old->pe] += old->size;   /* allocated again: stays live */
              live_count[old->pe]++;
            }
          *key = addr;
          g_hash_table_replace (live, key, block);
          bl_bsprof_writer_alloc (w, pe_ids[pe], 1 + pe, addr, block->size);
        }
      else
        {
          if (old != NULL)
            g_hash_table_remove (live, &addr);
          else
            unmatched++;
          bl_bsprof_writer_free_op (w, pe_ids[pe], 1, addr, g_rand_boolean (rand));
        }
    }

  g_hash_table_iter_init (&iter, live);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      RefBlock *block = value;

      live_bytes[block->pe] += block->size;
      live_count[block->pe]++;
    }

  bl_bsprof_writer_end (w, 2);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  profile = decode (bytes);

  g_assert_cmpuint (bl_profile_get_info (profile)->unmatched_frees, ==, unmatched);
  for (guint pe = 0; pe < 2; pe++)
    {
      guint32 node = find_stack (profile, stacks[pe]);

      g_assert_cmpuint (node, !=, BL_NODE_NONE);
      g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_ALLOC_BYTES, node), ==,
                        alloc_bytes[pe]);
      g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_ALLOC_COUNT, node), ==,
                        alloc_count[pe]);
      g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_LIVE_BYTES, node), ==,
                        live_bytes[pe]);
      g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_LIVE_COUNT, node), ==,
                        live_count[pe]);
      g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_FREE_BYTES, node), ==,
                        alloc_bytes[pe] - live_bytes[pe]);
      g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_FREE_COUNT, node), ==,
                        alloc_count[pe] - live_count[pe]);
    }

  /* every allocation had a line: the lines hold the same live bytes */
  for (guint i = 0; i < bl_profile_get_n_lines (profile); i++)
    line_live += bl_profile_get_line_value (profile, BL_METRIC_LIVE_BYTES, i);
  g_assert_cmpuint (line_live, ==, live_bytes[0] + live_bytes[1]);
}

static void
test_memory_without_flag (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  BlBsprofWriter *w = small_app (FALSE, FALSE);

  bl_bsprof_writer_alloc (w, 12, 0, 0x10, 40);
  bl_bsprof_writer_end (w, 2);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  profile = decode (bytes);

  g_assert_true (bl_profile_has_metric (profile, BL_METRIC_LIVE_BYTES));
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_LIVE_BYTES), ==, 40);
  g_assert_nonnull (strstr (bl_profile_get_warning (profile), "header says"));
}

static void
test_recursion (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  BlBsprofHeader h;
  BlBsprofWriter *w;
  guint32 f = G_MAXUINT32;

  bl_bsprof_header_init (&h);
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/tree.brs");
  bl_bsprof_writer_string (w, 3, "walk");
  bl_bsprof_writer_string (w, 4, "main");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 4);
  bl_bsprof_writer_path (w, 2, 1, 0, 2, 10, 3);   /* main → walk */
  bl_bsprof_writer_path (w, 3, 2, 0, 2, 10, 3);   /* → walk */
  bl_bsprof_writer_path (w, 4, 3, 0, 2, 10, 3);   /* → walk */
  bl_bsprof_writer_cpu (w, 2, 0, 10, 10);
  bl_bsprof_writer_cpu (w, 3, 0, 20, 20);
  bl_bsprof_writer_cpu (w, 4, 0, 30, 30);
  bl_bsprof_writer_end (w, 1);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  profile = decode (bytes);

  for (guint i = 0; i < bl_profile_get_n_functions (profile); i++)
    if (g_str_equal (bl_profile_get_string (profile, bl_profile_get_function (profile, i)->name),
                     "walk"))
      f = i;
  g_assert_cmpuint (f, !=, G_MAXUINT32);
  g_assert_cmpuint (bl_profile_get_function (profile, f)->n_nodes, ==, 3);
  g_assert_cmpuint (bl_profile_get_function_self (profile, BL_METRIC_CPU, f), ==, 60);
  /* total does not count the nested calls twice */
  g_assert_cmpuint (bl_profile_get_function_total (profile, BL_METRIC_CPU, f), ==, 60);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_CPU), ==, 60);
}

/* The nodes are numbered in the order of the definitions, a module's
 * thread root where the module came, also when modules come between path
 * elements and two modules share a thread; metric columns and totals hold
 * for threads with no path element at all. */
static void
test_node_order (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  static const char *const stacks[] = {
    "Thread main", "Thread main;main", "Task", "Task;run", "Thread main;main;walk",
    "Idle", "Task;run;walk",
  };
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  h.memory = TRUE;
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "main");
  bl_bsprof_writer_string (w, 4, "Task");
  bl_bsprof_writer_string (w, 5, "run");
  bl_bsprof_writer_string (w, 6, "walk");
  bl_bsprof_writer_string (w, 7, "Idle");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 3);        /* Thread main;main */
  bl_bsprof_writer_module (w, 2, 4);
  bl_bsprof_writer_root (w, 2, 2, 2, 20, 5);       /* Task;run */
  bl_bsprof_writer_module (w, 3, 1);               /* Thread main again */
  bl_bsprof_writer_path (w, 3, 1, 0, 2, 40, 6);    /* Thread main;main;walk */
  bl_bsprof_writer_cpu (w, 3, 0, 5, 7);
  bl_bsprof_writer_module (w, 4, 7);               /* no path element */
  bl_bsprof_writer_path (w, 4, 2, 0, 2, 40, 6);    /* Task;run;walk */
  bl_bsprof_writer_cpu (w, 4, 0, 11, 13);
  bl_bsprof_writer_alloc (w, 4, 0, 0x1000, 64);
  bl_bsprof_writer_end (w, 1);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  profile = decode (bytes);

  g_assert_cmpuint (bl_profile_get_n_nodes (profile), ==, G_N_ELEMENTS (stacks));
  for (guint32 i = 0; i < G_N_ELEMENTS (stacks); i++)
    {
      g_autofree char *s = bl_profile_dup_stack_string (profile, i, ';');

      g_assert_cmpstr (s, ==, stacks[i]);
    }
  g_assert_cmpuint (bl_profile_get_n_threads (profile), ==, 3);
  g_assert_cmpstr (bl_profile_get_thread_name (profile, 2), ==, "Idle");

  g_assert_true (bl_profile_has_metric (profile, BL_METRIC_LIVE_BYTES));
  g_assert_cmpuint (bl_profile_get_total (profile, BL_METRIC_CPU, 0), ==, 5);
  g_assert_cmpuint (bl_profile_get_total (profile, BL_METRIC_CPU, 2), ==, 11);
  g_assert_cmpuint (bl_profile_get_total (profile, BL_METRIC_LIVE_BYTES, 2), ==, 64);
  g_assert_cmpuint (bl_profile_get_total (profile, BL_METRIC_LIVE_BYTES, 5), ==, 0);
  g_assert_cmpuint (bl_profile_get_total_array (profile, BL_METRIC_WALL)[3], ==, 13);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_WALL), ==, 20);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_ALLOC_COUNT), ==, 1);
}

/* The reader makes its nodes with their children already in the finish's
 * order and their functions numbered (and, for a parent of many children,
 * through the profile's index instead): the profile must be exactly the
 * one bl_profile_add_child() and bl_profile_finish() make of the same path
 * elements, node for node. Names whose ids are not in the order of the
 * strings, a parent of 45 children (past the reader's sorted walk of 32),
 * children defined twice, one name in two files, a thread root named
 * twice, recursion; the memory operations in line and on the worker. */
static void
test_tree_as_the_finish_makes_it (gconstpointer data)
{
  gboolean worker = GPOINTER_TO_INT (data);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(BlProfile) ref = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  guint32 ref_node[128] = { 0, };
  guint32 ref_root[4] = { 0, };
  guint32 n_pe = 0;
  BlBsprofHeader h;
  BlBsprofWriter *w;
  struct { guint32 id, caller, module, file, line, func; } pe[128];
  static const char *const files[] = { "pkg:/source/b.brs", "pkg:/source/a.brs" };
  static const char *const threads[] = { "Thread main", "Task", "Thread main" };

  /* strings: 1-3 threads, 4-5 files, 10-54 functions (id 10 + k names
   * f(k * 17 mod 45)) */
  bl_bsprof_header_init (&h);
  h.memory = TRUE;
  w = bl_bsprof_writer_new (&h);
  for (guint t = 0; t < 3; t++)
    bl_bsprof_writer_string (w, 1 + t, threads[t]);
  for (guint f = 0; f < 2; f++)
    bl_bsprof_writer_string (w, 4 + f, files[f]);
  for (guint k = 0; k < 45; k++)
    {
      char *name = g_strdup_printf ("f%02u", (k * 17) % 45);

      bl_bsprof_writer_string (w, 10 + k, name);
      g_ptr_array_add (names, name);
    }
  for (guint t = 0; t < 3; t++)
    bl_bsprof_writer_module (w, 1 + t, 1 + t);

#define PE(caller_, module_, file_, func_)                                    \
  G_STMT_START {                                                              \
    pe[n_pe].id = n_pe + 1;                                                   \
    pe[n_pe].caller = (caller_);                                              \
    pe[n_pe].module = (module_);                                              \
    pe[n_pe].file = (file_);                                                  \
    pe[n_pe].line = 1 + n_pe;                                                 \
    pe[n_pe].func = (func_);                                                  \
    n_pe++;                                                                   \
  } G_STMT_END

  PE (0, 1, 4, 10);                          /* 1: Thread main;f00 */
  /* 2-46: its 45 children, in the order of their names (f00 … f44: id
   * 10 + 8k names fk), each after all the others: the 34th is past the
   * sorted walk, and the rest go to the index */
  for (guint k = 0; k < 45; k++)
    PE (1, 0, 4 + k % 2, 10 + (k * 8) % 45);
  for (guint k = 0; k < 4; k++)              /* 47-50: four of them again */
    PE (1, 0, 4 + (k * 11) % 2, 10 + (k * 11 * 8) % 45);
  PE (1, 0, 5, 10);                          /* 51: f00 in the other file */
  PE (2, 0, 4, 10);                          /* 52: f00 again: recursion */
  PE (52, 0, 4, 17);                         /* 53 */
  for (guint k = 0; k < 12; k++)             /* 54-65: few children, in no order */
    PE (53, 0, 4 + k % 2, 10 + (k * 11) % 45);
  PE (53, 0, 4, 17);                         /* 66: 53 again under itself */
  PE (66, 0, 4, 10);                         /* 67: f00 a third time */
  PE (0, 3, 5, 12);                          /* 68: Thread main (named twice) */
  PE (0, 2, 4, 12);                          /* 69: Task;… */
  PE (69, 0, 4, 10);                         /* 70 */
  PE (0, 1, 4, 10);                          /* 71: 1 again */
#undef PE

  for (guint32 i = 0; i < n_pe; i++)
    {
      if (pe[i].caller == 0)
        bl_bsprof_writer_root (w, pe[i].id, pe[i].module, pe[i].file, pe[i].line, pe[i].func);
      else
        bl_bsprof_writer_path (w, pe[i].id, pe[i].caller, 0, pe[i].file, pe[i].line,
                               pe[i].func);
    }
  for (guint32 i = 0; i < n_pe; i++)
    {
      bl_bsprof_writer_cpu (w, pe[i].id, 0, 1 + i, 2 * i);
      bl_bsprof_writer_alloc (w, pe[i].id, 0, 0x1000 + 16 * i, 8 + i);
      if (i % 3 == 0)
        bl_bsprof_writer_free_op (w, pe[(i * 5) % n_pe].id, 0, 0x1000 + 16 * i, FALSE);
    }
  bl_bsprof_writer_end (w, 1);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  bl_bsprof_set_worker (worker ? 0 : G_MAXUINT64, 0);
  profile = decode (bytes);
  bl_bsprof_set_worker (BL_BSPROF_WORKER_MIN_BYTES, BL_BSPROF_WORKER_MIN_LIVE);

  /* the same nodes as the profile's builder makes them */
  ref = bl_profile_new ("bsprof");
  bl_profile_enable_metric (ref, BL_METRIC_CPU);
  bl_profile_enable_metric (ref, BL_METRIC_ALLOC_BYTES);
  for (guint t = 0; t < 3; t++)
    ref_root[1 + t] = bl_profile_add_thread (ref, bl_profile_intern (ref, threads[t]));
  for (guint32 i = 0; i < n_pe; i++)
    {
      guint32 parent = pe[i].caller == 0 ? ref_root[pe[i].module] : ref_node[pe[i].caller];

      ref_node[pe[i].id] =
        bl_profile_add_child (ref, parent, bl_profile_intern (ref, names->pdata[pe[i].func - 10]),
                              bl_profile_intern (ref, files[pe[i].file - 4]), pe[i].line);
      bl_profile_add_value (ref, ref_node[pe[i].id], BL_METRIC_CPU, 1 + i);
      bl_profile_add_value (ref, ref_node[pe[i].id], BL_METRIC_ALLOC_BYTES, 8 + i);
    }
  bl_profile_finish (ref);

  g_assert_cmpuint (bl_profile_get_n_nodes (profile), ==, bl_profile_get_n_nodes (ref));
  g_assert_cmpuint (bl_profile_get_n_nodes (profile), <, n_pe + 3);   /* some merged */
  for (guint32 i = 0; i < bl_profile_get_n_nodes (ref); i++)
    {
      const BlNode *a = bl_profile_get_node (profile, i);
      const BlNode *b = bl_profile_get_node (ref, i);

      g_assert_cmpuint (a->parent, ==, b->parent);
      g_assert_cmpuint (a->first_child, ==, b->first_child);
      g_assert_cmpuint (a->next_sibling, ==, b->next_sibling);
      g_assert_cmpuint (a->line, ==, b->line);
      g_assert_cmpuint (a->thread, ==, b->thread);
      g_assert_cmpuint (a->depth, ==, b->depth);
      g_assert_cmpstr (bl_profile_get_string (profile, a->name), ==,
                       bl_profile_get_string (ref, b->name));
      g_assert_cmpstr (bl_profile_get_string (profile, a->file), ==,
                       bl_profile_get_string (ref, b->file));
      g_assert_cmpuint (bl_profile_get_node_function (profile, i), ==,
                        bl_profile_get_node_function (ref, i));
      g_assert_cmpint (bl_profile_is_outermost (profile, i), ==, bl_profile_is_outermost (ref, i));
      g_assert_cmpuint (bl_profile_get_total (profile, BL_METRIC_CPU, i), ==,
                        bl_profile_get_total (ref, BL_METRIC_CPU, i));
      g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_ALLOC_BYTES, i), ==,
                        bl_profile_get_self (ref, BL_METRIC_ALLOC_BYTES, i));
    }
  g_assert_cmpuint (bl_profile_get_n_functions (profile), ==, bl_profile_get_n_functions (ref));
  for (guint32 f = 0; f < bl_profile_get_n_functions (ref); f++)
    {
      const BlFunction *a = bl_profile_get_function (profile, f);
      const BlFunction *b = bl_profile_get_function (ref, f);

      g_assert_cmpstr (bl_profile_get_string (profile, a->name), ==,
                       bl_profile_get_string (ref, b->name));
      g_assert_cmpstr (bl_profile_get_string (profile, a->file), ==,
                       bl_profile_get_string (ref, b->file));
      g_assert_cmpuint (a->line, ==, b->line);
      g_assert_cmpuint (a->n_nodes, ==, b->n_nodes);
      g_assert_cmpuint (bl_profile_get_function_total (profile, BL_METRIC_CPU, f), ==,
                        bl_profile_get_function_total (ref, BL_METRIC_CPU, f));
    }
}

static void
test_header_padding_newer_minor (void)
{
  static const guint8 future_fields[] = { 0x05, 0x81, 0x01, 'x', 0 };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autofree char *text = NULL;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  h.minor = 7;
  h.patch = 3;
  h.padding = 37;
  h.extra_header = future_fields;
  h.extra_header_len = sizeof future_fields;
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "main");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 0, 1, 2);
  bl_bsprof_writer_cpu (w, 1, 0, 42, 43);
  bl_bsprof_writer_end (w, 5);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  profile = decode (bytes);

  g_assert_cmpuint (bl_profile_get_info (profile)->minor, ==, 7);
  g_assert_cmpuint (bl_profile_get_info (profile)->patch, ==, 3);
  text = folded (profile, BL_METRIC_CPU);
  g_assert_cmpstr (text, ==, "Thread main;main 42\n");
}

static void
test_sparse_ids_and_identical_stacks (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autofree char *text = NULL;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 4000000000u, "Thread main");
  bl_bsprof_writer_string (w, 77, "a.brs");
  bl_bsprof_writer_string (w, 78, "b.brs");
  bl_bsprof_writer_string (w, 3000000000u, "draw");
  bl_bsprof_writer_module (w, 123456789, 4000000000u);
  bl_bsprof_writer_root (w, 4294967295u, 123456789, 77, 1, 3000000000u);
  /* the same function name in another file: a distinct node, an identical stack */
  bl_bsprof_writer_root (w, 5, 123456789, 78, 1, 3000000000u);
  bl_bsprof_writer_cpu (w, 4294967295u, 0, 1, 1);
  bl_bsprof_writer_cpu (w, 5, 0, 2, 2);
  bl_bsprof_writer_end (w, 5);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  profile = decode (bytes);

  text = folded (profile, BL_METRIC_CPU);
  g_assert_cmpstr (text, ==, "Thread main;draw 3\n");
}

static void
test_stream_chunks (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  BlBsprofStats stats = { 0, };
  BlBsprofHeader h;
  BlBsprofWriter *w;
  char name[64];

  /* more than one 4 MiB window: entries cross the chunk boundaries */
  bl_bsprof_header_init (&h);
  h.lines = TRUE;
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_module (w, 1, 1);
  for (guint i = 0; i < 200000; i++)
    {
      g_snprintf (name, sizeof name, "function_with_a_long_name_%u", i);
      bl_bsprof_writer_string (w, i + 2, name);
      bl_bsprof_writer_root (w, i + 1, 1, 0, i + 1, i + 2);
      bl_bsprof_writer_cpu (w, i + 1, 1, 1, 2);
    }
  bl_bsprof_writer_end (w, 5);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  g_assert_cmpuint (g_bytes_get_size (bytes), >, 2 * (4 * 1024 * 1024));

  stream = g_memory_input_stream_new_from_bytes (bytes);
  profile = bl_bsprof_read_stream (stream, g_bytes_get_size (bytes), NULL, NULL, NULL,
                                   &stats, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stats.entries, ==, 1 + 1 + 3 * 200000);
  g_assert_cmpuint (stats.bytes, ==, g_bytes_get_size (bytes));
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_CPU), ==, 200000);
  g_assert_cmpuint (bl_profile_get_grand_total (profile, BL_METRIC_WALL), ==, 400000);
  g_assert_cmpuint (bl_profile_get_n_nodes (profile), ==, 200001);
}

static void
progress_cb (guint64  done,
             guint64  total,
             gpointer user_data)
{
  GCancellable *cancellable = user_data;

  g_assert_cmpuint (done, <=, total);
  g_cancellable_cancel (cancellable);
}

static void
test_cancel (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  BlProfile *profile;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 0, 1, 1);
  for (guint i = 0; i < 500000; i++)
    bl_bsprof_writer_cpu (w, 1, 0, 1, 1);
  bl_bsprof_writer_end (w, 5);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  stream = g_memory_input_stream_new_from_bytes (bytes);
  profile = bl_bsprof_read_stream (stream, g_bytes_get_size (bytes), progress_cb, cancellable,
                                   cancellable, NULL, &error);
  g_assert_null (profile);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/bsprof/header", test_header);
  g_test_add_data_func ("/model/bsprof/cpu-sums", GINT_TO_POINTER (FALSE), test_cpu_sums);
  g_test_add_data_func ("/model/bsprof/cpu-sums-lines", GINT_TO_POINTER (TRUE), test_cpu_sums);
  g_test_add_func ("/model/bsprof/same-line-merged", test_same_line_merged);
  g_test_add_data_func ("/model/bsprof/memory", GINT_TO_POINTER (FALSE), test_memory);
  g_test_add_data_func ("/model/bsprof/memory-lines", GINT_TO_POINTER (TRUE), test_memory);
  g_test_add_data_func ("/model/bsprof/memory-reference/1", GUINT_TO_POINTER (1),
                        test_memory_reference);
  g_test_add_data_func ("/model/bsprof/memory-reference/2", GUINT_TO_POINTER (2),
                        test_memory_reference);
  g_test_add_data_func ("/model/bsprof/memory-reference/3", GUINT_TO_POINTER (3),
                        test_memory_reference);
  g_test_add_func ("/model/bsprof/memory-without-flag", test_memory_without_flag);
  g_test_add_func ("/model/bsprof/recursion", test_recursion);
  g_test_add_func ("/model/bsprof/node-order", test_node_order);
  g_test_add_data_func ("/model/bsprof/tree-as-the-finish-makes-it", GINT_TO_POINTER (FALSE),
                        test_tree_as_the_finish_makes_it);
  g_test_add_data_func ("/model/bsprof/tree-as-the-finish-makes-it-worker", GINT_TO_POINTER (TRUE),
                        test_tree_as_the_finish_makes_it);
  g_test_add_func ("/model/bsprof/header-padding-newer-minor", test_header_padding_newer_minor);
  g_test_add_func ("/model/bsprof/sparse-ids", test_sparse_ids_and_identical_stacks);
  g_test_add_func ("/model/bsprof/stream-chunks", test_stream_chunks);
  g_test_add_func ("/model/bsprof/cancel", test_cancel);

  return g_test_run ();
}
