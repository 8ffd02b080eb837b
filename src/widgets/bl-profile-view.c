/* bl-profile-view.c
 *
 * What a loaded profile looks like: a header (app, device, run, data), a
 * banner for an incomplete stream, the thread and metric selectors and the
 * search, the flame graph with its zoom path, and the tables. A selection in
 * any table selects the frame in the flame graph, and the flame graph's
 * selection is shown in every table.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-profile-view"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "bl-after-paint.h"
#include "bl-alloc-histogram.h"
#include "bl-lines-page.h"
#include "bl-profile-view.h"
#include "bl-trace-view.h"

#if defined(__has_include)
# if __has_include ("bl-flame-chart.h")
#  include "bl-flame-chart.h"
#  define HAVE_FLAME_CHART 1
# endif
#endif

#define MAX_CRUMBS 12

struct _BlProfileView
{
  GtkWidget        parent_instance;

  BlProfile       *profile;
  BlMetricId       metrics[BL_N_METRICS];
  guint            n_metrics;
  gboolean         syncing;
  gboolean         building;
  gboolean         paned_fitted;
  gboolean         focus_timeline;   /* on the trace view's next map */
  guint            release_source;   /* hidden tables held until the graph is drawn */
  BlAfterPaint     release_wait;     /* the paint after which they go */
  guint            release_idle;     /* lets them go one by one */
  guint            release_next;
  GtkWidget       *sync_source;
  GSettings       *settings;
  char            *fallback_title;

  /* call-tree transforms: self->profile is @original with them applied */
  BlProfile       *original;
  GPtrArray       *transforms;       /* BlTransform *, in order */
  GPtrArray       *undo;             /* earlier lists of transforms (GPtrArray *) */
  GPtrArray       *redo;
  GCancellable    *transform_cancellable;
  GtkWidget       *transform_bar;
  GtkBox          *transform_chips;
  GtkMenuButton   *preset_button;

  /* template */
  GtkLabel        *title_label;
  GtkLabel        *device_label;
  GtkLabel        *data_label;
  GtkRevealer     *banner_revealer;
  GtkLabel        *banner_label;
  GtkDropDown     *thread_dropdown;
  GtkDropDown     *metric_dropdown;
  GtkSearchEntry  *search_entry;
  GtkToggleButton *filter_button;
  GtkLabel        *match_label;
  guint            match_position;   /* of the match stepped to, G_MAXUINT: none */
  GtkStackSwitcher *graph_switcher;
  GtkToggleButton *icicle_button;
  GtkBox          *breadcrumb;
  GtkPaned        *paned;
  GtkStack        *graph_stack;
  BlTraceView     *trace_view;
  GtkStack        *flame_state;
  AdwStatusPage   *empty_page;
  GtkStack        *table_stack;
  GtkWidget       *lines_page;
  GtkWidget       *alloc_histogram;   /* mpatrol's allocation sizes */
  BlFlameGraph    *flame_graph;
  BlCallTreeView  *top_down;
  BlCallTreeView  *bottom_up;
  BlCallTreeView  *functions;
  BlCallTreeView  *callers;
  BlCallTreeView  *callees;
#ifdef HAVE_FLAME_CHART
  GtkWidget       *flame_chart;
#endif
};

G_DEFINE_FINAL_TYPE (BlProfileView, bl_profile_view, GTK_TYPE_WIDGET)

static void show_profile (BlProfileView *self,
                          BlProfile     *profile);

/* whether a trace's Timeline page is shown */
static gboolean
showing_timeline (BlProfileView *self)
{
  return gtk_stack_get_visible_child (self->graph_stack) == GTK_WIDGET (self->trace_view);
}

static BlCallTreeView *
table (BlProfileView *self,
       guint          i)
{
  BlCallTreeView *tables[] = { self->top_down, self->bottom_up, self->functions,
                               self->callers, self->callees };

  return i < G_N_ELEMENTS (tables) ? tables[i] : NULL;
}

/* ------------------------------------------------------------------------ */
/* header                                                                    */

static void
update_header (BlProfileView *self)
{
  const BlProfileInfo *info;
  g_autoptr(GString) title = g_string_new (NULL);
  g_autoptr(GString) device = g_string_new (NULL);
  g_autoptr(GString) data = g_string_new (NULL);
  g_autoptr(GPtrArray) carries = g_ptr_array_new_with_free_func (g_free);
  const char *reason;

  if (self->profile == NULL)
    return;

  info = bl_profile_get_info (self->profile);

  if (info->target != NULL && info->target[0] != '\0')
    g_string_append (title, info->target);
  else
    g_string_append (title, self->fallback_title ? self->fallback_title : _("Profile"));
  if (info->version != NULL && info->version[0] != '\0')
    g_string_append_printf (title, " %s", info->version);
  gtk_label_set_text (self->title_label, title->str);

  if ((info->vendor && info->vendor[0]) || (info->model && info->model[0]))
    {
      gboolean both = info->vendor && info->vendor[0] && info->model && info->model[0];

      g_string_append_printf (device, "%s%s%s",
                              info->vendor ? info->vendor : "",
                              both ? " " : "",
                              info->model ? info->model : "");
    }
  if (info->firmware && info->firmware[0])
    {
      if (device->len > 0)
        g_string_append (device, " · ");
      /* Translators: the device's firmware version */
      g_string_append_printf (device, _("firmware %s"), info->firmware);
    }
  if (info->start_ms > 0)
    {
      g_autoptr(GDateTime) start = g_date_time_new_from_unix_local (info->start_ms / 1000);
      g_autofree char *when = start ? g_date_time_format (start, "%x %X") : NULL;

      if (when != NULL)
        {
          if (device->len > 0)
            g_string_append (device, " · ");
          /* Translators: when the profile was recorded */
          g_string_append_printf (device, _("recorded %s"), when);
        }
      if (info->end_ms > info->start_ms)
        {
          g_autofree char *dur = bl_format_duration_us ((info->end_ms - info->start_ms) * 1000);

          /* Translators: how long the recording ran */
          g_string_append_printf (device, _(" for %s"), dur);
        }
    }
  if (info->actual_ratio > 0 || info->requested_ratio > 0)
    {
      if (device->len > 0)
        g_string_append (device, " · ");
      if (info->requested_ratio > 0 && info->requested_ratio != info->actual_ratio)
        /* Translators: the fraction of calls the profiler sampled */
        g_string_append_printf (device, _("sample ratio %.3g (requested %.3g)"),
                                info->actual_ratio, info->requested_ratio);
      else
        g_string_append_printf (device, _("sample ratio %.3g"), info->actual_ratio);
    }
  if (device->len == 0 && info->format != NULL)
    /* Translators: the profile's file format, e.g. "speedscope profile" */
    g_string_append_printf (device, _("%s profile"), info->format);
  gtk_label_set_text (self->device_label, device->str);

  /* one short line; the metrics are in the metric selector, and listed in
   * the tooltip */
  for (guint i = 0; i < self->n_metrics; i++)
    g_ptr_array_add (carries, g_strdup (_(bl_metric_get_info (self->metrics[i])->display_name)));
  g_ptr_array_add (carries, NULL);
  {
    g_autofree char *list = g_strjoinv ("\n", (char **) carries->pdata);
    guint n_threads = bl_profile_get_n_threads (self->profile);

    g_string_append_printf (data,
                            g_dngettext (GETTEXT_PACKAGE, "%u thread, %u frames",
                                         "%u threads, %u frames", n_threads),
                            n_threads, bl_profile_get_n_nodes (self->profile));
    if (info->has_lines)
      g_string_append_printf (data, " · %s", _("per-line data"));
    if (info->has_memory)
      g_string_append_printf (data, " · %s", _("memory operations"));
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->data_label), list);
  }
  gtk_label_set_text (self->data_label, data->str);

  reason = bl_profile_get_incomplete_reason (self->profile);
  if (bl_profile_is_incomplete (self->profile))
    {
      /* the reader's reason is a sentence that says where the stream ended */
      gtk_label_set_text (self->banner_label,
                          reason != NULL ? reason
                          : _("This profile is incomplete: the stream ended early. "
                              "Everything before that point is shown."));
      gtk_revealer_set_reveal_child (self->banner_revealer, TRUE);
    }
  else if (bl_profile_get_warning (self->profile) != NULL)
    {
      gtk_label_set_text (self->banner_label, bl_profile_get_warning (self->profile));
      gtk_revealer_set_reveal_child (self->banner_revealer, TRUE);
    }
  else
    gtk_revealer_set_reveal_child (self->banner_revealer, FALSE);
}

