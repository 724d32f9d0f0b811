/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-compare-gauges-page"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-bars-chart.h"
#include "ws-compare-gauges-page.h"
#include "ws-kernel-name.h"
#include "ws-list-box.h"
#include "ws-label-wrap.h"

/* The Gauges tab of a comparison: the kernels profiled on both sides, each
 * with its verdict before → after, beside the gauges of the one selected;
 * or, when a side has no ncu data, how to give it some. */
struct _WsCompareGaugesPage
{
  GtkBox parent_instance;

  WsComparison *cmp;

  /* Template widgets */
  GtkStack *stack;
  GtkLabel *empty_label;
  GtkLabel *summary_label;
  GtkListBox *list;
  WsCompareGaugesView *view;
};

G_DEFINE_FINAL_TYPE (WsCompareGaugesPage, ws_compare_gauges_page, GTK_TYPE_BOX)

static const char *const verdict_classes[] = {
  [WS_VERDICT_COMPUTE] = "ws-verdict-compute", [WS_VERDICT_MEMORY] = "ws-verdict-memory",
  [WS_VERDICT_LATENCY] = "ws-verdict-latency", [WS_VERDICT_MIXED] = "ws-verdict-mixed",
  [WS_VERDICT_UNKNOWN] = "ws-verdict-unknown",
};

static GtkWidget *
label_new (const char *text, const char *style_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (style_class != NULL)
    gtk_style_context_add_class (gtk_widget_get_style_context (label), style_class);
  return label;
}

/* A verdict as a badge in its colour, which reads on a selected row too. */
static GtkWidget *
verdict_badge (WsVerdict verdict)
{
  GtkWidget *badge = label_new (ws_verdict_label (verdict), "ws-verdict");

  if (verdict >= 0 && verdict < WS_N_VERDICTS)
    gtk_style_context_add_class (gtk_widget_get_style_context (badge), verdict_classes[verdict]);
  return badge;
}

/* "Memory → Memory/Latency", or "Memory (unchanged)". */
static GtkWidget *
verdict_line (WsCompareGaugesPage *self, const WsDelta *delta)
{
  const WsGauges *b = ws_comparison_gauges (self->cmp, delta, FALSE);
  const WsGauges *a = ws_comparison_gauges (self->cmp, delta, TRUE);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  gtk_box_pack_start (GTK_BOX (box), verdict_badge (b->verdict), FALSE, FALSE, 0);
  if (a->verdict == b->verdict)
    gtk_box_pack_start (GTK_BOX (box), label_new (_ ("(unchanged)"), "ws-dim"), FALSE, FALSE, 0);
  else
    {
      gtk_box_pack_start (GTK_BOX (box), label_new ("→", NULL), FALSE, FALSE, 0);
      gtk_box_pack_start (GTK_BOX (box), verdict_badge (a->verdict), FALSE, FALSE, 0);
    }
  return box;
}

static GtkWidget *
row_new (WsCompareGaugesPage *self, const WsDelta *delta, const char *name)
{
  const WsGauges *b = ws_comparison_gauges (self->cmp, delta, FALSE);
  const WsGauges *a = ws_comparison_gauges (self->cmp, delta, TRUE);
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  g_autofree char *duration =
    ws_gauge_format_change (&b->gauge[WS_GAUGE_DURATION], &a->gauge[WS_GAUGE_DURATION]);
  GtkWidget *name_label = label_new (name, "ws-finding-row-title");

  /* Instantiations of one template differ late in the name: wrap, not cut. */
  gtk_label_set_line_wrap (GTK_LABEL (name_label), TRUE);
  ws_label_wrap_names (GTK_LABEL (name_label));
  gtk_label_set_lines (GTK_LABEL (name_label), 3);
  gtk_label_set_ellipsize (GTK_LABEL (name_label), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (name_label), 40);
  gtk_widget_set_tooltip_text (name_label, delta->name);
  gtk_container_set_border_width (GTK_CONTAINER (box), 8);
  gtk_box_pack_start (GTK_BOX (box), name_label, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), verdict_line (self, delta), FALSE, FALSE, 0);
  if (duration != NULL)
    gtk_box_pack_start (GTK_BOX (box), label_new (duration, "ws-dim"), FALSE, FALSE, 0);
  gtk_container_add (GTK_CONTAINER (row), box);
  g_object_set_data_full (G_OBJECT (row), "key", g_strdup (delta->key), g_free);
  gtk_widget_show_all (row);
  return row;
}

