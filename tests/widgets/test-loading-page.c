/* test-loading-page.c — while a file loads, the window paints only when
 * what the progress shows changes: no animation (spinner, pulse) repaints
 * it while nothing new has been read
 *
 * The file is a FIFO whose writer, a thread of the test, stops halfway
 * until the test lets it go on.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bl-bsprof-writer.h"
#include "bl-profile-page.h"
#include "bl-profile-view.h"

typedef struct
{
  char    *path;
  GBytes  *bytes;
  GMutex   lock;
  GCond    cond;
  gboolean go_on;
  gboolean reader_may_leave;   /* the second half may find no reader */
} Feeder;

static guint n_paints;

static void
after_paint_cb (GdkFrameClock *clock,
                gpointer       data)
{
  n_paints++;
}

static gboolean
write_all (int           fd,
           const guint8 *data,
           gsize         n)
{
  while (n > 0)
    {
      gssize w = write (fd, data, n);

      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        return FALSE;
      data += w;
      n -= w;
    }

  return TRUE;
}

static gpointer
feed (gpointer data)
{
  Feeder *f = data;
  gsize n;
  const guint8 *bytes = g_bytes_get_data (f->bytes, &n);
  int fd = open (f->path, O_WRONLY);   /* waits for the reader */

  g_assert_cmpint (fd, >=, 0);
  g_assert_true (write_all (fd, bytes, n / 2));

  g_mutex_lock (&f->lock);
  while (!f->go_on)
    g_cond_wait (&f->cond, &f->lock);
  g_mutex_unlock (&f->lock);

  if (!write_all (fd, bytes + n / 2, n - n / 2))
    g_assert_true (f->reader_may_leave);
  close (fd);

  return NULL;
}

/* Lets the feeder write the second half. */
static void
feeder_go_on (Feeder *f)
{
  g_mutex_lock (&f->lock);
  f->go_on = TRUE;
  g_cond_signal (&f->cond);
  g_mutex_unlock (&f->lock);
}

static void
feeder_clear (Feeder *f)
{
  g_unlink (f->path);
  g_free (f->path);
  g_bytes_unref (f->bytes);
  g_mutex_clear (&f->lock);
  g_cond_clear (&f->cond);
}

static GBytes *
make_profile (void)
{
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  h.target = "Pipe";
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "Main");
  bl_bsprof_writer_string (w, 4, "render");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 3);
  bl_bsprof_writer_path (w, 2, 1, 3, 2, 10, 4);
  /* enough entries that half of them is a few pipe buffers */
  for (guint i = 0; i < 100000; i++)
    bl_bsprof_writer_cpu (w, 2, 0, 300, 400);
  bl_bsprof_writer_end (w, 5);

  return bl_bsprof_writer_finish (w);
}

/* make_profile() in DIR/plain.bsprof; returns its path */
static char *
write_plain_profile (const char *dir)
{
  g_autoptr(GBytes) bytes = make_profile ();
  char *path = g_build_filename (dir, "plain.bsprof", NULL);

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      g_bytes_get_size (bytes), NULL));

  return path;
}

static void
iterate_for (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static gboolean
loaded (BlProfilePage *page)
{
  gint64 end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while (bl_profile_page_get_state (page) == BL_PROFILE_PAGE_LOADING &&
         g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }

  return bl_profile_page_get_state (page) == BL_PROFILE_PAGE_LOADED;
}

static void
test_no_paints_while_waiting (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-loading-page-XXXXXX", NULL);
  g_autoptr(GFile) file = NULL;
  Feeder f = { 0 };
  GtkWidget *window;
  BlProfilePage *page;
  GdkFrameClock *clock;
  GThread *thread;
  guint waiting_paints;

  g_assert_nonnull (dir);
  f.path = g_build_filename (dir, "pipe.bsprof", NULL);
  g_assert_cmpint (mkfifo (f.path, 0600), ==, 0);
  f.bytes = make_profile ();
  g_mutex_init (&f.lock);
  g_cond_init (&f.cond);
  file = g_file_new_for_path (f.path);

  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  page = bl_profile_page_new (file);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_mapped (window))
    g_main_context_iteration (NULL, TRUE);
  clock = gtk_widget_get_frame_clock (window);
  g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), NULL);

  thread = g_thread_new ("feeder", feed, &f);
  bl_profile_page_load (page);

  /* the loading page shows itself and what was read */
  iterate_for (1200);
  g_assert_cmpint (bl_profile_page_get_state (page), ==, BL_PROFILE_PAGE_LOADING);
  g_assert_cmpuint (n_paints, >=, 1);

  /* nothing new read for two seconds: nothing painted */
  n_paints = 0;
  iterate_for (2000);
  waiting_paints = n_paints;
  g_assert_cmpuint (waiting_paints, ==, 0);

  /* the rest arrives: the profile shows */
  feeder_go_on (&f);
  g_assert_true (loaded (page));
  g_thread_join (thread);
  g_assert_nonnull (bl_profile_page_get_profile (page));

  g_signal_handlers_disconnect_by_func (clock, after_paint_cb, NULL);
  gtk_window_destroy (GTK_WINDOW (window));
  feeder_clear (&f);
  g_rmdir (dir);
}

