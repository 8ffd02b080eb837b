/* fuzz-cli.c — libFuzzer target for brightlens-cli's diff and export on
 * pairs of inputs
 *
 * Input: one byte of options, then file A, the separator "\0BLPAIR\0",
 * file B (without a separator, A and B are the same bytes). Both are loaded
 * as the CLI loads files (format detection and the reader it picks); then
 * the functions behind `export --format folded|speedscope|svg` and
 * `diff --format folded|table|svg [--normalized] [--by total]` write them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-cli.h"
#include "bl-flame-svg.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

static const char separator[] = "\0BLPAIR\0";

static const guint8 *
find_separator (const guint8 *data,
                gsize         len)
{
  gsize n = sizeof separator - 1;

  for (gsize i = 0; i + n <= len; i++)
    if (data[i] == 0 && memcmp (data + i, separator, n) == 0)
      return data + i;

  return NULL;
}

static GObject *
load (const guint8 *data,
      gsize         len)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, len);
  g_autoptr(GError) error = NULL;
  GObject *loaded = bl_format_load_bytes (bytes, &error);

  g_assert ((loaded == NULL) == (error != NULL));

  return loaded;
}

static GOutputStream *
fresh_output (void)
{
  return g_memory_output_stream_new_resizable ();
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GObject) a = NULL;
  g_autoptr(GObject) b = NULL;
  const guint8 *rest, *sep;
  gsize rest_len, a_len;
  guint8 options;

  if (size < 1)
    return 0;
  options = data[0];
  rest = data + 1;
  rest_len = size - 1;

  sep = find_separator (rest, rest_len);
  a_len = sep != NULL ? (gsize) (sep - rest) : rest_len;

  if (!(a = load (rest, a_len)))
    return 0;
  b = sep != NULL ? load (sep + sizeof separator - 1, rest_len - a_len - (sizeof separator - 1))
                  : g_object_ref (a);
  if (b == NULL)
    return 0;

  if (BL_IS_PROFILE (a))
    {
      BlMetricId metrics[BL_N_METRICS];
      guint n = bl_profile_list_metrics (BL_PROFILE (a), metrics);
      g_autoptr(GOutputStream) out = fresh_output ();
      g_autoptr(GError) error = NULL;

      if (n > 0)
        {
          /* a small frame cap, so that the cap's path runs too */
          BlFlameSvgOptions svg = { metrics[options % n], NULL, 200 + options, NULL,
                                    1 + options % 64, FALSE };
          g_autoptr(GOutputStream) svg_out = fresh_output ();

          g_assert (bl_cli_export_write_profile (BL_PROFILE (a), "folded",
                                                 metrics[options % n], out, &error));
          g_assert (bl_flame_svg_write_profile (BL_PROFILE (a), &svg, svg_out, NULL, NULL,
                                                &error));
        }
      g_assert (bl_cli_export_write_profile (BL_PROFILE (a), "speedscope", BL_METRIC_INVALID,
                                             out, &error));
    }

  if (BL_IS_PROFILE (a) && BL_IS_PROFILE (b))
    {
      g_autoptr(BlDiff) diff = bl_diff_new (BL_PROFILE (a), BL_PROFILE (b));
      BlMetricId metric = (options & 0x80)
        ? (BlMetricId) ((options >> 4) % BL_N_METRICS)
        : bl_diff_get_default_metric (diff);

      if (metric != BL_METRIC_INVALID)
        for (guint table = 0; table < 2; table++)
          {
            g_autoptr(GOutputStream) out = fresh_output ();
            g_autoptr(GError) error = NULL;

            g_assert (bl_cli_diff_write_profiles (diff, metric, table, (options & 1) != 0,
                                                  (options & 2) != 0, "a", "b", out, &error));
          }
      if (metric != BL_METRIC_INVALID)
        {
          BlFlameSvgOptions svg = { metric, NULL, 0, NULL, 1 + options % 64, (options & 1) != 0 };
          g_autoptr(GOutputStream) out = fresh_output ();
          g_autoptr(GError) error = NULL;

          g_assert (bl_flame_svg_write_diff (diff, &svg, out, NULL, NULL, &error));
        }
    }
  else if (BL_IS_SESSION (a) && BL_IS_SESSION (b))
    {
      g_autoptr(BlDiff) diff = bl_diff_new_for_sessions (BL_SESSION (a), BL_SESSION (b));
      g_autoptr(GOutputStream) out = fresh_output ();
      g_autoptr(GError) error = NULL;

      g_assert (bl_cli_diff_write_sessions (diff, "a", "b", out, &error));
    }

  return 0;
}
