/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-panel"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-capture-panel-private.h"
#include "ws-target-list.h"

/* The targets to run (with check boxes), Run and Cancel, each target's six
 * steps as icons, an overall progress bar, and the live log.  The panel
 * owns the runner of a run; what to run with (settings, the doctor's
 * verdict) is the page's business, asked for with ::run-requested. */

G_DEFINE_FINAL_TYPE (WsCapturePanel, ws_capture_panel, GTK_TYPE_BOX)

/* Targets shown as rows: a GtkListBox makes every row it holds, and the
 * window must stay within X11's 32,767 px. */
#define MAX_TARGET_ROWS 200

enum
{
  RUN_REQUESTED,
  OPEN_RESULTS,
  FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
target_state_free (TargetState *state)
{
  for (guint i = 0; i <= WS_CAPTURE_N_STEPS; i++)
    g_free (state->messages[i]);
  g_free (state->dir);
  g_free (state);
}

static void
row_free (Row *row)
{
  gtk_widget_destroy (row->row);
  g_object_unref (row->row);
  g_free (row->name);
  g_free (row);
}

/**
 * ws_capture_step_name:
 *
 * Returns: (transfer none): the step's name, translated
 */
const char *
ws_capture_step_name (guint step)
{
  static const char *const names[] = {
    NULL,
    N_ ("prepare folders"),
    N_ ("nsys profile"),
    N_ ("nsys stats"),
    N_ ("top-N kernels"),
    N_ ("ncu profile"),
    N_ ("ncu export"),
  };

  g_return_val_if_fail (step >= 1 && step <= WS_CAPTURE_N_STEPS, NULL);
  return _ (names[step]);
}

static const char *
state_word (WsCaptureStepState state)
{
  switch (state)
    {
      case WS_CAPTURE_STEP_WAITING:
        return _ ("waiting");
      case WS_CAPTURE_STEP_RUNNING:
        return _ ("running");
      case WS_CAPTURE_STEP_DONE:
        return _ ("done");
      case WS_CAPTURE_STEP_FAILED:
        return _ ("failed");
      case WS_CAPTURE_STEP_SKIPPED:
        return _ ("skipped");
      default:
        g_return_val_if_reached (NULL);
    }
}

static const char *
state_icon (WsCaptureStepState state)
{
  switch (state)
    {
      case WS_CAPTURE_STEP_RUNNING:
        return "media-playback-start-symbolic";
      case WS_CAPTURE_STEP_DONE:
        return "emblem-ok-symbolic";
      case WS_CAPTURE_STEP_FAILED:
        return "dialog-error-symbolic";
      case WS_CAPTURE_STEP_SKIPPED:
        return "media-skip-forward-symbolic";
      case WS_CAPTURE_STEP_WAITING:
      default:
        return "content-loading-symbolic";
    }
}

TargetState *
ws_capture_panel_state_for (WsCapturePanel *self, const char *name)
{
  TargetState *state = g_hash_table_lookup (self->states, name);

  if (state == NULL)
    {
      state = g_new0 (TargetState, 1);
      g_hash_table_insert (self->states, g_strdup (name), state);
    }
  return state;
}

Row *
ws_capture_panel_row_for (WsCapturePanel *self, const char *name)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = g_ptr_array_index (self->rows, i);

      if (g_str_equal (row->name, name))
        return row;
    }
  return NULL;
}

