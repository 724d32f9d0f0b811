/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-run.h"

G_BEGIN_DECLS

void ws_test_assert_same_run (const WsRun *a, const WsRun *b);

G_END_DECLS
