/* bl-session.c — a Roku Resource Monitor session
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-session"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "bl-session.h"

typedef struct
{
  gint64 timestamp_ms;
  guint  first;
  guint  n;
} DetailPoint;

struct _BlSession
{
  GObject           parent_instance;

  BlSessionInfo     info;
  GStringChunk     *strings;
  GHashTable       *interned;

  GArray           *series[BL_N_SERIES];     /* BlSample */
  GArray           *beacons;                 /* BlBeacon */
  GArray           *intervals;               /* BlInterval */

  GArray           *points[BL_N_DETAILS];    /* DetailPoint */
  GArray           *bitmaps;                 /* BlBitmap */
  GArray           *node_types;              /* BlNodeType */
  GArray           *rendezvous_items;        /* BlRendezvousItem */
  GArray           *registry_sections;       /* BlRegistrySection */
  GArray           *registry_section_first;  /* guint: first key of each section */
  GArray           *registry_keys;           /* const char * */
  GArray           *bs_groups;               /* BlBsGroup */
  GArray           *bs_group_first;          /* guint: first object of each group */
  GArray           *bs_objects;              /* BlBsObject */

  BlSessionSummary  summary;
  char             *incomplete_reason;
  GString          *warnings;
  gboolean          finished;
};

G_DEFINE_FINAL_TYPE (BlSession, bl_session, G_TYPE_OBJECT)

static const BlSeriesInfo series_info[BL_N_SERIES] = {
  { BL_SERIES_MEMORY_USED, "memory_used", N_("Memory used"),
    BL_SERIES_UNIT_BYTES, BL_SERIES_GROUP_MEMORY },
  { BL_SERIES_MEMORY_RESIDENT, "memory_resident", N_("Resident memory"),
    BL_SERIES_UNIT_BYTES, BL_SERIES_GROUP_MEMORY },
  { BL_SERIES_MEMORY_SWAP, "memory_swap", N_("Swap"),
    BL_SERIES_UNIT_BYTES, BL_SERIES_GROUP_MEMORY },
  { BL_SERIES_MEMORY_ANON, "memory_anon", N_("Anonymous memory"),
    BL_SERIES_UNIT_BYTES, BL_SERIES_GROUP_MEMORY },
  { BL_SERIES_MEMORY_FILE, "memory_file", N_("File-backed memory"),
    BL_SERIES_UNIT_BYTES, BL_SERIES_GROUP_MEMORY },
  { BL_SERIES_MEMORY_SHARED, "memory_shared", N_("Shared memory"),
    BL_SERIES_UNIT_BYTES, BL_SERIES_GROUP_MEMORY },
  { BL_SERIES_CPU_TOTAL, "cpu_total", N_("CPU total"),
    BL_SERIES_UNIT_PERCENT, BL_SERIES_GROUP_CPU },
  { BL_SERIES_CPU_USER, "cpu_user", N_("CPU user"),
    BL_SERIES_UNIT_PERCENT, BL_SERIES_GROUP_CPU },
  { BL_SERIES_CPU_SYS, "cpu_sys", N_("CPU system"),
    BL_SERIES_UNIT_PERCENT, BL_SERIES_GROUP_CPU },
  { BL_SERIES_GRAPHICS_TEXTURE, "graphics_texture", N_("Texture memory"),
    BL_SERIES_UNIT_BYTES, BL_SERIES_GROUP_GRAPHICS },
  { BL_SERIES_GRAPHICS_SYSTEM, "graphics_system", N_("Graphics system memory"),
    BL_SERIES_UNIT_BYTES, BL_SERIES_GROUP_GRAPHICS },
  { BL_SERIES_NODES_TOTAL, "nodes_total", N_("SceneGraph nodes"),
    BL_SERIES_UNIT_COUNT, BL_SERIES_GROUP_NODES },
  { BL_SERIES_NODES_MEMORY, "nodes_memory", N_("SceneGraph node memory"),
    BL_SERIES_UNIT_BYTES, BL_SERIES_GROUP_NODES },
  { BL_SERIES_FPS, "fps", N_("Frame rate"),
    BL_SERIES_UNIT_FPS, BL_SERIES_GROUP_FPS },
  { BL_SERIES_RENDEZVOUS_COUNT, "rendezvous_count", N_("Rendezvous"),
    BL_SERIES_UNIT_COUNT, BL_SERIES_GROUP_RENDEZVOUS },
  { BL_SERIES_RENDEZVOUS_TOTAL_TIME, "rendezvous_total_time", N_("Rendezvous time"),
    BL_SERIES_UNIT_MS, BL_SERIES_GROUP_RENDEZVOUS },
  { BL_SERIES_RENDEZVOUS_DROPS, "rendezvous_drops", N_("Dropped rendezvous"),
    BL_SERIES_UNIT_COUNT, BL_SERIES_GROUP_RENDEZVOUS },
  { BL_SERIES_REGISTRY_USED, "registry_used", N_("Registry used"),
    BL_SERIES_UNIT_BYTES, BL_SERIES_GROUP_REGISTRY },
  { BL_SERIES_BS_OBJECTS_COUNT, "bs_objects_count", N_("BrightScript objects"),
    BL_SERIES_UNIT_COUNT, BL_SERIES_GROUP_BS_OBJECTS },
  { BL_SERIES_BS_OBJECTS_MEMORY, "bs_objects_memory", N_("BrightScript object memory"),
    BL_SERIES_UNIT_BYTES, BL_SERIES_GROUP_BS_OBJECTS },
};

static const char *group_names[BL_N_SERIES_GROUPS] = {
  N_("Memory"),
  N_("CPU"),
  N_("Graphics memory"),
  N_("SceneGraph nodes"),
  N_("Frame rate"),
  N_("Rendezvous"),
  N_("Registry"),
  N_("BrightScript objects"),
};

