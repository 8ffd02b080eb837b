/* bl-heap.c — heap graph analysis: reachability, dominators (semi-NCA over
 * Lengauer–Tarjan's balanced forest, iterative), retained sizes, leaked
 * objects and leak cycles, computed once on first use
 *
 * Node 0 of the analysis is a virtual root pointing at every root; object i
 * is node i + 1. References are kept as a CSR (per object, its fields and
 * targets). Everything is flat arrays so millions of objects fit, and lean:
 * 4 bytes of type and 4 of self size per object (a size from 4 GiB up is
 * kept aside), ids only when they are not the index plus a constant, and
 * references added in the order of their source object go straight into
 * the CSR (8 bytes each) without a sort.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-heap"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bl-heap.h"
#include "bl-heap-private.h"

#define NONE G_MAXUINT32
#define BIG_SIZE G_MAXUINT32

typedef struct
{
  guint32 object;
  guint64 size;
} BigSize;

struct _BlHeap
{
  GPtrArray  *type_names;
  GPtrArray  *field_names;
  GHashTable *field_ids;      /* name → id + 1 */

  GArray     *object_types;   /* guint32 */
  GArray     *sizes32;        /* guint32; BIG_SIZE: in big_sizes */
  GArray     *big_sizes;      /* BigSize, in object order */
  /* references while building: fields and targets in the order they were
   * added; while their sources never go down, edge_start holds where each
   * object's run begins, else edge_sources the source of each */
  GArray     *edge_field;     /* guint32 */
  GArray     *edge_to;        /* guint32 */
  GArray     *edge_start;     /* guint32 per object up to the last source */
  GArray     *edge_sources;   /* guint32, or NULL while the sources are sorted */
  GArray     *roots;          /* guint32 */
  /* how many elements the building arrays above have room for (see
   * append_u32()) */
  guint32     room_types;
  guint32     room_sizes;
  guint32     room_field;
  guint32     room_to;
  guint32     room_start;
  /* ids: objects 0 … n_affine - 1 have id index + id_offset, the others
   * their index, unless id_array holds them all */
  GArray     *id_array;       /* guint64 per object, or NULL */
  guint32     n_affine;
  guint64     id_offset;

  gboolean    finished;
  /* the analysis (dominators, retained sizes, leaks, cycles) is done on
   * first use, once: analysed is set (atomically) after its results are
   * in place; analyse_lock serialises the threads that want it */
  GMutex      analyse_lock;
  gint        analysed;
  /* while analysing: where to tell how far it got, and the range */
  int        *progress;
  int         progress_from;
  int         progress_to;
  guint32     n;              /* objects */
  guint32    *first_edge;     /* n + 1 */
  guint32    *fields;         /* per edge */
  guint32    *targets;        /* per edge */
  guint32    *idom;           /* per node (n + 1), NONE if unreachable */
  guint64    *retained;       /* per node */
  guint8     *leaked;         /* per object */
  guint8     *root_bits;      /* one bit per object: in the root set */
  guint32     n_leaked;
  guint64     leaked_bytes;
  guint64     total_bytes;
  guint64    *type_count;
  guint64    *type_self;
  guint64    *type_retained;
  GArray     *cycles;         /* BlHeapCycle */
  guint64     cycles_skipped; /* past the bound on all cycles' steps */
};

/* The building arrays are appended to once or more per object: GArray's
 * own append checks its size limits with a 64-bit division each call, a
 * fifth of the time a reader takes over a heap graph of millions of
 * objects. So they grow here, by doubling as GArray does, and the room
 * they have is kept beside them (GArray never gives memory back while it
 * lives, so the room stays valid when the array is made shorter). */
static G_GNUC_NO_INLINE void
array_make_room (GArray  *array,
                 guint32 *room,
                 guint32  n)
{
  guint32 len = array->len;
  guint64 want = MAX ((guint64) len + n, MAX (2 * (guint64) len, 64));

  if (want > G_MAXUINT32)
    want = (guint64) len + n;
  if (want > G_MAXUINT32)
    g_error ("%s: more than %u elements", G_STRLOC, G_MAXUINT32);
  g_array_set_size (array, (guint) want);
  g_array_set_size (array, len);
  *room = (guint32) want;
}

static inline void
append_u32 (GArray  *array,
            guint32 *room,
            guint32  value)
{
  if G_UNLIKELY (array->len >= *room)
    array_make_room (array, room, 1);
  ((guint32 *) array->data)[array->len++] = value;
}

BlHeap *
bl_heap_new (void)
{
  BlHeap *self = g_new0 (BlHeap, 1);

  self->type_names = g_ptr_array_new_with_free_func (g_free);
  self->field_names = g_ptr_array_new_with_free_func (g_free);
  self->field_ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->object_types = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->sizes32 = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->big_sizes = g_array_new (FALSE, FALSE, sizeof (BigSize));
  self->edge_field = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->edge_to = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->edge_start = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->roots = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->cycles = g_array_new (FALSE, FALSE, sizeof (BlHeapCycle));
  g_mutex_init (&self->analyse_lock);
  bl_heap_intern_field (self, "");

  return self;
}

void
bl_heap_free (BlHeap *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < self->cycles->len; i++)
    {
      BlHeapCycle *cycle = &g_array_index (self->cycles, BlHeapCycle, i);

      g_free (cycle->types);
      g_free (cycle->fields);
    }
  g_array_unref (self->cycles);
  g_ptr_array_unref (self->type_names);
  g_ptr_array_unref (self->field_names);
  g_hash_table_unref (self->field_ids);
  g_clear_pointer (&self->object_types, g_array_unref);
  g_clear_pointer (&self->sizes32, g_array_unref);
  g_clear_pointer (&self->big_sizes, g_array_unref);
  g_clear_pointer (&self->edge_sources, g_array_unref);
  g_clear_pointer (&self->edge_field, g_array_unref);
  g_clear_pointer (&self->edge_to, g_array_unref);
  g_clear_pointer (&self->edge_start, g_array_unref);
  g_clear_pointer (&self->roots, g_array_unref);
  g_clear_pointer (&self->id_array, g_array_unref);
  g_free (self->first_edge);
  g_free (self->fields);
  g_free (self->targets);
  g_free (self->idom);
  g_free (self->retained);
  g_free (self->leaked);
  g_free (self->root_bits);
  g_free (self->type_count);
  g_free (self->type_self);
  g_free (self->type_retained);
  g_mutex_clear (&self->analyse_lock);
  g_free (self);
}

guint32
bl_heap_add_type (BlHeap     *self,
                  const char *name)
{
  g_return_val_if_fail (!self->finished, NONE);

  g_ptr_array_add (self->type_names, g_strdup (name != NULL ? name : ""));

  return self->type_names->len - 1;
}

guint32
bl_heap_intern_field (BlHeap     *self,
                      const char *name)
{
  gpointer v = g_hash_table_lookup (self->field_ids, name);
  char *copy;

  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;

  copy = g_strdup (name);
  g_ptr_array_add (self->field_names, copy);
  g_hash_table_insert (self->field_ids, copy, GUINT_TO_POINTER (self->field_names->len));

  return self->field_names->len - 1;
}

guint32
bl_heap_add_object (BlHeap  *self,
                    guint32  type,
                    guint64  self_size)
{
  g_return_val_if_fail (!self->finished, NONE);
  g_return_val_if_fail (type < self->type_names->len, NONE);

  if (self_size >= BIG_SIZE)
    {
      BigSize big = { self->object_types->len, self_size };

      g_array_append_val (self->big_sizes, big);
    }
  append_u32 (self->object_types, &self->room_types, type);
  append_u32 (self->sizes32, &self->room_sizes, (guint32) MIN (self_size, BIG_SIZE));

  return self->object_types->len - 1;
}

static int compare_big (gconstpointer a,
                        gconstpointer b);

