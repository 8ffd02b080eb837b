/* bl-diff.h — two profiles (or two sessions) side by side
 *
 * A profile diff merges the call trees of A and B into one tree: a frame is
 * matched by its thread name and the function names on the path to it, the
 * same stack text as `export --format folded` writes ("thread;f1;…;fn").
 * Every merged node carries A's and B's self and total values for each
 * metric either side has, and says whether it exists in A, in B or in both.
 * Functions are merged by name and file, with totals that do not count
 * recursion twice (as the profile's own function view).
 *
 * A session diff puts the summary figures of two sessions side by side and
 * finds the offsets that align their time axes, at session start or at a
 * beacon both sessions have.
 *
 * A diff does not change once built, and every getter may be called from
 * any thread (the per-node values of a metric are made on first use, under
 * a lock).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-metric.h"
#include "bl-profile.h"
#include "bl-session.h"

G_BEGIN_DECLS

#define BL_TYPE_DIFF (bl_diff_get_type ())

G_DECLARE_FINAL_TYPE (BlDiff, bl_diff, BL, DIFF, GObject)

typedef enum
{
  BL_DIFF_SIDE_A,
  BL_DIFF_SIDE_B,
} BlDiffSide;

typedef enum
{
  BL_DIFF_IN_A    = 1 << 0,
  BL_DIFF_IN_B    = 1 << 1,
  BL_DIFF_IN_BOTH = BL_DIFF_IN_A | BL_DIFF_IN_B,
} BlDiffPresence;

/* One frame of the merged tree: index-linked like BlNode; children sorted
 * by name; thread roots have depth 0 and parent BL_NODE_NONE. */
typedef struct
{
  guint32 parent;
  guint32 first_child;
  guint32 next_sibling;
  guint32 name;       /* string id in the diff's own table */
  guint32 depth;
  guint32 presence;   /* BlDiffPresence */
} BlDiffNode;

/* One function (name and file) of either side; thread roots are not
 * functions. */
typedef struct
{
  guint32 name;       /* string id in the diff's own table */
  guint32 file;
  guint32 presence;   /* BlDiffPresence */
  guint32 function[2]; /* index in profile A and B, or BL_NODE_NONE */
} BlDiffFunction;

/* A change from A to B. Plain: values in the metric's base unit. Normalized:
 * each value is its share of its side's grand total (0…1), so runs of
 * different lengths compare. delta = b - a; delta_pct = 100 (b - a) / a,
 * +inf when only B has a value and 0 when neither has. */
typedef struct
{
  double a;
  double b;
  double delta;
  double delta_pct;
} BlDiffChange;

BlDiff             *bl_diff_new                  (BlProfile     *a,
                                                  BlProfile     *b);
gboolean            bl_diff_is_session           (BlDiff        *self);
BlProfile          *bl_diff_get_profile          (BlDiff        *self,
                                                  BlDiffSide     side);

/* Metrics: those either side has; missing values count as 0. */
gboolean            bl_diff_has_metric           (BlDiff        *self,
                                                  BlMetricId     metric);
gboolean            bl_diff_side_has_metric      (BlDiff        *self,
                                                  BlDiffSide     side,
                                                  BlMetricId     metric);
/* A's default metric when B has it too, else the first both have, else
 * the first either has; BL_METRIC_INVALID for two empty profiles. */
BlMetricId          bl_diff_get_default_metric   (BlDiff        *self);
guint64             bl_diff_get_grand_total      (BlDiff        *self,
                                                  BlDiffSide     side,
                                                  BlMetricId     metric);

/* The merged tree */
guint               bl_diff_get_n_nodes          (BlDiff        *self);
const BlDiffNode   *bl_diff_get_nodes            (BlDiff        *self);
const BlDiffNode   *bl_diff_get_node             (BlDiff        *self,
                                                  guint32        node);
const char         *bl_diff_get_string           (BlDiff        *self,
                                                  guint32        id);
const char         *bl_diff_get_node_name        (BlDiff        *self,
                                                  guint32        node);
guint               bl_diff_get_n_roots          (BlDiff        *self);
guint32             bl_diff_get_root             (BlDiff        *self,
                                                  guint          index);
/* The root whose name is @thread_name, or BL_NODE_NONE. */
guint32             bl_diff_find_root            (BlDiff        *self,
                                                  const char    *thread_name);
char               *bl_diff_dup_stack_string     (BlDiff        *self,
                                                  guint32        node,
                                                  char           separator);