static void
cancelled_cb (BlProfilePage *page,
              gboolean      *cancelled)
{
  *cancelled = TRUE;
}

/* bl_profile_page_new_loading() starts the worker before it makes the
 * page: the page is loading at once, shows the profile when it is read,
 * can be cancelled, and a page dropped while its file loads is freed once
 * the worker is done. */
static void
test_new_loading (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-loading-page-XXXXXX", NULL);
  g_autofree char *path = write_plain_profile (dir);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) pipe = NULL;
  BlProfilePage *page;
  BlProfilePage *dropped;
  gboolean cancelled = FALSE;
  Feeder f = { 0 };
  GThread *thread;

  /* read to the end */
  page = g_object_ref_sink (bl_profile_page_new_loading (file));
  g_assert_cmpint (bl_profile_page_get_state (page), ==, BL_PROFILE_PAGE_LOADING);
  g_assert_true (loaded (page));
  g_assert_cmpint (bl_profile_page_get_state (page), ==, BL_PROFILE_PAGE_LOADED);
  g_assert_cmpuint (bl_profile_get_n_nodes (bl_profile_page_get_profile (page)), ==, 3);
  g_object_unref (page);

  /* cancelled halfway */
  signal (SIGPIPE, SIG_IGN);
  f.path = g_build_filename (dir, "pipe.bsprof", NULL);
  g_assert_cmpint (mkfifo (f.path, 0600), ==, 0);
  f.bytes = make_profile ();
  f.reader_may_leave = TRUE;
  g_mutex_init (&f.lock);
  g_cond_init (&f.cond);
  pipe = g_file_new_for_path (f.path);
  thread = g_thread_new ("feeder", feed, &f);
  page = g_object_ref_sink (bl_profile_page_new_loading (pipe));
  g_signal_connect (page, "cancelled", G_CALLBACK (cancelled_cb), &cancelled);
  /* half of it read (a pipe has no size to give a fraction) */
  iterate_for (500);
  g_assert_cmpint (bl_profile_page_get_state (page), ==, BL_PROFILE_PAGE_LOADING);
  bl_profile_page_cancel (page);
  /* the worker sees it once its read of the pipe returns */
  feeder_go_on (&f);
  g_assert_false (loaded (page));
  g_assert_cmpint (bl_profile_page_get_state (page), ==, BL_PROFILE_PAGE_FAILED);
  g_assert_true (cancelled);
  g_assert_cmpstr (bl_profile_page_get_error_message (page), ==, "Loading was cancelled.");
  g_thread_join (thread);
  g_object_unref (page);

  /* dropped before the main loop ever ran: freed when the worker is done */
  dropped = g_object_ref_sink (bl_profile_page_new_loading (file));
  g_object_add_weak_pointer (G_OBJECT (dropped), (gpointer *) &dropped);
  g_object_unref (dropped);
  for (guint i = 0; i < 3000 && dropped != NULL; i++)
    iterate_for (10);
  g_assert_null (dropped);

  feeder_clear (&f);
  g_unlink (path);
  g_rmdir (dir);
}

/* A tab closed as soon as its file is read, while its flame graph's layout
 * is still being made: the layout arrives to a graph whose view is gone,
 * which must not call the view back (it did: a critical, and a freed view
 * used). */
static void
test_closed_as_it_loads (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-loading-page-XXXXXX", NULL);
  g_autofree char *path = write_plain_profile (dir);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  BlProfileView *view;
  GtkWidget *window;
  BlProfilePage *page;
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  page = bl_profile_page_new_loading (file);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));
  view = bl_profile_page_get_profile_view (page);
  g_object_add_weak_pointer (G_OBJECT (view), (gpointer *) &view);
  g_assert_true (loaded (page));
  gtk_window_destroy (GTK_WINDOW (window));
  iterate_for (500);
  g_assert_null (view);

  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  static const char *mime_dirs[] = { "/usr/local/share/mime", "/usr/share/mime", NULL };

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  /* the isolated XDG dirs hide the MIME database that the image loaders
   * need to recognise GTK's own SVG icons */
  g_content_type_set_mime_dirs (mime_dirs);

  if (!gtk_init_check ())
    g_error ("No display: widget tests need one (run them under xvfb-run)");
  adw_init ();

  g_test_add_func ("/loading-page/no-paints-while-waiting", test_no_paints_while_waiting);
  g_test_add_func ("/loading-page/new-loading", test_new_loading);
  g_test_add_func ("/loading-page/closed-as-it-loads", test_closed_as_it_loads);

  return g_test_run ();
}
