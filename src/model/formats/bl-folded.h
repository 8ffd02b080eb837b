/* bl-folded.h — folded stacks ("a;b;c 123"), as flamegraph.pl and inferno use
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-format.h"
#include "bl-profile.h"

G_BEGIN_DECLS

#define BL_FOLDED_ERROR (bl_folded_error_quark ())

typedef enum
{
  BL_FOLDED_ERROR_BAD_LINE,
  BL_FOLDED_ERROR_BAD_COUNT,
  BL_FOLDED_ERROR_NO_STACKS,
} BlFoldedError;

GQuark    bl_folded_error_quark (void);
gboolean  bl_folded_detect      (const guint8   *head,
                                 gsize           len,
                                 gboolean        is_whole_file);
BlProfile *bl_folded_read_stream (GInputStream  *stream,
                                  guint64        total,
                                  BlProgressFunc progress,
                                  gpointer       progress_data,
                                  GCancellable  *cancellable,
                                  GError       **error);
BlProfile *bl_folded_read_memory (const guint8  *data,
                                  gsize          len,
                                  GError       **error);

/* How bl_folded_walk() sees a call tree: names, first child, next sibling
 * (BL_NODE_NONE ends a list). */
typedef struct
{
  gpointer      data;
  const char *(*get_name)     (gpointer data,
                               guint32  node);
  guint32     (*first_child)  (gpointer data,
                               guint32  node);
  guint32     (*next_sibling) (gpointer data,
                               guint32  node);
} BlFoldedTree;

typedef gboolean (*BlFoldedEmitFunc) (const char     *stack,
                                      gsize           len,
                                      const guint32  *nodes,
                                      guint           n_nodes,
                                      gpointer        user_data,
                                      GError        **error);

gboolean bl_folded_walk  (const BlFoldedTree *tree,
                          const guint32      *roots,
                          guint               n_roots,
                          BlFoldedEmitFunc    emit,
                          gpointer            user_data,
                          GError            **error);

gboolean bl_folded_write (BlProfile      *profile,
                          BlMetricId      metric,
                          GOutputStream  *out,
                          GCancellable   *cancellable,
                          GError        **error);

G_END_DECLS
