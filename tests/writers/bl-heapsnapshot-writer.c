/* bl-heapsnapshot-writer.c — test-only writer of V8 heap snapshots
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-heapsnapshot-writer.h"

static const char *node_types[] = {
  "hidden", "array", "string", "object", "code", "closure", "regexp", "number", "native",
  "synthetic", "concatenated string", "sliced string", "symbol", "bigint", "object shape",
  "wasm object",
};

static const char *edge_types[] = {
  "context", "element", "property", "internal", "hidden", "shortcut", "weak",
};

typedef struct
{
  guint32 type, name, id, self_size;
} Node;

typedef struct
{
  guint32 from, type, name_or_index, to, order;
} Edge;

struct _BlHsWriter
{
  GArray     *nodes;      /* Node */
  GArray     *edges;      /* Edge */
  GArray     *locations;  /* guint32 × 4 */
  GPtrArray  *strings;
  GHashTable *string_ids; /* string → id + 1 */
};

static guint32
lookup (const char **names,
        guint        n,
        const char  *name)
{
  for (guint i = 0; i < n; i++)
    if (strcmp (names[i], name) == 0)
      return i;
  g_error ("unknown heap snapshot type %s", name);
}

static guint32
intern (BlHsWriter *self,
        const char *str)
{
  gpointer v = g_hash_table_lookup (self->string_ids, str);

  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  g_ptr_array_add (self->strings, g_strdup (str));
  g_hash_table_insert (self->string_ids, g_ptr_array_index (self->strings, self->strings->len - 1),
                       GUINT_TO_POINTER (self->strings->len));

  return self->strings->len - 1;
}

BlHsWriter *
bl_hsw_new (void)
{
  BlHsWriter *self = g_new0 (BlHsWriter, 1);

  self->nodes = g_array_new (FALSE, FALSE, sizeof (Node));
  self->edges = g_array_new (FALSE, FALSE, sizeof (Edge));
  self->locations = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->strings = g_ptr_array_new_with_free_func (g_free);
  self->string_ids = g_hash_table_new (g_str_hash, g_str_equal);
  intern (self, "<dummy>");

  return self;
}

void
bl_hsw_free (BlHsWriter *self)
{
  g_array_unref (self->nodes);
  g_array_unref (self->edges);
  g_array_unref (self->locations);
  g_hash_table_unref (self->string_ids);
  g_ptr_array_unref (self->strings);
  g_free (self);
}

guint32
bl_hsw_node (BlHsWriter *self,
             const char *type,
             const char *name,
             guint32     id,
             guint32     self_size)
{
  Node node = { lookup (node_types, G_N_ELEMENTS (node_types), type), intern (self, name), id,
                self_size };

  g_array_append_val (self->nodes, node);

  return self->nodes->len - 1;
}

void
bl_hsw_edge (BlHsWriter *self,
             guint32     from,
             const char *type,
             const char *name,
             guint32     index,
             guint32     to)
{
  Edge edge = { from, lookup (edge_types, G_N_ELEMENTS (edge_types), type), index, to,
                self->edges->len };

  if (name != NULL)
    edge.name_or_index = intern (self, name);
  g_array_append_val (self->edges, edge);
}

void
bl_hsw_location (BlHsWriter *self,
                 guint32     node,
                 guint32     script,
                 guint32     line,
                 guint32     column)
{
  guint32 row[] = { node * 7, script, line, column };

  g_array_append_vals (self->locations, row, 4);
}

static int
compare_edges (gconstpointer a,
               gconstpointer b)
{
  const Edge *ea = a, *eb = b;

  if (ea->from != eb->from)
    return ea->from < eb->from ? -1 : 1;
  return ea->order < eb->order ? -1 : ea->order > eb->order;
}

static void
append_names (GString     *out,
              const char **names,
              guint        n)
{
  g_string_append_c (out, '[');
  for (guint i = 0; i < n; i++)
    g_string_append_printf (out, "%s\"%s\"", i > 0 ? "," : "", names[i]);
  g_string_append_c (out, ']');
}

