/* bench-window.c — the real window on big profiles: time to the first frame,
 * the time of each interaction, and the memory given back on close
 *
 * Runs BlApplication with its BlWindow (the real profile page, flame graph
 * and tables) and, for each file, prints:
 *
 *  - `brightlens-cli info FILE` timed in the same run (the peer, the median
 *    of five runs), and the loader alone in this process with no window
 *    (the load without any progress UI);
 *  - open → first drawn frame of the flame graph, the median of five opens
 *    (the tab closed again after each but the last), and its ratio to
 *    `info`'s median, and to that of five more `info` runs taken in turn
 *    with the opens (on a big profile that frame draws a coarse layout:
 *    then also when the full one was drawn);
 *  - the time of each interaction: metric switch, thread switch and back,
 *    zoom into a frame, zoom reset, a search keystroke, each table tab (after
 *    the metric switch, so nothing is cached), switching document tabs;
 *    for a profile in time order its Flame Chart page (the first frame, and
 *    on a big profile, whose lanes a worker makes, when its bars are drawn);
 *    for a trace its Timeline page, for a heap its lists and filter;
 *  - the longest time the main loop was blocked during each of those;
 *  - RSS before opening (the last time), after loading, and after closing
 *    the tab, and the change since before the first open.
 *
 * A table tab is timed after the metric switch, so nothing is cached from
 * before it; but what the window does behind a drawn graph counts as it
 * would for a user: the hidden tables make their rows, and the Lines page
 * ranks its lines, in workers once the graph's frame is painted (about 20 ms
 * of a worker for the 585,000 line records of the long session).
 *
 * "The time of an interaction" is from the action until the widget that
 * shows its result has no pending work (its layout or rows are there) and a
 * frame has been painted after that (the window's frame clock "after-paint").
 * A big profile's flame graph draws a coarse layout first (every frame two
 * pixels wide or more, the slivers below from one path each): then the
 * time until its full layout was drawn is printed too.
 * Animations are turned off, so a zoom is measured without its 250 ms glide.
 * The search is timed from the entry's "search-changed" (GtkSearchEntry
 * waits for the typing to pause first, 150 ms, by design).
 *
 * Each file is measured in a window of its own process, one after the
 * other, as a user opens one in a new app: what one file left behind (the
 * memory it gave back, which the system zeroes again for the next file's
 * first touch, slowly on a virtual machine) does not weigh on the next.
 *
 * Usage: bench-window [FILE…]
 *        bench-window --write DIR [MB]   (only writes the two generated inputs to
 *                                         DIR, the long session of MB megabytes)
 *        bench-window --one FILE         (FILE in this process: what each child does)
 *   With no FILE it writes, in a temporary directory under /tmp, a 256 MB
 *   .bsprof of a long session (allocator-dense addresses, frees in random
 *   order among up to a million live blocks, 60,000 path elements in 8
 *   threads touched uniformly, line offsets over 3,000 lines) and a
 *   1,000,000-node .bsprof, and deletes them at the end. Any file the app
 *   opens can be given. Needs a display (xvfb-run).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#ifdef __GLIBC__
# include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bl-application.h"
#include "bl-bsprof-writer.h"
#include "bl-flame-chart.h"
#include "bl-hot-lines-view.h"
#include "bl-loader.h"
#include "bl-model.h"
#include "bl-session-view.h"
#include "bl-slice.h"
#include "bl-trace-timeline.h"
#include "bl-trace-view.h"
#include "bl-window.h"

#define HEARTBEAT_MS 4
/* while a file loads: 250 wake-ups a second would be most of what the main
 * thread does then, and the progress UI's cost is what is measured */
#define LOADING_HEARTBEAT_MS 50

typedef struct
{
  GtkWindow  *window;
  guint       n_paints;
  gint64      last_paint;
  gint64      last_beat;
  guint       beat;           /* the heartbeat's source, every beat_ms */
  guint       beat_ms;
  gint64      longest_gap;
  double      thread_cpu0;
  double      process_cpu0;
  gint64      handed_at;      /* when the page left its loading state */
  double      handed_cpu;     /* and the process's CPU seconds then */
  double      handed_main_cpu; /* and the main thread's */
  const char *cli;
  char      **files;
  guint       n_files;
  char       *tiny;
  int         status;
} Bench;

/* ------------------------------------------------------------------------ */
/* generated inputs                                                          */

static guint64 rng_state = 0x9e3779b97f4a7c15ull;

static inline guint64
rng (void)
{
  /* xorshift64*: GRand would cost more than writing the file */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545f4914f6cdd1dull;
}

static inline guint32
rng_below (guint32 n)
{
  return (guint32) (((rng () >> 32) * n) >> 32);
}

#define LS_THREADS  8
#define LS_FUNCS    3000
#define LS_FILES    120
#define LS_PATHS    60000
#define LS_POOL     1000000

/* the long-session shape of issue 13 */
static void
write_long_session (const char *path,
                    guint64     target_bytes)
{
  FILE *file = fopen (path, "wb");
  guint64 *pool = g_new (guint64, LS_POOL);
  guint n_pool = 0;
  guint64 next_addr = 0x7f0000000000ull;
  BlBsprofHeader h;
  BlBsprofWriter *w;
  char name[128];

  g_assert (file != NULL);
  bl_bsprof_header_init (&h);
  h.lines = TRUE;
  h.memory = TRUE;
  h.target = "Long Session Channel";
  w = bl_bsprof_writer_new_file (&h, file);

  for (guint t = 0; t < LS_THREADS; t++)
    {
      g_snprintf (name, sizeof name, t == 0 ? "Thread main" : "Task%u", t);
      bl_bsprof_writer_string (w, 1 + t, name);
      bl_bsprof_writer_module (w, 1 + t, 1 + t);
    }
  for (guint f = 0; f < LS_FILES; f++)
    {
      g_snprintf (name, sizeof name, "pkg:/components/Screen%03u.brs", f);
      bl_bsprof_writer_string (w, 100 + f, name);
    }
  for (guint f = 0; f < LS_FUNCS; f++)
    {
      g_snprintf (name, sizeof name, "onContentChanged_%u", f);
      bl_bsprof_writer_string (w, 1000 + f, name);
    }
  for (guint32 id = 1; id <= LS_PATHS; id++)
    {
      guint32 func = rng_below (LS_FUNCS);

      if (id <= LS_THREADS * 4)
        bl_bsprof_writer_root (w, id, 1 + (id - 1) % LS_THREADS, 100 + func % LS_FILES,
                               1 + func % 2000, 1000 + func);
      else
        bl_bsprof_writer_path (w, id, MAX (1, id - 1 - rng_below (MIN (id - 1, 2000))),
                               1 + rng_below (30), 100 + func % LS_FILES, 1 + func % 2000,
                               1000 + func);
    }

  while (bl_bsprof_writer_get_size (w) < target_bytes)
    for (guint i = 0; i < 10000; i++)
      {
        guint32 pe = 1 + rng_below (LS_PATHS);
        guint32 offset = rng_below (3000);
        guint kind = rng_below (10);

        if (kind < 4)
          bl_bsprof_writer_cpu (w, pe, offset, 1 + rng_below (5000), 1 + rng_below (9000));
        else if (kind < 5)
          bl_bsprof_writer_calls (w, pe, 1 + rng_below (20));
        else if (kind < 8 || n_pool == 0)
          {
            /* the allocator hands out consecutive 16-byte blocks; when a
             * million are live, one of them stays live for good */
            if (n_pool == LS_POOL)
              pool[rng_below (LS_POOL)] = next_addr;
            else
              pool[n_pool++] = next_addr;
            bl_bsprof_writer_alloc (w, pe, offset, next_addr, 16 + 16 * rng_below (8));
            next_addr += 16;
          }
        else
          {
            guint k = rng_below (n_pool);

            bl_bsprof_writer_free_op (w, pe, offset, pool[k], FALSE);
            pool[k] = pool[--n_pool];
          }
      }

  bl_bsprof_writer_end (w, h.start_ms + 3 * 3600 * 1000);
  bl_bsprof_writer_free (w);
  fclose (file);
  g_free (pool);
}

