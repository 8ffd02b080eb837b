/* bl-zip-writer.h — a test-only .zip writer (stored and deflated entries)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _BlZipWriter BlZipWriter;

BlZipWriter *bl_zip_writer_new              (void);
void         bl_zip_writer_free             (BlZipWriter *w);

/* Adds an entry; @deflate compresses it with raw deflate (method 8),
 * otherwise it is stored (method 0). */
void         bl_zip_writer_add              (BlZipWriter *w,
                                             const char  *name,
                                             const void  *data,
                                             gsize        len,
                                             gboolean     deflate);
void         bl_zip_writer_add_text         (BlZipWriter *w,
                                             const char  *name,
                                             const char  *text,
                                             gboolean     deflate);
void         bl_zip_writer_set_comment      (BlZipWriter *w,
                                             const char  *comment);

/* Writes the central directory and the end record. */
GBytes      *bl_zip_writer_finish           (BlZipWriter *w);
gboolean     bl_zip_writer_save             (BlZipWriter *w,
                                             const char  *path,
                                             GError     **error);

/* Offsets in the finished archive, for hostile variants. */
guint        bl_zip_writer_get_n_entries    (BlZipWriter *w);
gsize        bl_zip_writer_get_local_offset (BlZipWriter *w,
                                             guint        entry);
gsize        bl_zip_writer_get_central_offset (BlZipWriter *w,
                                             guint        entry);
gsize        bl_zip_writer_get_end_offset   (BlZipWriter *w);

G_END_DECLS