/* ---- the series table ---------------------------------------------------- */

const BlSeriesInfo *
bl_series_get_info (BlSeriesId id)
{
  g_return_val_if_fail (id >= 0 && id < BL_N_SERIES, NULL);

  return &series_info[id];
}

BlSeriesId
bl_series_from_name (const char *name)
{
  for (guint i = 0; i < BL_N_SERIES; i++)
    if (g_strcmp0 (series_info[i].name, name) == 0)
      return i;

  return BL_SERIES_INVALID;
}

const char *
bl_series_group_get_display_name (BlSeriesGroup group)
{
  g_return_val_if_fail (group < BL_N_SERIES_GROUPS, NULL);

  return g_dgettext (GETTEXT_PACKAGE, group_names[group]);
}

/**
 * bl_series_format_value:
 *
 * Returns: (transfer full): @value with the series' unit, for display
 */
char *
bl_series_format_value (BlSeriesId id,
                        double     value)
{
  g_return_val_if_fail (id >= 0 && id < BL_N_SERIES, NULL);

  if (isnan (value))
    return g_strdup ("—");

  switch (series_info[id].unit)
    {
    case BL_SERIES_UNIT_BYTES:
      if (fabs (value) >= 1024.0 * 1024.0)
        return g_strdup_printf (_("%.1f MiB"), value / (1024.0 * 1024.0));
      if (fabs (value) >= 1024.0)
        return g_strdup_printf (_("%.1f KiB"), value / 1024.0);
      return g_strdup_printf (_("%.0f B"), value);
    case BL_SERIES_UNIT_PERCENT:
      return g_strdup_printf (_("%.1f %%"), value);
    case BL_SERIES_UNIT_FPS:
      return g_strdup_printf (_("%.1f fps"), value);
    case BL_SERIES_UNIT_MS:
      return g_strdup_printf (_("%.0f ms"), value);
    case BL_SERIES_UNIT_COUNT:
    default:
      if (value == floor (value))
        return g_strdup_printf ("%.0f", value);
      return g_strdup_printf ("%.1f", value);
    }
}

static guint
lower_bound (const BlSample *samples,
             guint           n,
             gint64          t_ms)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (samples[mid].timestamp_ms < t_ms)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * bl_series_compute_stats:
 *
 * Min, max, mean, first and last value, change and least-squares slope per
 * minute of the present samples with from_ms ≤ timestamp ≤ to_ms.
 */
void
bl_series_compute_stats (const BlSample *samples,
                         guint           n,
                         gint64          from_ms,
                         gint64          to_ms,
                         BlRangeStats   *stats)
{
  guint first = lower_bound (samples, n, from_ms);
  double sum = 0, sum_t = 0;
  gint64 t0 = 0;
  gboolean have_t0 = FALSE;
  double sxx = 0, sxy = 0, mean_t;

  g_return_if_fail (stats != NULL);

  stats->n = 0;
  stats->min = stats->max = stats->mean = NAN;
  stats->start = stats->end = stats->change = stats->growth_per_min = NAN;

  for (guint i = first; i < n && samples[i].timestamp_ms <= to_ms; i++)
    {
      const BlSample *s = &samples[i];

      if (!s->present)
        continue;
      if (!have_t0)
        {
          t0 = s->timestamp_ms;
          have_t0 = TRUE;
          stats->min = stats->max = stats->start = s->value;
        }
      stats->min = MIN (stats->min, s->value);
      stats->max = MAX (stats->max, s->value);
      stats->end = s->value;
      sum += s->value;
      sum_t += (double) (s->timestamp_ms - t0) / 60000.0;
      stats->n++;
    }

  if (stats->n == 0)
    return;

  stats->mean = sum / stats->n;
  stats->change = stats->end - stats->start;
  mean_t = sum_t / stats->n;

  for (guint i = first; i < n && samples[i].timestamp_ms <= to_ms; i++)
    {
      const BlSample *s = &samples[i];
      double x;

      if (!s->present)
        continue;
      x = (double) (s->timestamp_ms - t0) / 60000.0 - mean_t;
      sxx += x * x;
      sxy += x * (s->value - stats->mean);
    }

  if (stats->n >= 2 && sxx > 0)
    stats->growth_per_min = sxy / sxx;
}

gint
bl_series_find_nearest (const BlSample *samples,
                        guint           n,
                        gint64          t_ms)
{
  guint at = lower_bound (samples, n, t_ms);
  gint before = -1, after = -1;

  for (gint i = (gint) at - 1; i >= 0; i--)
    if (samples[i].present)
      {
        before = i;
        break;
      }
  for (guint i = at; i < n; i++)
    if (samples[i].present)
      {
        after = i;
        break;
      }

  if (before < 0)
    return after;
  if (after < 0)
    return before;

  return t_ms - samples[before].timestamp_ms <= samples[after].timestamp_ms - t_ms
         ? before : after;
}

/* ---- the object ------------------------------------------------------------ */

static void
bl_session_finalize (GObject *object)
{
  BlSession *self = BL_SESSION (object);

  g_free (self->info.device_name);
  g_free (self->info.model_number);
  g_free (self->info.serial_number);
  g_free (self->info.software_version);
  g_free (self->info.channel_id);
  g_free (self->info.channel_name);
  g_free (self->info.channel_version);
  g_free (self->info.uuid);
  g_free (self->info.file_version);

  for (guint i = 0; i < BL_N_SERIES; i++)
    g_array_unref (self->series[i]);
  for (guint i = 0; i < BL_N_DETAILS; i++)
    g_array_unref (self->points[i]);
  g_array_unref (self->beacons);
  g_array_unref (self->intervals);
  g_array_unref (self->bitmaps);
  g_array_unref (self->node_types);
  g_array_unref (self->rendezvous_items);
  g_array_unref (self->registry_sections);
  g_array_unref (self->registry_section_first);
  g_array_unref (self->registry_keys);
  g_array_unref (self->bs_groups);
  g_array_unref (self->bs_group_first);
  g_array_unref (self->bs_objects);

  g_hash_table_unref (self->interned);
  g_string_chunk_free (self->strings);
  g_free (self->incomplete_reason);
  if (self->warnings != NULL)
    g_string_free (self->warnings, TRUE);

  G_OBJECT_CLASS (bl_session_parent_class)->finalize (object);
}

