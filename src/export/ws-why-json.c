/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-why-json"
#include "config.h"

#include <math.h>

#include "ws-why-json.h"

/* The objects `warpscope-cli gauges --format json` adds to each launch:
 * every figure with the metric (or the arithmetic on metrics) it comes
 * from, null where not collected. */

static void
add_number (JsonBuilder *b, const char *member, double value)
{
  json_builder_set_member_name (b, member);
  if (isfinite (value))
    json_builder_add_double_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_string (JsonBuilder *b, const char *member, const char *value)
{
  json_builder_set_member_name (b, member);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

/* {"value": 96.45, "metric": "l1tex__throughput…"} */
static void
add_value (JsonBuilder *b, const char *member, double value, const char *source)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_object (b);
  add_number (b, "value", source != NULL ? value : NAN);
  add_string (b, "metric", source);
  json_builder_end_object (b);
}

static void
add_ncu_value (JsonBuilder *b, const char *member, WsNcuValue v)
{
  add_value (b, member, v.value, v.metric);
}

static void
add_stalls (JsonBuilder *b, const WsStalls *stalls)
{
  json_builder_set_member_name (b, "stalls");
  json_builder_begin_object (b);
  add_string (b, "form", ws_stall_form_id (stalls->form));
  add_string (b, "unit", stalls->unit);
  json_builder_set_member_name (b, "reasons");
  json_builder_begin_array (b);
  for (guint i = 0; i < stalls->stalls->len; i++)
    {
      const WsStall *s = &g_array_index (stalls->stalls, WsStall, i);

      json_builder_begin_object (b);
      add_string (b, "reason", s->reason);
      add_number (b, "value", s->value);
      add_number (b, "share_pct", 100.0 * s->share);
      add_string (b, "metric", s->metric);
      add_string (b, "meaning", s->meaning);
      if (s->metric == NULL)
        add_string (b, "collect", stalls->collect);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
add_roof_values (JsonBuilder *b, const char *member, const WsRoofValue *values, int n,
                 const char *(*id) (int) )
{
  json_builder_set_member_name (b, member);
  json_builder_begin_object (b);
  for (int i = 0; i < n; i++)
    {
      json_builder_set_member_name (b, id (i));
      json_builder_begin_object (b);
      add_number (b, "value", values[i].value);
      add_string (b, "source", values[i].source);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
}

static const char *
precision_id (int p)
{
  return ws_precision_id ((WsPrecision) p);
}

static const char *
level_id (int l)
{
  return ws_memory_level_id ((WsMemoryLevel) l);
}

static void
add_roofline (JsonBuilder *b, const WsRoofline *r)
{
  json_builder_set_member_name (b, "roofline");
  json_builder_begin_object (b);
  add_number (b, "flops", ws_roofline_flops (r));
  add_roof_values (b, "achieved_flops", r->achieved, WS_N_PRECISIONS, precision_id);
  add_roof_values (b, "peak_flops", r->peak, WS_N_PRECISIONS, precision_id);
  add_roof_values (b, "traffic_bytes_per_s", r->traffic, WS_N_LEVELS, level_id);
  add_roof_values (b, "peak_bytes_per_s", r->bandwidth, WS_N_LEVELS, level_id);
  json_builder_set_member_name (b, "intensity_flop_per_byte");
  json_builder_begin_object (b);
  for (int l = 0; l < WS_N_LEVELS; l++)
    add_number (b, ws_memory_level_id ((WsMemoryLevel) l),
                ws_roofline_intensity (r, (WsMemoryLevel) l));
  json_builder_end_object (b);
  add_string (b, "tensor_source", r->tensor_source);
  add_string (b, "tensor_path", r->tensor_path);
  add_number (b, "tensor_path_peak_flops", r->tensor_path_peak);
  json_builder_end_object (b);
}

static void
add_memory (JsonBuilder *b, const WsMemoryWorkload *m)
{
  json_builder_set_member_name (b, "memory");
  json_builder_begin_object (b);
  add_ncu_value (b, "l1_throughput_pct", m->l1_throughput);
  add_ncu_value (b, "l1_hit_pct", m->l1_hit);
  add_ncu_value (b, "shared_throughput_pct", m->shared_throughput);
  add_ncu_value (b, "l2_throughput_pct", m->l2_throughput);
  add_ncu_value (b, "l2_hit_pct", m->l2_hit);
  add_ncu_value (b, "dram_throughput_pct", m->dram_throughput);
  add_ncu_value (b, "dram_bytes_per_s", m->dram_rate);
  add_ncu_value (b, "dram_read_bytes", m->dram_read);
  add_ncu_value (b, "dram_write_bytes", m->dram_write);
  add_ncu_value (b, "l2_to_l1_bytes", m->l2_to_l1);
  add_ncu_value (b, "l1_to_l2_bytes", m->l1_to_l2);
  add_value (b, "load_sectors_per_request", ws_memory_load_sectors_per_request (m),
             ws_ncu_value_collected (m->load_requests)
               ? "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum / "
                 "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
               : NULL);
  add_value (b, "store_sectors_per_request", ws_memory_store_sectors_per_request (m),
             ws_ncu_value_collected (m->store_requests)
               ? "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum / "
                 "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"
               : NULL);
  add_value (b, "excessive_sectors_pct", ws_memory_excessive_pct (m),
             ws_ncu_value_collected (m->excessive_sectors)
               ? "derived__memory_l2_theoretical_sectors_global_excessive / (global load + store "
                 "sectors)"
               : NULL);
  add_value (b, "bank_conflict_pct", ws_memory_bank_conflict_pct (m),
             ws_ncu_value_collected (m->bank_conflicts)
               ? "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum / "
                 "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
               : NULL);
  json_builder_end_object (b);
}

static void
add_occupancy (JsonBuilder *b, const WsOccupancy *o)
{
  json_builder_set_member_name (b, "occupancy");
  json_builder_begin_object (b);
  add_ncu_value (b, "achieved_pct", o->achieved);
  add_ncu_value (b, "theoretical_pct", o->theoretical);
  json_builder_set_member_name (b, "limits_blocks_per_sm");
  json_builder_begin_object (b);
  for (int i = 0; i < WS_N_OCC_LIMITS; i++)
    add_ncu_value (b, ws_occupancy_limit_id ((WsOccupancyLimit) i), o->limit[i]);
  json_builder_end_object (b);
  add_string (b, "limiter",
              o->limiter >= 0 ? ws_occupancy_limit_id ((WsOccupancyLimit) o->limiter) : NULL);
  json_builder_set_member_name (b, "limiters");
  json_builder_begin_array (b);
  for (int i = 0; i < WS_N_OCC_LIMITS; i++)
    if (o->limiters & (1u << i))
      json_builder_add_string_value (b, ws_occupancy_limit_id ((WsOccupancyLimit) i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "blocks_per_sm");
  json_builder_add_int_value (b, o->blocks_per_sm);
  json_builder_set_member_name (b, "warps_per_block");
  json_builder_add_int_value (b, o->warps_per_block);
  add_ncu_value (b, "registers_per_thread", o->registers);
  add_ncu_value (b, "shared_bytes_per_block", o->shared_per_block);
  add_ncu_value (b, "block_size", o->block_size);
  add_ncu_value (b, "grid_size", o->grid_size);
  add_ncu_value (b, "sm_count", o->sm_count);
  add_ncu_value (b, "max_warps_per_sm", o->max_warps);
  add_ncu_value (b, "waves_per_sm", o->waves);
  add_string (b, "text", o->text);
  json_builder_end_object (b);
}

static void
add_bottleneck (JsonBuilder *b, const WsBottleneck *v)
{
  json_builder_set_member_name (b, "bottleneck");
  json_builder_begin_object (b);
  add_string (b, "kind", ws_bottleneck_id (v->kind));
  add_string (b, "verdict", ws_verdict_id (ws_bottleneck_verdict (v->kind)));
  add_string (b, "rule", v->rule);
  add_string (b, "unit", v->unit >= 0 ? ws_limit_unit_id ((WsLimitUnit) v->unit) : NULL);
  add_string (b, "other_unit", v->other >= 0 ? ws_limit_unit_id ((WsLimitUnit) v->other) : NULL);
  add_string (b, "reason", v->reason);
  json_builder_set_member_name (b, "units_pct");
  json_builder_begin_object (b);
  for (int u = 0; u < WS_N_LIMITS; u++)
    add_ncu_value (b, ws_limit_unit_id ((WsLimitUnit) u), v->units[u]);
  json_builder_end_object (b);
  add_ncu_value (b, "waves_per_sm", v->waves);
  add_string (b, "top_stall", v->top_stall);
  json_builder_end_object (b);
}

static void
add_hints (JsonBuilder *b, GPtrArray *hints)
{
  json_builder_set_member_name (b, "hints");
  json_builder_begin_array (b);
  for (guint i = 0; i < hints->len; i++)
    {
      const WsHint *h = g_ptr_array_index (hints, i);

      json_builder_begin_object (b);
      add_string (b, "id", h->id);
      add_string (b, "title", h->title);
      add_string (b, "evidence", h->evidence);
      add_string (b, "fix", h->fix);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/**
 * ws_why_json_add_members:
 *
 * Adds "stalls", "roofline", "memory", "occupancy", "bottleneck" and
 * "hints" to the object @builder is in.
 */
void
ws_why_json_add_members (JsonBuilder *builder, const WsNcuResults *results, const WsWhy *why)
{
  add_stalls (builder, why->stalls);
  add_roofline (builder, why->roofline);
  add_memory (builder, &why->memory);
  add_occupancy (builder, &why->occupancy);
  add_bottleneck (builder, &why->bottleneck);
  add_hints (builder, why->hints);
}

/**
 * ws_range_bottleneck_to_json:
 *
 * Returns: (transfer full): {"ranges": [{"range", "gpu_ns", "compute_ns", …}]}
 */
JsonNode *
ws_range_bottleneck_to_json (GArray *rows)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "ranges");
  json_builder_begin_array (b);
  for (guint i = 0; i < rows->len; i++)
    {
      const WsRangeBottleneck *row = &g_array_index (rows, WsRangeBottleneck, i);
      g_autofree char *text = ws_range_bottleneck_text (row);

      json_builder_begin_object (b);
      add_string (b, "range", row->name);
      json_builder_set_member_name (b, "instances");
      json_builder_add_int_value (b, row->ranges);
      json_builder_set_member_name (b, "kernels");
      json_builder_add_int_value (b, row->kernels);
      json_builder_set_member_name (b, "gpu_ns");
      json_builder_add_int_value (b, row->gpu_ns);
      for (int c = 0; c < WS_N_ROLLUP; c++)
        {
          g_autofree char *member =
            g_strdup_printf ("%s_ns", ws_rollup_class_id ((WsRollupClass) c));

          json_builder_set_member_name (b, member);
          json_builder_add_int_value (b, row->ns[c]);
        }
      add_string (b, "summary", text);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
