/* fake-roku.c — serve a fake Roku device on loopback until interrupted
 *
 *   fake-roku [--mode normal|developer-off|limited|not-sideloaded|not-profiling]
 *             [--profile FILE.bsprof] [--chunk BYTES] [--interval MS]
 *             [--vanish-after BYTES] [--trace FILE.perfetto-trace]
 *
 * Prints the ports it listens on, one "name port" a line, then serves.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib-unix.h>
#include <stdio.h>

#include "bl-fake-roku.h"

static gboolean
quit (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_REMOVE;
}

int
main (int   argc,
      char *argv[])
{
  static const char *const modes[] = {
    "normal", "developer-off", "limited", "not-sideloaded", "not-profiling",
  };
  g_autofree char *mode_name = NULL;
  g_autofree char *profile_path = NULL;
  g_autofree char *trace_path = NULL;
  int chunk = 4096, interval = 20;
  gint64 vanish_after = 0;
  GOptionEntry entries[] = {
    { "mode", 0, 0, G_OPTION_ARG_STRING, &mode_name, "How the device behaves", "MODE" },
    { "profile", 0, 0, G_OPTION_ARG_FILENAME, &profile_path, "The .bsprof to stream", "FILE" },
    { "chunk", 0, 0, G_OPTION_ARG_INT, &chunk, "Bytes per chunk", "BYTES" },
    { "interval", 0, 0, G_OPTION_ARG_INT, &interval, "Milliseconds between chunks", "MS" },
    { "trace", 0, 0, G_OPTION_ARG_FILENAME, &trace_path,
      "The Perfetto trace to stream (its own heap graph too)", "FILE" },
    { "vanish-after", 0, 0, G_OPTION_ARG_INT64, &vanish_after,
      "Disappear once this many profile bytes are out", "BYTES" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("— a fake Roku device");
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  BlFakeRokuMode mode = BL_FAKE_ROKU_NORMAL;
  BlFakeRoku *roku;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("fake-roku: %s\n", error->message);
      return 1;
    }
  if (mode_name != NULL)
    {
      guint i;

      for (i = 0; i < G_N_ELEMENTS (modes) && !g_str_equal (modes[i], mode_name); i++)
        ;
      if (i == G_N_ELEMENTS (modes))
        {
          g_printerr ("fake-roku: unknown mode “%s”\n", mode_name);
          return 1;
        }
      mode = (BlFakeRokuMode) i;
    }

  roku = bl_fake_roku_new (mode, &error);
  if (roku == NULL)
    {
      g_printerr ("fake-roku: %s\n", error->message);
      return 1;
    }
  if (profile_path != NULL)
    {
      g_autoptr(GMappedFile) mapped = g_mapped_file_new (profile_path, FALSE, &error);
      g_autoptr(GBytes) bytes = NULL;

      if (mapped == NULL)
        {
          g_printerr ("fake-roku: %s\n", error->message);
          bl_fake_roku_free (roku);
          return 1;
        }
      bytes = g_mapped_file_get_bytes (mapped);
      bl_fake_roku_set_profile (roku, bytes, (gsize) MAX (chunk, 1), (guint) MAX (interval, 1));
    }
  if (trace_path != NULL)
    {
      g_autoptr(GMappedFile) mapped = g_mapped_file_new (trace_path, FALSE, &error);
      g_autoptr(GBytes) bytes = NULL;

      if (mapped == NULL)
        {
          g_printerr ("fake-roku: %s\n", error->message);
          bl_fake_roku_free (roku);
          return 1;
        }
      bytes = g_mapped_file_get_bytes (mapped);
      bl_fake_roku_set_trace (roku, bytes, bytes, (gsize) MAX (chunk, 1),
                              (guint) MAX (interval, 1), FALSE);
    }
  if (vanish_after > 0)
    bl_fake_roku_set_vanish_after (roku, (gsize) vanish_after);

  printf ("ecp %u\nprofiler %u\nconsole %u\nssdp %u\n",
          bl_fake_roku_get_ecp_port (roku), bl_fake_roku_get_profiler_port (roku),
          bl_fake_roku_get_console_port (roku), bl_fake_roku_get_ssdp_port (roku));
  fflush (stdout);

  loop = g_main_loop_new (NULL, FALSE);
  g_unix_signal_add (SIGINT, quit, loop);
  g_unix_signal_add (SIGTERM, quit, loop);
  g_main_loop_run (loop);

  bl_fake_roku_free (roku);
  return 0;
}
