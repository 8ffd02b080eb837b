/* bl-recording-view.c
 *
 * One tab for a recording from a Roku device. While it records it drives
 * the capture library (as `brightlens-cli record` does): the profiler's
 * stream, the resource poller and the Perfetto trace write their files in
 * the recording's folder and BlRecordingWriter keeps the manifest. What
 * arrived is shown as it grows, on one time axis (microseconds since the
 * recording's start, as in bl-recording.h):
 *
 *   - the resource charts (BlTimeline) from the poller's session after each
 *     poll;
 *   - the trace's lanes (BlTraceTimeline): the Perfetto reader re-run on the
 *     growing file in a worker (BlLoader) every TRACE_EVERY ticks when it
 *     gained bytes; the lanes are inset to line up with the charts' plots;
 *   - the pause/resume/status and heap-graph marks, drawn across both,
 *     their names in a row of their own above the charts, so that they
 *     never cover the rulers' labels (nor each other);
 *   - both rulers read m:ss from the recording's start, on the same ticks;
 *   - the profile's flame graph from a BlBsprofFollower: once a tick a
 *     worker feeds it what the file gained and takes a snapshot, never on
 *     the main loop, never more than one at a time.
 *
 * The header says the device, the app, the state, the elapsed time and the
 * bytes received per stream. A device that goes away ends every stream
 * (the others get LOST_GRACE_S to save what was on its way, as the CLI
 * does); the files hold what arrived, the banner says so, and the tab becomes the
 * saved recording like after Stop: the folder is loaded with
 * bl_recording_load() in a worker and shown from the BlRecording, exactly
 * as when it is opened later.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-recording-view"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "bl-bsprof-follower.h"
#include "bl-capture-error.h"
#include "bl-loader.h"
#include "bl-metric.h"
#include "bl-profile-stream.h"
#include "bl-recording-writer.h"
#include "bl-resource-poller.h"
#include "bl-trace-stream.h"

#include "bl-recording-view.h"

#define TICK_MS      1000
#define TRACE_EVERY  2      /* ticks between two reads of the growing trace */
#define MIN_EXTENT_US (BL_TIME_AXIS_MIN_SPAN_MS * 1000)
#define LOST_GRACE_S  2     /* after one stream lost the device, the others' time to save */

typedef struct
{
  gint64               time_us;
  BlRecordingMarkKind  kind;
  char                *text;
} Mark;

struct _BlRecordingView
{
  GtkWidget             parent_instance;

  BlRecordingViewState  state;
  char                 *title;
  GFile                *folder;
  gboolean              disposed;

  /* recording */
  BlDevice             *device;
  BlRecordingWriter    *writer;
  BlProfileStream      *profile_stream;
  BlResourcePoller     *poller;
  BlTraceStream        *trace_stream;
  BlBsprofFollower     *follower;
  GFile                *files[BL_RECORDING_N_STREAMS];
  gboolean              started[BL_RECORDING_N_STREAMS];
  GCancellable         *cancellable;      /* the workers */
  guint                 running;
  gboolean              paused;
  gboolean              command_busy;
  gboolean              device_lost;
  char                 *lost_message;
  GString              *notes;            /* streams that ended early */
  guint                 tick_id;
  guint                 lost_id;          /* the others' grace after a loss */
  guint                 align_id;         /* lanes realigned after a resize */
  guint                 n_ticks;
  gboolean              snapshot_busy;
  gboolean              trace_busy;
  guint64               trace_bytes_loaded;

  /* what is shown, on the axis */
  BlRecording          *recording;
  gint64                start_unix_us;
  gint64                extent_us;
  gint64                v0_us;
  gint64                v1_us;
  gboolean              follow;           /* the view is the whole extent */
  gboolean              syncing;
  BlSession            *session;
  BlProfile            *trace;
  gint64                trace_offset_us;
  BlProfile            *profile;
  GArray               *marks;            /* Mark */

  /* template */
  GtkLabel             *title_label;
  GtkLabel             *status_label;
  GtkWidget            *buttons;
  GtkButton            *pause_button;
  GtkButton            *status_button;
  GtkButton            *heap_button;
  GtkButton            *stop_button;
  GtkRevealer          *banner;
  GtkLabel             *banner_label;
  GtkWidget            *timeline_scroller;
  BlTimeline           *timeline;
  GtkWidget            *trace_scroller;
  BlTraceTimeline      *trace_timeline;
  GtkDrawingArea       *marks_area;
  GtkWidget            *marks_row;
  GtkStack             *profile_stack;
  GtkLabel             *profile_empty_label;
  BlFlameGraph         *flame_graph;
};

enum {
  STATE_CHANGED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (BlRecordingView, bl_recording_view, GTK_TYPE_WIDGET)

static guint signals[N_SIGNALS];

static void
mark_clear (gpointer data)
{
  Mark *mark = data;

  g_free (mark->text);
}

static void update_marks_row (BlRecordingView *self);

static void
set_state (BlRecordingView      *self,
           BlRecordingViewState  state)
{
  if (self->state == state)
    return;
  self->state = state;
  update_marks_row (self);
  g_signal_emit (self, signals[STATE_CHANGED], 0);
}

/* ------------------------------------------------------------------------ */
/* the axis                                                                  */

static double
axis_to_session_ms (BlRecordingView *self,
                    gint64           t_us)
{
  return (self->start_unix_us + t_us) / 1000.0;
}

static double
axis_to_trace (BlRecordingView *self,
               gint64           t_us)
{
  return (double) (t_us - self->trace_offset_us) * 1000.0;
}

static gboolean
translate_x (GtkWidget *from,
             GtkWidget *to,
             double     x,
             double    *out)
{
#if GTK_CHECK_VERSION (4, 10, 0)
  graphene_point_t point;

  if (!gtk_widget_compute_point (from, to, &GRAPHENE_POINT_INIT ((float) x, 0), &point))
    return FALSE;
  *out = point.x;
  return TRUE;
#else
  double y;

  return gtk_widget_translate_coordinates (from, to, x, 0, out, &y);
#endif
}

/* Where the axis time @t_us is across the marks' overlay. */
static gboolean
axis_to_x (BlRecordingView *self,
           gint64           t_us,
           double          *x)
{
  if (self->session != NULL && gtk_widget_get_visible (self->timeline_scroller))
    return translate_x (GTK_WIDGET (self->timeline), GTK_WIDGET (self->marks_area),
                        bl_timeline_time_to_x (self->timeline,
                                               (gint64) axis_to_session_ms (self, t_us)),
                        x);
  if (self->trace != NULL && gtk_widget_get_visible (self->trace_scroller))
    return translate_x (GTK_WIDGET (self->trace_timeline), GTK_WIDGET (self->marks_area),
                        bl_trace_timeline_time_to_x (self->trace_timeline,
                                                     axis_to_trace (self, t_us)),
                        x);
  return FALSE;
}

/* The trace's lanes start and end where the charts' plots do. */
static void
align_trace (BlRecordingView *self)
{
  int start = 0, end = 0;
  int width = gtk_widget_get_width (GTK_WIDGET (self->timeline));

  if (self->session != NULL && width > 0)
    {
      gint64 vs, ve;

      bl_time_axis_get_visible (bl_timeline_get_axis (self->timeline), &vs, &ve);
      start = (int) (bl_timeline_time_to_x (self->timeline, vs) + 0.5);
      end = (int) (width - bl_timeline_time_to_x (self->timeline, ve) + 0.5);
    }
  if (gtk_widget_get_margin_start (self->trace_scroller) != start)
    gtk_widget_set_margin_start (self->trace_scroller, MAX (start, 0));
  if (gtk_widget_get_margin_end (self->trace_scroller) != end)
    gtk_widget_set_margin_end (self->trace_scroller, MAX (end, 0));
}

static gboolean
align_after_resize (gpointer data)
{
  BlRecordingView *self = data;

  self->align_id = 0;
  align_trace (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->marks_area));
  return G_SOURCE_REMOVE;
}

