/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-critical-path-page"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-critical-path-page.h"
#include "ws-format.h"

/* The Critical Path page (docs/critical-path.md): what decides the step
 * time, per steady step, by kind and by kernel, NVTX range and rank,
 * beside the time each one ran; and what-if.  A double click on a row
 * (or Enter) shows the median step's path on the Timeline; a kernel's or
 * range's menu predicts the step without half or all of it.  Every
 * number and sentence comes from src/critical, as the CLI prints them. */
struct _WsCriticalPathPage
{
  GtkBox parent_instance;

  WsRun *run;
  WsCriticalPath *cp; /* owned */

  GtkStack *stack;
  GtkLabel *empty;
  GtkLabel *headline;
  GtkLabel *busiest;
  GtkListStore *kinds;
  GtkListStore *store;
  GtkTreeView *table;
  GtkEntry *entry;
  GtkLabel *prediction;
};

G_DEFINE_FINAL_TYPE (WsCriticalPathPage, ws_critical_path_page, GTK_TYPE_BOX)

enum
{
  COL_GROUP_ID, /* WsCpRowGroup */
  COL_GROUP,
  COL_NAME,
  COL_ON_PATH,
  COL_SHARE,
  COL_BUSY,
  COL_ON_PATH_NS, /* double, for sorting and tests */
  N_COLS
};

enum
{
  KIND_LABEL,
  KIND_ON_PATH,
  KIND_SHARE,
  KIND_NS,
  N_KIND_COLS
};

enum
{
  SHOW_ITEM,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static double
path_total (const WsCriticalPath *cp)
{
  double total = 0;

  for (guint k = 0; k < WS_CP_N_KINDS; k++)
    total += cp->by_kind[k];
  return total;
}

static char *
share_text (double part, double whole)
{
  return ws_format_percent_short (whole > 0 ? 100.0 * part / whole : 0);
}

/* The rows of a group: the first PAGE_TOP by time on the path, and after
 * them those that ran a twentieth of the group's time or more (what is
 * busy but off the path: the page's point). */
#define PAGE_TOP 12

static void
add_items (WsCriticalPathPage *self, GPtrArray *items, WsCpRowGroup group, const char *label,
           double total)
{
  double busy_sum = 0;

  for (guint i = 0; i < items->len; i++)
    busy_sum += ((WsCpItem *) g_ptr_array_index (items, i))->busy;
  for (guint i = 0; i < items->len; i++)
    {
      const WsCpItem *item = g_ptr_array_index (items, i);

      if (i >= PAGE_TOP && group != WS_CP_ROW_RANK && item->busy < 0.05 * busy_sum)
        continue;
      g_autofree char *on = ws_format_duration (item->on_path);
      g_autofree char *share = share_text (item->on_path, total);
      g_autofree char *busy = ws_format_duration (item->busy);

      gtk_list_store_insert_with_values (
        self->store, NULL, -1, COL_GROUP_ID, (int) group, COL_GROUP, label, COL_NAME, item->name,
        COL_ON_PATH, on, COL_SHARE, share, COL_BUSY, busy, COL_ON_PATH_NS, item->on_path, -1);
    }
}

static void
fill (WsCriticalPathPage *self)
{
  const WsCriticalPath *cp = self->cp;
  double total;
  g_autofree char *median = NULL;
  g_autofree char *low = NULL;
  g_autofree char *high = NULL;
  g_autofree char *headline = NULL;
  g_autofree char *busiest = NULL;

  gtk_list_store_clear (self->kinds);
  gtk_list_store_clear (self->store);
  gtk_label_set_text (self->prediction, "");
  if (cp == NULL || cp->n_steady == 0)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  total = path_total (cp);
  median = ws_format_duration (cp->median_time);
  low = ws_format_duration ((double) cp->min_time);
  high = ws_format_duration ((double) cp->max_time);
  headline = g_strdup_printf (
    g_dngettext (
      GETTEXT_PACKAGE, "Critical path: %u steady step, step time %s (%s–%s); its parts:",
      "Critical path: %u steady steps, median step time %s (%s–%s); per step:", cp->n_steady),
    cp->n_steady, median, low, high);
  gtk_label_set_text (self->headline, headline);
  busiest = ws_critical_path_busiest_text (cp);
  gtk_label_set_text (self->busiest, busiest != NULL ? busiest : "");
  for (guint k = 0; k < WS_CP_N_KINDS; k++)
    {
      g_autofree char *on = ws_format_duration (cp->by_kind[k]);
      g_autofree char *share = share_text (cp->by_kind[k], total);

      gtk_list_store_insert_with_values (self->kinds, NULL, -1, KIND_LABEL, ws_cp_kind_label (k),
                                         KIND_ON_PATH, on, KIND_SHARE, share, KIND_NS,
                                         cp->by_kind[k], -1);
    }
  if (cp->graph->n_ranks > 1)
    add_items (self, cp->ranks, WS_CP_ROW_RANK, _ ("Rank"), total);
  add_items (self, cp->kernels, WS_CP_ROW_KERNEL, _ ("Kernel"), total);
  add_items (self, cp->ranges, WS_CP_ROW_RANGE, _ ("NVTX range"), total);
  gtk_stack_set_visible_child_name (self->stack, "content");
}

/**
 * ws_critical_path_page_set_path:
 * @run: (nullable): the run @cp was found in
 * @cp: (transfer full) (nullable): its critical paths, or %NULL for none;
 *   the page frees it when it is replaced or the page goes
 */
void
ws_critical_path_page_set_path (WsCriticalPathPage *self, WsRun *run, WsCriticalPath *cp)
{
  g_return_if_fail (WS_IS_CRITICAL_PATH_PAGE (self));

  g_clear_pointer (&self->cp, ws_critical_path_free);
  g_clear_pointer (&self->run, ws_run_unref);
  self->cp = cp;
  self->run = run != NULL ? ws_run_ref (run) : NULL;
  fill (self);
}

const WsCriticalPath *
ws_critical_path_page_get_path (WsCriticalPathPage *self)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_PAGE (self), NULL);
  return self->cp;
}

