/* bl-bsprof-reader.c — BrightScript profiler (.bsprof) decoder
 *
 * The file is a header, a stream of entries (each a varint tag whose low
 * three bits give its type) ended by a zero tag, and a footer. Entries may
 * only refer to entries before them, so the decoder resolves every reference
 * at once and credits metrics straight into the call tree.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-bsprof"

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "bl-big-array-private.h"
#include "bl-bsprof-private.h"
#include "bl-bsprof-reader.h"
#include "bl-profile-private.h"
#include "bl-source-private.h"
#include "bl-u32-map-private.h"

G_DEFINE_QUARK (bl-bsprof-error-quark, bl_bsprof_error)

enum
{
  TAG_STRING = 0,
  TAG_MODULE = 1,
  TAG_PATH = 2,
  TAG_MEMORY = 3,
  TAG_CPU = 4,
  TAG_CALLS = 5,
};

enum
{
  MEM_ALLOC = 0,
  MEM_FREE = 1,
  MEM_FREE_REALLOC = 2,
};

typedef enum
{
  PARSE_OK,
  PARSE_MORE,     /* ran past the bytes available */
  PARSE_END,      /* end-of-entries marker */
  PARSE_ERROR,
} ParseResult;


/* Metrics are summed into accumulators kept by the decoder and handed to
 * the profile at the end. They are laid out for the cache: a CPU or call
 * entry touches its path element's 16-byte record and at most one 16-byte
 * per-line record; an allocation reads the path element's record for its
 * line, and adds to 16-byte records of its own per path element and line,
 * next to the tables of live blocks; a free touches those tables and the
 * records of the path element and line that allocated the block.
 *
 * Frees are credited to the path (and line) that allocated, found in the
 * freed block, by whoever owns the tables; what is still live there is what
 * it allocated less what was freed. Only once an allocation sum saturates
 * does that no longer hold: what is live is then added up from the tables
 * at the end (and the blocks whose address was allocated again without a
 * free), and freed is what is left. */

static const BlMetricId mem_metrics[] = {
  BL_METRIC_ALLOC_BYTES, BL_METRIC_ALLOC_COUNT,
  BL_METRIC_FREE_BYTES, BL_METRIC_FREE_COUNT,
  BL_METRIC_LIVE_BYTES, BL_METRIC_LIVE_COUNT,
};

/* Line records are found through rows: every distinct function definition
 * (file and definition line) that path elements share gets a row of
 * LINE_ROW line records + 1, indexed by the line offset, filled as offsets
 * are first seen. A lookup is one load from a small table that stays in the
 * cache; offsets beyond the row, and definitions past the row budget, go
 * to the hash table of lines. */
#define LINE_ROW      64
#ifndef BL_FUZZING
#define LINE_ROWS_MAX ((16 << 20) / (LINE_ROW * sizeof (guint32)))
#else
#define LINE_ROWS_MAX 4
#endif

/* What CPU and call entries add to, and what every entry but a free reads,
 * in 16 bytes: a million path elements stay in the cache. The sums are
 * kept in 32 bits; an addition that would carry out of them (or a value
 * that does not fit) moves the sum to the element's PathBig, made on the
 * first such carry, and starts again from 0: the sum is PathBig's plus
 * this one. What allocations add up to is kept apart, by whoever owns the
 * tables of live blocks (the worker thread, when there is one), and the
 * profile's node too (dec->pe_node). */
enum
{
  SUM_CPU,
  SUM_WALL,
  SUM_CALLS,
  N_SUMS
};

typedef struct
{
  guint32 sum[N_SUMS];
  guint32 line_row;    /* row + 1; 0: none */
} PathElement;

G_STATIC_ASSERT (sizeof (PathElement) == 16);

typedef struct
{
  guint64 sum[N_SUMS];
} PathBig;

/* What only definitions, line-cache misses and the end need, kept apart. */
typedef struct
{
  guint32 caller_id;   /* 0 for a root */
  guint32 file;        /* interned */
  guint32 line;        /* where the function is defined */
  guint32 function;    /* interned */
  guint32 up;          /* the caller's record; for a root, its PendingThread */
} PathInfo;

/* The profile's nodes are made at the end, once the table of live blocks
 * is gone (on a million path elements the nodes and their index take some
 * 64 MB, which would otherwise come on top of the table), in the order the
 * definitions came: a module's thread root before the path elements
 * defined after it. */
typedef struct
{
  guint32 before_pe;   /* the number of path elements defined before it */
  guint32 name;        /* interned */
  guint32 node;        /* the root, once made */
} PendingThread;

typedef struct
{
  guint64 cpu;
  guint64 wall;
} LineAcc;

G_STATIC_ASSERT (sizeof (LineAcc) == 16);

/* bytes and blocks: allocated, or still live at the end */
typedef struct
{
  guint64 bytes;
  guint64 count;
} LiveAcc;

typedef struct
{
  guint64 addr;
  guint64 size;
  guint32 pe_plus1;    /* allocating path element + 1; 0: empty slot */
  guint32 line_plus1;  /* 0: no line */
} LiveAlloc;

typedef struct
{
  LiveAlloc *slots;
  gsize      mask;
  gsize      used;
} AddrMap;

/* Live blocks: see "the tables of live allocations" below. */
#define BUCKET_SLOTS 4
#ifndef BL_FUZZING
#define LIVE_BUCKETS_MIN 1024
#define MAX_KICKS        64
#else
/* small enough for a fuzzer's inputs to grow the table and to give up moving */
#define LIVE_BUCKETS_MIN 2
#define MAX_KICKS        4
#endif

typedef struct
{
  guint32 addr[BUCKET_SLOTS];
  guint32 size[BUCKET_SLOTS];
  guint32 pe_plus1[BUCKET_SLOTS];    /* allocating path element + 1; 0: empty */
  guint32 line_plus1[BUCKET_SLOTS];  /* 0: no line */
} LiveBucket;

G_STATIC_ASSERT (sizeof (LiveBucket) == 64);

typedef struct
{
  LiveBucket *buckets;
  gsize       n_buckets;
  gsize       used;
  guint       kick;        /* which slot the next move takes */
} LiveTable;

typedef struct
{
  guint64 key;         /* file << 32 | line */
  guint32 index_plus1; /* line record + 1; 0: empty */
  guint32 pad;
} LineSlot;

typedef struct _Worker Worker;

typedef struct
{
  BlProfile  *profile;
  BlSource   *src;
  gboolean    lines;
  gboolean    memory;
  BlU32Map    strings;     /* file string id → interned id */
  BlU32Map    modules;     /* module id → index into threads */
  BlU32Map    elements;    /* sparse path element ids → index into pe */
  guint32     n_in_order;  /* ids 1 … n_in_order are at index id − 1 */
  guint32    *dense;       /* small path element ids → index into pe + 1 */
  gsize       dense_cap;
  PathElement *pe;
  gsize       n_pe;
  gsize       pe_cap;
  PathBig    *pe_big;      /* indexed like pe, once a sum carried out of 32 bits */
  gsize       pe_big_cap;
  guint32    *pe_node;     /* indexed like pe: the profile's node, once made */
  gsize       pe_node_cap;
  GArray     *pe_info;     /* PathInfo, indexed like pe */
  GArray     *threads;     /* PendingThread, in the order of the modules */
  gsize       threads_made;
  gsize       nodes_made;  /* path elements whose node is made */
  guint32    *node_key;    /* by node: its function's key, for the finish */
  gsize       node_key_cap;
  guint8     *node_sorted; /* by node: its children are linked in the finish's order */
  gsize       node_sorted_cap;
  guint32     n_keys;
  LineSlot   *key_slots;   /* name << 32 | file → key + 1 */
  gsize       key_mask;
  gsize       key_used;
  LineAcc    *line_acc;    /* indexed by line record */
  gsize       line_cap;
  LineSlot   *line_slots;
  gsize       line_mask;
  gsize       line_used;
  guint32    *line_rows;   /* LINE_ROW line records + 1 per row */
  gsize       n_rows;
  gsize       rows_cap;    /* in rows */
  LineSlot   *row_slots;   /* file << 32 | definition line → row + 1 */
  gsize       row_mask;
  guint64     entries;
  Worker     *worker;      /* NULL: the live blocks are done in line */
  guint64     worker_live; /* a worker from this many live blocks; 0: none */
  gboolean    start_worker;
  guint64     handed_over;   /* what the workers did, for BlBsprofStats */
  guint64     worker_sleeps;
  guint64     decoder_waits;

  /* the worker's while there is one (see below), on cache lines of their
   * own: it writes table.used for every operation */
  LiveTable   table __attribute__ ((aligned (64)));  /* 32-bit addresses and sizes */
  AddrMap     wide;        /* the other live blocks */
  gsize       n_low_wide;  /* blocks in wide with 32-bit addresses */
  LiveAcc    *pe_alloc;    /* indexed like pe: what was allocated there */
  gsize       pe_alloc_cap;
  LiveAcc    *line_alloc;  /* indexed by line record */
  gsize       line_alloc_cap;
  LiveAcc    *pe_freed;    /* indexed like pe: what was freed of what it allocated */
  gsize       pe_freed_cap;
  LiveAcc    *line_freed;  /* indexed by line record */
  gsize       line_freed_cap;
  /* blocks allocated over without a free (live for good), and at the end,
   * once an allocation sum has saturated, the blocks still live */
  LiveAcc    *pe_live;
  gsize       pe_live_cap;
  LiveAcc    *line_live;
  gsize       line_live_cap;
  gboolean    alloc_saturated;
  guint64     unmatched_frees;
} Decoder;   /* a multiple of 64 bytes, so nothing else shares those lines */

/* ---- varints and strings ------------------------------------------------ */

/* A varint with at least 10 bytes readable at p, with no bounds checks.
 * Returns the byte after it, or NULL if it is longer than the 10 bytes a
 * 64-bit value can take. */
static inline const guint8 *
read_varint10 (const guint8 *p,
               guint64      *value)
{
  guint64 result;

  if G_LIKELY (*p < 0x80)
    {
      *value = *p;
      return p + 1;
    }

  result = p[0] & 0x7f;
  for (guint i = 1; i < 9; i++)
    {
      guint8 byte = p[i];

      result |= (guint64) (byte & 0x7f) << (7 * i);
      if (byte < 0x80)
        {
          *value = result;
          return p + i + 1;
        }
    }
  if (p[9] > 1)
    return NULL;   /* would overflow 64 bits, or continues past 10 bytes */
  *value = result | ((guint64) p[9] << 63);

  return p + 10;
}

/* Returns 1 on success, 0 if the bytes ran out, -1 if the varint is longer
 * than the 10 bytes a 64-bit value can take. */
static inline int
read_varint (const guint8  *p,
             const guint8  *end,
             guint64       *value,
             const guint8 **after)
{
  guint64 result;
  guint shift;

  /* Far from the end of the window (nearly always): no bounds checks. */
  if G_LIKELY (end - p >= 10)
    {
      const guint8 *next = read_varint10 (p, value);

      if G_UNLIKELY (next == NULL)
        return -1;
      *after = next;
      return 1;
    }

  result = 0;
  shift = 0;
  for (guint i = 0; i < 10; i++)
    {
      guint8 byte;

      if (p >= end)
        return 0;
      byte = *p++;
      if (i == 9 && byte > 1)
        return -1;
      result |= (guint64) (byte & 0x7f) << shift;
      if ((byte & 0x80) == 0)
        {
          *value = result;
          *after = p;
          return 1;
        }
      shift += 7;
    }

  return -1;
}

static gboolean
set_error (GError      **error,
           BlBsprofError code,
           const char   *format,
           ...) G_GNUC_PRINTF (3, 4);

static gboolean
set_error (GError      **error,
           BlBsprofError code,
           const char   *format,
           ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error_literal (error, BL_BSPROF_ERROR, code, message);

  return FALSE;
}

/* Parse helpers used inside the entry parsers: p and end are locals, and
 * entry_offset is the input offset of the entry for messages. */
#define READ_VARINT(var)                                                      \
  G_STMT_START {                                                              \
    int r_ = read_varint (p, end, &(var), &p);                                \
    if G_UNLIKELY (r_ == 0)                                                   \
      return PARSE_MORE;                                                      \
    if G_UNLIKELY (r_ < 0)                                                    \
      {                                                                       \
        set_error (error, BL_BSPROF_ERROR_BAD_VARINT,                         \
                   _("Corrupt profile: a number at byte %" PRIu64    \
                     " is longer than 10 bytes."),                            \
                   bl_source_offset (src, p - src->data));                    \
        return PARSE_ERROR;                                                   \
      }                                                                       \
  } G_STMT_END

#define READ_U32(var, what)                                                   \
  G_STMT_START {                                                              \
    guint64 v_;                                                               \
    READ_VARINT (v_);                                                         \
    if G_UNLIKELY (v_ > G_MAXUINT32)                                          \
      {                                                                       \
        set_error (error, BL_BSPROF_ERROR_VALUE_RANGE,                        \
                   _("Corrupt profile: the %s of the entry at byte %"         \
                     PRIu64 " does not fit in 32 bits."),           \
                   what, entry_offset);                                       \
        return PARSE_ERROR;                                                   \
      }                                                                       \
    (var) = (guint32) v_;                                                     \
  } G_STMT_END

static inline const guint8 *
find_nul (const guint8 *p,
          const guint8 *end)
{
  return memchr (p, 0, end - p);
}

/* ---- the tables of live allocations ------------------------------------- */

/* An allocation is looked up by address when it is freed, and when an
 * address is allocated again (a block allocated again without a free in
 * between stays live for good: at most one block is live per address).
 * Real sessions keep millions of blocks live, freed in any order, at
 * addresses an allocator hands out one after the other; so every lookup
 * must cost about one cache miss however the addresses lie, and a block
 * must take little memory.
 *
 * Blocks whose address and size fit in 32 bits (as the format defines
 * them) live in a bucketed cuckoo hash table: 64-byte buckets of four
 * 16-byte blocks, and each address may sit in one of two buckets that a
 * full mix of its bits picks. A lookup reads those two cache lines (both
 * are prefetched as soon as the address is read, so their misses overlap),
 * a free only clears a slot, and an insertion that finds both buckets full
 * moves a block to its other bucket, and so on. The table grows to twice
 * its size when it is 7/8 full, releasing the old table's pages as they are
 * emptied, so that the peak is not both tables.
 *
 * The rest (addresses or sizes beyond 32 bits, and any block for which the
 * moving gives up) go to a plain open-addressing table of 24-byte blocks,
 * which is visited only when it holds something that could match. */

static inline guint64
mix64 (guint64 x)
{
  x ^= x >> 33;
  x *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  x ^= x >> 33;

  return x;
}

/* MurmurHash3's finalizer: every address bit moves both halves. */
static inline guint64
live_hash (guint32 addr)
{
  guint64 x = mix64 (addr);

  x *= G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  x ^= x >> 33;

  return x;
}

