/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nsys-stats"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-csv.h"
#include "ws-nsys-stats-reader.h"
#include "ws-reader-error.h"

/* Text reports are small; anything bigger is not one. */
#define MAX_REPORT_BYTES (256 * 1024 * 1024)

/* What a column of a summary report holds, whatever the nsys version
 * called it ("Avg (ns)", "Average", "Instances", "Calls", "Num Calls", …). */
typedef enum
{
  COL_OTHER,
  COL_PERCENT,
  COL_TOTAL,
  COL_COUNT,
  COL_AVG,
  COL_MED,
  COL_MIN,
  COL_MAX,
  COL_STDDEV,
  COL_STYLE,
  COL_NAME,
} Role;

typedef struct
{
  Role role;
  double scale; /* to ns, or to bytes for (MB) */
} Column;

static gboolean
starts_with_word (const char *text, const char *word)
{
  gsize len = strlen (word);

  return g_ascii_strncasecmp (text, word, len) == 0 && !g_ascii_isalpha (text[len]);
}

/* The unit a header names in parentheses, as a factor to ns (or bytes);
 * FALSE for a unit nsys never writes ("Total Time (fortnights)"). */
static gboolean
unit_scale (const char *h, double *scale)
{
  static const struct
  {
    const char *unit;
    double scale;
  } units[] = {
    { "(ns)", 1 },  { "(us)", 1e3 }, { "(\xc2\xb5s)", 1e3 }, { "(ms)", 1e6 },
    { "(s)", 1e9 }, { "(MB)", 1e6 }, { "(B)", 1 },           { "(%)", 1 },
  };
  const char *open = strrchr (h, '(');

  *scale = 1.0;
  if (open == NULL)
    return TRUE;
  for (gsize i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_str_has_prefix (open, units[i].unit))
      {
        *scale = units[i].scale;
        return TRUE;
      }
  return FALSE;
}

static Column
classify (const char *header)
{
  Column col = { COL_OTHER, 1.0 };
  g_autofree char *h = g_strstrip (g_strdup (header));

  if (!unit_scale (h, &col.scale))
    col.scale = NAN;

  if (g_ascii_strncasecmp (h, "Time (%)", 8) == 0 || g_ascii_strncasecmp (h, "Time(%)", 7) == 0)
    col.role = COL_PERCENT;
  else if (starts_with_word (h, "Total"))
    col.role = COL_TOTAL;
  else if (starts_with_word (h, "Instances") || starts_with_word (h, "Calls") ||
           g_ascii_strncasecmp (h, "Num Calls", 9) == 0 || starts_with_word (h, "Count"))
    col.role = COL_COUNT;
  else if (starts_with_word (h, "Avg") || starts_with_word (h, "Average"))
    col.role = COL_AVG;
  else if (starts_with_word (h, "Med") || starts_with_word (h, "Median"))
    col.role = COL_MED;
  else if (starts_with_word (h, "Min") || starts_with_word (h, "Minimum"))
    col.role = COL_MIN;
  else if (starts_with_word (h, "Max") || starts_with_word (h, "Maximum"))
    col.role = COL_MAX;
  else if (starts_with_word (h, "StdDev"))
    col.role = COL_STDDEV;
  else if (g_ascii_strcasecmp (h, "Style") == 0)
    col.role = COL_STYLE;
  else if (g_ascii_strcasecmp (h, "Name") == 0 || g_ascii_strcasecmp (h, "Range") == 0 ||
           g_ascii_strcasecmp (h, "Operation") == 0)
    col.role = COL_NAME;
  return col;
}

static gboolean
has_role (const Column *cols, guint n, Role role)
{
  for (guint c = 0; c < n; c++)
    if (cols[c].role == role)
      return TRUE;
  return FALSE;
}

/* The report a file holds: its name first (nsys writes <base>_<report>.csv),
 * then its columns. */
