/* bl-perfetto-writer.c — test-only writer of Perfetto traces
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "bl-perfetto-writer.h"

struct _BlPbWriter
{
  GPtrArray *stack;     /* GByteArray per open message; [0] is the output */
  GArray    *fields;    /* field number of each open message */
};

BlPbWriter *
bl_pbw_new (void)
{
  BlPbWriter *self = g_new0 (BlPbWriter, 1);

  self->stack = g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);
  self->fields = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_ptr_array_add (self->stack, g_byte_array_new ());

  return self;
}

void
bl_pbw_free (BlPbWriter *self)
{
  g_ptr_array_unref (self->stack);
  g_array_unref (self->fields);
  g_free (self);
}

static GByteArray *
top (BlPbWriter *self)
{
  return g_ptr_array_index (self->stack, self->stack->len - 1);
}

static void
put_varint (GByteArray *out,
            guint64     v)
{
  do
    {
      guint8 b = v & 0x7f;

      v >>= 7;
      if (v != 0)
        b |= 0x80;
      g_byte_array_append (out, &b, 1);
    }
  while (v != 0);
}

void
bl_pbw_varint (BlPbWriter *self,
               guint32     field,
               guint64     value)
{
  put_varint (top (self), (guint64) field << 3);
  put_varint (top (self), value);
}

void
bl_pbw_fixed64 (BlPbWriter *self,
                guint32     field,
                guint64     value)
{
  guint8 b[8];

  for (guint i = 0; i < 8; i++)
    b[i] = (value >> (8 * i)) & 0xff;
  put_varint (top (self), ((guint64) field << 3) | 1);
  g_byte_array_append (top (self), b, 8);
}

void
bl_pbw_double (BlPbWriter *self,
               guint32     field,
               double      value)
{
  guint64 u;

  memcpy (&u, &value, 8);
  bl_pbw_fixed64 (self, field, u);
}

void
bl_pbw_bytes (BlPbWriter *self,
              guint32     field,
              const void *data,
              gsize       len)
{
  put_varint (top (self), ((guint64) field << 3) | 2);
  put_varint (top (self), len);
  g_byte_array_append (top (self), data, len);
}

void
bl_pbw_string (BlPbWriter *self,
               guint32     field,
               const char *str)
{
  bl_pbw_bytes (self, field, str, strlen (str));
}

void
bl_pbw_raw (BlPbWriter *self,
            const void *data,
            gsize       len)
{
  g_byte_array_append (top (self), data, len);
}

void
bl_pbw_begin (BlPbWriter *self,
              guint32     field)
{
  g_array_append_val (self->fields, field);
  g_ptr_array_add (self->stack, g_byte_array_new ());
}

void
bl_pbw_end (BlPbWriter *self)
{
  GByteArray *inner;
  guint32 field;

  g_assert (self->stack->len > 1);
  inner = g_ptr_array_steal_index (self->stack, self->stack->len - 1);
  field = g_array_index (self->fields, guint32, self->fields->len - 1);
  g_array_set_size (self->fields, self->fields->len - 1);
  bl_pbw_bytes (self, field, inner->data, inner->len);
  g_byte_array_unref (inner);
}

GBytes *
bl_pbw_steal (BlPbWriter *self)
{
  GByteArray *out;

  g_assert (self->stack->len == 1);
  out = g_ptr_array_steal_index (self->stack, 0);
  g_ptr_array_add (self->stack, g_byte_array_new ());

  return g_byte_array_free_to_bytes (out);
}

void
bl_pftw_thread_track (BlPbWriter *w,
                      guint64     uuid,
                      gint64      pid,
                      gint64      tid,
                      const char *thread_name)
{
  bl_pbw_begin (w, 1);
  bl_pbw_begin (w, 60);
  bl_pbw_varint (w, 1, uuid);
  bl_pbw_begin (w, 4);
  bl_pbw_varint (w, 1, (guint64) pid);
  bl_pbw_varint (w, 2, (guint64) tid);
  if (thread_name != NULL)
    bl_pbw_string (w, 5, thread_name);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pbw_end (w);
}

void
bl_pftw_named_track (BlPbWriter *w,
                     guint64     uuid,
                     guint64     parent,
                     const char *name)
{
  bl_pbw_begin (w, 1);
  bl_pbw_begin (w, 60);
  bl_pbw_varint (w, 1, uuid);
  if (parent != 0)
    bl_pbw_varint (w, 5, parent);
  if (name != NULL)
    bl_pbw_string (w, 2, name);
  bl_pbw_end (w);
  bl_pbw_end (w);
}