/* The two buckets of a hash: each half scaled to the table by a multiply. */
static inline gsize
live_bucket1 (const LiveTable *table,
              guint64          hash)
{
  return (gsize) (((hash & 0xffffffff) * (guint64) table->n_buckets) >> 32);
}

static inline gsize
live_bucket2 (const LiveTable *table,
              guint64          hash)
{
  return (gsize) (((hash >> 32) * (guint64) table->n_buckets) >> 32);
}

static void
live_table_init (LiveTable *table,
                 gsize      n_buckets)
{
  table->n_buckets = n_buckets;
  table->used = 0;
  table->kick = 0;
  table->buckets = bl_big_array_grow (NULL, 0, n_buckets * sizeof (LiveBucket));
}

static void
live_table_clear (LiveTable *table)
{
  bl_big_array_free (table->buckets, table->n_buckets * sizeof (LiveBucket));
  table->buckets = NULL;
}

/* Slots of bucket b holding addr, one bit each; and its free slots. */
#ifdef __SSE2__

static inline guint
bucket_matches (const LiveBucket *b,
                guint32           addr)
{
  __m128i addrs = _mm_loadu_si128 ((const __m128i *) b->addr);
  __m128i pes = _mm_loadu_si128 ((const __m128i *) b->pe_plus1);
  __m128i hit = _mm_andnot_si128 (_mm_cmpeq_epi32 (pes, _mm_setzero_si128 ()),
                                  _mm_cmpeq_epi32 (addrs, _mm_set1_epi32 ((int) addr)));

  return (guint) _mm_movemask_ps (_mm_castsi128_ps (hit));
}

static inline guint
bucket_free_slots (const LiveBucket *b)
{
  __m128i pes = _mm_loadu_si128 ((const __m128i *) b->pe_plus1);

  return (guint) _mm_movemask_ps (_mm_castsi128_ps (_mm_cmpeq_epi32 (pes, _mm_setzero_si128 ())));
}

#else

static inline guint
bucket_matches (const LiveBucket *b,
                guint32           addr)
{
  guint mask = 0;

  for (guint i = 0; i < BUCKET_SLOTS; i++)
    mask |= (guint) ((b->addr[i] == addr) & (b->pe_plus1[i] != 0)) << i;

  return mask;
}

static inline guint
bucket_free_slots (const LiveBucket *b)
{
  guint mask = 0;

  for (guint i = 0; i < BUCKET_SLOTS; i++)
    mask |= (guint) (b->pe_plus1[i] == 0) << i;

  return mask;
}

#endif

/* Always inlined: GCC 12 drops a prefetch from a function it inlines on
 * its own. */
G_ALWAYS_INLINE static inline void
live_table_prefetch (const LiveTable *table,
                     guint32          addr)
{
  guint64 hash = live_hash (addr);

  __builtin_prefetch (&table->buckets[live_bucket1 (table, hash)], 1);
  __builtin_prefetch (&table->buckets[live_bucket2 (table, hash)], 1);
}

/* The block at addr: its bucket and slot, or FALSE. Both buckets are
 * compared without a branch between them (both were prefetched). */
G_ALWAYS_INLINE static inline gboolean
live_table_find (LiveTable   *table,
                 guint32      addr,
                 LiveBucket **bucket,
                 guint       *slot)
{
  guint64 hash = live_hash (addr);
  LiveBucket *b1 = &table->buckets[live_bucket1 (table, hash)];
  LiveBucket *b2 = &table->buckets[live_bucket2 (table, hash)];
  guint mask = bucket_matches (b1, addr) | (bucket_matches (b2, addr) << BUCKET_SLOTS);

  if (mask == 0)
    return FALSE;

  *slot = __builtin_ctz (mask);
  *bucket = *slot < BUCKET_SLOTS ? b1 : b2;
  *slot &= BUCKET_SLOTS - 1;

  return TRUE;
}

static inline gboolean
bucket_put (LiveBucket *b,
            guint32     addr,
            guint32     size,
            guint32     pe_plus1,
            guint32     line_plus1)
{
  guint free_mask = bucket_free_slots (b);
  guint i;

  if (free_mask == 0)
    return FALSE;

  i = __builtin_ctz (free_mask);
  b->addr[i] = addr;
  b->size[i] = size;
  b->pe_plus1[i] = pe_plus1;
  b->line_plus1[i] = line_plus1;

  return TRUE;
}

/* Both buckets of a block are full. First, one of their eight blocks whose
 * other bucket has room moves there (those eight buckets are fetched all
 * at once); failing that, the block takes the place of one in a bucket,
 * and that one goes to its other bucket, and so on, until a block finds
 * room. Returns FALSE when the moves gave up; *homeless is then the block
 * left out (perhaps another one). */
static G_NO_INLINE gboolean
live_table_move (LiveTable *table,
                 gsize      first,
                 gsize      second,
                 LiveAlloc *block,
                 LiveAlloc *homeless)
{
  guint32 addr = (guint32) block->addr;
  guint32 size = (guint32) block->size;
  guint32 pe_plus1 = block->pe_plus1;
  guint32 line_plus1 = block->line_plus1;
  gsize home[2] = { first, second };
  gsize other[2][BUCKET_SLOTS];
  gsize b;

  for (guint h = 0; h < 2; h++)
    for (guint i = 0; i < BUCKET_SLOTS; i++)
      {
        guint64 hash = live_hash (table->buckets[home[h]].addr[i]);
        gsize b1 = live_bucket1 (table, hash);

        other[h][i] = b1 == home[h] ? live_bucket2 (table, hash) : b1;
        __builtin_prefetch (&table->buckets[other[h][i]], 1);
      }

  for (guint h = 0; h < 2; h++)
    for (guint i = 0; i < BUCKET_SLOTS; i++)
      {
        LiveBucket *from = &table->buckets[home[h]];

        if (other[h][i] != home[h] &&
            bucket_put (&table->buckets[other[h][i]], from->addr[i], from->size[i],
                        from->pe_plus1[i], from->line_plus1[i]))
          {
            from->addr[i] = addr;
            from->size[i] = size;
            from->pe_plus1[i] = pe_plus1;
            from->line_plus1[i] = line_plus1;
            table->used++;
            return TRUE;
          }
      }

  b = (table->kick & 4) ? second : first;
  for (guint n = 0; n < MAX_KICKS; n++)
    {
      LiveBucket *bucket = &table->buckets[b];
      guint i = table->kick++ & (BUCKET_SLOTS - 1);
      guint64 hash;
      gsize b1, b2;
      guint32 t;

      t = bucket->addr[i]; bucket->addr[i] = addr; addr = t;
      t = bucket->size[i]; bucket->size[i] = size; size = t;
      t = bucket->pe_plus1[i]; bucket->pe_plus1[i] = pe_plus1; pe_plus1 = t;
      t = bucket->line_plus1[i]; bucket->line_plus1[i] = line_plus1; line_plus1 = t;

      hash = live_hash (addr);
      b1 = live_bucket1 (table, hash);
      b2 = live_bucket2 (table, hash);
      b = b == b1 ? b2 : b1;
      if (bucket_put (&table->buckets[b], addr, size, pe_plus1, line_plus1))
        {
          table->used++;
          return TRUE;
        }
    }

  homeless->addr = addr;
  homeless->size = size;
  homeless->pe_plus1 = pe_plus1;
  homeless->line_plus1 = line_plus1;

  return FALSE;
}

/* Bits set in a mask of free slots. */
static const guint8 free_count[1 << BUCKET_SLOTS] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4 };

/* Adds a block whose address is not in the table, to the emptier of its
 * two buckets (blocks spread evenly, and moves are rare). Returns FALSE
 * when it had to leave a block out, in *homeless. */
G_ALWAYS_INLINE static inline gboolean
live_table_insert (LiveTable *table,
                   LiveAlloc *block,
                   LiveAlloc *homeless)
{
  guint64 hash = live_hash ((guint32) block->addr);
  LiveBucket *b1 = &table->buckets[live_bucket1 (table, hash)];
  LiveBucket *b2 = &table->buckets[live_bucket2 (table, hash)];
  guint free1 = bucket_free_slots (b1);
  guint free2 = bucket_free_slots (b2);
  LiveBucket *b = free_count[free2] > free_count[free1] ? b2 : b1;
  guint free_mask = b == b1 ? free1 : free2;
  guint i;

  if G_UNLIKELY (free_mask == 0)
    return live_table_move (table, b1 - table->buckets, b2 - table->buckets, block, homeless);

  i = __builtin_ctz (free_mask);
  b->addr[i] = (guint32) block->addr;
  b->size[i] = (guint32) block->size;
  b->pe_plus1[i] = block->pe_plus1;
  b->line_plus1[i] = block->line_plus1;
  table->used++;

  return TRUE;
}

/* Linear probing for the blocks that do not fit the cuckoo table. */
static inline gsize
addr_hash (guint64 addr)
{
  return (gsize) mix64 (addr * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));
}

static void
addr_map_init (AddrMap *map)
{
  map->mask = LIVE_BUCKETS_MIN - 1;
  map->used = 0;
  map->slots = bl_big_array_grow (NULL, 0, (map->mask + 1) * sizeof (LiveAlloc));
}

G_ALWAYS_INLINE static inline LiveAlloc *
addr_map_find (AddrMap *map,
               guint64  addr)
{
  gsize pos = addr_hash (addr) & map->mask;

  while (map->slots[pos].pe_plus1 != 0 && map->slots[pos].addr != addr)
    pos = (pos + 1) & map->mask;

  return &map->slots[pos];
}

static void
addr_map_grow (AddrMap *map)
{
  LiveAlloc *old = map->slots;
  gsize old_size = map->mask + 1;

  map->mask = old_size * 2 - 1;
  map->slots = bl_big_array_grow (NULL, 0, (map->mask + 1) * sizeof (LiveAlloc));
  for (gsize i = 0; i < old_size; i++)
    if (old[i].pe_plus1 != 0)
      *addr_map_find (map, old[i].addr) = old[i];
  bl_big_array_free (old, old_size * sizeof (LiveAlloc));
}

/* Backward-shift deletion keeps linear probing correct without tombstones. */
static void
addr_map_remove (AddrMap   *map,
                 LiveAlloc *slot)
{
  gsize hole = slot - map->slots;
  gsize pos = hole;

  for (;;)
    {
      gsize home;

      pos = (pos + 1) & map->mask;
      if (map->slots[pos].pe_plus1 == 0)
        break;

      home = addr_hash (map->slots[pos].addr) & map->mask;
      /* move the entry back if its home is not between hole and pos */
      if (((pos - home) & map->mask) >= ((pos - hole) & map->mask))
        {
          map->slots[hole] = map->slots[pos];
          hole = pos;
        }
    }

  map->slots[hole].pe_plus1 = 0;
  map->used--;
}

/* Memory operations are read from here on (the header says so, or the
 * first one turned up): their metrics and the tables of live blocks. */
static void
enable_memory (Decoder *dec)
{
  if (dec->memory)
    return;

  dec->memory = TRUE;
  live_table_init (&dec->table, LIVE_BUCKETS_MIN);
  addr_map_init (&dec->wide);
}

/* ---- entries ------------------------------------------------------------ */

static gboolean
lookup_string (Decoder  *dec,
               guint32   strid,
               guint64   entry_offset,
               guint32  *interned,
               GError  **error)
{
  if (strid == 0)
    {
      *interned = 0;
      return TRUE;
    }

  if G_UNLIKELY (!bl_u32_map_lookup (&dec->strings, strid, interned))
    return set_error (error, BL_BSPROF_ERROR_UNDEFINED_ID,
                      _("Corrupt profile: the entry at byte %" PRIu64
                        " refers to string %u, which is not defined before it."),
                      entry_offset, strid);

  return TRUE;
}

/* Path element ids are looked up for every entry. Ids below a bound that
 * grows only with the number of elements defined (never with the ids
 * themselves) go to a direct table; the rest to a hash map. */
static inline gboolean
element_index (Decoder *dec,
               guint32  id,
               guint32 *index)
{
  /* ids defined as 1, 2, 3, … (as profilers number them): no lookup */
  if (id - 1 < dec->n_in_order)
    {
      *index = id - 1;
      return TRUE;
    }

  if (id < dec->dense_cap && dec->dense[id] != 0)
    {
      *index = dec->dense[id] - 1;
      return TRUE;
    }

  return bl_u32_map_lookup (&dec->elements, id, index);
}

static void
element_insert (Decoder *dec,
                guint32  id,
                guint32  index)
{
  gsize bound = 4 * dec->n_pe + 4096;

  if (id == index + 1 && index == dec->n_in_order)
    dec->n_in_order++;
  else if (id - 1 < dec->n_in_order)
    dec->n_in_order = 0;   /* redefined: ids no longer follow the records */

  if (id >= dec->dense_cap && id < bound)
    {
      gsize new_cap = MIN (bound, MAX ((gsize) id + 1, dec->dense_cap * 2));

      dec->dense = bl_big_array_grow (dec->dense, dec->dense_cap * sizeof (guint32),
                                      new_cap * sizeof (guint32));
      dec->dense_cap = new_cap;
    }

  if (id < dec->dense_cap)
    dec->dense[id] = index + 1;
  else
    bl_u32_map_insert (&dec->elements, id, index);
}

static inline gboolean
lookup_element (Decoder      *dec,
                guint32       id,
                guint64       entry_offset,
                PathElement **pe,
                GError      **error)
{
  guint32 index;

  if G_UNLIKELY (id == 0)
    return set_error (error, BL_BSPROF_ERROR_INVALID_ID,
                      _("Corrupt profile: the entry at byte %" PRIu64
                        " refers to path element 0, which is never valid."),
                      entry_offset);

  if G_UNLIKELY (!element_index (dec, id, &index))
    return set_error (error, BL_BSPROF_ERROR_UNDEFINED_ID,
                      _("Corrupt profile: the entry at byte %" PRIu64
                        " refers to path element %u, which is not defined before it."),
                      entry_offset, id);

  *pe = &dec->pe[index];

  return TRUE;
}

/* Grows a zero-filled array of elem_size records to hold needed of them. */
static void
ensure_records (gpointer  *array,
                gsize     *cap,
                gsize      needed,
                gsize      elem_size)
{
  gsize new_cap;

  if (needed <= *cap)
    return;

  new_cap = MAX (needed, MAX (1024, *cap * 2));
  if (new_cap > G_MAXSIZE / elem_size)
    g_error ("%s: overflow growing to %" G_GSIZE_FORMAT " records", G_STRLOC, new_cap);
  *array = bl_big_array_grow (*array, *cap * elem_size, new_cap * elem_size);
  *cap = new_cap;
}

/* Record @plus1 − 1 of a path element's or line's sums, grown to hold it. */
G_ALWAYS_INLINE static inline LiveAcc *
acc_record (LiveAcc **array,
            gsize    *cap,
            guint32   plus1)
{
  if G_UNLIKELY (plus1 > *cap)
    ensure_records ((gpointer *) array, cap, plus1, sizeof (LiveAcc));

  return &(*array)[plus1 - 1];
}

