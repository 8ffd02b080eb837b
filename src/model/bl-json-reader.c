/* bl-json-reader.c — a streaming JSON pull parser over BlSource
 *
 * Each call to bl_json_reader_next() skips whitespace and separators and
 * scans one token. A token must lie whole in the source window: when one
 * runs past the end of the window, the window is refilled keeping the bytes
 * from the token's start, and the token is scanned again. Separators and
 * whitespace are consumed once, so line counting never sees a byte twice.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-json"

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <string.h>

#include "bl-json-reader.h"
#include "bl-source-private.h"

G_DEFINE_QUARK (bl-json-error-quark, bl_json_error)

typedef enum
{
  STATE_TOP_START,
  STATE_TOP_DONE,
  STATE_OBJ_FIRST,   /* after '{': a name or '}' */
  STATE_OBJ_KEY,     /* after ',': a name */
  STATE_OBJ_COLON,   /* after a name: ':' */
  STATE_OBJ_VALUE,   /* after ':': a value */
  STATE_OBJ_SEP,     /* after a value: ',' or '}' */
  STATE_ARR_FIRST,   /* after '[': a value or ']' */
  STATE_ARR_VALUE,   /* after ',': a value */
  STATE_ARR_SEP,     /* after a value: ',' or ']' */
} State;

typedef struct
{
  guint8  state;
  guint8  is_object;
  guint8  has_component;  /* a member name or an index is set */
  gsize   name_off;       /* this frame's member name in names */
  gsize   name_len;
  gint64  index;
} Frame;

typedef enum
{
  SCAN_OK,
  SCAN_MORE,
  SCAN_ERROR,
} Scan;

struct _BlJsonReader
{
  BlSource     src;
  State        top_state;
  Frame       *frames;
  guint        n_frames;
  guint        max_depth;
  GString     *names;

  BlJsonToken  token;
  guint        path_frames;
  gboolean     failed;
  gboolean     started;

  /* where the current token starts */
  guint64      tok_offset;
  guint64      tok_line;
  guint64      tok_column;

  guint64      line;          /* 1-based */
  guint64      line_start;    /* input offset of the current line's first byte */

  char        *buf;           /* unescaped string */
  gsize        buf_len;
  gsize        buf_cap;

  double       number;
  gint64       integer;
  gboolean     integral;
  guint64      count;         /* the number as an unsigned integer ... */
  guint8       count_state;   /* ... if COUNT_OK */
};

enum
{
  COUNT_OK,
  COUNT_NEGATIVE,
  COUNT_FRACTION,
  COUNT_OVERFLOW,
};

/* 0: ends a plain run ('"', '\\', control), 1: ASCII, 3: a byte >= 0x80 */
static guint8 char_class[256];

static void
init_tables (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      for (guint c = 0; c < 256; c++)
        char_class[c] = c < 0x20 || c == '"' || c == '\\' ? 0 : c < 0x80 ? 1 : 3;
      g_once_init_leave (&done, 1);
    }
}

static BlJsonReader *
reader_new (void)
{
  BlJsonReader *self = g_new0 (BlJsonReader, 1);

  init_tables ();
  self->max_depth = BL_JSON_DEFAULT_MAX_DEPTH;
  self->frames = g_new0 (Frame, 16);
  self->names = g_string_new (NULL);
  self->line = 1;
  self->tok_line = 1;
  self->tok_column = 1;
  self->buf_cap = 256;
  self->buf = g_malloc (self->buf_cap);
  self->buf[0] = '\0';
  self->token = BL_JSON_TOKEN_END;
  self->top_state = STATE_TOP_START;

  return self;
}

/**
 * bl_json_reader_new_for_stream:
 *
 * Returns: (transfer full): a reader of @stream, which it keeps a reference to
 */
BlJsonReader *
bl_json_reader_new_for_stream (GInputStream   *stream,
                               guint64         total,
                               GCancellable   *cancellable,
                               BlProgressFunc  progress,
                               gpointer        progress_data)
{
  BlJsonReader *self;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);

  self = reader_new ();
  bl_source_init_stream (&self->src, stream, total, cancellable, progress, progress_data);

  return self;
}

/**
 * bl_json_reader_new_for_data:
 *
 * Returns: (transfer full): a reader of @data, which is not copied
 */
BlJsonReader *
bl_json_reader_new_for_data (const guint8 *data,
                             gsize         len)
{
  BlJsonReader *self;

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  self = reader_new ();
  bl_source_init_memory (&self->src, data, len);

  return self;
}

void
bl_json_reader_free (BlJsonReader *self)
{
  if (self == NULL)
    return;

  bl_source_clear (&self->src);
  g_string_free (self->names, TRUE);
  g_free (self->frames);
  g_free (self->buf);
  g_free (self);
}

void
bl_json_reader_set_max_depth (BlJsonReader *self,
                              guint         max_depth)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (max_depth > 0);

  self->max_depth = max_depth;
}

/* ---- paths and errors ---------------------------------------------------- */

static gboolean
is_identifier (const char *s,
               gsize       len)
{
  if (len == 0 || !(g_ascii_isalpha (s[0]) || s[0] == '_' || s[0] == '$'))
    return FALSE;
  for (gsize i = 1; i < len; i++)
    if (!(g_ascii_isalnum (s[i]) || s[i] == '_' || s[i] == '$'))
      return FALSE;
  return TRUE;
}

