/* test-heapsnapshot.c — V8 heap snapshots: class names, self and retained
 * sizes as Chrome DevTools computes them, member orders, a real snapshot
 * from Node.js, hostile inputs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-format.h"
#include "bl-heap.h"
#include "bl-heapsnapshot-reader.h"
#include "bl-heapsnapshot-writer.h"
#include "bl-profile.h"

static BlProfile *
read_ok (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  BlProfile *profile = bl_heapsnapshot_read_memory (g_bytes_get_data (bytes, NULL),
                                                    g_bytes_get_size (bytes), &error);

  g_assert_no_error (error);
  g_assert_nonnull (profile);
  g_assert_cmpuint (bl_profile_get_n_heaps (profile), ==, 1);

  return profile;
}

static GError *
read_fails (const char *text)
{
  GError *error = NULL;
  BlProfile *profile = bl_heapsnapshot_read_memory ((const guint8 *) text, strlen (text), &error);

  g_assert_null (profile);
  g_assert_nonnull (error);

  return error;
}

static guint32
find_type (BlHeap     *heap,
           const char *name)
{
  for (guint32 t = 0; t < bl_heap_get_n_types (heap); t++)
    if (g_str_equal (bl_heap_get_type_name (heap, t), name))
      return t;

  return BL_HEAP_NONE;
}

/* a reference of @from to @to named @field */
static gboolean
has_reference (BlHeap     *heap,
               guint32     from,
               const char *field,
               guint32     to)
{
  const guint32 *fields, *targets;
  guint32 n = bl_heap_get_n_references (heap, from, &fields, &targets);

  for (guint32 i = 0; i < n; i++)
    if (targets[i] == to && g_str_equal (bl_heap_get_field_name (heap, fields[i]), field))
      return TRUE;

  return FALSE;
}

/* Every node type gets DevTools' class name; ids, self sizes and field
 * names come through. */
static void
test_class_names (void)
{
  g_autoptr(BlHsWriter) w = bl_hsw_new ();
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const struct { const char *type, *name, *klass; } nodes[] = {
    { "synthetic", "", "(synthetic)" },
    { "object", "Window / http://x", "Window / http://x" },
    { "object", "Foo", "Foo" },
    { "native", "HTMLDivElement", "HTMLDivElement" },
    { "closure", "run", "(closure)" },
    { "array", "", "(array)" },
    { "string", "hello", "(string)" },
    { "concatenated string", "ab", "(concatenated string)" },
    { "sliced string", "b", "(sliced string)" },
    { "code", "(code)", "(compiled code)" },
    { "hidden", "system / Context", "(system)" },
    { "number", "heap number", "(number)" },
    { "regexp", "a+", "(regexp)" },
    { "object shape", "system / Map", "(object shape)" },
    { "symbol", "s", "(symbol)" },
    { "bigint", "1n", "(bigint)" },
    { "object", "Foo", "Foo" },
  };
  BlHeap *heap;

  for (guint i = 0; i < G_N_ELEMENTS (nodes); i++)
    bl_hsw_node (w, nodes[i].type, nodes[i].name, 1 + 2 * i, 10 * i);
  for (guint i = 1; i < G_N_ELEMENTS (nodes); i++)
    bl_hsw_edge (w, 0, "element", NULL, i, i);
  bl_hsw_edge (w, 2, "property", "next", 0, 16);
  bl_hsw_edge (w, 4, "context", "x", 0, 10);
  bl_hsw_edge (w, 5, "element", NULL, 7, 6);
  bl_hsw_edge (w, 5, "hidden", NULL, 2, 11);
  bl_hsw_edge (w, 7, "internal", "first", 0, 6);
  bytes = bl_hsw_to_bytes (w, BL_HS_ORDER_V8);

  profile = read_ok (bytes);
  heap = bl_profile_get_heap (profile, 0);
  g_assert_cmpstr (bl_profile_get_info (profile)->format, ==, "heapsnapshot");
  g_assert_cmpuint (bl_heap_get_n_objects (heap), ==, G_N_ELEMENTS (nodes));
  for (guint i = 0; i < G_N_ELEMENTS (nodes); i++)
    {
      g_assert_cmpstr (bl_heap_get_type_name (heap, bl_heap_get_object_type (heap, i)), ==,
                       nodes[i].klass);
      g_assert_cmpuint (bl_heap_get_self_size (heap, i), ==, 10 * i);
      g_assert_cmpuint (bl_heap_get_object_id (heap, i), ==, 1 + 2 * i);
    }
  /* the two Foo objects share one type */
  g_assert_cmpuint (bl_heap_get_object_type (heap, 2), ==, bl_heap_get_object_type (heap, 16));
  g_assert_true (has_reference (heap, 2, "next", 16));
  g_assert_true (has_reference (heap, 4, "x", 10));
  g_assert_true (has_reference (heap, 5, "[7]", 6));
  g_assert_true (has_reference (heap, 5, "[2]", 11));
  g_assert_true (has_reference (heap, 7, "first", 6));
  g_assert_true (has_reference (heap, 0, "[3]", 3));
  g_assert_cmpuint (bl_heap_get_n_leaked (heap), ==, 0);
  g_assert_cmpuint (bl_heap_get_total_bytes (heap), ==, 10 * (16 * 17 / 2));
  g_assert_nonnull (strstr (bl_profile_get_info (profile)->supplemental, "17 nodes"));
}

