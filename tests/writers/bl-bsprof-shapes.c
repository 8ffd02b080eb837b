/* bl-bsprof-shapes.c — test-only generators of .bsprof streams shaped like
 * real sessions
 *
 * (a) is the stream bench-bsprof always wrote: a random walk through a call
 * tree, most blocks freed soon after, addresses with gaps. The others are
 * the shapes of a long session of a real app that an independent tester
 * found slow: addresses as an allocator hands them out (consecutive 16-byte
 * blocks filling pages), frees in random order among up to a million live
 * blocks with the rest leaked (millions live at the end), 60,000 path
 * elements in 8 threads touched uniformly at random, line offsets over
 * about 3,000 lines, and entries about 40 % CPU, 10 % call counts, 30 %
 * allocations, 20 % frees; then the same with random 32-bit addresses, with
 * frees mostly of the newest blocks, with call paths 200 deep, and with a
 * million path elements.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-bsprof-shapes.h"

static const struct
{
  const char *name;
  const char *description;
} shapes[BL_BSPROF_N_SHAPES] = {
  { "today", "random walk through 60,000 paths, frees of recent blocks, sparse addresses" },
  { "dense", "allocator-dense addresses, random-order frees among 1 M live, millions live at the end" },
  { "random-addr", "as dense, with random 32-bit addresses" },
  { "recent-frees", "as dense, frees mostly of the newest blocks" },
  { "deep", "as dense, call paths up to 200 deep" },
  { "many-paths", "as dense, 1,000,000 path elements" },
};

const char *
bl_bsprof_shape_name (BlBsprofShape shape)
{
  g_return_val_if_fail (shape < BL_BSPROF_N_SHAPES, NULL);
  return shapes[shape].name;
}

const char *
bl_bsprof_shape_describe (BlBsprofShape shape)
{
  g_return_val_if_fail (shape < BL_BSPROF_N_SHAPES, NULL);
  return shapes[shape].description;
}

gboolean
bl_bsprof_shape_from_name (const char    *name,
                           BlBsprofShape *shape)
{
  for (guint i = 0; i < BL_BSPROF_N_SHAPES; i++)
    if (g_str_equal (name, shapes[i].name))
      {
        *shape = i;
        return TRUE;
      }
  return FALSE;
}

static BlBsprofWriter *
new_writer (FILE *file)
{
  BlBsprofHeader h;

  bl_bsprof_header_init (&h);
  h.lines = TRUE;
  h.memory = TRUE;
  h.target = "Benchmark Channel";

  return file != NULL ? bl_bsprof_writer_new_file (&h, file) : bl_bsprof_writer_new (&h);
}

/* ---- (a) ---------------------------------------------------------------- */

#define TODAY_THREADS 12
#define TODAY_FUNCS   3000
#define TODAY_FILES   120
#define TODAY_PATHS   60000

