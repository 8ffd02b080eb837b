/* bl-cpuprofile-writer.c — test-only Chrome DevTools profiles, written by hand
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-cpuprofile-writer.h"

static void
append_string (GString    *out,
               const char *str)
{
  g_string_append_c (out, '"');
  for (const char *p = str; *p != '\0'; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static void
append_call_frame (GString    *out,
                   const char *function_name,
                   const char *url,
                   int         line,
                   int         col)
{
  g_string_append (out, "{\"functionName\":");
  append_string (out, function_name != NULL ? function_name : "");
  g_string_append (out, ",\"scriptId\":\"0\",\"url\":");
  append_string (out, url != NULL ? url : "");
  g_string_append_printf (out, ",\"lineNumber\":%d,\"columnNumber\":%d}", line, col);
}

GBytes *
bl_cpuprofile_write (const BlCpuNode *nodes,
                     guint            n_nodes,
                     const char      *samples,
                     const char      *time_deltas,
                     gboolean         nodes_last)
{
  GString *out = g_string_new ("{");
  g_autoptr(GString) list = g_string_new ("\"nodes\":[");

  for (guint i = 0; i < n_nodes; i++)
    {
      const BlCpuNode *node = &nodes[i];

      if (i > 0)
        g_string_append_c (list, ',');
      g_string_append_printf (list, "{\"id\":%s,\"callFrame\":", node->id);
      append_call_frame (list, node->function_name, node->url, node->line, node->col);
      g_string_append (list, ",\"hitCount\":0");
      if (node->children != NULL)
        g_string_append_printf (list, ",\"children\":[%s]", node->children);
      if (node->parent != NULL)
        g_string_append_printf (list, ",\"parent\":%s", node->parent);
      g_string_append_c (list, '}');
    }
  g_string_append_c (list, ']');

  if (!nodes_last)
    g_string_append_printf (out, "%s,", list->str);
  g_string_append (out, "\"startTime\":1000000,\"endTime\":2000000");
  if (samples != NULL)
    g_string_append_printf (out, ",\"samples\":[%s]", samples);
  if (time_deltas != NULL)
    g_string_append_printf (out, ",\"timeDeltas\":[%s]", time_deltas);
  if (nodes_last)
    g_string_append_printf (out, ",%s", list->str);
  g_string_append_c (out, '}');

  return g_string_free_to_bytes (out);
}

GBytes *
bl_heapprofile_write (const BlHeapNode *nodes,
                      guint             n_nodes,
                      const char       *samples)
{
  GString *out = g_string_new ("{\"head\":");
  guint depth = 0;

  for (guint i = 0; i < n_nodes; i++)
    {
      const BlHeapNode *node = &nodes[i];

      g_assert (i == 0 ? node->depth == 0 : node->depth >= 1 && node->depth <= depth + 1);
      if (i > 0)
        {
          if (node->depth == depth + 1)
            g_string_append_c (out, '[');
          else
            {
              /* close the nodes (and children lists) down to this level */
              g_string_append_c (out, '}');
              for (guint d = depth; d > node->depth; d--)
                g_string_append (out, "]}");
              g_string_append_c (out, ',');
            }
        }
      g_string_append (out, "{\"callFrame\":");
      append_call_frame (out, node->function_name, node->url, node->line, node->col);
      g_string_append_printf (out, ",\"selfSize\":%s,\"id\":%s,\"children\":",
                              node->self_size, node->id);
      /* a leaf's empty children list is written when the next node shows it is one */
      if (i + 1 == n_nodes || nodes[i + 1].depth <= node->depth)
        g_string_append (out, "[]");
      depth = node->depth;
    }
  g_string_append_c (out, '}');
  for (guint d = depth; d > 0; d--)
    g_string_append (out, "]}");
  if (samples != NULL)
    g_string_append_printf (out, ",\"samples\":[%s]", samples);
  g_string_append_c (out, '}');

  return g_string_free_to_bytes (out);
}

/* ---- big realistic profiles --------------------------------------------- */

