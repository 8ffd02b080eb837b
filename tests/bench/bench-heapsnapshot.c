/* bench-heapsnapshot.c — decode speed, retained sizes and memory of the V8
 * heap snapshot reader
 *
 * bench-heapsnapshot [NODES [PATH]]: streams a snapshot of NODES nodes
 * (default 5,000,000: about 500 MB) to PATH (default: a temporary file,
 * removed afterwards) and prints
 *   - a bare pass of the JSON pull parser over the same bytes (the peer),
 *   - the full load through bl_format_load_file() (parse, checks, heap,
 *     dominators, retained sizes) and its peak RSS against the file size,
 *   - bl_heap_finish() + bl_heap_analyse() alone (dominators and
 *     retained sizes) on the same graph built directly, to tell the heap's
 *     share.
 *
 * The graph is V8-like: a synthetic root with a shortcut edge to a global
 * object and element edges to a few GC-root groups holding 64 objects
 * each; from the global object, each node holds its children in a 4-ary tree (internal, property, element, hidden edges)
 * plus 0–6 edges to nodes nearby (property, context, internal, and one in
 * five weak); node types and constructor names in V8's proportions
 * (objects, closures, strings, arrays, code, hidden, shapes).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bl-heap.h"
#include "bl-json-reader.h"
#include "bl-model.h"

#define N_CLASSES  300
#define N_PROPS    2000
#define N_GROUPS   16

/* node types, in meta order */
enum { T_HIDDEN, T_ARRAY, T_STRING, T_OBJECT, T_CODE, T_CLOSURE, T_NUMBER = 7, T_SYNTHETIC = 9,
       T_SHAPE = 14 };
/* edge types, in meta order */
enum { E_CONTEXT, E_ELEMENT, E_PROPERTY, E_INTERNAL, E_HIDDEN, E_SHORTCUT, E_WEAK };

static guint64
peak_rss_kib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

static inline guint32
mix (guint32 x)
{
  x ^= x >> 16;
  x *= 0x7feb352d;
  x ^= x >> 15;
  x *= 0x846ca68b;
  x ^= x >> 16;
  return x;
}

/* node i: its type, name string and self size */
static void
node_shape (guint32  i,
            guint32  n_strings_pool,
            guint32 *type,
            guint32 *name,
            guint32 *self_size)
{
  guint32 h = mix (i * 2654435761u + 1);
  guint32 pick = h % 100;

  if (i == 0 || (i >= 2 && i < 2 + N_GROUPS))
    {
      *type = T_SYNTHETIC;
      *name = 0;
      *self_size = 0;
      return;
    }
  if (i == 1)
    {
      *type = T_OBJECT;
      *name = 1;     /* "global" */
      *self_size = 64;
      return;
    }
  /* strings: 0 "", 1 "global", 2 … N_CLASSES + 1 classes, then properties,
   * then the pool of string contents */
  if (pick < 30)
    {
      *type = T_OBJECT;
      *name = 2 + (h >> 8) % ((h >> 20) % 8 == 0 ? N_CLASSES : 20);
    }
  else if (pick < 45)
    *type = T_CLOSURE, *name = 2 + N_CLASSES + (h >> 8) % N_PROPS;
  else if (pick < 65)
    *type = T_STRING, *name = 2 + N_CLASSES + N_PROPS + (h >> 8) % n_strings_pool;
  else if (pick < 75)
    *type = T_ARRAY, *name = 0;
  else if (pick < 83)
    *type = T_CODE, *name = 2 + N_CLASSES + (h >> 8) % N_PROPS;
  else if (pick < 93)
    *type = T_HIDDEN, *name = 2 + N_CLASSES + (h >> 8) % N_PROPS;
  else if (pick < 97)
    *type = T_SHAPE, *name = 0;
  else
    *type = T_NUMBER, *name = 0;
  *self_size = 16 + 8 * ((h >> 4) % 24);
}

