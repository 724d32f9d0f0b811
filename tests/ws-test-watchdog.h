/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void ws_test_watchdog_arm (guint seconds, const char *what);
void ws_test_watchdog_disarm (void);

G_END_DECLS
