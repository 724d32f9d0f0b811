/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <sqlite3.h>
#include <string.h>
#include <glib/gstdio.h>

#include "ws-csv.h"
#include "ws-digest-io.h"
#include "ws-digest-export.h"
#include "ws-digest-loader.h"
#include "ws-digest-merge.h"
#include "ws-findings-setup.h"
#include "ws-findings.h"
#include "ws-nsys-stats-reader.h"
#include "ws-rank-set.h"
#include "ws-ranks-loader.h"
#include "ws-reader-error.h"
#include "ws-summary-table.h"
#include "ws-run-loader.h"
#include "ws-stats.h"
#include "ws-steps.h"
#include "ws-test-rank-sql.h"
#include "ws-test-util.h"

/* Job digests of the four DDP ranks (tests/data/multirank): what a digest
 * holds equals, row for row, what the multi-rank run computes from the
 * exports, and its summaries equal nsys stats' own CSVs. */

static char *tmp;
static char *job_dir;
static char *rank_files[4];
static WsDigest *ddp; /* the digest of job_dir, written to tmp and read back */
static char *ddp_path;

static void copy_file (const char *from, const char *to);
static void sql_exec (const char *path, const char *sql);

static void
unpack (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsDigest) built = NULL;
  const char *paths[] = { NULL, NULL };

  job_dir = g_build_filename (tmp, "job", NULL);
  g_assert_cmpint (g_mkdir (job_dir, 0700), ==, 0);
  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *xz = g_strdup_printf ("multirank/rank%u.sqlite.xz", r);

      rank_files[r] = ws_test_unxz (xz, job_dir);
    }
  paths[0] = job_dir;
  ddp_path = g_build_filename (tmp, "ddp.wsdigest", NULL);
  built = ws_digest_loader_build (paths, 2, ddp_path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ws_digest_write_file (built, ddp_path, &error));
  g_assert_no_error (error);
  ddp = ws_digest_read_file (ddp_path, WS_DIGEST_READ_RANK_SUMMARIES, NULL, &error);
  g_assert_no_error (error);
}

static WsRun *
load_job (void)
{
  g_autoptr (GError) error = NULL;
  const char *paths[] = { job_dir, NULL };
  WsRun *run = ws_ranks_loader_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return run;
}

/* The SHA-256 of a file's first MiB, by GLib's checksum over what the test reads. */
static char *
first_mib_sha256 (const char *path)
{
  g_autofree char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) data, MIN (len, 1048576));
}

static void
assert_figures_equal (const WsRankFigures *a, const WsRankFigures *b)
{
  g_assert_cmpuint (a->rank, ==, b->rank);
  g_assert_cmpint (a->offset, ==, b->offset);
  g_assert_cmpstr (a->process, ==, b->process);
  g_assert_cmpint (a->gpu_time, ==, b->gpu_time);
  g_assert_cmpint (a->kernel_time, ==, b->kernel_time);
  g_assert_cmpint (a->comm_time, ==, b->comm_time);
  g_assert_cmpint (a->overlap_time, ==, b->overlap_time);
  g_assert_cmpint (a->wait_time, ==, b->wait_time);
  g_assert_cmpint (a->idle_time, ==, b->idle_time);
  g_assert_cmpint (a->wait_source, ==, b->wait_source);
  g_assert_cmpstr (a->step_pattern, ==, b->step_pattern);
  g_assert_cmpuint (a->n_steady, ==, b->n_steady);
  g_assert_cmpfloat (a->step_median, ==, b->step_median);
  g_assert_cmpfloat (a->wait_median, ==, b->wait_median);
  g_assert_cmpfloat (a->work_median, ==, b->work_median);
  g_assert_cmpuint (a->steps->len, ==, b->steps->len);
  for (guint s = 0; s < a->steps->len; s++)
    g_assert_cmpmem (&g_array_index (a->steps, WsRankStep, s), sizeof (WsRankStep),
                     &g_array_index (b->steps, WsRankStep, s), sizeof (WsRankStep));
  g_assert_cmpuint (a->ranges->len, ==, b->ranges->len);
  for (guint i = 0; i < a->ranges->len; i++)
    {
      const WsRankRange *x = &g_array_index (a->ranges, WsRankRange, i);
      const WsRankRange *y = &g_array_index (b->ranges, WsRankRange, i);

      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpuint (x->depth, ==, y->depth);
      g_assert_cmpfloat (x->per_step, ==, y->per_step);
    }
  g_assert_cmpuint (a->collectives->len, ==, b->collectives->len);
}