static guint32
n_cross (guint32 i)
{
  return i < 2 + N_GROUPS ? 0 : mix (i ^ 0x9e3779b9) % 7;
}

/* the edges of node i, in order: (type, name_or_index, target) */
typedef void (*EdgeFunc) (guint32  from,
                          guint32  type,
                          guint32  name,
                          guint32  to,
                          gpointer data);

static guint32
node_edges (guint32  i,
            guint32  n,
            EdgeFunc func,
            gpointer data)
{
  guint32 count = 0;

  if (i == 0)
    {
      if (func)
        func (i, E_SHORTCUT, 1, 1, data);
      for (guint32 g = 0; g < N_GROUPS; g++)
        if (func)
          func (i, E_ELEMENT, g + 1, 2 + g, data);
      return 1 + N_GROUPS;
    }

  /* the GC-root groups hold a few objects each (not page objects' owners:
   * those edges do not count for dominators) */
  if (i >= 2 && i < 2 + N_GROUPS)
    {
      for (guint32 k = 0; k < 64; k++)
        {
          if (func)
            func (i, E_ELEMENT, k, 1 + mix (i * 64 + k) % (n - 1), data);
          count++;
        }
      return count;
    }

  /* tree children: global (node 1) is tree node 0, node 2 + N_GROUPS + t
   * is tree node t + 1; tree node t holds 4t + 1 … 4t + 4 */
  for (guint32 k = 0; k < 4; k++)
    {
      guint64 t = i == 1 ? 0 : i - (1 + N_GROUPS);
      guint64 child = 4 * t + 1 + k + 1 + N_GROUPS;

      if (child >= n)
        continue;
      if (func)
        {
          guint32 h = mix ((guint32) child);
          guint32 type = h % 10 < 5 ? E_INTERNAL : h % 10 < 8 ? E_PROPERTY
                         : h % 10 < 9 ? E_ELEMENT : E_HIDDEN;

          func (i, type, type == E_ELEMENT || type == E_HIDDEN ? k
                         : 2 + N_CLASSES + (h >> 8) % N_PROPS, (guint32) child, data);
        }
      count++;
    }
  for (guint32 k = 0; k < n_cross (i); k++)
    {
      guint32 h = mix (i * 31 + k);
      gint64 to = (gint64) i + (gint64) (h % 20001) - 10000;

      if (to < 2 + N_GROUPS)
        to = 2 + N_GROUPS;
      if (to >= n)
        to = n - 1;
      if (func)
        {
          guint32 type = (h >> 16) % 5 == 0 ? E_WEAK : (h >> 16) % 5 == 1 ? E_CONTEXT
                         : (h >> 16) % 5 == 2 ? E_INTERNAL : E_PROPERTY;

          func (i, type, 2 + N_CLASSES + (h >> 4) % N_PROPS, (guint32) to, data);
        }
      count++;
    }
  return count;
}

typedef struct
{
  FILE    *out;
  gboolean first;
} EdgeOut;

static void
write_edge (guint32  from,
            guint32  type,
            guint32  name,
            guint32  to,
            gpointer data)
{
  EdgeOut *e = data;

  fprintf (e->out, "%s%u,%u,%u", e->first ? "" : "\n,", type, name, to * 7);
  e->first = FALSE;
}

