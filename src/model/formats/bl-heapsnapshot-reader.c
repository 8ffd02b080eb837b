/* bl-heapsnapshot-reader.c — V8 / Hermes heap snapshots into a BlHeap
 *
 * The document is read member by member in whatever order it comes
 * ("strings" is usually last): snapshot.meta, the flat "nodes", "edges" and
 * "locations" integer arrays are kept as they are, and the heap is built
 * once everything is in, when names can be resolved. Nothing is allocated
 * from a count the file states; arrays grow with the numbers actually read.
 *
 * Node N of the snapshot is object N of the heap; node 0 is the synthetic
 * root. Types follow Chrome DevTools' class names: the node's name for
 * "object" and "native" nodes (the constructor), "(system)" for "hidden",
 * "(compiled code)" for "code", and "(TYPE)" for every other node type.
 *
 * Retained sizes follow DevTools (its heap snapshot worker): the dominator
 * tree is computed from the root over the "essential" edges only —
 *  - weak edges never retain, and are not given to the heap at all;
 *  - shortcut edges retain only from the root (they mark the user's global
 *    objects); elsewhere they are dropped too;
 *  - the objects reachable from those global objects (and from a
 *    "(Document DOM trees)" root) are page objects, and an edge from a
 *    non-page object other than the root to a page object is not followed
 *    (debugger and internal references must not take over the dominators
 *    of the page's objects); such edges are dropped;
 *  - objects the root does not reach that way hang from the root:
 *    DevTools first walks from the objects held only by weak (or shortcut)
 *    references, then takes what is still left as the root's children. The
 *    heap gets a reference from the root to each, named "(weakly held)" or
 *    "(unreachable)", so that every object is reachable and the root
 *    retains everything, as in DevTools.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-heapsnapshot"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <string.h>

#include "bl-heap.h"
#include "bl-heapsnapshot-reader.h"
#include "bl-json-reader.h"

G_DEFINE_QUARK (bl-heapsnapshot-error-quark, bl_heapsnapshot_error)

#define NONE G_MAXUINT32

/* the index caches for element edge names: "[0]" … */
#define N_CACHED_INDEXES 4096

typedef struct
{
  BlJsonReader *json;

  /* snapshot.meta */
  gboolean      have_meta;
  GPtrArray    *node_fields;     /* char * */
  GPtrArray    *node_types;
  GPtrArray    *edge_fields;
  GPtrArray    *edge_types;
  GPtrArray    *location_fields;
  gboolean      have_node_count;
  gboolean      have_edge_count;
  guint64       node_count;
  guint64       edge_count;

  /* the arrays as read */
  GArray       *nodes;           /* guint32 */
  GArray       *edges;           /* guint32 */
  GArray       *locations;       /* guint32 */
  GPtrArray    *strings;         /* char *, NULL where not kept */
  guint32       n_nodes;         /* once the nodes array is gone */
  gboolean      have_strings;

  /* which strings are wanted, when nodes and edges came before them */
  guint8       *wanted;
  guint32       n_wanted;

  /* field offsets, from meta */
  guint         nf, ef;
  guint         node_type_at, node_name_at, node_id_at, node_self_at, node_edges_at;
  guint         edge_type_at, edge_name_at, edge_to_at;
  guint32       t_hidden, t_object, t_native, t_code, t_synthetic;
  guint32       e_element, e_hidden, e_shortcut, e_weak;
} Reader;

static void
reader_clear (Reader *reader)
{
  g_clear_pointer (&reader->json, bl_json_reader_free);
  g_clear_pointer (&reader->node_fields, g_ptr_array_unref);
  g_clear_pointer (&reader->node_types, g_ptr_array_unref);
  g_clear_pointer (&reader->edge_fields, g_ptr_array_unref);
  g_clear_pointer (&reader->edge_types, g_ptr_array_unref);
  g_clear_pointer (&reader->location_fields, g_ptr_array_unref);
  g_clear_pointer (&reader->nodes, g_array_unref);
  g_clear_pointer (&reader->edges, g_array_unref);
  g_clear_pointer (&reader->locations, g_array_unref);
  g_clear_pointer (&reader->strings, g_ptr_array_unref);
  g_clear_pointer (&reader->wanted, g_free);
}

static gboolean
fail_at (Reader               *reader,
         GError              **error,
         BlHeapsnapshotError   code,
         const char           *format,
         ...) G_GNUC_PRINTF (4, 5);

/* "Invalid heap snapshot: <what>, at <location>." */
static gboolean
fail_at (Reader               *reader,
         GError              **error,
         BlHeapsnapshotError   code,
         const char           *format,
         ...)
{
  g_autofree char *what = NULL;
  g_autofree char *where = bl_json_reader_dup_location (reader->json);
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, BL_HEAPSNAPSHOT_ERROR, code, _("Invalid heap snapshot: %s, at %s."),
               what, where);

  return FALSE;
}

static gboolean
fail (GError              **error,
      BlHeapsnapshotError   code,
      const char           *format,
      ...) G_GNUC_PRINTF (3, 4);