static void
append_json_string (GString    *out,
                    const char *s)
{
  g_string_append_c (out, '"');
  for (; *s != '\0'; s++)
    {
      if (*s == '"' || *s == '\\')
        g_string_append_c (out, '\\');
      if ((guchar) *s < 0x20)
        g_string_append_printf (out, "\\u%04x", (guchar) *s);
      else
        g_string_append_c (out, *s);
    }
  g_string_append_c (out, '"');
}

GString *
bl_hsw_to_string (BlHsWriter *self,
                  BlHsOrder   order)
{
  GString *out = g_string_new (NULL);
  g_autoptr(GArray) edges = g_array_copy (self->edges);
  g_autoptr(GString) nodes_part = g_string_new ("\"nodes\":[");
  g_autoptr(GString) edges_part = g_string_new ("\"edges\":[");
  g_autoptr(GString) strings_part = g_string_new ("\"strings\":[");
  g_autoptr(GString) locations_part = g_string_new ("\"locations\":[");
  g_autofree guint32 *edge_count = g_new0 (guint32, MAX (self->nodes->len, 1));

  g_array_sort (edges, compare_edges);
  for (guint i = 0; i < edges->len; i++)
    {
      const Edge *e = &g_array_index (edges, Edge, i);

      g_assert (e->from < self->nodes->len);
      edge_count[e->from]++;
      g_string_append_printf (edges_part, "%s%u,%u,%u", i > 0 ? "\n," : "", e->type,
                              e->name_or_index, e->to * 7);
    }
  g_string_append (edges_part, "]");
  for (guint i = 0; i < self->nodes->len; i++)
    {
      const Node *n = &g_array_index (self->nodes, Node, i);

      g_string_append_printf (nodes_part, "%s%u,%u,%u,%u,%u,0,0", i > 0 ? "\n," : "", n->type,
                              n->name, n->id, n->self_size, edge_count[i]);
    }
  g_string_append (nodes_part, "]");
  for (guint i = 0; i < self->strings->len; i++)
    {
      if (i > 0)
        g_string_append (strings_part, ",\n");
      append_json_string (strings_part, g_ptr_array_index (self->strings, i));
    }
  g_string_append (strings_part, "]");
  for (guint i = 0; i < self->locations->len; i++)
    g_string_append_printf (locations_part, "%s%u", i > 0 ? "," : "",
                            g_array_index (self->locations, guint32, i));
  g_string_append (locations_part, "]");

  g_string_append (out, "{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"name\",\"id\","
                   "\"self_size\",\"edge_count\",\"trace_node_id\",\"detachedness\"],"
                   "\"node_types\":[");
  append_names (out, node_types, G_N_ELEMENTS (node_types));
  g_string_append (out, ",\"string\",\"number\",\"number\",\"number\",\"number\",\"number\"],"
                   "\"edge_fields\":[\"type\",\"name_or_index\",\"to_node\"],\"edge_types\":[");
  append_names (out, edge_types, G_N_ELEMENTS (edge_types));
  g_string_append_printf (out, ",\"string_or_number\",\"node\"],"
                          "\"location_fields\":[\"object_index\",\"script_id\",\"line\","
                          "\"column\"]},\"node_count\":%u,\"edge_count\":%u,"
                          "\"trace_function_count\":0},\n",
                          self->nodes->len, edges->len);
  if (order == BL_HS_ORDER_V8)
    g_string_append_printf (out, "%s,\n%s,\n\"trace_function_infos\":[],\n\"trace_tree\":[],\n"
                            "\"samples\":[],\n%s,\n%s}\n",
                            nodes_part->str, edges_part->str, locations_part->str,
                            strings_part->str);
  else
    g_string_append_printf (out, "%s,\n%s,\n%s,\n%s}\n", strings_part->str, edges_part->str,
                            nodes_part->str, locations_part->str);

  return out;
}

GBytes *
bl_hsw_to_bytes (BlHsWriter *self,
                 BlHsOrder   order)
{
  GString *out = bl_hsw_to_string (self, order);
  gsize len = out->len;

  return g_bytes_new_take (g_string_free (out, FALSE), len);
}

