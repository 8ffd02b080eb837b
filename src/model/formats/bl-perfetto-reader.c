/* bl-perfetto-reader.c — Perfetto protobuf traces (Roku OS 15.1+ roPerfetto)
 *
 * The trace is a stream of TracePackets (field 1 of Trace). Each packet is
 * brought whole into the source window and decoded in place with the
 * bounded wire reader; nothing but the compact per-track event records
 * outlives a packet. At the end each track's events are ordered by
 * timestamp (ties in file order) and turned into the call tree and the
 * time order of one profile thread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-perfetto"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bl-big-array-private.h"
#include "bl-heap.h"
#include "bl-heap-private.h"
#include "bl-perfetto-private.h"
#include "bl-profile-private.h"
#include "bl-perfetto-reader.h"
#include "bl-protobuf-private.h"
#include "bl-source-private.h"

G_DEFINE_QUARK (bl-perfetto-error-quark, bl_perfetto_error)

/* Decompressed bytes of one compressed_packets field, at most. */
#define MAX_INFLATED (256 * 1024 * 1024)

#define TRACE_CLOCK_DEFAULT 6   /* boottime */
#define BUILTIN_MONOTONIC     3
#define LEGACY_THREAD_KEY   (G_GUINT64_CONSTANT (1) << 63)

enum
{
  EV_SLICE_BEGIN = 1,
  EV_SLICE_END = 2,
  EV_INSTANT = 3,
  EV_COUNTER = 4,
};

/* A slice or instant event of a track, kept until the end in 8 bytes: its
 * time less the track's previous event's, and its bits. An event whose
 * time is not within 2^32 - 1 ns after the previous one's is preceded by an
 * escape record (type EV_ESCAPE) holding the time's high half, and its own
 * record holds the low half. A track's events are in file order, and
 * sorted stably by time when a timestamp went back. The few events with
 * annotations or flows have their name, file order and extras aside, the
 * index of which takes the name's place. */
typedef struct
{
  guint32 delta;      /* or the low half of the time after an escape, or its high half */
  guint32 bits;       /* name or extra << EV_NAME_SHIFT | EV_HAS_EXTRA | type */
} Event;

#define EV_ESCAPE 0u

/* An event with its whole time, while sorting a track. */
typedef struct
{
  guint64 ts;
  guint32 bits;
} FullEvent;

#define EV_TYPE_MASK  3u
#define EV_HAS_EXTRA  4u
#define EV_NAME_SHIFT 3
#define EV_NAME_NONE  (G_MAXUINT32 >> EV_NAME_SHIFT)

static inline guint32
event_type (guint32 bits)
{
  return bits & EV_TYPE_MASK;
}

static inline guint32
event_bits (guint32 name,
            guint32 type)
{
  return (MIN (name, EV_NAME_NONE) << EV_NAME_SHIFT) | type;
}

/* A track's events: a big array (bl-big-array.c), so that the millions
 * of a long trace cost few page faults. */
typedef struct
{
  Event *data;
  gsize  len;
  gsize  cap;
} EventList;

static G_GNUC_NO_INLINE void
event_list_grow (EventList *list)
{
  gsize cap = MAX (list->cap * 2, 1024);

  list->data = bl_big_array_grow (list->data, list->cap * sizeof (Event), cap * sizeof (Event));
  list->cap = cap;
}

static void
event_list_clear (EventList *list)
{
  if (list->data != NULL)
    bl_big_array_free (list->data, list->cap * sizeof (Event));
  list->data = NULL;
  list->len = list->cap = 0;
}

/* Appends an event at @ts to @events, whose last event was at *@last. */
static inline void
events_append (EventList *events,
               guint64   *last,
               guint64    ts,
               guint32    bits)
{
  Event *ev;

  if G_UNLIKELY (events->cap - events->len < 2)
    event_list_grow (events);
  ev = &events->data[events->len];
  if (G_UNLIKELY (ts < *last || ts - *last >= G_MAXUINT32 || events->len == 0))
    {
      ev->delta = (guint32) (ts >> 32);
      ev->bits = EV_ESCAPE;
      ev++;
      events->len++;
      ev->delta = (guint32) ts;
    }
  else
    ev->delta = (guint32) (ts - *last);
  ev->bits = bits;
  events->len++;
  *last = ts;
}

/* The event at *@pos of @events, whose previous event was at *@last:
 * sets *@ts and returns its bits, *@pos moved past it. */
static inline guint32
events_next (const Event *events,
             gsize       *pos,
             guint64     *last)
{
  const Event *ev = &events[(*pos)++];

  if (ev->bits == EV_ESCAPE)
    {
      guint64 hi = ev->delta;

      ev = &events[(*pos)++];
      *last = hi << 32 | ev->delta;
    }
  else
    *last += ev->delta;

  return ev->bits;
}

/* The name (or EV_NAME_NONE) in an event's bits */
static inline guint32
event_name_bits (guint32 bits)
{
  guint32 name = bits >> EV_NAME_SHIFT;

  return name == EV_NAME_NONE ? G_MAXUINT32 : name;
}

typedef struct
{
  guint32 annotation; /* index into reader->annotation_texts, or G_MAXUINT32 */
  guint32 flow_first; /* into reader->flow_refs */
  guint32 n_flows;
  guint32 order;      /* the event's, in file order */
  guint32 name;       /* the event's name bits */
} EventExtra;

typedef struct
{
  guint64 id;
  gboolean terminating;
} FlowRef;

typedef struct
{
  guint64  ts;
  guint32  order;
  double   value;
} RawPoint;

typedef struct
{
  guint64  uuid;
  guint64  parent;
  guint32  first_seen;
  char    *name;
  char    *thread_name;
  char    *process_name;
  gint64   pid;
  gint64   tid;
  gboolean is_thread;
  gboolean is_process;
  gboolean is_counter;
  gboolean is_incremental;
  gint64   unit_multiplier;
  char    *unit;
  EventList events;
  guint64  last_ts;   /* of its last event */
  gboolean events_unsorted;   /* a timestamp went back in file order */
  GArray  *points;    /* RawPoint */
} Track;

typedef struct
{
  gboolean incremental;
  guint64  multiplier;
  guint64  last;        /* in clock units, for incremental clocks */
  guint64  snap_clock;  /* the snapshot's value of this clock, in ns */
  guint64  snap_trace;  /* the trace clock at that snapshot */
  gboolean has_snapshot;
} Clock;

typedef struct _HeapDump HeapDump;

/* The call tree's child lookup, kept by the reader: a node's few children
 * are found walking its sibling list; the children of a node with more are
 * also in an open-addressing table keyed (parent, name). Nodes are
 * appended with _bl_profile_append_child(), so the profile keeps no index
 * of its own for them. */
#define FEW_CHILDREN 8

typedef struct
{
  guint64 key;       /* parent << 32 | name; G_MAXUINT64: empty */
  guint32 node;
} ChildSlot;

/* The children found last, by (parent, name), in a small direct-mapped
 * table that stays in the cache: most slices begin where one did before. */
#define CHILD_CACHE_BITS 14

typedef struct
{
  guint32 parent;    /* G_MAXUINT32: empty */
  guint32 name;
  guint32 node;
} ChildCached;

typedef struct
{
  guint8    *n_children;   /* per node, saturating at FEW_CHILDREN + 1 */
  guint8    *outermost;    /* per node: no ancestor has its name (1 for thread roots) */
  gsize      cap;
  guint32   *on_stack;     /* per name: slices of that name open on the track built */
  gsize      n_on_stack;
  ChildSlot *slots;
  gsize      mask;
  gsize      used;
  ChildCached *cached;
} ChildIndex;

typedef struct
{
  GHashTable *names;        /* iid → string id + 1 */
  GArray     *name_array;   /* guint32 per small iid: string id, or NAME_IN_HASH */
  GHashTable *categories;
  GHashTable *annotation_names;
  GHashTable *clocks;       /* sequence-scoped clock id → Clock* */
  guint64     default_track;
  gboolean    has_default_track;
  guint32     default_clock;
  gboolean    has_default_clock;
  GArray     *default_extra_counters;   /* guint64 uuids */
  gboolean    has_thread;
  gint64      pid;
  gint64      tid;
  /* incremental state is valid once a packet cleared it, until a packet
   * says the one before it was lost (as Perfetto's trace processor) */
  gboolean    state_valid;
  /* legacy timestamps relative to the thread descriptor's reference */
  gboolean    legacy_ts_valid;
  guint64     legacy_ts;     /* ns, monotonic clock */
  guint64     legacy_thread_ts;
  HeapDump   *heap;          /* a dump continued over packets */
  Track      *event_track;   /* the track of its last event */
} Sequence;

typedef struct _HeapWorker HeapWorker;
typedef struct _Reader Reader;

struct _Reader
{
  BlProfile   *profile;
  GHashTable  *tracks;       /* uuid → Track* */
  GPtrArray   *track_list;   /* in order of first sight */
  GHashTable  *sequences;    /* sequence id → Sequence* */
  GHashTable  *global_clocks; /* builtin clock id → Clock* */
  GHashTable  *process_names; /* pid → char* */
  guint32      trace_clock;
  Sequence    *small_seqs[256]; /* the sequences of ids below 256, the usual ones */
  Sequence    *last_seq;     /* lookup caches: packets come in runs */
  guint64      last_seq_id;
  Track       *last_track;
  GPtrArray   *annotation_texts;
  GArray      *extras;       /* EventExtra */
  GArray      *flow_refs;    /* FlowRef */
  guint64      max_event_ts;
  gboolean     has_event_ts;
  guint32      order;
  guint64      n_packets;
  guint64      n_heap_graphs;
  guint64      n_skipped_packets;   /* need incremental state never set up */
  guint64      n_skipped_events;    /* legacy relative timestamps without a reference */
  guint64      n_untimed_events;    /* no timestamp at all */
  GPtrArray   *heaps;        /* BlHeap, complete dumps */
  char        *heap_warning;
  guint64      n_annotations;
  char        *problem;      /* why decoding stopped early, or NULL */
  gboolean     inflate_warned;
  gboolean     analyse;      /* finish the heap graphs once all is read */
  ChildIndex   children;
  /* the heap graphs are decoded with a reader of their own (its problem,
   * heaps, heap_warning and n_heap_graphs), in this thread or, once they
   * are many bytes, by a worker (see HeapWorker) */
  Reader      *hr;
  HeapWorker  *worker;
  guint64      heap_bytes;    /* of the heap graphs met so far */
  gboolean     heap_pending;  /* heap graphs handed to the worker since it was last idle */
  guint64      packet_at;     /* the offset of the top-level packet being read */
  guint64      complete;      /* top-level packets read whole */
  guint64      total;         /* the input's size, 0 if unknown */
  guint32      n_heaps_finished;  /* heaps[0 … n) had bl_heap_finish() (by the worker) */
};

static void
track_free (gpointer data)
{
  Track *track = data;

  g_free (track->name);
  g_free (track->thread_name);
  g_free (track->process_name);
  g_free (track->unit);
  event_list_clear (&track->events);
  g_array_unref (track->points);
  g_free (track);
}

static void heap_dump_free (gpointer data);

static void
sequence_free (gpointer data)
{
  Sequence *seq = data;

  g_hash_table_unref (seq->names);
  g_array_unref (seq->name_array);
  g_hash_table_unref (seq->categories);
  g_hash_table_unref (seq->annotation_names);
  g_hash_table_unref (seq->clocks);
  g_array_unref (seq->default_extra_counters);
  heap_dump_free (seq->heap);
  g_free (seq);
}

static void
sequence_clear_state (Sequence *seq)
{
  g_hash_table_remove_all (seq->names);
  g_array_set_size (seq->name_array, 0);
  g_hash_table_remove_all (seq->categories);
  g_hash_table_remove_all (seq->annotation_names);
  g_hash_table_remove_all (seq->clocks);
  g_array_set_size (seq->default_extra_counters, 0);
  seq->has_default_track = FALSE;
  seq->has_default_clock = FALSE;
}

/* The sequence of @id if a packet of it came before, else NULL. */
static Sequence *
find_sequence (Reader  *reader,
               guint64  id)
{
  if (id < G_N_ELEMENTS (reader->small_seqs))
    return reader->small_seqs[id];

  return g_hash_table_lookup (reader->sequences, (gpointer) (guintptr) id);
}

static Sequence *get_sequence_slow (Reader  *reader,
                                    guint64  id);

static inline Sequence *
get_sequence (Reader  *reader,
              guint64  id)
{
  if G_LIKELY (id < G_N_ELEMENTS (reader->small_seqs) && reader->small_seqs[id] != NULL)
    return reader->small_seqs[id];

  return get_sequence_slow (reader, id);
}

static G_GNUC_NO_INLINE Sequence *
get_sequence_slow (Reader  *reader,
                   guint64  id)
{
  Sequence *seq;

  if (reader->last_seq != NULL && reader->last_seq_id == id)
    return reader->last_seq;

  seq = g_hash_table_lookup (reader->sequences, (gpointer) (guintptr) id);
  if (seq != NULL)
    {
      reader->last_seq = seq;
      reader->last_seq_id = id;
      return seq;
    }

  seq = g_new0 (Sequence, 1);
  seq->names = g_hash_table_new (g_direct_hash, g_direct_equal);
  seq->name_array = g_array_new (FALSE, FALSE, sizeof (guint32));
  seq->categories = g_hash_table_new (g_direct_hash, g_direct_equal);
  seq->annotation_names = g_hash_table_new (g_direct_hash, g_direct_equal);
  seq->clocks = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  seq->default_extra_counters = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_hash_table_insert (reader->sequences, (gpointer) (guintptr) id, seq);
  if (id < G_N_ELEMENTS (reader->small_seqs))
    reader->small_seqs[id] = seq;
  reader->last_seq = seq;
  reader->last_seq_id = id;

  return seq;
}

static Track *
get_track (Reader  *reader,
           guint64  uuid)
{
  Track *track;

  if (reader->last_track != NULL && reader->last_track->uuid == uuid)
    return reader->last_track;

  track = g_hash_table_lookup (reader->tracks, (gpointer) (guintptr) uuid);
  if (track != NULL)
    {
      reader->last_track = track;
      return track;
    }

  track = g_new0 (Track, 1);
  track->uuid = uuid;
  track->first_seen = reader->track_list->len;
  track->unit_multiplier = 1;
  track->points = g_array_new (FALSE, FALSE, sizeof (RawPoint));
  g_hash_table_insert (reader->tracks, (gpointer) (guintptr) uuid, track);
  g_ptr_array_add (reader->track_list, track);
  reader->last_track = track;

  return track;
}

static void
set_str (char       **dest,
         const char  *src)
{
  char *copy = g_strdup (src);

  g_free (*dest);
  *dest = copy;
}

static void
set_problem (Reader     *reader,
             const char *problem)
{
  if (reader->problem == NULL)
    reader->problem = g_strdup (problem);
}

static guint32
lookup_iid (GHashTable *table,
            guint64     iid)
{
  gpointer v = g_hash_table_lookup (table, (gpointer) (guintptr) iid);

  return v == NULL ? G_MAXUINT32 : GPOINTER_TO_UINT (v) - 1;
}

/* Event names by iid: iids count up from 1, so the interned names of a
 * sequence are mostly in an array indexed by iid; it grows only while it
 * stays as dense as the names it holds (a file cannot make it large
 * with a few huge iids), the others are in the hash table only. */
#define NAME_IN_HASH G_MAXUINT32

static void
intern_name (Sequence *seq,
             guint64   iid,
             guint32   id)
{
  GArray *array = seq->name_array;

  g_hash_table_insert (seq->names, (gpointer) (guintptr) iid, GUINT_TO_POINTER (id + 1));
  if (iid >= array->len && iid < 2 * (guint64) g_hash_table_size (seq->names) + 64)
    {
      guint old = array->len;

      g_array_set_size (array, (guint) iid + 1);
      for (guint i = old; i < array->len; i++)
        g_array_index (array, guint32, i) = NAME_IN_HASH;
    }
  if (iid < array->len)
    g_array_index (array, guint32, iid) = id;
}

static inline guint32
lookup_name (Sequence *seq,
             guint64   iid)
{
  if (iid < seq->name_array->len)
    {
      guint32 id = g_array_index (seq->name_array, guint32, iid);

      if (id != NAME_IN_HASH)
        return id;
    }

  return lookup_iid (seq->names, iid);
}

/* Walks a message's fields; on a malformed field records why and returns
 * FALSE. Used as: while ((ok = next_field (...)) == BL_PB_FIELD) … */
static G_GNUC_NO_INLINE void
field_problem (Reader     *reader,
               BlPbStatus  status,
               const char *what)
{
  g_autofree char *problem =
    g_strdup_printf (_("a %s is malformed: %s"), _(what), bl_pb_status_describe (status));

  set_problem (reader, problem);
}

static inline BlPbStatus
next_field (Reader     *reader,
            BlPbCursor *cursor,
            BlPbField  *field,
            const char *what)
{
  BlPbStatus status = bl_pb_next (cursor, field);

  if G_UNLIKELY (status != BL_PB_FIELD && status != BL_PB_END)
    field_problem (reader, status, what);

  return status;
}

