/* test-window-record.c — Record… and the recording tab, against the fake device
 *
 * The window records from an in-process fake Roku on loopback: the dialog
 * finds it by SSDP and reaches it; the tab grows while it records (the flame
 * graph's profile gains nodes, the charts gain samples, trace lanes appear);
 * pause, resume, a heap graph and a status put marks on the axis; Stop leaves a folder
 * that bl_recording_load() opens with the same figures; a device that
 * vanishes shows the banner and its files load; refusals show their
 * sentence in the dialog; closing a recording tab asks; the tab fits the
 * window at 1280×720 and 800×600.
 *
 * A program of its own, with its own XDG folders for the whole run (the
 * default GtkRecentManager keeps the first folder it saw).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "bl-alert.h"
#include "bl-application.h"
#include "bl-bsprof-writer.h"
#include "bl-capture-error.h"
#include "bl-fake-roku.h"
#include "bl-flame-layout.h"
#include "bl-model.h"
#include "bl-perfetto-writer.h"
#include "bl-record-dialog.h"
#include "bl-recording.h"
#include "bl-recording-view.h"
#include "bl-window.h"
#include "bl-window-private.h"
#include "bl-window-record.h"
#include "widget-test-util.h"

static char *tmp_root;
static BlApplication *app;   /* one for the run: its D-Bus path is taken once */

typedef struct
{
  BlWindow      *window;
  BlFakeRoku    *roku;
  GBytes        *profile;
  GBytes        *trace;
  GBytes        *heap;
  GFile         *base;
} Fixture;

/* A small app whose measurements run all along the stream (as a real
 * profiler's do): main → 24 functions, each with children, then @n CPU
 * measurements spread over the paths. */
static GBytes *
make_profile (guint n)
{
  BlBsprofHeader h;
  BlBsprofWriter *w;
  GBytes *bytes;
  guint32 pe = 2;

  bl_bsprof_header_init (&h);
  h.target = "Fake App";
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "Main");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 3);
  for (guint i = 0; i < 24; i++)
    {
      g_autofree char *name = g_strdup_printf ("function%u", i);

      bl_bsprof_writer_string (w, 10 + i, name);
    }
  for (guint i = 0; i < 24; i++)
    {
      bl_bsprof_writer_path (w, pe, 1, i, 2, 10 + i, 10 + i);
      bl_bsprof_writer_path (w, pe + 1, pe, 1, 2, 100 + i, 10 + (i + 1) % 24);
      pe += 2;
    }
  for (guint i = 0; i < n; i++)
    {
      bl_bsprof_writer_cpu (w, 2 + (i * 7) % (pe - 2), 0, 10 + i % 90, 20 + i % 90);
      if (i % 10 == 0)
        bl_bsprof_writer_calls (w, 2 + (i * 3) % (pe - 2), 1);
    }
  bl_bsprof_writer_end (w, 5000);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  return bytes;
}

/* a main thread calling @n slices */
static GBytes *
make_trace (guint n)
{
  BlPbWriter *w = bl_pbw_new ();
  GBytes *bytes;

  bl_pftw_thread_track (w, 1, 100, 101, "main");
  for (guint i = 0; i < n; i++)
    {
      bl_pftw_event (w, 1, 1000000 + i * 1000, 1, 1, i % 3 == 0 ? "onKeyEvent" : "render");
      bl_pftw_event (w, 1, 1000000 + i * 1000 + 500, 2, 1, NULL);
    }
  bytes = bl_pbw_steal (w);
  bl_pbw_free (w);

  return bytes;
}

static void
flush (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *base = NULL;

  f->roku = bl_fake_roku_new (GPOINTER_TO_INT (data), &error);
  g_assert_no_error (error);
  /* about five seconds of profile, a trace in a second, a heap graph on request */
  f->profile = make_profile (60000);
  g_assert_cmpuint (g_bytes_get_size (f->profile), >, 200000);
  bl_fake_roku_set_profile (f->roku, f->profile, 4096, 100);
  f->trace = make_trace (3000);
  f->heap = make_trace (7);
  bl_fake_roku_set_trace (f->roku, f->trace, f->heap, 997, 20, FALSE);

  base = g_build_filename (tmp_root, "recordings", NULL);
  f->base = g_file_new_for_path (base);

  f->window = bl_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1280, 720);
  gtk_window_present (GTK_WINDOW (f->window));
  while (!gtk_widget_get_mapped (GTK_WIDGET (f->window)))
    g_main_context_iteration (NULL, TRUE);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  flush ();
  bl_fake_roku_free (f->roku);
  g_bytes_unref (f->profile);
  g_bytes_unref (f->trace);
  g_bytes_unref (f->heap);
  g_object_unref (f->base);
}

