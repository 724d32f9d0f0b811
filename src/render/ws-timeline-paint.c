/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-timeline"
#include "config.h"

#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "ws-hash.h"
#include "ws-limits.h"
#include "ws-kernel-name.h"
#include "ws-launch-index.h"
#include "ws-text.h"
#include "ws-timeline-colors.h"
#include "ws-timeline-chart.h"
#include "ws-timeline-paint.h"
#include "ws-timeline-text.h"

/* Buckets of rectangles, one per colour: cairo fills each in one go. */
#define N_BUCKETS 1024
/* Shades of coverage for merged pixel columns. */
#define N_LEVELS 8
#define LABEL_PAD 3

typedef struct
{
  guint32 argb;
  guint32 n;
  guint32 capacity;
  float *xywh;
} Bucket;

typedef struct
{
  float x, y, w, h;
  guint64 key;
  WsEventRef event;
  guint32 argb; /* the fill under the text */
} PendingLabel;

typedef struct
{
  PangoLayout *layout;
  int width;
  int height;
} LabelText;

struct _WsTimelinePaint
{
  WsRun *run;
  WsPaintFrame frame;
  double view_start; /* the frame's, before a lane's shift */
  WsTimelineColors colors;
  gboolean focus; /* a search or a focus dims what does not match */

  Bucket buckets[N_BUCKETS];
  guint32 used[N_BUCKETS];
  guint n_used;
  GArray *labels; /* PendingLabel */

  PangoContext *pango;
  char font[64];
  double line;
  double min_label_w;
  PangoLayout *label_layout_template;
  GHashTable *label_text; /* guint64 key -> LabelText */
};

static void
label_text_free (gpointer data)
{
  LabelText *text = data;

  g_clear_object (&text->layout);
  g_free (text);
}

WsTimelinePaint *
ws_timeline_paint_new (WsRun *run)
{
  WsTimelinePaint *self = g_new0 (WsTimelinePaint, 1);

  self->run = run;
  self->labels = g_array_new (FALSE, FALSE, sizeof (PendingLabel));
  self->label_text = g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, label_text_free);
  self->pango = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  return self;
}

void
ws_timeline_paint_free (WsTimelinePaint *self)
{
  if (self == NULL)
    return;
  for (guint b = 0; b < N_BUCKETS; b++)
    g_free (self->buckets[b].xywh);
  g_array_unref (self->labels);
  g_hash_table_unref (self->label_text);
  g_clear_object (&self->label_layout_template);
  g_clear_object (&self->pango);
  g_free (self);
}

/* ---- text ------------------------------------------------------------- */

/**
 * ws_timeline_paint_layout:
 *
 * Returns: (transfer full): a layout in the chart's font, for text drawn
 * often (lane names, event names): its shaping is cached with it.
 */
PangoLayout *
ws_timeline_paint_layout (WsTimelinePaint *self, const WsPalette *palette, double scale,
                          gboolean bold)
{
  PangoLayout *layout = pango_layout_new (self->pango);
  PangoFontDescription *desc = ws_text_font (palette, scale, bold);

  pango_layout_set_font_description (layout, desc);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  pango_font_description_free (desc);
  return layout;
}

static void
update_font (WsTimelinePaint *self, const WsPalette *palette)
{
  int w, h;

  if (self->line > 0 && g_str_equal (self->font, palette->font))
    return;
  g_strlcpy (self->font, palette->font, sizeof self->font);
  g_hash_table_remove_all (self->label_text);
  g_clear_object (&self->label_layout_template);
  self->label_layout_template = ws_timeline_paint_layout (self, palette, 0.85, FALSE);
  pango_layout_set_text (self->label_layout_template, "Ag漢", -1);
  pango_layout_get_pixel_size (self->label_layout_template, &w, &h);
  self->line = h;
  pango_layout_set_text (self->label_layout_template, "abc", -1);
  pango_layout_get_pixel_size (self->label_layout_template, &w, &h);
  self->min_label_w = w + 2 * LABEL_PAD;
}

/* px: a line of the text drawn on events and lane headers. */
double
ws_timeline_paint_line_height (WsTimelinePaint *self, const WsPalette *palette)
{
  update_font (self, palette);
  return self->line;
}