#define FOR_FIELDS(reader, cursor, field, what, status) \
  while (((status) = next_field ((reader), (cursor), (field), (what))) == BL_PB_FIELD)

#define FIELDS_OK(status) ((status) == BL_PB_END)

/* ---- interned data ---- */

static gboolean
read_interned_entry (Reader          *reader,
                     Sequence        *seq,
                     const BlPbField *entry,
                     GHashTable      *table)
{
  BlPbCursor c;
  BlPbField f;
  BlPbStatus status;
  guint64 iid = 0;
  const guint8 *name = NULL;
  gsize name_len = 0;

  bl_pb_field_cursor (entry, &c);
  FOR_FIELDS (reader, &c, &f, N_("interned name"), status)
    {
      if (f.number == 1 && f.wire == BL_PB_VARINT)
        iid = f.value;
      else if (f.number == 2 && f.wire == BL_PB_BYTES)
        {
          name = f.data;
          name_len = f.len;
        }
    }
  if (!FIELDS_OK (status))
    return FALSE;

  if (name != NULL)
    {
      g_autofree char *valid = g_utf8_make_valid ((const char *) name, name_len);
      guint32 id = bl_profile_intern (reader->profile, valid);

      if (table == seq->names)
        intern_name (seq, iid, id);
      else
        g_hash_table_insert (table, (gpointer) (guintptr) iid, GUINT_TO_POINTER (id + 1));
    }

  return TRUE;
}

static gboolean
read_interned_data (Reader          *reader,
                    Sequence        *seq,
                    const BlPbField *data)
{
  BlPbCursor c;
  BlPbField f;
  BlPbStatus status;

  bl_pb_field_cursor (data, &c);
  FOR_FIELDS (reader, &c, &f, N_("interned data"), status)
    {
      GHashTable *table = NULL;

      if (f.wire != BL_PB_BYTES)
        continue;
      if (f.number == 1)
        table = seq->categories;
      else if (f.number == 2)
        table = seq->names;
      else if (f.number == 3)
        table = seq->annotation_names;
      if (table != NULL && !read_interned_entry (reader, seq, &f, table))
        return FALSE;
    }

  return FIELDS_OK (status);
}

/* Appends the uuids of a packed or unpacked repeated varint field. */
static gboolean
append_varints (const BlPbField *f,
                GArray          *out)
{
  if (f->wire == BL_PB_VARINT)
    {
      g_array_append_val (out, f->value);
      return TRUE;
    }
  if (f->wire == BL_PB_BYTES)
    {
      const guint8 *p = f->data;
      const guint8 *end = f->data + f->len;

      while (p < end)
        {
          guint64 v;

          if (!bl_pb_read_varint (&p, end, &v))
            return FALSE;
          g_array_append_val (out, v);
        }
      return TRUE;
    }
  if (f->wire == BL_PB_FIXED64)
    {
      g_array_append_val (out, f->value);
      return TRUE;
    }

  return TRUE;
}

static gboolean
read_defaults (Reader          *reader,
               Sequence        *seq,
               const BlPbField *data)
{
  BlPbCursor c, tc;
  BlPbField f, tf;
  BlPbStatus status;

  bl_pb_field_cursor (data, &c);
  FOR_FIELDS (reader, &c, &f, N_("packet defaults message"), status)
    {
      if (f.number == 58 && f.wire == BL_PB_VARINT)
        {
          seq->default_clock = (guint32) f.value;
          seq->has_default_clock = TRUE;
        }
      else if (f.number == 11 && f.wire == BL_PB_BYTES)
        {
          bl_pb_field_cursor (&f, &tc);
          FOR_FIELDS (reader, &tc, &tf, N_("track event defaults message"), status)
            {
              if (tf.number == 11 && tf.wire == BL_PB_VARINT)
                {
                  seq->default_track = tf.value;
                  seq->has_default_track = TRUE;
                }
              else if (tf.number == 31)
                {
                  if (!append_varints (&tf, seq->default_extra_counters))
                    {
                      set_problem (reader, _("a packed list of counter tracks is malformed"));
                      return FALSE;
                    }
                }
            }
          if (!FIELDS_OK (status))
            return FALSE;
        }
    }

  return FIELDS_OK (status);
}

/* ---- clocks ---- */

static gboolean
read_clock_snapshot (Reader          *reader,
                     Sequence        *seq,
                     const BlPbField *data)
{
  BlPbCursor c, cc;
  BlPbField f, cf;
  BlPbStatus status;
  guint32 primary = reader->trace_clock;
  g_autoptr (GArray) clocks = g_array_new (FALSE, TRUE, sizeof (guint64) * 4);
  guint64 trace_ts = 0;
  gboolean has_trace_ts = FALSE;

  bl_pb_field_cursor (data, &c);
  FOR_FIELDS (reader, &c, &f, N_("clock snapshot"), status)
    {
      if (f.number == 2 && f.wire == BL_PB_VARINT)
        primary = (guint32) f.value;
      else if (f.number == 1 && f.wire == BL_PB_BYTES)
        {
          guint64 entry[4] = { 0, 0, 0, 1 };   /* id, timestamp, incremental, multiplier */

          bl_pb_field_cursor (&f, &cc);
          FOR_FIELDS (reader, &cc, &cf, N_("clock"), status)
            {
              if (cf.wire != BL_PB_VARINT)
                continue;
              if (cf.number >= 1 && cf.number <= 4)
                entry[cf.number - 1] = cf.value;
            }
          if (!FIELDS_OK (status))
            return FALSE;
          if (entry[3] == 0)
            entry[3] = 1;
          g_array_append_vals (clocks, entry, 1);
        }
    }
  if (!FIELDS_OK (status))
    return FALSE;

  reader->trace_clock = primary;

  for (guint i = 0; i < clocks->len; i++)
    {
      const guint64 *entry = (const guint64 *) (clocks->data + i * sizeof (guint64) * 4);

      if (entry[0] == primary)
        {
          trace_ts = entry[1] * entry[3];
          has_trace_ts = TRUE;
        }
    }

  for (guint i = 0; i < clocks->len; i++)
    {
      const guint64 *entry = (const guint64 *) (clocks->data + i * sizeof (guint64) * 4);
      GHashTable *table = (entry[0] >= 64 && entry[0] <= 127) ? seq->clocks : reader->global_clocks;
      Clock *clock;

      if (entry[0] > G_MAXUINT32)
        continue;
      clock = g_new0 (Clock, 1);
      clock->incremental = entry[2] != 0;
      clock->multiplier = entry[3];
      clock->last = entry[1];
      clock->snap_clock = entry[1] * entry[3];
      clock->snap_trace = has_trace_ts ? trace_ts : clock->snap_clock;
      clock->has_snapshot = TRUE;
      g_hash_table_replace (table, GUINT_TO_POINTER ((guint32) entry[0]), clock);
    }

  return TRUE;
}

static guint64
to_trace_time (Reader   *reader,
               Sequence *seq,
               guint32   clock_id,
               guint64   raw)
{
  Clock *clock;
  guint64 ns;

  if (clock_id == reader->trace_clock)
    return raw;

  if (clock_id >= 64 && clock_id <= 127)
    clock = g_hash_table_lookup (seq->clocks, GUINT_TO_POINTER (clock_id));
  else
    clock = g_hash_table_lookup (reader->global_clocks, GUINT_TO_POINTER (clock_id));

  if (clock == NULL)
    return raw;

  if (clock->incremental)
    {
      clock->last += raw;
      raw = clock->last;
    }
  ns = raw * clock->multiplier;

  /* shift by the offset the snapshot measured between the two clocks */
  return clock->snap_trace + (ns - clock->snap_clock);
}

/* ---- descriptors ---- */

static gboolean
read_thread_descriptor_full (Reader          *reader,
                             const BlPbField *data,
                             gint64          *pid,
                             gint64          *tid,
                             char           **name,
                             gint64          *reference_us,
                             gint64          *reference_thread_us)
{
  BlPbCursor c;
  BlPbField f;
  BlPbStatus status;

  bl_pb_field_cursor (data, &c);
  FOR_FIELDS (reader, &c, &f, N_("thread descriptor"), status)
    {
      if (f.number == 1 && f.wire == BL_PB_VARINT)
        *pid = (gint64) f.value;
      else if (f.number == 2 && f.wire == BL_PB_VARINT)
        *tid = (gint64) f.value;
      else if (f.number == 5 && f.wire == BL_PB_BYTES)
        {
          g_free (*name);
          *name = g_utf8_make_valid ((const char *) f.data, f.len);
        }
      else if (f.number == 6 && f.wire == BL_PB_VARINT)
        *reference_us = (gint64) f.value;
      else if (f.number == 7 && f.wire == BL_PB_VARINT)
        *reference_thread_us = (gint64) f.value;
    }

  return FIELDS_OK (status);
}

static gboolean
read_thread_descriptor (Reader          *reader,
                        const BlPbField *data,
                        gint64          *pid,
                        gint64          *tid,
                        char           **name)
{
  gint64 reference = 0, reference_thread = 0;

  return read_thread_descriptor_full (reader, data, pid, tid, name,
                                      &reference, &reference_thread);
}

static gboolean
read_process_descriptor (Reader          *reader,
                         const BlPbField *data,
                         gint64          *pid,
                         char           **name)
{
  BlPbCursor c;
  BlPbField f;
  BlPbStatus status;

  bl_pb_field_cursor (data, &c);
  FOR_FIELDS (reader, &c, &f, N_("process descriptor"), status)
    {
      if (f.number == 1 && f.wire == BL_PB_VARINT)
        *pid = (gint64) f.value;
      else if (f.number == 6 && f.wire == BL_PB_BYTES)
        {
          g_free (*name);
          *name = g_utf8_make_valid ((const char *) f.data, f.len);
        }
    }

  if (FIELDS_OK (status) && *name != NULL)
    g_hash_table_replace (reader->process_names, (gpointer) (guintptr) *pid, g_strdup (*name));

  return FIELDS_OK (status);
}

static gboolean
read_track_descriptor (Reader          *reader,
                       const BlPbField *data)
{
  BlPbCursor c, cc;
  BlPbField f, cf;
  BlPbStatus status;
  guint64 uuid = 0;
  guint64 parent = 0;
  g_autofree char *name = NULL;
  g_autofree char *thread_name = NULL;
  g_autofree char *process_name = NULL;
  g_autofree char *unit = NULL;
  gint64 pid = 0, tid = 0, multiplier = 1;
  gboolean is_thread = FALSE, is_process = FALSE, is_counter = FALSE, incremental = FALSE;
  Track *track;

  bl_pb_field_cursor (data, &c);
  FOR_FIELDS (reader, &c, &f, N_("track descriptor"), status)
    {
      if (f.number == 1 && f.wire == BL_PB_VARINT)
        uuid = f.value;
      else if (f.number == 5 && f.wire == BL_PB_VARINT)
        parent = f.value;
      else if ((f.number == 2 || f.number == 10) && f.wire == BL_PB_BYTES)
        {
          g_free (name);
          name = g_utf8_make_valid ((const char *) f.data, f.len);
        }
      else if (f.number == 3 && f.wire == BL_PB_BYTES)
        {
          is_process = TRUE;
          if (!read_process_descriptor (reader, &f, &pid, &process_name))
            return FALSE;
        }
      else if (f.number == 4 && f.wire == BL_PB_BYTES)
        {
          is_thread = TRUE;
          if (!read_thread_descriptor (reader, &f, &pid, &tid, &thread_name))
            return FALSE;
        }
      else if (f.number == 8 && f.wire == BL_PB_BYTES)
        {
          is_counter = TRUE;
          bl_pb_field_cursor (&f, &cc);
          FOR_FIELDS (reader, &cc, &cf, N_("counter descriptor"), status)
            {
              if (cf.number == 4 && cf.wire == BL_PB_VARINT)
                multiplier = (gint64) cf.value;
              else if (cf.number == 5 && cf.wire == BL_PB_VARINT)
                incremental = cf.value != 0;
              else if (cf.number == 6 && cf.wire == BL_PB_BYTES)
                {
                  g_free (unit);
                  unit = g_utf8_make_valid ((const char *) cf.data, cf.len);
                }
              else if (cf.number == 3 && cf.wire == BL_PB_VARINT && unit == NULL)
                {
                  /* the builtin units: 1 time (ns), 2 count, 3 size (bytes) */
                  if (cf.value == 1)
                    unit = g_strdup ("ns");
                  else if (cf.value == 3)
                    unit = g_strdup ("bytes");
                }
            }
          if (!FIELDS_OK (status))
            return FALSE;
        }
    }
  if (!FIELDS_OK (status))
    return FALSE;

  track = get_track (reader, uuid);
  track->parent = parent;
  if (name != NULL)
    set_str (&track->name, name);
  if (thread_name != NULL)
    set_str (&track->thread_name, thread_name);
  if (process_name != NULL)
    set_str (&track->process_name, process_name);
  if (unit != NULL)
    set_str (&track->unit, unit);
  track->is_thread |= is_thread;
  track->is_process |= is_process && !is_thread;
  if (is_thread || is_process)
    track->pid = pid;
  if (is_thread)
    track->tid = tid;
  if (is_counter)
    {
      track->is_counter = TRUE;
      track->is_incremental = incremental;
      track->unit_multiplier = multiplier == 0 ? 1 : multiplier;
    }

  return TRUE;
}

/* ---- track events ---- */

static void
append_annotation_value (GString         *text,
                         const BlPbField *f)
{
  switch (f->number)
    {
    case 2:
      g_string_append (text, f->value ? "true" : "false");
      break;
    case 3:
      g_string_append_printf (text, "%" G_GUINT64_FORMAT, f->value);
      break;
    case 4:
      g_string_append_printf (text, "%" G_GINT64_FORMAT, (gint64) f->value);
      break;
    case 5:
      g_string_append_printf (text, "%g", bl_pb_field_double (f));
      break;
    case 7:
      g_string_append_printf (text, "0x%" G_GINT64_MODIFIER "x", f->value);
      break;
    case 6:
    case 9:
      {
        g_autofree char *s = g_utf8_make_valid ((const char *) f->data, f->len);

        g_string_append (text, s);
      }
      break;
    case 11:
    case 12:
      g_string_append (text, f->number == 11 ? "{…}" : "[…]");
      break;
    default:
      break;
    }
}

static gboolean
read_annotation (Reader          *reader,
                 Sequence        *seq,
                 const BlPbField *data,
                 GString         *text)
{
  BlPbCursor c;
  BlPbField f;
  BlPbStatus status;
  g_autofree char *name = NULL;
  g_autoptr (GString) value = g_string_new (NULL);

  bl_pb_field_cursor (data, &c);
  FOR_FIELDS (reader, &c, &f, N_("debug annotation"), status)
    {
      if (f.number == 1 && f.wire == BL_PB_VARINT)
        {
          guint32 id = lookup_iid (seq->annotation_names, f.value);

          if (id != G_MAXUINT32)
            set_str (&name, bl_profile_get_string (reader->profile, id));
        }
      else if (f.number == 10 && f.wire == BL_PB_BYTES)
        {
          g_free (name);
          name = g_utf8_make_valid ((const char *) f.data, f.len);
        }
      else if (f.number == 17 && f.wire == BL_PB_VARINT)
        g_string_append_printf (value, "#%" G_GUINT64_FORMAT, f.value);
      else if (((f.number >= 2 && f.number <= 5) || f.number == 7) &&
               (f.wire == BL_PB_VARINT || f.wire == BL_PB_FIXED64))
        append_annotation_value (value, &f);
      else if ((f.number == 6 || f.number == 9 || f.number == 11 || f.number == 12) &&
               f.wire == BL_PB_BYTES)
        append_annotation_value (value, &f);
    }
  if (!FIELDS_OK (status))
    return FALSE;

  if (text->len > 0)
    g_string_append (text, ", ");
  g_string_append_printf (text, "%s=%s", name != NULL ? name : "?", value->str);
  reader->n_annotations++;

  return TRUE;
}

static void
note_event_ts (Reader  *reader,
               guint64  ts)
{
  if (!reader->has_event_ts || ts > reader->max_event_ts)
    reader->max_event_ts = ts;
  reader->has_event_ts = TRUE;
}

static void
add_point (Reader  *reader,
           guint64  uuid,
           guint64  ts,
           double   value)
{
  Track *track = get_track (reader, uuid);
  RawPoint point = { ts, reader->order++, value };

  g_array_append_val (track->points, point);
}

