/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-nvtx-join.h"
#include "ws-run.h"

G_BEGIN_DECLS

/* The name under which a kernel report groups and prints each kernel: its
 * name in one form, or, with nsys's `:nvtx-name` argument, that name after
 * the innermost NVTX range around its launch call and a slash
 * ("sample/void at::native::…"); a kernel no range holds keeps its name
 * (docs/formats.md, "Report arguments").  Equal names have equal ids. */
typedef struct
{
  const WsRun *run;
  WsNameForm form;
  WsStringTable *strings; /* with NVTX ranges: every name; else NULL, the run's */
  guint32 *ids;           /* with NVTX ranges: per kernel, into @strings */
} WsKernelNames;

void ws_kernel_names_init (WsKernelNames *self, const WsRun *run, WsNameForm form);
void ws_kernel_names_init_nvtx (WsKernelNames *self, WsNvtxJoin *join, WsNameForm form);
void ws_kernel_names_clear (WsKernelNames *self);

guint32 ws_kernel_names_id (const WsKernelNames *self, gsize kernel);
const char *ws_kernel_names_get (const WsKernelNames *self, guint32 id);
guint ws_kernel_names_n_ids (const WsKernelNames *self);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WsKernelNames, ws_kernel_names_clear)

G_END_DECLS
