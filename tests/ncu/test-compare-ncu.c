/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-comparison.h"
#include "ws-findings-diff.h"
#include "ws-findings.h"
#include "ws-input.h"
#include "ws-run-loader.h"
#include "ws-stats.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

#define FP32 "v2025.3_h100_train_fp32.sqlite"
#define BF16 "v2025.3_h100_train_bf16.sqlite"
#define FP32_NCU "h100_train_fp32_sections_raw.csv"
#define BF16_NCU "h100_train_bf16_sections_raw.csv"
#define LAYER_NORM "at::native::<unnamed>::vectorized_layer_norm_kernel"

/* One side: the nsys export, with its ncu CSV when @ncu is not NULL. */
static WsRun *
load (const char *nsys, const char *ncu)
{
  WsRun *run = ws_test_load_nsys_ncu (nsys, ncu);

  return run;
}

static WsComparison *
training_pair (WsMatchBy by)
{
  g_autoptr (WsRun) before = load (FP32, FP32_NCU);
  g_autoptr (WsRun) after = load (BF16, BF16_NCU);

  g_assert_nonnull (before->ncu);
  g_assert_nonnull (after->ncu);
  return ws_comparison_new (before, after, by);
}

static const WsDelta *
find (const WsComparison *cmp, const char *key)
{
  const WsDelta *d = ws_comparison_find (cmp, key);

  g_assert_nonnull (d);
  return d;
}

/* The launch indices are the CSV rows in file order; their "ID" column
 * reads 0 to 13 in both files, so an index is the ID.  Durations
 * (gpu__time_duration.sum) of the candidates, as the CSVs hold them:
 * fp32 ms: 2 Gelu "0.085984", 7 Fill "0.002400", 9 Mul "0.128768";
 * 6 MeanOps "0.051872", 13 sum "0.062944"; 12 cutlass::Kernel2 "6.433664".
 * bf16 us: 2 Gelu "54.880000", 8 Fill "2.368000", 10 Mul "129.792000",
 * 12 bfloat16_copy "62.784000"; 7 MeanOps "51.904000"; nvjet …bias_TNT
 * 1 "405.536000" and 4 "403.584000". */
static void
test_longest_launch_each_side (void)
{
  g_autoptr (WsComparison) cmp = training_pair (WS_MATCH_NORMALIZED);
  const WsDelta *d;

  /* The layer norm was profiled once on each side, as ID 3. */
  d = find (cmp, LAYER_NORM);
  g_assert_cmpint (d->before_launch, ==, 3);
  g_assert_cmpint (d->after_launch, ==, 3);

  /* Four instantiations fold into one normalised key; the longest stands
   * for it: Mul (128,768 ns) before, Mul (129,792 ns) after. */
  d = find (cmp, "at::native::vectorized_elementwise_kernel");
  g_assert_cmpint (d->before_launch, ==, 9);
  g_assert_cmpint (d->after_launch, ==, 10);

  /* Two reduce kernels before (51,872 and 62,944 ns), one after. */
  d = find (cmp, "at::native::reduce_kernel");
  g_assert_cmpint (d->before_launch, ==, 13);
  g_assert_cmpint (d->after_launch, ==, 7);

  /* Gone and new kernels have a launch on their own side only. */
  d = find (cmp, "cutlass::Kernel2");
  g_assert_cmpint (d->presence, ==, WS_PRESENT_ONLY_BEFORE);
  g_assert_cmpint (d->before_launch, ==, 12);
  g_assert_cmpint (d->after_launch, ==, -1);
  d = find (cmp, "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT");
  g_assert_cmpint (d->before_launch, ==, -1);
  g_assert_cmpint (d->after_launch, ==, 1);
  g_assert_null (ws_comparison_gauges (cmp, d, FALSE));
  g_assert_nonnull (ws_comparison_gauges (cmp, d, TRUE));

  /* Profiled on both sides, by hand from the two kernel lists: the
   * distribution, vectorized_elementwise, layer norm, softmax forward,
   * reduce, elementwise and softmax backward kernels. */
  g_assert_cmpuint (cmp->n_profiled, ==, 7);
  for (guint i = 0; i < cmp->ranges->len; i++)
    g_assert_cmpint (g_array_index (cmp->ranges, WsDelta, i).before_launch, ==, -1);
}

