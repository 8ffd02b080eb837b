/* bl-cli-diff.c — brightlens-cli diff A B [--metric M] [--format folded|table]
 *
 * Two profiles: "folded" (the default) writes one line per stack that has a
 * self value in either, "STACK VALUE_A VALUE_B", as Brendan Gregg's
 * difffolded.pl does, with stacks named as `export --format folded` names
 * them; "table" ranks the functions by the change. Two sessions: the
 * summary figures side by side with the change. "svg" (bl-cli-svg.c): the
 * differential flame graph.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "brightlens-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bl-cli.h"

typedef struct
{
  guint32 function;
  double  key;
  double  tie;
} Ranked;

static gboolean
flush_buffer (GOutputStream  *out,
              GString        *buffer,
              GError        **error)
{
  gboolean ok = g_output_stream_write_all (out, buffer->str, buffer->len, NULL, NULL, error);

  g_string_truncate (buffer, 0);

  return ok;
}

/* Scales A's values so that A's grand total equals B's (difffolded -n). */
static guint64
scale_a (guint64 value,
         guint64 total_a,
         guint64 total_b)
{
  if (total_a == 0)
    return value;

  return (guint64) llround ((double) value * (double) total_b / (double) total_a);
}

typedef struct
{
  BlDiff        *diff;
  BlMetricId     metric;
  const guint64 *self_a;
  const guint64 *self_b;
  guint64        total_a;
  guint64        total_b;
  gboolean       normalized;
  GOutputStream *out;
  GString       *buffer;
} FoldedDiff;

static const char *
diff_get_name (gpointer data,
               guint32  node)
{
  return bl_diff_get_node_name (data, node);
}

static guint32
diff_first_child (gpointer data,
                  guint32  node)
{
  return bl_diff_get_node (data, node)->first_child;
}

static guint32
diff_next_sibling (gpointer data,
                   guint32  node)
{
  return bl_diff_get_node (data, node)->next_sibling;
}

/* One line per stack string: frames whose names contain ';' can make two
 * stacks read the same; those are summed, as the folded export does. */
static gboolean
emit_diff_line (const char     *stack,
                gsize           len,
                const guint32  *nodes,
                guint           n_nodes,
                gpointer        user_data,
                GError        **error)
{
  FoldedDiff *fd = user_data;
  guint64 a = 0;
  guint64 b = 0;

  for (guint i = 0; i < n_nodes; i++)
    {
      a = bl_saturating_add (a, fd->self_a[nodes[i]]);
      b = bl_saturating_add (b, fd->self_b[nodes[i]]);
    }
  if (a == 0 && b == 0)
    return TRUE;

  g_string_append_len (fd->buffer, stack, len);
  g_string_append_c (fd->buffer, ' ');
  /* each side in its own profile's unit steps (fractions kept), as the
   * folded export writes them; A scaled to B's total is in B's */
  if (fd->normalized)
    bl_profile_append_exact_value (bl_diff_get_profile (fd->diff, BL_DIFF_SIDE_B), fd->metric,
                                   scale_a (a, fd->total_a, fd->total_b), fd->buffer);
  else
    bl_profile_append_exact_value (bl_diff_get_profile (fd->diff, BL_DIFF_SIDE_A), fd->metric,
                                   a, fd->buffer);
  g_string_append_c (fd->buffer, ' ');
  bl_profile_append_exact_value (bl_diff_get_profile (fd->diff, BL_DIFF_SIDE_B), fd->metric, b,
                                 fd->buffer);
  g_string_append_c (fd->buffer, '\n');

  return fd->buffer->len < 60 * 1024 || flush_buffer (fd->out, fd->buffer, error);
}

/* Streams the lines in stack order, walking the merged tree with one
 * growing prefix (bl_folded_walk()): memory does not grow with the depth. */
