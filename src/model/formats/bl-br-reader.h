/* bl-br-reader.h — Business Rules! profiler output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-format.h"
#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_BR_ERROR (bl_br_error_quark ())

typedef enum
{
  BL_BR_ERROR_UNKNOWN_RECORD,
  BL_BR_ERROR_UNEXPECTED_RECORD,
  BL_BR_ERROR_UNDEFINED_MODULE,
  BL_BR_ERROR_NO_RECORDS,
} BlBrError;

GQuark     bl_br_error_quark (void);
gboolean   bl_br_detect      (const guint8   *head,
                              gsize           len,
                              gboolean        is_whole_file);
BlProfile *bl_br_read_stream (GInputStream   *stream,
                              guint64         total,
                              BlProgressFunc  progress,
                              gpointer        progress_data,
                              GCancellable   *cancellable,
                              GError        **error);
BlProfile *bl_br_read_memory (const guint8   *data,
                              gsize           len,
                              GError        **error);

G_END_DECLS
