/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "ws-findings.h"
#include "ws-format.h"
#include "ws-gpu-busy.h"
#include "ws-kernel-instances.h"
#include "ws-nsys-reader.h"
#include "ws-nsys-stats-reader.h"
#include "ws-rank-compare.h"
#include "ws-rank-measure.h"
#include "ws-rank-set.h"
#include "ws-ranks-loader.h"
#include "ws-ranks.h"
#include "ws-run-merge.h"
#include "ws-sort.h"
#include "ws-stats.h"
#include "ws-test-load.h"
#include "ws-test-rank-sql.h"
#include "ws-test-util.h"

/* The four ranks of the DDP fixture (tests/data/multirank), unpacked once
 * into a folder of their own. */
static char *tmp;
static char *job_dir;
static char *rank_files[4];

static const char *const waits[] = {
  "poll",
  "ppoll",
  "select",
  "pselect",
  "pselect6",
  "epoll_wait",
  "epoll_pwait",
  "recv",
  "recvfrom",
  "recvmsg",
  "recvmmsg",
  "accept",
  "accept4",
  "pthread_cond_wait",
  "pthread_cond_timedwait",
  "pthread_cond_clockwait",
  "pthread_barrier_wait",
  "pthread_join",
  "sem_wait",
  "sem_timedwait",
  "sem_clockwait",
  "futex",
  "nanosleep",
  "clock_nanosleep",
  "usleep",
  "sleep",
};

static void
unpack (void)
{
  if (job_dir != NULL)
    return;
  job_dir = g_build_filename (tmp, "job", NULL);
  g_assert_cmpint (g_mkdir (job_dir, 0700), ==, 0);
  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *xz = g_strdup_printf ("multirank/rank%u.sqlite.xz", r);

      rank_files[r] = ws_test_unxz (xz, job_dir);
    }
}

/* Each rank's figures by SQL over its own export (ws-test-rank-sql.c). */
static WsTestRankSql ddp_sql[4];

static const WsTestRankSql *
ddp_truth (void)
{
  unpack ();
  if (ddp_sql[0].work == NULL)
    for (guint r = 0; r < 4; r++)
      ws_test_rank_sql (rank_files[r], &ddp_sql[r]);
  return ddp_sql;
}

static gint64
sql_int (const char *db, const char *sql)
{
  g_autofree char *text = ws_test_sqlite_text (db, sql);

  g_assert_nonnull (text);
  return g_ascii_strtoll (text, NULL, 10);
}

static WsRun *
load_job (const char *const *paths)
{
  g_autoptr (GError) error = NULL;
  WsRun *run = ws_ranks_loader_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (run);
  return run;
}

static WsRun *
load_ddp (void)
{
  const char *paths[] = { NULL, NULL };

  unpack ();
  paths[0] = job_dir;
  return load_job (paths);
}

/* A job's kernel details list a launch configuration once, with the
 * number of ranks that used it (issue 40, item 9): the configurations of
 * the job's most launched kernel, their counts and ranks, against SQL over
 * the four exports. */
static void
test_ddp_config_uses (void)
{
  g_autoptr (WsRun) run = load_ddp ();
  const char *top_sql = "SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s "
                        "ON s.id = k.demangledName GROUP BY s.value ORDER BY count(*) DESC, "
                        "s.value LIMIT 1";
  g_autofree char *name = ws_test_sqlite_text (rank_files[0], top_sql);
  g_autoptr (GHashTable) truth = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GArray) instances = NULL;
  g_autoptr (GArray) uses = NULL;
  guint32 name_id = WS_STRING_NONE;

  g_assert_nonnull (name);
  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *sql = g_strdup_printf (
        "SELECT group_concat(c, char(10)) FROM (SELECT gridX || ',' || gridY || ',' || gridZ || "
        "',' || blockX || ',' || blockY || ',' || blockZ || ',' || registersPerThread || ',' || "
        "staticSharedMemory || ',' || dynamicSharedMemory || ' ' || count(*) AS c FROM "
        "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName WHERE s.value = "
        "'%s' GROUP BY 1 - 1, gridX, gridY, gridZ, blockX, blockY, blockZ, registersPerThread, "
        "staticSharedMemory, dynamicSharedMemory)",
        name);
      g_autofree char *text = ws_test_sqlite_text (rank_files[r], sql);
      g_auto (GStrv) rows = g_strsplit (text != NULL ? text : "", "\n", -1);

      for (guint i = 0; rows[i] != NULL && rows[i][0] != '\0'; i++)
        {
          g_auto (GStrv) f = g_strsplit (rows[i], " ", 2);
          gint64 *v = g_hash_table_lookup (truth, f[0]);

          if (v == NULL)
            {
              v = g_new0 (gint64, 2);
              g_hash_table_insert (truth, g_strdup (f[0]), v);
            }
          v[0] += g_ascii_strtoll (f[1], NULL, 10);
          v[1]++;
        }
    }
  for (gsize i = 0; i < run->kernels.n && name_id == WS_STRING_NONE; i++)
    if (g_str_equal (ws_run_string (run, run->kernels.demangled[i]), name))
      name_id = run->kernels.demangled[i];
  g_assert_cmpuint (name_id, !=, WS_STRING_NONE);
  instances = ws_kernel_instances (run, name_id, WS_NAME_DEMANGLED);
  uses = ws_kernel_config_uses (run, instances);
  g_test_message ("%s: %u configurations", name, uses->len);
  g_assert_cmpuint (uses->len, ==, g_hash_table_size (truth));
  for (guint i = 0; i < uses->len; i++)
    {
      const WsConfigUse *use = &g_array_index (uses, WsConfigUse, i);
      const WsLaunchConfig *c = &g_array_index (run->configs, WsLaunchConfig, use->config);
      g_autofree char *key = g_strdup_printf ("%u,%u,%u,%u,%u,%u,%u,%u,%u", c->grid[0], c->grid[1],
                                              c->grid[2], c->block[0], c->block[1], c->block[2],
                                              c->registers, c->static_smem, c->dynamic_smem);
      const gint64 *v = g_hash_table_lookup (truth, key);

      g_assert_nonnull (v);
      g_assert_cmpint ((gint64) use->count, ==, v[0]);
      g_assert_cmpint ((gint64) use->n_processes, ==, v[1]);
    }
}

/* ---- numbering ---------------------------------------------------------- */

static void
test_number_file_names (void)
{
  struct
  {
    const char *path;
    gint rank; /* -1: no number */
    const char *how;
  } cases[] = {
    { "out/rank3.sqlite", 3, "rank3" },
    { "rank_12.nsys-rep", 12, "rank_12" },
    { "/x/Rank-03.sqlite", 3, "Rank-03" },
    { "train_r7.sqlite", 7, "_r7" },
    { "job.5.nsys-rep", 5, ".5." },
    { "report_4.sqlite", 4, "_4" },
    { "6.sqlite", 6, "6" },
    { "frank3.sqlite", -1, NULL },
    { "v2024.5_pipit_cloverleaf_4gpu.sqlite", -1, NULL },
    { "train_fp32.sqlite", -1, NULL },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *how = NULL;
      guint rank = G_MAXUINT;
      gboolean found = ws_rank_number_from_name (cases[i].path, &rank, &how);

      g_assert_cmpint (found, ==, cases[i].rank >= 0);
      if (found)
        {
          g_assert_cmpuint (rank, ==, (guint) cases[i].rank);
          g_assert_cmpstr (how, ==, cases[i].how);
        }
    }
}