/* A Record dialog over the window, reaching the fake device; waits for the outcome. */
static BlRecordDialog *
open_dialog (Fixture *f)
{
  BlRecordDialog *dialog;
  g_autofree char *address = NULL;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.record", NULL));
  flush ();

  /* the dialog the action opened */
  dialog = NULL;
  {
    g_autoptr(GListModel) toplevels = g_object_ref (gtk_window_get_toplevels ());

    for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
      {
        g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

        if (BL_IS_RECORD_DIALOG (item))
          dialog = BL_RECORD_DIALOG (item);
      }
  }
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (f->window));

  bl_record_dialog_set_base_folder (dialog, f->base);
  bl_record_dialog_set_ports (dialog, bl_fake_roku_get_ecp_port (f->roku),
                              bl_fake_roku_get_profiler_port (f->roku),
                              bl_fake_roku_get_console_port (f->roku));
  address = g_strdup_printf ("127.0.0.1:%u", bl_fake_roku_get_ecp_port (f->roku));
  bl_record_dialog_connect (dialog, address);
  g_assert_true (bl_record_dialog_get_busy (dialog));
  while (bl_record_dialog_get_busy (dialog))
    g_main_context_iteration (NULL, TRUE);

  return dialog;
}

static BlRecordingView *
current_recording (Fixture *f)
{
  AdwTabPage *tab = adw_tab_view_get_selected_page (bl_window_get_tab_view (f->window));
  GtkWidget *child = tab != NULL ? adw_tab_page_get_child (tab) : NULL;

  return child != NULL && BL_IS_RECORDING_VIEW (child) ? BL_RECORDING_VIEW (child) : NULL;
}

static BlRecordingView *
start_recording (Fixture *f)
{
  BlRecordDialog *dialog = open_dialog (f);
  BlRecordingView *view;

  g_assert_true (bl_record_dialog_get_can_record (dialog));
  g_assert_cmpuint (bl_record_dialog_get_interval_ms (dialog), ==, 1000);
  bl_record_dialog_record (dialog);
  flush ();

  view = current_recording (f);
  g_assert_nonnull (view);
  g_assert_cmpint (bl_recording_view_get_state (view), ==, BL_RECORDING_VIEW_RECORDING);
  g_assert_true (bl_recording_view_is_recording (view));
  g_assert_true (g_file_has_parent (bl_recording_view_get_folder (view), f->base));
  /* the window names it */
  g_assert_cmpstr (adw_window_title_get_subtitle (f->window->window_title), ==,
                   bl_recording_view_get_title (view));
  g_assert_cmpstr (bl_recording_view_get_title (view), ==, "Fake App on " BL_FAKE_ROKU_NAME);

  return view;
}

static void
wait_saved (BlRecordingView *view)
{
  while (bl_recording_view_get_state (view) != BL_RECORDING_VIEW_SAVED
         && bl_recording_view_get_state (view) != BL_RECORDING_VIEW_FAILED)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (bl_recording_view_get_state (view), ==, BL_RECORDING_VIEW_SAVED);
}

/* what a file manager's drag does: a GdkFileList dropped on the window */
static gboolean
drop_file (GtkWidget *window,
           GFile     *file)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (window);
  GFile *files[] = { file };

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);
      GValue value = G_VALUE_INIT;
      gboolean accepted = FALSE;

      if (!GTK_IS_DROP_TARGET (controller))
        continue;

      g_value_init (&value, GDK_TYPE_FILE_LIST);
      g_value_take_boxed (&value, gdk_file_list_new_from_array (files, 1));
      g_signal_emit_by_name (controller, "drop", &value, 10.0, 10.0, &accepted);
      g_value_unset (&value);
      return accepted;
    }

  return FALSE;
}

static guint
n_memory_samples (BlSession *session)
{
  guint n = 0;

  if (session != NULL)
    bl_session_get_series (session, BL_SERIES_MEMORY_USED, &n);
  return n;
}

static BlFlameGraph *
flame (BlRecordingView *view)
{
  return bl_recording_view_get_flame_graph (view);
}

static guint
view_nodes (BlRecordingView *view)
{
  BlProfile *profile = bl_flame_graph_get_profile (flame (view));

  return profile != NULL ? bl_profile_get_n_nodes (profile) : 0;
}

static guint
view_samples (BlRecordingView *view)
{
  return n_memory_samples (bl_timeline_get_session (bl_recording_view_get_timeline (view)));
}

