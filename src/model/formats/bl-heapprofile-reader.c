/* bl-heapprofile-reader.c — Chrome DevTools sampling heap profiles (.heapprofile)
 *
 * What Chrome's "Allocation sampling", Node.js (`node --heap-prof`) and
 * Roku's RSG 2.0 SDK (`rk cdp heap sampling-start/stop`) write: a tree of
 * call frames under `head`, each node with the bytes allocated there
 * (selfSize, the sampled estimate), an id and its children, and the
 * samples (size, nodeId, ordinal) the sizes come from.
 *
 * The tree is read token by token, members in any order, and becomes the
 * call tree as speedscope 1.25 makes it: every node a stack from the head
 * ("(root)") down, frames that agree on name, url, line and column one,
 * in a thread named "Main" as the CPU profiles'.
 * Metrics: alloc-bytes (selfSize) and, when the file has samples,
 * alloc-count (the samples taken at each node). Lines and columns are
 * shown 1-based; per-line data is kept for the line where each function
 * starts.
 *
 * Samples whose nodeId is not in the tree are not counted and bring no
 * warning: that is the rule of both peers. The DevTools' heap profile
 * view sizes its nodes by the head's selfSize, and sizes a time range by
 * summing the samples into a map keyed by nodeId that is then read only
 * for the tree's own nodes, so a sample of any other id goes nowhere,
 * silently; speedscope's importer reads the head alone. Ordinary files
 * have them (Node 20's tests/data-files/devtools/node20-fib.heapprofile:
 * 17 of its 103 samples), so they are no sign of damage.
 *
 * A file cut short keeps the nodes whose call frame was read (and their
 * sizes, if read) and the samples read, and says where it ended.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-heapprofile"

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <string.h>

#include "bl-devtools-private.h"
#include "bl-heapprofile-reader.h"
#include "bl-json-reader.h"

G_DEFINE_QUARK (bl-heapprofile-error-quark, bl_heapprofile_error)

#define NONE G_MAXUINT32

typedef struct
{
  guint32 parent;      /* index, or NONE for the head */
  guint32 frame;       /* BlProfile frame; NONE until the node is complete */
  guint32 id;
  guint64 self_size;
} HpNode;

typedef struct
{
  guint32             index;
  BlDevtoolsCallFrame cf;
} Level;

typedef struct
{
  BlJsonReader     *json;
  BlProfile        *profile;
  BlDevtoolsFrames  frames;
  BlDevtoolsIds     ids;
  GArray           *nodes;       /* HpNode, in the order they open (parents first) */
  GArray           *sample_ids;  /* guint32 node id per sample */
  gboolean          has_head;
  gboolean          has_samples;
} Reader;

static gboolean
fail_at (Reader              *reader,
         GError             **error,
         BlHeapprofileError   code,
         const char          *format,
         ...) G_GNUC_PRINTF (4, 5);

static gboolean
fail_at (Reader              *reader,
         GError             **error,
         BlHeapprofileError   code,
         const char          *format,
         ...)
{
  g_autofree char *what = NULL;
  g_autofree char *where = bl_json_reader_dup_location (reader->json);
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, BL_HEAPPROFILE_ERROR, code,
               _("Invalid Chrome heap profile: %s, at %s."), what, where);

  return FALSE;
}

