/* bl-timeline.c — a session's resource charts stacked on one time axis
 *
 * Each series is normalized once (time offset and value / chart maximum)
 * when the session is set. When the visible span or the width changes,
 * the samples in view are decimated to one column per pixel (first, last,
 * min, max, and whether a gap came before), so a frame only strokes at
 * most a few thousand segments. The charts, grid, limits and beacons are
 * kept in one render node; hover, selection and the chosen instant are
 * painted over it each frame. Lines go through cairo, everything else
 * through GtkSnapshot.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-timeline"

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "bl-timeline.h"

#define RULER_HEIGHT   22.0
#define BEACON_HEIGHT  18.0
#define CHART_HEIGHT   76.0
#define CHART_GAP      8.0
#define TITLE_HEIGHT   18.0   /* the chart's title and legend, above its plot */
#define GUTTER         84.0
#define RIGHT_PAD      10.0
#define MAX_PLOTTED    3
#define MAX_LISTED     6
#define N_PALETTE      3

typedef struct
{
  double x;
  float  first;
  float  last;
  float  min;
  float  max;
  double sum;       /* of the column's values, for its mean */
  guint  count;
  gboolean brk;     /* a gap (null) before this column */
} Column;

typedef struct
{
  double  *t;       /* ms from the session start */
  float   *v;       /* value / chart maximum */
  guint8  *present;
  guint    n;
  GArray  *columns; /* Column */
} Norm;

typedef struct
{
  BlSeriesGroup group;
  BlSeriesId    plotted[MAX_PLOTTED];
  guint         n_plotted;
  BlSeriesId    listed[MAX_LISTED];
  guint         n_listed;
  gboolean      visible;
  gboolean      has_data;
  double        y_max;
  double        top;    /* plot area, widget coordinates */
  double        height;
} Chart;

struct _BlTimeline
{
  GtkWidget      parent_instance;

  BlSession     *session;
  BlTimeAxis    *axis;
  Chart          charts[BL_N_SERIES_GROUPS];
  Norm           norm[BL_N_SERIES];
  gboolean       columns_valid;
  double         columns_width;

  GskRenderNode *static_node;
  PangoLayout   *layout;

  GdkRGBA        fg;
  GdkRGBA        accent;
  GdkRGBA        error;
  GdkRGBA        warning;
  GdkRGBA        bg;
  GdkRGBA        palette[N_PALETTE];

  gboolean       memory_fits_data;

  /* drags */
  double         drag_x;
  double         drag_y;
  gboolean       drag_pans;
  gint64         drag_visible_start;
  gint64         drag_visible_end;

  double         pointer_x;
  double         pointer_y;
};

