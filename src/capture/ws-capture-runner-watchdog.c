/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-runner"
#include "config.h"

#include "ws-capture-runner-private.h"

/* The watchdog of ncu's runs (steps 5 and 6).  ncu can wait forever: a
 * kernel that needs its peers (an NCCL collective under kernel replay),
 * a program stuck in its first launch.  ncu prints a line for each kernel
 * it profiles and each pass it replays, so a run that prints nothing for
 * NCU_STALL_TIMEOUT seconds is stuck: its process group is ended, the step
 * fails with the reason, and the capture goes on with the next target. */

static gboolean
is_ncu_step (guint step)
{
  return step == WS_CAPTURE_STEP_NCU_PROFILE || step == WS_CAPTURE_STEP_NCU_EXPORT;
}

static guint
stall_ms (WsCaptureRunner *self)
{
  if (self->stall_ms > 0)
    return self->stall_ms;
  return self->settings->ncu_stall_timeout > G_MAXUINT / 1000
           ? G_MAXUINT
           : self->settings->ncu_stall_timeout * 1000;
}

static gboolean
check_cb (gpointer data)
{
  WsCaptureRunner *self = data;
  guint limit = stall_ms (self);
  gint64 quiet = (g_get_monotonic_time () - self->last_output) / 1000;

  if (self->process == NULL || quiet < limit)
    return G_SOURCE_CONTINUE;

  g_clear_pointer (&self->stall_message, g_free);
  if (limit % 1000 == 0)
    self->stall_message = g_strdup_printf (
      "stalled: ncu printed nothing for %u s (NCU_STALL_TIMEOUT), so it was ended; a "
      "communication kernel (NCCL, NVSHMEM) cannot be replayed without its peers",
      limit / 1000);
  else
    self->stall_message = g_strdup_printf (
      "stalled: ncu printed nothing for %u ms (NCU_STALL_TIMEOUT), so it was ended; a "
      "communication kernel (NCCL, NVSHMEM) cannot be replayed without its peers",
      limit);
  ws_capture_runner_log_info (self, self->step, "%s: SIGTERM to its process group",
                              self->stall_message);
  ws_tool_process_terminate (self->process);
  self->stall_id = 0;
  return G_SOURCE_REMOVE;
}

/* Starts watching the command that run_command() just started, when it
 * is one of ncu's. */
void
ws_capture_runner_watchdog_start (WsCaptureRunner *self)
{
  GSource *source;
  guint limit;

  ws_capture_runner_watchdog_stop (self);
  g_clear_pointer (&self->stall_message, g_free);
  limit = stall_ms (self);
  if (!is_ncu_step (self->step) || limit == 0)
    return;
  self->last_output = g_get_monotonic_time ();
  /* Checked four times per period, at most once a second. */
  source = g_timeout_source_new (CLAMP (limit / 4, 1, 1000));
  g_source_set_callback (source, check_cb, self, NULL);
  self->stall_id = g_source_attach (source, self->context);
  g_source_unref (source);
}

void
ws_capture_runner_watchdog_feed (WsCaptureRunner *self)
{
  self->last_output = g_get_monotonic_time ();
}

void
ws_capture_runner_watchdog_stop (WsCaptureRunner *self)
{
  if (self->stall_id != 0)
    {
      GSource *source = g_main_context_find_source_by_id (self->context, self->stall_id);

      if (source != NULL)
        g_source_destroy (source);
      self->stall_id = 0;
    }
}

/* Tests wait milliseconds, not minutes. */
void
ws_capture_runner_set_stall_timeout_ms (WsCaptureRunner *self, guint stall_ms)
{
  g_return_if_fail (WS_IS_CAPTURE_RUNNER (self));
  self->stall_ms = stall_ms;
}
