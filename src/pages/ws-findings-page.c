/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-findings-page"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-findings-page.h"
#include "ws-findings.h"
#include "ws-format.h"
#include "ws-label-wrap.h"

/* Time ranges listed in the details; the rest are counted. */
#define MAX_RANGES_SHOWN 8
/* NVTX ranges listed under a finding (its grid grows with each). */
#define MAX_NVTX_SHOWN 50

struct _WsFindingsPage
{
  GtkBox parent_instance;

  WsRun *run;
  GPtrArray *findings; /* WsFinding *, most severe first; NULL while computing */
  GCancellable *cancellable;
  gboolean waiting; /* for the run to check: its steady state is being found */

  /* Template widgets */
  GtkLabel *scope_label;
  GtkStack *stack;
  GtkSpinner *spinner;
  GtkListBox *list;
  GtkBox *details;
  GtkLabel *detail_badge;
  GtkLabel *detail_title;
  GtkLabel *detail_summary;
  GtkGrid *evidence_grid;
  GtkLabel *nvtx_heading;
  GtkGrid *nvtx_grid;
  GtkLabel *ranges_label;
  GtkLabel *notes_label;
  GtkLabel *rule_label;
  GtkLabel *fix_label;
  GtkButton *show_button;
};

G_DEFINE_FINAL_TYPE (WsFindingsPage, ws_findings_page, GTK_TYPE_BOX)

enum
{
  FINDING_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char *const severity_classes[] = {
  [WS_SEVERITY_MINOR] = "ws-severity-minor",
  [WS_SEVERITY_MEDIUM] = "ws-severity-medium",
  [WS_SEVERITY_SEVERE] = "ws-severity-severe",
};

static void
style_badge (GtkWidget *badge, WsSeverity severity)
{
  GtkStyleContext *style = gtk_widget_get_style_context (badge);

  for (guint i = 0; i < G_N_ELEMENTS (severity_classes); i++)
    gtk_style_context_remove_class (style, severity_classes[i]);
  gtk_style_context_add_class (style, "ws-severity");
  gtk_style_context_add_class (style, severity_classes[severity]);
  gtk_label_set_text (GTK_LABEL (badge), ws_severity_label (severity));
}

static GtkWidget *
label_new (const char *text, float xalign, const char *style_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  /* Copyable, but no Tab stop and no caret (see ws-application.c). */
  gtk_widget_set_can_focus (label, FALSE);
  if (style_class != NULL)
    gtk_style_context_add_class (gtk_widget_get_style_context (label), style_class);
  gtk_widget_show (label);
  return label;
}

static GtkWidget *
row_new (const WsFinding *finding)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *badge = gtk_label_new (NULL);
  GtkWidget *title = gtk_label_new (finding->title);
  GtkWidget *summary = gtk_label_new (finding->summary);

  style_badge (badge, finding->severity);
  gtk_widget_set_valign (badge, GTK_ALIGN_START);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_line_wrap (GTK_LABEL (title), TRUE);
  gtk_style_context_add_class (gtk_widget_get_style_context (title), "ws-finding-row-title");
  gtk_label_set_xalign (GTK_LABEL (summary), 0);
  gtk_label_set_line_wrap (GTK_LABEL (summary), TRUE);
  ws_label_wrap_names (GTK_LABEL (summary));
  gtk_label_set_lines (GTK_LABEL (summary), 3);
  gtk_label_set_ellipsize (GTK_LABEL (summary), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (summary), 50);
  gtk_style_context_add_class (gtk_widget_get_style_context (summary), "ws-dim");

  gtk_container_set_border_width (GTK_CONTAINER (box), 10);
  gtk_box_pack_start (GTK_BOX (text), title, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (text), summary, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), badge, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), text, TRUE, TRUE, 0);
  gtk_container_add (GTK_CONTAINER (row), box);
  gtk_widget_show_all (row);
  return row;
}

static void
clear_container (GtkContainer *container)
{
  g_autoptr (GList) children = gtk_container_get_children (container);

  for (GList *l = children; l != NULL; l = l->next)
    gtk_widget_destroy (l->data);
}

static char *
bold_line (const char *heading, const char *text)
{
  return g_markup_printf_escaped ("<b>%s</b> %s", heading, text);
}

