/* bl-cli-diff.c — brightlens-cli diff A B [--metric M] [--format folded|table|json|svg]
 *
 * Two profiles: "folded" (the default) writes one line per stack that has a
 * self value in either, "STACK VALUE_A VALUE_B", as Brendan Gregg's
 * difffolded.pl does, with stacks named as `export --format folded` names
 * them; "table" starts with the diff's summary and noise threshold and
 * ranks the functions by the change, each with its class (bl-diff.h);
 * "json" is the same for machines; "svg" (bl-cli-svg.c) is the
 * differential flame graph. --fail-above makes it a CI gate: exit 3 when
 * the total (or a function's) grew by more than a percentage, with the
 * stacks that grew. Two sessions: the summary figures side by side with
 * the change.
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
#include "bl-json-text.h"

typedef enum
{
  SORT_CHANGE,      /* size of the change, largest first */
  SORT_GROWTH,      /* signed change, largest growth first */
  SORT_NAME,
} SortOrder;

/* What the table and the JSON show for two profiles. */
typedef struct
{
  BlMetricId       metric;
  BlDiffThreshold  threshold;
  gboolean         by_total;
  SortOrder        sort;
} TableOptions;

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

static int
compare_u32 (gconstpointer a,
             gconstpointer b)
{
  guint32 fa = *(const guint32 *) a;
  guint32 fb = *(const guint32 *) b;

  return fa < fb ? -1 : fa > fb;
}

static int
compare_by_growth (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data)
{
  const double *delta = user_data;
  guint32 fa = *(const guint32 *) a;
  guint32 fb = *(const guint32 *) b;

  if (delta[fa] != delta[fb])
    return delta[fa] > delta[fb] ? -1 : 1;

  return fa < fb ? -1 : fa > fb;
}

/* The functions with a value on either side in the table's order: by the
 * size of their change (bl_diff_rank_functions()), by growth, or by name
 * (the diff's own function order). */
static GArray *
rank_functions (BlDiff             *diff,
                const TableOptions *options)
{
  GArray *ranked = bl_diff_rank_functions (diff, options->metric, options->by_total,
                                           options->threshold.normalized);

  if (options->sort == SORT_NAME)
    {
      g_array_sort (ranked, compare_u32);
    }
  else if (options->sort == SORT_GROWTH)
    {
      g_autofree double *delta = g_new0 (double, MAX (bl_diff_get_n_functions (diff), 1));

      for (guint i = 0; i < ranked->len; i++)
        {
          guint32 f = g_array_index (ranked, guint32, i);
          BlDiffChange change;

          bl_diff_get_function_change (diff, options->metric, f, options->by_total,
                                       options->threshold.normalized, &change);
          delta[f] = change.delta;
        }
      g_array_sort_with_data (ranked, compare_by_growth, delta);
    }

  return ranked;
}

static void
append_summary (BlDiff             *diff,
                const TableOptions *options,
                GString            *buffer)
{
  BlDiffSummary summary;
  g_autofree char *text = NULL;
  g_autofree char *threshold = NULL;

  bl_diff_summarize (diff, options->metric, &options->threshold, &summary);
  text = bl_diff_summary_to_string (diff, &summary);
  threshold = bl_diff_threshold_to_string (diff, options->metric, &options->threshold);
  g_string_append_printf (buffer, "%s\n", text);
  /* Translators: "Noise threshold: 1.0 % of the total (automatic); …" */
  g_string_append_printf (buffer, _("Noise threshold: %s; smaller changes are neutral.\n"),
                          threshold);
}

