/* bl-cli-recording.c — brightlens-cli info RECORDING [--json]
 *
 * A recording's folder (or its recording.json): the device, the app, when
 * and how long, how it ended, the marks, and each stream's figures.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "brightlens-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <stdio.h>

#include "bl-cli.h"
#include "bl-json-text.h"

static gint64
stream_size (BlRecording       *recording,
             BlRecordingStream  stream)
{
  g_autoptr(GFile) file = bl_recording_dup_stream_file (recording, stream);
  g_autoptr(GFileInfo) info = NULL;

  if (file == NULL)
    return -1;
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                            G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);

  return info != NULL ? g_file_info_get_size (info) : -1;
}

static const char *
end_text (const BlRecordingInfo *info)
{
  switch (info->end)
    {
    case BL_RECORDING_END_STOPPED:
      return _("stopped");
    case BL_RECORDING_END_DURATION:
      return _("the chosen duration ran out");
    case BL_RECORDING_END_DEVICE_LOST:
      return _("the device was lost");
    case BL_RECORDING_END_RECORDING:
    default:
      return _("not finished (still recording, or cut off)");
    }
}

static const char *
mark_text (BlRecordingMarkKind kind)
{
  switch (kind)
    {
    case BL_RECORDING_MARK_PAUSE:
      return _("pause");
    case BL_RECORDING_MARK_RESUME:
      return _("resume");
    case BL_RECORDING_MARK_STATUS:
      return _("status");
    case BL_RECORDING_MARK_HEAP_GRAPH:
      return _("heap graph");
    case BL_RECORDING_N_MARK_KINDS:
    default:
      return "";
    }
}

static void
add_int (JsonBuilder *builder,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

static void
session_to_json (JsonBuilder *builder,
                 BlSession   *session)
{
  const BlSessionSummary *summary = bl_session_get_summary (session);
  guint n_samples = 0;

  bl_session_get_series (session, BL_SERIES_MEMORY_USED, &n_samples);
  json_builder_begin_object (builder);
  add_int (builder, "polls", n_samples);
  add_int (builder, "start_ms", summary->start_ms);
  add_int (builder, "end_ms", summary->end_ms);
  json_builder_set_member_name (builder, "peak_memory");
  if (summary->peak_memory == summary->peak_memory)
    json_builder_add_double_value (builder, summary->peak_memory);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "incomplete");
  json_builder_add_boolean_value (builder, bl_session_is_incomplete (session));
  json_builder_end_object (builder);
}

static JsonNode *
recording_to_json (BlRecording *recording)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  const BlRecordingInfo *info = bl_recording_get_info (recording);
  const BlRecordingMark *marks;
  guint n_marks;

  json_builder_begin_object (builder);
  bl_json_add_string (builder, "format", BL_RECORDING_FORMAT_ID);
  add_int (builder, "version", info->version);

  json_builder_set_member_name (builder, "device");
  json_builder_begin_object (builder);
  bl_json_add_string (builder, "name", info->device_name);
  bl_json_add_string (builder, "model", info->device_model);
  bl_json_add_string (builder, "os_version", info->device_os_version);
  bl_json_add_string (builder, "serial", info->device_serial);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "app");
  json_builder_begin_object (builder);
  bl_json_add_string (builder, "id", info->app_id);
  bl_json_add_string (builder, "name", info->app_name);
  bl_json_add_string (builder, "version", info->app_version);
  json_builder_end_object (builder);

  bl_json_add_string (builder, "start_time", info->start_time);
  add_int (builder, "duration_us", info->duration_us);
  bl_json_add_string (builder, "state", bl_recording_end_get_name (info->end));
  bl_json_add_string (builder, "message", info->end_message);

  json_builder_set_member_name (builder, "marks");
  json_builder_begin_array (builder);
  marks = bl_recording_get_marks (recording, &n_marks);
  for (guint i = 0; i < n_marks; i++)
    {
      json_builder_begin_object (builder);
      add_int (builder, "time_us", marks[i].time_us);
      bl_json_add_string (builder, "kind", bl_recording_mark_kind_get_name (marks[i].kind));
      bl_json_add_string (builder, "text", marks[i].text);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "streams");
  json_builder_begin_object (builder);
  for (guint s = 0; s < BL_RECORDING_N_STREAMS; s++)
    {
      gint64 first = bl_recording_get_stream_first_byte (recording, s);
      gint64 offset;

      json_builder_set_member_name (builder, bl_recording_stream_get_name (s));
      json_builder_begin_object (builder);
      bl_json_add_string (builder, "file", bl_recording_stream_get_file_name (s));
      json_builder_set_member_name (builder, "recorded");
      json_builder_add_boolean_value (builder, bl_recording_has_stream (recording, s));
      bl_json_add_string (builder, "error", bl_recording_get_stream_error (recording, s));
      json_builder_set_member_name (builder, "bytes");
      if (stream_size (recording, s) >= 0)
        json_builder_add_int_value (builder, stream_size (recording, s));
      else
        json_builder_add_null_value (builder);
      json_builder_set_member_name (builder, "first_byte_us");
      if (first >= 0)
        json_builder_add_int_value (builder, first);
      else
        json_builder_add_null_value (builder);
      json_builder_set_member_name (builder, "offset_us");
      if (bl_recording_get_stream_offset (recording, s, &offset))
        json_builder_add_int_value (builder, offset);
      else
        json_builder_add_null_value (builder);

      json_builder_set_member_name (builder, "contents");
      if (s == BL_RECORDING_STREAM_SESSION && bl_recording_get_session (recording) != NULL)
        session_to_json (builder, bl_recording_get_session (recording));
      else if (s == BL_RECORDING_STREAM_PROFILE && bl_recording_get_profile (recording) != NULL)
        json_builder_add_value (builder,
                                bl_cli_profile_to_json (bl_recording_get_profile (recording)));
      else if (s == BL_RECORDING_STREAM_TRACE && bl_recording_get_trace (recording) != NULL)
        json_builder_add_value (builder,
                                bl_cli_profile_to_json (bl_recording_get_trace (recording)));
      else
        json_builder_add_null_value (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);

  bl_json_add_string (builder, "warning", bl_recording_get_warning (recording));
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static void
print_profile_line (BlProfile *profile)
{
  BlMetricId metric = bl_profile_get_default_metric (profile);
  g_autofree char *total = bl_profile_format_value (profile, metric,
                                                    bl_profile_get_grand_total (profile,
                                                                                metric));
  const BlMetricInfo *mi = bl_metric_get_info (metric);

  /* Translators: call paths, then a metric's name and its total */
  printf (_("              %u call paths, %s %s\n"),
          bl_profile_get_n_nodes (profile) - bl_profile_get_n_threads (profile),
          g_dgettext (GETTEXT_PACKAGE, mi->display_name), total);
  if (bl_profile_is_incomplete (profile))
    printf ("              %s\n", bl_profile_get_incomplete_reason (profile));
}