#define MN_THREADS 4
#define MN_FUNCS   5000
#define MN_NODES   1000000

/* a million distinct call paths from a random walk that keeps most stacks
 * 10 to 40 deep, each with CPU time and some with calls */
static void
write_million_nodes (const char *path)
{
  FILE *file = fopen (path, "wb");
  guint32 stack[80];
  guint depth = 0;
  guint32 next_id = 1;
  BlBsprofHeader h;
  BlBsprofWriter *w;
  char name[128];

  g_assert (file != NULL);
  bl_bsprof_header_init (&h);
  h.target = "Million Nodes Channel";
  w = bl_bsprof_writer_new_file (&h, file);

  for (guint t = 0; t < MN_THREADS; t++)
    {
      g_snprintf (name, sizeof name, t == 0 ? "Thread main" : "Task%u", t);
      bl_bsprof_writer_string (w, 1 + t, name);
      bl_bsprof_writer_module (w, 1 + t, 1 + t);
    }
  for (guint f = 0; f < 200; f++)
    {
      g_snprintf (name, sizeof name, "pkg:/components/file%u.brs", f);
      bl_bsprof_writer_string (w, 100 + f, name);
    }
  for (guint f = 0; f < MN_FUNCS; f++)
    {
      g_snprintf (name, sizeof name, "component%u.function_%u", f % 97, f);
      bl_bsprof_writer_string (w, 1000 + f, name);
    }

  for (guint t = 0; t < MN_THREADS; t++, next_id++)
    bl_bsprof_writer_root (w, next_id, 1 + t, 100, 1, 1000 + t);
  stack[0] = 1;

  while (next_id <= MN_NODES)
    {
      guint32 r = rng_below (1000);
      guint32 push = depth < 8 ? 800 : depth < 30 ? 550 : 300;

      if (depth + 1 < G_N_ELEMENTS (stack) && r < push)
        {
          /* skewed choice: a few functions are called a lot */
          double u = (double) rng_below (1 << 30) / (1 << 30);
          guint32 f = (guint32) (MN_FUNCS * u * u * u);

          bl_bsprof_writer_path (w, next_id, stack[depth], 1 + rng_below (20), 100 + f % 200,
                                 1 + f, 1000 + f);
          bl_bsprof_writer_cpu (w, next_id, 0, 1 + rng_below (1000), 1 + rng_below (2000));
          if (rng_below (4) == 0)
            bl_bsprof_writer_calls (w, next_id, 1 + rng_below (10));
          stack[++depth] = next_id++;
        }
      else if (depth > 0)
        depth--;
      else
        stack[0] = 1 + rng_below (MN_THREADS);
    }

  bl_bsprof_writer_end (w, h.start_ms + 600 * 1000);
  bl_bsprof_writer_free (w);
  fclose (file);
}

static void
write_tiny (const char *path)
{
  g_autoptr(GError) error = NULL;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  h.target = "Tiny";
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "Main");
  bl_bsprof_writer_string (w, 4, "render");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 3);
  bl_bsprof_writer_path (w, 2, 1, 3, 2, 10, 4);
  bl_bsprof_writer_cpu (w, 2, 0, 300, 400);
  bl_bsprof_writer_end (w, 5);
  if (!bl_bsprof_writer_save (w, path, &error))
    g_error ("%s", error->message);
  bl_bsprof_writer_free (w);
}

/* ------------------------------------------------------------------------ */
/* measuring                                                                 */

static guint64
rss_kib (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  if ((line = strstr (status, "VmRSS:")))
    return g_ascii_strtoull (line + 6, NULL, 10);
  return 0;
}

static void
after_paint_cb (GdkFrameClock *clock,
                Bench         *bench)
{
  bench->n_paints++;
  bench->last_paint = g_get_monotonic_time ();
}

static gboolean heartbeat_cb (gpointer data);

static void
set_heartbeat (Bench *bench,
               guint  ms)
{
  g_clear_handle_id (&bench->beat, g_source_remove);
  /* the longest gap so far, as the new interval would have seen it */
  if (bench->longest_gap > 0)
    bench->longest_gap = MAX (0, bench->longest_gap - (gint64) bench->beat_ms * 1000) +
                         (gint64) ms * 1000;
  bench->last_beat = g_get_monotonic_time ();
  bench->beat_ms = ms;
  if (ms > 0)
    bench->beat = g_timeout_add (ms, heartbeat_cb, bench);
}

/* a timer that notes how long the main loop could not run it */
static gboolean
heartbeat_cb (gpointer data)
{
  Bench *bench = data;
  gint64 now = g_get_monotonic_time ();

  if (bench->last_beat != 0 && now - bench->last_beat > bench->longest_gap)
    bench->longest_gap = now - bench->last_beat;
  bench->last_beat = now;

  return G_SOURCE_CONTINUE;
}

typedef gboolean (*Predicate) (gpointer data);

/* Iterates until @done says the result is there (or @timeout_s passes),
 * then until a frame has been painted after that. Returns the milliseconds
 * from @t0 to that paint, or -1 on timeout. */
static double
wait_for_frame (Bench     *bench,
                gint64     t0,
                Predicate  done,
                gpointer   data,
                GtkWidget *target,
                double     timeout_s)
{
  gint64 deadline = t0 + (gint64) (timeout_s * G_USEC_PER_SEC);
  gint64 ready_at;
  guint paints;

  while (!done (data))
    {
      g_main_context_iteration (NULL, TRUE);
      if (g_get_monotonic_time () > deadline)
        return -1;
    }

  ready_at = g_get_monotonic_time ();
  paints = bench->n_paints;
  /* the frame that shows the result; queued again in case the result came
   * before the paint that was already under way */
  gtk_widget_queue_draw (target);
  while (bench->n_paints == paints || bench->last_paint < ready_at)
    {
      gint64 now = g_get_monotonic_time ();

      if (bench->n_paints != paints)
        {
          paints = bench->n_paints;
          gtk_widget_queue_draw (target);
        }
      /* a window that stopped painting is a finding, not a hang */
      if (now - ready_at > 10 * G_USEC_PER_SEC)
        {
          g_print ("  (no frame was painted within 10 s of the result being ready)\n");
          bench->status = 1;
          return (ready_at - t0) / 1000.0;
        }
      if (now - ready_at > G_USEC_PER_SEC)
        gtk_widget_queue_draw (GTK_WIDGET (bench->window));
      g_main_context_iteration (NULL, TRUE);
      if (g_get_monotonic_time () > deadline)
        return -1;
    }

  return (bench->last_paint - t0) / 1000.0;
}

static gboolean
wake_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

static void
settle (double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  guint wake = g_timeout_add (10, wake_cb, NULL);

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wake);
}

/* CPU seconds of the calling thread or of the whole process: on a shared
 * machine the wall-clock time of an interaction mostly measures the load */
