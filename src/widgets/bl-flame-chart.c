/* bl-flame-chart.c
 *
 * The time order of a thread (speedscope's "Time Order" view): every span
 * during which a frame was on the stack is a bar, x from its start to its
 * end time, one row per stack depth from the top. Unlike the aggregated
 * flame graph, a function called twice is drawn twice. With all threads,
 * each thread is a lane of its own, under its name, on one time axis; a
 * ruler along the top gives the times of the visible span. Bars take the
 * flame graph's colours when one is set with bl_flame_chart_set_color_graph().
 *
 * The spans come from the profile in the order they were entered (for a
 * sampled thread, from bl_profile_dup_sample_spans(): its samples end to
 * end, each as wide as its weight); the widget splits them into rows by
 * depth once per profile and thread, when it is first drawn, measured or
 * asked about (not when the profile is set). Within a row the
 * spans do not overlap, so both their starts and their ends are sorted, and
 * drawing, hit-testing and tooltips find the visible ones by binary search.
 * Bars narrower than a quarter pixel become one sliver per pixel column,
 * and the search jumps to the next column, so a frame costs at most one
 * bar per column and row; labels are drawn only on bars wider than a few
 * characters, with one ellipsizing PangoLayout.
 *
 * Pointer: the wheel zooms around the pointer (horizontal wheel pans),
 * dragging pans in time and depth. Keys: plus/minus zoom, arrows pan, Home
 * shows the whole range.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-flame-chart"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "bl-flame-chart.h"

#define N_PALETTE     12
#define MIN_BAR_PX    0.25
#define MIN_LABEL_PX  24.0
#define LABEL_PAD     3.0
#define MIN_WINDOW    1e-3
#define LANE_GAP      6.0
#define TICK_PX       110.0

/* one thread's spans, split into rows by depth */
typedef struct
{
  guint         thread;
  BlSpanList    list;
  BlSpanList   *owned;    /* a sampled thread's spans, derived by the model */
  gsize         first;    /* the index of its first span among all lanes' */
  GPtrArray    *rows;     /* per depth - 1: GArray of guint32 span indexes */
  double        y;        /* top of the lane, in content coordinates */
  double        header;   /* height of the name above the rows (0: none) */
} Lane;

struct _BlFlameChart
{
  GtkWidget    parent_instance;

  BlProfile   *profile;
  guint        thread;        /* G_MAXUINT: every thread, a lane each */
  BlFlameGraph *color_graph;  /* weak: whose colours the bars take */

  GPtrArray   *lanes;         /* Lane */
  gboolean     rows_stale;    /* lanes not made yet for profile and thread */
  GTask       *build_task;    /* a worker making them, or NULL */
  gsize        n_spans;       /* over all lanes */
  double       content;       /* height of all lanes */
  double       t0;            /* the whole time range */
  double       t1;

  /* view */
  double       v0;
  double       v1;
  double       y_offset;
  double       drag_v0;
  double       drag_y0;

  gssize       hover;
  double       pointer_x;
  double       pointer_y;

  int          row_height;
  int          ruler_height;
  PangoLayout *layout;
  GdkRGBA      fg;
  GdkRGBA      bg;
  GdkRGBA      accent;
  GdkRGBA      palette[N_PALETTE];
};

enum
{
  PROP_0,
  PROP_PROFILE,
  PROP_THREAD,
  PROP_LOADING,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (BlFlameChart, bl_flame_chart, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

/* ---- colours ------------------------------------------------------------ */

static void     ensure_rows       (BlFlameChart *self);
static gboolean rows_ready        (BlFlameChart *self);
static void     update_accessible (BlFlameChart *self);

static double
luminance (const GdkRGBA *c)
{
  return 0.2126 * c->red + 0.7152 * c->green + 0.0722 * c->blue;
}

static void
update_colors (BlFlameChart *self)
{
  static const char *fallback[N_PALETTE] = {
    "#f6b26b", "#93c47d", "#6fa8dc", "#e69138", "#c27ba0", "#76a5af",
    "#ffd966", "#8e7cc3", "#e06666", "#a4c2f4", "#b6d7a8", "#f9cb9c",
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

  for (guint i = 0; i < N_PALETTE; i++)
    {
      char name[32];

      g_snprintf (name, sizeof name, "bl_flame_%u", i);
      if (!gtk_style_context_lookup_color (context, name, &self->palette[i]))
        gdk_rgba_parse (&self->palette[i], fallback[i]);
      self->palette[i].alpha = 1;
    }
}

/* the flame graph's colour for the frame, else one per function name */
static GdkRGBA
span_color (BlFlameChart *self,
            const BlSpan *span)
{
  const BlNode *node = bl_profile_get_node (self->profile, span->node);
  GdkRGBA color;

  if (self->color_graph != NULL &&
      bl_flame_graph_get_profile (self->color_graph) == self->profile &&
      bl_flame_graph_get_node_color (self->color_graph, span->node, &color))
    return color;

  return self->palette[g_str_hash (bl_profile_get_string (self->profile, node->name)) % N_PALETTE];
}

static void
update_text (BlFlameChart *self)
{
  PangoRectangle logical;

  g_clear_object (&self->layout);
  self->layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), "Ag");
  pango_layout_set_ellipsize (self->layout, PANGO_ELLIPSIZE_END);
  pango_layout_get_pixel_extents (self->layout, NULL, &logical);
  self->row_height = MAX (logical.height + 6, 14);
  self->ruler_height = self->row_height + 6;
}

/* ---- geometry ----------------------------------------------------------- */

static double
scale (BlFlameChart *self)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self));

  return w > 0 && self->v1 > self->v0 ? w / (self->v1 - self->v0) : 0;
}

