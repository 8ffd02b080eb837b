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

/* An answer as a tree, for the ones whose elements nest and repeat at
 * every level (sgnodes, registry, app-object-counts). */
typedef struct _BlEcpElement BlEcpElement;

struct _BlEcpElement
{
  char       *name;
  char       *text;        /* stripped, "" if none */
  char      **attributes;  /* name, value, name, value, …, NULL */
  GPtrArray  *children;    /* BlEcpElement, never NULL */
};

/* At most this many elements in one answer: more is an error. */
#define BL_ECP_XML_MAX_ELEMENTS 1000000
/* Elements nest at most this deep in a tree answer (a SceneGraph node tree
 * is tens deep), and at most BL_ECP_XML_MAX_FLAT_DEPTH in one read as a
 * flat map, whose keys are the paths: deeper is an error, so that neither
 * a walk of the tree nor the keys grow without bound. */
#define BL_ECP_XML_MAX_DEPTH      1000
#define BL_ECP_XML_MAX_FLAT_DEPTH 32

/* The whole answer, whose root element must be @root (any when NULL). */
BlEcpElement *bl_ecp_xml_parse_tree         (const char          *text,
                                             gsize                len,
                                             const char          *root,
                                             GError             **error);
void          bl_ecp_element_free           (BlEcpElement        *element);
/* The first child called @name, or NULL. */
BlEcpElement *bl_ecp_element_get_child      (const BlEcpElement  *element,
                                             const char          *name);
/* The text of the first element down @path ("a/b"), or NULL. */
const char   *bl_ecp_element_get_text       (const BlEcpElement  *element,
                                             const char          *path);
/* The value of attribute @name, or NULL. */
const char   *bl_ecp_element_get_attribute  (const BlEcpElement  *element,
                                             const char          *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlEcpElement, bl_ecp_element_free)

G_END_DECLS
