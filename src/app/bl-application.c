/* bl-application.c
 *
 * One instance per session: files opened later (from the file manager, the
 * command line) arrive in "open" and become tabs of the existing window.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-application"

#include "config.h"

#include <glib/gi18n.h>
#ifdef __GLIBC__
# include <malloc.h>
#endif

#include "bl-about.h"
#include "bl-preferences-window.h"
#include "bl-renderer-choice.h"
#include "bl-window.h"
#include "bl-window-compare.h"

#include "bl-application.h"

struct _BlApplication
{
  AdwApplication  parent_instance;

  GSettings      *settings;
  GtkCssProvider *dark_palette; /* resources/palette-dark.css */
  GFile          *compare_a;   /* --compare A: waits for B, the next file opened */
};

G_DEFINE_FINAL_TYPE (BlApplication, bl_application, ADW_TYPE_APPLICATION)

static BlWindow *
ensure_window (BlApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (BL_IS_WINDOW (window))
    return BL_WINDOW (window);

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    if (BL_IS_WINDOW (l->data))
      return BL_WINDOW (l->data);

  return bl_window_new (GTK_APPLICATION (self));
}

static void
bl_application_activate (GApplication *application)
{
  BlApplication *self = BL_APPLICATION (application);
  BlWindow *window = ensure_window (self);

  /* --compare A without a B: open A */
  if (self->compare_a != NULL)
    {
      g_autoptr(GFile) file = g_steal_pointer (&self->compare_a);

      bl_window_open_file (window, file);
    }

  gtk_window_present (GTK_WINDOW (window));
}

/* `brightlens --compare A B`: A arrives first as an open with the hint
 * "compare" (sent from handle_local_options, so that it also reaches a
 * running instance), then B as a plain open. */
static int
open_compare (BlApplication  *self,
              GFile         **files,
              int             n_files,
              const char     *hint)
{
  if (n_files == 0)
    return 0;

  if (g_strcmp0 (hint, "compare") == 0)
    {
      g_set_object (&self->compare_a, files[0]);
      return n_files;
    }

  if (self->compare_a != NULL)
    {
      g_autoptr(GFile) file_a = g_steal_pointer (&self->compare_a);

      bl_window_compare_files (ensure_window (self), file_a, files[0], NULL);
      return 1;
    }

  return 0;
}

static int
bl_application_handle_local_options (GApplication *application,
                                     GVariantDict *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  const char *path = NULL;

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("brightlens %s\n", PACKAGE_VERSION);
      return 0;
    }

  if (!g_variant_dict_lookup (options, "compare", "^&ay", &path))
    return -1;

  if (!g_application_register (application, NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  file = g_file_new_for_commandline_arg (path);
  g_application_open (application, &file, 1, "compare");

  return -1;
}

static void
bl_application_open (GApplication  *application,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  int first = open_compare (BL_APPLICATION (application), files, n_files, hint);
  BlWindow *window;

  if (first == n_files && g_strcmp0 (hint, "compare") == 0)
    return;
  window = ensure_window (BL_APPLICATION (application));

  for (int i = first; i < n_files; i++)
    bl_window_open_file (window, files[i]);

  gtk_window_present (GTK_WINDOW (window));
}

static void
quit_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  GtkApplication *app = user_data;
  GList *windows = g_list_copy (gtk_application_get_windows (app));

  /* close each window so that it saves its state */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
  g_list_free (windows);
}

static void
about_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  bl_show_about_window (gtk_application_get_active_window (GTK_APPLICATION (user_data)));
}

#if GTK_CHECK_VERSION (4, 10, 0)
static void
help_launched_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!gtk_uri_launcher_launch_finish (GTK_URI_LAUNCHER (source), result, &error) &&
      !g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED))
    g_warning ("Could not open the help: %s", error->message);
}
#endif

/* The Mallard pages in share/help/C/brightlens, shown by Yelp. */
static void
help_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));

#if GTK_CHECK_VERSION (4, 10, 0)
  g_autoptr(GtkUriLauncher) launcher = gtk_uri_launcher_new ("help:" PACKAGE_NAME);

  gtk_uri_launcher_launch (launcher, parent, NULL, help_launched_cb, NULL);
#else
  gtk_show_uri (parent, "help:" PACKAGE_NAME, GDK_CURRENT_TIME);
#endif
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  bl_preferences_show (parent);
}

static const GActionEntry app_actions[] = {
  { "quit", quit_action },
  { "about", about_action },
  { "help", help_action },
  { "preferences", preferences_action },
};

/* The dark variants of the app's named colours are on while the style is
 * dark. libadwaita would load a style-dark.css by itself, but newer versions
 * refuse that file in favour of a media query in style.css, which the GTK of
 * Debian 12 cannot parse; a provider of our own works with both. */
