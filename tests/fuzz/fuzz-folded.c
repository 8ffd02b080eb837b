/* fuzz-folded.c — libFuzzer target for the folded stacks reader and writer
 *
 * Reads the bytes (whole and as a stream), writes the profile back, and
 * reads that again: the second write must give the same bytes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-model.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

static GBytes *
write_folded (BlProfile *profile)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_assert (bl_folded_write (profile, BL_METRIC_SAMPLES, out, NULL, &error));
  g_assert (g_output_stream_close (out, NULL, NULL));

  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) stream_error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(BlProfile) streamed = NULL;
  g_autoptr(GInputStream) in = NULL;

  (void) bl_folded_detect (data, size, TRUE);
  (void) bl_folded_detect (data, size, FALSE);

  profile = bl_folded_read_memory (data, size, &error);
  g_assert ((profile == NULL) == (error != NULL));

  /* the stream path on a quarter of the inputs: its window is a large
   * allocation, which makes every run slow under ASan */
  if (size % 4 == 0)
    {
      in = g_memory_input_stream_new_from_data (data, size, NULL);
      streamed = bl_folded_read_stream (in, size, NULL, NULL, NULL, &stream_error);
      g_assert ((streamed == NULL) == (profile == NULL));
    }

  if (profile != NULL)
    {
      g_autoptr(GBytes) first = write_folded (profile);
      g_autoptr(GBytes) second = NULL;
      g_autoptr(BlProfile) again = NULL;
      g_autoptr(GError) again_error = NULL;

      (void) bl_profile_get_grand_total (profile, BL_METRIC_SAMPLES);
      again = bl_folded_read_memory (g_bytes_get_data (first, NULL), g_bytes_get_size (first),
                                     &again_error);
      /* a profile whose counts are all 0 writes nothing */
      if (again != NULL)
        {
          second = write_folded (again);
          g_assert (g_bytes_equal (first, second));
        }
      else
        g_assert (g_bytes_get_size (first) == 0);
    }

  return 0;
}
