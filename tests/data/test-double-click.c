/* test-double-click.c — a profile double-clicked in a file manager opens in Brightlens
 *
 * Installs the build into a temporary DESTDIR with `meson install`, updates the MIME and
 * desktop databases there as a package's triggers would, points XDG_DATA_DIRS at the
 * installed share directory and asks GIO, as a file manager does, what a .bsprof (and the
 * other formats) is and which application opens it. `gio mime` and `xdg-mime` must agree.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <locale.h>
#include <json-glib/json-glib.h>

#include "bl-bsprof-writer.h"
#include "bl-cpuprofile-writer.h"
#include "bl-heapsnapshot-writer.h"
#include "bl-perfetto-writer.h"

#define DESKTOP_ID APP_ID ".desktop"

static char *install_root;   /* the DESTDIR */
static char *share_dir;      /* DESTDIR + prefix + datadir */
static char *samples_dir;

static const char *media_types[] = {
  "application/x-bsprof",
  "application/x-roku-rrm-session+json",
  "application/x-speedscope+json",
  "application/x-mpatrol-profile",
  "text/x-folded-stacks",
  "application/x-perfetto-trace",
  "application/x-brightlens-cpuprofile+json",
  "application/x-brightlens-heapprofile+json",
  "application/x-heapsnapshot+json",
  "application/x-brightlens-recording+json",
};

static void
write_recording (const char *path)
{
  g_autoptr(GError) error = NULL;
  const char *manifest = "{\n  \"format\" : \"brightlens-recording\",\n  \"version\" : 1\n}\n";

  g_file_set_contents (path, manifest, -1, &error);
  g_assert_no_error (error);
}

static char *
run (const char * const *argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  g_autofree char *cmdline = g_strjoinv (" ", (char **) argv);
  char *out = NULL;
  int status = 0;

  g_test_message ("$ %s", cmdline);
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                &out, &err, &status, &error);
  g_assert_no_error (error);
  if (out != NULL && out[0] != '\0')
    g_test_message ("%s", out);
  if (err != NULL && err[0] != '\0')
    g_test_message ("%s", err);
  g_spawn_check_wait_status (status, &error);
  g_assert_no_error (error);

  return out;
}

/* Chrome DevTools profiles as Chrome and Node write them (compact) */
static void
write_devtools (const char *path,
                gboolean    heap)
{
  const BlCpuNode nodes[] = {
    { "1", "(root)", "", -1, -1, "2", NULL },
    { "2", "main", "file:///app/main.js", 0, 0, NULL, NULL },
  };
  const BlHeapNode heap_nodes[] = {
    { 0, "(root)", "", -1, -1, "0", "1" },
    { 1, "main", "file:///app/main.js", 0, 0, "64", "2" },
  };
  g_autoptr(GBytes) bytes = heap ? bl_heapprofile_write (heap_nodes, 2, "")
                                 : bl_cpuprofile_write (nodes, 2, "2,2", "0,100", FALSE);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
}

/* a heap snapshot as V8 writes it: a root and a global object */
static void
write_heapsnapshot (const char *path)
{
  g_autoptr(BlHsWriter) w = bl_hsw_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  guint32 root = bl_hsw_node (w, "synthetic", "", 1, 0);
  guint32 global = bl_hsw_node (w, "object", "global", 3, 24);

  bl_hsw_edge (w, root, "shortcut", "global", 0, global);
  bytes = bl_hsw_to_bytes (w, BL_HS_ORDER_V8);
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
}

/* a Perfetto trace as the tracing service writes it: the synchronization
 * marker packet (the service's trusted uid and sequence id, then field 36
 * with the 16 marker bytes of Perfetto's tracing_service_impl.h), first or
 * after the service's initial clock snapshot when @clocks_first, then a
 * slice */
