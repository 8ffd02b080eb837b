/* bl-bsprof-reader.h — BrightScript profiler (.bsprof) decoder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-format.h"
#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_BSPROF_ERROR (bl_bsprof_error_quark ())

typedef enum
{
  BL_BSPROF_ERROR_BAD_MAGIC,
  BL_BSPROF_ERROR_UNSUPPORTED_VERSION,
  BL_BSPROF_ERROR_BAD_HEADER,
  BL_BSPROF_ERROR_TRUNCATED_HEADER,
  BL_BSPROF_ERROR_BAD_VARINT,
  BL_BSPROF_ERROR_VALUE_RANGE,
  BL_BSPROF_ERROR_UNDEFINED_ID,
  BL_BSPROF_ERROR_INVALID_ID,
  BL_BSPROF_ERROR_CALLER_CYCLE,
  BL_BSPROF_ERROR_UNKNOWN_ENTRY,
} BlBsprofError;

#define BL_BSPROF_MAGIC "bsprof\0\0"
#define BL_BSPROF_MAGIC_LEN 8

/* inputs of this size and more hand their memory operations to a second
 * thread once that many blocks are live, from the start when 0
 * (bl_bsprof_set_worker()) */
#define BL_BSPROF_WORKER_MIN_BYTES (48 * 1000 * 1000)
#define BL_BSPROF_WORKER_MIN_LIVE  0

/* once that many blocks are live, the table of live blocks grows to hold
 * one block per that many bytes of input (bl_bsprof_set_live_guess()) */
#define BL_BSPROF_LIVE_GUESS_FROM  (128 * 1024)
#define BL_BSPROF_LIVE_GUESS_BYTES 64

typedef struct
{
  guint64 entries;       /* body entries decoded */
  guint64 bytes;         /* bytes consumed */
  guint64 handed_over;   /* memory operations handed to the worker thread */
  guint64 worker_sleeps; /* times the worker slept, its ring empty */
  guint64 decoder_waits; /* times the decoding thread slept, the ring full */
} BlBsprofStats;

GQuark     bl_bsprof_error_quark (void);
BlProfile *bl_bsprof_read_stream (GInputStream   *stream,
                                  guint64         total,
                                  BlProgressFunc  progress,
                                  gpointer        progress_data,
                                  GCancellable   *cancellable,
                                  BlBsprofStats  *stats,
                                  GError        **error);
BlProfile *bl_bsprof_read_memory (const guint8   *data,
                                  gsize           len,
                                  GError        **error);
void       bl_bsprof_set_worker   (guint64         min_bytes,
                                   guint64         min_live);
void       bl_bsprof_set_live_guess (guint64       from_live,
                                     guint64       bytes_per_block);

G_END_DECLS
