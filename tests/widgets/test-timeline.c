/* test-timeline.c — BlTimeline and BlSessionView on known sessions, under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bl-model.h"
#include "bl-rrm-writer.h"
#include "bl-session-view.h"
#include "bl-timeline.h"
#include "widget-test-util.h"

#define WIDTH  1000
#define HEIGHT 900
#define MIB    (1024.0 * 1024.0)
#define T0     G_GINT64_CONSTANT (1700000000000)

/* memory_used climbs 1 MiB a second from 1 MiB; cpu_total is 10 % with a
 * gap at second 5; fps is 60 except 30 at second 40; beacons launch the
 * app in 2.5 s. */
static BlSession *
known_session (void)
{
  BlSession *session = bl_session_new ();
  BlSessionInfo *info = bl_session_get_info_mutable (session);

  info->channel_name = g_strdup ("Known App");
  info->channel_version = g_strdup ("1.0");
  info->device_name = g_strdup ("Roku Test");
  info->has_foreground_limit = TRUE;
  info->foreground_limit = (gint64) (80 * MIB);
  for (guint i = 0; i < 60; i++)
    {
      gint64 t = T0 + i * 1000;

      bl_session_add_sample (session, BL_SERIES_MEMORY_USED, t, (i + 1) * MIB, TRUE);
      bl_session_add_sample (session, BL_SERIES_CPU_TOTAL, t, 10, i != 5);
      bl_session_add_sample (session, BL_SERIES_FPS, t, i == 40 ? 30 : 60, TRUE);
    }
  bl_session_add_beacon (session, T0 + 100, "app_compile_initiate");
  bl_session_add_beacon (session, T0 + 2600, "app_load_complete");
  bl_session_begin_detail (session, BL_DETAIL_BITMAPS, T0);
  bl_session_add_bitmap (session, &(BlBitmap) { "pkg:/images/a.png", 4000, 50, 20, 32 });
  bl_session_add_bitmap (session, &(BlBitmap) { "pkg:/images/b.png", 9000, 75, 30, 32 });
  bl_session_finish (session);

  return session;
}

/* turns of the main loop, a millisecond each, that a wait may take */
#define WAIT_TURNS 2000

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 100;
}

static void
settle (void)
{
  for (guint i = 0; i < 30; i++)
    g_main_context_iteration (NULL, FALSE);
}

static GtkWidget *
present (GtkWidget *child)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (test_iterate_until (is_mapped, child, WAIT_TURNS));
  settle ();
  return window;
}

/* The widget's last frame as pixels (BGRA, premultiplied, stride 4 × width).
 * BL_TEST_SAVE_PNG=FILE keeps a copy to look at. */
static guint8 *
render_pixels (GtkWidget *widget,
               int       *width,
               int       *height)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderer *renderer;
  guint8 *pixels;

  gtk_widget_queue_draw (widget);
  gtk_test_widget_wait_for_draw (widget);
  settle ();

  *width = gtk_widget_get_width (widget);
  *height = gtk_widget_get_height (widget);
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), *width, *height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, *width, *height));
  if (g_getenv ("BL_TEST_SAVE_PNG") != NULL)
    gdk_texture_save_to_png (texture, g_getenv ("BL_TEST_SAVE_PNG"));
  pixels = g_malloc ((gsize) *width * *height * 4);
  gdk_texture_download (texture, pixels, (gsize) *width * 4);
  return pixels;
}

/* Whether a pixel within @radius of (x, y) is close to @color. */
static gboolean
has_color_near (const guint8  *pixels,
                int            width,
                int            height,
                double         x,
                double         y,
                int            radius,
                const GdkRGBA *color)
{
  for (int dy = -radius; dy <= radius; dy++)
    for (int dx = -radius; dx <= radius; dx++)
      {
        int px = (int) round (x) + dx, py = (int) round (y) + dy;
        const guint8 *p;
        double r, g, b, a;

        if (px < 0 || py < 0 || px >= width || py >= height)
          continue;
        /* premultiplied BGRA: a half-covered pixel of the line still counts */
        p = pixels + ((gsize) py * width + px) * 4;
        a = p[3] / 255.0;
        if (a < 0.5)
          continue;
        b = p[0] / 255.0 / a;
        g = p[1] / 255.0 / a;
        r = p[2] / 255.0 / a;
        if (fabs (r - color->red) < 0.2 && fabs (g - color->green) < 0.2 &&
            fabs (b - color->blue) < 0.2)
          return TRUE;
      }
  return FALSE;
}

