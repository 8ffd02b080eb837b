/* bl-resource-poller.h — the app's resource use, polled into an RRM session
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-device.h"
#include "bl-session.h"

G_BEGIN_DECLS

#define BL_RESOURCE_POLLER_DEFAULT_INTERVAL_MS 1000
/* The registry space Roku gives each app, in bytes: registry_usage's
 * "used" is this less the device's space-available. */
#define BL_RESOURCE_POLLER_REGISTRY_SIZE 32768

#define BL_TYPE_RESOURCE_POLLER (bl_resource_poller_get_type ())

G_DECLARE_FINAL_TYPE (BlResourcePoller, bl_resource_poller, BL, RESOURCE_POLLER, GObject)

BlResourcePoller *bl_resource_poller_new          (BlDevice             *device,
                                                   GFile                *output);
void              bl_resource_poller_set_interval (BlResourcePoller     *self,
                                                   guint                 interval_ms);
guint             bl_resource_poller_get_n_polls  (BlResourcePoller     *self);
/* When the first poll's answers arrived (g_get_monotonic_time()), or 0
 * before. */
gint64            bl_resource_poller_get_first_poll_time (BlResourcePoller *self);
/* The session as the file holds it after the last poll, for a live view:
 * call it from the "polled" signal (emitted after each poll, once the file
 * holds it). NULL before the first poll. Costs one read of the session's
 * text, made from the document in memory. (transfer full) */
BlSession        *bl_resource_poller_dup_session  (BlResourcePoller     *self);

void              bl_resource_poller_run_async    (BlResourcePoller     *self,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
gboolean          bl_resource_poller_run_finish   (BlResourcePoller     *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);
void              bl_resource_poller_stop         (BlResourcePoller     *self);

G_END_DECLS
