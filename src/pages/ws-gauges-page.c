/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-gauges-page"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-bars-chart.h"
#include "ws-format.h"
#include "ws-gauges-page.h"
#include "ws-ncu-match.h"
#include "ws-label-wrap.h"
#include "ws-why-view.h"

/* The Gauges page: the overview of every profiled launch beside the panel
 * of the one selected, or, for a run without ncu results, how to get them. */
struct _WsGaugesPage
{
  GtkBox parent_instance;

  WsRun *run;
  WsWhy *why;               /* the selected launch's, shown by the why views */
  GCancellable *why_cancel; /* its computation */
  GCancellable *run_cancel; /* the run's roofline */

  /* Template widgets */
  GtkStack *stack;
  GtkComboBoxText *sort_combo;
  GtkLabel *summary_label;
  WsGaugesView *overview_view;
  WsGaugesView *panel_view;
  GtkLabel *details_label;
  GtkLabel *unmatched_label;
  GtkStack *why_stack;
  GtkLabel *why_label;
  WsWhyView *stalls_view;
  WsWhyView *roofline_view;
  WsWhyView *memory_view;
  WsWhyView *run_roofline_view;
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
  if (self->why != NULL && self->why->launch == (guint) launch)
    {
      g_autofree char *headline = ws_bottleneck_headline (&self->why->bottleneck);

      g_string_append_c (text, '\n');
      /* TRANSLATORS: the verdict's unit: "Bottleneck: Memory-bound: L1/shared memory 96.45% (see Why)" */
      g_string_append_printf (text, _ ("Bottleneck: %s (see Why)"), headline);
    }
  gtk_label_set_text (self->details_label, text->str);
  g_string_free (text, TRUE);
}

/* ---- why the selected launch is slow ----------------------------------- */

static void
append_section (GString *text, const char *title)
{
  g_autofree char *escaped = g_markup_escape_text (title, -1);

  if (text->len > 0)
    g_string_append (text, "\n\n");
  g_string_append_printf (text, "<b>%s</b>\n", escaped);
}

static void
append_escaped (GString *text, const char *line)
{
  g_autofree char *escaped = g_markup_escape_text (line, -1);

  g_string_append (text, escaped);
}

/* The sharper verdict, the roofline in numbers, occupancy and hints. */
static char *
why_markup (const WsNcuResults *ncu, const WsWhy *why)
{
  const WsBottleneck *b = &why->bottleneck;
  const WsRoofline *r = why->roofline;
  const WsOccupancy *o = &why->occupancy;
  g_autofree char *headline = ws_bottleneck_headline (b);
  GString *text = g_string_new (NULL);
  double flops = ws_roofline_flops (r);

  append_section (text, _ ("Bottleneck"));
  append_escaped (text, headline);
  g_string_append_c (text, '\n');
  append_escaped (text, b->reason);
  g_string_append_c (text, '\n');

  append_section (text, _ ("Roofline"));
  if (!isnan (flops))
    {
      g_autofree char *rate = ws_format_rate (flops, "FLOP/s");
      WsPrecision main = ws_roofline_main_precision (r);
      g_autofree char *line = NULL;

      if (r->peak[main].value > 0)
        {
          g_autofree char *share =
            ws_format_percent_short (100 * r->achieved[main].value / r->peak[main].value);

          /* TRANSLATORS: "75.7 TFLOP/s, mostly Tensor: 9.74% of its ceiling" */
          line = g_strdup_printf (_ ("%s, mostly %s: %s of its ceiling"), rate,
                                  ws_precision_label (main), share);
        }
      else
        line = g_strdup (rate);
      append_escaped (text, line);
      for (int l = 0; l < WS_N_LEVELS; l++)
        {
          double ai = ws_roofline_intensity (r, (WsMemoryLevel) l);
          g_autofree char *v = NULL;
          g_autofree char *item = NULL;

          if (isnan (ai) || isinf (ai))
            continue;
          v = ws_format_fixed_string (ai, ai >= 100 ? 0 : 2);
          /* TRANSLATORS: "L2: 65.97 FLOPs per byte" */
          item = g_strdup_printf (_ ("%s: %s FLOPs per byte"),
                                  ws_memory_level_label ((WsMemoryLevel) l), v);
          g_string_append (text, "\n");
          append_escaped (text, item);
        }
    }
  else
    append_escaped (text, _ ("Not collected (--set full, raw page)"));

  append_section (text, _ ("Occupancy"));
  if (ws_ncu_value_collected (o->achieved) && ws_ncu_value_collected (o->theoretical))
    {
      g_autofree char *a = ws_format_percent_short (o->achieved.value);
      g_autofree char *t = ws_format_percent_short (o->theoretical.value);
      g_autofree char *line = g_strdup_printf (_ ("achieved %s of a theoretical %s"), a, t);

      append_escaped (text, line);
      g_string_append_c (text, '\n');
    }
  append_escaped (text, o->text != NULL ? o->text : _ ("Not collected (--section Occupancy)"));

  append_section (text, _ ("Hints"));
  if (why->hints->len == 0)
    append_escaped (text, _ ("No rule fired."));
  for (guint i = 0; i < why->hints->len; i++)
    {
      const WsHint *h = g_ptr_array_index (why->hints, i);

      if (i > 0)
        g_string_append (text, "\n\n");
      g_string_append (text, "• <b>");
      append_escaped (text, h->title);
      g_string_append (text, "</b>\n");
      append_escaped (text, h->evidence);
      g_string_append (text, "\n<i>");
      append_escaped (text, h->fix);
      g_string_append (text, "</i>");
    }
  return g_string_free (text, FALSE);
}

