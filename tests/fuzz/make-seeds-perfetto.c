/* make-seeds-perfetto.c — writes the Perfetto fuzz seeds into a folder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "bl-perfetto-writer.h"

static void
save (const char *dir,
      const char *name,
      BlPbWriter *w)
{
  g_autoptr (GBytes) bytes = bl_pbw_steal (w);
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      g_bytes_get_size (bytes), NULL));
  bl_pbw_free (w);
}

static void
slices (BlPbWriter *w)
{
  bl_pftw_thread_track (w, 1, 1, 2, "main");
  bl_pftw_named_track (w, 2, 1, "net");
  bl_pftw_event (w, 1, 10, 1, 1, "a");
  bl_pftw_event (w, 1, 12, 1, 1, "b");
  bl_pftw_event (w, 1, 15, 2, 1, NULL);
  bl_pftw_event (w, 1, 18, 3, 2, "tick");
  bl_pftw_event (w, 1, 30, 2, 1, NULL);
}

int
main (int    argc,
      char **argv)
{
  const char *dir;
  BlPbWriter *w;
  BlPbWriter *inner;
  g_autoptr (GBytes) packets = NULL;

  if (argc != 2)
    {
      g_printerr ("usage: make-seeds-perfetto DIR\n");
      return 2;
    }
  dir = argv[1];

  w = bl_pbw_new ();
  slices (w);
  save (dir, "slices", w);

  /* interning, defaults, incremental clock, annotations, flows */
  w = bl_pbw_new ();
  bl_pftw_thread_track (w, 3, 1, 2, "worker");
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 9);
  bl_pbw_varint (w, 13, 1);
  bl_pbw_begin (w, 12);
  bl_pbw_begin (w, 2);
  bl_pbw_varint (w, 1, 1);
  bl_pbw_string (w, 2, "alpha");
  bl_pbw_end (w);
  bl_pbw_begin (w, 3);
  bl_pbw_varint (w, 1, 1);
  bl_pbw_string (w, 2, "arg");
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pbw_begin (w, 6);
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 1, 64);
  bl_pbw_varint (w, 2, 100);
  bl_pbw_varint (w, 3, 1);
  bl_pbw_varint (w, 4, 1000);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pbw_begin (w, 59);
  bl_pbw_varint (w, 58, 64);
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 11, 3);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pbw_end (w);
  for (guint i = 0; i < 3; i++)
    {
      bl_pbw_begin (w, 1);
      bl_pbw_varint (w, 8, 5);
      bl_pbw_varint (w, 10, 9);
      bl_pbw_begin (w, 11);
      bl_pbw_varint (w, 9, i == 2 ? 2 : 1);
      bl_pbw_varint (w, 10, 1);
      bl_pbw_begin (w, 4);
      bl_pbw_varint (w, 1, 1);
      bl_pbw_varint (w, 4, 7);
      bl_pbw_end (w);
      bl_pbw_fixed64 (w, 47, 3);
      bl_pbw_end (w);
      bl_pbw_end (w);
    }
  save (dir, "interned-clock", w);

  /* counters */
  w = bl_pbw_new ();
  bl_pftw_counter_track (w, 20, "memory", 1, FALSE);
  bl_pftw_counter_track (w, 22, "bytes", 2, TRUE);
  bl_pftw_counter (w, 1, 300, 20, 7);
  bl_pftw_counter (w, 1, 100, 22, -5);
  save (dir, "counters", w);

  /* compressed packets */
  inner = bl_pbw_new ();
  slices (inner);
  packets = bl_pbw_steal (inner);
  bl_pbw_free (inner);
  w = bl_pbw_new ();
  bl_pftw_compressed (w, packets);
  save (dir, "compressed", w);

  /* heap graph packets */
  w = bl_pbw_new ();
  for (guint i = 0; i < 2; i++)
    {
      guint8 refs[] = { 2, 3 };

      bl_pbw_begin (w, 1);
      bl_pbw_varint (w, 10, 3);
      bl_pbw_begin (w, 56);
      bl_pbw_varint (w, 1, 1);
      bl_pbw_begin (w, 2);
      bl_pbw_varint (w, 1, 1 + i);
      bl_pbw_varint (w, 2, 1);
      bl_pbw_varint (w, 3, 16);
      bl_pbw_bytes (w, 5, refs, sizeof refs);
      bl_pbw_end (w);
      bl_pbw_varint (w, 5, i == 0);
      bl_pbw_end (w);
      bl_pbw_end (w);
    }
  save (dir, "heap-graph", w);

  /* legacy thread descriptor with a reference time, delta and absolute
   * timestamps, packets that need incremental state, a lost packet */
  w = bl_pbw_new ();
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 10, 4);
  bl_pbw_varint (w, 13, 1);
  bl_pbw_begin (w, 44);
  bl_pbw_varint (w, 1, 1);
  bl_pbw_varint (w, 2, 7);
  bl_pbw_string (w, 5, "ui");
  bl_pbw_varint (w, 6, 1000);
  bl_pbw_varint (w, 7, 10);
  bl_pbw_end (w);
  bl_pbw_end (w);
  for (guint i = 0; i < 4; i++)
    {
      bl_pbw_begin (w, 1);
      bl_pbw_varint (w, 10, 4);
      bl_pbw_varint (w, 13, 2);
      if (i == 3)
        bl_pbw_varint (w, 42, 1);
      bl_pbw_begin (w, 11);
      bl_pbw_varint (w, 9, i < 2 ? 1 : 2);
      if (i == 1)
        bl_pbw_varint (w, 16, 1003);
      else
        bl_pbw_varint (w, 1, 2);
      bl_pbw_varint (w, 2, 1);
      bl_pbw_string (w, 23, "draw");
      bl_pbw_end (w);
      bl_pbw_end (w);
    }
  save (dir, "legacy-timestamps", w);

  return 0;
}
