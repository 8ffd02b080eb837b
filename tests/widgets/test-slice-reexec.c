/* test-slice-reexec.c — on GLib < 2.76 the program executes itself once
 * more with G_SLICE=always-malloc (bl-slice.c): the same process, the same
 * arguments and the same environment, and never when the user set G_SLICE
 *
 * The test runs this very program as a child with "--child": the child
 * prints a "start" line with its process id as soon as main() begins (so a
 * re-executed child prints two), calls bl_slice_reexec() as the app's
 * main() does, then prints its arguments, two variables and whether a
 * freed slice went back to malloc.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bl-slice.h"

static const char *child_args[] = {
  "--child", "two words", "", "--gapplication-service", "-", "Grüße;\t\"quoted\"", NULL,
};

static char *self_path;

static int
child_main (int    argc,
            char **argv)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *comm = NULL;
  gpointer block;
  gpointer again;

  bl_slice_reexec (argv);

  for (int i = 2; i < argc; i++)
    g_string_append_printf (out, "arg %s\n", argv[i]);
  g_string_append_printf (out, "G_SLICE %s\n", g_getenv ("G_SLICE") ? g_getenv ("G_SLICE") : "(unset)");
  g_string_append_printf (out, "BL_TEST_MARK %s\n",
                          g_getenv ("BL_TEST_MARK") ? g_getenv ("BL_TEST_MARK") : "(unset)");
  /* the process keeps its name ("exe" if /proc/self/exe were executed) */
  if (g_file_get_contents ("/proc/self/comm", &comm, NULL, NULL))
    g_string_append_printf (out, "comm %s", comm);
  /* g_slice_get_config() reports GLib's defaults, not what G_SLICE chose;
   * what shows it is where a freed slice goes: with always-malloc back to
   * malloc, whose next block of that size is the same one, with GLib's own
   * slices into a magazine that malloc never sees */
  block = g_slice_alloc (24);
  g_slice_free1 (24, block);
  again = malloc (24);
  g_string_append_printf (out, "freed slices go to malloc %d\n", again == block);
  free (again);
  fputs (out->str, stdout);

  return 0;
}

/* runs the child with @g_slice as G_SLICE (NULL: unset); returns its output */
static char *
run_child (const char *g_slice)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int status;

  g_ptr_array_add (argv, self_path);
  for (guint i = 0; child_args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) child_args[i]);
  g_ptr_array_add (argv, NULL);

  envp = g_environ_setenv (envp, "BL_TEST_MARK", "kept=yes", TRUE);
  if (g_slice != NULL)
    envp = g_environ_setenv (envp, "G_SLICE", g_slice, TRUE);
  else
    envp = g_environ_unsetenv (envp, "G_SLICE");

  g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                &out, &err, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  return out;
}

static guint
count_starts (const char *out,
              char      **pid)
{
  g_auto(GStrv) lines = g_strsplit (out, "\n", -1);
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "start "))
      {
        /* every start is the same process */
        if (*pid == NULL)
          *pid = g_strdup (lines[i] + 6);
        g_assert_cmpstr (*pid, ==, lines[i] + 6);
        n++;
      }

  return n;
}

static void
assert_args_kept (const char *out)
{
  g_autoptr(GString) expected = g_string_new (NULL);
  const char *args;

  for (guint i = 1; child_args[i] != NULL; i++)
    g_string_append_printf (expected, "arg %s\n", child_args[i]);
  g_string_append (expected, "G_SLICE ");

  args = strstr (out, "arg ");
  g_assert_nonnull (args);
  g_assert_true (g_str_has_prefix (args, expected->str));
  g_assert_nonnull (strstr (out, "BL_TEST_MARK kept=yes\n"));
  /* the kernel keeps 15 bytes of the name */
  g_assert_nonnull (strstr (out, "comm test-slice-reex\n"));
}

static void
test_reexec_unset (void)
{
  g_autofree char *out = run_child (NULL);
  g_autofree char *pid = NULL;
  gboolean old_glib = glib_check_version (2, 76, 0) != NULL;

  assert_args_kept (out);
  if (old_glib)
    {
      /* once more, in the same process, with malloc for the slices */
      g_assert_cmpuint (count_starts (out, &pid), ==, 2);
      g_assert_nonnull (strstr (out, "G_SLICE always-malloc\n"));
      g_assert_nonnull (strstr (out, "freed slices go to malloc 1\n"));
    }
  else
    {
      g_assert_cmpuint (count_starts (out, &pid), ==, 1);
      g_assert_nonnull (strstr (out, "G_SLICE (unset)\n"));
    }
}

static void
test_user_setting_kept (void)
{
  g_autofree char *out = run_child ("debug-blocks");
  g_autofree char *pid = NULL;

  /* the user's own G_SLICE: never executed again, nothing changed */
  g_assert_cmpuint (count_starts (out, &pid), ==, 1);
  assert_args_kept (out);
  g_assert_nonnull (strstr (out, "G_SLICE debug-blocks\n"));
  /* GLib 2.76 and later have no slice allocator: slices are malloc's */
  if (glib_check_version (2, 76, 0) != NULL)
    g_assert_nonnull (strstr (out, "freed slices go to malloc 0\n"));
  else
    g_assert_nonnull (strstr (out, "freed slices go to malloc 1\n"));
}

int
main (int   argc,
      char *argv[])
{
  if (argc > 1 && g_str_equal (argv[1], "--child"))
    {
      char line[64];
      int n = g_snprintf (line, sizeof line, "start %d\n", (int) getpid ());

      /* unbuffered: an exec would drop what stdio holds */
      if (write (STDOUT_FILENO, line, n) != n)
        return 1;
      return child_main (argc, argv);
    }

  self_path = g_canonicalize_filename (argv[0], NULL);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/slice/reexec", test_reexec_unset);
  g_test_add_func ("/slice/user-setting-kept", test_user_setting_kept);

  return g_test_run ();
}
