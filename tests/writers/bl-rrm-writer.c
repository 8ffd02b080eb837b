/* bl-rrm-writer.c — a test-only Roku Resource Monitor session generator
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-rrm-writer.h"

#define MIB (1024.0 * 1024.0)

typedef enum
{
  ARR_MEMORY,
  ARR_CPU,
  ARR_GRAPHICS,
  ARR_NODES,
  ARR_FPS,
  ARR_RENDEZVOUS,
  ARR_REGISTRY,
  ARR_BS,
  N_ARRS,
} Arr;

static const gint64 stagger_ms[N_ARRS] = { 0, 0, 100, 100, 500, 250, 0, 750 };

static const char *node_names[] = {
  "Group", "Rectangle", "Label", "Poster", "RowList", "Video", "Timer", "Animation",
  "ContentNode", "Scene", "LayoutGroup", "MarkupGrid", "Font", "Task", "ZoomRowList",
};

static const char *rendezvous_sources[] = {
  "pkg:/components/HomeScene.brs", "pkg:/components/ContentTask.brs",
  "pkg:/components/PlayerView.brs", "pkg:/source/main.brs",
};

static const char *bs_group_names[] = {
  "main", "render", "ContentTask", "PlayerTask", "AnalyticsTask",
};

static const char *bs_object_names[] = {
  "roAssociativeArray", "roArray", "roString", "roInt", "roList", "roByteArray",
};

static Arr
series_arr (BlSeriesId id)
{
  switch (id)
    {
    case BL_SERIES_MEMORY_USED:
    case BL_SERIES_MEMORY_RESIDENT:
    case BL_SERIES_MEMORY_SWAP:
    case BL_SERIES_MEMORY_ANON:
    case BL_SERIES_MEMORY_FILE:
    case BL_SERIES_MEMORY_SHARED:
      return ARR_MEMORY;
    case BL_SERIES_CPU_TOTAL:
    case BL_SERIES_CPU_USER:
    case BL_SERIES_CPU_SYS:
      return ARR_CPU;
    case BL_SERIES_GRAPHICS_TEXTURE:
    case BL_SERIES_GRAPHICS_SYSTEM:
      return ARR_GRAPHICS;
    case BL_SERIES_NODES_TOTAL:
    case BL_SERIES_NODES_MEMORY:
      return ARR_NODES;
    case BL_SERIES_FPS:
      return ARR_FPS;
    case BL_SERIES_RENDEZVOUS_COUNT:
    case BL_SERIES_RENDEZVOUS_TOTAL_TIME:
    case BL_SERIES_RENDEZVOUS_DROPS:
      return ARR_RENDEZVOUS;
    case BL_SERIES_REGISTRY_USED:
      return ARR_REGISTRY;
    case BL_SERIES_BS_OBJECTS_COUNT:
    case BL_SERIES_BS_OBJECTS_MEMORY:
      return ARR_BS;
    case BL_N_SERIES:
    case BL_SERIES_INVALID:
    default:
      g_assert_not_reached ();
    }
}

void
bl_rrm_writer_options_init (BlRrmWriterOptions *o)
{
  memset (o, 0, sizeof *o);
  o->n_samples = 60;
  o->start_ms = G_GINT64_CONSTANT (1700000000000);
  o->interval_ms = 1000;
  o->version_major = 4;
  o->version_minor = 1;
  o->with_limits = TRUE;
  o->foreground_limit = 512 * 1024 * 1024;
  o->background_limit = 100 * 1024 * 1024;
  o->n_bitmaps = 3;
  o->n_node_types = 4;
  o->n_rendezvous_items = 2;
  o->n_registry_sections = 2;
  o->n_bs_groups = 2;
  o->n_bs_objects = 2;
  o->with_beacons = TRUE;
  o->leak_bytes_per_min = 256 * 1024;
}

/* ---- the formulas --------------------------------------------------------- */

static double
noise (guint i,
       guint k)
{
  guint32 h = (i + 1) * 2654435761u ^ (k + 7) * 40503u;

  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return (h % 10000) / 10000.0;
}

static double
round2 (double x)
{
  return round (x * 100.0) / 100.0;
}