void
bl_heap_set_type_name (BlHeap     *self,
                       guint32     type,
                       const char *name)
{
  g_return_if_fail (!self->finished);
  g_return_if_fail (type < self->type_names->len);

  g_free (g_ptr_array_index (self->type_names, type));
  g_ptr_array_index (self->type_names, type) = g_strdup (name != NULL ? name : "");
}

void
bl_heap_set_self_size (BlHeap  *self,
                       guint32  object,
                       guint64  self_size)
{
  guint32 *sizes = (guint32 *) self->sizes32->data;

  g_return_if_fail (!self->finished);
  g_return_if_fail (object < self->sizes32->len);

  if (self_size < BIG_SIZE && sizes[object] != BIG_SIZE)
    {
      sizes[object] = (guint32) self_size;
      return;
    }
  /* rare: to or from a size kept aside; the aside list stays in object
   * order (objects are mostly set in order: appended, no search) */
  if (sizes[object] == BIG_SIZE)
    {
      const BigSize *big = bsearch (&object, self->big_sizes->data, self->big_sizes->len,
                                    sizeof (BigSize), compare_big);

      if (big != NULL)
        g_array_remove_index (self->big_sizes, big - (const BigSize *) self->big_sizes->data);
    }
  sizes[object] = (guint32) MIN (self_size, BIG_SIZE);
  if (self_size >= BIG_SIZE)
    {
      BigSize big = { object, self_size };
      guint lo = 0, hi = self->big_sizes->len;

      if (hi > 0 && g_array_index (self->big_sizes, BigSize, hi - 1).object > object)
        while (lo < hi)
          {
            guint mid = (lo + hi) / 2;

            if (g_array_index (self->big_sizes, BigSize, mid).object < object)
              lo = mid + 1;
            else
              hi = mid;
          }
      else
        lo = hi;
      g_array_insert_val (self->big_sizes, lo, big);
    }
}

static int
compare_big (gconstpointer a,
             gconstpointer b)
{
  guint32 oa = *(const guint32 *) a, ob = ((const BigSize *) b)->object;

  return oa < ob ? -1 : oa > ob;
}

static inline guint64
object_size (BlHeap  *self,
             guint32  object)
{
  guint32 size = ((const guint32 *) self->sizes32->data)[object];
  const BigSize *big;

  if G_LIKELY (size != BIG_SIZE)
    return size;
  big = bsearch (&object, self->big_sizes->data, self->big_sizes->len, sizeof (BigSize),
                 compare_big);

  return big != NULL ? big->size : BIG_SIZE;
}

void
bl_heap_add_reference (BlHeap  *self,
                       guint32  from,
                       guint32  field,
                       guint32  to)
{
  g_return_if_fail (!self->finished);
  g_return_if_fail (from < self->object_types->len && to < self->object_types->len);
  g_return_if_fail (field < self->field_names->len);

  if (self->edge_sources == NULL && self->edge_start->len > 0 &&
      from < self->edge_start->len - 1)
    {
      /* out of order: from now on each reference keeps its source */
      guint32 m = self->edge_to->len;
      guint32 n_starts = self->edge_start->len;
      const guint32 *start = (const guint32 *) self->edge_start->data;

      self->edge_sources = g_array_sized_new (FALSE, FALSE, sizeof (guint32), m + 1);
      for (guint32 v = 0; v < n_starts; v++)
        {
          guint32 end = v + 1 < n_starts ? start[v + 1] : m;

          for (guint32 e = start[v]; e < end; e++)
            g_array_append_val (self->edge_sources, v);
        }
      g_clear_pointer (&self->edge_start, g_array_unref);
    }
  if (self->edge_sources != NULL)
    g_array_append_val (self->edge_sources, from);
  else
    while (self->edge_start->len <= from)
      append_u32 (self->edge_start, &self->room_start, self->edge_to->len);
  append_u32 (self->edge_field, &self->room_field, field);
  append_u32 (self->edge_to, &self->room_to, to);
}

void
bl_heap_add_raw_reference (BlHeap  *self,
                           guint32  from,
                           guint32  field,
                           guint32  to)
{
  g_return_if_fail (!self->finished);
  g_return_if_fail (from < self->object_types->len);

  /* bl_heap_add_reference() without its checks of @field and @to */
  if (G_LIKELY (self->edge_sources == NULL &&
                (self->edge_start->len == 0 || from >= self->edge_start->len - 1)))
    {
      while (self->edge_start->len <= from)
        append_u32 (self->edge_start, &self->room_start, self->edge_to->len);
      append_u32 (self->edge_field, &self->room_field, field);
      append_u32 (self->edge_to, &self->room_to, to);
      return;
    }
  /* sources out of order: bl_heap_add_reference() switches to a source per
   * reference; its checks pass on the smallest field and target */
  {
    guint32 last = self->edge_to->len;

    bl_heap_add_reference (self, from, 0, 0);
    g_array_index (self->edge_field, guint32, last) = field;
    g_array_index (self->edge_to, guint32, last) = to;
  }
}

guint32 *
bl_heap_reserve_raw_references (BlHeap    *self,
                                guint32    from,
                                guint32    n,
                                guint32  **fields)
{
  guint32 m = self->edge_to->len;

  g_return_val_if_fail (!self->finished, NULL);
  g_return_val_if_fail (from < self->object_types->len, NULL);
  g_return_val_if_fail (self->edge_sources == NULL &&
                        (self->edge_start->len == 0 || from >= self->edge_start->len - 1), NULL);
  g_return_val_if_fail (n <= G_MAXUINT32 - m, NULL);

  while (self->edge_start->len <= from)
    append_u32 (self->edge_start, &self->room_start, m);
  if G_UNLIKELY (self->room_field - m < n)
    array_make_room (self->edge_field, &self->room_field, n);
  if G_UNLIKELY (self->room_to - m < n)
    array_make_room (self->edge_to, &self->room_to, n);
  self->edge_field->len = m + n;
  self->edge_to->len = m + n;
  *fields = (guint32 *) self->edge_field->data + m;

  return (guint32 *) self->edge_to->data + m;
}

void
bl_heap_resolve_references (BlHeap            *self,
                            BlHeapResolveFunc  resolve,
                            gpointer           data)
{
  guint32 *fields = (guint32 *) self->edge_field->data;
  guint32 *to = (guint32 *) self->edge_to->data;
  guint32 m = self->edge_to->len;
  guint32 w = 0;

  g_return_if_fail (!self->finished);

  if (self->edge_sources != NULL)
    {
      guint32 *sources = (guint32 *) self->edge_sources->data;

      for (guint32 e = 0; e < m; e++)
        {
          guint32 f = fields[e], t = to[e];

          if (!resolve (sources[e], &f, &t, data))
            continue;
          sources[w] = sources[e];
          fields[w] = f;
          to[w] = t;
          w++;
        }
      g_array_set_size (self->edge_sources, w);
    }
  else
    {
      guint32 *start = (guint32 *) self->edge_start->data;
      guint32 n_starts = self->edge_start->len;

      for (guint32 v = 0; v < n_starts; v++)
        {
          guint32 begin = start[v];
          guint32 end = v + 1 < n_starts ? start[v + 1] : m;

          start[v] = w;
          for (guint32 e = begin; e < end; e++)
            {
              guint32 f = fields[e], t = to[e];

              if (!resolve (v, &f, &t, data))
                continue;
              fields[w] = f;
              to[w] = t;
              w++;
            }
        }
    }
  g_array_set_size (self->edge_field, w);
  g_array_set_size (self->edge_to, w);
}

void
bl_heap_add_root (BlHeap  *self,
                  guint32  object)
{
  g_return_if_fail (!self->finished);
  g_return_if_fail (object < self->object_types->len);

  g_array_append_val (self->roots, object);
}