static void
test_number_environment (void)
{
  char *torchrun[] = { "PATH=/usr/bin", "LOCAL_RANK=1", "RANK=5", NULL };
  char *openmpi[] = { "OMPI_COMM_WORLD_RANK=2", "OMPI_COMM_WORLD_SIZE=8", NULL };
  char *slurm[] = { "SLURM_PROCID=9", "SLURM_JOB_ID=77", NULL };
  char *none[] = { "LOCAL_RANK=1", "RANK=x", NULL };
  g_autofree char *how = NULL;
  g_autofree char *job = NULL;
  guint rank;

  g_assert_true (ws_rank_number_from_env (torchrun, &rank, &how));
  g_assert_cmpuint (rank, ==, 5);
  g_assert_cmpstr (how, ==, "RANK=5");
  g_assert_true (ws_rank_number_from_env (openmpi, &rank, NULL));
  g_assert_cmpuint (rank, ==, 2);
  g_assert_cmpint (ws_rank_number_world_size (openmpi), ==, 8);
  g_assert_true (ws_rank_number_from_env (slurm, &rank, NULL));
  g_assert_cmpuint (rank, ==, 9);
  job = ws_rank_number_job (slurm);
  g_assert_cmpstr (job, ==, "SLURM_JOB_ID=77");
  g_assert_false (ws_rank_number_from_env (none, &rank, NULL));
  g_assert_false (ws_rank_number_from_env (NULL, &rank, NULL));
}

static void
test_number_command_and_thread (void)
{
  g_autofree char *how = NULL;
  guint rank;

  g_assert_true (ws_rank_number_from_command ("python3 train.py --rank 2 --lr 3", &rank, &how));
  g_assert_cmpuint (rank, ==, 2);
  g_assert_cmpstr (how, ==, "--rank 2");
  g_assert_true (ws_rank_number_from_command ("./app --local_rank=1", &rank, NULL));
  g_assert_cmpuint (rank, ==, 1);
  g_assert_false (ws_rank_number_from_command ("./app --ranks 4", &rank, NULL));
  g_assert_true (ws_rank_number_from_thread_name ("MPI Rank 12", &rank, NULL));
  g_assert_cmpuint (rank, ==, 12);
  g_assert_false (ws_rank_number_from_thread_name ("MPI Rank x", &rank, NULL));
}

/* ---- the DDP job ---------------------------------------------------------- */

/* Each export's session start, read by SQL; the offsets are their
 * differences from the earliest (rank 0's):
 *   rank 0 1795552898333698606  +0
 *   rank 1 1795552898390277659  +56,579,053 ns
 *   rank 2 1795552898402682464  +68,983,858 ns
 *   rank 3 1795552898396158410  +62,459,804 ns */
static void
test_ddp_numbered_and_aligned (void)
{
  g_autoptr (WsRun) run = load_ddp ();
  const WsRanks *ranks = run->ranks;
  const gint64 hand[] = { 0, 56579053, 68983858, 62459804 };
  gint64 starts[4];

  g_assert_nonnull (ranks);
  g_assert_cmpuint (ws_ranks_get_n (ranks), ==, 4);
  g_assert_cmpint (ranks->source, ==, WS_RANK_BY_NAME);
  g_assert_true (ranks->aligned);
  for (guint r = 0; r < 4; r++)
    starts[r] = sql_int (rank_files[r], "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME");
  for (guint r = 0; r < 4; r++)
    {
      const WsRank *rank = ws_ranks_get (ranks, r);
      g_autofree char *how = g_strdup_printf ("rank%u", r);
      guint32 pid = (guint32) sql_int (
        rank_files[r], "SELECT (globalTid >> 24) & 16777215 FROM NVTX_EVENTS WHERE eventType = 59 "
                       "LIMIT 1");

      g_assert_cmpuint (rank->rank, ==, r);
      g_assert_cmpstr (rank->file, ==, rank_files[r]);
      g_assert_cmpstr (rank->how, ==, how);
      g_assert_cmpint (rank->offset, ==, starts[r] - starts[0]);
      g_assert_cmpint (rank->offset, ==, hand[r]);
      g_assert_cmpuint (rank->file_pid, ==, pid);
      g_assert_cmpuint (rank->pid, ==, pid);
      g_assert_cmpstr (rank->process, ==, "python3");
      g_assert_cmpstr (rank->job, ==, "TORCHELASTIC_RUN_ID=3ceec00e-e889-4929-8950-c533f26a046a");
    }
  g_assert_cmpint (ranks->spread, ==, hand[2]);
  g_assert_cmpuint (ranks->jobs->len, ==, 1);
  g_assert_cmpuint (ranks->shared_gpus->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (ranks->shared_gpus, 0), "Ranks 0–3 share one GPU"));
  {
    g_autofree char *title = ws_ranks_title (ranks);

    g_assert_cmpstr (title, ==, "ddp_probe.py — 4 ranks");
  }
  /* Every event is there, each rank's on its own clock plus its offset. */
  g_assert_cmpuint (run->kernels.n, ==,
                    sql_int (rank_files[0], "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL") +
                      sql_int (rank_files[1], "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL") +
                      sql_int (rank_files[2], "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL") +
                      sql_int (rank_files[3], "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  g_assert_cmpint (run->kernels.start[0], ==,
                   MIN (MIN (sql_int (rank_files[0], "SELECT min(start) FROM "
                                                     "CUPTI_ACTIVITY_KIND_KERNEL"),
                             sql_int (rank_files[1], "SELECT min(start) FROM "
                                                     "CUPTI_ACTIVITY_KIND_KERNEL") +
                               hand[1]),
                        MIN (sql_int (rank_files[2], "SELECT min(start) FROM "
                                                     "CUPTI_ACTIVITY_KIND_KERNEL") +
                               hand[2],
                             sql_int (rank_files[3], "SELECT min(start) FROM "
                                                     "CUPTI_ACTIVITY_KIND_KERNEL") +
                               hand[3])));
  g_assert_true (ws_sort_is_ordered (run->kernels.start, run->kernels.end, run->kernels.n));
  g_assert_true (ws_sort_is_ordered (run->osrt.start, run->osrt.end, run->osrt.n));
}

/* Exports renamed so that their names say nothing: the environment each
 * records (torchrun's RANK) numbers them, whatever the order given. */
static void
test_ddp_numbered_by_environment (void)
{
  const char *names[] = { "delta.sqlite", "charlie.sqlite", "bravo.sqlite", "alpha.sqlite" };
  g_autofree char *dir = g_build_filename (tmp, "renamed", NULL);
  const char *paths[5] = { NULL };
  char *copies[4] = { NULL };
  g_autoptr (WsRun) run = NULL;

  unpack ();
  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  /* delta is rank 0, …, alpha rank 3: given in that order. */
  for (guint i = 0; i < 4; i++)
    {
      copies[i] = g_build_filename (dir, names[i], NULL);
      g_assert_cmpint (symlink (rank_files[i], copies[i]), ==, 0);
      paths[3 - i] = copies[i];
    }
  run = load_job (paths);
  g_assert_cmpint (run->ranks->source, ==, WS_RANK_BY_ENVIRONMENT);
  for (guint r = 0; r < 4; r++)
    {
      const WsRank *rank = ws_ranks_get (run->ranks, r);
      g_autofree char *how = g_strdup_printf ("RANK=%u", r);

      g_assert_cmpuint (rank->rank, ==, r);
      g_assert_cmpstr (rank->file, ==, copies[r]);
      g_assert_cmpstr (rank->how, ==, how);
    }
  for (guint i = 0; i < 4; i++)
    g_free (copies[i]);
}

/* The merged kernel summary equals the ranks' nsys stats rows added up:
 * totals, instances, min and max; the median is that of the union of the
 * four files' durations, taken here with SQL and a sort. */
