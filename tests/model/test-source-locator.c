/* test-source-locator.c — pkg:/ names to files in a folder or a .zip
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bl-source-locator.h"
#include "bl-zip-writer.h"

static char *tmpdir;

static const char main_brs[] =
  "sub Main()\n"
  "    screen = CreateObject(\"roSGScreen\")\n"
  "    port = CreateObject(\"roMessagePort\")\n"
  "end sub\n";

static const char grid_brs[] =
  "function init()\n"
  "    m.grid = m.top.findNode(\"grid\")\n"
  "end function\n";

static const char grid_lower_brs[] = "' the lower-case twin\n";

static char *
make_file (const char *relative,
           const char *text)
{
  char *path = g_build_filename (tmpdir, relative, NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);

  return path;
}

static BlSourceLocator *
locator_for (const char *relative)
{
  g_autofree char *path = g_build_filename (tmpdir, relative, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  return bl_source_locator_new (file);
}

static void
assert_loads (BlSourceLocator *locator,
              const char      *name,
              const char      *expected)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = bl_source_locator_load (locator, name, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                   expected, strlen (expected));
}

static void
assert_fails (BlSourceLocator *locator,
              const char      *name,
              int              code,
              const char      *in_message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = bl_source_locator_load (locator, name, NULL, &error);

  g_assert_null (bytes);
  g_assert_error (error, BL_SOURCE_LOCATOR_ERROR, code);
  if (in_message)
    g_assert_nonnull (strstr (error->message, in_message));
}

static void
test_names (void)
{
  struct { const char *name; const char *path; int code; } cases[] = {
    { "pkg:/source/main.brs", "source/main.brs", -1 },
    { "PKG:/source/main.brs", "source/main.brs", -1 },
    { "pkg:source/main.brs", "source/main.brs", -1 },
    { "pkg://components//./Grid.brs", "components/Grid.brs", -1 },
    { "source/util/Feed.brs", "source/util/Feed.brs", -1 },
    { "pkg:/components\\tasks\\Task.brs", "components/tasks/Task.brs", -1 },
    { "/home/dev/grid/source/main.brs", "home/dev/grid/source/main.brs", -1 },
    { "file:///opt/grid/source/main.brs", "opt/grid/source/main.brs", -1 },
    { "C:\\dev\\grid\\source\\main.brs", "dev/grid/source/main.brs", -1 },
    { "c:grid.brs", NULL, BL_SOURCE_LOCATOR_ERROR_NOT_IN_PACKAGE },
    { "common:/LibCore/lib.brs", NULL, BL_SOURCE_LOCATOR_ERROR_NOT_IN_PACKAGE },
    { "libpkg:/source/lib.brs", NULL, BL_SOURCE_LOCATOR_ERROR_NOT_IN_PACKAGE },
    { "tmp:/x.brs", NULL, BL_SOURCE_LOCATOR_ERROR_NOT_IN_PACKAGE },
    { "pkg:/../etc/passwd", NULL, BL_SOURCE_LOCATOR_ERROR_BAD_NAME },
    { "pkg:/source/../../x.brs", NULL, BL_SOURCE_LOCATOR_ERROR_BAD_NAME },
    { "pkg:/", NULL, BL_SOURCE_LOCATOR_ERROR_BAD_NAME },
    { "", NULL, BL_SOURCE_LOCATOR_ERROR_BAD_NAME },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *path = bl_source_locator_name_to_path (cases[i].name, &error);

      if (cases[i].path)
        {
          g_assert_no_error (error);
          g_assert_cmpstr (path, ==, cases[i].path);
        }
      else
        {
          g_assert_null (path);
          g_assert_error (error, BL_SOURCE_LOCATOR_ERROR, cases[i].code);
          g_assert_nonnull (strstr (error->message, cases[i].name));
        }
    }
}

static void
test_folder (void)
{
  g_autoptr(BlSourceLocator) locator = NULL;
  g_autoptr(BlSourceLocator) parent = NULL;
  g_autofree char *a = make_file ("app/manifest", "title=Grid\n");
  g_autofree char *b = make_file ("app/source/main.brs", main_brs);
  g_autofree char *c = make_file ("app/components/Grid.brs", grid_brs);
  g_autofree char *d = make_file ("app/components/grid.brs", grid_lower_brs);
  g_autofree char *e = make_file ("app/components/tasks/Fetch.brs", "sub go()\nend sub\n");

  locator = locator_for ("app");
  assert_loads (locator, "pkg:/source/main.brs", main_brs);
  assert_loads (locator, "pkg:/components/tasks/Fetch.brs", "sub go()\nend sub\n");
  /* exact first; else case-insensitive, the first name in byte order */
  assert_loads (locator, "pkg:/components/Grid.brs", grid_brs);
  assert_loads (locator, "pkg:/components/grid.brs", grid_lower_brs);
  assert_loads (locator, "pkg:/COMPONENTS/GRID.BRS", grid_brs);
  assert_loads (locator, "pkg:/Source/Main.brs", main_brs);
  /* a missing file names itself; the others still load */
  assert_fails (locator, "pkg:/source/missing.brs", BL_SOURCE_LOCATOR_ERROR_NOT_FOUND,
                "pkg:/source/missing.brs");
  assert_fails (locator, "pkg:/source", BL_SOURCE_LOCATOR_ERROR_NOT_FOUND, NULL);
  assert_fails (locator, "common:/LibCore/x.brs", BL_SOURCE_LOCATOR_ERROR_NOT_IN_PACKAGE, NULL);
  assert_fails (locator, "pkg:/../app/manifest", BL_SOURCE_LOCATOR_ERROR_BAD_NAME, NULL);
  assert_loads (locator, "pkg:/source/main.brs", main_brs);

  /* paths from other profilers match by their last components; pkg:/ names
   * never do */
  assert_loads (locator, "/home/dev/grid/source/main.brs", main_brs);
  assert_loads (locator, "file:///opt/grid/components/Grid.brs", grid_brs);
  assert_loads (locator, "C:\\dev\\grid\\components\\tasks\\Fetch.brs", "sub go()\nend sub\n");
  assert_fails (locator, "/home/dev/grid/source/other.brs", BL_SOURCE_LOCATOR_ERROR_NOT_FOUND,
                NULL);
  assert_fails (locator, "pkg:/nested/source/main.brs", BL_SOURCE_LOCATOR_ERROR_NOT_FOUND, NULL);

  /* the folder above the package: names resolve in the one folder with a manifest */
  parent = locator_for (".");
  assert_loads (parent, "pkg:/source/main.brs", main_brs);
}

