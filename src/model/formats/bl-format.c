/* bl-format.c — recognising a file by its content, and loading it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-format"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "bl-br-reader.h"
#include "bl-bsprof-reader.h"
#include "bl-cpuprofile-reader.h"
#include "bl-decompressor.h"
#include "bl-folded.h"
#include "bl-format.h"
#include "bl-heapprofile-reader.h"
#include "bl-heapsnapshot-reader.h"
#include "bl-json-reader.h"
#include "bl-mpatrol-reader.h"
#include "bl-perfetto-reader.h"
#include "bl-recording.h"
#include "bl-speedscope-reader.h"
#include "bl-rrm-reader.h"
#include "bl-xz-decompressor.h"
#include "bl-zstd-decompressor.h"

G_DEFINE_QUARK (bl-format-error-quark, bl_format_error)

const char *
bl_format_kind_get_name (BlFormatKind kind)
{
  switch (kind)
    {
    case BL_FORMAT_BSPROF:
      return "bsprof";
    case BL_FORMAT_RRM:
      return "rrm";
    case BL_FORMAT_SPEEDSCOPE:
      return "speedscope";
    case BL_FORMAT_MPATROL:
      return "mpatrol";
    case BL_FORMAT_BR:
      return "br";
    case BL_FORMAT_FOLDED:
      return "folded";
    case BL_FORMAT_PERFETTO:
      return "perfetto";
    case BL_FORMAT_CPUPROFILE:
      return "cpuprofile";
    case BL_FORMAT_HEAPPROFILE:
      return "heapprofile";
    case BL_FORMAT_HEAPSNAPSHOT:
      return "heapsnapshot";
    case BL_FORMAT_UNKNOWN:
    default:
      return "unknown";
    }
}

/**
 * bl_format_detect:
 * @head: the first bytes of the file (up to %BL_FORMAT_SNIFF_SIZE)
 * @is_whole_file: whether @head holds the whole file
 *
 * Recognises a format by content alone, never by file name.
 */
BlFormatKind
bl_format_detect (const guint8 *head,
                  gsize         len,
                  gboolean      is_whole_file)
{
  if (len >= BL_BSPROF_MAGIC_LEN && memcmp (head, BL_BSPROF_MAGIC, BL_BSPROF_MAGIC_LEN) == 0)
    return BL_FORMAT_BSPROF;

  if (bl_mpatrol_detect (head, len))
    return BL_FORMAT_MPATROL;

  if (bl_rrm_detect (head, len))
    return BL_FORMAT_RRM;

  if (bl_speedscope_detect (head, len))
    return BL_FORMAT_SPEEDSCOPE;

  /* Chrome DevTools profiles: by their members */
  if (bl_cpuprofile_detect (head, len))
    return BL_FORMAT_CPUPROFILE;
  if (bl_heapprofile_detect (head, len))
    return BL_FORMAT_HEAPPROFILE;
  /* V8 heap snapshots: {"snapshot":{"meta":… */
  if (bl_heapsnapshot_detect (head, len))
    return BL_FORMAT_HEAPSNAPSHOT;

  /* text formats after every format with a signature */
  if (bl_folded_detect (head, len, is_whole_file))
    return BL_FORMAT_FOLDED;

  /* protobuf has no signature either: the first packet must parse */
  if (bl_perfetto_detect (head, len, is_whole_file))
    return BL_FORMAT_PERFETTO;

  /* no signature: last, and only if the records parse */
  if (bl_br_detect (head, len, is_whole_file))
    return BL_FORMAT_BR;

  return BL_FORMAT_UNKNOWN;
}

static gboolean
looks_like_text (const guint8 *head,
                 gsize         len)
{
  gsize checked = len;

  /* do not reject a multi-byte character cut at the end of the sniff buffer */
  if (checked > 4)
    checked -= 4;

  for (gsize i = 0; i < checked; i++)
    if (head[i] == 0)
      return FALSE;

  return g_utf8_validate ((const char *) head, checked, NULL);
}

