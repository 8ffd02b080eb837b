/* test-window.c — the application opened with files on the command line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "bl-application.h"
#include "bl-bsprof-writer.h"
#include "bl-model.h"
#include "bl-rrm-writer.h"
#include "bl-window.h"
#include "bl-window-compare.h"
#include "bl-window-private.h"
#include "widget-test-util.h"

typedef struct
{
  GApplication *app;
  guint         polls;
  gboolean      done;
  guint         n_pages;
  BlProfilePageState states[2];
  guint         n_rects;
  gboolean      heap_view_made;
  char         *error_message;
  char         *titles[2];
  const char   *dropped;
  const char   *dropped2;
  gboolean      drop_accepted;
  guint         n_pages_after_drop;
  char         *dropped_title;
} RunState;

/* what a file manager's drag does: a GdkFileList dropped on the window */
static gboolean
drop_files (GtkWidget  *window,
            const char *path1,
            const char *path2)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (window);
  g_autoptr(GFile) file1 = g_file_new_for_path (path1);
  g_autoptr(GFile) file2 = g_file_new_for_path (path2);
  GFile *files[] = { file1, file2 };

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);
      GValue value = G_VALUE_INIT;
      gboolean accepted = FALSE;

      if (!GTK_IS_DROP_TARGET (controller))
        continue;

      g_value_init (&value, GDK_TYPE_FILE_LIST);
      g_value_take_boxed (&value, gdk_file_list_new_from_array (files, 2));
      g_signal_emit_by_name (controller, "drop", &value, 10.0, 10.0, &accepted);
      g_value_unset (&value);
      return accepted;
    }

  return FALSE;
}

static char *
write_good (const char *dir)
{
  char *path = g_build_filename (dir, "good.bsprof", NULL);
  g_autoptr(GError) error = NULL;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  h.target = "Window Test App";
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "Main");
  bl_bsprof_writer_string (w, 4, "loadContent");
  bl_bsprof_writer_string (w, 5, "render");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 3);
  bl_bsprof_writer_path (w, 2, 1, 3, 2, 10, 4);
  bl_bsprof_writer_path (w, 3, 1, 4, 2, 20, 5);
  bl_bsprof_writer_cpu (w, 2, 0, 300, 400);
  bl_bsprof_writer_cpu (w, 3, 0, 700, 900);
  bl_bsprof_writer_calls (w, 2, 3);
  bl_bsprof_writer_end (w, 5);
  bl_bsprof_writer_save (w, path, &error);
  g_assert_no_error (error);
  bl_bsprof_writer_free (w);

  return path;
}

static char *
write_broken (const char *dir)
{
  char *path = g_build_filename (dir, "broken.bsprof", NULL);
  g_autoptr(GError) error = NULL;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 9, 42, 0, 1, 1);   /* module 42 was never defined */
  bl_bsprof_writer_end (w, 5);
  bl_bsprof_writer_save (w, path, &error);
  g_assert_no_error (error);
  bl_bsprof_writer_free (w);

  return path;
}

static gboolean
poll_cb (gpointer data)
{
  RunState *state = data;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (state->app));
  AdwTabView *tabs;

  if (++state->polls > 1000)
    {
      state->done = FALSE;
      g_application_quit (state->app);
      return G_SOURCE_REMOVE;
    }

  if (!BL_IS_WINDOW (window) || bl_window_get_n_pages (BL_WINDOW (window)) < 2)
    return G_SOURCE_CONTINUE;

  tabs = bl_window_get_tab_view (BL_WINDOW (window));
  for (guint i = 0; i < 2; i++)
    {
      AdwTabPage *tab = adw_tab_view_get_nth_page (tabs, i);
      BlProfilePage *page = BL_PROFILE_PAGE (adw_tab_page_get_child (tab));

      state->states[i] = bl_profile_page_get_state (page);
      if (state->states[i] == BL_PROFILE_PAGE_LOADING)
        return G_SOURCE_CONTINUE;

      if (state->states[i] == BL_PROFILE_PAGE_LOADED)
        {
          BlProfileView *view = bl_profile_page_get_profile_view (page);
          BlFlameGraph *graph = bl_profile_view_get_flame_graph (view);

          /* show the tab so that its flame graph maps; it lays out in a worker too */
          adw_tab_view_set_selected_page (tabs, adw_tab_view_get_nth_page (tabs, i));
          if (bl_flame_graph_get_layout (graph) == NULL ||
              !gtk_widget_get_mapped (GTK_WIDGET (graph)))
            return G_SOURCE_CONTINUE;
          state->n_rects = bl_flame_layout_get_n_rects (bl_flame_graph_get_layout (graph));
          /* no heap snapshots: no Heap page made */
          state->heap_view_made = bl_profile_page_get_heap_view (page) != NULL;
        }
      else
        {
          g_free (state->error_message);
          state->error_message = g_strdup (bl_profile_page_get_error_message (page));
        }
      g_free (state->titles[i]);
      state->titles[i] = g_strdup (bl_profile_page_get_title (page));
    }

  state->n_pages = bl_window_get_n_pages (BL_WINDOW (window));

  /* two more files dropped on the window open in new tabs (one file asks
   * whether to compare it with the current profile) */
  state->drop_accepted = drop_files (GTK_WIDGET (window), state->dropped, state->dropped2);
  state->n_pages_after_drop = bl_window_get_n_pages (BL_WINDOW (window));
  if (bl_window_get_current_page (BL_WINDOW (window)) != NULL)
    state->dropped_title =
      g_strdup (bl_profile_page_get_title (bl_window_get_current_page (BL_WINDOW (window))));

  state->done = TRUE;
  gtk_window_close (window);

  return G_SOURCE_REMOVE;
}

