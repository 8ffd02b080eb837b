/* bl-about.c
 *
 * An AdwAboutDialog (libadwaita 1.5; AdwAboutWindow before) with the version, the licence, the links and the credits.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-about"

#include "config.h"

#include <glib/gi18n.h>
#include <adwaita.h>

#include "bl-about.h"

#define BL_WEBSITE   "https://github.com/brightlens/brightlens"
#define BL_ISSUE_URL "https://github.com/brightlens/brightlens/issues"

void
bl_show_about_window (GtkWindow *parent)
{
  static const char *developers[] = {
    "The Brightlens contributors https://github.com/brightlens/brightlens/graphs/contributors",
    NULL
  };
  static const char *designers[] = {
    "The Brightlens contributors",
    NULL
  };
  static const char *built_with[] = {
    "GTK https://www.gtk.org",
    "libadwaita https://gnome.pages.gitlab.gnome.org/libadwaita/",
    "GLib https://gitlab.gnome.org/GNOME/glib",
    "JSON-GLib https://gitlab.gnome.org/GNOME/json-glib",
    NULL
  };
  GObject *about;

  g_return_if_fail (!parent || GTK_IS_WINDOW (parent));

#if ADW_CHECK_VERSION (1, 5, 0)
  about = G_OBJECT (adw_about_dialog_new ());
#else
  about = G_OBJECT (adw_about_window_new ());
  if (parent != NULL)
    {
      gtk_window_set_transient_for (GTK_WINDOW (about), parent);
      gtk_window_set_modal (GTK_WINDOW (about), TRUE);
    }
#endif

  /* AdwAboutDialog and AdwAboutWindow share these properties.
   * The release id: the resources carry it, so an uninstalled or .Devel build shows it too */
  g_object_set (about,
                "application-icon", BASE_ID,
                "application-name", _("Brightlens"),
                "version", PACKAGE_VERSION,
                "developer-name", _("The Brightlens contributors"),
                "comments", _("See where a Roku app spends its time and memory: flame "
                              "graphs, call trees, annotated sources and resource "
                              "timelines from BrightScript profiles, Roku Resource "
                              "Monitor sessions and other profilers."),
                "website", BL_WEBSITE,
                "issue-url", BL_ISSUE_URL,
                "license-type", GTK_LICENSE_GPL_3_0,
                "copyright", _("© 2026 The Brightlens contributors"),
                "developers", developers,
                "designers", designers,
                /* Translators: put your name (and e-mail address) here, one translator per
                 * line; it is shown in the About window's credits. */
                "translator-credits", _("translator-credits"),
                NULL);

#if ADW_CHECK_VERSION (1, 5, 0)
  adw_about_dialog_add_acknowledgement_section (ADW_ABOUT_DIALOG (about), _("Built With"),
                                                built_with);
  adw_dialog_present (ADW_DIALOG (about), parent != NULL ? GTK_WIDGET (parent) : NULL);
#else
  adw_about_window_add_acknowledgement_section (ADW_ABOUT_WINDOW (about), _("Built With"),
                                                built_with);
  gtk_window_present (GTK_WINDOW (about));
#endif
}
