/* bl-trace-timeline.c
 *
 * A Perfetto trace on one time axis, under a ruler: a markers lane for the
 * instants that belong to no slice track, then a lane per slice track
 * (a header row with its name and its instants as markers, then one row of
 * slices per nesting depth, in the flame graph's colours, names on the
 * bars wide enough for them), then a lane per counter track (a chart of the
 * value over time, a step from each value to the next, as a min/max
 * envelope per pixel column like the Resource Monitor charts, with its
 * unit and range in the header). A click on a header collapses or expands
 * the lane.
 *
 * Each slice lane's spans are split into rows by depth once per profile;
 * within a row the spans do not overlap, so starts and ends are sorted and
 * drawing and hit-testing find the visible ones by binary search. Bars
 * narrower than a quarter pixel become one sliver per pixel column and the
 * search jumps to the next column, so a frame costs at most one bar per
 * column and row whatever the number of slices.
 *
 * Pointer: Ctrl+wheel zooms around the pointer, Shift+wheel or a horizontal
 * wheel pans, the wheel scrolls the lanes (the widget is GtkScrollable: the
 * horizontal adjustment is the visible time, the vertical one the lanes).
 * The ruler reads the time since the trace's start ("1.50 s"), or, with a
 * ruler origin (bl_trace_timeline_set_ruler_origin()), m:ss from that
 * origin on the steps of BlTimeline's ruler, so that lanes shown under
 * resource charts read as they do.
 *
 * Dragging across the lanes selects a time range, dragging the ruler (or
 * with the middle button) pans; a click selects a slice, whose flows are
 * then drawn as arrows. Keys: plus/minus zoom, Left/Right pan, Home shows everything,
 * Escape clears the range and the selection.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-trace-timeline"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "bl-perfetto-reader.h"
#include "bl-time-axis.h"

#include "bl-trace-timeline.h"

#define N_PALETTE     12
#define N_SHADES      7
#define MIN_BAR_PX    0.25
#define MIN_LABEL_PX  24.0
#define LABEL_PAD     3.0
#define MIN_WINDOW    10.0
#define LANE_GAP      4.0
#define COUNTER_H     56.0
#define TICK_PX       110.0
#define MARKER_PX     4.0
#define DRAG_PX       3.0

typedef enum
{
  LANE_MARKERS,
  LANE_THREAD,
  LANE_COUNTER,
} LaneKind;

typedef struct
{
  LaneKind      kind;
  guint         index;      /* thread or counter */
  gboolean      expanded;
  double        y;          /* top, in content coordinates */
  BlSpanList    list;       /* a thread's spans */
  GPtrArray    *rows;       /* per depth - 1: GArray of guint32 span indexes */
  GArray       *instants;   /* guint: indexes into trace->instants, by time */
  double        vmin;       /* counter: the scale */
  double        vmax;
  GPtrArray    *pyramid;    /* counter: per level L ≥ 1, a GArray of MinMax per 2^L points */
} Lane;

typedef struct
{
  double min;
  double max;
} MinMax;

struct _BlTraceTimeline
{
  GtkWidget              parent_instance;

  BlProfile             *profile;
  const BlPerfettoTrace *trace;
  BlFlameGraph          *color_graph;   /* weak */
  GPtrArray             *lanes;         /* Lane */
  guint                 *thread_lane;   /* per thread, G_MAXUINT if none */
  guint                  n_threads;
  GHashTable            *annotations;   /* (thread << 32 | span) → text */
  double                 t0;
  double                 t1;
  double                 extent_start;  /* bounds asked for beyond the data, */
  double                 extent_end;    /* end < start: none */
  double                 ruler_origin;  /* NAN: the ruler counts from t0 */
  double                 content;

  /* view */
  double                 v0;
  double                 v1;
  double                 y_offset;
  GtkAdjustment         *hadjustment;
  GtkAdjustment         *vadjustment;
  guint                  hscroll_policy : 1;
  guint                  vscroll_policy : 1;
  gboolean               updating_adjustments;

  /* selection */
  gboolean               has_range;
  guint64                range_from;
  guint64                range_to;
  gboolean               has_slice;
  guint                  slice_thread;
  guint32                slice_span;

  /* pointer */
  double                 pointer_x;
  double                 pointer_y;
  double                 drag_x;
  double                 drag_y;
  double                 drag_v0;
  gboolean               drag_pans;
  gboolean               drag_selects;

  int                    row_height;
  int                    ruler_height;
  PangoLayout           *layout;
  GdkRGBA                fg;
  GdkRGBA                bg;
  GdkRGBA                accent;
  GdkRGBA                palette[N_PALETTE];
  GdkRGBA                counter_colors[5];
  GdkRGBA                marker;
};

enum
{
  PROP_0,
  PROP_PROFILE,
  N_PROPS,
  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

enum
{
  RANGE_CHANGED,
  SLICE_SELECTED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE_WITH_CODE (BlTraceTimeline, bl_trace_timeline, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void configure_adjustments (BlTraceTimeline *self);

/* ---- colours ------------------------------------------------------------ */

static double
luminance (const GdkRGBA *c)
{
  return 0.2126 * c->red + 0.7152 * c->green + 0.0722 * c->blue;
}

static void
mix (GdkRGBA       *out,
     const GdkRGBA *a,
     const GdkRGBA *b,
     double         t)
{
  out->red = a->red + (b->red - a->red) * t;
  out->green = a->green + (b->green - a->green) * t;
  out->blue = a->blue + (b->blue - a->blue) * t;
  out->alpha = 1;
}

static void
update_colors (BlTraceTimeline *self)
{
  static const char *fallback[N_PALETTE] = {
    "#f6b26b", "#93c47d", "#6fa8dc", "#e69138", "#c27ba0", "#76a5af",
    "#ffd966", "#8e7cc3", "#e06666", "#a4c2f4", "#b6d7a8", "#f9cb9c",
  };
  static const char *counters[G_N_ELEMENTS (((BlTraceTimeline *) NULL)->counter_colors)] = {
    "blue_3", "green_4", "orange_3", "purple_3", "red_3",
  };
  static const char *counter_fallback[G_N_ELEMENTS (counters)] = {
    "#3584e4", "#2ec27e", "#ff7800", "#9141ac", "#e01b24",
  };
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));

  gtk_style_context_get_color (context, &self->fg);
  self->fg.alpha = 1;
  if (!gtk_style_context_lookup_color (context, "window_bg_color", &self->bg))
    self->bg = luminance (&self->fg) > 0.5
      ? (GdkRGBA) { 0.14, 0.14, 0.14, 1 }
      : (GdkRGBA) { 1, 1, 1, 1 };
  self->bg.alpha = 1;
  if (!gtk_style_context_lookup_color (context, "accent_bg_color", &self->accent))
    gdk_rgba_parse (&self->accent, "#3584e4");
  if (!gtk_style_context_lookup_color (context, "warning_color", &self->marker))
    gdk_rgba_parse (&self->marker, "#c64600");
  self->marker.alpha = 1;

  for (guint i = 0; i < N_PALETTE; i++)
    {
      char name[32];

      g_snprintf (name, sizeof name, "bl_flame_%u", i);
      if (!gtk_style_context_lookup_color (context, name, &self->palette[i]))
        gdk_rgba_parse (&self->palette[i], fallback[i]);
      self->palette[i].alpha = 1;
    }
  for (guint i = 0; i < G_N_ELEMENTS (counters); i++)
    {
      if (!gtk_style_context_lookup_color (context, counters[i], &self->counter_colors[i]))
        gdk_rgba_parse (&self->counter_colors[i], counter_fallback[i]);
      self->counter_colors[i].alpha = 1;
    }
}

/* the flame graph's colour for the frame; else its rule for a frame
 * without a file: hue from the thread, a small shade step from the name */
static GdkRGBA
span_color (BlTraceTimeline *self,
            guint            thread,
            const BlSpan    *span)
{
  const BlNode *node = bl_profile_get_node (self->profile, span->node);
  guint hue, shade_step;
  double shade;
  GdkRGBA color;

  if (self->color_graph != NULL &&
      bl_flame_graph_get_profile (self->color_graph) == self->profile &&
      bl_flame_graph_get_node_color (self->color_graph, span->node, &color))
    return color;

  hue = g_str_hash (bl_profile_get_thread_name (self->profile, thread)) % N_PALETTE;
  shade_step = (g_str_hash (bl_profile_get_string (self->profile, node->name)) >> 16) % N_SHADES;
  color = self->palette[hue];
  shade = ((int) shade_step - N_SHADES / 2) * 0.04;
  if (shade > 0)
    mix (&color, &color, &(GdkRGBA) { 1, 1, 1, 1 }, shade);
  else if (shade < 0)
    mix (&color, &color, &(GdkRGBA) { 0, 0, 0, 1 }, -shade);

  return color;
}

static void
update_text (BlTraceTimeline *self)
{
  PangoRectangle logical;

  g_clear_object (&self->layout);
  self->layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), "Ag");
  pango_layout_set_ellipsize (self->layout, PANGO_ELLIPSIZE_END);
  pango_layout_get_pixel_extents (self->layout, NULL, &logical);
  self->row_height = MAX (logical.height + 6, 14);
  self->ruler_height = self->row_height + 6;
}

/* ---- model -------------------------------------------------------------- */

static void
lane_free (gpointer data)
{
  Lane *lane = data;

  g_clear_pointer (&lane->rows, g_ptr_array_unref);
  g_clear_pointer (&lane->pyramid, g_ptr_array_unref);
  g_clear_pointer (&lane->instants, g_array_unref);
  g_free (lane);
}