static void
row_selected_cb (WsCompareGaugesPage *self, GtkListBoxRow *row, GtkListBox *list)
{
  const char *key = row != NULL ? g_object_get_data (G_OBJECT (row), "key") : NULL;

  ws_compare_gauges_view_set_kernel (self->view, self->cmp, key);
}

/**
 * ws_compare_gauges_page_set_comparison:
 * @cmp: (nullable): the comparison
 *
 * Lists the kernels of @cmp profiled on both sides, in the comparison's
 * order, and keeps the kernel selected before when it is still there.
 */
void
ws_compare_gauges_page_set_comparison (WsCompareGaugesPage *self, WsComparison *cmp)
{
  g_autofree char *selected = NULL;
  g_autofree char *summary = NULL;
  g_autoptr (GPtrArray) deltas = g_ptr_array_new ();
  g_autoptr (GPtrArray) keys = g_ptr_array_new ();
  g_auto (GStrv) labels = NULL;
  GtkListBoxRow *keep = NULL;

  g_return_if_fail (WS_IS_COMPARE_GAUGES_PAGE (self));

  selected = g_strdup (ws_compare_gauges_page_get_selected_key (self));
  if (cmp != NULL)
    ws_comparison_ref (cmp);
  g_clear_pointer (&self->cmp, ws_comparison_unref);
  self->cmp = cmp;
  ws_list_box_clear (self->list);
  ws_compare_gauges_view_set_kernel (self->view, NULL, NULL);

  if (cmp == NULL || cmp->n_profiled == 0)
    {
      g_autofree char *empty = cmp != NULL ? ws_compare_gauges_empty_text (cmp) : NULL;

      gtk_label_set_text (self->empty_label, empty != NULL ? empty : "");
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }

  for (guint i = 0; i < cmp->kernels->len; i++)
    {
      const WsDelta *d = &g_array_index (cmp->kernels, WsDelta, i);

      if (ws_delta_profiled_both (d))
        {
          g_ptr_array_add (deltas, (gpointer) d);
          g_ptr_array_add (keys, d->key);
        }
    }
  /* Labels that stay apart: instantiations of one template keep their
   * arguments. */
  labels = ws_kernel_name_labels ((const char *const *) keys->pdata, keys->len, 60);
  for (guint i = 0; i < deltas->len && i < WS_LIST_BOX_MAX_ROWS; i++)
    {
      const WsDelta *d = g_ptr_array_index (deltas, i);
      GtkWidget *row = row_new (self, d, labels[i]);

      gtk_container_add (GTK_CONTAINER (self->list), row);
      if (keep == NULL && g_strcmp0 (selected, d->key) == 0)
        keep = GTK_LIST_BOX_ROW (row);
    }
  if (deltas->len > WS_LIST_BOX_MAX_ROWS)
    {
      guint more = deltas->len - WS_LIST_BOX_MAX_ROWS;
      g_autofree char *text =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "and %u more kernel profiled on both sides",
                                      "and %u more kernels profiled on both sides", more),
                         more);

      ws_list_box_add_more (self->list, text);
    }
  summary = g_strdup_printf (
    g_dngettext (GETTEXT_PACKAGE, "%u kernel profiled by Nsight Compute on both sides",
                 "%u kernels profiled by Nsight Compute on both sides", cmp->n_profiled),
    cmp->n_profiled);
  gtk_label_set_text (self->summary_label, summary);
  gtk_stack_set_visible_child_name (self->stack, "gauges");
  gtk_list_box_select_row (self->list,
                           keep != NULL ? keep : gtk_list_box_get_row_at_index (self->list, 0));
}

