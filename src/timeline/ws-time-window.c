/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-time-window"
#include "config.h"

#include <math.h>

#include "ws-time-window.h"

/* The visible time range of a timeline, shared by its ruler, lanes and
 * overview.  Times inside are double nanoseconds relative to the run's
 * origin: a session clock reads ~10^15 ns, where a double could not hold
 * sub-nanosecond positions, while offsets within a run (< hours) can. */
struct _WsTimeWindow
{
  GObject parent_instance;

  gint64 origin;   /* ns, absolute */
  gint64 duration; /* ns: end_time - origin */
  double width;    /* px of the time axis */
  double start;    /* ns relative to origin */
  double end;
};

G_DEFINE_FINAL_TYPE (WsTimeWindow, ws_time_window, G_TYPE_OBJECT)

enum
{
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
ws_time_window_class_init (WsTimeWindowClass *klass)
{
  /**
   * WsTimeWindow::changed:
   *
   * The visible range, the bounds or the width changed.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                   NULL, NULL, G_TYPE_NONE, 0);
}

static void
ws_time_window_init (WsTimeWindow *self)
{
  self->width = 1000;
  self->end = ws_time_window_get_max_span (self);
}

/**
 * ws_time_window_new:
 *
 * Returns: (transfer full): a window on an empty run, 1000 px wide
 */
WsTimeWindow *
ws_time_window_new (void)
{
  return g_object_new (WS_TYPE_TIME_WINDOW, NULL);
}

/* A run of one instant still gets a microsecond to look at. */
double
ws_time_window_get_max_span (WsTimeWindow *self)
{
  g_return_val_if_fail (WS_IS_TIME_WINDOW (self), 1);

  return (double) MAX (self->duration, 1000) * WS_TIME_WINDOW_MAX_SPAN_FACTOR;
}

double
ws_time_window_get_min_span (WsTimeWindow *self)
{
  g_return_val_if_fail (WS_IS_TIME_WINDOW (self), 1);

  return MAX (self->width, 1.0) * WS_TIME_WINDOW_MIN_NS_PER_PX;
}

/* The view may reach half the extra room of the widest view beyond each
 * end of the run, so that "fit" centres the run. */
static void
view_limits (WsTimeWindow *self, double *lo, double *hi)
{
  double margin = (ws_time_window_get_max_span (self) - (double) self->duration) / 2;

  *lo = -margin;
  *hi = (double) self->duration + margin;
}

/* Sets the view within the limits; returns whether it changed. */
static gboolean
apply (WsTimeWindow *self, double start, double span)
{
  double lo, hi;

  if (!isfinite (start) || !isfinite (span))
    return FALSE;
  view_limits (self, &lo, &hi);
  span = CLAMP (span, ws_time_window_get_min_span (self), ws_time_window_get_max_span (self));
  start = CLAMP (start, lo, hi - span);
  if (start == self->start && start + span == self->end)
    return FALSE;
  self->start = start;
  self->end = start + span;
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}

/**
 * ws_time_window_set_bounds:
 * @origin: ns: the earliest event of the run
 * @end_time: ns: the latest end
 *
 * Sets the run the window looks at and shows all of it.
 */
void
ws_time_window_set_bounds (WsTimeWindow *self, gint64 origin, gint64 end_time)
{
  double lo, hi;

  g_return_if_fail (WS_IS_TIME_WINDOW (self));

  self->origin = origin;
  self->duration = end_time > origin ? end_time - origin : 0;
  view_limits (self, &lo, &hi);
  self->start = lo;
  self->end = hi;
  g_signal_emit (self, signals[CHANGED], 0);
}

gint64
ws_time_window_get_origin (WsTimeWindow *self)
{
  g_return_val_if_fail (WS_IS_TIME_WINDOW (self), 0);

  return self->origin;
}

gint64
ws_time_window_get_end_time (WsTimeWindow *self)
{
  g_return_val_if_fail (WS_IS_TIME_WINDOW (self), 0);

  return self->origin + self->duration;
}

/* The range stays when the width changes: a wider window shows the same
 * time in more detail. */
void
ws_time_window_set_width (WsTimeWindow *self, double width)
{
  g_return_if_fail (WS_IS_TIME_WINDOW (self));

  width = MAX (width, 1.0);
  if (width == self->width)
    return;
  self->width = width;
  /* The least span depends on the width. */
  if (!apply (self, self->start, self->end - self->start))
    g_signal_emit (self, signals[CHANGED], 0);
}

double
ws_time_window_get_width (WsTimeWindow *self)
{
  g_return_val_if_fail (WS_IS_TIME_WINDOW (self), 1);

  return self->width;
}

/* ns relative to the origin */
double
ws_time_window_get_start (WsTimeWindow *self)
{
  g_return_val_if_fail (WS_IS_TIME_WINDOW (self), 0);

  return self->start;
}

double
ws_time_window_get_end (WsTimeWindow *self)
{
  g_return_val_if_fail (WS_IS_TIME_WINDOW (self), 0);

  return self->end;
}

double
ws_time_window_get_span (WsTimeWindow *self)
{
  g_return_val_if_fail (WS_IS_TIME_WINDOW (self), 0);

  return self->end - self->start;
}

/* The visible range in absolute ns, widened to whole nanoseconds. */
void
ws_time_window_get_range (WsTimeWindow *self, gint64 *start, gint64 *end)
{
  g_return_if_fail (WS_IS_TIME_WINDOW (self));

  if (start != NULL)
    *start = self->origin + (gint64) floor (self->start);
  if (end != NULL)
    *end = self->origin + (gint64) ceil (self->end);
}

double
ws_time_window_get_ns_per_px (WsTimeWindow *self)
{
  g_return_val_if_fail (WS_IS_TIME_WINDOW (self), 1);

  return (self->end - self->start) / self->width;
}

gboolean
ws_time_window_is_fit (WsTimeWindow *self)
{
  g_return_val_if_fail (WS_IS_TIME_WINDOW (self), FALSE);

  return self->end - self->start >= ws_time_window_get_max_span (self) * (1 - 1e-9);
}

double
ws_time_window_offset_to_x (WsTimeWindow *self, double offset)
{
  return (offset - self->start) * self->width / (self->end - self->start);
}

double
ws_time_window_time_to_x (WsTimeWindow *self, gint64 time)
{
  return ws_time_window_offset_to_x (self, (double) (time - self->origin));
}

/* ns relative to the origin at @x px from the left of the time axis. */
double
ws_time_window_x_to_offset (WsTimeWindow *self, double x)
{
  return self->start + x * (self->end - self->start) / self->width;
}

gint64
ws_time_window_x_to_time (WsTimeWindow *self, double x)
{
  return self->origin + (gint64) floor (ws_time_window_x_to_offset (self, x));
}

/* Shows [@start, @end) (ns relative to the origin), within the limits. */
void
ws_time_window_set_view (WsTimeWindow *self, double start, double end)
{
  g_return_if_fail (WS_IS_TIME_WINDOW (self));

  if (end < start)
    {
      double t = start;

      start = end;
      end = t;
    }
  if (end - start < ws_time_window_get_min_span (self))
    {
      double mid = (start + end) / 2;
      double half = ws_time_window_get_min_span (self) / 2;

      start = mid - half;
      end = mid + half;
    }
  apply (self, start, end - start);
}

/**
 * ws_time_window_zoom_at:
 * @factor: > 1 zooms in, < 1 out
 * @x: px from the left of the time axis; the time there stays there
 */
void
ws_time_window_zoom_at (WsTimeWindow *self, double factor, double x)
{
  double at, span;

  g_return_if_fail (WS_IS_TIME_WINDOW (self));
  g_return_if_fail (factor > 0);

  at = ws_time_window_x_to_offset (self, x);
  span = CLAMP ((self->end - self->start) / factor, ws_time_window_get_min_span (self),
                ws_time_window_get_max_span (self));
  apply (self, at - x / self->width * span, span);
}

/* Moves the view by @dx px: positive shows later times. */
void
ws_time_window_pan (WsTimeWindow *self, double dx)
{
  g_return_if_fail (WS_IS_TIME_WINDOW (self));

  apply (self, self->start + dx * ws_time_window_get_ns_per_px (self), self->end - self->start);
}

void
ws_time_window_fit (WsTimeWindow *self)
{
  double lo, hi;

  g_return_if_fail (WS_IS_TIME_WINDOW (self));

  view_limits (self, &lo, &hi);
  apply (self, lo, hi - lo);
}

/* Shows [@start, @end) in absolute ns. */
void
ws_time_window_zoom_to (WsTimeWindow *self, gint64 start, gint64 end)
{
  g_return_if_fail (WS_IS_TIME_WINDOW (self));

  ws_time_window_set_view (self, (double) (start - self->origin), (double) (end - self->origin));
}

/* The start of the run, at the same zoom. */
void
ws_time_window_go_home (WsTimeWindow *self)
{
  double lo, hi;

  g_return_if_fail (WS_IS_TIME_WINDOW (self));

  view_limits (self, &lo, &hi);
  apply (self, lo, self->end - self->start);
}

void
ws_time_window_go_end (WsTimeWindow *self)
{
  double lo, hi;

  g_return_if_fail (WS_IS_TIME_WINDOW (self));

  view_limits (self, &lo, &hi);
  apply (self, hi - (self->end - self->start), self->end - self->start);
}
