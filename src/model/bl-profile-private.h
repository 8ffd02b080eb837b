/* bl-profile-private.h — BlProfile internals shared with bl-transform.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-profile.h"

G_BEGIN_DECLS

guint32             _bl_profile_append_child     (BlProfile     *self,
                                                  guint32        parent,
                                                  guint32        frame,
                                                  guint32        name,
                                                  guint32        file,
                                                  guint32        line);
void                _bl_profile_index_children   (BlProfile     *self,
                                                  guint32        parent);

G_END_DECLS
