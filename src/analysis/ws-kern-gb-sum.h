/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-kernel-names.h"
#include "ws-run.h"
#include "ws-stats.h"

G_BEGIN_DECLS

/* A row of `nsys stats --report cuda_gpu_kern_gb_sum`: the kernels of one
 * name launched with one grid and one block. */
typedef struct
{
  guint32 kernel; /* id of the kernel's name (ws_kernel_names_get()) */
  guint32 grid[3];
  guint32 block[3];
  WsGroupStats stats; /* of the kernels' durations */
  double percent;     /* of the sum of all rows' totals */
} WsKernGbRow;

GArray *ws_kern_gb_sum (const WsKernelNames *names);

G_END_DECLS