void
ws_capture_panel_show_state (WsCapturePanel *self, Row *row)
{
  TargetState *state = g_hash_table_lookup (self->states, row->name);
  g_autofree char *status = NULL;

  for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
    {
      WsCaptureStepState step_state = state != NULL ? state->states[s] : WS_CAPTURE_STEP_WAITING;
      g_autofree char *number = g_strdup_printf ("%u/%d", s, WS_CAPTURE_N_STEPS);
      g_autofree char *tooltip = NULL;
      GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (row->steps[s]));

      gtk_image_set_from_icon_name (row->steps[s], state_icon (step_state), GTK_ICON_SIZE_BUTTON);
      if (state != NULL && state->messages[s] != NULL && step_state == WS_CAPTURE_STEP_FAILED)
        tooltip = g_strdup_printf (_ ("Step %s, %s: %s: %s"), number, ws_capture_step_name (s),
                                   state_word (step_state), state->messages[s]);
      else
        tooltip = g_strdup_printf (_ ("Step %s, %s: %s"), number, ws_capture_step_name (s),
                                   state_word (step_state));
      gtk_widget_set_tooltip_text (GTK_WIDGET (row->steps[s]), tooltip);
      if (step_state == WS_CAPTURE_STEP_FAILED)
        gtk_style_context_add_class (context, "error");
      else
        gtk_style_context_remove_class (context, "error");
      if (step_state == WS_CAPTURE_STEP_WAITING || step_state == WS_CAPTURE_STEP_SKIPPED)
        gtk_style_context_add_class (context, "ws-dim");
      else
        gtk_style_context_remove_class (context, "ws-dim");
    }

  if (state == NULL)
    status = g_strdup ("");
  else if (state->finished && state->succeeded)
    status = g_strdup (_ ("done"));
  else if (state->finished && state->cancelled)
    status = g_strdup (_ ("cancelled"));
  else
    for (guint s = 1; s <= WS_CAPTURE_N_STEPS && status == NULL; s++)
      {
        g_autofree char *number = g_strdup_printf ("%u/%d", s, WS_CAPTURE_N_STEPS);

        if (state->states[s] == WS_CAPTURE_STEP_FAILED)
          status = g_strdup_printf (_ ("failed at step %s"), number);
        else if (state->states[s] == WS_CAPTURE_STEP_RUNNING)
          status = g_strdup_printf (_ ("step %s"), number);
      }
  gtk_label_set_text (row->status, status != NULL ? status : "");
  gtk_widget_set_sensitive (row->open_button,
                            state != NULL && state->finished && state->dir != NULL);
  gtk_widget_set_tooltip_text (row->open_button, state != NULL ? state->dir : NULL);
}

static void
open_clicked_cb (GtkButton *button, gpointer data)
{
  WsCapturePanel *self = data;
  const char *name = g_object_get_data (G_OBJECT (button), "ws-name");
  TargetState *state = g_hash_table_lookup (self->states, name);

  if (state != NULL && state->dir != NULL)
    g_signal_emit (self, signals[OPEN_RESULTS], 0, state->dir);
}

static void
check_toggled_cb (GtkToggleButton *check, gpointer data)
{
  WsCapturePanel *self = data;
  const char *name = g_object_get_data (G_OBJECT (check), "ws-name");

  if (gtk_toggle_button_get_active (check))
    g_hash_table_remove (self->unchecked, name);
  else
    g_hash_table_add (self->unchecked, g_strdup (name));
}

static Row *
make_row (WsCapturePanel *self, const char *name, const char *host)
{
  Row *row = g_new0 (Row, 1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *steps = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);

  row->name = g_strdup (name);
  row->check = GTK_TOGGLE_BUTTON (gtk_check_button_new_with_label (name));
  gtk_toggle_button_set_active (row->check, !g_hash_table_contains (self->unchecked, name));
  g_object_set_data_full (G_OBJECT (row->check), "ws-name", g_strdup (name), g_free);
  g_signal_connect_object (row->check, "toggled", G_CALLBACK (check_toggled_cb), self, 0);
  gtk_widget_set_size_request (GTK_WIDGET (row->check), 180, -1);
  gtk_container_add (GTK_CONTAINER (box), GTK_WIDGET (row->check));

  /* Where it runs: a host, or nothing for this machine. */
  row->host = GTK_LABEL (gtk_label_new (NULL));
  if (!ws_target_value_is_empty (host))
    {
      g_autofree char *on = g_strdup_printf (_ ("on %s"), host);

      gtk_label_set_text (row->host, on);
    }
  gtk_label_set_xalign (row->host, 0);
  gtk_label_set_ellipsize (row->host, PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (row->host, 14);
  gtk_label_set_max_width_chars (row->host, 18);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (row->host)), "ws-dim");
  gtk_container_add (GTK_CONTAINER (box), GTK_WIDGET (row->host));

  for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
    {
      row->steps[s] = GTK_IMAGE (gtk_image_new ());
      gtk_container_add (GTK_CONTAINER (steps), GTK_WIDGET (row->steps[s]));
    }
  gtk_container_add (GTK_CONTAINER (box), steps);

  row->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (row->status, 0);
  gtk_widget_set_hexpand (GTK_WIDGET (row->status), TRUE);
  gtk_container_add (GTK_CONTAINER (box), GTK_WIDGET (row->status));

  row->open_button = gtk_button_new_with_mnemonic (_ ("_Open Results"));
  g_object_set_data_full (G_OBJECT (row->open_button), "ws-name", g_strdup (name), g_free);
  g_signal_connect_object (row->open_button, "clicked", G_CALLBACK (open_clicked_cb), self, 0);
  gtk_container_add (GTK_CONTAINER (box), row->open_button);

  g_object_set (box, "margin", 3, NULL);
  gtk_widget_show_all (box);
  /* Rows past MAX_TARGET_ROWS are never shown, yet they keep their state. */
  row->row = g_object_ref_sink (box);
  ws_capture_panel_show_state (self, row);
  return row;
}

