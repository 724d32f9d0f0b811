/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"

G_BEGIN_DECLS

WsCaptureRecord *ws_manifest_read (const char *path, GError **error);

G_END_DECLS
