/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"

G_BEGIN_DECLS

/* One event of a run in 32 bits: its table in the top 3 bits, its row in
 * the others.  Lanes hold these so that a lane costs 4 bytes per event. */
typedef guint32 WsEventRef;

typedef enum
{
  WS_EVENT_KERNEL,
  WS_EVENT_MEMOP,
  WS_EVENT_API,
  WS_EVENT_NVTX,
  WS_EVENT_MARK,
  WS_EVENT_OSRT,   /* an OS runtime call (WsRun.osrt) */
  WS_EVENT_SAMPLE, /* a CPU sample on the run's clock (WsRun.cpu_samples) */
  WS_EVENT_REPLAY, /* a CUDA graph replay (WsRun.replays): GPU work on its stream */
} WsEventKind;

#define WS_EVENT_NONE G_MAXUINT32
#define WS_EVENT_INDEX_BITS 29
#define WS_EVENT_INDEX_MAX ((1u << WS_EVENT_INDEX_BITS) - 2)

static inline WsEventRef
ws_event_ref (WsEventKind kind, gsize index)
{
  return ((guint32) kind << WS_EVENT_INDEX_BITS) | (guint32) index;
}

static inline WsEventKind
ws_event_ref_kind (WsEventRef ref)
{
  return (WsEventKind) (ref >> WS_EVENT_INDEX_BITS);
}

static inline gsize
ws_event_ref_index (WsEventRef ref)
{
  return ref & ((1u << WS_EVENT_INDEX_BITS) - 1);
}

/* ns */
static inline gint64
ws_event_start (const WsRun *run, WsEventRef ref)
{
  gsize i = ws_event_ref_index (ref);

  switch (ws_event_ref_kind (ref))
    {
      case WS_EVENT_KERNEL:
        return run->kernels.start[i];
      case WS_EVENT_MEMOP:
        return run->memops.start[i];
      case WS_EVENT_API:
        return run->api.start[i];
      case WS_EVENT_NVTX:
        return run->nvtx.start[i];
      case WS_EVENT_OSRT:
        return run->osrt.start[i];
      case WS_EVENT_SAMPLE:
        return run->cpu_samples.start[i];
      case WS_EVENT_REPLAY:
        return run->replays.start[i];
      case WS_EVENT_MARK:
      default:
        return run->marks.time[i];
    }
}

static inline gint64
ws_event_end (const WsRun *run, WsEventRef ref)
{
  gsize i = ws_event_ref_index (ref);

  switch (ws_event_ref_kind (ref))
    {
      case WS_EVENT_KERNEL:
        return run->kernels.end[i];
      case WS_EVENT_MEMOP:
        return run->memops.end[i];
      case WS_EVENT_API:
        return run->api.end[i];
      case WS_EVENT_NVTX:
        return run->nvtx.end[i];
      case WS_EVENT_OSRT:
        return run->osrt.end[i];
      case WS_EVENT_SAMPLE:
        return run->cpu_samples.end[i];
      case WS_EVENT_REPLAY:
        return run->replays.end[i];
      case WS_EVENT_MARK:
      default:
        return run->marks.time[i];
    }
}

/* What kind of work a CUDA API call is, for its colour. */
typedef enum
{
  WS_API_OTHER,
  WS_API_LAUNCH,
  WS_API_SYNC,
  WS_API_MEMORY,
} WsApiClass;

/* What an OS runtime call does, for its colour. */
typedef enum
{
  WS_OSRT_OTHER,
  WS_OSRT_WAIT, /* the thread waits: poll, pthread_cond_wait, sem_wait, nanosleep, … */
  WS_OSRT_IO,   /* it moves data: read, write, recv, send, ioctl, … */
} WsOsrtClass;

gboolean ws_event_ref_is_valid (const WsRun *run, WsEventRef ref);
WsApiClass ws_api_class (const char *name);
WsOsrtClass ws_osrt_class (const char *name);
guint32 ws_event_name_id (const WsRun *run, WsEventRef ref, WsNameForm form);
guint32 ws_event_thread (const WsRun *run, WsEventRef ref);
char *ws_replay_name (const WsRun *run, gsize replay);

G_END_DECLS
