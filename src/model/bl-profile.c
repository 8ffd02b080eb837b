/* bl-profile.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-profile"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef G_OS_UNIX
#include <sys/mman.h>
#endif

#include "bl-big-array-private.h"
#include "bl-heap.h"
#include "bl-profile.h"
#include "bl-profile-private.h"

/* An open-addressing table from a 96-bit key to an index, used while the
 * profile is being built: (parent, name, file) → node, (file, line) → line,
 * (name, file) → function. */
typedef struct
{
  guint64 k1;
  guint32 k2;
  guint32 value;   /* index + 1; 0 marks an empty slot */
} BlSlot;

typedef struct
{
  BlSlot *slots;
  gsize   mask;
  gsize   used;
} BlIndexHash;

struct _BlProfile
{
  GObject        parent_instance;

  BlProfileInfo  info;
  gboolean       finished;
  char          *incomplete_reason;
  GString       *warning;

  /* strings */
  GStringChunk  *chunk;
  GHashTable    *string_ids;  /* const char * → id + 1 */
  GPtrArray     *strings;     /* id → const char * (in chunk) */

  /* nodes */
  BlNode        *nodes;
  gsize          n_nodes;
  gsize          nodes_cap;
  BlIndexHash    node_hash;
  GArray        *threads;     /* guint32 root node per thread */

  guint64       *self[BL_N_METRICS];
  /* Totals are made per metric when first asked for (see total_column()):
   * a window shows one metric at a time, and `info` needs only the grand
   * totals, which the finish keeps. On a million nodes each column is 8 MB. */
  guint64       *total[BL_N_METRICS];
  /* per node, the greatest depth in its subtree of a node with a non-zero
   * total (see bl_profile_get_deepest_array()), made with the totals when
   * both are asked for first */
  guint32       *deepest[BL_N_METRICS];
  /* held while a metric's lazy column is made, so that two threads asking
   * at once (a table's worker, the flame graph's) make it once */
  GMutex         column_lock[BL_N_METRICS];
  guint64        grand_total[BL_N_METRICS];
  gboolean       has_metric[BL_N_METRICS];
  guint8         decimals[BL_N_METRICS];   /* values in 10^-decimals units */

  /* functions (built by finish) */
  BlFunction    *functions;
  gsize          n_functions;
  guint32       *node_function;
  /* Like the node totals, which nodes are outermost and the functions'
   * sums are made when first asked for (outermost_of(), function_sums()):
   * `info` needs neither, and on a million nodes they take some 25 ms and
   * 10 ms a metric. */
  guint8        *outermost;       /* per node: no ancestor of its function */
  guint64       *function_sums[BL_N_METRICS];   /* self, then total, per function */

  /* lines */
  BlLine        *lines;
  gsize          n_lines;
  gsize          lines_cap;
  BlIndexHash    line_hash;
  guint64       *line_values[BL_N_METRICS];

  /* optional parts (histogram, time order); NULL when the format has none */
  struct _BlProfileExtras *extras;
};

G_DEFINE_FINAL_TYPE (BlProfile, bl_profile, G_TYPE_OBJECT)

static inline gboolean
metric_present (BlProfile  *self,
                BlMetricId  metric)
{
  return metric >= 0 && metric < BL_N_METRICS && self->has_metric[metric];
}

static void extras_free (struct _BlProfileExtras *extras);

static inline guint64
mix64 (guint64 k1,
       guint32 k2)
{
  guint64 h = k1 * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  h ^= (h >> 29) ^ ((guint64) k2 * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9));
  h ^= h >> 32;

  return h;
}

static void
index_hash_init (BlIndexHash *hash)
{
  hash->mask = 1023;
  hash->used = 0;
  hash->slots = g_new0 (BlSlot, hash->mask + 1);
}

static void
index_hash_clear (BlIndexHash *hash)
{
  g_clear_pointer (&hash->slots, g_free);
  hash->mask = 0;
  hash->used = 0;
}

static void
index_hash_grow (BlIndexHash *hash)
{
  BlSlot *old = hash->slots;
  gsize old_size = hash->mask + 1;
  gsize new_size = old_size * 2;

  hash->slots = g_new0 (BlSlot, new_size);
  hash->mask = new_size - 1;

  for (gsize i = 0; i < old_size; i++)
    {
      if (old[i].value != 0)
        {
          gsize pos = mix64 (old[i].k1, old[i].k2) & hash->mask;

          while (hash->slots[pos].value != 0)
            pos = (pos + 1) & hash->mask;
          hash->slots[pos] = old[i];
        }
    }

  g_free (old);
}

/* Returns the slot for the key: either the one that holds it or the empty
 * one where it belongs. */
static inline BlSlot *
index_hash_find (BlIndexHash *hash,
                 guint64      k1,
                 guint32      k2)
{
  gsize pos = mix64 (k1, k2) & hash->mask;

  for (;;)
    {
      BlSlot *slot = &hash->slots[pos];

      if (slot->value == 0 || (slot->k1 == k1 && slot->k2 == k2))
        return slot;
      pos = (pos + 1) & hash->mask;
    }
}

static inline void
index_hash_insert (BlIndexHash *hash,
                   BlSlot      *slot,
                   guint64      k1,
                   guint32      k2,
                   guint32      value)
{
  slot->k1 = k1;
  slot->k2 = k2;
  slot->value = value + 1;
  hash->used++;
  if (hash->used * 2 > hash->mask)
    index_hash_grow (hash);
}

static void
bl_profile_finalize (GObject *object)
{
  BlProfile *self = (BlProfile *) object;

  g_free (self->info.target);
  g_free (self->info.supplemental);
  g_free (self->info.version);
  g_free (self->info.vendor);
  g_free (self->info.model);
  g_free (self->info.firmware);
  g_free (self->incomplete_reason);
  g_string_free (self->warning, TRUE);

  g_hash_table_unref (self->string_ids);
  g_ptr_array_unref (self->strings);
  g_string_chunk_free (self->chunk);

  g_free (self->nodes);
  index_hash_clear (&self->node_hash);
  g_array_unref (self->threads);

  g_free (self->functions);
  g_free (self->node_function);
  g_free (self->outermost);
  g_free (self->lines);
  index_hash_clear (&self->line_hash);

  for (guint m = 0; m < BL_N_METRICS; m++)
    {
      g_free (self->self[m]);
      g_free (self->total[m]);
      g_free (self->deepest[m]);
      g_free (self->function_sums[m]);
      g_free (self->line_values[m]);
    }

  extras_free (self->extras);
  for (guint m = 0; m < BL_N_METRICS; m++)
    g_mutex_clear (&self->column_lock[m]);

  G_OBJECT_CLASS (bl_profile_parent_class)->finalize (object);
}

static void
bl_profile_class_init (BlProfileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = bl_profile_finalize;
}

static void
bl_profile_init (BlProfile *self)
{
  self->warning = g_string_new (NULL);
  for (guint m = 0; m < BL_N_METRICS; m++)
    g_mutex_init (&self->column_lock[m]);
  self->chunk = g_string_chunk_new (64 * 1024);
  self->string_ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->strings = g_ptr_array_new ();
  self->threads = g_array_new (FALSE, FALSE, sizeof (guint32));
  index_hash_init (&self->node_hash);
  index_hash_init (&self->line_hash);

  /* id 0: the empty string, "no string" */
  g_ptr_array_add (self->strings, (gpointer) "");
  g_hash_table_insert (self->string_ids, (gpointer) "", GUINT_TO_POINTER (1));
}

/**
 * bl_profile_new:
 * @format: a static string naming the format the profile was read from
 *
 * Returns: (transfer full): a new, empty, mutable profile
 */
BlProfile *
bl_profile_new (const char *format)
{
  BlProfile *self = g_object_new (BL_TYPE_PROFILE, NULL);

  self->info.format = format;

  return self;
}

guint32
bl_profile_intern_len (BlProfile  *self,
                       const char *str,
                       gssize      len)
{
  g_autofree char *copy = NULL;
  gpointer found;
  const char *stored;
  guint32 id;

  g_return_val_if_fail (BL_IS_PROFILE (self), 0);
  g_return_val_if_fail (!self->finished, 0);

  if (str == NULL)
    return 0;

  if (len >= 0)
    str = copy = g_strndup (str, len);

  if ((found = g_hash_table_lookup (self->string_ids, str)))
    return GPOINTER_TO_UINT (found) - 1;

  stored = g_string_chunk_insert (self->chunk, str);
  id = self->strings->len;
  g_ptr_array_add (self->strings, (gpointer) stored);
  g_hash_table_insert (self->string_ids, (gpointer) stored, GUINT_TO_POINTER (id + 1));

  return id;
}

static void
index_hash_copy (BlIndexHash       *dest,
                 const BlIndexHash *src)
{
  g_free (dest->slots);
  dest->slots = g_memdup2 (src->slots, (src->mask + 1) * sizeof (BlSlot));
  dest->mask = src->mask;
  dest->used = src->used;
}

static guint64 *
copy_metric_array (const guint64 *array,
                   gsize          cap)
{
  return array != NULL ? g_memdup2 (array, MAX (cap, 1) * sizeof (guint64)) : NULL;
}

BlProfile *
_bl_profile_copy_unfinished (BlProfile *self)
{
  BlProfile *copy;
  BlProfileInfo *info;

  g_return_val_if_fail (BL_IS_PROFILE (self), NULL);
  g_return_val_if_fail (!self->finished, NULL);

  copy = bl_profile_new (self->info.format);
  info = &copy->info;
  *info = self->info;
  info->target = g_strdup (self->info.target);
  info->supplemental = g_strdup (self->info.supplemental);
  info->version = g_strdup (self->info.version);
  info->vendor = g_strdup (self->info.vendor);
  info->model = g_strdup (self->info.model);
  info->firmware = g_strdup (self->info.firmware);
  copy->incomplete_reason = g_strdup (self->incomplete_reason);
  g_string_append_len (copy->warning, self->warning->str, self->warning->len);

  /* the same ids, in the same order */
  for (guint i = 1; i < self->strings->len; i++)
    bl_profile_intern (copy, g_ptr_array_index (self->strings, i));

  copy->nodes = g_memdup2 (self->nodes, MAX (self->nodes_cap, 1) * sizeof (BlNode));
  copy->n_nodes = self->n_nodes;
  copy->nodes_cap = self->nodes_cap;
  index_hash_copy (&copy->node_hash, &self->node_hash);
  g_array_append_vals (copy->threads, self->threads->data, self->threads->len);

  copy->lines = self->lines != NULL
                  ? g_memdup2 (self->lines, self->lines_cap * sizeof (BlLine)) : NULL;
  copy->n_lines = self->n_lines;
  copy->lines_cap = self->lines_cap;
  index_hash_copy (&copy->line_hash, &self->line_hash);

  for (guint m = 0; m < BL_N_METRICS; m++)
    {
      copy->has_metric[m] = self->has_metric[m];
      copy->decimals[m] = self->decimals[m];
      copy->self[m] = copy_metric_array (self->self[m], self->nodes_cap);
      copy->line_values[m] = copy_metric_array (self->line_values[m], self->lines_cap);
    }

  return copy;
}

guint32
bl_profile_intern (BlProfile  *self,
                   const char *str)
{
  return bl_profile_intern_len (self, str, -1);
}