static double
minutes (const BlRrmWriterOptions *o,
         guint                     i)
{
  return (double) i * o->interval_ms / 60000.0;
}

static gint64
video_start_offset (const BlRrmWriterOptions *o)
{
  gint64 duration = (gint64) o->n_samples * o->interval_ms;

  return o->scenario == BL_RRM_SCENARIO_REALISTIC ? MAX (duration / 6, 20000) : 30000;
}

static gboolean
in_video (const BlRrmWriterOptions *o,
          guint                     i)
{
  return o->scenario == BL_RRM_SCENARIO_REALISTIC &&
         (gint64) i * o->interval_ms >= video_start_offset (o) + 1350;
}

/* rendezvous bursts: 5 samples long at 20 %, 50 % and 80 % of the session */
static gboolean
in_burst (const BlRrmWriterOptions *o,
          guint                     i)
{
  guint n = o->n_samples;

  if (o->scenario != BL_RRM_SCENARIO_REALISTIC)
    return i % 10 == 0;
  return (i >= n / 5 && i < n / 5 + 5) || (i >= n / 2 && i < n / 2 + 5) ||
         (i >= 4 * n / 5 && i < 4 * n / 5 + 5);
}

static double
memory_used (const BlRrmWriterOptions *o,
             guint                     i)
{
  double launch = 1.0;

  if (o->scenario == BL_RRM_SCENARIO_REALISTIC)
    {
      /* 3 s of launch ramp, then browsing, then playback buffers */
      double s = (double) i * o->interval_ms / 1000.0;

      if (s < 3)
        launch = 0.35 + 0.65 * s / 3.0;
      return round ((92 * MIB + (in_video (o, i) ? 14 * MIB : 0)) * launch +
                    o->leak_bytes_per_min * minutes (o, i) + noise (i, 1) * 2 * MIB);
    }

  return round (80 * MIB + o->leak_bytes_per_min * minutes (o, i) + (i % 7) * 4096.0);
}

static double
memory_swap (const BlRrmWriterOptions *o,
             guint                     i)
{
  return (i % 3) * 1048576.0;
}

static double
cpu_total (const BlRrmWriterOptions *o,
           guint                     i)
{
  if (o->scenario == BL_RRM_SCENARIO_REALISTIC)
    {
      if ((gint64) i * o->interval_ms < 3000)
        return round2 (75 + 15 * noise (i, 2));
      if (in_video (o, i))
        return round2 (32 + 10 * noise (i, 2));
      return round2 (8 + 9 * noise (i, 2) + (in_burst (o, i) ? 25 : 0));
    }
  return round2 (20 + 10 * sin (i * 0.1));
}

static double
fps_value (const BlRrmWriterOptions *o,
           guint                     i)
{
  if (o->scenario == BL_RRM_SCENARIO_REALISTIC)
    {
      if ((gint64) i * o->interval_ms < 3000)
        return round2 (18 + 10 * noise (i, 3));
      if (in_burst (o, i))
        return round2 (38 + 8 * noise (i, 3));
      return round2 (58.5 + 1.5 * noise (i, 3));
    }
  return i % 17 == 0 ? 45.5 : 60;
}

static double
rendezvous_count (const BlRrmWriterOptions *o,
                  guint                     i)
{
  if (o->scenario == BL_RRM_SCENARIO_REALISTIC)
    return in_burst (o, i) ? 40 + floor (40 * noise (i, 4)) : floor (3 * noise (i, 4));
  return in_burst (o, i) ? 20 : 3;
}

static double
bs_group_count (const BlRrmWriterOptions *o,
                guint                     i,
                guint                     g)
{
  double base = 50 + 10 * g + i % 7;

  if (o->scenario == BL_RRM_SCENARIO_REALISTIC && g == 0)
    base += floor (minutes (o, i) * 12);   /* the leak: objects kept in a cache */
  return base;
}

static gboolean
bs_group_null (const BlRrmWriterOptions *o,
               guint                     i,
               guint                     g,
               guint                     k)
{
  return o->null_every > 0 && (i + g + k) % o->null_every == 0;
}

