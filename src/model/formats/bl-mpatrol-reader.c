/* bl-mpatrol-reader.c — mpatrol profiling output (mpatrol.out)
 *
 * mpatrol writes its profile with one fwrite() per field from the process
 * being profiled, so the words have the sizes and byte order of that
 * machine: the leading "1" and the counts, bounds, bins and totals are
 * size_t; the library version and every index and string offset are
 * unsigned long; call-site and symbol addresses are void *. The format
 * description only says "unsigned integer" and "generic pointer", so the
 * reader tries the data models that mpatrol ran on — ILP32 (4, 4, 4),
 * LP64 (8, 8, 8) and 64-bit Windows, LLP64 (8, 4, 8) — in both byte
 * orders, keeps those whose leading size_t reads as 1, and takes the first
 * whose reading ends exactly on the closing "MPTL" at the end of the file.
 *
 * Other facts the description leaves implicit, as mpatrol's writer produces
 * them: profiling data, call sites and symbols are numbered from 1, and 0
 * means "none" in a reference; a call site's parent is its caller (the next
 * frame outwards), so the roots are the outermost functions; the symbol
 * name offset points into the string table, whose first byte is a NUL so
 * that offset 0 names nothing; bin i (from 0) counts allocations of i + 1
 * bytes, except the last, which counts every allocation of at least the bin
 * size and whose byte total is the "large allocation total" that follows
 * the bins.
 *
 * The model: one thread "mpatrol" whose tree is the call-site graph (each
 * call site named by its symbol, or by its address when it has none; call
 * sites in the same function under the same caller merge). Metrics, from
 * each call site's profiling data with the four size classes summed:
 * alloc-bytes, alloc-count, free-bytes, free-count, and live-bytes and
 * live-count (allocated − freed; mpatrol credits a free to the call site
 * that made the allocation). The bins become the allocation-size histogram.
 *
 * The profile is small next to the program it describes (one record per
 * call site), so the reader takes the whole file into memory: the word size
 * is only known once a reading has reached the end.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-mpatrol"

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <string.h>

#include "bl-mpatrol-reader.h"
#include "bl-u32-map-private.h"

G_DEFINE_QUARK (bl-mpatrol-error-quark, bl_mpatrol_error)

typedef struct
{
  guint    size_t_size;
  guint    ulong_size;
  guint    pointer_size;
  gboolean big_endian;
} Layout;

/* in order of preference when a file is truncated and no reading can be
 * confirmed by the closing signature */
static const Layout layouts[] = {
  { 8, 8, 8, FALSE },
  { 8, 4, 8, FALSE },
  { 4, 4, 4, FALSE },
  { 8, 8, 8, TRUE },
  { 8, 4, 8, TRUE },
  { 4, 4, 4, TRUE },
};

typedef enum
{
  READ_COMPLETE,
  READ_TRUNCATED,
  READ_BAD,
} ReadStatus;

typedef struct
{
  guint64 index;
  guint64 acount[4];
  guint64 atotal[4];
  guint64 dcount[4];
  guint64 dtotal[4];
  gsize   at;
} Data;

typedef struct
{
  guint64 index;
  guint64 parent;
  guint64 addr;
  guint64 symbol;
  guint64 offset;
  guint64 data;
  gsize   at;
} Site;

typedef struct
{
  const guint8 *bytes;
  gsize         len;      /* readable bytes (without a closing signature) */
  gsize         file_len;
  gboolean      has_trailer;
  gsize         pos;
  Layout        layout;

  ReadStatus    status;
  char         *reason;   /* READ_BAD: what was wrong */

  guint64       version;
  guint64       bounds[3];
  guint64       bin_size;
  gboolean      header_done;  /* read up to the profiling data */
  gboolean      has_bins;
  guint64      *abins;
  guint64      *dbins;
  guint64       atotals;
  guint64       dtotals;
  GArray       *data;
  GArray       *sites;
  GArray       *symbols;  /* guint64 */
  gboolean      has_strtab;
  const char   *strtab;
  gsize         strtab_len;

  /* the four tables' counts as read, for explaining a bad one */
  gsize         bins_at;      /* where the bins start (after their count) */
  gsize         tables_at;    /* where the profiling data's count is */
  guint         n_counts;
  guint64       counts[4];
  gsize         count_at[4];
  gboolean      explained;    /* the closing signature says which count is wrong */
} MpFile;

