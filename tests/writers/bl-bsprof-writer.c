/* bl-bsprof-writer.c — a test-only .bsprof writer, written from the
 * format specification independently of the reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-bsprof-writer.h"

struct _BlBsprofWriter
{
  GByteArray *buf;
  FILE       *file;      /* when set, buf is flushed to it */
  gsize       flushed;
  gboolean    lines;
  guint64     entries;
};

void
bl_bsprof_header_init (BlBsprofHeader *h)
{
  memset (h, 0, sizeof *h);
  h->major = 1;
  h->minor = 0;
  h->patch = 0;
  h->requested_ratio = 1.0f;
  h->actual_ratio = 1.0f;
  h->start_ms = G_GUINT64_CONSTANT (1700000000000);
  h->target = "Test App";
  h->supplemental = "";
  h->version = "1.0.0";
  h->vendor = "Roku";
  h->model = "4800X";
  h->firmware = "12.5.0";
}

static void
maybe_flush (BlBsprofWriter *w)
{
  if (w->file != NULL && w->buf->len >= 1024 * 1024)
    {
      fwrite (w->buf->data, 1, w->buf->len, w->file);
      w->flushed += w->buf->len;
      g_byte_array_set_size (w->buf, 0);
    }
}

void
bl_bsprof_writer_bytes (BlBsprofWriter *w,
                        const void     *data,
                        gsize           len)
{
  g_byte_array_append (w->buf, data, len);
}

void
bl_bsprof_writer_varint (BlBsprofWriter *w,
                         guint64         value)
{
  guint8 tmp[10];
  guint n = 0;

  do
    {
      guint8 byte = value & 0x7f;

      value >>= 7;
      if (value)
        byte |= 0x80;
      tmp[n++] = byte;
    }
  while (value);

  g_byte_array_append (w->buf, tmp, n);
}

static void
put_z (BlBsprofWriter *w,
       const char     *s)
{
  g_byte_array_append (w->buf, (const guint8 *) s, strlen (s) + 1);
}

static void
put_f32 (GByteArray *buf,
         float       f)
{
  guint32 raw;

  memcpy (&raw, &f, 4);
  raw = GUINT32_TO_LE (raw);
  g_byte_array_append (buf, (const guint8 *) &raw, 4);
}

static BlBsprofWriter *
writer_new (const BlBsprofHeader *h,
            FILE                 *file)
{
  BlBsprofWriter *w = g_new0 (BlBsprofWriter, 1);
  g_autoptr(GByteArray) fields = g_byte_array_new ();
  BlBsprofWriter tmp = { fields, NULL, 0, FALSE, 0 };
  guint64 size;
  gsize before;

  w->buf = g_byte_array_new ();
  w->file = file;
  w->lines = h->lines;

  /* the fields after the header size; the size counts from the file start */
  put_f32 (fields, h->requested_ratio);
  put_f32 (fields, h->actual_ratio);
  bl_bsprof_writer_varint (&tmp, h->lines ? 1 : 0);
  bl_bsprof_writer_varint (&tmp, h->memory ? 1 : 0);
  bl_bsprof_writer_varint (&tmp, h->start_ms);
  put_z (&tmp, h->target);
  put_z (&tmp, h->supplemental);
  put_z (&tmp, h->version);
  put_z (&tmp, h->vendor);
  put_z (&tmp, h->model);
  put_z (&tmp, h->firmware);
  if (h->extra_header_len)
    g_byte_array_append (fields, h->extra_header, h->extra_header_len);
  for (guint i = 0; i < h->padding; i++)
    g_byte_array_append (fields, (const guint8 *) "", 1);

  g_byte_array_append (w->buf, (const guint8 *) "bsprof\0\0", 8);
  bl_bsprof_writer_varint (w, h->major);
  bl_bsprof_writer_varint (w, h->minor);
  bl_bsprof_writer_varint (w, h->patch);

  /* The size field's own length depends on its value: iterate. */
  before = w->buf->len;
  size = before + 1 + fields->len;
  for (guint i = 0; i < 4; i++)
    {
      guint len = 1;

      for (guint64 v = size >> 7; v; v >>= 7)
        len++;
      size = before + len + fields->len;
    }
  bl_bsprof_writer_varint (w, (guint64) ((gint64) size + h->header_size_delta));
  g_byte_array_append (w->buf, fields->data, fields->len);

  return w;
}

BlBsprofWriter *
bl_bsprof_writer_new (const BlBsprofHeader *header)
{
  return writer_new (header, NULL);
}

BlBsprofWriter *
bl_bsprof_writer_new_file (const BlBsprofHeader *header,
                           FILE                 *file)
{
  return writer_new (header, file);
}

