/* bl-rrm-reader.c — Roku Resource Monitor session (.json) loader
 *
 * Sessions can be 100 MB and more, so they are read token by token with
 * BlJsonReader and built straight into a BlSession; no document tree is
 * ever held. The reader is liberal in what it accepts, because real
 * exports differ from the specification's tables:
 *
 *  - member names are compared after lowercasing and dropping everything
 *    but letters and digits, so "objects_count", "objectsCount",
 *    "Objects count", "drop_count" and "drop_ count" all match;
 *  - "session" is an object with "static" and "live", or an array of
 *    entries holding those (the live arrays may also sit in the entry);
 *  - any array or value may be missing or null (a null value is a gap);
 *  - unknown members are skipped;
 *  - a beacon's name may be in "name", "event" or "beacon".
 *
 * A data point is added to the session only once its object is complete,
 * so a file that ends early keeps every complete point.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-rrm"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "bl-json-reader.h"
#include "bl-rrm-reader.h"

G_DEFINE_QUARK (bl-rrm-error-quark, bl_rrm_error)

#define KEY_MAX 64

typedef enum
{
  KIND_MEMORY,
  KIND_CPU,
  KIND_GRAPHICS,
  KIND_NODES,
  KIND_FPS,
  KIND_RENDEZVOUS,
  KIND_REGISTRY,
  KIND_BS_OBJECTS,
  KIND_BEACONS,
  N_KINDS,
} Kind;

static const struct
{
  const char *key;
  Kind        kind;
} live_keys[] = {
  { "channelsystemmemoryusage", KIND_MEMORY },
  { "systemmemoryusage", KIND_MEMORY },
  { "memoryusage", KIND_MEMORY },
  { "channelcpuusage", KIND_CPU },
  { "cpuusage", KIND_CPU },
  { "channelgraphicsmemoryusage", KIND_GRAPHICS },
  { "graphicsmemoryusage", KIND_GRAPHICS },
  { "channelgraphmetrics", KIND_NODES },
  { "graphmetrics", KIND_NODES },
  { "scenegraphmetrics", KIND_NODES },
  { "graphicsrenderingframerate", KIND_FPS },
  { "renderingframerate", KIND_FPS },
  { "framerate", KIND_FPS },
  { "sgrendezvous", KIND_RENDEZVOUS },
  { "rendezvous", KIND_RENDEZVOUS },
  { "registryusage", KIND_REGISTRY },
  { "channelregistryusage", KIND_REGISTRY },
  { "bsobjects", KIND_BS_OBJECTS },
  { "brightscriptobjects", KIND_BS_OBJECTS },
  { "fwbeacons", KIND_BEACONS },
  { "beacons", KIND_BEACONS },
};

/* The value members of each kind of point, in series order from base. */
typedef struct
{
  BlSeriesId   base;
  guint        n_fields;
  const char  *fields[6][4];   /* accepted (normalised) names per field */
  const char  *detail;         /* the member holding the detail list */
  BlDetailKind detail_kind;
} KindInfo;

static const KindInfo kinds[N_KINDS] = {
  [KIND_MEMORY] = { BL_SERIES_MEMORY_USED, 6,
                    { { "used" }, { "resident" }, { "swap" }, { "anon", "anonymous" },
                      { "file", "filebacked" }, { "shared" } }, NULL, 0 },
  [KIND_CPU] = { BL_SERIES_CPU_TOTAL, 3,
                 { { "total" }, { "user" }, { "sys", "system", "kernel" } }, NULL, 0 },
  [KIND_GRAPHICS] = { BL_SERIES_GRAPHICS_TEXTURE, 2,
                      { { "texture" }, { "system" } }, "bitmaps", BL_DETAIL_BITMAPS },
  [KIND_NODES] = { BL_SERIES_NODES_TOTAL, 2,
                   { { "totalnodes" }, { "totalmemory" } }, "nodes", BL_DETAIL_NODES },
  [KIND_FPS] = { BL_SERIES_FPS, 1, { { "fps", "framerate" } }, NULL, 0 },
  [KIND_RENDEZVOUS] = { BL_SERIES_RENDEZVOUS_COUNT, 3,
                        { { "count" }, { "totaltime" }, { "dropcount", "drops", "dropped" } },
                        "items", BL_DETAIL_RENDEZVOUS },
  [KIND_REGISTRY] = { BL_SERIES_REGISTRY_USED, 1, { { "used" } }, "sections",
                      BL_DETAIL_REGISTRY },
  [KIND_BS_OBJECTS] = { BL_SERIES_BS_OBJECTS_COUNT, 0, { { NULL } }, "groups",
                        BL_DETAIL_BS_OBJECTS },
  [KIND_BEACONS] = { 0, 0, { { NULL } }, NULL, 0 },
};

typedef struct
{
  const char *name;
  guint       first;
  guint       n;
} TmpSection;

typedef struct
{
  const char *name;
  const char *id;
  gint64      count;
  gint64      memory;
  gboolean    has_count;
  gboolean    has_memory;
  guint       first;
  guint       n;
} TmpGroup;

typedef struct
{
  BlJsonReader *r;
  BlSession    *session;
  GArray       *bitmaps;     /* BlBitmap */
  GArray       *node_types;  /* BlNodeType */
  GArray       *items;       /* BlRendezvousItem */
  GArray       *sections;    /* TmpSection */
  GArray       *keys;        /* const char * (interned) */
  GArray       *groups;      /* TmpGroup */
  GArray       *objects;     /* BlBsObject */
  guint         points_without_time;
  guint         beacons_without_name;
  gboolean      saw_session;
} Ctx;

