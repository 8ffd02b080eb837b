/* bl-session-view.c — a loaded Roku Resource Monitor session
 *
 * The summary header (device, app, duration, peak memory against the
 * limits, mean CPU, frame rate, launch time, rendezvous, memory growth),
 * the timeline, and below it the statistics of the selected range and the
 * details of the chosen instant: bitmaps by size, SceneGraph node types
 * with their change since the start, rendezvous items, BrightScript object
 * groups and registry sections.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-session-view"

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <math.h>

#include "bl-session-view.h"

#define N_RANGE_COLUMNS 7

struct _BlSessionView
{
  GtkWidget    parent_instance;

  BlSession   *session;

  GtkWidget   *header_scroller;
  GtkWidget   *header;
  GtkWidget   *toolbar;
  GtkLabel    *title_label;
  GtkLabel    *device_label;
  GtkFlowBox  *summary_box;
  GtkLabel    *incomplete_label;
  GtkWidget   *charts_button;
  GtkBox      *charts_box;
  GtkWidget   *reset_zoom_button;
  GtkWidget   *memory_fit_button;
  GtkWidget   *hint_label;
  GtkWidget   *paned;
  BlTimeline  *timeline;
  GtkLabel    *instant_label;
  GtkNotebook *notebook;
  GtkLabel    *range_caption;
  GtkGrid     *range_header_grid;
  GtkGrid     *range_grid;
  GtkSizeGroup *range_columns[N_RANGE_COLUMNS];
  GtkGrid     *bitmaps_grid;
  GtkGrid     *nodes_grid;
  GtkGrid     *rendezvous_grid;
  GtkGrid     *bs_grid;
  GtkGrid     *registry_grid;

  GString     *summary_text;
  GString     *range_text;
  gboolean     has_range;
};

G_DEFINE_FINAL_TYPE (BlSessionView, bl_session_view, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- tables ---------------------------------------------------------------- */

static void
grid_clear (GtkGrid *grid)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))))
    gtk_grid_remove (grid, child);
}

static GtkWidget *
cell (GtkGrid    *grid,
      int         column,
      int         row,
      const char *text,
      gboolean    numeric)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1 : 0);
  /* selectable with the pointer, but out of the focus chain: focused, a
   * selectable label selects its text or shows a caret */
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_focusable (label, FALSE);
  if (!numeric)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
      gtk_widget_set_hexpand (label, column == 0);
    }
  else
    gtk_widget_add_css_class (label, "numeric");
  gtk_widget_set_margin_start (label, 12);
  gtk_widget_set_margin_end (label, 12);
  gtk_grid_attach (grid, label, column, row, 1, 1);
  return label;
}

static void
header_row (GtkGrid            *grid,
            const char * const *titles)
{
  for (int c = 0; titles[c] != NULL; c++)
    {
      GtkWidget *label = cell (grid, c, 0, titles[c], c > 0);

      gtk_widget_add_css_class (label, "heading");
      gtk_label_set_selectable (GTK_LABEL (label), FALSE);
    }
}

static void
empty_row (GtkGrid    *grid,
           int         row,
           const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  /* across the whole table */
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_set_margin_start (label, 12);
  gtk_widget_set_margin_end (label, 12);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_grid_attach (grid, label, 0, row, N_RANGE_COLUMNS, 1);
}

static char *
format_int (gint64 v)
{
  if (v < 0)
    return g_strdup ("—");
  return g_strdup_printf ("%" G_GINT64_FORMAT, v);
}

static char *
format_bytes (gint64 v)
{
  if (v < 0)
    return g_strdup ("—");
  return bl_series_format_value (BL_SERIES_MEMORY_USED, (double) v);
}

static char *
format_change (gint64   now,
               gint64   then,
               gboolean bytes)
{
  gint64 d;
  g_autofree char *abs_text = NULL;

  if (now < 0 || then < 0)
    return g_strdup ("—");
  d = now - then;
  if (d == 0)
    return g_strdup ("0");
  abs_text = bytes ? format_bytes (ABS (d)) : format_int (ABS (d));
  return g_strdup_printf ("%s%s", d > 0 ? "+" : "−", abs_text);
}

/* ---- details of the chosen instant ---------------------------------------- */

