/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-kernels-page"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-format.h"
#include "ws-kernel-details.h"
#include "ws-kernels-page.h"
#include "ws-ncu-match.h"
#include "ws-stats.h"

struct _WsKernelsPage
{
  GtkBox parent_instance;

  WsRun *run;
  WsNameForm name_form;
  WsSummary *summary;   /* in name_form */
  GHashTable *launches; /* kernel name in name_form → its profiled launch + 1, or NULL */

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

static WsVerdict
bar_verdict (const char *name, gpointer data)
{
  WsKernelsPage *self = data;
  int launch = profiled_launch (self, name);

  return launch >= 0 && self->run != NULL
           ? ws_ncu_results_gauges (self->run->ncu, (guint) launch)->verdict
           : WS_VERDICT_NONE;
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
                          bar != NULL ? profiled_launch (self, bar->name) : -1);
}

static void
ws_kernels_page_dispose (GObject *object)
{
  WsKernelsPage *self = WS_KERNELS_PAGE (object);

  g_clear_pointer (&self->run, ws_run_unref);
  g_clear_pointer (&self->summary, ws_summary_unref);
  g_clear_pointer (&self->launches, g_hash_table_unref);

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

void
ws_kernels_page_set_run (WsKernelsPage *self, WsRun *run)
{
  WsSummary *summary;
  g_autofree char *total = NULL;
  g_autofree char *launches = NULL;
  g_autofree char *text = NULL;

  g_return_if_fail (WS_IS_KERNELS_PAGE (self));

  if (run != NULL)
    ws_run_ref (run);
  g_clear_pointer (&self->run, ws_run_unref);
  self->run = run;

  g_clear_pointer (&self->summary, ws_summary_unref);
  g_clear_pointer (&self->launches, g_hash_table_unref);
  if (run != NULL && run->ncu != NULL)
    self->launches = ws_ncu_match_launches_by_name (run->ncu, run, self->name_form);
  /* Colours by verdict first, so that the bars are built once. */
  ws_bars_view_set_verdict_func (self->bars_view, self->launches != NULL ? bar_verdict : NULL, self,
                                 NULL);
  self->summary = summary =
    run != NULL ? ws_stats_summary (run, WS_SUMMARY_KERN_SUM, self->name_form) : NULL;
  ws_bars_view_set_summary (self->bars_view, summary);
  ws_kernel_details_show (self->details, run, NULL, -1);

  if (summary == NULL)
    {
      gtk_label_set_text (self->summary_label,
                          run == NULL        ? ""
                          : run->ncu != NULL ? _ ("No nsys kernel data: the Gauges page shows the "
                                                  "kernels Nsight Compute profiled.")
                                             : _ ("This run has no CUDA kernel data."));
      return;
    }
  total = ws_format_duration ((double) summary->grand_total);
  launches = g_strdup_printf ("%" G_GSIZE_FORMAT, run->kernels.n);
  text =
    g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u kernel, %s launches, %s of GPU time",
                                  "%u kernels, %s launches, %s of GPU time", summary->rows->len),
                     summary->rows->len, launches, total);
  gtk_label_set_text (self->summary_label, text);
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
  g_autoptr (WsRun) run = NULL;

  g_return_if_fail (WS_IS_KERNELS_PAGE (self));

  if (self->name_form == form)
    return;
  self->name_form = form;
  if (self->run != NULL)
    {
      run = ws_run_ref (self->run);
      ws_kernels_page_set_run (self, run);
    }
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
