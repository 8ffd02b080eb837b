/* bl-heap-index.c — flat indexes over a finished BlHeap for browsing it
 *
 * The dominator children and the retainers are two CSR arrays built in
 * one pass over the objects each (counting, then filling), so a heap of
 * millions of objects costs a few arrays of 32-bit integers and no
 * per-object allocation. Only the public bl-heap.h API is used.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-heap-index"

#include "config.h"

#include <string.h>

#include "bl-heap-index.h"
#include "bl-heap-private.h"

#define NONE BL_HEAP_NONE
#define CHECK_EVERY 65536

struct _BlHeapIndex
{
  BlHeap   *heap;
  guint32   n;
  guint32  *first_child;    /* n + 2: slot 0 is the top level, slot o + 1 object o */
  guint32  *children;
  guint32  *position;       /* per object: its place among its parent's children */
  guint32  *first_retainer; /* n + 1 */
  guint32  *retainer_from;
  guint32  *retainer_field;
  guint32   n_types;
  guint32  *types;
};

/* how many references ahead their targets' entries are prefetched */
#define PREFETCH_AHEAD 16

/* the heap's analysis takes the first ANALYSIS_SHARE per mille of the
 * progress when it is still to do */
#define ANALYSIS_SHARE 700

/* @permille of the index built, shown after @from per mille of the
 * analysis */
static void
set_progress (int *progress,
              int  from,
              int  permille)
{
  if (progress != NULL)
    g_atomic_int_set (progress, from + (1000 - from) * permille / 1000);
}

static int
compare_by_retained (gconstpointer a,
                     gconstpointer b,
                     gpointer      data)
{
  const guint64 *retained = data;
  guint32 oa = *(const guint32 *) a, ob = *(const guint32 *) b;

  if (retained[oa] != retained[ob])
    return retained[oa] > retained[ob] ? -1 : 1;

  return oa < ob ? -1 : oa > ob;
}

static int
compare_types (gconstpointer a,
               gconstpointer b,
               gpointer      data)
{
  BlHeap *heap = data;
  guint32 ta = *(const guint32 *) a, tb = *(const guint32 *) b;
  guint64 ca, sa, ra, cb, sb, rb;

  bl_heap_get_type_totals (heap, ta, &ca, &sa, &ra);
  bl_heap_get_type_totals (heap, tb, &cb, &sb, &rb);
  if (ra != rb)
    return ra > rb ? -1 : 1;
  if (sa != sb)
    return sa > sb ? -1 : 1;

  return g_strcmp0 (bl_heap_get_type_name (heap, ta), bl_heap_get_type_name (heap, tb));
}

static void
bl_heap_index_clear (BlHeapIndex *self)
{
  g_free (self->first_child);
  g_free (self->children);
  g_free (self->position);
  g_free (self->first_retainer);
  g_free (self->retainer_from);
  g_free (self->retainer_field);
  g_free (self->types);
}

/**
 * bl_heap_index_new:
 *
 * Returns: (transfer full) (nullable): the index, or %NULL when cancelled
 */
