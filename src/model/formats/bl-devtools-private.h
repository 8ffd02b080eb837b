/* bl-devtools-private.h — what the Chrome DevTools readers share
 *
 * The CPU profile (.cpuprofile) and the sampling heap profile
 * (.heapprofile) describe functions by the same call frames
 * ({functionName, url, lineNumber, columnNumber}, lines and columns from
 * 0). Both readers turn them into BlProfile frames, named as speedscope
 * names them, and merge frames that agree on name, url, line and column.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-json-reader.h"
#include "bl-profile.h"

G_BEGIN_DECLS

/* The nesting a DevTools document may reach: its node trees (the heap
 * profile's head, the old CPU profile's head) nest three JSON levels per
 * call, and JavaScript stacks are thousands of calls deep at most. */
#define BL_DEVTOOLS_MAX_DEPTH (3 * 16384 + 16)

#define BL_DEVTOOLS_NO_NUMBER G_MININT64

/* The one thread of a DevTools profile, as the DevTools name it */
#define BL_DEVTOOLS_THREAD_NAME "Main"

typedef struct
{
  char   *function_name;   /* NULL: absent */
  char   *url;             /* NULL: absent */
  gint64  line;            /* as in the file (0-based), or BL_DEVTOOLS_NO_NUMBER */
  gint64  col;
} BlDevtoolsCallFrame;

typedef struct
{
  BlProfile *profile;
  guint32   *slots;          /* frame + 1; 0 is empty */
  gsize      mask;
  guint      n;
} BlDevtoolsFrames;

void     _bl_devtools_call_frame_clear  (BlDevtoolsCallFrame *cf);
/* Reads the value of the member @name just read, if it is a call frame's
 * (functionName, url, lineNumber, columnNumber): TRUE with *@handled set.
 * Other members are left alone (*@handled FALSE). FALSE with @error set on
 * a value of the wrong type (@what names the format in the message). */
gboolean _bl_devtools_call_frame_member (BlJsonReader        *json,
                                         BlDevtoolsCallFrame *cf,
                                         const char          *name,
                                         gboolean            *handled,
                                         GQuark               domain,
                                         gint                 code,
                                         const char          *what,
                                         GError             **error);

void     _bl_devtools_frames_init       (BlDevtoolsFrames    *frames,
                                         BlProfile           *profile);
void     _bl_devtools_frames_clear      (BlDevtoolsFrames    *frames);
/* The frame of @cf, named as speedscope names it: the function's name, or
 * "(anonymous FILE:LINE)" after the url's last path element, or
 * "(anonymous)"; LINE is the line as in the file plus @line_offset
 * (speedscope adds 1 for CPU profiles and nothing for heap profiles).
 * The frame's line and column are 1-based (0: unknown). */
guint32  _bl_devtools_frames_add        (BlDevtoolsFrames    *frames,
                                         const BlDevtoolsCallFrame *cf,
                                         gint                 line_offset);

/* Node ids. Chrome's are small counts, but speedscope takes any number
 * as an id (a Map key), so every number is one here too: counts below
 * 2^31 stand for themselves, and any other number (negative, fractional,
 * huge) gets a synthetic id of 2^31 and up, the same for the same number.
 * BL_DEVTOOLS_NO_ID names nothing. A map from ids to indexes, the last
 * inserted winning. */
#define BL_DEVTOOLS_NO_ID G_MAXUINT32
#define BL_DEVTOOLS_MAX_PLAIN_ID G_MAXINT32

typedef struct
{
  GHashTable *others;   /* the bits of a double → synthetic id */
} BlDevtoolsIds;

typedef struct
{
  guint32 *keys;
  guint32 *values;
  gsize    mask;
} BlDevtoolsIdMap;

void     _bl_devtools_ids_init          (BlDevtoolsIds       *ids);
void     _bl_devtools_ids_clear         (BlDevtoolsIds       *ids);
/* The id of the NUMBER token at @json */
guint32  _bl_devtools_ids_get           (BlDevtoolsIds       *ids,
                                         BlJsonReader        *json);
/* The id of @value (a number of the file, read some other way) */
guint32  _bl_devtools_ids_get_double    (BlDevtoolsIds       *ids,
                                         double               value);
void     _bl_devtools_id_map_init       (BlDevtoolsIdMap     *map,
                                         guint                n_max);
void     _bl_devtools_id_map_insert     (BlDevtoolsIdMap     *map,
                                         guint32              id,
                                         guint32              value);
/* G_MAXUINT32 when @id is not in the map */
guint32  _bl_devtools_id_map_lookup     (const BlDevtoolsIdMap *map,
                                         guint32              id);
void     _bl_devtools_id_map_clear      (BlDevtoolsIdMap     *map);

G_END_DECLS
