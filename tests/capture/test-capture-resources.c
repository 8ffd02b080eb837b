/* test-capture-resources.c — BlResourcePoller against the fake Roku
 *
 * The session file, read back with the RRM reader after every poll and at
 * the end, must hold exactly the values the fake served at each poll.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "bl-capture-error.h"
#include "bl-fake-roku.h"
#include "bl-model.h"
#include "bl-resource-poller.h"

typedef struct
{
  BlFakeRoku       *roku;
  BlDevice         *device;
  BlResourcePoller *poller;
  char             *dir;
  GFile            *output;
  guint             stop_after;     /* stop (or vanish) after this many polls */
  gboolean          vanish;
  gboolean          refusing;       /* some queries are refused: not all series */
  GCancellable     *cancellable;
  guint             checked;        /* polls whose file was read back */
} Fixture;

static void
got_result (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static GAsyncResult *
wait_for (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

static BlSession *
read_back (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gsize len;
  BlSession *session;

  g_assert_true (g_file_load_contents (f->output, NULL, &text, &len, NULL, &error));
  g_assert_no_error (error);
  session = bl_rrm_read_memory ((const guint8 *) text, len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (session);
  g_assert_false (bl_session_is_incomplete (session));
  return session;
}

/* every series equals what the fake served at polls 0 … n - 1 */
static void
assert_served (Fixture   *f,
               BlSession *session,
               guint      n)
{
  const BlSample *used, *resident, *user, *sys, *total, *fps;
  guint n_used, n_resident, n_user, n_sys, n_total, n_fps, n_beacons;
  const BlBeacon *beacons;

  used = bl_session_get_series (session, BL_SERIES_MEMORY_USED, &n_used);
  resident = bl_session_get_series (session, BL_SERIES_MEMORY_RESIDENT, &n_resident);
  user = bl_session_get_series (session, BL_SERIES_CPU_USER, &n_user);
  sys = bl_session_get_series (session, BL_SERIES_CPU_SYS, &n_sys);
  total = bl_session_get_series (session, BL_SERIES_CPU_TOTAL, &n_total);
  fps = bl_session_get_series (session, BL_SERIES_FPS, &n_fps);
  g_assert_cmpuint (n_fps, ==, n);
  g_assert_cmpuint (n_used, ==, n);
  g_assert_cmpuint (n_resident, ==, n);
  g_assert_cmpuint (n_user, ==, n);
  g_assert_cmpuint (n_sys, ==, n);
  g_assert_cmpuint (n_total, ==, n);

  beacons = bl_session_get_beacons (session, &n_beacons);
  g_assert_cmpuint (n_beacons, ==, MIN (2 * n, bl_fake_roku_n_beacons ()));
  for (guint i = 0; i < n_beacons; i++)
    {
      gint64 ts;
      g_autofree char *name = g_strdelimit (g_strdup (bl_fake_roku_beacon (f->roku, i, &ts)), "-", '_');

      g_assert_cmpstr (beacons[i].name, ==, name);
      g_assert_cmpint (beacons[i].timestamp_ms, ==, ts);
    }

  /* graphics memory, summed over the instances, and the bitmaps */
  {
    const BlSample *texture, *system;
    guint n_texture, n_system;

    texture = bl_session_get_series (session, BL_SERIES_GRAPHICS_TEXTURE, &n_texture);
    system = bl_session_get_series (session, BL_SERIES_GRAPHICS_SYSTEM, &n_system);
    g_assert_cmpuint (n_texture, ==, n);
    g_assert_cmpuint (n_system, ==, n);
    g_assert_cmpuint (bl_session_get_n_details (session, BL_DETAIL_BITMAPS), ==, n);
    for (guint i = 0; i < n; i++)
      {
        const BlBitmap *bitmaps;
        guint n_bitmaps;

        g_assert_cmpfloat (texture[i].value, ==, (double) bl_fake_roku_texture_used (i));
        g_assert_cmpfloat (system[i].value, ==, (double) bl_fake_roku_system_used (i));
        bitmaps = bl_session_get_bitmaps (session, i, &n_bitmaps);
        g_assert_cmpuint (n_bitmaps, ==, bl_fake_roku_n_bitmaps (i));
        for (guint j = 0; j < n_bitmaps; j++)
          {
            gint64 width, height, bpp, size;
            g_autofree char *name = NULL;

            bl_fake_roku_bitmap (i, j, &width, &height, &bpp, &size, &name);
            g_assert_cmpint (bitmaps[j].width, ==, width);
            g_assert_cmpint (bitmaps[j].height, ==, height);
            g_assert_cmpint (bitmaps[j].bpp, ==, bpp);
            g_assert_cmpint (bitmaps[j].size, ==, size);
            g_assert_cmpstr (bitmaps[j].name, ==, name);
          }
      }
  }

  /* one rendezvous point per poll, holding what that read drained */
  {
    const BlSample *count, *drops, *total_time;
    guint n_count, n_drops, n_total_time;

    count = bl_session_get_series (session, BL_SERIES_RENDEZVOUS_COUNT, &n_count);
    drops = bl_session_get_series (session, BL_SERIES_RENDEZVOUS_DROPS, &n_drops);
    total_time = bl_session_get_series (session, BL_SERIES_RENDEZVOUS_TOTAL_TIME,
                                        &n_total_time);
    g_assert_cmpuint (n_count, ==, n);
    g_assert_cmpuint (n_drops, ==, n);
    g_assert_cmpuint (n_total_time, ==, n);
    g_assert_cmpuint (bl_session_get_n_details (session, BL_DETAIL_RENDEZVOUS), ==, n);
    for (guint i = 0; i < n; i++)
      {
        const BlRendezvousItem *items;
        guint n_items;
        gint64 sum = 0;

        g_assert_cmpfloat (count[i].value, ==, bl_fake_roku_rendezvous_count (i));
        g_assert_cmpfloat (drops[i].value, ==, bl_fake_roku_rendezvous_drops (i));
        items = bl_session_get_rendezvous_items (session, i, &n_items);
        g_assert_cmpuint (n_items, ==, bl_fake_roku_rendezvous_count (i));
        for (guint j = 0; j < n_items; j++)
          {
            gint64 id, start, end, line;
            const char *file;

            bl_fake_roku_rendezvous (i, j, &id, &start, &end, &line, &file);
            g_assert_cmpint (items[j].id, ==, id);
            g_assert_cmpfloat (items[j].start_ms, ==, (double) start);
            g_assert_cmpfloat (items[j].end_ms, ==, (double) end);
            g_assert_cmpint (items[j].line, ==, line);
            g_assert_cmpstr (items[j].name, ==, file);
            sum += end - start;
          }
        g_assert_cmpfloat (total_time[i].value, ==, (double) sum);
      }
  }

  /* the SceneGraph nodes by type, the BrightScript objects, the registry */
  {
    const BlSample *nodes, *objects, *objects_memory, *registry;
    guint n_nodes, n_objects, n_objects_memory, n_registry;

    nodes = bl_session_get_series (session, BL_SERIES_NODES_TOTAL, &n_nodes);
    objects = bl_session_get_series (session, BL_SERIES_BS_OBJECTS_COUNT, &n_objects);
    objects_memory = bl_session_get_series (session, BL_SERIES_BS_OBJECTS_MEMORY,
                                            &n_objects_memory);
    registry = bl_session_get_series (session, BL_SERIES_REGISTRY_USED, &n_registry);
    g_assert_cmpuint (n_nodes, ==, n);
    g_assert_cmpuint (n_objects, ==, n);
    g_assert_cmpuint (n_objects_memory, ==, n);
    g_assert_cmpuint (n_registry, ==, n);
    g_assert_cmpuint (bl_session_get_n_details (session, BL_DETAIL_NODES), ==, n);
    g_assert_cmpuint (bl_session_get_n_details (session, BL_DETAIL_BS_OBJECTS), ==, n);
    g_assert_cmpuint (bl_session_get_n_details (session, BL_DETAIL_REGISTRY), ==, n);
    for (guint i = 0; i < n; i++)
      {
        const BlNodeType *types;
        const BlBsGroup *groups;
        const BlRegistrySection *sections;
        guint n_types, n_groups, n_sections, j = 0, total = 0;
        gint64 count_sum = 0, memory_sum = 0;

        /* nodes: only the types present, by name */
        types = bl_session_get_node_types (session, i, &n_types);
        for (guint t = 0; t < BL_FAKE_ROKU_N_NODE_TYPES; t++)
          {
            guint count = bl_fake_roku_node_count (i, t);

            total += count;
            if (count == 0)
              continue;
            g_assert_cmpuint (j, <, n_types);
            g_assert_cmpstr (types[j].name, ==, bl_fake_roku_node_types[t]);
            g_assert_cmpint (types[j].count, ==, count);
            g_assert_cmpint (types[j].memory, ==, -1);
            j++;
          }
        g_assert_cmpuint (n_types, ==, j);
        g_assert_true (nodes[i].present);
        g_assert_cmpfloat (nodes[i].value, ==, (double) total);

        /* objects: one group, the app */
        groups = bl_session_get_bs_groups (session, i, &n_groups);
        g_assert_cmpuint (n_groups, ==, 1);
        g_assert_cmpstr (groups[0].name, ==, "Fake App");
        g_assert_cmpstr (groups[0].id, ==, "dev");
        g_assert_cmpuint (groups[0].n_objects, ==, BL_FAKE_ROKU_N_OBJECT_TYPES);
        for (guint o = 0; o < BL_FAKE_ROKU_N_OBJECT_TYPES; o++)
          {
            const char *name;
            gint64 memory;
            guint count = bl_fake_roku_object (i, o, &name, &memory);

            g_assert_cmpstr (groups[0].objects[o].name, ==, name);
            g_assert_cmpint (groups[0].objects[o].count, ==, count);
            g_assert_cmpint (groups[0].objects[o].memory, ==, memory);
            count_sum += count;
            memory_sum += memory;
          }
        g_assert_cmpint (groups[0].count, ==, count_sum);
        g_assert_cmpint (groups[0].memory, ==, memory_sum);
        g_assert_cmpfloat (objects[i].value, ==, (double) count_sum);
        g_assert_cmpfloat (objects_memory[i].value, ==, (double) memory_sum);

        /* registry: what it uses of 32 KB, and the keys by section */
        g_assert_cmpfloat (registry[i].value, ==,
                           (double) (32768 - bl_fake_roku_registry_space (i)));
        sections = bl_session_get_registry_sections (session, i, &n_sections);
        g_assert_cmpuint (n_sections, ==, 2);
        g_assert_cmpstr (sections[0].name, ==, "auth");
        g_assert_cmpuint (sections[0].n_keys, ==, 2);
        g_assert_cmpstr (sections[0].keys[0], ==, "token");
        g_assert_cmpstr (sections[0].keys[1], ==, "user");
        g_assert_cmpstr (sections[1].name, ==, "settings");
        g_assert_cmpuint (sections[1].n_keys, ==, bl_fake_roku_registry_n_keys (i, 1));
        for (guint k = 0; k < sections[1].n_keys; k++)
          {
            g_autofree char *key = g_strdup_printf ("k%u", k);

            g_assert_cmpstr (sections[1].keys[k], ==, key);
          }
        g_assert_cmpint (nodes[i].timestamp_ms, ==, used[i].timestamp_ms);
        g_assert_cmpint (registry[i].timestamp_ms, ==, used[i].timestamp_ms);
      }
  }

  for (guint i = 0; i < n; i++)
    {
      g_assert_true (used[i].present);
      g_assert_cmpfloat (used[i].value, ==, (double) bl_fake_roku_chanperf_used (i));
      g_assert_cmpfloat (resident[i].value, ==, (double) bl_fake_roku_chanperf_used (i));
      g_assert_cmpfloat_with_epsilon (user[i].value, bl_fake_roku_chanperf_user (i), 1e-9);
      g_assert_cmpfloat_with_epsilon (sys[i].value, bl_fake_roku_chanperf_sys (i), 1e-9);
      g_assert_cmpfloat_with_epsilon (total[i].value,
                                      bl_fake_roku_chanperf_user (i)
                                      + bl_fake_roku_chanperf_sys (i), 1e-9);
      g_assert_cmpfloat_with_epsilon (fps[i].value, bl_fake_roku_fps (i), 1e-9);
      g_assert_cmpint (used[i].timestamp_ms, ==, user[i].timestamp_ms);
      g_assert_cmpint (used[i].timestamp_ms, ==, fps[i].timestamp_ms);
      if (i > 0)
        g_assert_cmpint (used[i].timestamp_ms, >=, used[i - 1].timestamp_ms);
    }
}

static void
on_polled (BlResourcePoller *poller,
           Fixture          *f)
{
  g_autoptr(BlSession) session = NULL;
  guint n = bl_resource_poller_get_n_polls (poller);

  /* valid after every poll, holding every poll so far */
  session = read_back (f);
  if (!f->refusing)
    assert_served (f, session, n);

  /* the same, straight from the poller, for a live view */
  if (!f->refusing)
    {
      g_autoptr(BlSession) live = bl_resource_poller_dup_session (poller);

      g_assert_nonnull (live);
      assert_served (f, live, n);
      g_assert_cmpint (bl_resource_poller_get_first_poll_time (poller), >, 0);
      g_assert_cmpint (bl_resource_poller_get_first_poll_time (poller), <=,
                       g_get_monotonic_time ());
    }
  f->checked = n;

  if (n == f->stop_after)
    {
      if (f->vanish)
        bl_fake_roku_vanish (f->roku);
      else if (f->cancellable != NULL)
        g_cancellable_cancel (f->cancellable);
      else
        bl_resource_poller_stop (poller);
    }
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GAsyncResult) info = NULL;
  g_autoptr(GAsyncResult) app = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  f->roku = bl_fake_roku_new (BL_FAKE_ROKU_NORMAL, &error);
  g_assert_no_error (error);
  f->device = bl_device_new ("127.0.0.1", bl_fake_roku_get_ecp_port (f->roku));
  bl_device_query_info_async (f->device, NULL, got_result, &info);
  g_assert_true (bl_device_query_info_finish (f->device, wait_for (&info), &error));
  bl_device_query_active_app_async (f->device, NULL, got_result, &app);
  g_assert_true (bl_device_query_active_app_finish (f->device, wait_for (&app), &error));
  g_assert_no_error (error);

  f->dir = g_dir_make_tmp ("test-capture-resources-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (f->dir, "session.json", NULL);
  f->output = g_file_new_for_path (path);

  f->poller = bl_resource_poller_new (f->device, f->output);
  bl_resource_poller_set_interval (f->poller, 10);
  g_signal_connect (f->poller, "polled", G_CALLBACK (on_polled), f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_file_delete (f->output, NULL, NULL);
  g_rmdir (f->dir);
  g_free (f->dir);
  g_clear_object (&f->output);
  g_clear_object (&f->poller);
  g_clear_object (&f->device);
  g_clear_object (&f->cancellable);
  bl_fake_roku_free (f->roku);
}

static void
test_series (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlSession) session = NULL;
  const BlSessionInfo *info;

  f->stop_after = 5;
  bl_resource_poller_run_async (f->poller, NULL, got_result, &result);
  g_assert_true (bl_resource_poller_run_finish (f->poller, wait_for (&result), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->checked, ==, 5);
  g_assert_cmpuint (bl_resource_poller_get_n_polls (f->poller), ==, 5);
  g_assert_cmpuint (bl_fake_roku_get_n_queries (f->roku, "/query/chanperf/dev"), ==, 5);
  g_assert_cmpuint (bl_fake_roku_get_n_queries (f->roku, "/query/graphics-frame-rate"), ==, 5);
  g_assert_cmpuint (bl_fake_roku_get_n_queries (f->roku, "/fwbeacons/track/dev"), ==, 1);
  g_assert_cmpuint (bl_fake_roku_get_n_queries (f->roku, "/query/fwbeacons"), ==, 5);
  g_assert_cmpuint (bl_fake_roku_get_n_queries (f->roku, "/sgrendezvous/track/dev"), ==, 1);
  g_assert_cmpuint (bl_fake_roku_get_n_queries (f->roku, "/query/sgrendezvous"), ==, 5);
  g_assert_cmpuint (bl_fake_roku_get_n_queries (f->roku, "/query/r2d2-bitmaps/dev"), ==, 5);
  g_assert_cmpuint (bl_fake_roku_get_n_queries (f->roku, "/query/sgnodes/all"), ==, 5);
  g_assert_cmpuint (bl_fake_roku_get_n_queries (f->roku, "/query/app-object-counts/dev"), ==, 5);
  g_assert_cmpuint (bl_fake_roku_get_n_queries (f->roku, "/query/registry/dev"), ==, 5);

  session = read_back (f);
  assert_served (f, session, 5);
  info = bl_session_get_info (session);
  g_assert_cmpstr (info->device_name, ==, BL_FAKE_ROKU_NAME);
  g_assert_cmpstr (info->model_number, ==, BL_FAKE_ROKU_MODEL);
  g_assert_cmpstr (info->serial_number, ==, BL_FAKE_ROKU_SERIAL);
  g_assert_cmpstr (info->software_version, ==, "14.1.4");
  g_assert_cmpint (info->software_build, ==, 6812);
  g_assert_cmpstr (info->channel_id, ==, "dev");
  g_assert_cmpstr (info->channel_name, ==, "Fake App");
  g_assert_cmpstr (info->channel_version, ==, "1.2.3");
  g_assert_nonnull (info->uuid);
  g_assert_cmpint (info->started_at_ms, >, 0);
}

static void
test_vanish (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlSession) session = NULL;

  f->stop_after = 3;
  f->vanish = TRUE;
  bl_resource_poller_run_async (f->poller, NULL, got_result, &result);
  g_assert_false (bl_resource_poller_run_finish (f->poller, wait_for (&result), &error));
  g_assert_error (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_DISCONNECTED);
  g_assert_cmpstr (error->message, ==,
                   "Fake Roku stopped answering after 3 polls, which are saved: check that "
                   "the device is still on and on this network.");

  session = read_back (f);
  assert_served (f, session, 3);
}

static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlSession) session = NULL;

  f->stop_after = 2;
  f->cancellable = g_cancellable_new ();
  bl_resource_poller_run_async (f->poller, f->cancellable, got_result, &result);
  g_assert_false (bl_resource_poller_run_finish (f->poller, wait_for (&result), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  session = read_back (f);
  assert_served (f, session, 2);
}

/* Firmware without some queries: each refused one (a 404, an answer whose
 * status says FAILED, a refused tracking) is asked once and dropped for the
 * rest of the run; the others go on at every poll. */
static void
test_refused (Fixture       *f,
              gconstpointer  data)
{
  static const struct
  {
    const char *path;
    guint       n_asked;
  } expected[] = {
    { "/query/chanperf/dev", 3 },
    { "/query/graphics-frame-rate", 1 },
    { "/fwbeacons/track/dev", 1 },
    { "/query/fwbeacons", 0 },
    { "/sgrendezvous/track/dev", 1 },
    { "/query/sgrendezvous", 3 },
    { "/query/r2d2-bitmaps/dev", 3 },
    { "/query/sgnodes/all", 1 },
    { "/query/app-object-counts/dev", 3 },
    { "/query/registry/dev", 1 },
  };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlSession) session = NULL;
  const BlSample *used, *texture, *objects, *count;
  guint n_used, n_fps, n_texture, n_nodes, n_objects, n_registry, n_count, n_beacons;

  bl_fake_roku_refuse (f->roku, "/query/graphics-frame-rate", BL_FAKE_ROKU_REFUSE_NOT_FOUND);
  bl_fake_roku_refuse (f->roku, "/fwbeacons/track/dev", BL_FAKE_ROKU_REFUSE_NOT_FOUND);
  bl_fake_roku_refuse (f->roku, "/query/sgnodes/all", BL_FAKE_ROKU_REFUSE_STATUS);
  bl_fake_roku_refuse (f->roku, "/query/registry/dev", BL_FAKE_ROKU_REFUSE_STATUS);
  f->refusing = TRUE;
  f->stop_after = 3;
  bl_resource_poller_run_async (f->poller, NULL, got_result, &result);
  g_assert_true (bl_resource_poller_run_finish (f->poller, wait_for (&result), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (bl_resource_poller_get_n_polls (f->poller), ==, 3);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_test_message ("%s", expected[i].path);
      g_assert_cmpuint (bl_fake_roku_get_n_queries (f->roku, expected[i].path), ==,
                        expected[i].n_asked);
    }

  /* the session has what the device answered, and nothing of the rest */
  session = read_back (f);
  used = bl_session_get_series (session, BL_SERIES_MEMORY_USED, &n_used);
  bl_session_get_series (session, BL_SERIES_FPS, &n_fps);
  texture = bl_session_get_series (session, BL_SERIES_GRAPHICS_TEXTURE, &n_texture);
  bl_session_get_series (session, BL_SERIES_NODES_TOTAL, &n_nodes);
  objects = bl_session_get_series (session, BL_SERIES_BS_OBJECTS_COUNT, &n_objects);
  bl_session_get_series (session, BL_SERIES_REGISTRY_USED, &n_registry);
  count = bl_session_get_series (session, BL_SERIES_RENDEZVOUS_COUNT, &n_count);
  bl_session_get_beacons (session, &n_beacons);
  g_assert_cmpuint (n_used, ==, 3);
  g_assert_cmpuint (n_texture, ==, 3);
  g_assert_cmpuint (n_objects, ==, 3);
  g_assert_cmpuint (n_count, ==, 3);
  g_assert_cmpuint (n_fps, ==, 0);
  g_assert_cmpuint (n_nodes, ==, 0);
  g_assert_cmpuint (n_registry, ==, 0);
  g_assert_cmpuint (n_beacons, ==, 0);
  g_assert_cmpuint (bl_session_get_n_details (session, BL_DETAIL_NODES), ==, 0);
  g_assert_cmpuint (bl_session_get_n_details (session, BL_DETAIL_REGISTRY), ==, 0);
  g_assert_cmpuint (bl_session_get_n_details (session, BL_DETAIL_BITMAPS), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpfloat (used[i].value, ==, (double) bl_fake_roku_chanperf_used (i));
      g_assert_cmpfloat (texture[i].value, ==, (double) bl_fake_roku_texture_used (i));
      g_assert_cmpfloat (count[i].value, ==, bl_fake_roku_rendezvous_count (i));
      g_assert_cmpint (objects[i].timestamp_ms, ==, used[i].timestamp_ms);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/capture/resources/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("series", test_series);
  ADD ("vanish", test_vanish);
  ADD ("cancel", test_cancel);
  ADD ("refused", test_refused);

  return g_test_run ();
}