/* By demangled name the float and bfloat16 instantiations differ: six
 * kernels are profiled under one name on both sides (Fill<float>,
 * softmax forward, Mul, the MeanOps reduce, the BUnary elementwise,
 * softmax backward). */
static void
test_demangled_profiled_both (void)
{
  g_autoptr (WsComparison) cmp = training_pair (WS_MATCH_DEMANGLED);
  g_autoptr (WsComparison) swapped = ws_comparison_new (cmp->after, cmp->before, cmp->by);

  g_assert_cmpuint (cmp->n_profiled, ==, 6);
  g_assert_cmpuint (swapped->n_profiled, ==, 6);
  for (guint i = 0; i < cmp->kernels->len; i++)
    {
      const WsDelta *d = &g_array_index (cmp->kernels, WsDelta, i);
      const WsDelta *s = ws_comparison_find (swapped, d->key);

      g_assert_cmpint (s->before_launch, ==, d->after_launch);
      g_assert_cmpint (s->after_launch, ==, d->before_launch);
    }
}

static void
assert_gauge (const WsGauges *gauges, WsGaugeKind kind, double expected)
{
  g_assert_true (gauges->gauge[kind].collected);
  g_assert_cmpfloat_with_epsilon (gauges->gauge[kind].value, expected, 1e-6);
}

/* Every gauge of the layer norm before and after equals its CSV cell:
 * fp32 row ID 3, bf16 row ID 3 (durations in ms and us there, ns here). */
static void
test_gauges_equal_csv_cells (void)
{
  g_autoptr (WsComparison) cmp = training_pair (WS_MATCH_NORMALIZED);
  const WsDelta *d = find (cmp, LAYER_NORM);
  const WsGauges *b = ws_comparison_gauges (cmp, d, FALSE);
  const WsGauges *a = ws_comparison_gauges (cmp, d, TRUE);

  /* gpu__time_duration.sum: "0.133824" ms → "66.624000" us */
  assert_gauge (b, WS_GAUGE_DURATION, 133824);
  assert_gauge (a, WS_GAUGE_DURATION, 66624);
  /* sm__throughput…elapsed: "31.500516" → "72.752171" */
  assert_gauge (b, WS_GAUGE_SM, 31.500516);
  assert_gauge (a, WS_GAUGE_SM, 72.752171);
  /* gpu__compute_memory_throughput…elapsed: "72.551387" → "54.297936" */
  assert_gauge (b, WS_GAUGE_MEMORY, 72.551387);
  assert_gauge (a, WS_GAUGE_MEMORY, 54.297936);
  /* gpu__dram_throughput…elapsed: "72.551387" → "54.297936" */
  assert_gauge (b, WS_GAUGE_DRAM, 72.551387);
  assert_gauge (a, WS_GAUGE_DRAM, 54.297936);
  /* sm__pipe_tensor_cycles_active…active: "0.503104" → "0.620610" */
  assert_gauge (b, WS_GAUGE_TENSOR, 0.503104);
  assert_gauge (a, WS_GAUGE_TENSOR, 0.620610);
  /* sm__pipe_fma_cycles_active…active: "16.408150" → "36.902873" */
  assert_gauge (b, WS_GAUGE_FP32, 16.408150);
  assert_gauge (a, WS_GAUGE_FP32, 36.902873);
  /* l1tex__t_sector_hit_rate.pct: "73.620794" → "75.579883" */
  assert_gauge (b, WS_GAUGE_L1_HIT, 73.620794);
  assert_gauge (a, WS_GAUGE_L1_HIT, 75.579883);
  /* lts__t_sector_hit_rate.pct: "44.002673" → "57.600454" */
  assert_gauge (b, WS_GAUGE_L2_HIT, 44.002673);
  assert_gauge (a, WS_GAUGE_L2_HIT, 57.600454);
  /* sm__warps_active…active: "67.105313" → "88.428950" */
  assert_gauge (b, WS_GAUGE_OCCUPANCY, 67.105313);
  assert_gauge (a, WS_GAUGE_OCCUPANCY, 88.428950);
  /* smsp__average_warps_issue_stalled_{barrier,short_scoreboard,
   * long_scoreboard}_per_issue_active.ratio: "1.849854" → "1.172892",
   * "0.979768" → "0.712410", "22.838352" → "7.117916" */
  assert_gauge (b, WS_GAUGE_STALL_BARRIER, 1.849854);
  assert_gauge (a, WS_GAUGE_STALL_BARRIER, 1.172892);
  assert_gauge (b, WS_GAUGE_STALL_SHORT_SCOREBOARD, 0.979768);
  assert_gauge (a, WS_GAUGE_STALL_SHORT_SCOREBOARD, 0.712410);
  assert_gauge (b, WS_GAUGE_STALL_LONG_SCOREBOARD, 22.838352);
  assert_gauge (a, WS_GAUGE_STALL_LONG_SCOREBOARD, 7.117916);
}

