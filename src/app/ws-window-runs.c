/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-window"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-window-private.h"

/* A capture folder of two targets opens as two runs, each in a window of
 * its own (a job is one launch, issue 30); the first window says so and
 * offers to compare them (app.compare-files). */

enum
{
  RESPONSE_COMPARE = 1,
};

/**
 * ws_window_offer_compare:
 * @message: what the bar says
 * @before: (nullable): the first run's path; with @after, the bar offers
 *   to compare them
 * @after: (nullable): the second run's path
 */
void
ws_window_offer_compare (WsWindow *self, const char *message, const char *before, const char *after)
{
  g_return_if_fail (WS_IS_WINDOW (self));
  g_return_if_fail (message != NULL);

  g_clear_pointer (&self->compare_before, g_free);
  g_clear_pointer (&self->compare_after, g_free);
  self->compare_before = g_strdup (before);
  self->compare_after = g_strdup (after);
  gtk_label_set_text (self->runs_label, message);
  gtk_widget_set_visible (self->runs_compare_button, before != NULL && after != NULL);
  gtk_info_bar_set_revealed (self->runs_bar, TRUE);
}

void
ws_window_runs_bar_response_cb (WsWindow *self, int response, GtkInfoBar *bar)
{
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));

  gtk_info_bar_set_revealed (bar, FALSE);
  if (response != RESPONSE_COMPARE || self->compare_before == NULL || app == NULL)
    return;
  g_action_group_activate_action (
    G_ACTION_GROUP (app), "compare-files",
    g_variant_new ("(sss)", self->compare_before, self->compare_after, ""));
}

/**
 * ws_window_get_runs_message:
 *
 * Returns: (transfer none) (nullable): what the runs bar says while shown
 */
const char *
ws_window_get_runs_message (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return gtk_info_bar_get_revealed (self->runs_bar) ? gtk_label_get_text (self->runs_label) : NULL;
}

/* For tests: the bar's Compare button, as a click would. */
void
ws_window_runs_bar_compare (WsWindow *self)
{
  g_return_if_fail (WS_IS_WINDOW (self));
  gtk_info_bar_response (self->runs_bar, RESPONSE_COMPARE);
}