static void
remove_tree (GFile *file)
{
  g_autoptr(GFileEnumerator) children =
    g_file_enumerate_children (file, G_FILE_ATTRIBUTE_STANDARD_NAME,
                               G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
  GFileInfo *info;

  while (children != NULL && (info = g_file_enumerator_next_file (children, NULL, NULL)) != NULL)
    {
      g_autoptr(GFile) child = g_file_get_child (file, g_file_info_get_name (info));

      remove_tree (child);
      g_object_unref (info);
    }
  g_file_delete (file, NULL, NULL);
}

/* ------------------------------------------------------------------------ */

static void
test_search (Fixture       *f,
             gconstpointer  data)
{
  BlRecordDialog *dialog = bl_record_dialog_new (GTK_WINDOW (f->window));
  g_autoptr(GSocketAddress) target =
    g_inet_socket_address_new_from_string ("127.0.0.1", bl_fake_roku_get_ssdp_port (f->roku));

  gtk_window_present (GTK_WINDOW (dialog));
  bl_record_dialog_set_discovery_target (dialog, target);
  bl_record_dialog_search (dialog);
  g_assert_cmpuint (bl_record_dialog_get_n_devices (dialog), ==, 0);
  while (bl_record_dialog_get_n_devices (dialog) == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (bl_record_dialog_get_n_devices (dialog), ==, 1);
  /* nothing reached yet: Record stays off */
  g_assert_false (bl_record_dialog_get_can_record (dialog));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
got_result (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  GAsyncResult **slot = user_data;

  *slot = g_object_ref (result);
}

/* The dialog says what the capture library says, and Record stays off. */
static void
test_refusal (Fixture       *f,
              gconstpointer  data)
{
  BlRecordDialog *dialog = open_dialog (f);
  g_autoptr(BlDevice) device = bl_device_new ("127.0.0.1", bl_fake_roku_get_ecp_port (f->roku));
  g_autoptr(GAsyncResult) info = NULL;
  g_autoptr(GAsyncResult) app = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_false (bl_record_dialog_get_can_record (dialog));
  g_assert_null (bl_record_dialog_get_device (dialog));

  /* the same checks, made directly */
  bl_device_query_info_async (device, NULL, got_result, &info);
  while (info == NULL)
    g_main_context_iteration (NULL, TRUE);
  if (bl_device_query_info_finish (device, info, &error)
      && bl_device_check_developer_mode (device, &error))
    {
      bl_device_query_active_app_async (device, NULL, got_result, &app);
      while (app == NULL)
        g_main_context_iteration (NULL, TRUE);
      if (bl_device_query_active_app_finish (device, app, &error))
        bl_device_check_sideloaded (device, &error);
    }
  g_assert_nonnull (error);
  g_assert_true (error->domain == BL_CAPTURE_ERROR);
  g_test_message ("%s", bl_record_dialog_get_status_text (dialog));
  g_assert_cmpstr (bl_record_dialog_get_status_text (dialog), ==, error->message);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
test_not_profiling (Fixture       *f,
                    gconstpointer  data)
{
  BlRecordDialog *dialog = open_dialog (f);

  /* everything but the profile can be recorded */
  g_assert_true (bl_record_dialog_get_can_record (dialog));
  g_assert_false (bl_record_dialog_get_capture_profile (dialog));
  g_assert_true (bl_record_dialog_get_capture_resources (dialog));
  g_assert_true (bl_record_dialog_get_capture_trace (dialog));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
test_record (Fixture       *f,
             gconstpointer  data)
{
  BlRecordingView *view = start_recording (f);
  g_autoptr(BlRecording) recording = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) folder = NULL;
  BlProfile *live = NULL;
  guint live_nodes = 0, n_marks, n_saved;
  const BlRecordingMark *marks;
  BlRecordingMarkKind kind;
  gint64 time_us;
  double x;

  folder = g_object_ref (bl_recording_view_get_folder (view));

  /* the flame graph gains nodes while the stream still runs */
  while ((live = bl_flame_graph_get_profile (bl_recording_view_get_flame_graph (view))) == NULL
         || bl_profile_get_n_nodes (live) == 0)
    g_main_context_iteration (NULL, TRUE);
  live_nodes = bl_profile_get_n_nodes (live);
  g_assert_cmpuint (bl_fake_roku_get_bytes_sent (f->roku), <, g_bytes_get_size (f->profile));

  /* its frames get widths once the measurements arrive */
  while (bl_flame_graph_get_layout (bl_recording_view_get_flame_graph (view)) == NULL
         || bl_flame_layout_get_n_rects (bl_flame_graph_get_layout (flame (view))) == 0)
    g_main_context_iteration (NULL, TRUE);
  /* … and are drawn: the root's bar at the bottom once laid out */
  while (bl_flame_graph_get_node_at (bl_recording_view_get_flame_graph (view), 10,
                                     gtk_widget_get_height (GTK_WIDGET (flame (view))) - 4)
         == BL_NODE_NONE)
    g_main_context_iteration (NULL, TRUE);

  /* the charts get samples, the trace its lanes */
  while (n_memory_samples (bl_timeline_get_session (bl_recording_view_get_timeline (view))) < 2)
    g_main_context_iteration (NULL, TRUE);
  while (bl_trace_timeline_get_n_lanes (bl_recording_view_get_trace_timeline (view)) == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (strstr (bl_recording_view_get_status_text (view), "Recording"));
  g_assert_cmpuint (bl_recording_view_get_bytes (view, BL_RECORDING_STREAM_PROFILE), >, 0);

  /* pause, resume, a heap graph: three marks on the axis */
  bl_recording_view_pause (view, TRUE);
  while (bl_recording_view_get_n_marks (view) < 1)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (bl_fake_roku_get_paused (f->roku));
  bl_recording_view_pause (view, FALSE);
  while (bl_recording_view_get_n_marks (view) < 2)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (bl_fake_roku_get_paused (f->roku));
  bl_recording_view_capture_heap_graph (view);
  while (bl_recording_view_get_n_marks (view) < 3)
    g_main_context_iteration (NULL, TRUE);
  bl_recording_view_ask_status (view);
  while (bl_recording_view_get_n_marks (view) < 4)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (bl_recording_view_get_mark (view, 3, &kind, NULL, NULL));
  g_assert_cmpint (kind, ==, BL_RECORDING_MARK_STATUS);

  g_assert_true (bl_recording_view_get_mark (view, 0, &kind, &time_us, NULL));
  g_assert_cmpint (kind, ==, BL_RECORDING_MARK_PAUSE);
  g_assert_cmpint (time_us, >, 0);
  g_assert_true (bl_recording_view_get_mark (view, 1, &kind, NULL, NULL));
  g_assert_cmpint (kind, ==, BL_RECORDING_MARK_RESUME);
  g_assert_true (bl_recording_view_get_mark (view, 2, &kind, NULL, NULL));
  g_assert_cmpint (kind, ==, BL_RECORDING_MARK_HEAP_GRAPH);
  /* drawn inside the charts */
  flush ();
  g_assert_true (bl_recording_view_get_mark (view, 2, NULL, NULL, &x));
  g_test_message ("mark at %.1f; view %d, timeline %d, lanes %d", x,
                  gtk_widget_get_width (GTK_WIDGET (view)),
                  gtk_widget_get_width (GTK_WIDGET (bl_recording_view_get_timeline (view))),
                  gtk_widget_get_width (GTK_WIDGET (bl_recording_view_get_trace_timeline (view))));
  g_assert_cmpfloat (x, >, 0);
  g_assert_cmpfloat (x, <=, gtk_widget_get_width (GTK_WIDGET (view)));

  /* the profile keeps growing until the app's end or Stop */
  while (view_nodes (view) == live_nodes
         && bl_fake_roku_get_bytes_sent (f->roku) < g_bytes_get_size (f->profile))
    g_main_context_iteration (NULL, TRUE);

  bl_recording_view_stop (view);
  wait_saved (view);
  g_assert_false (bl_recording_view_is_recording (view));
  g_assert_null (bl_recording_view_get_banner_text (view));

  /* the folder opens with the same figures */
  recording = bl_recording_load (folder, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (bl_recording_get_profile (recording));
  g_assert_cmpuint (bl_profile_get_n_nodes (bl_recording_get_profile (recording)), ==,
                    view_nodes (view));
  g_assert_cmpuint (n_memory_samples (bl_recording_get_session (recording)), ==,
                    view_samples (view));
  g_assert_cmpuint (n_memory_samples (bl_recording_get_session (recording)), >=, 2);
  g_assert_nonnull (bl_recording_get_trace (recording));
  marks = bl_recording_get_marks (recording, &n_saved);
  n_marks = bl_recording_view_get_n_marks (view);
  g_assert_cmpuint (n_saved, ==, 4);
  g_assert_cmpuint (n_marks, ==, 4);
  g_assert_cmpint (marks[0].kind, ==, BL_RECORDING_MARK_PAUSE);
  g_assert_cmpint (marks[2].kind, ==, BL_RECORDING_MARK_HEAP_GRAPH);
  g_assert_true (bl_recording_view_get_mark (view, 0, NULL, &time_us, NULL));
  g_assert_cmpint (marks[0].time_us, ==, time_us);
  g_assert_cmpint (bl_recording_get_info (recording)->end, ==, BL_RECORDING_END_STOPPED);

  /* opened as a file, the window shows the same view */
  {
    g_autoptr(GFile) manifest = g_file_get_child (folder, BL_RECORDING_MANIFEST_NAME);
    BlProfilePage *page = bl_window_open_file (f->window, manifest);
    GObject *document;

    while (bl_profile_page_get_state (page) == BL_PROFILE_PAGE_LOADING)
      g_main_context_iteration (NULL, TRUE);
    g_test_message ("%s", bl_profile_page_get_error_message (page));
    g_assert_cmpint (bl_profile_page_get_state (page), ==, BL_PROFILE_PAGE_LOADED);
    document = bl_profile_page_get_document (page);
    g_assert_true (BL_IS_RECORDING (document));
  }
  /* … and so does its folder (as `brightlens DIR` and a drop open it), in the same view */
  {
    BlProfilePage *page = bl_window_open_file (f->window, folder);
    GtkWidget *shown;

    while (bl_profile_page_get_state (page) == BL_PROFILE_PAGE_LOADING)
      g_main_context_iteration (NULL, TRUE);
    g_assert_cmpint (bl_profile_page_get_state (page), ==, BL_PROFILE_PAGE_LOADED);
    shown = test_find_widget (GTK_WIDGET (page), BL_TYPE_RECORDING_VIEW);
    g_assert_nonnull (shown);
    g_assert_cmpint (bl_recording_view_get_state (BL_RECORDING_VIEW (shown)), ==,
                     BL_RECORDING_VIEW_SAVED);
    g_assert_cmpuint (bl_recording_view_get_n_marks (BL_RECORDING_VIEW (shown)), ==, 4);
    g_assert_cmpuint (view_nodes (BL_RECORDING_VIEW (shown)), ==,
                      bl_profile_get_n_nodes (bl_recording_get_profile (recording)));
    g_assert_cmpuint (view_samples (BL_RECORDING_VIEW (shown)), ==,
                      n_memory_samples (bl_recording_get_session (recording)));
  }
  /* dropped on a recording's tab, a recording opens (no Open-or-Compare question) */
  {
    AdwTabView *tab_view = bl_window_get_tab_view (f->window);
    guint n = adw_tab_view_get_n_pages (tab_view);
    g_autoptr(GFile) copy = g_file_get_child (f->base, "copy");
    g_autoptr(GFile) manifest = g_file_get_child (folder, BL_RECORDING_MANIFEST_NAME);
    g_autoptr(GFile) copied = g_file_get_child (copy, BL_RECORDING_MANIFEST_NAME);

    /* another recording: its manifest alone opens too */
    g_assert_true (g_file_make_directory (copy, NULL, NULL));
    g_assert_true (g_file_copy (manifest, copied, G_FILE_COPY_NONE, NULL, NULL, NULL, NULL));
    g_assert_true (drop_file (GTK_WIDGET (f->window), copy));
    flush ();
    g_assert_null (bl_alert_find (GTK_WINDOW (f->window)));
    g_assert_cmpuint (adw_tab_view_get_n_pages (tab_view), ==, n + 1);
    remove_tree (copy);
  }

  remove_tree (folder);
}

static void
test_vanish (Fixture       *f,
             gconstpointer  data)
{
  BlRecordingView *view;
  g_autoptr(BlRecording) recording = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) folder = NULL;
  const char *banner;

  bl_fake_roku_set_vanish_after (f->roku, 40000);
  view = start_recording (f);
  folder = g_object_ref (bl_recording_view_get_folder (view));
  wait_saved (view);

  /* the banner says so, the tab stays usable */
  banner = bl_recording_view_get_banner_text (view);
  g_assert_nonnull (banner);
  g_assert_cmpuint (strlen (banner), >, 20);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view)));
  g_assert_true (bl_fake_roku_get_vanished (f->roku));

  recording = bl_recording_load (folder, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (bl_recording_get_info (recording)->end, ==, BL_RECORDING_END_DEVICE_LOST);
  g_assert_nonnull (bl_recording_get_profile (recording));
  g_assert_cmpuint (bl_profile_get_n_nodes (bl_recording_get_profile (recording)), >, 0);

  remove_tree (folder);
}

static void
test_close_asks (Fixture       *f,
                 gconstpointer  data)
{
  BlRecordingView *view = start_recording (f);
  AdwTabView *tab_view = bl_window_get_tab_view (f->window);
  g_autoptr(BlRecording) recording = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) folder = g_object_ref (bl_recording_view_get_folder (view));
  GObject *alert;

  adw_tab_view_close_page (tab_view, adw_tab_view_get_page (tab_view, GTK_WIDGET (view)));
  flush ();
  alert = bl_alert_find (GTK_WINDOW (f->window));
  g_assert_nonnull (alert);
  g_assert_cmpuint (adw_tab_view_get_n_pages (tab_view), ==, 1);

  /* Keep Recording: nothing changes */
  bl_alert_respond (alert, "cancel");
  flush ();
  g_assert_cmpuint (adw_tab_view_get_n_pages (tab_view), ==, 1);
  g_assert_true (bl_recording_view_is_recording (view));

  adw_tab_view_close_page (tab_view, adw_tab_view_get_page (tab_view, GTK_WIDGET (view)));
  flush ();
  alert = bl_alert_find (GTK_WINDOW (f->window));
  g_assert_nonnull (alert);
  bl_alert_respond (alert, "stop");
  while (adw_tab_view_get_n_pages (tab_view) > 0)
    g_main_context_iteration (NULL, TRUE);

  recording = bl_recording_load (folder, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (bl_recording_get_info (recording)->end, ==, BL_RECORDING_END_STOPPED);

  remove_tree (folder);
}

/* Closing the window while a tab records asks too; Stop and Close waits for
 * the files, then the window goes. */
static void
test_close_window_asks (Fixture       *f,
                        gconstpointer  data)
{
  BlRecordingView *view = start_recording (f);
  g_autoptr(BlRecording) recording = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) folder = g_object_ref (bl_recording_view_get_folder (view));
  GtkWidget *window = GTK_WIDGET (f->window);
  GObject *alert;

  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  gtk_window_close (GTK_WINDOW (f->window));
  flush ();
  g_assert_nonnull (window);
  alert = bl_alert_find (GTK_WINDOW (f->window));
  g_assert_nonnull (alert);

  /* Keep Recording: nothing changes */
  bl_alert_respond (alert, "cancel");
  flush ();
  g_assert_nonnull (window);
  g_assert_true (gtk_widget_get_visible (window));
  g_assert_true (bl_recording_view_is_recording (view));

  gtk_window_close (GTK_WINDOW (f->window));
  flush ();
  alert = bl_alert_find (GTK_WINDOW (f->window));
  g_assert_nonnull (alert);
  bl_alert_respond (alert, "stop");
  while (window != NULL && gtk_widget_get_visible (window))
    g_main_context_iteration (NULL, TRUE);

  recording = bl_recording_load (folder, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (bl_recording_get_info (recording)->end, ==, BL_RECORDING_END_STOPPED);
  remove_tree (folder);

  /* the fixture's teardown closes a window of its own */
  if (window != NULL)
    g_object_remove_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  f->window = bl_window_new (GTK_APPLICATION (app));
}

static void
set_true (gpointer data)
{
  *(gboolean *) data = TRUE;
}

/* the lanes start and end where the charts' plots do */
static void
assert_lanes_aligned (BlRecordingView *view)
{
  BlTimeline *charts = bl_recording_view_get_timeline (view);
  BlTraceTimeline *lanes = bl_recording_view_get_trace_timeline (view);
  gint64 vs, ve;
  double ts, te;
  graphene_point_t c0, c1, l0, l1;

  bl_time_axis_get_visible (bl_timeline_get_axis (charts), &vs, &ve);
  bl_trace_timeline_get_visible_range (lanes, &ts, &te);
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (charts), GTK_WIDGET (view),
                                           &GRAPHENE_POINT_INIT (bl_timeline_time_to_x (charts, vs), 0),
                                           &c0));
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (charts), GTK_WIDGET (view),
                                           &GRAPHENE_POINT_INIT (bl_timeline_time_to_x (charts, ve), 0),
                                           &c1));
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (lanes), GTK_WIDGET (view),
                                           &GRAPHENE_POINT_INIT (bl_trace_timeline_time_to_x (lanes, ts), 0),
                                           &l0));
  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (lanes), GTK_WIDGET (view),
                                           &GRAPHENE_POINT_INIT (bl_trace_timeline_time_to_x (lanes, te), 0),
                                           &l1));
  g_test_message ("charts %.0f–%.0f, lanes %.0f–%.0f", c0.x, c1.x, l0.x, l1.x);
  g_assert_cmpfloat (fabs (c0.x - l0.x), <=, 2);
  g_assert_cmpfloat (fabs (c1.x - l1.x), <=, 2);
}