GtkTreeModel *
ws_critical_path_page_get_model (WsCriticalPathPage *self)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_PAGE (self), NULL);
  return GTK_TREE_MODEL (self->store);
}

GtkTreeModel *
ws_critical_path_page_get_kinds (WsCriticalPathPage *self)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_PAGE (self), NULL);
  return GTK_TREE_MODEL (self->kinds);
}

const char *
ws_critical_path_page_get_prediction (WsCriticalPathPage *self)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_PAGE (self), NULL);
  return gtk_label_get_text (self->prediction);
}

const char *
ws_critical_path_page_get_headline (WsCriticalPathPage *self)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH_PAGE (self), NULL);
  return gtk_label_get_text (self->headline);
}

/* What the Predict button does: the step with @change, or why not. */
void
ws_critical_path_page_predict (WsCriticalPathPage *self, const char *change)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsWhatIf) what_if = NULL;
  g_autofree char *text = NULL;
  WsCpPrediction p;

  g_return_if_fail (WS_IS_CRITICAL_PATH_PAGE (self));

  if (self->cp == NULL || change == NULL)
    return;
  if (g_strcmp0 (gtk_entry_get_text (self->entry), change) != 0)
    gtk_entry_set_text (self->entry, change);
  what_if = ws_what_if_parse (change, &error);
  if (what_if == NULL)
    {
      gtk_label_set_text (self->prediction, error->message);
      return;
    }
  ws_critical_path_predict (self->cp, &what_if, 1, &p);
  if (p.touched == 0)
    text = g_strdup_printf (_ ("what-if “%s” matches nothing in the run"), change);
  else
    text = ws_cp_prediction_text (change, &p);
  gtk_label_set_text (self->prediction, text);
}

static void
predict_clicked (WsCriticalPathPage *self)
{
  ws_critical_path_page_predict (self, gtk_entry_get_text (self->entry));
}

static gboolean
selected_row (WsCriticalPathPage *self, int *group, char **name)
{
  GtkTreeSelection *selection = gtk_tree_view_get_selection (self->table);
  GtkTreeModel *model;
  GtkTreeIter iter;

  if (!gtk_tree_selection_get_selected (selection, &model, &iter))
    return FALSE;
  gtk_tree_model_get (model, &iter, COL_GROUP_ID, group, COL_NAME, name, -1);
  return TRUE;
}

static void
what_if_item (WsCriticalPathPage *self, const char *amount)
{
  g_autofree char *name = NULL;
  g_autofree char *change = NULL;
  int group;

  if (!selected_row (self, &group, &name) || group == WS_CP_ROW_RANK)
    return;
  change = ws_what_if_for_name (group == WS_CP_ROW_KERNEL ? "kernel" : "nvtx", name, -1, amount);
  ws_critical_path_page_predict (self, change);
}

