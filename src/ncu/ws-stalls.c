/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-stalls"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-ncu-value.h"
#include "ws-stalls.h"

/* Where the reasons are, in order of preference: the first form of which
 * the launch has a value is the one shown. */
static const struct
{
  WsStallForm form;
  const char *prefix;
  const char *suffix;
  const char *unit;
} forms[] = {
  { WS_STALL_FORM_PER_ISSUE, "smsp__average_warps_issue_stalled_", "_per_issue_active.ratio",
    N_ ("warps/issue") },
  { WS_STALL_FORM_CYCLES, "smsp__warp_cycles_per_issue_stall_", "", N_ ("cycles/issue") },
  { WS_STALL_FORM_WARP_PCT, "smsp__warp_issue_stalled_", "_per_warp_active.pct",
    N_ ("percent of warps") },
  { WS_STALL_FORM_SAMPLES, "smsp__pcsamp_warps_issue_stalled_", "", N_ ("samples") },
  { WS_STALL_FORM_SAMPLES, "smsp__pcsamp_warp_stall_", "", N_ ("samples") },
  /* nvprof's, read only from nvprof results (docs/nvprof.md). */
  { WS_STALL_FORM_NVPROF, "stall_", "", N_ ("percent of stall reasons") },
};

/* What collects the stall reasons the gauges read, in nvprof. */
#define NVPROF_STALLS "--metrics stall_sync,stall_exec_dependency,stall_memory_dependency"

/* What each reason means, after the Nsight Compute Kernel Profiling
 * Guide ("Warp Scheduler States"), in one line. */
static const struct
{
  const char *reason;
  const char *meaning;
  gboolean current; /* reported by the current WarpStateStats section */
} reasons[] = {
  { "barrier", N_ ("waiting for sibling warps at a block barrier (__syncthreads)"), TRUE },
  { "branch_resolving", N_ ("waiting for a branch target to be computed"), TRUE },
  { "dispatch_stall", N_ ("the dispatcher could not issue the selected instruction"), TRUE },
  { "drain", N_ ("after EXIT, waiting for memory writes to drain"), TRUE },
  { "gmma", N_ ("waiting for a warpgroup MMA (wgmma) to be issued"), TRUE },
  { "imc_miss", N_ ("waiting for an immediate constant cache miss"), TRUE },
  { "lg_throttle", N_ ("the local/global memory queue is full: too many memory instructions"),
    TRUE },
  { "long_scoreboard", N_ ("waiting for a global, local, texture or surface memory result (L1TEX)"),
    TRUE },
  { "math_pipe_throttle", N_ ("the math pipe the instruction needs is busy"), TRUE },
  { "membar", N_ ("waiting on a memory barrier (__threadfence)"), TRUE },
  { "mio_throttle",
    N_ ("the memory I/O queue is full: shared memory, special math or dynamic branches"), TRUE },
  { "misc", N_ ("a miscellaneous hardware reason"), TRUE },
  { "no_instruction", N_ ("no instruction fetched: instruction cache miss or a branch"), TRUE },
  { "not_selected", N_ ("ready, but another warp issued: enough parallelism"), TRUE },
  { "selected", N_ ("issued an instruction: not a stall"), TRUE },
  { "short_scoreboard", N_ ("waiting for a shared memory or special math (MIO) result"), TRUE },
  { "sleeping", N_ ("all threads of the warp sleep (nanosleep) or yielded"), TRUE },
  { "tex_throttle", N_ ("the texture queue is full"), TRUE },
  { "wait", N_ ("waiting on a fixed-latency dependency"), TRUE },
  /* Older and sampling-only names. */
  { "no_instructions", N_ ("no instruction fetched: instruction cache miss or a branch"), FALSE },
  { "allocation_stall", N_ ("waiting for a register or resource allocation"), FALSE },
  { "tile_allocation_stall", N_ ("waiting for a tile allocation"), FALSE },
  { "warpgroup_arrive", N_ ("waiting at a warpgroup arrive barrier"), FALSE },
};

/**
 * ws_stall_meaning:
 *
 * Returns: (transfer none) (nullable): what stall @reason means, translated
 */
const char *
ws_stall_meaning (const char *reason)
{
  for (gsize i = 0; i < G_N_ELEMENTS (reasons); i++)
    if (g_str_equal (reasons[i].reason, reason))
      return _ (reasons[i].meaning);
  return NULL;
}

const char *
ws_stall_form_id (WsStallForm form)
{
  switch (form)
    {
      case WS_STALL_FORM_PER_ISSUE:
        return "per-issue";
      case WS_STALL_FORM_CYCLES:
        return "cycles-per-issue";
      case WS_STALL_FORM_WARP_PCT:
        return "pct-of-warps";
      case WS_STALL_FORM_SAMPLES:
        return "samples";
      case WS_STALL_FORM_NVPROF:
        return "nvprof-pct-of-stalls";
      case WS_STALL_FORM_NONE:
      default:
        return "none";
    }
}

/* The reason inside @name for a form, or NULL. */
static char *
reason_of (const char *name, gsize form)
{
  gsize len = strlen (name), pre = strlen (forms[form].prefix), suf = strlen (forms[form].suffix);

  if (len <= pre + suf || !g_str_has_prefix (name, forms[form].prefix) ||
      !g_str_has_suffix (name, forms[form].suffix))
    return NULL;
  /* PC sampling counts each reason twice: all samples and those not issued. */
  if (forms[form].form == WS_STALL_FORM_SAMPLES && g_str_has_suffix (name, "_not_issued"))
    return NULL;
  return g_strndup (name + pre, len - pre - suf);
}

