/* bl-cli-session.c — brightlens-cli for Roku Resource Monitor sessions:
 * info, CSV export and the CI check
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "brightlens-cli"

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bl-cli.h"
#include "bl-json-text.h"

static void
print_warnings (BlSession  *session,
                const char *path)
{
  const char *warning = bl_session_get_warning (session);
  g_auto(GStrv) lines = NULL;

  if (warning == NULL)
    return;
  lines = g_strsplit (warning, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    fprintf (stderr, _("brightlens-cli: warning: %s: %s\n"), path, lines[i]);
}

/* ---- info --------------------------------------------------------------- */

static void
add_number (JsonBuilder *builder,
            const char  *name,
            double       value)
{
  json_builder_set_member_name (builder, name);
  if (isnan (value))
    json_builder_add_null_value (builder);
  else if (value == floor (value) && fabs (value) < 9007199254740992.0)
    json_builder_add_int_value (builder, (gint64) value);
  else
    json_builder_add_double_value (builder, value);
}

static JsonNode *
session_to_json (BlSession *session)
{
  const BlSessionInfo *info = bl_session_get_info (session);
  const BlSessionSummary *sum = bl_session_get_summary (session);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  const BlBeacon *beacons;
  const BlInterval *intervals;
  guint n_beacons, n_intervals;

  beacons = bl_session_get_beacons (session, &n_beacons);
  intervals = bl_session_get_intervals (session, &n_intervals);

  json_builder_begin_object (builder);
  bl_json_add_string (builder, "format", "rrm");
  bl_json_add_string (builder, "file_version", info->file_version);

  json_builder_set_member_name (builder, "device");
  json_builder_begin_object (builder);
  bl_json_add_string (builder, "name", info->device_name);
  bl_json_add_string (builder, "model", info->model_number);
  bl_json_add_string (builder, "serial", info->serial_number);
  bl_json_add_string (builder, "software_version", info->software_version);
  add_number (builder, "software_build", info->software_build >= 0 ? info->software_build : NAN);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "app");
  json_builder_begin_object (builder);
  bl_json_add_string (builder, "id", info->channel_id);
  bl_json_add_string (builder, "name", info->channel_name);
  bl_json_add_string (builder, "version", info->channel_version);
  json_builder_end_object (builder);

  bl_json_add_string (builder, "uuid", info->uuid);
  add_number (builder, "started_at_ms", info->started_at_ms ? (double) info->started_at_ms : NAN);
  add_number (builder, "foreground_limit",
              info->has_foreground_limit ? (double) info->foreground_limit : NAN);
  add_number (builder, "background_limit",
              info->has_background_limit ? (double) info->background_limit : NAN);

  add_number (builder, "start_ms", (double) sum->start_ms);
  add_number (builder, "end_ms", (double) sum->end_ms);
  add_number (builder, "duration_ms", (double) (sum->end_ms - sum->start_ms));
  add_number (builder, "peak_memory", sum->peak_memory);
  add_number (builder, "peak_memory_ms",
              isnan (sum->peak_memory) ? NAN : (double) sum->peak_memory_ms);
  add_number (builder, "peak_foreground_fraction", sum->peak_foreground_fraction);
  add_number (builder, "peak_background_fraction", sum->peak_background_fraction);
  add_number (builder, "mean_cpu", sum->mean_cpu);
  add_number (builder, "peak_cpu", sum->peak_cpu);
  add_number (builder, "mean_fps", sum->mean_fps);
  add_number (builder, "min_fps", sum->min_fps);
  add_number (builder, "launch_ms", sum->launch_ms);
  add_number (builder, "rendezvous_count", sum->rendezvous_count);
  add_number (builder, "rendezvous_drops", sum->rendezvous_drops);
  add_number (builder, "memory_growth_per_min", sum->memory_growth_per_min);

  json_builder_set_member_name (builder, "samples");
  json_builder_begin_object (builder);
  for (BlSeriesId id = 0; id < BL_N_SERIES; id++)
    {
      guint n = 0, present = 0;
      const BlSample *s = bl_session_get_series (session, id, &n);

      for (guint i = 0; i < n; i++)
        present += s[i].present;
      json_builder_set_member_name (builder, bl_series_get_info (id)->name);
      json_builder_add_int_value (builder, present);
    }
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "beacons");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_beacons; i++)
    {
      json_builder_begin_object (builder);
      bl_json_add_string (builder, "name", beacons[i].name);
      add_number (builder, "timestamp_ms", (double) beacons[i].timestamp_ms);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "intervals");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_intervals; i++)
    {
      json_builder_begin_object (builder);
      bl_json_add_string (builder, "name", intervals[i].name);
      add_number (builder, "start_ms", (double) intervals[i].start_ms);
      add_number (builder, "end_ms", (double) intervals[i].end_ms);
      add_number (builder, "duration_ms", (double) (intervals[i].end_ms - intervals[i].start_ms));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "incomplete");
  json_builder_add_boolean_value (builder, bl_session_is_incomplete (session));
  bl_json_add_string (builder, "warning", bl_session_get_warning (session));
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static char *
format_clock (gint64 ms)
{
  gint64 s = ms / 1000;

  if (s >= 3600)
    return g_strdup_printf ("%" G_GINT64_FORMAT ":%02d:%02d", s / 3600, (int) (s / 60 % 60),
                            (int) (s % 60));
  return g_strdup_printf ("%d:%02d", (int) (s / 60), (int) (s % 60));
}

