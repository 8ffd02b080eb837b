/* bl-xz-decompressor.c
 *
 * Decompresses .xz (and concatenated .xz) streams for a
 * GConverterInputStream, so that a .xz profile streams into its reader
 * without being decompressed into memory first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-xz"

#include "config.h"

#include <lzma.h>

#include "bl-xz-decompressor.h"

/* The decoder may use this much memory (xz -9 needs 65 MiB); a stream that
 * asks for more is refused rather than allocated. */
#define MEMORY_LIMIT (256 * 1024 * 1024)

struct _BlXzDecompressor
{
  GObject     parent_instance;

  lzma_stream strm;
  gboolean    ready;
};

static void bl_xz_decompressor_converter_init (GConverterIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (BlXzDecompressor, bl_xz_decompressor, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_CONVERTER,
                                                      bl_xz_decompressor_converter_init))

static const char *
describe (lzma_ret ret)
{
  switch (ret)
    {
    case LZMA_MEM_ERROR:
      return "out of memory";
    case LZMA_MEMLIMIT_ERROR:
      return "the stream needs more memory than allowed";
    case LZMA_FORMAT_ERROR:
      return "not in the .xz format";
    case LZMA_OPTIONS_ERROR:
      return "unsupported compression options";
    case LZMA_DATA_ERROR:
      return "corrupt data";
    case LZMA_BUF_ERROR:
      return "the data ends early";
    case LZMA_UNSUPPORTED_CHECK:
      return "unsupported integrity check";
    case LZMA_OK:
    case LZMA_STREAM_END:
    case LZMA_NO_CHECK:
    case LZMA_GET_CHECK:
    case LZMA_PROG_ERROR:
    default:
      return "decoder error";
    }
}

static gboolean
start (BlXzDecompressor  *self,
       GError           **error)
{
  lzma_ret ret;

  if (self->ready)
    return TRUE;

  ret = lzma_stream_decoder (&self->strm, MEMORY_LIMIT, LZMA_CONCATENATED);
  if (ret != LZMA_OK)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, describe (ret));
      return FALSE;
    }
  self->ready = TRUE;

  return TRUE;
}

static GConverterResult
bl_xz_decompressor_convert (GConverter      *converter,
                            const void      *inbuf,
                            gsize            inbuf_size,
                            void            *outbuf,
                            gsize            outbuf_size,
                            GConverterFlags  flags,
                            gsize           *bytes_read,
                            gsize           *bytes_written,
                            GError         **error)
{
  BlXzDecompressor *self = BL_XZ_DECOMPRESSOR (converter);
  gboolean at_end = (flags & G_CONVERTER_INPUT_AT_END) != 0;
  lzma_ret ret;

  *bytes_read = *bytes_written = 0;

  if (!start (self, error))
    return G_CONVERTER_ERROR;

  self->strm.next_in = inbuf;
  self->strm.avail_in = inbuf_size;
  self->strm.next_out = outbuf;
  self->strm.avail_out = outbuf_size;

  ret = lzma_code (&self->strm, at_end ? LZMA_FINISH : LZMA_RUN);

  *bytes_read = inbuf_size - self->strm.avail_in;
  *bytes_written = outbuf_size - self->strm.avail_out;

  if (ret == LZMA_STREAM_END)
    return G_CONVERTER_FINISHED;

  if (ret != LZMA_OK && ret != LZMA_BUF_ERROR)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, describe (ret));
      return G_CONVERTER_ERROR;
    }

  if (*bytes_read == 0 && *bytes_written == 0)
    {
      if (at_end)
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                             "the data ends inside a stream");
      else if (outbuf_size == 0)
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "no room for output");
      else
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT, "more input needed");
      return G_CONVERTER_ERROR;
    }

  return G_CONVERTER_CONVERTED;
}

static void
bl_xz_decompressor_reset (GConverter *converter)
{
  BlXzDecompressor *self = BL_XZ_DECOMPRESSOR (converter);

  if (self->ready)
    lzma_end (&self->strm);
  self->strm = (lzma_stream) LZMA_STREAM_INIT;
  self->ready = FALSE;
}

static void
bl_xz_decompressor_converter_init (GConverterIface *iface)
{
  iface->convert = bl_xz_decompressor_convert;
  iface->reset = bl_xz_decompressor_reset;
}

static void
bl_xz_decompressor_finalize (GObject *object)
{
  BlXzDecompressor *self = BL_XZ_DECOMPRESSOR (object);

  if (self->ready)
    lzma_end (&self->strm);

  G_OBJECT_CLASS (bl_xz_decompressor_parent_class)->finalize (object);
}

static void
bl_xz_decompressor_class_init (BlXzDecompressorClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = bl_xz_decompressor_finalize;
}

static void
bl_xz_decompressor_init (BlXzDecompressor *self)
{
  self->strm = (lzma_stream) LZMA_STREAM_INIT;
}

GConverter *
bl_xz_decompressor_new (void)
{
  return g_object_new (BL_TYPE_XZ_DECOMPRESSOR, NULL);
}