static void
set_unknown_error (const guint8  *head,
                   gsize          len,
                   GError       **error)
{
  gsize i = 0;

  while (i < len && g_ascii_isspace (head[i]))
    i++;

  if (len == 0)
    g_set_error_literal (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_EMPTY,
                         _("The file is empty."));
  else if (i < len && (head[i] == '{' || head[i] == '[') && looks_like_text (head, len))
    g_set_error_literal (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_UNKNOWN,
                         _("This is a JSON file, but not one Brightlens reads: a Roku "
                           "Resource Monitor session, a speedscope profile, a Chrome "
                           "DevTools CPU or heap profile or a heap snapshot."));
  else if (looks_like_text (head, len))
    g_set_error_literal (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_UNKNOWN,
                         _("This is a text file, but not in a profile format Brightlens "
                           "knows (folded stacks need lines like “main;load;parse 42”)."));
  else
    g_set_error_literal (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_UNKNOWN,
                         _("This is a binary file in no format Brightlens knows: it is "
                           "not a BrightScript profile (.bsprof), a Perfetto trace, an "
                           "mpatrol profile or a Business Rules! profile, nor one of them "
                           "compressed with gzip, xz or zstd."));
}

typedef enum
{
  COMPRESSION_NONE,
  COMPRESSION_GZIP,
  COMPRESSION_ZSTD,
  COMPRESSION_XZ,
} Compression;

/* The magic bytes of the compressed formats we read, longest first. */
#define COMPRESSION_MAGIC_LEN 6

static Compression
detect_compression (const guint8 *head,
                    gsize         len)
{
  if (len >= 6 && memcmp (head, "\xfd" "7zXZ\0", 6) == 0)
    return COMPRESSION_XZ;
  if (len >= 4 && memcmp (head, "\x28\xb5\x2f\xfd", 4) == 0)
    return COMPRESSION_ZSTD;
  if (len >= 3 && head[0] == 0x1f && head[1] == 0x8b && head[2] == 8)
    return COMPRESSION_GZIP;

  return COMPRESSION_NONE;
}

static GConverter *
new_decompressor (Compression compression)
{
  switch (compression)
    {
    case COMPRESSION_GZIP:
      return G_CONVERTER (g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP));
    case COMPRESSION_ZSTD:
      return bl_zstd_decompressor_new ();
    case COMPRESSION_XZ:
      return bl_xz_decompressor_new ();
    case COMPRESSION_NONE:
    default:
      g_assert_not_reached ();
    }
}

static const char *
compression_get_name (Compression compression)
{
  switch (compression)
    {
    case COMPRESSION_GZIP:
      return "gzip";
    case COMPRESSION_ZSTD:
      return "zstd";
    case COMPRESSION_XZ:
      return "xz";
    case COMPRESSION_NONE:
    default:
      return "none";
    }
}

/* Where the sniffer's look ends: the first non-blank byte, after a UTF-8
 * byte order mark. */
static gsize
skip_blank (const guint8 *head,
            gsize         len)
{
  gsize i = 0;

  if (len >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF)
    i = 3;
  while (i < len && g_ascii_isspace (head[i]))
    i++;

  return i;
}

static gboolean
looks_like_json (const guint8 *head,
                 gsize         len)
{
  gsize i = skip_blank (head, len);

  return i < len && (head[i] == '{' || head[i] == '[');
}

static gboolean
looks_like_utf16_json (const guint8 *head,
                       gsize         len)
{
  gsize start = 0;

  /* a UTF-16 byte order mark */
  if (len >= 2 && ((head[0] == 0xFF && head[1] == 0xFE) || (head[0] == 0xFE && head[1] == 0xFF)))
    start = 2;

  /* then "{" or "[" followed or preceded by a NUL, after optional blanks */
  for (gsize i = start; i + 1 < len && i < 64; i += 2)
    {
      guint8 a = head[i], b = head[i + 1];

      if ((a == 0 && (b == '{' || b == '[')) || (b == 0 && (a == '{' || a == '[')))
        return TRUE;
      if (!((a == 0 && g_ascii_isspace (b)) || (b == 0 && g_ascii_isspace (a))))
        return FALSE;
    }

  return FALSE;
}

/* Walks the top-level members of a JSON document in @head, skipping their
 * values. Returns %TRUE when it got through (or the document is not an
 * object), %FALSE with @error set when the JSON is invalid or, with
 * %BL_JSON_ERROR_TRUNCATED, when @head ends inside it. */
