/* bl-heap.c — heap graph analysis: reachability, dominators (Lengauer–Tarjan,
 * iterative), retained sizes, leaked objects and leak cycles
 *
 * Node 0 of the analysis is a virtual root pointing at every root; object i
 * is node i + 1. References are kept as a CSR (per object, its fields and
 * targets). Everything is flat arrays so millions of objects fit.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-heap"

#include "config.h"

#include <string.h>

#include "bl-heap.h"

#define NONE G_MAXUINT32

struct _BlHeap
{
  GPtrArray  *type_names;
  GPtrArray  *field_names;
  GHashTable *field_ids;      /* name → id + 1 */

  GArray     *object_types;   /* guint32 */
  GArray     *self_sizes;     /* guint64 */
  GArray     *edge_from;      /* guint32, while building */
  GArray     *edge_field;
  GArray     *edge_to;
  GArray     *roots;          /* guint32 */
  GArray     *object_ids;     /* guint64 per object, or NULL: the ids are the indexes */

  gboolean    finished;
  guint32     n;              /* objects */
  guint32    *first_edge;     /* n + 1 */
  guint32    *fields;         /* per edge */
  guint32    *targets;        /* per edge */
  guint32    *idom;           /* per node (n + 1), NONE if unreachable */
  guint64    *retained;       /* per node */
  guint8     *leaked;         /* per object */
  guint32     n_leaked;
  guint64     leaked_bytes;
  guint64     total_bytes;
  guint64    *type_count;
  guint64    *type_self;
  guint64    *type_retained;
  GArray     *cycles;         /* BlHeapCycle */
};

BlHeap *
bl_heap_new (void)
{
  BlHeap *self = g_new0 (BlHeap, 1);

  self->type_names = g_ptr_array_new_with_free_func (g_free);
  self->field_names = g_ptr_array_new_with_free_func (g_free);
  self->field_ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->object_types = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->self_sizes = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->edge_from = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->edge_field = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->edge_to = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->roots = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->cycles = g_array_new (FALSE, FALSE, sizeof (BlHeapCycle));
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
  g_clear_pointer (&self->self_sizes, g_array_unref);
  g_clear_pointer (&self->edge_from, g_array_unref);
  g_clear_pointer (&self->edge_field, g_array_unref);
  g_clear_pointer (&self->edge_to, g_array_unref);
  g_clear_pointer (&self->roots, g_array_unref);
  g_clear_pointer (&self->object_ids, g_array_unref);
  g_free (self->first_edge);
  g_free (self->fields);
  g_free (self->targets);
  g_free (self->idom);
  g_free (self->retained);
  g_free (self->leaked);
  g_free (self->type_count);
  g_free (self->type_self);
  g_free (self->type_retained);
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

  g_array_append_val (self->object_types, type);
  g_array_append_val (self->self_sizes, self_size);

  return self->object_types->len - 1;
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

  g_array_append_val (self->edge_from, from);
  g_array_append_val (self->edge_field, field);
  g_array_append_val (self->edge_to, to);
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

  if (self->object_ids == NULL)
    self->object_ids = g_array_new (FALSE, TRUE, sizeof (guint64));
  if (self->object_ids->len <= object)
    {
      guint32 old = self->object_ids->len;

      g_array_set_size (self->object_ids, self->object_types->len);
      /* objects without an id of their own keep their index */
      for (guint32 i = old; i < self->object_ids->len; i++)
        g_array_index (self->object_ids, guint64, i) = i;
    }
  g_array_index (self->object_ids, guint64, object) = id;
}

guint64
bl_heap_get_object_id (BlHeap  *self,
                       guint32  object)
{
  if (self->object_ids == NULL || object >= self->object_ids->len)
    return object;

  return g_array_index (self->object_ids, guint64, object);
}

/* ---- CSR ---- */

