/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-critical-path.h"
#include "ws-event-ref.h"
#include "ws-timeline-chart.h"

G_BEGIN_DECLS

/* A step's critical path as the Timeline draws it: each part on the lane
 * of the event it ends at (a kernel, a copy, a CUDA or OS call, a step or
 * collective range), over its stretch of time on the run's clock, and a
 * line from each part to the next where they are on different lanes:
 * the edges the path follows, across ranks (docs/critical-path.md). */
struct _WsTimelinePath
{
  guint n;
  WsEventRef *event; /* per part, from the step's start; WS_EVENT_NONE for a last arrival */
  gint64 *start;     /* ns, the run's clock */
  gint64 *end;
  guint8 *kind; /* WsCpKind */
};

WsTimelinePath *ws_timeline_path_new (const WsCriticalPath *cp, guint step);
void ws_timeline_path_free (WsTimelinePath *self);
WsEventRef ws_timeline_path_event (const WsCpGraph *graph, guint32 point);
void ws_timeline_path_draw (WsTimelineChart *chart, cairo_t *cr, double width, double height,
                            WsTimeWindow *window, const WsTimelineState *state,
                            const WsPalette *palette);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsTimelinePath, ws_timeline_path_free)

G_END_DECLS
