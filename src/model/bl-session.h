/* bl-session.h — a Roku Resource Monitor session: device, app, limits,
 * time series, per-sample details and lifecycle beacons
 *
 * A session is built by a reader (bl_session_new, the _set_/_add_ calls,
 * then bl_session_finish) and is immutable afterwards: every getter below
 * may then be called from any thread.
 *
 * Series are flat arrays of BlSample sorted by time. A sample whose value
 * was null (or missing) in the file has present = FALSE: it is a gap, never
 * a zero. Figures that have no data are NaN.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define BL_TYPE_SESSION (bl_session_get_type ())

G_DECLARE_FINAL_TYPE (BlSession, bl_session, BL, SESSION, GObject)

/* The order is the order of the CSV export's columns. */
typedef enum
{
  BL_SERIES_MEMORY_USED,
  BL_SERIES_MEMORY_RESIDENT,
  BL_SERIES_MEMORY_SWAP,
  BL_SERIES_MEMORY_ANON,
  BL_SERIES_MEMORY_FILE,
  BL_SERIES_MEMORY_SHARED,
  BL_SERIES_CPU_TOTAL,
  BL_SERIES_CPU_USER,
  BL_SERIES_CPU_SYS,
  BL_SERIES_GRAPHICS_TEXTURE,
  BL_SERIES_GRAPHICS_SYSTEM,
  BL_SERIES_NODES_TOTAL,
  BL_SERIES_NODES_MEMORY,
  BL_SERIES_FPS,
  BL_SERIES_RENDEZVOUS_COUNT,
  BL_SERIES_RENDEZVOUS_TOTAL_TIME,
  BL_SERIES_RENDEZVOUS_DROPS,
  BL_SERIES_REGISTRY_USED,
  BL_SERIES_BS_OBJECTS_COUNT,   /* summed over the groups of each sample */
  BL_SERIES_BS_OBJECTS_MEMORY,  /* summed over the groups of each sample */
  BL_N_SERIES,
  BL_SERIES_INVALID = -1
} BlSeriesId;

typedef enum
{
  BL_SERIES_UNIT_BYTES,
  BL_SERIES_UNIT_PERCENT,
  BL_SERIES_UNIT_FPS,
  BL_SERIES_UNIT_MS,
  BL_SERIES_UNIT_COUNT,
} BlSeriesUnit;

/* One chart per group in the timeline. */
typedef enum
{
  BL_SERIES_GROUP_MEMORY,
  BL_SERIES_GROUP_CPU,
  BL_SERIES_GROUP_GRAPHICS,
  BL_SERIES_GROUP_NODES,
  BL_SERIES_GROUP_FPS,
  BL_SERIES_GROUP_RENDEZVOUS,
  BL_SERIES_GROUP_REGISTRY,
  BL_SERIES_GROUP_BS_OBJECTS,
  BL_N_SERIES_GROUPS,
} BlSeriesGroup;

typedef struct
{
  BlSeriesId     id;
  const char    *name;          /* machine name and CSV column: "memory_used" */
  const char    *display_name;  /* translatable (N_): "Memory used" */
  BlSeriesUnit   unit;
  BlSeriesGroup  group;
} BlSeriesInfo;

typedef struct
{
  gint64   timestamp_ms;   /* Unix time in milliseconds */
  double   value;          /* meaningless when !present */
  gboolean present;
} BlSample;

/* Per-sample detail lists. Integers that the file left out or set to null
 * are -1; strings are never NULL (empty instead). */
typedef enum
{
  BL_DETAIL_BITMAPS,      /* channel_graphics_memory_usage[].bitmaps */
  BL_DETAIL_NODES,        /* channel_graph_metrics[].nodes */
  BL_DETAIL_RENDEZVOUS,   /* sgrendezvous[].items */
  BL_DETAIL_REGISTRY,     /* registry_usage[].sections */
  BL_DETAIL_BS_OBJECTS,   /* bs_objects[].groups */
  BL_N_DETAILS,
} BlDetailKind;

typedef struct
{
  const char *name;       /* the bitmap's URL path */
  gint64      size;       /* bytes */
  gint64      width;
  gint64      height;
  gint64      bpp;
} BlBitmap;

typedef struct
{
  const char *name;       /* node type */
  gint64      count;
  gint64      memory;     /* bytes */
} BlNodeType;

