/* bl-speedscope-reader.h — speedscope's JSON file format
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-format.h"
#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_SPEEDSCOPE_ERROR (bl_speedscope_error_quark ())

typedef enum
{
  BL_SPEEDSCOPE_ERROR_NOT_SPEEDSCOPE,   /* no speedscope $schema */
  BL_SPEEDSCOPE_ERROR_BAD_VALUE,        /* a member of the wrong type or an unknown value */
  BL_SPEEDSCOPE_ERROR_MISSING,          /* a required member is missing */
  BL_SPEEDSCOPE_ERROR_FRAME_RANGE,      /* a frame index out of range */
  BL_SPEEDSCOPE_ERROR_LENGTH_MISMATCH,  /* samples and weights of different lengths */
  BL_SPEEDSCOPE_ERROR_UNBALANCED,       /* close without open, or frames left open */
  BL_SPEEDSCOPE_ERROR_TIME_ORDER,       /* events out of time order */
} BlSpeedscopeError;

#define BL_SPEEDSCOPE_SCHEMA "https://www.speedscope.app/file-format-schema.json"

GQuark     bl_speedscope_error_quark (void);
gboolean   bl_speedscope_detect      (const guint8   *head,
                                      gsize           len);
BlProfile *bl_speedscope_read_stream (GInputStream   *stream,
                                      guint64         total,
                                      BlProgressFunc  progress,
                                      gpointer        progress_data,
                                      GCancellable   *cancellable,
                                      GError        **error);
BlProfile *bl_speedscope_read_memory (const guint8   *data,
                                      gsize           len,
                                      GError        **error);

G_END_DECLS