BlHeapIndex *
bl_heap_index_new (BlHeap       *heap,
                   GCancellable *cancellable,
                   int          *progress)
{
  g_autofree guint64 *retained = NULL;
  g_autofree guint32 *fill = NULL;
  BlHeapIndex *self;
  guint32 n, n_edges = 0, n_children = 0, n_refs;
  const guint32 *first_edge, *edge_fields, *edge_targets;
  int from;

  g_return_val_if_fail (heap != NULL, NULL);

  /* the heap's analysis first (done once; at once if already done) */
  from = bl_heap_is_analysed (heap) ? 0 : ANALYSIS_SHARE;
  if (!bl_heap_analyse_with_progress (heap, cancellable, progress, 0, from))
    return NULL;

  self = g_atomic_rc_box_new0 (BlHeapIndex);
  self->heap = heap;
  self->n = n = bl_heap_get_n_objects (heap);
  set_progress (progress, from, 0);

  /* dominator children: count per parent, then fill in object order */
  self->first_child = g_new0 (guint32, (gsize) n + 2);
  self->position = g_new0 (guint32, MAX (n, 1));
  retained = g_new (guint64, MAX (n, 1));
  for (guint32 o = 0; o < n; o++)
    {
      guint32 idom;

      retained[o] = bl_heap_get_retained (heap, o);
      if (!bl_heap_is_reachable (heap, o))
        continue;
      idom = bl_heap_get_idom (heap, o);
      self->first_child[(idom == NONE ? 0 : (gsize) idom + 1) + 1]++;
      n_children++;
      if (o % CHECK_EVERY == 0 && g_cancellable_is_cancelled (cancellable))
        goto cancelled;
    }
  for (gsize i = 0; i <= n; i++)
    self->first_child[i + 1] += self->first_child[i];
  self->children = g_new (guint32, MAX (n_children, 1));
  fill = g_memdup2 (self->first_child, sizeof (guint32) * ((gsize) n + 1));
  for (guint32 o = 0; o < n; o++)
    {
      guint32 idom;

      if (!bl_heap_is_reachable (heap, o))
        continue;
      idom = bl_heap_get_idom (heap, o);
      self->children[fill[idom == NONE ? 0 : (gsize) idom + 1]++] = o;
    }
  g_clear_pointer (&fill, g_free);
  set_progress (progress, from, 250);

  for (gsize p = 0; p <= n; p++)
    {
      guint32 first = self->first_child[p], end = self->first_child[p + 1];

      if (end - first > 1)
        g_qsort_with_data (self->children + first, end - first, sizeof (guint32),
                           compare_by_retained, retained);
      for (guint32 k = first; k < end; k++)
        self->position[self->children[k]] = k - first;
      if (p % CHECK_EVERY == 0 && g_cancellable_is_cancelled (cancellable))
        goto cancelled;
    }
  g_clear_pointer (&retained, g_free);
  set_progress (progress, from, 500);

  /* retainers: the references turned around, in object order (walked as
   * one CSR, the counts of the targets a few references on prefetched) */
  bl_heap_get_csr (heap, &first_edge, &edge_fields, &edge_targets);
  n_refs = first_edge[n];
  self->first_retainer = g_new0 (guint32, (gsize) n + 1);
  for (guint32 e = 0; e < n_refs; e++)
    {
      if (e + PREFETCH_AHEAD < n_refs)
        __builtin_prefetch (&self->first_retainer[edge_targets[e + PREFETCH_AHEAD] + 1], 1);
      self->first_retainer[edge_targets[e] + 1]++;
      if (e % CHECK_EVERY == 0 && g_cancellable_is_cancelled (cancellable))
        goto cancelled;
    }
  n_edges = n_refs;
  for (guint32 i = 0; i < n; i++)
    self->first_retainer[i + 1] += self->first_retainer[i];
  set_progress (progress, from, 700);

  self->retainer_from = g_new (guint32, MAX (n_edges, 1));
  self->retainer_field = g_new (guint32, MAX (n_edges, 1));
  fill = g_memdup2 (self->first_retainer, sizeof (guint32) * MAX (n, 1));
  for (guint32 o = 0; o < n; o++)
    {
      for (guint32 e = first_edge[o]; e < first_edge[o + 1]; e++)
        {
          guint32 at;

          if (e + PREFETCH_AHEAD < n_refs)
            __builtin_prefetch (&fill[edge_targets[e + PREFETCH_AHEAD]], 1);
          at = fill[edge_targets[e]]++;
          self->retainer_from[at] = o;
          self->retainer_field[at] = edge_fields[e];
        }
      if (o % CHECK_EVERY == 0 && g_cancellable_is_cancelled (cancellable))
        goto cancelled;
    }
  set_progress (progress, from, 950);

  /* the types that have objects, largest retained first */
  self->types = g_new (guint32, MAX (bl_heap_get_n_types (heap), 1));
  for (guint32 t = 0; t < bl_heap_get_n_types (heap); t++)
    {
      guint64 count, self_bytes, type_retained;

      bl_heap_get_type_totals (heap, t, &count, &self_bytes, &type_retained);
      if (count > 0)
        self->types[self->n_types++] = t;
    }
  g_qsort_with_data (self->types, self->n_types, sizeof (guint32), compare_types, heap);
  set_progress (progress, from, 1000);

  return self;

cancelled:
  bl_heap_index_unref (self);
  return NULL;
}

