/* make-sample-bsprof.c — writes data/samples/roku-grid-app.bsprof
 *
 * A SceneGraph channel as a developer would profile it: the main thread,
 * the scene component, a grid screen and several Task components, with line
 * data and memory operations. The image cache task leaks: it keeps every
 * poster it decodes, so its live bytes grow through the run.
 *
 * With --after it writes data/samples/roku-grid-app-after.bsprof, the same
 * channel after a change, for comparing: the home grid builds its row items
 * twice as slowly and measures each row, the feed parser got faster, the
 * deep link handler is gone and the image cache resizes its posters.
 *
 * Usage: make-sample-bsprof [--after] OUT.bsprof
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bl-bsprof-writer.h"

typedef struct
{
  const char *thread;
  const char *stack;       /* "func@file:line>func@file:line…" outermost first */
  guint       weight;      /* relative CPU share */
  guint       wall_factor; /* wall time per CPU time, in tenths */
  guint       n_lines;     /* hot lines near the start of the leaf */
  guint       alloc_size;  /* bytes per allocation, 0: none */
  guint       free_pct;    /* % of allocations freed later */
} SamplePath;

static const SamplePath paths[] = {
  { "Thread main", "Main@pkg:/source/main.brs:1", 2, 40, 3, 0, 0 },
  { "Thread main", "Main@pkg:/source/main.brs:1>RunEventLoop@pkg:/source/main.brs:30", 18, 90, 4, 96, 100 },
  { "Thread main", "Main@pkg:/source/main.brs:1>RunEventLoop@pkg:/source/main.brs:30>HandleDeepLink@pkg:/source/deeplink.brs:5", 3, 12, 3, 256, 100 },
  { "Thread main", "Main@pkg:/source/main.brs:1>InitTheme@pkg:/source/theme.brs:1", 4, 11, 5, 512, 90 },
  { "MainScene", "init@pkg:/components/MainScene.brs:1", 6, 11, 6, 1024, 80 },
  { "MainScene", "init@pkg:/components/MainScene.brs:1>setupNavigation@pkg:/components/MainScene.brs:40", 5, 11, 4, 384, 100 },
  { "MainScene", "onKeyEvent@pkg:/components/MainScene.brs:88", 9, 12, 6, 64, 100 },
  { "MainScene", "onKeyEvent@pkg:/components/MainScene.brs:88>showDetails@pkg:/components/MainScene.brs:120", 7, 13, 5, 2048, 95 },
  { "MainScene", "onKeyEvent@pkg:/components/MainScene.brs:88>showDetails@pkg:/components/MainScene.brs:120>buildDetailsView@pkg:/components/DetailsScreen.brs:12", 14, 12, 8, 4096, 100 },
  { "HomeGridScreen", "init@pkg:/components/HomeGridScreen.brs:1", 4, 11, 4, 768, 100 },
  { "HomeGridScreen", "onContentChanged@pkg:/components/HomeGridScreen.brs:35", 6, 11, 3, 128, 100 },
  { "HomeGridScreen", "onContentChanged@pkg:/components/HomeGridScreen.brs:35>buildRows@pkg:/components/HomeGridScreen.brs:60", 22, 11, 7, 1536, 97 },
  { "HomeGridScreen", "onContentChanged@pkg:/components/HomeGridScreen.brs:35>buildRows@pkg:/components/HomeGridScreen.brs:60>createRowItem@pkg:/components/RowItem.brs:3", 31, 11, 6, 640, 99 },
  { "HomeGridScreen", "onItemFocused@pkg:/components/HomeGridScreen.brs:140", 8, 12, 4, 96, 100 },
  { "ContentTask", "execute@pkg:/components/tasks/ContentTask.brs:1", 3, 60, 3, 0, 0 },
  { "ContentTask", "execute@pkg:/components/tasks/ContentTask.brs:1>fetchFeed@pkg:/components/tasks/ContentTask.brs:25", 9, 240, 5, 8192, 100 },
  { "ContentTask", "execute@pkg:/components/tasks/ContentTask.brs:1>fetchFeed@pkg:/components/tasks/ContentTask.brs:25>parseFeed@pkg:/source/util/FeedParser.brs:10", 35, 12, 9, 3072, 98 },
  { "ContentTask", "execute@pkg:/components/tasks/ContentTask.brs:1>fetchFeed@pkg:/components/tasks/ContentTask.brs:25>parseFeed@pkg:/source/util/FeedParser.brs:10>normalizeItem@pkg:/source/util/FeedParser.brs:80", 27, 11, 6, 512, 100 },
  { "ImageCacheTask", "execute@pkg:/components/tasks/ImageCacheTask.brs:1", 2, 50, 2, 0, 0 },
  { "ImageCacheTask", "execute@pkg:/components/tasks/ImageCacheTask.brs:1>prefetchPosters@pkg:/components/tasks/ImageCacheTask.brs:20", 7, 180, 4, 256, 100 },
  { "ImageCacheTask", "execute@pkg:/components/tasks/ImageCacheTask.brs:1>prefetchPosters@pkg:/components/tasks/ImageCacheTask.brs:20>cacheBitmap@pkg:/components/tasks/ImageCacheTask.brs:55", 11, 14, 4, 24576, 3 },
  { "AnalyticsTask", "execute@pkg:/components/tasks/AnalyticsTask.brs:1", 2, 300, 2, 0, 0 },
  { "AnalyticsTask", "execute@pkg:/components/tasks/AnalyticsTask.brs:1>sendBeacon@pkg:/components/tasks/AnalyticsTask.brs:30", 5, 220, 5, 1024, 100 },
  { "VideoPlayerTask", "execute@pkg:/components/tasks/VideoPlayerTask.brs:1>loadStream@pkg:/components/tasks/VideoPlayerTask.brs:18", 8, 150, 5, 2048, 100 },
  { "VideoPlayerTask", "execute@pkg:/components/tasks/VideoPlayerTask.brs:1>loadStream@pkg:/components/tasks/VideoPlayerTask.brs:18>parseManifest@pkg:/source/util/HlsParser.brs:7", 16, 11, 7, 4096, 100 },
};