/* ---- helpers ------------------------------------------------------------ */

static void
normalize_key (const char *s,
               char        out[KEY_MAX])
{
  gsize j = 0;

  for (; *s && j < KEY_MAX - 1; s++)
    {
      char c = *s;

      if (c >= 'a' && c <= 'z')
        out[j++] = c;
      else if (c >= 'A' && c <= 'Z')
        out[j++] = c - 'A' + 'a';
      else if (c >= '0' && c <= '9')
        out[j++] = c;
    }
  out[j] = '\0';
}

static const char *
describe_token (BlJsonToken token)
{
  switch (token)
    {
    case BL_JSON_TOKEN_BEGIN_OBJECT:
      return _("an object");
    case BL_JSON_TOKEN_BEGIN_ARRAY:
      return _("an array");
    case BL_JSON_TOKEN_STRING:
      return _("a string");
    case BL_JSON_TOKEN_NUMBER:
      return _("a number");
    case BL_JSON_TOKEN_TRUE:
    case BL_JSON_TOKEN_FALSE:
      return _("a boolean");
    case BL_JSON_TOKEN_NULL:
      return _("null");
    case BL_JSON_TOKEN_ERROR:
    case BL_JSON_TOKEN_END:
    case BL_JSON_TOKEN_END_OBJECT:
    case BL_JSON_TOKEN_END_ARRAY:
    case BL_JSON_TOKEN_MEMBER:
    default:
      return _("something else");
    }
}

static gboolean
type_error (Ctx         *c,
            BlJsonToken  found,
            const char  *expected,
            GError     **error)
{
  g_autofree char *location = bl_json_reader_dup_location (c->r);

  g_set_error (error, BL_RRM_ERROR, BL_RRM_ERROR_TYPE,
               _("Expected %s at %s, but found %s."),
               expected, location, describe_token (found));
  return FALSE;
}

/* After a MEMBER token: reads a number or null. */
static gboolean
read_number (Ctx       *c,
             double    *value,
             gint64    *ivalue,
             gboolean  *present,
             GError   **error)
{
  BlJsonToken token = bl_json_reader_next (c->r, error);

  switch (token)
    {
    case BL_JSON_TOKEN_ERROR:
      return FALSE;
    case BL_JSON_TOKEN_NUMBER:
      *present = TRUE;
      if (value != NULL)
        *value = bl_json_reader_get_double (c->r);
      if (ivalue != NULL)
        *ivalue = bl_json_reader_get_int (c->r);
      return TRUE;
    case BL_JSON_TOKEN_NULL:
      *present = FALSE;
      return TRUE;
    case BL_JSON_TOKEN_END:
    case BL_JSON_TOKEN_BEGIN_OBJECT:
    case BL_JSON_TOKEN_END_OBJECT:
    case BL_JSON_TOKEN_BEGIN_ARRAY:
    case BL_JSON_TOKEN_END_ARRAY:
    case BL_JSON_TOKEN_MEMBER:
    case BL_JSON_TOKEN_STRING:
    case BL_JSON_TOKEN_TRUE:
    case BL_JSON_TOKEN_FALSE:
    default:
      return type_error (c, token, _("a number or null"), error);
    }
}

/* After a MEMBER token: an integer or null (-1). */
static gboolean
read_int (Ctx      *c,
          gint64   *value,
          GError  **error)
{
  gboolean present = FALSE;

  if (!read_number (c, NULL, value, &present, error))
    return FALSE;
  if (!present)
    *value = -1;
  return TRUE;
}

/* After a MEMBER token: a string (numbers are accepted and written out), or
 * null (NULL). */
static gboolean
read_text (Ctx     *c,
           char   **text,
           GError **error)
{
  BlJsonToken token = bl_json_reader_next (c->r, error);

  switch (token)
    {
    case BL_JSON_TOKEN_ERROR:
      return FALSE;
    case BL_JSON_TOKEN_STRING:
      g_free (*text);
      *text = g_strdup (bl_json_reader_get_string (c->r, NULL));
      return TRUE;
    case BL_JSON_TOKEN_NUMBER:
      {
        GString *s = g_string_new (NULL);

        if (bl_json_reader_is_integral (c->r))
          g_string_append_printf (s, "%" G_GINT64_FORMAT, bl_json_reader_get_int (c->r));
        else
          bl_session_append_number (s, bl_json_reader_get_double (c->r));
        g_free (*text);
        *text = g_string_free (s, FALSE);
      }
      return TRUE;
    case BL_JSON_TOKEN_NULL:
      return TRUE;
    case BL_JSON_TOKEN_END:
    case BL_JSON_TOKEN_BEGIN_OBJECT:
    case BL_JSON_TOKEN_END_OBJECT:
    case BL_JSON_TOKEN_BEGIN_ARRAY:
    case BL_JSON_TOKEN_END_ARRAY:
    case BL_JSON_TOKEN_MEMBER:
    case BL_JSON_TOKEN_TRUE:
    case BL_JSON_TOKEN_FALSE:
    default:
      return type_error (c, token, _("a string or null"), error);
    }
}

/* After a MEMBER token: like read_text(), but interned in the session
 * (detail lists repeat the same names in every sample). */