/* ------------------------------------------------------------------------ */
/* selectors                                                                 */

static void
update_selectors (BlProfileView *self)
{
  g_autoptr(GtkStringList) threads = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) metrics = gtk_string_list_new (NULL);
  BlMetricId metric;

  self->n_metrics = 0;
  if (self->profile == NULL)
    return;

  gtk_string_list_append (threads, _("All threads"));
  for (guint t = 0; t < bl_profile_get_n_threads (self->profile); t++)
    gtk_string_list_append (threads, bl_profile_get_thread_name (self->profile, t));

  /* only the metrics this profile has; counts the tables show anyway */
  {
    BlMetricId all[BL_N_METRICS];
    guint n = bl_profile_list_metrics (self->profile, all);

    for (guint i = 0; i < n; i++)
      {
        self->metrics[self->n_metrics++] = all[i];
        gtk_string_list_append (metrics, _(bl_metric_get_info (all[i])->display_name));
      }
  }

  gtk_drop_down_set_model (self->thread_dropdown, G_LIST_MODEL (threads));
  gtk_drop_down_set_model (self->metric_dropdown, G_LIST_MODEL (metrics));
  gtk_widget_set_visible (GTK_WIDGET (self->thread_dropdown),
                          bl_profile_get_n_threads (self->profile) > 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->metric_dropdown),
                            self->n_metrics > 1 && !showing_timeline (self));

  /* the preferred metric when this profile has it, else the one shown last,
   * else the profile's own */
  metric = bl_profile_get_default_metric (self->profile);
  if (self->settings != NULL)
    {
      static const char *keys[] = { "last-metric", "default-metric" };

      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        {
          g_autofree char *name = g_settings_get_string (self->settings, keys[k]);
          BlMetricId wanted = bl_metric_from_name (name);

          if (wanted != BL_METRIC_INVALID && bl_profile_has_metric (self->profile, wanted))
            metric = wanted;
        }
    }
  bl_profile_view_set_metric (self, metric);

  /* one thread: show it; several: all of them */
  gtk_drop_down_set_selected (self->thread_dropdown,
                              bl_profile_get_n_threads (self->profile) == 1 ? 1 : 0);
}

/* ------------------------------------------------------------------------ */
/* hidden tables wait for the flame graph                                    */

/* The hidden tables (Bottom-Up, Functions, …) make their rows in workers;
 * on a big profile, started with the flame graph's layout, they take the
 * processor from it and the first frame comes much later. While the graph
 * is the view shown in a window, they wait until its layout is there (or a
 * second, whatever happens); a table shown meanwhile starts at once. */

static gboolean
graph_layout_current (BlProfileView *self)
{
  BlFlameLayout *layout = bl_flame_graph_get_layout (self->flame_graph);

  return layout != NULL &&
         bl_flame_layout_get_profile (layout) == bl_flame_graph_get_profile (self->flame_graph) &&
         bl_flame_layout_get_metric (layout) == bl_flame_graph_get_metric (self->flame_graph) &&
         bl_flame_layout_get_thread (layout) == bl_flame_graph_get_thread (self->flame_graph);
}

static void
stop_release (BlProfileView *self)
{
  g_clear_handle_id (&self->release_source, g_source_remove);
  g_clear_handle_id (&self->release_idle, g_source_remove);
  bl_after_paint_stop (&self->release_wait);
}

static void
release_tables (BlProfileView *self)
{
  stop_release (self);
  for (guint i = 0; table (self, i) != NULL; i++)
    bl_call_tree_view_set_held (table (self, i), FALSE);
}

/* one table a turn of the main loop, below the priority of drawing: each
 * takes down the rows it kept and starts its worker; then the Lines page,
 * if hidden, ranks its lines in a worker */
static gboolean
release_next_table (gpointer data)
{
  BlProfileView *self = data;
  BlCallTreeView *next = table (self, self->release_next);

  if (next == NULL)
    {
      self->release_idle = 0;
      if (self->lines_page != NULL)
        bl_hot_lines_view_prepare (bl_lines_page_get_hot_lines (BL_LINES_PAGE (self->lines_page)));
      return G_SOURCE_REMOVE;
    }
  bl_call_tree_view_set_held (next, FALSE);
  self->release_next++;

  return G_SOURCE_CONTINUE;
}

static void
release_after_paint_cb (GdkFrameClock *clock,
                        BlProfileView *self)
{
  stop_release (self);
  self->release_next = 0;
  self->release_idle = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, release_next_table, self, NULL);
}

/* The graph has its layout: the hidden tables wait until the frame that
 * shows it has been painted, so that what they do (taking down their old
 * rows, a couple of frames of the main thread's time together) is not
 * between the user's click and its result. Without a frame clock, now. */
static void
release_after_paint (BlProfileView *self)
{
  if (gtk_widget_get_frame_clock (GTK_WIDGET (self)) == NULL)
    {
      release_tables (self);
      return;
    }
  if (bl_after_paint_waiting (&self->release_wait) || self->release_idle != 0)
    return;
  bl_after_paint_wait (&self->release_wait, GTK_WIDGET (self),
                       G_CALLBACK (release_after_paint_cb), self);
  gtk_widget_queue_draw (GTK_WIDGET (self->flame_graph));
}

static void
release_tables_timeout (gpointer data)
{
  BlProfileView *self = data;

  self->release_source = 0;
  release_tables (self);
}

static void
graph_layout_cb (BlProfileView *self)
{
  if (self->release_source != 0 && graph_layout_current (self))
    release_after_paint (self);
}

/* before the tables are given what the graph was just given */
static void
hold_tables (BlProfileView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  gboolean hold = root != NULL && gtk_widget_get_mapped (GTK_WIDGET (root)) &&
                  g_strcmp0 (gtk_stack_get_visible_child_name (self->graph_stack),
                             "flame-graph") == 0 &&
                  !graph_layout_current (self);

  if (!hold)
    {
      release_tables (self);
      return;
    }
  stop_release (self);
  for (guint i = 0; table (self, i) != NULL; i++)
    bl_call_tree_view_set_held (table (self, i), TRUE);
  self->release_source = g_timeout_add_once (1000, release_tables_timeout, self);
}

static void
thread_selected_cb (BlProfileView *self)
{
  guint thread = bl_profile_view_get_thread (self);

  if (self->profile == NULL || self->building)
    return;

  bl_flame_graph_set_thread (self->flame_graph, thread);
  hold_tables (self);
  for (guint i = 0; table (self, i) != NULL; i++)
    bl_call_tree_view_set_profile (table (self, i), self->profile, thread);
#ifdef HAVE_FLAME_CHART
  if (self->flame_chart != NULL)
    bl_flame_chart_set_profile (BL_FLAME_CHART (self->flame_chart), self->profile, thread);
#endif
}

static void
apply_metric (BlProfileView *self)
{
  guint i = gtk_drop_down_get_selected (self->metric_dropdown);

  if (i >= self->n_metrics || self->building)
    return;

  bl_flame_graph_set_metric (self->flame_graph, self->metrics[i]);
  hold_tables (self);
  for (guint k = 0; table (self, k) != NULL; k++)
    bl_call_tree_view_set_metric (table (self, k), self->metrics[i]);
}

static void
metric_selected_cb (BlProfileView *self)
{
  guint i = gtk_drop_down_get_selected (self->metric_dropdown);

  if (i >= self->n_metrics || self->building)
    return;

  apply_metric (self);

  /* remembered for the next profile that has it */
  if (self->settings != NULL)
    g_settings_set_string (self->settings, "last-metric", bl_metric_get_name (self->metrics[i]));
}

/* ------------------------------------------------------------------------ */
/* search, zoom path                                                         */

static void
update_match_label (BlProfileView *self)
{
  const char *search = bl_flame_graph_get_search (self->flame_graph);
  BlMetricId metric = bl_flame_graph_get_metric (self->flame_graph);
  g_autofree char *text = NULL;

  if (search != NULL && metric != BL_METRIC_INVALID)
    {
      g_autofree char *share = NULL;
      guint n = bl_flame_graph_get_n_matches (self->flame_graph);

      /* Translators: the share of the metric spent in frames matching the search */
      share = g_strdup_printf (_("Matches %.1f %% of %s"),
                               100.0 * bl_flame_graph_get_match_fraction (self->flame_graph),
                               _(bl_metric_get_info (metric)->display_name));
      if (self->match_position < n)
        /* Translators: the match Enter stepped to, of how many frames match; then the share */
        text = g_strdup_printf (_("%u of %u · %s"), self->match_position + 1, n, share);
      else
        text = g_steal_pointer (&share);
    }

  gtk_label_set_text (self->match_label, text ? text : "");
  /* the label ellipsizes in a narrow window: the whole text on hover */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->match_label), text);
}

