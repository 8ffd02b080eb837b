/* bl-cli-heap.c — brightlens-cli heap FILE [--json] [--top N] [--hide-global]
 *                 brightlens-cli heap A B [--json]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "brightlens-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <stdio.h>

#include "bl-cli.h"
#include "bl-heap.h"
#include "bl-heap-index.h"

typedef struct
{
  guint32 type;
  guint64 count;
  guint64 self_bytes;
  guint64 retained_bytes;
} TypeRow;

static int
compare_type_rows (gconstpointer a,
                   gconstpointer b,
                   gpointer      data)
{
  const TypeRow *ra = a, *rb = b;

  if (ra->retained_bytes != rb->retained_bytes)
    return ra->retained_bytes > rb->retained_bytes ? -1 : 1;
  if (ra->self_bytes != rb->self_bytes)
    return ra->self_bytes > rb->self_bytes ? -1 : 1;
  return g_strcmp0 (bl_heap_get_type_name (data, ra->type), bl_heap_get_type_name (data, rb->type));
}

static GArray *
type_rows (BlHeap *heap)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (TypeRow));

  for (guint32 t = 0; t < bl_heap_get_n_types (heap); t++)
    {
      TypeRow row = { t, 0, 0, 0 };

      bl_heap_get_type_totals (heap, t, &row.count, &row.self_bytes, &row.retained_bytes);
      if (row.count > 0)
        g_array_append_val (rows, row);
    }
  g_array_sort_with_data (rows, compare_type_rows, heap);

  return rows;
}

static void
add_snapshot_json (JsonBuilder *builder,
                   BlHeap      *heap,
                   guint        index,
                   guint        top,
                   gboolean     hide_global)
{
  g_autoptr(GArray) rows = type_rows (heap);
  g_autofree guint32 *largest = NULL;
  guint n_largest, n_cycles;
  const BlHeapCycle *cycles = bl_heap_get_cycles (heap, &n_cycles);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "index");
  json_builder_add_int_value (builder, index);
  json_builder_set_member_name (builder, "objects");
  json_builder_add_int_value (builder, bl_heap_get_n_objects (heap));
  json_builder_set_member_name (builder, "bytes");
  json_builder_add_int_value (builder, (gint64) bl_heap_get_total_bytes (heap));
  json_builder_set_member_name (builder, "leaked_objects");
  json_builder_add_int_value (builder, bl_heap_get_n_leaked (heap));
  json_builder_set_member_name (builder, "leaked_bytes");
  json_builder_add_int_value (builder, (gint64) bl_heap_get_leaked_bytes (heap));

  json_builder_set_member_name (builder, "types");
  json_builder_begin_array (builder);
  for (guint i = 0; i < rows->len; i++)
    {
      const TypeRow *row = &g_array_index (rows, TypeRow, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, bl_heap_get_type_name (heap, row->type));
      json_builder_set_member_name (builder, "count");
      json_builder_add_int_value (builder, (gint64) row->count);
      json_builder_set_member_name (builder, "self_bytes");
      json_builder_add_int_value (builder, (gint64) row->self_bytes);
      json_builder_set_member_name (builder, "retained_bytes");
      json_builder_add_int_value (builder, (gint64) row->retained_bytes);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  largest = bl_heap_top_retained (heap, top, &n_largest);
  json_builder_set_member_name (builder, "largest");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_largest; i++)
    {
      json_builder_begin_object (builder);
      /* the file's own id (a Perfetto object id, a heap snapshot node id) */
      json_builder_set_member_name (builder, "object");
      json_builder_add_int_value (builder, (gint64) bl_heap_get_object_id (heap, largest[i]));
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder,
                                     bl_heap_get_type_name (heap, bl_heap_get_object_type (heap, largest[i])));
      json_builder_set_member_name (builder, "self_bytes");
      json_builder_add_int_value (builder, (gint64) bl_heap_get_self_size (heap, largest[i]));
      json_builder_set_member_name (builder, "retained_bytes");
      json_builder_add_int_value (builder, (gint64) bl_heap_get_retained (heap, largest[i]));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "cycles");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_cycles; i++)
    {
      if (hide_global && cycles[i].through_global)
        continue;
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "pattern");
      json_builder_begin_array (builder);
      for (guint k = 0; k < cycles[i].n_steps; k++)
        {
          json_builder_begin_array (builder);
          json_builder_add_string_value (builder, bl_heap_get_type_name (heap, cycles[i].types[k]));
          json_builder_add_string_value (builder, bl_heap_get_field_name (heap, cycles[i].fields[k]));
          json_builder_end_array (builder);
        }
      json_builder_end_array (builder);
      json_builder_set_member_name (builder, "count");
      json_builder_add_int_value (builder, (gint64) cycles[i].count);
      json_builder_set_member_name (builder, "example");
      json_builder_add_int_value (builder,
                                  (gint64) bl_heap_get_object_id (heap, cycles[i].example));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "cycles_skipped");
  json_builder_add_int_value (builder, (gint64) bl_heap_get_n_cycles_skipped (heap));
  json_builder_end_object (builder);
}