static Lane *
lane_new (LaneKind kind,
          guint    index)
{
  Lane *lane = g_new0 (Lane, 1);

  lane->kind = kind;
  lane->index = index;
  lane->expanded = TRUE;
  lane->instants = g_array_new (FALSE, FALSE, sizeof (guint));

  return lane;
}

static const BlPerfettoCounter *
lane_counter (BlTraceTimeline *self,
              const Lane      *lane)
{
  return g_ptr_array_index (self->trace->counters, lane->index);
}

static double
lane_body_height (BlTraceTimeline *self,
                  const Lane      *lane)
{
  if (!lane->expanded)
    return 0;
  switch (lane->kind)
    {
    case LANE_THREAD:
      return (double) lane->rows->len * self->row_height;
    case LANE_COUNTER:
      return COUNTER_H;
    case LANE_MARKERS:
    default:
      return 0;
    }
}

static void
relayout (BlTraceTimeline *self)
{
  double y = 0;

  for (guint i = 0; i < self->lanes->len; i++)
    {
      Lane *lane = g_ptr_array_index (self->lanes, i);

      lane->y = y;
      y += self->row_height + lane_body_height (self, lane) + LANE_GAP;
    }
  self->content = y;
}

static int
compare_span_start (gconstpointer a,
                    gconstpointer b,
                    gpointer      user_data)
{
  const BlSpan *spans = user_data;
  guint64 sa = spans[*(const guint32 *) a].start;
  guint64 sb = spans[*(const guint32 *) b].start;

  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

static MinMax
point_min_max (GArray *points,
               guint   i)
{
  double v = g_array_index (points, BlPerfettoPoint, i).value;

  /* a value that is not finite draws nothing */
  return isfinite (v) ? (MinMax) { v, v } : (MinMax) { INFINITY, -INFINITY };
}

/* The least and greatest value of every run of 2^L points, level by level,
 * so that a pixel column over many points costs a few lookups. */
static void
build_pyramid (Lane                    *lane,
               const BlPerfettoCounter *counter)
{
  GArray *below = NULL;
  guint n = counter->points->len;

  lane->pyramid = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  /* level 0 is the points themselves */
  g_ptr_array_add (lane->pyramid, g_array_new (FALSE, FALSE, sizeof (MinMax)));
  for (guint level = 1; (n >> level) > 0; level++)
    {
      GArray *here = g_array_sized_new (FALSE, FALSE, sizeof (MinMax), n >> level);

      for (guint i = 0; i < (n >> level); i++)
        {
          MinMax a, b, m;

          if (below == NULL)
            {
              a = point_min_max (counter->points, 2 * i);
              b = point_min_max (counter->points, 2 * i + 1);
            }
          else
            {
              a = g_array_index (below, MinMax, 2 * i);
              b = g_array_index (below, MinMax, 2 * i + 1);
            }
          m.min = MIN (a.min, b.min);
          m.max = MAX (a.max, b.max);
          g_array_append_val (here, m);
        }
      g_ptr_array_add (lane->pyramid, here);
      below = here;
    }
}

/* The least and greatest value of points [a, b). */
static MinMax
range_min_max (const Lane              *lane,
               const BlPerfettoCounter *counter,
               guint                    a,
               guint                    b)
{
  MinMax m = { INFINITY, -INFINITY };

  while (a < b)
    {
      guint level = 0;
      MinMax part;

      /* the largest aligned block starting at a that fits */
      while (level + 1 < lane->pyramid->len &&
             (a & ((1u << (level + 1)) - 1)) == 0 &&
             a + (1u << (level + 1)) <= b)
        level++;
      if (level == 0)
        part = point_min_max (counter->points, a);
      else
        part = g_array_index ((GArray *) g_ptr_array_index (lane->pyramid, level), MinMax,
                              a >> level);
      m.min = MIN (m.min, part.min);
      m.max = MAX (m.max, part.max);
      a += 1u << level;
    }

  return m;
}

static void
rebuild (BlTraceTimeline *self)
{
  guint64 t0 = G_MAXUINT64, t1 = 0;
  Lane *markers = NULL;

  g_ptr_array_set_size (self->lanes, 0);
  g_clear_pointer (&self->thread_lane, g_free);
  g_hash_table_remove_all (self->annotations);
  self->n_threads = 0;
  self->trace = NULL;
  self->t0 = 0;
  self->t1 = 1;
  self->has_range = FALSE;
  self->has_slice = FALSE;

  if (self->profile == NULL)
    {
      relayout (self);
      return;
    }

  self->trace = bl_perfetto_get_trace (self->profile);
  self->n_threads = bl_profile_get_n_threads (self->profile);
  self->thread_lane = g_new (guint, MAX (self->n_threads, 1));

  if (self->trace != NULL)
    for (guint i = 0; i < self->trace->instants->len; i++)
      {
        const BlPerfettoInstant *instant = &g_array_index (self->trace->instants,
                                                           BlPerfettoInstant, i);

        BlSpanList list = { 0 };

        if (instant->thread < self->n_threads)
          bl_profile_get_spans (self->profile, instant->thread, &list);
        if (list.n_spans == 0)
          {
            if (markers == NULL)
              {
                markers = lane_new (LANE_MARKERS, 0);
                g_ptr_array_add (self->lanes, markers);
              }
            g_array_append_val (markers->instants, i);
          }
        t0 = MIN (t0, instant->ts);
        t1 = MAX (t1, instant->ts);
      }

  for (guint t = 0; t < self->n_threads; t++)
    {
      Lane *lane;
      gboolean sorted = TRUE;
      guint64 start, end;

      self->thread_lane[t] = G_MAXUINT;
      lane = lane_new (LANE_THREAD, t);
      if (!bl_profile_get_spans (self->profile, t, &lane->list) ||
          lane->list.n_spans >= G_MAXINT32)
        {
          lane_free (lane);
          continue;
        }
      lane->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
      for (gsize i = 0; i < lane->list.n_spans; i++)
        {
          guint depth = bl_span_list_get_depth (&lane->list, i);
          guint32 index = (guint32) i;

          if (depth == 0)
            continue;
          while (lane->rows->len < depth)
            g_ptr_array_add (lane->rows, g_array_new (FALSE, FALSE, sizeof (guint32)));
          g_array_append_val (g_ptr_array_index (lane->rows, depth - 1), index);
          if (i > 0 && lane->list.spans[i].start < lane->list.spans[i - 1].start)
            sorted = FALSE;
        }
      /* tracks of the same name share a thread: their spans come one track
       * after the other */
      if (!sorted)
        for (guint r = 0; r < lane->rows->len; r++)
          {
            GArray *row = g_ptr_array_index (lane->rows, r);

            g_qsort_with_data (row->data, (gint) row->len, sizeof (guint32),
                               compare_span_start, (gpointer) lane->list.spans);
          }
      if (bl_profile_get_time_range (self->profile, t, &start, &end))
        {
          t0 = MIN (t0, start);
          t1 = MAX (t1, end);
        }
      self->thread_lane[t] = self->lanes->len;
      g_ptr_array_add (self->lanes, lane);
    }

  if (self->trace != NULL)
    {
      for (guint i = 0; i < self->trace->instants->len; i++)
        {
          const BlPerfettoInstant *instant = &g_array_index (self->trace->instants,
                                                             BlPerfettoInstant, i);
          Lane *lane;

          /* the others are on the markers lane already */
          if (instant->thread >= self->n_threads || self->thread_lane[instant->thread] == G_MAXUINT)
            continue;
          lane = g_ptr_array_index (self->lanes, self->thread_lane[instant->thread]);
          g_array_append_val (lane->instants, i);
        }

      for (guint c = 0; c < self->trace->counters->len; c++)
        {
          const BlPerfettoCounter *counter = g_ptr_array_index (self->trace->counters, c);
          Lane *lane;

          if (counter->points->len == 0)
            continue;
          lane = lane_new (LANE_COUNTER, c);
          lane->vmin = 0;
          lane->vmax = 0;
          for (guint i = 0; i < counter->points->len; i++)
            {
              const BlPerfettoPoint *point = &g_array_index (counter->points, BlPerfettoPoint, i);

              if (isfinite (point->value))
                {
                  lane->vmin = MIN (lane->vmin, point->value);
                  lane->vmax = MAX (lane->vmax, point->value);
                }
              t0 = MIN (t0, point->ts);
              t1 = MAX (t1, point->ts);
            }
          if (lane->vmax <= lane->vmin)
            lane->vmax = lane->vmin + 1;
          build_pyramid (lane, counter);
          g_ptr_array_add (self->lanes, lane);
        }

      for (guint i = 0; i < self->trace->annotations->len; i++)
        {
          const BlPerfettoAnnotation *a = g_ptr_array_index (self->trace->annotations, i);

          g_hash_table_insert (self->annotations,
                               GSIZE_TO_POINTER (((gsize) a->thread << 32) | a->span), a->text);
        }
    }

  if (t0 <= t1)
    {
      self->t0 = (double) t0;
      self->t1 = MAX ((double) t1, self->t0 + 1);
    }
  if (self->extent_end > self->extent_start)
    {
      self->t0 = t0 <= t1 ? MIN (self->t0, self->extent_start) : self->extent_start;
      self->t1 = t0 <= t1 ? MAX (self->t1, self->extent_end) : self->extent_end;
    }
  self->v0 = self->t0;
  self->v1 = self->t1;
  self->y_offset = 0;
  relayout (self);
}

/* ---- geometry ----------------------------------------------------------- */

static double
scale (BlTraceTimeline *self)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self));

  return w > 0 && self->v1 > self->v0 ? w / (self->v1 - self->v0) : 0;
}

