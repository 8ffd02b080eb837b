/* bl-cli-export.c — brightlens-cli export FILE --format F [--metric M] [-o OUT]
 *                    [--from NS] [--to NS]
 * (--format svg: bl-cli-svg.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "brightlens-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "bl-cli.h"
#include "bl-perfetto-reader.h"
#include "bl-profile-range.h"
#include "bl-speedscope-writer.h"

/**
 * bl_cli_export_write_profile:
 * @format: "folded" or "speedscope"
 * @metric: the metric of folded output
 *
 * Writes what `export` writes for a profile; the fuzz target drives it.
 */
gboolean
bl_cli_export_write_profile (BlProfile      *profile,
                             const char     *format,
                             BlMetricId      metric,
                             GOutputStream  *out,
                             GError        **error)
{
  if (g_str_equal (format, "speedscope"))
    return bl_speedscope_write (profile, out, NULL, error);

  return bl_folded_write (profile, metric, out, NULL, error);
}

int
bl_cli_export (int    argc,
               char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) loaded = NULL;
  g_autoptr(GOutputStream) out = NULL;
  g_autofree char *format = NULL;
  g_autofree char *metric_name = NULL;
  g_autofree char *output = NULL;
  g_autofree char *thread = NULL;
  g_autofree char *title = NULL;
  int width = 0;
  g_autofree char *from_text = NULL;
  g_autofree char *to_text = NULL;
  g_autoptr(BlProfile) part = NULL;
  guint64 from = 0, to = G_MAXUINT64;
  g_auto(BlCliTransforms) transforms = { NULL };
  BlMetricId metric;
  BlProfile *profile;
  int status;
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format,
      N_("Output format: folded, speedscope, svg or csv"), N_("FORMAT") },
    { "metric", 'm', 0, G_OPTION_ARG_STRING, &metric_name,
      N_("Metric for folded output (cpu, wall, calls, alloc-bytes, …)"), N_("METRIC") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write to OUT instead of standard output"), N_("OUT") },
    { "width", 0, 0, G_OPTION_ARG_INT, &width,
      N_("SVG: width of the image in pixels (default 1200)"), N_("PX") },
    { "thread", 0, 0, G_OPTION_ARG_STRING, &thread,
      N_("SVG: only the threads of this name (default: all threads)"), N_("THREAD") },
    { "title", 0, 0, G_OPTION_ARG_STRING, &title,
      N_("SVG: the title at the top of the image"), N_("TITLE") },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from_text,
      N_("Only the time from NS on (a trace's timestamp in nanoseconds)"), N_("NS") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to_text,
      N_("Only the time before NS (a trace's timestamp in nanoseconds)"), N_("NS") },
    { NULL }
  };

  context = g_option_context_new (_("FILE — convert a profile or session"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  bl_cli_transform_add_options (context, &transforms);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return bl_cli_usage_error (context, error->message);
  if (argc != 2)
    return bl_cli_usage_error (context, _("export takes exactly one FILE."));
  if (format == NULL)
    return bl_cli_usage_error (context, _("--format is required."));
  if (!g_str_equal (format, "folded") && !g_str_equal (format, "speedscope") &&
      !g_str_equal (format, "csv") && !g_str_equal (format, "svg"))
    return bl_cli_usage_error (context,
                               _("The format must be folded, speedscope, svg or csv."));
  if (!g_str_equal (format, "svg") && (width != 0 || thread != NULL || title != NULL))
    return bl_cli_usage_error (context, _("--width, --thread and --title go with --format svg."));
  if (!bl_cli_svg_check_width (width, &error))
    return bl_cli_usage_error (context, error->message);

  if ((from_text != NULL || to_text != NULL) &&
      !g_str_equal (format, "folded") && !g_str_equal (format, "svg"))
    return bl_cli_usage_error (context, _("--from and --to go with --format folded or svg."));
  if ((from_text != NULL &&
       !g_ascii_string_to_unsigned (from_text, 10, 0, G_MAXUINT64, &from, NULL)) ||
      (to_text != NULL && !g_ascii_string_to_unsigned (to_text, 10, 0, G_MAXUINT64, &to, NULL)))
    return bl_cli_usage_error (context, _("--from and --to take a whole number of nanoseconds."));
  if (from >= to)
    return bl_cli_usage_error (context, _("--from must be before --to."));

  if (metric_name != NULL && bl_metric_from_name (metric_name) == BL_METRIC_INVALID)
    {
      bl_cli_parse_metric (metric_name, NULL, &status);
      return status;
    }

  if (g_str_equal (format, "csv") && transforms.transforms->len > 0)
    return bl_cli_usage_error (context, _("The transform options do not go with --format csv."));

  if (!(loaded = bl_cli_load (argv[1], &status)) ||
      !bl_cli_transform_apply (&transforms, &loaded, argv[1], &status))
    return status;

  /* heap graphs alone (a trace without slices or counters): every format
   * would come out empty */
  if (BL_IS_PROFILE (loaded) && bl_profile_get_n_threads (BL_PROFILE (loaded)) == 0 &&
      bl_profile_get_n_heaps (BL_PROFILE (loaded)) > 0 &&
      (bl_perfetto_get_trace (BL_PROFILE (loaded)) == NULL ||
       bl_perfetto_get_trace (BL_PROFILE (loaded))->counters->len == 0))
    {
      fprintf (stderr, _("brightlens-cli: %s holds only heap graphs, so there is nothing to "
                         "export; brightlens-cli heap reads them.\n"), argv[1]);
      return BL_CLI_INVALID_INPUT;
    }

  if (g_str_equal (format, "csv") && BL_IS_PROFILE (loaded) &&
      bl_perfetto_get_trace (BL_PROFILE (loaded)) != NULL)
    return bl_cli_perfetto_export_csv (BL_PROFILE (loaded), argv[1], output);
  if (g_str_equal (format, "csv"))
    return bl_cli_session_export_csv (loaded, argv[1], output);

  if (g_str_equal (format, "speedscope"))
    {
      if (!BL_IS_PROFILE (loaded))
        {
          fprintf (stderr, _("brightlens-cli: %s: a speedscope file can only be made from a "
                             "profile.\n"), argv[1]);
          return BL_CLI_INVALID_INPUT;
        }
      if (!(out = bl_cli_open_output (output, &error)) ||
          !bl_cli_export_write_profile (BL_PROFILE (loaded), format, BL_METRIC_INVALID, out,
                                        &error) ||
          !bl_cli_close_output (out, &error))
        {
          fprintf (stderr, "brightlens-cli: %s\n", error->message);
          return BL_CLI_INVALID_INPUT;
        }
      return BL_CLI_OK;
    }

  if (!BL_IS_PROFILE (loaded))
    {
      fprintf (stderr,
               g_str_equal (format, "svg")
               ? _("brightlens-cli: %s: a flame graph can only be made from a profile.\n")
               : _("brightlens-cli: %s: folded stacks can only be made from a profile.\n"),
               argv[1]);
      return BL_CLI_INVALID_INPUT;
    }
  profile = BL_PROFILE (loaded);

  /* a time range: the call tree of the time inside it */
  if (from_text != NULL || to_text != NULL)
    {
      g_autoptr(BlProfileRange) range = NULL;

      if (!bl_profile_has_time_order (profile))
        {
          fprintf (stderr, _("brightlens-cli: %s: --from and --to need a profile with events "
                             "in time order (a trace).\n"), argv[1]);
          return BL_CLI_INVALID_INPUT;
        }
      range = bl_profile_range_new (profile);
      part = bl_profile_range_build (range, from, to, NULL);
      profile = part;
    }

  metric = bl_cli_parse_metric (metric_name, profile, &status);
  if (metric == BL_METRIC_INVALID && status == BL_CLI_OK)
    fprintf (stderr, _("brightlens-cli: %s has no values of any metric, so there are no "
                       "folded stacks to write.\n"), argv[1]);
  if (metric == BL_METRIC_INVALID)
    return status == BL_CLI_OK ? BL_CLI_INVALID_INPUT : status;

  if (!bl_profile_has_metric (profile, metric))
    fprintf (stderr, _("brightlens-cli: warning: %s has no %s data; the output is empty.\n"),
             argv[1], bl_metric_get_name (metric));

  if (g_str_equal (format, "svg"))
    return bl_cli_export_svg (profile, argv[1], metric, thread, width, title, output);

  if (!(out = bl_cli_open_output (output, &error)) ||
      !bl_cli_export_write_profile (profile, format, metric, out, &error) ||
      !bl_cli_close_output (out, &error))
    {
      fprintf (stderr, "brightlens-cli: %s\n", error->message);
      return BL_CLI_INVALID_INPUT;
    }

  return BL_CLI_OK;
}