static gboolean
omitted (const BlRrmWriterOptions *o,
         BlSeriesId                id,
         guint                     i)
{
  if (o->omit_every == 0 || i % o->omit_every != 1)
    return FALSE;
  return id == BL_SERIES_MEMORY_SWAP || id == BL_SERIES_CPU_SYS ||
         id == BL_SERIES_GRAPHICS_SYSTEM || id == BL_SERIES_FPS ||
         id == BL_SERIES_RENDEZVOUS_DROPS;
}

static double
raw_value (const BlRrmWriterOptions *o,
           BlSeriesId                id,
           guint                     i)
{
  double used, swap, resident, anon, file, total;

  switch (id)
    {
    case BL_SERIES_MEMORY_USED:
      return memory_used (o, i);
    case BL_SERIES_MEMORY_SWAP:
      return memory_swap (o, i);
    case BL_SERIES_MEMORY_RESIDENT:
    case BL_SERIES_MEMORY_ANON:
    case BL_SERIES_MEMORY_FILE:
    case BL_SERIES_MEMORY_SHARED:
      used = memory_used (o, i);
      swap = memory_swap (o, i);
      resident = used - swap;
      anon = round (resident * 0.6);
      file = round (resident * 0.3);
      if (id == BL_SERIES_MEMORY_RESIDENT)
        return resident;
      if (id == BL_SERIES_MEMORY_ANON)
        return anon;
      if (id == BL_SERIES_MEMORY_FILE)
        return file;
      return resident - anon - file;
    case BL_SERIES_CPU_TOTAL:
      return cpu_total (o, i);
    case BL_SERIES_CPU_USER:
      return round2 (cpu_total (o, i) * 0.75);
    case BL_SERIES_CPU_SYS:
      total = cpu_total (o, i);
      return round2 (total - round2 (total * 0.75));
    case BL_SERIES_GRAPHICS_TEXTURE:
      return 20 * MIB + (i % 50) * 65536.0 + (in_video (o, i) ? 24 * MIB : 0);
    case BL_SERIES_GRAPHICS_SYSTEM:
      return 4 * MIB + (i % 10) * 1024.0;
    case BL_SERIES_NODES_TOTAL:
      return 400 + i % 120 + (o->scenario == BL_RRM_SCENARIO_REALISTIC ? floor (i / 10.0) : 0);
    case BL_SERIES_NODES_MEMORY:
      return raw_value (o, BL_SERIES_NODES_TOTAL, i) * 256;
    case BL_SERIES_FPS:
      return fps_value (o, i);
    case BL_SERIES_RENDEZVOUS_COUNT:
      return rendezvous_count (o, i);
    case BL_SERIES_RENDEZVOUS_TOTAL_TIME:
      return rendezvous_count (o, i) * 2.5;
    case BL_SERIES_RENDEZVOUS_DROPS:
      return in_burst (o, i) && i % 2 == 0 ? 2 : 0;
    case BL_SERIES_REGISTRY_USED:
      return 1024 + (i % 4) * 16;
    case BL_SERIES_BS_OBJECTS_COUNT:
    case BL_SERIES_BS_OBJECTS_MEMORY:
    case BL_N_SERIES:
    case BL_SERIES_INVALID:
    default:
      g_assert_not_reached ();
    }
}

gboolean
bl_rrm_writer_has_series (const BlRrmWriterOptions *o,
                          BlSeriesId                id)
{
  Arr arr = series_arr (id);

  if (arr == ARR_BS && o->version_major < 3)
    return FALSE;
  if (o->omit_arrays && (arr == ARR_REGISTRY || arr == ARR_FPS))
    return FALSE;
  return TRUE;
}

gint64
bl_rrm_writer_timestamp (const BlRrmWriterOptions *o,
                         BlSeriesId                id,
                         guint                     i)
{
  return o->start_ms + (gint64) i * o->interval_ms + (o->stagger ? stagger_ms[series_arr (id)] : 0);
}

