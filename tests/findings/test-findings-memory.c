/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "ws-findings.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

/* The memory-access finding (strided or scattered access), from GPU
 * metrics and from Nsight Compute, against SQL written here. */

static double
evidence (const WsFinding *finding, const char *key)
{
  const WsEvidence *e = ws_finding_get_evidence (finding, key);

  g_assert_nonnull (e);
  return e->value;
}

static const char *
evidence_text (const WsFinding *finding, const char *key)
{
  const WsEvidence *e = ws_finding_get_evidence (finding, key);

  g_assert_nonnull (e);
  return e->text;
}

static double
sql_number (const char *path, const char *sql)
{
  g_autofree char *text = ws_test_sqlite_text (path, sql);

  g_assert_nonnull (text);
  return g_ascii_strtod (text, NULL);
}

/* The probe's export alone has no ncu data but GPU metrics at 10 kHz.
 * While strided_read runs (SQL over GPU_METRICS, metric ids 3, 4, 18,
 * 19): SMs Active 99.08%, SM Issue 10.75%, DRAM read 69.42% + write
 * 4.33% = 73.75%: occupied SMs, seldom issuing, DRAM under 75%.  Its
 * kernels take 1,243,736 of the run's 4,079,376 kernel ns = 30.49%:
 * severe.  stream_copy (DRAM 80%) and fma_heavy (issue 82%) are not
 * flagged. */
static void
test_probe_gpu_metrics (void)
{
  g_autoptr (WsRun) run = ws_test_load_nsys ("v2025.3_h100_probe.sqlite");
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autoptr (GPtrArray) findings = ws_findings_compute (run);
  WsFinding *f = ws_findings_find (findings, WS_FINDING_MEMORY_ACCESS);
  static const char kernels_sql[] =
    "WITH k AS MATERIALIZED (SELECT k.start, k.end FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
    "StringIds s ON s.id = k.demangledName WHERE s.value LIKE 'strided_read%%') SELECT "
    "avg(m.value) FROM GPU_METRICS m JOIN k ON m.timestamp BETWEEN k.start AND k.end WHERE "
    "m.metricId = %d";
  g_autofree char *active_sql = g_strdup_printf (kernels_sql, 3);
  g_autofree char *issue_sql = g_strdup_printf (kernels_sql, 4);
  g_autofree char *read_sql = g_strdup_printf (kernels_sql, 18);
  g_autofree char *write_sql = g_strdup_printf (kernels_sql, 19);
  double strided = sql_number (path, "SELECT sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL "
                                     "k JOIN StringIds s ON s.id = k.demangledName WHERE s.value "
                                     "LIKE 'strided_read%'");
  double all = sql_number (path, "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL");

  g_assert_nonnull (f);
  g_assert_cmpint (f->severity, ==, WS_SEVERITY_SEVERE);
  g_assert_cmpstr (evidence_text (f, "source"), ==, "gpu-metrics");
  g_assert_cmpstr (evidence_text (f, "kernel"), ==,
                   "strided_read(const float *, float *, int, int)");
  g_assert_cmpfloat (strided, ==, 1243736);
  g_assert_cmpfloat (evidence (f, "gpu_time_ns"), ==, strided);
  g_assert_cmpfloat_with_epsilon (evidence (f, "gpu_time_pct"), 100.0 * strided / all, 1e-9);
  g_assert_cmpfloat_with_epsilon (evidence (f, "sms_active_pct"), sql_number (path, active_sql),
                                  1e-4);
  g_assert_cmpfloat_with_epsilon (evidence (f, "sm_issue_pct"), sql_number (path, issue_sql), 1e-4);
  g_assert_cmpfloat_with_epsilon (evidence (f, "dram_bandwidth_pct"),
                                  sql_number (path, read_sql) + sql_number (path, write_sql), 1e-4);
  /* Its three launches, nothing else. */
  g_assert_cmpuint (f->kernels->len, ==, 3);
  for (guint i = 0; i < f->kernels->len; i++)
    g_assert_cmpstr (
      ws_run_kernel_name (run, g_array_index (f->kernels, guint32, i), WS_NAME_DEMANGLED), ==,
      "strided_read(const float *, float *, int, int)");
  g_assert_nonnull (ws_finding_find_nvtx (f, "strided_read"));
}