static gboolean
write_folded (BlDiff         *diff,
              BlMetricId      metric,
              gboolean        normalized,
              GOutputStream  *out,
              GError        **error)
{
  g_autoptr(GString) buffer = g_string_sized_new (64 * 1024);
  g_autofree guint32 *roots = NULL;
  BlFoldedTree tree = { diff, diff_get_name, diff_first_child, diff_next_sibling };
  guint n_roots = bl_diff_get_n_roots (diff);
  FoldedDiff fd;

  fd.diff = diff;
  fd.metric = metric;
  fd.self_a = bl_diff_get_self_array (diff, BL_DIFF_SIDE_A, metric);
  fd.self_b = bl_diff_get_self_array (diff, BL_DIFF_SIDE_B, metric);
  fd.total_a = bl_diff_get_grand_total (diff, BL_DIFF_SIDE_A, metric);
  fd.total_b = bl_diff_get_grand_total (diff, BL_DIFF_SIDE_B, metric);
  fd.normalized = normalized;
  fd.out = out;
  fd.buffer = buffer;

  if (fd.self_a == NULL || fd.self_b == NULL)
    return TRUE;

  roots = g_new (guint32, n_roots + 1);
  for (guint i = 0; i < n_roots; i++)
    roots[i] = bl_diff_get_root (diff, i);

  if (!bl_folded_walk (&tree, roots, n_roots, emit_diff_line, &fd, error))
    return FALSE;

  return buffer->len == 0 || flush_buffer (out, buffer, error);
}

/* ---- tables ------------------------------------------------------------- */

static void
append_cell (GString    *out,
             const char *text,
             guint       width,
             gboolean    right)
{
  glong len = g_utf8_strlen (text, -1);

  if (right)
    for (; len < (glong) width; len++)
      g_string_append_c (out, ' ');
  g_string_append (out, text);
  if (!right)
    for (; len < (glong) width; len++)
      g_string_append_c (out, ' ');
}

static char *
format_pct (double pct)
{
  if (isnan (pct))
    return g_strdup ("—");
  if (isinf (pct))
    /* Translators: the change of something only the second run has */
    return g_strdup (_("new"));

  return g_strdup_printf ("%s%.1f %%", pct > 0 ? "+" : pct < 0 ? "−" : "±", fabs (pct));
}

static char *
format_metric_value (BlMetricId metric,
                     double     value,
                     gboolean   normalized,
                     gboolean   signed_value)
{
  g_autofree char *text = NULL;
  const char *sign = "";

  if (signed_value)
    sign = value > 0 ? "+" : value < 0 ? "−" : "±";

  if (normalized)
    {
      /* shares of the grand total; changes in percentage points */
      if (signed_value)
        return g_strdup_printf (_("%s%.2f pp"), sign, fabs (value) * 100.0);
      return g_strdup_printf ("%.2f %%", value * 100.0);
    }

  text = bl_metric_format_value (metric, (guint64) llround (fabs (value)));

  return g_strdup_printf ("%s%s", sign, text);
}

static int
compare_ranked (const void *a,
                const void *b)
{
  const Ranked *ra = a;
  const Ranked *rb = b;

  if (ra->key != rb->key)
    return ra->key > rb->key ? -1 : 1;
  if (ra->tie != rb->tie)
    return ra->tie > rb->tie ? -1 : 1;

  return ra->function < rb->function ? -1 : ra->function > rb->function;
}

/* The functions with a value on either side, ranked by the size of their
 * change (of the total when @by_total, else of self), largest first. */
static GArray *
rank_functions (BlDiff     *diff,
                BlMetricId  metric,
                gboolean    normalized,
                gboolean    by_total)
{
  GArray *ranked = g_array_new (FALSE, FALSE, sizeof (Ranked));

  for (guint32 f = 0; f < bl_diff_get_n_functions (diff); f++)
    {
      BlDiffChange self_change, total_change;
      Ranked r;

      bl_diff_get_function_change (diff, metric, f, FALSE, normalized, &self_change);
      bl_diff_get_function_change (diff, metric, f, TRUE, normalized, &total_change);
      if (total_change.a == 0 && total_change.b == 0 &&
          self_change.a == 0 && self_change.b == 0)
        continue;

      r.function = f;
      r.key = fabs (by_total ? total_change.delta : self_change.delta);
      r.tie = fabs (by_total ? self_change.delta : total_change.delta);
      g_array_append_val (ranked, r);
    }
  if (ranked->len > 1)                /* qsort's array may not be NULL */
    qsort (ranked->data, ranked->len, sizeof (Ranked), compare_ranked);

  return ranked;
}