static void
test_drawn_where_expected (void)
{
  g_autoptr(BlSession) session = known_session ();
  GtkWidget *timeline = bl_timeline_new ();
  GtkWidget *window = present (timeline);
  g_autofree guint8 *pixels = NULL;
  GdkRGBA used_color, cpu_color;
  graphene_rect_t area;
  int w, h;

  bl_timeline_set_session (BL_TIMELINE (timeline), session);
  settle ();
  g_assert_true (bl_timeline_get_series_color (BL_TIMELINE (timeline), BL_SERIES_MEMORY_USED,
                                               &used_color));
  g_assert_true (bl_timeline_get_series_color (BL_TIMELINE (timeline), BL_SERIES_CPU_TOTAL,
                                               &cpu_color));
  g_assert_true (bl_timeline_get_plot_area (BL_TIMELINE (timeline), BL_SERIES_GROUP_MEMORY,
                                            &area));
  g_assert_false (bl_timeline_get_plot_area (BL_TIMELINE (timeline),
                                             BL_SERIES_GROUP_GRAPHICS, &area));

  pixels = render_pixels (timeline, &w, &h);

  /* every few samples of the memory ramp sit on the line */
  for (guint i = 2; i < 58; i += 7)
    {
      double x = bl_timeline_time_to_x (BL_TIMELINE (timeline), T0 + i * 1000);
      double y = bl_timeline_value_to_y (BL_TIMELINE (timeline), BL_SERIES_MEMORY_USED,
                                         (i + 1) * MIB);
      double off = bl_timeline_value_to_y (BL_TIMELINE (timeline), BL_SERIES_MEMORY_USED,
                                           (i + 1) * MIB + 25 * MIB);

      if (!has_color_near (pixels, w, h, x, y, 2, &used_color))
        g_error ("memory sample %u is not drawn at (%.1f, %.1f)", i, x, y);
      if (i < 30)
        g_assert_false (has_color_near (pixels, w, h, x, off, 2, &used_color));
    }

  /* the flat CPU line, and its gap at second 5 */
  {
    double y = bl_timeline_value_to_y (BL_TIMELINE (timeline), BL_SERIES_CPU_TOTAL, 10);
    double x20 = bl_timeline_time_to_x (BL_TIMELINE (timeline), T0 + 20000);
    double x5 = bl_timeline_time_to_x (BL_TIMELINE (timeline), T0 + 5000);

    g_assert_true (has_color_near (pixels, w, h, x20, y, 2, &cpu_color));
    g_assert_false (has_color_near (pixels, w, h, x5, y, 1, &cpu_color));
  }

  /* time runs left to right over the plot */
  g_assert_cmpfloat (bl_timeline_time_to_x (BL_TIMELINE (timeline), T0), ==, area.origin.x);
  g_assert_cmpfloat_with_epsilon (bl_timeline_time_to_x (BL_TIMELINE (timeline), T0 + 59000),
                                  area.origin.x + area.size.width, 0.001);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_hover (void)
{
  g_autoptr(BlSession) session = known_session ();
  GtkWidget *timeline = bl_timeline_new ();
  GtkWidget *window = present (timeline);
  BlTimeline *tl = BL_TIMELINE (timeline);
  g_autofree char *text = NULL;
  double x;

  bl_timeline_set_session (tl, session);
  settle ();

  /* nearest sample in time: 12.4 s → sample 12, 12.6 s → 13 */
  x = bl_timeline_time_to_x (tl, T0 + 12400);
  g_assert_cmpint (bl_timeline_pick_sample (tl, BL_SERIES_MEMORY_USED, x), ==, 12);
  x = bl_timeline_time_to_x (tl, T0 + 12600);
  g_assert_cmpint (bl_timeline_pick_sample (tl, BL_SERIES_MEMORY_USED, x), ==, 13);
  /* the CPU gap at 5 s: the nearest present sample instead */
  x = bl_timeline_time_to_x (tl, T0 + 5100);
  g_assert_cmpint (bl_timeline_pick_sample (tl, BL_SERIES_CPU_TOTAL, x), ==, 6);

  /* the hover text holds every chart's value at that time */
  x = bl_timeline_time_to_x (tl, T0 + 40000);
  text = bl_timeline_dup_tooltip_text (tl, x, 100);
  g_assert_nonnull (strstr (text, "0:40"));
  g_assert_nonnull (strstr (text, "Memory used: 41.0 MiB"));
  g_assert_nonnull (strstr (text, "CPU total: 10.0 %"));
  g_assert_nonnull (strstr (text, "Frame rate: 30.0 fps"));
  g_clear_pointer (&text, g_free);

  /* a beacon under the pointer */
  x = bl_timeline_time_to_x (tl, T0 + 2600);
  text = bl_timeline_dup_tooltip_text (tl, x, 100);
  g_assert_nonnull (strstr (text, "app_load_complete"));

  /* after zooming in, the same time still picks the same sample */
  bl_time_axis_zoom (bl_timeline_get_axis (tl), 0.25, T0 + 30000);
  settle ();
  x = bl_timeline_time_to_x (tl, T0 + 30400);
  g_assert_cmpint (bl_timeline_pick_sample (tl, BL_SERIES_MEMORY_USED, x), ==, 30);
  g_assert_cmpint (bl_timeline_x_to_time (tl, x), ==, T0 + 30400);

  /* hidden charts have no place */
  bl_timeline_set_group_visible (tl, BL_SERIES_GROUP_CPU, FALSE);
  settle ();
  g_assert_true (isnan (bl_timeline_value_to_y (tl, BL_SERIES_CPU_TOTAL, 10)));
  g_assert_cmpint (bl_timeline_group_at (tl, bl_timeline_value_to_y (tl, BL_SERIES_FPS, 30)),
                   ==, BL_SERIES_GROUP_FPS);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_range_statistics (void)
{
  g_autoptr(BlSession) session = known_session ();
  BlSessionView *view = bl_session_view_new ();
  GtkWidget *window = present (GTK_WIDGET (view));
  BlTimeAxis *axis;
  g_autofree char *text = NULL;
  g_autofree char *summary = NULL;
  g_auto(GStrv) lines = NULL;

  bl_session_view_set_session (view, session);
  settle ();
  axis = bl_timeline_get_axis (bl_session_view_get_timeline (view));
  g_assert_null (bl_session_view_dup_range_text (view));

  /* seconds 10 to 30: memory 11 → 31 MiB, 1 MiB a second */
  bl_time_axis_set_selection (axis, T0 + 30000, T0 + 10000);
  settle ();
  text = bl_session_view_dup_range_text (view);
  g_assert_nonnull (text);
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpstr (lines[0], ==,
                   "memory_used\t11.0 MiB\t31.0 MiB\t21.0 MiB\t11.0 MiB → 31.0 MiB\t"
                   "+20.0 MiB\t+60.0 MiB");
  g_assert_cmpstr (lines[1], ==, "cpu_total\t10.0 %\t10.0 %\t10.0 %\t10.0 % → 10.0 %\t0.0 %\t—");
  g_assert_cmpstr (lines[2], ==, "fps\t60.0 fps\t60.0 fps\t60.0 fps\t60.0 fps → 60.0 fps\t"
                   "0.0 fps\t—");
  g_assert_null (lines[3] && *lines[3] ? lines[3] : NULL);

  bl_time_axis_clear_selection (axis);
  settle ();
  g_assert_null (bl_session_view_dup_range_text (view));

  summary = bl_session_view_dup_summary_text (view);
  g_assert_nonnull (strstr (summary, "Launch time: 2500 ms"));
  g_assert_nonnull (strstr (summary, "60.0 MiB · 75 % of 80.0 MiB"));
  g_assert_nonnull (strstr (summary, "Mean CPU: 10.0 %"));
  g_assert_nonnull (strstr (summary, "59.5 mean · 30.0 minimum"));

  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkEventController *
find_controller (GtkWidget *widget,
                 GType      type,
                 guint      button)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (c, type) &&
          (button == 0 || gtk_gesture_single_get_button (GTK_GESTURE_SINGLE (c)) == button))
        return c;
    }
  return NULL;
}