/* "Invalid heap snapshot: <what>." */
static gboolean
fail (GError              **error,
      BlHeapsnapshotError   code,
      const char           *format,
      ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, BL_HEAPSNAPSHOT_ERROR, code, _("Invalid heap snapshot: %s."), what);

  return FALSE;
}

/* A JSON error: a cut-short file says so in one sentence; the rest keep
 * the parser's own words. */
static gboolean
json_failed (Reader  *reader,
             GError  *local_error,
             GError **error)
{
  if (g_error_matches (local_error, BL_JSON_ERROR, BL_JSON_ERROR_TRUNCATED))
    {
      g_set_error (error, BL_HEAPSNAPSHOT_ERROR, BL_HEAPSNAPSHOT_ERROR_TRUNCATED,
                   _("The heap snapshot is cut short after %" PRIu64 " bytes; a "
                     "partial heap snapshot cannot be analysed (its objects and references "
                     "are incomplete)."),
                   bl_json_reader_get_bytes_read (reader->json));
      g_error_free (local_error);
    }
  else
    g_propagate_error (error, local_error);

  return FALSE;
}

/* Reads the next token: TRUE if it is @expected; otherwise FALSE with
 * @error set, by the JSON parser's words (json_failed) or as "@what" at
 * the token's place. */
static gboolean
expect_token (Reader      *reader,
              BlJsonToken  expected,
              const char  *what,
              GError     **error)
{
  GError *local_error = NULL;
  BlJsonToken token = bl_json_reader_next (reader->json, &local_error);

  if (token == BL_JSON_TOKEN_ERROR)
    return json_failed (reader, local_error, error);
  if (token != expected)
    return fail_at (reader, error, BL_HEAPSNAPSHOT_ERROR_MALFORMED, "%s", what);

  return TRUE;
}

/* ---- reading ---- */

/* An array of strings into @out (replacing what it held). */
static gboolean
read_string_array (Reader     *reader,
                   GPtrArray **out,
                   GError    **error)
{
  GError *local_error = NULL;
  BlJsonToken token;

  if (!expect_token (reader, BL_JSON_TOKEN_BEGIN_ARRAY,
                     C_("heap snapshot", "expected an array of names"), error))
    return FALSE;

  g_clear_pointer (out, g_ptr_array_unref);
  *out = g_ptr_array_new_with_free_func (g_free);
  while ((token = bl_json_reader_next (reader->json, &local_error)) == BL_JSON_TOKEN_STRING)
    g_ptr_array_add (*out, g_strdup (bl_json_reader_get_string (reader->json, NULL)));

  if (token == BL_JSON_TOKEN_ERROR)
    return json_failed (reader, local_error, error);
  if (token != BL_JSON_TOKEN_END_ARRAY)
    return fail_at (reader, error, BL_HEAPSNAPSHOT_ERROR_MALFORMED,
                    C_("heap snapshot", "expected a name"));

  return TRUE;
}

/* node_types / edge_types: [[the first field's enumeration…], "string", …];
 * only the first field's enumeration is kept. */
static gboolean
read_types (Reader     *reader,
            GPtrArray **out,
            GError    **error)
{
  GError *local_error = NULL;
  BlJsonToken token;

  if (!expect_token (reader, BL_JSON_TOKEN_BEGIN_ARRAY,
                     C_("heap snapshot", "expected an array of field types"), error))
    return FALSE;
  if (!read_string_array (reader, out, error))
    return FALSE;
  while ((token = bl_json_reader_next (reader->json, &local_error)) > BL_JSON_TOKEN_END &&
         token != BL_JSON_TOKEN_END_ARRAY)
    if (!bl_json_reader_skip_value (reader->json, &local_error))
      return json_failed (reader, local_error, error);
  if (token == BL_JSON_TOKEN_ERROR)
    return json_failed (reader, local_error, error);
  if (token != BL_JSON_TOKEN_END_ARRAY)
    return fail_at (reader, error, BL_HEAPSNAPSHOT_ERROR_MALFORMED,
                    C_("heap snapshot", "expected the end of the field types"));

  return TRUE;
}

static gboolean
read_count (Reader   *reader,
            guint64  *value,
            GError  **error)
{
  GError *local_error = NULL;

  if (!expect_token (reader, BL_JSON_TOKEN_NUMBER,
                     C_("heap snapshot", "expected a count"), error))
    return FALSE;
  if (!bl_json_reader_get_count (reader->json, value, &local_error))
    return json_failed (reader, local_error, error);

  return TRUE;
}

static gboolean
read_meta (Reader  *reader,
           GError **error)
{
  GError *local_error = NULL;
  BlJsonToken token;

  if (!expect_token (reader, BL_JSON_TOKEN_BEGIN_OBJECT,
                     C_("heap snapshot", "expected an object"), error))
    return FALSE;

  while ((token = bl_json_reader_next (reader->json, &local_error)) == BL_JSON_TOKEN_MEMBER)
    {
      const char *name = bl_json_reader_get_string (reader->json, NULL);
      gboolean ok;

      if (g_str_equal (name, "node_fields"))
        ok = read_string_array (reader, &reader->node_fields, error);
      else if (g_str_equal (name, "edge_fields"))
        ok = read_string_array (reader, &reader->edge_fields, error);
      else if (g_str_equal (name, "location_fields"))
        ok = read_string_array (reader, &reader->location_fields, error);
      else if (g_str_equal (name, "node_types"))
        ok = read_types (reader, &reader->node_types, error);
      else if (g_str_equal (name, "edge_types"))
        ok = read_types (reader, &reader->edge_types, error);
      else if (!(ok = bl_json_reader_skip_value (reader->json, &local_error)))
        return json_failed (reader, local_error, error);
      if (!ok)
        return FALSE;
    }
  if (token == BL_JSON_TOKEN_ERROR)
    return json_failed (reader, local_error, error);
  reader->have_meta = TRUE;

  return TRUE;
}

