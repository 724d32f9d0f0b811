/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <math.h>

#include "ws-cli.h"
#include "ws-graphs.h"
#include "ws-format.h"
#include "ws-gpu-busy.h"
#include "ws-rank-measure.h"
#include "ws-rank-set.h"
#include "ws-ranks-loader.h"
#include "ws-ranks.h"
#include "ws-table-writer.h"

/* `warpscope-cli ranks`: one row per rank of a job, then its straggler. */

static const char *
base_name (const WsRankFigures *f, char **owned)
{
  *owned = f->file != NULL ? g_path_get_basename (f->file) : g_strdup ("");
  return *owned;
}

static void
write_csv (const WsRankSet *set, GString *out)
{
  g_autofree char *straggler = ws_rank_set_straggler_line (set);

  /* wait_ns is empty where waiting was not measured. */
  g_string_append (out, "rank,file,process,gpu_time_ns,kernel_ns,comm_ns,wait_ns,idle_ns,steps,"
                        "step_median_ns,method,comm_hidden_ns,steady_idle_ns,steady_span_ns\n");
  for (guint i = 0; i < set->figures->len; i++)
    {
      const WsRankFigures *f = g_ptr_array_index (set->figures, i);
      g_autofree char *wait =
        set->wait[i] >= 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, set->wait[i]) : g_strdup ("");
      gint64 steady_idle = 0, steady_span = 0;

      ws_rank_measure_steady_idle (f, &steady_idle, &steady_span);

      g_string_append_printf (out, "%u,", f->rank);
      ws_csv_append_field (out, f->file != NULL ? f->file : "");
      g_string_append_c (out, ',');
      ws_csv_append_field (out, f->process != NULL ? f->process : "");
      g_string_append_printf (out,
                              ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                              ",%s,%" G_GINT64_FORMAT ",%u,%.0f,%s,%" G_GINT64_FORMAT
                              ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n",
                              f->gpu_time, f->kernel_time, f->comm_time, wait, f->idle_time,
                              f->steps->len, f->step_median, ws_rank_method_string (set->method),
                              f->overlap_time, steady_idle, steady_span);
    }
  g_string_append_printf (out, "%s\n", straggler);
}

static char *
duration (gint64 ns)
{
  return ws_format_duration ((double) ns);
}

/* How the ranks were compared, and what a graph-level trace hides. */
static void
write_method (const WsRun *run, const WsRankSet *set, GString *out)
{
  WsGraphSummary graphs;

  if (set->method == WS_RANK_METHOD_NCCL)
    /* TRANSLATORS: how many NCCL collectives were matched on every rank */
    g_string_append_printf (out,
                            _ ("Method: NCCL collectives (%u matched on every rank; clocks "
                               "aligned on their ends)\n"),
                            set->n_matched);
  else
    g_string_append_printf (out, "%s\n",
                            _ ("Method: host waits (no NCCL collectives on every rank)"));
  ws_graph_summary_compute (run, &graphs);
  if (graphs.traced_whole > 0)
    g_string_append_printf (out, "%s\n",
                            _ ("CUDA graphs were traced whole (nsys --cuda-graph-trace=graph): a "
                               "collective inside a replay cannot be seen; capture with node "
                               "tracing to match it"));
  g_string_append_c (out, '\n');
}

