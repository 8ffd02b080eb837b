/* fuzz-perfetto.c — libFuzzer target for the Perfetto trace reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "bl-heap.h"
#include "bl-model.h"
#include "bl-perfetto-reader.h"
#include "bl-speedscope-writer.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;

  profile = bl_perfetto_read_memory (data, size, &error);
  g_assert ((profile == NULL) == (error != NULL));
  (void) bl_perfetto_detect (data, size, TRUE);
  (void) bl_perfetto_detect (data, size, FALSE);

  if (profile != NULL)
    {
      g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
      g_autoptr(GError) ferror = NULL;
      g_autoptr(GError) werror = NULL;
      const BlPerfettoTrace *trace = bl_perfetto_get_trace (profile);

      g_assert (trace != NULL);
      bl_folded_write (profile, BL_METRIC_TIME_NS, out, NULL, &ferror);
      (void) bl_profile_get_grand_total (profile, BL_METRIC_TIME_NS);
      bl_speedscope_write (profile, out, NULL, &werror);
      /* the references the reader resolved (the heaps are finished),
       * through the heap's analysis */
      for (guint i = 0; i < trace->heaps->len; i++)
        bl_heap_analyse (g_ptr_array_index (trace->heaps, i), NULL);
    }

  return 0;
}
