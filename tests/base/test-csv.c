/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-csv.h"
#include "ws-error.h"
#include "ws-format.h"

static GPtrArray *
row (WsCsvReader *reader)
{
  GPtrArray *fields = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;

  g_assert_true (ws_csv_reader_next (reader, fields, &error));
  g_assert_no_error (error);
  return fields;
}

static void
test_quotes_and_line_ends (void)
{
  const char *text = "\xEF\xBB\xBF"
                     "a,\"b, c\",\"say \"\"hi\"\"\"\r\n"
                     "\"two\nlines\",,x\n"
                     "last,";
  g_autoptr (WsCsvReader) reader = ws_csv_reader_new ("t.csv", text, strlen (text), ',');
  g_autoptr (GPtrArray) r1 = row (reader);
  g_autoptr (GPtrArray) r2 = NULL;
  g_autoptr (GPtrArray) r3 = NULL;
  g_autoptr (GPtrArray) end = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;

  g_assert_cmpuint (r1->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (r1, 0), ==, "a");
  g_assert_cmpstr (g_ptr_array_index (r1, 1), ==, "b, c");
  g_assert_cmpstr (g_ptr_array_index (r1, 2), ==, "say \"hi\"");
  g_assert_cmpuint (ws_csv_reader_line (reader), ==, 2);

  r2 = row (reader);
  g_assert_cmpuint (r2->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (r2, 0), ==, "two\nlines");
  g_assert_cmpstr (g_ptr_array_index (r2, 1), ==, "");
  g_assert_cmpuint (ws_csv_reader_line (reader), ==, 4);

  r3 = row (reader);
  g_assert_cmpuint (r3->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (r3, 1), ==, "");

  g_assert_false (ws_csv_reader_next (reader, end, &error));
  g_assert_no_error (error);
}

static void
test_unterminated_quote (void)
{
  const char *text = "a,b\n\"never closed,c\n";
  g_autoptr (WsCsvReader) reader = ws_csv_reader_new ("broken.csv", text, strlen (text), ',');
  g_autoptr (GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) first = row (reader);
  g_autoptr (GError) error = NULL;

  g_assert_false (ws_csv_reader_next (reader, fields, &error));
  g_assert_error (error, WS_BASE_ERROR, WS_BASE_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "broken.csv: line 2"));
}

/* A header of a million columns is refused with a message, not allocated. */
static void
test_too_many_fields (void)
{
  gsize n = 1000000;
  g_autofree char *text = g_malloc (n * 2 + 1);
  g_autoptr (WsCsvReader) reader = NULL;
  g_autoptr (GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;

  for (gsize i = 0; i < n; i++)
    {
      text[2 * i] = 'x';
      text[2 * i + 1] = ',';
    }
  text[2 * n] = '\0';
  reader = ws_csv_reader_new ("wide.csv", text, 2 * n, ',');
  g_assert_false (ws_csv_reader_next (reader, fields, &error));
  g_assert_error (error, WS_BASE_ERROR, WS_BASE_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "wide.csv: line 1 has more than"));
}

static void
test_tabs (void)
{
  const char *text = "NAME\tCMD\tWORKDIR\tENVS\nbert\tpython infer.py --bs 8\t./models\tA=1,B=2\n";
  g_autoptr (WsCsvReader) reader = ws_csv_reader_new ("t.tsv", text, strlen (text), '\t');
  g_autoptr (GPtrArray) header = row (reader);
  g_autoptr (GPtrArray) body = row (reader);

  g_assert_cmpuint (header->len, ==, 4);
  g_assert_cmpstr (g_ptr_array_index (body, 3), ==, "A=1,B=2");
}