static gboolean
read_snapshot (Reader  *reader,
               GError **error)
{
  GError *local_error = NULL;
  BlJsonToken token;

  if (!expect_token (reader, BL_JSON_TOKEN_BEGIN_OBJECT,
                     C_("heap snapshot", "expected an object"), error))
    return FALSE;

  while ((token = bl_json_reader_next (reader->json, &local_error)) == BL_JSON_TOKEN_MEMBER)
    {
      const char *name = bl_json_reader_get_string (reader->json, NULL);
      gboolean ok;

      if (g_str_equal (name, "meta"))
        ok = read_meta (reader, error);
      else if (g_str_equal (name, "node_count"))
        ok = reader->have_node_count = read_count (reader, &reader->node_count, error);
      else if (g_str_equal (name, "edge_count"))
        ok = reader->have_edge_count = read_count (reader, &reader->edge_count, error);
      else if (!(ok = bl_json_reader_skip_value (reader->json, &local_error)))
        return json_failed (reader, local_error, error);
      if (!ok)
        return FALSE;
    }
  if (token == BL_JSON_TOKEN_ERROR)
    return json_failed (reader, local_error, error);

  return TRUE;
}

/* An array of whole numbers from 0 to 2^32 - 1 into @out. */
static gboolean
read_numbers (Reader  *reader,
              GArray **out,
              GError **error)
{
  GError *local_error = NULL;
  BlJsonToken token;
  guint32 chunk[4096];

  if (!expect_token (reader, BL_JSON_TOKEN_BEGIN_ARRAY,
                     C_("heap snapshot", "expected an array of numbers"), error))
    return FALSE;

  g_clear_pointer (out, g_array_unref);
  *out = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (;;)
    {
      gsize n = bl_json_reader_next_indexes (reader->json, G_MAXUINT32, chunk,
                                             G_N_ELEMENTS (chunk));
      guint64 value;

      if (n > 0)
        {
          g_array_append_vals (*out, chunk, n);
          continue;
        }

      token = bl_json_reader_next (reader->json, &local_error);
      if (token != BL_JSON_TOKEN_NUMBER)
        break;
      if (!bl_json_reader_get_count (reader->json, &value, &local_error))
        return json_failed (reader, local_error, error);
      if (value > G_MAXUINT32)
        return fail_at (reader, error, BL_HEAPSNAPSHOT_ERROR_RANGE,
                        _("the number %" PRIu64 " is larger than 4294967295"), value);
      g_array_append_val (*out, (guint32) { value });
    }

  if (token == BL_JSON_TOKEN_ERROR)
    return json_failed (reader, local_error, error);
  if (token != BL_JSON_TOKEN_END_ARRAY)
    return fail_at (reader, error, BL_HEAPSNAPSHOT_ERROR_MALFORMED,
                    C_("heap snapshot", "expected a whole number from 0 to 4294967295"));

  return TRUE;
}

static guint
find_name (GPtrArray  *names,
           const char *name)
{
  guint index;

  if (names != NULL && g_ptr_array_find_with_equal_func (names, name, g_str_equal, &index))
    return index;

  return NONE;
}

/* With meta, nodes and edges in, marks the strings the heap will need
 * (names of object, native and synthetic nodes; names of the edges that
 * have one), so that the others are not kept. Without them, every string
 * is kept. */