static int
compare_bitmaps (gconstpointer a,
                 gconstpointer b)
{
  const BlBitmap *x = *(const BlBitmap * const *) a;
  const BlBitmap *y = *(const BlBitmap * const *) b;

  if (x->size != y->size)
    return x->size > y->size ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

static void
fill_bitmaps (BlSessionView *self,
              gint64         t)
{
  const char *titles[] = { _("Bitmap"), _("Bytes"), _("Size"), _("Bits per pixel"), NULL };
  gint point = bl_session_find_detail (self->session, BL_DETAIL_BITMAPS, t);
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();
  const BlBitmap *bitmaps;
  guint n;

  grid_clear (self->bitmaps_grid);
  header_row (self->bitmaps_grid, titles);
  if (point < 0)
    {
      empty_row (self->bitmaps_grid, 1, _("This session has no bitmap lists."));
      return;
    }
  bitmaps = bl_session_get_bitmaps (self->session, point, &n);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (sorted, (gpointer) &bitmaps[i]);
  g_ptr_array_sort (sorted, compare_bitmaps);

  for (guint i = 0; i < sorted->len; i++)
    {
      const BlBitmap *b = g_ptr_array_index (sorted, i);
      g_autofree char *bytes = format_bytes (b->size);
      g_autofree char *dims = NULL;
      g_autofree char *bpp = format_int (b->bpp);

      if (b->width >= 0 && b->height >= 0)
        dims = g_strdup_printf ("%" G_GINT64_FORMAT "×%" G_GINT64_FORMAT, b->width, b->height);
      else
        dims = g_strdup ("—");
      cell (self->bitmaps_grid, 0, i + 1, b->name, FALSE);
      cell (self->bitmaps_grid, 1, i + 1, bytes, TRUE);
      cell (self->bitmaps_grid, 2, i + 1, dims, TRUE);
      cell (self->bitmaps_grid, 3, i + 1, bpp, TRUE);
    }
  if (n == 0)
    empty_row (self->bitmaps_grid, 1, _("No bitmaps at this instant."));
}

static int
compare_nodes (gconstpointer a,
               gconstpointer b)
{
  const BlNodeType *x = *(const BlNodeType * const *) a;
  const BlNodeType *y = *(const BlNodeType * const *) b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

static void
fill_nodes (BlSessionView *self,
            gint64         t)
{
  const char *titles[] = {
    _("Node type"), _("Count"), _("Since start"), _("Memory"), _("Since start"), NULL
  };
  gint point = bl_session_find_detail (self->session, BL_DETAIL_NODES, t);
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();
  g_autoptr(GHashTable) first = g_hash_table_new (g_str_hash, g_str_equal);
  const BlNodeType *nodes, *start_nodes;
  guint n, n_start;

  grid_clear (self->nodes_grid);
  header_row (self->nodes_grid, titles);
  if (point < 0)
    {
      empty_row (self->nodes_grid, 1, _("This session has no SceneGraph node lists."));
      return;
    }
  nodes = bl_session_get_node_types (self->session, point, &n);
  start_nodes = bl_session_get_node_types (self->session, 0, &n_start);
  for (guint i = 0; i < n_start; i++)
    g_hash_table_insert (first, (gpointer) start_nodes[i].name, (gpointer) &start_nodes[i]);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (sorted, (gpointer) &nodes[i]);
  g_ptr_array_sort (sorted, compare_nodes);

  for (guint i = 0; i < sorted->len; i++)
    {
      const BlNodeType *node = g_ptr_array_index (sorted, i);
      const BlNodeType *then = g_hash_table_lookup (first, node->name);
      g_autofree char *count = format_int (node->count);
      g_autofree char *memory = format_bytes (node->memory);
      g_autofree char *dcount = format_change (node->count, then ? then->count : 0, FALSE);
      g_autofree char *dmemory = format_change (node->memory, then ? then->memory : 0, TRUE);

      cell (self->nodes_grid, 0, i + 1, node->name, FALSE);
      cell (self->nodes_grid, 1, i + 1, count, TRUE);
      cell (self->nodes_grid, 2, i + 1, dcount, TRUE);
      cell (self->nodes_grid, 3, i + 1, memory, TRUE);
      cell (self->nodes_grid, 4, i + 1, dmemory, TRUE);
    }
  if (n == 0)
    empty_row (self->nodes_grid, 1, _("No nodes at this instant."));
}

static char *
format_ms (double v)
{
  if (isnan (v))
    return g_strdup ("—");
  return g_strdup_printf (_("%.1f ms"), v);
}

static void
fill_rendezvous (BlSessionView *self,
                 gint64         t)
{
  const char *titles[] = {
    _("Source"), _("Line"), _("Start"), _("End"), _("Duration"), _("ID"), NULL
  };
  gint point = bl_session_find_detail (self->session, BL_DETAIL_RENDEZVOUS, t);
  const BlRendezvousItem *items;
  guint n;

  grid_clear (self->rendezvous_grid);
  header_row (self->rendezvous_grid, titles);
  if (point < 0)
    {
      empty_row (self->rendezvous_grid, 1, _("This session has no rendezvous items."));
      return;
    }
  items = bl_session_get_rendezvous_items (self->session, point, &n);
  for (guint i = 0; i < n; i++)
    {
      const BlRendezvousItem *it = &items[i];
      g_autofree char *line = format_int (it->line);
      g_autofree char *start = format_ms (it->start_ms);
      g_autofree char *end = format_ms (it->end_ms);
      g_autofree char *duration = format_ms (it->end_ms - it->start_ms);
      g_autofree char *id = format_int (it->id);

      cell (self->rendezvous_grid, 0, i + 1, it->name, FALSE);
      cell (self->rendezvous_grid, 1, i + 1, line, TRUE);
      cell (self->rendezvous_grid, 2, i + 1, start, TRUE);
      cell (self->rendezvous_grid, 3, i + 1, end, TRUE);
      cell (self->rendezvous_grid, 4, i + 1, duration, TRUE);
      cell (self->rendezvous_grid, 5, i + 1, id, TRUE);
    }
  if (n == 0)
    empty_row (self->rendezvous_grid, 1, _("No rendezvous in this sample."));
}

static void
fill_bs_objects (BlSessionView *self,
                 gint64         t)
{
  const char *titles[] = { _("Group or object"), _("ID"), _("Count"), _("Memory"), NULL };
  gint point = bl_session_find_detail (self->session, BL_DETAIL_BS_OBJECTS, t);
  const BlBsGroup *groups;
  guint n;
  int row = 1;

  grid_clear (self->bs_grid);
  header_row (self->bs_grid, titles);
  if (point < 0)
    {
      empty_row (self->bs_grid, 1, _("This session has no BrightScript object data."));
      return;
    }
  groups = bl_session_get_bs_groups (self->session, point, &n);
  for (guint i = 0; i < n; i++)
    {
      const BlBsGroup *g = &groups[i];
      g_autofree char *count = format_int (g->count);
      g_autofree char *memory = format_bytes (g->memory);
      GtkWidget *name = cell (self->bs_grid, 0, row, g->name, FALSE);

      gtk_widget_add_css_class (name, "heading");
      cell (self->bs_grid, 1, row, g->id, TRUE);
      cell (self->bs_grid, 2, row, count, TRUE);
      cell (self->bs_grid, 3, row, memory, TRUE);
      row++;
      for (guint k = 0; k < g->n_objects; k++)
        {
          const BlBsObject *o = &g->objects[k];
          g_autofree char *ocount = format_int (o->count);
          g_autofree char *omemory = format_bytes (o->memory);
          GtkWidget *oname = cell (self->bs_grid, 0, row, o->name, FALSE);

          gtk_widget_set_margin_start (oname, 30);
          cell (self->bs_grid, 2, row, ocount, TRUE);
          cell (self->bs_grid, 3, row, omemory, TRUE);
          row++;
        }
    }
  if (n == 0)
    empty_row (self->bs_grid, 1, _("No BrightScript object groups in this sample."));
}

static void
fill_registry (BlSessionView *self,
               gint64         t)
{
  const char *titles[] = { _("Section"), _("Keys"), NULL };
  gint point = bl_session_find_detail (self->session, BL_DETAIL_REGISTRY, t);
  const BlRegistrySection *sections;
  guint n;

  grid_clear (self->registry_grid);
  header_row (self->registry_grid, titles);
  if (point < 0)
    {
      empty_row (self->registry_grid, 1, _("This session has no registry sections."));
      return;
    }
  sections = bl_session_get_registry_sections (self->session, point, &n);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GString) keys = g_string_new (NULL);

      for (guint k = 0; k < sections[i].n_keys; k++)
        g_string_append_printf (keys, "%s%s", k ? ", " : "", sections[i].keys[k]);
      cell (self->registry_grid, 0, i + 1, sections[i].name, FALSE);
      gtk_label_set_xalign (GTK_LABEL (cell (self->registry_grid, 1, i + 1, keys->str, FALSE)),
                            0);
    }
  if (n == 0)
    empty_row (self->registry_grid, 1, _("No registry sections in this sample."));
}

