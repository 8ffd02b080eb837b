/* test-source-view.c — the annotated source view, hot lines and the Lines
 * page under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <gtk/gtk.h>
#include <gtksourceview/gtksource.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bl-bsprof-writer.h"
#include "bl-hot-lines-view.h"
#include "bl-line-item.h"
#include "bl-lines-page.h"
#include "bl-lines.h"
#include "bl-model.h"
#include "bl-profile-view.h"
#include "bl-source-view.h"
#include "bl-zip-writer.h"
#include "widget-test-util.h"

static char *tmpdir;
static char *system_sourceview_dir;   /* …/share/gtksourceview-5, found before isolation */

/* The isolated XDG dirs of a test hide the system's language specs, which
 * ours builds on (def.lang), and the style schemes: copy those few files in.
 * (Copies, never links: the isolated dirs are deleted recursively after
 * each test.) */
static void
copy_system_file (const char *relative)
{
  g_autofree char *from = g_build_filename (system_sourceview_dir, relative, NULL);
  g_autofree char *to = g_build_filename (g_get_user_data_dir (), "gtksourceview-5", relative,
                                          NULL);
  g_autofree char *dir = g_path_get_dirname (to);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;

  if (g_file_test (to, G_FILE_TEST_EXISTS))
    return;

  g_file_get_contents (from, &contents, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (to, contents, len, &error);
  g_assert_no_error (error);
}

static void
copy_system_specs (void)
{
  if (system_sourceview_dir == NULL)
    {
      /* newer GtkSourceView (Debian 13's 5.16) carries its specs and styles as resources,
       * which the isolated dirs do not hide */
      gtk_source_init ();
      g_assert_true (g_resources_get_info ("/org/gnome/gtksourceview/language-specs/def.lang",
                                           G_RESOURCE_LOOKUP_FLAGS_NONE, NULL, NULL, NULL));
      g_assert_true (g_resources_get_info ("/org/gnome/gtksourceview/styles/Adwaita.xml",
                                           G_RESOURCE_LOOKUP_FLAGS_NONE, NULL, NULL, NULL));
      return;
    }

  copy_system_file ("language-specs/def.lang");
  copy_system_file ("styles/Adwaita.xml");
  copy_system_file ("styles/Adwaita-dark.xml");
}

/* main.brs: Main at line 1, draw at line 6; Grid.brs: init at line 3.
 * CPU lands on main.brs 2 (10), 3 (40); draw.brs 7 (100), 8 (25), 10 (5);
 * Grid.brs 4 (60). Allocations on main.brs 3 (4096 bytes, freed) and
 * draw 8 (512 bytes, live). */
static const char main_brs[] =
  "sub Main()\n"                                   /* 1 */
  "    screen = CreateObject(\"roSGScreen\")\n"    /* 2 */
  "    port = CreateObject(\"roMessagePort\")\n"   /* 3 */
  "    draw(screen)\n"                             /* 4 */
  "end sub\n"                                      /* 5 */
  "function draw(screen as Object) as Void\n"      /* 6 */
  "    for i = 0 to 1000\n"                        /* 7 */
  "        screen.text = \"frame \" + Str(i)\n"    /* 8 */
  "    end for ' loop done\n"                      /* 9 */
  "    REM one more statement\n"                   /* 10 */
  "end function\n";                                /* 11 */

static const char grid_brs[] =
  "' the grid component\n"
  "\n"
  "sub init()\n"
  "    m.grid = m.top.findNode(\"grid\")\n"
  "end sub\n";

static BlProfile *
make_profile (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  BlBsprofHeader h;
  BlBsprofWriter *w;
  BlProfile *profile;

  bl_bsprof_header_init (&h);
  h.lines = TRUE;
  h.memory = TRUE;
  h.target = "Source View App";
  h.start_ms = 1700000000000;
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "Main");
  bl_bsprof_writer_string (w, 4, "draw");
  bl_bsprof_writer_string (w, 5, "GridTask");
  bl_bsprof_writer_string (w, 6, "pkg:/components/Grid.brs");
  bl_bsprof_writer_string (w, 7, "init");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_module (w, 2, 5);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 3);          /* Main at 1 */
  bl_bsprof_writer_path (w, 2, 1, 4, 2, 6, 4);       /* draw at 6, called at 4 */
  bl_bsprof_writer_root (w, 3, 2, 6, 3, 7);          /* init at Grid.brs:3 */
  bl_bsprof_writer_cpu (w, 1, 2, 10, 12);            /* main.brs:2 */
  bl_bsprof_writer_cpu (w, 1, 3, 40, 44);            /* main.brs:3 */
  bl_bsprof_writer_cpu (w, 2, 2, 100, 110);          /* main.brs:7 */
  bl_bsprof_writer_cpu (w, 2, 3, 25, 30);            /* main.brs:8 */
  bl_bsprof_writer_cpu (w, 2, 5, 5, 5);              /* main.brs:10 */
  bl_bsprof_writer_cpu (w, 3, 2, 60, 70);            /* Grid.brs:4 */
  bl_bsprof_writer_alloc (w, 1, 3, 0x100, 4096);     /* main.brs:3 */
  bl_bsprof_writer_alloc (w, 2, 3, 0x2000, 512);     /* main.brs:8 */
  bl_bsprof_writer_free_op (w, 1, 1, 0x100, FALSE);
  bl_bsprof_writer_end (w, 1700000001000);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  profile = bl_bsprof_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   &error);
  g_assert_no_error (error);

  return profile;
}

