/* test-json-reader.c — the streaming JSON pull parser
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-json-reader.h"
#include "bl-source-private.h"

/* ---- a stream whose reads return one byte at a time --------------------- */

#define TEST_TYPE_ONE_BYTE_STREAM (test_one_byte_stream_get_type ())
G_DECLARE_FINAL_TYPE (TestOneByteStream, test_one_byte_stream, TEST, ONE_BYTE_STREAM,
                      GInputStream)

struct _TestOneByteStream
{
  GInputStream parent_instance;
  GBytes      *bytes;
  gsize        pos;
  gsize        max_read;
  guint        reads;
};

G_DEFINE_FINAL_TYPE (TestOneByteStream, test_one_byte_stream, G_TYPE_INPUT_STREAM)

static gssize
one_byte_read (GInputStream  *stream,
               void          *buffer,
               gsize          count,
               GCancellable  *cancellable,
               GError       **error)
{
  TestOneByteStream *self = TEST_ONE_BYTE_STREAM (stream);
  gsize len;
  const guint8 *data = g_bytes_get_data (self->bytes, &len);

  self->reads++;
  count = MIN (count, MIN (self->max_read, len - self->pos));
  memcpy (buffer, data + self->pos, count);
  self->pos += count;
  return count;
}

static gboolean
one_byte_close (GInputStream  *stream,
                GCancellable  *cancellable,
                GError       **error)
{
  return TRUE;
}

static void
test_one_byte_stream_finalize (GObject *object)
{
  g_bytes_unref (TEST_ONE_BYTE_STREAM (object)->bytes);
  G_OBJECT_CLASS (test_one_byte_stream_parent_class)->finalize (object);
}

static void
test_one_byte_stream_class_init (TestOneByteStreamClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_one_byte_stream_finalize;
  G_INPUT_STREAM_CLASS (klass)->read_fn = one_byte_read;
  G_INPUT_STREAM_CLASS (klass)->close_fn = one_byte_close;
}

static void
test_one_byte_stream_init (TestOneByteStream *self)
{
}

/* Reads return at most max_read bytes (1 for the tests' one-byte stream). */
static GInputStream *
small_read_stream_new (const char *text,
                       gsize       len,
                       gsize       max_read)
{
  TestOneByteStream *self = g_object_new (TEST_TYPE_ONE_BYTE_STREAM, NULL);

  self->bytes = g_bytes_new (text, len);
  self->max_read = max_read;

  return G_INPUT_STREAM (self);
}

static GInputStream *
one_byte_stream_new (const char *text,
                     gsize       len)
{
  return small_read_stream_new (text, len, 1);
}

/* ---- traces: every token of a document as text -------------------------- */

static void
append_escaped (GString    *out,
                const char *s,
                gsize       len)
{
  for (gsize i = 0; i < len; i++)
    {
      guchar c = s[i];

      if (c < 0x20 || c == '|' || c == '\\')
        g_string_append_printf (out, "\\x%02x", c);
      else
        g_string_append_c (out, c);
    }
}

/* Returns the trace, or "ERROR:<code>:<message>" at the first error. */
static char *
trace_reader (BlJsonReader *reader)
{
  GString *out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  BlJsonToken token;

  while ((token = bl_json_reader_next (reader, &error)) != BL_JSON_TOKEN_END)
    {
      const char *s;
      gsize len;

      switch (token)
        {
        case BL_JSON_TOKEN_ERROR:
          g_string_append_printf (out, "ERROR:%d:%s", error->code, error->message);
          g_assert_true (error->domain == BL_JSON_ERROR || error->domain == G_IO_ERROR);
          return g_string_free (out, FALSE);
        case BL_JSON_TOKEN_BEGIN_OBJECT:
          g_string_append (out, "{|");
          break;
        case BL_JSON_TOKEN_END_OBJECT:
          g_string_append (out, "}|");
          break;
        case BL_JSON_TOKEN_BEGIN_ARRAY:
          g_string_append (out, "[|");
          break;
        case BL_JSON_TOKEN_END_ARRAY:
          g_string_append (out, "]|");
          break;
        case BL_JSON_TOKEN_MEMBER:
          s = bl_json_reader_get_string (reader, &len);
          g_string_append (out, "m:");
          append_escaped (out, s, len);
          g_string_append_c (out, '|');
          break;
        case BL_JSON_TOKEN_STRING:
          s = bl_json_reader_get_string (reader, &len);
          g_assert_cmpint (s[len], ==, 0);
          g_string_append (out, "s:");
          append_escaped (out, s, len);
          g_string_append_c (out, '|');
          break;
        case BL_JSON_TOKEN_NUMBER:
          if (bl_json_reader_is_integral (reader))
            g_string_append_printf (out, "i:%" G_GINT64_FORMAT "|",
                                    bl_json_reader_get_int (reader));
          else
            {
              char buf[G_ASCII_DTOSTR_BUF_SIZE];

              g_string_append_printf (out, "d:%s|",
                                      g_ascii_dtostr (buf, sizeof buf,
                                                      bl_json_reader_get_double (reader)));
            }
          break;
        case BL_JSON_TOKEN_TRUE:
          g_string_append (out, "t|");
          break;
        case BL_JSON_TOKEN_FALSE:
          g_string_append (out, "f|");
          break;
        case BL_JSON_TOKEN_NULL:
          g_string_append (out, "n|");
          break;
        case BL_JSON_TOKEN_END:
        default:
          g_assert_not_reached ();
        }
    }

  /* END repeats */
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_END);

  return g_string_free (out, FALSE);
}

