/* bl-window-actions.c
 *
 * The window's actions: open (GtkFileChooserNative on GTK 4.8, GtkFileDialog
 * where the build has 4.10), open recent, close tab, search, reset zoom and
 * export (folded, speedscope, CSV, and the flame graph as SVG or PNG), copy
 * image. _bl_window_update_actions() is the one place that enables them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-window-actions"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "bl-flame-svg.h"
#include "bl-folded.h"

#include "bl-alert.h"
#include "bl-window-compare.h"
#include "bl-window-private.h"

#if defined(__has_include)
# if __has_include ("bl-speedscope-writer.h")
#  include "bl-speedscope-writer.h"
#  define HAVE_SPEEDSCOPE_WRITER 1
# endif
#endif

#define MAX_RECENT 10

typedef enum
{
  EXPORT_FOLDED,
  EXPORT_SPEEDSCOPE,
  EXPORT_CSV,
  EXPORT_SVG,
  EXPORT_PNG,
} ExportFormat;

static void
add_filters (GListStore *store)
{
  static const char * const patterns[] = {
    "*.bsprof", "*.json", "*.folded", "*.txt", "*.out", "*.prof",
    "*.heapsnapshot",
  };
  /* every format is also read gzip-, zstd- or xz-compressed */
  static const char * const compressed[] = { "", ".gz", ".zst", ".xz" };
  GtkFileFilter *filter;

  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("Profiles and Sessions"));
  for (guint i = 0; i < G_N_ELEMENTS (patterns); i++)
    for (guint j = 0; j < G_N_ELEMENTS (compressed); j++)
      {
        g_autofree char *pattern = g_strconcat (patterns[i], compressed[j], NULL);

        gtk_file_filter_add_pattern (filter, pattern);
      }
  gtk_file_filter_add_mime_type (filter, "application/x-bsprof");
  /* a recording's manifest, recording.json */
  gtk_file_filter_add_mime_type (filter, "application/x-brightlens-recording+json");
  g_list_store_append (store, filter);
  g_object_unref (filter);

  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("All Files"));
  gtk_file_filter_add_pattern (filter, "*");
  g_list_store_append (store, filter);
  g_object_unref (filter);
}

/* ------------------------------------------------------------------------ */
/* open                                                                      */

#if GTK_CHECK_VERSION (4, 10, 0)

static void
open_dialog_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(BlWindow) self = user_data;
  g_autoptr(GListModel) files = NULL;

  files = gtk_file_dialog_open_multiple_finish (GTK_FILE_DIALOG (source), result, NULL);
  if (files == NULL)
    return;

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr(GFile) file = g_list_model_get_item (files, i);

      bl_window_open_file (self, file);
    }
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  BlWindow *self = BL_WINDOW (widget);
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);

  add_filters (filters);
  gtk_file_dialog_set_title (dialog, _("Open Profiles"));
  gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
  gtk_file_dialog_open_multiple (dialog, GTK_WINDOW (self), NULL,
                                 open_dialog_cb, g_object_ref (self));
}

#else

static void
open_response_cb (BlWindow             *self,
                  int                   response,
                  GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));

      for (guint i = 0; i < g_list_model_get_n_items (files); i++)
        {
          g_autoptr(GFile) file = g_list_model_get_item (files, i);

          bl_window_open_file (self, file);
        }
    }

  if (self->chooser == chooser)
    g_clear_object (&self->chooser);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  BlWindow *self = BL_WINDOW (widget);
  g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  /* the chooser lives until "response": we hold the only reference */
  self->chooser = gtk_file_chooser_native_new (_("Open Profiles"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN,
                                               _("_Open"), _("_Cancel"));
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (self->chooser), TRUE);
  add_filters (filters);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (filters)); i++)
    {
      g_autoptr(GtkFileFilter) filter = g_list_model_get_item (G_LIST_MODEL (filters), i);

      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
    }
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (open_response_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

#endif

static void
open_recent_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));

  bl_window_open_file (BL_WINDOW (widget), file);
}

