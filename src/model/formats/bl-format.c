/* bl-format.c — recognising a file by its content, and loading it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-format"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "bl-br-reader.h"
#include "bl-bsprof-reader.h"
#include "bl-folded.h"
#include "bl-format.h"
#include "bl-mpatrol-reader.h"
#include "bl-speedscope-reader.h"
#include "bl-rrm-reader.h"

G_DEFINE_QUARK (bl-format-error-quark, bl_format_error)

const char *
bl_format_kind_get_name (BlFormatKind kind)
{
  switch (kind)
    {
    case BL_FORMAT_BSPROF:
      return "bsprof";
    case BL_FORMAT_RRM:
      return "rrm";
    case BL_FORMAT_SPEEDSCOPE:
      return "speedscope";
    case BL_FORMAT_MPATROL:
      return "mpatrol";
    case BL_FORMAT_BR:
      return "br";
    case BL_FORMAT_FOLDED:
      return "folded";
    case BL_FORMAT_UNKNOWN:
    default:
      return "unknown";
    }
}

/**
 * bl_format_detect:
 * @head: the first bytes of the file (up to %BL_FORMAT_SNIFF_SIZE)
 * @is_whole_file: whether @head holds the whole file
 *
 * Recognises a format by content alone, never by file name.
 */
BlFormatKind
bl_format_detect (const guint8 *head,
                  gsize         len,
                  gboolean      is_whole_file)
{
  if (len >= BL_BSPROF_MAGIC_LEN && memcmp (head, BL_BSPROF_MAGIC, BL_BSPROF_MAGIC_LEN) == 0)
    return BL_FORMAT_BSPROF;

  if (bl_mpatrol_detect (head, len))
    return BL_FORMAT_MPATROL;

  if (bl_rrm_detect (head, len))
    return BL_FORMAT_RRM;

  if (bl_speedscope_detect (head, len))
    return BL_FORMAT_SPEEDSCOPE;

  /* text formats after every format with a signature */
  if (bl_folded_detect (head, len, is_whole_file))
    return BL_FORMAT_FOLDED;

  /* no signature: last, and only if the records parse */
  if (bl_br_detect (head, len, is_whole_file))
    return BL_FORMAT_BR;

  return BL_FORMAT_UNKNOWN;
}

static gboolean
looks_like_text (const guint8 *head,
                 gsize         len)
{
  gsize checked = len;

  /* do not reject a multi-byte character cut at the end of the sniff buffer */
  if (checked > 4)
    checked -= 4;

  for (gsize i = 0; i < checked; i++)
    if (head[i] == 0)
      return FALSE;

  return g_utf8_validate ((const char *) head, checked, NULL);
}

static void
set_unknown_error (const guint8  *head,
                   gsize          len,
                   GError       **error)
{
  gsize i = 0;

  while (i < len && g_ascii_isspace (head[i]))
    i++;

  if (len == 0)
    g_set_error_literal (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_EMPTY,
                         _("The file is empty."));
  else if (i < len && (head[i] == '{' || head[i] == '[') && looks_like_text (head, len))
    g_set_error_literal (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_UNKNOWN,
                         _("This is a JSON file, but not a Roku Resource Monitor session "
                           "or a speedscope profile."));
  else if (looks_like_text (head, len))
    g_set_error_literal (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_UNKNOWN,
                         _("This is a text file, but not in a profile format Brightlens "
                           "knows (folded stacks need lines like “main;load;parse 42”)."));
  else
    g_set_error_literal (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_UNKNOWN,
                         _("This is a binary file in no format Brightlens knows: it is "
                           "not a BrightScript profile, an mpatrol profile or a Business "
                           "Rules! profile."));
}

/**
 * bl_format_load_stream:
 * @stream: a seekable stream positioned at the start of the input
 * @total: the input size for progress, or 0
 *
 * Sniffs the format and reads the input with its reader, in the calling
 * thread (the loader runs this in a worker).
 *
 * Returns: (transfer full): a #BlProfile or a #BlSession, or %NULL with @error set
 */
