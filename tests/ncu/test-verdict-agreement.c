/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One verdict per launch (issue 31, item 2): every command and export that
 * shows a profiled launch's verdict shows the same one, on every fixture
 * with ncu CSVs and an nsys export of the same program. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "ws-csv.h"
#include "ws-ncu-match.h"
#include "ws-test-load.h"
#include "ws-test-fixtures.h"
#include "ws-test-util.h"

/* Runs warpscope-cli with @args then the fixture's paths; its output. */
static char *
run_cli (const WsTestNcuFixture *fixture, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *err = NULL;
  char *out = NULL;
  int status;

  g_ptr_array_add (argv, (gpointer) ws_test_cli ());
  for (const char *const *a = args; *a != NULL; a++)
    g_ptr_array_add (argv, (gpointer) *a);
  for (guint i = 0; i + 1 < fixture->paths->len; i++)
    g_ptr_array_add (argv, g_ptr_array_index (fixture->paths, i));
  g_ptr_array_add (argv, NULL);
  status = ws_test_run ((const char *const *) argv->pdata, &out, &err);
  if (status != 0)
    g_error ("%s: %s failed (%d): %s", fixture->name, args[0], status, err);
  return out;
}

/* `gauges --format csv`: the verdict column, one per launch in order. */
static GPtrArray *
csv_verdicts (const char *text)
{
  g_autoptr (WsCsvReader) reader = ws_csv_reader_new ("gauges.csv", text, strlen (text), ',');
  g_autoptr (GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *verdicts = g_ptr_array_new_with_free_func (g_free);
  int column = -1;

  g_assert_true (ws_csv_reader_next (reader, fields, NULL));
  for (guint i = 0; i < fields->len; i++)
    if (g_str_equal (g_ptr_array_index (fields, i), "verdict"))
      column = (int) i;
  g_assert_cmpint (column, >=, 0);
  while (ws_csv_reader_next (reader, fields, NULL) && fields->len > 0)
    g_ptr_array_add (verdicts, g_strdup (g_ptr_array_index (fields, column)));
  return verdicts;
}

/* The Markdown report's verdict lines under the gauges table:
 * "- 3  Memory: L1/shared memory 90.11% ≥ 60% …". */
static GPtrArray *
markdown_verdicts (const char *text, guint n)
{
  GPtrArray *verdicts = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *prefix = g_strdup_printf ("\n- %u  ", i);
      const char *line = strstr (text, prefix);
      const char *colon;

      g_assert_nonnull (line);
      line += strlen (prefix);
      colon = strstr (line, ": ");
      g_assert_nonnull (colon);
      g_ptr_array_add (verdicts, g_strndup (line, colon - line));
    }
  return verdicts;
}

/* What each bottleneck of the Why page counts as (docs/why-slow.md): too
 * little work is a latency problem, a compute and a memory unit both near
 * their peak is mixed. */
static const char *
class_of_bottleneck (const char *kind)
{
  static const char *const classes[][2] = {
    { "compute", "Compute" },         { "memory", "Memory" }, { "latency", "Latency" },
    { "too-little-work", "Latency" }, { "mixed", "Mixed" },   { "unknown", "Unknown" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (classes); i++)
    if (g_str_equal (kind, classes[i][0]))
      return classes[i][1];
  g_error ("bottleneck kind %s", kind);
  return NULL;
}

/* The rollup's columns, in the order of its CSV. */
static const char *const rollup_classes[] = { "Compute", "Memory", "Latency", "Mixed" };

static int
rollup_column (const char *verdict)
{
  for (gsize c = 0; c < G_N_ELEMENTS (rollup_classes); c++)
    if (g_str_equal (verdict, rollup_classes[c]))
      return (int) c;
  return -1;
}

/* SQL's text literal of @text. */
static char *
sql_quote (const char *text)
{
  GString *out = g_string_new ("'");

  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '\'')
        g_string_append_c (out, '\'');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '\'');
  return g_string_free (out, FALSE);
}

/* The GPU time in ns of the kernels of @name launched with @grid and
 * @block inside push/pop range ":@range" of the default domain, as SQLite
 * projects it: the launch (the runtime call with the kernel's correlation
 * id) on the range's thread, between its start and end; -1 when the export
 * has no such range. */
