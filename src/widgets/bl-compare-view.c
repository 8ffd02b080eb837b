/* bl-compare-view.c
 *
 * Two profiles: their flame graphs side by side, kept in step (a zoom or a
 * selection on one side goes to the same stack on the other, or to its
 * nearest ancestor that side has; the search applies to both); a
 * differential flame graph in B's shape (or A's) coloured by the change of
 * each frame's total against A; and the functions of both with their
 * values, the change and a filter for regressions. A normalized mode
 * compares shares of each run's total.
 *
 * A thread selector narrows everything to the thread of one name (threads
 * of A and B are matched by name, as the diff matches stacks); a side that
 * did not record that thread says so instead of drawing a graph.
 *
 * Two sessions: the summary figures side by side with the change, and each
 * chart with A and B on one time axis, aligned at session start or at a
 * beacon both have, overlaid or stacked.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-compare-view"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "bl-compare-view.h"
#include "bl-flame-text.h"

/* ---- rows of the function table ----------------------------------------- */

#define BL_TYPE_COMPARE_ROW (bl_compare_row_get_type ())

G_DECLARE_FINAL_TYPE (BlCompareRow, bl_compare_row, BL, COMPARE_ROW, GObject)

struct _BlCompareRow
{
  GObject       parent_instance;

  guint32       function;
  const char   *name;     /* owned by the diff */
  const char   *file;
  BlDiffChange  self_change;
  BlDiffChange  total_change;
  BlDiffKind    kind;     /* of the total's change */
};

G_DEFINE_FINAL_TYPE (BlCompareRow, bl_compare_row, G_TYPE_OBJECT)

static void
bl_compare_row_class_init (BlCompareRowClass *klass)
{
}

static void
bl_compare_row_init (BlCompareRow *self)
{
}

typedef enum
{
  SWATCH_GREW,
  SWATCH_SHRANK,
  SWATCH_ONLY_B,
  SWATCH_ONLY_A,
  SWATCH_NEUTRAL,
  SWATCH_A,
  SWATCH_B,
  N_SWATCHES
} Swatch;

typedef enum
{
  COL_NAME,
  COL_FILE,
  COL_A_SELF,
  COL_B_SELF,
  COL_A_TOTAL,
  COL_B_TOTAL,
  COL_DELTA_SELF,
  COL_DELTA_TOTAL,
  COL_DELTA_PCT,
  COL_SIZE,         /* |Δ total|: the size of the change */
  COL_KIND,
  N_COLUMNS
} Column;

/* ---- the view ----------------------------------------------------------- */

static const BlSeriesId chart_series[] = {
  BL_SERIES_MEMORY_USED,
  BL_SERIES_CPU_TOTAL,
  BL_SERIES_FPS,
  BL_SERIES_NODES_TOTAL,
  BL_SERIES_GRAPHICS_TEXTURE,
  BL_SERIES_RENDEZVOUS_COUNT,
  BL_SERIES_REGISTRY_USED,
  BL_SERIES_BS_OBJECTS_COUNT,
};

struct _BlCompareView
{
  GtkWidget          parent_instance;

  BlDiff            *diff;
  char              *titles[2];
  BlMetricId         metric;
  BlMetricId         metrics[BL_N_METRICS];
  guint              n_metrics;
  gboolean           normalized;
  double             threshold_pct;     /* BL_DIFF_THRESHOLD_AUTO: from the data */
  gboolean           regressions_only;
  BlDiffSide         shape;
  char              *search;
  gboolean           syncing;
  gboolean           updating;

  GdkRGBA            grew;
  GdkRGBA            shrank;
  GdkRGBA            only_b;
  GdkRGBA            only_a;
  GdkRGBA            neutral;
  GdkRGBA            side_colors[2];
  GtkLabel          *swatches[N_SWATCHES];

  GtkStack          *mode_stack;

  /* profiles */
  GtkDropDown       *thread_dropdown;
  GtkStringList     *thread_names;
  char              *thread;            /* the thread name shown, NULL for all */
  GtkStack          *graph_stacks[3];
  AdwStatusPage     *missing_pages[3];
  GtkDropDown       *metric_dropdown;
  GtkToggleButton   *normalized_button;
  GtkToggleButton   *absolute_button;
  GtkLabel          *summary_label;
  GtkSpinButton     *threshold_spin;
  GtkToggleButton   *auto_threshold_button;
  GtkLabel          *baseline_label;
  GtkSearchEntry    *search_entry;
  GtkStack          *profile_stack;
  GtkPaned          *graphs_paned;     /* the graphs above the function table */
  gboolean           graphs_fitted;
  GtkLabel          *side_labels[2];
  BlFlameGraph      *graphs[3];
  GtkToggleButton   *shape_button;
  GtkBox            *legend;
  GtkCheckButton    *regressions_check;
  GtkColumnView     *column_view;
  GtkColumnViewColumn *columns[N_COLUMNS];
  GListStore        *rows;
  GtkCustomFilter   *filter;
  GtkFilterListModel *filter_model;
  GtkSortListModel  *sort_model;

  /* sessions */
  GtkDropDown       *align_dropdown;
  GtkStringList     *align_names;
  GtkToggleButton   *stacked_button;
  GtkGrid           *summary_grid;
  GtkBox            *chart_box;
  BlTimeAxis        *session_axis;   /* aligned times: every chart's zoom and pan */
  BlCompareChart    *charts[G_N_ELEMENTS (chart_series)];
};

enum {
  PROP_0,
  PROP_DIFF,
  PROP_METRIC,
  PROP_NORMALIZED,
  PROP_DIFF_SHAPE,
  PROP_REGRESSIONS_ONLY,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (BlCompareView, bl_compare_view, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

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
update_colors (BlCompareView *self)
{
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));
  GdkRGBA fg, bg;

  gtk_style_context_get_color (context, &fg);
  if (!gtk_style_context_lookup_color (context, "window_bg_color", &bg))
    gdk_rgba_parse (&bg, "#ffffff");
  if (!gtk_style_context_lookup_color (context, "bl_diff_grew", &self->grew))
    gdk_rgba_parse (&self->grew, "#e01b24");
  if (!gtk_style_context_lookup_color (context, "bl_diff_shrank", &self->shrank))
    gdk_rgba_parse (&self->shrank, "#1c71d8");
  if (!gtk_style_context_lookup_color (context, "bl_diff_only_b", &self->only_b))
    gdk_rgba_parse (&self->only_b, "#9141ac");
  if (!gtk_style_context_lookup_color (context, "bl_diff_only_a", &self->only_a))
    gdk_rgba_parse (&self->only_a, "#865e3c");
  if (!gtk_style_context_lookup_color (context, "bl_compare_a", &self->side_colors[0]))
    gdk_rgba_parse (&self->side_colors[0], "#1c71d8");
  if (!gtk_style_context_lookup_color (context, "bl_compare_b", &self->side_colors[1]))
    gdk_rgba_parse (&self->side_colors[1], "#e66100");
  mix (&self->neutral, &bg, &fg, 0.16);

  for (guint i = 0; i < N_SWATCHES; i++)
    {
      const GdkRGBA *colors[N_SWATCHES] = {
        &self->grew, &self->shrank, &self->only_b, &self->only_a, &self->neutral,
        &self->side_colors[0], &self->side_colors[1],
      };
      g_autofree char *markup = NULL;

      if (self->swatches[i] == NULL)
        continue;
      markup = g_strdup_printf ("<span foreground=\"#%02x%02x%02x\">%s</span>",
                                (guint) (colors[i]->red * 255 + 0.5),
                                (guint) (colors[i]->green * 255 + 0.5),
                                (guint) (colors[i]->blue * 255 + 0.5),
                                i == SWATCH_ONLY_B ? "▨" : i == SWATCH_ONLY_A ? "▧" : "■");
      gtk_label_set_markup (self->swatches[i], markup);
    }
}

static BlDiffSide
graph_side (BlCompareView *self,
            guint          graph)
{
  if (graph == BL_COMPARE_GRAPH_A)
    return BL_DIFF_SIDE_A;
  if (graph == BL_COMPARE_GRAPH_B)
    return BL_DIFF_SIDE_B;

  return self->shape;
}

static gboolean
is_profile_diff (BlCompareView *self)
{
  return self->diff != NULL && !bl_diff_is_session (self->diff);
}

/* The node of @to's profile for @node of @from's profile: the same stack,
 * or its nearest ancestor that @to has. */
static guint32
map_node (BlCompareView *self,
          BlDiffSide     from,
          guint32        node,
          BlDiffSide     to)
{
  guint32 d = bl_diff_node_from_profile (self->diff, from, node);

  while (d != BL_NODE_NONE)
    {
      guint32 p = bl_diff_node_to_profile (self->diff, to, d);

      if (p != BL_NODE_NONE)
        return p;
      d = bl_diff_get_node (self->diff, d)->parent;
    }

  return BL_NODE_NONE;
}

/* ---- threads ------------------------------------------------------------ */

/* The first thread of @side's profile named @name, or G_MAXUINT. */
static guint
find_thread (BlCompareView *self,
             BlDiffSide     side,
             const char    *name)
{
  BlProfile *profile = bl_diff_get_profile (self->diff, side);

  for (guint t = 0; t < bl_profile_get_n_threads (profile); t++)
    if (g_strcmp0 (bl_profile_get_thread_name (profile, t), name) == 0)
      return t;

  return G_MAXUINT;
}

/* Shows the chosen thread in graph @g, or says that its side did not
 * record that thread. */
static void
update_graph_thread (BlCompareView *self,
                     guint          g)
{
  BlDiffSide side = graph_side (self, g);
  guint thread = BL_FLAME_ALL_THREADS;
  g_autofree char *title = NULL;
  const char *description;

  if (self->thread != NULL)
    thread = find_thread (self, side, self->thread);

  if (thread != G_MAXUINT || self->thread == NULL)
    {
      bl_flame_graph_set_thread (self->graphs[g], thread);
      gtk_stack_set_visible_child_name (self->graph_stacks[g], "graph");
      return;
    }

  /* Translators: the empty state of a flame graph; the first %s is a
   * thread name, the second "A" or "B" */
  title = g_strdup_printf (_("No Thread “%s” in %s"), self->thread,
                           side == BL_DIFF_SIDE_A ? _("A") : _("B"));
  if (g == BL_COMPARE_GRAPH_DIFF)
    description = side == BL_DIFF_SIDE_B
      ? _("Only A recorded this thread: draw A’s shape to see what went away.")
      : _("Only B recorded this thread: turn off A’s shape to see what is new.");
  else
    description = side == BL_DIFF_SIDE_B
      ? _("Only A recorded this thread.")
      : _("Only B recorded this thread.");
  adw_status_page_set_title (self->missing_pages[g], title);
  adw_status_page_set_description (self->missing_pages[g], description);
  bl_flame_graph_set_thread (self->graphs[g], BL_FLAME_ALL_THREADS);
  gtk_stack_set_visible_child_name (self->graph_stacks[g], "missing");
}

static void
update_graph_threads (BlCompareView *self)
{
  if (!is_profile_diff (self))
    return;

  self->syncing = TRUE;
  for (guint g = 0; g < 3; g++)
    update_graph_thread (self, g);
  self->syncing = FALSE;
}

/* The self and total values of each of the diff's functions in the chosen
 * thread of @side (every thread of that name), totals not counting
 * recursion twice, as the profile's own function view. */
