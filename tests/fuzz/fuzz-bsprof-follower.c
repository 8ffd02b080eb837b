/* fuzz-bsprof-follower.c — libFuzzer target for the .bsprof follower,
 * checked against the whole-file reader
 *
 * The input is fed in pieces whose sizes come from a hash of the input,
 * with a snapshot after some of them; at the end the follower must agree
 * with bl_bsprof_read_memory() on the same bytes: both fail with the same
 * sentence, or the snapshot has the reader's totals and reasons. (While
 * the header is incomplete the reader fails and the follower waits.)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-model.h"
#include "formats/bl-bsprof-follower.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(BlBsprofFollower) follower = bl_bsprof_follower_new ();
  g_autoptr(BlProfile) expected = NULL;
  g_autoptr(BlProfile) snapshot = NULL;
  g_autoptr(GError) expected_error = NULL;
  g_autoptr(GError) error = NULL;
  guint32 state = 2166136261u;
  gsize at = 0;

  for (gsize i = 0; i < MIN (size, 64); i++)
    state = (state ^ data[i]) * 16777619u;

  while (at < size && error == NULL)
    {
      gsize piece;

      state = state * 1103515245u + 12345u;
      piece = 1 + (state >> 8) % ((state & 1) ? 7 : 4096);
      piece = MIN (piece, size - at);
      bl_bsprof_follower_feed (follower, data + at, piece, &error);
      at += piece;
      if ((state & 0x30) == 0)
        {
          g_autoptr(BlProfile) along = bl_bsprof_follower_snapshot (follower);
        }
    }

  expected = bl_bsprof_read_memory (data, size, &expected_error);
  snapshot = bl_bsprof_follower_snapshot (follower);

  if (error != NULL)
    {
      g_assert_null (expected);
      g_assert_cmpstr (error->message, ==, expected_error->message);
      return 0;
    }
  if (expected == NULL)
    {
      /* the reader gives up on a header cut short; the follower waits */
      g_assert_null (snapshot);
      return 0;
    }

  g_assert_nonnull (snapshot);
  g_assert_cmpuint (bl_profile_get_n_nodes (snapshot), ==, bl_profile_get_n_nodes (expected));
  for (BlMetricId m = 0; m < BL_N_METRICS; m++)
    g_assert_cmpuint (bl_profile_get_grand_total (snapshot, m), ==,
                      bl_profile_get_grand_total (expected, m));
  g_assert_cmpstr (bl_profile_get_incomplete_reason (snapshot), ==,
                   bl_profile_get_incomplete_reason (expected));
  g_assert_cmpstr (bl_profile_get_warning (snapshot), ==, bl_profile_get_warning (expected));

  return 0;
}
