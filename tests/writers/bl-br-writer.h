/* bl-br-writer.h — a test-only writer of Business Rules! profiler files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _BlBrWriter BlBrWriter;

BlBrWriter *bl_br_writer_new       (void);
void        bl_br_writer_free      (BlBrWriter *w);

void        bl_br_writer_module    (BlBrWriter *w,
                                    guint16     module,
                                    const char *file);
void        bl_br_writer_line      (BlBrWriter *w,
                                    guint16     module,
                                    guint32     line,
                                    guint8      clause);
void        bl_br_writer_time      (BlBrWriter *w,
                                    guint64     nanoseconds);
void        bl_br_writer_backtrace (BlBrWriter *w,
                                    guint16     module,
                                    guint32     line,
                                    guint8      clause);
void        bl_br_writer_function  (BlBrWriter *w,
                                    const char *name);
void        bl_br_writer_gosub     (BlBrWriter *w);
void        bl_br_writer_main      (BlBrWriter *w);
void        bl_br_writer_end_line  (BlBrWriter *w);
/* raw bytes, for hostile files */
void        bl_br_writer_bytes     (BlBrWriter *w,
                                    const void *data,
                                    gsize       len);

GBytes     *bl_br_writer_finish    (BlBrWriter *w);

G_END_DECLS
