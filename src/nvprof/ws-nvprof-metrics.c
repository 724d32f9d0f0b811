/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nvprof-metrics"
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-csv.h"
#include "ws-nvprof-metrics.h"
#include "ws-reader-error.h"

/* What `nvprof --metrics …` and `nvprof --events …` print after
 * `==PID== Metric result:` / `==PID== Event result:` (CUDA ≤ 10).
 *
 * Text:
 *   Invocations   Metric Name   Metric Description   Min   Max   Avg
 *   Device "Tesla V100-PCIE-32GB (0)"
 *       Kernel: normalize_kernel(int, float*, …)
 *            18   sm_efficiency   Multiprocessor Activity   25.23%   98.32%   57.73%
 * the event form without a description and with a Total after the Avg.
 * Cells carry their units ("38.856GB/s", "93.69%") or are levels ("Low (2)").
 *
 * CSV (`--csv`), no units row, units inside the cells as in the text:
 *   "Device","Kernel","Invocations","Metric Name","Metric Description","Min","Max","Avg"
 *   "Device","Kernel","Invocations","Event Name","Min","Max","Avg","Total"
 *
 * nvprof's K, M, G in throughputs are powers of 1024 (docs/nvprof.md says
 * how the V100 file shows it). */

typedef enum
{
  STATE_HEADER, /* after "Metric result:", before the table's header */
  STATE_TEXT,
  STATE_CSV,
} State;

enum
{
  CSV_DEVICE,
  CSV_KERNEL,
  CSV_INVOCATIONS,
  CSV_NAME,
  CSV_DESCRIPTION,
  CSV_MIN,
  CSV_MAX,
  CSV_AVG,
  CSV_TOTAL,
  N_CSV
};

struct _WsNvprofMetrics
{
  char *path;
  WsNcuResults *results;
  GHashTable *launches; /* "pid\x1fdevice\x1fkernel" → launch index + 1 */
  gboolean in_block;
  State state;
  gboolean events;
  guint32 pid;
  char *process; /* the profiled program, or NULL */
  char *device;  /* text form: the current `Device "…"` */
  int kernel;    /* text form: the current launch, or -1 */
  guint kernel_line;
  guint kernel_rows; /* rows of the current kernel */
  guint block_line;  /* the line of the block's "… result:" */
  int csv_col[N_CSV];
  guint csv_cells;
};

/**
 * ws_nvprof_metrics_new:
 * @path: named in errors and kept as the results' file
 *
 * Returns: (transfer full): a reader of the metric and event blocks of one
 * nvprof output file.
 */
WsNvprofMetrics *
ws_nvprof_metrics_new (const char *path)
{
  WsNvprofMetrics *self = g_new0 (WsNvprofMetrics, 1);

  self->path = g_strdup (path);
  self->results = ws_ncu_results_new ();
  self->results->nvprof = TRUE;
  ws_ncu_results_add_file (self->results, path);
  self->launches = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->kernel = -1;
  return self;
}

void
ws_nvprof_metrics_free (WsNvprofMetrics *self)
{
  if (self == NULL)
    return;
  g_free (self->path);
  g_free (self->process);
  g_free (self->device);
  g_clear_pointer (&self->results, ws_ncu_results_unref);
  g_hash_table_unref (self->launches);
  g_free (self);
}

/**
 * ws_nvprof_metrics_begin:
 * @command: (nullable): the profiled command line, as nvprof named it
 * @events: an `Event result:` block rather than a `Metric result:` one
 *
 * Starts a block: the lines after its `==PID== … result:` line follow.
 */
void
ws_nvprof_metrics_begin (WsNvprofMetrics *self, guint32 pid, const char *command, gboolean events)
{
  g_return_if_fail (self != NULL);

  self->in_block = TRUE;
  self->state = STATE_HEADER;
  self->events = events;
  self->pid = pid;
  g_clear_pointer (&self->process, g_free);
  if (command != NULL && *command != '\0')
    self->process = g_strndup (command, strcspn (command, " \t"));
  g_clear_pointer (&self->device, g_free);
  self->kernel = -1;
  self->kernel_rows = 0;
  self->block_line = 0;
}