static void
test_ddp_merged_summary (void)
{
  g_autoptr (WsRun) run = load_ddp ();
  g_autoptr (WsSummary) merged = ws_stats_compute (run, WS_SUMMARY_KERN_SUM, WS_NAME_DEMANGLED);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  WsSummary *csv[4] = { NULL };
  guint checked_medians = 0;

  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *name = g_strdup_printf ("rank%u_cuda_gpu_kern_sum.csv", r);
      g_autofree char *path = ws_test_data ("multirank", name, NULL);
      g_autoptr (GError) error = NULL;

      csv[r] = ws_nsys_stats_read (path, &error);
      g_assert_no_error (error);
    }
  for (guint r = 0; r < 4; r++)
    for (guint i = 0; i < csv[r]->rows->len; i++)
      {
        const char *name = g_array_index (csv[r]->rows, WsSummaryRow, i).name;
        const WsSummaryRow *ours = ws_summary_find (merged, name);
        gint64 total = 0, count = 0, min = G_MAXINT64, max = G_MININT64;

        if (!g_hash_table_add (seen, (gpointer) name))
          continue;
        g_assert_nonnull (ours);
        for (guint k = 0; k < 4; k++)
          {
            const WsSummaryRow *row = ws_summary_find (csv[k], name);

            if (row == NULL)
              continue;
            total += row->total;
            count += row->count;
            min = MIN (min, row->min);
            max = MAX (max, row->max);
          }
        g_assert_cmpint (ours->total, ==, total);
        g_assert_cmpint (ours->count, ==, count);
        g_assert_cmpint (ours->min, ==, min);
        g_assert_cmpint (ours->max, ==, max);

        /* The median of the union, for the kernels with the most time. */
        if (i < 3 && r == 0)
          {
            g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (gint64));
            g_autofree char *quoted = NULL;
            double median;

            {
              GString *q = g_string_new ("'");

              for (const char *p = name; *p != '\0'; p++)
                {
                  if (*p == '\'')
                    g_string_append_c (q, '\'');
                  g_string_append_c (q, *p);
                }
              g_string_append_c (q, '\'');
              quoted = g_string_free (q, FALSE);
            }
            for (guint k = 0; k < 4; k++)
              {
                g_autofree char *sql = g_strdup_printf (
                  "SELECT group_concat(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
                  "StringIds s ON s.id = k.demangledName WHERE s.value = %s",
                  quoted);
                g_autofree char *list = ws_test_sqlite_text (rank_files[k], sql);
                g_auto (GStrv) parts = list != NULL ? g_strsplit (list, ",", -1) : NULL;

                for (guint p = 0; parts != NULL && parts[p] != NULL; p++)
                  {
                    gint64 v = g_ascii_strtoll (parts[p], NULL, 10);

                    g_array_append_val (all, v);
                  }
              }
            g_assert_cmpuint (all->len, ==, count);
            {
              gint64 *v = (gint64 *) (gpointer) all->data;

              /* A plain insertion sort: the test's own, not the program's. */
              for (guint a = 1; a < all->len; a++)
                for (guint b = a; b > 0 && v[b - 1] > v[b]; b--)
                  {
                    gint64 t = v[b];

                    v[b] = v[b - 1];
                    v[b - 1] = t;
                  }
              median = all->len % 2 == 1 ? (double) v[all->len / 2]
                                         : ((double) v[all->len / 2 - 1] + v[all->len / 2]) / 2;
            }
            g_assert_cmpfloat (ours->med, ==, median);
            checked_medians++;
          }
      }
  g_assert_cmpuint (g_hash_table_size (seen), ==, merged->rows->len);
  g_assert_cmpuint (checked_medians, ==, 3);
  for (guint r = 0; r < 4; r++)
    ws_summary_unref (csv[r]);
}

/* Blocking calls of @thread (a globalTid) within [s, e), by SQL. */
static gint64
sql_waits (const char *db, gint64 tid, gint64 s, gint64 e)
{
  g_autoptr (GString) names = g_string_new (NULL);
  g_autofree char *sql = NULL;

  for (gsize i = 0; i < G_N_ELEMENTS (waits); i++)
    g_string_append_printf (names, "%s'%s'", i > 0 ? "," : "", waits[i]);
  sql = g_strdup_printf (
    "SELECT coalesce(sum(min(o.end, %" G_GINT64_FORMAT ") - o.start), 0) FROM OSRT_API o JOIN "
    "StringIds n ON n.id = o.nameId WHERE o.globalTid = %" G_GINT64_FORMAT
    " AND o.start >= %" G_GINT64_FORMAT " AND o.start < %" G_GINT64_FORMAT " AND n.value IN (%s)",
    e, tid, s, e, names->str);
  return sql_int (db, sql);
}

/* CUDA synchronisation calls of @thread within [s, e), by SQL. */
static gint64
sql_syncs (const char *db, gint64 tid, gint64 s, gint64 e)
{
  g_autofree char *sql = g_strdup_printf (
    "SELECT coalesce(sum(min(r.end, %" G_GINT64_FORMAT ") - r.start), 0) FROM "
    "CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds n ON n.id = r.nameId WHERE r.globalTid = "
    "%" G_GINT64_FORMAT " AND r.start >= %" G_GINT64_FORMAT " AND r.start < %" G_GINT64_FORMAT
    " AND (n.value LIKE 'cudaDeviceSynchronize%%' OR n.value LIKE 'cudaStreamSynchronize%%' OR "
    "n.value LIKE 'cudaEventSynchronize%%' OR n.value LIKE 'cudaThreadSynchronize%%')",
    e, tid, s, e);

  return sql_int (db, sql);
}

/* Each rank's figures against SQL over its own export: kernel time (which
 * also equals its nsys stats total), waiting and own work per step. */
