/* bl-source-view.c — a function's source file with per-line costs in the gutter
 *
 * The view shows one source file of the profile: the function's name,
 * place and totals above; below, the file in a GtkSourceView with the
 * BrightScript language definition, a heat bar scaled to the file's hottest
 * line and one column per metric that has per-line values (CPU, wall,
 * allocated bytes, live bytes; time or samples for other formats). It
 * scrolls to the function's hottest line. Lines without a value draw
 * nothing.
 *
 * The file is read through a BlSourceLocator (the app folder or its
 * sideload .zip, remembered per app name in the `source-folders` setting).
 * Without one, or when the file is missing, the same view shows a table of
 * the function's lines and says why, with buttons to choose the sources.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-source-view"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>
#include <string.h>

#include "bl-line-item.h"
#include "bl-lines.h"
#include "bl-source-view.h"

#define HEAT_POSITION   10
#define COLUMN_POSITION 20

struct _BlSourceView
{
  GtkWidget        parent_instance;

  BlProfile       *profile;
  BlMetricId       metric;
  BlSourceLocator *locator;
  GSettings       *settings;
  GCancellable    *cancellable;
  guint            request;

  guint32          function;      /* BL_NODE_NONE: a file from the hot lines */
  guint32          file;          /* string id, 0: nothing shown */
  guint32          focus_line;
  guint32          top_line;      /* the function's first line, kept in view with the focus */
  gboolean         has_source;
  BlLineSet       *file_lines;
  BlLineSet       *shown_lines;   /* the function's lines, or the file's */

  GtkLabel        *title_label;
  GtkLabel        *location_label;
  GtkLabel        *totals_label;
  GtkLabel        *legend_label;
  GtkWidget       *status_box;
  GtkLabel        *status_label;
  GtkStack        *stack;
  GtkSourceView   *view;
  GtkSourceBuffer *buffer;
  GtkColumnView   *table;
  GtkWidget       *gutter_header;
  GListStore      *table_store;
#if GTK_CHECK_VERSION (4, 10, 0)
  GCancellable    *choosing;      /* while a GtkFileDialog is open */
#else
  GtkFileChooserNative *chooser;
#endif

  BlLineGutterRenderer *heat;
  GPtrArray       *columns;       /* BlLineGutterRenderer, owned by the gutter */
  GtkTextTag      *heat_tags[5];  /* line backgrounds, coolest first */
  guint            scroll_tick_id;
  guint            scroll_ticks;
};

G_DEFINE_FINAL_TYPE (BlSourceView, bl_source_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_PROFILE,
  PROP_METRIC,
  PROP_LOCATOR,
  N_PROPS
};

enum {
  LOADED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* the per-line columns, in gutter order, when the file has values for them */
static const BlMetricId column_metrics[] = {
  BL_METRIC_CPU, BL_METRIC_WALL, BL_METRIC_ALLOC_BYTES, BL_METRIC_LIVE_BYTES,
  BL_METRIC_TIME_NS, BL_METRIC_SAMPLES, BL_METRIC_WEIGHT,
};

static GtkSourceLanguage *
brightscript_language (void)
{
  static GtkSourceLanguageManager *manager;

  if (manager == NULL)
    {
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_auto(GStrv) path = NULL;

      /* the system's specs (def.lang, which ours refers to) and ours */
      manager = gtk_source_language_manager_new ();
      g_strv_builder_addv (builder,
                           (const char **) gtk_source_language_manager_get_search_path (manager));
      g_strv_builder_add (builder, "resource://" RESOURCE_BASE_PATH "/language-specs");
      path = g_strv_builder_end (builder);
      gtk_source_language_manager_set_search_path (manager, (const char * const *) path);
    }

  return gtk_source_language_manager_get_language (manager, "brightscript");
}

static void
update_scheme (BlSourceView *self)
{
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  GtkSourceStyleScheme *scheme;

  scheme = gtk_source_style_scheme_manager_get_scheme (schemes, dark ? "Adwaita-dark" : "Adwaita");
  if (scheme == NULL)
    scheme = gtk_source_style_scheme_manager_get_scheme (schemes,
                                                         dark ? "classic-dark" : "classic");
  gtk_source_buffer_set_style_scheme (self->buffer, scheme);
}

static const char *
app_name (BlSourceView *self)
{
  const BlProfileInfo *info;

  if (self->profile == NULL)
    return NULL;

  info = bl_profile_get_info (self->profile);
  if (info->target == NULL || info->target[0] == '\0')
    return NULL;

  return info->target;
}

static void
remember_locator (BlSourceView *self)
{
  g_autoptr(GVariant) old = NULL;
  g_autofree char *uri = NULL;
  GVariantBuilder builder;
  GVariantIter iter;
  const char *key, *value;
  const char *app = app_name (self);

  if (self->settings == NULL || app == NULL || self->locator == NULL)
    return;

  uri = g_file_get_uri (bl_source_locator_get_location (self->locator));
  old = g_settings_get_value (self->settings, "source-folders");
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{ss}"));
  g_variant_iter_init (&iter, old);
  while (g_variant_iter_next (&iter, "{&s&s}", &key, &value))
    if (!g_str_equal (key, app))
      g_variant_builder_add (&builder, "{ss}", key, value);
  g_variant_builder_add (&builder, "{ss}", app, uri);
  g_settings_set_value (self->settings, "source-folders", g_variant_builder_end (&builder));
}

static void
restore_locator (BlSourceView *self)
{
  g_autoptr(GVariant) folders = NULL;
  const char *app = app_name (self);
  const char *uri = NULL;

  if (self->settings == NULL || app == NULL)
    return;

  folders = g_settings_get_value (self->settings, "source-folders");
  if (g_variant_lookup (folders, app, "&s", &uri))
    {
      g_autoptr(GFile) location = g_file_new_for_uri (uri);
      g_autoptr(BlSourceLocator) locator = bl_source_locator_new (location);

      if (g_set_object (&self->locator, locator))
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOCATOR]);
    }
}