static void
update_instant (BlSessionView *self)
{
  BlTimeAxis *axis = bl_timeline_get_axis (self->timeline);
  gint64 t;
  g_autofree char *offset = NULL;
  g_autofree char *clock = NULL;
  g_autofree char *title = NULL;

  if (self->session == NULL)
    return;

  t = bl_time_axis_get_instant (axis);
  offset = bl_time_axis_format_offset (axis, t);
  clock = bl_time_axis_format_clock (t);
  title = g_strdup_printf (_("Details at %s (%s)"), offset, clock);
  gtk_label_set_text (self->instant_label, title);

  fill_bitmaps (self, t);
  fill_nodes (self, t);
  fill_rendezvous (self, t);
  fill_bs_objects (self, t);
  fill_registry (self, t);
}

/* ---- the selected range ---------------------------------------------------- */

static void
update_range (BlSessionView *self)
{
  BlTimeAxis *axis = bl_timeline_get_axis (self->timeline);
  const char *titles[] = {
    _("Series"), _("Minimum"), _("Maximum"), _("Mean"), _("Start → end"), _("Change"),
    _("Growth per minute"), NULL
  };
  gint64 from, to;
  int row = 0;

  grid_clear (self->range_header_grid);
  grid_clear (self->range_grid);
  g_string_truncate (self->range_text, 0);
  self->has_range = FALSE;
  if (self->session == NULL)
    return;

  header_row (self->range_header_grid, titles);
  for (int c = 0; c < N_RANGE_COLUMNS; c++)
    gtk_size_group_add_widget (self->range_columns[c],
                               gtk_grid_get_child_at (self->range_header_grid, c, 0));
  /* the tab keeps its title (and width); the range is said in the page */
  if (!bl_time_axis_get_selection (axis, &from, &to))
    {
      gtk_label_set_text (self->range_caption, "");
      gtk_widget_set_visible (GTK_WIDGET (self->range_caption), FALSE);
      empty_row (self->range_grid, 0, _("Drag over the charts to select a range."));
      return;
    }
  self->has_range = TRUE;

  {
    g_autofree char *a = bl_time_axis_format_offset (axis, from);
    g_autofree char *b = bl_time_axis_format_offset (axis, to);
    g_autofree char *d = g_strdup_printf (_("%.1f s"), (to - from) / 1000.0);
    g_autofree char *title = g_strdup_printf (_("Selected %s – %s (%s)"), a, b, d);

    gtk_label_set_text (self->range_caption, title);
    gtk_widget_set_visible (GTK_WIDGET (self->range_caption), TRUE);
  }

  for (BlSeriesId id = 0; id < BL_N_SERIES; id++)
    {
      const BlSeriesInfo *info = bl_series_get_info (id);
      BlRangeStats stats;
      g_autofree char *min = NULL, *max = NULL, *mean = NULL, *start = NULL, *end = NULL;
      g_autofree char *change = NULL, *growth = NULL, *start_end = NULL, *abs_change = NULL;
      const char *name = g_dgettext (GETTEXT_PACKAGE, info->display_name);

      if (!bl_session_has_series (self->session, id))
        continue;
      bl_session_compute_range_stats (self->session, id, from, to, &stats);
      if (stats.n == 0)
        continue;

      min = bl_series_format_value (id, stats.min);
      max = bl_series_format_value (id, stats.max);
      mean = bl_series_format_value (id, stats.mean);
      start = bl_series_format_value (id, stats.start);
      end = bl_series_format_value (id, stats.end);
      start_end = g_strdup_printf ("%s → %s", start, end);
      abs_change = bl_series_format_value (id, fabs (stats.change));
      change = g_strdup_printf ("%s%s", stats.change > 0 ? "+" : stats.change < 0 ? "−" : "",
                                abs_change);
      if (info->group == BL_SERIES_GROUP_MEMORY && !isnan (stats.growth_per_min))
        {
          g_autofree char *abs_growth = bl_series_format_value (id, fabs (stats.growth_per_min));

          growth = g_strdup_printf ("%s%s", stats.growth_per_min < 0 ? "−" : "+", abs_growth);
        }
      else
        growth = g_strdup ("—");

      cell (self->range_grid, 0, row, name, FALSE);
      cell (self->range_grid, 1, row, min, TRUE);
      cell (self->range_grid, 2, row, max, TRUE);
      cell (self->range_grid, 3, row, mean, TRUE);
      cell (self->range_grid, 4, row, start_end, TRUE);
      cell (self->range_grid, 5, row, change, TRUE);
      cell (self->range_grid, 6, row, growth, TRUE);
      for (int c = 0; c < N_RANGE_COLUMNS; c++)
        gtk_size_group_add_widget (self->range_columns[c],
                                   gtk_grid_get_child_at (self->range_grid, c, row));
      row++;

      g_string_append_printf (self->range_text, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
                              info->name, min, max, mean, start_end, change, growth);
    }
  gtk_notebook_set_current_page (self->notebook, 0);
}