static WsSummaryKind
report_kind (const char *path, const Column *cols, GPtrArray *headers)
{
  static const struct
  {
    const char *suffix;
    WsSummaryKind kind;
  } names[] = {
    { "cuda_gpu_kern_sum", WS_SUMMARY_KERN_SUM },
    { "gpukernsum", WS_SUMMARY_KERN_SUM },
    { "nvtx_sum", WS_SUMMARY_NVTX_SUM },
    { "nvtxsum", WS_SUMMARY_NVTX_SUM },
    { "nvtxppsum", WS_SUMMARY_NVTX_SUM },
    { "cuda_api_sum", WS_SUMMARY_API_SUM },
    { "cudaapisum", WS_SUMMARY_API_SUM },
    { "cuda_gpu_mem_time_sum", WS_SUMMARY_MEM_TIME_SUM },
    { "gpumemtimesum", WS_SUMMARY_MEM_TIME_SUM },
    { "cuda_gpu_mem_size_sum", WS_SUMMARY_MEM_SIZE_SUM },
    { "gpumemsizesum", WS_SUMMARY_MEM_SIZE_SUM },
    { "osrt_sum", WS_SUMMARY_OSRT_SUM },
    { "osrtsum", WS_SUMMARY_OSRT_SUM },
  };
  g_autofree char *base = g_path_get_basename (path);
  gboolean has_style = FALSE, has_operation = FALSE, has_mb = FALSE, num_calls = FALSE;

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    if (strstr (base, names[i].suffix) != NULL)
      return names[i].kind;

  for (guint c = 0; c < headers->len; c++)
    {
      const char *h = g_ptr_array_index (headers, c);

      has_style |= cols[c].role == COL_STYLE || strstr (h, "Range") != NULL;
      has_operation |= strstr (h, "Operation") != NULL;
      has_mb |= strstr (h, "(MB)") != NULL;
      num_calls |= strstr (h, "Num Calls") != NULL;
    }
  if (has_style)
    return WS_SUMMARY_NVTX_SUM;
  if (has_operation)
    return has_mb ? WS_SUMMARY_MEM_SIZE_SUM : WS_SUMMARY_MEM_TIME_SUM;
  if (num_calls)
    return WS_SUMMARY_API_SUM;
  return WS_SUMMARY_KERN_SUM;
}

/* A header line of a summary report, CSV or console. */
static gboolean
is_header_line (const char *line)
{
  while (*line == ' ' || *line == '"')
    line++;
  return g_str_has_prefix (line, "Time (%)") || g_str_has_prefix (line, "Time(%)") ||
         g_str_has_prefix (line, "Total (MB)") || g_str_has_prefix (line, "Total Time");
}

/* Whether the first bytes of a file look like an nsys stats summary: a
 * header line among its first lines (console output starts with NOTICE
 * and "Processing" lines). */
gboolean
ws_nsys_stats_sniff (const char *head, gsize len)
{
  g_autofree char *text = g_strndup (head, len);
  g_auto (GStrv) lines = g_strsplit (text, "\n", 40);

  for (guint i = 0; lines[i] != NULL; i++)
    if (is_header_line (lines[i]) && (strstr (lines[i], "Total") != NULL))
      return TRUE;
  return FALSE;
}

/* Numbers as the report wrote them, thousands separators and all.  A file
 * written under a locale with a decimal comma has "452904,7" in the
 * one-decimal columns: @decimal_comma says so. */
static gboolean
parse_number (const char *cell, gboolean decimal_comma, double *value)
{
  g_autofree char *copy = NULL;

  if (!decimal_comma)
    return ws_csv_parse_number (cell, value);

  /* "1.358.714,5" → "1358714.5" */
  copy = g_strdup (cell);
  {
    char *w = copy;

    for (const char *r = cell; *r != '\0'; r++)
      if (*r == ',')
        *w++ = '.';
      else if (*r != '.')
        *w++ = *r;
    *w = '\0';
  }
  return ws_csv_parse_number (copy, value);
}

/* One decimal after a comma, and nothing else: "452904,7". */
static gboolean
looks_decimal_comma (const char *cell)
{
  const char *comma = strrchr (cell, ',');

  return comma != NULL && g_ascii_isdigit (comma[1]) &&
         (comma[2] == '\0' || (g_ascii_isdigit (comma[2]) && comma[3] == '\0')) &&
         strchr (cell, '.') == NULL;
}

