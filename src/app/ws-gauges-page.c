/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-gauges-page"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-bars-chart.h"
#include "ws-gauges-page.h"
#include "ws-ncu-match.h"

/* The Gauges page: the overview of every profiled launch beside the panel
 * of the one selected, or, for a run without ncu results, how to get them. */
struct _WsGaugesPage
{
  GtkBox parent_instance;

  WsRun *run;

  /* Template widgets */
  GtkStack *stack;
  GtkComboBoxText *sort_combo;
  GtkLabel *summary_label;
  WsGaugesView *overview_view;
  WsGaugesView *panel_view;
  GtkLabel *details_label;
  GtkLabel *unmatched_label;
};

G_DEFINE_FINAL_TYPE (WsGaugesPage, ws_gauges_page, GTK_TYPE_BOX)

static const char *
match_label (WsNcuMatchKind kind)
{
  switch (kind)
    {
      case WS_NCU_MATCH_EXACT:
        return _ ("the same name");
      case WS_NCU_MATCH_NORMALIZED:
        return _ ("the name without casts and namespaces");
      case WS_NCU_MATCH_BASE:
        return _ ("the function name, the only one of that name");
      case WS_NCU_MATCH_MANIFEST:
        return _ ("the kernel the capture made this report for");
      case WS_NCU_MATCH_FUNCTION:
        return _ ("the function and its template arguments, without namespaces");
      case WS_NCU_MATCH_UNMATCHED:
      case WS_NCU_MATCH_NONE:
      default:
        return "";
    }
}

static void
show_details (WsGaugesPage *self, int launch)
{
  WsNcuResults *ncu = self->run != NULL ? self->run->ncu : NULL;
  const WsNcuLaunch *info;
  const WsGauges *gauges;
  const WsNcuMatch *match;
  g_autofree char *nvtx = NULL;
  GString *text;

  if (ncu == NULL || launch < 0)
    {
      gtk_label_set_text (self->details_label, _ ("Select a profiled kernel to see its gauges."));
      return;
    }
  info = ws_ncu_results_launch (ncu, (guint) launch);
  gauges = ws_ncu_results_gauges (ncu, (guint) launch);
  match = ws_ncu_results_match (ncu, (guint) launch);
  nvtx = ws_ncu_launch_nvtx_path (info);

  text = g_string_new (info->kernel);
  g_string_append_printf (text, "\n%s: %s", ws_verdict_label (gauges->verdict),
                          gauges->verdict_reason);
  g_string_append_c (text, '\n');
  /* TRANSLATORS: "Speed of light: High throughput — SM 97.83% ≥ 80%" */
  g_string_append_printf (text, _ ("Speed of light: %s — %s"), ws_sol_verdict_label (gauges->sol),
                          gauges->sol_reason);
  if (match != NULL && match->kind == WS_NCU_MATCH_UNMATCHED)
    {
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _ ("Matches no kernel of the nsys run (%s)"), match->why);
    }
  else if (match != NULL && match->nsys_name != NULL)
    {
      g_string_append_c (text, '\n');
      /* TRANSLATORS: the nsys kernel's name, then how it was matched */
      g_string_append_printf (text, _ ("nsys kernel: %s (by %s)"), match->nsys_name,
                              match_label (match->kind));
    }
  if (nvtx != NULL)
    {
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _ ("NVTX: %s"), nvtx);
    }
  g_string_append_c (text, '\n');
  g_string_append_printf (text, _ ("From %s"),
                          (const char *) g_ptr_array_index (ncu->files, info->file));
  gtk_label_set_text (self->details_label, text->str);
  g_string_free (text, TRUE);
}

static void
launch_selected_cb (WsGaugesPage *self, int launch, WsGaugesView *view)
{
  ws_gauges_view_select_launch (self->panel_view, launch);
  show_details (self, launch);
}

static void
sort_changed_cb (WsGaugesPage *self, GtkComboBox *combo)
{
  int sort = WS_GAUGE_DURATION;

  ws_gauges_sort_from_string (gtk_combo_box_get_active_id (combo), &sort);
  ws_gauges_view_set_sort (self->overview_view, sort);
}