static void
add_thread_function_values (BlCompareView *self,
                            BlDiffSide     side,
                            guint64       *function_self,
                            guint64       *function_total)
{
  BlProfile *profile = bl_diff_get_profile (self->diff, side);
  guint n_functions = bl_profile_get_n_functions (profile);
  guint n_threads = bl_profile_get_n_threads (profile);
  const BlNode *nodes = bl_profile_get_nodes (profile);
  g_autofree guint32 *map = NULL;
  g_autofree gboolean *chosen = NULL;

  if (!bl_diff_side_has_metric (self->diff, side, self->metric) || n_functions == 0)
    return;

  /* the profile's functions to the diff's */
  map = g_new (guint32, n_functions);
  for (guint i = 0; i < n_functions; i++)
    map[i] = BL_NODE_NONE;
  for (guint32 f = 0; f < bl_diff_get_n_functions (self->diff); f++)
    {
      guint32 pf = bl_diff_get_function (self->diff, f)->function[side];

      if (pf < n_functions)
        map[pf] = f;
    }

  chosen = g_new0 (gboolean, MAX (n_threads, 1));
  for (guint t = 0; t < n_threads; t++)
    chosen[t] = g_strcmp0 (bl_profile_get_thread_name (profile, t), self->thread) == 0;

  for (guint32 n = 0; n < bl_profile_get_n_nodes (profile); n++)
    {
      guint32 f;

      if (!chosen[nodes[n].thread])
        continue;
      if ((f = map[bl_profile_get_node_function (profile, n)]) == BL_NODE_NONE)
        continue;
      function_self[f] += bl_profile_get_self (profile, self->metric, n);
      if (bl_profile_is_outermost (profile, n))
        function_total[f] += bl_profile_get_total (profile, self->metric, n);
    }
}

/* ---- the noise threshold and the summary -------------------------------- */

static void
threshold_of (BlCompareView   *self,
              BlDiffThreshold *threshold)
{
  threshold->normalized = self->normalized;
  threshold->pct = self->threshold_pct;
  threshold->min_change = 0.0;
}

/* The summary sentence, and the threshold in the spin button when it is
 * chosen from the data. */
static void
update_summary (BlCompareView *self)
{
  BlDiffThreshold threshold;
  BlDiffSummary summary;
  g_autofree char *text = NULL;
  g_autofree char *threshold_text = NULL;
  g_autofree char *tooltip = NULL;
  gboolean was_updating;

  if (!is_profile_diff (self) || self->metric == BL_METRIC_INVALID)
    {
      gtk_label_set_text (self->summary_label, "");
      return;
    }

  threshold_of (self, &threshold);
  bl_diff_summarize (self->diff, self->metric, &threshold, &summary);
  if (self->thread != NULL)
    {
      /* one thread: the same sentence over the rows, which hold that
       * thread's values (the threshold stays a share of the whole run) */
      GListModel *rows = G_LIST_MODEL (self->rows);
      BlDiffThreshold resolved = summary.threshold;

      memset (&summary, 0, sizeof summary);
      summary.metric = self->metric;
      summary.threshold = resolved;
      for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
        {
          g_autoptr(BlCompareRow) row = g_list_model_get_item (rows, i);
          BlDiffKind kind;

          kind = bl_diff_classify_presence (self->diff, self->metric, &row->self_change,
                                            row->total_change.a > 0, row->total_change.b > 0,
                                            &resolved);
          bl_diff_summary_add (&summary, row->function, kind, row->self_change.delta);
        }
    }
  text = bl_diff_summary_to_string (self->diff, &summary);
  threshold_text = bl_diff_threshold_to_string (self->diff, self->metric, &threshold);
  gtk_label_set_text (self->summary_label, text);
  /* Translators: the tooltip of the summary: the sentence, then
   * "Noise threshold: 1.0 % of the total (automatic)" */
  tooltip = g_strdup_printf (_("%s\nNoise threshold: %s"), text, threshold_text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->summary_label), tooltip);

  was_updating = self->updating;
  self->updating = TRUE;
  gtk_spin_button_set_value (self->threshold_spin, summary.threshold.pct);
  gtk_toggle_button_set_active (self->auto_threshold_button,
                                self->threshold_pct == BL_DIFF_THRESHOLD_AUTO);
  self->updating = was_updating;
}

static void
update_baseline (BlCompareView *self)
{
  g_autofree char *text = NULL;

  /* Translators: in the legend of the differential flame graph; %s is the
   * first file's name */
  text = g_strdup_printf (_("Baseline: A (%s); colours show B against it"),
                          self->titles[0] != NULL ? self->titles[0] : "");
  gtk_label_set_text (self->baseline_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->baseline_label), text);
}

/* ---- formatting --------------------------------------------------------- */

static char *
format_value (BlCompareView *self,
              double         value,
              gboolean       signed_value)
{
  g_autofree char *text = NULL;
  const char *sign = "";

  if (signed_value)
    sign = value > 0 ? "+" : value < 0 ? "−" : "±";

  if (self->normalized)
    {
      if (signed_value)
        /* Translators: a change of a share, in percentage points */
        return g_strdup_printf (_("%s%.2f pp"), sign, fabs (value) * 100.0);
      return g_strdup_printf (_("%.2f %%"), value * 100.0);
    }

  if (self->metric == BL_METRIC_INVALID || self->diff == NULL)
    return g_strdup ("—");

  /* the metric's unit with the decimals of the finer side */
  text = bl_diff_format_value (self->diff, self->metric, fabs (value), FALSE, FALSE);

  return g_strdup_printf ("%s%s", sign, text);
}

static char *
format_pct (double pct)
{
  if (isnan (pct))
    return g_strdup ("—");
  if (isinf (pct))
    /* Translators: the change of something only B has */
    return g_strdup (_("new"));

  return g_strdup_printf (_("%s%.1f %%"), pct > 0 ? "+" : pct < 0 ? "−" : "±", fabs (pct));
}

/* ---- the differential colours and tooltips ------------------------------ */

void
bl_compare_view_get_change_color (BlCompareView *self,
                                  guint32        diff_node,
                                  GdkRGBA       *color)
{
  BlDiffThreshold threshold;
  BlDiffChange change;
  double r, t;

  g_return_if_fail (BL_IS_COMPARE_VIEW (self));
  g_return_if_fail (color != NULL);

  *color = self->neutral;
  if (!is_profile_diff (self) || diff_node >= bl_diff_get_n_nodes (self->diff))
    return;

  threshold_of (self, &threshold);
  switch (bl_diff_get_node_kind (self->diff, self->metric, diff_node, TRUE, &threshold))
    {
    case BL_DIFF_KIND_NEW:
      *color = self->only_b;
      return;
    case BL_DIFF_KIND_REMOVED:
      *color = self->only_a;
      return;
    case BL_DIFF_KIND_NEUTRAL:
      return;
    case BL_DIFF_KIND_GROWN:
    case BL_DIFF_KIND_SHRUNK:
    case BL_N_DIFF_KINDS:
    default:
      break;
    }

  /* grown or shrunk beyond the noise threshold: stronger the larger the
   * relative change, a square root so that a 5 % change is already visible */
  bl_diff_get_node_change (self->diff, self->metric, diff_node, TRUE, self->normalized, &change);
  r = isinf (change.delta_pct) ? 1.0 : change.delta_pct / 100.0;
  t = MIN (fabs (r), 1.0);
  mix (color, &self->neutral, r > 0 ? &self->grew : &self->shrank, 0.25 + 0.75 * sqrt (t));
}

static gboolean
diff_color_func (BlFlameGraph *graph,
                 guint32       node,
                 GdkRGBA      *color,
                 gpointer      user_data)
{
  BlCompareView *self = user_data;
  guint32 d;

  if (!is_profile_diff (self))
    return FALSE;

  d = bl_diff_node_from_profile (self->diff, self->shape, node);
  if (d == BL_NODE_NONE)
    return FALSE;

  bl_compare_view_get_change_color (self, d, color);

  return TRUE;
}

/* New stacks hatched like "/", removed ones like "\": a cue that does not
 * depend on telling hues apart (the legend's swatches show the same). */
static BlFlameMark
diff_mark_func (BlFlameGraph *graph,
                guint32       node,
                gpointer      user_data)
{
  BlCompareView *self = user_data;
  BlDiffThreshold threshold;
  guint32 d;

  if (!is_profile_diff (self))
    return BL_FLAME_MARK_NONE;

  d = bl_diff_node_from_profile (self->diff, self->shape, node);
  if (d == BL_NODE_NONE)
    return BL_FLAME_MARK_NONE;

  threshold_of (self, &threshold);
  switch (bl_diff_get_node_kind (self->diff, self->metric, d, TRUE, &threshold))
    {
    case BL_DIFF_KIND_NEW:
      return BL_FLAME_MARK_HATCH_RISING;
    case BL_DIFF_KIND_REMOVED:
      return BL_FLAME_MARK_HATCH_FALLING;
    case BL_DIFF_KIND_NEUTRAL:
    case BL_DIFF_KIND_GROWN:
    case BL_DIFF_KIND_SHRUNK:
    case BL_N_DIFF_KINDS:
    default:
      return BL_FLAME_MARK_NONE;
    }
}

/* the same text as the SVG export's (bl-flame-text.c) */
static char *
tooltip_text (BlCompareView *self,
              BlDiffSide     side,
              guint32        node)
{
  g_autofree char *text = bl_flame_text_dup_diff_tooltip (self->diff, self->metric,
                                                           self->normalized, side, node);
  BlDiffThreshold threshold;
  guint32 d = bl_diff_node_from_profile (self->diff, side, node);

  if (text == NULL || d == BL_NODE_NONE)
    return g_steal_pointer (&text);

  /* and whether the change is noise, which only the window's threshold knows */
  threshold_of (self, &threshold);
  if (bl_diff_get_node (self->diff, d)->presence == BL_DIFF_IN_BOTH &&
      bl_diff_get_node_kind (self->diff, self->metric, d, TRUE, &threshold) ==
      BL_DIFF_KIND_NEUTRAL)
    return g_strdup_printf ("%s\n%s", text,
                            _("Neutral: the change is inside the noise threshold."));

  return g_steal_pointer (&text);
}

static char *
graph_tooltip_func (BlFlameGraph *graph,
                    guint32       node,
                    gpointer      user_data)
{
  BlCompareView *self = user_data;

  if (!is_profile_diff (self))
    return NULL;

  for (guint g = 0; g < 3; g++)
    if (self->graphs[g] == graph)
      return tooltip_text (self, graph_side (self, g), node);

  return NULL;
}

/* ---- keeping the graphs in step ----------------------------------------- */

static guint
graph_index (BlCompareView *self,
             BlFlameGraph  *graph)
{
  for (guint g = 0; g < 3; g++)
    if (self->graphs[g] == graph)
      return g;

  return G_MAXUINT;
}

