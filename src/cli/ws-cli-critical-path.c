/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "ws-cli.h"
#include "ws-critical-path.h"
#include "ws-format.h"
#include "ws-ranks.h"
#include "ws-table-writer.h"

static const char *const headers[] = { "group", "name", "on_path_ns", "path_share", "busy_ns" };
static const gboolean numeric[] = { FALSE, FALSE, TRUE, TRUE, TRUE };

static const char *const if_headers[] = {
  "what_if", "touched", "steps", "predicted_ns", "min_ns", "max_ns", "measured_ns", "change",
};
static const gboolean if_numeric[] = { FALSE, TRUE, TRUE, TRUE, TRUE, TRUE, TRUE, TRUE };

static char *
number (double value, gboolean grouping)
{
  GString *out = g_string_new (NULL);

  ws_format_fixed (out, value, 0, grouping);
  return g_string_free (out, FALSE);
}

static char *
share (double part, double whole)
{
  return ws_format_percent_short (whole > 0 ? 100.0 * part / whole : 0);
}

static void
add_row (GPtrArray *cells, const char *group, const char *name, double on_path, double whole,
         double busy, gboolean has_busy, gboolean grouping)
{
  g_ptr_array_add (cells, g_strdup (group));
  g_ptr_array_add (cells, g_strdup (name));
  g_ptr_array_add (cells, number (on_path, grouping));
  g_ptr_array_add (cells, share (on_path, whole));
  g_ptr_array_add (cells, has_busy ? number (busy, grouping) : g_strdup (""));
}

static void
add_items (GPtrArray *cells, const char *group, GPtrArray *items, guint top, double whole,
           gboolean grouping)
{
  for (guint i = 0; i < items->len && i < top; i++)
    {
      const WsCpItem *item = g_ptr_array_index (items, i);

      add_row (cells, group, item->name, item->on_path, whole, item->busy, TRUE, grouping);
    }
}

static void
predict_all (const WsCriticalPath *cp, GPtrArray *changes, GArray *predictions)
{
  for (guint i = 0; i < changes->len; i++)
    {
      WsCpPrediction p;

      ws_critical_path_predict (cp, (WsWhatIf *const *) &g_ptr_array_index (changes, i), 1, &p);
      g_array_append_val (predictions, p);
    }
  if (changes->len > 1)
    {
      WsCpPrediction p;

      ws_critical_path_predict (cp, (WsWhatIf *const *) changes->pdata, changes->len, &p);
      g_array_append_val (predictions, p);
    }
}

static const char *
change_text (GPtrArray *changes, guint i)
{
  return i < changes->len ? ((WsWhatIf *) g_ptr_array_index (changes, i))->text : "all";
}

static void
add_if_row (GPtrArray *cells, const char *text, const WsCpPrediction *p, gboolean grouping)
{
  g_ptr_array_add (cells, g_strdup (text));
  g_ptr_array_add (cells, g_strdup_printf ("%" G_GSIZE_FORMAT, p->touched));
  g_ptr_array_add (cells, g_strdup_printf ("%u", p->n_steps));
  g_ptr_array_add (cells, number (p->median, grouping));
  g_ptr_array_add (cells, number ((double) p->min, grouping));
  g_ptr_array_add (cells, number ((double) p->max, grouping));
  g_ptr_array_add (cells, number (p->measured, grouping));
  g_ptr_array_add (cells, p->measured > 0 ? ws_format_percent_short (
                                              100.0 * (p->median - p->measured) / p->measured)
                                          : g_strdup (""));
}

