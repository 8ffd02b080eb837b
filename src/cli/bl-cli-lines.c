/* bl-cli-lines.c — brightlens-cli lines FILE [--metric M] [--top N] [--json] [-o OUT]
 *
 * Prints the profile's source lines ranked by a metric, one per line as
 * `FILE:LINE VALUE`, FILE exactly as the profile names it
 * (`pkg:/source/main.brs:42 1234`), VALUE an integer in the metric's base
 * unit. Lines whose value is zero are left out; ties go by file, then line.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "brightlens-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "bl-cli.h"
#include "bl-lines.h"

/* A JSON string literal (streamed: a profile can have millions of lines). */
static void
append_json_string (GString    *text,
                    const char *str)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);
  g_autofree char *literal = NULL;

  json_node_set_string (node, str);
  literal = json_to_string (node, FALSE);
  g_string_append (text, literal);
}

int
bl_cli_lines (int    argc,
              char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) loaded = NULL;
  g_auto(BlCliTransforms) transforms = { NULL };
  g_autoptr(GOutputStream) out = NULL;
  g_autoptr(GString) text = NULL;
  g_autofree char *metric_name = NULL;
  g_autofree char *output = NULL;
  g_autofree guint32 *ranked = NULL;
  gint top = 0;
  gboolean json = FALSE;
  guint n_ranked = 0;
  BlMetricId metric;
  BlProfile *profile;
  int status;
  const GOptionEntry entries[] = {
    { "metric", 'm', 0, G_OPTION_ARG_STRING, &metric_name,
      N_("Metric to rank by (cpu, wall, alloc-bytes, live-bytes, …)"), N_("METRIC") },
    { "top", 'n', 0, G_OPTION_ARG_INT, &top,
      N_("Print only the N hottest lines (0: all)"), N_("N") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print one JSON object: the metric and the ranked lines"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write to OUT instead of standard output"), N_("OUT") },
    { NULL }
  };

  context = g_option_context_new (_("FILE — rank a profile’s source lines"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  bl_cli_transform_add_options (context, &transforms);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return bl_cli_usage_error (context, error->message);
  if (argc != 2)
    return bl_cli_usage_error (context, _("lines takes exactly one FILE."));
  if (top < 0)
    return bl_cli_usage_error (context, _("--top must be 0 or more."));

  if (metric_name != NULL && bl_metric_from_name (metric_name) == BL_METRIC_INVALID)
    {
      bl_cli_parse_metric (metric_name, NULL, &status);
      return status;
    }

  if (!(loaded = bl_cli_load (argv[1], &status)) ||
      !bl_cli_transform_apply (&transforms, &loaded, argv[1], &status))
    return status;

  if (!BL_IS_PROFILE (loaded))
    {
      fprintf (stderr, _("brightlens-cli: %s: only a profile has source lines.\n"), argv[1]);
      return BL_CLI_INVALID_INPUT;
    }
  profile = BL_PROFILE (loaded);

  metric = bl_cli_parse_metric (metric_name, profile, &status);
  if (metric == BL_METRIC_INVALID && status == BL_CLI_OK)
    fprintf (stderr, _("brightlens-cli: %s has no values of any metric, so there are no "
                       "lines to rank.\n"), argv[1]);
  if (metric == BL_METRIC_INVALID)
    return status == BL_CLI_OK ? BL_CLI_INVALID_INPUT : status;

  if (bl_profile_get_n_lines (profile) == 0)
    fprintf (stderr, _("brightlens-cli: warning: %s has no per-line data; the output is "
                       "empty.\n"), argv[1]);
  else if (!bl_profile_has_metric (profile, metric))
    fprintf (stderr, _("brightlens-cli: warning: %s has no %s data; the output is empty.\n"),
             argv[1], bl_metric_get_name (metric));

  ranked = bl_lines_rank (profile, metric, (guint) top, &n_ranked);
  if (n_ranked == 0 && bl_profile_get_n_lines (profile) > 0 &&
      bl_profile_has_metric (profile, metric))
    fprintf (stderr, _("brightlens-cli: warning: no line of %s has a %s value; the output is "
                       "empty.\n"), argv[1], bl_metric_get_name (metric));

  if (!(out = bl_cli_open_output (output, &error)))
    {
      fprintf (stderr, "brightlens-cli: %s\n", error->message);
      return BL_CLI_INVALID_INPUT;
    }

  text = g_string_new (NULL);
  if (json)
    {
      g_string_append (text, "{\n  \"metric\": ");
      append_json_string (text, bl_metric_get_name (metric));
      g_string_append (text, ",\n  \"lines\": [");
      if (n_ranked == 0)
        g_string_append (text, "]\n}\n");
    }
  for (guint i = 0; i < n_ranked; i++)
    {
      const BlLine *line = bl_profile_get_line (profile, ranked[i]);

      if (json)
        {
          g_string_append (text, i ? ",\n    { \"file\": " : "\n    { \"file\": ");
          append_json_string (text, bl_profile_get_string (profile, line->file));
          g_string_append_printf (text, ", \"line\": %u, \"value\": ", line->line);
          bl_profile_append_exact_value (profile, metric,
                                         bl_profile_get_line_value (profile, metric, ranked[i]),
                                         text);
          g_string_append (text, " }");
          if (i + 1 == n_ranked)
            g_string_append (text, "\n  ]\n}\n");
        }
      else
        {
          g_string_append_printf (text, "%s:%u ",
                                  bl_profile_get_string (profile, line->file), line->line);
          bl_profile_append_exact_value (profile, metric,
                                         bl_profile_get_line_value (profile, metric, ranked[i]),
                                         text);
          g_string_append_c (text, '\n');
        }

      if (text->len >= 64 * 1024 || i + 1 == n_ranked)
        {
          if (!g_output_stream_write_all (out, text->str, text->len, NULL, NULL, &error))
            {
              fprintf (stderr, "brightlens-cli: %s\n", error->message);
              return BL_CLI_INVALID_INPUT;
            }
          g_string_truncate (text, 0);
        }
    }

  if ((text->len > 0 &&
       !g_output_stream_write_all (out, text->str, text->len, NULL, NULL, &error)) ||
      !bl_cli_close_output (out, &error))
    {
      fprintf (stderr, "brightlens-cli: %s\n", error->message);
      return BL_CLI_INVALID_INPUT;
    }

  return BL_CLI_OK;
}
