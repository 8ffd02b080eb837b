/* bl-line-list.h — ranked line records as a list of BlLineItems, made lazily
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_TYPE_LINE_LIST (bl_line_list_get_type ())

G_DECLARE_FINAL_TYPE (BlLineList, bl_line_list, BL, LINE_LIST, GObject)

BlLineList *bl_line_list_new        (void);

/* Takes @ranked (line record indexes, g_free()d with the list) and shows
 * them in that order; a NULL @profile empties the list. */
void        bl_line_list_set        (BlLineList *self,
                                     BlProfile  *profile,
                                     guint32    *ranked,
                                     guint       n_ranked);
guint       bl_line_list_get_n_made (BlLineList *self);

G_END_DECLS
