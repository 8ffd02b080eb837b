/* bl-speedscope-writer.c — export to speedscope's JSON file format
 *
 * Streamed text, never a document tree: the shared frames are the
 * profile's functions (name, file, line — so identical frames are shared
 * across threads), and each thread becomes one profile in the profile's
 * default metric, in the unit of that metric: an evented profile when the
 * thread has a time order (its spans become open and close events, so
 * speedscope's Time Order view shows the same thing), else a sampled one
 * holding one sample per call path with a self value.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-speedscope"

#include "config.h"

#include "bl-speedscope-reader.h"
#include "bl-speedscope-writer.h"

#define FLUSH_SIZE (64 * 1024)

typedef struct
{
  GOutputStream *out;
  GCancellable  *cancellable;
  GString       *buffer;
} Writer;

static gboolean
flush (Writer   *w,
       gboolean  force,
       GError  **error)
{
  if (w->buffer->len == 0 || (!force && w->buffer->len < FLUSH_SIZE))
    return TRUE;

  if (!g_output_stream_write_all (w->out, w->buffer->str, w->buffer->len, NULL,
                                  w->cancellable, error))
    return FALSE;
  g_string_truncate (w->buffer, 0);

  return TRUE;
}

static void
append_json_string (GString    *buffer,
                    const char *str)
{
  g_string_append_c (buffer, '"');
  for (const char *p = str; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      switch (c)
        {
        case '"':
          g_string_append (buffer, "\\\"");
          break;
        case '\\':
          g_string_append (buffer, "\\\\");
          break;
        case '\n':
          g_string_append (buffer, "\\n");
          break;
        case '\r':
          g_string_append (buffer, "\\r");
          break;
        case '\t':
          g_string_append (buffer, "\\t");
          break;
        default:
          if (c < 0x20)
            g_string_append_printf (buffer, "\\u%04x", c);
          else
            g_string_append_c (buffer, (char) c);
        }
    }
  g_string_append_c (buffer, '"');
}

/* The spans of @thread, in the order they were entered, as open and close
 * events in time order. @stack is scratch space for one span per node. */
static gboolean
write_evented (Writer         *w,
               BlProfile      *profile,
               guint           thread,
               BlMetricId      metric,
               const char     *unit,
               const guint32  *frame_of_function,
               guint32        *stack,
               GError        **error)
{
  GString *buffer = w->buffer;
  const BlSpan *spans;
  gsize n_spans;
  guint64 start = 0, end = 0;
  guint depth = 0;
  gboolean first = TRUE;

  spans = bl_profile_get_spans (profile, thread, &n_spans);
  bl_profile_get_time_range (profile, thread, &start, &end);

  g_string_append (buffer, "{\"type\":\"evented\",\"name\":");
  append_json_string (buffer, bl_profile_get_thread_name (profile, thread));
  g_string_append_printf (buffer, ",\"unit\":\"%s\",\"" BL_SPEEDSCOPE_METRIC_MEMBER "\":\"%s\""
                          ",\"startValue\":%" G_GUINT64_FORMAT ",\"endValue\":%"
                          G_GUINT64_FORMAT ",\"events\":[",
                          unit, bl_metric_get_name (metric), start, end);

  for (gsize i = 0; i <= n_spans; i++)
    {
      if (i < n_spans && spans[i].depth == 0)
        continue;

      /* spans nest as they were entered: close those as deep as this one
       * or deeper (everything at the end) */
      while (depth > 0 && (i == n_spans || spans[stack[depth - 1]].depth >= spans[i].depth))
        {
          const BlSpan *open = &spans[stack[--depth]];

          g_string_append_printf (buffer, ",{\"type\":\"C\",\"frame\":%u,\"at\":%"
                                  G_GUINT64_FORMAT "}",
                                  frame_of_function[bl_profile_get_node_function (profile,
                                                                                  open->node)],
                                  open->end);
        }
      if (i == n_spans)
        break;

      g_string_append_printf (buffer, "%s{\"type\":\"O\",\"frame\":%u,\"at\":%"
                              G_GUINT64_FORMAT "}",
                              first ? "" : ",",
                              frame_of_function[bl_profile_get_node_function (profile,
                                                                              spans[i].node)],
                              spans[i].start);
      first = FALSE;
      stack[depth++] = (guint32) i;

      if (!flush (w, FALSE, error))
        return FALSE;
    }

  g_string_append (buffer, "]}");

  return flush (w, FALSE, error);
}

/**
 * bl_speedscope_write:
 * @profile: a finished profile
 * @out: where to write
 *
 * Writes @profile in speedscope's file format: "$schema", "exporter"
 * (brightlens@VERSION), "name", "activeProfileIndex", deduplicated shared
 * frames and one sampled profile per thread in the default metric.
 *
 * Returns: %FALSE with @error set if writing failed
 */
