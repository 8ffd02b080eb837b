/* make-rrm-sample.c — writes data/samples/roku-dev-session.json
 *
 * A six-minute Roku Resource Monitor session of a sideloaded ("dev")
 * channel: the launch with its compile, splash and load beacons, a video
 * start a minute in (texture memory and CPU go up), a slow leak of about
 * 3 MiB a minute (memory used, ContentNodes and BrightScript objects keep
 * growing) and three rendezvous bursts where the frame rate dips.
 *
 * Usage: make-rrm-sample OUT.json
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>

#include "bl-rrm-writer.h"

int
main (int    argc,
      char **argv)
{
  BlRrmWriterOptions o;
  g_autoptr(GError) error = NULL;

  if (argc != 2)
    {
      fprintf (stderr, "usage: %s OUT.json\n", argv[0]);
      return 2;
    }

  bl_rrm_writer_options_init (&o);
  o.scenario = BL_RRM_SCENARIO_REALISTIC;
  o.channel_name = "Roku Developers";
  o.n_samples = 360;
  o.interval_ms = 1000;
  o.start_ms = G_GINT64_CONSTANT (1741790000000);
  o.stagger = TRUE;
  o.pretty = TRUE;
  o.foreground_limit = G_GINT64_CONSTANT (268435456);
  o.background_limit = G_GINT64_CONSTANT (104857600);
  o.leak_bytes_per_min = 3 * 1024 * 1024;
  o.n_bitmaps = 10;
  o.n_node_types = 15;
  o.n_rendezvous_items = 1;
  o.n_registry_sections = 3;
  o.n_bs_groups = 4;
  o.n_bs_objects = 3;

  if (!bl_rrm_write_to_file (&o, argv[1], &error))
    {
      fprintf (stderr, "%s: %s\n", argv[0], error->message);
      return 1;
    }

  return 0;
}
