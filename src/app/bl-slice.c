/* bl-slice.c — GLib's slice allocator replaced by malloc on GLib < 2.76
 *
 * Before 2.76 GLib allocates small blocks (every GObject's instance, list
 * links, hash tables) from its own slice allocator, which keeps what is
 * freed in per-thread magazines and never gives it back to the system: after
 * a tab with a million nodes is closed, tens of megabytes of freed objects
 * stay resident however much malloc_trim() hands back. G_SLICE=always-malloc
 * makes every slice a plain malloc (what GLib 2.76 and later always do), but
 * GLib reads it once, before main() runs (the type system's constructors
 * already allocate slices). So, on an older GLib and when the user set no
 * G_SLICE of their own, main() sets it and executes the same program again:
 * the same process, the same arguments, the same environment plus that
 * variable, so D-Bus activation, the single instance and standard input are
 * untouched. It costs one exec and the dynamic linking, a few milliseconds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-slice"

#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "bl-slice.h"

/* TRUE when GLib still has its own slice allocator and G_SLICE is not set */
gboolean
bl_slice_wants_reexec (void)
{
  if (glib_check_version (2, 76, 0) == NULL)
    return FALSE;

  return g_getenv ("G_SLICE") == NULL;
}

/* Called first thing in main(), with main()'s own argv. Returns only when
 * nothing needs doing, or when the exec failed (then the program runs with
 * GLib's slices, as it would have anyway). */
void
bl_slice_reexec (char **argv)
{
  g_autofree char *self_path = NULL;

  if (!bl_slice_wants_reexec ())
    return;

  g_setenv ("G_SLICE", "always-malloc", TRUE);
  /* the running binary itself, whatever PATH or argv[0] say, by its own
   * name (the process is named after the file executed: not "exe"); the
   * link itself if the file is gone (replaced by an upgrade) */
  if ((self_path = g_file_read_link ("/proc/self/exe", NULL)) != NULL)
    execv (self_path, argv);
  execv ("/proc/self/exe", argv);

  g_debug ("Could not execute the program again: %s", g_strerror (errno));
  g_unsetenv ("G_SLICE");
}