static void
mark_wanted_strings (Reader *reader)
{
  const guint32 *nodes, *edges;
  guint nf, ef;
  guint32 t_object, t_native, t_synthetic, e_element, e_hidden;
  guint32 max = 0;

  if (!reader->have_meta || reader->nodes == NULL || reader->edges == NULL ||
      reader->node_fields == NULL || reader->edge_fields == NULL)
    return;
  nf = reader->node_fields->len;
  ef = reader->edge_fields->len;
  if (nf == 0 || ef == 0)
    return;

  {
    guint type_at = find_name (reader->node_fields, "type");
    guint name_at = find_name (reader->node_fields, "name");
    guint etype_at = find_name (reader->edge_fields, "type");
    guint ename_at = find_name (reader->edge_fields, "name_or_index");

    if (type_at == NONE || name_at == NONE || etype_at == NONE || ename_at == NONE)
      return;

    t_object = find_name (reader->node_types, "object");
    t_native = find_name (reader->node_types, "native");
    t_synthetic = find_name (reader->node_types, "synthetic");
    e_element = find_name (reader->edge_types, "element");
    e_hidden = find_name (reader->edge_types, "hidden");
    nodes = (const guint32 *) reader->nodes->data;
    edges = (const guint32 *) reader->edges->data;

    for (int pass = 0; pass < 2; pass++)
      {
        /* an index far past what the data could name is an error found
         * later; do not size anything by it */
        if (pass == 1 &&
            (guint64) max >= ((guint64) reader->nodes->len + reader->edges->len) * 4 + 65536)
          return;
        if (pass == 1)
          {
            reader->n_wanted = max + 1;
            reader->wanted = g_new0 (guint8, (gsize) max + 1);
          }
        for (guint64 i = 0; i + nf <= reader->nodes->len; i += nf)
          {
            guint32 t = nodes[i + type_at];
            guint32 s = nodes[i + name_at];

            if (t != t_object && t != t_native && t != t_synthetic)
              continue;
            if (pass == 0)
              max = MAX (max, s);
            else
              reader->wanted[s] = 1;
          }
        for (guint64 i = 0; i + ef <= reader->edges->len; i += ef)
          {
            guint32 t = edges[i + etype_at];
            guint32 s = edges[i + ename_at];

            if (t == e_element || t == e_hidden)
              continue;
            if (pass == 0)
              max = MAX (max, s);
            else
              reader->wanted[s] = 1;
          }
      }
  }
}

static gboolean
read_strings (Reader  *reader,
              GError **error)
{
  GError *local_error = NULL;
  BlJsonToken token;

  if (!expect_token (reader, BL_JSON_TOKEN_BEGIN_ARRAY,
                     C_("heap snapshot", "expected an array of strings"), error))
    return FALSE;

  g_clear_pointer (&reader->wanted, g_free);
  reader->n_wanted = 0;
  mark_wanted_strings (reader);

  g_clear_pointer (&reader->strings, g_ptr_array_unref);
  reader->strings = g_ptr_array_new_with_free_func (g_free);
  while ((token = bl_json_reader_next (reader->json, &local_error)) == BL_JSON_TOKEN_STRING)
    {
      guint index = reader->strings->len;
      gboolean keep = reader->wanted == NULL || (index < reader->n_wanted && reader->wanted[index]);

      g_ptr_array_add (reader->strings,
                       keep ? g_strdup (bl_json_reader_get_string (reader->json, NULL)) : NULL);
    }

  if (token == BL_JSON_TOKEN_ERROR)
    return json_failed (reader, local_error, error);
  if (token != BL_JSON_TOKEN_END_ARRAY)
    return fail_at (reader, error, BL_HEAPSNAPSHOT_ERROR_MALFORMED,
                    C_("heap snapshot", "expected a string"));
  reader->have_strings = TRUE;

  return TRUE;
}

static gboolean
read_document (Reader  *reader,
               GError **error)
{
  GError *local_error = NULL;
  BlJsonToken token = bl_json_reader_next (reader->json, &local_error);
  gboolean first = TRUE;

  if (token == BL_JSON_TOKEN_ERROR)
    return json_failed (reader, local_error, error);
  if (token != BL_JSON_TOKEN_BEGIN_OBJECT)
    return fail (error, BL_HEAPSNAPSHOT_ERROR_NOT_A_SNAPSHOT,
                 C_("heap snapshot", "the file is not a JSON object"));

  while ((token = bl_json_reader_next (reader->json, &local_error)) == BL_JSON_TOKEN_MEMBER)
    {
      const char *name = bl_json_reader_get_string (reader->json, NULL);
      gboolean ok;

      if (first && !g_str_equal (name, "snapshot"))
        return fail_at (reader, error, BL_HEAPSNAPSHOT_ERROR_NOT_A_SNAPSHOT,
                        _("the first member is not “snapshot”"));
      first = FALSE;

      if (g_str_equal (name, "snapshot"))
        ok = read_snapshot (reader, error);
      else if (g_str_equal (name, "nodes"))
        ok = read_numbers (reader, &reader->nodes, error);
      else if (g_str_equal (name, "edges"))
        ok = read_numbers (reader, &reader->edges, error);
      else if (g_str_equal (name, "locations"))
        ok = read_numbers (reader, &reader->locations, error);
      else if (g_str_equal (name, "strings"))
        ok = read_strings (reader, error);
      else if (!(ok = bl_json_reader_skip_value (reader->json, &local_error)))
        return json_failed (reader, local_error, error);
      if (!ok)
        return FALSE;
    }
  if (token == BL_JSON_TOKEN_ERROR)
    return json_failed (reader, local_error, error);
  if (token != BL_JSON_TOKEN_END_OBJECT)
    return fail_at (reader, error, BL_HEAPSNAPSHOT_ERROR_MALFORMED,
                    C_("heap snapshot", "expected a member"));
  if (bl_json_reader_next (reader->json, &local_error) == BL_JSON_TOKEN_ERROR)
    return json_failed (reader, local_error, error);

  return TRUE;
}

/* ---- checking ---- */

static gboolean
find_field (GPtrArray   *fields,
            const char  *what,
            const char  *name,
            guint       *at,
            GError     **error)
{
  if ((*at = find_name (fields, name)) == NONE)
    return fail (error, BL_HEAPSNAPSHOT_ERROR_MISSING,
                 /* Translators: the first %s is “node_fields” or “edge_fields”,
                  * the second a field name such as “self_size” */
                 _("snapshot.meta.%s has no “%s” field"), what, name);

  return TRUE;
}