/* $.head: the node tree, without recursion */
static gboolean
read_head (Reader  *reader,
           GError **error)
{
  BlJsonReader *json = reader->json;
  g_autoptr(GArray) levels = g_array_new (FALSE, FALSE, sizeof (Level));
  BlJsonToken token = bl_json_reader_next (json, error);
  gboolean ok = TRUE;

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token != BL_JSON_TOKEN_BEGIN_OBJECT)
    return fail_at (reader, error, BL_HEAPPROFILE_ERROR_BAD_VALUE,
                    _("the head must be a node object"));
  reader->has_head = TRUE;

  while (ok)
    {
      if (token == BL_JSON_TOKEN_BEGIN_OBJECT)
        {
          Level level = { reader->nodes->len,
                          { NULL, NULL, BL_DEVTOOLS_NO_NUMBER, BL_DEVTOOLS_NO_NUMBER } };
          HpNode node = { NONE, NONE, BL_DEVTOOLS_NO_ID, 0 };

          if (levels->len > 0)
            node.parent = g_array_index (levels, Level, levels->len - 1).index;
          g_array_append_val (reader->nodes, node);
          g_array_append_val (levels, level);
        }
      else if (token == BL_JSON_TOKEN_MEMBER)
        {
          Level *level = &g_array_index (levels, Level, levels->len - 1);
          HpNode *node = &g_array_index (reader->nodes, HpNode, level->index);
          const char *name = bl_json_reader_get_string (json, NULL);

          if (strcmp (name, "children") == 0)
            {
              token = bl_json_reader_next (json, error);
              if (token == BL_JSON_TOKEN_ERROR)
                ok = FALSE;
              else if (token != BL_JSON_TOKEN_BEGIN_ARRAY)
                ok = fail_at (reader, error, BL_HEAPPROFILE_ERROR_BAD_VALUE,
                              _("the children must be an array of nodes"));
            }
          else if (strcmp (name, "callFrame") == 0)
            {
              token = bl_json_reader_next (json, error);
              if (token == BL_JSON_TOKEN_ERROR)
                ok = FALSE;
              else if (token != BL_JSON_TOKEN_BEGIN_OBJECT)
                ok = fail_at (reader, error, BL_HEAPPROFILE_ERROR_BAD_VALUE,
                              _("a call frame must be an object"));
              while (ok && (token = bl_json_reader_next (json, error)) == BL_JSON_TOKEN_MEMBER)
                {
                  gboolean handled;

                  if (!_bl_devtools_call_frame_member (json, &level->cf,
                                                       bl_json_reader_get_string (json, NULL),
                                                       &handled, BL_HEAPPROFILE_ERROR,
                                                       BL_HEAPPROFILE_ERROR_BAD_VALUE,
                                                       _("Chrome heap profile"), error))
                    ok = FALSE;
                  else if (!handled)
                    ok = bl_json_reader_skip_value (json, error);
                }
              if (ok && token != BL_JSON_TOKEN_END_OBJECT)
                ok = FALSE;
              /* known now: a file cut short keeps the node */
              if (ok)
                node->frame = _bl_devtools_frames_add (&reader->frames, &level->cf, 0);
            }
          else if (strcmp (name, "selfSize") == 0 || strcmp (name, "id") == 0)
            {
              gboolean is_size = name[0] == 's';

              token = bl_json_reader_next (json, error);
              if (token == BL_JSON_TOKEN_ERROR)
                ok = FALSE;
              else if (token != BL_JSON_TOKEN_NUMBER)
                ok = fail_at (reader, error, BL_HEAPPROFILE_ERROR_BAD_VALUE,
                              _("this must be a number"));
              else if (is_size)
                ok = bl_json_reader_get_count (json, &node->self_size, error);
              else
                node->id = _bl_devtools_ids_get (&reader->ids, json);
            }
          else
            ok = bl_json_reader_skip_value (json, error);
        }
      else if (token == BL_JSON_TOKEN_END_OBJECT)
        {
          Level *level = &g_array_index (levels, Level, levels->len - 1);
          HpNode *node = &g_array_index (reader->nodes, HpNode, level->index);

          if (node->frame == NONE)
            node->frame = _bl_devtools_frames_add (&reader->frames, &level->cf, 0);
          _bl_devtools_call_frame_clear (&level->cf);
          g_array_set_size (levels, levels->len - 1);
          if (levels->len == 0)
            return TRUE;
        }
      else if (token == BL_JSON_TOKEN_ERROR)
        ok = FALSE;
      else if (token != BL_JSON_TOKEN_END_ARRAY)
        ok = fail_at (reader, error, BL_HEAPPROFILE_ERROR_BAD_VALUE,
                      _("a child must be a node object"));

      if (ok)
        token = bl_json_reader_next (json, error);
    }

  for (guint i = 0; i < levels->len; i++)
    _bl_devtools_call_frame_clear (&g_array_index (levels, Level, i).cf);

  return FALSE;
}

