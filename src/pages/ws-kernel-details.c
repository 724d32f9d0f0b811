/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-kernel-details"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-format.h"
#include "ws-label-wrap.h"
#include "ws-gauges-view.h"
#include "ws-histogram-view.h"
#include "ws-graphs.h"
#include "ws-kernel-details.h"
#include "ws-kernel-instances.h"

/* Launch configurations listed, most used first; the rest are summed up in
 * one line, so that the panel stays a few screens tall. */
#define MAX_CONFIGS_SHOWN 12

struct _WsKernelDetails
{
  GtkBox parent_instance;

  /* Template widgets */
  GtkLabel *empty_label;
  GtkLabel *capture_label;
  GtkWidget *content;
  GtkLabel *name_label;
  GtkLabel *share_label;
  GtkGrid *stats_grid;
  GtkWidget *configs_title;
  GtkLabel *configs_label;
  GtkWidget *histogram_title;
  WsHistogramView *histogram_view;
  GtkBox *gauges_box;
  GtkLabel *gauges_label;
  WsGaugesView *gauges_view; /* the panel of the kernel's longest profiled launch */
};

G_DEFINE_FINAL_TYPE (WsKernelDetails, ws_kernel_details, GTK_TYPE_BOX)

static void
ws_kernel_details_class_init (WsKernelDetailsClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  g_type_ensure (WS_TYPE_HISTOGRAM_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-kernel-details.ui");
  gtk_widget_class_bind_template_child (widget_class, WsKernelDetails, empty_label);
  gtk_widget_class_bind_template_child (widget_class, WsKernelDetails, capture_label);
  gtk_widget_class_bind_template_child (widget_class, WsKernelDetails, content);
  gtk_widget_class_bind_template_child (widget_class, WsKernelDetails, name_label);
  gtk_widget_class_bind_template_child (widget_class, WsKernelDetails, share_label);
  gtk_widget_class_bind_template_child (widget_class, WsKernelDetails, stats_grid);
  gtk_widget_class_bind_template_child (widget_class, WsKernelDetails, configs_title);
  gtk_widget_class_bind_template_child (widget_class, WsKernelDetails, configs_label);
  gtk_widget_class_bind_template_child (widget_class, WsKernelDetails, histogram_title);
  gtk_widget_class_bind_template_child (widget_class, WsKernelDetails, histogram_view);
  gtk_widget_class_bind_template_child (widget_class, WsKernelDetails, gauges_box);
  gtk_widget_class_bind_template_child (widget_class, WsKernelDetails, gauges_label);
}

static void
ws_kernel_details_init (WsKernelDetails *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  ws_label_wrap_names (self->name_label);
  self->gauges_view = WS_GAUGES_VIEW (ws_gauges_view_new (TRUE));
  /* In the scrolled side panel: room for two rows of three arcs. */
  ws_gauges_view_set_min_height (self->gauges_view, 680);
  gtk_box_pack_start (self->gauges_box, GTK_WIDGET (self->gauges_view), FALSE, FALSE, 0);
}

static void
stat_row (WsKernelDetails *self, int row, const char *label, const char *value)
{
  GtkWidget *name = gtk_label_new (label);
  GtkWidget *text = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_xalign (GTK_LABEL (text), 1);
  gtk_label_set_selectable (GTK_LABEL (text), TRUE);
  /* Copyable, but no Tab stop and no caret (see ws-application.c). */
  gtk_widget_set_can_focus (text, FALSE);
  gtk_style_context_add_class (gtk_widget_get_style_context (name), "ws-dim");
  gtk_widget_set_hexpand (text, TRUE);
  gtk_grid_attach (self->stats_grid, name, 0, row, 1, 1);
  gtk_grid_attach (self->stats_grid, text, 1, row, 1, 1);
  gtk_widget_show (name);
  gtk_widget_show (text);
}

static void
show_instances (WsKernelDetails *self, WsRun *run, const WsBar *bar)
{
  g_autoptr (GArray) instances = NULL;
  g_autoptr (GArray) uses = NULL;
  g_autoptr (GString) configs = g_string_new (NULL);
  g_autofree gint64 *durations = NULL;
  gsize n = 0;
  gboolean events = run != NULL && run->kernels.n > 0 && bar->name_id != WS_STRING_NONE;

  gtk_widget_set_visible (self->configs_title, events);
  gtk_widget_set_visible (GTK_WIDGET (self->configs_label), TRUE);
  gtk_widget_set_visible (self->histogram_title, events);
  gtk_widget_set_visible (GTK_WIDGET (self->histogram_view), events);
  if (!events)
    {
      gtk_label_set_text (
        self->configs_label,
        _ ("Only the summary is known for this run (an nsys stats CSV): open its SQLite "
           "export to see launch configurations and the distribution of durations."));
      ws_histogram_view_set_histogram (self->histogram_view, NULL);
      return;
    }

  instances = ws_kernel_instances (run, bar->name_id, WS_NAME_DEMANGLED);
  uses = ws_kernel_config_uses (run, instances);
  for (guint i = 0; i < uses->len && i < MAX_CONFIGS_SHOWN; i++)
    {
      const WsConfigUse *use = &g_array_index (uses, WsConfigUse, i);
      const WsLaunchConfig *config = &g_array_index (run->configs, WsLaunchConfig, use->config);
      g_autofree char *described = ws_launch_config_describe (config);
      g_autofree char *time = ws_format_duration ((double) use->total);
      g_autofree char *count = ws_format_count ((gint64) use->count);

      if (i > 0)
        g_string_append_c (configs, '\n');
      if (run->ranks != NULL && use->n_processes > 1)
        /* TRANSLATORS: a launch configuration, how many launches used it, their time, and
         * on how many ranks of a job */
        g_string_append_printf (configs, _ ("%s — %s×, %s, on %u ranks"), described, count, time,
                                use->n_processes);
      else
        /* TRANSLATORS: a launch configuration, how many launches used it, their time */
        g_string_append_printf (configs, _ ("%s — %s×, %s"), described, count, time);
    }
  if (uses->len > MAX_CONFIGS_SHOWN)
    {
      guint more = uses->len - MAX_CONFIGS_SHOWN;
      gsize launches = 0;
      gint64 total = 0;
      g_autofree char *time = NULL, *count = NULL;

      for (guint i = MAX_CONFIGS_SHOWN; i < uses->len; i++)
        {
          launches += g_array_index (uses, WsConfigUse, i).count;
          total += g_array_index (uses, WsConfigUse, i).total;
        }
      time = ws_format_duration ((double) total);
      count = ws_format_count ((gint64) launches);
      g_string_append_c (configs, '\n');
      /* TRANSLATORS: configurations left out of the list, their launches and time */
      g_string_append_printf (configs,
                              g_dngettext (GETTEXT_PACKAGE, "and %u more configuration — %s×, %s",
                                           "and %u more configurations — %s×, %s", more),
                              more, count, time);
    }
  gtk_label_set_text (self->configs_label, configs->str);

  durations = ws_kernel_durations (run, instances, &n);
  ws_histogram_view_set_histogram (self->histogram_view, ws_histogram_new (durations, n, 40));
}

static void
show_gauges (WsKernelDetails *self, WsRun *run, int launch)
{
  WsNcuResults *ncu = run != NULL ? run->ncu : NULL;
  g_autofree char *text = NULL;

  if (ncu == NULL || launch < 0 || (guint) launch >= ws_ncu_results_n_launches (ncu))
    {
      ws_gauges_view_set_results (self->gauges_view, NULL);
      gtk_widget_set_visible (GTK_WIDGET (self->gauges_view), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->gauges_label), TRUE);
      gtk_label_set_text (
        self->gauges_label,
        ncu == NULL ? _ ("No Nsight Compute data for this kernel. Open its ncu CSV together with "
                         "the export, or capture it with the launcher, to see its gauges.")
                    : _ ("Nsight Compute did not profile this kernel: its ncu CSVs hold other "
                         "kernels (see the Gauges page)."));
      return;
    }
  ws_gauges_view_set_results (self->gauges_view, ncu);
  ws_gauges_view_select_launch (self->gauges_view, launch);
  gtk_widget_set_visible (GTK_WIDGET (self->gauges_view), TRUE);
  /* The panel states the verdict; the label keeps it for get_text (). */
  gtk_widget_set_visible (GTK_WIDGET (self->gauges_label), FALSE);
  /* TRANSLATORS: "Memory-bound: DRAM 86.2% ≥ 60% and SM 12.0% < 60%" */
  text =
    g_strdup_printf (_ ("%s: %s"), ws_verdict_label (ws_ncu_results_gauges (ncu, launch)->verdict),
                     ws_ncu_results_gauges (ncu, launch)->verdict_reason);
  gtk_label_set_text (self->gauges_label, text);
}