void
ws_capture_panel_update_buttons (WsCapturePanel *self)
{
  gboolean running = self->runner != NULL && ws_capture_runner_is_running (self->runner);

  gtk_widget_set_sensitive (self->run_button,
                            !running && self->rows->len > 0 && self->list != NULL);
  gtk_widget_set_sensitive (self->cancel_button, running);
  for (guint i = 0; i < self->rows->len; i++)
    gtk_widget_set_sensitive (GTK_WIDGET (((Row *) g_ptr_array_index (self->rows, i))->check),
                              !running);
}

static void
destroy_child (GtkWidget *child, gpointer data)
{
  gtk_widget_destroy (child);
}

/* One row per target of the list, by NAME: checks and step states stay
 * with their target when rows are edited, added or moved. */
void
ws_capture_panel_rebuild (WsCapturePanel *self)
{
  guint n = self->list != NULL ? ws_target_list_get_n_targets (self->list) : 0;
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  gtk_container_foreach (GTK_CONTAINER (self->targets_box), destroy_child, NULL);
  g_ptr_array_set_size (self->rows, 0);
  for (guint i = 0; i < n; i++)
    {
      const char *name = ws_target_list_get (self->list, i, WS_TARGET_NAME);
      Row *row;

      /* A duplicate NAME is the editor's to flag; one row is enough. */
      if (!g_hash_table_add (seen, (gpointer) name))
        continue;
      row = make_row (self, name, ws_target_list_get (self->list, i, WS_TARGET_HOST));
      g_ptr_array_add (self->rows, row);
      if (self->rows->len <= MAX_TARGET_ROWS)
        gtk_container_add (GTK_CONTAINER (self->targets_box), row->row);
    }
  if (self->rows->len > MAX_TARGET_ROWS)
    {
      guint more = self->rows->len - MAX_TARGET_ROWS;
      g_autofree char *text = g_strdup_printf (
        g_dngettext (
          GETTEXT_PACKAGE, "and %u more target, captured with the others: its steps are in the log",
          "and %u more targets, captured with the others: their steps are in the log", more),
        more);
      GtkWidget *label = gtk_label_new (text);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      g_object_set (label, "margin", 6, NULL);
      gtk_style_context_add_class (gtk_widget_get_style_context (label), "dim-label");
      gtk_widget_show (label);
      gtk_container_add (GTK_CONTAINER (self->targets_box), label);
    }
  self->list_changed = FALSE;
  ws_capture_panel_update_buttons (self);
}

static void
list_changed_cb (WsCapturePanel *self)
{
  if (self->runner != NULL && ws_capture_runner_is_running (self->runner))
    self->list_changed = TRUE;
  else
    ws_capture_panel_rebuild (self);
}

void
ws_capture_panel_set_list (WsCapturePanel *self, WsTargetList *list)
{
  g_return_if_fail (WS_IS_CAPTURE_PANEL (self));
  g_return_if_fail (list == NULL || WS_IS_TARGET_LIST (list));

  if (self->list == list)
    return;
  if (self->list != NULL)
    g_signal_handlers_disconnect_by_data (self->list, self);
  g_set_object (&self->list, list);
  if (list != NULL)
    g_signal_connect_object (list, "changed", G_CALLBACK (list_changed_cb), self,
                             G_CONNECT_SWAPPED);
  ws_capture_panel_rebuild (self);
}

/**
 * ws_capture_panel_get_checked:
 *
 * Returns: (transfer full) (element-type guint): the list's rows whose
 *   check box is on, in list order
 */
GArray *
ws_capture_panel_get_checked (WsCapturePanel *self)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint n;

  g_return_val_if_fail (WS_IS_CAPTURE_PANEL (self), rows);

  n = self->list != NULL ? ws_target_list_get_n_targets (self->list) : 0;
  for (guint i = 0; i < n; i++)
    {
      const char *name = ws_target_list_get (self->list, i, WS_TARGET_NAME);

      if (g_hash_table_add (seen, (gpointer) name) &&
          !g_hash_table_contains (self->unchecked, name))
        g_array_append_val (rows, i);
    }
  return rows;
}