static void
test_folder_missing (void)
{
  g_autoptr(BlSourceLocator) locator = locator_for ("no-such-folder");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = bl_source_locator_load (locator, "pkg:/source/main.brs", NULL, &error);

  g_assert_null (bytes);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

static BlZipWriter *
app_zip_full (const char *prefix,
              gboolean    big_entry)
{
  BlZipWriter *w = bl_zip_writer_new ();
  g_autofree char *manifest = g_strconcat (prefix, "manifest", NULL);
  g_autofree char *main_name = g_strconcat (prefix, "source/main.brs", NULL);
  g_autofree char *grid = g_strconcat (prefix, "components/Grid.brs", NULL);
  g_autofree char *lower = g_strconcat (prefix, "components/grid.brs", NULL);
  g_autofree char *dir = g_strconcat (prefix, "components/", NULL);
  g_autoptr(GString) big = g_string_new (NULL);
  g_autofree char *big_name = g_strconcat (prefix, "source/util/Big.brs", NULL);

  for (guint i = 0; i < 2000; i++)
    g_string_append_printf (big, "    total = total + items[%u].count ' line %u\n", i, i);

  bl_zip_writer_add_text (w, manifest, "title=Grid\n", FALSE);
  bl_zip_writer_add_text (w, main_name, main_brs, TRUE);
  bl_zip_writer_add_text (w, dir, "", FALSE);
  bl_zip_writer_add_text (w, grid, grid_brs, FALSE);
  bl_zip_writer_add_text (w, lower, grid_lower_brs, TRUE);
  if (big_entry)
    bl_zip_writer_add_text (w, big_name, big->str, TRUE);
  bl_zip_writer_add (w, "images/empty.png", "", 0, TRUE);

  return w;
}

static BlZipWriter *
app_zip (const char *prefix)
{
  return app_zip_full (prefix, TRUE);
}

static char *
big_text (void)
{
  GString *big = g_string_new (NULL);

  for (guint i = 0; i < 2000; i++)
    g_string_append_printf (big, "    total = total + items[%u].count ' line %u\n", i, i);

  return g_string_free (big, FALSE);
}

static BlSourceLocator *
zip_locator (GBytes     *bytes,
             const char *name)
{
  g_autofree char *path = g_build_filename (tmpdir, name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);

  return bl_source_locator_new (file);
}

static void
test_zip (void)
{
  BlZipWriter *w = app_zip ("");
  g_autoptr(GBytes) bytes = bl_zip_writer_finish (w);
  g_autoptr(BlSourceLocator) locator = zip_locator (bytes, "app.zip");
  g_autofree char *big = big_text ();
  g_autoptr(GBytes) empty = NULL;
  g_autoptr(GError) error = NULL;

  bl_zip_writer_free (w);

  assert_loads (locator, "pkg:/source/main.brs", main_brs);          /* deflated */
  assert_loads (locator, "pkg:/components/Grid.brs", grid_brs);      /* stored */
  assert_loads (locator, "pkg:/components/grid.brs", grid_lower_brs);
  assert_loads (locator, "pkg:/COMPONENTS/GRID.BRS", grid_brs);
  assert_loads (locator, "pkg:/source/util/big.brs", big);
  assert_loads (locator, "/Users/dev/grid/source/main.brs", main_brs);
  assert_fails (locator, "pkg:/app/source/main.brs", BL_SOURCE_LOCATOR_ERROR_NOT_FOUND, NULL);
  empty = bl_source_locator_load (locator, "pkg:/images/empty.png", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (empty), ==, 0);
  assert_fails (locator, "pkg:/source/missing.brs", BL_SOURCE_LOCATOR_ERROR_NOT_FOUND,
                "pkg:/source/missing.brs");
  assert_fails (locator, "pkg:/components", BL_SOURCE_LOCATOR_ERROR_NOT_FOUND, NULL);
  assert_loads (locator, "pkg:/source/main.brs", main_brs);
}

static void
test_zip_prefixed (void)
{
  BlZipWriter *w = app_zip ("GridApp/");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlSourceLocator) locator = NULL;

  bl_zip_writer_set_comment (w, "zipped with its folder");
  bytes = bl_zip_writer_finish (w);
  bl_zip_writer_free (w);
  locator = zip_locator (bytes, "prefixed.zip");

  assert_loads (locator, "pkg:/source/main.brs", main_brs);
  assert_loads (locator, "pkg:/components/Grid.brs", grid_brs);
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  GBytes **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = bl_source_locator_load_finish (BL_SOURCE_LOCATOR (object), result, &error);
  g_assert_no_error (error);
}