static char *
format_bytes (double bytes)
{
  if (isnan (bytes))
    return g_strdup (_("no data"));
  return bl_series_format_value (BL_SERIES_MEMORY_USED, bytes);
}

static void
print_session (BlSession *session)
{
  const BlSessionInfo *info = bl_session_get_info (session);
  const BlSessionSummary *sum = bl_session_get_summary (session);
  g_autofree char *duration = format_clock (sum->end_ms - sum->start_ms);
  g_autofree char *peak = format_bytes (sum->peak_memory);
  const BlInterval *intervals;
  guint n_beacons, n_intervals;

  bl_session_get_beacons (session, &n_beacons);
  intervals = bl_session_get_intervals (session, &n_intervals);

  printf (_("Format:       Roku Resource Monitor session %s\n"),
          info->file_version ? info->file_version : "");
  printf (_("Device:       %s %s, software %s build %" PRId64 "\n"),
          info->device_name ? info->device_name : "",
          info->model_number ? info->model_number : "",
          info->software_version ? info->software_version : "?",
          info->software_build);
  printf (_("App:          %s %s (%s)\n"),
          info->channel_name ? info->channel_name : "",
          info->channel_version ? info->channel_version : "",
          info->channel_id ? info->channel_id : "");
  if (sum->start_ms > 0)
    {
      g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc (sum->start_ms / 1000);
      g_autofree char *start = dt ? g_date_time_format (dt, "%Y-%m-%d %H:%M:%S UTC") : NULL;

      printf (_("Started:      %s\n"), start ? start : "?");
    }
  printf (_("Duration:     %s\n"), duration);

  if (isnan (sum->peak_memory))
    printf ("%s\n", _("Peak memory:  no data"));
  else
    {
      g_autofree char *at = format_clock (sum->peak_memory_ms - sum->start_ms);

      printf (_("Peak memory:  %s at %s\n"), peak, at);
    }
  if (info->has_foreground_limit)
    {
      g_autofree char *limit = format_bytes ((double) info->foreground_limit);

      printf (_("  foreground limit %s: peak at %.1f %% (Roku advises at most 75 %%)\n"),
              limit, sum->peak_foreground_fraction * 100);
    }
  else
    printf ("%s\n", _("  no foreground limit on this device"));
  if (info->has_background_limit)
    {
      g_autofree char *limit = format_bytes ((double) info->background_limit);

      printf (_("  background limit %s: peak at %.1f %%\n"),
              limit, sum->peak_background_fraction * 100);
    }
  else
    printf ("%s\n", _("  no background limit on this device"));

  if (isnan (sum->memory_growth_per_min))
    printf ("%s\n", _("Memory growth: no data"));
  else
    {
      g_autofree char *growth = format_bytes (sum->memory_growth_per_min);

      printf (_("Memory growth: %s per minute\n"), growth);
    }
  if (isnan (sum->mean_cpu))
    printf ("%s\n", _("Mean CPU:     no data"));
  else
    printf (_("Mean CPU:     %.1f %% (peak %.1f %%)\n"), sum->mean_cpu, sum->peak_cpu);
  if (isnan (sum->mean_fps))
    printf ("%s\n", _("Frame rate:   no data"));
  else
    printf (_("Frame rate:   mean %.1f fps, minimum %.1f fps\n"), sum->mean_fps, sum->min_fps);
  if (isnan (sum->launch_ms))
    printf ("%s\n", _("Launch time:  no launch beacons"));
  else
    printf (_("Launch time:  %.0f ms\n"), sum->launch_ms);
  if (isnan (sum->rendezvous_count))
    printf ("%s\n", _("Rendezvous:   no data"));
  else
    printf (_("Rendezvous:   %.0f (%.0f dropped)\n"), sum->rendezvous_count,
            isnan (sum->rendezvous_drops) ? 0 : sum->rendezvous_drops);
  printf (_("Beacons:      %u\n"), n_beacons);
  for (guint i = 0; i < n_intervals; i++)
    {
      g_autofree char *at = format_clock (intervals[i].start_ms - sum->start_ms);

      printf ("  %-28s %6" G_GINT64_FORMAT " ms  (%s)\n", intervals[i].name,
              intervals[i].end_ms - intervals[i].start_ms, at);
    }
  if (bl_session_is_incomplete (session))
    printf (_("Incomplete:   %s\n"), bl_session_get_incomplete_reason (session));
}