static void
write_perfetto (const char *path,
                gboolean    clocks_first)
{
  static const guint8 marker[] = { 0x82, 0x47, 0x7a, 0x76, 0xb2, 0x8d, 0x42, 0xba,
                                   0x81, 0xdc, 0x33, 0x32, 0x6d, 0x57, 0xa0, 0x79 };
  BlPbWriter *w = bl_pbw_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  if (clocks_first)
    {
      bl_pbw_begin (w, 1);
      bl_pbw_varint (w, 3, 0);
      bl_pbw_varint (w, 10, 1);
      bl_pbw_begin (w, 6);
      for (guint id = 1; id <= 8; id++)
        {
          bl_pbw_begin (w, 1);
          bl_pbw_varint (w, 1, id);
          bl_pbw_varint (w, 2, G_GUINT64_CONSTANT (1700000000000000000) + id);
          bl_pbw_end (w);
        }
      bl_pbw_end (w);
      bl_pbw_end (w);
    }
  bl_pbw_begin (w, 1);
  bl_pbw_varint (w, 3, 10057);      /* trusted_uid: an app's uid, 3 varint bytes */
  bl_pbw_varint (w, 10, 1);         /* trusted_packet_sequence_id of the service */
  bl_pbw_bytes (w, 36, marker, sizeof marker);
  bl_pbw_end (w);
  bl_pftw_thread_track (w, 1, 1, 2, "main");
  bl_pftw_event (w, 1, 10, 1, 1, "draw");
  bl_pftw_event (w, 1, 20, 2, 1, NULL);
  bytes = bl_pbw_steal (w);
  bl_pbw_free (w);
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
}

static void
write_bsprof (const char *path)
{
  g_autoptr(GError) error = NULL;
  BlBsprofHeader header;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&header);
  w = bl_bsprof_writer_new (&header);
  bl_bsprof_writer_string (w, 1, "main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "Main");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 3);
  bl_bsprof_writer_cpu (w, 1, 0, 1500, 2000);
  bl_bsprof_writer_calls (w, 1, 1);
  bl_bsprof_writer_end (w, 10);
  bl_bsprof_writer_save (w, path, &error);
  g_assert_no_error (error);
  bl_bsprof_writer_free (w);
}

static void
write_json (const char *path,
            JsonNode   *root)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GError) error = NULL;

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, root);
  json_generator_to_file (generator, path, &error);
  g_assert_no_error (error);
  json_node_unref (root);
}

/* The opening of a Resource Monitor export, with the objects in the specified order. */
static void
write_rrm_session (const char *path)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "device");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "device_name");
  json_builder_add_string_value (b, "Roku Express");
  json_builder_set_member_name (b, "model_number");
  json_builder_add_string_value (b, "3930X");
  json_builder_end_object (b);
  json_builder_set_member_name (b, "channel");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "id");
  json_builder_add_string_value (b, "dev");
  json_builder_end_object (b);
  json_builder_set_member_name (b, "metadata");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, 4);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "session");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "static");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "foreground_limit");
  json_builder_add_int_value (b, 157286400);
  json_builder_set_member_name (b, "background_limit");
  json_builder_add_int_value (b, 104857600);
  json_builder_end_object (b);
  json_builder_end_object (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "live");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "channel_system_memory_usage");
  json_builder_begin_array (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_end_object (b);

  write_json (path, json_builder_get_root (b));
}

static void
write_speedscope (const char *path)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "exporter");
  json_builder_add_string_value (b, "speedscope@1.20.0");
  json_builder_set_member_name (b, "$schema");
  json_builder_add_string_value (b, "https://www.speedscope.app/file-format-schema.json");
  json_builder_set_member_name (b, "shared");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "frames");
  json_builder_begin_array (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "profiles");
  json_builder_begin_array (b);
  json_builder_end_array (b);
  json_builder_end_object (b);

  write_json (path, json_builder_get_root (b));
}

static void
write_plain_json (const char *path)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, "not a profile");
  json_builder_set_member_name (b, "values");
  json_builder_begin_array (b);
  json_builder_add_int_value (b, 1);
  json_builder_add_int_value (b, 2);
  json_builder_end_array (b);
  json_builder_end_object (b);

  write_json (path, json_builder_get_root (b));
}