static void
print_recording (BlRecording *recording,
                 const char  *path)
{
  const BlRecordingInfo *info = bl_recording_get_info (recording);
  const BlRecordingMark *marks;
  g_autofree char *duration = bl_format_duration_us ((guint64) info->duration_us);
  g_autofree char *folder = g_file_get_parse_name (bl_recording_get_folder (recording));
  static const char *const labels[] = {
    N_("Profile:"), N_("Resources:"), N_("Trace:"),
  };
  guint n_marks;

  printf (_("Recording:    %s\n"), folder);
  printf (_("Device:       %s (%s), software %s, serial %s\n"),
          info->device_name ? info->device_name : "?",
          info->device_model ? info->device_model : "?",
          info->device_os_version ? info->device_os_version : "?",
          info->device_serial ? info->device_serial : "?");
  printf (_("App:          %s %s (%s)\n"),
          info->app_name ? info->app_name : "?", info->app_version ? info->app_version : "",
          info->app_id ? info->app_id : "?");
  printf (_("Started:      %s\n"), info->start_time ? info->start_time : _("unknown"));
  printf (_("Duration:     %s\n"), duration);
  printf (_("Ended:        %s\n"), end_text (info));
  if (info->end_message != NULL)
    printf ("              %s\n", info->end_message);

  marks = bl_recording_get_marks (recording, &n_marks);
  printf (_("Marks:        %u\n"), n_marks);
  for (guint i = 0; i < n_marks; i++)
    {
      g_autofree char *at = bl_format_duration_us ((guint64) MAX (marks[i].time_us, 0));

      printf ("              %s %s%s%s\n", at, mark_text (marks[i].kind),
              marks[i].text[0] != '\0' ? ": " : "", marks[i].text);
    }

  for (guint s = 0; s < BL_RECORDING_N_STREAMS; s++)
    {
      const char *error = bl_recording_get_stream_error (recording, s);
      g_autofree char *what = NULL;

      if (error != NULL)
        what = g_strdup (error);
      else
        /* Translators: a file name and its size */
        what = g_strdup_printf (_("%s, %" PRId64 " bytes"), bl_recording_stream_get_file_name (s),
                                (int64_t) stream_size (recording, s));
      printf ("%-14s%s\n", g_dgettext (GETTEXT_PACKAGE, labels[s]), what);

      if (s == BL_RECORDING_STREAM_PROFILE && bl_recording_get_profile (recording) != NULL)
        print_profile_line (bl_recording_get_profile (recording));
      else if (s == BL_RECORDING_STREAM_TRACE && bl_recording_get_trace (recording) != NULL)
        print_profile_line (bl_recording_get_trace (recording));
      else if (s == BL_RECORDING_STREAM_SESSION && bl_recording_get_session (recording) != NULL)
        {
          BlSession *session = bl_recording_get_session (recording);
          const BlSessionSummary *summary = bl_session_get_summary (session);
          g_autofree char *peak = bl_series_format_value (BL_SERIES_MEMORY_USED,
                                                          summary->peak_memory);
          guint n = 0;

          bl_session_get_series (session, BL_SERIES_MEMORY_USED, &n);
          printf (_("              %u polls, memory peak %s\n"), n, peak);
        }
    }

  if (bl_recording_get_warning (recording) != NULL)
    fprintf (stderr, _("brightlens-cli: warning: %s: %s\n"), path,
             bl_recording_get_warning (recording));
}

/**
 * bl_cli_recording_info:
 *
 * `brightlens-cli info RECORDING [--json]` once the recording is loaded.
 */
int
bl_cli_recording_info (BlRecording *recording,
                       const char  *path,
                       gboolean     json)
{
  if (json)
    {
      g_autoptr(JsonNode) node = recording_to_json (recording);

      bl_cli_print_json (node);
    }
  else
    print_recording (recording, path);

  return BL_CLI_OK;
}