static gboolean
write_profile_table (BlDiff             *diff,
                     const TableOptions *options,
                     const char         *path_a,
                     const char         *path_b,
                     GOutputStream      *out,
                     GError            **error)
{
  g_autoptr(GString) buffer = g_string_sized_new (64 * 1024);
  g_autoptr(GArray) ranked = rank_functions (diff, options);
  BlMetricId metric = options->metric;
  gboolean normalized = options->threshold.normalized;
  const BlMetricInfo *info = bl_metric_get_info (metric);
  const char *headers[] = {
    /* Translators: column titles of `brightlens-cli diff --format table` */
    N_("A self"), N_("B self"), N_("A total"), N_("B total"), N_("Δ"), N_("Δ%"), N_("Class"),
  };
  const guint widths[] = { 11, 11, 11, 11, 12, 9, 8 };

  append_summary (diff, options, buffer);
  g_string_append_printf (buffer, _("A: %s\nB: %s\n"), path_a, path_b);
  g_string_append_printf (buffer,
                          options->by_total
                          ? _("Metric: %s. Δ is the change of each function’s total.\n")
                          : _("Metric: %s. Δ is the change of each function’s self value.\n"),
                          _(info->display_name));
  if (normalized)
    g_string_append (buffer, _("Values are shares of each run’s total.\n"));
  g_string_append_c (buffer, '\n');

  for (guint c = 0; c < G_N_ELEMENTS (headers); c++)
    {
      append_cell (buffer, _(headers[c]), widths[c], c + 1 < G_N_ELEMENTS (headers));
      g_string_append (buffer, "  ");
    }
  g_string_append (buffer, _("Function"));
  g_string_append_c (buffer, '\n');

  for (guint i = 0; i < ranked->len; i++)
    {
      guint32 f = g_array_index (ranked, guint32, i);
      BlDiffChange self_change, total_change;
      const BlDiffChange *change;
      const char *file = bl_diff_get_function_file (diff, f);
      char *cells[7];

      bl_diff_get_function_change (diff, metric, f, FALSE, normalized, &self_change);
      bl_diff_get_function_change (diff, metric, f, TRUE, normalized, &total_change);
      change = options->by_total ? &total_change : &self_change;

      cells[0] = bl_diff_format_value (diff, metric, self_change.a, normalized, FALSE);
      cells[1] = bl_diff_format_value (diff, metric, self_change.b, normalized, FALSE);
      cells[2] = bl_diff_format_value (diff, metric, total_change.a, normalized, FALSE);
      cells[3] = bl_diff_format_value (diff, metric, total_change.b, normalized, FALSE);
      cells[4] = bl_diff_format_value (diff, metric, change->delta, normalized, TRUE);
      cells[5] = format_pct (change->delta_pct);
      /* the machine name: "new", "removed", … (scripts read it) */
      cells[6] = g_strdup (bl_diff_kind_get_name (
        bl_diff_get_function_kind (diff, metric, f, options->by_total, &options->threshold)));

      for (guint c = 0; c < G_N_ELEMENTS (cells); c++)
        {
          append_cell (buffer, cells[c], widths[c], c + 1 < G_N_ELEMENTS (cells));
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
  g_autoptr(JsonNode) root = json_builder_get_root (builder);
  gsize len;
  g_autofree char *text = bl_json_to_text (root, &len);

  return g_output_stream_write_all (out, text, len, NULL, NULL, error) &&
         g_output_stream_write_all (out, "\n", 1, NULL, NULL, error);
}

/* ---- --fail-above: diff as a CI gate ------------------------------------ */

#define GATE_MAX_STACKS 50

typedef struct
{
  double        fail_above;   /* percent */
  const char   *function;     /* NULL: the grand total */
  BlDiffChange  change;       /* of the total, or of F's total */
  gboolean      failed;
  GArray       *stacks;       /* guint32 merged nodes that grew, largest growth first */
  double       *growth;       /* per merged node: its self change */
} Gate;

static void
gate_clear (Gate *gate)
{
  g_clear_pointer (&gate->stacks, g_array_unref);
  g_clear_pointer (&gate->growth, g_free);
}

static int
compare_by_node_growth (gconstpointer a,
                        gconstpointer b,
                        gpointer      user_data)
{
  const double *growth = user_data;
  guint32 na = *(const guint32 *) a;
  guint32 nb = *(const guint32 *) b;

  if (growth[na] != growth[nb])
    return growth[na] > growth[nb] ? -1 : 1;

  return na < nb ? -1 : na > nb;
}

/* Whether @node or one of its callers (not the thread) is named @function. */
static gboolean
stack_has_function (BlDiff     *diff,
                    guint32     node,
                    const char *function)
{
  for (; node != BL_NODE_NONE; node = bl_diff_get_node (diff, node)->parent)
    if (bl_diff_get_node (diff, node)->depth > 0 &&
        g_str_equal (bl_diff_get_node_name (diff, node), function))
      return TRUE;

  return FALSE;
}

/* Measures the gate. The grand total is compared in absolute values (its
 * share is always 100 %); a function in the table's mode. Returns FALSE
 * when neither side has a function named gate->function. */
static gboolean
gate_evaluate (BlDiff             *diff,
               const TableOptions *options,
               Gate               *gate)
{
  BlDiffThreshold threshold = options->threshold;
  BlMetricId metric = options->metric;
  guint n_nodes = bl_diff_get_n_nodes (diff);

  if (gate->function == NULL)
    {
      threshold.normalized = FALSE;
      bl_diff_compute_change (diff, metric,
                              bl_diff_get_grand_total (diff, BL_DIFF_SIDE_A, metric),
                              bl_diff_get_grand_total (diff, BL_DIFF_SIDE_B, metric),
                              FALSE, &gate->change);
    }
  else
    {
      guint64 sums[2] = { 0, 0 };
      gboolean found = FALSE;

      for (guint32 f = 0; f < bl_diff_get_n_functions (diff); f++)
        {
          if (!g_str_equal (bl_diff_get_function_name (diff, f), gate->function))
            continue;
          found = TRUE;
          for (guint side = 0; side < 2; side++)
            sums[side] = bl_saturating_add (sums[side],
                                            bl_diff_get_function_total (diff, side, metric, f));
        }
      if (!found)
        return FALSE;
      bl_diff_compute_change (diff, metric, sums[0], sums[1], threshold.normalized,
                              &gate->change);
    }

  gate->failed = gate->change.delta > 0 && gate->change.delta_pct > gate->fail_above;
  gate->stacks = g_array_new (FALSE, FALSE, sizeof (guint32));
  gate->growth = g_new0 (double, MAX (n_nodes, 1));
  if (!gate->failed)
    return TRUE;

  /* the stacks whose own value grew beyond the noise threshold */
  for (guint32 n = 0; n < n_nodes; n++)
    {
      BlDiffChange change;
      BlDiffKind kind;

      bl_diff_get_node_change (diff, metric, n, FALSE, threshold.normalized, &change);
      kind = bl_diff_get_node_kind (diff, metric, n, FALSE, &threshold);
      if ((kind != BL_DIFF_KIND_GROWN && kind != BL_DIFF_KIND_NEW) || change.delta <= 0)
        continue;
      if (gate->function != NULL && !stack_has_function (diff, n, gate->function))
        continue;
      gate->growth[n] = change.delta;
      g_array_append_val (gate->stacks, n);
    }
  g_array_sort_with_data (gate->stacks, compare_by_node_growth, gate->growth);

  return TRUE;
}

static char *
gate_describe (BlDiff             *diff,
               const TableOptions *options,
               const Gate         *gate)
{
  const char *metric_name = _(bl_metric_get_info (options->metric)->display_name);
  gboolean normalized = gate->function != NULL && options->threshold.normalized;
  g_autofree char *what = NULL;
  g_autofree char *a = bl_diff_format_value (diff, options->metric, gate->change.a,
                                             normalized, FALSE);
  g_autofree char *b = bl_diff_format_value (diff, options->metric, gate->change.b,
                                             normalized, FALSE);
  g_autofree char *pct = NULL;

  if (gate->function == NULL)
    /* Translators: what the gate measures: "the total CPU time" */
    what = g_strdup_printf (_("the total %s"), metric_name);
  else if (normalized)
    /* Translators: "load’s share of the CPU time" */
    what = g_strdup_printf (_("%s’s share of the %s"), gate->function, metric_name);
  else
    /* Translators: "load’s total CPU time" */
    what = g_strdup_printf (_("%s’s total %s"), gate->function, metric_name);

  if (isinf (gate->change.delta_pct))
    pct = g_strdup (_("from nothing"));
  else
    pct = g_strdup_printf ("%s%.1f %%", gate->change.delta_pct > 0 ? "+"
                           : gate->change.delta_pct < 0 ? "−" : "±",
                           fabs (gate->change.delta_pct));

  return g_strdup_printf (gate->failed
                          /* Translators: "Failed: the total CPU time changed by +25.0 %
                           * (200 µs → 250 µs), more than the allowed 10 %." */
                          ? _("Failed: %s changed by %s (%s → %s), more than the allowed "
                              "%g %%.")
                          : _("Passed: %s changed by %s (%s → %s), not more than the allowed "
                              "%g %%."),
                          what, pct, a, b, gate->fail_above);
}

static gboolean
write_gate_text (BlDiff              *diff,
                 const TableOptions  *options,
                 const Gate          *gate,
                 GOutputStream       *out,
                 GError             **error)
{
  g_autoptr(GString) buffer = g_string_new (NULL);
  g_autofree char *sentence = gate_describe (diff, options, gate);
  gboolean normalized = gate->function != NULL && options->threshold.normalized;
  guint shown = MIN (gate->stacks->len, GATE_MAX_STACKS);

  g_string_append_printf (buffer, "%s\n", sentence);
  if (gate->failed && gate->stacks->len == 0)
    g_string_append (buffer, _("No single stack grew beyond the noise threshold.\n"));
  else if (gate->failed)
    g_string_append (buffer, _("Stacks that grew, largest growth first:\n"));

  for (guint i = 0; i < shown; i++)
    {
      guint32 n = g_array_index (gate->stacks, guint32, i);
      g_autofree char *delta = bl_diff_format_value (diff, options->metric, gate->growth[n],
                                                     normalized, TRUE);
      g_autofree char *stack = bl_diff_dup_stack_string (diff, n, ';');

      g_string_append (buffer, "  ");
      append_cell (buffer, delta, 12, TRUE);
      g_string_append_printf (buffer, "  %s\n", stack);
    }
  if (gate->stacks->len > shown)
    g_string_append_printf (buffer,
                            g_dngettext (GETTEXT_PACKAGE, "  … and %u more stack\n",
                                         "  … and %u more stacks\n",
                                         gate->stacks->len - shown),
                            gate->stacks->len - shown);

  return flush_buffer (out, buffer, error);
}

static void
add_gate_json (BlDiff             *diff,
               const TableOptions *options,
               const Gate         *gate,
               JsonBuilder        *builder)
{
  guint shown = MIN (gate->stacks->len, GATE_MAX_STACKS);
  g_autofree char *sentence = gate_describe (diff, options, gate);

  json_builder_set_member_name (builder, "gate");
  json_builder_begin_object (builder);
  add_number (builder, "fail_above", gate->fail_above);
  json_builder_set_member_name (builder, "function");
  if (gate->function != NULL)
    json_builder_add_string_value (builder, gate->function);
  else
    json_builder_add_null_value (builder);
  add_number (builder, "a", gate->change.a);
  add_number (builder, "b", gate->change.b);
  add_number (builder, "delta", gate->change.delta);
  add_number (builder, "delta_pct", gate->change.delta_pct);
  json_builder_set_member_name (builder, "failed");
  json_builder_add_boolean_value (builder, gate->failed);
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, sentence);
  json_builder_set_member_name (builder, "stacks");
  json_builder_begin_array (builder);
  for (guint i = 0; i < shown; i++)
    {
      guint32 n = g_array_index (gate->stacks, guint32, i);
      g_autofree char *stack = bl_diff_dup_stack_string (diff, n, ';');

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "stack");
      json_builder_add_string_value (builder, stack);
      add_number (builder, "delta", gate->growth[n]);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "more_stacks");
  json_builder_add_int_value (builder, gate->stacks->len - shown);
  json_builder_end_object (builder);
}

