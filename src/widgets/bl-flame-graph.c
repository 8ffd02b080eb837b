/* bl-flame-graph.c
 *
 * A flame graph after the pattern of Sysprof's: the layout (x normalized to
 * [0, 1], rects sorted by depth and x) comes from a worker; each request gets
 * a fresh GCancellable that cancels the previous one, so a stale layout can
 * never win. The static bars are kept in one cached render node, rebuilt only
 * when the view, the size, the search or the colours change; hover and
 * selection are painted over it each frame.
 *
 * Drawing culls to the viewport by a binary search per level. Frames narrower
 * than a pixel are merged into one sliver per run, and the search jumps over
 * whole pixel columns, so a million-node tree costs O(columns × levels ×
 * log n) per frame. Label widths are measured once per string, and label
 * text nodes are cached per (string, width bucket, colour).
 *
 * Colours: the palette comes from the named CSS colours bl_flame_0 … (dark
 * variants in palette-dark.css) and the foreground from the style context, both
 * re-read in css_changed; each label picks the foreground or the background
 * colour, whichever contrasts more with its bar.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-flame-graph"

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "bl-flame-graph.h"

#include "bl-after-paint.h"
#include "bl-flame-text.h"
#include "bl-transform-menu.h"

#define N_PALETTE        12
#define N_SHADES         7
#define MIN_BAR_PX       2.0
#define MIN_LABEL_PX     28.0
#define LABEL_PAD        4.0
#define LABEL_BUCKET     8
#define LABEL_CACHE_MAX  8192
#define MIN_ZOOM_WIDTH   1e-12
#define ZOOM_DURATION_US 220000
/* from this many nodes on, a coarse layout is drawn first (a few ms), and
 * the full one (tens of ms on a million nodes) replaces it after that
 * frame is painted */
#define COARSE_MIN_NODES 200000

struct _BlFlameGraph
{
  GtkWidget       parent_instance;

  BlProfile      *profile;
  BlMetricId      metric;
  guint           thread;
  gboolean        inverted;

  BlFlameLayout  *layout;
  GCancellable   *layout_cancellable;
  /* after a coarse layout: the paint after which the full one is asked for */
  BlAfterPaint    full_wait;
  /* the frame zoomed into, when a coarse layout lacks it: zoomed into
   * again once the full layout is there */
  guint32         zoom_after_full;

  /* view: normalized x range */
  double          x0;
  double          x1;
  guint32         zoom_node;
  guint32         selected_node;
  guint32         hover_node;

  /* scrolling */
  GtkAdjustment  *hadjustment;
  GtkAdjustment  *vadjustment;
  guint           hscroll_policy : 1;
  guint           vscroll_policy : 1;
  guint           in_adjustment_update : 1;
  guint           scroll_to_root : 1;
  double          root_gap;      /* px between the roots' edge of the content and of the view */

  /* zoom animation */
  guint           tick_id;
  gint64          anim_start;
  double          anim_from[2];
  double          anim_to[2];

  /* pointer */
  double          pointer_x;
  double          pointer_y;
  double          press_x;
  double          press_y;
  double          drag_x0;
  double          drag_v0;
  gboolean        dragging;
  double          pinch_width;
  double          pinch_anchor;

  /* search */
  char           *search;
  guint8         *string_match;
  guint8         *rect_match;
  guint32        *match_prefix;  /* matches among rects [0, i), for slivers */
  guint32        *match_order;   /* matching rect indexes, left to right; made at
                                  * the first step (NULL until then) */
  guint           n_matches;
  double          match_fraction;

  /* colours */
  GdkRGBA         palette[N_PALETTE];
  GdkRGBA         fg;
  GdkRGBA         bg;
  GdkRGBA         accent;
  GdkRGBA         heat_cold;
  GdkRGBA         heat_hot;
  BlFlamePalette  palette_mode;
  guint8         *string_hue;    /* per string id: palette index */
  guint8         *string_shade;  /* per string id: shade step */
  guint           n_color_strings;

  /* text */
  PangoLayout    *text_layout;
  float          *label_width;   /* per string id, < 0 when not measured */
  guint           n_label_width;
  GHashTable     *label_cache;   /* key → GskRenderNode */
  int             row_height;
  int             text_height;

  /* the static bars */
  GskRenderNode  *bars;

  /* right-click menu */
  GtkWidget      *context_menu;
  GMenuModel     *menus[2];         /* for a frame, for a thread's root */
  gboolean        transform_menu;   /* offer the profile view's transforms */

  /* colour and tooltip overrides (the differential flame graph) */
  BlFlameColorFunc   color_func;
  gpointer           color_data;
  GDestroyNotify     color_destroy;
  BlFlameTooltipFunc tooltip_func;
  gpointer           tooltip_data;
  GDestroyNotify     tooltip_destroy;
  BlFlameMarkFunc    mark_func;
  gpointer           mark_data;
  GDestroyNotify     mark_destroy;
};

enum {
  PROP_0,
  PROP_PROFILE,
  PROP_METRIC,
  PROP_THREAD,
  PROP_INVERTED,
  PROP_SELECTED_NODE,
  PROP_ZOOM_NODE,
  PROP_SEARCH,
  PROP_MATCH_FRACTION,
  PROP_LAYOUT,
  N_PROPS,

  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

static void scrollable_iface_init (GtkScrollableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (BlFlameGraph, bl_flame_graph, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, scrollable_iface_init))

static GParamSpec *properties[N_PROPS];

/* BlFlameGraph::node-activated (guint node): a frame was double-clicked or
 * Enter was pressed on it; the profile view opens its source. */
static guint node_activated_signal;

static void
scrollable_iface_init (GtkScrollableInterface *iface)
{
}

/* ------------------------------------------------------------------------ */
/* small helpers                                                             */

static void
invalidate_bars (BlFlameGraph *self)
{
  g_clear_pointer (&self->bars, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static int
content_height (BlFlameGraph *self)
{
  int h = gtk_widget_get_height (GTK_WIDGET (self));
  int levels = self->layout ? (int) bl_flame_layout_get_n_levels (self->layout) : 0;

  return MAX (h, levels * self->row_height);
}

static double
vscroll (BlFlameGraph *self)
{
  return self->vadjustment ? gtk_adjustment_get_value (self->vadjustment) : 0;
}

/* widget y of the top of the row at @depth */
static double
row_y (BlFlameGraph *self,
       guint         depth)
{
  if (self->inverted)
    return (double) depth * self->row_height - vscroll (self);

  return content_height (self) - (double) (depth + 1) * self->row_height - vscroll (self);
}

static gboolean
depth_at_y (BlFlameGraph *self,
            double        y,
            guint        *depth)
{
  double cy = y + vscroll (self);
  double d;

  if (self->inverted)
    d = floor (cy / self->row_height);
  else
    d = floor ((content_height (self) - cy) / self->row_height);

  if (d < 0 || self->layout == NULL || d >= bl_flame_layout_get_n_levels (self->layout))
    return FALSE;

  *depth = (guint) d;
  return TRUE;
}

static double
luminance (const GdkRGBA *c)
{
  double v[3] = { c->red, c->green, c->blue };

  for (guint i = 0; i < 3; i++)
    v[i] = v[i] <= 0.03928 ? v[i] / 12.92 : pow ((v[i] + 0.055) / 1.055, 2.4);

  return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}

static double
contrast (const GdkRGBA *a,
          const GdkRGBA *b)
{
  double la = luminance (a) + 0.05;
  double lb = luminance (b) + 0.05;

  return la > lb ? la / lb : lb / la;
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
ensure_string_tables (BlFlameGraph *self)
{
  guint n;

  if (self->profile == NULL)
    return;

  n = bl_profile_get_n_strings (self->profile);
  if (n == self->n_color_strings && self->string_hue != NULL)
    return;

  g_free (self->string_hue);
  g_free (self->string_shade);
  g_free (self->label_width);
  self->string_hue = g_new (guint8, MAX (n, 1));
  self->string_shade = g_new (guint8, MAX (n, 1));
  self->label_width = g_new (float, MAX (n, 1));
  self->n_color_strings = n;
  self->n_label_width = n;

  for (guint i = 0; i < n; i++)
    {
      guint h = g_str_hash (bl_profile_get_string (self->profile, i));

      self->string_hue[i] = h % N_PALETTE;
      self->string_shade[i] = (h >> 16) % N_SHADES;
      self->label_width[i] = -1;
    }
}

/* the bar colour: hue from the file (or the thread for frames without one),
 * a small shade step from the function name */
static void
node_color (BlFlameGraph  *self,
            const BlNode  *nodes,
            guint32        node,
            GdkRGBA       *out)
{
  const BlNode *n = &nodes[node];
  guint32 hue_key = n->file;
  double shade;

  if (self->color_func != NULL && self->color_func (self, node, out, self->color_data))
    return;

  if (self->palette_mode == BL_FLAME_PALETTE_HEAT && self->layout != NULL)
    {
      guint64 all = bl_flame_layout_get_total (self->layout);
      guint64 total = bl_profile_get_total (self->profile, self->metric, node);
      double t = all ? sqrt ((double) total / all) : 0;

      mix (out, &self->heat_cold, &self->heat_hot, CLAMP (t, 0.0, 1.0));
      return;
    }

  if (hue_key == 0 || self->palette_mode == BL_FLAME_PALETTE_MODULE)
    hue_key = nodes[bl_profile_get_thread_root (self->profile, n->thread)].name;

  *out = self->palette[self->string_hue[hue_key]];
  shade = ((int) self->string_shade[n->name] - N_SHADES / 2) * 0.04;
  if (shade > 0)
    mix (out, out, &(GdkRGBA) { 1, 1, 1, 1 }, shade);
  else if (shade < 0)
    mix (out, out, &(GdkRGBA) { 0, 0, 0, 1 }, -shade);
}

static void
update_colors (BlFlameGraph *self)
{
  static const char *fallback[N_PALETTE] = {
    "#f6b26b", "#93c47d", "#6fa8dc", "#e69138", "#c27ba0", "#76a5af",
    "#ffd966", "#8e7cc3", "#e06666", "#a4c2f4", "#b6d7a8", "#f9cb9c",
  };
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));

  gtk_style_context_get_color (context, &self->fg);
  self->fg.alpha = 1;

  if (!gtk_style_context_lookup_color (context, "window_bg_color", &self->bg))
    {
      if (luminance (&self->fg) > 0.5)
        self->bg = (GdkRGBA) { 0.14, 0.14, 0.14, 1 };
      else
        self->bg = (GdkRGBA) { 1, 1, 1, 1 };
    }
  self->bg.alpha = 1;

  if (!gtk_style_context_lookup_color (context, "accent_bg_color", &self->accent))
    gdk_rgba_parse (&self->accent, "#3584e4");
  if (!gtk_style_context_lookup_color (context, "bl_flame_heat_cold", &self->heat_cold))
    gdk_rgba_parse (&self->heat_cold, "#f9e79f");
  if (!gtk_style_context_lookup_color (context, "bl_flame_heat_hot", &self->heat_hot))
    gdk_rgba_parse (&self->heat_hot, "#e01b24");

  for (guint i = 0; i < N_PALETTE; i++)
    {
      char name[32];

      g_snprintf (name, sizeof name, "bl_flame_%u", i);
      if (!gtk_style_context_lookup_color (context, name, &self->palette[i]))
        gdk_rgba_parse (&self->palette[i], fallback[i]);
      self->palette[i].alpha = 1;
    }
}

static void
update_text_metrics (BlFlameGraph *self)
{
  PangoRectangle logical;

  g_clear_object (&self->text_layout);
  self->text_layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), "Ag");
  pango_layout_get_pixel_extents (self->text_layout, NULL, &logical);
  self->text_height = logical.height;
  self->row_height = MAX (logical.height + 6, 12);

