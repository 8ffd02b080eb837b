/* bl-line-gutter-renderer.c — one per-line column of the annotated source view
 *
 * A text column shows one metric's value on every line that has one; a heat
 * column draws a bar whose length is the line's share of the hottest line
 * of the file. Lines without a value draw nothing, so cold code stays
 * quiet. What a column draws for a line comes from
 * bl_line_gutter_renderer_dup_text() and _get_fraction(), which the tests
 * call too.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-line-gutter-renderer"

#include "config.h"

#include <glib/gi18n.h>

#include "bl-line-gutter-renderer.h"

#define HEAT_WIDTH 56

struct _BlLineGutterRenderer
{
  GtkSourceGutterRenderer  parent_instance;

  BlLineGutterKind         kind;
  BlMetricId               metric;
  BlLineSet               *lines;
  int                      text_width;
  PangoLayout             *layout;
};

G_DEFINE_FINAL_TYPE (BlLineGutterRenderer, bl_line_gutter_renderer,
                     GTK_SOURCE_TYPE_GUTTER_RENDERER)

static guint64
value_at (BlLineGutterRenderer *self,
          guint32               line_number)
{
  guint position;

  if (self->lines == NULL || !bl_line_set_find (self->lines, line_number, &position))
    return 0;

  return bl_line_set_get_value (self->lines, self->metric, position);
}

static void
update_width (BlLineGutterRenderer *self)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  int widest = 0;

  if (self->kind == BL_LINE_GUTTER_TEXT && self->lines != NULL)
    for (guint p = 0; p < bl_line_set_get_n_lines (self->lines); p++)
      {
        guint64 v = bl_line_set_get_value (self->lines, self->metric, p);
        g_autofree char *text = NULL;
        int w;

        if (v == 0)
          continue;
        text = bl_metric_format_value (self->metric, v);
        pango_layout_set_text (layout, text, -1);
        pango_layout_get_pixel_size (layout, &w, NULL);
        widest = MAX (widest, w);
      }

  self->text_width = widest;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
bl_line_gutter_renderer_measure (GtkWidget      *widget,
                                 GtkOrientation  orientation,
                                 int             for_size,
                                 int            *minimum,
                                 int            *natural,
                                 int            *minimum_baseline,
                                 int            *natural_baseline)
{
  BlLineGutterRenderer *self = BL_LINE_GUTTER_RENDERER (widget);
  int xpad = gtk_source_gutter_renderer_get_xpad (GTK_SOURCE_GUTTER_RENDERER (self));

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int width = self->kind == BL_LINE_GUTTER_HEAT ? HEAT_WIDTH : MAX (self->text_width, 8);

      *minimum = *natural = width + 2 * xpad;
    }
  else
    *minimum = *natural = 0;

  *minimum_baseline = *natural_baseline = -1;
}

static void
heat_color (double   fraction,
            GdkRGBA *color)
{
  /* from amber to red as the line gets hotter */
  const GdkRGBA cool = { 0.96, 0.76, 0.07, 1.0 };
  const GdkRGBA hot = { 0.88, 0.11, 0.14, 1.0 };

  fraction = CLAMP (fraction, 0.0, 1.0);
  color->red = cool.red + (hot.red - cool.red) * fraction;
  color->green = cool.green + (hot.green - cool.green) * fraction;
  color->blue = cool.blue + (hot.blue - cool.blue) * fraction;
  color->alpha = 0.55 + 0.45 * fraction;
}

static void
bl_line_gutter_renderer_begin (GtkSourceGutterRenderer *renderer,
                               GtkSourceGutterLines    *lines)
{
  BlLineGutterRenderer *self = BL_LINE_GUTTER_RENDERER (renderer);

  if (self->layout == NULL)
    self->layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
}