static gpointer alloc_metric_column0 (gsize size);

/* Per node or line (see alloc_metric_column0()) */
static void
ensure_metric_array (guint64 **array,
                     gsize     cap)
{
  if (*array == NULL)
    *array = alloc_metric_column0 (sizeof (guint64) * MAX (cap, 1));
}

static guint32
append_node (BlProfile *self,
             guint32    parent,
             guint32    name,
             guint32    file,
             guint32    line)
{
  BlNode *node;
  guint32 index;

  if (self->n_nodes == self->nodes_cap)
    {
      gsize old_cap = self->nodes_cap;
      gsize new_cap = MAX (1024, old_cap * 2);

      if (new_cap >= BL_NODE_NONE)
        g_error ("Too many nodes in profile");

      self->nodes = g_renew (BlNode, self->nodes, new_cap);
      for (guint m = 0; m < BL_N_METRICS; m++)
        {
          if (self->self[m] != NULL)
            {
              self->self[m] = g_renew (guint64, self->self[m], new_cap);
              memset (self->self[m] + old_cap, 0, (new_cap - old_cap) * sizeof (guint64));
            }
        }
      self->nodes_cap = new_cap;
    }

  index = self->n_nodes++;
  node = &self->nodes[index];
  node->parent = parent;
  node->first_child = BL_NODE_NONE;
  node->next_sibling = BL_NODE_NONE;
  node->name = name;
  node->file = file;
  node->line = line;

  if (parent == BL_NODE_NONE)
    {
      node->depth = 0;
      node->thread = self->threads->len;
      g_array_append_val (self->threads, index);
    }
  else
    {
      BlNode *p = &self->nodes[parent];

      node->depth = p->depth + 1;
      node->thread = p->thread;
      node->next_sibling = p->first_child;
      p->first_child = index;
    }

  return index;
}

/**
 * bl_profile_add_thread:
 * @name: interned thread name
 *
 * Finds or creates the root node of the thread called @name.
 *
 * Returns: the root node's index
 */
guint32
bl_profile_add_thread (BlProfile *self,
                       guint32    name)
{
  return bl_profile_add_child (self, BL_NODE_NONE, name, 0, 0);
}

/**
 * bl_profile_add_child:
 * @parent: a node index, or %BL_NODE_NONE for a thread root
 *
 * Finds or creates the child of @parent for the function @name in @file.
 * @line (where the function is defined) is recorded by the first caller.
 *
 * Returns: the child's node index
 */
guint32
bl_profile_add_child (BlProfile *self,
                      guint32    parent,
                      guint32    name,
                      guint32    file,
                      guint32    line)
{
  guint64 k1 = ((guint64) parent << 32) | name;
  BlSlot *slot;
  guint32 index;

  g_return_val_if_fail (BL_IS_PROFILE (self), BL_NODE_NONE);
  g_return_val_if_fail (!self->finished, BL_NODE_NONE);
  g_return_val_if_fail (parent == BL_NODE_NONE || parent < self->n_nodes, BL_NODE_NONE);

  slot = index_hash_find (&self->node_hash, k1, file);
  if (slot->value != 0)
    return slot->value - 1;

  index = append_node (self, parent, name, file, line);
  index_hash_insert (&self->node_hash, slot, k1, file, index);

  return index;
}

void
bl_profile_enable_metric (BlProfile  *self,
                          BlMetricId  metric)
{
  g_return_if_fail (BL_IS_PROFILE (self));
  g_return_if_fail (metric >= 0 && metric < BL_N_METRICS);

  if (self->has_metric[metric])
    return;

  self->has_metric[metric] = TRUE;
  ensure_metric_array (&self->self[metric], self->nodes_cap);
  ensure_metric_array (&self->line_values[metric], self->lines_cap);
}

void
bl_profile_add_value (BlProfile  *self,
                      guint32     node,
                      BlMetricId  metric,
                      guint64     value)
{
  g_assert (node < self->n_nodes);
  g_assert (metric >= 0 && metric < BL_N_METRICS);

  if G_UNLIKELY (!self->has_metric[metric])
    bl_profile_enable_metric (self, metric);

  self->self[metric][node] = bl_saturating_add (self->self[metric][node], value);
}

void
bl_profile_sub_value (BlProfile  *self,
                      guint32     node,
                      BlMetricId  metric,
                      guint64     value)
{
  g_assert (node < self->n_nodes);
  g_assert (metric >= 0 && metric < BL_N_METRICS);

  if G_UNLIKELY (!self->has_metric[metric])
    bl_profile_enable_metric (self, metric);

  if (self->self[metric][node] >= value)
    self->self[metric][node] -= value;
  else
    self->self[metric][node] = 0;
}

/**
 * bl_profile_lookup_line:
 * @file: interned file name
 * @line: 1-based line number
 * @function: interned name of the function the line belongs to
 *
 * Returns: the index of the per-line record for (@file, @line), created if needed
 */
static guint32 append_line (BlProfile *self,
                            guint32    file,
                            guint32    line,
                            guint32    function);

guint32
bl_profile_lookup_line (BlProfile *self,
                        guint32    file,
                        guint32    line,
                        guint32    function)
{
  guint64 k1 = ((guint64) file << 32) | line;
  BlSlot *slot;
  guint32 index;

  g_return_val_if_fail (BL_IS_PROFILE (self), 0);
  g_return_val_if_fail (!self->finished, 0);

  slot = index_hash_find (&self->line_hash, k1, 0);
  if (slot->value != 0)
    return slot->value - 1;

  index = append_line (self, file, line, function);
  index_hash_insert (&self->line_hash, slot, k1, 0, index);

  return index;
}

static guint32
append_line (BlProfile *self,
             guint32    file,
             guint32    line,
             guint32    function)
{
  guint32 index;

  if (self->n_lines == self->lines_cap)
    {
      gsize old_cap = self->lines_cap;
      gsize new_cap = MAX (256, old_cap * 2);

      self->lines = g_renew (BlLine, self->lines, new_cap);
      for (guint m = 0; m < BL_N_METRICS; m++)
        {
          if (self->line_values[m] != NULL)
            {
              self->line_values[m] = g_renew (guint64, self->line_values[m], new_cap);
              memset (self->line_values[m] + old_cap, 0, (new_cap - old_cap) * sizeof (guint64));
            }
        }
      self->lines_cap = new_cap;
    }

  index = self->n_lines++;
  self->lines[index].file = file;
  self->lines[index].line = line;
  self->lines[index].function = function;

  return index;
}

void
bl_profile_add_line_value (BlProfile  *self,
                           guint32     line_index,
                           BlMetricId  metric,
                           guint64     value)
{
  g_assert (line_index < self->n_lines);

  if G_UNLIKELY (!self->has_metric[metric])
    bl_profile_enable_metric (self, metric);

  self->line_values[metric][line_index] =
    bl_saturating_add (self->line_values[metric][line_index], value);
}

void
bl_profile_sub_line_value (BlProfile  *self,
                           guint32     line_index,
                           BlMetricId  metric,
                           guint64     value)
{
  g_assert (line_index < self->n_lines);

  if G_UNLIKELY (!self->has_metric[metric])
    bl_profile_enable_metric (self, metric);

  if (self->line_values[metric][line_index] >= value)
    self->line_values[metric][line_index] -= value;
  else
    self->line_values[metric][line_index] = 0;
}

BlProfileInfo *
bl_profile_get_info_mutable (BlProfile *self)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), NULL);
  g_return_val_if_fail (!self->finished, NULL);

  return &self->info;
}

/**
 * bl_profile_set_incomplete:
 * @reason: one sentence saying where the data ended
 *
 * Marks the profile as holding only part of its stream.
 */
void
bl_profile_set_incomplete (BlProfile  *self,
                           const char *reason)
{
  g_return_if_fail (BL_IS_PROFILE (self));

  if (self->incomplete_reason == NULL)
    self->incomplete_reason = g_strdup (reason);
  bl_profile_add_warning (self, reason);
}

void
bl_profile_add_warning (BlProfile  *self,
                        const char *warning)
{
  g_return_if_fail (BL_IS_PROFILE (self));
  g_return_if_fail (warning != NULL);

  if (self->warning->len > 0)
    g_string_append_c (self->warning, ' ');
  g_string_append (self->warning, warning);
}

/* The per-node arrays are ordinary heap memory, on 4 KiB pages. Huge pages
 * made their first touch cheaper while the system had just freed memory
 * (0.1 against 0.47 ms per MB), but on a virtual machine that reports free
 * memory to its host, a huge page taken a few seconds after memory was
 * freed comes back from the host: 2.6 ms per MB. `info` on a million-node
 * .bsprof took 0.33 s instead of 0.14 s so, and 0.17–0.24 s on 4 KiB pages
 * either way. What is visited at random keeps huge pages, where the page
 * walks saved outweigh it: the decoders' hash tables (bl-big-array.c) and
 * the self-value columns (alloc_metric_column0()). */
static gpointer
alloc_per_node (gsize size)
{
  return g_malloc (MAX (size, 1));
}

/* Zero-filled: from calloc(), which knows when its memory is fresh from
 * the kernel and so zero already (a memset() would write every page a
 * second time). */
static gpointer
alloc_per_node0 (gsize size)
{
  return g_malloc0 (MAX (size, 1));
}

/* A self-value column: readers add to it node by node in whatever order
 * their samples come. On 4 KiB pages bench-bsprof's many-paths shape (31 M
 * samples over a million nodes) decoded 0.2 s slower, of about 1.1 s, in
 * every run; where the time went is not pinned down (the .bsprof reader's
 * flush writes the columns mostly in node order). Zero-filled, with huge
 * pages asked for the whole 2 MiB pages inside. */
#define HUGE_PAGE ((gsize) 2 << 20)

static gpointer
alloc_metric_column0 (gsize size)
{
  gpointer data = g_malloc0 (MAX (size, 1));

#if defined(G_OS_UNIX) && defined(MADV_HUGEPAGE)
  if (size >= 2 * HUGE_PAGE)
    {
      guintptr start = ((guintptr) data + HUGE_PAGE - 1) & ~(guintptr) (HUGE_PAGE - 1);
      guintptr end = ((guintptr) data + size) & ~(guintptr) (HUGE_PAGE - 1);

      if (end > start)
        madvise ((gpointer) start, end - start, MADV_HUGEPAGE);
    }
#endif

  return data;
}

typedef struct
{
  guint32 name_rank;
  guint32 file_rank;
  guint32 node;
} ChildKey;

static int
compare_child_keys (gconstpointer a,
                    gconstpointer b,
                    gpointer      user_data)
{
  const ChildKey *ka = a;
  const ChildKey *kb = b;

  if (ka->name_rank != kb->name_rank)
    return ka->name_rank < kb->name_rank ? -1 : 1;
  if (ka->file_rank != kb->file_rank)
    return ka->file_rank < kb->file_rank ? -1 : 1;

  return 0;
}

static int
compare_string_ids (gconstpointer a,
                    gconstpointer b,
                    gpointer      user_data)
{
  GPtrArray *strings = user_data;

  return strcmp (strings->pdata[*(const guint32 *) a], strings->pdata[*(const guint32 *) b]);
}

