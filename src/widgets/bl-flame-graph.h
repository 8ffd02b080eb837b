/* bl-flame-graph.h — the aggregated call tree of one metric as a flame graph
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-flame-layout.h"
#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_TYPE_FLAME_GRAPH (bl_flame_graph_get_type ())

typedef enum
{
  BL_FLAME_PALETTE_FILE,
  BL_FLAME_PALETTE_MODULE,
  BL_FLAME_PALETTE_HEAT,
} BlFlamePalette;

G_DECLARE_FINAL_TYPE (BlFlameGraph, bl_flame_graph, BL, FLAME_GRAPH, GtkWidget)

typedef gboolean (*BlFlameColorFunc)   (BlFlameGraph *self,
                                        guint32       node,
                                        GdkRGBA      *color,
                                        gpointer      user_data);
typedef char *   (*BlFlameTooltipFunc) (BlFlameGraph *self,
                                        guint32       node,
                                        gpointer      user_data);

/* A pattern over a bar, a cue besides its hue (the differential flame
 * graph hatches new and removed stacks): stripes like "/" or like "\". */
typedef enum
{
  BL_FLAME_MARK_NONE,
  BL_FLAME_MARK_HATCH_RISING,
  BL_FLAME_MARK_HATCH_FALLING,
} BlFlameMark;

typedef BlFlameMark (*BlFlameMarkFunc)  (BlFlameGraph *self,
                                        guint32       node,
                                        gpointer      user_data);

GtkWidget     *bl_flame_graph_new                (void);
BlProfile     *bl_flame_graph_get_profile        (BlFlameGraph    *self);
void           bl_flame_graph_set_profile        (BlFlameGraph    *self,
                                                  BlProfile       *profile);
BlMetricId     bl_flame_graph_get_metric         (BlFlameGraph    *self);
void           bl_flame_graph_set_metric         (BlFlameGraph    *self,
                                                  BlMetricId       metric);
guint          bl_flame_graph_get_thread         (BlFlameGraph    *self);
void           bl_flame_graph_set_thread         (BlFlameGraph    *self,
                                                  guint            thread);
gboolean       bl_flame_graph_get_inverted       (BlFlameGraph    *self);
void           bl_flame_graph_set_inverted       (BlFlameGraph    *self,
                                                  gboolean         inverted);
BlFlameLayout *bl_flame_graph_get_layout         (BlFlameGraph    *self);
void           bl_flame_graph_set_layout         (BlFlameGraph    *self,
                                                  BlFlameLayout   *layout);
guint32        bl_flame_graph_get_selected_node  (BlFlameGraph    *self);
void           bl_flame_graph_set_selected_node  (BlFlameGraph    *self,
                                                  guint32          node);
guint32        bl_flame_graph_get_zoom_node      (BlFlameGraph    *self);
void           bl_flame_graph_zoom_to_node       (BlFlameGraph    *self,
                                                  guint32          node,
                                                  gboolean         animate);
void           bl_flame_graph_reset_zoom         (BlFlameGraph    *self);
void           bl_flame_graph_get_visible_range  (BlFlameGraph    *self,
                                                  double          *x0,
                                                  double          *x1);
void           bl_flame_graph_set_visible_range  (BlFlameGraph    *self,
                                                  double           x0,
                                                  double           x1);
void           bl_flame_graph_zoom_at            (BlFlameGraph    *self,
                                                  double           x,
                                                  double           factor);
const char    *bl_flame_graph_get_search         (BlFlameGraph    *self);
void           bl_flame_graph_set_search         (BlFlameGraph    *self,
                                                  const char      *text);
double         bl_flame_graph_get_match_fraction (BlFlameGraph    *self);
gboolean       bl_flame_graph_get_node_color     (BlFlameGraph    *self,
                                                  guint32          node,
                                                  GdkRGBA         *color);
guint          bl_flame_graph_get_n_matches      (BlFlameGraph    *self);
guint          bl_flame_graph_step_match         (BlFlameGraph    *self,
                                                  gboolean         forward);
gboolean       bl_flame_graph_node_matches       (BlFlameGraph    *self,
                                                  guint32          node);
guint32        bl_flame_graph_get_node_at        (BlFlameGraph    *self,
                                                  double           x,
                                                  double           y);
gboolean       bl_flame_graph_get_frame_bounds   (BlFlameGraph    *self,
                                                  guint32          node,
                                                  graphene_rect_t *bounds);
char          *bl_flame_graph_dup_tooltip_text   (BlFlameGraph    *self,
                                                  guint32          node);
char          *bl_flame_graph_dup_frame_name     (BlFlameGraph    *self,
                                                  guint32          node);
guint          bl_flame_graph_get_row_height     (BlFlameGraph    *self);
BlFlamePalette bl_flame_graph_get_palette        (BlFlameGraph    *self);
void           bl_flame_graph_set_palette        (BlFlameGraph    *self,
                                                  BlFlamePalette   palette);
void           bl_flame_graph_set_color_func     (BlFlameGraph    *self,
                                                  BlFlameColorFunc func,
                                                  gpointer         user_data,
                                                  GDestroyNotify   destroy);
void           bl_flame_graph_set_tooltip_func   (BlFlameGraph    *self,
                                                  BlFlameTooltipFunc func,
                                                  gpointer         user_data,
                                                  GDestroyNotify   destroy);
void           bl_flame_graph_set_mark_func      (BlFlameGraph    *self,
                                                  BlFlameMarkFunc  func,
                                                  gpointer         user_data,
                                                  GDestroyNotify   destroy);
void           bl_flame_graph_invalidate_colors  (BlFlameGraph    *self);
GdkTexture    *bl_flame_graph_render_texture     (BlFlameGraph    *self,
                                                  int              scale);

GMenuModel    *bl_flame_graph_get_context_menu_model (BlFlameGraph *self,
                                                      guint32       node);
void           bl_flame_graph_set_transform_menu (BlFlameGraph    *self,
                                                  gboolean         transform_menu);

G_END_DECLS