static guint64
label_key (const WsRun *run, WsEventRef event, WsNameForm form)
{
  WsEventKind kind = ws_event_ref_kind (event);

  if (kind == WS_EVENT_MEMOP)
    return ((guint64) kind << 32) | run->memops.kind[ws_event_ref_index (event)];
  if (kind == WS_EVENT_KERNEL)
    return ((guint64) kind << 32) | ((guint64) form << 40) | ws_event_name_id (run, event, form);
  /* A replay is named after its graph. */
  if (kind == WS_EVENT_REPLAY)
    return ((guint64) kind << 32) | run->replays.graph[ws_event_ref_index (event)];
  return ((guint64) kind << 32) | ws_event_name_id (run, event, form);
}

static LabelText *
label_text (WsTimelinePaint *self, guint64 key, WsEventRef event)
{
  LabelText *text = g_hash_table_lookup (self->label_text, &key);
  g_autofree char *str = NULL;

  if (text != NULL)
    return text;
  str = ws_timeline_event_label (self->run, event, self->frame.name_form);
  /* Display names are already short and tell kernels apart
   * (ws_kernel_display_fit()): folding them again would not. */
  if (ws_event_ref_kind (event) == WS_EVENT_KERNEL && self->frame.name_form != WS_NAME_DISPLAY)
    {
      char *shorter = ws_kernel_name_shorten (str, 80);

      g_free (str);
      str = shorter;
    }
  text = g_new0 (LabelText, 1);
  text->layout = pango_layout_copy (self->label_layout_template);
  pango_layout_set_text (text->layout, str, -1);
  pango_layout_get_pixel_size (text->layout, &text->width, &text->height);
  g_hash_table_insert (self->label_text, g_memdup2 (&key, sizeof key), text);
  return text;
}

/* ---- colours ---------------------------------------------------------- */

static inline guint
hash_id (guint32 id)
{
  id ^= id >> 16;
  id *= 0x45d9f3bu;
  id ^= id >> 16;
  return id;
}

static inline gboolean
name_matches (const WsPaintFrame *f, guint32 id)
{
  return id != WS_STRING_NONE && id / 8 < f->search_len && (f->search[id / 8] >> (id % 8)) & 1;
}

/* Whether the graph replay that a kernel or memory operation ran in is
 * @replay. */
static gboolean
in_replay (const WsRun *run, WsEventRef event, gsize replay)
{
  gsize i = ws_event_ref_index (event);

  switch (ws_event_ref_kind (event))
    {
      case WS_EVENT_KERNEL:
        return run->kernels.replay != NULL && run->kernels.replay[i] == replay;
      case WS_EVENT_MEMOP:
        return run->memops.replay != NULL && run->memops.replay[i] == replay;
      case WS_EVENT_REPLAY:
        return i == replay;
      default:
        return FALSE;
    }
}

/* Whether graph replay @i was launched inside NVTX range @r: by a call of
 * the range's thread while it was open. */
static gboolean
replay_in_range (const WsPaintFrame *f, const WsRun *run, gsize i, gsize r)
{
  gssize a = f->nvtx_kernels != NULL
               ? ws_launch_index_replay (ws_nvtx_kernels_get_launches (f->nvtx_kernels), i)
               : -1;

  return a >= 0 && run->api.thread[a] == run->nvtx.thread[r] &&
         run->api.start[a] >= run->nvtx.start[r] && run->api.start[a] <= run->nvtx.end[r];
}

static gboolean
search_matches (const WsPaintFrame *f, const WsRun *run, WsEventRef event)
{
  gsize i = ws_event_ref_index (event);

  switch (ws_event_ref_kind (event))
    {
      case WS_EVENT_KERNEL:
        return name_matches (f, run->kernels.demangled[i]) ||
               name_matches (f, run->kernels.short_name[i]);
      case WS_EVENT_REPLAY:
        return f->search_replays != NULL && (f->search_replays[i / 8] >> (i % 8)) & 1;
      default:
        return name_matches (f, ws_event_name_id (run, event, WS_NAME_DEMANGLED));
    }
}

/* Whether @event is among what a search, an NVTX focus, a replay's focus
 * or a highlight (a finding's events) points at. */
