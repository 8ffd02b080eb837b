/* bl-profile-range.c — a timed profile restricted to a time range
 *
 * The index, per thread: the spans in start order (their own order when it
 * is one already, as a reader writes them), and for each span a link to
 * the span that was innermost open when it started. The links come from a
 * stack walk: pop every span that ended at or before the new start, link
 * to the top, push. A span open at t0 is never popped before the last span
 * starting before t0 is pushed, so the spans open at t0 are all on the
 * chain of links from that span: at most the nesting depth for slices that
 * nest, as slices of one track do.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-profile-range"

#include "config.h"

#include <string.h>

#include "bl-profile-range.h"

#define NO_LINK G_MAXUINT32

typedef struct
{
  BlSpanList    list;
  guint32      *order;   /* sorted position → span index; NULL: identity */
  guint32      *link;    /* per sorted position: the enclosing position or NO_LINK */
} ThreadIndex;

struct _BlProfileRange
{
  GObject      parent_instance;

  BlProfile   *profile;
  GMutex       mutex;
  ThreadIndex *threads;
  guint        n_threads;
  gboolean     indexed;
};

G_DEFINE_FINAL_TYPE (BlProfileRange, bl_profile_range, G_TYPE_OBJECT)

static inline const BlSpan *
span_at (const ThreadIndex *ti,
         gsize              pos)
{
  return &ti->list.spans[ti->order != NULL ? ti->order[pos] : pos];
}

static inline guint64
end_at (const ThreadIndex *ti,
        gsize              pos)
{
  return bl_span_list_get_end (&ti->list, ti->order != NULL ? ti->order[pos] : pos);
}

static inline guint32
index_at (const ThreadIndex *ti,
          gsize              pos)
{
  return ti->order != NULL ? ti->order[pos] : (guint32) pos;
}

static int
compare_positions (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data)
{
  const BlSpanList *list = user_data;
  const BlSpan *sa = &list->spans[*(const guint32 *) a];
  const BlSpan *sb = &list->spans[*(const guint32 *) b];
  guint32 da = list->nodes[sa->node].depth, db = list->nodes[sb->node].depth;

  if (sa->start != sb->start)
    return sa->start < sb->start ? -1 : 1;
  /* an enclosing span first; then the order they were added in */
  if (da != db)
    return da < db ? -1 : 1;
  return *(const guint32 *) a < *(const guint32 *) b ? -1 : 1;
}

static void
index_thread (ThreadIndex *ti)
{
  g_autoptr (GArray) stack = NULL;
  gboolean sorted = TRUE;

  for (gsize i = 1; i < ti->list.n_spans && sorted; i++)
    if (ti->list.spans[i].start < ti->list.spans[i - 1].start)
      sorted = FALSE;

  if (!sorted)
    {
      ti->order = g_new (guint32, ti->list.n_spans);
      for (gsize i = 0; i < ti->list.n_spans; i++)
        ti->order[i] = (guint32) i;
      g_qsort_with_data (ti->order, (gint) ti->list.n_spans, sizeof (guint32), compare_positions,
                         &ti->list);
    }

  ti->link = g_new (guint32, MAX (ti->list.n_spans, 1));
  stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (gsize pos = 0; pos < ti->list.n_spans; pos++)
    {
      const BlSpan *span = span_at (ti, pos);
      guint32 p = (guint32) pos;

      while (stack->len > 0 &&
             end_at (ti, g_array_index (stack, guint32, stack->len - 1)) <= span->start)
        g_array_set_size (stack, stack->len - 1);
      ti->link[pos] = stack->len > 0 ? g_array_index (stack, guint32, stack->len - 1) : NO_LINK;
      g_array_append_val (stack, p);
    }
}

static void
ensure_index (BlProfileRange *self)
{
  g_mutex_lock (&self->mutex);
  if (!self->indexed)
    {
      self->n_threads = bl_profile_get_n_threads (self->profile);
      self->threads = g_new0 (ThreadIndex, MAX (self->n_threads, 1));
      for (guint t = 0; t < self->n_threads; t++)
        {
          ThreadIndex *ti = &self->threads[t];

          if (!bl_profile_get_spans (self->profile, t, &ti->list) ||
              ti->list.n_spans >= G_MAXINT32)
            ti->list.n_spans = 0;
          index_thread (ti);
        }
      self->indexed = TRUE;
    }
  g_mutex_unlock (&self->mutex);
}

