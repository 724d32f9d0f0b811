/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"

G_BEGIN_DECLS

GPtrArray *ws_findings_merge_digest (const WsRun *run);

G_END_DECLS