static gboolean
line_error (WsNvprofMetrics *self, guint line, const char *what, GError **error)
{
  g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT, "%s: line %u: %s", self->path, line,
               what);
  return FALSE;
}

/* The same, for the functions that answer -1 on an error. */
static int
fail (WsNvprofMetrics *self, guint line, const char *what, GError **error)
{
  line_error (self, line, what, error);
  return -1;
}

/* "Low (2)": nvprof's utilisation levels, Idle (0) to Max (10). */
static gboolean
level_value (const char *cell, double *value)
{
  static const char *const words[] = { "Idle", "Low", "Mid", "High", "Max" };
  const char *open = strchr (cell, '(');
  char *end;
  gint64 v;
  gboolean word = FALSE;

  if (open == NULL || open == cell || open[-1] != ' ')
    return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS (words); i++)
    if (strncmp (cell, words[i], strlen (words[i])) == 0 && cell + strlen (words[i]) == open - 1)
      word = TRUE;
  if (!word || !g_ascii_isdigit (open[1]))
    return FALSE;
  v = g_ascii_strtoll (open + 1, &end, 10);
  if (*end != ')' || end[1] != '\0' || v < 0 || v > 10)
    return FALSE;
  *value = (double) v;
  return TRUE;
}

/* A unit after a number: time to ns; B, KB, MB, GB, TB (and per second)
 * to bytes with nvprof's binary prefixes. */
