/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-timeline"
#include "config.h"

#include "ws-timeline-colors.h"

guint32
ws_timeline_argb (WsColor c)
{
  return 0xff000000u | ((guint32) CLAMP (c.r * 255 + 0.5, 0, 255) << 16) |
         ((guint32) CLAMP (c.g * 255 + 0.5, 0, 255) << 8) |
         (guint32) CLAMP (c.b * 255 + 0.5, 0, 255);
}

/* @a moved @t of the way to @b. */
guint32
ws_timeline_argb_mix (guint32 a, guint32 b, double t)
{
  guint32 out = 0xff000000u;

  for (int shift = 0; shift <= 16; shift += 8)
    {
      double x = (a >> shift) & 0xff, y = (b >> shift) & 0xff;

      out |= (guint32) (x + (y - x) * t + 0.5) << shift;
    }
  return out;
}

void
ws_timeline_colors_init (WsTimelineColors *c, const WsPalette *palette)
{
  static const guint32 kernel_light[] = {
    0x3584e4, 0x1c71d8, 0x5a9be8, 0x1a5fb4, 0x4a8ed8, 0x2f6fbf
  };
  static const guint32 kernel_dark[] = {
    0x62a0ea, 0x3584e4, 0x81b3ef, 0x4a8fe0, 0x99c1f1, 0x5b95dd
  };
  static const guint32 nvtx_light[] = { 0x8ff0a4, 0xf9f06b, 0xffbe6f, 0xdc8add,
                                        0x99c1f1, 0xf5a39b, 0x93ddc2, 0xcdab8f };
  static const guint32 nvtx_dark[] = { 0x26a269, 0xc9b600, 0xc66b00, 0x9141ac,
                                       0x1c71d8, 0xc01c28, 0x218787, 0x865e3c };
  static const guint32 sample_light[] = { 0xffbe6f, 0xffa348, 0xf9c06b, 0xf0a050 };
  static const guint32 sample_dark[] = { 0xc64600, 0xe66100, 0xb05a10, 0xd07020 };
  /* Graph replays in teal: GPU work, and none of the kernels' blues or
   * the copies' colours. */
  static const guint32 replay_light[] = { 0x138a8a, 0x1f9e9e, 0x0e7272, 0x2aa8a0 };
  static const guint32 replay_dark[] = { 0x33c7c7, 0x52d3cf, 0x26aeae, 0x6adcd6 };
  gboolean dark = palette->dark;

  for (guint i = 0; i < G_N_ELEMENTS (c->sample); i++)
    c->sample[i] = 0xff000000u | (dark ? sample_dark[i] : sample_light[i]);
  for (guint i = 0; i < G_N_ELEMENTS (c->replay); i++)
    c->replay[i] = 0xff000000u | (dark ? replay_dark[i] : replay_light[i]);
  for (guint i = 0; i < G_N_ELEMENTS (c->kernel); i++)
    c->kernel[i] = 0xff000000u | (dark ? kernel_dark[i] : kernel_light[i]);
  for (guint i = 0; i < G_N_ELEMENTS (c->nvtx); i++)
    c->nvtx[i] = 0xff000000u | (dark ? nvtx_dark[i] : nvtx_light[i]);
  c->htod = 0xff000000u | (dark ? 0x57e389 : 0x2ec27e);
  c->dtoh = 0xff000000u | (dark ? 0xf66151 : 0xe01b24);
  c->dtod = 0xff000000u | (dark ? 0xc061cb : 0x9141ac);
  c->ptop = 0xff000000u | (dark ? 0xf8e45c : 0xe5a50a);
  c->memcpy_other = 0xff000000u | (dark ? 0xcdab8f : 0x986a44);
  c->memset = 0xff000000u | (dark ? 0xdeddda : 0x77767b);
  c->api[WS_API_OTHER] = 0xff000000u | (dark ? 0x77767b : 0xc0bfbc);
  c->api[WS_API_LAUNCH] = 0xff000000u | (dark ? 0x3d8fd6 : 0x99c1f1);
  c->api[WS_API_SYNC] = 0xff000000u | (dark ? 0xe01b24 : 0xf66151);
  c->api[WS_API_MEMORY] = 0xff000000u | (dark ? 0xe66100 : 0xffa348);
  /* OS runtime calls: waiting in brown, moving data in teal, the rest grey. */
  c->osrt[WS_OSRT_OTHER] = 0xff000000u | (dark ? 0x5e5c64 : 0xdeddda);
  c->osrt[WS_OSRT_WAIT] = 0xff000000u | (dark ? 0x865e3c : 0xcdab8f);
  c->osrt[WS_OSRT_IO] = 0xff000000u | (dark ? 0x218787 : 0x93ddc2);
  c->mark = ws_timeline_argb (palette->foreground);
  c->background = ws_timeline_argb (palette->background);
  c->dark_text = 0xff241f31;
  c->light_text = 0xffffffff;
}

/* The colour of event @i of @track, from its style byte (ws_track_finish()):
 * no read of the run. */
guint32
ws_timeline_colors_event (const WsTimelineColors *c, const WsTrack *track, gsize i)
{
  guint8 style = track->style[i];

  switch (ws_event_ref_kind (track->events[i]))
    {
      case WS_EVENT_KERNEL:
        return c->kernel[style % G_N_ELEMENTS (c->kernel)];
      case WS_EVENT_MEMOP:
        switch (style)
          {
            case WS_MEMOP_HTOD:
            case WS_MEMOP_UVM_HTOD:
            case WS_MEMOP_HTOA:
              return c->htod;
            case WS_MEMOP_DTOH:
            case WS_MEMOP_UVM_DTOH:
            case WS_MEMOP_ATOH:
              return c->dtoh;
            case WS_MEMOP_DTOD:
            case WS_MEMOP_UVM_DTOD:
            case WS_MEMOP_ATOA:
            case WS_MEMOP_ATOD:
            case WS_MEMOP_DTOA:
              return c->dtod;
            case WS_MEMOP_PTOP:
              return c->ptop;
            case WS_MEMOP_MEMSET:
              return c->memset;
            default:
              return c->memcpy_other;
          }
      case WS_EVENT_API:
        return c->api[MIN (style, WS_API_MEMORY)];
      case WS_EVENT_OSRT:
        return c->osrt[MIN (style, WS_OSRT_IO)];
      case WS_EVENT_SAMPLE:
        return c->sample[style % G_N_ELEMENTS (c->sample)];
      case WS_EVENT_REPLAY:
        return c->replay[style % G_N_ELEMENTS (c->replay)];
      case WS_EVENT_NVTX:
      case WS_EVENT_MARK:
      default:
        if ((style & WS_TRACK_STYLE_COLOR) && (style & ~WS_TRACK_STYLE_COLOR) < track->n_colors)
          return track->colors[style & ~WS_TRACK_STYLE_COLOR];
        if (ws_event_ref_kind (track->events[i]) == WS_EVENT_MARK)
          return c->mark;
        return c->nvtx[style % G_N_ELEMENTS (c->nvtx)];
    }
}
