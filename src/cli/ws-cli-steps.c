/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "ws-cli.h"
#include "ws-format.h"
#include "ws-rank-set.h"
#include "ws-summary-table.h"
#include "ws-table-writer.h"
#include "ws-steps.h"

static const char *const headers[] = {
  "step",      "name",      "start_ns", "wall_ns",  "gpu_busy_ns",
  "kernel_ns", "memory_ns", "idle_ns",  "launches", "warmup",
};
static const gboolean numeric[] = { TRUE, FALSE, TRUE, TRUE, TRUE, TRUE, TRUE, TRUE, TRUE, TRUE };

/* A job's rows: the rank after the step, whether it is the straggler's
 * last. */
static const char *const job_headers[] = {
  "step",      "rank",      "name",    "start_ns", "wall_ns", "gpu_busy_ns",
  "kernel_ns", "memory_ns", "idle_ns", "launches", "warmup",  "straggler",
};
static const gboolean job_numeric[] = { TRUE, TRUE, FALSE, TRUE, TRUE, TRUE,
                                        TRUE, TRUE, TRUE,  TRUE, TRUE, TRUE };

/* Whether @steps are a job's (one row per rank and step). */
static gboolean
is_job (const WsSteps *steps)
{
  return steps->ranks->len > 0 && g_array_index (steps->ranks, WsStepsRank, 0).rank >= 0;
}

static char *
integer (gint64 value, gboolean grouping)
{
  GString *out = g_string_new (NULL);

  ws_format_int (out, value, grouping);
  return g_string_free (out, FALSE);
}

/* Medians of an even count end in .5: one decimal, as nsys prints Med. */
static char *
decimal (double value, gboolean grouping)
{
  GString *out = g_string_new (NULL);

  ws_format_fixed (out, value, 1, grouping);
  return g_string_free (out, FALSE);
}

static void
add_step_cells (GPtrArray *cells, const WsRun *run, const WsStep *s, gboolean job, gint straggler,
                gboolean grouping)
{
  g_ptr_array_add (cells, g_strdup_printf ("%u", s->number));
  if (job)
    g_ptr_array_add (cells, g_strdup_printf ("%d", s->rank));
  g_ptr_array_add (cells, g_strdup (ws_run_string (run, s->name)));
  g_ptr_array_add (cells, integer (s->start, FALSE));
  g_ptr_array_add (cells, integer (s->wall, grouping));
  g_ptr_array_add (cells, integer (s->gpu_busy, grouping));
  g_ptr_array_add (cells, integer (s->kernel, grouping));
  g_ptr_array_add (cells, integer (s->memory, grouping));
  g_ptr_array_add (cells, integer (s->idle, grouping));
  g_ptr_array_add (cells, integer ((gint64) s->launches, grouping));
  g_ptr_array_add (cells, g_strdup (s->warmup ? "1" : "0"));
  if (job)
    g_ptr_array_add (cells, g_strdup (s->rank >= 0 && s->rank == straggler ? "1" : "0"));
}

/* A rank's steady medians (the run's outside a job) as a last row. */
static void
add_median_cells (GPtrArray *cells, const WsStepsRank *r, gboolean job, gint straggler,
                  gboolean grouping)
{
  const WsStepMedians *m = &r->median;

  g_ptr_array_add (cells, g_strdup ("median"));
  if (job)
    g_ptr_array_add (cells, g_strdup_printf ("%d", r->rank));
  g_ptr_array_add (cells, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "steady state (%u step)",
                                                        "steady state (%u steps)", r->n_steady),
                                           r->n_steady));
  g_ptr_array_add (cells, g_strdup (""));
  g_ptr_array_add (cells, decimal (m->wall, grouping));
  g_ptr_array_add (cells, decimal (m->gpu_busy, grouping));
  g_ptr_array_add (cells, decimal (m->kernel, grouping));
  g_ptr_array_add (cells, decimal (m->memory, grouping));
  g_ptr_array_add (cells, decimal (m->idle, grouping));
  g_ptr_array_add (cells, decimal (m->launches, grouping));
  g_ptr_array_add (cells, g_strdup ("0"));
  if (job)
    g_ptr_array_add (cells, g_strdup (r->rank == straggler ? "1" : "0"));
}

