/* bl-compare-page.c
 *
 * A tab that compares two files. It loads whichever of the two is not
 * loaded yet (both loaders run in workers, the progress bar shows their
 * mean every 50 ms), checks that they are two profiles or two sessions,
 * merges two profiles into a BlDiff in a worker, and then shows a
 * BlCompareView. Cancel stops everything; closing the tab cancels too.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-compare-page"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "bl-heap-compare-view.h"
#include "bl-loader.h"

#include "bl-compare-page.h"

#define PROGRESS_INTERVAL_MS 50

struct _BlComparePage
{
  GtkWidget           parent_instance;

  GFile              *files[2];
  char               *names[2];
  char               *title;
  BlLoader           *loaders[2];
  GObject            *documents[2];
  GCancellable       *cancellable;
  BlDiff             *diff;
  GPtrArray          *transforms;  /* BlTransform *, applied to both sides, or NULL */
  char               *error_message;
  BlProfilePageState  state;
  guint               progress_source;
  guint               pending;

  GtkStack           *stack;
  AdwStatusPage      *loading_page;
  AdwStatusPage      *error_page;
  GtkProgressBar     *progress_bar;
  BlCompareView      *view;
  GtkStackSwitcher   *view_switcher;
  GtkStack           *view_stack;
  BlHeapCompareView  *heap_view;
  gboolean            heaps;    /* both files carry heap snapshots */
};

enum {
  PROP_0,
  PROP_TITLE,
  PROP_STATE,
  N_PROPS
};

