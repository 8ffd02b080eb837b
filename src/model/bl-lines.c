/* bl-lines.c — per-source-line views over a profile's line records
 *
 * A profile keeps one record per (file, line) with a value per metric; the
 * reader has already merged every path that reached the line. This file
 * ranks those records across the whole profile (the hot-lines list and
 * `brightlens-cli lines`) and gathers the records of one function or one
 * file in line order (the annotated source view).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-lines"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bl-lines.h"

struct _BlLineSet
{
  gatomicrefcount  ref_count;
  BlProfile       *profile;
  guint32          file;
  guint32          function;    /* BL_NODE_NONE for a file set */
  guint32         *lines;       /* line record indexes, by line number */
  guint            n_lines;
  guint64          sum[BL_N_METRICS];
  guint64          max[BL_N_METRICS];
};

G_DEFINE_BOXED_TYPE (BlLineSet, bl_line_set, bl_line_set_ref, bl_line_set_unref)

/**
 * bl_lines_compare:
 *
 * Orders two line records as the hot-lines list shows them: the larger
 * value for @metric first, then by file name, then by line number.
 *
 * Returns: < 0 when @a comes first, > 0 when @b does, 0 for the same record
 */
int
bl_lines_compare (BlProfile  *profile,
                  BlMetricId  metric,
                  guint32     a,
                  guint32     b)
{
  guint64 va = bl_profile_get_line_value (profile, metric, a);
  guint64 vb = bl_profile_get_line_value (profile, metric, b);
  const BlLine *la, *lb;
  int cmp;

  if (va != vb)
    return va > vb ? -1 : 1;

  la = bl_profile_get_line (profile, a);
  lb = bl_profile_get_line (profile, b);
  if (la->file != lb->file)
    {
      cmp = strcmp (bl_profile_get_string (profile, la->file),
                    bl_profile_get_string (profile, lb->file));
      if (cmp != 0)
        return cmp;
      return la->file < lb->file ? -1 : 1;
    }
  if (la->line != lb->line)
    return la->line < lb->line ? -1 : 1;

  return a < b ? -1 : (a > b ? 1 : 0);
}

/* A record and the key it is sorted by. */
typedef struct
{
  guint64 key;
  guint32 index;
} KeyedRecord;

/* Sorts @entries by key, stably: a radix sort, least significant byte
 * first. A byte every key shares moves nothing and is skipped (most are:
 * values and places are small). About ten times faster than qsort() on
 * the 579,000 line records of a long session. */
static void
sort_by_key (KeyedRecord *entries,
             gsize        n)
{
  guint32 (*counts)[256];
  KeyedRecord *from = entries, *to;

  if (n < 2)
    return;

  counts = g_malloc0 (8 * sizeof *counts);
  for (gsize i = 0; i < n; i++)
    {
      guint64 key = entries[i].key;

      for (guint d = 0; d < 8; d++)
        counts[d][(key >> (8 * d)) & 0xff]++;
    }

  to = g_new (KeyedRecord, n);
  for (guint d = 0; d < 8; d++)
    {
      gsize offset = 0;
      KeyedRecord *swap;

      if (counts[d][(from[0].key >> (8 * d)) & 0xff] == n)
        continue;
      for (guint b = 0; b < 256; b++)
        {
          gsize c = counts[d][b];

          counts[d][b] = offset;
          offset += c;
        }
      for (gsize i = 0; i < n; i++)
        to[counts[d][(from[i].key >> (8 * d)) & 0xff]++] = from[i];
      swap = from, from = to, to = swap;
    }
  if (from != entries)
    {
      memcpy (entries, from, n * sizeof (KeyedRecord));
      to = from;
    }
  g_free (to);
  g_free (counts);
}

static int
compare_file_names (gconstpointer a,
                    gconstpointer b,
                    gpointer      user_data)
{
  BlProfile *profile = user_data;
  guint32 fa = *(const guint32 *) a;
  guint32 fb = *(const guint32 *) b;
  int cmp = strcmp (bl_profile_get_string (profile, fa), bl_profile_get_string (profile, fb));

  if (cmp != 0)
    return cmp;

  return fa < fb ? -1 : fa > fb ? 1 : 0;
}

