/* bl-diff.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-diff"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "bl-diff.h"

/* An open-addressing table from a 64-bit key to an index: (parent, name) →
 * merged node, (name, file) → merged function. */
typedef struct
{
  guint64 *keys;
  guint32 *values;   /* index + 1; 0 marks an empty slot */
  gsize    mask;
  gsize    used;
} KeyHash;

struct _BlDiff
{
  GObject         parent_instance;

  BlProfile      *profiles[2];
  BlSession      *sessions[2];
  double          figures[2][BL_N_DIFF_FIGURES];

  /* strings */
  GStringChunk   *chunk;
  GHashTable     *string_ids;   /* const char * → id + 1 */
  GPtrArray      *strings;      /* id → const char * (in chunk) */

  /* merged tree */
  BlDiffNode     *nodes;
  gsize           n_nodes;
  gsize           nodes_cap;
  GArray         *roots;        /* guint32, sorted by name */
  guint32        *from_profile[2];  /* profile node → merged node */
  guint32        *to_profile[2];    /* merged node → profile node or BL_NODE_NONE */

  gboolean        has_metric[2][BL_N_METRICS];
  /* per-node values of a metric: made on first use (a million merged nodes
   * with nine metrics would otherwise take 290 MB), under the mutex, then
   * published by ready[m] */
  GMutex          values_lock;
  int             ready[BL_N_METRICS];
  guint64        *self[2][BL_N_METRICS];
  guint64        *total[2][BL_N_METRICS];
  guint64         grand_total[2][BL_N_METRICS];

  /* the automatic noise threshold of each metric, made on first use under
   * the mutex; NAN until then */
  double          auto_threshold[BL_N_METRICS];

  /* functions */
  BlDiffFunction *functions;
  gsize           n_functions;
  guint64        *function_self[2][BL_N_METRICS];
  guint64        *function_total[2][BL_N_METRICS];
};

G_DEFINE_FINAL_TYPE (BlDiff, bl_diff, G_TYPE_OBJECT)
G_DEFINE_QUARK (bl-diff-error-quark, bl_diff_error)

static const BlDiffFigureInfo figure_info[BL_N_DIFF_FIGURES] = {
  { BL_DIFF_FIGURE_PEAK_MEMORY, "peak_memory", N_("Peak memory"),
    BL_SERIES_MEMORY_USED, FALSE },
  { BL_DIFF_FIGURE_MEAN_MEMORY, "mean_memory", N_("Mean memory"),
    BL_SERIES_MEMORY_USED, FALSE },
  { BL_DIFF_FIGURE_MEAN_CPU, "mean_cpu", N_("Mean CPU"),
    BL_SERIES_CPU_TOTAL, FALSE },
  { BL_DIFF_FIGURE_MEAN_FPS, "mean_fps", N_("Mean frame rate"),
    BL_SERIES_FPS, TRUE },
  { BL_DIFF_FIGURE_MIN_FPS, "min_fps", N_("Lowest frame rate"),
    BL_SERIES_FPS, TRUE },
  { BL_DIFF_FIGURE_LAUNCH_TIME, "launch_time", N_("Launch time"),
    BL_SERIES_RENDEZVOUS_TOTAL_TIME, FALSE },
  { BL_DIFF_FIGURE_NODE_COUNT, "node_count", N_("Peak node count"),
    BL_SERIES_NODES_TOTAL, FALSE },
  { BL_DIFF_FIGURE_RENDEZVOUS_COUNT, "rendezvous_count", N_("Rendezvous"),
    BL_SERIES_RENDEZVOUS_COUNT, FALSE },
  { BL_DIFF_FIGURE_MEMORY_GROWTH, "memory_growth", N_("Memory growth per minute"),
    BL_SERIES_MEMORY_USED, FALSE },
};

/* ---- key hash ----------------------------------------------------------- */

static void
key_hash_init (KeyHash *hash)
{
  hash->mask = 1023;
  hash->used = 0;
  hash->keys = g_new (guint64, hash->mask + 1);
  hash->values = g_new0 (guint32, hash->mask + 1);
}

static void
key_hash_clear (KeyHash *hash)
{
  g_clear_pointer (&hash->keys, g_free);
  g_clear_pointer (&hash->values, g_free);
}

static inline gsize
key_hash_slot (guint64 key)
{
  key ^= key >> 33;
  key *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  key ^= key >> 33;

  return (gsize) key;
}

static gsize
key_hash_find (KeyHash *hash,
               guint64  key)
{
  gsize i = key_hash_slot (key) & hash->mask;

  while (hash->values[i] != 0 && hash->keys[i] != key)
    i = (i + 1) & hash->mask;

  return i;
}

static void
key_hash_grow (KeyHash *hash)
{
  guint64 *old_keys = hash->keys;
  guint32 *old_values = hash->values;
  gsize old_size = hash->mask + 1;

  hash->mask = old_size * 2 - 1;
  hash->keys = g_new (guint64, hash->mask + 1);
  hash->values = g_new0 (guint32, hash->mask + 1);

  for (gsize i = 0; i < old_size; i++)
    if (old_values[i] != 0)
      {
        gsize slot = key_hash_find (hash, old_keys[i]);

        hash->keys[slot] = old_keys[i];
        hash->values[slot] = old_values[i];
      }

  g_free (old_keys);
  g_free (old_values);
}

/* Returns the index stored for @key, or stores @value and returns it. */
static guint32
key_hash_lookup_or_insert (KeyHash *hash,
                           guint64  key,
                           guint32  value,
                           gboolean *inserted)
{
  gsize slot = key_hash_find (hash, key);

  if (hash->values[slot] != 0)
    {
      *inserted = FALSE;
      return hash->values[slot] - 1;
    }

  hash->keys[slot] = key;
  hash->values[slot] = value + 1;
  hash->used++;
  *inserted = TRUE;

  if (hash->used * 2 > hash->mask)
    key_hash_grow (hash);

  return value;
}

/* ---- strings and nodes -------------------------------------------------- */

static guint32
intern (BlDiff     *self,
        const char *str)
{
  gpointer id = g_hash_table_lookup (self->string_ids, str);
  const char *stored;

  if (id != NULL)
    return GPOINTER_TO_UINT (id) - 1;

  stored = g_string_chunk_insert (self->chunk, str);
  g_ptr_array_add (self->strings, (gpointer) stored);
  g_hash_table_insert (self->string_ids, (gpointer) stored,
                       GUINT_TO_POINTER (self->strings->len));

  return self->strings->len - 1;
}

static guint32
append_node (BlDiff  *self,
             guint32  parent,
             guint32  name)
{
  BlDiffNode *node;

  if (self->n_nodes == self->nodes_cap)
    {
      self->nodes_cap = MAX (self->nodes_cap * 2, 256);
      self->nodes = g_renew (BlDiffNode, self->nodes, self->nodes_cap);
    }

  node = &self->nodes[self->n_nodes];
  node->parent = parent;
  node->first_child = BL_NODE_NONE;
  node->next_sibling = BL_NODE_NONE;
  node->name = name;
  node->depth = parent == BL_NODE_NONE ? 0 : self->nodes[parent].depth + 1;
  node->presence = 0;

  return self->n_nodes++;
}

/* Maps every node of one profile onto the merged tree, creating merged
 * nodes where needed. Walks each thread depth first, so a parent is mapped
 * before its children. */
static void
merge_tree (BlDiff     *self,
            BlDiffSide  side,
            KeyHash    *hash)
{
  BlProfile *profile = self->profiles[side];
  const BlNode *pnodes = bl_profile_get_nodes (profile);
  guint n_pnodes = bl_profile_get_n_nodes (profile);
  guint n_strings = bl_profile_get_n_strings (profile);
  g_autofree guint32 *string_map = g_new (guint32, MAX (n_strings, 1));
  guint32 *map = g_new (guint32, MAX (n_pnodes, 1));

  for (guint i = 0; i < n_strings; i++)
    string_map[i] = BL_NODE_NONE;
  for (guint i = 0; i < n_pnodes; i++)
    map[i] = BL_NODE_NONE;
  self->from_profile[side] = map;

  for (guint t = 0; t < bl_profile_get_n_threads (profile); t++)
    {
      guint32 root = bl_profile_get_thread_root (profile, t);
      guint32 n = root;

      while (n != BL_NODE_NONE)
        {
          const BlNode *pn = &pnodes[n];
          guint32 parent = pn->parent == BL_NODE_NONE || n == root
            ? BL_NODE_NONE
            : map[pn->parent];
          guint32 name;
          guint32 merged;
          gboolean inserted;

          if (string_map[pn->name] == BL_NODE_NONE)
            string_map[pn->name] = intern (self, bl_profile_get_string (profile, pn->name));
          name = string_map[pn->name];

          merged = key_hash_lookup_or_insert (hash, ((guint64) parent << 32) | name,
                                              (guint32) self->n_nodes, &inserted);
          if (inserted)
            append_node (self, parent, name);
          self->nodes[merged].presence |= side == BL_DIFF_SIDE_A ? BL_DIFF_IN_A : BL_DIFF_IN_B;
          map[n] = merged;

          /* next node in depth-first order */
          if (pn->first_child != BL_NODE_NONE)
            {
              n = pn->first_child;
              continue;
            }
          while (n != root && pnodes[n].next_sibling == BL_NODE_NONE)
            n = pnodes[n].parent;
          n = n == root ? BL_NODE_NONE : pnodes[n].next_sibling;
        }
    }
}