/* The opening words of an mpatrol profile written on a little-endian 32-bit machine. */
static void
write_mpatrol (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  const guint32 words[] = { 1, 10500, 32, 256, 2048, 0, 0 };

  g_byte_array_append (bytes, (const guint8 *) "MPTL", 4);
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      guint32 le = GUINT32_TO_LE (words[i]);

      g_byte_array_append (bytes, (const guint8 *) &le, sizeof le);
    }
  g_byte_array_append (bytes, (const guint8 *) "MPTL", 4);

  g_file_set_contents (path, (const char *) bytes->data, bytes->len, &error);
  g_assert_no_error (error);
}

static void
write_folded (const char *path)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 4; i++)
    g_string_append_printf (text, "main;Main;Render%u %u\n", i, (i + 1) * 100);

  g_file_set_contents (path, text->str, text->len, &error);
  g_assert_no_error (error);
}

static char *
sample_path (const char *name)
{
  return g_build_filename (samples_dir, name, NULL);
}

static char *
content_type_of (const char *name)
{
  g_autofree char *path = sample_path (name);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_CONTENT_TYPE,
                            G_FILE_QUERY_INFO_NONE, NULL, &error);
  g_assert_no_error (error);

  return g_strdup (g_file_info_get_content_type (info));
}

/* Runs once, before GIO reads any MIME or desktop data: installs and sets the environment. */
static void
install_into_temporary_prefix (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *mime_dir = NULL;
  g_autofree char *apps_dir = NULL;
  g_autofree char *data_home = NULL;
  g_autofree char *data_dirs = NULL;
  g_autofree char *out = NULL;

  install_root = g_dir_make_tmp ("brightlens-install-XXXXXX", &error);
  g_assert_no_error (error);

  {
    const char *argv[] = { BL_MESON, "install", "-C", BL_BUILD_ROOT, "--no-rebuild",
                           "--quiet", "--destdir", install_root, NULL };

    out = run (argv);
  }

  share_dir = g_build_filename (install_root, BL_PREFIX, BL_DATADIR, NULL);
  mime_dir = g_build_filename (share_dir, "mime", NULL);
  apps_dir = g_build_filename (share_dir, "applications", NULL);

  {
    const char *argv[] = { "update-mime-database", mime_dir, NULL };
    g_autofree char *o = run (argv);
  }
  {
    const char *argv[] = { "update-desktop-database", apps_dir, NULL };
    g_autofree char *o = run (argv);
  }

  /* Our prefix first, then the system's base types (application/json, text/plain). */
  data_home = g_build_filename (install_root, "home-data", NULL);
  g_assert_cmpint (g_mkdir_with_parents (data_home, 0700), ==, 0);
  data_dirs = g_strconcat (share_dir, ":/usr/share", NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("XDG_DATA_DIRS", data_dirs, TRUE);

  /* no user or system mimeapps.list may choose a handler for us */
  {
    g_autofree char *home = g_build_filename (install_root, "home", NULL);
    g_autofree char *config_home = g_build_filename (install_root, "config", NULL);
    g_autofree char *config_dirs = g_build_filename (install_root, "etc-xdg", NULL);

    g_assert_cmpint (g_mkdir_with_parents (home, 0700), ==, 0);
    g_assert_cmpint (g_mkdir_with_parents (config_home, 0700), ==, 0);
    g_assert_cmpint (g_mkdir_with_parents (config_dirs, 0700), ==, 0);
    g_setenv ("HOME", home, TRUE);
    g_setenv ("XDG_CONFIG_HOME", config_home, TRUE);
    g_setenv ("XDG_CONFIG_DIRS", config_dirs, TRUE);
  }
  g_unsetenv ("XDG_CURRENT_DESKTOP");
  g_unsetenv ("DESKTOP_SESSION");

  /* GIO hides desktop entries whose Exec= program is not in PATH, as it would be installed */
  {
    g_autofree char *bin_dir = g_build_filename (install_root, BL_PREFIX, BL_BINDIR, NULL);
    g_autofree char *path = g_strconcat (bin_dir, ":", g_getenv ("PATH"), NULL);

    g_setenv ("PATH", path, TRUE);
  }

  samples_dir = g_build_filename (install_root, "Downloads", NULL);
  g_assert_cmpint (g_mkdir_with_parents (samples_dir, 0700), ==, 0);

  {
    g_autofree char *p = sample_path ("main.bsprof");
    g_autofree char *q = sample_path ("profile-from-device");

    write_bsprof (p);
    write_bsprof (q);
  }
  {
    g_autofree char *p = sample_path ("MyApp_Roku-Express_1657721930.json");

    write_rrm_session (p);
  }
  {
    g_autofree char *p = sample_path ("trace.speedscope.json");
    g_autofree char *q = sample_path ("trace.json");

    write_speedscope (p);
    write_speedscope (q);
  }
  {
    g_autofree char *p = sample_path ("config.json");

    write_plain_json (p);
  }
  {
    g_autofree char *p = sample_path ("mpatrol.out");
    g_autofree char *q = sample_path ("allocations.prof");

    write_mpatrol (p);
    write_mpatrol (q);
  }
  {
    g_autofree char *p = sample_path ("stacks.folded");

    write_folded (p);
  }
  {
    const char *names[] = { "recording.json", "manifest-copy.json" };

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *p = sample_path (names[i]);

        write_recording (p);
      }
  }
  {
    const char *names[] = { "CPU.20261124.101500.4242.0.001.cpuprofile", "cpu-from-device",
                            "Heap.20261124.101500.4242.0.002.heapprofile", "heap-from-device" };

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *p = sample_path (names[i]);

        write_devtools (p, i >= 2);
      }
  }
  {
    const char *names[] = { "node.heapsnapshot", "snapshot-from-node" };

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *p = sample_path (names[i]);

        write_heapsnapshot (p);
      }
  }
  {
    const char *names[] = { "app.perfetto-trace", "capture.pftrace", "trace-from-device",
                            "trace-clocks-first" };

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *p = sample_path (names[i]);

        write_perfetto (p, g_str_equal (names[i], "trace-clocks-first"));
      }
  }
}

