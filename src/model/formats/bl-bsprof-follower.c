/* bl-bsprof-follower.c — decodes a growing .bsprof as it arrives
 *
 * The follower keeps only the bytes the decoder still needs (the start of
 * an entry cut off at the end, or the header until it is whole) and the
 * decoder's state (bl-bsprof-private.h); every byte is decoded once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-bsprof"

#include "config.h"

#include <string.h>

#include "bl-bsprof-follower.h"
#include "bl-bsprof-private.h"

struct _BlBsprofFollower
{
  GObject          parent_instance;

  GMutex           mutex;
  BlBsprofDecoder *decoder;
  GByteArray      *pending;    /* bytes from offset base on, not yet used up */
  guint64          base;
  guint64          n_bytes;    /* fed so far */
  GError          *error;      /* the stream is broken: nothing more is decoded */
};

G_DEFINE_FINAL_TYPE (BlBsprofFollower, bl_bsprof_follower, G_TYPE_OBJECT)

static void
bl_bsprof_follower_finalize (GObject *object)
{
  BlBsprofFollower *self = BL_BSPROF_FOLLOWER (object);

  _bl_bsprof_decoder_free (self->decoder);
  g_byte_array_unref (self->pending);
  g_clear_error (&self->error);
  g_mutex_clear (&self->mutex);

  G_OBJECT_CLASS (bl_bsprof_follower_parent_class)->finalize (object);
}

static void
bl_bsprof_follower_class_init (BlBsprofFollowerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = bl_bsprof_follower_finalize;
}

static void
bl_bsprof_follower_init (BlBsprofFollower *self)
{
  g_mutex_init (&self->mutex);
  self->decoder = _bl_bsprof_decoder_new ();
  self->pending = g_byte_array_new ();
}

BlBsprofFollower *
bl_bsprof_follower_new (void)
{
  return g_object_new (BL_TYPE_BSPROF_FOLLOWER, NULL);
}

/* With the mutex held. */
static gboolean
feed_locked (BlBsprofFollower  *self,
             const guint8      *data,
             gsize              len,
             GError           **error)
{
  BlSource src;
  GError *local_error = NULL;

  if (self->error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->error));
      return FALSE;
    }
  if (len == 0)
    return TRUE;

  g_byte_array_append (self->pending, data, len);
  self->n_bytes += len;

  memset (&src, 0, sizeof src);
  src.data = self->pending->data;
  src.len = self->pending->len;
  src.base = self->base;
  src.next_progress = G_MAXUINT64;   /* no progress, no cancellation */

  if (!_bl_bsprof_decoder_run (self->decoder, &src, &local_error))
    {
      self->error = local_error;
      g_byte_array_set_size (self->pending, 0);
      g_propagate_error (error, g_error_copy (self->error));
      return FALSE;
    }

  /* keep only what the decoder still needs */
  g_byte_array_remove_range (self->pending, 0, src.pos);
  self->base += src.pos;

  return TRUE;
}

gboolean
bl_bsprof_follower_feed (BlBsprofFollower  *self,
                         const guint8      *data,
                         gsize              len,
                         GError           **error)
{
  gboolean ok;

  g_return_val_if_fail (BL_IS_BSPROF_FOLLOWER (self), FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  g_mutex_lock (&self->mutex);
  ok = feed_locked (self, data, len, error);
  g_mutex_unlock (&self->mutex);

  return ok;
}

gboolean
bl_bsprof_follower_feed_file (BlBsprofFollower  *self,
                              GFile             *file,
                              GCancellable      *cancellable,
                              GError           **error)
{
  g_autoptr(GFileInputStream) input = NULL;
  g_autofree guint8 *buffer = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (BL_IS_BSPROF_FOLLOWER (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (!(input = g_file_read (file, cancellable, error)))
    return FALSE;

  buffer = g_malloc (64 * 1024);

  g_mutex_lock (&self->mutex);
  if (self->n_bytes > 0 &&
      !g_seekable_seek (G_SEEKABLE (input), (goffset) self->n_bytes, G_SEEK_SET, cancellable,
                        error))
    ok = FALSE;
  while (ok)
    {
      gssize n = g_input_stream_read (G_INPUT_STREAM (input), buffer, 64 * 1024, cancellable,
                                      error);

      if (n < 0)
        ok = FALSE;
      else if (n == 0)
        break;
      else
        ok = feed_locked (self, buffer, n, error);
    }
  g_mutex_unlock (&self->mutex);

  return ok;
}

guint64
bl_bsprof_follower_get_n_bytes (BlBsprofFollower *self)
{
  guint64 n;

  g_return_val_if_fail (BL_IS_BSPROF_FOLLOWER (self), 0);

  g_mutex_lock (&self->mutex);
  n = self->n_bytes;
  g_mutex_unlock (&self->mutex);

  return n;
}

guint64
bl_bsprof_follower_get_n_entries (BlBsprofFollower *self)
{
  guint64 n;

  g_return_val_if_fail (BL_IS_BSPROF_FOLLOWER (self), 0);

  g_mutex_lock (&self->mutex);
  n = _bl_bsprof_decoder_get_entries (self->decoder);
  g_mutex_unlock (&self->mutex);

  return n;
}

gboolean
bl_bsprof_follower_is_complete (BlBsprofFollower *self)
{
  gboolean complete;

  g_return_val_if_fail (BL_IS_BSPROF_FOLLOWER (self), FALSE);

  g_mutex_lock (&self->mutex);
  complete = _bl_bsprof_decoder_is_complete (self->decoder);
  g_mutex_unlock (&self->mutex);

  return complete;
}

BlProfile *
bl_bsprof_follower_snapshot (BlBsprofFollower *self)
{
  BlProfile *profile;

  g_return_val_if_fail (BL_IS_BSPROF_FOLLOWER (self), NULL);

  g_mutex_lock (&self->mutex);
  profile = _bl_bsprof_decoder_snapshot (self->decoder, self->n_bytes);
  g_mutex_unlock (&self->mutex);

  return profile;
}
