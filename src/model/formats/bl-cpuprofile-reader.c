/* bl-cpuprofile-reader.c — Chrome DevTools CPU profiles (.cpuprofile)
 *
 * What Chrome, Node.js (`node --cpu-prof`) and Roku's RSG 2.0 SDK
 * (`rk cdp profile`) write: a flat array of nodes (id, callFrame, children
 * ids; a parent id in older Node), the samples (one node id each) and the
 * time from each sample to the one before (timeDeltas, µs; the first from
 * startTime). Node 10's older format has a nested tree `head` and absolute
 * `timestamps` instead; it is read too. So are Chrome traces (Trace Event
 * JSON) with CPU profiles in them: see "Trace Event JSON" below.
 *
 * The document is read token by token (BlJsonReader), members in any
 * order; nodes may be listed before their parents. The samples then
 * become stacks as speedscope 1.25's importer makes them, so that folded
 * stacks agree with it exactly:
 *   - consecutive samples of one node are one run; a run lasts from its
 *     first sample's time to the next run's, and the last sample of the
 *     profile lasts nothing; a time earlier than the latest one (a
 *     negative delta) counts as the latest;
 *   - a sample's stack is its node and the node's ancestors, without
 *     "(root)", "(idle)" and the frames of "native dummy.js" (a sample of
 *     "(idle)" has no stack: its time goes nowhere); the ancestors stop at
 *     the first of them on the previous stack, where the new frames go;
 *   - "(program)" and "(garbage collector)" go on top of the previous
 *     stack;
 *   - a sample of a node the profile does not list leaves the previous
 *     stack as it is (its time goes there).
 * Frames that agree on name, url, line and column are one, as in
 * speedscope; a function without a name is "(anonymous FILE:LINE)".
 *
 * The thread is "Main", as the DevTools call the JavaScript thread a
 * .cpuprofile comes from (speedscope names it after the file, which would
 * keep two runs of a program from comparing).
 *
 * Metrics: time-ns (the runs' durations) and samples (each sample counted
 * where its time goes). Lines and columns are shown 1-based; per-line data
 * is kept for the line where each function starts.
 *
 * Hostile input: any number is an id, as in speedscope (negative,
 * fractional, huge); duplicate ids: the last node listed wins, as in
 * speedscope; parents
 * that form a cycle are cut (with a warning); work per sample is bounded
 * overall, so deep stacks alternating with shallow ones cannot make the
 * reading quadratic. A file cut short keeps its complete nodes and samples
 * and says where it ended.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-cpuprofile"

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "bl-cpuprofile-reader.h"
#include "bl-devtools-private.h"
#include "bl-json-reader.h"

G_DEFINE_QUARK (bl-cpuprofile-error-quark, bl_cpuprofile_error)

#define NO_ID BL_DEVTOOLS_NO_ID
#define NONE  G_MAXUINT32

enum
{
  NODE_HAS_PARENT_ID = 1 << 0,   /* parent holds a parent id from the file */
  NODE_LINKED        = 1 << 1,   /* parent holds a node index (or NONE) */
  NODE_IGNORED       = 1 << 2,   /* (root), (idle), native dummy.js */
  NODE_ON_TOP        = 1 << 3,   /* (program), (garbage collector) */
  NODE_HAS_FRAME     = 1 << 4,   /* (old format) its frame is known */
};

typedef struct
{
  guint32 id;
  guint32 frame;
  guint32 parent;
  guint32 children;    /* the first of its child ids in child_ids */
  guint32 n_children;
  guint32 flags;
} CpNode;

typedef struct _Trace Trace;

typedef struct
{
  BlJsonReader     *json;
  BlProfile        *profile;
  Trace            *trace;        /* what a Trace Event document holds */
  gboolean          is_trace;
  BlDevtoolsFrames  frames;
  BlDevtoolsIds     ids;

  GArray           *nodes;        /* CpNode, complete ones */
  GArray           *child_ids;    /* guint32 */
  GArray           *samples;      /* guint32 node id, or NO_ID */
  GArray           *times;        /* gint64 ns: deltas, or (old format) timestamps */
  GArray           *inner_times;  /* a trace event's args.data.cpuProfile.timeDeltas */
  gboolean          has_nodes;
  gboolean          has_head;
  gboolean          has_samples;
  gboolean          has_deltas;
  gboolean          has_timestamps;
  double            start_time;
  double            end_time;
  gboolean          has_start;
  gboolean          has_end;
} Reader;

/* ---- errors ------------------------------------------------------------- */

static gboolean
fail_at (Reader             *reader,
         GError            **error,
         BlCpuprofileError   code,
         const char         *format,
         ...) G_GNUC_PRINTF (4, 5);

static gboolean
fail_at (Reader             *reader,
         GError            **error,
         BlCpuprofileError   code,
         const char         *format,
         ...)
{
  g_autofree char *what = NULL;
  g_autofree char *where = bl_json_reader_dup_location (reader->json);
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, BL_CPUPROFILE_ERROR, code, _("Invalid Chrome CPU profile: %s, at %s."),
               what, where);

  return FALSE;
}

/* ---- reading ------------------------------------------------------------ */

/* µs as in the file to ns, rounded, clamped far from overflow */
static gint64
to_ns (double us)
{
  double ns = nearbyint (us * 1000.0);

  if (!(ns > -4.0e18))
    return G_GINT64_CONSTANT (-4000000000000000000);
  if (ns > 4.0e18)
    return G_GINT64_CONSTANT (4000000000000000000);

  return (gint64) ns;
}

static gboolean
read_number_member (Reader   *reader,
                    double   *value,
                    gboolean *has,
                    GError  **error)
{
  BlJsonToken token = bl_json_reader_next (reader->json, error);

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token == BL_JSON_TOKEN_NULL)
    return TRUE;
  if (token != BL_JSON_TOKEN_NUMBER)
    return fail_at (reader, error, BL_CPUPROFILE_ERROR_BAD_VALUE, _("this must be a number"));
  *value = bl_json_reader_get_double (reader->json);
  *has = TRUE;

  return TRUE;
}

/* An array of node ids (samples, children) into @out. */
static gboolean
read_ids (Reader  *reader,
          GArray  *out,
          GError **error)
{
  BlJsonToken token = bl_json_reader_next (reader->json, error);

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token == BL_JSON_TOKEN_NULL)
    return TRUE;
  if (token != BL_JSON_TOKEN_BEGIN_ARRAY)
    return fail_at (reader, error, BL_CPUPROFILE_ERROR_BAD_VALUE,
                    _("this must be an array of node ids"));

  for (;;)
    {
      guint32 buf[1024];
      gsize n = bl_json_reader_next_indexes (reader->json, BL_DEVTOOLS_MAX_PLAIN_ID, buf,
                                             G_N_ELEMENTS (buf));
      guint32 id;

      if (n > 0)
        {
          g_array_append_vals (out, buf, n);
          continue;
        }
      token = bl_json_reader_next (reader->json, error);
      if (token == BL_JSON_TOKEN_END_ARRAY)
        return TRUE;
      if (token == BL_JSON_TOKEN_ERROR)
        return FALSE;
      if (token != BL_JSON_TOKEN_NUMBER)
        return fail_at (reader, error, BL_CPUPROFILE_ERROR_BAD_VALUE,
                        _("a node id must be a number"));
      id = _bl_devtools_ids_get (&reader->ids, reader->json);
      g_array_append_val (out, id);
    }
}

/* An array of times in µs (timeDeltas, or the old format's timestamps)
 * into reader->times, in ns. */
static gboolean
read_times (Reader  *reader,
            GError **error)
{
  BlJsonToken token = bl_json_reader_next (reader->json, error);

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token == BL_JSON_TOKEN_NULL)
    return TRUE;
  if (token != BL_JSON_TOKEN_BEGIN_ARRAY)
    return fail_at (reader, error, BL_CPUPROFILE_ERROR_BAD_VALUE,
                    _("this must be an array of times"));
  g_array_set_size (reader->times, 0);

  for (;;)
    {
      guint32 buf[1024];
      gsize n = bl_json_reader_next_indexes (reader->json, G_MAXUINT32, buf, G_N_ELEMENTS (buf));
      gint64 ns;

      if (n > 0)
        {
          gsize at = reader->times->len;

          g_array_set_size (reader->times, at + n);
          for (gsize i = 0; i < n; i++)
            g_array_index (reader->times, gint64, at + i) = (gint64) buf[i] * 1000;
          continue;
        }
      token = bl_json_reader_next (reader->json, error);
      if (token == BL_JSON_TOKEN_END_ARRAY)
        return TRUE;
      if (token == BL_JSON_TOKEN_ERROR)
        return FALSE;
      if (token != BL_JSON_TOKEN_NUMBER)
        return fail_at (reader, error, BL_CPUPROFILE_ERROR_BAD_VALUE,
                        _("a time must be a number"));
      ns = to_ns (bl_json_reader_get_double (reader->json));
      g_array_append_val (reader->times, ns);
    }
}