static void
zoom_changed_cb (BlCompareView *self,
                 GParamSpec    *pspec,
                 BlFlameGraph  *source)
{
  guint from = graph_index (self, source);
  guint32 node;

  if (self->syncing || !is_profile_diff (self) || from == G_MAXUINT)
    return;

  node = bl_flame_graph_get_zoom_node (source);
  self->syncing = TRUE;
  for (guint g = 0; g < 3; g++)
    {
      guint32 target;

      if (g == from)
        continue;
      target = node == BL_NODE_NONE
        ? BL_NODE_NONE
        : map_node (self, graph_side (self, from), node, graph_side (self, g));
      if (target == BL_NODE_NONE)
        bl_flame_graph_reset_zoom (self->graphs[g]);
      else if (target != bl_flame_graph_get_zoom_node (self->graphs[g]))
        bl_flame_graph_zoom_to_node (self->graphs[g], target, TRUE);
    }
  self->syncing = FALSE;
}

static void
selection_changed_cb (BlCompareView *self,
                      GParamSpec    *pspec,
                      BlFlameGraph  *source)
{
  guint from = graph_index (self, source);
  guint32 node;

  if (self->syncing || !is_profile_diff (self) || from == G_MAXUINT)
    return;

  node = bl_flame_graph_get_selected_node (source);
  self->syncing = TRUE;
  for (guint g = 0; g < 3; g++)
    if (g != from)
      bl_flame_graph_set_selected_node (self->graphs[g],
                                        node == BL_NODE_NONE
                                        ? BL_NODE_NONE
                                        : map_node (self, graph_side (self, from), node,
                                                    graph_side (self, g)));
  self->syncing = FALSE;
}

/* ---- function table ----------------------------------------------------- */

static double
row_value (BlCompareRow *row,
           Column        column)
{
  switch (column)
    {
    case COL_A_SELF:
      return row->self_change.a;
    case COL_B_SELF:
      return row->self_change.b;
    case COL_A_TOTAL:
      return row->total_change.a;
    case COL_B_TOTAL:
      return row->total_change.b;
    case COL_DELTA_SELF:
      return row->self_change.delta;
    case COL_DELTA_TOTAL:
      return row->total_change.delta;
    case COL_DELTA_PCT:
      return row->total_change.delta_pct;
    case COL_SIZE:
      return fabs (row->total_change.delta);
    case COL_KIND:
      return row->kind;
    case COL_NAME:
    case COL_FILE:
    case N_COLUMNS:
    default:
      return 0;
    }
}

static char *
row_text (BlCompareView *self,
          BlCompareRow  *row,
          Column         column)
{
  switch (column)
    {
    case COL_NAME:
      return g_strdup (row->name);
    case COL_FILE:
      return row->file != NULL && *row->file != '\0'
        ? g_path_get_basename (row->file)
        : g_strdup ("");
    case COL_DELTA_SELF:
    case COL_DELTA_TOTAL:
      return format_value (self, row_value (row, column), TRUE);
    case COL_DELTA_PCT:
      return format_pct (row->total_change.delta_pct);
    case COL_SIZE:
      return format_value (self, row_value (row, column), FALSE);
    case COL_KIND:
      return g_strdup (_(bl_diff_kind_get_display_name (row->kind)));
    case COL_A_SELF:
    case COL_B_SELF:
    case COL_A_TOTAL:
    case COL_B_TOTAL:
      return format_value (self, row_value (row, column), FALSE);
    case N_COLUMNS:
    default:
      return NULL;
    }
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  BlCompareRow *ra = (BlCompareRow *) a;
  BlCompareRow *rb = (BlCompareRow *) b;
  Column column = GPOINTER_TO_INT (user_data);
  double va, vb;

  if (column == COL_NAME || column == COL_FILE)
    {
      int ret = column == COL_NAME
        ? g_utf8_collate (ra->name, rb->name)
        : g_strcmp0 (ra->file, rb->file);

      return ret < 0 ? GTK_ORDERING_SMALLER : ret > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
    }

  va = row_value (ra, column);
  vb = row_value (rb, column);
  if (va < vb)
    return GTK_ORDERING_SMALLER;
  if (va > vb)
    return GTK_ORDERING_LARGER;
  if (column == COL_KIND)
    {
      /* within a class, by the size of the change */
      va = row_value (ra, COL_SIZE);
      vb = row_value (rb, COL_SIZE);
      if (va != vb)
        return va < vb ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
    }

  return ra->function < rb->function ? GTK_ORDERING_SMALLER
       : ra->function > rb->function ? GTK_ORDERING_LARGER
       : GTK_ORDERING_EQUAL;
}

static gboolean
filter_row (gpointer item,
            gpointer user_data)
{
  BlCompareView *self = user_data;
  BlCompareRow *row = item;

  if (self->regressions_only && row->kind != BL_DIFF_KIND_GROWN && row->kind != BL_DIFF_KIND_NEW)
    return FALSE;

  if (self->search != NULL && *self->search != '\0')
    {
      g_autofree char *name = g_utf8_casefold (row->name, -1);
      g_autofree char *needle = g_utf8_casefold (self->search, -1);

      if (strstr (name, needle) == NULL)
        return FALSE;
    }

  return TRUE;
}

/* The file, made into a tooltip when asked for: setting one on each bound
 * row asked the X server where the pointer was, for every row */
static gboolean
file_query_tooltip_cb (GtkWidget  *label,
                       int         x,
                       int         y,
                       gboolean    keyboard,
                       GtkTooltip *tooltip,
                       gpointer    user_data)
{
  BlCompareRow *row = g_object_get_data (G_OBJECT (label), "bl-compare-row");

  if (row == NULL || row->file == NULL || row->file[0] == '\0')
    return FALSE;
  gtk_tooltip_set_text (tooltip, row->file);

  return TRUE;
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  GtkWidget *label = gtk_inscription_new (NULL);

  if (column == COL_FILE)
    gtk_widget_add_css_class (label, "dim-label");
  else if (column != COL_NAME && column != COL_KIND)
    {
      gtk_inscription_set_xalign (GTK_INSCRIPTION (label), 1.0);
      gtk_widget_add_css_class (label, "numeric");
    }
  /* narrow minimums, so that all columns fit a 1000 px window: a longer
   * name or file is cut, and shown whole in the tooltip */
  gtk_inscription_set_min_chars (GTK_INSCRIPTION (label),
                                 column == COL_NAME ? 14 : column == COL_FILE ? 8
                                 : column == COL_KIND ? 7 : 8);
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (label),
                                 column == COL_NAME ? 30 : column == COL_FILE ? 16 : 10);
  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (label),
                                     GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  if (column == COL_NAME || column == COL_FILE)
    {
      gtk_widget_set_has_tooltip (label, TRUE);
      g_signal_connect (label, "query-tooltip", G_CALLBACK (file_query_tooltip_cb), NULL);
    }
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  GtkWidget *label = gtk_list_item_get_child (item);
  BlCompareRow *row = gtk_list_item_get_item (item);
  BlCompareView *self = g_object_get_data (G_OBJECT (factory), "bl-compare-view");
  g_autofree char *text = row_text (self, row, column);

  gtk_inscription_set_text (GTK_INSCRIPTION (label), text);
  gtk_widget_remove_css_class (label, "error");
  gtk_widget_remove_css_class (label, "success");
  if (column == COL_DELTA_SELF || column == COL_DELTA_TOTAL || column == COL_DELTA_PCT)
    {
      double v = column == COL_DELTA_SELF ? row->self_change.delta : row->total_change.delta;

      if (v > 0)
        gtk_widget_add_css_class (label, "error");
      else if (v < 0)
        gtk_widget_add_css_class (label, "success");
    }
  if (column == COL_KIND)
    {
      if (row->kind == BL_DIFF_KIND_GROWN || row->kind == BL_DIFF_KIND_NEW)
        gtk_widget_add_css_class (label, "error");
      else if (row->kind == BL_DIFF_KIND_SHRUNK || row->kind == BL_DIFF_KIND_REMOVED)
        gtk_widget_add_css_class (label, "success");
    }
  if (column == COL_NAME || column == COL_FILE)
    g_object_set_data_full (G_OBJECT (label), "bl-compare-row", g_object_ref (row),
                            g_object_unref);
}

static void
rebuild_rows (BlCompareView *self)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree guint64 *thread_values = NULL;
  guint n_functions = 0;
  BlDiffThreshold threshold;

  threshold_of (self, &threshold);

  /* one thread: the functions' values in that thread of each side */
  if (is_profile_diff (self) && self->metric != BL_METRIC_INVALID && self->thread != NULL)
    {
      n_functions = bl_diff_get_n_functions (self->diff);
      thread_values = g_new0 (guint64, 4 * (gsize) MAX (n_functions, 1));
      for (guint s = 0; s < 2; s++)
        add_thread_function_values (self, s, thread_values + 2 * s * n_functions,
                                    thread_values + (2 * s + 1) * n_functions);
    }

  if (is_profile_diff (self) && self->metric != BL_METRIC_INVALID)
    for (guint32 f = 0; f < bl_diff_get_n_functions (self->diff); f++)
      {
        BlCompareRow *row = g_object_new (BL_TYPE_COMPARE_ROW, NULL);

        row->function = f;
        row->name = bl_diff_get_function_name (self->diff, f);
        row->file = bl_diff_get_function_file (self->diff, f);
        if (thread_values != NULL)
          {
            const guint64 *v = thread_values;

            bl_diff_compute_change (self->diff, self->metric, v[f], v[2 * n_functions + f],
                                    self->normalized, &row->self_change);
            bl_diff_compute_change (self->diff, self->metric, v[n_functions + f],
                                    v[3 * n_functions + f], self->normalized,
                                    &row->total_change);
          }
        else
          {
            bl_diff_get_function_change (self->diff, self->metric, f, FALSE, self->normalized,
                                         &row->self_change);
            bl_diff_get_function_change (self->diff, self->metric, f, TRUE, self->normalized,
                                         &row->total_change);
          }
        if (row->total_change.a == 0 && row->total_change.b == 0 &&
            row->self_change.a == 0 && row->self_change.b == 0)
          {
            g_object_unref (row);
            continue;
          }
        row->kind = bl_diff_classify (self->diff, self->metric, &row->total_change, &threshold);
        g_ptr_array_add (items, row);
      }

  g_list_store_splice (self->rows, 0, g_list_model_get_n_items (G_LIST_MODEL (self->rows)),
                       items->pdata, items->len);
}

/* The node of @side's profile where @function spends the most. */
static guint32
function_node (BlCompareView *self,
               BlDiffSide     side,
               guint32        function)
{
  BlProfile *profile = bl_diff_get_profile (self->diff, side);
  guint32 f = bl_diff_get_function (self->diff, function)->function[side];
  BlMetricId metric = self->metric;
  guint32 best = BL_NODE_NONE;
  guint64 best_total = 0;

  if (f == BL_NODE_NONE)
    return BL_NODE_NONE;
  if (!bl_profile_has_metric (profile, metric))
    metric = bl_profile_get_default_metric (profile);

  for (guint32 n = 0; n < bl_profile_get_n_nodes (profile); n++)
    if (bl_profile_get_node_function (profile, n) == f)
      {
        guint64 total = bl_profile_get_total (profile, metric, n);

        if (best == BL_NODE_NONE || total > best_total)
          {
            best = n;
            best_total = total;
          }
      }

  return best;
}

/* A row activated in the table: its function's heaviest frame is selected
 * in B's graph (A's when B does not have it), and so in every graph. */
