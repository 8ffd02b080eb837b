/* bl-transform.h — call-tree transforms: a profile in, a new profile out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_TRANSFORM_ERROR (bl_transform_error_quark ())

typedef enum
{
  BL_TRANSFORM_ERROR_UNKNOWN_KIND,  /* a preset or option names no transform */
  BL_TRANSFORM_ERROR_BAD_ARGUMENT,  /* missing, empty or superfluous argument */
  BL_TRANSFORM_ERROR_NO_MATCH,      /* the function, path or pattern is nowhere */
} BlTransformError;

/* What a transform does. Functions are matched by name (every file);
 * patterns are globs (`*` and `?`) on a frame's name or its file. */
typedef enum
{
  BL_TRANSFORM_MERGE_FUNCTION,      /* its self goes to the caller, its callees move up */
  BL_TRANSFORM_FOCUS_FUNCTION,      /* every outermost call of it becomes a root */
  BL_TRANSFORM_FOCUS_PATH,          /* one node path ("thread;a;b") becomes the root */
  BL_TRANSFORM_COLLAPSE_RECURSION,  /* a function below itself joins the outer call */
  BL_TRANSFORM_DROP_FUNCTION,       /* it and everything it called are gone */
  BL_TRANSFORM_HIDE,                /* frames whose name or file match merge away */
  BL_TRANSFORM_MERGE_THREADS,       /* threads whose names differ by an instance number */
  BL_TRANSFORM_MERGE_ALL_THREADS,   /* every thread into one */
  BL_N_TRANSFORM_KINDS
} BlTransformKind;

#define BL_TYPE_TRANSFORM (bl_transform_get_type ())

/* One step: a kind and its argument (a function name, a path, a pattern;
 * NULL for the kinds that take none). Immutable. */
typedef struct _BlTransform BlTransform;

/* The thread that merging all threads makes */
#define BL_TRANSFORM_ALL_THREADS_NAME "all threads"

GQuark              bl_transform_error_quark      (void);
GType               bl_transform_get_type         (void) G_GNUC_CONST;
BlTransform        *bl_transform_new              (BlTransformKind    kind,
                                                   const char        *argument,
                                                   GError           **error);
BlTransform        *bl_transform_ref              (BlTransform       *self);
void                bl_transform_unref            (BlTransform       *self);
BlTransformKind     bl_transform_get_kind         (const BlTransform *self);
const char         *bl_transform_get_argument     (const BlTransform *self);
gboolean            bl_transform_equal            (const BlTransform *a,
                                                   const BlTransform *b);

/* "merge:NAME", "hide:PATTERN", "collapse-recursion", … (the kind's name as
 * in bl_transform_kind_get_name(), a colon and the argument), as presets
 * store them; bl_transform_parse() reads it back. */
char               *bl_transform_to_string        (const BlTransform *self);
BlTransform        *bl_transform_parse            (const char        *text,
                                                   GError           **error);
const char         *bl_transform_kind_get_name    (BlTransformKind    kind);
gboolean            bl_transform_kind_takes_argument (BlTransformKind kind);

/* The name a thread keeps when threads are merged by name: without a
 * trailing instance number ("RowItem_12", "RowItem 3", "RowItem (4)",
 * "RowItem#5", "RowItem[6]", "RowItem7" all give "RowItem"). Free with
 * g_free(). */
char               *bl_transform_dup_thread_base_name (const char    *name);

/* Whether the transform's function, path or pattern is anywhere in
 * @profile; FALSE with BL_TRANSFORM_ERROR_NO_MATCH and a sentence if not
 * (applying it anyway is allowed: a focus then leaves an empty tree). */
gboolean            bl_transform_check            (const BlTransform *self,
                                                   BlProfile         *profile,
                                                   GError           **error);

/* Applies @self to a finished @profile and returns a new finished profile
 * (the input is not changed): every metric, the per-line records, the
 * sample order and the spans follow the transformed tree. Returns NULL
 * only when @cancellable is cancelled. */
BlProfile          *bl_transform_apply            (const BlTransform *self,
                                                   BlProfile         *profile,
                                                   GCancellable      *cancellable,
                                                   GError           **error);

/* Applies each transform of @transforms (BlTransform *) in order. With
 * none, returns a new reference to @profile. */
BlProfile          *bl_transform_apply_all        (GPtrArray         *transforms,
                                                   BlProfile         *profile,
                                                   GCancellable      *cancellable,
                                                   GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlTransform, bl_transform_unref)

G_END_DECLS