static double
cpu_seconds (clockid_t clock)
{
  struct timespec ts;

  if (clock_gettime (clock, &ts) != 0)
    return 0;

  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
begin_interaction (Bench *bench)
{
  settle (0.2);
  bench->last_beat = g_get_monotonic_time ();
  bench->longest_gap = 0;
  bench->thread_cpu0 = cpu_seconds (CLOCK_THREAD_CPUTIME_ID);
  bench->process_cpu0 = cpu_seconds (CLOCK_PROCESS_CPUTIME_ID);
}

static void
report (Bench      *bench,
        const char *what,
        double      ms)
{
  double thread_cpu = cpu_seconds (CLOCK_THREAD_CPUTIME_ID) - bench->thread_cpu0;
  double process_cpu = cpu_seconds (CLOCK_PROCESS_CPUTIME_ID) - bench->process_cpu0;

  if (ms < 0)
    g_print ("  %-34s did not finish\n", what);
  else
    g_print ("  %-34s %8.1f ms   (main loop blocked at most %.1f ms; CPU: main thread %.1f ms, "
             "all threads %.1f ms)\n",
             what, ms, MAX (0, bench->longest_gap - (gint64) bench->beat_ms * 1000) / 1000.0,
             1000 * thread_cpu, 1000 * process_cpu);
}

/* ------------------------------------------------------------------------ */
/* what "done" means                                                         */

/* what a loaded tab shows first: a profile's flame graph; a trace's
 * Timeline page (its flame graph of the whole trace below the tracks); the
 * Heap page of a profile that holds only heap snapshots; a Resource Monitor
 * session's timeline; the flame graph's empty state (a profile with nothing
 * measured); another document (a recording's page) */
typedef enum
{
  SHOWS_UNKNOWN,
  SHOWS_FLAME_GRAPH,
  SHOWS_TIMELINE,
  SHOWS_HEAP,
  SHOWS_SESSION,
  SHOWS_EMPTY,
  SHOWS_OTHER,
} Shows;

typedef struct
{
  BlProfilePage *page;
  BlProfileView *view;
  BlFlameGraph  *graph;
  GtkStack      *tables;
  const char    *search;
  Shows          shows;
  BlTraceView   *trace;      /* SHOWS_TIMELINE */
  BlProfile     *trace_was;  /* the range's profile before an interaction */
  BlHeapView    *heap;       /* the profile's Heap page, if it has one */
  GtkWidget     *session;    /* SHOWS_SESSION */
} Target;

static GtkWidget *find_widget (GtkWidget  *root,
                               GType       type,
                               const char *child_name);

static const char *
shows_name (Shows shows)
{
  switch (shows)
    {
    case SHOWS_FLAME_GRAPH: return "flame graph";
    case SHOWS_TIMELINE:    return "trace timeline";
    case SHOWS_HEAP:        return "heap view";
    case SHOWS_SESSION:     return "session timeline";
    case SHOWS_EMPTY:       return "empty state";
    case SHOWS_UNKNOWN:
    case SHOWS_OTHER:
    default:                return "page";
    }
}

/* Once the page has its document: what it shows first, by the page's own
 * rules (a heap-only profile opens on its Heap page, a trace on its
 * Timeline page). */
static void
resolve_shows (Target *t)
{
  GObject *document;
  BlProfile *profile;

  if (t->shows != SHOWS_UNKNOWN || bl_profile_page_get_state (t->page) != BL_PROFILE_PAGE_LOADED)
    return;
  document = bl_profile_page_get_document (t->page);
  t->heap = bl_profile_page_get_heap_view (t->page);
  if (!BL_IS_PROFILE (document))
    {
      t->session = find_widget (GTK_WIDGET (t->page), BL_TYPE_SESSION_VIEW, NULL);
      t->shows = t->session != NULL ? SHOWS_SESSION : SHOWS_OTHER;
      return;
    }
  profile = BL_PROFILE (document);
  if (bl_profile_page_is_showing_heap (t->page))
    t->shows = SHOWS_HEAP;
  else if (bl_trace_view_can_show (profile))
    {
      t->trace = BL_TRACE_VIEW (find_widget (GTK_WIDGET (t->view), BL_TYPE_TRACE_VIEW, NULL));
      t->shows = t->trace != NULL ? SHOWS_TIMELINE : SHOWS_FLAME_GRAPH;
    }
  else if (bl_profile_view_get_empty_text (t->view) != NULL)
    t->shows = SHOWS_EMPTY;
  else
    t->shows = SHOWS_FLAME_GRAPH;
}

/* @graph is drawn with its current profile, metric and thread: in a coarse
 * layout (what a big profile is drawn in first) or, with @full, the full one */
static gboolean
flame_graph_shows (BlFlameGraph *graph,
                   gboolean      full)
{
  BlFlameLayout *layout = bl_flame_graph_get_layout (graph);

  return layout != NULL &&
         gtk_widget_get_mapped (GTK_WIDGET (graph)) &&
         bl_flame_layout_get_profile (layout) == bl_flame_graph_get_profile (graph) &&
         bl_flame_layout_get_metric (layout) == bl_flame_graph_get_metric (graph) &&
         bl_flame_layout_get_thread (layout) == bl_flame_graph_get_thread (graph) &&
         (!full || !bl_flame_layout_is_coarse (layout));
}

/* the trace's Timeline page: the tracks, and below them the flame graph of
 * the range picked (a new one since @trace_was), or of the whole trace */
static gboolean
trace_shows (Target   *t,
             gboolean  full)
{
  BlProfile *shown = bl_trace_view_get_shown_profile (t->trace);
  BlFlameGraph *graph = bl_trace_view_get_flame_graph (t->trace);

  return gtk_widget_get_mapped (GTK_WIDGET (bl_trace_view_get_timeline (t->trace))) &&
         shown != NULL && shown != t->trace_was &&
         bl_flame_graph_get_profile (graph) == shown &&
         flame_graph_shows (graph, full);
}

static gboolean
heap_ready (gpointer data)
{
  Target *t = data;

  return bl_heap_view_is_ready (t->heap) && gtk_widget_get_mapped (GTK_WIDGET (t->heap));
}

/* what the tab shows first is there (the flame graph in a coarse layout,
 * the Heap page once its snapshot is indexed), or the page failed */
static gboolean
view_shown_full (Target   *t,
                 gboolean  full)
{
  if (bl_profile_page_get_state (t->page) == BL_PROFILE_PAGE_FAILED)
    return TRUE;
  if (bl_profile_page_get_state (t->page) != BL_PROFILE_PAGE_LOADED)
    return FALSE;
  resolve_shows (t);

  switch (t->shows)
    {
    case SHOWS_FLAME_GRAPH:
      return flame_graph_shows (t->graph, full);
    case SHOWS_TIMELINE:
      return trace_shows (t, full);
    case SHOWS_HEAP:
      return heap_ready (t);
    case SHOWS_SESSION:
      return gtk_widget_get_mapped (t->session);
    case SHOWS_EMPTY:
      return gtk_widget_get_mapped (GTK_WIDGET (t->view));
    case SHOWS_UNKNOWN:
    case SHOWS_OTHER:
    default:
      return gtk_widget_get_mapped (GTK_WIDGET (t->page));
    }
}

static gboolean
view_shown (gpointer data)
{
  return view_shown_full (data, FALSE);
}

/* … with a flame graph in its full layout */
static gboolean
view_ready (gpointer data)
{
  return view_shown_full (data, TRUE);
}

/* the profile's flame graph shows the current profile, metric and thread
 * (coarse or full) */
static gboolean
graph_shown (gpointer data)
{
  Target *t = data;

  if (bl_profile_page_get_state (t->page) != BL_PROFILE_PAGE_LOADED)
    return bl_profile_page_get_state (t->page) == BL_PROFILE_PAGE_FAILED;

  return flame_graph_shows (t->graph, FALSE);
}

/* … in the full layout: what every interaction is timed to */
static gboolean
graph_ready (gpointer data)
{
  Target *t = data;

  return graph_shown (data) && flame_graph_shows (t->graph, TRUE);
}

/* the flame graph drawn first: the profile's, or below a trace's tracks */
static BlFlameGraph *
first_graph (Target *t)
{
  if (t->shows == SHOWS_TIMELINE)
    return bl_trace_view_get_flame_graph (t->trace);

  return t->shows == SHOWS_FLAME_GRAPH ? t->graph : NULL;
}

/* a table has its rows, or the Lines page its ranked lines (both are made
 * in a worker while a spinner shows) */
static gboolean
table_ready (gpointer data)
{
  Target *t = data;
  GtkWidget *child = gtk_stack_get_visible_child (t->tables);
  GtkWidget *hot_lines;

  if (BL_IS_CALL_TREE_VIEW (child))
    return !bl_call_tree_view_get_loading (BL_CALL_TREE_VIEW (child));
  hot_lines = find_widget (child, BL_TYPE_HOT_LINES_VIEW, NULL);

  return hot_lines == NULL || !bl_hot_lines_view_get_loading (BL_HOT_LINES_VIEW (hot_lines));
}

static gboolean
all_ready (gpointer data)
{
  return graph_shown (data) && table_ready (data);
}

static double wait_for_frame (Bench     *bench,
                              gint64     t0,
                              Predicate  done,
                              gpointer   data,
                              GtkWidget *target,
                              double     timeout_s);

/* An interaction that gives the flame graph a new layout: timed to the
 * frame that shows the result with the table's rows; when that frame was of
 * a coarse layout, also when the full one was drawn. */
static void
report_relayout (Bench      *bench,
                 const char *what,
                 gint64      t0,
                 Target     *t)
{
  double ms = wait_for_frame (bench, t0, all_ready, t, GTK_WIDGET (t->view), 600);
  BlFlameLayout *layout = bl_flame_graph_get_layout (t->graph);

  report (bench, what, ms);
  if (ms >= 0 && layout != NULL && bl_flame_layout_is_coarse (layout))
    {
      guint coarse_rects = bl_flame_layout_get_n_rects (layout);
      double full_ms = wait_for_frame (bench, t0, graph_ready, t, GTK_WIDGET (t->graph), 600);

      g_print ("    (that frame drew a coarse layout of %u frames; the full layout, %u frames, "
               "was drawn %.1f ms after the action)\n",
               coarse_rects, bl_flame_layout_get_n_rects (bl_flame_graph_get_layout (t->graph)),
               full_ms);
    }
}

static double cpu_seconds (clockid_t clock);

/* the moment the loader's result reaches the page, before the page builds
 * its views: what the progress UI cost is measured up to */
static void
page_state_cb (BlProfilePage *page,
               GParamSpec    *pspec,
               Bench         *bench)
{
  if (bench->handed_at == 0 && bl_profile_page_get_state (page) != BL_PROFILE_PAGE_LOADING)
    {
      bench->handed_at = g_get_monotonic_time ();
      bench->handed_cpu = cpu_seconds (CLOCK_PROCESS_CPUTIME_ID);
      bench->handed_main_cpu = cpu_seconds (CLOCK_THREAD_CPUTIME_ID);
    }
}

static gboolean
page_loaded (gpointer data)
{
  Target *t = data;

  return bl_profile_page_get_state (t->page) != BL_PROFILE_PAGE_LOADING;
}

static gboolean
search_applied (gpointer data)
{
  Target *t = data;

  return g_strcmp0 (bl_flame_graph_get_search (t->graph), t->search) == 0;
}

static gboolean
always (gpointer data)
{
  return TRUE;
}

static gboolean
chart_loaded (gpointer data)
{
  return !bl_flame_chart_get_loading (data);
}

static GtkWidget *
find_widget (GtkWidget *root,
             GType      type,
             const char *child_name)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (c, type) &&
          (child_name == NULL || gtk_stack_get_child_by_name (GTK_STACK (c), child_name)))
        return c;
      if ((found = find_widget (c, type, child_name)) != NULL)
        return found;
    }

  return NULL;
}

