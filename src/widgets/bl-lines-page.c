/* bl-lines-page.c — hot lines beside the annotated source view
 *
 * The "Lines" page of a profile: on the left every line ranked by the
 * chosen metric, on the right the source view. Selecting a hot line opens
 * its file there; bl_lines_page_show_node() opens a frame's function (the
 * profile view calls it when a frame or a table row is activated). The page
 * can follow a flame graph's profile and metric, so it needs no other hook
 * in the view around it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-lines-page"

#include "config.h"

#include "bl-lines-page.h"
#include "bl-profile-node.h"

struct _BlLinesPage
{
  GtkWidget       parent_instance;

  BlProfile      *profile;
  GtkPaned       *paned;
  BlHotLinesView *hot_lines;
  BlSourceView   *source_view;
  GWeakRef        graph;          /* the flame graph followed, if any */
};

G_DEFINE_FINAL_TYPE (BlLinesPage, bl_lines_page, GTK_TYPE_WIDGET)

static void
line_selected_cb (BlLinesPage    *self,
                  guint           line_index,
                  BlHotLinesView *hot_lines)
{
  g_autoptr(BlFlameGraph) graph = NULL;
  g_autoptr(BlProfileNode) item = NULL;
  guint32 function;

  if (self->profile == NULL || line_index >= bl_profile_get_n_lines (self->profile))
    return;

  bl_source_view_show_line (self->source_view, line_index);

  /* the flame graph goes to the line's function too: its heaviest frame in
   * the graph's thread, unless the selection is in that function already */
  graph = g_weak_ref_get (&self->graph);
  function = bl_source_view_get_function (self->source_view);
  if (graph == NULL || bl_flame_graph_get_profile (graph) != self->profile ||
      function == BL_NODE_NONE)
    return;
  if (bl_flame_graph_get_selected_node (graph) != BL_NODE_NONE &&
      bl_profile_get_node_function (self->profile,
                                    bl_flame_graph_get_selected_node (graph)) == function)
    return;

  item = bl_profile_node_new_for_function (self->profile, bl_flame_graph_get_thread (graph),
                                           function, BL_PROFILE_NODE_FUNCTION);
  if (item == NULL || bl_profile_node_get_node (item) == BL_NODE_NONE)
    return;
  bl_flame_graph_set_selected_node (graph, bl_profile_node_get_node (item));
  bl_flame_graph_zoom_to_node (graph, bl_profile_node_get_node (item), TRUE);
}

static void
graph_profile_cb (BlLinesPage  *self,
                  GParamSpec   *pspec,
                  BlFlameGraph *graph)
{
  bl_lines_page_set_profile (self, bl_flame_graph_get_profile (graph));
  bl_lines_page_set_metric (self, bl_flame_graph_get_metric (graph));
}

static void
graph_metric_cb (BlLinesPage  *self,
                 GParamSpec   *pspec,
                 BlFlameGraph *graph)
{
  bl_lines_page_set_metric (self, bl_flame_graph_get_metric (graph));
}

static void
bl_lines_page_dispose (GObject *object)
{
  BlLinesPage *self = (BlLinesPage *) object;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->profile);
  g_weak_ref_set (&self->graph, NULL);

  G_OBJECT_CLASS (bl_lines_page_parent_class)->dispose (object);
}

static void
bl_lines_page_finalize (GObject *object)
{
  BlLinesPage *self = (BlLinesPage *) object;

  g_weak_ref_clear (&self->graph);

  G_OBJECT_CLASS (bl_lines_page_parent_class)->finalize (object);
}

static void
bl_lines_page_class_init (BlLinesPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_lines_page_dispose;
  object_class->finalize = bl_lines_page_finalize;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "linespage");
}

static void
bl_lines_page_init (BlLinesPage *self)
{
  g_weak_ref_init (&self->graph, NULL);
  self->paned = GTK_PANED (gtk_paned_new (GTK_ORIENTATION_HORIZONTAL));
  self->hot_lines = BL_HOT_LINES_VIEW (bl_hot_lines_view_new ());
  self->source_view = BL_SOURCE_VIEW (bl_source_view_new ());

  gtk_paned_set_start_child (self->paned, GTK_WIDGET (self->hot_lines));
  gtk_paned_set_end_child (self->paned, GTK_WIDGET (self->source_view));
  gtk_paned_set_shrink_start_child (self->paned, FALSE);
  gtk_paned_set_shrink_end_child (self->paned, FALSE);
  gtk_paned_set_position (self->paned, 460);
  gtk_widget_set_size_request (GTK_WIDGET (self->hot_lines), 260, -1);
  gtk_widget_set_size_request (GTK_WIDGET (self->source_view), 360, -1);
  gtk_widget_set_parent (GTK_WIDGET (self->paned), GTK_WIDGET (self));

  g_signal_connect_swapped (self->hot_lines, "line-selected", G_CALLBACK (line_selected_cb), self);
}

GtkWidget *
bl_lines_page_new (void)
{
  return g_object_new (BL_TYPE_LINES_PAGE, NULL);
}

/**
 * bl_lines_page_follow:
 *
 * Shows the profile and the metric of @graph from now on.
 */
void
bl_lines_page_follow (BlLinesPage  *self,
                      BlFlameGraph *graph)
{
  g_return_if_fail (BL_IS_LINES_PAGE (self));
  g_return_if_fail (BL_IS_FLAME_GRAPH (graph));

  g_weak_ref_set (&self->graph, graph);
  g_signal_connect_object (graph, "notify::profile", G_CALLBACK (graph_profile_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (graph, "notify::metric", G_CALLBACK (graph_metric_cb), self,
                           G_CONNECT_SWAPPED);
  graph_profile_cb (self, NULL, graph);
}

void
bl_lines_page_set_profile (BlLinesPage *self,
                           BlProfile   *profile)
{
  g_return_if_fail (BL_IS_LINES_PAGE (self));

  if (!g_set_object (&self->profile, profile))
    return;

  bl_source_view_set_profile (self->source_view, profile);
  bl_hot_lines_view_set_profile (self->hot_lines, profile);
}

void
bl_lines_page_set_metric (BlLinesPage *self,
                          BlMetricId   metric)
{
  g_return_if_fail (BL_IS_LINES_PAGE (self));

  bl_source_view_set_metric (self->source_view, metric);
  bl_hot_lines_view_set_metric (self->hot_lines, metric);
}

/**
 * bl_lines_page_show_node:
 * @node: a call-tree node of the page's profile
 *
 * Opens the source of the node's function.
 *
 * Returns: %FALSE when the node has no source file (a thread root)
 */
gboolean
bl_lines_page_show_node (BlLinesPage *self,
                         guint32      node)
{
  guint32 function;

  g_return_val_if_fail (BL_IS_LINES_PAGE (self), FALSE);

  if (self->profile == NULL || node >= bl_profile_get_n_nodes (self->profile) ||
      bl_profile_get_node (self->profile, node)->depth == 0)
    return FALSE;

  function = bl_profile_get_node_function (self->profile, node);
  if (bl_profile_get_function (self->profile, function)->file == 0)
    return FALSE;

  bl_source_view_show_function (self->source_view, function);

  return TRUE;
}

BlSourceView *
bl_lines_page_get_source_view (BlLinesPage *self)
{
  g_return_val_if_fail (BL_IS_LINES_PAGE (self), NULL);

  return self->source_view;
}

BlHotLinesView *
bl_lines_page_get_hot_lines (BlLinesPage *self)
{
  g_return_val_if_fail (BL_IS_LINES_PAGE (self), NULL);

  return self->hot_lines;
}
