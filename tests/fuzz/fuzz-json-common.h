/* fuzz-json-common.h — what the fuzz targets of the DevTools JSON profile
 * readers (CPU profile, sampling heap profile) do with an input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-model.h"

G_BEGIN_DECLS

/* a reader of one DevTools profile format */
typedef BlProfile *(*BlFuzzJsonRead) (const guint8  *data,
                                      gsize          size,
                                      GError       **error);

int bl_fuzz_json_profile (const guint8   *data,
                          size_t          size,
                          BlFuzzJsonRead  read,
                          GQuark          domain);

G_END_DECLS