static void
print_snapshot (BlHeap   *heap,
                guint     index,
                guint     top,
                gboolean  hide_global)
{
  g_autoptr(GArray) rows = type_rows (heap);
  g_autofree guint32 *largest = NULL;
  guint n_largest, n_cycles;
  const BlHeapCycle *cycles = bl_heap_get_cycles (heap, &n_cycles);

  printf (_("Heap graph %u: %u objects, %" PRIu64 " bytes; %u leaked objects, %"
            PRIu64 " bytes\n"),
          index, bl_heap_get_n_objects (heap), bl_heap_get_total_bytes (heap),
          bl_heap_get_n_leaked (heap), bl_heap_get_leaked_bytes (heap));
  printf ("  %-32s %10s %14s %14s\n", _("Type"), _("Count"), _("Self bytes"), _("Retained"));
  for (guint i = 0; i < rows->len && i < top; i++)
    {
      const TypeRow *row = &g_array_index (rows, TypeRow, i);

      printf ("  %-32s %10" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT "\n",
              bl_heap_get_type_name (heap, row->type), row->count, row->self_bytes,
              row->retained_bytes);
    }

  largest = bl_heap_top_retained (heap, top, &n_largest);
  printf ("  %s\n", _("Largest objects by retained size:"));
  for (guint i = 0; i < n_largest; i++)
    printf ("    @%-8" G_GUINT64_FORMAT " %-28s %14" G_GUINT64_FORMAT "\n",
            bl_heap_get_object_id (heap, largest[i]),
            bl_heap_get_type_name (heap, bl_heap_get_object_type (heap, largest[i])),
            bl_heap_get_retained (heap, largest[i]));

  printf ("  %s\n", _("Leak cycles:"));
  for (guint i = 0; i < n_cycles; i++)
    {
      g_autoptr(GString) line = g_string_new (NULL);

      if (hide_global && cycles[i].through_global)
        continue;
      for (guint k = 0; k < cycles[i].n_steps && k < 16; k++)
        g_string_append_printf (line, "%s.%s → ", bl_heap_get_type_name (heap, cycles[i].types[k]),
                                bl_heap_get_field_name (heap, cycles[i].fields[k]));
      if (cycles[i].n_steps > 16)
        g_string_append (line, "… → ");
      printf ("    %6" G_GUINT64_FORMAT "× %s\n", cycles[i].count, line->str);
    }
  if (bl_heap_get_n_cycles_skipped (heap) > 0)
    {
      guint64 skipped = bl_heap_get_n_cycles_skipped (heap);
      g_autofree char *text =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%" PRIu64 " more cycle left out: all cycles together have too many steps to list.",
                                      "%" PRIu64 " more cycles left out: all cycles together have too many steps to list.",
                                      skipped > G_MAXULONG ? G_MAXULONG : (gulong) skipped),
                         skipped);

      printf ("    %s\n", text);
    }
}

/* Returns: (transfer none): the profile holding the file's heap
 * snapshots (a Perfetto trace's heap graphs, a heap snapshot), kept alive
 * by @keep, or %NULL with @status set */
static BlProfile *
load_heaps (const char *path,
            int        *status,
            GObject   **keep)
{
  if (!(*keep = bl_cli_load (path, status)))
    return NULL;
  if (!BL_IS_PROFILE (*keep) || bl_profile_get_n_heaps (BL_PROFILE (*keep)) == 0)
    {
      fprintf (stderr, _("brightlens-cli: %s: the file holds no heap graph.\n"), path);
      *status = BL_CLI_INVALID_INPUT;
      return NULL;
    }

  return BL_PROFILE (*keep);
}