static void
bl_session_class_init (BlSessionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = bl_session_finalize;
}

static void
bl_session_init (BlSession *self)
{
  for (guint i = 0; i < BL_N_SERIES; i++)
    self->series[i] = g_array_new (FALSE, FALSE, sizeof (BlSample));
  for (guint i = 0; i < BL_N_DETAILS; i++)
    self->points[i] = g_array_new (FALSE, FALSE, sizeof (DetailPoint));
  self->beacons = g_array_new (FALSE, FALSE, sizeof (BlBeacon));
  self->intervals = g_array_new (FALSE, FALSE, sizeof (BlInterval));
  self->bitmaps = g_array_new (FALSE, FALSE, sizeof (BlBitmap));
  self->node_types = g_array_new (FALSE, FALSE, sizeof (BlNodeType));
  self->rendezvous_items = g_array_new (FALSE, FALSE, sizeof (BlRendezvousItem));
  self->registry_sections = g_array_new (FALSE, FALSE, sizeof (BlRegistrySection));
  self->registry_section_first = g_array_new (FALSE, FALSE, sizeof (guint));
  self->registry_keys = g_array_new (FALSE, FALSE, sizeof (const char *));
  self->bs_groups = g_array_new (FALSE, FALSE, sizeof (BlBsGroup));
  self->bs_group_first = g_array_new (FALSE, FALSE, sizeof (guint));
  self->bs_objects = g_array_new (FALSE, FALSE, sizeof (BlBsObject));

  self->strings = g_string_chunk_new (64 * 1024);
  self->interned = g_hash_table_new (g_str_hash, g_str_equal);

  self->info.software_build = -1;
}

/* ---- building ---------------------------------------------------------------- */

BlSession *
bl_session_new (void)
{
  return g_object_new (BL_TYPE_SESSION, NULL);
}

BlSessionInfo *
bl_session_get_info_mutable (BlSession *self)
{
  g_return_val_if_fail (BL_IS_SESSION (self), NULL);
  g_return_val_if_fail (!self->finished, NULL);

  return &self->info;
}

/**
 * bl_session_intern:
 *
 * Returns: a copy of @text that lives as long as the session ("" for %NULL)
 */
const char *
bl_session_intern (BlSession  *self,
                   const char *text)
{
  const char *found;

  g_return_val_if_fail (BL_IS_SESSION (self), NULL);

  if (text == NULL)
    text = "";

  found = g_hash_table_lookup (self->interned, text);
  if (found == NULL)
    {
      found = g_string_chunk_insert (self->strings, text);
      g_hash_table_add (self->interned, (gpointer) found);
    }

  return found;
}

void
bl_session_add_sample (BlSession *self,
                       BlSeriesId id,
                       gint64     timestamp_ms,
                       double     value,
                       gboolean   present)
{
  BlSample sample = { timestamp_ms, present ? value : 0.0, present && isfinite (value) };

  g_return_if_fail (BL_IS_SESSION (self));
  g_return_if_fail (id >= 0 && id < BL_N_SERIES);
  g_return_if_fail (!self->finished);

  g_array_append_val (self->series[id], sample);
}

void
bl_session_add_beacon (BlSession  *self,
                       gint64      timestamp_ms,
                       const char *name)
{
  BlBeacon beacon;

  g_return_if_fail (BL_IS_SESSION (self));
  g_return_if_fail (!self->finished);

  beacon.timestamp_ms = timestamp_ms;
  beacon.name = bl_session_intern (self, name);
  g_array_append_val (self->beacons, beacon);
}

void
bl_session_begin_detail (BlSession    *self,
                         BlDetailKind  kind,
                         gint64        timestamp_ms)
{
  DetailPoint point = { timestamp_ms, 0, 0 };

  g_return_if_fail (BL_IS_SESSION (self));
  g_return_if_fail (kind < BL_N_DETAILS);
  g_return_if_fail (!self->finished);

  switch (kind)
    {
    case BL_DETAIL_BITMAPS:
      point.first = self->bitmaps->len;
      break;
    case BL_DETAIL_NODES:
      point.first = self->node_types->len;
      break;
    case BL_DETAIL_RENDEZVOUS:
      point.first = self->rendezvous_items->len;
      break;
    case BL_DETAIL_REGISTRY:
      point.first = self->registry_sections->len;
      break;
    case BL_DETAIL_BS_OBJECTS:
      point.first = self->bs_groups->len;
      break;
    case BL_N_DETAILS:
    default:
      g_assert_not_reached ();
    }

  g_array_append_val (self->points[kind], point);
}

static gboolean
bump_point (BlSession    *self,
            BlDetailKind  kind)
{
  GArray *points = self->points[kind];

  if (points->len == 0)
    {
      g_critical ("bl_session_begin_detail() was not called before adding a detail");
      return FALSE;
    }
  g_array_index (points, DetailPoint, points->len - 1).n++;
  return TRUE;
}

void
bl_session_add_bitmap (BlSession      *self,
                       const BlBitmap *bitmap)
{
  BlBitmap copy;

  g_return_if_fail (BL_IS_SESSION (self));
  g_return_if_fail (!self->finished);

  if (!bump_point (self, BL_DETAIL_BITMAPS))
    return;
  copy = *bitmap;
  copy.name = bl_session_intern (self, bitmap->name);
  g_array_append_val (self->bitmaps, copy);
}