static gint64
sql_range_kernel_ns (const char *sqlite, const char *range, const char *name, const char *grid,
                     const char *block)
{
  g_autofree char *r = sql_quote (range);
  g_autofree char *k = sql_quote (name);
  g_autofree char *g = sql_quote (grid);
  g_autofree char *b = sql_quote (block);
  g_autofree char *sql = g_strdup_printf (
    "SELECT coalesce(sum(k.end - k.start), 0) FROM NVTX_EVENTS n "
    "LEFT JOIN StringIds t ON t.id = n.textId "
    "JOIN CUPTI_ACTIVITY_KIND_RUNTIME a ON a.globalTid = n.globalTid AND a.start >= n.start "
    "AND a.start <= n.end "
    "JOIN CUPTI_ACTIVITY_KIND_KERNEL k ON k.correlationId = a.correlationId "
    "AND k.globalPid = (a.globalTid / 16777216) * 16777216 "
    "JOIN StringIds d ON d.id = k.demangledName "
    "WHERE n.eventType = 59 AND coalesce(n.domainId, 0) = 0 AND coalesce(n.text, t.value) = %s "
    "AND d.value = %s AND '(' || k.gridX || ', ' || k.gridY || ', ' || k.gridZ || ')' = %s "
    "AND '(' || k.blockX || ', ' || k.blockY || ', ' || k.blockZ || ')' = %s",
    r, k, g, b);
  g_autofree char *text = ws_test_sqlite_text (sqlite, sql);

  return text != NULL ? g_ascii_strtoll (text, NULL, 10) : -1;
}

typedef struct
{
  const char *nsys; /* the nsys kernel it joined */
  const char *grid; /* "(128, 1, 1)" */
  const char *block;
  double duration; /* ns */
  const char *verdict;
} Launch;

/* `rollup --format csv` against the launches' verdicts: in each push/pop
 * range of the default domain, each class's time is that of the kernels
 * whose standing launch (the longest profiled launch of the kernel with
 * the same grid and block) has that verdict, the kernels' time summed by
 * SQLite over the export.  Returns the ranges checked. */
