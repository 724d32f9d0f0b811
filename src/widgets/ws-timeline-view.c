/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-timeline-view"
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ws-timeline-path.h"
#include "ws-timeline-text.h"
#include "ws-timeline-view-private.h"
#include "ws-widget-palette.h"

G_DEFINE_FINAL_TYPE (WsTimelineView, ws_timeline_view, GTK_TYPE_DRAWING_AREA)

enum
{
  EVENT_SELECTED,
  RANGE_SELECTED,
  LANES_CHANGED,
  WHAT_IF,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The base picture shows something else now. */
void
ws_timeline_view_invalidate (WsTimelineView *self)
{
  self->base_valid = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
palette_of (WsTimelineView *self, WsPalette *palette)
{
  ws_widget_palette (GTK_WIDGET (self), palette);
}

/* px: the lane names left of the time axis */
double
ws_timeline_view_get_header_width (WsTimelineView *self)
{
  WsPalette palette;

  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), 0);

  if (self->chart == NULL)
    return 0;
  palette_of (self, &palette);
  return ws_timeline_chart_header_width (self->chart, &palette);
}

static void
update_geometry (WsTimelineView *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  int width = gtk_widget_get_allocated_width (widget);
  int height = gtk_widget_get_allocated_height (widget);
  WsPalette palette;
  double top, content;

  if (self->chart == NULL)
    {
      gtk_adjustment_configure (self->vadjustment, 0, 0, 0, 1, 1, 0);
      return;
    }
  palette_of (self, &palette);
  ws_time_window_set_width (
    self->window, MAX (width - ws_timeline_chart_header_width (self->chart, &palette), 1));
  top = ws_timeline_chart_top_height (self->chart, &palette);
  content = ws_timeline_chart_content_height (self->chart, &self->state, &palette);
  gtk_adjustment_configure (
    self->vadjustment,
    CLAMP (gtk_adjustment_get_value (self->vadjustment), 0, MAX (content - (height - top), 0)), 0,
    content, 20, MAX (height - top, 1) * 0.9, MAX (height - top, 1));
}

static void
window_changed_cb (WsTimelineView *self, WsTimeWindow *window)
{
  ws_timeline_view_invalidate (self);
}

static void
vadjustment_changed_cb (WsTimelineView *self, GtkAdjustment *adjustment)
{
  double value = gtk_adjustment_get_value (adjustment);

  if (value == self->state.scroll_y)
    return;
  self->state.scroll_y = value;
  ws_timeline_view_invalidate (self);
}

static gboolean
ws_timeline_view_draw (GtkWidget *widget, cairo_t *cr)
{
  WsTimelineView *self = WS_TIMELINE_VIEW (widget);
  int width = gtk_widget_get_allocated_width (widget);
  int height = gtk_widget_get_allocated_height (widget);
  WsPalette palette;

  palette_of (self, &palette);
  if (self->chart == NULL)
    {
      ws_color_set (cr, palette.background);
      cairo_paint (cr);
      return TRUE;
    }

  if (self->base == NULL || self->base_width != width || self->base_height != height)
    {
      g_clear_pointer (&self->base, cairo_surface_destroy);
      self->base = gdk_window_create_similar_surface (
        gtk_widget_get_window (widget), CAIRO_CONTENT_COLOR, MAX (width, 1), MAX (height, 1));
      self->base_width = width;
      self->base_height = height;
      self->base_valid = FALSE;
    }
  if (!self->base_valid)
    {
      cairo_t *bcr = cairo_create (self->base);

      ws_timeline_chart_draw_base (self->chart, bcr, width, height, self->window, &self->state,
                                   &palette);
      cairo_destroy (bcr);
      self->base_valid = TRUE;
    }
  cairo_set_source_surface (cr, self->base, 0, 0);
  cairo_paint (cr);
  ws_timeline_chart_draw_overlay (self->chart, cr, width, height, self->window, &self->state,
                                  &palette);
  return TRUE;
}

static void
ws_timeline_view_size_allocate (GtkWidget *widget, GtkAllocation *allocation)
{
  GTK_WIDGET_CLASS (ws_timeline_view_parent_class)->size_allocate (widget, allocation);
  update_geometry (WS_TIMELINE_VIEW (widget));
}