/* Verdicts by the busiest unit (ws_bottleneck_compute(): ≥ 60% of peak
 * limits; a compute and a memory unit within 10 points are mixed):
 * - layer norm before: DRAM 72.551387, the busiest, L2 71.01…, issue
 *   31.500516 → Memory; after: instruction issue 72.752171 against L2
 *   61.00…, 11.75 points apart → Compute.
 * - reduce (normalised) before, ID 13: DRAM 65.436305, SM 11.040213 →
 *   Memory; after, ID 7: DRAM 78.616732, SM 11.718442 → Memory.
 * - the nvjet GEMM, after only, ID 1: SM 91.480842, DRAM 26.790481 →
 *   Compute, and nothing before. */
static void
test_verdict_changes (void)
{
  g_autoptr (WsComparison) cmp = training_pair (WS_MATCH_NORMALIZED);
  const WsDelta *d = find (cmp, LAYER_NORM);
  const WsGauges *b = ws_comparison_gauges (cmp, d, FALSE);
  const WsGauges *a = ws_comparison_gauges (cmp, d, TRUE);

  g_assert_cmpint (b->verdict, ==, WS_VERDICT_MEMORY);
  g_assert_cmpint (a->verdict, ==, WS_VERDICT_COMPUTE);
  g_assert_nonnull (strstr (b->verdict_reason, "DRAM 72.55% ≥ 60%"));
  g_assert_nonnull (strstr (a->verdict_reason, "Instruction issue 72.75% ≥ 60%"));

  d = find (cmp, "at::native::reduce_kernel");
  g_assert_cmpint (ws_comparison_gauges (cmp, d, FALSE)->verdict, ==, WS_VERDICT_MEMORY);
  g_assert_cmpint (ws_comparison_gauges (cmp, d, TRUE)->verdict, ==, WS_VERDICT_MEMORY);

  d = find (cmp, "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT");
  g_assert_cmpint (ws_comparison_gauges (cmp, d, TRUE)->verdict, ==, WS_VERDICT_COMPUTE);
}

/* A side without ncu CSVs: no launch anywhere, nothing profiled on both. */
static void
test_one_side_without_ncu (void)
{
  g_autoptr (WsRun) before = load (FP32, NULL);
  g_autoptr (WsRun) after = load (BF16, BF16_NCU);
  g_autoptr (WsComparison) cmp = ws_comparison_new (before, after, WS_MATCH_NORMALIZED);
  guint after_profiled = 0;

  g_assert_null (before->ncu);
  g_assert_cmpuint (cmp->n_profiled, ==, 0);
  for (guint i = 0; i < cmp->kernels->len; i++)
    {
      const WsDelta *d = &g_array_index (cmp->kernels, WsDelta, i);

      g_assert_cmpint (d->before_launch, ==, -1);
      g_assert_null (ws_comparison_gauges (cmp, d, FALSE));
      after_profiled += d->after_launch >= 0;
    }
  /* The 14 bf16 launches under normalised keys: the distribution, nvjet
   * bias_TNT (IDs 1 and 4), vectorized_elementwise (2, 8, 10, 12), layer
   * norm, unrolled_elementwise, softmax forward, reduce, elementwise,
   * softmax backward, nvjet NNT: 10 keys. */
  g_assert_cmpuint (after_profiled, ==, 10);
}

