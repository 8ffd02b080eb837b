/* bl-profile-page.c
 *
 * A tab. It loads its file with BlLoader in a worker; the progress bar is
 * refreshed from a timer twice a second, and only when what it shows
 * changed (the percentage, or the bytes read when the size is not known;
 * never a pulse, whose animation runs every frame): every frame of the
 * window costs (with software GL, tens to hundreds of milliseconds of CPU
 * that the worker would have used), so the progress UI must not redraw
 * continuously. Cancel stops the worker. A failure shows the reader's
 * message, which says what went wrong and where; a profile shows a
 * BlProfileView, a session a BlSessionView.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-profile-page"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#ifdef __GLIBC__
# include <malloc.h>
#endif

#include "bl-heap-view.h"
#include "bl-loader.h"

#include "bl-profile-page.h"
#include "bl-recording-view.h"

#if defined(__has_include)
# if __has_include ("bl-session-view.h") && __has_include ("bl-session.h")
#  include "bl-session.h"
#  include "bl-session-view.h"
#  define HAVE_SESSION_VIEW 1
# endif
#endif

#define PROGRESS_INTERVAL_MS 500

struct _BlProfilePage
{
  GtkWidget           parent_instance;

  GFile              *file;
  char               *title;
  BlLoader           *loader;
  GCancellable       *cancellable;
  GObject            *document;
  char               *error_message;
  BlProfilePageState  state;
  guint               progress_source;
  int                 progress_shown;   /* per mille, -1 before the first */
  gint64              load_started;
  gboolean            disposed;

  GtkStack           *stack;
  AdwStatusPage      *loading_page;
  AdwStatusPage      *error_page;
  GtkProgressBar     *progress_bar;
  BlProfileView      *profile_view;
  GtkStackSwitcher   *view_switcher;
  GtkStack           *view_stack;
  BlHeapView         *heap_view;
};

enum {
  PROP_0,
  PROP_FILE,
  PROP_TITLE,
  PROP_STATE,
  PROP_LOADING,
  PROP_FRACTION,
  N_PROPS
};

