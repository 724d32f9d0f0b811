/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-kernels-page"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-format.h"
#include "ws-kernel-details.h"
#include "ws-graphs.h"
#include "ws-kernels-page.h"
#include "ws-ncu-match.h"
#include "ws-stats.h"

struct _WsKernelsPage
{
  GtkBox parent_instance;

  WsRun *run;
  WsNameForm name_form;
  WsSummary *summary;     /* in name_form */
  GHashTable *launches;   /* kernel name in name_form → its profiled launch + 1, or NULL */
  GHashTable *verdicts;   /* kernel name in name_form → WsKernelVerdict, or NULL */
  GCancellable *grouping; /* kernels being grouped by another name form, or NULL */

  /* Template widgets */
  GtkSearchEntry *filter_entry;
  GtkComboBoxText *sort_combo;
  GtkSpinButton *top_n_spin;
  GtkLabel *summary_label;
  WsBarsView *bars_view;
  WsKernelDetails *details;
};

G_DEFINE_FINAL_TYPE (WsKernelsPage, ws_kernels_page, GTK_TYPE_BOX)

static void
filter_changed_cb (WsKernelsPage *self, GtkSearchEntry *entry)
{
  ws_bars_view_set_filter (self->bars_view, gtk_entry_get_text (GTK_ENTRY (entry)));
}

static void
sort_changed_cb (WsKernelsPage *self, GtkComboBox *combo)
{
  const char *id = gtk_combo_box_get_active_id (combo);
  WsBarsSort sort = WS_BARS_SORT_TOTAL;

  if (g_strcmp0 (id, "avg") == 0)
    sort = WS_BARS_SORT_AVG;
  else if (g_strcmp0 (id, "instances") == 0)
    sort = WS_BARS_SORT_INSTANCES;
  else if (g_strcmp0 (id, "name") == 0)
    sort = WS_BARS_SORT_NAME;
  ws_bars_view_set_sort (self->bars_view, sort);
}

static void
top_n_changed_cb (WsKernelsPage *self, GtkSpinButton *spin)
{
  ws_bars_view_set_top_n (self->bars_view, (guint) gtk_spin_button_get_value_as_int (spin));
}

/* The kernel's longest launch that Nsight Compute profiled, or -1. */
static int
profiled_launch (WsKernelsPage *self, const char *name)
{
  gpointer found = self->launches != NULL ? g_hash_table_lookup (self->launches, name) : NULL;

  return GPOINTER_TO_INT (found) - 1;
}

/* The kernel's verdict over its profiled launches, or NULL. */
static const WsKernelVerdict *
kernel_verdict (WsKernelsPage *self, const char *name)
{
  return self->verdicts != NULL ? g_hash_table_lookup (self->verdicts, name) : NULL;
}

static WsVerdict
bar_verdict (const char *name, gpointer data)
{
  const WsKernelVerdict *kv = kernel_verdict (data, name);

  return kv != NULL ? kv->verdict : WS_VERDICT_NONE;
}

static void
kernel_selected_cb (WsKernelsPage *self, const char *name, WsBarsView *view)
{
  int selected = ws_bars_view_get_selected (view);
  const WsBar *bar =
    selected >= 0 ? ws_bars_model_get (ws_bars_view_get_model (view), (guint) selected) : NULL;

  if (bar != NULL && bar->is_other)
    bar = NULL;
  ws_kernel_details_show (self->details, self->run, bar,
                          bar != NULL ? profiled_launch (self, bar->name) : -1,
                          bar != NULL ? kernel_verdict (self, bar->name) : NULL);
}

static void
ws_kernels_page_dispose (GObject *object)
{
  WsKernelsPage *self = WS_KERNELS_PAGE (object);

  if (self->grouping != NULL)
    g_cancellable_cancel (self->grouping);
  g_clear_object (&self->grouping);
  g_clear_pointer (&self->run, ws_run_unref);
  g_clear_pointer (&self->summary, ws_summary_unref);
  g_clear_pointer (&self->launches, g_hash_table_unref);
  g_clear_pointer (&self->verdicts, g_hash_table_unref);

  G_OBJECT_CLASS (ws_kernels_page_parent_class)->dispose (object);
}

