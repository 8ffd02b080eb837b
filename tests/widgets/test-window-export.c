/* test-window-export.c — Export… writes the format that was chosen, whatever the name
 *
 * With GTK 4.10 the file chooser is a GtkFileDialog, which does not report the filter the
 * user chose, so the window asks for the format first (an alert) and the dialog offers only
 * that format; with GTK 4.8 the native chooser's filter decides. Either way the format
 * reaches the export, and a name ending in ".json" does not turn folded stacks into
 * speedscope (nor ".folded" the reverse).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "bl-alert.h"
#include "bl-perfetto-writer.h"
#include "bl-stacks-writer.h"
#include "bl-window-private.h"
#include "bl-window.h"
#include "widget-test-util.h"

static const char *stacks[] = {
  "T;main;grow 100",
  "T;main;shrink 40",
  NULL
};

/* turns of the main loop, a millisecond each, that a wait may take */
#define WAIT_TURNS 5000

static gboolean
page_loaded (gpointer data)
{
  return bl_profile_page_get_state (data) == BL_PROFILE_PAGE_LOADED;
}

/* The destination exists beforehand with "old" in it: the export writes beside it and
 * replaces it only when complete, so other contents mean the export is done. */
static gboolean
file_replaced (gpointer data)
{
  g_autofree char *contents = NULL;

  return g_file_get_contents (data, &contents, NULL, NULL) && g_strcmp0 (contents, "old") != 0;
}

static char *
export (BlWindow   *window,
        const char *dir,
        const char *name,
        const char *format)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_assert_true (g_file_set_contents (path, "old", -1, NULL));
  _bl_window_export_to (window, file, format);
  g_assert_true (test_iterate_until (file_replaced, path, WAIT_TURNS));
  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  g_unlink (path);

  return contents;
}

