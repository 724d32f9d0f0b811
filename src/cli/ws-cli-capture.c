/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "ws-capture-launch.h"
#include "ws-capture-prepare.h"
#include "ws-capture-runner.h"
#include "ws-cli.h"
#include "ws-nsys-kernel-identity.h"
#include "ws-ssh-host.h"
#include "ws-doctor.h"
#include "ws-error.h"
#include "ws-target-validate.h"

typedef struct
{
  GMainLoop *loop;
  WsCaptureRunner *runner;
  GCancellable *cancellable;
  gboolean ok;
  GError *error;
  guint interrupts;
  gboolean show_transfer; /* standard error is a terminal */
  gboolean transfer_shown;
} CaptureRun;

/* Every line of the log, as it comes: the [STEP x/6] lines and the tools'
 * own output, as the log file gets them. */
static void
log_cb (WsCaptureRunner *runner, guint target, guint step, guint kind, const char *line,
        gpointer data)
{
  CaptureRun *run = data;

  if (run->transfer_shown)
    {
      ws_cli_clear_line ();
      run->transfer_shown = FALSE;
    }
  /* A target's name and its program's output, escaped for the terminal
   * (the log file keeps them exact). */
  g_print ("%s\n", line);
}

/* A copy from a host: one line of standard error, rewritten, on a
 * terminal; the log says what arrived. */
static void
transfer_cb (WsCaptureRunner *runner, guint target, guint64 done, guint64 total, const char *file,
             gpointer data)
{
  CaptureRun *run = data;
  g_autofree char *done_text = g_format_size (done);
  g_autofree char *total_text = g_format_size (total);

  if (!run->show_transfer)
    return;
  ws_cli_clear_line ();
  g_printerr (_ ("copying %s: %s of %s (%.0f%%)"), file != NULL ? file : "", done_text, total_text,
              total > 0 ? 100.0 * done / total : 100.0);
  run->transfer_shown = TRUE;
}

static void
finished_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  CaptureRun *run = data;

  run->ok = ws_capture_runner_run_finish (WS_CAPTURE_RUNNER (source), result, &run->error);
  g_main_loop_quit (run->loop);
}

/* The tools run in process groups of their own, out of the terminal's
 * reach: Ctrl+C comes here and cancels them (a second one kills them). */
static gboolean
interrupt_cb (gpointer data)
{
  CaptureRun *run = data;

  if (run->interrupts++ == 0)
    {
      g_printerr ("%s\n", _ ("warpscope-cli: cancelling the capture…"));
      g_cancellable_cancel (run->cancellable);
    }
  else
    ws_capture_runner_kill (run->runner);
  return G_SOURCE_CONTINUE;
}

/* The doctor of each machine the rows run on: this one when a row runs
 * here, then each host. */
static GPtrArray *
capture_doctor (const WsCaptureSettings *settings, WsTargetList *list, GArray *rows,
                const char *out_dir)
{
  g_autoptr (GPtrArray) hosts = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_ssh_host_free);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *checks = NULL;
  gboolean here = FALSE;

  for (guint i = 0; i < rows->len; i++)
    {
      guint row = g_array_index (rows, guint, i);
      g_autofree char *spec = NULL;
      WsSshHost *host;

      if (settings->host != NULL && !ws_ssh_host_is_local (settings->host))
        spec = g_strdup (settings->host);
      else if (settings->host == NULL && ws_target_list_is_remote (list, row))
        spec = g_strstrip (g_strdup (ws_target_list_get (list, row, WS_TARGET_HOST)));
      if (spec == NULL)
        {
          here = TRUE;
          continue;
        }
      if (!g_hash_table_add (seen, g_strdup (spec)))
        continue;
      host = ws_ssh_host_lookup (settings->hosts, spec, NULL);
      if (host != NULL)
        g_ptr_array_add (hosts, host);
    }
  checks = here ? ws_doctor_run (settings, out_dir, NULL, NULL, NULL)
                : g_ptr_array_new_with_free_func ((GDestroyNotify) ws_doctor_check_free);
  for (guint i = 0; i < hosts->len; i++)
    {
      g_autoptr (GPtrArray) there =
        ws_doctor_run_on_host (settings, g_ptr_array_index (hosts, i), NULL);

      for (guint c = 0; c < there->len; c++)
        g_ptr_array_add (checks, g_ptr_array_steal_index (there, c--));
    }
  return checks;
}