/* --after: new weights for the paths whose leaf is given (0: gone), and
 * paths only the changed channel has */
static const struct
{
  const char *leaf;
  guint       weight;
} after_weights[] = {
  { "createRowItem@pkg:/components/RowItem.brs:3", 62 },
  { "parseFeed@pkg:/source/util/FeedParser.brs:10", 14 },
  { "HandleDeepLink@pkg:/source/deeplink.brs:5", 0 },
};

static const SamplePath after_paths[] = {
  { "HomeGridScreen", "onContentChanged@pkg:/components/HomeGridScreen.brs:35>buildRows@pkg:/components/HomeGridScreen.brs:60>measureRow@pkg:/components/RowItem.brs:90", 12, 11, 4, 256, 100 },
  { "ImageCacheTask", "execute@pkg:/components/tasks/ImageCacheTask.brs:1>prefetchPosters@pkg:/components/tasks/ImageCacheTask.brs:20>resizePoster@pkg:/components/tasks/ImageCacheTask.brs:80", 9, 14, 3, 8192, 100 },
};

/* The paths of the run: the table above, changed by --after. */
static GArray *
sample_paths (gboolean after)
{
  GArray *table = g_array_new (FALSE, FALSE, sizeof (SamplePath));

  g_array_append_vals (table, paths, G_N_ELEMENTS (paths));
  if (!after)
    return table;

  for (guint i = 0; i < table->len; i++)
    for (guint k = 0; k < G_N_ELEMENTS (after_weights); k++)
      {
        SamplePath *p = &g_array_index (table, SamplePath, i);

        if (g_str_has_suffix (p->stack, after_weights[k].leaf))
          p->weight = after_weights[k].weight;
      }
  g_array_append_vals (table, after_paths, G_N_ELEMENTS (after_paths));

  return table;
}

typedef struct
{
  BlBsprofWriter *w;
  GHashTable     *strings;  /* char* → id */
  GHashTable     *modules;  /* thread name → module id */
  GHashTable     *elements; /* "thread|stack prefix" → path element id */
  guint32         next_string;
  guint32         next_module;
  guint32         next_element;
} Ids;

static guint32
string_id (Ids        *ids,
           const char *s)
{
  gpointer found = g_hash_table_lookup (ids->strings, s);

  if (found)
    return GPOINTER_TO_UINT (found);

  bl_bsprof_writer_string (ids->w, ++ids->next_string, s);
  g_hash_table_insert (ids->strings, g_strdup (s), GUINT_TO_POINTER (ids->next_string));

  return ids->next_string;
}

/* Defines the path elements of one stack; returns the leaf's id and the
 * leaf's definition line. */