static guint64
write_snapshot (const char *path,
                guint32     n,
                guint64    *n_edges)
{
  FILE *out = fopen (path, "wb");
  guint32 pool = MAX (n / 8, 1);
  guint64 m = 0;
  EdgeOut edges = { out, TRUE };

  g_assert_nonnull (out);
  for (guint32 i = 0; i < n; i++)
    m += node_edges (i, n, NULL, NULL);
  *n_edges = m;

  fprintf (out, "{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"name\",\"id\",\"self_size\","
           "\"edge_count\",\"trace_node_id\",\"detachedness\"],\"node_types\":[[\"hidden\","
           "\"array\",\"string\",\"object\",\"code\",\"closure\",\"regexp\",\"number\",\"native\","
           "\"synthetic\",\"concatenated string\",\"sliced string\",\"symbol\",\"bigint\","
           "\"object shape\",\"wasm object\"],\"string\",\"number\",\"number\",\"number\","
           "\"number\",\"number\"],\"edge_fields\":[\"type\",\"name_or_index\",\"to_node\"],"
           "\"edge_types\":[[\"context\",\"element\",\"property\",\"internal\",\"hidden\","
           "\"shortcut\",\"weak\"],\"string_or_number\",\"node\"],\"location_fields\":"
           "[\"object_index\",\"script_id\",\"line\",\"column\"]},\"node_count\":%u,"
           "\"edge_count\":%" G_GUINT64_FORMAT ",\"trace_function_count\":0},\n\"nodes\":[", n, m);
  for (guint32 i = 0; i < n; i++)
    {
      guint32 type, name, self_size;

      node_shape (i, pool, &type, &name, &self_size);
      fprintf (out, "%s%u,%u,%u,%u,%u,0,0", i > 0 ? "\n," : "", type, name, 2 * i + 1, self_size,
               node_edges (i, n, NULL, NULL));
    }
  fprintf (out, "],\n\"edges\":[");
  for (guint32 i = 0; i < n; i++)
    node_edges (i, n, write_edge, &edges);
  fprintf (out, "],\n\"locations\":[],\n\"strings\":[\"\",\"global\"");
  for (guint32 c = 0; c < N_CLASSES; c++)
    fprintf (out, ",\n\"Class%u\"", c);
  for (guint32 p = 0; p < N_PROPS; p++)
    fprintf (out, ",\n\"prop%u\"", p);
  for (guint32 s = 0; s < pool; s++)
    fprintf (out, ",\n\"a string of some length, number %u\"", s);
  fprintf (out, "]}\n");
  g_assert_cmpint (fclose (out), ==, 0);

  return m;
}

static double
bare_pass (const char *path,
           guint64    *n_numbers)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = g_file_read (file, NULL, NULL);
  g_autoptr(BlJsonReader) json = bl_json_reader_new_for_stream (G_INPUT_STREAM (stream), 0, NULL,
                                                                NULL, NULL);
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  guint32 chunk[4096];
  BlJsonToken token;

  *n_numbers = 0;
  for (;;)
    {
      gsize got = bl_json_reader_next_indexes (json, G_MAXUINT32, chunk, G_N_ELEMENTS (chunk));

      if (got > 0)
        {
          *n_numbers += got;
          continue;
        }
      token = bl_json_reader_next (json, &error);
      if (token <= BL_JSON_TOKEN_END)
        break;
      if (token == BL_JSON_TOKEN_NUMBER)
        (*n_numbers)++;
    }
  g_assert_no_error (error);

  return (g_get_monotonic_time () - start) / 1e6;
}

typedef struct
{
  BlHeap  *heap;
  guint32  field[8];
} Direct;

static void
add_direct (guint32  from,
            guint32  type,
            guint32  name,
            guint32  to,
            gpointer data)
{
  Direct *d = data;

  if (type == E_WEAK)
    return;
  bl_heap_add_reference (d->heap, from, d->field[type], to);
}