static void
test_installed_files (void)
{
  const char *relpaths[] = {
    "applications/" APP_ID ".desktop",
    "dbus-1/services/" APP_ID ".service",
    "metainfo/" APP_ID ".metainfo.xml",
    "mime/packages/" APP_ID ".xml",
    "glib-2.0/schemas/" BASE_ID ".gschema.xml",
    "icons/hicolor/scalable/apps/" APP_ID ".svg",
    "icons/hicolor/symbolic/apps/" APP_ID "-symbolic.svg",
    "locale/de/LC_MESSAGES/" GETTEXT_PACKAGE ".mo",
    /* the help F1 opens (help:brightlens) */
    "help/C/" PACKAGE_NAME "/index.page",
    "help/C/" PACKAGE_NAME "/open-profile.page",
  };
  g_autofree char *app = g_build_filename (install_root, BL_PREFIX, BL_BINDIR, "brightlens",
                                           NULL);

  for (guint i = 0; i < G_N_ELEMENTS (relpaths); i++)
    {
      g_autofree char *path = g_build_filename (share_dir, relpaths[i], NULL);

      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        g_test_message ("not installed: %s", path);
      g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
    }

  /* what the desktop entry's Exec= and the D-Bus service start */
  g_assert_true (g_file_test (app, G_FILE_TEST_IS_EXECUTABLE));
}

static void
test_bsprof_resolves (void)
{
  g_autofree char *by_name = content_type_of ("main.bsprof");
  g_autofree char *by_magic = content_type_of ("profile-from-device");

  g_assert_cmpstr (by_name, ==, "application/x-bsprof");
  /* a download without its extension is still recognised by `bsprof\0\0` */
  g_assert_cmpstr (by_magic, ==, "application/x-bsprof");
}