  g_hash_table_remove_all (self->label_cache);
  for (guint i = 0; i < self->n_label_width; i++)
    self->label_width[i] = -1;
}

static float
label_width (BlFlameGraph *self,
             guint32       name)
{
  if (self->label_width[name] < 0)
    {
      int w, h;

      pango_layout_set_width (self->text_layout, -1);
      pango_layout_set_ellipsize (self->text_layout, PANGO_ELLIPSIZE_NONE);
      pango_layout_set_text (self->text_layout, bl_profile_get_string (self->profile, name), -1);
      pango_layout_get_pixel_size (self->text_layout, &w, &h);
      self->label_width[name] = w;
    }

  return self->label_width[name];
}

static guint
label_key_hash (gconstpointer key)
{
  guint64 k = *(const guint64 *) key;

  k *= G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  return (guint) (k >> 32);
}

/* A cached text node for @name, at most @avail pixels wide. */
static GskRenderNode *
label_node (BlFlameGraph *self,
            guint32       name,
            double        avail,
            guint         color_choice)
{
  float full = label_width (self, name);
  guint bucket;
  guint64 key;
  GskRenderNode *node;
  GtkSnapshot *snapshot;

  if (full <= avail)
    bucket = 0xffff;
  else
    {
      bucket = (guint) (avail / LABEL_BUCKET);
      if (bucket * LABEL_BUCKET < MIN_LABEL_PX - 2 * LABEL_PAD)
        return NULL;
    }

  key = (guint64) name | ((guint64) bucket << 33) | ((guint64) color_choice << 32);
  node = g_hash_table_lookup (self->label_cache, &key);
  if (node != NULL)
    return node;

  if (g_hash_table_size (self->label_cache) >= LABEL_CACHE_MAX)
    g_hash_table_remove_all (self->label_cache);

  pango_layout_set_text (self->text_layout, bl_profile_get_string (self->profile, name), -1);
  if (bucket == 0xffff)
    {
      pango_layout_set_width (self->text_layout, -1);
      pango_layout_set_ellipsize (self->text_layout, PANGO_ELLIPSIZE_NONE);
    }
  else
    {
      pango_layout_set_width (self->text_layout, bucket * LABEL_BUCKET * PANGO_SCALE);
      pango_layout_set_ellipsize (self->text_layout, PANGO_ELLIPSIZE_END);
    }

  snapshot = gtk_snapshot_new ();
  gtk_snapshot_append_layout (snapshot, self->text_layout,
                              color_choice ? &self->bg : &self->fg);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    return NULL;

  g_hash_table_insert (self->label_cache, g_memdup2 (&key, sizeof key), node);

  return node;
}

/* ------------------------------------------------------------------------ */
/* view and adjustments                                                      */

static void
update_adjustments (BlFlameGraph *self)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self));
  int h = gtk_widget_get_height (GTK_WIDGET (self));

  self->in_adjustment_update = TRUE;

  if (self->hadjustment != NULL && w > 0)
    {
      double upper = w / (self->x1 - self->x0);

      gtk_adjustment_configure (self->hadjustment,
                                self->x0 * upper, 0, upper,
                                w * 0.1, w * 0.9, w);
    }

  if (self->vadjustment != NULL && h > 0)
    {
      int ch = content_height (self);
      double value;

      /* The view is anchored on the roots' side: a new layout starts on the
       * roots, and a resize (the paned fitted to the layout, a smaller
       * window) keeps the same distance from them rather than from the far
       * end, so the roots never slide out of view by themselves. */
      if (self->scroll_to_root)
        self->root_gap = 0;
      value = self->inverted ? self->root_gap : ch - h - self->root_gap;
      value = CLAMP (value, 0, MAX (ch - h, 0));

      gtk_adjustment_configure (self->vadjustment, value, 0, ch,
                                self->row_height, h * 0.9, h);
      self->root_gap = self->inverted ? value : MAX (ch - h, 0) - value;
      self->scroll_to_root = FALSE;
    }

  self->in_adjustment_update = FALSE;
}

/* the deepest frame whose span holds the whole view */
static guint32
frame_holding_view (BlFlameGraph *self)
{
  const BlFlameRect *rects;
  guint32 found = BL_NODE_NONE;

  if (self->layout == NULL)
    return BL_NODE_NONE;
  if (self->x0 <= 0 && self->x1 >= 1)
    return BL_NODE_NONE;

  rects = bl_flame_layout_get_rects (self->layout);
  for (guint d = 0; d < bl_flame_layout_get_n_levels (self->layout); d++)
    {
      guint i = bl_flame_layout_find_at (self->layout, d, self->x0);

      if (i == G_MAXUINT || rects[i].x1 < self->x1)
        break;
      found = rects[i].node;
    }

  return found;
}

static void
set_zoom_node (BlFlameGraph *self,
               guint32       node)
{
  char *text;

  if (self->zoom_node == node)
    return;

  self->zoom_node = node;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM_NODE]);

  if (node != BL_NODE_NONE)
    {
      g_autofree char *name = bl_flame_graph_dup_frame_name (self, node);

      text = g_strdup_printf (_("Zoomed into %s"), name);
    }
  else
    text = g_strdup (_("Showing the whole call tree"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, text,
                                  -1);
  g_free (text);
}

static void
apply_range (BlFlameGraph *self,
             double        x0,
             double        x1)
{
  double w = CLAMP (x1 - x0, MIN_ZOOM_WIDTH, 1.0);

  /* the view moved (a zoom, a drag, the scroll bar): that replaces a zoom
   * waiting for the full layout */
  self->zoom_after_full = BL_NODE_NONE;
  x0 = CLAMP (x0, 0.0, 1.0 - w);
  if (x0 == self->x0 && x0 + w == self->x1)
    return;

  self->x0 = x0;
  self->x1 = x0 + w;
  update_adjustments (self);
  invalidate_bars (self);
}

static void
stop_animation (BlFlameGraph *self)
{
  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
}

static gboolean
zoom_tick (GtkWidget     *widget,
           GdkFrameClock *clock,
           gpointer       user_data)
{
  BlFlameGraph *self = BL_FLAME_GRAPH (widget);
  gint64 elapsed = gdk_frame_clock_get_frame_time (clock) - self->anim_start;
  double t = elapsed / (double) ZOOM_DURATION_US;
  double e;

  t = CLAMP (t, 0.0, 1.0);
  e = 1.0 - pow (1.0 - t, 3);   /* ease out cubic */

  apply_range (self,
               self->anim_from[0] + (self->anim_to[0] - self->anim_from[0]) * e,
               self->anim_from[1] + (self->anim_to[1] - self->anim_from[1]) * e);

  if (t >= 1.0)
    {
      self->tick_id = 0;
      return G_SOURCE_REMOVE;
    }

  return G_SOURCE_CONTINUE;
}

static void
animate_to (BlFlameGraph *self,
            double        x0,
            double        x1,
            gboolean      animate)
{
  gboolean enabled = TRUE;

  /* as in apply_range(), from the start of a glide */
  self->zoom_after_full = BL_NODE_NONE;
  stop_animation (self);

  g_object_get (gtk_widget_get_settings (GTK_WIDGET (self)),
                "gtk-enable-animations", &enabled,
                NULL);

  if (!animate || !enabled || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      apply_range (self, x0, x1);
      return;
    }

  self->anim_from[0] = self->x0;
  self->anim_from[1] = self->x1;
  self->anim_to[0] = x0;
  self->anim_to[1] = x1;
  self->anim_start =
    gdk_frame_clock_get_frame_time (gtk_widget_get_frame_clock (GTK_WIDGET (self)));
  self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), zoom_tick, NULL, NULL);
}

static void
adjustment_value_changed (BlFlameGraph  *self,
                          GtkAdjustment *adjustment)
{
  if (self->in_adjustment_update)
    return;

  if (adjustment == self->hadjustment)
    {
      double upper = gtk_adjustment_get_upper (adjustment);
      double width = self->x1 - self->x0;

      if (upper <= 0)
        return;
      stop_animation (self);
      apply_range (self, gtk_adjustment_get_value (adjustment) / upper,
                   gtk_adjustment_get_value (adjustment) / upper + width);
      set_zoom_node (self, frame_holding_view (self));
    }
  else
    {
      double value = gtk_adjustment_get_value (adjustment);
      double span = gtk_adjustment_get_upper (adjustment) -
                    gtk_adjustment_get_page_size (adjustment);

      self->root_gap = self->inverted ? value : MAX (span, 0) - value;
      invalidate_bars (self);
    }
}