static void
append_field (GString *out, const char *label, const char *value)
{
  g_autofree char *escaped = g_markup_escape_text (value != NULL ? value : "", -1);

  g_string_append_printf (out, "\n<span alpha=\"70%%\">%s</span>  %s", label, escaped);
}

/* How a capture folder's run was made, from its run.json: the target's row,
 * each command the launcher ran, the tools and the GPUs. */
static char *
capture_markup (const WsCaptureRecord *record)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "<b>%s</b>", _ ("How this run was made"));
  append_field (out, _ ("Target"), record->name);
  append_field (out, _ ("Command"), record->cmd);
  append_field (out, _ ("Folder"), record->workdir);
  append_field (out, _ ("Environment"), record->envs);
  if (record->targets_file != NULL)
    {
      /* TRANSLATORS: a targets file and the line of the target in it */
      g_autofree char *where =
        g_strdup_printf (_ ("%s, line %d"), record->targets_file, record->line);

      append_field (out, _ ("Targets file"), where);
    }
  if (record->started != NULL)
    {
      /* TRANSLATORS: when the capture started, and how it ended ("done") */
      g_autofree char *when = g_strdup_printf (_ ("%s (%s)"), record->started,
                                               record->status != NULL ? record->status : "?");

      append_field (out, _ ("Captured"), when);
    }
  if (record->nsys_path != NULL)
    {
      g_autofree char *tool =
        g_strdup_printf ("nsys %s (%s)", record->nsys_version != NULL ? record->nsys_version : "?",
                         record->nsys_path);

      append_field (out, _ ("Tools"), tool);
    }
  if (record->ncu_path != NULL)
    {
      g_autofree char *tool = g_strdup_printf (
        "ncu %s (%s)", record->ncu_version != NULL ? record->ncu_version : "?", record->ncu_path);

      append_field (out, record->nsys_path != NULL ? "" : _ ("Tools"), tool);
    }
  for (guint i = 0; i < record->gpus->len; i++)
    append_field (out, i == 0 ? _ ("GPUs") : "", g_ptr_array_index (record->gpus, i));
  if (record->commands->len > 0)
    {
      g_string_append_printf (out, "\n\n<b>%s</b>", _ ("Commands"));
      for (guint i = 0; i < record->commands->len; i++)
        {
          g_autofree char *escaped =
            g_markup_escape_text (g_ptr_array_index (record->commands, i), -1);

          g_string_append_printf (out, "\n<tt>%s</tt>", escaped);
        }
    }
  return g_string_free (out, FALSE);
}

