/* widget-test-util.c — what the widget tests share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "widget-test-util.h"

/**
 * test_find_widget:
 *
 * Returns: (transfer none) (nullable): @widget if it is of @type, else the
 *   first widget of @type under it, depth first
 */
GtkWidget *
test_find_widget (GtkWidget *widget,
                  GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = test_find_widget (child, type);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/**
 * test_iterate_until:
 * @max_turns: how many turns of the main loop, a millisecond apart, to wait
 *   at most
 *
 * Runs the main loop until @cond holds of @data, or @max_turns have gone.
 *
 * Returns: whether @cond holds
 */
gboolean
test_iterate_until (gboolean (*cond) (gpointer),
                    gpointer   data,
                    guint      max_turns)
{
  for (guint i = 0; i < max_turns && !cond (data); i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }

  return cond (data);
}

/**
 * test_make_recent_dir:
 *
 * Makes the folder the default recent manager writes to: it keeps the
 * file name of the first test's isolated data folder, which the tests after
 * it no longer have.
 */
void
test_make_recent_dir (void)
{
  g_autofree char *file = NULL;
  g_autofree char *dir = NULL;

  g_object_get (gtk_recent_manager_get_default (), "filename", &file, NULL);
  dir = g_path_get_dirname (file);
  g_mkdir_with_parents (dir, 0700);
}
