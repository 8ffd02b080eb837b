/* test-window-image.c — the flame graph as an image from the window: Export… as PNG
 * (the graph as drawn) and as SVG (the CLI's writer), and Copy Image
 *
 * A test binary of its own: the recent-files manager of an earlier test in the same
 * process would write into that test's removed directories.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "bl-stacks-writer.h"
#include "bl-window-private.h"
#include "bl-window.h"
#include "widget-test-util.h"

static const char *stacks[] = {
  "T;main;grow 100",
  "T;main;shrink 40",
  NULL
};

/* turns of the main loop, a millisecond each, that a wait may take */
#define WAIT_TURNS 5000

static gboolean
page_loaded (gpointer data)
{
  return bl_profile_page_get_state (data) == BL_PROFILE_PAGE_LOADED;
}

/* The destination exists beforehand with "old" in it: the export writes beside it and
 * replaces it only when complete, so other contents mean the export is done. */
static gboolean
file_replaced (gpointer data)
{
  g_autofree char *contents = NULL;

  return g_file_get_contents (data, &contents, NULL, NULL) && g_strcmp0 (contents, "old") != 0;
}

static char *
export (BlWindow   *window,
        const char *dir,
        const char *name,
        const char *format)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_assert_true (g_file_set_contents (path, "old", -1, NULL));
  _bl_window_export_to (window, file, format);
  g_assert_true (test_iterate_until (file_replaced, path, WAIT_TURNS));
  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  g_unlink (path);

  return contents;
}

static gboolean
graph_drawn (gpointer data)
{
  BlFlameGraph *graph = data;

  return bl_flame_graph_get_layout (graph) != NULL &&
         gtk_widget_get_mapped (GTK_WIDGET (graph)) &&
         gtk_widget_get_width (GTK_WIDGET (graph)) > 0;
}

/* the widget's own rendering (no background), as pixels */
static guint8 *
render_widget (GtkWidget *widget,
               int        width,
               int        height)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  guint8 *pixels;

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)),
                                         node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  pixels = g_malloc ((gsize) width * height * 4);
  gdk_texture_download (texture, pixels, (gsize) width * 4);

  return pixels;
}

typedef struct
{
  GdkTexture *texture;
  gboolean    done;
} ClipboardRead;

static void
clipboard_read_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  ClipboardRead *read = user_data;

  read->texture = gdk_clipboard_read_texture_finish (GDK_CLIPBOARD (source), result, NULL);
  read->done = TRUE;
}

static gboolean
read_done (gpointer data)
{
  return ((ClipboardRead *) data)->done;
}