static void
add_summary_json (BlDiff             *diff,
                  const TableOptions *options,
                  JsonBuilder        *builder)
{
  BlDiffSummary summary;
  g_autofree char *text = NULL;

  bl_diff_summarize (diff, options->metric, &options->threshold, &summary);
  text = bl_diff_summary_to_string (diff, &summary);

  json_builder_set_member_name (builder, "threshold");
  json_builder_begin_object (builder);
  add_number (builder, "pct", summary.threshold.pct);
  json_builder_set_member_name (builder, "automatic");
  json_builder_add_boolean_value (builder, options->threshold.pct < 0);
  add_number (builder, "min_change", options->threshold.min_change);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "summary");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, text);
  for (guint k = 0; k < BL_N_DIFF_KINDS; k++)
    {
      json_builder_set_member_name (builder, bl_diff_kind_get_name (k));
      json_builder_add_int_value (builder, summary.n_kind[k]);
    }
  add_number (builder, "grown_by", summary.grown);
  add_number (builder, "shrunk_by", summary.shrunk);
  json_builder_set_member_name (builder, "largest");
  json_builder_begin_array (builder);
  for (guint i = 0; i < summary.n_largest; i++)
    json_builder_add_string_value (builder, bl_diff_get_function_name (diff, summary.largest[i]));
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

