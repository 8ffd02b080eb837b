/* bl-zip-writer.c — a test-only .zip writer (stored and deflated entries)
 *
 * Local headers without data descriptors, one central directory, one
 * end-of-central-directory record; no ZIP64, no encryption. Deflated data
 * comes from GZlibCompressor in raw format. The CRC-32 is computed bit by
 * bit here, independently of the table-driven one in the reader.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "bl-zip-writer.h"

typedef struct
{
  char    *name;
  guint16  method;
  guint32  crc;
  guint32  csize;
  guint32  usize;
  gsize    local_offset;
  gsize    central_offset;
} Entry;

struct _BlZipWriter
{
  GByteArray *out;
  GArray     *entries;
  char       *comment;
  gsize       end_offset;
  gboolean    finished;
};

static guint32
crc32_bitwise (const guint8 *data,
               gsize         len)
{
  guint32 crc = 0xffffffffu;

  for (gsize i = 0; i < len; i++)
    {
      crc ^= data[i];
      for (guint k = 0; k < 8; k++)
        crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
    }

  return ~crc;
}

static void
put_u16 (GByteArray *out,
         guint       v)
{
  guint8 b[2] = { v & 0xff, (v >> 8) & 0xff };

  g_byte_array_append (out, b, 2);
}

static void
put_u32 (GByteArray *out,
         guint32     v)
{
  guint8 b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >> 24) & 0xff };

  g_byte_array_append (out, b, 4);
}

static GByteArray *
deflate_raw (const guint8 *data,
             gsize         len)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_RAW, 9);
  GByteArray *out = g_byte_array_new ();
  gsize in_pos = 0;

  for (;;)
    {
      g_autoptr(GError) error = NULL;
      guint8 buffer[4096];
      gsize read = 0, written = 0;
      GConverterResult res;

      res = g_converter_convert (G_CONVERTER (compressor), data + in_pos, len - in_pos,
                                 buffer, sizeof buffer, G_CONVERTER_INPUT_AT_END,
                                 &read, &written, &error);
      g_assert_no_error (error);
      in_pos += read;
      g_byte_array_append (out, buffer, written);
      if (res == G_CONVERTER_FINISHED)
        break;
    }

  return out;
}

BlZipWriter *
bl_zip_writer_new (void)
{
  BlZipWriter *w = g_new0 (BlZipWriter, 1);

  w->out = g_byte_array_new ();
  w->entries = g_array_new (FALSE, TRUE, sizeof (Entry));

  return w;
}

void
bl_zip_writer_free (BlZipWriter *w)
{
  for (guint i = 0; i < w->entries->len; i++)
    g_free (g_array_index (w->entries, Entry, i).name);
  g_array_unref (w->entries);
  g_byte_array_unref (w->out);
  g_free (w->comment);
  g_free (w);
}

void
bl_zip_writer_add (BlZipWriter *w,
                   const char  *name,
                   const void  *data,
                   gsize        len,
                   gboolean     deflate)
{
  g_autoptr(GByteArray) packed = NULL;
  Entry e = { 0, };
  gsize name_len = strlen (name);

  g_assert_false (w->finished);

  e.name = g_strdup (name);
  e.method = deflate ? 8 : 0;
  e.crc = crc32_bitwise (data, len);
  e.usize = len;
  e.local_offset = w->out->len;
  if (deflate)
    packed = deflate_raw (data, len);
  e.csize = deflate ? packed->len : len;

  put_u32 (w->out, 0x04034b50);
  put_u16 (w->out, 20);             /* version needed */
  put_u16 (w->out, 0);              /* flags */
  put_u16 (w->out, e.method);
  put_u16 (w->out, 0x6000);         /* 12:00 */
  put_u16 (w->out, 0x5b75);         /* 2025-11-21 */
  put_u32 (w->out, e.crc);
  put_u32 (w->out, e.csize);
  put_u32 (w->out, e.usize);
  put_u16 (w->out, name_len);
  put_u16 (w->out, 0);
  g_byte_array_append (w->out, (const guint8 *) name, name_len);
  if (deflate)
    g_byte_array_append (w->out, packed->data, packed->len);
  else
    g_byte_array_append (w->out, data, len);

  g_array_append_val (w->entries, e);
}

void
bl_zip_writer_add_text (BlZipWriter *w,
                        const char  *name,
                        const char  *text,
                        gboolean     deflate)
{
  bl_zip_writer_add (w, name, text, strlen (text), deflate);
}

void
bl_zip_writer_set_comment (BlZipWriter *w,
                           const char  *comment)
{
  g_free (w->comment);
  w->comment = g_strdup (comment);
}

GBytes *
bl_zip_writer_finish (BlZipWriter *w)
{
  gsize dir_start, comment_len = w->comment ? strlen (w->comment) : 0;

  if (!w->finished)
    {
      dir_start = w->out->len;
      for (guint i = 0; i < w->entries->len; i++)
        {
          Entry *e = &g_array_index (w->entries, Entry, i);
          gsize name_len = strlen (e->name);

          e->central_offset = w->out->len;
          put_u32 (w->out, 0x02014b50);
          put_u16 (w->out, 0x031e);   /* made by: Unix, 3.0 */
          put_u16 (w->out, 20);
          put_u16 (w->out, 0);
          put_u16 (w->out, e->method);
          put_u16 (w->out, 0x6000);
          put_u16 (w->out, 0x5b75);
          put_u32 (w->out, e->crc);
          put_u32 (w->out, e->csize);
          put_u32 (w->out, e->usize);
          put_u16 (w->out, name_len);
          put_u16 (w->out, 0);        /* extra */
          put_u16 (w->out, 0);        /* comment */
          put_u16 (w->out, 0);        /* disk */
          put_u16 (w->out, 0);        /* internal attributes */
          put_u32 (w->out, 0100644u << 16);
          put_u32 (w->out, e->local_offset);
          g_byte_array_append (w->out, (const guint8 *) e->name, name_len);
        }

      w->end_offset = w->out->len;
      put_u32 (w->out, 0x06054b50);
      put_u16 (w->out, 0);
      put_u16 (w->out, 0);
      put_u16 (w->out, w->entries->len);
      put_u16 (w->out, w->entries->len);
      put_u32 (w->out, w->end_offset - dir_start);
      put_u32 (w->out, dir_start);
      put_u16 (w->out, comment_len);
      if (comment_len)
        g_byte_array_append (w->out, (const guint8 *) w->comment, comment_len);
      w->finished = TRUE;
    }

  return g_bytes_new (w->out->data, w->out->len);
}

gboolean
bl_zip_writer_save (BlZipWriter  *w,
                    const char   *path,
                    GError      **error)
{
  g_autoptr(GBytes) bytes = bl_zip_writer_finish (w);

  return g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                              error);
}

guint
bl_zip_writer_get_n_entries (BlZipWriter *w)
{
  return w->entries->len;
}

gsize
bl_zip_writer_get_local_offset (BlZipWriter *w,
                                guint        entry)
{
  return g_array_index (w->entries, Entry, entry).local_offset;
}

gsize
bl_zip_writer_get_central_offset (BlZipWriter *w,
                                  guint        entry)
{
  g_assert_true (w->finished);

  return g_array_index (w->entries, Entry, entry).central_offset;
}

gsize
bl_zip_writer_get_end_offset (BlZipWriter *w)
{
  g_assert_true (w->finished);

  return w->end_offset;
}