/* A block still live: credited to the path and line that allocated it. */
static void
credit_live_block (Decoder *dec,
                   guint32  pe_plus1,
                   guint32  line_plus1,
                   guint64  size)
{
  LiveAcc *acc = acc_record (&dec->pe_live, &dec->pe_live_cap, pe_plus1);

  acc->bytes = bl_saturating_add (acc->bytes, size);
  acc->count++;

  if (line_plus1 != 0)
    {
      acc = acc_record (&dec->line_live, &dec->line_live_cap, line_plus1);
      acc->bytes = bl_saturating_add (acc->bytes, size);
      acc->count++;
    }
}

static void
credit_live (Decoder         *dec,
             const LiveAlloc *block)
{
  credit_live_block (dec, block->pe_plus1, block->line_plus1, block->size);
}

/* A block freed: credited to the path and line that allocated it, so that
 * what is live at the end is what was allocated less what was freed, with
 * no walk over millions of live blocks (each a cache miss in the sums of a
 * million path elements) while the decoding thread waits. */
G_ALWAYS_INLINE static inline void
credit_freed (Decoder *dec,
              guint32  pe_plus1,
              guint32  line_plus1,
              guint64  size)
{
  LiveAcc *acc = acc_record (&dec->pe_freed, &dec->pe_freed_cap, pe_plus1);

  /* at most what was allocated there; it wraps only once an allocation
   * sum has saturated, and is not used then */
  acc->bytes += size;
  acc->count++;

  if (line_plus1 != 0)
    {
      acc = acc_record (&dec->line_freed, &dec->line_freed_cap, line_plus1);
      acc->bytes += size;
      acc->count++;
    }
}

/* Scattered: keeping a file's neighbouring lines in neighbouring slots
 * made runs of full slots merge, and lookups walk them. */
static inline gsize
line_hash (guint64 key)
{
  return (gsize) mix64 (key * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));
}

static void
line_map_grow (Decoder *dec)
{
  LineSlot *old = dec->line_slots;
  gsize old_size = dec->line_mask + 1;

  dec->line_mask = old_size * 2 - 1;
  dec->line_slots = bl_big_array_grow (NULL, 0, (dec->line_mask + 1) * sizeof (LineSlot));
  for (gsize i = 0; i < old_size; i++)
    {
      gsize pos;

      if (old[i].index_plus1 == 0)
        continue;
      pos = line_hash (old[i].key) & dec->line_mask;
      while (dec->line_slots[pos].index_plus1 != 0)
        pos = (pos + 1) & dec->line_mask;
      dec->line_slots[pos] = old[i];
    }
  bl_big_array_free (old, old_size * sizeof (LineSlot));
}

/* The path element an entry's tag names, which must fit in 32 bits and be
 * defined before the entry. */
static inline gboolean
lookup_entry_element (Decoder      *dec,
                      guint64       id,
                      guint64       entry_offset,
                      PathElement **pe,
                      GError      **error)
{
  if G_UNLIKELY (id > G_MAXUINT32)
    return set_error (error, BL_BSPROF_ERROR_VALUE_RANGE,
                      _("Corrupt profile: the path element id of the entry at byte %"
                        PRIu64 " does not fit in 32 bits."), entry_offset);

  return lookup_element (dec, (guint32) id, entry_offset, pe, error);
}

static inline guint32
pe_index_of (Decoder           *dec,
             const PathElement *pe)
{
  return pe - dec->pe;
}

static inline const PathInfo *
pe_info_of (Decoder           *dec,
            const PathElement *pe)
{
  return &g_array_index (dec->pe_info, PathInfo, pe_index_of (dec, pe));
}

/* The row of the definition (file, line) path elements share: found or
 * made, or 0 past the budget. */
static guint32
line_row_of (Decoder *dec,
             guint32  file,
             guint32  line)
{
  guint64 key = ((guint64) file << 32) | line;
  LineSlot *slot;
  gsize pos;

  if (dec->row_slots == NULL)
    {
      dec->row_mask = 1023;
      dec->row_slots = bl_big_array_grow (NULL, 0, (dec->row_mask + 1) * sizeof (LineSlot));
    }

  pos = line_hash (key) & dec->row_mask;
  while ((slot = &dec->row_slots[pos])->index_plus1 != 0)
    {
      if (slot->key == key)
        return slot->index_plus1;
      pos = (pos + 1) & dec->row_mask;
    }

  if (dec->n_rows >= LINE_ROWS_MAX)
    return 0;

  ensure_records ((gpointer *) &dec->line_rows, &dec->rows_cap, dec->n_rows + 1,
                  LINE_ROW * sizeof (guint32));
  slot->key = key;
  slot->index_plus1 = ++dec->n_rows;

  /* at most half full (the budget keeps it small) */
  if (dec->n_rows * 2 > dec->row_mask)
    {
      LineSlot *old = dec->row_slots;
      gsize old_size = dec->row_mask + 1;

      dec->row_mask = old_size * 2 - 1;
      dec->row_slots = bl_big_array_grow (NULL, 0, (dec->row_mask + 1) * sizeof (LineSlot));
      for (gsize i = 0; i < old_size; i++)
        {
          if (old[i].index_plus1 == 0)
            continue;
          pos = line_hash (old[i].key) & dec->row_mask;
          while (dec->row_slots[pos].index_plus1 != 0)
            pos = (pos + 1) & dec->row_mask;
          dec->row_slots[pos] = old[i];
        }
      bl_big_array_free (old, old_size * sizeof (LineSlot));
    }

  return dec->n_rows;
}

/* line_for() when the path element's row does not have the offset. */
static G_NO_INLINE guint32
line_for_uncached (Decoder     *dec,
                   PathElement *pe,
                   guint32      offset)
{
  const PathInfo *info;
  guint64 line, key;
  LineSlot *slot;
  gsize pos;
  guint32 index;

  info = pe_info_of (dec, pe);
  line = (guint64) info->line + offset - 1;
  if (line == 0 || line > G_MAXUINT32)
    return 0;

  key = ((guint64) info->file << 32) | line;
  pos = line_hash (key) & dec->line_mask;
  while ((slot = &dec->line_slots[pos])->index_plus1 != 0)
    {
      if (slot->key == key)
        {
          index = slot->index_plus1 - 1;
          goto found;
        }
      pos = (pos + 1) & dec->line_mask;
    }

  index = bl_profile_lookup_line (dec->profile, info->file, (guint32) line, info->function);
  slot->key = key;
  slot->index_plus1 = index + 1;
  ensure_records ((gpointer *) &dec->line_acc, &dec->line_cap, (gsize) index + 1,
                  sizeof (LineAcc));
  if (++dec->line_used * 2 > dec->line_mask)
    line_map_grow (dec);

found:
  if (offset < LINE_ROW && pe->line_row != 0)
    dec->line_rows[(gsize) (pe->line_row - 1) * LINE_ROW + offset] = index + 1;

  return index + 1;
}

/* Per-line data goes to line (definition line + offset − 1) of the function
 * at the end of the path. Returns the line record + 1, or 0 for none. */
G_ALWAYS_INLINE static inline guint32
line_for (Decoder     *dec,
          PathElement *pe,
          guint32      offset)
{
  guint32 index;

  if (!dec->lines || offset == 0)
    return 0;

  if G_LIKELY (offset < LINE_ROW && pe->line_row != 0 &&
               (index = dec->line_rows[(gsize) (pe->line_row - 1) * LINE_ROW + offset]) != 0)
    return index;

  return line_for_uncached (dec, pe, offset);
}

static ParseResult
parse_string (Decoder       *dec,
              const guint8  *p,
              const guint8  *end,
              guint64        payload,
              guint64        entry_offset,
              GError       **error)
{
  BlSource *src = dec->src;
  const guint8 *nul;
  guint32 interned;

  if G_UNLIKELY (payload > G_MAXUINT32)
    {
      set_error (error, BL_BSPROF_ERROR_VALUE_RANGE,
                 _("Corrupt profile: the string id at byte %" PRIu64
                   " does not fit in 32 bits."), entry_offset);
      return PARSE_ERROR;
    }

  if ((nul = find_nul (p, end)) == NULL)
    return PARSE_MORE;

  if G_LIKELY (g_utf8_validate ((const char *) p, nul - p, NULL))
    {
      interned = bl_profile_intern_len (dec->profile, (const char *) p, nul - p);
    }
  else
    {
      g_autofree char *valid = g_utf8_make_valid ((const char *) p, nul - p);

      interned = bl_profile_intern (dec->profile, valid);
    }

  bl_u32_map_insert (&dec->strings, (guint32) payload, interned);
  src->pos = nul + 1 - src->data;

  return PARSE_OK;
}

static ParseResult
parse_module (Decoder       *dec,
              const guint8  *p,
              const guint8  *end,
              guint64        payload,
              guint64        entry_offset,
              GError       **error)
{
  BlSource *src = dec->src;
  guint32 strid;
  guint32 name = 0;

  READ_U32 (strid, _("thread name"));

  if G_UNLIKELY (payload == 0 || payload > G_MAXUINT32)
    {
      set_error (error, BL_BSPROF_ERROR_INVALID_ID,
                 _("Corrupt profile: the module at byte %" PRIu64
                   " has the invalid id %" PRIu64 "."),
                 entry_offset, payload);
      return PARSE_ERROR;
    }

  if (!lookup_string (dec, strid, entry_offset, &name, error))
    return PARSE_ERROR;

  {
    PendingThread thread = { (guint32) dec->n_pe, name, BL_NODE_NONE };

    bl_u32_map_insert (&dec->modules, (guint32) payload, dec->threads->len);
    g_array_append_val (dec->threads, thread);
  }
  src->pos = p - src->data;

  return PARSE_OK;
}

static ParseResult
parse_path (Decoder       *dec,
            const guint8  *p,
            const guint8  *end,
            guint64        payload,
            guint64        entry_offset,
            GError       **error)
{
  BlSource *src = dec->src;
  PathElement elem = { 0, };
  PathInfo info = { 0, };
  guint32 caller, module = 0, offset = 0, file_id, line, func_id;
  guint32 index;

  READ_U32 (caller, _("caller"));
  if (caller == 0)
    READ_U32 (module, _("module id"));
  else if (dec->lines)
    READ_U32 (offset, _("line offset"));
  READ_U32 (file_id, _("file name"));
  READ_U32 (line, _("line number"));
  READ_U32 (func_id, _("function name"));

  if G_UNLIKELY (payload == 0 || payload > G_MAXUINT32)
    {
      set_error (error, BL_BSPROF_ERROR_INVALID_ID,
                 _("Corrupt profile: the path element at byte %" PRIu64
                   " has the invalid id %" PRIu64 "."),
                 entry_offset, payload);
      return PARSE_ERROR;
    }

  if (!lookup_string (dec, file_id, entry_offset, &info.file, error) ||
      !lookup_string (dec, func_id, entry_offset, &info.function, error))
    return PARSE_ERROR;

  info.caller_id = caller;
  info.line = line;
  (void) offset;   /* the calling line in the caller: not needed for the tree */

  if (caller == 0)
    {
      guint32 root;

      if G_UNLIKELY (!bl_u32_map_lookup (&dec->modules, module, &root))
        {
          set_error (error, BL_BSPROF_ERROR_UNDEFINED_ID,
                     _("Corrupt profile: path element %u at byte %" PRIu64
                       " refers to module %u, which is not defined before it."),
                     (guint32) payload, entry_offset, module);
          return PARSE_ERROR;
        }
      info.up = root;
    }
  else
    {
      PathElement *parent = NULL;
      guint32 hops = 0;
      guint32 id = caller;

      if G_UNLIKELY (caller == payload)
        {
          set_error (error, BL_BSPROF_ERROR_CALLER_CYCLE,
                     _("Corrupt profile: path element %u at byte %" PRIu64
                       " is its own caller."),
                     caller, entry_offset);
          return PARSE_ERROR;
        }

      if (!lookup_element (dec, caller, entry_offset, &parent, error))
        return PARSE_ERROR;

      /* A redefinition could close a loop in the chain of caller ids. */
      if G_UNLIKELY (element_index (dec, (guint32) payload, &index))
        {
          while (id != 0 && hops++ <= dec->n_pe)
            {
              const PathInfo *up;

              if (id == payload)
                {
                  set_error (error, BL_BSPROF_ERROR_CALLER_CYCLE,
                             _("Corrupt profile: path element %u at byte %" PRIu64
                               " makes its chain of callers loop."),
                             (guint32) payload, entry_offset);
                  return PARSE_ERROR;
                }
              if (!element_index (dec, id, &index))
                break;
              up = &g_array_index (dec->pe_info, PathInfo, index);
              id = up->caller_id;
            }
        }

      info.up = pe_index_of (dec, parent);
    }

  /* A redefined id gets a fresh record: the old one keeps its sums and the
   * live allocations that point at it. */
  if (dec->lines)
    elem.line_row = line_row_of (dec, info.file, line);
  element_insert (dec, (guint32) payload, dec->n_pe);
  ensure_records ((gpointer *) &dec->pe, &dec->pe_cap, dec->n_pe + 1, sizeof (PathElement));
  dec->pe[dec->n_pe++] = elem;
  g_array_append_val (dec->pe_info, info);

  src->pos = p - src->data;

  return PARSE_OK;
}

/* ---- measurements ------------------------------------------------------- */

/* A sum of a path element whose 32 bits would carry, or a value beyond
 * them: into its PathBig (saturating: in any grouping, the sum of values
 * that saturates at 2^64 − 1 is the same). */
static G_NO_INLINE void
pe_add_big (Decoder     *dec,
            PathElement *pe,
            guint        which,
            guint64      value)
{
  gsize index = pe - dec->pe;
  guint64 *big;

  ensure_records ((gpointer *) &dec->pe_big, &dec->pe_big_cap, index + 1, sizeof (PathBig));
  big = &dec->pe_big[index].sum[which];
  *big = bl_saturating_add (bl_saturating_add (*big, pe->sum[which]), value);
  pe->sum[which] = 0;
}

G_ALWAYS_INLINE static inline void
pe_add (Decoder     *dec,
        PathElement *pe,
        guint        which,
        guint64      value)
{
  guint32 sum;

  if G_LIKELY (value <= G_MAXUINT32 &&
               !__builtin_add_overflow (pe->sum[which], (guint32) value, &sum))
    pe->sum[which] = sum;
  else
    pe_add_big (dec, pe, which, value);
}

/* A path element's whole sum. */
static guint64
pe_sum (Decoder *dec,
        gsize    index,
        guint    which)
{
  guint64 big = index < dec->pe_big_cap ? dec->pe_big[index].sum[which] : 0;

  return bl_saturating_add (big, dec->pe[index].sum[which]);
}

/* What CPU, call and memory entries add up to, once read and checked; both
 * the careful parsers below and the hot loop after them end here. */

