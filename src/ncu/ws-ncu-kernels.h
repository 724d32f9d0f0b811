/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"

G_BEGIN_DECLS

gint32 *ws_ncu_kernel_launches (const WsRun *run);

G_END_DECLS
