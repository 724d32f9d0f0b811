/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nvprof-log"
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-csv.h"
#include "ws-input-nvprof.h"
#include "ws-nvprof-log.h"
#include "ws-nvprof-metrics.h"
#include "ws-reader-error.h"

/* nvprof's console output (`nvprof ./app`, CUDA ≤ 10) and its `--csv`
 * form: per profiled process, `==PID== Profiling result:` then a table of
 * "GPU activities" and "API calls" (Time(%), Time, Calls, Avg, Min, Max,
 * Name), then possibly `==PID== Unified Memory profiling result:`.  The
 * text form writes a unit into each time cell ("159.25ms", "610ns"); the
 * CSV form writes bare numbers and a units row under the header
 * (`,%,ms,,us,us,ms,`).  Older nvprof (≤ 7) has no Type column and starts
 * the API table with `==PID== API calls:`. */

#define MAX_BYTES (256u << 20)

typedef enum
{
  MODE_NONE,
  MODE_RESULT, /* after "Profiling result:", before a header */
  MODE_TABLE,  /* text rows */
  MODE_UNITS,  /* the CSV units row is next */
  MODE_CSV,    /* CSV rows */
  MODE_UNIFIED,
  MODE_METRICS, /* a `Metric result:` or `Event result:` block: ws-nvprof-metrics.c reads it */
} Mode;

enum
{
  COL_TYPE,
  COL_PERCENT,
  COL_TIME,
  COL_CALLS,
  COL_AVG,
  COL_MIN,
  COL_MAX,
  COL_NAME,
  N_COLS
};

typedef struct
{
  const char *path;
  GPtrArray *results;
  WsNvprofResult *current;
  Mode mode;
  gboolean api_section; /* no Type column: after "==PID== API calls:" */
  int csv_col[N_COLS];  /* CSV: column of each, or -1 */
  double csv_scale[N_COLS];
  guint line;
  WsNvprofMetrics *metrics; /* the metric and event blocks, made at the first */
} Parser;

void
ws_nvprof_result_free (WsNvprofResult *result)
{
  if (result == NULL)
    return;
  g_free (result->command);
  g_clear_pointer (&result->kernels, ws_summary_unref);
  g_clear_pointer (&result->memops, ws_summary_unref);
  g_clear_pointer (&result->api, ws_summary_unref);
  g_clear_pointer (&result->unified, g_ptr_array_unref);
  g_free (result);
}

/* Splits one CSV line ("a","b,c",,d) into unquoted cells. */
static GPtrArray *
split_csv (const char *line)
{
  GPtrArray *cells = g_ptr_array_new_with_free_func (g_free);
  GString *cell = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = line;; p++)
    {
      if (*p == '\0' || (*p == ',' && !quoted))
        {
          g_ptr_array_add (cells, g_string_free (g_steal_pointer (&cell), FALSE));
          if (*p == '\0')
            break;
          cell = g_string_new (NULL);
        }
      else if (*p == '"' && quoted && p[1] == '"')
        g_string_append_c (cell, *p++);
      else if (*p == '"')
        quoted = !quoted;
      else
        g_string_append_c (cell, *p);
    }
  return cells;
}

/* ns per unit; 0 for an unknown unit, 1 for none. */
static double
unit_scale (const char *unit)
{
  if (*unit == '\0')
    return 1.0;
  if (strcmp (unit, "ns") == 0)
    return 1.0;
  if (strcmp (unit, "us") == 0 || strcmp (unit, "\xc2\xb5s") == 0)
    return 1e3;
  if (strcmp (unit, "ms") == 0)
    return 1e6;
  if (strcmp (unit, "s") == 0)
    return 1e9;
  if (strcmp (unit, "%") == 0)
    return 1.0;
  return 0.0;
}

/* A cell: a number, then (text form) its unit; @scale is the column's
 * unit from the units row (CSV), or 0 to read it from the cell. */
static gboolean
parse_value (const char *cell, double scale, double *out)
{
  char *end;
  double v;

  cell += strspn (cell, " ");
  v = g_ascii_strtod (cell, &end);
  if (end == cell || !isfinite (v) || v < 0)
    return FALSE;
  if (scale == 0.0)
    {
      g_autofree char *unit = g_strstrip (g_strdup (end));

      scale = unit_scale (unit);
      if (scale == 0.0)
        return FALSE;
    }
  else if (*g_strchug (end) != '\0' && strcmp (end, "%") != 0)
    return FALSE;
  *out = v * scale;
  return TRUE;
}

