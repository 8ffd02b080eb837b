/* bl-cpuprofile-writer.h — test-only Chrome DevTools profiles, written by hand
 *
 * Writes .cpuprofile and .heapprofile JSON from tables, with every number
 * and array given as JSON text so that tests can write what Chrome never
 * would (ids past 2^32, negative deltas, huge numbers, cycles, duplicate
 * ids, arrays of different lengths), and realistic big profiles for the
 * benchmark and the hostile tests, streamed to any output.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A node of a .cpuprofile. id, children (the text between the brackets)
 * and parent are JSON text; children NULL writes no member (as Chrome does
 * for leaves), parent NULL none. line and col are 0-based as in the file
 * (-1 for none, as Chrome writes for its pseudo-functions). */
typedef struct
{
  const char *id;
  const char *function_name;
  const char *url;
  int         line;
  int         col;
  const char *children;
  const char *parent;
} BlCpuNode;

/* The whole file: nodes first (or last with @nodes_last), then startTime,
 * endTime, samples and timeDeltas (JSON text between the brackets; NULL
 * writes no member). */
GBytes  *bl_cpuprofile_write      (const BlCpuNode *nodes,
                                   guint            n_nodes,
                                   const char      *samples,
                                   const char      *time_deltas,
                                   gboolean         nodes_last);

/* A node of a .heapprofile, in preorder: depth 0 is the head, each node
 * nested in the last node before it one level up. */
typedef struct
{
  guint       depth;
  const char *function_name;
  const char *url;
  int         line;
  int         col;
  const char *self_size;    /* JSON text */
  const char *id;           /* JSON text */
} BlHeapNode;

/* samples: JSON text between the brackets, or NULL for no member */
GBytes  *bl_heapprofile_write     (const BlHeapNode *nodes,
                                   guint             n_nodes,
                                   const char       *samples);

/* A realistic big .cpuprofile, as Chrome and Node write it (compact, ids
 * from 1, children lists, "(root)", "(program)", "(idle)" and "(garbage
 * collector)" under the root): @n_nodes nodes in call trees up to
 * @max_depth deep over a few hundred functions in a few dozen scripts, and
 * @n_samples samples that walk the tree as a program runs (mostly near the
 * previous stack), with deltas of 50–250 µs. Deterministic for a @seed. */
gboolean bl_cpuprofile_write_shape (GOutputStream *out,
                                    guint          n_nodes,
                                    guint          max_depth,
                                    guint          n_samples,
                                    guint32        seed,
                                    GError       **error);

/* A big .cpuprofile made to be checked: @n_nodes nodes with ids 1…n in
 * a binary tree (node i's children are 2i and 2i + 1; id 1 is "(root)";
 * node i calls function "f<i mod 1000>" of script "s<i mod 50>.js" at line
 * i mod 1000), written as it goes (nothing held in memory), then
 * @n_samples samples, sample s at node bl_cpuprofile_tree_sample (n, s),
 * 1000 µs apart. Siblings never share a frame, so every sampled node is
 * its own stack. */
gboolean bl_cpuprofile_write_tree  (GOutputStream *out,
                                    guint          n_nodes,
                                    guint          n_samples,
                                    GError       **error);
guint32  bl_cpuprofile_tree_sample (guint          n_nodes,
                                    guint          s);

/* Chrome traces (what the Performance panel saves) with CPU profiles in
 * them. An event: @name as a string; @pid, @tid, @id, @ts and @args as
 * JSON text (NULL: no member); ph is "P" for Profile and ProfileChunk,
 * "M" for thread_name, "X" otherwise. */
typedef struct
{
  const char *name;
  const char *pid;
  const char *tid;
  const char *id;
  const char *ts;
  const char *args;
} BlTraceEvent;

typedef enum
{
  BL_TRACE_ARRAY,      /* [events] */
  BL_TRACE_OBJECT,     /* {"traceEvents":[events],"metadata":{…}} */
  BL_TRACE_OPEN_END,   /* [events, with no "]" (allowed by the format) */
} BlTraceForm;

GBytes  *bl_trace_write            (const BlTraceEvent *events,
                                    guint               n_events,
                                    BlTraceForm         form);
/* A ProfileChunk's args: {"data":{"cpuProfile":{"nodes":[…],"samples":[…]},
 * "timeDeltas":[…]}}, the nodes naming their parents by "parent" (or
 * children, if given) as Chrome writes them. Free with g_free(). */
char    *bl_trace_chunk_args       (const BlCpuNode    *nodes,
                                    guint               n_nodes,
                                    const char         *samples,
                                    const char         *time_deltas);

G_END_DECLS
