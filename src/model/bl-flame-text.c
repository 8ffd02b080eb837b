/* bl-flame-text.c — what a flame graph says about a frame, without GTK
 *
 * The tooltip texts of the window's flame graph (BlFlameGraph) and of the
 * differential flame graph (BlCompareView) live here, and the SVG export
 * writes the very same strings into its <title> elements and status line.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-flame-text"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>

#include "bl-flame-text.h"

/* the fallbacks of bl_flame_0 … bl_flame_11 in resources/style.css */
static const BlFlameColor light_palette[BL_FLAME_N_PALETTE] = {
  { 0xf6 / 255.0, 0xb2 / 255.0, 0x6b / 255.0 },
  { 0x93 / 255.0, 0xc4 / 255.0, 0x7d / 255.0 },
  { 0x6f / 255.0, 0xa8 / 255.0, 0xdc / 255.0 },
  { 0xe6 / 255.0, 0x91 / 255.0, 0x38 / 255.0 },
  { 0xc2 / 255.0, 0x7b / 255.0, 0xa0 / 255.0 },
  { 0x76 / 255.0, 0xa5 / 255.0, 0xaf / 255.0 },
  { 0xff / 255.0, 0xd9 / 255.0, 0x66 / 255.0 },
  { 0x8e / 255.0, 0x7c / 255.0, 0xc3 / 255.0 },
  { 0xe0 / 255.0, 0x66 / 255.0, 0x66 / 255.0 },
  { 0xa4 / 255.0, 0xc2 / 255.0, 0xf4 / 255.0 },
  { 0xb6 / 255.0, 0xd7 / 255.0, 0xa8 / 255.0 },
  { 0xf9 / 255.0, 0xcb / 255.0, 0x9c / 255.0 },
};

static void
append_location (GString    *str,
                 BlProfile  *profile,
                 guint32     node)
{
  const BlNode *n = bl_profile_get_node (profile, node);
  const char *file = bl_profile_get_node_file (profile, node);

  if (file == NULL || file[0] == '\0')
    return;

  if (n->line > 0)
    g_string_append_printf (str, "\n%s:%u", file, n->line);
  else
    g_string_append_printf (str, "\n%s", file);
}

/**
 * bl_flame_text_dup_tooltip:
 *
 * Returns: (transfer full) (nullable): plain text: function, file:line,
 *   self, total, share of the thread and of everything, calls; %NULL for
 *   a node the profile does not have or an invalid metric
 */
char *
bl_flame_text_dup_tooltip (BlProfile  *profile,
                           BlMetricId  metric,
                           guint32     node)
{
  g_autoptr(GString) str = NULL;
  g_autofree char *self_text = NULL;
  g_autofree char *total_text = NULL;
  const BlNode *n;
  guint64 total, thread_total, grand;

  g_return_val_if_fail (BL_IS_PROFILE (profile), NULL);

  if (node >= bl_profile_get_n_nodes (profile) || metric == BL_METRIC_INVALID)
    return NULL;

  n = bl_profile_get_node (profile, node);
  str = g_string_new (bl_profile_get_node_name (profile, node));
  append_location (str, profile, node);

  total = bl_profile_get_total (profile, metric, node);
  thread_total = bl_profile_get_total (profile, metric,
                                       bl_profile_get_thread_root (profile, n->thread));
  grand = bl_profile_get_grand_total (profile, metric);
  self_text = bl_profile_format_value (profile, metric,
                                       bl_profile_get_self (profile, metric, node));
  total_text = bl_profile_format_value (profile, metric, total);

  g_string_append_c (str, '\n');
  /* Translators: "CPU time: 1.2 ms self, 40 ms total" */
  g_string_append_printf (str, _("%s: %s self, %s total"),
                          _(bl_metric_get_info (metric)->display_name), self_text, total_text);
  g_string_append_c (str, '\n');
  g_string_append_printf (str, _("%.1f %% of the thread %s, %.1f %% of all threads"),
                          thread_total ? 100.0 * total / thread_total : 0.0,
                          bl_profile_get_thread_name (profile, n->thread),
                          grand ? 100.0 * total / grand : 0.0);

  if (bl_profile_has_metric (profile, BL_METRIC_CALLS))
    {
      guint64 calls = bl_profile_get_self (profile, BL_METRIC_CALLS, node);

      g_string_append_c (str, '\n');
      g_string_append_printf (str,
                              g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " call",
                                           "%" PRIu64 " calls", calls),
                              calls);
    }

  return g_string_free (g_steal_pointer (&str), FALSE);
}

