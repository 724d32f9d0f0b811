/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-steps-page"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-format.h"
#include "ws-steps-page.h"

/* The Steps page: a bar per step of the loop (warm-up hatched), and the
 * table of what each step did.  A double click (or Enter in the table)
 * shows the step in the timeline. */
struct _WsStepsPage
{
  GtkBox parent_instance;

  WsRun *run;
  WsSteps *steps;
  gint straggler; /* the job's straggler rank, or -1 */

  /* Template widgets */
  GtkStack *stack;
  GtkLabel *empty_title;
  GtkLabel *empty_label;
  WsStepsView *steps_view;
  GtkTreeView *table;
  GtkListStore *store;
};

G_DEFINE_FINAL_TYPE (WsStepsPage, ws_steps_page, GTK_TYPE_BOX)

enum
{
  COL_STEP,
  COL_NAME,
  COL_WALL,
  COL_BUSY,
  COL_KERNEL,
  COL_MEMORY,
  COL_IDLE,
  COL_LAUNCHES,
  COL_LAUNCHED,
  COL_WARMUP,
  COL_INDEX,
  COL_RANK,      /* the job's rank, empty outside a job */
  COL_STRAGGLER, /* "straggler" on the straggler's rows */
};

enum
{
  STEP_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static char *
duration (gint64 ns)
{
  return ws_format_duration ((double) ns);
}

static const char *
warmup_text (const WsStep *s)
{
  switch (s->why)
    {
      case WS_WARMUP_FIRST:
        return _ ("first");
      case WS_WARMUP_SLOW:
        return _ ("slow");
      case WS_WARMUP_RANK:
        /* TRANSLATORS: the Steps table's Warm-up column: the step is warm-up because it is on
       * another rank of the job */
        return _ ("on another rank");
      case WS_WARMUP_NONE:
      default:
        return "";
    }
}

static void
fill_table (WsStepsPage *self)
{
  gtk_list_store_clear (self->store);
  for (guint i = 0; self->steps != NULL && i < self->steps->steps->len; i++)
    {
      const WsStep *s = &g_array_index (self->steps->steps, WsStep, i);
      g_autofree char *step = g_strdup_printf ("%u", s->number);
      g_autofree char *rank = s->rank >= 0 ? g_strdup_printf ("%d", s->rank) : g_strdup ("");
      g_autofree char *wall = duration (s->wall);
      g_autofree char *busy = duration (s->gpu_busy);
      g_autofree char *kernel = duration (s->kernel);
      g_autofree char *memory = duration (s->memory);
      g_autofree char *idle = duration (s->idle);
      g_autofree char *launched = duration (s->gpu_launched);
      g_autofree char *launches = ws_format_count ((gint64) s->launches);
      const char *straggler = s->rank >= 0 && s->rank == self->straggler ? _ ("straggler") : "";
      GtkTreeIter iter;

      gtk_list_store_insert_with_values (
        self->store, &iter, -1, COL_STEP, step, COL_NAME, ws_run_string (self->run, s->name),
        COL_WALL, wall, COL_BUSY, busy, COL_KERNEL, kernel, COL_MEMORY, memory, COL_IDLE, idle,
        COL_LAUNCHES, launches, COL_LAUNCHED, launched, COL_WARMUP, warmup_text (s), COL_INDEX,
        (int) i, COL_RANK, rank, COL_STRAGGLER, straggler, -1);
    }
  /* The steady medians, one row per rank in a job: a median across ranks
   * would mix them. */
  for (guint i = 0; self->steps != NULL && i < self->steps->ranks->len; i++)
    {
      const WsStepsRank *r = &g_array_index (self->steps->ranks, WsStepsRank, i);
      g_autofree char *rank = r->rank >= 0 ? g_strdup_printf ("%d", r->rank) : g_strdup ("");
      g_autofree char *wall = ws_format_duration (r->median.wall);
      g_autofree char *busy = ws_format_duration (r->median.gpu_busy);
      g_autofree char *kernel = ws_format_duration (r->median.kernel);
      g_autofree char *memory = ws_format_duration (r->median.memory);
      g_autofree char *idle = ws_format_duration (r->median.idle);
      g_autofree char *launched = ws_format_duration (r->median.gpu_launched);
      g_autoptr (GString) launches = g_string_new (NULL);
      g_autofree char *label =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "steady state (%u step)",
                                      "steady state (%u steps)", r->n_steady),
                         r->n_steady);
      const char *straggler = r->rank >= 0 && r->rank == self->straggler ? _ ("straggler") : "";
      GtkTreeIter iter;

      if (r->n_steady == 0)
        continue;
      ws_format_fixed (launches, r->median.launches, 1, TRUE);
      gtk_list_store_insert_with_values (
        self->store, &iter, -1, COL_STEP, _ ("median"), COL_NAME, label, COL_WALL, wall, COL_BUSY,
        busy, COL_KERNEL, kernel, COL_MEMORY, memory, COL_IDLE, idle, COL_LAUNCHES, launches->str,
        COL_LAUNCHED, launched, COL_WARMUP, "", COL_INDEX, -1, COL_RANK, rank, COL_STRAGGLER,
        straggler, -1);
    }
}

