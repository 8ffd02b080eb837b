/* fuzz-heapsnapshot.c — libFuzzer target for the V8 heap snapshot reader
 *
 * Reads the input; when it is a snapshot, walks what the heap views and
 * the CLI read, and checks that the root retains every byte (DevTools
 * hangs every object the root does not reach from it).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>

#include "bl-heap.h"
#include "bl-heapsnapshot-reader.h"
#include "bl-model.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  g_autofree guint32 *top = NULL;
  BlHeap *heap;
  guint n_top;
  guint64 sum = 0;

  profile = bl_heapsnapshot_read_memory (data, size, &error);
  g_assert ((profile == NULL) == (error != NULL));
  if (profile == NULL)
    return 0;

  g_assert (bl_profile_get_n_heaps (profile) == 1);
  heap = bl_profile_get_heap (profile, 0);
  for (guint32 t = 0; t < bl_heap_get_n_types (heap); t++)
    {
      guint64 count, self_bytes, retained;

      bl_heap_get_type_totals (heap, t, &count, &self_bytes, &retained);
      sum += self_bytes;
      g_assert (bl_heap_get_type_name (heap, t) != NULL);
    }
  for (guint32 i = 0; i < bl_heap_get_n_objects (heap); i++)
    {
      const guint32 *fields, *targets;
      guint32 n = bl_heap_get_n_references (heap, i, &fields, &targets);

      for (guint32 k = 0; k < n; k++)
        g_assert (bl_heap_get_field_name (heap, fields[k]) != NULL);
      if (!bl_heap_is_reachable (heap, i))
        {
          g_printerr ("object %u is not reachable\n", i);
          abort ();
        }
    }
  if (sum != bl_heap_get_total_bytes (heap) ||
      bl_heap_get_retained (heap, 0) != bl_heap_get_total_bytes (heap))
    {
      g_printerr ("the root retains %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " bytes\n",
                  bl_heap_get_retained (heap, 0), bl_heap_get_total_bytes (heap));
      abort ();
    }
  top = bl_heap_top_retained (heap, 10, &n_top);

  return 0;
}