static void
ws_timeline_view_style_updated (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (ws_timeline_view_parent_class)->style_updated (widget);
  update_geometry (WS_TIMELINE_VIEW (widget));
  ws_timeline_view_invalidate (WS_TIMELINE_VIEW (widget));
}

/* ---- what is where ---------------------------------------------------- */

void
ws_timeline_view_hit (WsTimelineView *self, double x, double y, WsTimelineHit *hit)
{
  WsPalette palette;

  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  if (self->chart == NULL)
    {
      *hit = (WsTimelineHit){ WS_TIMELINE_AREA_NONE, WS_LANE_NONE, 0, WS_EVENT_NONE, 0, FALSE };
      return;
    }
  palette_of (self, &palette);
  ws_timeline_chart_hit (self->chart, gtk_widget_get_allocated_width (GTK_WIDGET (self)),
                         gtk_widget_get_allocated_height (GTK_WIDGET (self)), self->window,
                         &self->state, &palette, x, y, hit);
}

/* Where @event is drawn now, in widget coordinates. */
gboolean
ws_timeline_view_event_rect (WsTimelineView *self, WsEventRef event, cairo_rectangle_t *rect)
{
  WsPalette palette;

  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), FALSE);

  if (self->chart == NULL)
    return FALSE;
  palette_of (self, &palette);
  return ws_timeline_chart_event_rect (self->chart,
                                       gtk_widget_get_allocated_width (GTK_WIDGET (self)),
                                       gtk_widget_get_allocated_height (GTK_WIDGET (self)),
                                       self->window, &self->state, &palette, event, rect);
}

gboolean
ws_timeline_view_lane_rect (WsTimelineView *self, guint32 lane, cairo_rectangle_t *rect)
{
  WsPalette palette;

  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), FALSE);

  if (self->chart == NULL)
    return FALSE;
  palette_of (self, &palette);
  return ws_timeline_chart_lane_rect (
    self->chart, gtk_widget_get_allocated_width (GTK_WIDGET (self)),
    gtk_widget_get_allocated_height (GTK_WIDGET (self)), &self->state, &palette, lane, 0, rect);
}

/**
 * ws_timeline_view_tooltip_markup:
 *
 * Returns: (transfer full) (nullable): what the tooltip at (@x, @y) says
 */
char *
ws_timeline_view_tooltip_markup (WsTimelineView *self, double x, double y)
{
  WsTimelineHit hit;

  ws_timeline_view_hit (self, x, y, &hit);
  if (hit.event != WS_EVENT_NONE)
    return ws_timeline_event_markup (self->lanes, self->nvtx_kernels, hit.event);
  if (hit.area == WS_TIMELINE_AREA_LANE && hit.lane != WS_LANE_NONE)
    return ws_timeline_lane_value_markup (self->lanes, hit.lane, hit.time);
  if (hit.area == WS_TIMELINE_AREA_HEADER && hit.lane != WS_LANE_NONE)
    {
      g_autofree char *subtitle = NULL;
      g_autofree char *title = ws_timeline_lane_title (self->lanes, hit.lane, &subtitle);
      g_autofree char *a = g_markup_escape_text (title, -1);
      g_autofree char *b = g_markup_escape_text (subtitle != NULL ? subtitle : "", -1);

      return g_strdup_printf ("<b>%s</b>%s%s\n<span alpha=\"70%%\">%s</span>", a,
                              subtitle != NULL ? "\n" : "", b,
                              _ ("Click to collapse or expand; right-click for more"));
    }
  return NULL;
}

static gboolean
ws_timeline_view_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard,
                                GtkTooltip *tooltip)
{
  g_autofree char *markup = ws_timeline_view_tooltip_markup (WS_TIMELINE_VIEW (widget), x, y);

  if (markup == NULL)
    return FALSE;
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

/* ---- lanes ------------------------------------------------------------ */

guint8
ws_timeline_view_get_lane_flags (WsTimelineView *self, guint32 lane)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), 0);

  if (self->lanes == NULL || lane >= ws_lanes_get_n_lanes (self->lanes))
    return 0;
  return self->lane_flags[lane];
}

