/* bl-profile-view.h — a loaded profile: header, selectors, flame graph, tables
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-call-tree-view.h"
#include "bl-flame-graph.h"
#include "bl-profile.h"
#include "bl-transform.h"

G_BEGIN_DECLS

#define BL_TYPE_PROFILE_VIEW (bl_profile_view_get_type ())

G_DECLARE_FINAL_TYPE (BlProfileView, bl_profile_view, BL, PROFILE_VIEW, GtkWidget)

GtkWidget      *bl_profile_view_new              (void);
BlProfile      *bl_profile_view_get_profile      (BlProfileView *self);
void            bl_profile_view_set_profile      (BlProfileView *self,
                                                  BlProfile     *profile);
void            bl_profile_view_set_fallback_title (BlProfileView *self,
                                                  const char    *title);
BlFlameGraph   *bl_profile_view_get_flame_graph  (BlProfileView *self);
BlCallTreeView *bl_profile_view_get_call_tree    (BlProfileView *self,
                                                  BlCallTreeMode mode);
BlMetricId      bl_profile_view_get_metric       (BlProfileView *self);
void            bl_profile_view_set_metric       (BlProfileView *self,
                                                  BlMetricId     metric);
guint           bl_profile_view_get_thread       (BlProfileView *self);
void            bl_profile_view_set_thread       (BlProfileView *self,
                                                  guint          thread);
const char     *bl_profile_view_get_banner_text  (BlProfileView *self);
const char     *bl_profile_view_get_empty_text   (BlProfileView *self);
void            bl_profile_view_focus_search     (BlProfileView *self);
void            bl_profile_view_reset_zoom       (BlProfileView *self);
void            bl_profile_view_focus_graph      (BlProfileView *self);
void            bl_profile_view_show_table       (BlProfileView *self,
                                                  BlCallTreeMode mode);

/* Call-tree transforms: every view shows the profile with them applied;
 * profile.transform("merge:F"), profile.transform-selected("merge"),
 * profile.remove-transform(u), profile.undo (Ctrl+Z) and profile.redo
 * (Ctrl+Shift+Z) change them. */
void            bl_profile_view_add_transform    (BlProfileView *self,
                                                  BlTransform   *transform);
GPtrArray      *bl_profile_view_get_transforms   (BlProfileView *self);
void            bl_profile_view_save_preset      (BlProfileView *self,
                                                  const char    *name);

G_END_DECLS
