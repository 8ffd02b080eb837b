/* bl-format.h — recognising input files and dispatching to their reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef void (*BlProgressFunc) (guint64  done,
                                guint64  total,
                                gpointer user_data);

typedef enum
{
  BL_FORMAT_UNKNOWN,
  BL_FORMAT_BSPROF,
  BL_FORMAT_RRM,
  BL_FORMAT_SPEEDSCOPE,
  BL_FORMAT_MPATROL,
  BL_FORMAT_BR,
  BL_FORMAT_FOLDED,
  BL_FORMAT_PERFETTO,
  BL_FORMAT_CPUPROFILE,
  BL_FORMAT_HEAPPROFILE,
  BL_FORMAT_HEAPSNAPSHOT,
} BlFormatKind;

#define BL_FORMAT_ERROR (bl_format_error_quark ())

typedef enum
{
  BL_FORMAT_ERROR_EMPTY,
  BL_FORMAT_ERROR_UNKNOWN,
  BL_FORMAT_ERROR_UNSUPPORTED,
  BL_FORMAT_ERROR_COMPRESSION,
} BlFormatError;

/* bl_format_load_file() sets this data on the stream it reads: the file's
 * base name (a string) */
#define BL_FORMAT_FILE_NAME_KEY "bl-format-file-name"

/* How many leading bytes bl_format_detect() wants to see. */
#define BL_FORMAT_SNIFF_SIZE 4096

GQuark        bl_format_error_quark (void);
const char   *bl_format_kind_get_name (BlFormatKind  kind);
BlFormatKind  bl_format_detect      (const guint8  *head,
                                     gsize          len,
                                     gboolean       is_whole_file);
GObject      *bl_format_load_file   (GFile         *file,
                                     BlProgressFunc progress,
                                     gpointer       progress_data,
                                     GCancellable  *cancellable,
                                     GError       **error);
GObject      *bl_format_load_stream (GInputStream  *stream,
                                     guint64        total,
                                     BlProgressFunc progress,
                                     gpointer       progress_data,
                                     GCancellable  *cancellable,
                                     GError       **error);
GObject      *bl_format_load_bytes  (GBytes        *bytes,
                                     GError       **error);

G_END_DECLS