double
bl_rrm_writer_expected (const BlRrmWriterOptions *o,
                        BlSeriesId                id,
                        guint                     i,
                        gboolean                 *present)
{
  if (id == BL_SERIES_BS_OBJECTS_COUNT || id == BL_SERIES_BS_OBJECTS_MEMORY)
    {
      double sum = 0;
      gboolean any = o->n_bs_groups == 0;
      guint k = id == BL_SERIES_BS_OBJECTS_COUNT ? 3 : 5;

      for (guint g = 0; g < o->n_bs_groups; g++)
        if (!bs_group_null (o, i, g, k))
          {
            double count = bs_group_count (o, i, g);

            sum += id == BL_SERIES_BS_OBJECTS_COUNT ? count : count * 48;
            any = TRUE;
          }
      *present = any;
      return sum;
    }

  *present = !omitted (o, id, i) &&
             !(o->null_every > 0 && (i + (guint) id) % o->null_every == 0);
  return raw_value (o, id, i);
}

/* ---- JSON output ------------------------------------------------------------ */

typedef struct
{
  const BlRrmWriterOptions *o;
  GString       *out;
  GOutputStream *stream;
  GError       **error;
  gboolean       failed;
} W;

static void
flush (W       *w,
       gboolean force)
{
  if (w->failed || w->stream == NULL || (!force && w->out->len < 256 * 1024))
    return;
  if (!g_output_stream_write_all (w->stream, w->out->str, w->out->len, NULL, NULL, w->error))
    w->failed = TRUE;
  g_string_truncate (w->out, 0);
}

/* Writes a snake_case key in the options' style, quoted, with ": ". */
static void
key (W          *w,
     const char *snake)
{
  GString *out = w->out;
  gboolean up = w->o->key_style == BL_RRM_KEYS_PASCAL || w->o->key_style == BL_RRM_KEYS_SPACED;

  g_string_append_c (out, '"');
  if (w->o->spaced_drop_count && strcmp (snake, "drop_count") == 0)
    g_string_append (out, "drop_ count");
  else
    for (const char *p = snake; *p; p++)
      {
        if (*p == '_')
          {
            if (w->o->key_style == BL_RRM_KEYS_SNAKE)
              g_string_append_c (out, '_');
            else if (w->o->key_style == BL_RRM_KEYS_SPACED)
              g_string_append_c (out, ' ');
            else
              up = TRUE;
            continue;
          }
        g_string_append_c (out, up ? g_ascii_toupper (*p) : *p);
        up = FALSE;
      }
  g_string_append (out, "\": ");
}

static void
number (W      *w,
        double  value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (value == floor (value) && fabs (value) < 1e15)
    g_string_append_printf (w->out, "%" G_GINT64_FORMAT, (gint64) value);
  else
    g_string_append (w->out, g_ascii_formatd (buf, sizeof buf, "%.17g", value));
}

static void
string (W          *w,
        const char *s)
{
  g_string_append_c (w->out, '"');
  for (; *s; s++)
    {
      if (*s == '"' || *s == '\\')
        g_string_append_c (w->out, '\\');
      g_string_append_c (w->out, *s);
    }
  g_string_append_c (w->out, '"');
}

static void
member_number (W          *w,
               const char *name,
               double      value,
               gboolean    present)
{
  key (w, name);
  if (present)
    number (w, value);
  else
    g_string_append (w->out, "null");
  g_string_append (w->out, ", ");
}

static void
series_member (W          *w,
               const char *name,
               BlSeriesId  id,
               guint       i)
{
  gboolean present;
  double value = bl_rrm_writer_expected (w->o, id, i, &present);

  if (omitted (w->o, id, i))
    return;
  member_number (w, name, value, present);
}

static void
point_start (W          *w,
             BlSeriesId  id,
             guint       i)
{
  if (i > 0)
    g_string_append_c (w->out, ',');
  if (w->o->pretty)
    g_string_append (w->out, "\n        ");
  g_string_append_c (w->out, '{');
  if (w->o->unknown_members && i % 2 == 0)
    {
      key (w, "extra_info");
      g_string_append (w->out, "{\"nested\": [1, 2.5, {\"deep\": null}, \"x\"], \"flag\": true}, ");
    }
  key (w, "timestamp");
  g_string_append_printf (w->out, "%" G_GINT64_FORMAT ", ", bl_rrm_writer_timestamp (w->o, id, i));
}