static char *
build_path (BlJsonReader *self,
            guint         n_frames)
{
  GString *path = g_string_new ("$");

  for (guint i = 0; i < n_frames; i++)
    {
      const Frame *f = &self->frames[i];

      if (!f->has_component)
        break;

      /* a deep path: its first and last levels, and how many between */
      if (n_frames > 16 && i == 6)
        {
          g_string_append_printf (path, _("…(%u levels)…"), n_frames - 12);
          i = n_frames - 7;
          continue;
        }

      if (!f->is_object)
        g_string_append_printf (path, "[%" G_GINT64_FORMAT "]", f->index);
      else
        {
          const char *name = self->names->str + f->name_off;

          if (is_identifier (name, f->name_len))
            {
              g_string_append_c (path, '.');
              g_string_append_len (path, name, f->name_len);
            }
          else
            {
              g_string_append (path, "[\"");
              for (gsize k = 0; k < f->name_len; k++)
                {
                  char c = name[k];

                  if (c == '"' || c == '\\')
                    g_string_append_c (path, '\\');
                  if ((guchar) c < 0x20)
                    g_string_append_printf (path, "\\u%04x", (guint) (guchar) c);
                  else
                    g_string_append_c (path, c);
                }
              g_string_append (path, "\"]");
            }
        }
    }

  return g_string_free (path, FALSE);
}

static void
fail (BlJsonReader  *self,
      GError       **error,
      BlJsonError    code,
      gsize          pos,
      const char    *what)
{
  guint64 offset = bl_source_offset (&self->src, pos);
  guint64 column = offset >= self->line_start ? offset - self->line_start + 1 : 1;
  g_autofree char *path = build_path (self, self->n_frames);

  self->failed = TRUE;
  self->token = BL_JSON_TOKEN_ERROR;

  if (code == BL_JSON_ERROR_TRUNCATED)
    g_set_error (error, BL_JSON_ERROR, code,
                 _("The JSON ends early at line %" PRIu64 ", column %"
                   PRIu64 ", inside %s."),
                 self->line, column, path);
  else
    g_set_error (error, BL_JSON_ERROR, code,
                 _("Invalid JSON at line %" PRIu64 ", column %" PRIu64
                   " (%s): %s."),
                 self->line, column, path, what);
}

static char *
describe_byte (int c)
{
  if (c < 0)
    return g_strdup (_("the end of the input"));
  if (c >= 0x21 && c < 0x7f)
    return g_strdup_printf ("“%c”", c);
  return g_strdup_printf (_("byte 0x%02x"), (guint) c);
}

static void
fail_unexpected (BlJsonReader  *self,
                 GError       **error,
                 gsize          pos,
                 int            c,
                 const char    *expected)
{
  g_autofree char *found = describe_byte (c);
  g_autofree char *what = g_strdup_printf (_("expected %s but found %s"), expected, found);

  fail (self, error, BL_JSON_ERROR_SYNTAX, pos, what);
}

/* ---- scanning ----------------------------------------------------------- */

/* Returns the next non-whitespace byte (pos at it), -1 at the end of the
 * input, -2 on a read error. */
static int
peek_byte_slow (BlJsonReader  *self,
                GError       **error)
{
  BlSource *src = &self->src;

  for (;;)
    {
      const guint8 *p = src->data + src->pos;
      const guint8 *end = src->data + src->len;

      while (p < end)
        {
          guint8 c = *p;

          if (c == ' ' || c == '\t' || c == '\r')
            p++;
          else if (c == '\n')
            {
              p++;
              self->line++;
              self->line_start = bl_source_offset (src, p - src->data);
            }
          else
            {
              src->pos = p - src->data;
              return c;
            }
        }

      src->pos = src->len;
      if (src->eof)
        return -1;
      if (!bl_source_fill (src, src->pos, error))
        {
          self->failed = TRUE;
          self->token = BL_JSON_TOKEN_ERROR;
          return -2;
        }
    }
}

/* Most JSON has no whitespace between tokens: no loop for that. */
static inline int
peek_byte (BlJsonReader  *self,
           GError       **error)
{
  BlSource *src = &self->src;

  if G_LIKELY (src->pos < src->len && src->data[src->pos] > ' ')
    return src->data[src->pos];

  return peek_byte_slow (self, error);
}

static inline void
buf_append (BlJsonReader *self,
            const char   *data,
            gsize         len)
{
  if G_UNLIKELY (self->buf_cap - self->buf_len <= len)
    {
      while (self->buf_cap - self->buf_len <= len)
        self->buf_cap *= 2;
      self->buf = g_realloc (self->buf, self->buf_cap);
    }
  memcpy (self->buf + self->buf_len, data, len);
  self->buf_len += len;
}