G_DEFINE_FINAL_TYPE (BlTimeline, bl_timeline, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const struct
{
  BlSeriesGroup group;
  BlSeriesId    plotted[MAX_PLOTTED];
  guint         n_plotted;
  BlSeriesId    listed[MAX_LISTED];
  guint         n_listed;
} chart_defs[BL_N_SERIES_GROUPS] = {
  { BL_SERIES_GROUP_MEMORY, { BL_SERIES_MEMORY_USED, BL_SERIES_MEMORY_RESIDENT }, 2,
    { BL_SERIES_MEMORY_USED, BL_SERIES_MEMORY_RESIDENT, BL_SERIES_MEMORY_SWAP,
      BL_SERIES_MEMORY_ANON, BL_SERIES_MEMORY_FILE, BL_SERIES_MEMORY_SHARED }, 6 },
  { BL_SERIES_GROUP_CPU, { BL_SERIES_CPU_TOTAL, BL_SERIES_CPU_USER, BL_SERIES_CPU_SYS }, 3,
    { BL_SERIES_CPU_TOTAL, BL_SERIES_CPU_USER, BL_SERIES_CPU_SYS }, 3 },
  { BL_SERIES_GROUP_GRAPHICS, { BL_SERIES_GRAPHICS_TEXTURE, BL_SERIES_GRAPHICS_SYSTEM }, 2,
    { BL_SERIES_GRAPHICS_TEXTURE, BL_SERIES_GRAPHICS_SYSTEM }, 2 },
  { BL_SERIES_GROUP_NODES, { BL_SERIES_NODES_TOTAL }, 1,
    { BL_SERIES_NODES_TOTAL, BL_SERIES_NODES_MEMORY }, 2 },
  { BL_SERIES_GROUP_FPS, { BL_SERIES_FPS }, 1, { BL_SERIES_FPS }, 1 },
  { BL_SERIES_GROUP_RENDEZVOUS, { BL_SERIES_RENDEZVOUS_COUNT }, 1,
    { BL_SERIES_RENDEZVOUS_COUNT, BL_SERIES_RENDEZVOUS_TOTAL_TIME,
      BL_SERIES_RENDEZVOUS_DROPS }, 3 },
  { BL_SERIES_GROUP_REGISTRY, { BL_SERIES_REGISTRY_USED }, 1, { BL_SERIES_REGISTRY_USED }, 1 },
  { BL_SERIES_GROUP_BS_OBJECTS, { BL_SERIES_BS_OBJECTS_COUNT }, 1,
    { BL_SERIES_BS_OBJECTS_COUNT, BL_SERIES_BS_OBJECTS_MEMORY }, 2 },
};

static const GdkRGBA fallback_palette[N_PALETTE] = {
  { 0.21, 0.52, 0.89, 1 },
  { 0.90, 0.38, 0.00, 1 },
  { 0.18, 0.76, 0.49, 1 },
};

/* ---- helpers ------------------------------------------------------------- */

static double
plot_width (BlTimeline *self)
{
  return MAX (1.0, gtk_widget_get_width (GTK_WIDGET (self)) - GUTTER - RIGHT_PAD);
}

static const Chart *
chart_of_series (BlTimeline *self,
                 BlSeriesId  id,
                 guint      *index)
{
  for (guint g = 0; g < BL_N_SERIES_GROUPS; g++)
    for (guint k = 0; k < self->charts[g].n_plotted; k++)
      if (self->charts[g].plotted[k] == id)
        {
          if (index)
            *index = k;
          return &self->charts[g];
        }
  return NULL;
}

static gboolean
chart_shown (const Chart *chart)
{
  return chart->visible && chart->has_data;
}

/* A round value at or above @v: 1, 2, 2.5 or 5 times a power of ten (of
 * MiB for bytes). */
static double
nice_ceiling (double       v,
              BlSeriesUnit unit)
{
  double scale = unit == BL_SERIES_UNIT_BYTES ? 1024.0 * 1024.0 : 1.0;
  double x = v / scale;
  double p;
  static const double steps[] = { 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10 };

  if (!(x > 0))
    return scale;
  p = pow (10, floor (log10 (x)));
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (steps[i] * p >= x)
      return steps[i] * p * scale;
  return 10 * p * scale;
}

static void
clear_norms (BlTimeline *self)
{
  for (guint i = 0; i < BL_N_SERIES; i++)
    {
      Norm *n = &self->norm[i];

      g_clear_pointer (&n->t, g_free);
      g_clear_pointer (&n->v, g_free);
      g_clear_pointer (&n->present, g_free);
      g_clear_pointer (&n->columns, g_array_unref);
      n->n = 0;
    }
}

static void
invalidate_static (BlTimeline *self)
{
  g_clear_pointer (&self->static_node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Scales and normalized arrays, once per session. */
static void
normalize (BlTimeline *self)
{
  const BlSessionInfo *info = bl_session_get_info (self->session);
  gint64 start;

  clear_norms (self);
  bl_time_axis_get_bounds (self->axis, &start, NULL);

  for (guint g = 0; g < BL_N_SERIES_GROUPS; g++)
    {
      Chart *chart = &self->charts[g];
      double max = 0;

      chart->has_data = FALSE;
      for (guint k = 0; k < chart->n_listed; k++)
        chart->has_data |= bl_session_has_series (self->session, chart->listed[k]);

      for (guint k = 0; k < chart->n_plotted; k++)
        {
          BlRangeStats stats;

          bl_session_compute_range_stats (self->session, chart->plotted[k],
                                          G_MININT64, G_MAXINT64, &stats);
          if (stats.n > 0)
            max = MAX (max, stats.max);
        }
      /* the limits are on the memory scale (and with them the 75 % line),
       * unless the chart is asked to fit the data: then a limit above the
       * data is named at the top of the chart instead */
      if (chart->group == BL_SERIES_GROUP_MEMORY && chart->has_data && !self->memory_fits_data)
        {
          if (info->has_foreground_limit)
            max = MAX (max, (double) info->foreground_limit);
          if (info->has_background_limit)
            max = MAX (max, (double) info->background_limit);
        }
      if (chart->group == BL_SERIES_GROUP_CPU)
        max = MAX (max, 10);
      if (chart->group == BL_SERIES_GROUP_FPS)
        max = MAX (max, 60);
      chart->y_max = nice_ceiling (max * 1.02,
                                   bl_series_get_info (chart->plotted[0])->unit);

      for (guint k = 0; k < chart->n_plotted; k++)
        {
          Norm *n = &self->norm[chart->plotted[k]];
          guint count;
          const BlSample *s = bl_session_get_series (self->session, chart->plotted[k], &count);

          n->n = count;
          n->t = g_new (double, MAX (count, 1));
          n->v = g_new (float, MAX (count, 1));
          n->present = g_new (guint8, MAX (count, 1));
          n->columns = g_array_new (FALSE, FALSE, sizeof (Column));
          for (guint i = 0; i < count; i++)
            {
              n->t[i] = (double) (s[i].timestamp_ms - start);
              n->v[i] = s[i].present ? (float) (s[i].value / chart->y_max) : 0.0f;
              n->present[i] = s[i].present;
            }
        }
    }

  self->columns_valid = FALSE;
}

static guint
lower_index (const double *t,
             guint         n,
             double        value)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (t[mid] < value)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* One column per pixel for the samples in view (and one either side). */
static void
decimate (BlTimeline *self,
          Norm       *n,
          double      width,
          double      v0,
          double      v1)
{
  guint first, last;
  gboolean pending_break = FALSE;
  gint64 last_col = G_MININT64;
  double scale = width / (v1 - v0);

  g_array_set_size (n->columns, 0);
  if (n->n == 0)
    return;

  first = lower_index (n->t, n->n, v0);
  first = first > 0 ? first - 1 : 0;
  last = lower_index (n->t, n->n, v1);
  last = MIN (last + 1, n->n);

  for (guint i = first; i < last; i++)
    {
      double x;
      gint64 col;

      if (!n->present[i])
        {
          pending_break = TRUE;
          continue;
        }
      x = (n->t[i] - v0) * scale;
      col = (gint64) floor (x);
      if (col != last_col || pending_break)
        {
          Column c = { x, n->v[i], n->v[i], n->v[i], n->v[i], n->v[i], 1, pending_break };

          g_array_append_val (n->columns, c);
          last_col = col;
          pending_break = FALSE;
        }
      else
        {
          Column *c = &g_array_index (n->columns, Column, n->columns->len - 1);

          c->last = n->v[i];
          c->min = MIN (c->min, n->v[i]);
          c->max = MAX (c->max, n->v[i]);
          c->sum += n->v[i];
          c->count++;
        }
    }
}

static void
ensure_columns (BlTimeline *self)
{
  gint64 start, vs, ve;
  double width = plot_width (self);

  if (self->session == NULL || (self->columns_valid && self->columns_width == width))
    return;

  bl_time_axis_get_bounds (self->axis, &start, NULL);
  bl_time_axis_get_visible (self->axis, &vs, &ve);
  for (guint i = 0; i < BL_N_SERIES; i++)
    if (self->norm[i].columns != NULL)
      decimate (self, &self->norm[i], width, (double) (vs - start), (double) (ve - start));

  self->columns_valid = TRUE;
  self->columns_width = width;
  invalidate_static (self);
}

static void
layout_charts (BlTimeline *self)
{
  double y = RULER_HEIGHT + BEACON_HEIGHT;

  for (guint g = 0; g < BL_N_SERIES_GROUPS; g++)
    {
      Chart *chart = &self->charts[g];

      if (!chart_shown (chart))
        {
          chart->top = chart->height = 0;
          continue;
        }
      chart->top = y + CHART_GAP + TITLE_HEIGHT;
      chart->height = CHART_HEIGHT;
      y = chart->top + chart->height;
    }
}

/* ---- drawing ------------------------------------------------------------ */

static void
append_text (BlTimeline  *self,
             GtkSnapshot *snapshot,
             const char  *text,
             double       x,
             double       y,
             const GdkRGBA *color,
             double       max_width,
             gboolean     align_right)
{
  int w, h;

  pango_layout_set_text (self->layout, text, -1);
  pango_layout_set_width (self->layout, max_width > 0 ? (int) (max_width * PANGO_SCALE) : -1);
  pango_layout_get_pixel_size (self->layout, &w, &h);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (align_right ? x - w : x, y));
  gtk_snapshot_append_layout (snapshot, self->layout, color);
  gtk_snapshot_restore (snapshot);
}

static double
text_width (BlTimeline *self,
            const char *text)
{
  int w;

  pango_layout_set_width (self->layout, -1);
  pango_layout_set_text (self->layout, text, -1);
  pango_layout_get_pixel_size (self->layout, &w, NULL);
  return w;
}

static GdkRGBA
with_alpha (const GdkRGBA *c,
            double         alpha)
{
  GdkRGBA out = *c;

  out.alpha *= alpha;
  return out;
}

static void
draw_ruler (BlTimeline  *self,
            GtkSnapshot *snapshot,
            double       width,
            double       bottom)
{
  gint64 start, vs, ve, step, first;
  GdkRGBA grid = with_alpha (&self->fg, 0.12);
  GdkRGBA dim = with_alpha (&self->fg, 0.7);
  guint max_ticks;

  bl_time_axis_get_bounds (self->axis, &start, NULL);
  bl_time_axis_get_visible (self->axis, &vs, &ve);
  step = bl_time_axis_tick_step ((double) ve - (double) vs, width);
  max_ticks = (guint) (MAX (width, 0) / 90) + 2;

  gtk_snapshot_append_color (snapshot, &grid,
                             &GRAPHENE_RECT_INIT (GUTTER, RULER_HEIGHT - 1, width, 1));

  /* the first tick at or after vs, counted from the start */
  first = start + (vs > start ? ((vs - start) / step + ((vs - start) % step != 0)) * step : 0);
  for (guint i = 0; i < max_ticks && first <= ve && (guint64) i * step <= (guint64) (ve - first);
       i++)
    {
      gint64 t = first + i * step;
      double x = GUTTER + bl_time_axis_time_to_x (self->axis, t, width);
      g_autofree char *label = bl_time_axis_format_offset (self->axis, t);

      gtk_snapshot_append_color (snapshot, &grid,
                                 &GRAPHENE_RECT_INIT (x, RULER_HEIGHT - 5, 1,
                                                      bottom - RULER_HEIGHT + 5));
      append_text (self, snapshot, label, x + 3, 3, &dim, -1, FALSE);
    }
}

static void
draw_beacons (BlTimeline  *self,
              GtkSnapshot *snapshot,
              double       width,
              double       bottom)
{
  const BlBeacon *beacons;
  const BlInterval *intervals;
  guint n_beacons, n_intervals;
  double label_end = -G_MAXDOUBLE;
  double top = RULER_HEIGHT;
  GdkRGBA span = with_alpha (&self->accent, 0.10);
  GdkRGBA marker = with_alpha (&self->fg, 0.35);
  GdkRGBA text = with_alpha (&self->fg, 0.85);

  intervals = bl_session_get_intervals (self->session, &n_intervals);
  beacons = bl_session_get_beacons (self->session, &n_beacons);

  for (guint i = 0; i < n_intervals; i++)
    {
      double x0 = bl_time_axis_time_to_x (self->axis, intervals[i].start_ms, width);
      double x1 = bl_time_axis_time_to_x (self->axis, intervals[i].end_ms, width);

      if (x1 < 0 || x0 > width)
        continue;
      x0 = MAX (x0, 0);
      x1 = MIN (x1, width);
      gtk_snapshot_append_color (snapshot, &span,
                                 &GRAPHENE_RECT_INIT (GUTTER + x0, top, MAX (x1 - x0, 1),
                                                      bottom - top));
    }

  for (guint i = 0; i < n_beacons; i++)
    {
      double x = bl_time_axis_time_to_x (self->axis, beacons[i].timestamp_ms, width);
      double w;

      if (x < 0 || x > width)
        continue;
      gtk_snapshot_append_color (snapshot, &marker,
                                 &GRAPHENE_RECT_INIT (GUTTER + x, top, 1, bottom - top));
      /* a label only where it does not run into the previous one */
      w = text_width (self, beacons[i].name);
      if (GUTTER + x + 3 > label_end && x + 3 + w <= width + RIGHT_PAD)
        {
          append_text (self, snapshot, beacons[i].name, GUTTER + x + 3, top + 1, &text, -1,
                       FALSE);
          label_end = GUTTER + x + 3 + w + 8;
        }
    }
}

/* Where a series has several samples in a pixel column (an hour at 1 Hz
 * on a laptop screen), the range of the column is filled as an envelope
 * and the line goes through the column's mean inside it; zoomed in, each
 * column holds one sample and the line is the data itself. */
static void
stroke_series (BlTimeline    *self,
               cairo_t       *cr,
               const Norm    *n,
               const Chart   *chart,
               double         x0,
               const GdkRGBA *color)
{
  const Column *cols = (const Column *) n->columns->data;
  double bottom = chart->top + chart->height;
  double h = chart->height;
  GdkRGBA fill = with_alpha (color, 0.3);
  guint run_start = 0;

  /* the envelope, one polygon per run of columns without a gap */
  gdk_cairo_set_source_rgba (cr, &fill);
  for (guint i = 0; i <= n->columns->len; i++)
    {
      gboolean dense = FALSE;

      if (i < n->columns->len && (i == run_start || !cols[i].brk))
        continue;
      for (guint k = run_start; k < i; k++)
        dense |= cols[k].count > 1;
      if (dense)
        {
          for (guint k = run_start; k < i; k++)
            {
              double x = x0 + cols[k].x;

              if (k == run_start)
                cairo_move_to (cr, x, bottom - cols[k].max * h);
              else
                cairo_line_to (cr, x, bottom - cols[k].max * h);
              /* a lone column still shows as a pixel wide */
              if (k + 1 == i)
                cairo_line_to (cr, x + 1, bottom - cols[k].max * h);
            }
          for (guint k = i; k > run_start; k--)
            {
              double x = x0 + cols[k - 1].x;

              if (k == i)
                cairo_line_to (cr, x + 1, bottom - cols[k - 1].min * h);
              cairo_line_to (cr, x, bottom - cols[k - 1].min * h);
            }
          cairo_close_path (cr);
        }
      run_start = i;
    }
  cairo_fill (cr);

  /* the line through each column's mean */
  gdk_cairo_set_source_rgba (cr, color);
  for (guint i = 0; i < n->columns->len; i++)
    {
      const Column *c = &cols[i];
      double x = x0 + c->x;
      double y = bottom - (c->count > 1 ? c->sum / c->count : c->first) * h;
      gboolean isolated = (i == 0 || c->brk) &&
                          (i + 1 == n->columns->len || cols[i + 1].brk);

      if (i == 0 || c->brk)
        cairo_move_to (cr, x, y);
      else
        cairo_line_to (cr, x, y);
      if (isolated)
        cairo_rectangle (cr, x - 1.5, y - 1.5, 3, 3);
    }
  cairo_stroke (cr);
}

/* The labels already placed on a chart, so that the next one does not
 * cover them. */
typedef struct
{
  graphene_rect_t rects[8];
  guint           n;
} Placed;

/* Text on a backing in the background colour (lines under it stay
 * readable), right-aligned at @right, moved left of any label it would
 * cover. */
static void
append_label (BlTimeline    *self,
              GtkSnapshot   *snapshot,
              Placed        *placed,
              const char    *text,
              double         right,
              double         y,
              const GdkRGBA *color)
{
  double w = text_width (self, text) + 6;
  GdkRGBA backing = with_alpha (&self->bg, 0.85);
  graphene_rect_t rect = GRAPHENE_RECT_INIT (right - w, y, w, 15);
  gboolean moved = TRUE;

  for (guint round = 0; moved && round < G_N_ELEMENTS (placed->rects); round++)
    {
      moved = FALSE;
      for (guint i = 0; i < placed->n; i++)
        if (graphene_rect_intersection (&rect, &placed->rects[i], NULL))
          {
            rect.origin.x = placed->rects[i].origin.x - 12 - w;
            moved = TRUE;
          }
    }
  if (placed->n < G_N_ELEMENTS (placed->rects))
    placed->rects[placed->n++] = rect;

  gtk_snapshot_append_color (snapshot, &backing, &rect);
  append_text (self, snapshot, text, rect.origin.x + 3, y, color, -1, FALSE);
}

static void
draw_limit (BlTimeline    *self,
            GtkSnapshot   *snapshot,
            const Chart   *chart,
            double         value,
            const GdkRGBA *color,
            const char    *label,
            double         width,
            Placed        *placed,
            gboolean       line)
{
  double y = chart->top + chart->height - value / chart->y_max * chart->height;
  double dash;

  if (y < chart->top - 0.5)
    {
      g_autofree char *amount = NULL;
      g_autofree char *text = NULL;

      if (line)
        return;
      amount = bl_series_format_value (BL_SERIES_MEMORY_USED, value);
      text = g_strdup_printf (_("%s %s (above the scale)"), label, amount);
      append_label (self, snapshot, placed, text, GUTTER + width - 3, chart->top + 2, color);
      return;
    }
  if (line)
    {
      for (dash = 0; dash < width; dash += 8)
        gtk_snapshot_append_color (snapshot, color,
                                   &GRAPHENE_RECT_INIT (GUTTER + dash, round (y),
                                                        MIN (5, width - dash), 1));
      return;
    }
  /* the label above its line, or below it at the top of the plot */
  append_label (self, snapshot, placed, label, GUTTER + width - 3,
                y - 16 >= chart->top ? y - 16 : y + 2, color);
}

static void
draw_limits (BlTimeline  *self,
             GtkSnapshot *snapshot,
             const Chart *chart,
             double       width,
             gboolean     lines)
{
  const BlSessionInfo *info = bl_session_get_info (self->session);
  GdkRGBA dim = with_alpha (&self->fg, 0.65);
  Placed placed = { .n = 0 };

  if (chart->group != BL_SERIES_GROUP_MEMORY)
    return;
  if (info->has_foreground_limit)
    {
      draw_limit (self, snapshot, chart, (double) info->foreground_limit, &self->error,
                  _("foreground limit"), width, &placed, lines);
      draw_limit (self, snapshot, chart, 0.75 * (double) info->foreground_limit,
                  /* xgettext:no-c-format */
                  &self->warning, _("75 % of the limit"), width, &placed, lines);
    }
  if (info->has_background_limit)
    draw_limit (self, snapshot, chart, (double) info->background_limit, &dim,
                _("background limit"), width, &placed, lines);
}

static void
draw_chart (BlTimeline  *self,
            GtkSnapshot *snapshot,
            const Chart *chart,
            double       width)
{
  GdkRGBA frame = with_alpha (&self->fg, 0.15);
  GdkRGBA dim = with_alpha (&self->fg, 0.65);
  GdkRGBA bg = with_alpha (&self->fg, 0.03);
  g_autofree char *top_label = bl_series_format_value (chart->plotted[0], chart->y_max);
  g_autofree char *zero_label = bl_series_format_value (chart->plotted[0], 0);
  graphene_rect_t area = GRAPHENE_RECT_INIT (GUTTER, chart->top, width, chart->height);
  cairo_t *cr;
  double legend_x = GUTTER + 6;

  gtk_snapshot_append_color (snapshot, &bg, &area);
  gtk_snapshot_append_color (snapshot, &frame,
                             &GRAPHENE_RECT_INIT (GUTTER, chart->top + chart->height, width, 1));
  gtk_snapshot_append_color (snapshot, &frame,
                             &GRAPHENE_RECT_INIT (GUTTER, chart->top, width, 1));

  /* the scale in the gutter */
  append_text (self, snapshot, top_label, GUTTER - 4, chart->top, &dim, -1, TRUE);
  append_text (self, snapshot, zero_label, GUTTER - 4, chart->top + chart->height - 16, &dim,
               -1, TRUE);

  draw_limits (self, snapshot, chart, width, TRUE);

  cr = gtk_snapshot_append_cairo (snapshot, &area);
  cairo_rectangle (cr, area.origin.x, area.origin.y, area.size.width, area.size.height);
  cairo_clip (cr);
  cairo_set_line_width (cr, 1.5);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (gint k = (gint) chart->n_plotted - 1; k >= 0; k--)
    {
      const Norm *n = &self->norm[chart->plotted[k]];

      if (n->columns == NULL || n->columns->len == 0)
        continue;
      stroke_series (self, cr, n, chart, GUTTER, &self->palette[k % N_PALETTE]);
    }
  cairo_destroy (cr);

  /* the limits' labels over the data */
  draw_limits (self, snapshot, chart, width, FALSE);

  /* the title, then a legend for charts with several lines */
  {
    const char *title = bl_series_group_get_display_name (chart->group);

    append_text (self, snapshot, title, legend_x, chart->top - TITLE_HEIGHT, &self->fg, -1,
                 FALSE);
    legend_x += text_width (self, title) + 16;
  }
  if (chart->n_plotted > 1)
    for (guint k = 0; k < chart->n_plotted; k++)
      {
        const char *name = g_dgettext (GETTEXT_PACKAGE,
                                       bl_series_get_info (chart->plotted[k])->display_name);

        gtk_snapshot_append_color (snapshot, &self->palette[k % N_PALETTE],
                                   &GRAPHENE_RECT_INIT (legend_x, chart->top - TITLE_HEIGHT + 6,
                                                        10, 3));
        append_text (self, snapshot, name, legend_x + 14, chart->top - TITLE_HEIGHT, &dim, -1,
                     FALSE);
        legend_x += 14 + text_width (self, name) + 16;
      }
}

static GskRenderNode *
build_static_node (BlTimeline *self)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  double width = plot_width (self);
  double bottom = RULER_HEIGHT + BEACON_HEIGHT;

  for (guint g = 0; g < BL_N_SERIES_GROUPS; g++)
    if (chart_shown (&self->charts[g]))
      bottom = self->charts[g].top + self->charts[g].height;

  draw_ruler (self, snapshot, width, bottom);
  for (guint g = 0; g < BL_N_SERIES_GROUPS; g++)
    if (chart_shown (&self->charts[g]))
      draw_chart (self, snapshot, &self->charts[g], width);
  draw_beacons (self, snapshot, width, bottom);

  return gtk_snapshot_free_to_node (snapshot);
}

static void
bl_timeline_snapshot (GtkWidget   *widget,
                      GtkSnapshot *snapshot)
{
  BlTimeline *self = BL_TIMELINE (widget);
  double width = plot_width (self);
  double height = gtk_widget_get_height (widget);
  gint64 from, to, t;

  if (self->session == NULL)
    return;

  if (self->static_node == NULL)
    self->static_node = build_static_node (self);
  gtk_snapshot_append_node (snapshot, self->static_node);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (GUTTER, 0, width, height));

  if (bl_time_axis_get_selection (self->axis, &from, &to))
    {
      double x0 = GUTTER + bl_time_axis_time_to_x (self->axis, from, width);
      double x1 = GUTTER + bl_time_axis_time_to_x (self->axis, to, width);
      GdkRGBA fill = with_alpha (&self->accent, 0.18);
      GdkRGBA edge = with_alpha (&self->accent, 0.8);

      gtk_snapshot_append_color (snapshot, &fill,
                                 &GRAPHENE_RECT_INIT (x0, RULER_HEIGHT, MAX (x1 - x0, 1),
                                                      height - RULER_HEIGHT));
      gtk_snapshot_append_color (snapshot, &edge,
                                 &GRAPHENE_RECT_INIT (x0, RULER_HEIGHT, 1, height - RULER_HEIGHT));
      gtk_snapshot_append_color (snapshot, &edge,
                                 &GRAPHENE_RECT_INIT (x1, RULER_HEIGHT, 1, height - RULER_HEIGHT));
    }

  t = bl_time_axis_get_instant (self->axis);
  {
    double x = GUTTER + bl_time_axis_time_to_x (self->axis, t, width);
    GdkRGBA c = with_alpha (&self->accent, 0.9);

    gtk_snapshot_append_color (snapshot, &c,
                               &GRAPHENE_RECT_INIT (x - 1, RULER_HEIGHT, 2, height - RULER_HEIGHT));
  }

  if (bl_time_axis_get_hover (self->axis, &t))
    {
      double x = GUTTER + bl_time_axis_time_to_x (self->axis, t, width);
      GdkRGBA line = with_alpha (&self->fg, 0.55);
      g_autofree char *label = bl_time_axis_format_offset (self->axis, t);

      gtk_snapshot_append_color (snapshot, &line, &GRAPHENE_RECT_INIT (x, 0, 1, height));
      /* over the ruler's own labels: on a backing */
      gtk_snapshot_append_color (snapshot, &self->bg,
                                 &GRAPHENE_RECT_INIT (x + 1, 2, text_width (self, label) + 6,
                                                      RULER_HEIGHT - 5));
      append_text (self, snapshot, label, x + 3, 3, &self->fg, -1, FALSE);

      /* a dot on every drawn series at the sample nearest in time */
      for (guint g = 0; g < BL_N_SERIES_GROUPS; g++)
        {
          const Chart *chart = &self->charts[g];

          if (!chart_shown (chart))
            continue;
          for (guint k = 0; k < chart->n_plotted; k++)
            {
              guint n;
              const BlSample *s = bl_session_get_series (self->session, chart->plotted[k], &n);
              gint i = bl_series_find_nearest (s, n, t);
              double sx, sy;

              if (i < 0)
                continue;
              sx = GUTTER + bl_time_axis_time_to_x (self->axis, s[i].timestamp_ms, width);
              sy = chart->top + chart->height - s[i].value / chart->y_max * chart->height;
              gtk_snapshot_append_color (snapshot, &self->palette[k % N_PALETTE],
                                         &GRAPHENE_RECT_INIT (sx - 3, sy - 3, 6, 6));
            }
        }
    }

  gtk_snapshot_pop (snapshot);
}

