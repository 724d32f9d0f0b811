/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-time-ticks"
#include "config.h"

#include <math.h>

#include "ws-format.h"
#include "ws-time-ticks.h"

/* Labels longer than this many significant digits count from a base. */
#define MAX_DIGITS 7

const char *
ws_time_unit_name (double unit)
{
  if (unit >= 1e9)
    return "s";
  if (unit >= 1e6)
    return "ms";
  if (unit >= 1e3)
    return "µs";
  return "ns";
}

static double
unit_for (double magnitude)
{
  if (magnitude >= 1e9)
    return 1e9;
  if (magnitude >= 1e6)
    return 1e6;
  if (magnitude >= 1e3)
    return 1e3;
  return 1;
}

static int
decimals_for (double step, double unit)
{
  double r = step / unit;

  if (r >= 1)
    return 0;
  return (int) ceil (-log10 (r) - 1e-9);
}

static int
integer_digits (double value)
{
  return value < 1 ? 1 : (int) floor (log10 (value)) + 1;
}

/**
 * ws_time_ticks_choose:
 * @start: ns from the origin: the left edge
 * @end: ns from the origin: the right edge
 * @width: px between them
 * @min_spacing: px: the least room between labelled ticks
 */
void
ws_time_ticks_choose (WsTimeTicks *ticks, double start, double end, double width,
                      double min_spacing)
{
  double span = MAX (end - start, 1e-9);
  double ns_per_px = span / MAX (width, 1);
  double want = ns_per_px * MAX (min_spacing, 1);
  double magnitude = pow (10, floor (log10 (MAX (want, 1e-3))));
  double mantissa = 1;
  double top;

  /* The least 1-2-5 step that leaves @min_spacing between ticks; steps
   * below a nanosecond would only repeat labels. */
  while (magnitude * mantissa < want)
    {
      if (mantissa == 1)
        mantissa = 2;
      else if (mantissa == 2)
        mantissa = 5;
      else
        {
          mantissa = 1;
          magnitude *= 10;
        }
    }
  ticks->step = MAX (magnitude * mantissa, 1);
  ticks->minor = ticks->step / (mantissa == 2 ? 4 : 5);
  ticks->first = ceil (start / ticks->step) * ticks->step;
  ticks->base = 0;
  ticks->block = 0;
  ticks->relative = FALSE;

  top = MAX (fabs (start), fabs (end));
  ticks->unit = unit_for (MAX (top, ticks->step));
  ticks->decimals = decimals_for (ticks->step, ticks->unit);
  if (integer_digits (top / ticks->unit) + ticks->decimals > MAX_DIGITS)
    {
      /* Count from a multiple of a power of ten above the span. */
      double block = pow (10, ceil (log10 (span * 2)));

      ticks->block = block;
      ticks->base = floor (start / block) * block;
      ticks->relative = ticks->base != 0;
      top = MAX (fabs (start - ticks->base), fabs (end - ticks->base));
      ticks->unit = unit_for (MAX (top, ticks->step));
      ticks->decimals = decimals_for (ticks->step, ticks->unit);
    }
}

/* The label of the tick at @time (ns from the origin): "12.5 ms", or
 * "+250 ns" when counting from a base. */
char *
ws_time_ticks_label (const WsTimeTicks *ticks, double time)
{
  double value = (time - ticks->base) / ticks->unit;
  g_autofree char *number = NULL;

  /* Ticks are multiples of the step: round away float noise first. */
  value = round (value * pow (10, ticks->decimals)) / pow (10, ticks->decimals);
  if (value == 0)
    value = 0; /* no "-0" */
  number = ws_format_fixed_string (value, ticks->decimals);
  return g_strdup_printf ("%s%s %s", ticks->relative && value > 0 ? "+" : "", number,
                          ws_time_unit_name (ticks->unit));
}

/* What relative labels count from ("1.234567 s"), or %NULL. */
char *
ws_time_ticks_base_label (const WsTimeTicks *ticks)
{
  double unit;
  int decimals;
  g_autofree char *number = NULL;

  if (!ticks->relative)
    return NULL;
  unit = unit_for (fabs (ticks->base));
  /* The base is a multiple of the block: show down to it. */
  decimals = CLAMP (decimals_for (ticks->block, unit), 0, 9);
  number = ws_format_fixed_string (ticks->base / unit, decimals);
  return g_strdup_printf ("%s %s", number, ws_time_unit_name (unit));
}