static inline int
hex_value (guint8 c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* 4 hex digits at p; -1 if any is not hex */
static int
read_hex4 (const guint8 *p)
{
  int v = 0;

  for (guint i = 0; i < 4; i++)
    {
      int h = hex_value (p[i]);

      if (h < 0)
        return -1;
      v = (v << 4) | h;
    }
  return v;
}

/* Scans the string starting at the '"' at p into buf. */
static Scan
scan_string (BlJsonReader  *self,
             const guint8  *p,
             const guint8 **after,
             GError       **error)
{
  BlSource *src = &self->src;
  const guint8 *end = src->data + src->len;

  self->buf_len = 0;
  p++;

  for (;;)
    {
      const guint8 *run = p;
      guint8 cls = 0;
      guint8 c;

      while (p < end && char_class[*p] != 0)
        cls |= char_class[*p++];

      if (p > run)
        {
          if ((cls & 2) != 0 && p < end &&
              !g_utf8_validate_len ((const char *) run, p - run, NULL))
            {
              const char *bad = NULL;

              g_autofree char *what = NULL;

              g_utf8_validate_len ((const char *) run, p - run, &bad);
              what = g_strdup_printf (_("byte 0x%02x in a string is not valid UTF-8"),
                                      (guint) (guchar) *bad);
              fail (self, error, BL_JSON_ERROR_ENCODING, (const guint8 *) bad - src->data, what);
              return SCAN_ERROR;
            }
          buf_append (self, (const char *) run, p - run);
        }

      if (p >= end)
        break;

      c = *p;
      if (c == '"')
        {
          self->buf[self->buf_len] = '\0';
          *after = p + 1;
          return SCAN_OK;
        }

      if (c < 0x20)
        {
          fail (self, error, BL_JSON_ERROR_SYNTAX, p - src->data,
                _("a control character must be escaped inside a string"));
          return SCAN_ERROR;
        }

      /* a backslash */
      if (end - p < 2)
        break;

      switch (p[1])
        {
        case '"': buf_append (self, "\"", 1); p += 2; break;
        case '\\': buf_append (self, "\\", 1); p += 2; break;
        case '/': buf_append (self, "/", 1); p += 2; break;
        case 'b': buf_append (self, "\b", 1); p += 2; break;
        case 'f': buf_append (self, "\f", 1); p += 2; break;
        case 'n': buf_append (self, "\n", 1); p += 2; break;
        case 'r': buf_append (self, "\r", 1); p += 2; break;
        case 't': buf_append (self, "\t", 1); p += 2; break;
        case 'u':
          {
            gunichar ch;
            int u;
            char utf8[8];
            int n;

            if (end - p < 6)
              goto more;
            u = read_hex4 (p + 2);
            if (u < 0)
              {
                fail (self, error, BL_JSON_ERROR_SYNTAX, p - src->data,
                      _("a \\u escape needs four hexadecimal digits"));
                return SCAN_ERROR;
              }
            p += 6;
            ch = u;
            if (u >= 0xD800 && u <= 0xDBFF)
              {
                /* a high surrogate: pair it with a following low one */
                if (end - p < 6 && !src->eof)
                  goto more;
                if (end - p >= 6 && p[0] == '\\' && p[1] == 'u')
                  {
                    int lo = read_hex4 (p + 2);

                    if (lo >= 0xDC00 && lo <= 0xDFFF)
                      {
                        ch = 0x10000 + (((gunichar) u - 0xD800) << 10) + ((gunichar) lo - 0xDC00);
                        p += 6;
                      }
                    else
                      ch = 0xFFFD;
                  }
                else
                  ch = 0xFFFD;
              }
            else if ((u >= 0xDC00 && u <= 0xDFFF) || u == 0)
              ch = 0xFFFD;    /* a NUL would cut the string short */

            n = g_unichar_to_utf8 (ch, utf8);
            buf_append (self, utf8, n);
          }
          break;
        default:
          {
            g_autofree char *found = describe_byte (p[1]);
            g_autofree char *what = g_strdup_printf (_("%s cannot follow a backslash"), found);

            fail (self, error, BL_JSON_ERROR_SYNTAX, p - src->data, what);
            return SCAN_ERROR;
          }
        }
    }

more:
  if (src->eof)
    {
      fail (self, error, BL_JSON_ERROR_TRUNCATED, src->len, NULL);
      return SCAN_ERROR;
    }
  return SCAN_MORE;
}

/* powers of ten that doubles hold exactly */
static const double exact_pow10[] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static inline gboolean
is_delimiter (guint8 c)
{
  return c == ',' || c == ']' || c == '}' || c == ' ' || c == '\n' || c == '\t' ||
         c == '\r' || c == ':';
}

static Scan
scan_number (BlJsonReader  *self,
             const guint8  *p,
             const guint8 **after,
             GError       **error)
{
  BlSource *src = &self->src;
  const guint8 *start = p;
  const guint8 *end = src->data + src->len;
  gboolean negative = FALSE;
  gboolean overflow = FALSE;
  gboolean fraction = FALSE;
  gboolean mantissa_exact = TRUE;   /* value holds every digit, integer and fraction */
  gsize n_digits = 1;
  gint exponent = 0;
  guint64 value = 0;

  if (*p == '-')
    {
      negative = TRUE;
      p++;
    }

  if (p >= end)
    goto more;
  if (*p == '0')
    p++;
  else if (*p >= '1' && *p <= '9')
    {
      const guint8 *digits = p;

      /* 19 digits cannot overflow 64 bits: check only beyond them */
      while (p < end && (guint8) (*p - '0') < 10)
        {
          guint d = *p - '0';

          if G_UNLIKELY (p - digits >= 19 && value > (G_MAXUINT64 - d) / 10)
            overflow = TRUE;
          else
            value = value * 10 + d;
          p++;
        }
      n_digits = p - digits;
    }
  else
    {
      fail_unexpected (self, error, p - src->data, *p, _("a digit"));
      return SCAN_ERROR;
    }

  if (p < end && *p == '.')
    {
      const guint8 *digits;

      fraction = TRUE;
      p++;
      if (p >= end)
        goto more;
      if (!(*p >= '0' && *p <= '9'))
        {
          fail_unexpected (self, error, p - src->data, *p, _("a digit after the decimal point"));
          return SCAN_ERROR;
        }
      digits = p;
      while (p < end && (guint8) (*p - '0') < 10)
        {
          if (mantissa_exact && value <= (G_GUINT64_CONSTANT (1) << 53) / 10)
            value = value * 10 + (*p - '0');
          else
            mantissa_exact = FALSE;
          p++;
        }
      exponent = -(gint) (p - digits);
    }

  if (p < end && (*p == 'e' || *p == 'E'))
    {
      gboolean exp_negative = FALSE;
      gint exp = 0;

      fraction = TRUE;
      p++;
      if (p < end && (*p == '+' || *p == '-'))
        exp_negative = *p++ == '-';
      if (p >= end)
        goto more;
      if (!(*p >= '0' && *p <= '9'))
        {
          fail_unexpected (self, error, p - src->data, *p, _("a digit in the exponent"));
          return SCAN_ERROR;
        }
      while (p < end && (guint8) (*p - '0') < 10)
        {
          if (exp < 10000)
            exp = exp * 10 + (*p - '0');
          p++;
        }
      exponent += exp_negative ? -exp : exp;
    }

  if (p >= end)
    {
      if (!src->eof)
        goto more;
      /* inside a container, a number cut by the end of the input may have
       * lost digits: it is not a value, the document is truncated */
      if (self->n_frames > 0)
        {
          fail (self, error, BL_JSON_ERROR_TRUNCATED, src->len, NULL);
          return SCAN_ERROR;
        }
    }
  if (p < end && !is_delimiter (*p))
    {
      fail_unexpected (self, error, p - src->data, *p, _("a delimiter after the number"));
      return SCAN_ERROR;
    }

  self->count = value;
  self->count_state = overflow ? COUNT_OVERFLOW
                    : fraction ? COUNT_FRACTION
                    : negative && value != 0 ? COUNT_NEGATIVE
                    : COUNT_OK;

  if (!fraction && !overflow &&
      (negative ? value <= (guint64) G_MAXINT64 + 1 : value <= (guint64) G_MAXINT64))
    {
      self->integral = TRUE;
      if (negative)
        self->integer = value == (guint64) G_MAXINT64 + 1 ? G_MININT64 : -(gint64) value;
      else
        self->integer = (gint64) value;
      self->number = negative ? -(double) value : (double) value;
    }
  else if (fraction && mantissa_exact && !overflow && n_digits <= 19 &&
           value <= (G_GUINT64_CONSTANT (1) << 53) && exponent >= -22 && exponent <= 22)
    {
      /* both operands exact: one correctly rounded operation, as strtod gives */
      double v = exponent < 0 ? (double) value / exact_pow10[-exponent]
                              : (double) value * exact_pow10[exponent];

      self->number = negative ? -v : v;
      self->integral = FALSE;
      if (self->number >= 9223372036854775807.0)
        self->integer = G_MAXINT64;
      else if (self->number <= -9223372036854775808.0)
        self->integer = G_MININT64;
      else
        self->integer = (gint64) self->number;
    }
  else
    {
      char small[64];
      gsize len = p - start;
      g_autofree char *large = NULL;
      char *text = small;

      if (len >= sizeof small)
        text = large = g_malloc (len + 1);
      memcpy (text, start, len);
      text[len] = '\0';
      self->number = g_ascii_strtod (text, NULL);
      self->integral = FALSE;
      if (self->number >= 9223372036854775807.0)
        self->integer = G_MAXINT64;
      else if (self->number <= -9223372036854775808.0)
        self->integer = G_MININT64;
      else
        self->integer = (gint64) self->number;
    }

  *after = p;
  return SCAN_OK;

more:
  if (src->eof)
    {
      fail (self, error, BL_JSON_ERROR_TRUNCATED, src->len, NULL);
      return SCAN_ERROR;
    }
  return SCAN_MORE;
}

static Scan
scan_literal (BlJsonReader  *self,
              const guint8  *p,
              const char    *word,
              const guint8 **after,
              GError       **error)
{
  BlSource *src = &self->src;
  const guint8 *end = src->data + src->len;
  gsize len = strlen (word);

  for (gsize i = 0; i < len; i++)
    {
      if (p + i >= end)
        {
          if (src->eof)
            {
              fail (self, error, BL_JSON_ERROR_TRUNCATED, src->len, NULL);
              return SCAN_ERROR;
            }
          return SCAN_MORE;
        }
      if (p[i] != (guint8) word[i])
        {
          fail (self, error, BL_JSON_ERROR_SYNTAX, p - src->data,
                _("expected a value (a string, number, object, array, true, false or null)"));
          return SCAN_ERROR;
        }
    }

  if (p + len >= end && !src->eof)
    return SCAN_MORE;
  if (p + len < end && !is_delimiter (p[len]))
    {
      fail (self, error, BL_JSON_ERROR_SYNTAX, p - src->data,
            _("expected a value (a string, number, object, array, true, false or null)"));
      return SCAN_ERROR;
    }

  *after = p + len;
  return SCAN_OK;
}

/* ---- the state machine -------------------------------------------------- */

static void
mark_token_start (BlJsonReader *self)
{
  self->tok_offset = bl_source_offset (&self->src, self->src.pos);
  self->tok_line = self->line;
  self->tok_column = self->tok_offset - self->line_start + 1;
}

/* After a complete value in the container on top (or at top level). */
static void
value_done (BlJsonReader *self)
{
  if (self->n_frames == 0)
    self->top_state = STATE_TOP_DONE;
  else
    {
      Frame *f = &self->frames[self->n_frames - 1];

      f->state = f->is_object ? STATE_OBJ_SEP : STATE_ARR_SEP;
    }
}

static BlJsonToken
push_frame (BlJsonReader  *self,
            gboolean       is_object,
            GError       **error)
{
  Frame *f;

  if (self->n_frames >= self->max_depth)
    {
      g_autofree char *what = g_strdup_printf (_("nesting is deeper than %u levels"),
                                               self->max_depth);

      fail (self, error, BL_JSON_ERROR_DEPTH, self->src.pos, what);
      return BL_JSON_TOKEN_ERROR;
    }

  /* the parent's value is this container: after it, a separator */
  value_done (self);

  if ((self->n_frames & (self->n_frames - 1)) == 0 && self->n_frames >= 16)
    self->frames = g_renew (Frame, self->frames, self->n_frames * 2);

  f = &self->frames[self->n_frames++];
  f->is_object = is_object;
  f->state = is_object ? STATE_OBJ_FIRST : STATE_ARR_FIRST;
  f->has_component = FALSE;
  f->name_off = self->names->len;
  f->name_len = 0;
  f->index = -1;
  self->src.pos++;
  self->path_frames = self->n_frames - 1;

  return self->token = is_object ? BL_JSON_TOKEN_BEGIN_OBJECT : BL_JSON_TOKEN_BEGIN_ARRAY;
}

static BlJsonToken
pop_frame (BlJsonReader *self)
{
  Frame *f = &self->frames[--self->n_frames];

  g_string_truncate (self->names, f->name_off);
  self->src.pos++;
  self->path_frames = self->n_frames;

  return self->token = f->is_object ? BL_JSON_TOKEN_END_OBJECT : BL_JSON_TOKEN_END_ARRAY;
}

static BlJsonToken
read_value (BlJsonReader  *self,
            int            c,
            GError       **error)
{
  BlSource *src = &self->src;
  BlJsonToken token;

  if (self->n_frames > 0)
    {
      Frame *f = &self->frames[self->n_frames - 1];

      /* called once per element: a refill rescans inside the loop below */
      if (!f->is_object)
        {
          f->index++;
          f->has_component = TRUE;
        }
    }

  if (c == '{')
    return push_frame (self, TRUE, error);
  if (c == '[')
    return push_frame (self, FALSE, error);

  for (;;)
    {
      const guint8 *p = src->data + src->pos;
      const guint8 *after = NULL;
      Scan scan;

      switch (c)
        {
        case '"':
          scan = scan_string (self, p, &after, error);
          token = BL_JSON_TOKEN_STRING;
          break;
        case '-': case '0': case '1': case '2': case '3': case '4':
        case '5': case '6': case '7': case '8': case '9':
          scan = scan_number (self, p, &after, error);
          token = BL_JSON_TOKEN_NUMBER;
          break;
        case 't':
          scan = scan_literal (self, p, "true", &after, error);
          token = BL_JSON_TOKEN_TRUE;
          break;
        case 'f':
          scan = scan_literal (self, p, "false", &after, error);
          token = BL_JSON_TOKEN_FALSE;
          break;
        case 'n':
          scan = scan_literal (self, p, "null", &after, error);
          token = BL_JSON_TOKEN_NULL;
          break;
        default:
          fail_unexpected (self, error, src->pos, c,
                           _("a value (a string, number, object, array, true, false or null)"));
          return BL_JSON_TOKEN_ERROR;
        }

      if (scan == SCAN_OK)
        {
          src->pos = after - src->data;
          value_done (self);
          self->path_frames = self->n_frames;
          return self->token = token;
        }
      if (scan == SCAN_ERROR)
        return BL_JSON_TOKEN_ERROR;

      if (!bl_source_fill (src, src->pos, error))
        {
          self->failed = TRUE;
          return self->token = BL_JSON_TOKEN_ERROR;
        }
    }
}

static BlJsonToken
read_member (BlJsonReader  *self,
             GError       **error)
{
  BlSource *src = &self->src;
  Frame *f = &self->frames[self->n_frames - 1];

  for (;;)
    {
      const guint8 *after = NULL;
      Scan scan = scan_string (self, src->data + src->pos, &after, error);

      if (scan == SCAN_OK)
        {
          src->pos = after - src->data;
          g_string_truncate (self->names, f->name_off);
          g_string_append_len (self->names, self->buf, self->buf_len);
          f->name_len = self->buf_len;
          f->has_component = TRUE;
          f->state = STATE_OBJ_COLON;
          self->path_frames = self->n_frames;
          return self->token = BL_JSON_TOKEN_MEMBER;
        }
      if (scan == SCAN_ERROR)
        return BL_JSON_TOKEN_ERROR;
      if (!bl_source_fill (src, src->pos, error))
        {
          self->failed = TRUE;
          return self->token = BL_JSON_TOKEN_ERROR;
        }
    }
}

/* JSON in UTF-16 or UTF-32 (a byte order mark, or zero bytes where the
 * first characters, ASCII in any JSON document, would be): say so, instead
 * of a syntax error at the first zero byte. */
static gboolean
check_encoding (BlJsonReader  *self,
                GError       **error)
{
  BlSource *src = &self->src;
  const guint8 *d = src->data;
  const char *encoding = NULL;

  while (src->len < 4 && !src->eof)
    if (!bl_source_fill (src, 0, error))
      {
        self->failed = TRUE;
        self->token = BL_JSON_TOKEN_ERROR;
        return FALSE;
      }

  /* without a byte order mark, the first character must be one a JSON
   * document can start with */
  for (gsize i = 0; i < MIN (src->len, 4); i++)
    if (d[i] != 0)
      {
        if (d[0] != 0xfe && d[0] != 0xff && strchr ("{[\" \t\r\n-0123456789tfn", d[i]) == NULL)
          return TRUE;
        break;
      }

  if (src->len >= 4 && d[0] == 0 && d[1] == 0 && d[2] == 0xfe && d[3] == 0xff)
    encoding = "UTF-32BE";
  else if (src->len >= 4 && d[0] == 0xff && d[1] == 0xfe && d[2] == 0 && d[3] == 0)
    encoding = "UTF-32LE";
  else if (src->len >= 2 && d[0] == 0xfe && d[1] == 0xff)
    encoding = "UTF-16BE";
  else if (src->len >= 2 && d[0] == 0xff && d[1] == 0xfe)
    encoding = "UTF-16LE";
  else if (src->len >= 4 && d[0] == 0 && d[1] == 0 && d[2] == 0 && d[3] != 0)
    encoding = "UTF-32BE";
  else if (src->len >= 4 && d[0] != 0 && d[1] == 0 && d[2] == 0 && d[3] == 0)
    encoding = "UTF-32LE";
  else if (src->len >= 2 && d[0] == 0 && d[1] != 0)
    encoding = "UTF-16BE";
  else if (src->len >= 2 && d[0] != 0 && d[1] == 0)
    encoding = "UTF-16LE";

  if (encoding == NULL)
    return TRUE;

  self->failed = TRUE;
  self->token = BL_JSON_TOKEN_ERROR;
  g_set_error (error, BL_JSON_ERROR, BL_JSON_ERROR_ENCODING,
               _("The JSON is encoded in %s; Brightlens reads JSON in UTF-8 "
                 "(convert it with “iconv -f %s -t UTF-8”)."),
               encoding, encoding);

  return FALSE;
}

BlJsonToken
bl_json_reader_next (BlJsonReader  *self,
                     GError       **error)
{
  g_return_val_if_fail (self != NULL, BL_JSON_TOKEN_ERROR);

  if (self->failed)
    {
      g_set_error_literal (error, BL_JSON_ERROR, BL_JSON_ERROR_SYNTAX,
                           _("The JSON reader was used after an error."));
      return BL_JSON_TOKEN_ERROR;
    }

  if G_UNLIKELY (!self->started)
    {
      BlSource *src = &self->src;

      /* skip a UTF-8 byte order mark */
      self->started = TRUE;
      while (src->len < 3 && !src->eof)
        if (!bl_source_fill (src, 0, error))
          {
            self->failed = TRUE;
            return self->token = BL_JSON_TOKEN_ERROR;
          }
      if (src->len >= 3 && memcmp (src->data, "\xef\xbb\xbf", 3) == 0)
        {
          src->pos = 3;
          self->line_start = 3;
        }
      else if (!check_encoding (self, error))
        return BL_JSON_TOKEN_ERROR;
    }

  for (;;)
    {
      int c = peek_byte (self, error);
      Frame *f;

      if (c == -2)
        return BL_JSON_TOKEN_ERROR;

      mark_token_start (self);

      if (self->n_frames == 0)
        {
          if (self->top_state == STATE_TOP_DONE)
            {
              if (c == -1)
                {
                  self->path_frames = 0;
                  return self->token = BL_JSON_TOKEN_END;
                }
              fail_unexpected (self, error, self->src.pos, c,
                               _("the end of the input after the document"));
              return BL_JSON_TOKEN_ERROR;
            }
          if (c == -1)
            {
              fail (self, error, BL_JSON_ERROR_TRUNCATED, self->src.pos, NULL);
              return BL_JSON_TOKEN_ERROR;
            }
          return read_value (self, c, error);
        }

      if (c == -1)
        {
          fail (self, error, BL_JSON_ERROR_TRUNCATED, self->src.pos, NULL);
          return BL_JSON_TOKEN_ERROR;
        }

      f = &self->frames[self->n_frames - 1];
      switch ((State) f->state)
        {
        case STATE_OBJ_SEP:
          if (c == ',')
            {
              f->state = STATE_OBJ_KEY;
              self->src.pos++;
              /* straight on to the name, without another turn of the loop */
              c = peek_byte (self, error);
              if (c == -2)
                return BL_JSON_TOKEN_ERROR;
              if (c != '"')
                continue;
              mark_token_start (self);
              return read_member (self, error);
            }
          if (c == '}')
            return pop_frame (self);
          fail_unexpected (self, error, self->src.pos, c, _("“,” or “}”"));
          return BL_JSON_TOKEN_ERROR;

        case STATE_ARR_SEP:
          if (c == ',')
            {
              f->state = STATE_ARR_VALUE;
              self->src.pos++;
              /* straight on to the value, without another turn of the loop */
              c = peek_byte (self, error);
              if (c == -2)
                return BL_JSON_TOKEN_ERROR;
              if (c < 0)
                continue;
              mark_token_start (self);
              return read_value (self, c, error);
            }
          if (c == ']')
            return pop_frame (self);
          fail_unexpected (self, error, self->src.pos, c, _("“,” or “]”"));
          return BL_JSON_TOKEN_ERROR;

        case STATE_OBJ_FIRST:
          if (c == '}')
            return pop_frame (self);
          if (c == '"')
            return read_member (self, error);
          fail_unexpected (self, error, self->src.pos, c, _("a member name or “}”"));
          return BL_JSON_TOKEN_ERROR;

        case STATE_OBJ_KEY:
          if (c == '"')
            return read_member (self, error);
          fail_unexpected (self, error, self->src.pos, c, _("a member name"));
          return BL_JSON_TOKEN_ERROR;

        case STATE_OBJ_COLON:
          if (c == ':')
            {
              f->state = STATE_OBJ_VALUE;
              self->src.pos++;
              c = peek_byte (self, error);
              if (c == -2)
                return BL_JSON_TOKEN_ERROR;
              if (c < 0)
                continue;
              mark_token_start (self);
              return read_value (self, c, error);
            }
          fail_unexpected (self, error, self->src.pos, c, _("“:”"));
          return BL_JSON_TOKEN_ERROR;

        case STATE_ARR_FIRST:
          if (c == ']')
            return pop_frame (self);
          return read_value (self, c, error);

        case STATE_OBJ_VALUE:
        case STATE_ARR_VALUE:
          return read_value (self, c, error);

        case STATE_TOP_START:
        case STATE_TOP_DONE:
        default:
          g_assert_not_reached ();
        }
    }
}

gboolean
bl_json_reader_skip_value (BlJsonReader  *self,
                           GError       **error)
{
  BlJsonToken token;
  guint depth;

  g_return_val_if_fail (self != NULL, FALSE);

  token = self->token;
  if (token == BL_JSON_TOKEN_ERROR)
    {
      g_set_error_literal (error, BL_JSON_ERROR, BL_JSON_ERROR_SYNTAX,
                           _("The JSON reader was used after an error."));
      return FALSE;
    }

  if (token == BL_JSON_TOKEN_MEMBER)
    {
      token = bl_json_reader_next (self, error);
      if (token == BL_JSON_TOKEN_ERROR)
        return FALSE;
    }

  if (token != BL_JSON_TOKEN_BEGIN_OBJECT && token != BL_JSON_TOKEN_BEGIN_ARRAY)
    return TRUE;

  depth = self->n_frames - 1;
  while (self->n_frames > depth)
    if (bl_json_reader_next (self, error) == BL_JSON_TOKEN_ERROR)
      return FALSE;

  return TRUE;
}

gsize
bl_json_reader_next_indexes (BlJsonReader *self,
                             guint32       max,
                             guint32      *out,
                             gsize         n_max)
{
  BlSource *src;
  const guint8 *p, *end, *last = NULL;
  Frame *f;
  guint64 v = 0;
  gsize count = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (out != NULL || n_max == 0, 0);

  if (self->failed || self->n_frames == 0)
    return 0;
  f = &self->frames[self->n_frames - 1];
  if (f->is_object)
    return 0;

  src = &self->src;
  p = src->data + src->pos;
  end = src->data + src->len;

  while (count < n_max)
    {
      const guint8 *q = p;
      const guint8 *start;

      if (f->state == STATE_ARR_SEP)
        {
          if (q >= end || *q != ',')
            break;
          q++;
        }
      if (q >= end || (guint8) (*q - '0') >= 10)
        break;

      start = q;
      v = *q++ - '0';
      if (v != 0)
        while (q < end && (guint8) (*q - '0') < 10 && q - start < 10)
          v = v * 10 + (*q++ - '0');
      /* the delimiter must be in sight: a number could go on past the window */
      if (q >= end || (*q != ',' && *q != ']') || v > max)
        break;

      out[count++] = (guint32) v;
      f->index++;
      f->has_component = TRUE;
      f->state = STATE_ARR_SEP;
      last = start;
      p = q;
    }

  if (count > 0)
    {
      src->pos = p - src->data;
      self->tok_offset = bl_source_offset (src, last - src->data);
      self->tok_line = self->line;
      self->tok_column = self->tok_offset - self->line_start + 1;
      self->token = BL_JSON_TOKEN_NUMBER;
      self->integral = TRUE;
      self->integer = (gint64) out[count - 1];
      self->number = (double) out[count - 1];
      self->path_frames = self->n_frames;
    }

  return count;
}

/* The end of a plain JSON number at @p (its grammar, nothing else), or
 * NULL if there is none before @end. */
static const guint8 *
plain_number_end (const guint8 *p,
                  const guint8 *end)
{
  if (p < end && *p == '-')
    p++;
  if (p >= end || (guint8) (*p - '0') >= 10)
    return NULL;
  if (*p == '0')
    p++;
  else
    while (p < end && (guint8) (*p - '0') < 10)
      p++;
  if (p < end && *p == '.')
    {
      p++;
      if (p >= end || (guint8) (*p - '0') >= 10)
        return NULL;
      while (p < end && (guint8) (*p - '0') < 10)
        p++;
    }
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      p++;
      if (p < end && (*p == '+' || *p == '-'))
        p++;
      if (p >= end || (guint8) (*p - '0') >= 10)
        return NULL;
      while (p < end && (guint8) (*p - '0') < 10)
        p++;
    }

  return p < end ? p : NULL;
}