/* ---- size ---------------------------------------------------------------- */

static void
bl_timeline_measure (GtkWidget      *widget,
                     GtkOrientation  orientation,
                     int             for_size,
                     int            *minimum,
                     int            *natural,
                     int            *minimum_baseline,
                     int            *natural_baseline)
{
  BlTimeline *self = BL_TIMELINE (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = (int) (GUTTER + RIGHT_PAD + 120);
      *natural = 800;
    }
  else
    {
      double h = RULER_HEIGHT + BEACON_HEIGHT;

      for (guint g = 0; g < BL_N_SERIES_GROUPS; g++)
        if (self->session != NULL && chart_shown (&self->charts[g]))
          h += CHART_GAP + TITLE_HEIGHT + CHART_HEIGHT;
      *minimum = *natural = (int) ceil (h + CHART_GAP);
    }
}

static void
bl_timeline_size_allocate (GtkWidget *widget,
                           int        width,
                           int        height,
                           int        baseline)
{
  BlTimeline *self = BL_TIMELINE (widget);

  layout_charts (self);
  if (self->columns_width != plot_width (self))
    self->columns_valid = FALSE;
  ensure_columns (self);
  invalidate_static (self);
}

static void
bl_timeline_css_changed (GtkWidget         *widget,
                         GtkCssStyleChange *change)
{
  BlTimeline *self = BL_TIMELINE (widget);
  GtkStyleContext *context;

  GTK_WIDGET_CLASS (bl_timeline_parent_class)->css_changed (widget, change);

  context = gtk_widget_get_style_context (widget);
  gtk_style_context_get_color (context, &self->fg);
  if (!gtk_style_context_lookup_color (context, "accent_color", &self->accent))
    self->accent = (GdkRGBA) { 0.21, 0.52, 0.89, 1 };
  if (!gtk_style_context_lookup_color (context, "error_color", &self->error))
    self->error = (GdkRGBA) { 0.88, 0.11, 0.14, 1 };
  if (!gtk_style_context_lookup_color (context, "warning_color", &self->warning))
    self->warning = (GdkRGBA) { 0.80, 0.50, 0.00, 1 };
  if (!gtk_style_context_lookup_color (context, "window_bg_color", &self->bg))
    self->bg = (GdkRGBA) { 1, 1, 1, 1 };
  for (guint i = 0; i < N_PALETTE; i++)
    {
      g_autofree char *name = g_strdup_printf ("bl_series_%u", i);

      if (!gtk_style_context_lookup_color (context, name, &self->palette[i]))
        self->palette[i] = fallback_palette[i];
    }

  g_clear_object (&self->layout);
  self->layout = gtk_widget_create_pango_layout (widget, NULL);
  pango_layout_set_ellipsize (self->layout, PANGO_ELLIPSIZE_END);
  invalidate_static (self);
}

