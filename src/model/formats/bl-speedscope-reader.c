/* bl-speedscope-reader.c — speedscope's JSON file format
 *
 * The document is read token by token (BlJsonReader), never as a tree.
 * Its members may come in any order, and profiles may come before the
 * shared frames they index, so each profile is first gathered as a trie
 * of frame indexes (one node per distinct stack prefix) with a value per
 * node; when the document is complete, every trie becomes a thread of the
 * call tree. Consecutive samples usually share most of their stack, so a
 * sample walks the trie only from where it differs from the one before.
 *
 * An unnamed profile is named after the file, as speedscope names it
 * (else after the document).
 *
 * Units: nanoseconds … seconds become the metric time-ns, bytes become
 * alloc-bytes, and none becomes samples when every weight is 1, else
 * weight. Evented profiles keep their time order as spans.
 *
 * A file cut short is not an error when something in it is complete: every
 * finished profile, and the complete samples (with their weights) or events
 * of the one being read, keep the nodes whose frames are known; the profile
 * is marked incomplete with the byte and line where the input ended.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-speedscope"

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "bl-big-array-private.h"
#include "bl-json-reader.h"
#include "bl-profile-private.h"
#include "bl-speedscope-reader.h"
#include "bl-speedscope-writer.h"

G_DEFINE_QUARK (bl-speedscope-error-quark, bl_speedscope_error)

typedef enum
{
  UNIT_UNSET,
  UNIT_NONE,
  UNIT_NANOSECONDS,
  UNIT_MICROSECONDS,
  UNIT_MILLISECONDS,
  UNIT_SECONDS,
  UNIT_BYTES,
} Unit;

static const struct {
  const char *name;
  Unit        unit;
  double      factor;   /* to the metric's base unit */
} units[] = {
  { "none", UNIT_NONE, 1 },
  { "nanoseconds", UNIT_NANOSECONDS, 1 },
  { "microseconds", UNIT_MICROSECONDS, 1e3 },
  { "milliseconds", UNIT_MILLISECONDS, 1e6 },
  { "seconds", UNIT_SECONDS, 1e9 },
  { "bytes", UNIT_BYTES, 1 },
};

typedef enum
{
  KIND_UNSET,
  KIND_SAMPLED,
  KIND_EVENTED,
} Kind;

typedef struct
{
  guint32 name;
  guint32 file;
  guint32 line;
  guint32 col;
} SsFrame;

typedef struct
{
  guint32 parent;
  guint32 frame;
  guint32 first_use;   /* the sample or event that made it, for messages */
  guint32 last_child;  /* the child looked up last, tried before the hash (0: none) */
} TrieNode;

/* a child in the trie's hash: one cache line holds the key and the child */
typedef struct
{
  guint32 parent;
  guint32 frame;
  guint32 child;       /* 0: an empty slot (the root is nobody's child) */
} TrieSlot;

typedef struct
{
  double  at;
  guint32 frame;
  gboolean open;
} Event;

/* a time: whole base units, or (in a fractional profile) base units with
 * a fraction */
typedef union
{
  guint64 i;
  double  f;
} SsTime;

typedef struct
{
  guint32 node;
  SsTime  start;
  SsTime  end;
} TrieSpan;

typedef struct
{
  guint      index;
  char      *name;
  Kind       kind;
  Unit       unit;
  const char *unit_name;
  double     factor;
  BlMetricId override;   /* BL_SPEEDSCOPE_METRIC_MEMBER, if it fits the unit */
  gboolean   has_start;
  gboolean   has_end;
  double     start_value;
  double     end_value;

  GArray    *nodes;     /* TrieNode; 0 is the root */
  GArray    *values;    /* guint64 self value per node, in whole base units */
  GArray    *fvalues;   /* double per node instead, when fractional */
  gboolean   fractional; /* a weight or time is not a whole number of base units */
  TrieSlot  *hash;      /* (parent, frame) → child, open addressing */
  gsize      hash_mask;

  gboolean   has_samples;
  gboolean   has_weights;
  gboolean   has_events;
  GArray    *leaves;    /* guint32 per sample */
  GArray    *weights;   /* double per weight */
  GArray    *events;    /* Event */
  /* what the arrays hold without growing (bl_array_push()) */
  guint      nodes_cap, values_cap, leaves_cap, weights_cap, events_cap, spans_cap;

  BlMetricId metric;
  GArray    *spans;     /* TrieSpan */
  SsTime     range_start;
  SsTime     range_end;
  gboolean   has_range;
  guint32    idle_leaf;          /* the leaf of idle samples (G_MAXUINT32: none) */
  guint      n_unknown_events;   /* of a type other than O and C, skipped */
  char      *unknown_event_type; /* the first of them */

  gboolean   finished;   /* finish_profile() succeeded */
  guint      n_samples;  /* what it held, once finished */
  guint      n_events;
} SsProfile;

typedef struct
{
  BlJsonReader *json;
  BlProfile    *profile;
  GArray       *frames;          /* SsFrame */
  gboolean      frames_known;
  gboolean      has_schema;
  gboolean      has_profiles;
  char         *name;
  char         *exporter;
  const char   *file_name;       /* the input's base name, or NULL */
  GPtrArray    *profiles;        /* SsProfile */

  /* the previous sample, for prefix reuse */
  GArray       *prev_frames;
  GArray       *prev_nodes;

  /* the input ended early: keep what is complete and can be named */
  gboolean      salvage;
  guint         n_kept;          /* profiles with something kept */
} Reader;

/* ---- errors ------------------------------------------------------------- */

static gboolean
fail_at (Reader             *reader,
         GError            **error,
         BlSpeedscopeError   code,
         const char         *format,
         ...) G_GNUC_PRINTF (4, 5);

/* "Invalid speedscope profile: <what>, at <location>." */
static gboolean
fail_at (Reader             *reader,
         GError            **error,
         BlSpeedscopeError   code,
         const char         *format,
         ...)
{
  g_autofree char *what = NULL;
  g_autofree char *where = bl_json_reader_dup_location (reader->json);
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, BL_SPEEDSCOPE_ERROR, code,
               _("Invalid speedscope profile: %s, at %s."), what, where);

  return FALSE;
}

static gboolean
fail (GError            **error,
      BlSpeedscopeError   code,
      const char         *format,
      ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (GError            **error,
      BlSpeedscopeError   code,
      const char         *format,
      ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, BL_SPEEDSCOPE_ERROR, code, _("Invalid speedscope profile: %s."), what);

  return FALSE;
}

/* ---- profiles and their tries ------------------------------------------- */

static SsProfile *
ss_profile_new (guint index)
{
  SsProfile *p = g_new0 (SsProfile, 1);
  TrieNode root = { G_MAXUINT32, G_MAXUINT32, 0, 0 };
  guint64 zero = 0;

  p->index = index;
  p->override = BL_METRIC_INVALID;
  p->idle_leaf = G_MAXUINT32;
  p->nodes = g_array_new (FALSE, FALSE, sizeof (TrieNode));
  p->values = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_array_append_val (p->nodes, root);
  g_array_append_val (p->values, zero);
  p->hash_mask = 255;
  p->hash = g_new0 (TrieSlot, p->hash_mask + 1);
  p->leaves = g_array_new (FALSE, FALSE, sizeof (guint32));
  p->weights = g_array_new (FALSE, FALSE, sizeof (double));
  p->events = g_array_new (FALSE, FALSE, sizeof (Event));
  p->spans = g_array_new (FALSE, FALSE, sizeof (TrieSpan));

  return p;
}

static void
ss_profile_free (gpointer data)
{
  SsProfile *p = data;

  g_free (p->name);
  g_free (p->unknown_event_type);
  g_array_unref (p->nodes);
  g_array_unref (p->values);
  g_clear_pointer (&p->fvalues, g_array_unref);
  g_free (p->hash);
  g_array_unref (p->leaves);
  g_array_unref (p->weights);
  g_array_unref (p->events);
  g_array_unref (p->spans);
  g_free (p);
}