static void
row_activated_cb (BlCompareView *self,
                  guint          position)
{
  g_autoptr(BlCompareRow) row = g_list_model_get_item (G_LIST_MODEL (self->sort_model), position);
  guint32 node;

  if (row == NULL || !is_profile_diff (self))
    return;

  node = function_node (self, BL_DIFF_SIDE_B, row->function);
  if (node != BL_NODE_NONE)
    bl_flame_graph_set_selected_node (self->graphs[BL_COMPARE_GRAPH_B], node);
  else if ((node = function_node (self, BL_DIFF_SIDE_A, row->function)) != BL_NODE_NONE)
    bl_flame_graph_set_selected_node (self->graphs[BL_COMPARE_GRAPH_A], node);
}

static GtkColumnViewColumn *
add_column (BlCompareView *self,
            Column         column,
            const char    *title)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *col;
  g_autoptr(GtkCustomSorter) sorter = NULL;

  g_object_set_data (G_OBJECT (factory), "bl-compare-view", self);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (column));

  col = gtk_column_view_column_new (title, factory);
  sorter = gtk_custom_sorter_new (compare_rows, GINT_TO_POINTER (column), NULL);
  gtk_column_view_column_set_sorter (col, GTK_SORTER (sorter));
  gtk_column_view_column_set_resizable (col, TRUE);
  if (column == COL_NAME)
    gtk_column_view_column_set_expand (col, TRUE);
  gtk_column_view_append_column (self->column_view, col);
  self->columns[column] = col;
  g_object_unref (col);

  return col;
}

/* ---- updating ----------------------------------------------------------- */

static void
update_side_labels (BlCompareView *self)
{
  for (guint s = 0; s < 2; s++)
    {
      g_autofree char *total = NULL;
      g_autofree char *text = NULL;
      const char *title = self->titles[s] != NULL ? self->titles[s] : "";

      if (is_profile_diff (self) && self->metric != BL_METRIC_INVALID &&
          bl_diff_side_has_metric (self->diff, s, self->metric) && self->thread != NULL)
        {
          guint32 root = bl_diff_find_root (self->diff, self->thread);
          g_autofree char *value =
            bl_profile_format_value (bl_diff_get_profile (self->diff, s), self->metric,
                                     root == BL_NODE_NONE
                                     ? 0
                                     : bl_diff_get_total (self->diff, s, self->metric, root));

          /* Translators: a thread's name and its total, "main: 1.20 s" */
          total = g_strdup_printf (_("%s: %s"), self->thread, value);
        }
      else if (is_profile_diff (self) && self->metric != BL_METRIC_INVALID &&
               bl_diff_side_has_metric (self->diff, s, self->metric))
        total = bl_profile_format_value (bl_diff_get_profile (self->diff, s), self->metric,
                                         bl_diff_get_grand_total (self->diff, s, self->metric));
      else if (is_profile_diff (self) && self->metric != BL_METRIC_INVALID)
        /* Translators: the side has no values of the metric compared; its
         * graph shows its own metric instead */
        total = g_strdup_printf (_("no %s; drawn by its own metric"),
                                 _(bl_metric_get_info (self->metric)->display_name));
      else
        total = g_strdup (_("no data"));

      /* Translators: above each flame graph: "A  before.bsprof — 1.20 s" */
      text = g_strdup_printf (s == 0 ? _("A  %s — %s") : _("B  %s — %s"), title, total);
      gtk_label_set_text (self->side_labels[s], text);
    }
}

/* Each graph draws the chosen metric, or its own profile's default when its
 * profile does not have it (two formats with no metric in common), so that
 * its shape still shows. */
static void
update_graph_metrics (BlCompareView *self)
{
  if (!is_profile_diff (self) || self->metric == BL_METRIC_INVALID)
    return;

  for (guint g = 0; g < 3; g++)
    {
      BlDiffSide side = graph_side (self, g);
      BlMetricId metric = self->metric;

      if (!bl_diff_side_has_metric (self->diff, side, metric))
        metric = bl_profile_get_default_metric (bl_diff_get_profile (self->diff, side));
      if (metric != BL_METRIC_INVALID)
        bl_flame_graph_set_metric (self->graphs[g], metric);
    }
}

static void
refresh_values (BlCompareView *self)
{
  update_side_labels (self);
  rebuild_rows (self);
  update_summary (self);
  bl_flame_graph_invalidate_colors (self->graphs[BL_COMPARE_GRAPH_DIFF]);
}

static void
metric_selected_cb (BlCompareView *self)
{
  guint i = gtk_drop_down_get_selected (self->metric_dropdown);

  if (self->updating || i >= self->n_metrics)
    return;

  bl_compare_view_set_metric (self, self->metrics[i]);
}

static void
thread_selected_cb (BlCompareView *self)
{
  guint i = gtk_drop_down_get_selected (self->thread_dropdown);

  if (self->updating || !is_profile_diff (self))
    return;

  bl_compare_view_set_thread (self, i == 0 || i == GTK_INVALID_LIST_POSITION
                                    ? NULL
                                    : gtk_string_list_get_string (self->thread_names, i));
}

static void
normalized_toggled_cb (BlCompareView *self)
{
  bl_compare_view_set_normalized (self, gtk_toggle_button_get_active (self->normalized_button));
}

static void
threshold_changed_cb (BlCompareView *self)
{
  if (self->updating)
    return;

  bl_compare_view_set_threshold (self, gtk_spin_button_get_value (self->threshold_spin));
}

static void
auto_threshold_toggled_cb (BlCompareView *self)
{
  if (self->updating)
    return;

  if (gtk_toggle_button_get_active (self->auto_threshold_button))
    bl_compare_view_set_threshold (self, BL_DIFF_THRESHOLD_AUTO);
  else
    bl_compare_view_set_threshold (self, gtk_spin_button_get_value (self->threshold_spin));
}

static void
shape_toggled_cb (BlCompareView *self)
{
  bl_compare_view_set_diff_shape (self, gtk_toggle_button_get_active (self->shape_button)
                                        ? BL_DIFF_SIDE_A : BL_DIFF_SIDE_B);
}

static void
regressions_toggled_cb (BlCompareView *self)
{
  bl_compare_view_set_regressions_only (self,
                                        gtk_check_button_get_active (self->regressions_check));
}

static void
search_changed_cb (BlCompareView *self)
{
  bl_compare_view_set_search (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

static void
stacked_toggled_cb (BlCompareView *self)
{
  bl_compare_view_set_stacked (self, gtk_toggle_button_get_active (self->stacked_button));
}

static void
apply_alignment (BlCompareView *self,
                 gint64         offset_a,
                 gint64         offset_b,
                 const char    *label)
{
  gint64 from = G_MAXINT64, to = G_MININT64;

  for (guint i = 0; i < G_N_ELEMENTS (chart_series); i++)
    if (self->charts[i] != NULL)
      {
        gint64 f, t;

        bl_compare_chart_set_axis (self->charts[i], NULL);
        bl_compare_chart_set_sessions (self->charts[i],
                                       bl_diff_get_session (self->diff, BL_DIFF_SIDE_A),
                                       bl_diff_get_session (self->diff, BL_DIFF_SIDE_B),
                                       offset_a, offset_b, label);
        bl_compare_chart_get_range (self->charts[i], &f, &t);
        from = MIN (from, f);
        to = MAX (to, t);
      }

  /* one span for all: a zoom or pan on any chart moves every chart */
  if (from < to)
    bl_time_axis_set_bounds (self->session_axis, from, to);
  for (guint i = 0; i < G_N_ELEMENTS (chart_series); i++)
    if (self->charts[i] != NULL)
      bl_compare_chart_set_axis (self->charts[i], self->session_axis);
}

static void
align_selected_cb (BlCompareView *self)
{
  guint i = gtk_drop_down_get_selected (self->align_dropdown);
  g_autoptr(GError) error = NULL;

  if (self->updating || self->diff == NULL || !bl_diff_is_session (self->diff))
    return;

  if (i == 0 || i == GTK_INVALID_LIST_POSITION)
    bl_compare_view_set_alignment (self, BL_DIFF_ALIGN_START, NULL, &error);
  else
    bl_compare_view_set_alignment (self, BL_DIFF_ALIGN_BEACON,
                                   gtk_string_list_get_string (self->align_names, i), &error);
  if (error != NULL)
    g_warning ("%s", error->message);
}

/* ---- building ----------------------------------------------------------- */

static GtkWidget *
legend_item (BlCompareView *self,
             const char    *text,
             Swatch         which)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  /* new and removed are hatched in the graph as in their swatches */
  GtkWidget *swatch = gtk_label_new (which == SWATCH_ONLY_B ? "▨"
                                     : which == SWATCH_ONLY_A ? "▧" : "■");

  self->swatches[which] = GTK_LABEL (swatch);
  gtk_box_append (GTK_BOX (box), swatch);
  gtk_box_append (GTK_BOX (box), gtk_label_new (text));

  return box;
}

/* The first layouts decide how much room the graphs get: the deepest of
 * them, its label or legend and one row of air, up to 60 %. */
static gboolean
fit_graphs_tick (GtkWidget     *widget,
                 GdkFrameClock *clock,
                 gpointer       user_data)
{
  BlCompareView *self = BL_COMPARE_VIEW (widget);
  int height = gtk_widget_get_height (GTK_WIDGET (self->graphs_paned));
  int stack_height = gtk_widget_get_height (GTK_WIDGET (self->profile_stack));
  guint levels = 0;
  int extra = 0, row = 0;

  if (self->graphs_fitted)
    return G_SOURCE_REMOVE;
  if (height <= 0 || stack_height <= 0)
    return G_SOURCE_CONTINUE;

  for (guint i = 0; i < G_N_ELEMENTS (self->graphs); i++)
    {
      BlFlameLayout *layout = bl_flame_graph_get_layout (self->graphs[i]);
      GtkWidget *scroller;

      if (layout == NULL)
        continue;
      levels = MAX (levels, bl_flame_layout_get_n_levels (layout));
      row = MAX (row, (int) bl_flame_graph_get_row_height (self->graphs[i]));
      scroller = gtk_widget_get_ancestor (GTK_WIDGET (self->graphs[i]), GTK_TYPE_SCROLLED_WINDOW);
      if (scroller != NULL && gtk_widget_get_mapped (scroller))
        extra = MAX (extra, stack_height - gtk_widget_get_height (scroller));
    }
  if (levels == 0)
    return G_SOURCE_CONTINUE;

  self->graphs_fitted = TRUE;
  gtk_paned_set_position (self->graphs_paned,
                          MIN ((int) (levels + 1) * row + extra, height * 6 / 10));

  return G_SOURCE_REMOVE;
}

static void
graph_layout_cb (BlCompareView *self)
{
  if (!self->graphs_fitted)
    gtk_widget_add_tick_callback (GTK_WIDGET (self), fit_graphs_tick, NULL, NULL);
}

static GtkWidget *
graph_pane (BlCompareView *self,
            guint          graph,
            GtkLabel     **label)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *scroller = gtk_scrolled_window_new ();

  if (label != NULL)
    {
      *label = GTK_LABEL (gtk_label_new (NULL));
      gtk_label_set_xalign (*label, 0);
      gtk_label_set_ellipsize (*label, PANGO_ELLIPSIZE_MIDDLE);
      gtk_widget_add_css_class (GTK_WIDGET (*label), "heading");
      gtk_widget_set_margin_start (GTK_WIDGET (*label), 6);
      gtk_box_append (GTK_BOX (box), GTK_WIDGET (*label));
    }

  self->graphs[graph] = BL_FLAME_GRAPH (bl_flame_graph_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->graphs[graph]), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller),
                                 GTK_WIDGET (self->graphs[graph]));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller),
                                  GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_widget_set_hexpand (scroller, TRUE);

  /* the graph, or the words why there is none (a thread its side lacks) */
  self->graph_stacks[graph] = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->graph_stacks[graph]), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->graph_stacks[graph]), TRUE);
  gtk_stack_add_named (self->graph_stacks[graph], scroller, "graph");
  self->missing_pages[graph] = ADW_STATUS_PAGE (adw_status_page_new ());
  adw_status_page_set_icon_name (self->missing_pages[graph], "edit-find-symbolic");
  gtk_widget_add_css_class (GTK_WIDGET (self->missing_pages[graph]), "compact");
  gtk_stack_add_named (self->graph_stacks[graph], GTK_WIDGET (self->missing_pages[graph]),
                       "missing");
  gtk_stack_set_visible_child_name (self->graph_stacks[graph], "graph");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->graph_stacks[graph]));

  bl_flame_graph_set_tooltip_func (self->graphs[graph], graph_tooltip_func, self, NULL);
  g_signal_connect_object (self->graphs[graph], "notify::layout",
                           G_CALLBACK (graph_layout_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->graphs[graph], "notify::zoom-node",
                           G_CALLBACK (zoom_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->graphs[graph], "notify::selected-node",
                           G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);

  return box;
}

/* The button of a drop-down of strings shows its choice ellipsized, so that
 * a long thread or beacon name does not make the window wider; the popup
 * shows the names in full. */
static void
ellipsized_setup_cb (GtkSignalListItemFactory *factory,
                     GtkListItem              *item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (label), 4);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
  gtk_list_item_set_child (item, label);
}

