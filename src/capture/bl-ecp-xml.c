/* bl-ecp-xml.c — the small XML documents ECP answers with, as flat maps
 *
 * An ECP answer such as
 *
 *   <device-info><model-number>3930X</model-number>…</device-info>
 *
 * becomes a map from the path below the root element to its text
 * ("model-number" → "3930X", "plugin/memory/used" → "1234") and from
 * "path@attribute" to each attribute's value ("app@id" → "dev"). The first
 * of several elements with one path wins. Every field the device sends is
 * kept, so callers can save more than they read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-capture"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "bl-capture-error.h"
#include "bl-ecp-xml.h"

typedef struct
{
  const char *root;
  GHashTable *map;
  GPtrArray  *path;   /* element names below the root */
  GString    *text;
  gboolean    saw_root;
  guint       depth;
  GPtrArray  *items;  /* list mode: one map per child of the container */
  char      **container;  /* its path below the root, split at '/' */
  guint       container_len;
} Parse;

static char *item_path (Parse *p);

static char *
join_path (Parse *p)
{
  if (p->items != NULL)
    return item_path (p);

  GString *s = g_string_new (NULL);

  for (guint i = 0; i < p->path->len; i++)
    {
      if (i > 0)
        g_string_append_c (s, '/');
      g_string_append (s, g_ptr_array_index (p->path, i));
    }

  return g_string_free (s, FALSE);
}

static void
start_element (GMarkupParseContext  *context,
               const char           *name,
               const char          **attr_names,
               const char          **attr_values,
               gpointer              user_data,
               GError              **error)
{
  Parse *p = user_data;
  g_autofree char *path = NULL;

  if (p->depth >= BL_ECP_XML_MAX_FLAT_DEPTH)
    {
      g_set_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_PROTOCOL,
                   _("The device's answer nests elements more than %u deep."),
                   BL_ECP_XML_MAX_FLAT_DEPTH);
      return;
    }
  if (p->depth++ == 0)
    {
      if (p->root != NULL && !g_str_equal (name, p->root))
        g_set_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_PROTOCOL,
                     _("The device answered with <%s> where <%s> was expected."),
                     name, p->root);
      p->saw_root = TRUE;
      return;
    }

  if (p->items != NULL && p->path->len == p->container_len && p->depth == p->container_len + 2)
    {
      gboolean inside = TRUE;

      for (guint i = 0; i < p->container_len && inside; i++)
        inside = g_str_equal (g_ptr_array_index (p->path, i), p->container[i]);
      p->map = NULL;
      if (!inside)
        goto no_item;

      p->map = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_hash_table_insert (p->map, g_strdup ("#name"), g_strdup (name));
      g_ptr_array_add (p->items, p->map);
    }
  else if (p->items != NULL && p->path->len <= p->container_len)
    p->map = NULL;  /* outside every item */
no_item:

  g_ptr_array_add (p->path, g_strdup (name));
  g_string_truncate (p->text, 0);
  path = join_path (p);

  for (guint i = 0; p->map != NULL && attr_names[i] != NULL; i++)
    {
      char *key = g_strdup_printf ("%s@%s", path, attr_names[i]);

      if (!g_hash_table_contains (p->map, key))
        g_hash_table_insert (p->map, key, g_strdup (attr_values[i]));
      else
        g_free (key);
    }
}

static void
end_element (GMarkupParseContext  *context,
             const char           *name,
             gpointer              user_data,
             GError              **error)
{
  Parse *p = user_data;

  p->depth--;
  if (p->path->len > 0)
    {
      char *key = join_path (p);

      if (p->map == NULL || p->path->len <= p->container_len)
        g_free (key);
      else if (!g_hash_table_contains (p->map, key))
        g_hash_table_insert (p->map, key, g_strstrip (g_strdup (p->text->str)));
      else
        g_free (key);

      g_ptr_array_remove_index (p->path, p->path->len - 1);
    }

  g_string_truncate (p->text, 0);
}

static void
text (GMarkupParseContext  *context,
      const char           *str,
      gsize                 len,
      gpointer              user_data,
      GError              **error)
{
  Parse *p = user_data;

  g_string_append_len (p->text, str, len);
}

/* In list mode a path is taken relative to the item (the root's child):
 * the item's own text is "", its children "timestamp" and so on. */
static char *
item_path (Parse *p)
{
  GString *s = g_string_new (NULL);

  for (guint i = p->container_len + 1; i < p->path->len; i++)
    {
      if (i > p->container_len + 1)
        g_string_append_c (s, '/');
      g_string_append (s, g_ptr_array_index (p->path, i));
    }

  return g_string_free (s, FALSE);
}

