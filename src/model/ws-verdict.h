/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The bottleneck verdict of a profiled kernel (the command-line workflow's
 * rule, FORMATS.md). */
typedef enum
{
  WS_VERDICT_NONE = -1, /* no ncu data */
  WS_VERDICT_COMPUTE,
  WS_VERDICT_MEMORY,
  WS_VERDICT_LATENCY, /* Memory/Latency */
  WS_VERDICT_MIXED,
  WS_VERDICT_UNKNOWN,
  WS_N_VERDICTS,
} WsVerdict;

G_END_DECLS
