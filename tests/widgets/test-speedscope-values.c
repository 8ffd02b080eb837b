/* test-speedscope-values.c — the widgets show speedscope's fractional
 * values as decimals (the profile holds them in a finer unit)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <string.h>

#include "bl-flame-chart.h"
#include "bl-flame-graph.h"
#include "bl-model.h"
#include "bl-speedscope-reader.h"

#define WIDTH  1000
#define HEIGHT 400

static BlProfile *
load (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data-files", "speedscope",
                                                 name, NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  BlProfile *profile;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  profile = bl_speedscope_read_memory ((const guint8 *) contents, len, &error);
  g_assert_no_error (error);

  return profile;
}

static void
present (GtkWidget *widget)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), widget);
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < 2000 && !(gtk_widget_get_mapped (widget) &&
                                  gtk_widget_get_width (widget) == WIDTH); i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_true (gtk_widget_get_mapped (widget));
  for (guint i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
}

static guint32
find_node (BlProfile  *profile,
           const char *stack)
{
  for (guint32 n = 0; n < bl_profile_get_n_nodes (profile); n++)
    {
      g_autofree char *s = bl_profile_dup_stack_string (profile, n, ';');

      if (g_str_equal (s, stack))
        return n;
    }
  g_assert_not_reached ();
}

/* weights 0.4 ×4 and 1.4: a 1.8 self, 3 total (not 1 and 1, as rounding
 * each weight gave) */
static void
test_flame_graph (void)
{
  g_autoptr(BlProfile) profile = load ("edge-fractional-none.speedscope.json");
  GtkWidget *graph = bl_flame_graph_new ();
  g_autofree char *tip = NULL;

  bl_flame_graph_set_profile (BL_FLAME_GRAPH (graph), profile);
  bl_flame_graph_set_metric (BL_FLAME_GRAPH (graph), BL_METRIC_WEIGHT);
  present (graph);

  tip = bl_flame_graph_dup_tooltip_text (BL_FLAME_GRAPH (graph), find_node (profile, "t;a"));
  g_test_message ("%s", tip);
  g_assert_nonnull (strstr (tip, "1.8 self, 3 total"));

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (graph)));
}

/* times of 1.5 and 2.1 ns: the time order shows them so */
static void
test_flame_chart (void)
{
  g_autoptr(BlProfile) profile = load ("edge-fractional-evented.speedscope.json");
  GtkWidget *chart = bl_flame_chart_new ();
  g_autofree char *tip = NULL;

  bl_flame_chart_set_profile (BL_FLAME_CHART (chart), profile, 0);
  present (chart);

  /* span 1: g, from 1.5 ns for 2.1 ns */
  tip = bl_flame_chart_dup_tooltip_text (BL_FLAME_CHART (chart), 1);
  g_test_message ("%s", tip);
  g_assert_nonnull (strstr (tip, "g — 2.1 ns"));
  g_assert_nonnull (strstr (tip, "starts at 1.5 ns"));

  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (chart)));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  /* no display is a failure, not a skip */
  if (!gtk_init_check ())
    g_error ("No display: widget tests need one (run them under xvfb-run)");

  g_test_add_func ("/widgets/speedscope-values/flame-graph", test_flame_graph);
  g_test_add_func ("/widgets/speedscope-values/flame-chart", test_flame_chart);

  return g_test_run ();
}