/* Which nodes lie on a stack that holds a match (a matching frame, its
 * ancestors and its descendants), and which functions have such a node. */
static void
compute_match_stacks (BlProfile  *profile,
                      const char *search,
                      GBytes    **nodes_out,
                      GBytes    **functions_out)
{
  g_autofree char *needle = g_utf8_casefold (search, -1);
  guint n_strings = bl_profile_get_n_strings (profile);
  guint n_nodes = bl_profile_get_n_nodes (profile);
  guint n_functions = bl_profile_get_n_functions (profile);
  const BlNode *nodes = bl_profile_get_nodes (profile);
  g_autofree guint8 *string_match = g_new0 (guint8, MAX (n_strings, 1));
  g_autofree guint8 *under = g_new0 (guint8, MAX (n_nodes, 1));  /* 0 ?, 1 yes, 2 no */
  guint8 *on = g_new0 (guint8, MAX (n_nodes, 1));
  guint8 *functions = g_new0 (guint8, MAX (n_functions, 1));
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint i = 1; i < n_strings; i++)
    {
      g_autofree char *hay = g_utf8_casefold (bl_profile_get_string (profile, i), -1);

      string_match[i] = strstr (hay, needle) != NULL;
    }

  for (guint32 n = 0; n < n_nodes; n++)
    {
      guint32 m = n;
      guint8 state = 2;

      /* under a match: walk up to a node already known, then fill the path */
      g_array_set_size (path, 0);
      while (m != BL_NODE_NONE && m < n_nodes && under[m] == 0)
        {
          if (string_match[nodes[m].name])
            {
              under[m] = 1;
              break;
            }
          g_array_append_val (path, m);
          m = nodes[m].parent;
        }
      if (m != BL_NODE_NONE && m < n_nodes)
        state = under[m];
      for (guint k = 0; k < path->len; k++)
        under[g_array_index (path, guint32, k)] = state;
      if (under[n] == 1)
        on[n] = 1;

      /* a match marks its ancestors */
      if (string_match[nodes[n].name])
        for (m = nodes[n].parent; m != BL_NODE_NONE && m < n_nodes && !on[m]; m = nodes[m].parent)
          on[m] = 1;
    }

  for (guint32 n = 0; n < n_nodes; n++)
    if (on[n])
      {
        guint32 f = bl_profile_get_node_function (profile, n);

        if (f < n_functions)
          functions[f] = 1;
      }

  *nodes_out = g_bytes_new_take (on, MAX (n_nodes, 1));
  *functions_out = g_bytes_new_take (functions, MAX (n_functions, 1));
}

static void
update_filter (BlProfileView *self)
{
  const char *search = bl_flame_graph_get_search (self->flame_graph);
  g_autoptr(GBytes) nodes = NULL;
  g_autoptr(GBytes) functions = NULL;

  if (self->profile != NULL && search != NULL && search[0] != '\0' &&
      gtk_toggle_button_get_active (self->filter_button))
    compute_match_stacks (self->profile, search, &nodes, &functions);

  for (guint i = 0; table (self, i) != NULL; i++)
    bl_call_tree_view_set_match_filter (table (self, i), nodes, functions);
}

static void
filter_toggled_cb (BlProfileView *self)
{
  update_filter (self);
}

static void
search_changed_cb (BlProfileView  *self,
                   GtkSearchEntry *entry)
{
  self->match_position = G_MAXUINT;
  bl_flame_graph_set_search (self->flame_graph, gtk_editable_get_text (GTK_EDITABLE (entry)));
  update_match_label (self);
  update_filter (self);
}

static void
step_match (BlProfileView *self,
            gboolean       forward)
{
  self->match_position = bl_flame_graph_step_match (self->flame_graph, forward);
  update_match_label (self);
}

/* Enter, Ctrl+G: the next match; Shift+Enter, Shift+Ctrl+G: the previous one */
static void
next_match_cb (BlProfileView *self)
{
  step_match (self, TRUE);
}

static void
previous_match_cb (BlProfileView *self)
{
  step_match (self, FALSE);
}

static void
next_match_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  step_match (BL_PROFILE_VIEW (widget), TRUE);
}

static void
previous_match_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  step_match (BL_PROFILE_VIEW (widget), FALSE);
}

static void
stop_search_cb (BlProfileView  *self,
                GtkSearchEntry *entry)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  gtk_widget_grab_focus (GTK_WIDGET (self->flame_graph));
}

static void
icicle_toggled_cb (BlProfileView   *self,
                   GtkToggleButton *button)
{
  bl_flame_graph_set_inverted (self->flame_graph, gtk_toggle_button_get_active (button));
}

static void
reset_zoom_cb (BlProfileView *self)
{
  bl_profile_view_reset_zoom (self);
}

static void
crumb_clicked_cb (GtkButton     *button,
                  BlProfileView *self)
{
  guint32 node = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "bl-node"));

  if (node == BL_NODE_NONE)
    bl_flame_graph_reset_zoom (self->flame_graph);
  else
    bl_flame_graph_zoom_to_node (self->flame_graph, node, TRUE);
}

static void
add_crumb (BlProfileView *self,
           const char    *label,
           guint32        node,
           gboolean       current)
{
  GtkWidget *button;
  GtkLabel *text;

  if (gtk_widget_get_first_child (GTK_WIDGET (self->breadcrumb)) != NULL)
    {
      GtkWidget *sep = gtk_label_new ("›");

      gtk_widget_add_css_class (sep, "dim-label");
      gtk_box_append (self->breadcrumb, sep);
    }

  button = gtk_button_new_with_label (label);
  gtk_widget_add_css_class (button, "flat");
  if (current)
    gtk_widget_add_css_class (button, "heading");
  text = GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button)));
  gtk_label_set_ellipsize (text, PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (text, 32);
  gtk_widget_set_tooltip_text (button, label);
  g_object_set_data (G_OBJECT (button), "bl-node", GUINT_TO_POINTER (node));
  g_signal_connect (button, "clicked", G_CALLBACK (crumb_clicked_cb), self);
  gtk_box_append (self->breadcrumb, button);
}

static void
update_breadcrumb (BlProfileView *self)
{
  GtkWidget *child;
  guint32 zoom = bl_flame_graph_get_zoom_node (self->flame_graph);
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint thread = bl_profile_view_get_thread (self);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->breadcrumb))) != NULL)
    gtk_box_remove (self->breadcrumb, child);

  if (self->profile == NULL)
    return;

  add_crumb (self,
             thread == G_MAXUINT ? _("All threads")
                                 : bl_profile_get_thread_name (self->profile, thread),
             BL_NODE_NONE, zoom == BL_NODE_NONE);

  for (guint32 n = zoom; n != BL_NODE_NONE; n = bl_profile_get_node (self->profile, n)->parent)
    g_array_prepend_val (path, n);

  /* the thread root is the first crumb already when one thread is shown */
  for (guint i = thread == G_MAXUINT ? 0 : 1; i < path->len; i++)
    {
      guint32 n = g_array_index (path, guint32, i);

      if (path->len > MAX_CRUMBS && i > 0 && i < path->len - MAX_CRUMBS + 1)
        {
          if (i == 1)
            {
              GtkWidget *more = gtk_label_new ("…");

              gtk_box_append (self->breadcrumb, gtk_label_new ("›"));
              gtk_box_append (self->breadcrumb, more);
            }
          continue;
        }
      add_crumb (self, bl_profile_get_node_name (self->profile, n), n, n == zoom);
    }
}

/* The first layout of a profile decides how much room the flame graph gets:
 * a shallow tree gets its rows and one row of air, no more (the rest goes to
 * the tables), a deep one up to 60 %. */
static gboolean
fit_paned_tick (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  BlProfileView *self = BL_PROFILE_VIEW (widget);
  BlFlameLayout *layout = bl_flame_graph_get_layout (self->flame_graph);
  int height = gtk_widget_get_height (GTK_WIDGET (self->paned));
  int rows, wanted;

  if (self->paned_fitted || layout == NULL)
    return G_SOURCE_REMOVE;
  if (height <= 0)
    return G_SOURCE_CONTINUE;

  self->paned_fitted = TRUE;
  rows = MAX (bl_flame_layout_get_n_levels (layout), 1) + 1;
  wanted = rows * (int) bl_flame_graph_get_row_height (self->flame_graph);
  /* the empty state needs room for its words */
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->flame_state), "empty") == 0)
    {
      int natural = 0;

      gtk_widget_measure (GTK_WIDGET (self->empty_page), GTK_ORIENTATION_VERTICAL,
                          gtk_widget_get_width (GTK_WIDGET (self->paned)),
                          NULL, &natural, NULL, NULL);
      natural = MAX (natural, 8 * (int) bl_flame_graph_get_row_height (self->flame_graph));
      wanted = MAX (wanted, natural);
    }
  gtk_paned_set_position (self->paned, MIN (wanted, height * 6 / 10));

  return G_SOURCE_REMOVE;
}