static void
test_open_command_line (void)
{
  static const char *mime_dirs[] = { "/usr/local/share/mime", "/usr/share/mime", NULL };
  g_autofree char *dir = g_dir_make_tmp ("bl-window-XXXXXX", NULL);
  /* where `brightlens -` keeps standard input for the instance that opens it */
  g_autofree char *stdin_dir = g_dir_make_tmp ("brightlens-stdin-XXXXXX", NULL);
  g_autofree char *good = write_good (stdin_dir);
  g_autofree char *broken = write_broken (dir);
  g_autofree char *dropped = g_build_filename (dir, "dropped.bsprof", NULL);
  g_autofree char *dropped2 = g_build_filename (dir, "dropped2.bsprof", NULL);
  g_autoptr(GFile) broken_file = g_file_new_for_path (broken);
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) nothing = NULL;
  g_autoptr(BlApplication) app = bl_application_new ();
  char *argv[] = { (char *) "brightlens", good, broken, NULL };
  RunState state = { 0 };
  int status;

  /* what the reader says is what the tab must show */
  nothing = bl_format_load_file (broken_file, NULL, NULL, NULL, &error);
  g_assert_null (nothing);
  g_assert_nonnull (error);

  /* the isolated XDG dirs hide the MIME database, which image loaders
   * need to recognise the app's SVG icon */
  g_content_type_set_mime_dirs (mime_dirs);

  /* no D-Bus name: the test must not meet a running instance */
  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_file_set_contents (dropped, "bsprof", -1, NULL));
  g_assert_true (g_file_set_contents (dropped2, "bsprof", -1, NULL));
  state.dropped = dropped;
  state.dropped2 = dropped2;
  state.app = G_APPLICATION (app);
  g_timeout_add (10, poll_cb, &state);
  status = g_application_run (G_APPLICATION (app), 3, argv);
  g_assert_cmpint (status, ==, 0);

  g_assert_true (state.done);
  g_assert_cmpuint (state.n_pages, ==, 2);

  /* the good file: its flame graph has the thread root, Main, loadContent, render */
  g_assert_cmpint (state.states[0], ==, BL_PROFILE_PAGE_LOADED);
  g_assert_cmpstr (state.titles[0], ==, "good.bsprof");
  g_assert_cmpuint (state.n_rects, ==, 4);
  g_assert_false (state.heap_view_made);
  /* read, the copy of standard input is gone, its folder too */
  g_assert_false (g_file_test (good, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (stdin_dir, G_FILE_TEST_EXISTS));

  /* the broken one: the reader's message, which says where */
  g_assert_cmpint (state.states[1], ==, BL_PROFILE_PAGE_FAILED);
  g_assert_cmpstr (state.titles[1], ==, "broken.bsprof");
  g_assert_cmpstr (state.error_message, ==, error->message);
  g_assert_nonnull (strstr (state.error_message, "module 42"));

  /* drag and drop */
  g_assert_true (state.drop_accepted);
  g_assert_cmpuint (state.n_pages_after_drop, ==, 4);
  g_assert_cmpstr (state.dropped_title, ==, "dropped2.bsprof");

  for (guint i = 0; i < 2; i++)
    g_free (state.titles[i]);
  g_free (state.dropped_title);
  g_unlink (dropped);
  g_unlink (dropped2);
  g_free (state.error_message);
  g_unlink (good);
  g_unlink (broken);
  g_rmdir (dir);
}

/* ---- #14.1: the window's real minimum size with every kind of tab ---- */

