/* bl-perfetto-private.h — the Perfetto reader's entry for benchmarks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-perfetto-reader.h"

G_BEGIN_DECLS

/* As bl_perfetto_read_stream(); with @analyse FALSE the heap graphs are
 * left unfinished (objects, types and references only): the caller runs
 * bl_heap_finish() on each of bl_perfetto_get_trace()'s heaps before any
 * other use of the profile's heaps. */
BlProfile *bl_perfetto_read_stream_full (GInputStream   *stream,
                                         guint64         total,
                                         gboolean        analyse,
                                         BlProgressFunc  progress,
                                         gpointer        progress_data,
                                         GCancellable   *cancellable,
                                         GError        **error);

/* Heap graphs adding up to this many bytes go to a second thread. */
#define BL_PERFETTO_HEAP_WORKER_MIN_BYTES (4 * 1024 * 1024)

void       bl_perfetto_set_heap_worker  (guint64         min_bytes);

G_END_DECLS
