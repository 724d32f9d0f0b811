/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-occupancy"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-format.h"
#include "ws-occupancy.h"

static const char *const limit_metrics[WS_N_OCC_LIMITS] = {
  "launch__occupancy_limit_registers", "launch__occupancy_limit_shared_mem",
  "launch__occupancy_limit_warps",     "launch__occupancy_limit_blocks",
  "launch__occupancy_limit_barriers",
};

/* The product of a "(256, 1, 1)" launch dimension; 0 when unreadable. */
static double
dim_product (const char *dim)
{
  double product = 1;
  const char *p = dim;
  int n = 0;

  if (dim == NULL)
    return 0;
  while (*p != '\0')
    {
      char *end;
      gint64 v;

      while (*p != '\0' && !g_ascii_isdigit (*p))
        p++;
      if (*p == '\0')
        break;
      v = g_ascii_strtoll (p, &end, 10);
      product *= (double) v;
      n++;
      p = end;
    }
  return n > 0 ? product : 0;
}

static char *
cause_text (const WsOccupancy *o)
{
  switch (o->limiter)
    {
      case WS_OCC_LIMIT_REGISTERS:
        if (ws_ncu_value_collected (o->registers))
          /* TRANSLATORS: the start of "254 registers per thread: 2 blocks of 128 threads per SM, 12.5%" */
          return g_strdup_printf (_ ("%.0f registers per thread"), o->registers.value);
        return g_strdup (_ ("registers"));
      case WS_OCC_LIMIT_SHARED_MEM:
        if (ws_ncu_value_collected (o->shared_per_block))
          {
            g_autofree char *bytes = ws_format_bytes (o->shared_per_block.value);

            return g_strdup_printf (_ ("%s of shared memory per block"), bytes);
          }
        return g_strdup (_ ("shared memory"));
      case WS_OCC_LIMIT_WARPS:
        if (ws_ncu_value_collected (o->max_warps))
          return g_strdup_printf (_ ("the SM's %.0f warps"), o->max_warps.value);
        return g_strdup (_ ("the SM's warps"));
      case WS_OCC_LIMIT_BLOCKS:
        return g_strdup_printf (_ ("the SM's limit of %.0f blocks"),
                                o->limit[WS_OCC_LIMIT_BLOCKS].value);
      case WS_OCC_LIMIT_BARRIERS:
        return g_strdup (_ ("barriers"));
      default:
        return NULL;
    }
}

static void
describe (WsOccupancy *o)
{
  g_autofree char *cause = cause_text (o);
  g_autofree char *pct =
    ws_ncu_value_collected (o->theoretical) ? ws_format_percent_short (o->theoretical.value) : NULL;
  g_autofree char *blocks = NULL;

  if (cause == NULL)
    return;
  if (ws_ncu_value_collected (o->block_size))
    blocks = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u block of %.0f threads per SM",
                                           "%u blocks of %.0f threads per SM", o->blocks_per_sm),
                              o->blocks_per_sm, o->block_size.value);
  else
    blocks = g_strdup_printf (
      g_dngettext (GETTEXT_PACKAGE, "%u block per SM", "%u blocks per SM", o->blocks_per_sm),
      o->blocks_per_sm);
  /* TRANSLATORS: "254 registers per thread: 2 blocks of 128 threads per SM, 12.5%" */
  o->text = pct != NULL ? g_strdup_printf (_ ("%s: %s, %s"), cause, blocks, pct)
                        : g_strdup_printf (_ ("%s: %s"), cause, blocks);
  /* Other resources that allow no more blocks either. */
  {
    GString *others = g_string_new (NULL);
    guint n = 0;

    for (int i = 0; i < WS_N_OCC_LIMITS; i++)
      if (i != o->limiter && (o->limiters & (1u << i)))
        {
          if (others->len > 0)
            g_string_append (others, _ (" and "));
          g_string_append (others, ws_occupancy_limit_label ((WsOccupancyLimit) i));
          n++;
        }
    if (n > 0)
      {
        char *text = g_strdup_printf (
          /* TRANSLATORS: "229 registers per thread: 1 block of 256 threads per SM, 12.5% (shared memory allows no more)" */
          g_dngettext (GETTEXT_PACKAGE, "%s (%s allows no more)", "%s (%s allow no more)", n),
          o->text, others->str);

        g_free (o->text);
        o->text = text;
      }
    g_string_free (others, TRUE);
  }
}