/* $.samples: [{size, nodeId, ordinal}, …]; only the node counts here (the
 * sizes are in the nodes' selfSize already) */
static gboolean
read_samples (Reader  *reader,
              GError **error)
{
  BlJsonReader *json = reader->json;
  BlJsonToken token = bl_json_reader_next (json, error);

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token != BL_JSON_TOKEN_BEGIN_ARRAY)
    return fail_at (reader, error, BL_HEAPPROFILE_ERROR_BAD_VALUE,
                    _("the samples must be an array"));
  reader->has_samples = TRUE;

  for (;;)
    {
      BlJsonFlatMember members[8];
      gssize n = bl_json_reader_next_flat_object (json, members, G_N_ELEMENTS (members));
      guint32 id = BL_DEVTOOLS_NO_ID;

      if (n >= 0)
        {
          for (gssize m = 0; m < n; m++)
            if (members[m].name_len == 6 && memcmp (members[m].name, "nodeId", 6) == 0 &&
                members[m].string == NULL)
              id = _bl_devtools_ids_get_double (&reader->ids, members[m].number);
          g_array_append_val (reader->sample_ids, id);
          continue;
        }

      token = bl_json_reader_next (json, error);
      if (token == BL_JSON_TOKEN_END_ARRAY)
        return TRUE;
      if (token == BL_JSON_TOKEN_ERROR)
        return FALSE;
      if (token != BL_JSON_TOKEN_BEGIN_OBJECT)
        return fail_at (reader, error, BL_HEAPPROFILE_ERROR_BAD_VALUE,
                        _("a sample must be an object"));
      while ((token = bl_json_reader_next (json, error)) == BL_JSON_TOKEN_MEMBER)
        {
          if (strcmp (bl_json_reader_get_string (json, NULL), "nodeId") == 0)
            {
              token = bl_json_reader_next (json, error);
              if (token == BL_JSON_TOKEN_ERROR)
                return FALSE;
              if (token == BL_JSON_TOKEN_NUMBER)
                id = _bl_devtools_ids_get (&reader->ids, json);
              else if (!bl_json_reader_skip_value (json, error))
                return FALSE;
            }
          else if (!bl_json_reader_skip_value (json, error))
            return FALSE;
        }
      if (token != BL_JSON_TOKEN_END_OBJECT)
        return FALSE;
      g_array_append_val (reader->sample_ids, id);
    }
}

static gboolean
read_document (Reader  *reader,
               GError **error)
{
  BlJsonReader *json = reader->json;
  BlJsonToken token = bl_json_reader_next (json, error);

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token != BL_JSON_TOKEN_BEGIN_OBJECT)
    {
      g_set_error_literal (error, BL_HEAPPROFILE_ERROR, BL_HEAPPROFILE_ERROR_NOT_HEAPPROFILE,
                           _("This is not a Chrome heap profile: it is not a JSON object."));
      return FALSE;
    }

  while ((token = bl_json_reader_next (json, error)) == BL_JSON_TOKEN_MEMBER)
    {
      const char *name = bl_json_reader_get_string (json, NULL);
      gboolean ok;

      if (strcmp (name, "head") == 0 && !reader->has_head)
        ok = read_head (reader, error);
      else if (strcmp (name, "samples") == 0 && !reader->has_samples)
        ok = read_samples (reader, error);
      else
        ok = bl_json_reader_skip_value (json, error);
      if (!ok)
        return FALSE;
    }
  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;

  return bl_json_reader_next (json, error) == BL_JSON_TOKEN_END;
}