static gboolean
select_rows (WsTargetList *list, const char *only, GArray *rows)
{
  guint n = ws_target_list_get_n_targets (list);

  if (only == NULL)
    {
      for (guint i = 0; i < n; i++)
        g_array_append_val (rows, i);
      return TRUE;
    }
  {
    g_auto (GStrv) names = g_strsplit (only, ",", -1);

    for (guint i = 0; names[i] != NULL; i++)
      {
        const char *name = g_strstrip (names[i]);
        int row;

        if (name[0] == '\0')
          continue;
        row = ws_target_list_find (list, name);
        if (row < 0)
          {
            g_printerr (_ ("warpscope-cli: %s: no target named “%s”\n"),
                        ws_target_list_get_path (list), name);
            return FALSE;
          }
        g_array_append_val (rows, row);
      }
  }
  return TRUE;
}

static gboolean
check_rows (WsTargetList *list, GArray *rows, gboolean per_rank)
{
  gboolean ok = TRUE;

  /* --per-rank: every target must be a job of some ranks, said before
   * anything runs. */
  for (guint i = 0; per_rank && i < rows->len; i++)
    {
      guint row = g_array_index (rows, guint, i);
      const char *cmd = ws_target_list_get (list, row, WS_TARGET_CMD);
      WsCaptureLaunch launch;
      g_autoptr (GError) error = NULL;

      if (cmd == NULL)
        continue;
      if (ws_capture_launch_parse (cmd, &launch, &error))
        ws_capture_launch_clear (&launch);
      else
        {
          g_printerr ("warpscope-cli: %s:%u: %s: %s\n", ws_target_list_get_path (list),
                      ws_target_list_get_line (list, row),
                      ws_target_list_get (list, row, WS_TARGET_NAME), error->message);
          ok = FALSE;
        }
    }

  for (guint i = 0; i < rows->len; i++)
    {
      g_autoptr (GPtrArray) problems =
        ws_target_list_validate_row (list, g_array_index (rows, guint, i));

      for (guint p = 0; p < problems->len; p++)
        {
          g_autofree char *line =
            ws_target_list_format_problem (list, g_ptr_array_index (problems, p));

          g_printerr ("warpscope-cli: %s\n", line);
          ok = FALSE;
        }
    }
  return ok;
}

static void
print_summary (WsCaptureRunner *runner)
{
  for (guint t = 0; t < ws_capture_runner_get_n_targets (runner); t++)
    {
      const char *name = ws_capture_runner_get_target_name (runner, t);
      const char *dir = ws_capture_runner_get_target_dir (runner, t);

      if (ws_capture_runner_get_target_succeeded (runner, t))
        {
          g_print (_ ("%s: done: %s\n"), name, dir);
          continue;
        }
      for (guint s = 1; s <= WS_CAPTURE_N_STEPS; s++)
        if (ws_capture_runner_get_step_state (runner, t, s) == WS_CAPTURE_STEP_FAILED)
          {
            g_autofree char *step = g_strdup_printf ("%u/%d", s, WS_CAPTURE_N_STEPS);

            g_print (_ ("%s: failed at step %s: %s\n"), name, step,
                     ws_capture_runner_get_step_message (runner, t, s));
            break;
          }
        else if (s == WS_CAPTURE_N_STEPS)
          g_print (_ ("%s: not run\n"), name);
    }
}

/* The options of `capture`, as given: NULL or -1 where not. */
typedef struct
{
  char *targets, *out, *only, *nsys, *ncu, *nvtx_range, *ncu_set, *ncu_sections, *group, *log;
  char *host, *remote_dir, *comm_replay, *graph_trace;
  gboolean leave_reports, continue_on_error, per_rank, single_ncu_run;
  int bwlimit, topn, launch_count, stall_timeout;
} CaptureOptions;

