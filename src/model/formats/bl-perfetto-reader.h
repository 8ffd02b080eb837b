/* bl-perfetto-reader.h — Perfetto protobuf trace decoder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-format.h"
#include "bl-heap.h"
#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_PERFETTO_ERROR (bl_perfetto_error_quark ())

typedef enum
{
  BL_PERFETTO_ERROR_NOT_A_TRACE,
  BL_PERFETTO_ERROR_MALFORMED,
} BlPerfettoError;

/* One value of a counter track, in trace-clock nanoseconds. */
typedef struct
{
  guint64 ts;
  double  value;
} BlPerfettoPoint;

typedef struct
{
  char   *name;
  char   *unit;       /* "" if none */
  GArray *points;     /* BlPerfettoPoint, in time order */
} BlPerfettoCounter;

/* An instant event: a marker on the time axis. */
typedef struct
{
  guint64 ts;
  guint32 name;       /* string id in the profile */
  guint32 thread;     /* the profile thread of its track, or G_MAXUINT32 */
} BlPerfettoInstant;

/* A flow: an arrow from the slice where it starts (or continues) to the
 * next slice carrying the same flow id. Slices are span indices of their
 * thread. */
typedef struct
{
  guint64 id;
  guint32 from_thread;
  guint32 from_span;
  guint32 to_thread;
  guint32 to_span;
} BlPerfettoFlow;

/* The debug annotations of one slice, as "name=value, name=value". */
typedef struct
{
  guint32  thread;
  guint32  span;
  char    *text;
} BlPerfettoAnnotation;

/* What a Perfetto trace holds besides the call tree: attached to the
 * profile (see bl_perfetto_get_trace()). */
typedef struct
{
  guint64    n_packets;
  guint64    n_slices;
  guint64    n_instants;
  guint64    n_heap_graphs;
  guint64    n_annotations;
  GPtrArray *counters;    /* BlPerfettoCounter */
  GArray    *instants;    /* BlPerfettoInstant, in time order */
  GArray    *flows;       /* BlPerfettoFlow */
  GPtrArray *annotations; /* BlPerfettoAnnotation, per annotated slice */
  GPtrArray *heaps;       /* BlHeap, one per heap graph, in trace order */
} BlPerfettoTrace;

GQuark                 bl_perfetto_error_quark (void);
gboolean               bl_perfetto_detect      (const guint8   *head,
                                                gsize           len,
                                                gboolean        is_whole_file);
BlProfile             *bl_perfetto_read_stream (GInputStream   *stream,
                                                guint64         total,
                                                BlProgressFunc  progress,
                                                gpointer        progress_data,
                                                GCancellable   *cancellable,
                                                GError        **error);
BlProfile             *bl_perfetto_read_memory (const guint8   *data,
                                                gsize           len,
                                                GError        **error);
const BlPerfettoTrace *bl_perfetto_get_trace   (BlProfile      *profile);

G_END_DECLS
