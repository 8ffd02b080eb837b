/* bl-flame-layout.c
 *
 * Lays out one thread (or all threads side by side) of a finished profile for
 * one metric, breadth first, so that the rects come out sorted by depth and,
 * within a depth, by x: the children of the parents of one level are
 * appended in the parents' order. Hit-testing is then a binary search within
 * a level. Nothing here depends on GTK, so the layout runs in a worker.
 *
 * A coarse layout is what a window draws first on a big profile: the frames
 * of the full layout that are at least two pixels wide across the given
 * width are all in it, with every child of theirs, but below a frame
 * narrower than that it follows one path only, to the deepest frame of its
 * subtree, and of siblings ending in the same pixel column it follows only
 * those that reach deeper. Those frames show as slivers, and the slivers
 * come out as in the full layout to within a pixel or two (a run of
 * slivers may be that much narrower, or not joined to the next), in as
 * many rows. On a million nodes it takes a few milliseconds once the totals
 * are made, against tens for the full layout, which the window makes next.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-flame-layout"

#include "config.h"

#include <string.h>

#include "bl-flame-layout.h"

struct _BlFlameLayout
{
  gatomicrefcount  ref_count;
  BlProfile       *profile;
  BlMetricId       metric;
  guint            thread;
  guint64          total;
  BlFlameRect     *rects;
  guint            n_rects;
  guint           *levels;     /* n_levels + 1 offsets into rects */
  guint            n_levels;
  guint            columns;    /* a coarse layout's width in pixels, 0 if full */
  guint32         *node_rect;  /* node → rect index, G_MAXUINT32 if not laid out */
  double          *x0s;        /* rects[i].x0 and .x1, packed: walks and searches */
  double          *x1s;        /* touch a quarter of the cache lines */
};

G_DEFINE_BOXED_TYPE (BlFlameLayout, bl_flame_layout, bl_flame_layout_ref, bl_flame_layout_unref)

