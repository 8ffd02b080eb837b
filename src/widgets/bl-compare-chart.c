/* bl-compare-chart.c
 *
 * One series of two sessions, A and B, on one time axis aligned at a chosen
 * origin (each session's start or a beacon): overlaid in two colours, or
 * stacked (A above B) on one value scale. Samples are turned into
 * normalized points when the sessions or the span change, never while
 * drawing; drawing keeps one min/max pair per pixel column, and a sample
 * the file left out (null) breaks the line instead of drawing a zero.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-compare-chart"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "bl-compare-chart.h"

#define MARGIN_LEFT    8.0
#define MARGIN_RIGHT   8.0
#define MARGIN_TOP     22.0
#define MARGIN_BOTTOM  18.0
#define STACK_GAP      6.0

typedef struct
{
  double   *x;          /* aligned time, ms */
  double   *y;
  gboolean *present;
  guint     n;
  gint64    offset;
} Side;

struct _BlCompareChart
{
  GtkWidget   parent_instance;

  BlSeriesId  series;
  BlSession  *sessions[2];
  Side        sides[2];
  char       *origin_label;
  gint64      from_ms;
  gint64      to_ms;
  double      y_min;
  double      y_max;
  gboolean    stacked;
  gboolean    has_data;

  GdkRGBA     colors[2];
  GdkRGBA     fg;
  GdkRGBA     bg;

  double      pointer_x;
  gboolean    pointer_in;

  BlTimeAxis *axis;          /* shared by every chart of a comparison */
  gint64      drag_start_from;
  gint64      drag_start_to;
};

G_DEFINE_FINAL_TYPE (BlCompareChart, bl_compare_chart, GTK_TYPE_WIDGET)

static double x_to_aligned (BlCompareChart *self,
                            double          x);

static void
side_clear (Side *side)
{
  g_clear_pointer (&side->x, g_free);
  g_clear_pointer (&side->y, g_free);
  g_clear_pointer (&side->present, g_free);
  side->n = 0;
}

static void
plot_rect (BlCompareChart  *self,
           guint            side,
           graphene_rect_t *rect)
{
  double w = gtk_widget_get_width (GTK_WIDGET (self));
  double h = gtk_widget_get_height (GTK_WIDGET (self));
  double pw = MAX (w - MARGIN_LEFT - MARGIN_RIGHT, 1);
  double ph = MAX (h - MARGIN_TOP - MARGIN_BOTTOM, 1);

  if (!self->stacked)
    {
      graphene_rect_init (rect, MARGIN_LEFT, MARGIN_TOP, pw, ph);
      return;
    }

  ph = MAX ((ph - STACK_GAP) / 2, 1);
  graphene_rect_init (rect, MARGIN_LEFT, MARGIN_TOP + side * (ph + STACK_GAP), pw, ph);
}

static double
aligned_to_x (BlCompareChart *self,
              double          t)
{
  graphene_rect_t r;
  double span = MAX ((double) (self->to_ms - self->from_ms), 1.0);

  plot_rect (self, 0, &r);

  return r.origin.x + (t - self->from_ms) / span * r.size.width;
}

static void
update_colors (BlCompareChart *self)
{
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));

  gtk_style_context_get_color (context, &self->fg);
  if (!gtk_style_context_lookup_color (context, "bl_compare_a", &self->colors[0]))
    gdk_rgba_parse (&self->colors[0], "#1c71d8");
  if (!gtk_style_context_lookup_color (context, "bl_compare_b", &self->colors[1]))
    gdk_rgba_parse (&self->colors[1], "#e66100");
  if (!gtk_style_context_lookup_color (context, "window_bg_color", &self->bg))
    self->bg = (GdkRGBA) { 1, 1, 1, 1 };
}

/* a tick step of 1, 2 or 5 × 10^k ms giving at most @max_ticks ticks */
static double
tick_step (double span,
           guint  max_ticks)
{
  static const double minutes[] = { 60000, 120000, 300000, 600000, 1800000, 3600000 };
  double step = 1000;

  /* more than a few minutes: whole minutes apart */
  if (span / 60000 > max_ticks)
    for (guint i = 0; i < G_N_ELEMENTS (minutes); i++)
      if (span / minutes[i] <= max_ticks)
        return minutes[i];

  while (span / step > max_ticks)
    {
      if (span / (step * 2) <= max_ticks)
        return step * 2;
      if (span / (step * 5) <= max_ticks)
        return step * 5;
      step *= 10;
    }

  return step;
}