/* The timeline's own gestures, fed the coordinates a pointer would give. */
static void
test_interaction (void)
{
  g_autoptr(BlSession) session = known_session ();
  GtkWidget *timeline = bl_timeline_new ();
  GtkWidget *window = present (timeline);
  BlTimeline *tl = BL_TIMELINE (timeline);
  BlTimeAxis *axis = bl_timeline_get_axis (tl);
  GtkEventController *drag;
  GtkEventController *scroll;
  graphene_rect_t area;
  gint64 from, to, vs, ve, vs2, ve2;
  double x10, x30, y;
  gboolean handled = FALSE;

  bl_timeline_set_session (tl, session);
  settle ();
  drag = find_controller (timeline, GTK_TYPE_GESTURE_DRAG, GDK_BUTTON_PRIMARY);
  scroll = find_controller (timeline, GTK_TYPE_EVENT_CONTROLLER_SCROLL, 0);
  g_assert_nonnull (drag);
  g_assert_nonnull (scroll);
  g_assert_true (bl_timeline_get_plot_area (tl, BL_SERIES_GROUP_MEMORY, &area));
  y = area.origin.y + area.size.height / 2;
  x10 = bl_timeline_time_to_x (tl, T0 + 10000);
  x30 = bl_timeline_time_to_x (tl, T0 + 30000);

  /* a drag over the charts selects a range */
  g_signal_emit_by_name (drag, "drag-begin", x10, y);
  g_signal_emit_by_name (drag, "drag-update", x30 - x10, 4.0);
  g_signal_emit_by_name (drag, "drag-end", x30 - x10, 4.0);
  g_assert_true (bl_time_axis_get_selection (axis, &from, &to));
  g_assert_cmpint (llabs (from - (T0 + 10000)), <=, 60);
  g_assert_cmpint (llabs (to - (T0 + 30000)), <=, 60);

  /* a click chooses the instant and drops the selection */
  g_signal_emit_by_name (drag, "drag-begin", x30, y);
  g_signal_emit_by_name (drag, "drag-end", 1.0, 0.0);
  g_assert_false (bl_time_axis_get_selection (axis, NULL, NULL));
  g_assert_cmpint (llabs (bl_time_axis_get_instant (axis) - (T0 + 30000)), <=, 60);

  /* hovering sets the crosshair; the wheel zooms in around the pointer */
  g_signal_emit_by_name (find_controller (timeline, GTK_TYPE_EVENT_CONTROLLER_MOTION, 0),
                         "motion", x30, y);
  g_assert_true (bl_time_axis_get_hover (axis, &from));
  g_assert_cmpint (llabs (from - (T0 + 30000)), <=, 60);
  bl_time_axis_get_visible (axis, &vs, &ve);
  g_signal_emit_by_name (scroll, "scroll", 0.0, -1.0, &handled);
  g_assert_true (handled);
  bl_time_axis_get_visible (axis, &vs2, &ve2);
  g_assert_cmpint (ve2 - vs2, <, ve - vs);
  g_assert_cmpint (vs2, >, T0);
  x30 = bl_timeline_time_to_x (tl, T0 + 30000);
  g_assert_cmpint (llabs (bl_timeline_x_to_time (tl, x30) - (T0 + 30000)), <=, 60);

  /* dragging the ruler pans: content follows the pointer to the right */
  g_signal_emit_by_name (drag, "drag-begin", x30, 5.0);
  g_signal_emit_by_name (drag, "drag-update", 100.0, 0.0);
  g_signal_emit_by_name (drag, "drag-end", 100.0, 0.0);
  bl_time_axis_get_visible (axis, &vs, &ve);
  g_assert_cmpint (vs, <, vs2);
  g_assert_cmpint (ve - vs, ==, ve2 - vs2);
  g_assert_false (bl_time_axis_get_selection (axis, NULL, NULL));

  /* pans stop at the bounds */
  bl_time_axis_pan (axis, -G_GINT64_CONSTANT (1000000));
  bl_time_axis_get_visible (axis, &vs, NULL);
  g_assert_cmpint (vs, ==, T0);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A writer-made session with everything in it, through the whole view. */
static void
test_session_view (void)
{
  BlRrmWriterOptions o;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlSession) session = NULL;
  BlSessionView *view = bl_session_view_new ();
  GtkWidget *window = present (GTK_WIDGET (view));
  BlTimeline *tl = bl_session_view_get_timeline (view);
  int w, h;
  g_autofree guint8 *pixels = NULL;

  bl_rrm_writer_options_init (&o);
  o.scenario = BL_RRM_SCENARIO_REALISTIC;
  o.n_samples = 300;
  o.stagger = TRUE;
  o.null_every = 9;
  bytes = bl_rrm_write (&o);
  session = bl_rrm_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);

  bl_session_view_set_session (view, session);
  settle ();
  for (guint g = 0; g < BL_N_SERIES_GROUPS; g++)
    g_assert_true (bl_timeline_group_has_data (tl, g));

  /* choose an instant, zoom, pan: nothing breaks and the frame renders */
  bl_time_axis_set_instant (bl_timeline_get_axis (tl), o.start_ms + 120000);
  bl_time_axis_zoom (bl_timeline_get_axis (tl), 0.1, o.start_ms + 120000);
  bl_time_axis_pan (bl_timeline_get_axis (tl), 5000);
  bl_time_axis_set_hover (bl_timeline_get_axis (tl), o.start_ms + 121000);
  pixels = render_pixels (GTK_WIDGET (view), &w, &h);
  g_assert_cmpint (w, >, 0);

  /* a new session replaces the old one */
  bl_session_view_set_session (view, NULL);
  bl_session_view_set_session (view, session);
  settle ();

  gtk_window_destroy (GTK_WINDOW (window));
}