static inline gsize
trie_hash (guint32 parent,
           guint32 frame)
{
  guint64 key = (((guint64) parent << 32) | frame) * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  return (gsize) (key ^ (key >> 29));
}

static void
trie_grow (SsProfile *p)
{
  TrieSlot *old = p->hash;
  gsize old_size = p->hash_mask + 1;

  p->hash_mask = old_size * 2 - 1;
  p->hash = g_new0 (TrieSlot, p->hash_mask + 1);
  for (gsize i = 0; i < old_size; i++)
    if (old[i].child != 0)
      {
        gsize pos = trie_hash (old[i].parent, old[i].frame) & p->hash_mask;

        while (p->hash[pos].child != 0)
          pos = (pos + 1) & p->hash_mask;
        p->hash[pos] = old[i];
      }
  g_free (old);
}

static guint32
trie_child (SsProfile *p,
            guint32    parent,
            guint32    frame,
            guint32    use)
{
  TrieNode *nodes = (TrieNode *) (gpointer) p->nodes->data;
  guint32 last = nodes[parent].last_child;
  gsize pos;
  TrieNode node;
  guint64 zero = 0;
  guint32 child;

  /* a stack that differs from the one before mostly goes on the same way */
  if (last != 0 && nodes[last].frame == frame)
    return last;

  pos = trie_hash (parent, frame) & p->hash_mask;
  while (p->hash[pos].child != 0)
    {
      if (p->hash[pos].parent == parent && p->hash[pos].frame == frame)
        {
          child = p->hash[pos].child;
          nodes[parent].last_child = child;
          return child;
        }
      pos = (pos + 1) & p->hash_mask;
    }

  node.parent = parent;
  node.frame = frame;
  node.first_use = use;
  node.last_child = 0;
  BL_ARRAY_PUSH (p->nodes, &p->nodes_cap, TrieNode, node);
  BL_ARRAY_PUSH (p->values, &p->values_cap, guint64, zero);
  child = p->nodes->len - 1;
  p->hash[pos].parent = parent;
  p->hash[pos].frame = frame;
  p->hash[pos].child = child;
  g_array_index (p->nodes, TrieNode, parent).last_child = child;

  /* up to three quarters full: short probes within a cache line or two,
   * and a table small enough to stay partly in cache */
  if ((gsize) p->nodes->len * 4 > (p->hash_mask + 1) * 3)
    trie_grow (p);

  return child;
}

/* ---- reading helpers ---------------------------------------------------- */

/* @what: untranslated (N_()): translating it only when it fails keeps
 * gettext out of the loops over samples and events */
static gboolean
next_is (Reader      *reader,
         BlJsonToken  expected,
         const char  *what,
         GError     **error)
{
  BlJsonToken token = bl_json_reader_next (reader->json, error);

  if G_UNLIKELY (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if G_UNLIKELY (token != expected)
    return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_BAD_VALUE, _("expected %s"), _(what));

  return TRUE;
}

static gboolean
read_string (Reader      *reader,
             char       **out,
             GError     **error)
{
  gsize len;
  const char *str;

  if (!next_is (reader, BL_JSON_TOKEN_STRING, N_("a string"), error))
    return FALSE;
  str = bl_json_reader_get_string (reader->json, &len);
  g_free (*out);
  *out = g_strndup (str, len);

  return TRUE;
}

static gboolean
read_number (Reader   *reader,
             double   *out,
             GError  **error)
{
  if (!next_is (reader, BL_JSON_TOKEN_NUMBER, N_("a number"), error))
    return FALSE;
  *out = bl_json_reader_get_double (reader->json);

  return TRUE;
}

/* A frame index at the current NUMBER token. */
static gboolean
get_frame_index (Reader   *reader,
                 guint32  *out,
                 GError  **error)
{
  gint64 v;

  if (!bl_json_reader_is_integral (reader->json) ||
      (v = bl_json_reader_get_int (reader->json)) < 0 || v >= G_MAXUINT32)
    return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_BAD_VALUE,
                    _("a frame index must be a whole number from 0"));

  if (reader->frames_known && (guint64) v >= reader->frames->len)
    return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_FRAME_RANGE,
                    _("frame index %" PRId64 " is out of range (the file has %u "
                      "frames)"), v, reader->frames->len);

  *out = (guint32) v;

  return TRUE;
}

/* ---- shared.frames ------------------------------------------------------ */

static gboolean
read_frame (Reader  *reader,
            GError **error)
{
  SsFrame frame = { 0, 0, 0, 0 };
  gboolean has_name = FALSE;
  BlJsonToken token;

  while ((token = bl_json_reader_next (reader->json, error)) == BL_JSON_TOKEN_MEMBER)
    {
      const char *member = bl_json_reader_get_string (reader->json, NULL);

      if (g_str_equal (member, "name") || g_str_equal (member, "file"))
        {
          gboolean is_name = member[0] == 'n';
          const char *str;
          gsize len;

          if (!next_is (reader, BL_JSON_TOKEN_STRING, N_("a string"), error))
            return FALSE;
          str = bl_json_reader_get_string (reader->json, &len);
          if (is_name)
            {
              frame.name = bl_profile_intern_len (reader->profile, str, len);
              has_name = TRUE;
            }
          else
            frame.file = bl_profile_intern_len (reader->profile, str, len);
        }
      else if (g_str_equal (member, "line") || g_str_equal (member, "col"))
        {
          gboolean is_line = member[0] == 'l';
          double v;

          if (!read_number (reader, &v, error))
            return FALSE;
          if (v >= 1 && v <= G_MAXUINT32)
            {
              if (is_line)
                frame.line = (guint32) v;
              else
                frame.col = (guint32) v;
            }
        }
      else if (!bl_json_reader_skip_value (reader->json, error))
        return FALSE;
    }

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (!has_name)
    return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_MISSING,
                    _("frame %u has no name"), reader->frames->len);

  g_array_append_val (reader->frames, frame);

  return TRUE;
}

static gboolean
read_shared (Reader  *reader,
             GError **error)
{
  BlJsonToken token;

  if (!next_is (reader, BL_JSON_TOKEN_BEGIN_OBJECT, N_("an object"), error))
    return FALSE;

  while ((token = bl_json_reader_next (reader->json, error)) == BL_JSON_TOKEN_MEMBER)
    {
      if (g_str_equal (bl_json_reader_get_string (reader->json, NULL), "frames"))
        {
          if (reader->frames_known)
            return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_BAD_VALUE,
                            _("the frames are given twice"));
          if (!next_is (reader, BL_JSON_TOKEN_BEGIN_ARRAY, N_("an array of frames"), error))
            return FALSE;
          while ((token = bl_json_reader_next (reader->json, error)) == BL_JSON_TOKEN_BEGIN_OBJECT)
            if (!read_frame (reader, error))
              return FALSE;
          if (token == BL_JSON_TOKEN_ERROR)
            return FALSE;
          if (token != BL_JSON_TOKEN_END_ARRAY)
            return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_BAD_VALUE,
                            _("expected a frame object"));
          reader->frames_known = TRUE;
        }
      else if (!bl_json_reader_skip_value (reader->json, error))
        return FALSE;
    }

  return token != BL_JSON_TOKEN_ERROR;
}

/* ---- one profile -------------------------------------------------------- */

/* Adds @frame at @depth of the current sample, reusing the previous
 * sample's nodes while the stacks agree. */