static inline guint32
next_random (guint64 *state)
{
  /* splitmix64 */
  guint64 z = (*state += G_GUINT64_CONSTANT (0x9E3779B97F4A7C15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);

  return (guint32) ((z ^ (z >> 31)) >> 32);
}

static gboolean
flush_if_big (GOutputStream  *out,
              GString        *buf,
              gboolean        force,
              GError        **error)
{
  if (buf->len < (1 << 20) && !force)
    return TRUE;
  if (!g_output_stream_write_all (out, buf->str, buf->len, NULL, NULL, error))
    return FALSE;
  g_string_truncate (buf, 0);

  return TRUE;
}

gboolean
bl_cpuprofile_write_shape (GOutputStream *out,
                           guint          n_nodes,
                           guint          max_depth,
                           guint          n_samples,
                           guint32        seed,
                           GError       **error)
{
  enum { N_SPECIAL = 4, N_FUNCTIONS = 600, N_SCRIPTS = 40 };
  g_autoptr(GString) buf = g_string_sized_new (2 << 20);
  g_autofree guint32 *parent = NULL;
  g_autofree guint32 *depth = NULL;
  g_autofree guint32 *function = NULL;
  g_autofree guint32 *first_child = NULL;   /* CSR: children of i at child[first_child[i]…] */
  g_autofree guint32 *child = NULL;
  g_autofree guint32 *fill = NULL;
  guint64 rng = seed;
  guint32 current;

  g_return_val_if_fail (n_nodes > N_SPECIAL, FALSE);
  g_return_val_if_fail (max_depth >= 2, FALSE);

  /* the tree: node 0 (id 1) is (root); 1 (program), 2 (idle),
   * 3 (garbage collector); the others hang under a recent node that is
   * not too deep, or start a new tree under the root */
  parent = g_new (guint32, n_nodes);
  depth = g_new (guint32, n_nodes);
  function = g_new (guint32, n_nodes);
  parent[0] = G_MAXUINT32;
  depth[0] = 0;
  for (guint i = 1; i < n_nodes; i++)
    {
      guint32 p = 0;

      if (i >= N_SPECIAL && next_random (&rng) % 64 != 0)
        {
          guint back = 1 + next_random (&rng) % MIN (i - N_SPECIAL + 1, 256);

          p = i - back;
          if (p < N_SPECIAL)
            p = 0;
          while (depth[p] + 1 > max_depth)
            p = parent[p];
        }
      parent[i] = p;
      depth[i] = depth[p] + 1;
      function[i] = next_random (&rng) % N_FUNCTIONS;
    }

  first_child = g_new0 (guint32, n_nodes + 1);
  for (guint i = 1; i < n_nodes; i++)
    first_child[parent[i] + 1]++;
  for (guint i = 0; i < n_nodes; i++)
    first_child[i + 1] += first_child[i];
  child = g_new (guint32, MAX (n_nodes - 1, 1));
  fill = g_memdup2 (first_child, sizeof (guint32) * n_nodes);
  for (guint i = 1; i < n_nodes; i++)
    child[fill[parent[i]]++] = i;

  g_string_append (buf, "{\"nodes\":[");
  for (guint i = 0; i < n_nodes; i++)
    {
      guint f = function[i];

      if (i > 0)
        g_string_append_c (buf, ',');
      g_string_append_printf (buf, "{\"id\":%u,\"callFrame\":", i + 1);
      if (i < N_SPECIAL)
        {
          static const char *names[] = { "(root)", "(program)", "(idle)", "(garbage collector)" };

          g_string_append_printf (buf, "{\"functionName\":\"%s\",\"scriptId\":\"0\",\"url\":\"\","
                                  "\"lineNumber\":-1,\"columnNumber\":-1}", names[i]);
        }
      else
        g_string_append_printf (buf, "{\"functionName\":\"%s%u\",\"scriptId\":\"%u\","
                                "\"url\":\"https://apps.example.com/rsg/app/source/"
                                "components/module%u.js\",\"lineNumber\":%u,"
                                "\"columnNumber\":%u}",
                                f % 7 == 0 ? "" : "handler", f, 10 + f % N_SCRIPTS,
                                f % N_SCRIPTS, (f * 37) % 4000, (f * 13) % 80);
      g_string_append_printf (buf, ",\"hitCount\":%u", next_random (&rng) % 50);
      if (first_child[i + 1] > first_child[i])
        {
          g_string_append (buf, ",\"children\":[");
          for (guint32 c = first_child[i]; c < first_child[i + 1]; c++)
            g_string_append_printf (buf, c > first_child[i] ? ",%u" : "%u", child[c] + 1);
          g_string_append_c (buf, ']');
        }
      if (i >= N_SPECIAL && next_random (&rng) % 2 == 0)
        {
          guint n_ticks = 1 + next_random (&rng) % 12;

          g_string_append (buf, ",\"positionTicks\":[");
          for (guint t = 0; t < n_ticks; t++)
            g_string_append_printf (buf, "%s{\"line\":%u,\"ticks\":%u}", t > 0 ? "," : "",
                                    (f * 37) % 4000 + 1 + t, 1 + next_random (&rng) % 30);
          g_string_append_c (buf, ']');
        }
      g_string_append_c (buf, '}');
      if (!flush_if_big (out, buf, FALSE, error))
        return FALSE;
    }
  g_string_append (buf, "],\"startTime\":94418162451,\"endTime\":94718162451,\"samples\":[");

  /* the samples: a walk that mostly stays near the previous stack */
  current = N_SPECIAL < n_nodes ? N_SPECIAL : 0;
  for (guint s = 0; s < n_samples; s++)
    {
      guint r = next_random (&rng) % 100;
      guint32 sample;

      if (r < 55)
        ;
      else if (r < 72 && first_child[current + 1] > first_child[current])
        current = child[first_child[current] +
                        next_random (&rng) % (first_child[current + 1] - first_child[current])];
      else if (r < 88 && parent[current] != G_MAXUINT32 && parent[current] != 0)
        current = parent[current];
      else if (r < 93)
        current = N_SPECIAL + next_random (&rng) % (n_nodes - N_SPECIAL);
      sample = current;
      if (r >= 96)
        sample = r == 99 ? 2 : r == 98 ? 3 : 1;   /* idle, GC, program */
      g_string_append_printf (buf, s > 0 ? ",%u" : "%u", sample + 1);
      if (!flush_if_big (out, buf, FALSE, error))
        return FALSE;
    }
  g_string_append (buf, "],\"timeDeltas\":[");
  for (guint s = 0; s < n_samples; s++)
    {
      g_string_append_printf (buf, s > 0 ? ",%u" : "%u", 50 + next_random (&rng) % 200);
      if (!flush_if_big (out, buf, FALSE, error))
        return FALSE;
    }
  g_string_append (buf, "]}");

  return flush_if_big (out, buf, TRUE, error);
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

gboolean
bl_cpuprofile_write_tree (GOutputStream *out,
                          guint          n_nodes,
                          guint          n_samples,
                          GError       **error)
{
  g_autoptr(GString) buf = g_string_sized_new (2 << 20);

  g_return_val_if_fail (n_nodes >= 2, FALSE);

  g_string_append (buf, "{\"nodes\":[\n{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\","
                   "\"scriptId\":\"0\",\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1},"
                   "\"children\":[2");
  if (n_nodes >= 3)
    g_string_append (buf, ",3");
  g_string_append (buf, "]}");
  for (guint64 i = 2; i <= n_nodes; i++)
    {
      g_string_append_printf (buf, ",\n{\"id\":%" G_GUINT64_FORMAT ",\"callFrame\":"
                              "{\"functionName\":\"f%u\",\"scriptId\":\"%u\","
                              "\"url\":\"file:///app/s%u.js\",\"lineNumber\":%u,"
                              "\"columnNumber\":%u}",
                              i, (guint) (i % 1000), (guint) (i % 50) + 1, (guint) (i % 50),
                              (guint) (i % 1000), (guint) (i % 7));
      if (2 * i + 1 <= n_nodes)
        g_string_append_printf (buf, ",\"children\":[%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
                                "]", 2 * i, 2 * i + 1);
      else if (2 * i <= n_nodes)
        g_string_append_printf (buf, ",\"children\":[%" G_GUINT64_FORMAT "]", 2 * i);
      g_string_append_c (buf, '}');
      if (!drain (out, buf, FALSE, error))
        return FALSE;
    }
  g_string_append (buf, "],\n\"startTime\":1000,\"endTime\":2000,\"samples\":[");
  for (guint s = 0; s < n_samples; s++)
    {
      g_string_append_printf (buf, s > 0 ? ",%u" : "%u",
                              bl_cpuprofile_tree_sample (n_nodes, s));
      if (!drain (out, buf, FALSE, error))
        return FALSE;
    }
  g_string_append (buf, "],\n\"timeDeltas\":[");
  for (guint s = 0; s < n_samples; s++)
    {
      g_string_append (buf, s > 0 ? ",1000" : "0");
      if (!drain (out, buf, FALSE, error))
        return FALSE;
    }
  g_string_append (buf, "]}\n");

  return drain (out, buf, TRUE, error);
}

guint32
bl_cpuprofile_tree_sample (guint n_nodes,
                           guint s)
{
  /* spread over the tree, deepest first, never the root */
  guint64 back = (guint64) s * 7919 % (n_nodes - 1);

  return (guint32) (n_nodes - back);
}

char *
bl_trace_chunk_args (const BlCpuNode *nodes,
                     guint            n_nodes,
                     const char      *samples,
                     const char      *time_deltas)
{
  GString *out = g_string_new ("{\"data\":{\"cpuProfile\":{\"nodes\":[");

  for (guint i = 0; i < n_nodes; i++)
    {
      const BlCpuNode *node = &nodes[i];

      /* as Chrome writes them: callFrame, id, parent */
      g_string_append (out, i > 0 ? ",{\"callFrame\":" : "{\"callFrame\":");
      append_call_frame (out, node->function_name, node->url, node->line, node->col);
      g_string_append_printf (out, ",\"id\":%s", node->id);
      if (node->children != NULL)
        g_string_append_printf (out, ",\"children\":[%s]", node->children);
      if (node->parent != NULL)
        g_string_append_printf (out, ",\"parent\":%s", node->parent);
      g_string_append_c (out, '}');
    }
  g_string_append (out, "]");
  if (samples != NULL)
    g_string_append_printf (out, ",\"samples\":[%s]", samples);
  g_string_append (out, "}");
  if (time_deltas != NULL)
    g_string_append_printf (out, ",\"timeDeltas\":[%s]", time_deltas);
  g_string_append (out, "}}");

  return g_string_free (out, FALSE);
}

GBytes *
bl_trace_write (const BlTraceEvent *events,
                guint               n_events,
                BlTraceForm         form)
{
  GString *out = g_string_new (form == BL_TRACE_OBJECT ? "{\"traceEvents\":[" : "[");

  for (guint i = 0; i < n_events; i++)
    {
      const BlTraceEvent *e = &events[i];
      const char *ph = g_strcmp0 (e->name, "thread_name") == 0 ? "M"
                       : g_strcmp0 (e->name, "Profile") == 0 ||
                         g_strcmp0 (e->name, "ProfileChunk") == 0 ? "P" : "X";

      /* members in Chrome's order: args first, name after */
      g_string_append (out, i > 0 ? ",\n{" : "\n{");
      if (e->args != NULL)
        g_string_append_printf (out, "\"args\":%s,", e->args);
      g_string_append (out, "\"cat\":\"disabled-by-default-v8.cpu_profiler\"");
      if (e->id != NULL)
        g_string_append_printf (out, ",\"id\":%s", e->id);
      g_string_append (out, ",\"name\":");
      append_string (out, e->name);
      g_string_append_printf (out, ",\"ph\":\"%s\"", ph);
      if (e->pid != NULL)
        g_string_append_printf (out, ",\"pid\":%s", e->pid);
      if (e->tid != NULL)
        g_string_append_printf (out, ",\"tid\":%s", e->tid);
      if (e->ts != NULL)
        g_string_append_printf (out, ",\"ts\":%s", e->ts);
      g_string_append_c (out, '}');
    }
  if (form == BL_TRACE_OBJECT)
    g_string_append (out, "],\n\"metadata\":{\"source\":\"DevTools\"}}\n");
  else if (form == BL_TRACE_ARRAY)
    g_string_append (out, "]\n");
  else
    g_string_append (out, ",\n");   /* the JSON Array Format's open end */

  return g_string_free_to_bytes (out);
}
