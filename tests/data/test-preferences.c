/* test-preferences.c — the Preferences, About and shortcuts windows
 *
 * The preferences rows and the GSettings keys follow each other both ways, the colour scheme
 * reaches AdwStyleManager, a source folder can be forgotten; the About window carries the
 * version and the licence; the shortcuts window parses and lists the app's accelerators.
 * Runs on a display (Xvfb in the suite).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "bl-about.h"
#include "bl-application.h"
#include "bl-metric.h"
#include "bl-preferences-window.h"

static void
iterate_until_mapped (GtkWidget *widget)
{
  while (!gtk_widget_get_mapped (widget))
    g_main_context_iteration (NULL, TRUE);

  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
}

static void
flush (void)
{
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
}

static gpointer
template_child (GtkWidget  *window,
                const char *name)
{
  GObject *child = gtk_widget_get_template_child (window,
                                                  BL_TYPE_PREFERENCES_WINDOW, name);

  g_assert_nonnull (child);

  return child;
}

static void
test_choice_rows (void)
{
  g_autoptr(GSettings) settings = g_settings_new (BASE_ID);
  g_autofree char *value = NULL;
  GtkWidget *window;
  AdwComboRow *orientation;
  AdwComboRow *palette;
  AdwComboRow *metric;
  GListModel *metrics;

  g_settings_reset (settings, "flame-orientation");
  g_settings_reset (settings, "flame-palette");
  g_settings_reset (settings, "default-metric");

  window = bl_preferences_show (NULL);
  iterate_until_mapped (window);
#if ADW_CHECK_VERSION (1, 5, 0)
  g_assert_true (ADW_IS_PREFERENCES_DIALOG (window));
#else
  g_assert_true (ADW_IS_PREFERENCES_WINDOW (window));
#endif

  orientation = template_child (window, "flame_orientation_row");
  palette = template_child (window, "flame_palette_row");
  metric = template_child (window, "default_metric_row");

  /* the defaults show */
  g_assert_cmpuint (adw_combo_row_get_selected (orientation), ==, 0);   /* bottom-up */
  g_assert_cmpuint (adw_combo_row_get_selected (palette), ==, 0);       /* file */
  g_assert_cmpuint (adw_combo_row_get_selected (metric), ==, BL_METRIC_CPU);

  /* every metric is offered, in the metric table's order, by its display name */
  metrics = adw_combo_row_get_model (metric);
  g_assert_cmpuint (g_list_model_get_n_items (metrics), ==, BL_N_METRICS);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (metrics), BL_METRIC_WALL), ==,
                   bl_metric_get_info (BL_METRIC_WALL)->display_name);

  /* row → key */
  adw_combo_row_set_selected (orientation, 1);
  value = g_settings_get_string (settings, "flame-orientation");
  g_assert_cmpstr (value, ==, "top-down");
  g_clear_pointer (&value, g_free);

  adw_combo_row_set_selected (metric, BL_METRIC_ALLOC_BYTES);
  value = g_settings_get_string (settings, "default-metric");
  g_assert_cmpstr (value, ==, "alloc-bytes");
  g_clear_pointer (&value, g_free);

  /* key → row */
  g_settings_set_string (settings, "flame-palette", "heat");
  flush ();
  g_assert_cmpuint (adw_combo_row_get_selected (palette), ==, 2);

  g_settings_set_string (settings, "default-metric", "live-bytes");
  flush ();
  g_assert_cmpuint (adw_combo_row_get_selected (metric), ==, BL_METRIC_LIVE_BYTES);

  bl_preferences_close (window);
  flush ();
}

