/* fuzz-mpatrol.c — libFuzzer target for the mpatrol profile reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "bl-model.h"
#include "bl-mpatrol-reader.h"
#include "bl-speedscope-writer.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;

  profile = bl_mpatrol_read_memory (data, size, &error);
  g_assert ((profile == NULL) == (error != NULL));
  (void) bl_mpatrol_detect (data, size);

  if (profile != NULL)
    {
      g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
      g_autoptr(GError) werror = NULL;
      BlMetricId metrics[BL_N_METRICS];
      guint n = bl_profile_list_metrics (profile, metrics);

      /* exercise what the CLI does with a decoded profile */
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(GError) ferror = NULL;

          g_seekable_truncate (G_SEEKABLE (out), 0, NULL, NULL);
          g_seekable_seek (G_SEEKABLE (out), 0, G_SEEK_SET, NULL, NULL);
          bl_folded_write (profile, metrics[i], out, NULL, &ferror);
          (void) bl_profile_get_grand_total (profile, metrics[i]);
        }
      bl_speedscope_write (profile, out, NULL, &werror);
    }

  return 0;
}
