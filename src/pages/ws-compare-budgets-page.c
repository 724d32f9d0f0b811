/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-compare-budgets-page"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-compare-budgets-page.h"
#include "ws-gate.h"

/* The Budgets tab of a comparison: a budget file's lines judged between
 * the two runs as `warpscope-cli gate` judges them (docs/ci.md), each row
 * its file and line, the budget, the verdict and the same sentence the
 * command prints.  Judged on a worker thread: the window never waits. */

enum
{
  COL_WHERE,
  COL_BUDGET,
  COL_VERDICT,
  COL_TEXT,
  COL_CLASS, /* the verdict's weight: bold when over */
  N_COLS,
};

struct _WsCompareBudgetsPage
{
  GtkBox parent_instance;

  WsRun *runs[2];
  WsSteps *steps[2];
  char *path; /* the budget file, or NULL */
  GCancellable *cancellable;
  gboolean busy;

  GtkLabel *summary;
  GtkListStore *store;
  GtkTreeView *view;
};

G_DEFINE_FINAL_TYPE (WsCompareBudgetsPage, ws_compare_budgets_page, GTK_TYPE_BOX)

typedef struct
{
  WsRun *runs[2];
  WsSteps *steps[2];
  char *path;
  GArray *budgets; /* WsBudget */
  WsGateResult *results;
  GError *error;
} Judging;

static void
judging_free (Judging *j)
{
  for (guint i = 0; i < 2; i++)
    {
      g_clear_pointer (&j->runs[i], ws_run_unref);
      g_clear_pointer (&j->steps[i], ws_steps_unref);
    }
  for (guint i = 0; j->results != NULL && j->budgets != NULL && i < j->budgets->len; i++)
    ws_gate_result_clear (&j->results[i]);
  g_free (j->results);
  g_clear_pointer (&j->budgets, g_array_unref);
  g_free (j->path);
  g_clear_error (&j->error);
  g_free (j);
}

static void
judge_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Judging *j = data;
  WsGateRun before = { j->runs[0], j->steps[0] };
  WsGateRun after = { j->runs[1], j->steps[1] };

  j->budgets = ws_budgets_read (j->path, &j->error);
  if (j->budgets != NULL)
    {
      j->results = g_new0 (WsGateResult, j->budgets->len);
      for (guint i = 0; i < j->budgets->len; i++)
        ws_gate_judge (&g_array_index (j->budgets, WsBudget, i), &before, 1, &after, 1,
                       &j->results[i]);
    }
  g_task_return_boolean (task, TRUE);
}

static void
fill (WsCompareBudgetsPage *self, Judging *j)
{
  guint over = 0, unjudged = 0;
  g_autofree char *summary = NULL;

  gtk_list_store_clear (self->store);
  if (j->error != NULL)
    {
      gtk_label_set_text (self->summary, j->error->message);
      return;
    }
  for (guint i = 0; i < j->budgets->len; i++)
    {
      const WsGateResult *r = &j->results[i];
      g_autofree char *text = ws_gate_result_text (r);

      over += r->verdict == WS_GATE_REGRESSION;
      unjudged += r->verdict == WS_GATE_CANNOT_JUDGE;
      gtk_list_store_insert_with_values (
        self->store, NULL, -1, COL_WHERE, r->budget->where, COL_BUDGET, r->budget->text,
        COL_VERDICT, ws_gate_verdict_label (r->verdict), COL_TEXT, text, COL_CLASS,
        r->verdict == WS_GATE_REGRESSION ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL, -1);
    }
  /* TRANSLATORS: budgets in all, over budget, not judged */
  summary = g_strdup_printf (_ ("%u budgets: %u over, %u not judged.\n\n"), j->budgets->len, over,
                             unjudged);
  g_strchomp (summary);
  gtk_label_set_text (self->summary, summary);
}

static void
judged (GObject *source, GAsyncResult *result, gpointer data)
{
  Judging *j = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    return; /* cancelled: the page is gone or judges again */
  WS_COMPARE_BUDGETS_PAGE (source)->busy = FALSE;
  fill (WS_COMPARE_BUDGETS_PAGE (source), j);
}

static void
judge (WsCompareBudgetsPage *self)
{
  g_autoptr (GTask) task = NULL;
  Judging *j;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->path == NULL || self->runs[0] == NULL || self->runs[1] == NULL)
    return;
  j = g_new0 (Judging, 1);
  for (guint i = 0; i < 2; i++)
    {
      j->runs[i] = ws_run_ref (self->runs[i]);
      j->steps[i] = self->steps[i] != NULL ? ws_steps_ref (self->steps[i]) : NULL;
    }
  j->path = g_strdup (self->path);
  self->cancellable = g_cancellable_new ();
  self->busy = TRUE;
  gtk_label_set_text (self->summary, _ ("Judging the budgets…"));
  task = g_task_new (self, self->cancellable, judged, NULL);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_set_task_data (task, j, (GDestroyNotify) judging_free);
  g_task_run_in_thread (task, judge_thread);
}

static void
choose_clicked (GtkButton *button, WsCompareBudgetsPage *self)
{
  GtkWidget *toplevel = gtk_widget_get_toplevel (GTK_WIDGET (self));
  g_autoptr (GtkFileChooserNative) chooser = gtk_file_chooser_native_new (
    _ ("Choose a Budget File"), GTK_IS_WINDOW (toplevel) ? GTK_WINDOW (toplevel) : NULL,
    GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Open"), _ ("_Cancel"));

  if (gtk_native_dialog_run (GTK_NATIVE_DIALOG (chooser)) == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (chooser));

      ws_compare_budgets_page_set_file (self, path);
    }
}