/* Each rank's figures, number, offset and GPUs as the multi-rank run has
 * them, its figures as SQL over its export works them out; and the
 * comparison of ranks (steps, straggler) the same, the straggler's
 * lateness SQL's (599,784 ns, the README's figure). */
static void
test_figures_equal_multi_rank_run (void)
{
  WsTestRankSql t[4];
  gint64 late, lost;
  g_autoptr (WsRun) job = load_job ();
  g_autoptr (WsRun) digest_run = ws_digest_loader_run_new (ddp, NULL, 0, 0);
  g_autoptr (WsRankSet) from_exports = ws_rank_set_new_for_run (job);
  g_autoptr (WsRankSet) from_digest = ws_rank_set_new_for_run (digest_run);
  g_autofree char *line_exports = ws_rank_set_straggler_line (from_exports);
  g_autofree char *line_digest = ws_rank_set_straggler_line (from_digest);

  g_assert_cmpuint (ddp->ranks->len, ==, 4);
  g_assert_cmpuint (ws_digest_n_good (ddp), ==, 4);
  g_assert_cmpint (ddp->source, ==, job->ranks->source);
  g_assert_cmpint (ddp->spread, ==, job->ranks->spread);
  g_assert_cmpstr (ddp->job_name, ==, job->ranks->job_name);
  for (guint r = 0; r < 4; r++)
    {
      const WsDigestRank *d = g_ptr_array_index (ddp->ranks, r);
      const WsRank *rank = ws_ranks_get (job->ranks, r);
      g_autofree char *name = g_strdup_printf ("rank%u.sqlite", r);
      g_autofree char *sum = first_mib_sha256 (rank_files[r]);
      GStatBuf st;

      g_assert_cmpuint (d->rank.rank, ==, rank->rank);
      g_assert_cmpint (d->rank.offset, ==, rank->offset);
      g_assert_cmpuint (d->rank.file_pid, ==, rank->file_pid);
      g_assert_cmpstr (d->rank.how, ==, rank->how);
      g_assert_cmpstr (d->rank.job, ==, rank->job);
      g_assert_cmpstr (d->rank.gpus, ==, rank->gpus);
      g_assert_cmpstr (d->rank.process, ==, rank->process);
      /* The export: its path relative to the digest, its size. */
      g_autofree char *relative = g_build_filename ("job", name, NULL);

      g_assert_cmpstr (d->file, ==, relative);
      g_assert_cmpint (g_stat (rank_files[r], &st), ==, 0);
      g_assert_cmpint (d->size, ==, st.st_size);
      g_assert_cmpint (d->mtime, ==,
                       st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st.st_mtim.tv_nsec);
      g_assert_cmpstr (d->checksum, ==, sum);
      assert_figures_equal (d->figures, g_ptr_array_index (job->ranks->figures, r));
      ws_test_rank_sql (rank_files[r], &t[r]);
      g_assert_cmpint (d->figures->gpu_time, ==, t[r].gpu_time);
      g_assert_cmpint (d->figures->kernel_time, ==, t[r].kernel_time);
      g_assert_cmpint (d->figures->wait_time, ==, t[r].wait_time);
      g_assert_cmpint (d->figures->idle_time, ==, t[r].idle_time);
      g_assert_cmpfloat (d->figures->step_median, ==, t[r].step_median);
      g_assert_cmpuint (d->figures->steps->len, ==, t[r].n_steps);
      for (guint s = 0; s < t[r].n_steps; s++)
        g_assert_cmpint (g_array_index (d->figures->steps, WsRankStep, s).work, ==, t[r].work[s]);
    }
  ws_test_straggler_sql (t, 4, 3, &late, &lost);
  g_assert_cmpint (late, ==, 599784);
  g_assert_cmpint (from_digest->straggler.late, ==, late);
  g_assert_cmpint (from_digest->straggler.lost, ==, lost);
  for (guint r = 0; r < 4; r++)
    ws_test_rank_sql_clear (&t[r]);
  g_assert_cmpstr (line_digest, ==, line_exports);
  g_assert_cmpstr (line_digest, ==, "straggler: rank 3, +599784 ns per step, in extra work");
  g_assert_cmpuint (from_digest->steps->len, ==, from_exports->steps->len);
  for (guint s = 0; s < from_digest->steps->len; s++)
    {
      const WsRankSetStep *a = &g_array_index (from_digest->steps, WsRankSetStep, s);
      const WsRankSetStep *b = &g_array_index (from_exports->steps, WsRankSetStep, s);

      g_assert_cmpuint (a->number, ==, b->number);
      g_assert_cmpint (a->last, ==, b->last);
      g_assert_cmpint (a->late, ==, b->late);
      g_assert_cmpmem (a->lost, 4 * sizeof (gint64), b->lost, 4 * sizeof (gint64));
    }
}

