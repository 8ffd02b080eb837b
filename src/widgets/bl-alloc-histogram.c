/* bl-alloc-histogram.c — an mpatrol profile's allocation sizes as a bar chart
 *
 * mpatrol counts allocations and frees per size in its bins (one bin per
 * size up to the bin count, then one for everything larger); the model
 * keeps them as BlHistogramBucket. Hundreds of one-byte-wide bins would be
 * unreadable, so the bars group them by powers of two (1, 2, 3–4, 5–8 …
 * bytes), with mpatrol's open-ended last bin as a bar of its own. Each
 * class shows its allocations and, beside them, its frees, on one count
 * scale; the tooltip gives the counts and the bytes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-alloc-histogram"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "bl-alloc-histogram.h"

#define MARGIN_LEFT    64.0
#define MARGIN_RIGHT   12.0
#define MARGIN_TOP     28.0
#define MARGIN_BOTTOM  40.0
#define MAX_CLASSES    66

struct _BlAllocHistogram
{
  GtkWidget         parent_instance;

  BlProfile        *profile;
  BlAllocSizeClass  classes[MAX_CLASSES];
  guint             n_classes;
  guint64           max_count;

  GdkRGBA           fg;
  GdkRGBA           accent;
};

G_DEFINE_FINAL_TYPE (BlAllocHistogram, bl_alloc_histogram, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_PROFILE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- classes ------------------------------------------------------------- */

/* The power-of-two class of a size: 0 for 1 byte, 1 for 2, 2 for 3–4… */
static guint
class_of (guint64 size)
{
  guint k = 0;

  if (size <= 1)
    return 0;
  size -= 1;
  while (size > 0)
    {
      size >>= 1;
      k++;
    }
  return k;
}

static void
build_classes (BlAllocHistogram *self)
{
  const BlHistogramBucket *buckets = NULL;
  guint n = 0, top = 0;
  gboolean any = FALSE;
  BlAllocSizeClass open = { 0, G_MAXUINT64, 0, 0, 0, 0 };
  gboolean has_open = FALSE;

  memset (self->classes, 0, sizeof self->classes);
  self->n_classes = 0;
  self->max_count = 0;
  if (self->profile != NULL)
    buckets = bl_profile_get_histogram (self->profile, &n);

  for (guint i = 0; i < n; i++)
    {
      const BlHistogramBucket *b = &buckets[i];
      BlAllocSizeClass *c;

      if (b->upper == G_MAXUINT64)
        {
          /* mpatrol's last bin: everything from its size on */
          open.lower = has_open ? MIN (open.lower, b->lower) : b->lower;
          c = &open;
          has_open = TRUE;
        }
      else
        {
          guint k = MIN (class_of (b->lower), MAX_CLASSES - 2);

          c = &self->classes[k];
          top = MAX (top, k);
          any = TRUE;
        }
      c->alloc_count += b->alloc_count;
      c->alloc_bytes += b->alloc_bytes;
      c->free_count += b->free_count;
      c->free_bytes += b->free_bytes;
    }

  if (any)
    {
      self->n_classes = top + 1;
      for (guint k = 0; k < self->n_classes; k++)
        {
          self->classes[k].lower = k == 0 ? 1 : (G_GUINT64_CONSTANT (1) << (k - 1)) + 1;
          self->classes[k].upper = G_GUINT64_CONSTANT (1) << k;
        }
    }
  if (has_open && (open.alloc_count > 0 || open.free_count > 0 || !any))
    {
      /* the last class ends where the open bin begins */
      if (self->n_classes > 0 && self->classes[self->n_classes - 1].upper >= open.lower)
        self->classes[self->n_classes - 1].upper = MAX (open.lower, 2) - 1;
      self->classes[self->n_classes++] = open;
    }

  for (guint k = 0; k < self->n_classes; k++)
    self->max_count = MAX (self->max_count,
                           MAX (self->classes[k].alloc_count, self->classes[k].free_count));
}

/* "512", "1K", "1.5M": compact sizes for the axis */
static char *
format_size_short (guint64 size)
{
  if (size < 1024)
    return g_strdup_printf ("%" G_GUINT64_FORMAT, size);
  if (size < 1024 * 1024)
    return g_strdup_printf ("%gK", (double) size / 1024);
  if (size < G_GUINT64_CONSTANT (1) << 30)
    return g_strdup_printf ("%gM", (double) size / (1024 * 1024));
  return g_strdup_printf ("%gG", (double) size / (1024.0 * 1024 * 1024));
}