static guint
check_rollup (const WsTestNcuFixture *fixture, const char *csv, GArray *launches)
{
  g_autoptr (WsCsvReader) reader = ws_csv_reader_new ("rollup.csv", csv, strlen (csv), ',');
  g_autoptr (GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
  guint checked = 0, rows = 0;

  g_assert_true (ws_csv_reader_next (reader, fields, NULL));
  g_assert_cmpstr (g_ptr_array_index (fields, 2), ==, "compute_ns");
  while (ws_csv_reader_next (reader, fields, NULL) && fields->len >= 7 && rows++ < 12)
    {
      const char *range = g_ptr_array_index (fields, 0);
      gint64 expected[G_N_ELEMENTS (rollup_classes)] = { 0 };
      gboolean known = TRUE;

      if (range[0] != ':')
        continue;
      for (guint i = 0; i < launches->len && known; i++)
        {
          const Launch *l = &g_array_index (launches, Launch, i);
          gboolean standing = l->nsys != NULL;
          gint64 ns;
          int column;

          /* Only the longest launch of a kernel and configuration counts (the first of equals). */
          for (guint j = 0; j < launches->len && standing; j++)
            {
              const Launch *o = &g_array_index (launches, Launch, j);

              if (j != i && o->nsys != NULL && g_str_equal (o->nsys, l->nsys) &&
                  g_str_equal (o->grid, l->grid) && g_str_equal (o->block, l->block) &&
                  (o->duration > l->duration || (o->duration == l->duration && j < i)))
                standing = FALSE;
            }
          if (!standing || (column = rollup_column (l->verdict)) < 0)
            continue;
          ns = sql_range_kernel_ns (fixture->sqlite, range + 1, l->nsys, l->grid, l->block);
          if (ns < 0)
            known = FALSE;
          else
            expected[column] += ns;
        }
      if (!known)
        continue;
      for (gsize c = 0; c < G_N_ELEMENTS (rollup_classes); c++)
        {
          gint64 got = g_ascii_strtoll (g_ptr_array_index (fields, 2 + c), NULL, 10);

          if (got != expected[c])
            g_error ("%s: rollup of %s: %s %" G_GINT64_FORMAT " ns, the launches' verdicts give "
                     "%" G_GINT64_FORMAT,
                     fixture->name, range, rollup_classes[c], got, expected[c]);
        }
      checked++;
    }
  return checked;
}

/* The four views of each launch of @fixture: `gauges --format csv`, its
 * JSON, the Why bottleneck in that JSON, and the Markdown report's line;
 * the launches go to @launches (strings owned by @parser). */
static guint
check_views (const WsTestNcuFixture *fixture, JsonParser *parser, GArray *launches)
{
  const char *csv_args[] = { "gauges", "--format", "csv", NULL };
  const char *json_args[] = { "gauges", "--format", "json", NULL };
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *md_path = g_build_filename (dir, "report.md", NULL);
  g_autofree char *md_option = g_strdup_printf ("--markdown=%s", md_path);
  const char *md_args[] = { "export", md_option, NULL };
  g_autofree char *csv = run_cli (fixture, csv_args);
  g_autofree char *json = run_cli (fixture, json_args);
  g_autofree char *md_out = run_cli (fixture, md_args);
  g_autofree char *md = ws_test_read (md_path);
  g_autoptr (GPtrArray) from_csv = csv_verdicts (csv);
  g_autoptr (GPtrArray) from_md = NULL;
  JsonArray *array;
  guint n;

  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  array =
    json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "launches");
  n = json_array_get_length (array);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (from_csv->len, ==, n);
  from_md = markdown_verdicts (md, n);
  for (guint i = 0; i < n; i++)
    {
      JsonObject *o = json_array_get_object_element (array, i);
      JsonObject *bottleneck = json_object_get_object_member (o, "bottleneck");
      JsonObject *duration =
        json_object_get_object_member (json_object_get_object_member (o, "gauges"), "duration_ns");
      JsonNode *value = json_object_get_member (duration, "value");
      const char *verdict = g_ptr_array_index (from_csv, i);
      Launch l = { 0 };

      if (g_strcmp0 (json_object_get_string_member (o, "verdict"), verdict) != 0 ||
          g_strcmp0 (json_object_get_string_member (bottleneck, "verdict"), verdict) != 0 ||
          g_strcmp0 (class_of_bottleneck (json_object_get_string_member (bottleneck, "kind")),
                     verdict) != 0 ||
          g_strcmp0 (g_ptr_array_index (from_md, i), verdict) != 0)
        g_error ("%s launch %u: CSV %s, JSON %s, why %s (%s), Markdown %s", fixture->name, i,
                 verdict, json_object_get_string_member (o, "verdict"),
                 json_object_get_string_member (bottleneck, "verdict"),
                 json_object_get_string_member (bottleneck, "kind"),
                 (const char *) g_ptr_array_index (from_md, i));
      l.nsys = json_object_get_string_member_with_default (o, "nsys_kernel", NULL);
      l.grid = json_object_get_string_member (o, "grid");
      l.block = json_object_get_string_member (o, "block");
      l.duration = JSON_NODE_HOLDS_VALUE (value) ? json_node_get_double (value) : 0;
      l.verdict = json_object_get_string_member (o, "verdict");
      g_array_append_val (launches, l);
    }
  ws_test_rmtree (dir);
  return n;
}

static void
test_every_view_agrees (void)
{
  g_autoptr (GPtrArray) fixtures = ws_test_ncu_fixtures ();
  guint launches_total = 0, ranges_total = 0;

  for (guint f = 0; f < fixtures->len; f++)
    {
      const WsTestNcuFixture *fixture = g_ptr_array_index (fixtures, f);
      const char *rollup_args[] = { "rollup", "--format", "csv", NULL };
      g_autofree char *rollup = run_cli (fixture, rollup_args);
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GArray) launches = g_array_new (FALSE, TRUE, sizeof (Launch));
      guint n = check_views (fixture, parser, launches);
      guint ranges = check_rollup (fixture, rollup, launches);

      g_test_message ("%s: %u launches x 4 views (gauges CSV and JSON, why, Markdown), "
                      "rollup of %u ranges",
                      fixture->name, n, ranges);
      launches_total += n;
      ranges_total += ranges;
    }
  g_test_message ("%u fixtures, %u launches, %u ranges", fixtures->len, launches_total,
                  ranges_total);
  g_assert_cmpuint (ranges_total, >, 0);
}