/**
 * bl_cli_session_info:
 *
 * `brightlens-cli info SESSION [--json]` once the file is loaded.
 */
int
bl_cli_session_info (BlSession  *session,
                     const char *path,
                     gboolean    json)
{
  print_warnings (session, path);

  if (json)
    {
      g_autoptr(JsonNode) node = session_to_json (session);

      bl_cli_print_json (node);
    }
  else
    print_session (session);

  return BL_CLI_OK;
}

/* ---- export --------------------------------------------------------------- */

/**
 * bl_cli_session_export_csv:
 *
 * `brightlens-cli export SESSION --format csv [-o OUT]` once the file is
 * loaded (@loaded may be a profile: that is an error).
 */
int
bl_cli_session_export_csv (GObject    *loaded,
                           const char *path,
                           const char *output)
{
  g_autoptr(GOutputStream) out = NULL;
  g_autoptr(GError) error = NULL;

  if (!BL_IS_SESSION (loaded))
    {
      fprintf (stderr, _("brightlens-cli: %s: a CSV can only be made from a Roku Resource "
                         "Monitor session.\n"), path);
      return BL_CLI_INVALID_INPUT;
    }

  print_warnings (BL_SESSION (loaded), path);

  if (!(out = bl_cli_open_output (output, &error)) ||
      !bl_session_write_csv (BL_SESSION (loaded), out, NULL, &error) ||
      !bl_cli_close_output (out, &error))
    {
      fprintf (stderr, "brightlens-cli: %s\n", error->message);
      return BL_CLI_INVALID_INPUT;
    }

  return BL_CLI_OK;
}

/* ---- check ------------------------------------------------------------------ */

typedef struct
{
  double max_fraction;
  double max_growth;
  double min_fps;
  double max_launch;
} CheckLimits;

/* Parses a session limit: NaN stands for "not given", so a limit itself must
 * be a finite number ("nan" or "inf" would silently turn a rule off). */
static gboolean
parse_limit (const char  *option_name,
             const char  *value,
             gpointer     data,
             GError     **error)
{
  CheckLimits *limits = data;
  char *end = NULL;
  double v = g_ascii_strtod (value, &end);

  if (end == value || *end != '\0' || !isfinite (v))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s needs a finite number, not “%s”."), option_name, value);
      return FALSE;
    }

  if (g_str_equal (option_name, "--max-foreground-fraction"))
    limits->max_fraction = v;
  else if (g_str_equal (option_name, "--max-memory-growth"))
    limits->max_growth = v;
  else if (g_str_equal (option_name, "--min-fps"))
    limits->min_fps = v;
  else
    limits->max_launch = v;

  return TRUE;
}

