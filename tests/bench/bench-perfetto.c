/* bench-perfetto.c — decode speed and memory of the Perfetto trace reader,
 * and the heap analysis on a large graph, on two shapes of trace
 *
 * bench-perfetto [--shape random|app] [SIZE_MB [HEAP_OBJECTS [PATH]]]:
 * writes a trace of about SIZE_MB of slices plus one heap graph of
 * HEAP_OBJECTS objects to PATH (default: a temporary file, removed
 * afterwards; with both shapes PATH.random and PATH.app), then prints
 *   - a bare pass over the same bytes' varints (the peer),
 *   - the decode (everything the reader does, heap graphs parsed into
 *     BlHeap's arrays, without their analysis), and its peak RSS,
 *   - the analysis of the decoded heap graph (bl_heap_analyse()), and the
 *     peak RSS of decode and analysis together,
 *   - for the random shape, dominators and retained sizes of a
 *     HEAP_OBJECTS graph built alone.
 *
 * The shapes:
 *   random  the worst case: each slice a random one of 400 names at a
 *           random depth, so nearly every slice is a new call path (6.6 M
 *           for 6.9 M slices at 200 MB), and a heap of random references;
 *   app     a real app's trace: 300 functions in a fixed call graph with
 *           skewed fan-out, walked to depth 30 at most (about 22 k distinct
 *           call paths), and a BrightScript heap: many small
 *           roAssociativeArray, roArray and roString values, SceneGraph node
 *           trees with parent links, shared values, and a few hundred
 *           leaked cycles held by $unreachable references.
 * Without --shape both run, each in its own process (so that each peak RSS
 * is its own), random first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bl-model.h"
#include "bl-heap.h"
#include "bl-perfetto-private.h"
#include "bl-perfetto-reader.h"
#include "bl-perfetto-writer.h"

#define N_TRACKS 8
#define N_NAMES  400
#define OBJECTS_PER_PACKET 20000

static guint64
peak_rss_kib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

/* CPU seconds of this process: on a shared machine the wall clock also
 * counts the time other processes held the cores */
static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
flush (BlPbWriter *w,
       FILE       *out,
       guint64    *written)
{
  g_autoptr (GBytes) bytes = bl_pbw_steal (w);
  gsize len;
  const void *data = g_bytes_get_data (bytes, &len);

  g_assert_cmpuint (fwrite (data, 1, len, out), ==, len);
  *written += len;
}

/* The "random" shape (the worst case): every slice a random name at a
 * random depth, on a random track, so nearly every slice is a new stack. */
static void
write_random_names (BlPbWriter *w)
{
  for (guint t = 0; t < N_TRACKS; t++)
    {
      bl_pbw_begin (w, 1);
      bl_pbw_varint (w, 10, 1 + t);
      bl_pbw_varint (w, 13, 1);
      bl_pbw_begin (w, 12);
      for (guint i = 0; i < N_NAMES; i++)
        {
          g_autofree char *name = g_strdup_printf ("roSGNode.function_%u", i);

          bl_pbw_begin (w, 2);
          bl_pbw_varint (w, 1, i + 1);
          bl_pbw_string (w, 2, name);
          bl_pbw_end (w);
        }
      bl_pbw_end (w);
      bl_pbw_begin (w, 59);
      bl_pbw_begin (w, 11);
      bl_pbw_varint (w, 11, 100 + t);
      bl_pbw_end (w);
      bl_pbw_end (w);
      bl_pbw_end (w);
    }
}

static void
write_random_slices (BlPbWriter *w,
                     FILE       *out,
                     guint64    *written,
                     guint64     size_bytes,
                     GRand      *rand)
{
  guint depth[N_TRACKS] = { 0 };
  guint64 ts = 1000;

  while (*written < size_bytes)
    {
      for (guint k = 0; k < 10000; k++)
        {
          guint t = g_rand_int_range (rand, 0, N_TRACKS);
          gboolean begin = depth[t] == 0 || (depth[t] < 30 && g_rand_boolean (rand));

          ts += g_rand_int_range (rand, 1, 2000);
          bl_pbw_begin (w, 1);
          bl_pbw_varint (w, 8, ts);
          bl_pbw_varint (w, 10, 1 + t);
          bl_pbw_begin (w, 11);
          bl_pbw_varint (w, 9, begin ? 1 : 2);
          if (begin)
            bl_pbw_varint (w, 10, g_rand_int_range (rand, 1, N_NAMES + 1));
          bl_pbw_end (w);
          bl_pbw_end (w);
          depth[t] += begin ? 1 : -1;
        }
      flush (w, out, written);
    }

}

