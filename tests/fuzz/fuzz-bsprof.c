/* fuzz-bsprof.c — libFuzzer target for the .bsprof decoder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "bl-model.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;

  profile = bl_bsprof_read_memory (data, size, &error);
  g_assert ((profile == NULL) == (error != NULL));

  if (profile != NULL)
    {
      g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
      BlMetricId metrics[BL_N_METRICS];
      guint n = bl_profile_list_metrics (profile, metrics);

      /* exercise what the CLI does with a decoded profile */
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(GError) werror = NULL;

          g_seekable_truncate (G_SEEKABLE (out), 0, NULL, NULL);
          g_seekable_seek (G_SEEKABLE (out), 0, G_SEEK_SET, NULL, NULL);
          bl_folded_write (profile, metrics[i], out, NULL, &werror);
          (void) bl_profile_get_grand_total (profile, metrics[i]);
        }
    }

  return 0;
}
