/* bl-slice.h — GLib's slice allocator replaced by malloc on GLib < 2.76
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean bl_slice_wants_reexec (void);
void     bl_slice_reexec       (char **argv);

G_END_DECLS