static gboolean
write_profile_table (BlDiff         *diff,
                     BlMetricId      metric,
                     gboolean        normalized,
                     gboolean        by_total,
                     const char     *path_a,
                     const char     *path_b,
                     GOutputStream  *out,
                     GError        **error)
{
  g_autoptr(GString) buffer = g_string_sized_new (64 * 1024);
  g_autoptr(GArray) ranked = rank_functions (diff, metric, normalized, by_total);
  const BlMetricInfo *info = bl_metric_get_info (metric);
  const char *headers[] = {
    /* Translators: column titles of `brightlens-cli diff --format table` */
    N_("A self"), N_("B self"), N_("A total"), N_("B total"), N_("Δ"), N_("Δ%"),
  };
  const guint widths[] = { 11, 11, 11, 11, 12, 9 };

  g_string_append_printf (buffer, _("A: %s\nB: %s\n"), path_a, path_b);
  g_string_append_printf (buffer,
                          by_total
                          ? _("Metric: %s. Δ is the change of each function’s total.\n")
                          : _("Metric: %s. Δ is the change of each function’s self value.\n"),
                          _(info->display_name));
  if (normalized)
    g_string_append (buffer, _("Values are shares of each run’s total.\n"));
  g_string_append_c (buffer, '\n');

  for (guint c = 0; c < G_N_ELEMENTS (headers); c++)
    {
      append_cell (buffer, _(headers[c]), widths[c], TRUE);
      g_string_append (buffer, "  ");
    }
  g_string_append (buffer, _("Function"));
  g_string_append_c (buffer, '\n');


  for (guint i = 0; i < ranked->len; i++)
    {
      guint32 f = g_array_index (ranked, Ranked, i).function;
      BlDiffChange self_change, total_change;
      const BlDiffChange *change;
      const char *file = bl_diff_get_function_file (diff, f);
      char *cells[6];

      bl_diff_get_function_change (diff, metric, f, FALSE, normalized, &self_change);
      bl_diff_get_function_change (diff, metric, f, TRUE, normalized, &total_change);
      change = by_total ? &total_change : &self_change;

      cells[0] = format_metric_value (metric, self_change.a, normalized, FALSE);
      cells[1] = format_metric_value (metric, self_change.b, normalized, FALSE);
      cells[2] = format_metric_value (metric, total_change.a, normalized, FALSE);
      cells[3] = format_metric_value (metric, total_change.b, normalized, FALSE);
      cells[4] = format_metric_value (metric, change->delta, normalized, TRUE);
      cells[5] = format_pct (change->delta_pct);

      for (guint c = 0; c < G_N_ELEMENTS (cells); c++)
        {
          append_cell (buffer, cells[c], widths[c], TRUE);
          g_string_append (buffer, "  ");
          g_free (cells[c]);
        }
      g_string_append (buffer, bl_diff_get_function_name (diff, f));
      if (file != NULL && *file != '\0')
        g_string_append_printf (buffer, "  %s", file);
      g_string_append_c (buffer, '\n');

      if (buffer->len >= 60 * 1024 && !flush_buffer (out, buffer, error))
        return FALSE;
    }

  return flush_buffer (out, buffer, error);
}

static gboolean
write_session_table (BlDiff         *diff,
                     const char     *path_a,
                     const char     *path_b,
                     GOutputStream  *out,
                     GError        **error)
{
  g_autoptr(GString) buffer = g_string_new (NULL);
  const guint widths[] = { 26, 14, 14, 14, 9 };
  guint name_width = widths[0];

  for (guint f = 0; f < BL_N_DIFF_FIGURES; f++)
    name_width = MAX (name_width,
                      (guint) g_utf8_strlen (_(bl_diff_figure_get_info (f)->display_name), -1));

  g_string_append_printf (buffer, _("A: %s\nB: %s\n\n"), path_a, path_b);
  append_cell (buffer, "", name_width, FALSE);
  append_cell (buffer, "A", widths[1] + 2, TRUE);
  append_cell (buffer, "B", widths[2] + 2, TRUE);
  append_cell (buffer, _("Δ"), widths[3] + 2, TRUE);
  append_cell (buffer, _("Δ%"), widths[4] + 2, TRUE);
  g_string_append_c (buffer, '\n');

  for (guint f = 0; f < BL_N_DIFF_FIGURES; f++)
    {
      BlDiffChange change;
      g_autofree char *a = NULL;
      g_autofree char *b = NULL;
      g_autofree char *delta = NULL;
      g_autofree char *pct = NULL;

      bl_diff_get_figure (diff, f, &change);
      a = bl_diff_figure_format_value (f, change.a, FALSE);
      b = bl_diff_figure_format_value (f, change.b, FALSE);
      delta = bl_diff_figure_format_value (f, change.delta, TRUE);
      pct = format_pct (change.delta_pct);

      append_cell (buffer, _(bl_diff_figure_get_info (f)->display_name), name_width, FALSE);
      append_cell (buffer, a, widths[1] + 2, TRUE);
      append_cell (buffer, b, widths[2] + 2, TRUE);
      append_cell (buffer, delta, widths[3] + 2, TRUE);
      append_cell (buffer, pct, widths[4] + 2, TRUE);
      g_string_append_c (buffer, '\n');
    }

  return flush_buffer (out, buffer, error);
}