static gint64
to_ns (double v)
{
  return v >= (double) G_MAXINT64 ? G_MAXINT64 : (gint64) llround (v);
}

/* nvprof's copy names in nsys's words: "[CUDA memcpy HtoD]" →
 * "[CUDA memcpy Host-to-Device]". */
static char *
memop_name (const char *name)
{
  static const char *const from[] = { "HtoD", "DtoH", "DtoD", "HtoH", "PtoP",
                                      "HtoA", "AtoH", "AtoA", "AtoD", "DtoA" };
  static const char *const to[] = { "Host-to-Device", "Device-to-Host", "Device-to-Device",
                                    "Host-to-Host",   "Peer-to-Peer",   "Host-to-Array",
                                    "Array-to-Host",  "Array-to-Array", "Array-to-Device",
                                    "Device-to-Array" };

  for (gsize i = 0; i < G_N_ELEMENTS (from); i++)
    {
      g_autofree char *old = g_strdup_printf ("[CUDA memcpy %s]", from[i]);

      if (strcmp (name, old) == 0)
        return g_strdup_printf ("[CUDA memcpy %s]", to[i]);
    }
  return g_strdup (name);
}

static WsNvprofResult *
result_new (Parser *p, guint32 pid)
{
  WsNvprofResult *result = g_new0 (WsNvprofResult, 1);

  result->pid = pid;
  result->unified = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (p->results, result);
  p->current = result;
  p->api_section = FALSE;
  return result;
}

static WsSummary **
summary_for (WsNvprofResult *result, gboolean api, const char *name)
{
  WsSummary **slot;
  WsSummaryKind kind;

  if (api)
    slot = &result->api, kind = WS_SUMMARY_API_SUM;
  else if (g_str_has_prefix (name, "[CUDA mem"))
    slot = &result->memops, kind = WS_SUMMARY_MEM_TIME_SUM;
  else
    slot = &result->kernels, kind = WS_SUMMARY_KERN_SUM;
  if (*slot == NULL)
    {
      *slot = ws_summary_new (kind);
      (*slot)->name_form = WS_NAME_DEMANGLED;
    }
  return slot;
}

static gboolean
row_error (Parser *p, const char *what, GError **error)
{
  g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
               "%s: line %u: an nvprof summary row with %s", p->path, p->line, what);
  return FALSE;
}

/* Adds one row: @cells are Time(%), Time, Calls, Avg, Min, Max (each with
 * @scales[COL_…]), @name, in the API table or not. */
static gboolean
add_row (Parser *p, gboolean api, char **cells, const double *scales, const char *name,
         GError **error)
{
  double v[COL_MAX + 1] = { 0 };
  WsSummaryRow row = { 0 };
  WsSummary **summary;
  char *end;
  gint64 calls;

  for (int c = COL_PERCENT; c <= COL_MAX; c++)
    if (c != COL_CALLS && !parse_value (cells[c], scales[c], &v[c]))
      return row_error (p, "a value that is not a time", error);
  calls = g_ascii_strtoll (cells[COL_CALLS], &end, 10);
  if (end == cells[COL_CALLS] || *g_strchug (end) != '\0' || calls <= 0)
    return row_error (p, "a call count that is not a positive number", error);
  if (*name == '\0')
    return row_error (p, "no name", error);
  row.name = g_str_has_prefix (name, "[CUDA memcpy") ? memop_name (name) : g_strdup (name);
  row.name_id = G_MAXUINT32;
  row.count = calls;
  row.total = to_ns (v[COL_TIME]);
  row.avg = v[COL_AVG];
  row.min = to_ns (v[COL_MIN]);
  row.max = to_ns (v[COL_MAX]);
  /* nvprof prints neither a median nor a deviation. */
  row.med = NAN;
  row.stddev = NAN;
  row.percent = v[COL_PERCENT];
  summary = summary_for (p->current, api, name);
  g_array_append_val ((*summary)->rows, row);
  return TRUE;
}

/* A text row: "  API calls:   99.58%  159.25ms  1  159.25ms  159.25ms
 * 159.25ms  cudaMallocManaged", the Type only on a table's first row.
 * Returns 1 for a row, 0 for a line that is no row, -1 on an error. */
