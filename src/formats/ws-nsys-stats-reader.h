/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-summary.h"

G_BEGIN_DECLS

gboolean ws_nsys_stats_sniff (const char *head, gsize len);
WsSummary *ws_nsys_stats_read (const char *path, GError **error);
WsSummary *ws_nsys_stats_parse (const char *path, const char *text, gsize len, GError **error);

G_END_DECLS
