/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Errors of tools: finding and running nsys and ncu, converting their
 * reports, ssh connections and copies. */
#define WS_TOOLS_ERROR (ws_tools_error_quark ())

typedef enum
{
  WS_TOOLS_ERROR_INVALID,      /* a host, a path or a setting given to a tool is not valid */
  WS_TOOLS_ERROR_TOOL_MISSING, /* nsys or ncu cannot be found or run */
  WS_TOOLS_ERROR_IO,           /* a folder or file cannot be created or written */
  WS_TOOLS_ERROR_TIMEOUT,      /* a tool did not answer in time */
  WS_TOOLS_ERROR_HOST_KEY,     /* ssh: the host's key is unknown or changed */
  WS_TOOLS_ERROR_CONNECTION,   /* ssh: cannot connect, not let in, or the connection was lost */
  WS_TOOLS_ERROR_NO_TOOL,      /* a report needs nsys or ncu, which is not installed */
  WS_TOOLS_ERROR_CONVERT,      /* nsys export or ncu --import failed on a report */
  WS_TOOLS_ERROR_EMPTY,        /* a conversion wrote an empty file */
  WS_TOOLS_ERROR_FORMAT,       /* a tool's output is not what it should be */
  WS_TOOLS_ERROR_FAILED,       /* anything else the system reported */
} WsToolsError;

GQuark ws_tools_error_quark (void);

G_END_DECLS
