/* test-flame-svg.c — the SVG flame graph writer, read back with xmllint
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "bl-flame-svg.h"
#include "bl-flame-text.h"
#include "bl-model.h"
#include "bl-stacks-writer.h"

/* The frame area of a 1020 px image is 1000 px wide (10 px either side). */
#define WIDTH       1020
#define FRAME_WIDTH 1000.0

typedef struct
{
  char *dir;
  char *path;
  char *text;
} Svg;

static void
svg_clear (Svg *svg)
{
  if (svg->path != NULL)
    g_unlink (svg->path);
  if (svg->dir != NULL)
    g_rmdir (svg->dir);
  g_clear_pointer (&svg->dir, g_free);
  g_clear_pointer (&svg->path, g_free);
  g_clear_pointer (&svg->text, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Svg, svg_clear)

static void
svg_save (Svg               *svg,
          GOutputStream     *out)
{
  g_autoptr(GError) error = NULL;
  gsize len;

  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  len = g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)) - 1;
  svg->text = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));

  svg->dir = g_dir_make_tmp ("bl-flame-svg-XXXXXX", &error);
  g_assert_no_error (error);
  svg->path = g_build_filename (svg->dir, "flame.svg", NULL);
  g_file_set_contents (svg->path, svg->text, len, &error);
  g_assert_no_error (error);
}

static void
write_profile (Svg                     *svg,
               BlProfile               *profile,
               const BlFlameSvgOptions *options,
               BlFlameSvgStats         *stats)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_assert_true (bl_flame_svg_write_profile (profile, options, out, stats, NULL, &error));
  g_assert_no_error (error);
  svg_save (svg, out);
}

/* xmllint's answer to an XPath expression over @path */
static char *
xpath (const char *path,
       const char *expr)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *argv[] = { "xmllint", "--noout", "--xpath", expr, path, NULL };
  int status;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("xmllint --xpath '%s' %s failed: %s", expr, path, err);

  /* xmllint ends its answer with a newline of its own */
  if (g_str_has_suffix (out, "\n"))
    out[strlen (out) - 1] = '\0';

  return g_steal_pointer (&out);
}

static double
xpath_number (const char *path,
              const char *expr)
{
  g_autofree char *text = xpath (path, expr);

  return g_ascii_strtod (text, NULL);
}

static void
assert_well_formed (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  const char *argv[] = { "xmllint", "--noout", path, NULL };
  int status;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                NULL, NULL, NULL, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s is not well-formed XML: %s", path, err);
}

static guint
n_frames (const char *path)
{
  return (guint) xpath_number (path, "count(//*[local-name()='g'][@class='f'])");
}

static char *
frame_expr (guint        index,
            const char  *what)
{
  return g_strdup_printf ("string(//*[@id='f%u']/*[local-name()='%s'])", index, what);
}

static char *
frame_title (const char *path,
             guint       index)
{
  g_autofree char *expr = frame_expr (index, "title");

  return xpath (path, expr);
}

static double
frame_rect (const char *path,
            guint       index,
            const char *attribute)
{
  g_autofree char *expr =
    g_strdup_printf ("string(//*[@id='f%u']/*[local-name()='rect']/@%s)", index, attribute);

  return xpath_number (path, expr);
}

/* A profile from "thread;f;g VALUE" lines, names taken as they are (any
 * bytes but ';'), cpu values. */
static BlProfile *
build_profile (const char * const *lines)
{
  BlProfile *profile = bl_profile_new ("test");
  GHashTable *threads = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  bl_profile_enable_metric (profile, BL_METRIC_CPU);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *space = strrchr (lines[i], ' ');
      g_autofree char *stack = g_strndup (lines[i], space - lines[i]);
      g_auto(GStrv) frames = g_strsplit (stack, ";", -1);
      guint32 node;

      if (!g_hash_table_lookup_extended (threads, frames[0], NULL, (gpointer *) &node))
        {
          node = bl_profile_add_thread (profile, bl_profile_intern (profile, frames[0]));
          g_hash_table_insert (threads, g_strdup (frames[0]), GUINT_TO_POINTER (node));
        }
      for (guint f = 1; frames[f] != NULL; f++)
        node = bl_profile_add_child (profile, node, bl_profile_intern (profile, frames[f]),
                                     bl_profile_intern (profile, "pkg:/source/main.brs"), f);
      bl_profile_add_value (profile, node, BL_METRIC_CPU,
                            g_ascii_strtoull (space + 1, NULL, 10));
    }
  bl_profile_finish (profile);
  g_hash_table_unref (threads);

  return profile;
}

