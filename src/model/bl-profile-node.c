/* bl-profile-node.c
 *
 * Rows for GtkTreeListModel and friends without one GObject per call-tree
 * node: an item is made only when its parent row is expanded. A CALL item is
 * one node; the merged kinds hold a set of node indexes (for CALLERS, each
 * with the leaf it started from) and sum their values once, when made.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-profile-node"

#include "config.h"

#include <string.h>

#include "bl-profile-node.h"
#include "bl-profile-private.h"

struct _BlProfileNode
{
  GObject            parent_instance;

  BlProfile         *profile;
  BlProfileNodeKind  kind;
  guint32            node;      /* CALL: the node; otherwise the heaviest of the set */
  guint32            function;
  guint32           *nodes;     /* the set (merged kinds) */
  guint32           *leaves;    /* CALLERS: the leaf each entry of nodes came from */
  guint              n_nodes;
  guint64            self[BL_N_METRICS];
  guint64            total[BL_N_METRICS];
  GListStore        *children;
};

G_DEFINE_FINAL_TYPE (BlProfileNode, bl_profile_node, G_TYPE_OBJECT)

static void
bl_profile_node_finalize (GObject *object)
{
  BlProfileNode *self = (BlProfileNode *) object;

  g_clear_object (&self->profile);
  g_clear_object (&self->children);
  g_free (self->nodes);
  g_free (self->leaves);

  G_OBJECT_CLASS (bl_profile_node_parent_class)->finalize (object);
}

static void
bl_profile_node_class_init (BlProfileNodeClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = bl_profile_node_finalize;
}

static void
bl_profile_node_init (BlProfileNode *self)
{
  self->node = BL_NODE_NONE;
}

static BlProfileNode *
node_new (BlProfile         *profile,
          BlProfileNodeKind  kind)
{
  BlProfileNode *self = g_object_new (BL_TYPE_PROFILE_NODE, NULL);

  self->profile = g_object_ref (profile);
  self->kind = kind;

  return self;
}

static guint32
heaviest (BlProfile     *profile,
          const guint32 *nodes,
          guint          n)
{
  const guint64 *totals = bl_profile_get_total_array (profile,
                                                      bl_profile_get_default_metric (profile));
  guint32 best = n > 0 ? nodes[0] : BL_NODE_NONE;
  guint64 best_value = 0;

  for (guint i = 0; i < n && totals != NULL; i++)
    {
      guint64 v = totals[nodes[i]];

      if (v > best_value)
        {
          best_value = v;
          best = nodes[i];
        }
    }

  return best;
}

/* Sums self over @values_from and total over @values_from; the caller may
 * overwrite totals that need deduplication. */
static void
sum_values (BlProfileNode *self,
            const guint32 *values_from,
            guint          n)
{
  for (guint m = 0; m < BL_N_METRICS; m++)
    {
      const guint64 *s = bl_profile_get_self_array (self->profile, m);
      const guint64 *t = bl_profile_get_total_array (self->profile, m);

      if (s == NULL || t == NULL)
        continue;
      for (guint i = 0; i < n; i++)
        {
          self->self[m] += s[values_from[i]];
          self->total[m] += t[values_from[i]];
        }
    }
}

/**
 * bl_profile_node_new_call:
 *
 * Returns: (transfer full): a row for one node of the call tree
 */