static void
set_adjustment (BlFlameGraph   *self,
                GtkAdjustment **slot,
                GtkAdjustment  *adjustment)
{
  if (*slot == adjustment)
    return;

  if (*slot != NULL)
    {
      g_signal_handlers_disconnect_by_func (*slot, adjustment_value_changed, self);
      g_clear_object (slot);
    }

  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);

  *slot = g_object_ref_sink (adjustment);
  g_signal_connect_swapped (adjustment, "value-changed",
                            G_CALLBACK (adjustment_value_changed), self);
  update_adjustments (self);
}

/* ------------------------------------------------------------------------ */
/* search                                                                    */

static int
compare_rects_by_x (gconstpointer a,
                    gconstpointer b,
                    gpointer      user_data)
{
  const BlFlameRect *rects = user_data;
  const BlFlameRect *ra = &rects[*(const guint32 *) a];
  const BlFlameRect *rb = &rects[*(const guint32 *) b];

  if (ra->x0 != rb->x0)
    return ra->x0 < rb->x0 ? -1 : 1;

  return ra->depth < rb->depth ? -1 : ra->depth > rb->depth ? 1 : 0;
}

/* The order Enter steps through, made at the first step: sorting every
 * match of a short search string (half a million frames) took most of a
 * keystroke's time */
static void
ensure_match_order (BlFlameGraph *self)
{
  const BlFlameRect *rects;
  guint n_rects;

  if (self->match_order != NULL || self->layout == NULL || self->rect_match == NULL)
    return;

  rects = bl_flame_layout_get_rects (self->layout);
  n_rects = bl_flame_layout_get_n_rects (self->layout);
  self->match_order = g_new (guint32, MAX (self->n_matches, 1));
  for (guint i = 0, k = 0; i < n_rects; i++)
    if (self->rect_match[i])
      self->match_order[k++] = i;
  g_qsort_with_data (self->match_order, self->n_matches, sizeof (guint32),
                     compare_rects_by_x, (gpointer) rects);
}

static void
update_matches (BlFlameGraph *self)
{
  const BlFlameRect *rects;
  const guint64 *total;
  guint n_rects;
  guint64 matched = 0;
  guint8 *covered;
  double fraction = 0;

  g_clear_pointer (&self->rect_match, g_free);
  g_clear_pointer (&self->match_prefix, g_free);
  g_clear_pointer (&self->match_order, g_free);
  self->n_matches = 0;

  if (self->layout != NULL && self->search != NULL && self->string_match != NULL)
    {
      rects = bl_flame_layout_get_rects (self->layout);
      n_rects = bl_flame_layout_get_n_rects (self->layout);
      total = bl_profile_get_total_array (self->profile, bl_flame_layout_get_metric (self->layout));

      self->rect_match = g_new0 (guint8, MAX (n_rects, 1));
      covered = g_new0 (guint8, MAX (n_rects, 1));

      /* parents come before their children: one pass adds each matching
       * frame that has no matching ancestor, so recursion counts once */
      for (guint i = 0; i < n_rects; i++)
        {
          gboolean match = self->string_match[rects[i].name];
          gboolean parent_covered = rects[i].parent != G_MAXUINT32 && covered[rects[i].parent];

          self->rect_match[i] = match;
          covered[i] = match || parent_covered;
          if (match && !parent_covered)
            matched += total[rects[i].node];
        }

      g_free (covered);

      /* a prefix count tells in O(1) whether a run of sub-pixel frames
       * holds a match; the order is the one Enter steps through */
      self->match_prefix = g_new (guint32, n_rects + 1);
      self->match_prefix[0] = 0;
      for (guint i = 0; i < n_rects; i++)
        self->match_prefix[i + 1] = self->match_prefix[i] + self->rect_match[i];
      self->n_matches = self->match_prefix[n_rects];

      if (bl_flame_layout_get_total (self->layout) > 0)
        fraction = (double) matched / (double) bl_flame_layout_get_total (self->layout);
    }

  if (fraction != self->match_fraction)
    {
      self->match_fraction = fraction;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MATCH_FRACTION]);
    }

  invalidate_bars (self);
}

static void
update_string_matches (BlFlameGraph *self)
{
  g_autofree char *needle = NULL;
  guint n;

  g_clear_pointer (&self->string_match, g_free);

  if (self->profile != NULL && self->search != NULL)
    {
      needle = g_utf8_casefold (self->search, -1);
      n = bl_profile_get_n_strings (self->profile);
      self->string_match = g_new0 (guint8, MAX (n, 1));
      for (guint i = 1; i < n; i++)
        {
          g_autofree char *hay = g_utf8_casefold (bl_profile_get_string (self->profile, i), -1);

          self->string_match[i] = strstr (hay, needle) != NULL;
        }
    }

  update_matches (self);
}

/* ------------------------------------------------------------------------ */
/* layout requests                                                           */

static void queue_full_layout (BlFlameGraph *self);

/* whether @layout is of what the graph shows: its profile, metric, thread */
static gboolean
layout_is_current (BlFlameGraph  *self,
                   BlFlameLayout *layout)
{
  return bl_flame_layout_get_profile (layout) == self->profile &&
         bl_flame_layout_get_metric (layout) == self->metric &&
         bl_flame_layout_get_thread (layout) == self->thread;
}

/* the full layout in place of the coarse one drawn meanwhile: the same
 * rows, so the view (zoom, scroll, selection, hover) stays as it is */
static void
take_full_layout (BlFlameGraph  *self,
                  BlFlameLayout *layout)
{
  guint32 zoom = self->zoom_after_full;

  g_clear_pointer (&self->layout, bl_flame_layout_unref);
  self->layout = bl_flame_layout_ref (layout);
  self->zoom_after_full = BL_NODE_NONE;
  /* a selection the coarse layout did not have */
  if (self->selected_node != BL_NODE_NONE &&
      bl_flame_layout_lookup_node (layout, self->selected_node) == G_MAXUINT)
    bl_flame_graph_set_selected_node (self, BL_NODE_NONE);
  if (zoom != BL_NODE_NONE && bl_flame_layout_lookup_node (layout, zoom) != G_MAXUINT)
    bl_flame_graph_zoom_to_node (self, zoom, FALSE);
  update_matches (self);
  update_adjustments (self);
  invalidate_bars (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LAYOUT]);
}

static void
layout_ready (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(BlFlameGraph) self = user_data;
  g_autoptr(BlFlameLayout) layout = NULL;
  g_autoptr(GError) error = NULL;

  layout = bl_flame_layout_new_finish (result, &error);
  if (layout == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Flame graph layout failed: %s", error->message);
      return;
    }

  /* a newer request superseded this one */
  if (!layout_is_current (self, layout))
    return;

  if (!bl_flame_layout_is_coarse (layout) && self->layout != NULL &&
      bl_flame_layout_is_coarse (self->layout) && layout_is_current (self, self->layout))
    {
      take_full_layout (self, layout);
      return;
    }

  bl_flame_graph_set_layout (self, layout);
  if (bl_flame_layout_is_coarse (layout))
    queue_full_layout (self);
}

static void
request_layout (BlFlameGraph *self,
                guint         columns)
{
  bl_flame_layout_new_async (self->profile, self->metric, self->thread, columns,
                             self->layout_cancellable, layout_ready, g_object_ref (self));
}

static void
full_after_paint_cb (GdkFrameClock *clock,
                     BlFlameGraph  *self)
{
  bl_after_paint_stop (&self->full_wait);
  if (self->layout != NULL && bl_flame_layout_is_coarse (self->layout))
    request_layout (self, 0);
}

/* The full layout, once the frame with the coarse one is painted: made
 * meanwhile, it would take a processor from that frame. */
static void
queue_full_layout (BlFlameGraph *self)
{
  bl_after_paint_stop (&self->full_wait);
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)) ||
      !bl_after_paint_wait (&self->full_wait, GTK_WIDGET (self),
                            G_CALLBACK (full_after_paint_cb), self))
    request_layout (self, 0);
}

static void
queue_layout (BlFlameGraph *self)
{
  guint columns = 0;

  bl_after_paint_stop (&self->full_wait);
  g_cancellable_cancel (self->layout_cancellable);
  g_clear_object (&self->layout_cancellable);

  if (self->profile == NULL || self->metric == BL_METRIC_INVALID)
    {
      bl_flame_graph_set_layout (self, NULL);
      return;
    }

  /* a big profile shows at once in a coarse layout as wide as the window
   * (the graph is never wider at its full view), then in the full one */
  if (bl_profile_get_n_nodes (self->profile) >= COARSE_MIN_NODES)
    {
      GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

      columns = MAX (gtk_widget_get_width (GTK_WIDGET (self)),
                     root != NULL ? gtk_widget_get_width (GTK_WIDGET (root)) : 0);
      if (columns == 0)
        columns = 4096;
    }

  self->layout_cancellable = g_cancellable_new ();
  request_layout (self, columns);
}

/* ------------------------------------------------------------------------ */
/* drawing                                                                   */

static inline void
add_rect (GPtrArray     *out,
          const GdkRGBA *color,
          double         x,
          double         y,
          double         width,
          double         height)
{
  g_ptr_array_add (out, gsk_color_node_new (color, &GRAPHENE_RECT_INIT (x, y, width, height)));
}

/* Stripes 6 px apart over a bar, dark on a light bar and light on a dark
 * one, so that they show in both styles and keep the label readable. */
static void
add_hatch (GPtrArray     *out,
           BlFlameMark    mark,
           const GdkRGBA *base,
           double         x,
           double         y,
           double         width,
           double         height)
{
  GdkRGBA ink = luminance (base) > 0.4
    ? (GdkRGBA) { 0, 0, 0, 0.28 }
    : (GdkRGBA) { 1, 1, 1, 0.32 };
  GdkRGBA clear = ink;
  GskColorStop stops[4];
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (x, y, width, height);
  double d = 6.0 / G_SQRT2;
  graphene_point_t start = GRAPHENE_POINT_INIT (0, 0);
  graphene_point_t end = GRAPHENE_POINT_INIT (d, mark == BL_FLAME_MARK_HATCH_RISING ? d : -d);

  clear.alpha = 0;
  stops[0] = (GskColorStop) { 0.0, clear };
  stops[1] = (GskColorStop) { 0.6, clear };
  stops[2] = (GskColorStop) { 0.6, ink };
  stops[3] = (GskColorStop) { 1.0, ink };
  g_ptr_array_add (out,
                   gsk_repeating_linear_gradient_node_new (&bounds, &start, &end, stops,
                                                           G_N_ELEMENTS (stops)));
}