G_ALWAYS_INLINE static inline void
credit_cpu (Decoder     *dec,
            PathElement *pe,
            guint32      offset,
            guint64      cpu,
            guint64      wall)
{
  guint32 line;

  /* sums saturate: huge values in a hostile file never wrap to small ones */
  pe_add (dec, pe, SUM_CPU, cpu);
  pe_add (dec, pe, SUM_WALL, wall);
  if ((line = line_for (dec, pe, offset)) != 0)
    {
      dec->line_acc[line - 1].cpu = bl_saturating_add (dec->line_acc[line - 1].cpu, cpu);
      dec->line_acc[line - 1].wall = bl_saturating_add (dec->line_acc[line - 1].wall, wall);
    }
}

/* A block for the plain table; its address has no live block. */
static void
wide_insert (Decoder         *dec,
             const LiveAlloc *block)
{
  *addr_map_find (&dec->wide, block->addr) = *block;
  dec->wide.used++;
  if (block->addr <= G_MAXUINT32)
    dec->n_low_wide++;
  if (dec->wide.used * 2 > dec->wide.mask)
    addr_map_grow (&dec->wide);
}

static void
wide_remove (Decoder   *dec,
             LiveAlloc *slot)
{
  if (slot->addr <= G_MAXUINT32)
    dec->n_low_wide--;
  addr_map_remove (&dec->wide, slot);
}

#define GROW_AHEAD 4

/* A table that holds BL_BSPROF_LIVE_GUESS_FROM blocks belongs to a long
 * session, which keeps millions live: it grows at once to what the input's
 * size suggests (a block per BL_BSPROF_LIVE_GUESS_BYTES of input), not by
 * doublings, each of which moves every block and, done by the worker,
 * leaves the decoding thread waiting on a full ring. Fuzzing builds make
 * the guess from a few blocks on. */
#ifndef BL_FUZZING
static guint64 live_guess_from = BL_BSPROF_LIVE_GUESS_FROM;
#else
static guint64 live_guess_from = 16;
#endif
static guint64 live_guess_bytes = BL_BSPROF_LIVE_GUESS_BYTES;

/**
 * bl_bsprof_set_live_guess: (skip)
 * @from_live: the table of live blocks grows to the size the input suggests
 *   once it holds this many blocks
 * @bytes_per_block: the input's size over this is the number of blocks
 *   suggested
 *
 * For tests.
 */
void
bl_bsprof_set_live_guess (guint64 from_live,
                          guint64 bytes_per_block)
{
  g_return_if_fail (bytes_per_block > 0);

  __atomic_store_n (&live_guess_from, from_live, __ATOMIC_RELAXED);
  __atomic_store_n (&live_guess_bytes, bytes_per_block, __ATOMIC_RELAXED);
}

/* The buckets the table grows to. */
static gsize
live_table_next_size (Decoder *dec)
{
  gsize n_buckets = dec->table.n_buckets * 2;
  guint64 guess;

  if (dec->table.used < __atomic_load_n (&live_guess_from, __ATOMIC_RELAXED) ||
      dec->src == NULL || dec->src->total == 0)
    return n_buckets;

  guess = dec->src->total / __atomic_load_n (&live_guess_bytes, __ATOMIC_RELAXED) /
          BUCKET_SLOTS;
  if (guess > n_buckets && guess <= G_MAXSIZE / sizeof (LiveBucket) / 2)
    n_buckets = guess;

  return n_buckets;
}

/* Twice the buckets, or the guess above. The old table is read in order,
 * and each 2 MiB of it is handed back to the system once its blocks have
 * moved. */
static G_NO_INLINE void
live_table_grow (Decoder *dec)
{
  LiveTable old = dec->table;
  gsize old_bytes = old.n_buckets * sizeof (LiveBucket);
  const gsize chunk = ((gsize) 2 << 20) / sizeof (LiveBucket);

  live_table_init (&dec->table, live_table_next_size (dec));
  dec->table.kick = old.kick;
  for (gsize b = 0; b < old.n_buckets; b++)
    {
      const LiveBucket *bucket = &old.buckets[b];

      /* where the blocks of a bucket further on will go */
      if (b + GROW_AHEAD < old.n_buckets)
        for (guint i = 0; i < BUCKET_SLOTS; i++)
          {
            const LiveBucket *ahead = &old.buckets[b + GROW_AHEAD];
            guint64 hash = live_hash (ahead->addr[i]);

            __builtin_prefetch (&dec->table.buckets[live_bucket1 (&dec->table, hash)], 1);
            __builtin_prefetch (&dec->table.buckets[live_bucket2 (&dec->table, hash)], 1);
          }

      for (guint i = 0; i < BUCKET_SLOTS; i++)
        if (bucket->pe_plus1[i] != 0)
          {
            LiveAlloc block = {
              bucket->addr[i], bucket->size[i], bucket->pe_plus1[i], bucket->line_plus1[i]
            };
            LiveAlloc homeless;

            if G_UNLIKELY (!live_table_insert (&dec->table, &block, &homeless))
              wide_insert (dec, &homeless);
          }
      if ((b + 1) % chunk == 0)
        bl_big_array_discard (old.buckets, old_bytes, (b + 1 - chunk) * sizeof (LiveBucket),
                              chunk * sizeof (LiveBucket));
    }
  live_table_clear (&old);

  /* (in line) enough blocks for the worker to pay: it starts between two
   * entries, see decode() */
  if (dec->worker == NULL && dec->worker_live != 0 && dec->table.used >= dec->worker_live)
    dec->start_worker = TRUE;
}

/* A new block, at an address that has no live block. */
static inline void
place_block (Decoder   *dec,
             LiveAlloc *block)
{
  LiveAlloc homeless;

  if G_UNLIKELY (block->addr > G_MAXUINT32 || block->size > G_MAXUINT32)
    {
      wide_insert (dec, block);
      return;
    }

  if G_UNLIKELY (!live_table_insert (&dec->table, block, &homeless))
    wide_insert (dec, &homeless);
  if G_UNLIKELY (dec->table.used * 8 > dec->table.n_buckets * BUCKET_SLOTS * 7)
    live_table_grow (dec);
}

/* A memory operation when the plain table may hold the address. */
static G_NO_INLINE void
memory_op_slow (Decoder *dec,
                guint    op,
                guint64  addr,
                guint64  size,
                guint32  pe_plus1,
                guint32  line_plus1)
{
  LiveBucket *bucket;
  LiveAlloc *wide;
  guint slot;
  gboolean found = FALSE;

  /* an address is in one table at most */
  if (addr <= G_MAXUINT32 && live_table_find (&dec->table, (guint32) addr, &bucket, &slot))
    {
      if (op == MEM_ALLOC)
        credit_live_block (dec, bucket->pe_plus1[slot], bucket->line_plus1[slot],
                           bucket->size[slot]);
      else
        credit_freed (dec, bucket->pe_plus1[slot], bucket->line_plus1[slot], bucket->size[slot]);
      bucket->pe_plus1[slot] = 0;
      dec->table.used--;
      found = TRUE;
    }
  else if (dec->wide.used != 0 && (addr > G_MAXUINT32 || dec->n_low_wide != 0) &&
           (wide = addr_map_find (&dec->wide, addr))->pe_plus1 != 0)
    {
      if (op == MEM_ALLOC)
        credit_live (dec, wide);
      else
        credit_freed (dec, wide->pe_plus1, wide->line_plus1, wide->size);
      wide_remove (dec, wide);
      found = TRUE;
    }

  if (op == MEM_ALLOC)
    {
      LiveAlloc block = { addr, size, pe_plus1, line_plus1 };

      place_block (dec, &block);
    }
  else if (!found)
    dec->unmatched_frees++;
}

/* What an allocation adds to its path element and line (owned with the
 * tables of live blocks, so by the worker when there is one: the decoding
 * thread does not touch these records). */
G_ALWAYS_INLINE static inline void
credit_alloc (Decoder *dec,
              guint32  pe_plus1,
              guint32  line_plus1,
              guint64  size)
{
  LiveAcc *acc = acc_record (&dec->pe_alloc, &dec->pe_alloc_cap, pe_plus1);

  if G_UNLIKELY (acc->bytes > G_MAXUINT64 - size)
    dec->alloc_saturated = TRUE;
  acc->bytes = bl_saturating_add (acc->bytes, size);
  acc->count++;

  if (line_plus1 != 0)
    {
      acc = acc_record (&dec->line_alloc, &dec->line_alloc_cap, line_plus1);
      if G_UNLIKELY (acc->bytes > G_MAXUINT64 - size)
        dec->alloc_saturated = TRUE;
      acc->bytes = bl_saturating_add (acc->bytes, size);
      acc->count++;
    }
}

/* A memory operation on the tables of live blocks, in file order. */
G_ALWAYS_INLINE static inline void
table_op (Decoder *dec,
          guint    op,
          guint64  addr,
          guint64  size,
          guint32  pe_plus1,
          guint32  line)
{
  LiveBucket *bucket;
  guint slot;

  if (op == MEM_ALLOC)
    credit_alloc (dec, pe_plus1, line, size);

  if G_UNLIKELY (addr > G_MAXUINT32 || size > G_MAXUINT32 || dec->n_low_wide != 0)
    {
      memory_op_slow (dec, op, addr, size, pe_plus1, line);
      return;
    }

  if (live_table_find (&dec->table, (guint32) addr, &bucket, &slot))
    {
      if (op == MEM_ALLOC)
        {
          /* An address allocated again without a free in between: the
           * earlier block's free was never recorded, so it stays live. */
          credit_live_block (dec, bucket->pe_plus1[slot], bucket->line_plus1[slot],
                             bucket->size[slot]);
          bucket->size[slot] = (guint32) size;
          bucket->pe_plus1[slot] = pe_plus1;
          bucket->line_plus1[slot] = line;
        }
      else
        {
          credit_freed (dec, bucket->pe_plus1[slot], bucket->line_plus1[slot],
                        bucket->size[slot]);
          bucket->pe_plus1[slot] = 0;
          dec->table.used--;
        }
    }
  else if (op == MEM_ALLOC)
    {
      LiveAlloc block = { addr, size, pe_plus1, line };

      place_block (dec, &block);
    }
  else
    dec->unmatched_frees++;
}

/* ---- the live-block worker ---------------------------------------------- *
 *
 * On a large file with memory operations, a second thread owns the tables
 * of live blocks and what allocations add up to (dec->table, dec->wide,
 * n_low_wide, pe_alloc, line_alloc, pe_freed, line_freed, pe_live,
 * line_live, alloc_saturated and unmatched_frees): the decoding thread
 * credits CPU and calls, finds the line of each allocation, and hands each
 * memory operation, in file order, to the worker through a ring that one
 * thread fills and the other empties. The worker does exactly what the
 * decoding thread would have done, in the same order, so the results are
 * the same; the two only meet again when the tables are read at the end
 * (worker_finish()). */

/* An operation in 16 bytes: an allocation names its path element (+ 1,
 * so never 0), a free does not (the tables only tell a free from an
 * allocation). An address or size beyond 32 bits takes two slots: the
 * first with pe_plus1 0 and size MEMOP_WIDE (a free has size 0), its
 * path element + 1 in addr (0 for a free) and its line; the second with
 * the address and the size, low halves first. */
typedef struct
{
  guint32 addr;
  guint32 size;
  guint32 pe_plus1;    /* 0: a free */
  guint32 line_plus1;
} MemOp;

G_STATIC_ASSERT (sizeof (MemOp) == 16);

#define MEMOP_WIDE 1

#ifndef BL_FUZZING
#define RING_SIZE        ((gsize) 1 << 17)     /* 2 MiB of operations */
#define RING_PUBLISH     ((gsize) 256)
#else
#define RING_SIZE        ((gsize) 64)          /* full and empty often */
#define RING_PUBLISH     ((gsize) 8)
#endif
#define RING_MASK        (RING_SIZE - 1)
#define WORKER_AHEAD     16
/* A thread that waits sleeps until there is this much for it to do: the
 * worker until so many operations wait in the ring, the decoding thread
 * until so much room is free. Each wake-up then pays for a batch, and
 * neither thread spins on the other's processor. */
#define RING_BATCH       (RING_SIZE / 8)

/* Allocated on a cache line of its own (g_aligned_alloc0()), each
 * thread's own fields apart from the other's: the worker reading a line
 * the decoding thread writes for every operation would take it away from
 * the decoding thread each time. */
struct _Worker
{
  MemOp   *ring;
  GThread *thread;
  GMutex   lock;          /* only to sleep and to wake */
  GCond    wake_worker;
  GCond    wake_decoder;
  /* producer only */
  gsize    head_local __attribute__ ((aligned (64)));   /* written up to here */
  gsize    tail_seen;     /* the consumer's tail last read */
  gsize    n_wide;        /* operations of two slots */
  guint64  waits;         /* times the decoding thread slept */
  /* consumer only */
  guint64  sleeps __attribute__ ((aligned (64)));       /* times the worker slept */
  /* shared, each on its own cache line */
  gsize    head __attribute__ ((aligned (64)));   /* published by the producer */
  gsize    tail __attribute__ ((aligned (64)));   /* published by the consumer */
  gint     done __attribute__ ((aligned (64)));
  /* written only when a thread goes to sleep: the one that sleeps sets its
   * flag and the head or tail it waits for, the other clears the flag
   * (under the lock) and signals */
  gint     worker_asleep __attribute__ ((aligned (64)));
  gint     decoder_asleep;
  gsize    wake_worker_at;    /* head at which the worker wants waking */
  gsize    wake_decoder_at;   /* tail at which the decoding thread wants waking */
};

/* Each side publishes its position and then reads the other's flag, and a
 * thread going to sleep sets its flag and then reads the other's position
 * (both sequentially consistent): so either the sleeper sees the position
 * it waits for and stays awake, or the other thread sees the flag and
 * wakes it. */
static G_NO_INLINE void
wake (Worker *w,
      gint   *asleep,
      GCond  *cond)
{
  g_mutex_lock (&w->lock);
  if (__atomic_load_n (asleep, __ATOMIC_RELAXED))
    {
      __atomic_store_n (asleep, 0, __ATOMIC_RELAXED);
      g_cond_signal (cond);
    }
  g_mutex_unlock (&w->lock);
}

/* The worker: waits until RING_BATCH operations follow @tail, or the end. */
static void
worker_sleep (Worker *w,
              gsize   tail)
{
  g_mutex_lock (&w->lock);
  w->wake_worker_at = tail + RING_BATCH;
  __atomic_store_n (&w->worker_asleep, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n (&w->head, __ATOMIC_SEQ_CST) >= w->wake_worker_at ||
      __atomic_load_n (&w->done, __ATOMIC_SEQ_CST))
    __atomic_store_n (&w->worker_asleep, 0, __ATOMIC_RELAXED);
  else
    w->sleeps++;
  while (__atomic_load_n (&w->worker_asleep, __ATOMIC_RELAXED))
    g_cond_wait (&w->wake_worker, &w->lock);
  g_mutex_unlock (&w->lock);
}

