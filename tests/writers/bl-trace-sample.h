/* bl-trace-sample.h — a Roku app's Perfetto trace, for the timeline's
 * tests, screenshots and benchmark
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-perfetto-writer.h"

G_BEGIN_DECLS

/* Writes @n_frames frames of 16 ms from 1 s on: on the thread "render" a
 * "frame" slice each holding "update" (with "layout" inside every fourth
 * frame) and "draw" (annotated "items=N, scene=home"), a "vsync" instant per
 * frame; on "main" a "onKeyEvent" slice every 8th frame whose flow ends in
 * the next frame's "update"; "network" track slices "fetch" every 20th
 * frame; counters "memory" (bytes, rising) and "fps"; one global instant
 * "launch complete" at 1 s. Deterministic for a given @seed. */
void bl_trace_sample_write (BlPbWriter *w,
                            guint       n_frames,
                            guint32     seed);

G_END_DECLS
