/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Progress of a long step (a load, a report's conversion): @fraction in
 * [0, 1], @what names what is being done ("Reading StringIds").  Called on
 * the working thread by the synchronous functions; the async API of the
 * loader delivers it on the caller's main context. */
typedef void (*WsProgressFunc) (double fraction, const char *what, gpointer user_data);

G_END_DECLS
