/* bl-speedscope-writer.c — export to speedscope's JSON file format
 *
 * Streamed text, never a document tree. The shared frames are the
 * profile's frames where it has them (a speedscope file read back: one
 * frame per frame of the original that is used, with line and column, so
 * frames speedscope keeps apart stay apart), else its functions (name,
 * file, line — identical frames shared across threads).
 *
 * Each thread becomes one profile per metric it has a value of, each in
 * its own unit and naming its metric (BL_SPEEDSCOPE_METRIC_MEMBER; our
 * reader puts the profiles of one thread together again): an evented
 * profile for the metric of the thread's time order (its spans become
 * open and close events, so speedscope's Time Order view shows the same
 * thing), else a sampled one: its samples in the order they were taken
 * where the thread has a sample order (a sampled speedscope profile read
 * back), else one sample per call path with a self value (the thread's own
 * value, if any, as an empty stack). Values that
 * have decimals (bl_profile_get_metric_decimals()) are written as exact
 * decimal numbers.
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
               const guint32  *frame_of_node,
               guint32        *stack,
               GError        **error)
{
  GString *buffer = w->buffer;
  BlSpanList list;
  const BlSpan *spans;
  gsize n_spans;
  guint64 start = 0, end = 0;
  guint depth = 0;
  gboolean first = TRUE;

  bl_profile_get_spans (profile, thread, &list);
  spans = list.spans;
  n_spans = list.n_spans;
  bl_profile_get_time_range (profile, thread, &start, &end);

  g_string_append (buffer, ",\"type\":\"evented\",\"startValue\":");
  bl_profile_append_exact_value (profile, metric, start, buffer);
  g_string_append (buffer, ",\"endValue\":");
  bl_profile_append_exact_value (profile, metric, end, buffer);
  g_string_append (buffer, ",\"events\":[");

  for (gsize i = 0; i <= n_spans; i++)
    {
      if (i < n_spans && bl_span_list_get_depth (&list, i) == 0)
        continue;

      /* spans nest as they were entered: close those as deep as this one
       * or deeper (everything at the end) */
      while (depth > 0 &&
             (i == n_spans ||
              bl_span_list_get_depth (&list, stack[depth - 1]) >= bl_span_list_get_depth (&list, i)))
        {
          guint32 open = stack[--depth];

          g_string_append_printf (buffer, ",{\"type\":\"C\",\"frame\":%u,\"at\":",
                                  frame_of_node[spans[open].node]);
          bl_profile_append_exact_value (profile, metric, bl_span_list_get_end (&list, open),
                                         buffer);
          g_string_append_c (buffer, '}');
        }
      if (i == n_spans)
        break;

      g_string_append_printf (buffer, "%s{\"type\":\"O\",\"frame\":%u,\"at\":",
                              first ? "" : ",", frame_of_node[spans[i].node]);
      bl_profile_append_exact_value (profile, metric, spans[i].start, buffer);
      g_string_append_c (buffer, '}');
      first = FALSE;
      stack[depth++] = (guint32) i;

      if (!flush (w, FALSE, error))
        return FALSE;
    }

  g_string_append (buffer, "]}");

  return flush (w, FALSE, error);
}

/* The samples of @thread in the order they were taken, if it has them and
 * they add up to @metric's total; @path is scratch space for one frame per
 * depth. Returns FALSE with @done unset when there are none to write. */
static gboolean
write_sample_order (Writer         *w,
                    BlProfile      *profile,
                    guint           thread,
                    BlMetricId      metric,
                    const guint32  *frame_of_node,
                    guint32        *path,
                    gboolean       *done,
                    GError        **error)
{
  GString *buffer = w->buffer;
  g_autoptr(GString) weights = g_string_new (NULL);
  const BlOrderedSample *samples;
  gsize n_samples;
  guint64 sum = 0;

  *done = FALSE;
  samples = bl_profile_get_samples (profile, thread, &n_samples);
  if (samples == NULL || metric == BL_METRIC_INVALID)
    return TRUE;
  for (gsize i = 0; i < n_samples; i++)
    sum += samples[i].weight;
  if (sum != bl_profile_get_total (profile, metric, bl_profile_get_thread_root (profile, thread)))
    return TRUE;

  for (gsize i = 0; i < n_samples; i++)
    {
      guint depth = bl_profile_get_node (profile, samples[i].node)->depth;

      if (i > 0)
        {
          g_string_append_c (buffer, ',');
          g_string_append_c (weights, ',');
        }
      for (guint32 n = samples[i].node, d = depth; d > 0; d--)
        {
          path[d - 1] = frame_of_node[n];
          n = bl_profile_get_node (profile, n)->parent;
        }
      g_string_append_c (buffer, '[');
      for (guint d = 0; d < depth; d++)
        g_string_append_printf (buffer, d > 0 ? ",%u" : "%u", path[d]);
      g_string_append_c (buffer, ']');
      bl_profile_append_exact_value (profile, metric, samples[i].weight, weights);

      if (!flush (w, FALSE, error))
        return FALSE;
    }

  g_string_append (buffer, "],\"weights\":[");
  g_string_append_len (buffer, weights->str, weights->len);
  g_string_append (buffer, "]}");
  *done = TRUE;

  return flush (w, FALSE, error);
}

