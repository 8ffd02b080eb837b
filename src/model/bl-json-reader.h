/* bl-json-reader.h — a streaming JSON pull parser
 *
 * Big JSON inputs (RRM sessions, speedscope profiles) are read token by
 * token through a BlSource, so memory stays bounded by the largest token
 * rather than by the document (see DESIGN.md, "Reading").
 *
 * Usage:
 *
 *   g_autoptr(BlJsonReader) reader = bl_json_reader_new_for_stream (stream, size, …);
 *   BlJsonToken token;
 *
 *   while ((token = bl_json_reader_next (reader, &error)) > BL_JSON_TOKEN_END)
 *     {
 *       if (token == BL_JSON_TOKEN_MEMBER && strcmp (bl_json_reader_get_string (reader, NULL),
 *                                                    "samples") != 0)
 *         bl_json_reader_skip_value (reader, &error);   … and so on
 *     }
 *   if (token == BL_JSON_TOKEN_ERROR) … error is set
 *
 * Grammar is RFC 8259 (strict: no comments, no trailing commas, no NaN),
 * with two leniencies: a leading UTF-8 byte order mark is skipped, and a
 * lone UTF-16 surrogate in a \u escape becomes U+FFFD.
 * Strings are checked to be valid UTF-8. A document is one value, with only
 * whitespace after it. Inside a container, a number that the end of the
 * input cuts (it may have lost digits) is BL_JSON_ERROR_TRUNCATED.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-format.h"

G_BEGIN_DECLS

typedef struct _BlJsonReader BlJsonReader;

typedef enum
{
  BL_JSON_TOKEN_ERROR = 0,     /* bl_json_reader_next() failed; error is set */
  BL_JSON_TOKEN_END,           /* the document is complete */
  BL_JSON_TOKEN_BEGIN_OBJECT,
  BL_JSON_TOKEN_END_OBJECT,
  BL_JSON_TOKEN_BEGIN_ARRAY,
  BL_JSON_TOKEN_END_ARRAY,
  BL_JSON_TOKEN_MEMBER,        /* an object member's name; its value comes next */
  BL_JSON_TOKEN_STRING,
  BL_JSON_TOKEN_NUMBER,
  BL_JSON_TOKEN_TRUE,
  BL_JSON_TOKEN_FALSE,
  BL_JSON_TOKEN_NULL,
} BlJsonToken;

#define BL_JSON_ERROR (bl_json_error_quark ())

typedef enum
{
  BL_JSON_ERROR_SYNTAX,      /* not JSON at this point */
  BL_JSON_ERROR_TRUNCATED,   /* the input ends inside the document */
  BL_JSON_ERROR_DEPTH,       /* nesting deeper than the maximum depth */
  BL_JSON_ERROR_ENCODING,    /* a string that is not valid UTF-8, or UTF-16/32 input */
  BL_JSON_ERROR_RANGE,       /* bl_json_reader_get_count(): not a count */
} BlJsonError;

/* The default maximum nesting depth (objects plus arrays). */
#define BL_JSON_DEFAULT_MAX_DEPTH 128

GQuark        bl_json_error_quark           (void);

/* Reads @stream in chunks; @total (the input size, or 0) is for progress,
 * which is reported through @progress and cancellation checked about every
 * 256 KiB. */
BlJsonReader *bl_json_reader_new_for_stream (GInputStream   *stream,
                                             guint64         total,
                                             GCancellable   *cancellable,
                                             BlProgressFunc  progress,
                                             gpointer        progress_data);
/* Parses @len bytes at @data, which must outlive the reader. */
BlJsonReader *bl_json_reader_new_for_data   (const guint8   *data,
                                             gsize           len);
void          bl_json_reader_free           (BlJsonReader   *self);
void          bl_json_reader_set_max_depth  (BlJsonReader   *self,
                                             guint           max_depth);

/* Returns the next token, BL_JSON_TOKEN_END once the document is complete
 * (and again on every later call), or BL_JSON_TOKEN_ERROR with @error set
 * (after which the reader stays in error). */
BlJsonToken   bl_json_reader_next           (BlJsonReader   *self,
                                             GError        **error);