static void
show_evidence (WsFindingsPage *self, const WsFinding *finding)
{
  clear_container (GTK_CONTAINER (self->evidence_grid));
  for (guint i = 0; i < finding->evidence->len; i++)
    {
      const WsEvidence *evidence = g_ptr_array_index (finding->evidence, i);
      g_autofree char *value = ws_evidence_format_value (evidence);
      GtkWidget *value_label = label_new (value, 0, NULL);

      gtk_label_set_line_wrap (GTK_LABEL (value_label), TRUE);
      ws_label_wrap_names (GTK_LABEL (value_label));
      gtk_grid_attach (self->evidence_grid, label_new (evidence->label, 0, "ws-dim"), 0, (int) i, 1,
                       1);
      gtk_grid_attach (self->evidence_grid, value_label, 1, (int) i, 1, 1);
    }
}

static void
show_nvtx (WsFindingsPage *self, const WsFinding *finding)
{
  gboolean any = finding->nvtx->len > 0;

  clear_container (GTK_CONTAINER (self->nvtx_grid));
  gtk_widget_set_visible (GTK_WIDGET (self->nvtx_heading), any);
  gtk_widget_set_visible (GTK_WIDGET (self->nvtx_grid), any);
  if (!any)
    return;

  gtk_grid_attach (self->nvtx_grid, label_new (_ ("Range"), 0, "ws-dim"), 0, 0, 1, 1);
  gtk_grid_attach (self->nvtx_grid, label_new (_ ("Found there"), 1, "ws-dim"), 1, 0, 1, 1);
  gtk_grid_attach (self->nvtx_grid, label_new (_ ("Their time"), 1, "ws-dim"), 2, 0, 1, 1);
  for (guint i = 0; i < finding->nvtx->len && i < MAX_NVTX_SHOWN; i++)
    {
      const WsFindingNvtx *nvtx = g_ptr_array_index (finding->nvtx, i);
      g_autofree char *events = ws_finding_nvtx_counts (finding, i);
      g_autofree char *time = ws_format_duration ((double) nvtx->event_time);
      g_autofree char *name = nvtx->domain[0] != '\0'
                                ? g_strdup_printf ("%s:%s", nvtx->domain, nvtx->name)
                                : g_strdup (nvtx->name);
      GtkWidget *name_label = label_new (name, 0, NULL);

      /* Nested ranges are indented under the ones that hold them. */
      gtk_widget_set_margin_start (name_label, 16 * (int) MIN (nvtx->depth, 8));
      gtk_label_set_ellipsize (GTK_LABEL (name_label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (name_label), 50);
      gtk_widget_set_tooltip_text (name_label, name);
      gtk_grid_attach (self->nvtx_grid, name_label, 0, (int) i + 1, 1, 1);
      gtk_grid_attach (self->nvtx_grid, label_new (events, 1, NULL), 1, (int) i + 1, 1, 1);
      gtk_grid_attach (self->nvtx_grid, label_new (time, 1, NULL), 2, (int) i + 1, 1, 1);
    }
  if (finding->nvtx->len > MAX_NVTX_SHOWN)
    {
      guint more = finding->nvtx->len - MAX_NVTX_SHOWN;
      g_autofree char *text = g_strdup_printf (
        g_dngettext (GETTEXT_PACKAGE, "and %u more range", "and %u more ranges", more), more);

      gtk_grid_attach (self->nvtx_grid, label_new (text, 0, "ws-dim"), 0, MAX_NVTX_SHOWN + 1, 3, 1);
    }
}

/* An offset from the run's start in ms to the µs: ranges a few µs apart
 * stay apart. */
static char *
offset_string (gint64 ns)
{
  g_autoptr (GString) out = g_string_new (NULL);

  ws_format_fixed (out, (double) ns / 1e6, 3, TRUE);
  g_string_append (out, " ms");
  return g_strdup (out->str);
}

/* Ranges as offsets from the run's start, as the timeline shows them. */
static void
show_ranges (WsFindingsPage *self, const WsFinding *finding)
{
  g_autoptr (GString) text = g_string_new (NULL);
  gint64 origin = self->run != NULL ? self->run->origin : 0;

  for (guint i = 0; i < finding->ranges->len && i < MAX_RANGES_SHOWN; i++)
    {
      const WsTimeRange *range = &g_array_index (finding->ranges, WsTimeRange, i);
      g_autofree char *from = offset_string (range->start - origin);
      g_autofree char *to = offset_string (range->end - origin);
      g_autofree char *length = ws_format_duration ((double) (range->end - range->start));

      if (i > 0)
        g_string_append_c (text, '\n');
      /* TRANSLATORS: a time range: "116.238 ms → 118.380 ms (2.14 ms)" */
      g_string_append_printf (text, _ ("%s → %s (%s)"), from, to, length);
    }
  if (finding->ranges->len > MAX_RANGES_SHOWN)
    {
      guint more = finding->ranges->len - MAX_RANGES_SHOWN;

      g_string_append_c (text, '\n');
      g_string_append_printf (
        text, g_dngettext (GETTEXT_PACKAGE, "and %u more", "and %u more", more), more);
    }
  gtk_label_set_text (self->ranges_label, text->str);
}

static void
show_details (WsFindingsPage *self, const WsFinding *finding)
{
  g_autoptr (GString) notes = g_string_new (NULL);
  g_autofree char *rule = NULL, *fix = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->details), finding != NULL);
  if (finding == NULL)
    return;

  style_badge (GTK_WIDGET (self->detail_badge), finding->severity);
  gtk_label_set_text (self->detail_title, finding->title);
  gtk_label_set_text (self->detail_summary, finding->summary);
  show_evidence (self, finding);
  show_nvtx (self, finding);
  show_ranges (self, finding);

  for (guint i = 0; i < finding->notes->len; i++)
    {
      g_autofree char *line =
        bold_line (_ ("Note:"), (const char *) g_ptr_array_index (finding->notes, i));

      if (i > 0)
        g_string_append_c (notes, '\n');
      g_string_append (notes, line);
    }
  gtk_label_set_markup (self->notes_label, notes->str);
  gtk_widget_set_visible (GTK_WIDGET (self->notes_label), finding->notes->len > 0);
  rule = bold_line (_ ("Severity rule:"), finding->rule);
  gtk_label_set_markup (self->rule_label, rule);
  fix = bold_line (_ ("Usual fix:"), finding->fix);
  gtk_label_set_markup (self->fix_label, fix);
  gtk_widget_set_sensitive (GTK_WIDGET (self->show_button), finding->ranges->len > 0);
}