static gboolean
scan_json_members (const guint8  *head,
                   gsize          len,
                   GError       **error)
{
  gsize skip = len >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF ? 3 : 0;
  g_autoptr(BlJsonReader) reader = bl_json_reader_new_for_data (head + skip, len - skip);
  BlJsonToken token = bl_json_reader_next (reader, error);

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token != BL_JSON_TOKEN_BEGIN_OBJECT)
    return bl_json_reader_skip_value (reader, error);

  while ((token = bl_json_reader_next (reader, error)) == BL_JSON_TOKEN_MEMBER)
    if (!bl_json_reader_skip_value (reader, error))
      return FALSE;

  return token != BL_JSON_TOKEN_ERROR;
}

/* Whether bl_format_detect() could decide differently on a longer head:
 * a JSON object whose top level @head cuts (a long member before the one
 * that identifies the format), or text whose first line @head cuts (a
 * folded stack deeper than the head is long). */
static gboolean
wants_more (const guint8 *head,
            gsize         len)
{
  gsize i = skip_blank (head, len);

  if (looks_like_json (head, len))
    {
      g_autoptr(GError) error = NULL;

      return !scan_json_members (head, len, &error) &&
             g_error_matches (error, BL_JSON_ERROR, BL_JSON_ERROR_TRUNCATED);
    }

  if (i < len && memchr (head + i, 0, len - i) == NULL && memchr (head + i, '\n', len - i) == NULL)
    return TRUE;

  return FALSE;
}

/* The sniffer's message for an input no reader claimed, naming the JSON
 * parser's precise complaint when the input is clearly JSON. */
static void
set_sniff_error (const guint8  *head,
                 gsize          len,
                 gboolean       is_whole,
                 GError       **error)
{
  if (looks_like_utf16_json (head, len))
    {
      g_set_error_literal (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_UNSUPPORTED,
                           _("This file is JSON encoded in UTF-16, but Brightlens reads JSON "
                             "only in UTF-8 (convert it with “iconv -f UTF-16 -t UTF-8”)."));
      return;
    }

  if (looks_like_json (head, len))
    {
      GError *json_error = NULL;

      if (!scan_json_members (head, len, &json_error) &&
          (is_whole || !g_error_matches (json_error, BL_JSON_ERROR, BL_JSON_ERROR_TRUNCATED)))
        {
          g_propagate_error (error, json_error);
          return;
        }
      g_clear_error (&json_error);
    }

  set_unknown_error (head, len, error);
}

/* Rewrites a decompressor's error as one sentence naming the compression. */
static void
set_compression_error (Compression   compression,
                       GError       *local_error,
                       GError      **error)
{
  if (local_error->domain == G_IO_ERROR &&
      (local_error->code == G_IO_ERROR_INVALID_DATA ||
       local_error->code == G_IO_ERROR_PARTIAL_INPUT ||
       local_error->code == G_IO_ERROR_FAILED))
    {
      /* Translators: the first %s is gzip, zstd or xz; the second the
       * decompressor's own words, in English */
      g_set_error (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_COMPRESSION,
                   _("The %s-compressed data in this file is damaged or cut short (%s)."),
                   compression_get_name (compression), local_error->message);
      g_error_free (local_error);
    }
  else
    g_propagate_error (error, local_error);
}

/* Nothing recognisable came out of a compressed file cut short. */
static void
set_truncated_error (Compression    compression,
                     const guint8  *head,
                     gsize          len,
                     gboolean       is_whole,
                     GError       **error)
{
  g_autoptr(GError) sniff_error = NULL;

  if (len == 0)
    {
      g_set_error (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_COMPRESSION,
                   _("The %s-compressed file is cut short before the end of its first "
                     "block: nothing in it can be read."),
                   compression_get_name (compression));
      return;
    }

  set_sniff_error (head, len, is_whole, &sniff_error);
  g_set_error (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_COMPRESSION,
               _("The %s-compressed file is cut short, and the part that arrived is "
                 "not readable (%s)."),
               compression_get_name (compression), sniff_error->message);
}

/* How far the sniffer buffers a JSON document whose top level it has not
 * seen the end of, before it looks at the rest by streaming (when the input
 * can seek back; a pipe is buffered as far as it takes). */
#ifdef BL_FUZZING
#define SNIFF_BUFFER_MAX (8 * 1024)   /* so that fuzz inputs reach the streaming look */
#else
#define SNIFF_BUFFER_MAX (1024 * 1024)
#endif

static void
append_json_string (GString    *out,
                    const char *str,
                    gsize       len)
{
  g_string_append_c (out, '"');
  for (gsize i = 0; i < len; i++)
    {
      guchar c = str[i];

      if (c == '"' || c == '\\')
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, c);
        }
      else if (c < 0x20)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_c (out, c);
    }
  g_string_append_c (out, '"');
}