static int
text_row (Parser *p, const char *line, GError **error)
{
  const char *s = line + strspn (line, " \t");
  char *cells[COL_MAX + 1] = { NULL };
  double scales[N_COLS] = { 0 };
  int ok;

  if (!g_ascii_isdigit (*s))
    {
      const char *colon = strchr (s, ':');

      if (colon == NULL)
        return 0;
      p->api_section = g_str_has_prefix (s, "API calls");
      s = colon + 1;
    }
  for (int c = COL_PERCENT; c <= COL_MAX; c++)
    {
      gsize n;

      s += strspn (s, " \t");
      n = strcspn (s, " \t");
      if (n == 0)
        break;
      cells[c] = g_strndup (s, n);
      s += n;
    }
  s += strspn (s, " \t");
  ok = cells[COL_MAX] != NULL && strchr (cells[COL_PERCENT], '%') != NULL;
  if (ok)
    ok = add_row (p, p->api_section, cells, scales, s, error) ? 1 : -1;
  for (int c = 0; c <= COL_MAX; c++)
    g_free (cells[c]);
  return ok;
}

static gboolean
csv_header (Parser *p, GPtrArray *cells)
{
  static const char *const names[N_COLS] = { "Type", "Time(%)", "Time", "Calls",
                                             "Avg",  "Min",     "Max",  "Name" };

  for (int c = 0; c < N_COLS; c++)
    {
      p->csv_col[c] = -1;
      p->csv_scale[c] = 1.0;
      for (guint i = 0; i < cells->len; i++)
        if (strcmp (g_ptr_array_index (cells, i), names[c]) == 0)
          p->csv_col[c] = (int) i;
      if (c != COL_TYPE && p->csv_col[c] < 0)
        return FALSE;
    }
  return TRUE;
}

static gboolean
csv_row (Parser *p, GPtrArray *cells, GError **error)
{
  char *values[COL_MAX + 1] = { NULL };
  const char *type = "";

  for (int c = 0; c < N_COLS; c++)
    if (p->csv_col[c] >= (int) cells->len)
      return row_error (p, "too few cells", error);
  for (int c = COL_PERCENT; c <= COL_MAX; c++)
    values[c] = g_ptr_array_index (cells, p->csv_col[c]);
  if (p->csv_col[COL_TYPE] >= 0)
    type = g_ptr_array_index (cells, p->csv_col[COL_TYPE]);
  return add_row (p, g_str_has_prefix (type, "API calls") || p->api_section, values, p->csv_scale,
                  g_ptr_array_index (cells, p->csv_col[COL_NAME]), error);
}

static gboolean
refuse (Parser *p, const char *what, GError **error)
{
  g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
               "%s: %s; Warpscope reads nvprof summaries, GPU traces and metrics (what "
               "`nvprof [--csv]`, `--print-gpu-trace`, `--metrics` and `--events` print) and "
               "exports (`nvprof -o FILE.nvvp`)",
               p->path, what);
  return FALSE;
}

/* A line after "==PID==". */
static gboolean
pid_rest (Parser *p, guint32 pid, const char *rest, GError **error)
{
  if (g_str_has_prefix (rest, "NVPROF is profiling"))
    {
      const char *command = strstr (rest, "command: ");
      WsNvprofResult *result = result_new (p, pid);

      if (command != NULL)
        result->command = g_strdup (command + strlen ("command: "));
      p->mode = MODE_NONE;
    }
  else if (g_str_has_prefix (rest, "Profiling result:"))
    {
      if (p->current == NULL || p->current->pid != pid || p->current->kernels != NULL ||
          p->current->api != NULL || p->current->memops != NULL)
        result_new (p, pid);
      p->mode = MODE_RESULT;
      p->api_section = FALSE;
    }
  else if (g_str_has_prefix (rest, "API calls:") && p->current != NULL)
    {
      p->mode = MODE_RESULT;
      p->api_section = TRUE;
    }
  else if (g_str_has_prefix (rest, "Unified Memory profiling result:") && p->current != NULL)
    p->mode = MODE_UNIFIED;
  else if (g_str_has_prefix (rest, "Metric result:") || g_str_has_prefix (rest, "Event result:"))
    {
      if (p->current == NULL || p->current->pid != pid)
        result_new (p, pid);
      p->current->metrics = TRUE;
      if (p->metrics == NULL)
        p->metrics = ws_nvprof_metrics_new (p->path);
      ws_nvprof_metrics_begin (p->metrics, pid, p->current->command,
                               g_str_has_prefix (rest, "Event result:"));
      p->mode = MODE_METRICS;
    }
  else if (p->mode != MODE_UNIFIED)
    p->mode = MODE_NONE;
  return TRUE;
}

