/* main.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "brightlens"

#include "config.h"

#include <gio/gunixinputstream.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <unistd.h>

#include "bl-application.h"
#include "bl-slice.h"

/* `brightlens -` (a pipe included): the window opens files, possibly in an
 * instance that is already running and cannot read our standard input, so
 * the bytes go to a private folder first, as they are (still compressed if
 * they were), and that file is opened instead. */
static char *
save_stdin (GError **error)
{
  g_autoptr(GInputStream) in = g_unix_input_stream_new (STDIN_FILENO, FALSE);
  g_autoptr(GFileOutputStream) out = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;

  if (!(dir = g_dir_make_tmp ("brightlens-stdin-XXXXXX", error)))
    return NULL;
  /* Translators: the name under which standard input is shown */
  path = g_build_filename (dir, _("standard input"), NULL);
  file = g_file_new_for_path (path);

  if (!(out = g_file_create (file, G_FILE_CREATE_PRIVATE, NULL, error)) ||
      g_output_stream_splice (G_OUTPUT_STREAM (out), in,
                              G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, error) < 0)
    {
      g_unlink (path);
      g_rmdir (dir);
      return NULL;
    }

  return g_steal_pointer (&path);
}

/* "startup" runs in the primary instance only */
static void
note_primary (GApplication *application,
              gpointer      user_data)
{
  *(gboolean *) user_data = TRUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(BlApplication) app = NULL;
  g_autofree char *stdin_copy = NULL;
  gboolean options_done = FALSE;
  gboolean primary = FALSE;
  int status;

  /* on GLib < 2.76: again, with malloc for GLib's slices (bl-slice.c) */
  bl_slice_reexec (argv);

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("Brightlens"));

  for (int i = 1; i < argc; i++)
    {
      if (!options_done && g_str_equal (argv[i], "--"))
        options_done = TRUE;
      else if (g_str_equal (argv[i], "-") && stdin_copy == NULL)
        {
          g_autoptr(GError) error = NULL;

          if (!(stdin_copy = save_stdin (&error)))
            {
              g_printerr ("brightlens: %s\n", error->message);
              return 1;
            }
          argv[i] = stdin_copy;
        }
    }

  app = bl_application_new ();
  g_signal_connect (app, "startup", G_CALLBACK (note_primary), &primary);

  status = g_application_run (G_APPLICATION (app), argc, argv);

  /* the primary instance is done with the copy; when it went to another
   * instance, that one removes it once read (bl-profile-page.c) */
  if (stdin_copy != NULL && primary)
    {
      g_autofree char *dir = g_path_get_dirname (stdin_copy);

      g_unlink (stdin_copy);
      g_rmdir (dir);
    }

  return status;
}