static void
write_table (const WsRun *run, const WsRanks *ranks, const WsRankSet *set, GString *out)
{
  g_autofree char *title = ws_ranks_title (ranks);
  g_autofree char *how = ws_rank_set_describe (set, ranks);
  g_autofree char *straggler = ws_rank_set_straggler_text (set);
  gboolean any_comm = FALSE;

  g_string_append_printf (out, "%s\n%s\n", title, how);
  write_method (run, set, out);
  g_string_append_printf (out, "%5s  %-22s %-10s %11s %11s %11s %12s %11s %6s %11s\n", _ ("rank"),
                          _ ("file"), _ ("process"), _ ("GPU time"), _ ("kernels"), _ ("comm"),
                          _ ("waiting"), _ ("idle"), _ ("steps"), _ ("median step"));
  for (guint i = 0; i < set->figures->len; i++)
    {
      const WsRankFigures *f = g_ptr_array_index (set->figures, i);
      g_autofree char *file = NULL;
      g_autofree char *gpu = duration (f->gpu_time), *kernel = duration (f->kernel_time);
      g_autofree char *comm = duration (f->comm_time);
      g_autofree char *wait =
        set->wait[i] >= 0 ? duration (set->wait[i]) : g_strdup (_ ("not measured"));
      g_autofree char *idle = duration (f->idle_time);
      g_autofree char *step = ws_format_duration (f->step_median);

      any_comm = any_comm || f->collectives->len > 0;
      g_string_append_printf (out, "%5u  %-22s %-10s %11s %11s %11s %12s %11s %6u %11s\n", f->rank,
                              base_name (f, &file), f->process != NULL ? f->process : "?", gpu,
                              kernel, comm, wait, idle, f->steps->len, step);
    }

  if (any_comm)
    {
      g_string_append_printf (out, "\n%s\n", _ ("Communication (NCCL kernels):"));
      for (guint i = 0; i < set->figures->len; i++)
        {
          const WsRankFigures *f = g_ptr_array_index (set->figures, i);
          double hidden = f->comm_time > 0 ? 100.0 * f->overlap_time / f->comm_time : 0;

          g_string_append_printf (out, _ ("  rank %u: %.1f%% hidden under compute;"), f->rank,
                                  hidden);
          for (guint c = 0; c < f->collectives->len; c++)
            {
              const WsRankCollective *k = &g_array_index (f->collectives, WsRankCollective, c);
              g_autofree char *total = duration (k->total);

              g_string_append_printf (out, " %s %s (%" G_GUINT64_FORMAT ")", k->kind, total,
                                      k->count);
            }
          g_string_append_c (out, '\n');
        }
    }

  {
    gboolean any_steady = FALSE;

    for (guint i = 0; i < set->figures->len; i++)
      {
        const WsRankFigures *f = g_ptr_array_index (set->figures, i);
        double share = ws_rank_measure_steady_idle (f, NULL, NULL);

        if (share < 0)
          continue;
        if (!any_steady)
          g_string_append_printf (out, "\n%s",
                                  _ ("GPU idle in the steady steps (no kernel, copy or set):"));
        any_steady = TRUE;
        /* TRANSLATORS: a rank's number, then its GPU's idle share */
        g_string_append_printf (out, _ (" rank %1$u %2$.1f%%"), f->rank, share * 100);
      }
    if (any_steady)
      g_string_append_c (out, '\n');
  }

  if (set->steps->len > 0)
    {
      g_string_append_printf (out, "\n%s\n",
                              _ ("Per step: the rank that reached the "
                                 "synchronisation last, by how much, and what each "
                                 "other rank lost waiting in that step"));
      for (guint i = 0; i < set->steps->len; i++)
        {
          const WsRankSetStep *step = &g_array_index (set->steps, WsRankSetStep, i);
          const WsRankFigures *last;
          g_autofree char *late = NULL;
          gboolean any_wait = FALSE;

          if (step->last < 0)
            continue;
          last = g_ptr_array_index (set->figures, step->last);
          late = duration (step->late);
          g_string_append_printf (out, _ ("  step %u%s: rank %u last, +%s;"), step->number,
                                  step->steady ? "" : _ (" (warm-up)"), last->rank, late);
          for (guint r = 0; r < set->figures->len; r++)
            {
              const WsRankFigures *f = g_ptr_array_index (set->figures, r);
              g_autofree char *lost = NULL;

              if ((gint) r == step->last || step->lost[r] < 0)
                continue;
              lost = duration (step->lost[r]);
              g_string_append_printf (out, _ (" rank %u waits %s"), f->rank, lost);
              any_wait = TRUE;
            }
          if (!any_wait)
            /* TRANSLATORS: ends a step's line when no rank's waiting is measured, as the table's
             * "not measured" */
            g_string_append (out, _ (" the others' waiting is not measured"));
          g_string_append_c (out, '\n');
        }
    }

  g_string_append_printf (out, "\n%s\n", straggler);
  for (guint i = 0; i < ranks->notes->len; i++)
    g_string_append_printf (out, "%s %s\n", _ ("Note:"),
                            (const char *) g_ptr_array_index (ranks->notes, i));
}

