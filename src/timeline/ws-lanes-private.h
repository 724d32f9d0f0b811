/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-lanes.h"

G_BEGIN_DECLS

/* Shared by ws-lanes.c (building the lanes) and ws-lanes-query.c (what
 * the timeline asks of them). */

struct _WsLanes
{
  gatomicrefcount ref_count;
  WsRun *run;
  GArray *lanes;           /* WsLane, in display order */
  guint32 *stream_lane;    /* per run->streams: lane index or WS_LANE_NONE */
  guint32 *thread_nvtx;    /* per run->threads */
  guint32 *thread_api;     /* per run->threads */
  guint32 *thread_osrt;    /* per run->threads */
  guint32 *thread_samples; /* per run->threads */
  guint8 *api_classes;     /* while building: per string id, see ws_track_finish () */
};

G_END_DECLS