static int
compare_by_parent_and_name (gconstpointer a,
                            gconstpointer b,
                            gpointer      user_data)
{
  BlDiff *self = user_data;
  const BlDiffNode *na = &self->nodes[*(const guint32 *) a];
  const BlDiffNode *nb = &self->nodes[*(const guint32 *) b];

  if (na->parent != nb->parent)
    return na->parent < nb->parent ? -1 : 1;

  return strcmp (self->strings->pdata[na->name], self->strings->pdata[nb->name]);
}

/* Links children in name order, and the roots too. */
static void
link_children (BlDiff *self)
{
  g_autofree guint32 *order = g_new (guint32, MAX (self->n_nodes, 1));

  for (gsize i = 0; i < self->n_nodes; i++)
    order[i] = (guint32) i;

  g_qsort_with_data (order, (gint) self->n_nodes, sizeof (guint32),
                     compare_by_parent_and_name, self);

  /* roots (parent BL_NODE_NONE) sort last */
  for (gsize i = 0; i < self->n_nodes; i++)
    {
      guint32 n = order[i];
      guint32 parent = self->nodes[n].parent;
      gboolean last_of_parent = i + 1 == self->n_nodes ||
                                self->nodes[order[i + 1]].parent != parent;

      if (parent == BL_NODE_NONE)
        g_array_append_val (self->roots, n);
      else if (i == 0 || self->nodes[order[i - 1]].parent != parent)
        self->nodes[parent].first_child = n;

      if (parent != BL_NODE_NONE && !last_of_parent)
        self->nodes[n].next_sibling = order[i + 1];
    }
}

static void
sum_values (BlDiff     *self,
            BlDiffSide  side)
{
  BlProfile *profile = self->profiles[side];
  guint n_pnodes = bl_profile_get_n_nodes (profile);
  const guint32 *map = self->from_profile[side];
  BlMetricId best_metric = bl_profile_get_default_metric (profile);
  const guint64 *best = best_metric != BL_METRIC_INVALID
    ? bl_profile_get_total_array (profile, best_metric)
    : NULL;
  guint32 *to = g_new (guint32, MAX (self->n_nodes, 1));

  for (gsize i = 0; i < self->n_nodes; i++)
    to[i] = BL_NODE_NONE;
  self->to_profile[side] = to;

  for (guint32 i = 0; i < n_pnodes; i++)
    {
      guint32 m = map[i];

      if (m == BL_NODE_NONE)
        continue;
      if (to[m] == BL_NODE_NONE || (best != NULL && best[i] > best[to[m]]))
        to[m] = i;
    }

  for (guint m = 0; m < BL_N_METRICS; m++)
    if (self->has_metric[side][m])
      self->grand_total[side][m] = bl_profile_get_grand_total (profile, m);
}

/* Sums one side's self and total values of @metric onto the merged nodes. */
static void
sum_metric (BlDiff     *self,
            BlDiffSide  side,
            BlMetricId  metric)
{
  BlProfile *profile = self->profiles[side];
  guint n_pnodes = bl_profile_get_n_nodes (profile);
  const guint32 *map = self->from_profile[side];
  guint64 *sums_self = g_new0 (guint64, MAX (self->n_nodes, 1));
  guint64 *sums_total = g_new0 (guint64, MAX (self->n_nodes, 1));

  if (self->has_metric[side][metric])
    {
      const guint64 *pself = bl_profile_get_self_array (profile, metric);
      const guint64 *ptotal = bl_profile_get_total_array (profile, metric);

      for (guint32 i = 0; i < n_pnodes; i++)
        {
          if (map[i] == BL_NODE_NONE)
            continue;
          sums_self[map[i]] = bl_saturating_add (sums_self[map[i]], pself[i]);
          sums_total[map[i]] = bl_saturating_add (sums_total[map[i]], ptotal[i]);
        }
    }

  self->self[side][metric] = sums_self;
  self->total[side][metric] = sums_total;
}

/* Whether the per-node values of @metric exist (making them if needed). */
static gboolean
ensure_metric (BlDiff     *self,
               BlMetricId  metric)
{
  if (metric < 0 || metric >= BL_N_METRICS || self->profiles[BL_DIFF_SIDE_A] == NULL ||
      (!self->has_metric[BL_DIFF_SIDE_A][metric] && !self->has_metric[BL_DIFF_SIDE_B][metric]))
    return FALSE;

  if (g_atomic_int_get (&self->ready[metric]))
    return TRUE;

  g_mutex_lock (&self->values_lock);
  if (!self->ready[metric])
    {
      sum_metric (self, BL_DIFF_SIDE_A, metric);
      sum_metric (self, BL_DIFF_SIDE_B, metric);
      g_atomic_int_set (&self->ready[metric], 1);
    }
  g_mutex_unlock (&self->values_lock);

  return TRUE;
}

static int
compare_functions (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data)
{
  BlDiff *self = user_data;
  const BlDiffFunction *fa = a;
  const BlDiffFunction *fb = b;
  int ret;

  ret = strcmp (self->strings->pdata[fa->name], self->strings->pdata[fb->name]);
  if (ret == 0)
    ret = strcmp (self->strings->pdata[fa->file], self->strings->pdata[fb->file]);

  return ret;
}

static void
merge_functions (BlDiff *self)
{
  KeyHash hash;
  gsize cap = 256;

  key_hash_init (&hash);
  self->functions = g_new (BlDiffFunction, cap);

  for (guint side = 0; side < 2; side++)
    {
      BlProfile *profile = self->profiles[side];
      guint n_functions = bl_profile_get_n_functions (profile);
      g_autofree gboolean *is_thread = g_new0 (gboolean, MAX (n_functions, 1));

      for (guint t = 0; t < bl_profile_get_n_threads (profile); t++)
        is_thread[bl_profile_get_node_function (profile,
                                                bl_profile_get_thread_root (profile, t))] = TRUE;

      for (guint32 f = 0; f < n_functions; f++)
        {
          const BlFunction *pf = bl_profile_get_function (profile, f);
          guint32 name, file, index;
          gboolean inserted;

          if (is_thread[f])
            continue;

          name = intern (self, bl_profile_get_string (profile, pf->name));
          file = intern (self, bl_profile_get_string (profile, pf->file));
          index = key_hash_lookup_or_insert (&hash, ((guint64) name << 32) | file,
                                             (guint32) self->n_functions, &inserted);
          if (inserted)
            {
              if (self->n_functions == cap)
                {
                  cap *= 2;
                  self->functions = g_renew (BlDiffFunction, self->functions, cap);
                }
              self->functions[index].name = name;
              self->functions[index].file = file;
              self->functions[index].presence = 0;
              self->functions[index].function[0] = BL_NODE_NONE;
              self->functions[index].function[1] = BL_NODE_NONE;
              self->n_functions++;
            }
          self->functions[index].presence |= side == BL_DIFF_SIDE_A ? BL_DIFF_IN_A : BL_DIFF_IN_B;
          self->functions[index].function[side] = f;
        }
    }

  key_hash_clear (&hash);

  g_qsort_with_data (self->functions, (gint) self->n_functions, sizeof (BlDiffFunction),
                     compare_functions, self);

  for (guint side = 0; side < 2; side++)
    for (guint m = 0; m < BL_N_METRICS; m++)
      {
        if (!self->has_metric[BL_DIFF_SIDE_A][m] && !self->has_metric[BL_DIFF_SIDE_B][m])
          continue;

        self->function_self[side][m] = g_new0 (guint64, MAX (self->n_functions, 1));
        self->function_total[side][m] = g_new0 (guint64, MAX (self->n_functions, 1));
        if (!self->has_metric[side][m])
          continue;

        for (gsize i = 0; i < self->n_functions; i++)
          {
            guint32 f = self->functions[i].function[side];

            if (f == BL_NODE_NONE)
              continue;
            self->function_self[side][m][i] =
              bl_profile_get_function_self (self->profiles[side], m, f);
            self->function_total[side][m][i] =
              bl_profile_get_function_total (self->profiles[side], m, f);
          }
      }
}

