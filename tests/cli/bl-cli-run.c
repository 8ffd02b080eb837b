/* bl-cli-run.c — running brightlens-cli from the CLI tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <sys/wait.h>

#include "bl-cli-run.h"

void
bl_cli_run_clear (BlCliRun *run)
{
  g_free (run->out);
  g_free (run->err);
}

/**
 * bl_cli_run:
 * @...: the arguments after the program name, ended by %NULL
 *
 * Runs the brightlens-cli under test (BRIGHTLENS_CLI) and keeps its
 * output, errors and exit status; it must exit normally.
 */
void
bl_cli_run (BlCliRun *run,
            ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *arg;
  va_list args;
  int wait_status;

  g_ptr_array_add (argv, (gpointer) BRIGHTLENS_CLI);
  va_start (args, run);
  while ((arg = va_arg (args, const char *)))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                &run->out, &run->err, &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  run->status = WEXITSTATUS (wait_status);
}