void
bl_session_add_node_type (BlSession        *self,
                          const BlNodeType *node_type)
{
  BlNodeType copy;

  g_return_if_fail (BL_IS_SESSION (self));
  g_return_if_fail (!self->finished);

  if (!bump_point (self, BL_DETAIL_NODES))
    return;
  copy = *node_type;
  copy.name = bl_session_intern (self, node_type->name);
  g_array_append_val (self->node_types, copy);
}

void
bl_session_add_rendezvous_item (BlSession              *self,
                                const BlRendezvousItem *item)
{
  BlRendezvousItem copy;

  g_return_if_fail (BL_IS_SESSION (self));
  g_return_if_fail (!self->finished);

  if (!bump_point (self, BL_DETAIL_RENDEZVOUS))
    return;
  copy = *item;
  copy.name = bl_session_intern (self, item->name);
  g_array_append_val (self->rendezvous_items, copy);
}

void
bl_session_add_registry_section (BlSession  *self,
                                 const char *name)
{
  BlRegistrySection section = { NULL, 0, NULL };
  guint first;

  g_return_if_fail (BL_IS_SESSION (self));
  g_return_if_fail (!self->finished);

  if (!bump_point (self, BL_DETAIL_REGISTRY))
    return;
  section.name = bl_session_intern (self, name);
  first = self->registry_keys->len;
  g_array_append_val (self->registry_sections, section);
  g_array_append_val (self->registry_section_first, first);
}

void
bl_session_add_registry_key (BlSession  *self,
                             const char *key)
{
  const char *interned;

  g_return_if_fail (BL_IS_SESSION (self));
  g_return_if_fail (!self->finished);

  if (self->registry_sections->len == 0)
    {
      g_critical ("bl_session_add_registry_section() was not called before adding a key");
      return;
    }
  interned = bl_session_intern (self, key);
  g_array_append_val (self->registry_keys, interned);
  g_array_index (self->registry_sections, BlRegistrySection,
                 self->registry_sections->len - 1).n_keys++;
}

void
bl_session_add_bs_group (BlSession  *self,
                         const char *name,
                         const char *id,
                         gint64      count,
                         gint64      memory)
{
  BlBsGroup group = { NULL, NULL, count, memory, 0, NULL };
  guint first;

  g_return_if_fail (BL_IS_SESSION (self));
  g_return_if_fail (!self->finished);

  if (!bump_point (self, BL_DETAIL_BS_OBJECTS))
    return;
  group.name = bl_session_intern (self, name);
  group.id = bl_session_intern (self, id);
  first = self->bs_objects->len;
  g_array_append_val (self->bs_groups, group);
  g_array_append_val (self->bs_group_first, first);
}

void
bl_session_add_bs_object (BlSession        *self,
                          const BlBsObject *object)
{
  BlBsObject copy;

  g_return_if_fail (BL_IS_SESSION (self));
  g_return_if_fail (!self->finished);

  if (self->bs_groups->len == 0)
    {
      g_critical ("bl_session_add_bs_group() was not called before adding an object");
      return;
    }
  copy = *object;
  copy.name = bl_session_intern (self, object->name);
  g_array_append_val (self->bs_objects, copy);
  g_array_index (self->bs_groups, BlBsGroup, self->bs_groups->len - 1).n_objects++;
}

void
bl_session_set_incomplete (BlSession  *self,
                           const char *reason)
{
  g_return_if_fail (BL_IS_SESSION (self));
  g_return_if_fail (!self->finished);

  g_free (self->incomplete_reason);
  self->incomplete_reason = g_strdup (reason ? reason : "");
  bl_session_add_warning (self, reason);
}

void
bl_session_add_warning (BlSession  *self,
                        const char *warning)
{
  g_return_if_fail (BL_IS_SESSION (self));

  if (warning == NULL || *warning == '\0')
    return;
  if (self->warnings == NULL)
    self->warnings = g_string_new (warning);
  else
    {
      g_string_append_c (self->warnings, '\n');
      g_string_append (self->warnings, warning);
    }
}

/* ---- finishing ---------------------------------------------------------- */

static gint
compare_samples (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  gint64 ta = ((const BlSample *) a)->timestamp_ms;
  gint64 tb = ((const BlSample *) b)->timestamp_ms;

  return ta < tb ? -1 : ta > tb;
}

static gint
compare_beacons (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  gint64 ta = ((const BlBeacon *) a)->timestamp_ms;
  gint64 tb = ((const BlBeacon *) b)->timestamp_ms;

  return ta < tb ? -1 : ta > tb;
}

static gint
compare_points (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  gint64 ta = ((const DetailPoint *) a)->timestamp_ms;
  gint64 tb = ((const DetailPoint *) b)->timestamp_ms;

  return ta < tb ? -1 : ta > tb;
}

/* g_qsort_with_data() is a stable merge sort: equal times keep file order. */
static void
sort_array (GArray           *array,
            gsize             offset_of_time,
            GCompareDataFunc  compare)
{
  gboolean sorted = TRUE;
  guint size = g_array_get_element_size (array);

  for (guint i = 1; i < array->len && sorted; i++)
    {
      gint64 a, b;

      memcpy (&a, array->data + (i - 1) * size + offset_of_time, sizeof a);
      memcpy (&b, array->data + i * size + offset_of_time, sizeof b);
      if (b < a)
        sorted = FALSE;
    }

  if (!sorted)
    g_qsort_with_data (array->data, array->len, size, compare, NULL);
}

/* Timestamps are Unix milliseconds. Outside the years 1 to 9999 (what
 * GDateTime can show) a timestamp is garbage: ±2^63 from an overflowing
 * number, 1e400. A timestamp more than a day away from every other one of
 * the session is an outlier (a 0 among real times): only the largest run
 * of times without such a gap is kept. */