BlProfileNode *
bl_profile_node_new_call (BlProfile *profile,
                          guint32    node)
{
  BlProfileNode *self;

  g_return_val_if_fail (BL_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (bl_profile_is_finished (profile), NULL);
  g_return_val_if_fail (node < bl_profile_get_n_nodes (profile), NULL);

  /* its values are read from the profile when asked for: a metric's
   * totals are made on first use, a sweep over every node, and a table
   * shows one or two metrics of the many a profile may have */
  self = node_new (profile, BL_PROFILE_NODE_CALL);
  self->node = node;
  self->function = bl_profile_get_node_function (profile, node);

  return self;
}

/**
 * bl_profile_node_list_roots:
 *
 * Returns: (transfer full): CALL rows for the root of @thread, or of every
 *   thread
 */
GListModel *
bl_profile_node_list_roots (BlProfile *profile,
                            guint      thread)
{
  GListStore *store;

  g_return_val_if_fail (BL_IS_PROFILE (profile), NULL);

  store = g_list_store_new (BL_TYPE_PROFILE_NODE);
  for (guint t = 0; t < bl_profile_get_n_threads (profile); t++)
    if (thread == BL_PROFILE_NODE_ALL_THREADS || thread == t)
      {
        g_autoptr(BlProfileNode) item =
          bl_profile_node_new_call (profile, bl_profile_get_thread_root (profile, t));

        g_list_store_append (store, item);
      }

  return G_LIST_MODEL (store);
}

typedef struct
{
  guint32 *nodes;     /* NULL when the function has no node here */
  guint    n_nodes;
  guint64  self[BL_N_METRICS];
  guint64  total[BL_N_METRICS];
} FunctionGroup;

/* Groups the nodes of @thread (or all) by function, with self summed and
 * total summed over the nodes that have no ancestor of the same function.
 * Each group's nodes are in depth-first order. One walk of the tree notes
 * the nodes and sums the values; a counting pass then gives every group
 * its nodes in one allocation of its own. */
static FunctionGroup *
group_functions (BlProfile *profile,
                 guint      thread,
                 guint32    only_function)
{
  guint n_functions = bl_profile_get_n_functions (profile);
  guint n_all = bl_profile_get_n_nodes (profile);
  const BlNode *nodes = bl_profile_get_nodes (profile);
  const guint32 *node_function = _bl_profile_get_node_functions (profile);
  FunctionGroup *groups = g_new0 (FunctionGroup, MAX (n_functions, 1));
  guint32 *on_stack = g_new0 (guint32, MAX (n_functions, 1));
  guint32 *stack = g_new (guint32, MAX (n_all, 1));
  guint32 *visited = g_new (guint32, MAX (n_all, 1));
  gsize n_visited = 0;
  const guint64 *self_arrays[BL_N_METRICS];
  const guint64 *total_arrays[BL_N_METRICS];
  guint metrics[BL_N_METRICS], n_metrics = 0;

  for (guint m = 0; m < BL_N_METRICS; m++)
    if ((self_arrays[m] = bl_profile_get_self_array (profile, m)) != NULL)
      {
        total_arrays[m] = bl_profile_get_total_array (profile, m);
        metrics[n_metrics++] = m;
      }

  for (guint t = 0; t < bl_profile_get_n_threads (profile); t++)
    {
      guint32 n;
      gsize depth = 0;

      if (thread != BL_PROFILE_NODE_ALL_THREADS && thread != t)
        continue;

      n = bl_profile_get_thread_root (profile, t);
      while (n != BL_NODE_NONE)
        {
          guint32 f = node_function[n];

          if (only_function == G_MAXUINT32 || only_function == f)
            {
              FunctionGroup *g = &groups[f];

              visited[n_visited++] = n;
              g->n_nodes++;
              for (guint i = 0; i < n_metrics; i++)
                {
                  guint m = metrics[i];

                  g->self[m] += self_arrays[m][n];
                  if (on_stack[f] == 0)
                    g->total[m] += total_arrays[m][n];
                }
            }

          on_stack[f]++;
          stack[depth++] = n;

          if (nodes[n].first_child != BL_NODE_NONE)
            {
              n = nodes[n].first_child;
              continue;
            }

          for (;;)
            {
              guint32 done = stack[--depth];

              on_stack[node_function[done]]--;
              if (depth == 0)
                {
                  n = BL_NODE_NONE;
                  break;
                }
              if (nodes[done].next_sibling != BL_NODE_NONE)
                {
                  n = nodes[done].next_sibling;
                  break;
                }
            }
        }
    }
  g_free (on_stack);
  g_free (stack);

  /* each group's nodes, in the order the walk met them */
  for (guint f = 0; f < n_functions; f++)
    if (groups[f].n_nodes > 0)
      {
        groups[f].nodes = g_new (guint32, groups[f].n_nodes);
        groups[f].n_nodes = 0;
      }
  for (gsize i = 0; i < n_visited; i++)
    {
      FunctionGroup *g = &groups[node_function[visited[i]]];

      g->nodes[g->n_nodes++] = visited[i];
    }
  g_free (visited);

  return groups;
}

static BlProfileNode *
node_from_group (BlProfile         *profile,
                 FunctionGroup     *g,
                 guint32            function,
                 BlProfileNodeKind  kind)
{
  BlProfileNode *self = node_new (profile, kind);

  self->function = function;
  self->n_nodes = g->n_nodes;
  self->nodes = g_steal_pointer (&g->nodes);
  if (kind == BL_PROFILE_NODE_CALLERS)
    self->leaves = g_memdup2 (self->nodes, sizeof (guint32) * self->n_nodes);
  memcpy (self->self, g->self, sizeof self->self);
  memcpy (self->total, g->total, sizeof self->total);
  self->node = heaviest (profile, self->nodes, self->n_nodes);

  return self;
}

/**
 * bl_profile_node_list_functions:
 * @kind: %BL_PROFILE_NODE_FUNCTION for a flat list, %BL_PROFILE_NODE_CALLERS
 *   for the roots of a bottom-up tree
 *
 * Returns: (transfer full): one row per function that occurs in @thread
 */
GListModel *
bl_profile_node_list_functions (BlProfile         *profile,
                                guint              thread,
                                BlProfileNodeKind  kind)
{
  GListStore *store;
  FunctionGroup *groups;
  guint n_functions;

  g_return_val_if_fail (BL_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (bl_profile_is_finished (profile), NULL);

  n_functions = bl_profile_get_n_functions (profile);
  groups = group_functions (profile, thread, G_MAXUINT32);
  store = g_list_store_new (BL_TYPE_PROFILE_NODE);

  for (guint f = 0; f < n_functions; f++)
    {
      g_autoptr(BlProfileNode) item = NULL;
      guint32 first;

      if (groups[f].nodes == NULL)
        continue;
      /* thread roots are not functions anyone wrote */
      first = groups[f].nodes[0];
      if (bl_profile_get_node (profile, first)->parent == BL_NODE_NONE)
        {
          g_free (groups[f].nodes);
          continue;
        }
      item = node_from_group (profile, &groups[f], f, kind);
      g_list_store_append (store, item);
    }

  g_free (groups);

  return G_LIST_MODEL (store);
}

/**
 * bl_profile_node_new_for_function:
 *
 * Returns: (transfer full) (nullable): a row for @function in @thread, or
 *   %NULL when it does not occur there
 */
BlProfileNode *
bl_profile_node_new_for_function (BlProfile         *profile,
                                  guint              thread,
                                  guint32            function,
                                  BlProfileNodeKind  kind)
{
  FunctionGroup *groups;
  BlProfileNode *self = NULL;

  g_return_val_if_fail (BL_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (function < bl_profile_get_n_functions (profile), NULL);

  groups = group_functions (profile, thread, function);
  if (groups[function].nodes != NULL)
    self = node_from_group (profile, &groups[function], function, kind);
  g_free (groups);

  return self;
}

BlProfile *
bl_profile_node_get_profile (BlProfileNode *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_NODE (self), NULL);

  return self->profile;
}

BlProfileNodeKind
bl_profile_node_get_kind (BlProfileNode *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_NODE (self), BL_PROFILE_NODE_CALL);

  return self->kind;
}

/**
 * bl_profile_node_get_node:
 *
 * Returns: the node of a CALL row; for merged rows the heaviest node of the set
 */
guint32
bl_profile_node_get_node (BlProfileNode *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_NODE (self), BL_NODE_NONE);

  return self->node;
}