enum {
  CANCELLED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (BlComparePage, bl_compare_page, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
set_state (BlComparePage      *self,
           BlProfilePageState  state)
{
  if (self->state == state)
    return;

  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
fail (BlComparePage *self,
      const char    *message)
{
  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_free (self->error_message);
  self->error_message = g_strdup (message);
  adw_status_page_set_description (self->error_page, message);
  gtk_stack_set_visible_child_name (self->stack, "error");
  set_state (self, BL_PROFILE_PAGE_FAILED);
}

static gboolean
update_progress (gpointer data)
{
  BlComparePage *self = data;
  double sum = 0;

  for (guint s = 0; s < 2; s++)
    sum += self->documents[s] != NULL ? 1.0
         : self->loaders[s] != NULL ? bl_loader_get_fraction (self->loaders[s])
         : 0.0;

  gtk_progress_bar_set_fraction (self->progress_bar, sum / 2);

  return G_SOURCE_CONTINUE;
}

static void
show_diff (BlComparePage *self)
{
  g_clear_handle_id (&self->progress_source, g_source_remove);
  if (self->diff != NULL)
    {
      bl_compare_view_set_titles (self->view, self->names[0], self->names[1]);
      bl_compare_view_set_diff (self->view, self->diff);
    }
  /* the heaps compared beside the profiles, or alone when there are no threads */
  gtk_stack_page_set_visible (gtk_stack_get_page (self->view_stack, GTK_WIDGET (self->view)),
                              self->diff != NULL);
  gtk_stack_page_set_visible (gtk_stack_get_page (self->view_stack, GTK_WIDGET (self->heap_view)),
                              self->heaps);
  gtk_widget_set_visible (GTK_WIDGET (self->view_switcher), self->heaps && self->diff != NULL);
  gtk_stack_set_visible_child (self->view_stack,
                               self->diff != NULL ? GTK_WIDGET (self->view)
                                                  : GTK_WIDGET (self->heap_view));
  gtk_stack_set_visible_child_name (self->stack, "view");
  set_state (self, BL_PROFILE_PAGE_LOADED);
}

/* Both files carry heap snapshots: the first of A against the last of B,
 * as brightlens-cli heap A B compares them. */
static gboolean
compare_heaps (BlComparePage *self)
{
  BlProfile *a = BL_PROFILE (self->documents[0]);
  BlProfile *b = BL_PROFILE (self->documents[1]);
  guint last;

  self->heaps = bl_profile_get_n_heaps (a) > 0 && bl_profile_get_n_heaps (b) > 0;
  if (!self->heaps)
    return FALSE;

  last = bl_profile_get_n_heaps (b) - 1;
  bl_heap_compare_view_set_heaps (self->heap_view,
                                  G_OBJECT (a), bl_profile_get_heap (a, 0), self->names[0],
                                  G_OBJECT (b), bl_profile_get_heap (b, last), self->names[1]);

  return bl_profile_get_n_threads (a) == 0 || bl_profile_get_n_threads (b) == 0;
}

typedef struct
{
  BlProfile *profiles[2];
  GPtrArray *transforms;   /* or NULL */
} DiffJob;

static void
diff_job_free (gpointer data)
{
  DiffJob *job = data;

  g_clear_object (&job->profiles[0]);
  g_clear_object (&job->profiles[1]);
  g_clear_pointer (&job->transforms, g_ptr_array_unref);
  g_free (job);
}

static void
diff_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  DiffJob *job = task_data;
  g_autoptr(BlProfile) a = NULL;
  g_autoptr(BlProfile) b = NULL;
  g_autoptr(GError) error = NULL;

  /* the tab's call-tree transforms, on both sides alike */
  if (!(a = bl_transform_apply_all (job->transforms, job->profiles[0], cancellable, &error)) ||
      !(b = bl_transform_apply_all (job->transforms, job->profiles[1], cancellable, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_pointer (task, bl_diff_new (a, b), g_object_unref);
}

static void
diff_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  BlComparePage *self = BL_COMPARE_PAGE (source);
  g_autoptr(GError) error = NULL;
  BlDiff *diff;

  diff = g_task_propagate_pointer (G_TASK (result), &error);
  if (diff == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        fail (self, error->message);
      return;
    }

  g_clear_object (&self->diff);
  self->diff = diff;
  show_diff (self);
}

static void
both_loaded (BlComparePage *self)
{
  gboolean session_a = BL_IS_SESSION (self->documents[0]);
  gboolean session_b = BL_IS_SESSION (self->documents[1]);
  g_autoptr(GTask) task = NULL;
  DiffJob *job;

  if (session_a != session_b)
    {
      g_autofree char *message = NULL;

      if (session_a)
        /* Translators: both %s are file names */
        message = g_strdup_printf (_("“%s” is a session and “%s” is a profile. "
                                     "Compare two profiles or two sessions."),
                                   self->names[0], self->names[1]);
      else
        message = g_strdup_printf (_("“%s” is a profile and “%s” is a session. "
                                     "Compare two profiles or two sessions."),
                                   self->names[0], self->names[1]);
      fail (self, message);
      return;
    }

  if (session_a)
    {
      self->diff = bl_diff_new_for_sessions (BL_SESSION (self->documents[0]),
                                             BL_SESSION (self->documents[1]));
      show_diff (self);
      return;
    }

  if (!BL_IS_PROFILE (self->documents[0]) || !BL_IS_PROFILE (self->documents[1]))
    {
      fail (self, _("Brightlens can only compare two profiles or two sessions."));
      return;
    }

  if (compare_heaps (self))
    {
      show_diff (self);
      return;
    }

  /* merging big trees takes a while: not on the main thread */
  task = g_task_new (self, self->cancellable, diff_done_cb, NULL);
  g_task_set_source_tag (task, both_loaded);
  job = g_new0 (DiffJob, 1);
  job->profiles[0] = g_object_ref (BL_PROFILE (self->documents[0]));
  job->profiles[1] = g_object_ref (BL_PROFILE (self->documents[1]));
  if (self->transforms != NULL)
    job->transforms = g_ptr_array_ref (self->transforms);
  g_task_set_task_data (task, job, diff_job_free);
  g_task_run_in_thread (task, diff_worker);
}

static void
load_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(BlComparePage) self = user_data;
  g_autoptr(GError) error = NULL;
  GObject *document;
  guint side = BL_LOADER (source) == self->loaders[0] ? 0 : 1;

  document = bl_loader_load_finish (BL_LOADER (source), result, &error);
  self->pending--;

  if (self->state == BL_PROFILE_PAGE_FAILED)
    {
      g_clear_object (&document);
      return;
    }

  if (document == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          fail (self, _("Loading was cancelled."));
          g_signal_emit (self, signals[CANCELLED], 0);
          return;
        }

      {
        /* Translators: "before.bsprof: what went wrong" */
        g_autofree char *message = g_strdup_printf (_("%s: %s"), self->names[side],
                                                    error->message);

        g_cancellable_cancel (self->cancellable);
        fail (self, message);
      }
      return;
    }

  self->documents[side] = document;
  if (self->pending == 0)
    both_loaded (self);
}

static void
cancel_clicked_cb (BlComparePage *self)
{
  bl_compare_page_cancel (self);
}

static void
bl_compare_page_dispose (GObject *object)
{
  BlComparePage *self = BL_COMPARE_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_COMPARE_PAGE);

  for (guint s = 0; s < 2; s++)
    {
      g_clear_object (&self->loaders[s]);
      g_clear_object (&self->documents[s]);
      g_clear_object (&self->files[s]);
    }
  g_clear_pointer (&self->transforms, g_ptr_array_unref);
  g_clear_object (&self->diff);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (bl_compare_page_parent_class)->dispose (object);
}

static void
bl_compare_page_finalize (GObject *object)
{
  BlComparePage *self = BL_COMPARE_PAGE (object);

  g_free (self->names[0]);
  g_free (self->names[1]);
  g_free (self->title);
  g_free (self->error_message);

  G_OBJECT_CLASS (bl_compare_page_parent_class)->finalize (object);
}

static void
bl_compare_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  BlComparePage *self = BL_COMPARE_PAGE (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_compare_page_class_init (BlComparePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_compare_page_dispose;
  object_class->finalize = bl_compare_page_finalize;
  object_class->get_property = bl_compare_page_get_property;

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL,
                      BL_PROFILE_PAGE_LOADING, BL_PROFILE_PAGE_LOADED, BL_PROFILE_PAGE_LOADING,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * BlComparePage::cancelled:
   *
   * The user cancelled loading; the window closes the tab.
   */
  signals[CANCELLED] =
    g_signal_new ("cancelled",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  g_type_ensure (BL_TYPE_COMPARE_VIEW);
  g_type_ensure (BL_TYPE_HEAP_COMPARE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE_PATH "/ui/bl-compare-page.ui");
  gtk_widget_class_bind_template_child (widget_class, BlComparePage, stack);
  gtk_widget_class_bind_template_child (widget_class, BlComparePage, loading_page);
  gtk_widget_class_bind_template_child (widget_class, BlComparePage, error_page);
  gtk_widget_class_bind_template_child (widget_class, BlComparePage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, BlComparePage, view);
  gtk_widget_class_bind_template_child (widget_class, BlComparePage, view_switcher);
  gtk_widget_class_bind_template_child (widget_class, BlComparePage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, BlComparePage, heap_view);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
bl_compare_page_init (BlComparePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();
}

BlComparePage *
bl_compare_page_new (GFile *file_a,
                     GFile *file_b)
{
  BlComparePage *self;
  g_autofree char *loading_title = NULL;

  g_return_val_if_fail (G_IS_FILE (file_a), NULL);
  g_return_val_if_fail (G_IS_FILE (file_b), NULL);

  self = g_object_new (BL_TYPE_COMPARE_PAGE, NULL);
  self->files[0] = g_object_ref (file_a);
  self->files[1] = g_object_ref (file_b);
  for (guint s = 0; s < 2; s++)
    {
      self->names[s] = g_file_get_basename (self->files[s]);
      if (self->names[s] == NULL)
        self->names[s] = g_file_get_uri (self->files[s]);
    }

  /* Translators: a tab comparing two files, "before.bsprof ↔ after.bsprof" */
  self->title = g_strdup_printf (_("%s ↔ %s"), self->names[0], self->names[1]);
  /* Translators: both %s are file names */
  loading_title = g_strdup_printf (_("Comparing “%s” with “%s”"),
                                   self->names[0], self->names[1]);
  adw_status_page_set_title (self->loading_page, loading_title);

  return self;
}

GFile *
bl_compare_page_get_file (BlComparePage *self,
                          BlDiffSide     side)
{
  g_return_val_if_fail (BL_IS_COMPARE_PAGE (self), NULL);
  g_return_val_if_fail (side <= BL_DIFF_SIDE_B, NULL);

  return self->files[side];
}

const char *
bl_compare_page_get_title (BlComparePage *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_PAGE (self), NULL);

  return self->title;
}

void
bl_compare_page_set_document (BlComparePage *self,
                              BlDiffSide     side,
                              GObject       *document)
{
  g_return_if_fail (BL_IS_COMPARE_PAGE (self));
  g_return_if_fail (side <= BL_DIFF_SIDE_B);
  g_return_if_fail (BL_IS_PROFILE (document) || BL_IS_SESSION (document));
  g_return_if_fail (self->pending == 0 && self->loaders[side] == NULL);

  g_set_object (&self->documents[side], document);
}

/**
 * bl_compare_page_set_transforms:
 * @transforms: (nullable) (element-type BlTransform): call-tree transforms
 *
 * Compares the two profiles with @transforms applied to both (the tab the
 * comparison was started from shows them). Set before both are loaded.
 */
void
bl_compare_page_set_transforms (BlComparePage *self,
                                GPtrArray     *transforms)
{
  g_return_if_fail (BL_IS_COMPARE_PAGE (self));

  g_clear_pointer (&self->transforms, g_ptr_array_unref);
  if (transforms != NULL && transforms->len > 0)
    {
      self->transforms = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_transform_unref);
      for (guint i = 0; i < transforms->len; i++)
        g_ptr_array_add (self->transforms, bl_transform_ref (g_ptr_array_index (transforms, i)));
    }
}

void
bl_compare_page_load (BlComparePage *self)
{
  g_return_if_fail (BL_IS_COMPARE_PAGE (self));
  g_return_if_fail (self->pending == 0);

  set_state (self, BL_PROFILE_PAGE_LOADING);
  gtk_stack_set_visible_child_name (self->stack, "loading");

  for (guint s = 0; s < 2; s++)
    if (self->documents[s] == NULL)
      {
        self->loaders[s] = bl_loader_new (self->files[s]);
        self->pending++;
      }

  if (self->pending == 0)
    {
      both_loaded (self);
      return;
    }

  update_progress (self);
  self->progress_source = g_timeout_add (PROGRESS_INTERVAL_MS, update_progress, self);
  for (guint s = 0; s < 2; s++)
    if (self->loaders[s] != NULL)
      bl_loader_load_async (self->loaders[s], self->cancellable, load_cb, g_object_ref (self));
}

void
bl_compare_page_cancel (BlComparePage *self)
{
  g_return_if_fail (BL_IS_COMPARE_PAGE (self));

  g_cancellable_cancel (self->cancellable);
}

BlProfilePageState
bl_compare_page_get_state (BlComparePage *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_PAGE (self), BL_PROFILE_PAGE_FAILED);

  return self->state;
}

const char *
bl_compare_page_get_error_message (BlComparePage *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_PAGE (self), NULL);

  return self->error_message;
}

/**
 * bl_compare_page_get_diff:
 *
 * Returns: (transfer none) (nullable): the comparison, once loaded
 */
BlDiff *
bl_compare_page_get_diff (BlComparePage *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_PAGE (self), NULL);

  return self->diff;
}

/**
 * bl_compare_page_get_heap_view:
 *
 * Returns: (transfer none): the heap comparison (shown when both files
 *   carry heap snapshots)
 */
GtkWidget *
bl_compare_page_get_heap_view (BlComparePage *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_PAGE (self), NULL);

  return GTK_WIDGET (self->heap_view);
}

/* Returns: whether the heap comparison is the page shown */
gboolean
bl_compare_page_is_showing_heaps (BlComparePage *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_PAGE (self), FALSE);

  return gtk_stack_get_visible_child (self->view_stack) == GTK_WIDGET (self->heap_view);
}

BlCompareView *
bl_compare_page_get_view (BlComparePage *self)
{
  g_return_val_if_fail (BL_IS_COMPARE_PAGE (self), NULL);

  return self->view;
}
