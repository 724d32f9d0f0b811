/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-gpu-busy.h"
#include "ws-run-build.h"
#include "ws-stats.h"
#include "ws-steps.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

/* One integer that SQLite computes. */
static gint64
sql_int (const char *db, const char *sql)
{
  g_autofree char *text = ws_test_sqlite_text (db, sql);

  g_assert_nonnull (text);
  return g_ascii_strtoll (text, NULL, 10);
}

/* The union of a process's GPU activity (kernels, memcpy, memset) within
 * [s, e), computed by SQLite alone: each operation clipped to the window,
 * ordered by start; a running maximum of the ends tells what is new. */
static gint64
sql_busy (const char *db, guint32 pid, gint64 s, gint64 e, gboolean memops)
{
  g_autofree char *sql = g_strdup_printf (
    "WITH ops AS ("
    "  SELECT max(start, %" G_GINT64_FORMAT ") AS a, min(end, %" G_GINT64_FORMAT ") AS b"
    "  FROM (SELECT start, end, globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL %s)"
    "  WHERE end > %" G_GINT64_FORMAT " AND start < %" G_GINT64_FORMAT
    "    AND ((globalPid >> 24) & 16777215) = %u),"
    " ordered AS ("
    "  SELECT a, b, max(b) OVER (ORDER BY a, b ROWS BETWEEN UNBOUNDED PRECEDING"
    "    AND 1 PRECEDING) AS prev FROM ops)"
    " SELECT coalesce(sum(CASE WHEN prev IS NULL OR a >= prev THEN b - a"
    "   WHEN b > prev THEN b - prev ELSE 0 END), 0) FROM ordered",
    s, e,
    memops ? "UNION ALL SELECT start, end, globalPid FROM CUPTI_ACTIVITY_KIND_MEMCPY "
             "UNION ALL SELECT start, end, globalPid FROM CUPTI_ACTIVITY_KIND_MEMSET"
           : "",
    s, e, pid);

  return sql_int (db, sql);
}

/* Kernels whose launch call (the RUNTIME row of the same process and
 * correlation id) started within [s, e]. */
static gint64
sql_launches (const char *db, guint32 pid, gint64 s, gint64 e)
{
  g_autofree char *sql = g_strdup_printf (
    "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r"
    " ON r.correlationId = k.correlationId AND (r.globalTid & -16777216) = k.globalPid"
    " WHERE ((k.globalPid >> 24) & 16777215) = %u AND r.start >= %" G_GINT64_FORMAT
    " AND r.start <= %" G_GINT64_FORMAT,
    pid, s, e);

  return sql_int (db, sql);
}

/* Each step of the GPT-2 capture against SQL: its range straight from
 * NVTX_EVENTS, its busy time as the union above, its launches. */