static void
write_today (BlBsprofWriter *w,
             guint64         target_bytes,
             guint32         seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  guint32 *path_caller = g_new0 (guint32, TODAY_PATHS + 1);
  guint64 *live = g_new0 (guint64, 1 << 16);
  guint64 next_addr = 0x10000;
  guint32 *first_child, *next_sibling;
  guint32 current;
  char name[128];

  for (guint t = 0; t < TODAY_THREADS; t++)
    {
      g_snprintf (name, sizeof name, t == 0 ? "Thread main" : "Task%u", t);
      bl_bsprof_writer_string (w, 1 + t, name);
      bl_bsprof_writer_module (w, 1 + t, 1 + t);
    }
  for (guint f = 0; f < TODAY_FILES; f++)
    {
      g_snprintf (name, sizeof name, "pkg:/components/Module%03u.brs", f);
      bl_bsprof_writer_string (w, 100 + f, name);
    }
  for (guint f = 0; f < TODAY_FUNCS; f++)
    {
      g_snprintf (name, sizeof name, "handleEvent_%u", f);
      bl_bsprof_writer_string (w, 1000 + f, name);
    }

  /* path elements: roots per thread, then random chains */
  for (guint32 id = 1; id <= TODAY_PATHS; id++)
    {
      guint32 func = g_rand_int_range (rand, 0, TODAY_FUNCS);
      guint32 file_id = 100 + func % TODAY_FILES;
      guint32 line = 1 + (func * 37) % 2000;

      if (id <= TODAY_THREADS * 4)
        {
          bl_bsprof_writer_root (w, id, 1 + (id - 1) % TODAY_THREADS, file_id, line, 1000 + func);
          path_caller[id] = 0;
        }
      else
        {
          guint32 caller = g_rand_int_range (rand, MAX (1, (gint32) id - 5000), id);

          bl_bsprof_writer_path (w, id, caller, g_rand_int_range (rand, 1, 30), file_id,
                                 line, 1000 + func);
          path_caller[id] = caller;
        }
    }

  /* child lists, to walk the call tree */
  first_child = g_new0 (guint32, TODAY_PATHS + 1);
  next_sibling = g_new0 (guint32, TODAY_PATHS + 1);
  for (guint32 id = TODAY_PATHS; id > TODAY_THREADS * 4; id--)
    {
      next_sibling[id] = first_child[path_caller[id]];
      first_child[path_caller[id]] = id;
    }

  /* The current call path moves a step at a time through the tree (a call,
   * a return, or the same function again), each function spends its time on
   * a handful of lines, and most allocations are freed soon after, with a
   * slow leak of about one block in a hundred. */
  current = 1;
  while (bl_bsprof_writer_get_size (w) < target_bytes)
    {
      for (guint i = 0; i < 10000; i++)
        {
          guint32 pe = current;
          guint kind = g_rand_int_range (rand, 0, 10);
          guint32 offset = 1 + (pe * 7 + g_rand_int_range (rand, 0, 5)) % 30;
          guint step = g_rand_int_range (rand, 0, 100);

          if (step < 12 && first_child[current] != 0)
            {
              guint32 c = first_child[current];
              guint skip = g_rand_int_range (rand, 0, 4);

              while (skip-- > 0 && next_sibling[c] != 0)
                c = next_sibling[c];
              current = c;
            }
          else if (step < 24 && path_caller[current] != 0)
            current = path_caller[current];
          else if (step == 99)
            current = 1 + g_rand_int_range (rand, 0, TODAY_THREADS * 4);

          if (kind < 5)
            bl_bsprof_writer_cpu (w, pe, offset, g_rand_int_range (rand, 1, 5000),
                                  g_rand_int_range (rand, 1, 9000));
          else if (kind < 6)
            bl_bsprof_writer_calls (w, pe, g_rand_int_range (rand, 1, 20));
          else
            {
              guint slot = g_rand_int_range (rand, 0, 4096);

              if (live[slot] != 0)
                {
                  if (g_rand_int_range (rand, 0, 100) > 0)
                    bl_bsprof_writer_free_op (w, pe, offset, live[slot], FALSE);
                  live[slot] = 0;
                }
              else
                {
                  live[slot] = next_addr;
                  next_addr += 16 * g_rand_int_range (rand, 1, 64);
                  bl_bsprof_writer_alloc (w, pe, offset, live[slot],
                                          g_rand_int_range (rand, 8, 4096));
                }
            }
        }
    }

  g_rand_free (rand);
  g_free (path_caller);
  g_free (live);
  g_free (first_child);
  g_free (next_sibling);
}

/* ---- (b)–(f) ------------------------------------------------------------ */

#define SESSION_THREADS 8
#define SESSION_FUNCS   3000
#define SESSION_FILES   50
#define SESSION_OFFSETS 30      /* definition lines 1–30, so ~60 lines a file */
#define FULL_BYTES      (G_GUINT64_CONSTANT (256) * 1000 * 1000)

static guint32
scaled (guint32 full,
        guint64 target_bytes,
        guint32 floor)
{
  if (target_bytes >= FULL_BYTES)
    return full;
  return MAX (floor, (guint32) ((guint64) full * target_bytes / FULL_BYTES));
}

