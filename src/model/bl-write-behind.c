/* bl-write-behind.c — an output stream whose writes happen on a thread of its own
 *
 * An export of a big profile is made about as fast as the kernel takes it
 * into the page cache: 135 MB of folded stacks cost the walk that makes
 * them ~0.1 s and write() about as much again. This stream gathers what it
 * is given in blocks and hands them to a thread that writes them to the
 * stream below, so that making and writing overlap on two cores. At most
 * a few blocks are in flight (the memory it takes does not grow with the
 * output); a writer faster than the stream below waits for a block to be
 * free. The first error of the stream below is the error of every call
 * after it (so at the latest of the flush or close), and nothing more is
 * written below once it happened.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define _GNU_SOURCE   /* sync_file_range() */

#include "config.h"

#include <fcntl.h>
#include <string.h>

#include "bl-write-behind.h"

#define BLOCK_SIZE    (1024 * 1024)
#define MAX_IN_FLIGHT 4

typedef struct
{
  gsize  len;
  guint8 data[];
} Block;

struct _BlWriteBehind
{
  GOutputStream  parent_instance;

  GOutputStream *base;
  gboolean       close_base;

  /* the caller's block, being filled */
  Block         *block;

  /* shared with the thread, under the lock */
  GMutex         lock;
  GCond          cond;
  GQueue         queued;      /* Block *, oldest first */
  GQueue         spare;       /* written blocks, for the caller to fill again */
  guint          in_flight;   /* queued or being written */
  gboolean       stopping;
  GError        *error;       /* the stream below's first */
  GThread       *thread;

  /* the thread's own */
  int            writeback_fd;
  guint64        written;
};

G_DEFINE_FINAL_TYPE (BlWriteBehind, bl_write_behind, G_TYPE_OUTPUT_STREAM)

static gpointer
writer_thread (gpointer data)
{
  BlWriteBehind *self = data;

  g_mutex_lock (&self->lock);
  for (;;)
    {
      Block *block;
      GError *error = NULL;
      gboolean failed;

      while (g_queue_is_empty (&self->queued) && !self->stopping)
        g_cond_wait (&self->cond, &self->lock);
      if (g_queue_is_empty (&self->queued))
        break;
      block = g_queue_pop_head (&self->queued);
      failed = self->error != NULL;
      g_mutex_unlock (&self->lock);

      if (!failed &&
          g_output_stream_write_all (self->base, block->data, block->len, NULL, NULL, &error))
        {
#ifdef SYNC_FILE_RANGE_WRITE
          /* the disk gets the block now rather than all of it at the end;
           * a failure here is only a lost head start */
          if (self->writeback_fd >= 0)
            sync_file_range (self->writeback_fd, self->written, block->len,
                             SYNC_FILE_RANGE_WRITE);
#endif
          self->written += block->len;
        }

      g_mutex_lock (&self->lock);
      if (error != NULL && self->error == NULL)
        self->error = error;
      else
        g_clear_error (&error);
      block->len = 0;
      g_queue_push_tail (&self->spare, block);
      self->in_flight--;
      g_cond_broadcast (&self->cond);
    }
  g_mutex_unlock (&self->lock);

  return NULL;
}

/* the stream below's error, if there was one, as this call's */
static gboolean
take_error (BlWriteBehind  *self,
            GError        **error)
{
  gboolean failed;

  g_mutex_lock (&self->lock);
  failed = self->error != NULL;
  if (failed)
    g_propagate_error (error, g_error_copy (self->error));
  g_mutex_unlock (&self->lock);

  return failed;
}

/* hands the caller's block to the thread, and takes a free one */
static void
submit (BlWriteBehind *self)
{
  Block *next;

  if (self->block == NULL || self->block->len == 0)
    return;

  g_mutex_lock (&self->lock);
  while (self->in_flight >= MAX_IN_FLIGHT)
    g_cond_wait (&self->cond, &self->lock);
  g_queue_push_tail (&self->queued, self->block);
  self->in_flight++;
  if (self->thread == NULL)
    self->thread = g_thread_new ("bl-write-behind", writer_thread, self);
  g_cond_broadcast (&self->cond);
  next = g_queue_pop_head (&self->spare);
  g_mutex_unlock (&self->lock);

  self->block = next;
}

static void
wait_written (BlWriteBehind *self)
{
  g_mutex_lock (&self->lock);
  while (self->in_flight > 0)
    g_cond_wait (&self->cond, &self->lock);
  g_mutex_unlock (&self->lock);
}

static void
stop_thread (BlWriteBehind *self)
{
  if (self->thread == NULL)
    return;

  g_mutex_lock (&self->lock);
  self->stopping = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  g_thread_join (g_steal_pointer (&self->thread));
}

