/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-loader-error"
#include "config.h"

#include "ws-loader-error.h"

/* The quark's string is the first argument as written: clang-format would
 * space its dashes and so change it. */
/* clang-format off */
G_DEFINE_QUARK (ws-loader-error-quark, ws_loader_error)
/* clang-format on */