static void
set_frame_flags (CpNode                    *node,
                 const BlDevtoolsCallFrame *cf)
{
  const char *name = cf->function_name != NULL ? cf->function_name : "";

  if (g_strcmp0 (cf->url, "native dummy.js") == 0 ||
      strcmp (name, "(root)") == 0 || strcmp (name, "(idle)") == 0)
    node->flags |= NODE_IGNORED;
  if (strcmp (name, "(program)") == 0 || strcmp (name, "(garbage collector)") == 0)
    node->flags |= NODE_ON_TOP;
}

static gboolean
read_call_frame (Reader              *reader,
                 BlDevtoolsCallFrame *cf,
                 GError             **error)
{
  BlJsonToken token = bl_json_reader_next (reader->json, error);

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token == BL_JSON_TOKEN_NULL)
    return TRUE;
  if (token != BL_JSON_TOKEN_BEGIN_OBJECT)
    return fail_at (reader, error, BL_CPUPROFILE_ERROR_BAD_VALUE,
                    _("a call frame must be an object"));

  while ((token = bl_json_reader_next (reader->json, error)) == BL_JSON_TOKEN_MEMBER)
    {
      gboolean handled;

      if (!_bl_devtools_call_frame_member (reader->json, cf,
                                           bl_json_reader_get_string (reader->json, NULL),
                                           &handled, BL_CPUPROFILE_ERROR,
                                           BL_CPUPROFILE_ERROR_BAD_VALUE,
                                           _("Chrome CPU profile"), error))
        return FALSE;
      if (!handled && !bl_json_reader_skip_value (reader->json, error))
        return FALSE;
    }

  return token == BL_JSON_TOKEN_END_OBJECT;
}

/* $.nodes: the flat node array of today's format */
static gboolean
read_nodes (Reader  *reader,
            GError **error)
{
  BlJsonReader *json = reader->json;
  BlJsonToken token = bl_json_reader_next (json, error);

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token != BL_JSON_TOKEN_BEGIN_ARRAY)
    return fail_at (reader, error, BL_CPUPROFILE_ERROR_BAD_VALUE,
                    _("the nodes must be an array"));
  reader->has_nodes = TRUE;

  while ((token = bl_json_reader_next (json, error)) == BL_JSON_TOKEN_BEGIN_OBJECT)
    {
      CpNode node = { NO_ID, 0, NONE, reader->child_ids->len, 0, 0 };
      BlDevtoolsCallFrame cf = { NULL, NULL, BL_DEVTOOLS_NO_NUMBER, BL_DEVTOOLS_NO_NUMBER };
      gboolean ok = TRUE;

      while (ok && (token = bl_json_reader_next (json, error)) == BL_JSON_TOKEN_MEMBER)
        {
          const char *name = bl_json_reader_get_string (json, NULL);

          if (strcmp (name, "id") == 0)
            {
              token = bl_json_reader_next (json, error);
              if (token == BL_JSON_TOKEN_NUMBER)
                node.id = _bl_devtools_ids_get (&reader->ids, json);
              else if (token != BL_JSON_TOKEN_ERROR)
                ok = fail_at (reader, error, BL_CPUPROFILE_ERROR_BAD_VALUE,
                              _("a node id must be a number"));
              else
                ok = FALSE;
            }
          else if (strcmp (name, "callFrame") == 0)
            ok = read_call_frame (reader, &cf, error);
          else if (strcmp (name, "children") == 0)
            {
              /* a second children member replaces the first */
              g_array_set_size (reader->child_ids, node.children);
              ok = read_ids (reader, reader->child_ids, error);
            }
          else if (strcmp (name, "parent") == 0)
            {
              token = bl_json_reader_next (json, error);
              if (token == BL_JSON_TOKEN_NUMBER)
                {
                  node.parent = _bl_devtools_ids_get (&reader->ids, json);
                  node.flags |= NODE_HAS_PARENT_ID;
                }
              else if (token == BL_JSON_TOKEN_ERROR)
                ok = FALSE;
              else if (!bl_json_reader_skip_value (json, error))
                ok = FALSE;
            }
          else
            ok = bl_json_reader_skip_value (json, error);
        }

      if (ok && token == BL_JSON_TOKEN_END_OBJECT)
        {
          node.n_children = reader->child_ids->len - node.children;
          node.frame = _bl_devtools_frames_add (&reader->frames, &cf, 1);
          set_frame_flags (&node, &cf);
          g_array_append_val (reader->nodes, node);
        }
      else
        {
          /* a node cut short is not kept */
          g_array_set_size (reader->child_ids, node.children);
          ok = FALSE;
        }
      _bl_devtools_call_frame_clear (&cf);
      if (!ok)
        return FALSE;
    }

  if (token == BL_JSON_TOKEN_END_ARRAY)
    return TRUE;
  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;

  return fail_at (reader, error, BL_CPUPROFILE_ERROR_BAD_VALUE, _("a node must be an object"));
}

/* $.head: the nested tree of Node 10's format (functionName, url,
 * lineNumber at the node; no column). Nodes are listed parent first, as
 * speedscope lists them, each linked to the node it is nested in. */
typedef struct
{
  guint32             index;
  BlDevtoolsCallFrame cf;
} OldLevel;

static void
finish_old_node (Reader   *reader,
                 OldLevel *level)
{
  CpNode *node = &g_array_index (reader->nodes, CpNode, level->index);

  if (node->flags & NODE_HAS_FRAME)
    return;
  /* the old format has no columns: speedscope takes 0 */
  if (level->cf.col == BL_DEVTOOLS_NO_NUMBER)
    level->cf.col = 0;
  node->frame = _bl_devtools_frames_add (&reader->frames, &level->cf, 1);
  set_frame_flags (node, &level->cf);
  node->flags |= NODE_HAS_FRAME;
}

