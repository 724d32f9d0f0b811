/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-bars-chart.h"
#include "ws-ncu-match.h"
#include "ws-run.h"

G_BEGIN_DECLS

#define WS_TYPE_KERNEL_DETAILS (ws_kernel_details_get_type ())

G_DECLARE_FINAL_TYPE (WsKernelDetails, ws_kernel_details, WS, KERNEL_DETAILS, GtkBox)

void ws_kernel_details_show (WsKernelDetails *self, WsRun *run, const WsBar *bar, int launch,
                             const WsKernelVerdict *verdict);
char *ws_kernel_details_get_text (WsKernelDetails *self);
GtkBox *ws_kernel_details_get_gauges_box (WsKernelDetails *self);

G_END_DECLS
