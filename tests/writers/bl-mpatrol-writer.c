/* bl-mpatrol-writer.c — writes what mpatrol's profiler writes, for tests
 *
 * The layout follows the format description: the word "1" after the
 * signature, then size_t, unsigned long and pointer-sized words in the byte
 * order of the machine, as mpatrol's fwrite() calls produce them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-mpatrol-writer.h"

const BlMpatrolLayout bl_mpatrol_ilp32_le = { 4, 4, 4, FALSE, 0, 0, 0, 0 };
const BlMpatrolLayout bl_mpatrol_ilp32_be = { 4, 4, 4, TRUE, 0, 0, 0, 0 };
const BlMpatrolLayout bl_mpatrol_lp64_le = { 8, 8, 8, FALSE, 0, 0, 0, 0 };
const BlMpatrolLayout bl_mpatrol_lp64_be = { 8, 8, 8, TRUE, 0, 0, 0, 0 };
const BlMpatrolLayout bl_mpatrol_llp64_le = { 8, 4, 8, FALSE, 0, 0, 0, 0 };

typedef struct
{
  guint64 index;
  guint64 acount[4];
  guint64 atotal[4];
  guint64 dcount[4];
  guint64 dtotal[4];
} Data;

typedef struct
{
  guint64 index;
  guint64 parent;
  guint64 addr;
  guint64 symbol;
  guint64 offset;
  guint64 data;
} Site;

typedef struct
{
  guint64 addr;
  guint64 offset;
} Symbol;

struct _BlMpatrolWriter
{
  guint64  version;
  guint64  bounds[3];
  guint    bin_size;
  guint64 *abins;
  guint64 *dbins;
  guint64  atotals;
  guint64  dtotals;
  GArray  *data;
  GArray  *sites;
  GArray  *symbols;
  GString *strtab;
};

BlMpatrolWriter *
bl_mpatrol_writer_new (void)
{
  BlMpatrolWriter *w = g_new0 (BlMpatrolWriter, 1);

  w->version = 10501;
  w->bounds[0] = 32;
  w->bounds[1] = 256;
  w->bounds[2] = 2048;
  w->data = g_array_new (FALSE, TRUE, sizeof (Data));
  w->sites = g_array_new (FALSE, TRUE, sizeof (Site));
  w->symbols = g_array_new (FALSE, TRUE, sizeof (Symbol));
  w->strtab = g_string_new (NULL);
  g_string_append_c (w->strtab, '\0');
  bl_mpatrol_writer_set_bin_size (w, 1024);

  return w;
}

void
bl_mpatrol_writer_free (BlMpatrolWriter *w)
{
  g_free (w->abins);
  g_free (w->dbins);
  g_array_unref (w->data);
  g_array_unref (w->sites);
  g_array_unref (w->symbols);
  g_string_free (w->strtab, TRUE);
  g_free (w);
}

void
bl_mpatrol_writer_set_version (BlMpatrolWriter *w,
                               guint64          version)
{
  w->version = version;
}

void
bl_mpatrol_writer_set_bounds (BlMpatrolWriter *w,
                              guint64          small,
                              guint64          medium,
                              guint64          large)
{
  w->bounds[0] = small;
  w->bounds[1] = medium;
  w->bounds[2] = large;
}

void
bl_mpatrol_writer_set_bin_size (BlMpatrolWriter *w,
                                guint            bin_size)
{
  g_free (w->abins);
  g_free (w->dbins);
  w->bin_size = bin_size;
  w->abins = g_new0 (guint64, MAX (bin_size, 1));
  w->dbins = g_new0 (guint64, MAX (bin_size, 1));
  w->atotals = w->dtotals = 0;
}

void
bl_mpatrol_writer_bin (BlMpatrolWriter *w,
                       gboolean         is_free,
                       guint64          size)
{
  guint64 *bins = is_free ? w->dbins : w->abins;
  guint64 *totals = is_free ? &w->dtotals : &w->atotals;

  g_assert (size > 0);
  if (w->bin_size == 0)
    return;
  if (size < w->bin_size)
    bins[size - 1]++;
  else
    {
      bins[w->bin_size - 1]++;
      *totals += size;
    }
}

guint64
bl_mpatrol_writer_add_data (BlMpatrolWriter *w)
{
  Data d = { 0, };

  d.index = w->data->len + 1;
  g_array_append_val (w->data, d);

  return d.index;
}

void
bl_mpatrol_writer_data_op (BlMpatrolWriter *w,
                           guint64          index,
                           gboolean         is_free,
                           guint64          size)
{
  Data *d;
  guint c;

  g_assert (index >= 1 && index <= w->data->len);
  d = &g_array_index (w->data, Data, index - 1);
  c = size <= w->bounds[0] ? 0 : size <= w->bounds[1] ? 1 : size <= w->bounds[2] ? 2 : 3;
  if (is_free)
    {
      d->dcount[c]++;
      d->dtotal[c] += size;
    }
  else
    {
      d->acount[c]++;
      d->atotal[c] += size;
    }
}

guint64
bl_mpatrol_writer_add_symbol (BlMpatrolWriter *w,
                              const char      *name,
                              guint64          addr)
{
  Symbol s;

  s.addr = addr;
  s.offset = w->strtab->len;
  g_string_append (w->strtab, name);
  g_string_append_c (w->strtab, '\0');
  g_array_append_val (w->symbols, s);

  return w->symbols->len;
}

guint64
bl_mpatrol_writer_add_site (BlMpatrolWriter *w,
                            guint64          parent,
                            guint64          addr,
                            guint64          symbol,
                            guint64          data)
{
  guint64 offset = 0;
  guint64 index = w->sites->len + 1;

  if (symbol != 0)
    {
      g_assert (symbol <= w->symbols->len);
      offset = g_array_index (w->symbols, Symbol, symbol - 1).offset;
    }
  bl_mpatrol_writer_add_site_raw (w, index, parent, addr, symbol, offset, data);

  return index;
}

void
bl_mpatrol_writer_add_site_raw (BlMpatrolWriter *w,
                                guint64          index,
                                guint64          parent,
                                guint64          addr,
                                guint64          symbol,
                                guint64          name_offset,
                                guint64          data)
{
  Site s = { index, parent, addr, symbol, name_offset, data };

  g_array_append_val (w->sites, s);
}

static void
put_word (GByteArray            *out,
          const BlMpatrolLayout *layout,
          guint                  size,
          guint64                value)
{
  guint8 bytes[8];

  for (guint i = 0; i < size; i++)
    {
      guint shift = layout->big_endian ? 8 * (size - 1 - i) : 8 * i;

      bytes[i] = (guint8) (value >> shift);
    }
  g_byte_array_append (out, bytes, size);
}

#define SIZE(v)  put_word (out, layout, layout->size_t_size, (v))
#define ULONG(v) put_word (out, layout, layout->ulong_size, (v))
#define PTR(v)   put_word (out, layout, layout->pointer_size, (v))

GBytes *
bl_mpatrol_writer_serialize (BlMpatrolWriter       *w,
                             const BlMpatrolLayout *layout)
{
  GByteArray *out = g_byte_array_new ();

  g_byte_array_append (out, (const guint8 *) "MPTL", 4);
  SIZE (1);
  ULONG (w->version);
  SIZE (w->bounds[0]);
  SIZE (w->bounds[1]);
  SIZE (w->bounds[2]);
  SIZE (w->bin_size);
  if (w->bin_size > 0)
    {
      for (guint i = 0; i < w->bin_size; i++)
        SIZE (w->abins[i]);
      SIZE (w->atotals);
      for (guint i = 0; i < w->bin_size; i++)
        SIZE (w->dbins[i]);
      SIZE (w->dtotals);
    }

  SIZE (w->data->len + layout->data_count_delta);
  for (guint i = 0; i < w->data->len; i++)
    {
      const Data *d = &g_array_index (w->data, Data, i);

      ULONG (d->index);
      for (guint k = 0; k < 4; k++)
        SIZE (d->acount[k]);
      for (guint k = 0; k < 4; k++)
        SIZE (d->atotal[k]);
      for (guint k = 0; k < 4; k++)
        SIZE (d->dcount[k]);
      for (guint k = 0; k < 4; k++)
        SIZE (d->dtotal[k]);
    }

  SIZE (w->sites->len + layout->site_count_delta);
  for (guint i = 0; i < w->sites->len; i++)
    {
      const Site *s = &g_array_index (w->sites, Site, i);

      ULONG (s->index);
      ULONG (s->parent);
      PTR (s->addr);
      ULONG (s->symbol);
      ULONG (s->offset);
      ULONG (s->data);
    }

  SIZE (w->symbols->len + layout->symbol_count_delta);
  for (guint i = 0; i < w->symbols->len; i++)
    PTR (g_array_index (w->symbols, Symbol, i).addr);

  SIZE (w->strtab->len + layout->strtab_size_delta);
  g_byte_array_append (out, (const guint8 *) w->strtab->str, w->strtab->len);
  g_byte_array_append (out, (const guint8 *) "MPTL", 4);

  return g_byte_array_free_to_bytes (out);
}