void
bl_heap_set_object_id (BlHeap  *self,
                       guint32  object,
                       guint64  id)
{
  g_return_if_fail (object < self->object_types->len);

  if (self->id_array == NULL)
    {
      /* ids given in object order that grow with the index need no array */
      if (object == self->n_affine &&
          (self->n_affine == 0 || id == object + self->id_offset))
        {
          self->id_offset = id - object;
          self->n_affine++;
          return;
        }
      if (object < self->n_affine && id == object + self->id_offset)
        return;
      self->id_array = g_array_new (FALSE, TRUE, sizeof (guint64));
      g_array_set_size (self->id_array, self->n_affine);
      for (guint32 i = 0; i < self->n_affine; i++)
        g_array_index (self->id_array, guint64, i) = i + self->id_offset;
    }
  if (self->id_array->len <= object)
    {
      guint32 old = self->id_array->len;

      g_array_set_size (self->id_array, self->object_types->len);
      /* objects without an id of their own keep their index */
      for (guint32 i = old; i < self->id_array->len; i++)
        g_array_index (self->id_array, guint64, i) = i;
    }
  g_array_index (self->id_array, guint64, object) = id;
}

guint64
bl_heap_get_object_id (BlHeap  *self,
                       guint32  object)
{
  if (self->id_array == NULL)
    return object < self->n_affine ? object + self->id_offset : object;
  if (object >= self->id_array->len)
    return object;

  return g_array_index (self->id_array, guint64, object);
}

/* ---- CSR ---- */

static guint32 *
steal_array (GArray **array)
{
  guint32 *data;

  if ((*array)->len == 0)
    g_array_set_size (*array, 1);
  data = (guint32 *) g_array_free (g_steal_pointer (array), FALSE);

  return data;
}

static void
build_csr (BlHeap *self)
{
  guint32 n = self->n;
  guint32 m = self->edge_to->len;
  const guint32 *from;
  g_autofree guint32 *fill = NULL;

  if (self->edge_sources == NULL)
    {
      /* the references came in the order of their sources: already a CSR */
      self->first_edge = g_new (guint32, (gsize) n + 1);
      if (self->edge_start->len > 0)
        memcpy (self->first_edge, self->edge_start->data,
                sizeof (guint32) * MIN (self->edge_start->len, n));
      for (guint32 v = MIN (self->edge_start->len, n); v <= n; v++)
        self->first_edge[v] = m;
      g_clear_pointer (&self->edge_start, g_array_unref);
      self->fields = steal_array (&self->edge_field);
      self->targets = steal_array (&self->edge_to);
      return;
    }

  from = (const guint32 *) self->edge_sources->data;
  self->first_edge = g_new0 (guint32, (gsize) n + 1);
  self->fields = g_new (guint32, MAX (m, 1));
  self->targets = g_new (guint32, MAX (m, 1));

  for (guint32 e = 0; e < m; e++)
    self->first_edge[from[e] + 1]++;
  for (guint32 i = 0; i < n; i++)
    self->first_edge[i + 1] += self->first_edge[i];

  /* stable: an object's references keep the order they were added in */
  fill = g_memdup2 (self->first_edge, sizeof (guint32) * n);
  for (guint32 e = 0; e < m; e++)
    {
      guint32 at = fill[from[e]]++;

      self->fields[at] = g_array_index (self->edge_field, guint32, e);
      self->targets[at] = g_array_index (self->edge_to, guint32, e);
    }

  g_clear_pointer (&self->edge_sources, g_array_unref);
  g_clear_pointer (&self->edge_field, g_array_unref);
  g_clear_pointer (&self->edge_to, g_array_unref);
}

/* successors of analysis node v (0 = virtual root) */
static inline void
node_successors (BlHeap         *self,
                 guint32         v,
                 const guint32 **succ,
                 guint32        *n_succ)
{
  if (v == 0)
    {
      *succ = (const guint32 *) self->roots->data;
      *n_succ = self->roots->len;
    }
  else
    {
      *succ = self->targets + self->first_edge[v - 1];
      *n_succ = self->first_edge[v] - self->first_edge[v - 1];
    }
}

/* ---- dominators: semi-NCA, Lengauer–Tarjan as the fallback, iterative ----
 *
 * Everything runs on preorder numbers (0 = the virtual root), so the hot
 * arrays are walked close together. A vertex is linked into the forest once
 * the backward pass is past it: while vertex cur is processed, exactly the
 * vertices above cur are linked, and a vertex's forest ancestor starts as
 * its parent in the depth-first tree (so one array serves both). */

/* A vertex's forest link and its label (the vertex of least
 * semidominator on the compressed path) with that semidominator, side by
 * side: one cache line per step of a path. */
typedef struct
{
  guint32 ancestor;
  guint32 label;
  guint32 label_semi;
} Forest;

/* The vertex of least semidominator on the forest path above @v (and its
 * semidominator in *@semi_out), with the vertices above @cur linked;
 * compresses the path (@path has room for every vertex). A vertex not
 * linked yet is its own answer, its semidominator still itself. */
static inline guint32
eval (Forest        *forest,
      guint32        v,
      guint32        cur,
      guint32       *path,
      guint32       *semi_out)
{
  guint32 u = v, n = 0;

  /* not linked yet: its semidominator is still itself (cur's own may have
   * gone down already, but a self loop never lowers it) */
  if (v <= cur)
    {
      *semi_out = v;
      return v;
    }

  /* the vertices whose ancestor is itself linked, bottom up */
  while (forest[u].ancestor > cur)
    {
      path[n++] = u;
      u = forest[u].ancestor;
    }
  /* compress from the top down */
  while (n > 0)
    {
      Forest *x = &forest[path[--n]];
      const Forest *a = &forest[x->ancestor];

      if (a->label_semi < x->label_semi)
        {
          x->label = a->label;
          x->label_semi = a->label_semi;
        }
      x->ancestor = a->ancestor;
    }

  *semi_out = forest[v].label_semi;
  return forest[v].label;
}

/* The forest of the semidominator pass: Lengauer and Tarjan's balanced
 * version (linked by size, so its paths stay short even where the
 * depth-first tree is one long chain, as heaps' often are). best stands for
 * the semidominator of the vertex's label: only semidominators are asked
 * of this forest, so they are kept instead of the labels. */
typedef struct
{
  guint32 ancestor;   /* NONE: a root of the forest */
  guint32 best;
  guint32 child;
  guint32 size;
} SemiLink;

/* The least semidominator on the forest path from @v, compressing it
 * (@path has room for every vertex). */
static inline guint32
eval_semi (SemiLink *link,
           guint32   v,
           guint32  *path)
{
  guint32 x = v, n = 0, a;

  if (link[v].ancestor == NONE)
    return link[v].best;

  while (link[link[x].ancestor].ancestor != NONE)
    {
      path[n++] = x;
      x = link[x].ancestor;
    }
  while (n > 0)
    {
      SemiLink *y = &link[path[--n]];
      const SemiLink *z = &link[y->ancestor];

      if (z->best < y->best)
        y->best = z->best;
      y->ancestor = z->ancestor;
    }
  a = link[v].ancestor;

  return MIN (link[a].best, link[v].best);
}

/* Links the tree of @w under @v (its parent in the depth-first tree),
 * keeping the forest balanced; @none is the sentinel vertex (size 0, best
 * 0). */
static inline void
link_semi (SemiLink *link,
           guint32   v,
           guint32   w,
           guint32   none)
{
  guint32 s = w;

  while (link[w].best < link[link[s].child].best)
    {
      guint32 c = link[s].child;
      guint32 cc = link[c].child;

      if ((guint64) link[s].size + link[cc].size >= 2 * (guint64) link[c].size)
        {
          link[c].ancestor = s;
          link[s].child = cc;
        }
      else
        {
          link[c].size = link[s].size;
          link[s].ancestor = c;
          s = c;
        }
    }
  link[s].best = link[w].best;
  link[v].size += link[w].size;
  if (link[v].size < 2 * (guint64) link[w].size)
    {
      guint32 t = s;

      s = link[v].child;
      link[v].child = t;
    }
  while (s != none)
    {
      link[s].ancestor = v;
      s = link[s].child;
    }
}