#define VALID_MIN_MS    G_GINT64_CONSTANT (-62135596800000)
#define VALID_MAX_MS    G_GINT64_CONSTANT (253402300799999)
#define OUTLIER_GAP_MS  G_GINT64_CONSTANT (86400000)

static gint
compare_times (gconstpointer a,
               gconstpointer b)
{
  gint64 ta = *(const gint64 *) a;
  gint64 tb = *(const gint64 *) b;

  return ta < tb ? -1 : ta > tb;
}

/* Appends the first and last time of a sorted array to @ends. */
static void
add_ends (GArray *array,
          gsize   offset_of_time,
          GArray *ends)
{
  guint size = g_array_get_element_size (array);
  gint64 t;

  if (array->len == 0)
    return;
  memcpy (&t, array->data + offset_of_time, sizeof t);
  g_array_append_val (ends, t);
  memcpy (&t, array->data + (gsize) (array->len - 1) * size + offset_of_time, sizeof t);
  g_array_append_val (ends, t);
}

static void
add_times (GArray *array,
           gsize   offset_of_time,
           GArray *times)
{
  guint size = g_array_get_element_size (array);

  for (guint i = 0; i < array->len; i++)
    {
      gint64 t;

      memcpy (&t, array->data + (gsize) i * size + offset_of_time, sizeof t);
      g_array_append_val (times, t);
    }
}

/* Removes the elements of a sorted array outside [lo, hi]; their times go
 * into @dropped. */
static void
keep_between (GArray     *array,
              gsize       offset_of_time,
              gint64      lo,
              gint64      hi,
              GHashTable *dropped)
{
  guint size = g_array_get_element_size (array);
  guint out = 0;

  for (guint i = 0; i < array->len; i++)
    {
      gint64 t;

      memcpy (&t, array->data + (gsize) i * size + offset_of_time, sizeof t);
      if (t < lo || t > hi)
        {
          g_hash_table_add (dropped, g_memdup2 (&t, sizeof t));
          continue;
        }
      if (out != i)
        memcpy (array->data + (gsize) out * size, array->data + (gsize) i * size, size);
      out++;
    }
  g_array_set_size (array, out);
}

/* After sorting: drops data at absurd and outlying timestamps, with a
 * warning. */
static void
drop_outlying_times (BlSession *self)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GHashTable) dropped = NULL;
  gint64 lo = 0, hi = -1, best_lo = 0, best_hi = -1;
  guint run = 0, best_run = 0;
  gint64 min, max;

  /* the usual case: every time valid and the whole session within a day */
  for (guint i = 0; i < BL_N_SERIES; i++)
    add_ends (self->series[i], G_STRUCT_OFFSET (BlSample, timestamp_ms), times);
  add_ends (self->beacons, G_STRUCT_OFFSET (BlBeacon, timestamp_ms), times);
  for (guint i = 0; i < BL_N_DETAILS; i++)
    add_ends (self->points[i], G_STRUCT_OFFSET (DetailPoint, timestamp_ms), times);
  if (times->len == 0)
    return;
  min = max = g_array_index (times, gint64, 0);
  for (guint i = 1; i < times->len; i++)
    {
      min = MIN (min, g_array_index (times, gint64, i));
      max = MAX (max, g_array_index (times, gint64, i));
    }
  if (min >= VALID_MIN_MS && max <= VALID_MAX_MS && max - min <= OUTLIER_GAP_MS)
    return;

  g_array_set_size (times, 0);
  for (guint i = 0; i < BL_N_SERIES; i++)
    add_times (self->series[i], G_STRUCT_OFFSET (BlSample, timestamp_ms), times);
  add_times (self->beacons, G_STRUCT_OFFSET (BlBeacon, timestamp_ms), times);
  for (guint i = 0; i < BL_N_DETAILS; i++)
    add_times (self->points[i], G_STRUCT_OFFSET (DetailPoint, timestamp_ms), times);
  g_array_sort (times, compare_times);

  /* the valid run of times with the most data, no gap over a day inside */
  for (guint i = 0; i < times->len; i++)
    {
      gint64 t = g_array_index (times, gint64, i);

      if (t < VALID_MIN_MS || t > VALID_MAX_MS)
        continue;
      if (run == 0 || t - hi > OUTLIER_GAP_MS)
        {
          lo = t;
          run = 0;
        }
      hi = t;
      run++;
      if (run > best_run)
        {
          best_run = run;
          best_lo = lo;
          best_hi = hi;
        }
    }

  dropped = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = 0; i < BL_N_SERIES; i++)
    keep_between (self->series[i], G_STRUCT_OFFSET (BlSample, timestamp_ms), best_lo, best_hi,
                  dropped);
  keep_between (self->beacons, G_STRUCT_OFFSET (BlBeacon, timestamp_ms), best_lo, best_hi,
                dropped);
  for (guint i = 0; i < BL_N_DETAILS; i++)
    keep_between (self->points[i], G_STRUCT_OFFSET (DetailPoint, timestamp_ms), best_lo,
                  best_hi, dropped);

  if (g_hash_table_size (dropped) > 0)
    {
      guint n = g_hash_table_size (dropped);
      g_autofree char *warning =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "The data at %u timestamp was dropped: it lies outside "
                                      "the years 1 to 9999 or more than a day away from the "
                                      "rest of the session.",
                                      "The data at %u timestamps was dropped: they lie outside "
                                      "the years 1 to 9999 or more than a day away from the "
                                      "rest of the session.", n), n);

      bl_session_add_warning (self, warning);
    }
}

/* "App_Load_Initiate", "appLoadInitiate" and "app load initiate" all become
 * "apploadinitiate". */
