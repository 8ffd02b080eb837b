/* test-trace-view.c — a Perfetto trace's Timeline page under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <math.h>
#include <string.h>

#include "bl-flame-layout.h"
#include "bl-model.h"
#include "bl-perfetto-reader.h"
#include "bl-perfetto-writer.h"
#include "bl-profile-view.h"
#include "bl-trace-sample.h"
#include "bl-trace-view.h"

#define WIDTH  800
#define HEIGHT 600

/* thread a: A [1000, 9000) holding B [2000, 4000) (annotated, a flow out),
 * an instant "mark" at 6000; thread b: C [5000, 7000) (the flow's end);
 * a global instant "boot" at 8000; counter "memory": 10 from 1000, 30 from
 * 5000, 20 from 9000. */
static BlProfile *
small_trace (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  const guint8 *data;
  BlProfile *profile;
  gsize len;

  bl_pftw_thread_track (w, 1, 1, 11, "a");
  bl_pftw_thread_track (w, 2, 1, 12, "b");
  bl_pftw_named_track (w, 3, 0, "app");
  bl_pftw_counter_track (w, 20, "memory", 1, FALSE);
  bl_pftw_event (w, 1, 1000, 1, 1, "A");
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 8, 2000);
  bl_pbw_varint (w, 10, 1);
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 9, 1);
  bl_pbw_varint (w, 11, 1);
  bl_pbw_string (w, 23, "B");
  bl_pbw_begin (w, 4);
  bl_pbw_string (w, 10, "size");
  bl_pbw_varint (w, 4, 12);
  bl_pbw_end (w);
  bl_pbw_begin (w, 4);
  bl_pbw_string (w, 10, "url");
  bl_pbw_string (w, 6, "http://x");
  bl_pbw_end (w);
  bl_pbw_fixed64 (w, 47, 555);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pftw_event (w, 1, 4000, 2, 1, NULL);
  bl_pftw_event (w, 1, 6000, 3, 1, "mark");
  bl_pftw_event (w, 1, 9000, 2, 1, NULL);
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 8, 5000);
  bl_pbw_varint (w, 10, 1);
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 9, 1);
  bl_pbw_varint (w, 11, 2);
  bl_pbw_string (w, 23, "C");
  bl_pbw_fixed64 (w, 48, 555);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pftw_event (w, 1, 7000, 2, 2, NULL);
  bl_pftw_event (w, 1, 8000, 3, 3, "boot");
  bl_pftw_counter (w, 1, 1000, 20, 10);
  bl_pftw_counter (w, 1, 5000, 20, 30);
  bl_pftw_counter (w, 1, 9000, 20, 20);

  bytes = bl_pbw_steal (w);
  bl_pbw_free (w);
  data = g_bytes_get_data (bytes, &len);
  profile = bl_perfetto_read_memory (data, len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (profile);

  return profile;
}

