/* bl-preferences-window.c
 *
 * Every row is bound to a key of io.github.brightlens.Brightlens, so a change applies at once
 * and there is nothing to save. The colour scheme reaches AdwStyleManager through
 * bl_preferences_bind_color_scheme(), which the application calls at start-up.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-preferences"

#include "config.h"

#include <glib/gi18n.h>

#include "bl-metric.h"

#include "bl-preferences-window.h"

struct _BlPreferencesWindow
{
#if ADW_CHECK_VERSION (1, 5, 0)
  AdwPreferencesDialog  parent_instance;
#else
  AdwPreferencesWindow  parent_instance;
#endif

  GSettings            *settings;

  AdwComboRow          *color_scheme_row;
  AdwComboRow          *default_metric_row;
  AdwComboRow          *flame_orientation_row;
  AdwComboRow          *flame_palette_row;
  GtkListBox           *source_folders_list;
};

#if ADW_CHECK_VERSION (1, 5, 0)
G_DEFINE_FINAL_TYPE (BlPreferencesWindow, bl_preferences_window, ADW_TYPE_PREFERENCES_DIALOG)
#else
G_DEFINE_FINAL_TYPE (BlPreferencesWindow, bl_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)
#endif

/* The order of these matches the items of the combo rows in bl-preferences-window.ui. */
static const char * const color_scheme_values[] = { "default", "light", "dark", NULL };
static const char * const orientation_values[] = { "bottom-up", "top-down", NULL };
static const char * const palette_values[] = { "file", "module", "heat", NULL };

static gboolean
choice_get_mapping (GValue   *value,
                    GVariant *variant,
                    gpointer  user_data)
{
  const char * const *choices = user_data;
  const char *str = g_variant_get_string (variant, NULL);

  for (guint i = 0; choices[i] != NULL; i++)
    {
      if (g_strcmp0 (choices[i], str) == 0)
        {
          g_value_set_uint (value, i);
          return TRUE;
        }
    }

  return FALSE;
}

static GVariant *
choice_set_mapping (const GValue       *value,
                    const GVariantType *expected_type,
                    gpointer            user_data)
{
  const char * const *choices = user_data;
  guint selected = g_value_get_uint (value);

  if (selected >= g_strv_length ((char **) choices))
    return NULL;

  return g_variant_new_string (choices[selected]);
}

static void
bind_choice (BlPreferencesWindow *self,
             const char          *key,
             AdwComboRow         *row,
             char               **choices)
{
  g_settings_bind_with_mapping (self->settings, key,
                                row, "selected",
                                G_SETTINGS_BIND_DEFAULT,
                                choice_get_mapping,
                                choice_set_mapping,
                                choices,
                                (GDestroyNotify) g_strfreev);
}

static void
setup_metric_row (BlPreferencesWindow *self)
{
  g_autoptr(GtkStringList) model = gtk_string_list_new (NULL);
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();

  for (guint i = 0; i < BL_N_METRICS; i++)
    {
      const BlMetricInfo *info = bl_metric_get_info ((BlMetricId) i);

      gtk_string_list_append (model, _(info->display_name));
      g_strv_builder_add (names, info->name);
    }

  adw_combo_row_set_model (self->default_metric_row, G_LIST_MODEL (model));
  bind_choice (self, "default-metric", self->default_metric_row, g_strv_builder_end (names));
}

static void
forget_source_folder_cb (GtkButton           *button,
                         BlPreferencesWindow *self)
{
  const char *app_name = g_object_get_data (G_OBJECT (button), "bl-app-name");
  g_autoptr(GVariant) folders = g_settings_get_value (self->settings, "source-folders");
  g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a{ss}"));
  GVariantIter iter;
  const char *name;
  const char *path;

  g_variant_iter_init (&iter, folders);
  while (g_variant_iter_next (&iter, "{&s&s}", &name, &path))
    {
      if (g_strcmp0 (name, app_name) != 0)
        g_variant_builder_add (&builder, "{ss}", name, path);
    }

  g_settings_set_value (self->settings, "source-folders", g_variant_builder_end (&builder));
}

static GtkWidget *
create_source_folder_row (BlPreferencesWindow *self,
                          const char          *app_name,
                          const char          *path)
{
  g_autofree char *tooltip = NULL;
  GtkWidget *row;
  GtkWidget *button;

  row = adw_action_row_new ();
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), app_name);
  /* a folder chosen by portal is kept as a file:// URI: show its path */
  if (g_uri_peek_scheme (path) != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_uri (path);
      g_autofree char *shown = g_file_get_parse_name (file);

      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), shown);
    }
  else
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), path);

  button = gtk_button_new_from_icon_name ("user-trash-symbolic");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");
  /* Translators: tooltip of the button that removes an app's source folder; %s is the app */
  tooltip = g_strdup_printf (_("Forget the Source Folder of “%s”"), app_name);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip,
                                  -1);
  g_object_set_data_full (G_OBJECT (button), "bl-app-name", g_strdup (app_name), g_free);
  g_signal_connect_object (button, "clicked",
                           G_CALLBACK (forget_source_folder_cb), self, 0);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);

  return row;
}