static gboolean
read_head (Reader  *reader,
           GError **error)
{
  BlJsonReader *json = reader->json;
  g_autoptr(GArray) levels = g_array_new (FALSE, FALSE, sizeof (OldLevel));
  BlJsonToken token = bl_json_reader_next (json, error);
  gboolean ok = TRUE;

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token != BL_JSON_TOKEN_BEGIN_OBJECT)
    return fail_at (reader, error, BL_CPUPROFILE_ERROR_BAD_VALUE,
                    _("the head must be a node object"));
  reader->has_head = TRUE;

  while (ok)
    {
      if (token == BL_JSON_TOKEN_BEGIN_OBJECT)
        {
          OldLevel level = { reader->nodes->len,
                             { NULL, NULL, BL_DEVTOOLS_NO_NUMBER, BL_DEVTOOLS_NO_NUMBER } };
          CpNode node = { NO_ID, 0, NONE, 0, 0, NODE_LINKED };

          if (levels->len > 0)
            node.parent = g_array_index (levels, OldLevel, levels->len - 1).index;
          g_array_append_val (reader->nodes, node);
          g_array_append_val (levels, level);
        }
      else if (token == BL_JSON_TOKEN_MEMBER)
        {
          OldLevel *level = &g_array_index (levels, OldLevel, levels->len - 1);
          const char *name = bl_json_reader_get_string (json, NULL);
          gboolean handled;

          if (strcmp (name, "children") == 0)
            {
              /* V8 writes the children last: the node is known by now */
              finish_old_node (reader, level);
              token = bl_json_reader_next (json, error);
              if (token == BL_JSON_TOKEN_ERROR)
                ok = FALSE;
              else if (token != BL_JSON_TOKEN_BEGIN_ARRAY)
                ok = fail_at (reader, error, BL_CPUPROFILE_ERROR_BAD_VALUE,
                              _("the children must be an array of nodes"));
            }
          else if (strcmp (name, "id") == 0)
            {
              token = bl_json_reader_next (json, error);
              if (token == BL_JSON_TOKEN_NUMBER)
                g_array_index (reader->nodes, CpNode, level->index).id =
                  _bl_devtools_ids_get (&reader->ids, json);
              else if (token != BL_JSON_TOKEN_ERROR)
                ok = fail_at (reader, error, BL_CPUPROFILE_ERROR_BAD_VALUE,
                              _("a node id must be a number"));
              else
                ok = FALSE;
            }
          else if (!_bl_devtools_call_frame_member (json, &level->cf, name, &handled,
                                                    BL_CPUPROFILE_ERROR,
                                                    BL_CPUPROFILE_ERROR_BAD_VALUE,
                                                    _("Chrome CPU profile"), error))
            ok = FALSE;
          else if (!handled)
            ok = bl_json_reader_skip_value (json, error);
        }
      else if (token == BL_JSON_TOKEN_END_OBJECT)
        {
          OldLevel *level = &g_array_index (levels, OldLevel, levels->len - 1);

          finish_old_node (reader, level);
          _bl_devtools_call_frame_clear (&level->cf);
          g_array_set_size (levels, levels->len - 1);
          if (levels->len == 0)
            return TRUE;
        }
      else if (token == BL_JSON_TOKEN_ERROR)
        ok = FALSE;
      else if (token != BL_JSON_TOKEN_END_ARRAY)
        ok = fail_at (reader, error, BL_CPUPROFILE_ERROR_BAD_VALUE,
                      _("a child must be a node object"));

      if (ok)
        token = bl_json_reader_next (json, error);
    }

  /* cut short: the node being read, if its frame is not known yet, is the
   * last one and has no children */
  if (reader->nodes->len > 0 &&
      !(g_array_index (reader->nodes, CpNode, reader->nodes->len - 1).flags & NODE_HAS_FRAME))
    g_array_set_size (reader->nodes, reader->nodes->len - 1);
  for (guint i = 0; i < levels->len; i++)
    _bl_devtools_call_frame_clear (&g_array_index (levels, OldLevel, i).cf);

  return FALSE;
}

/* ---- Trace Event JSON --------------------------------------------------- */

/* What Chrome's Performance panel saves (and `chrome --trace-startup`,
 * Node's --trace-events): a JSON array of events, or an object whose
 * "traceEvents" member is one. A CPU profile in it is a "Profile" event
 * (ph "P", an id, its pid and tid, args.data.startTime) and "ProfileChunk"
 * events of the same id, each with args.data.cpuProfile {nodes, samples}
 * and args.data.timeDeltas; the chunks' nodes (each naming its parent by
 * "parent") and samples and deltas, put end to end in time order, make
 * one .cpuprofile. Threads are named by "thread_name" metadata events.
 *
 * The rules are speedscope 1.25's (its importFromChromeTimeline), so that
 * folded stacks agree with it:
 *   - events are taken in the order of their "ts" (equal ones in file
 *     order; no ts counts as 0), as speedscope sorts them;
 *   - a "Profile" event starts its profile over (a second one with the same
 *     key drops what came before it); a chunk before any "Profile" of its
 *     key is left out (with a warning: speedscope logs it);
 *   - a profile's thread is named by the last "thread_name" event of the
 *     pid and tid of its "Profile" event.
 * Chrome's traces before 2018 hold a whole profile in one "CpuProfile"
 * event instead (args.data.cpuProfile with nodes, samples and timeDeltas;
 * no id): it starts its profile over with all of that, as in speedscope.
 * One rule is DevTools' instead: a profile is known by its pid and its id
 * (its pid and tid when it has no id). speedscope keys profiles by the id
 * alone, which merges the profiles of two processes that both number
 * theirs "0x1" (as Chrome's renderers do); the DevTools keep them apart.
 * A profile's thread without a thread_name is "Main" when the trace has
 * one profile (as a .cpuprofile's), "Thread PID:TID" otherwise.
 * The trace-wide JSON Array Format may omit its closing "]" (a trace cut
 * between two events is whole); a trace cut inside an event keeps the
 * events before it and says where it ended. */

typedef enum
{
  EVENT_OTHER,
  EVENT_PROFILE,
  EVENT_CHUNK,
  EVENT_CPU_PROFILE,
  EVENT_THREAD_NAME,
} EventKind;

typedef struct
{
  EventKind  kind;
  double     ts;
  guint      seq;
  char      *pid_tid;     /* "PID:TID" (Profile events) */
  GArray    *nodes;       /* CpNode (chunks) */
  GArray    *child_ids;
  GArray    *samples;
  GArray    *times;
} TraceItem;

typedef struct
{
  GPtrArray *items;       /* TraceItem, in file order */
} TraceKey;

typedef struct
{
  char   *name;
  double  ts;
} ThreadName;

struct _Trace
{
  GHashTable *keys;          /* "PID/ID" or "PID:TID" → TraceKey */
  GPtrArray  *key_order;     /* TraceKey, in the order first seen */
  GHashTable *thread_names;  /* "PID:TID" → ThreadName */
  guint       n_events;
  gboolean    open_end;      /* the events array ends without its "]" */
};

static void
trace_item_free (gpointer data)
{
  TraceItem *item = data;

  g_free (item->pid_tid);
  g_clear_pointer (&item->nodes, g_array_unref);
  g_clear_pointer (&item->child_ids, g_array_unref);
  g_clear_pointer (&item->samples, g_array_unref);
  g_clear_pointer (&item->times, g_array_unref);
  g_free (item);
}

static void
trace_key_free (gpointer data)
{
  TraceKey *key = data;

  g_ptr_array_unref (key->items);
  g_free (key);
}

static void
thread_name_free (gpointer data)
{
  ThreadName *name = data;

  g_free (name->name);
  g_free (name);
}

/* A pid, tid or id as text (numbers as JSON would print them back), or
 * NULL for a value of another kind, which is skipped. */
static gboolean
read_key_part (Reader  *reader,
               char   **out,
               GError **error)
{
  BlJsonToken token = bl_json_reader_next (reader->json, error);

  g_clear_pointer (out, g_free);
  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token == BL_JSON_TOKEN_STRING)
    {
      /* speedscope's `${id}` makes "1" and 1 one key; so does this */
      *out = g_strdup (bl_json_reader_get_string (reader->json, NULL));
      return TRUE;
    }
  if (token == BL_JSON_TOKEN_NUMBER)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      if (bl_json_reader_is_integral (reader->json))
        *out = g_strdup_printf ("%" G_GINT64_FORMAT, bl_json_reader_get_int (reader->json));
      else
        *out = g_strdup (g_ascii_dtostr (buf, sizeof buf,
                                         bl_json_reader_get_double (reader->json)));
      return TRUE;
    }

  return bl_json_reader_skip_value (reader->json, error);
}

/* args.data.cpuProfile: {nodes, samples} into the scratch arrays */
static gboolean
read_chunk_profile (Reader  *reader,
                    GError **error)
{
  BlJsonReader *json = reader->json;
  BlJsonToken token = bl_json_reader_next (json, error);

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token != BL_JSON_TOKEN_BEGIN_OBJECT)
    return token == BL_JSON_TOKEN_NULL ||
           fail_at (reader, error, BL_CPUPROFILE_ERROR_BAD_VALUE,
                    _("a chunk's cpuProfile must be an object"));

  while ((token = bl_json_reader_next (json, error)) == BL_JSON_TOKEN_MEMBER)
    {
      const char *name = bl_json_reader_get_string (json, NULL);
      gboolean ok;

      if (strcmp (name, "nodes") == 0)
        ok = read_nodes (reader, error);
      else if (strcmp (name, "samples") == 0)
        ok = read_ids (reader, reader->samples, error);
      else if (strcmp (name, "timeDeltas") == 0)
        {
          /* a CpuProfile event's (a ProfileChunk's are in args.data) */
          GArray *outer = reader->times;

          reader->times = reader->inner_times;
          ok = read_times (reader, error);
          reader->inner_times = reader->times;
          reader->times = outer;
        }
      else
        ok = bl_json_reader_skip_value (json, error);
      if (!ok)
        return FALSE;
    }

  return token == BL_JSON_TOKEN_END_OBJECT;
}

/* an event's args: data {cpuProfile, timeDeltas} of profile chunks, name
 * of thread_name events */