static void
row_selected_cb (WsFindingsPage *self, GtkListBoxRow *row, GtkListBox *list)
{
  show_details (self, ws_findings_page_get_selected (self));
}

static void
row_activated_cb (WsFindingsPage *self, GtkListBoxRow *row, GtkListBox *list)
{
  ws_findings_page_activate_selected (self);
}

static void
show_clicked_cb (WsFindingsPage *self, GtkButton *button)
{
  ws_findings_page_activate_selected (self);
}

static void
show_findings (WsFindingsPage *self)
{
  clear_container (GTK_CONTAINER (self->list));
  gtk_spinner_stop (self->spinner);
  if (self->findings == NULL || self->findings->len == 0)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  for (guint i = 0; i < self->findings->len; i++)
    gtk_container_add (GTK_CONTAINER (self->list), row_new (g_ptr_array_index (self->findings, i)));
  gtk_stack_set_visible_child_name (self->stack, "findings");
  ws_findings_page_select (self, 0);
}

typedef struct
{
  WsFindingsPage *page;
  GCancellable *cancellable; /* tells this computation from a later one */
} ComputeData;

static void
compute_finished (GObject *source, GAsyncResult *result, gpointer data)
{
  ComputeData *compute = data;
  WsFindingsPage *self = compute->page;
  g_autoptr (GError) error = NULL;
  GPtrArray *findings = ws_findings_compute_finish (result, &error);

  if (compute->cancellable == self->cancellable)
    {
      g_clear_object (&self->cancellable);
      self->findings = findings;
      show_findings (self);
    }
  else if (findings != NULL)
    g_ptr_array_unref (findings);

  g_object_unref (compute->page);
  g_object_unref (compute->cancellable);
  g_free (compute);
}

static void
ws_findings_page_dispose (GObject *object)
{
  WsFindingsPage *self = WS_FINDINGS_PAGE (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->findings, g_ptr_array_unref);
  g_clear_pointer (&self->run, ws_run_unref);

  G_OBJECT_CLASS (ws_findings_page_parent_class)->dispose (object);
}

