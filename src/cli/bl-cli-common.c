/* bl-cli-common.c — loading, output and errors shared by the commands
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "brightlens-cli"

#include "config.h"

#include <gio/gunixoutputstream.h>
#include <glib/gi18n.h>
#include <stdio.h>

#include "bl-cli.h"

int
bl_cli_usage_error (GOptionContext *context,
                    const char     *message)
{
  g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);

  fprintf (stderr, "brightlens-cli: %s\n\n%s", message, help);

  return BL_CLI_USAGE;
}

/**
 * bl_cli_load:
 * @exit_status: (out): set to %BL_CLI_INVALID_INPUT on failure
 *
 * Loads @path; prints the reader's message on failure and the reader's
 * warning (an incomplete stream, for example) on stderr.
 *
 * Returns: (transfer full) (nullable): the profile or session
 */
GObject *
bl_cli_load (const char *path,
             int        *exit_status)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) error = NULL;
  GObject *result;

  result = bl_format_load_file (file, NULL, NULL, NULL, &error);
  if (result == NULL)
    {
      fprintf (stderr, "brightlens-cli: %s: %s\n", path, error->message);
      *exit_status = BL_CLI_INVALID_INPUT;
      return NULL;
    }

  if (BL_IS_PROFILE (result) && bl_profile_get_warning (BL_PROFILE (result)) != NULL)
    fprintf (stderr, _("brightlens-cli: warning: %s: %s\n"),
             path, bl_profile_get_warning (BL_PROFILE (result)));

  *exit_status = BL_CLI_OK;

  return result;
}

/**
 * bl_cli_open_output:
 * @path: (nullable): a file to write, or %NULL or "-" for standard output
 *
 * Files are written through g_file_replace(), so a failed export never
 * leaves half a file behind.
 */
GOutputStream *
bl_cli_open_output (const char  *path,
                    GError     **error)
{
  g_autoptr(GFile) file = NULL;

  if (path == NULL || g_strcmp0 (path, "-") == 0)
    return g_unix_output_stream_new (1, FALSE);

  file = g_file_new_for_commandline_arg (path);

  return G_OUTPUT_STREAM (g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                                          NULL, error));
}

gboolean
bl_cli_close_output (GOutputStream  *out,
                     GError        **error)
{
  return g_output_stream_close (out, NULL, error);
}

void
bl_cli_print_json (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, NULL);
  printf ("%s\n", text);
}

/**
 * bl_cli_parse_metric:
 * @name: (nullable): a metric name from the command line
 *
 * Returns: the metric, the profile's default when @name is %NULL, or
 *   %BL_METRIC_INVALID with @exit_status set to %BL_CLI_USAGE
 */
BlMetricId
bl_cli_parse_metric (const char *name,
                     BlProfile  *profile,
                     int        *exit_status)
{
  BlMetricId metric;

  *exit_status = BL_CLI_OK;

  if (name == NULL)
    return bl_profile_get_default_metric (profile);

  metric = bl_metric_from_name (name);
  if (metric == BL_METRIC_INVALID)
    {
      g_autoptr(GString) names = g_string_new (NULL);

      for (guint m = 0; m < BL_N_METRICS; m++)
        g_string_append_printf (names, "%s%s", m ? ", " : "", bl_metric_get_name (m));
      fprintf (stderr, _("brightlens-cli: unknown metric “%s”; the metrics are %s.\n"),
               name, names->str);
      *exit_status = BL_CLI_USAGE;
    }

  return metric;
}
