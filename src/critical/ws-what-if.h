/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-critical-graph.h"

G_BEGIN_DECLS

/* A change to try on the dependency graph (docs/critical-path.md,
 * "What-if"), written TARGET:NAME[@rankN]=AMOUNT:
 *   kernel:*gemm*=0.5x     every kernel whose name matches takes half its time;
 *   nvtx:data@rank3=-15ms  rank 3's host time in each `data` range is 15 ms shorter;
 *   range:forward=-30%     the range's host time and the GPU work launched
 *                          in it take 30% less.
 * NAME is a glob (`*`, `?`) over kernel names (demangled, short or as
 * displayed) or NVTX range names; AMOUNT is a factor (0.5x), a percentage
 * (-30%, +10%) or a time (-15ms, +200us, -500ns, -1s) per instance. */

typedef enum
{
  WS_WHAT_IF_KERNEL,
  WS_WHAT_IF_NVTX,  /* host time of a range */
  WS_WHAT_IF_RANGE, /* host time of a range and the GPU work launched in it */
} WsWhatIfTarget;

typedef struct
{
  char *text; /* as written */
  WsWhatIfTarget target;
  char *pattern;
  gint rank;     /* only this rank's (its number), or -1 */
  double factor; /* the weight × this, when @delta is 0 */
  gint64 delta;  /* ns added to each instance (negative: shorter), or 0 */
} WsWhatIf;

WsWhatIf *ws_what_if_parse (const char *text, GError **error);
void ws_what_if_free (WsWhatIf *self);
char *ws_what_if_for_name (const char *target, const char *name, gint rank, const char *amount);
gsize ws_what_if_apply (const WsWhatIf *self, const WsCpGraph *graph, gint64 *weights);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsWhatIf, ws_what_if_free)

G_END_DECLS