static void
add_medians_json (JsonBuilder *b, const WsStepMedians *m)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "wall_ns");
  json_builder_add_double_value (b, m->wall);
  json_builder_set_member_name (b, "gpu_busy_ns");
  json_builder_add_double_value (b, m->gpu_busy);
  json_builder_set_member_name (b, "kernel_ns");
  json_builder_add_double_value (b, m->kernel);
  json_builder_set_member_name (b, "memory_ns");
  json_builder_add_double_value (b, m->memory);
  json_builder_set_member_name (b, "idle_ns");
  json_builder_add_double_value (b, m->idle);
  json_builder_set_member_name (b, "launches");
  json_builder_add_double_value (b, m->launches);
  json_builder_end_object (b);
}

/* A job's ranks: each one's steady medians, and which is the straggler. */
static void
add_ranks_json (JsonBuilder *b, const WsSteps *steps, gint straggler)
{
  json_builder_set_member_name (b, "straggler");
  if (straggler >= 0)
    json_builder_add_int_value (b, straggler);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "ranks");
  json_builder_begin_array (b);
  for (guint i = 0; i < steps->ranks->len; i++)
    {
      const WsStepsRank *r = &g_array_index (steps->ranks, WsStepsRank, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "rank");
      json_builder_add_int_value (b, r->rank);
      json_builder_set_member_name (b, "steps");
      json_builder_add_int_value (b, r->n_steps);
      json_builder_set_member_name (b, "steady_steps");
      json_builder_add_int_value (b, r->n_steady);
      json_builder_set_member_name (b, "straggler");
      json_builder_add_boolean_value (b, r->rank == straggler);
      json_builder_set_member_name (b, "median");
      add_medians_json (b, &r->median);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static JsonNode *
steps_json (const WsRun *run, const WsSteps *steps, gint straggler)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  const WsStepMedians *m = &steps->median;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "pattern");
  json_builder_add_string_value (b, steps->pattern != NULL ? steps->pattern : "");
  json_builder_set_member_name (b, "steps");
  json_builder_begin_array (b);
  for (guint i = 0; i < steps->steps->len; i++)
    {
      const WsStep *s = &g_array_index (steps->steps, WsStep, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "step");
      json_builder_add_int_value (b, s->number);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, ws_run_string (run, s->name));
      json_builder_set_member_name (b, "pid");
      json_builder_add_int_value (b, s->pid);
      if (is_job (steps))
        {
          json_builder_set_member_name (b, "rank");
          json_builder_add_int_value (b, s->rank);
          json_builder_set_member_name (b, "straggler");
          json_builder_add_boolean_value (b, s->rank == straggler);
        }
      json_builder_set_member_name (b, "start_ns");
      json_builder_add_int_value (b, s->start);
      json_builder_set_member_name (b, "wall_ns");
      json_builder_add_int_value (b, s->wall);
      json_builder_set_member_name (b, "gpu_busy_ns");
      json_builder_add_int_value (b, s->gpu_busy);
      json_builder_set_member_name (b, "kernel_ns");
      json_builder_add_int_value (b, s->kernel);
      json_builder_set_member_name (b, "memory_ns");
      json_builder_add_int_value (b, s->memory);
      json_builder_set_member_name (b, "idle_ns");
      json_builder_add_int_value (b, s->idle);
      json_builder_set_member_name (b, "launches");
      json_builder_add_int_value (b, (gint64) s->launches);
      json_builder_set_member_name (b, "warmup");
      json_builder_add_boolean_value (b, s->warmup);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "steady_state");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "steps");
  json_builder_add_int_value (b, steps->n_steady);
  json_builder_set_member_name (b, "warmup_steps");
  json_builder_add_int_value (b, steps->n_warmup);
  json_builder_set_member_name (b, "median");
  add_medians_json (b, m);
  json_builder_end_object (b);
  if (is_job (steps))
    add_ranks_json (b, steps, straggler);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

