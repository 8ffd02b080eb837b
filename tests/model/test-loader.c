/* test-loader.c — BlLoader: worker-thread load, progress, cancel, errors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "bl-bsprof-writer.h"
#include "bl-model.h"

typedef struct
{
  GMainLoop *loop;
  GObject   *result;
  GError    *error;
  guint      notifies;
} LoadState;

static char *
write_profile (const char *dir,
               guint       n_entries)
{
  char *path = g_build_filename (dir, "big.bsprof", NULL);
  g_autoptr(GError) error = NULL;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 0, 1, 1);
  for (guint i = 0; i < n_entries; i++)
    bl_bsprof_writer_cpu (w, 1, 0, 3, 4);
  bl_bsprof_writer_end (w, 5);
  bl_bsprof_writer_save (w, path, &error);
  g_assert_no_error (error);
  bl_bsprof_writer_free (w);

  return path;
}

static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  LoadState *state = user_data;

  state->result = bl_loader_load_finish (BL_LOADER (source), result, &state->error);
  g_main_loop_quit (state->loop);
}

static void
on_fraction (GObject    *object,
             GParamSpec *pspec,
             gpointer    user_data)
{
  LoadState *state = user_data;
  double fraction = bl_loader_get_fraction (BL_LOADER (object));

  g_assert_cmpfloat (fraction, >=, 0.0);
  g_assert_cmpfloat (fraction, <=, 1.0);
  state->notifies++;
}

static void
test_async_load (void)
{
  g_autofree char *dir = g_dir_make_tmp ("bl-loader-XXXXXX", NULL);
  g_autofree char *path = write_profile (dir, 3000000);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(BlLoader) loader = bl_loader_new (file);
  LoadState state = { 0, };

  state.loop = g_main_loop_new (NULL, FALSE);
  g_signal_connect (loader, "notify::fraction", G_CALLBACK (on_fraction), &state);
  bl_loader_load_async (loader, NULL, on_loaded, &state);
  g_main_loop_run (state.loop);

  g_assert_no_error (state.error);
  g_assert_true (BL_IS_PROFILE (state.result));
  g_assert_cmpuint (bl_profile_get_grand_total (BL_PROFILE (state.result), BL_METRIC_CPU),
                    ==, 9000000);
  g_assert_cmpuint (state.notifies, >, 0);
  g_assert_cmpuint (bl_loader_get_total (loader), >, 0);

  g_clear_object (&state.result);
  g_main_loop_unref (state.loop);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_async_cancel (void)
{
  g_autofree char *dir = g_dir_make_tmp ("bl-loader-XXXXXX", NULL);
  g_autofree char *path = write_profile (dir, 100);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(BlLoader) loader = bl_loader_new (file);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  LoadState state = { 0, };

  state.loop = g_main_loop_new (NULL, FALSE);
  g_cancellable_cancel (cancellable);
  bl_loader_load_async (loader, cancellable, on_loaded, &state);
  g_main_loop_run (state.loop);

  g_assert_null (state.result);
  g_assert_error (state.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  g_clear_error (&state.error);
  g_main_loop_unref (state.loop);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_unknown_and_missing (void)
{
  g_autofree char *dir = g_dir_make_tmp ("bl-loader-XXXXXX", NULL);
  g_autofree char *text = g_build_filename (dir, "notes.txt", NULL);
  g_autofree char *json = g_build_filename (dir, "x.json", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.bsprof", NULL);
  const char *paths[] = { text, json, empty, missing };
  const char *needles[] = { "text file", "JSON file", "empty", NULL };

  g_file_set_contents (text, "just some\nprose here\n", -1, NULL);
  g_file_set_contents (json, "[1, 2, 3]", -1, NULL);
  g_file_set_contents (empty, "", 0, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (paths[i]);
      g_autoptr(BlLoader) loader = bl_loader_new (file);
      g_autoptr(GError) error = NULL;
      g_autoptr(GObject) result = bl_loader_load (loader, NULL, &error);

      g_assert_null (result);
      g_assert_nonnull (error);
      if (needles[i] != NULL)
        g_assert_nonnull (strstr (error->message, needles[i]));
      else
        g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
    }

  g_unlink (text);
  g_unlink (json);
  g_unlink (empty);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/loader/async-load", test_async_load);
  g_test_add_func ("/model/loader/async-cancel", test_async_cancel);
  g_test_add_func ("/model/loader/unknown-and-missing", test_unknown_and_missing);

  return g_test_run ();
}