static void
clamp_view (BlTraceTimeline *self)
{
  double range = self->t1 - self->t0;
  double width = self->v1 - self->v0;
  double max_y;

  width = CLAMP (width, MIN (MIN_WINDOW, range), range);
  if (self->v0 < self->t0)
    self->v0 = self->t0;
  if (self->v0 + width > self->t1)
    self->v0 = self->t1 - width;
  self->v1 = self->v0 + width;

  max_y = MAX (self->content + self->ruler_height - gtk_widget_get_height (GTK_WIDGET (self)), 0);
  self->y_offset = CLAMP (self->y_offset, 0, max_y);
}

static void
view_changed (BlTraceTimeline *self)
{
  clamp_view (self);
  configure_adjustments (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static double
lane_top (BlTraceTimeline *self,
          const Lane      *lane)
{
  return self->ruler_height + lane->y - self->y_offset;
}

static double
row_top (BlTraceTimeline *self,
         const Lane      *lane,
         guint            depth)
{
  return lane_top (self, lane) + self->row_height + (double) (depth - 1) * self->row_height;
}

/* The first span of @row whose end is after @t. */
static guint
row_first_after (const Lane *lane,
                 GArray     *row,
                 double      t)
{
  guint lo = 0, hi = row->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if ((double) bl_span_list_get_end (&lane->list, g_array_index (row, guint32, mid)) <= t)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/* The first instant of @lane at or after @t. */
static guint
instant_first_after (BlTraceTimeline *self,
                     const Lane      *lane,
                     double           t)
{
  guint lo = 0, hi = lane->instants->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      guint index = g_array_index (lane->instants, guint, mid);

      if ((double) g_array_index (self->trace->instants, BlPerfettoInstant, index).ts < t)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/* The last point of @counter at or before @t, or -1. */
static gssize
point_at (const BlPerfettoCounter *counter,
          double                   t)
{
  guint lo = 0, hi = counter->points->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if ((double) g_array_index (counter->points, BlPerfettoPoint, mid).ts <= t)
        lo = mid + 1;
      else
        hi = mid;
    }

  return (gssize) lo - 1;
}

/* The last point of @counter before @t, or -1. */
static gssize
point_before (const BlPerfettoCounter *counter,
              double                   t)
{
  guint lo = 0, hi = counter->points->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if ((double) g_array_index (counter->points, BlPerfettoPoint, mid).ts < t)
        lo = mid + 1;
      else
        hi = mid;
    }

  return (gssize) lo - 1;
}

static double
counter_y (BlTraceTimeline *self,
           const Lane      *lane,
           double           value)
{
  double top = lane_top (self, lane) + self->row_height + 4;
  double height = COUNTER_H - 6;

  return top + height * (1 - (value - lane->vmin) / (lane->vmax - lane->vmin));
}

static void
span_rect (BlTraceTimeline *self,
           const Lane      *lane,
           gsize            index,
           graphene_rect_t *rect)
{
  double s = scale (self);
  double x0 = ((double) lane->list.spans[index].start - self->v0) * s;
  double x1 = ((double) bl_span_list_get_end (&lane->list, index) - self->v0) * s;

  graphene_rect_init (rect, x0, row_top (self, lane, bl_span_list_get_depth (&lane->list, index)),
                      x1 - x0, self->row_height - 1);
}

/* ---- text --------------------------------------------------------------- */

static char *
format_time (BlTraceTimeline *self,
             double           t)
{
  return bl_profile_format_value (self->profile, BL_METRIC_TIME_NS,
                                  (guint64) llround (MAX (t, 0)));
}

static char *
format_value (double      value,
              const char *unit)
{
  static const struct { double scale; const char *suffix; } big[] = {
    { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e4, "k" }, { 0, "" },
  };
  char buf[G_ASCII_DTOSTR_BUF_SIZE + 4];
  guint i = 0;

  /* large values in three digits with an SI prefix: 53.9M, not 53924805 */
  while (big[i].scale > 0 && !(fabs (value) >= big[i].scale))
    i++;
  if (big[i].scale > 0)
    g_snprintf (buf, sizeof buf, "%.3g%s", value / big[i].scale, big[i].suffix);
  else if (value == floor (value))
    g_snprintf (buf, sizeof buf, "%.0f", value);
  else
    g_snprintf (buf, sizeof buf, "%.3g", value);

  if (unit != NULL && *unit != '\0')
    return g_strdup_printf ("%s %s", buf, unit);
  return g_strdup (buf);
}

static const char *
lane_title (BlTraceTimeline *self,
            const Lane      *lane)
{
  switch (lane->kind)
    {
    case LANE_THREAD:
      return bl_profile_get_thread_name (self->profile, lane->index);
    case LANE_COUNTER:
      return lane_counter (self, lane)->name;
    case LANE_MARKERS:
    default:
      return _("Markers");
    }
}

static const char *
thread_title (BlTraceTimeline *self,
              guint            thread)
{
  if (thread >= self->n_threads)
    return _("Global");
  return bl_profile_get_thread_name (self->profile, thread);
}

static guint64
span_self (const Lane *lane,
           guint32     index)
{
  const BlSpanList *list = &lane->list;
  const BlSpan *span = &list->spans[index];
  guint64 duration = bl_span_list_get_duration (list, index);
  guint64 end = span->start + duration;
  guint32 depth = bl_span_list_get_depth (list, index);
  guint64 children = 0;

  /* the direct children follow it, until something starts after its end */
  for (gsize j = (gsize) index + 1; j < list->n_spans && list->spans[j].start < end; j++)
    if (bl_span_list_get_depth (list, j) == depth + 1 && list->spans[j].start >= span->start)
      children += MIN (bl_span_list_get_end (list, j), end) - list->spans[j].start;

  return duration > children ? duration - children : 0;
}

static Lane *
thread_lane (BlTraceTimeline *self,
             guint            thread)
{
  if (thread >= self->n_threads || self->thread_lane[thread] == G_MAXUINT)
    return NULL;
  return g_ptr_array_index (self->lanes, self->thread_lane[thread]);
}

static const BlSpan *
get_span (BlTraceTimeline *self,
          guint            thread,
          guint32          index)
{
  Lane *lane = thread_lane (self, thread);

  if (lane == NULL || index >= lane->list.n_spans)
    return NULL;
  return &lane->list.spans[index];
}

static const char *
span_name (BlTraceTimeline *self,
           const BlSpan    *span)
{
  return bl_profile_get_node_name (self->profile, span->node);
}

static char *
dup_slice_text (BlTraceTimeline *self,
                guint            thread,
                guint32          index,
                gboolean         with_flows)
{
  Lane *lane = thread_lane (self, thread);
  const BlSpan *span = get_span (self, thread, index);
  g_autofree char *start = NULL;
  g_autofree char *duration = NULL;
  g_autofree char *self_time = NULL;
  const char *annotations;
  GString *text;

  if (span == NULL)
    return NULL;

  start = format_time (self, (double) span->start - self->t0);
  duration = format_time (self, (double) bl_span_list_get_duration (&lane->list, index));
  self_time = format_time (self, (double) span_self (lane, index));
  text = g_string_new (span_name (self, span));
  g_string_append_c (text, '\n');
  /* Translators: details of a trace slice; %s is a time, "1.2 ms" */
  g_string_append_printf (text, _("Start: %s"), start);
  g_string_append_c (text, '\n');
  g_string_append_printf (text, _("Duration: %s"), duration);
  g_string_append_c (text, '\n');
  g_string_append_printf (text, _("Self: %s"), self_time);
  g_string_append_c (text, '\n');
  /* Translators: the track (thread) a trace slice is on */
  g_string_append_printf (text, _("Track: %s"), thread_title (self, thread));

  annotations = g_hash_table_lookup (self->annotations,
                                     GSIZE_TO_POINTER (((gsize) thread << 32) | index));
  if (annotations != NULL)
    {
      g_auto (GStrv) parts = g_strsplit (annotations, ", ", -1);

      g_string_append_c (text, '\n');
      g_string_append (text, _("Arguments:"));
      for (guint i = 0; parts[i] != NULL; i++)
        g_string_append_printf (text, "\n  %s", parts[i]);
    }

  if (with_flows && self->trace != NULL)
    for (guint i = 0; i < self->trace->flows->len; i++)
      {
        const BlPerfettoFlow *flow = &g_array_index (self->trace->flows, BlPerfettoFlow, i);
        const BlSpan *other;

        if (flow->from_thread == thread && flow->from_span == index &&
            (other = get_span (self, flow->to_thread, flow->to_span)) != NULL)
          {
            g_string_append_c (text, '\n');
            /* Translators: a flow arrow from this slice to another one: slice name, track */
            g_string_append_printf (text, _("Flow to: %s (%s)"), span_name (self, other),
                                    thread_title (self, flow->to_thread));
          }
        if (flow->to_thread == thread && flow->to_span == index &&
            (other = get_span (self, flow->from_thread, flow->from_span)) != NULL)
          {
            g_string_append_c (text, '\n');
            /* Translators: a flow arrow into this slice from another one: slice name, track */
            g_string_append_printf (text, _("Flow from: %s (%s)"), span_name (self, other),
                                    thread_title (self, flow->from_thread));
          }
      }

  return g_string_free (text, FALSE);
}

/* ---- drawing ------------------------------------------------------------ */

static void
append_text (BlTraceTimeline *self,
             GtkSnapshot     *snapshot,
             const char      *text,
             double           x,
             double           y,
             double           max_width,
             const GdkRGBA   *color)
{
  pango_layout_set_text (self->layout, text, -1);
  pango_layout_set_width (self->layout, max_width > 0 ? (int) (max_width * PANGO_SCALE) : -1);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, self->layout, color);
  gtk_snapshot_restore (snapshot);
}

static double
tick_step (double raw)
{
  double step = pow (10, floor (log10 (MAX (raw, 1e-9))));

  if (step * 2 >= raw)
    step *= 2;
  else if (step * 5 >= raw)
    step *= 5;
  else
    step *= 10;
  if (step * 2 < raw)
    step *= 2;

  return MAX (step, 1.0);
}

/* The ruler's @i-th tick from the left: its time from the ruler's zero
 * (@t) and its x; FALSE past the last. */
static gboolean
ruler_tick (BlTraceTimeline *self,
            int              width,
            guint            i,
            double          *t,
            double          *x)
{
  double s = scale (self);
  double zero = isnan (self->ruler_origin) ? self->t0 : self->ruler_origin;
  double step;

  if (isnan (self->ruler_origin))
    step = tick_step (TICK_PX / s);
  else
    step = (double) bl_time_axis_tick_step ((self->v1 - self->v0) / 1e6, MAX (width, 1)) * 1e6;
  *t = (ceil ((self->v0 - zero) / step) + i) * step;
  if (zero + *t > self->v1)
    return FALSE;
  *x = floor ((zero + *t - self->v0) * s);

  return TRUE;
}

static char *
ruler_text (BlTraceTimeline *self,
            double           t)
{
  if (isnan (self->ruler_origin))
    return format_time (self, t);
  return bl_time_axis_format_span ((gint64) llround (t / 1e6));
}

/* What the ruler says at its right end: how much time the view shows. */
static char *
ruler_shown (BlTraceTimeline *self)
{
  g_autofree char *span_text = format_time (self, self->v1 - self->v0);

  /* Translators: the trace timeline's ruler: how much time the view shows */
  return g_strdup_printf (_("%s shown"), span_text);
}

/* The label of the ruler's @i-th tick and where it starts; NULL past the
 * last label (one that would run into the span shown is not drawn). */
static char *
ruler_label (BlTraceTimeline *self,
             int              width,
             guint            i,
             double          *x)
{
  g_autofree char *shown = ruler_shown (self);
  g_autofree char *label = NULL;
  int span_w, label_w;
  double t, tick_x;

  if (!ruler_tick (self, width, i, &t, &tick_x))
    return NULL;
  pango_layout_set_width (self->layout, -1);
  pango_layout_set_text (self->layout, shown, -1);
  pango_layout_get_pixel_size (self->layout, &span_w, NULL);
  label = ruler_text (self, t);
  pango_layout_set_text (self->layout, label, -1);
  pango_layout_get_pixel_size (self->layout, &label_w, NULL);
  if (tick_x + 3 + label_w > width - span_w - 12)
    return NULL;
  *x = tick_x + 3;

  return g_steal_pointer (&label);
}

static void
snapshot_ruler (BlTraceTimeline *self,
                GtkSnapshot     *snapshot,
                int              width)
{
  g_autofree char *shown = ruler_shown (self);
  GdkRGBA dim = self->fg;
  double t, x;
  int span_w, text_h;
  cairo_t *cr;

  dim.alpha = 0.55;
  pango_layout_set_width (self->layout, -1);
  pango_layout_set_text (self->layout, shown, -1);
  pango_layout_get_pixel_size (self->layout, &span_w, &text_h);

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, self->ruler_height));
  gdk_cairo_set_source_rgba (cr, &self->bg);
  cairo_paint (cr);
  gdk_cairo_set_source_rgba (cr, &dim);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, 0, self->ruler_height - 0.5);
  cairo_line_to (cr, width, self->ruler_height - 0.5);
  for (guint i = 0; ruler_tick (self, width, i, &t, &x); i++)
    {
      cairo_move_to (cr, x + 0.5, self->ruler_height - 6);
      cairo_line_to (cr, x + 0.5, self->ruler_height);
    }
  cairo_stroke (cr);
  cairo_destroy (cr);

  for (guint i = 0;; i++)
    {
      g_autofree char *label = ruler_label (self, width, i, &x);

      if (label == NULL)
        break;
      append_text (self, snapshot, label, x, (self->ruler_height - 6 - text_h) / 2.0, -1, &dim);
    }

  append_text (self, snapshot, shown, width - span_w - 6,
               (self->ruler_height - 6 - text_h) / 2.0, -1, &self->fg);
}

