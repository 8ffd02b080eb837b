/* bl-profile-stream.h — the BrightScript profiler's network stream, saved
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-device.h"

G_BEGIN_DECLS

/* The profiler's network-mode URL path on BL_DEVICE_PROFILER_PORT */
#define BL_PROFILE_STREAM_PATH "/bsprof/channel.bsprof"

typedef enum
{
  BL_PROFILE_COMMAND_PAUSE,   /* bsprof-pause */
  BL_PROFILE_COMMAND_RESUME,  /* bsprof-resume */
  BL_PROFILE_COMMAND_STATUS,  /* bsprof-status */
} BlProfileCommand;

#define BL_TYPE_PROFILE_STREAM (bl_profile_stream_get_type ())

G_DECLARE_FINAL_TYPE (BlProfileStream, bl_profile_stream, BL, PROFILE_STREAM, GObject)

BlProfileStream *bl_profile_stream_new          (BlDevice             *device,
                                                 guint                 profiler_port,
                                                 guint                 console_port,
                                                 GFile                *output);
GFile           *bl_profile_stream_get_output   (BlProfileStream      *self);
guint64          bl_profile_stream_get_bytes_written (BlProfileStream *self);
/* When the stream's first byte arrived (g_get_monotonic_time()), or 0. */
gint64           bl_profile_stream_get_first_byte_time (BlProfileStream *self);

void             bl_profile_stream_run_async    (BlProfileStream      *self,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
gboolean         bl_profile_stream_run_finish   (BlProfileStream      *self,
                                                 GAsyncResult         *result,
                                                 GError              **error);
void             bl_profile_stream_stop         (BlProfileStream      *self);

const char      *bl_profile_command_get_name    (BlProfileCommand      command);
void             bl_profile_stream_command_async (BlProfileStream     *self,
                                                  BlProfileCommand     command,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
char            *bl_profile_stream_command_finish (BlProfileStream    *self,
                                                   GAsyncResult       *result,
                                                   GError            **error);
guint            bl_profile_stream_get_n_marks  (BlProfileStream      *self);
void             bl_profile_stream_get_mark     (BlProfileStream      *self,
                                                 guint                 index,
                                                 gint64               *time_us,
                                                 BlProfileCommand     *command,
                                                 const char          **reply);

G_END_DECLS