/* ---- input ---------------------------------------------------------------- */

static void
on_motion (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           BlTimeline               *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
  if (self->session == NULL || x < GUTTER)
    {
      bl_time_axis_clear_hover (self->axis);
      return;
    }
  bl_time_axis_set_hover (self->axis, bl_timeline_x_to_time (self, x));
}

static void
on_leave (GtkEventControllerMotion *motion,
          BlTimeline               *self)
{
  bl_time_axis_clear_hover (self->axis);
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               BlTimeline     *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));

  self->drag_x = x;
  self->drag_y = y;
  self->drag_pans = button == GDK_BUTTON_MIDDLE || y < RULER_HEIGHT + BEACON_HEIGHT;
  bl_time_axis_get_visible (self->axis, &self->drag_visible_start, &self->drag_visible_end);
  if (self->session != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                BlTimeline     *self)
{
  if (self->session == NULL)
    return;

  if (self->drag_pans)
    {
      double span = (double) (self->drag_visible_end - self->drag_visible_start);
      gint64 delta = (gint64) round (-dx / plot_width (self) * span);

      bl_time_axis_set_visible (self->axis, self->drag_visible_start + delta,
                                self->drag_visible_end + delta);
      return;
    }

  if (fabs (dx) > 3)
    bl_time_axis_set_selection (self->axis,
                                bl_timeline_x_to_time (self, MAX (self->drag_x, GUTTER)),
                                bl_timeline_x_to_time (self, MAX (self->drag_x + dx, GUTTER)));
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             BlTimeline     *self)
{
  if (self->session == NULL || self->drag_pans)
    return;

  /* a click: choose the instant for the details */
  if (fabs (dx) <= 3 && fabs (dy) <= 3 && self->drag_x >= GUTTER)
    {
      bl_time_axis_clear_selection (self->axis);
      bl_time_axis_set_instant (self->axis, bl_timeline_x_to_time (self, self->drag_x));
    }
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll,
           double                    dx,
           double                    dy,
           BlTimeline               *self)
{
  GdkModifierType state;
  gint64 vs, ve;

  if (self->session == NULL)
    return FALSE;

  state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));
  bl_time_axis_get_visible (self->axis, &vs, &ve);

  if ((state & GDK_SHIFT_MASK) != 0 && dx == 0)
    {
      dx = dy;
      dy = 0;
    }
  if (dx != 0)
    bl_time_axis_pan (self->axis, (gint64) round (dx * 0.1 * (double) (ve - vs)));
  if (dy != 0)
    bl_time_axis_zoom (self->axis, pow (1.2, dy),
                       bl_timeline_x_to_time (self, MAX (self->pointer_x, GUTTER)));
  return TRUE;
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  BlTimeline *self = BL_TIMELINE (widget);
  g_autofree char *text = NULL;

  if (self->session == NULL || x < GUTTER)
    return FALSE;
  text = bl_timeline_dup_tooltip_text (self, x, y);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