static gboolean
read_track_event (Reader          *reader,
                  Sequence        *seq,
                  const BlPbField *data,
                  gboolean         has_ts,
                  guint64          ts)
{
  BlPbCursor c;
  BlPbField f;
  BlPbStatus status;
  guint64 type = 0;
  guint64 track_uuid = 0;
  gboolean has_track = FALSE;
  guint32 name = G_MAXUINT32;
  gboolean has_counter = FALSE;
  double counter = 0;
  /* created only for the events that need them: most have none */
  g_autoptr (GString) annotations = NULL;
  g_autoptr (GArray) extra_uuids = NULL;
  g_autoptr (GArray) extra_values = NULL;
  guint flow_first = reader->flow_refs->len;
  gint64 delta_us = 0, absolute_us = 0, thread_delta_us = 0;
  gboolean has_delta = FALSE, has_thread_delta = FALSE;
  Track *track;
  guint32 bits;

  bl_pb_field_cursor (data, &c);
  FOR_FIELDS (reader, &c, &f, N_("track event"), status)
    {
      switch (f.number)
        {
        case 9:
          if (f.wire == BL_PB_VARINT)
            type = f.value;
          break;
        case 11:
          if (f.wire == BL_PB_VARINT)
            {
              track_uuid = f.value;
              has_track = TRUE;
            }
          break;
        case 23:
          if (f.wire == BL_PB_BYTES)
            {
              g_autofree char *s = g_utf8_make_valid ((const char *) f.data, f.len);

              name = bl_profile_intern (reader->profile, s);
            }
          break;
        case 10:
          if (f.wire == BL_PB_VARINT)
            name = lookup_name (seq, f.value);
          break;
        case 30:
          if (f.wire == BL_PB_VARINT)
            {
              counter = (double) (gint64) f.value;
              has_counter = TRUE;
            }
          break;
        case 44:
          if (f.wire == BL_PB_FIXED64)
            {
              counter = bl_pb_field_double (&f);
              has_counter = TRUE;
            }
          break;
        case 4:
          if (f.wire == BL_PB_BYTES && annotations == NULL)
            annotations = g_string_new (NULL);
          if (f.wire == BL_PB_BYTES && !read_annotation (reader, seq, &f, annotations))
            return FALSE;
          break;
        case 47:
        case 48:
          {
            g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint64));

            if (f.wire == BL_PB_BYTES)
              {
                /* packed fixed64 */
                if (f.len % 8 != 0)
                  {
                    set_problem (reader, _("a packed list of flow ids is malformed"));
                    return FALSE;
                  }
                for (gsize i = 0; i < f.len; i += 8)
                  {
                    guint64 v = 0;

                    for (guint k = 0; k < 8; k++)
                      v |= (guint64) f.data[i + k] << (8 * k);
                    g_array_append_val (ids, v);
                  }
              }
            else
              append_varints (&f, ids);
            for (guint i = 0; i < ids->len; i++)
              {
                FlowRef ref = { g_array_index (ids, guint64, i), f.number == 48 };

                g_array_append_val (reader->flow_refs, ref);
              }
          }
          break;
        case 31:
          if (extra_uuids == NULL)
            extra_uuids = g_array_new (FALSE, FALSE, sizeof (guint64));
          if (!append_varints (&f, extra_uuids))
            {
              set_problem (reader, _("a packed list of counter tracks is malformed"));
              return FALSE;
            }
          break;
        case 12:
          if (extra_values == NULL)
            extra_values = g_array_new (FALSE, FALSE, sizeof (guint64));
          if (!append_varints (&f, extra_values))
            {
              set_problem (reader, _("a packed list of counter values is malformed"));
              return FALSE;
            }
          break;
        case 1:
          if (f.wire == BL_PB_VARINT)
            {
              delta_us = (gint64) f.value;
              has_delta = TRUE;
            }
          break;
        case 16:
          if (f.wire == BL_PB_VARINT)
            absolute_us = (gint64) f.value;
          break;
        case 2:
          if (f.wire == BL_PB_VARINT)
            {
              thread_delta_us = (gint64) f.value;
              has_thread_delta = TRUE;
            }
          break;
        default:
          break;
        }
    }
  if (!FIELDS_OK (status))
    return FALSE;

  /* the legacy timestamps, in the monotonic clock, win over the packet's
   * (as in Perfetto's trace processor): a delta counts from the thread
   * descriptor's reference and needs one since the last packet loss */
  if (has_delta)
    {
      if (!seq->legacy_ts_valid)
        {
          reader->n_skipped_events++;
          g_array_set_size (reader->flow_refs, flow_first);
          return TRUE;
        }
      seq->legacy_ts += (guint64) delta_us * 1000;
      ts = to_trace_time (reader, seq, BUILTIN_MONOTONIC, seq->legacy_ts);
    }
  else if (absolute_us != 0)
    {
      ts = to_trace_time (reader, seq, BUILTIN_MONOTONIC, (guint64) absolute_us * 1000);
    }
  else if (!has_ts)
    {
      /* no time at all: Perfetto's trace processor drops the event */
      reader->n_untimed_events++;
      g_array_set_size (reader->flow_refs, flow_first);
      return TRUE;
    }
  if (has_thread_delta)
    {
      if (!seq->legacy_ts_valid)
        {
          reader->n_skipped_events++;
          g_array_set_size (reader->flow_refs, flow_first);
          return TRUE;
        }
      seq->legacy_thread_ts += (guint64) thread_delta_us * 1000;
    }

  if (!has_track)
    {
      if (seq->has_default_track)
        track_uuid = seq->default_track;
      else if (seq->has_thread)
        {
          Track *thread;

          track_uuid = LEGACY_THREAD_KEY | ((guint64) seq->pid << 32) | (guint32) seq->tid;
          thread = get_track (reader, track_uuid);
          thread->is_thread = TRUE;
          thread->pid = seq->pid;
          thread->tid = seq->tid;
        }
    }

  if (extra_values != NULL && extra_values->len > 0)
    {
      GArray *uuids = extra_uuids != NULL && extra_uuids->len > 0 ? extra_uuids
                                                                  : seq->default_extra_counters;

      for (guint i = 0; i < extra_values->len && i < uuids->len; i++)
        add_point (reader, g_array_index (uuids, guint64, i), ts,
                   (double) (gint64) g_array_index (extra_values, guint64, i));
    }

  if (type == EV_COUNTER)
    {
      if (has_counter)
        add_point (reader, track_uuid, ts, counter);
      g_array_set_size (reader->flow_refs, flow_first);
      return TRUE;
    }

  if (type < EV_SLICE_BEGIN || type > EV_INSTANT)
    {
      g_array_set_size (reader->flow_refs, flow_first);
      return TRUE;
    }

  bits = event_bits (name, (guint32) type);
  if (((annotations != NULL && annotations->len > 0) || reader->flow_refs->len > flow_first) &&
      reader->extras->len < EV_NAME_NONE)
    {
      EventExtra extra = { G_MAXUINT32, flow_first, reader->flow_refs->len - flow_first,
                           reader->order, bits };

      if (annotations != NULL && annotations->len > 0)
        {
          extra.annotation = reader->annotation_texts->len;
          g_ptr_array_add (reader->annotation_texts,
                           g_string_free (g_steal_pointer (&annotations), FALSE));
        }
      bits = reader->extras->len << EV_NAME_SHIFT | EV_HAS_EXTRA | (guint32) type;
      g_array_append_val (reader->extras, extra);
    }
  reader->order++;
  /* a sequence mostly writes to one track */
  track = seq->event_track;
  if (track == NULL || track->uuid != track_uuid)
    track = seq->event_track = get_track (reader, track_uuid);
  if (track->events.len > 0 && ts < track->last_ts)
    track->events_unsorted = TRUE;
  events_append (&track->events, &track->last_ts, ts, bits);
  note_event_ts (reader, ts);

  return TRUE;
}

/* ---- heap graphs ---- */

/* One dump being decoded, possibly over several packets. Objects and
 * their references go into the BlHeap as they come; what may arrive later
 * (type names and sizes, field names, the objects references point at) is
 * resolved when the dump ends: until then a reference holds two 32-bit
 * codes in the heap's own arrays. Its target code is the target's id less
 * the dump's first id, or REF_WIDE | an index into wide_targets for an id
 * outside that range; its field code is an index into field_iids, or
 * REF_BY_POSITION | the reference's position, the name then coming from the
 * object's type. */
typedef struct
{
  char   *name;
  guint64 object_size;
  GArray *fields;     /* guint64 field-name iids of the type's references */
} RawType;

#define FIELD_BY_POSITION G_MAXUINT64   /* an iid that names no field */
#define REF_WIDE        0x80000000u
#define REF_BY_POSITION 0x80000000u
#define SMALL_FIELD_IIDS 4096

struct _HeapDump
{
  gint64      pid;
  BlHeap     *heap;
  GHashTable *types;        /* type id → RawType* */
  GHashTable *type_index;   /* type id → heap type + 1 */
  GArray     *type_array;   /* guint32 per small type id: heap type + 1, 0 if none */
  GArray     *type_ids;     /* guint64: heap type → type id */
  GHashTable *field_names;  /* iid → char* */
  guint64     target_base;  /* the first object's id */
  GArray     *wide_targets; /* guint64: target ids far from target_base */
  GArray     *field_iids;   /* guint64: field code → field-name iid */
  GHashTable *field_codes;  /* field-name iid → field code + 1, past the small ones */
  guint32    *small_field_codes; /* SMALL_FIELD_IIDS: field code + 1 per small iid */
  GArray     *zero_sizes;   /* guint32: objects that take their type's size */
  GArray     *roots;        /* guint64 */
  GHashTable *later_ids;    /* ids after the first that did not increase */
  guint64     last_id;      /* of the last object read */
  guint64     last_added_id;
  guint32     n_objects;    /* in heap */
  guint32     n_increasing; /* objects 0 … n_increasing - 1 have increasing ids */
  GArray     *scratch_fields;   /* one object's, guint64 */
  GArray     *scratch_targets;
  guint64     cached_type_id;
  guint32     cached_type;
};

static void
raw_type_free (gpointer data)
{
  RawType *type = data;

  g_free (type->name);
  g_array_unref (type->fields);
  g_free (type);
}

static HeapDump *
heap_dump_new (void)
{
  HeapDump *dump = g_new0 (HeapDump, 1);

  dump->heap = bl_heap_new ();
  dump->types = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, raw_type_free);
  dump->type_index = g_hash_table_new (g_direct_hash, g_direct_equal);
  dump->type_array = g_array_new (FALSE, TRUE, sizeof (guint32));
  dump->type_ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  dump->field_names = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  dump->wide_targets = g_array_new (FALSE, FALSE, sizeof (guint64));
  dump->field_iids = g_array_new (FALSE, FALSE, sizeof (guint64));
  dump->field_codes = g_hash_table_new (g_direct_hash, g_direct_equal);
  dump->small_field_codes = g_new0 (guint32, SMALL_FIELD_IIDS);
  dump->zero_sizes = g_array_new (FALSE, FALSE, sizeof (guint32));
  dump->roots = g_array_new (FALSE, FALSE, sizeof (guint64));
  dump->scratch_fields = g_array_new (FALSE, FALSE, sizeof (guint64));
  dump->scratch_targets = g_array_new (FALSE, FALSE, sizeof (guint64));
  dump->cached_type_id = G_MAXUINT64;

  return dump;
}

static void
heap_dump_free (gpointer data)
{
  HeapDump *dump = data;

  if (dump == NULL)
    return;
  g_clear_pointer (&dump->heap, bl_heap_free);
  g_hash_table_unref (dump->types);
  g_hash_table_unref (dump->type_index);
  g_array_unref (dump->type_array);
  g_array_unref (dump->type_ids);
  g_hash_table_unref (dump->field_names);
  g_array_unref (dump->wide_targets);
  g_array_unref (dump->field_iids);
  g_hash_table_unref (dump->field_codes);
  g_free (dump->small_field_codes);
  g_array_unref (dump->zero_sizes);
  g_array_unref (dump->roots);
  g_clear_pointer (&dump->later_ids, g_hash_table_unref);
  g_array_unref (dump->scratch_fields);
  g_array_unref (dump->scratch_targets);
  g_free (dump);
}

static const char *
field_name_of (HeapDump *dump,
               guint64   iid)
{
  const char *name = g_hash_table_lookup (dump->field_names, (gpointer) (guintptr) iid);

  return name != NULL ? name : "";
}

static guint32 heap_type_of_slow (HeapDump *dump,
                                   guint64   type_id);

/* The heap type of a type id: added (named for now by its id) the first
 * time the id is seen. */
static inline guint32
heap_type_of (HeapDump *dump,
              guint64   type_id)
{
  guint32 t;

  if (type_id == dump->cached_type_id)
    return dump->cached_type;

  /* type ids are mostly small and dense: an array first */
  if G_LIKELY (type_id < dump->type_array->len &&
               (t = g_array_index (dump->type_array, guint32, type_id)) != 0)
    {
      dump->cached_type_id = type_id;
      dump->cached_type = t - 1;
      return t - 1;
    }

  return heap_type_of_slow (dump, type_id);
}

static G_GNUC_NO_INLINE guint32
heap_type_of_slow (HeapDump *dump,
                   guint64   type_id)
{
  gpointer t;

  if (type_id < dump->type_array->len && g_array_index (dump->type_array, guint32, type_id) != 0)
    t = GUINT_TO_POINTER (g_array_index (dump->type_array, guint32, type_id));
  else
    t = g_hash_table_lookup (dump->type_index, (gpointer) (guintptr) type_id);
  if (t == NULL)
    {
      RawType *raw = g_hash_table_lookup (dump->types, (gpointer) (guintptr) type_id);
      g_autofree char *name = raw != NULL ? NULL
                              : g_strdup_printf ("(type %" G_GUINT64_FORMAT ")", type_id);

      t = GUINT_TO_POINTER (bl_heap_add_type (dump->heap, raw != NULL ? raw->name : name) + 1);
      g_hash_table_insert (dump->type_index, (gpointer) (guintptr) type_id, t);
      /* grown only while as dense as the types it holds */
      if (type_id >= dump->type_array->len &&
          type_id < 2 * (guint64) g_hash_table_size (dump->type_index) + 64)
        g_array_set_size (dump->type_array, (guint) type_id + 1);
      if (type_id < dump->type_array->len)
        g_array_index (dump->type_array, guint32, type_id) = GPOINTER_TO_UINT (t);
      g_array_append_val (dump->type_ids, type_id);
    }
  dump->cached_type_id = type_id;
  dump->cached_type = GPOINTER_TO_UINT (t) - 1;

  return dump->cached_type;
}

/* Whether an object of @id came before: ids mostly increase (id_delta),
 * so the increasing run is searched by halves and only the rest hashed. */
static gboolean
heap_dump_has_id (HeapDump *dump,
                  guint64   id)
{
  guint32 lo = 0, hi = dump->n_increasing;

  if (dump->later_ids != NULL &&
      g_hash_table_contains (dump->later_ids, (gpointer) (guintptr) id))
    return TRUE;
  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;
      guint64 at = bl_heap_get_object_id (dump->heap, mid);

      if (at == id)
        return TRUE;
      if (at < id)
        lo = mid + 1;
      else
        hi = mid;
    }

  return FALSE;
}

/* Object ids to object indices when the dump ends: arithmetic when the
 * ids are consecutive, an array when they are dense, a hash table
 * otherwise. */
typedef struct
{
  guint64     min;
  guint64     range;
  gboolean    consecutive;
  guint32    *dense;
  GHashTable *hash;
} ObjectIndex;

static void
object_index_init (ObjectIndex *index,
                   BlHeap      *heap,
                   guint32      n_increasing)
{
  guint32 n = bl_heap_get_n_objects (heap);
  guint64 min = G_MAXUINT64, max = 0;

  memset (index, 0, sizeof *index);
  if (n == 0)
    return;
  if (n_increasing == n &&
      bl_heap_get_object_id (heap, n - 1) - bl_heap_get_object_id (heap, 0) == n - 1)
    {
      index->consecutive = TRUE;
      index->min = bl_heap_get_object_id (heap, 0);
      index->range = n;
      return;
    }
  for (guint32 i = 0; i < n; i++)
    {
      guint64 id = bl_heap_get_object_id (heap, i);

      min = MIN (min, id);
      max = MAX (max, id);
    }
  if (max - min < 4 * (guint64) n + 1024)
    {
      index->min = min;
      index->range = max - min + 1;
      index->dense = g_new (guint32, index->range);
      memset (index->dense, 0xff, sizeof (guint32) * index->range);
      for (guint32 i = 0; i < n; i++)
        index->dense[bl_heap_get_object_id (heap, i) - min] = i;
    }
  else
    {
      index->hash = g_hash_table_new (g_direct_hash, g_direct_equal);
      for (guint32 i = 0; i < n; i++)
        g_hash_table_insert (index->hash, (gpointer) (guintptr) bl_heap_get_object_id (heap, i),
                             GUINT_TO_POINTER (i + 1));
    }
}

static void
object_index_clear (ObjectIndex *index)
{
  g_free (index->dense);
  g_clear_pointer (&index->hash, g_hash_table_unref);
}

static inline guint32
object_index_lookup (ObjectIndex *index,
                     guint64      id)
{
  gpointer v;

  if (index->consecutive || index->dense != NULL)
    {
      if (id < index->min || id - index->min >= index->range)
        return G_MAXUINT32;
      return index->consecutive ? (guint32) (id - index->min) : index->dense[id - index->min];
    }
  if (index->hash == NULL)
    return G_MAXUINT32;
  v = g_hash_table_lookup (index->hash, (gpointer) (guintptr) id);

  return v == NULL ? G_MAXUINT32 : GPOINTER_TO_UINT (v) - 1;
}

