/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-overview"
#include "config.h"

#include "ws-overview.h"

static void
kernel_clear (gpointer data)
{
  WsOverviewKernel *kernel = data;

  g_free (kernel->name);
}

static void
overview_clear (gpointer data)
{
  WsOverview *self = data;

  g_array_unref (self->lanes);
  g_array_unref (self->kernels);
}

/**
 * ws_overview_new:
 *
 * Returns: (transfer full): an empty overview, for a reader to fill
 */
WsOverview *
ws_overview_new (void)
{
  WsOverview *self = g_atomic_rc_box_new0 (WsOverview);

  self->lanes = g_array_new (FALSE, TRUE, sizeof (WsOverviewLane));
  self->kernels = g_array_new (FALSE, TRUE, sizeof (WsOverviewKernel));
  g_array_set_clear_func (self->kernels, kernel_clear);
  return self;
}

WsOverview *
ws_overview_ref (WsOverview *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
ws_overview_unref (WsOverview *self)
{
  g_atomic_rc_box_release_full (self, overview_clear);
}

/* TRUE when every row of the kernel and graph trace tables was read: the
 * figures are exact. */
gboolean
ws_overview_is_exact (const WsOverview *self)
{
  return self->rows_read >= self->rows && self->replays_read >= self->replays;
}
