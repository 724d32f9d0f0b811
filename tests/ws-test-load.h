/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-ncu-results.h"
#include "ws-run.h"

G_BEGIN_DECLS

WsRun *ws_test_load_paths (const char *const *paths);
WsRun *ws_test_load_nsys (const char *name);
WsRun *ws_test_load_nsys_ncu (const char *nsys, const char *ncu);
WsNcuResults *ws_test_load_ncu (const char *name);
gssize ws_test_kernel_by_correlation (const WsRun *run, guint32 correlation);

G_END_DECLS