/* @flags: WsLaneFlags */
void
ws_timeline_view_set_lane_flags (WsTimelineView *self, guint32 lane, guint8 flags)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  if (self->lanes == NULL || lane >= ws_lanes_get_n_lanes (self->lanes) ||
      self->lane_flags[lane] == flags)
    return;
  self->lane_flags[lane] = flags;
  update_geometry (self);
  ws_timeline_view_invalidate (self);
  g_signal_emit (self, signals[LANES_CHANGED], 0);
}

void
ws_timeline_view_show_all_lanes (WsTimelineView *self)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  if (self->lanes == NULL)
    return;
  memset (self->lane_flags, 0, ws_lanes_get_n_lanes (self->lanes));
  update_geometry (self);
  ws_timeline_view_invalidate (self);
  g_signal_emit (self, signals[LANES_CHANGED], 0);
}

void
ws_timeline_view_toggle_collapsed (WsTimelineView *self, guint32 lane)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  ws_timeline_view_set_lane_flags (
    self, lane, ws_timeline_view_get_lane_flags (self, lane) ^ WS_LANE_FLAG_COLLAPSED);
}

/* ---- selection -------------------------------------------------------- */

/* What the pointer is over: @event, and the time cursor at @cursor_x px
 * (< 0 for none). */
void
ws_timeline_view_set_hover (WsTimelineView *self, WsEventRef event, double cursor_x)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  if (event == self->state.hover && cursor_x == self->state.cursor_x)
    return;
  if (event != self->state.hover)
    gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
  self->state.hover = event;
  self->state.cursor_x = cursor_x;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

WsEventRef
ws_timeline_view_get_hover (WsTimelineView *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), WS_EVENT_NONE);

  return self->state.hover;
}

WsEventRef
ws_timeline_view_get_selected (WsTimelineView *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), WS_EVENT_NONE);

  return self->state.selected;
}

/* The NVTX range whose kernels are highlighted, or G_MAXSIZE. */
gsize
ws_timeline_view_get_nvtx_focus (WsTimelineView *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), G_MAXSIZE);

  return self->state.nvtx_focus;
}

/* The graph replay whose kernels are highlighted, or G_MAXSIZE. */
gsize
ws_timeline_view_get_replay_focus (WsTimelineView *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), G_MAXSIZE);

  return self->state.replay_focus;
}

/**
 * ws_timeline_view_select:
 * @event: what to select, or WS_EVENT_NONE
 *
 * Selects @event and emits ::event-selected.  Selecting an NVTX range
 * highlights the kernels launched inside it; selecting a graph replay
 * whose kernels the run holds highlights them.
 */
void
ws_timeline_view_select (WsTimelineView *self, WsEventRef event)
{
  gsize focus, replay;

  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  if (self->lanes == NULL || !ws_event_ref_is_valid (ws_lanes_get_run (self->lanes), event))
    event = WS_EVENT_NONE;
  if (event == self->state.selected)
    return;
  self->state.selected = event;
  focus = event != WS_EVENT_NONE && ws_event_ref_kind (event) == WS_EVENT_NVTX
            ? ws_event_ref_index (event)
            : G_MAXSIZE;
  replay = event != WS_EVENT_NONE && ws_event_ref_kind (event) == WS_EVENT_REPLAY &&
               ws_lanes_get_run (self->lanes)->replays.nodes[ws_event_ref_index (event)] > 0
             ? ws_event_ref_index (event)
             : G_MAXSIZE;
  if (focus != self->state.nvtx_focus || replay != self->state.replay_focus)
    {
      self->state.nvtx_focus = focus;
      self->state.replay_focus = replay;
      ws_timeline_view_invalidate (self);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[EVENT_SELECTED], 0, (guint) event);
}

gboolean
ws_timeline_view_get_range (WsTimelineView *self, gint64 *start, gint64 *end)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), FALSE);

  if (start != NULL)
    *start = self->state.range_start;
  if (end != NULL)
    *end = self->state.range_end;
  return self->state.range_end > self->state.range_start;
}

/* Selects [@start, @end) (absolute ns); an empty range clears it. */
void
ws_timeline_view_set_range (WsTimelineView *self, gint64 start, gint64 end)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  if (end <= start)
    start = end = 0;
  if (start == self->state.range_start && end == self->state.range_end)
    return;
  self->state.range_start = start;
  self->state.range_end = end;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[RANGE_SELECTED], 0, start, end);
}