static void
test_gpt2_steps (void)
{
  g_autofree char *tmp = NULL;
  g_autofree char *dir = ws_test_unpack_gpt2 (&tmp);
  g_autofree char *db = g_build_filename (dir, "nsys", "GPT2__.sqlite", NULL);
  const char *paths[] = { db, NULL };
  g_autoptr (WsRun) run = ws_test_load_paths (paths);
  g_autoptr (WsSteps) steps = ws_steps_compute (run, NULL);

  g_assert_cmpstr (steps->pattern, ==, "训练步 N");
  g_assert_cmpuint (steps->steps->len, ==, 6);
  for (guint i = 0; i < steps->steps->len; i++)
    {
      const WsStep *s = &g_array_index (steps->steps, WsStep, i);
      g_autofree char *where =
        g_strdup_printf ("FROM NVTX_EVENTS n LEFT JOIN StringIds t ON t.id = n.textId"
                         " WHERE n.eventType = 59 AND coalesce(n.text, t.value) = '训练步 %u'",
                         i);
      g_autofree char *q_start = g_strdup_printf ("SELECT n.start %s", where);
      g_autofree char *q_end = g_strdup_printf ("SELECT n.end %s", where);
      g_autofree char *q_pid = g_strdup_printf ("SELECT (n.globalTid >> 24) & 16777215 %s", where);
      gint64 start = sql_int (db, q_start);
      gint64 end = sql_int (db, q_end);
      guint32 pid = (guint32) sql_int (db, q_pid);

      g_assert_cmpuint (s->number, ==, i);
      g_assert_cmpint (s->start, ==, start);
      g_assert_cmpint (s->wall, ==, end - start);
      g_assert_cmpuint (s->pid, ==, pid);
      g_assert_cmpint (s->gpu_busy, ==, sql_busy (db, pid, start, end, TRUE));
      g_assert_cmpint (s->kernel, ==, sql_busy (db, pid, start, end, FALSE));
      g_assert_cmpint (s->memory, ==, s->gpu_busy - s->kernel);
      g_assert_cmpint (s->idle, ==, s->wall - s->gpu_busy);
      g_assert_cmpint ((gint64) s->launches, ==, sql_launches (db, pid, start, end));
      /* Step 0 holds 2.6 s of cuDNN and cuBLAS set-up (the fixtures'
       * README); the others take about 24 ms. */
      g_assert_cmpint (s->warmup, ==, i == 0);
    }
  g_assert_cmpuint (steps->n_warmup, ==, 1);
  g_assert_cmpuint (steps->n_steady, ==, 5);
  /* Steps 1-5 take 24.19, 23.53, 24.45, 23.53 and 30.47 ms: the median is
   * step 1's (sorted: 23.527, 23.531, 24.193, 24.454, 30.475). */
  g_assert_cmpfloat (steps->median.wall, ==, 24193344);
  g_assert_cmpfloat (steps->median.launches, ==, 433);
  ws_test_rmtree (tmp);
}

/* The DDP straggler's export: 12 steps, step 0 is warm-up (639 ms against
 * a median of 92 ms); "extra work" ranges nest inside, the op ranges of
 * another run ("aten::mm, seq = 3, op_id = 7") never count as steps. */
static void
test_ddp_rank (void)
{
  g_autofree char *tmp = ws_test_tmpdir ();
  g_autofree char *db = ws_test_unxz ("multirank/rank3.sqlite.xz", tmp);
  const char *paths[] = { db, NULL };
  g_autoptr (WsRun) run = ws_test_load_paths (paths);
  g_autoptr (WsSteps) steps = ws_steps_compute (run, NULL);
  g_autoptr (WsSteps) extra = NULL;
  WsStepsOptions options = { "extra work", WS_PID_ANY };
  guint32 pid = (guint32) sql_int (
    db, "SELECT (globalTid >> 24) & 16777215 FROM NVTX_EVENTS WHERE eventType = 59 LIMIT 1");
  WsStepsOptions other = { NULL, pid + 1 };
  g_autoptr (WsSteps) none = ws_steps_compute (run, &other);

  g_assert_cmpstr (steps->pattern, ==, "step N");
  g_assert_cmpuint (steps->steps->len, ==, 12);
  g_assert_cmpuint (steps->n_warmup, ==, 1);
  g_assert_true (g_array_index (steps->steps, WsStep, 0).warmup);
  for (guint i = 0; i < steps->steps->len; i++)
    {
      const WsStep *s = &g_array_index (steps->steps, WsStep, i);

      g_assert_cmpint (s->gpu_busy, ==, sql_busy (db, pid, s->start, s->end, TRUE));
    }
  /* A process filter that matches nothing finds nothing. */
  g_assert_cmpuint (none->steps->len, ==, 0);

  /* A range picked by name: every instance, numbered in order. */
  extra = ws_steps_compute (run, &options);
  g_assert_cmpuint (extra->steps->len, ==, 12);
  g_assert_cmpuint (g_array_index (extra->steps, WsStep, 11).number, ==, 11);
  ws_test_rmtree (tmp);
}