/* Reads the top level of the JSON document on @input, skipping the
 * members' values, into a small document of the same shape for
 * bl_format_detect(): every name, short strings as they are, other values
 * null. A document cut short gives what came before the cut, with @error
 * set to say where. */
static GString *
summarize_json (GInputStream  *input,
                GCancellable  *cancellable,
                GError       **error)
{
  g_autoptr(BlJsonReader) reader = bl_json_reader_new_for_stream (input, 0, cancellable,
                                                                  NULL, NULL);
  g_autoptr(GString) summary = g_string_new ("{");
  BlJsonToken token = bl_json_reader_next (reader, error);
  guint n = 0;

  if (token == BL_JSON_TOKEN_ERROR)
    return NULL;
  if (token != BL_JSON_TOKEN_BEGIN_OBJECT)
    return g_string_new ("[]");

  while ((token = bl_json_reader_next (reader, error)) == BL_JSON_TOKEN_MEMBER)
    {
      const char *text;
      gsize len;

      text = bl_json_reader_get_string (reader, &len);
      if (n++ > 0)
        g_string_append_c (summary, ',');
      append_json_string (summary, text, MIN (len, 1024));
      g_string_append_c (summary, ':');

      token = bl_json_reader_next (reader, error);
      if (token == BL_JSON_TOKEN_ERROR)
        break;
      text = token == BL_JSON_TOKEN_STRING ? bl_json_reader_get_string (reader, &len) : NULL;
      if (text != NULL && len <= 4096)
        append_json_string (summary, text, len);
      else
        g_string_append (summary, "null");
      if ((token == BL_JSON_TOKEN_BEGIN_OBJECT || token == BL_JSON_TOKEN_BEGIN_ARRAY) &&
          !bl_json_reader_skip_value (reader, error))
        {
          token = BL_JSON_TOKEN_ERROR;
          break;
        }
      if (summary->len > SNIFF_BUFFER_MAX)
        break;
    }

  if (token == BL_JSON_TOKEN_ERROR && !g_error_matches (*error, BL_JSON_ERROR,
                                                        BL_JSON_ERROR_TRUNCATED))
    return NULL;
  g_string_append_c (summary, '}');

  return g_steal_pointer (&summary);
}

typedef struct
{
  GInputStream   *raw;           /* buffered over the caller's stream */
  GInputStream   *input;         /* what the readers read: raw, or raw decompressed */
  BlDecompressor *decompressor;
} Chain;

static void
chain_clear (Chain *chain)
{
  g_clear_object (&chain->input);
  g_clear_object (&chain->raw);
  g_clear_object (&chain->decompressor);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Chain, chain_clear)

/* Builds the decompressing half over chain->raw. */
static void
chain_finish (Chain       *chain,
              Compression  compression)
{
  g_autoptr(GInputStream) decompressed = NULL;

  if (compression == COMPRESSION_NONE)
    {
      chain->input = g_object_ref (chain->raw);
      return;
    }

  /* zstd frames and xz streams follow one another inside their decoders */
  chain->decompressor = BL_DECOMPRESSOR (bl_decompressor_new (new_decompressor (compression),
                                                              compression == COMPRESSION_GZIP));
  decompressed = g_converter_input_stream_new (chain->raw, G_CONVERTER (chain->decompressor));
  chain->input = g_buffered_input_stream_new_sized (decompressed, BL_FORMAT_SNIFF_SIZE);
}

/* A long JSON top level on an input that can seek: sniffs it by streaming,
 * then starts the input over. */