static void
show_why (WsGaugesPage *self, WsWhy *why)
{
  WsNcuResults *ncu = self->run != NULL ? self->run->ncu : NULL;
  WsWhy *old = self->why;

  /* The views drop the old one before it is freed. */
  ws_why_view_set_why (self->stalls_view, ncu, why);
  ws_why_view_set_why (self->roofline_view, ncu, why);
  ws_why_view_set_why (self->memory_view, ncu, why);
  self->why = why;
  g_clear_pointer (&old, ws_why_free);
  if (why != NULL && ncu != NULL)
    {
      g_autofree char *markup = why_markup (ncu, why);

      gtk_label_set_markup (self->why_label, markup);
      show_details (self, (int) why->launch);
    }
  else
    gtk_label_set_text (self->why_label, _ ("Select a profiled kernel to see why it is slow."));
}

static void
why_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  WsNcuResults *ncu = data;
  guint launch = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (task), "launch"));

  g_task_return_pointer (task, ws_why_compute (ncu, launch), (GDestroyNotify) ws_why_free);
}

static void
why_ready (GObject *source, GAsyncResult *result, gpointer data)
{
  WsWhy *why = g_task_propagate_pointer (G_TASK (result), NULL);

  if (why == NULL || g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    {
      g_clear_pointer (&why, ws_why_free);
      return;
    }
  show_why (WS_GAUGES_PAGE (source), why);
}

/* Works out why @launch is slow on a worker thread. */
static void
compute_why (WsGaugesPage *self, int launch)
{
  WsNcuResults *ncu = self->run != NULL ? self->run->ncu : NULL;
  g_autoptr (GTask) task = NULL;

  g_cancellable_cancel (self->why_cancel);
  g_clear_object (&self->why_cancel);
  if (ncu == NULL || launch < 0)
    {
      show_why (self, NULL);
      return;
    }
  self->why_cancel = g_cancellable_new ();
  task = g_task_new (self, self->why_cancel, why_ready, NULL);
  g_task_set_source_tag (task, compute_why);
  g_task_set_task_data (task, ws_ncu_results_ref (ncu), (GDestroyNotify) ws_ncu_results_unref);
  g_object_set_data (G_OBJECT (task), "launch", GUINT_TO_POINTER ((guint) launch));
  g_task_run_in_thread (task, why_thread);
}

static void
run_roofline_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  g_task_return_pointer (task, ws_roofline_model_new_run (data),
                         (GDestroyNotify) ws_roofline_model_free);
}