static void
ws_kernels_page_class_init (WsKernelsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_kernels_page_dispose;

  g_type_ensure (WS_TYPE_BARS_VIEW);
  g_type_ensure (WS_TYPE_KERNEL_DETAILS);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-kernels-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsKernelsPage, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, WsKernelsPage, sort_combo);
  gtk_widget_class_bind_template_child (widget_class, WsKernelsPage, top_n_spin);
  gtk_widget_class_bind_template_child (widget_class, WsKernelsPage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, WsKernelsPage, bars_view);
  gtk_widget_class_bind_template_child (widget_class, WsKernelsPage, details);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, sort_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, top_n_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, kernel_selected_cb);
}

static void
ws_kernels_page_init (WsKernelsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/* The kernel summary in the page's name form and the profiled launches by
 * name: both take a pass over every kernel. */
typedef struct
{
  WsSummary *summary;
  GHashTable *launches;
  GHashTable *verdicts;
} Grouped;

static void
grouped_free (Grouped *grouped)
{
  g_clear_pointer (&grouped->summary, ws_summary_unref);
  g_clear_pointer (&grouped->launches, g_hash_table_unref);
  g_clear_pointer (&grouped->verdicts, g_hash_table_unref);
  g_free (grouped);
}

static Grouped *
group (WsRun *run, WsNameForm form)
{
  Grouped *grouped = g_new0 (Grouped, 1);

  if (run->ncu != NULL)
    {
      grouped->launches = ws_ncu_match_launches_by_name (run->ncu, run, form);
      grouped->verdicts = ws_ncu_match_verdicts_by_name (run->ncu, run, form);
    }
  grouped->summary = ws_stats_summary (run, WS_SUMMARY_KERN_SUM, form);
  return grouped;
}

static void
show_grouped (WsKernelsPage *self, Grouped *grouped)
{
  WsRun *run = self->run;
  g_autofree char *total = NULL;
  g_autofree char *launches = NULL;
  g_autofree char *text = NULL;

  g_clear_pointer (&self->summary, ws_summary_unref);
  g_clear_pointer (&self->launches, g_hash_table_unref);
  self->launches = g_steal_pointer (&grouped->launches);
  g_clear_pointer (&self->verdicts, g_hash_table_unref);
  self->verdicts = g_steal_pointer (&grouped->verdicts);
  self->summary = g_steal_pointer (&grouped->summary);
  /* Colours by verdict first, so that the bars are built once. */
  ws_bars_view_set_verdict_func (self->bars_view, self->launches != NULL ? bar_verdict : NULL, self,
                                 NULL);
  ws_bars_view_set_summary (self->bars_view, self->summary);
  ws_kernel_details_show (self->details, run, NULL, -1, NULL);

  if (self->summary == NULL)
    {
      gtk_label_set_text (self->summary_label,
                          run == NULL        ? ""
                          : run->ncu != NULL ? _ ("No nsys kernel data: the Gauges page shows the "
                                                  "kernels Nsight Compute profiled.")
                                             : _ ("This run has no CUDA kernel data."));
      return;
    }
  total = ws_format_duration ((double) self->summary->grand_total);
  /* From the summary the bars show: a table read from nvprof or nsys stats
   * has launches where the run has no kernel events. */
  {
    g_autoptr (GString) count = g_string_new (NULL);

    ws_format_int (count, ws_summary_count (self->summary), TRUE);
    launches = g_string_free (g_steal_pointer (&count), FALSE);
  }
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u kernel, %s launches, %s of GPU time",
                                       "%u kernels, %s launches, %s of GPU time",
                                       self->summary->rows->len),
                          self->summary->rows->len, launches, total);
  /* What the bars hold of CUDA graphs, and what they cannot
   * (docs/cuda-graphs.md). */
  if (run != NULL && run->replays.n > 0)
    {
      WsGraphSummary graphs;
      g_autofree char *line = NULL, *note = NULL, *joined = NULL;

      ws_graph_summary_compute (run, &graphs);
      /* Replays traced whole: what the bars miss; else what they hold. */
      note = ws_graph_summary_stats_note (&graphs);
      line = note == NULL ? ws_graph_summary_describe (&graphs) : NULL;
      joined = g_strjoin ("\n", text, note != NULL ? note : line, NULL);
      g_free (text);
      text = g_steal_pointer (&joined);
    }
  gtk_label_set_text (self->summary_label, text);
}

typedef struct
{
  WsRun *run;
  WsNameForm form;
} GroupData;

static void
group_data_free (GroupData *data)
{
  ws_run_unref (data->run);
  g_free (data);
}