int
ws_cli_steps (int argc, char **argv)
{
  g_autofree char *range = NULL;
  gint pid = -1;
  GOptionEntry entries[] = {
    { "range", 'r', 0, G_OPTION_ARG_STRING, &range,
      N_ ("The NVTX range that is one step (“step” takes “step 0”, “step 1”, …); by default the "
          "top-level ranges that repeat with a counter"),
      "NAME" },
    { "pid", 'p', 0, G_OPTION_ARG_INT, &pid, N_ ("Only the steps of this process"), "PID" },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("FILE.sqlite — the iterations of a loop, one row each"));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  g_autoptr (WsSteps) steps = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  g_auto (WsCliFrame) frame = { 0 };
  WsOutputFormat format;
  WsStepsOptions options = { NULL, WS_PID_ANY };
  gboolean grouping, job;
  gint straggler = -1;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
    context,
    _ ("Finds the steps of a training or inference loop (NVTX ranges such as “step 3”) and "
       "prints for each its start, wall time, the time the GPU was busy (kernels, memory "
       "operations, CUDA graph replays) and idle, the launches made (a replay counts once), and "
       "whether it is warm-up: the first step, and steps over twice the median of the "
       "others (the first left out); in a job, a step warm-up on one rank is warm-up on all. "
       "The last rows hold the medians of the steady state, one per rank in a job, whose rows "
       "are ordered by step, then rank, and mark the straggler's."));
  ws_cli_frame_init (&frame, context, argv[0], WS_CLI_TABLE | WS_CLI_CSV | WS_CLI_MD | WS_CLI_JSON,
                     N_ ("Output format: table (default), csv, md or json"));
  if (!ws_cli_frame_parse (&frame, context, &argc, &argv, 1, -1, NULL))
    return WS_EXIT_BAD_INPUT;
  format = frame.format;

  /* What `ranks` reads, so that a job's straggler is the one it names. */
  run = ws_cli_load (argv + 1, WS_LOAD_ALL & ~WS_LOAD_GPU_METRICS, &error);
  if (run == NULL)
    return ws_cli_fail (error);

  options.range = range;
  options.pid = pid >= 0 ? (guint32) pid : WS_PID_ANY;
  steps = ws_steps_compute (run, &options);
  if (steps->steps->len == 0)
    {
      if (range != NULL)
        g_printerr (_ ("warpscope-cli: %s: no NVTX range named “%s”\n"), argv[1], range);
      else
        g_printerr (_ ("warpscope-cli: %s: no steps: no top-level NVTX ranges repeat with a "
                       "counter (“step 0”, “step 1”, …); name one with --range\n"),
                    argv[1]);
      return WS_EXIT_BAD_INPUT;
    }
  job = is_job (steps);
  if (job)
    {
      /* The straggler is the Ranks page's and `ranks`'s, not found again. */
      g_autoptr (WsRankSet) set = ws_rank_set_new_for_run (run);

      if (set != NULL && set->straggler.index >= 0)
        straggler = (gint) set->straggler.rank;
    }

  if (format == WS_FORMAT_JSON)
    {
      g_autoptr (JsonNode) root = steps_json (run, steps, straggler);
      g_autofree char *text = ws_cli_json_text (root);

      g_string_append (out, text);
    }
  else
    {
      grouping = format == WS_FORMAT_TABLE;
      for (guint i = 0; i < steps->steps->len; i++)
        add_step_cells (cells, run, &g_array_index (steps->steps, WsStep, i), job, straggler,
                        grouping);
      /* Per rank: a median across ranks would mix them. */
      for (guint i = 0; i < steps->ranks->len; i++)
        add_median_cells (cells, &g_array_index (steps->ranks, WsStepsRank, i), job, straggler,
                          grouping);
      if (job)
        ws_table_write (G_N_ELEMENTS (job_headers), job_headers, job_numeric, cells, format, out);
      else
        ws_table_write (G_N_ELEMENTS (headers), headers, numeric, cells, format, out);
    }

  if (!ws_cli_write_report (out, format == WS_FORMAT_CSV || format == WS_FORMAT_JSON, &error))
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      return WS_EXIT_FAILED;
    }
  return WS_EXIT_OK;
}