static void
test_async (void)
{
  BlZipWriter *w = app_zip ("");
  g_autoptr(GBytes) bytes = bl_zip_writer_finish (w);
  g_autoptr(BlSourceLocator) locator = zip_locator (bytes, "async.zip");
  g_autoptr(GBytes) got = NULL;

  bl_zip_writer_free (w);
  bl_source_locator_load_async (locator, "pkg:/source/main.brs", NULL, loaded_cb, &got);
  while (got == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpmem (g_bytes_get_data (got, NULL), g_bytes_get_size (got),
                   main_brs, strlen (main_brs));
}

static void
put_u16_at (guint8 *data,
            gsize   at,
            guint   v)
{
  data[at] = v & 0xff;
  data[at + 1] = (v >> 8) & 0xff;
}

static void
put_u32_at (guint8  *data,
            gsize    at,
            guint32  v)
{
  put_u16_at (data, at, v & 0xffff);
  put_u16_at (data, at + 2, v >> 16);
}

/* Loads @name from a modified copy of @bytes and expects @code. */
static void
expect_variant (GBytes     *bytes,
                void      (*modify) (guint8 *data, gsize len, gpointer user_data),
                gpointer    user_data,
                const char *name,
                int         code)
{
  gsize len = g_bytes_get_size (bytes);
  g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (bytes, NULL), len);
  g_autoptr(GBytes) variant = NULL;
  g_autoptr(BlSourceLocator) locator = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) loaded = NULL;

  modify (copy, len, user_data);
  variant = g_bytes_new (copy, len);
  locator = zip_locator (variant, "variant.zip");
  loaded = bl_source_locator_load (locator, name, NULL, &error);
  g_assert_null (loaded);
  g_assert_error (error, BL_SOURCE_LOCATOR_ERROR, code);
  g_test_message ("%s", error->message);
}