/* Writes @buf out when it is full (or @flush), then empties it. */
static gboolean
drain (GOutputStream  *out,
       GString        *buf,
       gboolean        flush,
       GError        **error)
{
  if (!flush && buf->len < (1 << 20))
    return TRUE;
  if (!g_output_stream_write_all (out, buf->str, buf->len, NULL, NULL, error))
    return FALSE;
  g_string_truncate (buf, 0);

  return TRUE;
}

guint32
bl_hsw_tree_self_size (guint32 i)
{
  return i == 0 ? 0 : 16 + (i % 8) * 8;
}

gboolean
bl_hsw_write_tree (GOutputStream *out,
                   guint32        n_nodes,
                   GError       **error)
{
  enum { NODE_FIELDS = 7, T_OBJECT = 3, T_SYNTHETIC = 9, E_ELEMENT = 1, E_PROPERTY = 2 };
  g_autoptr(GString) buf = g_string_sized_new (2 << 20);
  guint64 n_edges = n_nodes - 1;

  g_return_val_if_fail (n_nodes >= 2, FALSE);

  g_string_append (buf, "{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"name\",\"id\","
                   "\"self_size\",\"edge_count\",\"trace_node_id\",\"detachedness\"],"
                   "\"node_types\":[[");
  for (guint t = 0; t < G_N_ELEMENTS (node_types); t++)
    g_string_append_printf (buf, t > 0 ? ",\"%s\"" : "\"%s\"", node_types[t]);
  g_string_append (buf, "],\"string\",\"number\",\"number\",\"number\",\"number\",\"number\"],"
                   "\"edge_fields\":[\"type\",\"name_or_index\",\"to_node\"],"
                   "\"edge_types\":[[");
  for (guint t = 0; t < G_N_ELEMENTS (edge_types); t++)
    g_string_append_printf (buf, t > 0 ? ",\"%s\"" : "\"%s\"", edge_types[t]);
  g_string_append_printf (buf, "],\"string_or_number\",\"node\"]},\"node_count\":%u,"
                          "\"edge_count\":%" G_GUINT64_FORMAT ",\"trace_function_count\":0},\n"
                          "\"nodes\":[", n_nodes, n_edges);

  /* node 0, the synthetic root, holds node 1 (element 1); node i ≥ 1 is
   * an object of class "C<i mod 100>" holding 2i ("l") and 2i + 1 ("r") */
  for (guint64 i = 0; i < n_nodes; i++)
    {
      guint edges = i == 0 ? 1 : (2 * i + 1 < n_nodes ? 2 : (2 * i < n_nodes ? 1 : 0));

      g_string_append_printf (buf, "%s%u,%u,%" G_GUINT64_FORMAT ",%u,%u,0,0",
                              i > 0 ? ",\n" : "", i == 0 ? T_SYNTHETIC : T_OBJECT,
                              i == 0 ? 0 : 3 + (guint) (i % 100), 2 * i + 1,
                              bl_hsw_tree_self_size ((guint32) i), edges);
      if (!drain (out, buf, FALSE, error))
        return FALSE;
    }
  g_string_append (buf, "],\n\"edges\":[");
  for (guint64 i = 0; i < n_nodes; i++)
    {
      if (i == 0)
        g_string_append_printf (buf, "%u,1,%u", E_ELEMENT, NODE_FIELDS);
      if (i > 0 && 2 * i < n_nodes)
        g_string_append_printf (buf, ",\n%u,1,%" G_GUINT64_FORMAT, E_PROPERTY,
                                2 * i * NODE_FIELDS);
      if (i > 0 && 2 * i + 1 < n_nodes)
        g_string_append_printf (buf, ",\n%u,2,%" G_GUINT64_FORMAT, E_PROPERTY,
                                (2 * i + 1) * NODE_FIELDS);
      if (!drain (out, buf, FALSE, error))
        return FALSE;
    }
  g_string_append (buf, "],\n\"trace_function_infos\":[],\"trace_tree\":[],\"samples\":[],"
                   "\"locations\":[],\n\"strings\":[\"\",\"l\",\"r\"");
  for (guint k = 0; k < 100; k++)
    g_string_append_printf (buf, ",\n\"C%u\"", k);
  g_string_append (buf, "]}\n");

  return drain (out, buf, TRUE, error);
}