static char *
class_label (const BlAllocSizeClass *c)
{
  g_autofree char *lower = format_size_short (c->lower);
  g_autofree char *upper = NULL;

  if (c->upper == G_MAXUINT64)
    return g_strdup_printf ("≥%s", lower);
  if (c->lower == c->upper)
    return g_steal_pointer (&lower);
  upper = format_size_short (c->upper);
  return g_strdup_printf ("%s–%s", lower, upper);
}

/* A round number at or above @v: 1, 2 or 5 times a power of ten. */
static double
nice_ceiling (double v)
{
  double p;

  if (!(v > 0))
    return 1;
  p = pow (10, floor (log10 (v)));
  if (v <= p)
    return p;
  if (v <= 2 * p)
    return 2 * p;
  if (v <= 5 * p)
    return 5 * p;
  return 10 * p;
}

static void
plot_area (BlAllocHistogram *self,
           graphene_rect_t  *area)
{
  double w = gtk_widget_get_width (GTK_WIDGET (self));
  double h = gtk_widget_get_height (GTK_WIDGET (self));

  graphene_rect_init (area, MARGIN_LEFT, MARGIN_TOP, MAX (w - MARGIN_LEFT - MARGIN_RIGHT, 1),
                      MAX (h - MARGIN_TOP - MARGIN_BOTTOM, 1));
}

static void
update_accessible (BlAllocHistogram *self)
{
  guint64 allocs = 0;

  for (guint k = 0; k < self->n_classes; k++)
    allocs += self->classes[k].alloc_count;

  {
    g_autofree char *text =
      g_strdup_printf (_("Allocation sizes: %" PRIu64 " allocations in %u size classes"),
                       allocs, self->n_classes);

    gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, text,
                                    -1);
  }
}

/* ---- drawing ------------------------------------------------------------- */

static GdkRGBA
with_alpha (const GdkRGBA *c,
            double         alpha)
{
  GdkRGBA out = *c;

  out.alpha *= alpha;
  return out;
}

static void
append_text (GtkSnapshot   *snapshot,
             PangoLayout   *layout,
             const char    *text,
             double         x,
             double         y,
             double         align,
             const GdkRGBA *color)
{
  int w;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, NULL);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (round (x - align * w), round (y)));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

