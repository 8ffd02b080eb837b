/* bl-speedscope-writer.h — export to speedscope's JSON file format
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-profile.h"

G_BEGIN_DECLS

/* The profile member naming the Brightlens metric a profile's weights
 * hold; speedscope ignores it, the reader uses it to give back the same
 * metric (e.g. cpu rather than time-ns for microseconds). */
#define BL_SPEEDSCOPE_METRIC_MEMBER "brightlensMetric"

gboolean bl_speedscope_write (BlProfile      *profile,
                              GOutputStream  *out,
                              GCancellable   *cancellable,
                              GError        **error);

G_END_DECLS
