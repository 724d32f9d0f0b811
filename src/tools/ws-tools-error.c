/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-tools-error"
#include "config.h"

#include "ws-tools-error.h"

/* The quark's string is the first argument as written: clang-format would
 * space its dashes and so change it. */
/* clang-format off */
G_DEFINE_QUARK (ws-tools-error-quark, ws_tools_error)
/* clang-format on */