static char *
read_text (const char *path)
{
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* `stats --rank N` of a digest: each rank's summaries as nsys stats wrote
 * them for its export, byte for byte. */
static void
test_rank_summaries_equal_nsys_stats (void)
{
  const char *reports[] = { "cuda_gpu_kern_sum", "nvtx_sum", "cuda_api_sum",
                            "cuda_gpu_mem_time_sum" };

  for (guint r = 0; r < 4; r++)
    for (gsize k = 0; k < G_N_ELEMENTS (reports); k++)
      {
        g_autofree char *name = g_strdup_printf ("rank%u_%s.csv", r, reports[k]);
        g_autofree char *path = ws_test_data ("multirank", name, NULL);
        g_autofree char *truth = read_text (path);
        g_autoptr (GString) out = g_string_new (NULL);
        g_autoptr (WsSummary) summary = NULL;
        WsSummaryKind kind;

        g_assert_true (ws_summary_kind_from_string (reports[k], &kind));
        summary = ws_digest_merge_summary (ddp, kind, &r, 1, NULL);
        g_assert_nonnull (summary);
        ws_summary_table_write (summary, WS_FORMAT_CSV, out);
        g_assert_cmpstr (out->str, ==, truth);
      }
}

/* The durations of @db's kernels named @name, by SQL. */
static void
durations (const char *db, const char *name, GArray *out)
{
  sqlite3 *conn = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open_v2 (db, &conn, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (conn,
                                       "SELECT k.end - k.start FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                                       "JOIN StringIds s ON s.id = k.demangledName "
                                       "WHERE s.value = ?1",
                                       -1, &stmt, NULL),
                   ==, SQLITE_OK);
  sqlite3_bind_text (stmt, 1, name, -1, SQLITE_STATIC);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      gint64 v = sqlite3_column_int64 (stmt, 0);

      g_array_append_val (out, v);
    }
  sqlite3_finalize (stmt);
  sqlite3_close (conn);
}

static int
compare_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* The median as nsys stats takes it, of values sorted here. */
static double
union_median (GArray *values)
{
  gint64 *v = (gint64 *) (gpointer) values->data;
  guint n = values->len;

  qsort (v, n, sizeof (gint64), compare_i64);
  return n % 2 == 1 ? (double) v[n / 2] : ((double) v[n / 2 - 1] + (double) v[n / 2]) / 2.0;
}

/* All four ranks merged: totals, instances, min and max are the CSVs'
 * rows added up; the median is the union's (SQL and a sort in the test),
 * exact where the sketches kept every value, else within 0.5%; mean and
 * sample standard deviation (as nsys stats takes it, n − 1) those of the
 * union of the four exports' durations, summed here. */