/* A line in a metrics or events table: 1 when the table took it, 0 when
 * the table ended before it, -1 with @error set. */
static int
metrics_line (Parser *p, char *line, GError **error)
{
  guint32 pid;
  const char *rest;
  int taken = 0;

  if (!ws_nvprof_pid_line (line, &pid, &rest))
    taken = ws_nvprof_metrics_line (p->metrics, p->line, line, error);
  if (taken != 0)
    return taken;
  if (!ws_nvprof_metrics_end (p->metrics, error))
    return -1;
  p->mode = MODE_NONE;
  return 0;
}

/* A line read as the current section (@p->mode) asks. */
static gboolean
mode_line (Parser *p, char *line, char *stripped, GError **error)
{
  switch (p->mode)
    {
      case MODE_RESULT:
        if (strcmp (stripped, "No kernels were profiled.") == 0)
          p->current->no_kernels = TRUE;
        else if (strstr (stripped, "Start") != NULL && strstr (stripped, "Duration") != NULL)
          return refuse (
            p, "an nvprof trace of a kind not read yet (`--print-api-trace`; GPU traces are)",
            error);
        else if (stripped[0] == '"')
          {
            g_autoptr (GPtrArray) cells = split_csv (stripped);

            if (!csv_header (p, cells))
              return refuse (p, "an nvprof CSV table of another kind", error);
            p->mode = MODE_UNITS;
          }
        else if (strstr (stripped, "Time(%)") != NULL && strstr (stripped, "Name") != NULL)
          p->mode = MODE_TABLE;
        return TRUE;
      case MODE_TABLE:
        if (*stripped == '\0')
          return TRUE;
        switch (text_row (p, line, error))
          {
            case -1:
              return FALSE;
            case 0:
              p->mode = MODE_NONE; /* the program's own output */
              return TRUE;
            default:
              return TRUE;
          }
      case MODE_UNITS:
        {
          g_autoptr (GPtrArray) cells = split_csv (stripped);

          for (int c = COL_PERCENT; c <= COL_MAX; c++)
            if (p->csv_col[c] < (int) cells->len)
              {
                const char *unit = g_ptr_array_index (cells, p->csv_col[c]);

                p->csv_scale[c] = c == COL_CALLS ? 1.0 : unit_scale (unit);
                if (p->csv_scale[c] == 0.0)
                  return row_error (p, "an unknown unit in its units row", error);
              }
          p->mode = MODE_CSV;
          return TRUE;
        }
      case MODE_CSV:
        if (stripped[0] != '"')
          {
            p->mode = MODE_NONE;
            return TRUE;
          }
        {
          g_autoptr (GPtrArray) cells = split_csv (stripped);

          return csv_row (p, cells, error);
        }
      case MODE_UNIFIED:
        if (*stripped == '\0')
          p->mode = MODE_NONE;
        else if (strstr (stripped, "Count") == NULL)
          {
            g_autoptr (GPtrArray) cells = NULL;

            if (stripped[0] == '"')
              cells = split_csv (stripped);
            else
              cells = g_ptr_array_new_with_free_func (g_free),
              g_ptr_array_add (cells, g_strdup (stripped));
            for (guint i = 0; i < cells->len; i++)
              if (*(char *) g_ptr_array_index (cells, i) == '\0')
                g_ptr_array_remove_index (cells, i--);
            g_ptr_array_add (cells, NULL);
            g_ptr_array_add (p->current->unified, g_strjoinv (", ", (char **) cells->pdata));
          }
        return TRUE;
      case MODE_METRICS:
      case MODE_NONE:
      default:
        return TRUE;
    }
}

