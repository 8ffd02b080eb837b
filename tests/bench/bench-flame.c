/* bench-flame.c — milliseconds per flame graph frame on a 1,000,000-node tree
 *
 * Builds a generated profile of a million nodes (bench-profile-gen.c,
 * shared with bench-transform), shows it in a 1920×1080 BlFlameGraph and
 * prints, for the full view and for a deep zoom, the time to
 * build the frame's render nodes (the widget's snapshot, with the view moved
 * a little each frame so that the cached bars are rebuilt every time) and the
 * time to render those nodes offscreen with the cairo renderer.
 *
 * Needs a display (run under xvfb-run). Target: < 8 ms per frame for building
 * the nodes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <stdlib.h>
#include <time.h>

#include "bench-profile-gen.h"
#include "bl-flame-graph.h"
#include "bl-model.h"
#include "bl-profile-node.h"

#define WIDTH     1920
#define HEIGHT    1080
#define N_FRAMES  60

static BlProfile *
generate (void)
{
  BenchProfileGenOptions options = { "Thread ", FALSE, NULL, NULL };

  return bench_profile_gen (&options);
}

static gboolean
ready (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

/* a screen smaller than 1920×1080 clamps the window: allocate the widget
 * itself, which is what its parent would do on a big enough screen */
static void
force_size (GtkWidget *graph)
{
  gtk_widget_size_allocate (graph, &(GtkAllocation) { 0, 0, WIDTH, HEIGHT }, -1);
  g_assert (gtk_widget_get_width (graph) == WIDTH);
}

/* CPU time of this thread in microseconds: on a machine shared with other
 * jobs the wall-clock figures include time spent waiting for a core */
