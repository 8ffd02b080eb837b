/* bl-flame-text.h — what a flame graph says about a frame, without GTK
 *
 * The window's flame graphs and the SVG export (bl-flame-svg) take their
 * tooltips and frame colours from here, so the two cannot drift apart.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-diff.h"
#include "bl-profile.h"

G_BEGIN_DECLS

/* The light palette of the flame graph: the fallbacks of the named CSS
 * colours bl_flame_0 … bl_flame_11 in resources/style.css. */
#define BL_FLAME_N_PALETTE 12
#define BL_FLAME_N_SHADES  7

/* An sRGB colour, each channel 0…1. */
typedef struct
{
  double red;
  double green;
  double blue;
} BlFlameColor;

/* The frame tooltip of a profile's flame graph: function, file:line, self
 * and total, shares of the thread and of all threads, calls. */
char     *bl_flame_text_dup_tooltip      (BlProfile          *profile,
                                          BlMetricId          metric,
                                          guint32             node);
/* The frame tooltip of a differential flame graph drawn in @side's shape:
 * function, file:line, A's and B's total and self, the change. */
char     *bl_flame_text_dup_diff_tooltip (BlDiff             *diff,
                                          BlMetricId          metric,
                                          gboolean            normalized,
                                          BlDiffSide          side,
                                          guint32             profile_node);

/* The palette colour of a frame by file (or thread) and name, with the
 * window's hash: the hue index (0…11) from the file, or from the thread
 * root's name when the frame has no file (or @by_module), and a shade step
 * (0…6) from the function name. */
void      bl_flame_text_get_color_key    (BlProfile          *profile,
                                          guint32             node,
                                          gboolean            by_module,
                                          guint              *hue,
                                          guint              *shade);
/* @palette's colour for (@hue, @shade), shaded as the window shades it. */
void      bl_flame_text_shade_color      (const BlFlameColor *palette,
                                          guint               hue,
                                          guint               shade,
                                          BlFlameColor       *color);
/* The light palette (BL_FLAME_N_PALETTE colours). */
const BlFlameColor *bl_flame_text_get_light_palette (void);

G_END_DECLS