static gboolean
build_profile (Reader  *reader,
               GError **error)
{
  BlProfile *profile = reader->profile;
  BlProfileInfo *info = bl_profile_get_info_mutable (profile);
  const HpNode *nodes = (const HpNode *) (gpointer) reader->nodes->data;
  guint n_nodes = reader->nodes->len;
  g_autofree guint32 *map = NULL;
  g_autofree guint64 *counts = NULL;
  BlDevtoolsIdMap ids = { NULL, NULL, 0 };
  guint32 root;

  if (!reader->has_head)
    {
      g_set_error_literal (error, BL_HEAPPROFILE_ERROR, BL_HEAPPROFILE_ERROR_MISSING,
                           _("Invalid Chrome heap profile: it has no head node."));
      return FALSE;
    }

  info->format = "heapprofile";
  info->has_memory = TRUE;
  bl_profile_enable_metric (profile, BL_METRIC_ALLOC_BYTES);
  if (reader->has_samples)
    bl_profile_enable_metric (profile, BL_METRIC_ALLOC_COUNT);
  /* named as the CPU profiles' thread (speedscope names the profile after
   * the file, which would keep two profiles from comparing) */
  root = bl_profile_add_thread (profile, bl_profile_intern (profile, BL_DEVTOOLS_THREAD_NAME));

  map = g_new (guint32, MAX (n_nodes, 1));
  counts = g_new0 (guint64, MAX (n_nodes, 1));
  _bl_devtools_id_map_init (&ids, n_nodes);
  for (guint i = 0; i < n_nodes; i++)
    {
      /* a node cut short, and what hangs under it, is left out */
      if (nodes[i].frame == NONE || (nodes[i].parent != NONE && map[nodes[i].parent] == NONE))
        {
          map[i] = NONE;
          continue;
        }
      map[i] = bl_profile_add_child_frame (profile,
                                           nodes[i].parent == NONE ? root : map[nodes[i].parent],
                                           nodes[i].frame);
      _bl_devtools_id_map_insert (&ids, nodes[i].id, i);
    }

  for (guint s = 0; s < reader->sample_ids->len; s++)
    {
      guint32 i = _bl_devtools_id_map_lookup (&ids, g_array_index (reader->sample_ids, guint32, s));

      /* a sample of a node the tree does not have counts nowhere, and
       * says nothing: see the top of the file */
      if (i != G_MAXUINT32)
        counts[i]++;
    }
  _bl_devtools_id_map_clear (&ids);

  for (guint i = 0; i < n_nodes; i++)
    {
      const BlFrame *f;
      guint32 line = 0;

      if (map[i] == NONE || (nodes[i].self_size == 0 && counts[i] == 0))
        continue;
      f = bl_profile_get_frame (profile, nodes[i].frame);
      if (f->line != 0)
        {
          line = bl_profile_lookup_line (profile, f->file, f->line, f->name);
          info->has_lines = TRUE;
        }
      if (nodes[i].self_size > 0)
        {
          bl_profile_add_value (profile, map[i], BL_METRIC_ALLOC_BYTES, nodes[i].self_size);
          if (f->line != 0)
            bl_profile_add_line_value (profile, line, BL_METRIC_ALLOC_BYTES,
                                       nodes[i].self_size);
        }
      if (counts[i] > 0)
        {
          bl_profile_add_value (profile, map[i], BL_METRIC_ALLOC_COUNT, counts[i]);
          if (f->line != 0)
            bl_profile_add_line_value (profile, line, BL_METRIC_ALLOC_COUNT, counts[i]);
        }
    }

  return TRUE;
}