static void
test_color_scheme (void)
{
  g_autoptr(GSettings) settings = g_settings_new (BASE_ID);
  AdwStyleManager *manager = adw_style_manager_get_default ();
  g_autofree char *value = NULL;
  AdwComboRow *row;
  GtkWidget *window;

  g_settings_reset (settings, "color-scheme");
  bl_preferences_bind_color_scheme (settings);

  /* by default the system decides */
  g_assert_cmpint (adw_style_manager_get_color_scheme (manager), ==, ADW_COLOR_SCHEME_DEFAULT);

  g_settings_set_string (settings, "color-scheme", "dark");
  g_assert_cmpint (adw_style_manager_get_color_scheme (manager), ==,
                   ADW_COLOR_SCHEME_FORCE_DARK);
  g_assert_true (adw_style_manager_get_dark (manager));

  window = bl_preferences_show (NULL);
  iterate_until_mapped (window);
  row = template_child (window, "color_scheme_row");
  g_assert_cmpuint (adw_combo_row_get_selected (row), ==, 2);

  adw_combo_row_set_selected (row, 1);
  value = g_settings_get_string (settings, "color-scheme");
  g_assert_cmpstr (value, ==, "light");
  g_assert_cmpint (adw_style_manager_get_color_scheme (manager), ==,
                   ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_assert_false (adw_style_manager_get_dark (manager));

  adw_combo_row_set_selected (row, 0);
  g_assert_cmpint (adw_style_manager_get_color_scheme (manager), ==, ADW_COLOR_SCHEME_DEFAULT);

  bl_preferences_close (window);
  flush ();
}

static guint
count_rows (GtkListBox *list)
{
  guint n = 0;

  while (gtk_list_box_get_row_at_index (list, n) != NULL)
    n++;

  return n;
}

static GtkWidget *
find_button (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_BUTTON (child))
        return child;
      if ((found = find_button (child)) != NULL)
        return found;
    }

  return NULL;
}

static void
test_source_folders (void)
{
  g_autoptr(GSettings) settings = g_settings_new (BASE_ID);
  g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a{ss}"));
  g_autoptr(GVariant) left = NULL;
  g_autofree char *remaining_path = NULL;
  GtkListBox *list;
  GtkListBoxRow *row;
  GtkWidget *button;
  GtkWidget *window;

  g_settings_reset (settings, "source-folders");

  window = bl_preferences_show (NULL);
  iterate_until_mapped (window);
  list = template_child (window, "source_folders_list");
  g_assert_cmpuint (count_rows (list), ==, 0);

  /* names and paths with markup characters are shown as they are */
  g_variant_builder_add (&builder, "{ss}", "Cats & <Dogs>", "/home/dev/cats-and-dogs");
  g_variant_builder_add (&builder, "{ss}", "Weather", "/home/dev/weather-1.2.zip");
  g_settings_set_value (settings, "source-folders", g_variant_builder_end (&builder));
  flush ();
  g_assert_cmpuint (count_rows (list), ==, 2);

  row = gtk_list_box_get_row_at_index (list, 0);
  g_assert_true (ADW_IS_ACTION_ROW (row));
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==,
                   "Cats & <Dogs>");
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==,
                   "/home/dev/cats-and-dogs");

  /* its trash button forgets it */
  button = find_button (GTK_WIDGET (row));
  g_assert_nonnull (button);
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (button), "Cats & <Dogs>"));
  g_signal_emit_by_name (button, "clicked");
  flush ();

  left = g_settings_get_value (settings, "source-folders");
  g_assert_cmpuint (g_variant_n_children (left), ==, 1);
  g_assert_true (g_variant_lookup (left, "Weather", "s", &remaining_path));
  g_assert_cmpstr (remaining_path, ==, "/home/dev/weather-1.2.zip");
  g_assert_cmpuint (count_rows (list), ==, 1);

  bl_preferences_close (window);
  flush ();
}

static void
test_about (void)
{
  GObject *about = NULL;
  GtkIconTheme *theme;
  GtkWindow *parent;
  g_autofree char *version = NULL;
  g_autofree char *website = NULL;
  g_autofree char *issue_url = NULL;
  g_autofree char *icon = NULL;
  g_auto(GStrv) developers = NULL;
  GtkLicense license = GTK_LICENSE_UNKNOWN;

  parent = GTK_WINDOW (adw_window_new ());
  gtk_window_present (parent);
  iterate_until_mapped (GTK_WIDGET (parent));

  bl_show_about_window (parent);

#if ADW_CHECK_VERSION (1, 5, 0)
  /* an AdwAboutDialog inside the window */
  about = G_OBJECT (adw_window_get_visible_dialog (ADW_WINDOW (parent)));
  g_assert_true (ADW_IS_ABOUT_DIALOG (about));
  flush ();
#else
  {
    g_autoptr(GListModel) toplevels = g_object_ref (gtk_window_get_toplevels ());

    for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
      {
        g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

        if (ADW_IS_ABOUT_WINDOW (window))
          about = G_OBJECT (window);
      }
  }
  g_assert_nonnull (about);
  iterate_until_mapped (GTK_WIDGET (about));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (about)) == parent);