static gboolean
read_event_args (Reader  *reader,
                 char   **thread_name,
                 GError **error)
{
  BlJsonReader *json = reader->json;
  BlJsonToken token = bl_json_reader_next (json, error);

  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (token != BL_JSON_TOKEN_BEGIN_OBJECT)
    return bl_json_reader_skip_value (json, error);

  while ((token = bl_json_reader_next (json, error)) == BL_JSON_TOKEN_MEMBER)
    {
      const char *name = bl_json_reader_get_string (json, NULL);
      gboolean ok = TRUE;

      if (strcmp (name, "name") == 0)
        {
          token = bl_json_reader_next (json, error);
          if (token == BL_JSON_TOKEN_STRING)
            {
              g_free (*thread_name);
              *thread_name = g_strdup (bl_json_reader_get_string (json, NULL));
            }
          else
            ok = token != BL_JSON_TOKEN_ERROR && bl_json_reader_skip_value (json, error);
        }
      else if (strcmp (name, "data") == 0)
        {
          token = bl_json_reader_next (json, error);
          if (token == BL_JSON_TOKEN_ERROR)
            return FALSE;
          if (token != BL_JSON_TOKEN_BEGIN_OBJECT)
            ok = bl_json_reader_skip_value (json, error);
          else
            {
              while (ok && (token = bl_json_reader_next (json, error)) == BL_JSON_TOKEN_MEMBER)
                {
                  const char *member = bl_json_reader_get_string (json, NULL);

                  if (strcmp (member, "cpuProfile") == 0)
                    ok = read_chunk_profile (reader, error);
                  else if (strcmp (member, "timeDeltas") == 0)
                    ok = read_times (reader, error);
                  else
                    ok = bl_json_reader_skip_value (json, error);
                }
              ok = ok && token == BL_JSON_TOKEN_END_OBJECT;
            }
        }
      else
        ok = bl_json_reader_skip_value (json, error);
      if (!ok)
        return FALSE;
    }

  return token == BL_JSON_TOKEN_END_OBJECT;
}

static void
scratch_reset (Reader *reader)
{
  g_array_set_size (reader->nodes, 0);
  g_array_set_size (reader->child_ids, 0);
  g_array_set_size (reader->samples, 0);
  g_array_set_size (reader->times, 0);
  g_array_set_size (reader->inner_times, 0);
}

/* Takes the scratch arrays for @item, leaving new empty ones. */
static void
scratch_steal (Reader    *reader,
               TraceItem *item)
{
  item->nodes = reader->nodes;
  item->child_ids = reader->child_ids;
  item->samples = reader->samples;
  item->times = reader->times;
  reader->nodes = g_array_new (FALSE, FALSE, sizeof (CpNode));
  reader->child_ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  reader->samples = g_array_new (FALSE, FALSE, sizeof (guint32));
  reader->times = g_array_new (FALSE, FALSE, sizeof (gint64));
}

static gboolean
read_event (Reader  *reader,
            Trace   *trace,
            GError **error)
{
  BlJsonReader *json = reader->json;
  g_autofree char *pid = NULL;
  g_autofree char *tid = NULL;
  g_autofree char *id = NULL;
  g_autofree char *thread_name = NULL;
  g_autofree char *pid_tid = NULL;
  EventKind kind = EVENT_OTHER;
  double ts = 0;
  BlJsonToken token;

  scratch_reset (reader);
  while ((token = bl_json_reader_next (json, error)) == BL_JSON_TOKEN_MEMBER)
    {
      const char *name = bl_json_reader_get_string (json, NULL);
      gboolean ok;

      if (strcmp (name, "name") == 0)
        {
          token = bl_json_reader_next (json, error);
          ok = token != BL_JSON_TOKEN_ERROR;
          if (token == BL_JSON_TOKEN_STRING)
            {
              const char *value = bl_json_reader_get_string (json, NULL);

              kind = strcmp (value, "Profile") == 0 ? EVENT_PROFILE
                     : strcmp (value, "ProfileChunk") == 0 ? EVENT_CHUNK
                     : strcmp (value, "CpuProfile") == 0 ? EVENT_CPU_PROFILE
                     : strcmp (value, "thread_name") == 0 ? EVENT_THREAD_NAME
                     : EVENT_OTHER;
            }
          else if (ok)
            ok = bl_json_reader_skip_value (json, error);
        }
      else if (strcmp (name, "pid") == 0)
        ok = read_key_part (reader, &pid, error);
      else if (strcmp (name, "tid") == 0)
        ok = read_key_part (reader, &tid, error);
      else if (strcmp (name, "id") == 0)
        ok = read_key_part (reader, &id, error);
      else if (strcmp (name, "ts") == 0)
        {
          token = bl_json_reader_next (json, error);
          ok = token != BL_JSON_TOKEN_ERROR;
          if (token == BL_JSON_TOKEN_NUMBER)
            ts = bl_json_reader_get_double (json);
          else if (ok)
            ok = bl_json_reader_skip_value (json, error);
        }
      else if (strcmp (name, "args") == 0)
        ok = read_event_args (reader, &thread_name, error);
      else
        ok = bl_json_reader_skip_value (json, error);
      if (!ok)
        return FALSE;
    }
  if (token != BL_JSON_TOKEN_END_OBJECT)
    return FALSE;

  trace->n_events++;
  pid_tid = g_strdup_printf ("%s:%s", pid != NULL ? pid : "", tid != NULL ? tid : "");
  if (kind == EVENT_THREAD_NAME && thread_name != NULL)
    {
      ThreadName *old = g_hash_table_lookup (trace->thread_names, pid_tid);

      /* the last one in time order */
      if (old == NULL || old->ts <= ts)
        {
          ThreadName *entry = g_new0 (ThreadName, 1);

          entry->name = g_steal_pointer (&thread_name);
          entry->ts = ts;
          g_hash_table_replace (trace->thread_names, g_strdup (pid_tid), entry);
        }
    }
  else if (kind == EVENT_PROFILE || kind == EVENT_CHUNK || kind == EVENT_CPU_PROFILE)
    {
      g_autofree char *name = id != NULL && *id != '\0'
                              ? g_strdup_printf ("%s/%s", pid != NULL ? pid : "", id)
                              : g_strdup (pid_tid);
      TraceKey *key = g_hash_table_lookup (trace->keys, name);
      TraceItem *item = g_new0 (TraceItem, 1);

      if (key == NULL)
        {
          key = g_new0 (TraceKey, 1);
          key->items = g_ptr_array_new_with_free_func (trace_item_free);
          g_hash_table_insert (trace->keys, g_steal_pointer (&name), key);
          g_ptr_array_add (trace->key_order, key);
        }
      item->kind = kind;
      item->ts = ts;
      item->seq = trace->n_events;
      if (kind != EVENT_CHUNK)
        item->pid_tid = g_steal_pointer (&pid_tid);
      if (kind == EVENT_CPU_PROFILE)
        {
          GArray *inner = reader->inner_times;

          reader->inner_times = reader->times;
          reader->times = inner;
        }
      if (kind != EVENT_PROFILE)
        scratch_steal (reader, item);
      g_ptr_array_add (key->items, item);
    }

  return TRUE;
}

