/* test-cli-docs.c — the manual pages and the shell completions name every
 * command, option, metric and format the programs accept (read from their
 * --help output and the metric table), and bash completes a few words
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <sys/wait.h>

#include "bl-cli-run.h"
#include "bl-model.h"

typedef struct
{
  char *name;
  GPtrArray *options;   /* "--json", "-o", … */
} Command;

static char *
read_source (const char *first,
             ...)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  const char *part;
  char *contents = NULL;
  va_list args;

  /* G_TEST_SRCDIR is tests/; the sources are beside it */
  g_assert_nonnull (g_getenv ("G_TEST_SRCDIR"));
  g_ptr_array_add (parts, (gpointer) g_getenv ("G_TEST_SRCDIR"));
  g_ptr_array_add (parts, (gpointer) "..");
  g_ptr_array_add (parts, (gpointer) first);
  va_start (args, first);
  while ((part = va_arg (args, const char *)))
    g_ptr_array_add (parts, (gpointer) part);
  va_end (args);
  g_ptr_array_add (parts, NULL);

  path = g_build_filenamev ((char **) parts->pdata);
  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  return contents;
}

/* Whether @word occurs in @text on its own: not inside a longer option or
 * name ("--json" is not found in "--json-lines"). */
static gboolean
has_word (const char *text,
          const char *word)
{
  gsize len = strlen (word);

  for (const char *p = strstr (text, word); p != NULL; p = strstr (p + 1, word))
    {
      char before = p > text ? p[-1] : ' ';
      char after = p[len];

      if (g_ascii_isalnum (before) || before == '-' || before == '_' ||
          g_ascii_isalnum (after) || after == '-' || after == '_')
        continue;
      return TRUE;
    }

  return FALSE;
}

