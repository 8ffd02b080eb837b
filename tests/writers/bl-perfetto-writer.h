/* bl-perfetto-writer.h — test-only writer of Perfetto traces (wire format by hand)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Builds protobuf messages field by field. Nested messages are opened
 * with bl_pbw_begin() and closed with bl_pbw_end(), which writes their
 * length in front of them. */
typedef struct _BlPbWriter BlPbWriter;

BlPbWriter *bl_pbw_new        (void);
void        bl_pbw_free       (BlPbWriter   *self);
void        bl_pbw_varint     (BlPbWriter   *self,
                               guint32       field,
                               guint64       value);
void        bl_pbw_fixed64    (BlPbWriter   *self,
                               guint32       field,
                               guint64       value);
void        bl_pbw_double     (BlPbWriter   *self,
                               guint32       field,
                               double        value);
void        bl_pbw_bytes      (BlPbWriter   *self,
                               guint32       field,
                               const void   *data,
                               gsize         len);
void        bl_pbw_string     (BlPbWriter   *self,
                               guint32       field,
                               const char   *str);
void        bl_pbw_raw        (BlPbWriter   *self,
                               const void   *data,
                               gsize         len);
void        bl_pbw_begin      (BlPbWriter   *self,
                               guint32       field);
void        bl_pbw_end        (BlPbWriter   *self);
/* The bytes written so far (all messages closed). */
GBytes     *bl_pbw_steal      (BlPbWriter   *self);

/* TracePacket helpers: each writes one whole packet (field 1 of Trace). */
void        bl_pftw_thread_track  (BlPbWriter *w,
                                   guint64     uuid,
                                   gint64      pid,
                                   gint64      tid,
                                   const char *thread_name);
void        bl_pftw_named_track   (BlPbWriter *w,
                                   guint64     uuid,
                                   guint64     parent,
                                   const char *name);
void        bl_pftw_counter_track (BlPbWriter *w,
                                   guint64     uuid,
                                   const char *name,
                                   gint64      multiplier,
                                   gboolean    incremental);
/* A track event with an inline name (NULL: none) on @track (0: none). */
void        bl_pftw_event         (BlPbWriter *w,
                                   guint32     seq,
                                   guint64     ts,
                                   guint32     type,
                                   guint64     track,
                                   const char *name);
void        bl_pftw_counter       (BlPbWriter *w,
                                   guint32     seq,
                                   guint64     ts,
                                   guint64     track,
                                   gint64      value);
/* zlib-deflates @packets (a serialized Trace) into one compressed_packets packet. */
void        bl_pftw_compressed    (BlPbWriter *w,
                                   GBytes     *packets);
/* One complete heap graph packet: a 100-byte roAssociativeArray root
 * holding @n_nodes leaked 8-byte Nodes (ids 10…) by $unreachable, each
 * referencing itself by "self". */
void        bl_pftw_leaked_heap   (BlPbWriter *w,
                                   guint       n_nodes);

G_END_DECLS