enum
{
  TABLE_BINS = -1,     /* the bins' count, in the header */
  TABLE_DATA,
  TABLE_SITES,
  TABLE_SYMBOLS,
  TABLE_STRINGS,
  N_TABLES,
};

static void
mp_file_clear (MpFile *f)
{
  g_clear_pointer (&f->reason, g_free);
  g_clear_pointer (&f->abins, g_free);
  g_clear_pointer (&f->dbins, g_free);
  g_clear_pointer (&f->data, g_array_unref);
  g_clear_pointer (&f->sites, g_array_unref);
  g_clear_pointer (&f->symbols, g_array_unref);
}

static inline guint64
get_word (const guint8 *p,
          guint         size,
          gboolean      big_endian)
{
  guint64 v = 0;

  if (big_endian)
    for (guint i = 0; i < size; i++)
      v = (v << 8) | p[i];
  else
    for (guint i = size; i-- > 0;)
      v = (v << 8) | p[i];

  return v;
}

static inline gboolean
read_word (MpFile  *f,
           guint    size,
           guint64 *value)
{
  if (f->len - f->pos < size)
    return FALSE;
  *value = get_word (f->bytes + f->pos, size, f->layout.big_endian);
  f->pos += size;

  return TRUE;
}

#define SIZE(v)  read_word (f, f->layout.size_t_size, (v))

/* Reads the count of the next table and remembers it. */
static gboolean
read_count (MpFile  *f,
            guint64 *n)
{
  gsize at = f->pos;

  if (!read_word (f, f->layout.size_t_size, n))
    return FALSE;
  g_assert (f->n_counts < N_TABLES);
  f->count_at[f->n_counts] = at;
  f->counts[f->n_counts++] = *n;

  return TRUE;
}
#define ULONG(v) read_word (f, f->layout.ulong_size, (v))
#define PTR(v)   read_word (f, f->layout.pointer_size, (v))

static void
mark_bad (MpFile     *f,
          const char *format,
          ...) G_GNUC_PRINTF (2, 3);

static void
mark_bad (MpFile     *f,
          const char *format,
          ...)
{
  va_list args;

  va_start (args, format);
  g_free (f->reason);
  f->reason = g_strdup_vprintf (format, args);
  va_end (args);
  f->status = READ_BAD;
}

/* A count of records of @record_size bytes: how many of them can be read.
 * When they do not all fit, the file is truncated — or, if it does end with
 * the closing signature, this reading of it is wrong. */
static gboolean
check_count (MpFile     *f,
             guint64     count,
             gsize       record_size,
             const char *what,
             guint64    *readable)
{
  guint64 fit = (f->len - f->pos) / record_size;

  if (count <= fit)
    {
      *readable = count;
      return TRUE;
    }

  if (f->has_trailer)
    {
      mark_bad (f, _("the count of %s at byte %" "zu" " is %" PRIu64
                     ", but only %" PRIu64 " fit in the file"),
                what, f->pos - f->layout.size_t_size, count, fit);
      return FALSE;
    }

  *readable = fit;
  f->status = READ_TRUNCATED;

  return TRUE;
}

static const char *
table_name (guint table)
{
  switch (table)
    {
    case TABLE_DATA:
      return _("profiling data");
    case TABLE_SITES:
      return _("call sites");
    case TABLE_SYMBOLS:
      return _("symbols");
    default:
      return _("string table bytes");
    }
}

static gsize
record_size (const MpFile *f,
             guint         table)
{
  switch (table)
    {
    case TABLE_DATA:
      return f->layout.ulong_size + 16 * f->layout.size_t_size;
    case TABLE_SITES:
      return 5 * f->layout.ulong_size + f->layout.pointer_size;
    case TABLE_SYMBOLS:
      return f->layout.pointer_size;
    default:
      return 1;
    }
}

/* Reads the tables back from the closing signature: table @table ends at
 * @end; its count must say how many records lie between it and @end. Down
 * to table @suspect, whose count is the one in doubt: it starts where the
 * forward reading found it, and holds whatever lies between that and the
 * tables after it, in whole records. @budget bounds the work on hostile
 * files. */