/* Children by name, then file. Strings are interned, so ranking the string
 * table once turns every comparison into two integer ones. */
/* Node @i of the sweep backwards, whose total is not zero: the deepest of
 * its subtree is final, and counts for its parent's */
static inline void
note_deepest (guint32      *deepest,
              const BlNode *node,
              gsize         i)
{
  guint32 d = MAX (deepest[i], node->depth);

  deepest[i] = d;
  if (node->parent != BL_NODE_NONE)
    deepest[node->parent] = MAX (deepest[node->parent], d);
}

/* The totals of one metric: a node's self value plus its children's
 * totals, in one sweep backwards (children come after their parents).
 * With @deepest, the same sweep writes the deepest column: a node's total
 * is final when the sweep reaches it, so whether it counts is known then. */
static guint64 *
compute_total_column (BlProfile  *self,
                      BlMetricId  metric,
                      guint32    *deepest)
{
  const guint64 *own = self->self[metric];
  guint64 *total = alloc_per_node (sizeof (guint64) * MAX (self->n_nodes, 1));

  if (self->n_nodes > 0)
    memcpy (total, own, self->n_nodes * sizeof (guint64));
  if (deepest == NULL)
    {
      for (gsize i = self->n_nodes; i-- > 0;)
        {
          guint32 parent = self->nodes[i].parent;

          if (parent != BL_NODE_NONE)
            total[parent] = bl_saturating_add (total[parent], total[i]);
        }
      return total;
    }

  for (gsize i = self->n_nodes; i-- > 0;)
    {
      const BlNode *node = &self->nodes[i];

      if (total[i] != 0)
        {
          note_deepest (deepest, node, i);
          if (node->parent != BL_NODE_NONE)
            total[node->parent] = bl_saturating_add (total[node->parent], total[i]);
        }
    }

  return total;
}

/* The deepest column from totals made before */
static void
compute_deepest_column (BlProfile     *self,
                        const guint64 *total,
                        guint32       *deepest)
{
  for (gsize i = self->n_nodes; i-- > 0;)
    if (total[i] != 0)
      note_deepest (deepest, &self->nodes[i], i);
}

/* The totals of a metric the profile has, made on the first call. A
 * finished profile is shared between threads: the first to ask makes the
 * column, and another asking meanwhile waits for it. */
static const guint64 *
total_column (BlProfile  *self,
              BlMetricId  metric)
{
  guint64 *total = __atomic_load_n (&self->total[metric], __ATOMIC_ACQUIRE);

  if G_LIKELY (total != NULL)
    return total;

  g_mutex_lock (&self->column_lock[metric]);
  total = self->total[metric];
  if (total == NULL)
    {
      total = compute_total_column (self, metric, NULL);
      __atomic_store_n (&self->total[metric], total, __ATOMIC_RELEASE);
    }
  g_mutex_unlock (&self->column_lock[metric]);

  return total;
}

static const guint32 *
deepest_column (BlProfile  *self,
                BlMetricId  metric)
{
  guint32 *deepest = __atomic_load_n (&self->deepest[metric], __ATOMIC_ACQUIRE);

  if G_LIKELY (deepest != NULL)
    return deepest;

  g_mutex_lock (&self->column_lock[metric]);
  deepest = self->deepest[metric];
  if (deepest == NULL)
    {
      /* zeroed pages from the system: only those written are touched */
      deepest = alloc_per_node0 (sizeof (guint32) * MAX (self->n_nodes, 1));
      if (self->total[metric] == NULL)
        __atomic_store_n (&self->total[metric], compute_total_column (self, metric, deepest),
                          __ATOMIC_RELEASE);
      else
        compute_deepest_column (self, self->total[metric], deepest);
      __atomic_store_n (&self->deepest[metric], deepest, __ATOMIC_RELEASE);
    }
  g_mutex_unlock (&self->column_lock[metric]);

  return deepest;
}

static void
sort_children (BlProfile    *self,
               const guint8 *in_order)
{
  guint n_strings = self->strings->len;
  g_autofree guint32 *rank = NULL;
  g_autoptr(GArray) kids = g_array_new (FALSE, FALSE, sizeof (ChildKey));

  for (gsize i = 0; i < self->n_nodes; i++)
    {
      BlNode *node;

      if (in_order != NULL && in_order[i])
        continue;
      node = &self->nodes[i];
      if (node->first_child == BL_NODE_NONE ||
          self->nodes[node->first_child].next_sibling == BL_NODE_NONE)
        continue;

      /* the strings' ranks, when a first list needs sorting */
      if (rank == NULL)
        {
          g_autofree guint32 *order = g_new (guint32, MAX (n_strings, 1));

          rank = g_new (guint32, MAX (n_strings, 1));
          for (guint s = 0; s < n_strings; s++)
            order[s] = s;
          g_qsort_with_data (order, n_strings, sizeof (guint32), compare_string_ids,
                             self->strings);
          for (guint s = 0; s < n_strings; s++)
            rank[order[s]] = s;
        }

      g_array_set_size (kids, 0);
      for (guint32 c = node->first_child; c != BL_NODE_NONE; c = self->nodes[c].next_sibling)
        {
          ChildKey key = { rank[self->nodes[c].name], rank[self->nodes[c].file], c };

          g_array_append_val (kids, key);
        }

      /* stable, as the comparison of names and files was; most lists are
       * short, and insertion sort is quicker on those than a merge sort */
      if (kids->len <= 16)
        {
          ChildKey *k = (ChildKey *) kids->data;

          for (guint j = 1; j < kids->len; j++)
            {
              ChildKey key = k[j];
              guint at = j;

              while (at > 0 && compare_child_keys (&key, &k[at - 1], NULL) < 0)
                {
                  k[at] = k[at - 1];
                  at--;
                }
              k[at] = key;
            }
        }
      else
        {
          g_qsort_with_data (kids->data, kids->len, sizeof (ChildKey),
                             compare_child_keys, NULL);
        }

      node->first_child = g_array_index (kids, ChildKey, 0).node;
      for (guint k = 0; k < kids->len; k++)
        {
          guint32 c = g_array_index (kids, ChildKey, k).node;

          self->nodes[c].next_sibling = k + 1 < kids->len
            ? g_array_index (kids, ChildKey, k + 1).node
            : BL_NODE_NONE;
        }
    }
}

/* Functions numbered in the order of their first node, as build_functions()
 * numbers them, from keys the caller already has: nodes with the same key
 * are the same function, and only they. */
static void
build_functions_from_keys (BlProfile     *self,
                           const guint32 *keys,
                           guint          n_keys)
{
  g_autofree guint32 *function_of_key = g_new (guint32, MAX (n_keys, 1));

  memset (function_of_key, 0xff, sizeof (guint32) * MAX (n_keys, 1));
  self->functions = g_new (BlFunction, MAX (MIN (n_keys, self->n_nodes), 1));
  self->node_function = alloc_per_node (sizeof (guint32) * MAX (self->n_nodes, 1));

  for (gsize i = 0; i < self->n_nodes; i++)
    {
      const BlNode *node = &self->nodes[i];
      guint32 *function = &function_of_key[keys[i]];

      if (*function == G_MAXUINT32)
        {
          *function = self->n_functions++;
          self->functions[*function].name = node->name;
          self->functions[*function].file = node->file;
          self->functions[*function].line = node->line;
          self->functions[*function].n_nodes = 0;
        }
      self->node_function[i] = *function;
      self->functions[*function].n_nodes++;
    }
}

/* Totals without double counting recursion: a node counts towards its
 * function's total only when no ancestor belongs to the same function (it
 * is outermost). That is a walk of the tree depth first, keeping a count
 * per function of how often it is on the current path; but following the
 * links of a large tree is a cache miss a node, one after the other. So
 * the nodes are first given their places in a depth-first order, in two
 * sweeps over the arrays (children come after their parents): the sizes
 * of the subtrees backwards, then forwards each node's place, the next
 * free one in its parent's range (siblings in the order of their indices:
 * which node is outermost does not depend on the order of siblings). Each
 * node's function and where its subtree ends are written to its place,
 * and the walk is a sweep over those, in order, with a stack of the
 * ranges it is in. Every access is in order, or one of many independent
 * ones the processor can overlap. */
static guint8 *
mark_outermost (BlProfile *self)
{
  gsize n = self->n_nodes;
  guint32 *cursor = alloc_per_node (sizeof (guint32) * MAX (n, 1));
  guint32 *place = alloc_per_node (sizeof (guint32) * MAX (n, 1));
  guint32 *place_function = alloc_per_node (sizeof (guint32) * MAX (n, 1));
  guint32 *place_end = alloc_per_node (sizeof (guint32) * MAX (n, 1));
  guint8 *place_outermost = alloc_per_node (MAX (n, 1));
  guint32 *on_stack = g_new0 (guint32, MAX (self->n_functions, 1));
  guint32 *stack_end = g_new (guint32, MAX (n, 1));
  guint32 *stack_function = g_new (guint32, MAX (n, 1));
  guint8 *outermost = g_new0 (guint8, MAX (n, 1));
  guint32 next_root = 0;
  gsize depth = 0;

  /* subtree sizes */
  for (gsize i = 0; i < n; i++)
    cursor[i] = 1;
  for (gsize i = n; i-- > 0;)
    {
      guint32 parent = self->nodes[i].parent;

      if (parent != BL_NODE_NONE)
        cursor[parent] += cursor[i];
    }

  /* places: a root after the previous root's subtree, a child at its
   * parent's cursor, which moves past the child's subtree; the cursor of
   * a node placed is then the place of its first child */
  for (gsize i = 0; i < n; i++)
    {
      guint32 parent = self->nodes[i].parent;
      guint32 size = cursor[i];
      guint32 at;

      if (parent == BL_NODE_NONE)
        {
          at = next_root;
          next_root += size;
        }
      else
        {
          at = cursor[parent];
          cursor[parent] += size;
        }
      cursor[i] = at + 1;
      place[i] = at;
      place_function[at] = self->node_function[i];
      place_end[at] = at + size;
    }

  /* the walk */
  for (gsize at = 0; at < n; at++)
    {
      guint32 f = place_function[at];

      while (depth > 0 && stack_end[depth - 1] <= at)
        on_stack[stack_function[--depth]]--;
      place_outermost[at] = on_stack[f] == 0;
      on_stack[f]++;
      stack_end[depth] = place_end[at];
      stack_function[depth] = f;
      depth++;
    }

  for (gsize i = 0; i < n; i++)
    outermost[i] = place_outermost[place[i]];

  g_free (cursor);
  g_free (place);
  g_free (place_function);
  g_free (place_end);
  g_free (place_outermost);
  g_free (on_stack);
  g_free (stack_end);
  g_free (stack_function);

  return outermost;
}

/* Which nodes are outermost, made on the first call (a finished profile is
 * shared between threads: two may both make it, and the first one stored
 * is kept). */
