/* test-samples.c — the samples that `build-aux/dev run` opens are sound
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-model.h"

static guint32
find_function (BlProfile  *profile,
               const char *thread,
               const char *name)
{
  for (guint32 i = 0; i < bl_profile_get_n_nodes (profile); i++)
    {
      const BlNode *node = bl_profile_get_node (profile, i);

      if (g_str_equal (bl_profile_get_node_name (profile, i), name) &&
          g_str_equal (bl_profile_get_thread_name (profile, node->thread), thread))
        return i;
    }

  return BL_NODE_NONE;
}

static void
test_bsprof_sample (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples",
                                                 "roku-grid-app.bsprof", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) loaded = bl_format_load_file (file, NULL, NULL, NULL, &error);
  g_autoptr(GFileInfo) info = NULL;
  BlProfile *profile;
  guint32 leak, parse;

  g_assert_no_error (error);
  g_assert_true (BL_IS_PROFILE (loaded));
  profile = BL_PROFILE (loaded);

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, 0, NULL, NULL);
  g_assert_cmpint (g_file_info_get_size (info), <, 2 * 1024 * 1024);

  g_assert_false (bl_profile_is_incomplete (profile));
  g_assert_null (bl_profile_get_warning (profile));
  g_assert_true (bl_profile_get_info (profile)->has_lines);
  g_assert_true (bl_profile_get_info (profile)->has_memory);
  g_assert_cmpuint (bl_profile_get_n_threads (profile), >=, 6);
  g_assert_cmpstr (bl_profile_get_thread_name (profile, 0), ==, "Thread main");
  g_assert_cmpuint (bl_profile_get_n_lines (profile), >, 50);

  /* the visible leak: the image cache keeps most of what it allocates */
  leak = find_function (profile, "ImageCacheTask", "cacheBitmap");
  parse = find_function (profile, "ContentTask", "parseFeed");
  g_assert_cmpuint (leak, !=, BL_NODE_NONE);
  g_assert_cmpuint (parse, !=, BL_NODE_NONE);
  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_LIVE_BYTES, leak), >,
                    bl_profile_get_self (profile, BL_METRIC_ALLOC_BYTES, leak) / 2);
  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_LIVE_BYTES, leak), >,
                    10 * bl_profile_get_self (profile, BL_METRIC_LIVE_BYTES, parse));
  g_assert_cmpuint (bl_profile_get_self (profile, BL_METRIC_CPU, parse), >, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/samples/bsprof", test_bsprof_sample);

  return g_test_run ();
}