/* A time from the origin as the session timeline writes it: m:ss, or
 * h:mm:ss from an hour on, with a sign before the origin. */
static char *
format_offset (double ms)
{
  gint64 s = (gint64) llround (fabs (ms) / 1000.0);
  const char *sign = ms <= -500 ? "−" : "";

  if (s >= 3600)
    return g_strdup_printf ("%s%" G_GINT64_FORMAT ":%02d:%02d", sign, s / 3600,
                            (int) (s / 60 % 60), (int) (s % 60));
  return g_strdup_printf ("%s%d:%02d", sign, (int) (s / 60), (int) (s % 60));
}

/* Counts are whole: a mean or an interpolated scale value is rounded. */
static char *
format_value (BlCompareChart *self,
              double          value)
{
  if (bl_series_get_info (self->series)->unit == BL_SERIES_UNIT_COUNT)
    value = round (value);
  return bl_series_format_value (self->series, value);
}

static void
draw_text (cairo_t       *cr,
           PangoLayout   *layout,
           const char    *text,
           double         x,
           double         y,
           double         align)
{
  int w, h;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, x - align * w, y);
  pango_cairo_show_layout (cr, layout);
}

static void
draw_side (BlCompareChart        *self,
           cairo_t               *cr,
           guint                  s,
           const graphene_rect_t *r)
{
  const Side *side = &self->sides[s];
  double span = MAX ((double) (self->to_ms - self->from_ms), 1.0);
  double yspan = self->y_max > self->y_min ? self->y_max - self->y_min : 1;
  gboolean drawing = FALSE;
  gboolean have_column = FALSE;
  double col = 0, cmin = 0, cmax = 0, clast = 0;

  gdk_cairo_set_source_rgba (cr, &self->colors[s]);
  cairo_set_line_width (cr, 1.5);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);

  for (guint i = 0; i <= side->n; i++)
    {
      double px = 0, py = 0;
      gboolean present = i < side->n && side->present[i];

      if (present)
        {
          px = r->origin.x + (side->x[i] - self->from_ms) / span * r->size.width;
          py = r->origin.y + r->size.height - (side->y[i] - self->y_min) / yspan * r->size.height;
        }

      /* flush the column when the sample falls in another one or a gap comes */
      if (have_column && (!present || floor (px) != col))
        {
          if (cmin != cmax)
            {
              cairo_line_to (cr, col + 0.5, cmin);
              cairo_line_to (cr, col + 0.5, cmax);
            }
          cairo_line_to (cr, col + 0.5, clast);
          have_column = FALSE;
        }

      if (!present)
        {
          if (drawing)
            cairo_stroke (cr);
          drawing = FALSE;
          continue;
        }

      if (!drawing)
        {
          cairo_move_to (cr, floor (px) + 0.5, py);
          drawing = TRUE;
        }

      if (!have_column)
        {
          col = floor (px);
          cmin = cmax = clast = py;
          have_column = TRUE;
        }
      else
        {
          cmin = MIN (cmin, py);
          cmax = MAX (cmax, py);
          clast = py;
        }
    }

  if (drawing)
    cairo_stroke (cr);
}