/* What resolving a dump's references needs. */
typedef struct
{
  HeapDump    *dump;
  ObjectIndex  objects;
  GHashTable  *field_ids;   /* field-name iid → heap field + 1, past the small ones */
  guint32     *small_field_ids;   /* SMALL_FIELD_IIDS: heap field + 1 per small iid */
  RawType    **raw_types;   /* per heap type, its description or NULL */
  guint64      undefined;
  guint64      cached_iid;
  guint32      cached_field;
} Resolve;

static gboolean
resolve_reference (guint32   from,
                   guint32  *field,
                   guint32  *to,
                   gpointer  data)
{
  Resolve *r = data;
  HeapDump *dump = r->dump;
  guint64 target, iid;
  guint32 object;

  target = (*to & REF_WIDE) != 0 ? g_array_index (dump->wide_targets, guint64, *to & ~REF_WIDE)
           : dump->target_base + *to;
  object = object_index_lookup (&r->objects, target);
  if (object == G_MAXUINT32)
    {
      r->undefined++;
      return FALSE;
    }
  *to = object;

  if ((*field & REF_BY_POSITION) != 0)
    {
      guint32 k = *field & ~REF_BY_POSITION;
      const RawType *raw = r->raw_types[bl_heap_get_object_type (dump->heap, from)];

      iid = raw != NULL && k < raw->fields->len ? g_array_index (raw->fields, guint64, k)
            : G_MAXUINT64;
    }
  else
    iid = g_array_index (dump->field_iids, guint64, *field);

  /* field-name iid → heap field id, interned once per name */
  if (iid != r->cached_iid)
    {
      guint32 id = iid < SMALL_FIELD_IIDS
                   ? r->small_field_ids[iid]
                   : GPOINTER_TO_UINT (g_hash_table_lookup (r->field_ids,
                                                            (gpointer) (guintptr) iid));

      if (id == 0)
        {
          const char *name = iid == G_MAXUINT64 ? "" : field_name_of (dump, iid);

          id = bl_heap_intern_field (dump->heap, name) + 1;
          if (iid < SMALL_FIELD_IIDS)
            r->small_field_ids[iid] = id;
          else
            g_hash_table_insert (r->field_ids, (gpointer) (guintptr) iid, GUINT_TO_POINTER (id));
        }
      r->cached_iid = iid;
      r->cached_field = id - 1;
    }
  *field = r->cached_field;

  return TRUE;
}

/* Resolves what a complete dump left open; the analysis comes once the
 * whole trace is read, when the slices' buffers are gone. */
static void
heap_dump_finish (Reader   *reader,
                  HeapDump *dump)
{
  BlHeap *heap = dump->heap;
  Resolve r = { 0 };
  GHashTableIter iter;
  gpointer key, value;

  /* every described type is listed, with or without objects */
  g_hash_table_iter_init (&iter, dump->types);
  while (g_hash_table_iter_next (&iter, &key, &value))
    heap_type_of (dump, (guint64) (guintptr) key);

  /* sizes from the objects' types */
  for (guint i = 0; i < dump->zero_sizes->len; i++)
    {
      guint32 o = g_array_index (dump->zero_sizes, guint32, i);
      guint32 type = bl_heap_get_object_type (heap, o);
      RawType *raw = g_hash_table_lookup (dump->types,
                                          (gpointer) (guintptr) g_array_index (dump->type_ids,
                                                                               guint64, type));

      if (raw != NULL && raw->object_size != 0)
        bl_heap_set_self_size (heap, o, raw->object_size);
    }

  r.dump = dump;
  r.field_ids = g_hash_table_new (g_direct_hash, g_direct_equal);
  r.small_field_ids = g_new0 (guint32, SMALL_FIELD_IIDS);
  r.raw_types = g_new0 (RawType *, MAX (dump->type_ids->len, 1));
  for (guint t = 0; t < dump->type_ids->len; t++)
    r.raw_types[t] = g_hash_table_lookup (dump->types,
                                          (gpointer) (guintptr) g_array_index (dump->type_ids,
                                                                               guint64, t));
  r.cached_iid = G_MAXUINT64 - 1;
  object_index_init (&r.objects, heap, dump->n_increasing);
  bl_heap_resolve_references (heap, resolve_reference, &r);
  g_hash_table_unref (r.field_ids);
  g_free (r.small_field_ids);
  g_free (r.raw_types);

  for (guint i = 0; i < dump->roots->len; i++)
    {
      guint32 root = object_index_lookup (&r.objects, g_array_index (dump->roots, guint64, i));

      if (root != G_MAXUINT32)
        bl_heap_add_root (heap, root);
      else
        r.undefined++;
    }
  object_index_clear (&r.objects);

  g_ptr_array_add (reader->heaps, g_steal_pointer (&dump->heap));

  if (r.undefined > 0 && reader->heap_warning == NULL)
    reader->heap_warning =
      g_strdup_printf (_("Heap graph %u refers to %" PRIu64
                         " objects it does not define; those references are left out."),
                       reader->heaps->len, r.undefined);
}

static guint32 heap_field_code_slow (HeapDump *dump,
                                     guint64   iid);

/* The code of a field-name iid (see HeapDump). */
static inline guint32
heap_field_code (HeapDump *dump,
                 guint64   iid)
{
  if G_LIKELY (iid < SMALL_FIELD_IIDS && dump->small_field_codes[iid] != 0)
    return dump->small_field_codes[iid] - 1;

  return heap_field_code_slow (dump, iid);
}

static G_GNUC_NO_INLINE guint32
heap_field_code_slow (HeapDump *dump,
                      guint64   iid)
{
  gpointer code;

  if (iid < SMALL_FIELD_IIDS && dump->small_field_codes[iid] != 0)
    return dump->small_field_codes[iid] - 1;
  code = g_hash_table_lookup (dump->field_codes, (gpointer) (guintptr) iid);
  if (code == NULL)
    {
      code = GUINT_TO_POINTER (dump->field_iids->len + 1);
      g_array_append_val (dump->field_iids, iid);
      if (iid < SMALL_FIELD_IIDS)
        dump->small_field_codes[iid] = GPOINTER_TO_UINT (code);
      else
        g_hash_table_insert (dump->field_codes, (gpointer) (guintptr) iid, code);
    }

  return GPOINTER_TO_UINT (code) - 1;
}

/* A packed list of varints kept as bytes: the usual single packed field of
 * an object's field ids or targets is decoded where its codes are written. */
typedef struct
{
  const guint8 *data;
  gsize         len;
  guint32       n;          /* varints */
  guint32       n_nonzero;
  gboolean      in_array;   /* repeated or unpacked: appended to the scratch array */
} PackedList;

/* A varint of a message that ends at @end, of the usual packet or of a
 * heap graph; the bytes up to @readable (at least @end) may be read: as
 * bl_pb_read_varint(), without a bound check per byte when ten bytes are
 * there. */
static inline gboolean
usual_varint (const guint8 **pp,
              const guint8  *end,
              const guint8  *readable,
              guint64       *value)
{
  const guint8 *p = *pp;
  guint64 v = 0;
  guint i;

  if G_UNLIKELY (readable - p < 10)
    return bl_pb_read_varint (pp, end, value);

  for (i = 0; i < 9; i++)
    {
      guint64 b = p[i];

      v |= (b & 0x7f) << (7 * i);
      if (b < 0x80)
        break;
    }
  if (i == 9)
    {
      if (p[9] > 1)
        return FALSE;
      v |= (guint64) p[9] << 63;
    }
  p += i + 1;
  if (p > end)
    return FALSE;   /* runs past the message */
  *pp = p;
  *value = v;

  return TRUE;
}

/* Counts a packed list's varints, FALSE if one is malformed (as
 * bl_pb_read_varint() would find it: longer than 10 bytes, a 10th byte
 * above 1, or running past the list). A byte at a time without branches:
 * the lists of targets are mostly varints of 3 or 4 bytes, which a
 * varint-by-varint loop mispredicts. */
static gboolean
packed_count (const guint8 *p,
              gsize         len,
              const guint8 *readable,
              guint32      *n,
              guint32      *n_nonzero)
{
  const guint8 *end = p + len;
  guint32 count = 0, nonzero = 0;
  guint run = 0;        /* bytes of the varint being read, so far */
  guint bits = 0;       /* its 7-bit groups or-ed, so far */
  guint bad = 0;

  for (; p < end; p++)
    {
      guint b = *p;
      guint last = b < 0x80;    /* its last byte */

      bits |= b & 0x7f;
      bad |= (run == 9) & (b > 1);   /* the 10th byte holds the top bit only */
      count += last;
      nonzero += last & (bits != 0);
      run = (run + 1) & (last - 1);
      bits &= last - 1;
    }
  if (bad || run != 0)
    return FALSE;
  *n = count;
  *n_nonzero = nonzero;

  return TRUE;
}

/* One occurrence of a repeated varint field of an object: a first packed
 * one is only checked and kept; any other sends the list to @array. */
static gboolean
packed_add (PackedList      *list,
            const BlPbField *f,
            GArray          *array)
{
  if (!list->in_array && list->data == NULL && f->wire == BL_PB_BYTES)
    {
      list->data = f->data;
      list->len = f->len;
      return packed_count (f->data, f->len, f->data + f->len, &list->n, &list->n_nonzero);
    }
  if (!list->in_array)
    {
      BlPbField kept = { 0, BL_PB_BYTES, list->len, list->data, list->len };

      list->in_array = TRUE;
      if (list->data != NULL)
        append_varints (&kept, array);
    }

  return append_varints (f, array);
}

static inline guint32
heap_target_code (HeapDump *dump,
                  guint64   target)
{
  guint32 code;

  if G_LIKELY (target >= dump->target_base && target - dump->target_base < REF_WIDE)
    return (guint32) (target - dump->target_base);
  code = REF_WIDE | dump->wide_targets->len;
  g_array_append_val (dump->wide_targets, target);

  return code;
}

static inline guint32
heap_reference_field_code (HeapDump *dump,
                           guint64   base,
                           gboolean  has_field,
                           guint64   field,
                           guint32   position)
{
  /* a reference without a field id takes its name from the type, by
   * position */
  if (has_field && base + field != FIELD_BY_POSITION)
    return heap_field_code (dump, base + field);

  return REF_BY_POSITION | MIN (position, ~REF_BY_POSITION);
}

static gboolean
read_heap_object (Reader          *reader,
                  HeapDump        *dump,
                  const BlPbField *data,
                  const guint8    *readable)
{
  BlPbCursor c;
  BlPbField f;
  BlPbStatus status;
  guint64 id = 0, type_id = 0, self_size = 0;
  gboolean has_id = FALSE;
  guint64 base = 0;
  GArray *fields = dump->scratch_fields;
  GArray *targets = dump->scratch_targets;
  PackedList field_list = { 0 }, target_list = { 0 };
  guint32 n, object;

  /* the usual object: one-byte keys, each list packed once, all well
   * formed; anything else is read again by the general walk below */
  {
    const guint8 *p = data->data, *end = data->data + data->len;
    gboolean usual = TRUE;

    while (p < end && usual)
      {
        guint8 key = *p++;
        guint64 v;

        if ((key & 7) == BL_PB_VARINT)
          {
            if (!usual_varint (&p, end, readable, &v))
              {
                usual = FALSE;
                break;
              }
            switch (key >> 3)
              {
              case 1:
                id = v;
                has_id = TRUE;
                break;
              case 7:
                id = dump->last_id + v;
                has_id = TRUE;
                break;
              case 2:
                type_id = v;
                break;
              case 3:
                self_size = v;
                break;
              case 6:
                base = v;
                break;
              default:
                usual = FALSE;
                break;
              }
          }
        else if (key == (4 << 3 | BL_PB_BYTES) || key == (5 << 3 | BL_PB_BYTES))
          {
            PackedList *list = key >> 3 == 4 ? &field_list : &target_list;

            if (!usual_varint (&p, end, readable, &v) || v > (guint64) (end - p) ||
                list->data != NULL ||
                !packed_count (p, (gsize) v, readable, &list->n, &list->n_nonzero))
              {
                usual = FALSE;
                break;
              }
            list->data = p;
            list->len = (gsize) v;
            p += v;
          }
        else
          usual = FALSE;
      }
    if (usual)
      goto add;
    id = type_id = self_size = base = 0;
    has_id = FALSE;
    memset (&field_list, 0, sizeof field_list);
    memset (&target_list, 0, sizeof target_list);
  }

  bl_pb_field_cursor (data, &c);
  FOR_FIELDS (reader, &c, &f, N_("heap graph object"), status)
    {
      if (f.number == 1 && f.wire == BL_PB_VARINT)
        {
          id = f.value;
          has_id = TRUE;
        }
      else if (f.number == 7 && f.wire == BL_PB_VARINT)
        {
          id = dump->last_id + f.value;
          has_id = TRUE;
        }
      else if (f.number == 2 && f.wire == BL_PB_VARINT)
        type_id = f.value;
      else if (f.number == 3 && f.wire == BL_PB_VARINT)
        self_size = f.value;
      else if (f.number == 6 && f.wire == BL_PB_VARINT)
        base = f.value;
      else if (f.number == 4 || f.number == 5)
        {
          if (f.number == 4 && !field_list.in_array && field_list.data == NULL)
            g_array_set_size (fields, 0);
          if (f.number == 5 && !target_list.in_array && target_list.data == NULL)
            g_array_set_size (targets, 0);
          if (!packed_add (f.number == 4 ? &field_list : &target_list, &f,
                           f.number == 4 ? fields : targets))
            {
              set_problem (reader, _("a packed list of heap references is malformed"));
              return FALSE;
            }
        }
    }
  if (!FIELDS_OK (status))
    return FALSE;

add:
  if (!has_id)
    id = dump->last_id + 1;
  dump->last_id = id;

  /* a second object of the same id is left out, with its references */
  n = dump->n_objects;
  if (n > 0 && !(dump->n_increasing == n && id > dump->last_added_id) &&
      heap_dump_has_id (dump, id))
    return TRUE;

  object = bl_heap_add_object (dump->heap, heap_type_of (dump, type_id), self_size);
  dump->n_objects = object + 1;
  bl_heap_set_object_id (dump->heap, object, id);
  if (dump->n_increasing == object && (object == 0 || id > dump->last_added_id))
    dump->n_increasing++;
  else
    {
      if (dump->later_ids == NULL)
        dump->later_ids = g_hash_table_new (g_direct_hash, g_direct_equal);
      g_hash_table_add (dump->later_ids, (gpointer) (guintptr) id);
    }
  dump->last_added_id = id;
  if (object == 0)
    dump->target_base = id;
  if (self_size == 0)
    g_array_append_val (dump->zero_sizes, object);

  if (!target_list.in_array && !field_list.in_array)
    {
      /* the usual object: both lists packed once, decoded straight into
       * the heap's arrays (a null target is no reference but keeps its
       * position) */
      const guint8 *tp, *tend, *fp, *fend;
      guint32 *out_fields, *out_targets;
      guint32 w = 0;

      if (target_list.n_nonzero == 0)
        return TRUE;
      tp = target_list.data;
      tend = tp + target_list.len;
      fp = field_list.data;
      fend = fp != NULL ? fp + field_list.len : NULL;
      out_targets = bl_heap_reserve_raw_references (dump->heap, object, target_list.n_nonzero,
                                                    &out_fields);
      for (guint32 i = 0; tp < tend; i++)
        {
          guint64 target = 0, field = 0;
          gboolean has_field = fp < fend;

          usual_varint (&tp, tend, readable, &target);   /* counted: well formed */
          if (has_field)
            usual_varint (&fp, fend, readable, &field);
          if (target == 0)
            continue;
          out_fields[w] = heap_reference_field_code (dump, base, has_field, field, i);
          out_targets[w] = heap_target_code (dump, target);
          w++;
        }
      return TRUE;
    }

  if (!target_list.in_array)
    {
      BlPbField kept = { 0, BL_PB_BYTES, target_list.len, target_list.data, target_list.len };

      g_array_set_size (targets, 0);
      if (target_list.data != NULL)
        append_varints (&kept, targets);
    }
  if (!field_list.in_array)
    {
      BlPbField kept = { 0, BL_PB_BYTES, field_list.len, field_list.data, field_list.len };

      g_array_set_size (fields, 0);
      if (field_list.data != NULL)
        append_varints (&kept, fields);
    }
  for (guint i = 0; i < targets->len; i++)
    {
      guint64 target = g_array_index (targets, guint64, i);

      if (target == 0)
        continue;
      bl_heap_add_raw_reference (dump->heap, object,
                                 heap_reference_field_code (dump, base, i < fields->len,
                                                            i < fields->len
                                                            ? g_array_index (fields, guint64, i)
                                                            : 0, i),
                                 heap_target_code (dump, target));
    }

  return TRUE;
}