static gboolean
fit_backwards (const MpFile *f,
               int           table,
               gsize         end,
               int           suspect,
               guint64       counts[N_TABLES + 1],
               guint64      *budget)
{
  gsize size = f->layout.size_t_size;
  gsize rec = table >= 0 ? record_size (f, table) : 0;
  gsize low = suspect >= 0 ? f->count_at[suspect] : f->bins_at;

  /* the bins in doubt: between their count and the profiling data, none
   * or two words per bin plus two totals */
  if (table == TABLE_BINS)
    {
      gsize words = (end - f->bins_at) / size;

      if ((end - f->bins_at) % size != 0 || words == 2 || words % 2 != 0)
        return FALSE;
      counts[N_TABLES] = words == 0 ? 0 : words / 2 - 1;
      return TRUE;
    }

  if (table == suspect)
    {
      gsize at = f->count_at[suspect];

      if (end < at + size || (end - at - size) % rec != 0)
        return FALSE;
      counts[table] = (end - at - size) / rec;
      return TRUE;
    }

  for (guint64 k = 0;; k++)
    {
      gsize at;

      if (end < low + size || (end - low - size) / rec < k)
        return FALSE;
      at = end - size - k * rec;
      if ((*budget)-- == 0)
        return FALSE;
      if (get_word (f->bytes + at, size, f->layout.big_endian) != k)
        continue;

      counts[table] = k;
      if (fit_backwards (f, table - 1, at, suspect, counts, budget))
        return TRUE;
    }
}

/* When a reading that has the closing signature goes wrong, the count
 * that is off may be an earlier one than the field where the reading
 * failed (one symbol too many reads the string table's size as an
 * address). The first count such that the tables after it, read back from
 * the closing signature, fit exactly and leave it a whole number of
 * records other than its own is the one named. */
static void
explain_bad_count (MpFile *f)
{
  guint64 budget = 4 * 1024 * 1024;
  guint64 counts[N_TABLES + 1];

  if (!f->has_trailer || !f->header_done)
    return;

  /* first the number of bins: if it is off, every table is read from the
   * wrong place */
  if (fit_backwards (f, TABLE_STRINGS, f->len, TABLE_BINS, counts, &budget) &&
      counts[N_TABLES] != f->bin_size)
    {
      g_free (f->reason);
      f->reason = g_strdup_printf (_("the number of allocation bins at byte %" "zu" " is %"
                                     PRIu64 ", but the file holds %" PRIu64 " (reading back "
                                     "from the closing signature)"),
                                   f->bins_at - f->layout.size_t_size, f->bin_size,
                                   counts[N_TABLES]);
      f->explained = TRUE;
      return;
    }

  for (guint t = 0; t < f->n_counts; t++)
    {

      if (fit_backwards (f, TABLE_STRINGS, f->len, t, counts, &budget) &&
          counts[t] != f->counts[t])
        {
          g_free (f->reason);
          f->reason = g_strdup_printf (_("the count of %s at byte %" "zu" " is %" PRIu64
                                         ", but the file holds %" PRIu64 " (reading back "
                                         "from the closing signature)"),
                                       table_name (t), f->count_at[t], f->counts[t],
                                       counts[t]);
          f->explained = TRUE;
          return;
        }
    }
}

