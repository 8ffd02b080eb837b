/* bl-folded.c — folded stacks: reader and writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-folded"

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "bl-folded.h"
#include "bl-source-private.h"

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
      g_string_append_c (buffer, ' ');
      bl_profile_append_exact_value (profile, metric, lines[i].value, buffer);
      g_string_append_c (buffer, '\n');

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

/* ---- reading ------------------------------------------------------------ */

G_DEFINE_QUARK (bl-folded-error-quark, bl_folded_error)

/* Splits one line (without its newline) into stack and count, as
 * flamegraph.pl and inferno do: surrounding white space is ignored and the
 * last run of spaces or tabs separates the count from the stack, so frames
 * may contain spaces. Returns FALSE if the line does not have that shape;
 * *overflow tells a count too large for 64 bits apart. */
static gboolean
split_line (const char *line,
            gsize       len,
            gsize      *stack_start,
            gsize      *stack_len,
            guint64    *count,
            gboolean   *overflow)
{
  gsize start = 0;
  gsize end = len;
  gsize digits;
  guint64 value = 0;

  *overflow = FALSE;

  while (start < end && g_ascii_isspace (line[start]))
    start++;
  while (end > start && g_ascii_isspace (line[end - 1]))
    end--;

  digits = end;
  while (digits > start && g_ascii_isdigit (line[digits - 1]))
    digits--;

  if (digits == end || digits == start ||
      (line[digits - 1] != ' ' && line[digits - 1] != '\t'))
    return FALSE;

  for (gsize i = digits; i < end; i++)
    {
      guint d = line[i] - '0';

      if (value > (G_MAXUINT64 - d) / 10)
        {
          *overflow = TRUE;
          return FALSE;
        }
      value = value * 10 + d;
    }

  *stack_start = start;
  *stack_len = digits - 1 - start;
  while (*stack_len > 0 && (line[start + *stack_len - 1] == ' ' ||
                            line[start + *stack_len - 1] == '\t'))
    (*stack_len)--;
  *count = value;

  return *stack_len > 0;
}

static gboolean
is_blank (const char *line,
          gsize       len)
{
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isspace (line[i]))
      return FALSE;

  return TRUE;
}

/**
 * bl_folded_detect:
 * @head: the first bytes of the input
 * @is_whole_file: whether @head is all of it
 *
 * Recognises folded stacks by content: text whose first non-blank line and
 * at least half of its complete lines look like "frame;frame;… COUNT" (a line
 * cut by the end of @head is not judged unless @head is the whole file).
 * A few bad lines do not stop recognition, so that the reader can name the
 * first of them by its line number.
 */
gboolean
bl_folded_detect (const guint8 *head,
                  gsize         len,
                  gboolean      is_whole_file)
{
  const char *text = (const char *) head;
  gsize pos = 0;
  guint n_lines = 0;
  guint n_good = 0;

  if (len == 0 || memchr (head, 0, len) != NULL)
    return FALSE;

  while (pos < len)
    {
      const char *nl = memchr (text + pos, '\n', len - pos);
      gsize line_len;
      gsize s, l;
      guint64 count;
      gboolean overflow;

      if (nl == NULL && !is_whole_file)
        break;
      line_len = nl != NULL ? (gsize) (nl - (text + pos)) : len - pos;

      if (!is_blank (text + pos, line_len))
        {
          /* a count too large for 64 bits is still a folded line: the
           * reader names it */
          if (split_line (text + pos, line_len, &s, &l, &count, &overflow) || overflow)
            n_good++;
          else if (n_lines == 0)
            return FALSE;
          n_lines++;
        }

      pos += line_len + 1;
    }

  return n_lines > 0 && n_good * 2 >= n_lines;
}

typedef struct
{
  BlProfile *profile;
  guint64    line_no;
  guint64    n_stacks;
} FoldedReader;

