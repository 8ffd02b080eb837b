/* bl-loader.c
 *
 * The reader runs in a GTask worker and reports bytes done; the numbers are
 * kept under a mutex and "fraction" is notified from an idle on the thread
 * that started the load, at most once per main-loop iteration.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-loader"

#include "config.h"

#include "bl-loader.h"
#include "formats/bl-format.h"

struct _BlLoader
{
  GObject       parent_instance;

  GFile        *file;
  GMutex        mutex;
  guint64       done;
  guint64       total;
  GMainContext *context;
  guint         notify_source;
};

enum {
  PROP_0,
  PROP_FILE,
  PROP_FRACTION,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (BlLoader, bl_loader, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static gboolean
notify_in_idle (gpointer data)
{
  BlLoader *self = data;

  g_mutex_lock (&self->mutex);
  self->notify_source = 0;
  g_mutex_unlock (&self->mutex);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);

  return G_SOURCE_REMOVE;
}

static void
report_progress (guint64  done,
                 guint64  total,
                 gpointer user_data)
{
  BlLoader *self = user_data;

  g_mutex_lock (&self->mutex);
  self->done = done;
  self->total = total;
  if (self->notify_source == 0 && self->context != NULL)
    {
      GSource *source = g_idle_source_new ();

      g_source_set_callback (source, notify_in_idle, g_object_ref (self), g_object_unref);
      g_source_set_static_name (source, "[bl-loader-progress]");
      self->notify_source = g_source_attach (source, self->context);
      g_source_unref (source);
    }
  g_mutex_unlock (&self->mutex);
}

static void
bl_loader_finalize (GObject *object)
{
  BlLoader *self = (BlLoader *) object;

  g_clear_object (&self->file);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_mutex_clear (&self->mutex);

  G_OBJECT_CLASS (bl_loader_parent_class)->finalize (object);
}

static void
bl_loader_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  BlLoader *self = BL_LOADER (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_FRACTION:
      g_value_set_double (value, bl_loader_get_fraction (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_loader_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  BlLoader *self = BL_LOADER (object);

  switch (prop_id)
    {
    case PROP_FILE:
      self->file = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_loader_class_init (BlLoaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = bl_loader_finalize;
  object_class->get_property = bl_loader_get_property;
  object_class->set_property = bl_loader_set_property;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL,
                         G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL,
                         0, 1, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
bl_loader_init (BlLoader *self)
{
  g_mutex_init (&self->mutex);
}

BlLoader *
bl_loader_new (GFile *file)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  return g_object_new (BL_TYPE_LOADER, "file", file, NULL);
}

GFile *
bl_loader_get_file (BlLoader *self)
{
  g_return_val_if_fail (BL_IS_LOADER (self), NULL);

  return self->file;
}

double
bl_loader_get_fraction (BlLoader *self)
{
  double fraction = 0;

  g_return_val_if_fail (BL_IS_LOADER (self), 0);

  g_mutex_lock (&self->mutex);
  if (self->total > 0)
    fraction = CLAMP ((double) self->done / (double) self->total, 0.0, 1.0);
  g_mutex_unlock (&self->mutex);

  return fraction;
}

guint64
bl_loader_get_done (BlLoader *self)
{
  guint64 done;

  g_return_val_if_fail (BL_IS_LOADER (self), 0);

  g_mutex_lock (&self->mutex);
  done = self->done;
  g_mutex_unlock (&self->mutex);

  return done;
}

guint64
bl_loader_get_total (BlLoader *self)
{
  guint64 total;

  g_return_val_if_fail (BL_IS_LOADER (self), 0);

  g_mutex_lock (&self->mutex);
  total = self->total;
  g_mutex_unlock (&self->mutex);

  return total;
}

static void
load_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  BlLoader *self = source_object;
  GError *error = NULL;
  GObject *result;

  result = bl_format_load_file (self->file, report_progress, self, cancellable, &error);

  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, g_object_unref);
}

void
bl_loader_load_async (BlLoader            *self,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (BL_IS_LOADER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  g_clear_pointer (&self->context, g_main_context_unref);
  self->context = g_main_context_ref_thread_default ();

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, bl_loader_load_async);
  g_task_set_check_cancellable (task, TRUE);
  g_task_run_in_thread (task, load_worker);
}

/**
 * bl_loader_load_finish:
 *
 * Returns: (transfer full): a finished #BlProfile or #BlSession
 */
GObject *
bl_loader_load_finish (BlLoader      *self,
                       GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (BL_IS_LOADER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * bl_loader_load:
 *
 * The synchronous form, for the CLI and tests.
 *
 * Returns: (transfer full): a finished #BlProfile or #BlSession
 */
GObject *
bl_loader_load (BlLoader      *self,
                GCancellable  *cancellable,
                GError       **error)
{
  g_return_val_if_fail (BL_IS_LOADER (self), NULL);

  return bl_format_load_file (self->file, NULL, NULL, cancellable, error);
}
