/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-kernel-instances.h"

G_BEGIN_DECLS

#define WS_TYPE_HISTOGRAM_VIEW (ws_histogram_view_get_type ())

G_DECLARE_FINAL_TYPE (WsHistogramView, ws_histogram_view, WS, HISTOGRAM_VIEW, GtkDrawingArea)

GtkWidget *ws_histogram_view_new (void);
void ws_histogram_view_set_histogram (WsHistogramView *self, WsHistogram *histogram);
const WsHistogram *ws_histogram_view_get_histogram (WsHistogramView *self);

G_END_DECLS