static void
build_bars (BlFlameGraph *self)
{
  g_autoptr(GPtrArray) out = NULL;
  const BlFlameRect *rects;
  const double *x0s;
  const double *x1s;
  const BlNode *nodes;
  int w = gtk_widget_get_width (GTK_WIDGET (self));
  int h = gtk_widget_get_height (GTK_WIDGET (self));
  double scale;
  double span;
  GdkRGBA sliver_color;
  GdkRGBA match_color;
  GdkRGBA dim_target;

  if (self->layout == NULL || w <= 0 || h <= 0)
    return;

  ensure_string_tables (self);

  rects = bl_flame_layout_get_rects (self->layout);
  x0s = bl_flame_layout_get_x0s (self->layout);
  x1s = bl_flame_layout_get_x1s (self->layout);
  nodes = bl_profile_get_nodes (self->profile);
  span = self->x1 - self->x0;
  scale = w / span;

  sliver_color = self->fg;
  sliver_color.alpha = 0.28;
  match_color = self->accent;
  dim_target = self->bg;

  /* render nodes made directly: a GtkSnapshot per bar costs more than the bar */
  out = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);

  for (guint d = 0; d < bl_flame_layout_get_n_levels (self->layout); d++)
    {
      double y = row_y (self, d);
      double bar_h = self->row_height - 1;
      double s_start = 0, s_end = 0;
      gboolean sliver = FALSE;
      gboolean s_match = FALSE;
      guint begin, end, i;

      if (y + self->row_height <= 0 || y >= h)
        continue;

      bl_flame_layout_get_level (self->layout, d, &begin, &end);
      i = bl_flame_layout_find_first (self->layout, d, self->x0);

      while (i < end)
        {
          const BlFlameRect *r;
          double px0, px1;

          if (x0s[i] >= self->x1)
            break;

          px0 = (x0s[i] - self->x0) * scale;
          px1 = (x1s[i] - self->x0) * scale;

          if (px1 - px0 < MIN_BAR_PX)
            {
              double limit;
              guint lo, hi, step = 1;

              if (sliver && px0 <= s_end + 2.0)
                s_end = MAX (s_end, floor (px1) + 1);
              else
                {
                  if (sliver)
                    add_rect (out, s_match ? &match_color : &sliver_color,
                              s_start, y, s_end - s_start, bar_h);
                  sliver = TRUE;
                  s_match = FALSE;
                  s_start = floor (px0);
                  s_end = floor (px1) + 1;
                }

              /* skip every frame that ends inside this pixel column: a
               * galloping search forward from here, on the packed edges */
              limit = self->x0 + s_end / scale;
              lo = hi = i + 1;
              while (hi < end && x1s[hi] <= limit)
                {
                  lo = hi + 1;
                  hi += step;
                  step *= 2;
                }
              hi = MIN (hi, end);
              while (lo < hi)
                {
                  guint mid = lo + (hi - lo) / 2;

                  if (x1s[mid] <= limit)
                    lo = mid + 1;
                  else
                    hi = mid;
                }
              /* a match among the skipped frames shows as a highlighted sliver */
              if (self->match_prefix != NULL && self->match_prefix[lo] > self->match_prefix[i])
                s_match = TRUE;
              i = lo;
              continue;
            }

          r = &rects[i];
          if (sliver)
            {
              add_rect (out, s_match ? &match_color : &sliver_color,
                        s_start, y, MIN (s_end, px0) - s_start, bar_h);
              sliver = FALSE;
            }

          {
            GdkRGBA color;
            double cx0 = MAX (px0, -1.0);
            double cx1 = MIN (px1, w + 1.0);
            double bw = cx1 - cx0;
            double avail;

            node_color (self, nodes, r->node, &color);
            if (self->rect_match != NULL && !self->rect_match[i])
              mix (&color, &color, &dim_target, 0.72);

            add_rect (out, &color, cx0, y, bw >= 3 ? bw - 1 : bw, bar_h);
            if (self->mark_func != NULL && bw >= 3)
              {
                BlFlameMark mark = self->mark_func (self, r->node, self->mark_data);

                if (mark != BL_FLAME_MARK_NONE)
                  add_hatch (out, mark, &color, cx0, y, bw - 1, bar_h);
              }

            /* the label stays in the visible part of the bar */
            avail = MIN (px1, w) - MAX (px0, 0) - 2 * LABEL_PAD - 1;
            if (avail >= MIN_LABEL_PX - 2 * LABEL_PAD)
              {
                guint choice = contrast (&self->bg, &color) > contrast (&self->fg, &color);
                GskRenderNode *text = label_node (self, nodes[r->node].name, avail, choice);

                if (text != NULL)
                  {
                    GskTransform *at;

                    at = gsk_transform_translate (NULL,
                      &GRAPHENE_POINT_INIT (MAX (px0, 0) + LABEL_PAD,
                                            y + (bar_h - self->text_height) / 2));
                    g_ptr_array_add (out, gsk_transform_node_new (text, at));
                    gsk_transform_unref (at);
                  }
              }
          }

          i++;
        }

      if (sliver)
        add_rect (out, s_match ? &match_color : &sliver_color, s_start, y, s_end - s_start, bar_h);
    }

  self->bars = gsk_container_node_new ((GskRenderNode **) out->pdata, out->len);
}

static void
bl_flame_graph_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  BlFlameGraph *self = BL_FLAME_GRAPH (widget);
  graphene_rect_t bounds;

  if (self->bars == NULL)
    build_bars (self);

  if (self->bars != NULL)
    gtk_snapshot_append_node (snapshot, self->bars);

  if (self->hover_node != BL_NODE_NONE &&
      bl_flame_graph_get_frame_bounds (self, self->hover_node, &bounds))
    {
      GdkRGBA hover = self->fg;

      hover.alpha = 0.18;
      gtk_snapshot_append_color (snapshot, &hover, &bounds);
    }

  if (self->selected_node != BL_NODE_NONE &&
      bl_flame_graph_get_frame_bounds (self, self->selected_node, &bounds))
    {
      GskRoundedRect outline;
      GdkRGBA colors[4] = { self->accent, self->accent, self->accent, self->accent };
      float widths[4] = { 2, 2, 2, 2 };

      gsk_rounded_rect_init_from_rect (&outline, &bounds, 0);
      gtk_snapshot_append_border (snapshot, &outline, widths, colors);
    }
}

/* ------------------------------------------------------------------------ */
/* GtkWidget                                                                 */

static void
bl_flame_graph_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  BlFlameGraph *self = BL_FLAME_GRAPH (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 120;
      *natural = 800;
    }
  else
    {
      int levels = self->layout ? (int) bl_flame_layout_get_n_levels (self->layout) : 0;

      /* two rows: the pane over it can be dragged small */
      *minimum = self->row_height * 2;
      *natural = MAX (levels, 2) * self->row_height;
    }
}

static void
bl_flame_graph_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  BlFlameGraph *self = BL_FLAME_GRAPH (widget);

  update_adjustments (self);
  invalidate_bars (self);
}

static void
bl_flame_graph_css_changed (GtkWidget         *widget,
                            GtkCssStyleChange *change)
{
  BlFlameGraph *self = BL_FLAME_GRAPH (widget);

  GTK_WIDGET_CLASS (bl_flame_graph_parent_class)->css_changed (widget, change);

  update_colors (self);
  update_text_metrics (self);
  invalidate_bars (self);
  gtk_widget_queue_resize (widget);
}

static gboolean
bl_flame_graph_query_tooltip (GtkWidget  *widget,
                              int         x,
                              int         y,
                              gboolean    keyboard_mode,
                              GtkTooltip *tooltip)
{
  BlFlameGraph *self = BL_FLAME_GRAPH (widget);
  g_autofree char *text = NULL;
  guint32 node;
  graphene_rect_t bounds;

  if (keyboard_mode)
    node = self->selected_node;
  else
    node = bl_flame_graph_get_node_at (self, x, y);

  if (node == BL_NODE_NONE || (text = bl_flame_graph_dup_tooltip_text (self, node)) == NULL)
    return FALSE;

  gtk_tooltip_set_text (tooltip, text);
  if (bl_flame_graph_get_frame_bounds (self, node, &bounds))
    gtk_tooltip_set_tip_area (tooltip,
                              &(GdkRectangle) {
                                MAX (0, (int) bounds.origin.x), (int) bounds.origin.y,
                                MIN ((int) bounds.size.width, gtk_widget_get_width (widget)),
                                (int) bounds.size.height });

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* input                                                                     */

static void
set_hover (BlFlameGraph *self,
           guint32       node)
{
  if (self->hover_node == node)
    return;

  self->hover_node = node;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), node != BL_NODE_NONE ? "pointer" : NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
motion_cb (BlFlameGraph             *self,
           double                    x,
           double                    y,
           GtkEventControllerMotion *controller)
{
  self->pointer_x = x;
  self->pointer_y = y;
  if (!self->dragging)
    set_hover (self, bl_flame_graph_get_node_at (self, x, y));
}

static void
leave_cb (BlFlameGraph             *self,
          GtkEventControllerMotion *controller)
{
  set_hover (self, BL_NODE_NONE);
}

static void
click_pressed_cb (BlFlameGraph    *self,
                  int              n_press,
                  double           x,
                  double           y,
                  GtkGestureClick *gesture)
{
  self->press_x = x;
  self->press_y = y;
}

static void
click_released_cb (BlFlameGraph    *self,
                   int              n_press,
                   double           x,
                   double           y,
                   GtkGestureClick *gesture)
{
  guint32 node;

  /* a press that moved is a pan, not a click */
  if (self->dragging || hypot (x - self->press_x, y - self->press_y) >= 4)
    return;

  gtk_widget_grab_focus (GTK_WIDGET (self));

  node = bl_flame_graph_get_node_at (self, x, y);
  if (node == BL_NODE_NONE)
    return;

  bl_flame_graph_set_selected_node (self, node);
  bl_flame_graph_zoom_to_node (self, node, TRUE);
  if (n_press == 2)
    g_signal_emit (self, node_activated_signal, 0, node);
}

static void
drag_begin_cb (BlFlameGraph   *self,
               double          x,
               double          y,
               GtkGestureDrag *gesture)
{
  self->drag_x0 = self->x0;
  self->drag_v0 = vscroll (self);
  self->dragging = FALSE;
}

static void
drag_update_cb (BlFlameGraph   *self,
                double          dx,
                double          dy,
                GtkGestureDrag *gesture)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self));
  double width = self->x1 - self->x0;

  if (!self->dragging && hypot (dx, dy) < 4)
    return;

  if (!self->dragging)
    {
      self->dragging = TRUE;
      stop_animation (self);
      set_hover (self, BL_NODE_NONE);
      gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grabbing");
    }

  if (w > 0)
    apply_range (self, self->drag_x0 - dx / w * width, self->drag_x0 - dx / w * width + width);
  if (self->vadjustment != NULL)
    gtk_adjustment_set_value (self->vadjustment, self->drag_v0 - dy);
}