/* The charts' plots move when the view changes size (a saved recording is
 * laid out after it is loaded, a window is resized): the lanes follow,
 * once the allocation is over. */
static void
marks_area_resized (BlRecordingView *self)
{
  if (self->align_id == 0 && !self->disposed)
    self->align_id = g_idle_add (align_after_resize, self);
}

/* Shows [v0, v1] of [0, extent] in the charts and the lanes. */
static void
apply_axis (BlRecordingView *self)
{
  self->extent_us = MAX (self->extent_us, MIN_EXTENT_US);
  if (self->follow)
    {
      self->v0_us = 0;
      self->v1_us = self->extent_us;
    }
  self->v0_us = CLAMP (self->v0_us, 0, self->extent_us);
  self->v1_us = CLAMP (self->v1_us, self->v0_us + 1, self->extent_us);

  self->syncing = TRUE;
  if (self->session != NULL)
    {
      BlTimeAxis *axis = bl_timeline_get_axis (self->timeline);

      bl_time_axis_set_bounds (axis, (gint64) axis_to_session_ms (self, 0),
                               (gint64) axis_to_session_ms (self, self->extent_us));
      bl_time_axis_set_visible (axis, (gint64) axis_to_session_ms (self, self->v0_us),
                                (gint64) axis_to_session_ms (self, self->v1_us));
    }
  if (self->trace != NULL)
    {
      /* the lanes' ruler reads as the charts' one: m:ss from the start */
      bl_trace_timeline_set_ruler_origin (self->trace_timeline, axis_to_trace (self, 0));
      bl_trace_timeline_set_extent (self->trace_timeline, axis_to_trace (self, 0),
                                    axis_to_trace (self, self->extent_us));
      bl_trace_timeline_set_visible_range (self->trace_timeline,
                                           axis_to_trace (self, self->v0_us),
                                           axis_to_trace (self, self->v1_us));
    }
  self->syncing = FALSE;

  align_trace (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->marks_area));
}

/* the user zoomed or panned the charts: the lanes follow */
static void
timeline_visible_changed (BlRecordingView *self)
{
  gint64 vs, ve;

  if (self->syncing || self->session == NULL)
    return;

  bl_time_axis_get_visible (bl_timeline_get_axis (self->timeline), &vs, &ve);
  self->v0_us = vs * 1000 - self->start_unix_us;
  self->v1_us = ve * 1000 - self->start_unix_us;
  self->follow = self->v0_us <= 0 && self->v1_us >= self->extent_us;
  apply_axis (self);
}

/* … or the lanes: the charts follow */
static void
trace_view_changed (BlRecordingView *self)
{
  double v0, v1;

  if (self->syncing || self->trace == NULL)
    return;

  bl_trace_timeline_get_visible_range (self->trace_timeline, &v0, &v1);
  self->v0_us = (gint64) (v0 / 1000.0) + self->trace_offset_us;
  self->v1_us = (gint64) (v1 / 1000.0) + self->trace_offset_us;
  self->follow = self->v0_us <= 0 && self->v1_us >= self->extent_us;
  apply_axis (self);
}