/* "a,b" is split unless a file of that very name exists. */
static void
test_split_side (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *comma = g_build_filename (dir, "a,b.sqlite", NULL);
  g_auto (GStrv) two = ws_input_split_side ("x.sqlite,y.csv");
  g_auto (GStrv) one = ws_input_split_side ("x.sqlite");
  g_auto (GStrv) empty_parts = ws_input_split_side ("x.sqlite,,y.csv,");
  g_auto (GStrv) whole = NULL;

  g_assert_cmpuint (g_strv_length (two), ==, 2);
  g_assert_cmpstr (two[0], ==, "x.sqlite");
  g_assert_cmpstr (two[1], ==, "y.csv");
  g_assert_cmpuint (g_strv_length (one), ==, 1);
  g_assert_cmpuint (g_strv_length (empty_parts), ==, 2);
  g_assert_true (g_file_set_contents (comma, "", 0, NULL));
  whole = ws_input_split_side (comma);
  g_assert_cmpuint (g_strv_length (whole), ==, 1);
  g_assert_cmpstr (whole[0], ==, comma);
  ws_test_rmtree (dir);
}

/* Findings built by hand: the change of each check, and the order. */
static WsFinding *
finding (const char *id, WsSeverity severity, gint64 cost)
{
  WsFinding *f = ws_finding_new (id);

  f->severity = severity;
  f->cost = cost;
  f->title = g_strdup (id);
  f->summary = g_strdup (id);
  return f;
}

static void
test_diff_rules (void)
{
  g_autoptr (GPtrArray) before = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_finding_unref);
  g_autoptr (GPtrArray) after = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_finding_unref);
  g_autoptr (GArray) diff = NULL;
  static const struct
  {
    const char *id;
    WsFindingChangeKind change;
  } expected[] = {
    { "new-severe", WS_FINDING_APPEARED },
    { "new-minor", WS_FINDING_APPEARED },
    { "up", WS_FINDING_WORSE },
    { "gone", WS_FINDING_FIXED },
    { "down", WS_FINDING_BETTER },
    { "same-big", WS_FINDING_UNCHANGED },
    { "same-small", WS_FINDING_UNCHANGED },
  };

  g_ptr_array_add (before, finding ("gone", WS_SEVERITY_MEDIUM, 5));
  g_ptr_array_add (before, finding ("up", WS_SEVERITY_MINOR, 1));
  g_ptr_array_add (before, finding ("down", WS_SEVERITY_SEVERE, 1));
  g_ptr_array_add (before, finding ("same-small", WS_SEVERITY_MEDIUM, 10));
  g_ptr_array_add (before, finding ("same-big", WS_SEVERITY_MEDIUM, 500));
  g_ptr_array_add (after, finding ("down", WS_SEVERITY_MINOR, 1));
  g_ptr_array_add (after, finding ("same-small", WS_SEVERITY_MEDIUM, 10));
  g_ptr_array_add (after, finding ("new-minor", WS_SEVERITY_MINOR, 100));
  g_ptr_array_add (after, finding ("up", WS_SEVERITY_SEVERE, 1));
  g_ptr_array_add (after, finding ("new-severe", WS_SEVERITY_SEVERE, 1));
  g_ptr_array_add (after, finding ("same-big", WS_SEVERITY_MEDIUM, 1));
  /* A second finding of one check: the first (most severe) stands for it. */
  g_ptr_array_add (after, finding ("up", WS_SEVERITY_MINOR, 1));

  diff = ws_findings_diff (before, after);
  g_assert_cmpuint (diff->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < diff->len; i++)
    {
      const WsFindingChange *c = &g_array_index (diff, WsFindingChange, i);

      g_assert_cmpstr (c->id, ==, expected[i].id);
      g_assert_cmpint (c->change, ==, expected[i].change);
      g_assert_true (c->before == NULL || g_str_equal (c->before->id, c->id));
      g_assert_true (c->after == NULL || g_str_equal (c->after->id, c->id));
    }
  g_assert_cmpint (ws_findings_diff_find (diff, "up")->after->severity, ==, WS_SEVERITY_SEVERE);
  g_assert_null (ws_findings_diff_find (diff, "gone")->after);
  g_assert_null (ws_findings_diff_find (diff, "new-minor")->before);
  g_assert_cmpstr (ws_finding_change_to_string (WS_FINDING_FIXED), ==, "fixed");
}