/* ---- GObject ------------------------------------------------------------ */

static void
bl_diff_finalize (GObject *object)
{
  BlDiff *self = BL_DIFF (object);

  for (guint side = 0; side < 2; side++)
    {
      g_clear_object (&self->profiles[side]);
      g_clear_object (&self->sessions[side]);
      g_free (self->from_profile[side]);
      g_free (self->to_profile[side]);
      for (guint m = 0; m < BL_N_METRICS; m++)
        {
          g_free (self->self[side][m]);
          g_free (self->total[side][m]);
          g_free (self->function_self[side][m]);
          g_free (self->function_total[side][m]);
        }
    }

  g_free (self->nodes);
  g_free (self->functions);
  g_clear_pointer (&self->roots, g_array_unref);
  g_clear_pointer (&self->string_ids, g_hash_table_unref);
  g_clear_pointer (&self->strings, g_ptr_array_unref);
  g_clear_pointer (&self->chunk, g_string_chunk_free);
  g_mutex_clear (&self->values_lock);

  G_OBJECT_CLASS (bl_diff_parent_class)->finalize (object);
}

static void
bl_diff_class_init (BlDiffClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = bl_diff_finalize;
}

static void
bl_diff_init (BlDiff *self)
{
  self->chunk = g_string_chunk_new (64 * 1024);
  self->string_ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->strings = g_ptr_array_new ();
  self->roots = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_mutex_init (&self->values_lock);
  for (guint m = 0; m < BL_N_METRICS; m++)
    self->auto_threshold[m] = NAN;

  intern (self, "");
}

/* ---- public API --------------------------------------------------------- */

/**
 * bl_diff_new:
 * @a: the profile before (finished)
 * @b: the profile after (finished)
 *
 * Merges the call trees of @a and @b. Runs in time linear in the number of
 * nodes (plus sorting); call it from a worker for big profiles.
 *
 * Returns: (transfer full): the diff
 */
BlDiff *
bl_diff_new (BlProfile *a,
             BlProfile *b)
{
  BlDiff *self;
  KeyHash hash;

  g_return_val_if_fail (BL_IS_PROFILE (a), NULL);
  g_return_val_if_fail (BL_IS_PROFILE (b), NULL);
  g_return_val_if_fail (bl_profile_is_finished (a), NULL);
  g_return_val_if_fail (bl_profile_is_finished (b), NULL);

  self = g_object_new (BL_TYPE_DIFF, NULL);
  self->profiles[BL_DIFF_SIDE_A] = g_object_ref (a);
  self->profiles[BL_DIFF_SIDE_B] = g_object_ref (b);

  for (guint side = 0; side < 2; side++)
    for (guint m = 0; m < BL_N_METRICS; m++)
      self->has_metric[side][m] = bl_profile_has_metric (self->profiles[side], m);

  key_hash_init (&hash);
  merge_tree (self, BL_DIFF_SIDE_A, &hash);
  merge_tree (self, BL_DIFF_SIDE_B, &hash);
  key_hash_clear (&hash);

  link_children (self);
  sum_values (self, BL_DIFF_SIDE_A);
  sum_values (self, BL_DIFF_SIDE_B);
  merge_functions (self);

  return self;
}

gboolean
bl_diff_is_session (BlDiff *self)
{
  g_return_val_if_fail (BL_IS_DIFF (self), FALSE);

  return self->sessions[BL_DIFF_SIDE_A] != NULL;
}

/**
 * bl_diff_get_profile:
 *
 * Returns: (transfer none) (nullable): the profile of @side
 */
BlProfile *
bl_diff_get_profile (BlDiff     *self,
                     BlDiffSide  side)
{
  g_return_val_if_fail (BL_IS_DIFF (self), NULL);
  g_return_val_if_fail (side <= BL_DIFF_SIDE_B, NULL);

  return self->profiles[side];
}

gboolean
bl_diff_has_metric (BlDiff     *self,
                    BlMetricId  metric)
{
  g_return_val_if_fail (BL_IS_DIFF (self), FALSE);

  if (metric < 0 || metric >= BL_N_METRICS)
    return FALSE;

  return self->has_metric[BL_DIFF_SIDE_A][metric] || self->has_metric[BL_DIFF_SIDE_B][metric];
}

gboolean
bl_diff_side_has_metric (BlDiff     *self,
                         BlDiffSide  side,
                         BlMetricId  metric)
{
  g_return_val_if_fail (BL_IS_DIFF (self), FALSE);
  g_return_val_if_fail (side <= BL_DIFF_SIDE_B, FALSE);

  if (metric < 0 || metric >= BL_N_METRICS)
    return FALSE;

  return self->has_metric[side][metric];
}

BlMetricId
bl_diff_get_default_metric (BlDiff *self)
{
  BlMetricId metric;

  g_return_val_if_fail (BL_IS_DIFF (self), BL_METRIC_INVALID);

  if (self->profiles[BL_DIFF_SIDE_A] == NULL)
    return BL_METRIC_INVALID;

  metric = bl_profile_get_default_metric (self->profiles[BL_DIFF_SIDE_A]);
  if (metric != BL_METRIC_INVALID && self->has_metric[BL_DIFF_SIDE_B][metric])
    return metric;

  metric = bl_profile_get_default_metric (self->profiles[BL_DIFF_SIDE_B]);
  if (metric != BL_METRIC_INVALID && self->has_metric[BL_DIFF_SIDE_A][metric])
    return metric;

  for (guint m = 0; m < BL_N_METRICS; m++)
    if (self->has_metric[BL_DIFF_SIDE_A][m] && self->has_metric[BL_DIFF_SIDE_B][m])
      return m;

  for (guint m = 0; m < BL_N_METRICS; m++)
    if (bl_diff_has_metric (self, m))
      return m;

  return BL_METRIC_INVALID;
}

guint64
bl_diff_get_grand_total (BlDiff     *self,
                         BlDiffSide  side,
                         BlMetricId  metric)
{
  g_return_val_if_fail (BL_IS_DIFF (self), 0);
  g_return_val_if_fail (side <= BL_DIFF_SIDE_B, 0);

  if (metric < 0 || metric >= BL_N_METRICS)
    return 0;

  return self->grand_total[side][metric];
}

guint
bl_diff_get_n_nodes (BlDiff *self)
{
  g_return_val_if_fail (BL_IS_DIFF (self), 0);

  return (guint) self->n_nodes;
}

const BlDiffNode *
bl_diff_get_nodes (BlDiff *self)
{
  g_return_val_if_fail (BL_IS_DIFF (self), NULL);

  return self->nodes;
}

const BlDiffNode *
bl_diff_get_node (BlDiff  *self,
                  guint32  node)
{
  g_return_val_if_fail (BL_IS_DIFF (self), NULL);
  g_return_val_if_fail (node < self->n_nodes, NULL);

  return &self->nodes[node];
}

const char *
bl_diff_get_string (BlDiff  *self,
                    guint32  id)
{
  g_return_val_if_fail (BL_IS_DIFF (self), NULL);
  g_return_val_if_fail (id < self->strings->len, NULL);

  return self->strings->pdata[id];
}

const char *
bl_diff_get_node_name (BlDiff  *self,
                       guint32  node)
{
  g_return_val_if_fail (BL_IS_DIFF (self), NULL);
  g_return_val_if_fail (node < self->n_nodes, NULL);

  return self->strings->pdata[self->nodes[node].name];
}

guint
bl_diff_get_n_roots (BlDiff *self)
{
  g_return_val_if_fail (BL_IS_DIFF (self), 0);

  return self->roots->len;
}

guint32
bl_diff_get_root (BlDiff *self,
                  guint   index)
{
  g_return_val_if_fail (BL_IS_DIFF (self), BL_NODE_NONE);
  g_return_val_if_fail (index < self->roots->len, BL_NODE_NONE);

  return g_array_index (self->roots, guint32, index);
}