static void
group_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GroupData *data = task_data;

  g_task_return_pointer (task, group (data->run, data->form), (GDestroyNotify) grouped_free);
}

static void
grouped_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  WsKernelsPage *self = WS_KERNELS_PAGE (source);
  g_autoptr (GError) error = NULL;
  Grouped *grouped = g_task_propagate_pointer (G_TASK (result), &error);

  if (grouped != NULL && g_task_get_cancellable (G_TASK (result)) == self->grouping)
    {
      g_clear_object (&self->grouping);
      show_grouped (self, grouped);
    }
  if (grouped != NULL)
    grouped_free (grouped);
}

/* Grouping 10^6 kernels by name takes longer than an input may keep the
 * main loop: it goes to a worker, and the bars stay as they are meanwhile. */
static void
regroup (WsKernelsPage *self)
{
  g_autoptr (GTask) task = NULL;
  GroupData *data = g_new0 (GroupData, 1);

  if (self->grouping != NULL)
    g_cancellable_cancel (self->grouping);
  g_clear_object (&self->grouping);
  self->grouping = g_cancellable_new ();
  gtk_label_set_text (self->summary_label, _ ("Grouping the kernels by name…"));
  data->run = ws_run_ref (self->run);
  data->form = self->name_form;
  task = g_task_new (self, self->grouping, grouped_cb, NULL);
  g_task_set_source_tag (task, regroup);
  g_task_set_task_data (task, data, (GDestroyNotify) group_data_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, group_thread);
}

void
ws_kernels_page_set_run (WsKernelsPage *self, WsRun *run)
{
  g_return_if_fail (WS_IS_KERNELS_PAGE (self));

  if (run != NULL)
    ws_run_ref (run);
  g_clear_pointer (&self->run, ws_run_unref);
  self->run = run;
  if (self->grouping != NULL)
    g_cancellable_cancel (self->grouping);
  g_clear_object (&self->grouping);

  /* Demangled names, when the run arrives: the summary computed at load. */
  if (run == NULL || self->name_form == WS_NAME_DEMANGLED)
    {
      Grouped *grouped = run != NULL ? group (run, self->name_form) : g_new0 (Grouped, 1);

      show_grouped (self, grouped);
      grouped_free (grouped);
    }
  else
    regroup (self);
}

/* Whether the kernels are being grouped by another name form on a worker. */
gboolean
ws_kernels_page_is_grouping (WsKernelsPage *self)
{
  g_return_val_if_fail (WS_IS_KERNELS_PAGE (self), FALSE);

  return self->grouping != NULL;
}

/**
 * ws_kernels_page_get_bars_view:
 *
 * Returns: (transfer none): the bars
 */
WsBarsView *
ws_kernels_page_get_bars_view (WsKernelsPage *self)
{
  return self->bars_view;
}

/**
 * ws_kernels_page_get_summary_text:
 *
 * Returns: (transfer none): the line above the bars: kernels, launches,
 * GPU time.
 */
const char *
ws_kernels_page_get_summary_text (WsKernelsPage *self)
{
  g_return_val_if_fail (WS_IS_KERNELS_PAGE (self), NULL);

  return gtk_label_get_text (self->summary_label);
}

/**
 * ws_kernels_page_get_details_text:
 *
 * Returns: (transfer full): the details panel as text
 */
char *
ws_kernels_page_get_details_text (WsKernelsPage *self)
{
  return ws_kernel_details_get_text (self->details);
}

/**
 * ws_kernels_page_get_details:
 *
 * Returns: (transfer none): the details panel
 */
WsKernelDetails *
ws_kernels_page_get_details (WsKernelsPage *self)
{
  return self->details;
}

void
ws_kernels_page_focus_filter (WsKernelsPage *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self->filter_entry));
}

/* Demangled, short or mangled names in the bars (the "name-form" setting). */
void
ws_kernels_page_set_name_form (WsKernelsPage *self, WsNameForm form)
{
  g_return_if_fail (WS_IS_KERNELS_PAGE (self));

  if (self->name_form == form)
    return;
  self->name_form = form;
  if (self->run != NULL)
    regroup (self);
}

/**
 * ws_kernels_page_get_top_n_spin:
 *
 * Returns: (transfer none): the Top spin button, for binding to settings
 */
GtkSpinButton *
ws_kernels_page_get_top_n_spin (WsKernelsPage *self)
{
  return self->top_n_spin;
}