/**
 * ws_occupancy_compute:
 *
 * Fills @occupancy: the achieved and theoretical occupancy, the blocks
 * per SM each resource allows, and the limiter with its numbers.  Clear
 * with ws_occupancy_clear().
 */
void
ws_occupancy_compute (const WsNcuResults *results, guint launch, WsOccupancy *o)
{
  const WsNcuLaunch *l = ws_ncu_results_launch (results, launch);
  WsNcuValue theoretical_warps;
  double fewest = INFINITY;

  memset (o, 0, sizeof *o);
  o->limiter = -1;
  o->achieved =
    ws_ncu_value_first (results, launch,
                        WS_NCU_METRICS ("sm__warps_active.avg.pct_of_peak_sustained_active",
                                        "sm__active_warps_avg_per_active_cycle_pct"));
  o->theoretical = ws_ncu_value (results, launch, "sm__maximum_warps_per_active_cycle_pct");
  for (int i = 0; i < WS_N_OCC_LIMITS; i++)
    o->limit[i] = ws_ncu_value (results, launch, limit_metrics[i]);
  o->registers = ws_ncu_value (results, launch, "launch__registers_per_thread");
  o->shared_per_block = ws_ncu_value (results, launch, "launch__shared_mem_per_block");
  o->block_size = ws_ncu_value (results, launch, "launch__block_size");
  if (!ws_ncu_value_collected (o->block_size) && dim_product (l->block) > 0)
    o->block_size = ws_ncu_value_make (dim_product (l->block), "Block Size");
  o->grid_size = ws_ncu_value (results, launch, "launch__grid_size");
  if (!ws_ncu_value_collected (o->grid_size) && dim_product (l->grid) > 0)
    o->grid_size = ws_ncu_value_make (dim_product (l->grid), "Grid Size");
  o->sm_count = ws_ncu_value_first (
    results, launch, WS_NCU_METRICS ("launch__sm_count", "device__attribute_multiprocessor_count"));
  o->waves = ws_ncu_value (results, launch, "launch__waves_per_multiprocessor");
  o->max_warps = ws_ncu_value (results, launch, "device__attribute_max_warps_per_multiprocessor");
  /* The details page has no device attributes: theoretical warps over
   * theoretical occupancy give the SM's warps. */
  theoretical_warps = ws_ncu_value (results, launch, "sm__maximum_warps_avg_per_active_cycle");
  if (!ws_ncu_value_collected (o->max_warps) && ws_ncu_value_collected (theoretical_warps) &&
      ws_ncu_value_collected (o->theoretical) && o->theoretical.value > 0)
    o->max_warps = ws_ncu_value_make (
      round (theoretical_warps.value * 100.0 / o->theoretical.value),
      "sm__maximum_warps_avg_per_active_cycle / sm__maximum_warps_per_active_cycle_pct");

  for (int i = 0; i < WS_N_OCC_LIMITS; i++)
    if (ws_ncu_value_collected (o->limit[i]) && o->limit[i].value < fewest)
      {
        fewest = o->limit[i].value;
        o->limiter = i;
      }
  for (int i = 0; i < WS_N_OCC_LIMITS; i++)
    if (ws_ncu_value_collected (o->limit[i]) && o->limit[i].value == fewest)
      o->limiters |= 1u << i;
  if (o->limiter >= 0)
    o->blocks_per_sm = (guint) fewest;
  if (ws_ncu_value_collected (o->block_size))
    o->warps_per_block = (guint) ceil (o->block_size.value / 32.0);
  describe (o);
}

void
ws_occupancy_clear (WsOccupancy *occupancy)
{
  g_clear_pointer (&occupancy->text, g_free);
}

const char *
ws_occupancy_limit_id (WsOccupancyLimit limit)
{
  static const char *const ids[WS_N_OCC_LIMITS] = { "registers", "shared_mem", "warps", "blocks",
                                                    "barriers" };

  g_return_val_if_fail (limit < WS_N_OCC_LIMITS, "");
  return ids[limit];
}

const char *
ws_occupancy_limit_label (WsOccupancyLimit limit)
{
  static const char *const labels[WS_N_OCC_LIMITS] = { N_ ("registers"), N_ ("shared memory"),
                                                       N_ ("warps"), N_ ("blocks"),
                                                       N_ ("barriers") };

  g_return_val_if_fail (limit < WS_N_OCC_LIMITS, "");
  return _ (labels[limit]);
}