static void
test_other_formats_resolve (void)
{
  struct {
    const char *name;
    const char *type;
  } cases[] = {
    { "MyApp_Roku-Express_1657721930.json", "application/x-roku-rrm-session+json" },
    { "trace.speedscope.json", "application/x-speedscope+json" },
    { "trace.json", "application/x-speedscope+json" },
    { "mpatrol.out", "application/x-mpatrol-profile" },
    { "allocations.prof", "application/x-mpatrol-profile" },
    { "stacks.folded", "text/x-folded-stacks" },
    { "app.perfetto-trace", "application/x-perfetto-trace" },
    { "capture.pftrace", "application/x-perfetto-trace" },
    /* without extension: by the synchronization marker */
    { "trace-from-device", "application/x-perfetto-trace" },
    { "trace-clocks-first", "application/x-perfetto-trace" },
    { "CPU.20261124.101500.4242.0.001.cpuprofile", "application/x-brightlens-cpuprofile+json" },
    { "Heap.20261124.101500.4242.0.002.heapprofile",
      "application/x-brightlens-heapprofile+json" },
    /* without extension: by their first member */
    { "cpu-from-device", "application/x-brightlens-cpuprofile+json" },
    { "heap-from-device", "application/x-brightlens-heapprofile+json" },
    { "node.heapsnapshot", "application/x-heapsnapshot+json" },
    /* without extension: by its first bytes, {"snapshot":{"meta": */
    { "snapshot-from-node", "application/x-heapsnapshot+json" },
    /* a recording's manifest, by its name or by its "format" */
    { "recording.json", "application/x-brightlens-recording+json" },
    { "manifest-copy.json", "application/x-brightlens-recording+json" },
    /* JSON in general stays JSON: our types are recognised by content only */
    { "config.json", "application/json" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *type = content_type_of (cases[i].name);

      g_test_message ("%s -> %s", cases[i].name, type);
      g_assert_cmpstr (type, ==, cases[i].type);
    }

  /* The JSON types are JSON, and folded stacks are text, for other applications. */
  g_assert_true (g_content_type_is_a ("application/x-roku-rrm-session+json",
                                      "application/json"));
  g_assert_true (g_content_type_is_a ("application/x-speedscope+json", "application/json"));
  g_assert_true (g_content_type_is_a ("application/x-brightlens-cpuprofile+json",
                                      "application/json"));
  g_assert_true (g_content_type_is_a ("application/x-brightlens-heapprofile+json",
                                      "application/json"));
  g_assert_true (g_content_type_is_a ("application/x-heapsnapshot+json", "application/json"));
  g_assert_true (g_content_type_is_a ("text/x-folded-stacks", "text/plain"));
}

static void
test_default_handler (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (media_types); i++)
    {
      g_autoptr(GAppInfo) app = g_app_info_get_default_for_type (media_types[i], FALSE);

      g_assert_nonnull (app);
      g_test_message ("%s -> %s", media_types[i], g_app_info_get_id (app));
      g_assert_cmpstr (g_app_info_get_id (app), ==, DESKTOP_ID);
      g_assert_true (g_app_info_supports_uris (app));
    }

  /* and what a double-click on the sample launches */
  {
    g_autofree char *type = content_type_of ("main.bsprof");
    g_autoptr(GAppInfo) app = g_app_info_get_default_for_type (type, TRUE);
    const char *commandline;

    g_assert_nonnull (app);
    g_assert_cmpstr (g_app_info_get_id (app), ==, DESKTOP_ID);
    commandline = g_app_info_get_commandline (app);
    g_assert_nonnull (commandline);
    g_assert_true (g_str_has_prefix (commandline, "brightlens "));
  }
}