static void
bl_line_gutter_renderer_snapshot_line (GtkSourceGutterRenderer *renderer,
                                       GtkSnapshot             *snapshot,
                                       GtkSourceGutterLines    *lines,
                                       guint                    line)
{
  BlLineGutterRenderer *self = BL_LINE_GUTTER_RENDERER (renderer);
  int xpad = gtk_source_gutter_renderer_get_xpad (renderer);
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  guint64 value = value_at (self, line + 1);
#if GTK_SOURCE_CHECK_VERSION (5, 16, 0)
  double y, height;
#else
  int y, height;
#endif

  if (value == 0)
    return;

#if GTK_SOURCE_CHECK_VERSION (5, 16, 0)
  /* 5.16 deprecates the integer get_line_yrange() */
  gtk_source_gutter_lines_get_line_extent (lines, line,
                                           GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_FIRST,
                                           &y, &height);
#else
  gtk_source_gutter_lines_get_line_yrange (lines, line,
                                           GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_FIRST,
                                           &y, &height);
#endif

  if (self->kind == BL_LINE_GUTTER_HEAT)
    {
      double fraction = bl_line_gutter_renderer_get_fraction (self, line + 1);
      double bar = MAX (2.0, fraction * (width - 2 * xpad));
      GdkRGBA color;

      heat_color (fraction, &color);
      gtk_snapshot_append_color (snapshot, &color,
                                 &GRAPHENE_RECT_INIT (xpad, y + 2, bar, MAX (1.0, height - 4)));
    }
  else
    {
      g_autofree char *text = bl_line_gutter_renderer_dup_text (self, line + 1);
      double fraction = bl_line_gutter_renderer_get_fraction (self, line + 1);
      GtkStyleContext *style = gtk_widget_get_style_context (GTK_WIDGET (self));
      GdkRGBA fg;
      int w, h;

      gtk_style_context_get_color (style, &fg);
      fg.alpha *= 0.55 + 0.45 * fraction;
      pango_layout_set_text (self->layout, text, -1);
      pango_layout_get_pixel_size (self->layout, &w, &h);

      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (width - xpad - w,
                                                              y + (height - h) / 2));
      gtk_snapshot_append_layout (snapshot, self->layout, &fg);
      gtk_snapshot_restore (snapshot);
    }
}

static gboolean
bl_line_gutter_renderer_query_tooltip (GtkWidget  *widget,
                                       int         x,
                                       int         y,
                                       gboolean    keyboard,
                                       GtkTooltip *tooltip)
{
  BlLineGutterRenderer *self = BL_LINE_GUTTER_RENDERER (widget);
  GtkSourceView *view = gtk_source_gutter_renderer_get_view (GTK_SOURCE_GUTTER_RENDERER (self));
  const BlMetricInfo *info = bl_metric_get_info (self->metric);
  g_autofree char *value = NULL;
  g_autofree char *text = NULL;
  GtkTextIter iter;
  int bx, by;
  guint32 line_number;

  if (view == NULL || self->lines == NULL)
    return FALSE;

  gtk_text_view_window_to_buffer_coords (GTK_TEXT_VIEW (view), GTK_TEXT_WINDOW_LEFT, x, y,
                                         &bx, &by);
  gtk_text_view_get_line_at_y (GTK_TEXT_VIEW (view), &iter, by, NULL);
  line_number = gtk_text_iter_get_line (&iter) + 1;
  if (value_at (self, line_number) == 0)
    return FALSE;

  value = bl_metric_format_value (self->metric, value_at (self, line_number));
  /* Translators: a gutter tooltip: "Line 42: CPU time 12.30 ms (31 % of the hottest line)" */
  text = g_strdup_printf (_("Line %u: %s %s (%.0f %% of the hottest line)"), line_number,
                          _(info->display_name), value,
                          100.0 * bl_line_gutter_renderer_get_fraction (self, line_number));
  gtk_tooltip_set_text (tooltip, text);

  return TRUE;
}

static void
bl_line_gutter_renderer_css_changed (GtkWidget         *widget,
                                     GtkCssStyleChange *change)
{
  BlLineGutterRenderer *self = BL_LINE_GUTTER_RENDERER (widget);

  GTK_WIDGET_CLASS (bl_line_gutter_renderer_parent_class)->css_changed (widget, change);

  g_clear_object (&self->layout);
  update_width (self);
}

static void
bl_line_gutter_renderer_finalize (GObject *object)
{
  BlLineGutterRenderer *self = (BlLineGutterRenderer *) object;

  g_clear_pointer (&self->lines, bl_line_set_unref);
  g_clear_object (&self->layout);

  G_OBJECT_CLASS (bl_line_gutter_renderer_parent_class)->finalize (object);
}