static BlFormatKind
detect_json_streaming (GInputStream  *stream,
                       goffset        start,
                       Chain         *chain,
                       Compression    compression,
                       GCancellable  *cancellable,
                       GError       **error)
{
  g_autoptr(GString) summary = NULL;
  g_autoptr(GError) json_error = NULL;
  BlFormatKind kind = BL_FORMAT_UNKNOWN;

  summary = summarize_json (chain->input, cancellable, &json_error);
  if (summary != NULL)
    kind = bl_format_detect ((const guint8 *) summary->str, summary->len, TRUE);

  if (g_error_matches (json_error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      (kind == BL_FORMAT_UNKNOWN && json_error != NULL))
    {
      g_propagate_error (error, g_steal_pointer (&json_error));
      return BL_FORMAT_UNKNOWN;
    }
  if (kind == BL_FORMAT_UNKNOWN)
    {
      g_set_error_literal (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_UNKNOWN,
                           _("This is a JSON file, but not one Brightlens reads: a Roku "
                             "Resource Monitor session, a speedscope profile, a Chrome "
                             "DevTools CPU or heap profile or a heap snapshot."));
      return BL_FORMAT_UNKNOWN;
    }

  chain_clear (chain);
  if (!g_seekable_seek (G_SEEKABLE (stream), start, G_SEEK_SET, cancellable, error))
    return BL_FORMAT_UNKNOWN;
  chain->raw = g_buffered_input_stream_new_sized (stream, 64 * 1024);
  g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (chain->raw), FALSE);
  chain_finish (chain, compression);

  return kind;
}

typedef struct
{
  BlProgressFunc  progress;
  gpointer        progress_data;
  GSeekable      *compressed;
  guint64         total;
} CompressedProgress;

/* With compressed input, progress counts compressed bytes read from the
 * file, against the file's size. */
static void
report_compressed_progress (guint64  done,
                            guint64  total,
                            gpointer user_data)
{
  CompressedProgress *cp = user_data;

  if (cp->compressed != NULL && cp->total > 0)
    {
      goffset at = g_seekable_tell (cp->compressed);

      cp->progress (MIN ((guint64) MAX (at, 0), cp->total), cp->total, cp->progress_data);
    }
  else
    cp->progress (done, 0, cp->progress_data);
}

/* Reads into @in's buffer until it holds @want bytes or the input ends. */
static gboolean
fill_to (GBufferedInputStream  *in,
         gsize                  want,
         gboolean              *eof,
         GCancellable          *cancellable,
         GError               **error)
{
  if (g_buffered_input_stream_get_buffer_size (in) < want)
    g_buffered_input_stream_set_buffer_size (in, want);

  while (!*eof && g_buffered_input_stream_get_available (in) < want)
    {
      gsize available = g_buffered_input_stream_get_available (in);
      gssize n = g_buffered_input_stream_fill (in, want - available, cancellable, error);

      if (n < 0)
        return FALSE;
      if (n == 0)
        *eof = TRUE;
    }

  return TRUE;
}

static GObject *
read_with (BlFormatKind    kind,
           GInputStream   *stream,
           guint64         total,
           BlProgressFunc  progress,
           gpointer        progress_data,
           GCancellable   *cancellable,
           GError        **error)
{
  switch (kind)
    {
    case BL_FORMAT_BSPROF:
      return (GObject *) bl_bsprof_read_stream (stream, total, progress, progress_data,
                                                cancellable, NULL, error);
    case BL_FORMAT_MPATROL:
      return (GObject *) bl_mpatrol_read_stream (stream, total, progress, progress_data,
                                                 cancellable, error);
    case BL_FORMAT_SPEEDSCOPE:
      return (GObject *) bl_speedscope_read_stream (stream, total, progress, progress_data,
                                                    cancellable, error);
    case BL_FORMAT_FOLDED:
      return (GObject *) bl_folded_read_stream (stream, total, progress, progress_data,
                                                cancellable, error);
    case BL_FORMAT_BR:
      return (GObject *) bl_br_read_stream (stream, total, progress, progress_data,
                                            cancellable, error);
    case BL_FORMAT_PERFETTO:
      return (GObject *) bl_perfetto_read_stream (stream, total, progress, progress_data,
                                                  cancellable, error);
    case BL_FORMAT_HEAPSNAPSHOT:
      return (GObject *) bl_heapsnapshot_read_stream (stream, total, progress, progress_data,
                                                      cancellable, error);
    case BL_FORMAT_RRM:
      return (GObject *) bl_rrm_read_stream (stream, total, progress, progress_data,
                                             cancellable, error);
    case BL_FORMAT_CPUPROFILE:
      return (GObject *) bl_cpuprofile_read_stream (stream, total, progress, progress_data,
                                                    cancellable, error);
    case BL_FORMAT_HEAPPROFILE:
      return (GObject *) bl_heapprofile_read_stream (stream, total, progress, progress_data,
                                                     cancellable, error);
    case BL_FORMAT_UNKNOWN:
    default:
      g_assert_not_reached ();
    }
}