/* file string → its place in bl_lines_compare()'s order of files (by name,
 * then by string index); strings that name no line's file get none */
static guint32 *
rank_files (BlProfile *profile)
{
  guint n_strings = bl_profile_get_n_strings (profile);
  guint n_lines = bl_profile_get_n_lines (profile);
  guint32 *place = g_new0 (guint32, MAX (n_strings, 1));
  g_autoptr(GArray) files = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint8 *seen = g_new0 (guint8, MAX (n_strings, 1));

  for (guint32 i = 0; i < n_lines; i++)
    {
      guint32 file = bl_profile_get_line (profile, i)->file;

      if (file < n_strings && !seen[file])
        {
          seen[file] = TRUE;
          g_array_append_val (files, file);
        }
    }
  g_free (seen);

  g_array_sort_with_data (files, compare_file_names, profile);
  for (guint k = 0; k < files->len; k++)
    place[g_array_index (files, guint32, k)] = k;

  return place;
}

/**
 * bl_lines_place_order:
 * @n_records: (out): the number of line records
 *
 * The line records in the order that breaks ties of value in the ranking:
 * by file name, then line number, then record. It is the same for every
 * metric, so that a view that ranks again (another metric) can keep it.
 * Reads the profile only: it may run in a worker thread.
 *
 * Returns: (transfer full) (array length=n_records): every line record's
 *   index; free with g_free()
 */