static gboolean
parse_line (Parser *p, char *line, GError **error)
{
  guint32 pid;
  const char *rest;
  g_autofree char *stripped = g_strstrip (g_strdup (line));

  if (p->mode == MODE_METRICS)
    {
      int taken = metrics_line (p, line, error);

      if (taken != 0)
        return taken > 0;
    }
  if (p->mode != MODE_METRICS &&
      (g_str_has_prefix (line, "\"Device\",\"Kernel\",\"Invocations\",") ||
       (g_str_has_prefix (stripped, "Invocations ") &&
        (strstr (stripped, " Metric Name ") != NULL || strstr (stripped, " Event Name ") != NULL))))
    {
      /* A table without its `==PID== Metric result:` line (cut out of a
       * log, or nvprof's --log-file without the preamble). */
      if (p->current == NULL)
        result_new (p, 0);
      p->current->metrics = TRUE;
      if (p->metrics == NULL)
        p->metrics = ws_nvprof_metrics_new (p->path);
      ws_nvprof_metrics_begin (p->metrics, p->current->pid, p->current->command, FALSE);
      p->mode = MODE_METRICS;
      return ws_nvprof_metrics_line (p->metrics, p->line, line, error) >= 0;
    }
  if (ws_nvprof_pid_line (line, &pid, &rest))
    return pid_rest (p, pid, rest, error);
  if (g_str_has_prefix (line, "\"Type\",\"Time(%)\"") && p->mode != MODE_CSV)
    {
      if (p->current == NULL || p->mode != MODE_RESULT)
        result_new (p, 0);
      p->mode = MODE_RESULT;
    }

  return mode_line (p, line, stripped, error);
}

static void
finish (WsSummary *summary)
{
  /* The shares are recomputed over the summary's own rows, as nsys
   * computes them (nvprof's are over all GPU activities). */
  if (summary != NULL)
    ws_summary_finish (summary);
}

/**
 * ws_nvprof_log_parse:
 * @path: named in errors
 *
 * @metrics: (out) (optional) (transfer full) (nullable): the kernels of
 *   the `--metrics` and `--events` blocks, %NULL where there are none
 *
 * Returns: (transfer full) (element-type WsNvprofResult): the profiling
 * results of @text in their order, or %NULL with @error set (an nvprof
 * API trace, a malformed row or metric block, no result at all).
 */
GPtrArray *
ws_nvprof_log_parse (const char *path, const char *text, gsize len, WsNcuResults **metrics,
                     GError **error)
{
  g_autoptr (GPtrArray) results =
    g_ptr_array_new_with_free_func ((GDestroyNotify) ws_nvprof_result_free);
  g_autoptr (WsNvprofMetrics) blocks = NULL;
  g_autoptr (WsNcuResults) launches = NULL;
  Parser p = { .path = path, .results = results };
  const char *s = text, *end = text + len;
  gboolean any = FALSE;

  while (s < end)
    {
      const char *nl = memchr (s, '\n', (gsize) (end - s));
      gsize n = nl != NULL ? (gsize) (nl - s) : (gsize) (end - s);
      g_autofree char *line = NULL;

      if (n > 0 && s[n - 1] == '\r')
        n--;
      line = g_strndup (s, n);
      p.line++;
      if (!parse_line (&p, line, error))
        {
          ws_nvprof_metrics_free (p.metrics);
          return NULL;
        }
      s = nl != NULL ? nl + 1 : end;
    }
  blocks = g_steal_pointer (&p.metrics);
  if (blocks != NULL && !ws_nvprof_metrics_end (blocks, error))
    return NULL;
  if (blocks != NULL)
    launches = ws_nvprof_metrics_finish (blocks);
  for (guint i = 0; i < results->len; i++)
    {
      WsNvprofResult *r = g_ptr_array_index (results, i);

      finish (r->kernels);
      finish (r->memops);
      finish (r->api);
      any = any || r->kernels != NULL || r->memops != NULL || r->api != NULL || r->no_kernels;
    }
  any = any || launches != NULL;
  if (!any)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   "%s: nvprof output without a profiling result (no `==PID== Profiling "
                   "result:` table)",
                   path);
      return NULL;
    }
  if (metrics != NULL)
    *metrics = g_steal_pointer (&launches);
  return g_steal_pointer (&results);
}

GPtrArray *
ws_nvprof_log_read (const char *path, WsNcuResults **metrics, GError **error)
{
  g_autofree char *text = NULL;
  gsize len;

  if (!ws_csv_load_file (path, MAX_BYTES, &text, &len, error))
    return NULL;
  return ws_nvprof_log_parse (path, text, len, metrics, error);
}