/* The closing quote of a plain ASCII string whose opening quote is at
 * @p, or NULL. */
static inline const guint8 *
plain_string_end (const guint8 *p,
                  const guint8 *end)
{
  for (p++; p < end && char_class[*p] == 1; p++)
    ;

  return p < end && *p == '"' ? p : NULL;
}

gssize
bl_json_reader_next_flat_object (BlJsonReader     *self,
                                 BlJsonFlatMember *out,
                                 gsize             n_max)
{
  BlSource *src;
  const guint8 *p, *end, *start;
  Frame *f;
  gsize n = 0;

  g_return_val_if_fail (self != NULL, -1);
  g_return_val_if_fail (out != NULL || n_max == 0, -1);

  if (self->failed || self->n_frames == 0 || self->n_frames >= self->max_depth)
    return -1;
  f = &self->frames[self->n_frames - 1];
  if (f->is_object)
    return -1;

  src = &self->src;
  p = src->data + src->pos;
  end = src->data + src->len;

  if (f->state == STATE_ARR_SEP)
    {
      if (p >= end || *p != ',')
        return -1;
      p++;
    }
  else if (f->state != STATE_ARR_FIRST && f->state != STATE_ARR_VALUE)
    return -1;
  if (p >= end || *p != '{')
    return -1;
  start = p++;

  /* first see that the whole object is plain and in the window */
  if (p < end && *p == '}')
    p++;
  else
    for (;;)
      {
        const guint8 *name_end, *value_end;

        if (n == n_max || p >= end || *p != '"' || !(name_end = plain_string_end (p, end)))
          return -1;
        out[n].name = (const char *) p + 1;
        out[n].name_len = name_end - p - 1;
        p = name_end + 1;
        if (p >= end || *p != ':')
          return -1;
        p++;
        if (p < end && *p == '"')
          {
            if (!(value_end = plain_string_end (p, end)))
              return -1;
            out[n].string = (const char *) p + 1;
            out[n].string_len = value_end - p - 1;
            p = value_end + 1;
          }
        else
          {
            if (!(value_end = plain_number_end (p, end)))
              return -1;
            out[n].string = NULL;
            out[n].string_len = p - start;   /* the number's offset, for below */
            p = value_end;
          }
        n++;
        if (p >= end || (*p != ',' && *p != '}'))
          return -1;
        if (*p++ == '}')
          break;
      }

  /* then take the numbers as the reader would */
  for (gsize i = 0; i < n; i++)
    if (out[i].string == NULL)
      {
        const guint8 *after;
        /* (it cannot fail: its grammar and delimiter were checked) */
        if (scan_number (self, start + out[i].string_len, &after, NULL) != SCAN_OK)
          return -1;
        out[i].number = self->number;
        out[i].integral = self->integral;
        out[i].integer = self->integer;
        out[i].string_len = 0;
      }

  src->pos = p - src->data;
  self->tok_offset = bl_source_offset (src, p - 1 - src->data);
  self->tok_line = self->line;
  self->tok_column = self->tok_offset - self->line_start + 1;
  self->token = BL_JSON_TOKEN_END_OBJECT;
  f->index++;
  f->has_component = TRUE;
  f->state = STATE_ARR_SEP;
  self->path_frames = self->n_frames;

  return (gssize) n;
}