static void
bl_compare_chart_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  BlCompareChart *self = BL_COMPARE_CHART (widget);
  double w = gtk_widget_get_width (widget);
  double h = gtk_widget_get_height (widget);
  g_autoptr(PangoLayout) layout = NULL;
  g_autofree char *max_text = NULL;
  const BlSeriesInfo *info = bl_series_get_info (self->series);
  graphene_rect_t r;
  cairo_t *cr;
  GdkRGBA grid = self->fg;
  double span, step, first, hover_x;
  int title_width = 0, max_width = 0;

  if (w <= 0 || h <= 0)
    return;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  layout = gtk_widget_create_pango_layout (widget, NULL);

  /* title */
  gdk_cairo_set_source_rgba (cr, &self->fg);
  draw_text (cr, layout, _(info->display_name), MARGIN_LEFT, 2, 0);
  pango_layout_get_pixel_size (layout, &title_width, NULL);

  if (!self->has_data)
    {
      GdkRGBA dim = self->fg;

      dim.alpha = 0.55;
      gdk_cairo_set_source_rgba (cr, &dim);
      draw_text (cr, layout, _("Neither session has this series."), w / 2, h / 2 - 8, 0.5);
      cairo_destroy (cr);
      return;
    }

  max_text = format_value (self, self->y_max);
  {
    GdkRGBA dim = self->fg;

    dim.alpha = 0.6;
    gdk_cairo_set_source_rgba (cr, &dim);
    draw_text (cr, layout, max_text, w - MARGIN_RIGHT, 2, 1);
    pango_layout_get_pixel_size (layout, &max_width, NULL);

    /* the scale does not start at zero: say where it starts */
    if (self->y_min != 0)
      {
        g_autofree char *min_text = format_value (self, self->y_min);
        int min_height;

        plot_rect (self, self->stacked ? 1 : 0, &r);
        pango_layout_set_text (layout, min_text, -1);
        pango_layout_get_pixel_size (layout, NULL, &min_height);
        draw_text (cr, layout, min_text, r.origin.x + r.size.width - 2,
                   r.origin.y + r.size.height - min_height - 1, 1);
      }
  }

  grid.alpha = 0.12;
  span = MAX ((double) (self->to_ms - self->from_ms), 1.0);
  step = tick_step (span, MAX ((guint) (w / 90), 2));
  first = ceil (self->from_ms / step) * step;

  for (guint s = 0; s < (self->stacked ? 2u : 1u); s++)
    {
      plot_rect (self, s, &r);

      /* frame and value grid */
      gdk_cairo_set_source_rgba (cr, &grid);
      cairo_set_line_width (cr, 1);
      for (guint k = 0; k <= 2; k++)
        {
          double y = floor (r.origin.y + r.size.height * k / 2.0) + 0.5;

          cairo_move_to (cr, r.origin.x, y);
          cairo_line_to (cr, r.origin.x + r.size.width, y);
        }
      for (double t = first; t <= self->to_ms; t += step)
        {
          double x = floor (aligned_to_x (self, t)) + 0.5;

          cairo_move_to (cr, x, r.origin.y);
          cairo_line_to (cr, x, r.origin.y + r.size.height);
        }
      cairo_stroke (cr);

      if (self->stacked)
        {
          GdkRGBA tag = self->colors[s];

          gdk_cairo_set_source_rgba (cr, &tag);
          draw_text (cr, layout, s == 0 ? _("A") : _("B"), r.origin.x + 3, r.origin.y + 1, 0);
        }
    }

  /* time labels */
  {
    GdkRGBA dim = self->fg;

    dim.alpha = 0.6;
    gdk_cairo_set_source_rgba (cr, &dim);
    for (double t = first; t <= self->to_ms; t += step)
      {
        g_autofree char *label = format_offset (t);
        double x = aligned_to_x (self, t);
        double align = x < 30 ? 0 : x > w - 30 ? 1 : 0.5;

        draw_text (cr, layout, label, x, h - MARGIN_BOTTOM + 2, align);
      }
  }

  /* the origin: where both sessions are aligned */
  if (self->from_ms <= 0 && self->to_ms >= 0)
    {
      double x = floor (aligned_to_x (self, 0)) + 0.5;
      static const double dashes[] = { 4, 3 };
      GdkRGBA origin = self->fg;

      plot_rect (self, 0, &r);
      origin.alpha = 0.5;
      gdk_cairo_set_source_rgba (cr, &origin);
      cairo_set_dash (cr, dashes, 2, 0);
      cairo_move_to (cr, x, MARGIN_TOP);
      cairo_line_to (cr, x, h - MARGIN_BOTTOM);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      if (self->origin_label != NULL)
        {
          int label_width;

          /* in the title row when it fits between the title and the scale */
          pango_layout_set_text (layout, self->origin_label, -1);
          pango_layout_get_pixel_size (layout, &label_width, NULL);
          if (x + 4 > MARGIN_LEFT + title_width + 12 &&
              x + 4 + label_width < w - MARGIN_RIGHT - max_width - 12)
            draw_text (cr, layout, self->origin_label, x + 4, 2, 0);
          else
            {
              int label_height;

              /* over the plot: on a backing, so that the lines do not cross it */
              pango_layout_get_pixel_size (layout, NULL, &label_height);
              gdk_cairo_set_source_rgba (cr, &self->bg);
              cairo_rectangle (cr, x + 2, MARGIN_TOP + 1, label_width + 4, label_height);
              cairo_fill (cr);
              gdk_cairo_set_source_rgba (cr, &origin);
              draw_text (cr, layout, self->origin_label, x + 4, MARGIN_TOP + 1, 0);
            }
        }
    }

  for (guint s = 0; s < 2; s++)
    {
      plot_rect (self, self->stacked ? s : 0, &r);
      cairo_save (cr);
      cairo_rectangle (cr, r.origin.x - 1, r.origin.y - 2, r.size.width + 2, r.size.height + 4);
      cairo_clip (cr);
      draw_side (self, cr, s, &r);
      cairo_restore (cr);
    }

  /* the pointer's time, on every chart of the axis */
  if (bl_compare_chart_get_hover_x (self, &hover_x) && hover_x >= MARGIN_LEFT &&
      hover_x <= w - MARGIN_RIGHT)
    {
      GdkRGBA hover = self->fg;

      hover.alpha = 0.35;
      gdk_cairo_set_source_rgba (cr, &hover);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, floor (hover_x) + 0.5, MARGIN_TOP);
      cairo_line_to (cr, floor (hover_x) + 0.5, h - MARGIN_BOTTOM);
      cairo_stroke (cr);
    }

  cairo_destroy (cr);
}

