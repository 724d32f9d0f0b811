/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "ws-findings-output.h"
#include "ws-findings.h"
#include "ws-nsys-reader.h"
#include "ws-stats.h"
#include "ws-test-util.h"

/* The H100 probe (fixtures/probe.cu) was written to contain each problem.
 * Every number below was counted with sqlite3 over the export, as the
 * comments show, not with our code. */
#define PROBE "v2025.3_h100_probe.sqlite"

/* The main thread of the probe (PROCESSES pid 3180). */
#define PROBE_TID "281528328260716"

static WsRun *
load (const char *path)
{
  g_autoptr (GError) error = NULL;
  WsRun *run = ws_nsys_reader_load (path, WS_LOAD_ALL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (run);
  return run;
}

static WsRun *
load_data (const char *name)
{
  g_autofree char *path = ws_test_data ("nsys", name, NULL);

  return load (path);
}

static gint64
sql_int (const char *path, const char *sql)
{
  g_autofree char *text = ws_test_sqlite_text (path, sql);

  g_assert_nonnull (text);
  return g_ascii_strtoll (text, NULL, 10);
}

static double
evidence (const WsFinding *finding, const char *key)
{
  const WsEvidence *found = ws_finding_get_evidence (finding, key);

  if (found == NULL)
    g_error ("%s: no evidence “%s”", finding->id, key);
  return found->value;
}

static const WsFindingNvtx *
nvtx (const WsFinding *finding, const char *name)
{
  const WsFindingNvtx *found = ws_finding_find_nvtx (finding, name);

  if (found == NULL)
    g_error ("%s: no NVTX range “%s”", finding->id, name);
  return found;
}

static const WsTimeRange *
range (const WsFinding *finding, guint i)
{
  g_assert_cmpuint (i, <, finding->ranges->len);
  return &g_array_index (finding->ranges, WsTimeRange, i);
}

static GPtrArray *
probe_findings (WsRun **run_out)
{
  g_autoptr (WsRun) run = load_data (PROBE);
  GPtrArray *findings = ws_findings_compute (run);

  if (run_out != NULL)
    *run_out = g_steal_pointer (&run);
  return findings;
}

static WsFinding *
find (GPtrArray *findings, const char *id)
{
  WsFinding *finding = ws_findings_find (findings, id);

  if (finding == NULL)
    g_error ("finding “%s” not raised", id);
  return finding;
}

static gboolean
has_note (const WsFinding *finding, const char *part)
{
  for (guint i = 0; i < finding->notes->len; i++)
    if (strstr (g_ptr_array_index (finding->notes, i), part) != NULL)
      return TRUE;
  return FALSE;
}

/* probe.cu allocates and frees 4 MB twenty times inside "频繁内存分配示例". */
static void
test_probe_alloc_in_loop (void)
{
  g_autofree char *path = ws_test_data ("nsys", PROBE, NULL);
  g_autoptr (WsRun) run = NULL;
  g_autoptr (GPtrArray) findings = probe_findings (&run);
  WsFinding *f = find (findings, WS_FINDING_ALLOC_IN_LOOP);
  const char *in_range =
    "FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
    "JOIN NVTX_EVENTS n ON n.text = '频繁内存分配示例' "
    "WHERE r.globalTid = n.globalTid AND r.start >= n.start AND r.end <= n.end ";
  g_autofree char *sql_malloc =
    g_strconcat ("SELECT count(*) ", in_range, "AND s.value = 'cudaMalloc_v3020'", NULL);
  g_autofree char *sql_free =
    g_strconcat ("SELECT count(*) ", in_range, "AND s.value = 'cudaFree_v3020'", NULL);
  g_autofree char *sql_time =
    g_strconcat ("SELECT sum(r.end - r.start) ", in_range,
                 "AND (s.value = 'cudaMalloc_v3020' OR s.value = 'cudaFree_v3020')", NULL);

  /* Counted in SQL over RUNTIME ⨝ StringIds inside the range on its thread:
   * 20 cudaMalloc (1,016,205 ns) and 20 cudaFree (783,212 ns). */
  g_assert_cmpint (sql_int (path, sql_malloc), ==, 20);
  g_assert_cmpint (sql_int (path, sql_free), ==, 20);
  g_assert_cmpint (sql_int (path, sql_time), ==, 1799417);

  g_assert_cmpint (f->severity, ==, WS_SEVERITY_SEVERE);
  g_assert_cmpfloat (evidence (f, "cudaMalloc"), ==, 20);
  g_assert_cmpfloat (evidence (f, "cudaFree"), ==, 20);
  g_assert_cmpfloat (evidence (f, "calls"), ==, 40);
  g_assert_cmpfloat (evidence (f, "loops"), ==, 1);
  g_assert_cmpfloat (evidence (f, "time_ns"), ==, 1799417);
  /* The loop: the first cudaMalloc (start 437,613,602) to the last cudaFree
   * (end 439,755,212); 19 times a free followed by a new allocation, from
   * the first cudaMalloc to the last (end 439,715,931). */
  g_assert_cmpfloat (evidence (f, "span_ns"), ==, 439755212 - 437613602);
  g_assert_cmpfloat (evidence (f, "cycles"), ==, 19);
  g_assert_cmpfloat_with_epsilon (evidence (f, "time_share_pct"),
                                  100.0 * 1799417 / (439755212 - 437613602), 1e-9);
  g_assert_cmpfloat_with_epsilon (evidence (f, "rate_per_s"),
                                  2 * 19 * 1e9 / (439715931 - 437613602), 1e-6);
  /* CUDA_GPU_MEMORY_USAGE_EVENTS: 20 allocations of 4,194,304 bytes. */
  g_assert_cmpfloat (evidence (f, "bytes_allocated"), ==, 20.0 * 4194304);
  g_assert_cmpfloat (evidence (f, "median_allocation_bytes"), ==, 4194304);

  /* The first cudaMalloc of the program (correlation id 118) takes
   * 109,555,081 ns: it creates the context and is not counted. */
  g_assert_cmpint (
    sql_int (path, "SELECT end - start FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId = 118"),
    ==, 109555081);
  g_assert_cmpfloat (evidence (f, "context_creation_ns"), ==, 109555081);
  g_assert_true (has_note (f, "creation of the CUDA context"));

  g_assert_cmpuint (nvtx (f, "频繁内存分配示例")->events, ==, 40);
  g_assert_cmpint (nvtx (f, "频繁内存分配示例")->event_time, ==, 1799417);
  g_assert_cmpuint (nvtx (f, "频繁内存分配示例")->depth, ==, 0);
  /* Each cudaMalloc sits in one of the 20 pushes of "分配内存". */
  g_assert_cmpuint (nvtx (f, "分配内存")->instances, ==, 20);
  g_assert_cmpuint (nvtx (f, "分配内存")->events, ==, 20);
  g_assert_null (ws_finding_find_nvtx (f, "内存重用示例"));

  g_assert_cmpuint (f->ranges->len, ==, 1);
  g_assert_cmpint (range (f, 0)->start, ==, 437613602);
  g_assert_cmpint (range (f, 0)->end, ==, 439755212);
  g_assert_cmpuint (f->api->len, ==, 40);
  for (guint i = 0; i < f->api->len; i++)
    {
      g_autofree char *base =
        ws_api_base_name (ws_run_string (run, run->api.name[g_array_index (f->api, guint32, i)]));

      g_assert_true (g_str_equal (base, "cudaMalloc") || g_str_equal (base, "cudaFree"));
    }
  g_assert_nonnull (strstr (f->summary, "20 cudaMalloc, 20 cudaFree"));
  g_assert_nonnull (strstr (f->summary, "频繁内存分配示例"));
}

/* 50 times a 4,096-byte copy to the GPU and one back, inside "频繁数据传输示例". */
static void
test_probe_small_transfers (void)
{
  g_autofree char *path = ws_test_data ("nsys", PROBE, NULL);
  g_autoptr (WsRun) run = NULL;
  g_autoptr (GPtrArray) findings = probe_findings (&run);
  WsFinding *f = find (findings, WS_FINDING_SMALL_TRANSFERS);
  const char *in_range =
    "FROM CUPTI_ACTIVITY_KIND_MEMCPY m JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
    "ON r.correlationId = m.correlationId JOIN NVTX_EVENTS n ON n.text = '频繁数据传输示例' "
    "WHERE r.globalTid = n.globalTid AND r.start >= n.start AND r.end <= n.end";
  g_autofree char *sql_count = g_strconcat ("SELECT count(*) ", in_range, NULL);
  g_autofree char *sql_4k = g_strconcat ("SELECT count(*) ", in_range, " AND m.bytes = 4096", NULL);
  g_autofree char *sql_h2d =
    g_strconcat ("SELECT count(*) ", in_range, " AND m.copyKind = 1", NULL);
  g_autofree char *sql_calls = g_strconcat ("SELECT sum(r.end - r.start) ", in_range, NULL);
  g_autofree char *sql_gpu = g_strconcat ("SELECT sum(m.end - m.start) ", in_range, NULL);

  g_assert_cmpint (sql_int (path, sql_count), ==, 100);
  g_assert_cmpint (sql_int (path, sql_4k), ==, 100);
  g_assert_cmpint (sql_int (path, sql_h2d), ==, 50);
  g_assert_cmpint (sql_int (path, sql_calls), ==, 824209);
  g_assert_cmpint (sql_int (path, sql_gpu), ==, 120100);

  g_assert_cmpint (f->severity, ==, WS_SEVERITY_SEVERE);
  g_assert_cmpfloat (evidence (f, "copies"), ==, 100);
  g_assert_cmpfloat (evidence (f, "Host-to-Device"), ==, 50);
  g_assert_cmpfloat (evidence (f, "Device-to-Host"), ==, 50);
  g_assert_cmpfloat (evidence (f, "bytes"), ==, 100 * 4096);
  g_assert_cmpfloat (evidence (f, "median_bytes"), ==, 4096);
  g_assert_cmpfloat (evidence (f, "call_time_ns"), ==, 824209);
  g_assert_cmpfloat (evidence (f, "gpu_time_ns"), ==, 120100);
  /* The loop: the first copy call's start (439,915,373) to the last one's
   * end (441,043,229). */
  g_assert_cmpfloat (evidence (f, "span_ns"), ==, 441043229 - 439915373);
  g_assert_cmpfloat_with_epsilon (evidence (f, "time_share_pct"),
                                  100.0 * 824209 / (441043229 - 439915373), 1e-9);
  g_assert_cmpfloat_with_epsilon (evidence (f, "rate_per_s"), 100 * 1e9 / (441043229 - 439915373),
                                  1e-6);
  g_assert_cmpfloat_with_epsilon (evidence (f, "bandwidth_bytes_per_s"), 409600 * 1e9 / 120100,
                                  1e-3);
  /* The run's copies of 1 MB and more: three of 64 MiB in 16,546,941 ns
   * (SELECT sum(bytes), sum(end - start) … WHERE bytes >= 1000000). */
  g_assert_cmpint (
    sql_int (path,
             "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE bytes >= 1000000"),
    ==, 16546941);
  g_assert_cmpfloat_with_epsilon (evidence (f, "large_copy_bandwidth_bytes_per_s"),
                                  3 * 67108864.0 * 1e9 / 16546941, 1e-3);

  g_assert_cmpuint (nvtx (f, "频繁数据传输示例")->events, ==, 100);
  g_assert_cmpuint (nvtx (f, "CPU->GPU 传输")->events, ==, 50);
  g_assert_cmpuint (nvtx (f, "GPU->CPU 传输")->events, ==, 50);
  g_assert_null (ws_finding_find_nvtx (f, "批量传输示例"));
  g_assert_cmpuint (f->memops->len, ==, 100);
  for (guint i = 0; i < f->memops->len; i++)
    g_assert_cmpuint (run->memops.bytes[g_array_index (f->memops, guint32, i)], ==, 4096);
}

/* A cudaDeviceSynchronize after each of 30 tiny kernels in "频繁同步示例". */
static void
test_probe_over_synchronization (void)
{
  g_autofree char *path = ws_test_data ("nsys", PROBE, NULL);
  g_autoptr (WsRun) run = NULL;
  g_autoptr (GPtrArray) findings = probe_findings (&run);
  WsFinding *f = find (findings, WS_FINDING_OVER_SYNC);
  gint64 final_sync;

  /* 32 in the program: 30 in the loop, one after "小内核", one in
   * "等待所有任务完成" after the last kernel launch. */
  g_assert_cmpint (sql_int (path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN "
                                  "StringIds s ON s.id = r.nameId "
                                  "WHERE s.value = 'cudaDeviceSynchronize_v3020'"),
                   ==, 32);
  g_assert_cmpint (sql_int (path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN "
                                  "StringIds s ON s.id = r.nameId JOIN NVTX_EVENTS n ON n.text = "
                                  "'频繁同步示例' WHERE r.globalTid = n.globalTid AND r.start >= "
                                  "n.start AND r.end <= n.end AND s.value = "
                                  "'cudaDeviceSynchronize_v3020'"),
                   ==, 30);

  g_assert_cmpint (f->severity, ==, WS_SEVERITY_SEVERE);
  g_assert_cmpfloat (evidence (f, "syncs"), ==, 30);
  g_assert_cmpfloat (evidence (f, "cudaDeviceSynchronize"), ==, 30);
  g_assert_cmpfloat (evidence (f, "excluded_at_end"), ==, 1);
  g_assert_true (has_note (f, "end of the program"));
  /* Measured from the first sync's return (455,229,240: it waited 3.6 ms
   * for the compute kernels queued before the loop) to the last's
   * (455,518,239). */
  g_assert_cmpfloat (evidence (f, "span_ns"), ==, 455518239 - 455229240);
  /* GPU idle right after: the gaps between kernels and copies that hold a
   * sync's end, clipped to that window, each once.  In SQL, with gaps from
   * a running max(end) over kernels ∪ memcpy ordered by start: 260,038 ns. */
  g_assert_cmpfloat (evidence (f, "gpu_idle_after_ns"), ==, 260038);
  g_assert_cmpfloat_with_epsilon (evidence (f, "gpu_idle_after_pct"),
                                  100.0 * 260038 / (455518239 - 455229240), 1e-9);
  /* 29 launches after the first sync's return, one per sync. */
  g_assert_cmpfloat (evidence (f, "kernel_launches"), ==, 29);
  g_assert_cmpfloat (evidence (f, "syncs_per_launch"), ==, 1);
  g_assert_cmpuint (nvtx (f, "频繁同步示例")->events, ==, 30);
  g_assert_cmpuint (f->ranges->len, ==, 1);

  /* The last sync of the program is not part of the evidence. */
  final_sync = sql_int (path, "SELECT r.start FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s "
                              "ON s.id = r.nameId WHERE s.value = 'cudaDeviceSynchronize_v3020' "
                              "ORDER BY r.start DESC LIMIT 1");
  g_assert_cmpuint (f->api->len, ==, 30);
  for (guint i = 0; i < f->api->len; i++)
    g_assert_cmpint (run->api.start[g_array_index (f->api, guint32, i)], !=, final_sync);
}

/* 320 launches of tiny<<<1, 256>>>, 200 of them back to back in "小内核". */
static void
test_probe_launch_overhead (void)
{
  g_autofree char *path = ws_test_data ("nsys", PROBE, NULL);
  g_autoptr (WsRun) run = NULL;
  g_autoptr (GPtrArray) findings = probe_findings (&run);
  WsFinding *f = find (findings, WS_FINDING_LAUNCH_OVERHEAD);

  /* Kernels under 5 µs: the 320 tiny ones (960 to 1,568 ns). */
  g_assert_cmpint (
    sql_int (path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE end - start < 5000"), ==,
    320);
  /* Launched inside "小内核": 200 kernels, 199,365 ns on the GPU. */
  g_assert_cmpint (sql_int (path, "SELECT sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                                  "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = "
                                  "k.correlationId JOIN NVTX_EVENTS n ON n.text = '小内核' WHERE "
                                  "r.globalTid = n.globalTid AND r.start >= n.start AND r.end <= "
                                  "n.end"),
                   ==, 199365);

  g_assert_cmpint (f->severity, ==, WS_SEVERITY_SEVERE);
  g_assert_cmpuint (nvtx (f, "小内核")->events, ==, 200);
  g_assert_cmpint (nvtx (f, "小内核")->event_time, ==, 199365);
  g_assert_cmpuint (nvtx (f, "频繁数据传输示例")->events, ==, 50);
  g_assert_cmpuint (nvtx (f, "频繁内存分配示例")->events, ==, 20);
  g_assert_cmpuint (nvtx (f, "内存重用示例")->events, ==, 20);
  /* The 30 in "频繁同步示例" run while the compute kernels queued before
   * them still keep the GPU busy: no launch overhead there. */
  g_assert_null (ws_finding_find_nvtx (f, "频繁同步示例"));
  g_assert_cmpfloat (evidence (f, "tiny_kernels"), ==, 290);
  g_assert_cmpuint (f->kernels->len, ==, 290);
  for (guint i = 0; i < f->kernels->len; i++)
    g_assert_cmpstr (
      ws_run_kernel_name (run, g_array_index (f->kernels, guint32, i), WS_NAME_DEMANGLED), ==,
      "tiny(float *)");
  g_assert_cmpfloat (evidence (f, "median_kernel_ns"), <, 1600);
  g_assert_cmpfloat (evidence (f, "gpu_busy_pct"), <, 25);
}

/* imbalanced<<<64, 256>>> on four streams with work 2000 · 2^k. */
static void
test_probe_load_imbalance (void)
{
  g_autofree char *path = ws_test_data ("nsys", PROBE, NULL);
  g_autoptr (WsRun) run = NULL;
  g_autoptr (GPtrArray) findings = probe_findings (&run);
  WsFinding *f = find (findings, WS_FINDING_LOAD_IMBALANCE);
  static const struct
  {
    const char *range;
    gint64 ns;
  } tasks[] = { { "任务0", 6016 }, { "任务1", 10496 }, { "任务2", 19585 }, { "任务3", 37601 } };

  /* SELECT end - start FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s
   * ON s.id = k.shortName WHERE s.value = 'imbalanced': 6016, 10496, 19585,
   * 37601 on streams 13 to 16. */
  g_assert_cmpint (sql_int (path, "SELECT min(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
                                  "StringIds s ON s.id = k.shortName WHERE s.value = 'imbalanced'"),
                   ==, 6016);
  g_assert_cmpint (sql_int (path, "SELECT max(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
                                  "StringIds s ON s.id = k.shortName WHERE s.value = 'imbalanced'"),
                   ==, 37601);

  g_assert_cmpint (f->severity, ==, WS_SEVERITY_SEVERE);
  g_assert_cmpfloat (evidence (f, "streams"), ==, 4);
  g_assert_cmpfloat (evidence (f, "shortest_ns"), ==, 6016);
  g_assert_cmpfloat (evidence (f, "longest_ns"), ==, 37601);
  /* 6016 / 37601 = 0.16: below 0.5, severe. */
  g_assert_cmpfloat_with_epsilon (evidence (f, "ratio"), 6016.0 / 37601, 1e-12);
  /* Waiting for the slowest: 3 × 37601 − (6016 + 10496 + 19585). */
  g_assert_cmpfloat (evidence (f, "wait_ns"), ==, 3 * 37601 - (6016 + 10496 + 19585));
  g_assert_cmpstr (ws_finding_get_evidence (f, "kernel")->text, ==,
                   "imbalanced(float *, int, int)");
  g_assert_cmpuint (f->kernels->len, ==, 4);
  /* The numbered ranges 任务0 … 任务3 are one entry, 任务N (issue 40):
   * four instances, a kernel in each. */
  {
    gint64 sum = 0;

    for (gsize i = 0; i < G_N_ELEMENTS (tasks); i++)
      sum += tasks[i].ns;
    g_assert_null (ws_finding_find_nvtx (f, tasks[0].range));
    g_assert_cmpuint (nvtx (f, "任务N")->events, ==, G_N_ELEMENTS (tasks));
    g_assert_cmpuint (nvtx (f, "任务N")->instances, ==, G_N_ELEMENTS (tasks));
    g_assert_cmpint (nvtx (f, "任务N")->event_time, ==, sum);
    g_assert_cmpuint (nvtx (f, "任务N")->depth, ==, 1);
  }
  g_assert_cmpuint (nvtx (f, "负载不均衡")->events, ==, 4);
  /* From the first kernel's start to the last one's end. */
  g_assert_cmpint (range (f, 0)->start, ==, 456545341);
  g_assert_cmpint (range (f, 0)->end, ==, 456600990);
}

/* Gaps between GPU work, from the first kernel or copy to the last. */
static void
test_probe_gpu_idle (void)
{
  g_autoptr (GPtrArray) findings = probe_findings (NULL);
  WsFinding *f = find (findings, WS_FINDING_GPU_IDLE);

  /* In SQL: kernels ∪ memcpy ordered by start; a gap where a start passes
   * the running max(end) of the earlier rows: 436 gaps, 4,563,700 ns, the
   * longest 363,175 ns (438,461,571 to 438,824,746), over a span of
   * 25,291,332 ns.  18.0% idle: minor (10–20%). */
  g_assert_cmpint (f->severity, ==, WS_SEVERITY_MINOR);
  g_assert_cmpfloat (evidence (f, "idle_ns"), ==, 4563700);
  g_assert_cmpfloat (evidence (f, "span_ns"), ==, 25291332);
  g_assert_cmpfloat (evidence (f, "busy_ns"), ==, 25291332 - 4563700);
  g_assert_cmpfloat (evidence (f, "gaps"), ==, 436);
  g_assert_cmpfloat (evidence (f, "largest_gap_ns"), ==, 363175);
  g_assert_cmpfloat_with_epsilon (evidence (f, "idle_pct"), 100.0 * 4563700 / 25291332, 1e-9);
  g_assert_cmpint (range (f, 0)->start, ==, 438461571);
  g_assert_cmpint (range (f, 0)->end, ==, 438824746);
  g_assert_cmpuint (f->ranges->len, ==, 5);
  for (guint i = 1; i < f->ranges->len; i++)
    g_assert_cmpint (range (f, i - 1)->end - range (f, i - 1)->start, >=,
                     range (f, i)->end - range (f, i)->start);
  /* The longest gap: while the 10th cudaMalloc takes 309,508 ns inside
   * "分配内存" of "频繁内存分配示例". */
  g_assert_nonnull (strstr (f->summary, "频繁内存分配示例"));
  g_assert_cmpuint (nvtx (f, "分配内存")->events, ==, 1);
  g_assert_cmpint (nvtx (f, "分配内存")->event_time, ==, 363175);
  g_assert_true (has_note (f, "not counted"));
}

/* The six of the field's checklist, and the memory-access check
 * (test-findings-memory.c) on strided_read. */
static void
test_probe_all_six_most_severe_first (void)
{
  g_autoptr (GPtrArray) findings = probe_findings (NULL);
  static const char *const ids[] = {
    WS_FINDING_ALLOC_IN_LOOP,   WS_FINDING_SMALL_TRANSFERS, WS_FINDING_OVER_SYNC,
    WS_FINDING_LAUNCH_OVERHEAD, WS_FINDING_LOAD_IMBALANCE,  WS_FINDING_GPU_IDLE,
    WS_FINDING_MEMORY_ACCESS,
  };

  g_assert_cmpuint (findings->len, ==, G_N_ELEMENTS (ids));
  for (gsize i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      WsFinding *f = find (findings, ids[i]);

      g_assert_nonnull (f->title);
      g_assert_nonnull (f->summary);
      g_assert_nonnull (f->rule);
      g_assert_nonnull (f->fix);
      g_assert_cmpuint (f->evidence->len, >, 0);
      g_assert_cmpuint (f->ranges->len, >, 0);
      g_assert_cmpuint (f->nvtx->len, >, 0);
    }
  for (guint i = 1; i < findings->len; i++)
    {
      const WsFinding *a = g_ptr_array_index (findings, i - 1);
      const WsFinding *b = g_ptr_array_index (findings, i);

      g_assert_cmpint (a->severity, >=, b->severity);
    }
  g_assert_cmpstr (((WsFinding *) g_ptr_array_index (findings, findings->len - 1))->id, ==,
                   WS_FINDING_GPU_IDLE);
}

/* A PyTorch bf16 training loop of six steps: only the GPU idle time
 * applies.  What the others see, in SQL: 10 cudaMalloc and 1 cudaFree in
 * "forward" of step 0 and none freed and allocated again (the caching
 * allocator warms up); 7 memcpy in all; 7 cudaStreamSynchronize before the
 * first step and one cudaDeviceSynchronize after the last kernel; 14 of
 * 229 kernels under 5 µs; one stream. */
static void
test_bf16_training_only_gpu_idle (void)
{
  g_autoptr (WsRun) run = load_data ("v2025.3_h100_train_bf16.sqlite");
  g_autoptr (GPtrArray) findings = ws_findings_compute (run);
  WsFinding *f;

  g_assert_cmpuint (findings->len, ==, 1);
  f = find (findings, WS_FINDING_GPU_IDLE);
  /* kernels ∪ memcpy ∪ memset: 283 gaps, 3,509,646,384 ns idle of
   * 3,536,087,144; the longest, 3,343,026,533 ns, before "step 0" while
   * Python and the libraries load. */
  g_assert_cmpint (f->severity, ==, WS_SEVERITY_SEVERE);
  g_assert_cmpfloat (evidence (f, "idle_ns"), ==, 3509646384);
  g_assert_cmpfloat (evidence (f, "span_ns"), ==, 3536087144);
  g_assert_cmpfloat (evidence (f, "gaps"), ==, 283);
  g_assert_cmpfloat (evidence (f, "largest_gap_ns"), ==, 3343026533);
}

/* The probe cut down to its "compute" phase: twelve large kernels queued
 * back to back on one stream, nothing else.  None of the six checks
 * applies; the memory-access check still sees strided_read's scattered
 * reads in the GPU metrics (test-findings-memory.c), and only it. */
static void
test_clean_run_raises_nothing (void)
{
  g_autofree char *source = ws_test_data ("nsys", PROBE, NULL);
  g_autofree char *copy = ws_test_copy_to_tmp (source, "compute-only.sqlite");
  g_autofree char *dir = g_path_get_dirname (copy);
  g_autoptr (WsRun) run = NULL;
  g_autoptr (GPtrArray) findings = NULL;

  /* "compute" runs from 451,471,271 to 451,628,130 on the main thread. */
  ws_test_sqlite_exec (copy,
                       "DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE start < 451471271 OR "
                       "start > 451628130;"
                       "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE correlationId NOT IN "
                       "(SELECT correlationId FROM CUPTI_ACTIVITY_KIND_RUNTIME);"
                       "DELETE FROM CUPTI_ACTIVITY_KIND_MEMCPY;"
                       "DELETE FROM CUDA_GPU_MEMORY_USAGE_EVENTS;"
                       "DELETE FROM NVTX_EVENTS WHERE start < 451471271 OR start > 451628130;");
  run = load (copy);
  g_assert_cmpuint (run->kernels.n, ==, 12);
  findings = ws_findings_compute (run);
  g_assert_cmpuint (findings->len, ==, 1);
  g_assert_cmpstr (((WsFinding *) g_ptr_array_index (findings, 0))->id, ==,
                   WS_FINDING_MEMORY_ACCESS);
  ws_test_rmtree (dir);
}

/* A real export whose GPU is busy 97.7% of its span, one kernel after the
 * other with a sync after each that costs no GPU time: nothing to say. */
static void
test_gaussian_raises_nothing (void)
{
  g_autoptr (WsRun) run = load_data ("v2022.4_rodinia_gaussian.sqlite");
  g_autoptr (GPtrArray) findings = ws_findings_compute (run);

  g_assert_cmpuint (findings->len, ==, 0);
}

/* Allocations that stay allocated are no loop, however fast they come:
 * the probe with every cudaFree removed keeps its 20 cudaMalloc in a row. */
static void
test_allocations_without_frees_are_no_loop (void)
{
  g_autofree char *source = ws_test_data ("nsys", PROBE, NULL);
  g_autofree char *copy = ws_test_copy_to_tmp (source, "no-frees.sqlite");
  g_autofree char *dir = g_path_get_dirname (copy);
  g_autoptr (WsRun) run = NULL;
  g_autoptr (GPtrArray) findings = NULL;

  ws_test_sqlite_exec (copy, "DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE nameId IN "
                             "(SELECT id FROM StringIds WHERE value = 'cudaFree_v3020')");
  run = load (copy);
  findings = ws_findings_compute (run);
  g_assert_null (ws_findings_find (findings, WS_FINDING_ALLOC_IN_LOOP));
  g_assert_nonnull (ws_findings_find (findings, WS_FINDING_SMALL_TRANSFERS));
  ws_test_rmtree (dir);
}

/* The JSON of `diagnose`: one object per finding, in the same order, with
 * the ranges as [start_ns, end_ns]. */
static void
test_findings_json (void)
{
  g_autoptr (WsRun) run = load_data (PROBE);
  g_autoptr (GPtrArray) findings = ws_findings_compute (run);
  g_autoptr (JsonNode) root = ws_findings_to_json (findings, run->origin);
  JsonArray *array = json_object_get_array_member (json_node_get_object (root), "findings");

  g_assert_cmpuint (json_array_get_length (array), ==, 7);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *object = json_array_get_object_element (array, i);
      const WsFinding *f = g_ptr_array_index (findings, i);
      JsonArray *ranges = json_object_get_array_member (object, "ranges");

      g_assert_cmpstr (json_object_get_string_member (object, "id"), ==, f->id);
      g_assert_cmpstr (json_object_get_string_member (object, "severity"), ==,
                       ws_severity_to_string (f->severity));
      g_assert_cmpuint (json_array_get_length (ranges), ==, f->ranges->len);
      g_assert_cmpint (json_array_get_int_element (json_array_get_array_element (ranges, 0), 0), ==,
                       range (f, 0)->start);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/findings/probe/alloc-in-loop", test_probe_alloc_in_loop);
  g_test_add_func ("/findings/probe/small-transfers", test_probe_small_transfers);
  g_test_add_func ("/findings/probe/over-synchronization", test_probe_over_synchronization);
  g_test_add_func ("/findings/probe/launch-overhead", test_probe_launch_overhead);
  g_test_add_func ("/findings/probe/load-imbalance", test_probe_load_imbalance);
  g_test_add_func ("/findings/probe/gpu-idle", test_probe_gpu_idle);
  g_test_add_func ("/findings/probe/all-six-most-severe-first",
                   test_probe_all_six_most_severe_first);
  g_test_add_func ("/findings/train-bf16/only-gpu-idle", test_bf16_training_only_gpu_idle);
  g_test_add_func ("/findings/clean/compute-only-raises-nothing", test_clean_run_raises_nothing);
  g_test_add_func ("/findings/clean/gaussian-raises-nothing", test_gaussian_raises_nothing);
  g_test_add_func ("/findings/alloc/allocations-without-frees-are-no-loop",
                   test_allocations_without_frees_are_no_loop);
  g_test_add_func ("/findings/json/one-object-per-finding", test_findings_json);

  return g_test_run ();
}