guint32
bl_diff_find_root (BlDiff     *self,
                   const char *thread_name)
{
  g_return_val_if_fail (BL_IS_DIFF (self), BL_NODE_NONE);
  g_return_val_if_fail (thread_name != NULL, BL_NODE_NONE);

  for (guint i = 0; i < self->roots->len; i++)
    {
      guint32 root = g_array_index (self->roots, guint32, i);

      if (g_str_equal (self->strings->pdata[self->nodes[root].name], thread_name))
        return root;
    }

  return BL_NODE_NONE;
}

/**
 * bl_diff_dup_stack_string:
 *
 * Returns: (transfer full): "thread;f1;…;node" for @node, as
 *   bl_profile_dup_stack_string() writes it for the nodes it stands for
 */
char *
bl_diff_dup_stack_string (BlDiff  *self,
                          guint32  node,
                          char     separator)
{
  g_autofree guint32 *frames = NULL;
  GString *str;
  guint depth = 0;

  g_return_val_if_fail (BL_IS_DIFF (self), NULL);
  g_return_val_if_fail (node < self->n_nodes, NULL);

  frames = g_new (guint32, self->nodes[node].depth + 1);
  for (guint32 n = node; n != BL_NODE_NONE; n = self->nodes[n].parent)
    frames[depth++] = n;

  str = g_string_new (NULL);
  while (depth-- > 0)
    {
      g_string_append (str, self->strings->pdata[self->nodes[frames[depth]].name]);
      if (depth > 0)
        g_string_append_c (str, separator);
    }

  return g_string_free (str, FALSE);
}

guint32
bl_diff_lookup_stack (BlDiff     *self,
                      const char *stack,
                      char        separator)
{
  g_auto(GStrv) frames = NULL;
  char sep[2] = { separator, 0 };
  guint32 node;

  g_return_val_if_fail (BL_IS_DIFF (self), BL_NODE_NONE);
  g_return_val_if_fail (stack != NULL, BL_NODE_NONE);

  frames = g_strsplit (stack, sep, -1);
  if (frames[0] == NULL)
    return BL_NODE_NONE;

  node = bl_diff_find_root (self, frames[0]);
  for (guint i = 1; frames[i] != NULL && node != BL_NODE_NONE; i++)
    {
      guint32 c;

      for (c = self->nodes[node].first_child; c != BL_NODE_NONE; c = self->nodes[c].next_sibling)
        if (g_str_equal (self->strings->pdata[self->nodes[c].name], frames[i]))
          break;
      node = c;
    }

  return node;
}

guint64
bl_diff_get_self (BlDiff     *self,
                  BlDiffSide  side,
                  BlMetricId  metric,
                  guint32     node)
{
  g_return_val_if_fail (BL_IS_DIFF (self), 0);
  g_return_val_if_fail (side <= BL_DIFF_SIDE_B, 0);
  g_return_val_if_fail (node < self->n_nodes, 0);

  if (!ensure_metric (self, metric))
    return 0;

  return self->self[side][metric][node];
}

guint64
bl_diff_get_total (BlDiff     *self,
                   BlDiffSide  side,
                   BlMetricId  metric,
                   guint32     node)
{
  g_return_val_if_fail (BL_IS_DIFF (self), 0);
  g_return_val_if_fail (side <= BL_DIFF_SIDE_B, 0);
  g_return_val_if_fail (node < self->n_nodes, 0);

  if (!ensure_metric (self, metric))
    return 0;

  return self->total[side][metric][node];
}

/**
 * bl_diff_get_self_array:
 *
 * Returns: (nullable): one value per merged node, or %NULL when neither
 *   side has @metric
 */
const guint64 *
bl_diff_get_self_array (BlDiff     *self,
                        BlDiffSide  side,
                        BlMetricId  metric)
{
  g_return_val_if_fail (BL_IS_DIFF (self), NULL);
  g_return_val_if_fail (side <= BL_DIFF_SIDE_B, NULL);

  if (!ensure_metric (self, metric))
    return NULL;

  return self->self[side][metric];
}

const guint64 *
bl_diff_get_total_array (BlDiff     *self,
                         BlDiffSide  side,
                         BlMetricId  metric)
{
  g_return_val_if_fail (BL_IS_DIFF (self), NULL);
  g_return_val_if_fail (side <= BL_DIFF_SIDE_B, NULL);

  if (!ensure_metric (self, metric))
    return NULL;

  return self->total[side][metric];
}

/**
 * bl_diff_node_from_profile:
 * @profile_node: a node of the profile of @side
 *
 * Returns: the merged node that stands for @profile_node
 */
guint32
bl_diff_node_from_profile (BlDiff     *self,
                           BlDiffSide  side,
                           guint32     profile_node)
{
  g_return_val_if_fail (BL_IS_DIFF (self), BL_NODE_NONE);
  g_return_val_if_fail (side <= BL_DIFF_SIDE_B, BL_NODE_NONE);

  if (self->profiles[side] == NULL ||
      profile_node >= bl_profile_get_n_nodes (self->profiles[side]))
    return BL_NODE_NONE;

  return self->from_profile[side][profile_node];
}

/**
 * bl_diff_node_to_profile:
 *
 * Returns: the node of @side's profile that @node stands for (the one with
 *   the largest total of that profile's default metric when there are
 *   several), or %BL_NODE_NONE when @side does not have the stack
 */
guint32
bl_diff_node_to_profile (BlDiff     *self,
                         BlDiffSide  side,
                         guint32     node)
{
  g_return_val_if_fail (BL_IS_DIFF (self), BL_NODE_NONE);
  g_return_val_if_fail (side <= BL_DIFF_SIDE_B, BL_NODE_NONE);

  if (node >= self->n_nodes || self->to_profile[side] == NULL)
    return BL_NODE_NONE;

  return self->to_profile[side][node];
}

guint
bl_diff_get_n_functions (BlDiff *self)
{
  g_return_val_if_fail (BL_IS_DIFF (self), 0);

  return (guint) self->n_functions;
}

const BlDiffFunction *
bl_diff_get_function (BlDiff  *self,
                      guint32  function)
{
  g_return_val_if_fail (BL_IS_DIFF (self), NULL);
  g_return_val_if_fail (function < self->n_functions, NULL);

  return &self->functions[function];
}

const char *
bl_diff_get_function_name (BlDiff  *self,
                           guint32  function)
{
  g_return_val_if_fail (BL_IS_DIFF (self), NULL);
  g_return_val_if_fail (function < self->n_functions, NULL);

  return self->strings->pdata[self->functions[function].name];
}

const char *
bl_diff_get_function_file (BlDiff  *self,
                           guint32  function)
{
  g_return_val_if_fail (BL_IS_DIFF (self), NULL);
  g_return_val_if_fail (function < self->n_functions, NULL);

  return self->strings->pdata[self->functions[function].file];
}

guint64
bl_diff_get_function_self (BlDiff     *self,
                           BlDiffSide  side,
                           BlMetricId  metric,
                           guint32     function)
{
  g_return_val_if_fail (BL_IS_DIFF (self), 0);
  g_return_val_if_fail (side <= BL_DIFF_SIDE_B, 0);
  g_return_val_if_fail (function < self->n_functions, 0);

  if (metric < 0 || metric >= BL_N_METRICS || self->function_self[side][metric] == NULL)
    return 0;

  return self->function_self[side][metric][function];
}

guint64
bl_diff_get_function_total (BlDiff     *self,
                            BlDiffSide  side,
                            BlMetricId  metric,
                            guint32     function)
{
  g_return_val_if_fail (BL_IS_DIFF (self), 0);
  g_return_val_if_fail (side <= BL_DIFF_SIDE_B, 0);
  g_return_val_if_fail (function < self->n_functions, 0);

  if (metric < 0 || metric >= BL_N_METRICS || self->function_total[side][metric] == NULL)
    return 0;

  return self->function_total[side][metric][function];
}

/**
 * bl_diff_compute_change:
 * @a: A's value of @metric
 * @b: B's value of @metric
 * @normalized: compare the shares of each side's grand total
 */
void
bl_diff_compute_change (BlDiff       *self,
                        BlMetricId    metric,
                        guint64       a,
                        guint64       b,
                        gboolean      normalized,
                        BlDiffChange *change)
{
  double va = (double) a;
  double vb = (double) b;

  g_return_if_fail (BL_IS_DIFF (self));
  g_return_if_fail (change != NULL);

  if (normalized)
    {
      guint64 ga = bl_diff_get_grand_total (self, BL_DIFF_SIDE_A, metric);
      guint64 gb = bl_diff_get_grand_total (self, BL_DIFF_SIDE_B, metric);

      va = ga > 0 ? va / (double) ga : 0.0;
      vb = gb > 0 ? vb / (double) gb : 0.0;
    }

  else if (self->profiles[BL_DIFF_SIDE_A] != NULL && metric >= 0 && metric < BL_N_METRICS)
    {
      /* each side in the base unit, whatever decimals it stores */
      va = bl_profile_to_base_unit (self->profiles[BL_DIFF_SIDE_A], metric, a);
      vb = bl_profile_to_base_unit (self->profiles[BL_DIFF_SIDE_B], metric, b);
    }

  change->a = va;
  change->b = vb;
  change->delta = vb - va;
  if (va != 0.0)
    change->delta_pct = 100.0 * (vb - va) / va;
  else
    change->delta_pct = vb != 0.0 ? INFINITY : 0.0;
}

