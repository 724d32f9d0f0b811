/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-bottleneck.h"
#include "ws-hints.h"
#include "ws-memory-workload.h"
#include "ws-occupancy.h"
#include "ws-roofline.h"
#include "ws-stalls.h"

G_BEGIN_DECLS

/* Why one profiled launch is slow: every analysis of docs/why-slow.md
 * for it, computed together (a few thousand metric lookups). */
typedef struct
{
  guint launch;
  WsStalls *stalls;
  WsRoofline *roofline;
  WsMemoryWorkload memory;
  WsOccupancy occupancy;
  WsBottleneck bottleneck;
  GPtrArray *hints; /* WsHint */
} WsWhy;

WsWhy *ws_why_compute (const WsNcuResults *results, guint launch);
void ws_why_free (WsWhy *why);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsWhy, ws_why_free)

G_END_DECLS