static char *
trace_text (const char *text)
{
  g_autoptr(BlJsonReader) reader =
    bl_json_reader_new_for_data ((const guint8 *) text, strlen (text));

  return trace_reader (reader);
}

static char *
trace_stream (GInputStream *stream)
{
  g_autoptr(BlJsonReader) reader = bl_json_reader_new_for_stream (stream, 0, NULL, NULL, NULL);

  return trace_reader (reader);
}

static void
assert_trace (const char *text,
              const char *expected)
{
  g_autofree char *got = trace_text (text);
  g_autoptr(GInputStream) stream = one_byte_stream_new (text, strlen (text));
  g_autofree char *got_stream = trace_stream (stream);

  g_assert_cmpstr (got, ==, expected);
  g_assert_cmpstr (got_stream, ==, expected);
}

/* ---- tests -------------------------------------------------------------- */

static void
test_tokens (void)
{
  assert_trace ("{\"a\": [1, \"x\", true, false, null, {}, []], \"b\": {\"c\": -2.5}}",
                "{|m:a|[|i:1|s:x|t|f|n|{|}|[|]|]|m:b|{|m:c|d:-2.5|}|}|");
  assert_trace ("  \"lonely\"  \n", "s:lonely|");
  assert_trace ("42", "i:42|");
  assert_trace ("null", "n|");
  assert_trace ("[]", "[|]|");
  assert_trace ("{}", "{|}|");
  assert_trace ("\t\r\n[\n1\r\n,\t2 ]\n", "[|i:1|i:2|]|");
}

static void
test_escapes (void)
{
  g_autoptr(BlJsonReader) reader = NULL;
  const char *s;
  gsize len;

  assert_trace ("\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\"",
                "s:\" \\x5c / \\x08 \\x0c \\x0a \\x0d \\x09|");
  /* BMP, a surrogate pair (U+1F600), lone surrogates, mixed case hex */
  assert_trace ("[\"\\u00e9\\u00E9\", \"\\ud83d\\ude00\", \"\\ud83dx\", \"\\ude00\","
                " \"\\ud83d\\u0041\", \"caf\xc3\xa9 \xf0\x9f\x98\x80\"]",
                "[|s:\xc3\xa9\xc3\xa9|s:\xf0\x9f\x98\x80|s:\xef\xbf\xbdx|s:\xef\xbf\xbd|"
                "s:\xef\xbf\xbd" "A|s:caf\xc3\xa9 \xf0\x9f\x98\x80|]|");
  /* escaped member names */
  assert_trace ("{\"a\\u0062\": 1}", "{|m:ab|i:1|}|");

  /* \u0000 becomes U+FFFD: a NUL would cut names short wherever they are
   * used as C strings */
  reader = bl_json_reader_new_for_data ((const guint8 *) "\"a\\u0000b\"", 10);
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_STRING);
  s = bl_json_reader_get_string (reader, &len);
  g_assert_cmpuint (len, ==, 5);
  g_assert_cmpmem (s, 5, "a\xef\xbf\xbd" "b", 5);
}

static void
test_numbers (void)
{
  g_autoptr(BlJsonReader) reader = NULL;
  const char *text = "[0, -0, 123, 1657721930416, -9223372036854775808, 9223372036854775807,"
                     " 9223372036854775808, 1.5, 1e3, -1.25E-2, 2.0, 0.1, 1E+2]";

  assert_trace (text,
                "[|i:0|i:0|i:123|i:1657721930416|i:-9223372036854775808|"
                "i:9223372036854775807|d:9.2233720368547758e+18|d:1.5|d:1000|"
                "d:-0.012500000000000001|"
                "d:2|d:0.10000000000000001|d:100|]|");

  reader = bl_json_reader_new_for_data ((const guint8 *) text, strlen (text));
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_BEGIN_ARRAY);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_NUMBER);
  g_assert_true (bl_json_reader_is_integral (reader));
  g_assert_cmpint (bl_json_reader_get_int (reader), ==, G_GINT64_CONSTANT (1657721930416));
  g_assert_cmpfloat (bl_json_reader_get_double (reader), ==, 1657721930416.0);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_NUMBER);
  /* too big for gint64: a double, not integral, clamped int */
  g_assert_false (bl_json_reader_is_integral (reader));
  g_assert_cmpint (bl_json_reader_get_int (reader), ==, G_MAXINT64);
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_NUMBER);
  g_assert_false (bl_json_reader_is_integral (reader));
  g_assert_cmpfloat (bl_json_reader_get_double (reader), ==, 1.5);
  g_assert_cmpint (bl_json_reader_get_int (reader), ==, 1);
}