static void
test_ddp_figures_against_sql (void)
{
  g_autoptr (WsRun) run = load_ddp ();
  const WsTestRankSql *t = ddp_truth ();

  for (guint r = 0; r < 4; r++)
    {
      const WsRankFigures *f = g_ptr_array_index (run->ranks->figures, r);
      const char *db = rank_files[r];
      g_autofree char *csv_name = g_strdup_printf ("rank%u_cuda_gpu_kern_sum.csv", r);
      g_autofree char *csv_path = ws_test_data ("multirank", csv_name, NULL);
      g_autoptr (WsSummary) csv = ws_nsys_stats_read (csv_path, NULL);
      gint64 step_tid =
        sql_int (db, "SELECT globalTid FROM NVTX_EVENTS WHERE eventType = 59 LIMIT 1");
      g_autofree char *steps_sql = g_strdup_printf (
        "SELECT group_concat(start || ':' || end) FROM (SELECT n.start, n.end FROM NVTX_EVENTS n "
        "LEFT JOIN StringIds s ON s.id = n.textId WHERE coalesce(n.text, s.value) LIKE 'step %%' "
        "ORDER BY n.start)");
      g_autofree char *spans = ws_test_sqlite_text (db, steps_sql);
      g_auto (GStrv) parts = g_strsplit (spans, ",", -1);

      g_assert_cmpuint (f->rank, ==, r);
      g_assert_cmpint (f->kernel_time, ==,
                       sql_int (db, "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
      g_assert_cmpint (f->kernel_time, ==, csv->grand_total);
      g_assert_cmpint (f->gpu_time, ==, t[r].gpu_time);
      g_assert_cmpint (f->idle_time, ==, t[r].idle_time);
      g_assert_cmpint (f->wait_time, ==, t[r].wait_time);
      g_assert_cmpfloat (f->step_median, ==, t[r].step_median);
      g_assert_cmpint (f->wait_source, ==, WS_WAIT_CPU);
      g_assert_cmpint (f->comm_time, ==, 0);
      g_assert_cmpstr (f->step_pattern, ==, "step N");
      g_assert_cmpuint (f->steps->len, ==, g_strv_length (parts));
      g_assert_cmpuint (f->steps->len, ==, 12);
      for (guint s = 0; s < f->steps->len; s++)
        {
          const WsRankStep *step = &g_array_index (f->steps, WsRankStep, s);
          gint64 a = g_ascii_strtoll (parts[s], NULL, 10);
          gint64 b = g_ascii_strtoll (strchr (parts[s], ':') + 1, NULL, 10);
          gint64 wait = sql_waits (db, step_tid, a, b);

          g_assert_cmpuint (step->number, ==, s);
          g_assert_cmpint (step->start, ==, a);
          g_assert_cmpint (step->end, ==, b);
          g_assert_cmpint (step->wait, ==, wait);
          g_assert_cmpint (step->work, ==, (b - a) - wait - sql_syncs (db, step_tid, a, b));
          g_assert_cmpint (step->work, ==, t[r].work[s]);
        }
    }
}

static void
assert_same_figures (const WsRankFigures *a, const WsRankFigures *b)
{
  g_assert_cmpint (a->gpu_time, ==, b->gpu_time);
  g_assert_cmpint (a->kernel_time, ==, b->kernel_time);
  g_assert_cmpint (a->comm_time, ==, b->comm_time);
  g_assert_cmpint (a->wait_time, ==, b->wait_time);
  g_assert_cmpint (a->idle_time, ==, b->idle_time);
  g_assert_cmpuint (a->steps->len, ==, b->steps->len);
  g_assert_cmpfloat (a->step_median, ==, b->step_median);
  g_assert_cmpfloat (a->work_median, ==, b->work_median);
  for (guint s = 0; s < a->steps->len; s++)
    {
      const WsRankStep *x = &g_array_index (a->steps, WsRankStep, s);
      const WsRankStep *y = &g_array_index (b->steps, WsRankStep, s);

      g_assert_cmpint (x->start + a->offset, ==, y->start + b->offset);
      g_assert_cmpint (x->end - x->start, ==, y->end - y->start);
      g_assert_cmpint (x->gpu_busy, ==, y->gpu_busy);
      g_assert_cmpint (x->wait, ==, y->wait);
      g_assert_cmpint (x->work, ==, y->work);
    }
  g_assert_cmpuint (a->ranges->len, ==, b->ranges->len);
}

/* A rank measured from its own export (as a digest would) equals the same
 * rank measured in the merged run by its pid. */
static void
test_ddp_one_rank_equals_merged (void)
{
  g_autoptr (WsRun) run = load_ddp ();

  for (guint r = 0; r < 4; r++)
    {
      const char *paths[] = { rank_files[r], NULL };
      g_autoptr (WsRun) alone = ws_test_load_paths (paths);
      g_autoptr (WsRankFigures) own = ws_rank_measure (alone, WS_PID_ANY, r);
      g_autoptr (WsRankFigures) merged =
        ws_rank_measure (run, ws_ranks_get (run->ranks, r)->pid, r);

      own->offset = ws_ranks_get (run->ranks, r)->offset;
      assert_same_figures (own, merged);
      assert_same_figures (own, g_ptr_array_index (run->ranks->figures, r));
    }
}

/* Rank 3 does six extra matrix products per step in "extra work": it
 * comes last, per step, wherever its own work (computed here with SQL) is
 * the most, and the straggler's extra work is that range. */
static void
test_ddp_straggler (void)
{
  g_autoptr (WsRun) run = load_ddp ();
  g_autoptr (WsRankSet) set = ws_rank_set_new_for_run (run);
  g_autoptr (GPtrArray) findings = ws_findings_compute (run);
  const WsStraggler *s = &set->straggler;
  g_autoptr (GArray) extra = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint last_of_rank3 = 0, steady = 0;
  const WsFinding *imbalance = ws_findings_find (findings, "rank-imbalance");

  const WsTestRankSql *t = ddp_truth ();
  gint64 late, lost;

  g_assert_cmpint (s->index, ==, 3);
  g_assert_cmpuint (s->rank, ==, 3);
  g_assert_cmpstr (s->range, ==, "extra work");
  g_assert_cmpint (set->method, ==, WS_RANK_METHOD_HOST);
  for (guint i = 0; i < set->steps->len; i++)
    {
      const WsRankSetStep *step = &g_array_index (set->steps, WsRankSetStep, i);
      gint best = 0;

      for (guint r = 0; r < 4; r++)
        {
          g_assert_cmpuint (t[r].n_steps, ==, set->steps->len);
          if (t[r].work[step->number] > t[best].work[step->number])
            best = (gint) r;
        }
      g_assert_cmpint (step->last, ==, best);
      /* Its lateness in the step: its work less the median of the three
       * others' work, by SQL. */
      {
        gint64 others[3];
        guint k = 0;

        for (guint r = 0; r < 4; r++)
          if ((gint) r != best)
            others[k++] = t[r].work[step->number];
        g_assert_cmpint (step->late, ==, t[best].work[step->number] - ws_test_median (others, 3));
      }
      if (step->steady)
        {
          steady++;
          last_of_rank3 += best == 3;
        }
    }
  /* Step 0 is warm-up; rank 3 is last in all but one of the others. */
  g_assert_cmpuint (s->n_steps, ==, steady);
  g_assert_cmpuint (steady, ==, 11);
  g_assert_cmpuint (s->n_last, ==, last_of_rank3);
  g_assert_cmpuint (s->n_last, ==, 10);

  /* "extra work" exists only on rank 3: its extra is that range's median
   * duration over the steady steps. */
  for (guint n = 1; n < 12; n++)
    {
      g_autofree char *sql = g_strdup_printf (
        "SELECT e.end - e.start FROM NVTX_EVENTS e LEFT JOIN StringIds se ON se.id = e.textId, "
        "NVTX_EVENTS p LEFT JOIN StringIds sp ON sp.id = p.textId WHERE coalesce(e.text, "
        "se.value) = 'extra work' AND coalesce(p.text, sp.value) = 'step %u' AND e.start >= "
        "p.start AND e.end <= p.end",
        n);
      gint64 d = sql_int (rank_files[3], sql);

      g_array_append_val (extra, d);
    }
  g_assert_cmpint (s->range_extra, ==,
                   ws_test_median ((const gint64 *) (gconstpointer) extra->data, extra->len));
  /* Lateness and loss by SQL: over the eleven steady steps, the median of
   * rank 3's work less the others' median, 599,784 ns (the README's
   * figure), and the median of the others' waiting in the step, each up to
   * that step's lateness, summed (docs/NOTES.md, "What a straggler costs"):
   * 1,799,352 ns (1,852,662 before issue 40, what it worked more than each
   * other rank). */
  ws_test_straggler_sql (t, 4, 3, &late, &lost);
  g_assert_cmpint (late, ==, 599784);
  g_assert_cmpint (lost, ==, 1799352);
  g_assert_cmpint (lost, <=, 3 * late);
  g_assert_cmpint (s->late, ==, late);
  g_assert_cmpint (s->lost, ==, lost);

  g_assert_nonnull (imbalance);
  g_assert_cmpint (imbalance->severity, ==, WS_SEVERITY_MINOR);
  g_assert_nonnull (strstr (imbalance->summary, "Rank 3"));
  g_assert_nonnull (strstr (imbalance->summary, "“extra work”"));
  g_assert_cmpfloat (ws_finding_get_evidence (imbalance, "late_ns")->value, ==, (double) late);
  g_assert_cmpfloat (ws_finding_get_evidence (imbalance, "lost_ns")->value, ==, (double) lost);
  g_assert_nonnull (ws_findings_find (findings, "shared-gpu"));
  {
    g_autofree char *line = ws_rank_set_straggler_line (set);

    g_assert_cmpstr (line, ==, "straggler: rank 3, +599784 ns per step, in extra work");
  }
}

/* ---- the command line ---------------------------------------------------- */

static int
compare_lines (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* The lines of a CSV, sorted: rows of equal totals come in no fixed order. */
static char *
sorted_lines (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  qsort (lines, g_strv_length (lines), sizeof (char *), compare_lines);
  return g_strjoinv ("\n", lines);
}

/* `stats --rank 3` of the job equals rank 3's own nsys stats CSV; an
 * unknown rank is one line and exit status 2. */
static void
test_cli_stats_rank_filter (void)
{
  g_autofree char *truth_path = ws_test_data ("multirank", "rank3_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *truth = ws_test_read (truth_path);
  g_autofree char *out = NULL, *err = NULL, *a = NULL, *b = NULL;

  unpack ();
  {
    const char *args[] = { "stats", "--rank", "3", "--format", "csv", job_dir, NULL };

    out = ws_test_cli_expect (args, 0, NULL);
  }
  a = sorted_lines (out);
  b = sorted_lines (truth);
  g_assert_cmpstr (a, ==, b);
  g_clear_pointer (&out, g_free);
  {
    const char *args[] = { "stats", "--rank", "7", job_dir, NULL };

    out = ws_test_cli_expect (args, 2, &err);
  }
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "no rank 7 (its ranks are 0 to 3)"));
  g_assert_cmpuint (ws_test_count_lines (err), ==, 1);
}

/* `ranks --format csv`: the columns of the issue, one row per rank whose
 * kernel time is its nsys stats total and whose other figures are SQL's
 * over its export, then the straggler line with the README's figure. */
static void
test_cli_ranks_csv (void)
{
  const char *args[] = { "ranks", "--format", "csv", NULL, NULL };
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;

  const WsTestRankSql *t = ddp_truth ();

  args[3] = job_dir;
  out = ws_test_cli_expect (args, 0, NULL);
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 7);
  g_assert_cmpstr (lines[0], ==,
                   "rank,file,process,gpu_time_ns,kernel_ns,comm_ns,wait_ns,idle_ns,steps,"
                   "step_median_ns,method,comm_hidden_ns,steady_idle_ns,steady_span_ns");
  for (guint r = 0; r < 4; r++)
    {
      g_auto (GStrv) cells = g_strsplit (lines[r + 1], ",", -1);
      g_autofree char *csv_name = g_strdup_printf ("rank%u_cuda_gpu_kern_sum.csv", r);
      g_autofree char *csv_path = ws_test_data ("multirank", csv_name, NULL);
      g_autoptr (WsSummary) csv = ws_nsys_stats_read (csv_path, NULL);

      g_assert_cmpuint (g_strv_length (cells), ==, 14);
      g_assert_cmpint (atoi (cells[0]), ==, (int) r);
      g_assert_cmpstr (cells[10], ==, "host");
      g_assert_cmpstr (cells[1], ==, rank_files[r]);
      g_assert_cmpstr (cells[2], ==, "python3");
      g_assert_cmpint (g_ascii_strtoll (cells[3], NULL, 10), ==, t[r].gpu_time);
      g_assert_cmpint (g_ascii_strtoll (cells[4], NULL, 10), ==, csv->grand_total);
      g_assert_cmpint (g_ascii_strtoll (cells[4], NULL, 10), ==, t[r].kernel_time);
      g_assert_cmpstr (cells[5], ==, "0");
      g_assert_cmpint (g_ascii_strtoll (cells[6], NULL, 10), ==, t[r].wait_time);
      g_assert_cmpint (g_ascii_strtoll (cells[7], NULL, 10), ==, t[r].idle_time);
      g_assert_cmpstr (cells[8], ==, "12");
      /* Whole ns: a median of an even count of steps may end in .5. */
      g_assert_cmpfloat (fabs (g_ascii_strtod (cells[9], NULL) - t[r].step_median), <=, 0.5);
    }
  g_assert_cmpstr (lines[5], ==, "straggler: rank 3, +599784 ns per step, in extra work");
  g_assert_cmpstr (lines[6], ==, "");
}

/* The width and height a PNG file's IHDR chunk states (bytes 16 to 23,
 * big-endian, after the 8-byte signature and the chunk's length and type). */
static void
png_size (const char *path, guint *width, guint *height)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  const guint8 *b;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_assert_cmpuint (len, >, 24);
  b = (const guint8 *) data;
  g_assert_cmpmem (b, 8, "\x89PNG\r\n\x1a\n", 8);
  g_assert_cmpmem (b + 12, 4, "IHDR", 4);
  *width = ((guint) b[16] << 24) | ((guint) b[17] << 16) | ((guint) b[18] << 8) | b[19];
  *height = ((guint) b[20] << 24) | ((guint) b[21] << 16) | ((guint) b[22] << 8) | b[23];
}