typedef struct
{
  gsize   at;
  gsize   size;     /* 2 or 4 */
  guint32 value;
} Patch;

static void
apply_patch (guint8   *data,
             gsize     len,
             gpointer  user_data)
{
  Patch *p = user_data;

  g_assert_cmpuint (p->at + p->size, <=, len);
  if (p->size == 2)
    put_u16_at (data, p->at, p->value);
  else if (p->size == 4)
    put_u32_at (data, p->at, p->value);
  else
    data[p->at] ^= (guint8) p->value;
}

static void
apply_patches (guint8   *data,
               gsize     len,
               gpointer  user_data)
{
  for (Patch *p = user_data; p->size != 0; p++)
    apply_patch (data, len, p);
}

static void
test_zip_hostile (void)
{
  /* small, so that every prefix and every bit flip can be tried */
  BlZipWriter *w = app_zip_full ("", FALSE);
  g_autoptr(GBytes) bytes = bl_zip_writer_finish (w);
  gsize len = g_bytes_get_size (bytes);
  const guint8 *data = g_bytes_get_data (bytes, NULL);
  gsize end = bl_zip_writer_get_end_offset (w);
  gsize main_central = bl_zip_writer_get_central_offset (w, 1);   /* deflated main.brs */
  gsize grid_central = bl_zip_writer_get_central_offset (w, 3);   /* stored Grid.brs */
  gsize main_local = bl_zip_writer_get_local_offset (w, 1);
  gsize grid_local = bl_zip_writer_get_local_offset (w, 3);
  Patch p;

  /* every prefix: an error of our domain, never a crash */
  for (gsize cut = 0; cut < len; cut++)
    {
      g_autoptr(GBytes) prefix = g_bytes_new_from_bytes (bytes, 0, cut);
      g_autoptr(BlSourceLocator) locator = zip_locator (prefix, "prefix.zip");
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) loaded = bl_source_locator_load (locator, "pkg:/source/main.brs", NULL,
                                                         &error);

      g_assert_null (loaded);
      g_assert_nonnull (error);
      g_assert_true (error->domain == BL_SOURCE_LOCATOR_ERROR);
      g_assert_true (error->code == BL_SOURCE_LOCATOR_ERROR_NOT_ARCHIVE ||
                     error->code == BL_SOURCE_LOCATOR_ERROR_CORRUPT);
    }

  /* the central directory claims more entries than it can hold */
  p = (Patch) { end + 8, 2, 5000 };
  expect_variant (bytes, apply_patch, &p, "pkg:/source/main.brs",
                  BL_SOURCE_LOCATOR_ERROR_UNSUPPORTED);   /* disk counts disagree */
  {
    Patch both[3] = { { end + 8, 2, 5000 }, { end + 10, 2, 5000 }, { 0, 0, 0 } };

    expect_variant (bytes, apply_patches, both, "pkg:/source/main.brs",
                    BL_SOURCE_LOCATOR_ERROR_CORRUPT);
  }
  /* the directory offset past the end record */
  p = (Patch) { end + 16, 4, (guint32) end };
  expect_variant (bytes, apply_patch, &p, "pkg:/source/main.brs",
                  BL_SOURCE_LOCATOR_ERROR_CORRUPT);
  /* a huge directory size */
  p = (Patch) { end + 12, 4, 0x7ffffff0 };
  expect_variant (bytes, apply_patch, &p, "pkg:/source/main.brs",
                  BL_SOURCE_LOCATOR_ERROR_CORRUPT);
  /* ZIP64 markers */
  p = (Patch) { end + 16, 4, 0xffffffff };
  expect_variant (bytes, apply_patch, &p, "pkg:/source/main.brs",
                  BL_SOURCE_LOCATOR_ERROR_UNSUPPORTED);
  /* a local header offset past the end, and one that points at no header */
  p = (Patch) { main_central + 42, 4, 0xfffffff0 };
  expect_variant (bytes, apply_patch, &p, "pkg:/source/main.brs",
                  BL_SOURCE_LOCATOR_ERROR_CORRUPT);
  p = (Patch) { main_central + 42, 4, (guint32) main_local + 3 };
  expect_variant (bytes, apply_patch, &p, "pkg:/source/main.brs",
                  BL_SOURCE_LOCATOR_ERROR_CORRUPT);
  /* huge sizes: uncompressed beyond the limit, compressed beyond the archive */
  p = (Patch) { main_central + 24, 4, 0xfffffff0 };
  expect_variant (bytes, apply_patch, &p, "pkg:/source/main.brs",
                  BL_SOURCE_LOCATOR_ERROR_TOO_LARGE);
  p = (Patch) { main_central + 20, 4, 0x7ffffff0 };
  expect_variant (bytes, apply_patch, &p, "pkg:/source/main.brs",
                  BL_SOURCE_LOCATOR_ERROR_CORRUPT);
  /* a recorded size smaller or larger than what inflates */
  p = (Patch) { main_central + 24, 4, 10 };
  expect_variant (bytes, apply_patch, &p, "pkg:/source/main.brs",
                  BL_SOURCE_LOCATOR_ERROR_CORRUPT);
  p = (Patch) { main_central + 24, 4, 100000 };
  expect_variant (bytes, apply_patch, &p, "pkg:/source/main.brs",
                  BL_SOURCE_LOCATOR_ERROR_CORRUPT);
  /* stored sizes that disagree */
  p = (Patch) { grid_central + 24, 4, 3 };
  expect_variant (bytes, apply_patch, &p, "pkg:/components/Grid.brs",
                  BL_SOURCE_LOCATOR_ERROR_CORRUPT);
  /* a damaged byte in stored data: the CRC notices */
  p = (Patch) { grid_local + 30 + strlen ("components/Grid.brs") + 3, 1, 0x20 };
  expect_variant (bytes, apply_patch, &p, "pkg:/components/Grid.brs",
                  BL_SOURCE_LOCATOR_ERROR_CORRUPT);
  /* unknown method, encryption */
  p = (Patch) { main_central + 10, 2, 12 };
  expect_variant (bytes, apply_patch, &p, "pkg:/source/main.brs",
                  BL_SOURCE_LOCATOR_ERROR_UNSUPPORTED);
  p = (Patch) { main_central + 8, 2, 1 };
  expect_variant (bytes, apply_patch, &p, "pkg:/source/main.brs",
                  BL_SOURCE_LOCATOR_ERROR_UNSUPPORTED);
  /* a name length running past the directory */
  p = (Patch) { grid_central + 28, 2, 0xffff };
  expect_variant (bytes, apply_patch, &p, "pkg:/source/main.brs",
                  BL_SOURCE_LOCATOR_ERROR_CORRUPT);
  /* not a zip at all */
  p = (Patch) { end, 4, 0 };
  expect_variant (bytes, apply_patch, &p, "pkg:/source/main.brs",
                  BL_SOURCE_LOCATOR_ERROR_NOT_ARCHIVE);

  /* flip every bit of the deflated entry and its headers: an error of our
   * domain or the right text, never a crash */
  for (gsize at = main_local; at < grid_local; at++)
    for (guint bit = 0; bit < 8; bit++)
      {
        g_autofree guint8 *copy = g_memdup2 (data, len);
        g_autoptr(GBytes) variant = NULL;
        g_autoptr(BlSourceLocator) locator = NULL;
        g_autoptr(GError) error = NULL;
        g_autoptr(GBytes) loaded = NULL;

        copy[at] ^= 1u << bit;
        variant = g_bytes_new (copy, len);
        locator = zip_locator (variant, "flip.zip");
        loaded = bl_source_locator_load (locator, "pkg:/source/main.brs", NULL, &error);
        if (loaded)
          g_assert_cmpmem (g_bytes_get_data (loaded, NULL), g_bytes_get_size (loaded),
                           main_brs, strlen (main_brs));
        else
          g_assert_true (error->domain == BL_SOURCE_LOCATOR_ERROR);
      }

  bl_zip_writer_free (w);
}

