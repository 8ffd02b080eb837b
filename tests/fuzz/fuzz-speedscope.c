/* fuzz-speedscope.c — libFuzzer target for the speedscope reader and writer
 *
 * Reads the input; when it is a profile, writes every metric's folded
 * stacks and exports it to speedscope's format, which must read back with
 * the same grand total (in base units, to 1e-9) for every metric that
 * has one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "bl-model.h"
#include "bl-speedscope-reader.h"
#include "bl-speedscope-writer.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(BlProfile) again = NULL;
  g_autoptr(GOutputStream) out = NULL;
  g_autoptr(GOutputStream) json = NULL;
  BlMetricId metrics[BL_N_METRICS];
  guint n;

  profile = bl_speedscope_read_memory (data, size, &error);
  g_assert ((profile == NULL) == (error != NULL));
  if (profile == NULL)
    return 0;

  /* what the CLI does with a profile */
  out = g_memory_output_stream_new_resizable ();
  n = bl_profile_list_metrics (profile, metrics);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GError) werror = NULL;
      g_autofree char *text = NULL;

      g_seekable_truncate (G_SEEKABLE (out), 0, NULL, NULL);
      g_seekable_seek (G_SEEKABLE (out), 0, G_SEEK_SET, NULL, NULL);
      g_assert (bl_folded_write (profile, metrics[i], out, NULL, &werror));
      text = bl_profile_format_value (profile, metrics[i],
                                      bl_profile_get_grand_total (profile, metrics[i]));
    }

  /* the round trip keeps every metric's total (that of a whole file: what
   * is kept of a cut one is time without some of its frames) */
  json = g_memory_output_stream_new_resizable ();
  g_assert (bl_speedscope_write (profile, json, NULL, NULL));
  g_assert (g_output_stream_close (json, NULL, NULL));
  again = bl_speedscope_read_memory (
    g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (json)),
    g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (json)), &error);
  /* (abort (), which libFuzzer catches, rather than g_error ()'s trap) */
  if (again == NULL)
    {
      g_printerr ("the export does not read back: %s\n", error->message);
      abort ();
    }
  for (guint i = 0; i < n && !bl_profile_is_incomplete (profile); i++)
    {
      double before = bl_profile_to_base_unit (profile, metrics[i],
                                               bl_profile_get_grand_total (profile, metrics[i]));
      double after = bl_profile_to_base_unit (again, metrics[i],
                                              bl_profile_get_grand_total (again, metrics[i]));

      if (fabs (before - after) > 1e-9 * fabs (before))
        {
          g_printerr ("%s: %.17g before, %.17g after the round trip\n",
                      bl_metric_get_name (metrics[i]), before, after);
          abort ();
        }
    }

  return 0;
}