static void
trace_adjustment_set (BlRecordingView *self)
{
  GtkAdjustment *adjustment =
    gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (self->trace_timeline));

  if (adjustment == NULL || g_object_get_data (G_OBJECT (adjustment), "bl-recording-view") != NULL)
    return;
  g_object_set_data (G_OBJECT (adjustment), "bl-recording-view", self);
  g_signal_connect_object (adjustment, "value-changed", G_CALLBACK (trace_view_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (adjustment, "changed", G_CALLBACK (trace_view_changed), self,
                           G_CONNECT_SWAPPED);
}

/* ------------------------------------------------------------------------ */
/* the marks                                                                 */

static const char *
mark_label (BlRecordingMarkKind kind)
{
  switch (kind)
    {
    case BL_RECORDING_MARK_PAUSE:
      return C_("recording mark", "Pause");
    case BL_RECORDING_MARK_RESUME:
      return C_("recording mark", "Resume");
    case BL_RECORDING_MARK_STATUS:
      return C_("recording mark", "Status");
    case BL_RECORDING_MARK_HEAP_GRAPH:
      return C_("recording mark", "Heap graph");
    case BL_RECORDING_N_MARK_KINDS:
    default:
      return "";
    }
}

static void
mark_color (BlRecordingMarkKind  kind,
            GdkRGBA             *color)
{
  /* libadwaita's palette: orange, green, blue, purple */
  static const char * const colors[] = { "#e66100", "#26a269", "#1c71d8", "#9141ac" };

  gdk_rgba_parse (color, colors[MIN ((guint) kind, G_N_ELEMENTS (colors) - 1)]);
}

/* The flags with the marks' names, in the marks' row at the top of the
 * overlay: each on the right of its line, pushed right past the flag
 * before it, then back left where the row ends, so that none covers
 * another (unless the row is too short for all). A mark not drawn has an
 * empty flag. */
static GArray *
layout_flags (BlRecordingView *self)
{
  GArray *flags = g_array_sized_new (FALSE, TRUE, sizeof (graphene_rect_t), self->marks->len);
  int width = gtk_widget_get_width (GTK_WIDGET (self->marks_area));
  double end = -G_MAXDOUBLE;
  int last = -1;

  g_array_set_size (flags, self->marks->len);
  for (guint i = 0; i < self->marks->len; i++)
    {
      const Mark *mark = &g_array_index (self->marks, Mark, i);
      graphene_rect_t *flag = &g_array_index (flags, graphene_rect_t, i);
      g_autoptr(PangoLayout) layout = NULL;
      int lw, lh;
      double x;

      if (!axis_to_x (self, mark->time_us, &x) || x < 0 || x > width)
        continue;
      layout = gtk_widget_create_pango_layout (GTK_WIDGET (self->marks_area),
                                               mark_label (mark->kind));
      pango_layout_get_pixel_size (layout, &lw, &lh);
      graphene_rect_init (flag, MAX (floor (x) + 1, end + 1), 0, lw + 6, lh + 2);
      end = flag->origin.x + flag->size.width;
      last = (int) i;
    }

  /* back from the end of the row */
  end = width;
  for (int i = last; i >= 0; i--)
    {
      graphene_rect_t *flag = &g_array_index (flags, graphene_rect_t, i);

      if (flag->size.width == 0)
        continue;
      if (flag->origin.x + flag->size.width > end)
        flag->origin.x = MAX (end - flag->size.width, 0);
      end = flag->origin.x - 1;
    }

  return flags;
}

static void
draw_marks (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        user_data)
{
  BlRecordingView *self = user_data;
  g_autoptr(GArray) flags = layout_flags (self);

  /* the lines, then the flags over them */
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < self->marks->len; i++)
      {
        const Mark *mark = &g_array_index (self->marks, Mark, i);
        const graphene_rect_t *flag = &g_array_index (flags, graphene_rect_t, i);
        g_autoptr(PangoLayout) layout = NULL;
        GdkRGBA color;
        double x;

        if (flag->size.width == 0 || !axis_to_x (self, mark->time_us, &x))
          continue;

        mark_color (mark->kind, &color);
        gdk_cairo_set_source_rgba (cr, &color);
        if (pass == 0)
          {
            cairo_set_line_width (cr, 1.5);
            cairo_move_to (cr, floor (x) + 0.5, 0);
            cairo_line_to (cr, floor (x) + 0.5, height);
            cairo_stroke (cr);
            continue;
          }
        layout = gtk_widget_create_pango_layout (GTK_WIDGET (area), mark_label (mark->kind));
        cairo_rectangle (cr, flag->origin.x, flag->origin.y, flag->size.width,
                         flag->size.height);
        cairo_fill (cr);
        cairo_set_source_rgb (cr, 1, 1, 1);
        cairo_move_to (cr, flag->origin.x + 3, flag->origin.y + 1);
        pango_cairo_show_layout (cr, layout);
      }
}

/* The marks' row above the charts holds the flags: shown while recording
 * (a mark may come) and when there are marks, as tall as a flag. */
static void
update_marks_row (BlRecordingView *self)
{
  g_autoptr(PangoLayout) layout = NULL;
  int height;

  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self->marks_area), "Ag");
  pango_layout_get_pixel_size (layout, NULL, &height);
  gtk_widget_set_size_request (self->marks_row, -1, height + 4);
  gtk_widget_set_visible (self->marks_row,
                          self->marks->len > 0
                          || self->state == BL_RECORDING_VIEW_RECORDING
                          || self->state == BL_RECORDING_VIEW_STOPPING);
}

static void
add_mark (BlRecordingView     *self,
          BlRecordingMarkKind  kind,
          gint64               time_us,
          const char          *text)
{
  Mark mark = { time_us, kind, g_strdup (text != NULL ? text : "") };

  g_array_append_val (self->marks, mark);
  update_marks_row (self);
  /* a mark made now: the axis reaches it before the next tick */
  if (self->state == BL_RECORDING_VIEW_RECORDING || self->state == BL_RECORDING_VIEW_STOPPING)
    {
      self->extent_us = MAX (self->extent_us,
                             bl_recording_writer_monotonic_to_axis (self->writer,
                                                                    g_get_monotonic_time ()));
      self->extent_us = MAX (self->extent_us, time_us);
      apply_axis (self);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self->marks_area));
}

/* ------------------------------------------------------------------------ */
/* the header                                                                */

static void
show_banner (BlRecordingView *self,
             const char      *text)
{
  gtk_label_set_text (self->banner_label, text);
  gtk_revealer_set_reveal_child (self->banner, text != NULL && text[0] != '\0');
}

static const char *
state_text (BlRecordingView *self)
{
  switch (self->state)
    {
    case BL_RECORDING_VIEW_RECORDING:
      return self->paused ? _("Recording, profiler paused") : _("Recording");
    case BL_RECORDING_VIEW_STOPPING:
      return _("Stopping…");
    case BL_RECORDING_VIEW_SAVED:
      return self->device_lost ? _("Saved, the device went away") : _("Saved");
    case BL_RECORDING_VIEW_FAILED:
    default:
      return _("Failed");
    }
}

static void
update_header (BlRecordingView *self)
{
  g_autoptr(GString) text = g_string_new (state_text (self));
  guint seconds = (guint) (self->extent_us / G_USEC_PER_SEC);

  if (self->state == BL_RECORDING_VIEW_RECORDING && self->n_ticks == 0)
    seconds = 0;
  g_string_append_printf (text, " · %u:%02u", seconds / 60, seconds % 60);

  if (self->state == BL_RECORDING_VIEW_RECORDING || self->state == BL_RECORDING_VIEW_STOPPING)
    {
      if (self->profile_stream != NULL)
        {
          g_autofree char *bytes =
            bl_format_bytes (bl_profile_stream_get_bytes_written (self->profile_stream));

          g_string_append (text, " · ");
          /* Translators: bytes received, "Profile 1.2 MB" */
          g_string_append_printf (text, _("Profile %s"), bytes);
        }
      if (self->trace_stream != NULL)
        {
          g_autofree char *bytes =
            bl_format_bytes (bl_trace_stream_get_bytes_written (self->trace_stream));

          g_string_append (text, " · ");
          /* Translators: bytes received, "Trace 300 kB" */
          g_string_append_printf (text, _("Trace %s"), bytes);
        }
      if (self->poller != NULL)
        {
          guint n = bl_resource_poller_get_n_polls (self->poller);

          g_string_append (text, " · ");
          g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u poll", "%u polls", n), n);
        }
    }

  gtk_label_set_text (self->title_label, self->title != NULL ? self->title : "");
  gtk_label_set_text (self->status_label, text->str);

  gtk_widget_set_visible (self->buttons, self->state == BL_RECORDING_VIEW_RECORDING
                                         || self->state == BL_RECORDING_VIEW_STOPPING);
  gtk_widget_set_sensitive (self->buttons, self->state == BL_RECORDING_VIEW_RECORDING);
  gtk_widget_set_visible (GTK_WIDGET (self->pause_button), self->profile_stream != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->status_button), self->profile_stream != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->heap_button), self->trace_stream != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->pause_button), !self->command_busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->status_button), !self->command_busy);
  gtk_button_set_label (self->pause_button, self->paused ? _("_Resume") : _("_Pause"));
}