static gboolean
read_interned (Ctx         *c,
               const char **text,
               GError     **error)
{
  BlJsonToken token = bl_json_reader_next (c->r, error);

  if (token == BL_JSON_TOKEN_STRING)
    {
      *text = bl_session_intern (c->session, bl_json_reader_get_string (c->r, NULL));
      return TRUE;
    }
  if (token == BL_JSON_TOKEN_NUMBER)
    {
      GString *s = g_string_new (NULL);

      bl_session_append_number (s, bl_json_reader_get_double (c->r));
      *text = bl_session_intern (c->session, s->str);
      g_string_free (s, TRUE);
      return TRUE;
    }
  if (token == BL_JSON_TOKEN_NULL)
    return TRUE;
  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  return type_error (c, token, _("a string or null"), error);
}

/* After a MEMBER token: *is_open is TRUE if an object (or array, when
 * @array) begins, FALSE for null. */
static gboolean
begin_container (Ctx       *c,
                 gboolean   array,
                 gboolean  *is_open,
                 GError   **error)
{
  BlJsonToken token = bl_json_reader_next (c->r, error);

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token == BL_JSON_TOKEN_NULL)
    {
      *is_open = FALSE;
      return TRUE;
    }
  if (token == (array ? BL_JSON_TOKEN_BEGIN_ARRAY : BL_JSON_TOKEN_BEGIN_OBJECT))
    {
      *is_open = TRUE;
      return TRUE;
    }
  return type_error (c, token, array ? _("an array or null") : _("an object or null"), error);
}

/* Inside an array: the next element is an object (TRUE, *open), null
 * (skipped), or the end of the array (TRUE, !*open, *done). */
static gboolean
next_object_in_array (Ctx       *c,
                      gboolean  *done,
                      GError   **error)
{
  for (;;)
    {
      BlJsonToken token = bl_json_reader_next (c->r, error);

      switch (token)
        {
        case BL_JSON_TOKEN_ERROR:
          return FALSE;
        case BL_JSON_TOKEN_END_ARRAY:
          *done = TRUE;
          return TRUE;
        case BL_JSON_TOKEN_BEGIN_OBJECT:
          *done = FALSE;
          return TRUE;
        case BL_JSON_TOKEN_NULL:
          continue;
        case BL_JSON_TOKEN_END:
        case BL_JSON_TOKEN_END_OBJECT:
        case BL_JSON_TOKEN_BEGIN_ARRAY:
        case BL_JSON_TOKEN_MEMBER:
        case BL_JSON_TOKEN_STRING:
        case BL_JSON_TOKEN_NUMBER:
        case BL_JSON_TOKEN_TRUE:
        case BL_JSON_TOKEN_FALSE:
        default:
          return type_error (c, token, _("an object or null"), error);
        }
    }
}

/* Reads the next member of the current object: TRUE with key set, or TRUE
 * with *done at the end of the object. */
static gboolean
next_member (Ctx       *c,
             char       key[KEY_MAX],
             gboolean  *done,
             GError   **error)
{
  BlJsonToken token = bl_json_reader_next (c->r, error);

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token == BL_JSON_TOKEN_END_OBJECT)
    {
      *done = TRUE;
      return TRUE;
    }
  g_assert (token == BL_JSON_TOKEN_MEMBER);
  normalize_key (bl_json_reader_get_string (c->r, NULL), key);
  *done = FALSE;
  return TRUE;
}

#define KEY_IS(k) (strcmp (key, (k)) == 0)

/* ---- device, channel, metadata, static ---------------------------------- */

static gboolean
parse_info_object (Ctx     *c,
                   int      which,
                   GError **error)
{
  BlSessionInfo *info = bl_session_get_info_mutable (c->session);
  char key[KEY_MAX];
  gboolean open, done;

  if (!begin_container (c, FALSE, &open, error))
    return FALSE;
  if (!open)
    return TRUE;

  for (;;)
    {
      gboolean ok = TRUE;

      if (!next_member (c, key, &done, error))
        return FALSE;
      if (done)
        return TRUE;

      if (which == 0)   /* device */
        {
          if (KEY_IS ("devicename") || KEY_IS ("name") || KEY_IS ("friendlyname"))
            ok = read_text (c, &info->device_name, error);
          else if (KEY_IS ("modelnumber") || KEY_IS ("model"))
            ok = read_text (c, &info->model_number, error);
          else if (KEY_IS ("serialnumber") || KEY_IS ("serial"))
            ok = read_text (c, &info->serial_number, error);
          else if (KEY_IS ("softwareversion"))
            ok = read_text (c, &info->software_version, error);
          else if (KEY_IS ("softwarebuild"))
            {
              g_autofree char *text = NULL;

              ok = read_text (c, &text, error);
              if (ok && text != NULL)
                info->software_build = g_ascii_strtoll (text, NULL, 10);
            }
          else
            ok = bl_json_reader_skip_value (c->r, error);
        }
      else if (which == 1)   /* channel */
        {
          if (KEY_IS ("id") || KEY_IS ("channelid"))
            ok = read_text (c, &info->channel_id, error);
          else if (KEY_IS ("name") || KEY_IS ("channelname"))
            ok = read_text (c, &info->channel_name, error);
          else if (KEY_IS ("version") || KEY_IS ("channelversion"))
            ok = read_text (c, &info->channel_version, error);
          else
            ok = bl_json_reader_skip_value (c->r, error);
        }
      else if (which == 2)   /* metadata */
        {
          gboolean present = FALSE;
          gint64 v = 0;

          if (KEY_IS ("uuid") || KEY_IS ("id"))
            ok = read_text (c, &info->uuid, error);
          else if (KEY_IS ("createdat"))
            {
              ok = read_number (c, NULL, &v, &present, error);
              info->created_at_ms = present ? v : 0;
            }
          else if (KEY_IS ("startedat"))
            {
              ok = read_number (c, NULL, &v, &present, error);
              info->started_at_ms = present ? v : 0;
            }
          else if (KEY_IS ("version"))
            ok = read_text (c, &info->file_version, error);
          else
            ok = bl_json_reader_skip_value (c->r, error);
        }
      else   /* static */
        {
          gboolean present = FALSE;
          gint64 v = 0;

          if (KEY_IS ("foregroundlimit"))
            {
              ok = read_number (c, NULL, &v, &present, error);
              info->has_foreground_limit = present;
              info->foreground_limit = present ? v : 0;
            }
          else if (KEY_IS ("backgroundlimit"))
            {
              ok = read_number (c, NULL, &v, &present, error);
              info->has_background_limit = present;
              info->background_limit = present ? v : 0;
            }
          else
            ok = bl_json_reader_skip_value (c->r, error);
        }

      if (!ok)
        return FALSE;
    }
}