/* The events array, its "[" read */
static gboolean
read_trace_events (Reader  *reader,
                   Trace   *trace,
                   GError **error)
{
  BlJsonReader *json = reader->json;

  for (;;)
    {
      g_autoptr(GError) local_error = NULL;
      BlJsonToken token = bl_json_reader_next (json, &local_error);

      if (token == BL_JSON_TOKEN_END_ARRAY)
        return TRUE;
      if (token == BL_JSON_TOKEN_ERROR)
        {
          /* between two events: the JSON Array Format's open end */
          if (g_error_matches (local_error, BL_JSON_ERROR, BL_JSON_ERROR_TRUNCATED))
            {
              trace->open_end = TRUE;
              return TRUE;
            }
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      if (token != BL_JSON_TOKEN_BEGIN_OBJECT)
        return fail_at (reader, error, BL_CPUPROFILE_ERROR_BAD_VALUE,
                        _("a trace event must be an object"));
      if (!read_event (reader, trace, error))
        return FALSE;
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
  if (token == BL_JSON_TOKEN_BEGIN_ARRAY)
    {
      /* the JSON Array Format of traces */
      reader->is_trace = TRUE;
      if (!read_trace_events (reader, reader->trace, error))
        return FALSE;
      return reader->trace->open_end || bl_json_reader_next (json, error) == BL_JSON_TOKEN_END;
    }
  if (token != BL_JSON_TOKEN_BEGIN_OBJECT)
    {
      g_set_error_literal (error, BL_CPUPROFILE_ERROR, BL_CPUPROFILE_ERROR_NOT_CPUPROFILE,
                           _("This is not a Chrome CPU profile: it is not a JSON object."));
      return FALSE;
    }

  while ((token = bl_json_reader_next (json, error)) == BL_JSON_TOKEN_MEMBER)
    {
      const char *name = bl_json_reader_get_string (json, NULL);
      gboolean ok;

      if (strcmp (name, "traceEvents") == 0 && !reader->is_trace)
        {
          /* the JSON Object Format of traces: the events, then perhaps
           * metadata */
          token = bl_json_reader_next (json, error);
          if (token == BL_JSON_TOKEN_ERROR)
            return FALSE;
          if (token != BL_JSON_TOKEN_BEGIN_ARRAY)
            return fail_at (reader, error, BL_CPUPROFILE_ERROR_BAD_VALUE,
                            _("the trace events must be an array"));
          reader->is_trace = TRUE;
          scratch_reset (reader);
          if (!read_trace_events (reader, reader->trace, error))
            return FALSE;
          if (reader->trace->open_end)
            return TRUE;
          continue;
        }
      if (reader->is_trace)
        ok = bl_json_reader_skip_value (json, error);
      else if (strcmp (name, "nodes") == 0 && !reader->has_head)
        ok = read_nodes (reader, error);
      else if (strcmp (name, "head") == 0 && !reader->has_nodes)
        ok = read_head (reader, error);
      else if (strcmp (name, "samples") == 0)
        {
          g_array_set_size (reader->samples, 0);
          reader->has_samples = TRUE;
          ok = read_ids (reader, reader->samples, error);
        }
      else if (strcmp (name, "timeDeltas") == 0 && !reader->has_timestamps)
        {
          reader->has_deltas = TRUE;
          ok = read_times (reader, error);
        }
      else if (strcmp (name, "timestamps") == 0 && !reader->has_deltas)
        {
          reader->has_timestamps = TRUE;
          ok = read_times (reader, error);
        }
      else if (strcmp (name, "startTime") == 0)
        ok = read_number_member (reader, &reader->start_time, &reader->has_start, error);
      else if (strcmp (name, "endTime") == 0)
        ok = read_number_member (reader, &reader->end_time, &reader->has_end, error);
      else
        ok = bl_json_reader_skip_value (json, error);
      if (!ok)
        return FALSE;
    }
  if (token == BL_JSON_TOKEN_ERROR)
    return FALSE;
  if (bl_json_reader_next (json, error) != BL_JSON_TOKEN_END)
    return FALSE;

  return TRUE;
}

/* ---- building ----------------------------------------------------------- */

/* Parents as speedscope links them: in list order, a node's own parent id
 * (unless an earlier node listed it as a child), then its children's
 * parents set to it. */
static void
link_parents (Reader      *reader,
              const BlDevtoolsIdMap *map)
{
  CpNode *nodes = (CpNode *) (gpointer) reader->nodes->data;
  const guint32 *child_ids = (const guint32 *) (gpointer) reader->child_ids->data;
  guint n = reader->nodes->len;

  for (guint i = 0; i < n; i++)
    {
      CpNode *node = &nodes[i];

      if (!(node->flags & NODE_LINKED))
        {
          if (node->flags & NODE_HAS_PARENT_ID)
            node->parent = _bl_devtools_id_map_lookup (map, node->parent);
          else
            node->parent = NONE;
          node->flags |= NODE_LINKED;
        }
      for (guint32 c = 0; c < node->n_children; c++)
        {
          guint32 child = _bl_devtools_id_map_lookup (map, child_ids[node->children + c]);

          if (child != NONE)
            {
              nodes[child].parent = i;
              nodes[child].flags |= NODE_LINKED;
            }
        }
    }
}

/* Cuts every cycle of parents (a node that is its own ancestor), so that
 * walking up always ends; returns how many were cut and the id of the
 * first node cut. */
static guint
break_cycles (Reader  *reader,
              guint32 *first_id)
{
  CpNode *nodes = (CpNode *) (gpointer) reader->nodes->data;
  guint n = reader->nodes->len;
  g_autofree guint8 *state = g_new0 (guint8, n);   /* 0 new, 1 on the path, 2 done */
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint n_cut = 0;

  for (guint i = 0; i < n; i++)
    {
      guint32 x = i;

      g_array_set_size (path, 0);
      while (x != NONE && state[x] == 0)
        {
          state[x] = 1;
          g_array_append_val (path, x);
          if (nodes[x].parent != NONE && state[nodes[x].parent] == 1)
            {
              if (n_cut++ == 0)
                *first_id = nodes[x].id;
              nodes[x].parent = NONE;
            }
          x = nodes[x].parent;
        }
      for (guint k = 0; k < path->len; k++)
        state[g_array_index (path, guint32, k)] = 2;
    }

  return n_cut;
}

typedef struct
{
  guint32 cp;
  guint32 bl;
} StackEntry;

typedef struct
{
  Reader     *reader;
  const CpNode *nodes;
  guint32    root;            /* the thread's root node */
  guint      thread;
  GArray    *stack;           /* StackEntry */
  guint32   *on_stack;        /* per node: its position on the stack + 1, or 0 */
  GArray    *to_open;         /* guint32 */
  GArray    *time_self;       /* guint64 per BlProfile node */
  GArray    *count_self;      /* guint64 per BlProfile node */
  guint64    steps;
  guint64    max_steps;
} Builder;

static void
grow_self (GArray  *array,
           guint32  node)
{
  if (array->len <= node)
    g_array_set_size (array, node + 1);
}

/* The time from the previous sample run to this one, and that run's
 * samples, go to the top of the stack as it stands. */
static void
credit (Builder *b,
        guint64  time,
        guint64  count)
{
  guint32 top;

  if (b->stack->len == 0 || (time == 0 && count == 0))
    return;
  top = g_array_index (b->stack, StackEntry, b->stack->len - 1).bl;
  grow_self (b->time_self, top);
  grow_self (b->count_self, top);
  g_array_index (b->time_self, guint64, top) =
    bl_saturating_add (g_array_index (b->time_self, guint64, top), time);
  g_array_index (b->count_self, guint64, top) =
    bl_saturating_add (g_array_index (b->count_self, guint64, top), count);
  if (time > 0)
    bl_profile_add_sample (b->reader->profile, b->thread, top, time);
}

/* The stack of a sample of node @t, as speedscope makes it from the
 * previous one. FALSE once the work allowed is spent. */
static gboolean
apply_sample (Builder *b,
              guint32  t)
{
  const CpNode *nodes = b->nodes;
  StackEntry *entries = (StackEntry *) (gpointer) b->stack->data;
  guint32 top_prev = b->stack->len > 0 ? entries[b->stack->len - 1].cp : NONE;
  guint32 lca, keep;

  if (t == NONE)
    return TRUE;

  /* the lowest node on the previous stack, going up */
  for (lca = t; lca != NONE && b->on_stack[lca] == 0;
       lca = nodes[lca].flags & NODE_ON_TOP ? top_prev : nodes[lca].parent)
    if (++b->steps > b->max_steps)
      return FALSE;

  g_array_set_size (b->to_open, 0);
  for (guint32 y = t; y != NONE && y != lca && !(nodes[y].flags & NODE_IGNORED);
       y = nodes[y].flags & NODE_ON_TOP ? top_prev : nodes[y].parent)
    g_array_append_val (b->to_open, y);

  keep = lca == NONE ? 0 : b->on_stack[lca];
  while (b->stack->len > keep)
    {
      b->on_stack[g_array_index (b->stack, StackEntry, b->stack->len - 1).cp] = 0;
      g_array_set_size (b->stack, b->stack->len - 1);
    }

  for (guint k = b->to_open->len; k-- > 0;)
    {
      guint32 y = g_array_index (b->to_open, guint32, k);
      guint32 parent = b->stack->len > 0
        ? g_array_index (b->stack, StackEntry, b->stack->len - 1).bl : b->root;
      StackEntry entry = { y, bl_profile_add_child_frame (b->reader->profile, parent,
                                                          nodes[y].frame) };

      g_array_append_val (b->stack, entry);
      b->on_stack[y] = b->stack->len;
    }

  return TRUE;
}

typedef struct
{
  gint64   last_valid;    /* the latest time so far */
  gint64   last_time;     /* when the current run began */
  gboolean have_time;
  guint64  pending;       /* samples of the current run */
  gboolean stopped;
} Run;

/* A run of samples of node id @id begins at @elapsed (or at the latest
 * time so far, if that is later). */
static gboolean
push_sample (Builder     *b,
             Run         *run,
             const BlDevtoolsIdMap *map,
             guint32      id,
             gint64       elapsed)
{
  gint64 at;

  if (elapsed < run->last_valid)
    at = run->last_valid;
  else
    at = run->last_valid = elapsed;
  credit (b, run->have_time ? (guint64) (at - run->last_time) : 0, run->pending);
  run->pending = 0;
  run->last_time = at;
  run->have_time = TRUE;
  if (!apply_sample (b, _bl_devtools_id_map_lookup (map, id)))
    {
      run->stopped = TRUE;
      return FALSE;
    }

  return TRUE;
}

static gboolean
build_profile (Reader     *reader,
               const char *thread_name,
               GError    **error)
{
  BlProfile *profile = reader->profile;
  BlProfileInfo *info = bl_profile_get_info_mutable (profile);
  BlDevtoolsIdMap map = { NULL, NULL, 0 };
  Builder b = { 0 };
  guint n_nodes = reader->nodes->len;
  guint n_samples = reader->samples->len;
  guint n_times = reader->times->len;
  guint n_used, n_unknown = 0, first_unknown = 0;
  guint32 cut_id = NO_ID;
  guint n_cut;
  const guint32 *samples = (const guint32 *) (gpointer) reader->samples->data;
  gint64 *times = (gint64 *) (gpointer) reader->times->data;
  gint64 elapsed;
  guint32 last_id = NO_ID;
  gboolean have_last = FALSE;
  Run run = { 0 };

  if (!reader->has_nodes && !reader->has_head)
    {
      g_set_error_literal (error, BL_CPUPROFILE_ERROR, BL_CPUPROFILE_ERROR_MISSING,
                           _("Invalid Chrome CPU profile: it has no nodes."));
      return FALSE;
    }
  if (n_samples > 0 && !reader->has_deltas && !reader->has_timestamps)
    {
      g_set_error_literal (error, BL_CPUPROFILE_ERROR, BL_CPUPROFILE_ERROR_MISSING,
                           _("Invalid Chrome CPU profile: it has samples but no timeDeltas."));
      return FALSE;
    }

  /* startTime and endTime are on a monotonic clock, not the date: the
   * profile's date is unknown */
  info->format = "cpuprofile";
  if (reader->has_head)
    {
      /* Node 10: absolute timestamps, from startTime in seconds */
      for (guint i = n_times; i-- > 0;)
        times[i] -= i > 0 ? times[i - 1] : to_ns (reader->start_time * 1e6);
    }

  bl_profile_enable_metric (profile, BL_METRIC_TIME_NS);
  bl_profile_enable_metric (profile, BL_METRIC_SAMPLES);
  /* one JavaScript thread, named as the DevTools name it ("Main"), so
   * that two profiles of one program compare whatever their file names
   * (speedscope names the profile after the file) */
  b.root = bl_profile_add_thread (profile, bl_profile_intern (profile, thread_name));
  b.thread = bl_profile_get_node (profile, b.root)->thread;

  _bl_devtools_id_map_init (&map, n_nodes);
  for (guint i = 0; i < n_nodes; i++)
    _bl_devtools_id_map_insert (&map, g_array_index (reader->nodes, CpNode, i).id, i);
  link_parents (reader, &map);
  n_cut = break_cycles (reader, &cut_id);

  b.reader = reader;
  b.nodes = (const CpNode *) (gpointer) reader->nodes->data;
  b.stack = g_array_new (FALSE, FALSE, sizeof (StackEntry));
  b.to_open = g_array_new (FALSE, FALSE, sizeof (guint32));
  b.on_stack = g_new0 (guint32, MAX (n_nodes, 1));
  b.time_self = g_array_new (FALSE, TRUE, sizeof (guint64));
  b.count_self = g_array_new (FALSE, TRUE, sizeof (guint64));
  b.max_steps = 64 * ((guint64) n_nodes + n_samples) + (1 << 24);

  /* the samples that have a time: speedscope's runs of equal samples */
  n_used = MIN (n_samples, n_times);
  elapsed = n_used > 0 ? times[0] : 0;
  run.last_valid = elapsed;
  for (guint i = 0; i < n_used; i++)
    {
      guint32 id = samples[i];

      /* a new run: the previous one's time and samples go to its stack */
      if (!have_last || id != last_id)
        {
          if (!push_sample (&b, &run, &map, id, elapsed))
            break;
          if (_bl_devtools_id_map_lookup (&map, id) == NONE && n_unknown++ == 0)
            first_unknown = i;
          run.pending = 1;
        }
      else
        run.pending++;
      /* the end: the last sample lasts nothing, and speedscope goes back
       * to the stack of the sample before it */
      if (i == n_used - 1 && have_last && !push_sample (&b, &run, &map, last_id, elapsed))
        break;

      if (i < n_used - 1)
        {
          gint64 d = times[i + 1];

          /* sums stay far from overflow */
          elapsed = CLAMP (elapsed + d, G_GINT64_CONSTANT (-4000000000000000000),
                           G_GINT64_CONSTANT (4000000000000000000));
          last_id = id;
          have_last = TRUE;
        }
    }
  if (!run.stopped)
    credit (&b, 0, run.pending);

  for (guint32 node = 0; node < b.time_self->len; node++)
    {
      guint64 time = g_array_index (b.time_self, guint64, node);
      guint64 count = g_array_index (b.count_self, guint64, node);
      guint32 frame;
      const BlFrame *f;

      if (time == 0 && count == 0)
        continue;
      if (time > 0)
        bl_profile_add_value (profile, node, BL_METRIC_TIME_NS, time);
      if (count > 0)
        bl_profile_add_value (profile, node, BL_METRIC_SAMPLES, count);

      frame = bl_profile_get_node_frame (profile, node);
      if (frame == BL_NODE_NONE)
        continue;
      f = bl_profile_get_frame (profile, frame);
      if (f->line != 0)
        {
          guint32 line = bl_profile_lookup_line (profile, f->file, f->line, f->name);

          if (time > 0)
            bl_profile_add_line_value (profile, line, BL_METRIC_TIME_NS, time);
          if (count > 0)
            bl_profile_add_line_value (profile, line, BL_METRIC_SAMPLES, count);
          info->has_lines = TRUE;
        }
    }

  if (n_cut > 0)
    {
      g_autofree char *warning = NULL;

      warning = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "The parents of %u node form a cycle (the "
                                              "first: node %" PRIu32 "); it is shown at the "
                                              "top of the stack.",
                                              "The parents of %u nodes form cycles (the "
                                              "first: node %" PRIu32 "); they are shown at "
                                              "the top of the stack.", n_cut),
                                 n_cut, cut_id);
      bl_profile_add_warning (profile, warning);
    }
  if (n_unknown > 0)
    {
      g_autofree char *warning = NULL;

      warning = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "%u sample names a node the profile does not "
                                              "have (sample %u); its time stays with the "
                                              "stack before it.",
                                              "%u samples name nodes the profile does not "
                                              "have (the first: sample %u); their time stays "
                                              "with the stack before them.", n_unknown),
                                 n_unknown, first_unknown);
      bl_profile_add_warning (profile, warning);
    }
  if (n_samples > n_times && (reader->has_deltas || reader->has_timestamps))
    {
      g_autofree char *warning = NULL;

      warning = g_strdup_printf (_("The profile has %u samples but %u times; only the "
                                   "first %u samples are shown."),
                                 n_samples, n_times, n_used);
      bl_profile_add_warning (profile, warning);
    }
  if (run.stopped)
    bl_profile_add_warning (profile,
                            _("The stacks of the samples change too deeply too often to "
                              "follow them all; the samples after that point are left out."));

  _bl_devtools_id_map_clear (&map);
  g_array_unref (b.stack);
  g_array_unref (b.to_open);
  g_free (b.on_stack);
  g_array_unref (b.time_self);
  g_array_unref (b.count_self);

  return TRUE;
}