static void
check_merged_kernels (const WsSummary *merged)
{
  g_autoptr (WsRun) job = load_job ();
  g_autoptr (WsSummary) from_run = ws_stats_compute (job, WS_SUMMARY_KERN_SUM, WS_NAME_DEMANGLED);
  WsSummary *csv[4] = { NULL };
  guint exact = 0, sketched = 0;

  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *name = g_strdup_printf ("rank%u_cuda_gpu_kern_sum.csv", r);
      g_autofree char *path = ws_test_data ("multirank", name, NULL);
      g_autoptr (GError) error = NULL;

      csv[r] = ws_nsys_stats_read (path, &error);
      g_assert_no_error (error);
    }
  g_assert_cmpuint (merged->rows->len, ==, from_run->rows->len);
  for (guint i = 0; i < merged->rows->len; i++)
    {
      const WsSummaryRow *row = &g_array_index (merged->rows, WsSummaryRow, i);
      const WsSummaryRow *theirs = ws_summary_find (from_run, row->name);
      gint64 total = 0, count = 0, min = G_MAXINT64, max = G_MININT64;
      g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (gint64));
      double median;

      for (guint r = 0; r < 4; r++)
        {
          const WsSummaryRow *one = ws_summary_find (csv[r], row->name);

          if (one == NULL)
            continue;
          total += one->total;
          count += one->count;
          min = MIN (min, one->min);
          max = MAX (max, one->max);
        }
      g_assert_cmpint (row->total, ==, total);
      g_assert_cmpint (row->count, ==, count);
      g_assert_cmpint (row->min, ==, min);
      g_assert_cmpint (row->max, ==, max);
      g_assert_nonnull (theirs);
      g_assert_cmpfloat (fabs (row->percent - theirs->percent), <, 1e-9);

      for (guint r = 0; r < 4; r++)
        durations (rank_files[r], row->name, all);
      g_assert_cmpuint (all->len, ==, count);
      {
        double sum = 0, squares = 0, mean;

        for (guint k = 0; k < all->len; k++)
          sum += (double) g_array_index (all, gint64, k);
        mean = sum / all->len;
        for (guint k = 0; k < all->len; k++)
          {
            double d = (double) g_array_index (all, gint64, k) - mean;

            squares += d * d;
          }
        g_assert_cmpfloat (sum, ==, (double) total);
        /* The digest adds the ranks' moments, the test the values: their
         * sums differ in the last bits of a double, hence 1e-9. */
        g_assert_cmpfloat_with_epsilon (row->avg, mean, 1e-9 * mean);
        if (all->len > 1)
          g_assert_cmpfloat_with_epsilon (row->stddev, sqrt (squares / (all->len - 1)),
                                          1e-6 * sqrt (squares / (all->len - 1)) + 1e-9);
        else
          g_assert_cmpfloat (row->stddev, ==, 0);
      }
      median = union_median (all);
      g_assert_cmpfloat (theirs->med, ==, median);
      if (row->med == median)
        exact++;
      else
        {
          g_assert_cmpfloat (fabs (row->med - median), <=, WS_SKETCH_ALPHA * median);
          sketched++;
        }
    }
  g_assert_cmpuint (exact, >, 0);
  g_assert_cmpuint (sketched, >, 0);
  for (guint r = 0; r < 4; r++)
    ws_summary_unref (csv[r]);
}

static void
test_merged_summary (void)
{
  g_autoptr (WsSummary) merged = ws_digest_merge_summary (ddp, WS_SUMMARY_KERN_SUM, NULL, 0, NULL);

  check_merged_kernels (merged);
  /* Where the sketch kept every value, the median is the union's exactly. */
  for (guint i = 0; i < merged->rows->len; i++)
    if (ws_sketch_is_exact (g_ptr_array_index (merged->sketches, i)))
      {
        const WsSummaryRow *row = &g_array_index (merged->rows, WsSummaryRow, i);
        g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (gint64));

        for (guint r = 0; r < 4; r++)
          durations (rank_files[r], row->name, all);
        g_assert_cmpfloat (row->med, ==, union_median (all));
      }
}

/* Opening a digest reads the job's summaries as the file keeps them,
 * merged when it was written, not each rank's rows: they are what
 * nsys stats and SQL over the exports say.  A digest written before they
 * were kept merges its ranks' rows at opening, to the same figures. */