/* a few frames: a realignment after an allocation is laid out in the next one */
static void
wait_frames (GtkWidget *widget)
{
  while (gtk_widget_get_width (widget) == 0)
    g_main_context_iteration (NULL, TRUE);
  for (guint frame = 0; frame < 5; frame++)
    {
      gboolean done = FALSE;

      g_timeout_add_once (50, set_true, &done);
      while (!done)
        g_main_context_iteration (NULL, TRUE);
    }
  flush ();
}

/* The recording tab fits 1280×720 and works at 800×600: the window keeps its size. */
static void
test_sizes (Fixture       *f,
            gconstpointer  data)
{
  static const int sizes[][2] = { { 1366, 768 }, { 1280, 720 }, { 800, 600 } };
  BlRecordingView *view = start_recording (f);
  g_autoptr(GFile) folder = g_object_ref (bl_recording_view_get_folder (view));
  int min_width, min_height, frame_w, frame_h;

  while (bl_trace_timeline_get_n_lanes (bl_recording_view_get_trace_timeline (view)) == 0)
    g_main_context_iteration (NULL, TRUE);

  gtk_widget_measure (GTK_WIDGET (view), GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL,
                      NULL, NULL);
  gtk_widget_measure (GTK_WIDGET (view), GTK_ORIENTATION_VERTICAL, min_width, &min_height, NULL,
                      NULL, NULL);
  g_test_message ("recording tab minimum %d×%d", min_width, min_height);
  g_assert_cmpint (min_width, <=, 800);
  g_assert_cmpint (min_height, <=, 600 - 100);   /* the header bar and the tab bar */

  /* the window's widget is its default size less the frame drawn around it */
  frame_w = 1280 - gtk_widget_get_width (GTK_WIDGET (f->window));
  frame_h = 720 - gtk_widget_get_height (GTK_WIDGET (f->window));
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      gtk_window_set_default_size (GTK_WINDOW (f->window), sizes[i][0], sizes[i][1]);
      while (gtk_widget_get_width (GTK_WIDGET (f->window)) != sizes[i][0] - frame_w
             || gtk_widget_get_height (GTK_WIDGET (f->window)) != sizes[i][1] - frame_h)
        g_main_context_iteration (NULL, TRUE);
      flush ();
      /* the tab takes the window's width and what the bars leave of its height */
      g_test_message ("%d×%d: tab %d×%d", sizes[i][0], sizes[i][1],
                      gtk_widget_get_width (GTK_WIDGET (view)),
                      gtk_widget_get_height (GTK_WIDGET (view)));
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (view)), ==,
                       gtk_widget_get_width (GTK_WIDGET (f->window)));
      g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (view)), >=, sizes[i][1] - 120);
      assert_lanes_aligned (view);
    }

  /* the dialog fits 800×600 too */
  {
    BlRecordDialog *dialog = bl_record_dialog_new (GTK_WINDOW (f->window));
    int dw, dh;

    gtk_widget_measure (GTK_WIDGET (dialog), GTK_ORIENTATION_HORIZONTAL, -1, &dw, NULL, NULL, NULL);
    gtk_widget_measure (GTK_WIDGET (dialog), GTK_ORIENTATION_VERTICAL, dw, &dh, NULL, NULL, NULL);
    g_test_message ("dialog minimum %d×%d", dw, dh);
    g_assert_cmpint (dw, <=, 800);
    g_assert_cmpint (dh, <=, 600);
    gtk_window_destroy (GTK_WINDOW (dialog));
  }

  bl_recording_view_stop (view);
  wait_saved (view);

  /* the saved recording opened again: its view is laid out after it is given
   * the recording, and the lanes still line up with the charts */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(BlRecording) recording = bl_recording_load (folder, NULL, &error);
    BlRecordingView *again;
    GtkWidget *window;

    g_assert_no_error (error);
    again = bl_recording_view_new ();
    bl_recording_view_set_recording (again, recording);
    window = gtk_window_new ();
    gtk_window_set_default_size (GTK_WINDOW (window), 1100, 700);
    gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (again));
    gtk_window_present (GTK_WINDOW (window));
    wait_frames (GTK_WIDGET (again));
    assert_lanes_aligned (again);
    gtk_window_destroy (GTK_WINDOW (window));
  }
  remove_tree (folder);
}

