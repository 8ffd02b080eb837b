/* bl-window.c
 *
 * The main window: an AdwTabView of BlProfilePages, an AdwStatusPage when
 * there is none, files dropped on it open as tabs. Its size is kept in
 * GSettings. Actions live in bl-window-actions.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-window"

#include "config.h"

#include <glib/gi18n.h>

#include "bl-window-compare.h"
#include "bl-window-private.h"
#include "bl-window-record.h"

G_DEFINE_FINAL_TYPE (BlWindow, bl_window, ADW_TYPE_APPLICATION_WINDOW)

static void
update_title (BlWindow *self)
{
  BlProfilePage *page = bl_window_get_current_page (self);

  if (page != NULL)
    {
      g_autofree char *path = g_file_get_path (bl_profile_page_get_file (page));

      adw_window_title_set_subtitle (self->window_title, bl_profile_page_get_title (page));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->window_title), path);
    }
  else
    {
      adw_window_title_set_subtitle (self->window_title, NULL);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->window_title), NULL);
    }
}

static void
update_view (BlWindow *self)
{
  gboolean has_pages = adw_tab_view_get_n_pages (self->tab_view) > 0;

  gtk_stack_set_visible_child_name (self->stack, has_pages ? "tabs" : "empty");
  update_title (self);
  _bl_window_update_actions (self);
}

static void
page_state_changed (BlWindow      *self,
                    GParamSpec    *pspec,
                    BlProfilePage *page)
{
  AdwTabPage *tab = adw_tab_view_get_page (self->tab_view, GTK_WIDGET (page));

  if (tab != NULL)
    {
      adw_tab_page_set_loading (tab, bl_profile_page_get_state (page) == BL_PROFILE_PAGE_LOADING);
      _bl_window_set_tab_failed (tab, bl_profile_page_get_state (page) == BL_PROFILE_PAGE_FAILED,
                                 bl_profile_page_get_error_message (page));
    }

  /* a file goes to the recent ones once it has opened: one that fails is
   * not offered again. (Added at the open, the recent manager wrote its
   * list about 250 ms later, on the main thread, often inside the first
   * frame of the profile.) */
  if (bl_profile_page_get_state (page) == BL_PROFILE_PAGE_LOADED)
    _bl_window_add_recent (self, bl_profile_page_get_file (page));

  _bl_window_update_actions (self);
}

static void
page_cancelled (BlWindow      *self,
                BlProfilePage *page)
{
  AdwTabPage *tab = adw_tab_view_get_page (self->tab_view, GTK_WIDGET (page));

  if (tab != NULL)
    adw_tab_view_close_page (self->tab_view, tab);
}

static gboolean
drop_cb (BlWindow      *self,
         const GValue  *value,
         double         x,
         double         y,
         GtkDropTarget *target)
{
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;

  files = g_value_get_boxed (value);
  if (_bl_window_compare_handle_drop (self, files))
    return TRUE;

  for (GSList *l = files; l != NULL; l = l->next)
    bl_window_open_file (self, l->data);

  return files != NULL;
}

/* Clamps a window size to @monitor's, or to the largest monitor's when
 * @monitor is NULL (before the window has a surface). */
static void
clamp_to_monitor (GdkMonitor *monitor,
                  int        *width,
                  int        *height)
{
  GListModel *monitors = gdk_display_get_monitors (gdk_display_get_default ());
  int max_width = 0, max_height = 0;

  if (monitor != NULL)
    {
      GdkRectangle geometry;

      gdk_monitor_get_geometry (monitor, &geometry);
      max_width = geometry.width;
      max_height = geometry.height;
    }
  else
    for (guint i = 0; i < g_list_model_get_n_items (monitors); i++)
      {
        g_autoptr(GdkMonitor) m = g_list_model_get_item (monitors, i);
        GdkRectangle geometry;

        gdk_monitor_get_geometry (m, &geometry);
        max_width = MAX (max_width, geometry.width);
        max_height = MAX (max_height, geometry.height);
      }

  /* no monitor known: keep the size */
  if (max_width > 0)
    *width = MIN (*width, max_width);
  if (max_height > 0)
    *height = MIN (*height, max_height);
}

