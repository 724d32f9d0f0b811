/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-event-ref.h"

G_BEGIN_DECLS

/* A search of a run's events by name: kernels (demangled or short name),
 * NVTX ranges and marks, CUDA API calls, CUDA graph replays (by the name
 * the timeline gives them, ws_replay_name()).  Matching is by string id,
 * so an event's test is one bit; the names are case-folded once per run.
 * Replays, which have no string id, get a bit each. */
typedef struct _WsEventSearch WsEventSearch;

WsEventSearch *ws_event_search_new (WsRun *run);
void ws_event_search_free (WsEventSearch *self);

guint ws_event_search_set_text (WsEventSearch *self, const char *text);
const guint8 *ws_event_search_get_bits (WsEventSearch *self, guint *len);
const guint8 *ws_event_search_get_replay_bits (WsEventSearch *self);
gboolean ws_event_search_matches (WsEventSearch *self, WsEventRef event);
WsEventRef ws_event_search_find (WsEventSearch *self, WsEventRef from, gboolean backwards);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsEventSearch, ws_event_search_free)

G_END_DECLS