static gboolean
unit_scale (const char *unit, double *scale, const char **base, const char **written)
{
  static const struct
  {
    const char *unit;
    double scale;
    const char *base;
  } units[] = {
    { "%", 1, "%" },
    { "ns", 1, "ns" },
    { "us", 1e3, "ns" },
    { "\xc2\xb5s", 1e3, "ns" },
    { "ms", 1e6, "ns" },
    { "s", 1e9, "ns" },
    { "B", 1, "byte" },
    { "KB", 1024.0, "byte" },
    { "MB", 1024.0 * 1024, "byte" },
    { "GB", 1024.0 * 1024 * 1024, "byte" },
    { "TB", 1024.0 * 1024 * 1024 * 1024, "byte" },
    { "B/s", 1, "byte/s" },
    { "KB/s", 1024.0, "byte/s" },
    { "MB/s", 1024.0 * 1024, "byte/s" },
    { "GB/s", 1024.0 * 1024 * 1024, "byte/s" },
    { "TB/s", 1024.0 * 1024 * 1024 * 1024, "byte/s" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (units); i++)
    if (strcmp (unit, units[i].unit) == 0)
      {
        *scale = units[i].scale;
        *base = units[i].base;
        *written = units[i].unit;
        return TRUE;
      }
  return FALSE;
}

/**
 * ws_nvprof_metric_value:
 * @cell: a Min, Max, Avg or Total cell: "93.69%", "38.856GB/s",
 *   "0.00000B/s", "422.000000", "6144", "Low (2)"
 * @value: (out): in base units: % stays %, time in ns, bytes and bytes
 *   per second (nvprof's K, M and G are 1024, 1024², 1024³), levels 0–10
 * @unit: (out) (transfer none): the unit as written ("GB/s"; "" for a
 *   count, "level" for a level), static
 * @base_unit: (out) (transfer none): the unit of @value ("byte/s"), static
 * @level: (out) (optional): whether the cell is a level
 *
 * Returns: whether @cell is a value nvprof writes
 */
gboolean
ws_nvprof_metric_value (const char *cell, double *value, const char **unit, const char **base_unit,
                        gboolean *level)
{
  g_autofree char *text = g_strstrip (g_strdup (cell));
  char *end;
  double v, scale = 1;
  const char *base = "";

  if (level != NULL)
    *level = FALSE;
  if (level_value (text, value))
    {
      *unit = *base_unit = "level";
      if (level != NULL)
        *level = TRUE;
      return TRUE;
    }
  if (*text == '\0')
    return FALSE;
  v = g_ascii_strtod (text, &end);
  if (end == text || !isfinite (v))
    return FALSE;
  if (*end == '\0')
    {
      *value = v;
      *unit = *base_unit = "";
      return TRUE;
    }
  if (!unit_scale (end, &scale, &base, unit))
    return FALSE;
  {
    g_autofree char *number = g_strndup (text, (gsize) (end - text));

    /* Times by moving the decimal point: "260.48us" is 260480 ns exactly. */
    if (!ws_csv_parse_number_scaled (number, scale, value))
      *value = v * scale;
  }
  *base_unit = base;
  return TRUE;
}

/* "Tesla V100-PCIE-32GB (0)" → the name and the device id. */
static void
split_device (const char *device, char **name, gint32 *id)
{
  const char *open = strrchr (device, '(');
  gsize len = strlen (device);
  char *end;
  gint64 v;

  *id = -1;
  *name = g_strdup (device);
  if (open == NULL || open == device || len < 3 || device[len - 1] != ')' ||
      !g_ascii_isdigit (open[1]))
    return;
  v = g_ascii_strtoll (open + 1, &end, 10);
  if (end != device + len - 1 || v > G_MAXINT32)
    return;
  *id = (gint32) v;
  g_free (*name);
  *name = g_strstrip (g_strndup (device, (gsize) (open - device)));
}

/* The launch of (pid, device, kernel), made on first sight. */
static guint
launch_for (WsNvprofMetrics *self, const char *device, const char *kernel)
{
  g_autofree char *key = g_strdup_printf ("%u\x1f%s\x1f%s", self->pid, device, kernel);
  gpointer found = g_hash_table_lookup (self->launches, key);
  WsNcuResults *r = self->results;
  WsNcuLaunch launch = { 0 };
  g_autofree char *name = NULL;
  guint index;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  split_device (device, &name, &launch.device);
  launch.id = (gint64) ws_ncu_results_n_launches (r);
  launch.pid = self->pid;
  launch.process = ws_ncu_results_intern (r, self->process);
  launch.kernel = ws_ncu_results_intern (r, kernel);
  launch.device_name = ws_ncu_results_intern (r, name);
  launch.context = -1;
  launch.stream = -1;
  launch.file = 0;
  index = ws_ncu_results_add_launch (r, &launch);
  g_hash_table_insert (self->launches, g_steal_pointer (&key), GUINT_TO_POINTER (index + 1));
  return index;
}

/* Stores one row: Min, Max, Avg (and Total for events) of @name. */
static gboolean
add_row (WsNvprofMetrics *self, guint line, guint launch, const char *invocations, const char *name,
         const char *description, const char *const cells[4], GError **error)
{
  WsNcuResults *r = self->results;
  WsNcuLaunch *l = &g_array_index (r->launches, WsNcuLaunch, launch);
  double v[4] = { NAN, NAN, NAN, NAN };
  const char *unit[4] = { NULL }, *base[4] = { NULL };
  gboolean level[4] = { FALSE };
  WsNcuMetric *metric;
  char *end;
  gint64 n;

  n = g_ascii_strtoll (invocations, &end, 10);
  if (end == invocations || *end != '\0' || n <= 0)
    return line_error (self, line, "an nvprof metric row whose Invocations is not a count", error);
  if (*name == '\0')
    return line_error (self, line, "an nvprof metric row without a name", error);
  for (int i = 0; i < (self->events ? 4 : 3); i++)
    if (!ws_nvprof_metric_value (cells[i], &v[i], &unit[i], &base[i], &level[i]))
      {
        g_autofree char *what = g_strdup_printf ("%s of %s is “%s”, not a value nvprof writes",
                                                 i == 0   ? "Min"
                                                 : i == 1 ? "Max"
                                                 : i == 2 ? "Avg"
                                                          : "Total",
                                                 name, cells[i]);

        return line_error (self, line, what, error);
      }
  /* A row, and a metric over the kernels, keep one kind of unit: a level
   * read as a count would make a gauge of nonsense. */
  for (int i = 0; i < (self->events ? 4 : 3); i++)
    if (!g_str_equal (base[i], base[2]))
      return line_error (self, line, "an nvprof metric row whose cells have different units",
                         error);
  /* Events have a name space of their own: inst_executed is both. */
  metric = ws_ncu_results_add_metric (r, self->events ? "Events" : NULL, name, NULL);
  if (metric->base_unit != NULL && !g_str_equal (metric->base_unit, base[2]))
    {
      g_autofree char *what = g_strdup_printf ("%s in “%s” here and in “%s” for an earlier kernel",
                                               name, base[2], metric->base_unit);

      return line_error (self, line, what, error);
    }
  l->invocations = MAX (l->invocations, n);
  if (metric->description == NULL && description != NULL && *description != '\0')
    metric->description = ws_ncu_results_intern (r, description);
  ws_ncu_results_set_value (r, metric, launch, v[2], unit[2], base[2], level[2] ? cells[2] : NULL);
  ws_ncu_results_set_range (r, metric, launch, v[0], v[1], self->events ? v[3] : NAN);
  return TRUE;
}

/* The text header: "Invocations  Metric Name  Metric Description  Min
 * Max  Avg", or "Invocations  Event Name  Min  Max  Avg  Total". */
static gboolean
text_header (WsNvprofMetrics *self, const char *stripped)
{
  if (!g_str_has_prefix (stripped, "Invocations"))
    return FALSE;
  if (strstr (stripped, "Event Name") != NULL)
    self->events = TRUE;
  else if (strstr (stripped, "Metric Name") != NULL)
    self->events = FALSE;
  else
    return FALSE;
  return strstr (stripped, "Min") != NULL && strstr (stripped, "Avg") != NULL;
}

static GPtrArray *
split_csv_line (const char *path, const char *line)
{
  g_autoptr (WsCsvReader) reader = ws_csv_reader_new (path, line, strlen (line), ',');
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);

  if (!ws_csv_reader_next (reader, cells, NULL))
    return NULL;
  return g_steal_pointer (&cells);
}

