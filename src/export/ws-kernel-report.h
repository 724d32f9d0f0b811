/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-kern-exec-sum.h"
#include "ws-kern-gb-sum.h"
#include "ws-table-writer.h"

G_BEGIN_DECLS

/* `nsys stats` reports of kernels beyond cuda_gpu_kern_sum, in nsys's own
 * CSV (and console) form: cuda_gpu_kern_gb_sum and cuda_kern_exec_sum. */
void ws_kern_gb_sum_write (const WsKernelNames *names, GArray *rows, WsOutputFormat format,
                           GString *out);
void ws_kern_exec_sum_write (const WsKernelNames *names, GArray *rows, WsOutputFormat format,
                             GString *out);

G_END_DECLS