/* Links out of the chosen folder are not followed, links inside it are;
 * a file is read up to the limit whatever size it reports. */
static void
test_folder_links (void)
{
  g_autofree char *outside = make_file ("secret.txt", "password\n");
  g_autofree char *inside = make_file ("linked/source/main.brs", main_brs);
  g_autofree char *link_out = g_build_filename (tmpdir, "linked/source/secret.brs", NULL);
  g_autofree char *link_in = g_build_filename (tmpdir, "linked/source/again.brs", NULL);
  g_autofree char *link_proc = g_build_filename (tmpdir, "linked/source/pagemap.brs", NULL);
  g_autofree char *link_dir = g_build_filename (tmpdir, "linked/components", NULL);
  g_autofree char *outdir = g_build_filename (tmpdir, "elsewhere", NULL);
  g_autofree char *manifest = make_file ("linked/manifest", "title=Linked\n");
  g_autofree char *elsewhere = make_file ("elsewhere/Grid.brs", grid_brs);
  g_autoptr(BlSourceLocator) locator = NULL;

  g_assert_cmpint (symlink (outside, link_out), ==, 0);
  g_assert_cmpint (symlink ("main.brs", link_in), ==, 0);
  g_assert_cmpint (symlink ("/proc/self/pagemap", link_proc), ==, 0);
  g_assert_cmpint (symlink (outdir, link_dir), ==, 0);

  locator = locator_for ("linked");
  assert_loads (locator, "pkg:/source/main.brs", main_brs);
  assert_loads (locator, "pkg:/source/again.brs", main_brs);
  assert_fails (locator, "pkg:/source/secret.brs", BL_SOURCE_LOCATOR_ERROR_OUTSIDE,
                "outside the source folder");
  assert_fails (locator, "pkg:/source/pagemap.brs", BL_SOURCE_LOCATOR_ERROR_OUTSIDE, NULL);
  assert_fails (locator, "pkg:/components/Grid.brs", BL_SOURCE_LOCATOR_ERROR_OUTSIDE, NULL);
}