static void
add_columns (WsStepsPage *self)
{
  const struct
  {
    const char *title;
    int column;
    gboolean number;
  } columns[] = {
    { N_ ("Step"), COL_STEP, TRUE },          { N_ ("Rank"), COL_RANK, TRUE },
    { N_ ("Range"), COL_NAME, FALSE },        { N_ ("Wall time"), COL_WALL, TRUE },
    { N_ ("GPU busy"), COL_BUSY, TRUE },      { N_ ("Kernel running"), COL_KERNEL, TRUE },
    { N_ ("Memory only"), COL_MEMORY, TRUE }, { N_ ("GPU idle"), COL_IDLE, TRUE },
    { N_ ("Launches"), COL_LAUNCHES, TRUE },  { N_ ("GPU work launched"), COL_LAUNCHED, TRUE },
    { N_ ("Warm-up"), COL_WARMUP, FALSE },    { N_ ("Straggler"), COL_STRAGGLER, FALSE },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
      GtkTreeViewColumn *column = gtk_tree_view_column_new_with_attributes (
        _ (columns[i].title), cell, "text", columns[i].column, NULL);

      if (columns[i].number)
        g_object_set (cell, "xalign", 1.0, NULL);
      gtk_tree_view_column_set_resizable (column, TRUE);
      gtk_tree_view_append_column (self->table, column);
    }
}

static void
step_selected_cb (WsStepsPage *self, int step, WsStepsView *view)
{
  GtkTreeIter iter;

  if (step < 0 || !gtk_tree_model_iter_nth_child (GTK_TREE_MODEL (self->store), &iter, NULL, step))
    return;
  gtk_tree_selection_select_iter (gtk_tree_view_get_selection (self->table), &iter);
}

static void
activate (WsStepsPage *self, int step)
{
  const WsStep *s;

  if (self->steps == NULL || step < 0 || (guint) step >= self->steps->steps->len)
    return;
  s = &g_array_index (self->steps->steps, WsStep, step);
  g_signal_emit (self, signals[STEP_ACTIVATED], 0, s->start, s->end);
}

static void
step_activated_cb (WsStepsPage *self, int step, WsStepsView *view)
{
  activate (self, step);
}

static void
row_activated_cb (WsStepsPage *self, GtkTreePath *path, GtkTreeViewColumn *column,
                  GtkTreeView *tree)
{
  activate (self, gtk_tree_path_get_indices (path)[0]);
}

static void
ws_steps_page_dispose (GObject *object)
{
  WsStepsPage *self = WS_STEPS_PAGE (object);

  g_clear_pointer (&self->run, ws_run_unref);
  g_clear_pointer (&self->steps, ws_steps_unref);
  G_OBJECT_CLASS (ws_steps_page_parent_class)->dispose (object);
}

static void
ws_steps_page_class_init (WsStepsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_steps_page_dispose;

  /* A step to show in the timeline: its start and end, ns. */
  signals[STEP_ACTIVATED] =
    g_signal_new ("step-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_INT64);

  g_type_ensure (WS_TYPE_STEPS_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-steps-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsStepsPage, stack);
  gtk_widget_class_bind_template_child (widget_class, WsStepsPage, empty_title);
  gtk_widget_class_bind_template_child (widget_class, WsStepsPage, empty_label);
  gtk_widget_class_bind_template_child (widget_class, WsStepsPage, steps_view);
  gtk_widget_class_bind_template_child (widget_class, WsStepsPage, table);
  gtk_widget_class_bind_template_child (widget_class, WsStepsPage, store);
  gtk_widget_class_bind_template_callback (widget_class, step_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, step_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
}

static void
ws_steps_page_init (WsStepsPage *self)
{
  self->straggler = -1;
  gtk_widget_init_template (GTK_WIDGET (self));
  add_columns (self);
}

/**
 * ws_steps_page_set_straggler:
 * @rank: the job's straggler (as `ranks` and the Ranks page name it), or -1
 *
 * Marks the straggler's rows at the next ws_steps_page_set_steps().
 */
void
ws_steps_page_set_straggler (WsStepsPage *self, gint rank)
{
  g_return_if_fail (WS_IS_STEPS_PAGE (self));

  self->straggler = rank;
}

/**
 * ws_steps_page_set_steps:
 * @run: (nullable): the whole run
 * @steps: (nullable): its steps; %NULL while they are being found
 */
void
ws_steps_page_set_steps (WsStepsPage *self, WsRun *run, WsSteps *steps)
{
  g_return_if_fail (WS_IS_STEPS_PAGE (self));

  if (run != NULL)
    ws_run_ref (run);
  if (steps != NULL)
    ws_steps_ref (steps);
  g_clear_pointer (&self->run, ws_run_unref);
  g_clear_pointer (&self->steps, ws_steps_unref);
  self->run = run;
  self->steps = steps;
  ws_steps_view_set_steps (self->steps_view, run, steps);
  fill_table (self);
  if (steps != NULL && steps->steps->len > 0)
    gtk_stack_set_visible_child_name (self->stack, "steps");
  else
    {
      gtk_label_set_text (self->empty_title,
                          steps == NULL && run != NULL ? _ ("Finding the steps…") : _ ("No steps"));
      gtk_stack_set_visible_child_name (self->stack, "empty");
    }
}

WsStepsView *
ws_steps_page_get_view (WsStepsPage *self)
{
  return self->steps_view;
}

GtkTreeModel *
ws_steps_page_get_model (WsStepsPage *self)
{
  return GTK_TREE_MODEL (self->store);
}

gboolean
ws_steps_page_is_empty (WsStepsPage *self)
{
  return self->steps == NULL || self->steps->steps->len == 0;
}
