/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What the table of inputs (ws-input.c) knows of nvprof's files; their
 * readers are in src/nvprof. */
gboolean ws_nvprof_reader_sniff (const char *path);
gboolean ws_nvprof_reader_sniff_head (const char *path, const char *head, gsize len,
                                      GError **error);
gboolean ws_nvprof_log_sniff (const char *head, gsize len);
gboolean ws_nvprof_trace_sniff (const char *head, gsize len);
gboolean ws_nvprof_pid_line (const char *line, guint32 *pid, const char **rest);

G_END_DECLS
