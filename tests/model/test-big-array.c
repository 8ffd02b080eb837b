/* test-big-array.c — the decoders' growing zero-filled arrays
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "bl-big-array-private.h"

static void
assert_pattern (const guint8 *data,
                gsize         filled,
                gsize         size)
{
  for (gsize i = 0; i < filled; i++)
    g_assert_cmpuint (data[i], ==, (guint8) (i * 7 + 1));
  for (gsize i = filled; i < size; i++)
    if (data[i] != 0)
      g_error ("byte %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " is not zero", i, size);
}

/* Through the heap sizes, past a megabyte (where arrays are mapped apart)
 * and on: what was written stays, what was added is zero. */
static void
test_grow (void)
{
  const gsize sizes[] = { 100, 4096, 700 * 1024, 1 << 20, (1 << 20) + 1, 3 << 20, 3 << 20, 9 << 20 };
  guint8 *data = NULL;
  gsize size = 0, filled = 0;

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      data = bl_big_array_grow (data, size, sizes[s]);
      size = sizes[s];
      assert_pattern (data, filled, size);

      /* fill half of what is new */
      for (gsize i = filled; i < filled + (size - filled) / 2; i++)
        data[i] = (guint8) (i * 7 + 1);
      filled += (size - filled) / 2;
    }

  g_assert_true (((guintptr) data & 63) == 0);
  bl_big_array_free (data, size);
  bl_big_array_free (NULL, 0);
}

#ifdef __linux__
/* A mapped array whose next addresses are taken grows by moving its pages
 * elsewhere (mremap()): what was written stays, the rest is zero, the new
 * place is 2 MiB aligned as every mapped array, and the mapping in its way
 * is left alone. Then it grows again, in place or not. */
static void
test_grow_moving (void)
{
  const gsize huge = 2 << 20;
  gsize size = 3 << 20, filled = size - 5;
  guint8 *data = bl_big_array_grow (NULL, 0, size);
  guint8 *old = data, *guard;

  g_assert_true (((guintptr) data & (huge - 1)) == 0);
  for (gsize i = 0; i < filled; i++)
    data[i] = (guint8) (i * 7 + 1);

  /* the mapping is 4 MiB long: take the page after it */
  guard = mmap (data + 2 * huge, 4096, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (guard == MAP_FAILED || guard != data + 2 * huge)
    {
      g_test_skip ("the page after the array is taken already");
      bl_big_array_free (data, size);
      return;
    }
  memset (guard, 0xab, 4096);

  data = bl_big_array_grow (data, size, 9 << 20);
  size = 9 << 20;
  g_assert_true (data != old);
  g_assert_true (((guintptr) data & (huge - 1)) == 0);
  assert_pattern (data, filled, size);
  for (gsize i = 0; i < 4096; i++)
    g_assert_cmpuint (guard[i], ==, 0xab);
  munmap (guard, 4096);

  for (gsize i = filled; i < size; i++)
    data[i] = (guint8) (i * 7 + 1);
  filled = size;
  data = bl_big_array_grow (data, size, 40 << 20);
  size = 40 << 20;
  g_assert_true (((guintptr) data & (huge - 1)) == 0);
  assert_pattern (data, filled, size);
  bl_big_array_free (data, size);
}
#endif

/* bl_array_push() keeps every element, in order, through many growths and
 * through the array being cut short and appended to in other ways */
static void
test_array_push (void)
{
  g_autoptr(GArray) array = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint cap = 0;
  guint64 extra = 7;

  for (guint64 i = 0; i < 100000; i++)
    {
      BL_ARRAY_PUSH (array, &cap, guint64, i * 3);
      g_assert_cmpuint (cap, >=, array->len);
    }
  g_assert_cmpuint (array->len, ==, 100000);
  for (guint i = 0; i < array->len; i++)
    g_assert_cmpuint (g_array_index (array, guint64, i), ==, (guint64) i * 3);

  /* what the array holds never shrinks: the room known stays true */
  g_array_set_size (array, 10);
  g_array_append_val (array, extra);
  for (guint64 i = 0; i < 300000; i++)
    BL_ARRAY_PUSH (array, &cap, guint64, i);
  g_assert_cmpuint (array->len, ==, 300011);
  g_assert_cmpuint (g_array_index (array, guint64, 9), ==, 27);
  g_assert_cmpuint (g_array_index (array, guint64, 10), ==, 7);
  g_assert_cmpuint (g_array_index (array, guint64, 300010), ==, 299999);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/big-array/grow", test_grow);
  g_test_add_func ("/model/big-array/array-push", test_array_push);
#ifdef __linux__
  g_test_add_func ("/model/big-array/grow-moving", test_grow_moving);
#endif

  return g_test_run ();
}