static gboolean
write_profile_json (BlDiff              *diff,
                    const TableOptions  *options,
                    const Gate          *gate,
                    const char          *path_a,
                    const char          *path_b,
                    GOutputStream       *out,
                    GError             **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GArray) ranked = rank_functions (diff, options);
  BlMetricId metric = options->metric;
  gboolean normalized = options->threshold.normalized;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "a");
  json_builder_add_string_value (builder, path_a);
  json_builder_set_member_name (builder, "b");
  json_builder_add_string_value (builder, path_b);
  json_builder_set_member_name (builder, "metric");
  json_builder_add_string_value (builder, bl_metric_get_name (metric));
  json_builder_set_member_name (builder, "mode");
  json_builder_add_string_value (builder, normalized ? "normalized" : "absolute");
  json_builder_set_member_name (builder, "normalized");
  json_builder_add_boolean_value (builder, normalized);
  json_builder_set_member_name (builder, "by");
  json_builder_add_string_value (builder, options->by_total ? "total" : "self");
  add_summary_json (diff, options, builder);
  if (gate != NULL)
    add_gate_json (diff, options, gate, builder);
  json_builder_set_member_name (builder, "functions");
  json_builder_begin_array (builder);
  for (guint i = 0; i < ranked->len; i++)
    {
      guint32 f = g_array_index (ranked, guint32, i);
      BlDiffChange self_change, total_change;
      const BlDiffChange *change;

      bl_diff_get_function_change (diff, metric, f, FALSE, normalized, &self_change);
      bl_diff_get_function_change (diff, metric, f, TRUE, normalized, &total_change);
      change = options->by_total ? &total_change : &self_change;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, bl_diff_get_function_name (diff, f));
      json_builder_set_member_name (builder, "file");
      json_builder_add_string_value (builder, bl_diff_get_function_file (diff, f)
                                              ? bl_diff_get_function_file (diff, f) : "");
      json_builder_set_member_name (builder, "class");
      json_builder_add_string_value (builder,
                                     bl_diff_kind_get_name (
                                       bl_diff_get_function_kind (diff, metric, f,
                                                                  options->by_total,
                                                                  &options->threshold)));
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
  TableOptions options = { metric, { normalized, BL_DIFF_THRESHOLD_AUTO, 0.0 }, by_total,
                           SORT_CHANGE };

  if (table)
    return write_profile_table (diff, &options, path_a, path_b, out, error);

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