void
bl_bsprof_writer_free (BlBsprofWriter *w)
{
  if (w == NULL)
    return;
  if (w->file != NULL && w->buf->len > 0)
    {
      fwrite (w->buf->data, 1, w->buf->len, w->file);
      w->flushed += w->buf->len;
    }
  g_byte_array_unref (w->buf);
  g_free (w);
}

static void
tag (BlBsprofWriter *w,
     guint64         payload,
     guint           type)
{
  bl_bsprof_writer_varint (w, (payload << 3) | type);
  w->entries++;
}

void
bl_bsprof_writer_string (BlBsprofWriter *w,
                         guint32         id,
                         const char     *str)
{
  tag (w, id, 0);
  put_z (w, str);
  maybe_flush (w);
}

void
bl_bsprof_writer_module (BlBsprofWriter *w,
                         guint32         id,
                         guint32         name_strid)
{
  tag (w, id, 1);
  bl_bsprof_writer_varint (w, name_strid);
  maybe_flush (w);
}

void
bl_bsprof_writer_root (BlBsprofWriter *w,
                       guint32         id,
                       guint32         module,
                       guint32         file_strid,
                       guint32         line,
                       guint32         func_strid)
{
  tag (w, id, 2);
  bl_bsprof_writer_varint (w, 0);
  bl_bsprof_writer_varint (w, module);
  bl_bsprof_writer_varint (w, file_strid);
  bl_bsprof_writer_varint (w, line);
  bl_bsprof_writer_varint (w, func_strid);
  maybe_flush (w);
}

void
bl_bsprof_writer_path (BlBsprofWriter *w,
                       guint32         id,
                       guint32         caller,
                       guint32         line_offset,
                       guint32         file_strid,
                       guint32         line,
                       guint32         func_strid)
{
  tag (w, id, 2);
  bl_bsprof_writer_varint (w, caller);
  if (w->lines)
    bl_bsprof_writer_varint (w, line_offset);
  bl_bsprof_writer_varint (w, file_strid);
  bl_bsprof_writer_varint (w, line);
  bl_bsprof_writer_varint (w, func_strid);
  maybe_flush (w);
}

static void
memory_op (BlBsprofWriter *w,
           guint32         pe,
           guint           op,
           guint32         line_offset,
           guint64         addr)
{
  bl_bsprof_writer_varint (w, ((((guint64) pe << 2) | op) << 3) | 3);
  w->entries++;
  if (w->lines)
    bl_bsprof_writer_varint (w, line_offset);
  bl_bsprof_writer_varint (w, addr);
}

void
bl_bsprof_writer_alloc (BlBsprofWriter *w,
                        guint32         pe,
                        guint32         line_offset,
                        guint64         addr,
                        guint64         size)
{
  memory_op (w, pe, 0, line_offset, addr);
  bl_bsprof_writer_varint (w, size);
  maybe_flush (w);
}

void
bl_bsprof_writer_free_op (BlBsprofWriter *w,
                          guint32         pe,
                          guint32         line_offset,
                          guint64         addr,
                          gboolean        realloc)
{
  memory_op (w, pe, realloc ? 2 : 1, line_offset, addr);
  maybe_flush (w);
}

void
bl_bsprof_writer_cpu (BlBsprofWriter *w,
                      guint32         pe,
                      guint32         line_offset,
                      guint64         cpu,
                      guint64         wall)
{
  tag (w, pe, 4);
  if (w->lines)
    bl_bsprof_writer_varint (w, line_offset);
  bl_bsprof_writer_varint (w, cpu);
  bl_bsprof_writer_varint (w, wall);
  maybe_flush (w);
}

void
bl_bsprof_writer_calls (BlBsprofWriter *w,
                        guint32         pe,
                        guint64         count)
{
  tag (w, pe, 5);
  bl_bsprof_writer_varint (w, count);
  maybe_flush (w);
}

void
bl_bsprof_writer_end (BlBsprofWriter *w,
                      guint64         end_ms)
{
  bl_bsprof_writer_varint (w, 0);
  bl_bsprof_writer_varint (w, end_ms);
}

gsize
bl_bsprof_writer_get_size (BlBsprofWriter *w)
{
  return w->flushed + w->buf->len;
}

guint64
bl_bsprof_writer_get_entries (BlBsprofWriter *w)
{
  return w->entries;
}

GBytes *
bl_bsprof_writer_finish (BlBsprofWriter *w)
{
  GBytes *bytes;

  g_assert (w->file == NULL);
  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&w->buf));
  w->buf = g_byte_array_new ();

  return bytes;
}

gboolean
bl_bsprof_writer_save (BlBsprofWriter  *w,
                       const char      *path,
                       GError         **error)
{
  g_assert (w->file == NULL);

  return g_file_set_contents (path, (const char *) w->buf->data, w->buf->len, error);
}
