/* bl-metric.h — the one table of metrics
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  BL_METRIC_CPU,
  BL_METRIC_WALL,
  BL_METRIC_CALLS,
  BL_METRIC_ALLOC_BYTES,
  BL_METRIC_ALLOC_COUNT,
  BL_METRIC_FREE_BYTES,
  BL_METRIC_FREE_COUNT,
  BL_METRIC_LIVE_BYTES,
  BL_METRIC_LIVE_COUNT,
  BL_METRIC_SAMPLES,
  BL_METRIC_TIME_NS,
  BL_METRIC_WEIGHT,
  BL_N_METRICS,
  BL_METRIC_INVALID = -1
} BlMetricId;

typedef enum
{
  BL_UNIT_COUNT,
  BL_UNIT_MICROSECONDS,
  BL_UNIT_NANOSECONDS,
  BL_UNIT_BYTES,
  BL_UNIT_NONE,
} BlUnit;

typedef struct
{
  BlMetricId   id;
  const char  *name;          /* machine name, used by the CLI: "cpu", "alloc-bytes" */
  const char  *display_name;  /* translatable (N_) label: "CPU time" */
  const char  *short_name;    /* translatable (N_) column title: "CPU" */
  BlUnit       unit;
  gboolean     additive;      /* does a subtree total mean something? */
} BlMetricInfo;

const BlMetricInfo *bl_metric_get_info         (BlMetricId    id);
BlMetricId          bl_metric_from_name        (const char   *name);
const char         *bl_metric_get_name         (BlMetricId    id);
const char         *bl_unit_get_speedscope_name (BlUnit       unit);
char               *bl_metric_format_value     (BlMetricId    id,
                                                guint64       value);
char               *bl_format_bytes            (guint64       bytes);
char               *bl_format_duration_us      (guint64       microseconds);
void                bl_append_decimal          (GString      *out,
                                                guint64       value,
                                                guint         decimals);

G_END_DECLS
