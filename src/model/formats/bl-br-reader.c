/* bl-br-reader.c — Business Rules! profiler output
 *
 * A stream of big-endian records, each starting with its type byte:
 * 1 module mapping (module number → file name); 3 current line (module,
 * line, clause) opening a sample that 6 closes; inside a sample, 4 the
 * time spent in the line (timed profiles), 5 backtrace entries (outermost
 * first), each of 3 and 5 optionally followed at once by 7 function name,
 * 8 GOSUB or 9 main routine.
 *
 * Each sample becomes one path in the call tree: a root named after the
 * outermost frame's module file, then the backtrace frames from the
 * outside in, then the current line's routine; frames are named by their
 * function, or "(GOSUB)" / "(main)" / "(routine)" in their module file.
 * The current line gets per-line data. Metrics: samples (one per current
 * line record) and time-ns (record 4).
 *
 * The format has no signature, so the grammar is checked strictly: a file
 * is taken for a BR profile only when its records parse.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-br"

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <string.h>

#include "bl-br-reader.h"
#include "bl-source-private.h"

G_DEFINE_QUARK (bl-br-error-quark, bl_br_error)

enum
{
  REC_MODULE = 1,
  REC_LINE = 3,
  REC_TIME = 4,
  REC_BACKTRACE = 5,
  REC_END_LINE = 6,
  REC_FUNCTION = 7,
  REC_GOSUB = 8,
  REC_MAIN = 9,
};

typedef enum
{
  KIND_NONE,
  KIND_FUNCTION,
  KIND_GOSUB,
  KIND_MAIN,
} FrameKind;

typedef enum
{
  PARSE_OK,
  PARSE_MORE,
  PARSE_ERROR,
} ParseResult;

typedef struct
{
  guint16   module;
  guint32   line;
  FrameKind kind;
  guint32   function;   /* interned, for KIND_FUNCTION */
} Frame;

typedef struct
{
  BlProfile *profile;      /* NULL: only check the grammar */
  guint32   *modules;      /* module number → interned file name + 1; 0: undefined */
  gboolean   in_line;
  gboolean   marker_allowed;
  GArray    *frames;       /* [0] the current line, then the backtrace */
  guint64    time_ns;
  gboolean   has_time;
  guint64    n_records;
  guint64    n_samples;
  guint32    names[4];     /* interned names for KIND_NONE … KIND_MAIN */
} Parser;

static void
parser_init (Parser    *parser,
             BlProfile *profile)
{
  memset (parser, 0, sizeof *parser);
  parser->profile = profile;
  parser->modules = g_new0 (guint32, G_MAXUINT16 + 1);
  parser->frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  if (profile != NULL)
    {
      parser->names[KIND_NONE] = bl_profile_intern (profile, "(routine)");
      parser->names[KIND_GOSUB] = bl_profile_intern (profile, "(GOSUB)");
      parser->names[KIND_MAIN] = bl_profile_intern (profile, "(main)");
    }
}

static void
parser_clear (Parser *parser)
{
  g_clear_pointer (&parser->modules, g_free);
  g_clear_pointer (&parser->frames, g_array_unref);
}

static inline guint32
be16 (const guint8 *p)
{
  return ((guint32) p[0] << 8) | p[1];
}

static inline guint32
be32 (const guint8 *p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
}

static inline guint64
be64 (const guint8 *p)
{
  return ((guint64) be32 (p) << 32) | be32 (p + 4);
}

static guint32
intern_text (BlProfile    *profile,
             const guint8 *text,
             gsize         len)
{
  g_autofree char *valid = NULL;

  if (g_utf8_validate ((const char *) text, len, NULL) && memchr (text, 0, len) == NULL)
    return bl_profile_intern_len (profile, (const char *) text, len);

  valid = g_utf8_make_valid ((const char *) text, len);

  return bl_profile_intern (profile, valid);
}

static ParseResult
fail (GError    **error,
      BlBrError   code,
      const char *format,
      ...) G_GNUC_PRINTF (3, 4);

static ParseResult
fail (GError    **error,
      BlBrError   code,
      const char *format,
      ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, BL_BR_ERROR, code, message);

  return PARSE_ERROR;
}