/* seconds from m:ss ("1:05" → 65), or -1 */
static int
parse_m_ss (const char *text)
{
  g_auto(GStrv) parts = g_strsplit (text, ":", -1);
  guint64 m, s;

  if (g_strv_length (parts) != 2 || strlen (parts[1]) != 2
      || !g_ascii_string_to_unsigned (parts[0], 10, 0, 600, &m, NULL)
      || !g_ascii_string_to_unsigned (parts[1], 10, 0, 59, &s, NULL))
    return -1;
  return (int) (m * 60 + s);
}

/* The lanes' ruler reads as the charts' one (m:ss from the recording's
 * start, a label on the same x as the charts' tick of that second), and
 * the marks' flags cover neither ruler's labels. */
static void
assert_rulers (BlRecordingView *view)
{
  BlTimeline *charts = bl_recording_view_get_timeline (view);
  BlTraceTimeline *lanes = bl_recording_view_get_trace_timeline (view);
  graphene_rect_t charts_box;
  gint64 start_ms, vs;
  int last = -1, step = 0;
  guint n_labels = 0, n_flags = 0;

  bl_time_axis_get_bounds (bl_timeline_get_axis (charts), &start_ms, NULL);
  bl_time_axis_get_visible (bl_timeline_get_axis (charts), &vs, NULL);
  {
    double ts, te;

    bl_trace_timeline_get_visible_range (lanes, &ts, &te);
    g_test_message ("lanes %d px wide, %.0f–%.0f ns shown",
                    gtk_widget_get_width (GTK_WIDGET (lanes)), ts, te);
  }
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (charts), GTK_WIDGET (view), &charts_box));

  for (guint i = 0;; i++)
    {
      double x;
      g_autofree char *label = bl_trace_timeline_dup_ruler_label (lanes, i, &x);
      graphene_point_t at, tick;
      int seconds;

      if (label == NULL)
        break;
      n_labels++;
      seconds = parse_m_ss (label);
      g_test_message ("lanes' ruler label %u: “%s” at %.1f", i, label, x);
      g_assert_cmpint (seconds, >=, 0);
      /* whole steps of the charts' table, increasing */
      if (last >= 0 && step == 0)
        step = seconds - last;
      else if (last >= 0)
        g_assert_cmpint (seconds - last, ==, step);
      last = seconds;
      if (i == 0 && vs == start_ms)
        g_assert_cmpstr (label, ==, "0:00");

      /* where the charts draw the tick of that second */
      g_assert_true (gtk_widget_compute_point (GTK_WIDGET (lanes), GTK_WIDGET (view),
                                               &GRAPHENE_POINT_INIT (x - 3, 0), &at));
      g_assert_true (gtk_widget_compute_point (GTK_WIDGET (charts), GTK_WIDGET (view),
                                               &GRAPHENE_POINT_INIT (bl_timeline_time_to_x (
                                                 charts, start_ms + seconds * 1000), 0),
                                               &tick));
      g_assert_cmpfloat (fabs (at.x - tick.x), <=, 2);

      /* no flag over it */
      for (guint m = 0; m < bl_recording_view_get_n_marks (view); m++)
        {
          g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (lanes),
                                                                          label);
          graphene_rect_t flag, box;
          int w, h;

          if (!bl_recording_view_get_mark_flag (view, m, &flag))
            continue;
          pango_layout_get_pixel_size (layout, &w, &h);
          graphene_rect_init (&box, at.x + 3, at.y, w, bl_trace_timeline_get_ruler_height (lanes));
          g_assert_false (graphene_rect_intersection (&flag, &box, NULL));
        }
    }
  g_assert_cmpuint (n_labels, >=, 2);
  g_assert_cmpint (step, >, 0);

  /* the flags are in their own row, above the charts and their ruler, and
   * do not cover each other */
  for (guint m = 0; m < bl_recording_view_get_n_marks (view); m++)
    {
      graphene_rect_t flag;

      if (!bl_recording_view_get_mark_flag (view, m, &flag))
        continue;
      n_flags++;
      for (guint o = 0; o < m; o++)
        {
          graphene_rect_t other;

          if (bl_recording_view_get_mark_flag (view, o, &other))
            g_assert_false (graphene_rect_intersection (&flag, &other, NULL));
        }
      g_test_message ("flag %u: %.0f,%.0f %.0f×%.0f; charts from y %.0f", m, flag.origin.x,
                      flag.origin.y, flag.size.width, flag.size.height, charts_box.origin.y);
      g_assert_cmpfloat (flag.size.width, >, 0);
      g_assert_cmpfloat (flag.origin.y + flag.size.height, <=, charts_box.origin.y);
    }
  g_assert_cmpuint (n_flags, ==, bl_recording_view_get_n_marks (view));
}