/* Tells how far the analysis got: @permille of it. */
static void
report (BlHeap *self,
        int     permille)
{
  if (self->progress != NULL)
    g_atomic_int_set (self->progress,
                      self->progress_from +
                      (self->progress_to - self->progress_from) * permille / 1000);
}

/* how many steps of a long walk between two looks at the cancellable */
#define CHECK_EVERY (1u << 20)

/* how many references or predecessors ahead their lookups are prefetched */
#define PREFETCH_AHEAD 16

/* Lengauer and Tarjan's backward pass over the vertices in reverse
 * preorder: each vertex's semidominator from its predecessors, then the
 * vertex linked to its parent (the forest's ancestors start as the
 * depth-first tree's parents). With @bucket (heads, one per vertex) and
 * @idom (the buckets' links), also the immediate dominators as relative
 * ones (idom[w] == semi[w] or a vertex with the same idom, fixed after
 * the pass in preorder); without, the semidominators only. */
static void
backward_pass (Forest        *forest,
               const guint32 *pred_first,
               const guint32 *preds,
               guint32       *semi,
               guint32       *idom,
               guint32       *bucket,
               guint32       *path,
               guint32        count)
{
  gint64 ahead = (gint64) pred_first[count] - 1;

  for (guint32 p = 0; p < count; p++)
    semi[p] = p;
  if (bucket != NULL)
    for (guint32 p = 0; p < count; p++)
      bucket[p] = NONE;

  for (guint32 w = count - 1; w >= 1; w--)
    {
      guint32 parent = forest[w].ancestor;

      /* the forest entries of the predecessors a few steps on (the
       * predecessors are used from the end of their array to its start) */
      for (; ahead >= 0 && ahead + PREFETCH_AHEAD >= pred_first[w]; ahead--)
        __builtin_prefetch (&forest[preds[ahead]], 1);
      for (guint32 k = pred_first[w]; k < pred_first[w + 1]; k++)
        {
          guint32 s;

          eval (forest, preds[k], w, path, &s);
          if (s < semi[w])
            semi[w] = s;
        }
      /* link w to its parent: the vertices from w up are linked now */
      forest[w].label = w;
      forest[w].label_semi = semi[w];
      if (bucket == NULL)
        continue;
      idom[w] = bucket[semi[w]];
      bucket[semi[w]] = w;
      for (guint32 v = bucket[parent]; v != NONE; )
        {
          guint32 next = idom[v];
          guint32 s;
          guint32 u = eval (forest, v, w - 1, path, &s);

          idom[v] = s < semi[v] ? u : parent;
          v = next;
        }
      bucket[parent] = NONE;
    }
}

static gboolean
compute_dominators (BlHeap       *self,
                    GCancellable *cancellable)
{
  guint32 N = self->n + 1;
  guint32 *dfnum = g_new (guint32, N);          /* node → preorder; then bucket heads */
  guint32 *vertex = g_new (guint32, N);         /* preorder → node */
  /* DFS parent and next edge first, then the semidominators' forest */
  Forest *forest = g_malloc (sizeof (SemiLink) * ((gsize) N + 1));
  guint32 *semi = g_new (guint32, N);           /* DFS stack first */
  guint32 *idom = g_new (guint32, N);           /* predecessor fill, then bucket links */
  guint32 *pred_first = NULL;
  guint32 *preds = NULL;
  guint32 *path = NULL;
  guint32 *parent;
  guint64 walked = 0, walk_budget = 8 * (guint64) N + (1 << 20);
  guint32 count = 0, sp = 0, m;

  memset (dfnum, 0xff, sizeof (guint32) * N);

  /* iterative depth-first search from the virtual root; it meets every
   * reference of a reached object once, so it counts the predecessors of
   * each vertex on the way (the order of a vertex's predecessors does not
   * change the dominators) */
  pred_first = g_new0 (guint32, (gsize) N + 1);
  dfnum[0] = 0;
  vertex[0] = 0;
  forest[0].ancestor = NONE;
  forest[0].label = 0;
  count = 1;
  semi[sp++] = 0;
  while (sp > 0)
    {
      guint32 p = semi[sp - 1];
      const guint32 *succ;
      guint32 n_succ;

      node_successors (self, vertex[p], &succ, &n_succ);
      if (forest[p].label < n_succ)
        {
          guint32 w = succ[forest[p].label++] + 1;

          if (dfnum[w] == NONE)
            {
              guint32 q = count++;

              dfnum[w] = q;
              vertex[q] = w;
              forest[q].ancestor = p;
              forest[q].label = 0;
              semi[sp++] = q;
              /* its references come next: their targets' preorder
               * numbers fetched now */
              if (w > 0)
                for (guint32 e = self->first_edge[w - 1];
                     e < self->first_edge[w] && e < self->first_edge[w - 1] + 8; e++)
                  {
                    __builtin_prefetch (&dfnum[self->targets[e] + 1]);
                    __builtin_prefetch (&self->first_edge[self->targets[e]]);
                  }
            }
          pred_first[dfnum[w] + 1]++;
        }
      else
        sp--;
    }

  report (self, 350);
  if (g_cancellable_is_cancelled (cancellable))
    goto cancelled;

  /* predecessors, in preorder numbers, of the reached vertices: the
   * references walked in object order (sequential reads, the preorder
   * numbers of their targets fetched a few references ahead) */
  m = self->first_edge[self->n];
  for (guint32 p = 0; p < count; p++)
    pred_first[p + 1] += pred_first[p];
  preds = g_new (guint32, MAX (pred_first[count], 1));
  memcpy (idom, pred_first, sizeof (guint32) * count);
  for (guint32 k = 0; k < self->roots->len; k++)
    preds[idom[dfnum[g_array_index (self->roots, guint32, k) + 1]]++] = 0;
  for (guint32 v = 0; v < self->n; v++)
    {
      guint32 p = dfnum[v + 1];

      if (p == NONE)
        continue;
      for (guint32 e = self->first_edge[v]; e < self->first_edge[v + 1]; e++)
        {
          if (e + PREFETCH_AHEAD < m)
            __builtin_prefetch (&dfnum[self->targets[e + PREFETCH_AHEAD] + 1]);
          preds[idom[dfnum[self->targets[e] + 1]]++] = p;
        }
    }

  report (self, 600);
  if (g_cancellable_is_cancelled (cancellable))
    goto cancelled;

  /* semi-NCA: the semidominators by Lengauer and Tarjan's backward pass
   * over their balanced forest, then each immediate dominator, in
   * preorder, as the nearest common ancestor in the dominator tree so far
   * of the vertex's parent and its semidominator (no buckets, half the
   * forest lookups). The walks up the tree are bounded: a graph that makes
   * them quadratic falls back to the buckets of the original algorithm.
   * dfnum keeps each vertex's parent; the forest takes the DFS's array. */
  path = g_new (guint32, N);
  parent = dfnum;
  for (guint32 w = 0; w < count; w++)
    parent[w] = forest[w].ancestor;
  {
    SemiLink *link = (SemiLink *) forest;
    gint64 ahead = (gint64) pred_first[count] - 1;

    for (guint32 w = 0; w < count; w++)
      link[w] = (SemiLink) { NONE, w, count, 1 };
    link[count] = (SemiLink) { NONE, 0, count, 0 };
    semi[0] = 0;
    for (guint32 w = count - 1; w >= 1; w--)
      {
        guint32 best = w;

        for (; ahead >= 0 && ahead + PREFETCH_AHEAD >= pred_first[w]; ahead--)
          __builtin_prefetch (&link[preds[ahead]], 1);
        for (guint32 k = pred_first[w]; k < pred_first[w + 1]; k++)
          {
            guint32 v = preds[k];
            /* not processed yet: its semidominator is still itself */
            guint32 s = v <= w ? v : eval_semi (link, v, path);

            if (s < best)
              best = s;
          }
        semi[w] = best;
        link[w].best = best;
        link_semi (link, parent[w], w, count);
      }
  }
  idom[0] = 0;
  for (guint32 w = 1; w < count && walked <= walk_budget; w++)
    {
      guint32 d = parent[w];

      while (d > semi[w])
        {
          d = idom[d];
          walked++;
        }
      idom[w] = d;
    }
  if (walked > walk_budget)
    {
      /* again with the buckets: the forest back to the depth-first tree */
      for (guint32 w = 0; w < count; w++)
        forest[w].ancestor = parent[w];
      backward_pass (forest, pred_first, preds, semi, idom, parent, path, count);
      idom[0] = 0;
      for (guint32 w = 1; w < count; w++)
        if (idom[w] != semi[w])
          idom[w] = idom[idom[w]];
    }
  g_clear_pointer (&path, g_free);
  g_clear_pointer (&preds, g_free);
  report (self, 800);
  if (g_cancellable_is_cancelled (cancellable))
    goto cancelled;

  /* retained sizes: children before their dominator (reverse preorder) */
  self->retained = g_new0 (guint64, N);
  for (guint32 w = count - 1; w >= 1; w--)
    {
      guint32 v = vertex[w];

      self->retained[v] += object_size (self, v - 1);
      self->retained[vertex[idom[w]]] += self->retained[v];
    }

  /* per type: an object's retained bytes count unless an object of the same
   * type dominates it (walk the dominator tree keeping per-type depths);
   * the children lists reuse the arrays the dominators are done with */
  {
    guint32 n_types = self->type_names->len;
    guint32 *dom_first = pred_first;      /* count + 1 */
    guint32 *dom_child = semi;
    guint32 *next_child = (guint32 *) forest;
    guint32 *stack = next_child + N;
    g_autofree guint32 *active = g_new0 (guint32, MAX (n_types, 1));

    self->type_retained = g_new0 (guint64, MAX (n_types, 1));
    memset (dom_first, 0, sizeof (guint32) * ((gsize) count + 1));
    for (guint32 w = 1; w < count; w++)
      dom_first[idom[w] + 1]++;
    for (guint32 p = 0; p < count; p++)
      dom_first[p + 1] += dom_first[p];
    memcpy (next_child, dom_first, sizeof (guint32) * count);
    for (guint32 w = 1; w < count; w++)
      dom_child[next_child[idom[w]]++] = w;
    memcpy (next_child, dom_first, sizeof (guint32) * count);

    sp = 0;
    stack[sp++] = 0;
    while (sp > 0)
      {
        guint32 p = stack[sp - 1];

        if (next_child[p] < dom_first[p + 1])
          {
            guint32 w = dom_child[next_child[p]++];
            guint32 type = g_array_index (self->object_types, guint32, vertex[w] - 1);

            if (active[type]++ == 0)
              self->type_retained[type] += self->retained[vertex[w]];
            stack[sp++] = w;
          }
        else
          {
            if (p != 0)
              active[g_array_index (self->object_types, guint32, vertex[p] - 1)]--;
            sp--;
          }
      }
  }

  /* the immediate dominators by node; NONE for the unreached */
  self->idom = dfnum;
  memset (self->idom, 0xff, sizeof (guint32) * N);
  for (guint32 w = 1; w < count; w++)
    self->idom[vertex[w]] = vertex[idom[w]];

  g_free (vertex);
  g_free (forest);
  g_free (semi);
  g_free (idom);
  g_free (pred_first);

  return TRUE;

cancelled:
  g_free (dfnum);
  g_free (vertex);
  g_free (forest);
  g_free (semi);
  g_free (idom);
  g_free (pred_first);
  g_free (preds);
  g_free (path);

  return FALSE;
}