enum {
  CANCELLED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (BlProfilePage, bl_profile_page, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
set_state (BlProfilePage      *self,
           BlProfilePageState  state)
{
  if (self->state == state)
    return;

  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static gboolean
update_progress (gpointer data)
{
  BlProfilePage *self = data;
  guint64 done, total;
  g_autofree char *done_text = NULL;
  g_autofree char *total_text = NULL;
  g_autofree char *text = NULL;

  if (self->loader == NULL)
    return G_SOURCE_CONTINUE;

  done = bl_loader_get_done (self->loader);
  total = bl_loader_get_total (self->loader);

  if (total > 0)
    {
      int permille = (int) (1000 * bl_loader_get_fraction (self->loader));

      /* nothing new to show: no redraw */
      if (permille / 10 == self->progress_shown / 10 && self->progress_shown >= 0)
        return G_SOURCE_CONTINUE;
      self->progress_shown = permille;
      done_text = bl_format_bytes (done);
      total_text = bl_format_bytes (total);
      /* Translators: loading progress, "12.0 MB of 256 MB" */
      text = g_strdup_printf (_("%s of %s"), done_text, total_text);
      gtk_progress_bar_set_fraction (self->progress_bar, bl_loader_get_fraction (self->loader));
    }
  else
    {
      /* a size not known (a pipe, a stream): how much was read, still.
       * No pulse: its animation redrew the window sixty times a second,
       * each frame tens of milliseconds of CPU with software GL, taken
       * from the worker that reads. */
      if (done > 0)
        {
          done_text = bl_format_bytes (done);
          /* Translators: loading progress of a file whose size is not known, "12.0 MB read" */
          text = g_strdup_printf (_("%s read"), done_text);
        }
      else
        text = g_strdup (_("Reading…"));
    }
  if (g_strcmp0 (text, gtk_progress_bar_get_text (self->progress_bar)) == 0)
    return G_SOURCE_CONTINUE;
  gtk_progress_bar_set_text (self->progress_bar, text);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);

  return G_SOURCE_CONTINUE;
}

static void
show_document (BlProfilePage *self)
{
  if (BL_IS_PROFILE (self->document))
    {
      BlProfile *profile = BL_PROFILE (self->document);
      gboolean heaps = bl_profile_get_n_heaps (profile) > 0;
      gboolean threads = bl_profile_get_n_threads (profile) > 0;

      bl_profile_view_set_fallback_title (self->profile_view, self->title);
      bl_profile_view_set_profile (self->profile_view, profile);
      /* heap snapshots: a Heap page, made for them (most profiles have
       * none, and its widgets took a third of making a tab); with no
       * threads, no empty flame graph */
      if (heaps && self->heap_view == NULL)
        {
          self->heap_view = BL_HEAP_VIEW (bl_heap_view_new ());
          gtk_stack_add_titled (self->view_stack, GTK_WIDGET (self->heap_view), "heap", _("Heap"));
        }
      if (heaps)
        bl_heap_view_set_profile (self->heap_view, profile);
      if (self->heap_view != NULL)
        gtk_stack_page_set_visible (gtk_stack_get_page (self->view_stack,
                                                        GTK_WIDGET (self->heap_view)), heaps);
      gtk_stack_page_set_visible (gtk_stack_get_page (self->view_stack,
                                                      GTK_WIDGET (self->profile_view)),
                                  threads || !heaps);
      gtk_widget_set_visible (GTK_WIDGET (self->view_switcher), heaps && threads);
      gtk_stack_set_visible_child (self->view_stack,
                                   heaps && !threads ? GTK_WIDGET (self->heap_view)
                                                     : GTK_WIDGET (self->profile_view));
      gtk_stack_set_visible_child_name (self->stack, "profile");
      /* arrows move between frames (or along a trace's timeline) straight away
       * in the tab being looked at */
      if (gtk_widget_get_mapped (GTK_WIDGET (self)) && (threads || !heaps))
        bl_profile_view_focus_graph (self->profile_view);
      return;
    }

  if (BL_IS_RECORDING (self->document))
    {
      BlRecordingView *view = bl_recording_view_new ();

      bl_recording_view_set_recording (view, BL_RECORDING (self->document));
      gtk_stack_add_named (self->stack, GTK_WIDGET (view), "recording");
      gtk_stack_set_visible_child_name (self->stack, "recording");
      return;
    }

#ifdef HAVE_SESSION_VIEW
  if (BL_IS_SESSION (self->document))
    {
      GtkWidget *view = GTK_WIDGET (bl_session_view_new ());

      bl_session_view_set_session (BL_SESSION_VIEW (view), BL_SESSION (self->document));
      gtk_stack_add_named (self->stack, view, "session");
      gtk_stack_set_visible_child_name (self->stack, "session");
      return;
    }
#endif

  g_clear_pointer (&self->error_message, g_free);
  self->error_message = g_strdup (_("Brightlens cannot show this kind of file yet."));
  adw_status_page_set_description (self->error_page, self->error_message);
  gtk_stack_set_visible_child_name (self->stack, "error");
  set_state (self, BL_PROFILE_PAGE_FAILED);
}

/* `brightlens -` saved standard input in a private temporary folder
 * (main.c) for whichever instance opens it; once read, the copy has served
 * and goes, also when the instance that made it exited long ago. */
static void
forget_stdin_copy (GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *dir = NULL;
  g_autofree char *dir_name = NULL;
  g_autofree char *parent = NULL;

  if (path == NULL)
    return;
  dir = g_path_get_dirname (path);
  dir_name = g_path_get_basename (dir);
  parent = g_path_get_dirname (dir);
  if (!g_str_has_prefix (dir_name, "brightlens-stdin-") ||
      g_strcmp0 (parent, g_get_tmp_dir ()) != 0)
    return;

  g_unlink (path);
  g_rmdir (dir);
}

/* A load, started before its page is made when it can be: making the
 * page's widgets takes tens of milliseconds that the worker need not wait
 * for. Its result goes to the page attached before the main loop runs
 * again. */
typedef struct
{
  BlLoader      *loader;
  GCancellable  *cancellable;
  gint64         started;
  BlProfilePage *page;
} Load;

static void
load_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Load *load = user_data;
  g_autoptr(BlProfilePage) self = g_steal_pointer (&load->page);
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) document = NULL;

  document = bl_loader_load_finish (BL_LOADER (source), result, &error);
  g_object_unref (load->loader);
  g_object_unref (load->cancellable);
  g_free (load);
  if (self == NULL)
    return;
  g_clear_handle_id (&self->progress_source, g_source_remove);
  forget_stdin_copy (self->file);

  /* the tab was closed while loading */
  if (self->disposed)
    return;

  g_debug ("Loaded %s in %.0f ms", self->title,
           (g_get_monotonic_time () - self->load_started) / 1000.0);

