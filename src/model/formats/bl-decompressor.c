/* bl-decompressor.c
 *
 * Wraps a decompressor (GIO's zlib one, or ours for zstd and xz). When the
 * input ends inside the compressed stream, the decompressors fail; this
 * ends the output there instead, and remembers it, so that a reader sees a
 * truncated stream (and keeps what was complete) while the loader can say
 * that the compressed file was cut short. Damaged data stays an error.
 *
 * With @members, a stream that ends is followed by the next one, as gzip
 * reads concatenated members (`cat a.gz b.gz`, pigz); zero bytes after the
 * last member (the padding of tape archives) are ignored, as gzip does.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-decompressor"

#include "config.h"

#include "bl-decompressor.h"

struct _BlDecompressor
{
  GObject     parent_instance;

  GConverter *inner;
  gboolean    members;      /* one stream may follow another */
  gboolean    between;      /* a stream has ended; the next has not begun */
  gboolean    truncated;
};

static void bl_decompressor_converter_init (GConverterIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (BlDecompressor, bl_decompressor, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_CONVERTER,
                                                      bl_decompressor_converter_init))

/* After a complete member: zero bytes are padding, anything else begins the
 * next member. */
static GConverterResult
convert_between (BlDecompressor  *self,
                 const guint8    *inbuf,
                 gsize            inbuf_size,
                 GConverterFlags  flags,
                 gsize           *bytes_read,
                 GError         **error)
{
  gsize zeros = 0;

  while (zeros < inbuf_size && inbuf[zeros] == 0)
    zeros++;
  *bytes_read = zeros;

  if (zeros == inbuf_size && (flags & G_CONVERTER_INPUT_AT_END) != 0)
    return G_CONVERTER_FINISHED;
  if (zeros == inbuf_size)
    {
      if (zeros > 0)
        return G_CONVERTER_CONVERTED;
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT, "more input needed");
      return G_CONVERTER_ERROR;
    }

  g_converter_reset (self->inner);
  self->between = FALSE;

  return G_CONVERTER_CONVERTED;
}

static GConverterResult
bl_decompressor_convert (GConverter      *converter,
                         const void      *inbuf,
                         gsize            inbuf_size,
                         void            *outbuf,
                         gsize            outbuf_size,
                         GConverterFlags  flags,
                         gsize           *bytes_read,
                         gsize           *bytes_written,
                         GError         **error)
{
  BlDecompressor *self = BL_DECOMPRESSOR (converter);
  GError *local_error = NULL;
  GConverterResult result;
  gsize skipped = 0;

  *bytes_read = *bytes_written = 0;

  if (self->between)
    {
      result = convert_between (self, inbuf, inbuf_size, flags, &skipped, error);
      if (result != G_CONVERTER_CONVERTED || self->between)
        {
          *bytes_read = skipped;
          return result;
        }
    }

  result = g_converter_convert (self->inner, (const guint8 *) inbuf + skipped,
                                inbuf_size - skipped, outbuf, outbuf_size, flags,
                                bytes_read, bytes_written, &local_error);
  *bytes_read += skipped;

  if (result == G_CONVERTER_ERROR && (flags & G_CONVERTER_INPUT_AT_END) != 0 &&
      g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
    {
      g_error_free (local_error);
      self->truncated = TRUE;
      *bytes_read = inbuf_size;
      *bytes_written = 0;
      return G_CONVERTER_FINISHED;
    }

  if (result == G_CONVERTER_ERROR)
    {
      /* asked again with more input, the padding is skipped again */
      if (skipped > 0)
        self->between = TRUE;
      g_propagate_error (error, local_error);
      return result;
    }

  /* a member ended: another may follow (a call that made no progress
   * cannot be followed by anything, or it would be asked again forever) */
  if (result == G_CONVERTER_FINISHED && self->members &&
      !(*bytes_read == inbuf_size && (flags & G_CONVERTER_INPUT_AT_END) != 0) &&
      (*bytes_read > 0 || *bytes_written > 0))
    {
      self->between = TRUE;
      return G_CONVERTER_CONVERTED;
    }

  return result;
}

static void
bl_decompressor_reset (GConverter *converter)
{
  BlDecompressor *self = BL_DECOMPRESSOR (converter);

  g_converter_reset (self->inner);
  self->between = FALSE;
  self->truncated = FALSE;
}

static void
bl_decompressor_converter_init (GConverterIface *iface)
{
  iface->convert = bl_decompressor_convert;
  iface->reset = bl_decompressor_reset;
}

static void
bl_decompressor_dispose (GObject *object)
{
  g_clear_object (&BL_DECOMPRESSOR (object)->inner);

  G_OBJECT_CLASS (bl_decompressor_parent_class)->dispose (object);
}

static void
bl_decompressor_class_init (BlDecompressorClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = bl_decompressor_dispose;
}

static void
bl_decompressor_init (BlDecompressor *self)
{
}

/**
 * bl_decompressor_new:
 * @inner: (transfer full): the decompressor to wrap
 * @members: whether a stream that ends may be followed by another
 */
GConverter *
bl_decompressor_new (GConverter *inner,
                     gboolean    members)
{
  BlDecompressor *self = g_object_new (BL_TYPE_DECOMPRESSOR, NULL);

  self->inner = inner;
  self->members = members;

  return G_CONVERTER (self);
}

/* Whether the compressed input ended inside the compressed stream. */
gboolean
bl_decompressor_get_truncated (BlDecompressor *self)
{
  g_return_val_if_fail (BL_IS_DECOMPRESSOR (self), FALSE);

  return self->truncated;
}