/**
 * bl_diff_get_node_change:
 * @total: compare totals (the frame and what it called) rather than self
 */
void
bl_diff_get_node_change (BlDiff       *self,
                         BlMetricId    metric,
                         guint32       node,
                         gboolean      total,
                         gboolean      normalized,
                         BlDiffChange *change)
{
  guint64 a, b;

  g_return_if_fail (BL_IS_DIFF (self));
  g_return_if_fail (node < self->n_nodes);

  if (total)
    {
      a = bl_diff_get_total (self, BL_DIFF_SIDE_A, metric, node);
      b = bl_diff_get_total (self, BL_DIFF_SIDE_B, metric, node);
    }
  else
    {
      a = bl_diff_get_self (self, BL_DIFF_SIDE_A, metric, node);
      b = bl_diff_get_self (self, BL_DIFF_SIDE_B, metric, node);
    }

  bl_diff_compute_change (self, metric, a, b, normalized, change);
}

void
bl_diff_get_function_change (BlDiff       *self,
                             BlMetricId    metric,
                             guint32       function,
                             gboolean      total,
                             gboolean      normalized,
                             BlDiffChange *change)
{
  guint64 a, b;

  g_return_if_fail (BL_IS_DIFF (self));
  g_return_if_fail (function < self->n_functions);

  if (total)
    {
      a = bl_diff_get_function_total (self, BL_DIFF_SIDE_A, metric, function);
      b = bl_diff_get_function_total (self, BL_DIFF_SIDE_B, metric, function);
    }
  else
    {
      a = bl_diff_get_function_self (self, BL_DIFF_SIDE_A, metric, function);
      b = bl_diff_get_function_self (self, BL_DIFF_SIDE_B, metric, function);
    }

  bl_diff_compute_change (self, metric, a, b, normalized, change);
}

/* ---- classification ----------------------------------------------------- */

static const char * const kind_names[BL_N_DIFF_KINDS] = {
  "neutral", "grown", "shrunk", "new", "removed",
};

static const char * const kind_display_names[BL_N_DIFF_KINDS] = {
  /* Translators: a frame or function whose change is below the noise threshold */
  N_("Neutral"),
  N_("Grown"),
  N_("Shrunk"),
  /* Translators: a frame or function only the second profile has */
  N_("New"),
  /* Translators: a frame or function only the first profile has */
  N_("Removed"),
};

const char *
bl_diff_kind_get_name (BlDiffKind kind)
{
  g_return_val_if_fail (kind < BL_N_DIFF_KINDS, NULL);

  return kind_names[kind];
}

const char *
bl_diff_kind_get_display_name (BlDiffKind kind)
{
  g_return_val_if_fail (kind < BL_N_DIFF_KINDS, NULL);

  return kind_display_names[kind];
}

static double
grand_total_base (BlDiff     *self,
                  BlDiffSide  side,
                  BlMetricId  metric)
{
  if (self->profiles[side] == NULL || metric < 0 || metric >= BL_N_METRICS)
    return 0.0;

  return bl_profile_to_base_unit (self->profiles[side], metric,
                                  self->grand_total[side][metric]);
}

static int
compare_double (const void *a,
                const void *b)
{
  double da = *(const double *) a;
  double db = *(const double *) b;

  return da < db ? -1 : da > db;
}

/**
 * bl_diff_get_auto_threshold:
 *
 * The rule (also in bl-diff.h and brightlens-cli(1)): over the functions
 * with a self value on both sides (at least 4, else 1 %), the length
 * factor k between the runs is the median of ln(b / a), so one function
 * that really regressed moves neither k nor the shares of the others;
 * each function's residual is |b·e^-k − a| as a share of A's total; the
 * threshold is twice the median residual of the functions that hold at
 * least 1 % of a side (of all shared ones when fewer than 4 do), rounded
 * to 0.1 and clamped to 0.1 … 5 %. Two runs of the same code
 * differ by sampling and scheduling noise in every function; that typical
 * residual measures it.
 *
 * Returns: the noise threshold in percent of the total
 */
static double compute_auto_threshold (BlDiff     *self,
                                      BlMetricId  metric);

double
bl_diff_get_auto_threshold (BlDiff     *self,
                            BlMetricId  metric)
{
  double pct;

  g_return_val_if_fail (BL_IS_DIFF (self), 1.0);

  if (metric < 0 || metric >= BL_N_METRICS)
    return 1.0;

  /* once per metric: every classification asks for it */
  g_mutex_lock (&self->values_lock);
  pct = self->auto_threshold[metric];
  g_mutex_unlock (&self->values_lock);
  if (!isnan (pct))
    return pct;

  pct = compute_auto_threshold (self, metric);
  g_mutex_lock (&self->values_lock);
  self->auto_threshold[metric] = pct;
  g_mutex_unlock (&self->values_lock);

  return pct;
}

static double
compute_auto_threshold (BlDiff     *self,
                        BlMetricId  metric)
{
  g_autofree double *residuals = NULL;
  g_autofree double *ratios = NULL;
  g_autofree double *a_values = NULL;
  g_autofree double *b_values = NULL;
  double total_a, k, scale;
  double median;
  guint n = 0;
  guint m = 0;

  if (!bl_diff_has_metric (self, metric) || self->n_functions == 0)
    return 1.0;
  total_a = grand_total_base (self, BL_DIFF_SIDE_A, metric);
  if (total_a <= 0.0)
    return 1.0;

  a_values = g_new (double, self->n_functions);
  b_values = g_new (double, self->n_functions);
  ratios = g_new (double, self->n_functions);
  for (gsize f = 0; f < self->n_functions; f++)
    {
      BlDiffChange change;

      bl_diff_get_function_change (self, metric, f, FALSE, FALSE, &change);
      if (change.a <= 0.0 || change.b <= 0.0)
        continue;
      a_values[n] = change.a;
      b_values[n] = change.b;
      ratios[n] = log (change.b / change.a);
      n++;
    }
  if (n < 4)
    return 1.0;

  qsort (ratios, n, sizeof (double), compare_double);
  k = n % 2 == 1 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2.0;
  scale = exp (-k);

  /* the residuals of the functions that hold at least 1 % of a side (all
   * shared functions when fewer than 4 do) */
  residuals = g_new (double, n);
  for (guint pass = 0; pass < 2 && m < 4; pass++)
    {
      m = 0;
      for (guint i = 0; i < n; i++)
        {
          double scaled_b = b_values[i] * scale;

          if (pass == 0 && MAX (a_values[i], scaled_b) < 0.01 * total_a)
            continue;
          residuals[m++] = fabs (scaled_b - a_values[i]) / total_a;
        }
    }
  qsort (residuals, m, sizeof (double), compare_double);
  median = m % 2 == 1 ? residuals[m / 2] : (residuals[m / 2 - 1] + residuals[m / 2]) / 2.0;

  /* shares to percent, twice the typical residual, rounded to 0.1 % */
  return CLAMP (round (2.0 * median * 1000.0) / 10.0, 0.1, 5.0);
}

double
bl_diff_threshold_get_pct (BlDiff                *self,
                           BlMetricId             metric,
                           const BlDiffThreshold *threshold)
{
  g_return_val_if_fail (BL_IS_DIFF (self), 0.0);
  g_return_val_if_fail (threshold != NULL, 0.0);

  if (threshold->pct < 0.0 || isnan (threshold->pct))
    return bl_diff_get_auto_threshold (self, metric);

  return threshold->pct;
}

