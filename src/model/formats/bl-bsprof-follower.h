/* bl-bsprof-follower.h — decodes a growing .bsprof as it arrives
 *
 * While a recording runs, the profiler's stream grows on disk. A follower
 * is fed the new bytes (or told to read what the file gained since the
 * last time) and decodes only those: entries cut off at the end wait for
 * their remaining bytes. bl_bsprof_follower_snapshot() then makes a new,
 * finished BlProfile of every complete entry so far, equal to what
 * bl_bsprof_read_memory() gives for the same bytes, without re-reading
 * anything. A snapshot costs time in the size of the call tree and of the
 * allocations still live, not of the file (about 0.1 s for a 100 MB
 * stream of the benchmark's shape): about once a second, from a worker
 * thread, is fine.
 *
 * A follower may be fed and snapshot from different threads (it locks);
 * the profiles it returns are immutable and may be shared.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_TYPE_BSPROF_FOLLOWER (bl_bsprof_follower_get_type ())

G_DECLARE_FINAL_TYPE (BlBsprofFollower, bl_bsprof_follower, BL, BSPROF_FOLLOWER, GObject)

BlBsprofFollower *bl_bsprof_follower_new        (void);

/* Appends @len bytes of the stream and decodes every entry they complete.
 * Returns FALSE with @error (a BL_BSPROF_ERROR, one sentence with the
 * byte offset) when the bytes are not a .bsprof; the follower then keeps
 * what it had and ignores further bytes, returning the same error. */
gboolean          bl_bsprof_follower_feed       (BlBsprofFollower  *self,
                                                 const guint8      *data,
                                                 gsize              len,
                                                 GError           **error);
/* Reads what @file gained since the bytes fed so far (the file is the
 * stream from its first byte; it is only read) and feeds it. */
gboolean          bl_bsprof_follower_feed_file  (BlBsprofFollower  *self,
                                                 GFile             *file,
                                                 GCancellable      *cancellable,
                                                 GError           **error);

/* Bytes fed so far. */
guint64           bl_bsprof_follower_get_n_bytes (BlBsprofFollower *self);
/* Body entries decoded so far. */
guint64           bl_bsprof_follower_get_n_entries (BlBsprofFollower *self);
/* Whether the footer (the run's end) has arrived: the stream is whole. */
gboolean          bl_bsprof_follower_is_complete (BlBsprofFollower *self);

/* A new finished profile of every complete entry so far; incomplete (with
 * the reader's reason) until the footer arrived. NULL before the header
 * is complete. (transfer full) */
BlProfile        *bl_bsprof_follower_snapshot   (BlBsprofFollower  *self);

G_END_DECLS