static void
settle (void)
{
  for (guint i = 0; i < 50; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static GtkWidget *
present (GtkWidget *child)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < 3000 && (!gtk_widget_get_mapped (child) ||
                                  gtk_widget_get_width (child) != WIDTH); i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_true (gtk_widget_get_mapped (child));
  settle ();

  return window;
}

static void
wait_for_layout (BlFlameGraph *graph)
{
  for (guint i = 0; i < 5000 && bl_flame_graph_get_layout (graph) == NULL; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_nonnull (bl_flame_graph_get_layout (graph));
}

/* The widget's frame as premultiplied BGRA pixels. */
static guint8 *
render_pixels (GtkWidget *widget,
               int       *width,
               int       *height)
{
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  GskRenderer *renderer;
  guint8 *pixels;

  gtk_widget_queue_draw (widget);
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

static gboolean
pixel_is (const guint8  *pixels,
          int            width,
          int            height,
          double         x,
          double         y,
          const GdkRGBA *color)
{
  int px = (int) floor (x), py = (int) floor (y);
  const guint8 *p;
  double a;

  g_assert_cmpint (px, >=, 0);
  g_assert_cmpint (py, >=, 0);
  g_assert_cmpint (px, <, width);
  g_assert_cmpint (py, <, height);
  p = pixels + ((gsize) py * width + px) * 4;
  a = p[3] / 255.0;
  if (a < 0.5)
    return FALSE;

  return fabs (p[2] / 255.0 / a - color->red) < 0.08 &&
         fabs (p[1] / 255.0 / a - color->green) < 0.08 &&
         fabs (p[0] / 255.0 / a - color->blue) < 0.08;
}

static const char *
instant_name (BlProfile *profile,
              guint      instant)
{
  const BlPerfettoTrace *trace = bl_perfetto_get_trace (profile);

  return bl_profile_get_string (profile,
                                g_array_index (trace->instants, BlPerfettoInstant, instant).name);
}

static guint32
find_span (BlProfile  *profile,
           guint       thread,
           const char *name)
{
  BlSpanList list;
  gsize n_spans = bl_profile_get_spans (profile, thread, &list) ? list.n_spans : 0;
  const BlSpan *spans = list.spans;

  for (gsize i = 0; i < n_spans; i++)
    if (g_strcmp0 (bl_profile_get_node_name (profile, spans[i].node), name) == 0)
      return (guint32) i;
  g_assert_not_reached ();
}

typedef struct
{
  BlProfile       *profile;
  BlTraceView     *view;
  BlTraceTimeline *timeline;
  GtkWidget       *window;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->profile = small_trace ();
  f->view = BL_TRACE_VIEW (bl_trace_view_new ());
  bl_trace_view_set_profile (f->view, f->profile);
  f->timeline = bl_trace_view_get_timeline (f->view);
  f->window = present (GTK_WIDGET (f->view));
  /* the whole trace, 8000 ns, across the timeline */
  bl_trace_timeline_reset_zoom (f->timeline);
  settle ();
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  settle ();
  g_clear_object (&f->profile);
}

static void
test_lanes_drawn (Fixture       *f,
                  gconstpointer  data)
{
  GtkWidget *widget = GTK_WIDGET (f->timeline);
  g_autofree guint8 *pixels = NULL;
  graphene_rect_t b, c, header, body;
  GdkRGBA color, counter_color;
  guint64 start, end;
  guint32 span_b = find_span (f->profile, 0, "B");
  guint32 span_c = find_span (f->profile, 1, "C");
  int width, height;
  double x;

  bl_trace_timeline_get_bounds (f->timeline, &start, &end);
  g_assert_cmpuint (start, ==, 1000);
  g_assert_cmpuint (end, ==, 9000);

  /* markers, a, b, memory */
  g_assert_cmpuint (bl_trace_timeline_get_n_lanes (f->timeline), ==, 4);
  g_assert_cmpuint (bl_trace_timeline_get_thread_lane (f->timeline, 0), ==, 1);
  g_assert_cmpuint (bl_trace_timeline_get_thread_lane (f->timeline, 1), ==, 2);
  g_assert_cmpuint (bl_trace_timeline_get_counter_lane (f->timeline, 0), ==, 3);

  /* B spans [2000, 4000) of [1000, 9000): an eighth to three eighths */
  g_assert_true (bl_trace_timeline_get_span_bounds (f->timeline, 0, span_b, &b));
  g_assert_cmpfloat_with_epsilon (b.origin.x, gtk_widget_get_width (widget) / 8.0, 0.01);
  g_assert_cmpfloat_with_epsilon (b.size.width, gtk_widget_get_width (widget) / 4.0, 0.01);
  /* depth 2, under the header and A's row */
  bl_trace_timeline_get_lane_area (f->timeline, 1, &header, &body);
  g_assert_cmpfloat_with_epsilon (b.origin.y, body.origin.y + header.size.height, 0.01);
  g_assert_true (bl_trace_timeline_get_span_bounds (f->timeline, 1, span_c, &c));

  pixels = render_pixels (widget, &width, &height);
  g_assert_true (bl_trace_timeline_get_span_color (f->timeline, 0, span_b, &color));
  g_assert_true (pixel_is (pixels, width, height, b.origin.x + b.size.width * 0.8,
                           b.origin.y + b.size.height / 2, &color));
  g_assert_true (bl_trace_timeline_get_span_color (f->timeline, 1, span_c, &color));
  g_assert_true (pixel_is (pixels, width, height, c.origin.x + c.size.width * 0.8,
                           c.origin.y + c.size.height / 2, &color));
  /* nothing of b's lane left of C */
  g_assert_false (pixel_is (pixels, width, height, c.origin.x - 20,
                            c.origin.y + c.size.height / 2, &color));

  /* the counter: 10 until 5000, then 30; the line there, nothing above */
  g_assert_true (bl_trace_timeline_get_counter_color (f->timeline, 0, &counter_color));
  x = bl_trace_timeline_time_to_x (f->timeline, 3000);
  g_assert_true (pixel_is (pixels, width, height, x,
                           bl_trace_timeline_value_to_y (f->timeline, 0, 10), &counter_color));
  g_assert_false (pixel_is (pixels, width, height, x,
                            bl_trace_timeline_value_to_y (f->timeline, 0, 25), &counter_color));
  x = bl_trace_timeline_time_to_x (f->timeline, 7000);
  g_assert_true (pixel_is (pixels, width, height, x,
                           bl_trace_timeline_value_to_y (f->timeline, 0, 30), &counter_color));
  g_assert_false (pixel_is (pixels, width, height, x,
                            bl_trace_timeline_value_to_y (f->timeline, 0, 12), &counter_color));
}

static void
test_hit_and_tooltip (Fixture       *f,
                      gconstpointer  data)
{
  guint32 span_b = find_span (f->profile, 0, "B");
  g_autofree char *tooltip = NULL;
  g_autofree char *instant_tip = NULL;
  g_autofree char *counter_tip = NULL;
  graphene_rect_t b, header;
  BlTraceHit hit;
  double x;

  g_assert_true (bl_trace_timeline_get_span_bounds (f->timeline, 0, span_b, &b));
  g_assert_true (bl_trace_timeline_hit_test (f->timeline, b.origin.x + 5,
                                             b.origin.y + 5, &hit));
  g_assert_cmpint (hit.kind, ==, BL_TRACE_HIT_SLICE);
  g_assert_cmpuint (hit.thread, ==, 0);
  g_assert_cmpuint (hit.span, ==, span_b);

  tooltip = bl_trace_timeline_dup_tooltip_text (f->timeline, b.origin.x + 5, b.origin.y + 5);
  g_assert_nonnull (tooltip);
  g_assert_true (g_str_has_prefix (tooltip, "B\n"));
  g_assert_nonnull (strstr (tooltip, "size=12"));
  g_assert_nonnull (strstr (tooltip, "url=http://x"));
  g_assert_nonnull (strstr (tooltip, "Track: a"));
  /* B starts 1000 ns into the trace and lasts 2000 ns, all of it its own */
  g_assert_nonnull (strstr (tooltip, "Start: 1 µs"));
  g_assert_nonnull (strstr (tooltip, "Duration: 2 µs"));
  g_assert_nonnull (strstr (tooltip, "Self: 2 µs"));

  /* the instant "mark" at 6000 on a's header */
  bl_trace_timeline_get_lane_area (f->timeline, 1, &header, NULL);
  x = bl_trace_timeline_time_to_x (f->timeline, 6000);
  g_assert_true (bl_trace_timeline_hit_test (f->timeline, x + 1,
                                             header.origin.y + header.size.height / 2, &hit));
  g_assert_cmpint (hit.kind, ==, BL_TRACE_HIT_INSTANT);
  g_assert_cmpstr (instant_name (f->profile, hit.instant), ==, "mark");
  instant_tip = bl_trace_timeline_dup_tooltip_text (f->timeline, x,
                                                    header.origin.y + header.size.height / 2);
  g_assert_true (g_str_has_prefix (instant_tip, "mark\n"));
  /* away from it, the header */
  g_assert_true (bl_trace_timeline_hit_test (f->timeline, x + 40,
                                             header.origin.y + header.size.height / 2, &hit));
  g_assert_cmpint (hit.kind, ==, BL_TRACE_HIT_HEADER);

  /* the global instant "boot" on the markers lane */
  bl_trace_timeline_get_lane_area (f->timeline, 0, &header, NULL);
  x = bl_trace_timeline_time_to_x (f->timeline, 8000);
  g_assert_true (bl_trace_timeline_hit_test (f->timeline, x,
                                             header.origin.y + header.size.height / 2, &hit));
  g_assert_cmpint (hit.kind, ==, BL_TRACE_HIT_INSTANT);
  g_assert_cmpstr (instant_name (f->profile, hit.instant), ==, "boot");

  /* the counter's value at a time */
  bl_trace_timeline_get_lane_area (f->timeline, 3, NULL, &header);
  x = bl_trace_timeline_time_to_x (f->timeline, 6000);
  g_assert_true (bl_trace_timeline_hit_test (f->timeline, x,
                                             header.origin.y + header.size.height / 2, &hit));
  g_assert_cmpint (hit.kind, ==, BL_TRACE_HIT_COUNTER);
  g_assert_cmpfloat (hit.value, ==, 30);
  counter_tip = bl_trace_timeline_dup_tooltip_text (f->timeline, x,
                                                    header.origin.y + header.size.height / 2);
  g_assert_true (g_str_has_prefix (counter_tip, "memory: 30"));
}

static void
test_selection_details (Fixture       *f,
                        gconstpointer  data)
{
  guint32 span_b = find_span (f->profile, 0, "B");
  guint32 span_c = find_span (f->profile, 1, "C");
  guint32 span_a = find_span (f->profile, 0, "A");
  const char *details;

  g_assert_nonnull (strstr (bl_trace_view_get_details_text (f->view), "Click a slice"));

  bl_trace_timeline_select_slice (f->timeline, 0, span_b);
  details = bl_trace_view_get_details_text (f->view);
  g_assert_true (g_str_has_prefix (details, "B\n"));
  g_assert_nonnull (strstr (details, "size=12"));
  g_assert_nonnull (strstr (details, "Flow to: C (b)"));

  bl_trace_timeline_select_slice (f->timeline, 1, span_c);
  details = bl_trace_view_get_details_text (f->view);
  g_assert_nonnull (strstr (details, "Flow from: B (a)"));
  g_assert_null (strstr (details, "Flow to"));

  /* A: 8000 ns, 6000 of its own */
  bl_trace_timeline_select_slice (f->timeline, 0, span_a);
  details = bl_trace_view_get_details_text (f->view);
  g_assert_nonnull (strstr (details, "Duration: 8 µs"));
  g_assert_nonnull (strstr (details, "Self: 6 µs"));

  /* Escape drops it */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->timeline), "timeline.clear", NULL));
  g_assert_false (bl_trace_timeline_get_selected_slice (f->timeline, NULL, NULL));
}