static gint64
sql_int (const char *file, const char *sql)
{
  g_autofree char *path = ws_test_data ("nsys", file, NULL);
  g_autofree char *text = ws_test_sqlite_text (path, sql);

  return g_ascii_strtoll (text, NULL, 10);
}

/* The idle share of GPU 0 (all three runs have one GPU), in per mille:
 * kernels ∪ copies (∪ memsets) ordered by start; a gap is where a start
 * passes the largest end before it. */
static gint64
sql_idle_permille (const char *file, gboolean memset)
{
  g_autofree char *sql = g_strdup_printf (
    "WITH ev(s, e) AS (SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL "
    "SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY %s), "
    "o AS (SELECT s, e, max(e) OVER (ORDER BY s, e ROWS BETWEEN UNBOUNDED PRECEDING AND 1 "
    "PRECEDING) AS prev FROM ev) "
    "SELECT 1000 * sum(CASE WHEN s > prev THEN s - prev ELSE 0 END) / (max(e) - min(s)) FROM o",
    memset ? "UNION ALL SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMSET" : "");

  return sql_int (file, sql);
}

/* The probe (written to hold every problem) before, the bf16 training run
 * after.  What the data says, against the thresholds of docs/NOTES.md:
 * - alloc-in-loop needs 5 free-then-allocate cycles: the probe has 20
 *   cudaMalloc inside "频繁内存分配示例"; bf16 has 2 cudaFree in all → fixed.
 * - small-transfers needs 10 host↔device copies under 1 MB in a loop:
 *   the probe has 100, bf16 has 5 in all → fixed.
 * - over-synchronization needs 10 syncs: bf16 has 1 + 7 → fixed.
 * - launch-overhead needs 20 kernels under 5 µs: bf16 has 14 → fixed.
 * - load-imbalance needs kernels side by side on several streams: bf16
 *   launches on one stream → fixed.
 * - memory-access: the probe's strided_read, seen in its GPU metrics;
 *   bf16 has no GPU metrics and no ncu data → fixed.
 * - gpu-idle: 18.0% idle in the probe (minor, 10–20%), 99.2% in bf16
 *   (severe, ≥ 50%) → worse. */