static gboolean
check_layout (Reader  *reader,
              GError **error)
{
  const char *members[] = { "nodes", "edges", "strings" };
  gboolean present[] = { reader->nodes != NULL, reader->edges != NULL, reader->have_strings };

  if (!reader->have_meta)
    return fail (error, BL_HEAPSNAPSHOT_ERROR_MISSING, _("snapshot.meta is missing"));
  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    if (!present[i])
      return fail (error, BL_HEAPSNAPSHOT_ERROR_MISSING, _("the “%s” array is missing"),
                   members[i]);
  if (reader->node_fields == NULL || reader->edge_fields == NULL ||
      reader->node_types == NULL || reader->edge_types == NULL)
    return fail (error, BL_HEAPSNAPSHOT_ERROR_MISSING,
                 _("snapshot.meta lacks node_fields, node_types, edge_fields or edge_types"));

  if (!find_field (reader->node_fields, "node_fields", "type", &reader->node_type_at, error) ||
      !find_field (reader->node_fields, "node_fields", "name", &reader->node_name_at, error) ||
      !find_field (reader->node_fields, "node_fields", "id", &reader->node_id_at, error) ||
      !find_field (reader->node_fields, "node_fields", "self_size", &reader->node_self_at,
                   error) ||
      !find_field (reader->node_fields, "node_fields", "edge_count", &reader->node_edges_at,
                   error) ||
      !find_field (reader->edge_fields, "edge_fields", "type", &reader->edge_type_at, error) ||
      !find_field (reader->edge_fields, "edge_fields", "name_or_index", &reader->edge_name_at,
                   error) ||
      !find_field (reader->edge_fields, "edge_fields", "to_node", &reader->edge_to_at, error))
    return FALSE;
  reader->nf = reader->node_fields->len;
  reader->ef = reader->edge_fields->len;

  reader->t_hidden = find_name (reader->node_types, "hidden");
  reader->t_object = find_name (reader->node_types, "object");
  reader->t_native = find_name (reader->node_types, "native");
  reader->t_code = find_name (reader->node_types, "code");
  reader->t_synthetic = find_name (reader->node_types, "synthetic");
  reader->e_element = find_name (reader->edge_types, "element");
  reader->e_hidden = find_name (reader->edge_types, "hidden");
  reader->e_shortcut = find_name (reader->edge_types, "shortcut");
  reader->e_weak = find_name (reader->edge_types, "weak");

  if (reader->nodes->len % reader->nf != 0)
    return fail (error, BL_HEAPSNAPSHOT_ERROR_RANGE,
                 _("the nodes array has %u numbers, not a multiple of the %u node fields"),
                 reader->nodes->len, reader->nf);
  if (reader->edges->len % reader->ef != 0)
    return fail (error, BL_HEAPSNAPSHOT_ERROR_RANGE,
                 _("the edges array has %u numbers, not a multiple of the %u edge fields"),
                 reader->edges->len, reader->ef);
  if (reader->nodes->len == 0)
    return fail (error, BL_HEAPSNAPSHOT_ERROR_MISSING,
                 _("there are no nodes, not even the root"));
  if (reader->have_node_count && reader->node_count != reader->nodes->len / reader->nf)
    return fail (error, BL_HEAPSNAPSHOT_ERROR_RANGE,
                 _("snapshot.node_count is %" PRIu64 ", but the nodes array holds "
                   "%u nodes"), reader->node_count, reader->nodes->len / reader->nf);
  if (reader->have_edge_count && reader->edge_count != reader->edges->len / reader->ef)
    return fail (error, BL_HEAPSNAPSHOT_ERROR_RANGE,
                 _("snapshot.edge_count is %" PRIu64 ", but the edges array holds "
                   "%u edges"), reader->edge_count, reader->edges->len / reader->ef);

  return TRUE;
}

static const char *
string_at (Reader  *reader,
           guint32  index)
{
  const char *s = index < reader->strings->len ? g_ptr_array_index (reader->strings, index) : NULL;

  return s != NULL ? s : "";
}

