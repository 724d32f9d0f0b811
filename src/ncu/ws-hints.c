/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-hints"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-format.h"
#include "ws-hints.h"

static void
hint_free (gpointer data)
{
  WsHint *hint = data;

  g_free (hint->title);
  g_free (hint->evidence);
  g_free (hint);
}

static void
add (GPtrArray *hints, const char *id, char *title, char *evidence, const char *fix)
{
  WsHint *hint = g_new0 (WsHint, 1);

  hint->id = id;
  hint->title = title;
  hint->evidence = evidence;
  hint->fix = fix;
  g_ptr_array_add (hints, hint);
}

/**
 * ws_kernel_name_arch:
 *
 * Returns: the architecture a kernel's name says it was built for, as
 * compute capability × 10 (75 for "cutlass_75_tensorop…", "sm80_xmma…",
 * "turing_fp16_s1688gemm…", 90 for "nvjet_sm90_…"), or 0
 */
int
ws_kernel_name_arch (const char *name)
{
  static const struct
  {
    const char *word;
    int arch;
  } words[] = {
    { "maxwell_", 52 }, { "pascal_", 60 }, { "volta_", 70 },  { "turing_", 75 },
    { "ampere_", 80 },  { "ada_", 89 },    { "hopper_", 90 }, { "blackwell_", 100 },
  };
  g_autoptr (GRegex) regex = NULL;
  g_autoptr (GMatchInfo) match = NULL;

  if (name == NULL)
    return 0;
  regex = g_regex_new ("(?:^|[^a-z0-9])(?:cutlass_|sm_?)([0-9]{2,3})(?=[_a-z])", 0, 0, NULL);
  if (g_regex_match (regex, name, 0, &match))
    {
      g_autofree char *digits = g_match_info_fetch (match, 1);

      return (int) g_ascii_strtoll (digits, NULL, 10);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (words); i++)
    {
      const char *at = strstr (name, words[i].word);

      if (at != NULL && (at == name || !g_ascii_isalnum (at[-1])))
        return words[i].arch;
    }
  return 0;
}

static gboolean
name_has_tensor_op (const char *name)
{
  static const char *const marks[] = {
    "tensorop", "s1688", "s16816", "s884", "hmma", "imma", "gmma"
  };

  for (gsize i = 0; i < G_N_ELEMENTS (marks); i++)
    if (strstr (name, marks[i]) != NULL)
      return TRUE;
  return FALSE;
}

static void
old_arch (GPtrArray *hints, const WsNcuResults *results, guint launch, const WsRoofline *roofline)
{
  const char *name = ws_ncu_results_launch (results, launch)->kernel;
  double cc = ws_ncu_launch_compute_capability (results, launch);
  int arch = ws_kernel_name_arch (name);
  WsNcuValue tensor = ws_ncu_value (
    results, launch, "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active");
  g_autofree char *cc_text = NULL;
  GString *evidence;

  if (arch == 0 || isnan (cc) || arch >= (int) round (cc * 10) ||
      !(name_has_tensor_op (name) || tensor.value >= 1))
    return;
  cc_text = ws_format_fixed_string (cc, 1);
  evidence = g_string_new (NULL);
  /* TRANSLATORS: "built for sm_75, running on compute capability 9.0" */
  g_string_append_printf (evidence, _ ("built for sm_%d, running on compute capability %s"), arch,
                          cc_text);
  if (roofline != NULL && roofline->tensor_path != NULL && !isnan (roofline->tensor_path_peak) &&
      roofline->tensor_path_peak < roofline->peak[WS_PRECISION_TENSOR].value)
    {
      g_autofree char *path_peak = ws_format_rate (roofline->tensor_path_peak, "FLOP/s");
      g_autofree char *peak = ws_format_rate (roofline->peak[WS_PRECISION_TENSOR].value, "FLOP/s");
      g_autofree char *path = g_ascii_strup (roofline->tensor_path, -1);

      /* TRANSLATORS: "; its tensor work takes the HMMA path (517 TFLOP/s at this clock) where this GPU's fastest reaches 776 TFLOP/s" */
      g_string_append_printf (evidence,
                              _ ("; its tensor work takes the %s path (%s at this clock) where "
                                 "this GPU's fastest reaches %s"),
                              path, path_peak, peak);
    }
  add (hints, WS_HINT_OLD_ARCH, g_strdup (_ ("A tensor-core kernel built for an older GPU")),
       g_string_free (evidence, FALSE),
       _ ("Such kernels are picked when shapes or alignment rule out this GPU's own (see the "
          "alignment hint), or by an old library: pad the shapes, update cuBLAS, CUTLASS or "
          "PyTorch."));
}

