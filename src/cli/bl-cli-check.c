/* bl-cli-check.c — check's rules on profiles, and its report as text, JSON
 * or JUnit XML
 *
 *   brightlens-cli check FILE [--max-total [FUNCTION:]METRIC=LIMIT]…
 *                             [--max-self [FUNCTION:]METRIC=LIMIT]…
 *                             [--max-live-bytes SIZE] [--format text|json|junit]
 *
 * A LIMIT takes the metric's unit: ns, us, ms, s for times; B, KiB, MiB,
 * GiB, kB, MB, GB for bytes; a bare number is the metric's base unit. A
 * rule on a function that is not in the profile, or on a metric the
 * profile has no data for, fails: CI cannot vouch for what it did not see.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "brightlens-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bl-cli.h"

typedef struct
{
  char     *rule;
  double    measured;   /* NAN: no data */
  double    limit;
  char     *unit;       /* " us", " B/min", "" */
  gboolean  at_most;
  gboolean  pass;
} Rule;

struct _BlCliCheckReport
{
  GArray *rules;
};

static void
rule_clear (gpointer data)
{
  Rule *rule = data;

  g_free (rule->rule);
  g_free (rule->unit);
}

/* At most four decimals, no exponent, never locale-dependent. */
static char *
machine_number (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE + 320];
  gsize len;

  g_ascii_formatd (buf, sizeof buf, "%.4f", value);
  len = strlen (buf);
  while (len > 0 && buf[len - 1] == '0')
    buf[--len] = '\0';
  if (len > 0 && buf[len - 1] == '.')
    buf[--len] = '\0';
  if (strcmp (buf, "-0") == 0)
    return g_strdup ("0");

  return g_strdup (buf);
}

BlCliCheckReport *
bl_cli_check_report_new (void)
{
  BlCliCheckReport *report = g_new0 (BlCliCheckReport, 1);

  report->rules = g_array_new (FALSE, TRUE, sizeof (Rule));
  g_array_set_clear_func (report->rules, rule_clear);

  return report;
}

void
bl_cli_check_report_free (BlCliCheckReport *report)
{
  g_array_unref (report->rules);
  g_free (report);
}

/**
 * bl_cli_check_report_add:
 * @measured: the value, or NAN when the input has no data for the rule
 * @unit: appended to numbers in the text report (" ms", "")
 * @at_most: whether @limit is a maximum (else a minimum)
 *
 * Returns: whether the rule passed (a rule without data fails)
 */
gboolean
bl_cli_check_report_add (BlCliCheckReport *report,
                         const char       *rule,
                         double            measured,
                         const char       *unit,
                         gboolean          at_most,
                         double            limit)
{
  Rule r = { g_strdup (rule), measured, limit, g_strdup (unit), at_most, FALSE };

  if (!isnan (measured))
    r.pass = at_most ? measured <= limit : measured >= limit;
  g_array_append_val (report->rules, r);

  return r.pass;
}

static guint
count_failed (BlCliCheckReport *report)
{
  guint failed = 0;

  for (guint i = 0; i < report->rules->len; i++)
    failed += !g_array_index (report->rules, Rule, i).pass;

  return failed;
}

static void
print_text (BlCliCheckReport *report)
{
  guint failed = count_failed (report);

  for (guint i = 0; i < report->rules->len; i++)
    {
      const Rule *r = &g_array_index (report->rules, Rule, i);
      g_autofree char *limit = machine_number (r->limit);

      if (isnan (r->measured))
        printf ("%s: no data (limit %s%s) FAIL\n", r->rule, limit, r->unit);
      else
        {
          g_autofree char *value = machine_number (r->measured);

          printf ("%s: %s%s (limit %s%s) %s\n", r->rule, value, r->unit, limit, r->unit,
                  r->pass ? "PASS" : "FAIL");
        }
    }

  if (failed > 0)
    printf ("FAIL: %u of %u rules failed\n", failed, report->rules->len);
  else
    printf ("PASS: %u of %u rules passed\n", report->rules->len, report->rules->len);
}

static void
print_json (BlCliCheckReport *report,
            const char       *path)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "file");
  json_builder_add_string_value (builder, path);
  json_builder_set_member_name (builder, "passed");
  json_builder_add_boolean_value (builder, count_failed (report) == 0);
  json_builder_set_member_name (builder, "rules");
  json_builder_begin_array (builder);
  for (guint i = 0; i < report->rules->len; i++)
    {
      const Rule *r = &g_array_index (report->rules, Rule, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "rule");
      json_builder_add_string_value (builder, r->rule);
      json_builder_set_member_name (builder, "measured");
      if (isnan (r->measured))
        json_builder_add_null_value (builder);
      else
        json_builder_add_double_value (builder, r->measured);
      json_builder_set_member_name (builder, r->at_most ? "max" : "min");
      json_builder_add_double_value (builder, r->limit);
      json_builder_set_member_name (builder, "unit");
      json_builder_add_string_value (builder, g_strstrip (g_strdup (r->unit)));
      json_builder_set_member_name (builder, "passed");
      json_builder_add_boolean_value (builder, r->pass);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  bl_cli_print_json (root);
}