#endif

  g_object_get (about,
                "version", &version,
                "license-type", &license,
                "website", &website,
                "issue-url", &issue_url,
                "developers", &developers,
                "application-icon", &icon,
                NULL);
  g_assert_cmpstr (version, ==, PACKAGE_VERSION);
  g_assert_cmpint (license, ==, GTK_LICENSE_GPL_3_0);
  g_assert_cmpstr (website, ==, "https://github.com/brightlens/brightlens");
  g_assert_nonnull (issue_url);
  g_assert_nonnull (developers);
  g_assert_cmpstr (icon, ==, BASE_ID);
  /* the icon comes with the resources (GtkApplication adds their icons/ to the theme), so
   * an uninstalled build shows it */
  theme = gtk_icon_theme_get_for_display (gdk_display_get_default ());
  gtk_icon_theme_add_resource_path (theme, RESOURCE_BASE_PATH "/icons");
  g_assert_true (gtk_icon_theme_has_icon (theme, BASE_ID));

#if ADW_CHECK_VERSION (1, 5, 0)
  adw_dialog_force_close (ADW_DIALOG (about));
#else
  gtk_window_destroy (GTK_WINDOW (about));
#endif
  gtk_window_destroy (parent);
  flush ();
}

#if !ADW_CHECK_VERSION (1, 8, 0)
static void
collect_accels (GtkWidget *widget,
                GPtrArray *accels)
{
  if (GTK_IS_SHORTCUTS_SHORTCUT (widget))
    {
      g_autofree char *accel = NULL;
      g_autofree char *title = NULL;

      g_object_get (widget, "accelerator", &accel, "title", &title, NULL);
      g_assert_nonnull (title);
      g_assert_nonnull (accel);
      g_ptr_array_add (accels, g_steal_pointer (&accel));
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_accels (child, accels);
}
#endif

/* A BlApplication that has run its startup, so its accelerators are set. One
 * for the whole run: a second one could not take the first's object path on
 * the bus. */
static BlApplication *
started_application (void)
{
  static BlApplication *app;
  g_autoptr(GError) error = NULL;

  if (app != NULL)
    return g_object_ref (app);

  app = bl_application_new ();
  /* non-unique, so that no other instance on the bus takes our startup */
  g_application_set_flags (G_APPLICATION (app),
                           g_application_get_flags (G_APPLICATION (app)) |
                           G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  return g_object_ref (app);
}

static GdkRGBA
flame_color (GtkWidget *widget)
{
  GdkRGBA color = { 0 };

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  g_assert_true (gtk_style_context_lookup_color (gtk_widget_get_style_context (widget),
                                                 "bl_flame_0", &color));
  G_GNUC_END_IGNORE_DEPRECATIONS

  return color;
}

/* The flame palette follows the style: the application's dark variants
 * (palette-dark.css) are on exactly while the style is dark. */
static void
test_dark_palette (void)
{
  g_autoptr(BlApplication) app = started_application ();
  AdwStyleManager *manager = adw_style_manager_get_default ();
  GtkWidget *window = gtk_window_new ();
  GtkWidget *label = gtk_label_new ("x");
  GdkRGBA color;

  gtk_window_set_child (GTK_WINDOW (window), label);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  flush ();
  color = flame_color (label);
  g_assert_cmpint ((int) (color.red * 255 + 0.5), ==, 0xf6);

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  flush ();
  color = flame_color (label);
  g_assert_cmpint ((int) (color.red * 255 + 0.5), ==, 0xa8);
  g_assert_cmpint ((int) (color.green * 255 + 0.5), ==, 0x67);

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  flush ();
  color = flame_color (label);
  g_assert_cmpint ((int) (color.red * 255 + 0.5), ==, 0xf6);

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Every accelerator the shortcuts window or dialog shows, as it is written
 * (alternatives separated by spaces). Before libadwaita 1.8 that is the
 * GtkShortcutsWindow of gtk/help-overlay.ui; with it the AdwShortcutsDialog of
 * shortcuts-dialog.ui, whose items may name an action instead: such an item
 * shows what @app sets for the action, so the action must have an accelerator
 * there. */
static GPtrArray *
listed_accels (GtkApplication *app)
{
  GPtrArray *accels = g_ptr_array_new_with_free_func (g_free);
#if ADW_CHECK_VERSION (1, 8, 0)
  g_autoptr(GtkBuilder) builder =
    gtk_builder_new_from_resource (RESOURCE_BASE_PATH "/shortcuts-dialog.ui");
  GObject *dialog = gtk_builder_get_object (builder, "shortcuts_dialog");
  g_autoptr(GSList) objects = gtk_builder_get_objects (builder);
  guint n_sections = 0;

  g_assert_true (ADW_IS_SHORTCUTS_DIALOG (dialog));
  /* the help overlay is not in the resources too: one shortcuts action only */
  g_assert_false (g_resources_get_info (RESOURCE_BASE_PATH "/gtk/help-overlay.ui",
                                        G_RESOURCE_LOOKUP_FLAGS_NONE, NULL, NULL, NULL));

  for (GSList *l = objects; l != NULL; l = l->next)
    {
      GListModel *section;

      if (!ADW_IS_SHORTCUTS_SECTION (l->data))
        continue;
      section = G_LIST_MODEL (l->data);
      n_sections++;
      g_assert_nonnull (adw_shortcuts_section_get_title (ADW_SHORTCUTS_SECTION (section)));
      for (guint i = 0; i < g_list_model_get_n_items (section); i++)
        {
          g_autoptr(AdwShortcutsItem) item = g_list_model_get_item (section, i);
          const char *action = adw_shortcuts_item_get_action_name (item);
          const char *accel = adw_shortcuts_item_get_accelerator (item);

          g_assert_nonnull (adw_shortcuts_item_get_title (item));
          if (action != NULL && action[0] != '\0')
            {
              g_auto(GStrv) set = gtk_application_get_accels_for_action (app, action);

              g_test_message ("%s: %u accelerators", action, g_strv_length (set));
              g_assert_nonnull (set[0]);
              for (guint j = 0; set[j] != NULL; j++)
                g_ptr_array_add (accels, g_strdup (set[j]));
            }
          else
            {
              g_assert_nonnull (accel);
              g_assert_cmpstr (accel, !=, "");
              g_ptr_array_add (accels, g_strdup (accel));
            }
        }
    }
  /* General, Tabs, Profile, Flame Graph, Flame Chart, Resource Timeline */
  g_assert_cmpuint (n_sections, ==, 6);

  g_object_ref_sink (dialog);
  g_object_unref (dialog);
#else
  g_autoptr(GtkBuilder) builder =
    gtk_builder_new_from_resource (RESOURCE_BASE_PATH "/gtk/help-overlay.ui");
  GObject *overlay = gtk_builder_get_object (builder, "help_overlay");

  (void) app;
  g_assert_true (GTK_IS_SHORTCUTS_WINDOW (overlay));
  collect_accels (GTK_WIDGET (overlay), accels);
  gtk_window_destroy (GTK_WINDOW (overlay));
#endif
  flush ();

  return accels;
}

static gboolean
accels_contain (GPtrArray  *accels,
                const char *wanted)
{
  guint wanted_key;
  GdkModifierType wanted_mods;

  g_assert_true (gtk_accelerator_parse (wanted, &wanted_key, &wanted_mods));

  for (guint i = 0; i < accels->len; i++)
    {
      g_auto(GStrv) parts = g_strsplit (g_ptr_array_index (accels, i), " ", -1);

      for (guint j = 0; parts[j] != NULL; j++)
        {
          g_auto(GStrv) range = g_strsplit (parts[j], "...", 2);
          guint key;
          GdkModifierType mods;

          if (gtk_accelerator_parse (range[0], &key, &mods) &&
              key == wanted_key && mods == wanted_mods)
            return TRUE;
        }
    }

  return FALSE;
}

static void
test_shortcuts_window (void)
{
  g_autoptr(BlApplication) app = started_application ();
  g_autoptr(GPtrArray) accels = NULL;
  const char *expected[] = {
    "<Control>o", "<Control>w", "<Control>f", "<Control>e", "<Shift><Control>o", "<Control>comma",
    "<Control>question", "F1", "<Control>q", "Home", "Escape", "Return", "space", "Up", "Down",
    "Left", "Right", "<Control>Page_Down", "<Control>Page_Up", "<Alt>1", "plus", "minus",
    "equal", "0", "<Shift><Control>o",
  };

  accels = listed_accels (GTK_APPLICATION (app));
  g_assert_cmpuint (accels->len, >=, 10);

  /* every accelerator listed parses */
  for (guint i = 0; i < accels->len; i++)
    {
      g_auto(GStrv) parts = g_strsplit (g_ptr_array_index (accels, i), " ", -1);

      for (guint j = 0; parts[j] != NULL; j++)
        {
          /* "<Alt>1...9" is a range, as GtkShortcutLabel draws it */
          g_auto(GStrv) range = g_strsplit (parts[j], "...", 2);
          guint key = 0;
          GdkModifierType mods = 0;

          g_test_message ("listed: %s", parts[j]);
          g_assert_true (gtk_accelerator_parse (range[0], &key, &mods));
          g_assert_cmpuint (key, !=, 0);
          if (range[1] != NULL)
            g_assert_cmpuint (gdk_keyval_from_name (range[1]), !=, GDK_KEY_VoidSymbol);
        }
    }

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      if (!accels_contain (accels, expected[i]))
        g_test_message ("not listed: %s", expected[i]);
      g_assert_true (accels_contain (accels, expected[i]));
    }
}

/* Every accelerator the application sets is in the shortcuts window. */
static void
test_every_app_accelerator_listed (void)
{
  g_autoptr(BlApplication) app = started_application ();
  g_autoptr(GPtrArray) listed = NULL;
  g_auto(GStrv) actions = NULL;
  guint n_accels = 0;

  listed = listed_accels (GTK_APPLICATION (app));

  actions = gtk_application_list_action_descriptions (GTK_APPLICATION (app));
  for (guint i = 0; actions[i] != NULL; i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app),
                                                                    actions[i]);

      for (guint j = 0; accels[j] != NULL; j++)
        {
          g_test_message ("%s: %s", actions[i], accels[j]);
          if (!accels_contain (listed, accels[j]))
            g_test_message ("not in the shortcuts window: %s (%s)", accels[j], actions[i]);
          g_assert_true (accels_contain (listed, accels[j]));
          n_accels++;
        }
    }

  /* F1 opens the help */
  {
    g_auto(GStrv) help = gtk_application_get_accels_for_action (GTK_APPLICATION (app),
                                                                "app.help");

    g_assert_cmpstr (help[0], ==, "F1");
    g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "help"));
  }

  /* Ctrl+? opens the shortcuts: AdwApplication's dialog with libadwaita 1.8,
   * GtkApplicationWindow's help overlay before it */
  {
#if ADW_CHECK_VERSION (1, 8, 0)
    const char *action = "app.shortcuts";

    g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "shortcuts"));
