/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <pango/pangocairo.h>

#include "ws-nvtx-kernels.h"
#include "ws-palette.h"
#include "ws-series.h"
#include "ws-track.h"

G_BEGIN_DECLS

/* The timeline's painter: colours of events, rectangles batched by colour,
 * names cached as laid-out text, and the per-pixel-column walk over a
 * track that keeps a frame's cost proportional to its pixels. */
typedef struct _WsTimelinePaint WsTimelinePaint;

/* One frame: where the time axis is and what it shows. */
typedef struct
{
  cairo_t *cr;
  const WsPalette *palette;
  WsNvtxKernels *nvtx_kernels; /* nullable */
  const guint8 *search;        /* bitset over string ids, or NULL */
  guint search_len;
  const guint8 *search_replays; /* bitset over graph replays, or NULL */
  gsize nvtx_focus;             /* G_MAXSIZE for none */
  gsize replay_focus;           /* a graph replay whose kernels to highlight, G_MAXSIZE for none */
  GHashTable *highlight;        /* WsEventRef + 1 of events to show, or NULL */
  WsNameForm name_form;
  double x0;    /* px: the left of the time axis */
  double width; /* px of the time axis */
  gint64 origin;
  double view_start;  /* ns from the origin at x0 */
  double clock_shift; /* ns to add to an offset from the origin: the ruler's clock */
  double ns_per_px;
} WsPaintFrame;

WsTimelinePaint *ws_timeline_paint_new (WsRun *run);
void ws_timeline_paint_free (WsTimelinePaint *self);

double ws_timeline_paint_line_height (WsTimelinePaint *self, const WsPalette *palette);
PangoLayout *ws_timeline_paint_layout (WsTimelinePaint *self, const WsPalette *palette,
                                       double scale, gboolean bold);

void ws_timeline_paint_begin (WsTimelinePaint *self, const WsPaintFrame *frame);
void ws_timeline_paint_set_shift (WsTimelinePaint *self, gint64 shift);
void ws_timeline_paint_track (WsTimelinePaint *self, const WsTrack *track, double y, double h,
                              gboolean labels);
void ws_timeline_paint_marks (WsTimelinePaint *self, const WsTrack *marks, double y, double h);
void ws_timeline_paint_series (WsTimelinePaint *self, const WsSeries *series, double top, double y,
                               double h, WsColor color);
void ws_timeline_paint_activity (WsTimelinePaint *self, const WsTrack *const *tracks,
                                 guint n_tracks, double y, double h, WsColor color);
void ws_timeline_paint_end (WsTimelinePaint *self);

WsColor ws_timeline_paint_kernel_color (const WsPalette *palette);

G_END_DECLS