/* JUnit XML as GitLab and GitHub read it: one test case per rule. */
static void
print_junit (BlCliCheckReport *report,
             const char       *path)
{
  guint failed = count_failed (report);
  g_autofree char *file = g_markup_escape_text (path, -1);

  printf ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  printf ("<testsuites name=\"brightlens-cli check\" tests=\"%u\" failures=\"%u\" "
          "errors=\"0\">\n", report->rules->len, failed);
  printf ("  <testsuite name=\"%s\" tests=\"%u\" failures=\"%u\" errors=\"0\" "
          "skipped=\"0\">\n", file, report->rules->len, failed);
  for (guint i = 0; i < report->rules->len; i++)
    {
      const Rule *r = &g_array_index (report->rules, Rule, i);
      g_autofree char *name = g_markup_escape_text (r->rule, -1);
      g_autofree char *limit = machine_number (r->limit);
      g_autofree char *value = isnan (r->measured) ? g_strdup ("no data")
                                                   : machine_number (r->measured);
      g_autofree char *text = g_strdup_printf ("%s: %s%s (limit %s%s)", r->rule, value,
                                               isnan (r->measured) ? "" : r->unit,
                                               limit, r->unit);
      g_autofree char *escaped = g_markup_escape_text (text, -1);

      printf ("    <testcase classname=\"brightlens.check\" name=\"%s\" file=\"%s\">",
              name, file);
      if (r->pass)
        printf ("<system-out>%s</system-out></testcase>\n", escaped);
      else
        printf ("\n      <failure type=\"%s\" message=\"%s\">%s</failure>\n    </testcase>\n",
                isnan (r->measured) ? "no-data" : "limit-exceeded", escaped, escaped);
    }
  printf ("  </testsuite>\n</testsuites>\n");
}

/**
 * bl_cli_check_report_finish:
 * @format: (nullable): text (the default), json or junit
 *
 * Prints the report on standard output.
 *
 * Returns: %BL_CLI_OK if every rule passed, else %BL_CLI_CHECK_FAILED
 */
int
bl_cli_check_report_finish (BlCliCheckReport *report,
                            const char       *format,
                            const char       *path)
{
  if (g_strcmp0 (format, "json") == 0)
    print_json (report, path);
  else if (g_strcmp0 (format, "junit") == 0)
    print_junit (report, path);
  else
    print_text (report);

  return count_failed (report) > 0 ? BL_CLI_CHECK_FAILED : BL_CLI_OK;
}

/* ---- options ------------------------------------------------------------- */

