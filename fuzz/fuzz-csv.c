/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target: the CSV tokenizer and number parsing. */
#include "config.h"

#include "ws-csv.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autoptr (GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
  char separator = size > 0 && (data[0] & 1) ? '\t' : ',';
  g_autoptr (WsCsvReader) reader =
    ws_csv_reader_new ("fuzz.csv", (const char *) data, size, separator);
  GError *error = NULL;
  double value;

  while (ws_csv_reader_next (reader, fields, &error))
    for (guint i = 0; i < fields->len; i++)
      ws_csv_parse_number (g_ptr_array_index (fields, i), &value);
  g_clear_error (&error);
  return 0;
}
