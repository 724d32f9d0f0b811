/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-critical-path.h"

G_BEGIN_DECLS

#define WS_TYPE_CRITICAL_PATH_PAGE (ws_critical_path_page_get_type ())

G_DECLARE_FINAL_TYPE (WsCriticalPathPage, ws_critical_path_page, WS, CRITICAL_PATH_PAGE, GtkBox)

/* What a row of the page's table is. */
typedef enum
{
  WS_CP_ROW_KERNEL,
  WS_CP_ROW_RANGE,
  WS_CP_ROW_RANK,
} WsCpRowGroup;

void ws_critical_path_page_set_path (WsCriticalPathPage *self, WsRun *run, WsCriticalPath *cp);
const WsCriticalPath *ws_critical_path_page_get_path (WsCriticalPathPage *self);
GtkTreeModel *ws_critical_path_page_get_model (WsCriticalPathPage *self);
GtkTreeModel *ws_critical_path_page_get_kinds (WsCriticalPathPage *self);
void ws_critical_path_page_predict (WsCriticalPathPage *self, const char *change);
const char *ws_critical_path_page_get_prediction (WsCriticalPathPage *self);
const char *ws_critical_path_page_get_headline (WsCriticalPathPage *self);

G_END_DECLS