zoom_action (GtkWidget  *widget,
             const char *action,
             GVariant   *param)
{
  BlTimeline *self = BL_TIMELINE (widget);
  gint64 vs, ve;

  bl_time_axis_get_visible (self->axis, &vs, &ve);
  if (g_str_equal (action, "timeline.zoom-in"))
    bl_time_axis_zoom (self->axis, 1 / 1.5, (vs + ve) / 2);
  else if (g_str_equal (action, "timeline.zoom-out"))
    bl_time_axis_zoom (self->axis, 1.5, (vs + ve) / 2);
  else if (g_str_equal (action, "timeline.reset-zoom"))
    bl_time_axis_reset (self->axis);
  else if (g_str_equal (action, "timeline.pan-left"))
    bl_time_axis_pan (self->axis, -(ve - vs) / 10);
  else if (g_str_equal (action, "timeline.pan-right"))
    bl_time_axis_pan (self->axis, (ve - vs) / 10);
}

/* ---- the object ------------------------------------------------------------ */

static void
on_visible_changed (BlTimeAxis *axis,
                    BlTimeline *self)
{
  self->columns_valid = FALSE;
  ensure_columns (self);
}

static void
bl_timeline_dispose (GObject *object)
{
  BlTimeline *self = BL_TIMELINE (object);

  if (self->axis != NULL)
    g_signal_handlers_disconnect_by_data (self->axis, self);
  g_clear_object (&self->axis);
  g_clear_object (&self->session);
  g_clear_object (&self->layout);
  g_clear_pointer (&self->static_node, gsk_render_node_unref);
  clear_norms (self);

  G_OBJECT_CLASS (bl_timeline_parent_class)->dispose (object);
}

