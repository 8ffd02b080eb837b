/* bl-flame-svg.h — a flame graph as a self-contained, interactive SVG
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-diff.h"
#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_FLAME_SVG_DEFAULT_WIDTH      1200
#define BL_FLAME_SVG_MIN_WIDTH          200
#define BL_FLAME_SVG_MAX_WIDTH          20000
#define BL_FLAME_SVG_DEFAULT_MAX_FRAMES 30000
/* Frames narrower than this (in px at the written width) are left out:
 * their time stays in their parent's width. */
#define BL_FLAME_SVG_MIN_FRAME_PX       0.1

typedef struct
{
  BlMetricId  metric;       /* BL_METRIC_INVALID: the profile's default */
  const char *thread;       /* only the threads of this name; NULL: all */
  guint       width;        /* px; 0: BL_FLAME_SVG_DEFAULT_WIDTH */
  const char *title;        /* NULL: "Flame Graph" or "Differential Flame Graph" */
  guint       max_frames;   /* 0: BL_FLAME_SVG_DEFAULT_MAX_FRAMES */
  gboolean    normalized;   /* diff: compare shares of each side's total */
} BlFlameSvgOptions;

/* What was written, for callers and tests. */
typedef struct
{
  guint  n_frames;          /* frames drawn */
  guint  n_levels;
  double min_frame_px;      /* the narrowest width drawn; raised by the cap */
  gboolean capped;          /* more frames than max_frames were wide enough */
} BlFlameSvgStats;

#define BL_FLAME_SVG_ERROR (bl_flame_svg_error_quark ())

typedef enum
{
  BL_FLAME_SVG_ERROR_NO_THREAD,   /* no thread has the requested name */
} BlFlameSvgError;

GQuark   bl_flame_svg_error_quark   (void);

gboolean bl_flame_svg_write_profile (BlProfile               *profile,
                                     const BlFlameSvgOptions *options,
                                     GOutputStream           *out,
                                     BlFlameSvgStats         *stats,
                                     GCancellable            *cancellable,
                                     GError                 **error);
/* The differential flame graph: B's shape (frame widths are B's values),
 * each frame coloured by its change from A, as the window draws it. */
gboolean bl_flame_svg_write_diff    (BlDiff                  *diff,
                                     const BlFlameSvgOptions *options,
                                     GOutputStream           *out,
                                     BlFlameSvgStats         *stats,
                                     GCancellable            *cancellable,
                                     GError                 **error);

G_END_DECLS
