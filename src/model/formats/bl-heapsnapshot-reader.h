/* bl-heapsnapshot-reader.h — V8 / Hermes heap snapshots (.heapsnapshot)
 *
 * The JSON that Chrome DevTools, Node.js (v8.writeHeapSnapshot()) and
 * Hermes write: snapshot.meta names the fields of the flat "nodes" and
 * "edges" integer arrays, "strings" holds the names. The reader streams it
 * through the JSON pull parser into one BlHeap attached to a BlProfile.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-format.h"
#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_HEAPSNAPSHOT_ERROR (bl_heapsnapshot_error_quark ())

typedef enum
{
  BL_HEAPSNAPSHOT_ERROR_NOT_A_SNAPSHOT,  /* no snapshot.meta first */
  BL_HEAPSNAPSHOT_ERROR_MALFORMED,       /* a member of the wrong shape */
  BL_HEAPSNAPSHOT_ERROR_MISSING,         /* a required member or field is missing */
  BL_HEAPSNAPSHOT_ERROR_RANGE,           /* an index out of range, counts that disagree */
  BL_HEAPSNAPSHOT_ERROR_TRUNCATED,       /* the file ends inside the snapshot */
} BlHeapsnapshotError;

GQuark     bl_heapsnapshot_error_quark (void);
gboolean   bl_heapsnapshot_detect      (const guint8   *head,
                                        gsize           len);
BlProfile *bl_heapsnapshot_read_stream (GInputStream   *stream,
                                        guint64         total,
                                        BlProgressFunc  progress,
                                        gpointer        progress_data,
                                        GCancellable   *cancellable,
                                        GError        **error);
BlProfile *bl_heapsnapshot_read_memory (const guint8   *data,
                                        gsize           len,
                                        GError        **error);

G_END_DECLS
