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

/* ---- writing ------------------------------------------------------------
 *
 * Folded output is sorted by stack string (strcmp order) and identical
 * stacks are summed. Building every stack string first costs memory
 * quadratic in the call depth, so the walk below produces the lines in that
 * order directly, from one growing prefix: it walks the character trie of
 * all stack strings, whose states are sets of positions inside node labels
 * (a thread root's label is its name, any other node's is ";" + its name).
 * Positions that share the text so far are split by their next byte, in
 * byte order; a run of positions that agree on several bytes advances by
 * all of them at once. Frames are kept on an explicit stack (no recursion),
 * and every node is in at most one pending position, so the extra memory is
 * linear in the number of nodes, never in the length of the stacks.
 */

typedef struct
{
  const char *name;
  gsize       label_len;
  gsize       k;          /* bytes of the label already matched */
  guint32     node;
  gboolean    root;
} Pos;

typedef struct
{
  gsize start;            /* the frame's positions are [start, end) */
  gsize end;
  gsize base_len;         /* length of the prefix before this frame */
  gsize lcp;              /* bytes all its positions share next */
} Frame;

static inline int
pos_char (const Pos *p,
          gsize      i)
{
  if (i >= p->label_len)
    return -1;
  if (p->root)
    return (guchar) p->name[i];

  return i == 0 ? ';' : (guchar) p->name[i - 1];
}

/* The bytes of @p's label from @k on; @k must be past a non-root label's
 * leading ";" (which is not stored). */
static inline const char *
pos_bytes (const Pos *p,
           gsize      k)
{
  return p->root ? p->name + k : p->name + k - 1;
}

/* Descending by the rest of the label, so that the smallest run ends up on
 * top of the stack: a leading ";" byte by byte, the rest with memcmp(),
 * which orders bytes as unsigned char like strcmp(). */
static int
compare_pos_desc (const void *a,
                  const void *b)
{
  const Pos *pa = a;
  const Pos *pb = b;
  gsize ka = pa->k;
  gsize kb = pb->k;
  gsize na, nb;
  int c;

  if ((!pa->root && ka == 0) || (!pb->root && kb == 0))
    {
      int ca = pos_char (pa, ka);
      int cb = pos_char (pb, kb);

      if (ca != cb)
        return ca < cb ? 1 : -1;
      if (ca < 0)
        return 0;
      ka++;
      kb++;
    }

  na = pa->label_len - ka;
  nb = pb->label_len - kb;
  c = memcmp (pos_bytes (pa, ka), pos_bytes (pb, kb), MIN (na, nb));
  if (c != 0)
    return c < 0 ? 1 : -1;
  if (na == nb)
    return 0;

  return na < nb ? 1 : -1;
}

/* How many bytes @a and @b share from their positions on, knowing that
 * they share the first @n. */
static gsize
pos_common (const Pos *a,
            const Pos *b,
            gsize      n)
{
  const char *sa, *sb;
  gsize max, i;

  /* a leading ";" not yet entered */
  while ((!a->root && a->k + n == 0) || (!b->root && b->k + n == 0))
    {
      int ca = pos_char (a, a->k + n);

      if (ca < 0 || ca != pos_char (b, b->k + n))
        return n;
      n++;
    }

  if (a->k + n >= a->label_len || b->k + n >= b->label_len)
    return n;
  sa = pos_bytes (a, a->k + n);
  sb = pos_bytes (b, b->k + n);
  max = MIN (a->label_len - a->k, b->label_len - b->k) - n;
  for (i = 0; i < max && sa[i] == sb[i]; i++)
    ;

  return n + i;
}

/* Appends @n bytes of @p's label from its position + @from to @prefix. */
static void
append_label (GString   *prefix,
              const Pos *p,
              gsize      from,
              gsize      n)
{
  gsize k = p->k + from;

  if (n == 0)
    return;
  if (!p->root && k == 0)
    {
      g_string_append_c (prefix, ';');
      k++;
      n--;
    }
  g_string_append_len (prefix, pos_bytes (p, k), n);
}

