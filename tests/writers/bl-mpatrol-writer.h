/* bl-mpatrol-writer.h — a test-only writer of mpatrol profiling files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _BlMpatrolWriter BlMpatrolWriter;

/* How the machine that ran mpatrol lays out its words: sizeof (size_t),
 * sizeof (unsigned long), sizeof (void *) and the byte order. */
typedef struct
{
  guint    size_t_size;
  guint    ulong_size;
  guint    pointer_size;
  gboolean big_endian;
  /* hostile files: added to the counts written */
  gint64   data_count_delta;
  gint64   site_count_delta;
  gint64   symbol_count_delta;
  gint64   strtab_size_delta;
} BlMpatrolLayout;

extern const BlMpatrolLayout bl_mpatrol_ilp32_le;
extern const BlMpatrolLayout bl_mpatrol_ilp32_be;
extern const BlMpatrolLayout bl_mpatrol_lp64_le;
extern const BlMpatrolLayout bl_mpatrol_lp64_be;
extern const BlMpatrolLayout bl_mpatrol_llp64_le;

BlMpatrolWriter *bl_mpatrol_writer_new        (void);
void             bl_mpatrol_writer_free       (BlMpatrolWriter *w);
void             bl_mpatrol_writer_set_version (BlMpatrolWriter *w,
                                               guint64          version);
void             bl_mpatrol_writer_set_bounds (BlMpatrolWriter *w,
                                               guint64          small,
                                               guint64          medium,
                                               guint64          large);
/* Records an allocation (free = FALSE) or a free of @size bytes in the bins,
 * as mpatrol's profiler does; @bin_size bins (0: no bins). */
void             bl_mpatrol_writer_set_bin_size (BlMpatrolWriter *w,
                                                 guint            bin_size);
void             bl_mpatrol_writer_bin        (BlMpatrolWriter *w,
                                               gboolean         is_free,
                                               guint64          size);
/* Returns the new profiling data's index (1-based). */
guint64          bl_mpatrol_writer_add_data   (BlMpatrolWriter *w);
/* Adds an allocation or free of @size to data @index, by size class. */
void             bl_mpatrol_writer_data_op    (BlMpatrolWriter *w,
                                               guint64          index,
                                               gboolean         is_free,
                                               guint64          size);
/* Returns the symbol's index (1-based); its name goes to the string table. */
guint64          bl_mpatrol_writer_add_symbol (BlMpatrolWriter *w,
                                               const char      *name,
                                               guint64          addr);
/* Returns the new call site's index (1-based). @symbol 0: none. */
guint64          bl_mpatrol_writer_add_site   (BlMpatrolWriter *w,
                                               guint64          parent,
                                               guint64          addr,
                                               guint64          symbol,
                                               guint64          data);
/* A call site with every field given (hostile files). */
void             bl_mpatrol_writer_add_site_raw (BlMpatrolWriter *w,
                                                 guint64          index,
                                                 guint64          parent,
                                                 guint64          addr,
                                                 guint64          symbol,
                                                 guint64          name_offset,
                                                 guint64          data);
GBytes          *bl_mpatrol_writer_serialize  (BlMpatrolWriter       *w,
                                               const BlMpatrolLayout *layout);

G_END_DECLS