/* Splits a console row by the spans of the dashes line under the header. */
static GPtrArray *
split_console (const char *line, GArray *spans)
{
  GPtrArray *fields = g_ptr_array_new_with_free_func (g_free);
  glong len = g_utf8_strlen (line, -1);

  for (guint c = 0; c < spans->len; c += 2)
    {
      glong from = g_array_index (spans, glong, c);
      glong to = c + 2 < spans->len ? g_array_index (spans, glong, c + 1) : len;
      const char *a, *b;

      from = MIN (from, len);
      to = MIN (MAX (to, from), len);
      a = g_utf8_offset_to_pointer (line, from);
      b = g_utf8_offset_to_pointer (line, to);
      g_ptr_array_add (fields, g_strstrip (g_strndup (a, b - a)));
    }
  return fields;
}

static GArray *
dash_spans (const char *line)
{
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (glong));
  glong i = 0;
  gboolean in = FALSE;

  for (const char *p = line; *p != '\0'; p = g_utf8_next_char (p), i++)
    {
      if (*p == '-' && !in)
        {
          g_array_append_val (spans, i);
          in = TRUE;
        }
      else if (*p != '-' && in)
        {
          g_array_append_val (spans, i);
          in = FALSE;
        }
      else if (*p != '-' && *p != ' ' && *p != '\r')
        {
          g_array_set_size (spans, 0);
          return spans;
        }
    }
  if (in)
    g_array_append_val (spans, i);
  return spans;
}

typedef struct
{
  const char *path;
  Column *cols;
  guint n_cols;
  gboolean decimal_comma;
  WsSummary *summary;
} Parse;

#define TIME_BOUND 4611686018427387904.0 /* 2^62 */

static gboolean
add_row (Parse *p, GPtrArray *fields, guint line, GError **error)
{
  WsSummaryRow row = { 0 };
  gboolean has[COL_NAME + 1] = { FALSE };

  if (fields->len != p->n_cols)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   "%s: line %u has %u fields, its header has %u", p->path, line, fields->len,
                   p->n_cols);
      return FALSE;
    }

  row.name_id = G_MAXUINT32;
  for (guint c = 0; c < p->n_cols; c++)
    {
      const char *cell = g_ptr_array_index (fields, c);
      double v = 0;

      switch (p->cols[c].role)
        {
          /* A header may name a column twice ("Range" and "Name"): the last wins. */
          case COL_NAME:
            g_free (row.name);
            row.name = g_strdup (cell);
            has[COL_NAME] = TRUE;
            continue;
          case COL_STYLE:
            g_free (row.style);
            row.style = g_strdup (cell);
            continue;
          case COL_OTHER:
            continue;
          case COL_PERCENT:
          case COL_TOTAL:
          case COL_COUNT:
          case COL_AVG:
          case COL_MED:
          case COL_MIN:
          case COL_MAX:
          case COL_STDDEV:
          default:
            break;
        }
      if (!parse_number (cell, p->decimal_comma, &v))
        {
          g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                       "%s: line %u: “%s” is not a number", p->path, line, cell);
          g_free (row.name);
          g_free (row.style);
          return FALSE;
        }
      if (p->cols[c].role != COL_PERCENT)
        v *= p->cols[c].scale;
      /* The bound an export's times have (±2^62 ns, 146 years): past it,
       * sums and averages would overflow or print hundreds of digits. */
      if (!isfinite (v) || (p->cols[c].role != COL_PERCENT && fabs (v) > TIME_BOUND) ||
          (p->cols[c].role == COL_COUNT && v < 0))
        {
          if (p->cols[c].role == COL_COUNT)
            g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                         _ ("%s: line %u: “%s” is not an instance count (0 to 2^62)"), p->path,
                         line, cell);
          else
            g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                         _ ("%s: line %u: “%s” is beyond ±2^62 ns (146 years), a time no capture "
                            "holds"),
                         p->path, line, cell);
          g_free (row.name);
          g_free (row.style);
          return FALSE;
        }
      has[p->cols[c].role] = TRUE;
      switch (p->cols[c].role)
        {
          case COL_PERCENT:
            row.percent = v;
            break;
          case COL_TOTAL:
            row.total = (gint64) llround (CLAMP (v, -9e18, 9e18));
            break;
          case COL_COUNT:
            row.count = (gint64) llround (CLAMP (v, 0, 9e18));
            break;
          case COL_AVG:
            row.avg = v;
            break;
          case COL_MED:
            row.med = v;
            break;
          case COL_MIN:
            row.min = (gint64) llround (CLAMP (v, -9e18, 9e18));
            break;
          case COL_MAX:
            row.max = (gint64) llround (CLAMP (v, -9e18, 9e18));
            break;
          case COL_STDDEV:
            row.stddev = v;
            break;
          case COL_OTHER:
          case COL_STYLE:
          case COL_NAME:
          default:
            break;
        }
    }

  /* Older reports lack the median: the mean is the best we know. */
  if (!has[COL_MED])
    row.med = row.avg;
  if (!has[COL_AVG] && row.count > 0)
    row.avg = (double) row.total / (double) row.count;
  if (row.name == NULL)
    row.name = g_strdup ("");
  g_array_append_val (p->summary->rows, row);
  return TRUE;
}

