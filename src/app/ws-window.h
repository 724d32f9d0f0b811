/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-findings-page.h"
#include "ws-overview.h"
#include "ws-run.h"
#include "ws-steps-page.h"
#include "ws-timeline-page.h"

G_BEGIN_DECLS

#define WS_TYPE_WINDOW (ws_window_get_type ())

G_DECLARE_FINAL_TYPE (WsWindow, ws_window, WS, WINDOW, GtkApplicationWindow)

/* What ws_window_export() writes. */
typedef enum
{
  WS_WINDOW_EXPORT_CHART,        /* the kernel bars as on show: PNG, SVG or PDF */
  WS_WINDOW_EXPORT_CSV,          /* the summaries as nsys stats CSVs, into a folder */
  WS_WINDOW_EXPORT_MARKDOWN,     /* a Markdown report, its figures in figs/ beside it */
  WS_WINDOW_EXPORT_CHROME_TRACE, /* the run as a Chrome trace */
} WsWindowExport;

WsWindow *ws_window_new (GtkApplication *application);
void ws_window_load (WsWindow *self, const char *const *paths);
gboolean ws_window_is_loading (WsWindow *self);
WsRun *ws_window_get_run (WsWindow *self);
WsRun *ws_window_get_shown_run (WsWindow *self);
void ws_window_set_steady (WsWindow *self, gboolean steady);
gboolean ws_window_has_steps (WsWindow *self);
WsStepsPage *ws_window_get_steps_page (WsWindow *self);
WsFindingsPage *ws_window_get_findings_page (WsWindow *self);
WsTimelinePage *ws_window_get_timeline_page (WsWindow *self);
const char *ws_window_get_page (WsWindow *self);
const char *ws_window_get_error (WsWindow *self);
GtkWidget *ws_window_get_kernels_page (WsWindow *self);
GtkWidget *ws_window_get_view (WsWindow *self, const char *name);
void ws_window_export (WsWindow *self, WsWindowExport kind, const char *path);
const char *ws_window_get_export_message (WsWindow *self);
void ws_window_set_digest_folder (WsWindow *self, const char *folder);
const char *ws_window_get_digest_message (WsWindow *self);
void ws_window_offer_compare (WsWindow *self, const char *message, const char *before,
                              const char *after);
const char *ws_window_get_runs_message (WsWindow *self);

/* Exports of at least this many bytes draw a first frame before their
 * whole load (docs/first-frame.md): about 250,000 kernels. */
#define WS_WINDOW_OVERVIEW_MIN_SIZE (G_GUINT64_CONSTANT (32) << 20)

void ws_window_set_overview_min_size (WsWindow *self, guint64 bytes);
const WsOverview *ws_window_get_overview (WsWindow *self);
void ws_window_runs_bar_compare (WsWindow *self);

G_END_DECLS