static guint32
find_function (BlProfile  *profile,
               const char *name)
{
  for (guint32 f = 0; f < bl_profile_get_n_functions (profile); f++)
    if (g_str_equal (bl_profile_get_string (profile, bl_profile_get_function (profile, f)->name),
                     name))
      return f;

  g_assert_not_reached ();
}

static void
write_file (const char *relative,
            const char *text)
{
  g_autofree char *path = g_build_filename (tmpdir, relative, NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static BlSourceLocator *
locator_at (const char *relative)
{
  g_autofree char *path = g_build_filename (tmpdir, relative, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  return bl_source_locator_new (file);
}

typedef struct
{
  gboolean done;
  gboolean has_source;
} Loaded;

static void
loaded_cb (BlSourceView *view,
           gboolean      has_source,
           Loaded       *loaded)
{
  loaded->done = TRUE;
  loaded->has_source = has_source;
}

static gboolean
wait_loaded (BlSourceView *view,
             void        (*show) (BlSourceView *, guint32),
             guint32       what)
{
  Loaded loaded = { FALSE, FALSE };
  gulong id = g_signal_connect (view, "loaded", G_CALLBACK (loaded_cb), &loaded);

  show (view, what);
  for (guint i = 0; i < 5000 && !loaded.done; i++)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (view, id);
  g_assert_true (loaded.done);

  return loaded.has_source;
}

static void
iterate (guint frames)
{
  for (guint i = 0; i < frames; i++)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (2000);
    }
}

static GtkWidget *
present (GtkWidget *child)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 600);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < 2000 && !gtk_widget_get_mapped (child); i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_true (gtk_widget_get_mapped (child));

  return window;
}

/* Collects the colour nodes the heat column draws (amber to red, opaque
 * enough) below @node. */
static void
collect_bars (GskRenderNode *node,
              GArray        *widths)
{
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_COLOR_NODE:
      {
        const GdkRGBA *c = gsk_color_node_get_color (node);
        graphene_rect_t bounds;

        gsk_render_node_get_bounds (node, &bounds);
        if (c->red > 0.85 && c->blue < 0.2 && c->alpha >= 0.54 && bounds.size.height < 40)
          {
            float w = bounds.size.width;

            g_array_append_val (widths, w);
          }
      }
      break;
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        collect_bars (gsk_container_node_get_child (node, i), widths);
      break;
    case GSK_TRANSFORM_NODE:
      collect_bars (gsk_transform_node_get_child (node), widths);
      break;
    case GSK_CLIP_NODE:
      collect_bars (gsk_clip_node_get_child (node), widths);
      break;
    case GSK_ROUNDED_CLIP_NODE:
      collect_bars (gsk_rounded_clip_node_get_child (node), widths);
      break;
    case GSK_OPACITY_NODE:
      collect_bars (gsk_opacity_node_get_child (node), widths);
      break;
    case GSK_DEBUG_NODE:
      collect_bars (gsk_debug_node_get_child (node), widths);
      break;
    default:
      break;
    }
}

static GArray *
rendered_bars (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  GArray *widths = g_array_new (FALSE, FALSE, sizeof (float));

  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (widget),
                          gtk_widget_get_height (widget));
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  if (node)
    collect_bars (node, widths);

  return widths;
}