static void
bl_line_gutter_renderer_class_init (BlLineGutterRendererClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkSourceGutterRendererClass *renderer_class = GTK_SOURCE_GUTTER_RENDERER_CLASS (klass);

  object_class->finalize = bl_line_gutter_renderer_finalize;
  widget_class->measure = bl_line_gutter_renderer_measure;
  widget_class->query_tooltip = bl_line_gutter_renderer_query_tooltip;
  widget_class->css_changed = bl_line_gutter_renderer_css_changed;
  renderer_class->begin = bl_line_gutter_renderer_begin;
  renderer_class->snapshot_line = bl_line_gutter_renderer_snapshot_line;

  gtk_widget_class_set_css_name (widget_class, "linegutter");
}

static void
bl_line_gutter_renderer_init (BlLineGutterRenderer *self)
{
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self), "numeric");
}

GtkSourceGutterRenderer *
bl_line_gutter_renderer_new (BlLineGutterKind kind,
                             BlMetricId       metric)
{
  BlLineGutterRenderer *self = g_object_new (BL_TYPE_LINE_GUTTER_RENDERER,
                                             "xpad", 4,
                                             NULL);

  self->kind = kind;
  self->metric = metric;
  gtk_widget_add_css_class (GTK_WIDGET (self), kind == BL_LINE_GUTTER_HEAT ? "heat" : "value");

  return GTK_SOURCE_GUTTER_RENDERER (self);
}

BlLineGutterKind
bl_line_gutter_renderer_get_kind (BlLineGutterRenderer *self)
{
  g_return_val_if_fail (BL_IS_LINE_GUTTER_RENDERER (self), BL_LINE_GUTTER_TEXT);

  return self->kind;
}

BlMetricId
bl_line_gutter_renderer_get_metric (BlLineGutterRenderer *self)
{
  g_return_val_if_fail (BL_IS_LINE_GUTTER_RENDERER (self), BL_METRIC_INVALID);

  return self->metric;
}

void
bl_line_gutter_renderer_set_metric (BlLineGutterRenderer *self,
                                    BlMetricId            metric)
{
  g_return_if_fail (BL_IS_LINE_GUTTER_RENDERER (self));

  if (self->metric == metric)
    return;

  self->metric = metric;
  update_width (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * bl_line_gutter_renderer_set_lines:
 * @lines: (nullable): the line records of the file the view shows
 */
void
bl_line_gutter_renderer_set_lines (BlLineGutterRenderer *self,
                                   BlLineSet            *lines)
{
  g_return_if_fail (BL_IS_LINE_GUTTER_RENDERER (self));

  if (self->lines == lines)
    return;

  g_clear_pointer (&self->lines, bl_line_set_unref);
  if (lines)
    self->lines = bl_line_set_ref (lines);
  update_width (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * bl_line_gutter_renderer_dup_text:
 * @line_number: a 1-based source line
 *
 * Returns: (transfer full) (nullable): what a text column draws on that
 *   line, %NULL when it draws nothing
 */
char *
bl_line_gutter_renderer_dup_text (BlLineGutterRenderer *self,
                                  guint32               line_number)
{
  guint64 value;

  g_return_val_if_fail (BL_IS_LINE_GUTTER_RENDERER (self), NULL);

  if ((value = value_at (self, line_number)) == 0)
    return NULL;

  return bl_metric_format_value (self->metric, value);
}

/**
 * bl_line_gutter_renderer_get_fraction:
 * @line_number: a 1-based source line
 *
 * Returns: the line's value over the hottest line's, in [0, 1]; the heat
 *   bar's share of the column
 */
double
bl_line_gutter_renderer_get_fraction (BlLineGutterRenderer *self,
                                      guint32               line_number)
{
  guint64 max;

  g_return_val_if_fail (BL_IS_LINE_GUTTER_RENDERER (self), 0.0);

  if (self->lines == NULL || (max = bl_line_set_get_max (self->lines, self->metric)) == 0)
    return 0.0;

  return (double) value_at (self, line_number) / (double) max;
}