/* the profile node whose name is @name (names are unique in these tests) */
static guint32
find_node (BlProfile  *profile,
           const char *name)
{
  for (guint32 n = 0; n < bl_profile_get_n_nodes (profile); n++)
    if (g_str_equal (bl_profile_get_node_name (profile, n), name))
      return n;

  g_error ("no node %s", name);
}

static void
test_widths (void)
{
  const char *lines[] = {
    "main;load;parse 5",
    "main;load;read 15",
    "main;draw 30",
    "main 10",
    "worker;run 40",
    NULL,
  };
  g_autoptr(BlProfile) profile = build_profile (lines);
  BlFlameSvgOptions options = { BL_METRIC_CPU, NULL, WIDTH, "Widths", 0, FALSE };
  BlFlameSvgStats stats;
  g_auto(Svg) svg = { 0 };
  guint n;

  write_profile (&svg, profile, &options, &stats);
  assert_well_formed (svg.path);

  /* main, load, parse, read, draw, worker, run */
  n = n_frames (svg.path);
  g_assert_cmpuint (n, ==, 7);
  g_assert_cmpuint (stats.n_frames, ==, 7);
  g_assert_cmpuint (stats.n_levels, ==, 3);
  g_assert_false (stats.capped);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *title = frame_title (svg.path, i);
      g_auto(GStrv) title_lines = g_strsplit (title, "\n", 2);
      guint32 node = find_node (profile, title_lines[0]);
      g_autofree char *tooltip = bl_flame_text_dup_tooltip (profile, BL_METRIC_CPU, node);
      guint64 total = bl_profile_get_total (profile, BL_METRIC_CPU, node);
      double width = frame_rect (svg.path, i, "width");

      /* the grand total is 100: 10 px per unit, exactly */
      g_assert_cmpfloat_with_epsilon (width, total * FRAME_WIDTH / 100.0, 1e-9);
      /* the window's tooltip, word for word */
      g_assert_cmpstr (title, ==, tooltip);
    }

  /* depth first, siblings in the profile's (and the window's) order:
   * main, draw, load, parse, read, worker, run */
  {
    const double x[] = { 10, 10, 310, 310, 360, 610, 610 };

    for (guint i = 0; i < G_N_ELEMENTS (x); i++)
      g_assert_cmpfloat_with_epsilon (frame_rect (svg.path, i, "x"), x[i], 1e-9);
  }

  /* children sit one row above their parent */
  g_assert_cmpfloat (frame_rect (svg.path, 1, "y"), <, frame_rect (svg.path, 0, "y"));
  g_assert_cmpfloat (frame_rect (svg.path, 3, "y"), <, frame_rect (svg.path, 2, "y"));
  g_assert_cmpfloat (frame_rect (svg.path, 5, "y"), ==, frame_rect (svg.path, 0, "y"));

  /* self-contained: no external reference anywhere */
  g_assert_null (strstr (svg.text, "href"));
  for (const char *p = strstr (svg.text, "http"); p != NULL; p = strstr (p + 1, "http"))
    g_assert_true (g_str_has_prefix (p, "http://www.w3.org/"));   /* namespaces only */
  g_assert_null (strstr (svg.text, "@import"));
  g_assert_null (strstr (svg.text, "url("));
  g_assert_nonnull (strstr (svg.text, "<script"));
  {
    g_autofree char *title = xpath (svg.path, "string(/*/*[local-name()='title'])");

    g_assert_cmpstr (title, ==, "Widths");
  }
}

static void
test_thread (void)
{
  const char *lines[] = {
    "main;load 5",
    "worker;run 40",
    "worker;walk 60",
    NULL,
  };
  g_autoptr(BlProfile) profile = build_profile (lines);
  BlFlameSvgOptions options = { BL_METRIC_CPU, "worker", WIDTH, NULL, 0, FALSE };
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_auto(Svg) svg = { 0 };

  write_profile (&svg, profile, &options, NULL);
  g_assert_cmpuint (n_frames (svg.path), ==, 3);
  /* the thread alone fills the width: run is 40 of 100 */
  g_assert_cmpfloat_with_epsilon (frame_rect (svg.path, 1, "width"), 400.0, 1e-9);

  options.thread = "nobody";
  g_assert_false (bl_flame_svg_write_profile (profile, &options, out, NULL, NULL, &error));
  g_assert_error (error, BL_FLAME_SVG_ERROR, BL_FLAME_SVG_ERROR_NO_THREAD);
}

