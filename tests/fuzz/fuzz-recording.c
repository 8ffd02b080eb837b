/* fuzz-recording.c — libFuzzer target for the recording manifest reader
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
  g_autoptr(BlRecording) recording = NULL;

  (void) bl_recording_detect (data, size);

  recording = bl_recording_load_manifest_memory (data, size, &error);
  g_assert ((recording == NULL) == (error != NULL));

  if (recording != NULL)
    {
      const BlRecordingInfo *info = bl_recording_get_info (recording);
      const BlRecordingMark *marks;
      guint n;

      marks = bl_recording_get_marks (recording, &n);
      for (guint i = 0; i < n; i++)
        {
          g_assert_nonnull (marks[i].text);
          g_assert_cmpint (marks[i].kind, <, BL_RECORDING_N_MARK_KINDS);
          g_assert_true (i == 0 || marks[i - 1].time_us <= marks[i].time_us);
        }
      g_assert_cmpint (info->end, <=, BL_RECORDING_END_DEVICE_LOST);
      g_assert_cmpint (info->duration_us, >=, 0);
      for (guint s = 0; s < BL_RECORDING_N_STREAMS; s++)
        {
          g_assert_cmpint (bl_recording_get_stream_first_byte (recording, s), >=, -1);
          /* nothing is loaded from memory */
          g_assert_null (bl_recording_dup_stream_file (recording, s));
        }
      g_assert_null (bl_recording_get_profile (recording));
    }
  else
    {
      g_assert_true (error->domain == BL_RECORDING_ERROR);
      g_assert_nonnull (error->message);
    }

  return 0;
}
