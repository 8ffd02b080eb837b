/* bl-profile.h — a call tree in flat arrays, with metrics and per-line data
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-metric.h"

G_BEGIN_DECLS

/* Sums of counts saturate at 2^64-1 instead of wrapping: two huge counts
 * must not add up to a small one. */
static inline guint64
bl_saturating_add (guint64 a,
                   guint64 b)
{
  return b > G_MAXUINT64 - a ? G_MAXUINT64 : a + b;
}

#define BL_TYPE_PROFILE (bl_profile_get_type ())

G_DECLARE_FINAL_TYPE (BlProfile, bl_profile, BL, PROFILE, GObject)

#define BL_NODE_NONE G_MAXUINT32

/* One frame of the call tree. Index-linked; string ids point into the
 * profile's interned string table (0 is the empty string / "none").
 * Thread roots have depth 0, parent BL_NODE_NONE and the thread name as name.
 */
typedef struct
{
  guint32 parent;
  guint32 first_child;
  guint32 next_sibling;
  guint32 name;
  guint32 file;
  guint32 line;       /* line where the function is defined, 0 if unknown */
  guint32 thread;     /* index into the thread list */
  guint32 depth;
} BlNode;

/* A function: every node with the same name and file, merged. */
typedef struct
{
  guint32 name;
  guint32 file;
  guint32 line;
  guint32 n_nodes;
} BlFunction;

/* A source line that has per-line data. */
typedef struct
{
  guint32 file;
  guint32 line;
  guint32 function;   /* string id of the function the line belongs to */
} BlLine;

typedef struct
{
  const char *format;        /* "bsprof", "speedscope", … (static string) */
  guint32     major;
  guint32     minor;
  guint32     patch;
  char       *target;
  char       *supplemental;
  char       *version;
  char       *vendor;
  char       *model;
  char       *firmware;
  guint64     start_ms;
  guint64     end_ms;
  double      requested_ratio;
  double      actual_ratio;
  gboolean    has_lines;
  gboolean    has_memory;
  guint64     unmatched_frees;     /* frees of addresses never allocated */
  guint64     unmatched_free_bytes;
} BlProfileInfo;

/* Building (readers and tests). A profile is mutable until
 * bl_profile_finish(); after that it is immutable and may be shared
 * between threads. */
BlProfile          *bl_profile_new               (const char    *format);
guint32             bl_profile_intern            (BlProfile     *self,
                                                  const char    *str);
guint32             bl_profile_intern_len        (BlProfile     *self,
                                                  const char    *str,
                                                  gssize         len);
guint32             bl_profile_add_thread        (BlProfile     *self,
                                                  guint32        name);
guint32             bl_profile_add_child         (BlProfile     *self,
                                                  guint32        parent,
                                                  guint32        name,
                                                  guint32        file,
                                                  guint32        line);
void                bl_profile_enable_metric     (BlProfile     *self,
                                                  BlMetricId     metric);
void                bl_profile_add_value         (BlProfile     *self,
                                                  guint32        node,
                                                  BlMetricId     metric,
                                                  guint64        value);
void                bl_profile_sub_value         (BlProfile     *self,
                                                  guint32        node,
                                                  BlMetricId     metric,
                                                  guint64        value);
guint32             bl_profile_lookup_line       (BlProfile     *self,
                                                  guint32        file,
                                                  guint32        line,
                                                  guint32        function);
void                bl_profile_add_line_value    (BlProfile     *self,
                                                  guint32        line_index,
                                                  BlMetricId     metric,
                                                  guint64        value);
void                bl_profile_sub_line_value    (BlProfile     *self,
                                                  guint32        line_index,
                                                  BlMetricId     metric,
                                                  guint64        value);
BlProfileInfo      *bl_profile_get_info_mutable  (BlProfile     *self);
void                bl_profile_set_incomplete    (BlProfile     *self,
                                                  const char    *reason);
void                bl_profile_add_warning       (BlProfile     *self,
                                                  const char    *warning);
void                bl_profile_finish            (BlProfile     *self);
void                bl_profile_set_warm_columns  (gboolean       warm);