static void
snapshot_header (BlTraceTimeline *self,
                 GtkSnapshot     *snapshot,
                 const Lane      *lane,
                 int              width)
{
  double y = lane_top (self, lane);
  GdkRGBA strip = self->fg;
  g_autofree char *title = NULL;
  int text_h;

  strip.alpha = 0.06;
  gtk_snapshot_append_color (snapshot, &strip,
                             &GRAPHENE_RECT_INIT (0, y, width, self->row_height));

  if (lane->kind == LANE_COUNTER)
    {
      const BlPerfettoCounter *counter = lane_counter (self, lane);
      g_autofree char *max = format_value (lane->vmax, counter->unit);

      /* Translators: a counter track's header: its name, then its largest value */
      title = g_strdup_printf (_("%s (up to %s)"), counter->name, max);
    }
  else
    title = g_strdup (lane_title (self, lane));

  /* instants: a small diamond each, one per pixel column at most */
  if (lane->instants->len > 0)
    {
      double s = scale (self);
      cairo_t *cr = gtk_snapshot_append_cairo (snapshot,
                                               &GRAPHENE_RECT_INIT (0, y, width, self->row_height));
      double mid = y + self->row_height / 2.0;

      gdk_cairo_set_source_rgba (cr, &self->marker);
      for (guint k = instant_first_after (self, lane, self->v0 - MARKER_PX / s);
           k < lane->instants->len; k++)
        {
          guint index = g_array_index (lane->instants, guint, k);
          double t = (double) g_array_index (self->trace->instants, BlPerfettoInstant, index).ts;
          double x = (t - self->v0) * s;

          guint next;

          if (x > width + MARKER_PX)
            break;
          cairo_move_to (cr, x, mid - MARKER_PX);
          cairo_line_to (cr, x + MARKER_PX, mid);
          cairo_line_to (cr, x, mid + MARKER_PX);
          cairo_line_to (cr, x - MARKER_PX, mid);
          cairo_close_path (cr);
          /* one per pixel column: on to the first instant past this one's */
          next = instant_first_after (self, lane, self->v0 + (floor (x) + 1) / s);
          if (next > k + 1)
            k = next - 1;
        }
      cairo_fill (cr);
      cairo_destroy (cr);
    }

  /* the expander, then the name, over the markers on a patch of background */
  {
    g_autofree char *text = g_strdup_printf ("%s %s", lane->expanded ? "▾" : "▸", title);
    GdkRGBA patch = self->bg;
    int text_w;

    pango_layout_set_width (self->layout, -1);
    pango_layout_set_text (self->layout, text, -1);
    pango_layout_get_pixel_size (self->layout, &text_w, &text_h);
    patch.alpha = 0.85;
    gtk_snapshot_append_color (snapshot, &patch,
                               &GRAPHENE_RECT_INIT (0, y + 2,
                                                    MIN (text_w + 2 * LABEL_PAD, width),
                                                    self->row_height - 4));
    append_text (self, snapshot, text, LABEL_PAD, y + (self->row_height - text_h) / 2.0,
                 MAX (width - 2 * LABEL_PAD, 1), &self->fg);
  }
}

static void
snapshot_slices (BlTraceTimeline *self,
                 GtkSnapshot     *snapshot,
                 const Lane      *lane,
                 int              width,
                 int              height)
{
  double s = scale (self);

  for (guint r = 0; r < lane->rows->len; r++)
    {
      GArray *row = g_ptr_array_index (lane->rows, r);
      double y = row_top (self, lane, r + 1);

      if (y + self->row_height < self->ruler_height || y > height)
        continue;

      for (guint k = row_first_after (lane, row, self->v0); k < row->len; k++)
        {
          guint32 index = g_array_index (row, guint32, k);
          const BlSpan *span = &lane->list.spans[index];
          graphene_rect_t rect;
          GdkRGBA color;
          double x0, x1;

          if ((double) span->start >= self->v1)
            break;

          span_rect (self, lane, index, &rect);
          if (rect.size.width < MIN_BAR_PX)
            {
              /* calls too short to see: one sliver for this pixel column,
               * then on to the first span ending past it */
              double column = floor (MAX (rect.origin.x, 0));
              guint next;

              color = span_color (self, lane->index, span);
              gtk_snapshot_append_color (snapshot, &color,
                                         &GRAPHENE_RECT_INIT (column, rect.origin.y,
                                                              1, rect.size.height));
              next = row_first_after (lane, row, self->v0 + (column + 1) / s);
              if (next > k + 1)
                k = next - 1;
              continue;
            }
          x0 = MAX (rect.origin.x, 0);
          x1 = MIN (rect.origin.x + rect.size.width, width);
          rect.origin.x = x0;
          rect.size.width = MAX (x1 - x0 - (x1 - x0 > 2 ? 1 : 0), MIN_BAR_PX);

          color = self->has_slice && self->slice_thread == lane->index && self->slice_span == index
            ? self->accent : span_color (self, lane->index, span);
          gtk_snapshot_append_color (snapshot, &color, &rect);

          if (rect.size.width >= MIN_LABEL_PX)
            {
              const GdkRGBA *text = fabs (luminance (&color) - luminance (&self->fg)) >=
                                    fabs (luminance (&color) - luminance (&self->bg))
                ? &self->fg : &self->bg;
              int text_h;

              pango_layout_set_text (self->layout, span_name (self, span), -1);
              pango_layout_set_width (self->layout,
                                      (int) ((rect.size.width - 2 * LABEL_PAD) * PANGO_SCALE));
              pango_layout_get_pixel_size (self->layout, NULL, &text_h);
              gtk_snapshot_save (snapshot);
              gtk_snapshot_translate (snapshot,
                                      &GRAPHENE_POINT_INIT (rect.origin.x + LABEL_PAD,
                                                            rect.origin.y +
                                                            (rect.size.height - text_h) / 2));
              gtk_snapshot_append_layout (snapshot, self->layout, text);
              gtk_snapshot_restore (snapshot);
            }
        }
    }
}