guint32
bl_profile_node_get_function (BlProfileNode *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_NODE (self), 0);

  return self->function;
}

guint
bl_profile_node_get_n_nodes (BlProfileNode *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_NODE (self), 0);

  return self->kind == BL_PROFILE_NODE_CALL ? 1 : self->n_nodes;
}

const char *
bl_profile_node_get_name (BlProfileNode *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_NODE (self), NULL);

  return bl_profile_get_node_name (self->profile, self->node);
}

const char *
bl_profile_node_get_file (BlProfileNode *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_NODE (self), NULL);

  return bl_profile_get_node_file (self->profile, self->node);
}

guint64
bl_profile_node_get_self (BlProfileNode *self,
                          BlMetricId     metric)
{
  g_return_val_if_fail (BL_IS_PROFILE_NODE (self), 0);

  if (metric < 0 || metric >= BL_N_METRICS)
    return 0;
  if (self->kind == BL_PROFILE_NODE_CALL)
    return bl_profile_has_metric (self->profile, metric)
           ? bl_profile_get_self (self->profile, metric, self->node) : 0;

  return self->self[metric];
}

guint64
bl_profile_node_get_total (BlProfileNode *self,
                           BlMetricId     metric)
{
  g_return_val_if_fail (BL_IS_PROFILE_NODE (self), 0);

  if (metric < 0 || metric >= BL_N_METRICS)
    return 0;
  if (self->kind == BL_PROFILE_NODE_CALL)
    return bl_profile_has_metric (self->profile, metric)
           ? bl_profile_get_total (self->profile, metric, self->node) : 0;

  return self->total[metric];
}

gboolean
bl_profile_node_has_children (BlProfileNode *self)
{
  const BlNode *nodes;

  g_return_val_if_fail (BL_IS_PROFILE_NODE (self), FALSE);

  nodes = bl_profile_get_nodes (self->profile);

  switch (self->kind)
    {
    case BL_PROFILE_NODE_CALL:
      return nodes[self->node].first_child != BL_NODE_NONE;
    case BL_PROFILE_NODE_FUNCTION:
      return FALSE;
    case BL_PROFILE_NODE_CALLEES:
      for (guint i = 0; i < self->n_nodes; i++)
        if (nodes[self->nodes[i]].first_child != BL_NODE_NONE)
          return TRUE;
      return FALSE;
    case BL_PROFILE_NODE_CALLERS:
      for (guint i = 0; i < self->n_nodes; i++)
        if (nodes[self->nodes[i]].parent != BL_NODE_NONE)
          return TRUE;
      return FALSE;
    default:
      g_assert_not_reached ();
    }
}

