/* make-perfetto-sample.c — writes a Roku app's Perfetto trace
 *
 * Usage: make-perfetto-sample OUT.perfetto-trace [N_FRAMES]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "bl-trace-sample.h"

int
main (int    argc,
      char **argv)
{
  BlPbWriter *w;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  guint n_frames = 600;
  gsize len;
  const char *data;

  if (argc != 2 && argc != 3)
    {
      fprintf (stderr, "usage: %s OUT.perfetto-trace [N_FRAMES]\n", argv[0]);
      return 2;
    }
  if (argc == 3)
    n_frames = (guint) strtoul (argv[2], NULL, 10);

  w = bl_pbw_new ();
  bl_trace_sample_write (w, n_frames, 42);
  bytes = bl_pbw_steal (w);
  bl_pbw_free (w);
  data = g_bytes_get_data (bytes, &len);
  if (!g_file_set_contents (argv[1], data, (gssize) len, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }

  return 0;
}
