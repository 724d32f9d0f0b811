/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-progress.h"

G_BEGIN_DECLS

/* Which parts of a run to load.  The viewer loads everything; `stats`
 * loads only what its report needs, so it stays as fast as SQLite. */
typedef enum
{
  WS_LOAD_KERNELS = 1 << 0,
  WS_LOAD_MEMOPS = 1 << 1,
  WS_LOAD_API = 1 << 2,
  WS_LOAD_NVTX = 1 << 3,
  WS_LOAD_MEM_USAGE = 1 << 4,
  WS_LOAD_GPU_METRICS = 1 << 5,
  WS_LOAD_OSRT = 1 << 6,
  WS_LOAD_CPU_SAMPLES = 1 << 7,
  WS_LOAD_ALL = 0xff,

  /* Read only the columns the summaries need: start, end and one kernel
   * name form for kernels, start, end and name for API calls.  Streams,
   * launch configurations and correlation ids stay NULL. */
  WS_LOAD_LEAN = 1 << 8,
  WS_LOAD_NAME_SHORT = 1 << 9,    /* with LEAN: the short kernel names */
  WS_LOAD_NAME_MANGLED = 1 << 10, /* with LEAN: the mangled kernel names */

  /* An export whose processes are a job's ranks stays one process's run:
   * it is itself one rank of a job being loaded. */
  WS_LOAD_NO_RANKS = 1 << 11,

  /* The caller reads no summary the loader would compute from the events
   * (`info`): they are left out, which spares the sort of every event's
   * time at load (12 bytes a kernel at the peak).  Summaries read from
   * stats CSVs and nvprof logs are kept. */
  WS_LOAD_NO_SUMMARIES = 1 << 12,

  /* With LEAN: also what ties GPU work to its launch call (the NVTX GPU
   * reports): the processes and correlation ids of kernels, the threads
   * and correlation ids of API calls.  A kernel's stream is then one per
   * process (device, context and stream ids 0); launch configurations stay
   * NULL. */
  WS_LOAD_LAUNCHES = 1 << 13,
  /* With LEAN: the kernels' names are not read (all name arrays NULL). */
  WS_LOAD_NO_KERNEL_NAMES = 1 << 14,
  /* With LEAN: the API calls' names are not read (WsApiCalls.name NULL). */
  WS_LOAD_NO_API_NAMES = 1 << 15,
} WsLoadFlags;

G_END_DECLS