/* One heap graph of random references (a ring plus one random reference
 * per object), continued over packets. */
static void
write_random_heap (BlPbWriter *w,
                   FILE       *out,
                   guint64    *written,
                   guint32     n_objects,
                   GRand      *rand)
{
  for (guint32 first = 0; first < n_objects; first += OBJECTS_PER_PACKET)
    {
      bl_pbw_begin (w, 1);
      bl_pbw_varint (w, 10, 99);
      bl_pbw_begin (w, 56);
      if (first == 0)
        {
          for (guint i = 0; i < 200; i++)
            {
              g_autofree char *name = g_strdup_printf ("Type%u", i);

              bl_pbw_begin (w, 9);
              bl_pbw_varint (w, 1, i + 1);
              bl_pbw_string (w, 3, name);
              bl_pbw_end (w);
            }
          bl_pbw_begin (w, 4);
          bl_pbw_varint (w, 1, 1);
          bl_pbw_string (w, 2, "next");
          bl_pbw_end (w);
          bl_pbw_begin (w, 7);
          for (guint i = 0; i < 1000; i++)
            bl_pbw_varint (w, 1, 1 + i * (n_objects / 1000));
          bl_pbw_end (w);
        }
      for (guint32 i = first; i < MIN (n_objects, first + OBJECTS_PER_PACKET); i++)
        {
          guint8 fields[2] = { 1, 1 };
          guint8 targets[16];
          gsize tlen = 0;
          guint64 refs[2] = { 1 + (i + 1) % n_objects,
                              1 + g_rand_int_range (rand, 0, n_objects) };

          for (guint r = 0; r < 2; r++)
            {
              guint64 v = refs[r];

              do
                {
                  guint8 b = v & 0x7f;

                  v >>= 7;
                  targets[tlen++] = b | (v != 0 ? 0x80 : 0);
                }
              while (v != 0);
            }
          bl_pbw_begin (w, 2);
          bl_pbw_varint (w, i == first ? 1 : 7, i == first ? i + 1 : 1);
          bl_pbw_varint (w, 2, 1 + i % 200);
          bl_pbw_varint (w, 3, 16 + i % 64);
          bl_pbw_bytes (w, 4, fields, 2);
          bl_pbw_bytes (w, 5, targets, tlen);
          bl_pbw_end (w);
        }
      bl_pbw_varint (w, 5, first + OBJECTS_PER_PACKET < n_objects);
      bl_pbw_end (w);
      bl_pbw_end (w);
      flush (w, out, written);
    }

}

/* The "app" shape: slices drawn from a synthetic program's call graph. */

#define APP_FUNCS     300
#define APP_ENTRIES   12
#define APP_MAX_DEPTH 30
#define APP_MAX_CALLEES 7
/* the chance that a slice calls another one falls with its depth */
#define APP_CALL_P(depth) (0.58 - 0.012 * (depth))

typedef struct
{
  guint    n_callees;
  guint16  callees[APP_MAX_CALLEES];
} AppFunction;

/* A number in [0, n) skewed towards 0 (a square of a uniform draw). */
static guint
skewed (GRand *rand,
        guint  n)
{
  double r = g_rand_double (rand);

  return MIN (n - 1, (guint) (n * r * r));
}

/* The same, more strongly skewed (a fourth power). */
static guint
skewed4 (GRand *rand,
         guint  n)
{
  double r = g_rand_double (rand);

  return MIN (n - 1, (guint) (n * r * r * r * r));
}

static void
write_app_names (BlPbWriter *w)
{
  static const char *const kinds[] = {
    "onKeyEvent", "onFocusChanged", "onContentChanged", "init", "render",
    "fetchFeed", "parseJson", "buildRow", "setPoster", "formatTime",
    "updateGrid", "onTimer", "logEvent", "getConfig", "handleResponse",
  };

  for (guint t = 0; t < N_TRACKS; t++)
    {
      bl_pbw_begin (w, 1);
      bl_pbw_varint (w, 10, 1 + t);
      bl_pbw_varint (w, 13, 1);
      bl_pbw_begin (w, 12);
      for (guint i = 0; i < APP_FUNCS; i++)
        {
          g_autofree char *name = g_strdup_printf ("pkg:/components/Screen%02u.brs:%s_%u",
                                                   i / 15, kinds[i % G_N_ELEMENTS (kinds)], i);

          bl_pbw_begin (w, 2);
          bl_pbw_varint (w, 1, i + 1);
          bl_pbw_string (w, 2, name);
          bl_pbw_end (w);
        }
      bl_pbw_end (w);
      bl_pbw_begin (w, 59);
      bl_pbw_begin (w, 11);
      bl_pbw_varint (w, 11, 100 + t);
      bl_pbw_end (w);
      bl_pbw_end (w);
      bl_pbw_end (w);
    }
}