static const guint8 *
outermost_of (BlProfile *self)
{
  guint8 *outermost = __atomic_load_n (&self->outermost, __ATOMIC_ACQUIRE);
  guint8 *expected = NULL;

  if G_LIKELY (outermost != NULL)
    return outermost;

  outermost = mark_outermost (self);
  if (!__atomic_compare_exchange_n (&self->outermost, &expected, outermost, FALSE,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    {
      g_free (outermost);
      outermost = expected;
    }

  return outermost;
}

static void
build_functions (BlProfile     *self,
                 const guint32 *keys,
                 guint          n_keys,
                 const guint8  *outermost)
{
  BlIndexHash hash;
  gsize cap = 256;

  if (keys != NULL)
    {
      build_functions_from_keys (self, keys, n_keys);
      goto outermost_nodes;
    }

  index_hash_init (&hash);
  self->functions = g_new (BlFunction, cap);
  self->node_function = g_new (guint32, MAX (self->n_nodes, 1));

  for (gsize i = 0; i < self->n_nodes; i++)
    {
      const BlNode *node = &self->nodes[i];
      guint64 k1 = node->parent == BL_NODE_NONE
        ? G_MAXUINT64                       /* thread roots are functions of their own */
        : node->name;
      guint32 k2 = node->parent == BL_NODE_NONE ? node->name : node->file;
      BlSlot *slot = index_hash_find (&hash, k1, k2);
      guint32 function;

      if (slot->value != 0)
        {
          function = slot->value - 1;
        }
      else
        {
          if (self->n_functions == cap)
            {
              cap *= 2;
              self->functions = g_renew (BlFunction, self->functions, cap);
            }
          self->functions[self->n_functions].name = node->name;
          self->functions[self->n_functions].file = node->file;
          self->functions[self->n_functions].line = node->line;
          self->functions[self->n_functions].n_nodes = 0;
          function = self->n_functions++;
          index_hash_insert (&hash, slot, k1, k2, function);   /* may move slot */
        }

      self->node_function[i] = function;
      self->functions[function].n_nodes++;
    }

  index_hash_clear (&hash);

outermost_nodes:
  /* else made when first asked for */
  if (outermost != NULL)
    self->outermost = g_memdup2 (outermost, MAX (self->n_nodes, 1));
}

/* A metric's sums per function, self values then totals (2 ×
 * n_functions), in one sweep backwards (children after their parents) into
 * a scratch column of node totals: a node's total is complete when the
 * sweep reaches it, so its function's values are summed in the same sweep
 * (sums that saturate come out the same in any order). A function's total
 * counts only its outermost nodes: a recursive call's total is already in
 * its outer call's. */
static guint64 *
compute_function_sums (BlProfile  *self,
                       BlMetricId  m)
{
  const guint64 *own = self->self[m];
  const guint32 *node_function = self->node_function;
  const guint8 *outermost = outermost_of (self);
  gsize n_functions = MAX (self->n_functions, 1);
  guint64 *sums = g_new0 (guint64, 2 * n_functions);
  guint64 *function_self = sums, *function_total = sums + n_functions;
  guint64 *scratch = alloc_per_node (sizeof (guint64) * MAX (self->n_nodes, 1));

  if (self->n_nodes > 0)
    memcpy (scratch, own, self->n_nodes * sizeof (guint64));
  for (gsize i = self->n_nodes; i-- > 0;)
    {
      guint32 parent = self->nodes[i].parent;
      guint32 f = node_function[i];

      if (parent != BL_NODE_NONE)
        scratch[parent] = bl_saturating_add (scratch[parent], scratch[i]);
      function_self[f] = bl_saturating_add (function_self[f], own[i]);
      if (outermost[i])
        function_total[f] = bl_saturating_add (function_total[f], scratch[i]);
    }
  g_free (scratch);

  return sums;
}

/* The sums per function of a metric the profile has, made on the first
 * call (see outermost_of()). */
static const guint64 *
function_sums (BlProfile  *self,
               BlMetricId  metric)
{
  guint64 *sums = __atomic_load_n (&self->function_sums[metric], __ATOMIC_ACQUIRE);
  guint64 *expected = NULL;

  if G_LIKELY (sums != NULL)
    return sums;

  sums = compute_function_sums (self, metric);
  if (!__atomic_compare_exchange_n (&self->function_sums[metric], &expected, sums, FALSE,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    {
      g_free (sums);
      sums = expected;
    }

  return sums;
}

static void sort_all_span_longs (BlProfile *self);

/* The totals and deepest column of a big profile's default metric, which a
 * window draws first, made in a thread of their own beside the rest of the
 * finish and after it: they read only the nodes' parents and depths and the
 * self values, which are final now. Whoever asks for them meanwhile waits
 * on the column's lock, or makes them itself if it comes first. Only where
 * they are wanted (bl_profile_set_warm_columns()): the command line's
 * summary does not read them, and would pay their 12 MB per million nodes. */
#define WARM_COLUMNS_NODES 100000

static gboolean warm_columns;

/**
 * bl_profile_set_warm_columns:
 * @warm: whether profiles finished from now on, in this process, have their
 *   default metric's totals made beside the finish when they are big
 *
 * For the window, which draws them first.
 */
void
bl_profile_set_warm_columns (gboolean warm)
{
  __atomic_store_n (&warm_columns, !!warm, __ATOMIC_RELAXED);
}

static gpointer
warm_columns_thread (gpointer data)
{
  BlProfile *self = data;

  deepest_column (self, bl_profile_get_default_metric (self));
  g_object_unref (self);

  return NULL;
}

static void
warm_default_columns (BlProfile *self)
{
  GThread *thread;

  if (!__atomic_load_n (&warm_columns, __ATOMIC_RELAXED) || self->n_nodes < WARM_COLUMNS_NODES ||
      bl_profile_get_default_metric (self) == BL_METRIC_INVALID)
    return;

  thread = g_thread_try_new ("bl-totals", warm_columns_thread, g_object_ref (self), NULL);
  if (thread == NULL)
    g_object_unref (self);
  else
    g_thread_unref (thread);
}

/**
 * bl_profile_finish:
 *
 * Sorts children by name, computes the grand totals and the functions, and
 * makes the profile immutable. The nodes' totals and the functions' sums
 * are made per metric when first asked for, and which nodes are outermost
 * on the first question.
 */
void
bl_profile_finish (BlProfile *self)
{
  _bl_profile_finish_from (self, NULL, 0, NULL, NULL);
}

/**
 * _bl_profile_finish_from:
 * @keys: (nullable): per node, a number below @n_keys that is the same for
 *   two nodes exactly when they belong to the same function (thread roots
 *   each their own), or %NULL
 * @outermost: (nullable): per node, whether no ancestor belongs to its
 *   function, or %NULL
 * @in_order: (nullable): per node, whether its children are linked in the
 *   order the finish sorts them into already (by name, then file), or %NULL
 *
 * bl_profile_finish() for a builder that knows what it computes already (a
 * transform knows its input's functions and children's order, and for
 * most kinds which nodes are outermost): the result is the same, without a hash lookup per node
 * nor a walk of the tree.
 */
void
_bl_profile_finish_from (BlProfile     *self,
                         const guint32 *keys,
                         guint          n_keys,
                         const guint8  *outermost,
                         const guint8  *in_order)
{
  g_return_if_fail (BL_IS_PROFILE (self));

  if (self->finished)
    return;

  index_hash_clear (&self->node_hash);
  index_hash_clear (&self->line_hash);

  warm_default_columns (self);
  sort_children (self, in_order);
  build_functions (self, keys, n_keys, outermost);

  /* The grand totals, the sums of the thread roots' totals, are the sums
   * of every node's self value (sums that saturate come out the same in
   * any grouping); the rest is made when first asked for. */
  for (guint m = 0; m < BL_N_METRICS; m++)
    {
      const guint64 *own = self->self[m];
      guint64 grand = self->grand_total[m];

      if (!self->has_metric[m])
        continue;
      for (gsize i = 0; i < self->n_nodes; i++)
        grand = bl_saturating_add (grand, own[i]);
      self->grand_total[m] = grand;
    }

  /* now, not by the readers of a finished profile (several threads) */
  sort_all_span_longs (self);

  self->finished = TRUE;
}

const BlProfileInfo *
bl_profile_get_info (BlProfile *self)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), NULL);

  return &self->info;
}

gboolean
bl_profile_is_finished (BlProfile *self)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), FALSE);

  return self->finished;
}

gboolean
bl_profile_is_incomplete (BlProfile *self)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), FALSE);

  return self->incomplete_reason != NULL;
}

const char *
bl_profile_get_incomplete_reason (BlProfile *self)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), NULL);

  return self->incomplete_reason;
}

/**
 * bl_profile_get_warning:
 *
 * Returns: (nullable): every warning the reader gave, or %NULL
 */
const char *
bl_profile_get_warning (BlProfile *self)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), NULL);

  return self->warning->len ? self->warning->str : NULL;
}

const char *
bl_profile_get_string (BlProfile *self,
                       guint32    id)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), "");

  if (id >= self->strings->len)
    return "";

  return self->strings->pdata[id];
}

guint
bl_profile_get_n_strings (BlProfile *self)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), 0);

  return self->strings->len;
}

/**
 * bl_profile_find_string:
 *
 * Returns: the id of @str, or %G_MAXUINT32 if the profile has no such string
 */
guint32
bl_profile_find_string (BlProfile  *self,
                        const char *str)
{
  gpointer found;

  g_return_val_if_fail (BL_IS_PROFILE (self), G_MAXUINT32);

  if ((found = g_hash_table_lookup (self->string_ids, str)))
    return GPOINTER_TO_UINT (found) - 1;

  return G_MAXUINT32;
}

guint
bl_profile_get_n_nodes (BlProfile *self)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), 0);

  return self->n_nodes;
}

const BlNode *
bl_profile_get_node (BlProfile *self,
                     guint32    node)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), NULL);
  g_return_val_if_fail (node < self->n_nodes, NULL);

  return &self->nodes[node];
}

const BlNode *
bl_profile_get_nodes (BlProfile *self)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), NULL);

  return self->nodes;
}

const char *
bl_profile_get_node_name (BlProfile *self,
                          guint32    node)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), "");
  g_return_val_if_fail (node < self->n_nodes, "");

  return self->strings->pdata[self->nodes[node].name];
}

const char *
bl_profile_get_node_file (BlProfile *self,
                          guint32    node)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), "");
  g_return_val_if_fail (node < self->n_nodes, "");

  return self->strings->pdata[self->nodes[node].file];
}

guint
bl_profile_get_n_threads (BlProfile *self)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), 0);

  return self->threads->len;
}

guint32
bl_profile_get_thread_root (BlProfile *self,
                            guint      thread)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), BL_NODE_NONE);
  g_return_val_if_fail (thread < self->threads->len, BL_NODE_NONE);

  return g_array_index (self->threads, guint32, thread);
}

const char *
bl_profile_get_thread_name (BlProfile *self,
                            guint      thread)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), "");
  g_return_val_if_fail (thread < self->threads->len, "");

  return bl_profile_get_node_name (self, g_array_index (self->threads, guint32, thread));
}

gboolean
bl_profile_has_metric (BlProfile  *self,
                       BlMetricId  metric)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), FALSE);

  if (metric < 0 || metric >= BL_N_METRICS)
    return FALSE;

  return self->has_metric[metric];
}

/**
 * bl_profile_list_metrics:
 * @metrics: (out caller-allocates) (array fixed-size=BL_N_METRICS): metric ids
 *
 * Returns: how many metrics the profile has, written to @metrics in table order
 */
