/* bl-big-array.c — zero-filled growing arrays for large tables
 *
 * A decoder's accumulators and hash tables are visited at random, entry
 * after entry. With 4 KiB pages a table of a few megabytes spans more pages
 * than the processor's address-translation cache holds, and much of the
 * decoding time goes to page walks. Arrays of a megabyte or more are
 * therefore mapped on their own, aligned to 2 MiB, and the kernel is asked
 * to back them with huge pages (it may decline; nothing else changes).
 * Smaller arrays live on the ordinary heap.
 *
 * A mapped array grows by moving its pages to a larger mapping
 * (mremap(), where the system has it) rather than by copying them: a copy
 * would touch every byte of a new mapping, and on a virtual machine the
 * first touch of memory, the kernel zeroing it, can cost as much as the
 * decoding that fills it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define _GNU_SOURCE   /* mremap() */
#define G_LOG_DOMAIN "bl-big-array"

#include "config.h"

#include <string.h>

#include "bl-big-array-private.h"

#ifdef G_OS_UNIX
#include <sys/mman.h>
#endif

#if defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
#define BIG_MAPPED 1
#endif

#define BIG_MIN   ((gsize) 1 << 20)
#define HUGE_PAGE ((gsize) 2 << 20)

#ifdef BIG_MAPPED

static gsize
mapped_length (gsize size)
{
  return (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

/* Zero-filled, 2 MiB aligned, huge pages asked for. */
static gpointer
map_zeroed (gsize size)
{
  gsize len = mapped_length (size);
  guint8 *base, *aligned;

  base = mmap (NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED)
    g_error ("%s: failed to map %" G_GSIZE_FORMAT " bytes", G_STRLOC, len);

  aligned = (guint8 *) (((guintptr) base + HUGE_PAGE - 1) & ~(guintptr) (HUGE_PAGE - 1));
  if (aligned > base)
    munmap (base, aligned - base);
  if (aligned + len < base + len + HUGE_PAGE)
    munmap (aligned + len, base + len + HUGE_PAGE - (aligned + len));
  madvise (aligned, len, MADV_HUGEPAGE);

  return aligned;
}

#if defined(MREMAP_MAYMOVE) && defined(MREMAP_FIXED)
/* The mapping of @old_len bytes at @data made @new_len long, in place if
 * the addresses after it are free, else moved to a 2 MiB aligned place
 * (its huge pages move whole); NULL if the system refuses. */
static gpointer
remap_larger (gpointer data,
              gsize    old_len,
              gsize    new_len)
{
  guint8 *base, *aligned;
  void *moved;

  if (mremap (data, old_len, new_len, 0) != MAP_FAILED)
    return data;

  /* a place reserved for it, which the move replaces */
  base = mmap (NULL, new_len + HUGE_PAGE, PROT_NONE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED)
    return NULL;
  aligned = (guint8 *) (((guintptr) base + HUGE_PAGE - 1) & ~(guintptr) (HUGE_PAGE - 1));
  moved = mremap (data, old_len, new_len, MREMAP_MAYMOVE | MREMAP_FIXED, aligned);
  if (moved == MAP_FAILED)
    {
      munmap (base, new_len + HUGE_PAGE);
      return NULL;
    }
  if (aligned > base)
    munmap (base, aligned - base);
  if (aligned + new_len < base + new_len + HUGE_PAGE)
    munmap (aligned + new_len, base + new_len + HUGE_PAGE - (aligned + new_len));

  return aligned;
}
#endif

#endif

/**
 * bl_big_array_grow:
 * @data: the array, or %NULL
 * @old_size: its size in bytes (0 for %NULL)
 * @new_size: the size wanted, in bytes, at least @old_size
 *
 * Grows an array made by this function; the bytes past @old_size are zero.
 * Free it with bl_big_array_free() and its last size.
 *
 * Returns: the array, which may have moved
 */
gpointer
bl_big_array_grow (gpointer data,
                   gsize    old_size,
                   gsize    new_size)
{
  g_return_val_if_fail (new_size >= old_size, data);

#ifdef BIG_MAPPED
  if (new_size >= BIG_MIN)
    {
      gpointer mapped;

      /* a mapping is zero-filled to its whole length */
      if (old_size >= BIG_MIN && mapped_length (old_size) >= new_size)
        return data;
#if defined(MREMAP_MAYMOVE) && defined(MREMAP_FIXED)
      if (old_size >= BIG_MIN)
        {
          mapped = remap_larger (data, mapped_length (old_size), mapped_length (new_size));
          if (mapped != NULL)
            return mapped;
        }
#endif

      mapped = map_zeroed (new_size);
      if (data != NULL)
        memcpy (mapped, data, old_size);
      bl_big_array_free (data, old_size);

      return mapped;
    }
#endif

  data = g_realloc (data, new_size);
  memset ((guint8 *) data + old_size, 0, new_size - old_size);

  return data;
}

/**
 * bl_big_array_free:
 * @data: (nullable): an array from bl_big_array_grow()
 * @size: its size in bytes, as last given to bl_big_array_grow()
 */
void
bl_big_array_free (gpointer data,
                   gsize    size)
{
  if (data == NULL)
    return;

#ifdef BIG_MAPPED
  if (size >= BIG_MIN)
    {
      munmap (data, mapped_length (size));
      return;
    }
#endif

  g_free (data);
}

/**
 * bl_big_array_discard:
 * @data: an array from bl_big_array_grow()
 * @size: its size in bytes
 * @offset: where the bytes that are no longer needed start
 * @len: how many they are
 *
 * Hands the whole pages among those bytes back to the system, so that they
 * no longer count towards the process's memory; they read as zero (or as
 * before) afterwards. Arrays on the heap are left as they are.
 */
void
bl_big_array_discard (gpointer data,
                      gsize    size,
                      gsize    offset,
                      gsize    len)
{
  g_return_if_fail (offset <= size && len <= size - offset);

#ifdef BIG_MAPPED
  if (size >= BIG_MIN)
    {
      gsize page = 4096;
      guintptr start = ((guintptr) data + offset + page - 1) & ~(guintptr) (page - 1);
      guintptr end = ((guintptr) data + offset + len) & ~(guintptr) (page - 1);

      if (end > start)
        madvise ((gpointer) start, end - start, MADV_DONTNEED);
    }
#endif
}

/**
 * bl_array_grow_cap:
 * @array: a GArray without a clear function
 * @cap: (inout): what it holds without growing
 *
 * Doubles what @array holds (at least 64 elements) and sets *@cap to it,
 * leaving its length as it is. For bl_array_push().
 */
void
bl_array_grow_cap (GArray *array,
                   guint  *cap)
{
  guint len = array->len;
  guint new_cap = MAX (MAX (len, *cap), 32);

  if (new_cap > G_MAXUINT / 2)
    g_error ("%s: a GArray of %u elements cannot grow", G_STRLOC, len);
  new_cap *= 2;
  g_array_set_size (array, new_cap);
  array->len = len;
  *cap = new_cap;
}
