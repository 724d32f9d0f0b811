/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-event-ref"
#include "config.h"

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
      default:
        return FALSE;
    }
}

/* The string id of the event's name (kernels in @form, falling back to the
 * demangled name), or WS_STRING_NONE for memory operations, which have none. */
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
      case WS_EVENT_MEMOP:
      default:
        return WS_STRING_NONE;
    }
}

/* The CPU thread (index into run->threads) of an API call, NVTX range or
 * mark; G_MAXUINT32 for GPU events. */
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
      case WS_EVENT_KERNEL:
      case WS_EVENT_MEMOP:
      default:
        return G_MAXUINT32;
    }
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
