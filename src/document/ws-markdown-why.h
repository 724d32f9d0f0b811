/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-run.h"

G_BEGIN_DECLS

gboolean ws_markdown_why_append (GString *out, const WsRun *run, const char *figs, const char *base,
                                 guint top, GError **error);

G_END_DECLS