static gboolean
in_focus (WsTimelinePaint *self, WsEventRef event)
{
  const WsPaintFrame *f = &self->frame;
  const WsRun *run = self->run;
  gsize i = ws_event_ref_index (event);
  WsEventKind kind = ws_event_ref_kind (event);

  if (f->highlight != NULL && g_hash_table_contains (f->highlight, GUINT_TO_POINTER (event + 1)))
    return TRUE;
  if (f->search != NULL && search_matches (f, run, event))
    return TRUE;
  if (f->replay_focus < run->replays.n && in_replay (run, event, f->replay_focus))
    return TRUE;
  if (f->nvtx_focus < run->nvtx.n)
    {
      gsize r = f->nvtx_focus;

      switch (kind)
        {
          case WS_EVENT_KERNEL:
            return f->nvtx_kernels != NULL && ws_nvtx_kernels_contains (f->nvtx_kernels, r, i);
          case WS_EVENT_REPLAY:
            return replay_in_range (f, run, i, r);
          case WS_EVENT_NVTX:
            return i == r;
          case WS_EVENT_API:
            return run->api.thread[i] == run->nvtx.thread[r] &&
                   run->api.start[i] >= run->nvtx.start[r] && run->api.start[i] <= run->nvtx.end[r];
          case WS_EVENT_OSRT:
          case WS_EVENT_SAMPLE:
            return ws_event_thread (run, event) == run->nvtx.thread[r] &&
                   ws_event_start (run, event) >= run->nvtx.start[r] &&
                   ws_event_start (run, event) <= run->nvtx.end[r];
          case WS_EVENT_MEMOP:
          case WS_EVENT_MARK:
          default:
            return FALSE;
        }
    }
  return FALSE;
}

static inline guint32
track_argb (WsTimelinePaint *self, const WsTrack *track, gsize i)
{
  guint32 argb = ws_timeline_colors_event (&self->colors, track, i);

  if (self->focus && !in_focus (self, track->events[i]))
    argb = ws_timeline_argb_mix (argb, self->colors.background, 0.75);
  return argb;
}

WsColor
ws_timeline_paint_kernel_color (const WsPalette *palette)
{
  WsTimelineColors c;
  guint32 argb;

  ws_timeline_colors_init (&c, palette);
  argb = c.kernel[0];
  return (WsColor){ ((argb >> 16) & 0xff) / 255.0, ((argb >> 8) & 0xff) / 255.0,
                    (argb & 0xff) / 255.0, 1 };
}

/* ---- batches ---------------------------------------------------------- */

static void
add_rect (WsTimelinePaint *self, guint32 argb, double x, double y, double w, double h)
{
  guint slot = hash_id (argb) & (N_BUCKETS - 1);
  Bucket *b;

  while (self->buckets[slot].n > 0 && self->buckets[slot].argb != argb)
    slot = (slot + 1) & (N_BUCKETS - 1);
  b = &self->buckets[slot];
  if (b->n == 0)
    {
      /* Keep the table sparse: flush when half full. */
      if (self->n_used >= N_BUCKETS / 2)
        {
          ws_timeline_paint_end (self);
          add_rect (self, argb, x, y, w, h);
          return;
        }
      b->argb = argb;
      self->used[self->n_used++] = slot;
    }
  /* Neighbouring columns of one shade become one rectangle. */
  if (b->n > 0)
    {
      float *last = b->xywh + (b->n - 1) * 4;

      if (last[1] == (float) y && last[3] == (float) h && last[0] + last[2] == (float) x)
        {
          last[2] += (float) w;
          return;
        }
    }
  if (b->n == b->capacity)
    {
      b->capacity = MAX (64, b->capacity * 2);
      b->xywh = g_renew (float, b->xywh, b->capacity * 4);
    }
  b->xywh[b->n * 4] = (float) x;
  b->xywh[b->n * 4 + 1] = (float) y;
  b->xywh[b->n * 4 + 2] = (float) w;
  b->xywh[b->n * 4 + 3] = (float) h;
  b->n++;
}

static void
set_argb (cairo_t *cr, guint32 argb)
{
  cairo_set_source_rgba (cr, ((argb >> 16) & 0xff) / 255.0, ((argb >> 8) & 0xff) / 255.0,
                         (argb & 0xff) / 255.0, (argb >> 24) / 255.0);
}