/* ---- leaks ---- */

static gboolean
field_is (const char *name,
          const char *wanted)
{
  const char *space = strchr (name, ' ');

  /* "TYPE name": the field is what follows the first space */
  return g_str_equal (space != NULL ? space + 1 : name, wanted);
}

#define BIT_GET(bits, i) (((bits)[(i) / 64] >> ((i) % 64)) & 1)
#define BIT_SET(bits, i) ((bits)[(i) / 64] |= G_GUINT64_CONSTANT (1) << ((i) % 64))

/* Marks what the roots reach without $unreachable references (live), then
 * what the $unreachable targets reach that is not live (leaked). The live
 * marks and which references are $unreachable are bits, so they stay in
 * the cache. */
static void
compute_leaks (BlHeap  *self,
               guint8  *is_unreachable_field)
{
  guint32 n = self->n;
  guint32 m = self->first_edge[n];
  g_autofree guint64 *live = NULL;
  g_autofree guint64 *cut = NULL;       /* per reference: $unreachable */
  g_autofree guint32 *stack = NULL;
  guint32 sp = 0;
  gboolean any = FALSE;

  self->leaked = g_new0 (guint8, MAX (n, 1));

  /* no $unreachable reference, no leak */
  cut = g_new0 (guint64, m / 64 + 1);
  for (guint32 e = 0; e < m; e++)
    if (is_unreachable_field[self->fields[e]])
      {
        BIT_SET (cut, e);
        any = TRUE;
      }
  if (!any)
    return;

  live = g_new0 (guint64, n / 64 + 1);
  stack = g_new (guint32, MAX (n, 1));     /* each object is pushed once */

  for (guint i = 0; i < self->roots->len; i++)
    {
      guint32 r = g_array_index (self->roots, guint32, i);

      if (!BIT_GET (live, r))
        {
          BIT_SET (live, r);
          stack[sp++] = r;
        }
    }
  /* breadth first (the stack array as a queue: each object enters it
   * once), so the objects coming are known well ahead: where their
   * references start is fetched 16 places ahead, the references 8 */
  for (guint32 head = 0; head < sp; head++)
    {
      guint32 v = stack[head];

      if (head + 16 < sp)
        __builtin_prefetch (&self->first_edge[stack[head + 16]]);
      if (head + 8 < sp)
        __builtin_prefetch (&self->targets[self->first_edge[stack[head + 8]]]);
      for (guint32 e = self->first_edge[v]; e < self->first_edge[v + 1]; e++)
        {
          guint32 w = self->targets[e];

          if (BIT_GET (cut, e) || BIT_GET (live, w))
            continue;
          BIT_SET (live, w);
          stack[sp++] = w;
        }
    }
  sp = 0;

  for (guint32 v = 0, head = 0; v < n; v++)
    for (guint32 e = self->first_edge[v]; e < self->first_edge[v + 1]; e++)
      {
        guint32 w = self->targets[e];

        if (!BIT_GET (cut, e) || BIT_GET (live, w) || self->leaked[w])
          continue;
        self->leaked[w] = 1;
        stack[sp++] = w;
        /* breadth first again, the queue going on from the previous
         * targets' (each object enters it once) */
        for (; head < sp; head++)
          {
            guint32 x = stack[head];

            if (head + 16 < sp)
              __builtin_prefetch (&self->first_edge[stack[head + 16]]);
            if (head + 8 < sp)
              __builtin_prefetch (&self->targets[self->first_edge[stack[head + 8]]]);
            for (guint32 f = self->first_edge[x]; f < self->first_edge[x + 1]; f++)
              {
                guint32 y = self->targets[f];

                if (BIT_GET (live, y) || self->leaked[y])
                  continue;
                self->leaked[y] = 1;
                stack[sp++] = y;
              }
          }
      }

  for (guint32 v = 0; v < n; v++)
    if (self->leaked[v])
      {
        self->n_leaked++;
        self->leaked_bytes += object_size (self, v);
      }
}

/* A (type, field) step, ranked by (type name, field name). */
typedef struct
{
  guint32 type;
  guint32 field;
} Step;

static int
compare_steps (gconstpointer a,
               gconstpointer b,
               gpointer      data)
{
  BlHeap *heap = data;
  const Step *sa = a, *sb = b;
  int c = strcmp (g_ptr_array_index (heap->type_names, sa->type),
                  g_ptr_array_index (heap->type_names, sb->type));

  if (c != 0)
    return c;
  return strcmp (g_ptr_array_index (heap->field_names, sa->field),
                 g_ptr_array_index (heap->field_names, sb->field));
}