/* ncu and nvprof results without an export (every file of tests/data/ncu
 * but the one holding only ncu's error, and nvprof's metric outputs): the
 * four views that need no nsys run agree too. */
static void
test_ncu_only_views_agree (void)
{
  g_autofree char *ncu_dir = ws_test_data ("ncu", NULL);
  g_autofree char *tmp = ws_test_tmpdir ();
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) names = ws_test_list_dir (ncu_dir);
  guint total = 0;

  for (guint i = 0; i < names->len; i++)
    if (strstr (g_ptr_array_index (names, i), "errors_only") == NULL)
      g_ptr_array_add (files, g_build_filename (ncu_dir, g_ptr_array_index (names, i), NULL));
  g_ptr_array_add (files, ws_test_data ("nvprof", "metrics_magus_concurrentkernels.csv", NULL));
  g_ptr_array_add (files, ws_test_data ("nvprof", "metrics_mixed_written.txt", NULL));
  g_ptr_array_add (files, ws_test_unxz ("nvprof/v100_darknet19_metrics.txt.xz", tmp));
  for (guint i = 0; i < files->len; i++)
    {
      WsTestNcuFixture fixture = { 0 };
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GArray) launches = g_array_new (FALSE, TRUE, sizeof (Launch));
      g_autofree char *name = g_path_get_basename (g_ptr_array_index (files, i));
      guint n;

      fixture.name = name;
      fixture.paths = g_ptr_array_new ();
      g_ptr_array_add (fixture.paths, g_ptr_array_index (files, i));
      g_ptr_array_add (fixture.paths, NULL);
      n = check_views (&fixture, parser, launches);
      g_ptr_array_unref (fixture.paths);
      g_test_message ("%s: %u launches x 4 views", name, n);
      total += n;
    }
  g_test_message ("%u files, %u launches", files->len, total);
  ws_test_rmtree (tmp);
}

/* ---- Verdicts recomputed from an ncu CSV's cells (issue 40, item 10) ----
 *
 * The rule of docs/NOTES.md, "Gauges and verdicts", and docs/why-slow.md,
 * "The bottleneck", written again here from the documentation, on the
 * cells of the file: each unit's throughput is the first of its metrics
 * that the row has; the compute side is the busiest pipe or instruction
 * issue (the SM as a whole where none is known), the memory side the
 * busiest of L1, L2 and DRAM; without either side the verdict is Unknown;
 * a grid under one wave whose SM and memory throughput are both under 60%
 * is Latency (too little work); a busiest unit at 60% or more decides
 * (Mixed when the other side is at 60% too and the two are under 10
 * points apart); everything else is Latency. */

#define BUSY 60.0 /* % of peak */
#define GAP 10.0  /* points */

enum
{
  U_TENSOR,
  U_FMA,
  U_ALU,
  U_FP64,
  U_XU,
  U_ISSUE,
  U_SM,
  U_L1,
  U_L2,
  U_DRAM,
  N_UNITS
};

static const char *const unit_names[N_UNITS][6] = {
  [U_TENSOR] = { "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed",
                 "sm__pipe_tensor_cycles_active_v2.avg.pct_of_peak_sustained_elapsed",
                 "sm__pipe_tc_cycles_active.avg.pct_of_peak_sustained_elapsed",
                 "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed",
                 "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active" },
  [U_FMA] = { "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed",
              "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_elapsed",
              "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active" },
  [U_ALU] = { "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_elapsed",
              "sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_elapsed" },
  [U_FP64] = { "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_elapsed",
               "sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_elapsed" },
  [U_XU] = { "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_elapsed" },
  [U_ISSUE] = { "sm__inst_issued.avg.pct_of_peak_sustained_elapsed",
                "sm__issue_active.avg.pct_of_peak_sustained_elapsed",
                "sm__inst_issued_per_active_cycle_sol_pct" },
  [U_SM] = { "sm__throughput.avg.pct_of_peak_sustained_elapsed", "sm__sol_pct" },
  [U_L1] = { "l1tex__throughput.avg.pct_of_peak_sustained_elapsed",
             "l1tex__throughput.avg.pct_of_peak_sustained_active", "tex__sol_pct" },
  [U_L2] = { "lts__throughput.avg.pct_of_peak_sustained_elapsed", "ltc__sol_pct" },
  [U_DRAM] = { "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
               "dram__throughput.avg.pct_of_peak_sustained_elapsed", "fbpa__sol_pct" },
};
static const char *const memory_sol_names[] = {
  "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "gpu__compute_memory_sol_pct",
  NULL
};
static const char *const waves_name = "launch__waves_per_multiprocessor";
static const char *const duration_name = "gpu__time_duration.sum";