static void
bl_compare_chart_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  BlCompareChart *self = BL_COMPARE_CHART (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 200;
      *natural = 600;
    }
  else
    {
      *minimum = self->stacked ? 150 : 100;
      *natural = self->stacked ? 200 : 130;
    }
}

static void
bl_compare_chart_css_changed (GtkWidget         *widget,
                              GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (bl_compare_chart_parent_class)->css_changed (widget, change);

  update_colors (BL_COMPARE_CHART (widget));
  gtk_widget_queue_draw (widget);
}

static gboolean
bl_compare_chart_query_tooltip (GtkWidget  *widget,
                                int         x,
                                int         y,
                                gboolean    keyboard_mode,
                                GtkTooltip *tooltip)
{
  g_autofree char *text = bl_compare_chart_dup_text_at (BL_COMPARE_CHART (widget), x);

  if (text == NULL)
    return FALSE;

  gtk_tooltip_set_text (tooltip, text);

  return TRUE;
}

static void
motion_cb (BlCompareChart           *self,
           double                    x,
           double                    y,
           GtkEventControllerMotion *motion)
{
  self->pointer_x = x;
  self->pointer_in = TRUE;
  if (self->axis != NULL)
    bl_time_axis_set_hover (self->axis, (gint64) llround (x_to_aligned (self, x)));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
leave_cb (BlCompareChart           *self,
          GtkEventControllerMotion *motion)
{
  self->pointer_in = FALSE;
  if (self->axis != NULL)
    bl_time_axis_clear_hover (self->axis);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- zoom, pan and keys, through the shared axis ------------------------- */

static double
x_to_aligned (BlCompareChart *self,
              double          x)
{
  graphene_rect_t r;

  plot_rect (self, 0, &r);
  return self->from_ms + (x - r.origin.x) / MAX (r.size.width, 1) *
                         (double) (self->to_ms - self->from_ms);
}

static void
axis_visible_changed_cb (BlCompareChart *self,
                         BlTimeAxis     *axis)
{
  gint64 from, to;

  bl_time_axis_get_visible (axis, &from, &to);
  if (from < to)
    bl_compare_chart_set_range (self, from, to);
}

static gboolean
scroll_cb (BlCompareChart           *self,
           double                    dx,
           double                    dy,
           GtkEventControllerScroll *scroll)
{
  if (self->axis == NULL || dy == 0)
    return FALSE;
  bl_time_axis_zoom (self->axis, pow (1.25, dy),
                     (gint64) llround (self->pointer_in
                                         ? x_to_aligned (self, self->pointer_x)
                                         : (self->from_ms + self->to_ms) / 2.0));
  return TRUE;
}

static void
drag_begin_cb (BlCompareChart *self,
               double          x,
               double          y,
               GtkGestureDrag *drag)
{
  self->drag_start_from = self->from_ms;
  self->drag_start_to = self->to_ms;
  gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
drag_update_cb (BlCompareChart *self,
                double          dx,
                double          dy,
                GtkGestureDrag *drag)
{
  graphene_rect_t r;
  gint64 from;
  double ms;

  if (self->axis == NULL)
    return;
  plot_rect (self, 0, &r);
  ms = -dx / MAX (r.size.width, 1) * (double) (self->drag_start_to - self->drag_start_from);
  bl_time_axis_get_visible (self->axis, &from, NULL);
  bl_time_axis_pan (self->axis, self->drag_start_from + (gint64) llround (ms) - from);
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  BlCompareChart *self = BL_COMPARE_CHART (widget);

  if (self->axis != NULL)
    bl_time_axis_zoom (self->axis, g_variant_get_double (param),
                       (self->from_ms + self->to_ms) / 2);
}

static void
pan_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *param)
{
  BlCompareChart *self = BL_COMPARE_CHART (widget);

  if (self->axis != NULL)
    bl_time_axis_pan (self->axis,
                      (gint64) llround (g_variant_get_double (param) *
                                        (double) (self->to_ms - self->from_ms)));
}

static void
reset_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  BlCompareChart *self = BL_COMPARE_CHART (widget);

  if (self->axis != NULL)
    bl_time_axis_reset (self->axis);
}

static void
bl_compare_chart_dispose (GObject *object)
{
  BlCompareChart *self = BL_COMPARE_CHART (object);

  bl_compare_chart_set_axis (self, NULL);

  g_clear_object (&self->sessions[0]);
  g_clear_object (&self->sessions[1]);

  G_OBJECT_CLASS (bl_compare_chart_parent_class)->dispose (object);
}

static void
bl_compare_chart_finalize (GObject *object)
{
  BlCompareChart *self = BL_COMPARE_CHART (object);

  side_clear (&self->sides[0]);
  side_clear (&self->sides[1]);
  g_free (self->origin_label);

  G_OBJECT_CLASS (bl_compare_chart_parent_class)->finalize (object);
}

static void
bl_compare_chart_class_init (BlCompareChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_compare_chart_dispose;
  object_class->finalize = bl_compare_chart_finalize;
  widget_class->snapshot = bl_compare_chart_snapshot;
  widget_class->measure = bl_compare_chart_measure;
  widget_class->css_changed = bl_compare_chart_css_changed;
  widget_class->query_tooltip = bl_compare_chart_query_tooltip;

  /* the session timeline's keys */
  gtk_widget_class_install_action (widget_class, "chart.zoom", "d", zoom_action);
  gtk_widget_class_install_action (widget_class, "chart.pan", "d", pan_action);
  gtk_widget_class_install_action (widget_class, "chart.reset", NULL, reset_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "chart.zoom", "d", 0.8);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "chart.zoom", "d", 0.8);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "chart.zoom", "d", 0.8);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "chart.zoom", "d", 1.25);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "chart.zoom", "d",
                                       1.25);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "chart.pan", "d", -0.1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "chart.pan", "d", 0.1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "chart.reset", NULL);

  gtk_widget_class_set_css_name (widget_class, "blcomparechart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
bl_compare_chart_init (BlCompareChart *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();

  self->series = BL_SERIES_MEMORY_USED;
  g_signal_connect_swapped (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect_swapped (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);

  {
    GtkEventController *scroll =
      gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
    GtkGesture *drag = gtk_gesture_drag_new ();

    g_signal_connect_swapped (scroll, "scroll", G_CALLBACK (scroll_cb), self);
    gtk_widget_add_controller (GTK_WIDGET (self), scroll);
    g_signal_connect_swapped (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
    g_signal_connect_swapped (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
    gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  }
  update_colors (self);
}

GtkWidget *
bl_compare_chart_new (BlSeriesId series)
{
  BlCompareChart *self;

  g_return_val_if_fail (series >= 0 && series < BL_N_SERIES, NULL);

  self = g_object_new (BL_TYPE_COMPARE_CHART, NULL);
  self->series = series;

  return GTK_WIDGET (self);
}

BlSeriesId
bl_compare_chart_get_series (BlCompareChart *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_CHART (self), BL_SERIES_INVALID);

  return self->series;
}

static void
update_accessible (BlCompareChart *self)
{
  const BlSeriesInfo *info = bl_series_get_info (self->series);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _(info->display_name),
                                  -1);
}

/**
 * bl_compare_chart_set_sessions:
 * @origin_label: (nullable): what the origin is ("app_launch_complete")
 *
 * Also sets the span to cover both sessions.
 */
void
bl_compare_chart_set_sessions (BlCompareChart *self,
                               BlSession      *a,
                               BlSession      *b,
                               gint64          offset_a,
                               gint64          offset_b,
                               const char     *origin_label)
{
  BlSession *sessions[2] = { a, b };
  gint64 offsets[2] = { offset_a, offset_b };
  gint64 from = G_MAXINT64, to = G_MININT64;

  g_return_if_fail (BL_IS_COMPARE_CHART (self));
  g_return_if_fail (BL_IS_SESSION (a));
  g_return_if_fail (BL_IS_SESSION (b));

  g_set_object (&self->sessions[0], a);
  g_set_object (&self->sessions[1], b);
  g_free (self->origin_label);
  self->origin_label = g_strdup (origin_label);
  self->y_min = G_MAXDOUBLE;
  self->y_max = -G_MAXDOUBLE;
  self->has_data = FALSE;

  for (guint s = 0; s < 2; s++)
    {
      Side *side = &self->sides[s];
      const BlSample *samples;
      const BlSessionSummary *summary = bl_session_get_summary (sessions[s]);
      guint n = 0;

      side_clear (side);
      side->offset = offsets[s];
      samples = bl_session_get_series (sessions[s], self->series, &n);
      side->x = g_new (double, MAX (n, 1));
      side->y = g_new (double, MAX (n, 1));
      side->present = g_new (gboolean, MAX (n, 1));
      side->n = n;

      for (guint i = 0; i < n; i++)
        {
          side->x[i] = (double) (samples[i].timestamp_ms - offsets[s]);
          side->y[i] = samples[i].value;
          side->present[i] = samples[i].present && isfinite (samples[i].value);
          if (side->present[i])
            {
              self->y_max = MAX (self->y_max, samples[i].value);
              self->y_min = MIN (self->y_min, samples[i].value);
              self->has_data = TRUE;
            }
        }

      if (summary->end_ms > summary->start_ms || summary->start_ms != 0)
        {
          from = MIN (from, summary->start_ms - offsets[s]);
          to = MAX (to, summary->end_ms - offsets[s]);
        }
    }

  /* from zero unless the values stay far from it, then around them */
  if (!self->has_data)
    self->y_min = self->y_max = 0;
  else if (self->y_min >= 0 && self->y_min < 0.35 * self->y_max)
    {
      self->y_min = 0;
      self->y_max *= 1.08;
    }
  else
    {
      double pad = MAX (self->y_max - self->y_min, fabs (self->y_max) * 0.01);

      self->y_min = MAX (self->y_min - pad * 0.05, self->y_min >= 0 ? 0 : -G_MAXDOUBLE);
      self->y_max += pad * 0.08;
    }
  if (self->y_max <= self->y_min)
    self->y_max = self->y_min + 1;
  if (from >= to)
    {
      from = 0;
      to = 1000;
    }
  self->from_ms = from;
  self->to_ms = to;

  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
bl_compare_chart_set_range (BlCompareChart *self,
                            gint64          from_ms,
                            gint64          to_ms)
{
  g_return_if_fail (BL_IS_COMPARE_CHART (self));
  g_return_if_fail (from_ms < to_ms);

  self->from_ms = from_ms;
  self->to_ms = to_ms;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
bl_compare_chart_get_range (BlCompareChart *self,
                            gint64         *from_ms,
                            gint64         *to_ms)
{
  g_return_if_fail (BL_IS_COMPARE_CHART (self));

  if (from_ms != NULL)
    *from_ms = self->from_ms;
  if (to_ms != NULL)
    *to_ms = self->to_ms;
}

gboolean
bl_compare_chart_get_stacked (BlCompareChart *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_CHART (self), FALSE);

  return self->stacked;
}

void
bl_compare_chart_set_stacked (BlCompareChart *self,
                              gboolean        stacked)
{
  g_return_if_fail (BL_IS_COMPARE_CHART (self));

  stacked = !!stacked;
  if (self->stacked == stacked)
    return;

  self->stacked = stacked;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

double
bl_compare_chart_time_to_x (BlCompareChart *self,
                            guint           side,
                            gint64          timestamp_ms)
{
  g_return_val_if_fail (BL_IS_COMPARE_CHART (self), 0);
  g_return_val_if_fail (side < 2, 0);

  return aligned_to_x (self, (double) (timestamp_ms - self->sides[side].offset));
}

void
bl_compare_chart_get_color (BlCompareChart *self,
                            guint           side,
                            GdkRGBA        *color)
{
  g_return_if_fail (BL_IS_COMPARE_CHART (self));
  g_return_if_fail (side < 2);

  *color = self->colors[side];
}

char *
bl_compare_chart_dup_text_at (BlCompareChart *self,
                              double          x)
{
  g_autofree char *when = NULL;
  char *values[2] = { NULL, NULL };
  graphene_rect_t r;
  double t;
  char *text;

  g_return_val_if_fail (BL_IS_COMPARE_CHART (self), NULL);

  if (self->sessions[0] == NULL || !self->has_data)
    return NULL;

  plot_rect (self, 0, &r);
  if (x < r.origin.x || x > r.origin.x + r.size.width)
    return NULL;

  t = self->from_ms + (x - r.origin.x) / r.size.width * (double) (self->to_ms - self->from_ms);
  when = format_offset (t);

  for (guint s = 0; s < 2; s++)
    {
      guint n = 0;
      const BlSample *samples = bl_session_get_series (self->sessions[s], self->series, &n);
      gint64 at = (gint64) llround (t) + self->sides[s].offset;
      gint nearest = bl_series_find_nearest (samples, n, at);

      /* a value only when a sample lies within a few seconds */
      if (nearest >= 0 && llabs (samples[nearest].timestamp_ms - at) <= 5000)
        values[s] = format_value (self, samples[nearest].value);
      else
        values[s] = g_strdup ("—");
    }

  /* Translators: a chart tooltip, "At 12 s: A 110.2 MiB, B 115.0 MiB" */
  text = g_strdup_printf (_("At %s: A %s, B %s"), when, values[0], values[1]);
  g_free (values[0]);
  g_free (values[1]);

  return text;
}

/**
 * bl_compare_chart_set_axis:
 * @axis: (nullable): the time axis shared by the charts of a comparison
 *
 * The chart draws the axis's visible span, and its wheel (zoom), drag
 * (pan) and keys (+, −, ←, →, Home) move the axis, so every chart on it
 * stays in step. The axis's times are aligned times.
 */
void
bl_compare_chart_set_axis (BlCompareChart *self,
                           BlTimeAxis     *axis)
{
  g_return_if_fail (BL_IS_COMPARE_CHART (self));
  g_return_if_fail (!axis || BL_IS_TIME_AXIS (axis));

  if (self->axis == axis)
    return;
  if (self->axis != NULL)
    g_signal_handlers_disconnect_by_data (self->axis, self);
  g_set_object (&self->axis, axis);
  gtk_widget_set_focusable (GTK_WIDGET (self), axis != NULL);
  if (axis != NULL)
    {
      g_signal_connect_object (axis, "visible-changed", G_CALLBACK (axis_visible_changed_cb),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (axis, "hover-changed", G_CALLBACK (gtk_widget_queue_draw),
                               self, G_CONNECT_SWAPPED);
      axis_visible_changed_cb (self, axis);
    }
}

/**
 * bl_compare_chart_get_axis:
 *
 * Returns: (transfer none) (nullable): the shared time axis
 */
BlTimeAxis *
bl_compare_chart_get_axis (BlCompareChart *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_CHART (self), NULL);

  return self->axis;
}

/**
 * bl_compare_chart_get_hover_x:
 *
 * Where the pointer's time is marked: the hover of the shared axis (the
 * pointer over any chart on it), else the pointer over this chart.
 *
 * Returns: whether a time is marked
 */
gboolean
bl_compare_chart_get_hover_x (BlCompareChart *self,
                              double         *x)
{
  gint64 t;

  g_return_val_if_fail (BL_IS_COMPARE_CHART (self), FALSE);

  if (self->axis != NULL)
    {
      if (!bl_time_axis_get_hover (self->axis, &t))
        return FALSE;
      if (x != NULL)
        *x = aligned_to_x (self, (double) t);
      return TRUE;
    }
  if (x != NULL)
    *x = self->pointer_x;
  return self->pointer_in;
}