/* ---- detail lists --------------------------------------------------------- */

static gboolean
parse_bitmap (Ctx     *c,
              GError **error)
{
  BlBitmap b = { "", -1, -1, -1, -1 };
  char key[KEY_MAX];
  gboolean done;

  for (;;)
    {
      gboolean ok;

      if (!next_member (c, key, &done, error))
        return FALSE;
      if (done)
        break;
      if (KEY_IS ("name") || KEY_IS ("url"))
        ok = read_interned (c, &b.name, error);
      else if (KEY_IS ("size"))
        ok = read_int (c, &b.size, error);
      else if (KEY_IS ("width"))
        ok = read_int (c, &b.width, error);
      else if (KEY_IS ("height"))
        ok = read_int (c, &b.height, error);
      else if (KEY_IS ("bpp"))
        ok = read_int (c, &b.bpp, error);
      else
        ok = bl_json_reader_skip_value (c->r, error);
      if (!ok)
        return FALSE;
    }

  g_array_append_val (c->bitmaps, b);
  return TRUE;
}

static gboolean
parse_node_type (Ctx     *c,
                 GError **error)
{
  BlNodeType n = { "", -1, -1 };
  char key[KEY_MAX];
  gboolean done;

  for (;;)
    {
      gboolean ok;

      if (!next_member (c, key, &done, error))
        return FALSE;
      if (done)
        break;
      if (KEY_IS ("name") || KEY_IS ("type"))
        ok = read_interned (c, &n.name, error);
      else if (KEY_IS ("count"))
        ok = read_int (c, &n.count, error);
      else if (KEY_IS ("memory"))
        ok = read_int (c, &n.memory, error);
      else
        ok = bl_json_reader_skip_value (c->r, error);
      if (!ok)
        return FALSE;
    }

  g_array_append_val (c->node_types, n);
  return TRUE;
}

static gboolean
parse_rendezvous_item (Ctx     *c,
                       GError **error)
{
  BlRendezvousItem item = { -1, NAN, NAN, -1, "" };
  char key[KEY_MAX];
  gboolean done;

  for (;;)
    {
      gboolean ok;
      gboolean present = FALSE;

      if (!next_member (c, key, &done, error))
        return FALSE;
      if (done)
        break;
      if (KEY_IS ("name"))
        ok = read_interned (c, &item.name, error);
      else if (KEY_IS ("id"))
        ok = read_int (c, &item.id, error);
      else if (KEY_IS ("start"))
        {
          ok = read_number (c, &item.start_ms, NULL, &present, error);
          if (!present)
            item.start_ms = NAN;
        }
      else if (KEY_IS ("end"))
        {
          ok = read_number (c, &item.end_ms, NULL, &present, error);
          if (!present)
            item.end_ms = NAN;
        }
      else if (KEY_IS ("linenumber") || KEY_IS ("line"))
        ok = read_int (c, &item.line, error);
      else
        ok = bl_json_reader_skip_value (c->r, error);
      if (!ok)
        return FALSE;
    }

  g_array_append_val (c->items, item);
  return TRUE;
}

/* A registry item: a string key, or an object holding "key" (or "name"). */
static gboolean
parse_registry_items (Ctx        *c,
                      TmpSection *section,
                      GError    **error)
{
  gboolean open;

  if (!begin_container (c, TRUE, &open, error))
    return FALSE;
  if (!open)
    return TRUE;

  for (;;)
    {
      BlJsonToken token = bl_json_reader_next (c->r, error);
      const char *interned;

      switch (token)
        {
        case BL_JSON_TOKEN_ERROR:
          return FALSE;
        case BL_JSON_TOKEN_END_ARRAY:
          return TRUE;
        case BL_JSON_TOKEN_NULL:
          continue;
        case BL_JSON_TOKEN_STRING:
          interned = bl_session_intern (c->session, bl_json_reader_get_string (c->r, NULL));
          g_array_append_val (c->keys, interned);
          section->n++;
          continue;
        case BL_JSON_TOKEN_BEGIN_OBJECT:
          {
            g_autofree char *name = NULL;
            char key[KEY_MAX];
            gboolean done;

            for (;;)
              {
                gboolean ok;

                if (!next_member (c, key, &done, error))
                  return FALSE;
                if (done)
                  break;
                if (KEY_IS ("key") || (KEY_IS ("name") && name == NULL))
                  ok = read_text (c, &name, error);
                else
                  ok = bl_json_reader_skip_value (c->r, error);
                if (!ok)
                  return FALSE;
              }
            interned = bl_session_intern (c->session, name);
            g_array_append_val (c->keys, interned);
            section->n++;
          }
          continue;
        case BL_JSON_TOKEN_END:
        case BL_JSON_TOKEN_END_OBJECT:
        case BL_JSON_TOKEN_BEGIN_ARRAY:
        case BL_JSON_TOKEN_MEMBER:
        case BL_JSON_TOKEN_NUMBER:
        case BL_JSON_TOKEN_TRUE:
        case BL_JSON_TOKEN_FALSE:
        default:
          return type_error (c, token, _("a string, an object or null"), error);
        }
    }
}