static void
wait_for_shown (BlTraceView *view,
                BlProfile   *not_this)
{
  for (guint i = 0; i < 5000; i++)
    {
      BlProfile *shown = bl_trace_view_get_shown_profile (view);

      if (shown != NULL && shown != not_this)
        return;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_not_reached ();
}

static void
test_range_flame_graph (Fixture       *f,
                        gconstpointer  data)
{
  BlFlameGraph *graph = bl_trace_view_get_flame_graph (f->view);
  BlProfile *shown;
  BlFlameLayout *layout;

  g_assert_true (bl_trace_view_get_shown_profile (f->view) == f->profile);
  g_assert_true (bl_flame_graph_get_profile (graph) == f->profile);

  /* [1500, 3000): A 500 of its own, B 1000 */
  bl_trace_timeline_set_range (f->timeline, 1500, 3000);
  wait_for_shown (f->view, f->profile);
  shown = bl_trace_view_get_shown_profile (f->view);
  g_assert_true (bl_flame_graph_get_profile (graph) == shown);
  g_assert_cmpuint (bl_profile_get_grand_total (shown, BL_METRIC_TIME_NS), ==, 1500);
  for (guint n = 0; n < bl_profile_get_n_nodes (shown); n++)
    {
      g_autofree char *stack = bl_profile_dup_stack_string (shown, n, ';');

      if (g_strcmp0 (stack, "a;A") == 0)
        g_assert_cmpuint (bl_profile_get_self (shown, BL_METRIC_TIME_NS, n), ==, 500);
      else if (g_strcmp0 (stack, "a;A;B") == 0)
        g_assert_cmpuint (bl_profile_get_self (shown, BL_METRIC_TIME_NS, n), ==, 1000);
      else
        g_assert_cmpuint (bl_profile_get_total (shown, BL_METRIC_TIME_NS, n), ==,
                          bl_profile_get_node (shown, n)->parent == BL_NODE_NONE &&
                          g_strcmp0 (stack, "a") == 0 ? 1500 : 0);
    }
  g_assert_nonnull (strstr (bl_trace_view_get_range_text (f->view), "Range 500 ns"));

  /* the flame graph lays out exactly that */
  for (guint i = 0; i < 5000; i++)
    {
      layout = bl_flame_graph_get_layout (graph);
      if (layout != NULL && bl_flame_layout_get_total (layout) == 1500)
        break;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_cmpuint (bl_flame_layout_get_total (bl_flame_graph_get_layout (graph)), ==, 1500);

  /* a range over both threads: C's part too */
  bl_trace_timeline_set_range (f->timeline, 3500, 5500);
  wait_for_shown (f->view, f->profile);
  g_assert_cmpuint (bl_profile_get_grand_total (bl_trace_view_get_shown_profile (f->view),
                                                BL_METRIC_TIME_NS), ==, 2000 + 500);

  /* Escape clears the range: the whole trace again */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->view), "trace.clear-range", NULL));
  g_assert_false (bl_trace_timeline_get_range (f->timeline, NULL, NULL));
  g_assert_true (bl_trace_view_get_shown_profile (f->view) == f->profile);
  g_assert_true (bl_flame_graph_get_profile (graph) == f->profile);

  /* another trace while a range is being built: the range's tree never
   * lands on it; no trace at all lets go of the last */
  {
    g_autoptr (BlProfile) other = small_trace ();

    bl_trace_timeline_set_range (f->timeline, 1500, 3000);
    bl_trace_view_set_profile (f->view, other);
    settle ();
    settle ();
    g_assert_true (bl_trace_view_get_shown_profile (f->view) == other);
    g_assert_true (bl_flame_graph_get_profile (graph) == other);
    g_assert_false (bl_trace_timeline_get_range (f->timeline, NULL, NULL));
    bl_trace_view_set_profile (f->view, NULL);
    g_assert_null (bl_flame_graph_get_profile (graph));
  }
}