static void
test_nesting (void)
{
  const char *text = "{\"a\": [0, {\"b c\": [[true]]}], \"d\": {\"e\": null}}";
  g_autoptr(BlJsonReader) reader = bl_json_reader_new_for_data ((const guint8 *) text,
                                                                 strlen (text));
  struct { BlJsonToken token; guint depth; const char *path; } expect[] = {
    { BL_JSON_TOKEN_BEGIN_OBJECT, 1, "$" },
    { BL_JSON_TOKEN_MEMBER, 1, "$.a" },
    { BL_JSON_TOKEN_BEGIN_ARRAY, 2, "$.a" },
    { BL_JSON_TOKEN_NUMBER, 2, "$.a[0]" },
    { BL_JSON_TOKEN_BEGIN_OBJECT, 3, "$.a[1]" },
    { BL_JSON_TOKEN_MEMBER, 3, "$.a[1][\"b c\"]" },
    { BL_JSON_TOKEN_BEGIN_ARRAY, 4, "$.a[1][\"b c\"]" },
    { BL_JSON_TOKEN_BEGIN_ARRAY, 5, "$.a[1][\"b c\"][0]" },
    { BL_JSON_TOKEN_TRUE, 5, "$.a[1][\"b c\"][0][0]" },
    { BL_JSON_TOKEN_END_ARRAY, 4, "$.a[1][\"b c\"][0]" },
    { BL_JSON_TOKEN_END_ARRAY, 3, "$.a[1][\"b c\"]" },
    { BL_JSON_TOKEN_END_OBJECT, 2, "$.a[1]" },
    { BL_JSON_TOKEN_END_ARRAY, 1, "$.a" },
    { BL_JSON_TOKEN_MEMBER, 1, "$.d" },
    { BL_JSON_TOKEN_BEGIN_OBJECT, 2, "$.d" },
    { BL_JSON_TOKEN_MEMBER, 2, "$.d.e" },
    { BL_JSON_TOKEN_NULL, 2, "$.d.e" },
    { BL_JSON_TOKEN_END_OBJECT, 1, "$.d" },
    { BL_JSON_TOKEN_END_OBJECT, 0, "$" },
    { BL_JSON_TOKEN_END, 0, "$" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expect); i++)
    {
      g_autofree char *path = NULL;

      g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, expect[i].token);
      g_assert_cmpint (bl_json_reader_get_token (reader), ==, expect[i].token);
      g_assert_cmpuint (bl_json_reader_get_depth (reader), ==, expect[i].depth);
      path = bl_json_reader_dup_path (reader);
      g_assert_cmpstr (path, ==, expect[i].path);
    }
}

static void
test_location (void)
{
  const char *text = "{\n  \"a\": [1,\n        22]\n}";
  g_autoptr(BlJsonReader) reader = bl_json_reader_new_for_data ((const guint8 *) text,
                                                                 strlen (text));
  g_autofree char *location = NULL;

  for (guint i = 0; i < 5; i++)
    g_assert_cmpint (bl_json_reader_next (reader, NULL), >, BL_JSON_TOKEN_END);
  g_assert_cmpint (bl_json_reader_get_int (reader), ==, 22);
  g_assert_cmpuint (bl_json_reader_get_line (reader), ==, 3);
  g_assert_cmpuint (bl_json_reader_get_column (reader), ==, 9);
  g_assert_cmpuint (bl_json_reader_get_offset (reader), ==, strstr (text, "22") - text);
  location = bl_json_reader_dup_location (reader);
  g_assert_cmpstr (location, ==, "line 3, column 9 ($.a[1])");
}

static void
test_skip (void)
{
  const char *text = "{\"a\": {\"b\": [1, {\"c\": \"}]\"}], \"x\": {}}, \"d\": 3, \"e\": [[1], 2], "
                     "\"f\": \"s\"}";
  g_autoptr(BlJsonReader) reader = bl_json_reader_new_for_data ((const guint8 *) text,
                                                                 strlen (text));

  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_BEGIN_OBJECT);
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_MEMBER);
  g_assert_true (bl_json_reader_skip_value (reader, NULL));
  g_assert_cmpint (bl_json_reader_get_depth (reader), ==, 1);
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_MEMBER);
  g_assert_cmpstr (bl_json_reader_get_string (reader, NULL), ==, "d");
  g_assert_true (bl_json_reader_skip_value (reader, NULL));
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_MEMBER);
  g_assert_cmpstr (bl_json_reader_get_string (reader, NULL), ==, "e");
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_BEGIN_ARRAY);
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_BEGIN_ARRAY);
  /* skipping after BEGIN skips the rest of that container */
  g_assert_true (bl_json_reader_skip_value (reader, NULL));
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_NUMBER);
  g_assert_cmpint (bl_json_reader_get_int (reader), ==, 2);
  g_assert_true (bl_json_reader_skip_value (reader, NULL));   /* a scalar: nothing */
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_END_ARRAY);
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_MEMBER);
  g_assert_cmpstr (bl_json_reader_get_string (reader, NULL), ==, "f");
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_STRING);
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_END_OBJECT);
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_END);
}

static void
assert_error (const char *text,
              gsize       len,
              BlJsonError code,
              const char *message)
{
  g_autoptr(BlJsonReader) reader = bl_json_reader_new_for_data ((const guint8 *) text, len);
  g_autoptr(GError) error = NULL;
  BlJsonToken token;

  while ((token = bl_json_reader_next (reader, &error)) > BL_JSON_TOKEN_END)
    ;
  g_assert_cmpint (token, ==, BL_JSON_TOKEN_ERROR);
  g_assert_error (error, BL_JSON_ERROR, (gint) code);
  g_assert_cmpstr (error->message, ==, message);

  /* the reader stays in error */
  g_clear_error (&error);
  g_assert_cmpint (bl_json_reader_next (reader, &error), ==, BL_JSON_TOKEN_ERROR);
  g_assert_nonnull (error);
}

#define ERR(text, code, message) assert_error (text, strlen (text), code, message)