static void
drag_end_cb (BlFlameGraph   *self,
             double          dx,
             double          dy,
             GtkGestureDrag *gesture)
{
  if (self->dragging)
    {
      set_zoom_node (self, frame_holding_view (self));
      gtk_widget_set_cursor_from_name (GTK_WIDGET (self), NULL);
    }
  self->dragging = FALSE;
}

static gboolean
scroll_cb (BlFlameGraph             *self,
           double                    dx,
           double                    dy,
           GtkEventControllerScroll *controller)
{
  GdkModifierType state;

  state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  if ((state & GDK_CONTROL_MASK) == 0)
    return FALSE;

  bl_flame_graph_zoom_at (self, self->pointer_x, pow (1.15, dy));

  return TRUE;
}

static void
pinch_begin_cb (BlFlameGraph   *self,
                GdkEventSequence *sequence,
                GtkGestureZoom *gesture)
{
  double cx, cy;
  int w = gtk_widget_get_width (GTK_WIDGET (self));

  stop_animation (self);
  self->pinch_width = self->x1 - self->x0;
  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy) || w <= 0)
    cx = w / 2.0;
  self->pinch_anchor = cx;
}

static void
pinch_scale_cb (BlFlameGraph   *self,
                double          scale,
                GtkGestureZoom *gesture)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self));
  double width, anchor;

  if (scale <= 0 || w <= 0)
    return;

  anchor = self->x0 + self->pinch_anchor / w * (self->x1 - self->x0);
  width = CLAMP (self->pinch_width / scale, MIN_ZOOM_WIDTH, 1.0);
  apply_range (self, anchor - self->pinch_anchor / w * width,
               anchor - self->pinch_anchor / w * width + width);
  set_zoom_node (self, frame_holding_view (self));
}

/* scrolls vertically so that the row of @node shows */
static void
ensure_row_visible (BlFlameGraph *self,
                    guint32       node)
{
  graphene_rect_t bounds;
  int h = gtk_widget_get_height (GTK_WIDGET (self));

  if (self->vadjustment != NULL && bl_flame_graph_get_frame_bounds (self, node, &bounds))
    {
      double v = vscroll (self);

      if (bounds.origin.y < 0)
        gtk_adjustment_set_value (self->vadjustment, v + bounds.origin.y);
      else if (bounds.origin.y + bounds.size.height > h)
        gtk_adjustment_set_value (self->vadjustment, v + bounds.origin.y + bounds.size.height - h);
    }
}

static void
ensure_visible (BlFlameGraph *self,
                guint32       node)
{
  graphene_rect_t bounds;
  int w = gtk_widget_get_width (GTK_WIDGET (self));
  int h = gtk_widget_get_height (GTK_WIDGET (self));
  guint ri;
  const BlFlameRect *r;

  if (self->layout == NULL || (ri = bl_flame_layout_lookup_node (self->layout, node)) == G_MAXUINT)
    return;

  r = &bl_flame_layout_get_rects (self->layout)[ri];
  if (r->x1 <= self->x0 || r->x0 >= self->x1)
    {
      double width = self->x1 - self->x0;
      double center = (r->x0 + r->x1) / 2;

      if (r->x1 - r->x0 > width)
        animate_to (self, r->x0, r->x1, TRUE);
      else
        animate_to (self, center - width / 2, center + width / 2, TRUE);
    }

  if (self->vadjustment != NULL && bl_flame_graph_get_frame_bounds (self, node, &bounds))
    {
      double v = vscroll (self);

      if (bounds.origin.y < 0)
        gtk_adjustment_set_value (self->vadjustment, v + bounds.origin.y);
      else if (bounds.origin.y + bounds.size.height > h)
        gtk_adjustment_set_value (self->vadjustment, v + bounds.origin.y + bounds.size.height - h);
    }

  (void) w;
}

static void
move_selection (GtkWidget  *widget,
                const char *action_name,
                GVariant   *args)
{
  BlFlameGraph *self = BL_FLAME_GRAPH (widget);
  const BlFlameRect *rects;
  int dx, dy;
  guint ri, begin, end;
  guint target = G_MAXUINT;

  if (self->layout == NULL || bl_flame_layout_get_n_rects (self->layout) == 0)
    return;

  g_variant_get (args, "(ii)", &dx, &dy);
  rects = bl_flame_layout_get_rects (self->layout);

  ri = self->selected_node != BL_NODE_NONE
    ? bl_flame_layout_lookup_node (self->layout, self->selected_node)
    : G_MAXUINT;

  if (ri == G_MAXUINT)
    target = 0;
  else
    {
      /* dy > 0 moves down on screen: towards the root in a flame graph */
      int toward_leaves = self->inverted ? dy : -dy;

      bl_flame_layout_get_level (self->layout, rects[ri].depth, &begin, &end);

      if (dx < 0 && ri > begin)
        target = ri - 1;
      else if (dx > 0 && ri + 1 < end)
        target = ri + 1;
      else if (toward_leaves < 0 && rects[ri].parent != G_MAXUINT32)
        target = rects[ri].parent;
      else if (toward_leaves > 0)
        {
          guint cb, ce, first;
          double best = -1;

          bl_flame_layout_get_level (self->layout, rects[ri].depth + 1, &cb, &ce);
          first = bl_flame_layout_find_first (self->layout, rects[ri].depth + 1, rects[ri].x0);

          for (guint c = first; c < ce && rects[c].parent == ri; c++)
            if (rects[c].x1 - rects[c].x0 > best)
              {
                best = rects[c].x1 - rects[c].x0;
                target = c;
              }
        }
    }

  if (target == G_MAXUINT)
    return;

  bl_flame_graph_set_selected_node (self, rects[target].node);
  ensure_visible (self, rects[target].node);
}

static void
zoom_selection (GtkWidget  *widget,
                const char *action_name,
                GVariant   *args)
{
  BlFlameGraph *self = BL_FLAME_GRAPH (widget);

  if (self->selected_node != BL_NODE_NONE)
    bl_flame_graph_zoom_to_node (self, self->selected_node, TRUE);
}

/* Enter: zoom in, and tell the view the frame was activated (it opens the
 * function's source lines), as a double-click does. */
static void
activate_selection (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *args)
{
  BlFlameGraph *self = BL_FLAME_GRAPH (widget);

  if (self->selected_node != BL_NODE_NONE)
    {
      bl_flame_graph_zoom_to_node (self, self->selected_node, TRUE);
      g_signal_emit (self, node_activated_signal, 0, self->selected_node);
    }
}

static void
show_source_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *args)
{
  BlFlameGraph *self = BL_FLAME_GRAPH (widget);

  if (self->selected_node != BL_NODE_NONE)
    g_signal_emit (self, node_activated_signal, 0, self->selected_node);
}

static void
reset_zoom_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  bl_flame_graph_reset_zoom (BL_FLAME_GRAPH (widget));
}

static void
copy_name_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  BlFlameGraph *self = BL_FLAME_GRAPH (widget);

  if (self->selected_node == BL_NODE_NONE)
    return;

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget),
                          bl_profile_get_node_name (self->profile, self->selected_node));
}

static void
copy_stack_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  BlFlameGraph *self = BL_FLAME_GRAPH (widget);
  g_autofree char *stack = NULL;

  if (self->selected_node == BL_NODE_NONE)
    return;

  /* one frame a line, the thread first: what a bug report wants */
  stack = bl_profile_dup_stack_string (self->profile, self->selected_node, '\n');
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), stack);
}

/**
 * bl_flame_graph_get_context_menu_model:
 *
 * Returns: (transfer none): the right-click menu for @node. A thread's root
 *   is no function: it is offered only the transforms that need none.
 */
GMenuModel *
bl_flame_graph_get_context_menu_model (BlFlameGraph *self,
                                       guint32       node)
{
  gboolean root;

  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), NULL);

  root = self->profile != NULL && node < bl_profile_get_n_nodes (self->profile) &&
         bl_profile_get_node (self->profile, node)->parent == BL_NODE_NONE;

  if (self->menus[root] == NULL)
    {
      g_autoptr(GMenu) menu = g_menu_new ();
      g_autoptr(GMenu) copy = g_menu_new ();

      g_menu_append (menu, _("_Zoom In"), "flame.zoom-selected");
      g_menu_append (menu, _("_Reset Zoom"), "flame.reset-zoom");
      g_menu_append (menu, _("Show Source _Lines"), "flame.show-source");
      g_menu_append (copy, _("_Copy Function Name"), "flame.copy-name");
      g_menu_append (copy, _("Copy _Stack"), "flame.copy-stack");
      g_menu_append_section (menu, NULL, G_MENU_MODEL (copy));
      /* call-tree transforms: actions of the profile view around the graph
       * (bl-profile-view.c), on the selected frame */
      if (self->transform_menu)
        {
          g_autoptr(GMenu) transforms = bl_transform_menu_new_section (self->profile, node);

          g_menu_append_section (menu, NULL, G_MENU_MODEL (transforms));
        }
      self->menus[root] = G_MENU_MODEL (g_steal_pointer (&menu));
    }

  return self->menus[root];
}

static void
context_pressed_cb (BlFlameGraph    *self,
                    int              n_press,
                    double           x,
                    double           y,
                    GtkGestureClick *gesture)
{
  guint32 node = bl_flame_graph_get_node_at (self, x, y);

  if (node == BL_NODE_NONE)
    return;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  bl_flame_graph_set_selected_node (self, node);

  if (self->context_menu == NULL)
    {
      self->context_menu = gtk_popover_menu_new_from_model (NULL);
      gtk_popover_set_has_arrow (GTK_POPOVER (self->context_menu), FALSE);
      gtk_widget_set_halign (self->context_menu, GTK_ALIGN_START);
      gtk_widget_set_parent (self->context_menu, GTK_WIDGET (self));
    }
  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->context_menu),
                                   bl_flame_graph_get_context_menu_model (self, node));

  gtk_popover_set_pointing_to (GTK_POPOVER (self->context_menu),
                               &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->context_menu));
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */

