/* bl-cli-info.c — brightlens-cli info FILE [--json]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "brightlens-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "bl-cli.h"

JsonNode *
bl_cli_profile_to_json (BlProfile *profile)
{
  const BlProfileInfo *info = bl_profile_get_info (profile);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  BlMetricId metrics[BL_N_METRICS];
  guint n_metrics = bl_profile_list_metrics (profile, metrics);
  guint n_threads = bl_profile_get_n_threads (profile);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, info->format);
  json_builder_set_member_name (builder, "major");
  json_builder_add_int_value (builder, info->major);
  json_builder_set_member_name (builder, "minor");
  json_builder_add_int_value (builder, info->minor);
  json_builder_set_member_name (builder, "patch");
  json_builder_add_int_value (builder, info->patch);
  json_builder_set_member_name (builder, "target");
  json_builder_add_string_value (builder, info->target ? info->target : "");
  json_builder_set_member_name (builder, "supplemental");
  json_builder_add_string_value (builder, info->supplemental ? info->supplemental : "");
  json_builder_set_member_name (builder, "version");
  json_builder_add_string_value (builder, info->version ? info->version : "");
  json_builder_set_member_name (builder, "vendor");
  json_builder_add_string_value (builder, info->vendor ? info->vendor : "");
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, info->model ? info->model : "");
  json_builder_set_member_name (builder, "firmware");
  json_builder_add_string_value (builder, info->firmware ? info->firmware : "");
  json_builder_set_member_name (builder, "start_ms");
  json_builder_add_int_value (builder, (gint64) info->start_ms);
  json_builder_set_member_name (builder, "end_ms");
  json_builder_add_int_value (builder, (gint64) info->end_ms);
  json_builder_set_member_name (builder, "requested_ratio");
  json_builder_add_double_value (builder, info->requested_ratio);
  json_builder_set_member_name (builder, "actual_ratio");
  json_builder_add_double_value (builder, info->actual_ratio);
  json_builder_set_member_name (builder, "lines");
  json_builder_add_boolean_value (builder, info->has_lines);
  json_builder_set_member_name (builder, "memory");
  json_builder_add_boolean_value (builder, info->has_memory);
  json_builder_set_member_name (builder, "threads");
  json_builder_add_int_value (builder, n_threads);
  json_builder_set_member_name (builder, "thread_names");
  json_builder_begin_array (builder);
  for (guint t = 0; t < n_threads; t++)
    json_builder_add_string_value (builder, bl_profile_get_thread_name (profile, t));
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "nodes");
  json_builder_add_int_value (builder, bl_profile_get_n_nodes (profile) - n_threads);
  json_builder_set_member_name (builder, "functions");
  json_builder_add_int_value (builder, bl_profile_get_n_functions (profile) - n_threads);
  json_builder_set_member_name (builder, "source_lines");
  json_builder_add_int_value (builder, bl_profile_get_n_lines (profile));
  json_builder_set_member_name (builder, "totals");
  json_builder_begin_object (builder);
  for (guint i = 0; i < n_metrics; i++)
    {
      guint64 total = bl_profile_get_grand_total (profile, metrics[i]);

      /* JSON integers here are signed 64-bit: saturate, and say so */
      if (total > G_MAXINT64 && bl_profile_get_metric_decimals (profile, metrics[i]) == 0)
        fprintf (stderr, _("brightlens-cli: warning: the %s total is 2^63 or more; it is "
                           "written as 9223372036854775807.\n"),
                 bl_metric_get_name (metrics[i]));
      json_builder_set_member_name (builder, bl_metric_get_name (metrics[i]));
      if (bl_profile_get_metric_decimals (profile, metrics[i]) == 0)
        json_builder_add_int_value (builder, (gint64) MIN (total, (guint64) G_MAXINT64));
      else
        json_builder_add_double_value (builder, bl_profile_to_base_unit (profile, metrics[i],
                                                                         total));
    }
  json_builder_end_object (builder);
  bl_cli_perfetto_add_json (builder, profile);
  json_builder_set_member_name (builder, "unmatched_frees");
  json_builder_add_int_value (builder, (gint64) info->unmatched_frees);
  json_builder_set_member_name (builder, "incomplete");
  json_builder_add_boolean_value (builder, bl_profile_is_incomplete (profile));
  json_builder_set_member_name (builder, "warning");
  if (bl_profile_get_warning (profile) != NULL)
    json_builder_add_string_value (builder, bl_profile_get_warning (profile));
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static char *
format_time_ms (guint64 ms)
{
  g_autoptr(GDateTime) dt = NULL;

  if (ms == 0)
    return g_strdup (_("unknown"));

  dt = g_date_time_new_from_unix_utc ((gint64) (ms / 1000));
  if (dt == NULL)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " ms", ms);

  return g_date_time_format (dt, "%Y-%m-%d %H:%M:%S UTC");
}