/* Checks every node and edge; fills @first_edge (n + 1 entries, in edges). */
static gboolean
check_graph (Reader   *reader,
             guint32  *first_edge,
             GError  **error)
{
  const guint32 *nodes = (const guint32 *) reader->nodes->data;
  const guint32 *edges = (const guint32 *) reader->edges->data;
  guint32 n = reader->nodes->len / reader->nf;
  guint32 m = reader->edges->len / reader->ef;
  guint64 at = 0;

  for (guint32 i = 0; i < n; i++)
    {
      const guint32 *node = nodes + (gsize) i * reader->nf;

      if (node[reader->node_type_at] >= reader->node_types->len)
        return fail (error, BL_HEAPSNAPSHOT_ERROR_RANGE,
                     _("node %u has type %u, but snapshot.meta lists %u node types"),
                     i, node[reader->node_type_at], reader->node_types->len);
      if (node[reader->node_name_at] >= reader->strings->len)
        return fail (error, BL_HEAPSNAPSHOT_ERROR_RANGE,
                     _("node %u is named by string %u, but there are %u strings"),
                     i, node[reader->node_name_at], reader->strings->len);
      first_edge[i] = (guint32) at;
      at += node[reader->node_edges_at];
      if (at > m)
        return fail (error, BL_HEAPSNAPSHOT_ERROR_RANGE,
                     _("the edge counts of nodes 0 to %u add up to %" PRIu64
                       ", but there are only %u edges"), i, at, m);
    }
  first_edge[n] = (guint32) at;
  if (at != m)
    return fail (error, BL_HEAPSNAPSHOT_ERROR_RANGE,
                 _("the edge counts of the nodes add up to %" PRIu64
                   ", but there are %u edges"), at, m);

  for (guint32 e = 0; e < m; e++)
    {
      const guint32 *edge = edges + (gsize) e * reader->ef;
      guint32 type = edge[reader->edge_type_at];
      guint32 to = edge[reader->edge_to_at];

      if (type >= reader->edge_types->len)
        return fail (error, BL_HEAPSNAPSHOT_ERROR_RANGE,
                     _("edge %u has type %u, but snapshot.meta lists %u edge types"),
                     e, type, reader->edge_types->len);
      if (to % reader->nf != 0)
        return fail (error, BL_HEAPSNAPSHOT_ERROR_RANGE,
                     _("edge %u points at position %u of the nodes array, which is not "
                       "the start of a node (a multiple of %u)"), e, to, reader->nf);
      if (to / reader->nf >= n)
        return fail (error, BL_HEAPSNAPSHOT_ERROR_RANGE,
                     _("edge %u points at node %u, but there are %u nodes"),
                     e, to / reader->nf, n);
      if (type != reader->e_element && type != reader->e_hidden &&
          edge[reader->edge_name_at] >= reader->strings->len)
        return fail (error, BL_HEAPSNAPSHOT_ERROR_RANGE,
                     _("edge %u is named by string %u, but there are %u strings"),
                     e, edge[reader->edge_name_at], reader->strings->len);
    }

  return TRUE;
}

/* ---- building the heap ---- */

typedef struct
{
  Reader        *reader;
  const guint32 *nodes;
  const guint32 *edges;
  const guint32 *first_edge;
  const guint8  *page;      /* per node: a page object */
  guint32        n;
} Graph;

static inline guint32
edge_target (const Graph *g,
             guint32      e)
{
  return g->edges[(gsize) e * g->reader->ef + g->reader->edge_to_at] / g->reader->nf;
}

static inline guint32
edge_type (const Graph *g,
           guint32      e)
{
  return g->edges[(gsize) e * g->reader->ef + g->reader->edge_type_at];
}

/* Whether DevTools follows edge @e of node @from for dominators. */
static inline gboolean
is_essential (const Graph *g,
              guint32      from,
              guint32      e)
{
  guint32 type = edge_type (g, e);

  if (type == g->reader->e_weak)
    return FALSE;
  if (type == g->reader->e_shortcut && from != 0)
    return FALSE;
  if (from != 0 && g->page[edge_target (g, e)] && !g->page[from])
    return FALSE;

  return TRUE;
}

/* The page objects: what the root's shortcut edges (the user's global
 * objects) and a "(Document DOM trees)" root reach without weak edges. */
static guint8 *
mark_page_objects (const Graph *g)
{
  Reader *reader = g->reader;
  guint8 *page = g_new0 (guint8, g->n);
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 e = g->first_edge[0]; e < g->first_edge[1]; e++)
    {
      guint32 type = edge_type (g, e);
      guint32 to = edge_target (g, e);

      if (type == reader->e_element)
        {
          const guint32 *node = g->nodes + (gsize) to * reader->nf;

          if (node[reader->node_type_at] != reader->t_synthetic ||
              strcmp (string_at (reader, node[reader->node_name_at]),
                      "(Document DOM trees)") != 0)
            continue;
        }
      else if (type != reader->e_shortcut)
        continue;
      if (!page[to])
        {
          page[to] = 1;
          g_array_append_val (stack, to);
        }
    }

  while (stack->len > 0)
    {
      guint32 v = g_array_index (stack, guint32, stack->len - 1);

      g_array_set_size (stack, stack->len - 1);
      for (guint32 e = g->first_edge[v]; e < g->first_edge[v + 1]; e++)
        {
          guint32 w = edge_target (g, e);

          if (page[w] || edge_type (g, e) == reader->e_weak)
            continue;
          page[w] = 1;
          g_array_append_val (stack, w);
        }
    }

  return page;
}

/* Marks in @seen what @start reaches over essential edges. */
static void
walk (const Graph *g,
      guint32      start,
      guint8      *seen,
      GArray      *stack)
{
  if (seen[start])
    return;
  seen[start] = 1;
  g_array_append_val (stack, start);
  while (stack->len > 0)
    {
      guint32 v = g_array_index (stack, guint32, stack->len - 1);

      g_array_set_size (stack, stack->len - 1);
      for (guint32 e = g->first_edge[v]; e < g->first_edge[v + 1]; e++)
        {
          guint32 w = edge_target (g, e);

          if (seen[w] || !is_essential (g, v, e))
            continue;
          seen[w] = 1;
          g_array_append_val (stack, w);
        }
    }
}