#else
    const char *action = "win.show-help-overlay";
#endif
    g_auto(GStrv) shortcuts = gtk_application_get_accels_for_action (GTK_APPLICATION (app),
                                                                     action);

    g_assert_cmpstr (shortcuts[0], ==, "<Control>question");
  }

  /* open, close tab, search, export, preferences, shortcuts, quit at least */
  g_assert_cmpuint (n_accels, >=, 7);
}

int
main (int   argc,
      char *argv[])
{
  /* The isolated data dirs hold no MIME database, and gdk-pixbuf needs it to recognise the SVG
   * icons the windows show: keep the system's. */
  g_content_type_set_mime_dirs (NULL);
  /* GTK 4 ignores NO_AT_BRIDGE: without this it looks for an accessibility bus, and one that
   * another test's session started and left behind makes it fail with a critical */
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  gtk_init ();
  adw_init ();

  g_test_add_func ("/data/preferences/choice-rows", test_choice_rows);
  g_test_add_func ("/data/preferences/color-scheme", test_color_scheme);
  g_test_add_func ("/data/style/dark-palette", test_dark_palette);
  g_test_add_func ("/data/preferences/source-folders", test_source_folders);
  g_test_add_func ("/data/about/window", test_about);
  g_test_add_func ("/data/shortcuts/window", test_shortcuts_window);
  g_test_add_func ("/data/shortcuts/every-app-accelerator-listed",
                   test_every_app_accelerator_listed);

  return g_test_run ();
}