/**
 * ws_kernel_details_show:
 * @run: (nullable): the run the kernel belongs to
 * @bar: (nullable): the kernel, or %NULL to show nothing
 * @launch: the kernel's longest launch in @run's ncu results, or -1
 *
 * Shows the statistics of a kernel, its launch configurations with counts,
 * the distribution of its durations, and the gauges and verdict of its
 * longest profiled launch, or how to get them; @verdict, the kernel's
 * over all its profiled launches, goes under its name.
 */
void
ws_kernel_details_show (WsKernelDetails *self, WsRun *run, const WsBar *bar, int launch,
                        const WsKernelVerdict *verdict)
{
  g_autofree char *share = NULL, *total = NULL, *avg = NULL, *med = NULL;
  g_autofree char *min = NULL, *max = NULL, *sd = NULL, *count = NULL, *subtitle = NULL;
  GList *children;

  g_return_if_fail (WS_IS_KERNEL_DETAILS (self));

  gtk_widget_set_visible (GTK_WIDGET (self->empty_label), bar == NULL);
  gtk_widget_set_visible (self->content, bar != NULL);
  /* Nothing selected: a capture folder says how it was made. */
  gtk_widget_set_visible (GTK_WIDGET (self->capture_label),
                          bar == NULL && run != NULL && run->prov.capture != NULL);
  if (bar == NULL && run != NULL && run->prov.capture != NULL)
    {
      g_autofree char *markup = capture_markup (run->prov.capture);

      gtk_label_set_markup (self->capture_label, markup);
    }
  if (bar == NULL)
    return;

  gtk_label_set_text (self->name_label, bar->name);
  share = ws_format_fixed_string (bar->share, 1);
  count = ws_format_count (bar->count);
  /* TRANSLATORS: "320 launches · 8.0% of the GPU time in kernels" */
  subtitle = g_strdup_printf (_ ("%s launches · %s%% of the GPU time in kernels"), count, share);
  if (run != NULL && run->kernels.replay != NULL && run->kernels.demangled != NULL)
    {
      g_autoptr (GArray) instances = ws_kernel_instances (run, bar->name_id, WS_NAME_DEMANGLED);
      gsize inside = ws_graphs_count_inside (run, instances);

      if (inside > 0)
        {
          g_autoptr (GString) grouped = g_string_new (NULL);
          g_autofree char *longer = NULL;

          ws_format_int (grouped, (gint64) inside, TRUE);
          /* TRANSLATORS: after "320 launches · 8.0% of the GPU time in kernels" */
          longer =
            g_strdup_printf (_ ("%s · %s inside CUDA graph replays"), subtitle, grouped->str);
          g_free (subtitle);
          subtitle = g_steal_pointer (&longer);
        }
    }
  if (verdict != NULL && verdict->verdict != WS_VERDICT_NONE)
    {
      g_autofree char *said = ws_kernel_verdict_text (verdict);
      g_autofree char *longer = g_strdup_printf ("%s\n%s", subtitle, said);

      g_free (subtitle);
      subtitle = g_steal_pointer (&longer);
    }
  gtk_label_set_text (self->share_label, subtitle);

  children = gtk_container_get_children (GTK_CONTAINER (self->stats_grid));
  for (GList *l = children; l != NULL; l = l->next)
    gtk_widget_destroy (l->data);
  g_list_free (children);

  total = ws_format_duration ((double) bar->total);
  avg = ws_format_duration (bar->avg);
  med = ws_format_duration (bar->med);
  min = ws_format_duration ((double) bar->min);
  max = ws_format_duration ((double) bar->max);
  sd = ws_format_duration (bar->stddev);
  stat_row (self, 0, _ ("Total"), total);
  stat_row (self, 1, _ ("Average"), avg);
  stat_row (self, 2, _ ("Median"), med);
  stat_row (self, 3, _ ("Minimum"), min);
  stat_row (self, 4, _ ("Maximum"), max);
  stat_row (self, 5, _ ("Standard deviation"), sd);

  show_instances (self, run, bar);
  show_gauges (self, run, launch);
}

