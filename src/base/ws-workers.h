/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The most worker threads one read uses. */
#define WS_WORKERS_MAX 16

gboolean ws_workers_forced (guint *n);
guint ws_workers_cores (void);
guint ws_workers_take (guint want);
void ws_workers_give (guint n);

G_END_DECLS
