/* bl-value-cell.c — a value, its heat bar and its share in one widget
 *
 * Laid out as the box it replaces was: the value right-aligned in the
 * room left over, then (when there is a share) a 40-pixel heat bar, then
 * the share in at least six characters, dimmed; 6 pixels between them.
 * Colours come from the style: the text colour, the trough in it at 10 %,
 * the filled part in @bl_flame_heat_hot, the share at 55 % as .dim-label.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-value-cell"

#include "config.h"

#include "bl-value-cell.h"

#define BAR_HEIGHT   6
#define BAR_RADIUS   2
#define PCT_CHARS    6
#define DIM_ALPHA    0.55
#define TROUGH_ALPHA 0.1

struct _BlValueCell
{
  GtkWidget    parent_instance;

  PangoLayout *value_layout;
  PangoLayout *pct_layout;
  char        *value;
  char        *percent;
  double       share;      /* < 0: no bar */
  int          pct_min;    /* six characters, in pixels; -1: not known yet */
  GdkRGBA      fg;
  GdkRGBA      heat;
};

G_DEFINE_FINAL_TYPE (BlValueCell, bl_value_cell, GTK_TYPE_WIDGET)

static PangoLayout *
make_layout (BlValueCell *self)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  PangoAttrList *attrs = pango_attr_list_new ();

  /* figures of one width, so that columns of numbers line up */
  pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum=1"));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);

  return layout;
}

/* Six characters of the widget's font, in pixels. Font metrics cost a
 * font lookup: the last font's width is kept (every cell of a table has
 * the same font). Main thread only, as widgets are. */
static int
six_chars_width (BlValueCell *self)
{
  static PangoFontDescription *last_font;
  static int last_width;
  PangoContext *context = gtk_widget_get_pango_context (GTK_WIDGET (self));
  const PangoFontDescription *font = pango_context_get_font_description (context);
  PangoFontMetrics *metrics;
  int char_width, digit_width;

  if (last_font != NULL && font != NULL && pango_font_description_equal (last_font, font))
    return last_width;

  metrics = pango_context_get_metrics (context, font, NULL);
  char_width = pango_font_metrics_get_approximate_char_width (metrics);
  digit_width = pango_font_metrics_get_approximate_digit_width (metrics);
  pango_font_metrics_unref (metrics);

  g_clear_pointer (&last_font, pango_font_description_free);
  if (font != NULL)
    last_font = pango_font_description_copy (font);
  last_width = PANGO_PIXELS_CEIL (MAX (char_width, digit_width) * PCT_CHARS);

  return last_width;
}

static void
update_style (BlValueCell *self)
{
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));

  gtk_style_context_get_color (context, &self->fg);
  if (!gtk_style_context_lookup_color (context, "bl_flame_heat_hot", &self->heat))
    self->heat = (GdkRGBA) { 0.91, 0.38, 0.13, 1 };

  /* the font may have changed: the layouts follow the widget's context */
  pango_layout_context_changed (self->value_layout);
  pango_layout_context_changed (self->pct_layout);
  self->pct_min = -1;
}

static gboolean
has_bar (BlValueCell *self)
{
  return self->share >= 0;
}

static int
pct_width (BlValueCell *self)
{
  int w;

  pango_layout_get_pixel_size (self->pct_layout, &w, NULL);
  if (self->pct_min < 0)
    self->pct_min = six_chars_width (self);

  return MAX (w, self->pct_min);
}

/* what follows the value: spacing, bar, spacing, share */
static int
tail_width (BlValueCell *self)
{
  return BL_VALUE_CELL_SPACING +
         (has_bar (self) ? BL_VALUE_CELL_BAR_WIDTH + BL_VALUE_CELL_SPACING : 0) +
         pct_width (self);
}

static void
bl_value_cell_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  BlValueCell *self = BL_VALUE_CELL (widget);
  int vw, vh, pw, ph;

  pango_layout_get_pixel_size (self->value_layout, &vw, &vh);
  pango_layout_get_pixel_size (self->pct_layout, &pw, &ph);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = vw + tail_width (self);
  else
    {
      /* an empty layout still has the line's height */
      *minimum = *natural = MAX (MAX (vh, ph), BAR_HEIGHT);
    }
}

/* x of a span of @w pixels that starts at @x in left-to-right order */
static float
flip (GtkWidget *widget,
      float      x,
      float      w)
{
  if (gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL)
    return gtk_widget_get_width (widget) - x - w;

  return x;
}