static void
point_end (W *w)
{
  /* drop the trailing ", " */
  if (g_str_has_suffix (w->out->str, ", "))
    g_string_truncate (w->out, w->out->len - 2);
  g_string_append_c (w->out, '}');
  flush (w, FALSE);
}

static void
trim_comma (W *w)
{
  if (g_str_has_suffix (w->out->str, ", "))
    g_string_truncate (w->out, w->out->len - 2);
}

static void
write_memory (W *w)
{
  key (w, "channel_system_memory_usage");
  g_string_append_c (w->out, '[');
  for (guint i = 0; i < w->o->n_samples; i++)
    {
      point_start (w, BL_SERIES_MEMORY_USED, i);
      series_member (w, "used", BL_SERIES_MEMORY_USED, i);
      series_member (w, "resident", BL_SERIES_MEMORY_RESIDENT, i);
      series_member (w, "swap", BL_SERIES_MEMORY_SWAP, i);
      series_member (w, "anon", BL_SERIES_MEMORY_ANON, i);
      series_member (w, "file", BL_SERIES_MEMORY_FILE, i);
      series_member (w, "shared", BL_SERIES_MEMORY_SHARED, i);
      point_end (w);
    }
  g_string_append (w->out, "], ");
}

static void
write_cpu (W *w)
{
  key (w, "channel_cpu_usage");
  g_string_append_c (w->out, '[');
  for (guint i = 0; i < w->o->n_samples; i++)
    {
      point_start (w, BL_SERIES_CPU_TOTAL, i);
      series_member (w, "total", BL_SERIES_CPU_TOTAL, i);
      series_member (w, "user", BL_SERIES_CPU_USER, i);
      series_member (w, "sys", BL_SERIES_CPU_SYS, i);
      point_end (w);
    }
  g_string_append (w->out, "], ");
}

static void
write_graphics (W *w)
{
  const BlRrmWriterOptions *o = w->o;

  key (w, "channel_graphics_memory_usage");
  g_string_append_c (w->out, '[');
  for (guint i = 0; i < o->n_samples; i++)
    {
      guint n_bitmaps = o->n_bitmaps + (in_video (o, i) ? 2 : 0);

      point_start (w, BL_SERIES_GRAPHICS_TEXTURE, i);
      series_member (w, "texture", BL_SERIES_GRAPHICS_TEXTURE, i);
      series_member (w, "system", BL_SERIES_GRAPHICS_SYSTEM, i);
      key (w, "bitmaps");
      g_string_append_c (w->out, '[');
      for (guint b = 0; b < n_bitmaps; b++)
        {
          gint64 width = 240 + 16 * (b % 20);
          gint64 height = 135 + 9 * (b % 20);
          g_autofree char *name = NULL;

          if (b >= o->n_bitmaps)
            name = g_strdup_printf ("https://cdn.example.com/art/hero_%u_1920x1080.jpg", b);
          else
            name = g_strdup_printf ("pkg:/images/poster_%03u.png", b);
          if (b >= o->n_bitmaps)
            {
              width = 1920;
              height = 1080;
            }
          g_string_append (w->out, b ? ", {" : "{");
          member_number (w, "bpp", 32, !bs_group_null (o, i, b, 11));
          member_number (w, "height", height, TRUE);
          member_number (w, "width", width, TRUE);
          member_number (w, "size", width * height * 4, TRUE);
          key (w, "name");
          string (w, name);
          g_string_append_c (w->out, '}');
        }
      g_string_append (w->out, "], ");
      point_end (w);
    }
  g_string_append (w->out, "], ");
}