static const GMarkupParser parser = {
  start_element, end_element, text, NULL, NULL,
};

static gboolean
parse (Parse       *p,
       const char  *str,
       gsize        len,
       GError     **error)
{
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *root = p->root != NULL ? p->root : "answer";

  p->path = g_ptr_array_new_with_free_func (g_free);
  p->text = g_string_new (NULL);

  /* skip the <?xml …?> declaration GMarkup does not want */
  while (len > 0 && g_ascii_isspace (*str))
    str++, len--;
  if (len >= 5 && strncmp (str, "<?xml", 5) == 0)
    {
      const char *end = g_strstr_len (str, len, "?>");

      if (end != NULL)
        {
          len -= (end + 2) - str;
          str = end + 2;
        }
    }

  context = g_markup_parse_context_new (&parser, G_MARKUP_TREAT_CDATA_AS_TEXT, p, NULL);
  if (!g_markup_parse_context_parse (context, str, len, &local_error)
      || !g_markup_parse_context_end_parse (context, &local_error)
      || !p->saw_root)
    {
      if (local_error != NULL && local_error->domain == BL_CAPTURE_ERROR)
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_set_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_PROTOCOL,
                     _("The device's answer is not the <%s> document expected (%s)."),
                     root, local_error != NULL ? local_error->message : _("empty"));
    }

  g_ptr_array_unref (p->path);
  g_string_free (p->text, TRUE);

  return error == NULL || *error == NULL;
}

/* Returns a map owned by the caller, or NULL with @error set. */
GHashTable *
bl_ecp_xml_parse (const char  *str,
                  gsize        len,
                  const char  *root,
                  GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  Parse p = { 0 };

  g_return_val_if_fail (root != NULL, NULL);

  p.root = root;
  p.map = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (!parse (&p, str, len, &local_error))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      g_clear_pointer (&p.map, g_hash_table_unref);
    }

  return p.map;
}

/* One map per child element of @container (a path below the root, such as
 * "data"; NULL: the root itself) of the root (@root, or any when NULL), in
 * order: "#name" is the element's name, "" its text, "@attr" its
 * attributes and "a/b" the text of its descendants. For answers that
 * repeat elements, such as fwbeacons and sgrendezvous. */
GPtrArray *
bl_ecp_xml_parse_list (const char  *str,
                       gsize        len,
                       const char  *root,
                       const char  *container,
                       GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_auto(GStrv) parts = NULL;
  Parse p = { 0 };

  p.root = root;
  if (container != NULL && container[0] != '\0')
    {
      parts = g_strsplit (container, "/", -1);
      p.container = parts;
      p.container_len = g_strv_length (parts);
    }
  p.items = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  if (!parse (&p, str, len, &local_error))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      g_clear_pointer (&p.items, g_ptr_array_unref);
    }

  return p.items;
}

/* ---- trees --------------------------------------------------------------- */

typedef struct
{
  const char   *root;
  BlEcpElement *top;
  GPtrArray    *stack;     /* open elements, innermost last (not owned) */
  GString      *text;
  guint         n_elements;
} TreeParse;

void
bl_ecp_element_free (BlEcpElement *element)
{
  if (element == NULL)
    return;

  g_free (element->name);
  g_free (element->text);
  g_strfreev (element->attributes);
  g_ptr_array_unref (element->children);
  g_free (element);
}

static void
tree_start (GMarkupParseContext  *context,
            const char           *name,
            const char          **attr_names,
            const char          **attr_values,
            gpointer              user_data,
            GError              **error)
{
  TreeParse *t = user_data;
  BlEcpElement *element;
  guint n = g_strv_length ((char **) attr_names);

  if (t->stack->len == 0 && t->top != NULL)
    return;   /* GMarkup refuses a second root anyway */
  if (t->stack->len == 0 && t->root != NULL && !g_str_equal (name, t->root))
    {
      g_set_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_PROTOCOL,
                   _("The device answered with <%s> where <%s> was expected."),
                   name, t->root);
      return;
    }
  if (t->stack->len >= BL_ECP_XML_MAX_DEPTH)
    {
      g_set_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_PROTOCOL,
                   _("The device's answer nests elements more than %u deep."),
                   BL_ECP_XML_MAX_DEPTH);
      return;
    }
  if (++t->n_elements > BL_ECP_XML_MAX_ELEMENTS)
    {
      g_set_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_PROTOCOL,
                   _("The device's <%s> answer has more than %u elements."),
                   t->top != NULL ? t->top->name : name, BL_ECP_XML_MAX_ELEMENTS);
      return;
    }

  element = g_new0 (BlEcpElement, 1);
  element->name = g_strdup (name);
  element->children = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_ecp_element_free);
  element->attributes = g_new0 (char *, 2 * n + 1);
  for (guint i = 0; i < n; i++)
    {
      element->attributes[2 * i] = g_strdup (attr_names[i]);
      element->attributes[2 * i + 1] = g_strdup (attr_values[i]);
    }

  if (t->stack->len == 0)
    t->top = element;
  else
    g_ptr_array_add (((BlEcpElement *) g_ptr_array_index (t->stack, t->stack->len - 1))->children,
                     element);
  g_ptr_array_add (t->stack, element);
  g_string_truncate (t->text, 0);
}

