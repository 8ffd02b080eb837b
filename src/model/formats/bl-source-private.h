/* bl-source-private.h — chunked, bounds-checked input for streaming readers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-format.h"

G_BEGIN_DECLS

/* A window onto the input. Readers parse from data[pos] up to data[len];
 * when an entry runs past len and !eof, they call bl_source_fill() keeping
 * the bytes from the entry's start, and parse the entry again.
 * The file is never slurped: the window grows only to hold one entry. */
typedef struct
{
  GInputStream   *stream;        /* NULL for a memory source */
  const guint8   *data;
  gsize           len;
  gsize           pos;
  guint64         base;          /* input offset of data[0] */
  guint64         total;         /* input size, 0 if unknown */
  gboolean        eof;

  guint8         *buffer;        /* owned window for a stream source */
  gsize           cap;

  GCancellable   *cancellable;
  BlProgressFunc  progress;
  gpointer        progress_data;
  guint64         next_progress;
} BlSource;

#define BL_SOURCE_CHUNK (4 * 1024 * 1024)

void     bl_source_init_stream (BlSource        *source,
                                GInputStream    *stream,
                                guint64          total,
                                GCancellable    *cancellable,
                                BlProgressFunc   progress,
                                gpointer         progress_data);
void     bl_source_init_memory (BlSource        *source,
                                const guint8    *data,
                                gsize            len);
void     bl_source_clear       (BlSource        *source);
gboolean bl_source_fill        (BlSource        *source,
                                gsize            keep_from,
                                GError         **error);
gboolean _bl_source_report     (BlSource        *source,
                                GError         **error);

static inline guint64
bl_source_offset (const BlSource *source,
                  gsize           pos)
{
  return source->base + pos;
}

/* Reports progress and checks for cancellation. Cheap enough to call once
 * per entry: it does real work only every 256 KiB of input.
 *
 * Returns: %FALSE with %G_IO_ERROR_CANCELLED if the load was cancelled */
/* The window position at which bl_source_tick() next has work to do: a
 * loop that reaches it calls bl_source_tick(). */
static inline gsize
bl_source_tick_pos (const BlSource *source)
{
  if (source->next_progress <= source->base)
    return 0;

  return (gsize) MIN ((guint64) source->len, source->next_progress - source->base);
}

static inline gboolean
bl_source_tick (BlSource  *source,
                GError   **error)
{
  if G_LIKELY (source->base + source->pos < source->next_progress)
    return TRUE;

  return _bl_source_report (source, error);
}

G_END_DECLS