static void
test_errors (void)
{
  ERR ("{\n  \"a\": [1, 2,]\n}", BL_JSON_ERROR_SYNTAX,
       "Invalid JSON at line 2, column 14 ($.a[2]): expected a value (a string, number, "
       "object, array, true, false or null) but found “]”.");
  ERR ("{\"a\": [1, 2", BL_JSON_ERROR_TRUNCATED,
       "The JSON ends early at line 1, column 12, inside $.a[1].");
  ERR ("", BL_JSON_ERROR_TRUNCATED, "The JSON ends early at line 1, column 1, inside $.");
  /* a number cut by the end may have lost digits: not a value */
  assert_trace ("[1,12", "[|i:1|ERROR:1:The JSON ends early at line 1, column 6, inside $[1].");
  assert_trace ("{\"a\":1.5", "{|m:a|ERROR:1:The JSON ends early at line 1, column 9, inside $.a.");
  assert_trace ("12", "i:12|");
  ERR ("{\"a\" 1}", BL_JSON_ERROR_SYNTAX,
       "Invalid JSON at line 1, column 6 ($.a): expected “:” but found “1”.");
  ERR ("{\"a\": 1,}", BL_JSON_ERROR_SYNTAX,
       "Invalid JSON at line 1, column 9 ($.a): expected a member name but found “}”.");
  ERR ("{\"a\": 1 \"b\": 2}", BL_JSON_ERROR_SYNTAX,
       "Invalid JSON at line 1, column 9 ($.a): expected “,” or “}” but found “\"”.");
  ERR ("[1 2]", BL_JSON_ERROR_SYNTAX,
       "Invalid JSON at line 1, column 4 ($[0]): expected “,” or “]” but found “2”.");
  ERR ("{} x", BL_JSON_ERROR_SYNTAX,
       "Invalid JSON at line 1, column 4 ($): expected the end of the input after the "
       "document but found “x”.");
  ERR ("[01]", BL_JSON_ERROR_SYNTAX,
       "Invalid JSON at line 1, column 3 ($[0]): expected a delimiter after the number but "
       "found “1”.");
  ERR ("[1.]", BL_JSON_ERROR_SYNTAX,
       "Invalid JSON at line 1, column 4 ($[0]): expected a digit after the decimal point "
       "but found “]”.");
  ERR ("[-]", BL_JSON_ERROR_SYNTAX,
       "Invalid JSON at line 1, column 3 ($[0]): expected a digit but found “]”.");
  ERR ("[1e]", BL_JSON_ERROR_SYNTAX,
       "Invalid JSON at line 1, column 4 ($[0]): expected a digit in the exponent but "
       "found “]”.");
  ERR ("[trux]", BL_JSON_ERROR_SYNTAX,
       "Invalid JSON at line 1, column 2 ($[0]): expected a value (a string, number, object, "
       "array, true, false or null).");
  ERR ("[nul", BL_JSON_ERROR_TRUNCATED, "The JSON ends early at line 1, column 5, inside $[0].");
  ERR ("[\"abc", BL_JSON_ERROR_TRUNCATED,
       "The JSON ends early at line 1, column 6, inside $[0].");
  ERR ("[\"a\tb\"]", BL_JSON_ERROR_SYNTAX,
       "Invalid JSON at line 1, column 4 ($[0]): a control character must be escaped inside "
       "a string.");
  ERR ("[\"a\\xb\"]", BL_JSON_ERROR_SYNTAX,
       "Invalid JSON at line 1, column 4 ($[0]): “x” cannot follow a backslash.");
  ERR ("[\"\\u12g4\"]", BL_JSON_ERROR_SYNTAX,
       "Invalid JSON at line 1, column 3 ($[0]): a \\u escape needs four hexadecimal digits.");
  ERR ("{\"k\": \"ab\xff\"}", BL_JSON_ERROR_ENCODING,
       "Invalid JSON at line 1, column 10 ($.k): byte 0xff in a string is not valid UTF-8.");
  ERR ("\n\n  @", BL_JSON_ERROR_SYNTAX,
       "Invalid JSON at line 3, column 3 ($): expected a value (a string, number, object, "
       "array, true, false or null) but found “@”.");
  assert_error ("[\"a\0b\"]", 7, BL_JSON_ERROR_SYNTAX,
                "Invalid JSON at line 1, column 4 ($[0]): a control character must be escaped "
                "inside a string.");
}