/* ------------------------------------------------------------------------ */
/* tabs, search, zoom                                                        */

static void
close_tab_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  BlWindow *self = BL_WINDOW (widget);
  AdwTabPage *tab = adw_tab_view_get_selected_page (self->tab_view);

  if (tab != NULL)
    adw_tab_view_close_page (self->tab_view, tab);
  else
    gtk_window_close (GTK_WINDOW (self));
}

static BlProfileView *
current_view (BlWindow *self)
{
  BlProfilePage *page = bl_window_get_current_page (self);

  if (page == NULL || bl_profile_page_get_profile (page) == NULL)
    return NULL;

  return bl_profile_page_get_profile_view (page);
}

/* The current tab's session, if it shows one. */
static BlSession *
current_session (BlWindow *self)
{
  BlProfilePage *page = bl_window_get_current_page (self);
  GObject *document = page != NULL ? bl_profile_page_get_document (page) : NULL;

  return document != NULL && BL_IS_SESSION (document) ? BL_SESSION (document) : NULL;
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  BlProfileView *view = current_view (BL_WINDOW (widget));
  BlCompareView *compare = _bl_window_compare_get_view (BL_WINDOW (widget));
  BlProfilePage *page = bl_window_get_current_page (BL_WINDOW (widget));

  /* on the Heap page, Ctrl+F filters the types */
  if (view != NULL && bl_profile_page_is_showing_heap (page))
    bl_heap_view_focus_filter (bl_profile_page_get_heap_view (page));
  else if (view != NULL)
    bl_profile_view_focus_search (view);
  else if (compare != NULL)
    bl_compare_view_focus_search (compare);
}

static void
reset_zoom_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  BlProfileView *view = current_view (BL_WINDOW (widget));
  BlCompareView *compare = _bl_window_compare_get_view (BL_WINDOW (widget));

  if (view != NULL)
    bl_profile_view_reset_zoom (view);
  else if (compare != NULL)
    bl_compare_view_reset_zoom (compare);
}

/* ------------------------------------------------------------------------ */
/* export                                                                    */

typedef struct
{
  BlProfile    *profile;
  BlSession    *session;
  BlMetricId    metric;
  GFile        *file;
  ExportFormat  format;
  char         *thread;   /* SVG: the flame graph's thread, NULL for all */
  GBytes       *png;      /* PNG: rendered on the main thread */
} ExportJob;

static void
export_job_free (gpointer data)
{
  ExportJob *job = data;

  g_clear_object (&job->profile);
  g_clear_object (&job->session);
  g_clear_object (&job->file);
  g_free (job->thread);
  g_clear_pointer (&job->png, g_bytes_unref);
  g_free (job);
}