/**
 * ws_timeline_view_set_highlight:
 * @events: (nullable): WsEventRef + 1 as GUINT_TO_POINTER, the events to
 *   show (the others are dimmed), or %NULL to show all alike
 *
 * Points at a set of events: a finding's evidence.
 */
void
ws_timeline_view_set_highlight (WsTimelineView *self, GHashTable *events)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  if (events == self->state.highlight)
    return;
  if (events != NULL)
    g_hash_table_ref (events);
  g_clear_pointer (&self->state.highlight, g_hash_table_unref);
  self->state.highlight = events;
  ws_timeline_view_invalidate (self);
}

/**
 * ws_timeline_view_set_path:
 * @path: (transfer full) (nullable): a step's critical path to draw over
 *   the lanes, or %NULL for none
 */
void
ws_timeline_view_set_path (WsTimelineView *self, WsTimelinePath *path)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  g_clear_pointer (&self->path, ws_timeline_path_free);
  self->path = path;
  self->state.path = path;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const WsTimelinePath *
ws_timeline_view_get_path (WsTimelineView *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), NULL);

  return self->path;
}

/* A context menu's "what if": the window predicts it. */
void
ws_timeline_view_ask_what_if (WsTimelineView *self, const char *change)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  g_signal_emit (self, signals[WHAT_IF], 0, change);
}

/**
 * ws_timeline_view_set_lane_shifts:
 * @shifts: (array) (nullable): ns per lane (as many as the lanes) added to
 *   the times of its events, or %NULL for none
 *
 * Shows each lane's events moved in time: a job's ranks aligned on one
 * instance of a step, each rank's lanes by its own offset.  The ruler
 * keeps the run's clock.
 */
void
ws_timeline_view_set_lane_shifts (WsTimelineView *self, const gint64 *shifts)
{
  guint n;

  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  g_clear_pointer (&self->lane_shift, g_free);
  if (shifts != NULL && self->lanes != NULL)
    {
      n = ws_lanes_get_n_lanes (self->lanes);
      self->lane_shift = g_memdup2 (shifts, sizeof (gint64) * MAX (n, 1));
    }
  self->state.lane_shift = self->lane_shift;
  ws_timeline_view_invalidate (self);
}

/* ns that lane @lane's events are shown later than they happened. */
gint64
ws_timeline_view_get_lane_shift (WsTimelineView *self, guint32 lane)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), 0);

  if (self->lane_shift == NULL || self->lanes == NULL || lane >= ws_lanes_get_n_lanes (self->lanes))
    return 0;
  return self->lane_shift[lane];
}

GHashTable *
ws_timeline_view_get_highlight (WsTimelineView *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), NULL);

  return self->state.highlight;
}

/* ---- input, handled by ws-timeline-input.c ---------------------------- */

static gboolean
ws_timeline_view_button_press (GtkWidget *widget, GdkEventButton *event)
{
  return ws_timeline_input_button_press (&WS_TIMELINE_VIEW (widget)->input, event);
}

static gboolean
ws_timeline_view_motion_notify (GtkWidget *widget, GdkEventMotion *event)
{
  return ws_timeline_input_motion_notify (&WS_TIMELINE_VIEW (widget)->input, event);
}

static gboolean
ws_timeline_view_button_release (GtkWidget *widget, GdkEventButton *event)
{
  return ws_timeline_input_button_release (&WS_TIMELINE_VIEW (widget)->input, event);
}

static gboolean
ws_timeline_view_leave_notify (GtkWidget *widget, GdkEventCrossing *event)
{
  return ws_timeline_input_leave_notify (&WS_TIMELINE_VIEW (widget)->input, event);
}

static gboolean
ws_timeline_view_scroll (GtkWidget *widget, GdkEventScroll *event)
{
  return ws_timeline_input_scroll (&WS_TIMELINE_VIEW (widget)->input, event);
}

static gboolean
ws_timeline_view_key_press (GtkWidget *widget, GdkEventKey *event)
{
  return ws_timeline_input_key_press (&WS_TIMELINE_VIEW (widget)->input, event);
}

/* ---- life ------------------------------------------------------------- */