/* root → (shortcut) global; global.a → Foo(100); Foo.x → Bar(10);
 * global.c → Baz(5); Baz weakly → Bar; Bar.d → Leaf(1); Leaf weakly → Foo:
 * weak edges never retain. */
static GBytes *
write_weak_graph (BlHsOrder order,
                  gboolean  baz_holds_bar)
{
  g_autoptr(BlHsWriter) w = bl_hsw_new ();
  guint32 root = bl_hsw_node (w, "synthetic", "", 1, 0);
  guint32 global = bl_hsw_node (w, "object", "global", 3, 20);
  guint32 foo = bl_hsw_node (w, "object", "Foo", 5, 100);
  guint32 bar = bl_hsw_node (w, "object", "Bar", 7, 10);
  guint32 baz = bl_hsw_node (w, "object", "Baz", 9, 5);
  guint32 leaf = bl_hsw_node (w, "array", "", 11, 1);

  bl_hsw_edge (w, root, "shortcut", "global", 0, global);
  bl_hsw_edge (w, global, "property", "a", 0, foo);
  bl_hsw_edge (w, global, "property", "c", 0, baz);
  bl_hsw_edge (w, foo, "property", "x", 0, bar);
  bl_hsw_edge (w, baz, "weak", "w", 0, bar);
  if (baz_holds_bar)
    bl_hsw_edge (w, baz, "property", "y", 0, bar);
  bl_hsw_edge (w, bar, "property", "d", 0, leaf);
  bl_hsw_edge (w, leaf, "weak", "back", 0, foo);

  return bl_hsw_to_bytes (w, order);
}