static gboolean
parse_registry_section (Ctx     *c,
                        GError **error)
{
  TmpSection section = { "", c->keys->len, 0 };
  g_autofree char *name = NULL;
  char key[KEY_MAX];
  gboolean done;

  for (;;)
    {
      gboolean ok;

      if (!next_member (c, key, &done, error))
        return FALSE;
      if (done)
        break;
      if (KEY_IS ("name"))
        ok = read_text (c, &name, error);
      else if (KEY_IS ("items") || KEY_IS ("keys"))
        ok = parse_registry_items (c, &section, error);
      else
        ok = bl_json_reader_skip_value (c->r, error);
      if (!ok)
        return FALSE;
    }

  section.name = bl_session_intern (c->session, name);
  g_array_append_val (c->sections, section);
  return TRUE;
}

static gboolean
parse_bs_object (Ctx     *c,
                 GError **error)
{
  BlBsObject o = { "", -1, -1 };
  char key[KEY_MAX];
  gboolean done;

  for (;;)
    {
      gboolean ok;

      if (!next_member (c, key, &done, error))
        return FALSE;
      if (done)
        break;
      if (KEY_IS ("name") || KEY_IS ("type"))
        ok = read_interned (c, &o.name, error);
      else if (KEY_IS ("count"))
        ok = read_int (c, &o.count, error);
      else if (KEY_IS ("memory"))
        ok = read_int (c, &o.memory, error);
      else
        ok = bl_json_reader_skip_value (c->r, error);
      if (!ok)
        return FALSE;
    }

  g_array_append_val (c->objects, o);
  return TRUE;
}

static gboolean parse_object_array (Ctx *c, gboolean (*parse) (Ctx *, GError **), GError **error);

static gboolean
parse_bs_group (Ctx     *c,
                GError **error)
{
  TmpGroup group = { "", "", -1, -1, FALSE, FALSE, c->objects->len, 0 };
  g_autofree char *name = NULL;
  g_autofree char *id = NULL;
  char key[KEY_MAX];
  gboolean done;

  for (;;)
    {
      gboolean ok;

      if (!next_member (c, key, &done, error))
        return FALSE;
      if (done)
        break;
      if (KEY_IS ("name"))
        ok = read_text (c, &name, error);
      else if (KEY_IS ("id"))
        ok = read_text (c, &id, error);
      else if (KEY_IS ("objectscount") || KEY_IS ("count"))
        ok = read_number (c, NULL, &group.count, &group.has_count, error);
      else if (KEY_IS ("objectsmemory") || KEY_IS ("memory"))
        ok = read_number (c, NULL, &group.memory, &group.has_memory, error);
      else if (KEY_IS ("objects"))
        ok = parse_object_array (c, parse_bs_object, error);
      else
        ok = bl_json_reader_skip_value (c->r, error);
      if (!ok)
        return FALSE;
    }

  if (!group.has_count)
    group.count = -1;
  if (!group.has_memory)
    group.memory = -1;
  group.name = bl_session_intern (c->session, name);
  group.id = bl_session_intern (c->session, id);
  group.n = c->objects->len - group.first;
  g_array_append_val (c->groups, group);
  return TRUE;
}

/* After a MEMBER token: an array of objects (nulls skipped), or null. */
static gboolean
parse_object_array (Ctx       *c,
                    gboolean (*parse) (Ctx *, GError **),
                    GError   **error)
{
  gboolean open, done;

  if (!begin_container (c, TRUE, &open, error))
    return FALSE;
  if (!open)
    return TRUE;

  for (;;)
    {
      if (!next_object_in_array (c, &done, error))
        return FALSE;
      if (done)
        return TRUE;
      if (!parse (c, error))
        return FALSE;
    }
}

/* ---- points ---------------------------------------------------------------- */

static int
field_slot (const KindInfo *k,
            const char     *key)
{
  for (guint f = 0; f < k->n_fields; f++)
    for (guint a = 0; a < G_N_ELEMENTS (k->fields[f]) && k->fields[f][a]; a++)
      if (strcmp (k->fields[f][a], key) == 0)
        return f;
  return -1;
}

