/* make-seeds.c — writes the .bsprof fuzz seeds with the test writer
 *
 * Usage: make-seeds DIR
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>

#include "bl-bsprof-writer.h"

static void
save (BlBsprofWriter *w,
      const char     *dir,
      const char     *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  if (!bl_bsprof_writer_save (w, path, &error))
    g_error ("%s", error->message);
  bl_bsprof_writer_free (w);
}

static BlBsprofWriter *
app (gboolean lines,
     gboolean memory,
     guint    padding)
{
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  h.lines = lines;
  h.memory = memory;
  h.padding = padding;
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "main");
  bl_bsprof_writer_string (w, 4, "draw");
  bl_bsprof_writer_string (w, 5, "Task");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_module (w, 2, 5);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 3);
  bl_bsprof_writer_path (w, 2, 1, 3, 2, 20, 4);
  bl_bsprof_writer_path (w, 3, 2, 1, 2, 1, 3);
  bl_bsprof_writer_root (w, 4, 2, 2, 1, 4);
  bl_bsprof_writer_cpu (w, 2, 2, 100, 120);
  bl_bsprof_writer_cpu (w, 3, 1, 5, 6);
  bl_bsprof_writer_cpu (w, 4, 1, 7, 9);
  bl_bsprof_writer_calls (w, 2, 3);
  if (memory)
    {
      bl_bsprof_writer_alloc (w, 2, 1, 0x100, 32);
      bl_bsprof_writer_alloc (w, 3, 1, 0x200, 64);
      bl_bsprof_writer_free_op (w, 3, 1, 0x100, FALSE);
      bl_bsprof_writer_free_op (w, 3, 1, 0x200, TRUE);
      bl_bsprof_writer_alloc (w, 3, 1, 0x300, 128);
      bl_bsprof_writer_free_op (w, 4, 1, 0x999, FALSE);
    }

  return w;
}

int
main (int    argc,
      char **argv)
{
  BlBsprofWriter *w;

  if (argc != 2)
    {
      fprintf (stderr, "usage: make-seeds DIR\n");
      return 2;
    }

  w = app (FALSE, FALSE, 0);
  bl_bsprof_writer_end (w, 99);
  save (w, argv[1], "plain.bsprof");

  w = app (TRUE, FALSE, 0);
  bl_bsprof_writer_end (w, 99);
  save (w, argv[1], "lines.bsprof");

  w = app (TRUE, TRUE, 13);
  bl_bsprof_writer_end (w, 99);
  save (w, argv[1], "lines-memory-padding.bsprof");

  w = app (FALSE, TRUE, 0);
  save (w, argv[1], "memory-truncated.bsprof");

  return 0;
}
