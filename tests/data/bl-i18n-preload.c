/* bl-i18n-preload.c — an LD_PRELOAD module for test-translation
 *
 * Loaded into the real brightlens executable. It
 *  - points bindtextdomain() for our domain at BL_I18N_LOCALEDIR (the build's po/ directory
 *    holds <lang>/LC_MESSAGES/brightlens.mo), since the compiled-in LOCALEDIR is not
 *    installed while the tests run; the app must still call bindtextdomain() itself;
 *  - once a window of the application is mapped, writes every text the user can see or hear
 *    in it (labels, window titles, tooltips, menu item labels) to BL_I18N_DUMP, one per line,
 *    and quits the application.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <dlfcn.h>
#include <string.h>

#include <gtk/gtk.h>

/* non-static: they are interposed or registered through the dynamic linker */
char *bindtextdomain (const char *domainname,
                      const char *dirname);
void  bl_i18n_preload_init (void) __attribute__ ((constructor));

char *
bindtextdomain (const char *domainname,
                const char *dirname)
{
  static char *(*real_bindtextdomain) (const char *, const char *);
  const char *override = g_getenv ("BL_I18N_LOCALEDIR");

  if (real_bindtextdomain == NULL)
    real_bindtextdomain = (char *(*) (const char *, const char *))
                            dlsym (RTLD_NEXT, "bindtextdomain");

  if (override != NULL && dirname != NULL && g_strcmp0 (domainname, GETTEXT_PACKAGE) == 0)
    {
      g_message ("bindtextdomain (%s, %s) redirected to %s", domainname, dirname, override);
      dirname = override;
    }

  return real_bindtextdomain (domainname, dirname);
}

static void
add_text (GHashTable *texts,
          const char *text)
{
  if (text != NULL && text[0] != '\0' && strchr (text, '\n') == NULL)
    g_hash_table_add (texts, g_strdup (text));
}

static void
collect_menu (GMenuModel *model,
              GHashTable *texts)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *label = NULL;
      GMenuModel *link;

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_LABEL, "s", &label))
        add_text (texts, label);

      if ((link = g_menu_model_get_item_link (model, i, G_MENU_LINK_SECTION)) != NULL)
        {
          collect_menu (link, texts);
          g_object_unref (link);
        }
      if ((link = g_menu_model_get_item_link (model, i, G_MENU_LINK_SUBMENU)) != NULL)
        {
          collect_menu (link, texts);
          g_object_unref (link);
        }
    }
}

static void
collect_widget (GtkWidget  *widget,
                GHashTable *texts)
{
  GtkWidget *child;

  if (GTK_IS_LABEL (widget))
    add_text (texts, gtk_label_get_text (GTK_LABEL (widget)));
  if (GTK_IS_WINDOW (widget))
    add_text (texts, gtk_window_get_title (GTK_WINDOW (widget)));
  if (GTK_IS_MENU_BUTTON (widget) && gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (widget)))
    collect_menu (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (widget)), texts);
  if (GTK_IS_EDITABLE (widget))
    {
      g_autofree char *placeholder = NULL;

      if (g_object_class_find_property (G_OBJECT_GET_CLASS (widget), "placeholder-text"))
        {
          g_object_get (widget, "placeholder-text", &placeholder, NULL);
          add_text (texts, placeholder);
        }
    }
  add_text (texts, gtk_widget_get_tooltip_text (widget));

  for (child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_widget (child, texts);
}

static gboolean
dump_when_mapped (gpointer user_data)
{
  static guint mapped_ticks;
  GApplication *app = g_application_get_default ();
  g_autoptr(GListModel) toplevels = NULL;
  g_autoptr(GHashTable) texts = NULL;
  g_autoptr(GString) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree GStrv keys = NULL;
  const char *path = g_getenv ("BL_I18N_DUMP");
  gboolean any_mapped = FALSE;

  if (app == NULL || !gtk_is_initialized ())
    return G_SOURCE_CONTINUE;

  toplevels = g_object_ref (gtk_window_get_toplevels ());
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_APPLICATION_WINDOW (window) && gtk_widget_get_mapped (window))
        any_mapped = TRUE;
    }

  /* let the first frames settle (the window builds some children on map) */
  if (!any_mapped || ++mapped_ticks < 3)
    return G_SOURCE_CONTINUE;

  texts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      collect_widget (window, texts);
    }
  if (GTK_IS_APPLICATION (app) && gtk_application_get_menubar (GTK_APPLICATION (app)))
    collect_menu (gtk_application_get_menubar (GTK_APPLICATION (app)), texts);

  out = g_string_new (NULL);
  keys = (GStrv) g_hash_table_get_keys_as_array (texts, NULL);
  for (guint i = 0; keys[i] != NULL; i++)
    g_string_append_printf (out, "%s\n", keys[i]);

  if (path != NULL)
    {
      g_file_set_contents (path, out->str, out->len, &error);
      if (error != NULL)
        g_printerr ("bl-i18n-preload: %s\n", error->message);
    }

  g_application_quit (app);

  return G_SOURCE_REMOVE;
}

void
bl_i18n_preload_init (void)
{
  if (g_getenv ("BL_I18N_DUMP") != NULL)
    g_timeout_add (100, dump_when_mapped, NULL);
}
