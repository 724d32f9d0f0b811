/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Ticks of a time ruler: 1-2-5 steps, labels in one unit (ns, µs, ms, s)
 * with as many decimals as the step needs.  Far from the origin at a deep
 * zoom, labels count from a round base ("+250 ns" after "1.234567 s"), so
 * that they stay short. */
typedef struct
{
  double step;  /* ns between labelled ticks */
  double minor; /* ns between unlabelled ones */
  double first; /* ns (from the origin): the first tick at or after the start */
  double base;  /* ns (from the origin): what labels count from */
  double block; /* ns: the base is a multiple of it (a power of ten) */
  double unit;  /* ns per label unit: 1, 1e3, 1e6 or 1e9 */
  int decimals;
  gboolean relative; /* labels are offsets from a non-zero base */
} WsTimeTicks;

void ws_time_ticks_choose (WsTimeTicks *ticks, double start, double end, double width,
                           double min_spacing);
char *ws_time_ticks_label (const WsTimeTicks *ticks, double time);
char *ws_time_ticks_base_label (const WsTimeTicks *ticks);
const char *ws_time_unit_name (double unit);

G_END_DECLS