/**
 * bl_format_load_stream:
 * @stream: a stream positioned at the start of the input; it need not be
 *   seekable (a pipe, standard input)
 * @total: the input size for progress, or 0
 *
 * Sniffs the compression (gzip, zstd, xz) and the format by content and
 * reads the input with its reader, in the calling thread (the loader runs
 * this in a worker). Compressed input is decompressed as the reader goes,
 * never into memory first. The bytes the sniffer looked at are kept and
 * handed to the reader first, so nothing is read twice.
 *
 * Returns: (transfer full): a #BlProfile or a #BlSession, or %NULL with @error set
 */
GObject *
bl_format_load_stream (GInputStream   *stream,
                       guint64         total,
                       BlProgressFunc  progress,
                       gpointer        progress_data,
                       GCancellable   *cancellable,
                       GError        **error)
{
  g_auto(Chain) chain = { NULL, NULL, NULL };
  GInputStream *input;
  BlDecompressor *decompressor;
  GError *local_error = NULL;
  CompressedProgress cp = { 0 };
  Compression compression;
  BlFormatKind kind;
  const guint8 *head;
  gsize len;
  gsize want = BL_FORMAT_SNIFF_SIZE;
  gboolean eof = FALSE;
  gboolean can_seek;
  goffset start = 0;
  GObject *result;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);

  can_seek = G_IS_SEEKABLE (stream) && g_seekable_can_seek (G_SEEKABLE (stream));
  if (can_seek)
    start = g_seekable_tell (G_SEEKABLE (stream));

  /* the caller's stream stays open when the chain over it goes */
  chain.raw = g_buffered_input_stream_new_sized (stream, 64 * 1024);
  g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (chain.raw), FALSE);
  if (!fill_to (G_BUFFERED_INPUT_STREAM (chain.raw), COMPRESSION_MAGIC_LEN, &eof, cancellable,
                error))
    return NULL;
  head = g_buffered_input_stream_peek_buffer (G_BUFFERED_INPUT_STREAM (chain.raw), &len);
  compression = detect_compression (head, len);
  chain_finish (&chain, compression);

  if (compression != COMPRESSION_NONE)
    {
      eof = FALSE;
      cp.progress = progress;
      cp.progress_data = progress_data;
      cp.compressed = G_IS_SEEKABLE (stream) ? G_SEEKABLE (stream) : NULL;
      cp.total = total;
      if (progress != NULL)
        {
          progress = report_compressed_progress;
          progress_data = &cp;
        }
      total = 0;
    }

  /* Look at more of the input as long as a longer look could decide
   * differently; what the sniffer saw stays in the buffer for the reader.
   * A long JSON top level on an input that can seek is looked at by
   * streaming instead, and the input started over. */
  for (;;)
    {
      if (!fill_to (G_BUFFERED_INPUT_STREAM (chain.input), want, &eof, cancellable, &local_error))
        goto failed;
      head = g_buffered_input_stream_peek_buffer (G_BUFFERED_INPUT_STREAM (chain.input), &len);
      kind = bl_format_detect (head, len, eof);
      if (kind != BL_FORMAT_UNKNOWN || eof || !wants_more (head, len) ||
          want > G_MAXSIZE / 4)
        break;
      if (want >= SNIFF_BUFFER_MAX && can_seek && looks_like_json (head, len))
        {
          kind = detect_json_streaming (stream, start, &chain, compression, cancellable,
                                        &local_error);
          if (kind == BL_FORMAT_UNKNOWN)
            goto failed;
          break;
        }
      want *= 2;
    }

  input = chain.input;
  decompressor = chain.decompressor;

  /* the file's name, for readers that name things after it, without the
   * compression's suffix */
  if (g_object_get_data (G_OBJECT (stream), BL_FORMAT_FILE_NAME_KEY) != NULL)
    {
      char *name = g_strdup (g_object_get_data (G_OBJECT (stream), BL_FORMAT_FILE_NAME_KEY));
      const char *suffixes[] = { ".gz", ".zst", ".xz" };

      for (guint i = 0; compression != COMPRESSION_NONE && i < G_N_ELEMENTS (suffixes); i++)
        if (g_str_has_suffix (name, suffixes[i]) && strlen (name) > strlen (suffixes[i]))
          name[strlen (name) - strlen (suffixes[i])] = '\0';
      g_object_set_data_full (G_OBJECT (input), BL_FORMAT_FILE_NAME_KEY, name, g_free);
    }

  if (kind == BL_FORMAT_UNKNOWN)
    {
      if (decompressor != NULL && bl_decompressor_get_truncated (decompressor))
        set_truncated_error (compression, head, len, eof, error);
      else
        set_sniff_error (head, len, eof, error);
      return NULL;
    }

  result = read_with (kind, input, total, progress, progress_data, cancellable, &local_error);

  /* without a signature, a file whose records stop parsing is not one */
  if (result == NULL && kind == BL_FORMAT_BR && local_error->domain == BL_BR_ERROR)
    {
      g_clear_error (&local_error);
      head = g_buffered_input_stream_peek_buffer (G_BUFFERED_INPUT_STREAM (input), &len);
      set_unknown_error (head, len, error);
      return NULL;
    }

  if (result != NULL)
    {
      /* what the part that arrived holds: the reader kept every complete entry */
      if (decompressor != NULL && bl_decompressor_get_truncated (decompressor))
        {
          /* Translators: %s is gzip, zstd or xz */
          g_autofree char *reason = g_strdup_printf (_("The %s-compressed file is cut short; "
                                                       "this is what arrived."),
                                                     compression_get_name (compression));

          if (BL_IS_PROFILE (result))
            bl_profile_set_incomplete (BL_PROFILE (result), reason);
          else if (BL_IS_SESSION (result))
            bl_session_add_warning (BL_SESSION (result), reason);   /* it is finished */
        }
      return result;
    }

  if (decompressor != NULL && bl_decompressor_get_truncated (decompressor) &&
      local_error->domain != G_IO_ERROR)
    {
      g_set_error (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_COMPRESSION,
                   _("The %s-compressed file is cut short, and the part that arrived is "
                     "not readable (%s)."),
                   compression_get_name (compression), local_error->message);
      g_error_free (local_error);
      return NULL;
    }