/* ---- --json: the table as one JSON object ------------------------------- */

static void
add_number (JsonBuilder *builder,
            const char  *name,
            double       value)
{
  json_builder_set_member_name (builder, name);
  if (isfinite (value))
    json_builder_add_double_value (builder, value);
  else
    json_builder_add_null_value (builder);   /* Δ% when only B has a value */
}

static gboolean
write_json (JsonBuilder    *builder,
            GOutputStream  *out,
            GError        **error)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = json_builder_get_root (builder);

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, root);

  return json_generator_to_stream (generator, out, NULL, error) &&
         g_output_stream_write_all (out, "\n", 1, NULL, NULL, error);
}

static gboolean
write_profile_json (BlDiff         *diff,
                    BlMetricId      metric,
                    gboolean        normalized,
                    gboolean        by_total,
                    const char     *path_a,
                    const char     *path_b,
                    GOutputStream  *out,
                    GError        **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GArray) ranked = rank_functions (diff, metric, normalized, by_total);


  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "a");
  json_builder_add_string_value (builder, path_a);
  json_builder_set_member_name (builder, "b");
  json_builder_add_string_value (builder, path_b);
  json_builder_set_member_name (builder, "metric");
  json_builder_add_string_value (builder, bl_metric_get_name (metric));
  json_builder_set_member_name (builder, "normalized");
  json_builder_add_boolean_value (builder, normalized);
  json_builder_set_member_name (builder, "by");
  json_builder_add_string_value (builder, by_total ? "total" : "self");
  json_builder_set_member_name (builder, "functions");
  json_builder_begin_array (builder);
  for (guint i = 0; i < ranked->len; i++)
    {
      guint32 f = g_array_index (ranked, Ranked, i).function;
      BlDiffChange self_change, total_change;
      const BlDiffChange *change;

      bl_diff_get_function_change (diff, metric, f, FALSE, normalized, &self_change);
      bl_diff_get_function_change (diff, metric, f, TRUE, normalized, &total_change);
      change = by_total ? &total_change : &self_change;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, bl_diff_get_function_name (diff, f));
      json_builder_set_member_name (builder, "file");
      json_builder_add_string_value (builder, bl_diff_get_function_file (diff, f)
                                              ? bl_diff_get_function_file (diff, f) : "");
      add_number (builder, "self_a", self_change.a);
      add_number (builder, "self_b", self_change.b);
      add_number (builder, "total_a", total_change.a);
      add_number (builder, "total_b", total_change.b);
      add_number (builder, "delta", change->delta);
      add_number (builder, "delta_pct", change->delta_pct);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return write_json (builder, out, error);
}

static gboolean
write_session_json (BlDiff         *diff,
                    const char     *path_a,
                    const char     *path_b,
                    GOutputStream  *out,
                    GError        **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "a");
  json_builder_add_string_value (builder, path_a);
  json_builder_set_member_name (builder, "b");
  json_builder_add_string_value (builder, path_b);
  json_builder_set_member_name (builder, "figures");
  json_builder_begin_array (builder);
  for (guint f = 0; f < BL_N_DIFF_FIGURES; f++)
    {
      BlDiffChange change;

      bl_diff_get_figure (diff, f, &change);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, bl_diff_figure_get_info (f)->name);
      add_number (builder, "a", change.a);
      add_number (builder, "b", change.b);
      add_number (builder, "delta", change.delta);
      add_number (builder, "delta_pct", change.delta_pct);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return write_json (builder, out, error);
}