typedef struct
{
  GArray *nodes;
  GArray *leaves;
} Bucket;

static void
bucket_free (gpointer data)
{
  Bucket *b = data;

  g_clear_pointer (&b->nodes, g_array_unref);
  g_clear_pointer (&b->leaves, g_array_unref);
  g_free (b);
}

static int
compare_by_name (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  BlProfileNode *na = *(BlProfileNode **) a;
  BlProfileNode *nb = *(BlProfileNode **) b;

  return g_strcmp0 (bl_profile_node_get_name (na), bl_profile_node_get_name (nb));
}

static void
build_merged_children (BlProfileNode *self)
{
  const BlNode *nodes = bl_profile_get_nodes (self->profile);
  g_autoptr(GHashTable) buckets = g_hash_table_new_full (NULL, NULL, NULL, bucket_free);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  GHashTableIter iter;
  gpointer key, value;

  for (guint i = 0; i < self->n_nodes; i++)
    {
      if (self->kind == BL_PROFILE_NODE_CALLEES)
        {
          for (guint32 c = nodes[self->nodes[i]].first_child; c != BL_NODE_NONE;
               c = nodes[c].next_sibling)
            {
              guint32 f = bl_profile_get_node_function (self->profile, c);
              Bucket *b = g_hash_table_lookup (buckets, GUINT_TO_POINTER (f + 1));

              if (b == NULL)
                {
                  b = g_new0 (Bucket, 1);
                  b->nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
                  g_hash_table_insert (buckets, GUINT_TO_POINTER (f + 1), b);
                }
              g_array_append_val (b->nodes, c);
            }
        }
      else
        {
          guint32 p = nodes[self->nodes[i]].parent;
          guint32 f;
          Bucket *b;

          if (p == BL_NODE_NONE)
            continue;
          f = bl_profile_get_node_function (self->profile, p);
          b = g_hash_table_lookup (buckets, GUINT_TO_POINTER (f + 1));
          if (b == NULL)
            {
              b = g_new0 (Bucket, 1);
              b->nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
              b->leaves = g_array_new (FALSE, FALSE, sizeof (guint32));
              g_hash_table_insert (buckets, GUINT_TO_POINTER (f + 1), b);
            }
          g_array_append_val (b->nodes, p);
          g_array_append_val (b->leaves, self->leaves[i]);
        }
    }

  g_hash_table_iter_init (&iter, buckets);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Bucket *b = value;
      BlProfileNode *child = node_new (self->profile, self->kind);

      child->function = GPOINTER_TO_UINT (key) - 1;
      child->n_nodes = b->nodes->len;
      child->nodes = (guint32 *) (gpointer) g_array_free (g_steal_pointer (&b->nodes), FALSE);
      if (self->kind == BL_PROFILE_NODE_CALLERS)
        {
          child->leaves = (guint32 *) (gpointer) g_array_free (g_steal_pointer (&b->leaves), FALSE);
          sum_values (child, child->leaves, child->n_nodes);
        }
      else
        sum_values (child, child->nodes, child->n_nodes);
      child->node = heaviest (self->profile, child->nodes, child->n_nodes);
      g_ptr_array_add (items, child);
    }

  g_ptr_array_sort_with_data (items, compare_by_name, NULL);
  g_list_store_splice (self->children, 0, 0, items->pdata, items->len);
}

/**
 * bl_profile_node_get_children:
 *
 * Returns: (transfer none) (nullable): the child rows, made on first use,
 *   or %NULL for a row without children
 */
GListModel *
bl_profile_node_get_children (BlProfileNode *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_NODE (self), NULL);

  if (self->children != NULL)
    return G_LIST_MODEL (self->children);

  if (!bl_profile_node_has_children (self))
    return NULL;

  self->children = g_list_store_new (BL_TYPE_PROFILE_NODE);

  if (self->kind == BL_PROFILE_NODE_CALL)
    {
      const BlNode *nodes = bl_profile_get_nodes (self->profile);
      g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint32 c = nodes[self->node].first_child; c != BL_NODE_NONE; c = nodes[c].next_sibling)
        g_ptr_array_add (items, bl_profile_node_new_call (self->profile, c));
      g_list_store_splice (self->children, 0, 0, items->pdata, items->len);
    }
  else
    build_merged_children (self);

  return G_LIST_MODEL (self->children);
}