static void
write_session (BlBsprofWriter *w,
               BlBsprofShape   shape,
               guint64         target_bytes,
               guint32         seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  guint32 n_paths = shape == BL_BSPROF_SHAPE_MANY_PATHS ? scaled (1000000, target_bytes, 20000)
                                                        : scaled (60000, target_bytes, 6000);
  guint32 pool_cap = scaled (1000000, target_bytes, 20000);
  guint32 n_roots = SESSION_THREADS * 4;
  guint8 *depth = g_new0 (guint8, n_paths + 1);
  guint64 *pool = g_new (guint64, pool_cap);
  guint32 n_pool = 0;
  guint64 next_addr = G_GUINT64_CONSTANT (0x800000);   /* 4-byte varints for a while */
  char name[128];

  for (guint t = 0; t < SESSION_THREADS; t++)
    {
      g_snprintf (name, sizeof name, t == 0 ? "Thread main" : "Task%u", t);
      bl_bsprof_writer_string (w, 1 + t, name);
      bl_bsprof_writer_module (w, 1 + t, 1 + t);
    }
  for (guint f = 0; f < SESSION_FILES; f++)
    {
      g_snprintf (name, sizeof name, "pkg:/components/Screen%02u.brs", f);
      bl_bsprof_writer_string (w, 100 + f, name);
    }
  for (guint f = 0; f < SESSION_FUNCS; f++)
    {
      g_snprintf (name, sizeof name, "onEvent_%u", f);
      bl_bsprof_writer_string (w, 1000 + f, name);
    }

  for (guint32 id = 1; id <= n_paths; id++)
    {
      guint32 func = g_rand_int_range (rand, 0, SESSION_FUNCS);
      guint32 file_id = 100 + func % SESSION_FILES;
      guint32 line = 1 + (func * 7) % SESSION_OFFSETS;
      guint32 caller = 0;

      if (id > n_roots)
        {
          if (shape == BL_BSPROF_SHAPE_DEEP)
            {
              /* chains that branch a little, down to depth 200 */
              caller = id - 1 - g_rand_int_range (rand, 0, MIN (4, id - n_roots));
              if (depth[caller] >= 199)
                caller = g_rand_int_range (rand, 1, n_roots + 1);
            }
          else
            caller = g_rand_int_range (rand, MAX (1, (gint32) id - 5000), id);
        }

      if (caller == 0)
        bl_bsprof_writer_root (w, id, 1 + (id - 1) % SESSION_THREADS, file_id, line,
                               1000 + func);
      else
        {
          bl_bsprof_writer_path (w, id, caller, g_rand_int_range (rand, 1, 30), file_id,
                                 line, 1000 + func);
          depth[id] = MIN (255, depth[caller] + 1);
        }
    }

  while (bl_bsprof_writer_get_size (w) < target_bytes)
    {
      for (guint i = 0; i < 10000; i++)
        {
          guint32 pe = g_rand_int_range (rand, 1, n_paths + 1);
          guint32 offset = g_rand_int_range (rand, 1, SESSION_OFFSETS + 1);
          guint kind = g_rand_int_range (rand, 0, 10);

          if (kind >= 8 && n_pool == 0)
            kind = 5;

          if (kind < 4)
            bl_bsprof_writer_cpu (w, pe, offset, g_rand_int_range (rand, 1, 5000),
                                  g_rand_int_range (rand, 1, 9000));
          else if (kind < 5)
            bl_bsprof_writer_calls (w, pe, g_rand_int_range (rand, 1, 20));
          else if (kind < 8)
            {
              guint64 addr;

              if (shape == BL_BSPROF_SHAPE_RANDOM_ADDR)
                addr = g_rand_int (rand) | 1u;
              else
                {
                  addr = next_addr;
                  next_addr += 16;
                }
              bl_bsprof_writer_alloc (w, pe, offset, addr, g_rand_int_range (rand, 8, 256));

              /* a full pool leaks one of its blocks at random */
              if (n_pool == pool_cap)
                pool[g_rand_int_range (rand, 0, n_pool)] = addr;
              else
                pool[n_pool++] = addr;
            }
          else
            {
              guint32 k;

              if (shape == BL_BSPROF_SHAPE_RECENT_FREES && g_rand_int_range (rand, 0, 10) != 0)
                k = n_pool - 1 - g_rand_int_range (rand, 0, MIN (n_pool, 16));
              else
                k = g_rand_int_range (rand, 0, n_pool);
              bl_bsprof_writer_free_op (w, pe, offset, pool[k], g_rand_int_range (rand, 0, 8) == 0);
              pool[k] = pool[--n_pool];
            }
        }
    }

  g_rand_free (rand);
  g_free (depth);
  g_free (pool);
}

BlBsprofWriter *
bl_bsprof_write_shape (BlBsprofShape shape,
                       guint64       target_bytes,
                       guint32       seed,
                       FILE         *file)
{
  BlBsprofWriter *w;

  g_return_val_if_fail (shape < BL_BSPROF_N_SHAPES, NULL);

  w = new_writer (file);
  if (shape == BL_BSPROF_SHAPE_TODAY)
    write_today (w, target_bytes, seed);
  else
    write_session (w, shape, target_bytes, seed);
  bl_bsprof_writer_end (w, G_GUINT64_CONSTANT (1700000000000) + 3600 * 1000);

  return w;
}