static void
flush_rects (WsTimelinePaint *self)
{
  cairo_t *cr = self->frame.cr;

  for (guint u = 0; u < self->n_used; u++)
    {
      Bucket *b = &self->buckets[self->used[u]];

      set_argb (cr, b->argb);
      for (guint32 i = 0; i < b->n; i++)
        cairo_rectangle (cr, b->xywh[i * 4], b->xywh[i * 4 + 1], b->xywh[i * 4 + 2],
                         b->xywh[i * 4 + 3]);
      cairo_fill (cr);
      b->n = 0;
    }
  self->n_used = 0;
}

static void
flush_labels (WsTimelinePaint *self)
{
  cairo_t *cr = self->frame.cr;

  for (guint l = 0; l < self->labels->len; l++)
    {
      const PendingLabel *p = &g_array_index (self->labels, PendingLabel, l);
      LabelText *text = label_text (self, p->key, p->event);
      double luma = 0.2126 * ((p->argb >> 16) & 0xff) + 0.7152 * ((p->argb >> 8) & 0xff) +
                    0.0722 * (p->argb & 0xff);
      double ty = p->y + floor ((p->h - text->height) / 2);
      gboolean clip = text->width + 2 * LABEL_PAD > p->w;

      if (text->width == 0)
        continue;
      set_argb (cr, luma > 140 ? self->colors.dark_text : self->colors.light_text);
      if (clip)
        {
          cairo_save (cr);
          cairo_rectangle (cr, p->x + 1, p->y, p->w - 2, p->h);
          cairo_clip (cr);
        }
      cairo_move_to (cr, p->x + LABEL_PAD, ty);
      pango_cairo_show_layout (cr, text->layout);
      if (clip)
        cairo_restore (cr);
    }
  g_array_set_size (self->labels, 0);
}

/* ---- frames ----------------------------------------------------------- */

void
ws_timeline_paint_begin (WsTimelinePaint *self, const WsPaintFrame *frame)
{
  self->frame = *frame;
  self->view_start = frame->view_start;
  self->focus = frame->search != NULL || frame->nvtx_focus < self->run->nvtx.n ||
                frame->replay_focus < self->run->replays.n || frame->highlight != NULL;
  update_font (self, frame->palette);
  ws_timeline_colors_init (&self->colors, frame->palette);
}

/* The lanes painted next show their events @shift ns later than they
 * happened: a rank's lanes when the ranks are aligned on a step. */
void
ws_timeline_paint_set_shift (WsTimelinePaint *self, gint64 shift)
{
  self->frame.view_start = self->view_start - (double) shift;
}

/* Draws what is batched: rectangles, then the names over them. */
void
ws_timeline_paint_end (WsTimelinePaint *self)
{
  flush_rects (self);
  flush_labels (self);
}

/* ns (absolute) at the left edge of pixel column @c of the time axis. */
static inline gint64
column_time (const WsPaintFrame *f, gint64 c)
{
  double offset = floor (f->view_start + (double) c * f->ns_per_px);

  return ws_time_add (f->origin, (gint64) CLAMP (offset, -9e18, 9e18));
}

static inline double
x_of (const WsPaintFrame *f, gint64 t)
{
  return ((double) (t - f->origin) - f->view_start) / f->ns_per_px;
}

/**
 * ws_timeline_paint_track:
 * @labels: whether names are drawn on events wide enough for them
 *
 * Draws the events of @track in view, in the band @y .. @y + @h.  An event
 * at least a pixel wide is a rectangle of its own; where events are
 * narrower, all those starting in one pixel column become one column whose
 * shade says how much of its time they cover.  So the walk takes at most
 * one step per event drawn and one per column, each a galloping search.
 */