static void
test_stored_job_summary (void)
{
  g_autofree char *old = g_build_filename (tmp, "before-job-summaries.wsdigest", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsDigest) opened =
    ws_digest_read_file (ddp_path, WS_DIGEST_READ_DEFAULT, NULL, &error);
  g_autoptr (WsRun) run = NULL;
  g_autoptr (WsRun) old_run = NULL;
  g_autofree char *sql_total = NULL;
  g_autofree char *stored_total = NULL;

  g_assert_no_error (error);
  g_assert_true (opened->job_summaries_known);
  g_assert_false (opened->rank_summaries_read);
  for (guint i = 0; i < opened->ranks->len; i++)
    for (guint k = 0; k < WS_N_SUMMARY_KINDS; k++)
      g_assert_null (((WsDigestRank *) g_ptr_array_index (opened->ranks, i))->summaries[k]);
  check_merged_kernels (opened->job_summaries[WS_SUMMARY_KERN_SUM]);

  /* The file's own rows: the job's kernel rows count and sum the four
   * exports' kernels (SQL over each export). */
  {
    gint64 count = 0, total = 0;

    for (guint r = 0; r < 4; r++)
      {
        g_autofree char *c =
          ws_test_sqlite_text (rank_files[r], "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
        g_autofree char *t = ws_test_sqlite_text (
          rank_files[r], "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL");

        count += g_ascii_strtoll (c, NULL, 10);
        total += g_ascii_strtoll (t, NULL, 10);
      }
    sql_total = g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT, count, total);
  }
  stored_total =
    ws_test_sqlite_text (ddp_path, "SELECT sum(count) || ' ' || sum(total) FROM job_summary_rows"
                                   " WHERE report = 'cuda_gpu_kern_sum'");
  g_assert_cmpstr (stored_total, ==, sql_total);

  run = ws_digest_loader_open (ddp_path, 0, WS_DIGEST_READ_DEFAULT, NULL, &error);
  g_assert_no_error (error);
  check_merged_kernels (run->summaries[WS_SUMMARY_KERN_SUM]);

  copy_file (ddp_path, old);
  sql_exec (old, "DROP TABLE job_summary_rows; DROP TABLE job_summary_left_out;"
                 " DELETE FROM digest WHERE key = 'job_summaries';");
  old_run = ws_digest_loader_open (old, 0, WS_DIGEST_READ_DEFAULT, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (old_run->digest->rank_summaries_read);
  g_assert_false (old_run->digest->job_summaries_known);
  check_merged_kernels (old_run->summaries[WS_SUMMARY_KERN_SUM]);
}

/* Each rank's findings are those `diagnose` computes for its export alone
 * (over its steady state), with its set-up line. */
static void
test_findings_equal_diagnose (void)
{
  for (guint r = 0; r < 4; r++)
    {
      const char *paths[] = { rank_files[r], NULL };
      g_autoptr (GError) error = NULL;
      g_autoptr (WsRun) run =
        ws_run_load (paths, WS_LOAD_ALL | WS_LOAD_NO_RANKS, NULL, NULL, NULL, &error);
      g_autoptr (WsSteps) steps = NULL;
      g_autoptr (WsRun) steady = NULL;
      g_autoptr (GPtrArray) findings = NULL;
      g_autofree char *setup = NULL;
      const WsDigestRank *d = ws_digest_find_rank (ddp, r);

      g_assert_no_error (error);
      steps = ws_steps_compute (run, NULL);
      g_assert_true (ws_steps_has_steady_state (steps));
      steady = ws_steps_steady_run (run, steps);
      setup = ws_findings_setup_line (run, steps);
      findings = ws_findings_compute (steady);
      g_assert_cmpstr (d->scope, ==, setup);
      g_assert_cmpuint (d->findings->len, ==, findings->len);
      g_assert_cmpuint (findings->len, >, 0);
      for (guint f = 0; f < findings->len; f++)
        {
          const WsFinding *a = g_ptr_array_index (d->findings, f);
          const WsFinding *b = g_ptr_array_index (findings, f);

          g_assert_cmpstr (a->id, ==, b->id);
          g_assert_cmpint (a->severity, ==, b->severity);
          g_assert_cmpstr (a->title, ==, b->title);
          g_assert_cmpstr (a->summary, ==, b->summary);
          g_assert_cmpstr (a->rule, ==, b->rule);
          g_assert_cmpstr (a->fix, ==, b->fix);
          g_assert_cmpint (a->cost, ==, b->cost);
          g_assert_cmpuint (a->evidence->len, ==, b->evidence->len);
          for (guint e = 0; e < a->evidence->len; e++)
            {
              const WsEvidence *x = g_ptr_array_index (a->evidence, e);
              const WsEvidence *y = g_ptr_array_index (b->evidence, e);

              g_assert_cmpstr (x->key, ==, y->key);
              g_assert_cmpint (x->unit, ==, y->unit);
              g_assert_cmpfloat (x->value, ==, y->value);
              g_assert_cmpstr (x->text, ==, y->text);
            }
          g_assert_cmpuint (a->nvtx->len, ==, b->nvtx->len);
          g_assert_cmpuint (a->ranges->len, ==, b->ranges->len);
          if (a->ranges->len > 0)
            g_assert_cmpmem (a->ranges->data, a->ranges->len * sizeof (WsTimeRange),
                             b->ranges->data, b->ranges->len * sizeof (WsTimeRange));
        }
    }
}

/* The GPU-busy series adds up to the union of the rank's kernels, copies
 * and sets, taken here with SQL and a sweep of the test's own. */
static void
test_series_against_sql (void)
{
  for (guint r = 0; r < 4; r++)
    {
      const WsDigestRank *d = ws_digest_find_rank (ddp, r);
      g_autofree char *list = ws_test_sqlite_text (
        rank_files[r], "SELECT group_concat(s || ':' || e) FROM (SELECT start s, end e FROM "
                       "CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT start, end FROM "
                       "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT start, end FROM "
                       "CUPTI_ACTIVITY_KIND_MEMSET ORDER BY 1)");
      g_auto (GStrv) spans = g_strsplit (list, ",", -1);
      gint64 busy = 0, reach = G_MININT64, first = G_MAXINT64, last = G_MININT64;
      double from_series = 0;

      for (guint i = 0; spans[i] != NULL; i++)
        {
          gint64 s = g_ascii_strtoll (spans[i], NULL, 10);
          gint64 e = g_ascii_strtoll (strchr (spans[i], ':') + 1, NULL, 10);

          first = MIN (first, s);
          last = MAX (last, e);
          if (e > MAX (s, reach))
            busy += e - MAX (s, reach);
          reach = MAX (reach, e);
        }
      g_assert_cmpint (d->series_start, ==, first);
      g_assert_cmpint (d->series_bin, ==, (last - first + WS_DIGEST_BINS - 1) / WS_DIGEST_BINS);
      for (guint b = 0; b < WS_DIGEST_BINS; b++)
        from_series += d->gpu_busy[b] / 65535.0 * d->series_bin;
      /* Each bin's share is rounded to 1/65535. */
      g_assert_cmpfloat (fabs (from_series - busy), <=, WS_DIGEST_BINS * d->series_bin / 131070.0);
      g_assert_cmpint (busy, ==, d->figures->gpu_time);
    }
}

/* A rank travels between MPI processes as bytes: the same rank comes out,
 * and it is small whatever the export's size. */
static void
test_rank_bytes (void)
{
  const WsDigestRank *d = ws_digest_find_rank (ddp, 3);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = ws_digest_rank_to_bytes ((WsDigestRank *) d, &error);
  g_autoptr (WsDigestRank) back = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (bytes), <, 256 * 1024);
  back = ws_digest_rank_from_bytes (bytes, &error);
  g_assert_no_error (error);
  assert_figures_equal (back->figures, d->figures);
  g_assert_cmpstr (back->checksum, ==, d->checksum);
  g_assert_cmpuint (back->findings->len, ==, d->findings->len);
  g_assert_cmpmem (back->gpu_busy, WS_DIGEST_BINS * 2, d->gpu_busy, WS_DIGEST_BINS * 2);
  for (guint k = 0; k < WS_N_SUMMARY_KINDS; k++)
    g_assert_cmpuint (back->summaries[k] != NULL ? back->summaries[k]->rows->len : 0, ==,
                      d->summaries[k] != NULL ? d->summaries[k]->rows->len : 0);
  {
    /* A damaged message is refused, not read. */
    g_autoptr (GBytes) cut = g_bytes_new_from_bytes (bytes, 0, g_bytes_get_size (bytes) / 2);
    g_autoptr (WsDigestRank) none = ws_digest_rank_from_bytes (cut, NULL);

    g_assert_null (none);
  }
}