typedef struct
{
  GApplication *app;
  const char   *dir;
  guint         polls;
  guint         step;
  gboolean      done;
  int           min_width[4];
  int           min_height[4];
  int           default_width;
  int           default_height;
} SizeState;

static gboolean
all_loaded (BlWindow *window)
{
  AdwTabView *tabs = bl_window_get_tab_view (window);

  for (int i = 0; i < adw_tab_view_get_n_pages (tabs); i++)
    {
      GtkWidget *child = adw_tab_page_get_child (adw_tab_view_get_nth_page (tabs, i));

      if (BL_IS_PROFILE_PAGE (child) &&
          bl_profile_page_get_state (BL_PROFILE_PAGE (child)) != BL_PROFILE_PAGE_LOADED)
        return FALSE;
      if (BL_IS_COMPARE_PAGE (child) &&
          bl_compare_page_get_state (BL_COMPARE_PAGE (child)) != BL_PROFILE_PAGE_LOADED)
        return FALSE;
    }
  return TRUE;
}

static void
measure_window (GtkWidget *window,
                int       *min_width,
                int       *min_height)
{
  int at_800;

  /* as GtkWindow does: the height the window needs at its minimum width;
   * and it needs no more at 800 px */
  gtk_widget_measure (window, GTK_ORIENTATION_HORIZONTAL, -1, min_width, NULL, NULL, NULL);
  gtk_widget_measure (window, GTK_ORIENTATION_VERTICAL, *min_width, min_height, NULL, NULL, NULL);
  gtk_widget_measure (window, GTK_ORIENTATION_VERTICAL, 800, &at_800, NULL, NULL, NULL);
  g_assert_cmpint (at_800, <=, *min_height);
}

static gboolean
size_poll_cb (gpointer data)
{
  SizeState *state = data;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (state->app));
  AdwTabView *tabs;

  if (++state->polls > 3000)
    {
      g_application_quit (state->app);
      return G_SOURCE_REMOVE;
    }
  if (!BL_IS_WINDOW (window) || bl_window_get_n_pages (BL_WINDOW (window)) < 2 ||
      !all_loaded (BL_WINDOW (window)))
    return G_SOURCE_CONTINUE;
  tabs = bl_window_get_tab_view (BL_WINDOW (window));

  switch (state->step++)
    {
    case 0:
      {
        g_autofree char *a = g_build_filename (state->dir, "a.json", NULL);
        g_autofree char *b = g_build_filename (state->dir, "b.json", NULL);
        g_autoptr(GFile) fa = g_file_new_for_path (a);
        g_autoptr(GFile) fb = g_file_new_for_path (b);

        BlWindow *second = bl_window_new (GTK_APPLICATION (state->app));

        /* the saved size as restored, before any window system constraint */
        gtk_window_get_default_size (GTK_WINDOW (second), &state->default_width,
                                     &state->default_height);
        gtk_window_destroy (GTK_WINDOW (second));
        /* a session in the foreground */
        adw_tab_view_set_selected_page (tabs, adw_tab_view_get_nth_page (tabs, 0));
        measure_window (GTK_WIDGET (window), &state->min_width[0], &state->min_height[0]);
        /* a profile in the foreground, the session behind it */
        adw_tab_view_set_selected_page (tabs, adw_tab_view_get_nth_page (tabs, 1));
        measure_window (GTK_WIDGET (window), &state->min_width[1], &state->min_height[1]);
        bl_window_compare_files (BL_WINDOW (window), fa, fb, NULL);
      }
      return G_SOURCE_CONTINUE;
    case 1:
      {
        g_autofree char *a = g_build_filename (state->dir, "good.bsprof", NULL);
        g_autoptr(GFile) fa = g_file_new_for_path (a);

        /* compared sessions */
        measure_window (GTK_WIDGET (window), &state->min_width[2], &state->min_height[2]);
        bl_window_compare_files (BL_WINDOW (window), fa, fa, NULL);
      }
      return G_SOURCE_CONTINUE;
    default:
      /* compared profiles */
      measure_window (GTK_WIDGET (window), &state->min_width[3], &state->min_height[3]);
      state->done = TRUE;
      gtk_window_close (window);
      return G_SOURCE_REMOVE;
    }
}

