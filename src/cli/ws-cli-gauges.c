/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <math.h>

#include "ws-bars-chart.h"
#include "ws-cli.h"
#include "ws-format.h"
#include "ws-gauges-table.h"
#include "ws-kernel-name.h"
#include "ws-ncu-match.h"
#include "ws-table-writer.h"
#include "ws-why-json.h"

/* A number for scripts: as precise as ncu wrote it (six decimals at most),
 * without trailing zeros: "381792", "97.828073". */
static char *
number (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char *end;

  g_ascii_formatd (buf, sizeof buf, "%.6f", value);
  end = buf + strlen (buf) - 1;
  while (end > buf && *end == '0')
    *end-- = '\0';
  if (*end == '.')
    *end = '\0';
  if (g_str_equal (buf, "-0"))
    return g_strdup ("0");
  return g_strdup (buf);
}

static void
write_csv (const WsNcuResults *ncu, GString *out)
{
  g_string_append (out, "id,kernel");
  for (int k = 0; k < WS_N_GAUGES; k++)
    g_string_append_printf (out, ",%s", ws_gauge_csv_column ((WsGaugeKind) k));
  g_string_append (out, ",verdict,verdict_reason,nsys_kernel\n");

  for (guint i = 0; i < ws_ncu_results_n_launches (ncu); i++)
    {
      const WsNcuLaunch *launch = ws_ncu_results_launch (ncu, i);
      const WsGauges *gauges = ws_ncu_results_gauges (ncu, i);
      const WsNcuMatch *match = ws_ncu_results_match (ncu, i);

      g_string_append_printf (out, "%u,", i);
      ws_csv_append_field (out, launch->kernel);
      for (int k = 0; k < WS_N_GAUGES; k++)
        {
          const WsGauge *gauge = &gauges->gauge[k];

          g_string_append_c (out, ',');
          if (gauge->collected)
            {
              g_autofree char *num = number (gauge->value);

              g_string_append (out, num);
            }
        }
      g_string_append_c (out, ',');
      ws_csv_append_field (out, ws_verdict_id (gauges->verdict));
      g_string_append_c (out, ',');
      ws_csv_append_field (out, gauges->verdict_reason);
      g_string_append_c (out, ',');
      /* The nsys kernel it matched: empty when unmatched or without nsys. */
      if (match != NULL && match->nsys_name != NULL)
        ws_csv_append_field (out, match->nsys_name);
      g_string_append_c (out, '\n');
    }
}

static const char *
match_id (WsNcuMatchKind kind)
{
  switch (kind)
    {
      case WS_NCU_MATCH_EXACT:
        return "exact";
      case WS_NCU_MATCH_NORMALIZED:
        return "normalized";
      case WS_NCU_MATCH_BASE:
        return "base-name";
      case WS_NCU_MATCH_MANIFEST:
        return "manifest";
      case WS_NCU_MATCH_FUNCTION:
        return "function";
      case WS_NCU_MATCH_UNMATCHED:
        return "unmatched";
      case WS_NCU_MATCH_NONE:
      default:
        return NULL;
    }
}