static GskRenderNode *snapshot_widget (GtkWidget *widget);

/* Text nodes whose bounds (in the widget's coordinates) meet @area. */
static guint
count_text_in (GskRenderNode         *node,
               const graphene_rect_t *area)
{
  guint n = 0;
  graphene_rect_t bounds;

  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_TEXT_NODE:
      /* GtkSnapshot folds the labels' translations into the text nodes */
      gsk_render_node_get_bounds (node, &bounds);
      return graphene_rect_intersection (&bounds, area, NULL) ? 1 : 0;
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        n += count_text_in (gsk_container_node_get_child (node, i), area);
      return n;
    case GSK_CLIP_NODE:
      return count_text_in (gsk_clip_node_get_child (node), area);
    case GSK_DEBUG_NODE:
      return count_text_in (gsk_debug_node_get_child (node), area);
    default:
      return 0;
    }
}

/* #14.8: the limits are on the memory scale (data to 30 MiB, limits of 100
 * and 200 MiB); fitting the data moves them above it */
static void
test_limits (void)
{
  g_autoptr(BlSession) session = bl_session_new ();
  BlSessionInfo *info = bl_session_get_info_mutable (session);
  GtkWidget *timeline = bl_timeline_new ();
  GtkWidget *window = present (timeline);
  g_autofree guint8 *pixels = NULL;
  graphene_rect_t area;
  GdkRGBA error_color = { 0, 0, 0, 1 };
  double y_fg, y_bg, y_75;
  int w, h;

  info->has_foreground_limit = TRUE;
  info->foreground_limit = (gint64) (200 * MIB);
  info->has_background_limit = TRUE;
  info->background_limit = (gint64) (100 * MIB);
  for (guint i = 0; i < 60; i++)
    bl_session_add_sample (session, BL_SERIES_MEMORY_USED, T0 + i * 1000, (10 + i / 3) * MIB,
                           TRUE);
  bl_session_finish (session);
  bl_timeline_set_session (BL_TIMELINE (timeline), session);
  settle ();

  g_assert_true (bl_timeline_get_plot_area (BL_TIMELINE (timeline), BL_SERIES_GROUP_MEMORY,
                                            &area));
  y_fg = bl_timeline_value_to_y (BL_TIMELINE (timeline), BL_SERIES_MEMORY_USED, 200 * MIB);
  y_bg = bl_timeline_value_to_y (BL_TIMELINE (timeline), BL_SERIES_MEMORY_USED, 100 * MIB);
  y_75 = bl_timeline_value_to_y (BL_TIMELINE (timeline), BL_SERIES_MEMORY_USED, 150 * MIB);
  g_assert_cmpfloat (y_fg, >=, area.origin.y);
  g_assert_cmpfloat (y_75, >, y_fg);
  g_assert_cmpfloat (y_bg, >, y_75);
  g_assert_cmpfloat (y_bg, <, area.origin.y + area.size.height);

  /* the foreground limit's dashes, in the theme's error colour */
  gtk_style_context_lookup_color (gtk_widget_get_style_context (timeline), "error_color",
                                  &error_color);
  pixels = render_pixels (timeline, &w, &h);
  {
    gboolean found = FALSE;

    for (double x = area.origin.x + 2; x < area.origin.x + 200 && !found; x += 1)
      found = has_color_near (pixels, w, h, x, y_fg, 0, &error_color);
    g_assert_true (found);
  }

  /* the toggle fits the scale to the data: the limits are above it */
  bl_timeline_set_memory_fits_data (BL_TIMELINE (timeline), TRUE);
  g_assert_true (bl_timeline_get_memory_fits_data (BL_TIMELINE (timeline)));
  y_fg = bl_timeline_value_to_y (BL_TIMELINE (timeline), BL_SERIES_MEMORY_USED, 200 * MIB);
  g_assert_cmpfloat (y_fg, <, area.origin.y);
  g_assert_cmpfloat (bl_timeline_value_to_y (BL_TIMELINE (timeline), BL_SERIES_MEMORY_USED,
                                             30 * MIB), >=, area.origin.y);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* #14.9: an hour at 1 Hz of a value jumping between 20 and 60 MiB: an
 * envelope per pixel column with the mean line inside, not a solid block */
static void
test_envelope (void)
{
  g_autoptr(BlSession) session = bl_session_new ();
  GtkWidget *timeline = bl_timeline_new ();
  GtkWidget *window = present (timeline);
  g_autofree guint8 *pixels = NULL;
  GdkRGBA color;
  graphene_rect_t area;
  int w, h;

  for (guint i = 0; i < 3600; i++)
    bl_session_add_sample (session, BL_SERIES_MEMORY_USED, T0 + i * 1000,
                           (i % 2 ? 60 : 20) * MIB, TRUE);
  bl_session_finish (session);
  bl_timeline_set_session (BL_TIMELINE (timeline), session);
  settle ();
  g_assert_true (bl_timeline_get_series_color (BL_TIMELINE (timeline), BL_SERIES_MEMORY_USED,
                                               &color));
  g_assert_true (bl_timeline_get_plot_area (BL_TIMELINE (timeline), BL_SERIES_GROUP_MEMORY,
                                            &area));
  g_assert_cmpfloat (3600 / area.size.width, >, 2);
  pixels = render_pixels (timeline, &w, &h);

  for (double frac = 0.2; frac < 0.9; frac += 0.15)
    {
      double x = area.origin.x + frac * area.size.width;
      double y_mean = bl_timeline_value_to_y (BL_TIMELINE (timeline), BL_SERIES_MEMORY_USED,
                                              40 * MIB);
      double y_high = bl_timeline_value_to_y (BL_TIMELINE (timeline), BL_SERIES_MEMORY_USED,
                                              55 * MIB);
      double y_low = bl_timeline_value_to_y (BL_TIMELINE (timeline), BL_SERIES_MEMORY_USED,
                                             25 * MIB);
      double y_out = bl_timeline_value_to_y (BL_TIMELINE (timeline), BL_SERIES_MEMORY_USED,
                                             70 * MIB);
      const guint8 *high = pixels + ((gsize) round (y_high) * w + (int) x) * 4;
      const guint8 *out = pixels + ((gsize) round (y_out) * w + (int) x) * 4;

      /* the line at the mean */
      g_assert_true (has_color_near (pixels, w, h, x, y_mean, 1, &color));
      /* inside the range a tint, not the line's colour */
      g_assert_false (has_color_near (pixels, w, h, x, y_high, 0, &color));
      g_assert_false (has_color_near (pixels, w, h, x, y_low, 0, &color));
      g_assert_true (memcmp (high, out, 4) != 0);
    }

  /* the title and legend sit above the plot: no data runs under them */
  {
    g_autoptr(GskRenderNode) node = snapshot_widget (timeline);

    g_assert_cmpuint (count_text_in (node, &area), ==, 0);
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_label (c, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static guint
count_selected_labels (GtkWidget *widget)
{
  guint n = 0;
  int start, end;

  if (GTK_IS_LABEL (widget) && gtk_label_get_selection_bounds (GTK_LABEL (widget), &start, &end))
    n++;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    n += count_selected_labels (c);
  return n;
}

/* #14.11: no cell shows as selected text, no caret in the title; the tab
 * keeps its width when a range is selected; the range table's heading
 * stays out of the scrolled rows, in line with them */
static void
test_session_tables (void)
{
  g_autoptr(BlSession) session = known_session ();
  BlSessionView *view = bl_session_view_new ();
  GtkWidget *window = present (GTK_WIDGET (view));
  BlTimeAxis *axis;
  GtkNotebook *notebook;
  GtkWidget *tab, *heading, *minimum, *value, *focus;
  graphene_rect_t a, b;
  int before, after;

  bl_session_view_set_session (view, session);
  settle ();
  gtk_widget_grab_focus (GTK_WIDGET (view));
  gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD);
  settle ();
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_false (focus != NULL && GTK_IS_LABEL (focus));
  g_assert_cmpuint (count_selected_labels (GTK_WIDGET (view)), ==, 0);

  notebook = GTK_NOTEBOOK (gtk_widget_get_ancestor (find_label (GTK_WIDGET (view), "Bitmap"),
                                                    GTK_TYPE_NOTEBOOK));
  g_assert_nonnull (notebook);
  tab = gtk_notebook_get_tab_label (notebook, gtk_notebook_get_nth_page (notebook, 0));
  gtk_widget_measure (tab, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &before, NULL, NULL);

  axis = bl_timeline_get_axis (bl_session_view_get_timeline (view));
  bl_time_axis_set_selection (axis, T0 + 10000, T0 + 30000);
  settle ();
  gtk_widget_measure (tab, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &after, NULL, NULL);
  g_assert_cmpint (before, ==, after);
  g_assert_nonnull (find_label (GTK_WIDGET (view), "Selected 0:10 – 0:30 (20.0 s)"));
  g_assert_cmpuint (count_selected_labels (GTK_WIDGET (view)), ==, 0);

  heading = find_label (GTK_WIDGET (view), "Series");
  minimum = find_label (GTK_WIDGET (view), "Minimum");
  value = find_label (GTK_WIDGET (view), "11.0 MiB");
  g_assert_nonnull (heading);
  g_assert_nonnull (value);
  g_assert_null (gtk_widget_get_ancestor (heading, GTK_TYPE_SCROLLED_WINDOW));
  g_assert_nonnull (gtk_widget_get_ancestor (value, GTK_TYPE_SCROLLED_WINDOW));
  g_assert_true (gtk_widget_compute_bounds (minimum, GTK_WIDGET (view), &a));
  g_assert_true (gtk_widget_compute_bounds (value, GTK_WIDGET (view), &b));
  g_assert_cmpfloat_with_epsilon (a.origin.x + a.size.width, b.origin.x + b.size.width, 1);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Render nodes of one kind in a node tree. */
static guint
count_nodes (GskRenderNode  *node,
             GskRenderNodeType type)
{
  guint n = gsk_render_node_get_node_type (node) == type;

  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        n += count_nodes (gsk_container_node_get_child (node, i), type);
      break;
    case GSK_CLIP_NODE:
      n += count_nodes (gsk_clip_node_get_child (node), type);
      break;
    case GSK_TRANSFORM_NODE:
      n += count_nodes (gsk_transform_node_get_child (node), type);
      break;
    case GSK_OPACITY_NODE:
      n += count_nodes (gsk_opacity_node_get_child (node), type);
      break;
    case GSK_ROUNDED_CLIP_NODE:
      n += count_nodes (gsk_rounded_clip_node_get_child (node), type);
      break;
    case GSK_DEBUG_NODE:
      n += count_nodes (gsk_debug_node_get_child (node), type);
      break;
    default:
      break;
    }
  return n;
}

static GskRenderNode *
snapshot_widget (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();

  gtk_widget_queue_draw (widget);
  gtk_test_widget_wait_for_draw (widget);
  settle ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), gtk_widget_get_width (widget),
                          gtk_widget_get_height (widget));
  return gtk_snapshot_free_to_node (snapshot);
}

/* #15.6: the ruler's ticks are bounded whatever the span (twenty years of
 * points twelve hours apart gave ~88,000 ticks) */
static void
test_ruler_bounded (void)
{
  g_autoptr(BlSession) session = bl_session_new ();
  GtkWidget *timeline = bl_timeline_new ();
  GtkWidget *window = present (timeline);
  g_autoptr(GskRenderNode) node = NULL;
  guint n_text;

  for (guint i = 0; i < 20 * 730; i++)
    bl_session_add_sample (session, BL_SERIES_CPU_TOTAL, T0 + (gint64) i * 43200000, i % 100,
                           TRUE);
  bl_session_finish (session);
  g_assert_null (bl_session_get_warning (session));

  bl_timeline_set_session (BL_TIMELINE (timeline), session);
  settle ();
  node = snapshot_widget (timeline);
  g_assert_nonnull (node);
  /* one label per tick, at least 90 px apart, plus the chart's legend and scale */
  n_text = count_nodes (node, GSK_TEXT_NODE);
  g_assert_cmpuint (n_text, >=, 3);
  g_assert_cmpuint (n_text, <=, WIDTH / 90 + 30);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  /* the accessibility bus is shared by every test run on this machine and
   * comes and goes with them; these tests do not need it */
  g_setenv ("GTK_A11Y", "none", TRUE);

  /* no display is a failure, not a skip */
  if (!gtk_init_check ())
    g_error ("No display: widget tests need one (run them under xvfb-run)");

  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  g_test_add_func ("/widgets/timeline/drawn-where-expected", test_drawn_where_expected);
  g_test_add_func ("/widgets/timeline/hover", test_hover);
  g_test_add_func ("/widgets/timeline/range-statistics", test_range_statistics);
  g_test_add_func ("/widgets/timeline/interaction", test_interaction);
  g_test_add_func ("/widgets/timeline/session-view", test_session_view);
  g_test_add_func ("/widgets/timeline/ruler-bounded", test_ruler_bounded);
  g_test_add_func ("/widgets/timeline/limits", test_limits);
  g_test_add_func ("/widgets/timeline/envelope", test_envelope);
  g_test_add_func ("/widgets/timeline/session-tables", test_session_tables);

  return g_test_run ();
}