/* An ncu raw CSV: its header, its units row and its launches' rows. */
typedef struct
{
  GPtrArray *header; /* char* */
  GPtrArray *units;
  GPtrArray *rows; /* GPtrArray of char* */
} Cells;

static void
cells_free (Cells *c)
{
  g_ptr_array_unref (c->header);
  g_ptr_array_unref (c->units);
  g_ptr_array_unref (c->rows);
  g_free (c);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Cells, cells_free)

static Cells *
cells_read (const char *path)
{
  g_autofree char *text = ws_test_read (path);
  const char *table = g_str_has_prefix (text, "\"ID\"") ? text : strstr (text, "\n\"ID\"");
  g_autoptr (WsCsvReader) reader = NULL;
  Cells *c = g_new0 (Cells, 1);

  g_assert_nonnull (table);
  table += table[0] == '\n';
  reader = ws_csv_reader_new (path, table, strlen (table), ',');
  c->header = g_ptr_array_new_with_free_func (g_free);
  c->units = g_ptr_array_new_with_free_func (g_free);
  c->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_assert_true (ws_csv_reader_next (reader, c->header, NULL));
  g_assert_true (ws_csv_reader_next (reader, c->units, NULL));
  for (;;)
    {
      GPtrArray *row = g_ptr_array_new_with_free_func (g_free);

      if (!ws_csv_reader_next (reader, row, NULL) || row->len != c->header->len)
        {
          g_ptr_array_unref (row);
          break;
        }
      g_ptr_array_add (c->rows, row);
    }
  return c;
}

static int
cells_column (const Cells *c, const char *name)
{
  for (guint i = 0; i < c->header->len; i++)
    if (g_str_equal (g_ptr_array_index (c->header, i), name))
      return (int) i;
  return -1;
}

static const char *
cells_get (const Cells *c, guint row, const char *name)
{
  int col = cells_column (c, name);

  return col >= 0 ? g_ptr_array_index ((GPtrArray *) g_ptr_array_index (c->rows, row), col) : NULL;
}

/* A cell's number: ncu's instance form "12.5 (…)" keeps its aggregate;
 * NaN when the cell is empty or not a number. */
static double
cells_number (const Cells *c, guint row, const char *name)
{
  const char *cell = cells_get (c, row, name);
  g_autofree char *head = NULL;
  char *end;
  double v;

  if (cell == NULL || cell[0] == '\0')
    return NAN;
  head = g_strndup (cell, strcspn (cell, " "));
  v = g_ascii_strtod (head, &end);
  return end != head && *end == '\0' ? v : NAN;
}

static double
first_number (const Cells *c, guint row, const char *const *names)
{
  for (guint i = 0; names[i] != NULL; i++)
    {
      double v = cells_number (c, row, names[i]);

      if (!isnan (v))
        return v;
    }
  return NAN;
}

/* The launch's duration in ns, from the cell and the units row. */
static double
cells_duration_ns (const Cells *c, guint row)
{
  static const struct
  {
    const char *unit;
    double ns;
  } scale[] = { { "nsecond", 1 }, { "usecond", 1e3 }, { "msecond", 1e6 }, { "second", 1e9 },
                { "ns", 1 },      { "us", 1e3 },      { "ms", 1e6 },      { "s", 1e9 } };
  int col = cells_column (c, duration_name);
  double v = cells_number (c, row, duration_name);

  if (col < 0 || isnan (v))
    return NAN;
  for (gsize i = 0; i < G_N_ELEMENTS (scale); i++)
    if (g_str_equal (g_ptr_array_index (c->units, col), scale[i].unit))
      return v * scale[i].ns;
  g_error ("duration unit %s", (const char *) g_ptr_array_index (c->units, col));
  return NAN;
}

