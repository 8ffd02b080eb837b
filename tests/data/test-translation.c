/* test-translation.c — the real app speaks German with LANGUAGE=de
 *
 * Starts the brightlens executable under the display the suite runs on, with LANGUAGE=de and
 * the build's catalogue (bl-i18n-preload redirects our bindtextdomain() to it and writes out
 * every text of the mapped window), then compares those texts with the German catalogue read
 * from the .mo file: German labels must be there, and no English text that has a German
 * translation may be.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <locale.h>
#include <glib/gstdio.h>
#include <string.h>

static char *system_data_dirs;   /* XDG_DATA_DIRS before the test isolated it */

typedef struct
{
  char *msgid;   /* without context, first form */
  char *msgstr;  /* first form */
} Message;

static void
message_free (gpointer data)
{
  Message *m = data;

  g_free (m->msgid);
  g_free (m->msgstr);
  g_free (m);
}

static guint32
read_u32 (const guint8 *data,
          gsize         len,
          gsize         offset,
          gboolean      swap)
{
  guint32 v;

  g_assert_cmpuint (offset, <=, len - 4);
  memcpy (&v, data + offset, 4);

  return swap ? GUINT32_SWAP_LE_BE (v) : v;
}

static char *
read_string (const guint8 *data,
             gsize         len,
             guint32       table,
             guint32       index,
             gboolean      swap)
{
  guint32 slen = read_u32 (data, len, table + 8 * (gsize) index, swap);
  guint32 soff = read_u32 (data, len, table + 8 * (gsize) index + 4, swap);

  g_assert_cmpuint (soff, <=, len);
  g_assert_cmpuint (slen, <, len - soff);

  return g_strndup ((const char *) data + soff, slen);
}

/* The messages of a GNU .mo file (magic, revision, count, originals table, translations). */
static GPtrArray *
load_catalogue (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  const guint8 *data;
  GPtrArray *messages = g_ptr_array_new_with_free_func (message_free);
  gsize len = 0;
  gboolean swap;
  guint32 n, originals, translations;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (len, >=, 28);
  data = (const guint8 *) contents;

  swap = read_u32 (data, len, 0, FALSE) != 0x950412de;
  g_assert_cmphex (read_u32 (data, len, 0, swap), ==, 0x950412de);
  n = read_u32 (data, len, 8, swap);
  originals = read_u32 (data, len, 12, swap);
  translations = read_u32 (data, len, 16, swap);

  for (guint32 i = 0; i < n; i++)
    {
      g_autofree char *id = read_string (data, len, originals, i, swap);
      g_autofree char *str = read_string (data, len, translations, i, swap);
      const char *eot = strchr (id, '\004');   /* msgctxt \004 msgid */
      Message *m;

      if (id[0] == '\0')
        continue;   /* the header */

      m = g_new0 (Message, 1);
      m->msgid = g_strdup (eot != NULL ? eot + 1 : id);
      m->msgstr = g_strdup (str);   /* a NUL separates plural forms: strdup keeps the first */
      g_ptr_array_add (messages, m);
    }

  return messages;
}

/* What a label shows for a translatable string: without the mnemonic underscores. */
static char *
strip_mnemonic (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '_')
        {
          if (p[1] == '_')
            {
              g_string_append_c (out, '_');
              p++;
            }
          continue;
        }
      g_string_append_c (out, *p);
    }

  return g_string_free (out, FALSE);
}

/* gettext reads LANGUAGE unless the locale is C; glibc 2.39 and later (Debian 13) count
 * C.UTF-8 as C, so use a German locale where one is installed. */
static const char *
messages_locale (void)
{
  const char *candidates[] = { "de_DE.UTF-8", "en_US.UTF-8" };

  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      locale_t loc = newlocale (LC_ALL_MASK, candidates[i], (locale_t) 0);

      if (loc != (locale_t) 0)
        {
          freelocale (loc);
          return candidates[i];
        }
    }

  return "C.UTF-8";
}