BlJsonToken
bl_json_reader_get_token (BlJsonReader *self)
{
  g_return_val_if_fail (self != NULL, BL_JSON_TOKEN_ERROR);

  return self->token;
}

const char *
bl_json_reader_get_string (BlJsonReader *self,
                           gsize        *len)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->token == BL_JSON_TOKEN_STRING ||
                        self->token == BL_JSON_TOKEN_MEMBER, NULL);

  if (len != NULL)
    *len = self->buf_len;

  return self->buf;
}

double
bl_json_reader_get_double (BlJsonReader *self)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (self->token == BL_JSON_TOKEN_NUMBER, 0);

  return self->number;
}

gint64
bl_json_reader_get_int (BlJsonReader *self)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (self->token == BL_JSON_TOKEN_NUMBER, 0);

  return self->integer;
}

/**
 * bl_json_reader_get_count:
 * @value: (out): the number
 *
 * For a NUMBER token that must be a count: a whole number from 0 to
 * 2^64-1, written without fraction or exponent.
 *
 * Returns: %FALSE with @error (%BL_JSON_ERROR_RANGE) saying what the number
 *   is and where, if it is not such a count
 */
gboolean
bl_json_reader_get_count (BlJsonReader  *self,
                          guint64       *value,
                          GError       **error)
{
  g_autofree char *location = NULL;
  const char *what;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (self->token == BL_JSON_TOKEN_NUMBER, FALSE);

  if (self->count_state == COUNT_OK)
    {
      *value = self->count;
      return TRUE;
    }

  switch (self->count_state)
    {
    case COUNT_NEGATIVE:
      what = _("is negative");
      break;
    case COUNT_FRACTION:
      what = _("has a fraction or an exponent");
      break;
    case COUNT_OVERFLOW:
    default:
      what = _("is 2^64 or more and does not fit in 64 bits");
      break;
    }

  location = bl_json_reader_dup_location (self);
  /* Translators: the first %s is where (line, column, JSON path), the
   * second why, e.g. "is negative" */
  g_set_error (error, BL_JSON_ERROR, BL_JSON_ERROR_RANGE,
               _("The count at %s %s."), location, what);

  return FALSE;
}