void
ws_capture_panel_set_checked (WsCapturePanel *self, guint index, gboolean checked)
{
  const char *name;
  Row *row;

  g_return_if_fail (WS_IS_CAPTURE_PANEL (self));
  g_return_if_fail (self->list != NULL && index < ws_target_list_get_n_targets (self->list));

  name = ws_target_list_get (self->list, index, WS_TARGET_NAME);
  row = ws_capture_panel_row_for (self, name);
  if (row != NULL)
    gtk_toggle_button_set_active (row->check, checked);
}

WsCaptureStepState
ws_capture_panel_get_step_state (WsCapturePanel *self, guint target, guint step)
{
  TargetState *state;

  g_return_val_if_fail (WS_IS_CAPTURE_PANEL (self), WS_CAPTURE_STEP_WAITING);
  g_return_val_if_fail (step >= 1 && step <= WS_CAPTURE_N_STEPS, WS_CAPTURE_STEP_WAITING);

  if (target >= self->rows->len)
    return WS_CAPTURE_STEP_WAITING;
  state =
    g_hash_table_lookup (self->states, ((Row *) g_ptr_array_index (self->rows, target))->name);
  return state != NULL ? state->states[step] : WS_CAPTURE_STEP_WAITING;
}

/**
 * ws_capture_panel_get_open_button:
 * @target: a row of the panel (the list's targets, one per NAME)
 *
 * Returns: (transfer none) (nullable): its “Open Results” button
 */
GtkWidget *
ws_capture_panel_get_open_button (WsCapturePanel *self, guint target)
{
  g_return_val_if_fail (WS_IS_CAPTURE_PANEL (self), NULL);

  if (target >= self->rows->len)
    return NULL;
  return ((Row *) g_ptr_array_index (self->rows, target))->open_button;
}

GtkWidget *
ws_capture_panel_get_run_button (WsCapturePanel *self)
{
  g_return_val_if_fail (WS_IS_CAPTURE_PANEL (self), NULL);
  return self->run_button;
}

GtkWidget *
ws_capture_panel_get_cancel_button (WsCapturePanel *self)
{
  g_return_val_if_fail (WS_IS_CAPTURE_PANEL (self), NULL);
  return self->cancel_button;
}

double
ws_capture_panel_get_fraction (WsCapturePanel *self)
{
  g_return_val_if_fail (WS_IS_CAPTURE_PANEL (self), 0);
  return gtk_progress_bar_get_fraction (self->progress);
}

static void
run_clicked_cb (WsCapturePanel *self)
{
  g_signal_emit (self, signals[RUN_REQUESTED], 0);
}

static void
ws_capture_panel_dispose (GObject *object)
{
  WsCapturePanel *self = WS_CAPTURE_PANEL (object);

  /* Closing the window leaves no capture process behind. */
  if (self->runner != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->runner, self);
      if (ws_capture_runner_is_running (self->runner))
        ws_capture_runner_kill (self->runner);
    }
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->runner);
  if (self->list != NULL)
    g_signal_handlers_disconnect_by_data (self->list, self);
  g_clear_object (&self->list);

  G_OBJECT_CLASS (ws_capture_panel_parent_class)->dispose (object);
}

static void
ws_capture_panel_finalize (GObject *object)
{
  WsCapturePanel *self = WS_CAPTURE_PANEL (object);

  g_ptr_array_unref (self->rows);
  g_ptr_array_unref (self->run_names);
  g_hash_table_unref (self->states);
  g_hash_table_unref (self->unchecked);

  G_OBJECT_CLASS (ws_capture_panel_parent_class)->finalize (object);
}