static void
test_minimum_size (void)
{
  g_autofree char *dir = g_dir_make_tmp ("bl-window-XXXXXX", NULL);
  g_autofree char *good = write_good (dir);
  g_autofree char *a = g_build_filename (dir, "a.json", NULL);
  g_autofree char *b = g_build_filename (dir, "b.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlApplication) app = bl_application_new ();
  g_autoptr(GSettings) settings = g_settings_new ("io.github.brightlens.Brightlens");
  char *argv[] = { (char *) "brightlens", a, good, NULL };
  BlRrmWriterOptions o;
  SizeState state = { 0 };
  int status;

  /* the default recent manager still writes where the previous test's
   * isolated data folder was */
  test_make_recent_dir ();

  /* a long, realistic session with every chart and every detail */
  bl_rrm_writer_options_init (&o);
  o.scenario = BL_RRM_SCENARIO_REALISTIC;
  o.n_samples = 600;
  o.with_beacons = TRUE;
  g_assert_true (bl_rrm_write_to_file (&o, a, &error));
  g_assert_no_error (error);
  o.leak_bytes_per_min = 2e6;
  g_assert_true (bl_rrm_write_to_file (&o, b, &error));
  g_assert_no_error (error);

  /* a saved size larger than any monitor is not restored as such */
  g_settings_set_int (settings, "window-width", 9000);
  g_settings_set_int (settings, "window-height", 7000);

  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  state.app = G_APPLICATION (app);
  state.dir = dir;
  g_timeout_add (10, size_poll_cb, &state);
  status = g_application_run (G_APPLICATION (app), 3, argv);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (state.done);

  /* Xvfb's screen is 1600×1000 */
  g_assert_cmpint (state.default_width, <=, 1600);
  g_assert_cmpint (state.default_height, <=, 1000);
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), <=, 1600);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), <=, 1000);

  /* every kind of tab fits 800×600 (the metainfo says so) */
  for (guint i = 0; i < 4; i++)
    g_test_message ("tab kind %u: minimum %d×%d", i, state.min_width[i], state.min_height[i]);
  for (guint i = 0; i < 4; i++)
    {
      g_assert_cmpint (state.min_width[i], >, 0);
      g_assert_cmpint (state.min_width[i], <=, 800);
      g_assert_cmpint (state.min_height[i], >, 0);
      g_assert_cmpint (state.min_height[i], <=, 600);
    }

  g_unlink (a);
  g_unlink (b);
  g_unlink (good);
  g_rmdir (dir);
}

/* ---- #14.12: Export… of a session: the CLI's CSV, written atomically ---- */

typedef struct
{
  GApplication *app;
  const char   *out;
  guint         polls;
  gboolean      exported;
  gboolean      enabled;
  gboolean      done;
} ExportState;

static gboolean
export_poll_cb (gpointer data)
{
  ExportState *state = data;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (state->app));

  if (++state->polls > 3000)
    {
      g_application_quit (state->app);
      return G_SOURCE_REMOVE;
    }
  if (!BL_IS_WINDOW (window) || bl_window_get_n_pages (BL_WINDOW (window)) < 1 ||
      !all_loaded (BL_WINDOW (window)))
    return G_SOURCE_CONTINUE;

  if (!state->exported)
    {
      g_autoptr(GFile) out = g_file_new_for_path (state->out);
      GtkWidget *button = gtk_button_new ();

      /* a button bound to win.export is insensitive while it is disabled */
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.export");
      gtk_widget_set_parent (button, GTK_WIDGET (window));
      state->enabled = gtk_widget_get_sensitive (button);
      gtk_widget_unparent (button);

      _bl_window_export_to (BL_WINDOW (window), out, "csv");
      state->exported = TRUE;
      return G_SOURCE_CONTINUE;
    }
  if (!g_file_test (state->out, G_FILE_TEST_EXISTS))
    return G_SOURCE_CONTINUE;

  state->done = TRUE;
  gtk_window_close (window);
  return G_SOURCE_REMOVE;
}

