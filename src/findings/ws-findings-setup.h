/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"
#include "ws-steps.h"

G_BEGIN_DECLS

char *ws_findings_setup_line (const WsRun *run, const WsSteps *steps);

G_END_DECLS