static void
commit_details (Ctx    *c,
                Kind    kind,
                gint64  t)
{
  bl_session_begin_detail (c->session, kinds[kind].detail_kind, t);

  switch (kind)
    {
    case KIND_GRAPHICS:
      for (guint i = 0; i < c->bitmaps->len; i++)
        bl_session_add_bitmap (c->session, &g_array_index (c->bitmaps, BlBitmap, i));
      break;
    case KIND_NODES:
      for (guint i = 0; i < c->node_types->len; i++)
        bl_session_add_node_type (c->session, &g_array_index (c->node_types, BlNodeType, i));
      break;
    case KIND_RENDEZVOUS:
      for (guint i = 0; i < c->items->len; i++)
        bl_session_add_rendezvous_item (c->session,
                                        &g_array_index (c->items, BlRendezvousItem, i));
      break;
    case KIND_REGISTRY:
      for (guint i = 0; i < c->sections->len; i++)
        {
          const TmpSection *s = &g_array_index (c->sections, TmpSection, i);

          bl_session_add_registry_section (c->session, s->name);
          for (guint k = 0; k < s->n; k++)
            bl_session_add_registry_key (c->session,
                                         g_array_index (c->keys, const char *, s->first + k));
        }
      break;
    case KIND_BS_OBJECTS:
      for (guint i = 0; i < c->groups->len; i++)
        {
          const TmpGroup *g = &g_array_index (c->groups, TmpGroup, i);

          bl_session_add_bs_group (c->session, g->name, g->id, g->count, g->memory);
          for (guint k = 0; k < g->n; k++)
            bl_session_add_bs_object (c->session,
                                      &g_array_index (c->objects, BlBsObject, g->first + k));
        }
      break;
    case KIND_MEMORY:
    case KIND_CPU:
    case KIND_FPS:
    case KIND_BEACONS:
    case N_KINDS:
    default:
      g_assert_not_reached ();
    }
}

/* bs_objects_count and _memory: sums over the groups with a value; an
 * empty group list sums to 0; no groups member, or only nulls, is a gap. */
static void
commit_bs_sums (Ctx      *c,
                gint64    t,
                gboolean  has_groups)
{
  double count = 0, memory = 0;
  gboolean any_count = has_groups && c->groups->len == 0;
  gboolean any_memory = any_count;

  for (guint i = 0; i < c->groups->len; i++)
    {
      const TmpGroup *g = &g_array_index (c->groups, TmpGroup, i);

      if (g->has_count)
        {
          count += (double) g->count;
          any_count = TRUE;
        }
      if (g->has_memory)
        {
          memory += (double) g->memory;
          any_memory = TRUE;
        }
    }

  bl_session_add_sample (c->session, BL_SERIES_BS_OBJECTS_COUNT, t, count, any_count);
  bl_session_add_sample (c->session, BL_SERIES_BS_OBJECTS_MEMORY, t, memory, any_memory);
}

/* After BEGIN_OBJECT of one point. */
static gboolean
parse_point (Ctx     *c,
             Kind     kind,
             GError **error)
{
  const KindInfo *k = &kinds[kind];
  double values[6] = { 0 };
  gboolean present[6] = { FALSE };
  gint64 t = 0;
  gboolean has_t = FALSE;
  gboolean has_detail = FALSE;
  char key[KEY_MAX];
  gboolean done;

  g_array_set_size (c->bitmaps, 0);
  g_array_set_size (c->node_types, 0);
  g_array_set_size (c->items, 0);
  g_array_set_size (c->sections, 0);
  g_array_set_size (c->keys, 0);
  g_array_set_size (c->groups, 0);
  g_array_set_size (c->objects, 0);

  for (;;)
    {
      gboolean ok;
      int slot;

      if (!next_member (c, key, &done, error))
        return FALSE;
      if (done)
        break;

      if (KEY_IS ("timestamp") || KEY_IS ("time"))
        ok = read_number (c, NULL, &t, &has_t, error);
      else if ((slot = field_slot (k, key)) >= 0)
        ok = read_number (c, &values[slot], NULL, &present[slot], error);
      else if (k->detail != NULL && KEY_IS (k->detail))
        {
          gboolean (*parse) (Ctx *, GError **) = NULL;

          switch (kind)
            {
            case KIND_GRAPHICS:
              parse = parse_bitmap;
              break;
            case KIND_NODES:
              parse = parse_node_type;
              break;
            case KIND_RENDEZVOUS:
              parse = parse_rendezvous_item;
              break;
            case KIND_REGISTRY:
              parse = parse_registry_section;
              break;
            case KIND_BS_OBJECTS:
              parse = parse_bs_group;
              break;
            case KIND_MEMORY:
            case KIND_CPU:
            case KIND_FPS:
            case KIND_BEACONS:
            case N_KINDS:
            default:
              g_assert_not_reached ();
            }
          /* null counts as absent */
          ok = parse_object_array (c, parse, error);
          has_detail = ok && bl_json_reader_get_token (c->r) == BL_JSON_TOKEN_END_ARRAY;
        }
      else
        ok = bl_json_reader_skip_value (c->r, error);

      if (!ok)
        return FALSE;
    }

  if (!has_t)
    {
      c->points_without_time++;
      return TRUE;
    }

  for (guint f = 0; f < k->n_fields; f++)
    bl_session_add_sample (c->session, k->base + f, t, values[f], present[f]);
  if (kind == KIND_BS_OBJECTS)
    commit_bs_sums (c, t, has_detail);
  if (has_detail)
    commit_details (c, kind, t);

  return TRUE;
}

static gboolean
parse_beacon (Ctx     *c,
              GError **error)
{
  g_autofree char *name = NULL;
  gint64 t = 0;
  gboolean has_t = FALSE;
  char key[KEY_MAX];
  gboolean done;

  for (;;)
    {
      gboolean ok;

      if (!next_member (c, key, &done, error))
        return FALSE;
      if (done)
        break;
      if ((KEY_IS ("name") || KEY_IS ("event") || KEY_IS ("beacon")) && name == NULL)
        ok = read_text (c, &name, error);
      else if (KEY_IS ("timestamp") || KEY_IS ("time"))
        ok = read_number (c, NULL, &t, &has_t, error);
      else
        ok = bl_json_reader_skip_value (c->r, error);
      if (!ok)
        return FALSE;
    }

  if (name == NULL || !has_t)
    c->beacons_without_name++;
  else
    bl_session_add_beacon (c->session, t, name);
  return TRUE;
}