static void
set_status (BlSourceView *self,
            const char   *text)
{
  gtk_label_set_text (self->status_label, text ? text : "");
  gtk_widget_set_visible (self->status_box, text != NULL);
}

static void
update_header (BlSourceView *self)
{
  g_autoptr(GString) totals = g_string_new (NULL);
  const char *file_name = bl_profile_get_string (self->profile, self->file);

  if (self->function != BL_NODE_NONE)
    {
      const BlFunction *fn = bl_profile_get_function (self->profile, self->function);
      g_autofree char *where = fn->line ? g_strdup_printf ("%s:%u", file_name, fn->line)
                                        : g_strdup (file_name);

      gtk_label_set_text (self->title_label, bl_profile_get_string (self->profile, fn->name));
      gtk_label_set_text (self->location_label, where);
    }
  else
    {
      gtk_label_set_text (self->title_label, file_name);
      gtk_label_set_text (self->location_label, "");
    }

  for (guint i = 0; i < self->columns->len; i++)
    {
      BlLineGutterRenderer *column = g_ptr_array_index (self->columns, i);
      BlMetricId m = bl_line_gutter_renderer_get_metric (column);
      const BlMetricInfo *info = bl_metric_get_info (m);

      if (totals->len > 0)
        g_string_append (totals, "   ·   ");
      if (self->function != BL_NODE_NONE)
        {
          g_autofree char *self_text =
            bl_profile_format_value (self->profile, m,
                                     bl_profile_get_function_self (self->profile, m,
                                                                     self->function));
          g_autofree char *total_text =
            bl_profile_format_value (self->profile, m,
                                     bl_profile_get_function_total (self->profile, m,
                                                                      self->function));

          /* Translators: a function's totals: "CPU 1.20 s self, 3.40 s total" */
          g_string_append_printf (totals, _("%s %s self, %s total"), _(info->short_name),
                                  self_text, total_text);
        }
      else
        {
          g_autofree char *sum = bl_profile_format_value (self->profile, m,
                                                          bl_line_set_get_sum (self->file_lines,
                                                                                 m));

          /* Translators: a file's per-line sum: "CPU 1.20 s on these lines" */
          g_string_append_printf (totals, _("%s %s on these lines"), _(info->short_name), sum);
        }
    }

  gtk_label_set_text (self->totals_label, totals->str);

  if (self->heat != NULL)
    {
      BlMetricId heat = bl_line_gutter_renderer_get_metric (self->heat);
      const BlMetricInfo *info = bl_metric_get_info (heat);
      g_autofree char *text = NULL;
      /* Translators: explains the heat bars; %s is a metric: "CPU time" */
      text = g_strdup_printf (_("Heat bars and tints: each line’s %s as a share of the "
                                "hottest line in this file"), _(info->display_name));
      gtk_label_set_text (self->legend_label, text);
    }
  else
    gtk_label_set_text (self->legend_label, "");
}

static BlMetricId
heat_metric (BlSourceView *self)
{
  if (self->metric != BL_METRIC_INVALID && self->file_lines != NULL &&
      bl_line_set_get_max (self->file_lines, self->metric) > 0)
    return self->metric;

  if (self->columns->len > 0)
    return bl_line_gutter_renderer_get_metric (g_ptr_array_index (self->columns, 0));

  return BL_METRIC_INVALID;
}

static void
rebuild_columns (BlSourceView *self)
{
  GtkSourceGutter *gutter = gtk_source_view_get_gutter (self->view, GTK_TEXT_WINDOW_LEFT);
  BlMetricId metrics[G_N_ELEMENTS (column_metrics)];
  guint n = 0;
  BlMetricId heat;

  for (guint i = 0; i < self->columns->len; i++)
    gtk_source_gutter_remove (gutter, g_ptr_array_index (self->columns, i));
  g_ptr_array_set_size (self->columns, 0);
  if (self->heat)
    gtk_source_gutter_remove (gutter, GTK_SOURCE_GUTTER_RENDERER (self->heat));
  self->heat = NULL;

  if (self->file_lines == NULL)
    return;

  for (guint i = 0; i < G_N_ELEMENTS (column_metrics); i++)
    if (bl_line_set_get_max (self->file_lines, column_metrics[i]) > 0)
      metrics[n++] = column_metrics[i];

  for (guint i = 0; i < n; i++)
    {
      GtkSourceGutterRenderer *column = bl_line_gutter_renderer_new (BL_LINE_GUTTER_TEXT,
                                                                     metrics[i]);

      bl_line_gutter_renderer_set_lines (BL_LINE_GUTTER_RENDERER (column), self->file_lines);
      gtk_source_gutter_insert (gutter, column, COLUMN_POSITION + i);
      g_ptr_array_add (self->columns, column);
    }

  heat = heat_metric (self);
  if (heat != BL_METRIC_INVALID)
    {
      GtkSourceGutterRenderer *bar = bl_line_gutter_renderer_new (BL_LINE_GUTTER_HEAT, heat);

      bl_line_gutter_renderer_set_lines (BL_LINE_GUTTER_RENDERER (bar), self->file_lines);
      gtk_source_gutter_insert (gutter, bar, HEAT_POSITION);
      self->heat = BL_LINE_GUTTER_RENDERER (bar);
    }
}