static void
test_gutter (void)
{
  g_autoptr(BlProfile) profile = make_profile ();
  g_autoptr(BlSourceLocator) locator = NULL;
  GtkWidget *widget = bl_source_view_new ();
  BlSourceView *view = BL_SOURCE_VIEW (widget);
  GtkWidget *window;
  BlLineGutterRenderer *cpu, *wall, *alloc, *live, *heat;
  g_autofree char *hot_text = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GArray) bars = NULL;
  GtkTextIter start, end;
  float widest = 0;
  gboolean has_small = FALSE;

  copy_system_specs ();

  write_file ("app/manifest", "title=Source View App\n");
  write_file ("app/source/main.brs", main_brs);
  write_file ("app/components/Grid.brs", grid_brs);
  locator = locator_at ("app");

  window = present (widget);
  bl_source_view_set_profile (view, profile);
  bl_source_view_set_metric (view, BL_METRIC_CPU);
  bl_source_view_set_locator (view, locator);

  g_assert_true (wait_loaded (view, bl_source_view_show_function, find_function (profile, "draw")));
  g_assert_true (bl_source_view_has_source (view));
  g_assert_cmpstr (bl_source_view_get_status_text (view), ==, "");

  /* the file's text, in BrightScript */
  gtk_text_buffer_get_bounds (bl_source_view_get_buffer (view), &start, &end);
  text = gtk_text_buffer_get_text (bl_source_view_get_buffer (view), &start, &end, FALSE);
  g_assert_cmpstr (text, ==, main_brs);
  {
    GtkSourceBuffer *buffer = GTK_SOURCE_BUFFER (bl_source_view_get_buffer (view));

    g_assert_nonnull (gtk_source_buffer_get_language (buffer));
    g_assert_cmpstr (gtk_source_language_get_id (gtk_source_buffer_get_language (buffer)), ==,
                     "brightscript");
  }

  /* the hottest line of draw is main.brs:7; the view goes there */
  g_assert_cmpuint (bl_source_view_get_focus_line (view), ==, 7);

  /* columns: CPU, wall, alloc bytes, live bytes; their texts */
  cpu = bl_source_view_get_column (view, BL_METRIC_CPU);
  wall = bl_source_view_get_column (view, BL_METRIC_WALL);
  alloc = bl_source_view_get_column (view, BL_METRIC_ALLOC_BYTES);
  live = bl_source_view_get_column (view, BL_METRIC_LIVE_BYTES);
  heat = bl_source_view_get_heat_column (view);
  g_assert_nonnull (cpu);
  g_assert_nonnull (wall);
  g_assert_nonnull (alloc);
  g_assert_nonnull (live);
  g_assert_nonnull (heat);
  g_assert_null (bl_source_view_get_column (view, BL_METRIC_CALLS));

  hot_text = bl_line_gutter_renderer_dup_text (cpu, 7);
  expected = bl_metric_format_value (BL_METRIC_CPU, 100);
  g_assert_cmpstr (hot_text, ==, expected);
  {
    g_autofree char *w = bl_line_gutter_renderer_dup_text (wall, 7);
    g_autofree char *a = bl_line_gutter_renderer_dup_text (alloc, 3);
    g_autofree char *l3 = bl_line_gutter_renderer_dup_text (live, 3);
    g_autofree char *l8 = bl_line_gutter_renderer_dup_text (live, 8);
    g_autofree char *w_expected = bl_metric_format_value (BL_METRIC_WALL, 110);
    g_autofree char *a_expected = bl_metric_format_value (BL_METRIC_ALLOC_BYTES, 4096);
    g_autofree char *l_expected = bl_metric_format_value (BL_METRIC_LIVE_BYTES, 512);

    g_assert_cmpstr (w, ==, w_expected);
    g_assert_cmpstr (a, ==, a_expected);
    g_assert_null (l3);                    /* freed: quiet */
    g_assert_cmpstr (l8, ==, l_expected);
  }
  /* lines without cost stay quiet */
  g_assert_null (bl_line_gutter_renderer_dup_text (cpu, 1));
  g_assert_null (bl_line_gutter_renderer_dup_text (cpu, 4));
  g_assert_null (bl_line_gutter_renderer_dup_text (cpu, 9));
  g_assert_cmpfloat (bl_line_gutter_renderer_get_fraction (heat, 4), ==, 0.0);

  /* the heat bar is scaled to the hottest line of the file */
  g_assert_cmpint (bl_line_gutter_renderer_get_metric (heat), ==, BL_METRIC_CPU);
  g_assert_cmpfloat_with_epsilon (bl_line_gutter_renderer_get_fraction (heat, 7), 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (bl_line_gutter_renderer_get_fraction (heat, 3), 0.40, 1e-9);
  g_assert_cmpfloat_with_epsilon (bl_line_gutter_renderer_get_fraction (heat, 8), 0.25, 1e-9);
  g_assert_cmpfloat_with_epsilon (bl_line_gutter_renderer_get_fraction (heat, 10), 0.05, 1e-9);

  /* the function's totals above the text */
  {
    g_autofree char *self_cpu = bl_metric_format_value (BL_METRIC_CPU, 130);
    g_autofree char *live_total = bl_metric_format_value (BL_METRIC_LIVE_BYTES, 512);

    g_assert_nonnull (strstr (bl_source_view_get_totals_text (view), self_cpu));
    g_assert_nonnull (strstr (bl_source_view_get_totals_text (view), live_total));
  }

  /* what the gutter draws: one bar per costly line, the longest for the
   * hottest line, the others in proportion */
  iterate (30);
  bars = rendered_bars (widget);
  for (guint i = 0; i < bars->len; i++)
    g_test_message ("bar %u: %.2f px", i, g_array_index (bars, float, i));
  /* lines 2, 3, 7, 8, 10 (the text view may paint its gutter more than once) */
  g_assert_cmpuint (bars->len, >=, 5);
  g_assert_cmpuint (bars->len % 5, ==, 0);
  for (guint i = 0; i < bars->len; i++)
    widest = MAX (widest, g_array_index (bars, float, i));
  g_assert_cmpfloat (widest, >, 20);
  for (guint i = 0; i < bars->len; i++)
    {
      float w = g_array_index (bars, float, i);
      float share = w / widest;

      /* each bar is its line's share of the hottest line (100): 10, 40,
       * 100, 25 and 5 (drawn 2 px at the least) */
      g_assert_true (fabsf (share - 0.10f) < 0.01f || fabsf (share - 0.40f) < 0.01f ||
                     fabsf (share - 1.0f) < 0.01f || fabsf (share - 0.25f) < 0.01f ||
                     fabsf (share - 0.05f) < 0.01f);
      if (fabsf (share - 0.25f) < 0.01f)
        has_small = TRUE;
    }
  g_assert_true (has_small);

  /* highlighting: the language definition marks comments and strings */
  {
    GtkSourceBuffer *buffer = GTK_SOURCE_BUFFER (bl_source_view_get_buffer (view));
    GtkTextIter at;

    gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (buffer), &start, &end);
    gtk_source_buffer_ensure_highlight (buffer, &start, &end);
    gtk_text_buffer_get_iter_at_line_offset (GTK_TEXT_BUFFER (buffer), &at, 8, 16);
    g_assert_true (gtk_source_buffer_iter_has_context_class (buffer, &at, "comment"));
    gtk_text_buffer_get_iter_at_line_offset (GTK_TEXT_BUFFER (buffer), &at, 9, 8);
    g_assert_true (gtk_source_buffer_iter_has_context_class (buffer, &at, "comment"));
    gtk_text_buffer_get_iter_at_line_offset (GTK_TEXT_BUFFER (buffer), &at, 1, 29);
    g_assert_true (gtk_source_buffer_iter_has_context_class (buffer, &at, "string"));
    gtk_text_buffer_get_iter_at_line_offset (GTK_TEXT_BUFFER (buffer), &at, 7, 8);
    g_assert_false (gtk_source_buffer_iter_has_context_class (buffer, &at, "comment"));
  }

  /* another metric moves the heat bar */
  bl_source_view_set_metric (view, BL_METRIC_ALLOC_BYTES);
  g_assert_cmpint (bl_line_gutter_renderer_get_metric (heat), ==, BL_METRIC_ALLOC_BYTES);
  g_assert_cmpfloat_with_epsilon (bl_line_gutter_renderer_get_fraction (heat, 3), 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (bl_line_gutter_renderer_get_fraction (heat, 8), 0.125, 1e-9);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_without_sources (void)
{
  g_autoptr(BlProfile) profile = make_profile ();
  g_autoptr(BlSourceLocator) partial = NULL;
  GtkWidget *widget = bl_source_view_new ();
  BlSourceView *view = BL_SOURCE_VIEW (widget);
  GtkWidget *window = present (widget);
  guint32 draw = find_function (profile, "draw");
  guint32 init = find_function (profile, "init");
  GListModel *table;

  copy_system_specs ();

  bl_source_view_set_profile (view, profile);
  bl_source_view_set_metric (view, BL_METRIC_CPU);

  /* no locator: the line table and why */
  g_assert_false (wait_loaded (view, bl_source_view_show_function, draw));
  g_assert_false (bl_source_view_has_source (view));
  g_assert_nonnull (strstr (bl_source_view_get_status_text (view), "sources"));
  table = bl_source_view_get_table_model (view);
  g_assert_cmpuint (g_list_model_get_n_items (table), ==, 3);   /* lines 7, 8, 10 */
  /* the gutter texts are still computed: the table shows the same values */
  g_assert_nonnull (bl_source_view_get_column (view, BL_METRIC_CPU));
  g_assert_cmpuint (bl_source_view_get_focus_line (view), ==, 7);

  /* a folder without Grid.brs: that file says so, main.brs still works */
  write_file ("partial/manifest", "title=Source View App\n");
  write_file ("partial/source/main.brs", main_brs);
  partial = locator_at ("partial");
  bl_source_view_set_locator (view, partial);
  g_assert_false (wait_loaded (view, bl_source_view_show_function, init));
  g_assert_nonnull (strstr (bl_source_view_get_status_text (view), "pkg:/components/Grid.brs"));
  g_assert_cmpuint (g_list_model_get_n_items (bl_source_view_get_table_model (view)), ==, 1);
  g_assert_true (wait_loaded (view, bl_source_view_show_function, draw));
  g_assert_true (bl_source_view_has_source (view));
  g_assert_cmpstr (bl_source_view_get_status_text (view), ==, "");

  /* another profile: no sources until its app's are chosen or remembered */
  {
    g_autoptr(BlProfile) again = make_profile ();

    bl_source_view_set_profile (view, again);
    g_assert_null (bl_source_view_get_locator (view));
    g_assert_false (bl_source_view_has_source (view));
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_zip_and_settings (void)
{
  g_autoptr(BlProfile) profile = make_profile ();
  g_autofree char *zip_path = g_build_filename (tmpdir, "app.zip", NULL);
  g_autofree char *uri = NULL;
  g_autoptr(GSettings) settings = g_settings_new (BASE_ID);
  g_autoptr(GFile) zip_file = NULL;
  g_autoptr(GError) error = NULL;
  GVariantBuilder builder;
  BlZipWriter *zip = bl_zip_writer_new ();
  GtkWidget *widget = bl_source_view_new ();
  BlSourceView *view = BL_SOURCE_VIEW (widget);
  GtkWidget *window = present (widget);

  copy_system_specs ();

  bl_zip_writer_add_text (zip, "manifest", "title=Source View App\n", FALSE);
  bl_zip_writer_add_text (zip, "source/main.brs", main_brs, TRUE);
  bl_zip_writer_add_text (zip, "components/Grid.brs", grid_brs, FALSE);
  g_assert_true (bl_zip_writer_save (zip, zip_path, &error));
  g_assert_no_error (error);
  bl_zip_writer_free (zip);

  /* the choice remembered for this app name is used when the profile comes */
  zip_file = g_file_new_for_path (zip_path);
  uri = g_file_get_uri (zip_file);
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{ss}"));
  g_variant_builder_add (&builder, "{ss}", "Another App", "file:///nowhere");
  g_variant_builder_add (&builder, "{ss}", "Source View App", uri);
  g_settings_set_value (settings, "source-folders", g_variant_builder_end (&builder));

  bl_source_view_set_profile (view, profile);
  bl_source_view_set_metric (view, BL_METRIC_CPU);
  g_assert_nonnull (bl_source_view_get_locator (view));
  g_assert_true (wait_loaded (view, bl_source_view_show_function, find_function (profile, "init")));
  g_assert_cmpuint (bl_source_view_get_focus_line (view), ==, 4);
  g_assert_true (wait_loaded (view, bl_source_view_show_function, find_function (profile, "Main")));
  g_assert_cmpuint (bl_source_view_get_focus_line (view), ==, 3);

  /* choosing a folder: used at once, remembered for this app, others kept */
  write_file ("chosen/manifest", "title=Source View App\n");
  write_file ("chosen/source/main.brs", main_brs);
  {
    g_autofree char *chosen_path = g_build_filename (tmpdir, "chosen", NULL);
    g_autoptr(GFile) chosen = g_file_new_for_path (chosen_path);
    g_autofree char *chosen_uri = g_file_get_uri (chosen);
    g_autoptr(GVariant) folders = NULL;
    const char *value = NULL;
    Loaded loaded = { FALSE, FALSE };
    gulong id = g_signal_connect (view, "loaded", G_CALLBACK (loaded_cb), &loaded);

    bl_source_view_use_location (view, chosen);
    for (guint i = 0; i < 5000 && !loaded.done; i++)
      g_main_context_iteration (NULL, TRUE);
    g_signal_handler_disconnect (view, id);
    g_assert_true (loaded.has_source);
    g_assert_true (g_file_equal (bl_source_locator_get_location (bl_source_view_get_locator (view)),
                                 chosen));

    folders = g_settings_get_value (settings, "source-folders");
    g_assert_true (g_variant_is_of_type (folders, G_VARIANT_TYPE ("a{ss}")));
    g_assert_cmpuint (g_variant_n_children (folders), ==, 2);
    g_assert_true (g_variant_lookup (folders, "Source View App", "&s", &value));
    g_assert_cmpstr (value, ==, chosen_uri);
    g_assert_true (g_variant_lookup (folders, "Another App", "&s", &value));
    g_assert_cmpstr (value, ==, "file:///nowhere");
  }

  g_settings_reset (settings, "source-folders");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A long file: the view scrolls the hottest line (150 of 300) into sight. */
static void
test_scrolls_to_hottest (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(BlSourceLocator) locator = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  GtkWidget *widget = bl_source_view_new ();
  BlSourceView *view = BL_SOURCE_VIEW (widget);
  GtkWidget *window;
  GtkTextView *text_view = NULL;
  GtkTextIter iter;
  GdkRectangle visible;
  int y = 0, height = 0;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  copy_system_specs ();

  for (guint i = 1; i <= 300; i++)
    g_string_append_printf (text, i == 140 ? "sub busy()\n" : "    x = x + %u\n", i);
  write_file ("long/manifest", "title=Long\n");
  write_file ("long/source/long.brs", text->str);

  bl_bsprof_header_init (&h);
  h.lines = TRUE;
  h.target = "Long";
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/long.brs");
  bl_bsprof_writer_string (w, 3, "busy");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 140, 3);
  bl_bsprof_writer_cpu (w, 1, 2, 5, 5);          /* line 141 */
  bl_bsprof_writer_cpu (w, 1, 11, 90, 95);       /* line 150, the hottest */
  bl_bsprof_writer_end (w, 1);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  profile = bl_bsprof_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   &error);
  g_assert_no_error (error);

  window = present (widget);
  locator = locator_at ("long");
  bl_source_view_set_profile (view, profile);
  bl_source_view_set_metric (view, BL_METRIC_CPU);
  bl_source_view_set_locator (view, locator);
  g_assert_true (wait_loaded (view, bl_source_view_show_function, find_function (profile, "busy")));
  g_assert_cmpuint (bl_source_view_get_focus_line (view), ==, 150);

  text_view = GTK_TEXT_VIEW (test_find_widget (widget, GTK_SOURCE_TYPE_VIEW));
  g_assert_nonnull (text_view);
  gtk_text_buffer_get_iter_at_line (gtk_text_view_get_buffer (text_view), &iter, 149);
  for (guint i = 0; i < 300; i++)
    {
      iterate (1);
      gtk_text_view_get_visible_rect (text_view, &visible);
      gtk_text_view_get_line_yrange (text_view, &iter, &y, &height);
      if (visible.height > 0 && y >= visible.y && y + height <= visible.y + visible.height)
        break;
    }
  g_test_message ("line 150 at y %d, visible from %d, %d high", y, visible.y, visible.height);
  g_assert_cmpint (visible.height, >, 0);
  g_assert_cmpint (visible.y, >, 0);
  g_assert_cmpint (y, >=, visible.y);
  g_assert_cmpint (y + height, <=, visible.y + visible.height);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_hot_lines_and_page (void)
{
  g_autoptr(BlProfile) profile = make_profile ();
  g_autoptr(BlSourceLocator) locator = locator_at ("app");
  GtkWidget *profile_view = bl_profile_view_new ();
  GtkWidget *window = present (profile_view);
  BlLinesPage *page;
  BlHotLinesView *hot;
  BlSourceView *source;
  BlFlameGraph *graph;
  GListModel *model;
  Loaded loaded = { FALSE, FALSE };
  gulong id;
  guint32 node = BL_NODE_NONE;

  copy_system_specs ();

  write_file ("app/manifest", "title=Source View App\n");
  write_file ("app/source/main.brs", main_brs);
  write_file ("app/components/Grid.brs", grid_brs);

  bl_profile_view_set_profile (BL_PROFILE_VIEW (profile_view), profile);
  bl_profile_view_set_metric (BL_PROFILE_VIEW (profile_view), BL_METRIC_CPU);
  iterate (10);

  page = BL_LINES_PAGE (test_find_widget (profile_view, BL_TYPE_LINES_PAGE));
  g_assert_nonnull (page);
  hot = bl_lines_page_get_hot_lines (page);
  source = bl_lines_page_get_source_view (page);
  bl_source_view_set_locator (source, locator);

  /* every line with CPU, hottest first: main.brs:7 (100), Grid.brs:4 (60) … */
  model = bl_hot_lines_view_get_model (hot);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 6);
  {
    g_autoptr(GObject) first = g_list_model_get_item (model, 0);
    g_autoptr(GObject) second = g_list_model_get_item (model, 1);
    const BlLine *l1 = bl_profile_get_line (profile,
                                            bl_line_item_get_line_index ((gpointer) first));
    const BlLine *l2 = bl_profile_get_line (profile,
                                            bl_line_item_get_line_index ((gpointer) second));

    g_assert_cmpuint (l1->line, ==, 7);
    g_assert_cmpuint (l2->line, ==, 4);
    g_assert_cmpstr (bl_profile_get_string (profile, l2->file), ==, "pkg:/components/Grid.brs");
  }

  /* selecting the second opens Grid.brs at line 4 */
  id = g_signal_connect (source, "loaded", G_CALLBACK (loaded_cb), &loaded);
  bl_hot_lines_view_select (hot, 1);
  for (guint i = 0; i < 5000 && !loaded.done; i++)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (loaded.has_source);
  g_assert_cmpuint (bl_source_view_get_focus_line (source), ==, 4);
  g_assert_cmpuint (bl_source_view_get_function (source), ==, find_function (profile, "init"));

  /* a frame activated in the flame graph opens its function */
  graph = bl_profile_view_get_flame_graph (BL_PROFILE_VIEW (profile_view));
  for (guint32 n = 0; n < bl_profile_get_n_nodes (profile); n++)
    if (g_str_equal (bl_profile_get_node_name (profile, n), "draw"))
      node = n;
  g_assert_cmpuint (node, !=, BL_NODE_NONE);
  loaded.done = FALSE;
  g_signal_emit_by_name (graph, "node-activated", node);
  for (guint i = 0; i < 5000 && !loaded.done; i++)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (loaded.has_source);
  g_assert_cmpuint (bl_source_view_get_function (source), ==, find_function (profile, "draw"));
  g_assert_cmpuint (bl_source_view_get_focus_line (source), ==, 7);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (page)));

  /* a thread root has no source: nothing changes */
  g_assert_false (bl_lines_page_show_node (page, bl_profile_get_thread_root (profile, 0)));

  g_signal_handler_disconnect (source, id);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* GTK 4.18 (Debian 13) sometimes warns that it snapshots a scrollbar's own slider
 * (a GtkGizmo) before allocating it, when the source view's text arrives and the
 * scrollbar appears in the same frame. It is GTK's internal widget, not ours: that one
 * warning is dropped here; every other message goes to GLib's writer, which still makes
 * warnings fatal. */
static GLogWriterOutput
log_writer (GLogLevelFlags   log_level,
            const GLogField *fields,
            gsize            n_fields,
            gpointer         user_data)
{
  if ((log_level & G_LOG_LEVEL_WARNING) != 0)
    {
      const char *domain = NULL;
      const char *message = NULL;

      for (gsize i = 0; i < n_fields; i++)
        {
          if (fields[i].length != -1)
            continue;
          if (g_str_equal (fields[i].key, "GLIB_DOMAIN"))
            domain = fields[i].value;
          else if (g_str_equal (fields[i].key, "MESSAGE"))
            message = fields[i].value;
        }

      if (g_strcmp0 (domain, "Gtk") == 0 && message != NULL &&
          g_str_has_prefix (message, "Trying to snapshot GtkGizmo ") &&
          g_str_has_suffix (message, " without a current allocation"))
        return G_LOG_WRITER_HANDLED;
    }

  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

/* A function opens with its first line in view above the hottest one
 * (sub busy() at 140, hottest line 150): not scrolled past it. */
static void
test_opens_on_first_line (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(BlSourceLocator) locator = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  GtkWidget *widget = bl_source_view_new ();
  BlSourceView *view = BL_SOURCE_VIEW (widget);
  GtkWidget *window;
  GtkTextView *text_view;
  GtkTextIter first, hot;
  GdkRectangle visible;
  int y, height, first_y, first_height;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  copy_system_specs ();

  for (guint i = 1; i <= 300; i++)
    g_string_append_printf (text, i == 140 ? "sub busy()\n" : "    x = x + %u\n", i);
  write_file ("first/manifest", "title=First\n");
  write_file ("first/source/long.brs", text->str);

  bl_bsprof_header_init (&h);
  h.lines = TRUE;
  h.target = "First";
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/long.brs");
  bl_bsprof_writer_string (w, 3, "busy");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 140, 3);
  bl_bsprof_writer_cpu (w, 1, 2, 5, 5);          /* line 141 */
  bl_bsprof_writer_cpu (w, 1, 11, 90, 95);       /* line 150, the hottest */
  bl_bsprof_writer_end (w, 1);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  profile = bl_bsprof_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   &error);
  g_assert_no_error (error);

  window = present (widget);
  locator = locator_at ("first");
  bl_source_view_set_profile (view, profile);
  bl_source_view_set_metric (view, BL_METRIC_CPU);
  bl_source_view_set_locator (view, locator);
  g_assert_true (wait_loaded (view, bl_source_view_show_function, find_function (profile, "busy")));
  g_assert_cmpuint (bl_source_view_get_focus_line (view), ==, 150);

  /* let the scrolling settle */
  iterate (120);
  text_view = GTK_TEXT_VIEW (test_find_widget (widget, GTK_SOURCE_TYPE_VIEW));
  gtk_text_buffer_get_iter_at_line (gtk_text_view_get_buffer (text_view), &first, 139);
  gtk_text_buffer_get_iter_at_line (gtk_text_view_get_buffer (text_view), &hot, 149);
  gtk_text_view_get_visible_rect (text_view, &visible);
  gtk_text_view_get_line_yrange (text_view, &first, &first_y, &first_height);
  gtk_text_view_get_line_yrange (text_view, &hot, &y, &height);
  g_test_message ("line 140 at %d, line 150 at %d, visible from %d, %d high",
                  first_y, y, visible.y, visible.height);
  g_assert_cmpint (visible.height, >, 0);
  g_assert_cmpint (first_y, >=, visible.y);
  g_assert_cmpint (y + height, <=, visible.y + visible.height);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A profile without per-line data asks for no sources: it says so. */
static void
test_no_line_data (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  GtkWidget *widget = bl_source_view_new ();
  BlSourceView *view = BL_SOURCE_VIEW (widget);
  GtkWidget *window;
  GtkStack *stack;
  BlBsprofHeader h;
  BlBsprofWriter *w;

  bl_bsprof_header_init (&h);
  h.lines = FALSE;
  h.target = "No Lines";
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "Main");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 3);
  bl_bsprof_writer_cpu (w, 1, 0, 5, 5);
  bl_bsprof_writer_end (w, 1);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);
  profile = bl_bsprof_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   &error);
  g_assert_no_error (error);
  g_assert_false (bl_profile_get_info (profile)->has_lines);

  window = present (widget);
  bl_source_view_set_profile (view, profile);
  bl_source_view_set_metric (view, BL_METRIC_CPU);
  g_assert_false (wait_loaded (view, bl_source_view_show_function,
                               find_function (profile, "Main")));
  g_assert_cmpstr (bl_source_view_get_status_text (view), ==, "");
  stack = GTK_STACK (test_find_widget (widget, GTK_TYPE_STACK));
  g_assert_nonnull (stack);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "no-lines");

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
count_loading (BlHotLinesView *hot,
               GParamSpec     *pspec,
               guint          *n_rankings)
{
  if (bl_hot_lines_view_get_loading (hot))
    (*n_rankings)++;
}