static double
content_height (BlFlameChart *self)
{
  return self->content;
}

static void
clamp_view (BlFlameChart *self)
{
  double range, width;
  double max_y;

  range = self->t1 - self->t0;
  width = self->v1 - self->v0;

  if (range <= 0)
    {
      self->v0 = self->t0;
      self->v1 = self->t0 + 1;
      return;
    }

  width = CLAMP (width, MIN (MIN_WINDOW, range), range);
  if (self->v0 < self->t0)
    self->v0 = self->t0;
  if (self->v0 + width > self->t1)
    self->v0 = self->t1 - width;
  self->v1 = self->v0 + width;

  max_y = MAX (content_height (self) + self->ruler_height -
               gtk_widget_get_height (GTK_WIDGET (self)), 0);
  self->y_offset = CLAMP (self->y_offset, 0, max_y);
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

      if ((double) bl_span_list_get_end (&lane->list, g_array_index (row, guint32, mid)) < t)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/* the widget y of the top of @lane's row for @depth */
static double
row_top (BlFlameChart *self,
         const Lane   *lane,
         guint         depth)
{
  return self->ruler_height + lane->y + lane->header +
         (double) (depth - 1) * self->row_height - self->y_offset;
}

static void
span_rect (BlFlameChart    *self,
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

static void
lane_free (gpointer data)
{
  Lane *lane = data;

  g_ptr_array_unref (lane->rows);
  g_free (lane->owned);
  g_free (lane);
}

/* the lane that holds span @index of all lanes' */
static const Lane *
lane_of (BlFlameChart *self,
         gsize         index)
{
  for (guint i = 0; i < self->lanes->len; i++)
    {
      const Lane *lane = g_ptr_array_index (self->lanes, i);

      if (index >= lane->first && index < lane->first + lane->list.n_spans)
        return lane;
    }

  return NULL;
}

/* ---- lanes ---------------------------------------------------------------- */

/* Deriving a sampled thread's spans and splitting them into rows takes
 * most of a second on a profile of a million samples: above this many
 * samples and spans, a worker does it while the chart says so. */
#define SYNC_BUILD_LIMIT 100000

/* What a worker makes of a profile and thread: the lanes without their
 * place on screen, which depends on the font (see layout_lanes()). */
typedef struct
{
  BlProfile *profile;
  guint      thread;
  GPtrArray *lanes;       /* Lane */
  gsize      n_spans;
  guint64    t0;
  guint64    t1;

  /* the main thread may need the lanes before the worker's result arrives */
  GMutex     lock;
  GCond      done_cond;
  gboolean   done;
} Build;

static void
build_free (gpointer data)
{
  Build *b = data;

  g_clear_object (&b->profile);
  g_clear_pointer (&b->lanes, g_ptr_array_unref);
  g_mutex_clear (&b->lock);
  g_cond_clear (&b->done_cond);
  g_free (b);
}

static Build *
build_new (BlProfile *profile,
           guint      thread)
{
  Build *b = g_new0 (Build, 1);

  b->profile = profile != NULL ? g_object_ref (profile) : NULL;
  b->thread = thread;
  b->lanes = g_ptr_array_new_with_free_func (lane_free);
  b->t0 = G_MAXUINT64;
  g_mutex_init (&b->lock);
  g_cond_init (&b->done_cond);

  return b;
}

/* The nodes' depths in 16 bits, which stay in the cache where the nodes
 * themselves (32 bytes each) do not, for the passes over tens of millions
 * of spans; NULL if a node is deeper than that. */
static guint16 *
dup_node_depths (BlProfile *profile)
{
  guint32 n_nodes = bl_profile_get_n_nodes (profile);
  g_autofree guint16 *depths = g_new (guint16, MAX (n_nodes, 1));

  for (guint32 n = 0; n < n_nodes; n++)
    {
      guint32 depth = bl_profile_get_node (profile, n)->depth;

      if (depth >= G_MAXUINT16)
        return NULL;
      depths[n] = (guint16) depth;
    }

  return g_steal_pointer (&depths);
}

/* One lane's spans into rows by depth: each row sized first, then filled
 * (appending a million indexes one by one cost more than the rest). A
 * span's depth is its node's, from @depths when there is that table. */
static void
split_rows (Lane          *lane,
            const guint16 *depths)
{
  g_autoptr(GArray) counts = g_array_new (FALSE, TRUE, sizeof (guint32));

#define SPAN_DEPTH(i) \
  (depths != NULL ? depths[lane->list.spans[i].node] : bl_span_list_get_depth (&lane->list, (i)))

  for (gsize i = 0; i < lane->list.n_spans; i++)
    {
      guint depth = SPAN_DEPTH (i);

      if (depth == 0)
        continue;
      if (counts->len < depth)
        g_array_set_size (counts, depth);
      g_array_index (counts, guint32, depth - 1)++;
    }
  for (guint d = 0; d < counts->len; d++)
    g_ptr_array_add (lane->rows,
                     g_array_sized_new (FALSE, FALSE, sizeof (guint32),
                                        g_array_index (counts, guint32, d)));
  for (gsize i = 0; i < lane->list.n_spans; i++)
    {
      guint depth = SPAN_DEPTH (i);
      GArray *row;

      if (depth == 0)
        continue;
      /* within the room reserved for it */
      row = g_ptr_array_index (lane->rows, depth - 1);
      ((guint32 *) (gpointer) row->data)[row->len++] = (guint32) i;
    }
#undef SPAN_DEPTH
}

/* Makes the lanes of @b's profile and thread; reads the finished profile
 * only, so it runs in any thread. Stops early when @cancellable is. */
static void
build_run (Build        *b,
           GCancellable *cancellable)
{
  gboolean all = b->thread == G_MAXUINT;
  guint n_threads = b->profile != NULL ? bl_profile_get_n_threads (b->profile) : 0;
  g_autofree guint16 *depths = NULL;
  gboolean depths_made = FALSE;

  for (guint t = 0; t < n_threads; t++)
    {
      Lane *lane;
      guint64 start, end;

      if (!all && t != b->thread)
        continue;
      if (g_cancellable_is_cancelled (cancellable))
        return;

      lane = g_new0 (Lane, 1);
      lane->thread = t;
      lane->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
      if (!bl_profile_get_spans (b->profile, t, &lane->list))
        {
          /* a sampled thread: its samples end to end, from 0 */
          lane->owned = bl_profile_dup_sample_spans (b->profile, t, &end);
          if (lane->owned != NULL)
            {
              lane->list = *lane->owned;
              b->t0 = 0;
              b->t1 = MAX (b->t1, end);
            }
        }
      if (lane->list.n_spans == 0 && all)
        {
          lane_free (lane);
          continue;
        }
      if (lane->owned == NULL && bl_profile_get_time_range (b->profile, t, &start, &end))
        {
          b->t0 = MIN (b->t0, start);
          b->t1 = MAX (b->t1, end);
        }

      /* made once for all lanes, and only for many spans: it costs a
       * pass over the nodes */
      if (!depths_made && lane->list.n_spans > bl_profile_get_n_nodes (b->profile))
        {
          depths = dup_node_depths (b->profile);
          depths_made = TRUE;
        }
      split_rows (lane, depths);
      lane->first = b->n_spans;
      b->n_spans += lane->list.n_spans;
      g_ptr_array_add (b->lanes, lane);
    }
}

static void
build_worker (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Build *b = task_data;

  build_run (b, cancellable);
  g_mutex_lock (&b->lock);
  b->done = TRUE;
  g_cond_signal (&b->done_cond);
  g_mutex_unlock (&b->lock);
  g_task_return_boolean (task, TRUE);
}

/* each lane's place, below the one before, in rows of the font's height */
static void
layout_lanes (BlFlameChart *self)
{
  gboolean all = self->thread == G_MAXUINT;
  double y = 0;

  for (guint i = 0; i < self->lanes->len; i++)
    {
      Lane *lane = g_ptr_array_index (self->lanes, i);

      lane->header = all ? self->row_height : 0;
      lane->y = y;
      y += lane->header + (double) lane->rows->len * self->row_height + (all ? LANE_GAP : 0);
    }
  self->content = y;
}

static void
set_loading (BlFlameChart *self,
             GTask        *task)
{
  gboolean was = self->build_task != NULL;

  if (self->build_task != NULL)
    g_cancellable_cancel (g_task_get_cancellable (self->build_task));
  g_clear_object (&self->build_task);
  self->build_task = task != NULL ? g_object_ref (task) : NULL;
  if (was != (task != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

/* Takes @b's lanes (made for the chart's profile and thread) and shows
 * them from end to end; @resize when the chart may have been measured
 * without them (not from its own measure or snapshot, which go on with
 * them at once). */
static void
adopt_build (BlFlameChart *self,
             Build        *b,
             gboolean      resize)
{
  g_ptr_array_unref (self->lanes);
  self->lanes = g_steal_pointer (&b->lanes);
  self->n_spans = b->n_spans;
  self->rows_stale = FALSE;
  layout_lanes (self);

  self->t0 = 0;
  self->t1 = 1;
  if (b->t0 <= b->t1 && b->t1 > 0)
    {
      self->t0 = b->t0;
      self->t1 = MAX (b->t1, b->t0 + 1);
    }
  self->v0 = self->t0;
  self->v1 = self->t1;
  self->y_offset = 0;
  self->hover = -1;
  clamp_view (self);
  update_accessible (self);
  if (resize)
    gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
build_ready (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  BlFlameChart *self = BL_FLAME_CHART (object);
  GTask *task = G_TASK (result);

  /* superseded, or taken by ensure_rows() already */
  if (task != self->build_task || !g_task_propagate_boolean (task, NULL))
    return;

  adopt_build (self, g_task_get_task_data (task), TRUE);
  set_loading (self, NULL);
}

/* how many spans or samples the lanes are made from */
static gsize
build_size (BlFlameChart *self)
{
  guint n_threads = self->profile != NULL ? bl_profile_get_n_threads (self->profile) : 0;
  gsize size = 0;

  for (guint t = 0; t < n_threads; t++)
    {
      BlSpanList list;
      gsize n_samples = 0;

      if (self->thread != G_MAXUINT && t != self->thread)
        continue;
      if (bl_profile_get_spans (self->profile, t, &list))
        size += list.n_spans;
      else if (bl_profile_get_samples (self->profile, t, &n_samples) != NULL)
        size += n_samples;
    }

  return size;
}

/* The lanes, now: taken from the worker making them (waiting for it if
 * it has not finished), else made here. For the public API, whose answers
 * are about the lanes; drawing and input use rows_ready(). */
static void
make_rows (BlFlameChart *self,
           gboolean      resize)
{
  if (self->build_task != NULL)
    {
      Build *b = g_task_get_task_data (self->build_task);

      g_mutex_lock (&b->lock);
      while (!b->done)
        g_cond_wait (&b->done_cond, &b->lock);
      g_mutex_unlock (&b->lock);
      adopt_build (self, b, resize);
      set_loading (self, NULL);
    }
  else if (self->rows_stale)
    {
      Build *b = build_new (self->profile, self->thread);

      build_run (b, NULL);
      adopt_build (self, b, resize);
      build_free (b);
    }
}

static void
ensure_rows (BlFlameChart *self)
{
  make_rows (self, TRUE);
}

/* Whether the lanes are there to draw; if not, makes them, in a worker
 * when there are many and the chart is on screen. The lanes and rows are
 * made when first needed (drawn, measured, asked about), not when the
 * profile is set: the chart is a page of its own, and deriving a sampled
 * thread's spans from a million samples would otherwise cost the first
 * frame of every tab whose profile has a time order. */
static gboolean
rows_ready (BlFlameChart *self)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GCancellable) cancellable = NULL;

  if (self->build_task != NULL)
    return FALSE;
  if (!self->rows_stale)
    return TRUE;
  if (build_size (self) <= SYNC_BUILD_LIMIT)
    {
      make_rows (self, FALSE);
      return TRUE;
    }
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    return FALSE;

  cancellable = g_cancellable_new ();
  task = g_task_new (self, cancellable, build_ready, NULL);
  g_task_set_source_tag (task, rows_ready);
  g_task_set_task_data (task, build_new (self->profile, self->thread), build_free);
  set_loading (self, task);
  g_task_run_in_thread (task, build_worker);

  return FALSE;
}

static void
update_accessible (BlFlameChart *self)
{
  g_autofree char *description = NULL;

  description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "%" "zu" " call in time order",
                                              "%" "zu" " calls in time order",
                                              self->n_spans),
                                 self->n_spans);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Flame chart"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);
}

/* ---- drawing ------------------------------------------------------------ */

static BlMetricId
time_metric (BlFlameChart *self)
{
  BlMetricId metric = bl_profile_get_default_metric (self->profile);

  return metric == BL_METRIC_INVALID ? BL_METRIC_WEIGHT : metric;
}

static void
append_text (BlFlameChart  *self,
             GtkSnapshot   *snapshot,
             const char    *text,
             double         x,
             double         y,
             const GdkRGBA *color)
{
  pango_layout_set_width (self->layout, -1);
  pango_layout_set_text (self->layout, text, -1);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, self->layout, color);
  gtk_snapshot_restore (snapshot);
}

/* The ruler: the time since the start at ticks 1, 2 or 5 × 10ⁿ apart, and
 * how long the visible span is. Lines are drawn with cairo, so the bars are
 * the only colour nodes. */
static void
snapshot_ruler (BlFlameChart *self,
                GtkSnapshot  *snapshot,
                int           width)
{
  BlMetricId metric = time_metric (self);
  double s = scale (self);
  double raw = TICK_PX / s;
  double step = pow (10, floor (log10 (MAX (raw, 1e-9))));
  g_autofree char *span_text = NULL;
  g_autofree char *shown = NULL;
  GdkRGBA dim = self->fg;
  int span_w, text_h;
  cairo_t *cr;

  if (step * 2 >= raw)
    step *= 2;
  else if (step * 5 >= raw)
    step *= 5;
  else
    step *= 10;
  if (step * 2 < raw)
    step *= 2;
  step = MAX (step, 1.0);   /* times are whole units */

  dim.alpha = 0.55;
  span_text = bl_profile_format_value (self->profile, metric,
                                       (guint64) llround (self->v1 - self->v0));
  /* Translators: the flame chart's ruler: how much time the view shows */
  shown = g_strdup_printf (_("%s shown"), span_text);
  pango_layout_set_width (self->layout, -1);
  pango_layout_set_text (self->layout, shown, -1);
  pango_layout_get_pixel_size (self->layout, &span_w, &text_h);

  cr = gtk_snapshot_append_cairo (snapshot,
                                  &GRAPHENE_RECT_INIT (0, 0, width, self->ruler_height));
  gdk_cairo_set_source_rgba (cr, &self->bg);
  cairo_paint (cr);
  gdk_cairo_set_source_rgba (cr, &dim);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, 0, self->ruler_height - 0.5);
  cairo_line_to (cr, width, self->ruler_height - 0.5);
  for (double t = ceil ((self->v0 - self->t0) / step) * step; self->t0 + t <= self->v1; t += step)
    {
      double x = floor ((self->t0 + t - self->v0) * s) + 0.5;

      cairo_move_to (cr, x, self->ruler_height - 6);
      cairo_line_to (cr, x, self->ruler_height);
    }
  cairo_stroke (cr);
  cairo_destroy (cr);

  for (double t = ceil ((self->v0 - self->t0) / step) * step; self->t0 + t <= self->v1; t += step)
    {
      double x = floor ((self->t0 + t - self->v0) * s);
      g_autofree char *label = bl_profile_format_value (self->profile, metric,
                                                        (guint64) llround (t));
      int label_w;

      pango_layout_set_width (self->layout, -1);
      pango_layout_set_text (self->layout, label, -1);
      pango_layout_get_pixel_size (self->layout, &label_w, NULL);
      if (x + 3 + label_w > width - span_w - 12)
        break;
      append_text (self, snapshot, label, x + 3, (self->ruler_height - 6 - text_h) / 2.0, &dim);
    }

  append_text (self, snapshot, shown, width - span_w - 6,
               (self->ruler_height - 6 - text_h) / 2.0, &self->fg);
}