guint
bl_profile_list_metrics (BlProfile  *self,
                         BlMetricId *metrics)
{
  guint n = 0;

  g_return_val_if_fail (BL_IS_PROFILE (self), 0);

  for (guint m = 0; m < BL_N_METRICS; m++)
    if (self->has_metric[m])
      metrics[n++] = m;

  return n;
}

BlMetricId
bl_profile_get_default_metric (BlProfile *self)
{
  static const BlMetricId preferred[] = {
    BL_METRIC_CPU, BL_METRIC_TIME_NS, BL_METRIC_SAMPLES, BL_METRIC_WEIGHT,
    BL_METRIC_WALL, BL_METRIC_ALLOC_BYTES, BL_METRIC_LIVE_BYTES, BL_METRIC_CALLS,
  };

  g_return_val_if_fail (BL_IS_PROFILE (self), BL_METRIC_INVALID);

  for (guint i = 0; i < G_N_ELEMENTS (preferred); i++)
    if (self->has_metric[preferred[i]])
      return preferred[i];

  for (guint m = 0; m < BL_N_METRICS; m++)
    if (self->has_metric[m])
      return m;

  return BL_METRIC_INVALID;
}

guint64
bl_profile_get_self (BlProfile  *self,
                     BlMetricId  metric,
                     guint32     node)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), 0);
  g_return_val_if_fail (node < self->n_nodes, 0);

  if (!metric_present (self, metric))
    return 0;

  return self->self[metric][node];
}

guint64
bl_profile_get_total (BlProfile  *self,
                      BlMetricId  metric,
                      guint32     node)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), 0);
  g_return_val_if_fail (self->finished, 0);
  g_return_val_if_fail (node < self->n_nodes, 0);

  if (!metric_present (self, metric))
    return 0;

  return total_column (self, metric)[node];
}

/**
 * bl_profile_get_self_array:
 *
 * Returns: (nullable): self values indexed by node, or %NULL if the profile
 *   lacks @metric
 */
const guint64 *
bl_profile_get_self_array (BlProfile  *self,
                           BlMetricId  metric)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), NULL);

  if (!metric_present (self, metric))
    return NULL;

  return self->self[metric];
}

const guint64 *
bl_profile_get_total_array (BlProfile  *self,
                            BlMetricId  metric)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), NULL);
  g_return_val_if_fail (self->finished, NULL);

  if (!metric_present (self, metric))
    return NULL;

  return total_column (self, metric);
}

/**
 * bl_profile_has_total_array:
 *
 * Returns: whether the totals of @metric are made already, so that asking
 *   for them costs nothing (they are made on the first call otherwise: a
 *   sweep over the nodes, some milliseconds on a million of them)
 */
gboolean
bl_profile_has_total_array (BlProfile  *self,
                            BlMetricId  metric)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), FALSE);

  return !metric_present (self, metric) ||
         __atomic_load_n (&self->total[metric], __ATOMIC_ACQUIRE) != NULL;
}

/**
 * bl_profile_get_deepest_array:
 *
 * Per node, the greatest depth of a node in its subtree (itself included)
 * whose total for @metric is not zero; for a node whose total is zero, 0.
 * A flame graph's rows below a node reach that far. Made on the first call,
 * with the totals in the same sweep when they are not made yet.
 *
 * Returns: (nullable): n_nodes depths, or %NULL when @metric is absent
 */
const guint32 *
bl_profile_get_deepest_array (BlProfile  *self,
                              BlMetricId  metric)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), NULL);
  g_return_val_if_fail (self->finished, NULL);

  if (!metric_present (self, metric))
    return NULL;

  return deepest_column (self, metric);
}

guint64
bl_profile_get_grand_total (BlProfile  *self,
                            BlMetricId  metric)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), 0);
  g_return_val_if_fail (self->finished, 0);

  if (!metric_present (self, metric))
    return 0;

  return self->grand_total[metric];
}

/**
 * bl_profile_set_metric_decimals:
 * @decimals: how many decimal places the stored values of @metric have
 *
 * Declares that the values of @metric (self, totals, lines, spans) are
 * whole numbers of 10^-@decimals of the metric's base unit. See
 * bl-profile.h.
 */
void
bl_profile_set_metric_decimals (BlProfile  *self,
                                BlMetricId  metric,
                                guint       decimals)
{
  g_return_if_fail (BL_IS_PROFILE (self));
  g_return_if_fail (!self->finished);
  g_return_if_fail (metric >= 0 && metric < BL_N_METRICS);
  g_return_if_fail (decimals <= BL_PROFILE_MAX_DECIMALS);

  self->decimals[metric] = (guint8) decimals;
}

guint
bl_profile_get_metric_decimals (BlProfile  *self,
                                BlMetricId  metric)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), 0);

  if (metric < 0 || metric >= BL_N_METRICS)
    return 0;

  return self->decimals[metric];
}

/**
 * bl_profile_get_metric_scale:
 *
 * Returns: 10^decimals: how many stored units make one base unit of @metric
 */
guint64
bl_profile_get_metric_scale (BlProfile  *self,
                             BlMetricId  metric)
{
  guint64 scale = 1;

  for (guint i = bl_profile_get_metric_decimals (self, metric); i > 0; i--)
    scale *= 10;

  return scale;
}

/**
 * bl_profile_to_base_unit:
 *
 * Returns: a stored @value of @metric in the metric's base unit
 */
double
bl_profile_to_base_unit (BlProfile  *self,
                         BlMetricId  metric,
                         guint64     value)
{
  return (double) value / (double) bl_profile_get_metric_scale (self, metric);
}

/**
 * bl_profile_append_exact_value:
 *
 * Appends a stored @value of @metric as the exact decimal number of base
 * units it stands for ("1.8"); a plain integer when the metric has no
 * decimals, as before.
 */
void
bl_profile_append_exact_value (BlProfile  *self,
                               BlMetricId  metric,
                               guint64     value,
                               GString    *out)
{
  bl_append_decimal (out, value, bl_profile_get_metric_decimals (self, metric));
}

/**
 * bl_profile_format_value:
 *
 * Like bl_metric_format_value(), for a stored @value of @metric in this
 * profile: fractions are shown where they matter (up to three decimals),
 * and larger values as bl_metric_format_value() shows them.
 *
 * Returns: (transfer full): the text
 */
char *
bl_profile_format_value (BlProfile  *self,
                         BlMetricId  metric,
                         guint64     value)
{
  guint decimals = bl_profile_get_metric_decimals (self, metric);
  guint64 scale = bl_profile_get_metric_scale (self, metric);
  guint64 whole = value / scale;
  guint shown = MIN (decimals, 3);
  guint64 drop = 1;
  g_autoptr(GString) number = NULL;
  BlUnit unit;

  g_return_val_if_fail (metric >= 0 && metric < BL_N_METRICS, NULL);

  if (decimals == 0)
    return bl_metric_format_value (metric, value);

  /* the value rounded to at most three decimals */
  for (guint i = shown; i < decimals; i++)
    drop *= 10;
  number = g_string_new (NULL);
  bl_append_decimal (number, value / drop + (value % drop >= drop - drop / 2 ? 1 : 0), shown);

  unit = bl_metric_get_info (metric)->unit;
  switch (unit)
    {
    case BL_UNIT_NANOSECONDS:
      if (whole < 1000)
        /* Translators: a time in nanoseconds with a fraction, e.g. "1.5 ns" */
        return g_strdup_printf (_("%s ns"), number->str);
      break;
    case BL_UNIT_MICROSECONDS:
      if (whole < 1000)
        /* Translators: a time in microseconds with a fraction, e.g. "1.5 µs" */
        return g_strdup_printf (_("%s µs"), number->str);
      break;
    case BL_UNIT_BYTES:
      if (whole < 1024)
        /* Translators: a size in bytes with a fraction, e.g. "33.25 B" */
        return g_strdup_printf (_("%s B"), number->str);
      break;
    case BL_UNIT_COUNT:
    case BL_UNIT_NONE:
    default:
      return g_string_free (g_steal_pointer (&number), FALSE);
    }

  return bl_metric_format_value (metric, (guint64) llround ((double) value / (double) scale));
}

guint
bl_profile_get_n_functions (BlProfile *self)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), 0);

  return self->n_functions;
}

const BlFunction *
bl_profile_get_function (BlProfile *self,
                         guint32    function)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), NULL);
  g_return_val_if_fail (function < self->n_functions, NULL);

  return &self->functions[function];
}

guint32
bl_profile_get_node_function (BlProfile *self,
                              guint32    node)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), 0);
  g_return_val_if_fail (self->finished, 0);
  g_return_val_if_fail (node < self->n_nodes, 0);

  return self->node_function[node];
}

/**
 * bl_profile_is_outermost:
 *
 * Returns: whether no ancestor of @node belongs to @node's function, that
 *   is, whether @node's totals count towards its function's totals (a
 *   recursive call's do not: its outermost call already holds them)
 */
gboolean
bl_profile_is_outermost (BlProfile *self,
                         guint32    node)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), FALSE);
  g_return_val_if_fail (self->finished, FALSE);
  g_return_val_if_fail (node < self->n_nodes, FALSE);

  return outermost_of (self)[node];
}

guint64
bl_profile_get_function_self (BlProfile  *self,
                              BlMetricId  metric,
                              guint32     function)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), 0);
  g_return_val_if_fail (function < self->n_functions, 0);

  if (!metric_present (self, metric))
    return 0;

  return function_sums (self, metric)[function];
}

guint64
bl_profile_get_function_total (BlProfile  *self,
                               BlMetricId  metric,
                               guint32     function)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), 0);
  g_return_val_if_fail (function < self->n_functions, 0);

  if (!metric_present (self, metric))
    return 0;

  return function_sums (self, metric)[MAX (self->n_functions, 1) + function];
}

guint
bl_profile_get_n_lines (BlProfile *self)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), 0);

  return self->n_lines;
}

const BlLine *
bl_profile_get_line (BlProfile *self,
                     guint32    line_index)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), NULL);
  g_return_val_if_fail (line_index < self->n_lines, NULL);

  return &self->lines[line_index];
}

guint64
bl_profile_get_line_value (BlProfile  *self,
                           BlMetricId  metric,
                           guint32     line_index)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), 0);
  g_return_val_if_fail (line_index < self->n_lines, 0);

  if (!metric_present (self, metric))
    return 0;

  return self->line_values[metric][line_index];
}

/**
 * bl_profile_dup_stack_string:
 * @separator: the character between frames, e.g. ';'
 *
 * Returns: (transfer full): "thread;f1;…;node" for @node
 */