static void
fill_table (BlSourceView *self)
{
  BlMetricId metrics[G_N_ELEMENTS (column_metrics)];
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  GListModel *columns = gtk_column_view_get_columns (self->table);
  guint n = 0;

  /* columns: file, line, function and the metrics of this file */
  while (g_list_model_get_n_items (columns) > 0)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, 0);

      gtk_column_view_remove_column (self->table, column);
    }
  for (guint i = 0; i < self->columns->len; i++)
    metrics[n++] = bl_line_gutter_renderer_get_metric (g_ptr_array_index (self->columns, i));
  bl_line_item_add_columns (self->table, TRUE, metrics, n);

  if (self->shown_lines != NULL)
    for (guint p = 0; p < bl_line_set_get_n_lines (self->shown_lines); p++)
      g_ptr_array_add (items, bl_line_item_new (self->profile,
                                                bl_line_set_get_line_index (self->shown_lines, p)));

  g_list_store_splice (self->table_store, 0,
                       g_list_model_get_n_items (G_LIST_MODEL (self->table_store)),
                       items->pdata, items->len);
}

/* Where to scroll: the function's first line at the top when the focus line
 * fits below it, else the focus line in the upper third. */
static void
scroll_target (BlSourceView *self,
               GtkTextIter  *target,
               double       *yalign)
{
  GtkTextView *view = GTK_TEXT_VIEW (self->view);
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  guint lines = gtk_text_buffer_get_line_count (buffer);
  GtkTextIter focus, top;
  GdkRectangle visible;
  int focus_y, focus_h, top_y, top_h;

  gtk_text_buffer_get_iter_at_line (buffer, &focus, MIN (self->focus_line, lines) - 1);
  *target = focus;
  *yalign = 0.3;

  if (self->top_line == 0 || self->top_line > self->focus_line)
    return;

  gtk_text_buffer_get_iter_at_line (buffer, &top, MIN (self->top_line, lines) - 1);
  gtk_text_view_get_visible_rect (view, &visible);
  gtk_text_view_get_line_yrange (view, &focus, &focus_y, &focus_h);
  gtk_text_view_get_line_yrange (view, &top, &top_y, &top_h);
  if (visible.height > 0 && focus_y + focus_h - top_y <= visible.height)
    {
      *target = top;
      *yalign = 0.0;
    }
}

static gboolean
line_visible (GtkTextView       *view,
              const GtkTextIter *iter,
              const GdkRectangle *visible)
{
  int y, height;

  gtk_text_view_get_line_yrange (view, iter, &y, &height);

  return y >= visible->y && y + height <= visible->y + visible->height;
}

/* Scrolls until the focus line is in view: the text view computes line
 * heights in idles, so a scroll asked for before the first layout can land
 * short; the tick repeats it for a few frames until the line is visible. */
static gboolean
scroll_tick (GtkWidget     *widget,
             GdkFrameClock *clock,
             gpointer       user_data)
{
  BlSourceView *self = BL_SOURCE_VIEW (user_data);
  GtkTextView *view = GTK_TEXT_VIEW (self->view);
  GtkAdjustment *adjustment;
  GtkTextIter iter, target;
  GdkRectangle visible;
  gboolean at_end;
  double yalign;
  int y, height;

  if (self->focus_line == 0 || self->scroll_ticks == 0)
    {
      self->scroll_tick_id = 0;
      return G_SOURCE_REMOVE;
    }

  self->scroll_ticks--;
  gtk_widget_queue_draw (self->gutter_header);
  gtk_text_buffer_get_iter_at_line (GTK_TEXT_BUFFER (self->buffer), &iter,
                                    self->focus_line - 1);
  gtk_text_view_get_visible_rect (view, &visible);
  gtk_text_view_get_line_yrange (view, &iter, &y, &height);

  /* done when the line shows with the function's first line above it, or
   * in the upper half, or as high as the end of the file lets it */
  adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));
  at_end = adjustment != NULL &&
           gtk_adjustment_get_value (adjustment) >=
           gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment) - 1;
  scroll_target (self, &target, &yalign);
  if (visible.height > 0 && y >= visible.y && y + height <= visible.y + visible.height &&
      (yalign == 0.0 ? line_visible (view, &target, &visible)
                     : (y - visible.y <= visible.height / 2 || at_end)) &&
      self->scroll_ticks < 55)
    {
      self->scroll_tick_id = 0;
      return G_SOURCE_REMOVE;
    }

  gtk_text_view_scroll_to_iter (view, &target, 0.0, TRUE, 0.0, yalign);

  return G_SOURCE_CONTINUE;
}

static void
scroll_to_focus (BlSourceView *self)
{
  GtkTextIter iter;
  guint lines = gtk_text_buffer_get_line_count (GTK_TEXT_BUFFER (self->buffer));

  if (self->focus_line == 0)
    return;

  gtk_text_buffer_get_iter_at_line (GTK_TEXT_BUFFER (self->buffer), &iter,
                                    MIN (self->focus_line, lines) - 1);
  gtk_text_buffer_place_cursor (GTK_TEXT_BUFFER (self->buffer), &iter);
  gtk_text_view_scroll_to_mark (GTK_TEXT_VIEW (self->view),
                                gtk_text_buffer_get_insert (GTK_TEXT_BUFFER (self->buffer)),
                                0.0, TRUE, 0.0, 0.3);

  self->scroll_ticks = 60;
  if (self->scroll_tick_id == 0)
    self->scroll_tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->view), scroll_tick,
                                                         self, NULL);
}