static void
test_depth (void)
{
  GString *deep = g_string_new (NULL);
  g_autofree char *trace = NULL;
  g_autoptr(BlJsonReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  BlJsonToken token;

  for (guint i = 0; i < BL_JSON_DEFAULT_MAX_DEPTH; i++)
    g_string_append_c (deep, '[');
  for (guint i = 0; i < BL_JSON_DEFAULT_MAX_DEPTH; i++)
    g_string_append_c (deep, ']');

  /* exactly the maximum is fine */
  trace = trace_text (deep->str);
  g_assert_false (g_str_has_prefix (trace, "ERROR"));

  g_string_prepend_c (deep, '[');
  g_string_append_c (deep, ']');
  reader = bl_json_reader_new_for_data ((const guint8 *) deep->str, deep->len);
  while ((token = bl_json_reader_next (reader, &error)) > BL_JSON_TOKEN_END)
    ;
  g_assert_error (error, BL_JSON_ERROR, BL_JSON_ERROR_DEPTH);
  g_assert_true (strstr (error->message, "deeper than 128 levels") != NULL);
  g_clear_pointer (&reader, bl_json_reader_free);
  g_clear_error (&error);

  /* a lower limit */
  reader = bl_json_reader_new_for_data ((const guint8 *) "[[[1]]]", 7);
  bl_json_reader_set_max_depth (reader, 2);
  while ((token = bl_json_reader_next (reader, &error)) > BL_JSON_TOKEN_END)
    ;
  g_assert_error (error, BL_JSON_ERROR, BL_JSON_ERROR_DEPTH);
  g_assert_cmpstr (error->message, ==,
                   "Invalid JSON at line 1, column 3 ($[0][0]): nesting is deeper than 2 levels.");

  g_string_free (deep, TRUE);
}

/* Every kind of token straddling the boundary between two source windows,
 * at every split point, read from a stream: the trace must not change.
 * BlSource fills until it has BL_SOURCE_CHUNK / 2 new bytes, so with reads
 * of 4 KiB the first window ends exactly there. */
static const char boundary_snippet[] =
  "{\"k\\u00e9y\":\"v\\ud83d\\ude00al\\\"ue\",\"n\":-12.5e3,\"t\":true,\"f\":false,"
  "\"z\":null,\"i\":1234567890123,\"caf\xc3\xa9\":[\"\xf0\x9f\x98\x80\"]}";

static void
test_chunk_boundaries (void)
{
  g_autofree char *snippet_doc = g_strdup_printf ("[%s]", boundary_snippet);
  g_autofree char *expected = trace_text (snippet_doc);
  gsize snippet_len = strlen (boundary_snippet);
  gsize boundary = BL_SOURCE_CHUNK / 2;

  g_assert_false (g_str_has_prefix (expected, "ERROR"));

  for (gsize shift = 0; shift <= snippet_len + 1; shift++)
    {
      GString *doc = g_string_sized_new (boundary + 2 * snippet_len);
      g_autoptr(GInputStream) stream = NULL;
      g_autofree char *got = NULL;

      /* "[", whitespace lines, then the snippet starting shift bytes
       * before the boundary */
      g_string_append_c (doc, '[');
      while (doc->len < boundary - shift)
        g_string_append_c (doc, doc->len % 80 == 0 ? '\n' : ' ');
      g_string_append (doc, boundary_snippet);
      g_string_append (doc, "\n]");

      stream = small_read_stream_new (doc->str, doc->len, 4096);
      g_string_free (doc, TRUE);
      got = trace_stream (stream);
      g_assert_cmpstr (got, ==, expected);
    }
}

/* A document larger than one window, read one byte per read: tokens cross
 * the window's end, and lines are counted across it. */
static void
test_one_byte_reads (void)
{
  GString *doc = g_string_new ("[\n");
  GString *expected = g_string_new ("[|");
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(BlJsonReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  BlJsonToken token;
  guint n = 0;
  guint lines = 2;
  g_autofree char *got = NULL;

  while (doc->len < BL_SOURCE_CHUNK / 2 + 100000)
    {
      g_string_append_printf (doc, "{\"n\": %u, \"s\": \"x\\n%u\", \"d\": %u.5},\n", n, n, n);
      g_string_append_printf (expected, "{|m:n|i:%u|m:s|s:x\\x0a%u|m:d|d:%u.5|}|", n, n, n);
      n++;
      lines++;
    }
  g_string_append (doc, "\"end\"]");
  g_string_append (expected, "s:end|]|");

  stream = one_byte_stream_new (doc->str, doc->len);
  got = trace_stream (stream);
  g_assert_cmpstr (got, ==, expected->str);
  g_assert_cmpuint (TEST_ONE_BYTE_STREAM (stream)->reads, >=, doc->len);

  /* the line of the last token */
  g_object_unref (stream);
  stream = one_byte_stream_new (doc->str, doc->len);
  reader = bl_json_reader_new_for_stream (stream, doc->len, NULL, NULL, NULL);
  while ((token = bl_json_reader_next (reader, &error)) != BL_JSON_TOKEN_END)
    {
      g_assert_no_error (error);
      if (token == BL_JSON_TOKEN_STRING &&
          g_str_equal (bl_json_reader_get_string (reader, NULL), "end"))
        {
          g_assert_cmpuint (bl_json_reader_get_line (reader), ==, lines);
          g_assert_cmpuint (bl_json_reader_get_column (reader), ==, 1);
          g_assert_cmpuint (bl_json_reader_get_offset (reader), ==, doc->len - 6);
        }
    }

  g_string_free (doc, TRUE);
  g_string_free (expected, TRUE);
}

/* ---- the bulk index path ------------------------------------------------ */

/* Tokens, with where they start and their path when @locations; with
 * @n_bulk > 0, the reader is first asked for up to @n_bulk plain indexes up
 * to @max_index at every step (only one keeps every location). */
static char *
trace_locations (BlJsonReader *reader,
                 gsize         n_bulk,
                 guint32       max_index,
                 gboolean      locations)
{
  GString *out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  BlJsonToken token;

  for (;;)
    {
      g_autofree char *path = NULL;

      if (n_bulk > 0)
        {
          guint32 got[3];
          gsize n = bl_json_reader_next_indexes (reader, max_index, got, MIN (n_bulk, 3));

          for (gsize i = 0; i < n; i++)
            {
              g_assert_cmpuint (got[i], <=, max_index);
              g_string_append_printf (out, "i:%u", got[i]);
              if (i + 1 < n)
                g_string_append_c (out, '|');
            }
          if (n > 0 && !locations)
            g_string_append_c (out, '|');
          if (n > 0 && locations)
            {
              path = bl_json_reader_dup_path (reader);
              g_assert_cmpint (bl_json_reader_get_token (reader), ==, BL_JSON_TOKEN_NUMBER);
              g_assert_true (bl_json_reader_is_integral (reader));
              g_assert_cmpint (bl_json_reader_get_int (reader), ==, got[n - 1]);
              g_string_append_printf (out, "@%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ":%"
                                      G_GUINT64_FORMAT ":%s:%u|",
                                      bl_json_reader_get_line (reader),
                                      bl_json_reader_get_column (reader),
                                      bl_json_reader_get_offset (reader), path,
                                      bl_json_reader_get_depth (reader));
              g_clear_pointer (&path, g_free);
            }
        }

      token = bl_json_reader_next (reader, &error);
      if (token == BL_JSON_TOKEN_ERROR)
        {
          g_string_append_printf (out, "ERROR:%d:%s", error->code, error->message);
          break;
        }
      if (token == BL_JSON_TOKEN_END)
        break;
      path = bl_json_reader_dup_path (reader);
      if (token == BL_JSON_TOKEN_NUMBER && bl_json_reader_is_integral (reader))
        g_string_append_printf (out, "i:%" G_GINT64_FORMAT, bl_json_reader_get_int (reader));
      else if (token == BL_JSON_TOKEN_NUMBER)
        g_string_append_printf (out, "d:%.17g", bl_json_reader_get_double (reader));
      else
        g_string_append_printf (out, "t%d", token);
      if (!locations)
        {
          g_string_append_c (out, '|');
          continue;
        }
      g_string_append_printf (out, "@%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ":%"
                              G_GUINT64_FORMAT ":%s:%u|",
                              bl_json_reader_get_line (reader),
                              bl_json_reader_get_column (reader),
                              bl_json_reader_get_offset (reader), path,
                              bl_json_reader_get_depth (reader));
    }

  return g_string_free (out, FALSE);
}

/* The bulk path reads the same tokens at the same places as
 * bl_json_reader_next(), over memory, one-byte reads and window ends; it
 * leaves to next() what is not a plain index up to the maximum. */
static void
test_next_indexes (void)
{
  const char *docs[] = {
    "[[0,1,2,3,4,5,6,7],[12,4294967294,99],[],[5, 6 ,7],[8,1.5,9,1e2,10],"
    "[11,\"x\",12,null,13,-1,14,{\"a\":[15,16]},17]]",
    "{\"samples\":[[1,2],[3]\n,[4,\n5]],\"w\":[1,2,3,4294967295,4294967296,99999999999]}",
    "[1,2,3]",
    "[0,0,0]",
    "[[[1]],[[2,3]]]",
    "[1,2,0",
    "[1,2,01]",
    "[1,2,3,]",
  };
  guint32 maxes[] = { G_MAXUINT32 - 1, 9, 0, 4294967295u };

  for (guint d = 0; d < G_N_ELEMENTS (docs); d++)
    for (guint m = 0; m < G_N_ELEMENTS (maxes); m++)
      {
        const char *doc = docs[d];
        g_autoptr(BlJsonReader) plain = bl_json_reader_new_for_data ((const guint8 *) doc,
                                                                     strlen (doc));
        g_autoptr(BlJsonReader) fast = bl_json_reader_new_for_data ((const guint8 *) doc,
                                                                    strlen (doc));
        g_autoptr(GInputStream) stream = one_byte_stream_new (doc, strlen (doc));
        g_autoptr(BlJsonReader) fast_stream = bl_json_reader_new_for_stream (stream, 0, NULL,
                                                                             NULL, NULL);
        g_autoptr(BlJsonReader) plain_bulk =
          bl_json_reader_new_for_data ((const guint8 *) doc, strlen (doc));
        g_autoptr(BlJsonReader) fast_bulk =
          bl_json_reader_new_for_data ((const guint8 *) doc, strlen (doc));
        g_autofree char *expected = trace_locations (plain, 0, 0, TRUE);
        g_autofree char *got = trace_locations (fast, 1, maxes[m], TRUE);
        g_autofree char *got_stream = trace_locations (fast_stream, 1, maxes[m], TRUE);
        g_autofree char *expected_bulk = NULL;
        g_autofree char *got_bulk = NULL;

        g_assert_cmpstr (got, ==, expected);
        g_assert_cmpstr (got_stream, ==, expected);

        /* three at a time: the same values */
        expected_bulk = trace_locations (plain_bulk, 0, 0, FALSE);
        got_bulk = trace_locations (fast_bulk, 3, maxes[m], FALSE);
        g_assert_cmpstr (got_bulk, ==, expected_bulk);
      }

  /* long arrays across the window's end, read in pieces */
  {
    GString *doc = g_string_new ("{\"samples\":[");
    g_autoptr(BlJsonReader) plain = NULL;
    g_autoptr(BlJsonReader) fast = NULL;
    g_autoptr(GInputStream) stream = NULL;
    g_autofree char *expected = NULL;
    g_autofree char *got = NULL;
    guint n = 0;

    while (doc->len < BL_SOURCE_CHUNK + 50000)
      {
        g_string_append_printf (doc, "%s[%u,%u,%u]", n > 0 ? "," : "", n % 5000, n % 7,
                                n * 7919 % 100000);
        n++;
      }
    g_string_append (doc, "]}");
    plain = bl_json_reader_new_for_data ((const guint8 *) doc->str, doc->len);
    expected = trace_locations (plain, 0, 0, FALSE);
    stream = small_read_stream_new (doc->str, doc->len, 4093);
    fast = bl_json_reader_new_for_stream (stream, 0, NULL, NULL, NULL);
    got = trace_locations (fast, 3, 50000, FALSE);
    g_assert_cmpstr (got, ==, expected);
    g_assert_false (strstr (expected, "ERROR") != NULL);
    g_string_free (doc, TRUE);
  }
}

/* Decimals read without strtod must be the very doubles strtod gives. */
static void
test_decimals_exact (void)
{
  GRand *rand = g_rand_new_with_seed (42);
  GString *doc = g_string_new ("[");
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(BlJsonReader) reader = NULL;

  for (guint i = 0; i < 20000; i++)
    {
      guint64 mantissa = ((guint64) g_rand_int (rand) << 32 | g_rand_int (rand)) >>
                         g_rand_int_range (rand, 0, 64);
      guint frac = g_rand_int_range (rand, 0, 25);
      g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT, mantissa);
      GString *text = g_string_new (g_rand_boolean (rand) ? "-" : "");
      gsize len = strlen (digits);

      /* digits with the point frac places from the right, maybe an exponent */
      if (frac >= len)
        {
          g_string_append (text, "0.");
          for (gsize k = len; k < frac; k++)
            g_string_append_c (text, '0');
          g_string_append (text, digits);
        }
      else
        {
          g_string_append_len (text, digits, len - frac);
          if (frac > 0)
            {
              g_string_append_c (text, '.');
              g_string_append (text, digits + len - frac);
            }
          else
            g_string_append (text, ".0");
        }
      if (g_rand_int_range (rand, 0, 4) == 0)
        g_string_append_printf (text, "e%d", g_rand_int_range (rand, -30, 30));
      g_string_append_printf (doc, "%s%s", i > 0 ? "," : "", text->str);
      g_ptr_array_add (texts, g_string_free (text, FALSE));
    }
  g_string_append_c (doc, ']');

  reader = bl_json_reader_new_for_data ((const guint8 *) doc->str, doc->len);
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_BEGIN_ARRAY);
  for (guint i = 0; i < texts->len; i++)
    {
      double expected = g_ascii_strtod (g_ptr_array_index (texts, i), NULL);
      double got;

      g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_NUMBER);
      g_assert_false (bl_json_reader_is_integral (reader));
      got = bl_json_reader_get_double (reader);
      if (memcmp (&got, &expected, sizeof got) != 0)
        g_error ("%s: read %.17g, strtod gives %.17g", (char *) g_ptr_array_index (texts, i),
                 got, expected);
    }
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_END_ARRAY);

  g_string_free (doc, TRUE);
  g_rand_free (rand);
}

