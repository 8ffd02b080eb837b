/* bl-flame-layout.h — where each frame of a flame graph lies, without GTK
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-profile.h"

G_BEGIN_DECLS

/* All threads side by side instead of one thread. */
#define BL_FLAME_ALL_THREADS G_MAXUINT

/* One frame: x normalized to [0, 1] of the laid-out total, depth 0 at the root.
 * Rects are sorted by (depth, x0) and do not overlap within a depth. */
typedef struct
{
  double  x0;
  double  x1;
  guint32 node;
  guint32 depth;
  guint32 parent;  /* rect index of the parent frame, G_MAXUINT32 for a root */
  guint32 name;    /* the node's name (a string id), read with the node */
} BlFlameRect;

typedef struct _BlFlameLayout BlFlameLayout;

#define BL_TYPE_FLAME_LAYOUT (bl_flame_layout_get_type ())

GType              bl_flame_layout_get_type    (void) G_GNUC_CONST;
BlFlameLayout     *bl_flame_layout_new         (BlProfile      *profile,
                                                BlMetricId      metric,
                                                guint           thread,
                                                GCancellable   *cancellable,
                                                GError        **error);
BlFlameLayout     *bl_flame_layout_new_coarse  (BlProfile      *profile,
                                                BlMetricId      metric,
                                                guint           thread,
                                                guint           columns,
                                                GCancellable   *cancellable,
                                                GError        **error);
void               bl_flame_layout_new_async   (BlProfile      *profile,
                                                BlMetricId      metric,
                                                guint           thread,
                                                guint           columns,
                                                GCancellable   *cancellable,
                                                GAsyncReadyCallback callback,
                                                gpointer        user_data);
BlFlameLayout     *bl_flame_layout_new_finish  (GAsyncResult   *result,
                                                GError        **error);
BlFlameLayout     *bl_flame_layout_ref         (BlFlameLayout  *self);
void               bl_flame_layout_unref       (BlFlameLayout  *self);

BlProfile         *bl_flame_layout_get_profile (BlFlameLayout  *self);
BlMetricId         bl_flame_layout_get_metric  (BlFlameLayout  *self);
guint              bl_flame_layout_get_thread  (BlFlameLayout  *self);
gboolean           bl_flame_layout_is_coarse   (BlFlameLayout  *self);
guint64            bl_flame_layout_get_total   (BlFlameLayout  *self);
guint              bl_flame_layout_get_n_rects (BlFlameLayout  *self);
const BlFlameRect *bl_flame_layout_get_rects   (BlFlameLayout  *self);
const double      *bl_flame_layout_get_x0s     (BlFlameLayout  *self);
const double      *bl_flame_layout_get_x1s     (BlFlameLayout  *self);
guint              bl_flame_layout_get_n_levels (BlFlameLayout *self);
void               bl_flame_layout_get_level   (BlFlameLayout  *self,
                                                guint           depth,
                                                guint          *begin,
                                                guint          *end);
guint              bl_flame_layout_find_first  (BlFlameLayout  *self,
                                                guint           depth,
                                                double          x);
guint              bl_flame_layout_find_first_from (BlFlameLayout *self,
                                                guint           depth,
                                                guint           from,
                                                double          x);
guint              bl_flame_layout_find_at     (BlFlameLayout  *self,
                                                guint           depth,
                                                double          x);
guint              bl_flame_layout_lookup_node (BlFlameLayout  *self,
                                                guint32         node);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlFlameLayout, bl_flame_layout_unref)

G_END_DECLS