/* still words while a worker makes the lanes: an animation would redraw
 * the window all the while */
static void
snapshot_loading (BlFlameChart *self,
                  GtkSnapshot  *snapshot,
                  int           width,
                  int           height)
{
  GdkRGBA dim = self->fg;
  int text_w, text_h;

  dim.alpha = 0.55;
  /* Translators: shown while the flame chart lays out a large profile */
  pango_layout_set_width (self->layout, -1);
  pango_layout_set_text (self->layout, _("Arranging calls in time order…"), -1);
  pango_layout_get_pixel_size (self->layout, &text_w, &text_h);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT (MAX ((width - text_w) / 2, 0),
                                                MAX ((height - text_h) / 2, 0)));
  gtk_snapshot_append_layout (snapshot, self->layout, &dim);
  gtk_snapshot_restore (snapshot);
}

static void
bl_flame_chart_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  BlFlameChart *self = BL_FLAME_CHART (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  double s;
  GdkRGBA dim = self->fg;

  if (!rows_ready (self))
    {
      snapshot_loading (self, snapshot, width, height);
      return;
    }
  s = scale (self);
  if (self->profile == NULL || self->n_spans == 0 || width <= 0 || s <= 0)
    return;

  dim.alpha = 0.7;
  gtk_snapshot_push_clip (snapshot,
                          &GRAPHENE_RECT_INIT (0, self->ruler_height,
                                               width, MAX (height - self->ruler_height, 0)));

  for (guint l = 0; l < self->lanes->len; l++)
    {
      const Lane *lane = g_ptr_array_index (self->lanes, l);

      if (lane->header > 0)
        {
          double y = self->ruler_height + lane->y - self->y_offset;

          if (y + lane->header >= self->ruler_height && y <= height)
            {
              int text_h;

              pango_layout_set_width (self->layout, -1);
              pango_layout_set_text (self->layout,
                                     bl_profile_get_thread_name (self->profile, lane->thread), -1);
              pango_layout_get_pixel_size (self->layout, NULL, &text_h);
              append_text (self, snapshot,
                           bl_profile_get_thread_name (self->profile, lane->thread),
                           LABEL_PAD, y + (lane->header - text_h) / 2.0, &dim);
            }
        }

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
                  /* a run of calls too short to see: one sliver for this pixel
                   * column, then jump to the first span ending past it */
                  double column = floor (MAX (rect.origin.x, 0));
                  guint next;

                  color = span_color (self, span);
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

              color = (gssize) (lane->first + index) == self->hover
                ? self->accent : span_color (self, span);
              gtk_snapshot_append_color (snapshot, &color, &rect);

              if (rect.size.width >= MIN_LABEL_PX)
                {
                  const BlNode *node = bl_profile_get_node (self->profile, span->node);
                  const GdkRGBA *text = fabs (luminance (&color) - luminance (&self->fg)) >=
                                        fabs (luminance (&color) - luminance (&self->bg))
                    ? &self->fg : &self->bg;
                  int text_h;

                  pango_layout_set_text (self->layout,
                                         bl_profile_get_string (self->profile, node->name), -1);
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

  gtk_snapshot_pop (snapshot);

  snapshot_ruler (self, snapshot, width);
}

static void
bl_flame_chart_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  BlFlameChart *self = BL_FLAME_CHART (widget);

  /* while a worker makes the lanes: no rows yet, the size follows */
  rows_ready (self);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 100;
      *natural = 600;
    }
  else
    {
      *minimum = self->ruler_height + self->row_height;
      *natural = MAX ((int) content_height (self) + self->ruler_height, *minimum);
    }
}

