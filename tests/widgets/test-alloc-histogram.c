/* test-alloc-histogram.c — BlAllocHistogram on a writer-made mpatrol
 * profile, alone and in the profile view, under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "bl-alloc-histogram.h"
#include "bl-stacks-writer.h"
#include <glib/gstdio.h>
#include "bl-model.h"
#include "bl-mpatrol-writer.h"
#include "bl-profile-view.h"
#include "widget-test-util.h"

/* turns of the main loop, a millisecond each, that a wait may take */
#define WAIT_TURNS 2000

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 100;
}

static void
settle (void)
{
  for (guint i = 0; i < 30; i++)
    g_main_context_iteration (NULL, FALSE);
}

static GtkWidget *
present (GtkWidget *child)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 900, 500);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (test_iterate_until (is_mapped, child, WAIT_TURNS));
  settle ();
  return window;
}

/* 16 bins: sizes 1 ×5, 2 ×3, 3 ×2, 4 ×1, 8 ×7 (2 freed), and 4 of 20 or
 * more bytes in the last, open bin */
static BlProfile *
histogram_profile (void)
{
  BlMpatrolWriter *w = bl_mpatrol_writer_new ();
  static const guint sizes[][2] = { { 1, 5 }, { 2, 3 }, { 3, 2 }, { 4, 1 }, { 8, 7 }, { 20, 4 } };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  guint64 data, symbol;
  BlProfile *profile;

  bl_mpatrol_writer_set_bin_size (w, 16);
  data = bl_mpatrol_writer_add_data (w);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    for (guint k = 0; k < sizes[i][1]; k++)
      {
        bl_mpatrol_writer_bin (w, FALSE, sizes[i][0]);
        bl_mpatrol_writer_data_op (w, data, FALSE, sizes[i][0]);
      }
  bl_mpatrol_writer_bin (w, TRUE, 8);
  bl_mpatrol_writer_bin (w, TRUE, 8);
  symbol = bl_mpatrol_writer_add_symbol (w, "main", 0x401000);
  bl_mpatrol_writer_add_site (w, 0, 0x401010, symbol, data);
  bytes = bl_mpatrol_writer_serialize (w, &bl_mpatrol_lp64_le);
  bl_mpatrol_writer_free (w);

  profile = bl_mpatrol_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                    &error);
  g_assert_no_error (error);
  return profile;
}

static guint8 *
render_pixels (GtkWidget *widget,
               int       *width,
               int       *height)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  guint8 *pixels;

  gtk_widget_queue_draw (widget);
  gtk_test_widget_wait_for_draw (widget);
  settle ();
  *width = gtk_widget_get_width (widget);
  *height = gtk_widget_get_height (widget);
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), *width, *height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)),
                                         node, &GRAPHENE_RECT_INIT (0, 0, *width, *height));
  if (g_getenv ("BL_TEST_SAVE_PNG") != NULL)
    gdk_texture_save_to_png (texture, g_getenv ("BL_TEST_SAVE_PNG"));
  pixels = g_malloc ((gsize) *width * *height * 4);
  gdk_texture_download (texture, pixels, (gsize) *width * 4);
  return pixels;
}