/* Reading */
const BlProfileInfo *bl_profile_get_info         (BlProfile     *self);
gboolean            bl_profile_is_finished       (BlProfile     *self);
gboolean            bl_profile_is_incomplete     (BlProfile     *self);
const char         *bl_profile_get_incomplete_reason (BlProfile *self);
const char         *bl_profile_get_warning       (BlProfile     *self);
const char         *bl_profile_get_string        (BlProfile     *self,
                                                  guint32        id);
guint               bl_profile_get_n_strings     (BlProfile     *self);
guint32             bl_profile_find_string       (BlProfile     *self,
                                                  const char    *str);

guint               bl_profile_get_n_nodes       (BlProfile     *self);
const BlNode       *bl_profile_get_node          (BlProfile     *self,
                                                  guint32        node);
const BlNode       *bl_profile_get_nodes         (BlProfile     *self);
const char         *bl_profile_get_node_name     (BlProfile     *self,
                                                  guint32        node);
const char         *bl_profile_get_node_file     (BlProfile     *self,
                                                  guint32        node);
guint               bl_profile_get_n_threads     (BlProfile     *self);
guint32             bl_profile_get_thread_root   (BlProfile     *self,
                                                  guint          thread);
const char         *bl_profile_get_thread_name   (BlProfile     *self,
                                                  guint          thread);

gboolean            bl_profile_has_metric        (BlProfile     *self,
                                                  BlMetricId     metric);
guint               bl_profile_list_metrics      (BlProfile     *self,
                                                  BlMetricId    *metrics);
BlMetricId          bl_profile_get_default_metric (BlProfile    *self);
guint64             bl_profile_get_self          (BlProfile     *self,
                                                  BlMetricId     metric,
                                                  guint32        node);
guint64             bl_profile_get_total         (BlProfile     *self,
                                                  BlMetricId     metric,
                                                  guint32        node);
const guint64      *bl_profile_get_self_array    (BlProfile     *self,
                                                  BlMetricId     metric);
const guint64      *bl_profile_get_total_array   (BlProfile     *self,
                                                  BlMetricId     metric);
gboolean            bl_profile_has_total_array   (BlProfile     *self,
                                                  BlMetricId     metric);
const guint32      *bl_profile_get_deepest_array (BlProfile    *self,
                                                  BlMetricId     metric);
guint64             bl_profile_get_grand_total   (BlProfile     *self,
                                                  BlMetricId     metric);

/* Fractional values. Every value is a guint64. A metric whose values are
 * not whole numbers of its base unit (speedscope weights of 0.4 samples or
 * 33.25 bytes, event times in fractions of a nanosecond) stores them as
 * whole numbers of a finer, decimal unit: 10^-decimals of the base unit,
 * the same for every node, line, function and span value of that metric in
 * the profile, so sums stay exact integers. decimals is 0 (the default) for
 * whole numbers: readers that never set it, every existing API and every
 * output for such profiles are unchanged. Code that shows or exports a
 * value divides by the scale (10^decimals), or uses the helpers below:
 * bl_profile_format_value() for people, bl_profile_append_exact_value() for
 * files (the exact decimal, "1.8", "33.25"; a plain integer when decimals
 * is 0). Set it (at most BL_PROFILE_MAX_DECIMALS) before bl_profile_finish(). */
#define BL_PROFILE_MAX_DECIMALS 18

void                bl_profile_set_metric_decimals (BlProfile   *self,
                                                  BlMetricId     metric,
                                                  guint          decimals);
guint               bl_profile_get_metric_decimals (BlProfile   *self,
                                                  BlMetricId     metric);
guint64             bl_profile_get_metric_scale  (BlProfile     *self,
                                                  BlMetricId     metric);
double              bl_profile_to_base_unit      (BlProfile     *self,
                                                  BlMetricId     metric,
                                                  guint64        value);
char               *bl_profile_format_value      (BlProfile     *self,
                                                  BlMetricId     metric,
                                                  guint64        value);
