/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-nvtx-kernels.h"
#include "ws-range-bottleneck.h"

G_BEGIN_DECLS

GArray *ws_range_bottleneck_project (const WsRun *run, WsNvtxKernels *nvtx_kernels);

G_END_DECLS