static void
test_numbers (void)
{
  double v = 0;

  g_assert_true (ws_csv_parse_number ("13,485", &v));
  g_assert_cmpfloat (v, ==, 13485);
  g_assert_true (ws_csv_parse_number ("381.792000", &v));
  g_assert_cmpfloat (v, ==, 381.792);
  g_assert_true (ws_csv_parse_number ("1,234.50", &v));
  g_assert_cmpfloat (v, ==, 1234.5);
  g_assert_true (ws_csv_parse_number ("0 (0; 0; 0)", &v));
  g_assert_cmpfloat (v, ==, 0);
  g_assert_true (ws_csv_parse_number ("1.5e+06", &v));
  g_assert_cmpfloat (v, ==, 1.5e6);
  g_assert_false (ws_csv_parse_number ("n/a", &v));
  g_assert_false (ws_csv_parse_number ("nan", &v));
  g_assert_false (ws_csv_parse_number ("no data", &v));
  g_assert_false (ws_csv_parse_number ("", &v));
  g_assert_false (ws_csv_parse_number ("abc", &v));
  g_assert_false (ws_csv_parse_number ("12abc", &v));
}

/* A name for a terminal shows its control characters as escapes (ESC,
 * BEL, line breaks, C1, bytes that are not UTF-8), keeps the rest —
 * CJK, backslashes — and is the same when escaped twice; a CSV field
 * keeps the name exact. */
static void
test_terminal_escapes (void)
{
  const char *name = "k\x1b[2J\x1b]0;title\x07<a\nb\tc\rd\x7f\xc2\x9b\xff\\x 核>";
  g_autofree char *shown = ws_format_escape_control (name);
  g_autofree char *twice = ws_format_escape_control (shown);
  g_autoptr (GString) csv = g_string_new (NULL);

  g_assert_cmpstr (shown, ==, "k\\x1b[2J\\x1b]0;title\\x07<a\\nb\\tc\\rd\\x7f\\u009b\\xff\\x 核>");
  g_assert_cmpstr (twice, ==, shown);
  ws_csv_append_field (csv, name);
  g_assert_nonnull (strstr (csv->str, name));
}

/* A unit's power of ten moves the decimal point: 260.48 us is 260480 ns
 * exactly, where 260.48 * 1000 in doubles is 260480.00000000003. */
static void
test_numbers_scaled (void)
{
  double v = 0;

  g_assert_cmpfloat (260.48 * 1000, !=, 260480.0);
  g_assert_true (ws_csv_parse_number_scaled ("260.48", 1e3, &v));
  g_assert_cmpfloat (v, ==, 260480.0);
  g_assert_true (ws_csv_parse_number_scaled ("129.02", 1e3, &v));
  g_assert_cmpfloat (v, ==, 129020.0);
  g_assert_true (ws_csv_parse_number_scaled ("1,234.567", 1e6, &v));
  g_assert_cmpfloat (v, ==, 1234567000.0);
  g_assert_true (ws_csv_parse_number_scaled ("1.5e+06", 1e3, &v));
  g_assert_cmpfloat (v, ==, 1.5e9);
  g_assert_true (ws_csv_parse_number_scaled ("0.1", 1e-3, &v));
  g_assert_cmpfloat (v, ==, 1e-4);
  /* Not a power of ten: a product, as before. */
  g_assert_true (ws_csv_parse_number_scaled ("2", 1024, &v));
  g_assert_cmpfloat (v, ==, 2048);
  g_assert_false (ws_csv_parse_number_scaled ("n/a", 1e3, &v));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/csv/quotes-and-line-ends", test_quotes_and_line_ends);
  g_test_add_func ("/csv/unterminated-quote-names-line", test_unterminated_quote);
  g_test_add_func ("/csv/million-columns-refused", test_too_many_fields);
  g_test_add_func ("/csv/tab-separated", test_tabs);
  g_test_add_func ("/csv/numbers", test_numbers);
  g_test_add_func ("/csv/terminal-escapes-csv-exact", test_terminal_escapes);
  g_test_add_func ("/csv/numbers-scaled-exactly", test_numbers_scaled);

  return g_test_run ();
}