/* the entry typed into, the text put there, and when the entry said its
 * search changed to it */
typedef struct
{
  GtkWidget  *entry;
  const char *text;
  gint64      at;
} SearchChange;

static gboolean
search_changed_hook (GSignalInvocationHint *hint,
                     guint                  n_values,
                     const GValue          *values,
                     gpointer               data)
{
  SearchChange *change = data;

  /* setting a text empties the entry first, which says so at once (no
   * delay for an empty search): that emission is not the keystroke's */
  if (g_value_get_object (&values[0]) == change->entry &&
      g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (change->entry)), change->text) == 0)
    change->at = g_get_monotonic_time ();

  return TRUE;
}

static void
collect_entries (GtkWidget *root,
                 GPtrArray *out)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      if (GTK_IS_SEARCH_ENTRY (c))
        g_ptr_array_add (out, c);
      collect_entries (c, out);
    }
}

/* the view's search entry: the one whose text reaches the flame graph
 * (the Lines page has entries of its own) */
static GtkWidget *
find_search_entry (Target *t)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();
  GtkWidget *found = NULL;

  collect_entries (GTK_WIDGET (t->view), entries);
  for (guint i = 0; i < entries->len && found == NULL; i++)
    {
      GtkEditable *entry = g_ptr_array_index (entries, i);
      gint64 end = g_get_monotonic_time () + G_USEC_PER_SEC;

      gtk_editable_set_text (entry, "probe");
      while (g_get_monotonic_time () < end &&
             g_strcmp0 (bl_flame_graph_get_search (t->graph), "probe") != 0)
        g_main_context_iteration (NULL, TRUE);
      if (g_strcmp0 (bl_flame_graph_get_search (t->graph), "probe") == 0)
        found = GTK_WIDGET (entry);
      gtk_editable_set_text (entry, "");
    }
  settle (0.5);

  return found;
}

/* ------------------------------------------------------------------------ */
/* the peers                                                                 */

#define CLI_RUNS 5
#define OPEN_RUNS 5

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
time_cli_info (Bench      *bench,
               const char *file)
{
  const char *argv[] = { bench->cli, "info", file, NULL };
  g_autoptr(GError) error = NULL;
  int status = 0;
  gint64 t0 = g_get_monotonic_time ();

  if (!g_spawn_sync (NULL, (char **) argv, NULL,
                     G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, &error))
    {
      g_printerr ("cannot run %s: %s\n", bench->cli, error->message);
      return -1;
    }

  return (g_get_monotonic_time () - t0) / 1000.0;
}

static void
loaded_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  GObject **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = bl_loader_load_finish (BL_LOADER (source), result, &error);
  if (*out == NULL)
    *out = G_OBJECT (g_object_ref (source)); /* failed: still done */
}