/* Reads the file with f->layout. Keeps every complete record; sets status. */
static void
mp_file_read_tables (MpFile *f)
{
  guint64 one, n, readable;
  gsize rec;

  f->status = READ_COMPLETE;
  f->pos = BL_MPATROL_MAGIC_LEN;
  f->data = g_array_new (FALSE, FALSE, sizeof (Data));
  f->sites = g_array_new (FALSE, FALSE, sizeof (Site));
  f->symbols = g_array_new (FALSE, FALSE, sizeof (guint64));

  if (!SIZE (&one) || !ULONG (&f->version) ||
      !SIZE (&f->bounds[0]) || !SIZE (&f->bounds[1]) || !SIZE (&f->bounds[2]) ||
      !SIZE (&f->bin_size))
    goto truncated;

  if (one != 1)
    {
      mark_bad (f, _("the word after the signature is not 1"));
      return;
    }
  if (f->version == 0)
    {
      mark_bad (f, _("the library version is 0"));
      return;
    }

  /* bins: two arrays of bin_size words, each followed by a total */
  f->bins_at = f->pos;
  if (f->bin_size > 0)
    {
      guint64 words;

      if (f->bin_size > G_MAXUINT64 / 2 - 2)
        words = G_MAXUINT64;
      else
        words = 2 * f->bin_size + 2;
      /* name the count as the file has it: bins, not words */
      if (f->has_trailer && words > (f->len - f->pos) / f->layout.size_t_size)
        {
          guint64 fit = (f->len - f->pos) / f->layout.size_t_size;

          mark_bad (f, _("the number of allocation bins at byte %" "zu" " is %" PRIu64
                         ", but only %" PRIu64 " fit in the file"),
                    f->pos - f->layout.size_t_size, f->bin_size, fit >= 2 ? (fit - 2) / 2 : 0);
          return;
        }
      if (!check_count (f, words, f->layout.size_t_size, _("allocation bins"), &readable))
        return;
      if (readable < words)
        goto truncated;

      f->abins = g_new (guint64, f->bin_size);
      f->dbins = g_new (guint64, f->bin_size);
      for (guint64 i = 0; i < f->bin_size; i++)
        SIZE (&f->abins[i]);
      SIZE (&f->atotals);
      for (guint64 i = 0; i < f->bin_size; i++)
        SIZE (&f->dbins[i]);
      SIZE (&f->dtotals);
      f->has_bins = TRUE;
    }

  /* profiling data */
  f->header_done = TRUE;
  f->tables_at = f->pos;
  if (!read_count (f, &n))
    goto truncated;
  rec = f->layout.ulong_size + 16 * f->layout.size_t_size;
  if (!check_count (f, n, rec, _("profiling data"), &readable))
    return;
  for (guint64 i = 0; i < readable; i++)
    {
      Data d;

      d.at = f->pos;
      ULONG (&d.index);
      for (guint k = 0; k < 4; k++)
        SIZE (&d.acount[k]);
      for (guint k = 0; k < 4; k++)
        SIZE (&d.atotal[k]);
      for (guint k = 0; k < 4; k++)
        SIZE (&d.dcount[k]);
      for (guint k = 0; k < 4; k++)
        SIZE (&d.dtotal[k]);
      g_array_append_val (f->data, d);
    }
  if (readable < n)
    goto truncated;

  /* call sites */
  if (!read_count (f, &n))
    goto truncated;
  rec = 5 * f->layout.ulong_size + f->layout.pointer_size;
  if (!check_count (f, n, rec, _("call sites"), &readable))
    return;
  for (guint64 i = 0; i < readable; i++)
    {
      Site s;

      s.at = f->pos;
      ULONG (&s.index);
      ULONG (&s.parent);
      PTR (&s.addr);
      ULONG (&s.symbol);
      ULONG (&s.offset);
      ULONG (&s.data);
      g_array_append_val (f->sites, s);
    }
  if (readable < n)
    goto truncated;

  /* symbol addresses */
  if (!read_count (f, &n))
    goto truncated;
  if (!check_count (f, n, f->layout.pointer_size, _("symbols"), &readable))
    return;
  for (guint64 i = 0; i < readable; i++)
    {
      guint64 addr;

      PTR (&addr);
      g_array_append_val (f->symbols, addr);
    }
  if (readable < n)
    goto truncated;

  /* string table */
  if (!read_count (f, &n))
    goto truncated;
  if (!check_count (f, n, 1, _("string table bytes"), &readable))
    return;
  if (readable < n)
    goto truncated;
  f->strtab = (const char *) f->bytes + f->pos;
  f->strtab_len = n;
  f->has_strtab = TRUE;
  f->pos += n;

  if (!f->has_trailer)
    goto truncated;
  if (f->pos != f->len)
    {
      mark_bad (f, _("the data ends at byte %" "zu" ", but the closing signature "
                     "is at byte %" "zu"),
                f->pos, f->len);
      return;
    }

  return;

truncated:
  if (f->has_trailer)
    mark_bad (f, _("the data runs into the closing signature at byte %" "zu"),
              f->len);
  else
    f->status = READ_TRUNCATED;
}

static void
mp_file_read (MpFile *f)
{
  mp_file_read_tables (f);
  if (f->status == READ_BAD)
    explain_bad_count (f);
}

/* ---- building the profile ----------------------------------------------- */

static gboolean
set_error (GError        **error,
           BlMpatrolError  code,
           const char     *format,
           ...) G_GNUC_PRINTF (3, 4);

static gboolean
set_error (GError        **error,
           BlMpatrolError  code,
           const char     *format,
           ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error_literal (error, BL_MPATROL_ERROR, code, message);

  return FALSE;
}