static gboolean
add_line (FoldedReader  *reader,
          const char    *line,
          gsize          len,
          guint64        offset,
          GError       **error)
{
  g_autofree char *valid = NULL;
  gsize start, stack_len;
  guint64 count;
  gboolean overflow;
  const char *stack;
  const char *p, *end;
  guint32 node = BL_NODE_NONE;

  if (is_blank (line, len))
    return TRUE;

  if (!split_line (line, len, &start, &stack_len, &count, &overflow))
    {
      if (overflow)
        g_set_error (error, BL_FOLDED_ERROR, BL_FOLDED_ERROR_BAD_COUNT,
                     _("Invalid folded stacks: the count on line %" PRIu64
                       " (byte %" PRIu64 ") does not fit in 64 bits."),
                     reader->line_no, offset);
      else
        g_set_error (error, BL_FOLDED_ERROR, BL_FOLDED_ERROR_BAD_LINE,
                     _("Invalid folded stacks: line %" PRIu64 " (byte %"
                       PRIu64 ") is not “frame;frame;… COUNT”."),
                     reader->line_no, offset);
      return FALSE;
    }

  stack = line + start;
  if (!g_utf8_validate (stack, stack_len, NULL))
    {
      valid = g_utf8_make_valid (stack, stack_len);
      stack = valid;
      stack_len = strlen (valid);
    }

  p = stack;
  end = stack + stack_len;
  for (;;)
    {
      const char *semi = memchr (p, ';', end - p);
      const char *frame_end = semi != NULL ? semi : end;
      guint32 name = bl_profile_intern_len (reader->profile, p, frame_end - p);

      if (node == BL_NODE_NONE)
        node = bl_profile_add_thread (reader->profile, name);
      else
        node = bl_profile_add_child (reader->profile, node, name, 0, 0);

      if (semi == NULL)
        break;
      p = semi + 1;
    }

  bl_profile_add_value (reader->profile, node, BL_METRIC_SAMPLES, count);
  reader->n_stacks++;

  return TRUE;
}

static BlProfile *
read_source (BlSource  *src,
             GError   **error)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("folded");
  FoldedReader reader = { 0, };

  reader.profile = profile;
  bl_profile_enable_metric (profile, BL_METRIC_SAMPLES);

  for (;;)
    {
      const char *line = (const char *) src->data + src->pos;
      const char *nl = memchr (line, '\n', src->len - src->pos);
      gsize line_len;

      if (nl == NULL && !src->eof)
        {
          if (!bl_source_fill (src, src->pos, error))
            return NULL;
          continue;
        }
      if (nl == NULL && src->pos == src->len)
        break;

      line_len = nl != NULL ? (gsize) (nl - line) : src->len - src->pos;
      reader.line_no++;

      if (memchr (line, 0, line_len) != NULL)
        {
          g_set_error (error, BL_FOLDED_ERROR, BL_FOLDED_ERROR_BAD_LINE,
                       _("Invalid folded stacks: line %" PRIu64 " (byte %"
                         PRIu64 ") contains a zero byte."),
                       reader.line_no, bl_source_offset (src, src->pos));
          return NULL;
        }

      if (!add_line (&reader, line, line_len, bl_source_offset (src, src->pos), error))
        return NULL;

      src->pos += line_len + (nl != NULL ? 1 : 0);
      if (!bl_source_tick (src, error))
        return NULL;
    }

  if (reader.n_stacks == 0)
    {
      g_set_error_literal (error, BL_FOLDED_ERROR, BL_FOLDED_ERROR_NO_STACKS,
                           _("Invalid folded stacks: the file holds no stack line."));
      return NULL;
    }

  bl_profile_finish (profile);

  return g_steal_pointer (&profile);
}

/**
 * bl_folded_read_stream:
 * @total: the size of the input, for progress, or 0
 *
 * Reads folded stacks ("a;b;c 123" lines) into a profile with the metric
 * samples. The first frame of each stack becomes the thread root, so that
 * bl_folded_write() gives back the input (identical stacks summed, sorted).
 * Blank lines are skipped; the first line of another shape is an error
 * that names its line number.
 *
 * Returns: (transfer full): the profile, or %NULL with @error set
 */
BlProfile *
bl_folded_read_stream (GInputStream   *stream,
                       guint64         total,
                       BlProgressFunc  progress,
                       gpointer        progress_data,
                       GCancellable   *cancellable,
                       GError        **error)
{
  BlSource src;
  BlProfile *profile = NULL;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);

  bl_source_init_stream (&src, stream, total, cancellable, progress, progress_data);
  if (bl_source_fill (&src, 0, error))
    profile = read_source (&src, error);
  if (profile != NULL && progress != NULL)
    progress (bl_source_offset (&src, src.len), total, progress_data);
  bl_source_clear (&src);

  return profile;
}

/**
 * bl_folded_read_memory:
 *
 * Returns: (transfer full): the profile, or %NULL with @error set
 */
BlProfile *
bl_folded_read_memory (const guint8  *data,
                       gsize          len,
                       GError       **error)
{
  BlSource src;
  BlProfile *profile;

  bl_source_init_memory (&src, data, len);
  profile = read_source (&src, error);
  bl_source_clear (&src);

  return profile;
}