  if (document == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_clear_pointer (&self->error_message, g_free);
          self->error_message = g_strdup (_("Loading was cancelled."));
          adw_status_page_set_description (self->error_page, self->error_message);
          gtk_stack_set_visible_child_name (self->stack, "error");
          set_state (self, BL_PROFILE_PAGE_FAILED);
          g_signal_emit (self, signals[CANCELLED], 0);
          return;
        }

      g_clear_pointer (&self->error_message, g_free);
      self->error_message = g_strdup (error->message);
      adw_status_page_set_description (self->error_page, self->error_message);
      gtk_stack_set_visible_child_name (self->stack, "error");
      set_state (self, BL_PROFILE_PAGE_FAILED);
      return;
    }

  self->document = g_steal_pointer (&document);
  set_state (self, BL_PROFILE_PAGE_LOADED);
  show_document (self);
}

static void
cancel_clicked_cb (BlProfilePage *self)
{
  bl_profile_page_cancel (self);
}

/* A closed tab's model is hundreds of megabytes in many blocks, which glibc
 * keeps for the process unless asked to give them back: asked once the
 * model is really gone (a worker may hold it a little longer than the tab)
 * and the widgets that showed it too. */
static void
trim_memory (gpointer data)
{
#ifdef __GLIBC__
  malloc_trim (0);
#endif
}

static void
document_finalized (gpointer  data,
                    GObject  *where_the_object_was)
{
  /* thread-safe: the last reference may go in a worker */
  g_timeout_add_once (300, trim_memory, NULL);
}

static void
bl_profile_page_dispose (GObject *object)
{
  BlProfilePage *self = (BlProfilePage *) object;

  self->disposed = TRUE;
  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_PROFILE_PAGE);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->loader);
  if (self->document != NULL)
    g_object_weak_ref (self->document, document_finalized, NULL);
  g_clear_object (&self->document);
  g_clear_object (&self->file);

  G_OBJECT_CLASS (bl_profile_page_parent_class)->dispose (object);
}

static void
bl_profile_page_finalize (GObject *object)
{
  BlProfilePage *self = (BlProfilePage *) object;

  g_free (self->title);
  g_free (self->error_message);

  G_OBJECT_CLASS (bl_profile_page_parent_class)->finalize (object);
}

static void
bl_profile_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  BlProfilePage *self = BL_PROFILE_PAGE (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->state == BL_PROFILE_PAGE_LOADING);
      break;
    case PROP_FRACTION:
      g_value_set_double (value, bl_profile_page_get_fraction (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_profile_page_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  BlProfilePage *self = BL_PROFILE_PAGE (object);

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
bl_profile_page_constructed (GObject *object)
{
  BlProfilePage *self = BL_PROFILE_PAGE (object);
  g_autofree char *loading_title = NULL;

  G_OBJECT_CLASS (bl_profile_page_parent_class)->constructed (object);

  g_assert (G_IS_FILE (self->file));

  self->title = g_file_get_basename (self->file);
  if (self->title == NULL)
    self->title = g_file_get_uri (self->file);

  /* Translators: %s is a file name */
  loading_title = g_strdup_printf (_("Opening “%s”"), self->title);
  adw_status_page_set_title (self->loading_page, loading_title);
}

static void
bl_profile_page_class_init (BlProfilePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_profile_page_dispose;
  object_class->finalize = bl_profile_page_finalize;
  object_class->get_property = bl_profile_page_get_property;
  object_class->set_property = bl_profile_page_set_property;
  object_class->constructed = bl_profile_page_constructed;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL,
                         G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL,
                      BL_PROFILE_PAGE_LOADING, BL_PROFILE_PAGE_LOADED, BL_PROFILE_PAGE_LOADING,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL,
                          TRUE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL,
                         0, 1, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * BlProfilePage::cancelled:
   *
   * The user cancelled loading; the window closes the tab.
   */
  signals[CANCELLED] =
    g_signal_new ("cancelled",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  g_type_ensure (BL_TYPE_PROFILE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE_PATH "/ui/bl-profile-page.ui");
  gtk_widget_class_bind_template_child (widget_class, BlProfilePage, stack);
  gtk_widget_class_bind_template_child (widget_class, BlProfilePage, loading_page);
  gtk_widget_class_bind_template_child (widget_class, BlProfilePage, error_page);
  gtk_widget_class_bind_template_child (widget_class, BlProfilePage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, BlProfilePage, profile_view);
  gtk_widget_class_bind_template_child (widget_class, BlProfilePage, view_switcher);
  gtk_widget_class_bind_template_child (widget_class, BlProfilePage, view_stack);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
bl_profile_page_init (BlProfilePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

BlProfilePage *
bl_profile_page_new (GFile *file)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  return g_object_new (BL_TYPE_PROFILE_PAGE, "file", file, NULL);
}

GFile *
bl_profile_page_get_file (BlProfilePage *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_PAGE (self), NULL);

  return self->file;
}

const char *
bl_profile_page_get_title (BlProfilePage *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_PAGE (self), NULL);

  return self->title;
}

BlProfilePageState
bl_profile_page_get_state (BlProfilePage *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_PAGE (self), BL_PROFILE_PAGE_FAILED);

  return self->state;
}

const char *
bl_profile_page_get_error_message (BlProfilePage *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_PAGE (self), NULL);

  return self->error_message;
}