char *
bl_profile_dup_stack_string (BlProfile *self,
                             guint32    node,
                             char       separator)
{
  GString *str;
  guint32 path[1024];
  guint depth = 0;
  g_autofree guint32 *heap = NULL;
  guint32 *frames = path;

  g_return_val_if_fail (BL_IS_PROFILE (self), NULL);
  g_return_val_if_fail (node < self->n_nodes, NULL);

  if (self->nodes[node].depth + 1 > G_N_ELEMENTS (path))
    frames = heap = g_new (guint32, self->nodes[node].depth + 1);

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

/* ---- optional parts: histogram and time order --------------------------- */

typedef struct
{
  GArray  *spans;       /* BlSpan */
  GArray  *longs;       /* BlSpanLong, or NULL */
  gboolean longs_unsorted;
  GArray  *samples;     /* BlOrderedSample, or NULL */
  guint64  start;
  guint64  end;
  gboolean has_range;
} ThreadTime;

struct _BlProfileExtras
{
  BlHistogramBucket *histogram;
  guint              n_buckets;
  GPtrArray         *times;      /* ThreadTime * per thread, or NULL */
  GArray            *frames;     /* BlFrame, or NULL */
  GArray            *node_frame; /* guint32 frame per node (up to the last with one) */
  GPtrArray         *heaps;      /* BlHeap, or NULL */
  GPtrArray         *heap_labels; /* char *, "" if none */
};

static void
thread_time_free (gpointer data)
{
  ThreadTime *tt = data;

  if (tt == NULL)
    return;
  g_array_unref (tt->spans);
  g_clear_pointer (&tt->longs, g_array_unref);
  g_clear_pointer (&tt->samples, g_array_unref);
  g_free (tt);
}

static void
extras_free (struct _BlProfileExtras *extras)
{
  if (extras == NULL)
    return;
  g_free (extras->histogram);
  g_clear_pointer (&extras->times, g_ptr_array_unref);
  g_clear_pointer (&extras->frames, g_array_unref);
  g_clear_pointer (&extras->node_frame, g_array_unref);
  g_clear_pointer (&extras->heaps, g_ptr_array_unref);
  g_clear_pointer (&extras->heap_labels, g_ptr_array_unref);
  g_free (extras);
}

static struct _BlProfileExtras *
ensure_extras (BlProfile *self)
{
  if (self->extras == NULL)
    self->extras = g_new0 (struct _BlProfileExtras, 1);

  return self->extras;
}

static ThreadTime *
ensure_thread_time (BlProfile *self,
                    guint      thread)
{
  struct _BlProfileExtras *extras = ensure_extras (self);
  ThreadTime *tt;

  if (extras->times == NULL)
    extras->times = g_ptr_array_new_with_free_func (thread_time_free);
  if (extras->times->len <= thread)
    g_ptr_array_set_size (extras->times, thread + 1);

  tt = g_ptr_array_index (extras->times, thread);
  if (tt == NULL)
    {
      tt = g_new0 (ThreadTime, 1);
      tt->spans = g_array_new (FALSE, FALSE, sizeof (BlSpan));
      g_ptr_array_index (extras->times, thread) = tt;
    }

  return tt;
}

static ThreadTime *
get_thread_time (BlProfile *self,
                 guint      thread)
{
  if (self->extras == NULL || self->extras->times == NULL ||
      thread >= self->extras->times->len)
    return NULL;

  return g_ptr_array_index (self->extras->times, thread);
}

/**
 * bl_profile_set_histogram:
 * @buckets: (array length=n_buckets): the buckets, by increasing size
 *
 * Stores an allocation-size histogram (copied).
 */
void
bl_profile_set_histogram (BlProfile               *self,
                          const BlHistogramBucket *buckets,
                          guint                    n_buckets)
{
  struct _BlProfileExtras *extras;

  g_return_if_fail (BL_IS_PROFILE (self));
  g_return_if_fail (!self->finished);
  g_return_if_fail (buckets != NULL || n_buckets == 0);

  extras = ensure_extras (self);
  g_free (extras->histogram);
  extras->histogram = n_buckets > 0 ? g_memdup2 (buckets, sizeof *buckets * n_buckets) : NULL;
  extras->n_buckets = n_buckets;
}

/**
 * bl_profile_get_histogram:
 * @n_buckets: (out): the number of buckets
 *
 * Returns: (nullable) (array length=n_buckets): the allocation-size
 *   histogram, or %NULL if the profile has none
 */
const BlHistogramBucket *
bl_profile_get_histogram (BlProfile *self,
                          guint     *n_buckets)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), NULL);
  g_return_val_if_fail (n_buckets != NULL, NULL);

  if (self->extras == NULL || self->extras->histogram == NULL)
    {
      *n_buckets = 0;
      return NULL;
    }

  *n_buckets = self->extras->n_buckets;

  return self->extras->histogram;
}

/**
 * bl_profile_add_span:
 * @thread: the thread @node belongs to
 * @node: the node entered
 * @start: when it was entered
 *
 * Appends a span to the thread's time order. Spans must be added in the
 * order they were entered; the end is set by bl_profile_set_span_end()
 * (until then it equals @start).
 *
 * Returns: the span's index within the thread
 */
guint
bl_profile_add_span (BlProfile *self,
                     guint      thread,
                     guint32    node,
                     guint64    start)
{
  ThreadTime *tt;
  BlSpan span;

  g_return_val_if_fail (BL_IS_PROFILE (self), 0);
  g_return_val_if_fail (!self->finished, 0);
  g_return_val_if_fail (node < self->n_nodes, 0);
  g_return_val_if_fail (self->nodes[node].thread == thread, 0);

  tt = ensure_thread_time (self, thread);
  span.start = start;
  span.node = node;
  span.duration = 0;
  g_array_append_val (tt->spans, span);

  return tt->spans->len - 1;
}

G_STATIC_ASSERT (sizeof (BlSpan) == 16);

static int
compare_span_longs (gconstpointer a,
                    gconstpointer b)
{
  guint32 sa = ((const BlSpanLong *) a)->span;
  guint32 sb = ((const BlSpanLong *) b)->span;

  return sa < sb ? -1 : sa > sb;
}

static void
sort_span_longs (ThreadTime *tt)
{
  if (tt->longs != NULL && tt->longs_unsorted)
    g_array_sort (tt->longs, compare_span_longs);
  tt->longs_unsorted = FALSE;
}

/* Sorts the long span durations of every thread by span index. */
static void
sort_all_span_longs (BlProfile *self)
{
  if (self->extras == NULL || self->extras->times == NULL)
    return;
  for (guint t = 0; t < self->extras->times->len; t++)
    if (g_ptr_array_index (self->extras->times, t) != NULL)
      sort_span_longs (g_ptr_array_index (self->extras->times, t));
}

/* Keeps @duration (at least BL_SPAN_LONG) of span @index among the long
 * durations, noting when they are no longer in span order. */
static void
push_span_long (GArray   **longs,
                gboolean  *unsorted,
                guint32    index,
                guint64    duration)
{
  if (*longs == NULL)
    *longs = g_array_new (FALSE, FALSE, sizeof (BlSpanLong));
  if ((*longs)->len > 0 &&
      g_array_index (*longs, BlSpanLong, (*longs)->len - 1).span > index)
    *unsorted = TRUE;
  g_array_append_vals (*longs, &(BlSpanLong) { index, 0, duration }, 1);
}

/* Sets the duration of span @index of @tt, which held @old (BL_SPAN_LONG:
 * an entry of the long durations). */
static void
set_span_duration (ThreadTime *tt,
                   guint       index,
                   guint32     old,
                   guint64     duration)
{
  BlSpan *span = &g_array_index (tt->spans, BlSpan, index);

  if (old == BL_SPAN_LONG)
    {
      /* set twice: rare, the entry searched from the most recent */
      for (guint i = tt->longs->len; i > 0; i--)
        if (g_array_index (tt->longs, BlSpanLong, i - 1).span == index)
          {
            g_array_remove_index (tt->longs, i - 1);
            break;
          }
    }
  if (duration < BL_SPAN_LONG)
    {
      span->duration = (guint32) duration;
      return;
    }

  span->duration = BL_SPAN_LONG;
  push_span_long (&tt->longs, &tt->longs_unsorted, index, duration);
}

void
_bl_profile_set_span_duration (BlProfile *self,
                               guint      thread,
                               guint      span,
                               guint64    duration)
{
  ThreadTime *tt = get_thread_time (self, thread);

  g_return_if_fail (tt != NULL && span < tt->spans->len);

  set_span_duration (tt, span, g_array_index (tt->spans, BlSpan, span).duration, duration);
}

/**
 * _bl_span_list_get_long:
 * @index: a span whose duration is BL_SPAN_LONG
 *
 * Returns: its duration, from the list's long durations
 */
guint64
_bl_span_list_get_long (const BlSpanList *list,
                        gsize             index)
{
  gsize lo = 0, hi = list->n_longs;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (list->longs[mid].span < index)
        lo = mid + 1;
      else
        hi = mid;
    }
  g_return_val_if_fail (lo < list->n_longs && list->longs[lo].span == index, BL_SPAN_LONG);

  return list->longs[lo].duration;
}

BlSpan *
_bl_profile_append_spans (BlProfile *self,
                          guint      thread,
                          gsize      n,
                          guint     *first)
{
  ThreadTime *tt;

  g_return_val_if_fail (BL_IS_PROFILE (self), NULL);
  g_return_val_if_fail (!self->finished, NULL);

  tt = ensure_thread_time (self, thread);
  *first = tt->spans->len;
  g_array_set_size (tt->spans, tt->spans->len + n);

  return &g_array_index (tt->spans, BlSpan, *first);
}

void
bl_profile_set_span_end (BlProfile *self,
                         guint      thread,
                         guint      span,
                         guint64    end)
{
  ThreadTime *tt;
  BlSpan *s;

  g_return_if_fail (BL_IS_PROFILE (self));
  g_return_if_fail (!self->finished);

  tt = get_thread_time (self, thread);
  g_return_if_fail (tt != NULL && span < tt->spans->len);

  s = &g_array_index (tt->spans, BlSpan, span);
  set_span_duration (tt, span, s->duration, end > s->start ? end - s->start : 0);
}

/**
 * bl_profile_set_time_range:
 *
 * Records the time range a thread's time order covers (speedscope's
 * startValue and endValue), in the same unit as its spans.
 */
void
bl_profile_set_time_range (BlProfile *self,
                           guint      thread,
                           guint64    start,
                           guint64    end)
{
  ThreadTime *tt;

  g_return_if_fail (BL_IS_PROFILE (self));
  g_return_if_fail (!self->finished);

  tt = ensure_thread_time (self, thread);
  tt->start = start;
  tt->end = MAX (start, end);
  tt->has_range = TRUE;
}

/**
 * bl_profile_has_time_order:
 *
 * Returns: whether any thread has spans in time order, or a sample order
 *   (see bl_profile_dup_sample_spans())
 */
gboolean
bl_profile_has_time_order (BlProfile *self)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), FALSE);

  if (self->extras == NULL || self->extras->times == NULL)
    return FALSE;

  for (guint i = 0; i < self->extras->times->len; i++)
    {
      ThreadTime *tt = g_ptr_array_index (self->extras->times, i);

      if (tt != NULL && (tt->spans->len > 0 ||
                         (tt->samples != NULL && tt->samples->len > 0)))
        return TRUE;
    }

  return FALSE;
}

static void
fill_span_list (BlProfile  *self,
                ThreadTime *tt,
                BlSpanList *list)
{
  sort_span_longs (tt);
  list->spans = (const BlSpan *) (gpointer) tt->spans->data;
  list->n_spans = tt->spans->len;
  list->longs = tt->longs != NULL ? (const BlSpanLong *) (gpointer) tt->longs->data : NULL;
  list->n_longs = tt->longs != NULL ? tt->longs->len : 0;
  list->nodes = self->nodes;
}