static int
compare_stalls (gconstpointer a, gconstpointer b)
{
  const WsStall *x = a, *y = b;
  gboolean cx = x->metric != NULL, cy = y->metric != NULL;

  if (cx != cy)
    return cx ? -1 : 1;
  if (cx && x->value != y->value)
    return x->value > y->value ? -1 : 1;
  return strcmp (x->reason, y->reason);
}

static void
stall_clear (gpointer data)
{
  WsStall *stall = data;

  g_free (stall->reason);
}

/* The form whose reasons the launch has, filling @stalls with them. */
static void
collect (WsStalls *stalls, const WsNcuResults *results, guint launch)
{
  for (gsize f = 0; f < G_N_ELEMENTS (forms) && stalls->n_collected == 0; f++)
    for (guint i = 0; i < results->metrics->len; i++)
      {
        const WsNcuMetric *m = g_ptr_array_index (results->metrics, i);
        g_autofree char *reason = m->section == NULL ? reason_of (m->name, f) : NULL;
        WsNcuValue v;
        WsStall stall = { 0 };

        if (reason == NULL || (forms[f].form == WS_STALL_FORM_NVPROF) != results->nvprof)
          continue;
        v = ws_ncu_value (results, launch, m->name);
        if (!ws_ncu_value_collected (v) || ws_stalls_find (stalls, reason) != NULL)
          continue;
        stall.reason = g_steal_pointer (&reason);
        stall.metric = m->name;
        stall.value = v.value;
        stall.meaning = ws_stall_meaning (stall.reason);
        g_array_append_val (stalls->stalls, stall);
        stalls->n_collected++;
        stalls->form = forms[f].form;
        stalls->unit = _ (forms[f].unit);
      }
}

/**
 * ws_stalls_compute:
 *
 * Every stall reason @launch holds, in the first form the file has (the order
 * of docs/formats.md, "Warp stalls": per issued instruction, 2019's cycles per
 * issue, % of active warps, then PC samples), largest first with its share of
 * their sum; then, where the file has the current names or none, the reasons
 * of the current WarpStateStats section that it lacks, as not collected.
 *
 * Returns: (transfer full): the stalls; free with ws_stalls_free()
 */
WsStalls *
ws_stalls_compute (const WsNcuResults *results, guint launch)
{
  WsStalls *stalls = g_new0 (WsStalls, 1);
  const WsNcuLaunch *l = ws_ncu_results_launch (results, launch);
  double cc = ws_ncu_launch_compute_capability (results, launch);
  double sum = 0;

  stalls->stalls = g_array_new (FALSE, TRUE, sizeof (WsStall));
  g_array_set_clear_func (stalls->stalls, stall_clear);
  stalls->unit = "";
  /* The details page lists no stall reasons, whatever was collected;
   * nvprof results name nvprof's metrics, never an ncu section. */
  stalls->collect = results->nvprof                   ? NVPROF_STALLS
                    : l->pages == WS_NCU_PAGE_DETAILS ? "--section WarpStateStats --page raw"
                                                      : "--section WarpStateStats";
  collect (stalls, results, launch);

  for (guint i = 0; i < stalls->stalls->len; i++)
    sum += g_array_index (stalls->stalls, WsStall, i).value;
  for (guint i = 0; i < stalls->stalls->len; i++)
    {
      WsStall *s = &g_array_index (stalls->stalls, WsStall, i);

      s->share = sum > 0 ? s->value / sum : 0;
    }

  if (!results->nvprof &&
      (stalls->form == WS_STALL_FORM_NONE || stalls->form == WS_STALL_FORM_PER_ISSUE))
    for (gsize r = 0; r < G_N_ELEMENTS (reasons); r++)
      {
        WsStall stall = { 0 };

        /* gmma exists from Hopper (compute capability 9.0) on. */
        if (!reasons[r].current || ws_stalls_find (stalls, reasons[r].reason) != NULL ||
            (g_str_equal (reasons[r].reason, "gmma") && !(cc >= 9.0)))
          continue;
        stall.reason = g_strdup (reasons[r].reason);
        stall.value = NAN;
        stall.share = NAN;
        stall.meaning = _ (reasons[r].meaning);
        g_array_append_val (stalls->stalls, stall);
      }
  g_array_sort (stalls->stalls, compare_stalls);
  return stalls;
}

void
ws_stalls_free (WsStalls *stalls)
{
  if (stalls == NULL)
    return;
  g_array_unref (stalls->stalls);
  g_free (stalls);
}

/**
 * ws_stalls_find:
 *
 * Returns: (transfer none) (nullable): the stall of that reason
 */
const WsStall *
ws_stalls_find (const WsStalls *stalls, const char *reason)
{
  for (guint i = 0; i < stalls->stalls->len; i++)
    {
      const WsStall *s = &g_array_index (stalls->stalls, WsStall, i);

      if (g_str_equal (s->reason, reason))
        return s;
    }
  return NULL;
}

/**
 * ws_stalls_top:
 *
 * Returns: (transfer none) (nullable): the largest collected reason that
 * is a stall ("selected" issued, "not_selected" was ready), or %NULL
 */
const WsStall *
ws_stalls_top (const WsStalls *stalls)
{
  for (guint i = 0; i < stalls->n_collected; i++)
    {
      const WsStall *s = &g_array_index (stalls->stalls, WsStall, i);

      if (!g_str_equal (s->reason, "selected") && !g_str_equal (s->reason, "not_selected"))
        return s;
    }
  return NULL;
}
