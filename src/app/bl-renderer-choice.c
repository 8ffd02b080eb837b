/* bl-renderer-choice.c — cairo instead of GL when GL is drawn in software
 *
 * GTK 4.8 draws windows with OpenGL by default, also when that OpenGL is
 * Mesa's software rasterizer (llvmpipe: a virtual machine, a remote desktop,
 * a session without a GPU driver, Xvfb). Without the buffer age of a real
 * driver, GTK's GL renderer then repaints the whole window for any change,
 * however small, on the CPU: at 1356×758, 49 ms of CPU for a progress bar's
 * step against 1 ms with the cairo renderer, which repaints only what
 * changed; 65–80 ms for a flame graph frame against 7–10 ms. While a file
 * loads, those frames take the CPU the reader needs.
 *
 * So, when the user chose no renderer (GSK_RENDERER unset) and GL is a
 * software one, the app asks for the cairo renderer. GTK reads GSK_RENDERER
 * once, when it makes its first renderer: the variable is set, a renderer
 * made for a surface that is never shown, and the environment restored, so
 * that programs started from the app (help) choose for themselves.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-renderer-choice"

#include "config.h"

#include <epoxy/gl.h>
#include <string.h>

#include "bl-renderer-choice.h"

/* Mesa's software rasterizers, as their GL_RENDERER strings name them */
gboolean
bl_renderer_choice_is_software (const char *gl_renderer)
{
  static const char *names[] = { "llvmpipe", "softpipe", "Software Rasterizer", "SWR", };

  if (gl_renderer == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (strstr (gl_renderer, names[i]) != NULL)
      return TRUE;

  return FALSE;
}

static char *
dup_gl_renderer (GdkDisplay *display)
{
  g_autoptr(GdkGLContext) context = NULL;
  g_autoptr(GError) error = NULL;
  char *name;

  if (!(context = gdk_display_create_gl_context (display, &error)) ||
      !gdk_gl_context_realize (context, &error))
    {
      /* no GL at all: GTK uses cairo by itself */
      g_debug ("No GL: %s", error->message);
      return NULL;
    }
  gdk_gl_context_make_current (context);
  name = g_strdup ((const char *) glGetString (GL_RENDERER));
  gdk_gl_context_clear_current ();

  return name;
}

/* Before the first window: returns "cairo" when it chose the cairo
 * renderer, NULL when it left the choice to GTK (a renderer set by the user,
 * hardware GL, no GL, or a renderer already made). About 5 ms. */
const char *
bl_renderer_choice_apply (GdkDisplay *display)
{
  g_autofree char *gl_renderer = NULL;
  g_autoptr(GskRenderer) renderer = NULL;
  GdkSurface *surface;
  gboolean chosen;

  g_return_val_if_fail (GDK_IS_DISPLAY (display), NULL);

  if (g_getenv ("GSK_RENDERER") != NULL)
    return NULL;
  gl_renderer = dup_gl_renderer (display);
  if (!bl_renderer_choice_is_software (gl_renderer))
    return NULL;

  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  surface = gdk_surface_new_toplevel (display);
  renderer = gsk_renderer_new_for_surface (surface);
  g_unsetenv ("GSK_RENDERER");
  chosen = GSK_IS_CAIRO_RENDERER (renderer);
  if (renderer != NULL)
    gsk_renderer_unrealize (renderer);
  gdk_surface_destroy (surface);
  g_debug ("GL renderer “%s”: %s", gl_renderer, chosen ? "cairo instead" : "kept");

  return chosen ? "cairo" : NULL;
}