/* ------------------------------------------------------------------------ */
/* what is shown                                                             */

static void
show_session (BlRecordingView *self,
              BlSession       *session)
{
  g_set_object (&self->session, session);
  self->syncing = TRUE;
  bl_timeline_set_session (self->timeline, session);
  self->syncing = FALSE;
  gtk_widget_set_visible (self->timeline_scroller, session != NULL);
}

static void
show_trace (BlRecordingView *self,
            BlProfile       *trace,
            gint64           offset_us)
{
  self->trace_offset_us = offset_us;
  g_set_object (&self->trace, trace);
  /* the extent is set again by apply_axis(), for this trace's clock */
  self->syncing = TRUE;
  bl_trace_timeline_set_extent (self->trace_timeline, 0, 0);
  bl_trace_timeline_set_profile (self->trace_timeline, trace);
  self->syncing = FALSE;
  gtk_widget_set_visible (self->trace_scroller,
                          trace != NULL
                          && bl_trace_timeline_get_n_lanes (self->trace_timeline) > 0);
  trace_adjustment_set (self);
}

static void
show_profile (BlRecordingView *self,
              BlProfile       *profile,
              const char      *why_not)
{
  g_set_object (&self->profile, profile);
  bl_flame_graph_set_profile (self->flame_graph, profile);
  if (profile != NULL && bl_profile_get_n_threads (profile) > 0)
    gtk_stack_set_visible_child_name (self->profile_stack, "profile");
  else
    {
      gtk_label_set_text (self->profile_empty_label, why_not);
      gtk_stack_set_visible_child_name (self->profile_stack, "empty");
    }
}

/* ------------------------------------------------------------------------ */
/* workers                                                                   */

static void
snapshot_worker (GTask        *task,
                 gpointer      source,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  BlRecordingView *self = source;
  g_autoptr(GError) error = NULL;
  BlProfile *profile;

  if (!bl_bsprof_follower_feed_file (self->follower, self->files[BL_RECORDING_STREAM_PROFILE],
                                     cancellable, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  profile = bl_bsprof_follower_snapshot (self->follower);
  if (profile == NULL)
    g_task_return_pointer (task, NULL, NULL);
  else
    g_task_return_pointer (task, profile, g_object_unref);
}

static void
snapshot_done (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  BlRecordingView *self = BL_RECORDING_VIEW (source);
  g_autoptr(BlProfile) profile = NULL;
  g_autoptr(GError) error = NULL;

  self->snapshot_busy = FALSE;
  profile = g_task_propagate_pointer (G_TASK (result), &error);
  if (self->disposed || self->state == BL_RECORDING_VIEW_SAVED)
    return;
  if (error != NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_profile (self, NULL, error->message);
      return;
    }
  if (profile != NULL)
    show_profile (self, profile, NULL);
}

static void
start_snapshot (BlRecordingView *self)
{
  g_autoptr(GTask) task = NULL;

  if (self->snapshot_busy || self->follower == NULL)
    return;
  if (bl_profile_stream_get_bytes_written (self->profile_stream)
      == bl_bsprof_follower_get_n_bytes (self->follower))
    return;

  self->snapshot_busy = TRUE;
  task = g_task_new (self, self->cancellable, snapshot_done, NULL);
  g_task_set_source_tag (task, start_snapshot);
  g_task_run_in_thread (task, snapshot_worker);
}

static void
trace_loaded (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(BlRecordingView) self = user_data;
  g_autoptr(GObject) document = NULL;
  g_autoptr(GError) error = NULL;
  gint64 offset_us, first_us;

  self->trace_busy = FALSE;
  document = bl_loader_load_finish (BL_LOADER (source), result, &error);
  if (self->disposed || self->state == BL_RECORDING_VIEW_SAVED || !BL_IS_PROFILE (document))
    return;

  first_us = bl_trace_stream_get_first_byte_time (self->trace_stream);
  first_us = bl_recording_writer_monotonic_to_axis (self->writer, first_us);
  if (!bl_recording_compute_offset (BL_RECORDING_STREAM_TRACE, self->start_unix_us, first_us,
                                    document, &offset_us))
    return;

  show_trace (self, BL_PROFILE (document), offset_us);
  apply_axis (self);
}

static void
start_trace_load (BlRecordingView *self)
{
  g_autoptr(BlLoader) loader = NULL;
  guint64 bytes;

  if (self->trace_busy || self->trace_stream == NULL)
    return;
  bytes = bl_trace_stream_get_bytes_written (self->trace_stream);
  if (bytes == self->trace_bytes_loaded
      || bl_trace_stream_get_first_byte_time (self->trace_stream) == 0)
    return;

  self->trace_busy = TRUE;
  self->trace_bytes_loaded = bytes;
  loader = bl_loader_new (self->files[BL_RECORDING_STREAM_TRACE]);
  bl_loader_load_async (loader, self->cancellable, trace_loaded, g_object_ref (self));
}

/* ------------------------------------------------------------------------ */
/* recording                                                                 */

static void
note_started (BlRecordingView   *self,
              BlRecordingStream  stream,
              gint64             monotonic_us)
{
  g_autoptr(GError) error = NULL;

  if (self->started[stream] || monotonic_us == 0)
    return;
  self->started[stream] = TRUE;
  if (!bl_recording_writer_stream_started (self->writer, stream, monotonic_us, &error))
    g_warning ("%s", error->message);
}

static gboolean
tick (gpointer user_data)
{
  BlRecordingView *self = user_data;

  self->n_ticks++;
  self->extent_us = bl_recording_writer_monotonic_to_axis (self->writer, g_get_monotonic_time ());

  if (self->profile_stream != NULL)
    {
      note_started (self, BL_RECORDING_STREAM_PROFILE,
                    bl_profile_stream_get_first_byte_time (self->profile_stream));
      start_snapshot (self);
    }
  if (self->trace_stream != NULL)
    {
      note_started (self, BL_RECORDING_STREAM_TRACE,
                    bl_trace_stream_get_first_byte_time (self->trace_stream));
      if (self->n_ticks % TRACE_EVERY == 0)
        start_trace_load (self);
    }

  apply_axis (self);
  update_header (self);

  return G_SOURCE_CONTINUE;
}

static void
polled_cb (BlRecordingView  *self,
           BlResourcePoller *poller)
{
  g_autoptr(BlSession) session = bl_resource_poller_dup_session (poller);

  if (self->disposed || self->state == BL_RECORDING_VIEW_SAVED)
    return;
  note_started (self, BL_RECORDING_STREAM_SESSION, bl_resource_poller_get_first_poll_time (poller));
  if (session != NULL)
    {
      show_session (self, session);
      apply_axis (self);
    }
  update_header (self);
}

static void
stop_streams (BlRecordingView *self)
{
  if (self->profile_stream != NULL)
    bl_profile_stream_stop (self->profile_stream);
  if (self->poller != NULL)
    bl_resource_poller_stop (self->poller);
  if (self->trace_stream != NULL)
    bl_trace_stream_stop (self->trace_stream);
}

static gboolean
stop_after_loss (gpointer user_data)
{
  BlRecordingView *self = user_data;

  self->lost_id = 0;
  stop_streams (self);

  return G_SOURCE_REMOVE;
}

static void
recording_loaded (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  BlRecordingView *self = BL_RECORDING_VIEW (source);
  g_autoptr(BlRecording) recording = NULL;
  g_autoptr(GError) error = NULL;

  recording = g_task_propagate_pointer (G_TASK (result), &error);
  if (self->disposed)
    return;
  if (recording == NULL)
    {
      show_banner (self, error->message);
      set_state (self, BL_RECORDING_VIEW_FAILED);
      update_header (self);
      return;
    }
  bl_recording_view_set_recording (self, recording);
}

static void
load_worker (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;
  BlRecording *recording = bl_recording_load (task_data, cancellable, &error);

  if (recording == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, recording, g_object_unref);
}

/* Every stream ended: the manifest's last rewrite, then the saved recording. */
static void
finish (BlRecordingView *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GTask) task = NULL;

  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_clear_handle_id (&self->lost_id, g_source_remove);
  if (self->profile_stream != NULL)
    note_started (self, BL_RECORDING_STREAM_PROFILE,
                  bl_profile_stream_get_first_byte_time (self->profile_stream));
  if (self->trace_stream != NULL)
    note_started (self, BL_RECORDING_STREAM_TRACE,
                  bl_trace_stream_get_first_byte_time (self->trace_stream));
  if (!bl_recording_writer_finish (self->writer,
                                   self->device_lost ? BL_RECORDING_END_DEVICE_LOST
                                                     : BL_RECORDING_END_STOPPED,
                                   self->lost_message, &error))
    g_warning ("%s", error->message);

  if (self->disposed)
    return;

  self->extent_us = bl_recording_writer_monotonic_to_axis (self->writer, g_get_monotonic_time ());
  update_header (self);
  task = g_task_new (self, NULL, recording_loaded, NULL);
  g_task_set_source_tag (task, finish);
  g_task_set_task_data (task, g_object_ref (self->folder), g_object_unref);
  g_task_run_in_thread (task, load_worker);
}

static void
stream_ended (BlRecordingView   *self,
              BlRecordingStream  stream,
              GError            *error)
{
  g_assert (self->running > 0);
  self->running--;

  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      if (g_error_matches (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_DISCONNECTED)
          || g_error_matches (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_UNREACHABLE))
        {
          /* the other streams may still be saving what was on its way:
           * they end by themselves, or after a grace */
          if (!self->device_lost)
            {
              self->device_lost = TRUE;
              self->lost_message = g_strdup (error->message);
              if (self->running > 0)
                self->lost_id = g_timeout_add_seconds (LOST_GRACE_S, stop_after_loss, self);
            }
          if (self->state == BL_RECORDING_VIEW_RECORDING)
            set_state (self, BL_RECORDING_VIEW_STOPPING);
        }
      else
        {
          bl_recording_writer_set_stream (self->writer, stream, FALSE, error->message);
          if (self->notes->len > 0)
            g_string_append_c (self->notes, '\n');
          g_string_append (self->notes, error->message);
        }
    }

  if (!self->disposed)
    {
      if (self->device_lost)
        {
          g_autofree char *text =
            g_strdup_printf (_("%s The recording holds what arrived until then."),
                             self->lost_message);

          show_banner (self, text);
        }
      else
        show_banner (self, self->notes->str);
      update_header (self);
    }

  if (self->running == 0)
    finish (self);
}