static void
bl_value_cell_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  BlValueCell *self = BL_VALUE_CELL (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  int vw, vh, pw, ph;
  int pct_w = pct_width (self);
  float x;
  GdkRGBA dim = self->fg;

  pango_layout_get_pixel_size (self->value_layout, &vw, &vh);
  pango_layout_get_pixel_size (self->pct_layout, &pw, &ph);

  /* the value, right-aligned before the tail */
  x = width - tail_width (self) - vw;
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (flip (widget, x, vw),
                                                          (height - vh) / 2));
  gtk_snapshot_append_layout (snapshot, self->value_layout, &self->fg);
  gtk_snapshot_restore (snapshot);

  if (has_bar (self))
    {
      float bx = width - pct_w - BL_VALUE_CELL_SPACING - BL_VALUE_CELL_BAR_WIDTH;
      float by = (height - BAR_HEIGHT) / 2.f;
      float filled = (float) (self->share * BL_VALUE_CELL_BAR_WIDTH);
      GskRoundedRect trough;
      GdkRGBA tint = self->fg;

      gsk_rounded_rect_init_from_rect (&trough,
                                       &GRAPHENE_RECT_INIT (flip (widget, bx,
                                                                  BL_VALUE_CELL_BAR_WIDTH),
                                                            by, BL_VALUE_CELL_BAR_WIDTH,
                                                            BAR_HEIGHT),
                                       BAR_RADIUS);
      tint.alpha *= TROUGH_ALPHA;
      gtk_snapshot_push_rounded_clip (snapshot, &trough);
      gtk_snapshot_append_color (snapshot, &tint, &trough.bounds);
      if (filled > 0)
        gtk_snapshot_append_color (snapshot, &self->heat,
                                   &GRAPHENE_RECT_INIT (flip (widget, bx, filled), by,
                                                        filled, BAR_HEIGHT));
      gtk_snapshot_pop (snapshot);
    }

  /* the share, right-aligned in its six characters, dimmed */
  dim.alpha *= DIM_ALPHA;
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (flip (widget, width - pw, pw),
                                                          (height - ph) / 2));
  gtk_snapshot_append_layout (snapshot, self->pct_layout, &dim);
  gtk_snapshot_restore (snapshot);
}

static void
bl_value_cell_css_changed (GtkWidget         *widget,
                           GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (bl_value_cell_parent_class)->css_changed (widget, change);

  update_style (BL_VALUE_CELL (widget));
  gtk_widget_queue_resize (widget);
}

static void
bl_value_cell_direction_changed (GtkWidget        *widget,
                                 GtkTextDirection  previous)
{
  GTK_WIDGET_CLASS (bl_value_cell_parent_class)->direction_changed (widget, previous);
  gtk_widget_queue_draw (widget);
}

static void
bl_value_cell_finalize (GObject *object)
{
  BlValueCell *self = (BlValueCell *) object;

  g_clear_object (&self->value_layout);
  g_clear_object (&self->pct_layout);
  g_free (self->value);
  g_free (self->percent);

  G_OBJECT_CLASS (bl_value_cell_parent_class)->finalize (object);
}

static void
bl_value_cell_class_init (BlValueCellClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = bl_value_cell_finalize;
  widget_class->measure = bl_value_cell_measure;
  widget_class->snapshot = bl_value_cell_snapshot;
  widget_class->css_changed = bl_value_cell_css_changed;
  widget_class->direction_changed = bl_value_cell_direction_changed;

  gtk_widget_class_set_css_name (widget_class, "bl-value-cell");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LABEL);
}

static void
bl_value_cell_init (BlValueCell *self)
{
  self->value = g_strdup ("");
  self->percent = g_strdup ("");
  self->share = -1;
  self->value_layout = make_layout (self);
  self->pct_layout = make_layout (self);
  gtk_widget_add_css_class (GTK_WIDGET (self), "numeric");
  update_style (self);
}

GtkWidget *
bl_value_cell_new (void)
{
  return g_object_new (BL_TYPE_VALUE_CELL, NULL);
}

void
bl_value_cell_set (BlValueCell *self,
                   const char  *value,
                   const char  *percent,
                   double       share)
{
  gboolean had_bar;
  gboolean text_changed;

  g_return_if_fail (BL_IS_VALUE_CELL (self));

  if (value == NULL)
    value = "";
  if (percent == NULL)
    percent = "";
  had_bar = has_bar (self);
  text_changed = g_strcmp0 (value, self->value) != 0 || g_strcmp0 (percent, self->percent) != 0;

  if (text_changed)
    {
      g_autofree char *label = NULL;

      g_free (self->value);
      g_free (self->percent);
      self->value = g_strdup (value);
      self->percent = g_strdup (percent);
      pango_layout_set_text (self->value_layout, self->value, -1);
      pango_layout_set_text (self->pct_layout, self->percent, -1);

      label = percent[0] != '\0' ? g_strdup_printf ("%s, %s", value, percent) : g_strdup (value);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
    }

  self->share = share < 0 ? -1 : CLAMP (share, 0.0, 1.0);

  if (text_changed || had_bar != has_bar (self))
    gtk_widget_queue_resize (GTK_WIDGET (self));
  else
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

const char *
bl_value_cell_get_value (BlValueCell *self)
{
  g_return_val_if_fail (BL_IS_VALUE_CELL (self), NULL);

  return self->value;
}

const char *
bl_value_cell_get_percent (BlValueCell *self)
{
  g_return_val_if_fail (BL_IS_VALUE_CELL (self), NULL);

  return self->percent;
}

/**
 * bl_value_cell_get_share:
 *
 * Returns: the share the bar shows (0…1), or -1 when it shows none
 */
double
bl_value_cell_get_share (BlValueCell *self)
{
  g_return_val_if_fail (BL_IS_VALUE_CELL (self), -1);

  return self->share;
}