/* The busiest unit of [first, last) with a number, or -1. */
static int
busiest_of (const double *u, int first, int last)
{
  int best = -1;

  for (int i = first; i < last; i++)
    if (!isnan (u[i]) && (best < 0 || u[i] > u[best]))
      best = i;
  return best;
}

/* The documented verdict of row @row, as the commands print it. */
static const char *
cells_verdict (const Cells *c, guint row)
{
  double u[N_UNITS], waves, sm, memory;
  int compute, mem, top;

  for (int i = 0; i < N_UNITS; i++)
    u[i] = first_number (c, row, unit_names[i]);
  compute = busiest_of (u, U_TENSOR, U_SM);
  if (compute < 0 && !isnan (u[U_SM]))
    compute = U_SM;
  mem = busiest_of (u, U_L1, N_UNITS);
  if (compute < 0 || mem < 0)
    return "Unknown";
  top = u[compute] >= u[mem] ? compute : mem;
  waves = cells_number (c, row, waves_name);
  sm = u[U_SM];
  memory = first_number (c, row, memory_sol_names);
  if (!isnan (waves) && waves < 1 && !(sm >= BUSY) && !(memory >= BUSY))
    return "Latency";
  if (u[top] >= BUSY)
    {
      int other = top == compute ? mem : compute;

      if (u[other] >= BUSY && fabs (u[compute] - u[mem]) < GAP)
        return "Mixed";
      return top == mem ? "Memory" : "Compute";
    }
  return "Latency";
}

/* Each launch's verdict printed by `gauges --format csv` against the one
 * recomputed from the file's cells, for real ncu CSVs of four GPUs'
 * worth of kernels (H100 probe and PyTorch training, a 2019 GTX 1080). */
static void
test_verdicts_from_cells (void)
{
  static const char *const files[] = {
    "h100_probe_full_raw.csv",          "h100_probe_full_raw_base_units.csv",
    "h100_torch_nvtx_sections_raw.csv", "h100_train_bf16_sections_raw.csv",
    "h100_train_fp32_sections_raw.csv", "gtx1080_microgpusim_raw_2019.csv",
  };
  const char *args[] = { "gauges", "--format", "csv", NULL };
  g_autoptr (GHashTable) classes = g_hash_table_new (g_str_hash, g_str_equal);
  guint total = 0;

  for (gsize f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path = ws_test_data ("ncu", files[f], NULL);
      g_autoptr (Cells) cells = cells_read (path);
      WsTestNcuFixture fixture = { 0 };
      g_autofree char *csv = NULL;
      g_autoptr (GPtrArray) printed = NULL;

      fixture.name = (char *) files[f];
      fixture.paths = g_ptr_array_new ();
      g_ptr_array_add (fixture.paths, path);
      g_ptr_array_add (fixture.paths, NULL);
      csv = run_cli (&fixture, args);
      g_ptr_array_unref (fixture.paths);
      printed = csv_verdicts (csv);
      g_assert_cmpuint (printed->len, ==, cells->rows->len);
      g_assert_cmpuint (printed->len, >, 0);
      for (guint i = 0; i < cells->rows->len; i++)
        {
          const char *want = cells_verdict (cells, i);

          if (!g_str_equal (want, g_ptr_array_index (printed, i)))
            g_error ("%s row %u (%s): the cells give %s, gauges prints %s", files[f], i,
                     cells_get (cells, i, "Kernel Name"), want,
                     (const char *) g_ptr_array_index (printed, i));
          g_hash_table_add (classes, (gpointer) want);
        }
      g_test_message ("%s: %u launches as the cells give", files[f], cells->rows->len);
      total += cells->rows->len;
    }
  /* The files reach every class but Unknown. */
  g_assert_true (g_hash_table_contains (classes, "Compute"));
  g_assert_true (g_hash_table_contains (classes, "Memory"));
  g_assert_true (g_hash_table_contains (classes, "Latency"));
  g_assert_true (g_hash_table_contains (classes, "Mixed"));
  g_test_message ("%u launches", total);
}