static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static void
run_frames (const char   *label,
            GtkWidget    *graph,
            GskRenderer  *renderer,
            double        x0,
            double        x1)
{
  double build[N_FRAMES], render[N_FRAMES], build_cpu[N_FRAMES];
  double width = x1 - x0;
  double build_sum = 0, render_sum = 0;
  guint n_nodes_in_frame = 0;

  for (guint i = 0; i < N_FRAMES; i++)
    {
      GtkSnapshot *snapshot;
      GskRenderNode *node;
      GdkTexture *texture;
      gint64 t0, t1, t2, c0, c1;
      /* move the view a little each frame (a pan, or for the full view a
       * slight zoom): the cached bars must be rebuilt every time */
      double step = width * 1e-4 * ((i % 5) + 1);

      if (x0 <= 0 && x1 >= 1)
        bl_flame_graph_set_visible_range (BL_FLAME_GRAPH (graph), step, 1 - step);
      else
        bl_flame_graph_set_visible_range (BL_FLAME_GRAPH (graph), x0 + step, x1 + step);

      t0 = g_get_monotonic_time ();
      c0 = thread_cpu_us ();
      snapshot = gtk_snapshot_new ();
      GTK_WIDGET_GET_CLASS (graph)->snapshot (graph, snapshot);
      node = gtk_snapshot_free_to_node (snapshot);
      c1 = thread_cpu_us ();
      t1 = g_get_monotonic_time ();
      texture = gsk_renderer_render_texture (renderer, node,
                                             &GRAPHENE_RECT_INIT (0, 0, WIDTH, HEIGHT));
      t2 = g_get_monotonic_time ();

      if (i == 0)
        {
          if (gsk_render_node_get_node_type (node) == GSK_CONTAINER_NODE)
            n_nodes_in_frame = gsk_container_node_get_n_children (node);
          g_print ("%-10s first frame (cold label cache): build %.2f ms, render %.2f ms\n",
                   label, (t1 - t0) / 1000.0, (t2 - t1) / 1000.0);
        }

      build[i] = (t1 - t0) / 1000.0;
      build_cpu[i] = (c1 - c0) / 1000.0;
      render[i] = (t2 - t1) / 1000.0;
      build_sum += build[i];
      render_sum += render[i];

      g_object_unref (texture);
      gsk_render_node_unref (node);
    }

  qsort (build, N_FRAMES, sizeof (double), compare_double);
  qsort (build_cpu, N_FRAMES, sizeof (double), compare_double);
  qsort (render, N_FRAMES, sizeof (double), compare_double);

  g_print ("%-10s range [%.9f, %.9f], %u render nodes per frame:\n"
           "           build nodes %.2f ms/frame wall (median %.2f, max %.2f), "
           "median %.2f ms of CPU time\n"
           "           render offscreen %.2f ms/frame (median %.2f)\n",
           label, x0, x1, n_nodes_in_frame,
           build_sum / N_FRAMES, build[N_FRAMES / 2], build[N_FRAMES - 1],
           build_cpu[N_FRAMES / 2],
           render_sum / N_FRAMES, render[N_FRAMES / 2]);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(BlFlameLayout) layout = NULL;
  g_autoptr(GskRenderer) renderer = NULL;
  g_autoptr(GError) error = NULL;
  const BlFlameRect *rects;
  GtkWidget *window, *graph;
  gint64 t0;
  guint deep = G_MAXUINT;

  if (!gtk_init_check ())
    g_error ("bench-flame needs a display (run it under xvfb-run)");

  t0 = g_get_monotonic_time ();
  profile = generate ();
  g_print ("generated %u nodes, %u functions in %.0f ms\n",
           bl_profile_get_n_nodes (profile), bl_profile_get_n_functions (profile),
           (g_get_monotonic_time () - t0) / 1000.0);

  t0 = g_get_monotonic_time ();
  layout = bl_flame_layout_new (profile, BL_METRIC_CPU, BL_FLAME_ALL_THREADS, NULL, &error);
  g_assert_no_error (error);
  g_print ("layout: %u frames in %u levels, %.1f ms (in a worker in the app)\n",
           bl_flame_layout_get_n_rects (layout), bl_flame_layout_get_n_levels (layout),
           (g_get_monotonic_time () - t0) / 1000.0);

  /* the rows the tables start from (made in a worker in the app) */
  {
    g_autoptr(GListModel) functions = NULL;
    g_autoptr(GListModel) roots = NULL;

    t0 = g_get_monotonic_time ();
    functions = bl_profile_node_list_functions (profile, G_MAXUINT, BL_PROFILE_NODE_FUNCTION);
    g_print ("function rows: %u in %.1f ms\n", g_list_model_get_n_items (functions),
             (g_get_monotonic_time () - t0) / 1000.0);
    t0 = g_get_monotonic_time ();
    roots = bl_profile_node_list_functions (profile, G_MAXUINT, BL_PROFILE_NODE_CALLERS);
    g_print ("bottom-up roots: %u in %.1f ms\n", g_list_model_get_n_items (roots),
             (g_get_monotonic_time () - t0) / 1000.0);
  }

  window = gtk_window_new ();
  graph = bl_flame_graph_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), graph);
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < 5000 && !ready (graph); i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  if (!ready (graph))
    g_error ("the window did not get its size");

  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  bl_flame_graph_set_profile (BL_FLAME_GRAPH (graph), profile);
  bl_flame_graph_set_layout (BL_FLAME_GRAPH (graph), layout);
  for (guint i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
  force_size (graph);

  renderer = gsk_cairo_renderer_new ();
  if (!gsk_renderer_realize (renderer, NULL, &error))
    g_error ("cannot realize the cairo renderer: %s", error->message);

  run_frames ("full view", graph, renderer, 0, 1);

  /* a deep zoom: the widest frame at depth 20, about a millionth of the total */
  rects = bl_flame_layout_get_rects (layout);
  {
    guint begin, end;

    bl_flame_layout_get_level (layout, MIN (20, bl_flame_layout_get_n_levels (layout) - 1),
                               &begin, &end);
    for (guint i = begin; i < end; i++)
      if (rects[i].x1 - rects[i].x0 < 2e-6 && rects[i].x1 - rects[i].x0 > 2e-7)
        {
          deep = i;
          break;
        }
    if (deep == G_MAXUINT)
      deep = begin;
  }
  run_frames ("deep zoom", graph, renderer, rects[deep].x0, rects[deep].x1);

  gsk_renderer_unrealize (renderer);
  gtk_window_destroy (GTK_WINDOW (window));

  return 0;
}
