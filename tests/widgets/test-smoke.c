/* test-smoke.c — every template widget in the resources builds
 *
 * Each .ui under ui/ with a <template> is instantiated by class name, so a
 * widget added by anyone is covered without editing this test; a broken .ui
 * fails here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <gmodule.h>
#include <string.h>

/* BlFlameGraph → bl_flame_graph_get_type, as GtkBuilder resolves types */
static GType
type_from_class_name (const char *name)
{
  g_autoptr(GString) symbol = g_string_new (NULL);
  GModule *self = g_module_open (NULL, 0);
  GType (*get_type) (void) = NULL;
  gboolean found;

  for (const char *p = name; *p; p++)
    {
      if (g_ascii_isupper (*p) && p != name)
        g_string_append_c (symbol, '_');
      g_string_append_c (symbol, g_ascii_tolower (*p));
    }
  g_string_append (symbol, "_get_type");

  found = g_module_symbol (self, symbol->str, (gpointer *) &get_type);
  g_module_close (self);
  if (!found || get_type == NULL)
    return G_TYPE_INVALID;

  return get_type ();
}

static char *
template_class (const char *resource)
{
  g_autoptr(GBytes) bytes = g_resources_lookup_data (resource, 0, NULL);
  const char *data, *start, *end;

  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, NULL);
  start = g_strstr_len (data, g_bytes_get_size (bytes), "<template class=\"");
  if (start == NULL)
    return NULL;
  start += strlen ("<template class=\"");
  end = strchr (start, '"');
  if (end == NULL)
    return NULL;

  return g_strndup (start, end - start);
}

static void
test_templates (void)
{
  g_auto(GStrv) names = g_resources_enumerate_children (RESOURCE_BASE_PATH "/ui/", 0, NULL);
  guint built = 0;

  g_assert_nonnull (names);

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *path = g_strconcat (RESOURCE_BASE_PATH "/ui/", names[i], NULL);
      g_autofree char *klass = template_class (path);
      GObject *object;
      GType type;

      if (klass == NULL)
        continue;

      type = type_from_class_name (klass);
      g_test_message ("building %s from %s", klass, names[i]);
      g_assert_true (type != G_TYPE_INVALID);

      if (g_type_is_a (type, g_type_from_name ("BlProfilePage")))
        {
          g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent.bsprof");

          object = g_object_new (type, "file", file, NULL);
        }
      else
        object = g_object_new (type, NULL);

      g_assert_true (GTK_IS_WIDGET (object));
      if (GTK_IS_WINDOW (object))
        gtk_window_destroy (GTK_WINDOW (object));
      else
        {
          g_object_ref_sink (object);
          g_object_unref (object);
        }
      built++;
    }

  /* at least the window, the page and the profile view */
  g_assert_cmpuint (built, >=, 3);
}

/* the keyboard shortcuts: an AdwShortcutsDialog with libadwaita 1.8, a
 * GtkShortcutsWindow before it */
static void
test_help_overlay (void)
{
#if ADW_CHECK_VERSION (1, 8, 0)
  g_autoptr(GtkBuilder) builder =
    gtk_builder_new_from_resource (RESOURCE_BASE_PATH "/shortcuts-dialog.ui");
  GObject *dialog = gtk_builder_get_object (builder, "shortcuts_dialog");

  g_assert_true (ADW_IS_SHORTCUTS_DIALOG (dialog));
  g_object_ref_sink (dialog);
  g_object_unref (dialog);
#else
  g_autoptr(GtkBuilder) builder =
    gtk_builder_new_from_resource (RESOURCE_BASE_PATH "/gtk/help-overlay.ui");
  GObject *overlay = gtk_builder_get_object (builder, "help_overlay");

  g_assert_true (GTK_IS_SHORTCUTS_WINDOW (overlay));
  gtk_window_destroy (GTK_WINDOW (overlay));
#endif
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  if (!gtk_init_check ())
    g_error ("No display: widget tests need one (run them under xvfb-run)");
  adw_init ();

  g_test_add_func ("/widgets/smoke/templates", test_templates);
  g_test_add_func ("/widgets/smoke/help-overlay", test_help_overlay);

  return g_test_run ();
}