void                bl_profile_append_exact_value (BlProfile    *self,
                                                  BlMetricId     metric,
                                                  guint64        value,
                                                  GString       *out);

guint               bl_profile_get_n_functions   (BlProfile     *self);
const BlFunction   *bl_profile_get_function      (BlProfile     *self,
                                                  guint32        function);
guint32             bl_profile_get_node_function (BlProfile     *self,
                                                  guint32        node);
gboolean            bl_profile_is_outermost      (BlProfile     *self,
                                                  guint32        node);
guint64             bl_profile_get_function_self (BlProfile     *self,
                                                  BlMetricId     metric,
                                                  guint32        function);
guint64             bl_profile_get_function_total (BlProfile    *self,
                                                  BlMetricId     metric,
                                                  guint32        function);

guint               bl_profile_get_n_lines       (BlProfile     *self);
const BlLine       *bl_profile_get_line          (BlProfile     *self,
                                                  guint32        line_index);
guint64             bl_profile_get_line_value    (BlProfile     *self,
                                                  BlMetricId     metric,
                                                  guint32        line_index);

char               *bl_profile_dup_stack_string  (BlProfile     *self,
                                                  guint32        node,
                                                  char           separator);

/* Sample order (speedscope sampled profiles): per thread, the samples in
 * the order they were taken: the node on top of each one's stack and its
 * weight in the thread's metric as stored (the node's self value is the sum
 * of its samples' weights). */
typedef struct
{
  guint32 node;
  guint64 weight;
} BlOrderedSample;

void                bl_profile_add_sample        (BlProfile     *self,
                                                  guint          thread,
                                                  guint32        node,
                                                  guint64        weight);
const BlOrderedSample *bl_profile_get_samples   (BlProfile     *self,
                                                  guint          thread,
                                                  gsize         *n_samples);

/* Frames (optional; speedscope's shared frames): a reader whose format
 * has frames of its own adds them with bl_profile_add_frame() and builds
 * its nodes with bl_profile_add_child_frame(). A node is then one frame
 * under its parent, so two frames are kept apart even when name and file
 * agree (as speedscope keeps its frames apart by index), and each frame
 * keeps its line and column. Nodes made by bl_profile_add_child() have no
 * frame (BL_NODE_NONE). Functions still merge nodes by name and file. */
typedef struct
{
  guint32 name;
  guint32 file;
  guint32 line;       /* 0 if unknown */
  guint32 col;        /* 0 if unknown */
} BlFrame;

guint32             bl_profile_add_frame         (BlProfile     *self,
                                                  guint32        name,
                                                  guint32        file,
                                                  guint32        line,
                                                  guint32        col);
guint32             bl_profile_add_child_frame   (BlProfile     *self,
                                                  guint32        parent,
                                                  guint32        frame);
guint               bl_profile_get_n_frames      (BlProfile     *self);
const BlFrame      *bl_profile_get_frame         (BlProfile     *self,
                                                  guint32        frame);
guint32             bl_profile_get_node_frame    (BlProfile     *self,
                                                  guint32        node);

/* Allocation-size histogram (mpatrol's bins): bucket i counts the
 * allocations and frees whose size lies in [lower, upper] bytes; the last
 * bucket may be open-ended (upper G_MAXUINT64). */
typedef struct
{
  guint64 lower;
  guint64 upper;
  guint64 alloc_count;
  guint64 alloc_bytes;
  guint64 free_count;
  guint64 free_bytes;
} BlHistogramBucket;

void                bl_profile_set_histogram     (BlProfile              *self,
                                                  const BlHistogramBucket *buckets,
                                                  guint                   n_buckets);
const BlHistogramBucket *bl_profile_get_histogram (BlProfile             *self,
                                                  guint                  *n_buckets);