BlHeapIndex *
bl_heap_index_ref (BlHeapIndex *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_atomic_rc_box_acquire (self);
}

void
bl_heap_index_unref (BlHeapIndex *self)
{
  if (self != NULL)
    g_atomic_rc_box_release_full (self, (GDestroyNotify) bl_heap_index_clear);
}

BlHeap *
bl_heap_index_get_heap (BlHeapIndex *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->heap;
}

guint32
bl_heap_index_get_children (BlHeapIndex    *self,
                            guint32         object,
                            const guint32 **children)
{
  gsize slot;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (object == NONE || object < self->n, 0);

  slot = object == NONE ? 0 : (gsize) object + 1;
  *children = self->children + self->first_child[slot];

  return self->first_child[slot + 1] - self->first_child[slot];
}

guint32
bl_heap_index_get_child_position (BlHeapIndex *self,
                                  guint32      object)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (object < self->n, 0);

  return self->position[object];
}

guint32
bl_heap_index_get_retainers (BlHeapIndex    *self,
                             guint32         object,
                             const guint32 **from,
                             const guint32 **fields)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (object < self->n, 0);

  *from = self->retainer_from + self->first_retainer[object];
  *fields = self->retainer_field + self->first_retainer[object];

  return self->first_retainer[object + 1] - self->first_retainer[object];
}

typedef struct
{
  guint32 object;
  guint32 next;    /* the visit it was reached from (towards @object), NONE for the start */
  guint32 field;   /* of the reference from this object to next's */
} Visit;

/**
 * bl_heap_index_dup_retainer_path:
 *
 * Returns: (transfer full) (nullable): the steps, a root first
 */
BlHeapStep *
bl_heap_index_dup_retainer_path (BlHeapIndex *self,
                                 guint32      object,
                                 guint       *n_steps)
{
  g_autoptr(GHashTable) seen = NULL;
  g_autoptr(GArray) visits = NULL;
  BlHeapStep *steps;
  guint found = G_MAXUINT, len = 0;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_steps != NULL, NULL);

  *n_steps = 0;
  if (object >= self->n || !bl_heap_is_reachable (self->heap, object))
    return NULL;

  seen = g_hash_table_new (NULL, NULL);
  visits = g_array_new (FALSE, FALSE, sizeof (Visit));
  g_array_append_val (visits, ((Visit) { object, NONE, NONE }));
  g_hash_table_add (seen, GUINT_TO_POINTER (object));

  /* the visits array is the queue */
  for (guint head = 0; head < visits->len; head++)
    {
      Visit v = g_array_index (visits, Visit, head);
      const guint32 *from, *fields;
      guint32 m;

      if (bl_heap_is_root (self->heap, v.object))
        {
          found = head;
          break;
        }
      m = bl_heap_index_get_retainers (self, v.object, &from, &fields);
      for (guint32 e = 0; e < m; e++)
        {
          if (!bl_heap_is_reachable (self->heap, from[e]) ||
              !g_hash_table_add (seen, GUINT_TO_POINTER (from[e])))
            continue;
          g_array_append_val (visits, ((Visit) { from[e], head, fields[e] }));
        }
    }

  /* a reachable object always leads back to a root; kept as a guard */
  if (found == G_MAXUINT)
    return NULL;

  for (guint i = found; i != NONE; i = g_array_index (visits, Visit, i).next)
    len++;
  steps = g_new (BlHeapStep, len);
  {
    guint k = 0;
    guint32 field = NONE;

    for (guint i = found; i != NONE; i = g_array_index (visits, Visit, i).next)
      {
        const Visit *v = &g_array_index (visits, Visit, i);

        steps[k].object = v->object;
        steps[k].field = field;
        field = v->field;
        k++;
      }
  }
  *n_steps = len;

  return steps;
}