/* A truncated export and a text file named .sqlite among good ones: each
 * is a row with its error, and the digest of the others is written. */
static void
test_corrupt_export (void)
{
  g_autofree char *dir = g_build_filename (tmp, "corrupt", NULL);
  g_autofree char *out = g_build_filename (tmp, "corrupt.wsdigest", NULL);
  g_autofree char *truncated = g_build_filename (dir, "rank2.sqlite", NULL);
  g_autofree char *text = g_build_filename (dir, "rank3.sqlite", NULL);
  g_autofree char *data = NULL;
  const char *paths[] = { dir, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsDigest) built = NULL;
  g_autoptr (WsRun) run = NULL;
  gsize len;

  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  for (guint r = 0; r < 2; r++)
    {
      g_autofree char *copy = g_strdup_printf ("%s/rank%u.sqlite", dir, r);

      g_assert_cmpint (symlink (rank_files[r], copy), ==, 0);
    }
  g_assert_true (g_file_get_contents (rank_files[2], &data, &len, NULL));
  g_assert_true (g_file_set_contents (truncated, data, (gssize) len / 3, NULL));
  g_assert_true (g_file_set_contents (text, "rank,time\n3,4\n", -1, NULL));

  built = ws_digest_loader_build (paths, 2, out, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (built->ranks->len, ==, 4);
  g_assert_cmpuint (ws_digest_n_good (built), ==, 2);
  for (guint i = 2; i < 4; i++)
    {
      const WsDigestRank *bad = g_ptr_array_index (built->ranks, i);

      g_assert_nonnull (bad->error);
      g_assert_nonnull (strstr (bad->error, i == 2 ? truncated : text));
      g_assert_null (strchr (bad->error, '\n'));
    }
  g_assert_true (ws_digest_write_file (built, out, &error));
  g_assert_no_error (error);
  run = ws_digest_loader_open (out, WS_DIGEST_CHECK_STAT, WS_DIGEST_READ_DEFAULT, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_ranks_get_n (run->ranks), ==, 2);
  g_assert_cmpuint (run->prov.warnings->len, ==, 2);
  g_assert_nonnull (strstr (g_ptr_array_index (run->prov.warnings, 0), "not in the digest"));
}

static void
copy_file (const char *from, const char *to)
{
  g_autofree char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (from, &data, &len, NULL));
  g_assert_true (g_file_set_contents (to, data, (gssize) len, NULL));
}