static void
ellipsized_bind_cb (GtkSignalListItemFactory *factory,
                    GtkListItem              *item)
{
  GObject *string = gtk_list_item_get_item (item);
  GtkWidget *label = gtk_list_item_get_child (item);

  gtk_label_set_text (GTK_LABEL (label),
                      GTK_IS_STRING_OBJECT (string)
                        ? gtk_string_object_get_string (GTK_STRING_OBJECT (string)) : "");
}

static void
set_ellipsized_factory (GtkDropDown *dropdown)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkListItemFactory) list_factory = NULL;
  g_autoptr(GtkExpression) expression =
    gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string");

  g_signal_connect (factory, "setup", G_CALLBACK (ellipsized_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (ellipsized_bind_cb), NULL);
  /* the expression first: GTK 4.12 and later put the default factory back
   * when the expression changes after any factory was set */
  gtk_drop_down_set_expression (dropdown, expression);
  /* the popup keeps the plain labels: built before the button's factory */
  list_factory = g_object_ref (gtk_drop_down_get_factory (dropdown));
  gtk_drop_down_set_list_factory (dropdown, list_factory);
  gtk_drop_down_set_factory (dropdown, factory);
}

static GtkWidget *
build_profiles (BlCompareView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *toolbar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *switcher = gtk_stack_switcher_new ();
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *diff_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *legend_row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *functions_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *vpaned;
  GtkWidget *table_scroller = gtk_scrolled_window_new ();
  GtkWidget *spacer;
  GtkWidget *mode_box;
  g_autoptr(GtkSingleSelection) selection = NULL;
  GtkSorter *sorter;

  gtk_widget_add_css_class (toolbar, "bl-toolbar");
  gtk_widget_set_margin_start (toolbar, 6);
  gtk_widget_set_margin_end (toolbar, 6);
  gtk_widget_set_margin_top (toolbar, 6);
  gtk_widget_set_margin_bottom (toolbar, 6);

  self->thread_names = gtk_string_list_new (NULL);
  self->thread_dropdown =
    GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (self->thread_names)), NULL));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->thread_dropdown), _("Thread"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->thread_dropdown),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Thread"), -1);
  set_ellipsized_factory (self->thread_dropdown);
  gtk_widget_set_visible (GTK_WIDGET (self->thread_dropdown), FALSE);
  g_signal_connect_object (self->thread_dropdown, "notify::selected",
                           G_CALLBACK (thread_selected_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->thread_dropdown));

  self->metric_dropdown = GTK_DROP_DOWN (gtk_drop_down_new (NULL, NULL));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->metric_dropdown), _("Metric"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->metric_dropdown),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Metric"), -1);
  g_signal_connect_object (self->metric_dropdown, "notify::selected",
                           G_CALLBACK (metric_selected_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->metric_dropdown));

  /* the mode: two linked toggles, one of them always active; shown beside
   * the summary, which it changes */
  {
    GtkWidget *mode = mode_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

    gtk_widget_add_css_class (mode, "linked");
    gtk_widget_set_valign (mode, GTK_ALIGN_CENTER);
    self->absolute_button =
      GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_mnemonic (_("A_bsolute")));
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->absolute_button),
                                 _("Compare the values themselves"));
    gtk_toggle_button_set_active (self->absolute_button, TRUE);
    self->normalized_button =
      GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_mnemonic (_("_Normalized")));
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->normalized_button),
                                 _("Compare each frame’s share of its run’s total, for runs of "
                                   "different lengths"));
    gtk_toggle_button_set_group (self->normalized_button, self->absolute_button);
    g_signal_connect_object (self->normalized_button, "toggled",
                             G_CALLBACK (normalized_toggled_cb), self, G_CONNECT_SWAPPED);
    gtk_box_append (GTK_BOX (mode), GTK_WIDGET (self->absolute_button));
    gtk_box_append (GTK_BOX (mode), GTK_WIDGET (self->normalized_button));
  }

  self->search_entry = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->search_entry, "placeholder-text", _("Search functions"), NULL);
  /* 22 characters when there is room, fewer in a narrow window */
  gtk_editable_set_width_chars (GTK_EDITABLE (self->search_entry), 6);
  gtk_editable_set_max_width_chars (GTK_EDITABLE (self->search_entry), 22);
  gtk_widget_set_hexpand (GTK_WIDGET (self->search_entry), TRUE);
  g_signal_connect_object (self->search_entry, "search-changed",
                           G_CALLBACK (search_changed_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->search_entry));

  spacer = gtk_label_new (NULL);
  gtk_widget_set_hexpand (spacer, TRUE);
  gtk_box_append (GTK_BOX (toolbar), spacer);
  gtk_box_append (GTK_BOX (toolbar), switcher);
  gtk_box_append (GTK_BOX (box), toolbar);

  /* what changed, in one sentence, and the noise threshold behind it */
  {
    GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
    /* Translators: the label of the noise threshold's spin button */
    GtkWidget *label = gtk_label_new_with_mnemonic (_("_Threshold"));
    GtkWidget *unit = gtk_label_new ("%");

    gtk_widget_add_css_class (row, "bl-diff-summary");
    gtk_widget_set_margin_start (row, 8);
    gtk_widget_set_margin_end (row, 6);
    gtk_widget_set_margin_bottom (row, 4);
    self->summary_label = GTK_LABEL (gtk_label_new (NULL));
    gtk_label_set_xalign (self->summary_label, 0);
    gtk_label_set_wrap (self->summary_label, TRUE);
    gtk_label_set_wrap_mode (self->summary_label, PANGO_WRAP_WORD_CHAR);
    gtk_label_set_lines (self->summary_label, 2);
    gtk_label_set_ellipsize (self->summary_label, PANGO_ELLIPSIZE_END);
    gtk_label_set_width_chars (self->summary_label, 10);
    gtk_widget_set_hexpand (GTK_WIDGET (self->summary_label), TRUE);
    gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->summary_label));

    gtk_box_append (GTK_BOX (row), mode_box);
    gtk_widget_add_css_class (label, "dim-label");
    gtk_widget_set_margin_start (label, 6);
    gtk_box_append (GTK_BOX (row), label);
    self->threshold_spin =
      GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0.0, 100.0, 0.1));
    gtk_spin_button_set_digits (self->threshold_spin, 1);
    gtk_widget_set_valign (GTK_WIDGET (self->threshold_spin), GTK_ALIGN_CENTER);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->threshold_spin),
                                 _("Changes smaller than this share of the total are neutral"));
    gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (self->threshold_spin));
    g_signal_connect_object (self->threshold_spin, "value-changed",
                             G_CALLBACK (threshold_changed_cb), self, G_CONNECT_SWAPPED);
    gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->threshold_spin));
    gtk_box_append (GTK_BOX (row), unit);
    self->auto_threshold_button =
      GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_mnemonic (_("A_uto")));
    gtk_widget_set_valign (GTK_WIDGET (self->auto_threshold_button), GTK_ALIGN_CENTER);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->auto_threshold_button),
                                 _("Choose the threshold from the data: twice the typical "
                                   "change of the functions both runs have"));
    gtk_toggle_button_set_active (self->auto_threshold_button, TRUE);
    g_signal_connect_object (self->auto_threshold_button, "toggled",
                             G_CALLBACK (auto_threshold_toggled_cb), self, G_CONNECT_SWAPPED);
    gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->auto_threshold_button));
    gtk_box_append (GTK_BOX (box), row);
  }

  self->profile_stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_set_transition_type (self->profile_stack, GTK_STACK_TRANSITION_TYPE_CROSSFADE);
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), self->profile_stack);
  gtk_widget_set_vexpand (GTK_WIDGET (self->profile_stack), TRUE);

  /* the graphs above, the functions below, as in a profile's own view */
  vpaned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_set_start_child (GTK_PANED (vpaned), GTK_WIDGET (self->profile_stack));
  gtk_paned_set_end_child (GTK_PANED (vpaned), functions_box);
  gtk_paned_set_shrink_start_child (GTK_PANED (vpaned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (vpaned), FALSE);
  gtk_paned_set_position (GTK_PANED (vpaned), 380);
  /* a taller window grows the table, not empty rows above shallow graphs */
  gtk_paned_set_resize_start_child (GTK_PANED (vpaned), FALSE);
  gtk_widget_set_vexpand (vpaned, TRUE);
  gtk_box_append (GTK_BOX (box), vpaned);
  self->graphs_paned = GTK_PANED (vpaned);

  /* side by side */
  gtk_paned_set_start_child (GTK_PANED (paned),
                             graph_pane (self, BL_COMPARE_GRAPH_A, &self->side_labels[0]));
  gtk_paned_set_end_child (GTK_PANED (paned),
                           graph_pane (self, BL_COMPARE_GRAPH_B, &self->side_labels[1]));
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);
  gtk_stack_add_titled (self->profile_stack, paned, "side-by-side", _("Side by Side"));

  /* differential */
  gtk_widget_set_margin_start (legend_row, 6);
  gtk_widget_set_margin_end (legend_row, 6);
  gtk_widget_add_css_class (legend_row, "bl-diff-legend");
  gtk_widget_set_tooltip_text (legend_row,
                               _("Colour: the change of each frame’s total from A to B; "
                                 "stronger is larger. Changes below the noise threshold are "
                                 "neutral."));
  gtk_box_append (GTK_BOX (legend_row),
                  legend_item (self, _(bl_diff_kind_get_display_name (BL_DIFF_KIND_GROWN)),
                               SWATCH_GREW));
  gtk_box_append (GTK_BOX (legend_row),
                  legend_item (self, _(bl_diff_kind_get_display_name (BL_DIFF_KIND_SHRUNK)),
                               SWATCH_SHRANK));
  /* Translators: legend: a stack only B has */
  gtk_box_append (GTK_BOX (legend_row), legend_item (self, _("New (only B)"), SWATCH_ONLY_B));
  /* Translators: legend: a stack only A has */
  gtk_box_append (GTK_BOX (legend_row), legend_item (self, _("Removed (only A)"),
                                                     SWATCH_ONLY_A));
  gtk_box_append (GTK_BOX (legend_row),
                  legend_item (self, _(bl_diff_kind_get_display_name (BL_DIFF_KIND_NEUTRAL)),
                               SWATCH_NEUTRAL));
  self->baseline_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->baseline_label), "dim-label");
  gtk_widget_set_hexpand (GTK_WIDGET (self->baseline_label), TRUE);
  gtk_label_set_xalign (self->baseline_label, 0);
  gtk_label_set_ellipsize (self->baseline_label, PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (self->baseline_label, 4);
  gtk_box_append (GTK_BOX (legend_row), GTK_WIDGET (self->baseline_label));
  self->shape_button = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_mnemonic (_("_A’s Shape")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->shape_button),
                               _("Draw the frames as A has them, to see what went away"));
  g_signal_connect_object (self->shape_button, "toggled",
                           G_CALLBACK (shape_toggled_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (legend_row), GTK_WIDGET (self->shape_button));
  self->legend = GTK_BOX (legend_row);
  gtk_box_append (GTK_BOX (diff_box), legend_row);
  gtk_box_append (GTK_BOX (diff_box), graph_pane (self, BL_COMPARE_GRAPH_DIFF, NULL));
  bl_flame_graph_set_color_func (self->graphs[BL_COMPARE_GRAPH_DIFF], diff_color_func, self, NULL);
  bl_flame_graph_set_mark_func (self->graphs[BL_COMPARE_GRAPH_DIFF], diff_mark_func, self, NULL);
  gtk_stack_add_titled (self->profile_stack, diff_box, "differential", _("Differential"));

  /* functions */
  self->regressions_check =
    GTK_CHECK_BUTTON (gtk_check_button_new_with_mnemonic (_("_Regressions only")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->regressions_check),
                               _("Only the functions whose total grew beyond the noise "
                                 "threshold, or that are new"));
  g_signal_connect_object (self->regressions_check, "toggled",
                           G_CALLBACK (regressions_toggled_cb), self, G_CONNECT_SWAPPED);
  {
    GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
    GtkWidget *heading = gtk_label_new (_("Functions"));

    gtk_widget_add_css_class (heading, "heading");
    gtk_widget_set_margin_start (row, 8);
    gtk_widget_set_margin_end (row, 8);
    gtk_widget_set_margin_top (row, 4);
    gtk_box_append (GTK_BOX (row), heading);
    gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->regressions_check));
    gtk_box_append (GTK_BOX (functions_box), row);
  }

  self->rows = g_list_store_new (BL_TYPE_COMPARE_ROW);
  self->filter = gtk_custom_filter_new (filter_row, self, NULL);
  self->filter_model = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->rows)),
                                                  GTK_FILTER (g_object_ref (self->filter)));
  self->sort_model = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->filter_model)),
                                              NULL);
  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->column_view, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->column_view), "data-table");
  add_column (self, COL_NAME, _("Function"));
  add_column (self, COL_FILE, _("File"));
  add_column (self, COL_A_SELF, _("A Self"));
  add_column (self, COL_B_SELF, _("B Self"));
  add_column (self, COL_A_TOTAL, _("A Total"));
  add_column (self, COL_B_TOTAL, _("B Total"));
  add_column (self, COL_DELTA_SELF, _("Δ Self"));
  add_column (self, COL_DELTA_TOTAL, _("Δ Total"));
  add_column (self, COL_DELTA_PCT, _("Δ %"));
  /* Translators: column title: the size of the change of the total */
  add_column (self, COL_SIZE, _("|Δ|"));
  add_column (self, COL_KIND, _("Class"));
  sorter = gtk_column_view_get_sorter (self->column_view);
  gtk_sort_list_model_set_sorter (self->sort_model, sorter);
  selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->sort_model)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));
  g_signal_connect_object (self->column_view, "activate",
                           G_CALLBACK (row_activated_cb), self, G_CONNECT_SWAPPED);
  gtk_column_view_sort_by_column (self->column_view, self->columns[COL_DELTA_TOTAL],
                                  GTK_SORT_DESCENDING);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (table_scroller),
                                 GTK_WIDGET (self->column_view));
  gtk_widget_set_vexpand (table_scroller, TRUE);
  gtk_box_append (GTK_BOX (functions_box), table_scroller);

  return box;
}

