/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The deepest nesting of arrays and objects a JSON input may have: json-glib
 * parses by recursion, so a deeper file would exhaust the stack. */
#define WS_JSON_MAX_DEPTH 256

/* A capture's run.json is a few KiB; anything near this is not one. */
#define WS_JSON_MANIFEST_MAX_BYTES ((gsize) 64 << 20)

gboolean ws_json_check_depth (const char *path, const char *data, gsize len, guint max_depth,
                              GError **error);
gboolean ws_json_read_file (const char *path, gsize max_bytes, char **contents, gsize *len,
                            GError **error);

G_END_DECLS