/* Exports that moved are found in the folder the user points to; exports
 * that changed are said to have. */
static void
test_moved_and_changed_exports (void)
{
  g_autofree char *a = g_build_filename (tmp, "a", NULL);
  g_autofree char *b = g_build_filename (tmp, "b", NULL);
  g_autofree char *out = g_build_filename (a, "job.wsdigest", NULL);
  g_autofree char *moved = g_build_filename (b, "rank1.sqlite", NULL);
  const char *paths[] = { a, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsDigest) built = NULL;
  g_autoptr (WsDigest) digest = NULL;
  g_autoptr (WsRun) run = NULL;
  const WsDigestRank *one;
  g_autofree char *gone = NULL;
  g_autofree char *found = NULL;
  g_autofree char *change = NULL;

  g_assert_cmpint (g_mkdir (a, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (b, 0700), ==, 0);
  for (guint r = 0; r < 2; r++)
    {
      g_autofree char *copy = g_strdup_printf ("%s/rank%u.sqlite", a, r);

      copy_file (rank_files[r], copy);
    }
  built = ws_digest_loader_build (paths, 1, out, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ws_digest_write_file (built, out, &error));
  digest = ws_digest_read_file (out, WS_DIGEST_READ_DEFAULT, NULL, &error);
  g_assert_no_error (error);
  one = ws_digest_find_rank (digest, 1);
  g_assert_cmpstr (one->file, ==, "rank1.sqlite");

  /* Moved: not where it was, found in the folder given. */
  {
    g_autofree char *was = g_build_filename (a, "rank1.sqlite", NULL);

    g_assert_cmpint (g_rename (was, moved), ==, 0);
  }
  gone = ws_digest_export_find (digest, one, NULL, NULL);
  g_assert_null (gone);
  found = ws_digest_export_find (digest, one, b, NULL);
  g_assert_cmpstr (found, ==, moved);
  g_assert_null (
    ws_digest_loader_check_export (one, found, WS_DIGEST_CHECK_STAT | WS_DIGEST_CHECK_CHECKSUM));

  /* Changed: rewritten with one byte more. */
  {
    g_autofree char *data = NULL;
    g_autofree char *grown = NULL;
    gsize len;

    g_assert_true (g_file_get_contents (moved, &data, &len, NULL));
    grown = g_malloc (len + 1);
    memcpy (grown, data, len);
    grown[0] ^= 1;
    grown[len] = 0;
    g_assert_true (g_file_set_contents (moved, grown, (gssize) len + 1, NULL));
  }
  change =
    ws_digest_loader_check_export (one, moved, WS_DIGEST_CHECK_STAT | WS_DIGEST_CHECK_CHECKSUM);
  g_assert_nonnull (change);
  g_assert_nonnull (strstr (change, moved));
  g_assert_nonnull (strstr (change, "its size was"));
  g_assert_nonnull (strstr (change, "its first MiB differs"));

  /* Opening the digest says so for the export beside it that changed. */
  {
    g_autofree char *beside = g_build_filename (a, "rank0.sqlite", NULL);

    g_assert_true (g_file_set_contents (beside, "changed", -1, NULL));
  }
  run = ws_digest_loader_open (out, WS_DIGEST_CHECK_STAT, WS_DIGEST_READ_DEFAULT, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (run->prov.warnings->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (run->prov.warnings, 0),
                            "(rank 0) changed since the digest was made"));
}

static void
sql_exec (const char *path, const char *sql)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
}