static void
bl_flame_graph_dispose (GObject *object)
{
  BlFlameGraph *self = (BlFlameGraph *) object;

  stop_animation (self);
  bl_after_paint_stop (&self->full_wait);
  g_cancellable_cancel (self->layout_cancellable);
  g_clear_object (&self->layout_cancellable);

  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->hadjustment, adjustment_value_changed, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->vadjustment, adjustment_value_changed, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);

  g_clear_pointer (&self->layout, bl_flame_layout_unref);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->bars, gsk_render_node_unref);
  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  g_clear_object (&self->menus[0]);
  g_clear_object (&self->menus[1]);
  g_clear_pointer (&self->label_cache, g_hash_table_unref);
  g_clear_object (&self->text_layout);
  bl_flame_graph_set_color_func (self, NULL, NULL, NULL);
  bl_flame_graph_set_mark_func (self, NULL, NULL, NULL);
  bl_flame_graph_set_tooltip_func (self, NULL, NULL, NULL);

  G_OBJECT_CLASS (bl_flame_graph_parent_class)->dispose (object);
}

static void
bl_flame_graph_finalize (GObject *object)
{
  BlFlameGraph *self = (BlFlameGraph *) object;

  g_free (self->search);
  g_free (self->string_match);
  g_free (self->rect_match);
  g_free (self->match_prefix);
  g_free (self->match_order);
  g_free (self->string_hue);
  g_free (self->string_shade);
  g_free (self->label_width);

  G_OBJECT_CLASS (bl_flame_graph_parent_class)->finalize (object);
}

static void
bl_flame_graph_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  BlFlameGraph *self = BL_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      g_value_set_object (value, self->profile);
      break;
    case PROP_METRIC:
      g_value_set_int (value, self->metric);
      break;
    case PROP_THREAD:
      g_value_set_uint (value, self->thread);
      break;
    case PROP_INVERTED:
      g_value_set_boolean (value, self->inverted);
      break;
    case PROP_SELECTED_NODE:
      g_value_set_uint (value, self->selected_node);
      break;
    case PROP_ZOOM_NODE:
      g_value_set_uint (value, self->zoom_node);
      break;
    case PROP_SEARCH:
      g_value_set_string (value, self->search);
      break;
    case PROP_MATCH_FRACTION:
      g_value_set_double (value, self->match_fraction);
      break;
    case PROP_LAYOUT:
      g_value_set_boxed (value, self->layout);
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
bl_flame_graph_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  BlFlameGraph *self = BL_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      bl_flame_graph_set_profile (self, g_value_get_object (value));
      break;
    case PROP_METRIC:
      bl_flame_graph_set_metric (self, g_value_get_int (value));
      break;
    case PROP_THREAD:
      bl_flame_graph_set_thread (self, g_value_get_uint (value));
      break;
    case PROP_INVERTED:
      bl_flame_graph_set_inverted (self, g_value_get_boolean (value));
      break;
    case PROP_SELECTED_NODE:
      bl_flame_graph_set_selected_node (self, g_value_get_uint (value));
      break;
    case PROP_SEARCH:
      bl_flame_graph_set_search (self, g_value_get_string (value));
      break;
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value));
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
add_move_binding (GtkWidgetClass *widget_class,
                  guint           key,
                  guint           kp_key,
                  int             dx,
                  int             dy)
{
  gtk_widget_class_add_binding_action (widget_class, key, 0, "flame.move", "(ii)", dx, dy);
  gtk_widget_class_add_binding_action (widget_class, kp_key, 0, "flame.move", "(ii)", dx, dy);
}

static void
bl_flame_graph_class_init (BlFlameGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_flame_graph_dispose;
  object_class->finalize = bl_flame_graph_finalize;
  object_class->get_property = bl_flame_graph_get_property;
  object_class->set_property = bl_flame_graph_set_property;

  widget_class->measure = bl_flame_graph_measure;
  widget_class->size_allocate = bl_flame_graph_size_allocate;
  widget_class->snapshot = bl_flame_graph_snapshot;
  widget_class->css_changed = bl_flame_graph_css_changed;
  widget_class->query_tooltip = bl_flame_graph_query_tooltip;

  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL,
                         BL_TYPE_PROFILE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_METRIC] =
    g_param_spec_int ("metric", NULL, NULL,
                      BL_METRIC_INVALID, BL_N_METRICS - 1, BL_METRIC_INVALID,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_THREAD] =
    g_param_spec_uint ("thread", NULL, NULL,
                       0, G_MAXUINT, BL_FLAME_ALL_THREADS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_INVERTED] =
    g_param_spec_boolean ("inverted", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_NODE] =
    g_param_spec_uint ("selected-node", NULL, NULL,
                       0, G_MAXUINT32, BL_NODE_NONE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ZOOM_NODE] =
    g_param_spec_uint ("zoom-node", NULL, NULL,
                       0, G_MAXUINT32, BL_NODE_NONE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SEARCH] =
    g_param_spec_string ("search", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MATCH_FRACTION] =
    g_param_spec_double ("match-fraction", NULL, NULL,
                         0, 1, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LAYOUT] =
    g_param_spec_boxed ("layout", NULL, NULL,
                        BL_TYPE_FLAME_LAYOUT,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  node_activated_signal = g_signal_new ("node-activated", G_TYPE_FROM_CLASS (klass),
                                        G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                        G_TYPE_NONE, 1, G_TYPE_UINT);

  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  gtk_widget_class_install_action (widget_class, "flame.reset-zoom", NULL, reset_zoom_action);
  gtk_widget_class_install_action (widget_class, "flame.move", "(ii)", move_selection);
  gtk_widget_class_install_action (widget_class, "flame.zoom-selected", NULL, zoom_selection);
  gtk_widget_class_install_action (widget_class, "flame.activate-selected", NULL,
                                   activate_selection);
  gtk_widget_class_install_action (widget_class, "flame.show-source", NULL, show_source_action);
  gtk_widget_class_install_action (widget_class, "flame.copy-name", NULL, copy_name_action);
  gtk_widget_class_install_action (widget_class, "flame.copy-stack", NULL, copy_stack_action);

  add_move_binding (widget_class, GDK_KEY_Left, GDK_KEY_KP_Left, -1, 0);
  add_move_binding (widget_class, GDK_KEY_Right, GDK_KEY_KP_Right, 1, 0);
  add_move_binding (widget_class, GDK_KEY_Up, GDK_KEY_KP_Up, 0, -1);
  add_move_binding (widget_class, GDK_KEY_Down, GDK_KEY_KP_Down, 0, 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0,
                                       "flame.activate-selected", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0,
                                       "flame.activate-selected", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, 0, "flame.zoom-selected", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "flame.reset-zoom", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "flame.reset-zoom", NULL);

  gtk_widget_class_set_css_name (widget_class, "flamegraph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
bl_flame_graph_init (BlFlameGraph *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  self->metric = BL_METRIC_INVALID;
  self->thread = BL_FLAME_ALL_THREADS;
  self->x0 = 0;
  self->x1 = 1;
  self->zoom_node = BL_NODE_NONE;
  self->zoom_after_full = BL_NODE_NONE;
  self->selected_node = BL_NODE_NONE;
  self->hover_node = BL_NODE_NONE;
  self->scroll_to_root = TRUE;
  self->label_cache = g_hash_table_new_full (label_key_hash, g_int64_equal, g_free,
                                             (GDestroyNotify) gsk_render_node_unref);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  update_colors (self);
  update_text_metrics (self);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Flame graph"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _("Arrow keys move between frames, Enter zooms, "
                                    "Escape resets the zoom"),
                                  -1);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect_swapped (controller, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect_swapped (controller, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect_swapped (gesture, "pressed", G_CALLBACK (click_pressed_cb), self);
  g_signal_connect_swapped (gesture, "released", G_CALLBACK (click_released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect_swapped (gesture, "pressed", G_CALLBACK (context_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_drag_new ();
  g_signal_connect_swapped (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect_swapped (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect_swapped (gesture, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect_swapped (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect_swapped (gesture, "begin", G_CALLBACK (pinch_begin_cb), self);
  g_signal_connect_swapped (gesture, "scale-changed", G_CALLBACK (pinch_scale_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));
}

/* ------------------------------------------------------------------------ */
/* public API                                                                */

GtkWidget *
bl_flame_graph_new (void)
{
  return g_object_new (BL_TYPE_FLAME_GRAPH, NULL);
}

BlProfile *
bl_flame_graph_get_profile (BlFlameGraph *self)
{
  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), NULL);

  return self->profile;
}

void
bl_flame_graph_set_profile (BlFlameGraph *self,
                            BlProfile    *profile)
{
  g_return_if_fail (BL_IS_FLAME_GRAPH (self));
  g_return_if_fail (!profile || BL_IS_PROFILE (profile));

  if (!g_set_object (&self->profile, profile))
    return;

  self->zoom_after_full = BL_NODE_NONE;
  g_clear_pointer (&self->string_hue, g_free);
  g_clear_pointer (&self->string_shade, g_free);
  g_clear_pointer (&self->label_width, g_free);
  self->n_color_strings = self->n_label_width = 0;
  g_hash_table_remove_all (self->label_cache);
  ensure_string_tables (self);

  /* the last profile's layout names nodes this one does not have: drop it
   * until the worker has laid out the new one */
  if (self->layout != NULL && bl_flame_layout_get_profile (self->layout) != profile)
    bl_flame_graph_set_layout (self, NULL);

  if (self->profile != NULL &&
      (self->metric == BL_METRIC_INVALID || !bl_profile_has_metric (self->profile, self->metric)))
    {
      self->metric = bl_profile_get_default_metric (self->profile);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_METRIC]);
    }
  if (self->profile != NULL && self->thread != BL_FLAME_ALL_THREADS &&
      self->thread >= bl_profile_get_n_threads (self->profile))
    {
      self->thread = BL_FLAME_ALL_THREADS;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_THREAD]);
    }

  bl_flame_graph_set_selected_node (self, BL_NODE_NONE);
  update_string_matches (self);
  queue_layout (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
}

BlMetricId
bl_flame_graph_get_metric (BlFlameGraph *self)
{
  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), BL_METRIC_INVALID);

  return self->metric;
}

void
bl_flame_graph_set_metric (BlFlameGraph *self,
                           BlMetricId    metric)
{
  g_return_if_fail (BL_IS_FLAME_GRAPH (self));

  if (self->metric == metric)
    return;

  self->metric = metric;
  queue_layout (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_METRIC]);
}

guint
bl_flame_graph_get_thread (BlFlameGraph *self)
{
  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), BL_FLAME_ALL_THREADS);

  return self->thread;
}