/* The header has the columns a summary needs, each in a unit nsys writes. */
static gboolean
check_columns (const char *path, guint header_line, const Column *cols, GPtrArray *headers,
               GError **error)
{
  gboolean has_total = FALSE, has_count = FALSE;

  for (guint c = 0; c < headers->len; c++)
    {
      has_total |= cols[c].role == COL_TOTAL;
      has_count |= cols[c].role == COL_COUNT;
    }
  if (!has_total || !has_count)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   "%s: line %u: the header has no total or instance count column", path,
                   header_line);
      return FALSE;
    }
  for (guint c = 0; c < headers->len; c++)
    if (cols[c].role != COL_OTHER && cols[c].role != COL_STYLE && cols[c].role != COL_NAME &&
        isnan (cols[c].scale))
      {
        g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                     _ ("%1$s: line %2$u: column “%3$s” has a unit nsys does not write "
                        "(expected ns, us, ms, s or MB)"),
                     path, header_line, (const char *) g_ptr_array_index (headers, c));
        return FALSE;
      }
  if (!has_role (cols, headers->len, COL_NAME))
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   _ ("%1$s: line %2$u: the header has no Name column (nor Range or Operation)"),
                   path, header_line);
      return FALSE;
    }
  return TRUE;
}

/* The rows of a table as printed on the console, cut at the header's
 * dashes, up to the first blank or `**` line. */
static gboolean
parse_console_rows (Parse *p, char **lines, guint header_line, GArray *spans, GError **error)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  guint first = header_line + 1;

  for (guint i = first; lines[i] != NULL; i++)
    {
      char *line = g_strchomp (lines[i]);
      const char *text_start = line + strspn (line, " ");

      if (text_start[0] == '\0' || g_str_has_prefix (text_start, "**"))
        break;
      g_ptr_array_add (rows, split_console (line, spans));
    }
  for (guint r = 0; r < rows->len; r++)
    for (guint c = 0; c < p->n_cols; c++)
      if (p->cols[c].role == COL_AVG &&
          looks_decimal_comma (g_ptr_array_index ((GPtrArray *) g_ptr_array_index (rows, r), c)))
        p->decimal_comma = TRUE;
  for (guint r = 0; r < rows->len; r++)
    if (!add_row (p, g_ptr_array_index (rows, r), first + r + 1, error))
      return FALSE;
  return TRUE;
}

/* The CSV rows after the header, blank lines left out. */
static gboolean
parse_csv_rows (Parse *p, WsCsvReader *reader, GError **error)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GArray) line_numbers = g_array_new (FALSE, FALSE, sizeof (guint));
  GError *local_error = NULL;

  for (;;)
    {
      guint line = ws_csv_reader_line (reader);
      GPtrArray *row = g_ptr_array_new_with_free_func (g_free);

      if (!ws_csv_reader_next (reader, row, &local_error))
        {
          g_ptr_array_unref (row);
          break;
        }
      if (row->len == 1 && ((char *) g_ptr_array_index (row, 0))[0] == '\0')
        {
          g_ptr_array_unref (row);
          continue;
        }
      g_ptr_array_add (rows, row);
      g_array_append_val (line_numbers, line);
    }
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  for (guint r = 0; r < rows->len; r++)
    {
      GPtrArray *row = g_ptr_array_index (rows, r);

      for (guint c = 0; c < row->len && c < p->n_cols; c++)
        if (p->cols[c].role == COL_AVG && looks_decimal_comma (g_ptr_array_index (row, c)))
          p->decimal_comma = TRUE;
    }
  for (guint r = 0; r < rows->len; r++)
    if (!add_row (p, g_ptr_array_index (rows, r), g_array_index (line_numbers, guint, r), error))
      return FALSE;
  return TRUE;
}

