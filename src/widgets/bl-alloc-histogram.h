/* bl-alloc-histogram.h — an mpatrol profile's allocation sizes as a bar chart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_TYPE_ALLOC_HISTOGRAM (bl_alloc_histogram_get_type ())

G_DECLARE_FINAL_TYPE (BlAllocHistogram, bl_alloc_histogram, BL, ALLOC_HISTOGRAM, GtkWidget)

/* One bar: the model's buckets whose sizes lie in [lower, upper] bytes
 * (upper G_MAXUINT64: open-ended), summed. */
typedef struct
{
  guint64 lower;
  guint64 upper;
  guint64 alloc_count;
  guint64 alloc_bytes;
  guint64 free_count;
  guint64 free_bytes;
} BlAllocSizeClass;

GtkWidget              *bl_alloc_histogram_new            (void);
BlProfile              *bl_alloc_histogram_get_profile    (BlAllocHistogram *self);
void                    bl_alloc_histogram_set_profile    (BlAllocHistogram *self,
                                                           BlProfile        *profile);
/* Whether the profile has a histogram to show. */
gboolean                bl_alloc_histogram_has_data       (BlAllocHistogram *self);
/* The bars: sizes in powers of two (1, 2, 3–4, 5–8, …), then the model's
 * open-ended last bucket; empty classes between used ones are kept. */
const BlAllocSizeClass *bl_alloc_histogram_get_classes    (BlAllocHistogram *self,
                                                           guint            *n_classes);
/* Where bar @i is drawn, in widget coordinates (FALSE without one). */
gboolean                bl_alloc_histogram_get_bar        (BlAllocHistogram *self,
                                                           guint             i,
                                                           graphene_rect_t  *rect);
/* The bar at @x, or -1. */
int                     bl_alloc_histogram_bar_at         (BlAllocHistogram *self,
                                                           double            x,
                                                           double            y);
/* The tooltip of the bar at (@x, @y), or NULL. */
char                   *bl_alloc_histogram_dup_text_at    (BlAllocHistogram *self,
                                                           double            x,
                                                           double            y);

G_END_DECLS
