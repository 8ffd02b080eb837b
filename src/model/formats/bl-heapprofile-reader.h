/* bl-heapprofile-reader.h — Chrome DevTools sampling heap profiles (.heapprofile)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-format.h"
#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_HEAPPROFILE_ERROR (bl_heapprofile_error_quark ())

typedef enum
{
  BL_HEAPPROFILE_ERROR_NOT_HEAPPROFILE,   /* not a JSON object with a head */
  BL_HEAPPROFILE_ERROR_BAD_VALUE,         /* a member of the wrong type */
  BL_HEAPPROFILE_ERROR_MISSING,           /* no head */
} BlHeapprofileError;

GQuark     bl_heapprofile_error_quark (void);
gboolean   bl_heapprofile_detect      (const guint8   *head,
                                       gsize           len);
BlProfile *bl_heapprofile_read_stream (GInputStream   *stream,
                                       guint64         total,
                                       BlProgressFunc  progress,
                                       gpointer        progress_data,
                                       GCancellable   *cancellable,
                                       GError        **error);
BlProfile *bl_heapprofile_read_memory (const guint8   *data,
                                       gsize           len,
                                       GError        **error);

G_END_DECLS