static gboolean
read_heap_type (Reader          *reader,
                HeapDump        *dump,
                const BlPbField *data)
{
  BlPbCursor c;
  BlPbField f;
  BlPbStatus status;
  guint64 id = 0;
  RawType *type = g_new0 (RawType, 1);
  gpointer known;

  type->fields = g_array_new (FALSE, FALSE, sizeof (guint64));
  bl_pb_field_cursor (data, &c);
  FOR_FIELDS (reader, &c, &f, N_("heap graph type"), status)
    {
      if (f.number == 1 && f.wire == BL_PB_VARINT)
        id = f.value;
      else if (f.number == 3 && f.wire == BL_PB_BYTES)
        {
          g_free (type->name);
          type->name = g_utf8_make_valid ((const char *) f.data, f.len);
        }
      else if (f.number == 4 && f.wire == BL_PB_VARINT)
        type->object_size = f.value;
      else if (f.number == 6 && !append_varints (&f, type->fields))
        {
          set_problem (reader, _("a packed list of heap references is malformed"));
          raw_type_free (type);
          return FALSE;
        }
    }
  if (!FIELDS_OK (status))
    {
      raw_type_free (type);
      return FALSE;
    }

  if (type->name == NULL)
    type->name = g_strdup_printf ("(type %" G_GUINT64_FORMAT ")", id);
  /* objects of this type came first: they named it by its id so far */
  known = g_hash_table_lookup (dump->type_index, (gpointer) (guintptr) id);
  if (known != NULL)
    bl_heap_set_type_name (dump->heap, GPOINTER_TO_UINT (known) - 1, type->name);
  g_hash_table_replace (dump->types, (gpointer) (guintptr) id, type);

  return TRUE;
}

/* @readable: as far as the bytes after @data may be read (see
 * usual_varint()) */
static gboolean
read_heap_graph (Reader          *reader,
                 Sequence        *seq,
                 const BlPbField *data,
                 const guint8    *readable)
{
  BlPbCursor c, ic;
  BlPbField f, inf;
  BlPbStatus status;
  gboolean continued = FALSE;
  HeapDump *dump;

  if (seq->heap == NULL)
    {
      seq->heap = heap_dump_new ();
      reader->n_heap_graphs++;
    }
  dump = seq->heap;

  bl_pb_field_cursor (data, &c);
  for (;;)
    {
      /* the usual field, an object whose length takes one or two bytes,
       * without the general walk (the same bytes, the same result) */
      if G_LIKELY (c.end - c.p >= 3 && c.p[0] == (2 << 3 | BL_PB_BYTES) &&
                   (c.p[1] < 0x80 || c.p[2] < 0x80))
        {
          const guint8 *p = c.p + 1;
          gsize len;

          if (p[0] < 0x80)
            len = *p++;
          else
            {
              len = (gsize) (p[0] & 0x7f) | (gsize) p[1] << 7;
              p += 2;
            }
          if (len <= (gsize) (c.end - p))
            {
              BlPbField object = { 2, BL_PB_BYTES, len, p, len };

              c.p = p + len;
              if (!read_heap_object (reader, dump, &object, readable))
                return FALSE;
              continue;
            }
        }
      if ((status = next_field (reader, &c, &f, N_("heap graph"))) != BL_PB_FIELD)
        break;

      if (f.number == 5 && f.wire == BL_PB_VARINT)
        continued = f.value != 0;
      else if (f.number == 1 && f.wire == BL_PB_VARINT)
        dump->pid = (gint64) f.value;
      else if (f.wire != BL_PB_BYTES)
        continue;
      else if (f.number == 2 && !read_heap_object (reader, dump, &f, readable))
        return FALSE;
      else if (f.number == 9 && !read_heap_type (reader, dump, &f))
        return FALSE;
      else if (f.number == 7)
        {
          bl_pb_field_cursor (&f, &ic);
          FOR_FIELDS (reader, &ic, &inf, N_("heap graph root"), status)
            {
              if (inf.number == 1 && !append_varints (&inf, dump->roots))
                {
                  set_problem (reader, _("a packed list of heap roots is malformed"));
                  return FALSE;
                }
            }
          if (!FIELDS_OK (status))
            return FALSE;
        }
      else if (f.number == 4)
        {
          guint64 iid = 0;
          char *str = NULL;

          bl_pb_field_cursor (&f, &ic);
          FOR_FIELDS (reader, &ic, &inf, N_("heap graph field name"), status)
            {
              if (inf.number == 1 && inf.wire == BL_PB_VARINT)
                iid = inf.value;
              else if (inf.number == 2 && inf.wire == BL_PB_BYTES)
                {
                  g_free (str);
                  str = g_utf8_make_valid ((const char *) inf.data, inf.len);
                }
            }
          if (!FIELDS_OK (status))
            {
              g_free (str);
              return FALSE;
            }
          if (str != NULL)
            g_hash_table_replace (dump->field_names, (gpointer) (guintptr) iid, str);
        }
    }
  if (!FIELDS_OK (status))
    return FALSE;

  if (!continued)
    {
      heap_dump_finish (reader, dump);
      heap_dump_free (dump);
      seq->heap = NULL;
    }

  return TRUE;
}

/* ---- the heap graph worker ---- */

/* The heap graphs of a large trace are decoded by a second thread while
 * this one goes on with the packets after them. A heap graph takes nothing
 * from the rest of the trace but its sequence's dump, so the worker gets a
 * copy of each HeapGraph message and the Sequence it belongs to, in packet
 * order, through a queue of bounded size; it has the heap graphs' reader
 * (Reader.hr) to itself until this thread waits for it to be idle.
 *
 * The results are those of decoding in line. Only a packet whose one
 * payload is a heap graph (nothing else of interest, on a sequence seen
 * before) is handed over; before any other packet, and at the end, this
 * thread waits until the worker is idle. If a handed-over heap graph turns
 * out malformed, the worker drops the ones after it, and the reading stops
 * at its packet as it would have in line: the packets read meanwhile were
 * heap graphs too, whose effect here (counts, sequence flags) is undone or
 * no longer looked at.
 *
 * The heap graphs go over in chunks of a few MB, mapped apart from the
 * heap (bl-big-array.c). While this thread is still handing heap graphs
 * over, the chunks the worker is done with are kept for the next ones: the
 * first touch of fresh memory (the kernel zeroing it) costs more than the
 * copy into it. Once the last one is handed over (heap_worker_flush()),
 * their memory goes back to the system as soon as the worker is done
 * with them. */
typedef struct
{
  Sequence *seq;
  gsize     offset;     /* of its bytes in the chunk */
  gsize     len;
  /* the reader's counts when its packet was read, for a stop there */
  guint64   at;
  guint64   n_packets;
  guint64   n_skipped_packets;
  guint64   complete;
} HeapGraphCopy;

typedef struct
{
  guint8        *data;
  gsize          len;
  gsize          cap;
  HeapGraphCopy *graphs;
  guint          n_graphs;
  guint          cap_graphs;
} HeapChunk;

/* The queue holds a quarter of the input at most, within these bounds:
 * enough that this thread mostly reaches the end of a trace whose heap
 * graphs come last, and builds the tracks, while the worker is still at
 * them; the bytes waiting there are fewer than the arrays they become. */
#ifndef BL_FUZZING
#define HEAP_CHUNK       (2 * 1024 * 1024)
#define HEAP_QUEUE_MIN   (8 * 1024 * 1024)
#define HEAP_QUEUE_MAX   (128 * 1024 * 1024)
#else
#define HEAP_CHUNK       64             /* full and empty often */
#define HEAP_QUEUE_MIN   256
#define HEAP_QUEUE_MAX   256
#endif

struct _HeapWorker
{
  GThread   *thread;
  Reader    *hr;
  gboolean   analyse;      /* bl_heap_finish() each heap graph once complete */
  HeapChunk *filling;      /* this thread's, not yet handed over */
  GMutex     lock;
  GCond      wake_worker;  /* a chunk, or the end */
  GCond      wake_reader;  /* room in the queue, or idle */
  GQueue     chunks;       /* HeapChunk, in packet order */
  GQueue     spare;        /* done, kept for the next ones … */
  gboolean   flushed;      /* … until the last one is handed over */
  gsize      queued;       /* bytes in chunks */
  gsize      max_queued;
  gboolean   busy;         /* a chunk is being decoded */
  gboolean   quit;         /* drop the chunks left and end */
  gboolean   failed;       /* a heap graph was malformed (hr->problem says why) … */
  HeapGraphCopy failure;   /* … this one */
};

#ifndef BL_FUZZING
static guint64 heap_worker_min_bytes = BL_PERFETTO_HEAP_WORKER_MIN_BYTES;
#else
static guint64 heap_worker_min_bytes = 0;   /* every input: the hand-over is fuzzed too */
#endif

/**
 * bl_perfetto_set_heap_worker: (skip)
 * @min_bytes: once a trace's heap graphs add up to this many bytes, they
 *   go to a second thread; G_MAXUINT64: never
 *
 * For tests and benchmarks.
 */
void
bl_perfetto_set_heap_worker (guint64 min_bytes)
{
  __atomic_store_n (&heap_worker_min_bytes, min_bytes, __ATOMIC_RELAXED);
}

static HeapChunk *
heap_chunk_new (gsize cap)
{
  HeapChunk *chunk = g_new0 (HeapChunk, 1);

  chunk->cap = cap;
  chunk->data = bl_big_array_grow (NULL, 0, cap);

  return chunk;
}

static void
heap_chunk_free (gpointer data)
{
  HeapChunk *chunk = data;

  bl_big_array_free (chunk->data, chunk->cap);
  g_free (chunk->graphs);
  g_free (chunk);
}

/* Finishes (bl_heap_finish()) the heap graphs complete so far. */
static void
heap_finish_complete (Reader *hr)
{
  for (; hr->n_heaps_finished < hr->heaps->len; hr->n_heaps_finished++)
    bl_heap_finish (g_ptr_array_index (hr->heaps, hr->n_heaps_finished));
}

static gpointer
heap_worker_main (gpointer data)
{
  HeapWorker *w = data;

  g_mutex_lock (&w->lock);
  for (;;)
    {
      HeapChunk *chunk;
      gboolean skip;
      guint bad = G_MAXUINT;

      while (g_queue_is_empty (&w->chunks) && !w->quit)
        g_cond_wait (&w->wake_worker, &w->lock);
      if (w->quit)
        break;
      chunk = g_queue_pop_head (&w->chunks);
      w->busy = TRUE;
      skip = w->failed;
      g_mutex_unlock (&w->lock);

      for (guint i = 0; i < chunk->n_graphs && !skip; i++)
        {
          const HeapGraphCopy *copy = &chunk->graphs[i];
          BlPbField f = { 56, BL_PB_BYTES, copy->len, chunk->data + copy->offset, copy->len };

          if (!read_heap_graph (w->hr, copy->seq, &f, chunk->data + chunk->cap))
            {
              bad = i;
              break;
            }
          if (w->analyse)
            heap_finish_complete (w->hr);
        }

      g_mutex_lock (&w->lock);
      w->busy = FALSE;
      w->queued -= chunk->len;
      if (bad != G_MAXUINT)
        {
          w->failed = TRUE;
          w->failure = chunk->graphs[bad];
        }
      /* at most a queue's worth: what this thread can be filling at once */
      if (!w->flushed && chunk->cap == HEAP_CHUNK &&
          g_queue_get_length (&w->spare) < w->max_queued / HEAP_CHUNK + 1)
        g_queue_push_tail (&w->spare, chunk);
      else
        heap_chunk_free (chunk);
      g_cond_signal (&w->wake_reader);
    }
  g_mutex_unlock (&w->lock);

  return NULL;
}

static gboolean
want_heap_worker (Reader *reader)
{
  guint64 min_bytes = __atomic_load_n (&heap_worker_min_bytes, __ATOMIC_RELAXED);

  if (min_bytes == G_MAXUINT64)
    return FALSE;
  /* an input of 16 times as many bytes has its first heap graph decoded
   * by the worker already: a thread costs little beside reading it */
  if (reader->heap_bytes < min_bytes && reader->total / 16 < min_bytes)
    return FALSE;

  return min_bytes == 0 || g_get_num_processors () >= 2;
}

static void
heap_worker_start (Reader   *reader,
                   guint64   total)
{
  HeapWorker *w = g_new0 (HeapWorker, 1);

  w->max_queued = (gsize) CLAMP (total / 4, HEAP_QUEUE_MIN, HEAP_QUEUE_MAX);
  w->hr = reader->hr;
  w->analyse = reader->analyse;
  g_mutex_init (&w->lock);
  g_cond_init (&w->wake_worker);
  g_cond_init (&w->wake_reader);
  g_queue_init (&w->chunks);
  g_queue_init (&w->spare);
  w->thread = g_thread_try_new ("perfetto-heap", heap_worker_main, w, NULL);
  if (w->thread == NULL)
    {
      /* no thread to be had: the heap graphs are decoded in line */
      g_mutex_clear (&w->lock);
      g_cond_clear (&w->wake_worker);
      g_cond_clear (&w->wake_reader);
      g_free (w);
      return;
    }
  reader->worker = w;
}

/* Hands the chunk being filled over, waiting for room. */
static void
heap_worker_send (HeapWorker *w)
{
  HeapChunk *chunk = g_steal_pointer (&w->filling);

  if (chunk == NULL)
    return;

  g_mutex_lock (&w->lock);
  /* a chunk larger than the queue waits for it to be empty */
  while (w->queued > 0 && w->queued + chunk->len > w->max_queued && !w->failed)
    g_cond_wait (&w->wake_reader, &w->lock);
  if (w->failed)
    {
      /* it would not be decoded: the reading stops at the failed one */
      g_mutex_unlock (&w->lock);
      heap_chunk_free (chunk);
      return;
    }
  g_queue_push_tail (&w->chunks, chunk);
  w->queued += chunk->len;
  g_cond_signal (&w->wake_worker);
  g_mutex_unlock (&w->lock);
}

/* Hands the chunk being filled over without waiting for room (the
 * queue's bound is passed by one chunk at most: nothing comes after it),
 * and frees the spare chunks: this thread has no more heap graphs for the
 * worker, which can finish the last ones while this one builds the
 * tracks. */
static void
heap_worker_flush (HeapWorker *w)
{
  HeapChunk *chunk = g_steal_pointer (&w->filling);
  GQueue spare;

  g_mutex_lock (&w->lock);
  w->flushed = TRUE;
  if (chunk != NULL && !w->failed)
    {
      w->queued += chunk->len;
      g_queue_push_tail (&w->chunks, g_steal_pointer (&chunk));
      g_cond_signal (&w->wake_worker);
    }
  spare = w->spare;
  g_queue_init (&w->spare);
  g_mutex_unlock (&w->lock);

  g_clear_pointer (&chunk, heap_chunk_free);
  g_queue_clear_full (&spare, heap_chunk_free);
}

/* Copies a heap graph of @seq for the worker. */
static void
heap_worker_push (Reader          *reader,
                  Sequence        *seq,
                  const BlPbField *f)
{
  HeapWorker *w = reader->worker;
  HeapChunk *chunk = w->filling;
  HeapGraphCopy *copy;

  if (chunk != NULL && chunk->cap - chunk->len < f->len)
    {
      heap_worker_send (w);
      chunk = NULL;
    }
  if (chunk == NULL && f->len <= HEAP_CHUNK)
    {
      g_mutex_lock (&w->lock);
      chunk = g_queue_pop_head (&w->spare);
      g_mutex_unlock (&w->lock);
      if (chunk != NULL)
        chunk->len = chunk->n_graphs = 0;
    }
  if (chunk == NULL)
    chunk = heap_chunk_new (MAX (f->len, HEAP_CHUNK));
  w->filling = chunk;

  if (chunk->n_graphs == chunk->cap_graphs)
    {
      chunk->cap_graphs = MAX (16, chunk->cap_graphs * 2);
      chunk->graphs = g_renew (HeapGraphCopy, chunk->graphs, chunk->cap_graphs);
    }
  copy = &chunk->graphs[chunk->n_graphs++];
  copy->seq = seq;
  copy->offset = chunk->len;
  copy->len = f->len;
  copy->at = reader->packet_at;
  copy->n_packets = reader->n_packets;
  copy->n_skipped_packets = reader->n_skipped_packets;
  copy->complete = reader->complete;
  memcpy (chunk->data + chunk->len, f->data, f->len);
  chunk->len += f->len;
  if (chunk->len == chunk->cap)
    heap_worker_send (w);
  reader->heap_pending = TRUE;
}

/* Waits until the worker has decoded every heap graph handed over: the
 * heap graphs' reader is this thread's again until the next push. If one
 * was malformed, the reading stops at its packet, as in line: sets the
 * problem and the counts as they were then and returns TRUE. */
static gboolean
heap_worker_sync (Reader *reader)
{
  HeapWorker *w = reader->worker;
  HeapGraphCopy failure;
  gboolean failed;

  if (w == NULL || !reader->heap_pending)
    return FALSE;

  heap_worker_send (w);
  g_mutex_lock (&w->lock);
  while (w->busy || (!g_queue_is_empty (&w->chunks) && !w->failed))
    g_cond_wait (&w->wake_reader, &w->lock);
  failed = w->failed;
  failure = w->failure;
  w->failed = FALSE;
  /* after a failure the heap graphs left are dropped */
  while (!g_queue_is_empty (&w->chunks))
    {
      HeapChunk *chunk = g_queue_pop_head (&w->chunks);

      w->queued -= chunk->len;
      heap_chunk_free (chunk);
    }
  g_mutex_unlock (&w->lock);
  reader->heap_pending = FALSE;

  if (!failed)
    return FALSE;

  g_free (reader->problem);
  reader->problem = g_strdup_printf (_("the packet at byte %" PRIu64 " is malformed: %s"),
                                     failure.at, reader->hr->problem);
  g_clear_pointer (&reader->hr->problem, g_free);
  reader->n_packets = failure.n_packets;
  reader->n_skipped_packets = failure.n_skipped_packets;
  reader->complete = failure.complete;

  return TRUE;
}