/* A thread or metric with nothing in it says so instead of drawing a blank
 * pane. */
static void
update_empty_state (BlProfileView *self)
{
  BlFlameLayout *layout = bl_flame_graph_get_layout (self->flame_graph);
  BlMetricId metric = bl_flame_graph_get_metric (self->flame_graph);
  guint thread = bl_flame_graph_get_thread (self->flame_graph);
  g_autofree char *description = NULL;
  const char *metric_name;

  if (self->profile == NULL || layout == NULL ||
      (bl_flame_layout_get_total (layout) > 0 && bl_flame_layout_get_n_rects (layout) > 0))
    {
      gtk_stack_set_visible_child_name (self->flame_state, "graph");
      return;
    }

  metric_name = metric != BL_METRIC_INVALID ? _(bl_metric_get_info (metric)->display_name) : "";
  if (bl_profile_get_n_threads (self->profile) == 0 || bl_profile_get_n_nodes (self->profile) <= 1)
    {
      adw_status_page_set_title (self->empty_page, _("No Entries"));
      description = g_strdup (_("This profile holds no calls or samples: the recording "
                                "ended before anything was measured."));
    }
  else
    {
      adw_status_page_set_title (self->empty_page, _("Nothing to Show"));
      if (thread == BL_FLAME_ALL_THREADS || thread >= bl_profile_get_n_threads (self->profile))
        /* Translators: %s is a metric, "Live bytes" */
        description = g_strdup_printf (_("%s is zero in every thread."), metric_name);
      else
        /* Translators: the first %s is a metric ("Live bytes"), the second a thread name */
        description = g_strdup_printf (_("%s is zero in the thread “%s”."), metric_name,
                                       bl_profile_get_thread_name (self->profile, thread));
      if (metric == BL_METRIC_LIVE_BYTES || metric == BL_METRIC_LIVE_COUNT)
        {
          char *more = g_strconcat (description, " ",
                                    _("Everything allocated was freed again by the end."),
                                    NULL);

          g_free (description);
          description = more;
        }
      else if (self->n_metrics > 1)
        {
          char *more = g_strconcat (description, " ", _("Choose another metric or thread."),
                                    NULL);

          g_free (description);
          description = more;
        }
    }
  adw_status_page_set_description (self->empty_page, description);
  gtk_stack_set_visible_child_name (self->flame_state, "empty");
}

static void
trace_view_mapped_cb (BlProfileView *self)
{
  if (!self->focus_timeline)
    return;
  self->focus_timeline = FALSE;
  gtk_widget_grab_focus (GTK_WIDGET (bl_trace_view_get_timeline (self->trace_view)));
}

/* The flame chart's lanes are taller than the aggregated graph: give it
 * room for them, up to 60 %, when it is shown. */
static void
graph_page_changed_cb (BlProfileView *self)
{
  gboolean timeline = showing_timeline (self);

  /* a trace's Timeline page has its own flame graph and details: it takes
   * the tables' room too */
  gtk_widget_set_visible (gtk_paned_get_end_child (self->paned), !timeline);
  /* the thread, metric, search and flame graph buttons drive the pages it
   * hides: insensitive there, so the toolbar keeps its place */
  gtk_widget_set_sensitive (GTK_WIDGET (self->thread_dropdown), !timeline);
  gtk_widget_set_sensitive (GTK_WIDGET (self->metric_dropdown), !timeline && self->n_metrics > 1);
  gtk_widget_set_sensitive (GTK_WIDGET (self->search_entry), !timeline);
  gtk_widget_set_sensitive (GTK_WIDGET (self->filter_button), !timeline);
  gtk_widget_set_sensitive (GTK_WIDGET (self->match_label), !timeline);
  gtk_widget_set_sensitive (GTK_WIDGET (self->icicle_button), !timeline);
  /* the zoom path is the flame graph's: it means nothing on the Timeline */
  gtk_widget_set_visible (gtk_widget_get_ancestor (GTK_WIDGET (self->breadcrumb),
                                                   GTK_TYPE_SCROLLED_WINDOW),
                          !timeline);

#ifdef HAVE_FLAME_CHART
  int height = gtk_widget_get_height (GTK_WIDGET (self->paned));
  int natural = 0;

  if (self->flame_chart == NULL ||
      gtk_stack_get_visible_child (self->graph_stack) != self->flame_chart || height <= 0)
    return;

  gtk_widget_measure (self->flame_chart, GTK_ORIENTATION_VERTICAL, -1, NULL, &natural, NULL, NULL);
  if (gtk_paned_get_position (self->paned) < natural)
    gtk_paned_set_position (self->paned, MIN (natural, height * 6 / 10));
#endif
}

static void
fit_paned (BlProfileView *self)
{
  self->match_position = G_MAXUINT;
  update_match_label (self);
  update_empty_state (self);
  update_breadcrumb (self);

  /* wait for the paned's allocation when the layout came first */
  if (!self->paned_fitted)
    gtk_widget_add_tick_callback (GTK_WIDGET (self), fit_paned_tick, NULL, NULL);
}

/* ------------------------------------------------------------------------ */
/* selection                                                                 */

static void
flame_selected_cb (BlProfileView *self)
{
  guint32 node = bl_flame_graph_get_selected_node (self->flame_graph);

  self->syncing = TRUE;
  for (guint i = 0; table (self, i) != NULL; i++)
    {
      BlCallTreeView *t = table (self, i);

      if (GTK_WIDGET (t) == self->sync_source)
        continue;
      if (t == self->callers || t == self->callees)
        continue;
      bl_call_tree_view_select_node (t, node);
    }

  if (node != BL_NODE_NONE && self->sync_source != GTK_WIDGET (self->callers) &&
      self->sync_source != GTK_WIDGET (self->callees))
    {
      guint32 f = bl_profile_get_node_function (self->profile, node);

      bl_call_tree_view_set_function (self->callers, f);
      bl_call_tree_view_set_function (self->callees, f);
    }
  self->syncing = FALSE;
}

static void
table_selected_cb (BlProfileView  *self,
                   GParamSpec     *pspec,
                   BlCallTreeView *source)
{
  guint32 node;

  if (self->syncing)
    return;

  node = bl_call_tree_view_get_selected_node (source);
  if (node == BL_NODE_NONE)
    return;

  self->sync_source = GTK_WIDGET (source);
  if (bl_flame_graph_get_selected_node (self->flame_graph) == node)
    flame_selected_cb (self);
  else
    bl_flame_graph_set_selected_node (self->flame_graph, node);
  self->sync_source = NULL;
}

static void
open_source (BlProfileView *self,
             guint32        node)
{
  if (bl_lines_page_show_node (BL_LINES_PAGE (self->lines_page), node))
    gtk_stack_set_visible_child (self->table_stack, self->lines_page);
}

static void
table_activated_cb (BlProfileView  *self,
                    guint           node,
                    BlCallTreeView *source)
{
  bl_flame_graph_zoom_to_node (self->flame_graph, node, TRUE);
  open_source (self, node);
}

/* A double-click or Enter on a frame opens its function's source. */
static void
frame_activated_cb (BlProfileView *self,
                    guint          node,
                    BlFlameGraph  *graph)
{
  open_source (self, node);
}

/* ------------------------------------------------------------------------ */
/* preferences                                                               */

static void
orientation_changed_cb (BlProfileView *self)
{
  g_autofree char *orientation = g_settings_get_string (self->settings, "flame-orientation");

  gtk_toggle_button_set_active (self->icicle_button, g_strcmp0 (orientation, "top-down") == 0);
}

static void
palette_changed_cb (BlProfileView *self)
{
  g_autofree char *palette = g_settings_get_string (self->settings, "flame-palette");
  BlFlamePalette mode = BL_FLAME_PALETTE_FILE;

  if (g_strcmp0 (palette, "module") == 0)
    mode = BL_FLAME_PALETTE_MODULE;
  else if (g_strcmp0 (palette, "heat") == 0)
    mode = BL_FLAME_PALETTE_HEAT;
  bl_flame_graph_set_palette (self->flame_graph, mode);
#ifdef HAVE_FLAME_CHART
  if (self->flame_chart != NULL)
    gtk_widget_queue_draw (self->flame_chart);
#endif
}