gboolean
bl_speedscope_write (BlProfile      *profile,
                     GOutputStream  *out,
                     GCancellable   *cancellable,
                     GError        **error)
{
  g_autoptr(GString) buffer = g_string_sized_new (FLUSH_SIZE + 4096);
  g_autofree guint32 *frame_of_function = NULL;
  g_autofree guint32 *path = NULL;
  const BlProfileInfo *info;
  const guint64 *self_values = NULL;
  BlMetricId metric;
  const char *unit = "none";
  guint n_functions, n_nodes;
  guint32 n_frames = 0;
  Writer w;

  g_return_val_if_fail (BL_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (bl_profile_is_finished (profile), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  w.out = out;
  w.cancellable = cancellable;
  w.buffer = buffer;

  info = bl_profile_get_info (profile);
  metric = bl_profile_get_default_metric (profile);
  if (metric != BL_METRIC_INVALID)
    {
      self_values = bl_profile_get_self_array (profile, metric);
      unit = bl_unit_get_speedscope_name (bl_metric_get_info (metric)->unit);
    }

  g_string_append (buffer, "{\"$schema\":\"" BL_SPEEDSCOPE_SCHEMA "\",");
  g_string_append (buffer, "\"exporter\":\"brightlens@" PACKAGE_VERSION "\",\"name\":");
  if (info->target != NULL && info->target[0] != '\0')
    append_json_string (buffer, info->target);
  else
    {
      g_autofree char *name = g_strdup_printf ("%s profile",
                                               info->format != NULL ? info->format : "Brightlens");

      append_json_string (buffer, name);
    }
  g_string_append (buffer, ",\"activeProfileIndex\":0,\"shared\":{\"frames\":[");

  /* frames: the functions that are not thread roots */
  n_functions = bl_profile_get_n_functions (profile);
  n_nodes = bl_profile_get_n_nodes (profile);
  frame_of_function = g_new (guint32, MAX (n_functions, 1));
  for (guint f = 0; f < n_functions; f++)
    frame_of_function[f] = G_MAXUINT32;
  for (guint32 n = 0; n < n_nodes; n++)
    {
      const BlNode *node = bl_profile_get_node (profile, n);
      guint32 f = bl_profile_get_node_function (profile, n);
      const BlFunction *function;

      if (node->parent == BL_NODE_NONE || frame_of_function[f] != G_MAXUINT32)
        continue;

      function = bl_profile_get_function (profile, f);
      frame_of_function[f] = n_frames++;
      if (n_frames > 1)
        g_string_append_c (buffer, ',');
      g_string_append (buffer, "{\"name\":");
      append_json_string (buffer, bl_profile_get_string (profile, function->name));
      if (function->file != 0)
        {
          g_string_append (buffer, ",\"file\":");
          append_json_string (buffer, bl_profile_get_string (profile, function->file));
        }
      if (function->line != 0)
        g_string_append_printf (buffer, ",\"line\":%u", function->line);
      g_string_append_c (buffer, '}');

      if (!flush (&w, FALSE, error))
        return FALSE;
    }
  g_string_append (buffer, "]},\"profiles\":[");

  /* one profile per thread */
  path = g_new (guint32, MAX (n_nodes, 1));
  for (guint t = 0; t < bl_profile_get_n_threads (profile); t++)
    {
      guint32 root = bl_profile_get_thread_root (profile, t);
      guint64 total = metric != BL_METRIC_INVALID
        ? bl_profile_get_total (profile, metric, root) : 0;
      g_autoptr(GString) weights = g_string_new (NULL);
      guint32 n = root;
      guint depth = 0;
      gboolean first = TRUE;
      gsize n_spans = 0;

      if (t > 0)
        g_string_append_c (buffer, ',');

      if (metric != BL_METRIC_INVALID && bl_profile_get_spans (profile, t, &n_spans) != NULL)
        {
          if (!write_evented (&w, profile, t, metric, unit, frame_of_function, path, error))
            return FALSE;
          continue;
        }

      g_string_append (buffer, "{\"type\":\"sampled\",\"name\":");
      append_json_string (buffer, bl_profile_get_thread_name (profile, t));
      g_string_append_printf (buffer, ",\"unit\":\"%s\"", unit);
      if (metric != BL_METRIC_INVALID)
        g_string_append_printf (buffer, ",\"" BL_SPEEDSCOPE_METRIC_MEMBER "\":\"%s\"",
                                bl_metric_get_name (metric));
      g_string_append_printf (buffer, ",\"startValue\":0,\"endValue\":%" G_GUINT64_FORMAT
                              ",\"samples\":[", total);

      /* depth-first walk; path[d] is the frame at depth d + 1 */
      while (n != BL_NODE_NONE)
        {
          const BlNode *node = bl_profile_get_node (profile, n);

          if (node->depth > 0)
            path[node->depth - 1] = frame_of_function[bl_profile_get_node_function (profile, n)];
          depth = node->depth;

          if (self_values != NULL && self_values[n] != 0)
            {
              if (!first)
                {
                  g_string_append_c (buffer, ',');
                  g_string_append_c (weights, ',');
                }
              first = FALSE;
              g_string_append_c (buffer, '[');
              for (guint d = 0; d < depth; d++)
                g_string_append_printf (buffer, d > 0 ? ",%u" : "%u", path[d]);
              g_string_append_c (buffer, ']');
              g_string_append_printf (weights, "%" G_GUINT64_FORMAT, self_values[n]);

              if (!flush (&w, FALSE, error))
                return FALSE;
            }

          if (node->first_child != BL_NODE_NONE)
            {
              n = node->first_child;
              continue;
            }
          while (n != root && bl_profile_get_node (profile, n)->next_sibling == BL_NODE_NONE)
            n = bl_profile_get_node (profile, n)->parent;
          n = n == root ? BL_NODE_NONE : bl_profile_get_node (profile, n)->next_sibling;
        }

      /* the weights were gathered aside so the samples could stream */
      g_string_append (buffer, "],\"weights\":[");
      g_string_append_len (buffer, weights->str, weights->len);
      g_string_append (buffer, "]}");
      if (!flush (&w, FALSE, error))
        return FALSE;
    }

  g_string_append (buffer, "]}\n");

  return flush (&w, TRUE, error);
}
