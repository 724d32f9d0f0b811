/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-compare-gauges.h"

G_BEGIN_DECLS

#define WS_TYPE_COMPARE_GAUGES_VIEW (ws_compare_gauges_view_get_type ())

G_DECLARE_FINAL_TYPE (WsCompareGaugesView, ws_compare_gauges_view, WS, COMPARE_GAUGES_VIEW,
                      GtkDrawingArea)

GtkWidget *ws_compare_gauges_view_new (void);
void ws_compare_gauges_view_set_kernel (WsCompareGaugesView *self, WsComparison *cmp,
                                        const char *key);
const WsDelta *ws_compare_gauges_view_get_delta (WsCompareGaugesView *self);
gboolean ws_compare_gauges_view_get_geometry (WsCompareGaugesView *self, WsGaugeKind kind,
                                              WsCompareGaugeGeometry *geometry);

G_END_DECLS