/* ------------------------------------------------------------------------ */
/* call-tree transforms                                                      */

/* Profiles below this many nodes are transformed at once: it takes less
 * than a frame. Bigger ones go to a worker thread. */
#define TRANSFORM_SYNC_NODES 20000

static GPtrArray *
copy_transforms (GPtrArray *transforms)
{
  GPtrArray *copy = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_transform_unref);

  for (guint i = 0; i < transforms->len; i++)
    g_ptr_array_add (copy, bl_transform_ref (g_ptr_array_index (transforms, i)));

  return copy;
}

static char *
transform_label (const BlTransform *t)
{
  const char *arg = bl_transform_get_argument (t);

  switch (bl_transform_get_kind (t))
    {
    case BL_TRANSFORM_MERGE_FUNCTION:
      /* Translators: a chip naming an active transform; %s is a function */
      return g_strdup_printf (_("Merged: %s"), arg);
    case BL_TRANSFORM_FOCUS_FUNCTION:
      /* Translators: a chip naming an active transform; %s is a function */
      return g_strdup_printf (_("Focus: %s"), arg);
    case BL_TRANSFORM_FOCUS_PATH:
      {
        const char *last = strrchr (arg, ';');

        /* Translators: a chip naming an active transform; %s is a function */
        return g_strdup_printf (_("Subtree: %s"), last != NULL ? last + 1 : arg);
      }
    case BL_TRANSFORM_COLLAPSE_RECURSION:
      return g_strdup (_("Recursion Collapsed"));
    case BL_TRANSFORM_DROP_FUNCTION:
      /* Translators: a chip naming an active transform; %s is a function */
      return g_strdup_printf (_("Dropped: %s"), arg);
    case BL_TRANSFORM_HIDE:
      /* Translators: a chip naming an active transform; %s is a pattern */
      return g_strdup_printf (_("Hidden: %s"), arg);
    case BL_TRANSFORM_MERGE_THREADS:
      return g_strdup (_("Threads Merged by Name"));
    case BL_TRANSFORM_MERGE_ALL_THREADS:
      return g_strdup (_("All Threads Merged"));
    case BL_N_TRANSFORM_KINDS:
    default:
      break;
    }

  return bl_transform_to_string (t);
}

static void
update_transform_chips (BlProfileView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->transform_chips))) != NULL)
    gtk_box_remove (self->transform_chips, child);

  for (guint i = 0; i < self->transforms->len; i++)
    {
      g_autofree char *text = transform_label (g_ptr_array_index (self->transforms, i));
      g_autofree char *full = bl_transform_to_string (g_ptr_array_index (self->transforms, i));
      GtkWidget *button = gtk_button_new ();
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
      GtkWidget *label = gtk_label_new (text);
      GtkWidget *icon = gtk_image_new_from_icon_name ("window-close-symbolic");

      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 36);
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), icon);
      gtk_button_set_child (GTK_BUTTON (button), box);
      gtk_widget_set_tooltip_text (button, full);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "profile.remove-transform");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "u", i);
      gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, text,
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      _("Remove this transform"),
                                      -1);
      gtk_box_append (self->transform_chips, button);
    }

  gtk_widget_set_visible (self->transform_bar, self->transforms->len > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "profile.undo", self->undo->len > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "profile.redo", self->redo->len > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "profile.save-preset",
                                 self->transforms->len > 0);
}

static void
transform_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  BlProfileView *self = source_object;
  GPtrArray *transforms = task_data;
  g_autoptr(GError) error = NULL;
  BlProfile *result;

  /* the original is immutable once finished: safe to read here */
  result = bl_transform_apply_all (transforms, self->original, cancellable, &error);
  if (result == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, result, g_object_unref);
}

static void
transform_done_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  BlProfileView *self = BL_PROFILE_VIEW (source);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = g_task_propagate_pointer (G_TASK (result), &error);

  if (profile == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Could not transform the profile: %s", error->message);
      return;
    }
  if (g_task_get_cancellable (G_TASK (result)) == self->transform_cancellable)
    g_clear_object (&self->transform_cancellable);
  show_profile (self, profile);
}

/* Shows the original with the current transforms, at once for small
 * profiles, from a worker thread for big ones; a newer request cancels an
 * older one still running. */
static void
apply_transforms (BlProfileView *self)
{
  g_autoptr(GTask) task = NULL;

  update_transform_chips (self);

  g_cancellable_cancel (self->transform_cancellable);
  g_clear_object (&self->transform_cancellable);
  if (self->original == NULL)
    return;

  if (self->transforms->len == 0)
    {
      show_profile (self, self->original);
      return;
    }

  if (bl_profile_get_n_nodes (self->original) < TRANSFORM_SYNC_NODES)
    {
      g_autoptr(BlProfile) result = bl_transform_apply_all (self->transforms, self->original,
                                                            NULL, NULL);

      show_profile (self, result);
      return;
    }

  self->transform_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->transform_cancellable, transform_done_cb, NULL);
  g_task_set_source_tag (task, apply_transforms);
  g_task_set_task_data (task, copy_transforms (self->transforms),
                        (GDestroyNotify) g_ptr_array_unref);
  g_task_run_in_thread (task, transform_thread);
}

static void
push_undo (BlProfileView *self)
{
  g_ptr_array_add (self->undo, copy_transforms (self->transforms));
  g_ptr_array_set_size (self->redo, 0);
}

/**
 * bl_profile_view_add_transform:
 *
 * Applies @transform on top of the ones already shown (undoable).
 */
void
bl_profile_view_add_transform (BlProfileView *self,
                               BlTransform   *transform)
{
  g_return_if_fail (BL_IS_PROFILE_VIEW (self));
  g_return_if_fail (transform != NULL);

  if (self->original == NULL)
    return;

  push_undo (self);
  g_ptr_array_add (self->transforms, bl_transform_ref (transform));
  apply_transforms (self);
}

/**
 * bl_profile_view_get_transforms:
 *
 * Returns: (transfer none) (element-type BlTransform): the transforms shown
 */
GPtrArray *
bl_profile_view_get_transforms (BlProfileView *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_VIEW (self), NULL);

  return self->transforms;
}

static void
transform_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  BlProfileView *self = BL_PROFILE_VIEW (widget);
  g_autoptr(BlTransform) t = bl_transform_parse (g_variant_get_string (parameter, NULL), NULL);

  if (t != NULL)
    bl_profile_view_add_transform (self, t);
}

/* profile.transform-selected(kind): the transform of that kind for the
 * frame selected in the flame graph (the tables select there too) */
static void
transform_selected_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  BlProfileView *self = BL_PROFILE_VIEW (widget);
  const char *kind = g_variant_get_string (parameter, NULL);
  guint32 node = bl_flame_graph_get_selected_node (self->flame_graph);
  g_autofree char *argument = NULL;
  g_autofree char *text = NULL;
  g_autoptr(BlTransform) t = NULL;
  const BlNode *n;

  if (self->profile == NULL || node == BL_NODE_NONE ||
      node >= bl_profile_get_n_nodes (self->profile))
    return;
  n = bl_profile_get_node (self->profile, node);

  if (g_str_equal (kind, "focus-path"))
    {
      if (n->parent == BL_NODE_NONE)
        return;
      argument = bl_profile_dup_stack_string (self->profile, node, ';');
    }
  else if (g_str_equal (kind, "hide"))
    {
      const char *file = bl_profile_get_node_file (self->profile, node);
      const char *slash = strrchr (file, '/');

      if (n->parent == BL_NODE_NONE)
        return;
      /* everything beside the frame's file, or the function if it has none */
      if (slash != NULL)
        argument = g_strdup_printf ("%.*s/*", (int) (slash - file), file);
      else
        argument = g_strdup (bl_profile_get_node_name (self->profile, node));
    }
  else if (g_str_equal (kind, "merge") || g_str_equal (kind, "focus") ||
           g_str_equal (kind, "drop"))
    {
      if (n->parent == BL_NODE_NONE)
        return;
      argument = g_strdup (bl_profile_get_node_name (self->profile, node));
    }

  text = argument != NULL ? g_strconcat (kind, ":", argument, NULL) : g_strdup (kind);
  if ((t = bl_transform_parse (text, NULL)) != NULL)
    bl_profile_view_add_transform (self, t);
}

static void
remove_transform_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  BlProfileView *self = BL_PROFILE_VIEW (widget);
  guint index = g_variant_get_uint32 (parameter);

  if (index >= self->transforms->len)
    return;

  push_undo (self);
  g_ptr_array_remove_index (self->transforms, index);
  apply_transforms (self);
}