/* A fixed call graph: each function calls 1–7 functions further down
 * (few callees for most, many for some), the last ones are leaves. Each
 * track walks it: at depth 0 an entry point (a few take most calls); a
 * call goes to a callee chosen with skew, so a few call paths carry most
 * of the slices, as in a real app's trace. */
static void
write_app_slices (BlPbWriter *w,
                  FILE       *out,
                  guint64    *written,
                  guint64     size_bytes,
                  GRand      *rand)
{
  AppFunction funcs[APP_FUNCS];
  guint16 stack[N_TRACKS][APP_MAX_DEPTH];
  guint64 path[N_TRACKS][APP_MAX_DEPTH + 1] = { { 0 } };
  guint depth[N_TRACKS] = { 0 }, max_depth = 0;
  guint64 ts = 1000;
  /* the distinct call paths written, tracks aside (64-bit path hashes) */
  GHashTable *paths = g_hash_table_new (g_direct_hash, g_direct_equal);

  for (guint f = 0; f < APP_FUNCS; f++)
    {
      funcs[f].n_callees = f >= APP_FUNCS - 40 ? 0 : 1 + skewed4 (rand, APP_MAX_CALLEES);
      for (guint j = 0; j < funcs[f].n_callees; j++)
        {
          guint callee = f + 1 + skewed (rand, 60);

          funcs[f].callees[j] = MIN (APP_FUNCS - 1, callee);
        }
    }

  while (*written < size_bytes)
    {
      for (guint k = 0; k < 10000; k++)
        {
          guint t = g_rand_int_range (rand, 0, N_TRACKS);
          guint callee = 0;
          gboolean begin;

          if (depth[t] == 0)
            {
              begin = TRUE;
              callee = skewed4 (rand, APP_ENTRIES);
            }
          else
            {
              const AppFunction *f = &funcs[stack[t][depth[t] - 1]];

              begin = depth[t] < APP_MAX_DEPTH && f->n_callees > 0
                      && g_rand_double (rand) < APP_CALL_P (depth[t]);
              if (begin)
                callee = f->callees[skewed4 (rand, f->n_callees)];
            }

          ts += g_rand_int_range (rand, 1, 2000);
          bl_pbw_begin (w, 1);
          bl_pbw_varint (w, 8, ts);
          bl_pbw_varint (w, 10, 1 + t);
          bl_pbw_begin (w, 11);
          bl_pbw_varint (w, 9, begin ? 1 : 2);
          if (begin)
            bl_pbw_varint (w, 10, callee + 1);
          bl_pbw_end (w);
          bl_pbw_end (w);
          if (begin)
            {
              path[t][depth[t] + 1] = (path[t][depth[t]] ^ (callee + 1))
                                      * G_GUINT64_CONSTANT (0x100000001b3);
              stack[t][depth[t]++] = callee;
              max_depth = MAX (max_depth, depth[t]);
              g_hash_table_add (paths, GSIZE_TO_POINTER ((gsize) path[t][depth[t]]));
            }
          else
            depth[t]--;
        }
      flush (w, out, written);
    }
  printf ("app shape: %u functions, %u distinct call paths written (tracks aside), depth <= %u\n",
          APP_FUNCS, g_hash_table_size (paths), max_depth);
  g_hash_table_destroy (paths);
}

/* The "app" shape's heap: a BrightScript heap. */

enum
{
  T_DOMAIN, T_AA, T_ARRAY, T_STRING, T_INT, T_FLOAT, T_BOOLEAN, T_FUNCTION,
  T_DATETIME, T_NODE, T_GROUP, T_LABEL, T_POSTER, T_CONTENT, T_ROWLIST,
  N_APP_TYPES
};

static const char *const app_type_names[N_APP_TYPES] = {
  "BrightScriptDomain", "roAssociativeArray", "roArray", "roString", "roInt",
  "roFloat", "roBoolean", "roFunction", "roDateTime", "roSGNode:Node",
  "roSGNode:Group", "roSGNode:Label", "roSGNode:Poster", "roSGNode:ContentNode",
  "roSGNode:RowList",
};