/* ---- the summary ---------------------------------------------------------- */

static void
add_figure (BlSessionView *self,
            const char    *caption,
            const char    *value,
            gboolean       alarm)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *v = gtk_label_new (value);
  GtkWidget *c = gtk_label_new (caption);

  gtk_label_set_xalign (GTK_LABEL (v), 0);
  gtk_label_set_xalign (GTK_LABEL (c), 0);
  gtk_label_set_selectable (GTK_LABEL (v), TRUE);
  gtk_widget_set_focusable (v, FALSE);
  gtk_widget_add_css_class (v, "heading");
  if (alarm)
    gtk_widget_add_css_class (v, "error");
  gtk_widget_add_css_class (c, "caption");
  gtk_widget_add_css_class (c, "dim-label");
  gtk_box_append (GTK_BOX (box), v);
  gtk_box_append (GTK_BOX (box), c);
  gtk_flow_box_append (self->summary_box, box);

  g_string_append_printf (self->summary_text, "%s: %s\n", caption, value);
}

static void
update_summary (BlSessionView *self)
{
  const BlSessionInfo *info = bl_session_get_info (self->session);
  const BlSessionSummary *sum = bl_session_get_summary (self->session);
  BlTimeAxis *axis = bl_timeline_get_axis (self->timeline);
  GtkWidget *child;
  g_autofree char *title = NULL;
  g_autofree char *device = NULL;
  g_autofree char *duration = NULL;
  g_autofree char *text = NULL;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->summary_box))))
    gtk_flow_box_remove (self->summary_box, child);
  g_string_truncate (self->summary_text, 0);

  title = g_strdup_printf ("%s %s", info->channel_name ? info->channel_name : _("Unnamed app"),
                           info->channel_version ? info->channel_version : "");
  gtk_label_set_text (self->title_label, g_strstrip (title));
  if (info->software_build >= 0)
    device = g_strdup_printf (_("%s %s · Roku OS %s build %" PRId64
                                " · app id %s · session file %s"),
                              info->device_name ? info->device_name : _("Unknown device"),
                              info->model_number ? info->model_number : "",
                              info->software_version ? info->software_version : "?",
                              info->software_build,
                              info->channel_id ? info->channel_id : "?",
                              info->file_version ? info->file_version : "?");
  else
    device = g_strdup_printf (_("%s %s · Roku OS %s · app id %s · session file %s"),
                              info->device_name ? info->device_name : _("Unknown device"),
                              info->model_number ? info->model_number : "",
                              info->software_version ? info->software_version : "?",
                              info->channel_id ? info->channel_id : "?",
                              info->file_version ? info->file_version : "?");
  gtk_label_set_text (self->device_label, device);

  duration = bl_time_axis_format_offset (axis, sum->end_ms);
  add_figure (self, _("Duration"), duration, FALSE);

  if (isnan (sum->peak_memory))
    add_figure (self, _("Peak memory"), _("no data"), FALSE);
  else
    {
      g_autofree char *peak = bl_series_format_value (BL_SERIES_MEMORY_USED, sum->peak_memory);

      if (info->has_foreground_limit)
        {
          g_autofree char *limit = bl_series_format_value (BL_SERIES_MEMORY_USED,
                                                           (double) info->foreground_limit);

          text = g_strdup_printf (_("%s · %.0f %% of %s"), peak,
                                  sum->peak_foreground_fraction * 100, limit);
        }
      else
        text = g_strdup_printf (_("%s · no limit"), peak);
      add_figure (self, _("Peak memory (foreground limit)"), text,
                  sum->peak_foreground_fraction > 0.75);
      g_clear_pointer (&text, g_free);

      if (info->has_background_limit)
        {
          g_autofree char *limit = bl_series_format_value (BL_SERIES_MEMORY_USED,
                                                           (double) info->background_limit);

          text = g_strdup_printf (_("%.0f %% of %s"), sum->peak_background_fraction * 100, limit);
          add_figure (self, _("Peak against the background limit"), text,
                      sum->peak_background_fraction > 1);
          g_clear_pointer (&text, g_free);
        }
    }

  if (isnan (sum->memory_growth_per_min))
    text = g_strdup (_("no data"));
  else
    {
      g_autofree char *growth = bl_series_format_value (BL_SERIES_MEMORY_USED,
                                                        fabs (sum->memory_growth_per_min));

      text = g_strdup_printf (_("%s%s per minute"), sum->memory_growth_per_min < 0 ? "−" : "+",
                              growth);
    }
  add_figure (self, _("Memory growth"), text, FALSE);
  g_clear_pointer (&text, g_free);

  text = isnan (sum->mean_cpu) ? g_strdup (_("no data"))
                               : g_strdup_printf (_("%.1f %%"), sum->mean_cpu);
  add_figure (self, _("Mean CPU"), text, FALSE);
  g_clear_pointer (&text, g_free);

  text = isnan (sum->mean_fps) ? g_strdup (_("no data"))
                               : g_strdup_printf (_("%.1f mean · %.1f minimum"),
                                                  sum->mean_fps, sum->min_fps);
  add_figure (self, _("Frame rate (fps)"), text, FALSE);
  g_clear_pointer (&text, g_free);

  text = isnan (sum->launch_ms) ? g_strdup (_("no launch beacons"))
                                : g_strdup_printf (_("%.0f ms"), sum->launch_ms);
  add_figure (self, _("Launch time"), text, FALSE);
  g_clear_pointer (&text, g_free);

  text = isnan (sum->rendezvous_count)
    ? g_strdup (_("no data"))
    : g_strdup_printf (_("%.0f · %.0f dropped"), sum->rendezvous_count,
                       isnan (sum->rendezvous_drops) ? 0 : sum->rendezvous_drops);
  add_figure (self, _("Rendezvous"), text, FALSE);
  g_clear_pointer (&text, g_free);

  /* an incomplete file, points without a timestamp… */
  gtk_widget_set_visible (GTK_WIDGET (self->incomplete_label),
                          bl_session_get_warning (self->session) != NULL);
  if (bl_session_get_warning (self->session) != NULL)
    gtk_label_set_text (self->incomplete_label, bl_session_get_warning (self->session));
}