guint32
bl_heap_index_get_types (BlHeapIndex    *self,
                         const guint32 **types)
{
  g_return_val_if_fail (self != NULL, 0);

  *types = self->types;

  return self->n_types;
}

/* ---- two heaps ---- */

static int
compare_grown (gconstpointer a,
               gconstpointer b)
{
  const BlHeapTypeDelta *ra = a, *rb = b;
  gint64 da = (gint64) ra->bytes[1] - (gint64) ra->bytes[0];
  gint64 db = (gint64) rb->bytes[1] - (gint64) rb->bytes[0];

  if (da != db)
    return da > db ? -1 : 1;
  da = (gint64) ra->count[1] - (gint64) ra->count[0];
  db = (gint64) rb->count[1] - (gint64) rb->count[0];
  if (da != db)
    return da > db ? -1 : 1;

  return g_strcmp0 (ra->name, rb->name);
}

/**
 * bl_heap_compare_types:
 *
 * Returns: (transfer full): @n_rows rows, free with g_free()
 */
BlHeapTypeDelta *
bl_heap_compare_types (BlHeap *a,
                       BlHeap *b,
                       guint  *n_rows)
{
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (BlHeapTypeDelta));
  BlHeap *heaps[2] = { a, b };

  g_return_val_if_fail (a != NULL && b != NULL && n_rows != NULL, NULL);

  for (guint side = 0; side < 2; side++)
    for (guint32 t = 0; t < bl_heap_get_n_types (heaps[side]); t++)
      {
        const char *name = bl_heap_get_type_name (heaps[side], t);
        guint64 count, self_bytes;
        gpointer found = g_hash_table_lookup (by_name, name);
        BlHeapTypeDelta *row;

        bl_heap_get_type_counts (heaps[side], t, &count, &self_bytes);
        if (found == NULL)
          {
            g_array_set_size (rows, rows->len + 1);
            g_array_index (rows, BlHeapTypeDelta, rows->len - 1).name = name;
            found = GUINT_TO_POINTER (rows->len);
            g_hash_table_insert (by_name, (gpointer) name, found);
          }
        row = &g_array_index (rows, BlHeapTypeDelta, GPOINTER_TO_UINT (found) - 1);
        row->count[side] += count;
        row->bytes[side] += self_bytes;
      }
  g_array_sort (rows, compare_grown);

  *n_rows = rows->len;

  return (BlHeapTypeDelta *) g_array_free (rows, FALSE);
}

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

static gboolean
sorted_contains (const guint64 *ids,
                 gsize          n,
                 guint64        id)
{
  gsize lo = 0, hi = n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (ids[mid] < id)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo < n && ids[lo] == id;
}

static int
compare_groups (gconstpointer a,
                gconstpointer b,
                gpointer      data)
{
  const BlHeapNewGroup *ga = a, *gb = b;
  BlHeap *heap = data;

  if (ga->bytes != gb->bytes)
    return ga->bytes > gb->bytes ? -1 : 1;
  if (ga->n_objects != gb->n_objects)
    return ga->n_objects > gb->n_objects ? -1 : 1;

  return g_strcmp0 (bl_heap_get_type_name (heap, ga->type), bl_heap_get_type_name (heap, gb->type));
}

static int
compare_heap_retained (gconstpointer a,
                       gconstpointer b,
                       gpointer      data)
{
  BlHeap *heap = data;
  guint32 oa = *(const guint32 *) a, ob = *(const guint32 *) b;
  guint64 ra = bl_heap_get_retained (heap, oa), rb = bl_heap_get_retained (heap, ob);

  if (ra != rb)
    return ra > rb ? -1 : 1;

  return oa < ob ? -1 : oa > ob;
}

