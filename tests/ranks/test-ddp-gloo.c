/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ws-test-capture.h"
#include "ws-test-rank-sql.h"
#include "ws-test-util.h"

/* Issue 23 on the one GPU the device machine lends: a DistributedDataParallel
 * training of four ranks sharing an H100 over gloo, rank 3 a planted
 * straggler, captured through `warpscope-cli capture --per-rank`
 * (tests/device/capture-ddp-gloo.sh; the capture's log beside the archive).
 * Truths: `nsys stats` 2025.3 of each rank on that machine (truth/), SQL
 * over the exports. */

static char *tmpdir;
static char *folder;

static char *
rank_file (guint rank, const char *dir, const char *suffix)
{
  g_autofree char *name = g_strdup_printf ("rank%u%s", rank, suffix);

  return g_build_filename (folder, dir, name, NULL);
}

/* Each rank's summaries are its `nsys stats` reports, byte for byte. */
static void
test_rank_summaries (void)
{
  static const char *const reports[] = { "cuda_gpu_kern_sum", "nvtx_sum", "nvtx_gpu_proj_sum" };

  for (guint r = 0; r < 4; r++)
    for (guint i = 0; i < G_N_ELEMENTS (reports); i++)
      {
        g_autofree char *db = rank_file (r, "nsys", ".sqlite");
        g_autofree char *suffix = g_strdup_printf ("_%s.csv", reports[i]);
        g_autofree char *truth_path = rank_file (r, "truth", suffix);
        g_autofree char *truth = ws_test_read (truth_path);
        const char *argv[] = { ws_test_cli (), "stats", "--report", reports[i],
                               "--format",     "csv",   db,         NULL };
        g_autofree char *out = NULL, *err = NULL;

        g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
        g_test_message ("rank %u %s: %zu bytes", r, reports[i], strlen (truth));
        g_assert_cmpuint (strlen (truth), >, 100);
        g_assert_cmpstr (out, ==, truth);
      }
}

/* The ranks view names the planted straggler: rank 3, in its "extra work"
 * range; gloo runs no NCCL kernel (none by SQL), so communication is 0 on
 * every rank and the waiting is measured in OS runtime calls.  Every
 * figure is SQL's over the rank's export (ws-test-rank-sql.c).  Steps 0
 * and 1 are the warm-up on every rank (step 1 took over twice the median),
 * so rank 3's lateness, the median over the ten steady steps of its work
 * less the others' median work, is 2,282,722.5 ns, said in whole ns. */
static void
test_straggler_named (void)
{
  const char *argv[] = { ws_test_cli (), "ranks", "--format", "csv", folder, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_auto (GStrv) lines = NULL;
  WsTestRankSql t[4];
  gint64 late, lost;

  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *db = rank_file (r, "nsys", ".sqlite");

      ws_test_rank_sql (db, &t[r]);
    }
  ws_test_straggler_sql (t, 4, 3, &late, &lost);
  g_assert_cmpint (late, ==, 2282723);
  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "\nstraggler: rank 3, +2282723 ns per step, in extra work\n"));
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 7);
  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *db = rank_file (r, "nsys", ".sqlite");
      g_autofree char *nccl = ws_test_sqlite_text (
        db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
            "s.id = k.demangledName WHERE s.value LIKE '%nccl%'");
      g_auto (GStrv) cells = g_strsplit (lines[r + 1], ",", -1);

      g_assert_cmpstr (nccl, ==, "0");
      g_assert_cmpuint (g_strv_length (cells), ==, 14);
      g_assert_cmpint (atoi (cells[0]), ==, (int) r);
      g_assert_cmpint (g_ascii_strtoll (cells[3], NULL, 10), ==, t[r].gpu_time);
      g_assert_cmpint (g_ascii_strtoll (cells[4], NULL, 10), ==, t[r].kernel_time);
      g_assert_cmpstr (cells[5], ==, "0"); /* comm_ns */
      g_assert_cmpint (g_ascii_strtoll (cells[6], NULL, 10), ==, t[r].wait_time);
      g_assert_cmpint (g_ascii_strtoll (cells[7], NULL, 10), ==, t[r].idle_time);
      g_assert_cmpstr (cells[8], ==, "12"); /* steps */
      g_assert_cmpuint (t[r].n_steps, ==, 12);
      /* Whole ns: the median of ten steps ends in .5 on ranks 0 and 1. */
      g_assert_cmpfloat (fabs (g_ascii_strtod (cells[9], NULL) - t[r].step_median), <=, 0.5);
      g_assert_cmpstr (cells[10], ==, "host"); /* method: no NCCL kernel */
    }
  for (guint r = 0; r < 4; r++)
    ws_test_rank_sql_clear (&t[r]);
}

