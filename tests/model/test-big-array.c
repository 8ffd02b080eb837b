/* test-big-array.c — the decoders' growing zero-filled arrays
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib.h>

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

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/big-array/grow", test_grow);

  return g_test_run ();
}