static void
test_zoom_collapse (Fixture       *f,
                    gconstpointer  data)
{
  guint32 span_b = find_span (f->profile, 0, "B");
  guint32 span_c = find_span (f->profile, 1, "C");
  graphene_rect_t b, c, c2, header;
  double v0, v1;
  BlTraceHit hit;

  /* zoom in around B's start: B keeps its start on screen and grows */
  g_assert_true (bl_trace_timeline_get_span_bounds (f->timeline, 0, span_b, &b));
  bl_trace_timeline_zoom_at (f->timeline, b.origin.x, 0.5);
  bl_trace_timeline_get_visible_range (f->timeline, &v0, &v1);
  g_assert_cmpfloat_with_epsilon (v1 - v0, 4000, 0.01);
  {
    graphene_rect_t z;

    g_assert_true (bl_trace_timeline_get_span_bounds (f->timeline, 0, span_b, &z));
    g_assert_cmpfloat_with_epsilon (z.origin.x, b.origin.x, 0.01);
    g_assert_cmpfloat_with_epsilon (z.size.width, 2 * b.size.width, 0.01);
  }
  /* Right moves a tenth of the view later */
  {
    double before = v0;

    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->timeline), "timeline.pan", "d",
                                               0.1));
    bl_trace_timeline_get_visible_range (f->timeline, &v0, &v1);
    g_assert_cmpfloat_with_epsilon (v0 - before, 400, 0.01);
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->timeline), "timeline.reset-zoom",
                                             NULL));
  bl_trace_timeline_get_visible_range (f->timeline, &v0, &v1);
  g_assert_cmpfloat (v0, ==, 1000);
  g_assert_cmpfloat (v1, ==, 9000);

  /* a's header toggles; collapsed, its slices are gone and b moves up */
  g_assert_true (bl_trace_timeline_get_span_bounds (f->timeline, 1, span_c, &c));
  bl_trace_timeline_get_lane_area (f->timeline, 1, &header, NULL);
  g_assert_true (bl_trace_timeline_hit_test (f->timeline, 200,
                                             header.origin.y + header.size.height / 2, &hit));
  g_assert_cmpint (hit.kind, ==, BL_TRACE_HIT_HEADER);
  g_assert_cmpuint (hit.lane, ==, 1);
  bl_trace_timeline_set_lane_expanded (f->timeline, 1, FALSE);
  g_assert_false (bl_trace_timeline_get_span_bounds (f->timeline, 0, span_b, &b));
  g_assert_true (bl_trace_timeline_get_span_bounds (f->timeline, 1, span_c, &c2));
  g_assert_cmpfloat_with_epsilon (c.origin.y - c2.origin.y, 2 * header.size.height, 0.01);
  bl_trace_timeline_set_lane_expanded (f->timeline, 1, TRUE);
  g_assert_true (bl_trace_timeline_get_span_bounds (f->timeline, 0, span_b, &b));
}