static void
show_summary (WsGaugesPage *self, WsNcuResults *ncu)
{
  guint n = ws_ncu_results_n_launches (ncu);
  guint counts[WS_N_VERDICTS] = { 0 };
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GArray) unmatched = ws_ncu_results_unmatched (ncu);

  for (guint i = 0; i < n; i++)
    {
      WsVerdict verdict = ws_ncu_results_gauges (ncu, i)->verdict;

      if (verdict >= 0 && verdict < WS_N_VERDICTS)
        counts[verdict]++;
    }
  g_string_append_printf (
    text, g_dngettext (GETTEXT_PACKAGE, "%u profiled launch", "%u profiled launches", n), n);
  for (int v = 0; v < WS_N_VERDICTS; v++)
    if (counts[v] > 0)
      g_string_append_printf (text, " · %u %s", counts[v], ws_verdict_label ((WsVerdict) v));
  gtk_label_set_text (self->summary_label, text->str);

  /* What did not match is listed, not dropped: the rows stay in the overview. */
  if (unmatched->len == 0)
    {
      gtk_label_set_text (self->unmatched_label, "");
      gtk_widget_hide (GTK_WIDGET (self->unmatched_label));
      return;
    }
  g_string_truncate (text, 0);
  g_string_append_printf (
    text,
    g_dngettext (GETTEXT_PACKAGE, "%u profiled launch matches no kernel of the nsys run:",
                 "%u profiled launches match no kernel of the nsys run:", unmatched->len),
    unmatched->len);
  for (guint j = 0; j < unmatched->len; j++)
    {
      guint i = g_array_index (unmatched, guint, j);

      g_string_append_printf (text, "\n%u  %s", i, ws_ncu_results_launch (ncu, i)->kernel);
    }
  gtk_label_set_text (self->unmatched_label, text->str);
  gtk_widget_show (GTK_WIDGET (self->unmatched_label));
}

static void
ws_gauges_page_dispose (GObject *object)
{
  WsGaugesPage *self = WS_GAUGES_PAGE (object);

  g_clear_pointer (&self->run, ws_run_unref);

  G_OBJECT_CLASS (ws_gauges_page_parent_class)->dispose (object);
}

static void
ws_gauges_page_class_init (WsGaugesPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_gauges_page_dispose;

  g_type_ensure (WS_TYPE_GAUGES_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-gauges-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, stack);
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, sort_combo);
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, overview_view);
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, panel_view);
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, details_label);
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, unmatched_label);
  gtk_widget_class_bind_template_callback (widget_class, launch_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, sort_changed_cb);
}

static void
ws_gauges_page_init (WsGaugesPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

/**
 * ws_gauges_page_set_run:
 * @run: (nullable): the run on show
 *
 * Shows the run's ncu results, the longest launch selected; or how to get
 * ncu results when it has none.
 */
void
ws_gauges_page_set_run (WsGaugesPage *self, WsRun *run)
{
  WsNcuResults *ncu;

  g_return_if_fail (WS_IS_GAUGES_PAGE (self));

  if (run != NULL)
    ws_run_ref (run);
  g_clear_pointer (&self->run, ws_run_unref);
  self->run = run;
  ncu = run != NULL ? run->ncu : NULL;

  ws_gauges_view_set_results (self->overview_view, ncu);
  ws_gauges_view_set_results (self->panel_view, ncu);
  if (ncu == NULL || ws_ncu_results_n_launches (ncu) == 0)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      show_details (self, -1);
      return;
    }
  gtk_stack_set_visible_child_name (self->stack, "gauges");
  show_summary (self, ncu);
  ws_gauges_view_select_launch (
    self->overview_view,
    (int) ws_gauges_overview_launch (ws_gauges_view_get_overview (self->overview_view), 0));
}

gboolean
ws_gauges_page_is_empty (WsGaugesPage *self)
{
  return g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "empty") == 0;
}

/**
 * ws_gauges_page_get_overview:
 *
 * Returns: (transfer none): the overview of all launches
 */
WsGaugesView *
ws_gauges_page_get_overview (WsGaugesPage *self)
{
  return self->overview_view;
}

/**
 * ws_gauges_page_get_panel:
 *
 * Returns: (transfer none): the panel of the selected launch
 */
WsGaugesView *
ws_gauges_page_get_panel (WsGaugesPage *self)
{
  return self->panel_view;
}

const char *
ws_gauges_page_get_details_text (WsGaugesPage *self)
{
  return gtk_label_get_text (self->details_label);
}

const char *
ws_gauges_page_get_unmatched_text (WsGaugesPage *self)
{
  return gtk_label_get_text (self->unmatched_label);
}