/* `render --view ranks`: a PNG of the size asked for, whose pixels
 * change with the metric; an unknown metric is refused. */
static void
test_cli_render_and_info (void)
{
  g_autofree char *png = g_build_filename (tmp, "ranks.png", NULL);
  g_autofree char *busy = g_build_filename (tmp, "ranks-busy.png", NULL);
  g_autofree char *out = NULL, *a = NULL, *b = NULL;
  guint width = 0, height = 0;

  unpack ();
  {
    const char *args[] = { "render",  "--view", "ranks", "--metric", "waiting", "--size",
                           "900x500", "-o",     png,     job_dir,    NULL };

    g_free (ws_test_cli_expect (args, 0, NULL));
  }
  png_size (png, &width, &height);
  g_assert_cmpuint (width, ==, 900);
  g_assert_cmpuint (height, ==, 500);
  {
    const char *args[] = { "render",  "--view", "ranks", "--metric", "gpu-busy", "--size",
                           "900x500", "-o",     busy,    job_dir,    NULL };

    g_free (ws_test_cli_expect (args, 0, NULL));
  }
  a = ws_test_file_sha256 (png);
  b = ws_test_file_sha256 (busy);
  g_assert_cmpstr (a, !=, b);
  {
    const char *args[] = { "render", "--view", "ranks", "--metric", "nonsense",
                           "-o",     png,      job_dir, NULL };

    g_free (ws_test_cli_expect (args, 2, NULL));
  }
  {
    const char *args[] = {
      "info", rank_files[0], rank_files[1], rank_files[2], rank_files[3], NULL
    };

    out = ws_test_cli_expect (args, 0, NULL);
  }
  g_assert_nonnull (strstr (out, "Job:            ddp_probe.py — 4 ranks"));
  g_assert_nonnull (strstr (out, "4 ranks, numbered by file name; clocks aligned on each "
                                 "export's session start (UTC)"));
  g_assert_nonnull (strstr (out, "rank 2: rank2.sqlite, python3 (pid"));
  g_assert_nonnull (strstr (out, "clock +69.0 ms"));
}

/* --rank in rollup and flame, commands that read a run like the others:
 * `rollup --rank 3` gives "extra work" the GPU time of the kernels
 * launched inside it on rank 3 (SQL here: 2,853,369 ns), a range only
 * rank 3 has, so `--rank 0` lists none; in a job of a DDP rank and
 * another export, both with nsys CPU samples, `flame --rank N` counts the
 * samples of rank N's export (SQL: 6,550 and 2,619), `--rank 2` is one
 * line and exit status 2. */
static void
test_cli_rank_filter_rollup_flame (void)
{
  const char *sql =
    "SELECT sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
    "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId "
    "AND (r.globalTid >> 24) = (k.globalPid >> 24) "
    "JOIN NVTX_EVENTS n ON n.globalTid = r.globalTid AND r.start >= n.start AND r.end <= n.end "
    "WHERE n.text = 'extra work'";
  g_autofree char *flame_dir = g_build_filename (tmp, "flame-job", NULL);
  g_autofree char *gaussian = ws_test_data ("nsys", "v2022.4_rodinia_gaussian.sqlite", NULL);
  g_autofree char *out = NULL, *err = NULL, *expected = NULL;

  unpack ();
  {
    const char *args[] = { "rollup", "--rank", "3", "--format", "csv", job_dir, NULL };

    out = ws_test_cli_expect (args, 0, NULL);
  }
  expected = g_strdup_printf ("\n:extra work,%" G_GINT64_FORMAT ",", sql_int (rank_files[3], sql));
  g_assert_nonnull (strstr (out, expected));
  g_clear_pointer (&out, g_free);
  {
    const char *args[] = { "rollup", "--rank", "0", "--format", "csv", job_dir, NULL };

    out = ws_test_cli_expect (args, 0, NULL);
  }
  g_assert_null (strstr (out, "extra work"));
  g_assert_nonnull (strstr (out, "\n:forward,"));
  g_clear_pointer (&out, g_free);

  /* Ranks 0 and 1 by their names: a DDP rank and the Rodinia export. */
  g_assert_cmpint (g_mkdir (flame_dir, 0700), ==, 0);
  for (guint r = 0; r < 2; r++)
    {
      g_autofree char *name = g_strdup_printf ("rank%u.sqlite", r);
      g_autofree char *dest = g_build_filename (flame_dir, name, NULL);
      g_autofree char *contents = NULL;
      gsize len = 0;

      g_assert_true (
        g_file_get_contents (r == 0 ? rank_files[0] : gaussian, &contents, &len, NULL));
      g_assert_true (g_file_set_contents (dest, contents, (gssize) len, NULL));
    }
  for (guint r = 0; r < 2; r++)
    {
      g_autofree char *rank = g_strdup_printf ("%u", r);
      const char *args[] = { "flame", "--rank", rank, flame_dir, NULL };
      g_autofree char *collapsed = ws_test_cli_expect (args, 0, NULL);
      g_auto (GStrv) lines = g_strsplit (collapsed, "\n", -1);
      g_autofree char *samples = ws_test_sqlite_text (
        r == 0 ? rank_files[0] : gaussian, "SELECT count(DISTINCT c.id) FROM SAMPLING_CALLCHAINS c "
                                           "JOIN COMPOSITE_EVENTS e ON e.id = c.id");
      gint64 counted = 0;

      for (guint i = 0; lines[i] != NULL; i++)
        {
          const char *space = strrchr (lines[i], ' ');

          if (space != NULL)
            counted += g_ascii_strtoll (space + 1, NULL, 10);
        }
      g_assert_cmpint (counted, ==, g_ascii_strtoll (samples, NULL, 10));
    }
  {
    const char *args[] = { "flame", "--rank", "2", flame_dir, NULL };

    g_free (ws_test_cli_expect (args, 2, &err));
  }
  g_assert_nonnull (strstr (err, "no rank 2 (its ranks are 0 to 1)"));
  ws_test_rmtree (flame_dir);
}

