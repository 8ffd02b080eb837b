/* bl-transform.c — call-tree transforms: a profile in, a new profile out
 *
 * A transform is one pass over the finished input profile that maps each
 * of its nodes to a node of a new profile (or to none), building the new
 * tree as it goes: a kept node becomes a child of its parent's image, a
 * merged one takes its parent's image, a dropped one and its subtree have
 * none. Self values go to the images in the same sweep; per-line records,
 * samples and spans then follow the map, and bl_profile_finish() computes
 * totals and functions. Nodes are numbered after their parents, so every
 * kind maps them in one linear sweep (collapsing recursion walks an
 * image's path only for the input's recursive calls). The result is
 * finished from what the input knows: each new node's function, whether it
 * is outermost (for most kinds), and its children's order (linked as the
 * input has it where one input node maps to a new node, sorted once by the
 * input's ranked functions where several do).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-transform"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bl-big-array-private.h"
#include "bl-profile-private.h"
#include "bl-transform.h"

struct _BlTransform
{
  gatomicrefcount  ref_count;
  BlTransformKind  kind;
  char            *argument;
};

G_DEFINE_QUARK (bl-transform-error-quark, bl_transform_error)
G_DEFINE_BOXED_TYPE (BlTransform, bl_transform, bl_transform_ref, bl_transform_unref)

static const char * const kind_names[BL_N_TRANSFORM_KINDS] = {
  [BL_TRANSFORM_MERGE_FUNCTION] = "merge",
  [BL_TRANSFORM_FOCUS_FUNCTION] = "focus",
  [BL_TRANSFORM_FOCUS_PATH] = "focus-path",
  [BL_TRANSFORM_COLLAPSE_RECURSION] = "collapse-recursion",
  [BL_TRANSFORM_DROP_FUNCTION] = "drop",
  [BL_TRANSFORM_HIDE] = "hide",
  [BL_TRANSFORM_MERGE_THREADS] = "merge-threads",
  [BL_TRANSFORM_MERGE_ALL_THREADS] = "merge-all-threads",
};

/* Node states of the linear sweep */
enum
{
  STATE_DROPPED,    /* no image, nor has anything below it */
  STATE_OUTSIDE,    /* no image, but a focus may start below it */
  STATE_MERGED,     /* has an image made for another node (or a thread's root) */
  STATE_MADE,       /* has an image made for it; its children are placed under it */
};

typedef struct
{
  guint32 parent;         /* dst node */
  guint32 function;       /* src function */
  guint32 image_plus1;    /* dst node + 1; 0 marks an empty slot */
} ChildSlot;

typedef struct
{
  const BlTransform *t;
  BlProfile         *src;
  BlProfile         *dst;
  const BlNode      *nodes;
  guint              n_nodes;
  guint              n_functions;    /* src */
  const guint32     *node_function;  /* src node → src function */
  const guint8      *src_outermost;
  guint32           *strings;     /* src string id → dst string id */
  guint32           *map;         /* src node → dst node or BL_NODE_NONE */
  guint8            *state;       /* src node → STATE_… */
  guint32           *roots;       /* src thread → dst root, made lazily */
  guint8            *matches;     /* per src string id: the argument matches it */
  guint32           *path;        /* focus-path: src string ids, thread first */
  guint              path_len;
  gboolean           has_frames;
  guint8            *shared;      /* dst node → more than one src node maps to it */
  guint32           *keys;        /* dst node → src function it was made for (roots after) */
  guint8            *outermost;   /* dst node → outermost, when carried from src */
  guint8            *alive;       /* src string id → 1: has nodes, 2: one is kept or merged */
  ChildSlot         *child_slots; /* (dst parent, src function) → dst child */
  gsize              child_mask;
  gsize              child_used;
  guint32           *kids;        /* (dst parent, dst child) of every child of a shared node */
  gsize              n_kids;
  guint              n_values;    /* metrics whose self values the sweep adds */
  const guint64     *src_self[BL_N_METRICS];
  guint64           *dst_self[BL_N_METRICS];
} Pass;

/* The sweeps' scratch arrays, one entry per input node (the new profile
 * has no more nodes than the input): zero-filled, and when big mapped on
 * their own with huge pages asked for, so that writing them once does not
 * cost a page fault every 4 KiB */
static gpointer
scratch_new (gsize n,
             gsize size)
{
  return bl_big_array_grow (NULL, 0, MAX (n, 1) * size);
}

static void
scratch_free (gpointer data,
              gsize    n,
              gsize    size)
{
  bl_big_array_free (data, MAX (n, 1) * size);
}

/* ---- the boxed type ------------------------------------------------------ */

const char *
bl_transform_kind_get_name (BlTransformKind kind)
{
  g_return_val_if_fail (kind < BL_N_TRANSFORM_KINDS, NULL);

  return kind_names[kind];
}

gboolean
bl_transform_kind_takes_argument (BlTransformKind kind)
{
  return kind != BL_TRANSFORM_COLLAPSE_RECURSION &&
         kind != BL_TRANSFORM_MERGE_THREADS &&
         kind != BL_TRANSFORM_MERGE_ALL_THREADS;
}

/**
 * bl_transform_new:
 * @argument: (nullable): the function name, node path ("thread;a;b") or
 *   pattern, or %NULL for the kinds that take none
 *
 * Returns: (transfer full) (nullable): the transform, or %NULL with
 *   BL_TRANSFORM_ERROR_BAD_ARGUMENT
 */
BlTransform *
bl_transform_new (BlTransformKind   kind,
                  const char       *argument,
                  GError          **error)
{
  BlTransform *self;

  g_return_val_if_fail (kind < BL_N_TRANSFORM_KINDS, NULL);

  if (bl_transform_kind_takes_argument (kind) && (argument == NULL || *argument == '\0'))
    {
      g_set_error (error, BL_TRANSFORM_ERROR, BL_TRANSFORM_ERROR_BAD_ARGUMENT,
                   "The transform “%s” needs a %s.", kind_names[kind],
                   kind == BL_TRANSFORM_HIDE ? "pattern"
                   : kind == BL_TRANSFORM_FOCUS_PATH ? "node path" : "function name");
      return NULL;
    }
  if (!bl_transform_kind_takes_argument (kind) && argument != NULL && *argument != '\0')
    {
      g_set_error (error, BL_TRANSFORM_ERROR, BL_TRANSFORM_ERROR_BAD_ARGUMENT,
                   "The transform “%s” takes no argument, but was given “%s”.",
                   kind_names[kind], argument);
      return NULL;
    }
  if (argument != NULL && !g_utf8_validate (argument, -1, NULL))
    {
      g_set_error (error, BL_TRANSFORM_ERROR, BL_TRANSFORM_ERROR_BAD_ARGUMENT,
                   "The argument of the transform “%s” is not UTF-8.", kind_names[kind]);
      return NULL;
    }

  self = g_new0 (BlTransform, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->kind = kind;
  self->argument = bl_transform_kind_takes_argument (kind) ? g_strdup (argument) : NULL;

  return self;
}

BlTransform *
bl_transform_ref (BlTransform *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

void
bl_transform_unref (BlTransform *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_free (self->argument);
      g_free (self);
    }
}

BlTransformKind
bl_transform_get_kind (const BlTransform *self)
{
  g_return_val_if_fail (self != NULL, BL_TRANSFORM_MERGE_FUNCTION);

  return self->kind;
}

const char *
bl_transform_get_argument (const BlTransform *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->argument;
}

gboolean
bl_transform_equal (const BlTransform *a,
                    const BlTransform *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  return a->kind == b->kind && g_strcmp0 (a->argument, b->argument) == 0;
}

char *
bl_transform_to_string (const BlTransform *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->argument == NULL)
    return g_strdup (kind_names[self->kind]);

  return g_strconcat (kind_names[self->kind], ":", self->argument, NULL);
}