void
ws_timeline_paint_track (WsTimelinePaint *self, const WsTrack *track, double y, double h,
                         gboolean labels)
{
  const WsPaintFrame *f = &self->frame;
  const WsRun *run = self->run;
  gint64 width = (gint64) ceil (f->width);
  gint64 t_first = column_time (f, 0), t_last = column_time (f, width) + 1;
  gsize i;

  if (track->n == 0)
    return;
  labels = labels && h >= self->line;
  i = ws_track_first_ending_after (track, run, t_first);
  while (i < track->n)
    {
      WsEventRef event = track->events[i];
      gint64 s = ws_track_start (track, run, i), e;
      double xs, xe;

      if (s >= t_last)
        break;
      e = ws_track_end (track, run, i);
      xs = x_of (f, s);
      xe = x_of (f, e);
      if (xe - xs >= 1.0)
        {
          double rx0 = MAX (floor (xs + 0.5), -2), rx1 = MIN (floor (xe + 0.5), width + 2);
          double w = MAX (rx1 - rx0, 1);
          guint32 argb = track_argb (self, track, i);

          /* A pixel of background between neighbours wide enough to tell apart. */
          if (w >= 4)
            w -= 1;
          add_rect (self, argb, f->x0 + rx0, y, w, h);
          if (labels && w >= self->min_label_w)
            {
              PendingLabel p = { (float) (f->x0 + MAX (rx0, 0)),
                                 (float) y,
                                 (float) (MIN (rx0 + w, width) - MAX (rx0, 0)),
                                 (float) h,
                                 label_key (run, event, f->name_form),
                                 event,
                                 argb };

              if (p.w >= self->min_label_w)
                g_array_append_val (self->labels, p);
            }
          i++;
        }
      else
        {
          gint64 col = MAX ((gint64) floor (xs), 0);
          gint64 t0, t1;
          gsize j;
          double cover;
          guint level;
          guint32 argb;

          gsize b = i / WS_TRACK_BLOCK, next_block;

          if (col >= width)
            break;
          t0 = column_time (f, col);
          t1 = column_time (f, col + 1);
          next_block = ws_track_lower_block (track, MAX (t1, s + 1), b + 1);
          if (next_block >= b + 3 && t1 > t0)
            {
              /* Whole blocks start in this column: count them by block,
               * without reading their events (off by a block at most, a
               * fraction of what the column holds). */
              /* The last block may be partial: never past the last event. */
              j = MIN (next_block * WS_TRACK_BLOCK, track->n);
              cover = (double) (track->block_busy[next_block] - track->block_busy[b]) /
                      (double) (t1 - t0);
            }
          else
            {
              j = ws_track_lower_bound (track, run, MAX (t1, s + 1), i + 1);
              /* The last one may be wide: it gets its own rectangle. */
              if (j > i + 1 && x_of (f, ws_track_end (track, run, j - 1)) -
                                   x_of (f, ws_track_start (track, run, j - 1)) >=
                                 1.0)
                j--;
              cover = t1 > t0
                        ? (double) ws_track_busy (track, run, i, j, t0, t1) / (double) (t1 - t0)
                        : 1.0;
            }
          level = (guint) CLAMP (cover * (N_LEVELS - 1) + 0.5, 0, N_LEVELS - 1);
          /* The column takes the colour of the longer of its first and
           * last events: what most of it shows, without reading them all. */
          argb = track_argb (self, track,
                             j - 1 > i && track->duration[j - 1] > track->duration[i] ? j - 1 : i);
          /* The faintest shade stays visible: an event is never lost. */
          argb = (argb & 0xffffff) |
                 ((guint32) (255 * (0.35 + 0.65 * level / (N_LEVELS - 1)) + 0.5) << 24);
          add_rect (self, argb, f->x0 + (double) col, y, 1, h);
          i = j;
        }
    }
}

/* NVTX marks: a notch at the top of the band, at most one per pixel
 * column, and a line through the band where they are far apart. */
void
ws_timeline_paint_marks (WsTimelinePaint *self, const WsTrack *marks, double y, double h)
{
  const WsPaintFrame *f = &self->frame;
  const WsRun *run = self->run;
  gint64 width = (gint64) ceil (f->width);
  gint64 t_last = column_time (f, width) + 1;
  gsize i;

  if (marks->n == 0)
    return;
  i = ws_track_lower_bound (marks, run, column_time (f, 0), 0);
  while (i < marks->n)
    {
      gint64 s = ws_track_start (marks, run, i);
      gint64 col = (gint64) floor (x_of (f, s));
      guint32 argb = track_argb (self, marks, i);

      if (s >= t_last || col >= width)
        break;
      gsize next = ws_track_lower_bound (marks, run, MAX (column_time (f, col + 1), s + 1), i + 1);
      gboolean alone = next >= marks->n || x_of (f, ws_track_start (marks, run, next)) - col >= 24;

      if (alone && (i == 0 || col - x_of (f, ws_track_start (marks, run, i - 1)) >= 24))
        {
          add_rect (self, (argb & 0xffffff) | 0x80000000u, f->x0 + col, y, 1, h);
          add_rect (self, argb, f->x0 + col - 2, y, 5, 2);
          add_rect (self, argb, f->x0 + col - 1, y + 2, 3, 2);
        }
      else
        add_rect (self, (argb & 0xffffff) | 0xb0000000u, f->x0 + col, y, 1, 3);
      i = next;
    }
}