/* The options a --help output lists: "  -o, --output=OUT   Write…" */
static GPtrArray *
parse_options (const char *help)
{
  g_autoptr(GRegex) regex = g_regex_new ("^  (?:(-[A-Za-z]), )?(--[a-z][a-z0-9-]*)",
                                         G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  GPtrArray *options = g_ptr_array_new_with_free_func (g_free);

  g_regex_match (regex, help, 0, &match);
  while (g_match_info_matches (match))
    {
      g_autofree char *s = g_match_info_fetch (match, 1);

      if (s != NULL && *s != '\0')
        g_ptr_array_add (options, g_steal_pointer (&s));
      g_ptr_array_add (options, g_match_info_fetch (match, 2));
      g_match_info_next (match, NULL);
    }

  return options;
}

static void
command_free (gpointer data)
{
  Command *command = data;

  g_free (command->name);
  g_ptr_array_unref (command->options);
  g_free (command);
}

/* Every command the CLI's usage names, with the options its --help lists. */
static GPtrArray *
list_commands (void)
{
  g_autoptr(GRegex) regex = g_regex_new ("^  brightlens-cli ([a-z]+)", G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  g_auto(BlCliRun) usage = { 0 };
  GPtrArray *commands = g_ptr_array_new_with_free_func (command_free);

  bl_cli_run (&usage, "--help", NULL);
  g_assert_cmpint (usage.status, ==, 0);

  g_regex_match (regex, usage.out, 0, &match);
  while (g_match_info_matches (match))
    {
      g_autofree char *name = g_match_info_fetch (match, 1);
      gboolean seen = FALSE;

      for (guint i = 0; i < commands->len; i++)
        seen |= g_str_equal (((Command *) commands->pdata[i])->name, name);
      if (!seen)
        {
          g_auto(BlCliRun) help = { 0 };
          Command *command = g_new0 (Command, 1);

          bl_cli_run (&help, name, "--help", NULL);
          g_assert_cmpint (help.status, ==, 0);
          command->name = g_steal_pointer (&name);
          command->options = parse_options (help.out);
          g_assert_cmpuint (command->options->len, >=, 2);
          g_ptr_array_add (commands, command);
        }
      g_match_info_next (match, NULL);
    }

  g_assert_cmpuint (commands->len, >=, 5);

  return commands;
}

/* The values --format takes, as the usage lines spell them:
 * "--format folded|speedscope|csv" */
static GPtrArray *
list_formats (void)
{
  g_autoptr(GRegex) regex = g_regex_new ("--format ([a-z|]+)", 0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  g_auto(BlCliRun) usage = { 0 };
  GPtrArray *formats = g_ptr_array_new_with_free_func (g_free);

  bl_cli_run (&usage, "--help", NULL);
  g_regex_match (regex, usage.out, 0, &match);
  while (g_match_info_matches (match))
    {
      g_autofree char *list = g_match_info_fetch (match, 1);
      g_auto(GStrv) names = g_strsplit (list, "|", -1);

      for (guint i = 0; names[i] != NULL; i++)
        if (!g_ptr_array_find_with_equal_func (formats, names[i], g_str_equal, NULL))
          g_ptr_array_add (formats, g_strdup (names[i]));
      g_match_info_next (match, NULL);
    }

  g_assert_cmpuint (formats->len, >=, 7);

  return formats;
}

static void
assert_mentions (const char *what,
                 const char *text,
                 const char *word)
{
  if (!has_word (text, word))
    g_error ("%s does not mention “%s”", what, word);
}

/* fish spells options "-l json" and "-s o" */
static void
assert_fish_option (const char *text,
                    const char *option)
{
  g_autofree char *spelled = option[1] == '-'
    ? g_strdup_printf ("-l %s", option + 2)
    : g_strdup_printf ("-s %s", option + 1);

  if (strstr (text, spelled) == NULL)
    g_error ("the fish completion does not offer “%s”", option);
}

static void
test_every_option (void)
{
  g_autoptr(GPtrArray) commands = list_commands ();
  g_autoptr(GPtrArray) formats = list_formats ();
  g_autofree char *man = read_source ("doc", "brightlens-cli.1.scd", NULL);
  g_autofree char *bash = read_source ("data", "completions", "brightlens-cli.bash", NULL);
  g_autofree char *zsh = read_source ("data", "completions", "_brightlens-cli", NULL);
  g_autofree char *fish = read_source ("data", "completions", "brightlens-cli.fish", NULL);
  const struct
  {
    const char *what;
    const char *text;
  } sources[] = {
    { "brightlens-cli(1)", man },
    { "the bash completion", bash },
    { "the zsh completion", zsh },
    { "the fish completion", fish },
  };

  for (guint s = 0; s < G_N_ELEMENTS (sources); s++)
    {
      for (guint c = 0; c < commands->len; c++)
        {
          Command *command = commands->pdata[c];

          assert_mentions (sources[s].what, sources[s].text, command->name);
          for (guint o = 0; o < command->options->len; o++)
            {
              const char *option = command->options->pdata[o];

              if (s == 3)
                assert_fish_option (fish, option);
              else if (s == 0 && option[1] != '-')
                {
                  /* the man page writes short options as *-o* */
                  g_autofree char *spelled = g_strdup_printf ("*%s*", option);

                  g_assert_nonnull (strstr (man, spelled));
                }
              else
                assert_mentions (sources[s].what, sources[s].text, option);
            }
        }

      for (guint m = 0; m < BL_N_METRICS; m++)
        assert_mentions (sources[s].what, sources[s].text, bl_metric_get_name (m));
      for (guint f = 0; f < formats->len; f++)
        assert_mentions (sources[s].what, sources[s].text, formats->pdata[f]);
      assert_mentions (sources[s].what, sources[s].text, s == 3 ? "version" : "--version");
    }

  /* the exit statuses */
  g_assert_nonnull (strstr (man, "# EXIT STATUS"));
  for (guint status = 0; status <= 3; status++)
    {
      g_autofree char *item = g_strdup_printf ("*%u*\n", status);

      g_assert_nonnull (strstr (man, item));
    }
}

static void
test_gui_options (void)
{
#ifdef BRIGHTLENS_GUI
  const char *argv[] = { BRIGHTLENS_GUI, "--help", NULL };
  g_autofree char *out = NULL;
  g_autofree char *man = read_source ("doc", "brightlens.1.scd", NULL);
  g_autoptr(GPtrArray) options = NULL;
  g_autoptr(GError) error = NULL;
  int wait_status;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL,
                &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status) && WEXITSTATUS (wait_status) == 0);
  g_assert_nonnull (strstr (out, "[FILE…]"));

  options = parse_options (out);
  g_assert_cmpuint (options->len, >=, 3);
  for (guint o = 0; o < options->len; o++)
    assert_mentions ("brightlens(1)", man, options->pdata[o]);
#else
  g_test_skip ("built without the window");
#endif
}

/* Runs the bash completion function on @words (the last one being
 * completed) and returns COMPREPLY joined by spaces. */
static char *
complete_bash (const char *words)
{
  g_autofree char *script_path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "data",
                                                   "completions", "brightlens-cli.bash", NULL);
  g_autofree char *script = g_strdup_printf (
    "[ -r /usr/share/bash-completion/bash_completion ] && "
    ". /usr/share/bash-completion/bash_completion; "
    ". '%s'; COMP_WORDS=(%s); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "
    "_brightlens_cli; echo \"${COMPREPLY[*]}\"", script_path, words);
  const char *argv[] = { "bash", "--norc", "--noprofile", "-c", script, NULL };
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int wait_status;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, NULL,
                &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status) && WEXITSTATUS (wait_status) == 0);

  return g_strchomp (out);
}

static void
test_bash_completion (void)
{
  static const struct
  {
    const char *words;
    const char *expected;
  } cases[] = {
    { "brightlens-cli ex", "export" },
    { "brightlens-cli ''", "info export heap lines diff check record help --help --version" },
    { "brightlens-cli record host --pro", "--profile --profiler-port" },
    { "brightlens-cli export f.bsprof --format ''", "folded speedscope svg csv" },
    { "brightlens-cli diff a b -f ''", "folded table json svg" },
    { "brightlens-cli diff a b --sort g", "growth" },
    { "brightlens-cli check x --format j", "json junit" },
    { "brightlens-cli lines x --metric live-", "live-bytes live-count" },
    { "brightlens-cli check x --max-total cp", "cpu=" },
    { "brightlens-cli check x --max-l", "--max-launch-ms --max-live-bytes" },
    { "brightlens-cli info --j", "--json" },
    { "brightlens-cli diff a b --by ''", "self total" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = complete_bash (cases[i].words);

      if (!g_str_equal (got, cases[i].expected))
        g_error ("completing “%s”: expected “%s”, got “%s”", cases[i].words,
                 cases[i].expected, got);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cli/docs/every-option", test_every_option);
  g_test_add_func ("/cli/docs/gui-options", test_gui_options);
  g_test_add_func ("/cli/docs/bash-completion", test_bash_completion);

  return g_test_run ();
}