static void
add_items_json (JsonBuilder *b, const char *member, GPtrArray *items)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; i < items->len; i++)
    {
      const WsCpItem *item = g_ptr_array_index (items, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, item->name);
      json_builder_set_member_name (b, "on_path_ns");
      json_builder_add_double_value (b, item->on_path);
      json_builder_set_member_name (b, "busy_ns");
      json_builder_add_double_value (b, item->busy);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_prediction_json (JsonBuilder *b, const char *text, const WsCpPrediction *p)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "what_if");
  json_builder_add_string_value (b, text);
  json_builder_set_member_name (b, "touched");
  json_builder_add_int_value (b, (gint64) p->touched);
  json_builder_set_member_name (b, "steps");
  json_builder_add_int_value (b, p->n_steps);
  json_builder_set_member_name (b, "predicted_ns");
  json_builder_add_double_value (b, p->median);
  json_builder_set_member_name (b, "min_ns");
  json_builder_add_int_value (b, p->min);
  json_builder_set_member_name (b, "max_ns");
  json_builder_add_int_value (b, p->max);
  json_builder_set_member_name (b, "measured_ns");
  json_builder_add_double_value (b, p->measured);
  json_builder_end_object (b);
}

static guint
rank_number (const WsRun *run, guint index)
{
  return run->ranks != NULL && index < ws_ranks_get_n (run->ranks)
           ? ws_ranks_get (run->ranks, index)->rank
           : index;
}