static void
ws_timeline_view_dispose (GObject *object)
{
  WsTimelineView *self = WS_TIMELINE_VIEW (object);

  g_clear_pointer (&self->base, cairo_surface_destroy);
  g_clear_pointer (&self->chart, ws_timeline_chart_free);
  g_clear_pointer (&self->lanes, ws_lanes_unref);
  g_clear_pointer (&self->nvtx_kernels, ws_nvtx_kernels_unref);
  g_clear_pointer (&self->state.highlight, g_hash_table_unref);
  g_clear_pointer (&self->path, ws_timeline_path_free);
  self->state.path = NULL;
  g_clear_object (&self->window);
  g_clear_object (&self->vadjustment);

  G_OBJECT_CLASS (ws_timeline_view_parent_class)->dispose (object);
}

static void
ws_timeline_view_finalize (GObject *object)
{
  WsTimelineView *self = WS_TIMELINE_VIEW (object);

  g_free (self->lane_flags);
  g_free (self->lane_shift);
  g_clear_pointer (&self->search, ws_event_search_free);

  G_OBJECT_CLASS (ws_timeline_view_parent_class)->finalize (object);
}

static void
ws_timeline_view_class_init (WsTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_timeline_view_dispose;
  object_class->finalize = ws_timeline_view_finalize;

  widget_class->draw = ws_timeline_view_draw;
  widget_class->size_allocate = ws_timeline_view_size_allocate;
  widget_class->style_updated = ws_timeline_view_style_updated;
  widget_class->button_press_event = ws_timeline_view_button_press;
  widget_class->button_release_event = ws_timeline_view_button_release;
  widget_class->motion_notify_event = ws_timeline_view_motion_notify;
  widget_class->leave_notify_event = ws_timeline_view_leave_notify;
  widget_class->scroll_event = ws_timeline_view_scroll;
  widget_class->key_press_event = ws_timeline_view_key_press;
  widget_class->query_tooltip = ws_timeline_view_query_tooltip;

  /**
   * WsTimelineView::event-selected:
   * @event: the WsEventRef selected, or WS_EVENT_NONE
   */
  signals[EVENT_SELECTED] =
    g_signal_new ("event-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  /**
   * WsTimelineView::range-selected:
   * @start: ns, absolute
   * @end: ns; equal to @start when the range was cleared
   */
  signals[RANGE_SELECTED] =
    g_signal_new ("range-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_INT64);
  /**
   * WsTimelineView::lanes-changed:
   *
   * A lane was hidden, shown, collapsed or expanded.
   */
  signals[LANES_CHANGED] = g_signal_new ("lanes-changed", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * WsTimelineView::what-if:
   * @change: a what-if change (ws-what-if.h) a context menu asked for
   */
  signals[WHAT_IF] = g_signal_new ("what-if", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                   NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_css_name (widget_class, "wstimelineview");
}

static void
ws_timeline_view_init (WsTimelineView *self)
{
  ws_timeline_state_init (&self->state);
  ws_timeline_input_init (&self->input, self);
  self->window = ws_time_window_new ();
  self->vadjustment = g_object_ref_sink (gtk_adjustment_new (0, 0, 0, 20, 100, 0));
  g_signal_connect_object (self->window, "changed", G_CALLBACK (window_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->vadjustment, "value-changed", G_CALLBACK (vadjustment_changed_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_set_can_focus (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_add_events (GTK_WIDGET (self), GDK_POINTER_MOTION_MASK | GDK_BUTTON_PRESS_MASK |
                                              GDK_BUTTON_RELEASE_MASK | GDK_LEAVE_NOTIFY_MASK |
                                              GDK_SCROLL_MASK | GDK_SMOOTH_SCROLL_MASK |
                                              GDK_KEY_PRESS_MASK);
}

GtkWidget *
ws_timeline_view_new (void)
{
  return g_object_new (WS_TYPE_TIMELINE_VIEW, NULL);
}

/**
 * ws_timeline_view_set_lanes:
 * @lanes: (nullable): what to show
 *
 * Shows @lanes, all of the run, nothing selected.
 */
void
ws_timeline_view_set_lanes (WsTimelineView *self, WsLanes *lanes)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  if (lanes == self->lanes)
    return;
  if (lanes != NULL)
    ws_lanes_ref (lanes);
  g_clear_pointer (&self->lanes, ws_lanes_unref);
  g_clear_pointer (&self->chart, ws_timeline_chart_free);
  g_clear_pointer (&self->nvtx_kernels, ws_nvtx_kernels_unref);
  g_clear_pointer (&self->lane_flags, g_free);
  g_clear_pointer (&self->lane_shift, g_free);
  g_clear_pointer (&self->search, ws_event_search_free);
  self->lanes = lanes;
  ws_timeline_state_init (&self->state);
  if (lanes != NULL)
    {
      const WsRun *run = ws_lanes_get_run (lanes);

      self->chart = ws_timeline_chart_new (lanes);
      self->search = ws_event_search_new (ws_lanes_get_run (lanes));
      self->lane_flags = g_new0 (guint8, ws_lanes_get_n_lanes (lanes) + 1);
      self->state.lane_flags = self->lane_flags;
      ws_time_window_set_bounds (self->window, run->origin, run->end_time);
    }
  gtk_adjustment_set_value (self->vadjustment, 0);
  update_geometry (self);
  ws_timeline_view_invalidate (self);
  g_signal_emit (self, signals[LANES_CHANGED], 0);
}

/**
 * ws_timeline_view_set_memory_top:
 * @top: bytes at a memory lane's full height; 0 for each lane's own peak
 *
 * Shares a scale with another view of another run (a comparison).
 */
void
ws_timeline_view_set_memory_top (WsTimelineView *self, double top)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  if (self->chart == NULL)
    return;
  ws_timeline_chart_set_memory_top (self->chart, top);
  ws_timeline_view_invalidate (self);
}

/* The bytes at a memory lane's full height: the shared scale, else the
 * peak of this view's own memory lanes. */
double
ws_timeline_view_get_memory_top (WsTimelineView *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), 0);

  if (self->chart == NULL)
    return 0;
  return ws_timeline_chart_get_memory_top (self->chart) > 0
           ? ws_timeline_chart_get_memory_top (self->chart)
           : ws_timeline_chart_memory_peak (self->chart);
}

/* The peak of the memory lanes (bytes), or 0. */
double
ws_timeline_view_get_memory_peak (WsTimelineView *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), 0);

  return self->chart != NULL ? ws_timeline_chart_memory_peak (self->chart) : 0;
}

/**
 * ws_timeline_view_get_lanes:
 *
 * Returns: (transfer none) (nullable): the lanes shown
 */
WsLanes *
ws_timeline_view_get_lanes (WsTimelineView *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), NULL);

  return self->lanes;
}