static void
write_nodes (W *w)
{
  const BlRrmWriterOptions *o = w->o;

  key (w, "channel_graph_metrics");
  g_string_append_c (w->out, '[');
  for (guint i = 0; i < o->n_samples; i++)
    {
      point_start (w, BL_SERIES_NODES_TOTAL, i);
      series_member (w, "total_nodes", BL_SERIES_NODES_TOTAL, i);
      series_member (w, "total_memory", BL_SERIES_NODES_MEMORY, i);
      key (w, "nodes");
      g_string_append_c (w->out, '[');
      for (guint n = 0; n < o->n_node_types; n++)
        {
          g_autofree char *name = NULL;
          gint64 count = 10 + 3 * n + (i / 20) % 5;

          if (n < G_N_ELEMENTS (node_names))
            name = g_strdup (node_names[n]);
          else
            name = g_strdup_printf ("%s%u", node_names[n % G_N_ELEMENTS (node_names)],
                                    n / (guint) G_N_ELEMENTS (node_names));
          if (o->scenario == BL_RRM_SCENARIO_REALISTIC && n == 8)
            count += i / 10;   /* ContentNodes that are never released */
          g_string_append (w->out, n ? ", {" : "{");
          key (w, "name");
          string (w, name);
          g_string_append (w->out, ", ");
          member_number (w, "count", count, TRUE);
          member_number (w, "memory", count * 200, TRUE);
          trim_comma (w);
          g_string_append_c (w->out, '}');
        }
      g_string_append (w->out, "], ");
      point_end (w);
    }
  g_string_append (w->out, "], ");
}

static void
write_fps (W *w)
{
  key (w, "graphics_rendering_frame_rate");
  g_string_append_c (w->out, '[');
  for (guint i = 0; i < w->o->n_samples; i++)
    {
      point_start (w, BL_SERIES_FPS, i);
      series_member (w, "fps", BL_SERIES_FPS, i);
      point_end (w);
    }
  g_string_append (w->out, "], ");
}

static void
write_rendezvous (W *w)
{
  const BlRrmWriterOptions *o = w->o;

  key (w, "sgrendezvous");
  g_string_append_c (w->out, '[');
  for (guint i = 0; i < o->n_samples; i++)
    {
      guint n_items = o->n_rendezvous_items + (in_burst (o, i) ? 3 : 0);

      point_start (w, BL_SERIES_RENDEZVOUS_COUNT, i);
      series_member (w, "total_time", BL_SERIES_RENDEZVOUS_TOTAL_TIME, i);
      series_member (w, "drop_count", BL_SERIES_RENDEZVOUS_DROPS, i);
      series_member (w, "count", BL_SERIES_RENDEZVOUS_COUNT, i);
      key (w, "items");
      g_string_append_c (w->out, '[');
      for (guint k = 0; k < n_items; k++)
        {
          g_string_append (w->out, k ? ", {" : "{");
          member_number (w, "id", (double) i * 100 + k, TRUE);
          member_number (w, "start", k * 3.0, TRUE);
          member_number (w, "end", k * 3.0 + 1.5, k % 3 != 2);
          member_number (w, "line_number", 40 + k, TRUE);
          key (w, "name");
          string (w, rendezvous_sources[k % G_N_ELEMENTS (rendezvous_sources)]);
          g_string_append_c (w->out, '}');
        }
      g_string_append (w->out, "], ");
      point_end (w);
    }
  g_string_append (w->out, "], ");
}

static void
write_registry (W *w)
{
  const BlRrmWriterOptions *o = w->o;

  key (w, "registry_usage");
  g_string_append_c (w->out, '[');
  for (guint i = 0; i < o->n_samples; i++)
    {
      point_start (w, BL_SERIES_REGISTRY_USED, i);
      series_member (w, "used", BL_SERIES_REGISTRY_USED, i);
      key (w, "sections");
      g_string_append_c (w->out, '[');
      for (guint s = 0; s < o->n_registry_sections; s++)
        {
          g_autofree char *name = g_strdup_printf ("section%u", s);

          g_string_append (w->out, s ? ", {" : "{");
          key (w, "name");
          string (w, name);
          g_string_append (w->out, ", ");
          key (w, "items");
          /* keys as strings, or as objects holding "key" */
          if (s % 2 == 0)
            g_string_append (w->out, "[\"token\", \"expiry\"]");
          else
            g_string_append (w->out, "[{\"key\": \"lastChannel\"}]");
          g_string_append_c (w->out, '}');
        }
      g_string_append (w->out, "], ");
      point_end (w);
    }
  g_string_append (w->out, "], ");
}