enum
{
  F_UNREACHABLE = 1, F_ITEM, F_CHILDREN, F_PARENT, F_M, F_CONTENT, F_SELF,
  F_ITEMS, F_OWNER, F_NEXT, F_PREV, F_GLOBAL, F_TOP, F_KEYS
};

static const char *const app_field_names[] = {
  NULL, "$unreachable", "[]", "children", "parent", "m", "content", "self",
  "items", "owner", "next", "prev", "global", "top",
  /* associative array keys from F_KEYS on */
  "id", "title", "url", "description", "data", "focus", "index", "callback",
  "config", "headers", "response", "rows", "poster", "label", "width", "height",
  "visible", "style", "key", "value", "cache", "list", "timer", "text", "uri",
  "count", "state", "duration", "rating", "genre", "thumbnail", "position",
};

#define N_APP_FIELDS G_N_ELEMENTS (app_field_names)

#define APP_LEAK_GROUPS 650
#define APP_MAX_REFS    1024

/* The type of a new value held by an associative array. */
static guint
app_value_type (GRand *rand)
{
  guint r = g_rand_int_range (rand, 0, 100);

  return r < 38 ? T_STRING : r < 51 ? T_INT : r < 58 ? T_BOOLEAN : r < 62 ? T_FLOAT
         : r < 82 ? T_AA : r < 90 ? T_ARRAY : r < 92 ? T_CONTENT : r < 97 ? T_FUNCTION
         : T_DATETIME;
}

static guint64
app_self_size (guint type,
               guint n_refs,
               GRand *rand)
{
  switch (type)
    {
    case T_AA:     return 64 + 24 * n_refs;
    case T_ARRAY:  return 48 + 8 * n_refs;
    case T_STRING: return 32 + skewed (rand, 200);
    case T_FUNCTION: return 40;
    case T_DATETIME: return 24;
    case T_DOMAIN: return 512;
    default:
      return type >= T_NODE ? 160 + 16 * n_refs : 16;
    }
}

static void
app_write_object (BlPbWriter    *w,
                  guint32        id,
                  gboolean       first,
                  guint          type,
                  guint64        self_size,
                  const guint8  *fields,
                  const guint32 *targets,
                  guint          n_refs)
{
  guint8 packed[APP_MAX_REFS * 5];
  gsize len = 0;

  bl_pbw_begin (w, 2);
  bl_pbw_varint (w, first ? 1 : 7, first ? id : 1);
  bl_pbw_varint (w, 2, type + 1);
  bl_pbw_varint (w, 3, self_size);
  if (n_refs > 0)
    {
      bl_pbw_bytes (w, 4, fields, n_refs);
      for (guint r = 0; r < n_refs; r++)
        {
          guint32 v = targets[r];

          do
            {
              guint8 b = v & 0x7f;

              v >>= 7;
              packed[len++] = b | (v != 0 ? 0x80 : 0);
            }
          while (v != 0);
        }
      bl_pbw_bytes (w, 5, packed, len);
    }
  bl_pbw_end (w);
}

/* Objects are numbered 1…n and written in that order; each object, when
 * its turn comes, creates its children with the next free numbers (so the
 * heap is a breadth-first tree of values, components' m, SceneGraph node
 * trees with parent links), 4 % of associative array values share an
 * older object, and the last objects are leak groups held only through
 * the domain's $unreachable references: m.self = m, a ContentNode and its
 * child, an array holding its owner, a ring of three list items. */