/* Ends the worker, dropping what it was not done with. */
static void
heap_worker_stop (Reader *reader)
{
  HeapWorker *w = reader->worker;

  if (w == NULL)
    return;

  g_mutex_lock (&w->lock);
  w->quit = TRUE;
  g_cond_signal (&w->wake_worker);
  g_mutex_unlock (&w->lock);
  g_thread_join (w->thread);
  g_clear_pointer (&w->filling, heap_chunk_free);
  g_queue_clear_full (&w->chunks, heap_chunk_free);
  g_queue_clear_full (&w->spare, heap_chunk_free);
  g_mutex_clear (&w->lock);
  g_cond_clear (&w->wake_worker);
  g_cond_clear (&w->wake_reader);
  g_free (w);
  reader->worker = NULL;
  reader->heap_pending = FALSE;
}

/* A heap graph field of a packet: handed to the worker if @plain (the
 * packet's one payload, see HeapWorker), else decoded here. */
static gboolean
read_heap_graph_field (Reader          *reader,
                       Sequence        *seq,
                       const BlPbField *f,
                       gboolean         plain)
{
  reader->heap_bytes += f->len;
  if (plain && reader->worker == NULL && want_heap_worker (reader))
    heap_worker_start (reader, reader->total);
  if (plain && reader->worker != NULL)
    {
      heap_worker_push (reader, seq, f);
      return TRUE;
    }

  /* the worker, if any, is idle (read_source() waited for it) */
  g_assert (!reader->heap_pending);
  if (!read_heap_graph (reader->hr, seq, f, f->data + f->len))
    {
      set_problem (reader, reader->hr->problem);
      g_clear_pointer (&reader->hr->problem, g_free);
      return FALSE;
    }

  return TRUE;
}

/* ---- packets ---- */

static gboolean read_packet (Reader       *reader,
                             const guint8 *data,
                             gsize         len,
                             gboolean      allow_compressed);

static gboolean
read_compressed (Reader          *reader,
                 const BlPbField *data)
{
  g_autoptr (GZlibDecompressor) inflater = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_ZLIB);
  g_autoptr (GByteArray) out = g_byte_array_new ();
  gsize in_pos = 0;
  BlPbCursor c;
  BlPbField f;
  BlPbStatus status;

  for (;;)
    {
      guint8 buffer[64 * 1024];
      gsize read = 0, written = 0;
      g_autoptr (GError) error = NULL;
      GConverterResult result;

      result = g_converter_convert (G_CONVERTER (inflater),
                                    data->data + in_pos, data->len - in_pos,
                                    buffer, sizeof buffer,
                                    G_CONVERTER_INPUT_AT_END, &read, &written, &error);
      if (result == G_CONVERTER_ERROR)
        {
          set_problem (reader, _("a block of compressed packets cannot be inflated"));
          return FALSE;
        }
      in_pos += read;
      g_byte_array_append (out, buffer, written);
      if (out->len > MAX_INFLATED)
        {
          set_problem (reader, _("a block of compressed packets inflates to more than 256 MB"));
          return FALSE;
        }
      if (result == G_CONVERTER_FINISHED)
        break;
      if (read == 0 && written == 0)
        {
          set_problem (reader, _("a block of compressed packets ends early"));
          return FALSE;
        }
    }

  bl_pb_cursor_init (&c, out->data, out->len);
  FOR_FIELDS (reader, &c, &f, N_("block of compressed packets"), status)
    {
      if (f.number == 1 && f.wire == BL_PB_BYTES &&
          !read_packet (reader, f.data, f.len, FALSE))
        return FALSE;
    }

  return FIELDS_OK (status);
}

static inline gboolean
packet_field_of_interest (guint32 number)
{
  switch (number)
    {
    case 6:
    case 11:
    case 12:
    case 43:
    case 44:
    case 50:
    case 56:
    case 59:
    case 60:
      return TRUE;
    default:
      return FALSE;
    }
}

/* The messages of one packet, in file order: first the state its own
 * events use, then the payload. */
static gboolean
read_packet_payload (Reader          *reader,
                     Sequence        *seq,
                     const BlPbField *fields,
                     guint            n_fields,
                     gboolean         has_ts,
                     guint64          ts,
                     gboolean         has_clock,
                     guint32          clock_id,
                     gboolean         allow_compressed,
                     gboolean         plain_heap)
{
  for (guint i = 0; i < n_fields; i++)
    {
      const BlPbField *fp = &fields[i];

      if (fp->number == 12 && !read_interned_data (reader, seq, fp))
        return FALSE;
      if (fp->number == 59 && !read_defaults (reader, seq, fp))
        return FALSE;
      if (fp->number == 6 && !read_clock_snapshot (reader, seq, fp))
        return FALSE;
      if (fp->number == 44)
        {
          char *name = NULL;
          gint64 pid = seq->pid, tid = seq->tid;
          gint64 reference = 0, reference_thread = 0;
          Track *thread;

          if (!read_thread_descriptor_full (reader, fp, &pid, &tid, &name,
                                            &reference, &reference_thread))
            {
              g_free (name);
              return FALSE;
            }
          seq->has_thread = TRUE;
          seq->pid = pid;
          seq->tid = tid;
          /* the reference the legacy delta timestamps count from */
          seq->legacy_ts_valid = TRUE;
          seq->legacy_ts = (guint64) reference * 1000;
          seq->legacy_thread_ts = (guint64) reference_thread * 1000;
          thread = get_track (reader, LEGACY_THREAD_KEY | ((guint64) pid << 32) | (guint32) tid);
          thread->is_thread = TRUE;
          thread->pid = pid;
          thread->tid = tid;
          if (name != NULL)
            {
              g_free (thread->thread_name);
              thread->thread_name = name;
            }
        }
      if (fp->number == 43)
        {
          g_autofree char *name = NULL;
          gint64 pid = 0;

          if (!read_process_descriptor (reader, fp, &pid, &name))
            return FALSE;
        }
    }

  if (has_ts)
    {
      guint32 clock = has_clock ? clock_id :
                      seq->has_default_clock ? seq->default_clock : reader->trace_clock;

      ts = to_trace_time (reader, seq, clock, ts);
    }

  for (guint i = 0; i < n_fields; i++)
    {
      const BlPbField *fp = &fields[i];

      if (fp->number == 60 && !read_track_descriptor (reader, fp))
        return FALSE;
      if (fp->number == 11 && !read_track_event (reader, seq, fp, has_ts, ts))
        return FALSE;
      if (fp->number == 56 && !read_heap_graph_field (reader, seq, fp, plain_heap))
        return FALSE;
      if (fp->number == 50 && allow_compressed && !read_compressed (reader, fp))
        return FALSE;
    }

  return TRUE;
}

/* The usual packet: a timestamp, a sequence id and a track event of a
 * type, a track and an interned name, nothing else. Decoded here without
 * the generic walk over fields, with the same result; FALSE (nothing done)
 * for any other packet, which read_packet() then reads. */
static inline gboolean
read_usual_packet (Reader       *reader,
                   const guint8 *p,
                   gsize         len,
                   const guint8 *readable)
{
  const guint8 *end = p + len;
  const guint8 *ev = NULL, *ev_end = NULL;
  guint64 ts = 0, seq_id = 0, type = 0, track_uuid = 0, iid = 0, v;
  gboolean has_ts = FALSE, has_track = FALSE, has_name = FALSE;
  guint32 name, clock;
  Sequence *seq;
  Track *track;
  guint32 bits;

  while (p < end)
    {
      /* field numbers below 16: one-byte keys */
      switch (*p++)
        {
        case 8 << 3 | BL_PB_VARINT:
          if (!usual_varint (&p, end, readable, &ts))
            return FALSE;
          has_ts = TRUE;
          break;
        case 10 << 3 | BL_PB_VARINT:
          if (!usual_varint (&p, end, readable, &seq_id))
            return FALSE;
          break;
        case 11 << 3 | BL_PB_BYTES:
          if (ev != NULL || !usual_varint (&p, end, readable, &v) || v > (guint64) (end - p))
            return FALSE;
          ev = p;
          ev_end = p + v;
          p += v;
          break;
        default:
          return FALSE;
        }
    }
  if (ev == NULL || !has_ts)
    return FALSE;
  while (ev < ev_end)
    {
      switch (*ev++)
        {
        case 9 << 3 | BL_PB_VARINT:
          if (!usual_varint (&ev, ev_end, readable, &type))
            return FALSE;
          break;
        case 11 << 3 | BL_PB_VARINT:
          if (!usual_varint (&ev, ev_end, readable, &track_uuid))
            return FALSE;
          has_track = TRUE;
          break;
        case 10 << 3 | BL_PB_VARINT:
          if (!usual_varint (&ev, ev_end, readable, &iid))
            return FALSE;
          has_name = TRUE;
          break;
        default:
          return FALSE;
        }
    }
  /* what read_packet(), read_packet_payload() and read_track_event() do
   * for such a packet */
  if (type < EV_SLICE_BEGIN || type > EV_INSTANT)
    return FALSE;
  seq = get_sequence (reader, seq_id);
  if (!has_track && !seq->has_default_track)
    return FALSE;
  reader->n_packets++;
  clock = seq->has_default_clock ? seq->default_clock : reader->trace_clock;
  if (clock != reader->trace_clock)
    ts = to_trace_time (reader, seq, clock, ts);
  name = has_name ? lookup_name (seq, iid) : G_MAXUINT32;
  if (!has_track)
    track_uuid = seq->default_track;

  bits = event_bits (name, (guint32) type);
  reader->order++;
  track = seq->event_track;
  if (track == NULL || track->uuid != track_uuid)
    track = seq->event_track = get_track (reader, track_uuid);
  if (track->events.len > 0 && ts < track->last_ts)
    track->events_unsorted = TRUE;
  events_append (&track->events, &track->last_ts, ts, bits);
  note_event_ts (reader, ts);

  return TRUE;
}

static gboolean
read_packet (Reader       *reader,
             const guint8 *data,
             gsize         len,
             gboolean      allow_compressed)
{
  BlPbCursor c;
  BlPbField f;
  BlPbStatus status;
  guint64 seq_id = 0;
  guint64 ts = 0;
  gboolean has_ts = FALSE;
  guint32 clock_id = 0;
  gboolean has_clock = FALSE;
  gboolean cleared = FALSE;
  gboolean dropped = FALSE;
  gboolean needs_state = FALSE;
  BlPbField kept[8];
  guint n_kept = 0;
  gboolean heap_only = TRUE;
  gboolean plain_heap;
  Sequence *seq;

  if (read_usual_packet (reader, data, len, data + len))
    return TRUE;

  reader->n_packets++;

  /* one pass over the packet's own fields: the scalars the others depend
   * on, and where the messages of interest are (a packet holds a few; a
   * packet with more is walked again for them) */
  bl_pb_cursor_init (&c, data, len);
  FOR_FIELDS (reader, &c, &f, N_("trace packet"), status)
    {
      if (f.wire == BL_PB_VARINT)
        {
          if (f.number == 10)
            seq_id = f.value;
          else if (f.number == 8)
            {
              ts = f.value;
              has_ts = TRUE;
            }
          else if (f.number == 58)
            {
              clock_id = (guint32) f.value;
              has_clock = TRUE;
            }
          else if (f.number == 41 && f.value != 0)
            cleared = TRUE;
          else if (f.number == 42 && f.value != 0)
            dropped = TRUE;
          else if (f.number == 13)
            {
              if ((f.value & 1) != 0)
                cleared = TRUE;
              if ((f.value & 2) != 0)
                needs_state = TRUE;
            }
        }
      else if (f.wire == BL_PB_BYTES && packet_field_of_interest (f.number))
        {
          if (n_kept < G_N_ELEMENTS (kept))
            kept[n_kept] = f;
          n_kept++;
          heap_only &= f.number == 56;
        }
    }
  if (!FIELDS_OK (status))
    return FALSE;

  /* what packet_is_plain_heap() tells read_source() */
  plain_heap = allow_compressed && heap_only && n_kept > 0 && n_kept <= G_N_ELEMENTS (kept) &&
               find_sequence (reader, seq_id) != NULL;
  seq = get_sequence (reader, seq_id);
  if (cleared)
    {
      sequence_clear_state (seq);
      seq->state_valid = TRUE;
    }
  else if (dropped)
    {
      /* what the lost packets set up is missing until the next clear */
      seq->state_valid = FALSE;
      seq->legacy_ts_valid = FALSE;
    }

  /* Perfetto's trace processor skips a packet that needs incremental state
   * (interned names, defaults) on a sequence that never cleared it, or lost
   * packets since: its references would resolve to nothing or to the wrong
   * names (sequence 0 belongs to no writer and never has state) */
  if (needs_state && (!seq->state_valid || seq_id == 0))
    {
      reader->n_skipped_packets++;
      return TRUE;
    }

  if (n_kept > G_N_ELEMENTS (kept))
    {
      /* too many to keep: walk the packet again for them */
      g_autofree BlPbField *all = g_new (BlPbField, n_kept);

      n_kept = 0;
      bl_pb_cursor_init (&c, data, len);
      while (bl_pb_next (&c, &f) == BL_PB_FIELD)
        if (f.wire == BL_PB_BYTES && packet_field_of_interest (f.number))
          all[n_kept++] = f;

      return read_packet_payload (reader, seq, all, n_kept, has_ts, ts,
                                  has_clock, clock_id, allow_compressed, plain_heap);
    }

  return read_packet_payload (reader, seq, kept, n_kept, has_ts, ts,
                              has_clock, clock_id, allow_compressed, plain_heap);
}

/* Whether a top-level packet would go to the heap graph worker: its one
 * payload is a heap graph, on a sequence seen before (read_packet()). */
static gboolean
packet_is_plain_heap (Reader       *reader,
                      const guint8 *data,
                      gsize         len)
{
  BlPbCursor c;
  BlPbField f;
  BlPbStatus status;
  guint64 seq_id = 0;
  guint n_heap = 0;

  bl_pb_cursor_init (&c, data, len);
  while ((status = bl_pb_next (&c, &f)) == BL_PB_FIELD)
    {
      if (f.wire == BL_PB_VARINT && f.number == 10)
        seq_id = f.value;
      else if (f.wire == BL_PB_BYTES && packet_field_of_interest (f.number))
        {
          if (f.number != 56)
            return FALSE;
          n_heap++;
        }
    }

  return status == BL_PB_END && n_heap > 0 && n_heap <= 8 &&
         find_sequence (reader, seq_id) != NULL;
}

/* ---- building the profile ---- */

static int
compare_events (gconstpointer a,
                gconstpointer b)
{
  const FullEvent *ea = a, *eb = b;

  /* ties stay in file order: g_array_sort() is stable */
  return ea->ts < eb->ts ? -1 : ea->ts > eb->ts;
}

/* Orders a track's events by time, ties in file order. */
static void
sort_track_events (Track *track)
{
  g_autoptr (GArray) full = g_array_sized_new (FALSE, FALSE, sizeof (FullEvent), track->events.len);
  EventList sorted = { NULL, 0, 0 };
  guint64 ts = 0;

  for (gsize pos = 0; pos < track->events.len;)
    {
      FullEvent ev;

      ev.bits = events_next (track->events.data, &pos, &ts);
      ev.ts = ts;
      g_array_append_val (full, ev);
    }
  g_array_sort (full, compare_events);
  for (guint i = 0; i < full->len; i++)
    events_append (&sorted, &ts, g_array_index (full, FullEvent, i).ts,
                   g_array_index (full, FullEvent, i).bits);
  event_list_clear (&track->events);
  track->events = sorted;
  track->events_unsorted = FALSE;
}

static int
compare_points (gconstpointer a,
                gconstpointer b)
{
  const RawPoint *pa = a, *pb = b;

  if (pa->ts != pb->ts)
    return pa->ts < pb->ts ? -1 : 1;
  return pa->order < pb->order ? -1 : pa->order > pb->order;
}

typedef struct
{
  guint64 ts;
  guint32 order;
  guint32 thread;
  guint32 span;
  guint64 id;
  gboolean terminating;
} FlowStep;

static int
compare_flow_steps (gconstpointer a,
                    gconstpointer b)
{
  const FlowStep *fa = a, *fb = b;

  if (fa->ts != fb->ts)
    return fa->ts < fb->ts ? -1 : 1;
  return fa->order < fb->order ? -1 : fa->order > fb->order;
}

static char *
track_display_name (Reader *reader,
                    Track  *track)
{
  if (track->name != NULL && track->name[0] != '\0')
    return g_strdup (track->name);
  if (track->is_thread)
    {
      if (track->thread_name != NULL && track->thread_name[0] != '\0')
        return g_strdup (track->thread_name);
      return g_strdup_printf ("Thread %" G_GINT64_FORMAT, track->tid);
    }
  if (track->is_process)
    {
      const char *name = track->process_name;

      if (name == NULL)
        name = g_hash_table_lookup (reader->process_names, (gpointer) (guintptr) track->pid);
      if (name != NULL && name[0] != '\0')
        return g_strdup (name);
      return g_strdup_printf ("Process %" G_GINT64_FORMAT, track->pid);
    }
  if (track->uuid == 0)
    return g_strdup ("Default track");

  return g_strdup_printf ("Track %" G_GUINT64_FORMAT, track->uuid);
}

