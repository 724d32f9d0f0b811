/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-nvtx-kern-sum.h"
#include "ws-summary-table.h"
#include "ws-table-writer.h"

G_BEGIN_DECLS

/* `nsys stats` reports of NVTX ranges on the GPU, in nsys's own CSV (and
 * console) form: nvtx_gpu_proj_sum and nvtx_kern_sum. */
void ws_nvtx_proj_sum_write (GArray *rows, WsOutputFormat format, GString *out);
void ws_nvtx_kern_sum_write (const WsRun *run, GArray *rows, WsOutputFormat format, GString *out);

G_END_DECLS
