/* test-potfiles.c — po/POTFILES.in lists exactly the files with translatable strings
 *
 * Every file under src/ and resources/ that marks a string for translation (_(), N_(), C_(),
 * NC_(), ngettext, translatable="yes" in a .ui) must be listed, every listed file must exist
 * and still hold a string, the list must be sorted, and the desktop entry, the metainfo, the
 * schema and the MIME types must be in it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>

static const char *data_files[] = {
  "data/io.github.brightlens.Brightlens.desktop.in.in",
  "data/io.github.brightlens.Brightlens.gschema.xml",
  "data/io.github.brightlens.Brightlens.metainfo.xml.in.in",
  "data/mime/io.github.brightlens.Brightlens.xml",
};

static GPtrArray *
read_potfiles (void)
{
  g_autofree char *path = g_build_filename (BL_TOP_SRCDIR, "po", "POTFILES.in", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);

      if (line[0] == '\0' || line[0] == '#')
        continue;

      /* "[type: gettext/glade]foo.ui" annotations are not needed with ITS rules */
      g_assert_false (line[0] == '[');
      g_ptr_array_add (files, g_strdup (line));
    }

  return files;
}

static gboolean
potfiles_contains (GPtrArray  *files,
                   const char *relpath)
{
  for (guint i = 0; i < files->len; i++)
    {
      if (g_strcmp0 (g_ptr_array_index (files, i), relpath) == 0)
        return TRUE;
    }

  return FALSE;
}

/* Does the file mark a string for translation? Comments in C do not count. */
static gboolean
file_has_translatable_strings (const char *path)
{
  static GRegex *c_comment = NULL;
  static GRegex *c_marker = NULL;
  static GRegex *ui_marker = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  if (c_comment == NULL)
    {
      ui_marker = g_regex_new ("translatable\\s*=\\s*\"(yes|true|1)\"",
                               G_REGEX_CASELESS, 0, NULL);
      c_marker = g_regex_new ("(^|[^A-Za-z0-9_])"
                              "((N|C|NC)?_|g_dn?gettext|g_dpgettext2?|n?gettext)"
                              "\\s*\\(",
                              G_REGEX_MULTILINE, 0, NULL);
      c_comment = g_regex_new ("/\\*.*?\\*/", G_REGEX_DOTALL, 0, NULL);
    }

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  if (g_str_has_suffix (path, ".c") || g_str_has_suffix (path, ".h"))
    {
      g_autofree char *code = g_regex_replace_literal (c_comment, contents, -1, 0, "", 0,
                                                       &error);

      g_assert_no_error (error);
      return g_regex_match (c_marker, code, 0, NULL);
    }

  if (g_str_has_suffix (path, ".ui"))
    return g_regex_match (ui_marker, contents, 0, NULL);

  return FALSE;
}

static void
collect_marked_files (GFile     *top,
                      GFile     *dir,
                      GPtrArray *found)
{
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GError) error = NULL;
  GFileInfo *info;

  enumerator = g_file_enumerate_children (dir,
                                          G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                          G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                          G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS,
                                          NULL, &error);
  g_assert_no_error (error);

  while ((info = g_file_enumerator_next_file (enumerator, NULL, &error)) != NULL)
    {
      g_autoptr(GFileInfo) owned = info;
      g_autoptr(GFile) child = g_file_get_child (dir, g_file_info_get_name (info));

      if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
        {
          collect_marked_files (top, child, found);
        }
      else if (g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR)
        {
          g_autofree char *path = g_file_get_path (child);

          if (file_has_translatable_strings (path))
            g_ptr_array_add (found, g_file_get_relative_path (top, child));
        }
    }
  g_assert_no_error (error);
}

static void
test_sorted (void)
{
  g_autoptr(GPtrArray) files = read_potfiles ();

  g_assert_cmpuint (files->len, >, 0);

  for (guint i = 1; i < files->len; i++)
    {
      const char *prev = g_ptr_array_index (files, i - 1);
      const char *cur = g_ptr_array_index (files, i);

      if (strcmp (prev, cur) >= 0)
        g_test_message ("POTFILES.in: %s is listed after %s", cur, prev);
      g_assert_cmpint (strcmp (prev, cur), <, 0);
    }
}

static void
test_listed_files_exist (void)
{
  g_autoptr(GPtrArray) files = read_potfiles ();

  for (guint i = 0; i < files->len; i++)
    {
      const char *relpath = g_ptr_array_index (files, i);
      g_autofree char *path = g_build_filename (BL_TOP_SRCDIR, relpath, NULL);

      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        g_test_message ("POTFILES.in lists %s, which does not exist", relpath);
      g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));

      /* a source file that no longer holds a string is a stale entry */
      if (g_str_has_prefix (relpath, "src/") || g_str_has_prefix (relpath, "resources/"))
        {
          if (!file_has_translatable_strings (path))
            g_test_message ("POTFILES.in lists %s, which has no translatable string", relpath);
          g_assert_true (file_has_translatable_strings (path));
        }
    }
}

static void
test_sources_listed (void)
{
  g_autoptr(GPtrArray) files = read_potfiles ();
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GFile) top = g_file_new_for_path (BL_TOP_SRCDIR);
  const char *subdirs[] = { "src", "resources" };
  guint missing = 0;

  for (guint i = 0; i < G_N_ELEMENTS (subdirs); i++)
    {
      g_autoptr(GFile) dir = g_file_get_child (top, subdirs[i]);

      collect_marked_files (top, dir, found);
    }

  /* the About and Preferences windows at least have strings */
  g_assert_cmpuint (found->len, >=, 2);

  for (guint i = 0; i < found->len; i++)
    {
      const char *relpath = g_ptr_array_index (found, i);

      if (!potfiles_contains (files, relpath))
        {
          g_test_message ("%s has translatable strings but is not in po/POTFILES.in", relpath);
          missing++;
        }
    }

  g_assert_cmpuint (missing, ==, 0);
}

static void
test_data_files_listed (void)
{
  g_autoptr(GPtrArray) files = read_potfiles ();

  for (guint i = 0; i < G_N_ELEMENTS (data_files); i++)
    {
      if (!potfiles_contains (files, data_files[i]))
        g_test_message ("%s is not in po/POTFILES.in", data_files[i]);
      g_assert_true (potfiles_contains (files, data_files[i]));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/data/potfiles/sorted", test_sorted);
  g_test_add_func ("/data/potfiles/listed-files-exist", test_listed_files_exist);
  g_test_add_func ("/data/potfiles/sources-listed", test_sources_listed);
  g_test_add_func ("/data/potfiles/data-files-listed", test_data_files_listed);

  return g_test_run ();
}