static void
write_app_heap (BlPbWriter *w,
                FILE       *out,
                guint64    *written,
                guint32     n_objects,
                GRand      *rand)
{
  guint8 *types = g_new0 (guint8, n_objects + 1);
  guint32 *parents = g_new0 (guint32, n_objects + 1);
  guint32 leak_base = n_objects - 3 * APP_LEAK_GROUPS + 1;
  guint32 next_id = 2;
  guint8 fields[APP_MAX_REFS];
  guint32 targets[APP_MAX_REFS];

  g_assert_cmpuint (n_objects, >, 100000);
  types[1] = T_DOMAIN;

#define ADD_REF(field, target)                                  \
  G_STMT_START {                                                \
    fields[n_refs] = (field);                                   \
    targets[n_refs++] = (target);                               \
  } G_STMT_END

#define NEW_CHILD(field, type)                                  \
  G_STMT_START {                                                \
    if (next_id < leak_base && n_refs < APP_MAX_REFS)           \
      {                                                         \
        types[next_id] = (type);                                \
        parents[next_id] = id;                                  \
        fields[n_refs] = (field);                               \
        targets[n_refs++] = next_id++;                          \
      }                                                         \
  } G_STMT_END

  for (guint32 first = 1; first <= n_objects; first += OBJECTS_PER_PACKET)
    {
      guint32 last = MIN (n_objects, first + OBJECTS_PER_PACKET - 1);

      bl_pbw_begin (w, 1);
      bl_pbw_varint (w, 10, 99);
      bl_pbw_begin (w, 56);
      if (first == 1)
        {
          for (guint i = 0; i < N_APP_TYPES; i++)
            {
              bl_pbw_begin (w, 9);
              bl_pbw_varint (w, 1, i + 1);
              bl_pbw_string (w, 3, app_type_names[i]);
              bl_pbw_end (w);
            }
          for (guint i = 1; i < N_APP_FIELDS; i++)
            {
              bl_pbw_begin (w, 4);
              bl_pbw_varint (w, 1, i);
              bl_pbw_string (w, 2, app_field_names[i]);
              bl_pbw_end (w);
            }
          bl_pbw_begin (w, 7);
          bl_pbw_varint (w, 1, 1);
          bl_pbw_end (w);
        }
      for (guint32 id = first; id <= last; id++)
        {
          guint n_refs = 0;
          guint type;

          if (id >= leak_base)
            {
              guint32 head = leak_base + (id - leak_base) / 3 * 3;
              guint g = (id - leak_base) / 3, j = (id - leak_base) % 3;

              if (g < 400)
                {
                  /* m.self = m, with two strings */
                  type = j == 0 ? T_AA : T_STRING;
                  if (j == 0)
                    {
                      ADD_REF (F_SELF, id);
                      ADD_REF (F_KEYS + 1, id + 1);
                      ADD_REF (F_KEYS + 2, id + 2);
                    }
                }
              else if (g < 550)
                {
                  /* a ContentNode and its child pointing back */
                  type = j < 2 ? T_CONTENT : T_STRING;
                  if (j == 0)
                    {
                      ADD_REF (F_CHILDREN, id + 1);
                      ADD_REF (F_KEYS + 1, id + 2);
                    }
                  else if (j == 1)
                    ADD_REF (F_PARENT, head);
                }
              else if (g < 630)
                {
                  /* an associative array whose items array holds it */
                  type = j == 0 ? T_AA : j == 1 ? T_ARRAY : T_STRING;
                  if (j == 0)
                    {
                      ADD_REF (F_ITEMS, id + 1);
                      ADD_REF (F_KEYS, id + 2);
                    }
                  else if (j == 1)
                    ADD_REF (F_ITEM, head);
                }
              else
                {
                  /* a ring of three list items */
                  type = T_AA;
                  ADD_REF (F_NEXT, head + (j + 1) % 3);
                  ADD_REF (F_PREV, head + (j + 2) % 3);
                }
            }
          else
            {
              type = types[id];
              g_assert (id < next_id);
              switch (type)
                {
                case T_DOMAIN:
                  NEW_CHILD (F_GLOBAL, T_NODE);
                  NEW_CHILD (F_TOP, T_GROUP);
                  for (guint i = 0; i < 30; i++)
                    NEW_CHILD (F_M, T_AA);
                  for (guint g = 0; g < APP_LEAK_GROUPS; g++)
                    ADD_REF (F_UNREACHABLE, leak_base + 3 * g);
                  break;
                case T_AA:
                  {
                    guint n = 1 + skewed (rand, 9);

                    for (guint i = 0; i < n; i++)
                      {
                        guint field = F_KEYS + skewed (rand, N_APP_FIELDS - F_KEYS);

                        if (id > 1000 && g_rand_int_range (rand, 0, 100) < 4)
                          ADD_REF (field, g_rand_int_range (rand, 2, id));
                        else
                          NEW_CHILD (field, app_value_type (rand));
                      }
                  }
                  break;
                case T_ARRAY:
                  {
                    double r3 = g_rand_double (rand);
                    guint n = (guint) (20 * r3 * r3 * r3);
                    guint r = g_rand_int_range (rand, 0, 10);
                    guint item = r < 4 ? T_AA : r < 8 ? T_STRING : r < 9 ? T_CONTENT : T_INT;

                    for (guint i = 0; i < n; i++)
                      NEW_CHILD (F_ITEM, item);
                  }
                  break;
                case T_NODE:
                case T_GROUP:
                case T_LABEL:
                case T_POSTER:
                case T_CONTENT:
                case T_ROWLIST:
                  {
                    /* ContentNode trees and node trees stay smaller than the
                     * values; labels and posters have no children */
                    guint n = type == T_CONTENT ? skewed (rand, 3)
                              : type == T_GROUP || type == T_NODE ? 1 + skewed (rand, 6) : 0;

                    if (types[parents[id]] >= T_NODE)
                      ADD_REF (F_PARENT, parents[id]);
                    if (type == T_CONTENT)
                      {
                        NEW_CHILD (F_KEYS + 1, T_STRING);
                        NEW_CHILD (F_KEYS + 2, T_STRING);
                        for (guint i = 0; i < n; i++)
                          NEW_CHILD (F_CHILDREN, T_CONTENT);
                      }
                    else
                      {
                        NEW_CHILD (F_M, T_AA);
                        if (type == T_ROWLIST)
                          NEW_CHILD (F_CONTENT, T_CONTENT);
                        if (type == T_LABEL)
                          NEW_CHILD (F_KEYS + 23, T_STRING);
                        if (type == T_POSTER)
                          NEW_CHILD (F_KEYS + 2, T_STRING);
                        for (guint i = 0; i < n; i++)
                          {
                            guint r = g_rand_int_range (rand, 0, 100);

                            NEW_CHILD (F_CHILDREN, r < 45 ? T_GROUP : r < 65 ? T_LABEL
                                                   : r < 85 ? T_POSTER : T_ROWLIST);
                          }
                      }
                  }
                  break;
                default:
                  break;
                }
            }
          app_write_object (w, id, id == first, type,
                            app_self_size (type, n_refs, rand), fields, targets, n_refs);
        }
      bl_pbw_varint (w, 5, first + OBJECTS_PER_PACKET <= n_objects);
      bl_pbw_end (w);
      bl_pbw_end (w);
      flush (w, out, written);
    }
#undef NEW_CHILD
#undef ADD_REF
  g_free (types);
  g_free (parents);
}

