/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-memory-workload.h"
#include "ws-occupancy.h"
#include "ws-roofline.h"

G_BEGIN_DECLS

/* Likely causes of a profiled launch's slowness, each from a rule on its
 * data with the evidence that fired it (docs/why-slow.md, "Hints"). */
#define WS_HINT_OLD_ARCH "old-arch-tensor"
#define WS_HINT_ALIGNMENT "narrow-alignment"
#define WS_HINT_UNCOALESCED "uncoalesced"
#define WS_HINT_BANK_CONFLICTS "bank-conflicts"
#define WS_HINT_REGISTERS "register-limited"
#define WS_HINT_SMALL_GRID "small-grid"
#define WS_HINT_TAIL "tail-effect"

/* The thresholds. */
#define WS_HINT_EXCESSIVE_PCT 20.0     /* % of global sectors beyond need: uncoalesced */
#define WS_HINT_SECTORS_PER_REQUEST 16 /* more than a 16-byte vector needs, without that metric */
#define WS_HINT_CONFLICT_PCT 10.0      /* bank conflicts, % of shared wavefronts */
#define WS_HINT_OCCUPANCY_PCT 50.0     /* theoretical occupancy below: register-limited matters */
#define WS_HINT_TAIL_IDLE 0.25         /* share of the wave slots a partial last wave leaves idle */

typedef struct
{
  const char *id;  /* static: WS_HINT_* */
  char *title;     /* translated */
  char *evidence;  /* the numbers that fired the rule */
  const char *fix; /* static, translated: the usual fix */
} WsHint;

GPtrArray *ws_hints_compute (const WsNcuResults *results, guint launch,
                             const WsMemoryWorkload *memory, const WsOccupancy *occupancy,
                             const WsRoofline *roofline);
const WsHint *ws_hints_find (GPtrArray *hints, const char *id);
int ws_kernel_name_arch (const char *name);

G_END_DECLS