/* an option not given */
#define UNSET (-G_MAXDOUBLE)

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
  g_autofree char *sort = NULL;
  g_autofree char *min_change = NULL;
  g_autofree char *function = NULL;
  gboolean normalized = FALSE;
  gboolean absolute = FALSE;
  gboolean json = FALSE;
  gboolean table;
  double threshold = UNSET;
  double fail_above = UNSET;
  TableOptions options;
  Gate gate = { 0 };
  BlMetricId metric;
  gboolean ok;
  int status;
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format,
      N_("Output format: folded (profiles, the default), table, json or svg"), N_("FORMAT") },
    { "metric", 'm', 0, G_OPTION_ARG_STRING, &metric_name,
      N_("Metric to compare (cpu, wall, calls, alloc-bytes, …)"), N_("METRIC") },
    { "normalized", 'n', 0, G_OPTION_ARG_NONE, &normalized,
      N_("Compare shares of each run’s total (folded: scale A to B’s total)"), NULL },
    { "normalize", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &normalized, NULL, NULL },
    { "absolute", 0, 0, G_OPTION_ARG_NONE, &absolute,
      N_("Compare the values themselves (the default)"), NULL },
    { "threshold", 't', 0, G_OPTION_ARG_DOUBLE, &threshold,
      N_("Changes below PCT % of the total are neutral (default: chosen from the data)"),
      N_("PCT") },
    { "min-change", 0, 0, G_OPTION_ARG_STRING, &min_change,
      N_("Changes below AMOUNT (e.g. 5ms, 1MiB) are neutral too"), N_("AMOUNT") },
    { "by", 0, 0, G_OPTION_ARG_STRING, &by,
      N_("Table: rank functions by the change of their self value (the default) or total"),
      N_("self|total") },
    { "sort", 0, 0, G_OPTION_ARG_STRING, &sort,
      N_("Table: order by the size of the change (the default), by growth or by name"),
      N_("change|growth|name") },
    { "fail-above", 0, 0, G_OPTION_ARG_DOUBLE, &fail_above,
      N_("Exit with status 3 when the total (or --function’s) grew by more than PCT %"),
      N_("PCT") },
    { "function", 0, 0, G_OPTION_ARG_STRING, &function,
      N_("With --fail-above: measure this function’s total instead"), N_("FUNCTION") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Write the table as one JSON object (the same as --format json)"), NULL },
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
      !g_str_equal (format, "json") && !g_str_equal (format, "svg"))
    return bl_cli_usage_error (context, _("The format must be folded, table, json or svg."));
  if ((format == NULL || !g_str_equal (format, "svg")) && (width != 0 || title != NULL))
    return bl_cli_usage_error (context, _("--width and --title go with --format svg."));
  if (!bl_cli_svg_check_width (width, &error))
    return bl_cli_usage_error (context, error->message);
  if (by != NULL && !g_str_equal (by, "self") && !g_str_equal (by, "total"))
    return bl_cli_usage_error (context, _("--by must be self or total."));
  if (sort != NULL && !g_str_equal (sort, "change") && !g_str_equal (sort, "growth") &&
      !g_str_equal (sort, "name"))
    return bl_cli_usage_error (context, _("--sort must be change, growth or name."));
  if (json && format != NULL && g_str_equal (format, "folded"))
    return bl_cli_usage_error (context, _("--json writes the table; it does not go with "
                                          "--format folded."));
  if (normalized && absolute)
    return bl_cli_usage_error (context, _("--normalized and --absolute exclude each other."));
  if (threshold != UNSET && (!isfinite (threshold) || threshold < 0))
    return bl_cli_usage_error (context, _("--threshold takes a percentage of 0 or more."));
  if (fail_above != UNSET && (!isfinite (fail_above) || fail_above < 0))
    return bl_cli_usage_error (context, _("--fail-above takes a percentage of 0 or more."));
  if (threshold == UNSET)
    threshold = BL_DIFF_THRESHOLD_AUTO;
  if (function != NULL && fail_above == UNSET)
    return bl_cli_usage_error (context, _("--function goes with --fail-above."));
  if (fail_above != UNSET && format != NULL && g_str_equal (format, "svg"))
    return bl_cli_usage_error (context, _("--fail-above writes a verdict; it does not go with "
                                          "--format svg."));
  if (format != NULL && g_str_equal (format, "json"))
    json = TRUE;
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
      if (fail_above != UNSET)
        {
          fprintf (stderr, _("brightlens-cli: --fail-above compares profiles; %s and %s are "
                             "sessions.\n"), argv[1], argv[2]);
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

  options.metric = metric;
  options.threshold.normalized = normalized;
  options.threshold.pct = threshold;
  options.threshold.min_change = 0.0;
  options.by_total = by != NULL && g_str_equal (by, "total");
  options.sort = sort == NULL || g_str_equal (sort, "change") ? SORT_CHANGE
               : g_str_equal (sort, "growth") ? SORT_GROWTH : SORT_NAME;
  if (min_change != NULL &&
      !bl_cli_parse_quantity (min_change, bl_metric_get_info (metric)->unit,
                              &options.threshold.min_change, &error))
    return bl_cli_usage_error (context, error->message);

  if (fail_above >= 0)
    {
      gate.fail_above = fail_above;
      gate.function = function;
      if (!gate_evaluate (diff, &options, &gate))
        {
          fprintf (stderr, _("brightlens-cli: neither %s nor %s has a function named “%s”.\n"),
                   argv[1], argv[2], function);
          gate_clear (&gate);
          return BL_CLI_INVALID_INPUT;
        }
    }

  /* with --fail-above alone, the verdict is the output */
  table = format != NULL && g_str_equal (format, "table");
  if (!(out = bl_cli_open_output (output, &error)))
    ok = FALSE;
  else if (json)
    ok = write_profile_json (diff, &options, fail_above >= 0 ? &gate : NULL,
                             argv[1], argv[2], out, &error);
  else if (table)
    ok = write_profile_table (diff, &options, argv[1], argv[2], out, &error) &&
         (fail_above < 0 ||
          (g_output_stream_write_all (out, "\n", 1, NULL, NULL, &error) &&
           write_gate_text (diff, &options, &gate, out, &error)));
  else if (fail_above >= 0 && format == NULL)
    ok = write_gate_text (diff, &options, &gate, out, &error);
  else
    ok = write_folded (diff, metric, normalized, out, &error) &&
         (fail_above < 0 || write_gate_text (diff, &options, &gate, out, &error));
  if (!ok || !bl_cli_close_output (out, &error))
    {
      fprintf (stderr, "brightlens-cli: %s\n", error->message);
      gate_clear (&gate);
      return BL_CLI_INVALID_INPUT;
    }

  status = gate.failed ? BL_CLI_CHECK_FAILED : BL_CLI_OK;
  gate_clear (&gate);

  return status;
}
