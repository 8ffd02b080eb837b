/* bl-cli-svg.c — the SVG branches of export and diff
 *
 * brightlens-cli export FILE --format svg [--metric M] [--width PX]
 *                [--thread T] [--title T] [-o OUT]
 * brightlens-cli diff A B --format svg [--metric M] [--normalized] [-o OUT]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "brightlens-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "bl-cli.h"
#include "bl-flame-svg.h"

/* Checks --width: 0 when not given, else BL_FLAME_SVG_MIN_WIDTH…MAX. */
gboolean
bl_cli_svg_check_width (int      width,
                        GError **error)
{
  if (width == 0 || (width >= BL_FLAME_SVG_MIN_WIDTH && width <= BL_FLAME_SVG_MAX_WIDTH))
    return TRUE;

  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("--width must be between %d and %d pixels."),
               BL_FLAME_SVG_MIN_WIDTH, BL_FLAME_SVG_MAX_WIDTH);
  return FALSE;
}

static int
finish (GOutputStream *out,
        gboolean       ok,
        GError        *error)
{
  g_autoptr(GError) close_error = NULL;

  if (ok && !bl_cli_close_output (out, &close_error))
    error = close_error;
  if (!ok || close_error != NULL)
    {
      fprintf (stderr, "brightlens-cli: %s\n", error->message);
      return BL_CLI_INVALID_INPUT;
    }

  return BL_CLI_OK;
}

int
bl_cli_export_svg (BlProfile  *profile,
                   const char *path,
                   BlMetricId  metric,
                   const char *thread,
                   int         width,
                   const char *title,
                   const char *output)
{
  g_autoptr(GOutputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  BlFlameSvgOptions options = { metric, thread, (guint) width, title, 0, FALSE };
  BlFlameSvgStats stats;
  gboolean ok;

  if (!(out = bl_cli_open_output (output, &error)))
    {
      fprintf (stderr, "brightlens-cli: %s\n", error->message);
      return BL_CLI_INVALID_INPUT;
    }

  ok = bl_flame_svg_write_profile (profile, &options, out, &stats, NULL, &error);
  if (ok && stats.capped)
    fprintf (stderr, _("brightlens-cli: %s: the flame graph has more frames than fit; only the "
                       "%u widest are drawn, as the SVG says.\n"), path, stats.n_frames);

  return finish (out, ok, error);
}

int
bl_cli_diff_svg (BlDiff     *diff,
                 BlMetricId  metric,
                 gboolean    normalized,
                 int         width,
                 const char *title,
                 const char *output)
{
  g_autoptr(GOutputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  BlFlameSvgOptions options = { metric, NULL, (guint) width, title, 0, normalized };

  if (!(out = bl_cli_open_output (output, &error)))
    {
      fprintf (stderr, "brightlens-cli: %s\n", error->message);
      return BL_CLI_INVALID_INPUT;
    }

  return finish (out, bl_flame_svg_write_diff (diff, &options, out, NULL, NULL, &error), error);
}