/* DevTools' class name of node @i */
static char *
class_name (Reader        *reader,
            const guint32 *node)
{
  guint32 type = node[reader->node_type_at];

  if (type == reader->t_object || type == reader->t_native)
    return g_strdup (string_at (reader, node[reader->node_name_at]));
  if (type == reader->t_hidden)
    return g_strdup ("(system)");
  if (type == reader->t_code)
    return g_strdup ("(compiled code)");

  return g_strdup_printf ("(%s)", (const char *) g_ptr_array_index (reader->node_types, type));
}

static BlHeap *
build_heap (Reader  *reader,
            GError **error)
{
  g_autoptr(BlHeap) heap = NULL;
  g_autoptr(GHashTable) type_ids = NULL;    /* class name → type + 1 */
  g_autoptr(GArray) stack = NULL;
  g_autofree guint32 *first_edge = NULL;
  g_autofree guint32 *string_type = NULL;   /* string index → type, for object names */
  g_autofree guint32 *node_type = NULL;     /* node type → type, for the others */
  g_autofree guint32 *string_field = NULL;  /* string index → field */
  g_autofree guint32 *index_field = NULL;   /* element index → field, small ones */
  g_autofree guint8 *page = NULL;
  g_autofree guint8 *seen = NULL;
  g_autofree guint8 *hang = NULL;
  Graph g;
  guint32 n, m, weakly_held, unreachable;

  n = reader->nodes->len / reader->nf;
  m = reader->edges->len / reader->ef;
  first_edge = g_new (guint32, (gsize) n + 1);
  if (!check_graph (reader, first_edge, error))
    return NULL;

  g.reader = reader;
  g.nodes = (const guint32 *) reader->nodes->data;
  g.edges = (const guint32 *) reader->edges->data;
  g.first_edge = first_edge;
  g.n = n;
  g.page = page = mark_page_objects (&g);

  /* what the root does not reach will hang from it, as in DevTools: first
   * the objects held only by weak or shortcut edges and what they reach
   * (hang 1), then whatever is left (hang 2) */
  seen = g_new0 (guint8, n);
  stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  walk (&g, 0, seen, stack);
  hang = g_new0 (guint8, n);
  for (guint32 e = 0; e < m; e++)
    {
      guint32 type = edge_type (&g, e);

      if (type != reader->e_weak && type != reader->e_shortcut)
        hang[edge_target (&g, e)] = 3;   /* strongly held */
    }
  for (guint32 i = 0; i < n; i++)
    {
      gboolean weakly = !seen[i] && hang[i] != 3;

      hang[i] = 0;
      if (weakly)
        {
          hang[i] = 1;
          walk (&g, i, seen, stack);
        }
    }
  for (guint32 i = 0; i < n; i++)
    if (!seen[i])
      hang[i] = 2;
  g_clear_pointer (&seen, g_free);

  heap = bl_heap_new ();
  type_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  string_type = g_new (guint32, MAX (reader->strings->len, 1));
  memset (string_type, 0xff, sizeof (guint32) * MAX (reader->strings->len, 1));
  node_type = g_new (guint32, reader->node_types->len);
  memset (node_type, 0xff, sizeof (guint32) * reader->node_types->len);
  string_field = g_new (guint32, MAX (reader->strings->len, 1));
  memset (string_field, 0xff, sizeof (guint32) * MAX (reader->strings->len, 1));
  index_field = g_new (guint32, N_CACHED_INDEXES);
  memset (index_field, 0xff, sizeof (guint32) * N_CACHED_INDEXES);

  /* objects: node i is object i */
  for (guint32 i = 0; i < n; i++)
    {
      const guint32 *node = g.nodes + (gsize) i * reader->nf;
      guint32 type = node[reader->node_type_at];
      gboolean named = type == reader->t_object || type == reader->t_native;
      guint32 *cached = named ? &string_type[node[reader->node_name_at]] : &node_type[type];
      guint32 object;

      if (*cached == NONE)
        {
          char *name = class_name (reader, node);
          gpointer found = g_hash_table_lookup (type_ids, name);

          if (found == NULL)
            {
              found = GUINT_TO_POINTER (bl_heap_add_type (heap, name) + 1);
              g_hash_table_insert (type_ids, name, found);
            }
          else
            g_free (name);
          *cached = GPOINTER_TO_UINT (found) - 1;
        }
      object = bl_heap_add_object (heap, *cached, node[reader->node_self_at]);
      bl_heap_set_object_id (heap, object, node[reader->node_id_at]);
    }
  /* the nodes are in the heap: give their memory back before the
   * references are (g.nodes is not used any more) */
  reader->n_nodes = n;
  g_clear_pointer (&reader->nodes, g_array_unref);
  g.nodes = NULL;

  /* references: the essential edges, in file order (weak edges, shortcut
   * edges off the root and edges into page objects from outside are not
   * given to the heap: see the top of the file) */
  for (guint32 v = 0; v < n; v++)
    for (guint32 e = first_edge[v]; e < first_edge[v + 1]; e++)
      {
        const guint32 *edge = g.edges + (gsize) e * reader->ef;
        guint32 type = edge[reader->edge_type_at];
        guint32 name = edge[reader->edge_name_at];
        guint32 field;

        if (!is_essential (&g, v, e))
          continue;
        if (type == reader->e_element || type == reader->e_hidden)
          {
            if (name < N_CACHED_INDEXES && index_field[name] != NONE)
              field = index_field[name];
            else
              {
                char text[16];

                g_snprintf (text, sizeof text, "[%u]", name);
                field = bl_heap_intern_field (heap, text);
                if (name < N_CACHED_INDEXES)
                  index_field[name] = field;
              }
          }
        else
          {
            if (string_field[name] == NONE)
              string_field[name] = bl_heap_intern_field (heap, string_at (reader, name));
            field = string_field[name];
          }
        bl_heap_add_reference (heap, v, field, edge[reader->edge_to_at] / reader->nf);
      }

  weakly_held = bl_heap_intern_field (heap, "(weakly held)");
  unreachable = bl_heap_intern_field (heap, "(unreachable)");
  for (guint32 i = 0; i < n; i++)
    if (hang[i] != 0)
      bl_heap_add_reference (heap, 0, hang[i] == 1 ? weakly_held : unreachable, i);
  bl_heap_add_root (heap, 0);

  return g_steal_pointer (&heap);
}

