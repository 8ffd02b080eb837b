/* bl-profile-range.h — a timed profile restricted to a time range
 *
 * A BlProfileRange indexes the spans of a profile that has a time order
 * (Perfetto slices, speedscope events) so that the spans overlapping any
 * [t0, t1) are found in time logarithmic in the number of spans plus the
 * number found, and builds the call tree of the time spent inside the
 * range: each span counts only its part inside [t0, t1), and a frame's self
 * time is its clipped time minus its children's clipped time. The index is
 * made on first use, under a lock: queries may run in worker threads.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_TYPE_PROFILE_RANGE (bl_profile_range_get_type ())

G_DECLARE_FINAL_TYPE (BlProfileRange, bl_profile_range, BL, PROFILE_RANGE, GObject)

BlProfileRange *bl_profile_range_new            (BlProfile       *profile);
BlProfile      *bl_profile_range_get_profile    (BlProfileRange  *self);

/* Appends to @spans (guint32 span indices of @thread) every span that
 * overlaps [t0, t1) (a span of zero length counts when t0 ≤ start < t1),
 * the ones started before t0 first, then in start order. Returns how many
 * were appended. */
guint           bl_profile_range_collect        (BlProfileRange  *self,
                                                 guint            thread,
                                                 guint64          t0,
                                                 guint64          t1,
                                                 GArray          *spans);

/* The call tree of the time inside [t0, t1): a finished profile with the
 * same threads (in the same order) and the time metric of the source,
 * holding only frames with time in the range. NULL if cancelled. */
BlProfile      *bl_profile_range_build          (BlProfileRange  *self,
                                                 guint64          t0,
                                                 guint64          t1,
                                                 GCancellable    *cancellable);
void            bl_profile_range_build_async    (BlProfileRange  *self,
                                                 guint64          t0,
                                                 guint64          t1,
                                                 GCancellable    *cancellable,
                                                 GAsyncReadyCallback callback,
                                                 gpointer         user_data);
BlProfile      *bl_profile_range_build_finish   (BlProfileRange  *self,
                                                 GAsyncResult    *result,
                                                 GError         **error);

G_END_DECLS