static void
push_pos (GArray                *positions,
          const BlFoldedTree    *tree,
          guint32                node,
          gboolean               root)
{
  Pos p;

  p.name = tree->get_name (tree->data, node);
  p.label_len = strlen (p.name) + (root ? 0 : 1);
  p.k = 0;
  p.node = node;
  p.root = root;
  g_array_append_val (positions, p);
}

/**
 * bl_folded_walk:
 * @tree: how to walk the call tree
 * @roots: the thread roots
 * @emit: called once per distinct stack string that at least one node
 *   reads as, in strcmp order, with those nodes
 *
 * Walks a call tree as its folded stacks ("thread;frame;…;frame"), without
 * building a string per node; see above.
 *
 * Returns: %FALSE as soon as @emit does
 */
gboolean
bl_folded_walk (const BlFoldedTree  *tree,
                const guint32       *roots,
                guint                n_roots,
                BlFoldedEmitFunc     emit,
                gpointer             user_data,
                GError             **error)
{
  g_autoptr(GArray) positions = g_array_new (FALSE, FALSE, sizeof (Pos));
  g_autoptr(GArray) scratch = g_array_new (FALSE, FALSE, sizeof (Pos));
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  g_autoptr(GArray) complete = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GString) prefix = g_string_new (NULL);
  Frame first = { 0, 0, 0, 0 };

  if (n_roots == 0)
    return TRUE;

  for (guint i = 0; i < n_roots; i++)
    push_pos (positions, tree, roots[i], TRUE);
  first.end = positions->len;
  g_array_append_val (frames, first);

  while (frames->len > 0)
    {
      Frame frame = g_array_index (frames, Frame, frames->len - 1);
      const Pos *head;
      gsize run_end;

      g_array_set_size (frames, frames->len - 1);
      g_array_set_size (scratch, 0);
      g_array_append_vals (scratch, &g_array_index (positions, Pos, frame.start),
                           frame.end - frame.start);
      g_array_set_size (positions, frame.start);

      /* the bytes every position of the frame shares */
      g_string_truncate (prefix, frame.base_len);
      head = &g_array_index (scratch, Pos, 0);
      append_label (prefix, head, 0, frame.lcp);

      g_array_set_size (complete, 0);
      for (guint i = 0; i < scratch->len; i++)
        {
          Pos *p = &g_array_index (scratch, Pos, i);

          p->k += frame.lcp;
          g_assert (p->k <= p->label_len);
          if (p->k == p->label_len)
            g_array_append_val (complete, p->node);
        }

      if (complete->len > 0 &&
          !emit (prefix->str, prefix->len, (const guint32 *) (gpointer) complete->data,
                 complete->len, user_data, error))
        return FALSE;

      /* what follows: the rest of the labels, and the children of the
       * positions that end here */
      for (guint i = 0; i < scratch->len; i++)
        {
          const Pos *p = &g_array_index (scratch, Pos, i);

          if (p->k < p->label_len)
            g_array_append_vals (positions, p, 1);
          else
            for (guint32 c = tree->first_child (tree->data, p->node);
                 c != BL_NODE_NONE;
                 c = tree->next_sibling (tree->data, c))
              push_pos (positions, tree, c, FALSE);
        }

      if (positions->len == frame.start)
        continue;

      if (positions->len - frame.start > 1)
        qsort (&g_array_index (positions, Pos, frame.start), positions->len - frame.start,
               sizeof (Pos), compare_pos_desc);

      /* one frame per run of positions with the same next byte */
      for (gsize run = frame.start; run < positions->len; run = run_end)
        {
          const Pos *a = &g_array_index (positions, Pos, run);
          const Pos *z;
          int c = pos_char (a, a->k);
          Frame next;

          run_end = run + 1;
          while (run_end < positions->len &&
                 pos_char (&g_array_index (positions, Pos, run_end),
                           g_array_index (positions, Pos, run_end).k) == c)
            run_end++;

          /* in a sorted run, the first and last share what all share */
          z = &g_array_index (positions, Pos, run_end - 1);
          next.lcp = z == a ? a->label_len - a->k : pos_common (a, z, 1);

          next.start = run;
          next.end = run_end;
          next.base_len = prefix->len;
          g_array_append_val (frames, next);
        }
    }

  return TRUE;
}