void
bl_flame_graph_set_thread (BlFlameGraph *self,
                           guint         thread)
{
  g_return_if_fail (BL_IS_FLAME_GRAPH (self));

  if (self->thread == thread)
    return;

  self->thread = thread;
  queue_layout (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_THREAD]);
}

gboolean
bl_flame_graph_get_inverted (BlFlameGraph *self)
{
  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), FALSE);

  return self->inverted;
}

void
bl_flame_graph_set_inverted (BlFlameGraph *self,
                             gboolean      inverted)
{
  g_return_if_fail (BL_IS_FLAME_GRAPH (self));

  inverted = !!inverted;
  if (self->inverted == inverted)
    return;

  self->inverted = inverted;
  self->scroll_to_root = TRUE;
  update_adjustments (self);
  invalidate_bars (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INVERTED]);
}

/**
 * bl_flame_graph_get_layout:
 *
 * Returns: (transfer none) (nullable): the current layout
 */
BlFlameLayout *
bl_flame_graph_get_layout (BlFlameGraph *self)
{
  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), NULL);

  return self->layout;
}

/**
 * bl_flame_graph_set_layout:
 *
 * Shows @layout, made for the widget's profile; the zoom follows the frame it
 * was on when that frame is still there. Tests and benchmarks call this to
 * skip the worker.
 */
void
bl_flame_graph_set_layout (BlFlameGraph  *self,
                           BlFlameLayout *layout)
{
  guint32 keep_zoom;

  g_return_if_fail (BL_IS_FLAME_GRAPH (self));
  g_return_if_fail (!layout || bl_flame_layout_get_profile (layout) == self->profile);

  if (self->layout == layout)
    return;

  keep_zoom = self->zoom_after_full != BL_NODE_NONE ? self->zoom_after_full : self->zoom_node;
  self->zoom_after_full = BL_NODE_NONE;

  g_clear_pointer (&self->layout, bl_flame_layout_unref);
  if (layout != NULL)
    {
      self->layout = bl_flame_layout_ref (layout);
      if (self->metric != bl_flame_layout_get_metric (layout))
        {
          self->metric = bl_flame_layout_get_metric (layout);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_METRIC]);
        }
      if (self->thread != bl_flame_layout_get_thread (layout))
        {
          self->thread = bl_flame_layout_get_thread (layout);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_THREAD]);
        }
    }

  stop_animation (self);
  self->x0 = 0;
  self->x1 = 1;
  self->scroll_to_root = TRUE;
  self->hover_node = BL_NODE_NONE;
  set_zoom_node (self, BL_NODE_NONE);

  /* a coarse layout lacks most narrow frames: a selection stays until the
   * full one says whether it is there, and the zoom goes to the nearest
   * frame around it that the coarse layout has, then back to it */
  if (self->selected_node != BL_NODE_NONE &&
      (self->layout == NULL ||
       (!bl_flame_layout_is_coarse (self->layout) &&
        bl_flame_layout_lookup_node (self->layout, self->selected_node) == G_MAXUINT)))
    bl_flame_graph_set_selected_node (self, BL_NODE_NONE);

  if (keep_zoom != BL_NODE_NONE && self->layout != NULL)
    {
      guint32 shown = keep_zoom;

      if (bl_flame_layout_is_coarse (self->layout))
        {
          const BlNode *nodes = bl_profile_get_nodes (self->profile);

          while (shown != BL_NODE_NONE &&
                 bl_flame_layout_lookup_node (self->layout, shown) == G_MAXUINT)
            shown = nodes[shown].parent;
        }
      if (shown != BL_NODE_NONE)
        bl_flame_graph_zoom_to_node (self, shown, FALSE);
      if (shown != keep_zoom)
        self->zoom_after_full = keep_zoom;
    }

  update_matches (self);
  update_adjustments (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  invalidate_bars (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LAYOUT]);
}

guint32
bl_flame_graph_get_selected_node (BlFlameGraph *self)
{
  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), BL_NODE_NONE);

  return self->selected_node;
}

void
bl_flame_graph_set_selected_node (BlFlameGraph *self,
                                  guint32       node)
{
  g_return_if_fail (BL_IS_FLAME_GRAPH (self));

  if (self->profile == NULL || node >= bl_profile_get_n_nodes (self->profile))
    node = BL_NODE_NONE;

  if (self->selected_node == node)
    return;

  self->selected_node = node;

  if (node != BL_NODE_NONE)
    {
      g_autofree char *name = bl_flame_graph_dup_frame_name (self, node);

      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, name,
                                      -1);
    }

  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
}

guint32
bl_flame_graph_get_zoom_node (BlFlameGraph *self)
{
  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), BL_NODE_NONE);

  return self->zoom_node;
}

void
bl_flame_graph_zoom_to_node (BlFlameGraph *self,
                             guint32       node,
                             gboolean      animate)
{
  const BlFlameRect *r;
  guint ri;

  g_return_if_fail (BL_IS_FLAME_GRAPH (self));
  /* a zoom asked for now replaces one waiting for the full layout */
  self->zoom_after_full = BL_NODE_NONE;

  if (node == BL_NODE_NONE)
    {
      bl_flame_graph_reset_zoom (self);
      return;
    }

  if (self->layout == NULL || (ri = bl_flame_layout_lookup_node (self->layout, node)) == G_MAXUINT)
    return;

  r = &bl_flame_layout_get_rects (self->layout)[ri];
  animate_to (self, r->x0, r->x1, animate);
  set_zoom_node (self, r->depth == 0 && r->x0 <= 0 && r->x1 >= 1 ? BL_NODE_NONE : node);
}

void
bl_flame_graph_reset_zoom (BlFlameGraph *self)
{
  g_return_if_fail (BL_IS_FLAME_GRAPH (self));

  animate_to (self, 0, 1, TRUE);
  set_zoom_node (self, BL_NODE_NONE);
}

void
bl_flame_graph_get_visible_range (BlFlameGraph *self,
                                  double       *x0,
                                  double       *x1)
{
  g_return_if_fail (BL_IS_FLAME_GRAPH (self));

  if (x0 != NULL)
    *x0 = self->x0;
  if (x1 != NULL)
    *x1 = self->x1;
}

void
bl_flame_graph_set_visible_range (BlFlameGraph *self,
                                  double        x0,
                                  double        x1)
{
  g_return_if_fail (BL_IS_FLAME_GRAPH (self));

  stop_animation (self);
  apply_range (self, x0, x1);
  set_zoom_node (self, frame_holding_view (self));
}

/**
 * bl_flame_graph_zoom_at:
 * @x: the widget x that stays in place
 * @factor: the new visible width divided by the old one (< 1 zooms in)
 */
void
bl_flame_graph_zoom_at (BlFlameGraph *self,
                        double        x,
                        double        factor)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self));
  double anchor, width;

  g_return_if_fail (BL_IS_FLAME_GRAPH (self));

  if (w <= 0 || factor <= 0)
    return;

  stop_animation (self);
  x = CLAMP (x, 0, w);
  anchor = self->x0 + x / w * (self->x1 - self->x0);
  width = CLAMP ((self->x1 - self->x0) * factor, MIN_ZOOM_WIDTH, 1.0);
  apply_range (self, anchor - x / w * width, anchor - x / w * width + width);
  set_zoom_node (self, frame_holding_view (self));
}

const char *
bl_flame_graph_get_search (BlFlameGraph *self)
{
  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), NULL);

  return self->search;
}

void
bl_flame_graph_set_search (BlFlameGraph *self,
                           const char   *text)
{
  g_return_if_fail (BL_IS_FLAME_GRAPH (self));

  if (text != NULL && text[0] == '\0')
    text = NULL;

  if (g_strcmp0 (self->search, text) == 0)
    return;

  g_free (self->search);
  self->search = g_strdup (text);
  update_string_matches (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH]);
}

double
bl_flame_graph_get_match_fraction (BlFlameGraph *self)
{
  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), 0);

  return self->match_fraction;
}

gboolean
bl_flame_graph_node_matches (BlFlameGraph *self,
                             guint32       node)
{
  guint ri;

  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), FALSE);

  if (self->rect_match == NULL || self->layout == NULL ||
      (ri = bl_flame_layout_lookup_node (self->layout, node)) == G_MAXUINT)
    return FALSE;

  return self->rect_match[ri];
}

/**
 * bl_flame_graph_get_node_color:
 * @color: (out): the colour the graph draws @node's frame in
 *
 * Returns: %FALSE when there is no profile or @node is not one of its nodes
 */
gboolean
bl_flame_graph_get_node_color (BlFlameGraph *self,
                               guint32       node,
                               GdkRGBA      *color)
{
  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), FALSE);
  g_return_val_if_fail (color != NULL, FALSE);

  if (self->profile == NULL || node >= bl_profile_get_n_nodes (self->profile))
    return FALSE;

  ensure_string_tables (self);
  node_color (self, bl_profile_get_nodes (self->profile), node, color);

  return TRUE;
}

/**
 * bl_flame_graph_get_n_matches:
 *
 * Returns: how many frames match the search
 */
guint
bl_flame_graph_get_n_matches (BlFlameGraph *self)
{
  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), 0);

  return self->n_matches;
}

/**
 * bl_flame_graph_step_match:
 * @forward: %TRUE for the next match, %FALSE for the previous one
 *
 * Selects the next (or previous) frame that matches the search, left to
 * right, after the selected one, wrapping round, and zooms to it.
 *
 * Returns: the position of the match selected (0-based), or G_MAXUINT when
 *   nothing matches
 */
