/* bl-window-compare.c
 *
 * Comparing from the window: the Compare… action (with a tab open, it picks
 * the file to compare the tab with; otherwise two files), a file dropped on
 * an open tab (open it, or compare the tab with it), and the tabs that show
 * comparisons.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-window-compare"

#include "config.h"

#include <glib/gi18n.h>

#include "bl-recording.h"

#include "bl-window-compare.h"
#include "bl-alert.h"
#include "bl-window-private.h"

static BlComparePage *
current_compare_page (BlWindow *self)
{
  AdwTabPage *tab = adw_tab_view_get_selected_page (self->tab_view);
  GtkWidget *child = tab != NULL ? adw_tab_page_get_child (tab) : NULL;

  return BL_IS_COMPARE_PAGE (child) ? BL_COMPARE_PAGE (child) : NULL;
}

static void
update_title (BlWindow *self)
{
  BlComparePage *page = current_compare_page (self);

  if (page != NULL)
    adw_window_title_set_subtitle (self->window_title, bl_compare_page_get_title (page));
}

BlCompareView *
_bl_window_compare_get_view (BlWindow *self)
{
  BlComparePage *page = current_compare_page (self);
  BlDiff *diff = page != NULL ? bl_compare_page_get_diff (page) : NULL;

  if (diff == NULL || bl_diff_is_session (diff))
    return NULL;

  return bl_compare_page_get_view (page);
}

static void
page_state_changed (BlWindow      *self,
                    GParamSpec    *pspec,
                    BlComparePage *page)
{
  AdwTabPage *tab = adw_tab_view_get_page (self->tab_view, GTK_WIDGET (page));

  if (tab == NULL)
    return;

  adw_tab_page_set_loading (tab, bl_compare_page_get_state (page) == BL_PROFILE_PAGE_LOADING);
  _bl_window_set_tab_failed (tab, bl_compare_page_get_state (page) == BL_PROFILE_PAGE_FAILED,
                             bl_compare_page_get_error_message (page));
  _bl_window_update_actions (self);
}

static void
page_cancelled (BlWindow      *self,
                BlComparePage *page)
{
  AdwTabPage *tab = adw_tab_view_get_page (self->tab_view, GTK_WIDGET (page));

  if (tab != NULL)
    adw_tab_view_close_page (self->tab_view, tab);
}

/**
 * bl_window_compare_files:
 *
 * Returns: (transfer none): the new tab's page
 */
BlComparePage *
bl_window_compare_files (BlWindow *self,
                         GFile    *file_a,
                         GFile    *file_b,
                         GObject  *document_a)
{
  BlComparePage *page;
  AdwTabPage *tab;

  g_return_val_if_fail (BL_IS_WINDOW (self), NULL);
  g_return_val_if_fail (G_IS_FILE (file_a), NULL);
  g_return_val_if_fail (G_IS_FILE (file_b), NULL);

  page = bl_compare_page_new (file_a, file_b);
  if (document_a != NULL)
    bl_compare_page_set_document (page, BL_DIFF_SIDE_A, document_a);

  tab = adw_tab_view_append (self->tab_view, GTK_WIDGET (page));
  adw_tab_page_set_title (tab, bl_compare_page_get_title (page));
  adw_tab_page_set_loading (tab, TRUE);
  g_signal_connect_object (page, "notify::state", G_CALLBACK (page_state_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (page, "cancelled", G_CALLBACK (page_cancelled), self,
                           G_CONNECT_SWAPPED);
  adw_tab_view_set_selected_page (self->tab_view, tab);

  _bl_window_add_recent (self, file_b);
  bl_compare_page_load (page);
  page_state_changed (self, NULL, page);
  update_title (self);

  return page;
}

/* ---- Compare… ----------------------------------------------------------- */

typedef struct
{
  BlWindow *window;
  GFile    *file_a;
  GObject  *document_a;
  GPtrArray *transforms;   /* the tab's, applied to both sides; or NULL */
} CompareRequest;

static void
compare_request_free (gpointer data)
{
  CompareRequest *request = data;

  g_clear_object (&request->file_a);
  g_clear_object (&request->document_a);
  g_clear_pointer (&request->transforms, g_ptr_array_unref);
  g_free (request);
}

static void
compare_chosen (CompareRequest *request,
                GListModel     *files)
{
  BlWindow *self = request->window;
  guint n = g_list_model_get_n_items (files);

  if (request->file_a != NULL && n == 1)
    {
      g_autoptr(GFile) file_b = g_list_model_get_item (files, 0);

      BlComparePage *page = bl_window_compare_files (self, request->file_a, file_b,
                                                     request->document_a);

      bl_compare_page_set_transforms (page, request->transforms);
    }
  else if (request->file_a == NULL && n == 2)
    {
      g_autoptr(GFile) file_a = g_list_model_get_item (files, 0);
      g_autoptr(GFile) file_b = g_list_model_get_item (files, 1);

      bl_window_compare_files (self, file_a, file_b, NULL);
    }
  else
    adw_toast_overlay_add_toast (self->toast_overlay,
                                 adw_toast_new (_("Choose two files to compare.")));
}

static GListStore *
compare_filters (void)
{
  GListStore *filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  GtkFileFilter *filter;

  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("Profiles and Sessions"));
  gtk_file_filter_add_pattern (filter, "*.bsprof");
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_filter_add_pattern (filter, "*.folded");
  gtk_file_filter_add_pattern (filter, "*.txt");
  gtk_file_filter_add_pattern (filter, "*.out");
  gtk_file_filter_add_pattern (filter, "*.prof");
  g_list_store_append (filters, filter);
  g_object_unref (filter);
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("All Files"));
  gtk_file_filter_add_pattern (filter, "*");
  g_list_store_append (filters, filter);
  g_object_unref (filter);

  return filters;
}