/* The worker: done up to @tail. */
static inline void
worker_publish_tail (Worker *w,
                     gsize   tail)
{
  __atomic_store_n (&w->tail, tail, __ATOMIC_SEQ_CST);
  if G_UNLIKELY (__atomic_load_n (&w->decoder_asleep, __ATOMIC_SEQ_CST) &&
                 tail >= __atomic_load_n (&w->wake_decoder_at, __ATOMIC_RELAXED))
    wake (w, &w->decoder_asleep, &w->wake_decoder);
}

/* What an operation will touch: its buckets, and an allocation's sums
 * (always inlined, for the prefetches to stay). */
G_ALWAYS_INLINE static inline void
worker_prefetch (Decoder     *dec,
                 const MemOp *m)
{
  live_table_prefetch (&dec->table, m->addr);
  if (m->pe_plus1 != 0 && m->pe_plus1 <= dec->pe_alloc_cap)
    __builtin_prefetch (&dec->pe_alloc[m->pe_plus1 - 1], 1);
}

/* What a free will touch once its block is found: the sums of the path
 * element that allocated it, which only the block tells (its buckets were
 * fetched WORKER_AHEAD operations before, so they have come by now; a
 * hint only, the operations before it may still move the block). */
G_ALWAYS_INLINE static inline void
worker_prefetch_freed (Decoder     *dec,
                       const MemOp *m)
{
  LiveBucket *bucket;
  guint slot;

  if (m->pe_plus1 == 0 && m->size != MEMOP_WIDE &&
      live_table_find (&dec->table, m->addr, &bucket, &slot) &&
      bucket->pe_plus1[slot] <= dec->pe_freed_cap)
    __builtin_prefetch (&dec->pe_freed[bucket->pe_plus1[slot] - 1], 1);
}

static gpointer
worker_main (gpointer data)
{
  Decoder *dec = data;
  Worker *w = dec->worker;
  const MemOp *ring = w->ring;
  gsize tail = 0;

  for (;;)
    {
      gsize head = __atomic_load_n (&w->head, __ATOMIC_ACQUIRE);

      if (head == tail)
        {
          if (__atomic_load_n (&w->done, __ATOMIC_ACQUIRE) &&
              __atomic_load_n (&w->head, __ATOMIC_ACQUIRE) == tail)
            break;
          worker_sleep (w, tail);
          continue;
        }

      /* the buckets of an operation WORKER_AHEAD on are fetched while this
       * one is done, so that the misses overlap */
      for (gsize i = tail; i < MIN (head, tail + WORKER_AHEAD); i++)
        worker_prefetch (dec, &ring[i & RING_MASK]);
      for (gsize i = tail, next; i < head; i = next)
        {
          const MemOp *m = &ring[i & RING_MASK];

          if (i + WORKER_AHEAD < head)
            worker_prefetch (dec, &ring[(i + WORKER_AHEAD) & RING_MASK]);
          if (i + WORKER_AHEAD / 2 < head)
            worker_prefetch_freed (dec, &ring[(i + WORKER_AHEAD / 2) & RING_MASK]);
          if G_LIKELY (m->pe_plus1 != 0 || m->size != MEMOP_WIDE)
            {
              table_op (dec, m->pe_plus1 != 0 ? MEM_ALLOC : MEM_FREE, m->addr, m->size,
                        m->pe_plus1, m->line_plus1);
              next = i + 1;
            }
          else
            {
              const MemOp *x = &ring[(i + 1) & RING_MASK];

              table_op (dec, m->addr != 0 ? MEM_ALLOC : MEM_FREE,
                        x->addr | (guint64) x->size << 32,
                        x->pe_plus1 | (guint64) x->line_plus1 << 32, m->addr, m->line_plus1);
              next = i + 2;
            }
          if ((i ^ next) & ~(RING_PUBLISH - 1))
            worker_publish_tail (w, next);
        }
      tail = head;
      worker_publish_tail (w, tail);
    }

  return NULL;
}

static void
worker_start (Decoder *dec)
{
  Worker *w = g_aligned_alloc0 (1, sizeof (Worker), 64);

  w->ring = bl_big_array_grow (NULL, 0, RING_SIZE * sizeof (MemOp));
  g_mutex_init (&w->lock);
  g_cond_init (&w->wake_worker);
  g_cond_init (&w->wake_decoder);
  dec->worker = w;
  w->thread = g_thread_try_new ("bsprof-live", worker_main, dec, NULL);
  if (w->thread == NULL)
    {
      /* no thread to be had: the live blocks are done in line */
      bl_big_array_free (w->ring, RING_SIZE * sizeof (MemOp));
      g_mutex_clear (&w->lock);
      g_cond_clear (&w->wake_worker);
      g_cond_clear (&w->wake_decoder);
      g_aligned_free (w);
      dec->worker = NULL;
    }
}

/* The decoding thread: written up to head_local. */
static inline void
worker_publish (Worker *w)
{
  __atomic_store_n (&w->head, w->head_local, __ATOMIC_SEQ_CST);
  if G_UNLIKELY (__atomic_load_n (&w->worker_asleep, __ATOMIC_SEQ_CST) &&
                 w->head_local >= __atomic_load_n (&w->wake_worker_at, __ATOMIC_RELAXED))
    wake (w, &w->worker_asleep, &w->wake_worker);
}

/* The decoding thread, with the ring full: waits until RING_BATCH slots
 * are free. */
static G_NO_INLINE void
worker_wait_room (Worker *w)
{
  worker_publish (w);
  g_mutex_lock (&w->lock);
  w->wake_decoder_at = w->head_local - RING_SIZE + RING_BATCH;
  __atomic_store_n (&w->decoder_asleep, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n (&w->tail, __ATOMIC_SEQ_CST) >= w->wake_decoder_at)
    __atomic_store_n (&w->decoder_asleep, 0, __ATOMIC_RELAXED);
  else
    w->waits++;
  while (__atomic_load_n (&w->decoder_asleep, __ATOMIC_RELAXED))
    g_cond_wait (&w->wake_decoder, &w->lock);
  g_mutex_unlock (&w->lock);
  w->tail_seen = __atomic_load_n (&w->tail, __ATOMIC_ACQUIRE);
}

G_ALWAYS_INLINE static inline void
worker_push (Worker  *w,
             guint    op,
             guint64  addr,
             guint64  size,
             guint32  pe_plus1,
             guint32  line)
{
  gboolean wide = addr > G_MAXUINT32 || size > G_MAXUINT32;
  gsize head = w->head_local;
  MemOp *m;

  /* room for two slots (RING_BATCH of them once the decoding thread waits) */
  if G_UNLIKELY (head + 2 - w->tail_seen > RING_SIZE)
    {
      w->tail_seen = __atomic_load_n (&w->tail, __ATOMIC_ACQUIRE);
      if (head + 2 - w->tail_seen > RING_SIZE)
        worker_wait_room (w);
    }

  m = &w->ring[head & RING_MASK];
  if G_LIKELY (!wide)
    {
      m->addr = (guint32) addr;
      m->size = op == MEM_ALLOC ? (guint32) size : 0;
      m->pe_plus1 = op == MEM_ALLOC ? pe_plus1 : 0;
      m->line_plus1 = line;
      w->head_local = head + 1;
    }
  else
    {
      MemOp *x = &w->ring[(head + 1) & RING_MASK];

      m->addr = op == MEM_ALLOC ? pe_plus1 : 0;
      m->size = MEMOP_WIDE;
      m->pe_plus1 = 0;
      m->line_plus1 = line;
      x->addr = (guint32) addr;
      x->size = (guint32) (addr >> 32);
      x->pe_plus1 = (guint32) size;
      x->line_plus1 = (guint32) (size >> 32);
      w->head_local = head + 2;
      w->n_wide++;
    }
  if ((head ^ w->head_local) & ~(RING_PUBLISH - 1))
    worker_publish (w);
}

/* Hands the last operations over, waits for the worker to do them all, and
 * ends it: the tables are the decoding thread's again. */
static void
worker_finish (Decoder *dec)
{
  Worker *w = dec->worker;

  if (w == NULL)
    return;

  worker_publish (w);
  __atomic_store_n (&w->done, 1, __ATOMIC_SEQ_CST);
  wake (w, &w->worker_asleep, &w->wake_worker);
  g_thread_join (w->thread);
  dec->handed_over += w->head_local - w->n_wide;
  dec->worker_sleeps += w->sleeps;
  dec->decoder_waits += w->waits;
  bl_big_array_free (w->ring, RING_SIZE * sizeof (MemOp));
  g_mutex_clear (&w->lock);
  g_cond_clear (&w->wake_worker);
  g_cond_clear (&w->wake_decoder);
  g_aligned_free (w);
  dec->worker = NULL;
}

/* Whether memory operations go to a worker: on large inputs, with a second
 * processor, from the start. With few blocks live the table stays in the
 * cache and handing operations over costs more processor time than the
 * worker takes off the decoding thread, but on two idle processors the
 * decoding thread, which sets the time, is lighter by the table's work:
 * (a) 256 MB, decoding thread 2.45 → 1.9–2.25× the varint pass, worker
 * 0.9–1.0×. Tests set the bounds otherwise (also to start the worker
 * once so many blocks are live); fuzzers lower. */
#ifndef BL_FUZZING
static guint64 worker_min_bytes = BL_BSPROF_WORKER_MIN_BYTES;
static guint64 worker_min_live = BL_BSPROF_WORKER_MIN_LIVE;
#else
static guint64 worker_min_bytes = 0;   /* every input: the ring is fuzzed too */
static guint64 worker_min_live = 8;
#endif

/**
 * bl_bsprof_set_worker: (skip)
 * @min_bytes: inputs of at least this size (and of known size) hand their
 *   memory operations to a second thread; G_MAXUINT64: never
 * @min_live: once the table of live blocks grows past this many blocks
 *   (0: from the start)
 *
 * For tests and benchmarks.
 */
void
bl_bsprof_set_worker (guint64 min_bytes,
                      guint64 min_live)
{
  __atomic_store_n (&worker_min_bytes, min_bytes, __ATOMIC_RELAXED);
  __atomic_store_n (&worker_min_live, min_live, __ATOMIC_RELAXED);
}

static gboolean
want_worker (Decoder *dec)
{
  guint64 min_bytes = __atomic_load_n (&worker_min_bytes, __ATOMIC_RELAXED);

  if (min_bytes == G_MAXUINT64 || dec->src->total < min_bytes)
    return FALSE;

  return min_bytes == 0 || g_get_num_processors () >= 2;
}

G_ALWAYS_INLINE static inline void
credit_memory (Decoder     *dec,
               PathElement *pe,
               guint        op,
               guint32      offset,
               guint64      addr,
               guint64      size)
{
  guint32 pe_plus1 = pe_index_of (dec, pe) + 1;
  guint32 line = 0;

  /* the allocation is added up with the tables of live blocks */
  if (op == MEM_ALLOC)
    line = line_for (dec, pe, offset);

  if (dec->worker != NULL)
    worker_push (dec->worker, op, addr, size, pe_plus1, line);
  else
    table_op (dec, op, addr, size, pe_plus1, line);
}

static ParseResult
parse_memory (Decoder       *dec,
              const guint8  *p,
              const guint8  *end,
              guint64        payload,
              guint64        entry_offset,
              GError       **error)
{
  BlSource *src = dec->src;
  PathElement *pe = NULL;
  guint op = payload & 3;
  guint32 offset = 0;
  guint64 addr, size = 0;

  if (dec->lines)
    READ_U32 (offset, _("line offset"));
  READ_VARINT (addr);
  if (op == MEM_ALLOC)
    READ_VARINT (size);

  if G_UNLIKELY (op > MEM_FREE_REALLOC)
    {
      set_error (error, BL_BSPROF_ERROR_UNKNOWN_ENTRY,
                 _("Corrupt profile: the memory operation at byte %" PRIu64
                   " has the unknown type 3."), entry_offset);
      return PARSE_ERROR;
    }
  if (!lookup_entry_element (dec, payload >> 2, entry_offset, &pe, error))
    return PARSE_ERROR;

  if G_UNLIKELY (!dec->memory)
    {
      enable_memory (dec);
      bl_profile_add_warning (dec->profile,
                              _("The profile holds memory operations although its "
                                "header says it has none; they are shown."));
    }

  credit_memory (dec, pe, op, offset, addr, size);
  src->pos = p - src->data;

  return PARSE_OK;
}

static ParseResult
parse_cpu (Decoder       *dec,
           const guint8  *p,
           const guint8  *end,
           guint64        payload,
           guint64        entry_offset,
           GError       **error)
{
  BlSource *src = dec->src;
  PathElement *pe = NULL;
  guint32 offset = 0;
  guint64 cpu, wall;

  if (dec->lines)
    READ_U32 (offset, _("line offset"));
  READ_VARINT (cpu);
  READ_VARINT (wall);

  if (!lookup_entry_element (dec, payload, entry_offset, &pe, error))
    return PARSE_ERROR;

  credit_cpu (dec, pe, offset, cpu, wall);
  src->pos = p - src->data;

  return PARSE_OK;
}

static ParseResult
parse_calls (Decoder       *dec,
             const guint8  *p,
             const guint8  *end,
             guint64        payload,
             guint64        entry_offset,
             GError       **error)
{
  BlSource *src = dec->src;
  PathElement *pe = NULL;
  guint64 count;

  READ_VARINT (count);

  if (!lookup_entry_element (dec, payload, entry_offset, &pe, error))
    return PARSE_ERROR;

  pe_add (dec, pe, SUM_CALLS, count);
  src->pos = p - src->data;

  return PARSE_OK;
}

/* The hot loop. CPU, call and memory entries are nearly all of a profile;
 * while the window holds the longest such entry (HOT_ENTRY_MAX bytes) past
 * the current one, they are read here without bounds checks and without
 * leaving the loop. Anything else (another entry type, a value out of
 * range, an undefined id, the first memory operation of a profile whose
 * header says it has none) stops the loop at the start of that entry, for
 * the careful parsers above to take or to report. Returns where it
 * stopped.
 *
 * Entries are read a batch at a time, and then credited in order: while a
 * batch is read, the path element records and the live-block buckets its
 * entries will touch are prefetched, so that the cache misses of a whole
 * batch (large profiles touch paths and blocks at random) overlap instead
 * of following one another. */
#define HOT_ENTRY_MAX (4 * 10)
#define HOT_BATCH     32
#define LINE_AHEAD    4

enum
{
  HOT_CPU,
  HOT_CALLS,
  HOT_MEMORY,
  N_HOT_KINDS
};

typedef struct
{
  guint64 a;
  guint64 b;
  guint32 pe;
  guint32 offset;
  guint8  op;
} HotEntry;