static guint32
define_path (Ids              *ids,
             const SamplePath *path)
{
  g_auto(GStrv) frames = g_strsplit (path->stack, ">", -1);
  g_autoptr(GString) key = g_string_new (path->thread);
  guint32 module, caller = 0;

  module = GPOINTER_TO_UINT (g_hash_table_lookup (ids->modules, path->thread));
  if (module == 0)
    {
      module = ++ids->next_module;
      bl_bsprof_writer_module (ids->w, module, string_id (ids, path->thread));
      g_hash_table_insert (ids->modules, g_strdup (path->thread), GUINT_TO_POINTER (module));
    }

  for (guint i = 0; frames[i]; i++)
    {
      g_auto(GStrv) parts = g_strsplit_set (frames[i], "@", 2);
      const char *colon = strrchr (parts[1], ':');
      g_autofree char *file = g_strndup (parts[1], colon - parts[1]);
      guint32 line = atoi (colon + 1);
      guint32 id;

      g_string_append_printf (key, "|%s", frames[i]);
      id = GPOINTER_TO_UINT (g_hash_table_lookup (ids->elements, key->str));
      if (id == 0)
        {
          id = ++ids->next_element;
          if (caller == 0)
            bl_bsprof_writer_root (ids->w, id, module, string_id (ids, file), line,
                                   string_id (ids, parts[0]));
          else
            bl_bsprof_writer_path (ids->w, id, caller, 2 + i * 3, string_id (ids, file), line,
                                   string_id (ids, parts[0]));
          g_hash_table_insert (ids->elements, g_strdup (key->str), GUINT_TO_POINTER (id));
        }
      caller = id;
    }

  return caller;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  gboolean after = argc == 3 && g_str_equal (argv[1], "--after");
  g_autoptr(GArray) table = sample_paths (after);
  const SamplePath *run = (const SamplePath *) table->data;
  g_autofree guint32 *leaf = g_new0 (guint32, table->len);
  GRand *rand = g_rand_new_with_seed (20261121);
  GArray *live_addr = g_array_new (FALSE, FALSE, sizeof (guint64));
  GArray *live_path = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint64 next_addr = 0x2000000;
  guint total_weight = 0;
  BlBsprofHeader h;
  Ids ids = { 0, };

  if (argc != 2 && !after)
    {
      fprintf (stderr, "usage: make-sample-bsprof [--after] OUT.bsprof\n");
      return 2;
    }

  bl_bsprof_header_init (&h);
  h.lines = TRUE;
  h.memory = TRUE;
  h.target = "Roku Developers Grid";
  h.version = "3.4.1";
  h.supplemental = "dev channel, sideloaded";
  h.vendor = "Roku";
  h.model = "4850X";
  h.firmware = "14.0.4";
  h.requested_ratio = 1.0f;
  h.actual_ratio = 1.0f;
  h.start_ms = G_GUINT64_CONSTANT (1795266000000);
  if (after)
    {
      h.version = "3.4.2";
      h.start_ms += 26 * 3600 * 1000;
    }

  ids.w = bl_bsprof_writer_new (&h);
  ids.strings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  ids.modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  ids.elements = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < table->len; i++)
    {
      /* a path of weight 0 is gone from this run */
      if (run[i].weight > 0)
        leaf[i] = define_path (&ids, &run[i]);
      total_weight += run[i].weight;
    }

  /* 90 seconds of samples, 40 per second: each sample credits CPU to one
   * path chosen by weight, on one of its hot lines; allocations happen on
   * the same paths and most are freed a little later. */
  for (guint tick = 0; tick < 90 * 40; tick++)
    {
      guint pick = g_rand_int_range (rand, 0, total_weight);
      const SamplePath *p = NULL;
      guint index = 0;

      for (index = 0; index < table->len; index++)
        {
          if (pick < run[index].weight)
            break;
          pick -= run[index].weight;
        }
      p = &run[index];

      {
        guint32 offset = 2 + (guint32) (g_rand_int_range (rand, 0, p->n_lines) *
                                        g_rand_int_range (rand, 1, 3));
        guint cpu = 200 + g_rand_int_range (rand, 0, 600);
        guint wall = cpu * p->wall_factor / 10 + g_rand_int_range (rand, 0, 50);

        bl_bsprof_writer_cpu (ids.w, leaf[index], offset, cpu, wall);
        if (tick % 7 == 0)
          bl_bsprof_writer_calls (ids.w, leaf[index], 1 + g_rand_int_range (rand, 0, 12));

        if (p->alloc_size > 0 && g_rand_int_range (rand, 0, 3) == 0)
          {
            guint size = p->alloc_size / 2 + g_rand_int_range (rand, 0, p->alloc_size);

            bl_bsprof_writer_alloc (ids.w, leaf[index], offset, next_addr, size);
            if ((guint) g_rand_int_range (rand, 0, 100) < p->free_pct)
              {
                g_array_append_val (live_addr, next_addr);
                g_array_append_val (live_path, leaf[index]);
              }
            next_addr += (size + 15) & ~15u;
          }
      }

      /* free what was allocated a while ago */
      while (live_addr->len > 40)
        {
          guint k = g_rand_int_range (rand, 0, live_addr->len);

          bl_bsprof_writer_free_op (ids.w, g_array_index (live_path, guint32, k), 1,
                                    g_array_index (live_addr, guint64, k), FALSE);
          g_array_remove_index_fast (live_addr, k);
          g_array_remove_index_fast (live_path, k);
        }
    }

  for (guint k = 0; k < live_addr->len; k++)
    bl_bsprof_writer_free_op (ids.w, g_array_index (live_path, guint32, k), 1,
                              g_array_index (live_addr, guint64, k), FALSE);

  bl_bsprof_writer_end (ids.w, h.start_ms + 90 * 1000 + 412);
  if (!bl_bsprof_writer_save (ids.w, argv[argc - 1], &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }

  bl_bsprof_writer_free (ids.w);
  g_hash_table_unref (ids.strings);
  g_hash_table_unref (ids.modules);
  g_hash_table_unref (ids.elements);
  g_array_unref (live_addr);
  g_array_unref (live_path);
  g_rand_free (rand);

  return 0;
}