static inline guint32
sample_frame (Reader    *reader,
              SsProfile *p,
              guint32    sample,
              guint32    node,
              guint      depth,
              guint      prev_len,
              gboolean  *same,
              guint32    frame)
{
  guint32 *prev_frames = (guint32 *) (gpointer) reader->prev_frames->data;
  guint32 *prev_nodes = (guint32 *) (gpointer) reader->prev_nodes->data;

  if (*same && depth < prev_len && prev_frames[depth] == frame)
    return prev_nodes[depth];

  *same = FALSE;
  node = trie_child (p, node, frame, sample);
  if (depth >= reader->prev_frames->len)
    {
      g_array_set_size (reader->prev_frames, depth + 1);
      g_array_set_size (reader->prev_nodes, depth + 1);
    }
  g_array_index (reader->prev_frames, guint32, depth) = frame;
  g_array_index (reader->prev_nodes, guint32, depth) = node;

  return node;
}

static gboolean
read_samples (Reader    *reader,
              SsProfile *p,
              GError   **error)
{
  BlJsonToken token;
  guint prev_len = 0;

  if (!next_is (reader, BL_JSON_TOKEN_BEGIN_ARRAY, N_("an array of samples"), error))
    return FALSE;

  while ((token = bl_json_reader_next (reader->json, error)) == BL_JSON_TOKEN_BEGIN_ARRAY)
    {
      guint32 sample = p->leaves->len;
      guint32 node = 0;
      guint depth = 0;
      gboolean same = TRUE;

      for (;;)
        {
          guint32 chunk[64];
          guint32 max = !reader->frames_known ? G_MAXUINT32 - 1
                        : reader->frames->len > 0 ? reader->frames->len - 1 : 0;
          gsize n = 0;
          guint32 frame;

          /* plain in-range indexes in bulk; anything else token by token */
          if (!reader->frames_known || reader->frames->len > 0)
            n = bl_json_reader_next_indexes (reader->json, max, chunk, G_N_ELEMENTS (chunk));
          for (gsize i = 0; i < n; i++)
            node = sample_frame (reader, p, sample, node, depth++, prev_len, &same, chunk[i]);
          if (n == G_N_ELEMENTS (chunk))
            continue;

          token = bl_json_reader_next (reader->json, error);
          if (token != BL_JSON_TOKEN_NUMBER)
            break;
          if (!get_frame_index (reader, &frame, error))
            return FALSE;
          node = sample_frame (reader, p, sample, node, depth++, prev_len, &same, frame);
        }
      if (token == BL_JSON_TOKEN_ERROR)
        return FALSE;
      if (token != BL_JSON_TOKEN_END_ARRAY)
        return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_BAD_VALUE,
                        _("expected a frame index"));

      prev_len = depth;
      BL_ARRAY_PUSH (p->leaves, &p->leaves_cap, guint32, node);
    }

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token != BL_JSON_TOKEN_END_ARRAY)
    return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_BAD_VALUE,
                    _("expected a sample (an array of frame indexes)"));

  p->has_samples = TRUE;

  return TRUE;
}

static gboolean
read_weights (Reader    *reader,
              SsProfile *p,
              GError   **error)
{
  BlJsonToken token;

  if (!next_is (reader, BL_JSON_TOKEN_BEGIN_ARRAY, N_("an array of weights"), error))
    return FALSE;

  while ((token = bl_json_reader_next (reader->json, error)) == BL_JSON_TOKEN_NUMBER)
    {
      double w = bl_json_reader_get_double (reader->json);

      if (!(w >= 0))
        return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_BAD_VALUE,
                        _("a weight must not be negative"));
      BL_ARRAY_PUSH (p->weights, &p->weights_cap, double, w);
    }

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token != BL_JSON_TOKEN_END_ARRAY)
    return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_BAD_VALUE, _("expected a weight"));

  p->has_weights = TRUE;

  return TRUE;
}

static gboolean
read_event (Reader    *reader,
            SsProfile *p,
            GError   **error)
{
  Event event = { 0, 0, FALSE };
  gboolean has_type = FALSE, has_at = FALSE, has_frame = FALSE;
  g_autofree char *unknown_type = NULL;
  BlJsonToken token;

  while ((token = bl_json_reader_next (reader->json, error)) == BL_JSON_TOKEN_MEMBER)
    {
      gsize len;
      const char *member = bl_json_reader_get_string (reader->json, &len);

      if (len == 4 && memcmp (member, "type", 4) == 0)
        {
          const char *type;

          if (!next_is (reader, BL_JSON_TOKEN_STRING, N_("a string"), error))
            return FALSE;
          type = bl_json_reader_get_string (reader->json, &len);
          if (len == 1 && type[0] == 'O')
            event.open = TRUE;
          else if (len == 1 && type[0] == 'C')
            event.open = FALSE;
          else
            {
              /* speedscope skips it: so do we, and say so */
              g_free (unknown_type);
              unknown_type = g_strdup (type);
            }
          has_type = TRUE;
        }
      else if (len == 2 && member[0] == 'a' && member[1] == 't')
        {
          if (!read_number (reader, &event.at, error))
            return FALSE;
          has_at = TRUE;
        }
      else if (len == 5 && memcmp (member, "frame", 5) == 0)
        {
          if (!next_is (reader, BL_JSON_TOKEN_NUMBER, N_("a frame index"), error) ||
              !get_frame_index (reader, &event.frame, error))
            return FALSE;
          has_frame = TRUE;
        }
      else if (!bl_json_reader_skip_value (reader->json, error))
        return FALSE;
    }

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (unknown_type != NULL)
    {
      if (p->n_unknown_events++ == 0)
        p->unknown_event_type = g_steal_pointer (&unknown_type);
      return TRUE;
    }
  if (!has_type || !has_at || !has_frame)
    return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_MISSING,
                    _("event %u lacks its %s"), p->events->len,
                    !has_type ? "type" : !has_at ? "at" : "frame");

  BL_ARRAY_PUSH (p->events, &p->events_cap, Event, event);

  return TRUE;
}

/* An event read at once by the JSON reader's fast path: the same checks
 * and outcome as read_event() (a message then names the event's end). */
static gboolean
add_flat_event (Reader                 *reader,
                SsProfile              *p,
                const BlJsonFlatMember *members,
                gssize                  n,
                GError                **error)
{
  Event event = { 0, 0, FALSE };
  gboolean has_type = FALSE, has_at = FALSE, has_frame = FALSE;
  const char *unknown_type = NULL;
  gsize unknown_len = 0;

  for (gssize i = 0; i < n; i++)
    {
      const BlJsonFlatMember *m = &members[i];

      if (m->name_len == 4 && memcmp (m->name, "type", 4) == 0)
        {
          if (m->string == NULL)
            return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_BAD_VALUE, _("expected %s"),
                            _("a string"));
          unknown_type = NULL;
          if (m->string_len == 1 && m->string[0] == 'O')
            event.open = TRUE;
          else if (m->string_len == 1 && m->string[0] == 'C')
            event.open = FALSE;
          else
            {
              unknown_type = m->string;
              unknown_len = m->string_len;
            }
          has_type = TRUE;
        }
      else if (m->name_len == 2 && m->name[0] == 'a' && m->name[1] == 't')
        {
          if (m->string != NULL)
            return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_BAD_VALUE, _("expected %s"),
                            _("a number"));
          event.at = m->number;
          has_at = TRUE;
        }
      else if (m->name_len == 5 && memcmp (m->name, "frame", 5) == 0)
        {
          if (m->string != NULL)
            return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_BAD_VALUE, _("expected %s"),
                            _("a frame index"));
          if (!m->integral || m->integer < 0 || m->integer >= G_MAXUINT32)
            return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_BAD_VALUE,
                            _("a frame index must be a whole number from 0"));
          if (reader->frames_known && (guint64) m->integer >= reader->frames->len)
            return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_FRAME_RANGE,
                            _("frame index %" PRId64 " is out of range (the file has %u "
                              "frames)"), m->integer, reader->frames->len);
          event.frame = (guint32) m->integer;
          has_frame = TRUE;
        }
    }

  if (unknown_type != NULL)
    {
      if (p->n_unknown_events++ == 0)
        p->unknown_event_type = g_strndup (unknown_type, unknown_len);
      return TRUE;
    }
  if (!has_type || !has_at || !has_frame)
    return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_MISSING,
                    _("event %u lacks its %s"), p->events->len,
                    !has_type ? "type" : !has_at ? "at" : "frame");

  BL_ARRAY_PUSH (p->events, &p->events_cap, Event, event);

  return TRUE;
}