static void
test_hostile_names (void)
{
  const char *lines[] = {
    "main;<script>alert(1)</script> 10",
    "main;a & b \"quoted\" 'single' > c 20",
    "main;\xe2\x80\xae" "evil.brs" "\xe2\x81\xa6" "x 30",
    "main;bad\xff\xfe" "bytes 40",
    "main;ctl\x01" "char 50",
    "main;]]></script><svg 60",
    NULL,
  };
  const char *expected[] = {
    "<script>alert(1)</script>",
    "a & b \"quoted\" 'single' > c",
    "\xe2\x80\xae" "evil.brs" "\xe2\x81\xa6" "x",
    "bad\xef\xbf\xbd\xef\xbf\xbd" "bytes",
    "ctl\xef\xbf\xbd" "char",
    "]]></script><svg",
  };
  g_autoptr(BlProfile) profile = build_profile (lines);
  BlFlameSvgOptions options = { BL_METRIC_CPU, NULL, WIDTH, "<title> & \"more\"", 0, FALSE };
  g_auto(Svg) svg = { 0 };

  write_profile (&svg, profile, &options, NULL);
  assert_well_formed (svg.path);
  g_assert_cmpuint (n_frames (svg.path), ==, 7);

  /* each name reads back as it was (made valid UTF-8, controls replaced) */
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      gboolean found = FALSE;

      for (guint f = 1; f < 7 && !found; f++)
        {
          g_autofree char *title = frame_title (svg.path, f);
          g_auto(GStrv) title_lines = g_strsplit (title, "\n", 2);

          found = g_str_equal (title_lines[0], expected[i]);
        }
      if (!found)
        g_error ("no frame named %s", expected[i]);
    }

  {
    g_autofree char *title = xpath (svg.path, "string(/*/*[local-name()='title'])");

    g_assert_cmpstr (title, ==, "<title> & \"more\"");
  }

  /* no markup of the names in the file, the bidi controls as references,
   * and one script element only */
  g_assert_null (strstr (svg.text, "<script>alert"));
  g_assert_null (strstr (svg.text, "\xe2\x80\xae"));
  g_assert_nonnull (strstr (svg.text, "&#x202E;evil.brs&#x2066;x"));
  g_assert_null (strstr (svg.text, "\x01"));
  g_assert_true (g_utf8_validate (svg.text, -1, NULL));
  g_assert_cmpuint (xpath_number (svg.path, "count(//*[local-name()='script'])"), ==, 1);
}

static void
test_narrow_frames (void)
{
  const char *lines[] = {
    "main;wide 999999",
    "main;tiny 1",        /* 0.001 px at 1000 px: left out */
    "main;wide;narrow 99",  /* 0.099 px: left out */
    "main;wide;enough 200", /* 0.2 px: drawn */
    NULL,
  };
  g_autoptr(BlProfile) profile = build_profile (lines);
  BlFlameSvgOptions options = { BL_METRIC_CPU, NULL, WIDTH, NULL, 0, FALSE };
  BlFlameSvgStats stats;
  g_auto(Svg) svg = { 0 };

  /* the total is 1000299: 0.1 px is a value of 100.03 */
  write_profile (&svg, profile, &options, &stats);
  g_assert_cmpuint (n_frames (svg.path), ==, 3);
  g_assert_false (stats.capped);
  g_assert_null (strstr (svg.text, "<title>tiny\n"));
  g_assert_null (strstr (svg.text, "<title>narrow\n"));
  g_assert_nonnull (strstr (svg.text, "<title>enough\n"));
}