static void
on_chart_toggled (GtkCheckButton *button,
                  BlSessionView  *self)
{
  BlSeriesGroup group = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "group"));

  bl_timeline_set_group_visible (self->timeline, group, gtk_check_button_get_active (button));
}

static void
update_chart_toggles (BlSessionView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->charts_box))))
    gtk_box_remove (self->charts_box, child);

  for (guint g = 0; g < BL_N_SERIES_GROUPS; g++)
    {
      GtkWidget *check;

      if (!bl_timeline_group_has_data (self->timeline, g))
        continue;
      check = gtk_check_button_new_with_label (bl_series_group_get_display_name (g));
      gtk_check_button_set_active (GTK_CHECK_BUTTON (check),
                                   bl_timeline_get_group_visible (self->timeline, g));
      g_object_set_data (G_OBJECT (check), "group", GUINT_TO_POINTER (g));
      g_signal_connect (check, "toggled", G_CALLBACK (on_chart_toggled), self);
      gtk_box_append (self->charts_box, check);
    }
}

static void
on_reset_zoom_clicked (BlSessionView *self)
{
  bl_time_axis_reset (bl_timeline_get_axis (self->timeline));
}

static void
on_memory_fit_toggled (BlSessionView *self)
{
  bl_timeline_set_memory_fits_data (self->timeline,
                                    gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (
                                      self->memory_fit_button)));
}

