/* bl-folded.h — folded stacks ("a;b;c 123"), as flamegraph.pl and inferno use
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-format.h"
#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_FOLDED_ERROR (bl_folded_error_quark ())

typedef enum
{
  BL_FOLDED_ERROR_BAD_LINE,
  BL_FOLDED_ERROR_BAD_COUNT,
  BL_FOLDED_ERROR_NO_STACKS,
} BlFoldedError;

GQuark    bl_folded_error_quark (void);
gboolean  bl_folded_detect      (const guint8   *head,
                                 gsize           len,
                                 gboolean        is_whole_file);
BlProfile *bl_folded_read_stream (GInputStream  *stream,
                                  guint64        total,
                                  BlProgressFunc progress,
                                  gpointer       progress_data,
                                  GCancellable  *cancellable,
                                  GError       **error);
BlProfile *bl_folded_read_memory (const guint8  *data,
                                  gsize          len,
                                  GError       **error);

gboolean bl_folded_write (BlProfile      *profile,
                          BlMetricId      metric,
                          GOutputStream  *out,
                          GCancellable   *cancellable,
                          GError        **error);

G_END_DECLS
