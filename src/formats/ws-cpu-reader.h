/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-cpu-profile.h"

G_BEGIN_DECLS

/* CPU profiles from Python's profilers and the FlameGraph tools. */
typedef enum
{
  WS_CPU_FORMAT_NONE,
  WS_CPU_FORMAT_SPEEDSCOPE, /* speedscope JSON: py-spy --format speedscope, pyinstrument, … */
  WS_CPU_FORMAT_COLLAPSED,  /* `frame;frame;frame COUNT`: py-spy --format raw, stackcollapse-* */
  WS_CPU_FORMAT_CPROFILE,   /* cProfile / pstats text: `python -m cProfile -s …` */
} WsCpuFormat;

WsCpuFormat ws_cpu_reader_sniff (const char *path, const char *head, gsize len, GError **error);
WsCpuProfile *ws_cpu_reader_load (const char *path, GError **error);
WsCpuProfile *ws_cpu_reader_load_data (const char *path, const char *data, gsize len,
                                       GError **error);

G_END_DECLS