static void
print_profile (BlProfile *profile)
{
  const BlProfileInfo *info = bl_profile_get_info (profile);
  g_autofree char *start = format_time_ms (info->start_ms);
  BlMetricId metrics[BL_N_METRICS];
  guint n_metrics = bl_profile_list_metrics (profile, metrics);
  guint n_threads = bl_profile_get_n_threads (profile);

  printf (_("Format:       %s %u.%u.%u\n"), info->format, info->major, info->minor, info->patch);
  if (info->target && *info->target)
    printf (_("App:          %s %s\n"), info->target, info->version ? info->version : "");
  if (info->supplemental && *info->supplemental)
    printf (_("Details:      %s\n"), info->supplemental);
  if ((info->vendor && *info->vendor) || (info->model && *info->model))
    printf (_("Device:       %s %s, firmware %s\n"),
            info->vendor ? info->vendor : "", info->model ? info->model : "",
            info->firmware ? info->firmware : "");
  printf (_("Started:      %s\n"), start);
  if (info->end_ms > info->start_ms && info->start_ms != 0)
    {
      g_autofree char *duration = bl_format_duration_us ((info->end_ms - info->start_ms) * 1000);

      printf (_("Duration:     %s\n"), duration);
    }
  if (g_str_equal (info->format, "bsprof"))
    {
      printf (_("Sample ratio: %.3g requested, %.3g actual\n"),
              info->requested_ratio, info->actual_ratio);
      printf (_("Line data:    %s\n"), info->has_lines ? _("yes") : _("no"));
      printf (_("Memory data:  %s\n"), info->has_memory ? _("yes") : _("no"));
    }
  printf (_("Threads:      %u\n"), n_threads);
  for (guint t = 0; t < n_threads; t++)
    printf ("              %s\n", bl_profile_get_thread_name (profile, t));
  printf (_("Call paths:   %u (%u functions)\n"),
          bl_profile_get_n_nodes (profile) - n_threads,
          bl_profile_get_n_functions (profile) - n_threads);
  printf ("%s\n", _("Totals:"));
  for (guint i = 0; i < n_metrics; i++)
    {
      const BlMetricInfo *mi = bl_metric_get_info (metrics[i]);
      guint64 total = bl_profile_get_grand_total (profile, metrics[i]);
      g_autofree char *value = bl_profile_format_value (profile, metrics[i], total);

      printf ("  %-18s %s\n", g_dgettext (GETTEXT_PACKAGE, mi->display_name), value);
    }
  bl_cli_perfetto_print (profile);
  if (bl_profile_is_incomplete (profile))
    printf (_("Incomplete:   %s\n"), bl_profile_get_incomplete_reason (profile));
}

int
bl_cli_info (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) loaded = NULL;
  g_autofree char *output = NULL;
  gboolean json = FALSE;
  int status;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON object"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write to OUT instead of standard output"), N_("OUT") },
    { NULL }
  };

  context = g_option_context_new (_("FILE — summarise a profile, session or recording"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return bl_cli_usage_error (context, error->message);
  if (argc != 2)
    return bl_cli_usage_error (context, _("info takes exactly one FILE."));

  if (!(loaded = bl_cli_load_any (argv[1], &status)))
    return status;

  if (!bl_cli_redirect_stdout (output, &error))
    {
      fprintf (stderr, "brightlens-cli: %s\n", error->message);
      return BL_CLI_INVALID_INPUT;
    }

  if (BL_IS_PROFILE (loaded))
    {
      if (json)
        {
          g_autoptr(JsonNode) node = bl_cli_profile_to_json (BL_PROFILE (loaded));

          bl_cli_print_json (node);
        }
      else
        print_profile (BL_PROFILE (loaded));
    }
  else if (BL_IS_SESSION (loaded))
    return bl_cli_finish_stdout (bl_cli_session_info (BL_SESSION (loaded), argv[1], json));
  else if (BL_IS_RECORDING (loaded))
    return bl_cli_finish_stdout (bl_cli_recording_info (BL_RECORDING (loaded), argv[1], json));

  return bl_cli_finish_stdout (BL_CLI_OK);
}
