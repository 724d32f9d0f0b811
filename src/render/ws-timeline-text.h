/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-lanes.h"
#include "ws-nvtx-kernels.h"

G_BEGIN_DECLS

char *ws_timeline_lane_title (const WsLanes *lanes, guint32 lane, char **subtitle);
char *ws_timeline_event_label (const WsRun *run, WsEventRef event, WsNameForm form);
char *ws_timeline_event_markup (const WsLanes *lanes, WsNvtxKernels *nvtx_kernels,
                                WsEventRef event);
char *ws_timeline_nvtx_path (const WsLanes *lanes, WsNvtxKernels *nvtx_kernels, WsEventRef event);
char *ws_timeline_lane_value_markup (const WsLanes *lanes, guint32 lane, gint64 time);
char *ws_timeline_format_time (const WsRun *run, gint64 time);
char *ws_timeline_format_range (const WsRun *run, gint64 start, gint64 end);
char *ws_timeline_left_out_text (const WsRun *run);

G_END_DECLS