/* ---- building a trace's profiles ---------------------------------------- */

static int
compare_items (gconstpointer a,
               gconstpointer b)
{
  const TraceItem *x = *(const TraceItem * const *) a;
  const TraceItem *y = *(const TraceItem * const *) b;

  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;

  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

typedef struct
{
  TraceKey        *key;
  const TraceItem *first;   /* its first Profile event in time order */
} KeyStart;

static int
compare_starts (gconstpointer a,
                gconstpointer b)
{
  const KeyStart *x = a;
  const KeyStart *y = b;

  return compare_items (&x->first, &y->first);
}

/* Puts a chunk's nodes, samples and deltas after the ones before. */
static void
append_chunk (Reader          *reader,
              const TraceItem *item)
{
  guint32 offset = reader->child_ids->len;

  g_array_append_vals (reader->child_ids, item->child_ids->data, item->child_ids->len);
  for (guint i = 0; i < item->nodes->len; i++)
    {
      CpNode node = g_array_index (item->nodes, CpNode, i);

      node.children += offset;
      g_array_append_val (reader->nodes, node);
    }
  g_array_append_vals (reader->samples, item->samples->data, item->samples->len);
  g_array_append_vals (reader->times, item->times->data, item->times->len);
}

static gboolean
build_trace (Reader  *reader,
             Trace   *trace,
             GError **error)
{
  BlProfileInfo *info = bl_profile_get_info_mutable (reader->profile);
  g_autoptr(GArray) starts = g_array_new (FALSE, FALSE, sizeof (KeyStart));
  guint n_orphans = 0;

  for (guint k = 0; k < trace->key_order->len; k++)
    {
      TraceKey *key = g_ptr_array_index (trace->key_order, k);
      KeyStart start = { key, NULL };

      g_ptr_array_sort (key->items, compare_items);
      for (guint i = 0; i < key->items->len; i++)
        {
          const TraceItem *item = g_ptr_array_index (key->items, i);

          if (item->kind != EVENT_CHUNK && start.first == NULL)
            start.first = item;
          else if (item->kind == EVENT_CHUNK && start.first == NULL)
            n_orphans++;
        }
      if (start.first != NULL)
        g_array_append_val (starts, start);
    }
  /* the profiles in the order their first Profile event comes */
  g_array_sort (starts, compare_starts);

  if (starts->len == 0)
    {
      g_set_error_literal (error, BL_CPUPROFILE_ERROR, BL_CPUPROFILE_ERROR_MISSING,
                           _("This Chrome trace has no CPU profile: it has no “Profile” "
                             "or “CpuProfile” event."));
      return FALSE;
    }

  for (guint s = 0; s < starts->len; s++)
    {
      const KeyStart *start = &g_array_index (starts, KeyStart, s);
      const char *pid_tid = NULL;
      const ThreadName *thread_name;
      g_autofree char *name = NULL;

      scratch_reset (reader);
      for (guint i = 0; i < start->key->items->len; i++)
        {
          const TraceItem *item = g_ptr_array_index (start->key->items, i);

          if (item->kind != EVENT_CHUNK)
            {
              /* a Profile or CpuProfile event starts its profile over */
              scratch_reset (reader);
              pid_tid = item->pid_tid;
            }
          if (item->kind != EVENT_PROFILE && pid_tid != NULL)
            append_chunk (reader, item);
        }

      thread_name = g_hash_table_lookup (trace->thread_names, pid_tid);
      if (thread_name != NULL)
        name = g_strdup (thread_name->name);
      else if (starts->len == 1)
        name = g_strdup (BL_DEVTOOLS_THREAD_NAME);
      else
        name = g_strdup_printf (_("Thread %s"), pid_tid);

      reader->has_nodes = TRUE;
      reader->has_head = FALSE;
      reader->has_samples = TRUE;
      reader->has_deltas = TRUE;
      reader->has_timestamps = FALSE;
      if (!build_profile (reader, name, error))
        return FALSE;
    }
  info->format = "chrome-trace";

  if (n_orphans > 0)
    {
      g_autofree char *warning = NULL;

      warning = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "%u “ProfileChunk” event comes before any "
                                              "“Profile” event of its id; it is left out.",
                                              "%u “ProfileChunk” events come before any "
                                              "“Profile” event of their id; they are left "
                                              "out.", n_orphans),
                                 n_orphans);
      bl_profile_add_warning (reader->profile, warning);
    }

  return TRUE;
}

