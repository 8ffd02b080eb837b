/* test-flatpak-manifest.c — the two Flatpak manifests
 *
 * flatpak/<BASE_ID>.Devel.json builds the working tree: the development app id,
 * -Ddevelopment=true, every module from sources that exist here, without any network URL.
 * flatpak/<BASE_ID>.json is the release manifest as submitted: the app from a git tag and
 * commit of the repository the metainfo's homepage names. Both are parsed with json-glib and
 * checked for the command, the GNOME runtime and SDK and the sandbox (no filesystem access:
 * files come through the portals).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

static const char *allowed_finish_args[] = {
  "--share=ipc",
  "--socket=fallback-x11",
  "--socket=wayland",
  "--device=dri",
};

typedef struct
{
  const char *file;          /* under flatpak/ */
  const char *id;
  gboolean    development;
} Flavour;

static const Flavour devel = { BASE_ID ".Devel.json", BASE_ID ".Devel", TRUE };
static const Flavour release = { BASE_ID ".json", BASE_ID, FALSE };

typedef struct
{
  const Flavour *flavour;
  JsonParser    *parser;
  JsonObject    *manifest;
  char          *manifest_dir;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  user_data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  JsonNode *root;

  fixture->flavour = user_data;
  path = g_build_filename (BL_TOP_SRCDIR, "flatpak", fixture->flavour->file, NULL);
  fixture->manifest_dir = g_path_get_dirname (path);
  fixture->parser = json_parser_new ();
  json_parser_load_from_file (fixture->parser, path, &error);
  g_assert_no_error (error);

  root = json_parser_get_root (fixture->parser);
  g_assert_nonnull (root);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  fixture->manifest = json_node_get_object (root);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  user_data)
{
  g_clear_object (&fixture->parser);
  g_clear_pointer (&fixture->manifest_dir, g_free);
}