static void
test_weak_edges (void)
{
  for (guint variant = 0; variant < 3; variant++)
    {
      g_autoptr(GBytes) bytes = write_weak_graph (variant == 1 ? BL_HS_ORDER_STRINGS_FIRST
                                                                : BL_HS_ORDER_V8,
                                                  variant == 2);
      g_autoptr(BlProfile) profile = read_ok (bytes);
      BlHeap *heap = bl_profile_get_heap (profile, 0);
      guint64 count, self_bytes, retained;

      g_assert_cmpuint (bl_heap_get_total_bytes (heap), ==, 136);
      g_assert_cmpuint (bl_heap_get_retained (heap, 0), ==, 136);
      g_assert_cmpuint (bl_heap_get_retained (heap, 1), ==, 136);
      g_assert_cmpuint (bl_heap_get_idom (heap, 1), ==, 0);
      /* weak edges are not in the heap at all */
      g_assert_false (has_reference (heap, 4, "w", 3));
      g_assert_false (has_reference (heap, 5, "back", 2));
      g_assert_true (has_reference (heap, 0, "global", 1));
      if (variant < 2)
        {
          /* Baz's weak reference does not keep Bar: Foo retains Bar and Leaf */
          g_assert_cmpuint (bl_heap_get_idom (heap, 3), ==, 2);
          g_assert_cmpuint (bl_heap_get_retained (heap, 2), ==, 111);
          g_assert_cmpuint (bl_heap_get_retained (heap, 3), ==, 11);
          g_assert_cmpuint (bl_heap_get_retained (heap, 4), ==, 5);
        }
      else
        {
          /* a strong second path: global dominates Bar */
          g_assert_cmpuint (bl_heap_get_idom (heap, 3), ==, 1);
          g_assert_cmpuint (bl_heap_get_retained (heap, 2), ==, 100);
          g_assert_cmpuint (bl_heap_get_retained (heap, 3), ==, 11);
        }
      bl_heap_get_type_totals (heap, find_type (heap, "(array)"), &count, &self_bytes, &retained);
      g_assert_cmpuint (count, ==, 1);
      g_assert_cmpuint (self_bytes, ==, 1);
      g_assert_cmpuint (retained, ==, 1);
    }
}

/* DevTools' other rules: (GC roots) → X does not take X's dominator from the
 * page's global object; a shortcut edge off the root does not retain;
 * objects held only weakly hang from the root, and so do unreachable
 * cycles, each retaining its own size. */
static void
test_devtools_rules (void)
{
  g_autoptr(BlHsWriter) w = bl_hsw_new ();
  guint32 root = bl_hsw_node (w, "synthetic", "", 1, 0);
  guint32 gc = bl_hsw_node (w, "synthetic", "(GC roots)", 3, 0);
  guint32 global = bl_hsw_node (w, "object", "Window", 5, 10);
  guint32 x = bl_hsw_node (w, "object", "X", 7, 100);
  guint32 handle = bl_hsw_node (w, "hidden", "system / Handle", 9, 1);
  guint32 y = bl_hsw_node (w, "object", "Y", 11, 1000);
  guint32 y_child = bl_hsw_node (w, "string", "s", 13, 7);
  guint32 a = bl_hsw_node (w, "object", "A", 15, 30);
  guint32 b = bl_hsw_node (w, "object", "B", 17, 40);
  guint32 c = bl_hsw_node (w, "object", "C", 19, 50);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  BlHeap *heap;

  bl_hsw_edge (w, root, "element", NULL, 1, gc);
  bl_hsw_edge (w, root, "shortcut", "Window", 0, global);
  bl_hsw_edge (w, gc, "element", NULL, 1, handle);
  bl_hsw_edge (w, handle, "internal", "target", 0, x);   /* non-page → page: ignored */
  bl_hsw_edge (w, global, "property", "x", 0, x);
  bl_hsw_edge (w, handle, "shortcut", "s", 0, y);        /* shortcut off the root */
  bl_hsw_edge (w, global, "weak", "y", 0, y);
  bl_hsw_edge (w, y, "property", "name", 0, y_child);
  bl_hsw_edge (w, a, "property", "b", 0, b);              /* an unreachable cycle */
  bl_hsw_edge (w, b, "property", "a", 0, a);
  bl_hsw_edge (w, b, "property", "c", 0, c);
  bytes = bl_hsw_to_bytes (w, BL_HS_ORDER_V8);
  profile = read_ok (bytes);
  heap = bl_profile_get_heap (profile, 0);

  g_assert_cmpuint (bl_heap_get_idom (heap, x), ==, global);
  g_assert_cmpuint (bl_heap_get_retained (heap, global), ==, 110);
  g_assert_false (has_reference (heap, handle, "target", x));
  g_assert_cmpuint (bl_heap_get_retained (heap, gc), ==, 1);
  /* Y: held by a weak edge and a shortcut off the root only */
  g_assert_true (has_reference (heap, root, "(weakly held)", y));
  g_assert_cmpuint (bl_heap_get_idom (heap, y), ==, root);
  g_assert_cmpuint (bl_heap_get_retained (heap, y), ==, 1007);
  /* A, B, C: strongly held, but only by each other */
  g_assert_true (has_reference (heap, root, "(unreachable)", a));
  g_assert_cmpuint (bl_heap_get_idom (heap, a), ==, root);
  g_assert_cmpuint (bl_heap_get_idom (heap, b), ==, root);
  g_assert_cmpuint (bl_heap_get_idom (heap, c), ==, root);
  g_assert_cmpuint (bl_heap_get_retained (heap, a), ==, 30);
  g_assert_cmpuint (bl_heap_get_retained (heap, b), ==, 40);
  g_assert_cmpuint (bl_heap_get_retained (heap, root), ==, 1238);
  g_assert_cmpuint (bl_heap_get_total_bytes (heap), ==, 1238);
  for (guint32 i = 0; i < bl_heap_get_n_objects (heap); i++)
    g_assert_true (bl_heap_is_reachable (heap, i));
}

