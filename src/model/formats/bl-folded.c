/* bl-folded.c — folded stacks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-folded"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bl-folded.h"

typedef struct
{
  const char *stack;
  guint64     value;
} FoldedLine;

static int
compare_lines (const void *a,
               const void *b)
{
  return strcmp (((const FoldedLine *) a)->stack, ((const FoldedLine *) b)->stack);
}

/**
 * bl_folded_write:
 * @metric: the metric whose self values are written
 *
 * Writes one line per distinct stack with a non-zero self value,
 * "thread;frame;…;frame VALUE", identical stacks summed, sorted by stack.
 */
gboolean
bl_folded_write (BlProfile      *profile,
                 BlMetricId      metric,
                 GOutputStream  *out,
                 GCancellable   *cancellable,
                 GError        **error)
{
  g_autoptr(GHashTable) sums = NULL;
  g_autoptr(GStringChunk) chunk = NULL;
  g_autoptr(GString) buffer = NULL;
  g_autofree FoldedLine *lines = NULL;
  const guint64 *self_values;
  GHashTableIter iter;
  gpointer key, value;
  guint n_nodes;
  guint n = 0;

  g_return_val_if_fail (BL_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (bl_profile_is_finished (profile), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  self_values = bl_profile_get_self_array (profile, metric);
  if (self_values == NULL)
    return TRUE;

  n_nodes = bl_profile_get_n_nodes (profile);
  sums = g_hash_table_new (g_str_hash, g_str_equal);
  chunk = g_string_chunk_new (64 * 1024);

  for (guint32 i = 0; i < n_nodes; i++)
    {
      g_autofree char *text = NULL;
      guint64 *sum;

      if (self_values[i] == 0)
        continue;

      text = bl_profile_dup_stack_string (profile, i, ';');
      sum = g_hash_table_lookup (sums, text);
      if (sum == NULL)
        {
          const char *stored = g_string_chunk_insert (chunk, text);

          sum = g_new0 (guint64, 1);
          g_hash_table_insert (sums, (gpointer) stored, sum);
        }
      *sum += self_values[i];
    }

  lines = g_new (FoldedLine, g_hash_table_size (sums) + 1);
  g_hash_table_iter_init (&iter, sums);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      lines[n].stack = key;
      lines[n].value = *(guint64 *) value;
      g_free (value);
      n++;
    }
  qsort (lines, n, sizeof *lines, compare_lines);

  buffer = g_string_sized_new (64 * 1024);
  for (guint i = 0; i < n; i++)
    {
      g_string_append (buffer, lines[i].stack);
      g_string_append_printf (buffer, " %" G_GUINT64_FORMAT "\n", lines[i].value);

      if (buffer->len >= 60 * 1024 || i + 1 == n)
        {
          if (!g_output_stream_write_all (out, buffer->str, buffer->len, NULL,
                                          cancellable, error))
            return FALSE;
          g_string_truncate (buffer, 0);
        }
    }

  return TRUE;
}