static void
ws_capture_panel_class_init (WsCapturePanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ws_capture_panel_dispose;
  object_class->finalize = ws_capture_panel_finalize;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "wscapturepanel");

  /**
   * WsCapturePanel::run-requested:
   *
   * Run was clicked: the owner checks the machine and the settings, then
   * calls ws_capture_panel_run().
   */
  signals[RUN_REQUESTED] = g_signal_new ("run-requested", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * WsCapturePanel::open-results:
   * @dir: the target's capture folder
   */
  signals[OPEN_RESULTS] =
    g_signal_new ("open-results", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * WsCapturePanel::finished:
   * @success: every target was captured
   */
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
}

static void
ws_capture_panel_init (WsCapturePanel *self)
{
  GtkWidget *targets_scrolled = gtk_scrolled_window_new (NULL, NULL);
  GtkWidget *log_scrolled = gtk_scrolled_window_new (NULL, NULL);
  GtkWidget *controls = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *heading = gtk_label_new (_ ("Targets to capture"));
  GtkTextIter end;

  self->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);
  self->run_names = g_ptr_array_new_with_free_func (g_free);
  self->states =
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) target_state_free);
  self->unchecked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);

  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_style_context_add_class (gtk_widget_get_style_context (heading), "ws-dim");
  gtk_container_add (GTK_CONTAINER (controls), heading);
  self->progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_progress_bar_set_show_text (self->progress, TRUE);
  gtk_progress_bar_set_text (self->progress, "");
  gtk_widget_set_hexpand (GTK_WIDGET (self->progress), TRUE);
  gtk_widget_set_valign (GTK_WIDGET (self->progress), GTK_ALIGN_CENTER);
  gtk_container_add (GTK_CONTAINER (controls), GTK_WIDGET (self->progress));
  self->run_button = gtk_button_new_with_mnemonic (_ ("_Run"));
  gtk_button_set_image (GTK_BUTTON (self->run_button),
                        gtk_image_new_from_icon_name ("ws-capture-symbolic", GTK_ICON_SIZE_BUTTON));
  gtk_button_set_always_show_image (GTK_BUTTON (self->run_button), TRUE);
  gtk_style_context_add_class (gtk_widget_get_style_context (self->run_button),
                               GTK_STYLE_CLASS_SUGGESTED_ACTION);
  gtk_widget_set_tooltip_text (self->run_button, _ ("Capture the checked targets"));
  g_signal_connect_object (self->run_button, "clicked", G_CALLBACK (run_clicked_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_container_add (GTK_CONTAINER (controls), self->run_button);
  self->cancel_button = gtk_button_new_with_mnemonic (_ ("_Cancel"));
  gtk_widget_set_tooltip_text (self->cancel_button,
                               _ ("Stop the running tool and everything it started"));
  g_signal_connect_object (self->cancel_button, "clicked", G_CALLBACK (ws_capture_panel_cancel),
                           self, G_CONNECT_SWAPPED);
  gtk_container_add (GTK_CONTAINER (controls), self->cancel_button);
  gtk_widget_show_all (controls);
  gtk_container_add (GTK_CONTAINER (self), controls);

  self->targets_box = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->targets_box, GTK_SELECTION_NONE);
  gtk_scrolled_window_set_shadow_type (GTK_SCROLLED_WINDOW (targets_scrolled), GTK_SHADOW_IN);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (targets_scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (targets_scrolled), 80);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (targets_scrolled), 220);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (targets_scrolled), TRUE);
  gtk_container_add (GTK_CONTAINER (targets_scrolled), GTK_WIDGET (self->targets_box));
  gtk_widget_show_all (targets_scrolled);
  gtk_container_add (GTK_CONTAINER (self), targets_scrolled);

  self->transfer = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_progress_bar_set_show_text (self->transfer, TRUE);
  gtk_widget_set_no_show_all (GTK_WIDGET (self->transfer), TRUE);
  gtk_container_add (GTK_CONTAINER (self), GTK_WIDGET (self->transfer));

  self->log = gtk_text_buffer_new (NULL);
  self->log_view = GTK_TEXT_VIEW (gtk_text_view_new_with_buffer (self->log));
  g_object_unref (self->log);
  gtk_text_view_set_editable (self->log_view, FALSE);
  gtk_text_view_set_cursor_visible (self->log_view, FALSE);
  gtk_text_view_set_monospace (self->log_view, TRUE);
  gtk_text_view_set_wrap_mode (self->log_view, GTK_WRAP_WORD_CHAR);
  gtk_text_view_set_left_margin (self->log_view, 6);
  gtk_text_buffer_get_end_iter (self->log, &end);
  self->log_end = gtk_text_buffer_create_mark (self->log, "end", &end, FALSE);
  self->log_follow = TRUE;
  g_signal_connect_object (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->log_view)),
                           "value-changed", G_CALLBACK (ws_capture_panel_log_scrolled_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_scrolled_window_set_shadow_type (GTK_SCROLLED_WINDOW (log_scrolled), GTK_SHADOW_IN);
  gtk_widget_set_vexpand (log_scrolled, TRUE);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (log_scrolled), 120);
  gtk_container_add (GTK_CONTAINER (log_scrolled), GTK_WIDGET (self->log_view));
  gtk_widget_show_all (log_scrolled);
  gtk_container_add (GTK_CONTAINER (self), log_scrolled);

  ws_capture_panel_update_buttons (self);
}

GtkWidget *
ws_capture_panel_new (void)
{
  return g_object_new (WS_TYPE_CAPTURE_PANEL, NULL);
}
