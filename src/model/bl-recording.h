/* bl-recording.h — a saved recording: a folder with the three captured
 * files and a small manifest that lines them up on one time axis
 *
 * A recording is a folder holding, each optional:
 *
 *   profile.bsprof        the BrightScript profiler's stream, byte for byte
 *   session.json          the resource polls (Roku Resource Monitor session)
 *   trace.perfetto-trace  the Perfetto trace, byte for byte
 *   recording.json        the manifest (always)
 *
 * Only these fixed names inside the folder are ever opened; names in the
 * manifest are never followed. Nothing in the folder is ever written when
 * a recording is loaded.
 *
 * The time axis. Every time in a recording (marks, stream starts) is in
 * microseconds since the recording's start (start_time, the host's UTC
 * clock when the writer started), measured with the host's monotonic clock.
 * Each stream's own clock is mapped onto the axis by adding its offset
 * (bl_recording_get_stream_offset()):
 *
 *   session   its timestamps are the host's Unix time in ms (the poller
 *             stamps them): axis_us = timestamp_ms * 1000 - start_unix_us,
 *             exact.
 *   trace     its timestamps are the device's trace clock in ns: the first
 *             packet is taken to have been made when its bytes arrived,
 *             axis_us = ts_ns / 1000 + (first_byte_us - first_ts_ns / 1000).
 *   profile   a .bsprof has no per-entry times, only the device's Unix time
 *             in ms at the start and end of the run (start_ms, end_ms): the
 *             device's clock is taken to be the host's (both keep network
 *             time), axis_us = ms * 1000 - start_unix_us. first_byte_us
 *             tells where the stream's data began to arrive.
 *
 * Offsets are in microseconds of the stream's own clock: for a profile and
 * a session "own time" is Unix µs, for a trace the trace clock in µs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-profile.h"
#include "bl-session.h"

G_BEGIN_DECLS

#define BL_RECORDING_MANIFEST_NAME "recording.json"
#define BL_RECORDING_FORMAT_ID     "brightlens-recording"
#define BL_RECORDING_VERSION       1

#define BL_RECORDING_ERROR (bl_recording_error_quark ())

typedef enum
{
  BL_RECORDING_ERROR_NO_MANIFEST,   /* a folder without recording.json */
  BL_RECORDING_ERROR_SYNTAX,        /* the manifest is not JSON */
  BL_RECORDING_ERROR_NOT_RECORDING, /* JSON, but not a Brightlens recording */
  BL_RECORDING_ERROR_VERSION,       /* a newer, unknown major version */
  BL_RECORDING_ERROR_TYPE,          /* a member has the wrong type or range */
  BL_RECORDING_ERROR_TOO_BIG,       /* the manifest is larger than 1 MiB */
} BlRecordingError;

typedef enum
{
  BL_RECORDING_STREAM_PROFILE,      /* profile.bsprof */
  BL_RECORDING_STREAM_SESSION,      /* session.json */
  BL_RECORDING_STREAM_TRACE,        /* trace.perfetto-trace */
  BL_RECORDING_N_STREAMS,
} BlRecordingStream;

/* How the recording ended. RECORDING: it has not (yet): still running, or
 * cut off by a crash; the files hold what arrived. */
typedef enum
{
  BL_RECORDING_END_RECORDING,       /* "recording" */
  BL_RECORDING_END_STOPPED,         /* "stopped": the user stopped it */
  BL_RECORDING_END_DURATION,        /* "duration": the chosen time ran out */
  BL_RECORDING_END_DEVICE_LOST,     /* "device-lost", with a message */
} BlRecordingEnd;

typedef enum
{
  BL_RECORDING_MARK_PAUSE,          /* "pause": bsprof-pause */
  BL_RECORDING_MARK_RESUME,         /* "resume": bsprof-resume */
  BL_RECORDING_MARK_STATUS,         /* "status": bsprof-status */
  BL_RECORDING_MARK_HEAP_GRAPH,     /* "heap-graph": a heap graph triggered */
  BL_RECORDING_N_MARK_KINDS,
} BlRecordingMarkKind;

typedef struct
{
  gint64               time_us;     /* on the recording's axis */
  BlRecordingMarkKind  kind;
  const char          *text;        /* the device's reply, "" if none; never NULL */
} BlRecordingMark;

/* The manifest's fields. Strings are NULL where the manifest has none. */
typedef struct
{
  guint           version;          /* the manifest's format version */

  char           *device_name;
  char           *device_model;
  char           *device_os_version;
  char           *device_serial;

  char           *app_id;
  char           *app_name;
  char           *app_version;

  gint64          start_unix_us;    /* the start, Unix time in µs */
  char           *start_time;       /* the same as written, ISO 8601 UTC */
  gint64          duration_us;      /* as far as the last rewrite; 0 if unknown */

  BlRecordingEnd  end;
  char           *end_message;      /* for DEVICE_LOST (or any end), or NULL */
} BlRecordingInfo;

