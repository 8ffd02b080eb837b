/* bl-cli-transform.c — the call-tree transform options that export, lines
 * and diff share: --focus F, --focus-path PATH, --merge F, --drop F,
 * --hide PATTERN, --collapse-recursion, --merge-threads,
 * --merge-all-threads; repeatable, applied in the order given
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "brightlens-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "bl-cli.h"

/* The list the option callbacks fill: one command runs per process. */
static BlCliTransforms *current;

static gboolean
on_transform_option (const char  *option_name,
                     const char  *value,
                     gpointer     user_data,
                     GError     **error)
{
  static const struct { const char *option; BlTransformKind kind; } options[] = {
    { "--focus", BL_TRANSFORM_FOCUS_FUNCTION },
    { "--focus-path", BL_TRANSFORM_FOCUS_PATH },
    { "--merge", BL_TRANSFORM_MERGE_FUNCTION },
    { "--drop", BL_TRANSFORM_DROP_FUNCTION },
    { "--hide", BL_TRANSFORM_HIDE },
    { "--collapse-recursion", BL_TRANSFORM_COLLAPSE_RECURSION },
    { "--merge-threads", BL_TRANSFORM_MERGE_THREADS },
    { "--merge-all-threads", BL_TRANSFORM_MERGE_ALL_THREADS },
  };
  g_autoptr(GError) local_error = NULL;

  g_assert (current != NULL);

  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    {
      BlTransform *t;

      if (!g_str_equal (option_name, options[i].option))
        continue;

      if (!(t = bl_transform_new (options[i].kind, value, &local_error)))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("%s needs a non-empty value."), option_name);
          return FALSE;
        }
      g_ptr_array_add (current->transforms, t);
      return TRUE;
    }

  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION,
               _("Unknown option %s"), option_name);

  return FALSE;
}

/**
 * bl_cli_transform_add_options:
 *
 * Adds the transform options to @context's main group; they fill
 * @transforms, which must outlive the parse.
 */
void
bl_cli_transform_add_options (GOptionContext  *context,
                              BlCliTransforms *transforms)
{
  const GOptionEntry entries[] = {
    { "focus", 0, 0, G_OPTION_ARG_CALLBACK, on_transform_option,
      N_("Transform: keep only the calls of function F, as roots (repeatable; applied in "
         "order)"), N_("F") },
    { "focus-path", 0, 0, G_OPTION_ARG_CALLBACK, on_transform_option,
      N_("Transform: keep only the call path THREAD;A;B, as a root"), N_("PATH") },
    { "merge", 0, 0, G_OPTION_ARG_CALLBACK, on_transform_option,
      N_("Transform: merge function F into its callers"), N_("F") },
    { "drop", 0, 0, G_OPTION_ARG_CALLBACK, on_transform_option,
      N_("Transform: remove function F and everything it calls"), N_("F") },
    { "hide", 0, 0, G_OPTION_ARG_CALLBACK, on_transform_option,
      N_("Transform: merge frames whose name or file match the glob into their callers"),
      N_("PATTERN") },
    { "collapse-recursion", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK, on_transform_option,
      N_("Transform: merge a function called below itself into the outer call"), NULL },
    { "merge-threads", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK, on_transform_option,
      N_("Transform: merge threads whose names differ only by an instance number"), NULL },
    { "merge-all-threads", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK, on_transform_option,
      N_("Transform: merge every thread into one"), NULL },
    { NULL }
  };

  g_return_if_fail (transforms != NULL);

  if (transforms->transforms == NULL)
    transforms->transforms =
      g_ptr_array_new_with_free_func ((GDestroyNotify) bl_transform_unref);
  current = transforms;
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
}

void
bl_cli_transforms_clear (BlCliTransforms *transforms)
{
  if (current == transforms)
    current = NULL;
  g_clear_pointer (&transforms->transforms, g_ptr_array_unref);
}

/**
 * bl_cli_transform_apply:
 * @loaded: (inout): what bl_cli_load() gave; replaced by the transformed
 *   profile
 * @path: the file's name, for messages
 * @exit_status: (out): set when returning %FALSE
 *
 * Applies the transforms given on the command line, if any, to a loaded
 * profile. A transform whose function, path or pattern is nowhere in the
 * profile is applied anyway, with a warning. Transforms on a session are
 * a usage error.
 *
 * Returns: %FALSE with @exit_status set if the transforms cannot apply
 */
gboolean
bl_cli_transform_apply (BlCliTransforms  *transforms,
                        GObject         **loaded,
                        const char       *path,
                        int              *exit_status)
{
  g_autoptr(GError) error = NULL;
  BlProfile *result;

  g_return_val_if_fail (loaded != NULL && G_IS_OBJECT (*loaded), FALSE);

  *exit_status = BL_CLI_OK;
  if (transforms->transforms == NULL || transforms->transforms->len == 0)
    return TRUE;

  if (!BL_IS_PROFILE (*loaded))
    {
      fprintf (stderr, _("brightlens-cli: %s is not a profile; the transform options apply to "
                         "call trees only.\n"), path);
      *exit_status = BL_CLI_USAGE;
      return FALSE;
    }

  /* every step is checked against the profile it will be applied to */
  result = g_object_ref (BL_PROFILE (*loaded));
  for (guint i = 0; i < transforms->transforms->len; i++)
    {
      BlTransform *t = g_ptr_array_index (transforms->transforms, i);
      BlProfile *next;

      if (!bl_transform_check (t, result, &error))
        {
          fprintf (stderr, _("brightlens-cli: warning: %s: %s\n"), path, error->message);
          g_clear_error (&error);
        }
      next = bl_transform_apply (t, result, NULL, &error);
      g_object_unref (result);
      if (next == NULL)
        {
          fprintf (stderr, "brightlens-cli: %s: %s\n", path, error->message);
          *exit_status = BL_CLI_INVALID_INPUT;
          return FALSE;
        }
      result = next;
    }

  g_object_unref (*loaded);
  *loaded = G_OBJECT (result);

  return TRUE;
}