/* After a MEMBER naming one of the live arrays. */
static gboolean
parse_live_array (Ctx     *c,
                  Kind     kind,
                  GError **error)
{
  gboolean open, done;

  if (!begin_container (c, TRUE, &open, error))
    return FALSE;
  if (!open)
    return TRUE;

  for (;;)
    {
      if (!next_object_in_array (c, &done, error))
        return FALSE;
      if (done)
        return TRUE;
      if (kind == KIND_BEACONS ? !parse_beacon (c, error) : !parse_point (c, kind, error))
        return FALSE;
    }
}

static int
live_kind (const char *key)
{
  for (guint i = 0; i < G_N_ELEMENTS (live_keys); i++)
    if (strcmp (live_keys[i].key, key) == 0)
      return live_keys[i].kind;
  return -1;
}

static gboolean parse_session_object (Ctx *c, gboolean is_live, GError **error);

/* After BEGIN_OBJECT of "live", of a session entry, or of the session. */
static gboolean
parse_session_object (Ctx      *c,
                      gboolean  is_live,
                      GError  **error)
{
  char key[KEY_MAX];
  gboolean done;

  for (;;)
    {
      gboolean ok;
      int kind;

      if (!next_member (c, key, &done, error))
        return FALSE;
      if (done)
        return TRUE;

      if ((kind = live_kind (key)) >= 0)
        ok = parse_live_array (c, kind, error);
      else if (!is_live && KEY_IS ("static"))
        ok = parse_info_object (c, 3, error);
      else if (!is_live && KEY_IS ("live"))
        {
          gboolean open;

          ok = begin_container (c, FALSE, &open, error);
          if (ok && open)
            ok = parse_session_object (c, TRUE, error);
        }
      else
        ok = bl_json_reader_skip_value (c->r, error);

      if (!ok)
        return FALSE;
    }
}

/* After the MEMBER "session". */
static gboolean
parse_session (Ctx     *c,
               GError **error)
{
  BlJsonToken token = bl_json_reader_next (c->r, error);
  gboolean done;

  c->saw_session = TRUE;

  switch (token)
    {
    case BL_JSON_TOKEN_ERROR:
      return FALSE;
    case BL_JSON_TOKEN_NULL:
      return TRUE;
    case BL_JSON_TOKEN_BEGIN_OBJECT:
      return parse_session_object (c, FALSE, error);
    case BL_JSON_TOKEN_BEGIN_ARRAY:
      for (;;)
        {
          if (!next_object_in_array (c, &done, error))
            return FALSE;
          if (done)
            return TRUE;
          if (!parse_session_object (c, FALSE, error))
            return FALSE;
        }
    case BL_JSON_TOKEN_END:
    case BL_JSON_TOKEN_END_OBJECT:
    case BL_JSON_TOKEN_END_ARRAY:
    case BL_JSON_TOKEN_MEMBER:
    case BL_JSON_TOKEN_STRING:
    case BL_JSON_TOKEN_NUMBER:
    case BL_JSON_TOKEN_TRUE:
    case BL_JSON_TOKEN_FALSE:
    default:
      return type_error (c, token, _("an object, an array or null"), error);
    }
}

static gboolean
parse_document (Ctx     *c,
                GError **error)
{
  BlJsonToken token = bl_json_reader_next (c->r, error);
  char key[KEY_MAX];
  gboolean done;

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token != BL_JSON_TOKEN_BEGIN_OBJECT)
    {
      g_set_error (error, BL_RRM_ERROR, BL_RRM_ERROR_NOT_SESSION,
                   _("This JSON is not a Roku Resource Monitor session: the top level is %s, "
                     "not an object."), describe_token (token));
      return FALSE;
    }

  for (;;)
    {
      gboolean ok;

      if (!next_member (c, key, &done, error))
        return FALSE;
      if (done)
        break;

      if (KEY_IS ("device"))
        ok = parse_info_object (c, 0, error);
      else if (KEY_IS ("channel") || KEY_IS ("app"))
        ok = parse_info_object (c, 1, error);
      else if (KEY_IS ("metadata"))
        ok = parse_info_object (c, 2, error);
      else if (KEY_IS ("session"))
        ok = parse_session (c, error);
      else
        ok = bl_json_reader_skip_value (c->r, error);

      if (!ok)
        return FALSE;
    }

  return bl_json_reader_next (c->r, error) == BL_JSON_TOKEN_END;
}

static gboolean
session_is_empty (BlSession *session)
{
  guint n;

  for (BlSeriesId id = 0; id < BL_N_SERIES; id++)
    {
      bl_session_get_series (session, id, &n);
      if (n > 0)
        return FALSE;
    }
  bl_session_get_beacons (session, &n);
  if (n > 0)
    return FALSE;
  for (guint kind = 0; kind < BL_N_DETAILS; kind++)
    if (bl_session_get_n_details (session, kind) > 0)
      return FALSE;
  return TRUE;
}

