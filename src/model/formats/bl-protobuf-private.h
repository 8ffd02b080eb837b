/* bl-protobuf-private.h — a bounded reader of the protobuf wire format
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Wire types. Groups (3, 4) are refused: no format we read uses them. */
enum
{
  BL_PB_VARINT = 0,
  BL_PB_FIXED64 = 1,
  BL_PB_BYTES = 2,
  BL_PB_FIXED32 = 5,
};

/* A cursor over one message's bytes. A length-delimited field yields a
 * cursor of its own, always inside its parent's bounds. */
typedef struct
{
  const guint8 *p;
  const guint8 *end;
} BlPbCursor;

/* One field: its number, wire type, and either its scalar value (varint,
 * fixed64, fixed32) or its bytes (length-delimited). */
typedef struct
{
  guint32       number;
  guint32       wire;
  guint64       value;
  const guint8 *data;
  gsize         len;
} BlPbField;

typedef enum
{
  BL_PB_END = 0,       /* the message's bytes are used up */
  BL_PB_FIELD = 1,     /* one field read */
  BL_PB_BAD_VARINT,    /* a varint longer than 10 bytes or past the end */
  BL_PB_BAD_LENGTH,    /* a length or fixed value running past the end */
  BL_PB_BAD_WIRE,      /* wire type 3, 4, 6, 7 or field number 0 */
} BlPbStatus;

static inline void
bl_pb_cursor_init (BlPbCursor   *cursor,
                   const guint8 *data,
                   gsize         len)
{
  cursor->p = data;
  cursor->end = data + len;
}

/* Reads a varint of at most 10 bytes (the 10th holding only the top bit). */
static inline gboolean
bl_pb_read_varint (const guint8 **pp,
                   const guint8  *end,
                   guint64       *value)
{
  const guint8 *p = *pp;
  guint64 v = 0;

  /* most varints of a trace are one byte */
  if G_LIKELY (p < end && *p < 0x80)
    {
      *value = *p;
      *pp = p + 1;
      return TRUE;
    }

  for (guint shift = 0; shift < 70; shift += 7)
    {
      guint8 b;

      if (p >= end)
        return FALSE;
      b = *p++;
      if (shift == 63 && b > 1)
        return FALSE;
      v |= (guint64) (b & 0x7f) << shift;
      if ((b & 0x80) == 0)
        {
          *pp = p;
          *value = v;
          return TRUE;
        }
    }

  return FALSE;
}

static inline BlPbStatus
bl_pb_next (BlPbCursor *cursor,
            BlPbField  *field)
{
  guint64 key;
  gsize avail;

  if (cursor->p >= cursor->end)
    return BL_PB_END;

  if (!bl_pb_read_varint (&cursor->p, cursor->end, &key))
    return BL_PB_BAD_VARINT;
  if ((key >> 3) == 0 || (key >> 3) > G_MAXUINT32 >> 3)
    return BL_PB_BAD_WIRE;

  field->number = (guint32) (key >> 3);
  field->wire = (guint32) (key & 7);
  field->value = 0;
  field->data = NULL;
  field->len = 0;
  avail = (gsize) (cursor->end - cursor->p);

  switch (field->wire)
    {
    case BL_PB_VARINT:
      if (!bl_pb_read_varint (&cursor->p, cursor->end, &field->value))
        return BL_PB_BAD_VARINT;
      return BL_PB_FIELD;

    case BL_PB_FIXED64:
      if (avail < 8)
        return BL_PB_BAD_LENGTH;
      for (guint i = 0; i < 8; i++)
        field->value |= (guint64) cursor->p[i] << (8 * i);
      cursor->p += 8;
      return BL_PB_FIELD;

    case BL_PB_FIXED32:
      if (avail < 4)
        return BL_PB_BAD_LENGTH;
      for (guint i = 0; i < 4; i++)
        field->value |= (guint64) cursor->p[i] << (8 * i);
      cursor->p += 4;
      return BL_PB_FIELD;

    case BL_PB_BYTES:
      {
        guint64 len;

        if (!bl_pb_read_varint (&cursor->p, cursor->end, &len))
          return BL_PB_BAD_VARINT;
        if (len > (guint64) (cursor->end - cursor->p))
          return BL_PB_BAD_LENGTH;
        field->data = cursor->p;
        field->len = (gsize) len;
        field->value = len;
        cursor->p += len;
        return BL_PB_FIELD;
      }

    default:
      return BL_PB_BAD_WIRE;
    }
}

/* A cursor over a length-delimited field's bytes. */
static inline void
bl_pb_field_cursor (const BlPbField *field,
                    BlPbCursor      *cursor)
{
  bl_pb_cursor_init (cursor, field->data, field->len);
}

static inline double
bl_pb_field_double (const BlPbField *field)
{
  union { guint64 u; double d; } v;

  v.u = field->value;
  return v.d;
}

static inline const char *
bl_pb_status_describe (BlPbStatus status)
{
  switch (status)
    {
    case BL_PB_BAD_VARINT:
      return "a varint is longer than 10 bytes or runs past its message";
    case BL_PB_BAD_LENGTH:
      return "a field's length runs past its enclosing message";
    case BL_PB_BAD_WIRE:
      return "a field has an invalid wire type or number";
    case BL_PB_END:
    case BL_PB_FIELD:
    default:
      return "no error";
    }
}

G_END_DECLS