static void
ws_findings_page_class_init (WsFindingsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_findings_page_dispose;

  /**
   * WsFindingsPage::finding-activated:
   * @finding: the finding, with its time ranges and the indices of its events
   *
   * The user asked to see a finding's evidence: a double click, Enter, or
   * "Show in Timeline".
   */
  signals[FINDING_ACTIVATED] =
    g_signal_new ("finding-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, WS_TYPE_FINDING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/warpscope/Warpscope/ui/ws-findings-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsFindingsPage, scope_label);
  gtk_widget_class_bind_template_child (widget_class, WsFindingsPage, stack);
  gtk_widget_class_bind_template_child (widget_class, WsFindingsPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, WsFindingsPage, list);
  gtk_widget_class_bind_template_child (widget_class, WsFindingsPage, details);
  gtk_widget_class_bind_template_child (widget_class, WsFindingsPage, detail_badge);
  gtk_widget_class_bind_template_child (widget_class, WsFindingsPage, detail_title);
  gtk_widget_class_bind_template_child (widget_class, WsFindingsPage, detail_summary);
  gtk_widget_class_bind_template_child (widget_class, WsFindingsPage, evidence_grid);
  gtk_widget_class_bind_template_child (widget_class, WsFindingsPage, nvtx_heading);
  gtk_widget_class_bind_template_child (widget_class, WsFindingsPage, nvtx_grid);
  gtk_widget_class_bind_template_child (widget_class, WsFindingsPage, ranges_label);
  gtk_widget_class_bind_template_child (widget_class, WsFindingsPage, notes_label);
  gtk_widget_class_bind_template_child (widget_class, WsFindingsPage, rule_label);
  gtk_widget_class_bind_template_child (widget_class, WsFindingsPage, fix_label);
  gtk_widget_class_bind_template_child (widget_class, WsFindingsPage, show_button);
  gtk_widget_class_bind_template_callback (widget_class, row_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, show_clicked_cb);
}

static void
ws_findings_page_init (WsFindingsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  ws_label_wrap_names (self->scope_label);
  ws_label_wrap_names (self->detail_summary);
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

/* Computes the findings of @run on a worker thread; the page shows a
 * spinner meanwhile.  A computation in progress is cancelled first. */
void
ws_findings_page_set_run (WsFindingsPage *self, WsRun *run)
{
  ComputeData *compute;

  g_return_if_fail (WS_IS_FINDINGS_PAGE (self));

  self->waiting = FALSE;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->findings, g_ptr_array_unref);
  if (run != NULL)
    ws_run_ref (run);
  g_clear_pointer (&self->run, ws_run_unref);
  self->run = run;
  clear_container (GTK_CONTAINER (self->list));

  if (run == NULL)
    {
      show_findings (self);
      return;
    }

  self->cancellable = g_cancellable_new ();
  gtk_stack_set_visible_child_name (self->stack, "busy");
  gtk_spinner_start (self->spinner);
  compute = g_new0 (ComputeData, 1);
  compute->page = g_object_ref (self);
  compute->cancellable = g_object_ref (self->cancellable);
  ws_findings_compute_async (run, self->cancellable, compute_finished, compute);
}

/**
 * ws_findings_page_set_scope:
 * @text: (nullable): what part of the run the findings cover, and what
 *   they leave out (the set-up before the steady state), or %NULL
 */
void
ws_findings_page_set_scope (WsFindingsPage *self, const char *text)
{
  g_return_if_fail (WS_IS_FINDINGS_PAGE (self));

  gtk_label_set_text (self->scope_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->scope_label), text != NULL);
}

const char *
ws_findings_page_get_scope (WsFindingsPage *self)
{
  g_return_val_if_fail (WS_IS_FINDINGS_PAGE (self), NULL);

  return gtk_widget_get_visible (GTK_WIDGET (self->scope_label))
           ? gtk_label_get_text (self->scope_label)
           : NULL;
}

/* The run the findings are of (their events are indices into it). */
WsRun *
ws_findings_page_get_run (WsFindingsPage *self)
{
  g_return_val_if_fail (WS_IS_FINDINGS_PAGE (self), NULL);

  return self->run;
}