static char *
normalize_name (const char *name)
{
  GString *out = g_string_new (NULL);

  for (const char *p = name; *p; p++)
    if (g_ascii_isalnum (*p))
      g_string_append_c (out, g_ascii_tolower (*p));

  return g_string_free (out, FALSE);
}

/* The stem of "app_load_initiate" is "app_load" (also for "AppLoadInitiate"). */
static char *
beacon_stem (const char *name,
             gsize       suffix_len)
{
  gsize len = strlen (name);

  g_assert (len >= suffix_len);
  len -= suffix_len;
  while (len > 0 && (name[len - 1] == '_' || name[len - 1] == ' ' || name[len - 1] == '-'))
    len--;

  return g_strndup (name, len);
}

static void
build_intervals (BlSession *self)
{
  guint n = self->beacons->len;
  const BlBeacon *beacons = (const BlBeacon *) self->beacons->data;
  g_autofree gboolean *used = g_new0 (gboolean, n);
  g_auto(GStrv) normalized = g_new0 (char *, n + 1);

  for (guint i = 0; i < n; i++)
    normalized[i] = normalize_name (beacons[i].name);

  for (guint i = 0; i < n; i++)
    {
      gsize len = strlen (normalized[i]);
      g_autofree char *want = NULL;

      if (len <= 8 || !g_str_has_suffix (normalized[i], "initiate"))
        continue;

      want = g_strconcat ("", normalized[i], NULL);
      memcpy (want + len - 8, "complete", 8);

      for (guint j = i + 1; j < n; j++)
        if (!used[j] && g_str_equal (normalized[j], want))
          {
            BlInterval interval;
            g_autofree char *stem = beacon_stem (beacons[i].name, 8);

            used[j] = TRUE;
            interval.name = bl_session_intern (self, stem);
            interval.start_ms = beacons[i].timestamp_ms;
            interval.end_ms = beacons[j].timestamp_ms;
            g_array_append_val (self->intervals, interval);
            break;
          }
    }
}

/* Launch: from the first launch-phase initiate beacon (compile, splash, load
 * or launch) to the first app_load_complete / app_launch_complete after it. */
static double
compute_launch_ms (BlSession *self)
{
  const BlBeacon *beacons = (const BlBeacon *) self->beacons->data;
  static const char *starts[] = {
    "appcompileinitiate", "appsplashinitiate", "apploadinitiate", "applaunchinitiate",
  };
  gint64 start = G_MAXINT64;

  for (guint i = 0; i < self->beacons->len; i++)
    {
      g_autofree char *name = normalize_name (beacons[i].name);

      if (g_str_equal (name, "apploadcomplete") || g_str_equal (name, "applaunchcomplete"))
        {
          if (start != G_MAXINT64)
            return (double) (beacons[i].timestamp_ms - start);
          continue;
        }
      for (guint k = 0; k < G_N_ELEMENTS (starts); k++)
        if (g_str_equal (name, starts[k]) && beacons[i].timestamp_ms < start)
          start = beacons[i].timestamp_ms;
    }

  return NAN;
}

static double
series_sum (BlSession *self,
            BlSeriesId id)
{
  const BlSample *s = (const BlSample *) self->series[id]->data;
  double sum = 0;
  gboolean any = FALSE;

  for (guint i = 0; i < self->series[id]->len; i++)
    if (s[i].present)
      {
        sum += s[i].value;
        any = TRUE;
      }

  return any ? sum : NAN;
}

static void
compute_summary (BlSession *self)
{
  BlSessionSummary *sum = &self->summary;
  gboolean have_time = FALSE;
  BlRangeStats stats;
  const BlSample *used = (const BlSample *) self->series[BL_SERIES_MEMORY_USED]->data;

  sum->start_ms = sum->end_ms = 0;
  for (guint i = 0; i < BL_N_SERIES; i++)
    {
      GArray *a = self->series[i];

      if (a->len == 0)
        continue;
      if (!have_time)
        {
          sum->start_ms = g_array_index (a, BlSample, 0).timestamp_ms;
          sum->end_ms = g_array_index (a, BlSample, a->len - 1).timestamp_ms;
          have_time = TRUE;
        }
      sum->start_ms = MIN (sum->start_ms, g_array_index (a, BlSample, 0).timestamp_ms);
      sum->end_ms = MAX (sum->end_ms, g_array_index (a, BlSample, a->len - 1).timestamp_ms);
    }
  if (self->beacons->len > 0)
    {
      gint64 b0 = g_array_index (self->beacons, BlBeacon, 0).timestamp_ms;
      gint64 b1 = g_array_index (self->beacons, BlBeacon, self->beacons->len - 1).timestamp_ms;

      sum->start_ms = have_time ? MIN (sum->start_ms, b0) : b0;
      sum->end_ms = have_time ? MAX (sum->end_ms, b1) : b1;
    }

  bl_series_compute_stats (used, self->series[BL_SERIES_MEMORY_USED]->len,
                           G_MININT64, G_MAXINT64, &stats);
  sum->peak_memory = stats.max;
  sum->memory_growth_per_min = stats.growth_per_min;
  sum->peak_memory_ms = 0;
  for (guint i = 0; i < self->series[BL_SERIES_MEMORY_USED]->len; i++)
    if (used[i].present && used[i].value == stats.max)
      {
        sum->peak_memory_ms = used[i].timestamp_ms;
        break;
      }
  sum->peak_foreground_fraction = NAN;
  sum->peak_background_fraction = NAN;
  if (stats.n > 0 && self->info.has_foreground_limit && self->info.foreground_limit > 0)
    sum->peak_foreground_fraction = stats.max / (double) self->info.foreground_limit;
  if (stats.n > 0 && self->info.has_background_limit && self->info.background_limit > 0)
    sum->peak_background_fraction = stats.max / (double) self->info.background_limit;

  bl_session_compute_range_stats (self, BL_SERIES_CPU_TOTAL, G_MININT64, G_MAXINT64, &stats);
  sum->mean_cpu = stats.mean;
  sum->peak_cpu = stats.max;

  bl_session_compute_range_stats (self, BL_SERIES_FPS, G_MININT64, G_MAXINT64, &stats);
  sum->mean_fps = stats.mean;
  sum->min_fps = stats.min;

  sum->launch_ms = compute_launch_ms (self);
  sum->rendezvous_count = series_sum (self, BL_SERIES_RENDEZVOUS_COUNT);
  sum->rendezvous_drops = series_sum (self, BL_SERIES_RENDEZVOUS_DROPS);
}

