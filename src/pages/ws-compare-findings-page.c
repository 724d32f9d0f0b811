/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-compare-findings-page"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-compare-findings-page.h"
#include "ws-findings-diff.h"
#include "ws-findings.h"
#include "ws-list-box.h"
#include "ws-label-wrap.h"

/* The Findings tab of a comparison: each check raised on either side,
 * with what became of it (fixed, appeared, better, worse, unchanged), its
 * severity before and after and both summaries.  The findings of each run
 * are computed on worker threads, so that the window never waits. */
struct _WsCompareFindingsPage
{
  GtkBox parent_instance;

  WsRun *runs[2];         /* before, after */
  GPtrArray *findings[2]; /* WsFinding *, or NULL while computing */
  GArray *diff;           /* WsFindingChange, or NULL until both are known */
  GCancellable *cancellable;

  /* Template widgets */
  GtkStack *stack;
  GtkSpinner *spinner;
  GtkLabel *summary_label;
  GtkListBox *list;
};

G_DEFINE_FINAL_TYPE (WsCompareFindingsPage, ws_compare_findings_page, GTK_TYPE_BOX)

static const char *const change_classes[] = {
  [WS_FINDING_APPEARED] = "ws-change-appeared",   [WS_FINDING_WORSE] = "ws-change-worse",
  [WS_FINDING_FIXED] = "ws-change-fixed",         [WS_FINDING_BETTER] = "ws-change-better",
  [WS_FINDING_UNCHANGED] = "ws-change-unchanged",
};

static const char *const severity_classes[] = {
  [WS_SEVERITY_MINOR] = "ws-severity-minor",
  [WS_SEVERITY_MEDIUM] = "ws-severity-medium",
  [WS_SEVERITY_SEVERE] = "ws-severity-severe",
};

static GtkWidget *
badge_new (const char *text, const char *base_class, const char *class)
{
  GtkWidget *badge = gtk_label_new (text);
  GtkStyleContext *style = gtk_widget_get_style_context (badge);

  gtk_style_context_add_class (style, base_class);
  gtk_style_context_add_class (style, class);
  gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
  return badge;
}

static GtkWidget *
severity_badge (const WsFinding *finding)
{
  if (finding == NULL)
    {
      /* TRANSLATORS: a check not raised on one side of a comparison */
      GtkWidget *none = gtk_label_new (_ ("not raised"));

      gtk_style_context_add_class (gtk_widget_get_style_context (none), "ws-dim");
      return none;
    }
  return badge_new (ws_severity_label (finding->severity), "ws-severity",
                    severity_classes[finding->severity]);
}

static GtkWidget *
text_new (const char *text, const char *style_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  ws_label_wrap_names (GTK_LABEL (label));
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  /* Copyable, but no Tab stop and no caret (see ws-application.c). */
  gtk_widget_set_can_focus (label, FALSE);
  if (style_class != NULL)
    gtk_style_context_add_class (gtk_widget_get_style_context (label), style_class);
  return label;
}