/**
 * bl_profile_get_spans:
 * @list: (out caller-allocates): the thread's spans
 *
 * Fills @list with the thread's spans in the order they were entered.
 *
 * Returns: %FALSE (and an empty @list) if the thread has none
 */
gboolean
bl_profile_get_spans (BlProfile  *self,
                      guint       thread,
                      BlSpanList *list)
{
  ThreadTime *tt;

  g_return_val_if_fail (list != NULL, FALSE);
  memset (list, 0, sizeof *list);
  g_return_val_if_fail (BL_IS_PROFILE (self), FALSE);

  tt = get_thread_time (self, thread);
  if (tt == NULL || tt->spans->len == 0)
    return FALSE;

  fill_span_list (self, tt, list);

  return TRUE;
}

/**
 * bl_profile_get_time_range:
 * @start: (out) (optional): the start of the thread's time range
 * @end: (out) (optional): its end
 *
 * The range set by bl_profile_set_time_range(), or else the one its spans
 * cover.
 *
 * Returns: %FALSE if the thread has no time order
 */
gboolean
bl_profile_get_time_range (BlProfile *self,
                           guint      thread,
                           guint64   *start,
                           guint64   *end)
{
  ThreadTime *tt;
  guint64 s = G_MAXUINT64, e = 0;

  g_return_val_if_fail (BL_IS_PROFILE (self), FALSE);

  tt = get_thread_time (self, thread);
  if (tt == NULL || (!tt->has_range && tt->spans->len == 0))
    return FALSE;

  if (tt->has_range)
    {
      s = tt->start;
      e = tt->end;
    }
  if (tt->spans->len > 0)
    {
      BlSpanList list;

      fill_span_list (self, tt, &list);
      for (gsize i = 0; i < list.n_spans; i++)
        {
          s = MIN (s, list.spans[i].start);
          e = MAX (e, bl_span_list_get_end (&list, i));
        }
    }

  if (start != NULL)
    *start = s;
  if (end != NULL)
    *end = e;

  return TRUE;
}

/* ---- frames -------------------------------------------------------------- */

/**
 * bl_profile_add_frame:
 * @name: interned function name
 * @file: interned file name, or 0
 * @line: line, or 0
 * @col: column, or 0
 *
 * Adds a frame; frames are never merged, each call makes a new one.
 *
 * Returns: the frame's index (0, 1, … in the order they were added)
 */
guint32
bl_profile_add_frame (BlProfile *self,
                      guint32    name,
                      guint32    file,
                      guint32    line,
                      guint32    col)
{
  struct _BlProfileExtras *extras;
  BlFrame frame = { name, file, line, col };

  g_return_val_if_fail (BL_IS_PROFILE (self), 0);
  g_return_val_if_fail (!self->finished, 0);

  extras = ensure_extras (self);
  if (extras->frames == NULL)
    {
      extras->frames = g_array_new (FALSE, FALSE, sizeof (BlFrame));
      extras->node_frame = g_array_new (FALSE, FALSE, sizeof (guint32));
    }
  g_array_append_val (extras->frames, frame);

  return extras->frames->len - 1;
}

/**
 * bl_profile_add_child_frame:
 * @parent: a node index (not %BL_NODE_NONE: threads have no frame)
 * @frame: a frame from bl_profile_add_frame()
 *
 * Finds or creates the child of @parent for @frame.
 *
 * Returns: the child's node index
 */
guint32
bl_profile_add_child_frame (BlProfile *self,
                            guint32    parent,
                            guint32    frame)
{
  GArray *node_frame;
  const BlFrame *f;
  BlSlot *slot;
  guint32 index;
  guint64 k1 = ((guint64) parent << 32) | frame;
  guint32 old_len;

  g_return_val_if_fail (BL_IS_PROFILE (self), BL_NODE_NONE);
  g_return_val_if_fail (!self->finished, BL_NODE_NONE);
  g_return_val_if_fail (parent < self->n_nodes, BL_NODE_NONE);
  g_return_val_if_fail (self->extras != NULL && self->extras->frames != NULL &&
                        frame < self->extras->frames->len, BL_NODE_NONE);

  /* a key of its own: no string id is G_MAXUINT32, which add_child uses */
  slot = index_hash_find (&self->node_hash, k1, G_MAXUINT32);
  if (slot->value != 0)
    return slot->value - 1;

  f = &g_array_index (self->extras->frames, BlFrame, frame);
  index = append_node (self, parent, f->name, f->file, f->line);
  index_hash_insert (&self->node_hash, slot, k1, G_MAXUINT32, index);

  node_frame = self->extras->node_frame;
  old_len = node_frame->len;
  if (old_len <= index)
    {
      g_array_set_size (node_frame, index + 1);
      for (guint32 i = old_len; i < index; i++)
        g_array_index (node_frame, guint32, i) = BL_NODE_NONE;
    }
  g_array_index (node_frame, guint32, index) = frame;

  return index;
}

guint
bl_profile_get_n_frames (BlProfile *self)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), 0);

  if (self->extras == NULL || self->extras->frames == NULL)
    return 0;

  return self->extras->frames->len;
}

const BlFrame *
bl_profile_get_frame (BlProfile *self,
                      guint32    frame)
{
  g_return_val_if_fail (frame < bl_profile_get_n_frames (self), NULL);

  return &g_array_index (self->extras->frames, BlFrame, frame);
}

/**
 * bl_profile_get_node_frame:
 *
 * Returns: the frame of @node, or %BL_NODE_NONE if it has none
 */
guint32
bl_profile_get_node_frame (BlProfile *self,
                           guint32    node)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), BL_NODE_NONE);

  if (self->extras == NULL || self->extras->node_frame == NULL ||
      node >= self->extras->node_frame->len)
    return BL_NODE_NONE;

  return g_array_index (self->extras->node_frame, guint32, node);
}

/* ---- sample order -------------------------------------------------------- */

/**
 * bl_profile_add_sample:
 * @thread: the thread @node belongs to
 * @node: the node on top of the sample's stack
 * @weight: the sample's weight, in the stored unit of the thread's metric
 *
 * Appends a sample to the thread's sample order (it adds no value: the
 * reader adds the same weights to the nodes).
 */
void
bl_profile_add_sample (BlProfile *self,
                       guint      thread,
                       guint32    node,
                       guint64    weight)
{
  ThreadTime *tt;
  BlOrderedSample sample = { node, weight };

  g_return_if_fail (BL_IS_PROFILE (self));
  g_return_if_fail (!self->finished);
  g_return_if_fail (node < self->n_nodes && self->nodes[node].thread == thread);

  tt = ensure_thread_time (self, thread);
  if (tt->samples == NULL)
    tt->samples = g_array_new (FALSE, FALSE, sizeof (BlOrderedSample));
  g_array_append_val (tt->samples, sample);
}

/**
 * bl_profile_get_samples:
 * @n_samples: (out): the number of samples
 *
 * Returns: (nullable) (array length=n_samples): the thread's samples in the
 *   order they were taken, or %NULL if it has no sample order
 */
const BlOrderedSample *
bl_profile_get_samples (BlProfile *self,
                        guint      thread,
                        gsize     *n_samples)
{
  ThreadTime *tt;

  g_return_val_if_fail (BL_IS_PROFILE (self), NULL);
  g_return_val_if_fail (n_samples != NULL, NULL);

  tt = get_thread_time (self, thread);
  if (tt == NULL || tt->samples == NULL || tt->samples->len == 0)
    {
      *n_samples = 0;
      return NULL;
    }

  *n_samples = tt->samples->len;

  return (const BlOrderedSample *) (gpointer) tt->samples->data;
}

/* The spans of bl_profile_dup_sample_spans() grow in the very block it
 * returns, after the list's header: realloc() moves a large block's pages
 * rather than copying them, so the spans are written once and never copied
 * (appending them to an array and copying that into the result cost a
 * quarter of the time, and twice their size at the peak). */
typedef struct
{
  guint8 *block;
  gsize   n;        /* spans */
  gsize   cap;
  GArray *longs;    /* BlSpanLong, or NULL */
  gboolean longs_unsorted;
} SampleSpans;

#define SAMPLE_SPANS_HEADER \
  ((sizeof (BlSpanList) + G_ALIGNOF (BlSpanLong) - 1) / G_ALIGNOF (BlSpanLong) * G_ALIGNOF (BlSpanLong))

static inline BlSpan *
sample_spans_at (SampleSpans *ss,
                 gsize        index)
{
  return (BlSpan *) (gpointer) (ss->block + SAMPLE_SPANS_HEADER) + index;
}

static inline void
sample_spans_open (SampleSpans *ss,
                   guint64      start,
                   guint32      node)
{
  if (G_UNLIKELY (ss->n == ss->cap))
    {
      ss->cap = MAX (ss->cap * 2, 1024);
      if (ss->cap > (G_MAXSIZE - SAMPLE_SPANS_HEADER) / (2 * sizeof (BlSpan)))
        g_error ("bl_profile_dup_sample_spans: %zu spans do not fit in memory", ss->cap);
      ss->block = g_realloc (ss->block, SAMPLE_SPANS_HEADER + ss->cap * sizeof (BlSpan));
    }
  *sample_spans_at (ss, ss->n++) = (BlSpan) { start, node, 0 };
}

/* each span is closed once, in the order its deepest frames are left */
static void
sample_spans_close (SampleSpans *ss,
                    guint32      index,
                    guint64      t)
{
  BlSpan *span = sample_spans_at (ss, index);
  guint64 duration = t - span->start;

  if (G_LIKELY (duration < BL_SPAN_LONG))
    {
      span->duration = (guint32) duration;
      return;
    }
  span->duration = BL_SPAN_LONG;
  push_span_long (&ss->longs, &ss->longs_unsorted, index, duration);
}

/**
 * bl_profile_dup_sample_spans:
 * @thread: a thread with a sample order
 * @duration: (out) (optional): the sum of the samples' weights
 *
 * Derives the time order of a sampled thread from its samples: sample k
 * covers [w_0 + … + w_(k-1), w_0 + … + w_k); a node stays open while the
 * following samples' stacks hold it (a node is its whole path from the
 * thread root, so holding it means sharing that prefix) and closes when a
 * sample's stack leaves it. Each sample costs at most the walk from its
 * leaf up to the deepest node it shares with the stack still open.
 *
 * Returns: (transfer full) (nullable): the spans, in one block with the
 *   list (free it with g_free()), or %NULL if the thread has no samples
 */
