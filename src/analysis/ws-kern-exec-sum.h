/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-kernel-names.h"
#include "ws-run.h"
#include "ws-stats.h"

G_BEGIN_DECLS

/* A row of `nsys stats --report cuda_kern_exec_sum`: the kernels of one
 * name that one thread launched onto one device through one API function,
 * with four times of each launch (docs/formats.md, "cuda_kern_exec_sum"). */
typedef struct
{
  guint32 pid; /* of the thread that made the launch call */
  guint32 tid;
  gint32 device;
  char *api;      /* the call's name, a six-character version suffix dropped */
  guint32 kernel; /* id of the kernel's name (ws_kernel_names_get()) */
  /* From the call's start to the later of its end and the kernel's. */
  WsGroupStats total;
  WsGroupStats api_time; /* the call's own time */
  /* From the call's end to the kernel's start, only where that is not
   * negative: count 0 when no launch has one. */
  WsGroupStats queue;
  WsGroupStats kernel_time; /* the kernel's own time */
} WsKernExecRow;

GArray *ws_kern_exec_sum (const WsKernelNames *names);
char *ws_kern_exec_api_name (const char *name);

G_END_DECLS
