/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Errors of the launcher (capture): targets files, settings, capture runs.
 * What nsys, ncu and ssh report comes from tools, WS_TOOLS_ERROR. */
#define WS_CAPTURE_ERROR (ws_capture_error_quark ())

typedef enum
{
  WS_CAPTURE_ERROR_INVALID,     /* a targets file or row, a setting or a manifest is not valid */
  WS_CAPTURE_ERROR_IO,          /* a folder or file cannot be created or written */
  WS_CAPTURE_ERROR_STEP_FAILED, /* a capture step failed */
} WsCaptureError;

GQuark ws_capture_error_quark (void);

G_END_DECLS
