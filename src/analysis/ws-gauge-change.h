/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-comparison.h"
#include "ws-gauge.h"

G_BEGIN_DECLS

char *ws_gauge_format_change (const WsGauge *before, const WsGauge *after);
char *ws_gauge_format_delta (const WsGauge *before, const WsGauge *after);
char *ws_verdict_change_text (const WsComparison *cmp, const WsDelta *delta);
char *ws_compare_gauges_empty_text (const WsComparison *cmp);

G_END_DECLS