/* Skips the value at the current position: after a MEMBER token, the
 * member's whole value; after BEGIN_OBJECT or BEGIN_ARRAY, the rest of that
 * container including its end token; after any other token, nothing. */
gboolean      bl_json_reader_skip_value     (BlJsonReader   *self,
                                             GError        **error);

/* A fast path for long arrays of indexes: inside an array, reads the next
 * elements while they are whole numbers from 0 to @max written plainly
 * (digits only, no whitespace around them), up to @n_max of them, into
 * @out, as that many bl_json_reader_next() calls would. Returns how many;
 * when more than 0, the current token is the last of them (a NUMBER).
 * It stops before anything else (another kind of value, the array's end,
 * the end of the input window), which bl_json_reader_next() then reads. */
gsize         bl_json_reader_next_indexes   (BlJsonReader   *self,
                                             guint32         max,
                                             guint32        *out,
                                             gsize           n_max);

/* A fast path for long arrays of small flat objects (speedscope's
 * events): inside an array, where the next element is an object written
 * compactly (no white space) that lies whole in the input window, whose
 * members (at most @n_max) have ASCII names and values that are plain
 * ASCII strings (no escapes) or numbers, reads it at once into @out, as the
 * bl_json_reader_next() calls up to its END_OBJECT would, and returns how
 * many members it had. A member's string (name, or string value) points
 * into the reader's window and stays valid until the next call of any
 * bl_json_reader_ function. Returns -1, having read nothing, when the next
 * element is anything else; bl_json_reader_next() then reads it. */
typedef struct
{
  const char *name;
  gsize       name_len;
  const char *string;      /* NULL: the value is the number */
  gsize       string_len;
  double      number;
  gboolean    integral;    /* the number is whole (as bl_json_reader_is_integral()) */
  gint64      integer;
} BlJsonFlatMember;

gssize        bl_json_reader_next_flat_object (BlJsonReader     *self,
                                               BlJsonFlatMember *out,
                                               gsize             n_max);

BlJsonToken   bl_json_reader_get_token      (BlJsonReader   *self);
/* For STRING and MEMBER tokens: the unescaped UTF-8 text, NUL-terminated
 * (it may also hold NULs from \u0000: @len tells). Valid until the next
 * call to bl_json_reader_next() or _skip_value(). */
const char   *bl_json_reader_get_string     (BlJsonReader   *self,
                                             gsize          *len);
/* For NUMBER tokens: the value as a double (always), and as an integer
 * when bl_json_reader_is_integral() (the literal has no fraction or
 * exponent and fits in 64 bits; otherwise get_int returns the double
 * truncated and clamped to the gint64 range). */
double        bl_json_reader_get_double     (BlJsonReader   *self);
gint64        bl_json_reader_get_int        (BlJsonReader   *self);
gboolean      bl_json_reader_is_integral    (BlJsonReader   *self);
/* For a NUMBER that must be a count (0 to 2^64-1, no fraction): FALSE and
 * a message naming the number's place if it is not one. */
gboolean      bl_json_reader_get_count      (BlJsonReader   *self,
                                             guint64        *value,
                                             GError        **error);

/* Nesting depth after the current token (0 at top level; 1 inside the
 * top-level container, and so on). */
guint         bl_json_reader_get_depth      (BlJsonReader   *self);
/* Where the current token starts: 1-based line, 1-based column (in bytes)
 * and 0-based byte offset. */
guint64       bl_json_reader_get_line       (BlJsonReader   *self);
guint64       bl_json_reader_get_column     (BlJsonReader   *self);
guint64       bl_json_reader_get_offset     (BlJsonReader   *self);
/* The JSON path of the current token, like "$.session.live[3].used"
 * ("$" at the top level; names that are not plain identifiers are quoted
 * as ["name"]). For a MEMBER token, the path of that member. */
char         *bl_json_reader_dup_path       (BlJsonReader   *self);
/* "line L, column C ($.path)", for error messages. */
char         *bl_json_reader_dup_location   (BlJsonReader   *self);
/* How many bytes of input the reader has taken in so far; after a
 * BL_JSON_ERROR_TRUNCATED error, the length of the input. */
guint64       bl_json_reader_get_bytes_read (BlJsonReader   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlJsonReader, bl_json_reader_free)

G_END_DECLS