/* The page busy until ws_findings_page_set_run() gives the run to check
 * (the window finds its steady state first). */
void
ws_findings_page_set_waiting (WsFindingsPage *self)
{
  g_return_if_fail (WS_IS_FINDINGS_PAGE (self));

  ws_findings_page_set_run (self, NULL);
  ws_findings_page_set_scope (self, NULL);
  self->waiting = TRUE;
  gtk_stack_set_visible_child_name (self->stack, "busy");
  gtk_spinner_start (self->spinner);
}

gboolean
ws_findings_page_is_busy (WsFindingsPage *self)
{
  g_return_val_if_fail (WS_IS_FINDINGS_PAGE (self), FALSE);

  return self->cancellable != NULL || self->waiting;
}

/**
 * ws_findings_page_get_findings:
 *
 * Returns: (transfer none) (nullable) (element-type WsFinding): the
 * findings on show, most severe first; %NULL while they are computed
 */
GPtrArray *
ws_findings_page_get_findings (WsFindingsPage *self)
{
  g_return_val_if_fail (WS_IS_FINDINGS_PAGE (self), NULL);

  return self->findings;
}

void
ws_findings_page_select (WsFindingsPage *self, guint index)
{
  GtkListBoxRow *row;

  g_return_if_fail (WS_IS_FINDINGS_PAGE (self));

  row = gtk_list_box_get_row_at_index (self->list, (int) index);
  if (row != NULL)
    gtk_list_box_select_row (self->list, row);
}

/**
 * ws_findings_page_get_selected:
 *
 * Returns: (transfer none) (nullable): the finding whose details show
 */
WsFinding *
ws_findings_page_get_selected (WsFindingsPage *self)
{
  GtkListBoxRow *row;
  int index;

  g_return_val_if_fail (WS_IS_FINDINGS_PAGE (self), NULL);

  row = gtk_list_box_get_selected_row (self->list);
  if (row == NULL || self->findings == NULL)
    return NULL;
  index = gtk_list_box_row_get_index (row);
  if (index < 0 || (guint) index >= self->findings->len)
    return NULL;
  return g_ptr_array_index (self->findings, index);
}

/* Emits ::finding-activated for the selected finding. */
void
ws_findings_page_activate_selected (WsFindingsPage *self)
{
  WsFinding *finding = ws_findings_page_get_selected (self);

  if (finding != NULL)
    g_signal_emit (self, signals[FINDING_ACTIVATED], 0, finding);
}

static void
collect_text (GtkWidget *widget, gpointer data)
{
  GString *text = data;

  if (!gtk_widget_get_visible (widget))
    return;
  if (GTK_IS_LABEL (widget))
    {
      const char *label = gtk_label_get_text (GTK_LABEL (widget));

      if (label[0] != '\0')
        g_string_append_printf (text, "%s%s", text->len > 0 ? "\n" : "", label);
    }
  else if (GTK_IS_GRID (widget))
    {
      /* Row by row, as it reads; a container lists a grid's children in
       * no such order. */
      for (int row = 0; gtk_grid_get_child_at (GTK_GRID (widget), 0, row) != NULL; row++)
        for (int column = 0; column < 3; column++)
          {
            GtkWidget *child = gtk_grid_get_child_at (GTK_GRID (widget), column, row);

            if (child != NULL)
              collect_text (child, data);
          }
    }
  else if (GTK_IS_CONTAINER (widget))
    gtk_container_foreach (GTK_CONTAINER (widget), collect_text, text);
}

/**
 * ws_findings_page_get_row_text:
 *
 * Returns: (transfer full) (nullable): what row @index shows, a line per
 * label: the severity, the title, the summary
 */
char *
ws_findings_page_get_row_text (WsFindingsPage *self, guint index)
{
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->list, (int) index);
  GString *text;

  if (row == NULL)
    return NULL;
  text = g_string_new (NULL);
  collect_text (GTK_WIDGET (row), text);
  return g_string_free (text, FALSE);
}

/**
 * ws_findings_page_get_details_text:
 *
 * Returns: (transfer full): what the details pane shows, a line per label
 */
char *
ws_findings_page_get_details_text (WsFindingsPage *self)
{
  GString *text = g_string_new (NULL);

  collect_text (GTK_WIDGET (self->details), text);
  return g_string_free (text, FALSE);
}