/* a chain and a ring of 200,000 objects: no recursion, exact sums */
static void
test_long_chain (void)
{
  g_autoptr(BlHsWriter) w = bl_hsw_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  guint32 n = 200000;
  BlHeap *heap;

  bl_hsw_node (w, "synthetic", "", 1, 0);
  for (guint32 i = 1; i <= n; i++)
    {
      bl_hsw_node (w, "object", "Link", 2 * i + 1, 2);
      bl_hsw_edge (w, i - 1, "property", "next", 0, i);
    }
  bl_hsw_edge (w, n, "property", "first", 0, 1);   /* a ring back to the first link */
  bytes = bl_hsw_to_bytes (w, BL_HS_ORDER_V8);
  profile = read_ok (bytes);
  heap = bl_profile_get_heap (profile, 0);
  g_assert_cmpuint (bl_heap_get_retained (heap, 1), ==, 2 * n);
  g_assert_cmpuint (bl_heap_get_retained (heap, n), ==, 2);
  g_assert_cmpuint (bl_heap_get_idom (heap, n), ==, n - 1);
}

static void
test_detect (void)
{
  g_autoptr(BlHsWriter) w = bl_hsw_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GObject) loaded = NULL;
  g_autoptr(GError) error = NULL;
  const char *speedscope = "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\"}";
  const char *other = "{\"meta\":{\"snapshot\":1}}";
  gsize len;
  const guint8 *data;

  bl_hsw_node (w, "synthetic", "", 1, 0);
  bytes = bl_hsw_to_bytes (w, BL_HS_ORDER_V8);
  data = g_bytes_get_data (bytes, &len);
  g_assert_cmpint (bl_format_detect (data, len, TRUE), ==, BL_FORMAT_HEAPSNAPSHOT);
  /* the first 30 bytes are enough */
  g_assert_cmpint (bl_format_detect (data, 30, FALSE), ==, BL_FORMAT_HEAPSNAPSHOT);
  g_assert_cmpint (bl_format_detect ((const guint8 *) speedscope, strlen (speedscope), TRUE), ==,
                   BL_FORMAT_SPEEDSCOPE);
  g_assert_cmpint (bl_format_detect ((const guint8 *) other, strlen (other), TRUE), ==,
                   BL_FORMAT_UNKNOWN);
  g_assert_cmpstr (bl_format_kind_get_name (BL_FORMAT_HEAPSNAPSHOT), ==, "heapsnapshot");

  loaded = bl_format_load_bytes (bytes, &error);
  g_assert_no_error (error);
  g_assert_true (BL_IS_PROFILE (loaded));
  g_assert_cmpuint (bl_profile_get_n_heaps (BL_PROFILE (loaded)), ==, 1);
}