static void
swap_history (BlProfileView *self,
              GPtrArray     *from,
              GPtrArray     *to)
{
  GPtrArray *previous;

  if (from->len == 0)
    return;

  g_ptr_array_add (to, self->transforms);
  previous = g_ptr_array_steal_index (from, from->len - 1);
  self->transforms = previous;
  apply_transforms (self);
}

static void
undo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  BlProfileView *self = BL_PROFILE_VIEW (widget);

  swap_history (self, self->undo, self->redo);
}

static void
redo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  BlProfileView *self = BL_PROFILE_VIEW (widget);

  swap_history (self, self->redo, self->undo);
}

/* Presets: named lists of transforms per app, in GSettings
 * (transform-presets, a(ssas): app, name, transforms). "My code only" is
 * built in: it hides the libraries a Roku app ships. */
#define PRESET_BUILTIN_MY_CODE "builtin:my-code-only"
#define PRESET_USER_PREFIX     "user:"

static const char * const my_code_only[] = {
  "hide:pkg:/components/roku_modules/*",
  "hide:pkg:/source/roku_modules/*",
  "hide:pkg:/source/lib/*",
};

static gboolean
has_presets_key (BlProfileView *self)
{
  g_autoptr(GSettingsSchema) schema = NULL;

  if (self->settings == NULL)
    return FALSE;
  g_object_get (self->settings, "settings-schema", &schema, NULL);

  return schema != NULL && g_settings_schema_has_key (schema, "transform-presets");
}

/* Presets belong to the app the profile is of */
static const char *
preset_app (BlProfileView *self)
{
  const BlProfileInfo *info;

  if (self->original == NULL)
    return "";
  info = bl_profile_get_info (self->original);
  if (info->target != NULL && info->target[0] != '\0')
    return info->target;

  return self->fallback_title != NULL ? self->fallback_title : "";
}

/* The presets menu, made when it is opened: its list depends on the app
 * and the settings, and a popover made for every profile shown (twice, with
 * the title) took a couple of milliseconds of each hand-over. */
static void
create_preset_menu (GtkMenuButton *button,
                    gpointer       user_data)
{
  BlProfileView *self = user_data;
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) presets = g_menu_new ();
  g_autoptr(GMenu) save = g_menu_new ();

  g_menu_append (presets, _("My Code Only"), "profile.apply-preset::" PRESET_BUILTIN_MY_CODE);
  if (has_presets_key (self))
    {
      g_autoptr(GVariant) all = g_settings_get_value (self->settings, "transform-presets");
      GVariantIter iter;
      const char *app, *name;
      GVariant *list;

      g_variant_iter_init (&iter, all);
      while (g_variant_iter_next (&iter, "(&s&s@as)", &app, &name, &list))
        {
          if (g_str_equal (app, preset_app (self)))
            {
              g_autofree char *target = g_strconcat (PRESET_USER_PREFIX, name, NULL);
              g_autoptr(GMenuItem) item = g_menu_item_new (name, NULL);

              g_menu_item_set_action_and_target_value (item, "profile.apply-preset",
                                                       g_variant_new_string (target));
              g_menu_append_item (presets, item);
            }
          g_variant_unref (list);
        }
    }
  g_menu_append (save, _("_Save as Preset…"), "profile.save-preset");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (presets));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (save));
  gtk_menu_button_set_menu_model (button, G_MENU_MODEL (menu));
}

/* made again when next opened */
static void
rebuild_preset_menu (BlProfileView *self)
{
  if (gtk_menu_button_get_menu_model (self->preset_button) != NULL)
    gtk_menu_button_set_menu_model (self->preset_button, NULL);
}

/* Replaces the transforms by @texts (undoable) */
static void
set_transform_strings (BlProfileView      *self,
                       const char * const *texts,
                       gsize               n_texts)
{
  if (self->original == NULL)
    return;

  push_undo (self);
  g_ptr_array_set_size (self->transforms, 0);
  for (gsize i = 0; i < n_texts; i++)
    {
      BlTransform *t = bl_transform_parse (texts[i], NULL);

      if (t != NULL)     /* a preset written by a newer version may hold more kinds */
        g_ptr_array_add (self->transforms, t);
    }
  apply_transforms (self);
}

static void
apply_preset_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  BlProfileView *self = BL_PROFILE_VIEW (widget);
  const char *target = g_variant_get_string (parameter, NULL);
  g_autoptr(GVariant) all = NULL;
  GVariantIter iter;
  const char *app, *name;
  GVariant *list;

  if (g_str_equal (target, PRESET_BUILTIN_MY_CODE))
    {
      set_transform_strings (self, my_code_only, G_N_ELEMENTS (my_code_only));
      return;
    }
  if (!g_str_has_prefix (target, PRESET_USER_PREFIX) || !has_presets_key (self))
    return;
  target += strlen (PRESET_USER_PREFIX);

  all = g_settings_get_value (self->settings, "transform-presets");
  g_variant_iter_init (&iter, all);
  while (g_variant_iter_next (&iter, "(&s&s@as)", &app, &name, &list))
    {
      if (g_str_equal (app, preset_app (self)) && g_str_equal (name, target))
        {
          gsize n = 0;
          g_autofree const char **texts = g_variant_get_strv (list, &n);

          set_transform_strings (self, texts, n);
          g_variant_unref (list);
          return;
        }
      g_variant_unref (list);
    }
}

/**
 * bl_profile_view_save_preset:
 * @name: the preset's name
 *
 * Saves the transforms shown as a preset of the profile's app, replacing
 * one of the same name.
 */
void
bl_profile_view_save_preset (BlProfileView *self,
                             const char    *name)
{
  g_autoptr(GVariant) all = NULL;
  GVariantBuilder builder;
  GVariantBuilder list;
  GVariantIter iter;
  const char *app, *other;
  GVariant *transforms;

  g_return_if_fail (BL_IS_PROFILE_VIEW (self));
  g_return_if_fail (name != NULL);

  if (!has_presets_key (self) || name[0] == '\0')
    return;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(ssas)"));
  all = g_settings_get_value (self->settings, "transform-presets");
  g_variant_iter_init (&iter, all);
  while (g_variant_iter_next (&iter, "(&s&s@as)", &app, &other, &transforms))
    {
      if (!g_str_equal (app, preset_app (self)) || !g_str_equal (other, name))
        g_variant_builder_add (&builder, "(ss@as)", app, other, transforms);
      g_variant_unref (transforms);
    }

  g_variant_builder_init (&list, G_VARIANT_TYPE_STRING_ARRAY);
  for (guint i = 0; i < self->transforms->len; i++)
    {
      g_autofree char *text = bl_transform_to_string (g_ptr_array_index (self->transforms, i));

      g_variant_builder_add (&list, "s", text);
    }
  g_variant_builder_add (&builder, "(ssas)", preset_app (self), name, &list);
  g_settings_set_value (self->settings, "transform-presets", g_variant_builder_end (&builder));
}

static void
save_response_cb (AdwMessageDialog *dialog,
                  const char       *response,
                  BlProfileView    *self)
{
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), "bl-entry");
  g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (entry)));

  if (g_str_equal (response, "save") && name[0] != '\0')
    bl_profile_view_save_preset (self, name);
}

static void
save_preset_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  BlProfileView *self = BL_PROFILE_VIEW (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *dialog;
  GtkWidget *entry;
  g_autofree char *body = NULL;

  if (self->transforms->len == 0)
    return;

  /* Translators: %s is the app's name */
  body = g_strdup_printf (_("The transforms shown now, for every profile of %s."),
                          preset_app (self));
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   _("Save as Preset"), body);
  entry = gtk_entry_new ();
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Preset name"), -1);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), entry);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "save", _("_Save"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "save",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "save");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data (G_OBJECT (dialog), "bl-entry", entry);
  g_signal_connect_object (dialog, "response", G_CALLBACK (save_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */

static void
bl_profile_view_dispose (GObject *object)
{
  BlProfileView *self = (BlProfileView *) object;
  GtkWidget *child;

  stop_release (self);
  /* a child can outlive the view (the flame graph while its layout is
   * being made holds itself): none may call the view back after this */
  {
    gpointer children[] = { self->flame_graph, self->trace_view, self->graph_stack,
                            self->thread_dropdown, self->metric_dropdown };

    for (guint i = 0; i < G_N_ELEMENTS (children); i++)
      if (children[i] != NULL)
        g_signal_handlers_disconnect_by_data (children[i], self);
  }
  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_PROFILE_VIEW);
  /* the template's unnamed children too */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_cancellable_cancel (self->transform_cancellable);
  g_clear_object (&self->transform_cancellable);
  g_clear_object (&self->profile);
  g_clear_object (&self->original);
  g_clear_pointer (&self->transforms, g_ptr_array_unref);
  g_clear_pointer (&self->undo, g_ptr_array_unref);
  g_clear_pointer (&self->redo, g_ptr_array_unref);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->fallback_title, g_free);

  G_OBJECT_CLASS (bl_profile_view_parent_class)->dispose (object);
}