static void
half_activated (WsCriticalPathPage *self)
{
  what_if_item (self, "0.5x");
}

static void
none_activated (WsCriticalPathPage *self)
{
  what_if_item (self, "0x");
}

static gboolean
table_pressed (WsCriticalPathPage *self, GdkEventButton *event, GtkTreeView *table)
{
  GtkTreePath *path = NULL;
  GtkWidget *menu, *item;
  g_autofree char *name = NULL;
  int group;

  if (!gdk_event_triggers_context_menu ((GdkEvent *) event) ||
      !gtk_tree_view_get_path_at_pos (table, (int) event->x, (int) event->y, &path, NULL, NULL,
                                      NULL))
    return FALSE;
  gtk_tree_selection_select_path (gtk_tree_view_get_selection (table), path);
  gtk_tree_path_free (path);
  if (!selected_row (self, &group, &name) || group == WS_CP_ROW_RANK)
    return TRUE;
  menu = gtk_menu_new ();
  item = gtk_menu_item_new_with_label (_ ("What if it took half the time"));
  g_signal_connect_swapped (item, "activate", G_CALLBACK (half_activated), self);
  gtk_menu_shell_append (GTK_MENU_SHELL (menu), item);
  item = gtk_menu_item_new_with_label (_ ("What if it took no time"));
  g_signal_connect_swapped (item, "activate", G_CALLBACK (none_activated), self);
  gtk_menu_shell_append (GTK_MENU_SHELL (menu), item);
  gtk_widget_show_all (menu);
  gtk_menu_attach_to_widget (GTK_MENU (menu), GTK_WIDGET (table), NULL);
  gtk_menu_popup_at_pointer (GTK_MENU (menu), (GdkEvent *) event);
  return TRUE;
}

static void
row_activated (WsCriticalPathPage *self, GtkTreePath *path, GtkTreeViewColumn *column,
               GtkTreeView *table)
{
  g_autofree char *name = NULL;
  int group;

  if (selected_row (self, &group, &name))
    g_signal_emit (self, signals[SHOW_ITEM], 0, group, name);
}

static GtkTreeViewColumn *
text_column (GtkTreeView *view, const char *title, int column, gboolean numeric)
{
  GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
  GtkTreeViewColumn *col;

  if (numeric)
    g_object_set (cell, "xalign", 1.0, NULL);
  else
    g_object_set (cell, "ellipsize", PANGO_ELLIPSIZE_MIDDLE, NULL);
  col = gtk_tree_view_column_new_with_attributes (title, cell, "text", column, NULL);
  gtk_tree_view_column_set_resizable (col, TRUE);
  gtk_tree_view_column_set_expand (col, !numeric);
  gtk_tree_view_append_column (view, col);
  return col;
}

static GtkWidget *
scrolled (GtkWidget *child)
{
  GtkWidget *sw = gtk_scrolled_window_new (NULL, NULL);

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (sw), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_container_add (GTK_CONTAINER (sw), child);
  return sw;
}

static GtkWidget *
make_kinds (WsCriticalPathPage *self)
{
  GtkWidget *view;

  self->kinds =
    gtk_list_store_new (N_KIND_COLS, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_DOUBLE);
  view = gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->kinds));
  text_column (GTK_TREE_VIEW (view), _ ("Kind"), KIND_LABEL, FALSE);
  text_column (GTK_TREE_VIEW (view), _ ("On the path"), KIND_ON_PATH, TRUE);
  text_column (GTK_TREE_VIEW (view), _ ("Share"), KIND_SHARE, TRUE);
  gtk_widget_set_size_request (view, 320, -1);
  return view;
}

