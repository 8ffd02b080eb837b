/* bl-line-gutter-renderer.h — one per-line column of the annotated source view
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtksourceview/gtksource.h>

#include "bl-lines.h"

G_BEGIN_DECLS

typedef enum
{
  BL_LINE_GUTTER_TEXT,   /* the line's value, right-aligned */
  BL_LINE_GUTTER_HEAT,   /* a bar scaled to the hottest line */
} BlLineGutterKind;

#define BL_TYPE_LINE_GUTTER_RENDERER (bl_line_gutter_renderer_get_type ())

G_DECLARE_FINAL_TYPE (BlLineGutterRenderer, bl_line_gutter_renderer, BL, LINE_GUTTER_RENDERER,
                      GtkSourceGutterRenderer)

GtkSourceGutterRenderer *bl_line_gutter_renderer_new          (BlLineGutterKind      kind,
                                                               BlMetricId            metric);
BlLineGutterKind         bl_line_gutter_renderer_get_kind     (BlLineGutterRenderer *self);
BlMetricId               bl_line_gutter_renderer_get_metric   (BlLineGutterRenderer *self);
void                     bl_line_gutter_renderer_set_metric   (BlLineGutterRenderer *self,
                                                               BlMetricId            metric);
void                     bl_line_gutter_renderer_set_lines    (BlLineGutterRenderer *self,
                                                               BlLineSet            *lines);
char                    *bl_line_gutter_renderer_dup_text     (BlLineGutterRenderer *self,
                                                               guint32               line_number);
double                   bl_line_gutter_renderer_get_fraction (BlLineGutterRenderer *self,
                                                               guint32               line_number);

G_END_DECLS