/* Tints the lines that cost something, darker for hotter ones. */
static void
apply_heat_tags (BlSourceView *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  GtkTextIter start, end;
  BlMetricId metric;
  guint64 max;
  guint n_lines = gtk_text_buffer_get_line_count (buffer);

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  for (guint i = 0; i < G_N_ELEMENTS (self->heat_tags); i++)
    gtk_text_buffer_remove_tag (buffer, self->heat_tags[i], &start, &end);

  if (self->heat == NULL || self->file_lines == NULL || !self->has_source)
    return;

  metric = bl_line_gutter_renderer_get_metric (self->heat);
  max = bl_line_set_get_max (self->file_lines, metric);
  if (max == 0)
    return;

  for (guint p = 0; p < bl_line_set_get_n_lines (self->file_lines); p++)
    {
      guint32 number = bl_line_set_get_line_number (self->file_lines, p);
      guint64 value = bl_line_set_get_value (self->file_lines, metric, p);
      guint level;

      if (value == 0 || number == 0 || number > n_lines)
        continue;

      level = MIN ((guint) (value * G_N_ELEMENTS (self->heat_tags) / max),
                   G_N_ELEMENTS (self->heat_tags) - 1);
      gtk_text_buffer_get_iter_at_line (buffer, &start, number - 1);
      end = start;
      gtk_text_iter_forward_line (&end);
      gtk_text_buffer_apply_tag (buffer, self->heat_tags[level], &start, &end);
    }
}

static void
update_top_line (BlSourceView *self)
{
  self->top_line = 0;
  if (self->function != BL_NODE_NONE && self->function < bl_profile_get_n_functions (self->profile))
    {
      const BlFunction *fn = bl_profile_get_function (self->profile, self->function);

      if (fn->file == self->file)
        self->top_line = fn->line;
    }
}

static void
show_table (BlSourceView *self,
            const char   *why)
{
  self->has_source = FALSE;
  set_status (self, why);
  gtk_stack_set_visible_child_name (self->stack, "table");
}

/* the view and the request a load answers: a newer request wins */
typedef struct
{
  BlSourceView *self;
  guint         serial;
} Request;

static void
request_free (Request *request)
{
  g_object_unref (request->self);
  g_free (request);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Request, request_free)

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(Request) request = user_data;
  BlSourceView *self = request->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *text = NULL;
  const char *data;
  gsize len;

  bytes = bl_source_locator_load_finish (BL_SOURCE_LOCATOR (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      request->serial != self->request)
    return;

  if (bytes == NULL)
    {
      g_autofree char *why = NULL;

      /* Translators: the first %s says why the file could not be read */
      why = g_strdup_printf (_("%s Choose the app’s folder or its sideload .zip package."),
                             error->message);
      show_table (self, why);
      g_signal_emit (self, signals[LOADED], 0, FALSE);
      return;
    }

  data = g_bytes_get_data (bytes, &len);
  if (len >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0)
    {
      data += 3;
      len -= 3;
    }
  text = g_utf8_make_valid (data, len);

  gtk_source_buffer_set_language (self->buffer, brightscript_language ());
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (self->buffer), text, -1);
  self->has_source = TRUE;
  set_status (self, NULL);
  gtk_stack_set_visible_child_name (self->stack, "source");
  apply_heat_tags (self);
  scroll_to_focus (self);
  gtk_widget_queue_draw (self->gutter_header);

  g_signal_emit (self, signals[LOADED], 0, TRUE);
}

static void
load_source (BlSourceView *self)
{
  Request *request;
  const char *name;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->request++;

  if (self->file == 0)
    return;

  name = bl_profile_get_string (self->profile, self->file);

  if (self->locator == NULL)
    {
      /* without per-line costs there is nothing to annotate: no call to
       * locate the sources */
      if (!bl_profile_get_info (self->profile)->has_lines)
        {
          self->has_source = FALSE;
          set_status (self, NULL);
          gtk_stack_set_visible_child_name (self->stack, "no-lines");
          g_signal_emit (self, signals[LOADED], 0, FALSE);
          return;
        }
      show_table (self, _("The app’s sources have not been located. Choose its folder or its "
                          "sideload .zip package to see the annotated source."));
      g_signal_emit (self, signals[LOADED], 0, FALSE);
      return;
    }

  self->cancellable = g_cancellable_new ();
  request = g_new0 (Request, 1);
  request->self = g_object_ref (self);
  request->serial = self->request;
  bl_source_locator_load_async (self->locator, name, self->cancellable, load_cb, request);
}

static void
show_file (BlSourceView *self,
           guint32       file,
           guint32       focus_line)
{
  self->file = file;
  self->focus_line = focus_line;
  update_top_line (self);

  g_clear_pointer (&self->file_lines, bl_line_set_unref);
  self->file_lines = bl_line_set_new_for_file (self->profile, file);

  rebuild_columns (self);
  update_header (self);
  fill_table (self);
  load_source (self);
}

#if GTK_CHECK_VERSION (4, 10, 0)

static void
on_chosen (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(BlSourceView) self = user_data;
  GtkFileDialog *dialog = GTK_FILE_DIALOG (source);
  g_autoptr(GFile) location = NULL;

  if (g_object_get_data (source, "bl-folder") != NULL)
    location = gtk_file_dialog_select_folder_finish (dialog, result, NULL);
  else
    location = gtk_file_dialog_open_finish (dialog, result, NULL);

  /* a dialog cancelled by dispose leaves the view alone */
  if (self->choosing == NULL || g_cancellable_is_cancelled (self->choosing))
    return;
  g_clear_object (&self->choosing);

  if (location != NULL)
    bl_source_view_use_location (self, location);
}