int
bl_cli_check (int    argc,
              char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) loaded = NULL;
  g_autoptr(BlCliCheckReport) report = NULL;
  g_auto(BlCliCheckOptions) profile_rules = { 0 };
  CheckLimits limits = { NAN, NAN, NAN, NAN };
  GOptionGroup *group;
  const BlSessionSummary *sum;
  g_autofree char *output = NULL;
  gboolean session_rules;
  int status;
  const GOptionEntry entries[] = {
    { "max-foreground-fraction", 0, 0, G_OPTION_ARG_CALLBACK, parse_limit,
      N_("Fail if peak memory exceeds this fraction of the foreground limit (e.g. 0.75)"),
      N_("F") },
    { "max-memory-growth", 0, 0, G_OPTION_ARG_CALLBACK, parse_limit,
      N_("Fail if memory grows faster than this many bytes per minute"),
      N_("BYTES_PER_MIN") },
    { "min-fps", 0, 0, G_OPTION_ARG_CALLBACK, parse_limit,
      N_("Fail if the frame rate drops below N"), N_("N") },
    { "max-launch-ms", 0, 0, G_OPTION_ARG_CALLBACK, parse_limit,
      N_("Fail if launch takes longer than N milliseconds"), N_("N") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write the report to OUT instead of standard output"), N_("OUT") },
    { NULL }
  };

  context = g_option_context_new (_("FILE — check a session or a profile against limits, "
                                    "for CI"));
  group = g_option_group_new (NULL, NULL, NULL, &limits, NULL);
  g_option_group_add_entries (group, entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_context_set_main_group (context, group);
  bl_cli_check_add_options (context, &profile_rules);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
                                    _("Prints each rule with the measured value and PASS or "
                                      "FAIL. A rule the input has no data for fails. Exit "
                                      "status: 0 every rule passed, 1 the input is unreadable "
                                      "or invalid, 2 wrong usage, 3 a rule failed."));

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return bl_cli_usage_error (context, error->message);
  if (argc != 2)
    return bl_cli_usage_error (context, _("check takes exactly one FILE."));
  session_rules = !isnan (limits.max_fraction) || !isnan (limits.max_growth) ||
                  !isnan (limits.min_fps) || !isnan (limits.max_launch);
  if (!session_rules && !bl_cli_check_has_profile_rules (&profile_rules))
    return bl_cli_usage_error (context, _("Give at least one rule."));
  if ((!isnan (limits.max_fraction) && !(limits.max_fraction > 0)) ||
      (!isnan (limits.min_fps) && !(limits.min_fps >= 0)) ||
      (!isnan (limits.max_launch) && !(limits.max_launch >= 0)))
    return bl_cli_usage_error (context, _("A limit is out of range: fractions must be above 0, "
                                          "frame rates and times at least 0."));
  if (!bl_cli_check_validate (&profile_rules, &error))
    return bl_cli_usage_error (context, error->message);

  if (!(loaded = bl_cli_load (argv[1], &status)))
    return status;
  if (BL_IS_SESSION (loaded) && bl_cli_check_has_profile_rules (&profile_rules))
    {
      fprintf (stderr, _("brightlens-cli: %s: --max-total, --max-self and --max-live-bytes "
                         "need a profile, and this is a session.\n"), argv[1]);
      return BL_CLI_INVALID_INPUT;
    }
  if (BL_IS_PROFILE (loaded) && session_rules)
    {
      fprintf (stderr, _("brightlens-cli: %s: check needs a Roku Resource Monitor session.\n"),
               argv[1]);
      return BL_CLI_INVALID_INPUT;
    }

  if (!bl_cli_redirect_stdout (output, &error))
    {
      fprintf (stderr, "brightlens-cli: %s\n", error->message);
      return BL_CLI_INVALID_INPUT;
    }

  report = bl_cli_check_report_new ();
  if (BL_IS_PROFILE (loaded))
    {
      bl_cli_check_profile (BL_PROFILE (loaded), &profile_rules, report);
      return bl_cli_finish_stdout (bl_cli_check_report_finish (report, profile_rules.format,
                                                               argv[1]));
    }

  print_warnings (BL_SESSION (loaded), argv[1]);
  sum = bl_session_get_summary (BL_SESSION (loaded));

  if (!isnan (limits.max_fraction))
    bl_cli_check_report_add (report, "max-foreground-fraction", sum->peak_foreground_fraction,
                             "", TRUE, limits.max_fraction);
  if (!isnan (limits.max_growth))
    bl_cli_check_report_add (report, "max-memory-growth", sum->memory_growth_per_min,
                             " B/min", TRUE, limits.max_growth);
  if (!isnan (limits.min_fps))
    bl_cli_check_report_add (report, "min-fps", sum->min_fps, " fps", FALSE, limits.min_fps);
  if (!isnan (limits.max_launch))
    bl_cli_check_report_add (report, "max-launch-ms", sum->launch_ms, " ms", TRUE,
                             limits.max_launch);

  return bl_cli_finish_stdout (bl_cli_check_report_finish (report, profile_rules.format,
                                                           argv[1]));
}