static GtkWidget *
make_table (WsCriticalPathPage *self)
{
  GtkWidget *view;

  self->store = gtk_list_store_new (N_COLS, G_TYPE_INT, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING,
                                    G_TYPE_STRING, G_TYPE_STRING, G_TYPE_DOUBLE);
  view = gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->store));
  self->table = GTK_TREE_VIEW (view);
  {
    GList *cells = gtk_cell_layout_get_cells (
      GTK_CELL_LAYOUT (text_column (self->table, _ ("Group"), COL_GROUP, TRUE)));

    /* Numeric for its width (not ellipsized), but text. */
    g_object_set (cells->data, "xalign", 0.0, NULL);
    g_list_free (cells);
  }
  text_column (self->table, _ ("Name"), COL_NAME, FALSE);
  text_column (self->table, _ ("On the path"), COL_ON_PATH, TRUE);
  text_column (self->table, _ ("Share of the path"), COL_SHARE, TRUE);
  /* TRANSLATORS: the time a kernel ran, a range lasted or a rank's step took, per steady step */
  text_column (self->table, _ ("Ran"), COL_BUSY, TRUE);
  gtk_widget_set_tooltip_text (view, _ ("Double-click: the median step's path on the Timeline. "
                                        "Right-click a kernel or range: what if it were faster."));
  g_signal_connect_swapped (view, "row-activated", G_CALLBACK (row_activated), self);
  g_signal_connect_swapped (view, "button-press-event", G_CALLBACK (table_pressed), self);
  return view;
}

static GtkWidget *
make_what_if (WsCriticalPathPage *self)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (_ ("What if"));
  GtkWidget *button = gtk_button_new_with_label (_ ("Predict"));

  self->entry = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (self->entry, "kernel:NAME=0.5x, nvtx:NAME@rank3=-15ms");
  gtk_widget_set_hexpand (GTK_WIDGET (self->entry), TRUE);
  g_signal_connect_swapped (self->entry, "activate", G_CALLBACK (predict_clicked), self);
  g_signal_connect_swapped (button, "clicked", G_CALLBACK (predict_clicked), self);
  gtk_box_pack_start (GTK_BOX (row), label, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (row), GTK_WIDGET (self->entry), TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (row), button, FALSE, FALSE, 0);
  return row;
}

static GtkLabel *
wrapped_label (void)
{
  GtkLabel *label = GTK_LABEL (gtk_label_new (NULL));

  gtk_label_set_xalign (label, 0);
  gtk_label_set_line_wrap (label, TRUE);
  return label;
}

static void
ws_critical_path_page_finalize (GObject *object)
{
  WsCriticalPathPage *self = WS_CRITICAL_PATH_PAGE (object);

  g_clear_pointer (&self->cp, ws_critical_path_free);
  g_clear_pointer (&self->run, ws_run_unref);
  g_clear_object (&self->kinds);
  g_clear_object (&self->store);
  G_OBJECT_CLASS (ws_critical_path_page_parent_class)->finalize (object);
}

static void
ws_critical_path_page_class_init (WsCriticalPathPageClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_critical_path_page_finalize;

  /**
   * WsCriticalPathPage::show-item:
   * @group: a WsCpRowGroup
   * @name: the kernel, range or rank
   *
   * A row was activated: show the median step's path.
   */
  signals[SHOW_ITEM] = g_signal_new ("show-item", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                     NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_STRING);
}

static void
ws_critical_path_page_init (WsCriticalPathPage *self)
{
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *lists = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *table_sw;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  self->stack = GTK_STACK (gtk_stack_new ());
  self->empty = GTK_LABEL (gtk_label_new (
    _ ("No steps to find a critical path in: the path is of a step (NVTX ranges “step 0”, "
       "“step 1”, …), and needs the CUDA calls and kernels (nsys -t cuda).")));
  gtk_label_set_line_wrap (self->empty, TRUE);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self->empty)),
                               "dim-label");
  self->headline = wrapped_label ();
  self->busiest = wrapped_label ();
  self->prediction = wrapped_label ();
  gtk_container_set_border_width (GTK_CONTAINER (content), 12);
  gtk_box_pack_start (GTK_BOX (content), GTK_WIDGET (self->headline), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (lists), make_kinds (self), FALSE, FALSE, 0);
  table_sw = scrolled (make_table (self));
  gtk_widget_set_hexpand (table_sw, TRUE);
  gtk_box_pack_start (GTK_BOX (lists), table_sw, TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (content), lists, TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (content), GTK_WIDGET (self->busiest), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (content), make_what_if (self), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (content), GTK_WIDGET (self->prediction), FALSE, FALSE, 0);
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->empty), "empty");
  gtk_stack_add_named (self->stack, content, "content");
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (self->stack), TRUE, TRUE, 0);
  gtk_widget_show_all (GTK_WIDGET (self->stack));
  gtk_stack_set_visible_child_name (self->stack, "empty");
}