void
bl_session_finish (BlSession *self)
{
  g_return_if_fail (BL_IS_SESSION (self));
  g_return_if_fail (!self->finished);

  for (guint i = 0; i < BL_N_SERIES; i++)
    sort_array (self->series[i], G_STRUCT_OFFSET (BlSample, timestamp_ms), compare_samples);
  sort_array (self->beacons, G_STRUCT_OFFSET (BlBeacon, timestamp_ms), compare_beacons);
  for (guint i = 0; i < BL_N_DETAILS; i++)
    sort_array (self->points[i], G_STRUCT_OFFSET (DetailPoint, timestamp_ms), compare_points);
  drop_outlying_times (self);

  /* the arrays no longer move: point the nested lists into them */
  for (guint i = 0; i < self->registry_sections->len; i++)
    {
      BlRegistrySection *section = &g_array_index (self->registry_sections, BlRegistrySection, i);
      guint first = g_array_index (self->registry_section_first, guint, i);

      section->keys = section->n_keys > 0
        ? &g_array_index (self->registry_keys, const char *, first) : NULL;
    }
  for (guint i = 0; i < self->bs_groups->len; i++)
    {
      BlBsGroup *group = &g_array_index (self->bs_groups, BlBsGroup, i);
      guint first = g_array_index (self->bs_group_first, guint, i);

      group->objects = group->n_objects > 0
        ? &g_array_index (self->bs_objects, BlBsObject, first) : NULL;
    }

  build_intervals (self);
  self->finished = TRUE;
  compute_summary (self);
}

/* ---- reading ------------------------------------------------------------- */

const BlSessionInfo *
bl_session_get_info (BlSession *self)
{
  g_return_val_if_fail (BL_IS_SESSION (self), NULL);

  return &self->info;
}

const BlSample *
bl_session_get_series (BlSession *self,
                       BlSeriesId id,
                       guint     *n_samples)
{
  g_return_val_if_fail (BL_IS_SESSION (self), NULL);
  g_return_val_if_fail (id >= 0 && id < BL_N_SERIES, NULL);

  if (n_samples != NULL)
    *n_samples = self->series[id]->len;

  return (const BlSample *) self->series[id]->data;
}

gboolean
bl_session_has_series (BlSession *self,
                       BlSeriesId id)
{
  GArray *a;

  g_return_val_if_fail (BL_IS_SESSION (self), FALSE);
  g_return_val_if_fail (id >= 0 && id < BL_N_SERIES, FALSE);

  a = self->series[id];
  for (guint i = 0; i < a->len; i++)
    if (g_array_index (a, BlSample, i).present)
      return TRUE;

  return FALSE;
}

const BlBeacon *
bl_session_get_beacons (BlSession *self,
                        guint     *n_beacons)
{
  g_return_val_if_fail (BL_IS_SESSION (self), NULL);

  if (n_beacons != NULL)
    *n_beacons = self->beacons->len;

  return (const BlBeacon *) self->beacons->data;
}

const BlInterval *
bl_session_get_intervals (BlSession *self,
                          guint     *n_intervals)
{
  g_return_val_if_fail (BL_IS_SESSION (self), NULL);

  if (n_intervals != NULL)
    *n_intervals = self->intervals->len;

  return (const BlInterval *) self->intervals->data;
}

/**
 * bl_session_get_summary:
 *
 * The figures of the summary header. launch_ms runs from the first
 * launch-phase initiate beacon (app_compile, app_splash, app_load or
 * app_launch) to the first app_load_complete or app_launch_complete after
 * it; memory growth is the least-squares slope of memory_used over the whole
 * session.
 */
const BlSessionSummary *
bl_session_get_summary (BlSession *self)
{
  g_return_val_if_fail (BL_IS_SESSION (self), NULL);
  g_return_val_if_fail (self->finished, NULL);

  return &self->summary;
}

void
bl_session_compute_range_stats (BlSession    *self,
                                BlSeriesId    id,
                                gint64        from_ms,
                                gint64        to_ms,
                                BlRangeStats *stats)
{
  g_return_if_fail (BL_IS_SESSION (self));
  g_return_if_fail (id >= 0 && id < BL_N_SERIES);

  bl_series_compute_stats ((const BlSample *) self->series[id]->data, self->series[id]->len,
                           from_ms, to_ms, stats);
}

guint
bl_session_get_n_details (BlSession    *self,
                          BlDetailKind  kind)
{
  g_return_val_if_fail (BL_IS_SESSION (self), 0);
  g_return_val_if_fail (kind < BL_N_DETAILS, 0);

  return self->points[kind]->len;
}

gint64
bl_session_get_detail_time (BlSession    *self,
                            BlDetailKind  kind,
                            guint         point)
{
  g_return_val_if_fail (BL_IS_SESSION (self), 0);
  g_return_val_if_fail (kind < BL_N_DETAILS, 0);
  g_return_val_if_fail (point < self->points[kind]->len, 0);

  return g_array_index (self->points[kind], DetailPoint, point).timestamp_ms;
}

