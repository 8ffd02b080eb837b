/* bl-bsprof-writer.h — a test-only .bsprof writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <stdio.h>

G_BEGIN_DECLS

typedef struct _BlBsprofWriter BlBsprofWriter;

typedef struct
{
  guint32     major;
  guint32     minor;
  guint32     patch;
  float       requested_ratio;
  float       actual_ratio;
  gboolean    lines;
  gboolean    memory;
  guint64     start_ms;
  const char *target;
  const char *supplemental;
  const char *version;
  const char *vendor;
  const char *model;
  const char *firmware;
  guint       padding;           /* zero bytes after the known fields */
  gint        header_size_delta; /* added to the true header size (hostile files) */
  const guint8 *extra_header;    /* fields of a "newer minor version" before the padding */
  gsize       extra_header_len;
} BlBsprofHeader;

void            bl_bsprof_header_init     (BlBsprofHeader *header);

BlBsprofWriter *bl_bsprof_writer_new      (const BlBsprofHeader *header);
BlBsprofWriter *bl_bsprof_writer_new_file (const BlBsprofHeader *header,
                                           FILE                 *file);
void            bl_bsprof_writer_free     (BlBsprofWriter *writer);

void    bl_bsprof_writer_string   (BlBsprofWriter *w, guint32 id, const char *str);
void    bl_bsprof_writer_module   (BlBsprofWriter *w, guint32 id, guint32 name_strid);
void    bl_bsprof_writer_root     (BlBsprofWriter *w, guint32 id, guint32 module,
                                   guint32 file_strid, guint32 line, guint32 func_strid);
void    bl_bsprof_writer_path     (BlBsprofWriter *w, guint32 id, guint32 caller,
                                   guint32 line_offset, guint32 file_strid, guint32 line,
                                   guint32 func_strid);
void    bl_bsprof_writer_alloc    (BlBsprofWriter *w, guint32 pe, guint32 line_offset,
                                   guint64 addr, guint64 size);
void    bl_bsprof_writer_free_op  (BlBsprofWriter *w, guint32 pe, guint32 line_offset,
                                   guint64 addr, gboolean realloc);
void    bl_bsprof_writer_cpu      (BlBsprofWriter *w, guint32 pe, guint32 line_offset,
                                   guint64 cpu, guint64 wall);
void    bl_bsprof_writer_calls    (BlBsprofWriter *w, guint32 pe, guint64 count);
void    bl_bsprof_writer_end      (BlBsprofWriter *w, guint64 end_ms);

/* raw pieces, for hostile files */
void    bl_bsprof_writer_varint   (BlBsprofWriter *w, guint64 value);
void    bl_bsprof_writer_bytes    (BlBsprofWriter *w, const void *data, gsize len);

gsize   bl_bsprof_writer_get_size (BlBsprofWriter *w);
guint64 bl_bsprof_writer_get_entries (BlBsprofWriter *w);
/* memory writers only */
GBytes *bl_bsprof_writer_finish   (BlBsprofWriter *w);
gboolean bl_bsprof_writer_save    (BlBsprofWriter *w, const char *path, GError **error);

G_END_DECLS