static void
build_csr (BlHeap *self)
{
  guint32 n = self->n;
  guint32 m = self->edge_from->len;
  const guint32 *from = (const guint32 *) self->edge_from->data;
  g_autofree guint32 *fill = NULL;

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

  g_clear_pointer (&self->edge_from, g_array_unref);
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

/* ---- dominators: Lengauer–Tarjan with path compression, iterative ---- */

static guint32
eval (guint32 *ancestor,
      guint32 *label,
      guint32 *semi,
      guint32  v,
      guint32 *path)
{
  guint32 u, n = 0;

  if (ancestor[v] == NONE)
    return v;

  /* collect the path up to the node below the forest root, then compress
   * it from the top down (path has room for every node) */
  u = v;
  while (ancestor[ancestor[u]] != NONE)
    {
      path[n++] = u;
      u = ancestor[u];
    }
  while (n > 0)
    {
      guint32 w = path[--n];

      if (semi[label[ancestor[w]]] < semi[label[w]])
        label[w] = label[ancestor[w]];
      ancestor[w] = ancestor[ancestor[w]];
    }

  return label[v];
}

static void
compute_dominators (BlHeap *self)
{
  guint32 N = self->n + 1;
  guint32 *dfnum = g_new (guint32, N);
  guint32 *vertex = g_new (guint32, N);
  guint32 *parent = g_new (guint32, N);
  guint32 *semi = g_new (guint32, N);
  guint32 *ancestor = g_new (guint32, N);
  guint32 *label = g_new (guint32, N);
  guint32 *bucket_head = g_new (guint32, N);
  guint32 *bucket_next = g_new (guint32, N);
  guint32 *pred_first = g_new0 (guint32, (gsize) N + 1);
  guint32 *preds;
  guint32 *edge_pos = g_new (guint32, N);
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree guint32 *path = g_new (guint32, N);
  guint32 count = 0;
  guint64 n_pred = 0;

  self->idom = g_new (guint32, N);
  for (guint32 v = 0; v < N; v++)
    {
      dfnum[v] = NONE;
      self->idom[v] = NONE;
      ancestor[v] = NONE;
      label[v] = v;
      bucket_head[v] = NONE;
    }

  /* iterative depth-first search from the virtual root */
  dfnum[0] = count;
  vertex[count++] = 0;
  parent[0] = NONE;
  edge_pos[0] = 0;
  g_array_append_val (stack, (guint32) { 0 });
  while (stack->len > 0)
    {
      guint32 v = g_array_index (stack, guint32, stack->len - 1);
      const guint32 *succ;
      guint32 n_succ;

      node_successors (self, v, &succ, &n_succ);
      if (edge_pos[v] < n_succ)
        {
          guint32 w = succ[edge_pos[v]++] + 1;

          if (dfnum[w] == NONE)
            {
              dfnum[w] = count;
              vertex[count++] = w;
              parent[w] = v;
              edge_pos[w] = 0;
              g_array_append_val (stack, w);
            }
        }
      else
        g_array_set_size (stack, stack->len - 1);
    }

  /* predecessors among reached nodes */
  for (guint32 v = 0; v < N; v++)
    {
      const guint32 *succ;
      guint32 n_succ;

      if (dfnum[v] == NONE)
        continue;
      node_successors (self, v, &succ, &n_succ);
      for (guint32 k = 0; k < n_succ; k++)
        pred_first[succ[k] + 1 + 1]++;
    }
  for (guint32 v = 0; v < N; v++)
    pred_first[v + 1] += pred_first[v];
  n_pred = pred_first[N];
  preds = g_new (guint32, MAX (n_pred, 1));
  memcpy (edge_pos, pred_first, sizeof (guint32) * N);
  for (guint32 v = 0; v < N; v++)
    {
      const guint32 *succ;
      guint32 n_succ;

      if (dfnum[v] == NONE)
        continue;
      node_successors (self, v, &succ, &n_succ);
      for (guint32 k = 0; k < n_succ; k++)
        preds[edge_pos[succ[k] + 1]++] = v;
    }

  for (guint32 v = 0; v < N; v++)
    semi[v] = dfnum[v];

  for (guint32 i = count - 1; i >= 1; i--)
    {
      guint32 w = vertex[i];
      guint32 p = parent[w];

      for (guint32 k = pred_first[w]; k < pred_first[w + 1]; k++)
        {
          guint32 u = eval (ancestor, label, semi, preds[k], path);

          if (semi[u] < semi[w])
            semi[w] = semi[u];
        }
      bucket_next[w] = bucket_head[vertex[semi[w]]];
      bucket_head[vertex[semi[w]]] = w;
      ancestor[w] = p;

      for (guint32 v = bucket_head[p]; v != NONE; v = bucket_next[v])
        {
          guint32 u = eval (ancestor, label, semi, v, path);

          self->idom[v] = semi[u] < semi[v] ? u : p;
        }
      bucket_head[p] = NONE;
    }
  for (guint32 i = 1; i < count; i++)
    {
      guint32 w = vertex[i];

      if (self->idom[w] != vertex[semi[w]])
        self->idom[w] = self->idom[self->idom[w]];
    }

  /* retained sizes: children before their dominator (reverse preorder) */
  self->retained = g_new0 (guint64, N);
  for (guint32 i = count - 1; i >= 1; i--)
    {
      guint32 w = vertex[i];

      self->retained[w] += g_array_index (self->self_sizes, guint64, w - 1);
      self->retained[self->idom[w]] += self->retained[w];
    }

  /* per type: an object's retained bytes count unless an object of the same
   * type dominates it (walk the dominator tree keeping per-type depths) */
  {
    guint32 n_types = self->type_names->len;
    guint32 *dom_first = g_new0 (guint32, (gsize) N + 1);
    guint32 *dom_child = g_new (guint32, MAX (count, 1));
    guint32 *active = g_new0 (guint32, MAX (n_types, 1));
    guint32 *fill;

    self->type_retained = g_new0 (guint64, MAX (n_types, 1));
    for (guint32 i = 1; i < count; i++)
      dom_first[self->idom[vertex[i]] + 1]++;
    for (guint32 v = 0; v < N; v++)
      dom_first[v + 1] += dom_first[v];
    fill = g_memdup2 (dom_first, sizeof (guint32) * N);
    for (guint32 i = 1; i < count; i++)
      dom_child[fill[self->idom[vertex[i]]]++] = vertex[i];
    g_free (fill);

    g_array_set_size (stack, 0);
    memcpy (edge_pos, dom_first, sizeof (guint32) * N);
    g_array_append_val (stack, (guint32) { 0 });
    while (stack->len > 0)
      {
        guint32 v = g_array_index (stack, guint32, stack->len - 1);

        if (edge_pos[v] < dom_first[v + 1])
          {
            guint32 w = dom_child[edge_pos[v]++];
            guint32 type = g_array_index (self->object_types, guint32, w - 1);

            if (active[type]++ == 0)
              self->type_retained[type] += self->retained[w];
            g_array_append_val (stack, w);
          }
        else
          {
            if (v != 0)
              active[g_array_index (self->object_types, guint32, v - 1)]--;
            g_array_set_size (stack, stack->len - 1);
          }
      }
    g_free (dom_first);
    g_free (dom_child);
    g_free (active);
  }

  g_free (dfnum);
  g_free (vertex);
  g_free (parent);
  g_free (semi);
  g_free (ancestor);
  g_free (label);
  g_free (bucket_head);
  g_free (bucket_next);
  g_free (pred_first);
  g_free (preds);
  g_free (edge_pos);
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

/* Marks what the roots reach without $unreachable references (live), then
 * what the $unreachable targets reach that is not live (leaked). */
static void
compute_leaks (BlHeap  *self,
               guint8  *is_unreachable_field)
{
  guint32 n = self->n;
  g_autofree guint8 *live = g_new0 (guint8, MAX (n, 1));
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));

  self->leaked = g_new0 (guint8, MAX (n, 1));

  for (guint i = 0; i < self->roots->len; i++)
    {
      guint32 r = g_array_index (self->roots, guint32, i);

      if (!live[r])
        {
          live[r] = 1;
          g_array_append_val (stack, r);
        }
    }
  while (stack->len > 0)
    {
      guint32 v = g_array_index (stack, guint32, stack->len - 1);

      g_array_set_size (stack, stack->len - 1);
      for (guint32 e = self->first_edge[v]; e < self->first_edge[v + 1]; e++)
        {
          guint32 w = self->targets[e];

          if (is_unreachable_field[self->fields[e]] || live[w])
            continue;
          live[w] = 1;
          g_array_append_val (stack, w);
        }
    }

  for (guint32 v = 0; v < n; v++)
    for (guint32 e = self->first_edge[v]; e < self->first_edge[v + 1]; e++)
      {
        guint32 w = self->targets[e];

        if (!is_unreachable_field[self->fields[e]] || live[w] || self->leaked[w])
          continue;
        self->leaked[w] = 1;
        g_array_append_val (stack, w);
        while (stack->len > 0)
          {
            guint32 x = g_array_index (stack, guint32, stack->len - 1);

            g_array_set_size (stack, stack->len - 1);
            for (guint32 f = self->first_edge[x]; f < self->first_edge[x + 1]; f++)
              {
                guint32 y = self->targets[f];

                if (live[y] || self->leaked[y])
                  continue;
                self->leaked[y] = 1;
                g_array_append_val (stack, y);
              }
          }
      }

  for (guint32 v = 0; v < n; v++)
    if (self->leaked[v])
      {
        self->n_leaked++;
        self->leaked_bytes += g_array_index (self->self_sizes, guint64, v);
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
 * references); each back edge closes a cycle of (type, field) steps. */
static void
compute_cycles (BlHeap *self,
                guint8 *is_unreachable_field)
{
  guint32 n = self->n;
  g_autofree guint8 *state = g_new0 (guint8, MAX (n, 1));   /* 0 new, 1 on stack, 2 done */
  g_autofree guint32 *edge_pos = g_new (guint32, MAX (n, 1));
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr (GArray) via = g_array_new (FALSE, FALSE, sizeof (guint32));  /* field taken from stack[i] */
  g_autofree guint32 *stack_index = g_new (guint32, MAX (n, 1));
  g_autoptr (GArray) raw = g_array_new (FALSE, FALSE, sizeof (Step));     /* all cycles' steps */
  g_autoptr (GArray) bounds = g_array_new (FALSE, FALSE, sizeof (guint32) * 2);
  g_autoptr (GArray) examples = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr (GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GArray) sorted = NULL;
  guint32 global_field = NONE;

  for (guint32 f = 0; f < self->field_names->len; f++)
    if (field_is (g_ptr_array_index (self->field_names, f), "$m.global"))
      global_field = f;

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

          if (edge_pos[v] < self->first_edge[v + 1])
            {
              guint32 e = edge_pos[v]++;
              guint32 w = self->targets[e];

              if (!self->leaked[w] || is_unreachable_field[self->fields[e]])
                continue;
              g_array_index (via, guint32, stack->len - 1) = self->fields[e];
              if (state[w] == 1)
                {
                  guint32 bound[2] = { raw->len, 0 };

                  for (guint32 i = stack_index[w]; i < stack->len; i++)
                    {
                      Step step = { g_array_index (self->object_types, guint32,
                                                   g_array_index (stack, guint32, i)),
                                    g_array_index (via, guint32, i) };

                      g_array_append_val (raw, step);
                    }
                  bound[1] = raw->len;
                  g_array_append_vals (bounds, bound, 1);
                  g_array_append_val (examples, w);
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

  if (bounds->len == 0)
    return;

  /* rank the distinct steps by name, so rotations compare by name */
  sorted = g_array_sized_new (FALSE, FALSE, sizeof (Step), raw->len);
  g_array_append_vals (sorted, raw->data, raw->len);
  g_array_sort_with_data (sorted, compare_steps, self);

  for (guint32 c = 0; c < bounds->len; c++)
    {
      const guint32 *bound = (const guint32 *) (bounds->data + c * sizeof (guint32) * 2);
      guint32 len = bound[1] - bound[0];
      Step *steps = &g_array_index (raw, Step, bound[0]);
      g_autofree guint32 *ranks = g_new (guint32, len);
      g_autoptr (GString) key = g_string_new (NULL);
      guint32 first;
      gpointer found;

      /* rank of a step: its position among the distinct sorted steps */
      for (guint32 i = 0; i < len; i++)
        {
          guint lo = 0, hi = sorted->len;

          while (lo < hi)
            {
              guint mid = (lo + hi) / 2;

              if (compare_steps (&g_array_index (sorted, Step, mid), &steps[i], self) < 0)
                lo = mid + 1;
              else
                hi = mid;
            }
          ranks[i] = lo;
        }
      first = least_rotation (ranks, len);
      for (guint32 i = 0; i < len; i++)
        g_string_append_printf (key, "%u,", ranks[(first + i) % len]);

      found = g_hash_table_lookup (groups, key->str);
      if (found != NULL)
        {
          g_array_index (self->cycles, BlHeapCycle, GPOINTER_TO_UINT (found) - 1).count++;
        }
      else
        {
          BlHeapCycle cycle = { 0 };

          cycle.n_steps = len;
          cycle.types = g_new (guint32, len);
          cycle.fields = g_new (guint32, len);
          for (guint32 i = 0; i < len; i++)
            {
              const Step *s = &steps[(first + i) % len];

              cycle.types[i] = s->type;
              cycle.fields[i] = s->field;
              if (s->field == global_field)
                cycle.through_global = TRUE;
            }
          cycle.count = 1;
          cycle.example = g_array_index (examples, guint32, c);
          g_array_append_val (self->cycles, cycle);
          g_hash_table_insert (groups, g_strdup (key->str),
                               GUINT_TO_POINTER (self->cycles->len));
        }
    }

  g_array_sort_with_data (self->cycles, compare_cycles, self);
}

void
bl_heap_finish (BlHeap *self)
{
  g_autofree guint8 *is_unreachable_field = NULL;
  guint32 n_types;

  g_return_if_fail (!self->finished);

  self->n = self->object_types->len;
  build_csr (self);
  compute_dominators (self);

  is_unreachable_field = g_new0 (guint8, self->field_names->len);
  for (guint32 f = 0; f < self->field_names->len; f++)
    is_unreachable_field[f] = field_is (g_ptr_array_index (self->field_names, f), "$unreachable");
  compute_leaks (self, is_unreachable_field);
  compute_cycles (self, is_unreachable_field);

  n_types = self->type_names->len;
  self->type_count = g_new0 (guint64, MAX (n_types, 1));
  self->type_self = g_new0 (guint64, MAX (n_types, 1));
  for (guint32 v = 0; v < self->n; v++)
    {
      guint32 type = g_array_index (self->object_types, guint32, v);
      guint64 size = g_array_index (self->self_sizes, guint64, v);

      self->type_count[type]++;
      self->type_self[type] += size;
      self->total_bytes += size;
    }

  self->finished = TRUE;
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
  g_return_val_if_fail (object < self->self_sizes->len, 0);

  return g_array_index (self->self_sizes, guint64, object);
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

  return self->idom[object + 1] != NONE;
}

guint32
bl_heap_get_idom (BlHeap  *self,
                  guint32  object)
{
  guint32 d;

  g_return_val_if_fail (self->finished && object < self->n, NONE);

  d = self->idom[object + 1];

  return d == NONE || d == 0 ? NONE : d - 1;
}

guint64
bl_heap_get_retained (BlHeap  *self,
                      guint32  object)
{
  g_return_val_if_fail (self->finished && object < self->n, 0);

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

  return self->leaked[object];
}

guint32
bl_heap_get_n_leaked (BlHeap *self)
{
  return self->n_leaked;
}

guint64
bl_heap_get_leaked_bytes (BlHeap *self)
{
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
  *retained_bytes = self->type_retained[type];
}

const BlHeapCycle *
bl_heap_get_cycles (BlHeap *self,
                    guint  *n_cycles)
{
  *n_cycles = self->cycles->len;

  return (const BlHeapCycle *) self->cycles->data;
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
  g_autoptr (GArray) top = g_array_new (FALSE, FALSE, sizeof (guint32));

  g_return_val_if_fail (self->finished, NULL);

  /* keep a sorted window of at most n: fine for the small n a listing wants */
  for (guint32 v = 0; v < self->n; v++)
    {
      if (self->idom[v + 1] == NONE)
        continue;
      if (top->len == n && n > 0 &&
          compare_retained (&v, &g_array_index (top, guint32, n - 1), self) > 0)
        continue;
      if (n == 0)
        break;
      if (top->len == n)
        g_array_set_size (top, n - 1);
      g_array_append_val (top, v);
      for (guint i = top->len - 1; i > 0 &&
           compare_retained (&g_array_index (top, guint32, i),
                             &g_array_index (top, guint32, i - 1), self) < 0; i--)
        {
          guint32 t = g_array_index (top, guint32, i);

          g_array_index (top, guint32, i) = g_array_index (top, guint32, i - 1);
          g_array_index (top, guint32, i - 1) = t;
        }
    }

  *n_out = top->len;

  return (guint32 *) g_array_free (g_steal_pointer (&top), FALSE);
}