static void
alignment (GPtrArray *hints, const WsNcuResults *results, guint launch,
           const WsMemoryWorkload *memory)
{
  const char *name = ws_ncu_results_launch (results, launch)->kernel;
  g_autoptr (GRegex) regex = g_regex_new ("align([12])(?![0-9])", 0, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  g_autofree char *n = NULL;
  GString *evidence;
  double spr = ws_memory_load_sectors_per_request (memory);

  if (name == NULL || !g_regex_match (regex, name, 0, &match))
    return;
  n = g_match_info_fetch (match, 1);
  evidence = g_string_new (NULL);
  /* TRANSLATORS: "“align1” in the name: operands aligned to 1 element" */
  g_string_append_printf (evidence, _ ("“align%s” in the name: operands aligned to %s element(s)"),
                          n, n);
  if (!isnan (spr))
    {
      g_autofree char *v = ws_format_fixed_string (spr, 1);

      g_string_append_printf (evidence, _ ("; global loads take %s sectors per request"), v);
    }
  add (hints, WS_HINT_ALIGNMENT,
       g_strdup (_ ("A GEMM dimension is not a multiple of 8: narrow, unaligned loads")),
       g_string_free (evidence, FALSE),
       _ ("Pad the dimension to a multiple of 8 for FP16/BF16 (4 for FP32), e.g. a vocabulary "
          "of 50,257 to 50,304, so that 16-byte aligned kernels qualify."));
}

static void
uncoalesced (GPtrArray *hints, const WsMemoryWorkload *memory)
{
  double excessive = ws_memory_excessive_pct (memory);
  double load = ws_memory_load_sectors_per_request (memory);
  double store = ws_memory_store_sectors_per_request (memory);
  g_autofree char *l = isnan (load) ? g_strdup ("–") : ws_format_fixed_string (load, 1);
  g_autofree char *s = isnan (store) ? g_strdup ("–") : ws_format_fixed_string (store, 1);
  char *evidence;

  if (!isnan (excessive))
    {
      g_autofree char *e = NULL;

      if (excessive < WS_HINT_EXCESSIVE_PCT)
        return;
      e = ws_format_percent_short (excessive);
      /* TRANSLATORS: "global loads 32.0 and stores 4.0 sectors per request; 77.8% of the global sectors were not needed" */
      evidence = g_strdup_printf (_ ("global loads %s and stores %s sectors per request; %s of "
                                     "the global sectors were not needed"),
                                  l, s, e);
    }
  else if (load > WS_HINT_SECTORS_PER_REQUEST || store > WS_HINT_SECTORS_PER_REQUEST)
    evidence = g_strdup_printf (_ ("global loads %s and stores %s sectors per request, more than "
                                   "any 16-byte access needs (%d)"),
                                l, s, WS_HINT_SECTORS_PER_REQUEST);
  else
    return;
  add (hints, WS_HINT_UNCOALESCED, g_strdup (_ ("Uncoalesced global memory access")), evidence,
       _ ("Let consecutive threads touch consecutive addresses: change the data layout, "
          "transpose through shared memory, or load vectors."));
}

static void
bank_conflicts (GPtrArray *hints, const WsMemoryWorkload *memory)
{
  double conflicts = ws_memory_bank_conflict_pct (memory);
  g_autofree char *c = NULL;
  g_autofree char *w = NULL;
  g_autofree char *p = NULL;

  if (isnan (conflicts) || conflicts < WS_HINT_CONFLICT_PCT)
    return;
  c = ws_format_fixed_string (memory->bank_conflicts.value, 0);
  w = ws_format_fixed_string (memory->shared_wavefronts.value, 0);
  p = ws_format_percent_short (conflicts);
  add (hints, WS_HINT_BANK_CONFLICTS, g_strdup (_ ("Shared-memory bank conflicts")),
       /* TRANSLATORS: "548097 bank conflicts in 1038420 shared-memory wavefronts (52.8%)" */
       g_strdup_printf (_ ("%s bank conflicts in %s shared-memory wavefronts (%s)"), c, w, p),
       _ ("Pad shared arrays (a row of 33 words instead of 32) or swizzle the index, so that "
          "a warp's threads hit different banks."));
}

static void
registers (GPtrArray *hints, const WsOccupancy *occupancy)
{
  if (!(occupancy->limiters & (1u << WS_OCC_LIMIT_REGISTERS)) ||
      !ws_ncu_value_collected (occupancy->theoretical) ||
      occupancy->theoretical.value >= WS_HINT_OCCUPANCY_PCT || occupancy->text == NULL)
    return;
  add (hints, WS_HINT_REGISTERS, g_strdup (_ ("Occupancy limited by registers")),
       g_strdup (occupancy->text),
       _ ("If more warps would hide the stalls, cap the registers (__launch_bounds__, "
          "-maxrregcount) or use smaller tiles; a GEMM can run well at low occupancy."));
}

static void
small_grid (GPtrArray *hints, const WsOccupancy *o)
{
  double waves = o->waves.value;

  if (ws_ncu_value_collected (o->grid_size) && ws_ncu_value_collected (o->sm_count) &&
      o->grid_size.value < o->sm_count.value)
    {
      add (hints, WS_HINT_SMALL_GRID, g_strdup (_ ("Fewer blocks than SMs")),
           /* TRANSLATORS: "1 block for 132 SMs" */
           g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%.0f block for %.0f SMs",
                                         "%.0f blocks for %.0f SMs", (gulong) o->grid_size.value),
                            o->grid_size.value, o->sm_count.value),
           _ ("Give the GPU more blocks: split the work finer, batch small launches, or run "
              "independent kernels on several streams."));
      return;
    }
  if (ws_ncu_value_collected (o->waves) && waves >= 1 && waves - floor (waves) > 0 &&
      (1 - (waves - floor (waves))) / ceil (waves) >= WS_HINT_TAIL_IDLE)
    {
      g_autofree char *w = ws_format_fixed_string (waves, 2);
      g_autofree char *fill = ws_format_percent_short (100 * (waves - floor (waves)));
      g_autofree char *idle =
        ws_format_percent_short (100 * (1 - (waves - floor (waves))) / ceil (waves));

      add (
        hints, WS_HINT_TAIL, g_strdup (_ ("A mostly empty last wave (tail effect)")),
        /* TRANSLATORS: "1.20 waves per SM: the last of 2 waves is 20% full, up to 40% of the block slots idle" */
        g_strdup_printf (_ ("%s waves per SM: the last of %.0f waves is %s full, up to %s of "
                            "the block slots idle"),
                         w, ceil (waves), fill, idle),
        _ ("Choose a block count that fills whole waves (a multiple of SMs × blocks per SM), "
           "or smaller blocks."));
    }
}

/**
 * ws_hints_compute:
 * @roofline: (nullable): for the tensor path of the old-architecture hint
 *
 * Returns: (transfer full) (element-type WsHint): the hints whose rule
 * fires, in the order of docs/why-slow.md
 */
GPtrArray *
ws_hints_compute (const WsNcuResults *results, guint launch, const WsMemoryWorkload *memory,
                  const WsOccupancy *occupancy, const WsRoofline *roofline)
{
  GPtrArray *hints = g_ptr_array_new_with_free_func (hint_free);

  old_arch (hints, results, launch, roofline);
  alignment (hints, results, launch, memory);
  uncoalesced (hints, memory);
  bank_conflicts (hints, memory);
  registers (hints, occupancy);
  small_grid (hints, occupancy);
  return hints;
}

/**
 * ws_hints_find:
 *
 * Returns: (transfer none) (nullable): the hint of that id
 */
const WsHint *
ws_hints_find (GPtrArray *hints, const char *id)
{
  for (guint i = 0; i < hints->len; i++)
    {
      const WsHint *hint = g_ptr_array_index (hints, i);

      if (g_str_equal (hint->id, id))
        return hint;
    }
  return NULL;
}