static gboolean
bl_window_close_request (GtkWindow *window)
{
  BlWindow *self = BL_WINDOW (window);

  if (_bl_window_record_ask_close (self))
    return TRUE;

  if (self->settings != NULL)
    {
      GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));
      GdkMonitor *monitor = NULL;
      int width, height;

      gtk_window_get_default_size (window, &width, &height);
      if (surface != NULL)
        monitor = gdk_display_get_monitor_at_surface (gdk_surface_get_display (surface), surface);
      clamp_to_monitor (monitor, &width, &height);
      g_settings_delay (self->settings);
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
      g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
      g_settings_apply (self->settings);
    }

  return GTK_WINDOW_CLASS (bl_window_parent_class)->close_request (window);
}

static void
bl_window_dispose (GObject *object)
{
  BlWindow *self = (BlWindow *) object;

  if (self->recent_manager != NULL)
    g_signal_handlers_disconnect_by_func (self->recent_manager, _bl_window_update_recent, self);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_object (&self->settings);

  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_WINDOW);

  G_OBJECT_CLASS (bl_window_parent_class)->dispose (object);
}

static void
bl_window_class_init (BlWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = bl_window_dispose;
  window_class->close_request = bl_window_close_request;

  g_type_ensure (BL_TYPE_PROFILE_PAGE);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE_PATH "/ui/bl-window.ui");
  gtk_widget_class_bind_template_child (widget_class, BlWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, BlWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, BlWindow, tab_view);
  gtk_widget_class_bind_template_child (widget_class, BlWindow, tab_bar);
  gtk_widget_class_bind_template_child (widget_class, BlWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, BlWindow, empty_page);
  gtk_widget_class_bind_template_child (widget_class, BlWindow, primary_menu_button);
  gtk_widget_class_bind_template_child (widget_class, BlWindow, open_button);
  gtk_widget_class_bind_template_child (widget_class, BlWindow, recent_menu);

  _bl_window_class_actions_init (widget_class);
  _bl_window_class_compare_init (widget_class);
  _bl_window_class_record_init (widget_class);
}

/* libadwaita 1.4 and later: the header bar and the tab bar become top bars of an
 * AdwToolbarView. The template keeps the plain box that libadwaita 1.2 needs. */
static void
use_toolbar_view (BlWindow *self)
{
#if ADW_CHECK_VERSION (1, 4, 0)
  GtkWidget *box = adw_toast_overlay_get_child (self->toast_overlay);
  GtkWidget *toolbar = adw_toolbar_view_new ();
  GtkWidget *bars[2] = { gtk_widget_get_first_child (box), GTK_WIDGET (self->tab_bar) };

  g_assert (ADW_IS_HEADER_BAR (bars[0]));
  g_object_ref (box);
  adw_toast_overlay_set_child (self->toast_overlay, toolbar);
  for (guint i = 0; i < G_N_ELEMENTS (bars); i++)
    {
      if (gtk_widget_get_parent (bars[i]) != box)
        continue;
      g_object_ref (bars[i]);
      gtk_box_remove (GTK_BOX (box), bars[i]);
      adw_toolbar_view_add_top_bar (ADW_TOOLBAR_VIEW (toolbar), bars[i]);
      g_object_unref (bars[i]);
    }
  adw_toolbar_view_set_content (ADW_TOOLBAR_VIEW (toolbar), box);
  g_object_unref (box);
#endif
}