/* The hidden Lines page ranks its lines in a worker once the flame graph
 * has been drawn, and again after a metric change: they are there when the
 * user turns to it. */
static void
test_hidden_lines_prepared (void)
{
  g_autoptr(BlProfile) profile = make_profile ();
  GtkWidget *profile_view = bl_profile_view_new ();
  GtkWidget *window = present (profile_view);
  BlHotLinesView *hot;
  BlLinesPage *page;
  guint n_rankings = 0;

  copy_system_specs ();
  page = BL_LINES_PAGE (test_find_widget (profile_view, BL_TYPE_LINES_PAGE));
  hot = bl_lines_page_get_hot_lines (page);
  g_signal_connect (hot, "notify::loading", G_CALLBACK (count_loading), &n_rankings);

  bl_profile_view_set_profile (BL_PROFILE_VIEW (profile_view), profile);
  bl_profile_view_set_metric (BL_PROFILE_VIEW (profile_view), BL_METRIC_CPU);
  for (guint i = 0; i < 3000 && (n_rankings == 0 || bl_hot_lines_view_get_loading (hot)); i++)
    iterate (1);
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (page)));
  g_assert_cmpuint (n_rankings, ==, 1);
  g_assert_false (bl_hot_lines_view_get_loading (hot));

  bl_profile_view_set_metric (BL_PROFILE_VIEW (profile_view), BL_METRIC_WALL);
  for (guint i = 0; i < 3000 && (n_rankings == 1 || bl_hot_lines_view_get_loading (hot)); i++)
    iterate (1);
  g_assert_cmpuint (n_rankings, ==, 2);
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (page)));

  /* shown: ranked already, nothing more to do */
  bl_profile_view_show_table (BL_PROFILE_VIEW (profile_view), BL_CALL_TREE_FUNCTIONS);
  gtk_stack_set_visible_child (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (page))),
                               GTK_WIDGET (page));
  iterate (5);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (page)));
  g_assert_cmpuint (n_rankings, ==, 2);
  g_assert_cmpuint (bl_hot_lines_view_get_metric (hot), ==, BL_METRIC_WALL);
  g_assert_cmpuint (g_list_model_get_n_items (bl_hot_lines_view_get_model (hot)), >, 0);
  g_assert_cmpuint (n_rankings, ==, 2);

  g_signal_handlers_disconnect_by_func (hot, count_loading, &n_rankings);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A hot line in another function takes the flame graph there. */