/* `compare --peers 0,3`: the two ranks side by side, their columns the
 * totals of their own nsys stats CSVs; two jobs compare rank by rank. */
static void
test_cli_compare_ranks (void)
{
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;
  gint64 sums[2] = { 0, 0 };

  unpack ();
  {
    const char *args[] = { "compare", "--peers", "0,3", "--format", "csv", job_dir, NULL };

    out = ws_test_cli_expect (args, 0, NULL);
  }
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpstr (lines[0], ==,
                   "kernel,rank0_total_ns,rank3_total_ns,delta_ns,ratio,rank0_instances,"
                   "rank3_instances,status");
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      /* The name may hold commas; the numbers are the last seven cells. */
      g_auto (GStrv) cells = g_strsplit (lines[i], ",", -1);
      guint n = g_strv_length (cells);

      sums[0] += g_ascii_strtoll (cells[n - 7], NULL, 10);
      sums[1] += g_ascii_strtoll (cells[n - 6], NULL, 10);
      g_assert_true (g_str_equal (cells[n - 1], "both") ||
                     g_str_equal (cells[n - 1], "only rank3"));
    }
  g_assert_cmpint (sums[0], ==, 31474278); /* rank0_cuda_gpu_kern_sum.csv, summed */
  g_assert_cmpint (sums[1], ==, 53859191); /* rank3's */
  g_clear_pointer (&out, g_free);
  {
    const char *args[] = { "compare", "--peers", "0,3", job_dir, NULL };

    out = ws_test_cli_expect (args, 0, NULL);
  }
  g_assert_true (g_str_has_prefix (out, "rank 0 vs rank 3: rank 3's kernels take 22.4 ms more "
                                        "(1.71×) than rank 0's, "));
  g_clear_pointer (&out, g_free);

  /* Two different jobs rank by rank: the job, then its exports numbered
   * the other way round (rank N of the second is rank 3 − N's export), so
   * each rank's before and after are SQL's figures of two exports. */
  {
    g_autofree char *swapped = g_build_filename (tmp, "swapped", NULL);
    const char *before_paths[] = { job_dir, NULL };
    const char *after_paths[] = { swapped, NULL };
    const char *args[] = { "compare", "--whole-run", job_dir, swapped, NULL };
    const WsTestRankSql *t = ddp_truth ();
    g_autoptr (WsRun) before = NULL, after = NULL;
    g_autoptr (GArray) pairs = NULL;

    g_assert_cmpint (g_mkdir (swapped, 0700), ==, 0);
    for (guint r = 0; r < 4; r++)
      {
        g_autofree char *name = g_strdup_printf ("rank%u.sqlite", r);
        g_autofree char *link = g_build_filename (swapped, name, NULL);

        g_assert_cmpint (symlink (rank_files[3 - r], link), ==, 0);
      }
    before = load_job (before_paths);
    after = load_job (after_paths);
    pairs = ws_rank_compare_pairs (before, after);
    g_assert_cmpuint (pairs->len, ==, 4);
    for (guint r = 0; r < 4; r++)
      {
        const WsRankPair *p = &g_array_index (pairs, WsRankPair, r);

        g_assert_cmpuint (p->rank, ==, r);
        g_assert_cmpint (p->before->gpu_time, ==, t[r].gpu_time);
        g_assert_cmpint (p->after->gpu_time, ==, t[3 - r].gpu_time);
        g_assert_cmpint (p->before->wait_time, ==, t[r].wait_time);
        g_assert_cmpint (p->after->wait_time, ==, t[3 - r].wait_time);
        g_assert_cmpfloat (p->before->step_median, ==, t[r].step_median);
        g_assert_cmpfloat (p->after->step_median, ==, t[3 - r].step_median);
      }
    out = ws_test_cli_expect (args, 0, NULL);
    /* The printed line: SQL's numbers, in the program's duration format. */
    for (guint r = 0; r < 4; r++)
      {
        const gint64 from[] = { t[r].gpu_time, t[r].wait_time, llround (t[r].step_median) };
        const gint64 to[] = { t[3 - r].gpu_time, t[3 - r].wait_time,
                              llround (t[3 - r].step_median) };
        char *said[3];
        g_autofree char *line = NULL;

        for (guint i = 0; i < 3; i++)
          {
            g_autofree char *a = ws_format_duration ((double) from[i]);
            g_autofree char *b = ws_format_duration ((double) to[i]);
            g_autofree char *d = ws_format_duration ((double) ABS (to[i] - from[i]));

            said[i] = g_strdup_printf ("%s → %s (%s%s)", a, b, to[i] >= from[i] ? "+" : "−", d);
          }
        line = g_strdup_printf ("\n  rank %u: GPU time %s, waiting %s, median step %s\n", r,
                                said[0], said[1], said[2]);
        g_assert_nonnull (strstr (out, line));
        for (guint i = 0; i < 3; i++)
          g_free (said[i]);
      }
    /* Rank 3's export has the most GPU time (137.6 ms against 121.2 ms). */
    g_assert_nonnull (strstr (out, "  rank 0: GPU time 121 ms → 138 ms (+16.3 ms)"));
  }
}

/* ---- other jobs ---------------------------------------------------------- */

/* Two exports of different jobs: numbered by order (both call themselves
 * rank 0: saxpy by nsys's "MPI Rank 0" thread, CloverLeaf by PMI_RANK),
 * and what is odd is said. */
static void
test_mixed_jobs (void)
{
  g_autofree char *saxpy = ws_test_data ("nsys", "v2022.2_pipit_saxpy_mpi.sqlite", NULL);
  g_autofree char *clover = ws_test_data ("nsys", "v2024.5_pipit_cloverleaf_4gpu.sqlite", NULL);
  const char *paths[] = { saxpy, clover, NULL };
  g_autoptr (WsRun) run = load_job (paths);
  g_autoptr (GString) notes = g_string_new (NULL);
  guint rank;

  g_assert_cmpint (run->ranks->source, ==, WS_RANK_BY_ORDER);
  g_assert_cmpstr (ws_ranks_get (run->ranks, 0)->file, ==, saxpy);
  g_assert_cmpstr (ws_ranks_get (run->ranks, 0)->how, ==, "file 1");
  for (guint i = 0; i < run->ranks->notes->len; i++)
    g_string_append_printf (notes, "%s\n", (const char *) g_ptr_array_index (run->ranks->notes, i));
  g_assert_nonnull (strstr (notes->str, "1 export does not say which job it belongs to; the "
                                        "others belong to SLURM_JOB_ID=16618307"));
  g_assert_nonnull (strstr (notes->str, "sessions started 99 days apart"));
  {
    g_autoptr (WsRun) probe = ws_nsys_reader_probe (saxpy, NULL);

    g_assert_cmpstr (probe->prov.thread_rank_name, ==, "MPI Rank 0");
  }
  {
    g_autoptr (WsRun) probe = ws_nsys_reader_probe (clover, NULL);

    g_assert_true (ws_rank_number_from_env (probe->prov.target_env, &rank, NULL));
    g_assert_cmpuint (rank, ==, 0);
    g_assert_cmpstr (probe->prov.target_command, ==,
                     "cuda-cloverleaf --in ../CloverLeaf-hip/InputDecks/clover_bm32_prof.in");
  }
  /* saxpy's MPI calls are its communication and its waiting. */
  {
    const WsRankFigures *f = g_ptr_array_index (run->ranks->figures, 0);

    g_assert_cmpint (f->comm_time, ==,
                     sql_int (saxpy, "SELECT sum(n.end - n.start) FROM NVTX_EVENTS n JOIN "
                                     "StringIds s ON s.id = n.textId WHERE s.value IN "
                                     "('MPI_Send', 'MPI_Recv')"));
  }
}