double
bl_diff_threshold_get_band (BlDiff                *self,
                            BlMetricId             metric,
                            const BlDiffThreshold *threshold)
{
  double pct, band, amount = 0.0;

  g_return_val_if_fail (BL_IS_DIFF (self), 0.0);
  g_return_val_if_fail (threshold != NULL, 0.0);

  pct = bl_diff_threshold_get_pct (self, metric, threshold);
  if (threshold->normalized)
    {
      double total_b = grand_total_base (self, BL_DIFF_SIDE_B, metric);

      band = pct / 100.0;
      if (threshold->min_change > 0.0 && total_b > 0.0)
        amount = threshold->min_change / total_b;
    }
  else
    {
      double total = grand_total_base (self, BL_DIFF_SIDE_A, metric);

      if (total <= 0.0)
        total = grand_total_base (self, BL_DIFF_SIDE_B, metric);
      band = pct / 100.0 * total;
      if (threshold->min_change > 0.0)
        amount = threshold->min_change;
    }

  return MAX (band, amount);
}

/* New and removed go by presence (a total above 0 on a side: the frame or
 * function ran there); the others by the size of the change. */
static BlDiffKind
classify (BlDiff                *self,
          BlMetricId             metric,
          const BlDiffChange    *change,
          gboolean               in_a,
          gboolean               in_b,
          const BlDiffThreshold *threshold)
{
  if (!in_a && in_b)
    return BL_DIFF_KIND_NEW;
  if (in_a && !in_b)
    return BL_DIFF_KIND_REMOVED;
  if (change->delta == 0.0 ||
      fabs (change->delta) < bl_diff_threshold_get_band (self, metric, threshold))
    return BL_DIFF_KIND_NEUTRAL;

  return change->delta > 0.0 ? BL_DIFF_KIND_GROWN : BL_DIFF_KIND_SHRUNK;
}

/**
 * bl_diff_classify:
 * @change: a change made in @threshold's mode
 *
 * Returns: the kind of @change, with presence read from the change itself
 *   (a value of 0 on a side is absence); use bl_diff_get_node_kind() or
 *   bl_diff_get_function_kind() for self values, whose presence is that of
 *   the total
 */
BlDiffKind
bl_diff_classify (BlDiff                *self,
                  BlMetricId             metric,
                  const BlDiffChange    *change,
                  const BlDiffThreshold *threshold)
{
  g_return_val_if_fail (BL_IS_DIFF (self), BL_DIFF_KIND_NEUTRAL);
  g_return_val_if_fail (change != NULL, BL_DIFF_KIND_NEUTRAL);
  g_return_val_if_fail (threshold != NULL, BL_DIFF_KIND_NEUTRAL);

  return classify (self, metric, change, change->a > 0.0, change->b > 0.0, threshold);
}

BlDiffKind
bl_diff_classify_presence (BlDiff                *self,
                           BlMetricId             metric,
                           const BlDiffChange    *change,
                           gboolean               in_a,
                           gboolean               in_b,
                           const BlDiffThreshold *threshold)
{
  g_return_val_if_fail (BL_IS_DIFF (self), BL_DIFF_KIND_NEUTRAL);
  g_return_val_if_fail (change != NULL, BL_DIFF_KIND_NEUTRAL);
  g_return_val_if_fail (threshold != NULL, BL_DIFF_KIND_NEUTRAL);

  return classify (self, metric, change, in_a, in_b, threshold);
}

BlDiffKind
bl_diff_get_node_kind (BlDiff                *self,
                       BlMetricId             metric,
                       guint32                node,
                       gboolean               total,
                       const BlDiffThreshold *threshold)
{
  BlDiffChange change;

  g_return_val_if_fail (BL_IS_DIFF (self), BL_DIFF_KIND_NEUTRAL);
  g_return_val_if_fail (node < self->n_nodes, BL_DIFF_KIND_NEUTRAL);
  g_return_val_if_fail (threshold != NULL, BL_DIFF_KIND_NEUTRAL);

  bl_diff_get_node_change (self, metric, node, total, threshold->normalized, &change);

  return classify (self, metric, &change,
                   bl_diff_get_total (self, BL_DIFF_SIDE_A, metric, node) > 0,
                   bl_diff_get_total (self, BL_DIFF_SIDE_B, metric, node) > 0,
                   threshold);
}

BlDiffKind
bl_diff_get_function_kind (BlDiff                *self,
                           BlMetricId             metric,
                           guint32                function,
                           gboolean               total,
                           const BlDiffThreshold *threshold)
{
  BlDiffChange change;

  g_return_val_if_fail (BL_IS_DIFF (self), BL_DIFF_KIND_NEUTRAL);
  g_return_val_if_fail (function < self->n_functions, BL_DIFF_KIND_NEUTRAL);
  g_return_val_if_fail (threshold != NULL, BL_DIFF_KIND_NEUTRAL);

  bl_diff_get_function_change (self, metric, function, total, threshold->normalized, &change);

  return classify (self, metric, &change,
                   bl_diff_get_function_total (self, BL_DIFF_SIDE_A, metric, function) > 0,
                   bl_diff_get_function_total (self, BL_DIFF_SIDE_B, metric, function) > 0,
                   threshold);
}

typedef struct
{
  guint32 function;
  double  key;
  double  tie;
} Ranked;

typedef struct
{
  BlDiff *diff;
  Ranked *ranked;
} RankContext;

static int
compare_ranked (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  RankContext *ctx = user_data;
  const guint32 *ia = a;
  const guint32 *ib = b;
  const Ranked *ra = &ctx->ranked[*ia];
  const Ranked *rb = &ctx->ranked[*ib];

  if (ra->key != rb->key)
    return ra->key > rb->key ? -1 : 1;
  if (ra->tie != rb->tie)
    return ra->tie > rb->tie ? -1 : 1;

  return ra->function < rb->function ? -1 : ra->function > rb->function;
}

GArray *
bl_diff_rank_functions (BlDiff     *self,
                        BlMetricId  metric,
                        gboolean    total,
                        gboolean    normalized)
{
  GArray *order;
  g_autofree Ranked *ranked = NULL;
  RankContext ctx;

  g_return_val_if_fail (BL_IS_DIFF (self), NULL);

  order = g_array_new (FALSE, FALSE, sizeof (guint32));
  ranked = g_new (Ranked, MAX (self->n_functions, 1));
  for (guint32 f = 0; f < self->n_functions; f++)
    {
      BlDiffChange self_change, total_change;

      bl_diff_get_function_change (self, metric, f, FALSE, normalized, &self_change);
      bl_diff_get_function_change (self, metric, f, TRUE, normalized, &total_change);
      ranked[f].function = f;
      ranked[f].key = fabs (total ? total_change.delta : self_change.delta);
      ranked[f].tie = fabs (total ? self_change.delta : total_change.delta);
      if (total_change.a == 0 && total_change.b == 0 &&
          self_change.a == 0 && self_change.b == 0)
        continue;
      g_array_append_val (order, f);
    }

  ctx.diff = self;
  ctx.ranked = ranked;
  g_array_sort_with_data (order, compare_ranked, &ctx);

  return order;
}

char *
bl_diff_format_value (BlDiff     *self,
                      BlMetricId  metric,
                      double      value,
                      gboolean    normalized,
                      gboolean    signed_value)
{
  g_autofree char *text = NULL;
  const char *sign = "";
  BlProfile *finer;
  double scaled;

  g_return_val_if_fail (BL_IS_DIFF (self), NULL);
  g_return_val_if_fail (metric >= 0 && metric < BL_N_METRICS, NULL);

  if (isnan (value))
    return g_strdup ("—");
  if (signed_value)
    sign = value > 0 ? "+" : value < 0 ? "−" : "±";

  if (normalized)
    {
      if (signed_value)
        /* Translators: a change of a share of the total, in percentage points */
        return g_strdup_printf (_("%s%.2f pp"), sign, fabs (value) * 100.0);
      return g_strdup_printf ("%.2f %%", value * 100.0);
    }

  if (self->profiles[BL_DIFF_SIDE_A] == NULL)
    return g_strdup_printf ("%s%g", sign, fabs (value));

  /* in the stored units of the side with more decimals */
  finer = self->profiles[BL_DIFF_SIDE_A];
  if (bl_profile_get_metric_decimals (self->profiles[BL_DIFF_SIDE_B], metric) >
      bl_profile_get_metric_decimals (finer, metric))
    finer = self->profiles[BL_DIFF_SIDE_B];
  scaled = fabs (value) * (double) bl_profile_get_metric_scale (finer, metric);
  /* doubles at or above 2^64 do not convert */
  text = bl_profile_format_value (finer, metric,
                                  scaled >= 18446744073709549568.0
                                  ? G_MAXUINT64 : (guint64) (scaled + 0.5));

  return g_strdup_printf ("%s%s", sign, text);
}