static void
bl_timeline_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  BlTimeline *self = BL_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_timeline_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  BlTimeline *self = BL_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      bl_timeline_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_timeline_class_init (BlTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_timeline_dispose;
  object_class->get_property = bl_timeline_get_property;
  object_class->set_property = bl_timeline_set_property;

  widget_class->snapshot = bl_timeline_snapshot;
  widget_class->measure = bl_timeline_measure;
  widget_class->size_allocate = bl_timeline_size_allocate;
  widget_class->css_changed = bl_timeline_css_changed;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, BL_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.reset-zoom", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-left", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-right", NULL, zoom_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0,
                                       "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "timeline.reset-zoom", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "timeline.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "timeline.pan-right",
                                       NULL);

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
bl_timeline_init (BlTimeline *self)
{
  GtkEventController *motion;
  GtkGesture *drag;
  GtkGesture *pan;
  GtkEventController *scroll;

  self->axis = bl_time_axis_new ();
  g_signal_connect (self->axis, "visible-changed", G_CALLBACK (on_visible_changed), self);
  g_signal_connect_swapped (self->axis, "selection-changed",
                            G_CALLBACK (gtk_widget_queue_draw), self);
  g_signal_connect_swapped (self->axis, "hover-changed", G_CALLBACK (gtk_widget_queue_draw), self);
  g_signal_connect_swapped (self->axis, "instant-changed",
                            G_CALLBACK (gtk_widget_queue_draw), self);

  for (guint g = 0; g < BL_N_SERIES_GROUPS; g++)
    {
      Chart *chart = &self->charts[g];

      chart->group = chart_defs[g].group;
      chart->n_plotted = chart_defs[g].n_plotted;
      chart->n_listed = chart_defs[g].n_listed;
      memcpy (chart->plotted, chart_defs[g].plotted, sizeof chart->plotted);
      memcpy (chart->listed, chart_defs[g].listed, sizeof chart->listed);
      chart->visible = TRUE;
      chart->y_max = 1;
    }
  for (guint i = 0; i < N_PALETTE; i++)
    self->palette[i] = fallback_palette[i];
  self->fg = (GdkRGBA) { 0, 0, 0, 1 };
  self->accent = (GdkRGBA) { 0.21, 0.52, 0.89, 1 };
  self->error = (GdkRGBA) { 0.88, 0.11, 0.14, 1 };
  self->warning = (GdkRGBA) { 0.80, 0.50, 0.00, 1 };
  self->layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  pan = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (pan), GDK_BUTTON_MIDDLE);
  g_signal_connect (pan, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (pan, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (pan));

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES |
                                            GTK_EVENT_CONTROLLER_SCROLL_DISCRETE);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Resource timeline"),
                                  -1);
}