/**
 * bl_transform_parse:
 * @text: "KIND" or "KIND:ARGUMENT" (the argument may contain colons)
 *
 * Returns: (transfer full) (nullable): the transform, or %NULL with an error
 */
BlTransform *
bl_transform_parse (const char  *text,
                    GError     **error)
{
  const char *colon;
  gsize kind_len;

  g_return_val_if_fail (text != NULL, NULL);

  colon = strchr (text, ':');
  kind_len = colon != NULL ? (gsize) (colon - text) : strlen (text);

  for (guint k = 0; k < BL_N_TRANSFORM_KINDS; k++)
    {
      if (strlen (kind_names[k]) == kind_len && strncmp (text, kind_names[k], kind_len) == 0)
        return bl_transform_new (k, colon != NULL ? colon + 1 : NULL, error);
    }

  g_set_error (error, BL_TRANSFORM_ERROR, BL_TRANSFORM_ERROR_UNKNOWN_KIND,
               "“%.*s” is not a transform (merge, focus, focus-path, collapse-recursion, "
               "drop, hide, merge-threads, merge-all-threads).", (int) MIN (kind_len, 80), text);

  return NULL;
}

/**
 * bl_transform_dup_thread_base_name:
 *
 * Strips one trailing instance number from a thread name, with the
 * separator or brackets around it: SceneGraph runs a thread per component
 * instance, named after the component. A name that is only a number, or
 * has nothing before the number, stays as it is.
 */
char *
bl_transform_dup_thread_base_name (const char *name)
{
  const char *end;
  const char *p;
  gboolean bracket = FALSE;

  g_return_val_if_fail (name != NULL, NULL);

  end = name + strlen (name);
  p = end;

  /* "(12)", "[12]", "<12>" */
  if (p > name && (p[-1] == ')' || p[-1] == ']' || p[-1] == '>'))
    {
      bracket = TRUE;
      p--;
    }
  end = p;
  while (p > name && g_ascii_isdigit (p[-1]))
    p--;
  if (p == end)
    return g_strdup (name);                 /* no number */
  if (bracket)
    {
      if (p == name || (p[-1] != '(' && p[-1] != '[' && p[-1] != '<'))
        return g_strdup (name);
      p--;
    }
  else if (p > name && (p[-1] == '(' || p[-1] == '[' || p[-1] == '<'))
    {
      return g_strdup (name);               /* an unclosed bracket */
    }
  else if (p > name && (p[-1] == '_' || p[-1] == '-' || p[-1] == '#' || p[-1] == ':' ||
                        p[-1] == '.'))
    {
      p--;
    }
  while (p > name && p[-1] == ' ')
    p--;
  if (p == name)
    return g_strdup (name);

  return g_strndup (name, p - name);
}

/* ---- matching ------------------------------------------------------------ */