/* the loader in a worker with an idle main loop: the load without a window */
static double
time_bare_load (const char *file)
{
  g_autoptr(GFile) gfile = g_file_new_for_commandline_arg (file);
  g_autoptr(BlLoader) loader = bl_loader_new (gfile);
  GObject *result = NULL;
  gint64 t0 = g_get_monotonic_time ();
  double ms;

  bl_loader_load_async (loader, NULL, loaded_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  ms = (g_get_monotonic_time () - t0) / 1000.0;
  g_object_unref (result);

  return ms;
}

/* ------------------------------------------------------------------------ */
/* one file                                                                  */

/* Opens @file in a tab, waits for the first frame of what it shows, closes
 * the tab and lets the memory go; the time of that first frame, or < 0 if
 * the window could not open the file. */
static double
time_one_open (Bench *bench,
               GFile *gfile)
{
  AdwTabView *tab_view = bl_window_get_tab_view (BL_WINDOW (bench->window));
  Target t = { 0 };
  gint64 t0;
  double ms;

  settle (0.5);
  t0 = g_get_monotonic_time ();
  set_heartbeat (bench, LOADING_HEARTBEAT_MS);
  t.page = bl_window_open_file (BL_WINDOW (bench->window), gfile);
  t.view = bl_profile_page_get_profile_view (t.page);
  t.graph = bl_profile_view_get_flame_graph (t.view);
  ms = wait_for_frame (bench, t0, view_shown, &t, GTK_WIDGET (t.page), 600);
  set_heartbeat (bench, HEARTBEAT_MS);
  if (bl_profile_page_get_state (t.page) != BL_PROFILE_PAGE_LOADED)
    ms = -1;
  /* its full layout too, so that no worker is left when the tab closes */
  else
    wait_for_frame (bench, t0, view_ready, &t, GTK_WIDGET (t.page), 600);
  adw_tab_view_close_page (tab_view, adw_tab_view_get_page (tab_view, GTK_WIDGET (t.page)));
  settle (1.0);

  return ms;
}

/* The flame graph's interactions: metric switch, each table tab, thread
 * switch and back, zoom into a frame and reset, search keystrokes. */
static void
bench_flame_graph (Bench     *bench,
                   Target    *t,
                   BlProfile *profile)
{
  BlMetricId metrics[BL_N_METRICS];
  guint n_metrics;
  GListModel *pages;
  gint64 t0;
  double ms;

  g_assert (t->tables != NULL);

  begin_interaction (bench);
  ms = wait_for_frame (bench, g_get_monotonic_time (), all_ready, t, GTK_WIDGET (t->view), 600);
  report (bench, "first table settled (after that)", ms);

  n_metrics = bl_profile_list_metrics (profile, metrics);

  /* metric switch: the flame graph and the table shown */
  if (n_metrics > 1)
    {
      BlMetricId now = bl_profile_view_get_metric (t->view);
      BlMetricId other = metrics[0] == now ? metrics[1] : metrics[0];

      begin_interaction (bench);
      t0 = g_get_monotonic_time ();
      bl_profile_view_set_metric (t->view, other);
      report_relayout (bench, "metric switch", t0, t);
    }

  /* each table tab, in a fresh state after the metric change */
  pages = G_LIST_MODEL (gtk_stack_get_pages (t->tables));
  for (guint i = 0; i < g_list_model_get_n_items (pages); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (pages, i);
      GtkStackPage *page = GTK_STACK_PAGE (item);
      g_autofree char *label = g_strdup_printf ("table tab “%s”",
                                                gtk_stack_page_get_name (page));

      if (gtk_stack_get_visible_child (t->tables) == gtk_stack_page_get_child (page) ||
          !gtk_stack_page_get_visible (page))
        continue;
      begin_interaction (bench);
      t0 = g_get_monotonic_time ();
      gtk_stack_set_visible_child (t->tables, gtk_stack_page_get_child (page));
      report (bench, label, wait_for_frame (bench, t0, table_ready, t,
                                            GTK_WIDGET (t->tables), 600));
    }
  g_object_unref (pages);
  gtk_stack_set_visible_child_name (t->tables, "top-down");
  settle (0.2);

  /* thread switch, and back to all threads */
  if (bl_profile_get_n_threads (profile) > 1)
    {
      begin_interaction (bench);
      t0 = g_get_monotonic_time ();
      bl_profile_view_set_thread (t->view, 0);
      report_relayout (bench, "thread switch (one thread)", t0, t);
      begin_interaction (bench);
      t0 = g_get_monotonic_time ();
      bl_profile_view_set_thread (t->view, G_MAXUINT);
      report_relayout (bench, "thread switch (all threads)", t0, t);
    }

  /* zoom into a frame a few levels down, then back */
  {
    BlFlameLayout *layout = bl_flame_graph_get_layout (t->graph);
    const BlFlameRect *rects = bl_flame_layout_get_rects (layout);
    guint begin, end, best = G_MAXUINT;

    bl_flame_layout_get_level (layout, MIN (4, bl_flame_layout_get_n_levels (layout) - 1),
                               &begin, &end);
    for (guint i = begin; i < end; i++)
      if (best == G_MAXUINT || rects[i].x1 - rects[i].x0 > rects[best].x1 - rects[best].x0)
        best = i;
    if (best != G_MAXUINT)
      {
        begin_interaction (bench);
        t0 = g_get_monotonic_time ();
        bl_flame_graph_zoom_to_node (t->graph, rects[best].node, TRUE);
        report (bench, "zoom into a frame", wait_for_frame (bench, t0, always, t,
                                                            GTK_WIDGET (t->view), 60));
        begin_interaction (bench);
        t0 = g_get_monotonic_time ();
        bl_profile_view_reset_zoom (t->view);
        report (bench, "zoom reset", wait_for_frame (bench, t0, always, t,
                                                     GTK_WIDGET (t->view), 60));
      }
  }

  /* a search keystroke, timed from the entry's search-changed (an emission
   * hook runs before the view's handler) */
  {
    GtkWidget *entry = find_search_entry (t);
    static const char *texts[] = { "o", "on", "onC" };
    guint signal_id = g_signal_lookup ("search-changed", GTK_TYPE_SEARCH_ENTRY);
    SearchChange change = { entry, NULL, 0 };
    gulong hook;

    hook = g_signal_add_emission_hook (signal_id, 0, search_changed_hook, &change, NULL);
    for (guint k = 0; entry != NULL && k < G_N_ELEMENTS (texts); k++)
      {
        g_autofree char *label = g_strdup_printf ("search keystroke “%s”", texts[k]);

        begin_interaction (bench);
        change.at = 0;
        change.text = texts[k];
        gtk_editable_set_text (GTK_EDITABLE (entry), texts[k]);
        while (change.at == 0)
          g_main_context_iteration (NULL, TRUE);
        t->search = texts[k];
        report (bench, label, wait_for_frame (bench, change.at, search_applied, t,
                                              GTK_WIDGET (t->graph), 60));
      }
    g_signal_remove_emission_hook (signal_id, hook);
    if (entry != NULL)
      gtk_editable_set_text (GTK_EDITABLE (entry), "");
    settle (0.5);
  }

  /* a profile with a time order: its Flame Chart page (its rows are made
   * when it is first shown), and back */
  {
    GtkStack *graphs = GTK_STACK (find_widget (GTK_WIDGET (t->view), GTK_TYPE_STACK,
                                               "flame-chart"));
    GtkWidget *chart = graphs != NULL ? gtk_stack_get_child_by_name (graphs, "flame-chart")
                                      : NULL;

    if (chart != NULL && gtk_stack_page_get_visible (gtk_stack_get_page (graphs, chart)))
      {
        GtkWidget *before = gtk_stack_get_visible_child (graphs);

        double first_ms;

        begin_interaction (bench);
        t0 = g_get_monotonic_time ();
        gtk_stack_set_visible_child (graphs, chart);
        /* a large profile's lanes come from a worker, after a first frame
         * that says so */
        first_ms = wait_for_frame (bench, t0, always, t, chart, 60);
        if (first_ms >= 0 && bl_flame_chart_get_loading (BL_FLAME_CHART (chart)))
          {
            report (bench, "switch to the Flame Chart page", first_ms);
            report (bench, "  its bars drawn",
                    wait_for_frame (bench, t0, chart_loaded, chart, chart, 60));
          }
        else
          report (bench, "switch to the Flame Chart page", first_ms);
        begin_interaction (bench);
        t0 = g_get_monotonic_time ();
        gtk_stack_set_visible_child (graphs, before);
        report (bench, "and back", wait_for_frame (bench, t0, always, t, before, 60));
      }
  }
}

/* the range picked on a trace's timeline: its flame graph, in full */
static gboolean
trace_range_shown (gpointer data)
{
  return trace_shows (data, TRUE);
}

/* A trace's Timeline page: zoom into a tenth of the trace and back, pick a
 * range (its call tree is built in a worker) and clear it again; then the
 * Flame Graph page, where the flame graph's interactions follow, and back. */
static void
bench_timeline (Bench     *bench,
                Target    *t,
                BlProfile *profile)
{
  BlTraceTimeline *timeline = bl_trace_view_get_timeline (t->trace);
  GtkStack *graphs = GTK_STACK (find_widget (GTK_WIDGET (t->view), GTK_TYPE_STACK,
                                             "flame-graph"));
  guint64 start, end, span;
  gint64 t0;

  bl_trace_timeline_get_bounds (timeline, &start, &end);
  span = end - start;

  begin_interaction (bench);
  t0 = g_get_monotonic_time ();
  bl_trace_timeline_set_visible_range (timeline, start + 0.45 * span, start + 0.55 * span);
  report (bench, "timeline: zoom into a tenth", wait_for_frame (bench, t0, always, t,
                                                                GTK_WIDGET (timeline), 60));
  begin_interaction (bench);
  t0 = g_get_monotonic_time ();
  bl_trace_timeline_reset_zoom (timeline);
  report (bench, "timeline: zoom reset", wait_for_frame (bench, t0, always, t,
                                                         GTK_WIDGET (timeline), 60));

  g_set_object (&t->trace_was, bl_trace_view_get_shown_profile (t->trace));
  begin_interaction (bench);
  t0 = g_get_monotonic_time ();
  bl_trace_timeline_set_range (timeline, start + span / 4, start + span / 2);
  report (bench, "timeline: pick a range (a quarter)",
          wait_for_frame (bench, t0, trace_range_shown, t, GTK_WIDGET (t->trace), 600));
  g_set_object (&t->trace_was, bl_trace_view_get_shown_profile (t->trace));
  begin_interaction (bench);
  t0 = g_get_monotonic_time ();
  bl_trace_timeline_clear_range (timeline);
  report (bench, "timeline: clear the range",
          wait_for_frame (bench, t0, trace_range_shown, t, GTK_WIDGET (t->trace), 600));
  g_clear_object (&t->trace_was);

  if (graphs == NULL || t->tables == NULL)
    return;
  begin_interaction (bench);
  t0 = g_get_monotonic_time ();
  gtk_stack_set_visible_child_name (graphs, "flame-graph");
  report_relayout (bench, "switch to the Flame Graph page", t0, t);
  bench_flame_graph (bench, t, profile);
  gtk_stack_set_visible_child (graphs, GTK_WIDGET (t->trace));
  settle (0.3);
}

/* The Heap page: each of its lists, and keystrokes in the types' filter
 * (applied at once, as after the entry's pause). */
static void
bench_heap (Bench  *bench,
            Target *t)
{
  static const char *pages[] = { "dominators", "cycles", "types" };
  static const char *texts[] = { "o", "ob", "obj" };
  gint64 t0;

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      g_autofree char *label = g_strdup_printf ("heap list “%s”", pages[i]);

      if (g_strcmp0 (bl_heap_view_get_page (t->heap), pages[i]) == 0)
        continue;
      begin_interaction (bench);
      t0 = g_get_monotonic_time ();
      bl_heap_view_set_page (t->heap, pages[i]);
      report (bench, label, wait_for_frame (bench, t0, always, t, GTK_WIDGET (t->heap), 60));
    }
  for (guint k = 0; k < G_N_ELEMENTS (texts); k++)
    {
      g_autofree char *label = g_strdup_printf ("types filter keystroke “%s”", texts[k]);

      begin_interaction (bench);
      t0 = g_get_monotonic_time ();
      bl_heap_view_set_type_filter (t->heap, texts[k]);
      report (bench, label, wait_for_frame (bench, t0, always, t, GTK_WIDGET (t->heap), 60));
    }
  bl_heap_view_set_type_filter (t->heap, NULL);
  settle (0.3);
}