/* The merged node for "thread;f1;…;fn", or BL_NODE_NONE. */
guint32             bl_diff_lookup_stack         (BlDiff        *self,
                                                  const char    *stack,
                                                  char           separator);
guint64             bl_diff_get_self             (BlDiff        *self,
                                                  BlDiffSide     side,
                                                  BlMetricId     metric,
                                                  guint32        node);
guint64             bl_diff_get_total            (BlDiff        *self,
                                                  BlDiffSide     side,
                                                  BlMetricId     metric,
                                                  guint32        node);
const guint64      *bl_diff_get_self_array       (BlDiff        *self,
                                                  BlDiffSide     side,
                                                  BlMetricId     metric);
const guint64      *bl_diff_get_total_array      (BlDiff        *self,
                                                  BlDiffSide     side,
                                                  BlMetricId     metric);

/* Between merged nodes and the nodes of either profile. A merged node may
 * stand for several nodes of one profile (same names, different files): the
 * one with the largest total is returned. */
guint32             bl_diff_node_from_profile    (BlDiff        *self,
                                                  BlDiffSide     side,
                                                  guint32        profile_node);
guint32             bl_diff_node_to_profile      (BlDiff        *self,
                                                  BlDiffSide     side,
                                                  guint32        node);

/* Functions, sorted by name then file */
guint               bl_diff_get_n_functions      (BlDiff        *self);
const BlDiffFunction *bl_diff_get_function       (BlDiff        *self,
                                                  guint32        function);
const char         *bl_diff_get_function_name    (BlDiff        *self,
                                                  guint32        function);
const char         *bl_diff_get_function_file    (BlDiff        *self,
                                                  guint32        function);
guint64             bl_diff_get_function_self    (BlDiff        *self,
                                                  BlDiffSide     side,
                                                  BlMetricId     metric,
                                                  guint32        function);
guint64             bl_diff_get_function_total   (BlDiff        *self,
                                                  BlDiffSide     side,
                                                  BlMetricId     metric,
                                                  guint32        function);

/* Changes */
void                bl_diff_compute_change       (BlDiff        *self,
                                                  BlMetricId     metric,
                                                  guint64        a,
                                                  guint64        b,
                                                  gboolean       normalized,
                                                  BlDiffChange  *change);
void                bl_diff_get_node_change      (BlDiff        *self,
                                                  BlMetricId     metric,
                                                  guint32        node,
                                                  gboolean       total,
                                                  gboolean       normalized,
                                                  BlDiffChange  *change);
void                bl_diff_get_function_change  (BlDiff        *self,
                                                  BlMetricId     metric,
                                                  guint32        function,
                                                  gboolean       total,
                                                  gboolean       normalized,
                                                  BlDiffChange  *change);

/* ---- classification ----
 *
 * Every merged node and every function falls in one kind for a metric:
 * new (only B has it: its total in A is 0), removed (only A has it),
 * grown, shrunk, or neutral (its change, of self or of total, is inside
 * the noise threshold). New and removed do not depend on the threshold: a
 * stack that appears or disappears is always shown. A function whose self
 * value fell to 0 but that still calls others in B has shrunk.
 *
 * Mode: absolute compares the values (in the metric's base unit, each
 * side's decimals applied); normalised compares each value's share of its
 * own side's grand total, so runs of different lengths compare.
 *
 * Threshold: a change is neutral when it is smaller than @pct percent of
 * the total (normalised: @pct percentage points of the share; absolute:
 * @pct percent of A's grand total, or B's when A has none) or smaller than
 * @min_change (in the metric's base unit; in normalised mode converted to
 * a share of B's grand total). @pct < 0 asks for the automatic threshold,
 * bl_diff_get_auto_threshold(). */
typedef enum
{
  BL_DIFF_KIND_NEUTRAL,
  BL_DIFF_KIND_GROWN,
  BL_DIFF_KIND_SHRUNK,
  BL_DIFF_KIND_NEW,
  BL_DIFF_KIND_REMOVED,
  BL_N_DIFF_KINDS,
} BlDiffKind;

typedef struct
{
  gboolean normalized;
  double   pct;          /* percent of the total; < 0: automatic */
  double   min_change;   /* base unit of the metric; 0: none */
} BlDiffThreshold;

#define BL_DIFF_THRESHOLD_AUTO (-1.0)

