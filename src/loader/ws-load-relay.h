/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-progress.h"

G_BEGIN_DECLS

/* What a load on a worker thread tells its caller (progress, a rank read)
 * crosses to the caller's main context through a relay that outlives
 * both; deliveries after the load finished or was cancelled are dropped (a
 * window that cancels as it goes must not hear of the load again). */
typedef struct _WsLoadRelay WsLoadRelay;

WsLoadRelay *ws_load_relay_new (WsProgressFunc func, gpointer data, GDestroyNotify notify,
                                GCancellable *cancellable);
WsLoadRelay *ws_load_relay_ref (WsLoadRelay *relay);
void ws_load_relay_unref (WsLoadRelay *relay);
void ws_load_relay_finish (WsLoadRelay *relay);
void ws_load_relay_progress (double fraction, const char *what, gpointer relay);
void ws_load_relay_invoke (WsLoadRelay *relay, GSourceFunc func, gpointer data,
                           GDestroyNotify destroy);
gpointer ws_load_relay_get_data (WsLoadRelay *relay);

G_END_DECLS