static void
update_dark_palette (AdwStyleManager *manager,
                     GParamSpec      *pspec,
                     BlApplication   *self)
{
  GdkDisplay *display = gdk_display_get_default ();

  if (display == NULL)
    return;
  if (adw_style_manager_get_dark (manager))
    gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (self->dark_palette),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION + 1);
  else
    gtk_style_context_remove_provider_for_display (display, GTK_STYLE_PROVIDER (self->dark_palette));
}

static void
bl_application_startup (GApplication *application)
{
  BlApplication *self = BL_APPLICATION (application);
  GtkApplication *app = GTK_APPLICATION (application);
  GSettingsSchemaSource *source;
  g_autoptr(GSettingsSchema) schema = NULL;
  static const struct {
    const char *action;
    const char *accels[3];
  } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "app.help", { "F1", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.close-tab", { "<Control>w", NULL } },
    { "win.search", { "<Control>f", NULL } },
    { "win.export", { "<Control>e", NULL } },
    { "win.copy-image", { "<Shift><Control>c", NULL } },
    { "win.compare", { "<Shift><Control>o", NULL } },
    { "win.record", { "<Control>r", NULL } },
#if !ADW_CHECK_VERSION (1, 8, 0)
    /* with 1.8 AdwApplication gives its app.shortcuts the same accelerator */
    { "win.show-help-overlay", { "<Control>question", NULL } },
#endif
  };

  G_APPLICATION_CLASS (bl_application_parent_class)->startup (application);

  /* a big profile's first flame graph needs its default metric's totals */
  bl_profile_set_warm_columns (TRUE);

  /* software GL repaints the whole window for every change: cairo then */
  bl_renderer_choice_apply (gdk_display_get_default ());

#ifdef __GLIBC__
  /* A profile's arrays (nodes, metric columns, line records) grow by
   * doubling to tens of megabytes. glibc raises its mmap threshold each time
   * such a block is freed, so the next profile's arrays land in the heap,
   * between small blocks that outlive them, and a closed tab's memory cannot
   * be given back. A fixed threshold keeps every large array in its own
   * mapping, returned to the system when it is freed. */
  mallopt (M_MMAP_THRESHOLD, 256 * 1024);
  /* Every thread that allocates while another does gets an arena of its own
   * (up to eight per core), and a loader's or a table worker's arena keeps
   * the pages its last small blocks pin once the tab is closed: on a
   * million-node .bsprof 10 to 15 MB more stayed resident after the close
   * than with two arenas, which the main thread and the workers share with
   * no loss of speed measured (their large arrays are mapped apart). */
  mallopt (M_ARENA_MAX, 2);
#endif

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions,
                                   G_N_ELEMENTS (app_actions), self);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (app, accels[i].action, accels[i].accels);

  self->dark_palette = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (self->dark_palette,
                                       "/io/github/brightlens/Brightlens/palette-dark.css");
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (update_dark_palette), self, 0);
  update_dark_palette (adw_style_manager_get_default (), NULL, self);

  source = g_settings_schema_source_get_default ();
  if (source != NULL && (schema = g_settings_schema_source_lookup (source, BASE_ID, TRUE)) != NULL)
    {
      self->settings = g_settings_new (BASE_ID);
      bl_preferences_bind_color_scheme (self->settings);
    }
}

static void
bl_application_dispose (GObject *object)
{
  BlApplication *self = (BlApplication *) object;

  g_clear_object (&self->settings);
  g_clear_object (&self->dark_palette);
  g_clear_object (&self->compare_a);

  G_OBJECT_CLASS (bl_application_parent_class)->dispose (object);
}

static void
bl_application_class_init (BlApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = bl_application_dispose;
  app_class->activate = bl_application_activate;
  app_class->open = bl_application_open;
  app_class->handle_local_options = bl_application_handle_local_options;
  app_class->startup = bl_application_startup;
}

static void
bl_application_init (BlApplication *self)
{
  g_application_add_main_option (G_APPLICATION (self), "compare", 0, G_OPTION_FLAG_NONE,
                                 G_OPTION_ARG_FILENAME,
                                 _("Compare FILE (A, before) with the file after it (B)"),
                                 _("FILE"));
  g_application_add_main_option (G_APPLICATION (self), "version", 0, G_OPTION_FLAG_NONE,
                                 G_OPTION_ARG_NONE, _("Print the version and exit"), NULL);
  /* Translators: the files `brightlens --help` takes; “-” is standard input */
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE…]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Opens profiles and Roku Resource Monitor "
                                              "sessions; FILE “-” reads standard input. "
                                              "Compressed files (gzip, zstd, xz) open as "
                                              "they are."));
}

BlApplication *
bl_application_new (void)
{
  return g_object_new (BL_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", RESOURCE_BASE_PATH,
                       NULL);
}

/**
 * bl_application_get_settings:
 *
 * Returns: (transfer none) (nullable): the settings, when the schema is installed
 */
GSettings *
bl_application_get_settings (BlApplication *self)
{
  g_return_val_if_fail (BL_IS_APPLICATION (self), NULL);

  return self->settings;
}