/* Sum over @starts/@ends (ns) of each interval's overlap with the union of
 * @others: the test's own brute force. */
static gint64
brute_overlap (GArray *starts, GArray *ends, GArray *o_starts, GArray *o_ends)
{
  gint64 total = 0;

  for (guint i = 0; i < starts->len; i++)
    {
      gint64 a = g_array_index (starts, gint64, i), b = g_array_index (ends, gint64, i);
      gint64 covered_to = a, sum = 0;
      gboolean more = TRUE;

      /* Sweep the others by start: cover [a, b) once. */
      while (more)
        {
          gint64 next_start = G_MAXINT64, next_end = 0;

          more = FALSE;
          for (guint j = 0; j < o_starts->len; j++)
            {
              gint64 s = g_array_index (o_starts, gint64, j), e = g_array_index (o_ends, gint64, j);

              if (e > covered_to && s < b && MAX (s, covered_to) < next_start)
                {
                  next_start = MAX (s, covered_to);
                  next_end = MIN (e, b);
                  more = TRUE;
                }
              else if (e > covered_to && s < b && MAX (s, covered_to) == next_start)
                next_end = MAX (next_end, MIN (e, b));
            }
          if (more)
            {
              sum += next_end - next_start;
              covered_to = next_end;
            }
        }
      total += sum;
    }
  return total;
}

/* Two processes of one export (torchrun with two GPUs) are two ranks;
 * their NCCL SendRecv kernels are their communication, checked with SQL,
 * and how much of it ran under their compute, by brute force. */
static void
test_processes_nccl (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2026.2_nsysai_mfu_before.sqlite", NULL);
  g_autoptr (WsRun) run = ws_test_load_nsys ("v2026.2_nsysai_mfu_before.sqlite");

  g_assert_nonnull (run->ranks);
  g_assert_cmpint (run->ranks->source, ==, WS_RANK_BY_PROCESS);
  g_assert_cmpuint (ws_ranks_get_n (run->ranks), ==, 2);
  for (guint r = 0; r < 2; r++)
    {
      const WsRank *rank = ws_ranks_get (run->ranks, r);
      const WsRankFigures *f = g_ptr_array_index (run->ranks->figures, r);
      g_autofree char *pid_sql = g_strdup_printf (
        "SELECT (globalPid >> 24) & 16777215 FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1 ORDER "
        "BY 1 LIMIT 1 OFFSET %u",
        r);
      guint32 pid = (guint32) sql_int (path, pid_sql);
      g_autofree char *sql = g_strdup_printf (
        "SELECT sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id "
        "= k.demangledName WHERE s.value LIKE 'ncclDevKernel%%' AND ((k.globalPid >> 24) & "
        "16777215) = %u",
        pid);
      g_autofree char *list_sql = g_strdup_printf (
        "SELECT group_concat(k.start || ':' || k.end || ':' || (s.value LIKE 'nccl%%')) FROM "
        "(SELECT start, end, demangledName, globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL) k JOIN "
        "StringIds s ON s.id = k.demangledName WHERE ((k.globalPid >> 24) & 16777215) = %u",
        pid);
      g_autofree char *mem_sql = g_strdup_printf (
        "SELECT group_concat(start || ':' || end) FROM (SELECT start, end, globalPid FROM "
        "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT start, end, globalPid FROM "
        "CUPTI_ACTIVITY_KIND_MEMSET) WHERE ((globalPid >> 24) & 16777215) = %u",
        pid);
      g_autofree char *list = ws_test_sqlite_text (path, list_sql);
      g_autofree char *mems = ws_test_sqlite_text (path, mem_sql);
      g_auto (GStrv) items = g_strsplit (list, ",", -1);
      g_auto (GStrv) mem_items = mems != NULL ? g_strsplit (mems, ",", -1) : g_new0 (char *, 1);
      g_autoptr (GArray) ns = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr (GArray) ne = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr (GArray) cs = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr (GArray) ce = g_array_new (FALSE, FALSE, sizeof (gint64));

      g_assert_cmpuint (rank->pid, ==, pid);
      g_assert_cmpuint (rank->rank, ==, r);
      g_assert_cmpint (f->wait_source, ==, WS_WAIT_NCCL);
      g_assert_cmpint (f->comm_time, ==, sql_int (path, sql));
      g_assert_cmpuint (f->collectives->len, ==, 1);
      g_assert_cmpstr (g_array_index (f->collectives, WsRankCollective, 0).kind, ==, "SendRecv");
      for (guint i = 0; items[i] != NULL; i++)
        {
          g_auto (GStrv) p = g_strsplit (items[i], ":", 3);
          gint64 a = g_ascii_strtoll (p[0], NULL, 10), b = g_ascii_strtoll (p[1], NULL, 10);

          g_array_append_val (atoi (p[2]) ? ns : cs, a);
          g_array_append_val (atoi (p[2]) ? ne : ce, b);
        }
      /* Hidden: under another kernel of the rank; a copy or a set does
       * not count (issue 30: the time an NCCL kernel and a compute
       * kernel run at once). */
      g_assert_cmpint (f->overlap_time, ==, brute_overlap (ns, ne, cs, ce));
      for (guint i = 0; mem_items[i] != NULL; i++)
        {
          gint64 a = g_ascii_strtoll (mem_items[i], NULL, 10);
          gint64 b = g_ascii_strtoll (strchr (mem_items[i], ':') + 1, NULL, 10);

          g_array_append_val (cs, a);
          g_array_append_val (ce, b);
        }
      g_test_message ("rank %u: %" G_GINT64_FORMAT " ns hidden under kernels, %" G_GINT64_FORMAT
                      " with copies and sets",
                      r, f->overlap_time, brute_overlap (ns, ne, cs, ce));
    }
}

/* ---- merging and bad input ----------------------------------------------- */

/* One export merged with a copy of itself: the second's pids are
 * renumbered, every event is there twice, once per process. */
