/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-nvtx-gpu.h"

G_BEGIN_DECLS

/* A row of `nsys stats --report nvtx_kern_sum`: the kernels launched
 * inside ranges of one name, per thread and kernel name. */
typedef struct
{
  char *range;       /* "domain:name"; NULL for kernels launched outside every range */
  const char *style; /* NULL with @range */
  guint32 pid;
  guint32 tid;
  gboolean has_thread; /* FALSE when the kernel's launch call is unknown */
  gint64 ranges;       /* range instances that hold such kernels */
  gint64 kernels;
  gint64 total; /* ns */
  double avg;
  double med;
  gint64 min;
  gint64 max;
  double stddev;
  guint32 kernel; /* string id of the kernel's name */
} WsNvtxKernRow;

GArray *ws_nvtx_kern_sum (const WsNvtxGpu *self, WsNameForm form);

G_END_DECLS