static void
capture_options_clear (CaptureOptions *o)
{
  char **strings[] = { &o->targets,    &o->out,        &o->only,         &o->nsys,       &o->ncu,
                       &o->nvtx_range, &o->ncu_set,    &o->ncu_sections, &o->group,      &o->log,
                       &o->host,       &o->remote_dir, &o->comm_replay,  &o->graph_trace };

  for (gsize i = 0; i < G_N_ELEMENTS (strings); i++)
    g_clear_pointer (strings[i], g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CaptureOptions, capture_options_clear)

/* The settings of a capture: the environment's, then the options given.
 * Prints what is wrong with them. */
static WsCaptureSettings *
capture_settings (const CaptureOptions *o, const char *command)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsCaptureSettings) settings =
    ws_cli_capture_settings (o->out, o->nsys, o->ncu, o->ncu_set, &error);

  if (settings == NULL)
    {
      ws_cli_fail (error);
      return NULL;
    }

  if (o->targets != NULL)
    ws_cli_replace_string (&settings->targets_file, o->targets);
  if (o->nvtx_range != NULL)
    ws_cli_replace_string (&settings->nvtx_range, o->nvtx_range[0] != '\0' ? o->nvtx_range : NULL);
  if (o->ncu_sections != NULL)
    ws_cli_replace_string (&settings->ncu_sections,
                           o->ncu_sections[0] != '\0' ? o->ncu_sections : NULL);
  if (o->group != NULL)
    ws_cli_replace_string (&settings->group, o->group);
  if (o->log != NULL)
    ws_cli_replace_string (&settings->global_log, o->log);
  if (o->host != NULL)
    ws_cli_replace_string (&settings->host, o->host);
  if (o->remote_dir != NULL)
    ws_cli_replace_string (&settings->remote_dir, o->remote_dir);
  if (o->leave_reports)
    settings->leave_reports = TRUE;
  if (o->bwlimit > 0)
    settings->transfer_limit = (guint) o->bwlimit;
  /* G_MININT: not given (-1 is a value given, and refused). */
  if ((o->topn != G_MININT && o->topn < 1) || (o->launch_count != G_MININT && o->launch_count < 0))
    {
      ws_cli_error (command, _ ("--topn must be 1 or more, --launch-count 0 or more"));
      return NULL;
    }
  if (o->topn > 0)
    settings->topn = (guint) o->topn;
  if (o->launch_count != G_MININT)
    settings->ncu_launch_count = (guint) o->launch_count;
  if (o->single_ncu_run)
    settings->ncu_multi_run = FALSE;
  if (o->continue_on_error)
    settings->continue_on_error = TRUE;
  if (o->per_rank)
    settings->per_rank = TRUE;
  if (o->graph_trace != NULL)
    ws_cli_replace_string (&settings->nsys_cuda_graph_trace, o->graph_trace);
  if (o->comm_replay != NULL)
    {
      if (g_str_equal (o->comm_replay, "none") || o->comm_replay[0] == '\0')
        ws_cli_replace_string (&settings->ncu_comm_replay, NULL);
      else if (g_str_equal (o->comm_replay, "range") || g_str_equal (o->comm_replay, "app-range"))
        ws_cli_replace_string (&settings->ncu_comm_replay, o->comm_replay);
      else
        {
          ws_cli_error (command, _ ("--ncu-comm-replay %s: expected range, app-range or none"),
                        o->comm_replay);
          return NULL;
        }
    }
  if (o->stall_timeout < -1)
    {
      ws_cli_error (command, _ ("--ncu-stall-timeout must be 0 or more"));
      return NULL;
    }
  if (o->stall_timeout >= 0)
    settings->ncu_stall_timeout = (guint) o->stall_timeout;
  if (!ws_capture_settings_validate (settings, &error))
    {
      ws_cli_fail (error);
      return NULL;
    }

  return g_steal_pointer (&settings);
}

/* Checks the machines, then captures @rows of @list until done or
 * interrupted; prints what each target did.  Returns the exit status. */