static gboolean
read_events (Reader    *reader,
             SsProfile *p,
             GError   **error)
{
  BlJsonToken token;

  if (!next_is (reader, BL_JSON_TOKEN_BEGIN_ARRAY, N_("an array of events"), error))
    return FALSE;

  for (;;)
    {
      BlJsonFlatMember members[8];
      gssize n;

      /* compact events in bulk; anything else token by token */
      while ((n = bl_json_reader_next_flat_object (reader->json, members,
                                                   G_N_ELEMENTS (members))) >= 0)
        if (!add_flat_event (reader, p, members, n, error))
          return FALSE;

      token = bl_json_reader_next (reader->json, error);
      if (token != BL_JSON_TOKEN_BEGIN_OBJECT)
        break;
      if (!read_event (reader, p, error))
        return FALSE;
    }

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token != BL_JSON_TOKEN_END_ARRAY)
    return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_BAD_VALUE, _("expected an event object"));

  p->has_events = TRUE;

  return TRUE;
}

/* Whether @value (in the file's unit) is a whole number of base units, up
 * to 1e-10 of it (1.234 ms is 1234000.0000000002 ns in doubles); FALSE with
 * *too_large set if it cannot be held at all. */
static inline gboolean
is_whole (double    value,
          double    factor,
          gboolean *too_large)
{
  double v = value * factor;
  double r;

  if (!(v > -9.2e18 && v < 9.2e18))
    {
      *too_large = TRUE;
      return FALSE;
    }
  r = nearbyint (v);

  return v == r || (r != 0 && fabs (v - r) <= 1e-10 * fabs (v));
}

static gboolean
to_base (double   value,
         double   factor,
         gint64  *out)
{
  double v = round (value * factor);

  if (!(v > -9.2e18 && v < 9.2e18))
    return FALSE;
  *out = (gint64) v;

  return TRUE;
}

static void
make_fractional (SsProfile *p)
{
  p->fractional = TRUE;
  p->fvalues = g_array_new (FALSE, TRUE, sizeof (double));
  g_array_set_size (p->fvalues, p->nodes->len);
}

/* Replays the events of an evented profile: self time goes to the frame on
 * top of the stack between two events; time when no frame is open is idle
 * and goes nowhere (as in speedscope); each open/close pair is a span.
 * Times are whole base units since the origin, or (when some time is not a
 * whole number of base units) doubles, taken from the origin in the file's
 * unit first as speedscope does. */
static gboolean
replay_events (SsProfile *p,
               gboolean   salvage,
               GError   **error)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32) * 2);
  guint stack_cap = 0;
  gint64 origin = 0, last = 0;
  double origin_at = 0, flast = 0;
  double last_at = -INFINITY;
  gboolean too_large = FALSE;
  gboolean frac = FALSE;

  for (guint i = 0; i < p->events->len; i++)
    if (!is_whole (g_array_index (p->events, Event, i).at, p->factor, &too_large))
      frac = TRUE;
  if (p->has_start && !is_whole (p->start_value, p->factor, &too_large))
    frac = TRUE;
  if (p->has_end && !is_whole (p->end_value, p->factor, &too_large))
    frac = TRUE;
  if (too_large)
    goto range;
  if (frac)
    make_fractional (p);

  if (p->events->len > 0)
    origin_at = g_array_index (p->events, Event, 0).at;
  if (p->has_start && (p->events->len == 0 || p->start_value < origin_at))
    origin_at = p->start_value;
  if (!to_base (origin_at, p->factor, &origin))
    goto range;
  last = origin;

  for (guint i = 0; i < p->events->len; i++)
    {
      const Event *ev = &g_array_index (p->events, Event, i);
      guint32 *top = stack->len > 0 ? &g_array_index (stack, guint32, 2 * (stack->len - 1)) : NULL;
      gint64 t = 0;
      double ft = 0;
      SsTime at;

      if (ev->at < last_at)
        return fail (error, BL_SPEEDSCOPE_ERROR_TIME_ORDER,
                     _("event %u of profile %u is at %g, before the event before it (at %g)"),
                     i, p->index, ev->at, last_at);
      last_at = ev->at;
      if (frac)
        {
          ft = (ev->at - origin_at) * p->factor;
          if (top != NULL)
            g_array_index (p->fvalues, double, top[0]) += ft - flast;
          flast = ft;
          at.f = ft;
        }
      else
        {
          if (!to_base (ev->at, p->factor, &t))
            goto range;
          if (top != NULL)
            /* unsigned: events may span more than 2^63 ns (t >= last) */
            g_array_index (p->values, guint64, top[0]) =
              bl_saturating_add (g_array_index (p->values, guint64, top[0]),
                                 (guint64) t - (guint64) last);
          last = t;
          at.i = (guint64) t - (guint64) origin;
        }

      if (ev->open)
        {
          guint32 entry[2];
          TrieSpan span;

          entry[0] = trie_child (p, top != NULL ? top[0] : 0, ev->frame, i);
          entry[1] = p->spans->len;
          if (frac && p->fvalues->len < p->nodes->len)
            g_array_set_size (p->fvalues, p->nodes->len);
          span.node = entry[0];
          span.start = span.end = at;
          BL_ARRAY_PUSH (p->spans, &p->spans_cap, TrieSpan, span);
          memcpy (bl_array_push (stack, &stack_cap, sizeof entry), entry, sizeof entry);
        }
      else
        {
          if (top == NULL)
            return fail (error, BL_SPEEDSCOPE_ERROR_UNBALANCED,
                         _("event %u of profile %u closes frame %u, but no frame is open"),
                         i, p->index, ev->frame);
          if (g_array_index (p->nodes, TrieNode, top[0]).frame != ev->frame)
            return fail (error, BL_SPEEDSCOPE_ERROR_UNBALANCED,
                         _("event %u of profile %u closes frame %u, but the innermost open "
                           "frame is %u"),
                         i, p->index, ev->frame, g_array_index (p->nodes, TrieNode, top[0]).frame);
          g_array_index (p->spans, TrieSpan, top[1]).end = at;
          g_array_set_size (stack, stack->len - 1);
        }
    }

  /* a cut file: what is still open ends with the last event */
  if (salvage)
    for (guint k = 0; k < stack->len; k++)
      {
        TrieSpan *span = &g_array_index (p->spans, TrieSpan, g_array_index (stack, guint32, 2 * k + 1));

        if (frac)
          span->end.f = flast;
        else
          span->end.i = (guint64) last - (guint64) origin;
      }
  else if (stack->len > 0)
    {
      guint32 node = g_array_index (stack, guint32, 2 * (stack->len - 1));

      return fail (error, BL_SPEEDSCOPE_ERROR_UNBALANCED,
                   _("profile %u ends with %u frames still open (the innermost is frame %u, "
                     "opened by event %u)"),
                   p->index, stack->len, g_array_index (p->nodes, TrieNode, node).frame,
                   g_array_index (p->nodes, TrieNode, node).first_use);
    }

  if (frac)
    {
      double start = p->has_start ? (p->start_value - origin_at) * p->factor : 0;
      double end = p->has_end ? (p->end_value - origin_at) * p->factor : flast;

      p->range_start.f = MAX (start, 0);
      p->range_end.f = MAX (end, p->range_start.f);
    }
  else
    {
      gint64 start = origin, end = last;

      if (p->has_start && !to_base (p->start_value, p->factor, &start))
        goto range;
      if (p->has_end && !to_base (p->end_value, p->factor, &end))
        goto range;
      p->range_start.i = start > origin ? (guint64) start - (guint64) origin : 0;
      p->range_end.i = end > origin ? (guint64) end - (guint64) origin : 0;
      p->range_end.i = MAX (p->range_end.i, p->range_start.i);
    }
  p->has_range = TRUE;

  return TRUE;