/* The H200 capture has ncu CSVs of strided_read: 16,777,216 load
 * sectors for 524,288 requests = 32.0 per request, 14,680,064 of its
 * 16,777,216 + 2,097,152 sectors not needed = 77.78%, L1 hit 0, L2 hit
 * 8.67.  Its kernels: 904,118 of 3,628,378 kernel ns = 24.92%: medium. */
static void
test_capture_ncu (void)
{
  g_autofree char *folder = ws_test_data ("capture-h200", "probe", NULL);
  g_autofree char *path = ws_test_data ("capture-h200", "probe", "nsys", "probe.sqlite", NULL);
  const char *paths[] = { folder, NULL };
  g_autoptr (WsRun) run = ws_test_load_paths (paths);
  g_autoptr (GPtrArray) findings = ws_findings_compute (run);
  WsFinding *f = ws_findings_find (findings, WS_FINDING_MEMORY_ACCESS);
  double strided = sql_number (path, "SELECT sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL "
                                     "k JOIN StringIds s ON s.id = k.demangledName WHERE s.value "
                                     "LIKE 'strided_read%'");
  double all = sql_number (path, "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL");

  g_assert_nonnull (f);
  g_assert_cmpstr (evidence_text (f, "source"), ==, "ncu");
  g_assert_cmpint (f->severity, ==, WS_SEVERITY_MEDIUM);
  g_assert_cmpfloat (strided, ==, 904118);
  g_assert_cmpfloat_with_epsilon (evidence (f, "gpu_time_pct"), 100.0 * strided / all, 1e-9);
  g_assert_cmpfloat (evidence (f, "load_sectors_per_request"), ==, 32.0);
  g_assert_cmpfloat_with_epsilon (evidence (f, "excessive_sectors_pct"),
                                  100.0 * 14680064 / (16777216 + 2097152), 1e-9);
  g_assert_cmpfloat (evidence (f, "l1_hit_pct"), ==, 0);
  g_assert_cmpfloat_with_epsilon (evidence (f, "l2_hit_pct"), 8.67, 1e-9);
  g_assert_true (g_str_has_prefix (f->summary, "“strided_read(const float *, float *, int, int)” "
                                               "takes 24.9% of the GPU time"));
}

/* A run with neither GPU metrics nor ncu data raises nothing; nor does
 * one whose profiled kernels all access memory as they should (the bf16
 * export with its ncu CSV: excessive sectors not collected, no kernel
 * above 16 sectors per request). */
static void
test_not_raised (void)
{
  g_autoptr (WsRun) plain = ws_test_load_nsys ("v2025.3_h100_train_bf16.sqlite");
  g_autoptr (WsRun) with_ncu =
    ws_test_load_nsys_ncu ("v2025.3_h100_train_bf16.sqlite", "h100_train_bf16_sections_raw.csv");
  g_autoptr (GPtrArray) a = ws_findings_compute (plain);
  g_autoptr (GPtrArray) b = ws_findings_compute (with_ncu);

  g_assert_null (ws_findings_find (a, WS_FINDING_MEMORY_ACCESS));
  g_assert_null (ws_findings_find (b, WS_FINDING_MEMORY_ACCESS));
}

/* warpscope-cli diagnose --format json lists it beside the other six. */
static void
test_cli_json (void)
{
  g_autofree char *path = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  const char *argv[] = { ws_test_cli (), "diagnose", "--format", "json", path, NULL };
  g_autofree char *out = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonArray *list;
  gboolean found = FALSE;

  g_assert_cmpint (ws_test_run (argv, &out, NULL), ==, 0);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  list =
    json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "findings");
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonObject *f = json_array_get_object_element (list, i);

      if (g_str_equal (json_object_get_string_member (f, "id"), "memory-access"))
        {
          found = TRUE;
          g_assert_cmpstr (json_object_get_string_member (f, "severity"), ==, "severe");
        }
    }
  g_assert_true (found);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/findings-memory/probe/gpu-metrics", test_probe_gpu_metrics);
  g_test_add_func ("/findings-memory/capture-h200/ncu", test_capture_ncu);
  g_test_add_func ("/findings-memory/not-raised", test_not_raised);
  g_test_add_func ("/findings-memory/cli/diagnose-json", test_cli_json);
  return g_test_run ();
}
