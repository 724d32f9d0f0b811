/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-error"
#include "config.h"

#include "ws-error.h"

G_DEFINE_QUARK (ws - reader - error - quark, ws_reader_error)
G_DEFINE_QUARK (ws - capture - error - quark, ws_capture_error)