static BlProfile *
read_all (BlJsonReader *json,
          GError      **error)
{
  g_autoptr(BlProfile) profile = bl_profile_new ("cpuprofile");
  g_autoptr(GError) read_error = NULL;
  Reader reader = { 0 };
  Trace trace = { 0 };
  gboolean ok;

  bl_json_reader_set_max_depth (json, BL_DEVTOOLS_MAX_DEPTH);
  reader.json = json;
  reader.profile = profile;
  _bl_devtools_frames_init (&reader.frames, profile);
  _bl_devtools_ids_init (&reader.ids);
  reader.nodes = g_array_new (FALSE, FALSE, sizeof (CpNode));
  reader.child_ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  reader.samples = g_array_new (FALSE, FALSE, sizeof (guint32));
  reader.times = g_array_new (FALSE, FALSE, sizeof (gint64));
  reader.inner_times = g_array_new (FALSE, FALSE, sizeof (gint64));
  trace.keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  trace.key_order = g_ptr_array_new_with_free_func (trace_key_free);
  trace.thread_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                              thread_name_free);
  reader.trace = &trace;

  ok = read_document (&reader, &read_error);
  if (reader.is_trace)
    {
      gboolean truncated = g_error_matches (read_error, BL_JSON_ERROR, BL_JSON_ERROR_TRUNCATED);

      if (ok || truncated)
        {
          g_autoptr(GError) build_error = NULL;

          ok = build_trace (&reader, &trace, &build_error);
          /* cut short before any profile: the cut is the news */
          if (!ok)
            g_propagate_error (error, truncated ? g_steal_pointer (&read_error)
                                                : g_steal_pointer (&build_error));
          else if (truncated)
            {
              g_autofree char *reason =
                g_strdup_printf (_("The file ends early, at byte %" PRIu64 " (line %" PRIu64
                                   ", column %" PRIu64 "); the %u complete trace events "
                                   "before it are shown."),
                                 bl_json_reader_get_bytes_read (json),
                                 bl_json_reader_get_line (json), bl_json_reader_get_column (json),
                                 trace.n_events);

              bl_profile_set_incomplete (profile, reason);
            }
        }
      else
        g_propagate_error (error, g_steal_pointer (&read_error));
    }
  else if (!ok && g_error_matches (read_error, BL_JSON_ERROR, BL_JSON_ERROR_TRUNCATED) &&
           reader.nodes->len > 0)
    {
      guint n_samples = MIN (reader.samples->len, reader.times->len);

      ok = build_profile (&reader, BL_DEVTOOLS_THREAD_NAME, error);
      if (ok)
        {
          g_autofree char *reason =
            g_strdup_printf (_("The file ends early, at byte %" PRIu64 " (line %" PRIu64
                               ", column %" PRIu64 "); the %u complete nodes and %u samples "
                               "before it are shown."),
                             bl_json_reader_get_bytes_read (json), bl_json_reader_get_line (json),
                             bl_json_reader_get_column (json), reader.nodes->len, n_samples);

          bl_profile_set_incomplete (profile, reason);
        }
    }
  else if (!ok)
    g_propagate_error (error, g_steal_pointer (&read_error));
  else
    ok = build_profile (&reader, BL_DEVTOOLS_THREAD_NAME, error);

  g_hash_table_unref (trace.keys);
  g_ptr_array_unref (trace.key_order);
  g_hash_table_unref (trace.thread_names);
  _bl_devtools_frames_clear (&reader.frames);
  _bl_devtools_ids_clear (&reader.ids);
  g_array_unref (reader.nodes);
  g_array_unref (reader.child_ids);
  g_array_unref (reader.samples);
  g_array_unref (reader.times);
  g_array_unref (reader.inner_times);

  if (!ok)
    return NULL;

  bl_profile_finish (profile);

  return g_steal_pointer (&profile);
}