static gboolean
csv_header (WsNvprofMetrics *self, GPtrArray *cells)
{
  static const char *const names[N_CSV] = {
    "Device", "Kernel", "Invocations", NULL, "Metric Description", "Min", "Max", "Avg", "Total"
  };

  self->events = FALSE;
  for (guint i = 0; i < cells->len; i++)
    if (g_str_equal (g_ptr_array_index (cells, i), "Event Name"))
      self->events = TRUE;
  for (int c = 0; c < N_CSV; c++)
    {
      const char *want = c == CSV_NAME ? (self->events ? "Event Name" : "Metric Name") : names[c];

      self->csv_col[c] = -1;
      for (guint i = 0; i < cells->len; i++)
        if (g_str_equal (g_ptr_array_index (cells, i), want))
          self->csv_col[c] = (int) i;
      if (self->csv_col[c] < 0 && !(c == CSV_DESCRIPTION && self->events) &&
          !(c == CSV_TOTAL && !self->events))
        return FALSE;
    }
  self->csv_cells = cells->len;
  return TRUE;
}

/* A cell of a column the header has; "" for one it has not. */
static const char *
cell (GPtrArray *cells, int col)
{
  return col >= 0 && (guint) col < cells->len ? (const char *) g_ptr_array_index (cells, col) : "";
}

static gboolean
csv_row (WsNvprofMetrics *self, guint line, GPtrArray *cells, GError **error)
{
  const char *values[4];
  guint launch;

  if (cells->len != self->csv_cells)
    return line_error (self, line,
                       "an nvprof metric row with too few or too many cells (cut short?)", error);
  for (int c = CSV_MIN; c <= CSV_TOTAL; c++)
    values[c - CSV_MIN] = cell (cells, self->csv_col[c]);
  if (*cell (cells, self->csv_col[CSV_KERNEL]) == '\0')
    return line_error (self, line, "an nvprof metric row without a kernel", error);
  launch = launch_for (self, cell (cells, self->csv_col[CSV_DEVICE]),
                       cell (cells, self->csv_col[CSV_KERNEL]));
  return add_row (self, line, launch, cell (cells, self->csv_col[CSV_INVOCATIONS]),
                  cell (cells, self->csv_col[CSV_NAME]),
                  self->csv_col[CSV_DESCRIPTION] >= 0 ? cell (cells, self->csv_col[CSV_DESCRIPTION])
                                                      : NULL,
                  values, error);
}