static GtkWidget *
row_new (const WsFindingChange *change)
{
  const WsFinding *any = change->after != NULL ? change->after : change->before;
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *severities = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *status = badge_new (ws_finding_change_label (change->change), "ws-change",
                                 change_classes[change->change]);
  g_autofree char *title = g_strdup_printf ("%s (%s)", any->title, change->id);

  gtk_widget_set_valign (status, GTK_ALIGN_START);
  gtk_widget_set_size_request (status, 90, -1);
  gtk_box_pack_start (GTK_BOX (text), text_new (title, "ws-finding-row-title"), FALSE, FALSE, 0);

  gtk_box_pack_start (GTK_BOX (severities), text_new (_ ("Before:"), "ws-dim"), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (severities), severity_badge (change->before), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (severities), text_new ("→", NULL), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (severities), text_new (_ ("After:"), "ws-dim"), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (severities), severity_badge (change->after), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (text), severities, FALSE, FALSE, 0);

  for (int s = 0; s < 2; s++)
    {
      const WsFinding *finding = s == 0 ? change->before : change->after;
      g_autofree char *line = NULL;

      if (finding == NULL)
        continue;
      /* TRANSLATORS: "Before: 20 cudaMalloc, 20 cudaFree inside …" */
      line = g_strdup_printf (s == 0 ? _ ("Before: %s") : _ ("After: %s"), finding->summary);
      gtk_box_pack_start (GTK_BOX (text), text_new (line, "ws-dim"), FALSE, FALSE, 0);
    }

  gtk_container_set_border_width (GTK_CONTAINER (box), 10);
  gtk_box_pack_start (GTK_BOX (box), status, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), text, TRUE, TRUE, 0);
  gtk_container_add (GTK_CONTAINER (row), box);
  gtk_widget_show_all (row);
  return row;
}

/* "Fixed 5 · Worse 1": how many checks changed each way. */
static char *
summary_text (GArray *diff)
{
  guint counts[WS_FINDING_UNCHANGED + 1] = { 0 };
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < diff->len; i++)
    counts[g_array_index (diff, WsFindingChange, i).change]++;
  for (int kind = 0; kind <= WS_FINDING_UNCHANGED; kind++)
    {
      if (counts[kind] == 0)
        continue;
      if (out->len > 0)
        g_string_append (out, " · ");
      g_string_append_printf (out, "%s %u", ws_finding_change_label (kind), counts[kind]);
    }
  return g_string_free (out, FALSE);
}