static const char *
get_string_member (JsonObject *object,
                   const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static JsonArray *
get_array_member (JsonObject *object,
                  const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  return json_node_get_array (node);
}

static void
test_identity (Fixture       *fixture,
               gconstpointer  user_data)
{
  const char *id = get_string_member (fixture->manifest, "id");

  /* "app-id" is the older spelling of "id"; accept either, not both */
  if (id == NULL)
    id = get_string_member (fixture->manifest, "app-id");
  else
    g_assert_false (json_object_has_member (fixture->manifest, "app-id"));

  g_assert_cmpstr (id, ==, fixture->flavour->id);
  g_assert_cmpstr (get_string_member (fixture->manifest, "command"), ==, "brightlens");
}

/* The app module: the one named after the project, at the top level. */
static JsonObject *
app_module (Fixture *fixture)
{
  JsonArray *modules = get_array_member (fixture->manifest, "modules");
  JsonObject *found = NULL;

  g_assert_nonnull (modules);
  for (guint i = 0; i < json_array_get_length (modules); i++)
    {
      JsonNode *node = json_array_get_element (modules, i);

      if (JSON_NODE_HOLDS_OBJECT (node) &&
          g_strcmp0 (get_string_member (json_node_get_object (node), "name"),
                     PACKAGE_NAME) == 0)
        {
          g_assert_null (found);
          found = json_node_get_object (node);
        }
    }
  g_assert_nonnull (found);

  return found;
}

static gboolean
has_config_opt (JsonObject *module,
                const char *opt)
{
  JsonArray *opts = get_array_member (module, "config-opts");

  for (guint i = 0; opts != NULL && i < json_array_get_length (opts); i++)
    if (g_strcmp0 (json_array_get_string_element (opts, i), opt) == 0)
      return TRUE;

  return FALSE;
}

static void
test_flavour (Fixture       *fixture,
              gconstpointer  user_data)
{
  JsonObject *module = app_module (fixture);

  g_assert_cmpstr (get_string_member (module, "buildsystem"), ==, "meson");
  g_assert_true (has_config_opt (module, "-Ddevelopment=true") ==
                 fixture->flavour->development);
  /* a release is optimised and does not build the tests */
  if (!fixture->flavour->development)
    {
      g_assert_true (has_config_opt (module, "-Dbuildtype=release"));
      g_assert_true (has_config_opt (module, "-Dtests=false"));
    }
}

/* The homepage the metainfo gives, e.g. https://github.com/owner/name */
static char *
metainfo_homepage (void)
{
  g_autofree char *path = g_build_filename (BL_TOP_SRCDIR, "data", BASE_ID ".metainfo.xml.in.in",
                                            NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  const char *start;
  const char *end;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  start = strstr (text, "<url type=\"homepage\">");
  g_assert_nonnull (start);
  start += strlen ("<url type=\"homepage\">");
  end = strstr (start, "</url>");
  g_assert_nonnull (end);

  return g_strndup (start, end - start);
}

static gboolean
is_commit (const char *str)
{
  if (str == NULL || strlen (str) != 40)
    return FALSE;
  for (const char *p = str; *p != '\0'; p++)
    if (!g_ascii_isxdigit (*p) || g_ascii_isupper (*p))
      return FALSE;

  return TRUE;
}

/* The release builds the app from a tag and commit of the project's repository. */
static void
test_release_source (Fixture       *fixture,
                     gconstpointer  user_data)
{
  JsonArray *sources = get_array_member (app_module (fixture), "sources");
  g_autofree char *homepage = metainfo_homepage ();
  g_autofree char *git_url = g_strconcat (homepage, ".git", NULL);
  g_autofree char *tag = g_strconcat ("v", PACKAGE_VERSION, NULL);
  JsonObject *source;

  g_assert_nonnull (sources);
  g_assert_cmpuint (json_array_get_length (sources), ==, 1);
  source = json_array_get_object_element (sources, 0);
  g_assert_nonnull (source);
  g_assert_cmpstr (get_string_member (source, "type"), ==, "git");
  g_assert_true (g_str_has_prefix (homepage, "https://"));
  g_assert_true (g_strcmp0 (get_string_member (source, "url"), git_url) == 0 ||
                 g_strcmp0 (get_string_member (source, "url"), homepage) == 0);
  g_assert_cmpstr (get_string_member (source, "tag"), ==, tag);
  g_assert_true (is_commit (get_string_member (source, "commit")));
  /* a release is not a moving branch */
  g_assert_false (json_object_has_member (source, "branch"));
}

static void
test_runtime (Fixture       *fixture,
              gconstpointer  user_data)
{
  const char *version = get_string_member (fixture->manifest, "runtime-version");
  guint64 major = 0;
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (get_string_member (fixture->manifest, "runtime"), ==, "org.gnome.Platform");
  g_assert_cmpstr (get_string_member (fixture->manifest, "sdk"), ==, "org.gnome.Sdk");

  /* A released GNOME runtime ("51"), not a moving branch such as "master" */
  g_assert_nonnull (version);
  g_ascii_string_to_unsigned (version, 10, 49, 999, &major, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (major, >=, 49);
}

static void
test_finish_args (Fixture       *fixture,
                  gconstpointer  user_data)
{
  JsonArray *args = get_array_member (fixture->manifest, "finish-args");
  gboolean seen[G_N_ELEMENTS (allowed_finish_args)] = { FALSE, };

  g_assert_nonnull (args);

  for (guint i = 0; i < json_array_get_length (args); i++)
    {
      JsonNode *node = json_array_get_element (args, i);
      const char *arg;
      gboolean allowed = FALSE;

      g_assert_true (JSON_NODE_HOLDS_VALUE (node));
      g_assert_true (json_node_get_value_type (node) == G_TYPE_STRING);
      arg = json_node_get_string (node);

      /* Files arrive through the portals: no home, host or other filesystem access. */
      g_assert_false (g_str_has_prefix (arg, "--filesystem"));

      for (guint j = 0; j < G_N_ELEMENTS (allowed_finish_args); j++)
        {
          if (g_strcmp0 (arg, allowed_finish_args[j]) == 0)
            {
              g_assert_false (seen[j]);
              seen[j] = TRUE;
              allowed = TRUE;
            }
        }

      if (!allowed)
        g_test_message ("unexpected finish-arg %s", arg);
      g_assert_true (allowed);
    }

  for (guint j = 0; j < G_N_ELEMENTS (allowed_finish_args); j++)
    {
      if (!seen[j])
        g_test_message ("missing finish-arg %s", allowed_finish_args[j]);
      g_assert_true (seen[j]);
    }
}

static gboolean
is_network_location (const char *str)
{
  g_autofree char *scheme = g_uri_parse_scheme (str);

  return scheme != NULL;
}

static void
check_source (JsonObject *source,
              const char *base_dir,
              guint      *n_dir_sources)
{
  const char *type = get_string_member (source, "type");
  const char *path = get_string_member (source, "path");
  g_autofree char *resolved = NULL;

  g_assert_nonnull (type);

  /* Sources come from this tree, never from the network. */
  g_assert_false (json_object_has_member (source, "url"));
  g_assert_false (json_object_has_member (source, "mirror-urls"));
  g_assert_true (g_strcmp0 (type, "dir") == 0 ||
                 g_strcmp0 (type, "file") == 0 ||
                 g_strcmp0 (type, "patch") == 0 ||
                 g_strcmp0 (type, "shell") == 0);

  if (g_strcmp0 (type, "shell") == 0)
    return;

  g_assert_nonnull (path);
  g_assert_false (is_network_location (path));

  resolved = g_canonicalize_filename (path, base_dir);
  g_test_message ("%s source %s -> %s", type, path, resolved);

  if (g_strcmp0 (type, "dir") == 0)
    {
      g_autofree char *meson_build = g_build_filename (resolved, "meson.build", NULL);
      JsonArray *skip = get_array_member (source, "skip");

      g_assert_true (g_file_test (resolved, G_FILE_TEST_IS_DIR));
      /* the module is built with meson from this directory */
      g_assert_true (g_file_test (meson_build, G_FILE_TEST_IS_REGULAR));

      if (skip != NULL)
        {
          for (guint i = 0; i < json_array_get_length (skip); i++)
            {
              JsonNode *node = json_array_get_element (skip, i);

              g_assert_true (JSON_NODE_HOLDS_VALUE (node));
              g_assert_true (json_node_get_value_type (node) == G_TYPE_STRING);
              /* skipping meson.build or src would break the build */
              g_assert_cmpstr (json_node_get_string (node), !=, "meson.build");
              g_assert_cmpstr (json_node_get_string (node), !=, "src");
            }
        }

      (*n_dir_sources)++;
    }
  else
    {
      g_assert_true (g_file_test (resolved, G_FILE_TEST_IS_REGULAR));
    }
}

static void
check_modules (JsonArray  *modules,
               const char *base_dir,
               guint      *n_modules,
               guint      *n_dir_sources,
               gboolean   *app_module_is_meson)
{
  g_assert_nonnull (modules);

  for (guint i = 0; i < json_array_get_length (modules); i++)
    {
      JsonNode *node = json_array_get_element (modules, i);
      JsonObject *module;
      JsonArray *sources;
      const char *name;

      /* a module may also be the path of another manifest file next to this one */
      if (JSON_NODE_HOLDS_VALUE (node))
        {
          g_autofree char *resolved = NULL;

          g_assert_true (json_node_get_value_type (node) == G_TYPE_STRING);
          resolved = g_canonicalize_filename (json_node_get_string (node), base_dir);
          g_assert_true (g_file_test (resolved, G_FILE_TEST_IS_REGULAR));
          (*n_modules)++;
          continue;
        }

      g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
      module = json_node_get_object (node);
      name = get_string_member (module, "name");
      g_assert_nonnull (name);
      (*n_modules)++;

      sources = get_array_member (module, "sources");
      g_assert_nonnull (sources);
      g_assert_cmpuint (json_array_get_length (sources), >, 0);

      for (guint j = 0; j < json_array_get_length (sources); j++)
        {
          JsonNode *source = json_array_get_element (sources, j);

          if (JSON_NODE_HOLDS_VALUE (source))
            {
              g_autofree char *resolved = NULL;

              /* a string names a JSON file of sources */
              g_assert_true (json_node_get_value_type (source) == G_TYPE_STRING);
              resolved = g_canonicalize_filename (json_node_get_string (source), base_dir);
              g_assert_true (g_file_test (resolved, G_FILE_TEST_IS_REGULAR));
              continue;
            }

          g_assert_true (JSON_NODE_HOLDS_OBJECT (source));
          check_source (json_node_get_object (source), base_dir, n_dir_sources);
        }

      if (g_strcmp0 (name, PACKAGE_NAME) == 0)
        *app_module_is_meson = g_strcmp0 (get_string_member (module, "buildsystem"),
                                          "meson") == 0;

      if (json_object_has_member (module, "modules"))
        check_modules (get_array_member (module, "modules"), base_dir,
                       n_modules, n_dir_sources, app_module_is_meson);
    }
}

static void
test_modules_offline (Fixture       *fixture,
                      gconstpointer  user_data)
{
  JsonArray *modules = get_array_member (fixture->manifest, "modules");
  gboolean app_module_is_meson = FALSE;
  guint n_modules = 0;
  guint n_dir_sources = 0;

  check_modules (modules, fixture->manifest_dir, &n_modules, &n_dir_sources,
                 &app_module_is_meson);

  g_assert_cmpuint (n_modules, >=, 1);
  /* the app itself comes from the local source directory, built with meson */
  g_assert_cmpuint (n_dir_sources, >=, 1);
  g_assert_true (app_module_is_meson);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/data/flatpak/devel/identity", Fixture, &devel,
              fixture_set_up, test_identity, fixture_tear_down);
  g_test_add ("/data/flatpak/devel/runtime", Fixture, &devel,
              fixture_set_up, test_runtime, fixture_tear_down);
  g_test_add ("/data/flatpak/devel/finish-args", Fixture, &devel,
              fixture_set_up, test_finish_args, fixture_tear_down);
  g_test_add ("/data/flatpak/devel/flavour", Fixture, &devel,
              fixture_set_up, test_flavour, fixture_tear_down);
  g_test_add ("/data/flatpak/devel/modules-offline", Fixture, &devel,
              fixture_set_up, test_modules_offline, fixture_tear_down);
  g_test_add ("/data/flatpak/release/identity", Fixture, &release,
              fixture_set_up, test_identity, fixture_tear_down);
  g_test_add ("/data/flatpak/release/runtime", Fixture, &release,
              fixture_set_up, test_runtime, fixture_tear_down);
  g_test_add ("/data/flatpak/release/finish-args", Fixture, &release,
              fixture_set_up, test_finish_args, fixture_tear_down);
  g_test_add ("/data/flatpak/release/flavour", Fixture, &release,
              fixture_set_up, test_flavour, fixture_tear_down);
  g_test_add ("/data/flatpak/release/source", Fixture, &release,
              fixture_set_up, test_release_source, fixture_tear_down);

  return g_test_run ();
}
