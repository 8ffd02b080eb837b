/* bl-profile-private.h — BlProfile internals shared with bl-transform.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-profile.h"

G_BEGIN_DECLS

guint32             _bl_profile_append_child     (BlProfile     *self,
                                                  guint32        parent,
                                                  guint32        frame,
                                                  guint32        name,
                                                  guint32        file,
                                                  guint32        line);
void                _bl_profile_index_children   (BlProfile     *self,
                                                  guint32        parent);
/* A deep copy of a profile still being built (strings, nodes, threads,
 * lines, metric values, info, warnings), itself unfinished, for a reader
 * that hands out snapshots while it goes on (the .bsprof follower). Time
 * and memory in the size of the tree, not of the input. Profiles with
 * extras (histogram, time order, frames, heaps) are not copied whole:
 * the copy has none. */
BlProfile          *_bl_profile_copy_unfinished  (BlProfile     *self);

void                _bl_profile_reserve_nodes    (BlProfile     *self,
                                                  gsize          n_nodes);
/* Sizes the index of the nodes (and the nodes) for @n_nodes in all, for a
 * builder that knows how many it will add at most. */
void                _bl_profile_reserve_node_index (BlProfile   *self,
                                                  gsize          n_nodes);
/* Frees the index of the nodes, for a builder that adds no node any more
 * before bl_profile_finish() (which frees it anyway). */
void                _bl_profile_drop_node_index  (BlProfile     *self);
guint64            *_bl_profile_get_self_mutable (BlProfile    *self,
                                                  BlMetricId     metric);
void                _bl_profile_finish_from      (BlProfile     *self,
                                                  const guint32 *keys,
                                                  guint          n_keys,
                                                  const guint8  *outermost,
                                                  const guint8  *in_order);
const guint32      *_bl_profile_get_node_functions (BlProfile  *self);
const guint8       *_bl_profile_get_outermost    (BlProfile     *self);
BlNode             *_bl_profile_get_nodes_mutable (BlProfile   *self);
/* @n spans more at the end of @thread's time order, returned for the
 * caller to fill in (valid until the next span of that thread is added);
 * *@first is the index of the first. */
BlSpan             *_bl_profile_append_spans     (BlProfile     *self,
                                                  guint          thread,
                                                  gsize          n,
                                                  guint         *first);
/* Sets the duration of a span returned by _bl_profile_append_spans()
 * whose duration is BL_SPAN_LONG or more (any other is written there). */
void                _bl_profile_set_span_duration (BlProfile    *self,
                                                  guint          thread,
                                                  guint          span,
                                                  guint64        duration);
guint32             _bl_profile_append_line      (BlProfile     *self,
                                                  guint32        file,
                                                  guint32        line,
                                                  guint32        function);

G_END_DECLS