static void
commit_sample (Parser *parser)
{
  BlProfile *profile = parser->profile;
  Frame *frames = (Frame *) (gpointer) parser->frames->data;
  guint n = parser->frames->len;
  const Frame *current = &frames[0];
  const Frame *outermost = n > 1 ? &frames[1] : &frames[0];
  guint32 node;
  guint32 line;

  parser->n_samples++;
  if (profile == NULL)
    return;

  node = bl_profile_add_thread (profile, parser->modules[outermost->module] - 1);

  /* the backtrace, outermost first, then the current line's routine */
  for (guint i = 1; i <= n; i++)
    {
      const Frame *f = i < n ? &frames[i] : current;
      guint32 name = f->kind == KIND_FUNCTION ? f->function : parser->names[f->kind];

      node = bl_profile_add_child (profile, node, name, parser->modules[f->module] - 1, 0);
    }

  bl_profile_add_value (profile, node, BL_METRIC_SAMPLES, 1);
  if (parser->has_time)
    bl_profile_add_value (profile, node, BL_METRIC_TIME_NS, parser->time_ns);

  if (current->line != 0)
    {
      line = bl_profile_lookup_line (profile, parser->modules[current->module] - 1,
                                     current->line,
                                     current->kind == KIND_FUNCTION
                                       ? current->function
                                       : parser->names[current->kind]);
      bl_profile_add_line_value (profile, line, BL_METRIC_SAMPLES, 1);
      if (parser->has_time)
        bl_profile_add_line_value (profile, line, BL_METRIC_TIME_NS, parser->time_ns);
    }
}

/* Parses the record at p; on PARSE_OK sets *after. @at is its input offset. */
static ParseResult
parse_record (Parser        *parser,
              const guint8  *p,
              const guint8  *end,
              guint64        at,
              const guint8 **after,
              GError       **error)
{
  gsize left = end - p;
  guint8 type;

  if (left < 1)
    return PARSE_MORE;
  type = p[0];

  switch (type)
    {
    case REC_MODULE:
      {
        guint32 module, len;

        if (left < 5)
          return PARSE_MORE;
        module = be16 (p + 1);
        len = be16 (p + 3);
        if (left < 5 + (gsize) len)
          return PARSE_MORE;
        if (parser->profile != NULL)
          parser->modules[module] = intern_text (parser->profile, p + 5, len) + 1;
        else
          parser->modules[module] = 1;
        parser->marker_allowed = FALSE;
        *after = p + 5 + len;
        return PARSE_OK;
      }

    case REC_LINE:
    case REC_BACKTRACE:
      {
        Frame frame = { 0, };

        if (left < 8)
          return PARSE_MORE;
        if (type == REC_LINE && parser->in_line)
          return fail (error, BL_BR_ERROR_UNEXPECTED_RECORD,
                       _("Corrupt Business Rules! profile: a current-line record at byte %"
                         PRIu64 " starts before the previous line ended."), at);
        if (type == REC_BACKTRACE && !parser->in_line)
          return fail (error, BL_BR_ERROR_UNEXPECTED_RECORD,
                       _("Corrupt Business Rules! profile: the backtrace record at byte %"
                         PRIu64 " is outside a current line."), at);
        frame.module = be16 (p + 1);
        frame.line = be32 (p + 3);
        if (parser->modules[frame.module] == 0)
          return fail (error, BL_BR_ERROR_UNDEFINED_MODULE,
                       _("Corrupt Business Rules! profile: the record at byte %" PRIu64
                         " refers to module %u, which has no module mapping before it."),
                       at, frame.module);
        if (type == REC_LINE)
          {
            g_array_set_size (parser->frames, 0);
            parser->time_ns = 0;
            parser->has_time = FALSE;
            parser->in_line = TRUE;
          }
        g_array_append_val (parser->frames, frame);
        parser->marker_allowed = TRUE;
        *after = p + 8;
        return PARSE_OK;
      }

    case REC_TIME:
      {
        guint64 ns;

        if (left < 9)
          return PARSE_MORE;
        if (!parser->in_line)
          return fail (error, BL_BR_ERROR_UNEXPECTED_RECORD,
                       _("Corrupt Business Rules! profile: the time record at byte %"
                         PRIu64 " is outside a current line."), at);
        ns = be64 (p + 1);
        parser->time_ns = parser->time_ns > G_MAXUINT64 - ns ? G_MAXUINT64 : parser->time_ns + ns;
        parser->has_time = TRUE;
        parser->marker_allowed = FALSE;
        *after = p + 9;
        return PARSE_OK;
      }

    case REC_FUNCTION:
    case REC_GOSUB:
    case REC_MAIN:
      {
        Frame *frame;
        gsize size = 1;

        if (type == REC_FUNCTION)
          {
            if (left < 2)
              return PARSE_MORE;
            size = 2 + (gsize) p[1];
            if (left < size)
              return PARSE_MORE;
          }
        if (!parser->marker_allowed)
          return fail (error, BL_BR_ERROR_UNEXPECTED_RECORD,
                       _("Corrupt Business Rules! profile: the %s record at byte %"
                         PRIu64 " does not follow a current-line or backtrace "
                         "record."),
                       type == REC_FUNCTION ? _("function name")
                         : type == REC_GOSUB ? "GOSUB" : _("main routine"),
                       at);
        frame = &g_array_index (parser->frames, Frame, parser->frames->len - 1);
        if (type == REC_FUNCTION)
          {
            frame->kind = KIND_FUNCTION;
            if (parser->profile != NULL)
              frame->function = intern_text (parser->profile, p + 2, p[1]);
          }
        else
          frame->kind = type == REC_GOSUB ? KIND_GOSUB : KIND_MAIN;
        parser->marker_allowed = FALSE;
        *after = p + size;
        return PARSE_OK;
      }

    case REC_END_LINE:
      if (!parser->in_line)
        return fail (error, BL_BR_ERROR_UNEXPECTED_RECORD,
                     _("Corrupt Business Rules! profile: the end-of-line record at byte %"
                       PRIu64 " has no current line to end."), at);
      commit_sample (parser);
      parser->in_line = FALSE;
      parser->marker_allowed = FALSE;
      *after = p + 1;
      return PARSE_OK;

    default:
      return fail (error, BL_BR_ERROR_UNKNOWN_RECORD,
                   _("Not a Business Rules! profile: the record at byte %" PRIu64
                     " has the unknown type %u."), at, type);
    }
}

