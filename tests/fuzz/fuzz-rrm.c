/* fuzz-rrm.c — libFuzzer target for the Roku Resource Monitor session
 * reader (the streaming JSON reader under it), the session model's
 * finishing (sorting, dropping outlying timestamps, beacon intervals,
 * summary) and the CSV writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "bl-model.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlSession) session = NULL;

  (void) bl_rrm_detect (data, size);
  session = bl_rrm_read_memory (data, size, &error);
  g_assert ((session == NULL) == (error != NULL));

  if (session != NULL)
    {
      g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
      const BlSessionSummary *sum = bl_session_get_summary (session);
      BlRangeStats stats;
      g_autoptr(GError) werror = NULL;

      /* what the window and the CLI do with a session */
      g_assert (sum->end_ms >= sum->start_ms);
      for (BlSeriesId id = 0; id < BL_N_SERIES; id++)
        bl_session_compute_range_stats (session, id, sum->start_ms, sum->end_ms, &stats);
      for (guint kind = 0; kind < BL_N_DETAILS; kind++)
        (void) bl_session_find_detail (session, kind, sum->end_ms);
      bl_session_write_csv (session, out, NULL, &werror);
    }

  return 0;
}
