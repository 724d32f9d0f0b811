/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The first frame of a big export, read before the whole file: the run's
 * time span, how busy each GPU lane is over it (kernels and CUDA graph
 * replays), and the kernels that take the most time.  It is read from
 * evenly spaced windows of the kernel and graph trace tables' rows
 * (docs/first-frame.md), so its figures are estimates unless every row
 * was read; the window that shows it says which. */

/* Fewer launches than this in the sample: the kernel's estimate is rough,
 * and the first frame says how many it saw. */
#define WS_OVERVIEW_FEW 10

/* Bins of each lane's density strip over [start, end]. */
#define WS_OVERVIEW_BINS 512

/* One GPU stream of one process, as the timeline's kernel lanes are. */
typedef struct
{
  guint32 pid;
  gint32 device_id;
  gint32 stream_id;
  double kernels;               /* estimated kernels on the lane */
  double replays;               /* estimated CUDA graph replays recorded whole on the lane */
  float busy[WS_OVERVIEW_BINS]; /* estimated busy share of each bin, 0 to 1: kernels and
                                 * graph replays */
} WsOverviewLane;

/* A kernel name and what its launches add up to, estimated. */
typedef struct
{
  char *name; /* display name, as the Kernels page shows it */
  double launches;
  double total_ns;
  gint64 sampled; /* its launches in the rows read: below ten, a rough guess */
} WsOverviewKernel;

typedef struct
{
  gint64 start; /* ns on the session clock: the earliest event seen */
  gint64 end;   /* ns: the latest end seen */
  gint64 rows;  /* rows of the kernel table */
  gint64 rows_read;
  gint64 replays; /* rows of the graph trace table: CUDA graph replays recorded whole */
  gint64 replays_read;
  guint scanned;   /* event tables whose rows were out of time order: their span took a scan */
  GArray *lanes;   /* WsOverviewLane, by pid, device, stream */
  GArray *kernels; /* WsOverviewKernel, by total time, largest first */
} WsOverview;

WsOverview *ws_overview_new (void);
WsOverview *ws_overview_ref (WsOverview *self);
void ws_overview_unref (WsOverview *self);
gboolean ws_overview_is_exact (const WsOverview *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsOverview, ws_overview_unref)

G_END_DECLS