guint32 *
bl_lines_place_order (BlProfile *profile,
                      guint     *n_records)
{
  guint n_lines, n_strings;
  g_autofree guint32 *file_place = NULL;
  KeyedRecord *entries;
  guint32 *order;

  g_return_val_if_fail (BL_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (n_records != NULL, NULL);

  n_lines = bl_profile_get_n_lines (profile);
  n_strings = bl_profile_get_n_strings (profile);
  file_place = rank_files (profile);
  entries = g_new (KeyedRecord, MAX (n_lines, 1));
  for (guint32 i = 0; i < n_lines; i++)
    {
      const BlLine *line = bl_profile_get_line (profile, i);

      entries[i] = (KeyedRecord) {
        ((guint64) (line->file < n_strings ? file_place[line->file] : G_MAXUINT32) << 32) |
          line->line,
        i
      };
    }
  /* stable: records of one place stay in record order */
  sort_by_key (entries, n_lines);

  order = g_new (guint32, MAX (n_lines, 1));
  for (guint i = 0; i < n_lines; i++)
    order[i] = entries[i].index;
  g_free (entries);

  *n_records = n_lines;

  return order;
}

/**
 * bl_lines_rank_in_order:
 * @order: (array length=n_order): bl_lines_place_order() of @profile
 * @limit: the most records to return, 0 for all
 * @n_ranked: (out): how many were returned
 *
 * bl_lines_rank() with the place order already made.
 *
 * Returns: (transfer full) (array length=n_ranked): line record indexes,
 *   hottest first; free with g_free()
 */
guint32 *
bl_lines_rank_in_order (BlProfile     *profile,
                        const guint32 *order,
                        guint          n_order,
                        BlMetricId     metric,
                        guint          limit,
                        guint         *n_ranked)
{
  guint n = 0;
  KeyedRecord *entries;
  guint32 *ranked;

  g_return_val_if_fail (BL_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (n_order == bl_profile_get_n_lines (profile), NULL);
  g_return_val_if_fail (order != NULL || n_order == 0, NULL);
  g_return_val_if_fail (n_ranked != NULL, NULL);

  entries = g_new (KeyedRecord, MAX (n_order, 1));
  if (metric >= 0 && metric < BL_N_METRICS && bl_profile_has_metric (profile, metric))
    for (guint k = 0; k < n_order; k++)
      {
        guint64 v = bl_profile_get_line_value (profile, metric, order[k]);

        /* the complement: larger values first */
        if (v != 0)
          entries[n++] = (KeyedRecord) { ~v, order[k] };
      }

  /* stable: equal values stay in place order */
  sort_by_key (entries, n);

  if (limit != 0 && limit < n)
    n = limit;

  ranked = g_new (guint32, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    ranked[i] = entries[i].index;
  g_free (entries);

  *n_ranked = n;

  return ranked;
}

/**
 * bl_lines_rank:
 * @limit: the most records to return, 0 for all
 * @n_ranked: (out): how many were returned
 *
 * Ranks the line records whose value for @metric is not zero, in
 * bl_lines_compare()'s order. Reads the profile only: it may run in a
 * worker thread.
 *
 * Returns: (transfer full) (array length=n_ranked): line record indexes,
 *   hottest first; free with g_free()
 */
guint32 *
bl_lines_rank (BlProfile  *profile,
               BlMetricId  metric,
               guint       limit,
               guint      *n_ranked)
{
  g_autofree guint32 *order = NULL;
  guint n_order;

  g_return_val_if_fail (BL_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (n_ranked != NULL, NULL);

  order = bl_lines_place_order (profile, &n_order);

  return bl_lines_rank_in_order (profile, order, n_order, metric, limit, n_ranked);
}

/**
 * bl_lines_find_function:
 *
 * Returns: the function (an index for bl_profile_get_function()) that the
 *   line record belongs to, or %BL_NODE_NONE when no function has its name
 *   and file
 */
guint32
bl_lines_find_function (BlProfile *profile,
                        guint32    line_index)
{
  const BlLine *line;
  guint n_functions;
  guint32 best = BL_NODE_NONE;

  g_return_val_if_fail (BL_IS_PROFILE (profile), BL_NODE_NONE);
  g_return_val_if_fail (line_index < bl_profile_get_n_lines (profile), BL_NODE_NONE);

  line = bl_profile_get_line (profile, line_index);
  n_functions = bl_profile_get_n_functions (profile);

  for (guint32 f = 0; f < n_functions; f++)
    {
      const BlFunction *fn = bl_profile_get_function (profile, f);

      if (fn->name != line->function)
        continue;
      if (fn->file == line->file)
        return f;
      if (best == BL_NODE_NONE)
        best = f;
    }

  return best;
}

static int
line_number_compare (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  BlProfile *profile = user_data;
  guint32 la = bl_profile_get_line (profile, *(const guint32 *) a)->line;
  guint32 lb = bl_profile_get_line (profile, *(const guint32 *) b)->line;

  return la < lb ? -1 : (la > lb ? 1 : 0);
}

static BlLineSet *
line_set_new (BlProfile *profile,
              guint32    file,
              guint32    function,
              guint32    function_name)
{
  BlLineSet *self = g_new0 (BlLineSet, 1);
  BlMetricId metrics[BL_N_METRICS];
  guint n_metrics = bl_profile_list_metrics (profile, metrics);
  guint n_lines = bl_profile_get_n_lines (profile);

  g_atomic_ref_count_init (&self->ref_count);
  self->profile = g_object_ref (profile);
  self->file = file;
  self->function = function;
  self->lines = g_new (guint32, MAX (n_lines, 1));

  for (guint32 i = 0; i < n_lines; i++)
    {
      const BlLine *line = bl_profile_get_line (profile, i);

      if (line->file != file)
        continue;
      if (function != BL_NODE_NONE && line->function != function_name)
        continue;
      self->lines[self->n_lines++] = i;
    }

  g_qsort_with_data (self->lines, self->n_lines, sizeof (guint32), line_number_compare, profile);

  for (guint k = 0; k < n_metrics; k++)
    {
      BlMetricId m = metrics[k];

      for (guint p = 0; p < self->n_lines; p++)
        {
          guint64 v = bl_profile_get_line_value (profile, m, self->lines[p]);

          self->sum[m] = v > G_MAXUINT64 - self->sum[m] ? G_MAXUINT64 : self->sum[m] + v;
          self->max[m] = MAX (self->max[m], v);
        }
    }

  return self;
}

/**
 * bl_line_set_new_for_function:
 * @function: an index for bl_profile_get_function()
 *
 * Gathers the line records of @function: those in its file that the
 * profile attributes to its name.
 *
 * Returns: (transfer full): a new line set
 */
BlLineSet *
bl_line_set_new_for_function (BlProfile *profile,
                              guint32    function)
{
  const BlFunction *fn;

  g_return_val_if_fail (BL_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (bl_profile_is_finished (profile), NULL);
  g_return_val_if_fail (function < bl_profile_get_n_functions (profile), NULL);

  fn = bl_profile_get_function (profile, function);

  return line_set_new (profile, fn->file, function, fn->name);
}

/**
 * bl_line_set_new_for_file:
 * @file: a string id naming a source file
 *
 * Gathers every line record of @file, whatever function it belongs to.
 *
 * Returns: (transfer full): a new line set
 */
BlLineSet *
bl_line_set_new_for_file (BlProfile *profile,
                          guint32    file)
{
  g_return_val_if_fail (BL_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (bl_profile_is_finished (profile), NULL);

  return line_set_new (profile, file, BL_NODE_NONE, 0);
}

BlLineSet *
bl_line_set_ref (BlLineSet *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

void
bl_line_set_unref (BlLineSet *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_object_unref (self->profile);
  g_free (self->lines);
  g_free (self);
}

BlProfile *
bl_line_set_get_profile (BlLineSet *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->profile;
}

/* Returns: the string id of the source file */
guint32
bl_line_set_get_file (BlLineSet *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->file;
}

/* Returns: the function index, or %BL_NODE_NONE for a whole file */
guint32
bl_line_set_get_function (BlLineSet *self)
{
  g_return_val_if_fail (self != NULL, BL_NODE_NONE);

  return self->function;
}

guint
bl_line_set_get_n_lines (BlLineSet *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_lines;
}

guint32
bl_line_set_get_line_index (BlLineSet *self,
                            guint      position)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (position < self->n_lines, 0);

  return self->lines[position];
}

guint32
bl_line_set_get_line_number (BlLineSet *self,
                             guint      position)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (position < self->n_lines, 0);

  return bl_profile_get_line (self->profile, self->lines[position])->line;
}

guint64
bl_line_set_get_value (BlLineSet  *self,
                       BlMetricId  metric,
                       guint       position)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (position < self->n_lines, 0);

  return bl_profile_get_line_value (self->profile, metric, self->lines[position]);
}

/* Returns: the sum of @metric over the set's lines (saturating) */
guint64
bl_line_set_get_sum (BlLineSet  *self,
                     BlMetricId  metric)
{
  g_return_val_if_fail (self != NULL, 0);

  if (metric < 0 || metric >= BL_N_METRICS)
    return 0;

  return self->sum[metric];
}

/* Returns: the largest value of @metric on one line of the set */
guint64
bl_line_set_get_max (BlLineSet  *self,
                     BlMetricId  metric)
{
  g_return_val_if_fail (self != NULL, 0);

  if (metric < 0 || metric >= BL_N_METRICS)
    return 0;

  return self->max[metric];
}

/**
 * bl_line_set_find:
 * @position: (out) (optional): where @line_number is in the set
 *
 * Returns: whether the set has a record for @line_number
 */
gboolean
bl_line_set_find (BlLineSet *self,
                  guint32    line_number,
                  guint     *position)
{
  guint lo = 0, hi;

  g_return_val_if_fail (self != NULL, FALSE);

  hi = self->n_lines;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      guint32 at = bl_profile_get_line (self->profile, self->lines[mid])->line;

      if (at == line_number)
        {
          if (position)
            *position = mid;
          return TRUE;
        }
      if (at < line_number)
        lo = mid + 1;
      else
        hi = mid;
    }

  return FALSE;
}

/**
 * bl_line_set_get_hottest:
 * @position: (out) (optional): the hottest line's position in the set
 *
 * The hottest line is the one with the largest value for @metric, the
 * first in line order among equals.
 *
 * Returns: %FALSE when no line has a value for @metric
 */
gboolean
bl_line_set_get_hottest (BlLineSet  *self,
                         BlMetricId  metric,
                         guint      *position)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (metric < 0 || metric >= BL_N_METRICS || self->max[metric] == 0)
    return FALSE;

  for (guint p = 0; p < self->n_lines; p++)
    if (bl_profile_get_line_value (self->profile, metric, self->lines[p]) == self->max[metric])
      {
        if (position)
          *position = p;
        return TRUE;
      }

  return FALSE;
}