static void
bl_alloc_histogram_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  BlAllocHistogram *self = BL_ALLOC_HISTOGRAM (widget);
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, NULL);
  GdkRGBA dim = with_alpha (&self->fg, 0.65);
  GdkRGBA grid = with_alpha (&self->fg, 0.12);
  GdkRGBA frees = with_alpha (&self->fg, 0.45);
  graphene_rect_t area;
  double scale, label_end = -G_MAXDOUBLE, legend_x;

  plot_area (self, &area);

  /* title and legend */
  append_text (snapshot, layout, _("Allocation sizes"), MARGIN_LEFT, 4, 0, &self->fg);
  legend_x = area.origin.x + area.size.width;
  append_text (snapshot, layout, _("frees"), legend_x, 4, 1, &dim);
  {
    int w;

    pango_layout_get_pixel_size (layout, &w, NULL);
    legend_x -= w + 16;
    gtk_snapshot_append_color (snapshot, &frees,
                               &GRAPHENE_RECT_INIT (legend_x + 2, 10, 10, 8));
    append_text (snapshot, layout, _("allocations"), legend_x - 4, 4, 1, &dim);
    pango_layout_get_pixel_size (layout, &w, NULL);
    gtk_snapshot_append_color (snapshot, &self->accent,
                               &GRAPHENE_RECT_INIT (legend_x - 4 - w - 14, 10, 10, 8));
  }

  if (self->n_classes == 0)
    {
      append_text (snapshot, layout, _("This profile has no allocation-size histogram."),
                   area.origin.x + area.size.width / 2, area.origin.y + area.size.height / 2 - 8,
                   0.5, &dim);
      return;
    }

  /* the count scale */
  scale = nice_ceiling ((double) self->max_count);
  for (guint k = 0; k <= 2; k++)
    {
      double y = area.origin.y + area.size.height * (1 - k / 2.0);
      g_autofree char *label = g_strdup_printf ("%.0f", scale * k / 2.0);

      gtk_snapshot_append_color (snapshot, &grid,
                                 &GRAPHENE_RECT_INIT (area.origin.x, round (y), area.size.width,
                                                      1));
      append_text (snapshot, layout, label, area.origin.x - 6, y - 8, 1, &dim);
    }

  for (guint k = 0; k < self->n_classes; k++)
    {
      const BlAllocSizeClass *c = &self->classes[k];
      graphene_rect_t bar;
      double slot = area.size.width / self->n_classes;
      double x = area.origin.x + slot * k;
      g_autofree char *label = class_label (c);
      int w;

      bl_alloc_histogram_get_bar (self, k, &bar);
      if (bar.size.height > 0)
        gtk_snapshot_append_color (snapshot, &self->accent, &bar);
      if (c->free_count > 0)
        {
          double fh = (double) c->free_count / scale * area.size.height;

          gtk_snapshot_append_color (snapshot, &frees,
                                     &GRAPHENE_RECT_INIT (bar.origin.x + bar.size.width,
                                                          area.origin.y + area.size.height - fh,
                                                          MAX (slot * 0.25, 1), fh));
        }

      /* a size label where it does not run into the previous one */
      pango_layout_set_text (layout, label, -1);
      pango_layout_get_pixel_size (layout, &w, NULL);
      if (x + slot / 2 - w / 2.0 > label_end + 4)
        {
          append_text (snapshot, layout, label, x + slot / 2,
                       area.origin.y + area.size.height + 4, 0.5, &dim);
          label_end = x + slot / 2 + w / 2.0;
        }
    }

  append_text (snapshot, layout, _("Size in bytes"), area.origin.x + area.size.width / 2,
               area.origin.y + area.size.height + 21, 0.5, &dim);
}

static void
bl_alloc_histogram_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 240;
      *natural = 640;
    }
  else
    {
      *minimum = 120;
      *natural = 260;
    }
}

static void
bl_alloc_histogram_css_changed (GtkWidget         *widget,
                                GtkCssStyleChange *change)
{
  BlAllocHistogram *self = BL_ALLOC_HISTOGRAM (widget);
  GtkStyleContext *context = gtk_widget_get_style_context (widget);

  GTK_WIDGET_CLASS (bl_alloc_histogram_parent_class)->css_changed (widget, change);

  gtk_style_context_get_color (context, &self->fg);
  if (!gtk_style_context_lookup_color (context, "accent_color", &self->accent))
    self->accent = (GdkRGBA) { 0.21, 0.52, 0.89, 1 };
  gtk_widget_queue_draw (widget);
}