static void
write_trace (const char *path,
             gboolean    app,
             guint64     size_bytes,
             guint32     n_objects)
{
  FILE *out = fopen (path, "wb");
  BlPbWriter *w = bl_pbw_new ();
  GRand *rand = g_rand_new_with_seed (42);
  guint64 written = 0;

  g_assert_nonnull (out);

  for (guint t = 0; t < N_TRACKS; t++)
    {
      g_autofree char *name = g_strdup_printf ("Thread %u", t);

      bl_pftw_thread_track (w, 100 + t, 1, 10 + t, name);
    }
  /* interned names on each track's sequence */
  if (app)
    write_app_names (w);
  else
    write_random_names (w);
  flush (w, out, &written);

  if (app)
    write_app_slices (w, out, &written, size_bytes, rand);
  else
    write_random_slices (w, out, &written, size_bytes, rand);

  if (app)
    write_app_heap (w, out, &written, n_objects, rand);
  else
    write_random_heap (w, out, &written, n_objects, rand);

  bl_pbw_free (w);
  g_rand_free (rand);
  /* on disk before anything is timed: the kernel writing 268 MB back
   * while the decode runs would be timed with it */
  fflush (out);
  fsync (fileno (out));
  fclose (out);
}

/* The peer: one pass decoding every varint of the file, nothing else. */
static guint64
bare_varint_pass (const char *path)
{
  FILE *in = fopen (path, "rb");
  static guint8 buffer[4 * 1024 * 1024];
  guint64 sum = 0, v = 0;
  guint shift = 0;
  size_t n;

  while ((n = fread (buffer, 1, sizeof buffer, in)) > 0)
    for (size_t i = 0; i < n; i++)
      {
        v |= (guint64) (buffer[i] & 0x7f) << (shift & 63);
        shift += 7;
        if ((buffer[i] & 0x80) == 0)
          {
            sum += v;
            v = 0;
            shift = 0;
          }
      }
  fclose (in);

  return sum;
}

/* Writes (unless @path_arg names an existing file) and measures one
 * shape's trace. */