/* ---- public API ------------------------------------------------------------ */

GtkWidget *
bl_timeline_new (void)
{
  return g_object_new (BL_TYPE_TIMELINE, NULL);
}

BlSession *
bl_timeline_get_session (BlTimeline *self)
{
  g_return_val_if_fail (BL_IS_TIMELINE (self), NULL);

  return self->session;
}

void
bl_timeline_set_session (BlTimeline *self,
                         BlSession  *session)
{
  g_return_if_fail (BL_IS_TIMELINE (self));
  g_return_if_fail (!session || BL_IS_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;

  clear_norms (self);
  if (session != NULL)
    {
      const BlSessionSummary *sum = bl_session_get_summary (session);

      bl_time_axis_set_bounds (self->axis, sum->start_ms, sum->end_ms);
      normalize (self);
    }
  self->columns_valid = FALSE;
  layout_charts (self);
  ensure_columns (self);
  invalidate_static (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/**
 * bl_timeline_get_axis:
 *
 * Returns: (transfer none): the axis every chart of this timeline shares
 */
BlTimeAxis *
bl_timeline_get_axis (BlTimeline *self)
{
  g_return_val_if_fail (BL_IS_TIMELINE (self), NULL);

  return self->axis;
}

void
bl_timeline_set_group_visible (BlTimeline    *self,
                               BlSeriesGroup  group,
                               gboolean       visible)
{
  g_return_if_fail (BL_IS_TIMELINE (self));
  g_return_if_fail (group < BL_N_SERIES_GROUPS);

  if (self->charts[group].visible == !!visible)
    return;
  self->charts[group].visible = !!visible;
  layout_charts (self);
  invalidate_static (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

gboolean
bl_timeline_get_group_visible (BlTimeline    *self,
                               BlSeriesGroup  group)
{
  g_return_val_if_fail (BL_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (group < BL_N_SERIES_GROUPS, FALSE);

  return self->charts[group].visible;
}

gboolean
bl_timeline_group_has_data (BlTimeline    *self,
                            BlSeriesGroup  group)
{
  g_return_val_if_fail (BL_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (group < BL_N_SERIES_GROUPS, FALSE);

  return self->session != NULL && self->charts[group].has_data;
}

gboolean
bl_timeline_get_plot_area (BlTimeline      *self,
                           BlSeriesGroup    group,
                           graphene_rect_t *area)
{
  const Chart *chart;

  g_return_val_if_fail (BL_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (group < BL_N_SERIES_GROUPS, FALSE);

  chart = &self->charts[group];
  if (self->session == NULL || !chart_shown (chart))
    return FALSE;
  graphene_rect_init (area, GUTTER, chart->top, plot_width (self), chart->height);
  return TRUE;
}

double
bl_timeline_time_to_x (BlTimeline *self,
                       gint64      t_ms)
{
  g_return_val_if_fail (BL_IS_TIMELINE (self), 0);

  return GUTTER + bl_time_axis_time_to_x (self->axis, t_ms, plot_width (self));
}

gint64
bl_timeline_x_to_time (BlTimeline *self,
                       double      x)
{
  g_return_val_if_fail (BL_IS_TIMELINE (self), 0);

  return bl_time_axis_x_to_time (self->axis, x - GUTTER, plot_width (self));
}

double
bl_timeline_value_to_y (BlTimeline *self,
                        BlSeriesId  id,
                        double      value)
{
  const Chart *chart;

  g_return_val_if_fail (BL_IS_TIMELINE (self), NAN);

  chart = chart_of_series (self, id, NULL);
  if (chart == NULL || self->session == NULL || !chart_shown (chart))
    return NAN;
  return chart->top + chart->height - value / chart->y_max * chart->height;
}

int
bl_timeline_group_at (BlTimeline *self,
                      double      y)
{
  g_return_val_if_fail (BL_IS_TIMELINE (self), -1);

  for (guint g = 0; g < BL_N_SERIES_GROUPS; g++)
    {
      const Chart *chart = &self->charts[g];

      if (self->session != NULL && chart_shown (chart) &&
          y >= chart->top - CHART_GAP / 2 && y < chart->top + chart->height + CHART_GAP / 2)
        return g;
    }
  return -1;
}

int
bl_timeline_pick_sample (BlTimeline *self,
                         BlSeriesId  id,
                         double      x)
{
  const BlSample *s;
  guint n;

  g_return_val_if_fail (BL_IS_TIMELINE (self), -1);
  g_return_val_if_fail (id >= 0 && id < BL_N_SERIES, -1);

  if (self->session == NULL)
    return -1;
  s = bl_session_get_series (self->session, id, &n);
  return bl_series_find_nearest (s, n, bl_timeline_x_to_time (self, x));
}

/**
 * bl_timeline_dup_tooltip_text:
 *
 * Returns: (transfer full): what hovering at (@x, @y) shows
 */
char *
bl_timeline_dup_tooltip_text (BlTimeline *self,
                              double      x,
                              double      y)
{
  GString *text;
  gint64 t;
  g_autofree char *offset = NULL;
  g_autofree char *clock = NULL;
  const BlBeacon *beacons;
  const BlInterval *intervals;
  guint n_beacons, n_intervals;
  double width;

  g_return_val_if_fail (BL_IS_TIMELINE (self), NULL);

  if (self->session == NULL)
    return NULL;

  width = plot_width (self);
  t = bl_timeline_x_to_time (self, x);
  offset = bl_time_axis_format_offset (self->axis, t);
  clock = bl_time_axis_format_clock (t);
  text = g_string_new (NULL);
  g_string_append_printf (text, "%s  (%s)", offset, clock);

  for (guint g = 0; g < BL_N_SERIES_GROUPS; g++)
    {
      const Chart *chart = &self->charts[g];

      if (!chart_shown (chart))
        continue;
      g_string_append_printf (text, "\n%s", bl_series_group_get_display_name (chart->group));
      for (guint k = 0; k < chart->n_listed; k++)
        {
          guint n;
          const BlSample *s = bl_session_get_series (self->session, chart->listed[k], &n);
          gint i = bl_series_find_nearest (s, n, t);
          g_autofree char *value = NULL;

          if (i < 0)
            continue;
          value = bl_series_format_value (chart->listed[k], s[i].value);
          g_string_append_printf (text, "\n    %s: %s",
                                  g_dgettext (GETTEXT_PACKAGE,
                                              bl_series_get_info (chart->listed[k])->display_name),
                                  value);
        }
    }

  beacons = bl_session_get_beacons (self->session, &n_beacons);
  for (guint i = 0; i < n_beacons; i++)
    {
      double bx = bl_time_axis_time_to_x (self->axis, beacons[i].timestamp_ms, width) + GUTTER;

      if (fabs (bx - x) <= 4)
        {
          g_autofree char *at = bl_time_axis_format_offset (self->axis, beacons[i].timestamp_ms);

          g_string_append_printf (text, _("\nBeacon %s at %s"), beacons[i].name, at);
        }
    }
  intervals = bl_session_get_intervals (self->session, &n_intervals);
  for (guint i = 0; i < n_intervals; i++)
    if (t >= intervals[i].start_ms && t <= intervals[i].end_ms)
      g_string_append_printf (text, _("\n%s: %" PRId64 " ms"), intervals[i].name,
                              intervals[i].end_ms - intervals[i].start_ms);

  return g_string_free (text, FALSE);
}

gboolean
bl_timeline_get_series_color (BlTimeline *self,
                              BlSeriesId  id,
                              GdkRGBA    *color)
{
  guint index;

  g_return_val_if_fail (BL_IS_TIMELINE (self), FALSE);

  if (chart_of_series (self, id, &index) == NULL)
    return FALSE;
  *color = self->palette[index % N_PALETTE];
  return TRUE;
}

/**
 * bl_timeline_set_memory_fits_data:
 *
 * Whether the memory chart's scale fits the data alone (the limits above
 * it are then named at the top of the chart) instead of including the
 * foreground and background limits.
 */
void
bl_timeline_set_memory_fits_data (BlTimeline *self,
                                  gboolean    fits_data)
{
  g_return_if_fail (BL_IS_TIMELINE (self));

  fits_data = !!fits_data;
  if (self->memory_fits_data == fits_data)
    return;
  self->memory_fits_data = fits_data;
  if (self->session != NULL)
    normalize (self);
  invalidate_static (self);
}

gboolean
bl_timeline_get_memory_fits_data (BlTimeline *self)
{
  g_return_val_if_fail (BL_IS_TIMELINE (self), FALSE);

  return self->memory_fits_data;
}
