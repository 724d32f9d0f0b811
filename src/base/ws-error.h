/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Errors of base: files, CSV text, JSON nesting and the resource bounds.
 * Every message names the file and what was wrong.  Each library that
 * raises errors has its own domain in its own header: WS_READER_ERROR
 * (formats), WS_TOOLS_ERROR (tools), WS_CAPTURE_ERROR (capture),
 * WS_LOADER_ERROR (loader). */
#define WS_BASE_ERROR (ws_base_error_quark ())

typedef enum
{
  WS_BASE_ERROR_NOT_FOUND, /* the file or folder does not exist or cannot be reached */
  WS_BASE_ERROR_EMPTY,     /* zero bytes */
  WS_BASE_ERROR_FORMAT,    /* not a regular file, bad CSV quoting, JSON nested too deep */
  WS_BASE_ERROR_TOO_LARGE, /* over a stated resource bound (bytes, rows, memory) */
  WS_BASE_ERROR_FAILED,    /* anything else the system reported */
} WsBaseError;

GQuark ws_base_error_quark (void);

G_END_DECLS
