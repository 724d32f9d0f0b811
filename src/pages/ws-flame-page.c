/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-flame-page"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-flame-page.h"
#include "ws-format.h"
#include "ws-flame-view.h"

/* The Flame graph page: the run's CPU profiles (nsys CPU samples, py-spy,
 * speedscope, collapsed stacks, cProfile) as a flame graph per thread or
 * merged, with search, and a sortable table of functions.  Graphs are
 * built on a worker thread. */

enum
{
  COL_NAME,
  COL_SELF,
  COL_TOTAL,
  COL_CALLS,
  COL_SELF_TEXT,
  COL_TOTAL_TEXT,
  N_COLS
};

/* The table shows the heaviest functions: a GtkListStore of thousands of
 * rows stays quick, and the rest is one search away in the graph. */
#define MAX_ROWS 5000

struct _WsFlamePage
{
  GtkBox parent_instance;

  WsRun *run;
  GCancellable *cancellable;

  GtkComboBoxText *profile_combo;
  GtkComboBoxText *thread_combo;
  GtkComboBoxText *layout_combo;
  GtkSearchEntry *search_entry;
  GtkLabel *share_label;
  GtkLabel *empty_label;
  WsFlameView *view;
  GtkWidget *view_scroll;
  GtkTreeView *table;
  GtkListStore *store;
  GtkWidget *range_bar;
  GtkLabel *range_label;
  gboolean updating;
  gint64 from, to; /* a stretch of the timeline (run clock, ns), or 0, 0 for all */
};

G_DEFINE_FINAL_TYPE (WsFlamePage, ws_flame_page, GTK_TYPE_BOX)

static WsCpuProfile *
current_profile (WsFlamePage *self)
{
  int index = gtk_combo_box_get_active (GTK_COMBO_BOX (self->profile_combo));

  if (self->run == NULL || self->run->cpu_profiles->len == 0)
    return NULL;
  return g_ptr_array_index (self->run->cpu_profiles,
                            index >= 0 ? MIN ((guint) index, self->run->cpu_profiles->len - 1) : 0);
}

static void
fill_table (WsFlamePage *self, WsFlameGraph *graph)
{
  gtk_list_store_clear (self->store);
  for (guint i = 0; graph != NULL && i < graph->functions->len && i < MAX_ROWS; i++)
    {
      const WsFlameFunction *f = &g_array_index (graph->functions, WsFlameFunction, i);
      g_autofree char *label = ws_flame_graph_function_label (graph, f);
      g_autofree char *self_text = ws_flame_format_weight (graph, f->self);
      g_autofree char *total_text = ws_flame_format_weight (graph, f->total);

      gtk_list_store_insert_with_values (self->store, NULL, -1, COL_NAME, label, COL_SELF, f->self,
                                         COL_TOTAL, f->total, COL_CALLS, f->calls, COL_SELF_TEXT,
                                         self_text, COL_TOTAL_TEXT, total_text, -1);
    }
}

static void
update_share (WsFlamePage *self, double share)
{
  const char *query = gtk_entry_get_text (GTK_ENTRY (self->search_entry));
  g_autofree char *text = NULL;

  if (query[0] != '\0' && ws_flame_view_get_graph (self->view) != NULL)
    text = g_strdup_printf (_ ("Matched: %.1f%% of the samples"), 100.0 * share);
  gtk_label_set_text (self->share_label, text != NULL ? text : "");
}

typedef struct
{
  WsCpuProfile *profile;
  gint thread;
  gint64 from, to;
} BuildData;

static void
build_data_free (gpointer data)
{
  BuildData *build = data;

  ws_cpu_profile_unref (build->profile);
  g_free (build);
}

static void
build_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  BuildData *build = task_data;

  g_task_return_pointer (task,
                         ws_flame_graph_new (build->profile, build->thread, build->from, build->to),
                         (GDestroyNotify) ws_flame_graph_unref);
}

static void
built_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsFlameGraph) graph = g_task_propagate_pointer (G_TASK (result), &error);
  WsFlamePage *self = WS_FLAME_PAGE (data);

  /* Cancelled: a newer graph is on its way, or the page is going. */
  if (graph == NULL || self->view == NULL || gtk_widget_in_destruction (GTK_WIDGET (self)))
    {
      g_object_unref (self);
      return;
    }
  ws_flame_view_set_graph (self->view, graph);
  update_share (self, ws_flame_view_set_search (
                        self->view, gtk_entry_get_text (GTK_ENTRY (self->search_entry))));
  fill_table (self, graph);
  g_object_unref (self);
}