static void
write_bs_objects (W *w)
{
  const BlRrmWriterOptions *o = w->o;

  key (w, "bs_objects");
  g_string_append_c (w->out, '[');
  for (guint i = 0; i < o->n_samples; i++)
    {
      point_start (w, BL_SERIES_BS_OBJECTS_COUNT, i);
      key (w, "groups");
      g_string_append_c (w->out, '[');
      for (guint g = 0; g < o->n_bs_groups; g++)
        {
          double count = bs_group_count (o, i, g);
          g_autofree char *id = g_strdup_printf ("%u", g + 1);

          g_string_append (w->out, g ? ", {" : "{");
          key (w, "name");
          string (w, bs_group_names[g % G_N_ELEMENTS (bs_group_names)]);
          g_string_append (w->out, ", ");
          key (w, "id");
          string (w, id);
          g_string_append (w->out, ", ");
          member_number (w, "objects_count", count, !bs_group_null (o, i, g, 3));
          key (w, "objects");
          g_string_append_c (w->out, '[');
          for (guint k = 0; k < o->n_bs_objects; k++)
            {
              double c = floor (count / (k + 2));

              g_string_append (w->out, k ? ", {" : "{");
              member_number (w, "count", c, TRUE);
              key (w, "name");
              string (w, bs_object_names[k % G_N_ELEMENTS (bs_object_names)]);
              g_string_append (w->out, ", ");
              member_number (w, "memory", c * 48, TRUE);
              trim_comma (w);
              g_string_append_c (w->out, '}');
            }
          g_string_append (w->out, "], ");
          member_number (w, "objects_memory", count * 48, !bs_group_null (o, i, g, 5));
          trim_comma (w);
          g_string_append_c (w->out, '}');
        }
      g_string_append (w->out, "], ");
      point_end (w);
    }
  g_string_append (w->out, "], ");
}

static const BlRrmBeaconSpec launch_beacons[] = {
  { "app_compile_initiate", 100 },
  { "app_compile_complete", 540 },
  { "app_splash_initiate", 560 },
  { "app_load_initiate", 600 },
  { "app_splash_complete", 1800 },
  { "app_load_complete", 2650 },
  { "vod_start_initiate", -1 },
  { "vod_start_complete", -1 },
};

const BlRrmBeaconSpec *
bl_rrm_writer_get_beacons (const BlRrmWriterOptions *o,
                           guint                    *n)
{
  static BlRrmBeaconSpec plain[G_N_ELEMENTS (launch_beacons)];
  static BlRrmBeaconSpec realistic[G_N_ELEMENTS (launch_beacons)];
  BlRrmBeaconSpec *out = o->scenario == BL_RRM_SCENARIO_REALISTIC ? realistic : plain;

  memcpy (out, launch_beacons, sizeof launch_beacons);
  out[6].offset_ms = video_start_offset (o);
  out[7].offset_ms = video_start_offset (o) + 1350;
  *n = o->with_beacons ? G_N_ELEMENTS (launch_beacons) : 0;
  return out;
}

static void
write_beacons (W *w)
{
  static const char *name_keys[] = { "name", "event", "beacon" };
  guint n;
  const BlRrmBeaconSpec *beacons = bl_rrm_writer_get_beacons (w->o, &n);

  key (w, "fw_beacons");
  g_string_append_c (w->out, '[');
  for (guint b = 0; b < n; b++)
    {
      g_string_append (w->out, b ? ", {" : "{");
      key (w, name_keys[w->o->beacon_name_key % 3]);
      string (w, beacons[b].name);
      g_string_append (w->out, ", ");
      key (w, "timestamp");
      g_string_append_printf (w->out, "%" G_GINT64_FORMAT "}",
                              w->o->start_ms + beacons[b].offset_ms);
    }
  g_string_append (w->out, "], ");
}