static void
source_folders_changed_cb (BlPreferencesWindow *self)
{
  g_autoptr(GVariant) folders = g_settings_get_value (self->settings, "source-folders");
  GtkListBoxRow *row;
  GVariantIter iter;
  const char *name;
  const char *path;

  while ((row = gtk_list_box_get_row_at_index (self->source_folders_list, 0)) != NULL)
    gtk_list_box_remove (self->source_folders_list, GTK_WIDGET (row));

  g_variant_iter_init (&iter, folders);
  while (g_variant_iter_next (&iter, "{&s&s}", &name, &path))
    gtk_list_box_append (self->source_folders_list,
                         create_source_folder_row (self, name, path));
}

static void
bl_preferences_window_dispose (GObject *object)
{
  BlPreferencesWindow *self = (BlPreferencesWindow *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (bl_preferences_window_parent_class)->dispose (object);
}

static void
bl_preferences_window_class_init (BlPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE_PATH
                                               "/ui/bl-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, BlPreferencesWindow, color_scheme_row);
  gtk_widget_class_bind_template_child (widget_class, BlPreferencesWindow, default_metric_row);
  gtk_widget_class_bind_template_child (widget_class, BlPreferencesWindow,
                                        flame_orientation_row);
  gtk_widget_class_bind_template_child (widget_class, BlPreferencesWindow, flame_palette_row);
  gtk_widget_class_bind_template_child (widget_class, BlPreferencesWindow, source_folders_list);

#if !ADW_CHECK_VERSION (1, 5, 0)
  /* a dialog closes with Escape; a window also with Ctrl+W */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK,
                                       "window.close", NULL);
#endif
}

static void
bl_preferences_window_init (BlPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (BASE_ID);

  setup_metric_row (self);
  bind_choice (self, "flame-orientation", self->flame_orientation_row,
               g_strdupv ((char **) orientation_values));
  bind_choice (self, "flame-palette", self->flame_palette_row,
               g_strdupv ((char **) palette_values));
  bind_choice (self, "color-scheme", self->color_scheme_row,
               g_strdupv ((char **) color_scheme_values));

  g_signal_connect_object (self->settings, "changed::source-folders",
                           G_CALLBACK (source_folders_changed_cb), self, G_CONNECT_SWAPPED);
  source_folders_changed_cb (self);

#if DEVELOPMENT_BUILD
  gtk_widget_add_css_class (GTK_WIDGET (self), "devel");
#endif
}

#if !ADW_CHECK_VERSION (1, 5, 0)
/**
 * bl_preferences_window_new:
 * @parent: (nullable): the window the preferences are opened from
 *
 * Returns: (transfer none): a new preferences window, transient for @parent
 */
GtkWindow *
bl_preferences_window_new (GtkWindow *parent)
{
  g_return_val_if_fail (!parent || GTK_IS_WINDOW (parent), NULL);

  return g_object_new (BL_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       "modal", parent != NULL,
                       NULL);
}
#endif

/**
 * bl_preferences_show:
 * @parent: (nullable): the window the preferences are opened from
 *
 * Shows the preferences: a dialog inside @parent (libadwaita 1.5) or a window
 * transient for it.
 *
 * Returns: (transfer none): the preferences widget
 */
GtkWidget *
bl_preferences_show (GtkWindow *parent)
{
  GtkWidget *preferences;

  g_return_val_if_fail (!parent || GTK_IS_WINDOW (parent), NULL);

#if ADW_CHECK_VERSION (1, 5, 0)
  preferences = g_object_new (BL_TYPE_PREFERENCES_WINDOW, NULL);
  adw_dialog_present (ADW_DIALOG (preferences), parent != NULL ? GTK_WIDGET (parent) : NULL);
#else
  preferences = GTK_WIDGET (bl_preferences_window_new (parent));
  gtk_window_present (GTK_WINDOW (preferences));
#endif

  return preferences;
}

/**
 * bl_preferences_close:
 * @preferences: what bl_preferences_show() returned
 */
void
bl_preferences_close (GtkWidget *preferences)
{
  g_return_if_fail (BL_IS_PREFERENCES_WINDOW (preferences));

#if ADW_CHECK_VERSION (1, 5, 0)
  adw_dialog_force_close (ADW_DIALOG (preferences));
#else
  gtk_window_destroy (GTK_WINDOW (preferences));
#endif
}

static void
apply_color_scheme (GSettings *settings)
{
  g_autofree char *scheme = g_settings_get_string (settings, "color-scheme");
  AdwStyleManager *manager = adw_style_manager_get_default ();

  if (g_strcmp0 (scheme, "light") == 0)
    adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  else if (g_strcmp0 (scheme, "dark") == 0)
    adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  else
    adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
}

/**
 * bl_preferences_bind_color_scheme:
 * @settings: a #GSettings for io.github.brightlens.Brightlens that lives as long as the app
 *
 * Applies the "color-scheme" key to the default #AdwStyleManager now and whenever it changes.
 * "default" follows the system's light or dark preference. Call it once libadwaita is
 * initialised (in the application's startup).
 */
void
bl_preferences_bind_color_scheme (GSettings *settings)
{
  g_return_if_fail (G_IS_SETTINGS (settings));

  g_signal_connect (settings, "changed::color-scheme", G_CALLBACK (apply_color_scheme), NULL);
  apply_color_scheme (settings);
}
