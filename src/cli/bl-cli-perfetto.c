/* bl-cli-perfetto.c — what `info` and `export --format csv` add for Perfetto traces
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "brightlens-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bl-cli.h"
#include "bl-perfetto-reader.h"

/**
 * bl_cli_perfetto_add_json:
 *
 * Adds the trace's slices, instants, counter tracks and heap graphs to the
 * object @builder is writing, if @profile was read from a Perfetto trace.
 */
void
bl_cli_perfetto_add_json (JsonBuilder *builder,
                          BlProfile   *profile)
{
  const BlPerfettoTrace *trace = bl_perfetto_get_trace (profile);

  if (trace == NULL)
    return;

  json_builder_set_member_name (builder, "slices");
  json_builder_add_int_value (builder, (gint64) trace->n_slices);
  json_builder_set_member_name (builder, "instants");
  json_builder_add_int_value (builder, (gint64) trace->n_instants);
  json_builder_set_member_name (builder, "counter_tracks");
  json_builder_add_int_value (builder, trace->counters->len);
  json_builder_set_member_name (builder, "heap_graphs");
  json_builder_add_int_value (builder, (gint64) trace->n_heap_graphs);
  json_builder_set_member_name (builder, "flows");
  json_builder_add_int_value (builder, trace->flows->len);
}

void
bl_cli_perfetto_print (BlProfile *profile)
{
  const BlPerfettoTrace *trace = bl_perfetto_get_trace (profile);

  if (trace == NULL)
    return;

  printf (_("Slices:       %" PRIu64 "\n"), trace->n_slices);
  printf (_("Instants:     %" PRIu64 "\n"), trace->n_instants);
  printf (_("Counters:     %u\n"), trace->counters->len);
  for (guint i = 0; i < trace->counters->len; i++)
    {
      const BlPerfettoCounter *counter = g_ptr_array_index (trace->counters, i);

      printf ("              %s (%u)\n", counter->name, counter->points->len);
    }
  printf (_("Heap graphs:  %" PRIu64 "\n"), trace->n_heap_graphs);
}

static void
append_csv_field (GString    *line,
                  const char *text)
{
  if (strpbrk (text, ",\"\n\r") == NULL)
    {
      g_string_append (line, text);
      return;
    }

  g_string_append_c (line, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (line, '"');
      g_string_append_c (line, *p);
    }
  g_string_append_c (line, '"');
}

/**
 * bl_cli_perfetto_export_csv:
 *
 * Writes the trace's counter tracks as "track,unit,ts_ns,value" rows, each
 * track's values in time order, tracks in the order the trace defines them.
 *
 * Returns: an exit status
 */
int
bl_cli_perfetto_export_csv (BlProfile  *profile,
                            const char *path,
                            const char *output)
{
  const BlPerfettoTrace *trace = bl_perfetto_get_trace (profile);
  g_autoptr(GOutputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) line = g_string_new (NULL);

  g_return_val_if_fail (trace != NULL, BL_CLI_INVALID_INPUT);

  if (!(out = bl_cli_open_output (output, &error)))
    goto fail;

  g_string_append (line, "track,unit,ts_ns,value\n");
  for (guint i = 0; i < trace->counters->len; i++)
    {
      const BlPerfettoCounter *counter = g_ptr_array_index (trace->counters, i);

      for (guint k = 0; k < counter->points->len; k++)
        {
          const BlPerfettoPoint *point = &g_array_index (counter->points, BlPerfettoPoint, k);
          char value[G_ASCII_DTOSTR_BUF_SIZE];

          append_csv_field (line, counter->name);
          g_string_append_c (line, ',');
          append_csv_field (line, counter->unit);
          g_string_append_printf (line, ",%" G_GUINT64_FORMAT ",%s\n", point->ts,
                                  g_ascii_formatd (value, sizeof value, "%.15g", point->value));
          if (line->len >= 64 * 1024 &&
              !g_output_stream_write_all (out, line->str, line->len, NULL, NULL, &error))
            goto fail;
          if (line->len >= 64 * 1024)
            g_string_truncate (line, 0);
        }
    }

  if (!g_output_stream_write_all (out, line->str, line->len, NULL, NULL, &error) ||
      !bl_cli_close_output (out, &error))
    goto fail;

  return BL_CLI_OK;

fail:
  fprintf (stderr, "brightlens-cli: %s: %s\n", path, error->message);
  return BL_CLI_INVALID_INPUT;
}
