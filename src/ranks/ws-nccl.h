/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"

G_BEGIN_DECLS

/* NCCL's kernels: which collective each runs, by its name in every NCCL
 * version's form (`ncclDevKernel_AllReduce_Sum_f32_RING_LL`,
 * `ncclKernel_AllGather_RING_LL_Sum_int8_t`, `ncclDevKernel_SendRecv`,
 * NCCL 2.4's `ncclAllReduceTreeLLKernel_sum_i32`). */

const char *ws_nccl_kind (const char *kernel_name);
guint8 *ws_nccl_kernel_mask (const WsRun *run, guint *n_nccl);

G_END_DECLS
