/* bench-trace-timeline.c — the Timeline page on a trace of a million slices
 *
 * Writes (in memory) a Roku app trace of about 1,000,000 slices with the
 * test writer, reads it, then prints:
 * - the call tree of a range (BlProfileRange): the first build with the
 *   index, then ranges like a drag makes them (the end moving over the
 *   trace, and narrow ranges), min / median / max milliseconds, beside
 *   bl_profile_finish()-free peers: the read of the same trace;
 * - CPU milliseconds per timeline frame (the widget's snapshot to render nodes)
 *   for the whole trace, a 100× and a 10,000× zoom, each frame panned a
 *   little, beside the flame chart (BlFlameChart) of the same profile
 *   measured the same way.
 *
 * Needs a display (run under xvfb-run). Wall-clock figures on a shared
 * machine: compare with the peers printed in the same run.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <stdlib.h>
#include <time.h>

#include "bl-flame-chart.h"
#include "bl-model.h"
#include "bl-perfetto-reader.h"
#include "bl-profile-range.h"
#include "bl-trace-sample.h"
#include "bl-trace-timeline.h"

#define N_FRAMES_TRACE 285000   /* ~3.5 slices each */
#define WIDTH          1600
#define HEIGHT         900
#define N_DRAWS        30

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

/* CPU time of this thread: on a machine shared with other jobs the
 * wall-clock figures include time spent waiting for a core */
static double
cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static void
print_stats (const char *what,
             GArray     *times)
{
  g_array_sort (times, compare_doubles);
  g_print ("%-44s min %8.2f  median %8.2f  max %8.2f ms  (%u runs)\n", what,
           g_array_index (times, double, 0),
           g_array_index (times, double, times->len / 2),
           g_array_index (times, double, times->len - 1), times->len);
}

static void
push (GArray *times,
      double  ms)
{
  g_array_append_val (times, ms);
}

static void
settle (void)
{
  for (guint i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
}

static double
snapshot_ms (GtkWidget *widget)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  double t0 = cpu_ms ();

  /* the widget's own snapshot, not GTK's cached node of the last frame */
  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  t0 = cpu_ms () - t0;
  if (node != NULL)
    gsk_render_node_unref (node);

  return t0;
}

static GtkWidget *
present (GtkWidget *child)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < 5000 && gtk_widget_get_width (child) != WIDTH; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  settle ();

  return window;
}

int
main (int   argc,
      char *argv[])
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (BlProfile) profile = NULL;
  g_autoptr (BlProfileRange) range = NULL;
  g_autoptr (GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  GtkWidget *timeline, *chart, *window;
  const guint8 *data;
  guint64 n_spans = 0;
  guint64 start, end;
  gsize len;
  double t;

  gtk_init ();

  bl_trace_sample_write (w, N_FRAMES_TRACE, 1);
  bytes = bl_pbw_steal (w);
  bl_pbw_free (w);
  data = g_bytes_get_data (bytes, &len);

  t = now_ms ();
  profile = bl_perfetto_read_memory (data, len, &error);
  t = now_ms () - t;
  g_assert_no_error (error);
  for (guint i = 0; i < bl_profile_get_n_threads (profile); i++)
    {
      BlSpanList list;

      bl_profile_get_spans (profile, i, &list);
      n_spans += list.n_spans;
    }
  g_print ("trace: %.1f MB, %" G_GUINT64_FORMAT " slices, read in %.0f ms (peer)\n",
           len / 1e6, n_spans, t);

  /* the range's call tree */
  range = bl_profile_range_new (profile);
  {
    g_autoptr (BlProfile) part = NULL;
    guint64 t_first;

    bl_profile_get_time_range (profile, 0, &start, &end);
    t = now_ms ();
    part = bl_profile_range_build (range, 0, G_MAXUINT64, NULL);
    t = now_ms () - t;
    t_first = bl_profile_get_grand_total (part, BL_METRIC_TIME_NS);
    g_print ("range: first build, whole trace (with index)   %8.2f ms  (total %s)\n", t,
             t_first == bl_profile_get_grand_total (profile, BL_METRIC_TIME_NS)
             ? "= the profile's" : "DIFFERS");
  }

  for (guint i = 1; i <= 40; i++)
    {
      guint64 from = start + (end - start) / 3;
      guint64 to = from + (end - from) * i / 40;
      g_autoptr (BlProfile) part = NULL;

      t = now_ms ();
      part = bl_profile_range_build (range, from, to, NULL);
      push (times, now_ms () - t);
    }
  print_stats ("range: a drag's end over 2/3 of the trace", times);
  g_array_set_size (times, 0);

  for (guint i = 0; i < 40; i++)
    {
      guint64 from = start + (end - start) * i / 40;
      guint64 to = from + (end - start) / 100;
      g_autoptr (BlProfile) part = NULL;

      t = now_ms ();
      part = bl_profile_range_build (range, from, to, NULL);
      push (times, now_ms () - t);
    }
  print_stats ("range: 1 % of the trace", times);
  g_array_set_size (times, 0);

  /* frames */
  timeline = bl_trace_timeline_new ();
  bl_trace_timeline_set_profile (BL_TRACE_TIMELINE (timeline), profile);
  window = present (timeline);
  for (guint z = 0; z < 3; z++)
    {
      static const double zooms[] = { 1, 100, 10000 };
      static const char *names[] = {
        "timeline frame: whole trace", "timeline frame: 100× zoom", "timeline frame: 10,000× zoom",
      };
      double span = (double) (end - start) / zooms[z];

      for (guint i = 0; i < N_DRAWS; i++)
        {
          double v0 = start + (end - start - span) * i / (2.0 * N_DRAWS);

          bl_trace_timeline_set_visible_range (BL_TRACE_TIMELINE (timeline), v0, v0 + span);
          push (times, snapshot_ms (timeline));
        }
      print_stats (names[z], times);
      g_array_set_size (times, 0);
    }
  gtk_window_destroy (GTK_WINDOW (window));
  settle ();

  /* the peer: the flame chart of the same profile, every thread */
  chart = bl_flame_chart_new ();
  bl_flame_chart_set_profile (BL_FLAME_CHART (chart), profile, G_MAXUINT);
  window = present (chart);
  for (guint i = 0; i < N_DRAWS; i++)
    {
      bl_flame_chart_pan (BL_FLAME_CHART (chart), 0);
      bl_flame_chart_reset_zoom (BL_FLAME_CHART (chart));
      push (times, snapshot_ms (chart));
    }
  print_stats ("flame chart frame: whole trace (peer)", times);
  gtk_window_destroy (GTK_WINDOW (window));
  settle ();

  return EXIT_SUCCESS;
}
