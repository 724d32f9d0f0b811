/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* JSON as text, for what Warpscope writes: numbers as the shortest decimal
 * that reads back to the same double (json-glib prints 17 digits:
 * 35.170000000000002), strings escaped.  Plain GLib, no tree of nodes. */

#define WS_JSON_DOUBLE_BUF 32

const char *ws_json_format_double (char buf[WS_JSON_DOUBLE_BUF], double value);
void ws_json_append_double (GString *out, double value);
void ws_json_append_string (GString *out, const char *text);
void ws_json_append_micros (GString *out, gint64 ns);

G_END_DECLS