/* What is not a digest this Warpscope reads is one line naming the file. */
static void
test_reader_refuses (void)
{
  struct
  {
    const char *sql;
    WsReaderError code;
    const char *says;
  } cases[] = {
    { "PRAGMA user_version = 99", WS_READER_ERROR_SCHEMA, "schema version 99" },
    { "PRAGMA application_id = 0", WS_READER_ERROR_FORMAT, "not a Warpscope digest" },
    { "DROP TABLE findings", WS_READER_ERROR_SCHEMA, "not a complete Warpscope digest" },
    { "UPDATE summary_rows SET sketch = x'0102'", WS_READER_ERROR_CORRUPT, "damaged sketch" },
    { "UPDATE ranks SET gpu_busy = x'00'", WS_READER_ERROR_CORRUPT, "time series" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("bad%" G_GSIZE_FORMAT ".wsdigest", i);
      g_autofree char *path = g_build_filename (tmp, name, NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsDigest) digest = NULL;

      copy_file (ddp_path, path);
      sql_exec (path, cases[i].sql);
      digest = ws_digest_read_file (path, WS_DIGEST_READ_RANK_SUMMARIES, NULL, &error);
      g_assert_null (digest);
      g_assert_error (error, WS_READER_ERROR, (gint) cases[i].code);
      g_assert_true (g_str_has_prefix (error->message, path));
      g_assert_nonnull (strstr (error->message, cases[i].says));
    }
  {
    /* Cut short, and an nsys export under a digest's name. */
    g_autofree char *cut = g_build_filename (tmp, "cut.wsdigest", NULL);
    g_autofree char *named = g_build_filename (tmp, "export.wsdigest", NULL);
    g_autofree char *data = NULL;
    const char *cut_paths[] = { cut, NULL };
    const char *named_paths[] = { named, NULL };
    g_autoptr (GError) error = NULL;
    g_autoptr (WsRun) run = NULL;
    gsize len;

    g_assert_true (g_file_get_contents (ddp_path, &data, &len, NULL));
    g_assert_true (g_file_set_contents (cut, data, (gssize) len / 2, NULL));
    run = ws_run_load (cut_paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
    g_assert_null (run);
    g_assert_nonnull (error);
    g_assert_true (g_str_has_prefix (error->message, cut));
    g_clear_error (&error);
    copy_file (rank_files[0], named);
    run = ws_run_load (named_paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
    g_assert_null (run);
    g_assert_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT);
    g_assert_nonnull (strstr (error->message, "not a Warpscope digest"));
  }
}

int
main (int argc, char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = ws_test_tmpdir ();
  unpack ();
  g_test_add_func ("/digest/ddp/figures-equal-the-multi-rank-run",
                   test_figures_equal_multi_rank_run);
  g_test_add_func ("/digest/ddp/each-rank-summary-equals-its-nsys-stats",
                   test_rank_summaries_equal_nsys_stats);
  g_test_add_func ("/digest/ddp/merged-summary-against-summed-nsys-stats-and-sql",
                   test_merged_summary);
  g_test_add_func ("/digest/ddp/stored-job-summary-read-at-opening", test_stored_job_summary);
  g_test_add_func ("/digest/ddp/findings-equal-diagnose", test_findings_equal_diagnose);
  g_test_add_func ("/digest/ddp/gpu-busy-series-against-sql", test_series_against_sql);
  g_test_add_func ("/digest/ddp/rank-as-bytes", test_rank_bytes);
  g_test_add_func ("/digest/faults/corrupt-export-is-a-row", test_corrupt_export);
  g_test_add_func ("/digest/exports/moved-and-changed", test_moved_and_changed_exports);
  g_test_add_func ("/digest/reader/refuses-what-it-cannot-read", test_reader_refuses);
  status = g_test_run ();
  g_clear_pointer (&ddp, ws_digest_unref);
  for (guint r = 0; r < 4; r++)
    g_free (rank_files[r]);
  g_free (job_dir);
  g_free (ddp_path);
  ws_test_rmtree (tmp);
  g_free (tmp);
  return status;
}
