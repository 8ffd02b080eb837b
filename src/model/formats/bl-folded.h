/* bl-folded.h — folded stacks ("a;b;c 123"), as flamegraph.pl and inferno use
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-profile.h"

G_BEGIN_DECLS

gboolean bl_folded_write (BlProfile      *profile,
                          BlMetricId      metric,
                          GOutputStream  *out,
                          GCancellable   *cancellable,
                          GError        **error);

G_END_DECLS