/* A Resource Monitor session: zoom into a tenth of its time and back, pick
 * a range (its statistics) and clear it. */
static void
bench_session (Bench  *bench,
               Target *t)
{
  BlTimeline *timeline = bl_session_view_get_timeline (BL_SESSION_VIEW (t->session));
  BlTimeAxis *axis = bl_timeline_get_axis (timeline);
  gint64 start, end, span, t0;

  bl_time_axis_get_bounds (axis, &start, &end);
  span = end - start;

  begin_interaction (bench);
  t0 = g_get_monotonic_time ();
  bl_time_axis_set_visible (axis, start + span * 45 / 100, start + span * 55 / 100);
  report (bench, "timeline: zoom into a tenth", wait_for_frame (bench, t0, always, t,
                                                                t->session, 60));
  begin_interaction (bench);
  t0 = g_get_monotonic_time ();
  bl_time_axis_reset (axis);
  report (bench, "timeline: zoom reset", wait_for_frame (bench, t0, always, t, t->session, 60));
  begin_interaction (bench);
  t0 = g_get_monotonic_time ();
  bl_time_axis_set_selection (axis, start + span / 4, start + span / 2);
  report (bench, "timeline: pick a range (a quarter)",
          wait_for_frame (bench, t0, always, t, t->session, 60));
  begin_interaction (bench);
  t0 = g_get_monotonic_time ();
  bl_time_axis_clear_selection (axis);
  report (bench, "timeline: clear the range", wait_for_frame (bench, t0, always, t,
                                                              t->session, 60));
}