void
bl_cli_check_add_options (GOptionContext    *context,
                          BlCliCheckOptions *options)
{
  const GOptionEntry entries[] = {
    { "max-total", 0, 0, G_OPTION_ARG_STRING_ARRAY, &options->max_total,
      N_("Profiles: fail if the total of METRIC (of FUNCTION, or of the whole profile) "
         "exceeds LIMIT, e.g. cpu=2s; may be repeated"), N_("[FUNCTION:]METRIC=LIMIT") },
    { "max-self", 0, 0, G_OPTION_ARG_STRING_ARRAY, &options->max_self,
      N_("Profiles: fail if FUNCTION’s self value (or the whole profile’s) exceeds LIMIT, "
         "e.g. parseFeed:cpu=50ms; may be repeated"), N_("[FUNCTION:]METRIC=LIMIT") },
    { "max-live-bytes", 0, 0, G_OPTION_ARG_STRING, &options->max_live_bytes,
      N_("Profiles: fail if more than SIZE is still allocated at the end, e.g. 1MiB"),
      N_("SIZE") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &options->format,
      N_("Report format: text, json or junit (JUnit XML for CI)"), N_("FORMAT") },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
}

void
bl_cli_check_options_clear (BlCliCheckOptions *options)
{
  g_clear_pointer (&options->max_total, g_strfreev);
  g_clear_pointer (&options->max_self, g_strfreev);
  g_clear_pointer (&options->max_live_bytes, g_free);
  g_clear_pointer (&options->format, g_free);
}

gboolean
bl_cli_check_has_profile_rules (const BlCliCheckOptions *options)
{
  return (options->max_total != NULL && options->max_total[0] != NULL) ||
         (options->max_self != NULL && options->max_self[0] != NULL) ||
         options->max_live_bytes != NULL;
}

static const struct
{
  const char *suffix;
  BlUnit      unit;
  double      factor;   /* to nanoseconds or bytes */
} suffixes[] = {
  { "ns", BL_UNIT_NANOSECONDS, 1 },
  { "us", BL_UNIT_NANOSECONDS, 1e3 },
  { "µs", BL_UNIT_NANOSECONDS, 1e3 },
  { "ms", BL_UNIT_NANOSECONDS, 1e6 },
  { "s", BL_UNIT_NANOSECONDS, 1e9 },
  { "B", BL_UNIT_BYTES, 1 },
  { "KiB", BL_UNIT_BYTES, 1024.0 },
  { "MiB", BL_UNIT_BYTES, 1024.0 * 1024 },
  { "GiB", BL_UNIT_BYTES, 1024.0 * 1024 * 1024 },
  { "kB", BL_UNIT_BYTES, 1e3 },
  { "MB", BL_UNIT_BYTES, 1e6 },
  { "GB", BL_UNIT_BYTES, 1e9 },
};

/**
 * bl_cli_parse_quantity:
 * @text: a number with an optional unit suffix ("50ms", "1MiB", "300")
 * @unit: the unit of the metric the value is for
 * @value: (out): the value in @unit
 *
 * Returns: %FALSE with @error set if @text is not a number ≥ 0 or its
 *   suffix does not fit @unit
 */
gboolean
bl_cli_parse_quantity (const char  *text,
                       BlUnit       unit,
                       double      *value,
                       GError     **error)
{
  const char *end = NULL;
  double number;

  number = g_ascii_strtod (text, (char **) &end);
  if (end == text || !isfinite (number) || number < 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("“%s” is not a number of 0 or more."), text);
      return FALSE;
    }
  while (*end == ' ')
    end++;

  if (*end == '\0')
    {
      *value = number;
      return TRUE;
    }

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    if (g_str_equal (end, suffixes[i].suffix))
      {
        if (suffixes[i].unit == BL_UNIT_BYTES && unit == BL_UNIT_BYTES)
          {
            *value = number * suffixes[i].factor;
            return TRUE;
          }
        if (suffixes[i].unit == BL_UNIT_NANOSECONDS && unit == BL_UNIT_NANOSECONDS)
          {
            *value = number * suffixes[i].factor;
            return TRUE;
          }
        if (suffixes[i].unit == BL_UNIT_NANOSECONDS && unit == BL_UNIT_MICROSECONDS)
          {
            *value = number * suffixes[i].factor / 1e3;
            return TRUE;
          }
        break;
      }

  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               unit == BL_UNIT_BYTES
               ? _("“%s”: a size takes B, KiB, MiB, GiB, kB, MB or GB.")
               : unit == BL_UNIT_MICROSECONDS || unit == BL_UNIT_NANOSECONDS
               ? _("“%s”: a time takes ns, us, ms or s.")
               : _("“%s”: this metric is a plain count, without a unit."),
               text);

  return FALSE;
}

static const char *
unit_suffix (BlUnit unit)
{
  switch (unit)
    {
    case BL_UNIT_MICROSECONDS:
      return " us";
    case BL_UNIT_NANOSECONDS:
      return " ns";
    case BL_UNIT_BYTES:
      return " B";
    case BL_UNIT_COUNT:
    case BL_UNIT_NONE:
    default:
      return "";
    }
}

typedef struct
{
  char       *function;   /* NULL: the whole profile */
  BlMetricId  metric;
  double      limit;
} ProfileRule;

/* "[FUNCTION:]METRIC=LIMIT"; the function name is what comes before the
 * last colon, so that names with colons work. */
static gboolean
parse_rule (const char   *text,
            ProfileRule  *rule,
            GError      **error)
{
  g_autofree char *left = NULL;
  const char *equals = strrchr (text, '=');
  const char *colon;
  const char *metric_name;

  memset (rule, 0, sizeof *rule);

  if (equals == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("“%s” is not a rule: write [FUNCTION:]METRIC=LIMIT, e.g. cpu=2s."), text);
      return FALSE;
    }
  left = g_strndup (text, equals - text);
  colon = strrchr (left, ':');
  metric_name = colon != NULL ? colon + 1 : left;

  rule->metric = bl_metric_from_name (metric_name);
  if (rule->metric == BL_METRIC_INVALID)
    {
      g_autoptr(GString) names = g_string_new (NULL);

      for (guint m = 0; m < BL_N_METRICS; m++)
        g_string_append_printf (names, "%s%s", m ? ", " : "", bl_metric_get_name (m));
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("“%s”: unknown metric “%s”; the metrics are %s."), text, metric_name,
                   names->str);
      return FALSE;
    }

  if (colon != NULL)
    {
      if (colon == left)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("“%s”: the function name before “:” is empty."), text);
          return FALSE;
        }
      rule->function = g_strndup (left, colon - left);
    }

  if (!bl_cli_parse_quantity (equals + 1, bl_metric_get_info (rule->metric)->unit,
                              &rule->limit, error))
    {
      g_clear_pointer (&rule->function, g_free);
      return FALSE;
    }

  return TRUE;
}