/* A string longer than a window grows the window. */
static void
test_long_string (void)
{
  gsize n = BL_SOURCE_CHUNK * 2 + 17;
  char *doc = g_malloc (n + 4);
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(BlJsonReader) reader = NULL;
  gsize len = 0;

  doc[0] = '[';
  doc[1] = '"';
  memset (doc + 2, 'a', n);
  doc[n + 2] = '"';
  doc[n + 3] = ']';
  stream = g_memory_input_stream_new_from_data (doc, n + 4, g_free);
  reader = bl_json_reader_new_for_stream (stream, n + 4, NULL, NULL, NULL);
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_BEGIN_ARRAY);
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_STRING);
  bl_json_reader_get_string (reader, &len);
  g_assert_cmpuint (len, ==, n);
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_END_ARRAY);
  g_assert_cmpint (bl_json_reader_next (reader, NULL), ==, BL_JSON_TOKEN_END);
}

static void
count_progress (guint64  done,
                guint64  total,
                gpointer user_data)
{
  guint *calls = user_data;

  g_assert_cmpuint (done, <=, total);
  (*calls)++;
}

static void
test_progress_and_cancel (void)
{
  GString *doc = g_string_new ("[");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(BlJsonReader) reader = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  BlJsonToken token;
  guint calls = 0;
  gsize len;
  char *data;

  while (doc->len < 3 * BL_SOURCE_CHUNK)
    g_string_append (doc, "123456789,");
  g_string_append (doc, "0]");
  len = doc->len;
  data = g_string_free (doc, FALSE);

  stream = g_memory_input_stream_new_from_data (data, len, NULL);
  reader = bl_json_reader_new_for_stream (stream, len, NULL, count_progress, &calls);
  while ((token = bl_json_reader_next (reader, &error)) > BL_JSON_TOKEN_END)
    ;
  g_assert_no_error (error);
  g_assert_cmpint (token, ==, BL_JSON_TOKEN_END);
  g_assert_cmpuint (calls, >=, 3);
  g_clear_pointer (&reader, bl_json_reader_free);
  g_clear_object (&stream);

  g_cancellable_cancel (cancellable);
  stream = g_memory_input_stream_new_from_data (data, len, NULL);
  reader = bl_json_reader_new_for_stream (stream, len, cancellable, NULL, NULL);
  while ((token = bl_json_reader_next (reader, &error)) > BL_JSON_TOKEN_END)
    ;
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  g_free (data);
}