/* The start of the lexicographically least rotation of @s (length @n),
 * in linear time. */
static guint32
least_rotation (const guint32 *s,
                guint32        n)
{
  guint32 i = 0, j = 1, k = 0;

  while (i < n && j < n && k < n)
    {
      guint32 a = s[(i + k) % n], b = s[(j + k) % n];

      if (a == b)
        {
          k++;
          continue;
        }
      if (a > b)
        i += k + 1;
      else
        j += k + 1;
      if (i == j)
        j++;
      k = 0;
    }

  return MIN (i, j);
}

static int
compare_cycles (gconstpointer a,
                gconstpointer b,
                gpointer      data)
{
  BlHeap *heap = data;
  const BlHeapCycle *ca = a, *cb = b;

  if (ca->count != cb->count)
    return ca->count > cb->count ? -1 : 1;
  for (guint32 i = 0; i < MIN (ca->n_steps, cb->n_steps); i++)
    {
      Step sa = { ca->types[i], ca->fields[i] }, sb = { cb->types[i], cb->fields[i] };
      int c = compare_steps (&sa, &sb, heap);

      if (c != 0)
        return c;
    }

  return ca->n_steps < cb->n_steps ? -1 : ca->n_steps > cb->n_steps;
}

/* Depth-first walks over leaked objects (not following $unreachable
 * references); each back edge closes a cycle of (type, field) steps. Each
 * cycle is grouped as it is found (by a hash of its least rotation, then
 * step by step), so memory stays linear in the longest cycle; the steps
 * of all cycles together are bounded (a graph with a quadratic number of
 * them stops contributing cycles: cycles_skipped counts the rest). */
static gboolean
compute_cycles (BlHeap       *self,
                guint8       *is_unreachable_field,
                GCancellable *cancellable)
{
  guint32 n = self->n;
  const guint32 *types = (const guint32 *) self->object_types->data;
  g_autofree guint8 *state = NULL;       /* 0 new, 1 on stack, 2 done */
  g_autofree guint32 *edge_pos = NULL;
  g_autofree guint32 *stack_index = NULL;
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr (GArray) via = g_array_new (FALSE, FALSE, sizeof (guint32));  /* field taken from stack[i] */
  g_autoptr (GArray) steps = g_array_new (FALSE, FALSE, sizeof (Step));   /* one cycle's */
  g_autoptr (GArray) ranks = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr (GArray) distinct = g_array_new (FALSE, FALSE, sizeof (Step));
  g_autoptr (GHashTable) pair_rank = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) groups = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GArray) same_hash = g_array_new (FALSE, FALSE, sizeof (guint32)); /* next cycle, + 1 */
  guint64 budget = 4 * (guint64) n + (1 << 20);
  guint32 global_field = NONE;
  guint64 last_key = G_MAXUINT64;
  guint32 last_rank = 0;
  guint32 steps_done = 0;
  gboolean any = FALSE;

  for (guint32 v = 0; v < n && !any; v++)
    any = self->leaked[v];
  if (!any)
    return TRUE;

  for (guint32 f = 0; f < self->field_names->len; f++)
    if (field_is (g_ptr_array_index (self->field_names, f), "$m.global"))
      global_field = f;

  /* rank the distinct (type, field) steps by name, so rotations compare
   * by name */
  for (guint32 v = 0; v < n; v++)
    {
      if (!self->leaked[v])
        continue;
      for (guint32 e = self->first_edge[v]; e < self->first_edge[v + 1]; e++)
        {
          guint64 key = ((guint64) types[v] << 32) | self->fields[e];

          if (!self->leaked[self->targets[e]] || is_unreachable_field[self->fields[e]] ||
              key == last_key)
            continue;
          last_key = key;
          if (!g_hash_table_contains (pair_rank, (gpointer) (guintptr) key))
            {
              Step step = { types[v], self->fields[e] };

              g_hash_table_insert (pair_rank, (gpointer) (guintptr) key, NULL);
              g_array_append_val (distinct, step);
            }
        }
    }
  g_array_sort_with_data (distinct, compare_steps, self);
  for (guint32 i = 0; i < distinct->len; i++)
    {
      const Step *step = &g_array_index (distinct, Step, i);
      guint64 key = ((guint64) step->type << 32) | step->field;

      g_hash_table_insert (pair_rank, (gpointer) (guintptr) key, GUINT_TO_POINTER (i));
    }
  last_key = G_MAXUINT64;

  state = g_new0 (guint8, MAX (n, 1));
  edge_pos = g_new (guint32, MAX (n, 1));
  stack_index = g_new (guint32, MAX (n, 1));

  for (guint32 start = 0; start < n; start++)
    {
      if (!self->leaked[start] || state[start] != 0)
        continue;

      state[start] = 1;
      edge_pos[start] = self->first_edge[start];
      stack_index[start] = 0;
      g_array_set_size (stack, 0);
      g_array_set_size (via, 0);
      g_array_append_val (stack, start);
      g_array_append_val (via, (guint32) { 0 });
      while (stack->len > 0)
        {
          guint32 v = g_array_index (stack, guint32, stack->len - 1);

          if (++steps_done % CHECK_EVERY == 0 && g_cancellable_is_cancelled (cancellable))
            return FALSE;
          if (edge_pos[v] < self->first_edge[v + 1])
            {
              guint32 e = edge_pos[v]++;
              guint32 w = self->targets[e];

              if (!self->leaked[w] || is_unreachable_field[self->fields[e]])
                continue;
              g_array_index (via, guint32, stack->len - 1) = self->fields[e];
              if (state[w] == 1)
                {
                  guint32 len = stack->len - stack_index[w];
                  guint32 first, hash = 2166136261u;
                  gpointer found;
                  guint32 match = NONE;

                  if (len > budget)
                    {
                      self->cycles_skipped++;
                      continue;
                    }
                  budget -= len;

                  g_array_set_size (steps, len);
                  g_array_set_size (ranks, len);
                  for (guint32 i = 0; i < len; i++)
                    {
                      guint32 o = g_array_index (stack, guint32, stack_index[w] + i);
                      Step *step = &g_array_index (steps, Step, i);
                      guint64 key;

                      step->type = types[o];
                      step->field = g_array_index (via, guint32, stack_index[w] + i);
                      key = ((guint64) step->type << 32) | step->field;
                      if (key != last_key)
                        {
                          last_key = key;
                          last_rank = GPOINTER_TO_UINT (g_hash_table_lookup (pair_rank,
                                                                             (gpointer) (guintptr) key));
                        }
                      g_array_index (ranks, guint32, i) = last_rank;
                    }
                  first = least_rotation ((const guint32 *) ranks->data, len);
                  for (guint32 i = 0; i < len; i++)
                    hash = (hash ^ g_array_index (ranks, guint32, (first + i) % len)) * 16777619u;
                  hash ^= len;

                  /* the same cycle found before? */
                  found = g_hash_table_lookup (groups, GUINT_TO_POINTER (hash));
                  for (guint32 c = GPOINTER_TO_UINT (found); c != 0 && match == NONE;
                       c = g_array_index (same_hash, guint32, c - 1))
                    {
                      const BlHeapCycle *cycle = &g_array_index (self->cycles, BlHeapCycle, c - 1);
                      guint32 i;

                      if (cycle->n_steps != len)
                        continue;
                      for (i = 0; i < len; i++)
                        {
                          const Step *s = &g_array_index (steps, Step, (first + i) % len);

                          if (cycle->types[i] != s->type || cycle->fields[i] != s->field)
                            break;
                        }
                      if (i == len)
                        match = c - 1;
                    }

                  if (match != NONE)
                    {
                      g_array_index (self->cycles, BlHeapCycle, match).count++;
                    }
                  else
                    {
                      BlHeapCycle cycle = { 0 };

                      cycle.n_steps = len;
                      cycle.types = g_new (guint32, len);
                      cycle.fields = g_new (guint32, len);
                      for (guint32 i = 0; i < len; i++)
                        {
                          const Step *s = &g_array_index (steps, Step, (first + i) % len);

                          cycle.types[i] = s->type;
                          cycle.fields[i] = s->field;
                          if (s->field == global_field)
                            cycle.through_global = TRUE;
                        }
                      cycle.count = 1;
                      cycle.example = w;
                      g_array_append_val (self->cycles, cycle);
                      g_array_append_val (same_hash, (guint32) { GPOINTER_TO_UINT (found) });
                      g_hash_table_insert (groups, GUINT_TO_POINTER (hash),
                                           GUINT_TO_POINTER (self->cycles->len));
                    }
                }
              else if (state[w] == 0)
                {
                  state[w] = 1;
                  edge_pos[w] = self->first_edge[w];
                  stack_index[w] = stack->len;
                  g_array_append_val (stack, w);
                  g_array_append_val (via, (guint32) { 0 });
                }
            }
          else
            {
              state[v] = 2;
              g_array_set_size (stack, stack->len - 1);
              g_array_set_size (via, via->len - 1);
            }
        }
    }

  g_array_sort_with_data (self->cycles, compare_cycles, self);

  return TRUE;
}