static void
choose (BlSourceView *self,
        gboolean      folder)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWindow *parent = GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL;
  g_autoptr(GtkFileDialog) dialog = NULL;

  if (self->choosing != NULL)
    return;

  dialog = gtk_file_dialog_new ();
  gtk_file_dialog_set_accept_label (dialog, _("_Choose"));
  self->choosing = g_cancellable_new ();

  if (folder)
    {
      gtk_file_dialog_set_title (dialog, _("Choose the App’s Source Folder"));
      g_object_set_data (G_OBJECT (dialog), "bl-folder", GINT_TO_POINTER (TRUE));
      gtk_file_dialog_select_folder (dialog, parent, self->choosing, on_chosen,
                                     g_object_ref (self));
    }
  else
    {
      g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
      g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);

      gtk_file_dialog_set_title (dialog, _("Choose the App’s Sideload Package"));
      gtk_file_filter_set_name (filter, _("Sideload packages (.zip)"));
      gtk_file_filter_add_suffix (filter, "zip");
      gtk_file_filter_add_mime_type (filter, "application/zip");
      g_list_store_append (filters, filter);
      gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
      gtk_file_dialog_open (dialog, parent, self->choosing, on_chosen, g_object_ref (self));
    }
}

#else

static void
on_chosen (GtkNativeDialog *dialog,
           int              response,
           BlSourceView    *self)
{
  g_autoptr(GFile) location = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    location = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

  g_clear_object (&self->chooser);

  if (location != NULL)
    bl_source_view_use_location (self, location);
}

static void
choose (BlSourceView *self,
        gboolean      folder)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserAction action = folder ? GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER
                                       : GTK_FILE_CHOOSER_ACTION_OPEN;
  const char *title = folder
    ? _("Choose the App’s Source Folder")
    : _("Choose the App’s Sideload Package");

  if (self->chooser != NULL)
    return;

  self->chooser = gtk_file_chooser_native_new (title,
                                               GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               action, _("_Choose"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);

  if (!folder)
    {
      g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

      gtk_file_filter_set_name (filter, _("Sideload packages (.zip)"));
      gtk_file_filter_add_suffix (filter, "zip");
      gtk_file_filter_add_mime_type (filter, "application/zip");
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
    }

  g_signal_connect (self->chooser, "response", G_CALLBACK (on_chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

#endif

static void
choose_folder_cb (BlSourceView *self)
{
  choose (self, TRUE);
}

static void
choose_zip_cb (BlSourceView *self)
{
  choose (self, FALSE);
}

/* Titles over the gutter columns, placed where the columns are. */
static void
draw_gutter_header (GtkDrawingArea *area,
                    cairo_t        *cr,
                    int             width,
                    int             height,
                    gpointer        user_data)
{
  BlSourceView *self = user_data;
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (area), NULL);
  GtkStyleContext *style = gtk_widget_get_style_context (GTK_WIDGET (area));
  GdkRGBA fg;

  gtk_style_context_get_color (style, &fg);
  gdk_cairo_set_source_rgba (cr, &fg);

  for (guint i = 0; i <= self->columns->len; i++)
    {
      BlLineGutterRenderer *column = i < self->columns->len
        ? g_ptr_array_index (self->columns, i) : self->heat;
      int xpad, w, h;
      graphene_rect_t bounds;
      double x;

      if (column == NULL ||
          !gtk_widget_compute_bounds (GTK_WIDGET (column), GTK_WIDGET (area), &bounds))
        continue;

      xpad = gtk_source_gutter_renderer_get_xpad (GTK_SOURCE_GUTTER_RENDERER (column));
      if (column == self->heat)
        /* Translators: the title over the heat bars of the source view */
        pango_layout_set_text (layout, _("Heat"), -1);
      else
        {
          BlMetricId metric = bl_line_gutter_renderer_get_metric (column);

          pango_layout_set_text (layout, _(bl_metric_get_info (metric)->short_name), -1);
        }
      pango_layout_get_pixel_size (layout, &w, &h);
      x = column == self->heat ? bounds.origin.x + xpad
                               : bounds.origin.x + bounds.size.width - xpad - w;
      cairo_move_to (cr, x, (height - h) / 2.0);
      pango_cairo_show_layout (cr, layout);
    }
}

static GtkWidget *
build_header (BlSourceView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

  gtk_widget_add_css_class (box, "bl-source-header");
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);

  self->title_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->title_label, 0);
  gtk_label_set_selectable (self->title_label, TRUE);
  gtk_label_set_ellipsize (self->title_label, PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (GTK_WIDGET (self->title_label), "heading");

  self->location_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->location_label, 0);
  gtk_label_set_selectable (self->location_label, TRUE);
  gtk_label_set_ellipsize (self->location_label, PANGO_ELLIPSIZE_START);
  gtk_widget_set_hexpand (GTK_WIDGET (self->location_label), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->location_label), "dim-label");

  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->title_label));
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->location_label));
  gtk_box_append (GTK_BOX (box), row);

  self->totals_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->totals_label, 0);
  gtk_label_set_wrap (self->totals_label, TRUE);
  gtk_label_set_selectable (self->totals_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->totals_label), "numeric");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->totals_label));

  self->legend_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->legend_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->legend_label), "caption");
  gtk_widget_add_css_class (GTK_WIDGET (self->legend_label), "dim-label");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->legend_label));

  return box;
}