/* The first sorted position whose span starts at or after @t. */
static gsize
lower_bound (const ThreadIndex *ti,
             guint64            t)
{
  gsize lo = 0, hi = ti->list.n_spans;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (span_at (ti, mid)->start < t)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

static void
bl_profile_range_finalize (GObject *object)
{
  BlProfileRange *self = BL_PROFILE_RANGE (object);

  for (guint t = 0; t < self->n_threads; t++)
    {
      g_free (self->threads[t].order);
      g_free (self->threads[t].link);
    }
  g_free (self->threads);
  g_clear_object (&self->profile);
  g_mutex_clear (&self->mutex);

  G_OBJECT_CLASS (bl_profile_range_parent_class)->finalize (object);
}

static void
bl_profile_range_class_init (BlProfileRangeClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = bl_profile_range_finalize;
}

static void
bl_profile_range_init (BlProfileRange *self)
{
  g_mutex_init (&self->mutex);
}

/**
 * bl_profile_range_new:
 * @profile: a finished profile
 *
 * Returns: (transfer full): an index over @profile's spans
 */
BlProfileRange *
bl_profile_range_new (BlProfile *profile)
{
  BlProfileRange *self;

  g_return_val_if_fail (BL_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (bl_profile_is_finished (profile), NULL);

  self = g_object_new (BL_TYPE_PROFILE_RANGE, NULL);
  self->profile = g_object_ref (profile);

  return self;
}

BlProfile *
bl_profile_range_get_profile (BlProfileRange *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_RANGE (self), NULL);

  return self->profile;
}

guint
bl_profile_range_collect (BlProfileRange *self,
                          guint           thread,
                          guint64         t0,
                          guint64         t1,
                          GArray         *spans)
{
  const ThreadIndex *ti;
  guint before = 0, n = 0;
  gsize first;

  g_return_val_if_fail (BL_IS_PROFILE_RANGE (self), 0);
  g_return_val_if_fail (spans != NULL, 0);

  ensure_index (self);
  if (thread >= self->n_threads || t0 >= t1)
    return 0;
  ti = &self->threads[thread];

  first = lower_bound (ti, t0);

  /* the spans open at t0, outermost first */
  if (first > 0)
    {
      for (guint32 pos = (guint32) (first - 1); pos != NO_LINK; pos = ti->link[pos])
        if (end_at (ti, pos) > t0)
          {
            guint32 index = index_at (ti, pos);

            g_array_append_val (spans, index);
            before++;
          }
      /* the walk went innermost first */
      for (guint i = 0; i < before / 2; i++)
        {
          guint32 *a = &g_array_index (spans, guint32, spans->len - before + i);
          guint32 *b = &g_array_index (spans, guint32, spans->len - 1 - i);
          guint32 tmp = *a;

          *a = *b;
          *b = tmp;
        }
    }

  for (gsize pos = first; pos < ti->list.n_spans && span_at (ti, pos)->start < t1; pos++)
    {
      guint32 index = index_at (ti, pos);

      g_array_append_val (spans, index);
      n++;
    }

  return before + n;
}

static guint32
map_node (BlProfile *src,
          BlProfile *dst,
          guint32   *map,
          guint32    node)
{
  const BlNode *n;
  guint32 name;

  if (map[node] != BL_NODE_NONE)
    return map[node];

  n = bl_profile_get_node (src, node);
  name = bl_profile_intern (dst, bl_profile_get_string (src, n->name));
  if (n->parent == BL_NODE_NONE)
    map[node] = bl_profile_add_thread (dst, name);
  else
    {
      guint32 parent = map_node (src, dst, map, n->parent);
      guint32 file = bl_profile_intern (dst, bl_profile_get_string (src, n->file));

      map[node] = bl_profile_add_child (dst, parent, name, file, n->line);
    }

  return map[node];
}

BlProfile *
bl_profile_range_build (BlProfileRange *self,
                        guint64         t0,
                        guint64         t1,
                        GCancellable   *cancellable)
{
  g_autoptr (BlProfile) out = NULL;
  g_autoptr (GArray) found = NULL;
  g_autoptr (GArray) touched = NULL;
  g_autofree gint64 *clipped = NULL;
  g_autofree guint32 *map = NULL;
  const BlProfileInfo *info;
  BlProfileInfo *out_info;
  BlMetricId metric;
  guint n_nodes;

  g_return_val_if_fail (BL_IS_PROFILE_RANGE (self), NULL);

  ensure_index (self);
  info = bl_profile_get_info (self->profile);
  metric = bl_profile_get_default_metric (self->profile);
  n_nodes = bl_profile_get_n_nodes (self->profile);

  out = bl_profile_new (info->format);
  out_info = bl_profile_get_info_mutable (out);
  out_info->start_ms = info->start_ms;
  out_info->end_ms = info->end_ms;
  if (metric != BL_METRIC_INVALID)
    {
      bl_profile_enable_metric (out, metric);
      bl_profile_set_metric_decimals (out, metric,
                                      bl_profile_get_metric_decimals (self->profile, metric));
    }

  /* every thread, so indices stay those of the source */
  map = g_new (guint32, MAX (n_nodes, 1));
  memset (map, 0xff, sizeof (guint32) * MAX (n_nodes, 1));
  for (guint t = 0; t < self->n_threads; t++)
    map_node (self->profile, out, map, bl_profile_get_thread_root (self->profile, t));

  if (metric == BL_METRIC_INVALID || t0 >= t1)
    {
      bl_profile_finish (out);
      return g_steal_pointer (&out);
    }

  /* time inside the range per node; a node's spans never overlap each
   * other (it is one call path), so the sum is its clipped total */
  clipped = g_new0 (gint64, MAX (n_nodes, 1));
  found = g_array_new (FALSE, FALSE, sizeof (guint32));
  touched = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint t = 0; t < self->n_threads; t++)
    {
      const ThreadIndex *ti = &self->threads[t];

      if (g_cancellable_is_cancelled (cancellable))
        return NULL;

      g_array_set_size (found, 0);
      bl_profile_range_collect (self, t, t0, t1, found);
      for (guint i = 0; i < found->len; i++)
        {
          guint32 index = g_array_index (found, guint32, i);
          const BlSpan *span = &ti->list.spans[index];
          guint64 from = MAX (span->start, t0);
          guint64 to = MIN (bl_span_list_get_end (&ti->list, index), t1);

          /* a drag asks for a new range every frame: stop early */
          if ((i & 0xffff) == 0xffff && g_cancellable_is_cancelled (cancellable))
            return NULL;
          if (to <= from || span->node >= n_nodes)
            continue;
          if (clipped[span->node] == 0)
            g_array_append_val (touched, span->node);
          clipped[span->node] += (gint64) MIN (to - from, (guint64) G_MAXINT64 / 4);
        }
    }

  /* self = clipped total minus the children's clipped totals; children
   * are subtracted through a second array so the totals stay intact */
  {
    g_autofree gint64 *self_time = g_memdup2 (clipped, sizeof (gint64) * MAX (n_nodes, 1));

    for (guint i = 0; i < touched->len; i++)
      {
        guint32 node = g_array_index (touched, guint32, i);
        guint32 parent = bl_profile_get_node (self->profile, node)->parent;

        if (parent != BL_NODE_NONE)
          self_time[parent] -= clipped[node];
      }

    for (guint i = 0; i < touched->len; i++)
      {
        guint32 node = g_array_index (touched, guint32, i);
        guint32 copy = map_node (self->profile, out, map, node);

        if (self_time[node] > 0)
          bl_profile_add_value (out, copy, metric, (guint64) self_time[node]);
      }
  }

  if (g_cancellable_is_cancelled (cancellable))
    return NULL;

  bl_profile_finish (out);

  return g_steal_pointer (&out);
}

typedef struct
{
  guint64 t0;
  guint64 t1;
} BuildData;

static void
build_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  BuildData *data = task_data;
  BlProfile *profile = bl_profile_range_build (source_object, data->t0, data->t1, cancellable);

  if (profile == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
  else
    g_task_return_pointer (task, profile, g_object_unref);
}

void
bl_profile_range_build_async (BlProfileRange      *self,
                              guint64              t0,
                              guint64              t1,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr (GTask) task = NULL;
  BuildData *data;

  g_return_if_fail (BL_IS_PROFILE_RANGE (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, bl_profile_range_build_async);
  data = g_new (BuildData, 1);
  data->t0 = t0;
  data->t1 = t1;
  g_task_set_task_data (task, data, g_free);
  g_task_run_in_thread (task, build_thread);
}

BlProfile *
bl_profile_range_build_finish (BlProfileRange  *self,
                               GAsyncResult    *result,
                               GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