static void
run_roofline_ready (GObject *source, GAsyncResult *result, gpointer data)
{
  WsRooflineModel *model = g_task_propagate_pointer (G_TASK (result), NULL);

  if (model == NULL || g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    {
      g_clear_pointer (&model, ws_roofline_model_free);
      return;
    }
  ws_why_view_set_run_roofline (WS_GAUGES_PAGE (source)->run_roofline_view, model);
}

static void
compute_run_roofline (WsGaugesPage *self)
{
  g_autoptr (GTask) task = NULL;

  g_cancellable_cancel (self->run_cancel);
  g_clear_object (&self->run_cancel);
  ws_why_view_set_run_roofline (self->run_roofline_view, NULL);
  if (self->run == NULL || self->run->ncu == NULL)
    return;
  self->run_cancel = g_cancellable_new ();
  task = g_task_new (self, self->run_cancel, run_roofline_ready, NULL);
  g_task_set_source_tag (task, compute_run_roofline);
  g_task_set_task_data (task, ws_run_ref (self->run), (GDestroyNotify) ws_run_unref);
  g_task_run_in_thread (task, run_roofline_thread);
}

static void
launch_selected_cb (WsGaugesPage *self, int launch, WsGaugesView *view)
{
  ws_gauges_view_select_launch (self->panel_view, launch);
  show_details (self, launch);
  compute_why (self, launch);
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
  g_autoptr (GArray) unmatched = ws_ncu_match_unmatched (ncu);

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

  g_cancellable_cancel (self->why_cancel);
  g_clear_object (&self->why_cancel);
  g_cancellable_cancel (self->run_cancel);
  g_clear_object (&self->run_cancel);
  if (self->stalls_view != NULL)
    show_why (self, NULL);
  g_clear_pointer (&self->why, ws_why_free);
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
  g_type_ensure (WS_TYPE_WHY_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-gauges-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, stack);
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, sort_combo);
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, overview_view);
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, panel_view);
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, details_label);
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, unmatched_label);
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, why_stack);
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, why_label);
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, stalls_view);
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, roofline_view);
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, memory_view);
  gtk_widget_class_bind_template_child (widget_class, WsGaugesPage, run_roofline_view);
  gtk_widget_class_bind_template_callback (widget_class, launch_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, sort_changed_cb);
}

static void
ws_gauges_page_init (WsGaugesPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  ws_label_wrap_names (self->details_label);
  ws_label_wrap_names (self->unmatched_label);
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

/* Launches without a duration (nvprof's metric runs have none) are sorted
 * by what they have, SM throughput, else in profiling order; a sort the
 * user chose stays. */
static void
fit_sort (WsGaugesPage *self, const WsNcuResults *ncu)
{
  guint n = ws_ncu_results_n_launches (ncu);
  gboolean duration = FALSE, sm = FALSE;

  if (ncu->gauges == NULL ||
      g_strcmp0 (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->sort_combo)), "duration") != 0)
    return;
  for (guint i = 0; i < n; i++)
    {
      duration |= ncu->gauges[i].gauge[WS_GAUGE_DURATION].collected;
      sm |= ncu->gauges[i].gauge[WS_GAUGE_SM].collected;
    }
  if (!duration)
    gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->sort_combo), sm ? "sm" : "id");
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
  compute_why (self, -1);
  compute_run_roofline (self);
  if (ncu == NULL || ws_ncu_results_n_launches (ncu) == 0)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      show_details (self, -1);
      return;
    }
  gtk_stack_set_visible_child_name (self->stack, "gauges");
  fit_sort (self, ncu);
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

/**
 * ws_gauges_page_get_why_stack:
 *
 * Returns: (transfer none): the stack of the panel's tabs: "gauges",
 * "why", "stalls", "roofline", "memory", "roofline-all"
 */
GtkStack *
ws_gauges_page_get_why_stack (WsGaugesPage *self)
{
  return self->why_stack;
}

/**
 * ws_gauges_page_get_why:
 *
 * Returns: (transfer none) (nullable): why the selected launch is slow,
 * once worked out
 */
const WsWhy *
ws_gauges_page_get_why (WsGaugesPage *self)
{
  return self->why;
}

const char *
ws_gauges_page_get_why_text (WsGaugesPage *self)
{
  return gtk_label_get_text (self->why_label);
}

/**
 * ws_gauges_page_get_why_view:
 *
 * Returns: (transfer none): the view of @chart
 */
WsWhyView *
ws_gauges_page_get_why_view (WsGaugesPage *self, WsWhyChart chart)
{
  switch (chart)
    {
      case WS_WHY_CHART_STALLS:
        return self->stalls_view;
      case WS_WHY_CHART_ROOFLINE:
        return self->roofline_view;
      case WS_WHY_CHART_MEMORY:
        return self->memory_view;
      case WS_WHY_CHART_ROOFLINE_RUN:
      default:
        return self->run_roofline_view;
    }
}