/* Time order (speedscope evented profiles): per thread, the spans during
 * which a node was on the stack, in the order they were entered (by start
 * time; a parent before its children). Times are in the unit of the
 * thread's metric as stored (nanoseconds for time-ns; with decimals set for
 * that metric, 10^-decimals of it, see above).
 *
 * A span takes 16 bytes: its start, its node and its duration. A duration
 * of 2^32 - 1 or more is BL_SPAN_LONG there, the duration itself kept in
 * the list's long durations (few in real traces: sorted by span index,
 * found by binary search). A span's depth is its node's. Read spans
 * through a BlSpanList and its helpers: bl_span_list_get_end(),
 * bl_span_list_get_duration(), bl_span_list_get_depth(). */
typedef struct
{
  guint64 start;
  guint32 node;
  guint32 duration;   /* end - start, or BL_SPAN_LONG */
} BlSpan;

#define BL_SPAN_LONG G_MAXUINT32

typedef struct
{
  guint32 span;       /* the span's index in its list */
  guint32 reserved;
  guint64 duration;   /* at least BL_SPAN_LONG */
} BlSpanLong;

typedef struct
{
  const BlSpan     *spans;
  gsize             n_spans;
  const BlSpanLong *longs;    /* the long durations, by span index */
  gsize             n_longs;
  const BlNode     *nodes;    /* the profile's nodes (for depths) */
} BlSpanList;

guint64             _bl_span_list_get_long       (const BlSpanList *list,
                                                  gsize             index);

static inline guint64
bl_span_list_get_duration (const BlSpanList *list,
                           gsize             index)
{
  guint32 d = list->spans[index].duration;

  return G_LIKELY (d != BL_SPAN_LONG) ? d : _bl_span_list_get_long (list, index);
}

static inline guint64
bl_span_list_get_end (const BlSpanList *list,
                      gsize             index)
{
  return list->spans[index].start + bl_span_list_get_duration (list, index);
}

static inline guint32
bl_span_list_get_depth (const BlSpanList *list,
                        gsize             index)
{
  return list->nodes[list->spans[index].node].depth;
}

/* Spans are added in the order they were entered; an end before the
 * start is taken as the start. */
guint               bl_profile_add_span          (BlProfile     *self,
                                                  guint          thread,
                                                  guint32        node,
                                                  guint64        start);
void                bl_profile_set_span_end      (BlProfile     *self,
                                                  guint          thread,
                                                  guint          span,
                                                  guint64        end);
void                bl_profile_set_time_range    (BlProfile     *self,
                                                  guint          thread,
                                                  guint64        start,
                                                  guint64        end);
gboolean            bl_profile_has_time_order    (BlProfile     *self);
/* Fills @list with the thread's spans; %FALSE (and an empty list) if it
 * has none. The list stays valid until a node or a span is added. */
gboolean            bl_profile_get_spans         (BlProfile     *self,
                                                  guint          thread,
                                                  BlSpanList    *list);
gboolean            bl_profile_get_time_range    (BlProfile     *self,
                                                  guint          thread,
                                                  guint64       *start,
                                                  guint64       *end);

/* The time order of a sampled thread, as speedscope's "Time Order" view
 * draws it: the samples laid end to end from 0, each as wide as its
 * weight; a node on the stacks of consecutive samples is one span, a node
 * left and entered again two. Spans of depth 1 and deeper (not the thread
 * root), in the order they were entered, like bl_profile_get_spans();
 * @duration is the sum of the weights. Computed on each call, in time
 * linear in the total stack length of the samples. The list and its
 * arrays are one block: free it with g_free(). */
BlSpanList         *bl_profile_dup_sample_spans  (BlProfile     *self,
                                                  guint          thread,
                                                  guint64       *duration);

/* Heap snapshots carried by the file (Perfetto heap graphs, DevTools heap
 * snapshots), in file order; the profile owns them. */
typedef struct _BlHeap BlHeap;
void                bl_profile_add_heap          (BlProfile     *self,
                                                  BlHeap        *heap,
                                                  const char    *label);
guint               bl_profile_get_n_heaps       (BlProfile     *self);
BlHeap             *bl_profile_get_heap          (BlProfile     *self,
                                                  guint          index);
const char         *bl_profile_get_heap_label    (BlProfile     *self,
                                                  guint          index);

G_END_DECLS
