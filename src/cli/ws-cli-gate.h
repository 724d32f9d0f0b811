/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-gate.h"

G_BEGIN_DECLS

/* A kernel or range that moved most between the steady states. */
typedef struct
{
  char *name;
  gint64 before; /* ns in all */
  gint64 after;
} WsGateMoved;

void ws_gate_write_table (const WsGateResult *results, guint n, GString *out);
void ws_gate_write_json (const WsGateResult *results, guint n, int status, GString *out);
void ws_gate_write_junit (const WsGateResult *results, guint n, GString *out);
void ws_gate_write_markdown (const WsGateResult *results, guint n, const GArray *moved,
                             GString *out);

G_END_DECLS