void
bl_diff_summarize (BlDiff                *self,
                   BlMetricId             metric,
                   const BlDiffThreshold *threshold,
                   BlDiffSummary         *summary)
{
  g_autoptr(GArray) order = NULL;

  g_return_if_fail (BL_IS_DIFF (self));
  g_return_if_fail (threshold != NULL);
  g_return_if_fail (summary != NULL);

  memset (summary, 0, sizeof *summary);
  summary->metric = metric;
  summary->threshold = *threshold;
  summary->threshold.pct = bl_diff_threshold_get_pct (self, metric, threshold);

  if (!bl_diff_has_metric (self, metric))
    return;

  order = bl_diff_rank_functions (self, metric, FALSE, threshold->normalized);
  for (guint i = 0; i < order->len; i++)
    {
      guint32 f = g_array_index (order, guint32, i);
      BlDiffChange change;
      BlDiffKind kind;

      bl_diff_get_function_change (self, metric, f, FALSE, threshold->normalized, &change);
      kind = bl_diff_get_function_kind (self, metric, f, FALSE, &summary->threshold);
      bl_diff_summary_add (summary, f, kind, change.delta);
    }
}

/* Keeps the BL_DIFF_SUMMARY_MAX_LARGEST largest @change (by size) in
 * @functions and @changes, largest first; a tie keeps the earlier one. */
static void
keep_largest (guint32 *functions,
              double  *changes,
              guint   *n,
              guint32  function,
              double   change)
{
  guint i;

  if (change == 0.0)
    return;
  if (*n == BL_DIFF_SUMMARY_MAX_LARGEST && fabs (change) <= fabs (changes[*n - 1]))
    return;

  if (*n < BL_DIFF_SUMMARY_MAX_LARGEST)
    (*n)++;
  for (i = *n - 1; i > 0 && fabs (changes[i - 1]) < fabs (change); i--)
    {
      functions[i] = functions[i - 1];
      changes[i] = changes[i - 1];
    }
  functions[i] = function;
  changes[i] = change;
}

void
bl_diff_summary_add (BlDiffSummary *summary,
                     guint32        function,
                     BlDiffKind     kind,
                     double         change)
{
  g_return_if_fail (summary != NULL);
  g_return_if_fail (kind < BL_N_DIFF_KINDS);

  summary->n_kind[kind]++;
  if (kind == BL_DIFF_KIND_GROWN || kind == BL_DIFF_KIND_NEW)
    {
      summary->grown += change;
      keep_largest (summary->largest, summary->largest_change, &summary->n_largest,
                    function, change);
    }
  else if (kind == BL_DIFF_KIND_SHRUNK || kind == BL_DIFF_KIND_REMOVED)
    {
      summary->shrunk += change;
      keep_largest (summary->largest_shrunk, summary->largest_shrunk_change,
                    &summary->n_largest_shrunk, function, change);
    }
}

static gboolean
metric_is_time (BlMetricId metric)
{
  BlUnit unit = bl_metric_get_info (metric)->unit;

  return unit == BL_UNIT_MICROSECONDS || unit == BL_UNIT_NANOSECONDS;
}

static void
append_largest (BlDiff              *self,
                const BlDiffSummary *summary,
                const guint32       *functions,
                const double        *changes,
                guint                n,
                GString             *out)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *delta = NULL;

      delta = bl_diff_format_value (self, summary->metric, changes[i],
                                    summary->threshold.normalized, TRUE);
      if (i > 0)
        g_string_append (out, ", ");
      /* Translators: one of the largest changes: a function and its change */
      g_string_append_printf (out, _("%s (%s)"),
                              bl_diff_get_function_name (self, functions[i]), delta);
    }
}