/**
 * ws_timeline_view_set_nvtx_kernels:
 * @nvtx_kernels: (nullable): the kernels each NVTX range of the lanes' run launched
 *
 * With it, selecting an NVTX range highlights its kernels, and tooltips
 * give kernels' NVTX paths.
 */
void
ws_timeline_view_set_nvtx_kernels (WsTimelineView *self, WsNvtxKernels *nvtx_kernels)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  if (nvtx_kernels != NULL)
    ws_nvtx_kernels_ref (nvtx_kernels);
  g_clear_pointer (&self->nvtx_kernels, ws_nvtx_kernels_unref);
  self->nvtx_kernels = nvtx_kernels;
  if (self->chart != NULL)
    ws_timeline_chart_set_nvtx_kernels (self->chart, nvtx_kernels);
  ws_timeline_view_invalidate (self);
}

/**
 * ws_timeline_view_get_nvtx_kernels:
 *
 * Returns: (transfer none) (nullable): the kernels of each NVTX range, once set
 */
WsNvtxKernels *
ws_timeline_view_get_nvtx_kernels (WsTimelineView *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), NULL);

  return self->nvtx_kernels;
}

/**
 * ws_timeline_view_get_window:
 *
 * Returns: (transfer none): the zoom and pan state the view draws
 */
WsTimeWindow *
ws_timeline_view_get_window (WsTimelineView *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), NULL);

  return self->window;
}

/**
 * ws_timeline_view_get_vadjustment:
 *
 * Returns: (transfer none): the vertical scroll of the lanes, for a scrollbar
 */
GtkAdjustment *
ws_timeline_view_get_vadjustment (WsTimelineView *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), NULL);

  return self->vadjustment;
}
