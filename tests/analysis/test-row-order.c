/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ws-test-util.h"

/* nsys 2025.6 says its exported rows may no longer come in time order.
 * Every stats report must then be the same: each real export here is
 * copied with the rows of every table shuffled (CREATE TABLE … AS SELECT …
 * ORDER BY random()), and every report of both must be byte for byte the
 * same. */

static char *graphs_tmp;
static char *gpt2_tmp;

/* Every report, and each kernel report with a name argument. */
static const char *const reports[] = {
  "cuda_gpu_kern_sum",
  "cuda_gpu_kern_sum:base",
  "cuda_gpu_kern_sum:mangled",
  "nvtx_sum",
  "cuda_api_sum",
  "cuda_gpu_mem_time_sum",
  "cuda_gpu_mem_size_sum",
  "osrt_sum",
  "nvtx_gpu_proj_sum",
  "nvtx_kern_sum",
  "nvtx_kern_sum:base",
  "cuda_gpu_kern_gb_sum",
  "cuda_gpu_kern_gb_sum:mangled",
  "cuda_kern_exec_sum",
  "cuda_kern_exec_sum:base",
};

/* Rewrites @table of the file at @copy with its rows in a random order. */
static void
shuffle_table (const char *copy, const char *table)
{
  g_autofree char *sql =
    g_strdup_printf ("CREATE TABLE \"%1$s__shuffled\" AS SELECT * FROM \"%1$s\" ORDER BY random();"
                     " DROP TABLE \"%1$s\"; ALTER TABLE \"%1$s__shuffled\" RENAME TO \"%1$s\";",
                     table);

  ws_test_sqlite_exec (copy, sql);
}

/* How many rows of @table start before the row stored before them. */
static gint64
rows_back_in_time (const char *db, const char *table)
{
  g_autofree char *sql = g_strdup_printf (
    "SELECT count(*) FROM (SELECT start < lag(start) OVER (ORDER BY rowid) AS back FROM \"%s\")"
    " WHERE back",
    table);
  g_autofree char *count = ws_test_sqlite_text (db, sql);

  return g_ascii_strtoll (count, NULL, 10);
}

/* Copies @db to a new folder, every table's rows in a random order; the
 * copy's path (its folder to be removed by the caller).  The kernels, the
 * API calls and the NVTX events come out of time order for sure: a table
 * of a few rows that a shuffle left in order is shuffled again.  (Exports
 * are not all in order to begin with: the API calls of nsys 2026.2's have
 * a few rows back in time, the OS runtime calls of 2025.3's too.) */
static char *
shuffled_copy (const char *db)
{
  static const char *const timed[] = { "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME",
                                       "NVTX_EVENTS" };
  g_autofree char *base = g_path_get_basename (db);
  char *copy = ws_test_copy_to_tmp (db, base);
  g_autofree char *tables = ws_test_sqlite_text (
    db, "SELECT group_concat(name, char(10)) FROM sqlite_master WHERE type = 'table'"
        " AND name NOT LIKE 'sqlite_%'");
  g_auto (GStrv) names = g_strsplit (tables, "\n", -1);

  for (guint i = 0; names[i] != NULL; i++)
    shuffle_table (copy, names[i]);
  for (gsize t = 0; t < G_N_ELEMENTS (timed); t++)
    {
      for (int tries = 0; tries < 20 && rows_back_in_time (copy, timed[t]) == 0; tries++)
        shuffle_table (copy, timed[t]);
      g_assert_cmpint (rows_back_in_time (copy, timed[t]), >, 0);
    }
  return copy;
}

/* `stats --report @report --format csv @db`: its output, then what it said
 * on standard error with @db's path made "FILE". */
static char *
stats_of (const char *db, const char *report)
{
  const char *argv[] = { ws_test_cli (), "stats", "--report", report, "--format", "csv", db, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_auto (GStrv) err_parts = NULL;
  g_autofree char *err_file = NULL;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  err_parts = g_strsplit (err, db, -1);
  err_file = g_strjoinv ("FILE", err_parts);
  return g_strdup_printf ("%s\n-- stderr --\n%s", out, err_file);
}

static void
test_reports_ignore_row_order (gconstpointer data)
{
  const char *db = data;
  g_autofree char *copy = shuffled_copy (db);
  g_autofree char *copy_dir = g_path_get_dirname (copy);
  guint with_rows = 0;

  for (gsize r = 0; r < G_N_ELEMENTS (reports); r++)
    {
      g_autofree char *ours = stats_of (db, reports[r]);
      g_autofree char *shuffled = stats_of (copy, reports[r]);

      g_test_message ("%s: %u lines", reports[r], ws_test_count_lines (ours));
      g_assert_cmpstr (shuffled, ==, ours);
      /* A header and a row at least, then the line before standard error;
       * a report the export has no data for is a SKIPPED line. */
      with_rows += ws_test_count_lines (ours) >= 4;
    }
  g_assert_cmpuint (with_rows, >=, 5);
  ws_test_rmtree (copy_dir);
}

/* One export's check under a literal path, as tests/check-promises.py
 * reads them. */
#define ADD_EXPORT(path, db) g_test_add_data_func (path, db, test_reports_ignore_row_order)

int
main (int argc, char **argv)
{
  g_autofree char *gpt2_dir = NULL;
  g_autofree char *gpt2 = NULL;
  g_autofree char *node_graph = NULL;
  g_autofree char *graph_graph = NULL;
  g_autofree char *mpi = ws_test_data ("nsys", "v2022.2_pipit_saxpy_mpi.sqlite", NULL);
  g_autofree char *two_gpus = ws_test_data ("nsys", "v2026.2_nsysai_h100_2gpu.sqlite", NULL);
  int status;

  g_test_init (&argc, &argv, NULL);
  graphs_tmp = ws_test_unpack ("captures/h200_graphs_capture.tar.xz");
  gpt2_dir = ws_test_unpack_gpt2 (&gpt2_tmp);
  gpt2 = g_build_filename (gpt2_dir, "nsys", "GPT2__.sqlite", NULL);
  node_graph =
    g_build_filename (graphs_tmp, "node", "decode_graph", "nsys", "decode_graph.sqlite", NULL);
  graph_graph =
    g_build_filename (graphs_tmp, "graph", "decode_graph", "nsys", "decode_graph.sqlite", NULL);
  ADD_EXPORT ("/row-order/stats-reports/gpt2", gpt2);
  /* CUDA graphs traced node by node, and whole (issue 39). */
  ADD_EXPORT ("/row-order/stats-reports/node/decode_graph", node_graph);
  ADD_EXPORT ("/row-order/stats-reports/graph/decode_graph", graph_graph);
  /* Several processes, each launch under two calls of one correlation id
   * (nsys 2022.2); two GPUs (nsys 2026.2). */
  ADD_EXPORT ("/row-order/stats-reports/v2022.2_pipit_saxpy_mpi.sqlite", mpi);
  ADD_EXPORT ("/row-order/stats-reports/v2026.2_nsysai_h100_2gpu.sqlite", two_gpus);
  status = g_test_run ();
  ws_test_rmtree (graphs_tmp);
  ws_test_rmtree (gpt2_tmp);
  g_free (graphs_tmp);
  g_free (gpt2_tmp);
  return status;
}
