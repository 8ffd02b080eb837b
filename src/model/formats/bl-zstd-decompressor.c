/* bl-zstd-decompressor.c
 *
 * Decompresses one or more concatenated Zstandard frames for a
 * GConverterInputStream, so that a .zst profile streams into its reader
 * without being decompressed into memory first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-zstd"

#include "config.h"

#include <zstd.h>

#include "bl-zstd-decompressor.h"

/* A frame may ask for a window of up to 2^27 bytes (zstd's own default
 * limit for streaming); larger ones are refused rather than allocated. */
#define WINDOW_LOG_MAX 27

struct _BlZstdDecompressor
{
  GObject    parent_instance;

  ZSTD_DCtx *dctx;
  gboolean   frame_done;        /* the last call ended a frame */
};

static void bl_zstd_decompressor_converter_init (GConverterIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (BlZstdDecompressor, bl_zstd_decompressor, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_CONVERTER,
                                                      bl_zstd_decompressor_converter_init))

static GConverterResult
bl_zstd_decompressor_convert (GConverter      *converter,
                              const void      *inbuf,
                              gsize            inbuf_size,
                              void            *outbuf,
                              gsize            outbuf_size,
                              GConverterFlags  flags,
                              gsize           *bytes_read,
                              gsize           *bytes_written,
                              GError         **error)
{
  BlZstdDecompressor *self = BL_ZSTD_DECOMPRESSOR (converter);
  ZSTD_inBuffer in = { inbuf, inbuf_size, 0 };
  ZSTD_outBuffer out = { outbuf, outbuf_size, 0 };
  gboolean at_end = (flags & G_CONVERTER_INPUT_AT_END) != 0;
  size_t ret;

  *bytes_read = *bytes_written = 0;

  /* all input consumed after a complete frame: the stream is complete */
  if (inbuf_size == 0 && at_end && self->frame_done)
    return G_CONVERTER_FINISHED;

  ret = ZSTD_decompressStream (self->dctx, &out, &in);
  if (ZSTD_isError (ret))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s", ZSTD_getErrorName (ret));
      return G_CONVERTER_ERROR;
    }

  *bytes_read = in.pos;
  *bytes_written = out.pos;
  self->frame_done = ret == 0;

  if (self->frame_done && in.pos == in.size && at_end)
    return G_CONVERTER_FINISHED;

  if (in.pos == 0 && out.pos == 0)
    {
      if (at_end)
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                             "the data ends inside a frame");
      else if (outbuf_size == 0)
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "no room for output");
      else
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT, "more input needed");
      return G_CONVERTER_ERROR;
    }

  return G_CONVERTER_CONVERTED;
}

static void
bl_zstd_decompressor_reset (GConverter *converter)
{
  BlZstdDecompressor *self = BL_ZSTD_DECOMPRESSOR (converter);

  ZSTD_DCtx_reset (self->dctx, ZSTD_reset_session_only);
  self->frame_done = FALSE;
}

static void
bl_zstd_decompressor_converter_init (GConverterIface *iface)
{
  iface->convert = bl_zstd_decompressor_convert;
  iface->reset = bl_zstd_decompressor_reset;
}

static void
bl_zstd_decompressor_finalize (GObject *object)
{
  BlZstdDecompressor *self = BL_ZSTD_DECOMPRESSOR (object);

  ZSTD_freeDCtx (self->dctx);

  G_OBJECT_CLASS (bl_zstd_decompressor_parent_class)->finalize (object);
}

static void
bl_zstd_decompressor_class_init (BlZstdDecompressorClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = bl_zstd_decompressor_finalize;
}

static void
bl_zstd_decompressor_init (BlZstdDecompressor *self)
{
  self->dctx = ZSTD_createDCtx ();
  if (self->dctx == NULL)
    g_error ("out of memory creating a zstd decoder");
  ZSTD_DCtx_setParameter (self->dctx, ZSTD_d_windowLogMax, WINDOW_LOG_MAX);
}

GConverter *
bl_zstd_decompressor_new (void)
{
  return g_object_new (BL_TYPE_ZSTD_DECOMPRESSOR, NULL);
}
