/* test-bsprof-shapes.c — the .bsprof decoder against a plain reference
 * reader, on small instances of every shape bench-bsprof times
 *
 * The reference reads the writer's well-formed bytes as the format
 * specification describes them, with GHashTables and nothing clever: one
 * live block per address (a block allocated again without a free stays
 * live; a free of an address with no live block is unmatched), sums per
 * path element and per source line. Every metric of every stack (as folded
 * output) and of every line must come out the same as the decoder's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "bl-bsprof-shapes.h"
#include "bl-model.h"

/* the order of the sums below */
static const BlMetricId metrics[] = {
  BL_METRIC_CPU, BL_METRIC_WALL, BL_METRIC_CALLS,
  BL_METRIC_ALLOC_BYTES, BL_METRIC_ALLOC_COUNT,
  BL_METRIC_FREE_BYTES, BL_METRIC_FREE_COUNT,
  BL_METRIC_LIVE_BYTES, BL_METRIC_LIVE_COUNT,
};
#define N_SUMS G_N_ELEMENTS (metrics)
enum { CPU, WALL, CALLS, ALLOC_BYTES, ALLOC_COUNT, FREE_BYTES, FREE_COUNT, LIVE_BYTES, LIVE_COUNT };

typedef struct
{
  guint32 caller;
  guint32 module;
  guint32 file;
  guint32 line;
  guint32 func;
  guint64 sums[N_SUMS];
} RefPath;

typedef struct
{
  guint32 pe;
  char   *line;     /* "file:line" or NULL */
  guint64 size;
} RefBlock;

typedef struct
{
  GHashTable *strings;   /* id → string */
  GHashTable *modules;   /* id → name string id */
  GHashTable *paths;     /* id → RefPath */
  GHashTable *lines;     /* "file:line" → guint64[N_SUMS] */
  GHashTable *live;      /* address → RefBlock */
  guint64     unmatched;
} Ref;

static void
ref_block_free (gpointer data)
{
  RefBlock *block = data;

  g_free (block->line);
  g_free (block);
}

static guint64
varint (const guint8 **p)
{
  guint64 value = 0;
  guint shift = 0;

  while (**p & 0x80)
    {
      value |= (guint64) (**p & 0x7f) << shift;
      shift += 7;
      (*p)++;
    }
  value |= (guint64) **p << shift;
  (*p)++;

  return value;
}

static guint64 *
line_sums (Ref        *ref,
           RefPath    *path,
           guint64     offset,
           char      **key_out)
{
  char *key;
  guint64 *sums;

  if (offset == 0 || path->line + offset - 1 == 0)
    return NULL;

  key = g_strdup_printf ("%s:%" G_GUINT64_FORMAT,
                         (const char *) g_hash_table_lookup (ref->strings,
                                                             GUINT_TO_POINTER (path->file)),
                         path->line + offset - 1);
  sums = g_hash_table_lookup (ref->lines, key);
  if (sums == NULL)
    {
      sums = g_new0 (guint64, N_SUMS);
      g_hash_table_insert (ref->lines, g_strdup (key), sums);
    }
  if (key_out != NULL)
    *key_out = key;
  else
    g_free (key);

  return sums;
}

static void
credit_live (Ref      *ref,
             RefBlock *block)
{
  RefPath *path = g_hash_table_lookup (ref->paths, GUINT_TO_POINTER (block->pe));

  path->sums[LIVE_BYTES] += block->size;
  path->sums[LIVE_COUNT]++;
  if (block->line != NULL)
    {
      guint64 *sums = g_hash_table_lookup (ref->lines, block->line);

      sums[LIVE_BYTES] += block->size;
      sums[LIVE_COUNT]++;
    }
}

