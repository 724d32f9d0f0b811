/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* ws-nvprof-{runtime,driver}-names.c: names of the calls nvprof records by callback id. */
const char *ws_nvprof_runtime_name (gint64 cbid);
const char *ws_nvprof_driver_name (gint64 cbid);

G_END_DECLS