range:
  return fail (error, BL_SPEEDSCOPE_ERROR_BAD_VALUE,
               _("a time in profile %u is too large to hold in nanoseconds"), p->index);
}

static gboolean
finish_profile (Reader    *reader,
                SsProfile *p,
                GError   **error)
{
  const char *kind = p->kind == KIND_SAMPLED ? "sampled" : "evented";

  if (p->kind == KIND_UNSET)
    return fail (error, BL_SPEEDSCOPE_ERROR_MISSING, _("profile %u has no type"), p->index);
  if (p->unit == UNIT_UNSET)
    return fail (error, BL_SPEEDSCOPE_ERROR_MISSING, _("profile %u has no unit"), p->index);

  /* our own exports name their metric: keep it, in its own unit */
  if (p->override != BL_METRIC_INVALID &&
      !g_str_equal (bl_unit_get_speedscope_name (bl_metric_get_info (p->override)->unit),
                    p->unit_name))
    p->override = BL_METRIC_INVALID;
  if (p->override != BL_METRIC_INVALID)
    p->factor = 1;

  if (p->kind == KIND_SAMPLED)
    {
      gboolean all_ones = TRUE;
      gboolean too_large = FALSE;
      guint32 idle;
      const guint32 *leaves = (const guint32 *) (gpointer) p->leaves->data;
      const double *weights = (const double *) (gpointer) p->weights->data;

      if (!p->has_samples || !p->has_weights)
        return fail (error, BL_SPEEDSCOPE_ERROR_MISSING,
                     _("the %s profile %u has no %s"), kind, p->index,
                     !p->has_samples ? "samples" : "weights");
      if (p->leaves->len != p->weights->len)
        return fail (error, BL_SPEEDSCOPE_ERROR_LENGTH_MISMATCH,
                     _("profile %u has %u samples but %u weights"),
                     p->index, p->leaves->len, p->weights->len);

      /* whole base units, unless some weight is not */
      for (guint i = 0; i < p->weights->len; i++)
        {
          if (weights[i] != 1)
            all_ones = FALSE;
          if (!is_whole (weights[i], p->factor, &too_large) && !p->fractional && !too_large)
            make_fractional (p);
          if (too_large)
            return fail (error, BL_SPEEDSCOPE_ERROR_BAD_VALUE,
                         _("weight %u of profile %u is too large"), i, p->index);
        }

      /* an empty stack is idle: speedscope leaves it out of every stack,
       * and so do we, as we do with the gaps between events. Only our own
       * exports (which name their metric) use it for the thread's own
       * value, a folded line with the thread alone. */
      idle = p->override != BL_METRIC_INVALID ? G_MAXUINT32 : 0;
      p->idle_leaf = idle;
      if (p->fractional)
        {
          double *fvalues = (double *) (gpointer) p->fvalues->data;

          for (guint i = 0; i < p->weights->len; i++)
            if (leaves[i] != idle)
              fvalues[leaves[i]] += weights[i] * p->factor;
        }
      else
        {
          guint64 *values = (guint64 *) (gpointer) p->values->data;

          for (guint i = 0; i < p->weights->len; i++)
            if (leaves[i] != idle)
              values[leaves[i]] = bl_saturating_add (values[leaves[i]],
                                                     (guint64) nearbyint (weights[i] * p->factor));
        }

      if (p->unit == UNIT_NONE)
        p->metric = all_ones ? BL_METRIC_SAMPLES : BL_METRIC_WEIGHT;
    }
  else
    {
      if (!p->has_events)
        return fail (error, BL_SPEEDSCOPE_ERROR_MISSING,
                     _("the %s profile %u has no events"), kind, p->index);
      if (!replay_events (p, reader->salvage, error))
        return FALSE;
      if (p->unit == UNIT_NONE)
        p->metric = BL_METRIC_WEIGHT;
    }

  if (p->unit == UNIT_BYTES)
    p->metric = BL_METRIC_ALLOC_BYTES;
  else if (p->unit != UNIT_NONE)
    p->metric = BL_METRIC_TIME_NS;
  if (p->override != BL_METRIC_INVALID)
    p->metric = p->override;

  if (p->n_unknown_events > 0)
    {
      g_autofree char *warning =
        g_strdup_printf (_("Profile %u: %u events of an unknown type (the first is “%s”; "
                           "only O and C are known) were skipped, as speedscope does."),
                         p->index + 1, p->n_unknown_events, p->unknown_event_type);

      bl_profile_add_warning (reader->profile, warning);
    }

  p->n_samples = p->leaves->len;
  p->n_events = p->events->len;
  p->finished = TRUE;

  /* drop what is no longer needed (a sampled profile's samples give its
   * sample order) */
  if (p->kind != KIND_SAMPLED)
    {
      g_array_set_size (p->leaves, 0);
      g_array_set_size (p->weights, 0);
    }
  g_array_set_size (p->events, 0);
  g_clear_pointer (&p->hash, g_free);
  p->hash = g_new0 (TrieSlot, 1);
  p->hash_mask = 0;

  return TRUE;
}

static gboolean
read_profile (Reader  *reader,
              GError **error)
{
  SsProfile *p = ss_profile_new (reader->profiles->len);
  BlJsonToken token;

  g_ptr_array_add (reader->profiles, p);
  g_array_set_size (reader->prev_frames, 0);
  g_array_set_size (reader->prev_nodes, 0);

  while ((token = bl_json_reader_next (reader->json, error)) == BL_JSON_TOKEN_MEMBER)
    {
      const char *member = bl_json_reader_get_string (reader->json, NULL);

      if (g_str_equal (member, "type"))
        {
          g_autofree char *type = NULL;

          if (!read_string (reader, &type, error))
            return FALSE;
          if (g_str_equal (type, "sampled"))
            p->kind = KIND_SAMPLED;
          else if (g_str_equal (type, "evented"))
            p->kind = KIND_EVENTED;
          else
            return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_BAD_VALUE,
                            _("the profile type “%s” is neither “sampled” nor “evented”"), type);
        }
      else if (g_str_equal (member, "unit"))
        {
          g_autofree char *unit = NULL;

          if (!read_string (reader, &unit, error))
            return FALSE;
          p->unit = UNIT_UNSET;
          for (guint i = 0; i < G_N_ELEMENTS (units); i++)
            if (g_str_equal (unit, units[i].name))
              {
                p->unit = units[i].unit;
                p->unit_name = units[i].name;
                p->factor = units[i].factor;
              }
          if (p->unit == UNIT_UNSET)
            {
              /* speedscope shows such values as plain numbers: so do we */
              g_autofree char *warning =
                g_strdup_printf (_("Profile %u has the unknown unit “%s”: its values are read "
                                   "as plain numbers (unit none), as speedscope does."),
                                 p->index + 1, unit);

              bl_profile_add_warning (reader->profile, warning);
              p->unit = UNIT_NONE;
              p->unit_name = "none";
              p->factor = 1;
            }
        }
      else if (g_str_equal (member, "name"))
        {
          if (!read_string (reader, &p->name, error))
            return FALSE;
        }
      else if (g_str_equal (member, BL_SPEEDSCOPE_METRIC_MEMBER))
        {
          g_autofree char *metric = NULL;

          if (!read_string (reader, &metric, error))
            return FALSE;
          p->override = bl_metric_from_name (metric);
        }
      else if (g_str_equal (member, "startValue"))
        {
          if (!read_number (reader, &p->start_value, error))
            return FALSE;
          p->has_start = TRUE;
        }
      else if (g_str_equal (member, "endValue"))
        {
          if (!read_number (reader, &p->end_value, error))
            return FALSE;
          p->has_end = TRUE;
        }
      else if (g_str_equal (member, "samples"))
        {
          if (!read_samples (reader, p, error))
            return FALSE;
        }
      else if (g_str_equal (member, "weights"))
        {
          if (!read_weights (reader, p, error))
            return FALSE;
        }
      else if (g_str_equal (member, "events"))
        {
          if (!read_events (reader, p, error))
            return FALSE;
        }
      else if (!bl_json_reader_skip_value (reader->json, error))
        return FALSE;
    }

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;

  return finish_profile (reader, p, error);
}