gboolean
ws_compare_gauges_page_is_empty (WsCompareGaugesPage *self)
{
  g_return_val_if_fail (WS_IS_COMPARE_GAUGES_PAGE (self), TRUE);

  return g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "empty") == 0;
}

const char *
ws_compare_gauges_page_get_empty_text (WsCompareGaugesPage *self)
{
  g_return_val_if_fail (WS_IS_COMPARE_GAUGES_PAGE (self), NULL);

  return gtk_label_get_text (self->empty_label);
}

guint
ws_compare_gauges_page_get_n_kernels (WsCompareGaugesPage *self)
{
  g_return_val_if_fail (WS_IS_COMPARE_GAUGES_PAGE (self), 0);

  return ws_list_box_get_n_rows (self->list);
}

void
ws_compare_gauges_page_select (WsCompareGaugesPage *self, guint index)
{
  g_return_if_fail (WS_IS_COMPARE_GAUGES_PAGE (self));

  gtk_list_box_select_row (self->list, gtk_list_box_get_row_at_index (self->list, (int) index));
}

/**
 * ws_compare_gauges_page_get_selected_key:
 *
 * Returns: (transfer none) (nullable): the kernel whose gauges are shown
 */
const char *
ws_compare_gauges_page_get_selected_key (WsCompareGaugesPage *self)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (WS_IS_COMPARE_GAUGES_PAGE (self), NULL);

  row = gtk_list_box_get_selected_row (self->list);
  return row != NULL ? g_object_get_data (G_OBJECT (row), "key") : NULL;
}

/**
 * ws_compare_gauges_page_get_row_text:
 *
 * Returns: (transfer full) (nullable): the labels of row @index, one a
 * line, in the order shown
 */
char *
ws_compare_gauges_page_get_row_text (WsCompareGaugesPage *self, guint index)
{
  g_return_val_if_fail (WS_IS_COMPARE_GAUGES_PAGE (self), NULL);

  return ws_list_box_get_row_text (self->list, index);
}

/**
 * ws_compare_gauges_page_get_view:
 *
 * Returns: (transfer none): the gauges of the selected kernel
 */
WsCompareGaugesView *
ws_compare_gauges_page_get_view (WsCompareGaugesPage *self)
{
  g_return_val_if_fail (WS_IS_COMPARE_GAUGES_PAGE (self), NULL);

  return self->view;
}

static void
ws_compare_gauges_page_dispose (GObject *object)
{
  WsCompareGaugesPage *self = WS_COMPARE_GAUGES_PAGE (object);

  g_clear_pointer (&self->cmp, ws_comparison_unref);
  G_OBJECT_CLASS (ws_compare_gauges_page_parent_class)->dispose (object);
}

static void
ws_compare_gauges_page_class_init (WsCompareGaugesPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ws_compare_gauges_page_dispose;

  g_type_ensure (WS_TYPE_COMPARE_GAUGES_VIEW);
  gtk_widget_class_set_template_from_resource (
    widget_class, "/org/warpscope/Warpscope/ui/ws-compare-gauges-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsCompareGaugesPage, stack);
  gtk_widget_class_bind_template_child (widget_class, WsCompareGaugesPage, empty_label);
  gtk_widget_class_bind_template_child (widget_class, WsCompareGaugesPage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, WsCompareGaugesPage, list);
  gtk_widget_class_bind_template_child (widget_class, WsCompareGaugesPage, view);
  gtk_widget_class_bind_template_callback (widget_class, row_selected_cb);
}

static void
ws_compare_gauges_page_init (WsCompareGaugesPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_stack_set_visible_child_name (self->stack, "empty");
}