/* "neutral", "grown", "shrunk", "new", "removed" (machine names, JSON) */
const char         *bl_diff_kind_get_name        (BlDiffKind     kind);
/* translatable (N_): "Neutral", "Grown", … */
const char         *bl_diff_kind_get_display_name (BlDiffKind    kind);

/* The automatic noise threshold of @metric, in percent of the total. Over
 * the functions with a self value on both sides (at least 4, else 1 %):
 * the length factor k between the runs is the median of ln(b / a), so one
 * function that really regressed moves neither k nor the others; each
 * function's residual is |b·e^-k − a| as a share of A's total; the
 * threshold is twice the median residual of the functions that hold at
 * least 1 % of a side (of all shared ones when fewer than 4 do), rounded
 * to 0.1 and clamped to 0.1 … 5 %. Two runs of the same code
 * differ by sampling and scheduling noise in every function: the typical
 * residual measures that noise, a real regression stands well above it. */
double              bl_diff_get_auto_threshold   (BlDiff        *self,
                                                  BlMetricId     metric);
/* @threshold's percentage, the automatic one when it asks for it. */
double              bl_diff_threshold_get_pct    (BlDiff        *self,
                                                  BlMetricId     metric,
                                                  const BlDiffThreshold *threshold);
/* The half-width of the neutral band in the units of a BlDiffChange of
 * @threshold's mode (a share for normalised, the base unit for absolute). */
double              bl_diff_threshold_get_band   (BlDiff        *self,
                                                  BlMetricId     metric,
                                                  const BlDiffThreshold *threshold);
/* The kind of @change (made in @threshold's mode); a side whose value is 0
 * counts as absent. */
BlDiffKind          bl_diff_classify             (BlDiff        *self,
                                                  BlMetricId     metric,
                                                  const BlDiffChange *change,
                                                  const BlDiffThreshold *threshold);
/* The same with presence given: whether each side has the frame or
 * function at all (its total above 0), for a change of self values. */
BlDiffKind          bl_diff_classify_presence    (BlDiff        *self,
                                                  BlMetricId     metric,
                                                  const BlDiffChange *change,
                                                  gboolean       in_a,
                                                  gboolean       in_b,
                                                  const BlDiffThreshold *threshold);
BlDiffKind          bl_diff_get_node_kind        (BlDiff        *self,
                                                  BlMetricId     metric,
                                                  guint32        node,
                                                  gboolean       total,
                                                  const BlDiffThreshold *threshold);
BlDiffKind          bl_diff_get_function_kind    (BlDiff        *self,
                                                  BlMetricId     metric,
                                                  guint32        function,
                                                  gboolean       total,
                                                  const BlDiffThreshold *threshold);

/* The functions with a value on either side, by the size of their change
 * (of the total when @total, else of self; largest first, ties by the
 * other change, then by name). Returns: (transfer full): guint32 indexes */
GArray             *bl_diff_rank_functions       (BlDiff        *self,
                                                  BlMetricId     metric,
                                                  gboolean       total,
                                                  gboolean       normalized);

/* A value or a change of @metric in the mode's units as people read it:
 * absolute in the metric's unit with the decimals of the finer side
 * ("1.5 ms", "33.25 B"); normalised as a share ("12.50 %") or, signed, in
 * percentage points ("+1.25 pp"). @signed_value adds "+", "−" or "±". */
char               *bl_diff_format_value         (BlDiff        *self,
                                                  BlMetricId     metric,
                                                  double         value,
                                                  gboolean       normalized,
                                                  gboolean       signed_value);

#define BL_DIFF_SUMMARY_MAX_LARGEST 3

/* What changed, by the functions' self values (they add up to the total,
 * so the sums mean something). Grown counts include new functions, shrunk
 * counts removed ones. */
typedef struct
{
  BlMetricId      metric;
  BlDiffThreshold threshold;        /* with pct resolved */
  guint           n_kind[BL_N_DIFF_KINDS];
  double          grown;            /* sum of the grown and new changes (≥ 0) */
  double          shrunk;           /* sum of the shrunk and removed changes (≤ 0) */
  guint           n_largest;
  guint32         largest[BL_DIFF_SUMMARY_MAX_LARGEST];  /* grew most, first */
  double          largest_change[BL_DIFF_SUMMARY_MAX_LARGEST];
  guint           n_largest_shrunk;
  guint32         largest_shrunk[BL_DIFF_SUMMARY_MAX_LARGEST];
  double          largest_shrunk_change[BL_DIFF_SUMMARY_MAX_LARGEST];
} BlDiffSummary;