GObject *
bl_format_load_stream (GInputStream   *stream,
                       guint64         total,
                       BlProgressFunc  progress,
                       gpointer        progress_data,
                       GCancellable   *cancellable,
                       GError        **error)
{
  guint8 head[BL_FORMAT_SNIFF_SIZE];
  gsize len = 0;
  BlFormatKind kind;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);

  if (!g_input_stream_read_all (stream, head, sizeof head, &len, cancellable, error))
    return NULL;

  kind = bl_format_detect (head, len, len < sizeof head);

  if (kind == BL_FORMAT_UNKNOWN)
    {
      set_unknown_error (head, len, error);
      return NULL;
    }

  if (!G_IS_SEEKABLE (stream) ||
      !g_seekable_seek (G_SEEKABLE (stream), 0, G_SEEK_SET, cancellable, error))
    {
      if (error != NULL && *error == NULL)
        g_set_error_literal (error, BL_FORMAT_ERROR, BL_FORMAT_ERROR_UNSUPPORTED,
                             _("The input cannot be read twice (it is not seekable)."));
      return NULL;
    }

  switch (kind)
    {
    case BL_FORMAT_BSPROF:
      return (GObject *) bl_bsprof_read_stream (stream, total, progress, progress_data,
                                                cancellable, NULL, error);
    case BL_FORMAT_MPATROL:
      return (GObject *) bl_mpatrol_read_stream (stream, total, progress, progress_data,
                                                 cancellable, error);
    case BL_FORMAT_SPEEDSCOPE:
      return (GObject *) bl_speedscope_read_stream (stream, total, progress, progress_data,
                                                    cancellable, error);
    case BL_FORMAT_FOLDED:
      return (GObject *) bl_folded_read_stream (stream, total, progress, progress_data,
                                                cancellable, error);
    case BL_FORMAT_BR:
      {
        GError *local_error = NULL;
        BlProfile *profile = bl_br_read_stream (stream, total, progress, progress_data,
                                                cancellable, &local_error);

        /* without a signature, a file whose records stop parsing is not one */
        if (profile == NULL && local_error->domain == BL_BR_ERROR)
          {
            g_error_free (local_error);
            set_unknown_error (head, len, error);
            return NULL;
          }
        if (profile == NULL)
          g_propagate_error (error, local_error);
        return (GObject *) profile;
      }
    case BL_FORMAT_RRM:
      return (GObject *) bl_rrm_read_stream (stream, total, progress, progress_data,
                                             cancellable, error);
    case BL_FORMAT_UNKNOWN:
    default:
      set_unknown_error (head, len, error);
      return NULL;
    }
}

/**
 * bl_format_load_file:
 *
 * Opens @file read-only and loads it (see bl_format_load_stream()).
 *
 * Returns: (transfer full): a #BlProfile or a #BlSession, or %NULL with @error set
 */
GObject *
bl_format_load_file (GFile          *file,
                     BlProgressFunc  progress,
                     gpointer        progress_data,
                     GCancellable   *cancellable,
                     GError        **error)
{
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GFileInfo) info = NULL;
  guint64 total = 0;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  if (!(stream = g_file_read (file, cancellable, error)))
    return NULL;

  info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                         cancellable, NULL);
  if (info != NULL && g_file_info_has_attribute (info, G_FILE_ATTRIBUTE_STANDARD_SIZE))
    total = g_file_info_get_size (info);
  /* readers that name things after the file (speedscope's unnamed profiles) */
  g_object_set_data_full (G_OBJECT (stream), BL_FORMAT_FILE_NAME_KEY, g_file_get_basename (file),
                          g_free);

  return bl_format_load_stream (G_INPUT_STREAM (stream), total, progress, progress_data,
                                cancellable, error);
}

/**
 * bl_format_load_bytes:
 *
 * Returns: (transfer full): a #BlProfile or a #BlSession, or %NULL with @error set
 */
GObject *
bl_format_load_bytes (GBytes  *bytes,
                      GError **error)
{
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_bytes (bytes);

  return bl_format_load_stream (stream, g_bytes_get_size (bytes), NULL, NULL, NULL, error);
}
