/* bl-session-view.h — a loaded Roku Resource Monitor session: the summary,
 * the timeline, the selected range's statistics and the details of the
 * chosen instant
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-session.h"
#include "bl-timeline.h"

G_BEGIN_DECLS

#define BL_TYPE_SESSION_VIEW (bl_session_view_get_type ())

G_DECLARE_FINAL_TYPE (BlSessionView, bl_session_view, BL, SESSION_VIEW, GtkWidget)

BlSessionView *bl_session_view_new                (void);
BlSession     *bl_session_view_get_session        (BlSessionView *self);
void           bl_session_view_set_session        (BlSessionView *self,
                                                   BlSession     *session);
BlTimeline    *bl_session_view_get_timeline       (BlSessionView *self);
/* The selected range's table as text: one line per series, cells
 * separated by tabs (series, min, max, mean, start → end, change, growth
 * per minute); NULL without a selection. */
char          *bl_session_view_dup_range_text     (BlSessionView *self);
/* The summary header as text, one figure per line. */
char          *bl_session_view_dup_summary_text   (BlSessionView *self);

G_END_DECLS
