/* test-renderer-choice.c — software GL: the window draws with cairo
 * (bl-renderer-choice.c); hardware GL, no GL or a renderer the user chose:
 * GTK's own choice
 *
 * Each case runs in a subprocess, since GTK reads GSK_RENDERER and opens
 * its display once per process.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <epoxy/gl.h>

#include "bl-renderer-choice.h"

static void
test_names (void)
{
  g_assert_true (bl_renderer_choice_is_software ("llvmpipe (LLVM 15.0.6, 256 bits)"));
  g_assert_true (bl_renderer_choice_is_software ("softpipe"));
  g_assert_true (bl_renderer_choice_is_software ("Software Rasterizer"));
  g_assert_false (bl_renderer_choice_is_software ("Mesa Intel(R) UHD Graphics 620 (KBL GT2)"));
  g_assert_false (bl_renderer_choice_is_software ("AMD Radeon RX 6600 (radeonsi, navy_flounder)"));
  g_assert_false (bl_renderer_choice_is_software (NULL));
}

static GType
window_renderer_type (void)
{
  GtkWidget *window = gtk_window_new ();
  GType type;

  gtk_widget_realize (window);
  type = G_OBJECT_TYPE (gtk_native_get_renderer (GTK_NATIVE (window)));
  gtk_window_destroy (GTK_WINDOW (window));

  return type;
}

/* GL allowed, no renderer chosen: Xvfb's GL is Mesa's llvmpipe, a real
 * display's may be hardware */
static void
test_software_gl (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(GdkGLContext) context = NULL;
      g_autofree char *name = NULL;
      const char *chosen;

      g_unsetenv ("GSK_RENDERER");
      /* GL allowed, whichever way the suite turned it off */
      g_unsetenv ("GDK_DEBUG");
      g_unsetenv ("GDK_DISABLE");
      gtk_init ();
      /* what this display's GL is, asked independently */
      if ((context = gdk_display_create_gl_context (gdk_display_get_default (), NULL)) != NULL &&
          gdk_gl_context_realize (context, NULL))
        {
          gdk_gl_context_make_current (context);
          name = g_strdup ((const char *) glGetString (GL_RENDERER));
          gdk_gl_context_clear_current ();
        }
      g_test_message ("GL renderer: %s", name ? name : "(none)");

      chosen = bl_renderer_choice_apply (gdk_display_get_default ());
      /* the environment is as it was, for the programs the app starts */
      g_assert_null (g_getenv ("GSK_RENDERER"));
      if (name != NULL && bl_renderer_choice_is_software (name))
        {
          g_assert_cmpstr (chosen, ==, "cairo");
          g_assert_true (window_renderer_type () == GSK_TYPE_CAIRO_RENDERER);
          /* and every later window too */
          g_assert_true (window_renderer_type () == GSK_TYPE_CAIRO_RENDERER);
        }
      else
        {
          g_assert_null (chosen);
          if (name != NULL)
            g_assert_false (window_renderer_type () == GSK_TYPE_CAIRO_RENDERER);
        }
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* the user's GSK_RENDERER is the user's */
static void
test_user_choice (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(GdkGLContext) context = NULL;
      /* GTK 4.14 removed the old "gl" renderer: its GL renderer is "ngl" */
      const char *asked = gtk_get_minor_version () >= 14 ? "ngl" : "gl";
      gboolean gl;

      g_setenv ("GSK_RENDERER", asked, TRUE);
      g_unsetenv ("GDK_DEBUG");
      g_unsetenv ("GDK_DISABLE");
      gtk_init ();
      gl = (context = gdk_display_create_gl_context (gdk_display_get_default (), NULL)) != NULL &&
           gdk_gl_context_realize (context, NULL);
      g_assert_null (bl_renderer_choice_apply (gdk_display_get_default ()));
      g_assert_cmpstr (g_getenv ("GSK_RENDERER"), ==, asked);
      /* GL, even software GL, as asked (without GL at all GTK falls back) */
      if (gl)
        g_assert_false (window_renderer_type () == GSK_TYPE_CAIRO_RENDERER);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* no GL at all: nothing to choose, GTK falls back to cairo by itself */
static void
test_no_gl (void)
{
  if (g_test_subprocess ())
    {
      g_unsetenv ("GSK_RENDERER");
      /* GTK 4.16 moved "gl-disable" from GDK_DEBUG to GDK_DISABLE=gl */
      if (gtk_get_minor_version () >= 16)
        {
          g_unsetenv ("GDK_DEBUG");
          g_setenv ("GDK_DISABLE", "gl", TRUE);
        }
      else
        g_setenv ("GDK_DEBUG", "gl-disable", TRUE);
      gtk_init ();
      g_assert_null (bl_renderer_choice_apply (gdk_display_get_default ()));
      g_assert_null (g_getenv ("GSK_RENDERER"));
      g_assert_true (window_renderer_type () == GSK_TYPE_CAIRO_RENDERER);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/renderer-choice/names", test_names);
  g_test_add_func ("/renderer-choice/software-gl", test_software_gl);
  g_test_add_func ("/renderer-choice/user-choice", test_user_choice);
  g_test_add_func ("/renderer-choice/no-gl", test_no_gl);

  return g_test_run ();
}