static GtkWidget *
build_status (BlSourceView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *folder = gtk_button_new_with_mnemonic (_("Choose _Folder…"));
  GtkWidget *zip = gtk_button_new_with_mnemonic (_("Choose ._zip…"));

  gtk_widget_add_css_class (box, "bl-banner");
  self->status_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->status_label, 0);
  gtk_label_set_wrap (self->status_label, TRUE);
  gtk_label_set_selectable (self->status_label, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->status_label), TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->status_label));

  gtk_widget_set_valign (folder, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (zip, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (folder, _("Choose the folder that holds the app’s manifest"));
  gtk_widget_set_tooltip_text (zip, _("Choose the .zip package you sideload"));
  g_signal_connect_swapped (folder, "clicked", G_CALLBACK (choose_folder_cb), self);
  g_signal_connect_swapped (zip, "clicked", G_CALLBACK (choose_zip_cb), self);
  gtk_box_append (GTK_BOX (box), folder);
  gtk_box_append (GTK_BOX (box), zip);
  gtk_widget_set_visible (box, FALSE);

  return box;
}

static void
build_stack (BlSourceView *self)
{
  GtkWidget *page;
  GtkWidget *scroller;
  GtkWidget *empty;
  GtkSelectionModel *selection;

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);

  empty = adw_status_page_new ();
  adw_status_page_set_title (ADW_STATUS_PAGE (empty), _("No Source Shown"));
  adw_status_page_set_description (ADW_STATUS_PAGE (empty),
                                   _("Double-click a frame or a table row, or pick a hot line, "
                                     "to see its source with the cost of every line."));
  gtk_widget_add_css_class (empty, "compact");
  gtk_stack_add_named (self->stack, empty, "empty");

  empty = adw_status_page_new ();
  adw_status_page_set_title (ADW_STATUS_PAGE (empty), _("No Line Data"));
  adw_status_page_set_description (ADW_STATUS_PAGE (empty),
                                   _("This profile carries no per-line costs, so there are no "
                                     "lines to annotate."));
  gtk_widget_add_css_class (empty, "compact");
  gtk_stack_add_named (self->stack, empty, "no-lines");

  self->buffer = gtk_source_buffer_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (self->heat_tags); i++)
    {
      /* amber, from a hint to a clear tint */
      GdkRGBA tint = { 0.96, 0.58, 0.07, 0.05 + 0.05 * i };

      self->heat_tags[i] = gtk_text_buffer_create_tag (GTK_TEXT_BUFFER (self->buffer), NULL,
                                                       "paragraph-background-rgba", &tint,
                                                       NULL);
    }
  self->view = GTK_SOURCE_VIEW (gtk_source_view_new_with_buffer (self->buffer));
  gtk_text_view_set_editable (GTK_TEXT_VIEW (self->view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (self->view), TRUE);
  gtk_text_view_set_cursor_visible (GTK_TEXT_VIEW (self->view), FALSE);
  gtk_source_view_set_show_line_numbers (self->view, TRUE);
  gtk_source_view_set_highlight_current_line (self->view, TRUE);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (self->view), 6);
  gtk_widget_add_css_class (GTK_WIDGET (self->view), "bl-source");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Annotated source"), -1);
  scroller = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->view));
  self->gutter_header = gtk_drawing_area_new ();
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self->gutter_header), 18);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->gutter_header), draw_gutter_header,
                                  self, NULL);
  gtk_widget_add_css_class (self->gutter_header, "caption");
  gtk_widget_add_css_class (self->gutter_header, "dim-label");
  page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (page), self->gutter_header);
  gtk_box_append (GTK_BOX (page), scroller);
  gtk_stack_add_named (self->stack, page, "source");

  self->table_store = g_list_store_new (BL_TYPE_LINE_ITEM);
  selection = GTK_SELECTION_MODEL (gtk_no_selection_new (
                                    g_object_ref (G_LIST_MODEL (self->table_store))));
  self->table = GTK_COLUMN_VIEW (gtk_column_view_new (selection));
  gtk_column_view_set_show_column_separators (self->table, FALSE);
  gtk_widget_add_css_class (GTK_WIDGET (self->table), "data-table");
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->table));
  gtk_stack_add_named (self->stack, scroller, "table");

  gtk_stack_set_visible_child_name (self->stack, "empty");
}

static void
bl_source_view_dispose (GObject *object)
{
  BlSourceView *self = (BlSourceView *) object;
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->scroll_tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self->view), self->scroll_tick_id);
      self->scroll_tick_id = 0;
    }
#if GTK_CHECK_VERSION (4, 10, 0)
  if (self->choosing != NULL)
    {
      g_cancellable_cancel (self->choosing);
      g_clear_object (&self->choosing);
    }
#else
  if (self->chooser)
    {
      g_signal_handlers_disconnect_by_func (self->chooser, on_chosen, self);
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
      g_clear_object (&self->chooser);
    }
#endif
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_pointer (&self->file_lines, bl_line_set_unref);
  g_clear_pointer (&self->shown_lines, bl_line_set_unref);
  g_clear_pointer (&self->columns, g_ptr_array_unref);
  g_clear_object (&self->table_store);
  g_clear_object (&self->buffer);
  g_clear_object (&self->locator);
  g_clear_object (&self->settings);
  g_clear_object (&self->profile);

  G_OBJECT_CLASS (bl_source_view_parent_class)->dispose (object);
}