static void
bench_file (Bench      *bench,
            const char *file)
{
  g_autoptr(GFile) gfile = g_file_new_for_commandline_arg (file);
  g_autoptr(GFile) tiny = g_file_new_for_path (bench->tiny);
  BlWindow *window = BL_WINDOW (bench->window);
  AdwTabView *tab_view = bl_window_get_tab_view (window);
  Target t = { 0 };
  GStatBuf st;
  guint64 rss_first, rss_before, rss_loaded, rss_closed;
  double opens[OPEN_RUNS];
  double paired_cli[OPEN_RUNS];
  double cli_ms, bare_ms, open_ms, loaded_ms;
  double bare_cpu, loaded_cpu, made_cpu;
  gint64 t0, t_loaded = 0;
  BlProfile *profile;
  BlFlameGraph *graph;
  guint paints;

  g_print ("\n%s (%.1f MB)\n", file,
           g_stat (file, &st) == 0 ? st.st_size / 1e6 : 0.0);

  /* the peer: the median of five runs, once the new window is idle (the
   * first run just after the app started took twice as long, with the
   * session's accessibility services starting beside it) */
  settle (1.0);
  {
    double runs[CLI_RUNS];

    for (guint i = 0; i < CLI_RUNS; i++)
      runs[i] = time_cli_info (bench, file);
    qsort (runs, CLI_RUNS, sizeof runs[0], compare_doubles);
    cli_ms = runs[CLI_RUNS / 2];
    g_print ("  brightlens-cli info                %8.1f ms   (median of %u runs, %.1f to %.1f ms)\n",
             cli_ms, CLI_RUNS, runs[0], runs[CLI_RUNS - 1]);
  }
  bare_cpu = cpu_seconds (CLOCK_PROCESS_CPUTIME_ID);
  bare_ms = time_bare_load (file);
  bare_cpu = cpu_seconds (CLOCK_PROCESS_CPUTIME_ID) - bare_cpu;
  settle (0.5);
  g_print ("  loader alone, no window            %8.1f ms   (CPU: all threads %.1f ms)\n",
           bare_ms, 1000 * bare_cpu);

#ifdef __GLIBC__
  malloc_trim (0);  /* the bare load's profile, freed above */
#endif
  /* the first frame is timed over several opens, as the peer is, each
   * closed again; the last one stays open for the interactions */
  rss_first = rss_kib ();
  for (guint i = 0; i + 1 < OPEN_RUNS; i++)
    {
      /* and the peer again in turn with each, against the drift of a
       * shared machine */
      paired_cli[i] = time_cli_info (bench, file);
      opens[i] = time_one_open (bench, gfile);
    }
  settle (0.5);
  paired_cli[OPEN_RUNS - 1] = time_cli_info (bench, file);
#ifdef __GLIBC__
  malloc_trim (0);
#endif
  rss_before = rss_kib ();
#ifdef __GLIBC__
  {
    struct mallinfo2 info = mallinfo2 ();

    g_print ("  (before opening, malloc: %.1f MB in use, %.1f MB free in its arenas)\n",
             (info.uordblks + info.hblkhd) / 1048576.0, info.fordblks / 1048576.0);
  }
#endif

  /* open → first frame of the flame graph */
  begin_interaction (bench);
  t0 = g_get_monotonic_time ();
  paints = bench->n_paints;
  bench->handed_at = 0;
  set_heartbeat (bench, LOADING_HEARTBEAT_MS);
  t.page = bl_window_open_file (window, gfile);
  made_cpu = cpu_seconds (CLOCK_THREAD_CPUTIME_ID) - bench->thread_cpu0;
  g_signal_connect (t.page, "notify::state", G_CALLBACK (page_state_cb), bench);
  page_state_cb (t.page, NULL, bench);
  t.view = bl_profile_page_get_profile_view (t.page);
  t.graph = bl_profile_view_get_flame_graph (t.view);
  while (!page_loaded (&t))
    g_main_context_iteration (NULL, TRUE);
  g_signal_handlers_disconnect_by_func (t.page, page_state_cb, bench);
  set_heartbeat (bench, HEARTBEAT_MS);
  t_loaded = bench->handed_at;
  loaded_ms = (t_loaded - t0) / 1000.0;
  loaded_cpu = bench->handed_cpu - bench->process_cpu0;
  paints = bench->n_paints - paints;
  open_ms = wait_for_frame (bench, t0, view_shown, &t, GTK_WIDGET (t.page), 600);
  if (bl_profile_page_get_state (t.page) != BL_PROFILE_PAGE_LOADED)
    {
      g_print ("  the window could not open it: %s\n",
               bl_profile_page_get_error_message (t.page));
      adw_tab_view_close_page (tab_view, adw_tab_view_get_page (tab_view, GTK_WIDGET (t.page)));
      bench->status = 1;
      return;
    }
  opens[OPEN_RUNS - 1] = open_ms;
  {
    double sorted[OPEN_RUNS];
    double paired[OPEN_RUNS];

    memcpy (sorted, opens, sizeof sorted);
    qsort (sorted, OPEN_RUNS, sizeof sorted[0], compare_doubles);
    g_print ("  (the tab opens on its %s)\n", shows_name (t.shows));
    g_print ("  open → first frame                 %8.1f ms   (median of %u opens, %.1f to %.1f "
             "ms: %.2f× cli info)\n",
             sorted[OPEN_RUNS / 2], OPEN_RUNS, sorted[0], sorted[OPEN_RUNS - 1],
             sorted[OPEN_RUNS / 2] / cli_ms);
    memcpy (paired, paired_cli, sizeof paired);
    qsort (paired, OPEN_RUNS, sizeof paired[0], compare_doubles);
    g_print ("    (cli info timed in turn with the opens: median %.1f ms, %.1f to %.1f ms; "
             "the opens' median %.2f× that)\n",
             paired[OPEN_RUNS / 2], paired[0], paired[OPEN_RUNS - 1],
             sorted[OPEN_RUNS / 2] / paired[OPEN_RUNS / 2]);
  }
  report (bench, "the last of those opens", open_ms);
  g_print ("    (decoded and handed to the page after %.1f ms, then %.1f ms to the frame; "
           "%.2f× cli info; "
           "progress UI and window cost %+.1f %% of the bare load)\n",
           loaded_ms, open_ms - loaded_ms, open_ms / cli_ms,
           100.0 * (loaded_ms - bare_ms) / bare_ms);
  g_print ("    (%u frames painted while loading, %.1f per second; CPU of all threads until "
           "the hand-over %+.1f %% of the bare load's, which is steadier than wall-clock "
           "time on a shared machine; the main thread's until then, the tab and its "
           "progress UI: %.1f ms = %.1f %% of the bare load's CPU, %.1f ms of it making "
           "the tab)\n",
           paints, paints / (loaded_ms / 1000.0), 100.0 * (loaded_cpu - bare_cpu) / bare_cpu,
           1000 * (bench->handed_main_cpu - bench->thread_cpu0),
           100.0 * (bench->handed_main_cpu - bench->thread_cpu0) / bare_cpu, 1000 * made_cpu);

  /* a big profile's first frame is of a coarse layout: when the full one
   * was drawn too */
  if ((graph = first_graph (&t)) != NULL &&
      bl_flame_layout_is_coarse (bl_flame_graph_get_layout (graph)))
    {
      guint coarse_rects = bl_flame_layout_get_n_rects (bl_flame_graph_get_layout (graph));
      double full_ms = wait_for_frame (bench, t0, view_ready, &t, GTK_WIDGET (graph), 600);

      g_print ("    (that frame drew a coarse layout of %u frames; the full layout, %u frames, "
               "was drawn %.1f ms after the open, %.1f ms after that frame)\n",
               coarse_rects, bl_flame_layout_get_n_rects (bl_flame_graph_get_layout (graph)),
               full_ms, full_ms - open_ms);
    }

  profile = bl_profile_page_get_profile (t.page);
  /* the profile view's tables (whatever the tab shows first) */
  t.tables = GTK_STACK (find_widget (GTK_WIDGET (t.view), GTK_TYPE_STACK, "top-down"));
  if (profile != NULL)
    {
      BlMetricId metrics[BL_N_METRICS];

      g_print ("  %u nodes, %u threads, %u metrics, %u heap snapshots\n",
               bl_profile_get_n_nodes (profile), bl_profile_get_n_threads (profile),
               bl_profile_list_metrics (profile, metrics), bl_profile_get_n_heaps (profile));
    }

  switch (t.shows)
    {
    case SHOWS_FLAME_GRAPH:
      bench_flame_graph (bench, &t, profile);
      break;
    case SHOWS_TIMELINE:
      bench_timeline (bench, &t, profile);
      break;
    case SHOWS_HEAP:
      bench_heap (bench, &t);
      break;
    case SHOWS_SESSION:
      bench_session (bench, &t);
      break;
    case SHOWS_EMPTY:
    case SHOWS_UNKNOWN:
    case SHOWS_OTHER:
    default:
      g_print ("  (the %s has no interactions to time)\n", shows_name (t.shows));
      break;
    }

  /* a trace with heap graphs beside its tracks: the Heap page too */
  if (t.heap != NULL && t.shows != SHOWS_HEAP)
    {
      GtkStack *views = GTK_STACK (find_widget (GTK_WIDGET (t.page), GTK_TYPE_STACK, "heap"));

      begin_interaction (bench);
      t0 = g_get_monotonic_time ();
      gtk_stack_set_visible_child_name (views, "heap");
      report (bench, "switch to the Heap page", wait_for_frame (bench, t0, heap_ready, &t,
                                                                GTK_WIDGET (t.heap), 600));
      bench_heap (bench, &t);
      gtk_stack_set_visible_child (views, GTK_WIDGET (t.view));
      settle (0.3);
    }

  /* switching document tabs: to a tiny profile and back */
  {
    BlProfilePage *other;

    begin_interaction (bench);
    other = bl_window_open_file (window, tiny);
    settle (0.5);
    begin_interaction (bench);
    t0 = g_get_monotonic_time ();
    adw_tab_view_set_selected_page (tab_view, adw_tab_view_get_page (tab_view,
                                                                     GTK_WIDGET (t.page)));
    report (bench, "switch to this document's tab", wait_for_frame (bench, t0, view_shown, &t,
                                                                    GTK_WIDGET (t.page), 60));
    adw_tab_view_close_page (tab_view, adw_tab_view_get_page (tab_view, GTK_WIDGET (other)));
    settle (0.3);
  }

  settle (0.5);
  rss_loaded = rss_kib ();

  /* close the tab: everything it held must go */
  {
    GWeakRef page_ref_, profile_ref_;
    GWeakRef *page_ref = &page_ref_, *profile_ref = &profile_ref_;

    g_weak_ref_init (page_ref, t.page);
    g_weak_ref_init (profile_ref, profile);
    t.page = NULL;
    t.view = NULL;
    t.graph = NULL;
    t.heap = NULL;
    t.trace = NULL;
    t.session = NULL;
    profile = NULL;
    {
      GtkWidget *child = g_weak_ref_get (page_ref);

      adw_tab_view_close_page (tab_view, adw_tab_view_get_page (tab_view, child));
      g_object_unref (child);
    }
    settle (1.5);
    rss_closed = rss_kib ();
    {
      GObject *p = g_weak_ref_get (profile_ref);

      GObject *page = g_weak_ref_get (page_ref);

      g_print ("  the profile is %s after closing its tab, its page %s\n",
               p ? "STILL ALIVE" : "freed", page ? "STILL ALIVE" : "freed");
      if (p != NULL || page != NULL)
        bench->status = 1;
      g_clear_object (&p);
      g_clear_object (&page);
    }
    g_weak_ref_clear (page_ref);
    g_weak_ref_clear (profile_ref);
  }

  g_print ("  RSS before opening %.1f MB, loaded %.1f MB, after closing the tab %.1f MB "
           "(%+.1f MB; before the first of the %u opens %.1f MB, %+.1f MB since)\n",
           rss_before / 1024.0, rss_loaded / 1024.0, rss_closed / 1024.0,
           ((double) rss_closed - (double) rss_before) / 1024.0, OPEN_RUNS,
           rss_first / 1024.0, ((double) rss_closed - (double) rss_first) / 1024.0);
#ifdef __GLIBC__
  /* what is left: still in use, or free and kept by malloc? */
  {
    struct mallinfo2 info = mallinfo2 ();

    g_print ("    (malloc: %.1f MB in use, %.1f MB free in its arenas; RSS %.1f MB after "
             "one more malloc_trim here)\n",
             (info.uordblks + info.hblkhd) / 1048576.0, info.fordblks / 1048576.0,
             (malloc_trim (0), rss_kib () / 1024.0));
  }
#endif
}