BlSpanList *
bl_profile_dup_sample_spans (BlProfile *self,
                             guint      thread,
                             guint64   *duration)
{
  SampleSpans ss = { 0 };
  BlSpanList *list;
  gsize spans_size, longs_size;
  const BlOrderedSample *samples;
  gsize n_samples = 0;
  GArray *open;     /* guint32 span index per depth - 1, the open stack */
  GArray *path;     /* guint32 nodes entered by one sample, leaf first */
  /* what the arrays hold without growing: a million samples append tens
   * of millions of times, and g_array_append_val() divides on each */
  guint open_cap = 0, path_cap = 0;
  guint64 t = 0;

  g_return_val_if_fail (BL_IS_PROFILE (self), NULL);
  if (duration != NULL)
    *duration = 0;

  samples = bl_profile_get_samples (self, thread, &n_samples);
  if (samples == NULL)
    return NULL;

  open = g_array_new (FALSE, FALSE, sizeof (guint32));
  path = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (gsize k = 0; k < n_samples; k++)
    {
      guint32 n = samples[k].node;
      guint shared;

      if (samples[k].weight == 0 || n >= self->n_nodes)
        continue;

      /* up from the leaf to the deepest node still open */
      path->len = 0;
      while (n != BL_NODE_NONE && self->nodes[n].depth > 0)
        {
          guint32 depth = self->nodes[n].depth;

          if (depth <= open->len &&
              sample_spans_at (&ss, g_array_index (open, guint32, depth - 1))->node == n)
            break;
          BL_ARRAY_PUSH (path, &path_cap, guint32, n);
          n = self->nodes[n].parent;
        }
      /* at most the open stack's depth: the node found open, or none */
      shared = (n != BL_NODE_NONE && self->nodes[n].depth > 0) ? self->nodes[n].depth : 0;

      /* close what this sample left, open what it entered (parents first) */
      for (guint d = shared; d < open->len; d++)
        sample_spans_close (&ss, g_array_index (open, guint32, d), t);
      open->len = MIN (open->len, shared);
      for (guint i = path->len; i > 0; i--)
        {
          BL_ARRAY_PUSH (open, &open_cap, guint32, (guint32) ss.n);
          sample_spans_open (&ss, t, g_array_index (path, guint32, i - 1));
        }

      t = samples[k].weight > G_MAXUINT64 - t ? G_MAXUINT64 : t + samples[k].weight;
    }

  for (guint d = 0; d < open->len; d++)
    sample_spans_close (&ss, g_array_index (open, guint32, d), t);

  g_array_unref (open);
  g_array_unref (path);

  if (duration != NULL)
    *duration = t;
  if (ss.n == 0)
    {
      g_free (ss.block);
      g_clear_pointer (&ss.longs, g_array_unref);
      return NULL;
    }

  /* the block cut to its spans, the long durations (few; by span index)
   * after them */
  if (ss.longs != NULL && ss.longs_unsorted)
    g_array_sort (ss.longs, compare_span_longs);
  spans_size = sizeof (BlSpan) * ss.n;
  longs_size = ss.longs != NULL ? sizeof (BlSpanLong) * ss.longs->len : 0;
  ss.block = g_realloc (ss.block, SAMPLE_SPANS_HEADER + spans_size + longs_size);
  list = (BlSpanList *) (gpointer) ss.block;
  list->spans = sample_spans_at (&ss, 0);
  list->n_spans = ss.n;
  list->longs = (const BlSpanLong *) (gpointer) (ss.block + SAMPLE_SPANS_HEADER + spans_size);
  list->n_longs = ss.longs != NULL ? ss.longs->len : 0;
  list->nodes = self->nodes;
  if (longs_size > 0)
    memcpy (ss.block + SAMPLE_SPANS_HEADER + spans_size, ss.longs->data, longs_size);
  g_clear_pointer (&ss.longs, g_array_unref);

  return list;
}

/* ---- heap snapshots ---- */

/**
 * bl_profile_add_heap:
 * @heap: (transfer full): a finished heap graph
 * @label: (nullable): how the file names this snapshot, if it does
 *
 * Attaches a heap snapshot: a Perfetto trace's heap graphs, a DevTools heap
 * snapshot. The profile owns it from now on.
 */
void
bl_profile_add_heap (BlProfile  *self,
                     BlHeap     *heap,
                     const char *label)
{
  struct _BlProfileExtras *extras;

  g_return_if_fail (BL_IS_PROFILE (self));
  g_return_if_fail (heap != NULL);

  extras = ensure_extras (self);
  if (extras->heaps == NULL)
    {
      extras->heaps = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_heap_free);
      extras->heap_labels = g_ptr_array_new_with_free_func (g_free);
    }
  g_ptr_array_add (extras->heaps, heap);
  g_ptr_array_add (extras->heap_labels, g_strdup (label != NULL ? label : ""));
}

guint
bl_profile_get_n_heaps (BlProfile *self)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), 0);

  return self->extras != NULL && self->extras->heaps != NULL ? self->extras->heaps->len : 0;
}

BlHeap *
bl_profile_get_heap (BlProfile *self,
                     guint      index)
{
  g_return_val_if_fail (index < bl_profile_get_n_heaps (self), NULL);

  return g_ptr_array_index (self->extras->heaps, index);
}

/* Returns: the file's name for snapshot @index, "" if it gives none */
const char *
bl_profile_get_heap_label (BlProfile *self,
                           guint      index)
{
  g_return_val_if_fail (index < bl_profile_get_n_heaps (self), "");

  return g_ptr_array_index (self->extras->heap_labels, index);
}

/* ---- building without lookups (bl-profile-private.h) ---------------------- */

/**
 * _bl_profile_append_child:
 * @frame: a frame from bl_profile_add_frame(), or %BL_NODE_NONE
 *
 * Appends a child of @parent that the caller knows @parent does not have
 * yet, without looking for it and without indexing it: a later
 * bl_profile_add_child() on @parent does not find it unless
 * _bl_profile_index_children() was called on @parent since.
 */
guint32
_bl_profile_append_child (BlProfile *self,
                          guint32    parent,
                          guint32    frame,
                          guint32    name,
                          guint32    file,
                          guint32    line)
{
  guint32 index;

  g_return_val_if_fail (BL_IS_PROFILE (self), BL_NODE_NONE);
  g_return_val_if_fail (!self->finished, BL_NODE_NONE);
  g_return_val_if_fail (parent < self->n_nodes, BL_NODE_NONE);

  if (frame == BL_NODE_NONE)
    return append_node (self, parent, name, file, line);

  g_return_val_if_fail (self->extras != NULL && self->extras->frames != NULL &&
                        frame < self->extras->frames->len, BL_NODE_NONE);

  {
    const BlFrame *f = &g_array_index (self->extras->frames, BlFrame, frame);
    GArray *node_frame = self->extras->node_frame;
    guint32 old_len;

    index = append_node (self, parent, f->name, f->file, f->line);
    old_len = node_frame->len;
    if (old_len <= index)
      {
        g_array_set_size (node_frame, index + 1);
        for (guint32 i = old_len; i < index; i++)
          g_array_index (node_frame, guint32, i) = BL_NODE_NONE;
      }
    g_array_index (node_frame, guint32, index) = frame;
  }

  return index;
}

/**
 * _bl_profile_index_children:
 *
 * Makes the children of @parent added by _bl_profile_append_child() known
 * to bl_profile_add_child() and bl_profile_add_child_frame().
 */
void
_bl_profile_index_children (BlProfile *self,
                            guint32    parent)
{
  g_return_if_fail (BL_IS_PROFILE (self));
  g_return_if_fail (!self->finished);
  g_return_if_fail (parent < self->n_nodes);

  for (guint32 c = self->nodes[parent].first_child; c != BL_NODE_NONE;
       c = self->nodes[c].next_sibling)
    {
      guint32 frame = bl_profile_get_node_frame (self, c);
      guint64 k1;
      guint32 k2;
      BlSlot *slot;

      if (frame != BL_NODE_NONE)
        {
          k1 = ((guint64) parent << 32) | frame;
          k2 = G_MAXUINT32;
        }
      else
        {
          k1 = ((guint64) parent << 32) | self->nodes[c].name;
          k2 = self->nodes[c].file;
        }
      slot = index_hash_find (&self->node_hash, k1, k2);
      if (slot->value == 0)
        index_hash_insert (&self->node_hash, slot, k1, k2, c);
    }
}

/**
 * _bl_profile_reserve_nodes:
 *
 * Makes room for @n_nodes nodes in all, so that a builder that knows how
 * many it will add does not copy the arrays as they grow.
 */
void
_bl_profile_reserve_nodes (BlProfile *self,
                           gsize      n_nodes)
{
  BlNode *nodes;

  g_return_if_fail (BL_IS_PROFILE (self));
  g_return_if_fail (!self->finished);

  if (n_nodes <= self->nodes_cap || n_nodes >= BL_NODE_NONE)
    return;

  nodes = alloc_per_node (n_nodes * sizeof (BlNode));
  if (self->n_nodes > 0)
    memcpy (nodes, self->nodes, self->n_nodes * sizeof (BlNode));
  g_free (self->nodes);
  self->nodes = nodes;
  for (guint m = 0; m < BL_N_METRICS; m++)
    {
      if (self->self[m] != NULL)
        {
          guint64 *values = alloc_metric_column0 (n_nodes * sizeof (guint64));

          memcpy (values, self->self[m], self->nodes_cap * sizeof (guint64));
          g_free (self->self[m]);
          self->self[m] = values;
        }
    }
  self->nodes_cap = n_nodes;
}

void
_bl_profile_reserve_node_index (BlProfile *self,
                                gsize      n_nodes)
{
  BlIndexHash *hash = &self->node_hash;

  g_return_if_fail (BL_IS_PROFILE (self));
  g_return_if_fail (!self->finished);

  if (n_nodes >= BL_NODE_NONE)
    return;
  _bl_profile_reserve_nodes (self, n_nodes);
  /* index_hash_insert() grows past half full */
  while (n_nodes * 2 > hash->mask)
    index_hash_grow (hash);
}

void
_bl_profile_drop_node_index (BlProfile *self)
{
  g_return_if_fail (BL_IS_PROFILE (self));
  g_return_if_fail (!self->finished);

  index_hash_clear (&self->node_hash);
}

/**
 * _bl_profile_get_self_mutable:
 *
 * The self values of @metric (enabled if it was not), to add to in bulk.
 */
guint64 *
_bl_profile_get_self_mutable (BlProfile  *self,
                              BlMetricId  metric)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), NULL);
  g_return_val_if_fail (!self->finished, NULL);
  g_return_val_if_fail (metric >= 0 && metric < BL_N_METRICS, NULL);

  bl_profile_enable_metric (self, metric);

  return self->self[metric];
}

/* The per-node arrays of a finished profile, for bl-transform.c */
const guint32 *
_bl_profile_get_node_functions (BlProfile *self)
{
  g_return_val_if_fail (BL_IS_PROFILE (self) && self->finished, NULL);

  return self->node_function;
}

const guint8 *
_bl_profile_get_outermost (BlProfile *self)
{
  g_return_val_if_fail (BL_IS_PROFILE (self) && self->finished, NULL);

  return outermost_of (self);
}

BlNode *
_bl_profile_get_nodes_mutable (BlProfile *self)
{
  g_return_val_if_fail (BL_IS_PROFILE (self) && !self->finished, NULL);

  return self->nodes;
}

/**
 * _bl_profile_append_line:
 *
 * Adds a per-line record that the caller knows is not there yet, without
 * indexing it: bl_profile_lookup_line() does not find it later.
 */
guint32
_bl_profile_append_line (BlProfile *self,
                         guint32    file,
                         guint32    line,
                         guint32    function)
{
  g_return_val_if_fail (BL_IS_PROFILE (self), 0);
  g_return_val_if_fail (!self->finished, 0);

  return append_line (self, file, line, function);
}