/* A recording with marks: live and saved, at 1280×720 and 800×600, one
 * time axis and one label format, flags clear of the rulers. */
static void
test_rulers (Fixture       *f,
             gconstpointer  data)
{
  static const int sizes[][2] = { { 1280, 720 }, { 800, 600 } };
  BlRecordingView *view = start_recording (f);
  g_autoptr(GFile) folder = g_object_ref (bl_recording_view_get_folder (view));
  g_autoptr(GError) error = NULL;
  g_autoptr(BlRecording) recording = NULL;

  while (n_memory_samples (bl_timeline_get_session (bl_recording_view_get_timeline (view))) < 2
         || bl_trace_timeline_get_n_lanes (bl_recording_view_get_trace_timeline (view)) == 0)
    g_main_context_iteration (NULL, TRUE);
  bl_recording_view_pause (view, TRUE);
  while (bl_recording_view_get_n_marks (view) < 1)
    g_main_context_iteration (NULL, TRUE);
  bl_recording_view_pause (view, FALSE);
  while (bl_recording_view_get_n_marks (view) < 2)
    g_main_context_iteration (NULL, TRUE);
  wait_frames (GTK_WIDGET (bl_recording_view_get_trace_timeline (view)));
  assert_rulers (view);

  bl_recording_view_stop (view);
  wait_saved (view);

  /* saved and opened again, at both sizes */
  recording = bl_recording_load (folder, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      BlRecordingView *again = bl_recording_view_new ();
      GtkWidget *window = gtk_window_new ();

      bl_recording_view_set_recording (again, recording);
      gtk_window_set_default_size (GTK_WINDOW (window), sizes[i][0], sizes[i][1]);
      gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (again));
      gtk_window_present (GTK_WINDOW (window));
      wait_frames (GTK_WIDGET (bl_recording_view_get_trace_timeline (again)));
      g_test_message ("%d×%d", sizes[i][0], sizes[i][1]);
      g_assert_cmpuint (bl_recording_view_get_n_marks (again), ==, 2);
      assert_rulers (again);
      gtk_window_destroy (GTK_WINDOW (window));
    }
  remove_tree (folder);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  const char *dirs[] = { "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME",
                         "XDG_STATE_HOME", "XDG_RUNTIME_DIR" };
  int status;

  tmp_root = g_dir_make_tmp ("test-window-record-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *dir = g_build_filename (tmp_root, dirs[i], NULL);

      g_mkdir_with_parents (dir, 0700);
      g_setenv (dirs[i], dir, TRUE);
    }
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);

  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    g_error ("No display: widget tests need one (run them under xvfb-run)");
  adw_init ();
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  app = bl_application_new ();
  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