static void
test_fits_800x600 (void)
{
  g_autoptr (BlProfile) profile = small_trace ();
  GtkWidget *view = bl_profile_view_new ();
  GtkWidget *window;
  GtkWidget *trace_view;
  int min_w, min_h;

  bl_profile_view_set_profile (BL_PROFILE_VIEW (view), profile);
  window = present (view);

  /* the trace opens on its Timeline */
  trace_view = gtk_widget_get_first_child (view);
  while (trace_view != NULL && !BL_IS_TRACE_VIEW (trace_view))
    {
      GtkWidget *next = gtk_widget_get_first_child (trace_view);

      while (next == NULL && trace_view != view)
        {
          next = gtk_widget_get_next_sibling (trace_view);
          if (next == NULL)
            {
              trace_view = gtk_widget_get_parent (trace_view);
              if (trace_view == view)
                break;
            }
        }
      if (trace_view == view)
        {
          trace_view = NULL;
          break;
        }
      trace_view = next;
    }
  g_assert_nonnull (trace_view);
  g_assert_true (gtk_widget_get_mapped (trace_view));
  g_assert_true (bl_trace_view_get_profile (BL_TRACE_VIEW (trace_view)) == profile);

  /* the whole profile view with its timeline fits 800×600 under a header bar */
  gtk_widget_measure (view, GTK_ORIENTATION_HORIZONTAL, -1, &min_w, NULL, NULL, NULL);
  g_assert_cmpint (min_w, <=, 800);
  gtk_widget_measure (view, GTK_ORIENTATION_VERTICAL, 800, &min_h, NULL, NULL, NULL);
  g_assert_cmpint (min_h, <=, 600 - 50);
  gtk_widget_measure (trace_view, GTK_ORIENTATION_VERTICAL, 800, &min_h, NULL, NULL, NULL);
  g_assert_cmpint (min_h, <=, 360);
  wait_for_layout (bl_trace_view_get_flame_graph (BL_TRACE_VIEW (trace_view)));

  gtk_window_destroy (GTK_WINDOW (window));
  settle ();
}

/* the first widget under @widget of @type (and @label, for a button) */
static GtkWidget *
find_widget (GtkWidget  *widget,
             GType       type,
             const char *label)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) &&
      (label == NULL || g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type, label);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static GtkWidget *
