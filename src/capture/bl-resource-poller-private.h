/* bl-resource-poller-private.h — BlResourcePoller's parsers without a
 * device, for the fuzz target (tests/fuzz/fuzz-poller.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-resource-poller.h"

G_BEGIN_DECLS

gboolean  _bl_resource_poller_feed          (BlResourcePoller  *self,
                                             guint              index,
                                             const char        *data,
                                             gsize              len,
                                             GError           **error);
guint     _bl_resource_poller_get_n_answers (void);
GBytes   *_bl_resource_poller_dup_document  (BlResourcePoller  *self);

G_END_DECLS