/* A counter as a step function: per pixel column the least and greatest
 * value it takes there, filled down to the baseline faintly and as an
 * envelope strongly. */
static void
snapshot_counter (BlTraceTimeline *self,
                  GtkSnapshot     *snapshot,
                  const Lane      *lane,
                  int              width)
{
  const BlPerfettoCounter *counter = lane_counter (self, lane);
  GdkRGBA color, fill;
  double top = lane_top (self, lane) + self->row_height;
  double s = scale (self);
  double base = counter_y (self, lane, CLAMP (0, lane->vmin, lane->vmax));
  g_autofree double *ys = NULL;
  gssize k;
  cairo_t *cr;

  bl_trace_timeline_get_counter_color (self, lane->index, &color);
  fill = color;
  fill.alpha = 0.25;

  ys = g_new (double, 2 * (gsize) MAX (width, 1));
  k = point_at (counter, self->v0);
  for (int x = 0; x < width; x++)
    {
      double c1 = self->v0 + (x + 1) / s;
      gssize last = point_before (counter, c1);
      MinMax m = { INFINITY, -INFINITY };

      /* the value carried into the column, and the points inside it */
      if (k >= 0 || last >= 0)
        m = range_min_max (lane, counter, (guint) MAX (k, 0), (guint) MAX (last, k) + 1);
      k = MAX (last, k);
      if (!(m.min <= m.max) || !isfinite (m.min) || !isfinite (m.max) ||
          self->v0 + x / s > self->t1)
        {
          ys[2 * x] = NAN;
          continue;
        }
      ys[2 * x] = counter_y (self, lane, m.max);
      ys[2 * x + 1] = counter_y (self, lane, m.min);
    }

  /* one path per colour: the area down to the baseline, then the envelope */
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, top, width, COUNTER_H));
  gdk_cairo_set_source_rgba (cr, &fill);
  for (int x = 0; x < width; x++)
    if (!isnan (ys[2 * x]))
      cairo_rectangle (cr, x, MIN (ys[2 * x + 1], base), 1, fabs (base - ys[2 * x + 1]));
  cairo_fill (cr);
  gdk_cairo_set_source_rgba (cr, &color);
  for (int x = 0; x < width; x++)
    if (!isnan (ys[2 * x]))
      cairo_rectangle (cr, x, ys[2 * x] - 1, 1, MAX (ys[2 * x + 1] - ys[2 * x], 0) + 2);
  cairo_fill (cr);
  cairo_destroy (cr);
}

static void
flow_point (BlTraceTimeline *self,
            guint            thread,
            guint32          index,
            gboolean         at_end,
            double          *x,
            double          *y)
{
  Lane *lane = thread_lane (self, thread);
  const BlSpan *span = &lane->list.spans[index];

  *x = ((double) (at_end ? bl_span_list_get_end (&lane->list, index) : span->start) - self->v0) *
       scale (self);
  if (lane->expanded)
    *y = row_top (self, lane, bl_span_list_get_depth (&lane->list, index)) + self->row_height / 2.0;
  else
    *y = lane_top (self, lane) + self->row_height / 2.0;
}

/* the flows into and out of the selected slice, as arrows from the end of
 * one slice to the start of the next */
static void
snapshot_flows (BlTraceTimeline *self,
                GtkSnapshot     *snapshot,
                int              width,
                int              height)
{
  cairo_t *cr = NULL;

  if (!self->has_slice || self->trace == NULL)
    return;

  for (guint i = 0; i < self->trace->flows->len; i++)
    {
      const BlPerfettoFlow *flow = &g_array_index (self->trace->flows, BlPerfettoFlow, i);
      double x0, y0, x1, y1;

      if (!((flow->from_thread == self->slice_thread && flow->from_span == self->slice_span) ||
            (flow->to_thread == self->slice_thread && flow->to_span == self->slice_span)))
        continue;
      if (get_span (self, flow->from_thread, flow->from_span) == NULL ||
          get_span (self, flow->to_thread, flow->to_span) == NULL)
        continue;

      if (cr == NULL)
        {
          cr = gtk_snapshot_append_cairo (snapshot,
                                          &GRAPHENE_RECT_INIT (0, self->ruler_height, width,
                                                               MAX (height - self->ruler_height,
                                                                    0)));
          gdk_cairo_set_source_rgba (cr, &self->fg);
          cairo_set_line_width (cr, 1.5);
        }
      flow_point (self, flow->from_thread, flow->from_span, TRUE, &x0, &y0);
      flow_point (self, flow->to_thread, flow->to_span, FALSE, &x1, &y1);
      x0 = CLAMP (x0, -1e6, 1e6);
      x1 = CLAMP (x1, -1e6, 1e6);
      cairo_move_to (cr, x0, y0);
      cairo_curve_to (cr, x0 + 30, y0, x1 - 30, y1, x1, y1);
      cairo_stroke (cr);
      /* the curve arrives horizontally: the head points right */
      cairo_move_to (cr, x1, y1);
      cairo_line_to (cr, x1 - 7, y1 - 3.5);
      cairo_line_to (cr, x1 - 7, y1 + 3.5);
      cairo_close_path (cr);
      cairo_fill (cr);
    }
  if (cr != NULL)
    cairo_destroy (cr);
}

static void
bl_trace_timeline_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  BlTraceTimeline *self = BL_TRACE_TIMELINE (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  if (self->profile == NULL || self->lanes->len == 0 || width <= 0 || scale (self) <= 0)
    return;

  gtk_snapshot_push_clip (snapshot,
                          &GRAPHENE_RECT_INIT (0, self->ruler_height,
                                               width, MAX (height - self->ruler_height, 0)));
  for (guint l = 0; l < self->lanes->len; l++)
    {
      const Lane *lane = g_ptr_array_index (self->lanes, l);
      double top = lane_top (self, lane);

      if (top + self->row_height + lane_body_height (self, lane) < self->ruler_height)
        continue;
      if (top > height)
        break;

      if (lane->expanded && lane->kind == LANE_THREAD)
        snapshot_slices (self, snapshot, lane, width, height);
      else if (lane->expanded && lane->kind == LANE_COUNTER)
        snapshot_counter (self, snapshot, lane, width);
      snapshot_header (self, snapshot, lane, width);
    }

  snapshot_flows (self, snapshot, width, height);

  if (self->has_range)
    {
      double s = scale (self);
      double x0 = ((double) self->range_from - self->v0) * s;
      double x1 = ((double) self->range_to - self->v0) * s;
      GdkRGBA shade = self->accent;

      x0 = CLAMP (x0, -1, width + 1);
      x1 = CLAMP (x1, -1, width + 1);
      shade.alpha = 0.2;
      gtk_snapshot_append_color (snapshot, &shade,
                                 &GRAPHENE_RECT_INIT (x0, self->ruler_height,
                                                      MAX (x1 - x0, 1), height));
      shade.alpha = 1;
      gtk_snapshot_append_color (snapshot, &shade,
                                 &GRAPHENE_RECT_INIT (x0, self->ruler_height, 1, height));
      gtk_snapshot_append_color (snapshot, &shade,
                                 &GRAPHENE_RECT_INIT (x1 - 1, self->ruler_height, 1, height));
    }
  gtk_snapshot_pop (snapshot);

  snapshot_ruler (self, snapshot, width);
}

static void
bl_trace_timeline_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  BlTraceTimeline *self = BL_TRACE_TIMELINE (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 100;
      *natural = 600;
    }
  else
    {
      *minimum = self->ruler_height + self->row_height;
      *natural = MAX ((int) self->content + self->ruler_height, *minimum);
    }
}

static void
bl_trace_timeline_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  BlTraceTimeline *self = BL_TRACE_TIMELINE (widget);

  clamp_view (self);
  configure_adjustments (self);
}

static void
bl_trace_timeline_css_changed (GtkWidget         *widget,
                               GtkCssStyleChange *change)
{
  BlTraceTimeline *self = BL_TRACE_TIMELINE (widget);

  GTK_WIDGET_CLASS (bl_trace_timeline_parent_class)->css_changed (widget, change);

  update_colors (self);
  update_text (self);
  relayout (self);
  gtk_widget_queue_resize (widget);
}