static void
test_flame_graph_image (void)
{
  g_autofree char *dir = g_dir_make_tmp ("bl-export-XXXXXX", NULL);
  g_autofree char *profile_path = g_build_filename (dir, "run.bsprof", NULL);
  g_autofree char *png_path = g_build_filename (dir, "flame.png", NULL);
  g_autoptr(GFile) profile_file = g_file_new_for_path (profile_path);
  g_autoptr(AdwApplication) app = adw_application_new ("io.github.brightlens.BrightlensTestImage",
                                                       G_APPLICATION_NON_UNIQUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) png = NULL;
  g_autofree char *svg = NULL;
  g_autofree guint8 *exported = NULL;
  g_autofree guint8 *drawn = NULL;
  ClipboardRead read = { NULL, FALSE };
  BlProfilePage *page;
  BlProfileView *view;
  BlFlameGraph *graph;
  BlProfile *profile;
  BlWindow *window;
  graphene_rect_t bounds;
  GdkRGBA color;
  guint32 grow = BL_NODE_NONE;
  int width, height, scale;
  guint compared = 0;

  g_assert_true (bl_stacks_save_bsprof (stacks, profile_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  window = bl_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  gtk_window_present (GTK_WINDOW (window));
  page = bl_window_open_file (window, profile_file);
  g_assert_true (test_iterate_until (page_loaded, page, WAIT_TURNS));
  view = bl_profile_page_get_profile_view (page);
  graph = bl_profile_view_get_flame_graph (view);
  g_assert_true (test_iterate_until (graph_drawn, graph, WAIT_TURNS));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (graph));

  profile = bl_profile_page_get_profile (page);
  for (guint32 n = 0; n < bl_profile_get_n_nodes (profile); n++)
    if (g_str_equal (bl_profile_get_node_name (profile, n), "grow"))
      grow = n;
  g_assert_cmpuint (grow, !=, BL_NODE_NONE);

  /* PNG: the flame graph as drawn, at the widget's size (times its scale) */
  {
    g_autoptr(GFile) file = g_file_new_for_path (png_path);

    g_assert_true (g_file_set_contents (png_path, "old", -1, NULL));
    _bl_window_export_to (window, file, "png");
    g_assert_true (test_iterate_until (file_replaced, png_path, WAIT_TURNS));
  }
  png = gdk_texture_new_from_filename (png_path, &error);
  g_assert_no_error (error);
  width = gtk_widget_get_width (GTK_WIDGET (graph));
  height = gtk_widget_get_height (GTK_WIDGET (graph));
  scale = gtk_widget_get_scale_factor (GTK_WIDGET (graph));
  g_assert_cmpint (gdk_texture_get_width (png), ==, width * scale);
  g_assert_cmpint (gdk_texture_get_height (png), ==, height * scale);
  exported = g_malloc ((gsize) width * height * 4 * scale * scale);
  gdk_texture_download (png, exported, (gsize) width * scale * 4);

  /* a frame's colour at its position: near the right end of "grow", clear of
   * its label */
  g_assert_true (bl_flame_graph_get_frame_bounds (graph, grow, &bounds));
  g_assert_true (bl_flame_graph_get_node_color (graph, grow, &color));
  {
    int x = (int) (bounds.origin.x + bounds.size.width - 4) * scale;
    int y = (int) (bounds.origin.y + bounds.size.height / 2) * scale;
    const guint8 *p = exported + ((gsize) y * width * scale + x) * 4;
    /* gdk_texture_download() gives B, G, R, A on little-endian machines */
    guint8 r = p[2], g = p[1], b = p[0];

    g_assert_cmpint (ABS (r - (int) lround (color.red * 255)), <=, 2);
    g_assert_cmpint (ABS (g - (int) lround (color.green * 255)), <=, 2);
    g_assert_cmpint (ABS (b - (int) lround (color.blue * 255)), <=, 2);
  }

  /* every pixel the widget paints opaquely is the same in the PNG */
  if (scale == 1)
    {
      drawn = render_widget (GTK_WIDGET (graph), width, height);
      for (gsize i = 0; i < (gsize) width * height; i++)
        if (drawn[i * 4 + 3] == 255)
          {
            g_assert_cmpmem (drawn + i * 4, 4, exported + i * 4, 4);
            compared++;
          }
      g_assert_cmpuint (compared, >, (guint) width * 10);
    }

  /* SVG: the CLI's writer, for the graph's metric */
  svg = export (window, dir, "flame.svg", "svg");
  g_assert_true (g_str_has_prefix (svg, "<?xml"));
  g_assert_nonnull (strstr (svg, "<title>grow\n"));
  g_assert_nonnull (strstr (svg, "<script"));

  /* Copy Image: a texture on the clipboard, of the same size */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.copy-image", NULL));
  {
    GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (window));

    g_assert_true (gdk_content_formats_contain_gtype (gdk_clipboard_get_formats (clipboard),
                                                      GDK_TYPE_TEXTURE));
    gdk_clipboard_read_texture_async (clipboard, NULL, clipboard_read_cb, &read);
    g_assert_true (test_iterate_until (read_done, &read, WAIT_TURNS));
    g_assert_nonnull (read.texture);
    g_assert_cmpint (gdk_texture_get_width (read.texture), ==, width * scale);
    g_assert_cmpint (gdk_texture_get_height (read.texture), ==, height * scale);
    g_clear_object (&read.texture);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_unlink (png_path);
  g_unlink (profile_path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  static const char *mime_dirs[] = { "/usr/local/share/mime", "/usr/share/mime", NULL };

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  /* the isolated XDG dirs hide the MIME database, which the image loaders need */
  g_content_type_set_mime_dirs (mime_dirs);

  if (!gtk_init_check ())
    g_error ("No display: widget tests need one (run them under xvfb-run)");
  adw_init ();
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  g_test_add_func ("/widgets/window/export-flame-graph-image", test_flame_graph_image);

  return g_test_run ();
}
