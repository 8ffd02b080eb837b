/* bl-trace-view.c
 *
 * The Timeline page of a Perfetto trace: a toolbar with the selected range
 * and the zoom buttons, the BlTraceTimeline, and below it the flame graph
 * of the selected range (of the whole trace while there is none) beside
 * the details of the selected slice. The range's call tree is built by
 * BlProfileRange in a worker; each new range cancels the build of the last,
 * and a result that arrives after another range was picked is dropped, so
 * dragging stays smooth on a million slices and the newest range wins.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-trace-view"

#include "config.h"

#include <glib/gi18n.h>

#include "bl-perfetto-reader.h"
#include "bl-profile-range.h"

#include "bl-trace-view.h"

struct _BlTraceView
{
  GtkWidget        parent_instance;

  BlProfile       *profile;
  BlProfileRange  *range;
  BlProfile       *shown;
  GCancellable    *cancellable;
  guint            generation;

  BlTraceTimeline *timeline;
  BlFlameGraph    *flame_graph;
  GtkLabel        *range_label;
  GtkLabel        *graph_title;
  GtkLabel        *details_label;
  GtkWidget       *clear_button;
};

enum
{
  PROP_0,
  PROP_PROFILE,
  PROP_SHOWN_PROFILE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (BlTraceView, bl_trace_view, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

static void
set_shown (BlTraceView *self,
           BlProfile   *profile)
{
  if (!g_set_object (&self->shown, profile))
    return;

  if (profile != NULL)
    bl_flame_graph_set_profile (self->flame_graph, profile);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOWN_PROFILE]);
}

typedef struct
{
  BlTraceView *self;   /* weak */
  guint        generation;
} BuildRequest;

static void
build_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  BuildRequest *request = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (BlProfile) part = NULL;

  part = bl_profile_range_build_finish (BL_PROFILE_RANGE (object), result, &error);
  if (request->self != NULL)
    {
      g_object_remove_weak_pointer (G_OBJECT (request->self), (gpointer *) &request->self);
      /* a newer range was asked for meanwhile: this one is stale */
      if (part != NULL && request->generation == request->self->generation)
        set_shown (request->self, part);
    }
  g_free (request);
}

static void
update_range_text (BlTraceView *self)
{
  guint64 from, to, start;
  g_autofree char *text = NULL;

  bl_trace_timeline_get_bounds (self->timeline, &start, NULL);
  if (self->profile != NULL && bl_trace_timeline_get_range (self->timeline, &from, &to))
    {
      g_autofree char *a = bl_profile_format_value (self->profile, BL_METRIC_TIME_NS,
                                                    from - MIN (from, start));
      g_autofree char *b = bl_profile_format_value (self->profile, BL_METRIC_TIME_NS,
                                                    to - MIN (to, start));
      g_autofree char *d = bl_profile_format_value (self->profile, BL_METRIC_TIME_NS, to - from);

      /* Translators: the selected time range: from, to, and how long */
      text = g_strdup_printf (_("Range %s – %s (%s)"), a, b, d);
      gtk_label_set_text (self->graph_title, _("Flame Graph of the Range"));
    }
  else
    {
      text = g_strdup (_("Drag across the tracks to select a range"));
      gtk_label_set_text (self->graph_title, _("Flame Graph of the Whole Trace"));
    }
  gtk_label_set_text (self->range_label, text);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "trace.clear-range",
                                 bl_trace_timeline_get_range (self->timeline, NULL, NULL));
}

static void
range_changed_cb (BlTraceView *self)
{
  guint64 from, to;

  self->generation++;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  update_range_text (self);

  if (self->profile == NULL)
    return;

  if (!bl_trace_timeline_get_range (self->timeline, &from, &to))
    {
      set_shown (self, self->profile);
      return;
    }

  set_shown (self, NULL);
  {
    BuildRequest *request = g_new0 (BuildRequest, 1);

    request->self = self;
    request->generation = self->generation;
    g_object_add_weak_pointer (G_OBJECT (self), (gpointer *) &request->self);
    self->cancellable = g_cancellable_new ();
    bl_profile_range_build_async (self->range, from, to, self->cancellable, build_done, request);
  }
}

static void
slice_selected_cb (BlTraceView *self)
{
  guint thread;
  guint32 span;

  if (bl_trace_timeline_get_selected_slice (self->timeline, &thread, &span))
    {
      g_autofree char *text = bl_trace_timeline_dup_slice_details (self->timeline, thread, span);

      gtk_label_set_text (self->details_label, text);
    }
  else
    gtk_label_set_text (self->details_label, _("Click a slice to see its details."));
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  BlTraceView *self = BL_TRACE_VIEW (widget);

  bl_trace_timeline_zoom_at (self->timeline,
                             gtk_widget_get_width (GTK_WIDGET (self->timeline)) / 2.0,
                             g_variant_get_double (parameter));
}

static void
reset_zoom_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  bl_trace_timeline_reset_zoom (BL_TRACE_VIEW (widget)->timeline);
}

static void
clear_range_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  bl_trace_timeline_clear_range (BL_TRACE_VIEW (widget)->timeline);
}

