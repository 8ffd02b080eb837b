/* bl-metric.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-metric"

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>

#include "bl-metric.h"

static const BlMetricInfo metrics[BL_N_METRICS] = {
  { BL_METRIC_CPU, "cpu", N_("CPU time"), N_("CPU"), BL_UNIT_MICROSECONDS, TRUE },
  { BL_METRIC_WALL, "wall", N_("Wall-clock time"), N_("Wall"), BL_UNIT_MICROSECONDS, TRUE },
  { BL_METRIC_CALLS, "calls", N_("Calls"), N_("Calls"), BL_UNIT_COUNT, FALSE },
  { BL_METRIC_ALLOC_BYTES, "alloc-bytes", N_("Allocated bytes"), N_("Alloc"), BL_UNIT_BYTES, TRUE },
  { BL_METRIC_ALLOC_COUNT, "alloc-count", N_("Allocations"), N_("Allocs"), BL_UNIT_COUNT, TRUE },
  { BL_METRIC_FREE_BYTES, "free-bytes", N_("Freed bytes"), N_("Freed"), BL_UNIT_BYTES, TRUE },
  { BL_METRIC_FREE_COUNT, "free-count", N_("Frees"), N_("Frees"), BL_UNIT_COUNT, TRUE },
  { BL_METRIC_LIVE_BYTES, "live-bytes", N_("Live bytes"), N_("Live"), BL_UNIT_BYTES, TRUE },
  { BL_METRIC_LIVE_COUNT, "live-count", N_("Live allocations"), N_("Live #"), BL_UNIT_COUNT, TRUE },
  { BL_METRIC_SAMPLES, "samples", N_("Samples"), N_("Samples"), BL_UNIT_COUNT, TRUE },
  { BL_METRIC_TIME_NS, "time-ns", N_("Time"), N_("Time"), BL_UNIT_NANOSECONDS, TRUE },
  { BL_METRIC_WEIGHT, "weight", N_("Weight"), N_("Weight"), BL_UNIT_NONE, TRUE },
};

const BlMetricInfo *
bl_metric_get_info (BlMetricId id)
{
  g_return_val_if_fail (id >= 0 && id < BL_N_METRICS, NULL);

  return &metrics[id];
}

const char *
bl_metric_get_name (BlMetricId id)
{
  g_return_val_if_fail (id >= 0 && id < BL_N_METRICS, NULL);

  return metrics[id].name;
}

BlMetricId
bl_metric_from_name (const char *name)
{
  if (name == NULL)
    return BL_METRIC_INVALID;

  for (guint i = 0; i < BL_N_METRICS; i++)
    if (g_ascii_strcasecmp (metrics[i].name, name) == 0)
      return metrics[i].id;

  return BL_METRIC_INVALID;
}

const char *
bl_unit_get_speedscope_name (BlUnit unit)
{
  switch (unit)
    {
    case BL_UNIT_MICROSECONDS:
      return "microseconds";
    case BL_UNIT_NANOSECONDS:
      return "nanoseconds";
    case BL_UNIT_BYTES:
      return "bytes";
    case BL_UNIT_COUNT:
    case BL_UNIT_NONE:
    default:
      return "none";
    }
}

char *
bl_format_bytes (guint64 bytes)
{
  if (bytes < 1024)
    /* Translators: a size in bytes, e.g. "12 B" */
    return g_strdup_printf (_("%" PRIu64 " B"), bytes);
  if (bytes < 1024 * 1024)
    return g_strdup_printf (_("%.1f KiB"), bytes / 1024.0);
  if (bytes < G_GUINT64_CONSTANT (1024) * 1024 * 1024)
    return g_strdup_printf (_("%.1f MiB"), bytes / (1024.0 * 1024.0));

  return g_strdup_printf (_("%.2f GiB"), bytes / (1024.0 * 1024.0 * 1024.0));
}

char *
bl_format_duration_us (guint64 us)
{
  if (us < 1000)
    /* Translators: microseconds */
    return g_strdup_printf (_("%" PRIu64 " µs"), us);
  if (us < 1000 * 1000)
    return g_strdup_printf (_("%.2f ms"), us / 1000.0);
  if (us < G_GUINT64_CONSTANT (60) * 1000 * 1000)
    return g_strdup_printf (_("%.2f s"), us / 1e6);

  return g_strdup_printf (_("%u min %02u s"),
                          (guint) (us / 60000000), (guint) ((us / 1000000) % 60));
}

char *
bl_metric_format_value (BlMetricId id,
                        guint64    value)
{
  g_return_val_if_fail (id >= 0 && id < BL_N_METRICS, NULL);

  switch (metrics[id].unit)
    {
    case BL_UNIT_MICROSECONDS:
      return bl_format_duration_us (value);
    case BL_UNIT_NANOSECONDS:
      if (value < 1000)
        return g_strdup_printf (_("%" PRIu64 " ns"), value);
      return bl_format_duration_us (value / 1000);
    case BL_UNIT_BYTES:
      return bl_format_bytes (value);
    case BL_UNIT_COUNT:
    case BL_UNIT_NONE:
    default:
      return g_strdup_printf ("%" G_GUINT64_FORMAT, value);
    }
}

/**
 * bl_append_decimal:
 * @value: a whole number of 10^-@decimals units
 *
 * Appends @value / 10^@decimals as an exact decimal, without trailing
 * zeros: (18, 1) → "1.8", (3325, 2) → "33.25", (30, 1) → "3", (7, 0) → "7".
 */
void
bl_append_decimal (GString *out,
                   guint64  value,
                   guint    decimals)
{
  char digits[24];
  guint64 scale = 1;
  guint64 frac;
  guint n;

  g_return_if_fail (decimals <= 18);

  for (guint i = 0; i < decimals; i++)
    scale *= 10;

  g_string_append_printf (out, "%" G_GUINT64_FORMAT, value / scale);
  frac = value % scale;
  if (frac == 0)
    return;

  for (n = decimals; n > 0; n--)
    {
      digits[n - 1] = (char) ('0' + frac % 10);
      frac /= 10;
    }
  n = decimals;
  while (n > 0 && digits[n - 1] == '0')
    n--;
  g_string_append_c (out, '.');
  g_string_append_len (out, digits, n);
}