static gboolean
bl_trace_timeline_query_tooltip (GtkWidget  *widget,
                                 int         x,
                                 int         y,
                                 gboolean    keyboard_mode,
                                 GtkTooltip *tooltip)
{
  g_autofree char *text = bl_trace_timeline_dup_tooltip_text (BL_TRACE_TIMELINE (widget), x, y);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);

  return TRUE;
}

/* ---- adjustments -------------------------------------------------------- */

static void
configure_adjustments (BlTraceTimeline *self)
{
  int height = gtk_widget_get_height (GTK_WIDGET (self));

  self->updating_adjustments = TRUE;
  if (self->hadjustment != NULL)
    gtk_adjustment_configure (self->hadjustment, self->v0 - self->t0, 0, self->t1 - self->t0,
                              (self->v1 - self->v0) / 10, (self->v1 - self->v0) * 0.9,
                              self->v1 - self->v0);
  if (self->vadjustment != NULL)
    gtk_adjustment_configure (self->vadjustment, self->y_offset, 0,
                              MAX (self->content + self->ruler_height, height),
                              self->row_height, MAX (height - self->ruler_height, 1) * 0.9,
                              height);
  self->updating_adjustments = FALSE;
}

static void
hadjustment_changed (GtkAdjustment   *adjustment,
                     BlTraceTimeline *self)
{
  double width = self->v1 - self->v0;

  if (self->updating_adjustments)
    return;
  self->v0 = self->t0 + gtk_adjustment_get_value (adjustment);
  self->v1 = self->v0 + width;
  clamp_view (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
vadjustment_changed (GtkAdjustment   *adjustment,
                     BlTraceTimeline *self)
{
  if (self->updating_adjustments)
    return;
  self->y_offset = gtk_adjustment_get_value (adjustment);
  clamp_view (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
set_adjustment (BlTraceTimeline  *self,
                GtkAdjustment   **slot,
                GtkAdjustment    *adjustment,
                GCallback         callback)
{
  if (adjustment == *slot)
    return;
  if (*slot != NULL)
    {
      g_signal_handlers_disconnect_by_func (*slot, callback, self);
      g_clear_object (slot);
    }
  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);
  *slot = g_object_ref_sink (adjustment);
  g_signal_connect (adjustment, "value-changed", callback, self);
  configure_adjustments (self);
}

/* ---- input -------------------------------------------------------------- */

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           BlTraceTimeline          *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           BlTraceTimeline          *self)
{
  GdkModifierType state =
    gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (state & GDK_CONTROL_MASK)
    {
      if (dy != 0)
        bl_trace_timeline_zoom_at (self, self->pointer_x, pow (1.25, dy));
      return TRUE;
    }
  if ((state & GDK_SHIFT_MASK) && dy != 0)
    dx = dy, dy = 0;
  if (dx != 0)
    {
      double s = scale (self);

      if (s > 0)
        {
          double width = self->v1 - self->v0;

          self->v0 += dx * 40 / s;
          self->v1 = self->v0 + width;
          view_changed (self);
        }
      return TRUE;
    }

  /* plain vertical scrolling: the scrolled window's */
  return FALSE;
}

static void
drag_begin_cb (GtkGestureDrag  *gesture,
               double           x,
               double           y,
               BlTraceTimeline *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));

  self->drag_x = x;
  self->drag_y = y;
  self->drag_v0 = self->v0;
  self->drag_pans = button == GDK_BUTTON_MIDDLE || y < self->ruler_height;
  self->drag_selects = FALSE;
  gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
drag_update_cb (GtkGestureDrag  *gesture,
                double           dx,
                double           dy,
                BlTraceTimeline *self)
{
  double s = scale (self);

  if (s <= 0)
    return;

  if (self->drag_pans)
    {
      double width = self->v1 - self->v0;

      self->v0 = self->drag_v0 - dx / s;
      self->v1 = self->v0 + width;
      view_changed (self);
      return;
    }

  if (!self->drag_selects && fabs (dx) <= DRAG_PX)
    return;
  self->drag_selects = TRUE;
  {
    double a = bl_trace_timeline_x_to_time (self, self->drag_x);
    double b = bl_trace_timeline_x_to_time (self, self->drag_x + dx);

    a = CLAMP (a, self->t0, self->t1);
    b = CLAMP (b, self->t0, self->t1);
    bl_trace_timeline_set_range (self, (guint64) llround (MIN (a, b)),
                                 (guint64) llround (MAX (a, b)));
  }
}

static void
drag_end_cb (GtkGestureDrag  *gesture,
             double           dx,
             double           dy,
             BlTraceTimeline *self)
{
  BlTraceHit hit;

  if (self->drag_pans || self->drag_selects)
    return;
  if (fabs (dx) > DRAG_PX || fabs (dy) > DRAG_PX)
    return;

  /* a click */
  if (!bl_trace_timeline_hit_test (self, self->drag_x, self->drag_y, &hit))
    {
      bl_trace_timeline_unselect_slice (self);
      return;
    }
  switch (hit.kind)
    {
    case BL_TRACE_HIT_HEADER:
      bl_trace_timeline_set_lane_expanded (self, hit.lane,
                                           !bl_trace_timeline_get_lane_expanded (self, hit.lane));
      break;
    case BL_TRACE_HIT_SLICE:
      bl_trace_timeline_select_slice (self, hit.thread, hit.span);
      break;
    case BL_TRACE_HIT_INSTANT:
    case BL_TRACE_HIT_COUNTER:
    case BL_TRACE_HIT_NONE:
    default:
      bl_trace_timeline_unselect_slice (self);
      break;
    }
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  bl_trace_timeline_zoom_at (BL_TRACE_TIMELINE (widget), gtk_widget_get_width (widget) / 2.0,
                             g_variant_get_double (parameter));
}

static void
pan_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  BlTraceTimeline *self = BL_TRACE_TIMELINE (widget);
  double width = self->v1 - self->v0;

  self->v0 += g_variant_get_double (parameter) * width;
  self->v1 = self->v0 + width;
  view_changed (self);
}

static void
reset_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  bl_trace_timeline_reset_zoom (BL_TRACE_TIMELINE (widget));
}

static void
clear_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  BlTraceTimeline *self = BL_TRACE_TIMELINE (widget);

  if (self->has_range)
    bl_trace_timeline_clear_range (self);
  else
    bl_trace_timeline_unselect_slice (self);
}

/* ---- object ------------------------------------------------------------- */

static void
bl_trace_timeline_dispose (GObject *object)
{
  BlTraceTimeline *self = BL_TRACE_TIMELINE (object);

  g_ptr_array_set_size (self->lanes, 0);
  g_hash_table_remove_all (self->annotations);
  self->trace = NULL;
  g_clear_object (&self->profile);
  if (self->color_graph != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->color_graph), (gpointer *) &self->color_graph);
  self->color_graph = NULL;
  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->hadjustment, hadjustment_changed, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->vadjustment, vadjustment_changed, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);

  G_OBJECT_CLASS (bl_trace_timeline_parent_class)->dispose (object);
}

static void
bl_trace_timeline_finalize (GObject *object)
{
  BlTraceTimeline *self = BL_TRACE_TIMELINE (object);

  g_ptr_array_unref (self->lanes);
  g_hash_table_unref (self->annotations);
  g_free (self->thread_lane);
  g_clear_object (&self->layout);

  G_OBJECT_CLASS (bl_trace_timeline_parent_class)->finalize (object);
}

static void
bl_trace_timeline_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  BlTraceTimeline *self = BL_TRACE_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      g_value_set_object (value, self->profile);
      break;
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_trace_timeline_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  BlTraceTimeline *self = BL_TRACE_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      bl_trace_timeline_set_profile (self, g_value_get_object (value));
      break;
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value),
                      G_CALLBACK (hadjustment_changed));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value),
                      G_CALLBACK (vadjustment_changed));
      break;
    case PROP_HSCROLL_POLICY:
      self->hscroll_policy = g_value_get_enum (value);
      break;
    case PROP_VSCROLL_POLICY:
      self->vscroll_policy = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_trace_timeline_class_init (BlTraceTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_trace_timeline_dispose;
  object_class->finalize = bl_trace_timeline_finalize;
  object_class->get_property = bl_trace_timeline_get_property;
  object_class->set_property = bl_trace_timeline_set_property;

  widget_class->snapshot = bl_trace_timeline_snapshot;
  widget_class->measure = bl_trace_timeline_measure;
  widget_class->size_allocate = bl_trace_timeline_size_allocate;
  widget_class->css_changed = bl_trace_timeline_css_changed;
  widget_class->query_tooltip = bl_trace_timeline_query_tooltip;

  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL, BL_TYPE_PROFILE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  /**
   * BlTraceTimeline::range-changed:
   *
   * The selected range was set or cleared.
   */
  signals[RANGE_CHANGED] = g_signal_new ("range-changed", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 0);
  /**
   * BlTraceTimeline::slice-selected:
   *
   * A slice was selected, or the selection dropped.
   */
  signals[SLICE_SELECTED] = g_signal_new ("slice-selected", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 0);

  gtk_widget_class_install_action (widget_class, "timeline.zoom", "d", zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan", "d", pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.reset-zoom", NULL, reset_action);
  gtk_widget_class_install_action (widget_class, "timeline.clear", NULL, clear_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "timeline.zoom",
                                       "d", 0.8);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "timeline.zoom",
                                       "d", 0.8);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "timeline.zoom",
                                       "d", 0.8);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "timeline.zoom",
                                       "d", 1.25);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "timeline.zoom",
                                       "d", 1.25);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "timeline.pan", "d", -0.1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "timeline.pan", "d", 0.1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "timeline.reset-zoom",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "timeline.clear", NULL);

  gtk_widget_class_set_css_name (widget_class, "bltracetimeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
bl_trace_timeline_init (BlTraceTimeline *self)
{
  GtkEventController *motion, *scroll;
  GtkGesture *drag;

  self->lanes = g_ptr_array_new_with_free_func (lane_free);
  self->annotations = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->t1 = 1;
  self->v1 = 1;
  self->ruler_origin = NAN;

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  update_colors (self);
  update_text (self);

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES |
                                            GTK_EVENT_CONTROLLER_SCROLL_DISCRETE);
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Trace timeline"),
                                  -1);
}

