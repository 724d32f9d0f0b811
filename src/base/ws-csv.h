/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* An RFC 4180 tokenizer over text in memory: quoted fields with doubled
 * quotes, CRLF or LF line ends, newlines inside quotes.  Bounded: a row of
 * more than WS_CSV_MAX_FIELDS fields or a field over WS_CSV_MAX_FIELD_BYTES
 * is an error, not an allocation. */
#define WS_CSV_MAX_FIELDS 200000
#define WS_CSV_MAX_FIELD_BYTES (16 * 1024 * 1024)

typedef struct _WsCsvReader WsCsvReader;

WsCsvReader *ws_csv_reader_new (const char *path, const char *data, gsize len, char separator);
void ws_csv_reader_free (WsCsvReader *self);
gboolean ws_csv_reader_next (WsCsvReader *self, GPtrArray *fields, GError **error);
guint ws_csv_reader_line (const WsCsvReader *self);
gboolean ws_csv_reader_skip_line (WsCsvReader *self);
void ws_csv_reader_seek_line (WsCsvReader *self, const char *line_start, guint line);

gboolean ws_csv_load_file (const char *path, gsize max_bytes, char **contents, gsize *len,
                           GError **error);
gboolean ws_csv_parse_number (const char *cell, double *value);
gboolean ws_csv_parse_number_scaled (const char *cell, double scale, double *value);
gboolean ws_csv_is_missing (const char *cell);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCsvReader, ws_csv_reader_free)

G_END_DECLS