static gboolean
is_identifier (const char *s)
{
  if (!g_ascii_isalpha (*s) && *s != '_')
    return FALSE;
  for (; *s != '\0'; s++)
    if (!g_ascii_isalnum (*s) && *s != '_' && *s != '.')
      return FALSE;
  return TRUE;
}

static gboolean
is_count (const char *s)
{
  if (*s == '\0')
    return FALSE;
  for (; *s != '\0'; s++)
    if (!g_ascii_isdigit (*s))
      return FALSE;
  return TRUE;
}

/* The last value of tokens[first, *end): "Low" "(2)" is one value. */
static char *
take_value (char **tokens, guint first, guint *end)
{
  double level;

  if (*end >= first + 2)
    {
      g_autofree char *two = g_strdup_printf ("%s %s", tokens[*end - 2], tokens[*end - 1]);

      if (level_value (two, &level))
        {
          *end -= 2;
          return g_steal_pointer (&two);
        }
    }
  if (*end <= first)
    return NULL;
  *end -= 1;
  return g_strdup (tokens[*end]);
}

/* A text row: "18  sm_efficiency  Multiprocessor Activity  25.23%  98.32%
 * 57.73%".  Returns 1 for a row, 0 for a line that is no row, -1 on an
 * error. */
static int
text_row (WsNvprofMetrics *self, guint line, const char *stripped, GError **error)
{
  g_auto (GStrv) tokens = g_strsplit_set (stripped, " \t", -1);
  g_autoptr (GPtrArray) words = g_ptr_array_new ();
  g_autofree char *description = NULL;
  char *values[4] = { NULL };
  guint n_values = self->events ? 4 : 3;
  guint end;
  gboolean ok = TRUE;

  for (guint i = 0; tokens[i] != NULL; i++)
    if (*tokens[i] != '\0')
      g_ptr_array_add (words, tokens[i]);
  if (words->len < 2 || !is_count (g_ptr_array_index (words, 0)) ||
      !is_identifier (g_ptr_array_index (words, 1)))
    return 0;
  if (self->kernel < 0)
    return fail (self, line, "an nvprof metric row before any `Kernel:` line", error);
  end = words->len;
  for (guint i = n_values; i-- > 0;)
    {
      values[i] = take_value ((char **) words->pdata, 2, &end);
      ok = ok && values[i] != NULL;
    }
  if (ok && self->events && end != 2)
    ok = FALSE;
  if (ok && !self->events)
    {
      g_ptr_array_add (words, NULL);
      words->pdata[end] = NULL;
      description = g_strjoinv (" ", (char **) words->pdata + 2);
    }
  if (ok)
    ok = add_row (self, line, (guint) self->kernel, g_ptr_array_index (words, 0),
                  g_ptr_array_index (words, 1), description, (const char *const *) values, error);
  else
    line_error (self, line, "an nvprof metric row with too few values (cut short?)", error);
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    g_free (values[i]);
  if (!ok)
    return -1;
  self->kernel_rows++;
  return 1;
}

static gboolean
end_kernel (WsNvprofMetrics *self, GError **error)
{
  if (self->kernel >= 0 && self->kernel_rows == 0)
    return line_error (self, self->kernel_line,
                       "a `Kernel:` line without metric rows: the nvprof metric block is cut short",
                       error);
  return TRUE;
}

/**
 * ws_nvprof_metrics_line:
 * @line: one line of the block (no `==PID==` line: those end it)
 *
 * Returns: 1 when @line belongs to the block, 0 when it ends it (it is
 * then the log reader's), -1 on an error
 */