/* figures of node20-small.heapsnapshot.gz from tools/heapsnapshot-check.py */
#define NODE_OBJECTS        41306
#define NODE_BYTES          3003883
#define NODE_TOP1_ID        6047      /* global */
#define NODE_TOP1_RETAINED  2486963
#define NODE_TOP2_ID        3         /* (GC roots) */
#define NODE_TOP2_RETAINED  501178
#define NODE_LEAKY_COUNT    21
#define NODE_LEAKY_SELF     672
#define NODE_LEAKY_RETAINED 74400

/* A snapshot Node.js 20 wrote (see tests/data-files/heapsnapshot/README.md): figures checked
 * against tools/heapsnapshot-check.py, an independent implementation of
 * DevTools' rules. */
static void
test_node_snapshot (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data-files", "heapsnapshot",
                                                 "node20-small.heapsnapshot.gz", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) loaded = bl_format_load_file (file, NULL, NULL, NULL, &error);
  g_autofree guint32 *top = NULL;
  guint n_top;
  BlHeap *heap;
  guint64 count, self_bytes, retained;

  g_assert_no_error (error);
  heap = bl_profile_get_heap (BL_PROFILE (loaded), 0);
  g_assert_cmpuint (bl_heap_get_n_objects (heap), ==, NODE_OBJECTS);
  g_assert_cmpuint (bl_heap_get_total_bytes (heap), ==, NODE_BYTES);
  g_assert_cmpuint (bl_heap_get_retained (heap, 0), ==, NODE_BYTES);
  top = bl_heap_top_retained (heap, 3, &n_top);
  g_assert_cmpuint (n_top, ==, 3);
  g_assert_cmpuint (bl_heap_get_object_id (heap, top[1]), ==, NODE_TOP1_ID);
  g_assert_cmpuint (bl_heap_get_retained (heap, top[1]), ==, NODE_TOP1_RETAINED);
  g_assert_cmpuint (bl_heap_get_object_id (heap, top[2]), ==, NODE_TOP2_ID);
  g_assert_cmpuint (bl_heap_get_retained (heap, top[2]), ==, NODE_TOP2_RETAINED);
  bl_heap_get_type_totals (heap, find_type (heap, "Leaky"), &count, &self_bytes, &retained);
  g_assert_cmpuint (count, ==, NODE_LEAKY_COUNT);
  g_assert_cmpuint (self_bytes, ==, NODE_LEAKY_SELF);
  g_assert_cmpuint (retained, ==, NODE_LEAKY_RETAINED);
}

/* ---- hostile ---- */

#define META "{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"name\",\"id\",\"self_size\"," \
             "\"edge_count\"],\"node_types\":[[\"hidden\",\"object\",\"synthetic\"],\"string\"]," \
             "\"edge_fields\":[\"type\",\"name_or_index\",\"to_node\"],\"edge_types\":" \
             "[[\"element\",\"property\",\"weak\"],\"string_or_number\",\"node\"]}"

static void
expect_error (const char *text,
              int         code,
              const char *words)
{
  g_autoptr(GError) error = read_fails (text);

  if (g_test_verbose ())
    g_printerr ("%s\n", error->message);
  g_assert_error (error, BL_HEAPSNAPSHOT_ERROR, code);
  g_assert_nonnull (strstr (error->message, words));
  /* one sentence */
  g_assert_null (strchr (error->message, '\n'));
}