static GtkWidget *
build_sessions (BlCompareView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *toolbar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *label;

  gtk_widget_set_margin_start (toolbar, 6);
  gtk_widget_set_margin_end (toolbar, 6);
  gtk_widget_set_margin_top (toolbar, 6);
  gtk_widget_set_margin_bottom (toolbar, 6);

  label = gtk_label_new_with_mnemonic (_("_Align at"));
  gtk_box_append (GTK_BOX (toolbar), label);
  self->align_names = gtk_string_list_new (NULL);
  self->align_dropdown =
    GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (self->align_names)), NULL));
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (self->align_dropdown));
  set_ellipsized_factory (self->align_dropdown);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->align_dropdown),
                               _("The moment drawn at 0 in both sessions"));
  g_signal_connect_object (self->align_dropdown, "notify::selected",
                           G_CALLBACK (align_selected_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->align_dropdown));

  self->stacked_button = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_mnemonic (_("_Stacked")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->stacked_button),
                               _("Draw A above B instead of over each other"));
  g_signal_connect_object (self->stacked_button, "toggled",
                           G_CALLBACK (stacked_toggled_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->stacked_button));

  {
    GtkWidget *spacer = gtk_label_new (NULL);

    gtk_widget_set_hexpand (spacer, TRUE);
    gtk_box_append (GTK_BOX (toolbar), spacer);
    gtk_box_append (GTK_BOX (toolbar), legend_item (self, _("A"), SWATCH_A));
    gtk_box_append (GTK_BOX (toolbar), legend_item (self, _("B"), SWATCH_B));
  }
  gtk_box_append (GTK_BOX (box), toolbar);

  gtk_widget_set_margin_start (content, 12);
  gtk_widget_set_margin_end (content, 12);
  gtk_widget_set_margin_bottom (content, 12);
  self->summary_grid = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_column_spacing (self->summary_grid, 24);
  gtk_grid_set_row_spacing (self->summary_grid, 4);
  gtk_box_append (GTK_BOX (content), GTK_WIDGET (self->summary_grid));
  self->chart_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 8));
  gtk_box_append (GTK_BOX (content), GTK_WIDGET (self->chart_box));

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), content);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller),
                                  GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (box), scroller);

  return box;
}

static void
fill_summary (BlCompareView *self)
{
  const char *headers[] = { "", _("A"), _("B"), _("Change"), _("Δ %") };
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->summary_grid))) != NULL)
    gtk_grid_remove (self->summary_grid, child);

  for (guint c = 0; c < G_N_ELEMENTS (headers); c++)
    {
      GtkWidget *label = gtk_label_new (headers[c]);

      gtk_label_set_xalign (GTK_LABEL (label), c == 0 ? 0 : 1);
      gtk_widget_add_css_class (label, "heading");
      gtk_grid_attach (self->summary_grid, label, c, 0, 1, 1);
    }

  for (guint f = 0; f < BL_N_DIFF_FIGURES; f++)
    {
      const BlDiffFigureInfo *info = bl_diff_figure_get_info (f);
      BlDiffChange change;
      char *cells[5];

      bl_diff_get_figure (self->diff, f, &change);
      cells[0] = g_strdup (_(info->display_name));
      /* counts (nodes, objects, rendezvous) are whole numbers */
      if (bl_series_get_info (info->series)->unit == BL_SERIES_UNIT_COUNT)
        {
          change.a = round (change.a);
          change.b = round (change.b);
          change.delta = round (change.delta);
        }
      cells[1] = bl_diff_figure_format_value (f, change.a, FALSE);
      cells[2] = bl_diff_figure_format_value (f, change.b, FALSE);
      cells[3] = bl_diff_figure_format_value (f, change.delta, TRUE);
      cells[4] = format_pct (change.delta_pct);

      for (guint c = 0; c < G_N_ELEMENTS (cells); c++)
        {
          GtkWidget *label = gtk_label_new (cells[c]);

          gtk_label_set_xalign (GTK_LABEL (label), c == 0 ? 0 : 1);
          if (c > 0)
            gtk_widget_add_css_class (label, "numeric");
          /* a change that shows as ±0.0 % is no regression */
          if (c >= 3 && !isnan (change.delta) && change.delta != 0 &&
              (isnan (change.delta_pct) || fabs (change.delta_pct) >= 0.05))
            {
              gboolean worse = (change.delta > 0) != info->higher_is_better;

              gtk_widget_add_css_class (label, worse ? "error" : "success");
            }
          gtk_grid_attach (self->summary_grid, label, c, f + 1, 1, 1);
          g_free (cells[c]);
        }
    }
}

static void
fill_sessions (BlCompareView *self)
{
  BlSession *a = bl_diff_get_session (self->diff, BL_DIFF_SIDE_A);
  BlSession *b = bl_diff_get_session (self->diff, BL_DIFF_SIDE_B);
  g_auto(GStrv) beacons = bl_diff_dup_common_beacons (self->diff);
  GtkWidget *child;

  fill_summary (self);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->chart_box))) != NULL)
    gtk_box_remove (self->chart_box, child);
  for (guint i = 0; i < G_N_ELEMENTS (chart_series); i++)
    {
      self->charts[i] = NULL;
      if (!bl_session_has_series (a, chart_series[i]) &&
          !bl_session_has_series (b, chart_series[i]))
        continue;
      self->charts[i] = BL_COMPARE_CHART (bl_compare_chart_new (chart_series[i]));
      bl_compare_chart_set_stacked (self->charts[i],
                                    gtk_toggle_button_get_active (self->stacked_button));
      gtk_box_append (self->chart_box, GTK_WIDGET (self->charts[i]));
    }

  self->updating = TRUE;
  gtk_string_list_splice (self->align_names, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->align_names)), NULL);
  gtk_string_list_append (self->align_names, _("Session start"));
  for (guint i = 0; beacons[i] != NULL; i++)
    gtk_string_list_append (self->align_names, beacons[i]);
  gtk_drop_down_set_selected (self->align_dropdown, 0);
  self->updating = FALSE;

  bl_compare_view_set_alignment (self, BL_DIFF_ALIGN_START, NULL, NULL);
}

/* "All threads", then the thread names in A's order, then those only B
 * has; one name in all: that thread, else all of them (as a profile's own
 * view does). */