static void
add_string (JsonBuilder *builder, const char *member, const char *value)
{
  json_builder_set_member_name (builder, member);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_number (JsonBuilder *builder, const char *member, double value)
{
  json_builder_set_member_name (builder, member);
  if (isnan (value))
    json_builder_add_null_value (builder);
  else
    json_builder_add_double_value (builder, value);
}

static void
add_gauge (JsonBuilder *builder, const WsGauge *gauge, WsGaugeKind kind)
{
  json_builder_set_member_name (builder, ws_gauge_csv_column (kind));
  json_builder_begin_object (builder);
  add_number (builder, "value", gauge->collected ? gauge->value : NAN);
  add_string (builder, "unit", gauge->unit);
  add_string (builder, "metric", gauge->metric);
  if (gauge->column != NULL)
    add_string (builder, "details_name", gauge->column);
  if (gauge->note != NULL)
    add_string (builder, "note", gauge->note);
  if (!gauge->collected)
    {
      add_string (builder, "collect", gauge->collect);
      if (gauge->absent != NULL)
        add_string (builder, "absent", gauge->absent);
    }
  json_builder_end_object (builder);
}

/* nvprof: every metric and event of a launch, the gauges' sources among
 * them, with Min and Max (and an event's Total) beside the Avg. */
static void
add_nvprof_metrics (JsonBuilder *builder, const WsNcuResults *ncu, guint launch)
{
  json_builder_set_member_name (builder, "metrics");
  json_builder_begin_array (builder);
  for (guint i = 0; i < ncu->metrics->len; i++)
    {
      const WsNcuMetric *m = g_ptr_array_index (ncu->metrics, i);

      if (launch >= m->n_alloc || isnan (m->values[launch]))
        continue;
      json_builder_begin_object (builder);
      add_string (builder, "name", m->name);
      json_builder_set_member_name (builder, "event");
      json_builder_add_boolean_value (builder, m->section != NULL);
      add_string (builder, "description", m->description);
      add_number (builder, "avg", m->values[launch]);
      add_number (builder, "min", m->min != NULL ? m->min[launch] : NAN);
      add_number (builder, "max", m->max != NULL ? m->max[launch] : NAN);
      if (m->total != NULL)
        add_number (builder, "total", m->total[launch]);
      add_string (builder, "unit", m->base_unit);
      if (m->text != NULL && m->text[launch] != NULL)
        add_string (builder, "text", m->text[launch]);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

/* One launch of the JSON, as a tree of its own. */
static JsonNode *
launch_json (guint i, gconstpointer data)
{
  const WsRun *run = data;
  const WsNcuResults *ncu = run->ncu;
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  const WsNcuLaunch *launch = ws_ncu_results_launch (ncu, i);
  const WsGauges *gauges = ws_ncu_results_gauges (ncu, i);
  const WsNcuMatch *match = ws_ncu_results_match (ncu, i);
  g_autofree char *nvtx = ws_ncu_launch_nvtx_path (launch);
  g_autoptr (WsWhy) why = ws_why_compute (ncu, i);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_int_value (builder, i);
  json_builder_set_member_name (builder, "ncu_id");
  json_builder_add_int_value (builder, launch->id);
  add_string (builder, "kernel", launch->kernel);
  {
    g_autofree char *label = ws_ncu_launch_label (run, ncu, i);

    add_string (builder, "display_name", label);
  }
  add_string (builder, "file", g_ptr_array_index (ncu->files, launch->file));
  add_string (builder, "process", launch->process);
  json_builder_set_member_name (builder, "pid");
  json_builder_add_int_value (builder, launch->pid);
  json_builder_set_member_name (builder, "device");
  json_builder_add_int_value (builder, launch->device);
  add_string (builder, "cc", launch->cc);
  add_string (builder, "grid", launch->grid);
  add_string (builder, "block", launch->block);
  add_string (builder, "nvtx", nvtx);
  json_builder_set_member_name (builder, "gauges");
  json_builder_begin_object (builder);
  for (int k = 0; k < WS_N_GAUGES; k++)
    add_gauge (builder, &gauges->gauge[k], (WsGaugeKind) k);
  json_builder_end_object (builder);
  add_number (builder, "warp_cycles_per_issue", gauges->issue_cycles);
  add_number (builder, "waves_per_sm", gauges->waves);
  add_string (builder, "verdict", ws_verdict_id (gauges->verdict));
  add_string (builder, "verdict_reason", gauges->verdict_reason);
  add_string (builder, "sol_verdict", ws_sol_verdict_id (gauges->sol));
  add_string (builder, "sol_reason", gauges->sol_reason);
  ws_why_json_add_members (builder, ncu, why);
  if (ncu->nvprof)
    {
      json_builder_set_member_name (builder, "invocations");
      json_builder_add_int_value (builder, launch->invocations);
      add_string (builder, "device_name", launch->device_name);
      add_nvprof_metrics (builder, ncu, i);
    }
  if (match != NULL)
    {
      add_string (builder, "match", match_id (match->kind));
      add_string (builder, "nsys_kernel", match->nsys_name);
      if (match->why != NULL)
        add_string (builder, "unmatched_because", match->why);
      if (match->closest != NULL)
        {
          add_string (builder, "closest_nsys_kernel", match->closest);
          add_string (builder, "closest_differs", match->differs);
        }
    }
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/* The launches are written one at a time: a tree of every launch took
 * 130 KB a launch, 2.6 GB at 20,000 launches (issue 46).  The text is the
 * whole tree's (ws_cli_json_append()). */
static void
write_json (const WsRun *run, GString *out)
{
  const WsNcuResults *ncu = run->ncu;
  guint n = ws_ncu_results_n_launches (ncu);

  g_string_append_c (out, '{');
  ws_cli_json_indent (out, 1);
  g_string_append (out, "\"files\" : ");
  {
    g_autoptr (JsonBuilder) builder = json_builder_new ();
    g_autoptr (JsonNode) files = NULL;

    json_builder_begin_array (builder);
    for (guint i = 0; i < ncu->files->len; i++)
      json_builder_add_string_value (builder, g_ptr_array_index (ncu->files, i));
    json_builder_end_array (builder);
    files = json_builder_get_root (builder);
    ws_cli_json_append (out, files, 1);
  }
  g_string_append_c (out, ',');
  ws_cli_json_indent (out, 1);
  g_string_append (out, "\"launches\" : ");
  ws_cli_json_append_each (out, n, 1, launch_json, run);
  if (ncu->match != NULL)
    {
      g_autoptr (GArray) unmatched = ws_ncu_match_unmatched (ncu);
      g_autoptr (JsonBuilder) builder = json_builder_new ();
      g_autoptr (JsonNode) node = NULL;

      json_builder_begin_array (builder);
      for (guint j = 0; j < unmatched->len; j++)
        json_builder_add_int_value (builder, g_array_index (unmatched, guint, j));
      json_builder_end_array (builder);
      node = json_builder_get_root (builder);
      g_string_append_c (out, ',');
      ws_cli_json_indent (out, 1);
      g_string_append (out, "\"unmatched\" : ");
      ws_cli_json_append (out, node, 1);
    }
  ws_cli_json_indent (out, 0);
  g_string_append (out, "}\n");
}

int
ws_cli_gauges (int argc, char **argv)
{
  GOptionEntry entries[] = {
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("FILE… — the gauges and verdict of each profiled kernel"));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_auto (WsCliFrame) frame = { 0 };
  WsOutputFormat format;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
    context, _ ("Reads Nsight Compute CSV exports (raw or details page, or a capture folder) and "
                "prints, per profiled launch, the gauges SM, Memory, DRAM, Tensor, FP32, L1 and "
                "L2 hit, occupancy and warp stalls, with the bottleneck verdict and its reason. "
                "An nsys SQLite export given too is matched to the ncu kernels. "
                "IDs count the launches of all files in order (ncu's ID for one file)."));
  /* The summary's msgid is kept as it was (translated); nvprof's line is its own. */
  g_option_context_set_description (
    context, _ ("nvprof --metrics/--events output (text or --csv) reads the same way: one row per "
                "kernel, gauges from the nvprof metrics whose meaning carries over; --format "
                "json lists every metric with its Min, Max and Avg."));
  ws_cli_frame_init (&frame, context, argv[0], WS_CLI_TABLE | WS_CLI_CSV | WS_CLI_JSON,
                     N_ ("Output format: table (default), csv or json"));
  if (!ws_cli_frame_parse (&frame, context, &argc, &argv, 1, -1, NULL))
    return WS_EXIT_BAD_INPUT;
  format = frame.format;

  run = ws_cli_load_ncu (argv + 1, &error);
  if (run == NULL)
    return ws_cli_fail (error);

  switch (format)
    {
      case WS_FORMAT_CSV:
        write_csv (run->ncu, out);
        break;
      case WS_FORMAT_JSON:
        write_json (run, out);
        break;
      case WS_FORMAT_TABLE:
      case WS_FORMAT_MARKDOWN:
      default:
        ws_gauges_table_write (run, WS_FORMAT_TABLE, ws_cli_terminal_width (), out);
        break;
    }
  if (!ws_cli_write_report (out, format == WS_FORMAT_CSV || format == WS_FORMAT_JSON, &error))
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      return WS_EXIT_FAILED;
    }
  return WS_EXIT_OK;
}
