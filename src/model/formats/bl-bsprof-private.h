/* bl-bsprof-private.h — the .bsprof decoder fed piece by piece, for the
 * follower (bl-bsprof-follower.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-profile.h"
#include "bl-source-private.h"

G_BEGIN_DECLS

typedef struct _BlBsprofDecoder BlBsprofDecoder;

BlBsprofDecoder *_bl_bsprof_decoder_new        (void);
void             _bl_bsprof_decoder_free       (BlBsprofDecoder *decoder);
/* Decodes what @src holds from src->pos (a memory window onto the stream,
 * base = the stream offset of data[0], eof FALSE) as far as whole entries
 * go, and leaves src->pos at the first byte still needed: the caller keeps
 * the bytes from there and calls again with more after them. FALSE with
 * @error when the stream is not a valid .bsprof. */
gboolean         _bl_bsprof_decoder_run        (BlBsprofDecoder *decoder,
                                                BlSource        *src,
                                                GError         **error);
/* A finished copy of the profile so far, as bl_bsprof_read_memory() makes
 * it of the @n_bytes fed, or NULL while the header is incomplete. */
BlProfile       *_bl_bsprof_decoder_snapshot   (BlBsprofDecoder *decoder,
                                                guint64          n_bytes);
gboolean         _bl_bsprof_decoder_is_complete (BlBsprofDecoder *decoder);
guint64          _bl_bsprof_decoder_get_entries (BlBsprofDecoder *decoder);

G_END_DECLS
