/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"

G_BEGIN_DECLS

/* The launches of one kernel by launch configuration. */
typedef struct
{
  guint32 config; /* index into WsRun.configs: the first of those alike */
  gsize count;
  gint64 total;      /* ns */
  guint n_processes; /* processes (a job's ranks) that launched it so */
} WsConfigUse;

GArray *ws_kernel_instances (const WsRun *run, guint32 name_id, WsNameForm form);
gint64 *ws_kernel_durations (const WsRun *run, GArray *instances, gsize *n);
GArray *ws_kernel_config_uses (const WsRun *run, GArray *instances);

/* Bins of a histogram of durations. */
typedef struct
{
  double lo; /* ns, the left edge of the first bin */
  double hi; /* ns, the right edge of the last bin */
  guint n_bins;
  guint *counts;
  guint max_count;
  gboolean log_scale; /* bins equal in log(duration) */
} WsHistogram;

WsHistogram *ws_histogram_new (const gint64 *values, gsize n, guint max_bins);
void ws_histogram_free (WsHistogram *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsHistogram, ws_histogram_free)

G_END_DECLS