static void
export_worker (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ExportJob *job = task_data;
  g_autoptr(GFileOutputStream) out = NULL;
  g_autoptr(GFile) parent = g_file_get_parent (job->file);
  g_autoptr(GFile) tmp = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *base = g_file_get_basename (job->file);
  gboolean ok = FALSE;

  /* a temporary file beside the destination, renamed over it only when
   * complete: a failed export leaves the destination as it was, and a new
   * destination never half written */
  for (guint attempt = 0; out == NULL && attempt < 100; attempt++)
    {
      g_autofree char *name = g_strdup_printf (".%s.%08x.tmp", base, g_random_int ());

      g_clear_object (&tmp);
      g_clear_error (&error);
      tmp = parent != NULL ? g_file_get_child (parent, name) : g_file_new_for_path (name);
      out = g_file_create (tmp, G_FILE_CREATE_NONE, cancellable, &error);
      if (out == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS))
        break;
    }
  if (out == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  switch (job->format)
    {
    case EXPORT_CSV:
      ok = bl_session_write_csv (job->session, G_OUTPUT_STREAM (out), cancellable, &error);
      break;
    case EXPORT_SVG:
      {
        /* the same writer as `brightlens-cli export --format svg` */
        BlFlameSvgOptions options = { job->metric, job->thread, 0, NULL, 0, FALSE };

        ok = bl_flame_svg_write_profile (job->profile, &options, G_OUTPUT_STREAM (out), NULL,
                                         cancellable, &error);
      }
      break;
    case EXPORT_PNG:
      ok = g_output_stream_write_all (G_OUTPUT_STREAM (out), g_bytes_get_data (job->png, NULL),
                                      g_bytes_get_size (job->png), NULL, cancellable, &error);
      break;
    case EXPORT_SPEEDSCOPE:
#ifdef HAVE_SPEEDSCOPE_WRITER
      ok = bl_speedscope_write (job->profile, G_OUTPUT_STREAM (out), cancellable, &error);
      break;
#endif
    case EXPORT_FOLDED:
    default:
      ok = bl_folded_write (job->profile, job->metric, G_OUTPUT_STREAM (out), cancellable, &error);
      break;
    }

  if (ok)
    ok = g_output_stream_close (G_OUTPUT_STREAM (out), cancellable, &error);
  else
    g_output_stream_close (G_OUTPUT_STREAM (out), NULL, NULL);
  if (ok)
    ok = g_file_move (tmp, job->file, G_FILE_COPY_OVERWRITE | G_FILE_COPY_NO_FALLBACK_FOR_MOVE,
                      cancellable, NULL, NULL, &error);
  if (!ok)
    {
      g_file_delete (tmp, NULL, NULL);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

static void
export_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  BlWindow *self = BL_WINDOW (source);
  ExportJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      GObject *alert = bl_alert_new (_("Could Not Export"), error->message);

      bl_alert_add_response (alert, "close", _("_Close"));
      bl_alert_present (alert, GTK_WINDOW (self));
      return;
    }

  {
    g_autofree char *name = g_file_get_basename (job->file);
    /* Translators: %s is a file name */
    g_autofree char *text = g_strdup_printf (_("Exported to “%s”"), name);

    adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (text));
  }
}

/* The current flame graph as drawn, at the widget's size times its scale
 * factor (so at least the widget's size). */
static GdkTexture *
render_flame_graph (BlWindow *self)
{
  BlProfileView *view = current_view (self);
  BlFlameGraph *graph = view != NULL ? bl_profile_view_get_flame_graph (view) : NULL;

  if (graph == NULL)
    return NULL;

  return bl_flame_graph_render_texture (graph,
                                        MAX (1, gtk_widget_get_scale_factor (GTK_WIDGET (graph))));
}

static void
show_export_error (BlWindow   *self,
                   const char *message)
{
  GObject *alert = bl_alert_new (_("Could Not Export"), message);

  bl_alert_add_response (alert, "close", _("_Close"));
  bl_alert_present (alert, GTK_WINDOW (self));
}

static void
start_export (BlWindow     *self,
              GFile        *file,
              ExportFormat  format)
{
  BlProfileView *view = current_view (self);
  BlSession *session = current_session (self);
  g_autoptr(GTask) task = NULL;
  ExportJob *job;

  if (view == NULL && session == NULL)
    return;

  job = g_new0 (ExportJob, 1);
  job->file = g_object_ref (file);
  if (session != NULL)
    {
      /* the same CSV as `brightlens-cli export SESSION --format csv` */
      job->session = g_object_ref (session);
      job->format = EXPORT_CSV;
    }
  else
    {
      job->profile = g_object_ref (bl_profile_view_get_profile (view));
      job->metric = bl_profile_view_get_metric (view);
      job->format = format == EXPORT_CSV ? EXPORT_FOLDED : format;
#ifndef HAVE_SPEEDSCOPE_WRITER
      if (job->format == EXPORT_SPEEDSCOPE)
        job->format = EXPORT_FOLDED;
#endif
    }

  if (job->format == EXPORT_SVG)
    {
      BlFlameGraph *graph = bl_profile_view_get_flame_graph (view);
      guint thread = bl_flame_graph_get_thread (graph);

      job->metric = bl_flame_graph_get_metric (graph);
      if (thread < bl_profile_get_n_threads (job->profile))
        job->thread = g_strdup (bl_profile_get_thread_name (job->profile, thread));
    }
  else if (job->format == EXPORT_PNG)
    {
      g_autoptr(GdkTexture) texture = render_flame_graph (self);

      if (texture == NULL)
        {
          export_job_free (job);
          show_export_error (self, _("The flame graph is not on screen; show it, then export "
                                     "again."));
          return;
        }
      job->png = gdk_texture_save_to_png_bytes (texture);
    }

  task = g_task_new (self, NULL, export_done_cb, NULL);
  g_task_set_source_tag (task, start_export);
  g_task_set_task_data (task, job, export_job_free);
  g_task_run_in_thread (task, export_worker);
}