/* A stream's run ended (stopped, lost, failed): the profiler's stream,
 * the resource poller or the trace's stream. */
static void
stream_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(BlRecordingView) self = user_data;
  g_autoptr(GError) error = NULL;
  BlRecordingStream stream;

  if (BL_IS_PROFILE_STREAM (source))
    {
      stream = BL_RECORDING_STREAM_PROFILE;
      bl_profile_stream_run_finish (BL_PROFILE_STREAM (source), result, &error);
    }
  else if (BL_IS_RESOURCE_POLLER (source))
    {
      stream = BL_RECORDING_STREAM_SESSION;
      bl_resource_poller_run_finish (BL_RESOURCE_POLLER (source), result, &error);
    }
  else
    {
      stream = BL_RECORDING_STREAM_TRACE;
      bl_trace_stream_run_finish (BL_TRACE_STREAM (source), result, &error);
    }
  stream_ended (self, stream, error);
}

/* ------------------------------------------------------------------------ */
/* buttons                                                                   */

static void
command_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(BlRecordingView) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = NULL;
  guint n = bl_profile_stream_get_n_marks (BL_PROFILE_STREAM (source));
  BlProfileCommand command = BL_PROFILE_COMMAND_STATUS;
  BlRecordingMarkKind kind;
  gint64 time_us = 0;

  self->command_busy = FALSE;
  reply = bl_profile_stream_command_finish (BL_PROFILE_STREAM (source), result, &error);
  if (self->disposed)
    return;
  if (reply == NULL)
    {
      show_banner (self, error->message);
      update_header (self);
      return;
    }

  /* the stream notes when the command was sent (Unix time) */
  if (n > 0)
    bl_profile_stream_get_mark (BL_PROFILE_STREAM (source), n - 1, &time_us, &command, NULL);
  else
    time_us = g_get_real_time ();
  kind = command == BL_PROFILE_COMMAND_PAUSE ? BL_RECORDING_MARK_PAUSE
         : command == BL_PROFILE_COMMAND_RESUME ? BL_RECORDING_MARK_RESUME
         : BL_RECORDING_MARK_STATUS;
  time_us = bl_recording_writer_real_to_axis (self->writer, time_us);
  if (kind == BL_RECORDING_MARK_PAUSE)
    self->paused = TRUE;
  else if (kind == BL_RECORDING_MARK_RESUME)
    self->paused = FALSE;

  add_mark (self, kind, time_us, reply);
  if (!bl_recording_writer_add_mark (self->writer, kind, time_us, reply, &error))
    show_banner (self, error->message);
  update_header (self);
}

static void
send_command (BlRecordingView  *self,
              BlProfileCommand  command)
{
  if (self->profile_stream == NULL || self->command_busy
      || self->state != BL_RECORDING_VIEW_RECORDING)
    return;

  self->command_busy = TRUE;
  bl_profile_stream_command_async (self->profile_stream, command, NULL, command_done,
                                   g_object_ref (self));
  update_header (self);
}