guint
bl_flame_graph_step_match (BlFlameGraph *self,
                           gboolean      forward)
{
  const BlFlameRect *rects;
  guint ri = G_MAXUINT;
  guint pos;

  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), G_MAXUINT);

  if (self->layout == NULL || self->n_matches == 0)
    return G_MAXUINT;

  ensure_match_order (self);
  rects = bl_flame_layout_get_rects (self->layout);
  if (self->selected_node != BL_NODE_NONE)
    ri = bl_flame_layout_lookup_node (self->layout, self->selected_node);

  if (ri != G_MAXUINT && self->rect_match[ri])
    {
      for (pos = 0; pos < self->n_matches && self->match_order[pos] != ri; pos++)
        ;
      pos = forward ? (pos + 1) % self->n_matches : (pos + self->n_matches - 1) % self->n_matches;
    }
  else if (ri != G_MAXUINT)
    {
      /* from a frame that does not match: the first match at or after it */
      for (pos = 0; pos < self->n_matches && rects[self->match_order[pos]].x0 < rects[ri].x0; pos++)
        ;
      if (!forward)
        pos = (pos + self->n_matches - 1) % self->n_matches;
      else
        pos %= self->n_matches;
    }
  else
    pos = forward ? 0 : self->n_matches - 1;

  bl_flame_graph_set_selected_node (self, rects[self->match_order[pos]].node);
  bl_flame_graph_zoom_to_node (self, rects[self->match_order[pos]].node, TRUE);
  ensure_row_visible (self, rects[self->match_order[pos]].node);

  return pos;
}

/**
 * bl_flame_graph_get_node_at:
 *
 * Returns: the node of the frame at widget coordinates (@x, @y), or
 *   %BL_NODE_NONE
 */
guint32
bl_flame_graph_get_node_at (BlFlameGraph *self,
                            double        x,
                            double        y)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self));
  guint depth, ri;

  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), BL_NODE_NONE);

  if (self->layout == NULL || w <= 0 || x < 0 || x >= w || !depth_at_y (self, y, &depth))
    return BL_NODE_NONE;

  ri = bl_flame_layout_find_at (self->layout, depth,
                                self->x0 + x / w * (self->x1 - self->x0));
  if (ri == G_MAXUINT)
    return BL_NODE_NONE;

  return bl_flame_layout_get_rects (self->layout)[ri].node;
}

/**
 * bl_flame_graph_get_frame_bounds:
 *
 * The frame of @node in widget coordinates (it may reach beyond the widget).
 *
 * Returns: %FALSE when @node has no frame
 */
gboolean
bl_flame_graph_get_frame_bounds (BlFlameGraph    *self,
                                 guint32          node,
                                 graphene_rect_t *bounds)
{
  const BlFlameRect *r;
  int w = gtk_widget_get_width (GTK_WIDGET (self));
  double scale;
  guint ri;

  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), FALSE);

  if (self->layout == NULL || (ri = bl_flame_layout_lookup_node (self->layout, node)) == G_MAXUINT)
    return FALSE;

  r = &bl_flame_layout_get_rects (self->layout)[ri];
  scale = w / (self->x1 - self->x0);
  graphene_rect_init (bounds,
                      (r->x0 - self->x0) * scale, row_y (self, r->depth),
                      (r->x1 - r->x0) * scale, self->row_height - 1);

  return TRUE;
}

char *
bl_flame_graph_dup_frame_name (BlFlameGraph *self,
                               guint32       node)
{
  const char *name;
  guint64 total, all;
  BlMetricId metric;

  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), NULL);

  if (self->profile == NULL || node >= bl_profile_get_n_nodes (self->profile))
    return NULL;

  name = bl_profile_get_node_name (self->profile, node);
  metric = self->metric;
  if (metric == BL_METRIC_INVALID)
    return g_strdup (name);

  total = bl_profile_get_total (self->profile, metric, node);
  all = self->layout ? bl_flame_layout_get_total (self->layout) : 0;

  /* Translators: a flame graph frame for screen readers: "main, 42.0 % of CPU time" */
  return g_strdup_printf (_("%s, %.1f %% of %s"), name,
                          all ? 100.0 * total / all : 0.0,
                          _(bl_metric_get_info (metric)->display_name));
}

/**
 * bl_flame_graph_dup_tooltip_text:
 *
 * Returns: (transfer full) (nullable): plain text: function, file:line,
 *   self, total, share of the thread and of everything, calls
 */
char *
bl_flame_graph_dup_tooltip_text (BlFlameGraph *self,
                                 guint32       node)
{
  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), NULL);

  if (self->profile == NULL || node >= bl_profile_get_n_nodes (self->profile) ||
      self->metric == BL_METRIC_INVALID)
    return NULL;

  if (self->tooltip_func != NULL)
    return self->tooltip_func (self, node, self->tooltip_data);

  /* the same text as the SVG export's */
  return bl_flame_text_dup_tooltip (self->profile, self->metric, node);
}

/**
 * bl_flame_graph_render_texture:
 * @scale: pixels per widget pixel, 1 or more (2 for a sharper image)
 *
 * Renders the graph as it is on screen (zoom, scroll position, selection;
 * not the pointer's hover) over the window background, for Export… as PNG
 * and Copy Image.
 *
 * Returns: (transfer full) (nullable): the image, %NULL while the widget is
 *   not realized or has no size
 */
GdkTexture *
bl_flame_graph_render_texture (BlFlameGraph *self,
                               int           scale)
{
  GtkNative *native;
  GtkSnapshot *snapshot;
  g_autoptr(GskRenderNode) node = NULL;
  GskRenderer *renderer;
  int width, height;
  guint32 hover;

  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), NULL);
  g_return_val_if_fail (scale >= 1, NULL);

  width = gtk_widget_get_width (GTK_WIDGET (self));
  height = gtk_widget_get_height (GTK_WIDGET (self));
  native = gtk_widget_get_native (GTK_WIDGET (self));
  renderer = native != NULL ? gtk_native_get_renderer (native) : NULL;
  if (renderer == NULL || width <= 0 || height <= 0)
    return NULL;

  snapshot = gtk_snapshot_new ();
  gtk_snapshot_scale (snapshot, scale, scale);
  gtk_snapshot_append_color (snapshot, &self->bg, &GRAPHENE_RECT_INIT (0, 0, width, height));
  hover = self->hover_node;
  self->hover_node = BL_NODE_NONE;
  bl_flame_graph_snapshot (GTK_WIDGET (self), snapshot);
  self->hover_node = hover;
  node = gtk_snapshot_free_to_node (snapshot);

  return gsk_renderer_render_texture (renderer, node,
                                      &GRAPHENE_RECT_INIT (0, 0, width * scale, height * scale));
}

BlFlamePalette
bl_flame_graph_get_palette (BlFlameGraph *self)
{
  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), BL_FLAME_PALETTE_FILE);

  return self->palette_mode;
}

/**
 * bl_flame_graph_set_palette:
 *
 * Colours bars by source file (the default), by thread or module, or by
 * heat: the frame's share of the metric, from the cold to the hot colour.
 */
void
bl_flame_graph_set_palette (BlFlameGraph   *self,
                            BlFlamePalette  palette)
{
  g_return_if_fail (BL_IS_FLAME_GRAPH (self));

  if (self->palette_mode == palette)
    return;

  self->palette_mode = palette;
  invalidate_bars (self);
}

guint
bl_flame_graph_get_row_height (BlFlameGraph *self)
{
  g_return_val_if_fail (BL_IS_FLAME_GRAPH (self), 0);

  return self->row_height;
}

/**
 * bl_flame_graph_set_mark_func:
 * @func: (nullable): the pattern over each bar, or %NULL for none
 */
void
bl_flame_graph_set_mark_func (BlFlameGraph    *self,
                              BlFlameMarkFunc  func,
                              gpointer         user_data,
                              GDestroyNotify   destroy)
{
  g_return_if_fail (BL_IS_FLAME_GRAPH (self));

  if (self->mark_destroy != NULL)
    self->mark_destroy (self->mark_data);
  self->mark_func = func;
  self->mark_data = user_data;
  self->mark_destroy = destroy;
  bl_flame_graph_invalidate_colors (self);
}

/**
 * bl_flame_graph_set_color_func:
 * @func: (nullable): returns TRUE and sets the colour to override a frame's
 *   colour (search dimming still applies)
 *
 * Used by the differential flame graph; call
 * bl_flame_graph_invalidate_colors() when what @func returns changes.
 */
void
bl_flame_graph_set_color_func (BlFlameGraph     *self,
                               BlFlameColorFunc  func,
                               gpointer          user_data,
                               GDestroyNotify    destroy)
{
  g_return_if_fail (BL_IS_FLAME_GRAPH (self));

  if (self->color_destroy != NULL)
    self->color_destroy (self->color_data);
  self->color_func = func;
  self->color_data = user_data;
  self->color_destroy = destroy;
  invalidate_bars (self);
}

/**
 * bl_flame_graph_set_tooltip_func:
 * @func: (nullable): returns the plain-text tooltip of a frame, replacing
 *   the built-in one
 */
void
bl_flame_graph_set_tooltip_func (BlFlameGraph       *self,
                                 BlFlameTooltipFunc  func,
                                 gpointer            user_data,
                                 GDestroyNotify      destroy)
{
  g_return_if_fail (BL_IS_FLAME_GRAPH (self));

  if (self->tooltip_destroy != NULL)
    self->tooltip_destroy (self->tooltip_data);
  self->tooltip_func = func;
  self->tooltip_data = user_data;
  self->tooltip_destroy = destroy;
}

void
bl_flame_graph_invalidate_colors (BlFlameGraph *self)
{
  g_return_if_fail (BL_IS_FLAME_GRAPH (self));

  invalidate_bars (self);
}

/**
 * bl_flame_graph_set_transform_menu:
 *
 * Whether the right-click menu offers the call-tree transforms, the
 * profile.transform-selected action of an ancestor (a #BlProfileView).
 */
void
bl_flame_graph_set_transform_menu (BlFlameGraph *self,
                                   gboolean      transform_menu)
{
  g_return_if_fail (BL_IS_FLAME_GRAPH (self));

  self->transform_menu = !!transform_menu;
  /* the menus are built again */
  g_clear_object (&self->menus[0]);
  g_clear_object (&self->menus[1]);
}