static void
bl_profile_view_class_init (BlProfileViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_profile_view_dispose;

  g_type_ensure (BL_TYPE_FLAME_GRAPH);
  g_type_ensure (BL_TYPE_CALL_TREE_VIEW);
  g_type_ensure (BL_TYPE_TRACE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE_PATH "/ui/bl-profile-view.ui");
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, title_label);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, device_label);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, data_label);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, banner_revealer);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, banner_label);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, thread_dropdown);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, metric_dropdown);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, filter_button);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, match_label);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, graph_switcher);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, icicle_button);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, breadcrumb);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, paned);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, graph_stack);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, trace_view);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, flame_state);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, empty_page);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, table_stack);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, flame_graph);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, top_down);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, bottom_up);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, functions);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, callers);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, callees);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, transform_bar);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, transform_chips);
  gtk_widget_class_bind_template_child (widget_class, BlProfileView, preset_button);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_search_cb);
  gtk_widget_class_bind_template_callback (widget_class, next_match_cb);
  gtk_widget_class_bind_template_callback (widget_class, previous_match_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_toggled_cb);

  gtk_widget_class_install_action (widget_class, "profile.next-match", NULL, next_match_action);
  gtk_widget_class_install_action (widget_class, "profile.previous-match", NULL,
                                   previous_match_action);
  gtk_widget_class_install_action (widget_class, "profile.transform", "s", transform_action);
  gtk_widget_class_install_action (widget_class, "profile.transform-selected", "s",
                                   transform_selected_action);
  gtk_widget_class_install_action (widget_class, "profile.remove-transform", "u",
                                   remove_transform_action);
  gtk_widget_class_install_action (widget_class, "profile.apply-preset", "s",
                                   apply_preset_action);
  gtk_widget_class_install_action (widget_class, "profile.save-preset", NULL,
                                   save_preset_action);
  gtk_widget_class_install_action (widget_class, "profile.undo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "profile.redo", NULL, redo_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK,
                                       "profile.undo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z,
                                       GDK_CONTROL_MASK | GDK_SHIFT_MASK, "profile.redo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Z,
                                       GDK_CONTROL_MASK | GDK_SHIFT_MASK, "profile.redo", NULL);
  gtk_widget_class_bind_template_callback (widget_class, icicle_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, reset_zoom_cb);

  gtk_widget_class_set_css_name (widget_class, "profileview");
}

static void
bl_profile_view_init (BlProfileView *self)
{
  GSettingsSchemaSource *source;
  g_autoptr(GSettingsSchema) schema = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  /* a trace's Timeline: shown by bl_profile_view_set_profile() for traces
   * only (GTK 4.8 keeps a page's and its child's visibility apart: both) */
  gtk_widget_set_visible (GTK_WIDGET (self->trace_view), FALSE);
  gtk_stack_page_set_visible (gtk_stack_get_page (self->graph_stack,
                                                  GTK_WIDGET (self->trace_view)), FALSE);
  self->match_position = G_MAXUINT;
  self->transforms = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_transform_unref);
  self->undo = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  self->redo = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "profile.undo", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "profile.redo", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "profile.save-preset", FALSE);

  /* Shift+Enter in the search steps back (Enter is the entry's activate) */
  {
    GtkEventController *shortcuts = gtk_shortcut_controller_new ();
    GtkShortcutAction *previous = gtk_named_action_new ("profile.previous-match");

    gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
      gtk_shortcut_new (gtk_alternative_trigger_new (
                          gtk_keyval_trigger_new (GDK_KEY_Return, GDK_SHIFT_MASK),
                          gtk_keyval_trigger_new (GDK_KEY_KP_Enter, GDK_SHIFT_MASK)),
                        previous));
    gtk_widget_add_controller (GTK_WIDGET (self->search_entry), shortcuts);
  }

  source = g_settings_schema_source_get_default ();
  if (source != NULL && (schema = g_settings_schema_source_lookup (source, BASE_ID, TRUE)) != NULL)
    {
      self->settings = g_settings_new (BASE_ID);
      if (g_settings_schema_has_key (schema, "flame-orientation"))
        {
          g_signal_connect_object (self->settings, "changed::flame-orientation",
                                   G_CALLBACK (orientation_changed_cb), self, G_CONNECT_SWAPPED);
          orientation_changed_cb (self);
        }
      if (g_settings_schema_has_key (schema, "transform-presets"))
        g_signal_connect_object (self->settings, "changed::transform-presets",
                                 G_CALLBACK (rebuild_preset_menu), self, G_CONNECT_SWAPPED);
      if (g_settings_schema_has_key (schema, "flame-palette"))
        {
          g_signal_connect_object (self->settings, "changed::flame-palette",
                                   G_CALLBACK (palette_changed_cb), self, G_CONNECT_SWAPPED);
          palette_changed_cb (self);
        }
    }

  g_signal_connect_swapped (self->thread_dropdown, "notify::selected",
                            G_CALLBACK (thread_selected_cb), self);
  g_signal_connect_swapped (self->metric_dropdown, "notify::selected",
                            G_CALLBACK (metric_selected_cb), self);
  bl_flame_graph_set_transform_menu (self->flame_graph, TRUE);
  g_signal_connect_swapped (self->flame_graph, "notify::selected-node",
                            G_CALLBACK (flame_selected_cb), self);
  g_signal_connect_swapped (self->flame_graph, "notify::zoom-node",
                            G_CALLBACK (update_breadcrumb), self);
  g_signal_connect_swapped (self->flame_graph, "notify::layout",
                            G_CALLBACK (fit_paned), self);
  g_signal_connect_swapped (self->flame_graph, "notify::layout",
                            G_CALLBACK (graph_layout_cb), self);
  g_signal_connect_swapped (self->trace_view, "map", G_CALLBACK (trace_view_mapped_cb), self);
  g_signal_connect_swapped (self->graph_stack, "notify::visible-child",
                            G_CALLBACK (graph_page_changed_cb), self);
  g_signal_connect_swapped (self->flame_graph, "notify::match-fraction",
                            G_CALLBACK (update_match_label), self);
  g_signal_connect_swapped (self->flame_graph, "notify::metric",
                            G_CALLBACK (update_match_label), self);

  for (guint i = 0; table (self, i) != NULL; i++)
    {
      g_signal_connect_object (table (self, i), "notify::selected-node",
                               G_CALLBACK (table_selected_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (table (self, i), "node-activated",
                               G_CALLBACK (table_activated_cb), self, G_CONNECT_SWAPPED);
    }

  /* the Lines page: hot lines and the annotated source (bl-lines-page.c) */
  self->lines_page = bl_lines_page_new ();
  bl_lines_page_follow (BL_LINES_PAGE (self->lines_page), self->flame_graph);
  gtk_stack_add_titled (self->table_stack, self->lines_page, "lines", _("Lines"));

  /* the allocation-size histogram, for profiles that have one (mpatrol) */
  self->alloc_histogram = bl_alloc_histogram_new ();
  gtk_stack_page_set_visible (gtk_stack_add_titled (self->table_stack, self->alloc_histogram,
                                                    "sizes", _("Allocation Sizes")),
                              FALSE);
  g_signal_connect_object (self->flame_graph, "node-activated",
                           G_CALLBACK (frame_activated_cb), self, G_CONNECT_SWAPPED);

#ifdef HAVE_FLAME_CHART
  {
    GtkStackPage *page;

    /* no scroller: the chart pans its lanes itself and keeps its ruler in view */
    self->flame_chart = bl_flame_chart_new ();
    bl_flame_chart_set_color_graph (BL_FLAME_CHART (self->flame_chart), self->flame_graph);
    /* a large profile's lanes come from a worker: room for them then */
    g_signal_connect_object (self->flame_chart, "notify::loading",
                             G_CALLBACK (graph_page_changed_cb), self, G_CONNECT_SWAPPED);
    page = gtk_stack_add_titled (self->graph_stack, self->flame_chart, "flame-chart",
                                 _("Flame Chart"));
    gtk_stack_page_set_visible (page, FALSE);
  }
#endif

  gtk_menu_button_set_create_popup_func (self->preset_button, create_preset_menu, self, NULL);
}

GtkWidget *
bl_profile_view_new (void)
{
  return g_object_new (BL_TYPE_PROFILE_VIEW, NULL);
}

BlProfile *
bl_profile_view_get_profile (BlProfileView *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_VIEW (self), NULL);

  return self->profile;
}