void
_bl_window_export_to (BlWindow   *self,
                      GFile      *file,
                      const char *format)
{
  g_return_if_fail (BL_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  start_export (self, file,
                g_strcmp0 (format, "speedscope") == 0 ? EXPORT_SPEEDSCOPE
                : g_strcmp0 (format, "svg") == 0 ? EXPORT_SVG
                : g_strcmp0 (format, "png") == 0 ? EXPORT_PNG
                : EXPORT_FOLDED);
}

static GtkFileFilter *
csv_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("CSV"));
  gtk_file_filter_add_mime_type (filter, "text/csv");
  gtk_file_filter_add_pattern (filter, "*.csv");

  return filter;
}

static GtkFileFilter *
folded_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Folded Stacks"));
  gtk_file_filter_add_pattern (filter, "*.folded");
  gtk_file_filter_add_pattern (filter, "*.txt");

  return filter;
}

static GtkFileFilter *
svg_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Flame Graph as SVG"));
  gtk_file_filter_add_mime_type (filter, "image/svg+xml");
  gtk_file_filter_add_pattern (filter, "*.svg");

  return filter;
}

static GtkFileFilter *
png_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Flame Graph as PNG"));
  gtk_file_filter_add_mime_type (filter, "image/png");
  gtk_file_filter_add_pattern (filter, "*.png");

  return filter;
}

#ifdef HAVE_SPEEDSCOPE_WRITER
static GtkFileFilter *
speedscope_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("speedscope"));
  gtk_file_filter_add_pattern (filter, "*.json");

  return filter;
}
#endif

static char *
suggested_name (BlWindow *self)
{
  BlProfilePage *page = bl_window_get_current_page (self);
  g_autofree char *base = g_strdup (bl_profile_page_get_title (page));
  char *dot = strrchr (base, '.');

  if (dot != NULL && dot != base)
    *dot = '\0';

  return g_strconcat (base, current_session (self) != NULL ? ".csv" : ".folded", NULL);
}

#if GTK_CHECK_VERSION (4, 10, 0)

/* GtkFileDialog does not tell which filter was chosen, so the format is chosen
 * first and the dialog offers only that format's filter. */

/* "run.folded" → "run.svg" */
static char *
rename_suggestion (const char *name,
                   const char *suffix)
{
  g_autofree char *base = g_strndup (name, strlen (name) - strlen (".folded"));

  return g_strconcat (base, suffix, NULL);
}

static void
export_dialog_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(BlWindow) self = user_data;
  g_autoptr(GFile) file = gtk_file_dialog_save_finish (GTK_FILE_DIALOG (source), result, NULL);
  ExportFormat format = GPOINTER_TO_INT (g_object_get_data (source, "bl-export-format"));

  if (file != NULL)
    start_export (self, file, format);
}

static void
export_as (BlWindow     *self,
           ExportFormat  format)
{
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) filter = NULL;
  g_autofree char *name = suggested_name (self);

  if (format == EXPORT_CSV)
    filter = csv_filter ();
#ifdef HAVE_SPEEDSCOPE_WRITER
  if (format == EXPORT_SPEEDSCOPE)
    {
      /* suggested_name() ends in ".folded" */
      g_autofree char *base = g_strndup (name, strlen (name) - strlen (".folded"));

      filter = speedscope_filter ();
      g_free (name);
      name = g_strconcat (base, ".speedscope.json", NULL);
    }