static const guint8 *
decode_hot (Decoder      *dec,
            const guint8 *p,
            const guint8 *limit)
{
  PathElement *pes = dec->pe;
  const guint32 *rows = dec->line_rows;
  gboolean threaded = dec->worker != NULL;
  gboolean lines = dec->lines;
  gboolean stopped = FALSE;
  HotEntry batches[2][HOT_BATCH];
  guint8 kinds[2][N_HOT_KINDS][HOT_BATCH];   /* each kind's entries, in order */
  guint n_kind[2][N_HOT_KINDS];
  guint n_prev = 0;
  gsize filled = 0;

#define HOT_VARINT(var)                                                       \
  G_STMT_START {                                                              \
    if G_UNLIKELY ((p = read_varint10 (p, &(var))) == NULL)                   \
      goto stop;                                                              \
  } G_STMT_END

#define HOT_ELEMENT(id)                                                       \
  G_STMT_START {                                                              \
    if G_UNLIKELY ((id) > G_MAXUINT32 ||                                      \
                   !element_index (dec, (guint32) (id), &e->pe))              \
      goto stop;                                                              \
    __builtin_prefetch (&pes[e->pe], 1);   /* 16 bytes: one cache line */     \
  } G_STMT_END

  /* read batch k + 1, then credit batch k: a whole batch lies between a
   * prefetch and the use of what it loads. The line rows batch k will read
   * are fetched before batch k + 1 is read (batch k's path element records
   * have come by then). */
  for (;;)
    {
      HotEntry *next = batches[filled % 2];
      guint8 (*next_kinds)[HOT_BATCH] = kinds[filled % 2];
      guint *next_n = n_kind[filled % 2];
      guint n = 0;

      if (lines && filled > 0)
        {
          const HotEntry *prev = batches[(filled - 1) % 2];

          for (guint i = 0; i < n_prev; i++)
            {
              guint32 row = pes[prev[i].pe].line_row;

              if (row != 0 && prev[i].offset < LINE_ROW)
                __builtin_prefetch (&rows[(gsize) (row - 1) * LINE_ROW + prev[i].offset]);
            }
        }

      /* read a batch */
      next_n[HOT_CPU] = next_n[HOT_CALLS] = next_n[HOT_MEMORY] = 0;
      while (n < HOT_BATCH && p < limit && !stopped)
        {
          const guint8 *entry = p;
          HotEntry *e = &next[n];
          guint64 tag, offset = 0, a, b;

          HOT_VARINT (tag);
          switch (tag & 7)
            {
            case TAG_CPU:
              if (lines)
                HOT_VARINT (offset);
              HOT_VARINT (a);
              HOT_VARINT (b);
              if G_UNLIKELY (offset > G_MAXUINT32)
                goto stop;
              HOT_ELEMENT (tag >> 3);
              next_kinds[HOT_CPU][next_n[HOT_CPU]++] = n;
              break;

            case TAG_CALLS:
              HOT_VARINT (a);
              b = 0;
              HOT_ELEMENT (tag >> 3);
              next_kinds[HOT_CALLS][next_n[HOT_CALLS]++] = n;
              break;

            case TAG_MEMORY:
              e->op = (tag >> 3) & 3;
              if (lines)
                HOT_VARINT (offset);
              HOT_VARINT (a);
              b = 0;
              if (e->op == MEM_ALLOC)
                HOT_VARINT (b);
              if G_UNLIKELY (offset > G_MAXUINT32 || e->op > MEM_FREE_REALLOC || !dec->memory)
                goto stop;
              HOT_ELEMENT (tag >> 5);
              if (!threaded && a <= G_MAXUINT32)
                live_table_prefetch (&dec->table, (guint32) a);
              next_kinds[HOT_MEMORY][next_n[HOT_MEMORY]++] = n;
              break;

            default:
              goto stop;
            }

          e->offset = (guint32) offset;
          e->a = a;
          e->b = b;
          n++;
          continue;

        stop:
          p = entry;
          stopped = TRUE;
          break;
        }

      /* credit the batch before it, a kind at a time: sums do not depend
       * on the order they are added in, and memory operations keep theirs;
       * a loop per kind has no branch on the kind to mispredict */
      if (filled > 0)
        {
          guint before = (filled - 1) % 2;
          const HotEntry *prev = batches[before];
          const guint8 *cpu = kinds[before][HOT_CPU];
          const guint8 *calls = kinds[before][HOT_CALLS];
          const guint8 *mem = kinds[before][HOT_MEMORY];
          const guint *counts = n_kind[before];

          for (guint i = 0; i < counts[HOT_CPU]; i++)
            {
              const HotEntry *e = &prev[cpu[i]];

              /* the line record of the CPU entry a few on (its row came
               * while this batch was read); a hint only, the row may not
               * have the offset yet */
              if (lines && i + LINE_AHEAD < counts[HOT_CPU])
                {
                  const HotEntry *ahead = &prev[cpu[i + LINE_AHEAD]];
                  guint32 row = pes[ahead->pe].line_row;
                  guint32 index;

                  if (row != 0 && ahead->offset < LINE_ROW &&
                      (index = rows[(gsize) (row - 1) * LINE_ROW + ahead->offset]) != 0)
                    __builtin_prefetch (&dec->line_acc[index - 1], 1);
                }
              credit_cpu (dec, &pes[e->pe], e->offset, e->a, e->b);
            }
          for (guint i = 0; i < counts[HOT_CALLS]; i++)
            {
              const HotEntry *e = &prev[calls[i]];

              pe_add (dec, &pes[e->pe], SUM_CALLS, e->a);
            }
          for (guint i = 0; i < counts[HOT_MEMORY]; i++)
            {
              const HotEntry *e = &prev[mem[i]];

              credit_memory (dec, &pes[e->pe], e->op, e->offset, e->a, e->b);
            }
          dec->entries += n_prev;
        }

      if (n == 0)
        break;
      n_prev = n;
      filled++;
    }

#undef HOT_VARINT
#undef HOT_ELEMENT

  if (threaded)
    worker_publish (dec->worker);

  return p;
}

static ParseResult
parse_entry (Decoder  *dec,
             GError  **error)
{
  BlSource *src = dec->src;
  const guint8 *p = src->data + src->pos;
  const guint8 *end = src->data + src->len;
  guint64 entry_offset = bl_source_offset (src, src->pos);
  guint64 tag;

  READ_VARINT (tag);

  switch (tag & 7)
    {
    case TAG_STRING:
      if (tag == 0)
        {
          src->pos = p - src->data;
          return PARSE_END;
        }
      return parse_string (dec, p, end, tag >> 3, entry_offset, error);
    case TAG_MODULE:
      return parse_module (dec, p, end, tag >> 3, entry_offset, error);
    case TAG_PATH:
      return parse_path (dec, p, end, tag >> 3, entry_offset, error);
    case TAG_MEMORY:
      return parse_memory (dec, p, end, tag >> 3, entry_offset, error);
    case TAG_CPU:
      return parse_cpu (dec, p, end, tag >> 3, entry_offset, error);
    case TAG_CALLS:
      return parse_calls (dec, p, end, tag >> 3, entry_offset, error);
    default:
      set_error (error, BL_BSPROF_ERROR_UNKNOWN_ENTRY,
                 _("Corrupt profile: the entry at byte %" PRIu64
                   " has the unknown type %u."),
                 entry_offset, (guint) (tag & 7));
      return PARSE_ERROR;
    }
}

/* ---- header ------------------------------------------------------------- */

/* A float32 from the file as the decimal the profiler meant: 0.1, not
 * 0.100000001490116. */
static double
float_as_decimal (float value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (text, sizeof text, "%.7g", value);

  return g_ascii_strtod (text, NULL);
}

static ParseResult
parse_header (Decoder  *dec,
              guint64  *header_size_out,
              GError  **error)
{
  BlSource *src = dec->src;
  BlProfileInfo *info = bl_profile_get_info_mutable (dec->profile);
  const guint8 *p = src->data + src->pos;
  const guint8 *end = src->data + src->len;
  guint64 entry_offset = 0;
  guint32 major, minor, patch, header_size;
  guint64 lines, memory, start_ms;
  float ratios[2];
  char **strings[] = {
    &info->target, &info->supplemental, &info->version,
    &info->vendor, &info->model, &info->firmware,
  };

  if (src->len < BL_BSPROF_MAGIC_LEN)
    {
      if (!src->eof)
        return PARSE_MORE;
      if (src->len == 0)
        {
          g_set_error_literal (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_EMPTY,
                               _("The file is empty."));
          return PARSE_ERROR;
        }
    }

  if (src->len < BL_BSPROF_MAGIC_LEN ||
      memcmp (p, BL_BSPROF_MAGIC, BL_BSPROF_MAGIC_LEN) != 0)
    {
      set_error (error, BL_BSPROF_ERROR_BAD_MAGIC,
                 _("Not a BrightScript profile: the file does not start with "
                   "the bsprof signature."));
      return PARSE_ERROR;
    }
  p += BL_BSPROF_MAGIC_LEN;

  READ_U32 (major, _("major version"));
  READ_U32 (minor, _("minor version"));
  READ_U32 (patch, _("patch level"));
  READ_U32 (header_size, _("header size"));

  if (major != 1)
    {
      set_error (error, BL_BSPROF_ERROR_UNSUPPORTED_VERSION,
                 _("This profile uses format version %u.%u.%u; Brightlens reads "
                   "version 1 files only."),
                 major, minor, patch);
      return PARSE_ERROR;
    }

  for (guint i = 0; i < 2; i++)
    {
      guint32 raw;

      if (end - p < 4)
        return PARSE_MORE;
      memcpy (&raw, p, 4);
      raw = GUINT32_FROM_LE (raw);
      memcpy (&ratios[i], &raw, 4);
      p += 4;
    }

  READ_VARINT (lines);
  READ_VARINT (memory);
  READ_VARINT (start_ms);

  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    {
      const guint8 *nul = find_nul (p, end);

      if (nul == NULL)
        return PARSE_MORE;
      g_free (*strings[i]);
      *strings[i] = g_utf8_make_valid ((const char *) p, nul - p);
      p = nul + 1;
    }

  if ((guint64) header_size < (guint64) (p - src->data))
    {
      set_error (error, BL_BSPROF_ERROR_BAD_HEADER,
                 _("Corrupt profile: the header says it is %u bytes long, but its "
                   "fields take %" "zu" " bytes."),
                 header_size, (gsize) (p - src->data));
      return PARSE_ERROR;
    }

  info->major = major;
  info->minor = minor;
  info->patch = patch;
  info->requested_ratio = float_as_decimal (ratios[0]);
  info->actual_ratio = float_as_decimal (ratios[1]);
  info->has_lines = lines != 0;
  info->has_memory = memory != 0;
  info->start_ms = start_ms;

  dec->lines = info->has_lines;
  if (info->has_memory)
    enable_memory (dec);
  *header_size_out = header_size;
  src->pos = p - src->data;

  return PARSE_OK;
}

/* ---- driver ------------------------------------------------------------- */

static void
decoder_clear (Decoder *dec)
{
  worker_finish (dec);
  bl_u32_map_clear (&dec->strings);
  bl_u32_map_clear (&dec->modules);
  bl_u32_map_clear (&dec->elements);
  bl_big_array_free (dec->pe, dec->pe_cap * sizeof (PathElement));
  bl_big_array_free (dec->pe_big, dec->pe_big_cap * sizeof (PathBig));
  bl_big_array_free (dec->pe_node, dec->pe_node_cap * sizeof (guint32));
  bl_big_array_free (dec->node_key, dec->node_key_cap * sizeof (guint32));
  bl_big_array_free (dec->node_sorted, dec->node_sorted_cap);
  if (dec->key_slots != NULL)
    bl_big_array_free (dec->key_slots, (dec->key_mask + 1) * sizeof (LineSlot));
  g_clear_pointer (&dec->pe_info, g_array_unref);
  g_clear_pointer (&dec->threads, g_array_unref);
  if (dec->memory)
    {
      live_table_clear (&dec->table);
      bl_big_array_free (dec->wide.slots, (dec->wide.mask + 1) * sizeof (LiveAlloc));
    }
  bl_big_array_free (dec->dense, dec->dense_cap * sizeof (guint32));
  bl_big_array_free (dec->line_acc, dec->line_cap * sizeof (LineAcc));
  bl_big_array_free (dec->pe_alloc, dec->pe_alloc_cap * sizeof (LiveAcc));
  bl_big_array_free (dec->line_alloc, dec->line_alloc_cap * sizeof (LiveAcc));
  bl_big_array_free (dec->pe_freed, dec->pe_freed_cap * sizeof (LiveAcc));
  bl_big_array_free (dec->line_freed, dec->line_freed_cap * sizeof (LiveAcc));
  bl_big_array_free (dec->pe_live, dec->pe_live_cap * sizeof (LiveAcc));
  bl_big_array_free (dec->line_live, dec->line_live_cap * sizeof (LiveAcc));
  bl_big_array_free (dec->line_slots, (dec->line_mask + 1) * sizeof (LineSlot));
  bl_big_array_free (dec->line_rows, dec->rows_cap * LINE_ROW * sizeof (guint32));
  if (dec->row_slots != NULL)
    bl_big_array_free (dec->row_slots, (dec->row_mask + 1) * sizeof (LineSlot));
}

static inline const LiveAcc *
acc_at (const LiveAcc *array,
        gsize          cap,
        gsize          i)
{
  return i < cap ? &array[i] : NULL;
}

/* The six memory metrics. What was allocated is what was freed and what is
 * still live, exactly while no allocation sum has saturated; once one has,
 * the blocks still live were added up (@live), and freed is what is left. */
static void
mem_values (const LiveAcc *alloc,
            const LiveAcc *freed,
            const LiveAcc *live,
            gboolean       saturated,
            guint64        values[6])
{
  guint64 alloc_bytes = alloc != NULL ? alloc->bytes : 0;
  guint64 alloc_count = alloc != NULL ? alloc->count : 0;
  guint64 live_bytes, live_count;

  if (!saturated)
    {
      live_bytes = alloc_bytes - (freed != NULL ? freed->bytes : 0);
      live_count = alloc_count - (freed != NULL ? freed->count : 0);
    }
  else
    {
      live_bytes = live != NULL ? live->bytes : 0;
      live_count = live != NULL ? live->count : 0;
    }

  values[0] = alloc_bytes;
  values[1] = alloc_count;
  values[2] = alloc_bytes - live_bytes;
  values[3] = alloc_count - live_count;
  values[4] = live_bytes;
  values[5] = live_count;
}

/* The nodes are made so that the finish has little left to do: each
 * node's function is numbered as it is made (what the finish would find
 * with a lookup per node), and children are linked in the finish's order
 * (by name, then file, as strings) as they come, so that it sorts nothing.
 * Looking for a child among its parent's sorted children also tells
 * whether it is made already, without the profile's index of nodes (a
 * lookup in a table of a million nodes is a cache miss; the parent's
 * children were mostly made shortly before it). A parent with more than
 * SORTED_WALK_MAX children gives that up: its children go through the
 * profile's index from then on, and the finish sorts them. */
#define SORTED_WALK_MAX 32

/* (name, file) pairs get a key each, in the order they come; thread roots
 * each one of their own, as the finish counts functions. */
