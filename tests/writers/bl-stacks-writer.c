/* bl-stacks-writer.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bl-bsprof-writer.h"
#include "bl-stacks-writer.h"

typedef struct
{
  BlBsprofWriter *writer;
  GHashTable     *strings;   /* text → string id */
  GHashTable     *modules;   /* thread name → module id */
  GHashTable     *paths;     /* "thread;f@file;…" → path element id */
  guint32         next_string;
  guint32         next_module;
  guint32         next_path;
} Builder;

static guint32
string_id (Builder    *b,
           const char *text)
{
  gpointer id = g_hash_table_lookup (b->strings, text);

  if (id == NULL)
    {
      id = GUINT_TO_POINTER (++b->next_string);
      g_hash_table_insert (b->strings, g_strdup (text), id);
      bl_bsprof_writer_string (b->writer, GPOINTER_TO_UINT (id), text);
    }

  return GPOINTER_TO_UINT (id);
}

/* The path element for frames[0..n) (n ≥ 2), written on first use. */
static guint32
path_id (Builder     *b,
         char       **frames,
         guint        n)
{
  g_autofree char *key = NULL;
  g_autofree char *func = NULL;
  const char *file = "pkg:/source/main.brs";
  const char *at;
  gpointer id;
  guint32 module, caller;

  {
    char *saved = frames[n];

    frames[n] = NULL;
    key = g_strjoinv (";", frames);
    frames[n] = saved;
  }

  id = g_hash_table_lookup (b->paths, key);
  if (id != NULL)
    return GPOINTER_TO_UINT (id);

  at = strchr (frames[n - 1], '@');
  if (at != NULL)
    {
      func = g_strndup (frames[n - 1], at - frames[n - 1]);
      file = at + 1;
    }
  else
    func = g_strdup (frames[n - 1]);

  id = GUINT_TO_POINTER (++b->next_path);
  if (n == 2)
    {
      gpointer mod = g_hash_table_lookup (b->modules, frames[0]);

      if (mod == NULL)
        {
          mod = GUINT_TO_POINTER (++b->next_module);
          g_hash_table_insert (b->modules, g_strdup (frames[0]), mod);
          bl_bsprof_writer_module (b->writer, GPOINTER_TO_UINT (mod),
                                   string_id (b, frames[0]));
        }
      module = GPOINTER_TO_UINT (mod);
      bl_bsprof_writer_root (b->writer, GPOINTER_TO_UINT (id), module,
                             string_id (b, file), 1, string_id (b, func));
    }
  else
    {
      caller = path_id (b, frames, n - 1);
      bl_bsprof_writer_path (b->writer, GPOINTER_TO_UINT (id), caller, 0,
                             string_id (b, file), 1, string_id (b, func));
    }

  g_hash_table_insert (b->paths, g_steal_pointer (&key), id);

  return GPOINTER_TO_UINT (id);
}

static BlBsprofWriter *
build (const char * const *lines)
{
  BlBsprofHeader header;
  Builder b = { 0 };

  bl_bsprof_header_init (&header);
  header.target = "Stacks";
  header.start_ms = 1700000000000;
  b.writer = bl_bsprof_writer_new (&header);
  b.strings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  b.modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  b.paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *space = strrchr (lines[i], ' ');
      g_autofree char *stack = NULL;
      g_auto(GStrv) frames = NULL;
      guint64 cpu;
      guint n;
      guint32 pe;

      g_assert (space != NULL);
      stack = g_strndup (lines[i], space - lines[i]);
      cpu = g_ascii_strtoull (space + 1, NULL, 10);
      frames = g_strsplit (stack, ";", -1);
      n = g_strv_length (frames);
      g_assert (n >= 2);

      pe = path_id (&b, frames, n);
      bl_bsprof_writer_cpu (b.writer, pe, 0, cpu, cpu * 2);
      bl_bsprof_writer_calls (b.writer, pe, 1);
    }

  bl_bsprof_writer_end (b.writer, 1700000010000);

  g_hash_table_unref (b.strings);
  g_hash_table_unref (b.modules);
  g_hash_table_unref (b.paths);

  return b.writer;
}

GBytes *
bl_stacks_write_bsprof (const char * const *lines)
{
  BlBsprofWriter *w = build (lines);
  GBytes *bytes = bl_bsprof_writer_finish (w);

  bl_bsprof_writer_free (w);

  return bytes;
}

gboolean
bl_stacks_save_bsprof (const char * const *lines,
                       const char         *path,
                       GError            **error)
{
  g_autoptr(GBytes) bytes = bl_stacks_write_bsprof (lines);

  return g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                              g_bytes_get_size (bytes), error);
}