#if GTK_CHECK_VERSION (4, 10, 0)

static void
compare_one_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  CompareRequest *request = user_data;
  g_autoptr(GFile) file = gtk_file_dialog_open_finish (GTK_FILE_DIALOG (source), result, NULL);

  if (file != NULL)
    {
      g_autoptr(GListStore) files = g_list_store_new (G_TYPE_FILE);

      g_list_store_append (files, file);
      compare_chosen (request, G_LIST_MODEL (files));
    }
  g_object_unref (request->window);
  compare_request_free (request);
}

static void
compare_two_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  CompareRequest *request = user_data;
  g_autoptr(GListModel) files = gtk_file_dialog_open_multiple_finish (GTK_FILE_DIALOG (source),
                                                                      result, NULL);

  if (files != NULL)
    compare_chosen (request, files);
  g_object_unref (request->window);
  compare_request_free (request);
}

static void
show_compare_chooser (BlWindow       *self,
                      CompareRequest *request,
                      const char     *title)
{
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  g_autoptr(GListStore) filters = compare_filters ();

  gtk_file_dialog_set_title (dialog, title);
  gtk_file_dialog_set_accept_label (dialog, _("_Compare"));
  gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
  /* the window outlives the dialog's callback */
  g_object_ref (self);
  if (request->file_a != NULL)
    gtk_file_dialog_open (dialog, GTK_WINDOW (self), NULL, compare_one_cb, request);
  else
    gtk_file_dialog_open_multiple (dialog, GTK_WINDOW (self), NULL, compare_two_cb, request);
}

#else

static void
compare_response_cb (GtkFileChooserNative *chooser,
                     int                   response,
                     CompareRequest       *request)
{
  BlWindow *self = request->window;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));

      compare_chosen (request, files);
    }

  if (self->chooser == chooser)
    g_clear_object (&self->chooser);
}

static void
show_compare_chooser (BlWindow       *self,
                      CompareRequest *request,
                      const char     *title)
{
  g_autoptr(GListStore) filters = compare_filters ();

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  /* the chooser lives until "response": the window holds the only reference */
  self->chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN,
                                               _("_Compare"), _("_Cancel"));
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (self->chooser), request->file_a == NULL);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (filters)); i++)
    {
      g_autoptr(GtkFileFilter) filter = g_list_model_get_item (G_LIST_MODEL (filters), i);

      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
    }

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect_data (self->chooser, "response", G_CALLBACK (compare_response_cb),
                         request, (GClosureNotify) (void (*) (void)) compare_request_free, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

#endif

static void
compare_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  BlWindow *self = BL_WINDOW (widget);
  BlProfilePage *page = bl_window_get_current_page (self);
  CompareRequest *request = g_new0 (CompareRequest, 1);
  g_autofree char *title = NULL;

  request->window = self;
  if (page != NULL && bl_profile_page_get_state (page) == BL_PROFILE_PAGE_LOADED)
    {
      request->file_a = g_object_ref (bl_profile_page_get_file (page));
      request->document_a = g_object_ref (bl_profile_page_get_document (page));
      if (bl_profile_page_get_profile (page) != NULL)
        {
          BlProfileView *view = bl_profile_page_get_profile_view (page);
          GPtrArray *shown = bl_profile_view_get_transforms (view);

          /* as they are now: the tab may change them while the chooser is open */
          request->transforms =
            g_ptr_array_new_with_free_func ((GDestroyNotify) bl_transform_unref);
          for (guint i = 0; i < shown->len; i++)
            g_ptr_array_add (request->transforms, bl_transform_ref (g_ptr_array_index (shown, i)));
        }
      /* Translators: a file chooser's title, %s is the open file */
      title = g_strdup_printf (_("Compare “%s” With"), bl_profile_page_get_title (page));
    }
  else
    title = g_strdup (_("Choose Two Files to Compare"));

  show_compare_chooser (self, request, title);
}

