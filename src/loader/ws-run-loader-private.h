/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-input.h"
#include "ws-ncu-results.h"
#include "ws-run.h"

G_BEGIN_DECLS

/* ws-profiled-loader.c, for ws-run-loader.c and ws-ranks-loader.c alone. */
WsNcuResults *ws_loader_read_ncu (GPtrArray *paths, GArray *from_folder, GPtrArray *warnings,
                                  GCancellable *cancellable, GError **error);
void ws_loader_expect_manifest_kernels (WsNcuResults *ncu, const char *run_json);
void ws_loader_expect_beside_kernels (WsNcuResults *ncu);
void ws_loader_attach_nvprof_log (WsRun *run, const char *path, GPtrArray *results);
gboolean ws_loader_read_nvprof_logs (GPtrArray *files, GArray *kinds, gboolean with_ncu,
                                     GHashTable *logs, WsNcuResults **metrics, GError **error);

G_END_DECLS