static BlProfile *
read_all (BlJsonReader *json,
          GError      **error)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("heapprofile");
  g_autoptr(GError) read_error = NULL;
  Reader reader = { 0 };
  gboolean ok;

  bl_json_reader_set_max_depth (json, BL_DEVTOOLS_MAX_DEPTH);
  reader.json = json;
  reader.profile = profile;
  _bl_devtools_frames_init (&reader.frames, profile);
  _bl_devtools_ids_init (&reader.ids);
  reader.nodes = g_array_new (FALSE, FALSE, sizeof (HpNode));
  reader.sample_ids = g_array_new (FALSE, FALSE, sizeof (guint32));

  ok = read_document (&reader, &read_error);
  if (!ok && g_error_matches (read_error, BL_JSON_ERROR, BL_JSON_ERROR_TRUNCATED) &&
      reader.nodes->len > 0 && g_array_index (reader.nodes, HpNode, 0).frame != NONE)
    {
      ok = build_profile (&reader, error);
      if (ok)
        {
          guint n_complete = 0;   /* with a call frame */
          g_autofree char *reason = NULL;

          for (guint i = 0; i < reader.nodes->len; i++)
            n_complete += g_array_index (reader.nodes, HpNode, i).frame != NONE;
          reason = g_strdup_printf (_("The file ends early, at byte %" PRIu64 " (line %" PRIu64
                                      ", column %" PRIu64 "); the %u complete nodes and %u "
                                      "samples before it are shown."),
                                    bl_json_reader_get_bytes_read (json),
                                    bl_json_reader_get_line (json),
                                    bl_json_reader_get_column (json), n_complete,
                                    reader.sample_ids->len);
          bl_profile_set_incomplete (profile, reason);
        }
    }
  else if (!ok && g_error_matches (read_error, BL_JSON_ERROR, BL_JSON_ERROR_TRUNCATED))
    g_set_error (error, BL_HEAPPROFILE_ERROR, BL_HEAPPROFILE_ERROR_MISSING,
                 _("The Chrome heap profile ends early, at byte %" PRIu64 " (line %" PRIu64
                   ", column %" PRIu64 "), before its head node is complete."),
                 bl_json_reader_get_bytes_read (json), bl_json_reader_get_line (json),
                 bl_json_reader_get_column (json));
  else if (!ok)
    g_propagate_error (error, g_steal_pointer (&read_error));
  else
    ok = build_profile (&reader, error);

  _bl_devtools_frames_clear (&reader.frames);
  _bl_devtools_ids_clear (&reader.ids);
  g_array_unref (reader.nodes);
  g_array_unref (reader.sample_ids);

  if (!ok)
    return NULL;

  bl_profile_finish (profile);

  return g_steal_pointer (&profile);
}

/**
 * bl_heapprofile_detect:
 *
 * Returns: whether @head is the start of a JSON object whose "head" is a
 *   node with a "selfSize" (a sampling heap profile)
 */
gboolean
bl_heapprofile_detect (const guint8 *head,
                       gsize         len)
{
  gsize skip = len >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF ? 3 : 0;
  g_autoptr(BlJsonReader) json = bl_json_reader_new_for_data (head + skip, len - skip);
  BlJsonToken token;

  if (bl_json_reader_next (json, NULL) != BL_JSON_TOKEN_BEGIN_OBJECT)
    return FALSE;

  while ((token = bl_json_reader_next (json, NULL)) == BL_JSON_TOKEN_MEMBER)
    {
      if (strcmp (bl_json_reader_get_string (json, NULL), "head") != 0)
        {
          if (!bl_json_reader_skip_value (json, NULL))
            return FALSE;
          continue;
        }
      if (bl_json_reader_next (json, NULL) != BL_JSON_TOKEN_BEGIN_OBJECT)
        return FALSE;
      while ((token = bl_json_reader_next (json, NULL)) == BL_JSON_TOKEN_MEMBER)
        {
          if (strcmp (bl_json_reader_get_string (json, NULL), "selfSize") == 0)
            return TRUE;
          if (!bl_json_reader_skip_value (json, NULL))
            return FALSE;
        }
      return FALSE;
    }

  return FALSE;
}

/**
 * bl_heapprofile_read_stream:
 * @total: the size of the input, for progress, or 0
 *
 * Returns: (transfer full): the profile, or %NULL with @error set
 */
BlProfile *
bl_heapprofile_read_stream (GInputStream   *stream,
                            guint64         total,
                            BlProgressFunc  progress,
                            gpointer        progress_data,
                            GCancellable   *cancellable,
                            GError        **error)
{
  g_autoptr(BlJsonReader) json = NULL;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);

  json = bl_json_reader_new_for_stream (stream, total, cancellable, progress, progress_data);

  return read_all (json, error);
}

/**
 * bl_heapprofile_read_memory:
 *
 * Returns: (transfer full): the profile, or %NULL with @error set
 */
BlProfile *
bl_heapprofile_read_memory (const guint8  *data,
                            gsize          len,
                            GError       **error)
{
  g_autoptr(BlJsonReader) json = bl_json_reader_new_for_data (data, len);

  return read_all (json, error);
}