static gboolean
bl_alloc_histogram_query_tooltip (GtkWidget  *widget,
                                  int         x,
                                  int         y,
                                  gboolean    keyboard_mode,
                                  GtkTooltip *tooltip)
{
  g_autofree char *text = bl_alloc_histogram_dup_text_at (BL_ALLOC_HISTOGRAM (widget), x, y);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* ---- the object ------------------------------------------------------------ */

static void
bl_alloc_histogram_dispose (GObject *object)
{
  BlAllocHistogram *self = BL_ALLOC_HISTOGRAM (object);

  g_clear_object (&self->profile);

  G_OBJECT_CLASS (bl_alloc_histogram_parent_class)->dispose (object);
}

static void
bl_alloc_histogram_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  BlAllocHistogram *self = BL_ALLOC_HISTOGRAM (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      g_value_set_object (value, self->profile);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_alloc_histogram_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  BlAllocHistogram *self = BL_ALLOC_HISTOGRAM (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      bl_alloc_histogram_set_profile (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_alloc_histogram_class_init (BlAllocHistogramClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_alloc_histogram_dispose;
  object_class->get_property = bl_alloc_histogram_get_property;
  object_class->set_property = bl_alloc_histogram_set_property;
  widget_class->snapshot = bl_alloc_histogram_snapshot;
  widget_class->measure = bl_alloc_histogram_measure;
  widget_class->css_changed = bl_alloc_histogram_css_changed;
  widget_class->query_tooltip = bl_alloc_histogram_query_tooltip;

  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL, BL_TYPE_PROFILE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "allochistogram");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
bl_alloc_histogram_init (BlAllocHistogram *self)
{
  self->fg = (GdkRGBA) { 0, 0, 0, 1 };
  self->accent = (GdkRGBA) { 0.21, 0.52, 0.89, 1 };
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
}

/* ---- public API ------------------------------------------------------------ */

GtkWidget *
bl_alloc_histogram_new (void)
{
  return g_object_new (BL_TYPE_ALLOC_HISTOGRAM, NULL);
}

BlProfile *
bl_alloc_histogram_get_profile (BlAllocHistogram *self)
{
  g_return_val_if_fail (BL_IS_ALLOC_HISTOGRAM (self), NULL);

  return self->profile;
}

void
bl_alloc_histogram_set_profile (BlAllocHistogram *self,
                                BlProfile        *profile)
{
  g_return_if_fail (BL_IS_ALLOC_HISTOGRAM (self));
  g_return_if_fail (!profile || BL_IS_PROFILE (profile));

  if (!g_set_object (&self->profile, profile))
    return;

  build_classes (self);
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
}

gboolean
bl_alloc_histogram_has_data (BlAllocHistogram *self)
{
  g_return_val_if_fail (BL_IS_ALLOC_HISTOGRAM (self), FALSE);

  return self->n_classes > 0;
}

const BlAllocSizeClass *
bl_alloc_histogram_get_classes (BlAllocHistogram *self,
                                guint            *n_classes)
{
  g_return_val_if_fail (BL_IS_ALLOC_HISTOGRAM (self), NULL);

  if (n_classes != NULL)
    *n_classes = self->n_classes;
  return self->classes;
}

gboolean
bl_alloc_histogram_get_bar (BlAllocHistogram *self,
                            guint             i,
                            graphene_rect_t  *rect)
{
  graphene_rect_t area;
  double slot, scale, h;

  g_return_val_if_fail (BL_IS_ALLOC_HISTOGRAM (self), FALSE);
  g_return_val_if_fail (rect != NULL, FALSE);

  if (i >= self->n_classes)
    return FALSE;
  plot_area (self, &area);
  slot = area.size.width / self->n_classes;
  scale = nice_ceiling ((double) self->max_count);
  h = (double) self->classes[i].alloc_count / scale * area.size.height;
  graphene_rect_init (rect, area.origin.x + slot * i + slot * 0.15, area.origin.y +
                      area.size.height - h, MAX (slot * 0.45, 1), h);
  return TRUE;
}

int
bl_alloc_histogram_bar_at (BlAllocHistogram *self,
                           double            x,
                           double            y)
{
  graphene_rect_t area;
  int i;

  g_return_val_if_fail (BL_IS_ALLOC_HISTOGRAM (self), -1);

  plot_area (self, &area);
  if (self->n_classes == 0 || x < area.origin.x || x >= area.origin.x + area.size.width ||
      y < area.origin.y || y > area.origin.y + area.size.height)
    return -1;
  i = (int) floor ((x - area.origin.x) / (area.size.width / self->n_classes));
  return CLAMP (i, 0, (int) self->n_classes - 1);
}

/**
 * bl_alloc_histogram_dup_text_at:
 *
 * Returns: (transfer full) (nullable): the tooltip at (@x, @y)
 */
char *
bl_alloc_histogram_dup_text_at (BlAllocHistogram *self,
                                double            x,
                                double            y)
{
  int i = bl_alloc_histogram_bar_at (self, x, y);
  const BlAllocSizeClass *c;
  g_autofree char *label = NULL;
  g_autofree char *alloc_bytes = NULL;
  g_autofree char *free_bytes = NULL;

  if (i < 0)
    return NULL;
  c = &self->classes[i];
  label = class_label (c);
  alloc_bytes = g_format_size_full (c->alloc_bytes, G_FORMAT_SIZE_IEC_UNITS);
  free_bytes = g_format_size_full (c->free_bytes, G_FORMAT_SIZE_IEC_UNITS);

  /* Translators: a bar of the allocation-size histogram */
  return g_strdup_printf (_("%s bytes: %" PRIu64 " allocations (%s), %" PRIu64 " frees (%s)"),
                          label, c->alloc_count, alloc_bytes, c->free_count, free_bytes);
}
