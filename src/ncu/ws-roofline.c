/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-roofline"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-ncu-value.h"
#include "ws-roofline.h"

/* The clocks the figures are per cycle of (all in the CSV as Hz). */
#define SMSP_HZ "smsp__cycles_elapsed.avg.per_second"
#define SM_HZ "sm__cycles_elapsed.avg.per_second"
#define L1_HZ "l1tex__cycles_elapsed.avg.per_second"
#define L2_HZ "lts__cycles_elapsed.avg.per_second"
#define DRAM_HZ "dram__cycles_elapsed.avg.per_second"

/* FLOPs per thread instruction of each SASS operation that Nsight
 * Compute's roofline counts: an FMA is two operations, a half2
 * instruction works on two halves. */
static const struct
{
  const char *add, *mul, *fma;
  double add_flops, mul_flops, fma_flops;
  const char *peak; /* the FMA's peak thread instructions per cycle */
} sass[] = {
  [WS_PRECISION_FP64] = { "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum.per_cycle_elapsed",
                          "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum.per_cycle_elapsed",
                          "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum.per_cycle_elapsed",
                          1, 1, 2,
                          "sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained" },
  [WS_PRECISION_FP32] = { "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed",
                          "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum.per_cycle_elapsed",
                          "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed",
                          1, 1, 2,
                          "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained" },
  [WS_PRECISION_FP16] = { "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum.per_cycle_elapsed",
                          "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum.per_cycle_elapsed",
                          "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum.per_cycle_elapsed",
                          2, 2, 4,
                          "sm__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained" },
};

/* Tensor work by input type (floating point only; the integer paths
 * count operations, not FLOPs). */
static const char *const tensor_sources[] = {
  "bf16_dst_fp32", "fp16", "tf32_dst_fp32", "fp64", "fp8_sparsity_off", "fp8_sparsity_on",
};

/* Bytes per second moved at each level, and the level's peak bytes per
 * cycle with the clock it runs at: Nsight Compute's hierarchical roofline. */
static const struct
{
  const char *traffic[3];
  const char *peak;
  const char *hz;
} levels[] = {
  [WS_LEVEL_L1] = { { "derived__l1tex__lsu_writeback_bytes_mem_lgds.sum.per_second",
                      "l1tex__t_bytes.sum.per_second" },
                    "derived__l1tex__lsu_writeback_bytes_mem_lgds.sum.peak_sustained",
                    L1_HZ },
  [WS_LEVEL_L2] = { { "derived__lts__lts2xbar_bytes.sum.per_second",
                      "lts__t_bytes.sum.per_second" },
                    "derived__lts__lts2xbar_bytes.sum.peak_sustained",
                    L2_HZ },
  [WS_LEVEL_DRAM] = { { "dram__bytes.sum.per_second" }, "dram__bytes.sum.peak_sustained", DRAM_HZ },
};

static void
set (WsRoofValue *out, double value, char *source)
{
  out->value = value;
  g_free (out->source);
  out->source = source;
}

/* (add + mul + 2 × fma) per cycle × the SMSP clock; the peak is the FMA's
 * peak per cycle × its FLOPs × the SM clock. */
static void
sass_flops (WsRoofline *r, const WsNcuResults *results, guint launch, WsPrecision p)
{
  WsNcuValue add = ws_ncu_value (results, launch, sass[p].add);
  WsNcuValue mul = ws_ncu_value (results, launch, sass[p].mul);
  WsNcuValue fma = ws_ncu_value (results, launch, sass[p].fma);
  WsNcuValue hz = ws_ncu_value (results, launch, SMSP_HZ);
  WsNcuValue peak = ws_ncu_value (results, launch, sass[p].peak);
  WsNcuValue sm_hz = ws_ncu_value (results, launch, SM_HZ);

  if (ws_ncu_value_collected (add) && ws_ncu_value_collected (mul) &&
      ws_ncu_value_collected (fma) && ws_ncu_value_collected (hz))
    set (&r->achieved[p],
         (sass[p].add_flops * add.value + sass[p].mul_flops * mul.value +
          sass[p].fma_flops * fma.value) *
           hz.value,
         g_strdup_printf ("(%g × %s + %g × %s + %g × %s) × %s", sass[p].add_flops, add.metric,
                          sass[p].mul_flops, mul.metric, sass[p].fma_flops, fma.metric, hz.metric));
  if (ws_ncu_value_collected (peak) && ws_ncu_value_collected (sm_hz))
    set (&r->peak[p], sass[p].fma_flops * peak.value * sm_hz.value,
         g_strdup_printf ("%g × %s × %s", sass[p].fma_flops, peak.metric, sm_hz.metric));
}

/* The dense peak of tensor work on @type ("bf16"): the fastest
 * instruction path (HMMA, HGMMA, …) without sparsity; the aggregate
 * sm__ops_path_tensor_src_* peaks count 2:4 sparsity where it exists. */