void
bl_pftw_counter_track (BlPbWriter *w,
                       guint64     uuid,
                       const char *name,
                       gint64      multiplier,
                       gboolean    incremental)
{
  bl_pbw_begin (w, 1);
  bl_pbw_begin (w, 60);
  bl_pbw_varint (w, 1, uuid);
  bl_pbw_string (w, 2, name);
  bl_pbw_begin (w, 8);
  if (multiplier != 1)
    bl_pbw_varint (w, 4, (guint64) multiplier);
  if (incremental)
    bl_pbw_varint (w, 5, 1);
  bl_pbw_string (w, 6, "MB");
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pbw_end (w);
}

void
bl_pftw_event (BlPbWriter *w,
               guint32     seq,
               guint64     ts,
               guint32     type,
               guint64     track,
               const char *name)
{
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 8, ts);
  bl_pbw_varint (w, 10, seq);
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 9, type);
  if (track != 0)
    bl_pbw_varint (w, 11, track);
  if (name != NULL)
    bl_pbw_string (w, 23, name);
  bl_pbw_end (w);
  bl_pbw_end (w);
}

void
bl_pftw_counter (BlPbWriter *w,
                 guint32     seq,
                 guint64     ts,
                 guint64     track,
                 gint64      value)
{
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 8, ts);
  bl_pbw_varint (w, 10, seq);
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 9, 4);
  bl_pbw_varint (w, 11, track);
  bl_pbw_varint (w, 30, (guint64) value);
  bl_pbw_end (w);
  bl_pbw_end (w);
}

void
bl_pftw_compressed (BlPbWriter *w,
                    GBytes     *packets)
{
  g_autoptr (GZlibCompressor) deflater = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_ZLIB, 6);
  g_autoptr (GByteArray) out = g_byte_array_new ();
  gsize len;
  const guint8 *data = g_bytes_get_data (packets, &len);
  gsize in_pos = 0;

  for (;;)
    {
      guint8 buffer[4096];
      gsize read = 0, written = 0;
      GConverterResult result;

      result = g_converter_convert (G_CONVERTER (deflater), data + in_pos, len - in_pos,
                                    buffer, sizeof buffer, G_CONVERTER_INPUT_AT_END,
                                    &read, &written, NULL);
      g_assert (result != G_CONVERTER_ERROR);
      in_pos += read;
      g_byte_array_append (out, buffer, written);
      if (result == G_CONVERTER_FINISHED)
        break;
    }

  bl_pbw_begin (w, 1);
  bl_pbw_bytes (w, 50, out->data, out->len);
  bl_pbw_end (w);
}

void
bl_pftw_leaked_heap (BlPbWriter *w,
                     guint       n_nodes)
{
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 1);
  bl_pbw_begin (w, 56);
  bl_pbw_begin (w, 9);
  bl_pbw_varint (w, 1, 1);
  bl_pbw_string (w, 3, "roAssociativeArray");
  bl_pbw_end (w);
  bl_pbw_begin (w, 9);
  bl_pbw_varint (w, 1, 2);
  bl_pbw_string (w, 3, "Node");
  bl_pbw_end (w);
  bl_pbw_begin (w, 4);
  bl_pbw_varint (w, 1, 1);
  bl_pbw_string (w, 2, "$unreachable");
  bl_pbw_end (w);
  bl_pbw_begin (w, 4);
  bl_pbw_varint (w, 1, 2);
  bl_pbw_string (w, 2, "self");
  bl_pbw_end (w);
  /* the root: 100 bytes, $unreachable to every node */
  bl_pbw_begin (w, 2);
  bl_pbw_varint (w, 1, 1);
  bl_pbw_varint (w, 2, 1);
  bl_pbw_varint (w, 3, 100);
  for (guint i = 0; i < n_nodes; i++)
    bl_pbw_varint (w, 4, 1);
  for (guint i = 0; i < n_nodes; i++)
    bl_pbw_varint (w, 5, 10 + i);
  bl_pbw_end (w);
  for (guint i = 0; i < n_nodes; i++)
    {
      bl_pbw_begin (w, 2);
      bl_pbw_varint (w, 1, 10 + i);
      bl_pbw_varint (w, 2, 2);
      bl_pbw_varint (w, 3, 8);
      bl_pbw_varint (w, 4, 2);
      bl_pbw_varint (w, 5, 10 + i);
      bl_pbw_end (w);
    }
  bl_pbw_begin (w, 7);
  bl_pbw_varint (w, 1, 1);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pbw_end (w);
}
