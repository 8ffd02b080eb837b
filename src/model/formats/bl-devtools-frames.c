/* bl-devtools-frames.c — call frames of the Chrome DevTools formats
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-devtools"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "bl-devtools-private.h"

void
_bl_devtools_call_frame_clear (BlDevtoolsCallFrame *cf)
{
  g_clear_pointer (&cf->function_name, g_free);
  g_clear_pointer (&cf->url, g_free);
  cf->line = BL_DEVTOOLS_NO_NUMBER;
  cf->col = BL_DEVTOOLS_NO_NUMBER;
}

static gboolean
wrong_type (BlJsonReader  *json,
            GQuark         domain,
            gint           code,
            const char    *what,
            const char    *expected,
            GError       **error)
{
  g_autofree char *where = bl_json_reader_dup_location (json);

  /* Translators: "Invalid Chrome CPU profile: this must be a string, at line 1, column 40
   * ($.nodes[0].callFrame.functionName)." */
  g_set_error (error, domain, code, _("Invalid %s: this must be %s, at %s."), what, expected,
               where);

  return FALSE;
}

gboolean
_bl_devtools_call_frame_member (BlJsonReader        *json,
                                BlDevtoolsCallFrame *cf,
                                const char          *name,
                                gboolean            *handled,
                                GQuark               domain,
                                gint                 code,
                                const char          *what,
                                GError             **error)
{
  gboolean is_name = strcmp (name, "functionName") == 0;
  gboolean is_url = !is_name && strcmp (name, "url") == 0;
  gboolean is_line = strcmp (name, "lineNumber") == 0;
  gboolean is_col = strcmp (name, "columnNumber") == 0;
  BlJsonToken token;

  *handled = FALSE;
  if (!is_name && !is_url && !is_line && !is_col)
    return TRUE;

  *handled = TRUE;
  token = bl_json_reader_next (json, error);
  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;

  if (is_name || is_url)
    {
      char **slot = is_name ? &cf->function_name : &cf->url;

      if (token == BL_JSON_TOKEN_NULL)
        return TRUE;
      if (token != BL_JSON_TOKEN_STRING)
        return wrong_type (json, domain, code, what, _("a string"), error);
      g_free (*slot);
      *slot = g_strdup (bl_json_reader_get_string (json, NULL));
      return TRUE;
    }

  if (token == BL_JSON_TOKEN_NULL)
    return TRUE;
  if (token != BL_JSON_TOKEN_NUMBER)
    return wrong_type (json, domain, code, what, _("a number"), error);
  /* lines and columns beyond any real file are kept apart but not shown */
  if (is_line)
    cf->line = CLAMP (bl_json_reader_get_int (json), -1, (gint64) G_MAXUINT32 - 2);
  else
    cf->col = CLAMP (bl_json_reader_get_int (json), -1, (gint64) G_MAXUINT32 - 2);

  return TRUE;
}

void
_bl_devtools_frames_init (BlDevtoolsFrames *frames,
                          BlProfile        *profile)
{
  frames->profile = profile;
  frames->mask = 1023;
  frames->slots = g_new0 (guint32, frames->mask + 1);
  frames->n = 0;
}

void
_bl_devtools_frames_clear (BlDevtoolsFrames *frames)
{
  g_clear_pointer (&frames->slots, g_free);
}

static inline gsize
frame_hash (guint32 name,
            guint32 file,
            guint32 line,
            guint32 col)
{
  guint64 k = ((guint64) name << 32 | file) * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  k ^= ((guint64) line << 32 | col) * G_GUINT64_CONSTANT (0xC2B2AE3D27D4EB4F);

  return (gsize) (k ^ (k >> 31));
}

static void
frames_grow (BlDevtoolsFrames *frames)
{
  gsize size = (frames->mask + 1) * 2;
  guint32 *slots = g_new0 (guint32, size);

  for (gsize i = 0; i <= frames->mask; i++)
    if (frames->slots[i] != 0)
      {
        const BlFrame *f = bl_profile_get_frame (frames->profile, frames->slots[i] - 1);
        gsize pos = frame_hash (f->name, f->file, f->line, f->col) & (size - 1);

        while (slots[pos] != 0)
          pos = (pos + 1) & (size - 1);
        slots[pos] = frames->slots[i];
      }
  g_free (frames->slots);
  frames->slots = slots;
  frames->mask = size - 1;
}