static void
tree_end (GMarkupParseContext  *context,
          const char           *name,
          gpointer              user_data,
          GError              **error)
{
  TreeParse *t = user_data;
  BlEcpElement *element;

  if (t->stack->len == 0)
    return;
  element = g_ptr_array_index (t->stack, t->stack->len - 1);
  /* the text directly inside, when it has no children */
  element->text = element->children->len == 0
                    ? g_strstrip (g_strdup (t->text->str)) : g_strdup ("");
  g_ptr_array_remove_index (t->stack, t->stack->len - 1);
  g_string_truncate (t->text, 0);
}

static void
tree_text (GMarkupParseContext  *context,
           const char           *str,
           gsize                 len,
           gpointer              user_data,
           GError              **error)
{
  TreeParse *t = user_data;

  /* only a leaf's text is kept; a bound on what one leaf may hold */
  if (t->text->len < 1024 * 1024)
    g_string_append_len (t->text, str, MIN (len, 1024 * 1024));
}

static const GMarkupParser tree_parser = {
  tree_start, tree_end, tree_text, NULL, NULL,
};

BlEcpElement *
bl_ecp_xml_parse_tree (const char  *str,
                       gsize        len,
                       const char  *root,
                       GError     **error)
{
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GError) local_error = NULL;
  TreeParse t = { root, NULL, g_ptr_array_new (), g_string_new (NULL), 0 };

  /* skip the <?xml …?> declaration GMarkup does not want */
  while (len > 0 && g_ascii_isspace (*str))
    str++, len--;
  if (len >= 5 && strncmp (str, "<?xml", 5) == 0)
    {
      const char *end = g_strstr_len (str, len, "?>");

      if (end != NULL)
        {
          len -= (end + 2) - str;
          str = end + 2;
        }
    }

  context = g_markup_parse_context_new (&tree_parser, G_MARKUP_TREAT_CDATA_AS_TEXT, &t, NULL);
  if (!g_markup_parse_context_parse (context, str, len, &local_error)
      || !g_markup_parse_context_end_parse (context, &local_error)
      || t.top == NULL)
    {
      if (local_error != NULL && local_error->domain == BL_CAPTURE_ERROR)
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_set_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_PROTOCOL,
                     _("The device's answer is not the <%s> document expected (%s)."),
                     root != NULL ? root : "answer",
                     local_error != NULL ? local_error->message : _("empty"));
      g_clear_pointer (&t.top, bl_ecp_element_free);
    }

  g_ptr_array_unref (t.stack);
  g_string_free (t.text, TRUE);

  return t.top;
}

BlEcpElement *
bl_ecp_element_get_child (const BlEcpElement *element,
                          const char         *name)
{
  g_return_val_if_fail (element != NULL, NULL);

  for (guint i = 0; i < element->children->len; i++)
    {
      BlEcpElement *child = g_ptr_array_index (element->children, i);

      if (g_str_equal (child->name, name))
        return child;
    }

  return NULL;
}

const char *
bl_ecp_element_get_text (const BlEcpElement *element,
                         const char         *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);
  const BlEcpElement *at = element;

  for (guint i = 0; at != NULL && parts[i] != NULL; i++)
    at = bl_ecp_element_get_child (at, parts[i]);

  return at != NULL ? at->text : NULL;
}

const char *
bl_ecp_element_get_attribute (const BlEcpElement *element,
                              const char         *name)
{
  g_return_val_if_fail (element != NULL, NULL);

  for (guint i = 0; element->attributes[i] != NULL; i += 2)
    if (g_str_equal (element->attributes[i], name))
      return element->attributes[i + 1];

  return NULL;
}