static void
heap_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(BlRecordingView) self = user_data;
  g_autoptr(GError) error = NULL;
  gint64 time_us;

  if (!bl_trace_stream_heap_graph_finish (BL_TRACE_STREAM (source), result, &error))
    {
      if (!self->disposed)
        show_banner (self, error->message);
      return;
    }

  time_us = bl_recording_writer_monotonic_to_axis (self->writer, g_get_monotonic_time ());
  if (!self->disposed)
    add_mark (self, BL_RECORDING_MARK_HEAP_GRAPH, time_us, NULL);
  if (!bl_recording_writer_add_mark (self->writer, BL_RECORDING_MARK_HEAP_GRAPH, time_us, NULL,
                                     &error)
      && !self->disposed)
    show_banner (self, error->message);
}

static void
pause_clicked_cb (BlRecordingView *self)
{
  bl_recording_view_pause (self, !self->paused);
}

static void
status_clicked_cb (BlRecordingView *self)
{
  bl_recording_view_ask_status (self);
}

static void
heap_clicked_cb (BlRecordingView *self)
{
  bl_recording_view_capture_heap_graph (self);
}

static void
stop_clicked_cb (BlRecordingView *self)
{
  bl_recording_view_stop (self);
}

/* ------------------------------------------------------------------------ */

static void
bl_recording_view_dispose (GObject *object)
{
  BlRecordingView *self = BL_RECORDING_VIEW (object);

  self->disposed = TRUE;
  g_clear_handle_id (&self->align_id, g_source_remove);
  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_clear_handle_id (&self->lost_id, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  /* streams still running end cleanly; their callbacks hold a reference */
  if (self->running > 0)
    stop_streams (self);

  g_clear_object (&self->session);
  g_clear_object (&self->trace);
  g_clear_object (&self->profile);
  g_clear_object (&self->recording);

  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_RECORDING_VIEW);
  {
    GtkWidget *child;

    while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
      gtk_widget_unparent (child);
  }

  G_OBJECT_CLASS (bl_recording_view_parent_class)->dispose (object);
}

static void
bl_recording_view_finalize (GObject *object)
{
  BlRecordingView *self = BL_RECORDING_VIEW (object);

  g_clear_object (&self->device);
  g_clear_object (&self->writer);
  g_clear_object (&self->profile_stream);
  g_clear_object (&self->poller);
  g_clear_object (&self->trace_stream);
  g_clear_object (&self->follower);
  for (guint i = 0; i < BL_RECORDING_N_STREAMS; i++)
    g_clear_object (&self->files[i]);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->folder);
  g_clear_pointer (&self->marks, g_array_unref);
  g_string_free (self->notes, TRUE);
  g_free (self->lost_message);
  g_free (self->title);

  G_OBJECT_CLASS (bl_recording_view_parent_class)->finalize (object);
}

static void
bl_recording_view_class_init (BlRecordingViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_recording_view_dispose;
  object_class->finalize = bl_recording_view_finalize;

  /**
   * BlRecordingView::state-changed:
   *
   * Recording, stopping, saved or failed (bl_recording_view_get_state()).
   */
  signals[STATE_CHANGED] = g_signal_new ("state-changed", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 0);

  g_type_ensure (BL_TYPE_TIMELINE);
  g_type_ensure (BL_TYPE_TRACE_TIMELINE);
  g_type_ensure (BL_TYPE_FLAME_GRAPH);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE_PATH "/ui/bl-recording-view.ui");
  gtk_widget_class_bind_template_child (widget_class, BlRecordingView, title_label);
  gtk_widget_class_bind_template_child (widget_class, BlRecordingView, status_label);
  gtk_widget_class_bind_template_child (widget_class, BlRecordingView, buttons);
  gtk_widget_class_bind_template_child (widget_class, BlRecordingView, pause_button);
  gtk_widget_class_bind_template_child (widget_class, BlRecordingView, status_button);
  gtk_widget_class_bind_template_child (widget_class, BlRecordingView, heap_button);
  gtk_widget_class_bind_template_child (widget_class, BlRecordingView, stop_button);
  gtk_widget_class_bind_template_child (widget_class, BlRecordingView, banner);
  gtk_widget_class_bind_template_child (widget_class, BlRecordingView, banner_label);
  gtk_widget_class_bind_template_child (widget_class, BlRecordingView, timeline_scroller);
  gtk_widget_class_bind_template_child (widget_class, BlRecordingView, timeline);
  gtk_widget_class_bind_template_child (widget_class, BlRecordingView, trace_scroller);
  gtk_widget_class_bind_template_child (widget_class, BlRecordingView, trace_timeline);
  gtk_widget_class_bind_template_child (widget_class, BlRecordingView, marks_area);
  gtk_widget_class_bind_template_child (widget_class, BlRecordingView, marks_row);
  gtk_widget_class_bind_template_child (widget_class, BlRecordingView, profile_stack);
  gtk_widget_class_bind_template_child (widget_class, BlRecordingView, profile_empty_label);
  gtk_widget_class_bind_template_child (widget_class, BlRecordingView, flame_graph);
  gtk_widget_class_bind_template_callback (widget_class, pause_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, status_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, heap_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_clicked_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "blrecordingview");
}

