/* test-window-bars.c — the window's header bar and tab bar: in an AdwToolbarView where
 * libadwaita has one (1.4), in the template's box before
 *
 * A program of its own: the default GtkRecentManager keeps the isolated directory of the
 * first test that made it, so windows of two tests in one process would meet it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "bl-application.h"
#include "bl-window.h"
#include "widget-test-util.h"

/* The header bar and the tab bar sit in an AdwToolbarView where libadwaita has one
 * (1.4), in the template's box before; the header bar is drawn at the top either way. */
static void
test_header_bar (void)
{
  g_autoptr(BlApplication) app = bl_application_new ();
  g_autoptr(GError) error = NULL;
  GtkWidget *window;
  GtkWidget *header;
  GtkWidget *tab_bar;
  GtkWidget *stack;
  graphene_point_t origin;
  graphene_point_t content;

  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  window = GTK_WIDGET (bl_window_new (GTK_APPLICATION (app)));
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_mapped (window) || gtk_widget_get_width (window) == 0)
    g_main_context_iteration (NULL, TRUE);
  while (g_main_context_iteration (NULL, FALSE))
    ;

  header = test_find_widget (window, ADW_TYPE_HEADER_BAR);
  tab_bar = test_find_widget (window, ADW_TYPE_TAB_BAR);
  stack = GTK_WIDGET (gtk_widget_get_template_child (window, BL_TYPE_WINDOW, "stack"));
  g_assert_nonnull (header);
  g_assert_nonnull (tab_bar);
  g_assert_nonnull (stack);
#if ADW_CHECK_VERSION (1, 4, 0)
  g_assert_nonnull (gtk_widget_get_ancestor (header, ADW_TYPE_TOOLBAR_VIEW));
  g_assert_true (gtk_widget_get_ancestor (header, ADW_TYPE_TOOLBAR_VIEW) ==
                 gtk_widget_get_ancestor (tab_bar, ADW_TYPE_TOOLBAR_VIEW));
  g_assert_null (test_find_widget (adw_toolbar_view_get_content (ADW_TOOLBAR_VIEW (
                   gtk_widget_get_ancestor (header, ADW_TYPE_TOOLBAR_VIEW))),
                              ADW_TYPE_HEADER_BAR));
#else
  g_assert_true (GTK_IS_BOX (gtk_widget_get_parent (header)));
#endif

  /* at the top of the window (below the frame newer GTK draws), above the tab bar and the
   * pages, as wide as they are, with some height */
  g_assert_true (gtk_widget_compute_point (header, window, &GRAPHENE_POINT_INIT (0, 0),
                                           &origin));
  g_assert_cmpfloat (origin.y, <, 8);
  g_assert_true (gtk_widget_compute_point (stack, window, &GRAPHENE_POINT_INIT (0, 0),
                                           &content));
  g_assert_cmpfloat (content.y, >=, origin.y + gtk_widget_get_height (header));
  g_assert_cmpint (gtk_widget_get_height (header), >, 20);
  g_assert_cmpint (gtk_widget_get_width (header), >=, gtk_widget_get_width (stack));

  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

int
main (int   argc,
      char *argv[])
{
  static const char *mime_dirs[] = { "/usr/local/share/mime", "/usr/share/mime", NULL };

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  /* the isolated XDG dirs hide the MIME database, which the image loaders need to
   * recognise the app's SVG icon */
  g_content_type_set_mime_dirs (mime_dirs);

  if (!gtk_init_check ())
    g_error ("No display: widget tests need one (run them under xvfb-run)");
  adw_init ();
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  g_test_add_func ("/widgets/window/header-bar", test_header_bar);

  return g_test_run ();
}