/**
 * bl_heap_find_new_objects:
 *
 * Returns: (transfer full) (nullable): the new objects, or %NULL when cancelled
 */
BlHeapNewObjects *
bl_heap_find_new_objects (BlHeap       *a,
                          BlHeap       *b,
                          GCancellable *cancellable)
{
  guint32 n_a, n_b, n_types;
  g_autofree guint64 *ids = NULL;
  g_autofree guint32 *fresh = NULL;
  g_autofree guint32 *group_of_type = NULL;
  g_autofree guint32 *fill = NULL;
  BlHeapNewObjects *result;
  guint32 n_fresh = 0;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);

  /* the new objects are ranked by retained size */
  if (!bl_heap_analyse (b, cancellable))
    return NULL;

  n_a = bl_heap_get_n_objects (a);
  n_b = bl_heap_get_n_objects (b);
  n_types = bl_heap_get_n_types (b);

  ids = g_new (guint64, MAX (n_a, 1));
  for (guint32 o = 0; o < n_a; o++)
    ids[o] = bl_heap_get_object_id (a, o);
  qsort (ids, n_a, sizeof (guint64), compare_u64);
  if (g_cancellable_is_cancelled (cancellable))
    return NULL;

  fresh = g_new (guint32, MAX (n_b, 1));
  for (guint32 o = 0; o < n_b; o++)
    {
      if (!sorted_contains (ids, n_a, bl_heap_get_object_id (b, o)))
        fresh[n_fresh++] = o;
      if (o % CHECK_EVERY == 0 && g_cancellable_is_cancelled (cancellable))
        return NULL;
    }
  g_clear_pointer (&ids, g_free);

  result = g_new0 (BlHeapNewObjects, 1);
  group_of_type = g_new (guint32, MAX (n_types, 1));
  for (guint32 t = 0; t < n_types; t++)
    group_of_type[t] = NONE;

  /* groups per type, then sorted; objects placed by their group */
  {
    GArray *groups = g_array_new (FALSE, TRUE, sizeof (BlHeapNewGroup));
    g_autofree guint32 *rank = NULL;

    for (guint32 i = 0; i < n_fresh; i++)
      {
        guint32 type = bl_heap_get_object_type (b, fresh[i]);
        BlHeapNewGroup *group;

        if (group_of_type[type] == NONE)
          {
            group_of_type[type] = groups->len;
            g_array_set_size (groups, groups->len + 1);
            g_array_index (groups, BlHeapNewGroup, groups->len - 1).type = type;
          }
        group = &g_array_index (groups, BlHeapNewGroup, group_of_type[type]);
        group->n_objects++;
        group->bytes += bl_heap_get_self_size (b, fresh[i]);
      }
    g_array_sort_with_data (groups, compare_groups, b);

    rank = g_new (guint32, MAX (groups->len, 1));
    {
      guint32 first = 0;

      for (guint g = 0; g < groups->len; g++)
        {
          BlHeapNewGroup *group = &g_array_index (groups, BlHeapNewGroup, g);

          group->first = first;
          first += group->n_objects;
          group_of_type[group->type] = g;
          rank[g] = group->first;
        }
    }

    result->objects = g_new (guint32, MAX (n_fresh, 1));
    for (guint32 i = 0; i < n_fresh; i++)
      result->objects[rank[group_of_type[bl_heap_get_object_type (b, fresh[i])]]++] = fresh[i];
    for (guint g = 0; g < groups->len; g++)
      {
        BlHeapNewGroup *group = &g_array_index (groups, BlHeapNewGroup, g);

        g_qsort_with_data (result->objects + group->first, group->n_objects, sizeof (guint32),
                           compare_heap_retained, b);
      }

    result->n_groups = groups->len;
    result->groups = (BlHeapNewGroup *) g_array_free (groups, FALSE);
    result->n_objects = n_fresh;
  }

  return result;
}

void
bl_heap_new_objects_free (BlHeapNewObjects *self)
{
  if (self == NULL)
    return;

  g_free (self->groups);
  g_free (self->objects);
  g_free (self);
}