static void
test_hostile (void)
{
  /* a well-formed two-node snapshot, for contrast */
  {
    const char *good = META "},\"nodes\":[2,0,1,0,1,1,1,3,8,0],\"edges\":[1,1,5],"
                       "\"strings\":[\"\",\"Foo\"]}";
    g_autoptr(BlProfile) profile = NULL;
    g_autoptr(GError) error = NULL;

    profile = bl_heapsnapshot_read_memory ((const guint8 *) good, strlen (good), &error);
    g_assert_no_error (error);
    g_assert_cmpuint (bl_heap_get_retained (bl_profile_get_heap (profile, 0), 0), ==, 8);
  }

  expect_error (META "},\"nodes\":[2,0,1,0,1,1,1,3,8,0],\"edges\":[1,1,10],"
                "\"strings\":[\"\",\"Foo\"]}", BL_HEAPSNAPSHOT_ERROR_RANGE,
                "points at node 2, but there are 2 nodes");
  expect_error (META "},\"nodes\":[2,0,1,0,1,1,1,3,8,0],\"edges\":[1,1,3],"
                "\"strings\":[\"\",\"Foo\"]}", BL_HEAPSNAPSHOT_ERROR_RANGE,
                "not the start of a node");
  expect_error (META "},\"nodes\":[2,0,1,0,2,1,1,3,8,0],\"edges\":[1,1,5],"
                "\"strings\":[\"\",\"Foo\"]}", BL_HEAPSNAPSHOT_ERROR_RANGE,
                "add up to 2, but there are only 1 edges");
  expect_error (META "},\"nodes\":[2,0,1,0,1,1,1,3,8,4000000000],\"edges\":[1,1,5],"
                "\"strings\":[\"\",\"Foo\"]}", BL_HEAPSNAPSHOT_ERROR_RANGE, "but there are only");
  expect_error (META "},\"nodes\":[2,0,1,0,0,1,1,3,8,0],\"edges\":[1,1,5],"
                "\"strings\":[\"\",\"Foo\"]}", BL_HEAPSNAPSHOT_ERROR_RANGE,
                "add up to 0, but there are 1 edges");
  expect_error (META "},\"nodes\":[2,0,1,0,1,1,7,3,8,0],\"edges\":[1,1,5],"
                "\"strings\":[\"\",\"Foo\"]}", BL_HEAPSNAPSHOT_ERROR_RANGE,
                "node 1 is named by string 7, but there are 2 strings");
  /* a name far past any table, strings last: refused without sizing
   * anything by it */
  expect_error (META "},\"nodes\":[2,0,1,0,1,1,4000000000,3,8,0],\"edges\":[1,1,5],"
                "\"strings\":[\"\",\"Foo\"]}", BL_HEAPSNAPSHOT_ERROR_RANGE,
                "node 1 is named by string 4000000000, but there are 2 strings");
  expect_error (META "},\"nodes\":[2,0,1,0,1,1,1,3,8,0],\"edges\":[1,9,5],"
                "\"strings\":[\"\",\"Foo\"]}", BL_HEAPSNAPSHOT_ERROR_RANGE,
                "edge 0 is named by string 9");
  expect_error (META "},\"nodes\":[2,0,1,0,1,3,1,3,8,0],\"edges\":[1,1,5],"
                "\"strings\":[\"\",\"Foo\"]}", BL_HEAPSNAPSHOT_ERROR_RANGE,
                "node 1 has type 3");
  expect_error (META "},\"nodes\":[2,0,1,0,1,1,1,3,8,0],\"edges\":[5,1,5],"
                "\"strings\":[\"\",\"Foo\"]}", BL_HEAPSNAPSHOT_ERROR_RANGE, "edge 0 has type 5");
  expect_error (META "},\"nodes\":[2,0,1,0,1,1,1,3,8],\"edges\":[1,1,5],"
                "\"strings\":[\"\",\"Foo\"]}", BL_HEAPSNAPSHOT_ERROR_RANGE,
                "not a multiple of the 5 node fields");
  expect_error (META "},\"nodes\":[2,0,1,0,1,1,1,3,8,0],\"edges\":[1,1,5,0],"
                "\"strings\":[\"\",\"Foo\"]}", BL_HEAPSNAPSHOT_ERROR_RANGE,
                "not a multiple of the 3 edge fields");
  expect_error (META "},\"nodes\":[2,0,1,0,1,1,1,3,99999999999,0],\"edges\":[1,1,5],"
                "\"strings\":[\"\",\"Foo\"]}", BL_HEAPSNAPSHOT_ERROR_RANGE,
                "larger than 4294967295");
  /* ten million nodes claimed, two present: nothing is sized by the claim */
  expect_error (META ",\"node_count\":10000000,\"edge_count\":10000000},"
                "\"nodes\":[2,0,1,0,1,1,1,3,8,0],\"edges\":[1,1,5],\"strings\":[\"\",\"Foo\"]}",
                BL_HEAPSNAPSHOT_ERROR_RANGE, "node_count is 10000000");
  expect_error (META "},\"nodes\":[],\"edges\":[],\"strings\":[]}",
                BL_HEAPSNAPSHOT_ERROR_MISSING, "no nodes");
  expect_error (META "},\"nodes\":[2,0,1,0,0],\"edges\":[]}",
                BL_HEAPSNAPSHOT_ERROR_MISSING, "“strings” array is missing");
  expect_error ("{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"name\",\"id\"],"
                "\"node_types\":[[\"object\"]],\"edge_fields\":[\"type\",\"name_or_index\","
                "\"to_node\"],\"edge_types\":[[\"element\"]]}},\"nodes\":[],\"edges\":[],"
                "\"strings\":[]}", BL_HEAPSNAPSHOT_ERROR_MISSING, "no “self_size” field");
  expect_error ("{\"snapshot\":{},\"nodes\":[0]}", BL_HEAPSNAPSHOT_ERROR_MISSING,
                "snapshot.meta is missing");
  expect_error ("{\"nodes\":[0],\"snapshot\":{}}", BL_HEAPSNAPSHOT_ERROR_NOT_A_SNAPSHOT,
                "first member");
  expect_error (META "},\"nodes\":[2,0,1,0,\"x\"],\"edges\":[],\"strings\":[\"\"]}",
                BL_HEAPSNAPSHOT_ERROR_MALFORMED, "expected a whole number");
  expect_error (META "},\"nodes\":{},\"edges\":[],\"strings\":[\"\"]}",
                BL_HEAPSNAPSHOT_ERROR_MALFORMED, "expected an array of numbers");
}