static gssize
bl_write_behind_write (GOutputStream  *stream,
                       const void     *buffer,
                       gsize           count,
                       GCancellable   *cancellable,
                       GError        **error)
{
  BlWriteBehind *self = BL_WRITE_BEHIND (stream);
  const guint8 *from = buffer;
  gsize left = MIN (count, G_MAXSSIZE);

  if (g_cancellable_set_error_if_cancelled (cancellable, error) || take_error (self, error))
    return -1;

  while (left > 0)
    {
      gsize n;

      if (self->block == NULL)
        {
          self->block = g_malloc (sizeof (Block) + BLOCK_SIZE);
          self->block->len = 0;
        }
      n = MIN (left, BLOCK_SIZE - self->block->len);
      memcpy (self->block->data + self->block->len, from, n);
      self->block->len += n;
      from += n;
      left -= n;
      if (self->block->len == BLOCK_SIZE)
        submit (self);
    }

  return MIN (count, G_MAXSSIZE);
}

static gboolean
bl_write_behind_flush (GOutputStream  *stream,
                       GCancellable   *cancellable,
                       GError        **error)
{
  BlWriteBehind *self = BL_WRITE_BEHIND (stream);

  submit (self);
  wait_written (self);
  if (take_error (self, error))
    return FALSE;

  return g_output_stream_flush (self->base, cancellable, error);
}

/* g_output_stream_close() has flushed before this */
static gboolean
bl_write_behind_close (GOutputStream  *stream,
                       GCancellable   *cancellable,
                       GError        **error)
{
  BlWriteBehind *self = BL_WRITE_BEHIND (stream);
  gboolean ok;

  submit (self);
  stop_thread (self);
  ok = !take_error (self, error);
  if (self->close_base)
    {
      if (ok)
        ok = g_output_stream_close (self->base, cancellable, error);
      else
        g_output_stream_close (self->base, NULL, NULL);
    }

  return ok;
}

static void
bl_write_behind_finalize (GObject *object)
{
  BlWriteBehind *self = BL_WRITE_BEHIND (object);
  Block *block;

  /* GOutputStream's dispose closed the stream, which stopped the thread,
   * unless that close could not run */
  stop_thread (self);
  g_free (self->block);
  while ((block = g_queue_pop_head (&self->queued)))
    g_free (block);
  while ((block = g_queue_pop_head (&self->spare)))
    g_free (block);
  g_clear_error (&self->error);
  g_clear_object (&self->base);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);

  G_OBJECT_CLASS (bl_write_behind_parent_class)->finalize (object);
}

static void
bl_write_behind_class_init (BlWriteBehindClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GOutputStreamClass *stream_class = G_OUTPUT_STREAM_CLASS (klass);

  object_class->finalize = bl_write_behind_finalize;
  stream_class->write_fn = bl_write_behind_write;
  stream_class->flush = bl_write_behind_flush;
  stream_class->close_fn = bl_write_behind_close;
}

static void
bl_write_behind_init (BlWriteBehind *self)
{
  self->writeback_fd = -1;
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  g_queue_init (&self->queued);
  g_queue_init (&self->spare);
}

/**
 * bl_write_behind_new:
 * @base: the stream the thread writes to
 * @close_base: whether closing this stream closes @base
 *
 * Returns: (transfer full): a stream that writes to @base from a thread of
 *   its own; call only from one thread at a time, as any GOutputStream
 */
GOutputStream *
bl_write_behind_new (GOutputStream *base,
                     gboolean       close_base)
{
  BlWriteBehind *self;

  g_return_val_if_fail (G_IS_OUTPUT_STREAM (base), NULL);

  self = g_object_new (BL_TYPE_WRITE_BEHIND, NULL);
  self->base = g_object_ref (base);
  self->close_base = close_base;

  return G_OUTPUT_STREAM (self);
}

/**
 * bl_write_behind_start_writeback:
 * @fd: the file descriptor the stream below writes to, from its start
 *
 * For a file that will be synced to disk when complete (fsync()): each
 * block is handed to the disk as soon as it is written, so that the sync
 * at the end waits for the last blocks only. Call before the first write.
 */
void
bl_write_behind_start_writeback (BlWriteBehind *self,
                                 int            fd)
{
  g_return_if_fail (BL_IS_WRITE_BEHIND (self));
  g_return_if_fail (self->thread == NULL);

  self->writeback_fd = fd;
}

/**
 * bl_write_behind_get_base:
 *
 * Returns: (transfer none): the stream written to
 */
GOutputStream *
bl_write_behind_get_base (BlWriteBehind *self)
{
  g_return_val_if_fail (BL_IS_WRITE_BEHIND (self), NULL);

  return self->base;
}