/**
 * ws_kernel_details_get_text:
 *
 * Returns: (transfer full): what the panel says, as text: for tests and
 * for copying.
 */
char *
ws_kernel_details_get_text (WsKernelDetails *self)
{
  g_autoptr (GString) text = g_string_new (NULL);

  if (!gtk_widget_get_visible (self->content))
    return gtk_widget_get_visible (GTK_WIDGET (self->capture_label))
             ? g_strdup_printf ("%s\n%s", gtk_label_get_text (self->empty_label),
                                gtk_label_get_text (self->capture_label))
             : g_strdup (gtk_label_get_text (self->empty_label));

  g_string_append_printf (text, "%s\n%s\n", gtk_label_get_text (self->name_label),
                          gtk_label_get_text (self->share_label));
  for (int row = 0;; row++)
    {
      GtkWidget *name = gtk_grid_get_child_at (self->stats_grid, 0, row);
      GtkWidget *value = gtk_grid_get_child_at (self->stats_grid, 1, row);

      if (name == NULL || value == NULL)
        break;
      g_string_append_printf (text, "%s: %s\n", gtk_label_get_text (GTK_LABEL (name)),
                              gtk_label_get_text (GTK_LABEL (value)));
    }
  g_string_append_printf (text, "\n%s\n", gtk_label_get_text (self->configs_label));
  g_string_append_printf (text, "\n%s\n", gtk_label_get_text (self->gauges_label));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/**
 * ws_kernel_details_get_gauges_box:
 *
 * Returns: (transfer none): where the kernel's gauges go
 */
GtkBox *
ws_kernel_details_get_gauges_box (WsKernelDetails *self)
{
  return self->gauges_box;
}
