/* bl-cli-run.h — running brightlens-cli from the CLI tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char *out;      /* standard output */
  char *err;      /* standard error */
  int   status;   /* exit status */
} BlCliRun;

void bl_cli_run_clear (BlCliRun *run);
void bl_cli_run       (BlCliRun *run,
                       ...) G_GNUC_NULL_TERMINATED;

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (BlCliRun, bl_cli_run_clear)

G_END_DECLS