static void
test_german_window (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) catalogue = NULL;
  g_autoptr(GHashTable) shown = NULL;
  g_autoptr(GHashTable) german = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) german_only = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                             NULL);
  g_autoptr(GHashTable) english = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autofree char *tmpdir = NULL;
  g_autofree char *dump = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *mo = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) envp = g_get_environ ();
  g_auto(GStrv) lines = NULL;
  GHashTableIter iter;
  const char *text;
  guint n_german = 0;
  guint n_english = 0;
  int status = 0;
  const char *argv[] = { BL_APP, NULL };

  mo = g_build_filename (BL_LOCALEDIR, "de", "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL);
  catalogue = load_catalogue (mo);
  g_test_message ("%u messages in %s", catalogue->len, mo);
  g_assert_cmpuint (catalogue->len, >, 0);

  for (guint i = 0; i < catalogue->len; i++)
    {
      Message *m = g_ptr_array_index (catalogue, i);
      g_autofree char *id = strip_mnemonic (m->msgid);
      char *str = strip_mnemonic (m->msgstr);

      /* every translation, and those that differ from their English original */
      g_hash_table_add (german, str);
      if (g_strcmp0 (id, str) != 0)
        {
          g_hash_table_add (german_only, g_strdup (str));
          g_hash_table_replace (english, g_steal_pointer (&id), g_strdup (str));
        }
    }

  tmpdir = g_dir_make_tmp ("brightlens-i18n-XXXXXX", &error);
  g_assert_no_error (error);
  dump = g_build_filename (tmpdir, "texts.txt", NULL);

  envp = g_environ_setenv (envp, "LANGUAGE", "de", TRUE);
  envp = g_environ_setenv (envp, "LC_ALL", messages_locale (), TRUE);
  envp = g_environ_setenv (envp, "LD_PRELOAD", BL_I18N_PRELOAD, TRUE);
  envp = g_environ_setenv (envp, "BL_I18N_LOCALEDIR", BL_LOCALEDIR, TRUE);
  envp = g_environ_setenv (envp, "BL_I18N_DUMP", dump, TRUE);
  /* a bus of our own would be overkill: without one the app runs as a non-unique instance,
   * so an instance started by another test cannot take our window */
  envp = g_environ_setenv (envp, "DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent", TRUE);
  envp = g_environ_setenv (envp, "GTK_A11Y", "none", TRUE);
  /* G_TEST_OPTION_ISOLATE_DIRS moves GLib's idea of these directories into the test's
   * temporary directory but leaves /dev/null in the environment: hand the former on */
  envp = g_environ_setenv (envp, "HOME", g_get_home_dir (), TRUE);
  envp = g_environ_setenv (envp, "XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  envp = g_environ_setenv (envp, "XDG_CONFIG_HOME", g_get_user_config_dir (), TRUE);
  envp = g_environ_setenv (envp, "XDG_CACHE_HOME", g_get_user_cache_dir (), TRUE);
  envp = g_environ_setenv (envp, "XDG_STATE_HOME", g_get_user_state_dir (), TRUE);
  envp = g_environ_setenv (envp, "XDG_RUNTIME_DIR", g_get_user_runtime_dir (), TRUE);
  /* the system's MIME database and icons, which the isolated data dirs lack */
  if (system_data_dirs != NULL)
    envp = g_environ_setenv (envp, "XDG_DATA_DIRS", system_data_dirs, TRUE);
  else
    envp = g_environ_unsetenv (envp, "XDG_DATA_DIRS");

  g_spawn_sync (tmpdir, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status,
                &error);
  g_assert_no_error (error);
  if (err != NULL && err[0] != '\0')
    g_test_message ("brightlens stderr:\n%s", err);
  if (!g_spawn_check_wait_status (status, &error))
    /* on standard error, which the suite's console log keeps */
    g_printerr ("brightlens (%s) failed; its standard error:\n%s\n", BL_APP, err);
  g_assert_no_error (error);

  /* the catalogue really was bound by the app (its bindtextdomain() call went through us) */
  g_assert_nonnull (strstr (err, "redirected to " BL_LOCALEDIR));

  g_file_get_contents (dump, &contents, NULL, &error);
  g_assert_no_error (error);
  g_unlink (dump);
  g_rmdir (tmpdir);

  shown = g_hash_table_new (g_str_hash, g_str_equal);
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i][0] != '\0')
        g_hash_table_add (shown, lines[i]);
    }
  g_test_message ("%u texts in the window", g_hash_table_size (shown));
  g_assert_cmpuint (g_hash_table_size (shown), >, 0);

  g_hash_table_iter_init (&iter, shown);
  while (g_hash_table_iter_next (&iter, (gpointer *) &text, NULL))
    {
      if (g_hash_table_contains (english, text) && !g_hash_table_contains (german, text))
        {
          g_test_message ("shown in English although translated: “%s” (German: “%s”)",
                          text, (const char *) g_hash_table_lookup (english, text));
          n_english++;
        }
      else if (g_hash_table_contains (german_only, text) &&
               !g_hash_table_contains (english, text))
        {
          g_test_message ("German: “%s”", text);
          n_german++;
        }
    }

  g_assert_cmpuint (n_german, >=, 3);
  g_assert_cmpuint (n_english, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  system_data_dirs = g_strdup (g_getenv ("XDG_DATA_DIRS"));
  setlocale (LC_ALL, "");   /* UTF-8 test messages */
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/data/translation/german-window", test_german_window);

  return g_test_run ();
}