failed:
  input = chain.input;
  /* a reader that stopped at garbage may have been fed it by damaged
   * compressed data: decompress the rest to tell, and say so if it is */
  if (compression != COMPRESSION_NONE && local_error->domain != G_IO_ERROR &&
      local_error->domain != BL_FORMAT_ERROR)
    {
      GError *rest_error = NULL;

      while (g_input_stream_skip (input, 1024 * 1024, cancellable, &rest_error) > 0)
        ;
      if (rest_error != NULL && !g_error_matches (rest_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_clear_error (&local_error);
          local_error = rest_error;
        }
      else
        g_clear_error (&rest_error);
    }

  if (compression != COMPRESSION_NONE)
    set_compression_error (compression, local_error, error);
  else
    g_propagate_error (error, local_error);

  return NULL;
}

/**
 * bl_format_load_file:
 *
 * Opens @file read-only and loads it (see bl_format_load_stream()). A
 * recording's folder or manifest (bl_recording_is_recording()) gives a
 * #BlRecording.
 *
 * Returns: (transfer full): a #BlProfile, a #BlSession or a #BlRecording, or
 *   %NULL with @error set
 */
GObject *
bl_format_load_file (GFile          *file,
                     BlProgressFunc  progress,
                     gpointer        progress_data,
                     GCancellable   *cancellable,
                     GError        **error)
{
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GFileInfo) info = NULL;
  guint64 total = 0;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  /* a recording: its folder or its manifest */
  if (bl_recording_is_recording (file, cancellable))
    return (GObject *) bl_recording_load (file, cancellable, error);

  if (!(stream = g_file_read (file, cancellable, error)))
    return NULL;

  info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                         cancellable, NULL);
  if (info != NULL && g_file_info_has_attribute (info, G_FILE_ATTRIBUTE_STANDARD_SIZE))
    total = g_file_info_get_size (info);
  /* readers that name things after the file (speedscope's unnamed profiles) */
  g_object_set_data_full (G_OBJECT (stream), BL_FORMAT_FILE_NAME_KEY, g_file_get_basename (file),
                          g_free);

  return bl_format_load_stream (G_INPUT_STREAM (stream), total, progress, progress_data,
                                cancellable, error);
}

/**
 * bl_format_load_bytes:
 *
 * Returns: (transfer full): a #BlProfile or a #BlSession, or %NULL with @error set
 */
GObject *
bl_format_load_bytes (GBytes  *bytes,
                      GError **error)
{
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_bytes (bytes);

  return bl_format_load_stream (stream, g_bytes_get_size (bytes), NULL, NULL, NULL, error);
}