static JsonNode *
path_json (const WsRun *run, const WsCriticalPath *cp, GPtrArray *changes, GArray *predictions)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  const WsCpGraph *g = cp->graph;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "graph");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "points");
  json_builder_add_int_value (b, (gint64) g->n_points);
  json_builder_set_member_name (b, "edges");
  json_builder_add_int_value (b, (gint64) g->n_edges);
  json_builder_set_member_name (b, "ranks");
  json_builder_add_int_value (b, g->n_ranks);
  json_builder_set_member_name (b, "collectives");
  json_builder_add_int_value (b, g->n_meetings);
  json_builder_set_member_name (b, "nccl_collectives");
  json_builder_add_int_value (b, g->n_nccl);
  json_builder_set_member_name (b, "syncs");
  json_builder_add_int_value (b, g->n_syncs);
  json_builder_set_member_name (b, "event_waits");
  json_builder_add_int_value (b, g->n_waits);
  json_builder_set_member_name (b, "wakes");
  json_builder_add_int_value (b, g->n_wakes);
  json_builder_set_member_name (b, "edges_left_out");
  json_builder_add_int_value (b, (gint64) g->n_back);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "steps");
  json_builder_begin_array (b);
  for (guint i = 0; i < cp->steps->len; i++)
    {
      const WsCpStep *st = &g_array_index (cp->steps, WsCpStep, i);
      double kinds[WS_CP_N_KINDS] = { 0 };

      for (guint k = 0; k < st->n; k++)
        {
          const WsCpSegment *s = &g_array_index (cp->segments, WsCpSegment, st->first + k);

          kinds[s->kind] += (double) (s->end - s->start);
        }
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "step");
      json_builder_add_int_value (b, st->number);
      json_builder_set_member_name (b, "steady");
      json_builder_add_boolean_value (b, st->steady);
      json_builder_set_member_name (b, "rank");
      json_builder_add_int_value (b, rank_number (run, st->rank));
      json_builder_set_member_name (b, "time_ns");
      json_builder_add_int_value (b, st->time);
      json_builder_set_member_name (b, "path_ns");
      json_builder_add_int_value (b, st->end - st->start);
      json_builder_set_member_name (b, "segments");
      json_builder_add_int_value (b, st->n);
      for (guint k = 0; k < WS_CP_N_KINDS; k++)
        {
          g_autofree char *key = g_strdup_printf ("%s_ns", ws_cp_kind_name (k));

          json_builder_set_member_name (b, key);
          json_builder_add_int_value (b, (gint64) kinds[k]);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "steady_steps");
  json_builder_add_int_value (b, cp->n_steady);
  json_builder_set_member_name (b, "median_step");
  if (cp->median >= 0)
    json_builder_add_int_value (b, g_array_index (cp->steps, WsCpStep, cp->median).number);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "median_ns");
  json_builder_add_double_value (b, cp->median_time);
  json_builder_set_member_name (b, "min_ns");
  json_builder_add_int_value (b, cp->min_time);
  json_builder_set_member_name (b, "max_ns");
  json_builder_add_int_value (b, cp->max_time);
  json_builder_set_member_name (b, "by_kind");
  json_builder_begin_object (b);
  for (guint k = 0; k < WS_CP_N_KINDS; k++)
    {
      json_builder_set_member_name (b, ws_cp_kind_name (k));
      json_builder_add_double_value (b, cp->by_kind[k]);
    }
  json_builder_end_object (b);
  add_items_json (b, "kernels", cp->kernels);
  add_items_json (b, "ranges", cp->ranges);
  add_items_json (b, "ranks", cp->ranks);
  json_builder_set_member_name (b, "what_if");
  json_builder_begin_array (b);
  for (guint i = 0; i < predictions->len; i++)
    add_prediction_json (b, change_text (changes, i),
                         &g_array_index (predictions, WsCpPrediction, i));
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
write_table (GString *out, const WsRun *run, const char *file, const WsCriticalPath *cp,
             GPtrArray *changes, GArray *predictions, guint top)
{
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *median = ws_format_duration (cp->median_time);
  g_autofree char *low = ws_format_duration ((double) cp->min_time);
  g_autofree char *high = ws_format_duration ((double) cp->max_time);
  g_autofree char *sentence = ws_critical_path_busiest_text (cp);
  double sum = 0;

  for (guint k = 0; k < WS_CP_N_KINDS; k++)
    sum += cp->by_kind[k];
  g_string_append_printf (
    out,
    g_dngettext (GETTEXT_PACKAGE,
                 "%s: %u steady step, step time %s (%s–%s); the critical path per steady step:\n",
                 "%s: %u steady steps, median step time %s (%s–%s); the critical path per "
                 "steady step:\n",
                 cp->n_steady),
    file, cp->n_steady, median, low, high);
  if (cp->median >= 0)
    {
      const WsCpStep *st = &g_array_index (cp->steps, WsCpStep, cp->median);

      g_string_append_printf (out, _ ("The median step is step %u; it ends on rank %u.\n"),
                              st->number, rank_number (run, st->rank));
    }
  for (guint k = 0; k < WS_CP_N_KINDS; k++)
    add_row (cells, "kind", ws_cp_kind_label (k), cp->by_kind[k], sum, 0, FALSE, TRUE);
  add_items (cells, "kernel", cp->kernels, top, sum, TRUE);
  add_items (cells, "range", cp->ranges, top, sum, TRUE);
  if (cp->graph->n_ranks > 1)
    add_items (cells, "rank", cp->ranks, G_MAXUINT, sum, TRUE);
  ws_table_write (G_N_ELEMENTS (headers), headers, numeric, cells, WS_FORMAT_TABLE, out);
  if (sentence != NULL)
    g_string_append_printf (out, "%s\n", sentence);
  if (predictions->len > 0)
    {
      g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (g_free);

      g_string_append (out, "\n");
      for (guint i = 0; i < predictions->len; i++)
        {
          const WsCpPrediction *p = &g_array_index (predictions, WsCpPrediction, i);
          g_autofree char *line = ws_cp_prediction_text (change_text (changes, i), p);

          g_string_append_printf (out, "%s\n", line);
        }
    }
}

static const char *const seg_headers[] = {
  "offset_ns", "length_ns", "kind", "edge", "rank", "what",
};
static const gboolean seg_numeric[] = { TRUE, TRUE, FALSE, FALSE, TRUE, FALSE };

