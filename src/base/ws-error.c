/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-error"
#include "config.h"

#include "ws-error.h"

/* The quark's string is the first argument as written: clang-format would
 * space its dashes and so change it. */
/* clang-format off */
G_DEFINE_QUARK (ws-base-error-quark, ws_base_error)
/* clang-format on */