/* every cut of a snapshot is refused in one sentence, never read in part */
static void
test_truncated (void)
{
  g_autoptr(GBytes) bytes = write_weak_graph (BL_HS_ORDER_V8, TRUE);
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  /* the last byte is the newline after the document */
  for (gsize cut = 0; cut + 1 < len; cut++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlProfile) profile = NULL;

      profile = bl_heapsnapshot_read_memory ((const guint8 *) data, cut, &error);
      g_assert_null (profile);
      g_assert_nonnull (error);
      if (cut > 0)
        {
          g_assert_error (error, BL_HEAPSNAPSHOT_ERROR, BL_HEAPSNAPSHOT_ERROR_TRUNCATED);
          g_assert_nonnull (strstr (error->message, "cannot be analysed"));
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/heapsnapshot/class-names", test_class_names);
  g_test_add_func ("/heapsnapshot/weak-edges", test_weak_edges);
  g_test_add_func ("/heapsnapshot/devtools-rules", test_devtools_rules);
  g_test_add_func ("/heapsnapshot/long-chain", test_long_chain);
  g_test_add_func ("/heapsnapshot/detect", test_detect);
  g_test_add_func ("/heapsnapshot/node-snapshot", test_node_snapshot);
  g_test_add_func ("/heapsnapshot/hostile", test_hostile);
  g_test_add_func ("/heapsnapshot/truncated", test_truncated);

  return g_test_run ();
}