static WsNcuValue
tensor_peak (const WsNcuResults *results, guint launch, const char *type)
{
  g_autofree char *src = g_strdup_printf ("_src_%s", type);
  WsNcuValue best = WS_NCU_VALUE_NONE;

  for (guint i = 0; i < results->metrics->len; i++)
    {
      const WsNcuMetric *m = g_ptr_array_index (results->metrics, i);
      WsNcuValue v;

      if (!g_str_has_prefix (m->name, "sm__ops_path_tensor_op_") ||
          !g_str_has_suffix (m->name, ".sum.peak_sustained") || strstr (m->name, src) == NULL ||
          strstr (m->name, "sparsity_on") != NULL)
        continue;
      v = ws_ncu_value (results, launch, m->name);
      if (ws_ncu_value_collected (v) && (!ws_ncu_value_collected (best) || v.value > best.value))
        best = v;
    }
  if (ws_ncu_value_collected (best))
    return best;
  /* Types without per-path counters (fp64, fp8) have the aggregate only. */
  for (gsize i = 0; i < G_N_ELEMENTS (tensor_sources); i++)
    if (g_str_has_prefix (tensor_sources[i], type) &&
        strstr (tensor_sources[i], "sparsity_on") == NULL)
      {
        g_autofree char *name =
          g_strdup_printf ("sm__ops_path_tensor_src_%s.sum.peak_sustained", tensor_sources[i]);
        const WsNcuMetric *m = ws_ncu_results_find_metric (results, name);

        if (m != NULL)
          return ws_ncu_value (results, launch, m->name);
      }
  return WS_NCU_VALUE_NONE;
}

/* The instruction path ("hmma", "hgmma", …) that did the most tensor
 * work on @type, with its peak operations per cycle; NULL if none did. */
static char *
tensor_path (const WsNcuResults *results, guint launch, const char *type, double *peak)
{
  static const char prefix[] = "sm__ops_path_tensor_op_";
  g_autofree char *src = g_strdup_printf ("_src_%s", type);
  double most = 0;
  char *path = NULL;

  *peak = NAN;
  for (guint i = 0; i < results->metrics->len; i++)
    {
      const WsNcuMetric *m = g_ptr_array_index (results->metrics, i);
      const char *kind = m->name + strlen (prefix);
      const char *end = strstr (m->name, src);
      g_autofree char *peak_name = NULL;
      const WsNcuMetric *peak_metric;
      WsNcuValue v;

      if (!g_str_has_prefix (m->name, prefix) || !g_str_has_suffix (m->name, ".sum") ||
          end == NULL || end <= kind)
        continue;
      v = ws_ncu_value (results, launch, m->name);
      if (!ws_ncu_value_collected (v) || v.value <= most)
        continue;
      most = v.value;
      g_free (path);
      path = g_strndup (kind, end - kind);
      peak_name = g_strdup_printf ("%s.peak_sustained", m->name);
      peak_metric = ws_ncu_results_find_metric (results, peak_name);
      *peak = peak_metric != NULL ? ws_ncu_value (results, launch, peak_metric->name).value : NAN;
    }
  return path;
}

static void
tensor_flops (WsRoofline *r, const WsNcuResults *results, guint launch)
{
  WsNcuValue sm_hz = ws_ncu_value (results, launch, SM_HZ);
  GString *source = g_string_new (NULL);
  double sum = 0, most = -1;
  gboolean any = FALSE;
  WsNcuValue peak;
  g_autofree char *type = NULL;

  for (gsize i = 0; i < G_N_ELEMENTS (tensor_sources); i++)
    {
      g_autofree char *name =
        g_strdup_printf ("sm__ops_path_tensor_src_%s.sum.per_second", tensor_sources[i]);
      const WsNcuMetric *m = ws_ncu_results_find_metric (results, name);
      WsNcuValue v = m != NULL ? ws_ncu_value (results, launch, m->name) : WS_NCU_VALUE_NONE;

      if (!ws_ncu_value_collected (v))
        continue;
      g_string_append_printf (source, "%s%s", any ? " + " : "", v.metric);
      any = TRUE;
      sum += v.value;
      if (v.value > most)
        {
          most = v.value;
          r->tensor_source = tensor_sources[i];
        }
    }
  if (any)
    set (&r->achieved[WS_PRECISION_TENSOR], sum, g_string_free (g_steal_pointer (&source), FALSE));
  else
    g_string_free (source, TRUE);
  if (most <= 0)
    r->tensor_source = NULL;

  /* The ceiling of the type that did the work; bf16 when nothing did. */
  type = g_strdup (r->tensor_source != NULL ? r->tensor_source : "bf16");
  if (strchr (type, '_') != NULL)
    *strchr (type, '_') = '\0';
  peak = tensor_peak (results, launch, type);
  if (ws_ncu_value_collected (peak) && ws_ncu_value_collected (sm_hz))
    set (&r->peak[WS_PRECISION_TENSOR], peak.value * sm_hz.value,
         g_strdup_printf ("%s × %s", peak.metric, sm_hz.metric));
  if (r->tensor_source != NULL && ws_ncu_value_collected (sm_hz))
    {
      double per_cycle;

      r->tensor_path = tensor_path (results, launch, type, &per_cycle);
      r->tensor_path_peak = per_cycle * sm_hz.value;
    }
}