guint32
_bl_devtools_frames_add (BlDevtoolsFrames          *frames,
                         const BlDevtoolsCallFrame *cf,
                         gint                       line_offset)
{
  BlProfile *profile = frames->profile;
  const char *url = cf->url != NULL ? cf->url : "";
  guint32 name, file, line, col;
  gsize pos;

  if (cf->function_name != NULL && cf->function_name[0] != '\0')
    name = bl_profile_intern (profile, cf->function_name);
  else if (url[0] != '\0')
    {
      const char *base = strrchr (url, '/');
      g_autofree char *anonymous = NULL;

      /* speedscope's name, with its line (the file's, plus the offset) */
      if (cf->line == BL_DEVTOOLS_NO_NUMBER)
        anonymous = g_strdup_printf ("(anonymous %s:undefined)", base != NULL ? base + 1 : url);
      else
        anonymous = g_strdup_printf ("(anonymous %s:%" G_GINT64_FORMAT ")",
                                     base != NULL ? base + 1 : url, cf->line + line_offset);
      name = bl_profile_intern (profile, anonymous);
    }
  else
    name = bl_profile_intern (profile, "(anonymous)");

  file = bl_profile_intern (profile, url);
  line = cf->line == BL_DEVTOOLS_NO_NUMBER || cf->line < 0 ? 0 : (guint32) cf->line + 1;
  col = cf->col == BL_DEVTOOLS_NO_NUMBER || cf->col < 0 ? 0 : (guint32) cf->col + 1;

  pos = frame_hash (name, file, line, col) & frames->mask;
  while (frames->slots[pos] != 0)
    {
      const BlFrame *f = bl_profile_get_frame (profile, frames->slots[pos] - 1);

      if (f->name == name && f->file == file && f->line == line && f->col == col)
        return frames->slots[pos] - 1;
      pos = (pos + 1) & frames->mask;
    }

  frames->slots[pos] = bl_profile_add_frame (profile, name, file, line, col) + 1;
  if (++frames->n * 2 > frames->mask)
    {
      guint32 frame = frames->slots[pos] - 1;

      frames_grow (frames);
      return frame;
    }

  return frames->slots[pos] - 1;
}

void
_bl_devtools_ids_init (BlDevtoolsIds *ids)
{
  ids->others = NULL;
}

void
_bl_devtools_ids_clear (BlDevtoolsIds *ids)
{
  g_clear_pointer (&ids->others, g_hash_table_unref);
}

guint32
_bl_devtools_ids_get_double (BlDevtoolsIds *ids,
                             double         value)
{
  gint64 bits;
  gpointer id;

  if (value >= 0 && value <= BL_DEVTOOLS_MAX_PLAIN_ID && value == (double) (gint64) value)
    return (guint32) value;

  /* -0 is 0 (it would have been plain); every other number its own key */
  memcpy (&bits, &value, sizeof bits);
  if (ids->others == NULL)
    ids->others = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  if (g_hash_table_lookup_extended (ids->others, &bits, NULL, &id))
    return GPOINTER_TO_UINT (id);
  /* past 2^31-1 distinct odd ids, the rest name nothing */
  if (g_hash_table_size (ids->others) >= (guint) BL_DEVTOOLS_MAX_PLAIN_ID)
    return BL_DEVTOOLS_NO_ID;
  id = GUINT_TO_POINTER ((guint) BL_DEVTOOLS_MAX_PLAIN_ID + 1 + g_hash_table_size (ids->others));
  g_hash_table_insert (ids->others, g_memdup2 (&bits, sizeof bits), id);

  return GPOINTER_TO_UINT (id);
}

guint32
_bl_devtools_ids_get (BlDevtoolsIds *ids,
                      BlJsonReader  *json)
{
  if (bl_json_reader_is_integral (json))
    {
      gint64 v = bl_json_reader_get_int (json);

      if (v >= 0 && v <= BL_DEVTOOLS_MAX_PLAIN_ID)
        return (guint32) v;
    }

  return _bl_devtools_ids_get_double (ids, bl_json_reader_get_double (json));
}

static inline gsize
id_hash (guint32 id)
{
  return (gsize) (((guint64) id * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 21);
}

void
_bl_devtools_id_map_init (BlDevtoolsIdMap *map,
                          guint            n_max)
{
  gsize size = 16;

  while (size < (gsize) n_max * 2)
    size *= 2;
  map->mask = size - 1;
  map->keys = g_new (guint32, size);
  map->values = g_new (guint32, size);
  memset (map->keys, 0xff, size * sizeof (guint32));
}

void
_bl_devtools_id_map_insert (BlDevtoolsIdMap *map,
                            guint32          id,
                            guint32          value)
{
  gsize pos;

  if (id == BL_DEVTOOLS_NO_ID)
    return;
  pos = id_hash (id) & map->mask;
  while (map->keys[pos] != BL_DEVTOOLS_NO_ID && map->keys[pos] != id)
    pos = (pos + 1) & map->mask;
  map->keys[pos] = id;
  map->values[pos] = value;
}

guint32
_bl_devtools_id_map_lookup (const BlDevtoolsIdMap *map,
                            guint32                id)
{
  gsize pos;

  if (id == BL_DEVTOOLS_NO_ID)
    return G_MAXUINT32;
  pos = id_hash (id) & map->mask;
  while (map->keys[pos] != BL_DEVTOOLS_NO_ID)
    {
      if (map->keys[pos] == id)
        return map->values[pos];
      pos = (pos + 1) & map->mask;
    }

  return G_MAXUINT32;
}

void
_bl_devtools_id_map_clear (BlDevtoolsIdMap *map)
{
  g_clear_pointer (&map->keys, g_free);
  g_clear_pointer (&map->values, g_free);
}