static int
run_targets (WsCaptureSettings *settings, WsTargetList *list, GArray *rows, const char *cwd)
{
  g_autoptr (GPtrArray) checks = NULL;
  g_autofree char *out_dir = NULL;
  CaptureRun run = { 0 };
  guint sigint, sigterm, sighup;

  /* The machines' problems first: a long run that fails at its end for a
   * permission is worse than a warning now. */
  {
    g_autoptr (GFile) file = g_file_new_for_commandline_arg (settings->output_dir);

    out_dir = g_file_get_path (file);
  }
  checks = capture_doctor (settings, list, rows, out_dir);
  ws_cli_print_doctor (checks, TRUE, stderr);

  run.loop = g_main_loop_new (NULL, FALSE);
  run.cancellable = g_cancellable_new ();
  run.runner = ws_capture_runner_new (list, (const guint *) rows->data, rows->len, settings, cwd);
  ws_capture_runner_set_kernel_lookup (run.runner, ws_nsys_kernel_identities);
  run.show_transfer = isatty (STDERR_FILENO);
  g_signal_connect (run.runner, "log", G_CALLBACK (log_cb), &run);
  g_signal_connect (run.runner, "transfer", G_CALLBACK (transfer_cb), &run);
  sigint = g_unix_signal_add (SIGINT, interrupt_cb, &run);
  sigterm = g_unix_signal_add (SIGTERM, interrupt_cb, &run);
  sighup = g_unix_signal_add (SIGHUP, interrupt_cb, &run);
  ws_capture_runner_run_async (run.runner, run.cancellable, finished_cb, &run);
  g_main_loop_run (run.loop);
  g_source_remove (sigint);
  g_source_remove (sigterm);
  g_source_remove (sighup);
  if (run.transfer_shown)
    g_printerr ("\n");

  {
    int status;

    if (!run.ok && g_error_matches (run.error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
      {
        print_summary (run.runner);
        g_printerr ("warpscope-cli: %s\n", _ ("the capture was cancelled"));
        status = WS_EXIT_FAILED;
      }
    else if (!run.ok)
      status = ws_cli_fail (run.error);
    else
      {
        print_summary (run.runner);
        status = ws_capture_runner_get_n_failed (run.runner) > 0 ? WS_EXIT_FAILED : WS_EXIT_OK;
      }
    g_clear_error (&run.error);
    g_clear_object (&run.runner);
    g_clear_object (&run.cancellable);
    g_main_loop_unref (run.loop);
    return status;
  }
}

int
ws_cli_capture (int argc, char **argv)
{
  g_auto (CaptureOptions)
    o = { .bwlimit = -1, .topn = G_MININT, .launch_count = G_MININT, .stall_timeout = -1 };
  GOptionEntry entries[] = {
    { "targets", 't', 0, G_OPTION_ARG_FILENAME, &o.targets,
      N_ ("The targets file (default: TARGETS_TSV)"), "FILE.tsv" },
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &o.out,
      N_ ("Output folder (default: OUT_DIR, or ./out)"), "DIR" },
    { "only", 0, 0, G_OPTION_ARG_STRING, &o.only, N_ ("Capture only these targets"), "NAME,…" },
    { "topn", 'n', 0, G_OPTION_ARG_INT, &o.topn,
      N_ ("Kernels profiled with ncu per target (default: TOPN, or 10)"), "N" },
    { "nsys", 0, 0, G_OPTION_ARG_FILENAME, &o.nsys, N_ ("The nsys to run"), "PATH" },
    { "ncu", 0, 0, G_OPTION_ARG_FILENAME, &o.ncu, N_ ("The ncu to run"), "PATH" },
    { "nvtx-range", 0, 0, G_OPTION_ARG_STRING, &o.nvtx_range,
      N_ ("Capture only this NVTX range (default: NVTX_NAME)"), "RANGE@DOMAIN" },
    { "cuda-graph-trace", 0, 0, G_OPTION_ARG_STRING, &o.graph_trace,
      N_ ("How nsys records CUDA graphs: node (each kernel of a replay, the default) or graph "
          "(one span per replay) (default: NSYS_CUDA_GRAPH_TRACE)"),
      "node|graph" },
    { "ncu-set", 0, 0, G_OPTION_ARG_STRING, &o.ncu_set,
      N_ ("ncu --set (default: NCU_SET, or full)"), "SET" },
    { "ncu-sections", 0, 0, G_OPTION_ARG_STRING, &o.ncu_sections,
      N_ ("ncu --section list instead of a set (default: NCU_SECTIONS)"), "A,B" },
    { "launch-count", 0, 0, G_OPTION_ARG_INT, &o.launch_count,
      N_ ("Launches of each kernel that ncu profiles, 0 for all (default: NCU_LAUNCH_COUNT)"),
      "N" },
    { "single-ncu-run", 0, 0, G_OPTION_ARG_NONE, &o.single_ncu_run,
      N_ ("One ncu run for all the top kernels (NCU_MULTI_RUN=0)"), NULL },
    { "ncu-comm-replay", 0, 0, G_OPTION_ARG_STRING, &o.comm_replay,
      N_ ("Profile NCCL, NVSHMEM and other communication kernels with this ncu replay mode: "
          "range or app-range; none leaves them out of the top N, as by default "
          "(NCU_COMM_REPLAY)"),
      "MODE" },
    { "ncu-stall-timeout", 0, 0, G_OPTION_ARG_INT, &o.stall_timeout,
      N_ ("End an ncu run that prints nothing for this many seconds, 0 for never (default: "
          "NCU_STALL_TIMEOUT, or 600)"),
      "SECONDS" },
    { "continue-on-error", 0, 0, G_OPTION_ARG_NONE, &o.continue_on_error,
      N_ ("Go on with a target's next steps after a failed one"), NULL },
    { "per-rank", 0, 0, G_OPTION_ARG_NONE, &o.per_rank,
      N_ ("Targets are distributed jobs (torchrun --nproc_per_node N, mpirun -n N): one nsys "
          "export per rank, the kernels picked from all of them, ncu on rank 0 (PER_RANK=1)"),
      NULL },
    { "group", 'g', 0, G_OPTION_ARG_STRING, &o.group,
      N_ ("Group folder in the output folder (default: the targets file's name)"), "NAME" },
    { "log", 0, 0, G_OPTION_ARG_FILENAME, &o.log,
      N_ ("One log for the whole run (default: GLOBAL_LOG, or capture.log in the group)"), "FILE" },
    { "host", 'H', 0, G_OPTION_ARG_STRING, &o.host,
      N_ ("Capture every target on this machine, over ssh: an ssh Host alias or user@host[:port] "
          "(default: each target's HOST column)"),
      "NAME" },
    { "remote-dir", 0, 0, G_OPTION_ARG_STRING, &o.remote_dir,
      N_ ("The folder for captures on the hosts (default: ~/warpscope-captures)"), "DIR" },
    { "leave-reports", 0, 0, G_OPTION_ARG_NONE, &o.leave_reports,
      N_ ("Leave the .nsys-rep and .ncu-rep reports on the host (warpscope-cli fetch brings them)"),
      NULL },
    { "bwlimit", 0, 0, G_OPTION_ARG_INT, &o.bwlimit,
      N_ ("Bandwidth for copies from hosts, in KiB/s (default: no limit)"), "KIB" },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("— capture targets with nsys and ncu"));
  g_autoptr (WsCaptureSettings) settings = NULL;
  g_autoptr (WsTargetList) list = NULL;
  g_autoptr (GArray) rows = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GError) error = NULL;
  g_autofree char *cwd = g_get_current_dir ();

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
    context,
    _ ("Runs the six steps of the capture workflow for each target of a targets.tsv file: "
       "nsys over the whole program, its kernel summary, then ncu over the top-N kernels, into "
       "OUT/<group>/<NAME>/{nsys,ncu} with a run.json manifest. Prints the [STEP x/6] lines "
       "and the tools' output as they come. The workflow's environment variables (OUT_DIR, "
       "TOPN, NVTX_NAME, NCU_SET, …) are read; options override them. A target whose HOST "
       "column names another machine (or every target, with --host) runs there over ssh "
       "(WARPSCOPE_SSH replaces the ssh command), and its files are copied back. Exit status: "
       "0 every target succeeded, 1 one failed (or Ctrl+C), 2 bad input."));
  if (!ws_cli_parse (context, &argc, &argv, 0, 0))
    return WS_EXIT_BAD_INPUT;
  settings = capture_settings (&o, argv[0]);
  if (settings == NULL)
    return WS_EXIT_BAD_INPUT;
  if (settings->targets_file == NULL)
    {
      ws_cli_error (argv[0], _ ("which targets? Give --targets FILE.tsv (or set TARGETS_TSV)"));
      return WS_EXIT_BAD_INPUT;
    }
  if (!ws_capture_check_log (settings, settings->targets_file, cwd, settings->nsys_path,
                             settings->ncu_path, &error))
    return ws_cli_fail (error);
  list = ws_target_list_new_from_file (settings->targets_file, &error);
  if (list == NULL)
    return ws_cli_fail (error);
  if (!select_rows (list, o.only, rows))
    return WS_EXIT_BAD_INPUT;
  if (rows->len == 0)
    {
      g_printerr (_ ("warpscope-cli: %s: no targets\n"), settings->targets_file);
      return WS_EXIT_BAD_INPUT;
    }
  if (!check_rows (list, rows, settings->per_rank))
    return WS_EXIT_BAD_INPUT;

  return run_targets (settings, list, rows, cwd);
}
