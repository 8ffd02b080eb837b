/* bl-alert.h — a message with responses: AdwAlertDialog where libadwaita has it (1.5),
 * AdwMessageDialog before
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* Both kinds emit "response" (GObject *alert, const char *response, gpointer data). */
GObject    *bl_alert_new                  (const char *heading,
                                           const char *body);
void        bl_alert_add_response         (GObject    *alert,
                                           const char *id,
                                           const char *label);
void        bl_alert_set_suggested        (GObject    *alert,
                                           const char *id);
void        bl_alert_set_close_response   (GObject    *alert,
                                           const char *id);
void        bl_alert_present              (GObject    *alert,
                                           GtkWindow  *parent);

/* for tests: the alert shown over @parent, and what it offers */
GObject    *bl_alert_find                 (GtkWindow  *parent);
const char *bl_alert_get_heading          (GObject    *alert);
gboolean    bl_alert_has_response         (GObject    *alert,
                                           const char *id);
const char *bl_alert_get_default_response (GObject    *alert);
void        bl_alert_respond              (GObject    *alert,
                                           const char *id);

G_END_DECLS