/* The samples the repository ships (build-aux/dev run opens them) resolve like the rest. */
static void
test_shipped_samples (void)
{
  g_autofree char *dir_path = g_build_filename (BL_TOP_SRCDIR, "data", "samples", NULL);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  const char *name;
  guint checked = 0;

  dir = g_dir_open (dir_path, 0, &error);
  g_assert_no_error (error);

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GFileInfo) info = NULL;
      g_autoptr(GAppInfo) app = NULL;
      const char *type;

      if (!g_str_has_suffix (name, ".bsprof") && !g_str_has_suffix (name, ".json") &&
          !g_str_has_suffix (name, ".folded"))
        continue;

      info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_CONTENT_TYPE,
                                G_FILE_QUERY_INFO_NONE, NULL, &error);
      g_assert_no_error (error);
      type = g_file_info_get_content_type (info);
      g_test_message ("%s -> %s", name, type);

      if (g_str_has_suffix (name, ".bsprof"))
        g_assert_cmpstr (type, ==, "application/x-bsprof");
      else if (g_str_has_suffix (name, ".folded"))
        g_assert_cmpstr (type, ==, "text/x-folded-stacks");
      else
        g_assert_true (g_strcmp0 (type, "application/x-roku-rrm-session+json") == 0 ||
                       g_strcmp0 (type, "application/x-speedscope+json") == 0);

      app = g_app_info_get_default_for_type (type, FALSE);
      g_assert_nonnull (app);
      g_assert_cmpstr (g_app_info_get_id (app), ==, DESKTOP_ID);
      checked++;
    }

  g_assert_cmpuint (checked, >=, 1);
}

static void
test_command_line_tools_agree (void)
{
  g_autofree char *sample = sample_path ("main.bsprof");
  g_autofree char *expected_default = g_strdup_printf ("“application/x-bsprof”: %s",
                                                       DESKTOP_ID);

  {
    const char *argv[] = { "gio", "info", "--attributes=standard::content-type", sample,
                           NULL };
    g_autofree char *out = run (argv);

    g_assert_nonnull (strstr (out, "standard::content-type: application/x-bsprof"));
  }
  {
    const char *argv[] = { "gio", "mime", "application/x-bsprof", NULL };
    g_autofree char *out = run (argv);

    g_assert_nonnull (strstr (out, expected_default));
  }
  if (BL_XDG_MIME[0] != '\0')
    {
      const char *argv[] = { BL_XDG_MIME, "query", "default", "application/x-bsprof", NULL };
      g_autofree char *out = run (argv);

      g_assert_cmpstr (g_strstrip (out), ==, DESKTOP_ID);
    }
  else
    {
      g_test_skip ("xdg-mime is not installed (xdg-utils)");
    }
}

static gboolean
remove_tree (GFile   *file,
             GError **error)
{
  g_autoptr(GFileEnumerator) enumerator = NULL;
  GFileInfo *info;

  enumerator = g_file_enumerate_children (file, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                          G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
  if (enumerator != NULL)
    {
      while ((info = g_file_enumerator_next_file (enumerator, NULL, NULL)) != NULL)
        {
          g_autoptr(GFileInfo) owned = info;
          g_autoptr(GFile) child = g_file_get_child (file, g_file_info_get_name (info));

          if (!remove_tree (child, error))
            return FALSE;
        }
    }

  return g_file_delete (file, NULL, error);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  /* No G_TEST_OPTION_ISOLATE_DIRS here: it would reset XDG_DATA_DIRS before each test to an
   * empty directory, and the point is the installed prefix. install_root is our own
   * temporary directory, removed at the end. */
  setlocale (LC_ALL, "");   /* UTF-8 test messages */
  g_test_init (&argc, &argv, NULL);

  install_into_temporary_prefix ();

  g_test_add_func ("/data/double-click/installed-files", test_installed_files);
  g_test_add_func ("/data/double-click/bsprof-resolves", test_bsprof_resolves);
  g_test_add_func ("/data/double-click/other-formats-resolve", test_other_formats_resolve);
  g_test_add_func ("/data/double-click/default-handler", test_default_handler);
  g_test_add_func ("/data/double-click/shipped-samples", test_shipped_samples);
  g_test_add_func ("/data/double-click/command-line-tools-agree",
                   test_command_line_tools_agree);

  ret = g_test_run ();

  {
    g_autoptr(GFile) root = g_file_new_for_path (install_root);
    g_autoptr(GError) error = NULL;

    remove_tree (root, &error);
    g_assert_no_error (error);
  }

  g_clear_pointer (&install_root, g_free);
  g_clear_pointer (&share_dir, g_free);
  g_clear_pointer (&samples_dir, g_free);

  return ret;
}