static BlSession *
read_session (BlJsonReader  *reader,
              GError       **error)
{
  g_autoptr(BlSession) session = bl_session_new ();
  g_autoptr(GError) local_error = NULL;
  Ctx c = { 0 };
  gboolean ok;

  c.r = reader;
  c.session = session;
  c.bitmaps = g_array_new (FALSE, FALSE, sizeof (BlBitmap));
  c.node_types = g_array_new (FALSE, FALSE, sizeof (BlNodeType));
  c.items = g_array_new (FALSE, FALSE, sizeof (BlRendezvousItem));
  c.sections = g_array_new (FALSE, FALSE, sizeof (TmpSection));
  c.keys = g_array_new (FALSE, FALSE, sizeof (const char *));
  c.groups = g_array_new (FALSE, FALSE, sizeof (TmpGroup));
  c.objects = g_array_new (FALSE, FALSE, sizeof (BlBsObject));

  ok = parse_document (&c, &local_error);

  g_array_unref (c.bitmaps);
  g_array_unref (c.node_types);
  g_array_unref (c.items);
  g_array_unref (c.sections);
  g_array_unref (c.keys);
  g_array_unref (c.groups);
  g_array_unref (c.objects);

  if (!ok)
    {
      if (g_error_matches (local_error, BL_JSON_ERROR, BL_JSON_ERROR_TRUNCATED) &&
          bl_json_reader_get_offset (reader) > 0)
        {
          g_autofree char *reason =
            g_strdup_printf (_("The session is incomplete: %s Every complete data point "
                               "before that is shown."), local_error->message);

          bl_session_set_incomplete (session, reason);
        }
      else if (local_error->domain == BL_JSON_ERROR)
        {
          g_set_error_literal (error, BL_RRM_ERROR, BL_RRM_ERROR_SYNTAX, local_error->message);
          return NULL;
        }
      else
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
    }

  if (c.points_without_time > 0)
    {
      g_autofree char *warning =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%u data point without a timestamp was ignored.",
                                      "%u data points without a timestamp were ignored.",
                                      c.points_without_time),
                         c.points_without_time);

      bl_session_add_warning (session, warning);
    }
  if (c.beacons_without_name > 0)
    {
      g_autofree char *warning =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%u beacon without a name or timestamp was ignored.",
                                      "%u beacons without a name or timestamp were ignored.",
                                      c.beacons_without_name),
                         c.beacons_without_name);

      bl_session_add_warning (session, warning);
    }

  bl_session_finish (session);

  /* nothing to show is not a session dated 1970 */
  if (session_is_empty (session))
    {
      if (local_error != NULL)
        {
          /* one sentence: the reader's, without its full stop, and why it matters */
          g_autofree char *where = g_strdup (local_error->message);
          gsize len = strlen (where);

          if (len > 0 && where[len - 1] == '.')
            where[len - 1] = '\0';
          g_set_error (error, BL_RRM_ERROR, BL_RRM_ERROR_EMPTY,
                       _("%s, before the session’s first data point."), where);
        }
      else if (c.points_without_time > 0 || bl_session_get_warning (session) != NULL)
        g_set_error_literal (error, BL_RRM_ERROR, BL_RRM_ERROR_EMPTY,
                             _("None of the session’s data points has a usable timestamp: "
                               "each is missing or outside the years 1 to 9999."));
      else
        g_set_error_literal (error, BL_RRM_ERROR, BL_RRM_ERROR_EMPTY,
                             _("The session has no data points and no beacons."));
      return NULL;
    }

  return g_steal_pointer (&session);
}

/**
 * bl_rrm_read_stream:
 *
 * Returns: (transfer full): the session, or %NULL with @error set
 */
BlSession *
bl_rrm_read_stream (GInputStream   *stream,
                    guint64         total,
                    BlProgressFunc  progress,
                    gpointer        progress_data,
                    GCancellable   *cancellable,
                    GError        **error)
{
  g_autoptr(BlJsonReader) reader = NULL;
  BlSession *session;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);

  reader = bl_json_reader_new_for_stream (stream, total, cancellable, progress, progress_data);
  session = read_session (reader, error);
  if (session != NULL && progress != NULL)
    progress (total, total, progress_data);

  return session;
}

/**
 * bl_rrm_read_memory:
 *
 * Returns: (transfer full): the session, or %NULL with @error set
 */
BlSession *
bl_rrm_read_memory (const guint8  *data,
                    gsize          len,
                    GError       **error)
{
  g_autoptr(BlJsonReader) reader = bl_json_reader_new_for_data (data, len);

  return read_session (reader, error);
}

gboolean
bl_rrm_detect (const guint8 *head,
               gsize         len)
{
  g_autoptr(BlJsonReader) reader = NULL;
  gsize skip = 0;
  guint found = 0;
  gboolean session = FALSE;

  /* a UTF-8 byte order mark */
  if (len >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF)
    skip = 3;

  reader = bl_json_reader_new_for_data (head + skip, len - skip);
  if (bl_json_reader_next (reader, NULL) != BL_JSON_TOKEN_BEGIN_OBJECT)
    return FALSE;

  for (;;)
    {
      char key[KEY_MAX];

      if (bl_json_reader_next (reader, NULL) != BL_JSON_TOKEN_MEMBER)
        break;
      normalize_key (bl_json_reader_get_string (reader, NULL), key);
      if (KEY_IS ("session"))
        session = TRUE;
      else if (KEY_IS ("device") || KEY_IS ("channel") || KEY_IS ("metadata"))
        found++;
      if (session || found >= 2)
        return TRUE;
      if (!bl_json_reader_skip_value (reader, NULL))
        break;
    }

  return FALSE;
}