/**
 * bl_br_detect:
 * @is_whole_file: whether @head holds the whole file
 *
 * Business Rules! profiles have no signature: @head is taken for one when
 * it starts with a module mapping and all of it parses as records (the
 * last one may be cut unless @head is the whole file, which must also end
 * between samples).
 */
gboolean
bl_br_detect (const guint8 *head,
              gsize         len,
              gboolean      is_whole_file)
{
  Parser parser;
  const guint8 *p = head;
  const guint8 *end = head + len;
  gboolean ok = FALSE;

  if (len == 0 || head[0] != REC_MODULE)
    return FALSE;

  parser_init (&parser, NULL);
  for (;;)
    {
      const guint8 *after;
      ParseResult r = parse_record (&parser, p, end, p - head, &after, NULL);

      if (r == PARSE_ERROR)
        break;
      if (r == PARSE_MORE)
        {
          ok = parser.n_records > 0 && (!is_whole_file || (p == end && !parser.in_line));
          break;
        }
      parser.n_records++;
      p = after;
    }
  parser_clear (&parser);

  return ok;
}

static BlProfile *
read_source (BlSource  *src,
             GError   **error)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("br");
  Parser parser;
  BlProfile *result = NULL;
  gsize sample_start = 0;
  guint64 sample_start_offset = 0;

  parser_init (&parser, profile);
  bl_profile_enable_metric (profile, BL_METRIC_SAMPLES);
  bl_profile_get_info_mutable (profile)->has_lines = TRUE;

  for (;;)
    {
      const guint8 *p = src->data + src->pos;
      const guint8 *after;
      guint64 at = bl_source_offset (src, src->pos);
      ParseResult r = parse_record (&parser, p, src->data + src->len, at, &after, error);

      if (r == PARSE_OK)
        {
          if (p[0] == REC_LINE)
            sample_start_offset = at;
          parser.n_records++;
          src->pos = after - src->data;
          if (!bl_source_tick (src, error))
            goto out;
          continue;
        }
      if (r == PARSE_ERROR)
        goto out;

      /* PARSE_MORE */
      if (src->eof)
        break;
      sample_start = src->pos;
      if (!bl_source_fill (src, sample_start, error))
        goto out;
    }

  if (parser.n_records == 0)
    {
      g_set_error_literal (error, BL_BR_ERROR, BL_BR_ERROR_NO_RECORDS,
                           _("Not a Business Rules! profile: the file holds no record."));
      goto out;
    }

  if (src->pos < src->len || parser.in_line)
    {
      g_autofree char *reason = NULL;

      if (parser.in_line)
        reason = g_strdup_printf (_("The profile is incomplete: the file ends at byte %"
                                    PRIu64 " inside the line that starts at byte %"
                                    PRIu64 "; the %" PRIu64
                                    " complete samples before it are shown."),
                                  bl_source_offset (src, src->len), sample_start_offset,
                                  parser.n_samples);
      else
        reason = g_strdup_printf (_("The profile is incomplete: the file ends at byte %"
                                    PRIu64 " inside a record; the %" PRIu64
                                    " complete samples before it are shown."),
                                  bl_source_offset (src, src->len), parser.n_samples);
      bl_profile_set_incomplete (profile, reason);
    }

  bl_profile_finish (profile);
  result = g_steal_pointer (&profile);

out:
  parser_clear (&parser);

  return result;
}

/**
 * bl_br_read_stream:
 * @total: the size of the input, for progress, or 0
 *
 * Returns: (transfer full): the profile, or %NULL with @error set
 */
BlProfile *
bl_br_read_stream (GInputStream   *stream,
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
 * bl_br_read_memory:
 *
 * Returns: (transfer full): the profile, or %NULL with @error set
 */
BlProfile *
bl_br_read_memory (const guint8  *data,
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
