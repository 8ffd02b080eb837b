/* bl-cpuprofile-reader.h — Chrome DevTools CPU profiles (.cpuprofile)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-format.h"
#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_CPUPROFILE_ERROR (bl_cpuprofile_error_quark ())

typedef enum
{
  BL_CPUPROFILE_ERROR_NOT_CPUPROFILE,   /* not a JSON object with nodes or head */
  BL_CPUPROFILE_ERROR_BAD_VALUE,        /* a member of the wrong type */
  BL_CPUPROFILE_ERROR_MISSING,          /* a required member is missing */
} BlCpuprofileError;

GQuark     bl_cpuprofile_error_quark (void);
gboolean   bl_cpuprofile_detect      (const guint8   *head,
                                      gsize           len);
BlProfile *bl_cpuprofile_read_stream (GInputStream   *stream,
                                      guint64         total,
                                      BlProgressFunc  progress,
                                      gpointer        progress_data,
                                      GCancellable   *cancellable,
                                      GError        **error);
BlProfile *bl_cpuprofile_read_memory (const guint8   *data,
                                      gsize           len,
                                      GError        **error);

G_END_DECLS