/* ---- public ------------------------------------------------------------- */

GtkWidget *
bl_trace_timeline_new (void)
{
  return g_object_new (BL_TYPE_TRACE_TIMELINE, NULL);
}

BlProfile *
bl_trace_timeline_get_profile (BlTraceTimeline *self)
{
  g_return_val_if_fail (BL_IS_TRACE_TIMELINE (self), NULL);

  return self->profile;
}

void
bl_trace_timeline_set_profile (BlTraceTimeline *self,
                               BlProfile       *profile)
{
  g_return_if_fail (BL_IS_TRACE_TIMELINE (self));
  g_return_if_fail (!profile || BL_IS_PROFILE (profile));

  if (!g_set_object (&self->profile, profile))
    return;

  rebuild (self);
  {
    g_autofree char *description =
      g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u track on a time axis",
                                    "%u tracks on a time axis", self->lanes->len),
                       self->lanes->len);

    gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                    -1);
  }
  clamp_view (self);
  configure_adjustments (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
  g_signal_emit (self, signals[RANGE_CHANGED], 0);
  g_signal_emit (self, signals[SLICE_SELECTED], 0);
}

void
bl_trace_timeline_set_color_graph (BlTraceTimeline *self,
                                   BlFlameGraph    *graph)
{
  g_return_if_fail (BL_IS_TRACE_TIMELINE (self));

  if (self->color_graph == graph)
    return;
  if (self->color_graph != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->color_graph), (gpointer *) &self->color_graph);
  self->color_graph = graph;
  if (graph != NULL)
    g_object_add_weak_pointer (G_OBJECT (graph), (gpointer *) &self->color_graph);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
bl_trace_timeline_get_bounds (BlTraceTimeline *self,
                              guint64         *start,
                              guint64         *end)
{
  g_return_if_fail (BL_IS_TRACE_TIMELINE (self));

  if (start != NULL)
    *start = (guint64) self->t0;
  if (end != NULL)
    *end = (guint64) self->t1;
}

void
bl_trace_timeline_get_visible_range (BlTraceTimeline *self,
                                     double          *start,
                                     double          *end)
{
  g_return_if_fail (BL_IS_TRACE_TIMELINE (self));

  if (start != NULL)
    *start = self->v0;
  if (end != NULL)
    *end = self->v1;
}

void
bl_trace_timeline_set_visible_range (BlTraceTimeline *self,
                                     double           start,
                                     double           end)
{
  g_return_if_fail (BL_IS_TRACE_TIMELINE (self));

  if (!(end > start))
    return;
  self->v0 = start;
  self->v1 = end;
  view_changed (self);
}

/* factor < 1 zooms in, keeping the time at @x where it is */
void
bl_trace_timeline_zoom_at (BlTraceTimeline *self,
                           double           x,
                           double           factor)
{
  double s, anchor, width;

  g_return_if_fail (BL_IS_TRACE_TIMELINE (self));

  s = scale (self);
  if (s <= 0 || !(factor > 0))
    return;
  anchor = self->v0 + x / s;
  width = (self->v1 - self->v0) * factor;
  width = CLAMP (width, MIN (MIN_WINDOW, self->t1 - self->t0), self->t1 - self->t0);
  self->v0 = anchor - (x / s) * (width / (self->v1 - self->v0));
  self->v1 = self->v0 + width;
  view_changed (self);
}

void
bl_trace_timeline_reset_zoom (BlTraceTimeline *self)
{
  g_return_if_fail (BL_IS_TRACE_TIMELINE (self));

  self->v0 = self->t0;
  self->v1 = self->t1;
  view_changed (self);
}

gboolean
bl_trace_timeline_get_range (BlTraceTimeline *self,
                             guint64         *from,
                             guint64         *to)
{
  g_return_val_if_fail (BL_IS_TRACE_TIMELINE (self), FALSE);

  if (!self->has_range)
    return FALSE;
  if (from != NULL)
    *from = self->range_from;
  if (to != NULL)
    *to = self->range_to;

  return TRUE;
}

void
bl_trace_timeline_set_range (BlTraceTimeline *self,
                             guint64          from,
                             guint64          to)
{
  g_return_if_fail (BL_IS_TRACE_TIMELINE (self));

  if (from > to)
    {
      guint64 tmp = from;

      from = to;
      to = tmp;
    }
  if (from == to)
    {
      bl_trace_timeline_clear_range (self);
      return;
    }
  if (self->has_range && self->range_from == from && self->range_to == to)
    return;

  self->has_range = TRUE;
  self->range_from = from;
  self->range_to = to;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[RANGE_CHANGED], 0);
}

void
bl_trace_timeline_clear_range (BlTraceTimeline *self)
{
  g_return_if_fail (BL_IS_TRACE_TIMELINE (self));

  if (!self->has_range)
    return;
  self->has_range = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[RANGE_CHANGED], 0);
}

gboolean
bl_trace_timeline_get_selected_slice (BlTraceTimeline *self,
                                      guint           *thread,
                                      guint32         *span)
{
  g_return_val_if_fail (BL_IS_TRACE_TIMELINE (self), FALSE);

  if (!self->has_slice)
    return FALSE;
  if (thread != NULL)
    *thread = self->slice_thread;
  if (span != NULL)
    *span = self->slice_span;

  return TRUE;
}

void
bl_trace_timeline_select_slice (BlTraceTimeline *self,
                                guint            thread,
                                guint32          span)
{
  g_return_if_fail (BL_IS_TRACE_TIMELINE (self));

  if (get_span (self, thread, span) == NULL)
    return;
  if (self->has_slice && self->slice_thread == thread && self->slice_span == span)
    return;
  self->has_slice = TRUE;
  self->slice_thread = thread;
  self->slice_span = span;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SLICE_SELECTED], 0);
}

void
bl_trace_timeline_unselect_slice (BlTraceTimeline *self)
{
  g_return_if_fail (BL_IS_TRACE_TIMELINE (self));

  if (!self->has_slice)
    return;
  self->has_slice = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SLICE_SELECTED], 0);
}

guint
bl_trace_timeline_get_n_lanes (BlTraceTimeline *self)
{
  g_return_val_if_fail (BL_IS_TRACE_TIMELINE (self), 0);

  return self->lanes->len;
}

gboolean
bl_trace_timeline_get_lane_expanded (BlTraceTimeline *self,
                                     guint            lane)
{
  g_return_val_if_fail (BL_IS_TRACE_TIMELINE (self), FALSE);
  g_return_val_if_fail (lane < self->lanes->len, FALSE);

  return ((Lane *) g_ptr_array_index (self->lanes, lane))->expanded;
}

