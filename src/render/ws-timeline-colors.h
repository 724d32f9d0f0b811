/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-palette.h"
#include "ws-track.h"

G_BEGIN_DECLS

/* The colours of the timeline's events, as ARGB, for a palette: what the
 * painter (ws-timeline-paint.c) fills each event with. */
typedef struct
{
  guint32 kernel[6];
  guint32 htod, dtoh, dtod, ptop, memcpy_other, memset;
  guint32 api[WS_API_MEMORY + 1];
  guint32 nvtx[8];
  guint32 osrt[WS_OSRT_IO + 1];
  guint32 sample[4];
  guint32 replay[4]; /* CUDA graph replays, by graph */
  guint32 mark;
  guint32 background;
  guint32 dark_text, light_text;
} WsTimelineColors;

void ws_timeline_colors_init (WsTimelineColors *c, const WsPalette *palette);
guint32 ws_timeline_colors_event (const WsTimelineColors *c, const WsTrack *track, gsize i);
guint32 ws_timeline_argb (WsColor c);
guint32 ws_timeline_argb_mix (guint32 a, guint32 b, double t);

G_END_DECLS