/* One step's path, from its start to its end. */
static gboolean
write_step (GString *out, const WsRun *run, const WsCriticalPath *cp, guint wanted,
            WsOutputFormat format)
{
  g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  const WsCpStep *st = NULL;
  gboolean grouping = format == WS_FORMAT_TABLE;

  for (guint i = 0; i < cp->steps->len && st == NULL; i++)
    if (g_array_index (cp->steps, WsCpStep, i).number == wanted)
      st = &g_array_index (cp->steps, WsCpStep, i);
  if (st == NULL)
    return FALSE;
  for (guint k = st->n; k-- > 0;)
    {
      const WsCpSegment *s = &g_array_index (cp->segments, WsCpSegment, st->first + k);

      g_ptr_array_add (cells, number ((double) (s->start - st->start), grouping));
      g_ptr_array_add (cells, number ((double) (s->end - s->start), grouping));
      g_ptr_array_add (cells, g_strdup (ws_cp_kind_name (s->kind)));
      g_ptr_array_add (cells,
                       g_strdup (s->edge < WS_CP_N_EDGES ? ws_cp_edge_name (s->edge) : "start"));
      g_ptr_array_add (cells, g_strdup_printf ("%u", rank_number (run, cp->graph->rank[s->dst])));
      g_ptr_array_add (cells, ws_cp_segment_name (cp, s));
    }
  ws_table_write (G_N_ELEMENTS (seg_headers), seg_headers, seg_numeric, cells, format, out);
  return TRUE;
}

/* What the command prints: one step's path, the JSON, the CSV or the
 * table.  FALSE after saying why, for a step the run does not have. */
static gboolean
write_output (GString *out, const WsRun *run, const char *file, const WsCriticalPath *cp,
              GPtrArray *changes, GArray *predictions, gint step, guint top, WsOutputFormat format)
{
  if (step >= 0)
    {
      if (format == WS_FORMAT_JSON)
        {
          ws_cli_error ("critical-path", _ ("--step prints a table or CSV"));
          return FALSE;
        }
      if (!write_step (out, run, cp, (guint) step, format))
        {
          g_printerr (_ ("warpscope-cli: %s: no step %d\n"), file, step);
          return FALSE;
        }
    }
  else if (format == WS_FORMAT_JSON)
    {
      g_autoptr (JsonNode) root = path_json (run, cp, changes, predictions);
      g_autofree char *text = ws_cli_json_text (root);

      g_string_append (out, text);
    }
  else if (format == WS_FORMAT_CSV)
    {
      g_autoptr (GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);

      if (predictions->len > 0)
        {
          for (guint i = 0; i < predictions->len; i++)
            add_if_row (cells, change_text (changes, i),
                        &g_array_index (predictions, WsCpPrediction, i), FALSE);
          ws_table_write (G_N_ELEMENTS (if_headers), if_headers, if_numeric, cells, WS_FORMAT_CSV,
                          out);
        }
      else
        {
          double sum = 0;

          for (guint k = 0; k < WS_CP_N_KINDS; k++)
            {
              sum += cp->by_kind[k];
            }
          for (guint k = 0; k < WS_CP_N_KINDS; k++)
            add_row (cells, "kind", ws_cp_kind_name (k), cp->by_kind[k], sum, 0, FALSE, FALSE);
          add_items (cells, "kernel", cp->kernels, G_MAXUINT, sum, FALSE);
          add_items (cells, "range", cp->ranges, G_MAXUINT, sum, FALSE);
          add_items (cells, "rank", cp->ranks, G_MAXUINT, sum, FALSE);
          ws_table_write (G_N_ELEMENTS (headers), headers, numeric, cells, WS_FORMAT_CSV, out);
        }
    }
  else
    write_table (out, run, file, cp, changes, predictions, top);

  return TRUE;
}