static void
test_cap (void)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(BlProfile) profile = NULL;
  BlFlameSvgOptions options = { BL_METRIC_CPU, NULL, WIDTH, NULL, 100, FALSE };
  BlFlameSvgStats stats;
  g_auto(Svg) svg = { 0 };
  double narrowest_drawn = G_MAXDOUBLE;
  guint n;

  /* 300 functions of values 1000…1299, each with a child of half that */
  for (guint i = 0; i < 300; i++)
    {
      g_ptr_array_add (lines, g_strdup_printf ("main;f%u %u", i, 500 + i / 2));
      g_ptr_array_add (lines, g_strdup_printf ("main;f%u;g%u %u", i, i, 500 + i / 2));
    }
  g_ptr_array_add (lines, NULL);
  profile = build_profile ((const char * const *) lines->pdata);

  write_profile (&svg, profile, &options, &stats);
  assert_well_formed (svg.path);
  n = n_frames (svg.path);
  g_assert_cmpuint (n, ==, 100);
  g_assert_cmpuint (stats.n_frames, ==, 100);
  g_assert_true (stats.capped);
  g_assert_nonnull (strstr (svg.text, "only the 100 widest frames are drawn"));

  /* the widest: main, then the f with the largest values; every g drawn
   * has its f drawn */
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *title = frame_title (svg.path, i);
      g_auto(GStrv) title_lines = g_strsplit (title, "\n", 2);

      narrowest_drawn = MIN (narrowest_drawn, frame_rect (svg.path, i, "width"));
      if (title_lines[0][0] == 'g')
        {
          g_autofree char *parent = g_strdup_printf ("<title>f%s\n", title_lines[0] + 1);

          g_assert_nonnull (strstr (svg.text, parent));
        }
    }
  g_assert_cmpfloat (narrowest_drawn, >=, stats.min_frame_px - 1e-9);
  /* f299 is the widest function (1298) and drawn; f0 (1000) is not */
  g_assert_nonnull (strstr (svg.text, "<title>f299\n"));
  g_assert_null (strstr (svg.text, "<title>f0\n"));
}

static void
test_huge (void)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("test");
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  BlFlameSvgStats stats;
  guint32 names[16];
  guint32 file;
  guint32 thread;

  /* 1,000 chains of 1,000 frames: a million frames, each over 0.1 px */
  bl_profile_enable_metric (profile, BL_METRIC_CPU);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_strdup_printf ("function_%u", i);

      names[i] = bl_profile_intern (profile, name);
    }
  file = bl_profile_intern (profile, "pkg:/source/main.brs");
  thread = bl_profile_add_thread (profile, bl_profile_intern (profile, "main"));
  for (guint c = 0; c < 1000; c++)
    {
      g_autofree char *chain = g_strdup_printf ("chain_%u", c);
      guint32 node = bl_profile_add_child (profile, thread, bl_profile_intern (profile, chain),
                                           file, 1);

      for (guint d = 1; d < 1000; d++)
        node = bl_profile_add_child (profile, node, names[(c + d) % 16], file, d + 1);
      bl_profile_add_value (profile, node, BL_METRIC_CPU, 1000 + c);
    }
  bl_profile_finish (profile);
  g_assert_cmpuint (bl_profile_get_n_nodes (profile), >, 1000000);

  g_assert_true (bl_flame_svg_write_profile (profile, NULL, out, &stats, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (out, NULL, NULL));

  g_assert_true (stats.capped);
  g_assert_cmpuint (stats.n_frames, ==, BL_FLAME_SVG_DEFAULT_MAX_FRAMES);
  /* a few hundred bytes a frame, not a gigabyte */
  g_assert_cmpuint (g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)), <,
                    BL_FLAME_SVG_DEFAULT_MAX_FRAMES * 400);
}

static void
test_deterministic (void)
{
  const char *lines[] = {
    "main;load;parse 5",
    "main;draw 30",
    "worker;run 40",
    NULL,
  };
  g_autoptr(BlProfile) profile = build_profile (lines);
  g_auto(Svg) a = { 0 };
  g_auto(Svg) b = { 0 };

  write_profile (&a, profile, NULL, NULL);
  write_profile (&b, profile, NULL, NULL);
  g_assert_cmpstr (a.text, ==, b.text);
  /* the default width */
  g_assert_cmpfloat (xpath_number (a.path, "number(/*/@width)"), ==,
                     BL_FLAME_SVG_DEFAULT_WIDTH);
}

static void
test_palette (void)
{
  const char *lines[] = {
    "main;load 5",
    NULL,
  };
  g_autoptr(BlProfile) profile = build_profile (lines);
  g_auto(Svg) svg = { 0 };
  guint32 node = find_node (profile, "load");
  g_autofree char *fill = NULL;
  g_autofree char *expected = NULL;
  BlFlameColor color;
  guint hue, shade;

  write_profile (&svg, profile, NULL, NULL);
  bl_flame_text_get_color_key (profile, node, FALSE, &hue, &shade);
  g_assert_cmpuint (hue, ==, g_str_hash ("pkg:/source/main.brs") % BL_FLAME_N_PALETTE);
  g_assert_cmpuint (shade, ==, (g_str_hash ("load") >> 16) % BL_FLAME_N_SHADES);
  bl_flame_text_shade_color (bl_flame_text_get_light_palette (), hue, shade, &color);
  expected = g_strdup_printf ("#%02x%02x%02x", (guint) lround (color.red * 255),
                              (guint) lround (color.green * 255),
                              (guint) lround (color.blue * 255));
  fill = xpath (svg.path, "string(//*[@id='f1']/*[local-name()='rect']/@fill)");
  g_assert_cmpstr (fill, ==, expected);
}