typedef struct
{
  guint32 node;
  guint32 span;
  guint32 name;
  guint64 start;
  guint64 children;
} Open;

static inline guint64
child_key (guint32 parent,
           guint32 name)
{
  return ((guint64) parent << 32) | name;
}

static inline gsize
child_hash (guint64 key)
{
  key ^= key >> 29;
  key *= G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  key ^= key >> 32;

  return (gsize) key;
}

static ChildSlot *
child_slot (ChildIndex *index,
            guint64     key)
{
  gsize pos = child_hash (key) & index->mask;

  while (index->slots[pos].key != G_MAXUINT64 && index->slots[pos].key != key)
    pos = (pos + 1) & index->mask;

  return &index->slots[pos];
}

static void
child_index_put (ChildIndex *index,
                 guint64     key,
                 guint32     node)
{
  ChildSlot *slot;

  if (index->slots == NULL || (index->used + 1) * 2 > index->mask)
    {
      ChildSlot *old = index->slots;
      gsize old_size = old != NULL ? index->mask + 1 : 0;
      gsize size = MAX (1024, old_size * 2);

      index->slots = g_new (ChildSlot, size);
      memset (index->slots, 0xff, size * sizeof (ChildSlot));
      index->mask = size - 1;
      for (gsize i = 0; i < old_size; i++)
        if (old[i].key != G_MAXUINT64)
          *child_slot (index, old[i].key) = old[i];
      g_free (old);
    }
  slot = child_slot (index, key);
  if (slot->key == G_MAXUINT64)
    index->used++;
  slot->key = key;
  slot->node = node;
}

static void
child_index_clear (ChildIndex *index)
{
  g_clear_pointer (&index->n_children, g_free);
  g_clear_pointer (&index->outermost, g_free);
  g_clear_pointer (&index->slots, g_free);
  g_clear_pointer (&index->on_stack, g_free);
  g_clear_pointer (&index->cached, g_free);
  index->cap = index->mask = index->used = index->n_on_stack = 0;
}

/* Per node, whether it is outermost for bl_profile_finish(): the nodes
 * not made by add_child() (thread roots) are. */
static void
child_index_grow (ChildIndex *index,
                  gsize       n_nodes)
{
  gsize cap = MAX (MAX (index->cap * 2, 4096), n_nodes);

  if (index->n_children != NULL || index->cap == 0)
    {
      index->n_children = g_renew (guint8, index->n_children, cap);
      memset (index->n_children + index->cap, 0, cap - index->cap);
    }
  index->outermost = g_renew (guint8, index->outermost, cap);
  memset (index->outermost + index->cap, 1, cap - index->cap);
  index->cap = cap;
}

/* How many slices of @name are open on the track being built. */
static inline guint32 *
on_stack_of (ChildIndex *index,
             guint32     name)
{
  if G_UNLIKELY (name >= index->n_on_stack)
    {
      gsize n = MAX (MAX (index->n_on_stack * 2, 1024), (gsize) name + 1);

      index->on_stack = g_renew (guint32, index->on_stack, n);
      memset (index->on_stack + index->n_on_stack, 0, (n - index->n_on_stack) * sizeof (guint32));
      index->n_on_stack = n;
    }

  return &index->on_stack[name];
}

/* The child of @parent called @name, created if new: what
 * bl_profile_add_child() does, with the lookup above. A new child is
 * outermost unless a slice of its name is open (on_stack_of()). @nodes
 * are the profile's nodes, valid until one is added. */
static guint32
add_child (BlProfile    *profile,
           ChildIndex   *index,
           const BlNode *nodes,
           guint32       parent,
           guint32       name)
{
  guint32 count = parent < index->cap ? index->n_children[parent] : 0;
  ChildCached *cached;
  guint32 node;

  if G_UNLIKELY (index->cached == NULL)
    {
      index->cached = g_new (ChildCached, 1 << CHILD_CACHE_BITS);
      memset (index->cached, 0xff, sizeof (ChildCached) << CHILD_CACHE_BITS);
    }
  cached = &index->cached[(parent * 0x9e3779b1u ^ name * 0x85ebca77u) >> (32 - CHILD_CACHE_BITS)];
  if (cached->parent == parent && cached->name == name)
    return cached->node;
  cached->parent = parent;
  cached->name = name;

  if (count <= FEW_CHILDREN)
    {
      for (guint32 c = nodes[parent].first_child; c != BL_NODE_NONE; c = nodes[c].next_sibling)
        if (nodes[c].name == name)
          return cached->node = c;
    }
  else
    {
      ChildSlot *slot = child_slot (index, child_key (parent, name));

      if (slot->key != G_MAXUINT64)
        return cached->node = slot->node;
    }

  node = cached->node = _bl_profile_append_child (profile, parent, BL_NODE_NONE, name, 0, 0);
  nodes = _bl_profile_get_nodes_mutable (profile);
  if (node >= index->cap)
    child_index_grow (index, (gsize) node + 1);
  index->outermost[node] = *on_stack_of (index, name) == 0;
  if (parent >= index->cap)
    return node;   /* not reached: parents come before their children */
  if (count == FEW_CHILDREN)
    {
      /* one child too many for the walk: index them all from now on */
      for (guint32 c = nodes[parent].first_child; c != BL_NODE_NONE; c = nodes[c].next_sibling)
        child_index_put (index, child_key (parent, nodes[c].name), c);
      index->n_children[parent] = FEW_CHILDREN + 1;
    }
  else if (count > FEW_CHILDREN)
    child_index_put (index, child_key (parent, name), node);
  else
    index->n_children[parent] = (guint8) (count + 1);

  return node;
}

/* A track's slices being built: the open ones, innermost last. */
typedef struct
{
  Open    *open;
  gsize    len;
  gsize    cap;
} OpenStack;

/* @spans: the track's spans, the first of them span @first of @thread;
 * @self_ns: the profile's self times */
static inline void
close_slice (BlProfile  *profile,
             ChildIndex *index,
             guint64    *self_ns,
             guint       thread,
             BlSpan     *spans,
             guint       first,
             OpenStack  *stack,
             guint64     end)
{
  Open *top = &stack->open[stack->len - 1];
  guint64 duration = end >= top->start ? end - top->start : 0;
  guint64 self = duration >= top->children ? duration - top->children : 0;

  index->on_stack[top->name]--;
  self_ns[top->node] = bl_saturating_add (self_ns[top->node], self);
  if (duration < BL_SPAN_LONG)
    spans[top->span - first].duration = (guint32) duration;
  else
    _bl_profile_set_span_duration (profile, thread, top->span, duration);
  stack->len--;
  if (stack->len > 0)
    stack->open[stack->len - 1].children += duration;
}

static void
build_track (Reader          *reader,
             BlPerfettoTrace *trace,
             Track           *track,
             GArray          *flow_steps)
{
  BlProfile *profile = reader->profile;
  OpenStack stack = { NULL, 0, 0 };
  g_autofree char *name = NULL;
  gboolean has_slices = FALSE;
  guint thread = G_MAXUINT32;
  guint32 root = BL_NODE_NONE;
  guint32 unnamed = G_MAXUINT32;
  guint64 first = 0, last = 0;
  gsize n_slices = 0;
  BlSpan *spans = NULL;
  guint first_span = 0, next_span = 0;
  const Event *events;
  const BlNode *nodes;
  guint64 *self_ns;
  guint32 n_nodes;
  guint64 ts = 0;

  if (track->events.len == 0)
    return;

  /* in file order already unless a timestamp went back */
  if (track->events_unsorted)
    sort_track_events (track);
  events = track->events.data;
  for (gsize i = 0; i < track->events.len; i++)
    n_slices += event_type (events[i].bits) == EV_SLICE_BEGIN;
  has_slices = n_slices > 0;

  if (has_slices)
    {
      name = track_display_name (reader, track);
      /* tracks of the same name share one thread, as in the folded output */
      root = bl_profile_add_thread (profile, bl_profile_intern (profile, name));
      thread = bl_profile_get_node (profile, root)->thread;
      /* one span per slice, filled in below (nothing else adds spans to
       * the thread meanwhile) */
      spans = _bl_profile_append_spans (profile, thread, n_slices, &first_span);
      next_span = first_span;
    }

  /* the profile's arrays, again whenever a node is added */
  nodes = _bl_profile_get_nodes_mutable (profile);
  self_ns = _bl_profile_get_self_mutable (profile, BL_METRIC_TIME_NS);
  n_nodes = bl_profile_get_n_nodes (profile);

  for (gsize pos = 0; pos < track->events.len;)
    {
      gboolean at_first = pos == 0;
      guint32 bits = events_next (events, &pos, &ts);
      guint32 type = event_type (bits);
      const EventExtra *extra = NULL;
      guint32 ev_name;

      if G_UNLIKELY ((bits & EV_HAS_EXTRA) != 0)
        {
          extra = &g_array_index (reader->extras, EventExtra, bits >> EV_NAME_SHIFT);
          ev_name = event_name_bits (extra->name);
        }
      else
        ev_name = event_name_bits (bits);

      if (at_first)
        first = ts;
      last = MAX (last, ts);

      if (type == EV_SLICE_BEGIN)
        {
          guint32 parent = stack.len > 0 ? stack.open[stack.len - 1].node : root;
          guint32 slice_name = ev_name;
          BlSpan *span;
          Open *open;

          if G_UNLIKELY (slice_name == G_MAXUINT32)
            {
              if (unnamed == G_MAXUINT32)
                unnamed = bl_profile_intern (profile, "(unnamed)");
              slice_name = unnamed;
            }
          if G_UNLIKELY (stack.len == stack.cap)
            {
              stack.cap = MAX (64, stack.cap * 2);
              stack.open = g_renew (Open, stack.open, stack.cap);
            }
          open = &stack.open[stack.len++];
          open->node = add_child (profile, &reader->children, nodes, parent, slice_name);
          if G_UNLIKELY (open->node >= n_nodes)
            {
              nodes = _bl_profile_get_nodes_mutable (profile);
              self_ns = _bl_profile_get_self_mutable (profile, BL_METRIC_TIME_NS);
              n_nodes = open->node + 1;
            }
          (*on_stack_of (&reader->children, slice_name))++;
          open->name = slice_name;
          open->span = next_span++;
          span = &spans[open->span - first_span];
          span->start = ts;
          span->node = open->node;
          span->duration = 0;
          open->start = ts;
          open->children = 0;
          trace->n_slices++;

          if G_UNLIKELY (extra != NULL && extra->annotation != G_MAXUINT32)
            {
              BlPerfettoAnnotation *annotation = g_new0 (BlPerfettoAnnotation, 1);

              annotation->thread = thread;
              annotation->span = open->span;
              annotation->text = g_steal_pointer (&g_ptr_array_index (reader->annotation_texts,
                                                                      extra->annotation));
              g_ptr_array_add (trace->annotations, annotation);
            }

          for (guint k = 0; extra != NULL && k < extra->n_flows; k++)
            {
              const FlowRef *ref = &g_array_index (reader->flow_refs, FlowRef, extra->flow_first + k);
              FlowStep step = { ts, extra->order, thread, open->span, ref->id, ref->terminating };

              g_array_append_val (flow_steps, step);
            }
        }
      else if (type == EV_SLICE_END)
        {
          if (stack.len > 0)
            close_slice (profile, &reader->children, self_ns, thread, spans, first_span,
                         &stack, ts);
        }
      else if (type == EV_INSTANT)
        {
          BlPerfettoInstant instant = { ts, ev_name, thread };

          if (instant.name == G_MAXUINT32)
            {
              if (unnamed == G_MAXUINT32)
                unnamed = bl_profile_intern (profile, "(unnamed)");
              instant.name = unnamed;
            }
          g_array_append_val (trace->instants, instant);
          trace->n_instants++;
        }
    }

  /* slices still open at the end of the trace end with its last event */
  while (stack.len > 0)
    close_slice (profile, &reader->children, self_ns, thread, spans, first_span, &stack,
                 reader->max_event_ts);
  g_free (stack.open);

  if (has_slices)
    bl_profile_set_time_range (profile, thread, first, MAX (last, reader->max_event_ts));
}

static void
build_counter (Reader          *reader,
               BlPerfettoTrace *trace,
               Track           *track)
{
  BlPerfettoCounter *counter;
  double sum = 0;

  if (track->points->len == 0)
    return;

  counter = g_new0 (BlPerfettoCounter, 1);
  counter->name = track->name != NULL ? g_strdup (track->name) :
                  g_strdup_printf ("Counter %" G_GUINT64_FORMAT, track->uuid);
  counter->unit = g_strdup (track->unit != NULL ? track->unit : "");
  counter->points = g_array_sized_new (FALSE, FALSE, sizeof (BlPerfettoPoint), track->points->len);

  /* incremental counters add up in the order they were written */
  for (guint i = 0; i < track->points->len; i++)
    {
      RawPoint *p = &g_array_index (track->points, RawPoint, i);

      p->value *= (double) track->unit_multiplier;
      if (track->is_incremental)
        {
          sum += p->value;
          p->value = sum;
        }
    }
  g_array_sort (track->points, compare_points);
  for (guint i = 0; i < track->points->len; i++)
    {
      const RawPoint *p = &g_array_index (track->points, RawPoint, i);
      BlPerfettoPoint point = { p->ts, p->value };

      g_array_append_val (counter->points, point);
    }
  g_ptr_array_add (trace->counters, counter);
}

static void
counter_free (gpointer data)
{
  BlPerfettoCounter *counter = data;

  g_free (counter->name);
  g_free (counter->unit);
  g_array_unref (counter->points);
  g_free (counter);
}

static void
annotation_free (gpointer data)
{
  BlPerfettoAnnotation *annotation = data;

  g_free (annotation->text);
  g_free (annotation);
}

static void
trace_free (gpointer data)
{
  BlPerfettoTrace *trace = data;

  g_ptr_array_unref (trace->counters);
  g_array_unref (trace->instants);
  g_array_unref (trace->flows);
  g_ptr_array_unref (trace->annotations);
  g_ptr_array_unref (trace->heaps);
  g_free (trace);
}

static int
compare_instants (gconstpointer a,
                  gconstpointer b)
{
  const BlPerfettoInstant *ia = a, *ib = b;

  return ia->ts < ib->ts ? -1 : ia->ts > ib->ts;
}

/* The call tree, time order, instants, counters and flows of the tracks:
 * all but the heap graphs, so this is done while the worker, if any, is
 * still decoding them. */
static BlPerfettoTrace *
build_tracks (Reader *reader)
{
  BlPerfettoTrace *trace = g_new0 (BlPerfettoTrace, 1);
  g_autoptr (GArray) flow_steps = g_array_new (FALSE, FALSE, sizeof (FlowStep));
  g_autoptr (GHashTable) last_step = g_hash_table_new (g_direct_hash, g_direct_equal);

  trace->counters = g_ptr_array_new_with_free_func (counter_free);
  trace->instants = g_array_new (FALSE, FALSE, sizeof (BlPerfettoInstant));
  trace->flows = g_array_new (FALSE, FALSE, sizeof (BlPerfettoFlow));
  trace->annotations = g_ptr_array_new_with_free_func (annotation_free);

  for (guint i = 0; i < reader->track_list->len; i++)
    {
      Track *track = g_ptr_array_index (reader->track_list, i);

      build_track (reader, trace, track, flow_steps);
      build_counter (reader, trace, track);
      /* done with its events: the memory goes to the next tracks' spans */
      event_list_clear (&track->events);
      g_array_unref (track->points);
      track->points = g_array_new (FALSE, FALSE, sizeof (RawPoint));
    }

  g_array_sort (trace->instants, compare_instants);

  /* each flow id links the slices carrying it, in time order */
  g_array_sort (flow_steps, compare_flow_steps);
  for (guint i = 0; i < flow_steps->len; i++)
    {
      const FlowStep *step = &g_array_index (flow_steps, FlowStep, i);
      gpointer key = (gpointer) (guintptr) step->id;
      gpointer prev = g_hash_table_lookup (last_step, key);

      if (prev != NULL)
        {
          const FlowStep *from = &g_array_index (flow_steps, FlowStep, GPOINTER_TO_UINT (prev) - 1);
          BlPerfettoFlow flow = { step->id, from->thread, from->span, step->thread, step->span };

          g_array_append_val (trace->flows, flow);
        }
      if (step->terminating)
        g_hash_table_remove (last_step, key);
      else
        g_hash_table_insert (last_step, key, GUINT_TO_POINTER (i + 1));
    }

  return trace;
}

