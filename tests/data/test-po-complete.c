/* test-po-complete.c — every language in po/LINGUAS is complete and current
 *
 * Extracts the messages from the files in po/POTFILES.in with xgettext (the keywords of
 * meson's glib preset) and checks with msgcmp that each .po translates every one of them,
 * and with msgfmt --check that the translations keep the format directives of the originals.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

static char *pot_path;

static void
run (const char * const *argv,
     char              **out_stderr,
     gboolean            must_succeed)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *cmdline = g_strjoinv (" ", (char **) argv);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = 0;

  g_test_message ("$ %s", cmdline);
  g_spawn_sync (BL_TOP_SRCDIR, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                &out, &err, &status, &error);
  g_assert_no_error (error);
  if (out != NULL && out[0] != '\0')
    g_test_message ("%s", out);
  if (err != NULL && err[0] != '\0')
    g_test_message ("%s", err);
  if (must_succeed)
    {
      g_spawn_check_wait_status (status, &error);
      g_assert_no_error (error);
    }
  if (out_stderr != NULL)
    *out_stderr = g_steal_pointer (&err);
}

static GStrv
read_linguas (void)
{
  g_autofree char *path = g_build_filename (BL_TOP_SRCDIR, "po", "LINGUAS", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) words = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  words = g_strsplit_set (contents, " \t\n", -1);
  for (guint i = 0; words[i] != NULL; i++)
    {
      if (words[i][0] != '\0' && words[i][0] != '#')
        g_strv_builder_add (builder, words[i]);
    }

  return g_strv_builder_end (builder);
}

static void
extract_messages (const char *tmpdir)
{
  pot_path = g_build_filename (tmpdir, GETTEXT_PACKAGE ".pot", NULL);

  {
    const char *argv[] = {
      "xgettext", "--from-code=UTF-8", "--add-comments=Translators",
      "--keyword=_", "--keyword=N_", "--keyword=C_:1c,2", "--keyword=NC_:1c,2",
      "--keyword=g_dcgettext:2", "--keyword=g_dngettext:2,3", "--keyword=g_dpgettext2:2c,3",
      "--files-from=po/POTFILES.in", "--directory=" BL_TOP_SRCDIR,
      "--output", pot_path, NULL
    };

    run (argv, NULL, TRUE);
  }

  g_assert_true (g_file_test (pot_path, G_FILE_TEST_IS_REGULAR));
}

static void
test_complete (gconstpointer data)
{
  const char *lang = data;
  g_autofree char *po = g_build_filename ("po", lang, NULL);
  g_autofree char *po_file = g_strconcat (po, ".po", NULL);
  g_autofree char *err = NULL;

  /* untranslated and fuzzy messages count as missing */
  {
    const char *argv[] = { "msgcmp", po_file, pot_path, NULL };

    run (argv, &err, TRUE);
  }
  {
    const char *argv[] = { "msgfmt", "--check", "--statistics", "--output-file=/dev/null",
                           po_file, NULL };
    g_autofree char *stats = NULL;

    run (argv, &stats, TRUE);
    g_assert_nonnull (strstr (stats, "translated message"));
    g_assert_null (strstr (stats, "untranslated"));
    g_assert_null (strstr (stats, "fuzzy"));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = NULL;
  g_auto(GStrv) linguas = NULL;
  int ret;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tmpdir = g_dir_make_tmp ("brightlens-pot-XXXXXX", &error);
  g_assert_no_error (error);
  extract_messages (tmpdir);

  linguas = read_linguas ();
  g_assert_cmpuint (g_strv_length (linguas), >=, 1);
  for (guint i = 0; linguas[i] != NULL; i++)
    {
      g_autofree char *path = g_strdup_printf ("/data/po/%s/complete", linguas[i]);

      g_test_add_data_func (path, linguas[i], test_complete);
    }

  ret = g_test_run ();

  g_unlink (pot_path);
  g_rmdir (tmpdir);
  g_clear_pointer (&pot_path, g_free);

  return ret;
}