static char *
format_change_value (BlMetricId metric,
                     gboolean   normalized,
                     double     value,
                     gboolean   signed_value)
{
  g_autofree char *text = NULL;
  const char *sign = "";

  if (signed_value)
    sign = value > 0 ? "+" : value < 0 ? "−" : "±";

  if (normalized)
    {
      if (signed_value)
        /* Translators: a change of a share, in percentage points */
        return g_strdup_printf (_("%s%.2f pp"), sign, fabs (value) * 100.0);
      return g_strdup_printf (_("%.2f %%"), value * 100.0);
    }

  if (metric == BL_METRIC_INVALID)
    return g_strdup ("—");

  text = bl_metric_format_value (metric, (guint64) llround (fabs (value)));

  return g_strdup_printf ("%s%s", sign, text);
}

static char *
format_change_pct (double pct)
{
  if (isnan (pct))
    return g_strdup ("—");
  if (isinf (pct))
    /* Translators: the change of something only B has */
    return g_strdup (_("new"));

  return g_strdup_printf (_("%s%.1f %%"), pct > 0 ? "+" : pct < 0 ? "−" : "±", fabs (pct));
}

/**
 * bl_flame_text_dup_diff_tooltip:
 * @side: the profile @profile_node belongs to (the shape drawn)
 *
 * Returns: (transfer full) (nullable): plain text, or %NULL when the node
 *   is not in the diff
 */
char *
bl_flame_text_dup_diff_tooltip (BlDiff     *diff,
                                BlMetricId  metric,
                                gboolean    normalized,
                                BlDiffSide  side,
                                guint32     profile_node)
{
  BlProfile *profile;
  GString *str;
  guint32 d;
  BlDiffChange total, self_change;

  g_return_val_if_fail (BL_IS_DIFF (diff), NULL);

  profile = bl_diff_get_profile (diff, side);
  if (profile == NULL || profile_node >= bl_profile_get_n_nodes (profile))
    return NULL;

  d = bl_diff_node_from_profile (diff, side, profile_node);
  if (d == BL_NODE_NONE)
    return NULL;

  str = g_string_new (bl_profile_get_node_name (profile, profile_node));
  append_location (str, profile, profile_node);

  bl_diff_get_node_change (diff, metric, d, TRUE, normalized, &total);
  bl_diff_get_node_change (diff, metric, d, FALSE, normalized, &self_change);

  for (guint s = 0; s < 2; s++)
    {
      g_autofree char *t = format_change_value (metric, normalized,
                                                s == 0 ? total.a : total.b, FALSE);
      g_autofree char *v = format_change_value (metric, normalized,
                                                s == 0 ? self_change.a : self_change.b, FALSE);

      g_string_append_c (str, '\n');
      /* Translators: "A: 12.0 ms total, 1.0 ms self" */
      g_string_append_printf (str, s == 0 ? _("A: %s total, %s self") : _("B: %s total, %s self"),
                              t, v);
    }

  {
    g_autofree char *delta = format_change_value (metric, normalized, total.delta, TRUE);
    g_autofree char *pct = format_change_pct (total.delta_pct);

    g_string_append_c (str, '\n');
    /* Translators: "Δ +2.0 ms (+16.7 %)" */
    g_string_append_printf (str, _("Δ %s (%s)"), delta, pct);
  }

  switch (bl_diff_get_node (diff, d)->presence)
    {
    case BL_DIFF_IN_A:
      g_string_append_printf (str, "\n%s", _("Only in A: this stack is gone in B."));
      break;
    case BL_DIFF_IN_B:
      g_string_append_printf (str, "\n%s", _("Only in B: this stack is new."));
      break;
    default:
      break;
    }

  return g_string_free (str, FALSE);
}

void
bl_flame_text_get_color_key (BlProfile *profile,
                             guint32    node,
                             gboolean   by_module,
                             guint     *hue,
                             guint     *shade)
{
  const BlNode *nodes;
  guint32 hue_key;

  g_return_if_fail (BL_IS_PROFILE (profile));
  g_return_if_fail (node < bl_profile_get_n_nodes (profile));

  nodes = bl_profile_get_nodes (profile);
  hue_key = nodes[node].file;
  if (hue_key == 0 || by_module)
    hue_key = nodes[bl_profile_get_thread_root (profile, nodes[node].thread)].name;

  *hue = g_str_hash (bl_profile_get_string (profile, hue_key)) % BL_FLAME_N_PALETTE;
  *shade = (g_str_hash (bl_profile_get_string (profile, nodes[node].name)) >> 16)
           % BL_FLAME_N_SHADES;
}

void
bl_flame_text_shade_color (const BlFlameColor *palette,
                           guint               hue,
                           guint               shade,
                           BlFlameColor       *color)
{
  double step = ((int) shade - BL_FLAME_N_SHADES / 2) * 0.04;
  double target = step > 0 ? 1.0 : 0.0;
  double t = fabs (step);

  g_return_if_fail (hue < BL_FLAME_N_PALETTE);

  color->red = palette[hue].red + (target - palette[hue].red) * t;
  color->green = palette[hue].green + (target - palette[hue].green) * t;
  color->blue = palette[hue].blue + (target - palette[hue].blue) * t;
}

const BlFlameColor *
bl_flame_text_get_light_palette (void)
{
  return light_palette;
}
