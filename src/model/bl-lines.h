/* bl-lines.h — per-source-line views over a profile's line records
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-profile.h"

G_BEGIN_DECLS

/* Hot lines: every line record of @profile whose value for @metric is not
 * zero, hottest first; ties go by file name, then by line number. */
guint32            *bl_lines_rank                 (BlProfile   *profile,
                                                   BlMetricId   metric,
                                                   guint        limit,
                                                   guint       *n_ranked);
guint32            *bl_lines_place_order          (BlProfile   *profile,
                                                   guint       *n_records);
guint32            *bl_lines_rank_in_order        (BlProfile     *profile,
                                                   const guint32 *order,
                                                   guint          n_order,
                                                   BlMetricId     metric,
                                                   guint          limit,
                                                   guint         *n_ranked);
int                 bl_lines_compare              (BlProfile   *profile,
                                                   BlMetricId   metric,
                                                   guint32      a,
                                                   guint32      b);
guint32             bl_lines_find_function        (BlProfile   *profile,
                                                   guint32      line_index);

#define BL_TYPE_LINE_SET (bl_line_set_get_type ())

/* The line records of one function or of one source file, in line order,
 * with per-metric sums and maxima. Immutable once made. */
typedef struct _BlLineSet BlLineSet;

GType               bl_line_set_get_type          (void) G_GNUC_CONST;
BlLineSet          *bl_line_set_new_for_function  (BlProfile   *profile,
                                                   guint32      function);
BlLineSet          *bl_line_set_new_for_file      (BlProfile   *profile,
                                                   guint32      file);
BlLineSet          *bl_line_set_ref               (BlLineSet   *self);
void                bl_line_set_unref             (BlLineSet   *self);

BlProfile          *bl_line_set_get_profile       (BlLineSet   *self);
guint32             bl_line_set_get_file          (BlLineSet   *self);
guint32             bl_line_set_get_function      (BlLineSet   *self);
guint               bl_line_set_get_n_lines       (BlLineSet   *self);
guint32             bl_line_set_get_line_index    (BlLineSet   *self,
                                                   guint        position);
guint32             bl_line_set_get_line_number   (BlLineSet   *self,
                                                   guint        position);
guint64             bl_line_set_get_value         (BlLineSet   *self,
                                                   BlMetricId   metric,
                                                   guint        position);
guint64             bl_line_set_get_sum           (BlLineSet   *self,
                                                   BlMetricId   metric);
guint64             bl_line_set_get_max           (BlLineSet   *self,
                                                   BlMetricId   metric);
gboolean            bl_line_set_find              (BlLineSet   *self,
                                                   guint32      line_number,
                                                   guint       *position);
gboolean            bl_line_set_get_hottest       (BlLineSet   *self,
                                                   BlMetricId   metric,
                                                   guint       *position);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlLineSet, bl_line_set_unref)

G_END_DECLS