BlFlameLayout *
bl_flame_layout_ref (BlFlameLayout *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

void
bl_flame_layout_unref (BlFlameLayout *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_clear_object (&self->profile);
  g_free (self->rects);
  g_free (self->levels);
  g_free (self->node_rect);
  g_free (self->x0s);
  g_free (self->x1s);
  g_free (self);
}

/* how many rectangles ahead the layout asks for the nodes it will read */
#define PREFETCH_AHEAD 8

/* a frame this narrow, in pixels, is a sliver (the graph's MIN_BAR_PX) */
#define COARSE_BAR_PX 2.0

static BlFlameLayout *
layout_new (BlProfile     *profile,
            BlMetricId     metric,
            guint          thread,
            guint          columns,
            GCancellable  *cancellable,
            GError       **error)
{
  g_autoptr(BlFlameLayout) self = NULL;
  const BlNode *nodes;
  const guint64 *total;
  const guint32 *deepest = NULL;
  double open_width = 0;
  guint n_nodes;
  guint n_threads;
  GArray *levels;

  self = g_new0 (BlFlameLayout, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->profile = g_object_ref (profile);
  self->metric = metric;
  self->thread = thread;
  self->columns = columns;

  n_nodes = bl_profile_get_n_nodes (profile);
  n_threads = bl_profile_get_n_threads (profile);
  nodes = bl_profile_get_nodes (profile);
  if (columns > 0)
    {
      /* the deepest column comes with the totals, in the same sweep */
      deepest = bl_profile_get_deepest_array (profile, metric);
      open_width = COARSE_BAR_PX / columns;
    }
  total = bl_profile_get_total_array (profile, metric);

  self->node_rect = g_new (guint32, MAX (n_nodes, 1));
  memset (self->node_rect, 0xff, sizeof (guint32) * MAX (n_nodes, 1));

  levels = g_array_new (FALSE, FALSE, sizeof (guint));

  if (total == NULL)
    {
      self->levels = g_new0 (guint, 1);
      g_array_unref (levels);
      return g_steal_pointer (&self);
    }

  /* at most one rectangle per node (each node is reached once, from its
   * parent): sized once, so that no doubling copies the rectangles (pages
   * never written cost nothing) */
  self->rects = g_new (BlFlameRect, MAX (n_nodes, 1));

  for (guint t = 0; t < n_threads; t++)
    if (thread == BL_FLAME_ALL_THREADS || thread == t)
      self->total += total[bl_profile_get_thread_root (profile, t)];

  if (self->total == 0)
    {
      self->levels = g_new0 (guint, 1);
      g_array_unref (levels);
      return g_steal_pointer (&self);
    }

  /* level 0: the thread roots */
  {
    double x = 0;
    guint zero = 0;

    g_array_append_val (levels, zero);
    for (guint t = 0; t < n_threads; t++)
      {
        guint32 root;
        BlFlameRect *r;

        if (thread != BL_FLAME_ALL_THREADS && thread != t)
          continue;
        root = bl_profile_get_thread_root (profile, t);
        if (total[root] == 0)
          continue;
        r = &self->rects[self->n_rects];
        r->x0 = x;
        x += (double) total[root] / (double) self->total;
        r->x1 = MIN (x, 1.0);
        r->node = root;
        r->depth = 0;
        r->parent = G_MAXUINT32;
        r->name = nodes[root].name;
        self->node_rect[root] = self->n_rects++;
      }
  }

  for (guint depth = 0;; depth++)
    {
      guint begin = g_array_index (levels, guint, depth);
      guint end = self->n_rects;

      if (begin == end)
        break;

      g_array_append_val (levels, end);

      for (guint i = begin; i < end; i++)
        {
          guint32 parent_node = self->rects[i].node;
          double x = self->rects[i].x0;
          double x_end = self->rects[i].x1;
          double scale = (x_end - x) / (double) total[parent_node];
          /* a coarse layout's sliver: only the path to its deepest frame */
          gboolean one_path = deepest != NULL && x_end - x < open_width;
          guint64 last_column = G_MAXUINT64;
          guint32 last_deepest = 0;

          /* the nodes of a level are scattered: fetch the records of the
           * parents a few rectangles ahead, and of their first children
           * once those records are in, so that the misses overlap */
          if (i + 2 * PREFETCH_AHEAD < end)
            __builtin_prefetch (&nodes[self->rects[i + 2 * PREFETCH_AHEAD].node]);
          if (i + PREFETCH_AHEAD < end)
            {
              guint32 c = nodes[self->rects[i + PREFETCH_AHEAD].node].first_child;

              if (c != BL_NODE_NONE)
                {
                  __builtin_prefetch (&nodes[c]);
                  __builtin_prefetch (&total[c]);
                }
            }

          if ((i & 0xffff) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
            {
              g_array_unref (levels);
              return NULL;
            }

          if (one_path && deepest[parent_node] <= nodes[parent_node].depth)
            continue;

          for (guint32 c = nodes[parent_node].first_child; c != BL_NODE_NONE;
               c = nodes[c].next_sibling)
            {
              BlFlameRect *r;
              double x0 = x;

              if (total[c] == 0)
                continue;
              x += (double) total[c] * scale;

              if (one_path)
                {
                  if (deepest[c] != deepest[parent_node])
                    continue;
                }
              else if (deepest != NULL && x - x0 < open_width)
                {
                  /* a sliver within the pixel column of the one before
                   * shows nothing new unless it reaches deeper */
                  guint64 column = (guint64) (MIN (x, x_end) * columns);

                  if (column == last_column && deepest[c] <= last_deepest)
                    continue;
                  if (column != last_column)
                    last_deepest = 0;
                  last_column = column;
                  last_deepest = MAX (last_deepest, deepest[c]);
                }

              r = &self->rects[self->n_rects];
              r->x0 = x0;
              r->x1 = MIN (x, x_end);
              r->node = c;
              r->depth = depth + 1;
              r->parent = i;
              r->name = nodes[c].name;
              self->node_rect[c] = self->n_rects++;

              if (one_path)
                break;
            }
        }
    }

  self->n_levels = levels->len - 1;
  self->levels = (guint *) (gpointer) g_array_free (levels, FALSE);
  self->rects = g_renew (BlFlameRect, self->rects, MAX (self->n_rects, 1));
  self->x0s = g_new (double, MAX (self->n_rects, 1));
  self->x1s = g_new (double, MAX (self->n_rects, 1));
  for (guint i = 0; i < self->n_rects; i++)
    {
      self->x0s[i] = self->rects[i].x0;
      self->x1s[i] = self->rects[i].x1;
    }

  return g_steal_pointer (&self);
}

/**
 * bl_flame_layout_new:
 * @thread: a thread index or %BL_FLAME_ALL_THREADS
 *
 * Returns: (transfer full) (nullable): the layout, or %NULL when cancelled
 */
BlFlameLayout *
bl_flame_layout_new (BlProfile     *profile,
                     BlMetricId     metric,
                     guint          thread,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_return_val_if_fail (BL_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (bl_profile_is_finished (profile), NULL);

  return layout_new (profile, metric, thread, 0, cancellable, error);
}

/**
 * bl_flame_layout_new_coarse:
 * @thread: a thread index or %BL_FLAME_ALL_THREADS
 * @columns: the width, in pixels, that the whole graph is drawn at
 *
 * A coarse layout (see the top of this file) for drawing the whole graph
 * at most @columns pixels wide.
 *
 * Returns: (transfer full) (nullable): the layout, or %NULL when cancelled
 */
BlFlameLayout *
bl_flame_layout_new_coarse (BlProfile     *profile,
                            BlMetricId     metric,
                            guint          thread,
                            guint          columns,
                            GCancellable  *cancellable,
                            GError       **error)
{
  g_return_val_if_fail (BL_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (bl_profile_is_finished (profile), NULL);
  g_return_val_if_fail (columns > 0, NULL);

  return layout_new (profile, metric, thread, columns, cancellable, error);
}

typedef struct
{
  BlProfile  *profile;
  BlMetricId  metric;
  guint       thread;
  guint       columns;
} LayoutRequest;

static void
layout_request_free (gpointer data)
{
  LayoutRequest *req = data;

  g_clear_object (&req->profile);
  g_free (req);
}

static void
layout_worker (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  LayoutRequest *req = task_data;
  GError *error = NULL;
  BlFlameLayout *layout;

  layout = layout_new (req->profile, req->metric, req->thread, req->columns, cancellable, &error);
  if (layout == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, layout, (GDestroyNotify) bl_flame_layout_unref);
}

/**
 * bl_flame_layout_new_async:
 * @columns: 0 for the full layout, or the width in pixels for a coarse one
 *   (bl_flame_layout_new_coarse())
 */
void
bl_flame_layout_new_async (BlProfile           *profile,
                           BlMetricId           metric,
                           guint                thread,
                           guint                columns,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LayoutRequest *req;

  g_return_if_fail (BL_IS_PROFILE (profile));
  g_return_if_fail (bl_profile_is_finished (profile));

  req = g_new0 (LayoutRequest, 1);
  req->profile = g_object_ref (profile);
  req->metric = metric;
  req->thread = thread;
  req->columns = columns;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, bl_flame_layout_new_async);
  g_task_set_task_data (task, req, layout_request_free);
  g_task_set_check_cancellable (task, TRUE);
  g_task_run_in_thread (task, layout_worker);
}

/**
 * bl_flame_layout_new_finish:
 *
 * Returns: (transfer full): the layout
 */
BlFlameLayout *
bl_flame_layout_new_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

BlProfile *
bl_flame_layout_get_profile (BlFlameLayout *self)
{
  return self->profile;
}

BlMetricId
bl_flame_layout_get_metric (BlFlameLayout *self)
{
  return self->metric;
}

guint
bl_flame_layout_get_thread (BlFlameLayout *self)
{
  return self->thread;
}

/**
 * bl_flame_layout_is_coarse:
 *
 * Returns: whether this is a coarse layout (bl_flame_layout_new_coarse()),
 *   which has some of the profile's frames only
 */
gboolean
bl_flame_layout_is_coarse (BlFlameLayout *self)
{
  return self->columns > 0;
}

guint64
bl_flame_layout_get_total (BlFlameLayout *self)
{
  return self->total;
}

guint
bl_flame_layout_get_n_rects (BlFlameLayout *self)
{
  return self->n_rects;
}

const BlFlameRect *
bl_flame_layout_get_rects (BlFlameLayout *self)
{
  return self->rects;
}

/**
 * bl_flame_layout_get_x0s:
 *
 * Returns: (nullable): the left edges of the rects, packed
 */
const double *
bl_flame_layout_get_x0s (BlFlameLayout *self)
{
  return self->x0s;
}

/**
 * bl_flame_layout_get_x1s:
 *
 * Returns: (nullable): the right edges of the rects, packed
 */
const double *
bl_flame_layout_get_x1s (BlFlameLayout *self)
{
  return self->x1s;
}

guint
bl_flame_layout_get_n_levels (BlFlameLayout *self)
{
  return self->n_levels;
}

void
bl_flame_layout_get_level (BlFlameLayout *self,
                           guint          depth,
                           guint         *begin,
                           guint         *end)
{
  if (depth >= self->n_levels)
    {
      *begin = *end = self->n_rects;
      return;
    }

  *begin = self->levels[depth];
  *end = self->levels[depth + 1];
}

/**
 * bl_flame_layout_find_first:
 *
 * Returns: the index of the first rect at @depth whose right edge lies
 *   beyond @x (the end of the level if none)
 */
guint
bl_flame_layout_find_first (BlFlameLayout *self,
                            guint          depth,
                            double         x)
{
  guint lo, hi;

  bl_flame_layout_get_level (self, depth, &lo, &hi);

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->x1s[mid] <= x)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/**
 * bl_flame_layout_find_first_from:
 * @from: a rect index at @depth at or before the answer
 *
 * The same as bl_flame_layout_find_first(), searching forward from @from
 * with steps that double (a galloping search): when the answer is near, as
 * it is for a renderer that walks a level left to right, this costs a few
 * comparisons on memory next to @from instead of a search of the level.
 */
guint
bl_flame_layout_find_first_from (BlFlameLayout *self,
                                 guint          depth,
                                 guint          from,
                                 double         x)
{
  guint begin, end, lo, hi, step = 1;

  bl_flame_layout_get_level (self, depth, &begin, &end);
  lo = MAX (from, begin);
  hi = lo;

  while (hi < end && self->x1s[hi] <= x)
    {
      lo = hi + 1;
      hi += step;
      step *= 2;
    }
  hi = MIN (hi, end);

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->x1s[mid] <= x)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/**
 * bl_flame_layout_find_at:
 *
 * Returns: the index of the rect at @depth that contains @x, or G_MAXUINT
 */
guint
bl_flame_layout_find_at (BlFlameLayout *self,
                         guint          depth,
                         double         x)
{
  guint begin, end, i;

  bl_flame_layout_get_level (self, depth, &begin, &end);
  i = bl_flame_layout_find_first (self, depth, x);

  if (i < end && self->rects[i].x0 <= x)
    return i;

  return G_MAXUINT;
}

/**
 * bl_flame_layout_lookup_node:
 *
 * Returns: the rect index of @node, or G_MAXUINT if it has no frame
 */
guint
bl_flame_layout_lookup_node (BlFlameLayout *self,
                             guint32        node)
{
  if (node >= bl_profile_get_n_nodes (self->profile) || self->node_rect[node] == G_MAXUINT32)
    return G_MAXUINT;

  return self->node_rect[node];
}