gint
bl_session_find_detail (BlSession    *self,
                        BlDetailKind  kind,
                        gint64        t_ms)
{
  GArray *points;
  guint lo = 0, hi;

  g_return_val_if_fail (BL_IS_SESSION (self), -1);
  g_return_val_if_fail (kind < BL_N_DETAILS, -1);

  points = self->points[kind];
  if (points->len == 0)
    return -1;

  /* first point later than t_ms */
  hi = points->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (points, DetailPoint, mid).timestamp_ms <= t_ms)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo > 0 ? (gint) lo - 1 : 0;
}

static const DetailPoint *
get_point (BlSession    *self,
           BlDetailKind  kind,
           guint         point)
{
  g_return_val_if_fail (BL_IS_SESSION (self), NULL);
  g_return_val_if_fail (self->finished, NULL);
  g_return_val_if_fail (point < self->points[kind]->len, NULL);

  return &g_array_index (self->points[kind], DetailPoint, point);
}

#define DEFINE_DETAIL_GETTER(func, kind, Type, array)                         \
const Type *                                                                  \
func (BlSession *self,                                                        \
      guint      point,                                                       \
      guint     *n)                                                           \
{                                                                             \
  const DetailPoint *p = get_point (self, kind, point);                       \
                                                                              \
  if (n != NULL)                                                              \
    *n = p ? p->n : 0;                                                        \
  if (p == NULL || p->n == 0)                                                 \
    return NULL;                                                              \
  return &g_array_index (self->array, Type, p->first);                        \
}

DEFINE_DETAIL_GETTER (bl_session_get_bitmaps, BL_DETAIL_BITMAPS, BlBitmap, bitmaps)
DEFINE_DETAIL_GETTER (bl_session_get_node_types, BL_DETAIL_NODES, BlNodeType, node_types)
DEFINE_DETAIL_GETTER (bl_session_get_rendezvous_items, BL_DETAIL_RENDEZVOUS,
                      BlRendezvousItem, rendezvous_items)
DEFINE_DETAIL_GETTER (bl_session_get_registry_sections, BL_DETAIL_REGISTRY,
                      BlRegistrySection, registry_sections)
DEFINE_DETAIL_GETTER (bl_session_get_bs_groups, BL_DETAIL_BS_OBJECTS, BlBsGroup, bs_groups)

gboolean
bl_session_is_incomplete (BlSession *self)
{
  g_return_val_if_fail (BL_IS_SESSION (self), FALSE);

  return self->incomplete_reason != NULL;
}

const char *
bl_session_get_incomplete_reason (BlSession *self)
{
  g_return_val_if_fail (BL_IS_SESSION (self), NULL);

  return self->incomplete_reason;
}

const char *
bl_session_get_warning (BlSession *self)
{
  g_return_val_if_fail (BL_IS_SESSION (self), NULL);

  return self->warnings ? self->warnings->str : NULL;
}

/* ---- CSV ----------------------------------------------------------------- */

/* Integers as integers, other numbers in the shortest form that reads back
 * the same; never locale-dependent. */
void
bl_session_append_number (GString *out,
                          double   value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (value == floor (value) && fabs (value) < 9007199254740992.0)
    {
      g_string_append_printf (out, "%" G_GINT64_FORMAT, (gint64) value);
      return;
    }

  g_ascii_formatd (buf, sizeof buf, "%.15g", value);
  if (g_ascii_strtod (buf, NULL) != value)
    g_ascii_formatd (buf, sizeof buf, "%.17g", value);
  g_string_append (out, buf);
}

/**
 * bl_session_write_csv:
 *
 * Writes one row per distinct timestamp (ascending) with the header
 * "timestamp_ms,memory_used,…,bs_objects_memory" (the series names in
 * BlSeriesId order). A cell is empty where the series has no value at that
 * time; where a series has several samples at one time, the last present
 * one is written.
 */
gboolean
bl_session_write_csv (BlSession     *self,
                      GOutputStream *out,
                      GCancellable  *cancellable,
                      GError       **error)
{
  g_autoptr(GString) buf = g_string_sized_new (128 * 1024);
  guint pos[BL_N_SERIES] = { 0 };

  g_return_val_if_fail (BL_IS_SESSION (self), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  g_string_append (buf, "timestamp_ms");
  for (guint i = 0; i < BL_N_SERIES; i++)
    {
      g_string_append_c (buf, ',');
      g_string_append (buf, series_info[i].name);
    }
  g_string_append_c (buf, '\n');

  for (;;)
    {
      gint64 t = G_MAXINT64;
      gboolean any = FALSE;

      for (guint i = 0; i < BL_N_SERIES; i++)
        if (pos[i] < self->series[i]->len)
          {
            t = MIN (t, g_array_index (self->series[i], BlSample, pos[i]).timestamp_ms);
            any = TRUE;
          }
      if (!any)
        break;

      g_string_append_printf (buf, "%" G_GINT64_FORMAT, t);
      for (guint i = 0; i < BL_N_SERIES; i++)
        {
          GArray *a = self->series[i];
          const BlSample *value = NULL;

          while (pos[i] < a->len && g_array_index (a, BlSample, pos[i]).timestamp_ms == t)
            {
              if (g_array_index (a, BlSample, pos[i]).present)
                value = &g_array_index (a, BlSample, pos[i]);
              pos[i]++;
            }
          g_string_append_c (buf, ',');
          if (value != NULL)
            bl_session_append_number (buf, value->value);
        }
      g_string_append_c (buf, '\n');

      if (buf->len >= 64 * 1024)
        {
          if (!g_output_stream_write_all (out, buf->str, buf->len, NULL, cancellable, error))
            return FALSE;
          g_string_truncate (buf, 0);
        }
    }

  return g_output_stream_write_all (out, buf->str, buf->len, NULL, cancellable, error);
}
