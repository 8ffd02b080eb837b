/* bl-big-array-private.h — zero-filled growing arrays for large tables
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gpointer bl_big_array_grow (gpointer data,
                            gsize    old_size,
                            gsize    new_size);
void     bl_big_array_free (gpointer data,
                            gsize    size);
void     bl_big_array_discard (gpointer data,
                               gsize    size,
                               gsize    offset,
                               gsize    len);

void     bl_array_grow_cap    (GArray   *array,
                               guint    *cap);

/* Appends one element of @elt_size bytes to @array and returns it, for an
 * array appended to millions of times: g_array_append_val() divides by the
 * element size on every call to check for overflow. *@cap is what the
 * caller knows the array holds without growing (0 to begin with; the
 * array's own allocation never shrinks, so it stays true whatever else is
 * done to the array). */
G_ALWAYS_INLINE static inline gpointer
bl_array_push (GArray *array,
               guint  *cap,
               gsize   elt_size)
{
  if G_UNLIKELY (array->len >= *cap)
    bl_array_grow_cap (array, cap);

  return array->data + (gsize) array->len++ * elt_size;
}

#define BL_ARRAY_PUSH(array, cap, Type, value) \
  (*(Type *) bl_array_push ((array), (cap), sizeof (Type)) = (value))

G_END_DECLS