find_css_class (GtkWidget  *widget,
                const char *css_class)
{
  if (gtk_widget_has_css_class (widget, css_class))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_css_class (child, css_class);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* the toolbar's thread, metric, search and Only Matches drive the pages
 * the Timeline hides: insensitive while it is shown, back on the flame
 * graph; Home resets the timeline's zoom there. The flame graph's zoom path
 * shows only with the flame graph. */
static void
test_toolbar_on_timeline (void)
{
  g_autoptr (BlProfile) profile = small_trace ();
  GtkWidget *view = bl_profile_view_new ();
  GtkWidget *window;
  GtkWidget *search, *filter, *thread, *metric, *breadcrumb;
  BlTraceTimeline *timeline;
  GtkStack *graph_stack;
  double v0, v1;

  bl_profile_view_set_profile (BL_PROFILE_VIEW (view), profile);
  window = present (view);
  timeline = BL_TRACE_TIMELINE (find_widget (view, BL_TYPE_TRACE_TIMELINE, NULL));
  g_assert_nonnull (timeline);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (timeline)));
  graph_stack = GTK_STACK (gtk_widget_get_parent (find_widget (view, BL_TYPE_TRACE_VIEW, NULL)));

  search = find_widget (view, GTK_TYPE_SEARCH_ENTRY, NULL);
  filter = find_widget (view, GTK_TYPE_TOGGLE_BUTTON, "Only Matches");
  thread = find_widget (view, GTK_TYPE_DROP_DOWN, NULL);
  metric = gtk_widget_get_next_sibling (thread);
  g_assert_nonnull (search);
  g_assert_nonnull (filter);
  g_assert_true (GTK_IS_DROP_DOWN (metric));
  g_assert_true (gtk_widget_get_visible (thread));

  g_assert_true (gtk_stack_get_visible_child (graph_stack) ==
                 find_widget (view, BL_TYPE_TRACE_VIEW, NULL));
  g_assert_false (gtk_widget_is_sensitive (search));
  g_assert_false (gtk_widget_is_sensitive (filter));
  g_assert_false (gtk_widget_is_sensitive (thread));
  g_assert_false (gtk_widget_is_sensitive (metric));
  breadcrumb = find_css_class (view, "bl-breadcrumb");
  g_assert_nonnull (breadcrumb);
  g_assert_false (gtk_widget_get_mapped (breadcrumb));

  /* Home (the window's reset-zoom) resets the timeline, not the hidden graph */
  bl_trace_timeline_zoom_at (timeline, 100, 0.5);
  bl_trace_timeline_get_visible_range (timeline, &v0, &v1);
  g_assert_cmpfloat (v1 - v0, <, 8000);
  bl_profile_view_reset_zoom (BL_PROFILE_VIEW (view));
  bl_trace_timeline_get_visible_range (timeline, &v0, &v1);
  g_assert_cmpfloat (v0, ==, 1000);
  g_assert_cmpfloat (v1, ==, 9000);

  gtk_stack_set_visible_child_name (graph_stack, "flame-graph");
  settle ();
  g_assert_true (gtk_widget_is_sensitive (search));
  g_assert_true (gtk_widget_is_sensitive (filter));
  g_assert_true (gtk_widget_is_sensitive (thread));
  g_assert_true (gtk_widget_get_mapped (breadcrumb));

  gtk_stack_set_visible_child (graph_stack, find_widget (view, BL_TYPE_TRACE_VIEW, NULL));
  settle ();
  g_assert_false (gtk_widget_is_sensitive (search));
  g_assert_false (gtk_widget_is_sensitive (thread));
  g_assert_false (gtk_widget_get_mapped (breadcrumb));

  gtk_window_destroy (GTK_WINDOW (window));
  settle ();
}

/* At 800×600 (a header bar leaves about 550 px) the lanes and the range
 * flame graph share the height: every lane of a small trace is on screen
 * at once, and the flame graph keeps room too */
static void
test_lanes_share_height (void)
{
  g_autoptr (BlProfile) profile = small_trace ();
  GtkWidget *view = bl_profile_view_new ();
  GtkWidget *window = gtk_window_new ();
  BlTraceTimeline *timeline;
  GtkWidget *scroller, *graph;
  int nat_h = 0, last;
  graphene_rect_t header, body;

  bl_profile_view_set_profile (BL_PROFILE_VIEW (view), profile);
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 550);
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < 3000 && (!gtk_widget_get_mapped (view) ||
                                  gtk_widget_get_height (view) != 550); i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  settle ();

  timeline = BL_TRACE_TIMELINE (find_widget (view, BL_TYPE_TRACE_TIMELINE, NULL));
  g_assert_nonnull (timeline);
  scroller = gtk_widget_get_ancestor (GTK_WIDGET (timeline), GTK_TYPE_SCROLLED_WINDOW);
  graph = GTK_WIDGET (bl_trace_view_get_flame_graph (BL_TRACE_VIEW (
            find_widget (view, BL_TYPE_TRACE_VIEW, NULL))));
  gtk_widget_measure (GTK_WIDGET (timeline), GTK_ORIENTATION_VERTICAL,
                      gtk_widget_get_width (GTK_WIDGET (timeline)), NULL, &nat_h, NULL, NULL);
  last = bl_trace_timeline_get_n_lanes (timeline) - 1;
  g_assert_cmpint (last, >=, 2);
  bl_trace_timeline_get_lane_area (timeline, last, &header, &body);
  g_test_message ("timeline %d of %d px, lanes end at %.0f; flame graph %d px",
                  gtk_widget_get_height (scroller), nat_h, body.origin.y + body.size.height,
                  gtk_widget_get_height (graph));

  /* every lane fits the scroller's height, from the top */
  g_assert_cmpfloat (body.origin.y + body.size.height, <=, gtk_widget_get_height (scroller));
  g_assert_true (gtk_widget_contains (scroller, 1, 1));
  /* and the range flame graph is not squeezed away */
  g_assert_cmpint (gtk_widget_get_height (graph), >=, 60);

  gtk_window_destroy (GTK_WINDOW (window));
  settle ();
}

/* a trace opened in a window puts the keyboard on its timeline, so + / −
 * and the arrows work at once; so does one set before the window shows */
