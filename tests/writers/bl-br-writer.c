/* bl-br-writer.c — writes Business Rules! profiler records, for tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-br-writer.h"

struct _BlBrWriter
{
  GByteArray *out;
};

BlBrWriter *
bl_br_writer_new (void)
{
  BlBrWriter *w = g_new0 (BlBrWriter, 1);

  w->out = g_byte_array_new ();

  return w;
}

void
bl_br_writer_free (BlBrWriter *w)
{
  if (w->out != NULL)
    g_byte_array_unref (w->out);
  g_free (w);
}

static void
put_be (BlBrWriter *w,
        guint64     value,
        guint       size)
{
  guint8 bytes[8];

  for (guint i = 0; i < size; i++)
    bytes[i] = (guint8) (value >> (8 * (size - 1 - i)));
  g_byte_array_append (w->out, bytes, size);
}

void
bl_br_writer_module (BlBrWriter *w,
                     guint16     module,
                     const char *file)
{
  gsize len = strlen (file);

  g_assert (len <= G_MAXUINT16);
  put_be (w, 1, 1);
  put_be (w, module, 2);
  put_be (w, len, 2);
  g_byte_array_append (w->out, (const guint8 *) file, len);
}

static void
line_record (BlBrWriter *w,
             guint8      type,
             guint16     module,
             guint32     line,
             guint8      clause)
{
  put_be (w, type, 1);
  put_be (w, module, 2);
  put_be (w, line, 4);
  put_be (w, clause, 1);
}

void
bl_br_writer_line (BlBrWriter *w,
                   guint16     module,
                   guint32     line,
                   guint8      clause)
{
  line_record (w, 3, module, line, clause);
}

void
bl_br_writer_time (BlBrWriter *w,
                   guint64     nanoseconds)
{
  put_be (w, 4, 1);
  put_be (w, nanoseconds, 8);
}

void
bl_br_writer_backtrace (BlBrWriter *w,
                        guint16     module,
                        guint32     line,
                        guint8      clause)
{
  line_record (w, 5, module, line, clause);
}

void
bl_br_writer_function (BlBrWriter *w,
                       const char *name)
{
  gsize len = strlen (name);

  g_assert (len <= G_MAXUINT8);
  put_be (w, 7, 1);
  put_be (w, len, 1);
  g_byte_array_append (w->out, (const guint8 *) name, len);
}

void
bl_br_writer_gosub (BlBrWriter *w)
{
  put_be (w, 8, 1);
}

void
bl_br_writer_main (BlBrWriter *w)
{
  put_be (w, 9, 1);
}

void
bl_br_writer_end_line (BlBrWriter *w)
{
  put_be (w, 6, 1);
}

void
bl_br_writer_bytes (BlBrWriter *w,
                    const void *data,
                    gsize       len)
{
  g_byte_array_append (w->out, data, len);
}

GBytes *
bl_br_writer_finish (BlBrWriter *w)
{
  GBytes *bytes = g_byte_array_free_to_bytes (w->out);

  w->out = NULL;
  bl_br_writer_free (w);

  return bytes;
}
