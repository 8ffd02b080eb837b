/* bl-ecp-xml.h — the small XML documents ECP answers with, as flat maps
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

GHashTable *bl_ecp_xml_parse (const char  *text,
                              gsize        len,
                              const char  *root,
                              GError     **error);

GPtrArray  *bl_ecp_xml_parse_list (const char  *text,
                                   gsize        len,
                                   const char  *root,
                                   const char  *container,
                                   GError     **error);

G_END_DECLS