/* The fixed file name of @stream inside a recording folder. */
const char         *bl_recording_stream_get_file_name (BlRecordingStream stream);
/* The machine name of @stream in the manifest: "profile", "session", "trace". */
const char         *bl_recording_stream_get_name      (BlRecordingStream stream);
/* The manifest's names for ends and marks: "device-lost", "heap-graph", … */
const char         *bl_recording_end_get_name         (BlRecordingEnd    end);
const char         *bl_recording_mark_kind_get_name   (BlRecordingMarkKind kind);

/* The offset to add to @stream's own times (in µs, see above) to place
 * them on the axis of a recording that started at @start_unix_us, given
 * when the stream's first byte arrived (@first_byte_us on the axis, -1 if
 * unknown) and its decoded model (a BlProfile for the profile and the
 * trace, a BlSession for the session). Used by the loader and by a live
 * view while recording. Returns FALSE when there is nothing to place. */
gboolean            bl_recording_compute_offset (BlRecordingStream  stream,
                                                 gint64             start_unix_us,
                                                 gint64             first_byte_us,
                                                 GObject           *model,
                                                 gint64            *offset_us);

#define BL_TYPE_RECORDING (bl_recording_get_type ())

G_DECLARE_FINAL_TYPE (BlRecording, bl_recording, BL, RECORDING, GObject)

GQuark              bl_recording_error_quark    (void);

/* Whether @head (the first bytes of a file) looks like a recording
 * manifest: a JSON object whose "format" is BL_RECORDING_FORMAT_ID. */
gboolean            bl_recording_detect         (const guint8       *head,
                                                 gsize               len);

/* Whether @file is a recording: a folder holding recording.json, or a
 * .json file that bl_recording_detect() recognises. Reads at most the
 * first 4 KiB of @file. */
gboolean            bl_recording_is_recording   (GFile              *file,
                                                 GCancellable       *cancellable);

/* Loads the recording in the folder @file, or whose manifest @file is:
 * reads the manifest, then each stream file it lists (a missing or broken
 * file is not an error: see bl_recording_get_stream_error()). Blocks: call
 * it from a worker thread (BlLoader does). Errors are one sentence that
 * says what and where. */
BlRecording        *bl_recording_load           (GFile              *file,
                                                 GCancellable       *cancellable,
                                                 GError            **error);
/* Reads only a manifest held in memory (tests, fuzzing): no stream is
 * loaded. */
BlRecording        *bl_recording_load_manifest_memory (const guint8 *data,
                                                 gsize               len,
                                                 GError            **error);

/* The recording's folder, or NULL when loaded from memory. */
GFile              *bl_recording_get_folder     (BlRecording        *self);
const BlRecordingInfo *bl_recording_get_info    (BlRecording        *self);
/* Marks in time order. */
const BlRecordingMark *bl_recording_get_marks   (BlRecording        *self,
                                                 guint              *n_marks);
/* Warnings about the manifest (ignored members, names that were not
 * followed), one per line, or NULL. */
const char         *bl_recording_get_warning    (BlRecording        *self);

/* Whether the manifest lists @stream as recorded. */
gboolean            bl_recording_has_stream     (BlRecording        *self,
                                                 BlRecordingStream   stream);
/* Why a listed stream is not recorded or could not be loaded (one
 * sentence), or NULL when it loaded. */
const char         *bl_recording_get_stream_error (BlRecording      *self,
                                                 BlRecordingStream   stream);
/* When the stream's first byte (the session: its first poll) arrived, on
 * the axis, or -1 if unknown. */
gint64              bl_recording_get_stream_first_byte (BlRecording *self,
                                                 BlRecordingStream   stream);
/* @stream's offset (see above); FALSE if it has none. */
gboolean            bl_recording_get_stream_offset (BlRecording     *self,
                                                 BlRecordingStream   stream,
                                                 gint64             *offset_us);
/* The file of @stream inside the folder (which may not exist), or NULL
 * when loaded from memory. (transfer full) */
GFile              *bl_recording_dup_stream_file (BlRecording       *self,
                                                 BlRecordingStream   stream);

/* The loaded models, or NULL where the stream is absent or failed. */
BlProfile          *bl_recording_get_profile    (BlRecording        *self);
BlSession          *bl_recording_get_session    (BlRecording        *self);
/* The trace as the Perfetto reader makes it (bl_perfetto_get_trace()). */
BlProfile          *bl_recording_get_trace      (BlRecording        *self);

G_END_DECLS