/* The kernel the straggler alone runs was profiled on rank 3 (rank 0 never
 * launches it), and every profiled launch joins its nsys kernel. */
static void
test_ncu_on_the_rank_that_runs_it (void)
{
  const char *argv[] = { ws_test_cli (), "gauges", "--format", "csv", folder, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *rank0 = rank_file (0, "nsys", ".sqlite");
  g_autofree char *rank3 = rank_file (3, "nsys", ".sqlite");
  const char *sql = "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
                    "s.id = k.demangledName WHERE s.value LIKE '%cutlass_80_simt_sgemm_256x128%'";
  g_autofree char *on0 = ws_test_sqlite_text (rank0, sql);
  g_autofree char *on3 = ws_test_sqlite_text (rank3, sql);
  g_auto (GStrv) lines = NULL;

  g_assert_cmpstr (on0, ==, "0");
  g_assert_cmpint (atoi (on3), >, 0);
  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  lines = g_strsplit (g_strchomp (out), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_true (g_str_has_suffix (
    lines[1], ",void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>(T1::Params)"));
  for (guint i = 1; i < 4; i++)
    g_assert_false (g_str_has_suffix (lines[i], ","));
}

/* A digest of the job gives the ranks table the exports give. */
static void
test_digest_equals_run (void)
{
  g_autofree char *digest = g_build_filename (tmpdir, "job.wsdigest", NULL);
  const char *make[] = { ws_test_cli (), "digest", "-o", digest, folder, NULL };
  const char *of_run[] = { ws_test_cli (), "ranks", "--format", "csv", folder, NULL };
  const char *of_digest[] = { ws_test_cli (), "ranks", "--format", "csv", digest, NULL };
  g_autofree char *out = NULL, *err = NULL, *run = NULL, *run_err = NULL, *dig = NULL,
                  *dig_err = NULL;
  g_auto (GStrv) a = NULL, b = NULL;

  g_assert_cmpint (ws_test_run (make, &out, &err), ==, 0);
  g_assert_cmpint (ws_test_run (of_run, &run, &run_err), ==, 0);
  g_assert_cmpint (ws_test_run (of_digest, &dig, &dig_err), ==, 0);
  a = g_strsplit (run, "\n", -1);
  b = g_strsplit (dig, "\n", -1);
  g_assert_cmpuint (g_strv_length (a), ==, g_strv_length (b));
  /* Row for row; the file column names the same export, relative in a
   * digest. */
  for (guint i = 0; a[i] != NULL; i++)
    {
      g_auto (GStrv) x = NULL;
      g_auto (GStrv) y = NULL;

      if (a[i][0] == '\0')
        {
          g_assert_cmpstr (b[i], ==, "");
          continue;
        }
      x = g_strsplit (a[i], ",", 3);
      y = g_strsplit (b[i], ",", 3);
      g_assert_cmpstr (x[0], ==, y[0]);
      if (x[1] != NULL && i > 0 && g_str_has_suffix (x[1], ".sqlite"))
        {
          g_autofree char *xb = g_path_get_basename (x[1]);
          g_autofree char *yb = g_path_get_basename (y[1]);

          g_assert_cmpstr (xb, ==, yb);
          g_assert_cmpstr (x[2], ==, y[2]);
        }
      else
        g_assert_cmpstr (a[i], ==, b[i]);
    }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  folder = ws_test_unpack_capture ("h100_ddp_gloo_capture.tar.xz", "ddp_gloo", &tmpdir);

  g_test_add_func ("/ddp-gloo/rank-summaries-equal-nsys-stats", test_rank_summaries);
  g_test_add_func ("/ddp-gloo/straggler-named-no-nccl", test_straggler_named);
  g_test_add_func ("/ddp-gloo/ncu-on-the-rank-that-runs-it", test_ncu_on_the_rank_that_runs_it);
  g_test_add_func ("/ddp-gloo/digest-equals-run", test_digest_equals_run);

  status = g_test_run ();
  ws_test_rmtree (tmpdir);
  g_free (tmpdir);
  g_free (folder);
  return status;
}