int
main (int   argc,
      char *argv[])
{
  guint32 n = argc > 1 ? (guint32) g_ascii_strtoull (argv[1], NULL, 10) : 5000000;
  g_autofree char *tmp = NULL;
  const char *path;
  guint64 m, n_numbers, rss_before, rss_after;
  GStatBuf st;
  double t_bare, t_load, t_analyse, t_build, t_finish;
  gint64 start;

  if (argc > 2)
    path = argv[2];
  else
    {
      int fd = g_file_open_tmp ("bench-XXXXXX.heapsnapshot", &tmp, NULL);

      g_assert_cmpint (fd, >=, 0);
      close (fd);
      path = tmp;
    }

  start = g_get_monotonic_time ();
  write_snapshot (path, n, &m);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  printf ("snapshot: %u nodes, %" G_GUINT64_FORMAT " edges, %.0f MB (written in %.1f s)\n",
          n, m, st.st_size / 1048576.0, (g_get_monotonic_time () - start) / 1e6);

  t_bare = bare_pass (path, &n_numbers);
  printf ("bare JSON pull-parser pass:  %6.2f s  %7.1f MB/s  (%" G_GUINT64_FORMAT " numbers)\n",
          t_bare, st.st_size / 1048576.0 / t_bare, n_numbers);

  rss_before = peak_rss_kib ();
  {
    g_autoptr(GFile) file = g_file_new_for_path (path);
    g_autoptr(GError) error = NULL;
    g_autoptr(GObject) loaded = NULL;
    BlHeap *heap;

    start = g_get_monotonic_time ();
    loaded = bl_format_load_file (file, NULL, NULL, NULL, &error);
    t_load = (g_get_monotonic_time () - start) / 1e6;
    g_assert_no_error (error);
    heap = bl_profile_get_heap (BL_PROFILE (loaded), 0);
    /* the analysis is left to its first use: timed with the load */
    start = g_get_monotonic_time ();
    bl_heap_analyse (heap, NULL);
    t_analyse = (g_get_monotonic_time () - start) / 1e6;
    g_assert_cmpuint (bl_heap_get_n_objects (heap), ==, n);
    g_assert_cmpuint (bl_heap_get_retained (heap, 0), ==, bl_heap_get_total_bytes (heap));
    rss_after = peak_rss_kib ();
    printf ("full load (parse, heap) %.2f s + analysis (dominators, retained) %.2f s = "
            "%6.2f s  %7.1f MB/s  (%.2f× the bare pass)\n", t_load, t_analyse,
            t_load + t_analyse, st.st_size / 1048576.0 / (t_load + t_analyse),
            (t_load + t_analyse) / t_bare);
    printf ("  global retains %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " bytes\n",
            bl_heap_get_retained (heap, 1), bl_heap_get_total_bytes (heap));
    printf ("peak RSS: %.0f MB (before loading %.0f MB) = %.2f× the file (%.0f MB)\n",
            rss_after / 1024.0, rss_before / 1024.0, rss_after * 1024.0 / st.st_size,
            st.st_size / 1048576.0);
  }

  /* the heap alone, built directly */
  {
    g_autoptr(BlHeap) heap = bl_heap_new ();
    Direct d = { heap, { 0 } };
    guint32 pool = MAX (n / 8, 1);
    guint32 types[16];

    start = g_get_monotonic_time ();
    for (guint32 t = 0; t < 16; t++)
      {
        char name[16];

        g_snprintf (name, sizeof name, "T%u", t);
        types[t] = bl_heap_add_type (heap, name);
      }
    for (guint32 k = 0; k < 8; k++)
      {
        char name[16];

        g_snprintf (name, sizeof name, "f%u", k);
        d.field[k] = bl_heap_intern_field (heap, name);
      }
    for (guint32 i = 0; i < n; i++)
      {
        guint32 type, name, self_size;

        node_shape (i, pool, &type, &name, &self_size);
        bl_heap_add_object (heap, types[type], self_size);
      }
    for (guint32 i = 0; i < n; i++)
      node_edges (i, n, add_direct, &d);
    bl_heap_add_root (heap, 0);
    t_build = (g_get_monotonic_time () - start) / 1e6;
    start = g_get_monotonic_time ();
    bl_heap_finish (heap);
    bl_heap_analyse (heap, NULL);
    t_finish = (g_get_monotonic_time () - start) / 1e6;
    printf ("bl-heap alone: building %.2f s, "
            "bl_heap_finish + bl_heap_analyse (dominators, retained) %.2f s\n",
            t_build, t_finish);
  }

  if (tmp != NULL)
    g_unlink (tmp);

  return 0;
}
