/* bl-bsprof-shapes.h — test-only generators of .bsprof streams shaped like
 * real sessions, for the benchmark and for the tests that compare the
 * decoder with a reference
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-bsprof-writer.h"

G_BEGIN_DECLS

typedef enum
{
  BL_BSPROF_SHAPE_TODAY,         /* (a) the original benchmark stream */
  BL_BSPROF_SHAPE_DENSE,         /* (b) allocator-dense addresses, random-order frees */
  BL_BSPROF_SHAPE_RANDOM_ADDR,   /* (c) random 32-bit addresses */
  BL_BSPROF_SHAPE_RECENT_FREES,  /* (d) mostly frees of recent blocks */
  BL_BSPROF_SHAPE_DEEP,          /* (e) call paths 200 deep */
  BL_BSPROF_SHAPE_MANY_PATHS,    /* (f) one million path elements */
  BL_BSPROF_N_SHAPES
} BlBsprofShape;

const char *bl_bsprof_shape_name     (BlBsprofShape shape);
const char *bl_bsprof_shape_describe (BlBsprofShape shape);
gboolean    bl_bsprof_shape_from_name (const char    *name,
                                       BlBsprofShape *shape);

/* Writes header, definitions, about target_bytes of measurements and the
 * end to a new writer over file (or memory when file is NULL). Counts of
 * paths and live blocks scale down with target_bytes below 256 MB. */
BlBsprofWriter *bl_bsprof_write_shape (BlBsprofShape shape,
                                       guint64       target_bytes,
                                       guint32       seed,
                                       FILE         *file);

G_END_DECLS
