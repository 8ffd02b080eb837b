/* bl-json-text.h — JSON text that every reader accepts, from a json-glib tree
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

char   *bl_json_to_text  (JsonNode *root,
                          gsize    *length);
GBytes *bl_json_to_bytes (JsonNode *root);

void    bl_json_add_string (JsonBuilder *builder,
                            const char  *name,
                            const char  *value);

G_END_DECLS