#endif
  if (format == EXPORT_SVG || format == EXPORT_PNG)
    {
      g_autofree char *image = rename_suggestion (name, format == EXPORT_SVG ? ".svg" : ".png");

      filter = format == EXPORT_SVG ? svg_filter () : png_filter ();
      g_free (name);
      name = g_steal_pointer (&image);
    }
  if (filter == NULL)
    filter = folded_filter ();

  g_list_store_append (filters, filter);
  gtk_file_dialog_set_title (dialog, format == EXPORT_CSV ? _("Export Session")
                                                        : _("Export Profile"));
  gtk_file_dialog_set_accept_label (dialog, _("_Export"));
  gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
  gtk_file_dialog_set_default_filter (dialog, filter);
  gtk_file_dialog_set_initial_name (dialog, name);
  g_object_set_data (G_OBJECT (dialog), "bl-export-format", GINT_TO_POINTER (format));
  gtk_file_dialog_save (dialog, GTK_WINDOW (self), NULL, export_dialog_cb, g_object_ref (self));
}

#ifdef HAVE_SPEEDSCOPE_WRITER
static void
export_format_cb (GObject    *alert,
                  const char *response,
                  BlWindow   *self)
{
  if (g_str_equal (response, "folded"))
    export_as (self, EXPORT_FOLDED);
  else if (g_str_equal (response, "speedscope"))
    export_as (self, EXPORT_SPEEDSCOPE);
  else if (g_str_equal (response, "svg"))
    export_as (self, EXPORT_SVG);
  else if (g_str_equal (response, "png"))
    export_as (self, EXPORT_PNG);
}
#endif

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  BlWindow *self = BL_WINDOW (widget);
#ifdef HAVE_SPEEDSCOPE_WRITER
  GObject *alert;

  /* a session exports one format only: CSV */
  if (current_session (self) != NULL)
    {
      export_as (self, EXPORT_CSV);
      return;
    }

  alert = bl_alert_new (_("Export Profile"),
                                 _("Folded stacks open in flamegraph.pl and inferno; "
                                   "speedscope files open in speedscope. The flame graph "
                                   "exports as an SVG to open in a browser (zoom, search, "
                                   "tooltips) or as a PNG of what it shows now."));

  bl_alert_add_response (alert, "cancel", _("_Cancel"));
  bl_alert_add_response (alert, "png", _("P_NG Image"));
  bl_alert_add_response (alert, "svg", _("S_VG Image"));
  bl_alert_add_response (alert, "speedscope", _("_speedscope"));
  bl_alert_add_response (alert, "folded", _("_Folded Stacks"));
  bl_alert_set_suggested (alert, "folded");
  bl_alert_set_close_response (alert, "cancel");
  g_signal_connect_object (alert, "response", G_CALLBACK (export_format_cb), self, 0);
  bl_alert_present (alert, GTK_WINDOW (self));
#else
  export_as (self, current_session (self) != NULL ? EXPORT_CSV : EXPORT_FOLDED);
#endif
}

#else

static void
export_response_cb (BlWindow             *self,
                    int                   response,
                    GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      GtkFileFilter *filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (chooser));
      g_autofree char *name = file != NULL ? g_file_get_basename (file) : NULL;
      const char *filter_name = filter != NULL ? gtk_file_filter_get_name (filter) : NULL;
      gboolean speedscope = g_strcmp0 (filter_name, _("speedscope")) == 0 ||
                            (name != NULL && g_str_has_suffix (name, ".json"));
      gboolean svg = g_strcmp0 (filter_name, _("Flame Graph as SVG")) == 0 ||
                     (name != NULL && g_str_has_suffix (name, ".svg"));
      gboolean png = g_strcmp0 (filter_name, _("Flame Graph as PNG")) == 0 ||
                     (name != NULL && g_str_has_suffix (name, ".png"));

      /* a session tab always exports CSV (start_export) */
      if (file != NULL)
        start_export (self, file,
                      svg ? EXPORT_SVG : png ? EXPORT_PNG
                      : speedscope ? EXPORT_SPEEDSCOPE : EXPORT_FOLDED);
    }

  if (self->chooser == chooser)
    g_clear_object (&self->chooser);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  BlWindow *self = BL_WINDOW (widget);
  g_autoptr(GtkFileFilter) folded = folded_filter ();
  g_autofree char *name = suggested_name (self);
  gboolean session = current_session (self) != NULL;

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  self->chooser = gtk_file_chooser_native_new (session ? _("Export Session")
                                                       : _("Export Profile"),
                                               GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Export"), _("_Cancel"));
  if (session)
    {
      g_autoptr(GtkFileFilter) csv = csv_filter ();

      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), csv);
    }
  else
    gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), folded);
