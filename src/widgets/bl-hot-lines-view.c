/* bl-hot-lines-view.c — every source line of a profile, hottest first
 *
 * The lines of all functions ranked by the chosen metric (bl_lines_rank:
 * ties by file, then line; lines without a value left out). Selecting a
 * row emits BlHotLinesView::line-selected with the line record, and the
 * page around it opens the source there.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-hot-lines-view"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "bl-hot-lines-view.h"
#include "bl-line-item.h"
#include "bl-line-list.h"
#include "bl-lines.h"
#include "bl-row-slice.h"

struct _BlHotLinesView
{
  GtkWidget           parent_instance;

  BlProfile          *profile;
  BlMetricId          metric;
  gboolean            filling;
  gboolean            stale;     /* rows to rank when next shown or asked for */
  gboolean            loading;   /* a worker is ranking them */
  GCancellable       *cancellable;
  GBytes             *order;     /* the profile's records in place order, once made */

  GtkLabel           *count_label;
  GtkStack           *stack;
  AdwStatusPage      *empty_page;
  GtkColumnView      *column_view;
  BlLineList         *store;     /* the ranked lines, items made when bound */
  BlRowSlice          rows;      /* of the store, what the view shows */
  GtkSingleSelection *selection;
};

G_DEFINE_FINAL_TYPE (BlHotLinesView, bl_hot_lines_view, GTK_TYPE_WIDGET)

enum {
  LINE_SELECTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

enum {
  PROP_0,
  PROP_LOADING,
  N_PROPS
};

static void apply_ranking (BlHotLinesView *self,
                           guint32        *ranked,
                           guint           n_ranked);

static void
set_loading (BlHotLinesView *self,
             gboolean        loading)
{
  if (self->loading == loading)
    return;

  self->loading = loading;
  g_object_notify (G_OBJECT (self), "loading");
}

static void
cancel_ranking (BlHotLinesView *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
}

typedef struct
{
  BlProfile  *profile;
  BlMetricId  metric;
  GBytes     *order;     /* bl_lines_place_order(): given, or made by the worker */
  guint32    *ranked;
  guint       n_ranked;
} Ranking;

static void
ranking_free (gpointer data)
{
  Ranking *r = data;

  g_clear_object (&r->profile);
  g_clear_pointer (&r->order, g_bytes_unref);
  g_free (r->ranked);
  g_free (r);
}

/* Ranks @r's profile by its metric. The place order (the ties' order) is
 * the same for every metric: made once, and kept for the next ranking. */
static void
rank (Ranking *r)
{
  gsize size;
  const guint32 *order;

  if (r->profile == NULL || r->metric == BL_METRIC_INVALID)
    return;

  if (r->order == NULL)
    {
      guint n;
      guint32 *made = bl_lines_place_order (r->profile, &n);

      r->order = g_bytes_new_take (made, (gsize) n * sizeof (guint32));
    }
  order = g_bytes_get_data (r->order, &size);
  r->ranked = bl_lines_rank_in_order (r->profile, order, size / sizeof (guint32),
                                      r->metric, 0, &r->n_ranked);
}

static Ranking *
ranking_new (BlHotLinesView *self)
{
  Ranking *r = g_new0 (Ranking, 1);

  r->profile = self->profile ? g_object_ref (self->profile) : NULL;
  r->metric = self->metric;
  r->order = self->order ? g_bytes_ref (self->order) : NULL;

  return r;
}

/* what a ranking made for this profile is kept */
static void
keep_order (BlHotLinesView *self,
            Ranking        *r)
{
  if (r->order != NULL && r->profile == self->profile && self->order == NULL)
    self->order = g_bytes_ref (r->order);
}

static void
rank_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  rank (task_data);
  g_task_return_boolean (task, TRUE);
}

static void
rank_ready (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(BlHotLinesView) self = user_data;
  Ranking *r = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), NULL))
    return;   /* cancelled: a newer ranking is on its way, or none is wanted */

  g_clear_object (&self->cancellable);
  keep_order (self, r);
  apply_ranking (self, g_steal_pointer (&r->ranked), r->n_ranked);
  set_loading (self, FALSE);
}

/* Ranking every line of a big profile takes the main thread a noticeable
 * time: a shown view ranks in a worker and says so meanwhile; a
 * hidden one (the Lines page behind the tables) waits until it is shown. */
static void
start_ranking (BlHotLinesView *self)
{
  g_autoptr(GTask) task = NULL;
  Ranking *r = ranking_new (self);

  cancel_ranking (self);
  self->stale = FALSE;

  self->cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->cancellable, rank_ready, g_object_ref (self));
  g_task_set_source_tag (task, start_ranking);
  g_task_set_task_data (task, r, ranking_free);
  g_task_set_check_cancellable (task, TRUE);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  set_loading (self, TRUE);
  g_task_run_in_thread (task, rank_worker);
}