/* ------------------------------------------------------------------------ */

static gboolean
run_bench (gpointer data)
{
  Bench *bench = data;
  GApplication *app = g_application_get_default ();
  GdkFrameClock *clock;
  GskRenderer *renderer;

  bench->window = gtk_application_get_active_window (GTK_APPLICATION (app));
  g_assert (BL_IS_WINDOW (bench->window));
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  gtk_window_set_default_size (bench->window, 1366, 768);
  gtk_window_present (bench->window);
  while (!gtk_widget_get_mapped (GTK_WIDGET (bench->window)))
    g_main_context_iteration (NULL, TRUE);
  settle (0.5);

  clock = gtk_widget_get_frame_clock (GTK_WIDGET (bench->window));
  g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), bench);
  set_heartbeat (bench, HEARTBEAT_MS);
  renderer = gtk_native_get_renderer (GTK_NATIVE (bench->window));
  g_print ("window %dx%d, renderer %s, G_SLICE=%s\n",
           gtk_widget_get_width (GTK_WIDGET (bench->window)),
           gtk_widget_get_height (GTK_WIDGET (bench->window)),
           renderer ? G_OBJECT_TYPE_NAME (renderer) : "?",
           g_getenv ("G_SLICE") ? g_getenv ("G_SLICE") : "(unset)");

  for (guint i = 0; i < bench->n_files; i++)
    bench_file (bench, bench->files[i]);

  set_heartbeat (bench, 0);
  g_signal_handlers_disconnect_by_func (clock, after_paint_cb, bench);
  gtk_window_destroy (bench->window);
  g_application_release (app);

  return G_SOURCE_REMOVE;
}

static void
activate_cb (GApplication *app,
             Bench        *bench)
{
  g_application_hold (app);
  g_idle_add (run_bench, bench);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(BlApplication) app = NULL;
  g_autofree char *dir = NULL;
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  Bench bench = { 0 };
  char *app_argv[] = { argv[0], NULL };
  gboolean generated = argc < 2;
  gboolean one = argc == 3 && g_str_equal (argv[1], "--one");

  /* as the app's main() does: on GLib < 2.76, again with G_SLICE=always-malloc
   * (run with G_SLICE= set empty to measure GLib's own slices) */
  bl_slice_reexec (argv);
  setvbuf (stdout, NULL, _IOLBF, 0);

  bench.cli = g_getenv ("BRIGHTLENS_CLI") ? g_getenv ("BRIGHTLENS_CLI") : BRIGHTLENS_CLI_PATH;

  if ((argc == 3 || argc == 4) && g_str_equal (argv[1], "--write"))
    {
      g_autofree char *big = g_build_filename (argv[2], "long-session.bsprof", NULL);
      g_autofree char *million = g_build_filename (argv[2], "million-nodes.bsprof", NULL);
      guint64 mb = argc == 4 ? g_ascii_strtoull (argv[3], NULL, 10) : 256;

      write_long_session (big, MAX (mb, 1) << 20);
      write_million_nodes (million);
      g_print ("%s\n%s\n", big, million);
      return 0;
    }

  dir = g_dir_make_tmp ("bench-window-XXXXXX", &error);
  g_assert_no_error (error);

  if (generated)
    {
      char *big = g_build_filename (dir, "long-session-256mb.bsprof", NULL);
      char *million = g_build_filename (dir, "million-nodes.bsprof", NULL);
      gint64 t0 = g_get_monotonic_time ();

      write_long_session (big, 256ull << 20);
      write_million_nodes (million);
      g_print ("wrote the inputs in %.1f s\n", (g_get_monotonic_time () - t0) / 1e6);
      g_ptr_array_add (files, big);
      g_ptr_array_add (files, million);
    }
  else if (one)
    g_ptr_array_add (files, g_strdup (argv[2]));
  else
    for (int i = 1; i < argc; i++)
      g_ptr_array_add (files, g_strdup (argv[i]));

  if (!one && files->len > 1)
    {
      /* several files: each in a process of its own */
      for (guint i = 0; i < files->len; i++)
        {
          const char *child_argv[] = { argv[0], "--one", g_ptr_array_index (files, i), NULL };
          int wait_status = 0;

          if (!g_spawn_sync (NULL, (char **) child_argv, NULL, G_SPAWN_CHILD_INHERITS_STDIN,
                             NULL, NULL, NULL, NULL, &wait_status, &error) ||
              !g_spawn_check_wait_status (wait_status, &error))
            {
              g_printerr ("bench-window: %s: %s\n", (char *) g_ptr_array_index (files, i),
                          error->message);
              g_clear_error (&error);
              bench.status = 1;
            }
        }
    }
  else
    {
      bench.tiny = g_build_filename (dir, "tiny.bsprof", NULL);
      write_tiny (bench.tiny);
      bench.files = (char **) files->pdata;
      bench.n_files = files->len;

      app = bl_application_new ();
      g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
      g_signal_connect_after (app, "activate", G_CALLBACK (activate_cb), &bench);
      g_application_run (G_APPLICATION (app), 1, app_argv);

      g_unlink (bench.tiny);
      g_free (bench.tiny);
    }

  if (generated)
    for (guint i = 0; i < files->len; i++)
      g_unlink (g_ptr_array_index (files, i));
  g_rmdir (dir);

  return bench.status;
}