static void
test_export_session (void)
{
  g_autofree char *dir = g_dir_make_tmp ("bl-window-XXXXXX", NULL);
  g_autofree char *a = g_build_filename (dir, "a.json", NULL);
  g_autofree char *out = g_build_filename (dir, "a.csv", NULL);
  g_autofree char *from_window = NULL;
  g_autofree char *from_cli = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlApplication) app = bl_application_new ();
  g_autoptr(GDir) listing = NULL;
  const char *cli_argv[] = { BRIGHTLENS_CLI, "export", a, "--format", "csv", NULL };
  char *argv[] = { (char *) "brightlens", a, NULL };
  BlRrmWriterOptions o;
  ExportState state = { 0 };
  gsize len_window, len_cli;
  int status;
  guint n_files = 0;

  bl_rrm_writer_options_init (&o);
  o.scenario = BL_RRM_SCENARIO_REALISTIC;
  o.n_samples = 120;
  o.null_every = 7;
  o.with_beacons = TRUE;
  g_assert_true (bl_rrm_write_to_file (&o, a, &error));
  g_assert_no_error (error);

  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  state.app = G_APPLICATION (app);
  state.out = out;
  g_timeout_add (10, export_poll_cb, &state);
  status = g_application_run (G_APPLICATION (app), 2, argv);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (state.done);
  g_assert_true (state.enabled);

  /* byte for byte what brightlens-cli writes */
  g_assert_true (g_spawn_sync (NULL, (char **) cli_argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                               NULL, &from_cli, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (g_file_get_contents (out, &from_window, &len_window, &error));
  g_assert_no_error (error);
  len_cli = strlen (from_cli);
  g_assert_cmpuint (len_window, >, 1000);
  g_assert_cmpuint (len_window, ==, len_cli);
  g_assert_true (memcmp (from_window, from_cli, len_cli) == 0);
  g_assert_true (g_str_has_prefix (from_window, "timestamp_ms,"));

  /* no temporary file left beside it */
  listing = g_dir_open (dir, 0, NULL);
  while (g_dir_read_name (listing) != NULL)
    n_files++;
  g_assert_cmpuint (n_files, ==, 2);

  g_unlink (out);
  g_unlink (a);
  g_rmdir (dir);
}

/* ---- recent files: a file that opened, not one that failed ---- */

typedef struct
{
  GApplication *app;
  guint         polls;
  gboolean      done;
} RecentState;

static gboolean
recent_poll_cb (gpointer data)
{
  RecentState *state = data;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (state->app));
  AdwTabView *tabs;

  if (++state->polls > 1000)
    {
      g_application_quit (state->app);
      return G_SOURCE_REMOVE;
    }
  if (!BL_IS_WINDOW (window) || bl_window_get_n_pages (BL_WINDOW (window)) < 2)
    return G_SOURCE_CONTINUE;

  tabs = bl_window_get_tab_view (BL_WINDOW (window));
  for (guint i = 0; i < 2; i++)
    {
      AdwTabPage *tab = adw_tab_view_get_nth_page (tabs, i);

      if (bl_profile_page_get_state (BL_PROFILE_PAGE (adw_tab_page_get_child (tab))) ==
          BL_PROFILE_PAGE_LOADING)
        return G_SOURCE_CONTINUE;
    }

  state->done = TRUE;
  gtk_window_close (window);

  return G_SOURCE_REMOVE;
}

static void
test_recent_when_loaded (void)
{
  g_autofree char *dir = g_dir_make_tmp ("bl-window-XXXXXX", NULL);
  g_autofree char *good = write_good (dir);
  g_autofree char *broken = write_broken (dir);
  g_autofree char *good_uri = g_filename_to_uri (good, NULL, NULL);
  g_autofree char *broken_uri = g_filename_to_uri (broken, NULL, NULL);
  g_autoptr(BlApplication) app = bl_application_new ();
  char *argv[] = { (char *) "brightlens", good, broken, NULL };
  GtkRecentManager *recent = gtk_recent_manager_get_default ();
  RecentState state = { 0 };

  test_make_recent_dir ();
  gtk_recent_manager_remove_item (recent, good_uri, NULL);
  gtk_recent_manager_remove_item (recent, broken_uri, NULL);

  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  state.app = G_APPLICATION (app);
  g_timeout_add (10, recent_poll_cb, &state);
  g_assert_cmpint (g_application_run (G_APPLICATION (app), 3, argv), ==, 0);
  g_assert_true (state.done);

  g_assert_true (gtk_recent_manager_has_item (recent, good_uri));
  g_assert_false (gtk_recent_manager_has_item (recent, broken_uri));

  gtk_recent_manager_remove_item (recent, good_uri, NULL);
  g_unlink (good);
  g_unlink (broken);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  static const char *mime_dirs[] = { "/usr/local/share/mime", "/usr/share/mime", NULL };

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  /* the isolated XDG dirs hide the MIME database, which image loaders need
   * to recognise the app's SVG icon (for tests run one by one too) */
  g_content_type_set_mime_dirs (mime_dirs);
  /* the accessibility bus is shared by every test run on this machine and
   * comes and goes with them; these tests do not need it */
  g_setenv ("GTK_A11Y", "none", TRUE);

  if (!gtk_init_check ())
    g_error ("No display: widget tests need one (run them under xvfb-run)");
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  g_test_add_func ("/widgets/window/open-command-line", test_open_command_line);
  g_test_add_func ("/widgets/window/minimum-size", test_minimum_size);
  g_test_add_func ("/widgets/window/export-session", test_export_session);
  g_test_add_func ("/widgets/window/recent-when-loaded", test_recent_when_loaded);

  return g_test_run ();
}