static gboolean
read_profiles (Reader  *reader,
               GError **error)
{
  BlJsonToken token;

  if (!next_is (reader, BL_JSON_TOKEN_BEGIN_ARRAY, N_("an array of profiles"), error))
    return FALSE;

  while ((token = bl_json_reader_next (reader->json, error)) == BL_JSON_TOKEN_BEGIN_OBJECT)
    if (!read_profile (reader, error))
      return FALSE;

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token != BL_JSON_TOKEN_END_ARRAY)
    return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_BAD_VALUE, _("expected a profile object"));

  reader->has_profiles = TRUE;

  return TRUE;
}

static gboolean
is_speedscope_schema (const char *str)
{
  return g_str_has_suffix (str, "speedscope.app/file-format-schema.json");
}

static gboolean
read_document (Reader  *reader,
               GError **error)
{
  BlJsonToken token;

  token = bl_json_reader_next (reader->json, error);
  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token != BL_JSON_TOKEN_BEGIN_OBJECT)
    return fail (error, BL_SPEEDSCOPE_ERROR_NOT_SPEEDSCOPE,
                 _("the document is not a JSON object"));

  while ((token = bl_json_reader_next (reader->json, error)) == BL_JSON_TOKEN_MEMBER)
    {
      const char *member = bl_json_reader_get_string (reader->json, NULL);

      if (g_str_equal (member, "$schema"))
        {
          g_autofree char *schema = NULL;

          if (!read_string (reader, &schema, error))
            return FALSE;
          if (!is_speedscope_schema (schema))
            return fail_at (reader, error, BL_SPEEDSCOPE_ERROR_NOT_SPEEDSCOPE,
                            _("the $schema “%s” is not speedscope's file format"), schema);
          reader->has_schema = TRUE;
        }
      else if (g_str_equal (member, "shared"))
        {
          if (!read_shared (reader, error))
            return FALSE;
        }
      else if (g_str_equal (member, "profiles"))
        {
          if (!read_profiles (reader, error))
            return FALSE;
        }
      else if (g_str_equal (member, "name"))
        {
          if (!read_string (reader, &reader->name, error))
            return FALSE;
        }
      else if (g_str_equal (member, "exporter"))
        {
          if (!read_string (reader, &reader->exporter, error))
            return FALSE;
        }
      else if (!bl_json_reader_skip_value (reader->json, error))
        return FALSE;
    }
  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;

  if (bl_json_reader_next (reader->json, error) != BL_JSON_TOKEN_END)
    return FALSE;

  if (!reader->has_schema)
    return fail (error, BL_SPEEDSCOPE_ERROR_NOT_SPEEDSCOPE,
                 _("the document has no $schema naming speedscope's file format"));
  if (!reader->frames_known)
    return fail (error, BL_SPEEDSCOPE_ERROR_MISSING, _("the document has no shared.frames"));
  if (!reader->has_profiles)
    return fail (error, BL_SPEEDSCOPE_ERROR_MISSING, _("the document has no profiles"));

  return TRUE;
}

/* ---- the model ---------------------------------------------------------- */

static inline gboolean
has_value (const SsProfile *p,
           guint            n)
{
  if (p->fractional)
    return g_array_index (p->fvalues, double, n) != 0;

  return g_array_index (p->values, guint64, n) != 0;
}

/* Whether @x is a whole number, up to what summing doubles leaves over
 * (1e-10 of it: rounding there keeps every value within 1e-10 of
 * speedscope's, also after a round trip); a value that is not zero must not
 * round to zero. */
static inline gboolean
near_whole (double x)
{
  double r = nearbyint (x);

  return x == r || (r != 0 && fabs (x - r) <= 1e-10 * fabs (x));
}

/* Whether every value and time of the fractional profile @p is a whole
 * number of 1/@scale base units. */
static gboolean
fits_scale (const SsProfile *p,
            double           scale)
{
  const double *fvalues = (const double *) (gpointer) p->fvalues->data;
  const double *weights = (const double *) (gpointer) p->weights->data;

  for (guint n = 0; n < p->fvalues->len; n++)
    if (!near_whole (fvalues[n] * scale))
      return FALSE;
  for (guint i = 0; i < p->weights->len; i++)
    if (!near_whole (weights[i] * p->factor * scale))
      return FALSE;
  for (guint s = 0; s < p->spans->len; s++)
    {
      const TrieSpan *span = &g_array_index (p->spans, TrieSpan, s);

      if (!near_whole (span->start.f * scale) || !near_whole (span->end.f * scale))
        return FALSE;
    }
  if (p->has_range &&
      (!near_whole (p->range_start.f * scale) || !near_whole (p->range_end.f * scale)))
    return FALSE;

  return TRUE;
}

/* Fractional values: each metric gets the fewest decimals that hold every
 * value and time of its profiles exactly (what the file's decimal numbers
 * had), but no more than keep its grand total and times below 2^62. */
static void
choose_decimals (Reader *reader,
                 guint  *decimals)
{
  double limit[BL_N_METRICS] = { 0, };
  guint wanted[BL_N_METRICS] = { 0, };

  for (guint i = 0; i < reader->profiles->len; i++)
    {
      SsProfile *p = g_ptr_array_index (reader->profiles, i);
      double sum = 0, last = 0;
      double scale = 1;
      guint d;

      if (p->metric < 0 || p->metric >= BL_N_METRICS)
        continue;
      for (guint n = 0; n < p->nodes->len; n++)
        sum += p->fractional ? g_array_index (p->fvalues, double, n)
                             : (double) g_array_index (p->values, guint64, n);
      if (p->has_range)
        last = p->fractional ? p->range_end.f : (double) p->range_end.i;
      limit[p->metric] = MAX (limit[p->metric] + sum, last);

      if (!p->fractional)
        continue;
      for (d = 0; d < BL_PROFILE_MAX_DECIMALS && !fits_scale (p, scale); d++)
        scale *= 10;
      wanted[p->metric] = MAX (wanted[p->metric], d);
    }

  for (guint m = 0; m < BL_N_METRICS; m++)
    {
      double scale = 1;
      guint d = 0;

      while (d < wanted[m] && limit[m] * scale * 10 < 4e18)
        {
          scale *= 10;
          d++;
        }
      decimals[m] = d;
    }
}

/* The value of trie node @n, or the time @t, in 10^-decimals base units */
static inline guint64
scaled_value (const SsProfile *p,
              guint            n,
              guint64          scale)
{
  if (p->fractional)
    return (guint64) llround (g_array_index (p->fvalues, double, n) * (double) scale);

  return g_array_index (p->values, guint64, n) * scale;
}

static inline guint64
scaled_time (const SsProfile *p,
             SsTime           t,
             guint64          scale)
{
  if (p->fractional)
    return (guint64) llround (t.f * (double) scale);

  return t.i * scale;
}