/* per type name, grown first: the rule of the Heap page's comparison */
static int
compare_heaps (BlHeap   *a,
               BlHeap   *b,
               gboolean  json)
{
  guint n_rows;
  g_autofree BlHeapTypeDelta *rows = bl_heap_compare_types (a, b, &n_rows);

  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "types");
      json_builder_begin_array (builder);
      for (guint i = 0; i < n_rows; i++)
        {
          const BlHeapTypeDelta *row = &rows[i];
          const char *names[] = { "count_a", "count_b", "bytes_a", "bytes_b" };
          gint64 values[] = { (gint64) row->count[0], (gint64) row->count[1],
                              (gint64) row->bytes[0], (gint64) row->bytes[1] };

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "name");
          json_builder_add_string_value (builder, row->name);
          for (guint k = 0; k < G_N_ELEMENTS (names); k++)
            {
              json_builder_set_member_name (builder, names[k]);
              json_builder_add_int_value (builder, values[k]);
            }
          json_builder_set_member_name (builder, "count_delta");
          json_builder_add_int_value (builder, values[1] - values[0]);
          json_builder_set_member_name (builder, "bytes_delta");
          json_builder_add_int_value (builder, values[3] - values[2]);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_end_object (builder);
      root = json_builder_get_root (builder);
      bl_cli_print_json (root);
      return BL_CLI_OK;
    }

  printf ("%-32s %10s %10s %10s %14s %14s %14s\n", _("Type"), _("Count A"), _("Count B"),
          _("Δ"), _("Bytes A"), _("Bytes B"), _("Δ"));
  for (guint i = 0; i < n_rows; i++)
    {
      gint64 count[2] = { (gint64) rows[i].count[0], (gint64) rows[i].count[1] };
      gint64 bytes[2] = { (gint64) rows[i].bytes[0], (gint64) rows[i].bytes[1] };

      printf ("%-32s %10" G_GINT64_FORMAT " %10" G_GINT64_FORMAT " %+10" G_GINT64_FORMAT
              " %14" G_GINT64_FORMAT " %14" G_GINT64_FORMAT " %+14" G_GINT64_FORMAT "\n",
              rows[i].name, count[0], count[1], count[1] - count[0],
              bytes[0], bytes[1], bytes[1] - bytes[0]);
    }

  return BL_CLI_OK;
}

int
bl_cli_heap (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) loaded_a = NULL;
  g_autoptr(GObject) loaded_b = NULL;
  gboolean json = FALSE;
  gboolean hide_global = FALSE;
  int top = 10;
  int status;
  BlProfile *heaps_a, *heaps_b;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON object"), NULL },
    { "top", 'n', 0, G_OPTION_ARG_INT, &top, N_("How many types and objects to list"), N_("N") },
    { "hide-global", 0, 0, G_OPTION_ARG_NONE, &hide_global,
      N_("Hide leak cycles through $m.global"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("FILE [B] — heap graphs: types, dominators, leaks; or two compared"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return bl_cli_usage_error (context, error->message);
  if (argc != 2 && argc != 3)
    return bl_cli_usage_error (context, _("heap takes one FILE, or two to compare."));
  if (top < 0)
    return bl_cli_usage_error (context, _("--top must not be negative."));

  if (!(heaps_a = load_heaps (argv[1], &status, &loaded_a)))
    return status;

  if (argc == 3)
    {
      /* the first capture of A against the last of B: one trace with two
       * captures compares them when given twice */
      if (!(heaps_b = load_heaps (argv[2], &status, &loaded_b)))
        return status;
      return compare_heaps (bl_profile_get_heap (heaps_a, 0),
                            bl_profile_get_heap (heaps_b, bl_profile_get_n_heaps (heaps_b) - 1), json);
    }

  /* dominators, retained sizes, leaks and cycles: the readers leave them
   * to the first use */
  for (guint i = 0; i < bl_profile_get_n_heaps (heaps_a); i++)
    bl_heap_analyse (bl_profile_get_heap (heaps_a, i), NULL);

  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "snapshots");
      json_builder_begin_array (builder);
      for (guint i = 0; i < bl_profile_get_n_heaps (heaps_a); i++)
        add_snapshot_json (builder, bl_profile_get_heap (heaps_a, i), i + 1, top, hide_global);
      json_builder_end_array (builder);
      json_builder_end_object (builder);
      root = json_builder_get_root (builder);
      bl_cli_print_json (root);
    }
  else
    for (guint i = 0; i < bl_profile_get_n_heaps (heaps_a); i++)
      print_snapshot (bl_profile_get_heap (heaps_a, i), i + 1, top, hide_global);

  return BL_CLI_OK;
}