/* Hostile inputs get messages that say what and where (issue 15.13). */
static void
test_precise_messages (void)
{
  static const char utf16le[] = "{\0\"\0a\0\"\0:\0 \0" "1\0}\0";
  static const char utf16be_bom[] = "\xfe\xff\0[\0" "1\0]";
  static const char utf32le[] = "[\0\0\0" "1\0\0\0]\0\0\0";
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  const char *text;
  gsize len;
  guint64 count = 0;
  BlJsonReader *r;

  assert_error (utf16le, sizeof utf16le - 1, BL_JSON_ERROR_ENCODING,
                "The JSON is encoded in UTF-16LE; Brightlens reads JSON in UTF-8 (convert it "
                "with “iconv -f UTF-16LE -t UTF-8”).");
  assert_error (utf16be_bom, sizeof utf16be_bom - 1, BL_JSON_ERROR_ENCODING,
                "The JSON is encoded in UTF-16BE; Brightlens reads JSON in UTF-8 (convert it "
                "with “iconv -f UTF-16BE -t UTF-8”).");
  assert_error (utf32le, sizeof utf32le - 1, BL_JSON_ERROR_ENCODING,
                "The JSON is encoded in UTF-32LE; Brightlens reads JSON in UTF-8 (convert it "
                "with “iconv -f UTF-32LE -t UTF-8”).");

  /* the path of a too deep document names its first and last levels */
  for (guint i = 0; i < 200; i++)
    g_string_append (deep, "[");
  assert_error (deep->str, deep->len, BL_JSON_ERROR_DEPTH,
                "Invalid JSON at line 1, column 129 ($[0][0][0][0][0][0]…(116 levels)…"
                "[0][0][0][0][0][0]): nesting is deeper than 128 levels.");

  /* counts: up to 2^64-1; beyond, negative or fractional is an error */
  text = "{\"n\": [18446744073709551615, 18446744073709551616, -3, 2.5, 1e3, 0, -0]}";
  r = bl_json_reader_new_for_data ((const guint8 *) text, strlen (text));
  g_assert_cmpint (bl_json_reader_next (r, NULL), ==, BL_JSON_TOKEN_BEGIN_OBJECT);
  g_assert_cmpint (bl_json_reader_next (r, NULL), ==, BL_JSON_TOKEN_MEMBER);
  g_assert_cmpint (bl_json_reader_next (r, NULL), ==, BL_JSON_TOKEN_BEGIN_ARRAY);
  g_assert_cmpint (bl_json_reader_next (r, NULL), ==, BL_JSON_TOKEN_NUMBER);
  g_assert_true (bl_json_reader_get_count (r, &count, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count, ==, G_MAXUINT64);
  g_assert_cmpint (bl_json_reader_next (r, NULL), ==, BL_JSON_TOKEN_NUMBER);
  g_assert_false (bl_json_reader_get_count (r, &count, &error));
  g_assert_error (error, BL_JSON_ERROR, BL_JSON_ERROR_RANGE);
  g_assert_cmpstr (error->message, ==, "The count at line 1, column 30 ($.n[1]) is 2^64 or more "
                   "and does not fit in 64 bits.");
  g_clear_error (&error);
  g_assert_cmpint (bl_json_reader_next (r, NULL), ==, BL_JSON_TOKEN_NUMBER);
  g_assert_false (bl_json_reader_get_count (r, &count, &error));
  g_assert_cmpstr (error->message, ==, "The count at line 1, column 52 ($.n[2]) is negative.");
  g_clear_error (&error);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_cmpint (bl_json_reader_next (r, NULL), ==, BL_JSON_TOKEN_NUMBER);
      g_assert_false (bl_json_reader_get_count (r, &count, &error));
      g_assert_true (strstr (error->message, "has a fraction or an exponent") != NULL);
      g_clear_error (&error);
    }
  for (guint i = 0; i < 2; i++)
    {
      g_assert_cmpint (bl_json_reader_next (r, NULL), ==, BL_JSON_TOKEN_NUMBER);
      g_assert_true (bl_json_reader_get_count (r, &count, &error));
      g_assert_cmpuint (count, ==, 0);
    }
  bl_json_reader_free (r);

  /* \u0000 keeps the string whole */
  text = "[\"a\\u0000b\"]";
  r = bl_json_reader_new_for_data ((const guint8 *) text, strlen (text));
  g_assert_cmpint (bl_json_reader_next (r, NULL), ==, BL_JSON_TOKEN_BEGIN_ARRAY);
  g_assert_cmpint (bl_json_reader_next (r, NULL), ==, BL_JSON_TOKEN_STRING);
  g_assert_cmpstr (bl_json_reader_get_string (r, &len), ==, "a\xef\xbf\xbd" "b");
  g_assert_cmpuint (len, ==, 5);
  bl_json_reader_free (r);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/json/tokens", test_tokens);
  g_test_add_func ("/model/json/escapes", test_escapes);
  g_test_add_func ("/model/json/numbers", test_numbers);
  g_test_add_func ("/model/json/nesting", test_nesting);
  g_test_add_func ("/model/json/location", test_location);
  g_test_add_func ("/model/json/skip", test_skip);
  g_test_add_func ("/model/json/errors", test_errors);
  g_test_add_func ("/model/json/depth", test_depth);
  g_test_add_func ("/model/json/chunk-boundaries", test_chunk_boundaries);
  g_test_add_func ("/model/json/one-byte-reads", test_one_byte_reads);
  g_test_add_func ("/model/json/long-string", test_long_string);
  g_test_add_func ("/model/json/next-indexes", test_next_indexes);
  g_test_add_func ("/model/json/decimals-exact", test_decimals_exact);
  g_test_add_func ("/model/json/progress-and-cancel", test_progress_and_cancel);
  g_test_add_func ("/model/json/precise-messages", test_precise_messages);

  return g_test_run ();
}
