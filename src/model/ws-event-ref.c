/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-event-ref"
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ws-event-ref.h"

/* Whether @ref names a row that exists in @run. */
gboolean
ws_event_ref_is_valid (const WsRun *run, WsEventRef ref)
{
  gsize i = ws_event_ref_index (ref);

  if (run == NULL || ref == WS_EVENT_NONE)
    return FALSE;
  switch (ws_event_ref_kind (ref))
    {
      case WS_EVENT_KERNEL:
        return i < run->kernels.n;
      case WS_EVENT_MEMOP:
        return i < run->memops.n;
      case WS_EVENT_API:
        return i < run->api.n;
      case WS_EVENT_NVTX:
        return i < run->nvtx.n;
      case WS_EVENT_MARK:
        return i < run->marks.n;
      case WS_EVENT_OSRT:
        return i < run->osrt.n;
      case WS_EVENT_SAMPLE:
        return i < run->cpu_samples.n;
      case WS_EVENT_REPLAY:
        return i < run->replays.n;
      default:
        return FALSE;
    }
}

/* The string id of the event's name (kernels in @form, falling back to the
 * demangled name), or WS_STRING_NONE for memory operations and graph
 * replays, which have none (a replay is named by ws_replay_name()). */
guint32
ws_event_name_id (const WsRun *run, WsEventRef ref, WsNameForm form)
{
  gsize i = ws_event_ref_index (ref);

  switch (ws_event_ref_kind (ref))
    {
      case WS_EVENT_KERNEL:
        {
          guint32 id = ws_run_kernel_name_id (run, i, form);

          return id != WS_STRING_NONE ? id : ws_run_kernel_name_id (run, i, WS_NAME_DEMANGLED);
        }
      case WS_EVENT_API:
        return run->api.name != NULL ? run->api.name[i] : WS_STRING_NONE;
      case WS_EVENT_NVTX:
        return run->nvtx.name[i];
      case WS_EVENT_MARK:
        return run->marks.name[i];
      case WS_EVENT_OSRT:
        return run->osrt.name[i];
      case WS_EVENT_SAMPLE:
        return run->cpu_samples.name[i];
      case WS_EVENT_MEMOP:
      case WS_EVENT_REPLAY:
      default:
        return WS_STRING_NONE;
    }
}

/* The CPU thread (index into run->threads) of an API call, NVTX range or
 * mark, OS runtime call or CPU sample; G_MAXUINT32 for GPU events. */
guint32
ws_event_thread (const WsRun *run, WsEventRef ref)
{
  gsize i = ws_event_ref_index (ref);

  switch (ws_event_ref_kind (ref))
    {
      case WS_EVENT_API:
        return run->api.thread != NULL ? run->api.thread[i] : G_MAXUINT32;
      case WS_EVENT_NVTX:
        return run->nvtx.thread[i];
      case WS_EVENT_MARK:
        return run->marks.thread[i];
      case WS_EVENT_OSRT:
        return run->osrt.thread[i];
      case WS_EVENT_SAMPLE:
        return run->cpu_samples.thread[i];
      case WS_EVENT_KERNEL:
      case WS_EVENT_MEMOP:
      case WS_EVENT_REPLAY:
      default:
        return G_MAXUINT32;
    }
}

/**
 * ws_replay_name:
 *
 * A replay has no name of its own in any table: it is named after its
 * executable graph, the one id that both trace modes give it
 * (docs/cuda-graphs.md).  What the timeline draws on it and what its
 * search matches.
 *
 * Returns: (transfer full): "CUDA graph 2", or "CUDA graph" when the id
 * is unknown
 */
char *
ws_replay_name (const WsRun *run, gsize replay)
{
  g_autofree char *id = NULL;

  g_return_val_if_fail (run != NULL && replay < run->replays.n, NULL);

  if (run->replays.graph[replay] == 0)
    return g_strdup (_ ("CUDA graph"));
  id = g_strdup_printf ("%u", run->replays.graph[replay]);
  /* TRANSLATORS: %s is the id of an executable CUDA graph */
  return g_strdup_printf (_ ("CUDA graph %s"), id);
}

/* From the API's name: launches, synchronisations (the calls that make the
 * CPU wait), memory management and copies, the rest. */
WsApiClass
ws_api_class (const char *name)
{
  if (name == NULL)
    return WS_API_OTHER;
  if (strstr (name, "Synchronize") != NULL || strstr (name, "WaitEvent") != NULL)
    return WS_API_SYNC;
  if (strstr (name, "Launch") != NULL)
    return WS_API_LAUNCH;
  if (strstr (name, "Malloc") != NULL || strstr (name, "Free") != NULL ||
      strstr (name, "Memcpy") != NULL || strstr (name, "Memset") != NULL ||
      strstr (name, "MemAlloc") != NULL || strstr (name, "cuMem") != NULL)
    return WS_API_MEMORY;
  return WS_API_OTHER;
}

/* From the OS runtime call's name: the calls in which a thread waits for
 * something else (where gloo's all-reduce spends a straggler's time), the
 * calls that move data, the rest. */
WsOsrtClass
ws_osrt_class (const char *name)
{
  static const char *const waits[] = {
    "poll",
    "ppoll",
    "select",
    "pselect",
    "epoll_wait",
    "epoll_pwait",
    "pthread_cond_wait",
    "pthread_cond_timedwait",
    "pthread_join",
    "pthread_barrier_wait",
    "pthread_mutex_lock",
    "pthread_rwlock_rdlock",
    "pthread_rwlock_wrlock",
    "sem_wait",
    "sem_timedwait",
    "nanosleep",
    "clock_nanosleep",
    "usleep",
    "sleep",
    "wait",
    "sigwait",
    "futex",
    "accept",
    "connect",
  };
  static const char *const io[] = {
    "read",  "write", "recv",   "send", "pread",  "pwrite", "fread",  "fwrite", "ioctl", "open",
    "fopen", "close", "fclose", "mmap", "munmap", "fsync",  "fflush", "getc",   "putc",
  };

  if (name == NULL)
    return WS_OSRT_OTHER;
  for (gsize i = 0; i < G_N_ELEMENTS (waits); i++)
    if (g_str_has_prefix (name, waits[i]))
      return WS_OSRT_WAIT;
  for (gsize i = 0; i < G_N_ELEMENTS (io); i++)
    if (g_str_has_prefix (name, io[i]))
      return WS_OSRT_IO;
  return WS_OSRT_OTHER;
}
