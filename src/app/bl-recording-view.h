/* bl-recording-view.h — a recording from a Roku device, live or saved
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "bl-device.h"
#include "bl-flame-graph.h"
#include "bl-recording.h"
#include "bl-timeline.h"
#include "bl-trace-timeline.h"

G_BEGIN_DECLS

#define BL_TYPE_RECORDING_VIEW (bl_recording_view_get_type ())

G_DECLARE_FINAL_TYPE (BlRecordingView, bl_recording_view, BL, RECORDING_VIEW, GtkWidget)

typedef enum
{
  BL_RECORDING_VIEW_RECORDING,   /* the streams run */
  BL_RECORDING_VIEW_STOPPING,    /* asked to stop, streams ending */
  BL_RECORDING_VIEW_SAVED,       /* showing a saved recording */
  BL_RECORDING_VIEW_FAILED,      /* the recording could not start or load */
} BlRecordingViewState;

/* What to record: a device reached (device-info and active-app read) */
typedef struct
{
  BlDevice *device;
  guint     profiler_port;
  guint     console_port;
  gboolean  profile;
  gboolean  resources;
  gboolean  trace;
  guint     interval_ms;
  GFile    *folder;
} BlRecordingOptions;

BlRecordingView      *bl_recording_view_new              (void);
gboolean              bl_recording_view_start            (BlRecordingView          *self,
                                                          const BlRecordingOptions *options,
                                                          GError                  **error);
void                  bl_recording_view_set_recording    (BlRecordingView          *self,
                                                          BlRecording              *recording);
BlRecording          *bl_recording_view_get_recording    (BlRecordingView          *self);
BlRecordingViewState  bl_recording_view_get_state        (BlRecordingView          *self);
gboolean              bl_recording_view_is_recording     (BlRecordingView          *self);
const char           *bl_recording_view_get_title        (BlRecordingView          *self);
GFile                *bl_recording_view_get_folder       (BlRecordingView          *self);
void                  bl_recording_view_stop             (BlRecordingView          *self);
void                  bl_recording_view_pause            (BlRecordingView          *self,
                                                          gboolean                  paused);
void                  bl_recording_view_ask_status       (BlRecordingView          *self);
void                  bl_recording_view_capture_heap_graph (BlRecordingView        *self);

/* for tests and the window */
BlTimeline           *bl_recording_view_get_timeline     (BlRecordingView          *self);
BlTraceTimeline      *bl_recording_view_get_trace_timeline (BlRecordingView        *self);
BlFlameGraph         *bl_recording_view_get_flame_graph  (BlRecordingView          *self);
guint                 bl_recording_view_get_n_marks      (BlRecordingView          *self);
gboolean              bl_recording_view_get_mark         (BlRecordingView          *self,
                                                          guint                     index,
                                                          BlRecordingMarkKind      *kind,
                                                          gint64                   *time_us,
                                                          double                   *x);
gboolean              bl_recording_view_get_mark_flag    (BlRecordingView          *self,
                                                          guint                     index,
                                                          graphene_rect_t          *flag);
const char           *bl_recording_view_get_banner_text  (BlRecordingView          *self);
const char           *bl_recording_view_get_status_text  (BlRecordingView          *self);
guint64               bl_recording_view_get_bytes        (BlRecordingView          *self,
                                                          BlRecordingStream         stream);

G_END_DECLS