/* ---- layout ------------------------------------------------------------------ */

/* A vertical box, except that the header's natural height is taken from
 * the header itself at the given width: a GtkScrolledWindow would give the
 * height it needs at its narrowest (every summary figure on a line of its
 * own). The header shrinks to its scroller's minimum before the charts
 * and tables go below theirs. */
static void
header_height (BlSessionView *self,
               int            width,
               int           *minimum,
               int           *natural)
{
  gtk_widget_measure (self->header_scroller, GTK_ORIENTATION_VERTICAL, width, minimum, natural,
                      NULL, NULL);
  if (width >= 0)
    {
      int nat;

      gtk_widget_measure (self->header, GTK_ORIENTATION_VERTICAL, width, NULL, &nat, NULL,
                          NULL);
      *natural = MAX (*minimum, nat);
    }
}

static void
layout_measure (GtkWidget      *widget,
                GtkOrientation  orientation,
                int             for_size,
                int            *minimum,
                int            *natural,
                int            *minimum_baseline,
                int            *natural_baseline)
{
  BlSessionView *self = BL_SESSION_VIEW (widget);
  GtkWidget *children[] = { self->header_scroller, self->toolbar, self->paned };

  *minimum = *natural = 0;
  for (guint i = 0; i < G_N_ELEMENTS (children); i++)
    {
      int min, nat;

      if (!gtk_widget_should_layout (children[i]))
        continue;
      if (orientation == GTK_ORIENTATION_VERTICAL && children[i] == self->header_scroller)
        header_height (self, for_size, &min, &nat);
      else
        gtk_widget_measure (children[i], orientation, for_size, &min, &nat, NULL, NULL);
      if (orientation == GTK_ORIENTATION_VERTICAL)
        {
          *minimum += min;
          *natural += nat;
        }
      else
        {
          *minimum = MAX (*minimum, min);
          *natural = MAX (*natural, nat);
        }
    }
}