static void
test_diff_probe_to_bf16 (void)
{
  g_autoptr (WsRun) probe = load ("v2025.3_h100_probe.sqlite", NULL);
  g_autoptr (WsRun) bf16 = load (BF16, NULL);
  g_autoptr (GPtrArray) before = ws_findings_compute (probe);
  g_autoptr (GPtrArray) after = ws_findings_compute (bf16);
  g_autoptr (GArray) diff = ws_findings_diff (before, after);
  g_autoptr (GArray) reverse = ws_findings_diff (after, before);
  static const char *const fixed[] = {
    WS_FINDING_ALLOC_IN_LOOP,   WS_FINDING_SMALL_TRANSFERS, WS_FINDING_OVER_SYNC,
    WS_FINDING_LAUNCH_OVERHEAD, WS_FINDING_LOAD_IMBALANCE,  WS_FINDING_MEMORY_ACCESS,
  };
  const WsFindingChange *c;

  g_assert_cmpint (sql_int ("v2025.3_h100_probe.sqlite",
                            "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s "
                            "ON s.id = r.nameId JOIN NVTX_EVENTS n ON n.text = '频繁内存分配示例' "
                            "WHERE s.value LIKE 'cudaMalloc%' AND r.globalTid = n.globalTid AND "
                            "r.start >= n.start AND r.end <= n.end"),
                   ==, 20);
  g_assert_cmpint (sql_int (BF16, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN "
                                  "StringIds s ON s.id = r.nameId WHERE s.value LIKE 'cudaFree%'"),
                   ==, 2);
  g_assert_cmpint (sql_int (BF16, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE bytes < "
                                  "1000000 AND copyKind IN (1, 2)"),
                   ==, 5);
  g_assert_cmpint (sql_int (BF16,
                            "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN "
                            "StringIds s ON s.id = r.nameId WHERE s.value LIKE '%Synchronize%'"),
                   ==, 8);
  g_assert_cmpint (
    sql_int (BF16, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE end - start < 5000"), ==,
    14);
  g_assert_cmpint (
    sql_int (BF16, "SELECT count(DISTINCT streamId) FROM CUPTI_ACTIVITY_KIND_KERNEL"), ==, 1);
  g_assert_cmpint (sql_idle_permille ("v2025.3_h100_probe.sqlite", FALSE), ==, 180);
  g_assert_cmpint (sql_idle_permille (BF16, TRUE), ==, 992);

  g_assert_cmpuint (diff->len, ==, 7);
  /* What got worse comes first. */
  c = &g_array_index (diff, WsFindingChange, 0);
  g_assert_cmpstr (c->id, ==, WS_FINDING_GPU_IDLE);
  g_assert_cmpint (c->change, ==, WS_FINDING_WORSE);
  g_assert_cmpint (c->before->severity, ==, WS_SEVERITY_MINOR);
  g_assert_cmpint (c->after->severity, ==, WS_SEVERITY_SEVERE);
  for (gsize i = 0; i < G_N_ELEMENTS (fixed); i++)
    {
      c = ws_findings_diff_find (diff, fixed[i]);
      g_assert_nonnull (c);
      g_assert_cmpint (c->change, ==, WS_FINDING_FIXED);
      g_assert_nonnull (c->before);
      g_assert_null (c->after);
    }

  /* The other way round: six appeared, first; the idle time got better. */
  for (guint i = 0; i < 6; i++)
    g_assert_cmpint (g_array_index (reverse, WsFindingChange, i).change, ==, WS_FINDING_APPEARED);
  c = &g_array_index (reverse, WsFindingChange, 6);
  g_assert_cmpstr (c->id, ==, WS_FINDING_GPU_IDLE);
  g_assert_cmpint (c->change, ==, WS_FINDING_BETTER);
}

/* fp32 → bf16: both only leave the GPU idle, 94.8% and 99.2% of the time
 * (SQL above), severe on both sides: one unchanged check. */
static void
test_diff_training_unchanged (void)
{
  g_autoptr (WsRun) fp32 = load (FP32, NULL);
  g_autoptr (WsRun) bf16 = load (BF16, NULL);
  g_autoptr (GPtrArray) before = ws_findings_compute (fp32);
  g_autoptr (GPtrArray) after = ws_findings_compute (bf16);
  g_autoptr (GArray) diff = ws_findings_diff (before, after);
  const WsFindingChange *c;

  g_assert_cmpint (sql_idle_permille (FP32, TRUE), ==, 948);
  g_assert_cmpuint (diff->len, ==, 1);
  c = &g_array_index (diff, WsFindingChange, 0);
  g_assert_cmpstr (c->id, ==, WS_FINDING_GPU_IDLE);
  g_assert_cmpint (c->change, ==, WS_FINDING_UNCHANGED);
}

static char *
run_cli (const char *const *argv, int expected_status)
{
  char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, expected_status);
  return out;
}

/* `compare` with each side's export and ncu CSV joined by a comma: the
 * table gains the gauges (numbers from the CSV cells above, rounded by
 * hand) and the findings; the CSV stays what it was without ncu data. */