typedef struct
{
  gint64      id;
  double      start_ms;   /* NaN when null */
  double      end_ms;     /* NaN when null */
  gint64      line;
  const char *name;       /* the source of the rendezvous */
} BlRendezvousItem;

typedef struct
{
  const char         *name;
  guint               n_keys;
  const char * const *keys;
} BlRegistrySection;

typedef struct
{
  const char *name;
  gint64      count;
  gint64      memory;
} BlBsObject;

typedef struct
{
  const char       *name;
  const char       *id;
  gint64            count;      /* "objects count" */
  gint64            memory;     /* "objects memory" */
  guint             n_objects;
  const BlBsObject *objects;
} BlBsGroup;

typedef struct
{
  gint64      timestamp_ms;
  const char *name;       /* as in the file: "app_load_complete" */
} BlBeacon;

/* An …_initiate beacon paired with the next matching …_complete. */
typedef struct
{
  const char *name;       /* the beacons' common stem: "app_load", "vod_start" */
  gint64      start_ms;
  gint64      end_ms;
} BlInterval;

typedef struct
{
  char    *device_name;
  char    *model_number;
  char    *serial_number;
  char    *software_version;
  gint64   software_build;      /* -1 if absent */

  char    *channel_id;
  char    *channel_name;
  char    *channel_version;

  char    *uuid;
  gint64   created_at_ms;       /* 0 if absent */
  gint64   started_at_ms;       /* 0 if absent */
  char    *file_version;        /* "4.1" as written, or NULL */

  /* Per-app DRAM limits; has_* is FALSE where the device has none (null). */
  gboolean has_foreground_limit;
  gint64   foreground_limit;
  gboolean has_background_limit;
  gint64   background_limit;
} BlSessionInfo;

/* Figures for the summary header, `info` and `check`. NaN: no data. */
typedef struct
{
  gint64  start_ms;             /* first sample or beacon */
  gint64  end_ms;               /* last sample or beacon */
  double  peak_memory;          /* max of memory_used, bytes */
  gint64  peak_memory_ms;
  double  peak_foreground_fraction;  /* peak_memory / foreground limit */
  double  peak_background_fraction;  /* peak_memory / background limit */
  double  mean_cpu;             /* mean of cpu_total, % */
  double  peak_cpu;
  double  mean_fps;
  double  min_fps;
  double  launch_ms;            /* see bl_session_get_summary() */
  double  rendezvous_count;     /* sum of rendezvous_count */
  double  rendezvous_drops;     /* sum of rendezvous_drops */
  double  memory_growth_per_min; /* least-squares slope of memory_used, bytes/min */
} BlSessionSummary;

/* Statistics of one series over a time range; NaN where there is no data
 * (growth needs two samples at different times). */
typedef struct
{
  guint   n;                    /* present samples in the range */
  double  min;
  double  max;
  double  mean;
  double  start;                /* first present value in the range */
  double  end;                  /* last present value in the range */
  double  change;               /* end - start */
  double  growth_per_min;       /* least-squares slope, value per minute */
} BlRangeStats;

/* ---- the series table ---- */

const BlSeriesInfo *bl_series_get_info          (BlSeriesId          id);
BlSeriesId          bl_series_from_name         (const char         *name);
const char         *bl_series_group_get_display_name (BlSeriesGroup  group);
/* A value with its unit for display: "12.3 MiB", "45.2 %", "59.9 fps". */
char               *bl_series_format_value      (BlSeriesId          id,
                                                 double              value);

/* Statistics of samples[0..n) (sorted by time) within [from_ms, to_ms]. */
void                bl_series_compute_stats     (const BlSample     *samples,
                                                 guint               n,
                                                 gint64              from_ms,
                                                 gint64              to_ms,
                                                 BlRangeStats       *stats);
/* The present sample nearest in time to @t_ms, or -1 if none is present. */
gint                bl_series_find_nearest      (const BlSample     *samples,
                                                 guint               n,
                                                 gint64              t_ms);

/* ---- building (readers) ---- */

BlSession          *bl_session_new              (void);
BlSessionInfo      *bl_session_get_info_mutable (BlSession          *self);
const char         *bl_session_intern           (BlSession          *self,
                                                 const char         *text);
void                bl_session_add_sample       (BlSession          *self,
                                                 BlSeriesId          id,
                                                 gint64              timestamp_ms,
                                                 double              value,
                                                 gboolean            present);
