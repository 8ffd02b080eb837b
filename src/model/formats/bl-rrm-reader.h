/* bl-rrm-reader.h — Roku Resource Monitor session (.json) loader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-format.h"
#include "bl-session.h"

G_BEGIN_DECLS

#define BL_RRM_ERROR (bl_rrm_error_quark ())

typedef enum
{
  BL_RRM_ERROR_SYNTAX,        /* not JSON (the message gives line, column and path) */
  BL_RRM_ERROR_NOT_SESSION,   /* JSON, but not shaped like a session */
  BL_RRM_ERROR_TYPE,          /* a member has the wrong type */
  BL_RRM_ERROR_EMPTY,         /* no data point, no beacon (or none at a sane time) */
} BlRrmError;

GQuark     bl_rrm_error_quark (void);

/* Whether @head (the first bytes of a file) starts a JSON object with a
 * "session" member or two of "device", "channel", "metadata" (names
 * compared case-insensitively, ignoring '_' and spaces). */
gboolean   bl_rrm_detect      (const guint8   *head,
                               gsize           len);

/* Reads a session in chunks with the streaming JSON reader. Keys are
 * matched case-insensitively and in snake_case, camelCase or spaced form;
 * unknown members are ignored; a null value is a gap; a file that ends
 * early gives an incomplete session (bl_session_is_incomplete()). A
 * session without a single data point or beacon is an error. */
BlSession *bl_rrm_read_stream (GInputStream   *stream,
                               guint64         total,
                               BlProgressFunc  progress,
                               gpointer        progress_data,
                               GCancellable   *cancellable,
                               GError        **error);
BlSession *bl_rrm_read_memory (const guint8   *data,
                               gsize           len,
                               GError        **error);

G_END_DECLS