static BlProfile *
read_all (Reader  *reader,
          GError **error)
{
  g_autoptr(BlProfile) profile = NULL;
  BlProfileInfo *info;
  BlHeap *heap;
  guint32 n_nodes, n_edges, n_strings;

  if (!read_document (reader, error) || !check_layout (reader, error))
    return NULL;

  if (!(heap = build_heap (reader, error)))
    return NULL;
  n_nodes = reader->n_nodes;
  n_edges = reader->edges->len / reader->ef;
  n_strings = reader->strings->len;

  /* the flat arrays are not needed any more: give their memory back
   * before the dominators are computed */
  g_clear_pointer (&reader->edges, g_array_unref);
  g_clear_pointer (&reader->strings, g_ptr_array_unref);
  bl_heap_finish (heap);

  profile = bl_profile_new ("heapsnapshot");
  info = bl_profile_get_info_mutable (profile);
  g_free (info->supplemental);
  /* Translators: what a V8 heap snapshot holds */
  info->supplemental = g_strdup_printf (_("V8 heap snapshot: %u nodes, %u edges, %u strings, "
                                          "%u locations"),
                                        n_nodes, n_edges, n_strings,
                                        reader->locations != NULL &&
                                        reader->location_fields != NULL &&
                                        reader->location_fields->len > 0
                                          ? reader->locations->len /
                                            reader->location_fields->len
                                          : 0);
  bl_profile_add_heap (profile, heap, NULL);
  bl_profile_finish (profile);

  return g_steal_pointer (&profile);
}

/**
 * bl_heapsnapshot_detect:
 *
 * Returns: whether @head starts a JSON object whose first member is
 *   "snapshot", an object whose first member is "meta"
 */
gboolean
bl_heapsnapshot_detect (const guint8 *head,
                        gsize         len)
{
  gsize skip = len >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF ? 3 : 0;
  g_autoptr(BlJsonReader) json = bl_json_reader_new_for_data (head + skip, len - skip);

  return bl_json_reader_next (json, NULL) == BL_JSON_TOKEN_BEGIN_OBJECT &&
         bl_json_reader_next (json, NULL) == BL_JSON_TOKEN_MEMBER &&
         g_str_equal (bl_json_reader_get_string (json, NULL), "snapshot") &&
         bl_json_reader_next (json, NULL) == BL_JSON_TOKEN_BEGIN_OBJECT &&
         bl_json_reader_next (json, NULL) == BL_JSON_TOKEN_MEMBER &&
         g_str_equal (bl_json_reader_get_string (json, NULL), "meta");
}

/**
 * bl_heapsnapshot_read_stream:
 * @total: the size of the input, for progress, or 0
 *
 * Returns: (transfer full): a profile carrying one heap, or %NULL with
 *   @error set
 */
BlProfile *
bl_heapsnapshot_read_stream (GInputStream   *stream,
                             guint64         total,
                             BlProgressFunc  progress,
                             gpointer        progress_data,
                             GCancellable   *cancellable,
                             GError        **error)
{
  Reader reader = { 0 };
  BlProfile *profile;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);

  reader.json = bl_json_reader_new_for_stream (stream, total, cancellable, progress,
                                               progress_data);
  profile = read_all (&reader, error);
  reader_clear (&reader);

  return profile;
}

/**
 * bl_heapsnapshot_read_memory:
 *
 * Returns: (transfer full): a profile carrying one heap, or %NULL with
 *   @error set
 */
BlProfile *
bl_heapsnapshot_read_memory (const guint8  *data,
                             gsize          len,
                             GError       **error)
{
  Reader reader = { 0 };
  BlProfile *profile;

  reader.json = bl_json_reader_new_for_data (data, len);
  profile = read_all (&reader, error);
  reader_clear (&reader);

  return profile;
}
