/* bl-trace-stream.h — a Perfetto trace of the app, saved as it arrives
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-device.h"

G_BEGIN_DECLS

#define BL_TYPE_TRACE_STREAM (bl_trace_stream_get_type ())

G_DECLARE_FINAL_TYPE (BlTraceStream, bl_trace_stream, BL, TRACE_STREAM, GObject)

BlTraceStream *bl_trace_stream_new                (BlDevice             *device,
                                                   const char           *channel,
                                                   GFile                *output);
guint64        bl_trace_stream_get_bytes_written  (BlTraceStream        *self);
/* When the trace's first byte arrived (g_get_monotonic_time()), or 0. */
gint64         bl_trace_stream_get_first_byte_time (BlTraceStream       *self);

void           bl_trace_stream_run_async          (BlTraceStream        *self,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
gboolean       bl_trace_stream_run_finish         (BlTraceStream        *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);
void           bl_trace_stream_stop               (BlTraceStream        *self);

void           bl_trace_stream_heap_graph_async   (BlTraceStream        *self,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
gboolean       bl_trace_stream_heap_graph_finish  (BlTraceStream        *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);

G_END_DECLS