typedef struct
{
  BlProfile     *profile;
  BlMetricId     metric;
  guint          decimals;
  guint64        scale;    /* 10^decimals */
  const guint64 *self_values;
  GOutputStream *out;
  GCancellable  *cancellable;
  GString       *buffer;
} FoldedWriter;

/* The profile's nodes and names read straight from its arrays: the walk
 * asks for them once per node. */
typedef struct
{
  const BlNode  *nodes;
  const char   **names;    /* by string id */
  guint          n_names;
} ProfileTree;

static const char *
profile_get_name (gpointer data,
                  guint32  node)
{
  const ProfileTree *tree = data;
  guint32 name = tree->nodes[node].name;

  return name < tree->n_names ? tree->names[name] : "";
}

static guint32
profile_first_child (gpointer data,
                     guint32  node)
{
  return ((const ProfileTree *) data)->nodes[node].first_child;
}

static guint32
profile_next_sibling (gpointer data,
                      guint32  node)
{
  return ((const ProfileTree *) data)->nodes[node].next_sibling;
}

static gboolean
writer_flush (FoldedWriter  *writer,
              GError       **error)
{
  gboolean ok = g_output_stream_write_all (writer->out, writer->buffer->str, writer->buffer->len,
                                           NULL, writer->cancellable, error);

  g_string_truncate (writer->buffer, 0);

  return ok;
}

/* " VALUE\n" as bl_append_decimal() writes VALUE: the whole part, then the
 * fraction without its trailing zeros, if any. */
static void
writer_append_value (FoldedWriter *writer,
                     guint64       value)
{
  char text[48];
  char *end = text + sizeof text;
  char *p = end;
  guint64 whole = value / writer->scale;
  guint64 frac = value % writer->scale;

  *--p = '\n';
  if (frac != 0)
    {
      guint n = writer->decimals;

      while (n > 0 && frac % 10 == 0)
        {
          frac /= 10;
          n--;
        }
      for (; n > 0; n--)
        {
          *--p = (char) ('0' + frac % 10);
          frac /= 10;
        }
      *--p = '.';
    }
  do
    {
      *--p = (char) ('0' + whole % 10);
      whole /= 10;
    }
  while (whole != 0);
  *--p = ' ';

  g_string_append_len (writer->buffer, p, end - p);
}

static gboolean
writer_emit (const char     *stack,
             gsize           len,
             const guint32  *nodes,
             guint           n_nodes,
             gpointer        user_data,
             GError        **error)
{
  FoldedWriter *writer = user_data;
  guint64 sum = 0;

  for (guint i = 0; i < n_nodes; i++)
    sum = bl_saturating_add (sum, writer->self_values[nodes[i]]);
  if (sum == 0)
    return TRUE;

  g_string_append_len (writer->buffer, stack, len);
  if (writer->decimals <= 18)
    writer_append_value (writer, sum);
  else
    {
      g_string_append_c (writer->buffer, ' ');
      bl_profile_append_exact_value (writer->profile, writer->metric, sum, writer->buffer);
      g_string_append_c (writer->buffer, '\n');
    }

  if (writer->buffer->len >= 60 * 1024)
    return writer_flush (writer, error);

  return TRUE;
}

/**
 * bl_folded_write:
 * @metric: the metric whose self values are written
 *
 * Writes one line per distinct stack with a non-zero self value,
 * "thread;frame;…;frame VALUE", identical stacks summed (saturating at
 * 2^64-1), sorted by stack. Streams: the memory it takes does not grow with
 * the length of the stacks.
 */