static void
show_diff (WsCompareFindingsPage *self)
{
  g_autofree char *summary = NULL;

  ws_list_box_clear (self->list);
  gtk_spinner_stop (self->spinner);
  g_clear_pointer (&self->diff, g_array_unref);
  if (self->findings[0] == NULL || self->findings[1] == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  self->diff = ws_findings_diff (self->findings[0], self->findings[1]);
  if (self->diff->len == 0)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  for (guint i = 0; i < self->diff->len; i++)
    gtk_container_add (GTK_CONTAINER (self->list),
                       row_new (&g_array_index (self->diff, WsFindingChange, i)));
  summary = summary_text (self->diff);
  gtk_label_set_text (self->summary_label, summary);
  gtk_stack_set_visible_child_name (self->stack, "diff");
}

typedef struct
{
  WsCompareFindingsPage *page;
  GCancellable *cancellable; /* tells this computation from a later one */
  guint side;
} ComputeData;

static void
compute_finished (GObject *source, GAsyncResult *result, gpointer data)
{
  ComputeData *compute = data;
  WsCompareFindingsPage *self = compute->page;
  g_autoptr (GError) error = NULL;
  GPtrArray *findings = ws_findings_compute_finish (result, &error);

  if (compute->cancellable == self->cancellable)
    {
      /* A run whose checks could not run shows as one without findings. */
      self->findings[compute->side] = findings != NULL ? findings : g_ptr_array_new ();
      if (self->findings[0] != NULL && self->findings[1] != NULL)
        {
          g_clear_object (&self->cancellable);
          show_diff (self);
        }
    }
  else if (findings != NULL)
    g_ptr_array_unref (findings);

  g_object_unref (compute->page);
  g_object_unref (compute->cancellable);
  g_free (compute);
}

/**
 * ws_compare_findings_page_set_runs:
 * @before: (nullable): the run before
 * @after: (nullable): the run after
 *
 * Computes the findings of both runs on worker threads (a spinner shows
 * meanwhile) and shows what changed.  Findings already computed for either
 * run are kept, so that swapping the sides computes nothing.
 */
void
ws_compare_findings_page_set_runs (WsCompareFindingsPage *self, WsRun *before, WsRun *after)
{
  WsRun *runs[2] = { before, after };
  GPtrArray *kept[2] = { NULL, NULL };

  g_return_if_fail (WS_IS_COMPARE_FINDINGS_PAGE (self));

  for (int s = 0; s < 2; s++)
    for (int o = 0; o < 2; o++)
      if (runs[s] != NULL && runs[s] == self->runs[o] && self->findings[o] != NULL)
        kept[s] = g_ptr_array_ref (self->findings[o]);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  for (int s = 0; s < 2; s++)
    {
      g_clear_pointer (&self->findings[s], g_ptr_array_unref);
      g_clear_pointer (&self->runs[s], ws_run_unref);
      self->runs[s] = runs[s] != NULL ? ws_run_ref (runs[s]) : NULL;
      self->findings[s] = kept[s];
    }

  if (before == NULL || after == NULL || (kept[0] != NULL && kept[1] != NULL))
    {
      show_diff (self);
      return;
    }

  self->cancellable = g_cancellable_new ();
  ws_list_box_clear (self->list);
  gtk_stack_set_visible_child_name (self->stack, "busy");
  gtk_spinner_start (self->spinner);
  for (guint s = 0; s < 2; s++)
    {
      ComputeData *compute;

      if (self->findings[s] != NULL)
        continue;
      compute = g_new0 (ComputeData, 1);
      compute->page = g_object_ref (self);
      compute->cancellable = g_object_ref (self->cancellable);
      compute->side = s;
      ws_findings_compute_async (self->runs[s], self->cancellable, compute_finished, compute);
    }
}

gboolean
ws_compare_findings_page_is_busy (WsCompareFindingsPage *self)
{
  g_return_val_if_fail (WS_IS_COMPARE_FINDINGS_PAGE (self), FALSE);

  return self->cancellable != NULL;
}

/**
 * ws_compare_findings_page_get_diff:
 *
 * Returns: (transfer none) (nullable) (element-type WsFindingChange): the
 * changes shown, or %NULL while computing
 */
GArray *
ws_compare_findings_page_get_diff (WsCompareFindingsPage *self)
{
  g_return_val_if_fail (WS_IS_COMPARE_FINDINGS_PAGE (self), NULL);

  return self->diff;
}

guint
ws_compare_findings_page_get_n_rows (WsCompareFindingsPage *self)
{
  g_return_val_if_fail (WS_IS_COMPARE_FINDINGS_PAGE (self), 0);

  return ws_list_box_get_n_rows (self->list);
}

/**
 * ws_compare_findings_page_get_row_text:
 *
 * Returns: (transfer full) (nullable): the labels of row @index, one a
 * line, in the order shown
 */
char *
ws_compare_findings_page_get_row_text (WsCompareFindingsPage *self, guint index)
{
  g_return_val_if_fail (WS_IS_COMPARE_FINDINGS_PAGE (self), NULL);

  return ws_list_box_get_row_text (self->list, index);
}

static void
ws_compare_findings_page_dispose (GObject *object)
{
  WsCompareFindingsPage *self = WS_COMPARE_FINDINGS_PAGE (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->diff, g_array_unref);
  for (int s = 0; s < 2; s++)
    {
      g_clear_pointer (&self->findings[s], g_ptr_array_unref);
      g_clear_pointer (&self->runs[s], ws_run_unref);
    }
  G_OBJECT_CLASS (ws_compare_findings_page_parent_class)->dispose (object);
}

static void
ws_compare_findings_page_class_init (WsCompareFindingsPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ws_compare_findings_page_dispose;
  gtk_widget_class_set_template_from_resource (
    widget_class, "/org/warpscope/Warpscope/ui/ws-compare-findings-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsCompareFindingsPage, stack);
  gtk_widget_class_bind_template_child (widget_class, WsCompareFindingsPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, WsCompareFindingsPage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, WsCompareFindingsPage, list);
}

static void
ws_compare_findings_page_init (WsCompareFindingsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_stack_set_visible_child_name (self->stack, "empty");
}
