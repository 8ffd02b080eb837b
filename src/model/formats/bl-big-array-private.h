/* bl-big-array-private.h — zero-filled growing arrays for large tables
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gpointer bl_big_array_grow (gpointer data,
                            gsize    old_size,
                            gsize    new_size);
void     bl_big_array_free (gpointer data,
                            gsize    size);
void     bl_big_array_discard (gpointer data,
                               gsize    size,
                               gsize    offset,
                               gsize    len);

G_END_DECLS