static void
ref_read (Ref    *ref,
          GBytes *bytes)
{
  const guint8 *data = g_bytes_get_data (bytes, NULL);
  const guint8 *p = data + 8;
  guint64 header_size, tag, v;
  gboolean lines;

  varint (&p);
  varint (&p);
  varint (&p);
  header_size = varint (&p);
  p += 8;
  lines = varint (&p) != 0;
  p = data + header_size;

  while ((tag = varint (&p)) != 0)
    {
      guint32 id = (guint32) (tag >> 3);
      RefPath *path;
      guint64 offset = 0, *sums;

      switch (tag & 7)
        {
        case 0:
          g_hash_table_insert (ref->strings, GUINT_TO_POINTER (id), g_strdup ((const char *) p));
          p += strlen ((const char *) p) + 1;
          break;

        case 1:
          g_hash_table_insert (ref->modules, GUINT_TO_POINTER (id),
                               GUINT_TO_POINTER ((guint32) varint (&p)));
          break;

        case 2:
          path = g_new0 (RefPath, 1);
          path->caller = varint (&p);
          if (path->caller == 0)
            path->module = varint (&p);
          else if (lines)
            varint (&p);
          path->file = varint (&p);
          path->line = varint (&p);
          path->func = varint (&p);
          g_hash_table_insert (ref->paths, GUINT_TO_POINTER (id), path);
          break;

        case 3:
          {
            guint op = (tag >> 3) & 3;
            guint64 addr, size = 0;
            RefBlock *old;
            char *key = NULL;

            id = (guint32) (tag >> 5);
            path = g_hash_table_lookup (ref->paths, GUINT_TO_POINTER (id));
            g_assert_nonnull (path);
            if (lines)
              offset = varint (&p);
            addr = varint (&p);
            if (op == 0)
              size = varint (&p);
            old = g_hash_table_lookup (ref->live, &addr);

            if (op == 0)
              {
                RefBlock *block = g_new0 (RefBlock, 1);
                guint64 *k = g_new (guint64, 1);

                path->sums[ALLOC_BYTES] += size;
                path->sums[ALLOC_COUNT]++;
                if ((sums = line_sums (ref, path, offset, &key)) != NULL)
                  {
                    sums[ALLOC_BYTES] += size;
                    sums[ALLOC_COUNT]++;
                  }
                if (old != NULL)
                  credit_live (ref, old);   /* allocated again without a free */
                block->pe = id;
                block->line = key;
                block->size = size;
                *k = addr;
                g_hash_table_replace (ref->live, k, block);
              }
            else if (old != NULL)
              g_hash_table_remove (ref->live, &addr);
            else
              ref->unmatched++;
          }
          break;

        case 4:
          path = g_hash_table_lookup (ref->paths, GUINT_TO_POINTER (id));
          g_assert_nonnull (path);
          if (lines)
            offset = varint (&p);
          v = varint (&p);
          path->sums[CPU] += v;
          if ((sums = line_sums (ref, path, offset, NULL)) != NULL)
            sums[CPU] += v;
          v = varint (&p);
          path->sums[WALL] += v;
          if (sums != NULL)
            sums[WALL] += v;
          break;

        case 5:
          path = g_hash_table_lookup (ref->paths, GUINT_TO_POINTER (id));
          g_assert_nonnull (path);
          path->sums[CALLS] += varint (&p);
          break;

        default:
          g_assert_not_reached ();
        }
    }

  /* what is still live; freed = allocated − live */
  {
    GHashTableIter iter;
    gpointer value;

    g_hash_table_iter_init (&iter, ref->live);
    while (g_hash_table_iter_next (&iter, NULL, &value))
      credit_live (ref, value);

    g_hash_table_iter_init (&iter, ref->paths);
    while (g_hash_table_iter_next (&iter, NULL, &value))
      {
        RefPath *path = value;

        path->sums[FREE_BYTES] = path->sums[ALLOC_BYTES] - path->sums[LIVE_BYTES];
        path->sums[FREE_COUNT] = path->sums[ALLOC_COUNT] - path->sums[LIVE_COUNT];
      }
    g_hash_table_iter_init (&iter, ref->lines);
    while (g_hash_table_iter_next (&iter, NULL, &value))
      {
        guint64 *sums = value;

        sums[FREE_BYTES] = sums[ALLOC_BYTES] - sums[LIVE_BYTES];
        sums[FREE_COUNT] = sums[ALLOC_COUNT] - sums[LIVE_COUNT];
      }
  }
}