/* Drops what an analysis cut short had computed. */
static void
clear_analysis (BlHeap *self)
{
  for (guint i = 0; i < self->cycles->len; i++)
    {
      BlHeapCycle *cycle = &g_array_index (self->cycles, BlHeapCycle, i);

      g_free (cycle->types);
      g_free (cycle->fields);
    }
  g_array_set_size (self->cycles, 0);
  g_clear_pointer (&self->idom, g_free);
  g_clear_pointer (&self->retained, g_free);
  g_clear_pointer (&self->leaked, g_free);
  g_clear_pointer (&self->type_retained, g_free);
  self->n_leaked = 0;
  self->leaked_bytes = 0;
  self->cycles_skipped = 0;
}

static gboolean
analyse (BlHeap       *self,
         GCancellable *cancellable)
{
  g_autofree guint8 *is_unreachable_field = NULL;

  if (!compute_dominators (self, cancellable))
    return FALSE;
  if (g_cancellable_is_cancelled (cancellable))
    return FALSE;

  is_unreachable_field = g_new0 (guint8, self->field_names->len);
  for (guint32 f = 0; f < self->field_names->len; f++)
    is_unreachable_field[f] = field_is (g_ptr_array_index (self->field_names, f), "$unreachable");
  report (self, 900);
  compute_leaks (self, is_unreachable_field);
  report (self, 950);
  if (g_cancellable_is_cancelled (cancellable))
    return FALSE;
  if (!compute_cycles (self, is_unreachable_field, cancellable))
    return FALSE;
  report (self, 1000);

  return TRUE;
}

/**
 * bl_heap_finish:
 *
 * Ends the building: the references become a CSR, the roots a bit set, and
 * the per-type counts and self bytes are summed. The analysis (dominators,
 * retained sizes, leaked objects, leak cycles) is left for
 * bl_heap_analyse() or the first getter that needs it.
 */
void
bl_heap_finish (BlHeap *self)
{
  guint32 n_types;

  g_return_if_fail (!self->finished);

  self->n = self->object_types->len;
  self->root_bits = g_new0 (guint8, self->n / 8 + 1);
  for (guint i = 0; i < self->roots->len; i++)
    {
      guint32 r = g_array_index (self->roots, guint32, i);

      self->root_bits[r / 8] |= (guint8) (1u << (r % 8));
    }
  build_csr (self);

  n_types = self->type_names->len;
  self->type_count = g_new0 (guint64, MAX (n_types, 1));
  self->type_self = g_new0 (guint64, MAX (n_types, 1));
  for (guint32 v = 0; v < self->n; v++)
    {
      guint32 type = g_array_index (self->object_types, guint32, v);
      guint64 size = object_size (self, v);

      self->type_count[type]++;
      self->type_self[type] += size;
      self->total_bytes += size;
    }

  self->finished = TRUE;
}

/**
 * bl_heap_analyse:
 * @cancellable: (nullable): cuts the analysis short
 *
 * Computes the dominators, retained sizes, leaked objects and leak cycles
 * of a finished heap unless that was done already. Safe to call from any
 * thread, also while another thread reads the heap: the first caller
 * computes, the others wait for it. Cancelled, nothing is kept and the next
 * call (or getter) starts again.
 *
 * Returns: %TRUE when the analysis is there, %FALSE when cancelled
 */
gboolean
bl_heap_analyse (BlHeap       *self,
                 GCancellable *cancellable)
{
  return bl_heap_analyse_with_progress (self, cancellable, NULL, 0, 1000);
}

/**
 * bl_heap_analyse_with_progress:
 * @progress: (nullable): set atomically from @from to @to per mille as the
 *   analysis goes (to @to at once when it was done already)
 *
 * bl_heap_analyse() telling how far it got.
 */
gboolean
bl_heap_analyse_with_progress (BlHeap       *self,
                               GCancellable *cancellable,
                               int          *progress,
                               int           from,
                               int           to)
{
  gboolean done;

  g_return_val_if_fail (self != NULL && self->finished, FALSE);

  if (!g_atomic_int_get (&self->analysed))
    {
      g_mutex_lock (&self->analyse_lock);
      done = g_atomic_int_get (&self->analysed);
      if (!done)
        {
          self->progress = progress;
          self->progress_from = from;
          self->progress_to = to;
          report (self, 0);
          done = analyse (self, cancellable);
          self->progress = NULL;
          if (done)
            g_atomic_int_set (&self->analysed, TRUE);
          else
            clear_analysis (self);
        }
      g_mutex_unlock (&self->analyse_lock);
      if (!done)
        return FALSE;
    }
  if (progress != NULL)
    g_atomic_int_set (progress, to);

  return TRUE;
}

/**
 * bl_heap_is_analysed:
 *
 * Returns: whether the analysis is done (bl_heap_analyse() returns at once)
 */
gboolean
bl_heap_is_analysed (BlHeap *self)
{
  return g_atomic_int_get (&self->analysed);
}

/* what a getter of the analysis calls first */
static inline void
ensure_analysed (BlHeap *self)
{
  if G_UNLIKELY (!g_atomic_int_get (&self->analysed))
    bl_heap_analyse (self, NULL);
}

gboolean
bl_heap_is_root (BlHeap  *self,
                 guint32  object)
{
  g_return_val_if_fail (self->finished, FALSE);

  if (object >= self->n)
    return FALSE;

  return (self->root_bits[object / 8] >> (object % 8)) & 1;
}

guint32
bl_heap_get_n_objects (BlHeap *self)
{
  return self->object_types->len;
}

guint32
bl_heap_get_n_types (BlHeap *self)
{
  return self->type_names->len;
}

const char *
bl_heap_get_type_name (BlHeap  *self,
                       guint32  type)
{
  g_return_val_if_fail (type < self->type_names->len, NULL);

  return g_ptr_array_index (self->type_names, type);
}

const char *
bl_heap_get_field_name (BlHeap  *self,
                        guint32  field)
{
  g_return_val_if_fail (field < self->field_names->len, NULL);

  return g_ptr_array_index (self->field_names, field);
}

guint32
bl_heap_get_object_type (BlHeap  *self,
                         guint32  object)
{
  g_return_val_if_fail (object < self->object_types->len, NONE);

  return g_array_index (self->object_types, guint32, object);
}

guint64
bl_heap_get_self_size (BlHeap  *self,
                       guint32  object)
{
  g_return_val_if_fail (object < self->sizes32->len, 0);

  return object_size (self, object);
}

guint64
bl_heap_get_total_bytes (BlHeap *self)
{
  return self->total_bytes;
}