void                bl_diff_summarize            (BlDiff        *self,
                                                  BlMetricId     metric,
                                                  const BlDiffThreshold *threshold,
                                                  BlDiffSummary *summary);
/* A summary built by the caller (the functions of one thread, say): fill
 * the counts, sums and largest lists of a zeroed summary one function at a
 * time, with the kind and the change of its self value. */
void                bl_diff_summary_add          (BlDiffSummary *summary,
                                                  guint32        function,
                                                  BlDiffKind     kind,
                                                  double         change);
/* "14 functions got slower by 312 ms in total; the largest: load (+200 ms),
 * … 3 got faster by 20 ms in total." (time metrics say slower/faster,
 * others grew/shrank). Returns: (transfer full) */
char               *bl_diff_summary_to_string    (BlDiff        *self,
                                                  const BlDiffSummary *summary);
/* "1.0 % of the total (automatic)", "… or less than 5 ms" */
char               *bl_diff_threshold_to_string  (BlDiff        *self,
                                                  BlMetricId     metric,
                                                  const BlDiffThreshold *threshold);

/* ---- sessions ---- */

typedef enum
{
  BL_DIFF_FIGURE_PEAK_MEMORY,
  BL_DIFF_FIGURE_MEAN_MEMORY,
  BL_DIFF_FIGURE_MEAN_CPU,
  BL_DIFF_FIGURE_MEAN_FPS,
  BL_DIFF_FIGURE_MIN_FPS,
  BL_DIFF_FIGURE_LAUNCH_TIME,
  BL_DIFF_FIGURE_NODE_COUNT,
  BL_DIFF_FIGURE_RENDEZVOUS_COUNT,
  BL_DIFF_FIGURE_MEMORY_GROWTH,
  BL_N_DIFF_FIGURES,
} BlDiffFigure;

typedef struct
{
  BlDiffFigure  id;
  const char   *name;           /* machine name: "peak_memory" */
  const char   *display_name;   /* translatable (N_): "Peak memory" */
  BlSeriesId    series;         /* the series whose unit the values have */
  gboolean      higher_is_better;
} BlDiffFigureInfo;

typedef enum
{
  BL_DIFF_ALIGN_START,          /* each session's first sample or beacon */
  BL_DIFF_ALIGN_BEACON,         /* the first beacon of a given name in each */
} BlDiffAlign;

#define BL_DIFF_ERROR (bl_diff_error_quark ())

typedef enum
{
  BL_DIFF_ERROR_NO_BEACON,      /* a session does not have the beacon */
} BlDiffError;

GQuark              bl_diff_error_quark          (void);

const BlDiffFigureInfo *bl_diff_figure_get_info  (BlDiffFigure   figure);
/* A figure's value with its unit ("12.3 MiB", "250 ms", "1.2 MiB/min");
 * with @signed_value a leading "+" or "−" (for changes; a change of a
 * percentage is in percentage points, "+1.5 pp"). */
char               *bl_diff_figure_format_value  (BlDiffFigure   figure,
                                                  double         value,
                                                  gboolean       signed_value);

BlDiff             *bl_diff_new_for_sessions     (BlSession     *a,
                                                  BlSession     *b);
BlSession          *bl_diff_get_session          (BlDiff        *self,
                                                  BlDiffSide     side);
/* A figure of both sessions; a, b and the change are NaN where a session
 * has no data for it. */
void                bl_diff_get_figure           (BlDiff        *self,
                                                  BlDiffFigure   figure,
                                                  BlDiffChange  *change);
/* The time (Unix ms) of the first beacon named @name in @side's session
 * (names compare without case, "_", "-" or spaces), or -1. */
gint64              bl_diff_find_beacon          (BlDiff        *self,
                                                  BlDiffSide     side,
                                                  const char    *name);
/* The names (as A writes them) of the beacons both sessions have, in A's
 * time order, each once. */
GStrv               bl_diff_dup_common_beacons   (BlDiff        *self);
/* The time in each session that maps to 0 on the aligned axis: a sample at
 * t in side S is drawn at t - offset[S]. */
gboolean            bl_diff_get_alignment        (BlDiff        *self,
                                                  BlDiffAlign    align,
                                                  const char    *beacon,
                                                  gint64        *offset_a,
                                                  gint64        *offset_b,
                                                  GError       **error);

G_END_DECLS