static void
note_new_node (Decoder *dec,
               guint32  node,
               guint32  name,
               guint32  file,
               gboolean root)
{
  guint64 key = ((guint64) name << 32) | file;
  LineSlot *slot;
  gsize pos;

  if G_UNLIKELY (node >= dec->node_key_cap || node >= dec->node_sorted_cap)
    {
      ensure_records ((gpointer *) &dec->node_key, &dec->node_key_cap, (gsize) node + 1,
                      sizeof (guint32));
      ensure_records ((gpointer *) &dec->node_sorted, &dec->node_sorted_cap, (gsize) node + 1,
                      1);
    }
  dec->node_sorted[node] = TRUE;

  if (root)
    {
      dec->node_key[node] = dec->n_keys++;
      return;
    }

  if (dec->key_slots == NULL)
    {
      dec->key_mask = 1023;
      dec->key_slots = bl_big_array_grow (NULL, 0, (dec->key_mask + 1) * sizeof (LineSlot));
    }

  pos = line_hash (key) & dec->key_mask;
  while ((slot = &dec->key_slots[pos])->index_plus1 != 0)
    {
      if (slot->key == key)
        {
          dec->node_key[node] = slot->index_plus1 - 1;
          return;
        }
      pos = (pos + 1) & dec->key_mask;
    }

  slot->key = key;
  slot->index_plus1 = dec->n_keys + 1;
  dec->node_key[node] = dec->n_keys++;

  if (++dec->key_used * 2 > dec->key_mask)
    {
      LineSlot *old = dec->key_slots;
      gsize old_size = dec->key_mask + 1;

      dec->key_mask = old_size * 2 - 1;
      dec->key_slots = bl_big_array_grow (NULL, 0, (dec->key_mask + 1) * sizeof (LineSlot));
      for (gsize i = 0; i < old_size; i++)
        {
          if (old[i].index_plus1 == 0)
            continue;
          pos = line_hash (old[i].key) & dec->key_mask;
          while (dec->key_slots[pos].index_plus1 != 0)
            pos = (pos + 1) & dec->key_mask;
          dec->key_slots[pos] = old[i];
        }
      bl_big_array_free (old, old_size * sizeof (LineSlot));
    }
}

/* Where a child (name, file) goes among its siblings: < 0 after @node, > 0
 * before it, 0 it is @node. Strings compare as the finish ranks them: by
 * their bytes, then (for strings that compare equal) by id. */
static int
compare_child (BlProfile    *profile,
               const BlNode *node,
               guint32       name,
               guint32       file)
{
  int order;

  if (node->name != name)
    {
      order = strcmp (bl_profile_get_string (profile, name),
                      bl_profile_get_string (profile, node->name));
      return order != 0 ? order : (name < node->name ? -1 : 1);
    }
  if (node->file != file)
    {
      order = strcmp (bl_profile_get_string (profile, file),
                      bl_profile_get_string (profile, node->file));
      return order != 0 ? order : (file < node->file ? -1 : 1);
    }

  return 0;
}

/* bl_profile_add_child() as the decoder does it (see above). */
static guint32
make_child (Decoder *dec,
            guint32  parent,
            guint32  name,
            guint32  file,
            guint32  line)
{
  BlProfile *profile = dec->profile;
  guint32 node;
  gsize n_before;

  if (dec->node_sorted[parent])
    {
      const BlNode *nodes = bl_profile_get_nodes (profile);
      guint32 prev = BL_NODE_NONE;
      guint steps = 0;
      guint32 c;

      for (c = nodes[parent].first_child; c != BL_NODE_NONE; c = nodes[c].next_sibling)
        {
          int order = compare_child (profile, &nodes[c], name, file);

          if (order == 0)
            return c;
          if (order < 0 || ++steps > SORTED_WALK_MAX)
            break;
          prev = c;
        }

      if (steps <= SORTED_WALK_MAX)
        {
          BlNode *mut;

          /* made first among its siblings, then moved after prev */
          node = _bl_profile_append_child (profile, parent, BL_NODE_NONE, name, file, line);
          if (prev != BL_NODE_NONE)
            {
              mut = _bl_profile_get_nodes_mutable (profile);
              mut[parent].first_child = mut[node].next_sibling;
              mut[node].next_sibling = mut[prev].next_sibling;
              mut[prev].next_sibling = node;
            }
          note_new_node (dec, node, name, file, FALSE);
          return node;
        }

      dec->node_sorted[parent] = FALSE;
      _bl_profile_index_children (profile, parent);
    }

  n_before = bl_profile_get_n_nodes (profile);
  node = bl_profile_add_child (profile, parent, name, file, line);
  if (node >= n_before)
    note_new_node (dec, node, name, file, FALSE);

  return node;
}

/* The thread roots of the modules defined before @n_pe path elements. */
static void
make_threads (Decoder *dec,
              gsize    n_pe)
{
  for (; dec->threads_made < dec->threads->len; dec->threads_made++)
    {
      PendingThread *thread = &g_array_index (dec->threads, PendingThread, dec->threads_made);
      gsize n_before = bl_profile_get_n_nodes (dec->profile);

      if (thread->before_pe > n_pe)
        break;
      thread->node = bl_profile_add_thread (dec->profile, thread->name);
      if (thread->node >= n_before)
        note_new_node (dec, thread->node, thread->name, 0, TRUE);
    }
}

/* Makes the profile's nodes of the path elements defined so far (and the
 * thread roots before and among them), in the order of their definitions,
 * as if each had been made when it was read. */
static void
decoder_make_nodes (Decoder *dec)
{
  ensure_records ((gpointer *) &dec->pe_node, &dec->pe_node_cap, dec->n_pe, sizeof (guint32));
  for (; dec->nodes_made < dec->n_pe; dec->nodes_made++)
    {
      gsize i = dec->nodes_made;
      const PathInfo *info = &g_array_index (dec->pe_info, PathInfo, i);
      guint32 parent;

      make_threads (dec, i);
      if (info->caller_id == 0)
        parent = g_array_index (dec->threads, PendingThread, info->up).node;
      else
        parent = dec->pe_node[info->up];
      dec->pe_node[i] = make_child (dec, parent, info->function, info->file, info->line);
    }
  make_threads (dec, dec->n_pe);
}

#define LIVE_CREDIT_AHEAD 8

/* Hands the accumulated sums to @profile (the decoder's own, or a copy
 * of it for a snapshot). With @keep the decoder can go on afterwards:
 * the live tables stay and the live sums are put back as they were. */
static void
decoder_flush (Decoder   *dec,
               BlProfile *profile,
               gboolean   keep)
{
  gsize n_lines = MIN (dec->line_cap, bl_profile_get_n_lines (profile));
  guint64 values[G_N_ELEMENTS (mem_metrics)];
  g_autofree LiveAcc *saved_pe_live = NULL;
  g_autofree LiveAcc *saved_line_live = NULL;
  gsize saved_pe_cap = dec->pe_live_cap;
  gsize saved_line_cap = dec->line_live_cap;

  if (keep && dec->memory && dec->alloc_saturated)
    {
      saved_pe_live = g_memdup2 (dec->pe_live, saved_pe_cap * sizeof (LiveAcc));
      saved_line_live = g_memdup2 (dec->line_live, saved_line_cap * sizeof (LiveAcc));
    }

  /* the worker's operations done, the tables are this thread's again */
  worker_finish (dec);
  bl_profile_get_info_mutable (profile)->unmatched_frees += dec->unmatched_frees;

  /* what the tables still hold was never freed: added up only once an
   * allocation sum has saturated (see mem_values()) */
  if (dec->memory && dec->alloc_saturated)
    {
      /* sized once; the sums of the blocks a few buckets on are fetched
       * while these are added (millions of blocks of a million path
       * elements: each a cache miss otherwise) */
      ensure_records ((gpointer *) &dec->pe_live, &dec->pe_live_cap, dec->n_pe,
                      sizeof (LiveAcc));
      ensure_records ((gpointer *) &dec->line_live, &dec->line_live_cap, dec->line_cap,
                      sizeof (LiveAcc));
      for (gsize b = 0; b < dec->table.n_buckets; b++)
        {
          const LiveBucket *bucket = &dec->table.buckets[b];

          if (b + LIVE_CREDIT_AHEAD < dec->table.n_buckets)
            {
              const LiveBucket *ahead = &dec->table.buckets[b + LIVE_CREDIT_AHEAD];

              for (guint i = 0; i < BUCKET_SLOTS; i++)
                if (ahead->pe_plus1[i] != 0)
                  __builtin_prefetch (&dec->pe_live[ahead->pe_plus1[i] - 1], 1);
            }
          for (guint i = 0; i < BUCKET_SLOTS; i++)
            if (bucket->pe_plus1[i] != 0)
              credit_live_block (dec, bucket->pe_plus1[i], bucket->line_plus1[i],
                                 bucket->size[i]);
        }
      for (gsize i = 0; i <= dec->wide.mask; i++)
        if (dec->wide.slots[i].pe_plus1 != 0)
          credit_live (dec, &dec->wide.slots[i]);
    }

  /* the tables go before the profile's metric columns are made, which
   * would otherwise come on top of them */
  if (dec->memory && !keep)
    {
      live_table_clear (&dec->table);
      bl_big_array_free (dec->wide.slots, (dec->wide.mask + 1) * sizeof (LiveAlloc));
      dec->wide.slots = NULL;
    }

  /* and so are the tables that only decoding needs (on a million path
   * elements, some 40 bytes each), unless decoding goes on; the nodes are
   * made first (a snapshot's are, before its copy), and their index goes
   * too: nothing adds a node any more */
  if (!keep)
    {
      bl_u32_map_clear (&dec->elements);
      bl_big_array_free (dec->dense, dec->dense_cap * sizeof (guint32));
      dec->dense = NULL;
      dec->dense_cap = 0;
      bl_big_array_free (dec->line_rows, dec->rows_cap * LINE_ROW * sizeof (guint32));
      dec->line_rows = NULL;
      dec->rows_cap = 0;

      /* sized once: no copy of the nodes as they grow */
      _bl_profile_reserve_nodes (profile, dec->n_pe + dec->threads->len);
      decoder_make_nodes (dec);
      _bl_profile_drop_node_index (profile);
      g_clear_pointer (&dec->pe_info, g_array_unref);
      g_clear_pointer (&dec->threads, g_array_unref);
    }

  /* the metric columns come last, with the live blocks' tables and the
   * decoding tables gone: the memory metrics first, so that the live sums
   * go before the other columns are made */
  g_assert (dec->nodes_made == dec->n_pe);
  if (dec->memory)
    {
      guint64 *column[G_N_ELEMENTS (mem_metrics)];

      /* as bl_profile_add_value() would, straight into the columns */
      for (guint m = 0; m < G_N_ELEMENTS (mem_metrics); m++)
        column[m] = _bl_profile_get_self_mutable (profile, mem_metrics[m]);
      for (gsize i = 0; i < dec->n_pe; i++)
        {
          guint32 node = dec->pe_node[i];

          mem_values (acc_at (dec->pe_alloc, dec->pe_alloc_cap, i),
                      acc_at (dec->pe_freed, dec->pe_freed_cap, i),
                      acc_at (dec->pe_live, dec->pe_live_cap, i), dec->alloc_saturated, values);
          for (guint m = 0; m < G_N_ELEMENTS (mem_metrics); m++)
            column[m][node] = bl_saturating_add (column[m][node], values[m]);
        }
      if (!keep)
        {
          bl_big_array_free (dec->pe_live, dec->pe_live_cap * sizeof (LiveAcc));
          dec->pe_live = NULL;
          dec->pe_live_cap = 0;
          bl_big_array_free (dec->pe_alloc, dec->pe_alloc_cap * sizeof (LiveAcc));
          dec->pe_alloc = NULL;
          dec->pe_alloc_cap = 0;
          bl_big_array_free (dec->pe_freed, dec->pe_freed_cap * sizeof (LiveAcc));
          dec->pe_freed = NULL;
          dec->pe_freed_cap = 0;
        }
    }

  {
    guint64 *cpu = _bl_profile_get_self_mutable (profile, BL_METRIC_CPU);
    guint64 *wall = _bl_profile_get_self_mutable (profile, BL_METRIC_WALL);
    guint64 *calls = _bl_profile_get_self_mutable (profile, BL_METRIC_CALLS);

    for (gsize i = 0; i < dec->n_pe; i++)
      {
        guint32 node = dec->pe_node[i];

        cpu[node] = bl_saturating_add (cpu[node], pe_sum (dec, i, SUM_CPU));
        wall[node] = bl_saturating_add (wall[node], pe_sum (dec, i, SUM_WALL));
        calls[node] = bl_saturating_add (calls[node], pe_sum (dec, i, SUM_CALLS));
      }
  }

  for (gsize i = 0; i < n_lines; i++)
    {
      const LineAcc *acc = &dec->line_acc[i];

      if (acc->cpu != 0)
        bl_profile_add_line_value (profile, i, BL_METRIC_CPU, acc->cpu);
      if (acc->wall != 0)
        bl_profile_add_line_value (profile, i, BL_METRIC_WALL, acc->wall);
      if (!dec->memory)
        continue;

      mem_values (acc_at (dec->line_alloc, dec->line_alloc_cap, i),
                  acc_at (dec->line_freed, dec->line_freed_cap, i),
                  acc_at (dec->line_live, dec->line_live_cap, i), dec->alloc_saturated, values);
      for (guint m = 0; m < G_N_ELEMENTS (mem_metrics); m++)
        if (values[m] != 0)
          bl_profile_add_line_value (profile, i, mem_metrics[m], values[m]);
    }

  if (keep && dec->memory && dec->alloc_saturated)
    {
      if (saved_pe_cap > 0)
        memcpy (dec->pe_live, saved_pe_live, saved_pe_cap * sizeof (LiveAcc));
      if (dec->pe_live_cap > saved_pe_cap)
        memset (dec->pe_live + saved_pe_cap, 0,
                (dec->pe_live_cap - saved_pe_cap) * sizeof (LiveAcc));
      if (saved_line_cap > 0)
        memcpy (dec->line_live, saved_line_live, saved_line_cap * sizeof (LiveAcc));
      if (dec->line_live_cap > saved_line_cap)
        memset (dec->line_live + saved_line_cap, 0,
                (dec->line_live_cap - saved_line_cap) * sizeof (LiveAcc));
    }
}

static void
decoder_init (Decoder   *dec,
              BlProfile *profile,
              BlSource  *src)
{
  memset (dec, 0, sizeof *dec);
  dec->profile = profile;
  dec->src = src;
  bl_u32_map_init (&dec->strings);
  bl_u32_map_init (&dec->modules);
  bl_u32_map_init (&dec->elements);
  dec->pe_info = g_array_new (FALSE, FALSE, sizeof (PathInfo));
  dec->threads = g_array_new (FALSE, FALSE, sizeof (PendingThread));

  dec->line_mask = 1023;
  dec->line_slots = bl_big_array_grow (NULL, 0, (dec->line_mask + 1) * sizeof (LineSlot));
}

