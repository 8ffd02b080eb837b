/* bl-about.c
 *
 * An AdwAboutWindow with the version, the licence, the links and the credits.
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
  AdwAboutWindow *about;

  g_return_if_fail (!parent || GTK_IS_WINDOW (parent));

  about = ADW_ABOUT_WINDOW (adw_about_window_new ());

  if (parent != NULL)
    {
      gtk_window_set_transient_for (GTK_WINDOW (about), parent);
      gtk_window_set_modal (GTK_WINDOW (about), TRUE);
    }

  /* the release id: the resources carry it, so an uninstalled or .Devel build shows it too */
  adw_about_window_set_application_icon (about, BASE_ID);
  adw_about_window_set_application_name (about, _("Brightlens"));
  adw_about_window_set_version (about, PACKAGE_VERSION);
  adw_about_window_set_developer_name (about, _("The Brightlens contributors"));
  adw_about_window_set_comments (about,
                                 _("See where a Roku app spends its time and memory: flame "
                                   "graphs, call trees, annotated sources and resource "
                                   "timelines from BrightScript profiles, Roku Resource "
                                   "Monitor sessions and other profilers."));
  adw_about_window_set_website (about, BL_WEBSITE);
  adw_about_window_set_issue_url (about, BL_ISSUE_URL);
  adw_about_window_set_license_type (about, GTK_LICENSE_GPL_3_0);
  adw_about_window_set_copyright (about, _("© 2026 The Brightlens contributors"));
  adw_about_window_set_developers (about, developers);
  adw_about_window_set_designers (about, designers);
  /* Translators: put your name (and e-mail address) here, one translator per line;
   * it is shown in the About window's credits. */
  adw_about_window_set_translator_credits (about, _("translator-credits"));
  adw_about_window_add_acknowledgement_section (about, _("Built With"), built_with);

  gtk_window_present (GTK_WINDOW (about));
}