static void
bl_recording_view_init (BlRecordingView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->state = BL_RECORDING_VIEW_FAILED;
  self->marks = g_array_new (FALSE, TRUE, sizeof (Mark));
  g_array_set_clear_func (self->marks, mark_clear);
  self->notes = g_string_new (NULL);
  self->cancellable = g_cancellable_new ();
  self->follow = TRUE;
  self->extent_us = MIN_EXTENT_US;

  gtk_drawing_area_set_draw_func (self->marks_area, draw_marks, self, NULL);
  g_signal_connect_object (self->marks_area, "resize", G_CALLBACK (marks_area_resized), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (bl_timeline_get_axis (self->timeline), "visible-changed",
                           G_CALLBACK (timeline_visible_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->trace_timeline, "notify::hadjustment",
                           G_CALLBACK (trace_adjustment_set), self, G_CONNECT_SWAPPED);
  /* the lanes line up with the charts once these have their width */
  g_signal_connect_object (self->timeline, "notify::session", G_CALLBACK (align_trace), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_set_visible (self->timeline_scroller, FALSE);
  gtk_widget_set_visible (self->trace_scroller, FALSE);
  show_profile (self, NULL, _("No BrightScript profile in this recording."));
}

/* ------------------------------------------------------------------------ */

BlRecordingView *
bl_recording_view_new (void)
{
  return g_object_new (BL_TYPE_RECORDING_VIEW, NULL);
}

/* Starts recording what @options asks into @options->folder: the manifest
 * is written first (FALSE with one sentence when it cannot be), then every
 * stream runs until bl_recording_view_stop() or the device goes away. */
gboolean
bl_recording_view_start (BlRecordingView          *self,
                         const BlRecordingOptions *options,
                         GError                  **error)
{
  BlDevice *device;

  g_return_val_if_fail (BL_IS_RECORDING_VIEW (self), FALSE);
  g_return_val_if_fail (options != NULL && BL_IS_DEVICE (options->device), FALSE);
  g_return_val_if_fail (G_IS_FILE (options->folder), FALSE);
  g_return_val_if_fail (self->writer == NULL && self->recording == NULL, FALSE);
  g_return_val_if_fail (options->profile || options->resources || options->trace, FALSE);

  device = options->device;
  self->device = g_object_ref (device);
  self->folder = g_object_ref (options->folder);
  self->writer = bl_recording_writer_new (options->folder);
  bl_recording_writer_set_device (self->writer, bl_device_get_display_name (device),
                                  bl_device_get_model (device),
                                  bl_device_get_software_version (device),
                                  bl_device_get_serial (device));
  bl_recording_writer_set_app (self->writer, bl_device_get_app_id (device),
                               bl_device_get_app_name (device),
                               bl_device_get_app_version (device));
  bl_recording_writer_set_stream (self->writer, BL_RECORDING_STREAM_PROFILE, options->profile,
                                  options->profile ? NULL : _("Not chosen in the Record dialog."));
  bl_recording_writer_set_stream (self->writer, BL_RECORDING_STREAM_SESSION, options->resources,
                                  options->resources ? NULL
                                                     : _("Not chosen in the Record dialog."));
  bl_recording_writer_set_stream (self->writer, BL_RECORDING_STREAM_TRACE, options->trace,
                                  options->trace ? NULL : _("Not chosen in the Record dialog."));
  for (guint i = 0; i < BL_RECORDING_N_STREAMS; i++)
    self->files[i] = bl_recording_writer_dup_stream_file (self->writer, i);

  if (!bl_recording_writer_start (self->writer, error))
    {
      set_state (self, BL_RECORDING_VIEW_FAILED);
      return FALSE;
    }
  self->start_unix_us = bl_recording_writer_get_start_unix_us (self->writer);
  self->extent_us = MIN_EXTENT_US;

  g_free (self->title);
  /* Translators: a recording's heading: the app, then the device it runs on */
  self->title = g_strdup_printf (_("%s on %s"),
                                 bl_device_get_app_name (device) != NULL
                                   ? bl_device_get_app_name (device) : _("App"),
                                 bl_device_get_display_name (device));

  if (options->profile)
    {
      self->profile_stream = bl_profile_stream_new (device, options->profiler_port,
                                                    options->console_port,
                                                    self->files[BL_RECORDING_STREAM_PROFILE]);
      self->follower = bl_bsprof_follower_new ();
      self->running++;
      bl_profile_stream_run_async (self->profile_stream, NULL, stream_done, g_object_ref (self));
      show_profile (self, NULL, _("Waiting for the profiler’s first bytes…"));
    }
  if (options->resources)
    {
      self->poller = bl_resource_poller_new (device, self->files[BL_RECORDING_STREAM_SESSION]);
      bl_resource_poller_set_interval (self->poller, MAX (options->interval_ms, 1));
      g_signal_connect_object (self->poller, "polled", G_CALLBACK (polled_cb), self,
                               G_CONNECT_SWAPPED);
      self->running++;
      bl_resource_poller_run_async (self->poller, NULL, stream_done, g_object_ref (self));
    }
  if (options->trace)
    {
      self->trace_stream = bl_trace_stream_new (device, bl_device_get_app_id (device),
                                                self->files[BL_RECORDING_STREAM_TRACE]);
      self->running++;
      bl_trace_stream_run_async (self->trace_stream, NULL, stream_done, g_object_ref (self));
    }

  self->tick_id = g_timeout_add (TICK_MS, tick, self);
  set_state (self, BL_RECORDING_VIEW_RECORDING);
  apply_axis (self);
  update_header (self);

  return TRUE;
}

/* Shows the saved @recording (what bl_recording_load() made). */
void
bl_recording_view_set_recording (BlRecordingView *self,
                                 BlRecording     *recording)
{
  const BlRecordingInfo *info;
  const BlRecordingMark *marks;
  g_autoptr(GString) notes = g_string_new (NULL);
  const char *profile_error;
  guint n_marks;
  gint64 offset_us = 0;

  g_return_if_fail (BL_IS_RECORDING_VIEW (self));
  g_return_if_fail (BL_IS_RECORDING (recording));

  g_set_object (&self->recording, recording);
  info = bl_recording_get_info (recording);
  if (bl_recording_get_folder (recording) != NULL)
    g_set_object (&self->folder, bl_recording_get_folder (recording));

  g_free (self->title);
  /* Translators: a recording's heading: the app, then the device it runs on */
  self->title = g_strdup_printf (_("%s on %s"),
                                 info->app_name != NULL ? info->app_name : _("App"),
                                 info->device_name != NULL ? info->device_name
                                                           : _("a Roku device"));
  self->start_unix_us = info->start_unix_us;
  if (info->duration_us > 0 || self->writer == NULL)
    self->extent_us = info->duration_us;
  self->device_lost = info->end == BL_RECORDING_END_DEVICE_LOST;
  self->follow = TRUE;

  g_array_set_size (self->marks, 0);
  update_marks_row (self);
  marks = bl_recording_get_marks (recording, &n_marks);
  for (guint i = 0; i < n_marks; i++)
    add_mark (self, marks[i].kind, marks[i].time_us, marks[i].text);

  show_session (self, bl_recording_get_session (recording));
  if (bl_recording_get_trace (recording) != NULL
      && bl_recording_get_stream_offset (recording, BL_RECORDING_STREAM_TRACE, &offset_us))
    show_trace (self, bl_recording_get_trace (recording), offset_us);
  else
    show_trace (self, NULL, 0);
  profile_error = bl_recording_get_stream_error (recording, BL_RECORDING_STREAM_PROFILE);
  show_profile (self, bl_recording_get_profile (recording),
                profile_error != NULL ? profile_error
                                      : _("No BrightScript profile in this recording."));

  if (self->device_lost)
    {
      g_string_append (notes, info->end_message != NULL ? info->end_message
                                                        : _("The device went away."));
      g_string_append_c (notes, ' ');
      g_string_append (notes, _("The recording holds what arrived until then."));
    }
  for (guint i = 0; i < BL_RECORDING_N_STREAMS; i++)
    {
      const char *why = bl_recording_get_stream_error (recording, i);

      if (why == NULL || !bl_recording_has_stream (recording, i))
        continue;
      if (notes->len > 0)
        g_string_append_c (notes, '\n');
      g_string_append (notes, why);
    }
  show_banner (self, notes->str);

  set_state (self, BL_RECORDING_VIEW_SAVED);
  apply_axis (self);
  update_header (self);
}

/**
 * bl_recording_view_get_recording:
 *
 * Returns: (transfer none) (nullable): the saved recording shown
 */
BlRecording *
bl_recording_view_get_recording (BlRecordingView *self)
{
  g_return_val_if_fail (BL_IS_RECORDING_VIEW (self), NULL);

  return self->recording;
}

BlRecordingViewState
bl_recording_view_get_state (BlRecordingView *self)
{
  g_return_val_if_fail (BL_IS_RECORDING_VIEW (self), BL_RECORDING_VIEW_FAILED);

  return self->state;
}

/* Whether streams still run (recording or stopping). */
gboolean
bl_recording_view_is_recording (BlRecordingView *self)
{
  g_return_val_if_fail (BL_IS_RECORDING_VIEW (self), FALSE);

  return self->running > 0;
}

const char *
bl_recording_view_get_title (BlRecordingView *self)
{
  g_return_val_if_fail (BL_IS_RECORDING_VIEW (self), NULL);

  return self->title;
}

GFile *
bl_recording_view_get_folder (BlRecordingView *self)
{
  g_return_val_if_fail (BL_IS_RECORDING_VIEW (self), NULL);

  return self->folder;
}

/* Stops every stream; "state-changed" says when the saved recording shows. */
void
bl_recording_view_stop (BlRecordingView *self)
{
  g_return_if_fail (BL_IS_RECORDING_VIEW (self));

  if (self->state != BL_RECORDING_VIEW_RECORDING)
    return;

  set_state (self, BL_RECORDING_VIEW_STOPPING);
  stop_streams (self);
  update_header (self);
}

void
bl_recording_view_pause (BlRecordingView *self,
                         gboolean         paused)
{
  g_return_if_fail (BL_IS_RECORDING_VIEW (self));

  send_command (self, paused ? BL_PROFILE_COMMAND_PAUSE : BL_PROFILE_COMMAND_RESUME);
}

void
bl_recording_view_ask_status (BlRecordingView *self)
{
  g_return_if_fail (BL_IS_RECORDING_VIEW (self));

  send_command (self, BL_PROFILE_COMMAND_STATUS);
}

void
bl_recording_view_capture_heap_graph (BlRecordingView *self)
{
  g_return_if_fail (BL_IS_RECORDING_VIEW (self));

  if (self->trace_stream == NULL || self->state != BL_RECORDING_VIEW_RECORDING)
    return;

  bl_trace_stream_heap_graph_async (self->trace_stream, NULL, heap_done, g_object_ref (self));
}

BlTimeline *
bl_recording_view_get_timeline (BlRecordingView *self)
{
  g_return_val_if_fail (BL_IS_RECORDING_VIEW (self), NULL);

  return self->timeline;
}

BlTraceTimeline *
bl_recording_view_get_trace_timeline (BlRecordingView *self)
{
  g_return_val_if_fail (BL_IS_RECORDING_VIEW (self), NULL);

  return self->trace_timeline;
}

BlFlameGraph *
bl_recording_view_get_flame_graph (BlRecordingView *self)
{
  g_return_val_if_fail (BL_IS_RECORDING_VIEW (self), NULL);

  return self->flame_graph;
}

guint
bl_recording_view_get_n_marks (BlRecordingView *self)
{
  g_return_val_if_fail (BL_IS_RECORDING_VIEW (self), 0);

  return self->marks->len;
}

/* The @index-th mark: its kind, its time on the axis and where it is drawn
 * across the view's charts (FALSE for @x when it is not drawn). */
gboolean
bl_recording_view_get_mark (BlRecordingView     *self,
                            guint                index,
                            BlRecordingMarkKind *kind,
                            gint64              *time_us,
                            double              *x)
{
  const Mark *mark;

  g_return_val_if_fail (BL_IS_RECORDING_VIEW (self), FALSE);
  g_return_val_if_fail (index < self->marks->len, FALSE);

  mark = &g_array_index (self->marks, Mark, index);
  if (kind != NULL)
    *kind = mark->kind;
  if (time_us != NULL)
    *time_us = mark->time_us;
  if (x != NULL)
    return axis_to_x (self, mark->time_us, x);
  return TRUE;
}

/* Where the @index-th mark's flag (its name) is drawn, in the view's
 * coordinates; FALSE when it is not drawn. */
gboolean
bl_recording_view_get_mark_flag (BlRecordingView *self,
                                 guint            index,
                                 graphene_rect_t *flag)
{
  g_autoptr(GArray) flags = NULL;
  graphene_rect_t area;

  g_return_val_if_fail (BL_IS_RECORDING_VIEW (self), FALSE);
  g_return_val_if_fail (index < self->marks->len, FALSE);

  flags = layout_flags (self);
  if (g_array_index (flags, graphene_rect_t, index).size.width == 0
      || !gtk_widget_compute_bounds (GTK_WIDGET (self->marks_area), GTK_WIDGET (self), &area))
    return FALSE;
  graphene_rect_offset_r (&g_array_index (flags, graphene_rect_t, index), area.origin.x,
                          area.origin.y, flag);

  return TRUE;
}

/* The banner's text (the device went away, a stream that ended), or NULL. */
const char *
bl_recording_view_get_banner_text (BlRecordingView *self)
{
  g_return_val_if_fail (BL_IS_RECORDING_VIEW (self), NULL);

  if (!gtk_revealer_get_reveal_child (self->banner))
    return NULL;
  return gtk_label_get_text (self->banner_label);
}

/* The header's second line: state, elapsed time, bytes per stream. */
const char *
bl_recording_view_get_status_text (BlRecordingView *self)
{
  g_return_val_if_fail (BL_IS_RECORDING_VIEW (self), NULL);

  return gtk_label_get_text (self->status_label);
}

/* Bytes received so far for @stream while recording (0 when not recorded). */
guint64
bl_recording_view_get_bytes (BlRecordingView   *self,
                             BlRecordingStream  stream)
{
  g_return_val_if_fail (BL_IS_RECORDING_VIEW (self), 0);

  if (stream == BL_RECORDING_STREAM_PROFILE && self->profile_stream != NULL)
    return bl_profile_stream_get_bytes_written (self->profile_stream);
  if (stream == BL_RECORDING_STREAM_TRACE && self->trace_stream != NULL)
    return bl_trace_stream_get_bytes_written (self->trace_stream);
  return 0;
}