#ifdef HAVE_SPEEDSCOPE_WRITER
  if (!session)
    {
      g_autoptr(GtkFileFilter) speedscope = speedscope_filter ();

      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), speedscope);
    }
#endif
  if (!session)
    {
      g_autoptr(GtkFileFilter) svg = svg_filter ();
      g_autoptr(GtkFileFilter) png = png_filter ();

      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), svg);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), png);
    }
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (export_response_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

#endif

/* ------------------------------------------------------------------------ */
/* recent files                                                              */

static int
compare_recent (gconstpointer a,
                gconstpointer b)
{
  GtkRecentInfo *ia = *(GtkRecentInfo **) a;
  GtkRecentInfo *ib = *(GtkRecentInfo **) b;

  return g_date_time_compare (gtk_recent_info_get_modified (ib), gtk_recent_info_get_modified (ia));
}

/* A failed tab shows an error icon in the tab bar, its message as tooltip. */
void
_bl_window_set_tab_failed (AdwTabPage *tab,
                           gboolean    failed,
                           const char *message)
{
  g_autoptr(GIcon) icon = failed ? g_themed_icon_new ("dialog-error-symbolic") : NULL;

  adw_tab_page_set_indicator_icon (tab, icon);
  adw_tab_page_set_indicator_tooltip (tab, failed && message != NULL ? message : "");
  adw_tab_page_set_tooltip (tab, message);
}

/* The labels of the recent files: the file name, and where two share a
 * name, the folder too ("profile.bsprof — ~/Downloads"). */
char **
_bl_window_dup_recent_labels (const char * const *uris)
{
  g_autoptr(GStrvBuilder) labels = g_strv_builder_new ();
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; uris[i] != NULL; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_uri (uris[i]);

      g_ptr_array_add (names, g_file_get_basename (file));
    }

  for (guint i = 0; uris[i] != NULL; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      gboolean shared = FALSE;

      for (guint k = 0; uris[k] != NULL && !shared; k++)
        shared = k != i && g_strcmp0 (name, g_ptr_array_index (names, k)) == 0;

      if (shared)
        {
          g_autoptr(GFile) file = g_file_new_for_uri (uris[i]);
          g_autoptr(GFile) parent = g_file_get_parent (file);
          g_autofree char *folder = parent ? g_file_get_path (parent) : NULL;
          const char *home = g_get_home_dir ();
          g_autofree char *shown = NULL;
          g_autofree char *label = NULL;

          if (folder == NULL && parent != NULL)
            folder = g_file_get_parse_name (parent);
          if (folder != NULL && home != NULL && g_str_has_prefix (folder, home) &&
              (folder[strlen (home)] == '/' || folder[strlen (home)] == '\0'))
            shown = g_strconcat ("~", folder + strlen (home), NULL);
          else
            shown = g_strdup (folder ? folder : "");

          /* Translators: a recent file whose name another one shares: the
           * name, then its folder */
          label = g_strdup_printf (_("%s — %s"), name, shown);
          g_strv_builder_add (labels, label);
        }
      else
        g_strv_builder_add (labels, name);
    }

  return g_strv_builder_end (labels);
}