static void
add_int (JsonBuilder *b, const char *name, gint64 value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

static void
add_rank_json (JsonBuilder *b, const WsRankSet *set, guint index)
{
  const WsRankFigures *f = g_ptr_array_index (set->figures, index);

  json_builder_begin_object (b);
  add_int (b, "rank", f->rank);
  json_builder_set_member_name (b, "file");
  json_builder_add_string_value (b, f->file);
  json_builder_set_member_name (b, "process");
  json_builder_add_string_value (b, f->process);
  add_int (b, "clock_offset_ns", f->offset);
  add_int (b, "gpu_time_ns", f->gpu_time);
  add_int (b, "kernel_ns", f->kernel_time);
  add_int (b, "comm_ns", f->comm_time);
  add_int (b, "comm_hidden_ns", f->overlap_time);
  json_builder_set_member_name (b, "wait_ns");
  if (set->wait[index] >= 0)
    json_builder_add_int_value (b, set->wait[index]);
  else
    json_builder_add_null_value (b);
  add_int (b, "collective_offset_ns", set->align[index]);
  add_int (b, "idle_ns", f->idle_time);
  {
    gint64 steady_idle = 0, steady_span = 0;
    double share = ws_rank_measure_steady_idle (f, &steady_idle, &steady_span);

    add_int (b, "steady_idle_ns", steady_idle);
    add_int (b, "steady_span_ns", steady_span);
    json_builder_set_member_name (b, "steady_idle_share");
    if (share >= 0)
      json_builder_add_double_value (b, share);
    else
      json_builder_add_null_value (b);
  }
  json_builder_set_member_name (b, "wait_measured_in");
  json_builder_add_string_value (b, ws_rank_figures_wait_source_string (f->wait_source));
  json_builder_set_member_name (b, "step_pattern");
  json_builder_add_string_value (b, f->step_pattern);
  add_int (b, "steps", f->steps->len);
  add_int (b, "step_median_ns", (gint64) llround (f->step_median));
  add_int (b, "wait_median_ns", (gint64) llround (f->wait_median));
  add_int (b, "work_median_ns", (gint64) llround (f->work_median));
  /* Written in its place, one step at a time (write_streamed()). */
  json_builder_set_member_name (b, "per_step");
  {
    g_autofree char *mark = g_strdup_printf (WS_CLI_JSON_STREAM_MARK "per_step:%u", index);

    json_builder_add_string_value (b, mark);
  }
  json_builder_set_member_name (b, "collectives");
  json_builder_begin_array (b);
  for (guint c = 0; c < f->collectives->len; c++)
    {
      const WsRankCollective *k = &g_array_index (f->collectives, WsRankCollective, c);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, k->kind);
      add_int (b, "count", (gint64) k->count);
      add_int (b, "total_ns", k->total);
      add_int (b, "hidden_ns", k->overlap);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "ranges");
  json_builder_begin_array (b);
  for (guint r = 0; r < f->ranges->len; r++)
    {
      const WsRankRange *range = &g_array_index (f->ranges, WsRankRange, r);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, range->name);
      add_int (b, "depth", range->depth);
      add_int (b, "per_step_ns", (gint64) llround (range->per_step));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

/* One step of a rank, as the per_step array holds it. */
static JsonNode *
rank_step_json (guint i, gconstpointer data)
{
  const WsRankFigures *f = data;
  g_autoptr (JsonBuilder) b = json_builder_new ();
  const WsRankStep *step = &g_array_index (f->steps, WsRankStep, i);

  json_builder_begin_object (b);
  add_int (b, "step", step->number);
  add_int (b, "start_ns", step->start + f->offset);
  add_int (b, "wall_ns", step->end - step->start);
  add_int (b, "gpu_busy_ns", step->gpu_busy);
  add_int (b, "comm_ns", step->comm);
  add_int (b, "comm_hidden_ns", step->overlap);
  add_int (b, "wait_ns", step->wait);
  add_int (b, "work_ns", step->work);
  json_builder_set_member_name (b, "warmup");
  json_builder_add_boolean_value (b, step->warmup);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* One step of the job, as the steps array holds it. */
static JsonNode *
set_step_json (guint i, gconstpointer data)
{
  const WsRankSet *set = data;
  g_autoptr (JsonBuilder) b = json_builder_new ();
  const WsRankSetStep *step = &g_array_index (set->steps, WsRankSetStep, i);

  json_builder_begin_object (b);
  add_int (b, "step", step->number);
  json_builder_set_member_name (b, "steady");
  json_builder_add_boolean_value (b, step->steady);
  json_builder_set_member_name (b, "last_rank");
  if (step->last >= 0)
    json_builder_add_int_value (
      b, ((const WsRankFigures *) g_ptr_array_index (set->figures, step->last))->rank);
  else
    json_builder_add_null_value (b);
  add_int (b, "late_ns", step->late);
  json_builder_set_member_name (b, "waits_for_last_ns");
  json_builder_begin_object (b);
  for (guint r = 0; r < set->figures->len; r++)
    if (step->lost[r] >= 0)
      {
        g_autofree char *key = g_strdup_printf (
          "%u", ((const WsRankFigures *) g_ptr_array_index (set->figures, r))->rank);

        add_int (b, key, step->lost[r]);
      }
  json_builder_end_object (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* The arrays of steps, one step's tree at a time: a digest of 200,000
 * steps made a tree of 4 GB (issue 46).  Laid out as the whole tree's. */
static void
write_streamed (GString *out, const char *name, guint depth, gpointer data)
{
  const WsRankSet *set = data;

  if (g_str_has_prefix (name, "per_step:"))
    {
      guint64 index = g_ascii_strtoull (name + strlen ("per_step:"), NULL, 10);
      const WsRankFigures *f;

      g_return_if_fail (index < set->figures->len);
      f = g_ptr_array_index (set->figures, index);
      ws_cli_json_append_each (out, f->steps->len, depth, rank_step_json, f);
    }
  else
    ws_cli_json_append_each (out, set->steps->len, depth, set_step_json, set);
}

static char *
write_json (const WsRanks *ranks, const WsRankSet *set)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  const WsStraggler *s = &set->straggler;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "numbered_by");
  json_builder_add_string_value (b, ws_ranks_source_to_string (ranks->source));
  json_builder_set_member_name (b, "clocks_aligned");
  json_builder_add_boolean_value (b, ranks->aligned);
  json_builder_set_member_name (b, "method");
  json_builder_add_string_value (b, ws_rank_method_string (set->method));
  add_int (b, "collectives_matched", set->n_matched);
  json_builder_set_member_name (b, "ranks");
  json_builder_begin_array (b);
  for (guint i = 0; i < set->figures->len; i++)
    add_rank_json (b, set, i);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "steps");
  json_builder_add_string_value (b, WS_CLI_JSON_STREAM_MARK "steps");
  json_builder_set_member_name (b, "straggler");
  if (s->index >= 0)
    {
      json_builder_begin_object (b);
      add_int (b, "rank", s->rank);
      json_builder_set_member_name (b, "method");
      json_builder_add_string_value (b, ws_rank_method_string (set->method));
      add_int (b, "late_ns", s->late);
      json_builder_set_member_name (b, "range");
      json_builder_add_string_value (b, s->range);
      add_int (b, "range_extra_ns", s->range_extra);
      add_int (b, "steps_last", s->n_last);
      add_int (b, "steady_steps", s->n_steps);
      json_builder_set_member_name (b, "others_wait_ns");
      if (s->lost >= 0)
        json_builder_add_int_value (b, s->lost);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "others_wait_share");
      if (s->lost >= 0)
        json_builder_add_double_value (b, s->lost_share);
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "notes");
  json_builder_begin_array (b);
  for (guint i = 0; i < ranks->notes->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (ranks->notes, i));
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return ws_cli_json_text_streamed (root, write_streamed, (gpointer) set);
}