int
ws_nvprof_metrics_line (WsNvprofMetrics *self, guint line_number, const char *line, GError **error)
{
  g_autofree char *stripped = g_strstrip (g_strdup (line));

  g_return_val_if_fail (self != NULL && self->in_block, -1);

  if (self->block_line == 0)
    self->block_line = line_number;
  if (*stripped == '\0')
    return 1;
  switch (self->state)
    {
      case STATE_HEADER:
        if (stripped[0] == '"')
          {
            g_autoptr (GPtrArray) cells = split_csv_line (self->path, stripped);

            if (cells == NULL || !csv_header (self, cells))
              return fail (self, line_number,
                           "an nvprof metric or event table with an unknown header", error);
            self->state = STATE_CSV;
            return 1;
          }
        if (!text_header (self, stripped))
          return fail (self, line_number,
                       "an nvprof metric or event block without its table (cut short?)", error);
        self->state = STATE_TEXT;
        return 1;
      case STATE_CSV:
        {
          g_autoptr (GPtrArray) cells = NULL;

          if (stripped[0] != '"')
            return 0;
          cells = split_csv_line (self->path, stripped);
          if (cells == NULL)
            return fail (self, line_number, "an nvprof metric row that is not CSV", error);
          return csv_row (self, line_number, cells, error) ? 1 : -1;
        }
      case STATE_TEXT:
      default:
        if (g_str_has_prefix (stripped, "Device \"") && g_str_has_suffix (stripped, "\"") &&
            strlen (stripped) > 9)
          {
            if (!end_kernel (self, error))
              return -1;
            g_free (self->device);
            self->device = g_strndup (stripped + 8, strlen (stripped) - 9);
            self->kernel = -1;
            return 1;
          }
        if (g_str_has_prefix (stripped, "Kernel: "))
          {
            const char *name = stripped + strlen ("Kernel: ");

            if (!end_kernel (self, error))
              return -1;
            if (self->device == NULL)
              return fail (self, line_number, "an nvprof `Kernel:` line before any `Device` line",
                           error);
            name += strspn (name, " ");
            if (*name == '\0')
              return fail (self, line_number, "a `Kernel:` line without a name", error);
            self->kernel = (int) launch_for (self, self->device, name);
            self->kernel_line = line_number;
            self->kernel_rows = 0;
            return 1;
          }
        return text_row (self, line_number, stripped, error);
    }
}

/**
 * ws_nvprof_metrics_end:
 *
 * Ends the block begun last (at a `==PID==` line, a line of another kind,
 * or the end of the file).
 *
 * Returns: %FALSE when the block was cut short: no table, or a kernel
 * without rows
 */
gboolean
ws_nvprof_metrics_end (WsNvprofMetrics *self, GError **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (!self->in_block)
    return TRUE;
  self->in_block = FALSE;
  if (self->state == STATE_HEADER)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   "%s: an nvprof %s block without its table: the file is cut short", self->path,
                   self->events ? "`Event result:`" : "`Metric result:`");
      return FALSE;
    }
  if (self->state == STATE_TEXT && !end_kernel (self, error))
    return FALSE;
  self->kernel = -1;
  return TRUE;
}

guint
ws_nvprof_metrics_n_launches (const WsNvprofMetrics *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return ws_ncu_results_n_launches (self->results);
}

/**
 * ws_nvprof_metrics_finish:
 *
 * Returns: (transfer full) (nullable): the launches read, finished (not
 * yet gauged: that is the loader's, ws_gauges_compute_all()), or %NULL
 * when no block had a kernel
 */
WsNcuResults *
ws_nvprof_metrics_finish (WsNvprofMetrics *self)
{
  WsNcuResults *results;

  g_return_val_if_fail (self != NULL && !self->in_block, NULL);

  if (ws_ncu_results_n_launches (self->results) == 0)
    return NULL;
  results = g_steal_pointer (&self->results);
  ws_ncu_results_finish (results);
  self->results = ws_ncu_results_new ();
  return results;
}