/* Shows @profile (the original or a transform of it) in every view */
static void
show_profile (BlProfileView *self,
              BlProfile     *profile)
{
  if (!g_set_object (&self->profile, profile))
    return;

  self->paned_fitted = FALSE;
  bl_flame_graph_set_profile (self->flame_graph, profile);
  self->building = TRUE;
  update_selectors (self);
  self->building = FALSE;
  update_header (self);
  thread_selected_cb (self);
  apply_metric (self);
  update_breadcrumb (self);

  bl_alloc_histogram_set_profile (BL_ALLOC_HISTOGRAM (self->alloc_histogram), profile);
  gtk_stack_page_set_visible (gtk_stack_get_page (self->table_stack, self->alloc_histogram),
                              bl_alloc_histogram_has_data (BL_ALLOC_HISTOGRAM (
                                self->alloc_histogram)));

#ifdef HAVE_FLAME_CHART
  {
    GtkWidget *page_child = self->flame_chart;
    gboolean timed = profile != NULL && bl_profile_has_time_order (profile);

    while (page_child != NULL &&
           gtk_widget_get_parent (page_child) != GTK_WIDGET (self->graph_stack))
      page_child = gtk_widget_get_parent (page_child);
    if (page_child != NULL)
      gtk_stack_page_set_visible (gtk_stack_get_page (self->graph_stack, page_child), timed);
    gtk_widget_set_visible (GTK_WIDGET (self->graph_switcher), timed);
  }
#endif

  /* a Perfetto trace opens on its Timeline page */
  {
    gboolean trace = bl_trace_view_can_show (profile);

    bl_trace_view_set_profile (self->trace_view, trace ? profile : NULL);
    gtk_widget_set_visible (GTK_WIDGET (self->trace_view), trace);
    gtk_stack_page_set_visible (gtk_stack_get_page (self->graph_stack,
                                                    GTK_WIDGET (self->trace_view)), trace);
    self->focus_timeline = FALSE;
    if (trace)
      {
        gtk_widget_set_visible (GTK_WIDGET (self->graph_switcher), TRUE);
        gtk_stack_set_visible_child (self->graph_stack, GTK_WIDGET (self->trace_view));
        /* + / − / arrows work at once: now in a window, else when the
         * timeline first shows */
        self->focus_timeline =
          !gtk_widget_grab_focus (GTK_WIDGET (bl_trace_view_get_timeline (self->trace_view)));
      }
    else if (gtk_stack_get_visible_child (self->graph_stack) == GTK_WIDGET (self->trace_view))
      gtk_stack_set_visible_child_name (self->graph_stack, "flame-graph");
    graph_page_changed_cb (self);
  }
}

/**
 * bl_profile_view_set_profile:
 *
 * Shows @profile as loaded; its transforms, undo and redo start empty.
 */
void
bl_profile_view_set_profile (BlProfileView *self,
                             BlProfile     *profile)
{
  g_return_if_fail (BL_IS_PROFILE_VIEW (self));
  g_return_if_fail (!profile || BL_IS_PROFILE (profile));

  if (self->original == profile && (profile != NULL || self->profile == NULL))
    return;

  g_set_object (&self->original, profile);
  g_cancellable_cancel (self->transform_cancellable);
  g_clear_object (&self->transform_cancellable);
  g_ptr_array_set_size (self->transforms, 0);
  g_ptr_array_set_size (self->undo, 0);
  g_ptr_array_set_size (self->redo, 0);
  update_transform_chips (self);
  show_profile (self, profile);
  rebuild_preset_menu (self);
}

/**
 * bl_profile_view_set_fallback_title:
 *
 * The header's title when the profile does not name its app (the file name,
 * say).
 */
void
bl_profile_view_set_fallback_title (BlProfileView *self,
                                    const char    *title)
{
  g_return_if_fail (BL_IS_PROFILE_VIEW (self));

  if (g_strcmp0 (self->fallback_title, title) == 0)
    return;

  g_free (self->fallback_title);
  self->fallback_title = g_strdup (title);
  update_header (self);
  rebuild_preset_menu (self);
}

BlFlameGraph *
bl_profile_view_get_flame_graph (BlProfileView *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_VIEW (self), NULL);

  return self->flame_graph;
}

BlCallTreeView *
bl_profile_view_get_call_tree (BlProfileView  *self,
                               BlCallTreeMode  mode)
{
  g_return_val_if_fail (BL_IS_PROFILE_VIEW (self), NULL);

  return table (self, mode);
}

BlMetricId
bl_profile_view_get_metric (BlProfileView *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_VIEW (self), BL_METRIC_INVALID);

  return bl_flame_graph_get_metric (self->flame_graph);
}

void
bl_profile_view_set_metric (BlProfileView *self,
                            BlMetricId     metric)
{
  g_return_if_fail (BL_IS_PROFILE_VIEW (self));

  for (guint i = 0; i < self->n_metrics; i++)
    if (self->metrics[i] == metric)
      {
        gtk_drop_down_set_selected (self->metric_dropdown, i);
        metric_selected_cb (self);
        return;
      }
}

/**
 * bl_profile_view_get_thread:
 *
 * Returns: the thread shown, or G_MAXUINT for all threads
 */
guint
bl_profile_view_get_thread (BlProfileView *self)
{
  guint i;

  g_return_val_if_fail (BL_IS_PROFILE_VIEW (self), G_MAXUINT);

  i = gtk_drop_down_get_selected (self->thread_dropdown);
  if (i == 0 || i == GTK_INVALID_LIST_POSITION)
    return G_MAXUINT;

  return i - 1;
}

void
bl_profile_view_set_thread (BlProfileView *self,
                            guint          thread)
{
  g_return_if_fail (BL_IS_PROFILE_VIEW (self));

  gtk_drop_down_set_selected (self->thread_dropdown, thread == G_MAXUINT ? 0 : thread + 1);
}

/**
 * bl_profile_view_get_empty_text:
 *
 * Returns: (nullable): why the flame graph has nothing to draw, as its empty
 *   state says, or %NULL when the graph is shown
 */
const char *
bl_profile_view_get_empty_text (BlProfileView *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_VIEW (self), NULL);

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->flame_state), "empty") != 0)
    return NULL;

  return adw_status_page_get_description (self->empty_page);
}

/**
 * bl_profile_view_get_banner_text:
 *
 * Returns: (nullable): the text of the banner over the profile (why it is
 *   incomplete, or the reader's warning), or %NULL when none is shown
 */
const char *
bl_profile_view_get_banner_text (BlProfileView *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_VIEW (self), NULL);

  if (!gtk_revealer_get_reveal_child (self->banner_revealer))
    return NULL;

  return gtk_label_get_text (self->banner_label);
}

void
bl_profile_view_focus_search (BlProfileView *self)
{
  g_return_if_fail (BL_IS_PROFILE_VIEW (self));

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

void
bl_profile_view_reset_zoom (BlProfileView *self)
{
  g_return_if_fail (BL_IS_PROFILE_VIEW (self));

  if (showing_timeline (self))
    bl_trace_timeline_reset_zoom (bl_trace_view_get_timeline (self->trace_view));
  else
    bl_flame_graph_reset_zoom (self->flame_graph);
}

/**
 * bl_profile_view_focus_graph:
 *
 * Gives the keyboard to the graph on screen: a trace's timeline (+, −,
 * arrows) when its Timeline page is shown, else the flame graph.
 */
void
bl_profile_view_focus_graph (BlProfileView *self)
{
  g_return_if_fail (BL_IS_PROFILE_VIEW (self));

  if (showing_timeline (self))
    gtk_widget_grab_focus (GTK_WIDGET (bl_trace_view_get_timeline (self->trace_view)));
  else
    gtk_widget_grab_focus (GTK_WIDGET (self->flame_graph));
}

void
bl_profile_view_show_table (BlProfileView  *self,
                            BlCallTreeMode  mode)
{
  static const char *pages[] = { "top-down", "bottom-up", "functions", "functions", "functions" };

  g_return_if_fail (BL_IS_PROFILE_VIEW (self));
  g_return_if_fail (mode < G_N_ELEMENTS (pages));

  gtk_stack_set_visible_child_name (self->table_stack, pages[mode]);
}
