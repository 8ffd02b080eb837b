/* fuzz-json-common.c — the body the DevTools JSON profile targets share
 *
 * Reads the input with the target's reader; the reader either fails with
 * an error of its own (@domain) or the JSON reader's, or gives a profile.
 * A profile's folded stacks are written for every metric, and its
 * speedscope export must read back with the same grand total for every
 * metric (when the totals are below 2^53, as speedscope's weights are
 * doubles). The sniffer looks at the input too.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>

#include "bl-json-reader.h"
#include "bl-speedscope-reader.h"
#include "bl-speedscope-writer.h"
#include "fuzz-json-common.h"

int
bl_fuzz_json_profile (const guint8   *data,
                      size_t          size,
                      BlFuzzJsonRead  read,
                      GQuark          domain)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(BlProfile) again = NULL;
  g_autoptr(GOutputStream) json = NULL;
  BlMetricId metrics[BL_N_METRICS];
  guint n;

  bl_format_detect (data, MIN (size, BL_FORMAT_SNIFF_SIZE), size <= BL_FORMAT_SNIFF_SIZE);

  profile = read (data, size, &error);
  if ((profile == NULL) != (error != NULL) ||
      (error != NULL && error->domain != domain && error->domain != BL_JSON_ERROR))
    {
      g_printerr ("neither a profile nor an error of ours\n");
      abort ();
    }
  if (profile == NULL)
    return 0;

  n = bl_profile_list_metrics (profile, metrics);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();

      if (!bl_folded_write (profile, metrics[i], out, NULL, NULL))
        abort ();
    }

  /* the round trip, for totals a double holds exactly (speedscope's
   * weights are doubles) */
  for (guint i = 0; i < n; i++)
    if (bl_profile_get_grand_total (profile, metrics[i]) > (G_GUINT64_CONSTANT (1) << 53))
      return 0;
  json = g_memory_output_stream_new_resizable ();
  if (!bl_speedscope_write (profile, json, NULL, NULL) ||
      !g_output_stream_close (json, NULL, NULL))
    abort ();
  again = bl_speedscope_read_memory (
    g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (json)),
    g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (json)), &error);
  if (again == NULL)
    {
      g_printerr ("the export does not read back: %s\n", error->message);
      abort ();
    }
  for (guint i = 0; i < n; i++)
    if (bl_profile_get_grand_total (profile, metrics[i]) !=
        bl_profile_get_grand_total (again, metrics[i]))
      {
        g_printerr ("%s: %" G_GUINT64_FORMAT " before, %" G_GUINT64_FORMAT " after\n",
                    bl_metric_get_name (metrics[i]),
                    bl_profile_get_grand_total (profile, metrics[i]),
                    bl_profile_get_grand_total (again, metrics[i]));
        abort ();
      }

  return 0;
}
