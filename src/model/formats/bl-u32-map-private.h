/* bl-u32-map-private.h — an open-addressing map from non-zero 32-bit ids to
 * 32-bit values, for ids read from files (never used to size an array)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint32 key;     /* 0: empty */
  guint32 value;
} BlU32Slot;

typedef struct
{
  BlU32Slot *slots;
  guint32    mask;
  guint32    used;
} BlU32Map;

static inline void
bl_u32_map_init (BlU32Map *map)
{
  map->mask = 255;
  map->used = 0;
  map->slots = g_new0 (BlU32Slot, map->mask + 1);
}

static inline void
bl_u32_map_clear (BlU32Map *map)
{
  g_clear_pointer (&map->slots, g_free);
}

static inline guint32
bl_u32_hash (guint32 key)
{
  return key * 0x9E3779B1u;
}

static inline BlU32Slot *
bl_u32_map_slot (BlU32Map *map,
                 guint32   key)
{
  guint32 pos = (bl_u32_hash (key) >> 8) & map->mask;

  while (map->slots[pos].key != 0 && map->slots[pos].key != key)
    pos = (pos + 1) & map->mask;

  return &map->slots[pos];
}

/* Returns TRUE and sets *value if key is present. */
static inline gboolean
bl_u32_map_lookup (BlU32Map *map,
                   guint32   key,
                   guint32  *value)
{
  BlU32Slot *slot = bl_u32_map_slot (map, key);

  if (slot->key == 0)
    return FALSE;
  *value = slot->value;
  return TRUE;
}

static inline void
bl_u32_map_insert (BlU32Map *map,
                   guint32   key,
                   guint32   value)
{
  BlU32Slot *slot = bl_u32_map_slot (map, key);

  g_assert (key != 0);

  if (slot->key != 0)
    {
      slot->value = value;
      return;
    }

  slot->key = key;
  slot->value = value;
  map->used++;

  if (map->used * 2 > map->mask)
    {
      BlU32Slot *old = map->slots;
      guint32 old_size = map->mask + 1;

      map->mask = old_size * 2 - 1;
      map->slots = g_new0 (BlU32Slot, map->mask + 1);
      for (guint32 i = 0; i < old_size; i++)
        if (old[i].key != 0)
          *bl_u32_map_slot (map, old[i].key) = old[i];
      g_free (old);
    }
}

G_END_DECLS