/* ranks on the calling thread, for those who ask for the rows now */
static void
rank_now (BlHotLinesView *self)
{
  Ranking *r = ranking_new (self);

  cancel_ranking (self);
  self->stale = FALSE;
  rank (r);
  keep_order (self, r);
  apply_ranking (self, g_steal_pointer (&r->ranked), r->n_ranked);
  ranking_free (r);
  set_loading (self, FALSE);
}

static void
queue_rebuild (BlHotLinesView *self)
{
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    start_ranking (self);
  else
    {
      cancel_ranking (self);
      set_loading (self, FALSE);
      self->stale = TRUE;
    }
}

static void
ensure_rows (BlHotLinesView *self)
{
  if (self->stale || self->loading)
    rank_now (self);
}

static void
bl_hot_lines_view_map (GtkWidget *widget)
{
  BlHotLinesView *self = BL_HOT_LINES_VIEW (widget);

  GTK_WIDGET_CLASS (bl_hot_lines_view_parent_class)->map (widget);

  if (self->stale)
    start_ranking (self);
}

static void
apply_ranking (BlHotLinesView *self,
               guint32        *ranked,
               guint           n_ranked)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);
  BlMetricId metrics[4];
  guint n_metrics = 0;
  g_autofree char *count = NULL;

  self->filling = TRUE;

  /* the columns change while there are no rows: each column added to
   * bound rows bound a cell in every one of them */
  bl_line_list_set (self->store, NULL, NULL, 0);
  while (g_list_model_get_n_items (columns) > 0)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, 0);

      gtk_column_view_remove_column (self->column_view, column);
    }
  if (self->metric != BL_METRIC_INVALID)
    {
      metrics[n_metrics++] = self->metric;
      if (self->metric != BL_METRIC_CPU && self->profile &&
          bl_profile_has_metric (self->profile, BL_METRIC_CPU))
        metrics[n_metrics++] = BL_METRIC_CPU;
    }
  bl_line_item_add_columns (self->column_view, FALSE, metrics, n_metrics);

  /* no object per line: the list makes the items that are bound */
  bl_row_slice_restart (&self->rows);
  bl_line_list_set (self->store, self->profile, ranked, n_ranked);
  bl_row_slice_grow (&self->rows);

  count = g_strdup_printf (ngettext ("%u line", "%u lines", n_ranked), n_ranked);
  gtk_label_set_text (self->count_label, count);

  if (n_ranked > 0)
    gtk_stack_set_visible_child_name (self->stack, "lines");
  else
    {
      adw_status_page_set_description (self->empty_page,
                                       self->profile && bl_profile_get_n_lines (self->profile) == 0
                                       ? _("This profile has no per-line data. Roku writes it "
                                           "when profiling runs with bsprof_enable_lines=1.")
                                       : _("No line has a value for this metric."));
      gtk_stack_set_visible_child_name (self->stack, "empty");
    }

  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  self->filling = FALSE;
}

static void
selected_cb (BlHotLinesView *self)
{
  BlLineItem *item = gtk_single_selection_get_selected_item (self->selection);

  if (self->filling || item == NULL)
    return;

  g_signal_emit (self, signals[LINE_SELECTED], 0, bl_line_item_get_line_index (item));
}

static void
activate_cb (BlHotLinesView *self,
             guint           position)
{
  g_autoptr(BlLineItem) item = g_list_model_get_item (G_LIST_MODEL (self->store), position);

  if (item != NULL)
    g_signal_emit (self, signals[LINE_SELECTED], 0, bl_line_item_get_line_index (item));
}

static void
bl_hot_lines_view_dispose (GObject *object)
{
  BlHotLinesView *self = (BlHotLinesView *) object;
  GtkWidget *child;

  cancel_ranking (self);
  bl_row_slice_clear (&self->rows);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->selection);
  g_clear_object (&self->store);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->order, g_bytes_unref);

  G_OBJECT_CLASS (bl_hot_lines_view_parent_class)->dispose (object);
}

static void
bl_hot_lines_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  BlHotLinesView *self = BL_HOT_LINES_VIEW (object);

  switch (prop_id)
    {
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_hot_lines_view_class_init (BlHotLinesViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_hot_lines_view_dispose;
  object_class->get_property = bl_hot_lines_view_get_property;
  widget_class->map = bl_hot_lines_view_map;

  /**
   * BlHotLinesView::line-selected:
   * @line_index: the line record of the selected row
   */
  signals[LINE_SELECTED] = g_signal_new ("line-selected", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 1, G_TYPE_UINT);

  /**
   * BlHotLinesView:loading:
   *
   * The lines are being ranked in a worker; the view says so.
   */
  g_object_class_install_property (object_class, PROP_LOADING,
                                   g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                                                         G_PARAM_READABLE |
                                                         G_PARAM_STATIC_STRINGS));

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "hotlines");
}