/* procfs reports 0 bytes for files that hold more: the limit holds. */
static void
test_folder_reported_size (void)
{
  g_autoptr(GFile) proc = g_file_new_for_path ("/proc/self");
  g_autoptr(BlSourceLocator) locator = bl_source_locator_new (proc);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) maps = NULL;
  g_autoptr(GBytes) pagemap = NULL;

  /* a small procfs file that says it is empty is read whole */
  maps = bl_source_locator_load (locator, "/x/maps", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (maps), >, 0);

  /* pagemap holds 8 bytes per page of the address space: far more than
   * the limit, and refused after reading just past it */
  pagemap = bl_source_locator_load (locator, "/x/pagemap", NULL, &error);
  g_assert_null (pagemap);
  g_assert_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_TOO_LARGE);
}

/* An archive with exactly 65,535 entries is not ZIP64. */
static void
test_zip_65535 (void)
{
  BlZipWriter *w = bl_zip_writer_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(BlSourceLocator) locator = NULL;

  bl_zip_writer_add_text (w, "manifest", "title=Many\n", FALSE);
  bl_zip_writer_add_text (w, "source/main.brs", main_brs, TRUE);
  for (guint i = 2; i < 65535; i++)
    {
      char name[32];

      g_snprintf (name, sizeof name, "i/%u", i);
      bl_zip_writer_add (w, name, "", 0, FALSE);
    }
  g_assert_cmpuint (bl_zip_writer_get_n_entries (w), ==, 65535);
  bytes = bl_zip_writer_finish (w);
  bl_zip_writer_free (w);

  locator = zip_locator (bytes, "many.zip");
  assert_loads (locator, "pkg:/source/main.brs", main_brs);
  assert_loads (locator, "pkg:/i/65534", "");
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tmpdir = g_dir_make_tmp ("bl-locator-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/model/source-locator/names", test_names);
  g_test_add_func ("/model/source-locator/folder", test_folder);
  g_test_add_func ("/model/source-locator/folder-missing", test_folder_missing);
  g_test_add_func ("/model/source-locator/zip", test_zip);
  g_test_add_func ("/model/source-locator/zip-prefixed", test_zip_prefixed);
  g_test_add_func ("/model/source-locator/async", test_async);
  g_test_add_func ("/model/source-locator/zip-hostile", test_zip_hostile);
  g_test_add_func ("/model/source-locator/folder-links", test_folder_links);
  g_test_add_func ("/model/source-locator/folder-reported-size", test_folder_reported_size);
  g_test_add_func ("/model/source-locator/zip-65535", test_zip_65535);

  status = g_test_run ();

  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmpdir);

    (void) !system (cmd);
  }
  g_free (tmpdir);

  return status;
}