/* For a cut file: which trie nodes to keep. A node is kept when its
 * frame is known, its parent is kept, and it or a node below it holds a
 * value or a span (the stack of a sample cut in the middle holds none).
 * Returns how many nodes hold a value or a span. */
static guint
salvage_nodes (Reader    *reader,
               SsProfile *p,
               gboolean  *keep)
{
  const TrieNode *nodes = (const TrieNode *) (gpointer) p->nodes->data;
  guint n_nodes = p->nodes->len;
  guint n_used = 0;

  for (guint n = 0; n < n_nodes; n++)
    keep[n] = has_value (p, n);
  for (guint s = 0; s < p->spans->len; s++)
    keep[g_array_index (p->spans, TrieSpan, s).node] = TRUE;

  /* children come after their parents: up from the leaves, ... */
  for (guint n = n_nodes - 1; n > 0; n--)
    if (keep[n])
      keep[nodes[n].parent] = TRUE;

  /* ... then down from the root, only under nameable frames */
  for (guint n = 1; n < n_nodes; n++)
    {
      keep[n] = keep[n] && keep[nodes[n].parent] && nodes[n].frame < reader->frames->len;
      if (keep[n] && has_value (p, n))
        n_used++;
    }
  for (guint s = 0; s < p->spans->len; s++)
    if (keep[g_array_index (p->spans, TrieSpan, s).node])
      n_used++;

  return n_used;
}

static gboolean
build_profile (Reader  *reader,
               GError **error)
{
  guint n_kept = 0;
  guint decimals[BL_N_METRICS];
  guint64 scales[BL_N_METRICS];
  /* thread name → the metrics of our own exports under it (bit 31: some
   * profile under it is not one) */
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  BlProfileInfo *info = bl_profile_get_info_mutable (reader->profile);
  const SsFrame *frames = (const SsFrame *) (gpointer) reader->frames->data;
  guint n_frames = reader->frames->len;

  info->target = g_strdup (reader->name);
  info->supplemental = g_strdup (reader->exporter);

  /* speedscope's frames, in its order: a frame is one index of them */
  for (guint f = 0; f < n_frames; f++)
    bl_profile_add_frame (reader->profile, frames[f].name, frames[f].file, frames[f].line,
                          frames[f].col);

  choose_decimals (reader, decimals);
  for (guint m = 0; m < BL_N_METRICS; m++)
    {
      scales[m] = 1;
      for (guint d = 0; d < decimals[m]; d++)
        scales[m] *= 10;
      if (decimals[m] > 0)
        bl_profile_set_metric_decimals (reader->profile, m, decimals[m]);
    }

  for (guint i = 0; i < reader->profiles->len; i++)
    {
      SsProfile *p = g_ptr_array_index (reader->profiles, i);
      const TrieNode *nodes = (const TrieNode *) (gpointer) p->nodes->data;
      guint64 scale = scales[p->metric];
      g_autofree guint32 *map = g_new (guint32, p->nodes->len);
      g_autofree gboolean *keep = NULL;
      g_autofree gint64 *span_self = NULL;
      g_autofree char *name = NULL;
      guint thread;

      if (reader->salvage)
        {
          keep = g_new (gboolean, p->nodes->len);
          if (salvage_nodes (reader, p, keep) == 0)
            continue;
          n_kept++;
        }

      /* frame indexes seen before the frames were known */
      for (guint n = 1; n < p->nodes->len && keep == NULL; n++)
        if (nodes[n].frame >= n_frames)
          return fail (error, BL_SPEEDSCOPE_ERROR_FRAME_RANGE,
                       _("frame index %u in %s %u of profile %u is out of range (the file "
                         "has %u frames)"),
                       nodes[n].frame, p->kind == KIND_SAMPLED ? "sample" : "event",
                       nodes[n].first_use, i, n_frames);

      /* one thread per profile, with a distinct name (an unnamed one takes
       * the file's name, as in speedscope, or else the document's), except
       * that our own exports write a thread once per metric: those come
       * together again */
      {
        g_autofree char *base = p->name != NULL && p->name[0] != '\0'
          ? g_strdup (p->name)
          : reader->file_name != NULL && reader->file_name[0] != '\0'
          ? g_strdup (reader->file_name)
          : reader->name != NULL && reader->name[0] != '\0'
          ? g_strdup (reader->name)
          : g_strdup_printf ("Profile %u", i + 1);
        guint own = p->override != BL_METRIC_INVALID ? 1u << p->metric : 1u << 31;
        gpointer used;

        name = g_strdup (base);
        for (guint k = 2; g_hash_table_lookup_extended (names, name, NULL, &used); k++)
          {
            guint mask = GPOINTER_TO_UINT (used);

            if (own != 1u << 31 && (mask & (1u << 31)) == 0 && (mask & own) == 0)
              break;
            g_free (name);
            name = g_strdup_printf ("%s (%u)", base, k);
          }
        used = NULL;
        g_hash_table_lookup_extended (names, name, NULL, &used);
        g_hash_table_insert (names, g_strdup (name), GUINT_TO_POINTER (GPOINTER_TO_UINT (used) | own));
      }

      bl_profile_enable_metric (reader->profile, p->metric);
      map[0] = bl_profile_add_thread (reader->profile, bl_profile_intern (reader->profile, name));
      thread = bl_profile_get_node (reader->profile, map[0])->thread;

      for (guint n = 1; n < p->nodes->len; n++)
        {
          if (keep != NULL && !keep[n])
            continue;
          map[n] = bl_profile_add_child_frame (reader->profile, map[nodes[n].parent],
                                               nodes[n].frame);
        }

      /* the sample order; a fractional profile's values are the sums of
       * its samples' weights in the finer unit, so that they agree with
       * the samples exported */
      if (p->kind == KIND_SAMPLED && p->leaves->len == p->weights->len)
        {
          gsize n_before = 0;
          /* (one order per thread: our exports' later metrics have none) */
          gboolean record = bl_profile_get_samples (reader->profile, thread, &n_before) == NULL;

          const guint32 *leaves = (const guint32 *) (gpointer) p->leaves->data;
          const double *weights = (const double *) (gpointer) p->weights->data;

          if (p->fractional)
            span_self = g_new0 (gint64, p->nodes->len);
          for (guint k = 0; k < p->leaves->len; k++)
            {
              guint32 leaf = leaves[k];
              double w = weights[k] * p->factor;
              guint64 sw;

              if (leaf == p->idle_leaf || w == 0 || (keep != NULL && !keep[leaf]))
                continue;
              sw = p->fractional ? (guint64) llround (w * (double) scale)
                                 : (guint64) nearbyint (w) * scale;
              if (span_self != NULL)
                span_self[leaf] += (gint64) sw;
              if (record)
                bl_profile_add_sample (reader->profile, thread, map[leaf], sw);
            }
        }

      /* a fractional evented profile: each node's time from its spans in
       * the finer unit, so that the values agree with the times exported
       * (reading the export back gives the same values) */
      if (p->fractional && p->kind == KIND_EVENTED)
        {
          span_self = g_new0 (gint64, p->nodes->len);
          for (guint s = 0; s < p->spans->len; s++)
            {
              const TrieSpan *span = &g_array_index (p->spans, TrieSpan, s);
              gint64 d = (gint64) (scaled_time (p, span->end, scale) -
                                   scaled_time (p, span->start, scale));

              span_self[span->node] += d;
              if (nodes[span->node].parent != 0)
                span_self[nodes[span->node].parent] -= d;
            }
        }

      for (guint n = 0; n < p->nodes->len; n++)
        {
          guint64 value;

          if (!has_value (p, n) || (keep != NULL && !keep[n]))
            continue;
          value = span_self != NULL ? (guint64) MAX (span_self[n], 0) : scaled_value (p, n, scale);
          if (value == 0)
            continue;
          bl_profile_add_value (reader->profile, map[n], p->metric, value);

          if (n > 0 && frames[nodes[n].frame].line != 0)
            {
              const SsFrame *f = &frames[nodes[n].frame];
              guint32 line = bl_profile_lookup_line (reader->profile, f->file, f->line, f->name);

              bl_profile_add_line_value (reader->profile, line, p->metric, value);
              info->has_lines = TRUE;
            }
        }

      /* the spans at once (a million of them in a big evented profile) */
      if (p->spans->len > 0)
        {
          gsize n_spans = 0, k = 0;
          guint first;
          BlSpan *out;

          for (guint s = 0; s < p->spans->len; s++)
            n_spans += keep == NULL || keep[g_array_index (p->spans, TrieSpan, s).node];
          out = _bl_profile_append_spans (reader->profile, thread, n_spans, &first);
          for (guint s = 0; s < p->spans->len; s++)
            {
              const TrieSpan *span = &g_array_index (p->spans, TrieSpan, s);
              guint64 start, end;

              if (keep != NULL && !keep[span->node])
                continue;
              start = scaled_time (p, span->start, scale);
              end = scaled_time (p, span->end, scale);
              out[k].start = start;
              out[k].node = map[span->node];
              out[k].duration = 0;
              if (end > start)
                {
                  if (end - start < BL_SPAN_LONG)
                    out[k].duration = (guint32) (end - start);
                  else
                    _bl_profile_set_span_duration (reader->profile, thread, first + k,
                                                   end - start);
                }
              k++;
            }
        }
      if (p->has_range)
        bl_profile_set_time_range (reader->profile, thread, scaled_time (p, p->range_start, scale),
                                   scaled_time (p, p->range_end, scale));
    }

  reader->n_kept = n_kept;

  return TRUE;
}