static guint32 *
split_path (BlProfile  *profile,
            const char *text,
            guint      *len)
{
  g_auto(GStrv) parts = g_strsplit (text, ";", -1);
  guint n = g_strv_length (parts);
  guint32 *ids = g_new (guint32, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    ids[i] = bl_profile_find_string (profile, parts[i]);   /* G_MAXUINT32 if absent */
  *len = n;

  return ids;
}

/* Per string id of @profile: whether the transform's name or pattern is it */
static guint8 *
match_strings (const BlTransform *t,
               BlProfile         *profile)
{
  guint n = bl_profile_get_n_strings (profile);
  guint8 *matches = g_new0 (guint8, MAX (n, 1));

  if (t->kind == BL_TRANSFORM_HIDE)
    {
      g_autoptr(GPatternSpec) spec = g_pattern_spec_new (t->argument);

      for (guint i = 1; i < n; i++)
        matches[i] = g_pattern_spec_match_string (spec, bl_profile_get_string (profile, i));
    }
  else if (t->argument != NULL)
    {
      guint32 id = bl_profile_find_string (profile, t->argument);

      if (id != G_MAXUINT32 && id < n)
        matches[id] = TRUE;
    }

  return matches;
}

static inline gboolean
node_matches (const Pass   *pass,
              const BlNode *node)
{
  if (pass->t->kind == BL_TRANSFORM_HIDE)
    return pass->matches[node->name] || pass->matches[node->file];

  return pass->matches[node->name];
}

gboolean
bl_transform_check (const BlTransform  *self,
                    BlProfile          *profile,
                    GError            **error)
{
  g_autofree guint8 *matches = NULL;
  g_autofree guint32 *path = NULL;
  guint path_len = 0;
  const BlNode *nodes;
  guint n_nodes;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (BL_IS_PROFILE (profile), FALSE);

  if (!bl_transform_kind_takes_argument (self->kind))
    return TRUE;

  nodes = bl_profile_get_nodes (profile);
  n_nodes = bl_profile_get_n_nodes (profile);

  if (self->kind == BL_TRANSFORM_FOCUS_PATH)
    {
      path = split_path (profile, self->argument, &path_len);
      for (guint n = 0; n < n_nodes; n++)
        {
          guint32 x = n;
          guint d;

          if (nodes[n].depth + 1 != path_len)
            continue;
          for (d = path_len; d-- > 0; x = nodes[x].parent)
            if (nodes[x].name != path[d])
              break;
          if (d == G_MAXUINT)
            return TRUE;
        }
      g_set_error (error, BL_TRANSFORM_ERROR, BL_TRANSFORM_ERROR_NO_MATCH,
                   "No call path is “%s” (a path starts with the thread’s name).",
                   self->argument);
      return FALSE;
    }

  matches = match_strings (self, profile);
  for (guint n = 0; n < n_nodes; n++)
    {
      if (nodes[n].parent == BL_NODE_NONE)
        continue;
      if (matches[nodes[n].name] ||
          (self->kind == BL_TRANSFORM_HIDE && matches[nodes[n].file]))
        return TRUE;
    }

  if (self->kind == BL_TRANSFORM_HIDE)
    g_set_error (error, BL_TRANSFORM_ERROR, BL_TRANSFORM_ERROR_NO_MATCH,
                 "No frame’s name or file matches “%s”.", self->argument);
  else
    g_set_error (error, BL_TRANSFORM_ERROR, BL_TRANSFORM_ERROR_NO_MATCH,
                 "No function is named “%s”.", self->argument);

  return FALSE;
}

/* ---- building the new tree ------------------------------------------------ */

/* The children of the new nodes that more than one input node maps to, by
 * (parent, function), in one open-addressing table kept at most half full.
 * It starts small (at most CHILD_TABLE_MIN slots), so that the lookups stay
 * in the processor's caches when they are few. Functions of the input are name and file, as a child is
 * found by in the new profile, so looking a child up by its input function
 * finds the same one bl_profile_add_child() would. Profiles with frames
 * use the profile's own lookup, by frame. */
#define CHILD_TABLE_MIN 65536

static void
child_table_init (Pass *pass)
{
  gsize size = 64;

  /* no bigger than a small tree needs */
  while (size < CHILD_TABLE_MIN && size < 2 * (gsize) pass->n_nodes)
    size *= 2;
  pass->child_slots = scratch_new (size, sizeof (ChildSlot));
  pass->child_mask = size - 1;
  pass->child_used = 0;
}

static inline gsize
child_hash (const Pass *pass,
            guint32     parent,
            guint32     function)
{
  guint64 k = ((guint64) parent << 32 | function) * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  return (gsize) (k >> 32 ^ k) & pass->child_mask;
}

/* The slot of (@parent, @function): the one holding it or the empty one
 * where it belongs */
static inline ChildSlot *
child_table_find (Pass    *pass,
                  guint32  parent,
                  guint32  function)
{
  gsize pos = child_hash (pass, parent, function);
  for (;;)
    {
      ChildSlot *slot = &pass->child_slots[pos];

      if (slot->image_plus1 == 0 || (slot->parent == parent && slot->function == function))
        return slot;
      pos = (pos + 1) & pass->child_mask;
    }
}

static void
child_table_grow (Pass *pass)
{
  ChildSlot *old = pass->child_slots;
  gsize old_size = pass->child_mask + 1;

  pass->child_slots = scratch_new (2 * old_size, sizeof (ChildSlot));
  pass->child_mask = 2 * old_size - 1;
  for (gsize i = 0; i < old_size; i++)
    {
      if (old[i].image_plus1 != 0)
        *child_table_find (pass, old[i].parent, old[i].function) = old[i];
    }
  scratch_free (old, old_size, sizeof (ChildSlot));
}

/* Fills @slot, from child_table_find(); other slots may move */
static inline void
child_table_insert (Pass      *pass,
                    ChildSlot *slot,
                    guint32    parent,
                    guint32    function,
                    guint32    image)
{
  slot->parent = parent;
  slot->function = function;
  slot->image_plus1 = image + 1;
  if (++pass->child_used * 2 > pass->child_mask)
    child_table_grow (pass);
}

/* A child of a node that more than one input node maps to: its children
 * come from several input lists, and are put in order after the sweep.
 * Each new node is recorded once at most (when its parent becomes shared,
 * or when it is made under a shared one). */
static inline void
record_kid (Pass    *pass,
            guint32  parent,
            guint32  child)
{
  pass->kids[2 * pass->n_kids] = parent;
  pass->kids[2 * pass->n_kids + 1] = child;
  pass->n_kids++;
}

/* A node of the new tree that more than one input node maps to may get
 * the same child twice, so its children are looked up before one is added;
 * the children of any other node are new by construction (an input node
 * has no two children alike) and are simply appended, which saves a lookup
 * per node on the big trees. */
static void
mark_shared (Pass    *pass,
             guint32  image)
{
  const BlNode *dst;

  if (pass->shared[image])
    return;
  pass->shared[image] = TRUE;

  if (pass->has_frames)
    {
      _bl_profile_index_children (pass->dst, image);
      return;
    }

  dst = bl_profile_get_nodes (pass->dst);
  for (guint32 c = dst[image].first_child; c != BL_NODE_NONE; c = dst[c].next_sibling)
    {
      ChildSlot *slot = child_table_find (pass, image, pass->keys[c]);

      if (slot->image_plus1 == 0)
        child_table_insert (pass, slot, image, pass->keys[c], c);
      record_kid (pass, image, c);
    }
}

/* What the finish needs of a new node, from the input node it was made
 * for: its function and whether it is outermost */
static inline void
made_for (Pass    *pass,
          guint32  image,
          guint32  n)
{
  pass->keys[image] = pass->node_function[n];
  if (pass->outermost != NULL)
    pass->outermost[image] = pass->src_outermost[n];
}

/* The image of @n as a child of @parent_image; sets @n's state */
static guint32
add_image (Pass    *pass,
           guint32  parent_image,
           guint32  n)
{
  const BlNode *node = &pass->nodes[n];
  guint32 image;

  if (!pass->shared[parent_image])
    {
      guint32 frame = pass->has_frames ? bl_profile_get_node_frame (pass->src, n) : BL_NODE_NONE;

      image = _bl_profile_append_child (pass->dst, parent_image, frame, pass->strings[node->name],
                                        pass->strings[node->file], node->line);
      made_for (pass, image, n);
      pass->state[n] = STATE_MADE;
      return image;
    }

  if (!pass->has_frames)
    {
      ChildSlot *slot = child_table_find (pass, parent_image, pass->node_function[n]);

      if (slot->image_plus1 != 0)
        {
          image = slot->image_plus1 - 1;
          mark_shared (pass, image);      /* a second input node maps to it */
          pass->state[n] = STATE_MERGED;
          return image;
        }
      image = _bl_profile_append_child (pass->dst, parent_image, BL_NODE_NONE,
                                        pass->strings[node->name], pass->strings[node->file],
                                        node->line);
      child_table_insert (pass, slot, parent_image, pass->node_function[n], image);
      record_kid (pass, parent_image, image);
      made_for (pass, image, n);
      pass->state[n] = STATE_MADE;
      return image;
    }

  {
    guint32 frame = bl_profile_get_node_frame (pass->src, n);
    guint before = bl_profile_get_n_nodes (pass->dst);

    if (frame != BL_NODE_NONE)
      image = bl_profile_add_child_frame (pass->dst, parent_image, frame);
    else
      image = bl_profile_add_child (pass->dst, parent_image, pass->strings[node->name],
                                    pass->strings[node->file], node->line);
    if (image < before)
      {
        mark_shared (pass, image);      /* a second input node maps to it */
        pass->state[n] = STATE_MERGED;
      }
    else
      {
        made_for (pass, image, n);
        pass->state[n] = STATE_MADE;
      }
  }

  return image;
}

static guint32
root_image (Pass    *pass,
            guint32  root)
{
  const BlNode *node = &pass->nodes[root];
  guint32 *image = &pass->roots[node->thread];

  if (*image == BL_NODE_NONE)
    {
      guint before = bl_profile_get_n_nodes (pass->dst);

      if (pass->t->kind == BL_TRANSFORM_MERGE_ALL_THREADS)
        {
          *image = bl_profile_add_thread (pass->dst,
                                          bl_profile_intern (pass->dst,
                                                             BL_TRANSFORM_ALL_THREADS_NAME));
        }
      else if (pass->t->kind == BL_TRANSFORM_MERGE_THREADS)
        {
          g_autofree char *base =
            bl_transform_dup_thread_base_name (bl_profile_get_string (pass->src, node->name));

          *image = bl_profile_add_thread (pass->dst, bl_profile_intern (pass->dst, base));
        }
      else
        {
          *image = bl_profile_add_thread (pass->dst, pass->strings[node->name]);
        }
      if (*image >= before)
        {
          /* not so when threads merge: thread roots are functions of
           * their own, after the input's */
          pass->keys[*image] = pass->n_functions + bl_profile_get_node (pass->dst, *image)->thread;
          if (pass->outermost != NULL)
            pass->outermost[*image] = TRUE;
        }
      mark_shared (pass, *image);   /* focus roots and merged threads gather children */
    }

  return *image;
}

static inline guint32
thread_root (Pass    *pass,
             guint32  n)
{
  return bl_profile_get_thread_root (pass->src, pass->nodes[n].thread);
}

/* What every node of a sweep ends with: its self values go to its image
 * (when the new profile has room for all nodes from the start, so that its
 * value arrays do not move), and its function is known to have nodes */
static inline void
sweep_tail (Pass    *pass,
            guint32  n)
{
  guint8 state = pass->state[n];

  if (pass->alive != NULL)
    pass->alive[pass->nodes[n].name] |= state >= STATE_MERGED ? 3 : 1;
  if (state >= STATE_MERGED && pass->n_values > 0)
    {
      guint32 image = pass->map[n];

      for (guint k = 0; k < pass->n_values; k++)
        {
          guint64 v = pass->src_self[k][n];

          if (v != 0)
            pass->dst_self[k][image] = bl_saturating_add (pass->dst_self[k][image], v);
        }
    }
}

static gboolean
sweep (Pass         *pass,
       GCancellable *cancellable)
{
  BlTransformKind kind = pass->t->kind;
  gboolean focus = kind == BL_TRANSFORM_FOCUS_FUNCTION || kind == BL_TRANSFORM_FOCUS_PATH;

  for (guint32 n = 0; n < pass->n_nodes; n++)
    {
      const BlNode *node = &pass->nodes[n];
      guint32 p = node->parent;

      if ((n & 0xffff) == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;

      pass->map[n] = BL_NODE_NONE;
      if (p == BL_NODE_NONE)
        {
          if (focus)
            {
              /* a path starts with the thread's name; the name alone keeps
               * the whole thread */
              if (kind == BL_TRANSFORM_FOCUS_PATH &&
                  (pass->path_len == 0 || pass->path[0] != node->name))
                {
                  pass->state[n] = STATE_DROPPED;
                }
              else if (kind == BL_TRANSFORM_FOCUS_PATH && pass->path_len == 1)
                {
                  pass->map[n] = root_image (pass, n);
                  pass->state[n] = STATE_MERGED;
                }
              else
                {
                  pass->state[n] = STATE_OUTSIDE;
                }
            }
          else
            {
              pass->map[n] = root_image (pass, n);
              pass->state[n] = STATE_MERGED;
            }
          sweep_tail (pass, n);
          continue;
        }

      switch (pass->state[p])
        {
        case STATE_DROPPED:
          pass->state[n] = STATE_DROPPED;
          sweep_tail (pass, n);
          continue;

        case STATE_OUTSIDE:
          if (kind == BL_TRANSFORM_FOCUS_FUNCTION && node_matches (pass, node))
            {
              pass->map[n] = add_image (pass, root_image (pass, thread_root (pass, n)), n);
            }
          else if (kind == BL_TRANSFORM_FOCUS_PATH &&
                   (node->depth >= pass->path_len || pass->path[node->depth] != node->name))
            {
              pass->state[n] = STATE_DROPPED;
            }
          else if (kind == BL_TRANSFORM_FOCUS_PATH && node->depth + 1 == pass->path_len)
            {
              pass->map[n] = add_image (pass, root_image (pass, thread_root (pass, n)), n);
            }
          else
            {
              pass->state[n] = STATE_OUTSIDE;
            }
          sweep_tail (pass, n);
          continue;

        default:
          break;
        }

      /* the parent has an image */
      switch (kind)
        {
        case BL_TRANSFORM_MERGE_FUNCTION:
        case BL_TRANSFORM_HIDE:
          if (node_matches (pass, node))
            {
              pass->map[n] = pass->map[p];
              pass->state[n] = STATE_MERGED;
              if (node->first_child != BL_NODE_NONE)
                mark_shared (pass, pass->map[p]);
              sweep_tail (pass, n);
              continue;
            }
          break;

        case BL_TRANSFORM_DROP_FUNCTION:
          if (node_matches (pass, node))
            {
              pass->state[n] = STATE_DROPPED;
              sweep_tail (pass, n);
              continue;
            }
          break;

        case BL_TRANSFORM_FOCUS_FUNCTION:
        case BL_TRANSFORM_FOCUS_PATH:
        case BL_TRANSFORM_COLLAPSE_RECURSION:
        case BL_TRANSFORM_MERGE_THREADS:
        case BL_TRANSFORM_MERGE_ALL_THREADS:
        case BL_N_TRANSFORM_KINDS:
        default:
          break;
        }

      pass->map[n] = add_image (pass, pass->map[p], n);
      sweep_tail (pass, n);
    }

  return TRUE;
}

/* Collapsing recursion: a node whose function is already on the path of
 * its parent's image takes that outer image (its subtree then hangs below
 * the outer one); any other node gets an image of its own. Parents come
 * before their children, so one sweep in node order does. The functions on
 * the path of a node's parent's image are those of the node's ancestors in
 * the input (each ancestor's image is on that path, and each image on it
 * was made for an ancestor), so the function is there exactly when the
 * input node is not outermost: only then is the path walked, by the new
 * nodes' parents and functions (their keys), to the one image of it. */
static gboolean
sweep_recursion (Pass         *pass,
                 GCancellable *cancellable)
{
  const guint32 *node_function = pass->node_function;
  const guint32 *keys = pass->keys;

  for (guint32 n = 0; n < pass->n_nodes; n++)
    {
      const BlNode *node = &pass->nodes[n];
      guint32 parent_image, f, outer = BL_NODE_NONE;

      if ((n & 0xffff) == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;

      if (node->parent == BL_NODE_NONE)
        {
          pass->map[n] = root_image (pass, n);
          pass->state[n] = STATE_MERGED;
          sweep_tail (pass, n);
          continue;
        }

      parent_image = pass->map[node->parent];
      f = node_function[n];
      if (!pass->src_outermost[n])
        {
          const BlNode *dst = bl_profile_get_nodes (pass->dst);

          /* thread roots' keys are no input function */
          for (guint32 x = parent_image; x != BL_NODE_NONE; x = dst[x].parent)
            if (keys[x] == f)
              {
                outer = x;
                break;
              }
        }

      if (outer != BL_NODE_NONE)
        {
          pass->map[n] = outer;
          pass->state[n] = STATE_MERGED;
          if (node->first_child != BL_NODE_NONE)
            mark_shared (pass, outer);
          sweep_tail (pass, n);
          continue;
        }

      pass->map[n] = add_image (pass, parent_image, n);
      sweep_tail (pass, n);
    }

  return TRUE;
}

/* ---- what follows the map -------------------------------------------------- */

/* The first of @c and its next siblings in the input that made a new
 * node, or BL_NODE_NONE */
static inline guint32
next_made (const Pass *pass,
           guint32     c)
{
  while (c != BL_NODE_NONE && pass->state[c] != STATE_MADE)
    c = pass->nodes[c].next_sibling;

  return c;
}

/* The children of a new node that only one input node maps to are the
 * images of that node's children that made one, and the input has them in
 * the order bl_profile_finish() wants (by name, then file; the strings are
 * the same): link them so, and the finish need not sort them. One sweep in
 * the input's order, which is the new nodes' order too. Frames may make
 * two siblings alike, and those the finish orders as it always did.
 * Returns the nodes whose children are in order, or NULL. */
static guint8 *
link_children_in_order (Pass *pass)
{
  BlNode *dst = _bl_profile_get_nodes_mutable (pass->dst);
  const guint8 *state = pass->state;
  const guint32 *map = pass->map;
  guint8 *in_order;

  if (pass->has_frames)
    return NULL;

  in_order = scratch_new (pass->n_nodes, 1);
  for (guint32 n = 0; n < pass->n_nodes; n++)
    {
      const BlNode *node = &pass->nodes[n];
      guint32 image, c;

      if (state[n] != STATE_MADE)
        continue;
      image = map[n];

      /* its parent's image was made for its parent alone */
      if (!pass->shared[dst[image].parent])
        {
          c = next_made (pass, node->next_sibling);
          dst[image].next_sibling = c == BL_NODE_NONE ? BL_NODE_NONE : map[c];
        }
      if (!pass->shared[image])
        {
          c = next_made (pass, node->first_child);
          dst[image].first_child = c == BL_NODE_NONE ? BL_NODE_NONE : map[c];
          in_order[image] = TRUE;
        }
    }

  return in_order;
}

typedef struct
{
  const char *name;
  const char *file;
  guint32     function;
} NamedFunction;

static int
compare_functions (gconstpointer a,
                   gconstpointer b)
{
  const NamedFunction *fa = a;
  const NamedFunction *fb = b;
  int c = strcmp (fa->name, fb->name);

  return c != 0 ? c : strcmp (fa->file, fb->file);
}

typedef struct
{
  guint32 rank;
  guint32 node;
} RankedKid;

static int
compare_ranked_kids (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  const RankedKid *ka = a;
  const RankedKid *kb = b;

  return ka->rank < kb->rank ? -1 : ka->rank > kb->rank;
}

/* The children of the shared nodes, in the order bl_profile_finish() sorts
 * them into (by name, then file): the input's functions are ranked so once
 * (no two children of a node have the same function), the recorded
 * children are grouped by parent with a counting sort, and each group is
 * sorted by rank and linked; the finish then sorts nothing. */
static void
link_shared_children (Pass   *pass,
                      guint8 *in_order)
{
  guint n_dst = bl_profile_get_n_nodes (pass->dst);
  BlNode *dst = _bl_profile_get_nodes_mutable (pass->dst);
  g_autofree NamedFunction *order = NULL;
  g_autofree guint32 *rank = NULL;
  g_autoptr(GArray) group = NULL;
  guint32 *start, *sorted;

  if (pass->n_kids == 0)
    return;

  order = g_new (NamedFunction, MAX (pass->n_functions, 1));
  rank = g_new (guint32, MAX (pass->n_functions, 1));
  for (guint32 f = 0; f < pass->n_functions; f++)
    {
      const BlFunction *function = bl_profile_get_function (pass->src, f);

      order[f].name = bl_profile_get_string (pass->src, function->name);
      order[f].file = bl_profile_get_string (pass->src, function->file);
      order[f].function = f;
    }
  qsort (order, pass->n_functions, sizeof (NamedFunction), compare_functions);
  for (guint32 i = 0; i < pass->n_functions; i++)
    rank[order[i].function] = i;

  /* start[p]: where the children of p begin in sorted */
  start = scratch_new ((gsize) n_dst + 1, sizeof (guint32));
  sorted = scratch_new (pass->n_kids, sizeof (guint32));
  for (gsize i = 0; i < pass->n_kids; i++)
    start[pass->kids[2 * i] + 1]++;
  for (guint32 p = 0; p < n_dst; p++)
    start[p + 1] += start[p];
  for (gsize i = 0; i < pass->n_kids; i++)
    sorted[start[pass->kids[2 * i]]++] = pass->kids[2 * i + 1];
  /* each start[p] is now where p's children end */

  group = g_array_new (FALSE, FALSE, sizeof (RankedKid));
  for (guint32 p = 0, begin = 0; p < n_dst; begin = start[p], p++)
    {
      RankedKid *k;
      guint len = start[p] - begin;

      if (len == 0)
        continue;

      g_array_set_size (group, len);
      k = (RankedKid *) group->data;
      for (guint j = 0; j < len; j++)
        {
          k[j].node = sorted[begin + j];
          k[j].rank = rank[pass->keys[k[j].node]];
        }
      if (len <= 16)
        {
          for (guint j = 1; j < len; j++)
            {
              RankedKid key = k[j];
              guint at = j;

              while (at > 0 && k[at - 1].rank > key.rank)
                {
                  k[at] = k[at - 1];
                  at--;
                }
              k[at] = key;
            }
        }
      else
        {
          g_qsort_with_data (k, len, sizeof (RankedKid), compare_ranked_kids, NULL);
        }

      dst[p].first_child = k[0].node;
      for (guint j = 0; j + 1 < len; j++)
        dst[k[j].node].next_sibling = k[j + 1].node;
      dst[k[len - 1].node].next_sibling = BL_NODE_NONE;
      in_order[p] = TRUE;
    }

  scratch_free (start, (gsize) n_dst + 1, sizeof (guint32));
  scratch_free (sorted, pass->n_kids, sizeof (guint32));
}

/* Per new node, whether no ancestor belongs to its function, when the
 * input says so (NULL: the finish works it out). Merging, hiding or
 * dropping frames and merging threads take from a node's path only frames
 * of other functions (or its thread's root, a function of its own), so a
 * node is outermost as the node it was made for was; after collapsing
 * recursion no function is twice on a path. A focus cuts the path above
 * the focused frame, so the finish walks that tree (a smaller one). */
static gboolean
carries_outermost (BlTransformKind kind)
{
  switch (kind)
    {
    case BL_TRANSFORM_COLLAPSE_RECURSION:
    case BL_TRANSFORM_MERGE_FUNCTION:
    case BL_TRANSFORM_HIDE:
    case BL_TRANSFORM_DROP_FUNCTION:
    case BL_TRANSFORM_MERGE_THREADS:
    case BL_TRANSFORM_MERGE_ALL_THREADS:
      return TRUE;

    case BL_TRANSFORM_FOCUS_FUNCTION:
    case BL_TRANSFORM_FOCUS_PATH:
    case BL_N_TRANSFORM_KINDS:
    default:
      return FALSE;
    }
}

/* The self values, when the sweep did not add them as it went */
static void
copy_values (Pass *pass)
{
  for (guint m = 0; m < BL_N_METRICS; m++)
    {
      const guint64 *self;
      guint64 *to;

      if (!bl_profile_has_metric (pass->src, m))
        continue;

      to = _bl_profile_get_self_mutable (pass->dst, m);
      self = bl_profile_get_self_array (pass->src, m);
      for (guint32 n = 0; n < pass->n_nodes; n++)
        if (self[n] != 0 && pass->state[n] >= STATE_MERGED)
          to[pass->map[n]] = bl_saturating_add (to[pass->map[n]], self[n]);
    }
}

/* A line goes only with the last node of its function: one that is kept,
 * merged into a caller (its values stay with its own lines), or was merged
 * by an earlier transform (it has no node left) keeps its lines. Lines cannot
 * be split by call path, so a function that is still called elsewhere keeps
 * all of its lines' values. */
static void
copy_lines (Pass *pass)
{
  guint n_lines = bl_profile_get_n_lines (pass->src);
  guint n_strings = bl_profile_get_n_strings (pass->src);
  const guint8 *alive = pass->alive;

  if (n_lines == 0)
    return;

  for (guint32 i = 0; i < n_lines; i++)
    {
      const BlLine *line = bl_profile_get_line (pass->src, i);
      guint32 image;

      if (line->function < n_strings && alive[line->function] == 1)
        continue;

      /* strings map one to one, so no two input lines become one: no
       * lookup needed */
      image = _bl_profile_append_line (pass->dst, pass->strings[line->file], line->line,
                                       line->function < n_strings
                                       ? pass->strings[line->function] : 0);
      for (guint m = 0; m < BL_N_METRICS; m++)
        {
          guint64 v;

          if (!bl_profile_has_metric (pass->src, m))
            continue;
          v = bl_profile_get_line_value (pass->src, m, i);
          if (v != 0)
            bl_profile_add_line_value (pass->dst, image, m, v);
        }
    }
}

static void
copy_samples (Pass *pass)
{
  const BlNode *dst_nodes = NULL;

  for (guint t = 0; t < bl_profile_get_n_threads (pass->src); t++)
    {
      gsize n_samples = 0;
      const BlOrderedSample *samples = bl_profile_get_samples (pass->src, t, &n_samples);

      for (gsize i = 0; i < n_samples; i++)
        {
          guint32 n = samples[i].node;
          guint32 image;

          if (n >= pass->n_nodes || pass->state[n] < STATE_MERGED)
            continue;
          image = pass->map[n];
          dst_nodes = bl_profile_get_nodes (pass->dst);   /* stable: no nodes are added now */
          bl_profile_add_sample (pass->dst, dst_nodes[image].thread, image, samples[i].weight);
        }
    }
}

typedef struct
{
  guint32 node;       /* dst */
  guint32 depth;
  guint64 start;
  guint64 end;
  guint   order;
} SpanRecord;

typedef struct
{
  BlProfile *dst;
  GArray    *out;     /* SpanRecord */
  GArray    *open;    /* indexes into out, by depth - 1 */
  GArray    *path;
  guint64    last_end;
  gboolean   any;
} SpanBuilder;

static void
span_builder_close (SpanBuilder *b,
                    guint        keep,
                    guint64      at)
{
  for (guint d = keep; d < b->open->len; d++)
    g_array_index (b->out, SpanRecord, g_array_index (b->open, guint, d)).end = at;
  if (b->open->len > keep)
    g_array_set_size (b->open, keep);
}

/* The image node @image was on top of the stack from @start to @end:
 * keep open what its path shares with the open spans, close the rest,
 * open the remainder (parents first). */
static void
span_builder_segment (SpanBuilder *b,
                      guint32      image,
                      guint64      start,
                      guint64      end)
{
  const BlNode *nodes = bl_profile_get_nodes (b->dst);
  guint32 n = image;
  guint shared;

  if (end <= start)
    return;
  if (b->any && start != b->last_end)
    span_builder_close (b, 0, b->last_end);    /* a gap */

  g_array_set_size (b->path, 0);
  while (n != BL_NODE_NONE && nodes[n].depth > 0)
    {
      guint32 depth = nodes[n].depth;

      if (depth <= b->open->len &&
          g_array_index (b->out, SpanRecord, g_array_index (b->open, guint, depth - 1)).node == n)
        break;
      g_array_append_val (b->path, n);
      n = nodes[n].parent;
    }
  shared = (n != BL_NODE_NONE && nodes[n].depth > 0) ? nodes[n].depth : 0;
  span_builder_close (b, shared, start);

  for (guint i = b->path->len; i > 0; i--)
    {
      SpanRecord r;
      guint index = b->out->len;

      r.node = g_array_index (b->path, guint32, i - 1);
      r.depth = nodes[r.node].depth;
      r.start = start;
      r.end = end;
      r.order = index;
      g_array_append_val (b->out, r);
      g_array_append_val (b->open, index);
    }

  b->last_end = end;
  b->any = TRUE;
}

static void
span_builder_emit (Pass        *pass,
                   SpanBuilder *b,
                   guint32      src_node,
                   guint64      start,
                   guint64      end)
{
  if (end <= start)
    return;
  if (pass->state[src_node] < STATE_MERGED)
    {
      span_builder_close (b, 0, b->any ? b->last_end : start);
      return;
    }
  span_builder_segment (b, pass->map[src_node], start, end);
}

static int
compare_span_records (gconstpointer a,
                      gconstpointer b)
{
  const SpanRecord *ra = a;
  const SpanRecord *rb = b;

  if (ra->start != rb->start)
    return ra->start < rb->start ? -1 : 1;
  if (ra->depth != rb->depth)
    return ra->depth < rb->depth ? -1 : 1;

  return ra->order < rb->order ? -1 : ra->order > rb->order;
}

/* Spans: the input's spans say which node was on top of each thread's
 * stack when; that sequence, mapped, gives the new spans. A merged or
 * collapsed frame so no longer splits its caller's span in two, and a
 * dropped subtree leaves a gap. */
static void
copy_spans (Pass *pass)
{
  guint n_threads = bl_profile_get_n_threads (pass->src);
  guint n_dst_threads = bl_profile_get_n_threads (pass->dst);
  g_autoptr(GPtrArray) per_thread = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr(GArray) open_src = g_array_new (FALSE, FALSE, sizeof (gsize));   /* span indices */
  g_autofree guint8 *has_range = g_new0 (guint8, MAX (n_dst_threads, 1));
  g_autofree guint64 *range_start = g_new0 (guint64, MAX (n_dst_threads, 1));
  g_autofree guint64 *range_end = g_new0 (guint64, MAX (n_dst_threads, 1));
  const BlNode *dst_nodes = bl_profile_get_nodes (pass->dst);
  SpanBuilder b = { 0 };

  for (guint t = 0; t < n_dst_threads; t++)
    g_ptr_array_add (per_thread, g_array_new (FALSE, FALSE, sizeof (SpanRecord)));

  b.dst = pass->dst;
  b.open = g_array_new (FALSE, FALSE, sizeof (guint));
  b.path = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint t = 0; t < n_threads; t++)
    {
      BlSpanList list;
      gsize n_spans = bl_profile_get_spans (pass->src, t, &list) ? list.n_spans : 0;
      const BlSpan *spans = list.spans;
      guint32 root_image = pass->roots[t];
      guint64 s, e, now = 0;

      if (root_image == BL_NODE_NONE)
        continue;

      if (bl_profile_get_time_range (pass->src, t, &s, &e))
        {
          guint dt = dst_nodes[root_image].thread;

          if (!has_range[dt])
            {
              range_start[dt] = s;
              range_end[dt] = e;
            }
          range_start[dt] = MIN (range_start[dt], s);
          range_end[dt] = MAX (range_end[dt], e);
          has_range[dt] = TRUE;
        }
      if (n_spans == 0)
        continue;

      b.out = g_ptr_array_index (per_thread, dst_nodes[root_image].thread);
      b.any = FALSE;
      g_array_set_size (b.open, 0);
      g_array_set_size (open_src, 0);

      for (gsize i = 0; i < n_spans; i++)
        {
          const BlSpan *span = &spans[i];

          if (span->node >= pass->n_nodes)
            continue;
          while (open_src->len > 0)
            {
              gsize top = g_array_index (open_src, gsize, open_src->len - 1);
              guint64 top_end = bl_span_list_get_end (&list, top);

              if (top_end > span->start)
                break;
              span_builder_emit (pass, &b, spans[top].node, now, top_end);
              now = MAX (now, top_end);
              g_array_set_size (open_src, open_src->len - 1);
            }
          if (open_src->len > 0)
            span_builder_emit (pass, &b,
                               spans[g_array_index (open_src, gsize, open_src->len - 1)].node,
                               now, span->start);
          now = MAX (now, span->start);
          g_array_append_val (open_src, i);
        }
      while (open_src->len > 0)
        {
          gsize top = g_array_index (open_src, gsize, open_src->len - 1);
          guint64 top_end = bl_span_list_get_end (&list, top);

          span_builder_emit (pass, &b, spans[top].node, now, top_end);
          now = MAX (now, top_end);
          g_array_set_size (open_src, open_src->len - 1);
        }
      if (b.any)
        span_builder_close (&b, 0, b.last_end);
    }

  for (guint t = 0; t < n_dst_threads; t++)
    {
      GArray *records = g_ptr_array_index (per_thread, t);

      g_array_sort (records, compare_span_records);
      for (guint i = 0; i < records->len; i++)
        {
          const SpanRecord *r = &g_array_index (records, SpanRecord, i);
          guint index = bl_profile_add_span (pass->dst, t, r->node, r->start);

          bl_profile_set_span_end (pass->dst, t, index, r->end);
        }
      if (has_range[t])
        bl_profile_set_time_range (pass->dst, t, range_start[t], range_end[t]);
    }

  g_array_unref (b.open);
  g_array_unref (b.path);
}

static void
copy_info (Pass *pass)
{
  const BlProfileInfo *from = bl_profile_get_info (pass->src);
  BlProfileInfo *to = bl_profile_get_info_mutable (pass->dst);
  const BlHistogramBucket *buckets;
  guint n_buckets = 0;

  to->major = from->major;
  to->minor = from->minor;
  to->patch = from->patch;
  to->target = g_strdup (from->target);
  to->supplemental = g_strdup (from->supplemental);
  to->version = g_strdup (from->version);
  to->vendor = g_strdup (from->vendor);
  to->model = g_strdup (from->model);
  to->firmware = g_strdup (from->firmware);
  to->start_ms = from->start_ms;
  to->end_ms = from->end_ms;
  to->requested_ratio = from->requested_ratio;
  to->actual_ratio = from->actual_ratio;
  to->has_lines = from->has_lines;
  to->has_memory = from->has_memory;
  to->unmatched_frees = from->unmatched_frees;
  to->unmatched_free_bytes = from->unmatched_free_bytes;

  if (bl_profile_is_incomplete (pass->src))
    {
      /* set_incomplete() adds the reason to the warnings too: add the
       * other warnings without it */
      const char *reason = bl_profile_get_incomplete_reason (pass->src);
      const char *warning = bl_profile_get_warning (pass->src);
      g_autoptr(GString) rest = g_string_new (warning);
      const char *found = strstr (rest->str, reason);

      bl_profile_set_incomplete (pass->dst, reason);
      if (found != NULL)
        {
          gsize pos = found - rest->str;
          gsize len = strlen (reason);

          if (pos + len < rest->len && rest->str[pos + len] == ' ')
            len++;
          else if (pos > 0 && rest->str[pos - 1] == ' ')
            pos--, len++;
          g_string_erase (rest, pos, len);
        }
      if (rest->len > 0)
        bl_profile_add_warning (pass->dst, rest->str);
    }
  else if (bl_profile_get_warning (pass->src) != NULL)
    {
      bl_profile_add_warning (pass->dst, bl_profile_get_warning (pass->src));
    }

  buckets = bl_profile_get_histogram (pass->src, &n_buckets);
  if (buckets != NULL)
    bl_profile_set_histogram (pass->dst, buckets, n_buckets);
}

static void
copy_strings_and_frames (Pass *pass)
{
  guint n_strings = bl_profile_get_n_strings (pass->src);
  guint n_frames = bl_profile_get_n_frames (pass->src);

  pass->strings = g_new (guint32, MAX (n_strings, 1));
  pass->strings[0] = 0;
  for (guint i = 1; i < n_strings; i++)
    pass->strings[i] = bl_profile_intern (pass->dst, bl_profile_get_string (pass->src, i));

  for (guint i = 0; i < n_frames; i++)
    {
      const BlFrame *f = bl_profile_get_frame (pass->src, i);

      bl_profile_add_frame (pass->dst, pass->strings[f->name], pass->strings[f->file],
                            f->line, f->col);
    }
  pass->has_frames = n_frames > 0;
}

static void
pass_clear (Pass *pass)
{
  g_clear_object (&pass->dst);
  g_clear_pointer (&pass->strings, g_free);
  scratch_free (pass->map, pass->n_nodes, sizeof (guint32));
  scratch_free (pass->state, pass->n_nodes, 1);
  scratch_free (pass->shared, pass->n_nodes, 1);
  scratch_free (pass->keys, pass->n_nodes, sizeof (guint32));
  scratch_free (pass->kids, 2 * (gsize) pass->n_nodes, sizeof (guint32));
  pass->kids = NULL;
  scratch_free (pass->child_slots, pass->child_mask + 1, sizeof (ChildSlot));
  pass->map = pass->keys = NULL;
  pass->state = pass->shared = NULL;
  pass->child_slots = NULL;
  g_clear_pointer (&pass->roots, g_free);
  g_clear_pointer (&pass->matches, g_free);
  g_clear_pointer (&pass->path, g_free);
  g_clear_pointer (&pass->outermost, g_free);
  g_clear_pointer (&pass->alive, g_free);
}

/**
 * bl_transform_apply:
 *
 * Returns: (transfer full) (nullable): the transformed profile, finished;
 *   %NULL with G_IO_ERROR_CANCELLED if @cancellable was cancelled
 */
BlProfile *
bl_transform_apply (const BlTransform  *self,
                    BlProfile          *profile,
                    GCancellable       *cancellable,
                    GError            **error)
{
  Pass pass = { 0 };
  guint n_threads;
  gboolean focus;
  gboolean ok;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (BL_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (bl_profile_is_finished (profile), NULL);

  pass.t = self;
  pass.src = profile;
  pass.dst = bl_profile_new (bl_profile_get_info (profile)->format);
  pass.nodes = bl_profile_get_nodes (profile);
  pass.n_nodes = bl_profile_get_n_nodes (profile);
  pass.n_functions = bl_profile_get_n_functions (profile);
  pass.node_function = _bl_profile_get_node_functions (profile);
  pass.src_outermost = _bl_profile_get_outermost (profile);
  n_threads = bl_profile_get_n_threads (profile);
  focus = self->kind == BL_TRANSFORM_FOCUS_FUNCTION || self->kind == BL_TRANSFORM_FOCUS_PATH;

  copy_strings_and_frames (&pass);
  copy_info (&pass);

  /* scratch written before it is read: no need to clear it (the new
   * profile has no more nodes than the input) */
  pass.map = scratch_new (pass.n_nodes, sizeof (guint32));
  pass.state = scratch_new (pass.n_nodes, 1);
  pass.keys = scratch_new (pass.n_nodes, sizeof (guint32));
  pass.shared = scratch_new (pass.n_nodes, 1);
  if (carries_outermost (self->kind) && self->kind != BL_TRANSFORM_COLLAPSE_RECURSION)
    pass.outermost = g_new (guint8, MAX (pass.n_nodes, 1));
  if (bl_profile_get_n_lines (profile) > 0)
    pass.alive = g_new0 (guint8, MAX (bl_profile_get_n_strings (profile), 1));
  if (!pass.has_frames)
    {
      child_table_init (&pass);
      pass.kids = scratch_new (2 * (gsize) pass.n_nodes, sizeof (guint32));
    }
  pass.roots = g_new (guint32, MAX (n_threads, 1));
  for (guint t = 0; t < n_threads; t++)
    pass.roots[t] = BL_NODE_NONE;
  pass.matches = match_strings (self, profile);
  if (self->kind == BL_TRANSFORM_FOCUS_PATH)
    pass.path = split_path (profile, self->argument, &pass.path_len);

  /* the kinds that keep most nodes: room for all of them (and their
   * values) at once, so the sweep adds the self values as it goes */
  for (guint m = 0; m < BL_N_METRICS; m++)
    {
      if (!bl_profile_has_metric (profile, m))
        continue;
      bl_profile_enable_metric (pass.dst, m);
      bl_profile_set_metric_decimals (pass.dst, m, bl_profile_get_metric_decimals (profile, m));
    }
  if (!focus)
    {
      _bl_profile_reserve_nodes (pass.dst, pass.n_nodes);
      for (guint m = 0; m < BL_N_METRICS; m++)
        {
          if (!bl_profile_has_metric (profile, m))
            continue;
          pass.src_self[pass.n_values] = bl_profile_get_self_array (profile, m);
          pass.dst_self[pass.n_values++] = _bl_profile_get_self_mutable (pass.dst, m);
        }
    }

  if (self->kind == BL_TRANSFORM_COLLAPSE_RECURSION)
    ok = sweep_recursion (&pass, cancellable);
  else
    ok = sweep (&pass, cancellable);

  if (!ok || g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      if (!ok)
        g_cancellable_set_error_if_cancelled (cancellable, error);
      pass_clear (&pass);
      return NULL;
    }
  scratch_free (pass.child_slots, pass.child_mask + 1, sizeof (ChildSlot));
  pass.child_slots = NULL;

  if (focus)
    copy_values (&pass);
  copy_lines (&pass);
  copy_samples (&pass);
  copy_spans (&pass);

  {
    guint n_dst = bl_profile_get_n_nodes (pass.dst);
    guint8 *in_order = link_children_in_order (&pass);

    if (in_order != NULL)
      link_shared_children (&pass, in_order);

    /* after collapsing recursion no function is twice on a path */
    if (self->kind == BL_TRANSFORM_COLLAPSE_RECURSION)
      {
        pass.outermost = g_malloc (MAX (n_dst, 1));
        memset (pass.outermost, TRUE, MAX (n_dst, 1));
      }

    _bl_profile_finish_from (pass.dst, pass.keys,
                             pass.n_functions + bl_profile_get_n_threads (pass.dst),
                             pass.outermost, in_order);
    if (in_order != NULL)
      scratch_free (in_order, pass.n_nodes, 1);
  }

  {
    BlProfile *result = g_steal_pointer (&pass.dst);

    pass_clear (&pass);
    return result;
  }
}

/**
 * bl_transform_apply_all:
 * @transforms: (element-type BlTransform): the steps, in order
 *
 * Returns: (transfer full) (nullable): the transformed profile, or %NULL
 *   if cancelled
 */
BlProfile *
bl_transform_apply_all (GPtrArray     *transforms,
                        BlProfile     *profile,
                        GCancellable  *cancellable,
                        GError       **error)
{
  g_autoptr(BlProfile) current = NULL;

  g_return_val_if_fail (BL_IS_PROFILE (profile), NULL);

  current = g_object_ref (profile);
  for (guint i = 0; transforms != NULL && i < transforms->len; i++)
    {
      BlProfile *next = bl_transform_apply (g_ptr_array_index (transforms, i), current,
                                            cancellable, error);

      if (next == NULL)
        return NULL;
      g_set_object (&current, next);
      g_object_unref (next);
    }

  return g_steal_pointer (&current);
}
