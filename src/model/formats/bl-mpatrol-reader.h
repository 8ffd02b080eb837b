/* bl-mpatrol-reader.h — mpatrol profiling output (mpatrol.out)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-format.h"
#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_MPATROL_ERROR (bl_mpatrol_error_quark ())

typedef enum
{
  BL_MPATROL_ERROR_BAD_MAGIC,
  BL_MPATROL_ERROR_BAD_BYTE_ORDER,
  BL_MPATROL_ERROR_LAYOUT,          /* no word size reads the file to its closing signature */
  BL_MPATROL_ERROR_BAD_INDEX,
  BL_MPATROL_ERROR_CYCLE,
  BL_MPATROL_ERROR_BAD_STRING,
} BlMpatrolError;

#define BL_MPATROL_MAGIC "MPTL"
#define BL_MPATROL_MAGIC_LEN 4

GQuark     bl_mpatrol_error_quark (void);
gboolean   bl_mpatrol_detect      (const guint8   *head,
                                   gsize           len);
BlProfile *bl_mpatrol_read_stream (GInputStream   *stream,
                                   guint64         total,
                                   BlProgressFunc  progress,
                                   gpointer        progress_data,
                                   GCancellable   *cancellable,
                                   GError        **error);
BlProfile *bl_mpatrol_read_memory (const guint8   *data,
                                   gsize           len,
                                   GError        **error);

G_END_DECLS