/* The input ended early: the profile being read keeps its complete samples
 * (with their weights) or events, if its type and unit are known. */
static void
salvage_profiles (Reader *reader)
{
  reader->salvage = TRUE;

  for (guint i = 0; i < reader->profiles->len; i++)
    {
      SsProfile *p = g_ptr_array_index (reader->profiles, i);
      guint n = MIN (p->leaves->len, p->weights->len);

      if (p->finished)
        continue;
      g_array_set_size (p->leaves, n);
      g_array_set_size (p->weights, n);
      p->has_samples = p->has_weights = p->has_events = TRUE;
      if (!finish_profile (reader, p, NULL))
        {
          /* nothing of it can be read: an empty profile, left out below */
          g_array_set_size (p->nodes, 1);
          g_array_set_size (p->values, 1);
          g_array_index (p->values, guint64, 0) = 0;
          g_clear_pointer (&p->fvalues, g_array_unref);
          p->fractional = FALSE;
          g_array_set_size (p->leaves, 0);
          g_array_set_size (p->weights, 0);
          g_array_set_size (p->spans, 0);
          p->has_range = FALSE;
          p->metric = BL_METRIC_SAMPLES;
          p->finished = TRUE;
        }
    }
}

static BlProfile *
read_all (BlJsonReader  *json,
          const char    *file_name,
          GError       **error)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("speedscope");
  g_autoptr(GError) read_error = NULL;
  Reader reader = { 0, };
  gboolean ok;

  reader.json = json;
  reader.file_name = file_name;
  reader.profile = profile;
  reader.frames = g_array_new (FALSE, FALSE, sizeof (SsFrame));
  reader.profiles = g_ptr_array_new_with_free_func (ss_profile_free);
  reader.prev_frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  reader.prev_nodes = g_array_new (FALSE, FALSE, sizeof (guint32));

  ok = read_document (&reader, &read_error);
  if (!ok && reader.has_schema &&
      g_error_matches (read_error, BL_JSON_ERROR, BL_JSON_ERROR_TRUNCATED))
    {
      guint n_samples = 0, n_events = 0;

      salvage_profiles (&reader);
      ok = build_profile (&reader, error);
      if (ok && reader.n_kept == 0)
        {
          g_set_error (error, BL_SPEEDSCOPE_ERROR, BL_SPEEDSCOPE_ERROR_MISSING,
                       _("The speedscope file ends early, at byte %" PRIu64
                         " (line %" PRIu64 ", column %" PRIu64 "), "
                         "before any sample with its weight, or any event, whose frames are "
                         "known."),
                       bl_json_reader_get_bytes_read (json), bl_json_reader_get_line (json),
                       bl_json_reader_get_column (json));
          ok = FALSE;
        }
      for (guint i = 0; ok && i < reader.profiles->len; i++)
        {
          SsProfile *p = g_ptr_array_index (reader.profiles, i);

          n_samples += p->n_samples;
          n_events += p->n_events;
        }
      if (ok)
        {
          g_autofree char *reason =
            g_strdup_printf (_("The file ends early, at byte %" PRIu64
                               " (line %" PRIu64 ", column %" PRIu64
                               "); the %u complete samples and %u events before it are kept."),
                             bl_json_reader_get_bytes_read (json),
                             bl_json_reader_get_line (json), bl_json_reader_get_column (json),
                             n_samples, n_events);

          bl_profile_set_incomplete (profile, reason);
        }
    }
  else if (!ok)
    g_propagate_error (error, g_steal_pointer (&read_error));
  else
    ok = build_profile (&reader, error);

  g_array_unref (reader.frames);
  g_ptr_array_unref (reader.profiles);
  g_array_unref (reader.prev_frames);
  g_array_unref (reader.prev_nodes);
  g_free (reader.name);
  g_free (reader.exporter);

  if (!ok)
    return NULL;

  bl_profile_finish (profile);

  return g_steal_pointer (&profile);
}

/**
 * bl_speedscope_detect:
 *
 * Returns: whether @head is the start of a JSON object with a top-level
 *   "$schema" naming speedscope's file format (before the end of @head)
 */
gboolean
bl_speedscope_detect (const guint8 *head,
                      gsize         len)
{
  g_autoptr(BlJsonReader) json = bl_json_reader_new_for_data (head, len);
  BlJsonToken token;

  if (bl_json_reader_next (json, NULL) != BL_JSON_TOKEN_BEGIN_OBJECT)
    return FALSE;

  while ((token = bl_json_reader_next (json, NULL)) == BL_JSON_TOKEN_MEMBER)
    {
      if (g_str_equal (bl_json_reader_get_string (json, NULL), "$schema"))
        return bl_json_reader_next (json, NULL) == BL_JSON_TOKEN_STRING &&
               is_speedscope_schema (bl_json_reader_get_string (json, NULL));
      if (!bl_json_reader_skip_value (json, NULL))
        return FALSE;
    }

  return FALSE;
}

/**
 * bl_speedscope_read_stream:
 * @total: the size of the input, for progress, or 0
 *
 * Returns: (transfer full): the profile, or %NULL with @error set
 */
BlProfile *
bl_speedscope_read_stream (GInputStream   *stream,
                           guint64         total,
                           BlProgressFunc  progress,
                           gpointer        progress_data,
                           GCancellable   *cancellable,
                           GError        **error)
{
  g_autoptr(BlJsonReader) json = NULL;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);

  json = bl_json_reader_new_for_stream (stream, total, cancellable, progress, progress_data);

  return read_all (json, g_object_get_data (G_OBJECT (stream), BL_FORMAT_FILE_NAME_KEY), error);
}

/**
 * bl_speedscope_read_memory:
 *
 * Returns: (transfer full): the profile, or %NULL with @error set
 */
BlProfile *
bl_speedscope_read_memory (const guint8  *data,
                           gsize          len,
                           GError       **error)
{
  g_autoptr(BlJsonReader) json = bl_json_reader_new_for_data (data, len);

  return read_all (json, NULL, error);
}