static void
rebuild (WsFlamePage *self)
{
  WsCpuProfile *profile = current_profile (self);
  g_autoptr (GTask) task = NULL;
  BuildData *build;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (profile == NULL)
    {
      ws_flame_view_set_graph (self->view, NULL);
      fill_table (self, NULL);
      return;
    }
  self->cancellable = g_cancellable_new ();
  build = g_new0 (BuildData, 1);
  build->profile = ws_cpu_profile_ref (profile);
  build->thread = gtk_combo_box_get_active (GTK_COMBO_BOX (self->thread_combo)) - 1;
  /* A range applies to a profile on the run's clock only. */
  if (profile->times_absolute && self->to > self->from)
    {
      build->from = self->from;
      build->to = self->to;
    }
  task = g_task_new (NULL, self->cancellable, built_cb, g_object_ref (self));
  g_task_set_source_tag (task, rebuild);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_set_task_data (task, build, build_data_free);
  g_task_run_in_thread (task, build_thread);
}

static void
fill_threads (WsFlamePage *self)
{
  WsCpuProfile *profile = current_profile (self);

  self->updating = TRUE;
  gtk_combo_box_text_remove_all (self->thread_combo);
  gtk_combo_box_text_append_text (self->thread_combo, _ ("All threads"));
  for (guint t = 0; profile != NULL && t < profile->threads->len; t++)
    gtk_combo_box_text_append_text (self->thread_combo, ws_cpu_profile_thread_name (profile, t));
  gtk_combo_box_set_active (GTK_COMBO_BOX (self->thread_combo), 0);
  self->updating = FALSE;
}

/* The bar that says which stretch of the timeline the graph shows. */
static void
update_range_bar (WsFlamePage *self)
{
  WsCpuProfile *profile = current_profile (self);
  g_autofree char *from = NULL, *to = NULL, *span = NULL, *text = NULL;

  if (profile == NULL || !profile->times_absolute || self->to <= self->from)
    {
      gtk_widget_hide (self->range_bar);
      return;
    }
  from = ws_format_duration ((double) (self->from - self->run->origin));
  to = ws_format_duration ((double) (self->to - self->run->origin));
  span = ws_format_duration ((double) (self->to - self->from));
  /* TRANSLATORS: the samples of a stretch of the timeline: its start, end
   * (from the run's start) and length */
  text = g_strdup_printf (_ ("Samples from %s to %s of the timeline (%s)"), from, to, span);
  gtk_label_set_text (self->range_label, text);
  gtk_widget_show (self->range_bar);
}

static void
whole_profile_cb (WsFlamePage *self)
{
  ws_flame_page_set_range (self, 0, 0);
}

static void
profile_changed_cb (WsFlamePage *self)
{
  if (self->updating)
    return;
  fill_threads (self);
  update_range_bar (self);
  rebuild (self);
}

static void
thread_changed_cb (WsFlamePage *self)
{
  if (!self->updating)
    rebuild (self);
}

static void
layout_changed_cb (WsFlamePage *self)
{
  ws_flame_view_set_layout (self->view,
                            gtk_combo_box_get_active (GTK_COMBO_BOX (self->layout_combo)) == 1
                              ? WS_FLAME_LAYOUT_FLAME
                              : WS_FLAME_LAYOUT_ICICLE);
}

static void
search_changed_cb (WsFlamePage *self)
{
  update_share (self, ws_flame_view_set_search (
                        self->view, gtk_entry_get_text (GTK_ENTRY (self->search_entry))));
}

static void
add_column (WsFlamePage *self, const char *title, int text_column, int sort_column, gboolean expand)
{
  GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
  GtkTreeViewColumn *column =
    gtk_tree_view_column_new_with_attributes (title, cell, "text", text_column, NULL);

  gtk_tree_view_column_set_sort_column_id (column, sort_column);
  gtk_tree_view_column_set_resizable (column, TRUE);
  gtk_tree_view_column_set_expand (column, expand);
  if (expand)
    g_object_set (cell, "ellipsize", PANGO_ELLIPSIZE_MIDDLE, NULL);
  else
    g_object_set (cell, "xalign", 1.0, NULL);
  gtk_tree_view_append_column (self->table, column);
}

static void
calls_cell (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model,
            GtkTreeIter *iter, gpointer data)
{
  gint64 calls;
  g_autofree char *text = NULL;

  gtk_tree_model_get (model, iter, COL_CALLS, &calls, -1);
  if (calls >= 0)
    text = ws_format_count (calls);
  g_object_set (cell, "text", text != NULL ? text : "—", "xalign", 1.0, NULL);
}

