/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-event-search.h"
#include "ws-timeline-input.h"
#include "ws-timeline-view.h"

G_BEGIN_DECLS

/* What the files of WsTimelineView share: ws-timeline-view.c (the widget:
 * drawing, geometry, hit tests, lane and selection state, life),
 * ws-timeline-view-navigation.c (zoom, pan, reveal) and
 * ws-timeline-view-search.c (search by name, find).  The pointer and the
 * keys are ws-timeline-input.c's, through the public API. */

struct _WsTimelineView
{
  GtkDrawingArea parent_instance;

  WsLanes *lanes;
  WsNvtxKernels *nvtx_kernels;
  WsTimelineChart *chart;
  WsTimeWindow *window;
  GtkAdjustment *vadjustment;
  WsTimelineState state;
  guint8 *lane_flags;
  gint64 *lane_shift;   /* ns per lane, or NULL: see ws_timeline_view_set_lane_shifts() */
  WsTimelinePath *path; /* a step's critical path drawn over the lanes, or NULL */

  WsEventSearch *search;

  /* The base picture (everything but what follows the pointer), redrawn
   * only when what it shows changes: hovering costs a copy. */
  cairo_surface_t *base;
  gboolean base_valid;
  int base_width;
  int base_height;

  WsTimelineInput input;
};

void ws_timeline_view_invalidate (WsTimelineView *self);

G_END_DECLS
