/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void ws_format_fixed (GString *out, double value, int decimals, gboolean grouping);
void ws_format_int (GString *out, gint64 value, gboolean grouping);
char *ws_format_count (gint64 value);
char *ws_format_fixed_string (double value, int decimals);
char *ws_format_duration (double ns);
char *ws_format_bytes (double bytes);
char *ws_format_percent_short (double value);
char *ws_format_rate (double value, const char *unit);
void ws_csv_append_field (GString *out, const char *field);
char *ws_format_escape_control (const char *text);
char *ws_format_escape_terminal (const char *text);
gboolean ws_format_is_terminal_safe (const char *text, gboolean keep_lines);
char *ws_format_ellipsize_middle (const char *text, guint max_chars);
guint ws_format_columns (const char *text);
void ws_format_append_wrapped (GString *out, const char *first, const char *indent,
                               const char *text, guint width);

G_END_DECLS