static inline guint64
sat_add (guint64 a,
         guint64 b)
{
  return a > G_MAXUINT64 - b ? G_MAXUINT64 : a + b;
}

static inline guint64
sat_mul (guint64 a,
         guint64 b)
{
  return b != 0 && a > G_MAXUINT64 / b ? G_MAXUINT64 : a * b;
}

static void
add_histogram (MpFile    *f,
               BlProfile *profile)
{
  g_autofree BlHistogramBucket *buckets = NULL;
  guint64 n = f->bin_size;

  if (!f->has_bins || n == 0)
    return;

  /* bin_size words were read from the file, so n is bounded by its size */
  buckets = g_new0 (BlHistogramBucket, n);
  for (guint64 i = 0; i < n; i++)
    {
      BlHistogramBucket *b = &buckets[i];

      b->alloc_count = f->abins[i];
      b->free_count = f->dbins[i];
      if (i + 1 < n)
        {
          b->lower = b->upper = i + 1;
          b->alloc_bytes = sat_mul (f->abins[i], i + 1);
          b->free_bytes = sat_mul (f->dbins[i], i + 1);
        }
      else
        {
          b->lower = n;
          b->upper = G_MAXUINT64;
          b->alloc_bytes = f->atotals;
          b->free_bytes = f->dtotals;
        }
    }

  bl_profile_set_histogram (profile, buckets, (guint) MIN (n, G_MAXUINT));
}

static guint32
site_name (MpFile    *f,
           BlProfile *profile,
           const Site *s)
{
  g_autofree char *hex = NULL;

  /* as mprof does: a name whenever the offset is not 0, else the address */
  if (f->has_strtab && s->offset != 0 && s->offset < f->strtab_len)
    {
      const char *name = f->strtab + s->offset;
      const char *nul = memchr (name, 0, f->strtab_len - s->offset);

      if (nul != NULL && nul > name)
        {
          if (g_utf8_validate (name, nul - name, NULL))
            return bl_profile_intern_len (profile, name, nul - name);
          else
            {
              g_autofree char *valid = g_utf8_make_valid (name, nul - name);

              return bl_profile_intern (profile, valid);
            }
        }
    }

  hex = g_strdup_printf ("0x%0*" G_GINT64_MODIFIER "X", (int) f->layout.pointer_size * 2,
                         s->addr);

  return bl_profile_intern (profile, hex);
}

static void
add_data (BlProfile  *profile,
          guint32     node,
          const Data *d)
{
  guint64 acount = 0, atotal = 0, dcount = 0, dtotal = 0;

  for (guint k = 0; k < 4; k++)
    {
      acount = sat_add (acount, d->acount[k]);
      atotal = sat_add (atotal, d->atotal[k]);
      dcount = sat_add (dcount, d->dcount[k]);
      dtotal = sat_add (dtotal, d->dtotal[k]);
    }

  bl_profile_add_value (profile, node, BL_METRIC_ALLOC_COUNT, acount);
  bl_profile_add_value (profile, node, BL_METRIC_ALLOC_BYTES, atotal);
  bl_profile_add_value (profile, node, BL_METRIC_FREE_COUNT, dcount);
  bl_profile_add_value (profile, node, BL_METRIC_FREE_BYTES, dtotal);
  bl_profile_add_value (profile, node, BL_METRIC_LIVE_COUNT, acount > dcount ? acount - dcount : 0);
  bl_profile_add_value (profile, node, BL_METRIC_LIVE_BYTES, atotal > dtotal ? atotal - dtotal : 0);
}