gboolean
bl_folded_write (BlProfile      *profile,
                 BlMetricId      metric,
                 GOutputStream  *out,
                 GCancellable   *cancellable,
                 GError        **error)
{
  g_autoptr(GString) buffer = NULL;
  g_autofree guint32 *roots = NULL;
  g_autofree const char **names = NULL;
  ProfileTree nodes;
  BlFoldedTree tree = { &nodes, profile_get_name, profile_first_child, profile_next_sibling };
  FoldedWriter writer;
  guint n_roots;

  g_return_val_if_fail (BL_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (bl_profile_is_finished (profile), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  writer.self_values = bl_profile_get_self_array (profile, metric);
  if (writer.self_values == NULL)
    return TRUE;

  n_roots = bl_profile_get_n_threads (profile);
  roots = g_new (guint32, n_roots + 1);
  for (guint i = 0; i < n_roots; i++)
    roots[i] = bl_profile_get_thread_root (profile, i);

  nodes.nodes = bl_profile_get_nodes (profile);
  nodes.n_names = bl_profile_get_n_strings (profile);
  names = g_new (const char *, nodes.n_names + 1);
  for (guint i = 0; i < nodes.n_names; i++)
    names[i] = bl_profile_get_string (profile, i);
  nodes.names = names;

  buffer = g_string_sized_new (64 * 1024);
  writer.profile = profile;
  writer.metric = metric;
  writer.decimals = bl_profile_get_metric_decimals (profile, metric);
  writer.scale = 1;
  for (guint i = 0; i < writer.decimals && i < 18; i++)
    writer.scale *= 10;
  writer.out = out;
  writer.cancellable = cancellable;
  writer.buffer = buffer;

  if (!bl_folded_walk (&tree, roots, n_roots, writer_emit, &writer, error))
    return FALSE;

  return buffer->len == 0 || writer_flush (&writer, error);
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

/* The end of the line at @line: the first CR or LF, or NULL. Lines end in
 * LF, CRLF or a lone CR (old Mac files). */
static const char *
find_eol (const char *line,
          gsize       len)
{
  for (gsize i = 0; i < len; i++)
    if (line[i] == '\n' || line[i] == '\r')
      return line + i;

  return NULL;
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
      const char *nl = find_eol (text + pos, len - pos);
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
      if (nl != NULL && *nl == '\r' && pos < len && text[pos] == '\n')
        pos++;
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
      /* a stream's buffer may be empty (NULL) between fills */
      const char *line = src->data != NULL ? (const char *) src->data + src->pos : "";
      const char *nl = find_eol (line, src->len - src->pos);
      gsize line_len;
      gsize eol_len;

      /* a CR at the end of the buffer may be the first half of a CRLF */
      if ((nl == NULL || (*nl == '\r' && nl + 1 == (const char *) src->data + src->len)) &&
          !src->eof)
        {
          if (!bl_source_fill (src, src->pos, error))
            return NULL;
          continue;
        }
      if (nl == NULL && src->pos == src->len)
        break;

      line_len = nl != NULL ? (gsize) (nl - line) : src->len - src->pos;
      eol_len = nl == NULL ? 0 : *nl == '\r' && line_len + 1 < src->len - src->pos &&
                                 nl[1] == '\n' ? 2 : 1;
      reader.line_no++;

      /* a file cut in the middle of its last line: keep what was complete */
      if (nl == NULL && reader.n_stacks > 0 && !is_blank (line, line_len))
        {
          gsize s0, l0;
          guint64 c0;
          gboolean o0;

          if (memchr (line, 0, line_len) != NULL ||
              !split_line (line, line_len, &s0, &l0, &c0, &o0))
            {
              g_autofree char *reason =
                g_strdup_printf (_("The folded stacks end in the middle of line %" PRIu64
                                   " (byte %" PRIu64 "); that line was left out."),
                                 reader.line_no, bl_source_offset (src, src->pos));

              bl_profile_set_incomplete (profile, reason);
              src->pos = src->len;
              break;
            }
        }

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

      src->pos += line_len + eol_len;
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