static void
test_bars (void)
{
  g_autoptr(BlProfile) profile = histogram_profile ();
  GtkWidget *histogram = bl_alloc_histogram_new ();
  GtkWidget *window = present (histogram);
  static const guint64 counts[] = { 5, 3, 3, 7, 0, 4 };
  static const guint64 lowers[] = { 1, 2, 3, 5, 9, 16 };
  const BlAllocSizeClass *classes;
  g_autofree guint8 *pixels = NULL;
  g_autofree char *text = NULL;
  graphene_rect_t bars[6];
  GdkRGBA accent = { 0.21, 0.52, 0.89, 1 };   /* without libadwaita's named colour */
  guint n;
  int w, h;

  g_assert_false (bl_alloc_histogram_has_data (BL_ALLOC_HISTOGRAM (histogram)));
  bl_alloc_histogram_set_profile (BL_ALLOC_HISTOGRAM (histogram), profile);
  g_assert_true (bl_alloc_histogram_has_data (BL_ALLOC_HISTOGRAM (histogram)));
  settle ();

  /* the model's bins by powers of two, the open bin last */
  classes = bl_alloc_histogram_get_classes (BL_ALLOC_HISTOGRAM (histogram), &n);
  g_assert_cmpuint (n, ==, 6);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpuint (classes[i].alloc_count, ==, counts[i]);
      g_assert_cmpuint (classes[i].lower, ==, lowers[i]);
    }
  g_assert_cmpuint (classes[2].alloc_bytes, ==, 3 * 2 + 4);
  g_assert_cmpuint (classes[3].free_count, ==, 2);
  g_assert_cmpuint (classes[4].upper, ==, 15);
  g_assert_cmpuint (classes[5].upper, ==, G_MAXUINT64);

  /* bar heights in proportion to the counts, on one baseline */
  for (guint i = 0; i < n; i++)
    g_assert_true (bl_alloc_histogram_get_bar (BL_ALLOC_HISTOGRAM (histogram), i, &bars[i]));
  g_assert_false (bl_alloc_histogram_get_bar (BL_ALLOC_HISTOGRAM (histogram), 6, &bars[0]));
  g_assert_cmpfloat (bars[3].size.height, >, 50);
  g_assert_cmpfloat_with_epsilon (bars[0].size.height / bars[3].size.height, 5.0 / 7.0, 1e-6);
  g_assert_cmpfloat (bars[4].size.height, ==, 0);
  g_assert_cmpfloat_with_epsilon (bars[0].origin.y + bars[0].size.height,
                                  bars[3].origin.y + bars[3].size.height, 1e-6);
  for (guint i = 1; i < n; i++)
    g_assert_cmpfloat (bars[i].origin.x, >, bars[i - 1].origin.x + bars[i - 1].size.width);
  g_assert_cmpfloat (bars[5].origin.x + bars[5].size.width, <=, gtk_widget_get_width (histogram));

  /* drawn where they say, in the accent colour */
  gtk_style_context_lookup_color (gtk_widget_get_style_context (histogram), "accent_color",
                                  &accent);
  pixels = render_pixels (histogram, &w, &h);
  for (guint i = 0; i < n; i++)
    {
      int x = (int) (bars[i].origin.x + bars[i].size.width / 2);
      int y = (int) (bars[i].origin.y + bars[i].size.height / 2);
      const guint8 *p = pixels + ((gsize) y * w + x) * 4;

      if (counts[i] == 0)
        continue;
      g_assert_cmpfloat (fabs (p[2] / 255.0 - accent.red), <, 0.1);
      g_assert_cmpfloat (fabs (p[1] / 255.0 - accent.green), <, 0.1);
      g_assert_cmpfloat (fabs (p[0] / 255.0 - accent.blue), <, 0.1);
    }

  /* hit-testing and the tooltip */
  g_assert_cmpint (bl_alloc_histogram_bar_at (BL_ALLOC_HISTOGRAM (histogram),
                                              bars[3].origin.x + 1,
                                              bars[3].origin.y + 1), ==, 3);
  g_assert_cmpint (bl_alloc_histogram_bar_at (BL_ALLOC_HISTOGRAM (histogram), 2, 2), ==, -1);
  text = bl_alloc_histogram_dup_text_at (BL_ALLOC_HISTOGRAM (histogram), bars[3].origin.x + 1,
                                         bars[3].origin.y + 1);
  g_assert_cmpstr (text, ==, "5–8 bytes: 7 allocations (56 bytes), 2 frees (16 bytes)");
  g_clear_pointer (&text, g_free);
  text = bl_alloc_histogram_dup_text_at (BL_ALLOC_HISTOGRAM (histogram), bars[5].origin.x + 1,
                                         bars[5].origin.y + 1);
  g_assert_true (g_str_has_prefix (text, "≥16 bytes: 4 allocations"));

  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkWidget *
find_type (GtkWidget *widget,
           GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_type (c, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The profile view has an Allocation Sizes page for an mpatrol profile,
 * and none for a profile without a histogram. */
static void
test_in_profile_view (void)
{
  g_autoptr(BlProfile) profile = histogram_profile ();
  g_autoptr(BlProfile) plain = NULL;
  BlProfileView *view = BL_PROFILE_VIEW (bl_profile_view_new ());
  GtkWidget *window = present (GTK_WIDGET (view));
  GtkWidget *histogram;
  GtkStackPage *page;
  const char *lines[] = { "main;load 10", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("bl-hist-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "plain.bsprof", NULL);

  bl_profile_view_set_profile (view, profile);
  settle ();
  histogram = find_type (GTK_WIDGET (view), BL_TYPE_ALLOC_HISTOGRAM);
  g_assert_nonnull (histogram);
  page = gtk_stack_get_page (GTK_STACK (gtk_widget_get_parent (histogram)), histogram);
  g_assert_true (gtk_stack_page_get_visible (page));
  g_assert_cmpstr (gtk_stack_page_get_title (page), ==, "Allocation Sizes");
  g_assert_true (bl_alloc_histogram_get_profile (BL_ALLOC_HISTOGRAM (histogram)) == profile);

  g_assert_true (bl_stacks_save_bsprof (lines, path, &error));
  g_assert_no_error (error);
  {
    g_autoptr(GFile) file = g_file_new_for_path (path);

    plain = BL_PROFILE (bl_format_load_file (file, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
  }
  bl_profile_view_set_profile (view, plain);
  settle ();
  g_assert_false (gtk_stack_page_get_visible (page));

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_setenv ("GTK_A11Y", "none", TRUE);

  if (!gtk_init_check ())
    g_error ("No display: widget tests need one (run them under xvfb-run)");
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  g_test_add_func ("/widgets/alloc-histogram/bars", test_bars);
  g_test_add_func ("/widgets/alloc-histogram/in-profile-view", test_in_profile_view);

  return g_test_run ();
}