static BlProfile *
build (MpFile  *f,
       GError **error)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("mpatrol");
  BlProfileInfo *info = bl_profile_get_info_mutable (profile);
  g_autofree guint32 *site_node = NULL;
  g_autofree guint32 *parent_pos = NULL;
  g_autofree guint8 *state = NULL;
  g_autofree guint8 *data_used = NULL;
  g_autoptr(GArray) chain = NULL;
  BlU32Map data_map, site_map;
  gboolean truncated = f->status == READ_TRUNCATED;
  guint32 root;
  guint n_sites = f->sites->len;
  guint64 dropped_refs = 0;
  gboolean ok = FALSE;

  bl_u32_map_init (&data_map);
  bl_u32_map_init (&site_map);

  info->major = (guint32) MIN (f->version / 10000, G_MAXUINT32);
  info->minor = (guint32) ((f->version / 100) % 100);
  info->patch = (guint32) (f->version % 100);
  info->version = g_strdup_printf ("%u.%u.%u", info->major, info->minor, info->patch);
  info->has_memory = TRUE;

  bl_profile_enable_metric (profile, BL_METRIC_ALLOC_BYTES);
  bl_profile_enable_metric (profile, BL_METRIC_ALLOC_COUNT);
  bl_profile_enable_metric (profile, BL_METRIC_FREE_BYTES);
  bl_profile_enable_metric (profile, BL_METRIC_FREE_COUNT);
  bl_profile_enable_metric (profile, BL_METRIC_LIVE_BYTES);
  bl_profile_enable_metric (profile, BL_METRIC_LIVE_COUNT);

  root = bl_profile_add_thread (profile, bl_profile_intern (profile, "mpatrol"));

  for (guint i = 0; i < f->data->len; i++)
    {
      const Data *d = &g_array_index (f->data, Data, i);
      guint32 dummy;

      if (d->index == 0 || d->index > G_MAXUINT32 ||
          bl_u32_map_lookup (&data_map, (guint32) d->index, &dummy))
        {
          set_error (error, BL_MPATROL_ERROR_BAD_INDEX,
                     _("Corrupt mpatrol profile: the profiling data at byte %" "zu"
                       " has the invalid or repeated index %" PRIu64 "."),
                     d->at, d->index);
          goto out;
        }
      bl_u32_map_insert (&data_map, (guint32) d->index, i);
    }

  for (guint i = 0; i < n_sites; i++)
    {
      const Site *s = &g_array_index (f->sites, Site, i);
      guint32 dummy;

      if (s->index == 0 || s->index > G_MAXUINT32 ||
          bl_u32_map_lookup (&site_map, (guint32) s->index, &dummy))
        {
          set_error (error, BL_MPATROL_ERROR_BAD_INDEX,
                     _("Corrupt mpatrol profile: the call site at byte %" "zu"
                       " has the invalid or repeated index %" PRIu64 "."),
                     s->at, s->index);
          goto out;
        }
      bl_u32_map_insert (&site_map, (guint32) s->index, i);
    }

  /* resolve references */
  parent_pos = g_new (guint32, MAX (n_sites, 1));
  for (guint i = 0; i < n_sites; i++)
    {
      const Site *s = &g_array_index (f->sites, Site, i);

      parent_pos[i] = G_MAXUINT32;
      if (s->parent != 0 &&
          (s->parent > G_MAXUINT32 ||
           !bl_u32_map_lookup (&site_map, (guint32) s->parent, &parent_pos[i])))
        {
          if (truncated)
            {
              /* its parent was after the end of the data */
              parent_pos[i] = G_MAXUINT32;
              dropped_refs++;
              continue;
            }
          set_error (error, BL_MPATROL_ERROR_BAD_INDEX,
                     _("Corrupt mpatrol profile: the call site at byte %" "zu"
                       " has the parent %" PRIu64 ", which is not a call site."),
                     s->at, s->parent);
          goto out;
        }
      if (!truncated && s->symbol > f->symbols->len)
        {
          set_error (error, BL_MPATROL_ERROR_BAD_INDEX,
                     _("Corrupt mpatrol profile: the call site at byte %" "zu"
                       " refers to symbol %" PRIu64 ", but there are only %u."),
                     s->at, s->symbol, f->symbols->len);
          goto out;
        }
      if (f->has_strtab && s->offset != 0 && s->offset >= f->strtab_len)
        {
          set_error (error, BL_MPATROL_ERROR_BAD_STRING,
                     _("Corrupt mpatrol profile: the call site at byte %" "zu"
                       " names its symbol at offset %" PRIu64 " of a %"
                       "zu" "-byte string table."),
                     s->at, s->offset, f->strtab_len);
          goto out;
        }
    }

  if (f->has_strtab && f->strtab_len > 0 && f->strtab[f->strtab_len - 1] != '\0')
    {
      set_error (error, BL_MPATROL_ERROR_BAD_STRING,
                 _("Corrupt mpatrol profile: the string table does not end with a NUL byte."));
      goto out;
    }

  /* the call graph: walk each site's parent links up to a root or to a
   * site already placed, then place the chain from the outside in */
  site_node = g_new (guint32, MAX (n_sites, 1));
  state = g_new0 (guint8, MAX (n_sites, 1));
  chain = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < n_sites; i++)
    {
      guint32 base = root;
      guint32 j = i;

      if (state[i] == 2)
        continue;

      g_array_set_size (chain, 0);
      for (;;)
        {
          if (state[j] == 2)
            {
              base = site_node[j];
              break;
            }
          if (state[j] == 1)
            {
              const Site *s = &g_array_index (f->sites, Site, j);

              set_error (error, BL_MPATROL_ERROR_CYCLE,
                         _("Corrupt mpatrol profile: the call site at byte %" "zu"
                           " is its own caller through its parent links."),
                         s->at);
              goto out;
            }
          state[j] = 1;
          g_array_append_val (chain, j);
          if (parent_pos[j] == G_MAXUINT32)
            break;
          j = parent_pos[j];
        }

      for (guint k = chain->len; k-- > 0;)
        {
          guint32 c = g_array_index (chain, guint32, k);
          const Site *s = &g_array_index (f->sites, Site, c);

          base = bl_profile_add_child (profile, base, site_name (f, profile, s), 0, 0);
          site_node[c] = base;
          state[c] = 2;
        }
    }

  /* the statistics, at the call site that owns them */
  data_used = g_new0 (guint8, MAX (f->data->len, 1));
  for (guint i = 0; i < n_sites; i++)
    {
      const Site *s = &g_array_index (f->sites, Site, i);
      guint32 pos;

      if (s->data == 0)
        continue;
      if (s->data > G_MAXUINT32 || !bl_u32_map_lookup (&data_map, (guint32) s->data, &pos))
        {
          set_error (error, BL_MPATROL_ERROR_BAD_INDEX,
                     _("Corrupt mpatrol profile: the call site at byte %" "zu"
                       " refers to profiling data %" PRIu64 ", which does not exist."),
                     s->at, s->data);
          goto out;
        }
      if (data_used[pos])
        {
          dropped_refs++;
          continue;
        }
      data_used[pos] = 1;
      add_data (profile, site_node[i], &g_array_index (f->data, Data, pos));
    }
  for (guint i = 0; i < f->data->len; i++)
    if (!data_used[i])
      add_data (profile, root, &g_array_index (f->data, Data, i));

  add_histogram (f, profile);

  if (truncated)
    {
      g_autofree char *reason =
        g_strdup_printf (_("The mpatrol profile is incomplete: the file ends at byte %"
                           "zu" " without the closing signature; the %u profiling "
                           "data and %u call sites before it are shown."),
                         f->file_len, f->data->len, n_sites);

      bl_profile_set_incomplete (profile, reason);
    }
  if (dropped_refs > 0 && !truncated)
    {
      g_autofree char *warning =
        g_strdup_printf (_("%" PRIu64 " repeated references to profiling data "
                           "were ignored."), dropped_refs);

      bl_profile_add_warning (profile, warning);
    }

  bl_profile_finish (profile);
  ok = TRUE;