static void
add_column (WsCompareBudgetsPage *self, const char *title, int column, gboolean expand)
{
  GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
  GtkTreeViewColumn *c =
    gtk_tree_view_column_new_with_attributes (title, cell, "text", column, NULL);

  if (column == COL_VERDICT)
    gtk_tree_view_column_add_attribute (c, cell, "weight", COL_CLASS);
  gtk_tree_view_column_set_resizable (c, TRUE);
  gtk_tree_view_column_set_expand (c, expand);
  gtk_tree_view_append_column (self->view, c);
}

static void
ws_compare_budgets_page_dispose (GObject *object)
{
  WsCompareBudgetsPage *self = WS_COMPARE_BUDGETS_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  for (guint i = 0; i < 2; i++)
    {
      g_clear_pointer (&self->runs[i], ws_run_unref);
      g_clear_pointer (&self->steps[i], ws_steps_unref);
    }
  g_clear_pointer (&self->path, g_free);
  g_clear_object (&self->store);
  G_OBJECT_CLASS (ws_compare_budgets_page_parent_class)->dispose (object);
}

static void
ws_compare_budgets_page_class_init (WsCompareBudgetsPageClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_compare_budgets_page_dispose;
}

static void
ws_compare_budgets_page_init (WsCompareBudgetsPage *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *button = gtk_button_new_with_mnemonic (_ ("Choose a _Budget File…"));
  GtkWidget *scroller = gtk_scrolled_window_new (NULL, NULL);

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);
  g_object_set (self, "margin", 12, NULL);
  self->summary = GTK_LABEL (gtk_label_new (
    _ ("Judge a budget file's lines between the two runs, as warpscope-cli gate does.")));
  gtk_label_set_xalign (self->summary, 0);
  gtk_label_set_line_wrap (self->summary, TRUE);
  g_signal_connect (button, "clicked", G_CALLBACK (choose_clicked), self);
  gtk_box_pack_start (GTK_BOX (bar), button, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->summary), TRUE, TRUE, 0);
  self->store = gtk_list_store_new (N_COLS, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING,
                                    G_TYPE_STRING, G_TYPE_INT);
  self->view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->store)));
  add_column (self, _ ("Line"), COL_WHERE, FALSE);
  add_column (self, _ ("Budget"), COL_BUDGET, FALSE);
  add_column (self, _ ("Verdict"), COL_VERDICT, FALSE);
  /* xgettext:no-c-format */
  add_column (self, _ ("Change, 95% interval, before → after"), COL_TEXT, TRUE);
  gtk_container_add (GTK_CONTAINER (scroller), GTK_WIDGET (self->view));
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_pack_start (GTK_BOX (self), bar, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), scroller, TRUE, TRUE, 0);
  gtk_widget_show_all (GTK_WIDGET (self));
}

/**
 * ws_compare_budgets_page_set_runs:
 * @before_steps: (nullable): the steps of @before, or %NULL without
 *
 * The two runs the budgets are judged between; judges again.
 */
void
ws_compare_budgets_page_set_runs (WsCompareBudgetsPage *self, WsRun *before, WsSteps *before_steps,
                                  WsRun *after, WsSteps *after_steps)
{
  WsRun *runs[2] = { before, after };
  WsSteps *steps[2] = { before_steps, after_steps };

  for (guint i = 0; i < 2; i++)
    {
      g_clear_pointer (&self->runs[i], ws_run_unref);
      g_clear_pointer (&self->steps[i], ws_steps_unref);
      self->runs[i] = runs[i] != NULL ? ws_run_ref (runs[i]) : NULL;
      self->steps[i] = steps[i] != NULL ? ws_steps_ref (steps[i]) : NULL;
    }
  judge (self);
}

/* The budget file to judge; judges it. */
void
ws_compare_budgets_page_set_file (WsCompareBudgetsPage *self, const char *path)
{
  g_free (self->path);
  self->path = g_strdup (path);
  judge (self);
}

gboolean
ws_compare_budgets_page_is_busy (WsCompareBudgetsPage *self)
{
  return self->busy;
}

guint
ws_compare_budgets_page_get_n_rows (WsCompareBudgetsPage *self)
{
  return (guint) gtk_tree_model_iter_n_children (GTK_TREE_MODEL (self->store), NULL);
}

/* Row @index as "WHERE\tBUDGET\tVERDICT\tTEXT", for tests. */
char *
ws_compare_budgets_page_get_row_text (WsCompareBudgetsPage *self, guint index)
{
  GtkTreeIter iter;
  g_autofree char *where = NULL, *budget = NULL, *verdict = NULL, *text = NULL;

  if (!gtk_tree_model_iter_nth_child (GTK_TREE_MODEL (self->store), &iter, NULL, (gint) index))
    return NULL;
  gtk_tree_model_get (GTK_TREE_MODEL (self->store), &iter, COL_WHERE, &where, COL_BUDGET, &budget,
                      COL_VERDICT, &verdict, COL_TEXT, &text, -1);
  return g_strdup_printf ("%s\t%s\t%s\t%s", where, budget, verdict, text);
}

const char *
ws_compare_budgets_page_get_summary (WsCompareBudgetsPage *self)
{
  return gtk_label_get_text (self->summary);
}