/**
 * ws_timeline_paint_series:
 * @top: the value drawn at the full height @h
 *
 * An area chart of @series: per pixel column the mean of its samples, or
 * the sample in effect where a column has none.
 */
void
ws_timeline_paint_series (WsTimelinePaint *self, const WsSeries *series, double top, double y,
                          double h, WsColor color)
{
  const WsPaintFrame *f = &self->frame;
  cairo_t *cr = f->cr;
  gint64 width = (gint64) ceil (f->width);
  gsize i = 0;
  double last_y = y + h;

  if (series->n == 0 || top <= 0)
    return;
  cairo_move_to (cr, f->x0, y + h);
  i = ws_series_lower_bound (series, column_time (f, 0), 0);
  for (gint64 c = 0; c < width; c++)
    {
      gint64 t1 = column_time (f, c + 1);
      gsize j = ws_series_lower_bound (series, t1, i);
      double v = 0, mean;
      float max;
      double py;

      if (j > i && ws_series_summarize (series, i, j, &mean, &max))
        v = mean;
      else if (i > 0)
        v = series->value[i - 1];
      py = y + h - round (CLAMP (v / top, 0, 1) * h);
      if (py != last_y || c == 0)
        {
          cairo_line_to (cr, f->x0 + c, last_y);
          cairo_line_to (cr, f->x0 + c, py);
          last_y = py;
        }
      i = j;
    }
  cairo_line_to (cr, f->x0 + width, last_y);
  cairo_line_to (cr, f->x0 + width, y + h);
  cairo_close_path (cr);
  ws_color_set_alpha (cr, color, 0.55);
  cairo_fill_preserve (cr);
  ws_color_set_alpha (cr, color, 0.9);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
}

/* How busy @tracks are together, per pixel column, as bars from the
 * bottom of the band, scaled so that the busiest column fills it (the
 * overview's GPU activity: where the work is, whatever its share). */
void
ws_timeline_paint_activity (WsTimelinePaint *self, const WsTrack *const *tracks, guint n_tracks,
                            double y, double h, WsColor color)
{
  const WsPaintFrame *f = &self->frame;
  const WsRun *run = self->run;
  gint64 width = (gint64) ceil (f->width);
  g_autofree gsize *cursor = g_new0 (gsize, MAX (n_tracks, 1));
  g_autofree double *cover = g_new0 (double, MAX (width, 1));
  guint32 argb = ws_timeline_argb (color);
  double top = 0;

  for (guint k = 0; k < n_tracks; k++)
    cursor[k] = ws_track_first_ending_after (tracks[k], run, column_time (f, 0));
  for (gint64 c = 0; c < width; c++)
    {
      gint64 t0 = column_time (f, c), t1 = column_time (f, c + 1);

      if (t1 <= t0)
        continue;
      for (guint k = 0; k < n_tracks; k++)
        {
          const WsTrack *track = tracks[k];
          gsize i = cursor[k], j;

          if (i >= track->n)
            continue;
          j = ws_track_lower_bound (track, run, t1, i);
          cover[c] += (double) ws_track_busy (track, run, i, j, t0, t1) / (double) (t1 - t0);
          /* The last event may reach into the next column. */
          cursor[k] = j > i && ws_track_end (track, run, j - 1) > t1 ? j - 1 : j;
        }
      top = MAX (top, cover[c]);
    }
  for (gint64 c = 0; c < width && top > 0; c++)
    {
      double bar = round (cover[c] / top * h);

      if (cover[c] > 0 && bar < 1)
        bar = 1;
      if (bar > 0)
        add_rect (self, argb, f->x0 + c, y + h - bar, 1, bar);
    }
}