char *
bl_diff_summary_to_string (BlDiff              *self,
                           const BlDiffSummary *summary)
{
  g_autoptr(GString) out = g_string_new (NULL);
  guint n_up, n_down;
  gboolean time;

  g_return_val_if_fail (BL_IS_DIFF (self), NULL);
  g_return_val_if_fail (summary != NULL, NULL);

  n_up = summary->n_kind[BL_DIFF_KIND_GROWN] + summary->n_kind[BL_DIFF_KIND_NEW];
  n_down = summary->n_kind[BL_DIFF_KIND_SHRUNK] + summary->n_kind[BL_DIFF_KIND_REMOVED];
  time = metric_is_time (summary->metric);

  if (n_up == 0 && n_down == 0)
    {
      g_string_append (out, time
                       ? _("No function got slower or faster beyond the noise threshold.")
                       : _("No function grew or shrank beyond the noise threshold."));
      return g_string_free (g_steal_pointer (&out), FALSE);
    }

  if (n_up > 0)
    {
      g_autofree char *amount = bl_diff_format_value (self, summary->metric, summary->grown,
                                                      summary->threshold.normalized, FALSE);

      if (summary->threshold.normalized)
        {
          g_free (amount);
          amount = g_strdup_printf (_("%.2f pp"), summary->grown * 100.0);
        }
      g_string_append_printf (out,
                              time
                              ? g_dngettext (GETTEXT_PACKAGE,
                                             "%u function got slower by %s in total",
                                             "%u functions got slower by %s in total", n_up)
                              : g_dngettext (GETTEXT_PACKAGE,
                                             "%u function grew by %s in total",
                                             "%u functions grew by %s in total", n_up),
                              n_up, amount);
      if (summary->n_kind[BL_DIFF_KIND_NEW] > 0)
        g_string_append_printf (out, _(" (%u new)"), summary->n_kind[BL_DIFF_KIND_NEW]);
      g_string_append (out, _("; the largest: "));
      append_largest (self, summary, summary->largest, summary->largest_change,
                      summary->n_largest, out);
      g_string_append (out, ".");
    }

  if (n_down > 0)
    {
      g_autofree char *amount = bl_diff_format_value (self, summary->metric, -summary->shrunk,
                                                      summary->threshold.normalized, FALSE);

      if (summary->threshold.normalized)
        {
          g_free (amount);
          amount = g_strdup_printf (_("%.2f pp"), -summary->shrunk * 100.0);
        }
      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append_printf (out,
                              time
                              ? g_dngettext (GETTEXT_PACKAGE,
                                             "%u function got faster by %s in total",
                                             "%u functions got faster by %s in total", n_down)
                              : g_dngettext (GETTEXT_PACKAGE,
                                             "%u function shrank by %s in total",
                                             "%u functions shrank by %s in total", n_down),
                              n_down, amount);
      if (summary->n_kind[BL_DIFF_KIND_REMOVED] > 0)
        g_string_append_printf (out, _(" (%u removed)"),
                                summary->n_kind[BL_DIFF_KIND_REMOVED]);
      g_string_append (out, _("; the largest: "));
      append_largest (self, summary, summary->largest_shrunk, summary->largest_shrunk_change,
                      summary->n_largest_shrunk, out);
      g_string_append (out, ".");
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

char *
bl_diff_threshold_to_string (BlDiff                *self,
                             BlMetricId             metric,
                             const BlDiffThreshold *threshold)
{
  g_autoptr(GString) out = g_string_new (NULL);
  double pct;

  g_return_val_if_fail (BL_IS_DIFF (self), NULL);
  g_return_val_if_fail (threshold != NULL, NULL);

  pct = bl_diff_threshold_get_pct (self, metric, threshold);
  if (threshold->pct < 0.0 || isnan (threshold->pct))
    /* Translators: the noise threshold, chosen from the data */
    g_string_append_printf (out, _("%.1f %% of the total (automatic)"), pct);
  else
    g_string_append_printf (out, _("%.1f %% of the total"), pct);

  if (threshold->min_change > 0.0 && metric >= 0 && metric < BL_N_METRICS)
    {
      g_autofree char *amount = bl_diff_format_value (self, metric, threshold->min_change,
                                                      FALSE, FALSE);

      /* Translators: appended to the noise threshold: "1.0 % of the total or 5 ms" */
      g_string_append_printf (out, _(" or %s"), amount);
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* ---- sessions ----------------------------------------------------------- */

const BlDiffFigureInfo *
bl_diff_figure_get_info (BlDiffFigure figure)
{
  g_return_val_if_fail (figure < BL_N_DIFF_FIGURES, NULL);

  return &figure_info[figure];
}

/**
 * bl_diff_figure_format_value:
 *
 * Returns: (transfer full): @value with its unit, "—" for NaN
 */
char *
bl_diff_figure_format_value (BlDiffFigure figure,
                             double       value,
                             gboolean     signed_value)
{
  g_autofree char *text = NULL;
  const char *sign = "";

  g_return_val_if_fail (figure < BL_N_DIFF_FIGURES, NULL);

  if (isnan (value))
    return g_strdup ("—");

  if (signed_value)
    {
      sign = value > 0 ? "+" : value < 0 ? "−" : "±";
      value = fabs (value);
    }

  if (signed_value &&
      bl_series_get_info (figure_info[figure].series)->unit == BL_SERIES_UNIT_PERCENT)
    /* Translators: a change of a percentage, in percentage points */
    return g_strdup_printf (_("%s%.1f pp"), sign, value);

  text = bl_series_format_value (figure_info[figure].series, value);
  if (figure == BL_DIFF_FIGURE_MEMORY_GROWTH)
    /* Translators: a memory growth rate, "%s" is an amount like "1.2 MiB" */
    return g_strdup_printf (_("%s%s/min"), sign, text);

  return g_strdup_printf ("%s%s", sign, text);
}

static double
series_peak (BlSession  *session,
             BlSeriesId  id)
{
  BlRangeStats stats;

  bl_session_compute_range_stats (session, id, G_MININT64, G_MAXINT64, &stats);

  return stats.n > 0 ? stats.max : NAN;
}

static double
series_mean (BlSession  *session,
             BlSeriesId  id)
{
  BlRangeStats stats;

  bl_session_compute_range_stats (session, id, G_MININT64, G_MAXINT64, &stats);

  return stats.n > 0 ? stats.mean : NAN;
}

static void
compute_figures (BlDiff     *self,
                 BlDiffSide  side)
{
  BlSession *session = self->sessions[side];
  const BlSessionSummary *sum = bl_session_get_summary (session);
  double *f = self->figures[side];

  f[BL_DIFF_FIGURE_PEAK_MEMORY] = sum->peak_memory;
  f[BL_DIFF_FIGURE_MEAN_MEMORY] = series_mean (session, BL_SERIES_MEMORY_USED);
  f[BL_DIFF_FIGURE_MEAN_CPU] = sum->mean_cpu;
  f[BL_DIFF_FIGURE_MEAN_FPS] = sum->mean_fps;
  f[BL_DIFF_FIGURE_MIN_FPS] = sum->min_fps;
  f[BL_DIFF_FIGURE_LAUNCH_TIME] = sum->launch_ms;
  f[BL_DIFF_FIGURE_NODE_COUNT] = series_peak (session, BL_SERIES_NODES_TOTAL);
  f[BL_DIFF_FIGURE_RENDEZVOUS_COUNT] = sum->rendezvous_count;
  f[BL_DIFF_FIGURE_MEMORY_GROWTH] = sum->memory_growth_per_min;
}

/**
 * bl_diff_new_for_sessions:
 * @a: the session before (finished)
 * @b: the session after (finished)
 *
 * Returns: (transfer full): the diff
 */
BlDiff *
bl_diff_new_for_sessions (BlSession *a,
                          BlSession *b)
{
  BlDiff *self;

  g_return_val_if_fail (BL_IS_SESSION (a), NULL);
  g_return_val_if_fail (BL_IS_SESSION (b), NULL);

  self = g_object_new (BL_TYPE_DIFF, NULL);
  self->sessions[BL_DIFF_SIDE_A] = g_object_ref (a);
  self->sessions[BL_DIFF_SIDE_B] = g_object_ref (b);
  compute_figures (self, BL_DIFF_SIDE_A);
  compute_figures (self, BL_DIFF_SIDE_B);

  return self;
}

/**
 * bl_diff_get_session:
 *
 * Returns: (transfer none) (nullable): the session of @side
 */
BlSession *
bl_diff_get_session (BlDiff     *self,
                     BlDiffSide  side)
{
  g_return_val_if_fail (BL_IS_DIFF (self), NULL);
  g_return_val_if_fail (side <= BL_DIFF_SIDE_B, NULL);

  return self->sessions[side];
}

void
bl_diff_get_figure (BlDiff       *self,
                    BlDiffFigure  figure,
                    BlDiffChange *change)
{
  double a, b;

  g_return_if_fail (BL_IS_DIFF (self));
  g_return_if_fail (figure < BL_N_DIFF_FIGURES);
  g_return_if_fail (change != NULL);

  a = self->sessions[BL_DIFF_SIDE_A] != NULL ? self->figures[BL_DIFF_SIDE_A][figure] : NAN;
  b = self->sessions[BL_DIFF_SIDE_B] != NULL ? self->figures[BL_DIFF_SIDE_B][figure] : NAN;

  change->a = a;
  change->b = b;
  change->delta = b - a;
  if (isnan (a) || isnan (b))
    change->delta_pct = NAN;
  else if (a != 0.0)
    change->delta_pct = 100.0 * (b - a) / fabs (a);
  else
    change->delta_pct = b != 0.0 ? copysign (INFINITY, b) : 0.0;
}

static gboolean
beacon_name_equal (const char *a,
                   const char *b)
{
  for (;;)
    {
      while (*a != '\0' && !g_ascii_isalnum (*a))
        a++;
      while (*b != '\0' && !g_ascii_isalnum (*b))
        b++;
      if (*a == '\0' || *b == '\0')
        return *a == *b;
      if (g_ascii_tolower (*a) != g_ascii_tolower (*b))
        return FALSE;
      a++;
      b++;
    }
}

gint64
bl_diff_find_beacon (BlDiff     *self,
                     BlDiffSide  side,
                     const char *name)
{
  const BlBeacon *beacons;
  guint n = 0;

  g_return_val_if_fail (BL_IS_DIFF (self), -1);
  g_return_val_if_fail (side <= BL_DIFF_SIDE_B, -1);
  g_return_val_if_fail (name != NULL, -1);

  if (self->sessions[side] == NULL)
    return -1;

  beacons = bl_session_get_beacons (self->sessions[side], &n);
  for (guint i = 0; i < n; i++)
    if (beacon_name_equal (beacons[i].name, name))
      return beacons[i].timestamp_ms;

  return -1;
}

/**
 * bl_diff_dup_common_beacons:
 *
 * Returns: (transfer full): a %NULL-terminated array of beacon names
 */
GStrv
bl_diff_dup_common_beacons (BlDiff *self)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const BlBeacon *beacons;
  guint n = 0;

  g_return_val_if_fail (BL_IS_DIFF (self), NULL);

  if (self->sessions[BL_DIFF_SIDE_A] != NULL)
    {
      beacons = bl_session_get_beacons (self->sessions[BL_DIFF_SIDE_A], &n);
      for (guint i = 0; i < n; i++)
        {
          gboolean seen = FALSE;

          for (guint k = 0; k < names->len && !seen; k++)
            seen = beacon_name_equal (names->pdata[k], beacons[i].name);
          if (!seen && bl_diff_find_beacon (self, BL_DIFF_SIDE_B, beacons[i].name) >= 0)
            g_ptr_array_add (names, g_strdup (beacons[i].name));
        }
    }
  g_ptr_array_add (names, NULL);

  return (GStrv) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

/**
 * bl_diff_get_alignment:
 * @beacon: (nullable): the beacon for %BL_DIFF_ALIGN_BEACON
 *
 * Returns: %FALSE with %BL_DIFF_ERROR_NO_BEACON when a session lacks @beacon
 */
gboolean
bl_diff_get_alignment (BlDiff       *self,
                       BlDiffAlign   align,
                       const char   *beacon,
                       gint64       *offset_a,
                       gint64       *offset_b,
                       GError      **error)
{
  gint64 offsets[2];

  g_return_val_if_fail (BL_IS_DIFF (self), FALSE);
  g_return_val_if_fail (bl_diff_is_session (self), FALSE);
  g_return_val_if_fail (align != BL_DIFF_ALIGN_BEACON || beacon != NULL, FALSE);

  for (guint side = 0; side < 2; side++)
    {
      if (align == BL_DIFF_ALIGN_START)
        {
          offsets[side] = bl_session_get_summary (self->sessions[side])->start_ms;
          continue;
        }

      offsets[side] = bl_diff_find_beacon (self, side, beacon);
      if (offsets[side] < 0)
        {
          g_set_error (error, BL_DIFF_ERROR, BL_DIFF_ERROR_NO_BEACON,
                       side == BL_DIFF_SIDE_A
                       ? _("Session A has no beacon “%s”.")
                       : _("Session B has no beacon “%s”."),
                       beacon);
          return FALSE;
        }
    }

  if (offset_a != NULL)
    *offset_a = offsets[BL_DIFF_SIDE_A];
  if (offset_b != NULL)
    *offset_b = offsets[BL_DIFF_SIDE_B];

  return TRUE;
}