static void
memory_levels (WsRoofline *r, const WsNcuResults *results, guint launch)
{
  for (int l = 0; l < WS_N_LEVELS; l++)
    {
      WsNcuValue traffic = ws_ncu_value_first (results, launch, levels[l].traffic);
      WsNcuValue peak = ws_ncu_value (results, launch, levels[l].peak);
      WsNcuValue hz = ws_ncu_value (results, launch, levels[l].hz);

      if (ws_ncu_value_collected (traffic))
        set (&r->traffic[l], traffic.value, g_strdup (traffic.metric));
      if (ws_ncu_value_collected (peak) && ws_ncu_value_collected (hz))
        set (&r->bandwidth[l], peak.value * hz.value,
             g_strdup_printf ("%s × %s", peak.metric, hz.metric));
    }
}

/**
 * ws_roofline_compute:
 *
 * Returns: (transfer full): @launch's roofline; figures the file lacks
 * are NaN with no source
 */
WsRoofline *
ws_roofline_compute (const WsNcuResults *results, guint launch)
{
  WsRoofline *r = g_new0 (WsRoofline, 1);

  for (int p = 0; p < WS_N_PRECISIONS; p++)
    r->achieved[p].value = r->peak[p].value = NAN;
  for (int l = 0; l < WS_N_LEVELS; l++)
    r->traffic[l].value = r->bandwidth[l].value = NAN;
  r->tensor_path_peak = NAN;
  r->duration = ws_ncu_value (results, launch, "gpu__time_duration.sum").value;

  for (int p = WS_PRECISION_FP64; p <= WS_PRECISION_FP16; p++)
    sass_flops (r, results, launch, (WsPrecision) p);
  tensor_flops (r, results, launch);
  memory_levels (r, results, launch);
  return r;
}

void
ws_roofline_free (WsRoofline *roofline)
{
  if (roofline == NULL)
    return;
  for (int p = 0; p < WS_N_PRECISIONS; p++)
    {
      g_free (roofline->achieved[p].source);
      g_free (roofline->peak[p].source);
    }
  for (int l = 0; l < WS_N_LEVELS; l++)
    {
      g_free (roofline->traffic[l].source);
      g_free (roofline->bandwidth[l].source);
    }
  g_free (roofline->tensor_path);
  g_free (roofline);
}

/* FLOP/s over all precisions collected; NaN when none was. */
double
ws_roofline_flops (const WsRoofline *roofline)
{
  double sum = 0;
  gboolean any = FALSE;

  for (int p = 0; p < WS_N_PRECISIONS; p++)
    if (!isnan (roofline->achieved[p].value))
      {
        sum += roofline->achieved[p].value;
        any = TRUE;
      }
  return any ? sum : NAN;
}

/* FLOPs per byte moved at @level; NaN without both, +inf without traffic. */
double
ws_roofline_intensity (const WsRoofline *roofline, WsMemoryLevel level)
{
  double flops = ws_roofline_flops (roofline);
  double bytes = roofline->traffic[level].value;

  if (isnan (flops) || isnan (bytes))
    return NAN;
  return bytes > 0 ? flops / bytes : INFINITY;
}

/* The precision that did the most FLOPs (FP32 when none did). */
WsPrecision
ws_roofline_main_precision (const WsRoofline *roofline)
{
  WsPrecision best = WS_PRECISION_FP32;
  double most = 0;

  for (int p = 0; p < WS_N_PRECISIONS; p++)
    if (roofline->achieved[p].value > most)
      {
        most = roofline->achieved[p].value;
        best = (WsPrecision) p;
      }
  return best;
}

/* FLOPs per byte where @level's bandwidth meets @precision's ceiling. */
double
ws_roofline_ridge (const WsRoofline *roofline, WsPrecision precision, WsMemoryLevel level)
{
  return roofline->peak[precision].value / roofline->bandwidth[level].value;
}

const char *
ws_precision_id (WsPrecision precision)
{
  static const char *const ids[WS_N_PRECISIONS] = { "fp64", "fp32", "fp16", "tensor" };

  g_return_val_if_fail (precision < WS_N_PRECISIONS, "");
  return ids[precision];
}

const char *
ws_precision_label (WsPrecision precision)
{
  static const char *const labels[WS_N_PRECISIONS] = { N_ ("FP64"), N_ ("FP32"), N_ ("FP16/BF16"),
                                                       N_ ("Tensor") };

  g_return_val_if_fail (precision < WS_N_PRECISIONS, "");
  return _ (labels[precision]);
}

const char *
ws_memory_level_id (WsMemoryLevel level)
{
  static const char *const ids[WS_N_LEVELS] = { "l1", "l2", "dram" };

  g_return_val_if_fail (level < WS_N_LEVELS, "");
  return ids[level];
}

const char *
ws_memory_level_label (WsMemoryLevel level)
{
  static const char *const labels[WS_N_LEVELS] = { N_ ("L1"), N_ ("L2"), N_ ("DRAM") };

  g_return_val_if_fail (level < WS_N_LEVELS, "");
  return _ (labels[level]);
}
