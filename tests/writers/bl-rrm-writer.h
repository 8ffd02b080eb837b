/* bl-rrm-writer.h — a test-only Roku Resource Monitor session generator
 *
 * Writes sessions in every layout the loader must accept (key styles,
 * session as object or array, "drop_ count", beacon name members, nulls,
 * missing members and arrays, unknown members, old spec versions). Values
 * come from fixed formulas, and bl_rrm_writer_expected() gives the value
 * any series must have at any point, so tests check the loader against
 * the formulas rather than against the loader.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-session.h"

G_BEGIN_DECLS

typedef enum
{
  BL_RRM_KEYS_SNAKE,     /* objects_count */
  BL_RRM_KEYS_CAMEL,     /* objectsCount */
  BL_RRM_KEYS_SPACED,    /* Objects count */
  BL_RRM_KEYS_PASCAL,    /* ObjectsCount */
} BlRrmKeyStyle;

typedef enum
{
  BL_RRM_SCENARIO_PLAIN,     /* smooth formulas */
  BL_RRM_SCENARIO_REALISTIC, /* launch, a video start, a slow leak, rendezvous bursts */
} BlRrmScenario;

typedef struct
{
  guint          n_samples;
  gint64         start_ms;
  guint          interval_ms;
  gboolean       stagger;            /* each array's timestamps offset differently */

  BlRrmKeyStyle  key_style;
  gboolean       session_as_array;   /* [ {static}, {live: …}, {live: …} ] */
  gboolean       spaced_drop_count;  /* "drop_ count" */
  guint          beacon_name_key;    /* 0 "name", 1 "event", 2 "beacon" */
  guint          version_major;      /* 2, 3 or 4: 2 has no bs_objects */
  guint          version_minor;
  gboolean       pretty;             /* one point per line, indented */
  gboolean       unknown_members;    /* members the loader must ignore */

  gboolean       with_limits;        /* FALSE: "foreground_limit": null */
  gint64         foreground_limit;
  gint64         background_limit;

  guint          null_every;         /* value i of each series null when (i+k) % n == 0 */
  guint          omit_every;         /* point i leaves out swap, sys, fps… when i % n == 1 */
  gboolean       omit_arrays;        /* no registry_usage, no graphics_rendering_frame_rate */

  guint          n_bitmaps;
  guint          n_node_types;
  guint          n_rendezvous_items;
  guint          n_registry_sections;
  guint          n_bs_groups;
  guint          n_bs_objects;       /* per group */

  gboolean       with_beacons;
  const char    *channel_name;       /* NULL: Brightlens "Demo" Channel */
  BlRrmScenario  scenario;
  double         leak_bytes_per_min;
} BlRrmWriterOptions;

void      bl_rrm_writer_options_init (BlRrmWriterOptions       *options);

/* The whole session as JSON. */
GBytes   *bl_rrm_write               (const BlRrmWriterOptions *options);
/* Streams the session to @out (for sessions of hundreds of MB). */
gboolean  bl_rrm_write_to_stream     (const BlRrmWriterOptions *options,
                                      GOutputStream            *out,
                                      GError                  **error);
gboolean  bl_rrm_write_to_file       (const BlRrmWriterOptions *options,
                                      const char               *path,
                                      GError                  **error);

/* The timestamp and value of point @i of series @id as written; FALSE in
 * *present where it is null or left out. */
gint64    bl_rrm_writer_timestamp    (const BlRrmWriterOptions *options,
                                      BlSeriesId                id,
                                      guint                     i);
double    bl_rrm_writer_expected     (const BlRrmWriterOptions *options,
                                      BlSeriesId                id,
                                      guint                     i,
                                      gboolean                 *present);
/* Whether the writer writes series @id at all with these options. */
gboolean  bl_rrm_writer_has_series   (const BlRrmWriterOptions *options,
                                      BlSeriesId                id);

/* The beacons written when with_beacons: names and offsets from start_ms. */
typedef struct
{
  const char *name;
  gint64      offset_ms;
} BlRrmBeaconSpec;

const BlRrmBeaconSpec *bl_rrm_writer_get_beacons (const BlRrmWriterOptions *options,
                                                  guint                    *n);

G_END_DECLS