void
bl_trace_timeline_set_lane_expanded (BlTraceTimeline *self,
                                     guint            lane,
                                     gboolean         expanded)
{
  Lane *l;

  g_return_if_fail (BL_IS_TRACE_TIMELINE (self));
  g_return_if_fail (lane < self->lanes->len);

  l = g_ptr_array_index (self->lanes, lane);
  if (l->expanded == !!expanded)
    return;
  l->expanded = !!expanded;
  relayout (self);
  clamp_view (self);
  configure_adjustments (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

guint
bl_trace_timeline_get_thread_lane (BlTraceTimeline *self,
                                   guint            thread)
{
  g_return_val_if_fail (BL_IS_TRACE_TIMELINE (self), G_MAXUINT);

  if (thread >= self->n_threads)
    return G_MAXUINT;
  return self->thread_lane[thread];
}

guint
bl_trace_timeline_get_counter_lane (BlTraceTimeline *self,
                                    guint            counter)
{
  g_return_val_if_fail (BL_IS_TRACE_TIMELINE (self), G_MAXUINT);

  for (guint i = 0; i < self->lanes->len; i++)
    {
      const Lane *lane = g_ptr_array_index (self->lanes, i);

      if (lane->kind == LANE_COUNTER && lane->index == counter)
        return i;
    }

  return G_MAXUINT;
}

double
bl_trace_timeline_time_to_x (BlTraceTimeline *self,
                             double           t)
{
  g_return_val_if_fail (BL_IS_TRACE_TIMELINE (self), 0);

  return (t - self->v0) * scale (self);
}

double
bl_trace_timeline_x_to_time (BlTraceTimeline *self,
                             double           x)
{
  double s;

  g_return_val_if_fail (BL_IS_TRACE_TIMELINE (self), 0);

  s = scale (self);
  return s > 0 ? self->v0 + x / s : self->v0;
}

gboolean
bl_trace_timeline_get_lane_area (BlTraceTimeline *self,
                                 guint            lane,
                                 graphene_rect_t *header,
                                 graphene_rect_t *body)
{
  const Lane *l;
  double width;

  g_return_val_if_fail (BL_IS_TRACE_TIMELINE (self), FALSE);

  if (lane >= self->lanes->len)
    return FALSE;
  l = g_ptr_array_index (self->lanes, lane);
  width = gtk_widget_get_width (GTK_WIDGET (self));
  if (header != NULL)
    graphene_rect_init (header, 0, lane_top (self, l), width, self->row_height);
  if (body != NULL)
    graphene_rect_init (body, 0, lane_top (self, l) + self->row_height, width,
                        lane_body_height (self, l));

  return TRUE;
}

gboolean
bl_trace_timeline_get_span_bounds (BlTraceTimeline *self,
                                   guint            thread,
                                   guint32          span,
                                   graphene_rect_t *bounds)
{
  const BlSpan *s;
  Lane *lane;

  g_return_val_if_fail (BL_IS_TRACE_TIMELINE (self), FALSE);

  s = get_span (self, thread, span);
  lane = thread_lane (self, thread);
  if (s == NULL || !lane->expanded || bl_span_list_get_depth (&lane->list, span) == 0)
    return FALSE;
  span_rect (self, lane, span, bounds);

  return TRUE;
}

double
bl_trace_timeline_value_to_y (BlTraceTimeline *self,
                              guint            counter,
                              double           value)
{
  guint lane;

  g_return_val_if_fail (BL_IS_TRACE_TIMELINE (self), NAN);

  lane = bl_trace_timeline_get_counter_lane (self, counter);
  if (lane == G_MAXUINT || !((Lane *) g_ptr_array_index (self->lanes, lane))->expanded)
    return NAN;

  return counter_y (self, g_ptr_array_index (self->lanes, lane), value);
}

gboolean
bl_trace_timeline_hit_test (BlTraceTimeline *self,
                            double           x,
                            double           y,
                            BlTraceHit      *hit)
{
  double s;

  g_return_val_if_fail (BL_IS_TRACE_TIMELINE (self), FALSE);
  g_return_val_if_fail (hit != NULL, FALSE);

  memset (hit, 0, sizeof *hit);
  s = scale (self);
  if (self->profile == NULL || s <= 0 || y < self->ruler_height)
    return FALSE;
  hit->time = (guint64) llround (MAX (self->v0 + x / s, 0));

  for (guint l = 0; l < self->lanes->len; l++)
    {
      const Lane *lane = g_ptr_array_index (self->lanes, l);
      double top = lane_top (self, lane);
      double t = self->v0 + x / s;

      if (y < top || y >= top + self->row_height + lane_body_height (self, lane))
        continue;

      hit->lane = l;
      if (y < top + self->row_height)
        {
          /* an instant within a few pixels, else the header */
          guint k = instant_first_after (self, lane, t - MARKER_PX / s);
          double best = MARKER_PX + 1;

          for (; k < lane->instants->len; k++)
            {
              guint index = g_array_index (lane->instants, guint, k);
              double ts = (double) g_array_index (self->trace->instants,
                                                  BlPerfettoInstant, index).ts;
              double d = fabs ((ts - t) * s);

              if (ts > t + MARKER_PX / s)
                break;
              if (d < best)
                {
                  best = d;
                  hit->kind = BL_TRACE_HIT_INSTANT;
                  hit->instant = index;
                }
            }
          if (hit->kind != BL_TRACE_HIT_INSTANT)
            hit->kind = BL_TRACE_HIT_HEADER;
          return TRUE;
        }

      if (lane->kind == LANE_THREAD)
        {
          guint depth = (guint) ((y - top - self->row_height) / self->row_height) + 1;
          GArray *row;
          guint k;

          if (depth == 0 || depth > lane->rows->len)
            return FALSE;
          row = g_ptr_array_index (lane->rows, depth - 1);
          /* the span under the pointer, or one too narrow to see within half a pixel */
          k = row_first_after (lane, row, t - 0.5 / s);
          if (k < row->len)
            {
              guint32 index = g_array_index (row, guint32, k);

              if ((double) lane->list.spans[index].start <= t + 0.5 / s)
                {
                  hit->kind = BL_TRACE_HIT_SLICE;
                  hit->thread = lane->index;
                  hit->span = index;
                  return TRUE;
                }
            }
          return FALSE;
        }

      if (lane->kind == LANE_COUNTER)
        {
          const BlPerfettoCounter *counter = lane_counter (self, lane);
          gssize k = point_at (counter, t);

          if (k < 0 || t > self->t1)
            return FALSE;
          hit->kind = BL_TRACE_HIT_COUNTER;
          hit->counter = lane->index;
          hit->value = g_array_index (counter->points, BlPerfettoPoint, k).value;
          return TRUE;
        }

      return FALSE;
    }

  return FALSE;
}

char *
bl_trace_timeline_dup_tooltip_text (BlTraceTimeline *self,
                                    double           x,
                                    double           y)
{
  BlTraceHit hit;

  g_return_val_if_fail (BL_IS_TRACE_TIMELINE (self), NULL);

  if (!bl_trace_timeline_hit_test (self, x, y, &hit))
    return NULL;

  switch (hit.kind)
    {
    case BL_TRACE_HIT_SLICE:
      return dup_slice_text (self, hit.thread, hit.span, FALSE);

    case BL_TRACE_HIT_INSTANT:
      {
        const BlPerfettoInstant *instant = &g_array_index (self->trace->instants,
                                                           BlPerfettoInstant, hit.instant);
        g_autofree char *at = format_time (self, (double) instant->ts - self->t0);

        /* Translators: an instant event's tooltip: its name, its time, its track */
        return g_strdup_printf (_("%s\nAt: %s\nTrack: %s"),
                                bl_profile_get_string (self->profile, instant->name), at,
                                thread_title (self, instant->thread));
      }

    case BL_TRACE_HIT_COUNTER:
      {
        const BlPerfettoCounter *counter = g_ptr_array_index (self->trace->counters, hit.counter);
        g_autofree char *at = format_time (self, (double) hit.time - self->t0);
        g_autofree char *value = format_value (hit.value, counter->unit);

        /* Translators: a counter's tooltip: its name, its value, the time */
        return g_strdup_printf (_("%s: %s\nAt: %s"), counter->name, value, at);
      }

    case BL_TRACE_HIT_HEADER:
      {
        const Lane *lane = g_ptr_array_index (self->lanes, hit.lane);

        return g_strdup (lane->expanded ? _("Click to collapse this track")
                                        : _("Click to expand this track"));
      }

    case BL_TRACE_HIT_NONE:
    default:
      return NULL;
    }
}

char *
bl_trace_timeline_dup_slice_details (BlTraceTimeline *self,
                                     guint            thread,
                                     guint32          span)
{
  g_return_val_if_fail (BL_IS_TRACE_TIMELINE (self), NULL);

  return dup_slice_text (self, thread, span, TRUE);
}

/* The ruler reads m:ss from @origin (a trace time), on BlTimeline's
 * steps, instead of the time since the trace's start; NAN goes back. */
void
bl_trace_timeline_set_ruler_origin (BlTraceTimeline *self,
                                    double           origin)
{
  g_return_if_fail (BL_IS_TRACE_TIMELINE (self));

  if (self->ruler_origin == origin || (isnan (self->ruler_origin) && isnan (origin)))
    return;
  self->ruler_origin = origin;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The @i-th label the ruler draws (from the left) and the x it starts at
 * in widget coordinates, or NULL past the last. */
char *
bl_trace_timeline_dup_ruler_label (BlTraceTimeline *self,
                                   guint            i,
                                   double          *x)
{
  double at;
  char *label;

  g_return_val_if_fail (BL_IS_TRACE_TIMELINE (self), NULL);

  label = ruler_label (self, gtk_widget_get_width (GTK_WIDGET (self)), i, &at);
  if (label != NULL && x != NULL)
    *x = at;

  return label;
}

guint
bl_trace_timeline_get_ruler_height (BlTraceTimeline *self)
{
  g_return_val_if_fail (BL_IS_TRACE_TIMELINE (self), 0);

  return self->ruler_height;
}

gboolean
bl_trace_timeline_get_counter_color (BlTraceTimeline *self,
                                     guint            counter,
                                     GdkRGBA         *color)
{
  g_return_val_if_fail (BL_IS_TRACE_TIMELINE (self), FALSE);

  if (self->trace == NULL || counter >= self->trace->counters->len)
    return FALSE;
  *color = self->counter_colors[counter % G_N_ELEMENTS (self->counter_colors)];

  return TRUE;
}

gboolean
bl_trace_timeline_get_span_color (BlTraceTimeline *self,
                                  guint            thread,
                                  guint32          span,
                                  GdkRGBA         *color)
{
  const BlSpan *s;

  g_return_val_if_fail (BL_IS_TRACE_TIMELINE (self), FALSE);

  s = get_span (self, thread, span);
  if (s == NULL)
    return FALSE;
  *color = span_color (self, thread, s);

  return TRUE;
}

/* Widens the bounds to [@start, @end] (trace time) beyond the trace's own
 * times, for a view that lines the trace up with other data on one axis
 * (a recording); @end <= @start: the trace's own bounds. Resets the view to
 * the whole. */
void
bl_trace_timeline_set_extent (BlTraceTimeline *self,
                              double           start,
                              double           end)
{
  g_return_if_fail (BL_IS_TRACE_TIMELINE (self));

  if (self->extent_start == start && self->extent_end == end)
    return;
  self->extent_start = start;
  self->extent_end = end;
  rebuild (self);
  configure_adjustments (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}