void                bl_session_add_beacon       (BlSession          *self,
                                                 gint64              timestamp_ms,
                                                 const char         *name);
/* Starts the detail list of one sample; the _add_ calls below append to
 * the last one started of their kind. */
void                bl_session_begin_detail     (BlSession          *self,
                                                 BlDetailKind        kind,
                                                 gint64              timestamp_ms);
void                bl_session_add_bitmap       (BlSession          *self,
                                                 const BlBitmap     *bitmap);
void                bl_session_add_node_type    (BlSession          *self,
                                                 const BlNodeType   *node_type);
void                bl_session_add_rendezvous_item (BlSession       *self,
                                                 const BlRendezvousItem *item);
void                bl_session_add_registry_section (BlSession      *self,
                                                 const char         *name);
void                bl_session_add_registry_key (BlSession          *self,
                                                 const char         *key);
void                bl_session_add_bs_group     (BlSession          *self,
                                                 const char         *name,
                                                 const char         *id,
                                                 gint64              count,
                                                 gint64              memory);
void                bl_session_add_bs_object    (BlSession          *self,
                                                 const BlBsObject   *object);
void                bl_session_set_incomplete   (BlSession          *self,
                                                 const char         *reason);
void                bl_session_add_warning      (BlSession          *self,
                                                 const char         *warning);
/* Sorts everything by time, pairs beacons into intervals, computes the
 * summary. */
void                bl_session_finish           (BlSession          *self);

/* ---- reading ---- */

const BlSessionInfo *bl_session_get_info        (BlSession          *self);
const BlSample     *bl_session_get_series       (BlSession          *self,
                                                 BlSeriesId          id,
                                                 guint              *n_samples);
/* Whether the series has at least one present value. */
gboolean            bl_session_has_series       (BlSession          *self,
                                                 BlSeriesId          id);
const BlBeacon     *bl_session_get_beacons      (BlSession          *self,
                                                 guint              *n_beacons);
const BlInterval   *bl_session_get_intervals    (BlSession          *self,
                                                 guint              *n_intervals);
const BlSessionSummary *bl_session_get_summary  (BlSession          *self);
void                bl_session_compute_range_stats (BlSession       *self,
                                                 BlSeriesId          id,
                                                 gint64              from_ms,
                                                 gint64              to_ms,
                                                 BlRangeStats       *stats);

/* Detail lists: points are sorted by time. */
guint               bl_session_get_n_details    (BlSession          *self,
                                                 BlDetailKind        kind);
gint64              bl_session_get_detail_time  (BlSession          *self,
                                                 BlDetailKind        kind,
                                                 guint               point);
/* The last point at or before @t_ms (the first point if all are later),
 * or -1 if there are none. */
gint                bl_session_find_detail      (BlSession          *self,
                                                 BlDetailKind        kind,
                                                 gint64              t_ms);
const BlBitmap     *bl_session_get_bitmaps      (BlSession          *self,
                                                 guint               point,
                                                 guint              *n);
const BlNodeType   *bl_session_get_node_types   (BlSession          *self,
                                                 guint               point,
                                                 guint              *n);
const BlRendezvousItem *bl_session_get_rendezvous_items (BlSession  *self,
                                                 guint               point,
                                                 guint              *n);
const BlRegistrySection *bl_session_get_registry_sections (BlSession *self,
                                                 guint               point,
                                                 guint              *n);
const BlBsGroup    *bl_session_get_bs_groups    (BlSession          *self,
                                                 guint               point,
                                                 guint              *n);

gboolean            bl_session_is_incomplete    (BlSession          *self);
const char         *bl_session_get_incomplete_reason (BlSession     *self);
/* All warnings, one per line, or NULL. */
const char         *bl_session_get_warning      (BlSession          *self);

/* ---- export ---- */

/* The CSV of `brightlens-cli export SESSION --format csv`: a header
 * "timestamp_ms,memory_used,…" (BlSeriesId order), then one row per
 * distinct timestamp, ascending, with empty cells where a series has no
 * value at that time. */
gboolean            bl_session_write_csv        (BlSession          *self,
                                                 GOutputStream      *out,
                                                 GCancellable       *cancellable,
                                                 GError            **error);
/* Appends @value as machine output: integers as integers, other numbers
 * in the shortest round-tripping form, never locale-dependent. */
void                bl_session_append_number    (GString            *out,
                                                 double              value);

G_END_DECLS
