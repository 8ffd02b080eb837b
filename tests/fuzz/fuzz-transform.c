/* fuzz-transform.c — libFuzzer target for the call-tree transforms
 *
 * Reads the bytes as folded stacks and applies every transform kind, with
 * functions, paths and patterns taken from the profile itself, alone and
 * composed. Checks what must hold whatever the tree: merges, hides,
 * recursion collapses and thread merges keep the grand total; drops and
 * focuses never add to it; after collapsing recursion no function lies
 * below itself.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-model.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

static BlProfile *
apply (BlProfile       *profile,
       BlTransformKind  kind,
       const char      *argument)
{
  g_autoptr(BlTransform) t = bl_transform_new (kind, argument, NULL);
  g_autoptr(GError) error = NULL;
  BlProfile *result;

  if (t == NULL)
    return NULL;
  (void) bl_transform_check (t, profile, NULL);
  result = bl_transform_apply (t, profile, NULL, &error);
  g_assert (result != NULL && error == NULL);
  g_assert (bl_profile_is_finished (result));

  return result;
}

static void
check_kind (BlProfile       *profile,
            BlTransformKind  kind,
            const char      *argument)
{
  g_autoptr(BlProfile) result = apply (profile, kind, argument);
  guint64 before = bl_profile_get_grand_total (profile, BL_METRIC_SAMPLES);
  guint64 after;

  if (result == NULL)
    return;
  after = bl_profile_get_grand_total (result, BL_METRIC_SAMPLES);

  switch (kind)
    {
    case BL_TRANSFORM_DROP_FUNCTION:
    case BL_TRANSFORM_FOCUS_FUNCTION:
    case BL_TRANSFORM_FOCUS_PATH:
      g_assert (after <= before);
      break;
    case BL_TRANSFORM_COLLAPSE_RECURSION:
      g_assert (after == before);
      for (guint32 n = 0; n < bl_profile_get_n_nodes (result); n++)
        g_assert (bl_profile_is_outermost (result, n));
      break;
    case BL_TRANSFORM_MERGE_FUNCTION:
    case BL_TRANSFORM_HIDE:
    case BL_TRANSFORM_MERGE_THREADS:
    case BL_TRANSFORM_MERGE_ALL_THREADS:
    case BL_N_TRANSFORM_KINDS:
    default:
      g_assert (after == before);
      break;
    }

  /* composed with the collapse, which has to cope with what the first made */
  if (kind != BL_TRANSFORM_COLLAPSE_RECURSION)
    {
      g_autoptr(BlProfile) both = apply (result, BL_TRANSFORM_COLLAPSE_RECURSION, NULL);

      g_assert (bl_profile_get_grand_total (both, BL_METRIC_SAMPLES) == after);
    }
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(BlProfile) profile = NULL;
  g_autofree char *path = NULL;
  g_autofree char *pattern = NULL;
  const char *name;
  guint n_nodes;
  guint32 pick;

  profile = bl_folded_read_memory (data, size, NULL);
  if (profile == NULL)
    return 0;

  n_nodes = bl_profile_get_n_nodes (profile);
  if (n_nodes == 0)
    return 0;

  /* a node chosen by the input, its function, path and a glob from it */
  pick = (guint32) ((size * 2654435761u) % n_nodes);
  name = bl_profile_get_node_name (profile, pick);
  path = bl_profile_dup_stack_string (profile, pick, ';');
  pattern = g_strdup_printf ("*%s", name[0] != '\0' ? name + strlen (name) / 2 : "");

  for (guint k = 0; k < BL_N_TRANSFORM_KINDS; k++)
    {
      const char *argument = NULL;

      if (k == BL_TRANSFORM_FOCUS_PATH)
        argument = path;
      else if (k == BL_TRANSFORM_HIDE)
        argument = pattern;
      else if (bl_transform_kind_takes_argument (k))
        argument = name;
      check_kind (profile, k, argument);
    }

  return 0;
}