void
_bl_window_update_recent (BlWindow *self)
{
  g_auto(GStrv) labels = NULL;
  g_autoptr(GStrvBuilder) uris = g_strv_builder_new ();
  g_auto(GStrv) uri_list = NULL;
  GList *items;
  g_autoptr(GPtrArray) ours =
    g_ptr_array_new_with_free_func ((GDestroyNotify) gtk_recent_info_unref);
  const char *app_name = g_get_application_name ();

  g_menu_remove_all (self->recent_menu);

  items = gtk_recent_manager_get_items (self->recent_manager);
  for (GList *l = items; l != NULL; l = l->next)
    {
      GtkRecentInfo *info = l->data;

      if (app_name != NULL && gtk_recent_info_has_application (info, app_name) &&
          gtk_recent_info_exists (info))
        g_ptr_array_add (ours, gtk_recent_info_ref (info));
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);

  g_ptr_array_sort (ours, compare_recent);

  for (guint i = 0; i < ours->len && i < MAX_RECENT; i++)
    g_strv_builder_add (uris, gtk_recent_info_get_uri (g_ptr_array_index (ours, i)));
  uri_list = g_strv_builder_end (uris);
  labels = _bl_window_dup_recent_labels ((const char * const *) uri_list);

  for (guint i = 0; i < ours->len && i < MAX_RECENT; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (ours, i);
      g_autoptr(GMenuItem) item = g_menu_item_new (labels[i], NULL);

      g_menu_item_set_action_and_target (item, "win.open-recent", "s",
                                         gtk_recent_info_get_uri (info));
      g_menu_append_item (self->recent_menu, item);
    }

  if (ours->len == 0)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("No Recent Files"), "win.no-recent");

      g_menu_append_item (self->recent_menu, item);
    }
}

void
_bl_window_add_recent (BlWindow *self,
                       GFile    *file)
{
  g_autofree char *uri = g_file_get_uri (file);

  if (self->recent_manager != NULL && g_file_query_exists (file, NULL))
    gtk_recent_manager_add_item (self->recent_manager, uri);
}

/* ------------------------------------------------------------------------ */
/* copy image                                                                */

/* The current flame graph, as drawn, on the clipboard as an image. */
static void
copy_image_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  BlWindow *self = BL_WINDOW (widget);
  g_autoptr(GdkTexture) texture = render_flame_graph (self);

  if (texture == NULL)
    return;

  gdk_clipboard_set_texture (gtk_widget_get_clipboard (widget), texture);
  adw_toast_overlay_add_toast (self->toast_overlay,
                               adw_toast_new (_("Flame graph copied as an image")));
}

/* ------------------------------------------------------------------------ */

void
_bl_window_update_actions (BlWindow *self)
{
  BlProfileView *view = current_view (self);
  gboolean compare = _bl_window_compare_get_view (self) != NULL;
  gboolean has_pages = adw_tab_view_get_n_pages (self->tab_view) > 0;
  BlProfile *profile = view != NULL ? bl_profile_page_get_profile (bl_window_get_current_page (self))
                                     : NULL;
  /* heap graphs alone (a trace without slices) have no call stacks: every
   * export and the flame graph image would be empty */
  gboolean stacks = profile != NULL &&
                    !(bl_profile_get_n_threads (profile) == 0 && bl_profile_get_n_heaps (profile) > 0);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.close-tab", has_pages);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.search", view != NULL || compare);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.reset-zoom", view != NULL || compare);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export",
                                 stacks || current_session (self) != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.copy-image", stacks);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.no-recent", FALSE);
}

static void
no_recent_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
}

void
_bl_window_class_actions_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.no-recent", NULL, no_recent_action);
  gtk_widget_class_install_action (widget_class, "win.close-tab", NULL, close_tab_action);
  gtk_widget_class_install_action (widget_class, "win.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "win.reset-zoom", NULL, reset_zoom_action);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.copy-image", NULL, copy_image_action);

  /* Home and Escape reach the window only when the focused widget (a search
   * entry, a table) did not use them */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "win.reset-zoom", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.reset-zoom", NULL);
}

void
_bl_window_actions_init (BlWindow *self)
{
  _bl_window_update_actions (self);
}