/* Writes @c as an ncu raw CSV, every field quoted. */
static void
cells_write (const Cells *c, const char *path)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GError) error = NULL;

  for (guint r = 0; r < c->rows->len + 2; r++)
    {
      GPtrArray *row = r == 0 ? c->header : r == 1 ? c->units : g_ptr_array_index (c->rows, r - 2);

      for (guint i = 0; i < row->len; i++)
        {
          g_autofree char *q = NULL;
          g_auto (GStrv) parts = g_strsplit (g_ptr_array_index (row, i), "\"", -1);

          q = g_strjoinv ("\"\"", parts);
          g_string_append_printf (out, "%s\"%s\"", i > 0 ? "," : "", q);
        }
      g_string_append_c (out, '\n');
    }
  g_file_set_contents (path, out->str, (gssize) out->len, &error);
  g_assert_no_error (error);
}

static void
cells_set (Cells *c, guint row, const char *name, const char *value)
{
  int col = cells_column (c, name);
  GPtrArray *r = g_ptr_array_index (c->rows, row);

  g_assert_cmpint (col, >=, 0);
  g_free (g_ptr_array_index (r, col));
  g_ptr_array_index (r, col) = g_strdup (value);
}

/* Gives row @to the cells the verdict reads of row @from. */
static void
cells_copy_verdict (Cells *c, guint to, guint from)
{
  for (int u = 0; u < N_UNITS; u++)
    for (guint i = 0; unit_names[u][i] != NULL; i++)
      if (cells_column (c, unit_names[u][i]) >= 0)
        cells_set (c, to, unit_names[u][i], cells_get (c, from, unit_names[u][i]));
  for (guint i = 0; memory_sol_names[i] != NULL; i++)
    if (cells_column (c, memory_sol_names[i]) >= 0)
      cells_set (c, to, memory_sol_names[i], cells_get (c, from, memory_sol_names[i]));
  if (cells_column (c, waves_name) >= 0)
    cells_set (c, to, waves_name, cells_get (c, from, waves_name));
}

static int
cells_row_of (const Cells *c, const char *kernel, guint nth)
{
  for (guint i = 0; i < c->rows->len; i++)
    if (g_str_equal (cells_get (c, i, "Kernel Name"), kernel) && nth-- == 0)
      return (int) i;
  g_error ("no launch %u of %s", nth, kernel);
  return -1;
}

/* A kernel's verdict (docs/NOTES.md, "A kernel's verdict") from the cells:
 * the verdict of the rows of @kernel holding more than half of their
 * summed durations, else Mixed; @longest gets the longest row's. */
static const char *
cells_kernel_verdict (const Cells *c, const char *kernel, const char **longest)
{
  g_autoptr (GHashTable) time = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  double total = 0, longest_d = -1;
  GHashTableIter it;
  gpointer key, value;

  for (guint i = 0; i < c->rows->len; i++)
    {
      const char *v = cells_verdict (c, i);
      double d = cells_duration_ns (c, i);
      double *sum;

      if (!g_str_equal (cells_get (c, i, "Kernel Name"), kernel))
        continue;
      g_assert_false (isnan (d));
      if (d > longest_d)
        {
          longest_d = d;
          *longest = v;
        }
      sum = g_hash_table_lookup (time, v);
      if (sum == NULL)
        {
          sum = g_new0 (double, 1);
          g_hash_table_insert (time, (gpointer) v, sum);
        }
      *sum += d;
      total += d;
    }
  g_hash_table_iter_init (&it, time);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (*(double *) value > total / 2)
      return key;
  return "Mixed";
}

static const char *
verdict_word (WsVerdict v)
{
  static const char *const words[] = { "Compute", "Memory", "Latency", "Mixed", "Unknown" };

  return v >= 0 && v < (int) G_N_ELEMENTS (words) ? words[v] : "none";
}

/* Issue 40, item 7: a kernel's verdict is the one holding more than half of
 * its profiled time, else Mixed.  No ncu CSV here profiles one kernel with
 * two verdicts, so the probe's CSV is changed as docs/NOTES.md allows for
 * rules no real file fires: a launch is given another launch's throughput
 * cells, and launches are renamed.  The cells decide what to expect; the
 * program's kernel verdict (the one function every view reads) is checked,
 * and that the cases where it differs from the longest launch's are met. */
