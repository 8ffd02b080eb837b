/* brightlens-cli.c — Brightlens for terminals and CI
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "brightlens-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "bl-cli.h"

typedef struct
{
  const char *name;
  int       (*run) (int argc, char **argv);
  const char *synopsis;
} Command;

static const Command commands[] = {
  { "info", bl_cli_info, "info FILE [--json] [-o OUT]" },
  { "export", bl_cli_export,
    "export FILE --format folded|speedscope|csv [--metric M] [-o OUT]" },
  { "heap", bl_cli_heap, "heap FILE [B] [--json] [--top N] [--hide-global]" },
  { "lines", bl_cli_lines, "lines FILE [--metric M] [--top N] [--json] [-o OUT]" },
  { "diff", bl_cli_diff,
    "diff A B [--metric M] [--format folded|table|json|svg] [--json] [--normalized|--absolute] "
    "[--threshold PCT] [--min-change AMOUNT] [--by self|total] [--sort change|growth|name] "
    "[--fail-above PCT [--function F]] [--width PX] [--title TITLE] [-o OUT]" },
  { "check", bl_cli_check,
    "check SESSION [--max-foreground-fraction F] [--max-memory-growth BYTES_PER_MIN] "
    "[--min-fps N] [--max-launch-ms N] [--format text|json|junit] [-o OUT]" },
  { "check", bl_cli_check,
    "check PROFILE [--max-total [FUNCTION:]METRIC=LIMIT]… [--max-self [FUNCTION:]METRIC=LIMIT]… "
    "[--max-live-bytes SIZE] [--format text|json|junit] [-o OUT]" },
  { "record", bl_cli_record,
    "record HOST [--duration S] [--interval MS] [--output DIR] [--profile] [--resources] "
    "[--trace] [--ecp-port N] [--profiler-port N] [--console-port N]" },
};

static void
print_usage (FILE *stream)
{
  fprintf (stream, "%s\n", _("Usage: brightlens-cli COMMAND [OPTIONS…]"));
  fprintf (stream, "\n%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (stream, "  brightlens-cli %s\n", commands[i].synopsis);
  fprintf (stream, "\n%s\n", _("FILE may be “-” for standard input, and may be compressed "
                               "with gzip, zstd or xz."));
  fprintf (stream, "%s\n", _("Exit status: 0 success, 1 unreadable or invalid input, 2 wrong "
                             "usage, 3 a check rule failed."));
  fprintf (stream, "\n%s\n", _("Run “brightlens-cli COMMAND --help” for a command’s options."));
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (argc < 2)
    {
      print_usage (stderr);
      return BL_CLI_USAGE;
    }

  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 ||
      strcmp (argv[1], "help") == 0)
    {
      print_usage (stdout);
      return BL_CLI_OK;
    }

  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("brightlens-cli %s\n", PACKAGE_VERSION);
      return BL_CLI_OK;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      {
        g_autofree char *prgname = g_strconcat ("brightlens-cli ", commands[i].name, NULL);

        /* usage lines read "brightlens-cli info [OPTION…] FILE" */
        g_set_prgname (prgname);
        return commands[i].run (argc - 1, argv + 1);
      }

  fprintf (stderr, _("brightlens-cli: unknown command “%s”."), argv[1]);
  fputc ('\n', stderr);
  print_usage (stderr);

  return BL_CLI_USAGE;
}