static void
fill_threads (BlCompareView *self)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  guint n_names;

  for (guint s = 0; s < 2; s++)
    {
      BlProfile *profile = bl_diff_get_profile (self->diff, s);

      for (guint t = 0; t < bl_profile_get_n_threads (profile); t++)
        {
          const char *name = bl_profile_get_thread_name (profile, t);

          if (name != NULL && g_hash_table_add (seen, (gpointer) name))
            g_ptr_array_add (names, (gpointer) name);
        }
    }

  n_names = names->len;
  g_clear_pointer (&self->thread, g_free);
  if (n_names == 1)
    self->thread = g_strdup (g_ptr_array_index (names, 0));

  g_ptr_array_add (names, NULL);
  self->updating = TRUE;
  gtk_string_list_splice (self->thread_names, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->thread_names)), NULL);
  gtk_string_list_append (self->thread_names, _("All threads"));
  gtk_string_list_splice (self->thread_names, 1, 0, (const char * const *) names->pdata);
  gtk_drop_down_set_selected (self->thread_dropdown, self->thread != NULL ? 1 : 0);
  self->updating = FALSE;
  gtk_widget_set_visible (GTK_WIDGET (self->thread_dropdown), n_names > 0);
}

static void
fill_profiles (BlCompareView *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  BlMetricId metric = bl_diff_get_default_metric (self->diff);
  guint selected = 0;

  self->n_metrics = 0;
  for (guint m = 0; m < BL_N_METRICS; m++)
    if (bl_diff_has_metric (self->diff, m))
      {
        if (m == (guint) metric)
          selected = self->n_metrics;
        self->metrics[self->n_metrics++] = m;
        gtk_string_list_append (names, _(bl_metric_get_info (m)->display_name));
      }

  self->updating = TRUE;
  gtk_drop_down_set_model (self->metric_dropdown, G_LIST_MODEL (names));
  gtk_drop_down_set_selected (self->metric_dropdown, selected);
  self->updating = FALSE;

  self->metric = metric;
  bl_flame_graph_set_profile (self->graphs[BL_COMPARE_GRAPH_A],
                              bl_diff_get_profile (self->diff, BL_DIFF_SIDE_A));
  bl_flame_graph_set_profile (self->graphs[BL_COMPARE_GRAPH_B],
                              bl_diff_get_profile (self->diff, BL_DIFF_SIDE_B));
  bl_flame_graph_set_profile (self->graphs[BL_COMPARE_GRAPH_DIFF],
                              bl_diff_get_profile (self->diff, self->shape));
  update_graph_metrics (self);
  fill_threads (self);
  update_graph_threads (self);
  refresh_values (self);
}

/* ---- GObject ------------------------------------------------------------ */

static void
bl_compare_view_css_changed (GtkWidget         *widget,
                             GtkCssStyleChange *change)
{
  BlCompareView *self = BL_COMPARE_VIEW (widget);

  GTK_WIDGET_CLASS (bl_compare_view_parent_class)->css_changed (widget, change);

  update_colors (self);
  if (self->graphs[BL_COMPARE_GRAPH_DIFF] != NULL)
    bl_flame_graph_invalidate_colors (self->graphs[BL_COMPARE_GRAPH_DIFF]);
}

static void
bl_compare_view_dispose (GObject *object)
{
  BlCompareView *self = BL_COMPARE_VIEW (object);
  GtkWidget *child;

  for (guint g = 0; g < 3; g++)
    if (self->graphs[g] != NULL)
      {
        bl_flame_graph_set_color_func (self->graphs[g], NULL, NULL, NULL);
        bl_flame_graph_set_mark_func (self->graphs[g], NULL, NULL, NULL);
        bl_flame_graph_set_tooltip_func (self->graphs[g], NULL, NULL, NULL);
      }

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  g_clear_object (&self->diff);
  g_clear_object (&self->rows);
  g_clear_object (&self->filter);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->sort_model);
  g_clear_object (&self->align_names);
  g_clear_object (&self->thread_names);
  g_clear_object (&self->session_axis);

  G_OBJECT_CLASS (bl_compare_view_parent_class)->dispose (object);
}

static void
bl_compare_view_finalize (GObject *object)
{
  BlCompareView *self = BL_COMPARE_VIEW (object);

  g_free (self->titles[0]);
  g_free (self->titles[1]);
  g_free (self->search);
  g_free (self->thread);

  G_OBJECT_CLASS (bl_compare_view_parent_class)->finalize (object);
}

static void
bl_compare_view_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  BlCompareView *self = BL_COMPARE_VIEW (object);

  switch (prop_id)
    {
    case PROP_DIFF:
      g_value_set_object (value, self->diff);
      break;
    case PROP_METRIC:
      g_value_set_int (value, self->metric);
      break;
    case PROP_NORMALIZED:
      g_value_set_boolean (value, self->normalized);
      break;
    case PROP_DIFF_SHAPE:
      g_value_set_int (value, self->shape);
      break;
    case PROP_REGRESSIONS_ONLY:
      g_value_set_boolean (value, self->regressions_only);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_compare_view_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  BlCompareView *self = BL_COMPARE_VIEW (object);

  switch (prop_id)
    {
    case PROP_DIFF:
      bl_compare_view_set_diff (self, g_value_get_object (value));
      break;
    case PROP_METRIC:
      bl_compare_view_set_metric (self, g_value_get_int (value));
      break;
    case PROP_NORMALIZED:
      bl_compare_view_set_normalized (self, g_value_get_boolean (value));
      break;
    case PROP_DIFF_SHAPE:
      bl_compare_view_set_diff_shape (self, g_value_get_int (value));
      break;
    case PROP_REGRESSIONS_ONLY:
      bl_compare_view_set_regressions_only (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_compare_view_class_init (BlCompareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_compare_view_dispose;
  object_class->finalize = bl_compare_view_finalize;
  object_class->get_property = bl_compare_view_get_property;
  object_class->set_property = bl_compare_view_set_property;
  widget_class->css_changed = bl_compare_view_css_changed;

  properties[PROP_DIFF] =
    g_param_spec_object ("diff", NULL, NULL,
                         BL_TYPE_DIFF,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_METRIC] =
    g_param_spec_int ("metric", NULL, NULL,
                      BL_METRIC_INVALID, BL_N_METRICS - 1, BL_METRIC_INVALID,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NORMALIZED] =
    g_param_spec_boolean ("normalized", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DIFF_SHAPE] =
    g_param_spec_int ("diff-shape", NULL, NULL,
                      BL_DIFF_SIDE_A, BL_DIFF_SIDE_B, BL_DIFF_SIDE_B,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_REGRESSIONS_ONLY] =
    g_param_spec_boolean ("regressions-only", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "blcompareview");
}

static void
bl_compare_view_init (BlCompareView *self)
{
  self->metric = BL_METRIC_INVALID;
  self->shape = BL_DIFF_SIDE_B;
  self->threshold_pct = BL_DIFF_THRESHOLD_AUTO;
  self->session_axis = bl_time_axis_new ();

  self->mode_stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_parent (GTK_WIDGET (self->mode_stack), GTK_WIDGET (self));
  gtk_stack_add_named (self->mode_stack, build_profiles (self), "profiles");
  gtk_stack_add_named (self->mode_stack, build_sessions (self), "sessions");

  update_colors (self);
  update_baseline (self);
}

/* ---- public API --------------------------------------------------------- */

GtkWidget *
bl_compare_view_new (void)
{
  return g_object_new (BL_TYPE_COMPARE_VIEW, NULL);
}

/**
 * bl_compare_view_get_diff:
 *
 * Returns: (transfer none) (nullable): the diff shown
 */
BlDiff *
bl_compare_view_get_diff (BlCompareView *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_VIEW (self), NULL);

  return self->diff;
}

void
bl_compare_view_set_diff (BlCompareView *self,
                          BlDiff        *diff)
{
  g_return_if_fail (BL_IS_COMPARE_VIEW (self));
  g_return_if_fail (diff == NULL || BL_IS_DIFF (diff));

  if (!g_set_object (&self->diff, diff) || diff == NULL)
    return;

  self->graphs_fitted = FALSE;

  if (bl_diff_is_session (diff))
    {
      gtk_stack_set_visible_child_name (self->mode_stack, "sessions");
      fill_sessions (self);
    }
  else
    {
      gtk_stack_set_visible_child_name (self->mode_stack, "profiles");
      fill_profiles (self);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIFF]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_METRIC]);
}

void
bl_compare_view_set_titles (BlCompareView *self,
                            const char    *title_a,
                            const char    *title_b)
{
  g_return_if_fail (BL_IS_COMPARE_VIEW (self));

  g_free (self->titles[0]);
  g_free (self->titles[1]);
  self->titles[0] = g_strdup (title_a);
  self->titles[1] = g_strdup (title_b);
  update_side_labels (self);
  update_baseline (self);
}

const char *
bl_compare_view_get_page (BlCompareView *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_VIEW (self), NULL);

  if (self->diff != NULL && bl_diff_is_session (self->diff))
    return "sessions";

  return gtk_stack_get_visible_child_name (self->profile_stack);
}

void
bl_compare_view_set_page (BlCompareView *self,
                          const char    *page)
{
  g_return_if_fail (BL_IS_COMPARE_VIEW (self));
  g_return_if_fail (page != NULL);

  if (gtk_stack_get_child_by_name (self->profile_stack, page) != NULL)
    gtk_stack_set_visible_child_name (self->profile_stack, page);
}

BlMetricId
bl_compare_view_get_metric (BlCompareView *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_VIEW (self), BL_METRIC_INVALID);

  return self->metric;
}

void
bl_compare_view_set_metric (BlCompareView *self,
                            BlMetricId     metric)
{
  g_return_if_fail (BL_IS_COMPARE_VIEW (self));

  if (!is_profile_diff (self) || !bl_diff_has_metric (self->diff, metric) ||
      metric == self->metric)
    return;

  self->metric = metric;
  update_graph_metrics (self);

  self->updating = TRUE;
  for (guint i = 0; i < self->n_metrics; i++)
    if (self->metrics[i] == metric)
      gtk_drop_down_set_selected (self->metric_dropdown, i);
  self->updating = FALSE;

  refresh_values (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_METRIC]);
}

gboolean
bl_compare_view_get_normalized (BlCompareView *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_VIEW (self), FALSE);

  return self->normalized;
}

void
bl_compare_view_set_normalized (BlCompareView *self,
                                gboolean       normalized)
{
  g_return_if_fail (BL_IS_COMPARE_VIEW (self));

  normalized = !!normalized;
  if (self->normalized == normalized)
    return;

  self->normalized = normalized;
  if (gtk_toggle_button_get_active (self->normalized_button) != normalized)
    gtk_toggle_button_set_active (normalized ? self->normalized_button : self->absolute_button,
                                  TRUE);

  refresh_values (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NORMALIZED]);
}

void
bl_compare_view_set_search (BlCompareView *self,
                            const char    *text)
{
  g_return_if_fail (BL_IS_COMPARE_VIEW (self));

  if (g_strcmp0 (self->search, text) == 0)
    return;

  g_free (self->search);
  self->search = g_strdup (text);

  for (guint g = 0; g < 3; g++)
    bl_flame_graph_set_search (self->graphs[g], text);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), text ? text : "") != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text ? text : "");
}

void
bl_compare_view_focus_search (BlCompareView *self)
{
  g_return_if_fail (BL_IS_COMPARE_VIEW (self));

  if (is_profile_diff (self))
    gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

void
bl_compare_view_reset_zoom (BlCompareView *self)
{
  g_return_if_fail (BL_IS_COMPARE_VIEW (self));

  self->syncing = TRUE;
  for (guint g = 0; g < 3; g++)
    bl_flame_graph_reset_zoom (self->graphs[g]);
  self->syncing = FALSE;
}

/**
 * bl_compare_view_get_thread:
 *
 * Returns: (nullable): the name of the thread shown, or %NULL for all
 */
const char *
bl_compare_view_get_thread (BlCompareView *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_VIEW (self), NULL);

  return self->thread;
}