/* "thread;f1;…;fn" of a path element */
static char *
ref_stack (Ref     *ref,
           guint32  id)
{
  GPtrArray *frames = g_ptr_array_new ();
  GString *stack = g_string_new (NULL);
  RefPath *path = g_hash_table_lookup (ref->paths, GUINT_TO_POINTER (id));

  for (;;)
    {
      g_ptr_array_add (frames, g_hash_table_lookup (ref->strings, GUINT_TO_POINTER (path->func)));
      if (path->caller == 0)
        break;
      path = g_hash_table_lookup (ref->paths, GUINT_TO_POINTER (path->caller));
    }
  g_string_append (stack, g_hash_table_lookup (ref->strings,
                                               g_hash_table_lookup (ref->modules,
                                                                    GUINT_TO_POINTER (path->module))));
  for (guint i = frames->len; i > 0; i--)
    {
      g_string_append_c (stack, ';');
      g_string_append (stack, frames->pdata[i - 1]);
    }
  g_ptr_array_free (frames, TRUE);

  return g_string_free (stack, FALSE);
}

/* folded output as stack → value */
static GHashTable *
parse_folded (const char *text)
{
  GHashTable *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_auto(GStrv) rows = g_strsplit (text, "\n", -1);

  for (guint i = 0; rows[i] != NULL; i++)
    {
      const char *space = strrchr (rows[i], ' ');
      guint64 *value;

      if (rows[i][0] == '\0')
        continue;
      g_assert_nonnull (space);
      value = g_new (guint64, 1);
      *value = g_ascii_strtoull (space + 1, NULL, 10);
      g_assert_false (g_hash_table_contains (table, rows[i]));
      g_hash_table_insert (table, g_strndup (rows[i], space - rows[i]), value);
    }

  return table;
}

static char *
folded (BlProfile  *profile,
        BlMetricId  metric)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_assert_true (bl_folded_write (profile, metric, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, &error));
  g_output_stream_close (out, NULL, NULL);

  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
}