/* Whether the events at @json (its "[" read) are a trace with a CPU
 * profile: the first is an event (it has a "ph") and one of those in view
 * is named "Profile", "ProfileChunk" or "CpuProfile". Traces of other things are left to
 * other readers. */
static gboolean
detect_trace_events (BlJsonReader *json)
{
  gboolean first = TRUE;
  BlJsonToken token;

  while ((token = bl_json_reader_next (json, NULL)) == BL_JSON_TOKEN_BEGIN_OBJECT)
    {
      gboolean has_ph = FALSE, is_profile = FALSE;

      while ((token = bl_json_reader_next (json, NULL)) == BL_JSON_TOKEN_MEMBER)
        {
          const char *name = bl_json_reader_get_string (json, NULL);

          if (strcmp (name, "ph") == 0)
            has_ph = TRUE;
          if (strcmp (name, "name") == 0)
            {
              token = bl_json_reader_next (json, NULL);
              if (token == BL_JSON_TOKEN_STRING)
                {
                  const char *value = bl_json_reader_get_string (json, NULL);

                  is_profile = strcmp (value, "Profile") == 0 ||
                               strcmp (value, "ProfileChunk") == 0 ||
                               strcmp (value, "CpuProfile") == 0;
                }
              else if (token == BL_JSON_TOKEN_ERROR || !bl_json_reader_skip_value (json, NULL))
                return FALSE;
            }
          else if (!bl_json_reader_skip_value (json, NULL))
            return FALSE;
          /* the rest of the event may be past the end of @head */
          if (has_ph && is_profile)
            return TRUE;
        }
      if (token != BL_JSON_TOKEN_END_OBJECT || (first && !has_ph))
        return FALSE;
      if (has_ph && is_profile)
        return TRUE;
      first = FALSE;
    }

  return FALSE;
}

/* A trace (JSON Array or Object Format) with a CPU profile in view */
static gboolean
detect_trace (const guint8 *head,
              gsize         len)
{
  g_autoptr(BlJsonReader) json = bl_json_reader_new_for_data (head, len);
  BlJsonToken token = bl_json_reader_next (json, NULL);

  if (token == BL_JSON_TOKEN_BEGIN_ARRAY)
    return detect_trace_events (json);
  if (token != BL_JSON_TOKEN_BEGIN_OBJECT)
    return FALSE;

  while (bl_json_reader_next (json, NULL) == BL_JSON_TOKEN_MEMBER)
    {
      if (strcmp (bl_json_reader_get_string (json, NULL), "traceEvents") == 0)
        return bl_json_reader_next (json, NULL) == BL_JSON_TOKEN_BEGIN_ARRAY &&
               detect_trace_events (json);
      if (!bl_json_reader_skip_value (json, NULL))
        return FALSE;
    }

  return FALSE;
}

/**
 * bl_cpuprofile_detect:
 *
 * Returns: whether @head is the start of a JSON object that is a Chrome
 *   CPU profile: its first member is "nodes" whose first element has a
 *   "callFrame" or an "id"; or it has "nodes" or "head" (a node with a
 *   "functionName") together with "samples", "timeDeltas" or "startTime";
 *   or its head is a node with a "functionName" and then a "callUID",
 *   "hitCount" or "bailoutReason" (Node 10's format), or (in the sniffer's
 *   summary of a long document) a head and "timestamps"; or @head is a
 *   trace (an array of events, or an object with "traceEvents") whose
 *   events in view include a "Profile", "ProfileChunk" or "CpuProfile"
 */
gboolean
bl_cpuprofile_detect (const guint8 *head,
                      gsize         len)
{
  gsize skip = len >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF ? 3 : 0;
  g_autoptr(BlJsonReader) json = bl_json_reader_new_for_data (head + skip, len - skip);
  BlJsonToken token;
  gboolean has_nodes = FALSE, has_old_head = FALSE, has_null_head = FALSE, has_times = FALSE;
  gboolean reader_has_timestamps = FALSE;
  guint n_members = 0;

  if (detect_trace (head + skip, len - skip))
    return TRUE;
  if (bl_json_reader_next (json, NULL) != BL_JSON_TOKEN_BEGIN_OBJECT)
    return FALSE;

  while ((token = bl_json_reader_next (json, NULL)) == BL_JSON_TOKEN_MEMBER)
    {
      const char *name = bl_json_reader_get_string (json, NULL);

      n_members++;
      if (strcmp (name, "snapshot") == 0)
        return FALSE;   /* a heap snapshot: its nodes are numbers */
      if (strcmp (name, "nodes") == 0)
        {
          has_nodes = TRUE;
          token = bl_json_reader_next (json, NULL);
          /* the first node, when it is in view */
          if (token == BL_JSON_TOKEN_BEGIN_ARRAY)
            {
              token = bl_json_reader_next (json, NULL);
              if (token == BL_JSON_TOKEN_BEGIN_OBJECT &&
                  bl_json_reader_next (json, NULL) == BL_JSON_TOKEN_MEMBER)
                {
                  const char *first = bl_json_reader_get_string (json, NULL);

                  if (n_members == 1 &&
                      (strcmp (first, "callFrame") == 0 || strcmp (first, "id") == 0))
                    return TRUE;
                }
              else if (token != BL_JSON_TOKEN_BEGIN_OBJECT && token != BL_JSON_TOKEN_END_ARRAY)
                return FALSE;
            }
          /* the rest of the nodes */
          while (bl_json_reader_get_depth (json) > 1)
            {
              token = bl_json_reader_next (json, NULL);
              if (token == BL_JSON_TOKEN_ERROR ||
                  ((token == BL_JSON_TOKEN_BEGIN_OBJECT || token == BL_JSON_TOKEN_BEGIN_ARRAY) &&
                   !bl_json_reader_skip_value (json, NULL)))
                return FALSE;
            }
        }
      else if (strcmp (name, "head") == 0)
        {
          token = bl_json_reader_next (json, NULL);
          /* the sniffer's summary of a long document has no values */
          if (token == BL_JSON_TOKEN_NULL)
            {
              has_null_head = TRUE;
              continue;
            }
          if (token != BL_JSON_TOKEN_BEGIN_OBJECT)
            return FALSE;
          while ((token = bl_json_reader_next (json, NULL)) == BL_JSON_TOKEN_MEMBER)
            {
              const char *member = bl_json_reader_get_string (json, NULL);

              /* a heap profile's head has a callFrame and a selfSize */
              if (strcmp (member, "callFrame") == 0 || strcmp (member, "selfSize") == 0)
                return FALSE;
              if (strcmp (member, "functionName") == 0)
                has_old_head = TRUE;
              /* V8's old node: a function name, then these before its children */
              else if (has_old_head &&
                       (strcmp (member, "callUID") == 0 || strcmp (member, "hitCount") == 0 ||
                        strcmp (member, "bailoutReason") == 0))
                return TRUE;
              if (!bl_json_reader_skip_value (json, NULL))
                return FALSE;
            }
          if (token != BL_JSON_TOKEN_END_OBJECT)
            return FALSE;
        }
      else
        {
          if (strcmp (name, "samples") == 0 || strcmp (name, "timeDeltas") == 0 ||
              strcmp (name, "startTime") == 0 || strcmp (name, "timestamps") == 0)
            has_times = TRUE;
          if (strcmp (name, "timestamps") == 0)
            reader_has_timestamps = TRUE;
          if (!bl_json_reader_skip_value (json, NULL))
            return FALSE;
        }
      if ((has_nodes || has_old_head) && has_times)
        return TRUE;
      if (has_null_head && reader_has_timestamps)
        return TRUE;
    }

  return FALSE;
}

/**
 * bl_cpuprofile_read_stream:
 * @total: the size of the input, for progress, or 0
 *
 * Returns: (transfer full): the profile, or %NULL with @error set
 */
BlProfile *
bl_cpuprofile_read_stream (GInputStream   *stream,
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
 * bl_cpuprofile_read_memory:
 *
 * Returns: (transfer full): the profile, or %NULL with @error set
 */
BlProfile *
bl_cpuprofile_read_memory (const guint8  *data,
                           gsize          len,
                           GError       **error)
{
  g_autoptr(BlJsonReader) json = bl_json_reader_new_for_data (data, len);

  return read_all (json, error);
}
