/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-cpu-profile.h"

G_BEGIN_DECLS

/* The readers behind ws_cpu_reader_load(): each takes the whole file, NUL
 * terminated, and names @path in its messages. */
WsCpuProfile *ws_speedscope_read (const char *path, const char *data, gsize len, GError **error);
WsCpuProfile *ws_collapsed_read (const char *path, const char *data, gsize len, GError **error);
WsCpuProfile *ws_cprofile_read (const char *path, const char *data, gsize len, GError **error);

gboolean ws_collapsed_sniff (const char *head, gsize len);
gboolean ws_cprofile_sniff (const char *head, gsize len);
void ws_cpu_frame_parse (const char *label, char **name, char **file, gint32 *line);

G_END_DECLS