/* The rest of the trace, once the heap graphs are all decoded. */
static void
finish_trace (Reader          *reader,
              BlPerfettoTrace *trace)
{
  trace->n_packets = reader->n_packets;
  trace->n_heap_graphs = reader->n_heap_graphs;
  /* the profile owns the heap graphs; the trace lists the same ones */
  for (guint i = 0; i < reader->heaps->len; i++)
    bl_profile_add_heap (reader->profile, g_ptr_array_index (reader->heaps, i), NULL);
  g_ptr_array_set_free_func (reader->heaps, NULL);
  trace->heaps = g_ptr_array_ref (reader->heaps);
  trace->n_annotations = reader->n_annotations;
  g_object_set_data_full (G_OBJECT (reader->profile), "bl-perfetto-trace", trace, trace_free);
}

/* ---- the stream ---- */

/* Reads a varint at src->data[*pos]; returns 0 if the window ends inside
 * it, -1 if it is malformed, 1 if read. */
static int
window_varint (BlSource *src,
               gsize    *pos,
               guint64  *value)
{
  const guint8 *p = src->data + *pos;
  const guint8 *end = src->data + src->len;

  if (bl_pb_read_varint (&p, end, value))
    {
      *pos = (gsize) (p - src->data);
      return 1;
    }
  /* malformed only if the bytes present already make it too long */
  if ((gsize) (end - (src->data + *pos)) >= 10)
    return -1;
  return 0;
}

/* Ends the reading on an error of the input at @error, unless a heap
 * graph handed to the worker was malformed: then the reading had stopped
 * at its packet already, before this error, and returns TRUE with the
 * error cleared. A cancellation ends it at once (the worker drops what it
 * has). */
static gboolean
heap_stop_before (Reader  *reader,
                  GError **error)
{
  if (error != NULL && g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return FALSE;
  if (!heap_worker_sync (reader))
    return FALSE;
  g_clear_error (error);

  return TRUE;
}

static BlProfile *
read_source (BlSource  *src,
             gboolean   analyse,
             GError   **error)
{
  Reader reader = { 0 };
  BlProfile *profile = NULL;
  BlPerfettoTrace *trace = NULL;

  reader.profile = bl_profile_new ("perfetto");
  reader.tracks = g_hash_table_new (g_direct_hash, g_direct_equal);
  reader.track_list = g_ptr_array_new_with_free_func (track_free);
  reader.sequences = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, sequence_free);
  reader.global_clocks = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  reader.process_names = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  reader.annotation_texts = g_ptr_array_new_with_free_func (g_free);
  reader.extras = g_array_new (FALSE, FALSE, sizeof (EventExtra));
  reader.flow_refs = g_array_new (FALSE, FALSE, sizeof (FlowRef));
  reader.trace_clock = TRACE_CLOCK_DEFAULT;
  reader.analyse = analyse;
  reader.heaps = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_heap_free);
  reader.total = src->total;
  reader.hr = g_new0 (Reader, 1);
  reader.hr->heaps = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_heap_free);
  bl_profile_enable_metric (reader.profile, BL_METRIC_TIME_NS);

  for (;;)
    {
      gsize pos = src->pos;
      guint64 key = 0, len = 0;
      guint64 at = bl_source_offset (src, src->pos);
      int r;

      if (!bl_source_tick (src, error))
        {
          if (heap_stop_before (&reader, error))
            break;
          goto out;
        }

      /* the usual packets, one-byte key and length, whole in the window
       * and within the input's size, up to where bl_source_tick() has
       * work: read here without the general framing below, with the same
       * result */
      if (!reader.heap_pending)
        {
          const guint8 *p = src->data + src->pos;
          const guint8 *end = src->data + MAX (bl_source_tick_pos (src), src->pos);
          gsize avail = src->len;
          const guint8 *stop;

          if (src->total != 0)
            avail = src->total > src->base ? (gsize) MIN ((guint64) src->len,
                                                          src->total - src->base) : 0;
          stop = src->data + avail;
          while (p + 2 <= end && p + 2 <= stop && p[0] == (1 << 3 | BL_PB_BYTES) && p[1] < 0x80 &&
                 (gsize) (stop - p) >= 2 + (gsize) p[1] &&
                 read_usual_packet (&reader, p + 2, p[1], src->data + src->len))
            {
              reader.complete++;
              p += 2 + p[1];
            }
          if (p != src->data + src->pos)
            {
              src->pos = (gsize) (p - src->data);
              continue;
            }
        }

      if (src->pos >= src->len)
        {
          if (src->eof)
            break;
          if (!bl_source_fill (src, src->pos, error))
            {
              if (heap_stop_before (&reader, error))
                break;
              goto out;
            }
          continue;
        }

      r = window_varint (src, &pos, &key);
      if (r == 1 && (key & 7) == BL_PB_BYTES)
        r = window_varint (src, &pos, &len);
      else if (r == 1 && (key & 7) == BL_PB_VARINT)
        r = window_varint (src, &pos, &len);
      else if (r == 1 && ((key & 7) == BL_PB_FIXED64 || (key & 7) == BL_PB_FIXED32))
        len = 0;
      else if (r == 1)
        r = -1;

      if (r == 0 && !src->eof)
        {
          if (!bl_source_fill (src, src->pos, error))
            {
              if (heap_stop_before (&reader, error))
                break;
              goto out;
            }
          continue;
        }
      if (r <= 0)
        {
          g_autofree char *problem =
            g_strdup_printf (r == 0 ? _("the file ends at byte %" PRIu64 " inside a packet header")
                                    : _("the packet header at byte %" PRIu64 " is malformed"),
                             r == 0 ? bl_source_offset (src, src->len) : at);
          set_problem (&reader, problem);
          break;
        }

      if ((key & 7) != BL_PB_BYTES)
        {
          gsize skip = (key & 7) == BL_PB_FIXED64 ? 8 : (key & 7) == BL_PB_FIXED32 ? 4 : 0;

          if (src->len - pos < skip)
            {
              if (!src->eof)
                {
                  if (!bl_source_fill (src, src->pos, error))
                    {
                      if (heap_stop_before (&reader, error))
                        break;
                      goto out;
                    }
                  continue;
                }
              set_problem (&reader, _("the file ends inside a field of the trace"));
              break;
            }
          src->pos = pos + skip;
          continue;
        }

      /* a length-delimited field: bring it whole into the window */
      if (src->total != 0 && len > src->total - MIN (src->total, bl_source_offset (src, pos)))
        {
          g_autofree char *problem =
            g_strdup_printf (_("the packet at byte %" PRIu64 " needs %" PRIu64
                               " bytes but the file ends after %" PRIu64),
                             at, len, src->total - MIN (src->total, bl_source_offset (src, pos)));
          set_problem (&reader, problem);
          break;
        }
      if (len > (guint64) (src->len - pos))
        {
          if (src->eof)
            {
              g_autofree char *problem =
                g_strdup_printf (_("the file ends at byte %" PRIu64
                                   " inside the packet that starts at byte %" PRIu64),
                                 bl_source_offset (src, src->len), at);
              set_problem (&reader, problem);
              break;
            }
          if (!bl_source_fill (src, src->pos, error))
            {
              if (heap_stop_before (&reader, error))
                break;
              goto out;
            }
          continue;
        }

      if ((key >> 3) == 1)
        {
          /* with heap graphs at the worker, any other packet waits for it */
          if (reader.heap_pending &&
              !packet_is_plain_heap (&reader, src->data + pos, (gsize) len) &&
              heap_worker_sync (&reader))
            break;
          reader.packet_at = at;
          if (!read_packet (&reader, src->data + pos, (gsize) len, TRUE))
            {
              g_autofree char *problem =
                g_strdup_printf (_("the packet at byte %" PRIu64 " is malformed: %s"),
                                 at, reader.problem);
              g_free (reader.problem);
              reader.problem = g_steal_pointer (&problem);
              break;
            }
          reader.complete++;
        }
      src->pos = pos + (gsize) len;
    }

  /* the tracks while the worker decodes its last heap graphs; if one of
   * them turns out malformed, the reading stopped at its packet, which
   * changes nothing of the tracks */
  if (reader.worker != NULL)
    heap_worker_flush (reader.worker);
  if (reader.complete > 0 && reader.worker != NULL)
    trace = build_tracks (&reader);
  heap_worker_sync (&reader);
  heap_worker_stop (&reader);
  reader.n_heap_graphs = reader.hr->n_heap_graphs;

  if (reader.complete == 0 && reader.problem != NULL)
    {
      g_set_error (error, BL_PERFETTO_ERROR, BL_PERFETTO_ERROR_MALFORMED,
                   _("Not a readable Perfetto trace: %s."), reader.problem);
      goto out;
    }
  if (reader.complete == 0)
    {
      g_set_error_literal (error, BL_PERFETTO_ERROR, BL_PERFETTO_ERROR_NOT_A_TRACE,
                           _("Not a Perfetto trace: the file holds no trace packet."));
      goto out;
    }

  /* a dump whose last part never came: analyse what arrived */
  {
    GHashTableIter iter;
    gpointer value;

    g_hash_table_iter_init (&iter, reader.sequences);
    while (g_hash_table_iter_next (&iter, NULL, &value))
      {
        Sequence *seq = value;

        if (seq->heap == NULL)
          continue;
        heap_dump_finish (reader.hr, seq->heap);
        heap_dump_free (seq->heap);
        seq->heap = NULL;
        bl_profile_add_warning (reader.profile,
                                _("A heap graph is continued past the end of the trace; "
                                  "the objects that arrived are shown."));
      }
  }
  /* the heap graphs are this thread's again */
  g_ptr_array_unref (reader.heaps);
  reader.heaps = g_steal_pointer (&reader.hr->heaps);
  reader.heap_warning = g_steal_pointer (&reader.hr->heap_warning);
  reader.n_heaps_finished = reader.hr->n_heaps_finished;
  if (reader.heap_warning != NULL)
    bl_profile_add_warning (reader.profile, reader.heap_warning);
  if (reader.n_skipped_packets > 0)
    {
      g_autofree char *warning =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%" PRIu64 " packet needs the state of a sequence that "
                                      "was never set up or lost packets; it is left out, as "
                                      "Perfetto leaves it out.",
                                      "%" PRIu64 " packets need the state of a sequence that "
                                      "was never set up or lost packets; they are left out, as "
                                      "Perfetto leaves them out.",
                                      reader.n_skipped_packets),
                         reader.n_skipped_packets);
      bl_profile_add_warning (reader.profile, warning);
    }
  if (reader.n_skipped_events > 0)
    {
      g_autofree char *warning =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%" PRIu64 " event has a time relative to a thread "
                                      "descriptor that did not come first; it is left out.",
                                      "%" PRIu64 " events have a time relative to a thread "
                                      "descriptor that did not come first; they are left out.",
                                      reader.n_skipped_events),
                         reader.n_skipped_events);
      bl_profile_add_warning (reader.profile, warning);
    }
  if (reader.n_untimed_events > 0)
    {
      g_autofree char *warning =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%" PRIu64 " track event has no timestamp; it is left "
                                      "out, as Perfetto leaves it out.",
                                      "%" PRIu64 " track events have no timestamp; they are "
                                      "left out, as Perfetto leaves them out.",
                                      reader.n_untimed_events),
                         reader.n_untimed_events);
      bl_profile_add_warning (reader.profile, warning);
    }
  if (trace == NULL)
    trace = build_tracks (&reader);
  finish_trace (&reader, g_steal_pointer (&trace));
  /* of the child lookup only the outermost nodes are still needed */
  g_clear_pointer (&reader.children.n_children, g_free);
  g_clear_pointer (&reader.children.slots, g_free);
  g_clear_pointer (&reader.children.on_stack, g_free);
  g_clear_pointer (&reader.children.cached, g_free);
  if (reader.analyse)
    for (guint i = reader.n_heaps_finished; i < reader.heaps->len; i++)
      bl_heap_finish (g_ptr_array_index (reader.heaps, i));
  if (reader.problem != NULL)
    {
      g_autofree char *reason =
        g_strdup_printf (_("The trace is incomplete: %s; the %" PRIu64
                           " complete packets before it are shown."),
                         reader.problem, reader.complete);
      bl_profile_set_incomplete (reader.profile, reason);
    }
  /* the outermost nodes known from building: no walk of the tree */
  if (reader.children.cap < bl_profile_get_n_nodes (reader.profile))
    child_index_grow (&reader.children, bl_profile_get_n_nodes (reader.profile));
  _bl_profile_finish_from (reader.profile, NULL, 0, reader.children.outermost, NULL);
  child_index_clear (&reader.children);
  profile = g_steal_pointer (&reader.profile);

out:
  heap_worker_stop (&reader);
  g_clear_pointer (&trace, trace_free);
  g_clear_object (&reader.profile);
  g_hash_table_unref (reader.tracks);
  g_ptr_array_unref (reader.track_list);
  g_hash_table_unref (reader.sequences);
  g_hash_table_unref (reader.global_clocks);
  g_hash_table_unref (reader.process_names);
  g_ptr_array_unref (reader.annotation_texts);
  g_array_unref (reader.extras);
  g_array_unref (reader.flow_refs);
  g_ptr_array_unref (reader.heaps);
  g_free (reader.heap_warning);
  g_free (reader.problem);
  child_index_clear (&reader.children);
  g_clear_pointer (&reader.hr->heaps, g_ptr_array_unref);
  g_free (reader.hr->heap_warning);
  g_free (reader.hr->problem);
  g_free (reader.hr);

  return profile;
}

/**
 * bl_perfetto_detect:
 *
 * A Perfetto trace starts with a TracePacket (field 1, length-delimited)
 * whose bytes, as far as @head holds them, parse as a message; every other
 * packet wholly inside @head must parse too.
 */
gboolean
bl_perfetto_detect (const guint8 *head,
                    gsize         len,
                    gboolean      is_whole_file)
{
  BlPbCursor c;
  guint n = 0;

  bl_pb_cursor_init (&c, head, len);
  while (c.p < c.end)
    {
      const guint8 *start = c.p;
      guint64 key = 0, plen = 0;
      BlPbCursor packet;
      BlPbField f;
      BlPbStatus status;
      guint n_fields = 0;

      /* after a whole packet, what follows may be cut short (the reader
       * then says where the trace is incomplete) */
      if (!bl_pb_read_varint (&c.p, c.end, &key) || key != 0x0a)
        return n > 0 && (gsize) (c.end - start) < 16;
      if (!bl_pb_read_varint (&c.p, c.end, &plen))
        return n > 0;

      if (plen > (guint64) (c.end - c.p))
        {
          /* the packet runs past the buffer: its fields so far must parse */
          if (is_whole_file && n > 0)
            return TRUE;
          bl_pb_cursor_init (&packet, c.p, c.end - c.p);
          while ((status = bl_pb_next (&packet, &f)) == BL_PB_FIELD)
            n_fields++;
          if (n_fields > 0 || n > 0)
            return TRUE;
          /* the first field itself is cut: its key must be valid */
          return bl_pb_read_varint (&packet.p, packet.end, &key) &&
                 (key >> 3) != 0 && (key & 7) != 3 && (key & 7) != 4 && (key & 7) < 6;
        }

      bl_pb_cursor_init (&packet, c.p, (gsize) plen);
      while ((status = bl_pb_next (&packet, &f)) == BL_PB_FIELD)
        n_fields++;
      if (status != BL_PB_END)
        return FALSE;
      if (n == 0 && n_fields == 0)
        return FALSE;
      c.p += plen;
      n++;
    }

  return n > 0;
}

BlProfile *
bl_perfetto_read_stream_full (GInputStream    *stream,
                              guint64          total,
                              gboolean         analyse,
                              BlProgressFunc   progress,
                              gpointer         progress_data,
                              GCancellable    *cancellable,
                              GError         **error)
{
  BlSource src;
  BlProfile *profile = NULL;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);

  bl_source_init_stream (&src, stream, total, cancellable, progress, progress_data);
  if (bl_source_fill (&src, 0, error))
    profile = read_source (&src, analyse, error);
  if (profile != NULL && progress != NULL)
    progress (bl_source_offset (&src, src.len), total, progress_data);
  bl_source_clear (&src);

  return profile;
}

/**
 * bl_perfetto_read_stream:
 *
 * Returns: (transfer full): the profile, or %NULL with @error set
 */
BlProfile *
bl_perfetto_read_stream (GInputStream    *stream,
                         guint64          total,
                         BlProgressFunc   progress,
                         gpointer         progress_data,
                         GCancellable    *cancellable,
                         GError         **error)
{
  return bl_perfetto_read_stream_full (stream, total, TRUE, progress, progress_data,
                                       cancellable, error);
}

/**
 * bl_perfetto_read_memory:
 *
 * Returns: (transfer full): the profile, or %NULL with @error set
 */
BlProfile *
bl_perfetto_read_memory (const guint8  *data,
                         gsize          len,
                         GError       **error)
{
  BlSource src;
  BlProfile *profile;

  bl_source_init_memory (&src, data, len);
  profile = read_source (&src, TRUE, error);
  bl_source_clear (&src);

  return profile;
}

/**
 * bl_perfetto_get_trace:
 *
 * Returns: (nullable): what the trace holds besides the call tree, or
 *   %NULL if @profile was not read from a Perfetto trace
 */
const BlPerfettoTrace *
bl_perfetto_get_trace (BlProfile *profile)
{
  g_return_val_if_fail (BL_IS_PROFILE (profile), NULL);

  return g_object_get_data (G_OBJECT (profile), "bl-perfetto-trace");
}