/**
 * bl_cli_check_validate:
 *
 * Checks the format and every profile rule before anything is loaded.
 *
 * Returns: %FALSE with @error set (a usage error)
 */
gboolean
bl_cli_check_validate (const BlCliCheckOptions  *options,
                       GError                  **error)
{
  char **lists[] = { options->max_total, options->max_self };
  double ignored;

  if (options->format != NULL && !g_str_equal (options->format, "text") &&
      !g_str_equal (options->format, "json") && !g_str_equal (options->format, "junit"))
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("The format must be text, json or junit."));
      return FALSE;
    }

  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint i = 0; lists[l] != NULL && lists[l][i] != NULL; i++)
      {
        ProfileRule rule;

        if (!parse_rule (lists[l][i], &rule, error))
          return FALSE;
        g_free (rule.function);
      }

  if (options->max_live_bytes != NULL &&
      !bl_cli_parse_quantity (options->max_live_bytes, BL_UNIT_BYTES, &ignored, error))
    return FALSE;

  return TRUE;
}

/* The function's value summed over every function of that name (the same
 * name in several files counts once per file), or NAN if none has it. */
static double
function_value (BlProfile  *profile,
                const char *name,
                BlMetricId  metric,
                gboolean    self)
{
  guint32 id = bl_profile_find_string (profile, name);
  guint64 sum = 0;
  gboolean found = FALSE;

  if (id == G_MAXUINT32)
    return NAN;

  for (guint f = 0; f < bl_profile_get_n_functions (profile); f++)
    if (bl_profile_get_function (profile, f)->name == id)
      {
        guint64 v = self ? bl_profile_get_function_self (profile, metric, f)
                         : bl_profile_get_function_total (profile, metric, f);

        sum = v > G_MAXUINT64 - sum ? G_MAXUINT64 : sum + v;
        found = TRUE;
      }

  return found ? bl_profile_to_base_unit (profile, metric, sum) : NAN;
}

static void
check_rules (BlProfile        *profile,
             char            **list,
             gboolean          self,
             BlCliCheckReport *report)
{
  for (guint i = 0; list != NULL && list[i] != NULL; i++)
    {
      g_autofree char *name = NULL;
      ProfileRule rule;
      double measured = NAN;

      if (!parse_rule (list[i], &rule, NULL))
        g_assert_not_reached ();   /* validated before loading */

      if (bl_profile_has_metric (profile, rule.metric))
        measured = rule.function == NULL
          ? bl_profile_to_base_unit (profile, rule.metric,
                                     bl_profile_get_grand_total (profile, rule.metric))
          : function_value (profile, rule.function, rule.metric, self);

      name = g_strdup_printf ("%s %s%s%s", self ? "max-self" : "max-total",
                              rule.function ? rule.function : "", rule.function ? ":" : "",
                              bl_metric_get_name (rule.metric));
      bl_cli_check_report_add (report, name, measured,
                               unit_suffix (bl_metric_get_info (rule.metric)->unit),
                               TRUE, rule.limit);
      g_free (rule.function);
    }
}

/**
 * bl_cli_check_profile:
 *
 * Adds the profile rules of @options, measured on @profile, to @report.
 */
void
bl_cli_check_profile (BlProfile               *profile,
                      const BlCliCheckOptions *options,
                      BlCliCheckReport        *report)
{
  check_rules (profile, options->max_total, FALSE, report);
  check_rules (profile, options->max_self, TRUE, report);

  if (options->max_live_bytes != NULL)
    {
      double limit = 0;
      double measured = NAN;

      bl_cli_parse_quantity (options->max_live_bytes, BL_UNIT_BYTES, &limit, NULL);
      if (bl_profile_has_metric (profile, BL_METRIC_LIVE_BYTES))
        measured = bl_profile_to_base_unit (profile, BL_METRIC_LIVE_BYTES,
                                            bl_profile_get_grand_total (profile,
                                                                        BL_METRIC_LIVE_BYTES));
      bl_cli_check_report_add (report, "max-live-bytes", measured, " B", TRUE, limit);
    }
}