static void
write_session (W *w)
{
  const BlRrmWriterOptions *o = w->o;
  GString *out = w->out;
  gboolean bs = o->version_major >= 3;

  g_string_append (out, "{");
  key (w, "device");
  g_string_append (out, "{");
  key (w, "device_name");
  string (w, "Roku Ultra");
  g_string_append (out, ", ");
  key (w, "model_number");
  string (w, "4850X");
  g_string_append (out, ", ");
  key (w, "serial_number");
  string (w, "X00400CS3EMP");
  g_string_append (out, ", ");
  if (o->unknown_members)
    {
      key (w, "cpu_arch");
      g_string_append (out, "{\"kind\": \"arm\", \"cores\": [1, 2, 3, 4]}, ");
    }
  key (w, "software_version");
  string (w, "14.0.4");
  g_string_append (out, ", ");
  key (w, "software_build");
  g_string_append (out, "4180}, ");

  key (w, "channel");
  g_string_append (out, "{");
  key (w, "id");
  string (w, "dev");
  g_string_append (out, ", ");
  key (w, "version");
  string (w, "2.3.1");
  g_string_append (out, ", ");
  key (w, "name");
  string (w, o->channel_name ? o->channel_name : "Brightlens \"Demo\" Channel");
  g_string_append (out, "}, ");

  key (w, "metadata");
  g_string_append (out, "{");
  key (w, "uuid");
  string (w, "cd7cbbeb-c4a7-46dc-ab9f-fdeb90523481");
  g_string_append (out, ", ");
  key (w, "created_at");
  g_string_append_printf (out, "%" G_GINT64_FORMAT ", ",
                          o->start_ms + (gint64) o->n_samples * o->interval_ms + 5000);
  key (w, "started_at");
  g_string_append_printf (out, "%" G_GINT64_FORMAT ", ", o->start_ms);
  key (w, "version");
  if (o->version_minor > 0)
    g_string_append_printf (out, "%u.%u}, ", o->version_major, o->version_minor);
  else
    g_string_append_printf (out, "%u}, ", o->version_major);

  if (o->unknown_members)
    {
      key (w, "exporter");
      g_string_append (out, "{\"tool\": \"test\", \"options\": [null, false, {\"a\": []}]}, ");
    }

  key (w, "session");
  g_string_append (out, o->session_as_array ? "[{" : "{");
  key (w, "static");
  g_string_append (out, "{");
  key (w, "foreground_limit");
  if (o->with_limits)
    g_string_append_printf (out, "%" G_GINT64_FORMAT ", ", o->foreground_limit);
  else
    g_string_append (out, "null, ");
  key (w, "background_limit");
  if (o->with_limits)
    g_string_append_printf (out, "%" G_GINT64_FORMAT "}", o->background_limit);
  else
    g_string_append (out, "null}");

  g_string_append (out, o->session_as_array ? "}, {" : ", ");
  key (w, "live");
  g_string_append (out, "{");
  write_memory (w);
  write_cpu (w);
  write_graphics (w);
  write_nodes (w);
  if (o->session_as_array)
    {
      trim_comma (w);
      g_string_append (out, "}}, {");
      key (w, "live");
      g_string_append (out, "{");
    }
  if (!o->omit_arrays)
    write_fps (w);
  write_rendezvous (w);
  if (!o->omit_arrays)
    write_registry (w);
  if (bs)
    write_bs_objects (w);
  write_beacons (w);
  trim_comma (w);
  g_string_append (out, o->session_as_array ? "}}]" : "}}");
  g_string_append (out, "}\n");
  flush (w, TRUE);
}

GBytes *
bl_rrm_write (const BlRrmWriterOptions *options)
{
  W w = { options, g_string_new (NULL), NULL, NULL, FALSE };

  write_session (&w);
  return g_string_free_to_bytes (w.out);
}

gboolean
bl_rrm_write_to_stream (const BlRrmWriterOptions *options,
                        GOutputStream            *out,
                        GError                  **error)
{
  W w = { options, g_string_sized_new (512 * 1024), out, error, FALSE };

  write_session (&w);
  g_string_free (w.out, TRUE);
  return !w.failed;
}

gboolean
bl_rrm_write_to_file (const BlRrmWriterOptions *options,
                      const char               *path,
                      GError                  **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileOutputStream) out = NULL;

  out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, error);
  if (out == NULL)
    return FALSE;
  if (!bl_rrm_write_to_stream (options, G_OUTPUT_STREAM (out), error))
    return FALSE;
  return g_output_stream_close (G_OUTPUT_STREAM (out), NULL, error);
}