#define ADD(name, mode, func) \
  g_test_add ("/widgets/window-record/" name, Fixture, GINT_TO_POINTER (mode), \
              fixture_setup, func, fixture_teardown)
  ADD ("search", BL_FAKE_ROKU_NORMAL, test_search);
  ADD ("developer-off", BL_FAKE_ROKU_DEVELOPER_OFF, test_refusal);
  ADD ("limited", BL_FAKE_ROKU_LIMITED, test_refusal);
  ADD ("not-sideloaded", BL_FAKE_ROKU_NOT_SIDELOADED, test_refusal);
  ADD ("not-profiling", BL_FAKE_ROKU_NOT_PROFILING, test_not_profiling);
  ADD ("record", BL_FAKE_ROKU_NORMAL, test_record);
  ADD ("vanish", BL_FAKE_ROKU_NORMAL, test_vanish);
  ADD ("close-asks", BL_FAKE_ROKU_NORMAL, test_close_asks);
  ADD ("close-window-asks", BL_FAKE_ROKU_NORMAL, test_close_window_asks);
  ADD ("sizes", BL_FAKE_ROKU_NORMAL, test_sizes);
  ADD ("rulers", BL_FAKE_ROKU_NORMAL, test_rulers);
#undef ADD

  status = g_test_run ();
  g_clear_object (&app);

  {
    g_autoptr(GFile) root = g_file_new_for_path (tmp_root);

    remove_tree (root);
  }
  g_free (tmp_root);

  return status;
}