out:
  bl_u32_map_clear (&data_map);
  bl_u32_map_clear (&site_map);

  return ok ? g_steal_pointer (&profile) : NULL;
}

static gboolean
plausible (const MpFile *f)
{
  return f->version < 1000000 &&
         f->bounds[0] <= f->bounds[1] && f->bounds[1] <= f->bounds[2];
}

/**
 * bl_mpatrol_detect:
 *
 * Returns: whether @head starts with mpatrol's signature followed by the
 *   word 1 in some byte order and word size
 */
gboolean
bl_mpatrol_detect (const guint8 *head,
                   gsize         len)
{
  if (len < BL_MPATROL_MAGIC_LEN + 4 || memcmp (head, BL_MPATROL_MAGIC, 4) != 0)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
    {
      guint size = layouts[i].size_t_size;

      if (len >= 4 + size && get_word (head + 4, size, layouts[i].big_endian) == 1)
        return TRUE;
    }

  return FALSE;
}

/**
 * bl_mpatrol_read_memory:
 *
 * Returns: (transfer full): the profile, or %NULL with @error set
 */
BlProfile *
bl_mpatrol_read_memory (const guint8  *data,
                        gsize          len,
                        GError       **error)
{
  MpFile files[G_N_ELEMENTS (layouts)];
  MpFile *chosen = NULL;
  MpFile *furthest = NULL;
  gboolean has_trailer;
  guint n_tried = 0;
  BlProfile *profile = NULL;

  if (len == 0)
    {
      g_set_error_literal (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_EMPTY,
                           _("The file is empty."));
      return NULL;
    }
  if (len < BL_MPATROL_MAGIC_LEN || memcmp (data, BL_MPATROL_MAGIC, BL_MPATROL_MAGIC_LEN) != 0)
    {
      set_error (error, BL_MPATROL_ERROR_BAD_MAGIC,
                 _("Not an mpatrol profile: the file does not start with “MPTL”."));
      return NULL;
    }

  has_trailer = len >= 2 * BL_MPATROL_MAGIC_LEN &&
                memcmp (data + len - BL_MPATROL_MAGIC_LEN, BL_MPATROL_MAGIC,
                        BL_MPATROL_MAGIC_LEN) == 0;

  memset (files, 0, sizeof files);
  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
    {
      MpFile *f = &files[i];
      guint size = layouts[i].size_t_size;

      f->layout = layouts[i];
      f->bytes = data;
      f->file_len = len;
      f->has_trailer = has_trailer;
      f->len = has_trailer ? len - BL_MPATROL_MAGIC_LEN : len;

      if (len < 4 + size || get_word (data + 4, size, layouts[i].big_endian) != 1)
        {
          f->status = READ_BAD;
          continue;
        }

      n_tried++;
      mp_file_read (f);

      if (f->status == READ_COMPLETE)
        {
          chosen = f;
          break;
        }
      /* a reading the closing signature explains beats any other */
      if (f->status == READ_BAD && f->reason != NULL &&
          (furthest == NULL || (f->explained && !furthest->explained) ||
           (f->explained == furthest->explained && f->pos > furthest->pos)))
        furthest = f;
    }

  /* A truncated file has no closing signature to confirm a reading: take
   * the first plausible one (a version number of mpatrol's size, bounds in
   * order), else the first at all. */
  if (chosen == NULL)
    for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
      if (files[i].status == READ_TRUNCATED && files[i].header_done && plausible (&files[i]))
        {
          chosen = &files[i];
          break;
        }
  if (chosen == NULL)
    for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
      if (files[i].status == READ_TRUNCATED && files[i].header_done)
        {
          chosen = &files[i];
          break;
        }

  if (chosen != NULL)
    profile = build (chosen, error);
  else if (n_tried == 0 && len >= 4 + 8)
    set_error (error, BL_MPATROL_ERROR_BAD_BYTE_ORDER,
               _("Corrupt mpatrol profile: the word after the signature is not 1 in either "
                 "byte order, so the byte order is unknown."));
  else if (furthest != NULL)
    set_error (error, BL_MPATROL_ERROR_LAYOUT,
               _("Corrupt mpatrol profile: read with %u-byte words (%s), %s; no word size "
                 "reads it to its closing signature."),
               furthest->layout.size_t_size,
               furthest->layout.big_endian ? _("big-endian") : _("little-endian"),
               furthest->reason);
  else
    set_error (error, BL_MPATROL_ERROR_LAYOUT,
               _("Truncated mpatrol profile: the file ends at byte %" "zu"
                 ", inside the header."), len);

  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
    mp_file_clear (&files[i]);

  return profile;
}

/**
 * bl_mpatrol_read_stream:
 * @total: the size of the input, for progress, or 0
 *
 * Returns: (transfer full): the profile, or %NULL with @error set
 */
BlProfile *
bl_mpatrol_read_stream (GInputStream   *stream,
                        guint64         total,
                        BlProgressFunc  progress,
                        gpointer        progress_data,
                        GCancellable   *cancellable,
                        GError        **error)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  guint64 next_progress = 0;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);

  for (;;)
    {
      gsize old = bytes->len;
      gssize n;

      g_byte_array_set_size (bytes, old + 256 * 1024);
      n = g_input_stream_read (stream, bytes->data + old, 256 * 1024, cancellable, error);
      if (n < 0)
        return NULL;
      g_byte_array_set_size (bytes, old + n);
      if (n == 0)
        break;
      if (progress != NULL && bytes->len >= next_progress)
        {
          progress (bytes->len, total, progress_data);
          next_progress = bytes->len + 1024 * 1024;
        }
    }

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  return bl_mpatrol_read_memory (bytes->data, bytes->len, error);
}