double
bl_profile_page_get_fraction (BlProfilePage *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_PAGE (self), 0);

  if (self->state == BL_PROFILE_PAGE_LOADED)
    return 1;

  return self->loader ? bl_loader_get_fraction (self->loader) : 0;
}

/**
 * bl_profile_page_get_document:
 *
 * Returns: (transfer none) (nullable): the loaded #BlProfile or #BlSession
 */
GObject *
bl_profile_page_get_document (BlProfilePage *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_PAGE (self), NULL);

  return self->document;
}

/**
 * bl_profile_page_get_profile:
 *
 * Returns: (transfer none) (nullable): the loaded profile, if the file is one
 */
BlProfile *
bl_profile_page_get_profile (BlProfilePage *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_PAGE (self), NULL);

  return BL_IS_PROFILE (self->document) ? BL_PROFILE (self->document) : NULL;
}

BlProfileView *
bl_profile_page_get_profile_view (BlProfilePage *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_PAGE (self), NULL);

  return self->profile_view;
}

/**
 * bl_profile_page_get_heap_view:
 *
 * Returns: (transfer none) (nullable): the Heap page, made once a profile
 *   with heap snapshots is shown
 */
BlHeapView *
bl_profile_page_get_heap_view (BlProfilePage *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_PAGE (self), NULL);

  return self->heap_view;
}

/* Returns: whether the Heap page is the one shown */
gboolean
bl_profile_page_is_showing_heap (BlProfilePage *self)
{
  g_return_val_if_fail (BL_IS_PROFILE_PAGE (self), FALSE);

  return self->heap_view != NULL &&
         gtk_stack_get_visible_child (self->view_stack) == GTK_WIDGET (self->heap_view);
}

static Load *
load_new (GFile *file)
{
  Load *load = g_new0 (Load, 1);

  load->loader = bl_loader_new (file);
  load->cancellable = g_cancellable_new ();
  load->started = g_get_monotonic_time ();

  return load;
}

static void
load_start (Load *load)
{
  bl_loader_load_async (load->loader, load->cancellable, load_cb, load);
}

static void
load_attach (BlProfilePage *self,
             Load          *load)
{
  self->loader = g_object_ref (load->loader);
  self->cancellable = g_object_ref (load->cancellable);
  self->load_started = load->started;
  load->page = g_object_ref (self);
  self->progress_shown = -1;
  set_state (self, BL_PROFILE_PAGE_LOADING);
  gtk_stack_set_visible_child_name (self->stack, "loading");

  update_progress (self);
  self->progress_source = g_timeout_add (PROGRESS_INTERVAL_MS, update_progress, self);
}

void
bl_profile_page_load (BlProfilePage *self)
{
  Load *load;

  g_return_if_fail (BL_IS_PROFILE_PAGE (self));
  g_return_if_fail (self->loader == NULL);

  /* the page shows "Reading…" before the worker can say more */
  load = load_new (self->file);
  load_attach (self, load);
  load_start (load);
}

/**
 * bl_profile_page_new_loading:
 *
 * A page for @file that is loading it: the same as bl_profile_page_new()
 * and bl_profile_page_load(), but the worker starts reading before the
 * page's widgets are made.
 */
BlProfilePage *
bl_profile_page_new_loading (GFile *file)
{
  Load *load;
  BlProfilePage *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  load = load_new (file);
  load_start (load);
  self = bl_profile_page_new (file);
  load_attach (self, load);

  return self;
}

void
bl_profile_page_cancel (BlProfilePage *self)
{
  g_return_if_fail (BL_IS_PROFILE_PAGE (self));

  g_cancellable_cancel (self->cancellable);
}
