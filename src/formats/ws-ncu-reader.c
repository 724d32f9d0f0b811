/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-ncu-reader"
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-csv.h"
#include "ws-limits.h"
#include "ws-ncu-reader.h"
#include "ws-reader-error.h"

/* The details page names metrics for people ("Duration"); the gauges look
 * them up by raw name.  Checked against the raw page of the same report
 * (h100_probe_full_raw.csv): each pair holds the same values. */
typedef struct
{
  const char *section; /* a prefix of the Section Name, or NULL for any */
  const char *name;
  const char *raw;
} Alias;

static const Alias aliases[] = {
  { "GPU Speed Of Light", "Duration", "gpu__time_duration.sum" },
  { "GPU Speed Of Light", "Compute (SM) Throughput",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed" },
  { "GPU Speed Of Light", "SM [%]", "sm__throughput.avg.pct_of_peak_sustained_elapsed" },
  { "GPU Speed Of Light", "Memory Throughput",
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed" },
  { "GPU Speed Of Light", "Memory [%]",
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed" },
  { "GPU Speed Of Light", "DRAM Throughput",
    "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed" },
  { "GPU Speed Of Light", "L1/TEX Cache Throughput",
    "l1tex__throughput.avg.pct_of_peak_sustained_active" },
  { "GPU Speed Of Light", "L2 Cache Throughput",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed" },
  { "GPU Speed Of Light", "SM Active Cycles", "sm__cycles_active.avg" },
  { "GPU Speed Of Light", "Elapsed Cycles", "gpc__cycles_elapsed.max" },
  { "GPU Speed Of Light", "SM Frequency", "gpc__cycles_elapsed.avg.per_second" },
  { "GPU Speed Of Light", "DRAM Frequency", "dram__cycles_elapsed.avg.per_second" },
  { "Memory Workload Analysis", "L1/TEX Hit Rate", "l1tex__t_sector_hit_rate.pct" },
  { "Memory Workload Analysis", "L2 Hit Rate", "lts__t_sector_hit_rate.pct" },
  { "Memory Workload Analysis", "Memory Throughput", "dram__bytes.sum.per_second" },
  { "Memory Workload Analysis", "Mem Busy",
    "gpu__compute_memory_access_throughput.avg.pct_of_peak_sustained_elapsed" },
  { "Memory Workload Analysis", "Max Bandwidth",
    "gpu__compute_memory_request_throughput.avg.pct_of_peak_sustained_elapsed" },
  { "Occupancy", "Achieved Occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active" },
  { "Occupancy", "Achieved Active Warps Per SM", "sm__warps_active.avg.per_cycle_active" },
  { "Occupancy", "Theoretical Occupancy", "sm__maximum_warps_per_active_cycle_pct" },
  { "Occupancy", "Theoretical Active Warps per SM", "sm__maximum_warps_avg_per_active_cycle" },
  { "Occupancy", "Block Limit Registers", "launch__occupancy_limit_registers" },
  { "Occupancy", "Block Limit Shared Mem", "launch__occupancy_limit_shared_mem" },
  { "Occupancy", "Block Limit Warps", "launch__occupancy_limit_warps" },
  { "Occupancy", "Block Limit SM", "launch__occupancy_limit_blocks" },
  { "Occupancy", "Block Limit Barriers", "launch__occupancy_limit_barriers" },
  { "Launch Statistics", "Block Size", "launch__block_size" },
  { "Launch Statistics", "Grid Size", "launch__grid_size" },
  { "Launch Statistics", "# SMs", "launch__sm_count" },
  { "Launch Statistics", "Waves Per SM", "launch__waves_per_multiprocessor" },
  { "Launch Statistics", "Registers Per Thread", "launch__registers_per_thread" },
  { "Compute Workload Analysis", "Executed Ipc Active", "sm__inst_executed.avg.per_cycle_active" },
  { "Warp State Statistics", "Warp Cycles Per Issued Instruction",
    "smsp__average_warp_latency_per_inst_issued.ratio" },
};

/**
 * ws_ncu_reader_alias:
 *
 * Returns: (transfer none) (nullable): the raw metric that the details
 * page's metric @name of @section stands for
 */
const char *
ws_ncu_reader_alias (const char *section, const char *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS (aliases); i++)
    if (g_str_equal (aliases[i].name, name) &&
        (aliases[i].section == NULL ||
         (section != NULL && g_str_has_prefix (section, aliases[i].section))))
      return aliases[i].raw;
  return NULL;
}

/* The columns ncu puts before the metrics, and those of the details page. */
typedef enum
{
  COL_METRIC = -1,
  COL_ID,
  COL_PID,
  COL_PROCESS,
  COL_HOST,
  COL_KERNEL,
  COL_KERNEL_TIME,
  COL_CONTEXT,
  COL_STREAM,
  COL_BLOCK,
  COL_GRID,
  COL_DEVICE,
  COL_CC,
  COL_NVTX_PUSH_POP,
  COL_NVTX_START_END,
  COL_SECTION,
  COL_METRIC_NAME,
  COL_METRIC_UNIT,
  COL_METRIC_VALUE,
  COL_RULE_NAME,
  COL_RULE_TYPE,
  COL_RULE_DESCRIPTION,
  COL_SPEEDUP_TYPE,
  COL_SPEEDUP,
  N_COLS,
} Column;

static const char *const column_names[N_COLS] = {
  "ID",
  "Process ID",
  "Process Name",
  "Host Name",
  "Kernel Name",
  "Kernel Time",
  "Context",
  "Stream",
  "Block Size",
  "Grid Size",
  "Device",
  "CC",
  NULL,
  NULL,
  "Section Name",
  "Metric Name",
  "Metric Unit",
  "Metric Value",
  "Rule Name",
  "Rule Type",
  "Rule Description",
  "Estimated Speedup Type",
  "Estimated Speedup",
};

static Column
classify (const char *header)
{
  /* --nvtx: "thread Domain:Push/Pop_Range:…" and "Id:Domain:Start/Stop_Range:…". */
  if (strstr (header, "Push/Pop_Range") != NULL)
    return COL_NVTX_PUSH_POP;
  if (strstr (header, "Start/Stop_Range") != NULL)
    return COL_NVTX_START_END;
  for (int c = 0; c < N_COLS; c++)
    if (column_names[c] != NULL && g_str_equal (header, column_names[c]))
      return (Column) c;
  return COL_METRIC;
}

typedef struct
{
  const char *path;
  WsNcuResults *results;
  GHashTable *launch_index; /* identity → index + 1, across the files of one load */
  guint file;
  int col[N_COLS];       /* field index of each known column, or -1 */
  GPtrArray *header;     /* the header row's fields */
  GArray *metric_fields; /* raw page: field index of each metric column */
} Reader;

static const char *
field (GPtrArray *fields, int index)
{
  if (index < 0 || (guint) index >= fields->len)
    return NULL;
  return g_ptr_array_index (fields, index);
}

static const char *
known (Reader *r, GPtrArray *fields, Column c)
{
  return field (fields, r->col[c]);
}

static gint64
parse_int (const char *cell, gint64 fallback)
{
  double v;

  /* Beyond ±2^62 (a hostile "1e30") a cast would be undefined. */
  if (cell == NULL || !ws_csv_parse_number (cell, &v) || v != floor (v) || fabs (v) > 4.6e18)
    return fallback;
  return (gint64) v;
}

static const char *
intern_or_null (Reader *r, const char *cell)
{
  if (cell == NULL || cell[0] == '\0')
    return NULL;
  return ws_ncu_results_intern (r->results, cell);
}

/* The launch a row belongs to: new, or one already read from another page
 * of the same report (a raw and a details export opened together). */
static guint
launch_for_row (Reader *r, GPtrArray *fields, WsNcuPage page)
{
  static const Column identity[] = { COL_PID,     COL_ID,     COL_KERNEL, COL_HOST,
                                     COL_CONTEXT, COL_STREAM, COL_GRID,   COL_BLOCK };
  GString *key = g_string_new (NULL);
  gpointer found;
  WsNcuLaunch launch = { 0 };
  guint index;

  for (gsize i = 0; i < G_N_ELEMENTS (identity); i++)
    {
      const char *cell = known (r, fields, identity[i]);

      g_string_append (key, cell != NULL ? cell : "");
      g_string_append_c (key, '\x1f');
    }
  found = g_hash_table_lookup (r->launch_index, key->str);
  if (found != NULL)
    {
      index = GPOINTER_TO_UINT (found) - 1;
      g_array_index (r->results->launches, WsNcuLaunch, index).pages |= page;
      g_string_free (key, TRUE);
      return index;
    }

  launch.id = parse_int (known (r, fields, COL_ID), -1);
  launch.pid = (guint32) parse_int (known (r, fields, COL_PID), 0);
  launch.process = intern_or_null (r, known (r, fields, COL_PROCESS));
  launch.host = intern_or_null (r, known (r, fields, COL_HOST));
  launch.kernel = ws_ncu_results_intern (
    r->results, known (r, fields, COL_KERNEL) != NULL ? known (r, fields, COL_KERNEL) : "");
  launch.kernel_time = intern_or_null (r, known (r, fields, COL_KERNEL_TIME));
  launch.context = (gint32) parse_int (known (r, fields, COL_CONTEXT), -1);
  launch.stream = (gint32) parse_int (known (r, fields, COL_STREAM), -1);
  launch.block = intern_or_null (r, known (r, fields, COL_BLOCK));
  launch.grid = intern_or_null (r, known (r, fields, COL_GRID));
  launch.device = (gint32) parse_int (known (r, fields, COL_DEVICE), -1);
  launch.cc = intern_or_null (r, known (r, fields, COL_CC));
  launch.nvtx_push_pop = intern_or_null (r, known (r, fields, COL_NVTX_PUSH_POP));
  launch.nvtx_start_end = intern_or_null (r, known (r, fields, COL_NVTX_START_END));
  launch.file = r->file;
  launch.pages = page;
  index = ws_ncu_results_add_launch (r->results, &launch);
  g_hash_table_insert (r->launch_index, g_string_free (key, FALSE), GUINT_TO_POINTER (index + 1));
  return index;
}

/* Lines of ncu's own (==PROF==, ==ERROR==, ==WARNING==) and of the program
 * may come before the table in a live run's output. */
typedef struct
{
  const char *header; /* start of the header line, or NULL */
  guint header_line;  /* 1-based */
  char *first_error;  /* the first ==ERROR== line's text, or NULL */
  gboolean prof_lines;
} Preamble;

static gboolean
is_header_line (const char *line, gsize len)
{
  static const char quoted[] = "\"ID\",";
  static const char bare[] = "ID,";
  gsize n = MIN (len, 4096);

  if (!(len >= sizeof quoted - 1 && memcmp (line, quoted, sizeof quoted - 1) == 0) &&
      !(len >= sizeof bare - 1 && memcmp (line, bare, sizeof bare - 1) == 0))
    return FALSE;
  return g_strstr_len (line, n, "Kernel Name") != NULL;
}

static void
scan_preamble (const char *data, gsize len, Preamble *pre)
{
  const char *p = data;
  const char *end = data + len;
  guint line = 1;

  memset (pre, 0, sizeof *pre);
  if (len >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    p += 3;
  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      gsize n = (nl != NULL ? nl : end) - p;

      if (is_header_line (p, n))
        {
          pre->header = p;
          pre->header_line = line;
          return;
        }
      if (n >= 8 && memcmp (p, "==PROF==", 8) == 0)
        pre->prof_lines = TRUE;
      if (pre->first_error == NULL && n >= 9 && memcmp (p, "==ERROR==", 9) == 0)
        pre->first_error = g_strstrip (g_strndup (p + 9, n - 9));
      if (nl == NULL)
        break;
      p = nl + 1;
      line++;
    }
}

/**
 * ws_ncu_reader_sniff:
 * @head: the first bytes of a file (a KB is plenty)
 *
 * Whether the file is an ncu CSV export (raw or details page), or the
 * output of a live `ncu --csv` run (==PROF== lines before the table, or
 * only ==ERROR== lines: the reader then says what ncu reported).
 */
gboolean
ws_ncu_reader_sniff (const char *head, gsize len)
{
  const char *p = head;
  const char *end = head + len;

  g_return_val_if_fail (head != NULL || len == 0, FALSE);

  if (len >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    p += 3;
  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      gsize n = (nl != NULL ? nl : end) - p;

      if (n >= 19 && memcmp (p, "\"ID\",\"Process ID\",", 18) == 0)
        return TRUE;
      if ((n >= 8 && memcmp (p, "==PROF==", 8) == 0) || (n >= 9 && memcmp (p, "==ERROR==", 9) == 0))
        return TRUE;
      if (nl == NULL)
        break;
      p = nl + 1;
    }
  return FALSE;
}

static gboolean
read_header (Reader *r, GPtrArray *fields)
{
  for (int c = 0; c < N_COLS; c++)
    r->col[c] = -1;
  g_array_set_size (r->metric_fields, 0);
  for (guint i = 0; i < fields->len; i++)
    {
      Column c = classify (g_ptr_array_index (fields, i));

      if (c == COL_METRIC)
        g_array_append_val (r->metric_fields, i);
      else if (r->col[c] < 0)
        r->col[c] = (int) i;
    }
  return r->col[COL_KERNEL] >= 0;
}

/* A row that is not a launch: blank, or ncu's own output after the table. */
static gboolean
skip_row (GPtrArray *fields)
{
  const char *first = fields->len > 0 ? g_ptr_array_index (fields, 0) : "";

  return (fields->len <= 1 && first[0] == '\0') || g_str_has_prefix (first, "==");
}

static gboolean
read_raw (Reader *r, WsCsvReader *csv, GCancellable *cancellable, guint *n_rows, GError **error)
{
  g_autoptr (GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) units = NULL;
  g_autofree WsNcuMetric **metrics = g_new0 (WsNcuMetric *, MAX (r->metric_fields->len, 1));
  GError *local = NULL;

  /* Columns in the file's order, whether or not a launch has a value. */
  for (guint m = 0; m < r->metric_fields->len; m++)
    metrics[m] = ws_ncu_results_add_metric (
      r->results, NULL, g_ptr_array_index (r->header, g_array_index (r->metric_fields, int, m)),
      NULL);

  while (ws_csv_reader_next (csv, fields, &local))
    {
      guint launch;

      if (skip_row (fields))
        continue;
      /* The units row: the leading columns are empty. */
      if (units == NULL && *n_rows == 0 &&
          ((const char *) g_ptr_array_index (fields, 0))[0] == '\0')
        {
          units = g_steal_pointer (&fields);
          fields = g_ptr_array_new_with_free_func (g_free);
          continue;
        }
      if ((*n_rows & 1023) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;

      launch = launch_for_row (r, fields, WS_NCU_PAGE_RAW);
      for (guint m = 0; m < r->metric_fields->len; m++)
        {
          int i = g_array_index (r->metric_fields, int, m);
          const char *cell = field (fields, i);

          if (cell != NULL)
            ws_ncu_results_set_cell (r->results, metrics[m], launch, cell,
                                     units != NULL ? field (units, i) : NULL);
        }
      (*n_rows)++;
    }
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

/* The details page: one row per metric (or per rule) of a launch; the rows
 * of a launch come together. */
static gboolean
read_details (Reader *r, WsCsvReader *csv, GCancellable *cancellable, guint *n_rows, GError **error)
{
  g_autoptr (GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
  GError *local = NULL;
  guint rows = 0;

  while (ws_csv_reader_next (csv, fields, &local))
    {
      const char *section, *name, *rule;
      guint launch;

      if (skip_row (fields))
        continue;
      if ((rows++ & 1023) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;

      launch = launch_for_row (r, fields, WS_NCU_PAGE_DETAILS);
      *n_rows = MAX (*n_rows, launch + 1);
      section = known (r, fields, COL_SECTION);
      name = known (r, fields, COL_METRIC_NAME);
      rule = known (r, fields, COL_RULE_NAME);

      if (name != NULL && name[0] != '\0')
        {
          WsNcuMetric *metric = ws_ncu_results_add_metric (r->results, section, name,
                                                           ws_ncu_reader_alias (section, name));
          const char *value = known (r, fields, COL_METRIC_VALUE);

          ws_ncu_results_set_cell (r->results, metric, launch, value != NULL ? value : "",
                                   known (r, fields, COL_METRIC_UNIT));
        }
      else if (rule != NULL && rule[0] != '\0')
        {
          WsNcuRule item = { 0 };
          double speedup;

          item.launch = launch;
          item.section = intern_or_null (r, section);
          item.name = intern_or_null (r, rule);
          item.type = intern_or_null (r, known (r, fields, COL_RULE_TYPE));
          item.description = intern_or_null (r, known (r, fields, COL_RULE_DESCRIPTION));
          item.speedup_type = intern_or_null (r, known (r, fields, COL_SPEEDUP_TYPE));
          item.speedup =
            ws_csv_parse_number (known (r, fields, COL_SPEEDUP), &speedup) ? speedup : NAN;
          ws_ncu_results_add_rule (r->results, &item);
        }
    }
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

static gsize
max_file_bytes (void)
{
  /* Metrics are stored as doubles, about as large as their text: a
   * quarter of the memory budget leaves room for both. */
  return (gsize) MIN ((guint64) G_MAXSIZE, MAX (ws_limits_memory_budget () / 4, 64 << 20));
}

static gboolean
read_file (Reader *r, GCancellable *cancellable, GError **error)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  Preamble pre;
  g_autoptr (WsCsvReader) csv = NULL;
  g_autoptr (GPtrArray) header = g_ptr_array_new_with_free_func (g_free);
  GError *local = NULL;
  gboolean details;
  guint n_launches = 0;
  gboolean ok;

  if (!ws_csv_load_file (r->path, max_file_bytes (), &data, &len, error))
    return FALSE;

  scan_preamble (data, len, &pre);
  if (pre.header == NULL)
    {
      if (pre.first_error != NULL)
        g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NO_DATA,
                     "%s: Nsight Compute exported no results, only an error: %s", r->path,
                     pre.first_error);
      else if (pre.prof_lines)
        g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NO_DATA,
                     "%s: Nsight Compute profiled no kernel (its ==PROF== lines are not "
                     "followed by a result table)",
                     r->path);
      else
        g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                     "%s: not an Nsight Compute CSV export (no \"ID\",…,\"Kernel Name\" "
                     "header row)",
                     r->path);
      g_free (pre.first_error);
      return FALSE;
    }
  g_free (pre.first_error);

  csv = ws_csv_reader_new (r->path, data, len, ',');
  ws_csv_reader_seek_line (csv, pre.header, pre.header_line);
  if (!ws_csv_reader_next (csv, header, &local) || !read_header (r, header))
    {
      if (local != NULL)
        g_propagate_error (error, local);
      else
        g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                     "%s: line %u: the header row has no \"Kernel Name\" column", r->path,
                     pre.header_line);
      return FALSE;
    }
  r->header = header;

  details = r->col[COL_METRIC_NAME] >= 0 && r->col[COL_METRIC_VALUE] >= 0;
  r->file = ws_ncu_results_add_file (r->results, r->path);
  if (details)
    ok = read_details (r, csv, cancellable, &n_launches, error);
  else
    ok = read_raw (r, csv, cancellable, &n_launches, error);
  r->header = NULL;
  if (!ok)
    return FALSE;

  if (n_launches == 0)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NO_DATA,
                   "%s: the Nsight Compute export has a header but no profiled launch", r->path);
      return FALSE;
    }
  return TRUE;
}

/**
 * ws_ncu_reader_load:
 * @paths: (array zero-terminated=1): ncu CSV exports of one program
 *
 * Reads the raw and details pages of `ncu --csv` (live or --import),
 * with any lines before the table, auto or base units, the 2019 layout,
 * --nvtx columns and PM-sampling columns.  A launch that two files both
 * hold (a raw and a details export of one report) is read once.
 *
 * Returns: (transfer full): the results, or %NULL with @error set
 */
WsNcuResults *
ws_ncu_reader_load (const char *const *paths, GCancellable *cancellable, GError **error)
{
  g_autoptr (WsNcuResults) results = ws_ncu_results_new ();
  g_autoptr (GHashTable) launch_index =
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GArray) metric_fields = g_array_new (FALSE, FALSE, sizeof (int));

  g_return_val_if_fail (paths != NULL && paths[0] != NULL, NULL);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      Reader r = { 0 };

      r.path = paths[i];
      r.results = results;
      r.launch_index = launch_index;
      r.metric_fields = metric_fields;
      if (!read_file (&r, cancellable, error))
        return NULL;
    }
  ws_ncu_results_finish (results);
  return g_steal_pointer (&results);
}

/**
 * ws_ncu_reader_load_file:
 *
 * Returns: (transfer full): the results of one file, or %NULL with @error set
 */
WsNcuResults *
ws_ncu_reader_load_file (const char *path, GError **error)
{
  const char *paths[] = { path, NULL };

  return ws_ncu_reader_load (paths, NULL, error);
}