static void
run_shape (gboolean    app,
           guint64     size_mb,
           guint32     n_objects,
           const char *path_arg)
{
  g_autofree char *path = NULL;
  gboolean remove_after = path_arg == NULL;
  g_autoptr (GFile) file = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GObject) loaded = NULL;
  const BlPerfettoTrace *trace;
  GStatBuf st;
  double t_bare = G_MAXDOUBLE, t_decode, t_analysis, t_heap;
  double c_bare = G_MAXDOUBLE, c_decode, c_analysis, c_heap, c0;
  double t_runs[3];
  gint64 t0;
  guint64 rss_before, rss_decode = 0, rss_after;
  volatile guint64 sink = 0;

  path = path_arg != NULL ? g_strdup (path_arg)
         : g_strdup_printf ("%s/bench-perfetto-%u-%s.pftrace", g_get_tmp_dir (), (guint) getpid (),
                            app ? "app" : "random");
  printf ("== shape %s ==\n", app ? "app" : "random");
  if (!g_file_test (path, G_FILE_TEST_EXISTS) || remove_after)
    {
      /* written by a child process: the peak RSS printed below is the
       * decoder's, not the writer's */
      pid_t child = fork ();
      int wait_status = 0;

      g_assert_cmpint (child, >=, 0);
      if (child == 0)
        {
          write_trace (path, app, size_mb * 1024 * 1024, n_objects);
          _exit (0);
        }
      g_assert_cmpint (waitpid (child, &wait_status, 0), ==, child);
      g_assert_true (WIFEXITED (wait_status) && WEXITSTATUS (wait_status) == 0);
    }
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  printf ("trace: %.1f MB, %u heap objects, %d tracks\n",
          st.st_size / 1048576.0, n_objects, N_TRACKS);

  for (guint r = 0; r < 3; r++)
    {
      t0 = g_get_monotonic_time ();
      c0 = cpu_seconds ();
      sink += bare_varint_pass (path);
      c_bare = MIN (c_bare, cpu_seconds () - c0);
      t_bare = MIN (t_bare, (g_get_monotonic_time () - t0) / 1e6);
    }

  /* decode: everything the reader does, the heap graphs parsed into
   * BlHeap's arrays, without their analysis; best of three, as the bare
   * pass is (the last one's model is analysed below) */
  rss_before = peak_rss_kib ();
  file = g_file_new_for_path (path);
  c_decode = G_MAXDOUBLE;
  t_decode = G_MAXDOUBLE;
  for (guint r = 0; r < 3; r++)
    {
      g_autoptr (GFileInputStream) in = NULL;

      g_clear_object (&loaded);
      t0 = g_get_monotonic_time ();
      c0 = cpu_seconds ();
      in = g_file_read (file, NULL, &error);
      g_assert_no_error (error);
      loaded = G_OBJECT (bl_perfetto_read_stream_full (G_INPUT_STREAM (in), st.st_size, FALSE,
                                                       NULL, NULL, NULL, &error));
      g_assert_no_error (error);
      c_decode = MIN (c_decode, cpu_seconds () - c0);
      t_runs[r] = (g_get_monotonic_time () - t0) / 1e6;
      t_decode = MIN (t_decode, t_runs[r]);
      /* the first decode's peak: the later ones start where the freed
       * model's memory is still held by the allocator */
      if (r == 0)
        rss_decode = peak_rss_kib ();
    }
  trace = bl_perfetto_get_trace (BL_PROFILE (loaded));

  /* the analysis of what the decode left: dominators, retained sizes,
   * leaks, cycles */
  t0 = g_get_monotonic_time ();
  c0 = cpu_seconds ();
  for (guint i = 0; i < trace->heaps->len; i++)
    {
      bl_heap_finish (g_ptr_array_index (trace->heaps, i));
      bl_heap_analyse (g_ptr_array_index (trace->heaps, i), NULL);
    }
  c_analysis = cpu_seconds () - c0;
  t_analysis = (g_get_monotonic_time () - t0) / 1e6;
  rss_after = peak_rss_kib ();

  printf ("bare varint pass: %.2f s (CPU %.2f s)\n", t_bare, c_bare);
  printf ("decode (slices, counters, heap graph into BlHeap's arrays; no analysis): "
          "%.2f s = %.2f× the bare pass, best of 3 (runs %.2f, %.2f, %.2f s; "
          "CPU %.2f s = %.2f×)\n",
          t_decode, t_decode / t_bare, t_runs[0], t_runs[1], t_runs[2],
          c_decode, c_decode / c_bare);
  printf ("  %" G_GUINT64_FORMAT " slices, %u distinct call tree nodes, %u heap graph(s)\n",
          trace->n_slices, bl_profile_get_n_nodes (BL_PROFILE (loaded)), trace->heaps->len);
  printf ("heap analysis of the decoded graph(s) (bl_heap_analyse): %.2f s (CPU %.2f s)\n",
          t_analysis, c_analysis);
  for (guint i = 0; i < trace->heaps->len; i++)
    {
      BlHeap *heap = g_ptr_array_index (trace->heaps, i);
      guint n_cycles;

      bl_heap_get_cycles (heap, &n_cycles);
      printf ("  graph %u: %u objects, %u types, %u leaked (%" G_GUINT64_FORMAT " bytes), "
              "%u leak cycle patterns\n", i, bl_heap_get_n_objects (heap),
              bl_heap_get_n_types (heap), bl_heap_get_n_leaked (heap),
              bl_heap_get_leaked_bytes (heap), n_cycles);
    }
  printf ("peak RSS: decode %.0f MB, decode + analysis %.0f MB (before decoding %.0f MB); "
          "file %.0f MB\n",
          rss_decode / 1024.0, rss_after / 1024.0, rss_before / 1024.0, st.st_size / 1048576.0);
  g_clear_object (&loaded);

  /* dominators and retained sizes alone, on the random shape's graph */
  if (!app)
  {
    g_autoptr (BlHeap) heap = bl_heap_new ();
    GRand *rand = g_rand_new_with_seed (7);
    guint32 field = bl_heap_intern_field (heap, "next");

    for (guint i = 0; i < 200; i++)
      bl_heap_add_type (heap, "Type");
    for (guint32 i = 0; i < n_objects; i++)
      bl_heap_add_object (heap, i % 200, 16 + i % 64);
    for (guint32 i = 0; i < n_objects; i++)
      {
        bl_heap_add_reference (heap, i, field, (i + 1) % n_objects);
        bl_heap_add_reference (heap, i, field, g_rand_int_range (rand, 0, n_objects));
      }
    for (guint i = 0; i < 1000; i++)
      bl_heap_add_root (heap, i * (n_objects / 1000));
    g_rand_free (rand);

    t0 = g_get_monotonic_time ();
    c0 = cpu_seconds ();
    bl_heap_finish (heap);
    bl_heap_analyse (heap, NULL);
    c_heap = cpu_seconds () - c0;
    t_heap = (g_get_monotonic_time () - t0) / 1e6;
    printf ("heap analysis of %u objects, %u references (dominators, retained, leaks): "
            "%.2f s (CPU %.2f s)\n", n_objects, 2 * n_objects, t_heap, c_heap);
  }

  if (remove_after)
    g_unlink (path);
  (void) sink;
  fflush (stdout);
}