static void
bl_window_init (BlWindow *self)
{
  GtkDropTarget *target;
  GSettingsSchemaSource *source;
  g_autoptr(GSettingsSchema) schema = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  use_toolbar_view (self);

  source = g_settings_schema_source_get_default ();
  if (source != NULL && (schema = g_settings_schema_source_lookup (source, BASE_ID, TRUE)) != NULL)
    {
      int width, height;

      self->settings = g_settings_new (BASE_ID);
      width = g_settings_get_int (self->settings, "window-width");
      height = g_settings_get_int (self->settings, "window-height");
      /* a size saved on a bigger screen, or a bad one, is not restored as such */
      clamp_to_monitor (NULL, &width, &height);
      gtk_window_set_default_size (GTK_WINDOW (self), width, height);
      if (g_settings_get_boolean (self->settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
    }

#if DEVELOPMENT_BUILD
  gtk_widget_add_css_class (GTK_WIDGET (self), "devel");
#endif

  target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect_swapped (target, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (target));

  g_signal_connect_swapped (self->tab_view, "notify::selected-page",
                            G_CALLBACK (update_view), self);
  g_signal_connect_swapped (self->tab_view, "notify::n-pages", G_CALLBACK (update_view), self);

  self->recent_manager = gtk_recent_manager_get_default ();
  g_signal_connect_swapped (self->recent_manager, "changed",
                            G_CALLBACK (_bl_window_update_recent), self);

  _bl_window_actions_init (self);
  _bl_window_compare_init (self);
  _bl_window_record_init (self);
  _bl_window_update_recent (self);
  update_view (self);
}

BlWindow *
bl_window_new (GtkApplication *application)
{
  return g_object_new (BL_TYPE_WINDOW, "application", application, NULL);
}

/**
 * bl_window_open_file:
 *
 * Opens @file in a new tab and starts loading it, or selects the tab that
 * already shows it.
 *
 * Returns: (transfer none): the page
 */
BlProfilePage *
bl_window_open_file (BlWindow *self,
                     GFile    *file)
{
  BlProfilePage *page;
  AdwTabPage *tab;

  g_return_val_if_fail (BL_IS_WINDOW (self), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  for (guint i = 0; i < (guint) adw_tab_view_get_n_pages (self->tab_view); i++)
    {
      AdwTabPage *existing = adw_tab_view_get_nth_page (self->tab_view, i);
      BlProfilePage *p;

      if (!BL_IS_PROFILE_PAGE (adw_tab_page_get_child (existing)))
        continue;
      p = BL_PROFILE_PAGE (adw_tab_page_get_child (existing));

      if (g_file_equal (bl_profile_page_get_file (p), file) &&
          bl_profile_page_get_state (p) != BL_PROFILE_PAGE_FAILED)
        {
          adw_tab_view_set_selected_page (self->tab_view, existing);
          return p;
        }
    }

  page = bl_profile_page_new_loading (file);
  tab = adw_tab_view_append (self->tab_view, GTK_WIDGET (page));
  adw_tab_page_set_title (tab, bl_profile_page_get_title (page));
  adw_tab_page_set_loading (tab, TRUE);
  g_signal_connect_object (page, "notify::state", G_CALLBACK (page_state_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (page, "cancelled", G_CALLBACK (page_cancelled), self,
                           G_CONNECT_SWAPPED);
  adw_tab_view_set_selected_page (self->tab_view, tab);

  update_view (self);

  return page;
}

/**
 * bl_window_get_current_page:
 *
 * Returns: (transfer none) (nullable): the selected tab's page
 */
BlProfilePage *
bl_window_get_current_page (BlWindow *self)
{
  AdwTabPage *tab;

  g_return_val_if_fail (BL_IS_WINDOW (self), NULL);

  tab = adw_tab_view_get_selected_page (self->tab_view);
  if (tab == NULL)
    return NULL;

  if (!BL_IS_PROFILE_PAGE (adw_tab_page_get_child (tab)))
    return NULL;

  return BL_PROFILE_PAGE (adw_tab_page_get_child (tab));
}

AdwTabView *
bl_window_get_tab_view (BlWindow *self)
{
  g_return_val_if_fail (BL_IS_WINDOW (self), NULL);

  return self->tab_view;
}

guint
bl_window_get_n_pages (BlWindow *self)
{
  g_return_val_if_fail (BL_IS_WINDOW (self), 0);

  return adw_tab_view_get_n_pages (self->tab_view);
}