static void
bl_hot_lines_view_init (BlHotLinesView *self)
{
  GtkWidget *title_row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title = gtk_label_new (_("Hot Lines"));
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkLayoutManager *layout;

  layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  self->metric = BL_METRIC_INVALID;

  gtk_widget_add_css_class (title_row, "bl-sandwich-title");
  gtk_widget_add_css_class (title, "heading");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  self->count_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_hexpand (GTK_WIDGET (self->count_label), TRUE);
  gtk_label_set_xalign (self->count_label, 1);
  gtk_widget_add_css_class (GTK_WIDGET (self->count_label), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->count_label), "numeric");
  gtk_box_append (GTK_BOX (title_row), title);
  gtk_box_append (GTK_BOX (title_row), GTK_WIDGET (self->count_label));
  gtk_widget_set_parent (title_row, GTK_WIDGET (self));

  self->store = bl_line_list_new ();
  bl_row_slice_init (&self->rows, GTK_WIDGET (self));
  self->selection =
    gtk_single_selection_new (bl_row_slice_wrap (&self->rows,
                                                 g_object_ref (G_LIST_MODEL (self->store))));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (
                                         g_object_ref (GTK_SELECTION_MODEL (self->selection))));
  gtk_widget_add_css_class (GTK_WIDGET (self->column_view), "data-table");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->column_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Hot lines"), -1);
  g_signal_connect_swapped (self->selection, "notify::selected-item",
                            G_CALLBACK (selected_cb), self);
  g_signal_connect_swapped (self->column_view, "activate", G_CALLBACK (activate_cb), self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->column_view));

  self->empty_page = ADW_STATUS_PAGE (adw_status_page_new ());
  adw_status_page_set_title (self->empty_page, _("No Hot Lines"));
  gtk_widget_add_css_class (GTK_WIDGET (self->empty_page), "compact");

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  gtk_stack_add_named (self->stack, scroller, "lines");
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->empty_page), "empty");
  {
    /* still: an animation would redraw the window while the worker runs */
    GtkWidget *placeholder = gtk_label_new (_("Ranking lines…"));

    gtk_widget_add_css_class (placeholder, "dim-label");
    gtk_widget_set_valign (placeholder, GTK_ALIGN_CENTER);
    gtk_stack_add_named (self->stack, placeholder, "loading");
  }
  gtk_widget_set_parent (GTK_WIDGET (self->stack), GTK_WIDGET (self));

  apply_ranking (self, NULL, 0);
}

GtkWidget *
bl_hot_lines_view_new (void)
{
  return g_object_new (BL_TYPE_HOT_LINES_VIEW, NULL);
}

void
bl_hot_lines_view_set_profile (BlHotLinesView *self,
                               BlProfile      *profile)
{
  g_return_if_fail (BL_IS_HOT_LINES_VIEW (self));
  g_return_if_fail (!profile || BL_IS_PROFILE (profile));

  if (!g_set_object (&self->profile, profile))
    return;

  g_clear_pointer (&self->order, g_bytes_unref);
  queue_rebuild (self);
}

BlMetricId
bl_hot_lines_view_get_metric (BlHotLinesView *self)
{
  g_return_val_if_fail (BL_IS_HOT_LINES_VIEW (self), BL_METRIC_INVALID);

  return self->metric;
}

void
bl_hot_lines_view_set_metric (BlHotLinesView *self,
                              BlMetricId      metric)
{
  g_return_if_fail (BL_IS_HOT_LINES_VIEW (self));

  if (self->metric == metric)
    return;

  self->metric = metric;
  queue_rebuild (self);
}

/**
 * bl_hot_lines_view_prepare:
 *
 * A hidden view ranks its lines when it is shown; this ranks them now, in
 * a worker, so that they are there when the user turns to it. For when
 * what the user is looking at has been drawn.
 */
void
bl_hot_lines_view_prepare (BlHotLinesView *self)
{
  g_return_if_fail (BL_IS_HOT_LINES_VIEW (self));

  if (self->stale && self->profile != NULL && bl_profile_get_n_lines (self->profile) > 0)
    start_ranking (self);
}

/* Returns: (transfer none): the ranked BlLineItems */
GListModel *
bl_hot_lines_view_get_model (BlHotLinesView *self)
{
  g_return_val_if_fail (BL_IS_HOT_LINES_VIEW (self), NULL);

  ensure_rows (self);

  return G_LIST_MODEL (self->store);
}

/* Selects a row as a click would, emitting ::line-selected. */
void
bl_hot_lines_view_select (BlHotLinesView *self,
                          guint           position)
{
  g_return_if_fail (BL_IS_HOT_LINES_VIEW (self));

  ensure_rows (self);
  bl_row_slice_show_all (&self->rows);
  gtk_single_selection_set_selected (self->selection, position);
}

/**
 * bl_hot_lines_view_get_loading:
 *
 * Returns: whether the lines are being ranked (the view says so)
 */
gboolean
bl_hot_lines_view_get_loading (BlHotLinesView *self)
{
  g_return_val_if_fail (BL_IS_HOT_LINES_VIEW (self), FALSE);

  return self->loading;
}