static void
bl_source_view_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  BlSourceView *self = BL_SOURCE_VIEW (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      g_value_set_object (value, self->profile);
      break;

    case PROP_METRIC:
      g_value_set_int (value, self->metric);
      break;

    case PROP_LOCATOR:
      g_value_set_object (value, self->locator);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_source_view_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  BlSourceView *self = BL_SOURCE_VIEW (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      bl_source_view_set_profile (self, g_value_get_object (value));
      break;

    case PROP_METRIC:
      bl_source_view_set_metric (self, g_value_get_int (value));
      break;

    case PROP_LOCATOR:
      bl_source_view_set_locator (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_source_view_class_init (BlSourceViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_source_init ();

  object_class->dispose = bl_source_view_dispose;
  object_class->get_property = bl_source_view_get_property;
  object_class->set_property = bl_source_view_set_property;

  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL, BL_TYPE_PROFILE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_METRIC] =
    g_param_spec_int ("metric", NULL, NULL, BL_METRIC_INVALID, BL_N_METRICS - 1, BL_METRIC_INVALID,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOCATOR] =
    g_param_spec_object ("locator", NULL, NULL, BL_TYPE_SOURCE_LOCATOR,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * BlSourceView::loaded:
   * @has_source: whether the file was read; otherwise the line table shows
   *
   * Emitted when a request to show a file has finished.
   */
  signals[LOADED] = g_signal_new ("loaded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "sourceview-annotated");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
bl_source_view_init (BlSourceView *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  GtkLayoutManager *layout;

  layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);

  self->metric = BL_METRIC_INVALID;
  self->function = BL_NODE_NONE;
  self->columns = g_ptr_array_new ();

  if (source != NULL && (schema = g_settings_schema_source_lookup (source, BASE_ID, TRUE)) &&
      g_settings_schema_has_key (schema, "source-folders"))
    self->settings = g_settings_new (BASE_ID);

  gtk_widget_set_parent (build_header (self), GTK_WIDGET (self));
  self->status_box = build_status (self);
  gtk_widget_set_parent (self->status_box, GTK_WIDGET (self));
  build_stack (self);
  gtk_widget_set_parent (GTK_WIDGET (self->stack), GTK_WIDGET (self));

  update_scheme (self);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (update_scheme), self, G_CONNECT_SWAPPED);
}

GtkWidget *
bl_source_view_new (void)
{
  return g_object_new (BL_TYPE_SOURCE_VIEW, NULL);
}

BlProfile *
bl_source_view_get_profile (BlSourceView *self)
{
  g_return_val_if_fail (BL_IS_SOURCE_VIEW (self), NULL);

  return self->profile;
}

/**
 * bl_source_view_set_profile:
 *
 * Shows nothing until a function or line is chosen; the sources remembered
 * for the profile's app, if any, are used from then on.
 */
void
bl_source_view_set_profile (BlSourceView *self,
                            BlProfile    *profile)
{
  g_return_if_fail (BL_IS_SOURCE_VIEW (self));
  g_return_if_fail (!profile || BL_IS_PROFILE (profile));

  if (!g_set_object (&self->profile, profile))
    return;

  g_cancellable_cancel (self->cancellable);
  self->request++;
  self->file = 0;
  self->function = BL_NODE_NONE;
  self->focus_line = 0;
  self->has_source = FALSE;
  g_clear_pointer (&self->file_lines, bl_line_set_unref);
  g_clear_pointer (&self->shown_lines, bl_line_set_unref);
  rebuild_columns (self);
  g_list_store_remove_all (self->table_store);
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (self->buffer), "", 0);
  gtk_label_set_text (self->title_label, "");
  gtk_label_set_text (self->location_label, "");
  gtk_label_set_text (self->totals_label, "");
  gtk_label_set_text (self->legend_label, "");
  set_status (self, NULL);
  gtk_stack_set_visible_child_name (self->stack, "empty");

  /* the sources belong to an app: the new profile's own, if remembered */
  if (g_set_object (&self->locator, NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOCATOR]);
  if (profile != NULL)
    restore_locator (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
}

BlMetricId
bl_source_view_get_metric (BlSourceView *self)
{
  g_return_val_if_fail (BL_IS_SOURCE_VIEW (self), BL_METRIC_INVALID);

  return self->metric;
}

/**
 * bl_source_view_set_metric:
 *
 * The metric of the heat bar and of "hottest line".
 */
void
bl_source_view_set_metric (BlSourceView *self,
                           BlMetricId    metric)
{
  g_return_if_fail (BL_IS_SOURCE_VIEW (self));

  if (self->metric == metric)
    return;

  self->metric = metric;
  if (self->heat != NULL)
    {
      BlMetricId heat = heat_metric (self);

      if (heat != BL_METRIC_INVALID)
        bl_line_gutter_renderer_set_metric (self->heat, heat);
      update_header (self);
      apply_heat_tags (self);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_METRIC]);
}

BlSourceLocator *
bl_source_view_get_locator (BlSourceView *self)
{
  g_return_val_if_fail (BL_IS_SOURCE_VIEW (self), NULL);

  return self->locator;
}

/**
 * bl_source_view_set_locator:
 * @locator: (nullable): where the sources are
 *
 * Reloads the file shown, if any. Does not remember the choice; the
 * buttons of the view do.
 */
void
bl_source_view_set_locator (BlSourceView    *self,
                            BlSourceLocator *locator)
{
  g_return_if_fail (BL_IS_SOURCE_VIEW (self));
  g_return_if_fail (!locator || BL_IS_SOURCE_LOCATOR (locator));

  if (!g_set_object (&self->locator, locator))
    return;

  if (self->file != 0)
    load_source (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOCATOR]);
}

/**
 * bl_source_view_show_function:
 * @function: an index for bl_profile_get_function()
 *
 * Shows the function's file, its totals and its lines, scrolled to its
 * hottest line for the view's metric (or for the first metric with line
 * data, or to its definition).
 */
void
bl_source_view_show_function (BlSourceView *self,
                              guint32       function)
{
  const BlFunction *fn;
  guint position;
  guint32 focus;

  g_return_if_fail (BL_IS_SOURCE_VIEW (self));
  g_return_if_fail (self->profile != NULL);
  g_return_if_fail (function < bl_profile_get_n_functions (self->profile));

  fn = bl_profile_get_function (self->profile, function);
  self->function = function;
  g_clear_pointer (&self->shown_lines, bl_line_set_unref);
  self->shown_lines = bl_line_set_new_for_function (self->profile, function);

  focus = fn->line;
  if (self->metric != BL_METRIC_INVALID &&
      bl_line_set_get_hottest (self->shown_lines, self->metric, &position))
    focus = bl_line_set_get_line_number (self->shown_lines, position);
  else
    for (guint i = 0; i < G_N_ELEMENTS (column_metrics); i++)
      if (bl_line_set_get_hottest (self->shown_lines, column_metrics[i], &position))
        {
          focus = bl_line_set_get_line_number (self->shown_lines, position);
          break;
        }

  show_file (self, fn->file, focus);
}

/**
 * bl_source_view_show_line:
 * @line_index: a line record of the profile
 *
 * Shows the line's file scrolled to it, with the totals of the function it
 * belongs to.
 */
void
bl_source_view_show_line (BlSourceView *self,
                          guint32       line_index)
{
  const BlLine *line;

  g_return_if_fail (BL_IS_SOURCE_VIEW (self));
  g_return_if_fail (self->profile != NULL);
  g_return_if_fail (line_index < bl_profile_get_n_lines (self->profile));

  line = bl_profile_get_line (self->profile, line_index);
  self->function = bl_lines_find_function (self->profile, line_index);
  if (self->function != BL_NODE_NONE &&
      bl_profile_get_function (self->profile, self->function)->file != line->file)
    self->function = BL_NODE_NONE;

  g_clear_pointer (&self->shown_lines, bl_line_set_unref);
  if (self->function != BL_NODE_NONE)
    self->shown_lines = bl_line_set_new_for_function (self->profile, self->function);
  else
    self->shown_lines = bl_line_set_new_for_file (self->profile, line->file);

  if (self->file == line->file && self->has_source)
    {
      /* same file: no reload, just move */
      self->focus_line = line->line;
      update_top_line (self);
      update_header (self);
      fill_table (self);
      scroll_to_focus (self);
      g_signal_emit (self, signals[LOADED], 0, TRUE);
      return;
    }

  show_file (self, line->file, line->line);
}

/* Returns: the function shown, or %BL_NODE_NONE */
guint32
bl_source_view_get_function (BlSourceView *self)
{
  g_return_val_if_fail (BL_IS_SOURCE_VIEW (self), BL_NODE_NONE);

  return self->function;
}

/* Returns: the 1-based line the view scrolls to, 0 for none */
guint32
bl_source_view_get_focus_line (BlSourceView *self)
{
  g_return_val_if_fail (BL_IS_SOURCE_VIEW (self), 0);

  return self->focus_line;
}

/* Returns: whether the source text is shown (else the line table) */
gboolean
bl_source_view_has_source (BlSourceView *self)
{
  g_return_val_if_fail (BL_IS_SOURCE_VIEW (self), FALSE);

  return self->has_source;
}

/* Returns: why the sources are not shown, or "" */
const char *
bl_source_view_get_status_text (BlSourceView *self)
{
  g_return_val_if_fail (BL_IS_SOURCE_VIEW (self), NULL);

  return gtk_widget_get_visible (self->status_box) ? gtk_label_get_text (self->status_label) : "";
}

const char *
bl_source_view_get_totals_text (BlSourceView *self)
{
  g_return_val_if_fail (BL_IS_SOURCE_VIEW (self), NULL);

  return gtk_label_get_text (self->totals_label);
}

GtkTextBuffer *
bl_source_view_get_buffer (BlSourceView *self)
{
  g_return_val_if_fail (BL_IS_SOURCE_VIEW (self), NULL);

  return GTK_TEXT_BUFFER (self->buffer);
}

/**
 * bl_source_view_get_column:
 *
 * Returns: (transfer none) (nullable): the gutter column of @metric
 */
BlLineGutterRenderer *
bl_source_view_get_column (BlSourceView *self,
                           BlMetricId    metric)
{
  g_return_val_if_fail (BL_IS_SOURCE_VIEW (self), NULL);

  for (guint i = 0; i < self->columns->len; i++)
    if (bl_line_gutter_renderer_get_metric (g_ptr_array_index (self->columns, i)) == metric)
      return g_ptr_array_index (self->columns, i);

  return NULL;
}

/* Returns: (transfer none) (nullable): the heat bar column */
BlLineGutterRenderer *
bl_source_view_get_heat_column (BlSourceView *self)
{
  g_return_val_if_fail (BL_IS_SOURCE_VIEW (self), NULL);

  return self->heat;
}

/* Returns: (transfer none): the BlLineItems of the line table */
GListModel *
bl_source_view_get_table_model (BlSourceView *self)
{
  g_return_val_if_fail (BL_IS_SOURCE_VIEW (self), NULL);

  return G_LIST_MODEL (self->table_store);
}

/**
 * bl_source_view_use_location:
 * @location: the app's folder or its sideload .zip package
 *
 * What the buttons do once the user has chosen: reads the sources from
 * @location from now on and remembers it for the profile's app name (the
 * `source-folders` setting), keeping the choices made for other apps.
 */
void
bl_source_view_use_location (BlSourceView *self,
                             GFile        *location)
{
  g_autoptr(BlSourceLocator) locator = NULL;

  g_return_if_fail (BL_IS_SOURCE_VIEW (self));
  g_return_if_fail (G_IS_FILE (location));

  locator = bl_source_locator_new (location);
  bl_source_view_set_locator (self, locator);
  remember_locator (self);
}