/* One sample per node of @thread with a self value of @metric, depth first
 * (or, with @in_order, the samples in the order they were taken, where the
 * thread has them: they are in its first metric); @path is scratch space
 * for one frame per depth. */
static gboolean
write_sampled (Writer         *w,
               BlProfile      *profile,
               guint           thread,
               BlMetricId      metric,
               gboolean        in_order,
               const guint32  *frame_of_node,
               guint32        *path,
               GError        **error)
{
  GString *buffer = w->buffer;
  g_autoptr(GString) weights = g_string_new (NULL);
  const guint64 *self_values = bl_profile_get_self_array (profile, metric);
  guint32 root = bl_profile_get_thread_root (profile, thread);
  guint32 n = root;
  gboolean first = TRUE;
  gboolean done;

  g_string_append (buffer, ",\"type\":\"sampled\",\"startValue\":0,\"endValue\":");
  bl_profile_append_exact_value (profile, metric, bl_profile_get_total (profile, metric, root),
                                 buffer);
  g_string_append (buffer, ",\"samples\":[");

  done = FALSE;
  if (in_order &&
      !write_sample_order (w, profile, thread, metric, frame_of_node, path, &done, error))
    return FALSE;
  if (done)
    return TRUE;

  while (n != BL_NODE_NONE)
    {
      const BlNode *node = bl_profile_get_node (profile, n);
      guint depth = node->depth;

      if (depth > 0)
        path[depth - 1] = frame_of_node[n];

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
          bl_profile_append_exact_value (profile, metric, self_values[n], weights);

          if (!flush (w, FALSE, error))
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

  return flush (w, FALSE, error);
}

/* The metrics @thread has a value of, the one of its time order first (the
 * first of cpu, time-ns and wall it has), then in table order; the
 * default metric (BL_METRIC_INVALID in a profile without any) when it has
 * none, so that the thread is still written. */
static guint
thread_metrics (BlProfile  *profile,
                guint       thread,
                BlMetricId *metrics)
{
  BlMetricId all[BL_N_METRICS];
  guint n_all = bl_profile_list_metrics (profile, all);
  guint32 root = bl_profile_get_thread_root (profile, thread);
  guint n = 0;

  static const BlMetricId times[] = { BL_METRIC_CPU, BL_METRIC_TIME_NS, BL_METRIC_WALL };

  for (guint i = 0; i < G_N_ELEMENTS (times) && n == 0; i++)
    if (bl_profile_get_total (profile, times[i], root) != 0)
      metrics[n++] = times[i];
  for (guint i = 0; i < n_all; i++)
    if (bl_profile_get_total (profile, all[i], root) != 0 && (n == 0 || all[i] != metrics[0]))
      metrics[n++] = all[i];
  if (n == 0)
    metrics[n++] = bl_profile_get_default_metric (profile);   /* maybe invalid */

  return n;
}

/* Output frame indexes: a node's key is its frame, or else (past the
 * frames) its function; the keys in use are numbered in key order. */
static guint32 *
number_frames (BlProfile *profile,
               guint32  **key_of_output,
               guint32   *n_output)
{
  guint n_nodes = bl_profile_get_n_nodes (profile);
  guint n_frames = bl_profile_get_n_frames (profile);
  guint n_keys = n_frames + bl_profile_get_n_functions (profile);
  g_autofree guint32 *output_of_key = g_new (guint32, MAX (n_keys, 1));
  guint32 *frame_of_node = g_new (guint32, MAX (n_nodes, 1));
  guint32 n = 0;

  for (guint k = 0; k < n_keys; k++)
    output_of_key[k] = G_MAXUINT32;
  for (guint32 i = 0; i < n_nodes; i++)
    {
      guint32 frame = bl_profile_get_node_frame (profile, i);

      if (bl_profile_get_node (profile, i)->parent == BL_NODE_NONE)
        frame_of_node[i] = G_MAXUINT32;
      else
        frame_of_node[i] = frame != BL_NODE_NONE
          ? frame : n_frames + bl_profile_get_node_function (profile, i);
      if (frame_of_node[i] != G_MAXUINT32)
        output_of_key[frame_of_node[i]] = 0;
    }

  *key_of_output = g_new (guint32, MAX (n_keys, 1));
  for (guint k = 0; k < n_keys; k++)
    if (output_of_key[k] == 0)
      {
        (*key_of_output)[n] = k;
        output_of_key[k] = n++;
      }
  for (guint32 i = 0; i < n_nodes; i++)
    if (frame_of_node[i] != G_MAXUINT32)
      frame_of_node[i] = output_of_key[frame_of_node[i]];
  *n_output = n;

  return frame_of_node;
}

/**
 * bl_speedscope_write:
 * @profile: a finished profile
 * @out: where to write
 *
 * Writes @profile in speedscope's file format: "$schema", "exporter"
 * (brightlens@VERSION), "name", "activeProfileIndex", the shared frames
 * and one profile per thread and metric (see above).
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
  g_autofree guint32 *frame_of_node = NULL;
  g_autofree guint32 *key_of_output = NULL;
  g_autofree guint32 *path = NULL;
  const BlProfileInfo *info;
  guint n_frames, n_nodes;
  guint32 n_output = 0;
  gboolean first_profile = TRUE;
  Writer w;

  g_return_val_if_fail (BL_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (bl_profile_is_finished (profile), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  w.out = out;
  w.cancellable = cancellable;
  w.buffer = buffer;

  info = bl_profile_get_info (profile);

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

  n_frames = bl_profile_get_n_frames (profile);
  n_nodes = bl_profile_get_n_nodes (profile);
  frame_of_node = number_frames (profile, &key_of_output, &n_output);
  for (guint32 i = 0; i < n_output; i++)
    {
      guint32 key = key_of_output[i];
      guint32 name, file, line, col = 0;

      if (key < n_frames)
        {
          const BlFrame *frame = bl_profile_get_frame (profile, key);

          name = frame->name;
          file = frame->file;
          line = frame->line;
          col = frame->col;
        }
      else
        {
          const BlFunction *function = bl_profile_get_function (profile, key - n_frames);

          name = function->name;
          file = function->file;
          line = function->line;
        }

      if (i > 0)
        g_string_append_c (buffer, ',');
      g_string_append (buffer, "{\"name\":");
      append_json_string (buffer, bl_profile_get_string (profile, name));
      if (file != 0)
        {
          g_string_append (buffer, ",\"file\":");
          append_json_string (buffer, bl_profile_get_string (profile, file));
        }
      if (line != 0)
        g_string_append_printf (buffer, ",\"line\":%u", line);
      if (col != 0)
        g_string_append_printf (buffer, ",\"col\":%u", col);
      g_string_append_c (buffer, '}');

      if (!flush (&w, FALSE, error))
        return FALSE;
    }
  g_string_append (buffer, "]},\"profiles\":[");

  /* one profile per thread and metric */
  path = g_new (guint32, MAX (n_nodes, 1));
  for (guint t = 0; t < bl_profile_get_n_threads (profile); t++)
    {
      BlMetricId metrics[BL_N_METRICS];
      guint n_metrics = thread_metrics (profile, t, metrics);
      BlSpanList list;
      gboolean has_spans = bl_profile_get_spans (profile, t, &list);

      for (guint i = 0; i < n_metrics; i++)
        {
          BlMetricId metric = metrics[i];
          const char *unit = metric != BL_METRIC_INVALID
            ? bl_unit_get_speedscope_name (bl_metric_get_info (metric)->unit) : "none";
          gboolean ok;

          if (!first_profile)
            g_string_append_c (buffer, ',');
          first_profile = FALSE;

          g_string_append (buffer, "{\"name\":");
          append_json_string (buffer, bl_profile_get_thread_name (profile, t));
          g_string_append_printf (buffer, ",\"unit\":\"%s\"", unit);
          if (metric != BL_METRIC_INVALID)
            g_string_append_printf (buffer, ",\"" BL_SPEEDSCOPE_METRIC_MEMBER "\":\"%s\"",
                                    bl_metric_get_name (metric));

          /* the time order is in the thread's first metric */
          if (has_spans && i == 0 && metric != BL_METRIC_INVALID)
            ok = write_evented (&w, profile, t, metric, frame_of_node, path, error);
          else
            ok = write_sampled (&w, profile, t, metric, i == 0, frame_of_node, path, error);
          if (!ok)
            return FALSE;
        }
    }

  g_string_append (buffer, "]}\n");

  return flush (&w, TRUE, error);
}