/**
 * bl_cli_diff_write_profiles:
 * @table: the table (ranked functions) instead of folded lines
 * @by_total: for the table, rank by the change of the total
 *
 * Writes what `diff` writes for two profiles; the fuzz target drives it.
 */
gboolean
bl_cli_diff_write_profiles (BlDiff         *diff,
                            BlMetricId      metric,
                            gboolean        table,
                            gboolean        normalized,
                            gboolean        by_total,
                            const char     *path_a,
                            const char     *path_b,
                            GOutputStream  *out,
                            GError        **error)
{
  if (table)
    return write_profile_table (diff, metric, normalized, by_total, path_a, path_b, out, error);

  return write_folded (diff, metric, normalized, out, error);
}

/**
 * bl_cli_diff_write_sessions:
 *
 * Writes what `diff` writes for two sessions.
 */
gboolean
bl_cli_diff_write_sessions (BlDiff         *diff,
                            const char     *path_a,
                            const char     *path_b,
                            GOutputStream  *out,
                            GError        **error)
{
  return write_session_table (diff, path_a, path_b, out, error);
}

int
bl_cli_diff (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) loaded_a = NULL;
  g_autoptr(GObject) loaded_b = NULL;
  g_auto(BlCliTransforms) transforms = { NULL };
  g_autoptr(GOutputStream) out = NULL;
  g_autoptr(BlDiff) diff = NULL;
  g_autofree char *format = NULL;
  g_autofree char *metric_name = NULL;
  g_autofree char *output = NULL;
  g_autofree char *by = NULL;
  g_autofree char *title = NULL;
  int width = 0;
  gboolean normalized = FALSE;
  gboolean json = FALSE;
  gboolean table;
  BlMetricId metric;
  int status;
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format,
      N_("Output format: folded (profiles, the default), table or svg"), N_("FORMAT") },
    { "metric", 'm', 0, G_OPTION_ARG_STRING, &metric_name,
      N_("Metric to compare (cpu, wall, calls, alloc-bytes, …)"), N_("METRIC") },
    { "normalized", 'n', 0, G_OPTION_ARG_NONE, &normalized,
      N_("Compare shares of each run’s total (folded: scale A to B’s total)"), NULL },
    { "by", 0, 0, G_OPTION_ARG_STRING, &by,
      N_("Table: rank functions by the change of their self value (the default) or total"),
      N_("self|total") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Write the table as one JSON object (implies --format table)"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write to OUT instead of standard output"), N_("OUT") },
    { "width", 0, 0, G_OPTION_ARG_INT, &width,
      N_("SVG: width of the image in pixels (default 1200)"), N_("PX") },
    { "title", 0, 0, G_OPTION_ARG_STRING, &title,
      N_("SVG: the title at the top of the image"), N_("TITLE") },
    { NULL }
  };

  context = g_option_context_new (_("A B — compare two profiles or two sessions"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  bl_cli_transform_add_options (context, &transforms);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return bl_cli_usage_error (context, error->message);
  if (argc != 3)
    return bl_cli_usage_error (context, _("diff takes exactly two files, A and B."));
  if (format != NULL && !g_str_equal (format, "folded") && !g_str_equal (format, "table") &&
      !g_str_equal (format, "svg"))
    return bl_cli_usage_error (context, _("The format must be folded, table or svg."));
  if ((format == NULL || !g_str_equal (format, "svg")) && (width != 0 || title != NULL))
    return bl_cli_usage_error (context, _("--width and --title go with --format svg."));
  if (!bl_cli_svg_check_width (width, &error))
    return bl_cli_usage_error (context, error->message);
  if (by != NULL && !g_str_equal (by, "self") && !g_str_equal (by, "total"))
    return bl_cli_usage_error (context, _("--by must be self or total."));
  if (json && format != NULL && g_str_equal (format, "folded"))
    return bl_cli_usage_error (context, _("--json writes the table; it does not go with "
                                          "--format folded."));
  if (metric_name != NULL && bl_metric_from_name (metric_name) == BL_METRIC_INVALID)
    {
      bl_cli_parse_metric (metric_name, NULL, &status);
      return status;
    }

  if (!(loaded_a = bl_cli_load (argv[1], &status)))
    return status;
  if (!(loaded_b = bl_cli_load (argv[2], &status)))
    return status;
  if (!bl_cli_transform_apply (&transforms, &loaded_a, argv[1], &status) ||
      !bl_cli_transform_apply (&transforms, &loaded_b, argv[2], &status))
    return status;

  if (BL_IS_SESSION (loaded_a) != BL_IS_SESSION (loaded_b))
    {
      fprintf (stderr,
               BL_IS_SESSION (loaded_a)
               ? _("brightlens-cli: %s is a session and %s is a profile; "
                   "compare two profiles or two sessions.\n")
               : _("brightlens-cli: %s is a profile and %s is a session; "
                   "compare two profiles or two sessions.\n"),
               argv[1], argv[2]);
      return BL_CLI_INVALID_INPUT;
    }

  if (BL_IS_SESSION (loaded_a))
    {
      if (format != NULL && g_str_equal (format, "svg"))
        {
          fprintf (stderr, _("brightlens-cli: a differential flame graph compares two "
                             "profiles; %s and %s are sessions.\n"), argv[1], argv[2]);
          return BL_CLI_INVALID_INPUT;
        }
      if (format != NULL && g_str_equal (format, "folded"))
        {
          fprintf (stderr, _("brightlens-cli: folded stacks can only be compared between "
                             "profiles; %s and %s are sessions (use --format table).\n"),
                   argv[1], argv[2]);
          return BL_CLI_INVALID_INPUT;
        }
      if (metric_name != NULL || normalized)
        fprintf (stderr, _("brightlens-cli: warning: --metric and --normalized apply to "
                           "profiles only; they are ignored for sessions.\n"));

      diff = bl_diff_new_for_sessions (BL_SESSION (loaded_a), BL_SESSION (loaded_b));
      if (!(out = bl_cli_open_output (output, &error)) ||
          !(json ? write_session_json (diff, argv[1], argv[2], out, &error)
                 : bl_cli_diff_write_sessions (diff, argv[1], argv[2], out, &error)) ||
          !bl_cli_close_output (out, &error))
        {
          fprintf (stderr, "brightlens-cli: %s\n", error->message);
          return BL_CLI_INVALID_INPUT;
        }

      return BL_CLI_OK;
    }

  diff = bl_diff_new (BL_PROFILE (loaded_a), BL_PROFILE (loaded_b));
  metric = metric_name != NULL
    ? bl_metric_from_name (metric_name)
    : bl_diff_get_default_metric (diff);
  if (metric == BL_METRIC_INVALID)
    {
      fprintf (stderr, _("brightlens-cli: neither %s nor %s has any values to compare.\n"),
               argv[1], argv[2]);
      return BL_CLI_INVALID_INPUT;
    }

  for (guint side = 0; side < 2; side++)
    if (!bl_diff_side_has_metric (diff, side, metric))
      fprintf (stderr, _("brightlens-cli: warning: %s has no %s data; its values count as 0.\n"),
               argv[1 + side], bl_metric_get_name (metric));

  if (format != NULL && g_str_equal (format, "svg"))
    return bl_cli_diff_svg (diff, metric, normalized, width, title, output);

  table = format != NULL && g_str_equal (format, "table");
  if (json)
    {
      if (!(out = bl_cli_open_output (output, &error)) ||
          !write_profile_json (diff, metric, normalized,
                               by != NULL && g_str_equal (by, "total"),
                               argv[1], argv[2], out, &error) ||
          !bl_cli_close_output (out, &error))
        {
          fprintf (stderr, "brightlens-cli: %s\n", error->message);
          return BL_CLI_INVALID_INPUT;
        }
      return BL_CLI_OK;
    }
  if (!(out = bl_cli_open_output (output, &error)) ||
      !bl_cli_diff_write_profiles (diff, metric, table, normalized,
                                   by != NULL && g_str_equal (by, "total"),
                                   argv[1], argv[2], out, &error) ||
      !bl_cli_close_output (out, &error))
    {
      fprintf (stderr, "brightlens-cli: %s\n", error->message);
      return BL_CLI_INVALID_INPUT;
    }

  return BL_CLI_OK;
}
