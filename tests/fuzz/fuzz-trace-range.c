/* fuzz-trace-range.c — libFuzzer target: the call tree of time ranges of
 * whatever the Perfetto reader makes of the bytes
 *
 * The whole range holds the profile's own total; any range holds no more
 * than the whole, keeps every thread, and cancelling gives nothing. Its
 * corpus is the Perfetto reader's (tests/fuzz/perfetto), replayed by a
 * normal test.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-model.h"
#include "bl-perfetto-reader.h"
#include "bl-profile-range.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(BlProfileRange) range = NULL;
  g_autoptr(BlProfile) whole = NULL;
  g_autoptr(GArray) found = NULL;
  guint64 total, start = G_MAXUINT64, end = 0;
  guint64 cuts[4] = { 0 };

  profile = bl_perfetto_read_memory (data, size, NULL);
  if (profile == NULL)
    return 0;

  range = bl_profile_range_new (profile);
  total = bl_profile_get_grand_total (profile, BL_METRIC_TIME_NS);
  whole = bl_profile_range_build (range, 0, G_MAXUINT64, NULL);
  g_assert (whole != NULL);
  g_assert (bl_profile_get_grand_total (whole, BL_METRIC_TIME_NS) == total);
  g_assert (bl_profile_get_n_threads (whole) == bl_profile_get_n_threads (profile));

  for (guint t = 0; t < bl_profile_get_n_threads (profile); t++)
    {
      guint64 a, b;

      if (bl_profile_get_time_range (profile, t, &a, &b))
        {
          start = MIN (start, a);
          end = MAX (end, b);
        }
    }
  if (start > end)
    return 0;

  /* ranges from the trace's own bounds and from the input's last bytes */
  memcpy (cuts, data + size - MIN (size, sizeof cuts), MIN (size, sizeof cuts));
  found = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < 6; i++)
    {
      guint64 from, to;
      g_autoptr(BlProfile) part = NULL;

      if (i < 4)
        {
          from = start + (end - start) / 4 * i;
          to = from + (end - start) / 3 + 1;
        }
      else
        {
          from = MIN (cuts[2 * (i - 4)], cuts[2 * (i - 4) + 1]);
          to = MAX (cuts[2 * (i - 4)], cuts[2 * (i - 4) + 1]);
        }
      part = bl_profile_range_build (range, from, to, NULL);
      g_assert (part != NULL);
      g_assert (bl_profile_get_grand_total (part, BL_METRIC_TIME_NS) <= total);
      g_assert (bl_profile_get_n_threads (part) == bl_profile_get_n_threads (profile));
      for (guint t = 0; t < bl_profile_get_n_threads (profile); t++)
        {
          BlSpanList list;
          gsize n_spans = bl_profile_get_spans (profile, t, &list) ? list.n_spans : 0;
          const BlSpan *spans = list.spans;

          g_array_set_size (found, 0);
          bl_profile_range_collect (range, t, from, to, found);
          for (guint k = 0; k < found->len; k++)
            {
              guint32 index = g_array_index (found, guint32, k);
              const BlSpan *span;

              g_assert (index < n_spans);
              span = &spans[index];
              g_assert (span->start < to);
              g_assert (bl_span_list_get_end (&list, index) > from || span->start >= from);
            }
        }
    }

  return 0;
}
