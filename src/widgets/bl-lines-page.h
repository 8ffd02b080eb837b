/* bl-lines-page.h — hot lines beside the annotated source view
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-flame-graph.h"
#include "bl-hot-lines-view.h"
#include "bl-source-view.h"

G_BEGIN_DECLS

#define BL_TYPE_LINES_PAGE (bl_lines_page_get_type ())

G_DECLARE_FINAL_TYPE (BlLinesPage, bl_lines_page, BL, LINES_PAGE, GtkWidget)

GtkWidget      *bl_lines_page_new             (void);
void            bl_lines_page_follow          (BlLinesPage  *self,
                                               BlFlameGraph *graph);
void            bl_lines_page_set_profile     (BlLinesPage  *self,
                                               BlProfile    *profile);
void            bl_lines_page_set_metric      (BlLinesPage  *self,
                                               BlMetricId    metric);
gboolean        bl_lines_page_show_node       (BlLinesPage  *self,
                                               guint32       node);
BlSourceView   *bl_lines_page_get_source_view (BlLinesPage  *self);
BlHotLinesView *bl_lines_page_get_hot_lines   (BlLinesPage  *self);

G_END_DECLS