gboolean
bl_heap_is_reachable (BlHeap  *self,
                      guint32  object)
{
  g_return_val_if_fail (self->finished && object < self->n, FALSE);
  ensure_analysed (self);

  return self->idom[object + 1] != NONE;
}

guint32
bl_heap_get_idom (BlHeap  *self,
                  guint32  object)
{
  guint32 d;

  g_return_val_if_fail (self->finished && object < self->n, NONE);
  ensure_analysed (self);

  d = self->idom[object + 1];

  return d == NONE || d == 0 ? NONE : d - 1;
}

guint64
bl_heap_get_retained (BlHeap  *self,
                      guint32  object)
{
  g_return_val_if_fail (self->finished && object < self->n, 0);
  ensure_analysed (self);

  return self->retained[object + 1];
}

guint32
bl_heap_get_n_references (BlHeap         *self,
                          guint32         object,
                          const guint32 **fields,
                          const guint32 **targets)
{
  g_return_val_if_fail (self->finished && object < self->n, 0);

  *fields = self->fields + self->first_edge[object];
  *targets = self->targets + self->first_edge[object];

  return self->first_edge[object + 1] - self->first_edge[object];
}

gboolean
bl_heap_is_leaked (BlHeap  *self,
                   guint32  object)
{
  g_return_val_if_fail (self->finished && object < self->n, FALSE);
  ensure_analysed (self);

  return self->leaked[object];
}

guint32
bl_heap_get_n_leaked (BlHeap *self)
{
  g_return_val_if_fail (self->finished, 0);
  ensure_analysed (self);

  return self->n_leaked;
}

guint64
bl_heap_get_leaked_bytes (BlHeap *self)
{
  g_return_val_if_fail (self->finished, 0);
  ensure_analysed (self);

  return self->leaked_bytes;
}

void
bl_heap_get_type_totals (BlHeap  *self,
                         guint32  type,
                         guint64 *count,
                         guint64 *self_bytes,
                         guint64 *retained_bytes)
{
  g_return_if_fail (self->finished && type < self->type_names->len);

  *count = self->type_count[type];
  *self_bytes = self->type_self[type];
  if (retained_bytes != NULL)
    {
      ensure_analysed (self);
      *retained_bytes = self->type_retained[type];
    }
}

/**
 * bl_heap_get_type_counts:
 *
 * Per type, the objects and their self bytes: known from bl_heap_finish()
 * on, without the analysis.
 */
void
bl_heap_get_type_counts (BlHeap  *self,
                         guint32  type,
                         guint64 *count,
                         guint64 *self_bytes)
{
  g_return_if_fail (self->finished && type < self->type_names->len);

  *count = self->type_count[type];
  *self_bytes = self->type_self[type];
}

const BlHeapCycle *
bl_heap_get_cycles (BlHeap *self,
                    guint  *n_cycles)
{
  *n_cycles = 0;
  g_return_val_if_fail (self->finished, NULL);
  ensure_analysed (self);

  *n_cycles = self->cycles->len;

  return (const BlHeapCycle *) self->cycles->data;
}

/**
 * bl_heap_get_n_cycles_skipped:
 *
 * Returns: how many cycles were left out of bl_heap_get_cycles() because
 *   all the cycles together had too many steps (a graph with quadratically
 *   many); 0 normally
 */
guint64
bl_heap_get_n_cycles_skipped (BlHeap *self)
{
  g_return_val_if_fail (self->finished, 0);
  ensure_analysed (self);

  return self->cycles_skipped;
}

static int
compare_retained (gconstpointer a,
                  gconstpointer b,
                  gpointer      data)
{
  BlHeap *self = data;
  guint32 oa = *(const guint32 *) a, ob = *(const guint32 *) b;
  guint64 ra = self->retained[oa + 1], rb = self->retained[ob + 1];

  if (ra != rb)
    return ra > rb ? -1 : 1;
  return oa < ob ? -1 : oa > ob;
}

/* Whether object @a comes after object @b in the listing (less retained,
 * or as much and a higher index). */
static inline gboolean
ranks_after (BlHeap  *self,
             guint32  a,
             guint32  b)
{
  guint64 ra = self->retained[a + 1], rb = self->retained[b + 1];

  return ra != rb ? ra < rb : a > b;
}

/* Moves @heap[@i] down the heap of @len objects whose top is the one that
 * ranks last. */
static void
sift_down (BlHeap  *self,
           guint32 *heap,
           guint    len,
           guint    i)
{
  guint32 v = heap[i];

  for (;;)
    {
      guint c = 2 * i + 1;

      if (c >= len)
        break;
      if (c + 1 < len && ranks_after (self, heap[c + 1], heap[c]))
        c++;
      if (!ranks_after (self, heap[c], v))
        break;
      heap[i] = heap[c];
      i = c;
    }
  heap[i] = v;
}

/**
 * bl_heap_top_retained:
 *
 * Returns: (transfer full): up to @n reachable objects, largest retained first
 */
guint32 *
bl_heap_top_retained (BlHeap *self,
                      guint   n,
                      guint  *n_out)
{
  g_autoptr (GArray) array = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 *top;
  guint len = 0;

  g_return_val_if_fail (self->finished, NULL);
  ensure_analysed (self);

  /* a heap of the best @n so far with the one ranking last on top, then
   * sorted: N log n */
  n = MIN (n, self->n);
  g_array_set_size (array, n);
  top = (guint32 *) array->data;
  for (guint32 v = 0; v < self->n && n > 0; v++)
    {
      if (self->idom[v + 1] == NONE)
        continue;
      if (len < n)
        {
          top[len++] = v;
          if (len == n)
            for (guint i = n / 2; i-- > 0; )
              sift_down (self, top, len, i);
        }
      else if (ranks_after (self, top[0], v))
        {
          top[0] = v;
          sift_down (self, top, len, 0);
        }
    }
  g_array_set_size (array, len);
  g_array_sort_with_data (array, compare_retained, self);

  *n_out = len;

  return (guint32 *) g_array_free (g_steal_pointer (&array), FALSE);
}

static gsize
array_bytes (GArray *array)
{
  return array != NULL ? (gsize) g_array_get_element_size (array) * array->len : 0;
}

void
bl_heap_get_memory (BlHeap *self,
                    gsize  *object_bytes,
                    gsize  *reference_bytes)
{
  gsize n = self->object_types->len, m, objects, references;
  gsize n_types = self->type_names->len;

  g_mutex_lock (&self->analyse_lock);

  objects = array_bytes (self->object_types) + array_bytes (self->sizes32) +
            array_bytes (self->big_sizes) + array_bytes (self->edge_start) +
            array_bytes (self->roots) + array_bytes (self->id_array);
  references = array_bytes (self->edge_field) + array_bytes (self->edge_to) +
               array_bytes (self->edge_sources);
  if (self->finished)
    {
      m = self->first_edge[self->n];
      objects += sizeof (guint32) * (n + 1) + (n / 8 + 1) + 2 * sizeof (guint64) * n_types;
      references += 2 * sizeof (guint32) * m;
    }
  if (self->idom != NULL)
    objects += sizeof (guint32) * (n + 1);
  if (self->retained != NULL)
    objects += sizeof (guint64) * (n + 1);
  if (self->leaked != NULL)
    objects += MAX (n, 1);
  if (self->type_retained != NULL)
    objects += sizeof (guint64) * n_types;
  for (guint i = 0; i < self->cycles->len; i++)
    objects += sizeof (BlHeapCycle) +
               2 * sizeof (guint32) * g_array_index (self->cycles, BlHeapCycle, i).n_steps;

  g_mutex_unlock (&self->analyse_lock);

  *object_bytes = objects;
  *reference_bytes = references;
}

void
bl_heap_get_csr (BlHeap         *self,
                 const guint32 **first_edge,
                 const guint32 **fields,
                 const guint32 **targets)
{
  g_return_if_fail (self->finished);

  *first_edge = self->first_edge;
  *fields = self->fields;
  *targets = self->targets;
}