static void
test_focus_on_timeline (void)
{
  g_autoptr (BlProfile) profile = small_trace ();
  GtkWidget *view = bl_profile_view_new ();
  GtkWidget *window = present (view);
  GtkWidget *timeline;

  bl_profile_view_set_profile (BL_PROFILE_VIEW (view), profile);
  settle ();
  timeline = find_widget (view, BL_TYPE_TRACE_TIMELINE, NULL);
  g_assert_true (gtk_widget_get_mapped (timeline));
  g_assert_true (gtk_window_get_focus (GTK_WINDOW (window)) == timeline);
  g_assert_true (gtk_widget_has_focus (timeline));
  gtk_window_destroy (GTK_WINDOW (window));
  settle ();

  view = bl_profile_view_new ();
  bl_profile_view_set_profile (BL_PROFILE_VIEW (view), profile);
  window = present (view);
  timeline = find_widget (view, BL_TYPE_TRACE_TIMELINE, NULL);
  g_assert_true (gtk_window_get_focus (GTK_WINDOW (window)) == timeline);

  /* the app's page asks for the graph on screen: the timeline */
  gtk_window_set_focus (GTK_WINDOW (window), NULL);
  bl_profile_view_focus_graph (BL_PROFILE_VIEW (view));
  g_assert_true (gtk_window_get_focus (GTK_WINDOW (window)) == timeline);
  gtk_window_destroy (GTK_WINDOW (window));
  settle ();
}

/* a bigger trace: every frame and marker still drawn at the right place
 * after zooming into one frame */
static void
test_sample_zoomed (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (BlProfile) profile = NULL;
  BlTraceTimeline *timeline;
  GtkWidget *window;
  const guint8 *data;
  gsize len, n_spans;
  BlSpanList list;
  const BlSpan *spans;
  g_autofree guint8 *pixels = NULL;
  int width, height;
  guint checked = 0;

  bl_trace_sample_write (w, 400, 7);
  bytes = bl_pbw_steal (w);
  bl_pbw_free (w);
  data = g_bytes_get_data (bytes, &len);
  profile = bl_perfetto_read_memory (data, len, &error);
  g_assert_no_error (error);

  timeline = BL_TRACE_TIMELINE (bl_trace_timeline_new ());
  bl_trace_timeline_set_profile (timeline, profile);
  window = present (GTK_WIDGET (timeline));

  /* frame 200: 1 s + 200 × 16 ms */
  bl_trace_timeline_set_visible_range (timeline, 4.2e9, 4.22e9);
  pixels = render_pixels (GTK_WIDGET (timeline), &width, &height);
  bl_profile_get_spans (profile, 0, &list);
  spans = list.spans;
  n_spans = list.n_spans;
  for (gsize i = 0; i < n_spans; i++)
    {
      graphene_rect_t r;
      GdkRGBA color;

      if (spans[i].start < 4.2e9 || bl_span_list_get_end (&list, i) > 4.22e9)
        continue;
      g_assert_true (bl_trace_timeline_get_span_bounds (timeline, 0, (guint32) i, &r));
      g_assert_true (bl_trace_timeline_get_span_color (timeline, 0, (guint32) i, &color));
      if (r.origin.y + r.size.height > height)
        continue;
      g_assert_true (pixel_is (pixels, width, height, r.origin.x + r.size.width - 3,
                               r.origin.y + 2, &color));
      checked++;
    }
  g_assert_cmpuint (checked, >=, 3);

  gtk_window_destroy (GTK_WINDOW (window));
  settle ();
}

/* forty tracks: the lanes scroll, and a lane scrolled to keeps its slices
 * under the ruler where they are drawn */
static void
test_many_tracks (void)
{
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (BlProfile) profile = NULL;
  BlTraceView *view;
  BlTraceTimeline *timeline;
  GtkAdjustment *vadjustment;
  GtkWidget *window;
  graphene_rect_t before, after;
  const guint8 *data;
  BlTraceHit hit;
  gsize len;

  for (guint t = 0; t < 40; t++)
    {
      g_autofree char *name = g_strdup_printf ("worker %02u", t);

      bl_pftw_thread_track (w, 1 + t, 1, 100 + t, name);
      bl_pftw_event (w, 1, 1000 + t * 10, 1, 1 + t, "job");
      bl_pftw_event (w, 1, 1500 + t * 10, 2, 1 + t, NULL);
    }
  bytes = bl_pbw_steal (w);
  bl_pbw_free (w);
  data = g_bytes_get_data (bytes, &len);
  profile = bl_perfetto_read_memory (data, len, &error);
  g_assert_no_error (error);

  view = BL_TRACE_VIEW (bl_trace_view_new ());
  bl_trace_view_set_profile (view, profile);
  timeline = bl_trace_view_get_timeline (view);
  window = present (GTK_WIDGET (view));

  g_assert_cmpuint (bl_trace_timeline_get_n_lanes (timeline), ==, 40);
  vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (timeline));
  g_assert_nonnull (vadjustment);
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadjustment), >,
                     gtk_adjustment_get_page_size (vadjustment));

  g_assert_true (bl_trace_timeline_get_span_bounds (timeline, 39, 0, &before));
  g_assert_cmpfloat (before.origin.y, >, gtk_widget_get_height (GTK_WIDGET (timeline)));
  gtk_adjustment_set_value (vadjustment, gtk_adjustment_get_upper (vadjustment));
  settle ();
  g_assert_true (bl_trace_timeline_get_span_bounds (timeline, 39, 0, &after));
  g_assert_cmpfloat (after.origin.y, <, before.origin.y);
  g_assert_cmpfloat (after.origin.y, >=, bl_trace_timeline_get_ruler_height (timeline));
  g_assert_cmpfloat (after.origin.y + after.size.height, <=,
                     gtk_widget_get_height (GTK_WIDGET (timeline)));
  g_assert_true (bl_trace_timeline_hit_test (timeline, after.origin.x + after.size.width / 2,
                                             after.origin.y + 2, &hit));
  g_assert_cmpint (hit.kind, ==, BL_TRACE_HIT_SLICE);
  g_assert_cmpuint (hit.thread, ==, 39);

  gtk_window_destroy (GTK_WINDOW (window));
  settle ();
}