static void
layout_allocate (GtkWidget *widget,
                 int        width,
                 int        height,
                 int        baseline)
{
  BlSessionView *self = BL_SESSION_VIEW (widget);
  int header_min = 0, header_nat = 0, toolbar_h = 0, paned_min = 0, header_h, y = 0;

  if (gtk_widget_should_layout (self->header_scroller))
    header_height (self, width, &header_min, &header_nat);
  if (gtk_widget_should_layout (self->toolbar))
    gtk_widget_measure (self->toolbar, GTK_ORIENTATION_VERTICAL, width, &toolbar_h, NULL, NULL,
                        NULL);
  gtk_widget_measure (self->paned, GTK_ORIENTATION_VERTICAL, width, &paned_min, NULL, NULL,
                      NULL);

  header_h = CLAMP (height - toolbar_h - paned_min, header_min, header_nat);
  if (gtk_widget_should_layout (self->header_scroller))
    gtk_widget_allocate (self->header_scroller, width, header_h, -1, NULL);
  y += gtk_widget_should_layout (self->header_scroller) ? header_h : 0;
  if (gtk_widget_should_layout (self->toolbar))
    gtk_widget_allocate (self->toolbar, width, toolbar_h, -1,
                         gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (0, y)));
  y += toolbar_h;
  gtk_widget_allocate (self->paned, width, MAX (height - y, paned_min), -1,
                       gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (0, y)));
}

/* ---- the object ------------------------------------------------------------ */

static void
bl_session_view_dispose (GObject *object)
{
  BlSessionView *self = BL_SESSION_VIEW (object);
  GtkWidget *child;

  if (self->timeline != NULL)
    g_signal_handlers_disconnect_by_data (bl_timeline_get_axis (self->timeline), self);
  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_SESSION_VIEW);
  /* the template's unnamed children too */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->session);
  for (int c = 0; c < N_RANGE_COLUMNS; c++)
    g_clear_object (&self->range_columns[c]);

  G_OBJECT_CLASS (bl_session_view_parent_class)->dispose (object);
}