static void
test_merge_pid_collision (void)
{
  GHashTable *maps[2] = { NULL };
  WsRun *runs[2];
  const gint64 offsets[] = { 0, 1000 };
  g_autoptr (WsRun) merged = NULL;
  guint32 pid, other;
  gsize n0 = 0, n1 = 0;

  unpack ();
  for (guint i = 0; i < 2; i++)
    {
      const char *paths[] = { rank_files[0], NULL };

      runs[i] = ws_test_load_paths (paths);
    }
  pid = g_array_index (runs[0]->streams, WsStream, runs[0]->kernels.stream[0]).pid;
  merged = ws_run_merge (runs, 2, offsets, maps);
  other = ws_run_merge_map_pid (maps[1], pid);
  g_assert_cmpuint (ws_run_merge_map_pid (maps[0], pid), ==, pid);
  g_assert_cmpuint (other, !=, pid);
  for (gsize i = 0; i < merged->kernels.n; i++)
    {
      guint32 p = g_array_index (merged->streams, WsStream, merged->kernels.stream[i]).pid;

      n0 += p == pid;
      n1 += p == other;
    }
  g_assert_cmpuint (n0, ==, n1);
  g_assert_cmpuint (n0 + n1, ==, merged->kernels.n);
  g_assert_cmpint (n0, ==,
                   sql_int (rank_files[0], "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  g_assert_true (
    ws_sort_is_ordered (merged->kernels.start, merged->kernels.end, merged->kernels.n));
  /* The one GPU is one GPU. */
  g_assert_cmpuint (merged->prov.gpus->len, ==, 1);
  ws_run_unref (runs[0]);
  ws_run_unref (runs[1]);
  g_hash_table_unref (maps[0]);
  g_hash_table_unref (maps[1]);
}

/* A folder with a damaged export: one line naming it, exit status 2,
 * nothing written beside it. */
static void
test_bad_rank_file (void)
{
  g_autofree char *dir = g_build_filename (tmp, "bad", NULL);
  g_autofree char *good = g_build_filename (dir, "rank0.sqlite", NULL);
  g_autofree char *bad = g_build_filename (dir, "rank1.sqlite", NULL);
  g_autofree char *err = NULL, *out = NULL;
  g_autoptr (GPtrArray) before = NULL, after = NULL;

  unpack ();
  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  g_assert_cmpint (symlink (rank_files[0], good), ==, 0);
  {
    g_autofree char *contents = NULL;
    gsize len;

    g_assert_true (g_file_get_contents (rank_files[1], &contents, &len, NULL));
    g_assert_true (g_file_set_contents (bad, contents, 100000, NULL));
  }
  before = ws_test_list_dir (dir);
  {
    const char *args[] = { "ranks", dir, NULL };

    out = ws_test_cli_expect (args, 2, &err);
  }
  after = ws_test_list_dir (dir);
  g_assert_cmpstr (out, ==, "");
  g_assert_true (g_str_has_prefix (err, "warpscope-cli: "));
  g_assert_nonnull (strstr (err, bad));
  g_assert_cmpuint (ws_test_count_lines (err), ==, 1);
  g_assert_cmpuint (before->len, ==, after->len);
  {
    g_autofree char *empty = g_build_filename (tmp, "empty", NULL);
    const char *args[] = { "ranks", empty, NULL };

    g_assert_cmpint (g_mkdir (empty, 0700), ==, 0);
    g_clear_pointer (&err, g_free);
    g_free (ws_test_cli_expect (args, 2, &err));
    g_assert_nonnull (strstr (err, "holds no nsys export"));
  }
}

/* Issue 30: a capture folder of two targets (BERT and ViT inference,
 * different commands, minutes apart) is two runs, not a job of two ranks.
 * A per-rank target beside them (the real two-GPU NCCL job, its exports
 * placed as `capture --per-rank` writes them) is one launch: its ranks. */
static void
test_capture_targets_are_separate_runs (void)
{
  g_autofree char *unpacked = ws_test_unpack ("captures/h100_bert_vit_capture.tar.xz");
  g_autofree char *group = g_build_filename (unpacked, "out", "targets", NULL);
  g_autofree char *job = g_build_filename (group, "ddp_nccl", NULL);
  g_autofree char *job_nsys = g_build_filename (job, "nsys", NULL);
  g_autofree char *manifest = g_build_filename (job, "run.json", NULL);
  g_autofree char *bert = g_build_filename (group, "bert_inf", NULL);
  const char *paths[] = { group, NULL };
  const char *bert_only[] = { bert, NULL };
  g_autoptr (GPtrArray) launches = NULL;
  g_autofree char *names = NULL;

  /* Two targets, one export each. */
  launches = ws_ranks_loader_launches (paths);
  g_assert_cmpuint (launches->len, ==, 2);
  names = ws_ranks_loader_launch_names (launches);
  g_assert_cmpstr (names, ==, "bert_inf, vit_inf");
  for (guint i = 0; i < launches->len; i++)
    g_assert_cmpuint (((WsLaunch *) g_ptr_array_index (launches, i))->exports->len, ==, 1);
  g_assert_false (ws_ranks_loader_is_job (paths, FALSE));
  g_assert_false (ws_ranks_loader_is_job (paths, TRUE));
  g_assert_false (ws_ranks_loader_is_job (bert_only, TRUE));

  /* `ranks` refuses in one line, or takes the target asked for. */
  {
    const char *argv[] = { ws_test_cli (), "ranks", group, NULL };
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 2);
    g_test_message ("%s", err);
    g_assert_cmpuint (ws_test_count_lines (err), ==, 1);
    g_assert_nonnull (strstr (err, "holds 2 separate runs (bert_inf, vit_inf)"));
    g_assert_cmpstr (out, ==, "");
  }
  {
    const char *argv[] = { ws_test_cli (), "ranks", "--target", "vit_inf", group, NULL };
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
    g_assert_true (g_str_has_prefix (out, "python3 vit_infer.py — 1 rank\n"));
  }
  {
    const char *argv[] = { ws_test_cli (), "ranks", "--target", "gpt2", group, NULL };
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "--target gpt2: no such capture target"));
  }

  /* A per-rank target in the same folder: three launches; its two
   * exports are its ranks. */
  g_assert_cmpint (g_mkdir_with_parents (job_nsys, 0755), ==, 0);
  g_assert_true (g_file_set_contents (manifest, "{\"name\": \"ddp_nccl\"}\n", -1, NULL));
  for (guint r = 0; r < 2; r++)
    {
      g_autofree char *xz = g_strdup_printf ("multirank-nccl/rank%u.sqlite.xz", r);
      g_autofree char *db = ws_test_unxz (xz, job_nsys);

      g_assert_nonnull (db);
    }
  g_clear_pointer (&launches, g_ptr_array_unref);
  launches = ws_ranks_loader_launches (paths);
  g_assert_cmpuint (launches->len, ==, 3);
  g_assert_cmpstr (((WsLaunch *) g_ptr_array_index (launches, 1))->name, ==, "ddp_nccl");
  g_assert_cmpuint (((WsLaunch *) g_ptr_array_index (launches, 1))->exports->len, ==, 2);
  {
    const char *one[] = { job, NULL };

    g_assert_true (ws_ranks_loader_is_job (one, FALSE));
  }
  {
    const char *argv[] = { ws_test_cli (), "ranks", "--target", "ddp_nccl", group, NULL };
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
    g_test_message ("%s", out);
    g_assert_nonnull (strstr (out, " — 2 ranks\n"));
  }
  ws_test_rmtree (unpacked);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = ws_test_tmpdir ();

  g_test_add_func ("/ranks/number/file-names", test_number_file_names);
  g_test_add_func ("/ranks/number/environment", test_number_environment);
  g_test_add_func ("/ranks/number/command-line-and-mpi-thread", test_number_command_and_thread);
  g_test_add_func ("/ranks/ddp/numbered-by-name-aligned-on-session-start",
                   test_ddp_numbered_and_aligned);
  g_test_add_func ("/ranks/ddp/renamed-numbered-by-environment", test_ddp_numbered_by_environment);
  g_test_add_func ("/ranks/ddp/merged-kernel-summary-equals-summed-nsys-stats",
                   test_ddp_merged_summary);
  g_test_add_func ("/ranks/ddp/figures-against-sql", test_ddp_figures_against_sql);
  g_test_add_func ("/ranks/ddp/one-rank-alone-equals-merged", test_ddp_one_rank_equals_merged);
  g_test_add_func ("/ranks/ddp/straggler-rank-3-in-extra-work", test_ddp_straggler);
  g_test_add_func ("/ranks/ddp/launch-configurations-once-with-their-ranks", test_ddp_config_uses);
  g_test_add_func ("/ranks/cli/stats-rank-filter-equals-its-nsys-stats",
                   test_cli_stats_rank_filter);
  g_test_add_func ("/ranks/cli/ranks-csv", test_cli_ranks_csv);
  g_test_add_func ("/ranks/cli/render-and-info", test_cli_render_and_info);
  g_test_add_func ("/ranks/cli/rank-filter-in-rollup-and-flame", test_cli_rank_filter_rollup_flame);
  g_test_add_func ("/ranks/cli/compare-peers-and-rank-by-rank", test_cli_compare_ranks);
  g_test_add_func ("/ranks/mixed-jobs-said", test_mixed_jobs);
  g_test_add_func ("/ranks/processes/nccl-communication-and-overlap", test_processes_nccl);
  g_test_add_func ("/ranks/merge/shared-pids-renumbered", test_merge_pid_collision);
  g_test_add_func ("/ranks/bad-input/damaged-rank-named", test_bad_rank_file);
  g_test_add_func ("/ranks/launches/capture-targets-are-separate-runs",
                   test_capture_targets_are_separate_runs);

  status = g_test_run ();
  for (guint r = 0; r < 4; r++)
    ws_test_rank_sql_clear (&ddp_sql[r]);
  ws_test_rmtree (tmp);
  g_free (tmp);
  return status;
}