/* GTK warns when a widget is drawn in a frame whose layout left it to
 * allocate: a scrolled window that learns from its child's adjustments,
 * during the child's allocation, that its scrollbar comes or goes queues a
 * resize then. The timeline and its flame graph give their natural heights
 * (vscroll-policy natural), so their scrolled windows know it before. Here
 * the trace view is shown again after another page at four sizes, and no
 * frame may draw a widget unallocated. (The case that warned before,
 * returning to a trace's document tab after its Heap page, is bench-window's
 * on a trace with a heap graph.) */
static guint unallocated_warnings;

static GLogWriterOutput
count_unallocated_writer (GLogLevelFlags   level,
                          const GLogField *fields,
                          gsize            n_fields,
                          gpointer         user_data)
{
  for (gsize i = 0; i < n_fields; i++)
    if (g_str_equal (fields[i].key, "MESSAGE") && fields[i].length < 0 &&
        strstr (fields[i].value, "without a current allocation") != NULL)
      unallocated_warnings++;

  return g_log_writer_default (level, fields, n_fields, user_data);
}

static void
test_shown_again_allocated (void)
{
  static const int sizes[][2] = { { 1400, 900 }, { 800, 600 }, { 1280, 720 }, { 900, 420 } };
  g_autoptr (BlProfile) profile = small_trace ();
  GtkWidget *stack = gtk_stack_new ();
  GtkWidget *view = bl_trace_view_new ();
  GtkWidget *window;

  bl_trace_view_set_profile (BL_TRACE_VIEW (view), profile);
  gtk_stack_add_named (GTK_STACK (stack), view, "trace");
  gtk_stack_add_named (GTK_STACK (stack), gtk_label_new ("another page"), "other");
  window = present (stack);
  wait_for_layout (bl_trace_view_get_flame_graph (BL_TRACE_VIEW (view)));

  unallocated_warnings = 0;
  g_log_set_writer_func (count_unallocated_writer, NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      gtk_stack_set_visible_child_name (GTK_STACK (stack), "other");
      settle ();
      gtk_window_set_default_size (GTK_WINDOW (window), sizes[i][0], sizes[i][1]);
      settle ();
      gtk_stack_set_visible_child_name (GTK_STACK (stack), "trace");
      settle ();
      g_assert_true (gtk_widget_get_mapped (view));
    }
  g_assert_cmpuint (unallocated_warnings, ==, 0);

  gtk_window_destroy (GTK_WINDOW (window));
  settle ();
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  if (!gtk_init_check ())
    g_error ("no display: run the widget tests under xvfb-run");
  adw_init ();

  g_test_add ("/trace-view/lanes-drawn", Fixture, NULL, fixture_setup, test_lanes_drawn,
              fixture_teardown);
  g_test_add ("/trace-view/hit-and-tooltip", Fixture, NULL, fixture_setup, test_hit_and_tooltip,
              fixture_teardown);
  g_test_add ("/trace-view/selection-details", Fixture, NULL, fixture_setup,
              test_selection_details, fixture_teardown);
  g_test_add ("/trace-view/range-flame-graph", Fixture, NULL, fixture_setup,
              test_range_flame_graph, fixture_teardown);
  g_test_add ("/trace-view/zoom-collapse", Fixture, NULL, fixture_setup, test_zoom_collapse,
              fixture_teardown);
  g_test_add_func ("/trace-view/fits-800x600", test_fits_800x600);
  g_test_add_func ("/trace-view/lanes-share-height", test_lanes_share_height);
  g_test_add_func ("/trace-view/toolbar-on-timeline", test_toolbar_on_timeline);
  g_test_add_func ("/trace-view/focus-on-timeline", test_focus_on_timeline);
  g_test_add_func ("/trace-view/sample-zoomed", test_sample_zoomed);
  g_test_add_func ("/trace-view/many-tracks", test_many_tracks);
  g_test_add_func ("/trace-view/shown-again-allocated", test_shown_again_allocated);

  return g_test_run ();
}