static void
bl_session_view_finalize (GObject *object)
{
  BlSessionView *self = BL_SESSION_VIEW (object);

  g_string_free (self->summary_text, TRUE);
  g_string_free (self->range_text, TRUE);

  G_OBJECT_CLASS (bl_session_view_parent_class)->finalize (object);
}

static void
bl_session_view_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  BlSessionView *self = BL_SESSION_VIEW (object);

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
bl_session_view_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  BlSessionView *self = BL_SESSION_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      bl_session_view_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_session_view_class_init (BlSessionViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_session_view_dispose;
  object_class->finalize = bl_session_view_finalize;
  object_class->get_property = bl_session_view_get_property;
  object_class->set_property = bl_session_view_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, BL_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (BL_TYPE_TIMELINE);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE_PATH
                                               "/ui/bl-session-view.ui");
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, header_scroller);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, header);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, toolbar);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, title_label);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, device_label);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, summary_box);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, incomplete_label);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, charts_button);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, charts_box);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, reset_zoom_button);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, memory_fit_button);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, hint_label);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, paned);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, timeline);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, instant_label);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, notebook);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, range_caption);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, range_header_grid);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, range_grid);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, bitmaps_grid);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, nodes_grid);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, rendezvous_grid);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, bs_grid);
  gtk_widget_class_bind_template_child (widget_class, BlSessionView, registry_grid);
  gtk_widget_class_bind_template_callback (widget_class, on_reset_zoom_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_memory_fit_toggled);

  gtk_widget_class_set_css_name (widget_class, "sessionview");
}

static void
bl_session_view_init (BlSessionView *self)
{
  BlTimeAxis *axis;

  self->summary_text = g_string_new (NULL);
  self->range_text = g_string_new (NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  for (int c = 0; c < N_RANGE_COLUMNS; c++)
    self->range_columns[c] = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);
  gtk_widget_set_layout_manager (GTK_WIDGET (self),
                                 gtk_custom_layout_new (NULL, layout_measure, layout_allocate));

  axis = bl_timeline_get_axis (self->timeline);
  g_signal_connect_swapped (axis, "selection-changed", G_CALLBACK (update_range), self);
  g_signal_connect_swapped (axis, "instant-changed", G_CALLBACK (update_instant), self);
}

/* ---- public API ------------------------------------------------------------ */

BlSessionView *
bl_session_view_new (void)
{
  return g_object_new (BL_TYPE_SESSION_VIEW, NULL);
}

BlSession *
bl_session_view_get_session (BlSessionView *self)
{
  g_return_val_if_fail (BL_IS_SESSION_VIEW (self), NULL);

  return self->session;
}

void
bl_session_view_set_session (BlSessionView *self,
                             BlSession     *session)
{
  g_return_if_fail (BL_IS_SESSION_VIEW (self));
  g_return_if_fail (!session || BL_IS_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;

  /* the timeline resets the axis, which refills the range and the details */
  bl_timeline_set_session (self->timeline, session);
  if (session != NULL)
    {
      update_summary (self);
      update_chart_toggles (self);
      update_range (self);
      update_instant (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/**
 * bl_session_view_get_timeline:
 *
 * Returns: (transfer none): the timeline
 */
BlTimeline *
bl_session_view_get_timeline (BlSessionView *self)
{
  g_return_val_if_fail (BL_IS_SESSION_VIEW (self), NULL);

  return self->timeline;
}

/**
 * bl_session_view_dup_range_text:
 *
 * Returns: (transfer full) (nullable): the selected range's table as text
 */
char *
bl_session_view_dup_range_text (BlSessionView *self)
{
  g_return_val_if_fail (BL_IS_SESSION_VIEW (self), NULL);

  return self->has_range ? g_strdup (self->range_text->str) : NULL;
}

/**
 * bl_session_view_dup_summary_text:
 *
 * Returns: (transfer full): the summary header as text
 */
char *
bl_session_view_dup_summary_text (BlSessionView *self)
{
  g_return_val_if_fail (BL_IS_SESSION_VIEW (self), NULL);

  return g_strdup (self->summary_text->str);
}
