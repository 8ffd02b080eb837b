/* bl-stacks-writer.h — .bsprof fixtures from folded-like stack lines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Writes a .bsprof whose call paths are given as lines
 * "Thread;func[@file];func[@file] CPU": the first frame is the thread
 * (module), every further frame a function (in pkg:/source/main.brs unless
 * "@file" says otherwise). Each line adds CPU µs of cpu, 2 × CPU of wall and
 * one call to the path's last frame; lines with the same path add up.
 * @lines ends with NULL. */
GBytes   *bl_stacks_write_bsprof (const char * const *lines);
gboolean  bl_stacks_save_bsprof  (const char * const *lines,
                                  const char         *path,
                                  GError            **error);

G_END_DECLS