/* The ranks of @run and their figures compared, in @set.  A run of one
 * process is a job of one rank: its ranks are computed here and kept
 * apart, since a loaded run is the loader's alone to write. */
static WsRanks *
job_ranks (WsRun *run, char **files, WsRankSet **set)
{
  g_autoptr (GPtrArray) figures = NULL;
  WsRanks *one;

  if (run->ranks != NULL)
    {
      *set = ws_rank_set_new_for_run (run);
      return ws_ranks_ref (run->ranks);
    }
  one = ws_ranks_new_for_files ((const char *const *) files, &run, 1);
  g_ptr_array_add (one->figures, NULL);
  g_array_index (one->ranks, WsRank, 0).pid = WS_PID_ANY;
  figures = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_rank_figures_unref);
  g_ptr_array_add (figures, ws_rank_measure (run, WS_PID_ANY, ws_ranks_get (one, 0)->rank));
  *set = ws_rank_set_new (figures);
  return one;
}

int
ws_cli_ranks (int argc, char **argv)
{
  g_autofree char *target = NULL;
  GOptionEntry entries[] = {
    { "target", 0, 0, G_OPTION_ARG_STRING, &target,
      N_ ("In a capture folder of several targets, the ranks of this one"), "NAME" },
    { NULL },
  };
  g_autoptr (GPtrArray) launches = NULL;
  g_autoptr (GPtrArray) chosen = NULL;
  char **files;
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("FILES|DIR — the ranks of a job, one row each"));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  g_autoptr (WsRankSet) set = NULL;
  g_autoptr (WsRanks) ranks = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_auto (WsCliFrame) frame = { 0 };
  WsOutputFormat format;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
    context, _ ("Opens the exports of a job's ranks (files, a folder or a glob) as one run and "
                "prints each rank's GPU, kernel, communication, waiting and idle time, its "
                "steps and median step, then the straggler: the rank the others wait for."));
  ws_cli_frame_init (&frame, context, argv[0], WS_CLI_TABLE | WS_CLI_CSV | WS_CLI_JSON,
                     N_ ("Output format: table (default), csv or json"));
  if (!ws_cli_frame_parse (&frame, context, &argc, &argv, 1, -1, NULL))
    return WS_EXIT_BAD_INPUT;
  format = frame.format;

  /* A job is one launch: the targets of a capture folder are separate
   * runs, not ranks. */
  files = argv + 1;
  launches = ws_ranks_loader_launches ((const char *const *) files);
  if (target != NULL)
    {
      for (guint i = 0; i < launches->len && chosen == NULL; i++)
        {
          WsLaunch *launch = g_ptr_array_index (launches, i);

          if (g_strcmp0 (launch->name, target) == 0)
            {
              chosen = g_ptr_array_new_with_free_func (g_free);
              for (guint e = 0; e < launch->exports->len; e++)
                g_ptr_array_add (chosen, g_strdup (g_ptr_array_index (launch->exports, e)));
              g_ptr_array_add (chosen, NULL);
            }
        }
      if (chosen == NULL)
        {
          g_autofree char *names = ws_ranks_loader_launch_names (launches);

          /* TRANSLATORS: the target asked for, then the targets there are */
          g_printerr (_ ("warpscope-cli: ranks: --target %1$s: no such capture target (there: "
                         "%2$s)\n"),
                      target, names);
          return WS_EXIT_BAD_INPUT;
        }
      files = (char **) chosen->pdata;
    }
  else if (launches->len > 1)
    {
      g_autofree char *names = ws_ranks_loader_launch_names (launches);

      /* TRANSLATORS: the folder, the number of runs, then their names */
      g_printerr (_ ("warpscope-cli: ranks: %1$s holds %2$u separate runs (%3$s), not the ranks of "
                     "one job; give one of them, or --target NAME\n"),
                  files[0], launches->len, names);
      return WS_EXIT_BAD_INPUT;
    }

  ws_cli_load_as_job (TRUE);
  run = ws_cli_load (files, WS_LOAD_ALL & ~WS_LOAD_GPU_METRICS, &error);
  if (run == NULL)
    return ws_cli_fail (error);
  ranks = job_ranks (run, files, &set);

  if (format == WS_FORMAT_CSV)
    write_csv (set, out);
  else if (format == WS_FORMAT_JSON)
    {
      g_autofree char *json = write_json (ranks, set);

      g_string_append (out, json);
    }
  else
    write_table (run, ranks, set, out);
  if (!ws_cli_write_report (out, format == WS_FORMAT_CSV || format == WS_FORMAT_JSON, &error))
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      return WS_EXIT_FAILED;
    }
  return WS_EXIT_OK;
}