static void
test_counter_prefix (void)
{
  static const struct
  {
    const char *name;
    const char *prefix; /* NULL: not a step name */
    guint counter;
  } cases[] = {
    { "step 3", "step", 3 },
    { "iteration_12", "iteration", 12 },
    { "训练步 7", "训练步", 7 },
    { "batch#4", "batch", 4 },
    { "epoch 2 step 5", "epoch 2 step", 5 },
    { "forward", NULL, 0 },
    { "42", NULL, 0 },
    { "aten::addmm, seq = 6, op_id = 52", NULL, 0 },
    { "detach_, op_id = 990725", NULL, 0 },
    { "record_param_comms, op_id = 999761", NULL, 0 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      guint counter = 0;
      g_autofree char *prefix = ws_steps_counter_prefix (cases[i].name, &counter);

      g_assert_cmpstr (prefix, ==, cases[i].prefix);
      if (prefix != NULL)
        g_assert_cmpuint (counter, ==, cases[i].counter);
    }
}

/* The warm-up rule on the training loop fixture: step 0 takes 236.9 ms,
 * the others 1.19-2.17 ms; and on its "forward" ranges picked by name,
 * whose first instance (126 ms of autotuning) is warm-up. */
static void
test_warmup_rule (void)
{
  g_autoptr (WsRun) run = ws_test_load_nsys ("v2025.3_h100_torch_train.sqlite");
  g_autoptr (WsSteps) steps = ws_steps_compute (run, NULL);
  WsStepsOptions options = { "forward", WS_PID_ANY };
  g_autoptr (WsSteps) forward = ws_steps_compute (run, &options);
  g_autoptr (GArray) steady = ws_steps_spans (steps, FALSE);
  g_autoptr (GArray) warm = ws_steps_spans (steps, TRUE);

  g_assert_cmpuint (steps->steps->len, ==, 6);
  g_assert_cmpuint (steps->n_warmup, ==, 1);
  g_assert_cmpint (ws_steps_warmup_time (steps), ==, 236872161);
  /* The steady steps follow each other: merged into one span from the
   * start of step 1 to the end of step 5. */
  g_assert_cmpuint (warm->len, ==, 1);
  g_assert_cmpint (g_array_index (steady, WsSpan, 0).start, ==, 6644162933);
  g_assert_cmpint (g_array_index (steady, WsSpan, steady->len - 1).end, ==, 6650263091 + 1186368);
  g_assert_true (ws_steps_has_steady_state (steps));

  g_assert_cmpuint (forward->steps->len, ==, 6);
  g_assert_true (g_array_index (forward->steps, WsStep, 0).warmup);
}

/* The rule alone (docs/NOTES.md, "The warm-up rule"). */
static void
test_warmup_rule_pure (void)
{
  /* 10, 10, 22 ms: the median of the others (the first left out) is 10 ms,
   * so 22 ms is slow; with itself in the median (16 ms) it was not. */
  const WsStepWall three[] = { { 0, 0, 10000000 }, { 0, 1, 10000000 }, { 0, 2, 22000000 } };
  /* A slow step mid-run. */
  const WsStepWall six[] = { { 0, 0, 100 }, { 0, 1, 10 }, { 0, 2, 10 },
                             { 0, 3, 30 },  { 0, 4, 10 }, { 0, 5, 10 } };
  /* Two ranks, their steps interleaved: rank 1's step 2 is slow, so step 2
   * is warm-up on rank 0 too. */
  const WsStepWall job[] = { { 0, 0, 50 }, { 1, 0, 50 }, { 0, 1, 10 }, { 1, 1, 10 },
                             { 0, 2, 11 }, { 1, 2, 25 }, { 0, 3, 10 }, { 1, 3, 10 } };
  const WsStepWall one[] = { { 0, 0, 10 } };
  WsWarmup out[8];

  ws_steps_warmup_rule (three, 3, TRUE, out);
  g_assert_cmpint (out[0], ==, WS_WARMUP_FIRST);
  g_assert_cmpint (out[1], ==, WS_WARMUP_NONE);
  g_assert_cmpint (out[2], ==, WS_WARMUP_SLOW);
  /* A PyTorch profiler trace: its first step is an active one. */
  ws_steps_warmup_rule (three, 3, FALSE, out);
  g_assert_cmpint (out[0], ==, WS_WARMUP_NONE);
  g_assert_cmpint (out[2], ==, WS_WARMUP_SLOW);

  ws_steps_warmup_rule (six, 6, TRUE, out);
  for (guint i = 0; i < 6; i++)
    g_assert_cmpint (out[i], ==,
                     i == 0   ? WS_WARMUP_FIRST
                     : i == 3 ? WS_WARMUP_SLOW
                              : WS_WARMUP_NONE);

  ws_steps_warmup_rule (job, 8, TRUE, out);
  g_assert_cmpint (out[0], ==, WS_WARMUP_FIRST);
  g_assert_cmpint (out[1], ==, WS_WARMUP_FIRST);
  g_assert_cmpint (out[2], ==, WS_WARMUP_NONE);
  g_assert_cmpint (out[4], ==, WS_WARMUP_RANK);
  g_assert_cmpint (out[5], ==, WS_WARMUP_SLOW);
  g_assert_cmpint (out[6], ==, WS_WARMUP_NONE);

  ws_steps_warmup_rule (one, 1, TRUE, out);
  g_assert_cmpint (out[0], ==, WS_WARMUP_NONE);
}

/* The steady state of the mid-run slow step: two spans, said as two. */
static void
test_warmup_spans (void)
{
  g_autoptr (WsSteps) steps = g_new0 (WsSteps, 1);
  static const gint64 walls[] = { 100, 10, 10, 30, 10, 10 };
  WsStepWall in[6];
  WsWarmup why[6];
  g_autoptr (GArray) spans = NULL;
  g_autofree char *text = NULL;
  gint64 t = 1000;

  g_atomic_ref_count_init (&steps->ref_count);
  steps->pattern = g_strdup ("step N");
  steps->steps = g_array_new (FALSE, TRUE, sizeof (WsStep));
  steps->ranks = g_array_new (FALSE, TRUE, sizeof (WsStepsRank));
  for (guint i = 0; i < 6; i++)
    in[i] = (WsStepWall){ 0, i, walls[i] };
  ws_steps_warmup_rule (in, 6, TRUE, why);
  for (guint i = 0; i < 6; i++)
    {
      WsStep s = { 0 };

      s.number = i;
      s.start = t;
      s.end = t + walls[i];
      s.wall = walls[i];
      s.rank = -1;
      s.why = why[i];
      s.warmup = why[i] != WS_WARMUP_NONE;
      t = s.end + 1;
      g_array_append_val (steps->steps, s);
      steps->n_warmup += s.warmup;
      steps->n_steady += !s.warmup;
    }
  spans = ws_steps_spans (steps, FALSE);
  g_assert_cmpuint (spans->len, ==, 2);
  g_assert_cmpint (g_array_index (spans, WsSpan, 0).start, ==,
                   g_array_index (steps->steps, WsStep, 1).start);
  g_assert_cmpint (g_array_index (spans, WsSpan, 0).end, ==,
                   g_array_index (steps->steps, WsStep, 2).end);
  g_assert_cmpint (g_array_index (spans, WsSpan, 1).start, ==,
                   g_array_index (steps->steps, WsStep, 4).start);
  g_assert_cmpint (g_array_index (spans, WsSpan, 1).end, ==,
                   g_array_index (steps->steps, WsStep, 5).end);
  text = ws_steps_describe_steady (steps);
  g_assert_true (g_str_has_prefix (text, "steps 1–2, 4–5 of “step N” (4 of 6; "));
}

/* The busy index against sums written by hand on a run of four kernels:
 * [0, 10), [5, 20), [30, 40) and a copy [35, 50). */
static void
test_busy_index (void)
{
  g_autoptr (WsRun) run = ws_run_new ();
  static gint64 ks[] = { 0, 5, 30 }, ke[] = { 10, 20, 40 };
  static gint64 ms[] = { 35 }, me[] = { 50 };
  g_autoptr (WsBusyIndex) all = NULL;
  g_autoptr (WsBusyIndex) kernels = NULL;

  run->kernels.n = 3;
  run->kernels.start = g_memdup2 (ks, sizeof ks);
  run->kernels.end = g_memdup2 (ke, sizeof ke);
  run->memops.n = 1;
  run->memops.start = g_memdup2 (ms, sizeof ms);
  run->memops.end = g_memdup2 (me, sizeof me);
  all = ws_busy_index_new (run, WS_PID_ANY, WS_BUSY_ALL);
  kernels = ws_busy_index_new (run, WS_PID_ANY, WS_BUSY_KERNELS);

  g_assert_cmpuint (ws_busy_index_n_spans (all), ==, 2);
  g_assert_cmpint (ws_busy_index_total (all), ==, 20 + 20);
  g_assert_cmpint (ws_busy_index_total (kernels), ==, 20 + 10);
  g_assert_cmpint (ws_busy_index_busy (all, 0, 100), ==, 40);
  g_assert_cmpint (ws_busy_index_busy (all, 15, 36), ==, 5 + 6);
  g_assert_cmpint (ws_busy_index_busy (kernels, 15, 45), ==, 5 + 10);
  g_assert_cmpint (ws_busy_index_busy (all, 22, 28), ==, 0);
  g_assert_cmpint (ws_busy_index_busy (all, 6, 8), ==, 2);
  g_assert_cmpint (ws_busy_index_busy (all, 8, 6), ==, 0);
}

/* The GPU work each step launched (kernels and copies whose launch call
 * started in it, wherever they ran), in SQL, for the fp32 training loop:
 * its GPU runs far behind its host, so the steps' own windows see older
 * work.  The steady state's median and its slice follow the launches. */
static void
test_launched_work (void)
{
  g_autofree char *db = ws_test_data ("nsys", "v2025.3_h100_train_fp32.sqlite", NULL);
  const char *paths[] = { db, NULL };
  g_autoptr (WsRun) run = ws_test_load_paths (paths);
  g_autoptr (WsSteps) steps = ws_steps_compute (run, NULL);
  g_autoptr (WsRun) steady = NULL;
  g_autoptr (GArray) spans = NULL;
  g_autofree char *q_kernels = NULL;
  double launched[6];

  g_assert_cmpuint (steps->steps->len, ==, 6);
  for (guint i = 0; i < steps->steps->len; i++)
    {
      const WsStep *st = &g_array_index (steps->steps, WsStep, i);
      g_autofree char *sql = g_strdup_printf (
        "SELECT coalesce(sum(o.end - o.start), 0) FROM (SELECT start, end, correlationId, globalPid"
        " FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT start, end, correlationId, globalPid"
        " FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT start, end, correlationId, globalPid"
        " FROM CUPTI_ACTIVITY_KIND_MEMSET) o JOIN CUPTI_ACTIVITY_KIND_RUNTIME r"
        " ON r.correlationId = o.correlationId AND (r.globalTid & -16777216) = o.globalPid"
        " WHERE r.start >= %" G_GINT64_FORMAT " AND r.start <= %" G_GINT64_FORMAT,
        st->start, st->end);

      g_assert_cmpint (st->gpu_launched, ==, sql_int (db, sql));
      launched[i] = (double) st->gpu_launched;
    }
  /* Step 1 took 2.44 ms against a median of 1.12 ms for steps 2-5: warm-up
   * too, by the 2× rule. */
  g_assert_true (g_array_index (steps->steps, WsStep, 1).warmup);
  g_assert_true (g_array_index (steps->steps, WsStep, 1).slow);
  g_assert_cmpuint (steps->n_steady, ==, 4);
  /* The median of steps 2-5, an even count: the mean of the middle two. */
  {
    double v[4] = { launched[2], launched[3], launched[4], launched[5] };
    double lo, hi;

    for (guint a = 0; a < 4; a++)
      for (guint b = a + 1; b < 4; b++)
        if (v[b] < v[a])
          {
            double t = v[a];

            v[a] = v[b];
            v[b] = t;
          }
    lo = v[1];
    hi = v[2];
    g_assert_cmpfloat (steps->median.gpu_launched, ==, (lo + hi) / 2);
  }

  /* The steady slice holds the kernels launched in steps 2-5. */
  steady = ws_steps_steady_run (run, steps);
  spans = ws_steps_spans (steps, FALSE);
  q_kernels = g_strdup_printf (
    "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r"
    " ON r.correlationId = k.correlationId AND (r.globalTid & -16777216) = k.globalPid"
    " WHERE r.start >= %" G_GINT64_FORMAT " AND r.start < %" G_GINT64_FORMAT,
    g_array_index (spans, WsSpan, 0).start, g_array_index (spans, WsSpan, 0).end);
  g_assert_cmpuint (spans->len, ==, 1);
  g_assert_cmpint ((gint64) steady->kernels.n, ==, sql_int (db, q_kernels));
  g_assert_cmpuint (steady->kernels.n, ==, 4 * 34);
  g_assert_nonnull (ws_run_get_summary (steady, WS_SUMMARY_KERN_SUM));
}

/* `stats --steady`: the kernel summary of steps 1-5 of the GPT-2
 * capture.  Its largest GEMM ran once a step: five launches, their total
 * from SQL over the launches whose call started in the steady span. */
static void
test_stats_steady (void)
{
  g_autofree char *tmp = NULL;
  g_autofree char *dir = ws_test_unpack_gpt2 (&tmp);
  g_autofree char *db = g_build_filename (dir, "nsys", "GPT2__.sqlite", NULL);
  const char *argv[] = { ws_test_cli (), "stats", "--steady", "--format", "csv", db, NULL };
  const char *paths[] = { db, NULL };
  g_autoptr (WsRun) run = ws_test_load_paths (paths);
  g_autoptr (WsSteps) steps = ws_steps_compute (run, NULL);
  g_autoptr (GArray) spans = ws_steps_spans (steps, FALSE);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *sql = g_strdup_printf (
    "SELECT sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s"
    " ON s.id = k.demangledName JOIN CUPTI_ACTIVITY_KIND_RUNTIME r"
    " ON r.correlationId = k.correlationId AND (r.globalTid & -16777216) = k.globalPid"
    " WHERE s.value LIKE '%%s1688gemm_bf16_128x128_tn_align1%%' AND r.start >= %" G_GINT64_FORMAT
    " AND r.start < %" G_GINT64_FORMAT,
    g_array_index (spans, WsSpan, 0).start, g_array_index (spans, WsSpan, 0).end);
  g_autofree char *expected = g_strdup_printf (",%" G_GINT64_FORMAT ",5,", sql_int (db, sql));
  g_auto (GStrv) lines = NULL;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  g_assert_true (g_str_has_prefix (err, "Steady state: steps 1–5 of “训练步 N”"));
  lines = g_strsplit (out, "\n", -1);
  g_assert_nonnull (strstr (lines[1], "s1688gemm_bf16_128x128_tn_align1"));
  g_assert_nonnull (strstr (lines[1], expected));

  /* The steady slice keeps the OS runtime calls that start in it. */
  {
    g_autoptr (WsRun) steady = ws_steps_steady_run (run, steps);
    g_autofree char *q_osrt = g_strdup_printf (
      "SELECT count(*) FROM OSRT_API WHERE eventClass = 27 AND start >= %" G_GINT64_FORMAT
      " AND start < %" G_GINT64_FORMAT,
      g_array_index (spans, WsSpan, 0).start, g_array_index (spans, WsSpan, 0).end);
    gint64 n_osrt = sql_int (db, q_osrt);

    g_assert_cmpint (n_osrt, >, 0);
    g_assert_cmpint ((gint64) steady->osrt.n, ==, n_osrt);
    g_assert_true (steady->has_osrt_table);
  }
  ws_test_rmtree (tmp);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/steps/counter-prefix", test_counter_prefix);
  g_test_add_func ("/steps/busy-index/hand-sums", test_busy_index);
  g_test_add_func ("/steps/gpt2/equal-sql", test_gpt2_steps);
  g_test_add_func ("/steps/ddp-rank/straggler", test_ddp_rank);
  g_test_add_func ("/steps/warmup-rule", test_warmup_rule);
  g_test_add_func ("/steps/warmup-rule/pure", test_warmup_rule_pure);
  g_test_add_func ("/steps/warmup-rule/spans", test_warmup_spans);
  g_test_add_func ("/steps/fp32/launched-work-and-steady-slice", test_launched_work);
  g_test_add_func ("/steps/gpt2/stats-steady", test_stats_steady);
  return g_test_run ();
}