int
main (int    argc,
      char **argv)
{
  const char *shape = NULL;
  const char *args[3] = { NULL, NULL, NULL };
  guint n_args = 0;
  guint64 size_mb;
  guint32 n_objects;

  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--shape") && i + 1 < argc)
        shape = argv[++i];
      else if (g_str_has_prefix (argv[i], "--shape="))
        shape = argv[i] + strlen ("--shape=");
      else if (argv[i][0] != '-' && n_args < G_N_ELEMENTS (args))
        args[n_args++] = argv[i];
      else
        {
          fprintf (stderr, "usage: bench-perfetto [--shape random|app] "
                   "[SIZE_MB [HEAP_OBJECTS [PATH]]]\n");
          return 2;
        }
    }
  if (shape != NULL && !g_str_equal (shape, "random") && !g_str_equal (shape, "app"))
    {
      fprintf (stderr, "bench-perfetto: unknown shape \"%s\" (random or app)\n", shape);
      return 2;
    }
  size_mb = args[0] != NULL ? g_ascii_strtoull (args[0], NULL, 10) : 200;
  n_objects = args[1] != NULL ? (guint32) g_ascii_strtoull (args[1], NULL, 10) : 5000000;

  if (shape != NULL)
    {
      run_shape (g_str_equal (shape, "app"), size_mb, n_objects, args[2]);
      return 0;
    }

  /* both shapes, each in its own process so that each peak RSS is its own */
  for (guint s = 0; s < 2; s++)
    {
      g_autofree char *path = NULL;
      pid_t pid, done;
      int status;

      if (args[2] != NULL)
        path = g_strdup_printf ("%s.%s", args[2], s == 1 ? "app" : "random");
      fflush (stdout);
      pid = fork ();
      g_assert_cmpint (pid, >=, 0);
      if (pid == 0)
        {
          run_shape (s == 1, size_mb, n_objects, path);
          _exit (0);
        }
      done = waitpid (pid, &status, 0);
      g_assert_cmpint (done, ==, pid);
      if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
        return 1;
    }

  return 0;
}
