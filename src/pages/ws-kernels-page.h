/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-bars-view.h"
#include "ws-kernel-details.h"
#include "ws-run.h"

G_BEGIN_DECLS

#define WS_TYPE_KERNELS_PAGE (ws_kernels_page_get_type ())

G_DECLARE_FINAL_TYPE (WsKernelsPage, ws_kernels_page, WS, KERNELS_PAGE, GtkBox)

void ws_kernels_page_set_run (WsKernelsPage *self, WsRun *run);
gboolean ws_kernels_page_is_grouping (WsKernelsPage *self);
WsBarsView *ws_kernels_page_get_bars_view (WsKernelsPage *self);
char *ws_kernels_page_get_details_text (WsKernelsPage *self);
const char *ws_kernels_page_get_summary_text (WsKernelsPage *self);
WsKernelDetails *ws_kernels_page_get_details (WsKernelsPage *self);
void ws_kernels_page_focus_filter (WsKernelsPage *self);
void ws_kernels_page_set_name_form (WsKernelsPage *self, WsNameForm form);
GtkSpinButton *ws_kernels_page_get_top_n_spin (WsKernelsPage *self);

G_END_DECLS