int
ws_cli_critical_path (int argc, char **argv)
{
  g_auto (GStrv) what_ifs = NULL;
  gint top = 10;
  gint step = -1;
  GOptionEntry entries[] = {
    { "step", 's', 0, G_OPTION_ARG_INT, &step,
      N_ ("Print this step's path instead, part by part from its start"), "N" },
    { "what-if", 'w', 0, G_OPTION_ARG_STRING_ARRAY, &what_ifs,
      N_ ("A change to predict: kernel:NAME=0.5x, nvtx:NAME@rankN=-15ms, range:NAME=-30% (NAME a "
          "glob); each alone, then all together"),
      "CHANGE" },
    { "top", 'n', 0, G_OPTION_ARG_INT, &top, N_ ("Kernels and ranges listed (default 10)"), "N" },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("FILE… — what decides the step time, and what a change would buy"));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  g_autoptr (WsCriticalPath) cp = NULL;
  g_autoptr (GPtrArray) changes = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_what_if_free);
  g_autoptr (GArray) predictions = g_array_new (FALSE, FALSE, sizeof (WsCpPrediction));
  g_autoptr (GString) out = g_string_new (NULL);
  g_auto (WsCliFrame) frame = { 0 };

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
    context,
    _ ("Builds the dependency graph of the run (host order, launches, streams, syncs, event "
       "waits, threads woken by others, collectives across ranks), finds the critical path of "
       "each step (the chain of what each moment waited for, from the step's end back to its "
       "start) and prints its time per steady step by kind, kernel, NVTX range and rank, beside "
       "the time each one ran. --what-if replays the graph with a change and prints the "
       "predicted step time. The model and its limits: docs/critical-path.md."));
  ws_cli_frame_init (&frame, context, argv[0], WS_CLI_TABLE | WS_CLI_CSV | WS_CLI_JSON,
                     N_ ("Output format: table (default), csv or json"));
  if (!ws_cli_frame_parse (&frame, context, &argc, &argv, 1, -1, NULL))
    return WS_EXIT_BAD_INPUT;
  if (top < 0)
    {
      ws_cli_error (frame.command, _ ("--top must be 0 or more"));
      return WS_EXIT_BAD_INPUT;
    }
  for (guint i = 0; what_ifs != NULL && what_ifs[i] != NULL; i++)
    {
      WsWhatIf *change = ws_what_if_parse (what_ifs[i], &error);

      if (change == NULL)
        {
          g_printerr ("warpscope-cli: %s\n", error->message);
          return WS_EXIT_BAD_INPUT;
        }
      g_ptr_array_add (changes, change);
    }

  run = ws_cli_load (argv + 1, WS_LOAD_ALL & ~WS_LOAD_GPU_METRICS, &error);
  if (run == NULL)
    return ws_cli_fail (error);
  if (run->api.n == 0 || run->kernels.n == 0)
    {
      g_printerr (_ ("warpscope-cli: %s: no CUDA API calls or no kernels: the critical path "
                     "needs both (nsys -t cuda)\n"),
                  argv[1]);
      return WS_EXIT_BAD_INPUT;
    }
  cp = ws_critical_path_new (run, NULL);
  if (cp->n_steady == 0)
    {
      g_printerr (_ ("warpscope-cli: %s: no steady steps: the critical path is of a step "
                     "(NVTX ranges “step 0”, “step 1”, …)\n"),
                  argv[1]);
      return WS_EXIT_BAD_INPUT;
    }
  predict_all (cp, changes, predictions);
  for (guint i = 0; i < changes->len; i++)
    if (g_array_index (predictions, WsCpPrediction, i).touched == 0)
      {
        g_printerr (_ ("warpscope-cli: %s: what-if “%s” matches nothing in the run\n"), argv[1],
                    change_text (changes, i));
        return WS_EXIT_BAD_INPUT;
      }

  if (!write_output (out, run, argv[1], cp, changes, predictions, step, (guint) top, frame.format))
    return WS_EXIT_BAD_INPUT;
  if (!ws_cli_write_report (out, frame.format == WS_FORMAT_CSV || frame.format == WS_FORMAT_JSON,
                            &error))
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      return WS_EXIT_FAILED;
    }
  return WS_EXIT_OK;
}