static void
test_kernel_verdict_by_time (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *source = ws_test_data ("ncu", "h100_probe_full_raw.csv", NULL);
  static const char *const barrier = "barrier_heavy(float *, int)";
  static const char *const fma = "fma_heavy(float *, int, int)";
  static const char *const strided = "strided_read(const float *, float *, int, int)";

  for (int variant = 0; variant < 2; variant++)
    {
      g_autoptr (Cells) cells = cells_read (source);
      g_autofree char *path = g_strdup_printf ("%s/probe_%d_raw.csv", dir, variant);
      const char *paths[] = { path, NULL };
      g_autoptr (WsRun) run = NULL;
      g_autoptr (GHashTable) kernels = g_hash_table_new (g_str_hash, g_str_equal);
      int b0 = cells_row_of (cells, barrier, 0), b1 = cells_row_of (cells, barrier, 1);
      GHashTableIter it;
      gpointer kernel;
      guint differ = 0, mixed = 0;

      /* barrier_heavy's second launch (561.312 µs, as long as its first)
       * gets fma_heavy's throughputs: Memory and Compute hold half each. */
      cells_copy_verdict (cells, (guint) b1, (guint) cells_row_of (cells, fma, 0));
      if (variant == 1)
        {
          /* Its first launch becomes another kernel, and strided_read's two
           * (409.152 and 408.768 µs, Memory) become barrier_heavy's: the
           * longest launch is Compute, Memory holds 59%. */
          int s0 = cells_row_of (cells, strided, 0), s1 = cells_row_of (cells, strided, 1);

          cells_set (cells, (guint) b0, "Kernel Name", "barrier_heavy_first(float *, int)");
          cells_set (cells, (guint) s0, "Kernel Name", barrier);
          cells_set (cells, (guint) s1, "Kernel Name", barrier);
        }
      cells_write (cells, path);
      run = ws_test_load_paths (paths);
      g_assert_nonnull (run->ncu);
      g_assert_cmpuint (ws_ncu_results_n_launches (run->ncu), ==, cells->rows->len);
      for (guint i = 0; i < cells->rows->len; i++)
        {
          g_assert_cmpstr (verdict_word (ws_ncu_results_gauges (run->ncu, i)->verdict), ==,
                           cells_verdict (cells, i));
          g_hash_table_add (kernels, (gpointer) cells_get (cells, i, "Kernel Name"));
        }
      g_hash_table_iter_init (&it, kernels);
      while (g_hash_table_iter_next (&it, &kernel, NULL))
        {
          const char *longest = NULL;
          const char *want = cells_kernel_verdict (cells, kernel, &longest);
          WsKernelVerdict kv;
          guint rows_of = 0;

          ws_ncu_match_kernel_verdict (run->ncu, kernel, &kv);
          g_test_message ("variant %d, %s: %s (longest launch %s)", variant, (const char *) kernel,
                          want, longest);
          g_assert_cmpstr (verdict_word (kv.verdict), ==, want);
          g_assert_cmpstr (verdict_word (ws_ncu_match_verdict_for (run->ncu, kernel)), ==, want);
          g_assert_false (kv.by_count);
          for (guint i = 0; i < cells->rows->len; i++)
            rows_of += g_str_equal (cells_get (cells, i, "Kernel Name"), kernel);
          g_assert_cmpuint (kv.n_launches, ==, rows_of);
          mixed += !kv.majority;
          differ += !g_str_equal (want, longest);
        }
      /* The two cases the variants were made for were met. */
      g_assert_cmpuint (variant == 0 ? mixed : differ, ==, 1);
    }
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/verdict/every-fixture/commands-and-exports-agree", test_every_view_agrees);
  g_test_add_func ("/verdict/ncu-only/commands-and-exports-agree", test_ncu_only_views_agree);
  g_test_add_func ("/verdict/ncu-csv/recomputed-from-cells", test_verdicts_from_cells);
  g_test_add_func ("/verdict/kernel/majority-of-profiled-time", test_kernel_verdict_by_time);

  return g_test_run ();
}
