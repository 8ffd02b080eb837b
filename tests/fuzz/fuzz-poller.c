/* fuzz-poller.c — libFuzzer target for what the resource poller makes of a
 * device's answers
 *
 * The input is a series of answers, each a byte picking the query
 * (chanperf, which starts a poll, then the optional ones: frame rate,
 * beacons, rendezvous, bitmaps, nodes, objects, registry), two bytes of
 * length (little-endian) and the answer. They are given to the poller's
 * parsers as a run would (optional answers only within a poll); the session
 * document it would write must then read back with the RRM reader.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>

#include "bl-model.h"
#include "bl-resource-poller-private.h"
#include "bl-rrm-reader.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(BlDevice) device = bl_device_new ("127.0.0.1", 8060);
  g_autoptr(GFile) output = g_file_new_for_path ("/nonexistent/session.json");
  g_autoptr(BlResourcePoller) poller = bl_resource_poller_new (device, output);
  g_autoptr(GBytes) document = NULL;
  g_autoptr(BlSession) session = NULL;
  g_autoptr(GError) error = NULL;
  gboolean polled = FALSE;
  gsize pos = 0;

  while (size - pos >= 3)
    {
      g_autoptr(GError) feed_error = NULL;
      guint index = data[pos] % _bl_resource_poller_get_n_answers ();
      gsize len = MIN ((gsize) data[pos + 1] | (gsize) data[pos + 2] << 8, size - pos - 3);
      const char *answer = (const char *) data + pos + 3;

      pos += 3 + len;
      if (index > 0 && polled)
        _bl_resource_poller_feed (poller, index, answer, len, &feed_error);
      else if (index == 0 && !_bl_resource_poller_feed (poller, 0, answer, len, &feed_error))
        break;    /* the run ends with what it saved */
      else if (index == 0)
        polled = TRUE;
    }
  if (!polled)
    return 0;

  /* what a run would have written after these polls */
  document = _bl_resource_poller_dup_document (poller);
  session = bl_rrm_read_memory (g_bytes_get_data (document, NULL), g_bytes_get_size (document),
                                &error);
  if (session == NULL)
    {
      g_printerr ("the session does not read back: %s\n", error->message);
      abort ();
    }

  return 0;
}