/**
 * bl_compare_view_set_thread:
 * @thread: (nullable): a thread name of A or B, or %NULL for all threads
 *
 * Shows that thread in every graph and in the function table; a graph
 * whose side did not record it says so instead. A name neither side has
 * shows all threads.
 */
void
bl_compare_view_set_thread (BlCompareView *self,
                            const char    *thread)
{
  guint position = 0;

  g_return_if_fail (BL_IS_COMPARE_VIEW (self));

  if (!is_profile_diff (self))
    return;

  if (thread != NULL)
    for (guint i = 1; i < g_list_model_get_n_items (G_LIST_MODEL (self->thread_names)); i++)
      if (g_strcmp0 (gtk_string_list_get_string (self->thread_names, i), thread) == 0)
        position = i;

  self->updating = TRUE;
  gtk_drop_down_set_selected (self->thread_dropdown, position);
  self->updating = FALSE;

  if (position == 0)
    thread = NULL;
  if (g_strcmp0 (self->thread, thread) == 0)
    return;

  g_free (self->thread);
  self->thread = g_strdup (thread);
  update_graph_threads (self);
  refresh_values (self);
}

/**
 * bl_compare_view_get_thread_dropdown:
 *
 * Returns: (transfer none): the thread selector: "All threads", then the
 *   thread names of A, then those only B has
 */
GtkDropDown *
bl_compare_view_get_thread_dropdown (BlCompareView *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_VIEW (self), NULL);

  return self->thread_dropdown;
}

/**
 * bl_compare_view_get_empty_state:
 *
 * Returns: (transfer none): the page shown instead of @graph when its side
 *   did not record the thread chosen (mapped only then)
 */
GtkWidget *
bl_compare_view_get_empty_state (BlCompareView  *self,
                                 BlCompareGraph  graph)
{
  g_return_val_if_fail (BL_IS_COMPARE_VIEW (self), NULL);
  g_return_val_if_fail (graph <= BL_COMPARE_GRAPH_DIFF, NULL);

  return GTK_WIDGET (self->missing_pages[graph]);
}

/**
 * bl_compare_view_get_flame_graph:
 *
 * Returns: (transfer none): one of the three flame graphs
 */
BlFlameGraph *
bl_compare_view_get_flame_graph (BlCompareView  *self,
                                 BlCompareGraph  graph)
{
  g_return_val_if_fail (BL_IS_COMPARE_VIEW (self), NULL);
  g_return_val_if_fail (graph <= BL_COMPARE_GRAPH_DIFF, NULL);

  return self->graphs[graph];
}

BlDiffSide
bl_compare_view_get_diff_shape (BlCompareView *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_VIEW (self), BL_DIFF_SIDE_B);

  return self->shape;
}

void
bl_compare_view_set_diff_shape (BlCompareView *self,
                                BlDiffSide     shape)
{
  g_return_if_fail (BL_IS_COMPARE_VIEW (self));
  g_return_if_fail (shape <= BL_DIFF_SIDE_B);

  if (self->shape == shape)
    return;

  self->shape = shape;
  if (gtk_toggle_button_get_active (self->shape_button) != (shape == BL_DIFF_SIDE_A))
    gtk_toggle_button_set_active (self->shape_button, shape == BL_DIFF_SIDE_A);

  if (is_profile_diff (self))
    {
      BlFlameGraph *graph = self->graphs[BL_COMPARE_GRAPH_DIFF];

      self->syncing = TRUE;
      bl_flame_graph_set_profile (graph, bl_diff_get_profile (self->diff, shape));
      update_graph_metrics (self);
      update_graph_thread (self, BL_COMPARE_GRAPH_DIFF);
      bl_flame_graph_set_search (graph, self->search);
      self->syncing = FALSE;
      bl_flame_graph_invalidate_colors (graph);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIFF_SHAPE]);
}

void
bl_compare_view_set_regressions_only (BlCompareView *self,
                                      gboolean       regressions_only)
{
  g_return_if_fail (BL_IS_COMPARE_VIEW (self));

  regressions_only = !!regressions_only;
  if (self->regressions_only == regressions_only)
    return;

  self->regressions_only = regressions_only;
  if (gtk_check_button_get_active (self->regressions_check) != regressions_only)
    gtk_check_button_set_active (self->regressions_check, regressions_only);
  gtk_filter_changed (GTK_FILTER (self->filter),
                      regressions_only ? GTK_FILTER_CHANGE_MORE_STRICT
                                       : GTK_FILTER_CHANGE_LESS_STRICT);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REGRESSIONS_ONLY]);
}

guint
bl_compare_view_get_n_function_rows (BlCompareView *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_VIEW (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self->sort_model));
}

/**
 * bl_compare_view_get_function_row:
 *
 * Returns: the diff's function index shown at @position
 */
guint32
bl_compare_view_get_function_row (BlCompareView *self,
                                  guint          position)
{
  g_autoptr(BlCompareRow) row = NULL;

  g_return_val_if_fail (BL_IS_COMPARE_VIEW (self), BL_NODE_NONE);

  row = g_list_model_get_item (G_LIST_MODEL (self->sort_model), position);

  return row != NULL ? row->function : BL_NODE_NONE;
}

/**
 * bl_compare_view_set_threshold:
 * @pct: changes below @pct percent of the total are neutral;
 *   %BL_DIFF_THRESHOLD_AUTO chooses it from the data
 */
void
bl_compare_view_set_threshold (BlCompareView *self,
                               double         pct)
{
  g_return_if_fail (BL_IS_COMPARE_VIEW (self));

  if (pct < 0 || isnan (pct))
    pct = BL_DIFF_THRESHOLD_AUTO;
  if (self->threshold_pct == pct)
    return;

  self->threshold_pct = pct;
  refresh_values (self);
}

/**
 * bl_compare_view_get_threshold:
 *
 * Returns: the threshold in use, in percent of the total (the automatic
 *   one when it is chosen from the data)
 */
double
bl_compare_view_get_threshold (BlCompareView *self)
{
  BlDiffThreshold threshold;

  g_return_val_if_fail (BL_IS_COMPARE_VIEW (self), 0.0);

  if (!is_profile_diff (self) || self->metric == BL_METRIC_INVALID)
    return self->threshold_pct;

  threshold_of (self, &threshold);

  return bl_diff_threshold_get_pct (self->diff, self->metric, &threshold);
}

gboolean
bl_compare_view_get_threshold_auto (BlCompareView *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_VIEW (self), TRUE);

  return self->threshold_pct == BL_DIFF_THRESHOLD_AUTO;
}

/**
 * bl_compare_view_get_summary_label:
 *
 * Returns: (transfer none): the label with the summary sentence
 */
GtkLabel *
bl_compare_view_get_summary_label (BlCompareView *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_VIEW (self), NULL);

  return self->summary_label;
}

/**
 * bl_compare_view_get_legend:
 *
 * Returns: (transfer none): the legend strip of the differential graph
 */
GtkWidget *
bl_compare_view_get_legend (BlCompareView *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_VIEW (self), NULL);

  return GTK_WIDGET (self->legend);
}

/**
 * bl_compare_view_get_function_table:
 *
 * Returns: (transfer none): the function table
 */
GtkColumnView *
bl_compare_view_get_function_table (BlCompareView *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_VIEW (self), NULL);

  return self->column_view;
}

/**
 * bl_compare_view_sort_functions:
 * @column: "size" (the size of the change of the total), "class", "delta-total", "name"
 *
 * Sorts the function table by @column, largest first (names A to Z).
 */
void
bl_compare_view_sort_functions (BlCompareView *self,
                                const char    *column)
{
  Column c;

  g_return_if_fail (BL_IS_COMPARE_VIEW (self));
  g_return_if_fail (column != NULL);

  if (g_str_equal (column, "size"))
    c = COL_SIZE;
  else if (g_str_equal (column, "class"))
    c = COL_KIND;
  else if (g_str_equal (column, "name"))
    c = COL_NAME;
  else
    c = COL_DELTA_TOTAL;

  gtk_column_view_sort_by_column (self->column_view, self->columns[c],
                                  c == COL_NAME ? GTK_SORT_ASCENDING : GTK_SORT_DESCENDING);
}

/**
 * bl_compare_view_get_function_kind:
 *
 * Returns: the class shown for the function at @position of the table
 */
BlDiffKind
bl_compare_view_get_function_kind (BlCompareView *self,
                                   guint          position)
{
  g_autoptr(BlCompareRow) row = NULL;

  g_return_val_if_fail (BL_IS_COMPARE_VIEW (self), BL_DIFF_KIND_NEUTRAL);

  row = g_list_model_get_item (G_LIST_MODEL (self->sort_model), position);

  return row != NULL ? row->kind : BL_DIFF_KIND_NEUTRAL;
}

/**
 * bl_compare_view_set_alignment:
 * @beacon: (nullable): the beacon for %BL_DIFF_ALIGN_BEACON
 *
 * Aligns every chart; fails when a session lacks @beacon.
 */
gboolean
bl_compare_view_set_alignment (BlCompareView  *self,
                               BlDiffAlign     align,
                               const char     *beacon,
                               GError        **error)
{
  gint64 offset_a, offset_b;

  g_return_val_if_fail (BL_IS_COMPARE_VIEW (self), FALSE);

  if (self->diff == NULL || !bl_diff_is_session (self->diff))
    return FALSE;

  if (!bl_diff_get_alignment (self->diff, align, beacon, &offset_a, &offset_b, error))
    return FALSE;

  apply_alignment (self, offset_a, offset_b,
                   align == BL_DIFF_ALIGN_BEACON ? beacon : NULL);

  /* show the choice when it came from the API */
  self->updating = TRUE;
  if (align == BL_DIFF_ALIGN_START)
    gtk_drop_down_set_selected (self->align_dropdown, 0);
  else
    for (guint i = 1; i < g_list_model_get_n_items (G_LIST_MODEL (self->align_names)); i++)
      if (g_strcmp0 (gtk_string_list_get_string (self->align_names, i), beacon) == 0)
        gtk_drop_down_set_selected (self->align_dropdown, i);
  self->updating = FALSE;

  return TRUE;
}

void
bl_compare_view_set_stacked (BlCompareView *self,
                             gboolean       stacked)
{
  g_return_if_fail (BL_IS_COMPARE_VIEW (self));

  if (gtk_toggle_button_get_active (self->stacked_button) != !!stacked)
    gtk_toggle_button_set_active (self->stacked_button, stacked);

  for (guint i = 0; i < G_N_ELEMENTS (chart_series); i++)
    if (self->charts[i] != NULL)
      bl_compare_chart_set_stacked (self->charts[i], stacked);
}

/**
 * bl_compare_view_get_chart:
 *
 * Returns: (transfer none) (nullable): the chart of @series, if either
 *   session has it
 */
BlCompareChart *
bl_compare_view_get_chart (BlCompareView *self,
                           BlSeriesId     series)
{
  g_return_val_if_fail (BL_IS_COMPARE_VIEW (self), NULL);

  for (guint i = 0; i < G_N_ELEMENTS (chart_series); i++)
    if (chart_series[i] == series)
      return self->charts[i];

  return NULL;
}