/* ---- a file dropped on an open tab -------------------------------------- */

typedef struct
{
  BlWindow      *window;
  BlProfilePage *page;
  GFile         *dropped;
} DropRequest;

static void
drop_request_free (gpointer data)
{
  DropRequest *request = data;

  g_clear_object (&request->window);
  g_clear_object (&request->page);
  g_clear_object (&request->dropped);
  g_free (request);
}

static void
drop_response_cb (GObject     *alert,
                  const char  *response,
                  DropRequest *request)
{
  if (g_str_equal (response, "open"))
    bl_window_open_file (request->window, request->dropped);
  else if (g_str_equal (response, "compare") &&
           bl_profile_page_get_state (request->page) == BL_PROFILE_PAGE_LOADED)
    {
      BlComparePage *page = bl_window_compare_files (request->window,
                                                     bl_profile_page_get_file (request->page),
                                                     request->dropped,
                                                     bl_profile_page_get_document (request->page));

      if (bl_profile_page_get_profile (request->page) != NULL)
        bl_compare_page_set_transforms (page, bl_profile_view_get_transforms (
                                          bl_profile_page_get_profile_view (request->page)));
    }
}

gboolean
_bl_window_compare_handle_drop (BlWindow *self,
                                GSList   *files)
{
  BlProfilePage *page = bl_window_get_current_page (self);
  GFile *dropped;
  g_autofree char *name = NULL;
  g_autofree char *body = NULL;
  GObject *alert;
  DropRequest *request;

  if (files == NULL || files->next != NULL || page == NULL ||
      bl_profile_page_get_state (page) != BL_PROFILE_PAGE_LOADED)
    return FALSE;

  dropped = files->data;
  if (g_file_equal (dropped, bl_profile_page_get_file (page)))
    return FALSE;
  /* a recording (its folder, or shown in the tab) is opened, not compared */
  if (BL_IS_RECORDING (bl_profile_page_get_document (page))
      || g_file_query_file_type (dropped, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_DIRECTORY)
    return FALSE;

  name = g_file_get_basename (dropped);
  /* Translators: both %s are file names */
  body = g_strdup_printf (_("Open “%s” in a new tab, or compare “%s” with it?"),
                          name, bl_profile_page_get_title (page));
  alert = bl_alert_new (_("Open or Compare?"), body);
  bl_alert_add_response (alert, "cancel", _("_Cancel"));
  bl_alert_add_response (alert, "open", _("_Open"));
  bl_alert_add_response (alert, "compare", _("_Compare with This"));
  bl_alert_set_suggested (alert, "compare");
  bl_alert_set_close_response (alert, "cancel");

  request = g_new0 (DropRequest, 1);
  request->window = g_object_ref (self);
  request->page = g_object_ref (page);
  request->dropped = g_object_ref (dropped);
  g_signal_connect_data (alert, "response", G_CALLBACK (drop_response_cb),
                         request, (GClosureNotify) (void (*) (void)) drop_request_free, 0);
  bl_alert_present (alert, GTK_WINDOW (self));

  return TRUE;
}

/* ---- hooks -------------------------------------------------------------- */

void
_bl_window_class_compare_init (GtkWidgetClass *widget_class)
{
  g_type_ensure (BL_TYPE_COMPARE_PAGE);
  gtk_widget_class_install_action (widget_class, "win.compare", NULL, compare_action);
}

void
_bl_window_compare_init (BlWindow *self)
{
  g_signal_connect_object (self->tab_view, "notify::selected-page",
                           G_CALLBACK (update_title), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->tab_view, "notify::n-pages",
                           G_CALLBACK (update_title), self, G_CONNECT_SWAPPED);
}
