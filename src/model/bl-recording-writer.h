/* bl-recording-writer.h — writes a recording's manifest while it records
 *
 * The CLI and the window fill in the device and the app, say which streams
 * they record, then call bl_recording_writer_start(): it creates the
 * folder if needed and writes recording.json with the state "recording".
 * Every later change (a stream's first byte, a mark, the end) rewrites the
 * whole manifest atomically (a temporary file renamed over it), so a
 * recording cut off by a crash still opens. The writer never touches the
 * stream files; see bl-recording.h for the layout and the time axis.
 *
 * Use it from one thread (the main loop's). Every call that writes returns
 * FALSE with one sentence in @error when the manifest cannot be written;
 * the writer stays usable.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-recording.h"

G_BEGIN_DECLS

#define BL_TYPE_RECORDING_WRITER (bl_recording_writer_get_type ())

G_DECLARE_FINAL_TYPE (BlRecordingWriter, bl_recording_writer, BL, RECORDING_WRITER, GObject)

/* A writer for the recording in the folder @folder. */
BlRecordingWriter *bl_recording_writer_new         (GFile              *folder);
GFile             *bl_recording_writer_get_folder  (BlRecordingWriter  *self);
/* The file of @stream in the folder, for the capture streams to write to.
 * (transfer full) */
GFile             *bl_recording_writer_dup_stream_file (BlRecordingWriter *self,
                                                    BlRecordingStream   stream);

/* Before start: what is recorded from where (NULL: unknown). */
void               bl_recording_writer_set_device  (BlRecordingWriter  *self,
                                                    const char         *name,
                                                    const char         *model,
                                                    const char         *os_version,
                                                    const char         *serial);
void               bl_recording_writer_set_app     (BlRecordingWriter  *self,
                                                    const char         *id,
                                                    const char         *name,
                                                    const char         *version);
/* Lists @stream as recorded (before start), or, with @recorded FALSE and a
 * @reason (any time), as left out: "the device does not offer it". */
void               bl_recording_writer_set_stream  (BlRecordingWriter  *self,
                                                    BlRecordingStream   stream,
                                                    gboolean            recorded,
                                                    const char         *reason);

/* Notes the start (now, the host's UTC and monotonic clocks), creates the
 * folder and writes the manifest in the state "recording". */
gboolean           bl_recording_writer_start       (BlRecordingWriter  *self,
                                                    GError            **error);
/* The start as Unix time in µs (0 before start). */
gint64             bl_recording_writer_get_start_unix_us (BlRecordingWriter *self);
/* A g_get_monotonic_time() value on the recording's axis. */
gint64             bl_recording_writer_monotonic_to_axis (BlRecordingWriter *self,
                                                    gint64              monotonic_us);
/* A g_get_real_time() value on the recording's axis. */
gint64             bl_recording_writer_real_to_axis (BlRecordingWriter *self,
                                                    gint64              real_us);

/* @stream's first byte (the session: its first poll) arrived at
 * @monotonic_us (g_get_monotonic_time()); only the first call counts. */
gboolean           bl_recording_writer_stream_started (BlRecordingWriter *self,
                                                    BlRecordingStream   stream,
                                                    gint64              monotonic_us,
                                                    GError            **error);
/* Adds a mark at @time_us on the axis with the device's reply @text (may
 * be NULL) and rewrites the manifest. */
gboolean           bl_recording_writer_add_mark    (BlRecordingWriter  *self,
                                                    BlRecordingMarkKind kind,
                                                    gint64              time_us,
                                                    const char         *text,
                                                    GError            **error);
/* Ends the recording (@end is not BL_RECORDING_END_RECORDING) with an
 * optional @message (for device-lost: the sentence the user saw), notes
 * the duration and rewrites the manifest for the last time. */
gboolean           bl_recording_writer_finish      (BlRecordingWriter  *self,
                                                    BlRecordingEnd      end,
                                                    const char         *message,
                                                    GError            **error);

/* The manifest as it would be written now (tests). (transfer full) */
char              *bl_recording_writer_dup_manifest (BlRecordingWriter *self);

G_END_DECLS