/* The reasons and warnings of a profile whose data ends early or runs on;
 * the same for a whole read and a follower's snapshot. */
static void
set_incomplete_in_body (BlProfile *profile,
                        guint64    at,
                        guint64    entries)
{
  g_autofree char *reason =
    g_strdup_printf (_("The profile is incomplete: the data ends at byte %"
                       PRIu64 " inside an entry, without the "
                       "end-of-entries marker; the %" PRIu64
                       " complete entries before it are shown."),
                     at, entries);

  bl_profile_set_incomplete (profile, reason);
}

static void
set_incomplete_in_footer (BlProfile *profile,
                          guint64    at)
{
  g_autofree char *reason =
    g_strdup_printf (_("The profile is incomplete: the file ends at byte %"
                       PRIu64 " before the footer with the end time."),
                     at);

  bl_profile_set_incomplete (profile, reason);
}

static void
add_trailing_warning (BlProfile *profile,
                      guint64    extra,
                      guint64    at)
{
  g_autofree char *warning =
    g_strdup_printf (_("%" PRIu64 " bytes after the footer at byte %"
                       PRIu64 " were ignored."),
                     extra, at);

  bl_profile_add_warning (profile, warning);
}

static void
add_unmatched_warning (BlProfile *profile)
{
  guint64 n = bl_profile_get_info (profile)->unmatched_frees;
  g_autofree char *warning = NULL;

  if (n == 0)
    return;

  warning = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                          "%" PRIu64 " free of an address that was "
                                          "never allocated was ignored.",
                                          "%" PRIu64 " frees of addresses that were "
                                          "never allocated were ignored.",
                                          n),
                             n);
  bl_profile_add_warning (profile, warning);
}

static BlProfile *
decode (BlSource       *src,
        BlBsprofStats  *stats,
        GError        **error)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("bsprof");
  Decoder dec = { 0, };
  guint64 header_size = 0;
  guint32 *node_key = NULL;
  guint8 *node_sorted = NULL;
  gsize node_key_cap = 0, node_sorted_cap = 0;
  ParseResult r;
  gboolean ok = FALSE;
  gboolean cleared = FALSE;

  decoder_init (&dec, profile, src);

  /* header */
  while ((r = parse_header (&dec, &header_size, error)) == PARSE_MORE)
    {
      if (src->eof)
        {
          if (src->len < BL_BSPROF_MAGIC_LEN ||
              memcmp (src->data, BL_BSPROF_MAGIC, BL_BSPROF_MAGIC_LEN) != 0)
            set_error (error, BL_BSPROF_ERROR_BAD_MAGIC,
                       _("Not a BrightScript profile: the file does not start with "
                         "the bsprof signature."));
          else
            set_error (error, BL_BSPROF_ERROR_TRUNCATED_HEADER,
                       _("Truncated profile: the file ends at byte %" PRIu64
                         ", inside the header."),
                       bl_source_offset (src, src->len));
          goto out;
        }
      if (!bl_source_fill (src, 0, error))
        goto out;
    }
  if (r == PARSE_ERROR)
    goto out;

  /* skip the rest of the header (padding, fields of newer minor versions) */
  while (bl_source_offset (src, src->len) < header_size && !src->eof)
    {
      src->pos = src->len;
      if (!bl_source_fill (src, src->len, error))
        goto out;
    }
  if (bl_source_offset (src, src->len) < header_size)
    {
      set_error (error, BL_BSPROF_ERROR_TRUNCATED_HEADER,
                 _("Truncated profile: the file ends at byte %" PRIu64
                   ", inside the %" PRIu64 "-byte header."),
                 bl_source_offset (src, src->len), header_size);
      goto out;
    }
  src->pos = header_size - src->base;

  /* a second thread for the live blocks of a large file, now or once
   * they are many */
  if (dec.memory && want_worker (&dec))
    {
      guint64 min_live = __atomic_load_n (&worker_min_live, __ATOMIC_RELAXED);

      if (min_live == 0)
        worker_start (&dec);
      else
        dec.worker_live = min_live;
    }

  /* body */
  for (;;)
    {
      gsize start;

      if G_UNLIKELY (dec.start_worker)
        {
          dec.start_worker = FALSE;
          dec.worker_live = 0;
          worker_start (&dec);
        }

      if (src->len - src->pos > HOT_ENTRY_MAX)
        {
          gsize limit = MIN (src->len - HOT_ENTRY_MAX, bl_source_tick_pos (src));

          src->pos = decode_hot (&dec, src->data + src->pos, src->data + limit) - src->data;
          if G_UNLIKELY (!bl_source_tick (src, error))
            goto out;
        }

      start = src->pos;
      r = parse_entry (&dec, error);

      if G_LIKELY (r == PARSE_OK)
        {
          dec.entries++;
          if G_UNLIKELY (!bl_source_tick (src, error))
            goto out;
          continue;
        }
      if (r == PARSE_END)
        break;
      if (r == PARSE_ERROR)
        goto out;

      /* PARSE_MORE */
      if (src->eof)
        {
          set_incomplete_in_body (profile, bl_source_offset (src, start), dec.entries);
          src->pos = start;
          goto done;
        }
      if (!bl_source_fill (src, start, error))
        goto out;
    }

  /* footer */
  for (;;)
    {
      const guint8 *p = src->data + src->pos;
      guint64 end_ms;
      int res = read_varint (p, src->data + src->len, &end_ms, &p);

      if (res > 0)
        {
          bl_profile_get_info_mutable (profile)->end_ms = end_ms;
          src->pos = p - src->data;
          break;
        }
      if (res < 0)
        {
          set_error (error, BL_BSPROF_ERROR_BAD_VARINT,
                     _("Corrupt profile: the footer at byte %" PRIu64
                       " holds a number longer than 10 bytes."),
                     bl_source_offset (src, src->pos));
          goto out;
        }
      if (src->eof)
        {
          set_incomplete_in_footer (profile, bl_source_offset (src, src->pos));
          goto done;
        }
      if (!bl_source_fill (src, src->pos, error))
        goto out;
    }

  /* anything after the footer? */
  if (src->pos == src->len && !src->eof)
    {
      if (!bl_source_fill (src, src->pos, error))
        goto out;
    }
  if (src->pos < src->len)
    {
      guint64 at = bl_source_offset (src, src->pos);
      guint64 extra = src->total > at ? src->total - at : src->len - src->pos;

      add_trailing_warning (profile, extra, at);
    }

done:
  decoder_flush (&dec, profile, FALSE);
  /* the decoder's tables go before the profile computes its totals, but
   * for what the nodes were made with */
  node_key = g_steal_pointer (&dec.node_key);
  node_key_cap = dec.node_key_cap;
  node_sorted = g_steal_pointer (&dec.node_sorted);
  node_sorted_cap = dec.node_sorted_cap;
  decoder_clear (&dec);
  cleared = TRUE;

  add_unmatched_warning (profile);
  g_assert (node_key_cap >= bl_profile_get_n_nodes (profile) || node_key_cap == 0);
  _bl_profile_finish_from (profile, node_key, dec.n_keys, NULL, node_sorted);
  bl_big_array_free (node_key, node_key_cap * sizeof (guint32));
  bl_big_array_free (node_sorted, node_sorted_cap);
  ok = TRUE;

  if (stats != NULL)
    {
      stats->entries = dec.entries;
      stats->bytes = bl_source_offset (src, src->pos);
      stats->handed_over = dec.handed_over;
      stats->worker_sleeps = dec.worker_sleeps;
      stats->decoder_waits = dec.decoder_waits;
    }

out:
  if (!cleared)
    decoder_clear (&dec);

  return ok ? g_steal_pointer (&profile) : NULL;
}

/**
 * bl_bsprof_read_stream:
 * @total: the size of the input, for progress, or 0
 *
 * Decodes a .bsprof from @stream in chunks. A stream that ends early gives
 * an incomplete profile (see bl_profile_is_incomplete()), not an error.
 *
 * Returns: (transfer full): the profile, or %NULL with @error set
 */
BlProfile *
bl_bsprof_read_stream (GInputStream   *stream,
                       guint64         total,
                       BlProgressFunc  progress,
                       gpointer        progress_data,
                       GCancellable   *cancellable,
                       BlBsprofStats  *stats,
                       GError        **error)
{
  BlSource src;
  BlProfile *profile = NULL;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);

  bl_source_init_stream (&src, stream, total, cancellable, progress, progress_data);
  if (bl_source_fill (&src, 0, error))
    profile = decode (&src, stats, error);
  if (profile != NULL && progress != NULL)
    progress (bl_source_offset (&src, src.len), total, progress_data);
  bl_source_clear (&src);

  return profile;
}

/**
 * bl_bsprof_read_memory:
 *
 * Decodes a .bsprof held in memory (tests, fuzzing).
 *
 * Returns: (transfer full): the profile, or %NULL with @error set
 */
BlProfile *
bl_bsprof_read_memory (const guint8  *data,
                       gsize          len,
                       GError       **error)
{
  BlSource src;
  BlProfile *profile;

  bl_source_init_memory (&src, data, len);
  profile = decode (&src, NULL, error);
  bl_source_clear (&src);

  return profile;
}

/* ---- piece by piece (the follower) ---------------------------------------
 *
 * The same decoder, kept between calls: each call decodes the whole
 * entries in the window and stops where bl_bsprof_read_memory() would
 * wait for more. A snapshot flushes the sums into a copy of the profile
 * being built and leaves the decoder as it was. */

typedef enum
{
  PHASE_HEADER,
  PHASE_SKIP_HEADER,
  PHASE_BODY,
  PHASE_FOOTER,
  PHASE_DONE,
} Phase;

struct _BlBsprofDecoder
{
  Decoder    dec;
  BlProfile *profile;      /* being built, never finished */
  Phase      phase;
  guint64    header_size;
  guint64    stop_at;      /* where decoding waits: the entry or footer start */
  guint64    footer_end;   /* the offset after the footer, once read */
};

BlBsprofDecoder *
_bl_bsprof_decoder_new (void)
{
  BlBsprofDecoder *decoder = g_aligned_alloc0 (1, sizeof (BlBsprofDecoder),
                                               G_ALIGNOF (BlBsprofDecoder));

  decoder->profile = bl_profile_new ("bsprof");
  decoder_init (&decoder->dec, decoder->profile, NULL);

  return decoder;
}

void
_bl_bsprof_decoder_free (BlBsprofDecoder *decoder)
{
  if (decoder == NULL)
    return;

  decoder_clear (&decoder->dec);
  g_clear_object (&decoder->profile);
  g_aligned_free (decoder);
}

gboolean
_bl_bsprof_decoder_run (BlBsprofDecoder  *decoder,
                        BlSource         *src,
                        GError          **error)
{
  Decoder *dec = &decoder->dec;
  ParseResult r;

  g_assert (!src->eof);

  dec->src = src;

  if (decoder->phase == PHASE_HEADER)
    {
      /* the header is parsed from the stream's first byte */
      g_assert (src->base == 0);
      src->pos = 0;
      r = parse_header (dec, &decoder->header_size, error);
      if (r == PARSE_MORE)
        {
          src->pos = 0;
          return TRUE;
        }
      if (r == PARSE_ERROR)
        return FALSE;
      decoder->phase = PHASE_SKIP_HEADER;
    }

  if (decoder->phase == PHASE_SKIP_HEADER)
    {
      if (bl_source_offset (src, src->len) < decoder->header_size)
        {
          src->pos = src->len;
          return TRUE;
        }
      src->pos = decoder->header_size - src->base;
      bl_profile_enable_metric (decoder->profile, BL_METRIC_CPU);
      bl_profile_enable_metric (decoder->profile, BL_METRIC_WALL);
      bl_profile_enable_metric (decoder->profile, BL_METRIC_CALLS);
      decoder->phase = PHASE_BODY;
    }

  while (decoder->phase == PHASE_BODY)
    {
      gsize start;

      if (src->len - src->pos > HOT_ENTRY_MAX)
        {
          gsize limit = MIN (src->len - HOT_ENTRY_MAX, bl_source_tick_pos (src));

          src->pos = decode_hot (dec, src->data + src->pos, src->data + limit) - src->data;
          if G_UNLIKELY (!bl_source_tick (src, error))
            return FALSE;
        }

      start = src->pos;
      r = parse_entry (dec, error);
      if (r == PARSE_OK)
        {
          dec->entries++;
          if G_UNLIKELY (!bl_source_tick (src, error))
            return FALSE;
          continue;
        }
      if (r == PARSE_ERROR)
        return FALSE;
      if (r == PARSE_MORE)
        {
          src->pos = start;
          decoder->stop_at = bl_source_offset (src, start);
          return TRUE;
        }
      decoder->phase = PHASE_FOOTER;
    }

  if (decoder->phase == PHASE_FOOTER)
    {
      const guint8 *p = src->data + src->pos;
      guint64 end_ms;
      int res = read_varint (p, src->data + src->len, &end_ms, &p);

      decoder->stop_at = bl_source_offset (src, src->pos);
      if (res == 0)
        return TRUE;
      if (res < 0)
        {
          set_error (error, BL_BSPROF_ERROR_BAD_VARINT,
                     _("Corrupt profile: the footer at byte %" PRIu64
                       " holds a number longer than 10 bytes."),
                     bl_source_offset (src, src->pos));
          return FALSE;
        }
      bl_profile_get_info_mutable (decoder->profile)->end_ms = end_ms;
      src->pos = p - src->data;
      decoder->footer_end = bl_source_offset (src, src->pos);
      decoder->phase = PHASE_DONE;
    }

  /* PHASE_DONE: what follows the footer is only counted */
  src->pos = src->len;

  return TRUE;
}

BlProfile *
_bl_bsprof_decoder_snapshot (BlBsprofDecoder *decoder,
                             guint64          n_bytes)
{
  BlProfile *profile;

  if (decoder->phase == PHASE_HEADER || decoder->phase == PHASE_SKIP_HEADER)
    return NULL;

  decoder_make_nodes (&decoder->dec);
  profile = _bl_profile_copy_unfinished (decoder->profile);
  if (decoder->phase == PHASE_BODY)
    set_incomplete_in_body (profile, decoder->stop_at, decoder->dec.entries);
  else if (decoder->phase == PHASE_FOOTER)
    set_incomplete_in_footer (profile, decoder->stop_at);
  else if (n_bytes > decoder->footer_end)
    add_trailing_warning (profile, n_bytes - decoder->footer_end, decoder->footer_end);

  decoder_flush (&decoder->dec, profile, TRUE);
  add_unmatched_warning (profile);
  bl_profile_finish (profile);

  return profile;
}

gboolean
_bl_bsprof_decoder_is_complete (BlBsprofDecoder *decoder)
{
  return decoder->phase == PHASE_DONE;
}

guint64
_bl_bsprof_decoder_get_entries (BlBsprofDecoder *decoder)
{
  return decoder->dec.entries;
}