static BlProfile *
profile_from_lines (const char * const *lines)
{
  g_autoptr(GBytes) bytes = bl_stacks_write_bsprof (lines);
  g_autoptr(GError) error = NULL;
  BlProfile *profile;

  profile = bl_bsprof_read_memory (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   &error);
  g_assert_no_error (error);

  return profile;
}

static void
test_diff (void)
{
  const char *a[] = {
    "Thread main;Main;load 50",
    "Thread main;Main;draw 50",
    NULL,
  };
  const char *b[] = {
    "Thread main;Main;load 50",
    "Thread main;Main;draw 100",
    "Thread main;Main;fresh 50",
    NULL,
  };
  g_autoptr(BlProfile) pa = profile_from_lines (a);
  g_autoptr(BlProfile) pb = profile_from_lines (b);
  g_autoptr(BlDiff) diff = bl_diff_new (pa, pb);
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  BlFlameSvgOptions options = { BL_METRIC_CPU, NULL, WIDTH, NULL, 0, FALSE };
  g_auto(Svg) svg = { 0 };
  guint n;
  gboolean seen_fresh = FALSE, seen_draw = FALSE, seen_load = FALSE;

  g_assert_true (bl_flame_svg_write_diff (diff, &options, out, NULL, NULL, &error));
  g_assert_no_error (error);
  svg_save (&svg, out);
  assert_well_formed (svg.path);

  /* Thread main, Main, draw, fresh, load: B's frames */
  n = n_frames (svg.path);
  g_assert_cmpuint (n, ==, 5);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *title = frame_title (svg.path, i);
      g_auto(GStrv) title_lines = g_strsplit (title, "\n", 2);
      g_autofree char *fill_expr =
        g_strdup_printf ("string(//*[@id='f%u']/*[local-name()='rect']/@fill)", i);
      g_autofree char *fill = xpath (svg.path, fill_expr);
      guint32 pnode = find_node (pb, title_lines[0]);
      g_autofree char *tooltip =
        bl_flame_text_dup_diff_tooltip (diff, BL_METRIC_CPU, FALSE, BL_DIFF_SIDE_B, pnode);
      double width = frame_rect (svg.path, i, "width");

      /* the compare view's tooltip, word for word */
      g_assert_cmpstr (title, ==, tooltip);
      /* widths are B's values: B's total is 200 */
      g_assert_cmpfloat_with_epsilon (width,
                                      bl_profile_get_total (pb, BL_METRIC_CPU, pnode)
                                      * FRAME_WIDTH / 200.0, 1e-9);

      if (g_str_equal (title_lines[0], "fresh"))
        {
          seen_fresh = TRUE;
          g_assert_cmpstr (fill, ==, "#9141ac");     /* only in B */
          g_assert_nonnull (strstr (title, "Only in B"));
        }
      else if (g_str_equal (title_lines[0], "draw"))
        {
          guint r, g, bl;

          seen_draw = TRUE;
          g_assert_cmpint (sscanf (fill, "#%02x%02x%02x", &r, &g, &bl), ==, 3);
          g_assert_cmpuint (r, >, bl);              /* grew: red */
          g_assert_cmpuint (r, >, g);
        }
      else if (g_str_equal (title_lines[0], "load"))
        {
          seen_load = TRUE;
          g_assert_cmpstr (fill, ==, "#d6d6d6");    /* unchanged: neutral */
        }
    }
  g_assert_true (seen_fresh && seen_draw && seen_load);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/flame-svg/widths", test_widths);
  g_test_add_func ("/model/flame-svg/thread", test_thread);
  g_test_add_func ("/model/flame-svg/hostile-names", test_hostile_names);
  g_test_add_func ("/model/flame-svg/narrow-frames", test_narrow_frames);
  g_test_add_func ("/model/flame-svg/cap", test_cap);
  g_test_add_func ("/model/flame-svg/huge", test_huge);
  g_test_add_func ("/model/flame-svg/deterministic", test_deterministic);
  g_test_add_func ("/model/flame-svg/palette", test_palette);
  g_test_add_func ("/model/flame-svg/diff", test_diff);

  return g_test_run ();
}