static void
bl_flame_chart_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  clamp_view (BL_FLAME_CHART (widget));
}

static void
bl_flame_chart_css_changed (GtkWidget         *widget,
                            GtkCssStyleChange *change)
{
  BlFlameChart *self = BL_FLAME_CHART (widget);

  GTK_WIDGET_CLASS (bl_flame_chart_parent_class)->css_changed (widget, change);

  update_colors (self);
  update_text (self);
  layout_lanes (self);
  gtk_widget_queue_resize (widget);
}

static gboolean
bl_flame_chart_query_tooltip (GtkWidget  *widget,
                              int         x,
                              int         y,
                              gboolean    keyboard_mode,
                              GtkTooltip *tooltip)
{
  BlFlameChart *self = BL_FLAME_CHART (widget);
  g_autofree char *text = NULL;
  graphene_rect_t rect;
  gssize span;

  if (!rows_ready (self))
    return FALSE;
  span = bl_flame_chart_hit_test (self, x, y);
  if (span < 0)
    return FALSE;

  text = bl_flame_chart_dup_tooltip_text (self, span);
  gtk_tooltip_set_text (tooltip, text);
  if (bl_flame_chart_get_span_bounds (self, span, &rect))
    gtk_tooltip_set_tip_area (tooltip,
                              &(GdkRectangle) { (int) MAX (rect.origin.x, 0),
                                                (int) rect.origin.y,
                                                (int) MAX (rect.size.width, 1),
                                                (int) rect.size.height });

  return TRUE;
}