static void
test_cli_sections (void)
{
  g_autofree char *fp32 = ws_test_data ("nsys", FP32, NULL);
  g_autofree char *bf16 = ws_test_data ("nsys", BF16, NULL);
  g_autofree char *fp32_ncu = ws_test_data ("ncu", FP32_NCU, NULL);
  g_autofree char *bf16_ncu = ws_test_data ("ncu", BF16_NCU, NULL);
  g_autofree char *before = g_strdup_printf ("%s,%s", fp32, fp32_ncu);
  g_autofree char *after = g_strdup_printf ("%s,%s", bf16, bf16_ncu);
  /* The whole runs, set-up included: the findings of each run as a whole. */
  const char *table_argv[] = { ws_test_cli (), "compare", "--whole-run", "--by",
                               "normalized",   before,    after,         NULL };
  const char *md_argv[] = { ws_test_cli (), "compare", "--whole-run", "--by", "normalized",
                            "--format",     "md",      before,        after,  NULL };
  const char *csv_argv[] = { ws_test_cli (), "compare", "--whole-run", "--format",
                             "csv",          before,    after,         NULL };
  const char *plain_argv[] = { ws_test_cli (), "compare", "--whole-run", "--format",
                               "csv",          fp32,      bf16,          NULL };
  g_autofree char *table = run_cli (table_argv, 0);
  g_autofree char *md = run_cli (md_argv, 0);
  g_autofree char *csv = run_cli (csv_argv, 0);
  g_autofree char *plain = run_cli (plain_argv, 0);
  const char *block;

  block = strstr (table, "\n" LAYER_NORM "\n");
  g_assert_nonnull (strstr (table, "\nGauges before and after\n"));
  g_assert_nonnull (block);
  g_assert_true (g_str_has_prefix (block + 1 + strlen (LAYER_NORM) + 1,
                                   "  Verdict            Memory → Compute\n"));
  /* 133,824 ns → 66,624 ns: −67,200 ns, 0.4978 × */
  g_assert_nonnull (strstr (block, "  Duration           134 µs → 66.6 µs (−67.2 µs, 0.50×)\n"));
  /* 31.500516 → 72.752171: +41.251655 points */
  g_assert_nonnull (strstr (block, "  SM                 31.5% → 72.8% (+41.3 pts)\n"));
  /* 22.838352 → 7.117916: −15.720436 */
  g_assert_nonnull (strstr (block, "  Long scoreboard    22.84 → 7.12 (−15.72)\n"));
  g_assert_nonnull (
    strstr (table, "\nFindings\n  [Unchanged] The GPU sits idle (gpu-idle): Severe → Severe\n"));

  g_assert_nonnull (strstr (md, "\n## Gauges before and after\n"));
  g_assert_nonnull (strstr (md, "\n### `" LAYER_NORM "`\n\n**Verdict:** Memory → Compute"));
  g_assert_nonnull (strstr (md, "| SM | 31.5% | 72.8% | +41.3 pts |\n"));
  g_assert_nonnull (strstr (md, "\n## Findings\n"));

  /* The CSV columns are fixed: ncu data changes nothing in them. */
  g_assert_cmpstr (csv, ==, plain);
}

/* A comma list naming a file that does not exist fails with its name. */
static void
test_cli_missing_part (void)
{
  g_autofree char *fp32 = ws_test_data ("nsys", FP32, NULL);
  g_autofree char *before = g_strdup_printf ("%s,/nonexistent/x_ncu.csv", fp32);
  const char *argv[] = { ws_test_cli (), "compare", before, fp32, NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "/nonexistent/x_ncu.csv"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/compare-ncu/launches/longest-on-each-side", test_longest_launch_each_side);
  g_test_add_func ("/compare-ncu/launches/demangled-and-swapped", test_demangled_profiled_both);
  g_test_add_func ("/compare-ncu/gauges/equal-csv-cells", test_gauges_equal_csv_cells);
  g_test_add_func ("/compare-ncu/gauges/verdict-changes", test_verdict_changes);
  g_test_add_func ("/compare-ncu/gauges/one-side-without-ncu", test_one_side_without_ncu);
  g_test_add_func ("/compare-ncu/input/comma-lists", test_split_side);
  g_test_add_func ("/compare-ncu/findings-diff/rules", test_diff_rules);
  g_test_add_func ("/compare-ncu/findings-diff/probe-to-bf16", test_diff_probe_to_bf16);
  g_test_add_func ("/compare-ncu/findings-diff/training-unchanged", test_diff_training_unchanged);
  g_test_add_func ("/compare-ncu/cli/gauges-and-findings-sections", test_cli_sections);
  g_test_add_func ("/compare-ncu/cli/missing-part", test_cli_missing_part);

  return g_test_run ();
}