gboolean
bl_json_reader_is_integral (BlJsonReader *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (self->token == BL_JSON_TOKEN_NUMBER, FALSE);

  return self->integral;
}

guint
bl_json_reader_get_depth (BlJsonReader *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_frames;
}

guint64
bl_json_reader_get_line (BlJsonReader *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->tok_line;
}

guint64
bl_json_reader_get_column (BlJsonReader *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->tok_column;
}

guint64
bl_json_reader_get_offset (BlJsonReader *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->tok_offset;
}

/**
 * bl_json_reader_dup_path:
 *
 * Returns: (transfer full): the JSON path of the current token
 */
char *
bl_json_reader_dup_path (BlJsonReader *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return build_path (self, MIN (self->path_frames, self->n_frames));
}

/**
 * bl_json_reader_dup_location:
 *
 * Returns: (transfer full): "line L, column C ($.path)" for the current token
 */
char *
bl_json_reader_dup_location (BlJsonReader *self)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  path = bl_json_reader_dup_path (self);

  return g_strdup_printf (_("line %" PRIu64 ", column %" PRIu64 " (%s)"),
                          self->tok_line, self->tok_column, path);
}

guint64
bl_json_reader_get_bytes_read (BlJsonReader *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return bl_source_offset (&self->src, self->src.len);
}