/* ---- input -------------------------------------------------------------- */

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           BlFlameChart             *self)
{
  gssize hover;

  self->pointer_x = x;
  self->pointer_y = y;
  if (!rows_ready (self))
    return;
  hover = bl_flame_chart_hit_test (self, x, y);
  if (hover != self->hover)
    {
      self->hover = hover;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
leave_cb (GtkEventControllerMotion *controller,
          BlFlameChart             *self)
{
  if (self->hover >= 0)
    {
      self->hover = -1;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           BlFlameChart             *self)
{
  if (!rows_ready (self))
    return TRUE;

  if (dy != 0)
    bl_flame_chart_zoom_at (self, self->pointer_x, pow (1.2, -dy));
  if (dx != 0)
    bl_flame_chart_pan (self, dx * 20);

  return TRUE;
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               BlFlameChart   *self)
{
  self->drag_v0 = self->v0;
  self->drag_y0 = self->y_offset;
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                BlFlameChart   *self)
{
  double s = scale (self);
  double width = self->v1 - self->v0;

  if (!rows_ready (self) || s <= 0)
    return;

  self->v0 = self->drag_v0 - dx / s;
  self->v1 = self->v0 + width;
  self->y_offset = self->drag_y0 - dy;
  clamp_view (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  BlFlameChart *self = BL_FLAME_CHART (widget);

  if (!rows_ready (self))
    return;
  bl_flame_chart_zoom_at (self, gtk_widget_get_width (widget) / 2.0,
                          g_variant_get_double (parameter));
}

static void
pan_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  if (!rows_ready (BL_FLAME_CHART (widget)))
    return;
  bl_flame_chart_pan (BL_FLAME_CHART (widget),
                      g_variant_get_double (parameter) * gtk_widget_get_width (widget));
}

static void
reset_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  if (rows_ready (BL_FLAME_CHART (widget)))
    bl_flame_chart_reset_zoom (BL_FLAME_CHART (widget));
}

/* ---- object ------------------------------------------------------------- */

static void
bl_flame_chart_dispose (GObject *object)
{
  BlFlameChart *self = BL_FLAME_CHART (object);

  set_loading (self, NULL);
  g_clear_object (&self->profile);
  g_ptr_array_set_size (self->lanes, 0);
  self->n_spans = 0;
  if (self->color_graph != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->color_graph), (gpointer *) &self->color_graph);
  self->color_graph = NULL;

  G_OBJECT_CLASS (bl_flame_chart_parent_class)->dispose (object);
}

static void
bl_flame_chart_finalize (GObject *object)
{
  BlFlameChart *self = BL_FLAME_CHART (object);

  g_ptr_array_unref (self->lanes);
  g_clear_object (&self->layout);

  G_OBJECT_CLASS (bl_flame_chart_parent_class)->finalize (object);
}

static void
bl_flame_chart_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  BlFlameChart *self = BL_FLAME_CHART (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      g_value_set_object (value, self->profile);
      break;
    case PROP_THREAD:
      g_value_set_uint (value, self->thread);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->build_task != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_flame_chart_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  BlFlameChart *self = BL_FLAME_CHART (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      bl_flame_chart_set_profile (self, g_value_get_object (value), self->thread);
      break;
    case PROP_THREAD:
      bl_flame_chart_set_profile (self, self->profile, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_flame_chart_class_init (BlFlameChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_flame_chart_dispose;
  object_class->finalize = bl_flame_chart_finalize;
  object_class->get_property = bl_flame_chart_get_property;
  object_class->set_property = bl_flame_chart_set_property;

  widget_class->snapshot = bl_flame_chart_snapshot;
  widget_class->measure = bl_flame_chart_measure;
  widget_class->size_allocate = bl_flame_chart_size_allocate;
  widget_class->css_changed = bl_flame_chart_css_changed;
  widget_class->query_tooltip = bl_flame_chart_query_tooltip;

  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL, BL_TYPE_PROFILE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* G_MAXUINT: every thread */
  properties[PROP_THREAD] =
    g_param_spec_uint ("thread", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* a worker is making the lanes of a large profile; the chart draws them
   * when it has */
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "flame-chart.zoom", "d", zoom_action);
  gtk_widget_class_install_action (widget_class, "flame-chart.pan", "d", pan_action);
  gtk_widget_class_install_action (widget_class, "flame-chart.reset", NULL, reset_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0,
                                       "flame-chart.zoom", "d", 1.5);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0,
                                       "flame-chart.zoom", "d", 1.5);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0,
                                       "flame-chart.zoom", "d", 1 / 1.5);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0,
                                       "flame-chart.zoom", "d", 1 / 1.5);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0,
                                       "flame-chart.pan", "d", -0.1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0,
                                       "flame-chart.pan", "d", 0.1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0,
                                       "flame-chart.reset", NULL);

  gtk_widget_class_set_css_name (widget_class, "flamechart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
bl_flame_chart_init (BlFlameChart *self)
{
  GtkEventController *motion, *scroll;
  GtkGesture *drag;

  self->lanes = g_ptr_array_new_with_free_func (lane_free);
  self->hover = -1;
  self->v0 = 0;
  self->v1 = 1;
  self->t1 = 1;

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  drag = gtk_gesture_drag_new ();
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  update_colors (self);
  update_text (self);
  update_accessible (self);
}

/* ---- public API --------------------------------------------------------- */

GtkWidget *
bl_flame_chart_new (void)
{
  return g_object_new (BL_TYPE_FLAME_CHART, NULL);
}

/**
 * bl_flame_chart_set_profile:
 * @profile: (nullable): a finished profile
 * @thread: the thread whose time order is shown, or G_MAXUINT for every
 *   thread with one, each in a lane of its own
 *
 * Shows the spans of @thread in @profile (nothing if it has no time order)
 * and resets the view to its whole time range.
 */
void
bl_flame_chart_set_profile (BlFlameChart *self,
                            BlProfile    *profile,
                            guint         thread)
{
  gboolean profile_changed;
  gboolean thread_changed;

  g_return_if_fail (BL_IS_FLAME_CHART (self));
  g_return_if_fail (profile == NULL || BL_IS_PROFILE (profile));

  profile_changed = self->profile != profile;
  thread_changed = self->thread != thread;
  if (!profile_changed && !thread_changed)
    return;

  g_set_object (&self->profile, profile);
  self->thread = thread;
  /* the last profile's lanes go now (a worker making them stops); the
   * new ones are made when first needed */
  set_loading (self, NULL);
  g_ptr_array_set_size (self->lanes, 0);
  self->n_spans = 0;
  self->content = 0;
  self->t0 = 0;
  self->t1 = 1;
  self->v0 = 0;
  self->v1 = 1;
  self->hover = -1;
  self->rows_stale = TRUE;
  gtk_widget_queue_resize (GTK_WIDGET (self));

  if (profile_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
  if (thread_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_THREAD]);
}

BlProfile *
bl_flame_chart_get_profile (BlFlameChart *self)
{
  g_return_val_if_fail (BL_IS_FLAME_CHART (self), NULL);

  return self->profile;
}

guint
bl_flame_chart_get_thread (BlFlameChart *self)
{
  g_return_val_if_fail (BL_IS_FLAME_CHART (self), 0);

  return self->thread;
}

/**
 * bl_flame_chart_get_visible_range:
 * @start: (out) (optional): the time at the left edge
 * @end: (out) (optional): the time at the right edge
 *
 * Times are in the unit of the profile's spans.
 */
void
bl_flame_chart_get_visible_range (BlFlameChart *self,
                                  double       *start,
                                  double       *end)
{
  g_return_if_fail (BL_IS_FLAME_CHART (self));

  ensure_rows (self);

  if (start != NULL)
    *start = self->v0;
  if (end != NULL)
    *end = self->v1;
}

void
bl_flame_chart_set_visible_range (BlFlameChart *self,
                                  double        start,
                                  double        end)
{
  g_return_if_fail (BL_IS_FLAME_CHART (self));

  ensure_rows (self);

  self->v0 = MIN (start, end);
  self->v1 = MAX (start, end);
  clamp_view (self);
  self->hover = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * bl_flame_chart_zoom_at:
 * @x: the pixel column that stays in place
 * @factor: > 1 zooms in, < 1 zooms out
 */
void
bl_flame_chart_zoom_at (BlFlameChart *self,
                        double        x,
                        double        factor)
{
  double s, t, width;

  g_return_if_fail (BL_IS_FLAME_CHART (self));

  ensure_rows (self);
  g_return_if_fail (factor > 0);

  s = scale (self);
  if (s <= 0)
    return;

  t = self->v0 + x / s;
  width = (self->v1 - self->v0) / factor;
  self->v0 = t - (t - self->v0) / factor;
  self->v1 = self->v0 + width;
  clamp_view (self);
  self->hover = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * bl_flame_chart_pan:
 * @dx_pixels: how far to move the view to the right, in pixels
 */
void
bl_flame_chart_pan (BlFlameChart *self,
                    double        dx_pixels)
{
  double s, width;

  g_return_if_fail (BL_IS_FLAME_CHART (self));

  ensure_rows (self);

  s = scale (self);
  if (s <= 0)
    return;

  width = self->v1 - self->v0;
  self->v0 += dx_pixels / s;
  self->v1 = self->v0 + width;
  clamp_view (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
bl_flame_chart_reset_zoom (BlFlameChart *self)
{
  g_return_if_fail (BL_IS_FLAME_CHART (self));

  ensure_rows (self);

  bl_flame_chart_set_visible_range (self, self->t0, self->t1);
}

/**
 * bl_flame_chart_hit_test:
 * @x: widget coordinate
 * @y: widget coordinate
 *
 * Returns: the index of the span drawn at (@x, @y) (see
 *   bl_profile_get_spans(); with every thread shown, the lanes' spans
 *   count on from one lane to the next), or -1
 */
gssize
bl_flame_chart_hit_test (BlFlameChart *self,
                         double        x,
                         double        y)
{
  double s, t;

  g_return_val_if_fail (BL_IS_FLAME_CHART (self), -1);

  ensure_rows (self);

  s = scale (self);
  if (self->n_spans == 0 || s <= 0 || x < 0 || x >= gtk_widget_get_width (GTK_WIDGET (self)) ||
      y < self->ruler_height)
    return -1;

  t = self->v0 + x / s;
  for (guint l = 0; l < self->lanes->len; l++)
    {
      const Lane *lane = g_ptr_array_index (self->lanes, l);
      double row_y = y - row_top (self, lane, 1);
      GArray *row;
      guint r, k;

      if (row_y < 0)
        continue;
      r = (guint) (row_y / self->row_height);
      if (r >= lane->rows->len)
        continue;

      row = g_ptr_array_index (lane->rows, r);
      /* within half a pixel, so that slivers of short calls can be pointed at */
      k = row_first_after (lane, row, t - 0.5 / s);
      if (k < row->len)
        {
          guint32 index = g_array_index (row, guint32, k);
          const BlSpan *span = &lane->list.spans[index];

          if ((double) span->start <= t + 0.5 / s)
            return lane->first + index;
        }
      return -1;
    }

  return -1;
}

/**
 * bl_flame_chart_get_span_bounds:
 * @bounds: (out): where the span is drawn, in widget coordinates (before
 *   clipping to the widget)
 *
 * Returns: %FALSE if @span is not a span of the shown thread
 */
gboolean
bl_flame_chart_get_span_bounds (BlFlameChart    *self,
                                gsize            span,
                                graphene_rect_t *bounds)
{
  const Lane *lane;

  g_return_val_if_fail (BL_IS_FLAME_CHART (self), FALSE);

  ensure_rows (self);
  g_return_val_if_fail (bounds != NULL, FALSE);

  lane = lane_of (self, span);
  if (lane == NULL || bl_span_list_get_depth (&lane->list, span - lane->first) == 0)
    return FALSE;

  span_rect (self, lane, span - lane->first, bounds);

  return TRUE;
}

/**
 * bl_flame_chart_dup_tooltip_text:
 *
 * Returns: (transfer full) (nullable): "name — duration (file)" and when the
 *   span started, for a tooltip
 */
char *
bl_flame_chart_dup_tooltip_text (BlFlameChart *self,
                                 gsize         span)
{
  const Lane *lane;
  const BlSpan *s;
  const BlNode *node;
  BlMetricId metric;
  g_autofree char *duration = NULL;
  g_autofree char *start = NULL;
  const char *file;

  g_return_val_if_fail (BL_IS_FLAME_CHART (self), NULL);

  ensure_rows (self);

  lane = lane_of (self, span);
  if (lane == NULL)
    return NULL;

  s = &lane->list.spans[span - lane->first];
  node = bl_profile_get_node (self->profile, s->node);
  metric = time_metric (self);
  duration = bl_profile_format_value (self->profile, metric,
                                     bl_span_list_get_duration (&lane->list, span - lane->first));
  start = bl_profile_format_value (self->profile, metric, s->start - (guint64) self->t0);
  file = bl_profile_get_string (self->profile, node->file);

  if (file[0] != '\0')
    /* Translators: a call in the flame chart: function, duration, file, start time */
    return g_strdup_printf (_("%s — %s\n%s\nstarts at %s"),
                            bl_profile_get_string (self->profile, node->name), duration,
                            file, start);

  /* Translators: a call in the flame chart: function, duration, start time */
  return g_strdup_printf (_("%s — %s\nstarts at %s"),
                          bl_profile_get_string (self->profile, node->name), duration, start);
}

guint
bl_flame_chart_get_row_height (BlFlameChart *self)
{
  g_return_val_if_fail (BL_IS_FLAME_CHART (self), 0);

  return self->row_height;
}

/* Returns: the height of the time ruler along the top; the rows start below it */
guint
bl_flame_chart_get_ruler_height (BlFlameChart *self)
{
  g_return_val_if_fail (BL_IS_FLAME_CHART (self), 0);

  return self->ruler_height;
}

/**
 * bl_flame_chart_get_loading:
 *
 * Whether a worker is making the lanes of a large profile: the chart says
 * so instead of drawing them, and ignores the pointer until it has them.
 */
gboolean
bl_flame_chart_get_loading (BlFlameChart *self)
{
  g_return_val_if_fail (BL_IS_FLAME_CHART (self), FALSE);

  return self->build_task != NULL;
}

/* Returns: how many lanes (threads) are shown */
guint
bl_flame_chart_get_n_lanes (BlFlameChart *self)
{
  g_return_val_if_fail (BL_IS_FLAME_CHART (self), 0);

  ensure_rows (self);

  return self->lanes->len;
}

/**
 * bl_flame_chart_set_color_graph:
 * @graph: (nullable): a flame graph of the same profile
 *
 * Draws every bar in the colour @graph gives its frame, so that a function
 * looks the same in both.
 */
void
bl_flame_chart_set_color_graph (BlFlameChart *self,
                                BlFlameGraph *graph)
{
  g_return_if_fail (BL_IS_FLAME_CHART (self));
  g_return_if_fail (graph == NULL || BL_IS_FLAME_GRAPH (graph));

  if (self->color_graph == graph)
    return;

  if (self->color_graph != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->color_graph), (gpointer *) &self->color_graph);
  self->color_graph = graph;
  if (graph != NULL)
    g_object_add_weak_pointer (G_OBJECT (graph), (gpointer *) &self->color_graph);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
