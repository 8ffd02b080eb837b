/* bl-trace-sample.c — a Roku app's Perfetto trace (see the header)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "bl-trace-sample.h"

#define SEQ         1
#define T_RENDER    1
#define T_MAIN      2
#define T_NETWORK   3
#define T_GLOBAL    4
#define T_MEMORY    20
#define T_FPS       21
#define MS          G_GUINT64_CONSTANT (1000000)

/* a slice begin with debug annotations and flow ids */
static void
begin_slice (BlPbWriter *w,
             guint64     ts,
             guint64     track,
             const char *name,
             guint64     items,
             guint64     flow_out,
             guint64     flow_in)
{
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 8, ts);
  bl_pbw_varint (w, 10, SEQ);
  bl_pbw_begin (w, 11);
  bl_pbw_varint (w, 9, 1);
  bl_pbw_varint (w, 11, track);
  bl_pbw_string (w, 23, name);
  if (items > 0)
    {
      bl_pbw_begin (w, 4);
      bl_pbw_string (w, 10, "items");
      bl_pbw_varint (w, 4, items);
      bl_pbw_end (w);
      bl_pbw_begin (w, 4);
      bl_pbw_string (w, 10, "scene");
      bl_pbw_string (w, 6, "home");
      bl_pbw_end (w);
    }
  if (flow_out != 0)
    bl_pbw_fixed64 (w, 47, flow_out);
  if (flow_in != 0)
    bl_pbw_fixed64 (w, 48, flow_in);
  bl_pbw_end (w);
  bl_pbw_end (w);
}

/* a counter track with its own unit ("" for none) */
static void
counter_track (BlPbWriter *w,
               guint64     uuid,
               const char *name,
               const char *unit)
{
  bl_pbw_begin (w, 1);
  bl_pbw_begin (w, 60);
  bl_pbw_varint (w, 1, uuid);
  bl_pbw_string (w, 2, name);
  bl_pbw_begin (w, 8);
  if (*unit != '\0')
    bl_pbw_string (w, 6, unit);
  bl_pbw_end (w);
  bl_pbw_end (w);
  bl_pbw_end (w);
}

static void
end_slice (BlPbWriter *w,
           guint64     ts,
           guint64     track)
{
  bl_pftw_event (w, SEQ, ts, 2, track, NULL);
}

void
bl_trace_sample_write (BlPbWriter *w,
                       guint       n_frames,
                       guint32     seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  guint64 start = 1000 * MS;
  gint64 memory = 40 * 1024 * 1024;

  bl_pftw_thread_track (w, T_RENDER, 100, 101, "render");
  bl_pftw_thread_track (w, T_MAIN, 100, 100, "main");
  bl_pftw_named_track (w, T_NETWORK, 0, "network");
  bl_pftw_named_track (w, T_GLOBAL, 0, "app");
  counter_track (w, T_MEMORY, "memory", "bytes");
  counter_track (w, T_FPS, "fps", "");

  bl_pftw_event (w, SEQ, start, 3, T_GLOBAL, "launch complete");

  for (guint f = 0; f < n_frames; f++)
    {
      guint64 t = start + f * 16 * MS;
      guint64 update = 2 * MS + g_rand_int_range (rand, 0, 3000) * 1000;
      guint64 draw = 3 * MS + g_rand_int_range (rand, 0, 6000) * 1000;
      gboolean input = f % 8 == 0;
      gboolean answered = f % 8 == 1 && f > 0;

      bl_pftw_event (w, SEQ, t, 3, T_RENDER, "vsync");
      begin_slice (w, t + 100000, T_RENDER, "frame", 0, 0, 0);
      begin_slice (w, t + 200000, T_RENDER, "update", 0, 0, answered ? 7000 + f - 1 : 0);
      if (f % 4 == 0)
        {
          begin_slice (w, t + 300000, T_RENDER, "layout", 0, 0, 0);
          end_slice (w, t + 200000 + update / 2, T_RENDER);
        }
      end_slice (w, t + 200000 + update, T_RENDER);
      begin_slice (w, t + 300000 + update, T_RENDER, "draw", 10 + f % 7, 0, 0);
      end_slice (w, t + 300000 + update + draw, T_RENDER);
      end_slice (w, t + 400000 + update + draw, T_RENDER);

      if (input)
        {
          begin_slice (w, t + 1 * MS, T_MAIN, "onKeyEvent", 0, 7000 + f, 0);
          begin_slice (w, t + 2 * MS, T_MAIN, "handleKey", 0, 0, 0);
          end_slice (w, t + 4 * MS, T_MAIN);
          end_slice (w, t + 5 * MS, T_MAIN);
        }
      if (f % 20 == 5)
        {
          begin_slice (w, t, T_NETWORK, "fetch", 0, 0, 0);
          end_slice (w, t + 40 * MS, T_NETWORK);
        }

      memory += g_rand_int_range (rand, -20000, 60000);
      bl_pftw_counter (w, SEQ, t + 8 * MS, T_MEMORY, memory);
      bl_pftw_counter (w, SEQ, t + 8 * MS, T_FPS,
                       update + draw > 12 * MS ? 30 : 60);
    }

  g_rand_free (rand);
}