static void
test_format_not_name (void)
{
  g_autofree char *dir = g_dir_make_tmp ("bl-export-XXXXXX", NULL);
  g_autofree char *profile_path = g_build_filename (dir, "run.bsprof", NULL);
  g_autoptr(GFile) profile_file = g_file_new_for_path (profile_path);
  g_autoptr(AdwApplication) app = adw_application_new ("io.github.brightlens.BrightlensTestExport",
                                                       G_APPLICATION_NON_UNIQUE);
  g_autoptr(GError) error = NULL;
  g_autofree char *folded = NULL;
  g_autofree char *speedscope = NULL;
  BlProfilePage *page;
  BlWindow *window;

  g_assert_true (bl_stacks_save_bsprof (stacks, profile_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  window = bl_window_new (GTK_APPLICATION (app));
  gtk_window_present (GTK_WINDOW (window));
  page = bl_window_open_file (window, profile_file);
  g_assert_true (test_iterate_until (page_loaded, page, WAIT_TURNS));

  /* folded stacks into a name that looks like speedscope's */
  folded = export (window, dir, "stacks.json", "folded");
  g_assert_nonnull (strstr (folded, "T;main;grow 100\n"));
  g_assert_nonnull (strstr (folded, "T;main;shrink 40\n"));
  g_assert_true (folded[0] != '{');

  /* speedscope into a name that looks like folded stacks */
  speedscope = export (window, dir, "profile.folded", "speedscope");
  g_assert_true (speedscope[0] == '{');
  g_assert_nonnull (strstr (speedscope, "speedscope"));
  g_assert_null (strstr (speedscope, "T;main;grow 100\n"));

#if GTK_CHECK_VERSION (4, 10, 0)
  /* Export… asks for the format before the file dialog opens */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.export", NULL));
  {
    GObject *alert = NULL;

    for (guint i = 0; i < 200 && alert == NULL; i++)
      {
        g_main_context_iteration (NULL, FALSE);
        alert = bl_alert_find (GTK_WINDOW (window));
      }
    g_assert_nonnull (alert);
    g_assert_true (bl_alert_has_response (alert, "folded"));
    g_assert_true (bl_alert_has_response (alert, "speedscope"));
    g_assert_cmpstr (bl_alert_get_default_response (alert), ==, "folded");
    bl_alert_respond (alert, "cancel");
  }
#endif

  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_unlink (profile_path);
  g_rmdir (dir);
}

/* whether a button bound to @action is sensitive: the action is enabled */
static gboolean
action_enabled (BlWindow   *window,
                const char *action)
{
  GtkWidget *button = gtk_button_new ();
  gboolean enabled;

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_widget_set_parent (button, GTK_WIDGET (window));
  enabled = gtk_widget_get_sensitive (button);
  gtk_widget_unparent (button);

  return enabled;
}

/* a trace of heap graphs and no slices opens on its Heap page: no export
 * and no flame graph image would hold anything, so both are disabled;
 * a profile with stacks in another tab has them again */
static void
test_heaps_only (void)
{
  g_autofree char *dir = g_dir_make_tmp ("bl-export-XXXXXX", NULL);
  g_autofree char *trace_path = g_build_filename (dir, "heap.pftrace", NULL);
  g_autofree char *profile_path = g_build_filename (dir, "run.bsprof", NULL);
  g_autoptr(GFile) trace_file = g_file_new_for_path (trace_path);
  g_autoptr(GFile) profile_file = g_file_new_for_path (profile_path);
  g_autoptr(AdwApplication) app = adw_application_new ("io.github.brightlens.BrightlensTestExportHeap",
                                                       G_APPLICATION_NON_UNIQUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  BlPbWriter *w = bl_pbw_new ();
  BlProfilePage *page;
  BlWindow *window;

  /* the default recent manager still writes where the previous test's
   * isolated data folder was */
  test_make_recent_dir ();

  /* one heap graph: a root object of one type */
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 1);
  bl_pbw_begin (w, 56);
  bl_pbw_begin (w, 9);
  bl_pbw_varint (w, 1, 1);
  bl_pbw_string (w, 3, "roAssociativeArray");
  bl_pbw_end (w);
  bl_pbw_begin (w, 2);
  bl_pbw_varint (w, 1, 1);
  bl_pbw_varint (w, 2, 1);
  bl_pbw_varint (w, 3, 100);
  bl_pbw_end (w);
  bl_pbw_begin (w, 7);
  bl_pbw_varint (w, 1, 1);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bytes = bl_pbw_steal (w);
  bl_pbw_free (w);
  g_assert_true (g_file_set_contents (trace_path, g_bytes_get_data (bytes, NULL),
                                      g_bytes_get_size (bytes), NULL));
  g_assert_true (bl_stacks_save_bsprof (stacks, profile_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  window = bl_window_new (GTK_APPLICATION (app));
  gtk_window_present (GTK_WINDOW (window));
  page = bl_window_open_file (window, trace_file);
  g_assert_true (test_iterate_until (page_loaded, page, WAIT_TURNS));
  g_assert_true (bl_profile_page_is_showing_heap (page));
  g_assert_false (action_enabled (window, "win.export"));
  g_assert_false (action_enabled (window, "win.copy-image"));

  page = bl_window_open_file (window, profile_file);
  g_assert_true (test_iterate_until (page_loaded, page, WAIT_TURNS));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_true (action_enabled (window, "win.export"));
  g_assert_true (action_enabled (window, "win.copy-image"));

  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_unlink (trace_path);
  g_unlink (profile_path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  static const char *mime_dirs[] = { "/usr/local/share/mime", "/usr/share/mime", NULL };

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  /* the isolated XDG dirs hide the MIME database, which the image loaders need to
   * recognise the app's SVG icon */
  g_content_type_set_mime_dirs (mime_dirs);

  if (!gtk_init_check ())
    g_error ("No display: widget tests need one (run them under xvfb-run)");
  adw_init ();
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  g_test_add_func ("/widgets/window/export-format", test_format_not_name);
  g_test_add_func ("/widgets/window/export-heaps-only", test_heaps_only);

  return g_test_run ();
}