static void
test_shape (gconstpointer data)
{
  BlBsprofShape shape = GPOINTER_TO_UINT (data) & 0xff;
  gboolean worker = (GPOINTER_TO_UINT (data) & 0x100) != 0;
  gboolean guess = (GPOINTER_TO_UINT (data) & 0x200) != 0;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) stacks = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  BlBsprofWriter *w;
  Ref ref = {
    g_hash_table_new_full (NULL, NULL, NULL, g_free),
    g_hash_table_new (NULL, NULL),
    g_hash_table_new_full (NULL, NULL, NULL, g_free),
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free),
    g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, ref_block_free),
    0,
  };
  GHashTableIter iter;
  gpointer key, value;
  guint64 live_total = 0;

  /* small, but with tens of thousands of live blocks: the live-block
   * tables grow several times, and moves between buckets happen */
  w = bl_bsprof_write_shape (shape, 3 * 1000 * 1000, 7 + shape, NULL);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  /* the live blocks in line, or handed to the worker thread once a few
   * thousand are live (as large files do with many more) */
  bl_bsprof_set_worker (worker ? 0 : G_MAXUINT64, 4000);
  /* or the table grows at once to one block per 64 bytes (47,000 blocks)
   * once 2,000 are live, as large files do from 128 Ki on */
  if (guess)
    bl_bsprof_set_live_guess (2000, 64);
  profile = bl_bsprof_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   &error);
  bl_bsprof_set_worker (BL_BSPROF_WORKER_MIN_BYTES, BL_BSPROF_WORKER_MIN_LIVE);
  bl_bsprof_set_live_guess (BL_BSPROF_LIVE_GUESS_FROM, BL_BSPROF_LIVE_GUESS_BYTES);
  g_assert_no_error (error);
  g_assert_nonnull (profile);
  g_assert_false (bl_profile_is_incomplete (profile));

  ref_read (&ref, bytes);
  g_assert_cmpuint (bl_profile_get_info (profile)->unmatched_frees, ==, ref.unmatched);

  g_hash_table_iter_init (&iter, ref.paths);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_hash_table_insert (stacks, key, ref_stack (&ref, GPOINTER_TO_UINT (key)));

  /* every metric of every stack */
  for (guint m = 0; m < N_SUMS; m++)
    {
      g_autofree char *text = folded (profile, metrics[m]);
      g_autoptr(GHashTable) got = parse_folded (text);
      g_autoptr(GHashTable) want = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
      guint n_want = 0;

      g_hash_table_iter_init (&iter, ref.paths);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          RefPath *path = value;
          const char *stack = g_hash_table_lookup (stacks, key);
          guint64 *sum = g_hash_table_lookup (want, stack);

          if (sum == NULL)
            {
              sum = g_new0 (guint64, 1);
              g_hash_table_insert (want, (gpointer) stack, sum);
            }
          *sum += path->sums[m];
        }

      g_hash_table_iter_init (&iter, want);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          guint64 *got_value = g_hash_table_lookup (got, key);

          if (*(guint64 *) value == 0)
            continue;
          n_want++;
          if (got_value == NULL)
            g_error ("%s: stack %s missing (%s)", bl_bsprof_shape_name (shape),
                     (const char *) key, bl_metric_get_name (metrics[m]));
          g_assert_cmpuint (*got_value, ==, *(guint64 *) value);
        }
      g_assert_cmpuint (g_hash_table_size (got), ==, n_want);
    }

  /* every metric of every line */
  g_assert_cmpuint (bl_profile_get_n_lines (profile), ==, g_hash_table_size (ref.lines));
  for (guint i = 0; i < bl_profile_get_n_lines (profile); i++)
    {
      const BlLine *line = bl_profile_get_line (profile, i);
      g_autofree char *name = g_strdup_printf ("%s:%u", bl_profile_get_string (profile, line->file),
                                               line->line);
      const guint64 *sums = g_hash_table_lookup (ref.lines, name);

      g_assert_nonnull (sums);
      for (guint m = 0; m < N_SUMS; m++)
        if (m != CALLS)
          g_assert_cmpuint (bl_profile_get_line_value (profile, metrics[m], i), ==, sums[m]);
      live_total += sums[LIVE_COUNT];
    }

  /* the instance is what it should be: many blocks live at the end */
  if (shape != BL_BSPROF_SHAPE_TODAY)
    g_assert_cmpuint (live_total, >, 20000);

  g_hash_table_unref (ref.strings);
  g_hash_table_unref (ref.modules);
  g_hash_table_unref (ref.paths);
  g_hash_table_unref (ref.lines);
  g_hash_table_unref (ref.live);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  for (guint s = 0; s < BL_BSPROF_N_SHAPES; s++)
    {
      g_autofree char *path = g_strdup_printf ("/model/bsprof/shape/%s", bl_bsprof_shape_name (s));

      g_autofree char *worker_path = g_strdup_printf ("/model/bsprof/shape-worker/%s",
                                                      bl_bsprof_shape_name (s));

      g_autofree char *guess_path = g_strdup_printf ("/model/bsprof/shape-guess/%s",
                                                     bl_bsprof_shape_name (s));

      g_test_add_data_func (path, GUINT_TO_POINTER (s), test_shape);
      g_test_add_data_func (worker_path, GUINT_TO_POINTER (s | 0x100), test_shape);
      g_test_add_data_func (guess_path, GUINT_TO_POINTER (s | 0x100 | 0x200), test_shape);
    }

  return g_test_run ();
}