static void
test_hot_line_moves_graph (void)
{
  g_autoptr(BlProfile) profile = make_profile ();
  GtkWidget *profile_view = bl_profile_view_new ();
  GtkWidget *window = present (profile_view);
  BlFlameGraph *graph;
  BlHotLinesView *hot;
  BlLinesPage *page;
  GListModel *model;
  guint32 draw = BL_NODE_NONE, init_fn = find_function (profile, "init");
  guint init_row = G_MAXUINT;

  copy_system_specs ();
  bl_profile_view_set_profile (BL_PROFILE_VIEW (profile_view), profile);
  bl_profile_view_set_metric (BL_PROFILE_VIEW (profile_view), BL_METRIC_CPU);
  graph = bl_profile_view_get_flame_graph (BL_PROFILE_VIEW (profile_view));
  for (guint i = 0; i < 3000 && bl_flame_graph_get_layout (graph) == NULL; i++)
    iterate (1);
  g_assert_nonnull (bl_flame_graph_get_layout (graph));

  /* the graph on draw */
  for (guint32 n = 0; n < bl_profile_get_n_nodes (profile); n++)
    if (g_str_equal (bl_profile_get_node_name (profile, n), "draw"))
      draw = n;
  bl_flame_graph_set_selected_node (graph, draw);
  bl_flame_graph_zoom_to_node (graph, draw, FALSE);
  iterate (5);

  /* pick the hot line in init (Grid.brs:4) */
  page = BL_LINES_PAGE (test_find_widget (profile_view, BL_TYPE_LINES_PAGE));
  hot = bl_lines_page_get_hot_lines (page);
  model = bl_hot_lines_view_get_model (hot);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);
      const BlLine *line = bl_profile_get_line (profile,
                                                bl_line_item_get_line_index ((gpointer) item));

      if (line->line == 4)
        init_row = i;
    }
  g_assert_cmpuint (init_row, !=, G_MAXUINT);
  bl_hot_lines_view_select (hot, init_row);
  iterate (20);

  g_assert_cmpuint (bl_flame_graph_get_selected_node (graph), !=, BL_NODE_NONE);
  g_assert_cmpuint (bl_profile_get_node_function (profile,
                                                  bl_flame_graph_get_selected_node (graph)),
                    ==, init_fn);
  g_assert_cmpuint (bl_flame_graph_get_zoom_node (graph), ==,
                    bl_flame_graph_get_selected_node (graph));

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  for (const char * const *dir = g_get_system_data_dirs (); *dir && !system_sourceview_dir; dir++)
    {
      g_autofree char *def = g_build_filename (*dir, "gtksourceview-5", "language-specs",
                                               "def.lang", NULL);

      if (g_file_test (def, G_FILE_TEST_EXISTS))
        system_sourceview_dir = g_build_filename (*dir, "gtksourceview-5", NULL);
    }

  g_log_set_writer_func (log_writer, NULL, NULL);
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  {
    /* the isolated XDG dirs hide the MIME database, which newer GTK (4.18) needs to
     * recognise the theme's SVG icons */
    static const char *mime_dirs[] = { "/usr/local/share/mime", "/usr/share/mime", NULL };

    g_content_type_set_mime_dirs (mime_dirs);
  }

  /* no display is a failure, not a skip */
  if (!gtk_init_check ())
    g_error ("No display: widget tests need one (run them under xvfb-run)");
  adw_init ();
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  tmpdir = g_dir_make_tmp ("bl-source-view-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/widgets/source-view/gutter", test_gutter);
  g_test_add_func ("/widgets/source-view/without-sources", test_without_sources);
  g_test_add_func ("/widgets/source-view/zip-and-settings", test_zip_and_settings);
  g_test_add_func ("/widgets/source-view/hot-lines-and-page", test_hot_lines_and_page);
  g_test_add_func ("/widgets/source-view/hidden-lines-prepared", test_hidden_lines_prepared);
  g_test_add_func ("/widgets/source-view/scrolls-to-hottest", test_scrolls_to_hottest);
  g_test_add_func ("/widgets/source-view/opens-on-first-line", test_opens_on_first_line);
  g_test_add_func ("/widgets/source-view/no-line-data", test_no_line_data);
  g_test_add_func ("/widgets/source-view/hot-line-moves-graph", test_hot_line_moves_graph);

  status = g_test_run ();

  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmpdir);

    (void) !system (cmd);
  }
  g_free (tmpdir);

  return status;
}