static void
bl_trace_view_dispose (GObject *object)
{
  BlTraceView *self = BL_TRACE_VIEW (object);
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_TRACE_VIEW);
  /* the template's unnamed children too */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->shown);
  g_clear_object (&self->range);
  g_clear_object (&self->profile);

  G_OBJECT_CLASS (bl_trace_view_parent_class)->dispose (object);
}

static void
bl_trace_view_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  BlTraceView *self = BL_TRACE_VIEW (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      g_value_set_object (value, self->profile);
      break;
    case PROP_SHOWN_PROFILE:
      g_value_set_object (value, self->shown);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_trace_view_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  BlTraceView *self = BL_TRACE_VIEW (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      bl_trace_view_set_profile (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_trace_view_class_init (BlTraceViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_trace_view_dispose;
  object_class->get_property = bl_trace_view_get_property;
  object_class->set_property = bl_trace_view_set_property;

  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL, BL_TYPE_PROFILE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOWN_PROFILE] =
    g_param_spec_object ("shown-profile", NULL, NULL, BL_TYPE_PROFILE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (BL_TYPE_FLAME_GRAPH);
  g_type_ensure (BL_TYPE_TRACE_TIMELINE);
  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/brightlens/Brightlens/ui/bl-trace-view.ui");
  gtk_widget_class_bind_template_child (widget_class, BlTraceView, timeline);
  gtk_widget_class_bind_template_child (widget_class, BlTraceView, flame_graph);
  gtk_widget_class_bind_template_child (widget_class, BlTraceView, range_label);
  gtk_widget_class_bind_template_child (widget_class, BlTraceView, graph_title);
  gtk_widget_class_bind_template_child (widget_class, BlTraceView, details_label);
  gtk_widget_class_bind_template_child (widget_class, BlTraceView, clear_button);
  gtk_widget_class_bind_template_callback (widget_class, range_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, slice_selected_cb);

  gtk_widget_class_install_action (widget_class, "trace.zoom", "d", zoom_action);
  gtk_widget_class_install_action (widget_class, "trace.reset-zoom", NULL, reset_zoom_action);
  gtk_widget_class_install_action (widget_class, "trace.clear-range", NULL, clear_range_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "trace.clear-range",
                                       NULL);

  gtk_widget_class_set_css_name (widget_class, "bltraceview");
}

static void
bl_trace_view_init (BlTraceView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  bl_trace_timeline_set_color_graph (self->timeline, self->flame_graph);
  update_range_text (self);
  slice_selected_cb (self);
}

GtkWidget *
bl_trace_view_new (void)
{
  return g_object_new (BL_TYPE_TRACE_VIEW, NULL);
}

BlProfile *
bl_trace_view_get_profile (BlTraceView *self)
{
  g_return_val_if_fail (BL_IS_TRACE_VIEW (self), NULL);

  return self->profile;
}

void
bl_trace_view_set_profile (BlTraceView *self,
                           BlProfile   *profile)
{
  g_return_if_fail (BL_IS_TRACE_VIEW (self));
  g_return_if_fail (!profile || BL_IS_PROFILE (profile));

  if (!g_set_object (&self->profile, profile))
    return;

  /* a range of the last profile still being built is of no use now */
  self->generation++;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  g_clear_object (&self->range);
  if (profile != NULL && bl_profile_is_finished (profile))
    self->range = bl_profile_range_new (profile);
  /* the whole trace until a range is picked; none holds on to the last */
  set_shown (self, profile);
  bl_flame_graph_set_profile (self->flame_graph, profile);
  bl_trace_timeline_set_profile (self->timeline, profile);
  update_range_text (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
}

gboolean
bl_trace_view_can_show (BlProfile *profile)
{
  const BlPerfettoTrace *trace;

  if (profile == NULL)
    return FALSE;
  trace = bl_perfetto_get_trace (profile);
  if (trace == NULL)
    return FALSE;

  return bl_profile_has_time_order (profile) || trace->counters->len > 0 ||
         trace->instants->len > 0;
}

BlTraceTimeline *
bl_trace_view_get_timeline (BlTraceView *self)
{
  g_return_val_if_fail (BL_IS_TRACE_VIEW (self), NULL);

  return self->timeline;
}

BlFlameGraph *
bl_trace_view_get_flame_graph (BlTraceView *self)
{
  g_return_val_if_fail (BL_IS_TRACE_VIEW (self), NULL);

  return self->flame_graph;
}

BlProfile *
bl_trace_view_get_shown_profile (BlTraceView *self)
{
  g_return_val_if_fail (BL_IS_TRACE_VIEW (self), NULL);

  return self->shown;
}

const char *
bl_trace_view_get_details_text (BlTraceView *self)
{
  g_return_val_if_fail (BL_IS_TRACE_VIEW (self), NULL);

  return gtk_label_get_text (self->details_label);
}

const char *
bl_trace_view_get_range_text (BlTraceView *self)
{
  g_return_val_if_fail (BL_IS_TRACE_VIEW (self), NULL);

  return gtk_label_get_text (self->range_label);
}
