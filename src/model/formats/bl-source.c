/* bl-source.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-source"

#include "config.h"

#include <string.h>

#include "bl-source-private.h"

void
bl_source_init_stream (BlSource       *source,
                       GInputStream   *stream,
                       guint64         total,
                       GCancellable   *cancellable,
                       BlProgressFunc  progress,
                       gpointer        progress_data)
{
  memset (source, 0, sizeof *source);
  source->stream = g_object_ref (stream);
  source->total = total;
  source->cancellable = cancellable ? g_object_ref (cancellable) : NULL;
  source->progress = progress;
  source->progress_data = progress_data;
  source->cap = BL_SOURCE_CHUNK;
  source->buffer = g_malloc (source->cap);
  source->data = source->buffer;
}

void
bl_source_init_memory (BlSource     *source,
                       const guint8 *data,
                       gsize         len)
{
  memset (source, 0, sizeof *source);
  source->data = data;
  source->len = len;
  source->total = len;
  source->eof = TRUE;
}

void
bl_source_clear (BlSource *source)
{
  g_clear_object (&source->stream);
  g_clear_object (&source->cancellable);
  g_clear_pointer (&source->buffer, g_free);
  source->data = NULL;
  source->len = source->pos = 0;
}

/* The slow half of bl_source_tick(): report and check, then set the next
 * point to do so. */
gboolean
_bl_source_report (BlSource  *source,
                   GError   **error)
{
  guint64 done = source->base + source->pos;

  source->next_progress = done + 256 * 1024;

  if (g_cancellable_set_error_if_cancelled (source->cancellable, error))
    return FALSE;

  if (source->progress != NULL)
    source->progress (done, source->total, source->progress_data);

  return TRUE;
}

/**
 * bl_source_fill:
 * @keep_from: the first byte of the window still needed (usually the start
 *   of the entry being parsed)
 *
 * Drops the bytes before @keep_from and reads more input after the rest.
 * On return pos is rebased so that it still points at the same byte. When
 * the input is exhausted, eof is set and no byte is added.
 *
 * Returns: %FALSE on a read error or cancellation
 */
gboolean
bl_source_fill (BlSource  *source,
                gsize      keep_from,
                GError   **error)
{
  gsize keep;
  gssize n;

  if (source->eof || source->stream == NULL)
    {
      source->eof = TRUE;
      return TRUE;
    }

  g_assert (keep_from <= source->len);
  keep = source->len - keep_from;

  if (keep_from > 0)
    memmove (source->buffer, source->buffer + keep_from, keep);
  source->base += keep_from;
  source->pos -= MIN (source->pos, keep_from);
  source->len = keep;

  /* An entry larger than the window: grow it (bounded by the input size,
   * since we only grow when the bytes kept fill the whole window). */
  if (source->cap - source->len < BL_SOURCE_CHUNK / 2)
    {
      source->cap *= 2;
      source->buffer = g_realloc (source->buffer, source->cap);
    }
  source->data = source->buffer;

  while (source->len < source->cap)
    {
      n = g_input_stream_read (source->stream,
                               source->buffer + source->len,
                               source->cap - source->len,
                               source->cancellable,
                               error);
      if (n < 0)
        return FALSE;
      if (n == 0)
        {
          source->eof = TRUE;
          break;
        }
      source->len += n;
      if (source->len - keep >= BL_SOURCE_CHUNK / 2)
        break;
    }

  return bl_source_tick (source, error);
}