/**
 * ws_nsys_stats_parse:
 *
 * Reads one `nsys stats` summary report — cuda_gpu_kern_sum, nvtx_sum,
 * cuda_api_sum, cuda_gpu_mem_time_sum or cuda_gpu_mem_size_sum — as CSV
 * (any version's header) or as printed on the console.  Times become ns,
 * sizes bytes.
 *
 * Returns: (transfer full): the summary, or %NULL with @error set.
 */
WsSummary *
ws_nsys_stats_parse (const char *path, const char *text, gsize len, GError **error)
{
  g_autoptr (WsCsvReader) reader = ws_csv_reader_new (path, text, len, ',');
  g_autoptr (GPtrArray) headers = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) spans = NULL;
  g_autofree Column *cols = NULL;
  g_autoptr (WsSummary) summary = NULL;
  g_auto (GStrv) lines = NULL;
  gboolean console = FALSE;
  gboolean skipped = FALSE;
  guint header_line = 0;
  Parse p = { path };

  /* Find the header: CSV puts it first, the console after NOTICE lines and
   * a title, with a line of dashes under it. */
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (strstr (lines[i], "SKIPPED:") != NULL && strstr (lines[i], "does not contain") != NULL)
        skipped = TRUE;
      if (!is_header_line (lines[i]))
        continue;
      header_line = i + 1;
      if (lines[i + 1] != NULL)
        {
          spans = dash_spans (lines[i + 1]);
          console = spans->len >= 4;
        }
      break;
    }
  if (header_line == 0)
    {
      if (skipped)
        g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NO_DATA,
                     "%s: nsys stats found nothing to summarise in this report (SKIPPED)", path);
      else
        g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                     "%s: not an nsys stats summary (no header line with “Total Time”)", path);
      return NULL;
    }

  if (console)
    {
      g_autoptr (GPtrArray) h = split_console (g_strchomp (lines[header_line - 1]), spans);

      g_ptr_array_extend_and_steal (headers, g_steal_pointer (&h));
    }
  else
    {
      for (guint i = 0; i + 1 < header_line; i++)
        ws_csv_reader_skip_line (reader);
      if (!ws_csv_reader_next (reader, headers, error))
        return NULL;
    }

  cols = g_new0 (Column, headers->len);
  for (guint c = 0; c < headers->len; c++)
    cols[c] = classify (g_ptr_array_index (headers, c));
  if (!check_columns (path, header_line, cols, headers, error))
    return NULL;

  summary = ws_summary_new (report_kind (path, cols, headers));
  p.cols = cols;
  p.n_cols = headers->len;
  p.summary = summary;

  if (console ? !parse_console_rows (&p, lines, header_line, spans, error)
              : !parse_csv_rows (&p, reader, error))
    return NULL;

  /* Keep the shares as nsys printed them; the total is the sum. */
  {
    gint64 grand = 0;

    for (guint i = 0; i < summary->rows->len; i++)
      grand += g_array_index (summary->rows, WsSummaryRow, i).total;
    summary->grand_total = grand;
    ws_summary_sort (summary);
  }
  return g_steal_pointer (&summary);
}

/**
 * ws_nsys_stats_read:
 *
 * Returns: (transfer full): the summary in the file at @path, or %NULL
 * with @error set.
 */
WsSummary *
ws_nsys_stats_read (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  gsize len;

  if (!ws_csv_load_file (path, MAX_REPORT_BYTES, &text, &len, error))
    return NULL;
  if (!g_utf8_validate (text, len, NULL))
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   "%s: not a text file (invalid UTF-8)", path);
      return NULL;
    }
  return ws_nsys_stats_parse (path, text, len, error);
}
