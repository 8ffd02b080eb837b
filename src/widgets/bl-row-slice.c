/* bl-row-slice.c — a list view's rows handed over a slice a frame
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "bl-row-slice.h"

#define FIRST_ROWS    48   /* a table of 1,000 px or so */
#define ROWS_PER_TICK 24
#define ROWS_BOUND    256  /* more than GTK 4.8 binds at once */

static void
stop_growing (BlRowSlice *self)
{
  if (self->tick != 0)
    gtk_widget_remove_tick_callback (self->widget, self->tick);
  self->tick = 0;
}

static void
focus_entered (GtkEventControllerFocus *controller,
               BlRowSlice              *self)
{
  /* End, Page Down, type-ahead go by the rows there are: all of them */
  bl_row_slice_show_all (self);
}

/* @self lives as long as @widget, which shows the slices: the focus
 * entering it (a click on a row, Tab) brings every row in. */
void
bl_row_slice_init (BlRowSlice *self,
                   GtkWidget  *widget)
{
  GtkEventController *focus = gtk_event_controller_focus_new ();

  self->widget = widget;
  self->slice = NULL;
  self->tick = 0;
  g_signal_connect (focus, "enter", G_CALLBACK (focus_entered), self);
  gtk_widget_add_controller (widget, focus);
}

/**
 * bl_row_slice_wrap:
 * @rows: (transfer full): the rows
 *
 * Returns: (transfer full): the first slice of @rows, for the selection
 *   model the view shows; call bl_row_slice_grow() once it is shown
 */
GListModel *
bl_row_slice_wrap (BlRowSlice *self,
                   GListModel *rows)
{
  stop_growing (self);
  g_clear_object (&self->slice);
  self->slice = gtk_slice_list_model_new (rows, 0, FIRST_ROWS);

  return G_LIST_MODEL (g_object_ref (self->slice));
}

/* The rows are about to change all at once: the first slice of them only. */
void
bl_row_slice_restart (BlRowSlice *self)
{
  stop_growing (self);
  if (self->slice != NULL)
    gtk_slice_list_model_set_size (self->slice, FIRST_ROWS);
}

static gboolean
grow (GtkWidget     *widget,
      GdkFrameClock *clock,
      gpointer       data)
{
  BlRowSlice *self = data;
  guint size = gtk_slice_list_model_get_size (self->slice) + ROWS_PER_TICK;

  if (size >= ROWS_BOUND ||
      size >= g_list_model_get_n_items (gtk_slice_list_model_get_model (self->slice)))
    {
      self->tick = 0;
      gtk_slice_list_model_set_size (self->slice, G_MAXUINT);
      return G_SOURCE_REMOVE;
    }
  gtk_slice_list_model_set_size (self->slice, size);

  return G_SOURCE_CONTINUE;
}

/* The view shows the slice: the rest comes a little each frame. */
void
bl_row_slice_grow (BlRowSlice *self)
{
  if (self->slice == NULL || self->tick != 0 ||
      g_list_model_get_n_items (gtk_slice_list_model_get_model (self->slice)) <=
      gtk_slice_list_model_get_size (self->slice))
    return;

  self->tick = gtk_widget_add_tick_callback (self->widget, grow, self, NULL);
}

/* Every row now, for whoever goes by position. */
void
bl_row_slice_show_all (BlRowSlice *self)
{
  stop_growing (self);
  if (self->slice != NULL)
    gtk_slice_list_model_set_size (self->slice, G_MAXUINT);
}

void
bl_row_slice_clear (BlRowSlice *self)
{
  stop_growing (self);
  g_clear_object (&self->slice);
}