static void
ws_flame_page_dispose (GObject *object)
{
  WsFlamePage *self = WS_FLAME_PAGE (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->run, ws_run_unref);
  g_clear_object (&self->store);
  g_clear_object (&self->view);
  G_OBJECT_CLASS (ws_flame_page_parent_class)->dispose (object);
}

static void
ws_flame_page_class_init (WsFlamePageClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_flame_page_dispose;
}

static void
ws_flame_page_init (WsFlamePage *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  GtkWidget *table_scroll = gtk_scrolled_window_new (NULL, NULL);
  GtkTreeViewColumn *calls;
  GtkCellRenderer *cell;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);
  gtk_container_set_border_width (GTK_CONTAINER (self), 6);

  self->profile_combo = GTK_COMBO_BOX_TEXT (gtk_combo_box_text_new ());
  self->thread_combo = GTK_COMBO_BOX_TEXT (gtk_combo_box_text_new ());
  self->layout_combo = GTK_COMBO_BOX_TEXT (gtk_combo_box_text_new ());
  gtk_combo_box_text_append_text (self->layout_combo, _ ("Icicle"));
  gtk_combo_box_text_append_text (self->layout_combo, _ ("Flame"));
  gtk_combo_box_set_active (GTK_COMBO_BOX (self->layout_combo), 0);
  self->search_entry = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->search_entry), _ ("Search functions"));
  self->share_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->thread_combo), _ ("Thread"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->profile_combo), _ ("CPU profile"));
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->profile_combo), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->thread_combo), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->layout_combo), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->search_entry), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->share_label), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), bar, FALSE, FALSE, 0);

  self->range_bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  self->range_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->range_label, 0);
  {
    GtkWidget *whole = gtk_button_new_with_label (_ ("Whole Profile"));

    gtk_box_pack_start (GTK_BOX (self->range_bar), GTK_WIDGET (self->range_label), FALSE, FALSE, 0);
    gtk_box_pack_start (GTK_BOX (self->range_bar), whole, FALSE, FALSE, 0);
    g_signal_connect_object (whole, "clicked", G_CALLBACK (whole_profile_cb), self,
                             G_CONNECT_SWAPPED);
  }
  gtk_widget_show_all (self->range_bar);
  gtk_widget_set_no_show_all (self->range_bar, TRUE);
  gtk_widget_hide (self->range_bar);
  gtk_box_pack_start (GTK_BOX (self), self->range_bar, FALSE, FALSE, 0);

  self->empty_label = GTK_LABEL (gtk_label_new (
    _ ("This run has no CPU profile: open an nsys export captured with CPU sampling, or a "
       "py-spy, speedscope, collapsed-stacks or cProfile file with it.")));
  gtk_label_set_line_wrap (self->empty_label, TRUE);
  gtk_widget_set_no_show_all (GTK_WIDGET (self->empty_label), TRUE);
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (self->empty_label), FALSE, FALSE, 12);

  /* Held beyond the container's reference: a graph that arrives while the
   * window is being destroyed must find a live widget or none. */
  self->view = g_object_ref_sink (WS_FLAME_VIEW (ws_flame_view_new ()));
  self->view_scroll = gtk_scrolled_window_new (NULL, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->view_scroll), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_container_add (GTK_CONTAINER (self->view_scroll), GTK_WIDGET (self->view));
  gtk_paned_pack1 (GTK_PANED (paned), self->view_scroll, TRUE, FALSE);

  self->store = gtk_list_store_new (N_COLS, G_TYPE_STRING, G_TYPE_DOUBLE, G_TYPE_DOUBLE,
                                    G_TYPE_INT64, G_TYPE_STRING, G_TYPE_STRING);
  self->table = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->store)));
  add_column (self, _ ("Function"), COL_NAME, COL_NAME, TRUE);
  add_column (self, _ ("Self"), COL_SELF_TEXT, COL_SELF, FALSE);
  add_column (self, _ ("Total"), COL_TOTAL_TEXT, COL_TOTAL, FALSE);
  cell = gtk_cell_renderer_text_new ();
  calls = gtk_tree_view_column_new ();
  gtk_tree_view_column_set_title (calls, _ ("Calls"));
  gtk_tree_view_column_pack_start (calls, cell, TRUE);
  gtk_tree_view_column_set_cell_data_func (calls, cell, calls_cell, NULL, NULL);
  gtk_tree_view_column_set_sort_column_id (calls, COL_CALLS);
  gtk_tree_view_append_column (self->table, calls);
  gtk_tree_view_set_search_column (self->table, COL_NAME);
  gtk_container_add (GTK_CONTAINER (table_scroll), GTK_WIDGET (self->table));
  gtk_widget_set_size_request (table_scroll, -1, 160);
  gtk_paned_pack2 (GTK_PANED (paned), table_scroll, TRUE, FALSE);
  gtk_paned_set_position (GTK_PANED (paned), 420);
  gtk_box_pack_start (GTK_BOX (self), paned, TRUE, TRUE, 0);

  g_signal_connect_object (self->profile_combo, "changed", G_CALLBACK (profile_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->thread_combo, "changed", G_CALLBACK (thread_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->layout_combo, "changed", G_CALLBACK (layout_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search_entry, "search-changed", G_CALLBACK (search_changed_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_show_all (GTK_WIDGET (self));
}

GtkWidget *
ws_flame_page_new (void)
{
  return g_object_new (WS_TYPE_FLAME_PAGE, NULL);
}

/**
 * ws_flame_page_set_run:
 * @run: (nullable) (transfer none): the run whose CPU profiles to show
 */
void
ws_flame_page_set_run (WsFlamePage *self, WsRun *run)
{
  g_return_if_fail (WS_IS_FLAME_PAGE (self));

  g_clear_pointer (&self->run, ws_run_unref);
  self->run = run != NULL ? ws_run_ref (run) : NULL;
  self->from = self->to = 0;
  self->updating = TRUE;
  gtk_combo_box_text_remove_all (self->profile_combo);
  for (guint i = 0; run != NULL && i < run->cpu_profiles->len; i++)
    {
      WsCpuProfile *profile = g_ptr_array_index (run->cpu_profiles, i);
      g_autofree char *base = g_path_get_basename (profile->path);
      g_autofree char *label = g_strdup_printf ("%s (%s)", base, profile->kind);

      gtk_combo_box_text_append_text (self->profile_combo, label);
    }
  gtk_combo_box_set_active (GTK_COMBO_BOX (self->profile_combo), 0);
  self->updating = FALSE;
  gtk_widget_set_visible (GTK_WIDGET (self->empty_label),
                          run == NULL || run->cpu_profiles->len == 0);
  fill_threads (self);
  update_range_bar (self);
  rebuild (self);
}

/**
 * ws_flame_page_set_range:
 * @from: start of a stretch of the timeline, on the run's clock (ns)
 * @to: its end; @from = @to = 0 for the whole profile
 *
 * Shows the samples taken in [@from, @to) of the run's CPU profile whose
 * times are on the run's clock (nsys CPU sampling), switching to that
 * profile.  Profiles with relative times (py-spy, cProfile) are always
 * shown whole.
 */
void
ws_flame_page_set_range (WsFlamePage *self, gint64 from, gint64 to)
{
  g_return_if_fail (WS_IS_FLAME_PAGE (self));

  self->from = to > from ? from : 0;
  self->to = to > from ? to : 0;
  if (self->run != NULL && self->to > self->from)
    for (guint i = 0; i < self->run->cpu_profiles->len; i++)
      if (((WsCpuProfile *) g_ptr_array_index (self->run->cpu_profiles, i))->times_absolute)
        {
          if (gtk_combo_box_get_active (GTK_COMBO_BOX (self->profile_combo)) != (int) i)
            {
              self->updating = TRUE;
              gtk_combo_box_set_active (GTK_COMBO_BOX (self->profile_combo), (int) i);
              self->updating = FALSE;
              fill_threads (self);
            }
          break;
        }
  update_range_bar (self);
  rebuild (self);
}

/**
 * ws_flame_page_get_range_text:
 *
 * Returns: (transfer none) (nullable): the range bar's text while it is
 * shown, for tests
 */
const char *
ws_flame_page_get_range_text (WsFlamePage *self)
{
  if (!gtk_widget_get_visible (self->range_bar))
    return NULL;
  return gtk_label_get_text (self->range_label);
}

/**
 * ws_flame_page_get_view:
 *
 * Returns: (transfer none): the flame graph widget, for tests
 */
GtkWidget *
ws_flame_page_get_view (WsFlamePage *self)
{
  return GTK_WIDGET (self->view);
}

void
ws_flame_page_set_search (WsFlamePage *self, const char *query)
{
  gtk_entry_set_text (GTK_ENTRY (self->search_entry), query);
  search_changed_cb (self);
}
